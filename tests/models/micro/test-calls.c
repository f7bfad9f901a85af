/* test-calls.c — the call-chain and indirect-call workloads (models/micro/calls.c) against
 * the machine model's documented control-flow rules (doc/model.md, "Calls, returns,
 * indirect calls"; sim/machine.c's header):
 * - a chain of depth D enters chain_fn_0 … chain_fn_{D-1}, each once per pass: D calls and
 *   D returns, one of each per counted call;
 * - an out-of-line call costs call.cycles + (2 + call.prologue_insns) / cpu.issue_width,
 *   its body n / cpu.ipc; an `__always_inline` function is inlined and costs its body only;
 * - a return adds, under SRSO Safe RET, branch.mispredict_cycles + branch.resolve_cycles +
 *   ret.safe_ret_insns / cpu.ipc; under retbleed=unret ret.unret_insns / cpu.ipc (the jmp
 *   to the untrained return thunk); under call depth
 *   stuffing ret.stuff_cycles; nothing otherwise — and the Zen 3 profile's default for a
 *   6.9 kernel is Safe RET (its <mitigations> row; Linux srso_select_mitigation());
 * - an indirect call adds: off / eIBRS icall.predicted_cycles; a generic retpoline
 *   branch.mispredict_cycles + branch.resolve_cycles + icall.retpoline_insns / cpu.ipc;
 *   an LFENCE retpoline icall.lfence_cycles; legacy IBRS icall.predicted_cycles +
 *   icall.ibrs_cycles.
 * Expected values come from the parameters each variant ran with. */
#include "config.h"
#include <check.h>
#include <math.h>
#include "micro-run.h"

static const char *const short_measure[] = { "measure.warmup=5us", "measure.duration=50us",
                                             NULL };

/* Asserts that vr costs want cycles per call: charged (to 1e-3: the window cuts a pass
 * of the chain, about 1/2000 of the calls), and its cycles_per_call metric to the
 * measurement window's edge. */
static void
assert_cycles_per_call (const NsVariantResult *vr, double want)
{
  double charged = ns_run_cycles_per_op (vr);

  ck_assert_msg (fabs (charged - want) <= want * 1e-3, "%s: %.4f cycles charged a call, "
                 "want %.4f", vr->name, charged, want);
  ck_assert_msg (fabs (vr->value - want) <= want * micro_window_tolerance (vr),
                 "%s: cycles_per_call %.4f, want %.4f", vr->name, vr->value, want);
}

/* A predicted out-of-line call with body_insns instructions inside, no return price. */
static double
call_and_body (const NsVariantResult *vr, double body_insns)
{
  return micro_param (vr, "call.cycles") +
         (2 + micro_param (vr, "call.prologue_insns")) / micro_param (vr, "cpu.issue_width") +
         body_insns / micro_param (vr, "cpu.ipc");
}

/* The price of a forced mispredict whose thunk runs insns instructions. */
static double
forced_mispredict (const NsVariantResult *vr, const char *insns)
{
  return micro_param (vr, "branch.mispredict_cycles") +
         micro_param (vr, "branch.resolve_cycles") +
         micro_param (vr, insns) / micro_param (vr, "cpu.ipc");
}

/* Depth D (8, the scenario's, and 5): chain_fn_0 … chain_fn_{D-1} each called once a
 * pass (1/D of a counted call), chain_fn_D never; one call and no thunked return a
 * counted call; the 10 body instructions once per level. */
START_TEST (test_chain_depth)
{
  static const guint depths[] = { 8, 5 };

  for (guint d = 0; d < G_N_ELEMENTS (depths); d++) {
    g_autofree char *depth = g_strdup_printf ("workload.depth=%u", depths[d]);
    const char *const sets[] = { "measure.warmup=5us", "measure.duration=50us", depth, NULL };
    NsRunResult *res = micro_run ("call-chain.xml", sets, "plain-ret");
    const NsVariantResult *vr = res->variants->pdata[0];
    g_autofree char *past = g_strdup_printf ("chain_fn_%u", depths[d]);

    for (guint i = 0; i < depths[d]; i++) {
      g_autofree char *fn = g_strdup_printf ("chain_fn_%u", i);
      const NsBreakdownRow *row = micro_row (vr, fn);
      ck_assert_msg (row != NULL, "depth %u: %s never called", depths[d], fn);
      ck_assert_double_eq_tol (row->calls_per_op, 1.0 / depths[d], 0.01 / depths[d]);
    }
    ck_assert_ptr_null (micro_row (vr, past));
    ck_assert_double_eq_tol (vr->events_per_op[NS_CAUSE_CALL], 1.0, 0.01);
    ck_assert_double_eq (vr->events_per_op[NS_CAUSE_RETTHUNK], 0.0);
    ck_assert_double_eq_tol (vr->events_per_op[NS_CAUSE_INSN], 10.0, 0.1);
    ns_run_result_free (res);
  }
}
END_TEST

/* call-chain.xml's variants on the generic profile: a plain return adds nothing, unret
 * the jmp to its thunk, Safe RET the forced mispredict, stuffing ret.stuff_cycles; inlined
 * (Safe RET in force) the chain costs its body alone and makes no call. */
