/* sch_ingress.c — net/sched/sch_ingress.c: the clsact qdisc. Attaching it gives the device
 * an ingress and an egress tcf_block (chain 0 of a block comes with its first filter:
 * tc_new_tfilter's tcf_chain_get(block, 0, true)), and the mini_Qdiscs the hot
 * paths read (filter_list = chain 0's first filter, the qdisc's per-CPU bstats/qstats;
 * a pair per direction inside the qdisc's own kmalloc-1k allocation, the two alternating
 * at each head change and published only while chain 0 has a filter, as
 * mini_qdisc_pair_swap does: in v6.1's dev->miniq_ingress / miniq_egress, from v6.6 in
 * the miniq of a tcx_entry the device's tcx_ingress / tcx_egress hold), and turns on
 * the ingress_needed_key and egress_needed_key static keys (net_inc_ingress_queue /
 * net_inc_egress_queue); and tc_new_tfilter for a matchall filter with one gact on a
 * clsact block. Control path only: no simulated cost. */
#include "config.h"
#include "sched-priv.h"
#include "netdev.h"
#include "tcx.h"

/* The kmalloc request of tcf_block_create: v6.1's struct tcf_block holds proto_destroy_ht,
 * DECLARE_HASHTABLE(…, 7), 128 hlist_heads = 1 KiB, besides its lists, locks and counters,
 * so it is over 1 KiB and sits in kmalloc-2k (only the class matters for placement). */
#define TCF_BLOCK_KMALLOC_BYTES 2048

/* struct mini_Qdisc_pair (include/net/sch_generic.h), 88 bytes: the two mini_Qdiscs that
 * mini_qdisc_pair_swap alternates between, and where the live one is published. */
struct mini_Qdisc_pair {
  struct mini_Qdisc   miniq1;             /*  0 */
  struct mini_Qdisc   miniq2;             /* 40 */
  struct mini_Qdisc **p_miniq;            /* 80: &dev->miniq_ingress or _egress */
};

/* struct clsact_sched_data (v6.1), the qdisc's private data, 256 bytes. */
struct clsact_sched_data {
  struct tc_block_ns    *ingress_block;   /*   0 */
  struct tc_block_ns    *egress_block;    /*   8 */
  guint8                 ingress_block_info[32];  /* 16: struct tcf_block_ext_info */
  guint8                 egress_block_info[32];   /* 48 */
  struct mini_Qdisc_pair miniqp_ingress;  /*  80 */
  struct mini_Qdisc_pair miniqp_egress;   /* 168 */
};

/* qdisc_alloc's kzalloc_node(sizeof(struct Qdisc) + ops->priv_size): struct Qdisc is 384
 * bytes on x86-64 v6.1 (its gso_skb and busylock ____cacheline_aligned_in_smp, and
 * privdata[] ____cacheline_aligned at 384; Eric Dumazet's pahole of struct Qdisc in his
 * 2025-11-10 netdev patch "Qdisc_read_mostly" agrees up to bstats), so a clsact qdisc is
 * 640 bytes in kmalloc-1k, the egress pair's mini_Qdiscs at 552 and 592. The model reads
 * only the private data. */
#define QDISC_BYTES 384
G_STATIC_ASSERT (sizeof (struct mini_Qdisc_pair) == 88);
G_STATIC_ASSERT (sizeof (struct clsact_sched_data) == 256);
G_STATIC_ASSERT (G_STRUCT_OFFSET (struct clsact_sched_data, miniqp_egress) == 168);

/* mini_qdisc_pair_init + mini_qdisc_pair_block_init of one direction: both mini_Qdiscs
 * on the qdisc's per-CPU stats and the block, published nowhere yet. */
static void
mini_qdisc_pair_init (struct mini_Qdisc_pair *miniqp, struct mini_Qdisc **p_miniq,
                      struct tc_block_ns *block, gpointer cpu_bstats, guint32 *cpu_qstats)
{
  struct mini_Qdisc *pair[] = { &miniqp->miniq1, &miniqp->miniq2 };

  for (guint i = 0; i < G_N_ELEMENTS (pair); i++) {
    pair[i]->cpu_bstats = cpu_bstats;
    pair[i]->cpu_qstats = cpu_qstats;
    pair[i]->block = block;
  }
  miniqp->p_miniq = p_miniq;
}

