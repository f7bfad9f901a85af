/* test-lookup.c — the udp-lookup workload (models/micro/lookup.c) against the kernel's
 * lookup (net/ipv4/udp.c, v6.9-rc1: __udp4_lib_lookup → udp4_lib_lookup2 →
 * compute_score) and the machine model's rules:
 * - N connected SO_REUSEADDR sockets bound to 127.0.0.1:5201 share one hash2 slot;
 *   udp4_lib_lookup2 scores every socket of the slot (a connected socket's score does not
 *   end the walk), so a lookup calls compute_score N times: out of line in 6.9-rc1 (two
 *   call sites), inlined (static, one call site: doc/model.md's inlining rules) with
 *   50aee97d1511 "udp: Avoid call to compute_score on multiple sites" applied;
 * - under SRSO Safe RET every out-of-line compute_score return pays the forced mispredict
 *   (branch.mispredict_cycles + branch.resolve_cycles + ret.safe_ret_insns / cpu.ipc), the
 *   inlined one none;
 * - placement: sockets 4096 bytes apart put their k-th lines in one L1D set, so a chain of
 *   at most cache.l1d.assoc sockets stays in the L1D and a longer one comes from L2 (a
 *   dependent load: the full cache.l2.latency_cycles per socket); packed, none from L2.
 * Every lookup must return the socket connected to its client port: the workload asserts
 * it, so a wrong socket aborts the run and fails the test. Expected values come from the
 * parameters each variant ran with. */
#include "config.h"
#include <check.h>
#include <math.h>
#include "micro-run.h"

#define WORKLOAD_LINE 21      /* the <workload> element of udp-lookup.xml */

/* udp-lookup.xml with n sockets over a short window (all variants, or only `only`). */
static NsRunResult *
run_lookup (guint n, const char *only)
{
  g_autofree char *sockets = g_strdup_printf ("workload.sockets=%u", n);
  const char *const sets[] = { "measure.warmup=20us", "measure.duration=60us", sockets,
                               NULL };

  return micro_run ("udp-lookup.xml", sets, only);
}

/* compute_score's row of vr (it must have one). */
static const NsBreakdownRow *
score_row (const NsVariantResult *vr)
{
  const NsBreakdownRow *row = micro_row (vr, "compute_score");

  ck_assert_msg (row != NULL, "%s: no compute_score", vr->name);
  return row;
}

/* Every lookup scores all n sockets: n calls of compute_score in the baseline, n inlined
 * invocations with the patch; one __udp4_lib_lookup and one udp4_lib_lookup2 call each. */
START_TEST (test_every_socket_scored)
{
  static const guint ns[] = { 1, 5, 16 };

  for (guint i = 0; i < G_N_ELEMENTS (ns); i++) {
    NsRunResult *res = run_lookup (ns[i], NULL);
    const NsBreakdownRow *base = score_row (micro_variant (res, "l1-plain-baseline"));
    const NsBreakdownRow *pat = score_row (micro_variant (res, "l1-plain-patched"));
    const NsVariantResult *vr = micro_variant (res, "l1-plain-baseline");
    double n = ns[i];

    ck_assert_msg (fabs (base->calls_per_op - n) <= 0.01 * n, "%u sockets: %.3f calls", ns[i],
                   base->calls_per_op);
    ck_assert_double_eq (base->inlined_per_op, 0.0);
    ck_assert_msg (fabs (pat->inlined_per_op - n) <= 0.01 * n, "%u sockets: %.3f inlined",
                   ns[i], pat->inlined_per_op);
    ck_assert_double_eq (pat->calls_per_op, 0.0);
    ck_assert_double_eq_tol (micro_row (vr, "__udp4_lib_lookup")->calls_per_op, 1.0, 0.01);
    ck_assert_double_eq_tol (micro_row (vr, "udp4_lib_lookup2")->calls_per_op, 1.0, 0.01);
    ns_run_result_free (res);
  }
}
END_TEST

