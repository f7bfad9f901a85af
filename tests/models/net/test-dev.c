/* test-dev.c — the transmit half of net/core/dev.c (models/net/dev.c) against v6.1's
 * __dev_queue_xmit and its helpers, on the tc stack (NetTx) with a dummy device whose
 * ndo_start_xmit is replaced by a recording driver. The model has no version branches:
 * the same code serves the v6.9 loopback path, whose driver test-loopback.c covers.
 *  - __dev_queue_xmit: skb_reset_mac_header (mac_header = data - head),
 *    qdisc_pkt_len_init (qdisc_skb_cb(skb)->pkt_len, the first u32 of cb, = skb->len),
 *    tc_at_ingress cleared; sch_handle_egress runs only while egress_needed_key is on, and
 *    an skb it took ends the call with the hook's return code (SHOT: NET_XMIT_DROP,
 *    STOLEN: NET_XMIT_SUCCESS), the driver never reached;
 *  - netdev_core_pick_tx (CONFIG_XPS): skb->sender_cpu = smp_processor_id() + 1 unless
 *    sender_cpu - 1 is already a CPU number (< NR_CPUS); one TX queue: queue_mapping 0;
 *  - the noqueue branch: dev_xmit_recursion_inc/dec around dev_hard_start_xmit (the
 *    driver sees the depth + 1, the caller the depth it had); dev_hard_start_xmit takes
 *    the skb off its list (skb->next = NULL); xmit_one passes more = false; a completed
 *    rc (dev_xmit_complete: rc < NET_XMIT_MASK) is what __dev_queue_xmit returns;
 *  - the noqueue branch's drops: a device without IFF_UP, a queue this CPU already holds
 *    (xmit_lock_owner) or an xmit depth above XMIT_RECURSION_LIMIT (8) ("Dead loop on
 *    virtual device"), a stopped queue (netif_xmit_stopped: __QUEUE_STATE_DRV_XOFF or
 *    STACK_XOFF) and a driver's NETDEV_TX_BUSY ("asks to queue packet") all end in
 *    rc = -ENETDOWN, dev_core_stats_tx_dropped_inc (this CPU's tx_dropped in the per-CPU
 *    dev->core_stats allocated at the first drop) and kfree_skb_list;
 *  - netdev_start_xmit: txq_trans_update writes jiffies to trans_start only on
 *    NETDEV_TX_OK and only for a queue with an xmit_lock_owner (LLTX queues keep -1).
 * The egress hook's own work (stats, classify, tc_index) is test-dev_xmit.c's. Expected
 * values follow from those rules, not from the model. */
#include "config.h"
#include <errno.h>
#include "sched/sched-rig.h"

#define LEN           60
#define NR_CPUS       8192u       /* Debian's CONFIG_NR_CPUS: sender_cpu's bound */
#define NET_XMIT_CN   0x02
#define NET_XMIT_MASK 0x0f
#define NETDEV_TX_BUSY 0x10
#define XMIT_RECURSION_LIMIT 8
#define QUEUE_STATE_DRV_XOFF   0x1ul  /* 1 << __QUEUE_STATE_DRV_XOFF */
#define QUEUE_STATE_STACK_XOFF 0x2ul  /* 1 << __QUEUE_STATE_STACK_XOFF */

/* What the recording driver saw of its one call. */
typedef struct {
  guint           calls;
  int             rc;             /* what it returns */
  struct sk_buff *skb;
  gpointer        next;
  guint16         recursion;
  guint8          more;
  guint16         mac_header;
  guint32         pkt_len;
  guint8          tc_at_ingress;
  guint32         sender_cpu;
  guint16         queue_mapping;
} Seen;

/* One dev_queue_xmit: the skb's fields set before the call, and what came of it. */
typedef struct {
  DevRig        *x;
  guint32         napi_id;        /* preset skb->sender_cpu */
  guint16         recursion;      /* preset softnet_data.xmit.recursion */
  int             ret;
  guint16         expect_mac;     /* data - head of the skb sent */
  guint16         recursion_after;
  guint64         live_after;
} Send;

static Seen seen;

/* The recording driver's NsFunc (reached by the indirect call). */
static NS_FUNC (fn_rec_xmit, "rec_xmit", 64, NS_FRAME_UNKNOWN, NS_FN_STATIC | NS_FN_INDIRECT, 1);

