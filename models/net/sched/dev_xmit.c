/* dev_xmit.c — net/core/dev.c's egress hook in v6.1, sch_handle_egress: the clsact
 * egress mini_Qdisc's per-CPU stats, tcf_classify over its filters, and the verdict
 * (OK/RECLASSIFY: tc_index; SHOT: drop; STOLEN/QUEUED/TRAP: consume; REDIRECT: not
 * modelled; else go on); and the NetTx side of the transmit path of net/core/dev.c,
 * which models/net/dev.c runs for both device paths (netdevice.h: NetDevCore).
 *
 * Instruction counts: the census of the Debian 6.1.176 binary (doc/census/xmit.md). */
#include "config.h"
#include "sched-priv.h"
#include "netdev.h"
#include "net/netdevice.h"

/* sch_handle_egress: static in net/core/dev.c, inlined into __dev_queue_xmit (its size,
 * an estimate, is never used: doc/census/text-sizes-kept.txt). */
static NS_FUNC (fn_sch_handle_egress, "sch_handle_egress", 240, NS_FRAME_UNKNOWN, NS_FN_STATIC, 1);

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
  /* census: 5 instructions — miniq load and test, cl_res cleared */
  ns_insns (t, 5);
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
  /* census: 20 instructions (tc_skb_cb mru and post_ct, pkt_len, gso test, this_cpu_ptr,
   * two adds, the call's arguments) */
  ns_insns (t, 20);
  NS_LOAD_FIELD (t, miniq, filter_list);
  NS_LOAD_FIELD (t, miniq, block);
  verdict = tcf_classify (t, tx->tc, skb, miniq->block, miniq->filter_list, cl_res, FALSE);
  /* census: 8 instructions (the verdict switch's compare tree) */
  ns_insns (t, 8);
  switch (verdict) {
  case TC_ACT_OK:
  case TC_ACT_RECLASSIFY:
    skb->tc_index = (guint16) (cl_res->classid & 0xFFFF);
    NS_STORE_FIELD (t, skb, tc_index);
    break;
  case TC_ACT_SHOT:
    /* mini_qdisc_qstats_cpu_drop: this_cpu_inc of the qdisc's qstats.drops */
    NS_LOAD_FIELD (t, miniq, cpu_qstats);
    tc_qstats_cpu_drop_inc (t, tx->tc, miniq->cpu_qstats);
    ns_insns (t, 2);                /* estimate: the per-CPU address, the incl */
    *ret = NET_XMIT_DROP;
    kfree_skb (t, tx->alloc, skb);
    skb = NULL;
    break;
  case TC_ACT_STOLEN:
  case TC_ACT_QUEUED:
  case TC_ACT_TRAP:
    *ret = NET_XMIT_SUCCESS;
    consume_skb (t, tx->alloc, skb);
    skb = NULL;
    break;
  default:
    break;
  }
out:
  ns_ret (t);
  return skb;
}

/* ---- NetTx as net/core/dev.c's stack ---- */

/* This CPU's softnet_data.xmit in the tx_pcpu area. */
static struct netdev_xmit *
tx_xmit (gpointer owner, NsThread *t)
{
  return &net_tx_pcpu (owner, t)->xmit;
}

/* NetDevCore's adapter of sch_handle_egress. */
static struct sk_buff *
tx_egress (NsThread *t, gpointer owner, struct sk_buff *skb, int *ret,
           struct net_device *dev)
{
  return sch_handle_egress (t, owner, skb, ret, dev);
}

/* Fills tx->core (see netdev.h). */
void
net_tx_core_init (NetTx *tx)
{
  g_return_if_fail (tx != NULL);
  tx->core = (NetDevCore) {
    .owner = tx, .xmit = tx_xmit, .softirq = &tx->softirq,
    .egress_needed_key = &tx->egress_needed_key, .egress = tx_egress,
    .ptype_all = tx->ptype_all, .jiffies = tx->tc->jiffies,
    .alloc = tx->alloc, .arena = tx->arena, .n_cpus = tx->n_cpus
  };
}
