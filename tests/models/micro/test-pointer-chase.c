/* test-pointer-chase.c — the pointer-chase workload (models/micro/pointer-chase.c) against
 * the machine model's documented load rule (doc/model.md, "Memory"; sim/machine.c's
 * header): a dependent load costs the full load-to-use latency of the level that serves
 * it (cache.l1d/l2/l3.latency_cycles, mem.dram_latency_ns), so a chase over a working set
 * that fits a level, and not the one below it, costs that level's latency per load (TLBs
 * are not modelled, so no tolerance is owed to them). And the workload's own rule: the
 * nodes form one random cycle (Sattolo's algorithm), so a chase from node 0 visits every
 * line once per pass. Expected values come from the parameters the variant ran with. */
#include "config.h"
#include <check.h>
#include <math.h>
#include "micro-run.h"

/* A variant of scenarios/micro/pointer-chase.xml: its working set and the level it is
 * named for (the parameter of that level's size; NULL for DRAM). */
typedef struct {
  const char *variant;
  double      ws_kib;
  const char *fits;       /* size of the level that must hold it */
  const char *exceeds;    /* size of the level below, which must not (NULL: none) */
  const char *latency;
} ChaseLevel;

static const ChaseLevel levels[] = {
  { "L1-16KiB", 16, "cache.l1d.size_kib", NULL, "cache.l1d.latency_cycles" },
  { "L2-256KiB", 256, "cache.l2.size_kib", "cache.l1d.size_kib", "cache.l2.latency_cycles" },
  { "L3-4MiB", 4096, "cache.l3.size_kib", "cache.l2.size_kib", "cache.l3.latency_cycles" },
  { "DRAM-64MiB", 65536, NULL, "cache.l3.size_kib", NULL },
};

/* The load-to-use latency in cycles the level of l has on the variant's machine. */
static double
level_latency (const NsVariantResult *vr, const ChaseLevel *l)
{
  if (l->latency == NULL)
    return micro_param (vr, "mem.dram_latency_ns") * micro_param (vr, "cpu.freq_ghz");
  return micro_param (vr, l->latency);
}

/* Each variant costs its level's latency per load: the cycles charged per load exactly,
 * the workload's cycles_per_load and ns_per_load to the measurement window's edge. The
 * variants' warm-ups (two passes at DRAM latency, DRAM's none: its first pass misses
 * anyway) are the scenario's. */
START_TEST (test_latency_of_each_level)
{
  static const char *const sets[] = { "measure.repetitions=1", "measure.duration=100us",
                                      NULL };
  static const char *const ns_sets[] = { "measure.repetitions=1", "measure.duration=100us",
                                         "measure.metric=ns_per_load", NULL };
  NsRunResult *res = micro_run ("pointer-chase.xml", sets, NULL);
  NsRunResult *ns = micro_run ("pointer-chase.xml", ns_sets, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (levels); i++) {
    const ChaseLevel *l = &levels[i];
    const NsVariantResult *vr = micro_variant (res, l->variant);
    const NsVariantResult *vns = micro_variant (ns, l->variant);
    double want = level_latency (vr, l), tol = micro_window_tolerance (vr);

    /* the scenario's working sets must sit where their names say on this profile */
    if (l->fits)
      ck_assert_double_le (l->ws_kib, micro_param (vr, l->fits) / 2);
    if (l->exceeds)
      ck_assert_double_gt (l->ws_kib, micro_param (vr, l->exceeds));
    ck_assert_msg (fabs (ns_run_cycles_per_op (vr) - want) <= want * 1e-3,
                   "%s: %.3f cycles charged a load, want %.3f", l->variant,
                   ns_run_cycles_per_op (vr), want);
    ck_assert_msg (fabs (vr->value - want) <= want * tol, "%s: cycles_per_load %.3f, want %.3f",
                   l->variant, vr->value, want);
    ck_assert_msg (fabs (vns->value - want / micro_param (vr, "cpu.freq_ghz")) <=
                   want / micro_param (vr, "cpu.freq_ghz") * tol,
                   "%s: ns_per_load %.3f", l->variant, vns->value);
    ck_assert_double_eq_tol (vr->events_per_op[NS_CAUSE_INSN], 0.0, 1e-12);
  }
  ns_run_result_free (res);
  ns_run_result_free (ns);
}
END_TEST

/* Sattolo's cycle: from cold caches a chase over n lines that fit the L1D brings each of
 * the n lines in from DRAM exactly once (the cycle through node 0 holds every node) and
 * then hits the L1D on every further load, for any of 8 seeds. A random permutation that is
 * not one cycle leaves the lines off node 0's cycle untouched (fewer than n misses); so
 * does linking each node to any but the next one in the shuffled order. */
START_TEST (test_one_cycle_through_every_line)
{
  static const char *const sets[] = { "workload.working-set=4KiB", "measure.warmup=0ns",
                                      "measure.duration=20us", "measure.repetitions=1", NULL };
  const guint64 n = 4096 / 64;

  for (guint64 seed = 1; seed <= 8; seed++) {
    NsRunResult *res = micro_run_seeded ("pointer-chase.xml", sets, "L1-16KiB", TRUE, seed);
    const NsVariantResult *vr = res->variants->pdata[0];
    double ops = (double) vr->ops;
    double dram = vr->events_per_op[NS_CAUSE_DRAM] * ops;
    double l1 = vr->events_per_op[NS_CAUSE_L1] * ops;

    ck_assert_msg (fabs (dram - (double) n) < 1e-6, "seed %" G_GUINT64_FORMAT ": %.1f lines "
                   "from DRAM, want %" G_GUINT64_FORMAT, seed, dram, n);
    ck_assert_double_gt (ops, 10.0 * (double) n);
    /* one load may be in flight at the window's end: charged, not yet counted */
    ck_assert_double_eq_tol (l1, ops - (double) n, 1.0 + 1e-6);
    ns_run_result_free (res);
  }
}
END_TEST

/* A working set under two cache lines is refused at the <workload> element's line. */
START_TEST (test_too_small_refused)
{
  static const char *const sets[] = { "workload.working-set=64", NULL };

  micro_assert_refused ("pointer-chase.xml", sets, 7, "working-set");
}
END_TEST

/* A working set over 4 GiB is refused the same way, before any simulated memory is taken
 * (64 GiB once aborted the run when the 16 GiB arena ran out); 4 GiB itself is accepted
 * by the check (not run here: it would fill 4 GiB of host memory). */
START_TEST (test_too_large_refused)
{
  static const char *const sets[] = { "workload.working-set=4294967297", NULL };
  static const char *const huge[] = { "workload.working-set=64GiB", NULL };

  micro_assert_refused ("pointer-chase.xml", sets, 7, "expected 128B to 4GiB");
  micro_assert_refused ("pointer-chase.xml", huge, 7, "expected 128B to 4GiB");
}
END_TEST

static Suite *
pointer_chase_suite (void)
{
  Suite *s = suite_create ("pointer-chase");
  TCase *tc = tcase_create ("core");

  tcase_set_timeout (tc, 300);
  tcase_add_test (tc, test_latency_of_each_level);
  tcase_add_test (tc, test_one_cycle_through_every_line);
  tcase_add_test (tc, test_too_small_refused);
  tcase_add_test (tc, test_too_large_refused);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (pointer_chase_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