/* Records the skb's state and the xmit depth, consumes the skb, returns seen.rc. */
static int
rec_xmit (NsThread *t, gpointer owner, struct sk_buff *skb, struct net_device *dev)
{
  NetTx *tx = owner;
  struct netdev_xmit *xm = &net_tx_pcpu (tx, t)->xmit;

  (void) dev;
  seen.calls++;
  seen.skb = skb;
  seen.next = skb->next;
  seen.recursion = xm->recursion;
  seen.more = xm->more;
  seen.mac_header = skb->mac_header;
  seen.pkt_len = *(guint32 *) skb->cb;
  seen.tc_at_ingress = skb->header_bits[0] & TC_SKB_AT_INGRESS;
  seen.sender_cpu = skb->napi_id;
  seen.queue_mapping = skb->queue_mapping;
  if (seen.rc != NETDEV_TX_BUSY)          /* a busy driver gives the skb back */
    consume_skb (t, tx->alloc, skb);
  return seen.rc;
}

/* A 6.1 machine with dummy0 driven by rec_xmit returning `rc`. */
static void
xmit_rig_init (DevRig *x, int rc)
{
  struct net_device_ops *ops;

  dev_rig_init (x);
  ops = tc_kzalloc (x->rig.tc, sizeof *ops);
  ops->ndo_start_xmit = &fn_rec_xmit;
  ops->start_xmit_impl = rec_xmit;
  x->dev->netdev_ops = ops;
  seen = (Seen) { .rc = rc };
}

/* Adds clsact with one egress matchall filter whose gact gives `verdict`. */
static void
add_egress_filter (DevRig *x, gint32 verdict)
{
  clsact_attach (x->tx, x->dev);
  dev_rig_add_filter (x, TRUE, 1, 0x10001, verdict);
  clsact_sync (x->tx, x->dev);
}

/* Body: an skb with stale list, mac, cb and ingress state through dev_queue_xmit. */
static void
send_body (NsThread *t, gpointer data)
{
  Send *s = data;
  DevRig *x = s->x;
  struct netdev_xmit *xm = &net_tx_pcpu (x->tx, t)->xmit;
  struct sk_buff *skb = __netdev_alloc_skb (t, x->tx, x->dev, LEN);

  skb_put (t, skb, LEN);
  skb->next = skb;                          /* as if on a list */
  skb->mac_header = 0xFFFF;
  *(guint32 *) skb->cb = 0xDEADBEEF;
  skb->header_bits[0] |= TC_SKB_AT_INGRESS;
  skb->napi_id = s->napi_id;
  skb->queue_mapping = 7;
  s->expect_mac = (guint16) (skb->data - skb->head);
  xm->recursion = s->recursion;
  xm->more = 1;
  s->ret = dev_queue_xmit (t, &x->tx->core, skb);
  s->recursion_after = xm->recursion;
  s->live_after = ns_skb_alloc_live (x->tx->alloc, NULL);
}

/* One dev_queue_xmit on `cpu` with sender_cpu and xmit depth preset. */
static void
send_on (DevRig *x, Send *s, guint cpu, guint32 napi_id, guint16 recursion)
{
  *s = (Send) { .x = x, .napi_id = napi_id, .recursion = recursion, .ret = -1 };
  rig_run_on (&x->rig, cpu, send_body, s);
}

/* The noqueue path hands the skb, off its list, to the driver once with more = false;
 * the driver's NETDEV_TX_OK comes back as NET_XMIT_SUCCESS. */
START_TEST (test_noqueue_reaches_driver_once)
{
  DevRig x;
  Send s;

  xmit_rig_init (&x, NETDEV_TX_OK);
  send_on (&x, &s, 0, 0, 0);
  ck_assert_uint_eq (seen.calls, 1);
  ck_assert_ptr_null (seen.next);
  ck_assert_uint_eq (seen.more, 0);
  ck_assert_int_eq (s.ret, NET_XMIT_SUCCESS);
  ck_assert_uint_eq (s.live_after, 0);
  dev_rig_clear (&x);
}
END_TEST

/* __dev_queue_xmit resets the mac header to data, sets the qdisc cb's pkt_len to the
 * skb's length and clears tc_at_ingress before the device sees the skb. */
START_TEST (test_prepares_skb_for_the_device)
{
  DevRig x;
  Send s;

  xmit_rig_init (&x, NETDEV_TX_OK);
  send_on (&x, &s, 0, 0, 0);
  ck_assert_uint_eq (seen.mac_header, s.expect_mac);
  ck_assert_uint_eq (seen.pkt_len, LEN);
  ck_assert_uint_eq (seen.tc_at_ingress, 0);
  dev_rig_clear (&x);
}
END_TEST

