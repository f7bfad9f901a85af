/* dev.c — the transmit half of net/core/dev.c as both modelled device paths take it,
 * the same in v6.1 and v6.9 for a one-queue software device (IFF_NO_QUEUE: the noqueue
 * qdisc; NETIF_F_LLTX: no TX lock) without GSO, VLAN or xfrm offload: the loopback path
 * of seed 000 (models/net/loopback.c) and the dummy/clsact path of seed 002
 * (models/net/sched/). The stack each runs in is a NetDevCore (netdevice.h).
 *
 *   dev_queue_xmit → __dev_queue_xmit
 *     skb_reset_mac_header, rcu_read_lock_bh, skb_update_prio, qdisc_pkt_len_init
 *     egress_needed_key → sch_handle_egress (the tc model's; core->egress)
 *     skb_dst_drop, netdev_core_pick_tx, q = txq->qdisc: noqueue (enqueue NULL), so
 *     the direct path: recursion check, validate_xmit_skb (netif_skb_features,
 *     validate_xmit_xfrm), HARD_TX_LOCK (nothing for LLTX), dev_hard_start_xmit →
 *     xmit_one → netdev_start_xmit → ops->ndo_start_xmit (an indirect call); a device
 *     not up, a dead loop (own queue, depth above 8), a stopped queue or NETDEV_TX_BUSY
 *     take the drop tail instead (-ENETDOWN, core_stats tx_dropped, kfree_skb_list)
 *     rcu_read_unlock_bh → local_bh_enable (which runs the softirqs raised meanwhile:
 *     the loopback's NET_RX)
 *   netdev_core_pick_tx: skb->sender_cpu, queue 0, &dev->_tx[0]
 *   validate_xmit_skb → netif_skb_features (→ skb_network_protocol), the vlan, socket,
 *     gso, linearize and checksum tests, validate_xmit_xfrm (no sec_path)
 *
 * Instruction counts: the census of the Debian 6.1.176 binary along seed 002's path
 * (doc/census/xmit.md), as body instructions: each function's total less its prologue,
 * epilogue and return, which the machine charges per call (each NS_FUNC's frame). Seed
 * 000's v6.9 loopback path runs the same code without the egress hook; its counts are
 * taken to be the same. The helpers named in each comment are inline there. */
#include "config.h"
#include "netdevice.h"
#include "skbuff.h"
#include "sched/pkt_cls.h"

/* CONFIG_NR_CPUS of the Debian config the census binary was built with. */
#define DEV_NR_CPUS 8192u
/* XMIT_RECURSION_LIMIT (include/linux/netdevice.h): dev_xmit_recursion's bound */
#define XMIT_RECURSION_LIMIT 8
/* NET_XMIT_MASK: dev_xmit_complete's bound (NETDEV_TX_BUSY, 0x10, is above it) */
#define NET_XMIT_MASK 0x0f

/* Text sizes: the Debian 6.1.176 binary's (nm -S; doc/census/text-sizes-6.1.176.txt). */
static NS_FUNC (fn___dev_queue_xmit, "__dev_queue_xmit", 3530, 17, NS_FN_EXTERN, 2);
static NS_FUNC (fn_dev_hard_start_xmit, "dev_hard_start_xmit", 457, 15, NS_FN_EXTERN, 3);
static NS_FUNC (fn_netdev_core_pick_tx, "netdev_core_pick_tx", 181, 7, NS_FN_EXTERN, 3);
static NS_FUNC (fn_validate_xmit_skb, "validate_xmit_skb", 793, 13, NS_FN_STATIC, 2);
static NS_FUNC (fn_netif_skb_features, "netif_skb_features", 1404, 13, NS_FN_EXTERN, 4);
static NS_FUNC (fn_skb_network_protocol, "skb_network_protocol", 403, 13, NS_FN_EXTERN, 6);
static NS_FUNC (fn_validate_xmit_xfrm, "validate_xmit_xfrm", 927, 15, NS_FN_EXTERN, 2);
static NS_FUNC (fn_netdev_core_stats_alloc, "netdev_core_stats_alloc", 71, 3, NS_FN_EXTERN, 2);

