/* test-run-measure.c — the run layer's measurement rules (sim/run.c, doc/manual.md "Each
 * variant runs ..."): the measured window, the fixed rule's duration as each convergence
 * batch, must be at least ten sched.quantum_ns long (a thread runs whole slices, so a
 * window's value is uncertain by one quantum), refused at load with file:line and the
 * sets behind it; the convergence rule's value is total over total, the fixed rule's over
 * the same measured time, and its CI is judged from the min-batches-th batch on (a
 * max-duration before that says so); the inlining list is ordered by function name, whatever ran
 * before in the process. */
#include "config.h"
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "run.h"
#include "../models/micro/micro-run.h"   /* micro_path, micro_run */

/* Asserts that variant of pointer-chase.xml with sets is refused at its <measure> (line
 * 7) with an error holding what and ending with after. */
static void
assert_window_refused (const char *const *sets, const char *what, const char *after)
{
  g_autofree char *path = micro_path ("pointer-chase.xml");
  GError *error = NULL;

  ck_assert (!ns_run_check_variant (path, "L2-256KiB", sets, &error));
  ck_assert (g_error_matches (error, NS_ERROR, NS_ERROR_INPUT));
  ck_assert_msg (strstr (error->message, "pointer-chase.xml:8: ") != NULL, "%s",
                 error->message);
  ck_assert_msg (strstr (error->message, what) != NULL, "%s", error->message);
  ck_assert_msg (g_str_has_suffix (error->message, after), "%s", error->message);
  g_error_free (error);
}

/* The fixed rule's duration is held to ten quanta as batches are (1000 ns by default:
 * 10 us): 9 us is refused naming the duration's set, 10 us passes; a quantum of 1 ms
 * the command line set needs 10 ms, so the scenario's 100 us is refused naming it. */
START_TEST (test_fixed_duration_needs_ten_quanta)
{
  const char *const short_window[] = { "measure.duration=9us", NULL };
  const char *const ten_quanta[] = { "measure.duration=10us", NULL };
  const char *const long_quantum[] = { "param.sched.quantum_ns=1000000", NULL };
  g_autofree char *path = micro_path ("pointer-chase.xml");
  GError *error = NULL;

  assert_window_refused (short_window, "attribute 'duration': expected at least 10 x "
                         "sched.quantum_ns = 10 us under the fixed rule",
                         "got 9 us (after --set measure.duration=9us)");
  ck_assert_msg (ns_run_check_variant (path, "L2-256KiB", ten_quanta, &error), "%s",
                 error ? error->message : "");
  assert_window_refused (long_quantum, "attribute 'duration': expected at least 10 x "
                         "sched.quantum_ns = 10000 us under the fixed rule",
                         "got 100 us (after --set param.sched.quantum_ns=1000000)");
}
END_TEST

/* Over the same measured time (1 ms after 200 us of warm-up: 50 batches of 20 us, with
 * min-batches 50 so that no stretch of batches of equal counts stops it early) the
 * convergence rule's value is the fixed rule's, cycles over writes of the whole window,
 * not the mean of per-batch ratios (biased upward by ~0.8 % before). */
START_TEST (test_converge_value_is_total_over_total)
{
  const char *const fixed[] = { "measure.warmup=200us", "measure.duration=1ms", NULL };
  const char *const batches[] = { "measure.warmup=200us", "measure.duration=1ms",
                                  "measure.converge=0.0001", "measure.batch=20us",
                                  "measure.max-duration=1ms", "measure.min-batches=50",
                                  NULL };
  NsRunResult *a = micro_run ("udp-flood.xml", fixed, "ipv4-8920-n1");
  NsRunResult *b = micro_run ("udp-flood.xml", batches, "ipv4-8920-n1");
  const NsVariantResult *va = a->variants->pdata[0], *vb = b->variants->pdata[0];

  ck_assert_msg (strstr (vb->stop_rules[0], "after 50 batches of 20 us") != NULL, "%s",
                 vb->stop_rules[0]);
  ck_assert_int_eq (va->measured[0], vb->measured[0]);
  ck_assert_uint_eq (va->ops, vb->ops);
  ck_assert_double_eq_tol (vb->value, va->value, va->value * 1e-12);
  ns_run_result_free (a);
  ns_run_result_free (b);
}
END_TEST