START_TEST (test_chain_return_mitigations)
{
  NsRunResult *res = micro_run ("call-chain.xml", short_measure, NULL);
  const NsVariantResult *plain = micro_variant (res, "plain-ret");
  const NsVariantResult *unret = micro_variant (res, "retbleed-unret");
  const NsVariantResult *safe = micro_variant (res, "srso-safe-ret");
  const NsVariantResult *stuff = micro_variant (res, "call-depth-stuffing");
  const NsVariantResult *inl = micro_variant (res, "inlined");

  assert_cycles_per_call (plain, call_and_body (plain, 10));
  assert_cycles_per_call (unret, call_and_body (unret, 10) +
                          micro_param (unret, "ret.unret_insns") /
                          micro_param (unret, "cpu.ipc"));
  assert_cycles_per_call (safe, call_and_body (safe, 10) +
                          forced_mispredict (safe, "ret.safe_ret_insns"));
  assert_cycles_per_call (stuff, call_and_body (stuff, 10) +
                          micro_param (stuff, "ret.stuff_cycles"));
  assert_cycles_per_call (inl, 10 / micro_param (inl, "cpu.ipc"));
  ck_assert_double_eq_tol (safe->events_per_op[NS_CAUSE_RETTHUNK], 1.0, 0.01);
  ck_assert_double_eq (inl->events_per_op[NS_CAUSE_CALL], 0.0);
  ck_assert_double_eq (inl->events_per_op[NS_CAUSE_RETTHUNK], 0.0);
  ns_run_result_free (res);
}
END_TEST

/* The Zen 3 EPYC profile with a 6.9 kernel's default mitigations (the scenario's
 * cmdline replaced by one with no mitigation key) returns through Safe RET: each return
 * costs the forced mispredict more than with mitigations=off. */
START_TEST (test_zen3_default_is_safe_ret)
{
  static const char *const dflt[] = { "measure.warmup=5us", "measure.duration=50us",
                                      "cpu.profile=zen3-epyc-7713", "kernel.cmdline=quiet",
                                      NULL };
  static const char *const off[] = { "measure.warmup=5us", "measure.duration=50us",
                                     "cpu.profile=zen3-epyc-7713",
                                     "kernel.cmdline=mitigations=off", NULL };
  NsRunResult *a = micro_run ("call-chain.xml", dflt, "plain-ret");
  NsRunResult *b = micro_run ("call-chain.xml", off, "plain-ret");
  const NsVariantResult *mit = a->variants->pdata[0], *none = b->variants->pdata[0];

  ck_assert_str_eq (mit->cpu_name, "zen3-epyc-7713");
  assert_cycles_per_call (none, call_and_body (none, 10));
  assert_cycles_per_call (mit, call_and_body (mit, 10) +
                          forced_mispredict (mit, "ret.safe_ret_insns"));
  ck_assert_double_eq_tol (mit->events_per_op[NS_CAUSE_RETTHUNK], 1.0, 0.01);
  ns_run_result_free (a);
  ns_run_result_free (b);
}
END_TEST

/* indirect-call.xml's variants (generic profile): one out-of-line call of icall_target
 * a counted call, plus the price of its spectre_v2 mode. */
START_TEST (test_indirect_call_modes)
{
  NsRunResult *res = micro_run ("indirect-call.xml", short_measure, NULL);
  const NsVariantResult *off = micro_variant (res, "off");
  const NsVariantResult *retp = micro_variant (res, "retpoline");
  const NsVariantResult *lfence = micro_variant (res, "lfence");
  const NsVariantResult *eibrs = micro_variant (res, "eibrs");
  const NsVariantResult *ibrs = micro_variant (res, "ibrs");

  assert_cycles_per_call (off, call_and_body (off, 10) +
                          micro_param (off, "icall.predicted_cycles"));
  assert_cycles_per_call (retp, call_and_body (retp, 10) +
                          forced_mispredict (retp, "icall.retpoline_insns"));
  assert_cycles_per_call (lfence, call_and_body (lfence, 10) +
                          micro_param (lfence, "icall.lfence_cycles"));
  assert_cycles_per_call (eibrs, call_and_body (eibrs, 10) +
                          micro_param (eibrs, "icall.predicted_cycles"));
  assert_cycles_per_call (ibrs, call_and_body (ibrs, 10) +
                          micro_param (ibrs, "icall.predicted_cycles") +
                          micro_param (ibrs, "icall.ibrs_cycles"));
  for (guint i = 0; i < res->variants->len; i++) {
    const NsVariantResult *vr = res->variants->pdata[i];
    ck_assert_double_eq_tol (micro_row (vr, "icall_target")->calls_per_op, 1.0, 0.01);
    ck_assert_double_eq_tol (vr->events_per_op[NS_CAUSE_INDIRECT], 1.0, 0.01);
  }
  ns_run_result_free (res);
}
END_TEST

/* A depth outside 1 … 64 is refused at the <workload> element's line. */
START_TEST (test_bad_depth_refused)
{
  static const char *const zero[] = { "workload.depth=0", NULL };
  static const char *const deep[] = { "workload.depth=65", NULL };

  micro_assert_refused ("call-chain.xml", zero, 6, "depth");
  micro_assert_refused ("call-chain.xml", deep, 6, "depth");
}
END_TEST

static Suite *
calls_suite (void)
{
  Suite *s = suite_create ("calls");
  TCase *tc = tcase_create ("core");

  tcase_set_timeout (tc, 300);
  tcase_add_test (tc, test_chain_depth);
  tcase_add_test (tc, test_chain_return_mitigations);
  tcase_add_test (tc, test_zen3_default_is_safe_ret);
  tcase_add_test (tc, test_indirect_call_modes);
  tcase_add_test (tc, test_bad_depth_refused);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (calls_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
