/* fuzz.h — what the fuzz targets share: libFuzzer's entry points and a scratch file. */
#ifndef NS_FUZZ_H
#define NS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <glib.h>

int         LLVMFuzzerInitialize   (int *argc, char ***argv);
int         LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* Writes data to this process's scratch file and returns its path; aborts on I/O errors. */
const char *ns_fuzz_write_scratch  (const uint8_t *data, size_t size);

/* Aborts unless exactly one of result and error is set and an error has a message; frees
 * the error. Returns whether there is a result. */
int         ns_fuzz_check_load     (const void *result, GError *error);

#endif
