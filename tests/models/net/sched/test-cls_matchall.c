/* test-cls_matchall.c — the matchall classifier (models/net/sched/cls_matchall.c) against
 * the kernel's mall_classify (net/sched/cls_matchall.c, v6.1/v6.2), called through
 * tp->classify as tcf_classify calls it:
 *  - no head yet (tp->root NULL): -1 (no match), nothing counted;
 *  - a head flagged skip_sw (tc_skip_sw: TCA_CLS_FLAGS_SKIP_SW, 1<<1, include/uapi/linux/
 *    pkt_cls.h): -1, *res untouched, no hit, no action run; skip_hw (1<<0) is no such flag;
 *  - otherwise a match whatever the packet (any protocol): *res = head->res (the classid
 *    given with "classid"), this CPU's rhit counter + 1 — before and whatever the actions
 *    decide — and the verdict is tcf_exts_exec's (include/net/pkt_cls.h): the actions'
 *    verdict, TC_ACT_OK with no actions.
 * Expected values are computed here from those rules, not read back from the model. */
#include "config.h"
#include "sched-rig.h"

#define V(...) ((const gint32[]) { __VA_ARGS__ })

typedef struct {
  SchedRig               *rig;
  struct sk_buff         *skb;
  const struct tcf_proto *tp;
  struct tcf_result      *res;
  int                     verdict;
} Classify;

/* tp->classify (mall_classify) through the wrapper, in a simulated thread. */
static void
classify_in_thread (NsThread *t, gpointer data)
{
  Classify *c = data;

  c->verdict = tc_classify (t, c->rig->tc, c->skb, c->tp, c->res);
}

/* A result in simulated memory holding a recognisable pattern. */
static struct tcf_result *
arena_res (SchedRig *rig)
{
  struct tcf_result *res = ns_arena_alloc (ns_machine_arena (rig->machine), sizeof *res, 64);

  res->klass = 0xC1A55;
  res->classid = 0xDEAD;
  return res;
}

/* Runs mall_classify(skb, tp, res) once on `cpu`. */
static int
mall_run (SchedRig *rig, guint cpu, const struct tcf_proto *tp, struct sk_buff *skb,
          struct tcf_result *res)
{
  Classify c = { rig, skb, tp, res, 0 };

  rig_run_on (rig, cpu, classify_in_thread, &c);
  return c.verdict;
}

/* A matchall filter in a new chain: classid, head flags, one gact per verdict. */
static struct tcf_proto *
add_mall (SchedRig *rig, guint32 classid, guint32 flags, const gint32 *verdicts, guint n)
{
  struct tcf_chain *chain = tcf_chain_create (rig->tc, 0);
  struct tcf_proto *tp = tcf_chain_tp_insert (rig->tc, chain, &cls_mall_ops, TC_ETH_P_ALL, 1, NULL);
  struct tc_action *acts[8];

  ck_assert_uint_le (n, G_N_ELEMENTS (acts));
  for (guint i = 0; i < n; i++)
    acts[i] = tcf_gact_create (rig->tc, verdicts[i], NULL);
  mall_change (rig->tc, tp, classid, flags, acts, n);
  return tp;
}

/* The filter's i-th action (exts first in the head, as in struct cls_mall_head). */
static const struct tc_action *
mall_action (const struct tcf_proto *tp, guint i)
{
  return ((const struct tcf_exts *) tp->root)->actions[i];
}

/* ---- no match ---- */

/* mall_change's allocations in v6.1's order: the head (kmalloc-192), tcf_exts_init's
 * action array (32 pointers, kmalloc-256), then the actions mall_set_parms creates: a gact
 * made between mall_change_head and mall_set_actions is the kmalloc-256 object after the
 * array, which follows the one taken before (slab freelists in order, the default). */
