/* test-act_gact.c — the generic action (models/net/sched/act_gact.c) against the kernel's
 * tcf_gact_act (net/sched/act_gact.c, v6.1/v6.2, CONFIG_GACT_PROB with no probability
 * configured) and the helpers it inlines (include/net/act_api.h, include/net/sch_generic.h):
 *  - the configured verdict comes back unchanged, whatever it is (plain TC_ACT_* values and
 *    the JUMP / GOTO_CHAIN opcodes alike); gact never writes *res;
 *  - tcf_action_update_bstats: this CPU's cpu_bstats gets bytes += qdisc_pkt_len(skb) (the
 *    first u32 of skb->cb, not skb->len) and packets += gso_segs for a GSO skb, else 1;
 *  - tcf_action_inc_drop_qstats: only TC_ACT_SHOT counts a drop, in this CPU's
 *    gnet_stats_queue.drops — the third u32 (qlen, backlog, drops, requeues, overlimits:
 *    include/uapi/linux/gen_stats.h);
 *  - tcf_lastuse_update: lastuse follows jiffies, firstuse is set once, at the first use;
 *    tcf_idr_create (net/sched/act_api.c) starts install and lastuse at the creation
 *    jiffies and firstuse at 0.
 * Expected values are computed here from those rules, not read back from the model. */
#include "config.h"
#include "sched-rig.h"

/* gnet_stats_queue field indices (u32 words), uapi gen_stats.h. */
enum { QSTATS_QLEN, QSTATS_BACKLOG, QSTATS_DROPS, QSTATS_REQUEUES, QSTATS_OVERLIMITS,
       QSTATS_N };

typedef struct {
  SchedRig          *rig;
  struct sk_buff    *skb;
  const struct tc_action *a;
  struct tcf_result *res;
  int                verdict;
} Act;

/* One call of a->ops->act (through the wrapper, as tcf_action_exec makes it). */
static void
act_in_thread (NsThread *t, gpointer data)
{
  Act *x = data;

  x->verdict = tc_act (t, x->rig->tc, x->skb, x->a, x->res);
}

/* Runs action a once on skb on `cpu`; *res (arena) is what the action may write. */
static int
act_once (SchedRig *rig, guint cpu, const struct tc_action *a, struct sk_buff *skb,
          struct tcf_result *res)
{
  Act x = { rig, skb, a, res, 0 };

  rig_run_on (rig, cpu, act_in_thread, &x);
  return x.verdict;
}

/* A result in simulated memory. */
static struct tcf_result *
arena_res (SchedRig *rig)
{
  return ns_arena_alloc (ns_machine_arena (rig->machine), sizeof (struct tcf_result), 64);
}

/* cpu's copy of the action's byte/packet counters. */
static const struct gnet_stats_basic_sync *
cpu_bstats (SchedRig *rig, const struct tc_action *a, guint cpu)
{
  return tc_percpu_ptr (rig->tc, a->cpu_bstats, cpu);
}

/* cpu's copy of the action's gnet_stats_queue, as QSTATS_N u32 words. */
static const guint32 *
cpu_qstats (SchedRig *rig, const struct tc_action *a, guint cpu)
{
  return tc_percpu_ptr (rig->tc, a->cpu_qstats, cpu);
}

/* ---- the verdict ---- */

START_TEST (test_returns_the_configured_verdict)
{
  static const gint32 verdicts[] = {
    TC_ACT_UNSPEC, TC_ACT_OK, TC_ACT_RECLASSIFY, TC_ACT_SHOT, TC_ACT_PIPE, TC_ACT_STOLEN,
    TC_ACT_QUEUED, TC_ACT_REPEAT, TC_ACT_REDIRECT, TC_ACT_TRAP,
    TC_ACT_JUMP | 3, TC_ACT_GOTO_CHAIN | 7,
  };
  SchedRig rig;
  struct tcf_chain *chain7;
  struct tcf_result *res;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  chain7 = tcf_chain_create (rig.tc, 7);
  res = arena_res (&rig);
  for (guint i = 0; i < G_N_ELEMENTS (verdicts); i++) {
    gboolean is_goto = TC_ACT_EXT_CMP (verdicts[i], TC_ACT_GOTO_CHAIN);
    struct tc_action *a = tcf_gact_create (rig.tc, verdicts[i], is_goto ? chain7 : NULL);

    res->klass = 0xAAAA;
    res->classid = 0xBBBB;
    ck_assert_int_eq (act_once (&rig, 0, a, rig_skb (&rig), res), verdicts[i]);
    /* tcf_gact_act never touches *res (goto_tp is tcf_action_exec's business) */
    ck_assert_uint_eq (res->klass, 0xAAAA);
    ck_assert_uint_eq (res->classid, 0xBBBB);
  }
  rig_clear (&rig);
}
END_TEST

