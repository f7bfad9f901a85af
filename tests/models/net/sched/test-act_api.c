/* test-act_api.c — tcf_action_exec and tcf_exts_exec (models/net/sched/act_api.c) against
 * the kernel's (net/sched/act_api.c and include/net/pkt_cls.h, v6.1/v6.2), one action list
 * at a time (test-cls_api.c covers them inside tcf_classify's filter walk):
 *  - the uapi encoding (include/uapi/linux/pkt_cls.h): TC_ACT_UNSPEC -1 … TC_ACT_TRAP 8,
 *    the opcode in the bits from TC_ACT_EXT_SHIFT 28 (JUMP 1, GOTO_CHAIN 2), the jump count
 *    in TCA_ACT_MAX_PRIO_MASK 0x1FF; TCA_CLS_FLAGS_SKIP_SW 1<<1, TCA_ACT_FLAGS_SKIP_SW 1<<2;
 *  - skb_skip_tc_classify: a flagged skb gets TC_ACT_OK without any action running, and the
 *    flag is cleared (test-and-clear);
 *  - an action flagged skip_sw is passed over; with none left to run the result is the
 *    initial TC_ACT_OK (also for an empty list);
 *  - TC_ACT_REPEAT re-runs the action: 32 runs in all, then the pipeline stops with OK;
 *  - TC_ACT_JUMP n (n = verdict & 0x1FF): n = 0 or n > nr_actions stops with OK; else the
 *    walk restarts skipping the first n actions; after TCA_ACT_MAX_PRIO (32) jumps the graph
 *    is faulty and the pipeline stops with OK; a jump over every action returns the jump
 *    verdict itself;
 *  - TC_ACT_GOTO_CHAIN: res->goto_tp = the chain's first filter and the goto verdict ends
 *    the walk; an action without a chain gives TC_ACT_SHOT;
 *  - PIPE goes on to the next action; any other verdict ends the walk and is returned.
 * Expected values are computed here from those rules, not read back from the model. */
#include "config.h"
#include "sched-rig.h"

#define V(...) ((const gint32[]) { __VA_ARGS__ })

typedef struct {
  SchedRig           *rig;
  struct sk_buff     *skb;
  struct tc_action  **actions;
  gint                n;
  struct tcf_exts    *exts;      /* non-NULL: through tcf_exts_exec */
  struct tcf_result  *res;
  int                 verdict;
} Exec;

/* tcf_action_exec (or tcf_exts_exec) in a simulated thread. */
static void
exec_in_thread (NsThread *t, gpointer data)
{
  Exec *x = data;

  if (x->exts)
    x->verdict = tcf_exts_exec (t, x->rig->tc, x->skb, x->exts, x->res);
  else
    x->verdict = tcf_action_exec (t, x->rig->tc, x->skb, x->actions, x->n, x->res);
}

/* An action list in simulated memory: one gact per verdict, goto chains from gotos. */
static struct tc_action **
make_actions (SchedRig *rig, const gint32 *verdicts, guint n, struct tcf_chain *const *gotos)
{
  struct tc_action **acts = ns_arena_alloc (ns_machine_arena (rig->machine),
                                            TCA_ACT_MAX_PRIO * sizeof *acts, 64);

  for (guint i = 0; i < n; i++)
    acts[i] = tcf_gact_create (rig->tc, verdicts[i], gotos ? gotos[i] : NULL);
  return acts;
}

/* A result in simulated memory, its words set to a recognisable pattern. */
static struct tcf_result *
arena_res (SchedRig *rig)
{
  struct tcf_result *res = ns_arena_alloc (ns_machine_arena (rig->machine), sizeof *res, 64);

  res->klass = 0x5A5A5A5A;
  res->classid = 0x1234;
  return res;
}

/* Runs tcf_action_exec over acts[0..n) on skb; *res (may be NULL) gets the result. */
static int
exec_on (SchedRig *rig, struct sk_buff *skb, struct tc_action **acts, gint n,
         struct tcf_result *res)
{
  Exec x = { rig, skb, acts, n, NULL, res ? res : arena_res (rig), 0 };

