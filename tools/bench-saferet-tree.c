/* bench-saferet-tree.c — what an SRSO Safe RET return costs over a plain one on this host
 * in a kernel-sized code footprint, against the tight loop of netsim calibrate --host.
 *
 * A kernel path returns from hundreds of distinct functions spread over far more text
 * than the 32 KiB L1i, a few calls deep; tools/bench-saferet-tree-walk.c is such a path:
 * 256 generated out-of-line functions called as a tree (fan-out 4, depth 5), every one
 * returning through __x86_return_thunk (bench-rethunk.c), which is switched at run time
 * between a plain `ret` and the Safe RET sequence. Five variants, each timed best-of-7
 * under both thunks (alternating):
 *   big     the tree over ~200 KiB of text (each function followed by padding lines);
 *   packed  the same functions back to back (the compiler's layout, ~40 KiB): big −
 *           packed is what the footprint adds;
 *   small   a 21-function subtree of the packed build (~3 KiB) walked 12 times: the
 *           same code with the footprint of a tight loop;
 *   wide    the big build with 256 bytes of NOPs run at each function's start: ~112
 *           KiB of lines touched a traversal instead of ~48 KiB;
 *   deep    the big build called as four chains of 64 nested calls, deeper than the
 *           32-entry return stack (plain returns beyond it mispredict too).
 * The core clock comes from a chain of dependent ADDs (ns_hostbench_core_ghz). Prints
 * "name value" lines: cycles per function (call, work and return) under each thunk, and
 * the Safe RET's extra cycles per return in each variant. x86-64 only.
 * Optional argument: a scale factor for the iteration counts (default 1). */
#include "config.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "bench-rethunk.h"
#include "bench-saferet-tree.h"
#include "hostbench.h"

typedef void (*WalkFn) (struct bench_tree_state *, guint64);

/* The best of 7 runs of n traversals under each thunk, the two alternating: cycles per
 * function (one call, its work and one return), into cyc[0] (plain) and cyc[1] (Safe
 * RET); the returns of one traversal into *returns. */
static void
time_walks (WalkFn walk, BenchTreeShape shape, guint64 n, double ghz, double cyc[2],
            guint64 *returns)
{
  struct bench_tree_state s = { 1, 2, 3, 4, 0, shape };
  double best[2] = { INFINITY, INFINITY };

  walk (&s, n / 10 + 1);                        /* warm the caches and predictors */
  for (int r = 0; r < 7; r++) {
    for (int t = 0; t < 2; t++) {
      double t0;

      bench_rethunk_select (t);
      s.returns = 0;
      t0 = ns_hostbench_now_ns ();
      walk (&s, n);
      /* once: MIN evaluates its arguments twice */
      double took = ns_hostbench_now_ns () - t0;

      best[t] = MIN (best[t], took);
    }
  }
  bench_rethunk_select (FALSE);
  *returns = s.returns / n;
  for (int t = 0; t < 2; t++)
    cyc[t] = best[t] * ghz / (double) s.returns;
}

/* bench-saferet-tree [SCALE]: cycles per function under a plain and a Safe RET return
 * thunk in the big, packed, small, wide and deep variants, and the Safe RET's extra per
 * return. */
int
main (int argc, char **argv)
{
  guint64 scale = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 1;
  guint64 n = 2000 * MAX (scale, 1);
  static const struct {
    const char    *name;
    WalkFn         walk;
    BenchTreeShape shape;
  } variant[] = {
    { "big", bench_tree_walk_big, BENCH_TREE_FULL },
    { "packed", bench_tree_walk_packed, BENCH_TREE_FULL },
    { "small", bench_tree_walk_packed, BENCH_TREE_SMALL },
    { "wide", bench_tree_walk_wide, BENCH_TREE_FULL },
    { "deep", bench_tree_walk_big, BENCH_TREE_DEEP },
  };
  double ghz, cyc[G_N_ELEMENTS (variant)][2];
  guint64 returns[G_N_ELEMENTS (variant)];

  ghz = ns_hostbench_core_ghz (10000000, 5);
  for (gsize v = 0; v < G_N_ELEMENTS (variant); v++) {
    time_walks (variant[v].walk, variant[v].shape, n, ghz, cyc[v], &returns[v]);
    printf ("cycles_per_function_%s_plain_ret %.2f\n", variant[v].name, cyc[v][0]);
    printf ("cycles_per_function_%s_safe_ret %.2f\n", variant[v].name, cyc[v][1]);
  }
  printf ("core_clock_ghz %.3f\n", ghz);
  for (gsize v = 0; v < G_N_ELEMENTS (variant); v++)
    printf ("returns_per_traversal_%s %" G_GUINT64_FORMAT "\n", variant[v].name,
            returns[v]);
  printf ("text_kib_big %.1f\n", bench_tree_text_big () / 1024.0);
  printf ("text_kib_packed %.1f\n", bench_tree_text_packed () / 1024.0);
  printf ("text_kib_wide %.1f\n", bench_tree_text_wide () / 1024.0);
  for (gsize v = 0; v < G_N_ELEMENTS (variant); v++)
    printf ("saferet_extra_per_return_%s %.2f\n", variant[v].name, cyc[v][1] - cyc[v][0]);
  printf ("footprint_adds_per_return %.2f\n",
          (cyc[0][1] - cyc[0][0]) - (cyc[1][1] - cyc[1][0]));
  return 0;
}