/* The stop rule of call-chain.xml's plain-ret under the convergence rule (batches of 10
 * us, a CI of ±50 % that every stretch of its batches meets) with max-duration and
 * min-batches as given; its measured time in *measured_ps. */
static char *
converging_rule (const char *max_duration, const char *min_batches, NsTime *measured_ps)
{
  g_autofree char *max = g_strconcat ("measure.max-duration=", max_duration, NULL);
  g_autofree char *min = g_strconcat ("measure.min-batches=", min_batches, NULL);
  const char *const sets[] = { "measure.warmup=2us", "measure.converge=0.5",
                               "measure.batch=10us", max, min, NULL };
  NsRunResult *res = micro_run ("call-chain.xml", sets, "plain-ret");
  const NsVariantResult *vr = res->variants->pdata[0];
  char *rule = g_strdup (vr->stop_rules[0]);

  *measured_ps = vr->measured[0];
  ns_run_result_free (res);
  return rule;
}

/* The convergence rule judges its CI from the min-batches-th batch on (the scenario
 * refuses fewer than 2: one batch has no CI), so a run that meets it at once stops right
 * there; a max-duration that cuts the run before says so, with no CI. */
START_TEST (test_converge_from_min_batches)
{
  NsTime measured;
  g_autofree char *three = converging_rule ("100us", "3", &measured), *two = NULL;
  g_autofree char *cut = NULL;

  ck_assert_msg (g_str_has_prefix (three, "converged: 95% CI ±") &&
                 g_str_has_suffix (three, " after 3 batches of 10 us"), "%s", three);
  ck_assert_int_eq (measured, NS_US (30));
  two = converging_rule ("100us", "2", &measured);
  ck_assert_msg (g_str_has_suffix (two, " after 2 batches of 10 us"), "%s", two);
  ck_assert_int_eq (measured, NS_US (20));
  cut = converging_rule ("25us", "3", &measured);
  ck_assert_str_eq (cut, "max-duration reached: 2 batches of 10 us, fewer than the 3 "
                    "min-batches (no CI)");
  ck_assert_int_eq (measured, NS_US (20));
}
END_TEST

/* The length of a decision line's function name ("name: inlined (reason)" or "name:
 * called (reason)"; a reason may hold ": called"). */
static gsize
name_length (const char *line)
{
  const char *inl = strstr (line, ": inlined ("), *called = strstr (line, ": called (");

  ck_assert_msg (inl != NULL || called != NULL, "%s", line);
  if (inl == NULL || (called != NULL && called < inl))
    return (gsize) (called - line);
  return (gsize) (inl - line);
}

/* The inlining list is ordered by function name: the registry's order (first
 * registration) put udp4_lib_lookup2 before compute_score. */
START_TEST (test_inlining_sorted_by_name)
{
  const char *const sets[] = { "measure.warmup=20us", "measure.duration=20us", NULL };
  NsRunResult *res = micro_run ("udp-lookup.xml", sets, "l1-plain-baseline");
  char **lines = ((const NsVariantResult *) res->variants->pdata[0])->inlining;

  ck_assert_uint_ge (g_strv_length (lines), 3);
  for (guint i = 1; lines[i] != NULL; i++) {
    g_autofree char *prev = g_strndup (lines[i - 1], name_length (lines[i - 1]));
    g_autofree char *name = g_strndup (lines[i], name_length (lines[i]));

    ck_assert_msg (strcmp (prev, name) < 0, "'%s' before '%s'", prev, name);
  }
  ns_run_result_free (res);
}
END_TEST

static Suite *
run_measure_suite (void)
{
  Suite *s = suite_create ("run-measure");
  TCase *tc = tcase_create ("run-measure");

  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_fixed_duration_needs_ten_quanta);
  tcase_add_test (tc, test_converge_value_is_total_over_total);
  tcase_add_test (tc, test_converge_from_min_batches);
  tcase_add_test (tc, test_inlining_sorted_by_name);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (run_measure_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
