/* sch_ingress.c — net/sched/sch_ingress.c: the clsact qdisc. Attaching it gives the device
 * an ingress and an egress tcf_block, each with its chain 0, and the mini_Qdiscs the hot
 * paths read (dev->miniq_ingress, dev->miniq_egress: filter_list = chain 0's first
 * filter, per-CPU bstats/qstats), and turns on the ingress_needed_key and
 * egress_needed_key static keys (net_inc_ingress_queue / net_inc_egress_queue). Control
 * path only: no simulated cost. */
#include "config.h"
#include "sched-priv.h"
#include "netdev.h"

/* A block as the model needs it: its chain 0 (the mini_Qdisc's block pointer). */
struct tc_block_ns {
  struct tcf_chain *chain0;
  guint32           index;
};

/* One direction: block, chain 0 and the mini_Qdisc. */
static struct mini_Qdisc *
clsact_direction (NetTx *tx, guint32 index)
{
  struct mini_Qdisc *miniq = tc_kzalloc (tx->tc, sizeof *miniq);
  struct tc_block_ns *block = tc_kzalloc (tx->tc, sizeof *block);

  block->index = index;
  block->chain0 = tcf_chain_create (tx->tc, 0);
  block->chain0->block = block;
  miniq->block = block;
  miniq->cpu_bstats = tc_alloc_percpu (tx->tc, sizeof (struct gnet_stats_basic_sync), 16);
  miniq->cpu_qstats = tc_alloc_percpu (tx->tc, 5 * sizeof (guint32), 4);
  return miniq;
}

/* clsact_init: both directions, both static keys. */
void
clsact_attach (NetTx *tx, struct net_device *dev)
{
  g_return_if_fail (tx != NULL && dev != NULL);
  dev->miniq_ingress = clsact_direction (tx, 1);
  dev->miniq_egress = clsact_direction (tx, 2);
  tx->ingress_needed_key = TRUE;
  tx->egress_needed_key = TRUE;
}

/* Chain 0 of the ingress or egress block. */
struct tcf_chain *
clsact_chain (struct net_device *dev, gboolean egress)
{
  struct mini_Qdisc *miniq;

  g_return_val_if_fail (dev != NULL, NULL);
  miniq = egress ? dev->miniq_egress : dev->miniq_ingress;
  g_return_val_if_fail (miniq != NULL, NULL);
  return ((struct tc_block_ns *) miniq->block)->chain0;
}

/* tcf_chain0_head_change → mini_qdisc_pair_swap: the hot path sees the new first filter. */
void
clsact_sync (struct net_device *dev)
{
  g_return_if_fail (dev != NULL);
  if (dev->miniq_ingress)
    dev->miniq_ingress->filter_list = clsact_chain (dev, FALSE)->filter_chain;
  if (dev->miniq_egress)
    dev->miniq_egress->filter_list = clsact_chain (dev, TRUE)->filter_chain;
}