START_TEST (test_head_and_array_before_the_actions)
{
  struct cls_mall_head *head;
  struct tc_action *a;
  struct tcf_proto *tp;
  guint8 *before;
  SchedRig rig;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  tp = tcf_chain_tp_insert (rig.tc, tcf_chain_create (rig.tc, 0), &cls_mall_ops,
                            TC_ETH_P_ALL, 0, NULL);
  before = tc_kzalloc (rig.tc, 256);
  head = mall_change_head (rig.tc, tp, 0, 0);
  ck_assert_ptr_eq (tp->root, head);
  a = tcf_gact_create (rig.tc, TC_ACT_OK, NULL);
  ck_assert_ptr_eq ((guint8 *) a, before + 2 * 256);
  mall_set_actions (head, &a, 1);
  rig_clear (&rig);
}
END_TEST

START_TEST (test_no_head_is_no_match)
{
  SchedRig rig;
  struct tcf_chain *chain;
  struct tcf_proto *tp;
  struct tcf_result *res;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  chain = tcf_chain_create (rig.tc, 0);
  tp = tcf_chain_tp_insert (rig.tc, chain, &cls_mall_ops, TC_ETH_P_ALL, 1, NULL);
  res = arena_res (&rig);
  ck_assert_int_eq (mall_run (&rig, 0, tp, rig_skb (&rig), res), TC_ACT_UNSPEC);
  ck_assert_uint_eq (res->classid, 0xDEAD);
  ck_assert_uint_eq (res->klass, 0xC1A55);
  ck_assert_uint_eq (mall_hits (rig.tc, tp), 0);
  rig_clear (&rig);
}
END_TEST

START_TEST (test_skip_sw_is_no_match)
{
  SchedRig rig;
  struct tcf_proto *tp;
  struct tcf_result *res;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  tp = add_mall (&rig, 0x10001, TCA_CLS_FLAGS_SKIP_SW, V (TC_ACT_SHOT), 1);
  res = arena_res (&rig);
  ck_assert_int_eq (mall_run (&rig, 0, tp, rig_skb (&rig), res), TC_ACT_UNSPEC);
  ck_assert_uint_eq (res->classid, 0xDEAD);
  ck_assert_uint_eq (res->klass, 0xC1A55);
  ck_assert_uint_eq (mall_hits (rig.tc, tp), 0);
  ck_assert_uint_eq (tc_action_packets (rig.tc, mall_action (tp, 0)), 0);
  ck_assert_uint_eq (tc_action_drops (rig.tc, mall_action (tp, 0)), 0);
  rig_clear (&rig);
}
END_TEST

/* skip_hw (TCA_CLS_FLAGS_SKIP_HW, 1<<0) and in_hw (1<<2) leave software matching on. */
START_TEST (test_other_flags_still_match)
{
  SchedRig rig;
  struct tcf_proto *tp;
  struct tcf_result *res;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  tp = add_mall (&rig, 0x10002, (1 << 0) | (1 << 2), V (TC_ACT_SHOT), 1);
  res = arena_res (&rig);
  ck_assert_int_eq (mall_run (&rig, 0, tp, rig_skb (&rig), res), TC_ACT_SHOT);
  ck_assert_uint_eq (res->classid, 0x10002);
  ck_assert_uint_eq (mall_hits (rig.tc, tp), 1);
  rig_clear (&rig);
}
END_TEST

/* ---- a match ---- */

/* Every packet matches (matchall looks at nothing in it), res = head->res, and the verdict
 * is the actions'. */
START_TEST (test_match_copies_res_and_returns_the_actions_verdict)
{
  static const gint32 verdicts[] = {
    TC_ACT_OK, TC_ACT_SHOT, TC_ACT_PIPE, TC_ACT_STOLEN, TC_ACT_RECLASSIFY, TC_ACT_UNSPEC,
  };
  static const guint16 protocols[] = { TC_ETH_P_IP, TC_ETH_P_IPV6, GUINT16_TO_BE (0x0806) };
  SchedRig rig;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  for (guint i = 0; i < G_N_ELEMENTS (verdicts); i++) {
    guint32 classid = 0x10000 | (i + 1);
    struct tcf_proto *tp = add_mall (&rig, classid, 0, &verdicts[i], 1);
    struct tcf_result *res = arena_res (&rig);
    struct sk_buff *skb = rig_skb (&rig);

    skb->protocol = protocols[i % G_N_ELEMENTS (protocols)];
    ck_assert_int_eq (mall_run (&rig, 0, tp, skb, res), verdicts[i]);
    ck_assert_uint_eq (res->classid, classid);
    ck_assert_uint_eq (mall_hits (rig.tc, tp), 1);
    ck_assert_uint_eq (tc_action_packets (rig.tc, mall_action (tp, 0)), 1);
  }
  rig_clear (&rig);
}
END_TEST