/* Under Safe RET the baseline's compute_score pays n forced mispredicts a lookup, the
 * patched build's inlined body none. */
START_TEST (test_safe_ret_per_compute_score_return)
{
  const guint n = 16;
  NsRunResult *res = run_lookup (n, NULL);
  const NsVariantResult *base = micro_variant (res, "l1-saferet-baseline");
  const NsVariantResult *pat = micro_variant (res, "l1-saferet-patched");
  double price = micro_param (base, "branch.mispredict_cycles") +
                 micro_param (base, "branch.resolve_cycles") +
                 micro_param (base, "ret.safe_ret_insns") / micro_param (base, "cpu.ipc");
  double got = score_row (base)->cycles_per_op[NS_CAUSE_RETTHUNK];

  ck_assert_msg (fabs (got - n * price) <= n * price * 0.01, "%.2f thunk cycles a lookup, "
                 "want %u × %.3f", got, n, price);
  ck_assert_double_eq (score_row (pat)->body_per_op[NS_CAUSE_RETTHUNK], 0.0);
  ck_assert_double_eq (score_row (micro_variant (res, "l1-plain-baseline"))
                       ->cycles_per_op[NS_CAUSE_RETTHUNK], 0.0);
  ns_run_result_free (res);
}
END_TEST

/* 4096 bytes apart (shuffled): a chain of cache.l1d.assoc sockets stays in the L1D; one
 * of twice that takes at least one L2 load a socket, each waiting the whole L2 latency
 * in compute_score; packed, no L2 load at all. */
START_TEST (test_placement_packed_or_one_set)
{
  NsRunResult *probe = run_lookup (1, "l1-plain-baseline");
  guint ways = (guint) micro_param (probe->variants->pdata[0], "cache.l1d.assoc");
  NsRunResult *fit = run_lookup (ways, "l2-plain-baseline");
  NsRunResult *spill = run_lookup (2 * ways, NULL);
  const NsVariantResult *strided = micro_variant (spill, "l2-plain-baseline");
  const NsVariantResult *packed = micro_variant (spill, "l1-plain-baseline");
  const NsVariantResult *in_l1 = fit->variants->pdata[0];
  double l2 = micro_param (strided, "cache.l2.latency_cycles");

  ck_assert_double_lt (in_l1->events_per_op[NS_CAUSE_L2], 0.01);
  ck_assert_double_ge (strided->events_per_op[NS_CAUSE_L2], 2.0 * ways);
  ck_assert_double_ge (score_row (strided)->cycles_per_op[NS_CAUSE_L2], 2.0 * ways * l2 * 0.99);
  ck_assert_double_lt (packed->events_per_op[NS_CAUSE_L2], 0.01);
  ns_run_result_free (probe);
  ns_run_result_free (fit);
  ns_run_result_free (spill);
}
END_TEST

/* Socket counts outside 1 … 1024 and strides that are not 0 or a multiple of 64 of at
 * least one struct udp_sock are refused at the <workload> element's line. */
START_TEST (test_bad_attributes_refused)
{
  static const char *const bad[][2] = {
    { "workload.sockets=0", "sockets" },
    { "workload.sockets=1025", "sockets" },
    { "workload.stride=100", "stride" },
    { "workload.stride=64", "stride" },
    { "workload.stride=4100", "multiple of 64" },
    { "workload.shuffle=maybe", "shuffle" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
    const char *const sets[] = { bad[i][0], NULL };
    micro_assert_refused ("udp-lookup.xml", sets, WORKLOAD_LINE, bad[i][1]);
  }
}
END_TEST

static Suite *
lookup_suite (void)
{
  Suite *s = suite_create ("udp-lookup");
  TCase *tc = tcase_create ("core");

  tcase_set_timeout (tc, 300);
  tcase_add_test (tc, test_every_socket_scored);
  tcase_add_test (tc, test_safe_ret_per_compute_score_return);
  tcase_add_test (tc, test_placement_packed_or_one_set);
  tcase_add_test (tc, test_bad_attributes_refused);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (lookup_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
