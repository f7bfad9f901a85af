/* dev_xmit.c — the transmit half of net/core/dev.c in v6.1, as a queue_xmit skb takes it
 * on a software device with a clsact qdisc and no real qdisc (dummy: IFF_NO_QUEUE, LLTX):
 *
 *   dev_queue_xmit → __dev_queue_xmit
 *     skb_reset_mac_header, rcu_read_lock_bh, skb_update_prio, qdisc_pkt_len_init
 *     egress_needed_key → sch_handle_egress: per-CPU bstats, tcf_classify on
 *       miniq_egress, the verdict (OK/RECLASSIFY: tc_index; SHOT: drop; STOLEN/QUEUED/
 *       TRAP: consume; REDIRECT: not modelled; else go on)
 *     skb_dst_drop, netdev_core_pick_tx, q = txq->qdisc: noqueue (enqueue NULL), so
 *     the direct path: recursion check, validate_xmit_skb (netif_skb_features,
 *     validate_xmit_xfrm), HARD_TX_LOCK (nothing for LLTX), dev_hard_start_xmit →
 *     xmit_one → netdev_start_xmit → ops->ndo_start_xmit (an indirect call)
 *     rcu_read_unlock_bh → local_bh_enable
 *
 * Instruction counts are estimates from the v6.1 C source (about one instruction per
 * simple statement, test or field access of the fast path; the helpers named in each
 * comment are inline there). */
#include "config.h"
#include "sched-priv.h"
#include "netdev.h"
#include "net/netdevice.h"

/* Sizes: estimates of x86-64 text (v6.1 distro config, helpers inlined as noted). The
 * dev_fn_* ones are the only declarations of these symbols in netsim: the loopback model
 * (models/net/loopback.c) charges its calls to them too (net/netdevice.h). The helpers
 * both device paths share — netdev_core_pick_tx, validate_xmit_skb and what it calls —
 * are in models/net/dev.c. */
NS_FUNC (dev_fn___dev_queue_xmit, "__dev_queue_xmit", 1600, NS_FN_EXTERN, 2);
static NS_FUNC (fn_sch_handle_egress, "sch_handle_egress", 240, NS_FN_STATIC, 1);
NS_FUNC (dev_fn_dev_hard_start_xmit, "dev_hard_start_xmit", 260, NS_FN_EXTERN, 3);

/* sch_handle_egress: classify on the egress mini_Qdisc; NULL if tc took the skb. */
static struct sk_buff *
sch_handle_egress (NsThread *t, NetTx *tx, struct sk_buff *skb, int *ret,
                   struct net_device *dev)
{
  struct mini_Qdisc *miniq;
  struct gnet_stats_basic_sync *b;
  struct tcf_result *cl_res = &net_tx_pcpu (tx, t)->stack_cl_res;
  int verdict;

  ns_call (t, &fn_sch_handle_egress);
  NS_LOAD_FIELD (t, dev, miniq_egress);
  miniq = dev->miniq_egress;
  /* estimate: 4 instructions — miniq test, tc_skb_cb mru = 0 and post_ct = false */
  ns_insns (t, 4);
  if (miniq == NULL)
    goto out;
  ns_store (t, skb->cb + 28, 4);
  /* mini_qdisc_bstats_cpu_update: bstats_update(this_cpu_ptr(miniq->cpu_bstats), skb) */
  NS_LOAD_FIELD (t, miniq, cpu_bstats);
  b = tc_percpu_ptr (tx->tc, miniq->cpu_bstats, ns_thread_cpu (t));
  ns_load (t, b, sizeof *b);
  b->bytes += skb->len;
  b->packets++;
  ns_store (t, b, sizeof *b);
  /* estimate: 7 instructions (pkt_len, gso test, two adds, this_cpu_ptr) */
  ns_insns (t, 7);
  NS_LOAD_FIELD (t, miniq, filter_list);
  NS_LOAD_FIELD (t, miniq, block);
  verdict = tcf_classify (t, tx->tc, skb, miniq->block, miniq->filter_list, cl_res, FALSE);
  /* estimate: 3 instructions (the switch's jump table) */
  ns_insns (t, 3);
  switch (verdict) {
  case TC_ACT_OK:
  case TC_ACT_RECLASSIFY:
    skb->tc_index = (guint16) (cl_res->classid & 0xFFFF);
    NS_STORE_FIELD (t, skb, tc_index);
    break;
  case TC_ACT_SHOT:
    *ret = NET_XMIT_DROP;
    tx_kfree_skb (t, tx, skb);
    skb = NULL;
    break;
  case TC_ACT_STOLEN:
  case TC_ACT_QUEUED:
  case TC_ACT_TRAP:
    *ret = NET_XMIT_SUCCESS;
    tx_consume_skb (t, tx, skb);
    skb = NULL;
    break;
  default:
    break;
  }
out:
  ns_ret (t);
  return skb;
}