/* ---- byte and packet counters ---- */

/* bstats_update: bytes from qdisc_skb_cb(skb)->pkt_len, packets gso_segs for GSO. */
START_TEST (test_bstats_count_pkt_len_and_gso_segs)
{
  SchedRig rig;
  struct tc_action *a;
  struct sk_buff *plain, *gso;
  struct tcf_result *res;
  const struct gnet_stats_basic_sync *b;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  a = tcf_gact_create (rig.tc, TC_ACT_OK, NULL);
  res = arena_res (&rig);
  plain = rig_skb (&rig);
  *(guint32 *) plain->cb = 1514;          /* pkt_len differs from skb->len (60) */
  gso = rig_skb (&rig);
  *(guint32 *) gso->cb = 7000;
  skb_shinfo (gso)->gso_size = 1448;
  skb_shinfo (gso)->gso_segs = 5;
  act_once (&rig, 0, a, plain, res);
  b = cpu_bstats (&rig, a, 0);
  ck_assert_uint_eq (b->bytes, 1514);
  ck_assert_uint_eq (b->packets, 1);
  act_once (&rig, 0, a, gso, res);
  ck_assert_uint_eq (b->bytes, 1514 + 7000);
  ck_assert_uint_eq (b->packets, 1 + 5);
  ck_assert_uint_eq (tc_action_packets (rig.tc, a), 6);
  rig_clear (&rig);
}
END_TEST

/* The counters are per CPU (tcf_idr_create with cpustats): each CPU bumps its own copy;
 * the control path's sum sees both. */
START_TEST (test_bstats_are_per_cpu)
{
  SchedRig rig;
  struct tc_action *a;
  struct tcf_result *res;
  struct sk_buff *skb;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  ck_assert_uint_ge (ns_machine_n_cpus (rig.machine), 2);
  a = tcf_gact_create (rig.tc, TC_ACT_UNSPEC, NULL);
  res = arena_res (&rig);
  skb = rig_skb (&rig);
  *(guint32 *) skb->cb = 100;
  act_once (&rig, 1, a, skb, res);
  act_once (&rig, 1, a, skb, res);
  act_once (&rig, 0, a, skb, res);
  ck_assert_uint_eq (cpu_bstats (&rig, a, 0)->packets, 1);
  ck_assert_uint_eq (cpu_bstats (&rig, a, 0)->bytes, 100);
  ck_assert_uint_eq (cpu_bstats (&rig, a, 1)->packets, 2);
  ck_assert_uint_eq (cpu_bstats (&rig, a, 1)->bytes, 200);
  ck_assert_uint_eq (tc_action_packets (rig.tc, a), 3);
  rig_clear (&rig);
}
END_TEST

/* ---- drops ---- */

/* Only SHOT counts a drop, in qstats.drops (third word) of this CPU; every verdict counts
 * the packet. */
START_TEST (test_only_shot_counts_a_drop)
{
  static const gint32 verdicts[] = {
    TC_ACT_UNSPEC, TC_ACT_OK, TC_ACT_RECLASSIFY, TC_ACT_PIPE, TC_ACT_STOLEN, TC_ACT_TRAP,
    TC_ACT_JUMP | 1, TC_ACT_SHOT,
  };
  SchedRig rig;
  struct tcf_result *res;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  res = arena_res (&rig);
  for (guint i = 0; i < G_N_ELEMENTS (verdicts); i++) {
    struct tc_action *a = tcf_gact_create (rig.tc, verdicts[i], NULL);
    guint32 drops = verdicts[i] == TC_ACT_SHOT ? 2 : 0;
    const guint32 *q;

    act_once (&rig, 1, a, rig_skb (&rig), res);
    act_once (&rig, 1, a, rig_skb (&rig), res);
    q = cpu_qstats (&rig, a, 1);
    ck_assert_msg (q[QSTATS_DROPS] == drops, "verdict %d: drops %u, expected %u",
                   verdicts[i], q[QSTATS_DROPS], drops);
    for (guint w = 0; w < QSTATS_N; w++)
      if (w != QSTATS_DROPS)
        ck_assert_msg (q[w] == 0, "verdict %d: qstats word %u is %u", verdicts[i], w, q[w]);
    ck_assert_uint_eq (cpu_qstats (&rig, a, 0)[QSTATS_DROPS], 0);
    ck_assert_uint_eq (tc_action_drops (rig.tc, a), drops);
    ck_assert_uint_eq (tc_action_packets (rig.tc, a), 2);
  }
  rig_clear (&rig);
}
END_TEST

