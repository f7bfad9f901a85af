/* replay.c — runs a fuzz target over files without libFuzzer: `replay-X FILE…` feeds each
 * file to LLVMFuzzerTestOneInput once. make check replays the scenarios and test inputs
 * through the targets this way; a crash file from tools/fuzz replays the same way. Each
 * file's name is printed before it runs, so the last name printed is the one that broke. */
#include "config.h"
#include <stdio.h>
#include <glib.h>
#include "fuzz.h"

int
main (int argc, char **argv)
{
  LLVMFuzzerInitialize (&argc, &argv);
  for (int i = 1; i < argc; i++) {
    g_autofree char *data = NULL;
    gsize len;
    g_autoptr (GError) error = NULL;

    if (!g_file_get_contents (argv[i], &data, &len, &error)) {
      fprintf (stderr, "replay: %s\n", error->message);
      return 2;
    }
    printf ("replay: %s\n", argv[i]);
    fflush (stdout);
    LLVMFuzzerTestOneInput ((const guint8 *) data, len);
  }
  return 0;
}