/* netdev_start_xmit: softnet_data.xmit.more, ops->ndo_start_xmit (indirect call: its
 * target is dev->netdev_ops->ndo_start_xmit), txq_trans_update. */
int
netdev_start_xmit (NsThread *t, NetTx *tx, struct sk_buff *skb, struct net_device *dev,
                   struct netdev_queue *txq, gboolean more)
{
  const struct net_device_ops *ops;
  struct tx_pcpu *pc = net_tx_pcpu (tx, t);
  int rc;

  ns_load (t, &dev->netdev_ops, sizeof dev->netdev_ops);
  ops = dev->netdev_ops;
  pc->xmit_more = more;
  ns_store (t, &pc->xmit_more, 1);
  ns_load (t, &ops->ndo_start_xmit, sizeof ops->ndo_start_xmit);
  /* estimate: 4 instructions (ops, more, argument setup) */
  ns_insns (t, 4);
  ns_icall (t, ops->ndo_start_xmit);
  rc = ops->start_xmit_impl (t, tx, skb, dev);
  ns_ret (t);
  /* txq_trans_update: LLTX queues keep xmit_lock_owner -1, so no trans_start write */
  NS_LOAD_FIELD (t, txq, xmit_lock_owner);
  /* estimate: 3 instructions (rc test, owner test) */
  ns_insns (t, 3);
  if (rc == NETDEV_TX_OK && txq->xmit_lock_owner != -1) {
    txq->trans_start = *tx->tc->jiffies;
    NS_STORE_FIELD (t, txq, trans_start);
  }
  return rc;
}

/* dev_hard_start_xmit with xmit_one folded in: the skb list of one, taps, the driver. */
static int
dev_hard_start_xmit (NsThread *t, NetTx *tx, struct sk_buff *skb, struct net_device *dev,
                     struct netdev_queue *txq)
{
  int rc;

  ns_call (t, &dev_fn_dev_hard_start_xmit);
  NS_LOAD_FIELD (t, skb, next);
  skb->next = NULL;
  NS_STORE_FIELD (t, skb, next);
  /* xmit_one: dev_nit_active — the global ptype_all and dev->ptype_all lists empty */
  ns_load (t, tx->ptype_all, sizeof *tx->ptype_all);
  NS_LOAD_FIELD (t, dev, ptype_all);
  NS_LOAD_FIELD (t, skb, len);
  /* estimate: 14 instructions (list walk of one, two list_empty tests, len, the
   * completion and queue-stopped tests, *ret) */
  ns_insns (t, 14);
  rc = netdev_start_xmit (t, tx, skb, dev, txq, FALSE);
  NS_LOAD_FIELD (t, txq, state);             /* netif_tx_queue_stopped */
  ns_ret (t);
  return rc;
}

/* The no-qdisc branch of __dev_queue_xmit (IFF_UP, not recursing, LLTX). */
static int
dev_queue_xmit_noqueue (NsThread *t, NetTx *tx, struct sk_buff *skb, struct net_device *dev,
                        struct netdev_queue *txq)
{
  struct tx_pcpu *pc = net_tx_pcpu (tx, t);
  int rc = NET_XMIT_DROP;