/* ---- lastuse ---- */

/* tcf_idr_create: install = lastuse = jiffies, firstuse = 0; tcf_lastuse_update: lastuse
 * = jiffies, firstuse = jiffies at the first use only. */
START_TEST (test_lastuse_and_firstuse)
{
  SchedRig rig;
  struct tc_action *a;
  struct tcf_result *res;
  guint64 created;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  res = arena_res (&rig);
  *rig.tc->jiffies += 1000;
  created = *rig.tc->jiffies;
  a = tcf_gact_create (rig.tc, TC_ACT_OK, NULL);
  ck_assert_uint_eq (a->tcfa_tm.install, created);
  ck_assert_uint_eq (a->tcfa_tm.lastuse, created);
  ck_assert_uint_eq (a->tcfa_tm.firstuse, 0);
  *rig.tc->jiffies += 3;
  act_once (&rig, 0, a, rig_skb (&rig), res);
  ck_assert_uint_eq (a->tcfa_tm.lastuse, created + 3);
  ck_assert_uint_eq (a->tcfa_tm.firstuse, created + 3);
  *rig.tc->jiffies += 250;
  act_once (&rig, 0, a, rig_skb (&rig), res);
  act_once (&rig, 1, a, rig_skb (&rig), res);
  ck_assert_uint_eq (a->tcfa_tm.lastuse, created + 253);
  ck_assert_uint_eq (a->tcfa_tm.firstuse, created + 3);
  ck_assert_uint_eq (a->tcfa_tm.install, created);
  rig_clear (&rig);
}
END_TEST

/* ---- creation ---- */

/* tcf_gact_init: the action is a "gact" whose act is tcf_gact_act; a goto chain action
 * holds the chain it goes to (tcf_action_check_ctrlact: tcf_chain_get_by_act). */
START_TEST (test_create_binds_ops_and_goto_chain)
{
  SchedRig rig;
  struct tcf_chain *chain3;
  struct tc_action *a, *plain;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  chain3 = tcf_chain_create (rig.tc, 3);
  a = tcf_gact_create (rig.tc, TC_ACT_GOTO_CHAIN | 3, chain3);
  plain = tcf_gact_create (rig.tc, TC_ACT_OK, NULL);
  ck_assert_str_eq (a->ops->kind, "gact");
  ck_assert_ptr_eq (a->ops->act, tc_action_fn ("tcf_gact_act"));
  ck_assert_ptr_eq (a->goto_chain, chain3);
  ck_assert_int_eq (a->tcfa_action, TC_ACT_GOTO_CHAIN | 3);
  ck_assert_ptr_null (plain->goto_chain);
  ck_assert_ptr_nonnull (plain->cpu_bstats);
  ck_assert_ptr_nonnull (plain->cpu_qstats);
  rig_clear (&rig);
}
END_TEST

static Suite *
act_gact_suite (void)
{
  Suite *s = suite_create ("act_gact");
  TCase *tc = tcase_create ("tcf_gact_act");

  tcase_add_test (tc, test_returns_the_configured_verdict);
  tcase_add_test (tc, test_bstats_count_pkt_len_and_gso_segs);
  tcase_add_test (tc, test_bstats_are_per_cpu);
  tcase_add_test (tc, test_only_shot_counts_a_drop);
  tcase_add_test (tc, test_lastuse_and_firstuse);
  tcase_add_test (tc, test_create_binds_ops_and_goto_chain);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (act_gact_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