/* A fresh skb gets sender_cpu = cpu + 1 and queue 0 of the one-queue device. */
START_TEST (test_pick_tx_sets_sender_cpu)
{
  const guint cpu = 1;
  DevRig x;
  Send s;

  xmit_rig_init (&x, NETDEV_TX_OK);
  send_on (&x, &s, cpu, 0, 0);
  ck_assert_uint_eq (seen.sender_cpu, cpu + 1);
  ck_assert_uint_eq (seen.queue_mapping, 0);
  dev_rig_clear (&x);
}
END_TEST

/* A sender_cpu already naming a CPU (here CPU 2's, 3) is kept on another CPU; a value
 * whose sender_cpu - 1 is not below NR_CPUS (a NAPI id, which starts at NR_CPUS + 1) is
 * replaced by this CPU's. */
START_TEST (test_pick_tx_keeps_a_cpu_replaces_a_napi_id)
{
  const guint cpu = 1;
  DevRig x;
  Send s;

  xmit_rig_init (&x, NETDEV_TX_OK);
  send_on (&x, &s, cpu, 2 + 1, 0);
  ck_assert_uint_eq (seen.sender_cpu, 2 + 1);
  send_on (&x, &s, cpu, NR_CPUS + 1, 0);
  ck_assert_uint_eq (seen.sender_cpu, cpu + 1);
  dev_rig_clear (&x);
}
END_TEST

/* dev_xmit_recursion_inc/dec bracket the driver call, from depth 0 and from a nested
 * depth of 3. */
START_TEST (test_recursion_counted_around_driver)
{
  DevRig x;
  Send s;

  xmit_rig_init (&x, NETDEV_TX_OK);
  send_on (&x, &s, 0, 0, 0);
  ck_assert_uint_eq (seen.recursion, 0 + 1);
  ck_assert_uint_eq (s.recursion_after, 0);
  send_on (&x, &s, 0, 0, 3);
  ck_assert_uint_eq (seen.recursion, 3 + 1);
  ck_assert_uint_eq (s.recursion_after, 3);
  dev_rig_clear (&x);
}
END_TEST

/* A completed driver rc other than NETDEV_TX_OK (NET_XMIT_DROP, NET_XMIT_CN, -ENOBUFS:
 * all below NET_XMIT_MASK) is __dev_queue_xmit's return value. */
START_TEST (test_driver_rc_is_returned)
{
  const int rcs[] = { NET_XMIT_DROP, NET_XMIT_CN, -ENOBUFS };

  for (guint i = 0; i < G_N_ELEMENTS (rcs); i++) {
    DevRig x;
    Send s;

    ck_assert_int_lt (rcs[i], NET_XMIT_MASK);
    xmit_rig_init (&x, rcs[i]);
    send_on (&x, &s, 0, 0, 0);
    ck_assert_uint_eq (seen.calls, 1);
    ck_assert_int_eq (s.ret, rcs[i]);
    dev_rig_clear (&x);
  }
}
END_TEST

/* Asserts that the last send was dropped as __dev_queue_xmit's tail drops: -ENETDOWN,
 * the skb freed, the depth as it was, and tx_dropped counted on `cpu`. */
static void
assert_dropped (DevRig *x, const Send *s, guint cpu, gulong tx_dropped)
{
  ck_assert_int_eq (s->ret, -ENETDOWN);
  ck_assert_uint_eq (s->live_after, 0);
  ck_assert_uint_eq (s->recursion_after, s->recursion);
  ck_assert_ptr_nonnull (x->dev->core_stats);
  ck_assert_uint_eq (x->dev->core_stats[cpu].tx_dropped, tx_dropped);
}

/* A device that is not up never reaches its driver: the skb is dropped. */
START_TEST (test_down_device_drops)
{
  DevRig x;
  Send s;

  xmit_rig_init (&x, NETDEV_TX_OK);
  x.dev->flags &= ~IFF_UP;
  send_on (&x, &s, 0, 0, 0);
  ck_assert_uint_eq (seen.calls, 0);
  assert_dropped (&x, &s, 0, 1);
  dev_rig_clear (&x);
}
END_TEST

