/* fuzz-resume.c — fuzz target for resuming a sweep (sim/sweep.c, sim/csv.c): an input is
 * the existing output file of `netsim sweep --resume` for a fixed grid over
 * scenarios/micro/call-chain.xml (FUZZ_RESUME_GRID), as a crash or a hand edit may have
 * left it. The contract: opening succeeds or fails with an error message; after success,
 * no more points are done than the grid has, each done point's row has one field per
 * column, and the JSON of the points done is written. Sanitizers catch the rest. */
#include "config.h"
#include <stdlib.h>
#include <glib.h>
#include "sim/sweep.h"
#include "fuzz.h"

/* The grid; tools/fuzz seeds the corpus with this sweep's real output. */
#define FUZZ_RESUME_SETS  "measure.warmup=2us", "measure.duration=20us"
#define FUZZ_RESUME_GRID  "workload.depth=1,2,3", "seed=1,2"

/* A prepared sweep of the fixed grid; aborts if it cannot be made (a broken tree). */
static NsSweep *
make_sweep (void)
{
  static const char *const sets[] = { FUZZ_RESUME_SETS, NULL };
  static const char *const grid[] = { FUZZ_RESUME_GRID, NULL };
  g_autofree char *path = g_build_filename (g_getenv ("NETSIM_DATADIR"), "scenarios",
                                            "micro", "call-chain.xml", NULL);
  NsSweep *sweep = ns_sweep_new (path, NULL, sets, NULL);

  if (sweep == NULL)
    abort ();
  for (guint i = 0; grid[i]; i++)
    if (!ns_sweep_add_param (sweep, grid[i], NULL))
      abort ();
  if (!ns_sweep_prepare (sweep, NULL))
    abort ();
  return sweep;
}

/* Checks what a resumed sweep reports; aborts on an inconsistency. */
static void
check_resumed (const NsSweep *sweep)
{
  guint n_columns = g_strv_length ((char **) ns_sweep_columns (sweep));
  guint done = 0;
  g_autoptr (GString) json = g_string_new (NULL);

  for (guint p = 0; p < ns_sweep_n_points (sweep); p++) {
    g_auto (GStrv) row = ns_sweep_row (sweep, p);
    if (row == NULL)
      continue;
    done++;
    if (g_strv_length (row) != n_columns)
      abort ();
  }
  if (done != ns_sweep_n_done (sweep) || ns_sweep_n_failed (sweep) > done)
    abort ();
  ns_sweep_json (sweep, json);
}

/* Resumes the sweep from one input; aborts when the contract breaks. */
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  NsSweep *sweep = make_sweep ();
  const char *path = ns_fuzz_write_scratch (data, size, NULL);
  GError *error = NULL;
  gboolean ok = ns_sweep_open (sweep, path, NS_SWEEP_RESUME, &error);

  if (ns_fuzz_check_load (ok ? sweep : NULL, error))
    check_resumed (sweep);
  ns_sweep_free (sweep);
  return 0;
}
