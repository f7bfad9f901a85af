/* test-filter-walk.c — the filter-walk workload (models/micro/filter-walk.c), the model's
 * side of tools/bench-retpoline, against what the replay relies on:
 * - a walk of N filters enters mall_classify and gact_act N times each, through 2N
 *   indirect calls, or, built with the RFC wrapper, through direct calls only;
 * - a 1-filter walk runs the benchmark's 58 instructions (objdump of its plain build, less
 *   prologues, epilogues and returns), and the wrapper builds add their compare-and-branch
 *   pairs (13 a filter in the RFC's order, 2 with matchall and gact first) and a load of
 *   the pointer at each of the two call sites;
 * - 100 packed filters (six 64-byte objects each, 37.5 KiB) outgrow a 32 KiB L1D, and the
 *   L1 stride prefetcher feeds all but a few lines a walk, which scattering defeats;
 * - a generic retpoline's extra is linear in branch.resolve_cycles, one wait per indirect
 *   call (the replay fits the wait from two probes);
 * - a filter count outside 1 … 4096 is refused at the <workload> line. */
#include "config.h"
#include <check.h>
#include <math.h>
#include "micro-run.h"

#define WORKLOAD_LINE 8         /* the <workload> element's line in filter-walk.xml */

/* Loads a walk served beyond the L1D. */
static double
beyond_l1 (const NsVariantResult *vr)
{
  return vr->events_per_op[NS_CAUSE_L2] + vr->events_per_op[NS_CAUSE_L3] +
         vr->events_per_op[NS_CAUSE_DRAM];
}

/* Runs filter-walk.xml's variant only with the sets (NULL-terminated) and a 1 ms window. */
static NsRunResult *
walk_run (const char *only, const char *const *extra)
{
  GPtrArray *sets = g_ptr_array_new ();
  NsRunResult *res;

  g_ptr_array_add (sets, (gpointer) "measure.duration=1ms");
  for (guint i = 0; extra != NULL && extra[i] != NULL; i++)
    g_ptr_array_add (sets, (gpointer) extra[i]);
  g_ptr_array_add (sets, NULL);
  res = micro_run ("filter-walk.xml", (const char *const *) sets->pdata, only);
  g_ptr_array_free (sets, TRUE);
  return res;
}

/* Instructions a walk of vr, per filter (filters a walk). */
static double
insns_per_filter (const NsVariantResult *vr, double filters)
{
  return vr->events_per_op[NS_CAUSE_INSN] / filters;
}

/* N filters: N calls of each classifier and action a walk, 2N of them indirect; the
 * wrapper builds make them direct and add their chains' instructions. */
START_TEST (test_walk_calls)
{
  static const char *const rfc[] = { "workload.wrapper=rfc", NULL };
  static const char *const first[] = { "workload.wrapper=first", NULL };
  NsRunResult *f1 = walk_run ("f1-plain", NULL);
  NsRunResult *f100 = walk_run ("f100-plain", NULL);
  NsRunResult *wrapped = walk_run ("f100-plain", rfc);
  NsRunResult *firsts = walk_run ("f100-plain", first);
  const NsVariantResult *one = micro_variant (f1, "f1-plain");
  const NsVariantResult *hundred = micro_variant (f100, "f100-plain");
  const NsVariantResult *w = micro_variant (wrapped, "f100-plain");
  const NsVariantResult *wf = micro_variant (firsts, "f100-plain");

  ck_assert_double_eq_tol (micro_row (one, "bench_mall_classify")->calls_per_op, 1.0, 0.01);
  ck_assert_double_eq_tol (one->events_per_op[NS_CAUSE_INDIRECT], 2.0, 0.01);
  ck_assert_double_eq_tol (one->events_per_op[NS_CAUSE_INSN], 58.0, 0.01);
  ck_assert_double_eq_tol (micro_row (hundred, "bench_gact_act")->calls_per_op, 100.0, 0.5);
  ck_assert_double_eq_tol (hundred->events_per_op[NS_CAUSE_INDIRECT], 200.0, 1.0);
  ck_assert_double_eq_tol (micro_row (w, "bench_gact_act")->calls_per_op, 100.0, 0.5);
  ck_assert_double_eq_tol (w->events_per_op[NS_CAUSE_INDIRECT], 0.0, 1e-9);
  ck_assert_double_eq_tol (wf->events_per_op[NS_CAUSE_INDIRECT], 0.0, 1e-9);
  /* fused pairs count two instructions each */
  ck_assert_double_eq_tol (insns_per_filter (w, 100) - insns_per_filter (hundred, 100),
                           2 * (7 + 6) + 2, 0.05);
  ck_assert_double_eq_tol (insns_per_filter (wf, 100) - insns_per_filter (hundred, 100),
                           2 * (1 + 1) + 2, 0.05);
  ns_run_result_free (f1);
  ns_run_result_free (f100);
  ns_run_result_free (wrapped);
  ns_run_result_free (firsts);
}
END_TEST

