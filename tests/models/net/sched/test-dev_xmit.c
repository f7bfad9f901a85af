/* test-dev_xmit.c — the egress hook (models/net/sched/dev_xmit.c) against v6.1's
 * sch_handle_egress (net/core/dev.c):
 *  - no published mini_Qdisc (no clsact, or clsact with an empty egress chain): the skb
 *    goes on untouched, no stats, no classify;
 *  - a published one counts the packet in the qdisc's per-CPU bstats (bytes from
 *    qdisc_pkt_len, the skb's length here), classifies, and acts on the verdict: OK sets
 *    tc_index from the result's classid; SHOT counts a drop in the qdisc's per-CPU
 *    qstats (mini_qdisc_qstats_cpu_drop: drops, the third u32 of gnet_stats_queue), frees
 *    the skb and returns NET_XMIT_DROP; STOLEN consumes it with NET_XMIT_SUCCESS.
 * The expected values follow from those rules, not from the model. */
#include "config.h"
#include "sched-rig.h"

#define LEN  60

/* One pass through the egress hook and what came of it. */
typedef struct {
  DevRig         *d;
  struct sk_buff *in;
  struct sk_buff *out;
  int             ret;
  guint64         live_after;   /* sk_buffs still allocated after the hook */
  guint16         tc_index;     /* of the skb that came back (before it is freed) */
} Pass;

/* A 6.1 machine with dummy0 and clsact; `filters` egress matchall filters (classid =
 * 1:prio) with one gact of verdict each. */
static void
dev_rig_init_filters (DevRig *d, guint filters, gint32 verdict)
{
  dev_rig_init (d);
  clsact_attach (d->tx, d->dev);
  for (guint i = 0; i < filters; i++)
    dev_rig_add_filter (d, TRUE, i + 1, 0x10000 | (i + 1), verdict);
  clsact_sync (d->tx, d->dev);
}

/* Body: an skb from the allocator through tx->core.egress. */
static void
egress_pass (NsThread *t, gpointer data)
{
  Pass *p = data;
  DevRig *d = p->d;

  p->in = __netdev_alloc_skb (t, d->tx, d->dev, LEN);
  skb_put (t, p->in, LEN);
  p->ret = -1;
  p->out = d->tx->core.egress (t, d->tx, p->in, &p->ret, d->dev);
  p->live_after = ns_skb_alloc_live (d->tx->alloc, NULL);
  if (p->out != NULL) {
    p->tc_index = p->out->tc_index;
    kfree_skb (t, d->tx->alloc, p->out);
  }
}

/* Runs one egress pass on CPU 0. */
static void
run_pass (DevRig *d, Pass *p)
{
  *p = (Pass) { .d = d };
  rig_run (&d->rig, egress_pass, p);
}

/* CPU 0's share of the clsact qdisc's bstats and qstats.drops. */
static void
qdisc_stats (DevRig *d, const struct mini_Qdisc *miniq, guint64 *packets, guint64 *bytes,
             guint32 *drops)
{
  struct gnet_stats_basic_sync *b = tc_percpu_ptr (d->rig.tc, miniq->cpu_bstats, 0);
  guint32 *q = tc_percpu_ptr (d->rig.tc, miniq->cpu_qstats, 0);

  *packets = b->packets;
  *bytes = b->bytes;
  *drops = q[2];
}

/* clsact with no egress filter: nothing published, the skb passes, nothing counted. */
START_TEST (test_empty_egress_passes_untouched)
{
  struct tcf_chain *chain;
  DevRig d;
  Pass p;

  dev_rig_init_filters (&d, 0, TC_ACT_OK);
  ck_assert_ptr_null (d.dev->miniq_egress);
  run_pass (&d, &p);
  ck_assert_ptr_eq (p.out, p.in);
  ck_assert_int_eq (p.ret, -1);
  chain = clsact_chain (d.tx, d.dev, TRUE);
  ck_assert_ptr_null (chain->filter_chain);
  dev_rig_clear (&d);
}
END_TEST

/* OK: counted once in bstats, tc_index from the classid's minor, no drop. */
START_TEST (test_ok_sets_tc_index)
{
  guint64 packets, bytes;
  guint32 drops;
  DevRig d;
  Pass p;

  dev_rig_init_filters (&d, 1, TC_ACT_OK);
  run_pass (&d, &p);
  ck_assert_ptr_eq (p.out, p.in);
  ck_assert_uint_eq (p.tc_index, 1);
  qdisc_stats (&d, d.dev->miniq_egress, &packets, &bytes, &drops);
  ck_assert_uint_eq (packets, 1);
  ck_assert_uint_eq (drops, 0);
  dev_rig_clear (&d);
}
END_TEST

/* SHOT: a drop in the qdisc's qstats, the skb freed, NET_XMIT_DROP. */
START_TEST (test_shot_counts_a_drop)
{
  guint64 packets, bytes;
  guint32 drops;
  DevRig d;
  Pass p;

  dev_rig_init_filters (&d, 1, TC_ACT_SHOT);
  run_pass (&d, &p);
  ck_assert_ptr_null (p.out);
  ck_assert_int_eq (p.ret, NET_XMIT_DROP);
  ck_assert_uint_eq (p.live_after, 0);
  qdisc_stats (&d, d.dev->miniq_egress, &packets, &bytes, &drops);
  ck_assert_uint_eq (packets, 1);
  ck_assert_uint_eq (drops, 1);
  dev_rig_clear (&d);
}
END_TEST

/* STOLEN: consumed, NET_XMIT_SUCCESS, no drop. */
START_TEST (test_stolen_is_consumed)
{
  guint64 packets, bytes;
  guint32 drops;
  DevRig d;
  Pass p;

  dev_rig_init_filters (&d, 1, TC_ACT_STOLEN);
  run_pass (&d, &p);
  ck_assert_ptr_null (p.out);
  ck_assert_int_eq (p.ret, NET_XMIT_SUCCESS);
  ck_assert_uint_eq (p.live_after, 0);
  qdisc_stats (&d, d.dev->miniq_egress, &packets, &bytes, &drops);
  ck_assert_uint_eq (drops, 0);
  dev_rig_clear (&d);
}
END_TEST

static Suite *
dev_xmit_suite (void)
{
  Suite *s = suite_create ("dev_xmit");
  TCase *tc = tcase_create ("sch_handle_egress");

  tcase_add_test (tc, test_empty_egress_passes_untouched);
  tcase_add_test (tc, test_ok_sets_tc_index);
  tcase_add_test (tc, test_shot_counts_a_drop);
  tcase_add_test (tc, test_stolen_is_consumed);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (dev_xmit_suite ());
  gint failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