/* netdev_core_pick_tx: the XPS sender_cpu, queue 0 of a one-queue device. */
struct netdev_queue *
netdev_core_pick_tx (NsThread *t, struct net_device *dev, struct sk_buff *skb)
{
  ns_call (t, &fn_netdev_core_pick_tx);
  /* CONFIG_XPS: skb->sender_cpu (the napi_id union) is set to raw_smp_processor_id() + 1
   * unless sender_cpu - 1 already is a CPU number: unset (0) and a NAPI id (from
   * NR_CPUS + 1 on) both are not */
  NS_LOAD_FIELD (t, skb, napi_id);
  if (skb->napi_id - 1u >= DEV_NR_CPUS) {
    skb->napi_id = ns_thread_cpu (t) + 1;
    NS_STORE_FIELD (t, skb, napi_id);
  }
  NS_LOAD_FIELD (t, dev, real_num_tx_queues);
  skb->queue_mapping = 0;
  NS_STORE_FIELD (t, skb, queue_mapping);
  NS_LOAD_FIELD (t, dev, _tx);
  /* census: 15 instructions (sender_cpu test and store, queue count test, mapping,
   * &dev->_tx[0]) */
  ns_insns (t, 15);
  ns_ret (t);
  return &dev->_tx[0];
}

/* netif_skb_features: dev->features narrowed by gso, encapsulation, vlan and the
 * default features check, then harmonize_features (skb_network_protocol). */
static guint64
netif_skb_features (NsThread *t, struct sk_buff *skb)
{
  struct net_device *dev = skb->dev;
  guint64 features;

  ns_call (t, &fn_netif_skb_features);
  NS_LOAD_FIELD (t, skb, dev);
  NS_LOAD_FIELD (t, dev, features);
  features = dev->features;
  NS_LOAD_FIELD (t, skb_shinfo (skb), gso_size);
  NS_LOAD_FIELD (t, skb, header_bits);       /* encapsulation */
  NS_LOAD_FIELD (t, skb, vlan_all);
  NS_LOAD_FIELD (t, dev, netdev_ops);
  ns_load (t, &dev->netdev_ops->ndo_features_check, sizeof (gpointer));
  NS_LOAD_FIELD (t, skb, protocol);          /* dflt_features_check: vlan test */
  /* census: 35 instructions (stack protector, gso, encapsulation and vlan tests,
   * ndo_features_check test, the call's arguments) */
  ns_insns (t, 35);
  /* harmonize_features: skb_network_protocol, net_mpls_features, csum test */
  ns_call (t, &fn_skb_network_protocol);
  NS_LOAD_FIELD (t, skb, protocol);
  /* census: 27 instructions (stack protector, ETH_P_TEB test, mac_len, the vlan
   * tests, the headlen test) */
  ns_insns (t, 27);
  ns_ret (t);
  NS_LOAD_FIELD (t, skb, ip_summed);
  /* census: 5 instructions (mpls test, the ip_summed test; no highmem on x86-64) */
  ns_insns (t, 5);
  ns_ret (t);
  return features;
}

/* validate_xmit_xfrm: xfrm_offload(skb) — no sec_path extension: return skb. */
static void
validate_xmit_xfrm (NsThread *t, struct sk_buff *skb)
{
  ns_call (t, &fn_validate_xmit_xfrm);
  NS_LOAD_FIELD (t, skb, active_extensions);
  /* census: 5 instructions (the sec_path extension bit test, return) */
  ns_insns (t, 5);
  ns_ret (t);
}

/* validate_xmit_skb: features, vlan, socket validation, gso/linearize/csum, xfrm. */
struct sk_buff *
validate_xmit_skb (NsThread *t, struct sk_buff *skb, struct net_device *dev)
{
  ns_call (t, &fn_validate_xmit_skb);
  netif_skb_features (t, skb);
  NS_LOAD_FIELD (t, skb, vlan_all);          /* validate_xmit_vlan */
  NS_LOAD_FIELD (t, skb, sk);                /* sk_validate_xmit_skb */
  NS_LOAD_FIELD (t, skb_shinfo (skb), gso_size);   /* netif_needs_gso */
  NS_LOAD_FIELD (t, skb, data_len);          /* skb_needs_linearize */
  NS_LOAD_FIELD (t, skb, ip_summed);         /* CHECKSUM_PARTIAL? */
  /* census: 29 instructions (arguments, the five tests above and their branches, the
   * tail jmp's arguments) */
  ns_insns (t, 29);
  ns_tail_next (t);
  validate_xmit_xfrm (t, skb);
  ns_ret (t);
  return skb;
}