/* 100 packed filters: without the stride prefetcher every one of the 600 lines comes
 * from beyond the L1D every walk (the walk is larger than it); with it, each of the six
 * streams misses its first three lines (the stride is confirmed on the third), less the
 * five a kind's last load prefetches for the next kind (the kinds are contiguous), plus
 * its page crossings (nine: the streams start at different offsets in their pages), 22;
 * without the page limit only the 13 others; scattered, most. */
START_TEST (test_walk_layouts)
{
  static const char *const no_prefetch[] = { "param.prefetch.l1_stride=false", NULL };
  static const char *const no_page_limit[] = { "param.prefetch.l1_stride_in_page=false", NULL };
  NsRunResult *packed = walk_run ("f100-plain", NULL);
  NsRunResult *unfed = walk_run ("f100-plain", no_prefetch);
  NsRunResult *unlimited = walk_run ("f100-plain", no_page_limit);
  NsRunResult *scattered = walk_run ("f100-scattered-plain", NULL);
  double fed = beyond_l1 (micro_variant (packed, "f100-plain"));
  double all = beyond_l1 (micro_variant (unfed, "f100-plain"));
  double crossing = beyond_l1 (micro_variant (unlimited, "f100-plain"));
  double spread = beyond_l1 (micro_variant (scattered, "f100-scattered-plain"));

  ck_assert_msg (all >= 590.0 && all <= 601.0, "without prefetch: %.1f lines beyond the L1D a "
                 "walk, want 600", all);
  ck_assert_msg (fabs (fed - 22.0) < 0.5, "packed: %.1f lines beyond the L1D a walk, want 22",
                 fed);
  ck_assert_msg (fabs (crossing - 13.0) < 0.5, "packed, prefetching across pages: %.1f lines "
                 "beyond the L1D a walk, want 13", crossing);
  ck_assert_msg (spread > 10.0 * fed, "scattered: %.1f lines beyond the L1D a walk, packed "
                 "%.1f", spread, fed);
  ns_run_result_free (packed);
  ns_run_result_free (unfed);
  ns_run_result_free (unlimited);
  ns_run_result_free (scattered);
}
END_TEST

/* The retpoline build's extra over the plain build at 1 filter: each of the two thunks
 * (a forced mispredict, the wait, the thunk's instructions) and the three loads that
 * produce the action's target, dependent under the thunk (the head's line, actions[0],
 * a->ops: L1 hits at full latency); it grows by the wait's change at each of the two
 * calls, and by no more. */
START_TEST (test_walk_retpoline_linear_in_wait)
{
  static const char *const w0[] = { "param.branch.resolve_cycles=0", NULL };
  static const char *const w10[] = { "param.branch.resolve_cycles=10", NULL };
  double extra[2];

  for (guint i = 0; i < 2; i++) {
    NsRunResult *plain = walk_run ("f1-plain", i ? w10 : w0);
    NsRunResult *retp = walk_run ("f1-retpoline", i ? w10 : w0);

    const NsVariantResult *vr = micro_variant (retp, "f1-retpoline");
    double want = 2 * (micro_param (vr, "branch.mispredict_cycles") + 10.0 * i +
                       micro_param (vr, "icall.retpoline_insns") / micro_param (vr, "cpu.ipc")) +
                  3 * micro_param (vr, "cache.l1d.latency_cycles");

    extra[i] = ns_run_cycles_per_op (vr) - ns_run_cycles_per_op (micro_variant (plain, "f1-plain"));
    ck_assert_msg (extra[i] >= want - 0.05, "the retpolines add %.2f cycles a walk, less than "
                   "their two thunks and three dependent loads, %.2f", extra[i], want);
    ns_run_result_free (plain);
    ns_run_result_free (retp);
  }
  ck_assert_msg (fabs (extra[1] - extra[0] - 20.0) < 0.05, "10 more cycles of wait add %.3f "
                 "cycles a walk, want 20 (two retpolines)", extra[1] - extra[0]);
}
END_TEST

/* filters="0" and "4097" are refused with the range, at the <workload> line. */
START_TEST (test_walk_bad_filters_refused)
{
  static const char *const zero[] = { "workload.filters=0", NULL };
  static const char *const many[] = { "workload.filters=4097", NULL };

  micro_assert_refused ("filter-walk.xml", zero, WORKLOAD_LINE, "expected 1 to 4096");
  micro_assert_refused ("filter-walk.xml", many, WORKLOAD_LINE, "expected 1 to 4096");
}
END_TEST

static Suite *
filter_walk_suite (void)
{
  Suite *s = suite_create ("filter-walk");
  TCase *tc = tcase_create ("core");

  tcase_set_timeout (tc, 300);
  tcase_add_test (tc, test_walk_calls);
  tcase_add_test (tc, test_walk_layouts);
  tcase_add_test (tc, test_walk_retpoline_linear_in_wait);
  tcase_add_test (tc, test_walk_bad_filters_refused);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (filter_walk_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
