/* sch_ingress.c — net/sched/sch_ingress.c: the clsact qdisc. Attaching it gives the device
 * an ingress and an egress tcf_block (chain 0 of a block comes with its first filter:
 * tc_new_tfilter's tcf_chain_get(block, 0, true)), and the mini_Qdiscs the hot
 * paths read (dev->miniq_ingress, dev->miniq_egress: filter_list = chain 0's first
 * filter, the qdisc's per-CPU bstats/qstats; published only while chain 0 has a filter,
 * as mini_qdisc_pair_swap does), and turns on the ingress_needed_key and
 * egress_needed_key static keys (net_inc_ingress_queue / net_inc_egress_queue); and
 * tc_new_tfilter for a matchall filter with one gact on a clsact block. Control path
 * only: no simulated cost. */
#include "config.h"
#include "sched-priv.h"
#include "netdev.h"

/* A block as the model needs it: its chain 0 (the mini_Qdisc's block pointer), NULL until
 * the block's first filter. */
struct tc_block_ns {
  struct tcf_chain *chain0;
  guint32           index;
};

/* The kmalloc request of tcf_block_create: v6.1's struct tcf_block holds proto_destroy_ht,
 * DECLARE_HASHTABLE(…, 7), 128 hlist_heads = 1 KiB, besides its lists, locks and counters,
 * so it is over 1 KiB and sits in kmalloc-2k (only the class matters for placement). */
#define TCF_BLOCK_KMALLOC_BYTES 2048

/* struct clsact_sched_data as the model keeps it (host side): one mini_Qdisc of each
 * direction's mini_qdisc_pair (the model does not alternate the pair's two). */
typedef struct {
  struct mini_Qdisc *miniq_ingress;
  struct mini_Qdisc *miniq_egress;
} ClsactData;

/* One direction: block, chain 0 and the mini_Qdisc, whose per-CPU stats are the qdisc's
 * (mini_qdisc_pair_init points both directions' at sch->cpu_bstats / cpu_qstats). */
static struct mini_Qdisc *
clsact_direction (NetTx *tx, guint32 index, gpointer cpu_bstats, guint32 *cpu_qstats)
{
  struct mini_Qdisc *miniq = tc_kzalloc (tx->tc, sizeof *miniq);
  struct tc_block_ns *block = tc_kzalloc (tx->tc, TCF_BLOCK_KMALLOC_BYTES);

  G_STATIC_ASSERT (sizeof (struct tc_block_ns) <= TCF_BLOCK_KMALLOC_BYTES);
  block->index = index;
  miniq->block = block;
  miniq->cpu_bstats = cpu_bstats;
  miniq->cpu_qstats = cpu_qstats;
  return miniq;
}

/* clsact_init: the qdisc's per-CPU stats, both directions, both static keys; nothing
 * published yet (mini_qdisc_pair_init only records &dev->miniq_*). */
void
clsact_attach (NetTx *tx, struct net_device *dev)
{
  ClsactData *q;
  gpointer bstats;
  guint32 *qstats;

  g_return_if_fail (tx != NULL && dev != NULL);
  g_return_if_fail (!g_hash_table_contains (tx->clsact, dev));
  bstats = tc_alloc_percpu (tx->tc, sizeof (struct gnet_stats_basic_sync), 16);
  qstats = tc_alloc_percpu (tx->tc, GNET_QSTATS_WORDS * sizeof (guint32), 4);
  q = g_new0 (ClsactData, 1);
  q->miniq_ingress = clsact_direction (tx, 1, bstats, qstats);
  q->miniq_egress = clsact_direction (tx, 2, bstats, qstats);
  g_hash_table_insert (tx->clsact, dev, q);
  tx->ingress_needed_key = TRUE;
  tx->egress_needed_key = TRUE;
}

/* This device's clsact data (NULL without clsact). */
static ClsactData *
clsact_data (NetTx *tx, struct net_device *dev)
{
  return g_hash_table_lookup (tx->clsact, dev);
}

/* Chain 0 of the ingress or egress block, created at the first call (tc_new_tfilter's
 * tcf_chain_get(block, 0, true) as the block's first filter is added). */
struct tcf_chain *
clsact_chain (NetTx *tx, struct net_device *dev, gboolean egress)
{
  struct tc_block_ns *block;
  ClsactData *q;

  g_return_val_if_fail (tx != NULL && dev != NULL, NULL);
  q = clsact_data (tx, dev);
  g_return_val_if_fail (q != NULL, NULL);
  block = (egress ? q->miniq_egress : q->miniq_ingress)->block;
  if (block->chain0 == NULL) {
    block->chain0 = tcf_chain_create (tx->tc, 0);
    block->chain0->block = block;
  }
  return block->chain0;
}

/* mini_qdisc_pair_swap(miniqp, tp_head) of one direction: NULL without a head, else the
 * mini_Qdisc with the new head. */
static struct mini_Qdisc *
mini_qdisc_pair_swap (struct mini_Qdisc *miniq)
{
  struct tcf_chain *chain0 = ((struct tc_block_ns *) miniq->block)->chain0;
  struct tcf_proto *head = chain0 != NULL ? chain0->filter_chain : NULL;

  miniq->filter_list = head;
  return head != NULL ? miniq : NULL;
}

/* tcf_chain0_head_change of both directions: the hot paths see the new first filters. */
void
clsact_sync (NetTx *tx, struct net_device *dev)
{
  ClsactData *q;

  g_return_if_fail (tx != NULL && dev != NULL);
  q = clsact_data (tx, dev);
  g_return_if_fail (q != NULL);
  dev->miniq_ingress = mini_qdisc_pair_swap (q->miniq_ingress);
  dev->miniq_egress = mini_qdisc_pair_swap (q->miniq_egress);
}

/* tc_new_tfilter (net/sched/cls_api.c) of `tc filter add dev DEV egress|ingress
 * [protocol P] matchall action gact VERDICT`: an automatic priority (the new filter runs
 * first), its objects from the slabs of the CPU tc_env_set_alloc_cpu names, in v6.1's
 * order: chain 0 with the block's first filter (tcf_chain_get), tcf_proto_create,
 * mall_change's head, action array and hit counters, then (mall_set_parms →
 * tcf_action_init) the gact; tcf_chain0_head_change publishes the new head. */
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