/* netdev_start_xmit: softnet_data.xmit.more, ops->ndo_start_xmit (indirect call: its
 * target is dev->netdev_ops->ndo_start_xmit), txq_trans_update. */
int
netdev_start_xmit (NsThread *t, const NetDevCore *core, struct sk_buff *skb,
                   struct net_device *dev, struct netdev_queue *txq, gboolean more)
{
  const struct net_device_ops *ops;
  struct netdev_xmit *x = core->xmit (core->owner, t);
  int rc;

  NS_LOAD_FIELD (t, dev, netdev_ops);
  ops = dev->netdev_ops;
  x->more = more;
  ns_store (t, &x->more, 1);
  ns_load (t, &ops->ndo_start_xmit, sizeof ops->ndo_start_xmit);
  /* census: 8 instructions (len, the trace NOP, xmit.more, ops, the call) */
  ns_insns (t, 8);
  ns_icall (t, ops->ndo_start_xmit);
  rc = ops->start_xmit_impl (t, core->owner, skb, dev);
  ns_ret (t);
  /* txq_trans_update: LLTX queues keep xmit_lock_owner -1, so no trans_start write */
  NS_LOAD_FIELD (t, txq, xmit_lock_owner);
  /* census: 5 instructions (rc test, owner test) */
  ns_insns (t, 5);
  if (rc == 0 && txq->xmit_lock_owner != -1) {
    txq->trans_start = (gulong) *core->jiffies;
    NS_STORE_FIELD (t, txq, trans_start);
  }
  return rc;
}

/* dev_hard_start_xmit with xmit_one folded in: the skb list of one, taps, the driver. */
static int
dev_hard_start_xmit (NsThread *t, const NetDevCore *core, struct sk_buff *skb,
                     struct net_device *dev, struct netdev_queue *txq)
{
  int rc;

  ns_call (t, &fn_dev_hard_start_xmit);
  NS_LOAD_FIELD (t, skb, next);
  skb->next = NULL;
  NS_STORE_FIELD (t, skb, next);
  /* xmit_one: dev_nit_active — the global ptype_all and dev->ptype_all lists empty */
  ns_load (t, core->ptype_all, sizeof (gpointer) * 2);
  NS_LOAD_FIELD (t, dev, ptype_all);
  NS_LOAD_FIELD (t, skb, len);
  /* census: 22 instructions of set-up and the loop's top (next, more, the two
   * ptype_all tests) */
  ns_insns (t, 22);
  rc = netdev_start_xmit (t, core, skb, dev, txq, FALSE);
  NS_LOAD_FIELD (t, txq, state);             /* netif_tx_queue_stopped */
  /* census (xmit.md): 64 less P/E 17 = 47 with netdev_start_xmit's 8 + 5 and the 22
   * above, so 12 here (the trace NOP, completion and stopped tests, the loop's exit, *ret;
   * until 2026-12-01 11, one short) */
  ns_insns (t, 12);
  ns_ret (t);
  return rc;
}

/* dev_xmit_complete: the driver took the skb (rc below NET_XMIT_MASK: NETDEV_TX_OK, a
 * NET_XMIT_* verdict or an errno); NETDEV_TX_BUSY gives it back. */
static gboolean
dev_xmit_complete (int rc)
{
  return rc < NET_XMIT_MASK;
}

/* The no-qdisc branch of __dev_queue_xmit (LLTX: no TX lock). TRUE when the driver took
 * the skb (*rc its verdict); FALSE when the kernel drops it: the device is down, the CPU
 * already holds the queue or is more than XMIT_RECURSION_LIMIT deep ("Dead loop on
 * virtual device"), the queue is stopped or the driver answered NETDEV_TX_BUSY ("Virtual
 * device asks to queue packet"; the ratelimited messages are not charged). */