/* A queue whose xmit lock this CPU holds is a dead loop: dropped; another CPU's
 * ownership is no bar (LLTX takes no lock). */
START_TEST (test_own_queue_is_a_dead_loop)
{
  DevRig x;
  Send s;

  xmit_rig_init (&x, NETDEV_TX_OK);
  x.dev->_tx[0].xmit_lock_owner = 1;
  send_on (&x, &s, 0, 0, 0);
  ck_assert_uint_eq (seen.calls, 1);
  ck_assert_int_eq (s.ret, NET_XMIT_SUCCESS);
  send_on (&x, &s, 1, 0, 0);
  ck_assert_uint_eq (seen.calls, 1);
  assert_dropped (&x, &s, 1, 1);
  dev_rig_clear (&x);
}
END_TEST

/* dev_xmit_recursion: a depth of XMIT_RECURSION_LIMIT still transmits, one more drops. */
START_TEST (test_recursion_limit_drops)
{
  DevRig x;
  Send s;

  xmit_rig_init (&x, NETDEV_TX_OK);
  send_on (&x, &s, 0, 0, XMIT_RECURSION_LIMIT);
  ck_assert_uint_eq (seen.calls, 1);
  ck_assert_uint_eq (seen.recursion, XMIT_RECURSION_LIMIT + 1);
  send_on (&x, &s, 0, 0, XMIT_RECURSION_LIMIT + 1);
  ck_assert_uint_eq (seen.calls, 1);
  assert_dropped (&x, &s, 0, 1);
  dev_rig_clear (&x);
}
END_TEST

/* A queue stopped by the driver or by BQL is not transmitted on: each send drops, and the
 * drops add up in one per-CPU core_stats allocated at the first. */
START_TEST (test_stopped_queue_drops)
{
  DevRig x;
  Send s;
  struct net_device_core_stats *stats;

  xmit_rig_init (&x, NETDEV_TX_OK);
  x.dev->_tx[0].state = QUEUE_STATE_DRV_XOFF;
  send_on (&x, &s, 0, 0, 0);
  assert_dropped (&x, &s, 0, 1);
  stats = x.dev->core_stats;
  x.dev->_tx[0].state = QUEUE_STATE_STACK_XOFF;
  send_on (&x, &s, 0, 0, 0);
  assert_dropped (&x, &s, 0, 2);
  send_on (&x, &s, 1, 0, 0);
  assert_dropped (&x, &s, 1, 1);
  ck_assert_ptr_eq (x.dev->core_stats, stats);
  ck_assert_uint_eq (seen.calls, 0);
  dev_rig_clear (&x);
}
END_TEST

/* A driver that answers NETDEV_TX_BUSY (not complete: above NET_XMIT_MASK) keeps the skb
 * out of its hands; a queueless device cannot requeue, so the skb is dropped. */
START_TEST (test_tx_busy_drops)
{
  DevRig x;
  Send s;

  ck_assert_int_gt (NETDEV_TX_BUSY, NET_XMIT_MASK);
  xmit_rig_init (&x, NETDEV_TX_BUSY);
  send_on (&x, &s, 0, 0, 0);
  ck_assert_uint_eq (seen.calls, 1);
  assert_dropped (&x, &s, 0, 1);
  dev_rig_clear (&x);
}
END_TEST

/* With egress_needed_key off, a SHOT filter on a published egress chain is not run: the
 * driver gets the skb. */
START_TEST (test_egress_skipped_without_key)
{
  DevRig x;
  Send s;

  xmit_rig_init (&x, NETDEV_TX_OK);
  add_egress_filter (&x, TC_ACT_SHOT);
  ck_assert_ptr_nonnull (x.dev->miniq_egress);
  x.tx->egress_needed_key = FALSE;
  send_on (&x, &s, 0, 0, 0);
  ck_assert_uint_eq (seen.calls, 1);
  ck_assert_int_eq (s.ret, NET_XMIT_SUCCESS);
  dev_rig_clear (&x);
}
END_TEST

/* With the key on, an skb the hook took ends __dev_queue_xmit with the hook's code: SHOT
 * → NET_XMIT_DROP, STOLEN → NET_XMIT_SUCCESS, the driver not called, the skb gone; OK
 * lets it through to the driver. */
