/* fuzz-recorded.c — fuzz target for the recorded results (sim/validate.c), what
 * `netsim validate --recorded=DIR` reads: a copy of validation/ in which one file is
 * replaced by the input. The input's first byte picks the file (seed-000 … seed-004.xml,
 * cases.xml, calibration.xml); the rest is its content. The contract: loaded or an error
 * with a message; after loading, every row is found by its id, selecting all rows gives
 * them all, and each modelled case gives its scenario's path and its --set list. */
#include "config.h"
#include <stdlib.h>
#include <glib.h>
#include "sim/validate.h"
#include "fuzz.h"

static const char *const files[] = {
  "seed-000.xml", "seed-001.xml", "seed-002.xml", "seed-003.xml", "seed-004.xml",
  "cases.xml", "calibration.xml"
};
#define N_FILES G_N_ELEMENTS (files)

static char *copy_dir;
static char *originals[N_FILES];
static gsize original_len[N_FILES];

/* Writes len bytes to copy_dir/name; aborts on I/O errors. */
static void
put (const char *name, const void *data, gsize len)
{
  g_autofree char *path = g_build_filename (copy_dir, name, NULL);

  if (!g_file_set_contents (path, data, (gssize) len, NULL))
    abort ();
}

/* Copies the shipped recorded results into the scratch folder, once. */
static void
copy_recorded (void)
{
  if (copy_dir)
    return;
  copy_dir = g_build_filename (ns_fuzz_scratch_dir (), "validation", NULL);
  if (g_mkdir_with_parents (copy_dir, 0700) != 0)
    abort ();
  for (guint i = 0; i < N_FILES; i++) {
    g_autofree char *src = g_build_filename (g_getenv ("NETSIM_DATADIR"), "validation",
                                             files[i], NULL);
    if (!g_file_get_contents (src, &originals[i], &original_len[i], NULL))
      abort ();
    put (files[i], originals[i], original_len[i]);
  }
}

/* Checks what a loaded set of recorded results reports; aborts on an inconsistency. */
static void
check_loaded (const NsValidation *v)
{
  GPtrArray *rows = ns_validation_rows (v);
  g_autoptr (GPtrArray) all = ns_validation_select (v, NULL, NULL);

  if (all == NULL || all->len != rows->len)
    abort ();
  for (guint i = 0; i < rows->len; i++) {
    const NsRecordedRow *row = rows->pdata[i];
    const NsValCase *c = ns_validation_case (v, row->id);
    if (ns_validation_find_row (v, row->id) != row || !(ns_validation_tolerance (row) > 0))
      abort ();
    if (c != NULL && c->scenario != NULL) {          /* NULL: not modelled */
      g_autofree char *path = ns_validation_scenario_path (c);
      g_auto (GStrv) sets = ns_validation_case_sets (c);
      if (path == NULL || sets == NULL)
        abort ();
    }
  }
}

/* Loads the copy with one file replaced by the input, then restores the file. */
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  guint which;
  GError *error = NULL;
  NsValidation *v;

  if (size == 0)
    return 0;
  copy_recorded ();
  which = data[0] % N_FILES;
  put (files[which], data + 1, size - 1);
  v = ns_validation_load (copy_dir, &error);
  if (ns_fuzz_check_load (v, error)) {
    check_loaded (v);
    ns_validation_free (v);
  }
  put (files[which], originals[which], original_len[which]);
  return 0;
}