static gboolean
dev_queue_xmit_noqueue (NsThread *t, const NetDevCore *core, struct sk_buff *skb,
                        struct net_device *dev, struct netdev_queue *txq, int *rc)
{
  struct netdev_xmit *x = core->xmit (core->owner, t);

  NS_LOAD_FIELD (t, dev, flags);
  NS_LOAD_FIELD (t, txq, xmit_lock_owner);
  ns_load (t, &x->recursion, sizeof x->recursion);
  /* census: 12 instructions (IFF_UP, smp_processor_id, owner and recursion tests, the
   * call's arguments) */
  ns_insns (t, 12);
  if (!(dev->flags & IFF_UP))
    return FALSE;
  if (txq->xmit_lock_owner == (gint32) ns_thread_cpu (t) ||
      x->recursion > XMIT_RECURSION_LIMIT)
    return FALSE;                            /* recursion_alert */
  skb = validate_xmit_skb (t, skb, dev);
  NS_LOAD_FIELD (t, dev, features);          /* HARD_TX_LOCK: LLTX, no lock */
  NS_LOAD_FIELD (t, txq, state);             /* netif_xmit_stopped */
  if (txq->state & QUEUE_STATE_ANY_XOFF)
    return FALSE;
  x->recursion++;
  ns_store (t, &x->recursion, sizeof x->recursion);
  /* census: 15 instructions (skb test, LLTX and stopped tests, is_list, arguments,
   * the recursion increment) */
  ns_insns (t, 15);
  *rc = dev_hard_start_xmit (t, core, skb, dev, txq);
  x->recursion--;
  ns_store (t, &x->recursion, sizeof x->recursion);
  /* census: 8 instructions (the decrement, rc, HARD_TX_UNLOCK's LLTX test, the
   * returned skb's test) */
  ns_insns (t, 8);
  return dev_xmit_complete (*rc);
}

/* dev_core_stats: this CPU's net_device_core_stats of dev, which netdev_core_stats_alloc
 * allocates at the first use (one line a CPU), so runs that never drop keep their arena
 * layout. */
static struct net_device_core_stats *
dev_core_stats (NsThread *t, const NetDevCore *core, struct net_device *dev)
{
  NS_LOAD_FIELD (t, dev, core_stats);
  if (dev->core_stats == NULL) {
    ns_call (t, &fn_netdev_core_stats_alloc);
    dev->core_stats = ns_arena_alloc (core->arena,
                                      core->n_cpus * sizeof (struct net_device_core_stats),
                                      64);
    NS_STORE_FIELD (t, dev, core_stats);
    ns_insns (t, 30);                        /* estimate: alloc_percpu_gfp, the cmpxchg */
    ns_ret (t);
  }
  ns_insns (t, 4);                           /* estimate: the pointer test, this_cpu_inc */
  return &dev->core_stats[ns_thread_cpu (t)];
}

/* dev_core_stats_tx_dropped_inc: this CPU's tx_dropped. */
static void
dev_core_stats_tx_dropped_inc (NsThread *t, const NetDevCore *core, struct net_device *dev)
{
  struct net_device_core_stats *p = dev_core_stats (t, core, dev);

  p->tx_dropped++;
  NS_STORE_FIELD (t, p, tx_dropped);
}

/* dev_core_stats_rx_dropped_inc: this CPU's rx_dropped (see netdevice.h). */
void
dev_core_stats_rx_dropped_inc (NsThread *t, const NetDevCore *core, struct net_device *dev)
{
  struct net_device_core_stats *p;

  g_return_if_fail (t != NULL && core != NULL && dev != NULL);
  p = dev_core_stats (t, core, dev);
  p->rx_dropped++;
  NS_STORE_FIELD (t, p, rx_dropped);
}