/* tcf_block_get_ext's block: a kmalloc-2k object with its index. */
static struct tc_block_ns *
tcf_block_create (NetTx *tx, guint32 index)
{
  struct tc_block_ns *block = tc_kzalloc (tx->tc, TCF_BLOCK_KMALLOC_BYTES);

  G_STATIC_ASSERT (sizeof (struct tc_block_ns) <= TCF_BLOCK_KMALLOC_BYTES);
  block->index = index;
  return block;
}

/* tcx_entry_fetch_or_create + tcx_entry_update of one direction (v6.6+): a zeroed
 * tcx_entry (kmalloc-2k) whose bundle's entries point back at its bundle, its entry a
 * published in the device's slot; returns where clsact publishes the mini_Qdisc. */
static struct mini_Qdisc **
tcx_entry_attach (NetTx *tx, struct bpf_mprog_entry **slot)
{
  struct tcx_entry *tcx = tc_kzalloc (tx->tc, sizeof *tcx);

  tcx->bundle.a.parent = tcx->bundle.b.parent = &tcx->bundle;
  tcx->miniq_active = 1;
  *slot = &tcx->bundle.a;
  return &tcx->miniq;
}

/* Where clsact publishes one direction's mini_Qdisc: v6.1's dev->miniq_*, or from v6.6 a
 * new tcx_entry's miniq (allocated here, before the direction's block, as clsact_init
 * does). */
static struct mini_Qdisc **
clsact_miniq_slot (NetTx *tx, struct net_device *dev, gboolean egress)
{
  if (!tx->tc->tcx)
    return egress ? &dev->miniq_egress : &dev->miniq_ingress;
  return tcx_entry_attach (tx, egress ? &dev->tcx_egress : &dev->tcx_ingress);
}

/* qdisc_alloc then clsact_init: the qdisc (kmalloc-1k) with its per-CPU stats, both
 * directions' blocks and mini_Qdisc pairs (from v6.6 each after its tcx_entry), both
 * static keys; no mini_Qdisc published yet (mini_qdisc_pair_init only records where). */
void
clsact_attach (NetTx *tx, struct net_device *dev)
{
  struct clsact_sched_data *q;
  struct mini_Qdisc **slot;
  guint8 *sch;
  gpointer bstats;
  guint32 *qstats;

  g_return_if_fail (tx != NULL && dev != NULL);
  g_return_if_fail (!g_hash_table_contains (tx->clsact, dev));
  sch = tc_kzalloc (tx->tc, QDISC_BYTES + sizeof *q);
  q = (struct clsact_sched_data *) (sch + QDISC_BYTES);
  bstats = tc_alloc_percpu (tx->tc, sizeof (struct gnet_stats_basic_sync), 16);
  qstats = tc_alloc_percpu (tx->tc, GNET_QSTATS_WORDS * sizeof (guint32), 4);
  slot = clsact_miniq_slot (tx, dev, FALSE);
  q->ingress_block = tcf_block_create (tx, 1);
  mini_qdisc_pair_init (&q->miniqp_ingress, slot, q->ingress_block, bstats, qstats);
  slot = clsact_miniq_slot (tx, dev, TRUE);
  q->egress_block = tcf_block_create (tx, 2);
  mini_qdisc_pair_init (&q->miniqp_egress, slot, q->egress_block, bstats, qstats);
  g_hash_table_insert (tx->clsact, dev, q);
  tx->ingress_needed_key = TRUE;
  tx->egress_needed_key = TRUE;
}

/* This device's clsact data (NULL without clsact). */
static struct clsact_sched_data *
clsact_data (NetTx *tx, struct net_device *dev)
{
  return g_hash_table_lookup (tx->clsact, dev);
}

/* Chain 0 of the ingress or egress block, created at the first call (tc_new_tfilter's
 * tcf_chain_get(block, 0, true) as the block's first filter is added). */
struct tcf_chain *
clsact_chain (NetTx *tx, struct net_device *dev, gboolean egress)
{
  struct clsact_sched_data *q;
  struct tc_block_ns *block;

  g_return_val_if_fail (tx != NULL && dev != NULL, NULL);
  q = clsact_data (tx, dev);
  g_return_val_if_fail (q != NULL, NULL);
  block = egress ? q->egress_block : q->ingress_block;
  if (block->chain0 == NULL) {
    block->chain0 = tcf_chain_create (tx->tc, 0);
    block->chain0->block = block;
  }
  return block->chain0;
}

/* mini_qdisc_pair_swap(miniqp, tp_head): none published without a head; else the
 * mini_Qdisc of the pair not published now (miniq1 after none) takes the head and is
 * published. */
