/* replay.c — runs a fuzz target over files without libFuzzer: `replay-X [--must-load]
 * FILE…` feeds each file to LLVMFuzzerTestOneInput once; with --must-load every file must
 * also load (exit 1 naming the first that does not). make check replays the scenarios and
 * test inputs through the targets this way; a crash file from tools/fuzz replays the same
 * way. Each file's name is printed before it runs: the last one printed is the culprit. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include <glib.h>
#include "fuzz.h"

int
main (int argc, char **argv)
{
  int must_load = argc > 1 && strcmp (argv[1], "--must-load") == 0;

  LLVMFuzzerInitialize (&argc, &argv);
  for (int i = 1 + must_load; i < argc; i++) {
    g_autofree char *data = NULL;
    gsize len;
    g_autoptr (GError) error = NULL;

    if (!g_file_get_contents (argv[i], &data, &len, &error)) {
      fprintf (stderr, "replay: %s\n", error->message);
      return 2;
    }
    printf ("replay: %s\n", argv[i]);
    fflush (stdout);
    ns_fuzz_input_path = argv[i];
    LLVMFuzzerTestOneInput ((const guint8 *) data, len);
    ns_fuzz_input_path = NULL;
    if (must_load && !ns_fuzz_last_loaded) {
      fprintf (stderr, "replay: %s did not load: %s\n", argv[i], ns_fuzz_last_error);
      return 1;
    }
  }
  return 0;
}
