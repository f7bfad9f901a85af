/* fuzz.h — what the fuzz targets share: libFuzzer's entry points and a scratch file. */
#ifndef NS_FUZZ_H
#define NS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <glib.h>

int         LLVMFuzzerInitialize   (int *argc, char ***argv);
int         LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* Writes data to the scratch folder as NAME.xml (a safe name, else "input") and returns
 * the path; aborts on I/O errors. */
const char *ns_fuzz_write_scratch  (const uint8_t *data, size_t size, const char *name);
/* Writes data to the scratch folder as file (a plain name) and returns the path; aborts
 * on I/O errors. */
const char *ns_fuzz_write_scratch_file (const uint8_t *data, size_t size, const char *file);

/* The value of the first name="…" in data (a profile's or package's name, which its
 * file must be named after), or NULL; newly allocated. */
char       *ns_fuzz_first_name     (const uint8_t *data, size_t size);

/* The scratch folder (made by LLVMFuzzerInitialize). */
const char *ns_fuzz_scratch_dir    (void);

/* Aborts unless exactly one of result and error is set and an error has a message; frees
 * the error. Returns whether there is a result. */
int         ns_fuzz_check_load     (const void *result, GError *error);

/* The file the input being run was read from (set by replay; NULL under libFuzzer): a
 * target may load it in place, so the paths it names resolve as they do for netsim. */
extern const char *ns_fuzz_input_path;

/* Whether the last input checked by ns_fuzz_check_load loaded; its error message if not. */
extern int   ns_fuzz_last_loaded;
extern char  ns_fuzz_last_error[256];

#endif
