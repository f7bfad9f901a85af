/* test-bpf-tailcall.c — the bpf-tailcall workload (models/micro/bpf-tailcall.c), the
 * model's side of tools/bench-bpf-tailcall, against the JIT's code it replays:
 * - a run of 33 programs makes 32 tail calls: direct jumps with a constant key, indirect
 *   ones with a variable key;
 * - a tail call runs the JIT's instructions: the 6 of the prologue a tail call enters at
 *   +0xc, and 9 (constant key) or 17 (variable) before the jump; a run of one program
 *   its 10-instruction prologue and 2-instruction exit;
 * - through a retpoline thunk, each tail call pays the retpoline's price and waits for
 *   the three loads that produce its target (skb->len, the slot, bpf_func) at the L1D's
 *   latency, which a predicted jump's loads do not;
 * - a program count outside 1 … 33 is refused at the <workload> line. */
#include "config.h"
#include <check.h>
#include <math.h>
#include "micro-run.h"

#define WORKLOAD_LINE 8         /* the <workload> element's line in bpf-tailcall.xml */
#define TAIL_CALLS    32

/* Runs bpf-tailcall.xml with a 100 us window. */
static NsRunResult *
tailcall_run (void)
{
  static const char *const sets[] = { "measure.duration=100us", NULL };

  return micro_run ("bpf-tailcall.xml", sets, NULL);
}

/* vr's events of cause a tail call: a run's less a one-program run's, over 32. */
static double
per_tail_call (const NsVariantResult *vr, const NsVariantResult *one, NsCause cause)
{
  return (vr->events_per_op[cause] - one->events_per_op[cause]) / TAIL_CALLS;
}

/* 32 tail calls a run, indirect only with a variable key, and the JIT's instructions. */
START_TEST (test_tailcall_jumps_and_insns)
{
  NsRunResult *res = tailcall_run ();
  const NsVariantResult *one = micro_variant (res, "one");
  const NsVariantResult *direct = micro_variant (res, "direct");
  const NsVariantResult *plain = micro_variant (res, "plain");

  ck_assert_double_eq_tol (one->events_per_op[NS_CAUSE_INSN], 10 + 2, 0.01);
  ck_assert_double_eq_tol (micro_row (direct, "bpf_prog_32")->calls_per_op, 1.0, 0.01);
  ck_assert_double_eq_tol (direct->events_per_op[NS_CAUSE_INDIRECT], 0.0, 1e-9);
  ck_assert_double_eq_tol (plain->events_per_op[NS_CAUSE_INDIRECT], TAIL_CALLS, 0.05);
  ck_assert_double_eq_tol (per_tail_call (direct, one, NS_CAUSE_INSN), 6 + 9, 0.05);
  ck_assert_double_eq_tol (per_tail_call (plain, one, NS_CAUSE_INSN), 6 + 17, 0.05);
  ns_run_result_free (res);
}
END_TEST

/* Through the thunk a tail call costs the retpoline's price (branch.mispredict_cycles +
 * branch.resolve_cycles + icall.retpoline_insns at cpu.ipc) and three dependent L1D
 * loads more than the predicted jump; the same instructions run either way. */
START_TEST (test_tailcall_retpoline_price)
{
  NsRunResult *res = tailcall_run ();
  const NsVariantResult *plain = micro_variant (res, "plain");
  const NsVariantResult *retpoline = micro_variant (res, "retpoline");
  double price = micro_param (retpoline, "branch.mispredict_cycles") +
                 micro_param (retpoline, "branch.resolve_cycles") +
                 micro_param (retpoline, "icall.retpoline_insns") /
                 micro_param (retpoline, "cpu.ipc");
  double l1 = micro_param (retpoline, "cache.l1d.latency_cycles");
  double extra = (retpoline->value - plain->value) / TAIL_CALLS;

  ck_assert_double_eq_tol (retpoline->events_per_op[NS_CAUSE_INSN],
                           plain->events_per_op[NS_CAUSE_INSN], 1.0);
  ck_assert_msg (fabs (extra - (price + 3 * l1)) < 0.5, "a retpolined tail call costs %.2f "
                 "cycles over a predicted one, want %.2f (the retpoline) + 3 x %.0f (its "
                 "target's loads)", extra, price, l1);
  ns_run_result_free (res);
}
END_TEST

/* programs="0" and "34" are refused with the range, at the <workload> line. */
START_TEST (test_tailcall_bad_programs_refused)
{
  static const char *const zero[] = { "workload.programs=0", NULL };
  static const char *const many[] = { "workload.programs=34", NULL };

  micro_assert_refused ("bpf-tailcall.xml", zero, WORKLOAD_LINE, "expected 1 to 33");
  micro_assert_refused ("bpf-tailcall.xml", many, WORKLOAD_LINE, "expected 1 to 33");
}
END_TEST

static Suite *
bpf_tailcall_suite (void)
{
  Suite *s = suite_create ("bpf-tailcall");
  TCase *tc = tcase_create ("core");

  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_tailcall_jumps_and_insns);
  tcase_add_test (tc, test_tailcall_retpoline_price);
  tcase_add_test (tc, test_tailcall_bad_programs_refused);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (bpf_tailcall_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