  NS_LOAD_FIELD (t, dev, flags);
  NS_LOAD_FIELD (t, txq, xmit_lock_owner);
  ns_load (t, &pc->xmit_recursion, sizeof pc->xmit_recursion);
  /* estimate: 10 instructions (IFF_UP, smp_processor_id, owner and recursion tests) */
  ns_insns (t, 10);
  skb = validate_xmit_skb (t, skb, dev);
  NS_LOAD_FIELD (t, dev, features);          /* HARD_TX_LOCK: LLTX, no lock */
  NS_LOAD_FIELD (t, txq, state);             /* netif_xmit_stopped */
  pc->xmit_recursion++;
  ns_store (t, &pc->xmit_recursion, sizeof pc->xmit_recursion);
  /* estimate: 8 instructions (LLTX and stopped tests, recursion inc and dec,
   * dev_xmit_complete, HARD_TX_UNLOCK's LLTX test) */
  ns_insns (t, 8);
  rc = dev_hard_start_xmit (t, tx, skb, dev, txq);
  pc->xmit_recursion--;
  ns_store (t, &pc->xmit_recursion, sizeof pc->xmit_recursion);
  return rc;
}

/* __dev_queue_xmit(skb, NULL). */
static int
__dev_queue_xmit (NsThread *t, NetTx *tx, struct sk_buff *skb)
{
  struct net_device *dev = skb->dev;
  struct netdev_queue *txq;
  int rc = NET_XMIT_SUCCESS;

  ns_call (t, &dev_fn___dev_queue_xmit);
  NS_LOAD_FIELD (t, skb, dev);
  /* skb_reset_mac_header; shinfo->tx_flags & SKBTX_SCHED_TSTAMP */
  NS_LOAD_FIELD (t, skb, data);
  NS_LOAD_FIELD (t, skb, head);
  skb_reset_mac_header (skb);
  NS_STORE_FIELD (t, skb, mac_header);
  NS_LOAD_FIELD (t, skb, end);
  NS_LOAD_FIELD (t, skb_shinfo (skb), tx_flags);
  /* estimate: 10 instructions (frame, mac header, tstamp test, rcu_read_lock_bh's
   * preempt-count add) */
  ns_insns (t, 10);
  local_bh_disable (t, tx);
  /* skb_update_prio: skb->priority, dev->priomap */
  NS_LOAD_FIELD (t, skb, priority);
  NS_LOAD_FIELD (t, dev, priomap);
  /* qdisc_pkt_len_init: cb pkt_len = len; gso test; skb->tc_at_ingress = 0 */
  NS_LOAD_FIELD (t, skb, len);
  *(guint32 *) skb->cb = skb->len;
  ns_store (t, skb->cb, sizeof (guint32));
  skb->header_bits[0] &= ~TC_SKB_AT_INGRESS;
  NS_STORE_FIELD (t, skb, header_bits);
  /* estimate: 14 instructions (priomap test, pkt_len, gso test, tc_at_ingress, the
   * egress_needed_key and nf_hooks_egress static branches, nf_skip_egress twice) */
  ns_insns (t, 14);
  if (tx->egress_needed_key) {
    skb = sch_handle_egress (t, tx, skb, &rc, dev);
    if (skb == NULL)
      goto out;
    ns_load (t, &net_tx_pcpu (tx, t)->xmit_skip_txqueue, 1);
    ns_insns (t, 2);
  }
  /* IFF_XMIT_DST_RELEASE: skb_dst_drop */
  NS_LOAD_FIELD (t, dev, priv_flags);
  NS_LOAD_FIELD (t, skb, _skb_refdst);
  txq = netdev_core_pick_tx (t, dev, skb);
  NS_LOAD_FIELD (t, txq, qdisc);
  ns_load (t, &txq->qdisc->enqueue, sizeof txq->qdisc->enqueue);
  /* estimate: 8 instructions (dst release test, txq, qdisc, trace nop, enqueue test) */
  ns_insns (t, 8);
  if (txq->qdisc->enqueue == NULL)
    rc = dev_queue_xmit_noqueue (t, tx, skb, dev, txq);
out:
  local_bh_enable (t, tx);                   /* rcu_read_unlock_bh */
  ns_ret (t);
  return rc;
}

/* dev_queue_xmit: the inline wrapper around __dev_queue_xmit(skb, NULL). */
int
dev_queue_xmit (NsThread *t, NetTx *tx, struct sk_buff *skb)
{
  g_return_val_if_fail (tx != NULL && skb != NULL, NET_XMIT_DROP);
  return __dev_queue_xmit (t, tx, skb);
}