  rig_run (rig, exec_in_thread, &x);
  return x.verdict;
}

/* exec_on with a fresh skb. */
static int
exec (SchedRig *rig, struct tc_action **acts, gint n)
{
  return exec_on (rig, rig_skb (rig), acts, n, NULL);
}

/* Packets each action of acts[0..n) saw, compared with want[0..n). */
static void
assert_packets (SchedRig *rig, struct tc_action **acts, const guint64 *want, guint n)
{
  for (guint i = 0; i < n; i++) {
    guint64 got = tc_action_packets (rig->tc, acts[i]);
    ck_assert_msg (got == want[i], "action %u ran %" G_GUINT64_FORMAT " times, expected %"
                   G_GUINT64_FORMAT, i, got, want[i]);
  }
}

#define RUNS(...) ((const guint64[]) { __VA_ARGS__ })

/* ---- the encoding ---- */

START_TEST (test_uapi_values)
{
  static const struct { gint64 got, want; } v[] = {
    { TC_ACT_UNSPEC, -1 }, { TC_ACT_OK, 0 }, { TC_ACT_RECLASSIFY, 1 }, { TC_ACT_SHOT, 2 },
    { TC_ACT_PIPE, 3 }, { TC_ACT_STOLEN, 4 }, { TC_ACT_QUEUED, 5 }, { TC_ACT_REPEAT, 6 },
    { TC_ACT_REDIRECT, 7 }, { TC_ACT_TRAP, 8 },
    { TC_ACT_EXT_SHIFT, 28 }, { TC_ACT_EXT_VAL_MASK, 0x0FFFFFFF },
    { TC_ACT_JUMP, 0x10000000 }, { TC_ACT_GOTO_CHAIN, 0x20000000 },
    { TCA_ACT_MAX_PRIO, 32 }, { TCA_ACT_MAX_PRIO_MASK, 0x1FF },
    { TCA_CLS_FLAGS_SKIP_SW, 2 }, { TCA_ACT_FLAGS_SKIP_SW, 4 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (v); i++)
    ck_assert_msg (v[i].got == v[i].want, "entry %u: %" G_GINT64_FORMAT " != %"
                   G_GINT64_FORMAT, i, v[i].got, v[i].want);
  /* TC_ACT_EXT_CMP compares the opcode bits only */
  ck_assert (TC_ACT_EXT_CMP (TC_ACT_JUMP | 0x1FF, TC_ACT_JUMP));
  ck_assert (TC_ACT_EXT_CMP (TC_ACT_GOTO_CHAIN | 0x0FFFFFFF, TC_ACT_GOTO_CHAIN));
  ck_assert (!TC_ACT_EXT_CMP (TC_ACT_GOTO_CHAIN | 1, TC_ACT_JUMP));
  ck_assert (!TC_ACT_EXT_CMP (TC_ACT_PIPE, TC_ACT_JUMP));
  ck_assert (!TC_ACT_EXT_CMP (TC_ACT_UNSPEC, TC_ACT_JUMP));
}
END_TEST

/* ---- before the walk ---- */

START_TEST (test_skip_classify_returns_ok_and_clears_the_flag)
{
  SchedRig rig;
  struct tc_action **acts;
  struct sk_buff *skb;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  acts = make_actions (&rig, V (TC_ACT_SHOT), 1, NULL);
  skb = rig_skb (&rig);
  skb->header_bits[0] |= TC_SKB_SKIP_CLASSIFY | TC_SKB_AT_INGRESS;
  ck_assert_int_eq (exec_on (&rig, skb, acts, 1, NULL), TC_ACT_OK);
  assert_packets (&rig, acts, RUNS (0), 1);
  ck_assert_uint_eq (skb->header_bits[0], TC_SKB_AT_INGRESS);   /* only its bit cleared */
  /* the flag was for one pass: the same skb now meets the action */
  ck_assert_int_eq (exec_on (&rig, skb, acts, 1, NULL), TC_ACT_SHOT);
  assert_packets (&rig, acts, RUNS (1), 1);
  rig_clear (&rig);
}
END_TEST

START_TEST (test_skip_sw_actions_and_empty_lists_give_ok)
{
  SchedRig rig;
  struct tc_action **acts;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  ck_assert_int_eq (exec (&rig, make_actions (&rig, NULL, 0, NULL), 0), TC_ACT_OK);
  acts = make_actions (&rig, V (TC_ACT_SHOT), 1, NULL);
  acts[0]->tcfa_flags = TCA_ACT_FLAGS_SKIP_SW;
  ck_assert_int_eq (exec (&rig, acts, 1), TC_ACT_OK);
  assert_packets (&rig, acts, RUNS (0), 1);
  /* a skip_sw action in the middle is passed over; the pipe before it goes on */
  acts = make_actions (&rig, V (TC_ACT_PIPE, TC_ACT_SHOT, TC_ACT_STOLEN), 3, NULL);
  acts[1]->tcfa_flags = TCA_ACT_FLAGS_SKIP_SW;
  ck_assert_int_eq (exec (&rig, acts, 3), TC_ACT_STOLEN);
  assert_packets (&rig, acts, RUNS (1, 0, 1), 3);
  /* other flag bits (skip_hw 1<<1, no_percpu_stats 1<<0) do not skip */
  acts = make_actions (&rig, V (TC_ACT_TRAP), 1, NULL);
  acts[0]->tcfa_flags = (1 << 0) | (1 << 1);
  ck_assert_int_eq (exec (&rig, acts, 1), TC_ACT_TRAP);
  rig_clear (&rig);
}
END_TEST

/* ---- the walk ---- */

START_TEST (test_pipe_goes_on_and_other_verdicts_end_the_walk)
{
  static const gint32 enders[] = {
    TC_ACT_UNSPEC, TC_ACT_OK, TC_ACT_RECLASSIFY, TC_ACT_SHOT, TC_ACT_STOLEN, TC_ACT_QUEUED,
    TC_ACT_REDIRECT, TC_ACT_TRAP,
  };
  SchedRig rig;
  struct tc_action **acts;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  for (guint i = 0; i < G_N_ELEMENTS (enders); i++) {
    acts = make_actions (&rig, V (TC_ACT_PIPE, enders[i], TC_ACT_SHOT), 3, NULL);
    ck_assert_int_eq (exec (&rig, acts, 3), enders[i]);
    assert_packets (&rig, acts, RUNS (1, 1, 0), 3);
  }
  /* the last action's verdict is returned, PIPE too */
  acts = make_actions (&rig, V (TC_ACT_PIPE, TC_ACT_PIPE), 2, NULL);
  ck_assert_int_eq (exec (&rig, acts, 2), TC_ACT_PIPE);
  assert_packets (&rig, acts, RUNS (1, 1), 2);
  /* nr_actions bounds the walk, not the array */
  acts = make_actions (&rig, V (TC_ACT_PIPE, TC_ACT_SHOT), 2, NULL);
  ck_assert_int_eq (exec (&rig, acts, 1), TC_ACT_PIPE);
  assert_packets (&rig, acts, RUNS (1, 0), 2);
  rig_clear (&rig);
}
END_TEST

/* TC_ACT_REPEAT: the action runs 32 times (repeat_ttl), then "TC_ACT_REPEAT abuse": OK,
 * and the actions after it never run. */
START_TEST (test_repeat_runs_32_times_then_ok)
{
  SchedRig rig;
  struct tc_action **acts;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  acts = make_actions (&rig, V (TC_ACT_PIPE, TC_ACT_REPEAT, TC_ACT_SHOT), 3, NULL);
  ck_assert_int_eq (exec (&rig, acts, 3), TC_ACT_OK);
  assert_packets (&rig, acts, RUNS (1, 32, 0), 3);
  rig_clear (&rig);
}
END_TEST

/* ---- jumps ---- */

START_TEST (test_jump_counts_are_checked)
{
  SchedRig rig;
  struct tc_action **acts;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  /* jump 0: faulty opcode, OK */
  acts = make_actions (&rig, V (TC_ACT_JUMP | 0, TC_ACT_SHOT), 2, NULL);
  ck_assert_int_eq (exec (&rig, acts, 2), TC_ACT_OK);
  assert_packets (&rig, acts, RUNS (1, 0), 2);
  /* jump past nr_actions: faulty opcode, OK */
  acts = make_actions (&rig, V (TC_ACT_JUMP | 3, TC_ACT_SHOT), 2, NULL);
  ck_assert_int_eq (exec (&rig, acts, 2), TC_ACT_OK);
  assert_packets (&rig, acts, RUNS (1, 0), 2);
  /* jump nr_actions: the restart skips everything, the jump verdict is returned */
  acts = make_actions (&rig, V (TC_ACT_PIPE, TC_ACT_JUMP | 2), 2, NULL);
  ck_assert_int_eq (exec (&rig, acts, 2), TC_ACT_JUMP | 2);
  assert_packets (&rig, acts, RUNS (1, 1), 2);
  /* only the low 9 bits count: 0x201 jumps 1 */
  acts = make_actions (&rig, V (TC_ACT_JUMP | 0x201, TC_ACT_SHOT), 2, NULL);
  ck_assert_int_eq (exec (&rig, acts, 2), TC_ACT_SHOT);
  assert_packets (&rig, acts, RUNS (1, 1), 2);
  rig_clear (&rig);
}
END_TEST

/* A jump always restarts at action 0, skipping n: the actions before the target run once
 * in all (they are skipped on the restart). */
START_TEST (test_jump_restarts_and_skips)
{
  SchedRig rig;
  struct tc_action **acts;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  /* 0 pipe, 1 jump 3 → restart, skip 0..2, run 3 (stolen); 2 never runs */
  acts = make_actions (&rig, V (TC_ACT_PIPE, TC_ACT_JUMP | 3, TC_ACT_SHOT, TC_ACT_STOLEN), 4,
                       NULL);
  ck_assert_int_eq (exec (&rig, acts, 4), TC_ACT_STOLEN);
  assert_packets (&rig, acts, RUNS (1, 1, 0, 1), 4);
  /* a jump to an earlier action: 0 jump 2 → 2 pipe, 3 jump 1 → 1 (trap) */
  acts = make_actions (&rig, V (TC_ACT_JUMP | 2, TC_ACT_TRAP, TC_ACT_PIPE, TC_ACT_JUMP | 1),
                       4, NULL);
  ck_assert_int_eq (exec (&rig, acts, 4), TC_ACT_TRAP);
  assert_packets (&rig, acts, RUNS (1, 1, 1, 1), 4);
  rig_clear (&rig);
}
END_TEST

/* A jump loop: jmp_ttl starts at TCA_ACT_MAX_PRIO (32) and each jump takes one; the 32nd
 * jump finds it 0 ("faulty graph") and the pipeline stops with OK. */
START_TEST (test_jump_loop_stops_after_32_jumps)
{
  SchedRig rig;
  struct tc_action **acts;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  /* 1 jumps to itself: restart, skip 0, run 1 again */
  acts = make_actions (&rig, V (TC_ACT_PIPE, TC_ACT_JUMP | 1, TC_ACT_SHOT), 3, NULL);
  ck_assert_int_eq (exec (&rig, acts, 3), TC_ACT_OK);
  assert_packets (&rig, acts, RUNS (1, 32, 0), 3);
  rig_clear (&rig);
}
END_TEST

/* ---- goto chain ---- */

START_TEST (test_goto_chain_sets_goto_tp_and_ends_the_walk)
{
  SchedRig rig;
  struct tcf_chain *chain5, *empty;
  struct tcf_proto *tp1, *tp2;
  struct tc_action **acts;
  struct tcf_result *res;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  chain5 = tcf_chain_create (rig.tc, 5);
  tp2 = tcf_chain_tp_insert (rig.tc, chain5, &cls_mall_ops, TC_ETH_P_ALL, 2, NULL);
  tp1 = tcf_chain_tp_insert (rig.tc, chain5, &cls_mall_ops, TC_ETH_P_ALL, 1, NULL);
  ck_assert_ptr_eq (tp1->next, tp2);
  acts = make_actions (&rig, V (TC_ACT_PIPE, TC_ACT_GOTO_CHAIN | 5, TC_ACT_SHOT), 3,
                       (struct tcf_chain *const[]) { NULL, chain5, NULL });
  res = arena_res (&rig);
  ck_assert_int_eq (exec_on (&rig, rig_skb (&rig), acts, 3, res), TC_ACT_GOTO_CHAIN | 5);
  ck_assert_ptr_eq (res->goto_tp, tp1);          /* the chain's first filter */
  assert_packets (&rig, acts, RUNS (1, 1, 0), 3);
  /* a chain with no filters: goto_tp NULL, the verdict still the goto */
  empty = tcf_chain_create (rig.tc, 9);
  acts = make_actions (&rig, V (TC_ACT_GOTO_CHAIN | 9), 1,
                       (struct tcf_chain *const[]) { empty });
  res = arena_res (&rig);
  ck_assert_int_eq (exec_on (&rig, rig_skb (&rig), acts, 1, res), TC_ACT_GOTO_CHAIN | 9);
  ck_assert_ptr_null (res->goto_tp);
  rig_clear (&rig);
}
END_TEST

/* A goto verdict whose action holds no chain: "can't go to NULL chain!", SHOT. */
START_TEST (test_goto_without_chain_is_shot)
{
  SchedRig rig;
  struct tc_action **acts;
  struct tcf_result *res;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  acts = make_actions (&rig, V (TC_ACT_OK, TC_ACT_OK), 2, NULL);
  acts[0]->tcfa_action = TC_ACT_GOTO_CHAIN | 4;     /* its chain went away */
  res = arena_res (&rig);
  ck_assert_int_eq (exec_on (&rig, rig_skb (&rig), acts, 2, res), TC_ACT_SHOT);
  ck_assert_uint_eq (res->klass, 0x5A5A5A5A);       /* no goto_tp written */
  assert_packets (&rig, acts, RUNS (1, 0), 2);
  rig_clear (&rig);
}
END_TEST

/* ---- tcf_exts_exec ---- */

/* tcf_exts_exec is tcf_action_exec over exts->actions[0..nr_actions). */
START_TEST (test_exts_exec_runs_the_exts_actions)
{
  SchedRig rig;
  struct tcf_exts *exts;
  Exec x = { 0 };

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  exts = ns_arena_alloc (ns_machine_arena (rig.machine), sizeof *exts, 64);
  exts->actions = make_actions (&rig, V (TC_ACT_PIPE, TC_ACT_QUEUED, TC_ACT_SHOT), 3, NULL);
  exts->nr_actions = 2;
  x = (Exec) { &rig, rig_skb (&rig), NULL, 0, exts, arena_res (&rig), 0 };
  rig_run (&rig, exec_in_thread, &x);
  ck_assert_int_eq (x.verdict, TC_ACT_QUEUED);
  assert_packets (&rig, exts->actions, RUNS (1, 1, 0), 3);
  exts->nr_actions = 0;
  rig_run (&rig, exec_in_thread, &x);
  ck_assert_int_eq (x.verdict, TC_ACT_OK);
  rig_clear (&rig);
}
END_TEST

static Suite *
act_api_suite (void)
{
  Suite *s = suite_create ("act_api");
  TCase *tc = tcase_create ("tcf_action_exec");

  tcase_add_test (tc, test_uapi_values);
  tcase_add_test (tc, test_skip_classify_returns_ok_and_clears_the_flag);
  tcase_add_test (tc, test_skip_sw_actions_and_empty_lists_give_ok);
  tcase_add_test (tc, test_pipe_goes_on_and_other_verdicts_end_the_walk);
  tcase_add_test (tc, test_repeat_runs_32_times_then_ok);
  tcase_add_test (tc, test_jump_counts_are_checked);
  tcase_add_test (tc, test_jump_restarts_and_skips);
  tcase_add_test (tc, test_jump_loop_stops_after_32_jumps);
  tcase_add_test (tc, test_goto_chain_sets_goto_tp_and_ends_the_walk);
  tcase_add_test (tc, test_goto_without_chain_is_shot);
  tcase_add_test (tc, test_exts_exec_runs_the_exts_actions);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (act_api_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