static void
mini_qdisc_pair_swap (struct mini_Qdisc_pair *miniqp, struct tcf_proto *tp_head)
{
  struct mini_Qdisc *miniq_old = *miniqp->p_miniq, *miniq;

  if (tp_head == NULL) {
    *miniqp->p_miniq = NULL;
    return;
  }
  miniq = miniq_old != &miniqp->miniq1 ? &miniqp->miniq1 : &miniqp->miniq2;
  miniq->filter_list = tp_head;
  *miniqp->p_miniq = miniq;
}

/* tcf_chain0_head_change of one direction whose chain 0 has a new first filter (or none);
 * a direction whose head is what its live mini_Qdisc holds has no change to publish. */
static void
clsact_head_change (struct mini_Qdisc_pair *miniqp, struct tc_block_ns *block)
{
  struct tcf_proto *head = block->chain0 != NULL ? block->chain0->filter_chain : NULL;
  struct mini_Qdisc *live = *miniqp->p_miniq;

  if ((live != NULL ? live->filter_list : NULL) != head)
    mini_qdisc_pair_swap (miniqp, head);
}

/* See netdev.h: each direction's head change, if it has one. */
void
clsact_sync (NetTx *tx, struct net_device *dev)
{
  struct clsact_sched_data *q;

  g_return_if_fail (tx != NULL && dev != NULL);
  q = clsact_data (tx, dev);
  g_return_if_fail (q != NULL);
  clsact_head_change (&q->miniqp_ingress, q->ingress_block);
  clsact_head_change (&q->miniqp_egress, q->egress_block);
}

/* tc_new_tfilter (net/sched/cls_api.c) of `tc filter add dev DEV egress|ingress
 * [protocol P] matchall action gact VERDICT`: an automatic priority (the new filter runs
 * first), its objects from the slabs of the CPU tc_env_set_alloc_cpu names, in v6.1's
 * order: chain 0 with the block's first filter (tcf_chain_get), tcf_proto_create,
 * mall_change's head, action array and hit counters, then (mall_set_parms →
 * tcf_action_init) the gact. The kernel publishes the new head as tcf_chain_tp_insert
 * links the filter, before mall_change (control path: the order leaves the objects as
 * they are); here clsact_sync does, last. Each add is a head change (the new filter runs
 * first), so the pair's mini_Qdiscs alternate: after an odd number of filters miniq1 is
 * live, after an even number miniq2. */
struct tcf_proto *
tc_new_tfilter_matchall (NetTx *tx, struct net_device *dev, gboolean egress,
                         guint16 protocol, gint32 verdict)
{
  struct cls_mall_head *head;
  struct tcf_chain *chain;
  struct tcf_proto *tp;
  struct tc_action *a;

  g_return_val_if_fail (tx != NULL && dev != NULL, NULL);
  chain = clsact_chain (tx, dev, egress);
  g_return_val_if_fail (chain != NULL, NULL);
  tp = tcf_chain_tp_insert (tx->tc, chain, &cls_mall_ops, protocol, 0, NULL);
  head = mall_change_head (tx->tc, tp, 0, 0);
  a = tcf_gact_create (tx->tc, verdict, NULL);
  mall_set_actions (head, &a, 1);
  clsact_sync (tx, dev);
  return tp;
}

/* See netdev.h: tc_new_tfilter's insertion of a new filter at prio, or (-EEXIST: the
 * same protocol holds it) that filter, then ->change (cls_bpf_change); another protocol
 * there is tcf_chain_tp_insert's -EINVAL, another classifier refused here. */
struct tcf_proto *
tc_new_tfilter_bpf (NetTx *tx, struct net_device *dev, gboolean egress, guint16 protocol,
                    guint32 prio, guint32 handle, guint32 ret_k)
{
  struct tcf_chain *chain;
  struct tcf_proto *tp;
  int err;

  g_return_val_if_fail (tx != NULL && dev != NULL && prio >= 1 && prio <= 0xFFFF, NULL);
  chain = clsact_chain (tx, dev, egress);
  g_return_val_if_fail (chain != NULL, NULL);
  tp = tcf_chain_tp_insert (tx->tc, chain, &cls_bpf_ops, protocol, prio, &err);
  if (tp == NULL && err == -EEXIST)
    tp = tcf_chain_tp_get (chain, prio);
  if (tp == NULL || tp->ops != &cls_bpf_ops)
    return NULL;
  cls_bpf_change (tx->tc, tp, handle, ret_k);
  clsact_sync (tx, dev);
  return tp;
}