/* __dev_queue_xmit(skb, NULL). */
static int
__dev_queue_xmit (NsThread *t, const NetDevCore *core, struct sk_buff *skb)
{
  struct net_device *dev = skb->dev;
  struct netdev_queue *txq;
  int rc = 0;                                /* NET_XMIT_SUCCESS */

  ns_call (t, &fn___dev_queue_xmit);
  NS_LOAD_FIELD (t, skb, dev);
  /* skb_reset_mac_header; shinfo->tx_flags & SKBTX_SCHED_TSTAMP */
  NS_LOAD_FIELD (t, skb, data);
  NS_LOAD_FIELD (t, skb, head);
  skb_reset_mac_header (skb);
  NS_STORE_FIELD (t, skb, mac_header);
  NS_LOAD_FIELD (t, skb, end);
  NS_LOAD_FIELD (t, skb_shinfo (skb), tx_flags);
  /* census: 15 instructions (stack protector, rc and again, mac header, tstamp test) */
  ns_insns (t, 15);
  local_bh_disable (t, core->softirq);
  /* skb_update_prio: skb->priority, dev->priomap */
  NS_LOAD_FIELD (t, skb, priority);
  NS_LOAD_FIELD (t, dev, priomap);
  /* qdisc_pkt_len_init: cb pkt_len = len; gso test; skb->tc_at_ingress = 0 */
  NS_LOAD_FIELD (t, skb, len);
  *(guint32 *) skb->cb = skb->len;
  ns_store (t, skb->cb, sizeof (guint32));
  skb->header_bits[0] &= ~TC_SKB_AT_INGRESS;
  NS_STORE_FIELD (t, skb, header_bits);
  /* census: 16 instructions (priomap test, pkt_len, gso test, tc_at_ingress, the
   * egress_needed_key static branch) */
  ns_insns (t, 16);
  if (*core->egress_needed_key) {
    /* census: 11 instructions around sch_handle_egress (nf_hooks_egress NOP,
     * skip_txqueue, nf_skip_egress set and cleared, the skb and txqueue_skipped tests) */
    ns_insns (t, 11);
    skb = core->egress (t, core->owner, skb, &rc, dev);
    if (skb == NULL)
      goto out;
    ns_load (t, &core->xmit (core->owner, t)->skip_txqueue, 1);
  }
  /* IFF_XMIT_DST_RELEASE: skb_dst_drop */
  NS_LOAD_FIELD (t, dev, priv_flags);
  NS_LOAD_FIELD (t, skb, _skb_refdst);
  /* census: 9 instructions (dst release test, the call's arguments) */
  ns_insns (t, 9);
  txq = netdev_core_pick_tx (t, dev, skb);
  NS_LOAD_FIELD (t, txq, qdisc);
  ns_load (t, &txq->qdisc->enqueue, sizeof txq->qdisc->enqueue);
  /* census: 6 instructions (qdisc, trace NOP, enqueue test) */
  ns_insns (t, 6);
  if (txq->qdisc->enqueue != NULL)
    goto out;                                /* __dev_xmit_skb: no modelled device */
  if (!dev_queue_xmit_noqueue (t, core, skb, dev, txq, &rc))
    goto drop;
out:
  /* census: 3 instructions (the call's arguments) */
  ns_insns (t, 3);
  __local_bh_enable_ip (t, core->softirq);   /* rcu_read_unlock_bh */
  /* census: 4 instructions (rc, stack protector check) */
  ns_insns (t, 4);
  ns_ret (t);
  return rc;

drop:
  rc = -ENETDOWN;
  __local_bh_enable_ip (t, core->softirq);   /* rcu_read_unlock_bh */
  dev_core_stats_tx_dropped_inc (t, core, dev);
  kfree_skb (t, core->alloc, skb);           /* kfree_skb_list of one */
  ns_insns (t, 6);                           /* estimate: rc, the arguments */
  ns_ret (t);
  return rc;
}

/* dev_queue_xmit: the inline wrapper around __dev_queue_xmit(skb, NULL). */
int
dev_queue_xmit (NsThread *t, const NetDevCore *core, struct sk_buff *skb)
{
  g_return_val_if_fail (core != NULL && skb != NULL, 1);
  return __dev_queue_xmit (t, core, skb);
}