/* tcf_exts_exec with no actions: tcf_action_exec over none returns TC_ACT_OK — a match. */
START_TEST (test_no_actions_is_ok)
{
  SchedRig rig;
  struct tcf_proto *tp;
  struct tcf_result *res;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  tp = add_mall (&rig, 0x20005, 0, NULL, 0);
  res = arena_res (&rig);
  ck_assert_int_eq (mall_run (&rig, 0, tp, rig_skb (&rig), res), TC_ACT_OK);
  ck_assert_uint_eq (res->classid, 0x20005);
  ck_assert_uint_eq (mall_hits (rig.tc, tp), 1);
  rig_clear (&rig);
}
END_TEST

/* The actions run on a pipeline: pipe then drop gives the drop, both counted. */
START_TEST (test_every_action_of_the_filter_runs)
{
  SchedRig rig;
  struct tcf_proto *tp;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  tp = add_mall (&rig, 1, 0, V (TC_ACT_PIPE, TC_ACT_PIPE, TC_ACT_SHOT), 3);
  ck_assert_int_eq (mall_run (&rig, 0, tp, rig_skb (&rig), arena_res (&rig)), TC_ACT_SHOT);
  for (guint i = 0; i < 3; i++)
    ck_assert_uint_eq (tc_action_packets (rig.tc, mall_action (tp, i)), 1);
  ck_assert_uint_eq (tc_action_drops (rig.tc, mall_action (tp, 2)), 1);
  rig_clear (&rig);
}
END_TEST

/* rhit counts every match on every CPU (the per-CPU counters summed, as mall_dump's
 * tc_matchall_pcnt does), whatever the verdict; a skb_skip_tc_classify skb still hits
 * (the classifier counts before tcf_action_exec looks at the flag). */
START_TEST (test_hits_count_every_match_on_every_cpu)
{
  SchedRig rig;
  struct tcf_proto *tp;
  struct sk_buff *skb;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  ck_assert_uint_ge (ns_machine_n_cpus (rig.machine), 2);
  tp = add_mall (&rig, 1, 0, V (TC_ACT_UNSPEC), 1);
  for (guint i = 0; i < 3; i++)
    mall_run (&rig, 0, tp, rig_skb (&rig), arena_res (&rig));
  for (guint i = 0; i < 2; i++)
    mall_run (&rig, 1, tp, rig_skb (&rig), arena_res (&rig));
  ck_assert_uint_eq (mall_hits (rig.tc, tp), 5);
  ck_assert_uint_eq (tc_action_packets (rig.tc, mall_action (tp, 0)), 5);
  skb = rig_skb (&rig);
  skb->header_bits[0] |= TC_SKB_SKIP_CLASSIFY;
  ck_assert_int_eq (mall_run (&rig, 1, tp, skb, arena_res (&rig)), TC_ACT_OK);
  ck_assert_uint_eq (mall_hits (rig.tc, tp), 6);
  ck_assert_uint_eq (tc_action_packets (rig.tc, mall_action (tp, 0)), 5);
  rig_clear (&rig);
}
END_TEST

static Suite *
cls_matchall_suite (void)
{
  Suite *s = suite_create ("cls_matchall");
  TCase *tc = tcase_create ("mall_classify");

  tcase_add_test (tc, test_head_and_array_before_the_actions);
  tcase_add_test (tc, test_no_head_is_no_match);
  tcase_add_test (tc, test_skip_sw_is_no_match);
  tcase_add_test (tc, test_other_flags_still_match);
  tcase_add_test (tc, test_match_copies_res_and_returns_the_actions_verdict);
  tcase_add_test (tc, test_no_actions_is_ok);
  tcase_add_test (tc, test_every_action_of_the_filter_runs);
  tcase_add_test (tc, test_hits_count_every_match_on_every_cpu);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (cls_matchall_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