START_TEST (test_egress_verdict_decides)
{
  const struct { gint32 verdict; int ret; guint calls; } cases[] = {
    { TC_ACT_SHOT, NET_XMIT_DROP, 0 },
    { TC_ACT_STOLEN, NET_XMIT_SUCCESS, 0 },
    { TC_ACT_OK, NET_XMIT_SUCCESS, 1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    DevRig x;
    Send s;

    xmit_rig_init (&x, NETDEV_TX_OK);
    add_egress_filter (&x, cases[i].verdict);
    ck_assert (x.tx->egress_needed_key);
    send_on (&x, &s, 0, 0, 0);
    ck_assert_uint_eq (seen.calls, cases[i].calls);
    ck_assert_int_eq (s.ret, cases[i].ret);
    ck_assert_uint_eq (s.live_after, 0);
    dev_rig_clear (&x);
  }
}
END_TEST

/* A direct netdev_start_xmit call and the queue's trans_start after it. */
typedef struct {
  DevRig *x;
  gint32   owner;               /* the queue's xmit_lock_owner */
  gboolean more;
  int      rc;
  gulong   trans_start;
  guint8   more_seen;
} Start;

/* Body: netdev_start_xmit of a fresh skb on dummy0's queue 0. */
static void
start_body (NsThread *t, gpointer data)
{
  Start *st = data;
  DevRig *x = st->x;
  struct netdev_queue *txq = &x->dev->_tx[0];
  struct sk_buff *skb = __netdev_alloc_skb (t, x->tx, x->dev, LEN);

  txq->xmit_lock_owner = st->owner;
  txq->trans_start = 0;
  st->rc = netdev_start_xmit (t, &x->tx->core, skb, x->dev, txq, st->more);
  st->trans_start = txq->trans_start;
  st->more_seen = seen.more;
}

/* Runs start_body with a driver returning rc and the queue's owner `owner`. */
static void
start_with (Start *st, int rc, gint32 owner, gboolean more)
{
  DevRig x;

  xmit_rig_init (&x, rc);
  *x.rig.tc->jiffies = 4242;
  *st = (Start) { .x = &x, .owner = owner, .more = more };
  rig_run (&x.rig, start_body, st);
  dev_rig_clear (&x);
}

/* txq_trans_update: jiffies into trans_start on NETDEV_TX_OK from a queue with a lock
 * owner; not for an LLTX queue (owner -1) nor on a busy driver. xmit.more is the
 * caller's `more`. */
START_TEST (test_start_xmit_trans_update)
{
  Start st;

  start_with (&st, NETDEV_TX_OK, 0, TRUE);
  ck_assert_int_eq (st.rc, NETDEV_TX_OK);
  ck_assert_uint_eq (st.trans_start, 4242);
  ck_assert_uint_eq (st.more_seen, 1);
  start_with (&st, NETDEV_TX_OK, -1, FALSE);
  ck_assert_uint_eq (st.trans_start, 0);
  ck_assert_uint_eq (st.more_seen, 0);
  start_with (&st, NETDEV_TX_BUSY, 0, FALSE);
  ck_assert_int_eq (st.rc, NETDEV_TX_BUSY);
  ck_assert_uint_eq (st.trans_start, 0);
}
END_TEST

static Suite *
dev_suite (void)
{
  Suite *s = suite_create ("dev");
  TCase *q = tcase_create ("__dev_queue_xmit");
  TCase *e = tcase_create ("egress");
  TCase *st = tcase_create ("netdev_start_xmit");

  tcase_add_test (q, test_noqueue_reaches_driver_once);
  tcase_add_test (q, test_prepares_skb_for_the_device);
  tcase_add_test (q, test_pick_tx_sets_sender_cpu);
  tcase_add_test (q, test_pick_tx_keeps_a_cpu_replaces_a_napi_id);
  tcase_add_test (q, test_recursion_counted_around_driver);
  tcase_add_test (q, test_driver_rc_is_returned);
  tcase_add_test (q, test_down_device_drops);
  tcase_add_test (q, test_own_queue_is_a_dead_loop);
  tcase_add_test (q, test_recursion_limit_drops);
  tcase_add_test (q, test_stopped_queue_drops);
  tcase_add_test (q, test_tx_busy_drops);
  tcase_add_test (e, test_egress_skipped_without_key);
  tcase_add_test (e, test_egress_verdict_decides);
  tcase_add_test (st, test_start_xmit_trans_update);
  suite_add_tcase (s, q);
  suite_add_tcase (s, e);
  suite_add_tcase (s, st);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (dev_suite ());
  gint failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
