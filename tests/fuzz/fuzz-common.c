/* fuzz-common.c — set-up shared by the fuzz targets: the data directory and a scratch file
 * the loaders read (they take paths, as the command line does). */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>
#include "fuzz.h"

static char *scratch;

static void
remove_scratch (void)
{
  if (scratch)
    g_unlink (scratch);
}

/* Points NETSIM_DATADIR at the source tree unless set, and names the scratch file. */
int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  (void) argc;
  (void) argv;
  g_setenv ("NETSIM_DATADIR", NS_SRCDIR, FALSE);
  scratch = g_strdup_printf ("%s/netsim-fuzz-%d.xml", g_get_tmp_dir (), (int) getpid ());
  atexit (remove_scratch);
  return 0;
}

/* Writes data to the scratch file and returns its path; aborts on I/O errors. */
const char *
ns_fuzz_write_scratch (const uint8_t *data, size_t size)
{
  FILE *f = fopen (scratch, "wb");

  if (f == NULL || fwrite (data, 1, size, f) != size || fclose (f) != 0)
    abort ();
  return scratch;
}

/* Aborts unless exactly one of result and error is set and an error has a message; frees
 * the error. Returns whether there is a result. */
int
ns_fuzz_check_load (const void *result, GError *error)
{
  if ((result == NULL) == (error == NULL))
    abort ();
  if (error == NULL)
    return 1;
  if (error->message == NULL || error->message[0] == '\0')
    abort ();
  g_error_free (error);
  return 0;
}
