/* dev_xmit.c — net/core/dev.c's egress hook, sch_handle_egress: the clsact egress
 * mini_Qdisc's per-CPU stats, tcf_classify over its filters, and the verdict
 * (OK/RECLASSIFY: tc_index; SHOT: drop; STOLEN/QUEUED/TRAP: consume; REDIRECT: not
 * modelled; else go on); v6.1's, and from v6.6 (e420bed02507) the tcx hook's, which
 * reaches the mini_Qdisc through dev->tcx_egress and classifies in tc_run, with
 * v6.11's bpf_net_context around it and v6.14's software-bypass test in it; and the
 * NetTx side of the transmit path of net/core/dev.c, which models/net/dev.c runs for
 * both device paths (netdevice.h: NetDevCore).
 *
 * Instruction counts: the census of the Debian 6.1.176 binary for v6.1's hook, of the
 * 6.12.118 binary for the tcx hook (doc/census/xmit.md): a 6.6-6.13 release runs 6.12's
 * counts less the instructions of the registered changes it lacks. */
#include "config.h"
#include "sched-priv.h"
#include "netdev.h"
#include "tcx.h"
#include "net/netdevice.h"

/* sch_handle_egress: static in net/core/dev.c, inlined into __dev_queue_xmit (its size,
 * an estimate, is never used: doc/census/text-sizes-kept.txt); __always_inline from
 * v6.6. */
static NS_FUNC (fn_sch_handle_egress, "sch_handle_egress", 240, NS_FRAME_UNKNOWN, NS_FN_STATIC, 1);

/* The egress verdicts that take the skb: SHOT frees it (NET_XMIT_DROP in *ret), STOLEN,
 * QUEUED and TRAP consume it (NET_XMIT_SUCCESS); NULL then, else skb. */
static struct sk_buff *
egress_verdict_take (NsThread *t, NetTx *tx, struct sk_buff *skb, int verdict, int *ret)
{
  switch (verdict) {
  case TC_ACT_SHOT:
    *ret = NET_XMIT_DROP;
    kfree_skb (t, tx->alloc, skb);
    return NULL;
  case TC_ACT_STOLEN:
  case TC_ACT_QUEUED:
  case TC_ACT_TRAP:
    *ret = NET_XMIT_SUCCESS;
    consume_skb (t, tx->alloc, skb);
    return NULL;
  default:
    return skb;
  }
}

/* mini_qdisc_bstats_cpu_update: bstats_update(this_cpu_ptr(miniq->cpu_bstats), skb), the
 * instructions in the caller's census. */
static void
mini_qdisc_bstats_cpu_update (NsThread *t, NetTx *tx, struct mini_Qdisc *miniq,
                              struct sk_buff *skb)
{
  struct gnet_stats_basic_sync *b;

  NS_LOAD_FIELD (t, miniq, cpu_bstats);
  b = tc_percpu_ptr (tx->tc, miniq->cpu_bstats, ns_thread_cpu (t));
  ns_load (t, b, sizeof *b);
  b->bytes += skb->len;
  b->packets++;
  ns_store (t, b, sizeof *b);
}

/* sch_handle_egress of v6.1: classify on the egress mini_Qdisc; NULL if tc took the skb. */
static struct sk_buff *
sch_handle_egress (NsThread *t, NetTx *tx, struct sk_buff *skb, int *ret,
                   struct net_device *dev)
{
  struct mini_Qdisc *miniq;
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
  mini_qdisc_bstats_cpu_update (t, tx, miniq, skb);
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
    break;
  default:
    break;
  }
  skb = egress_verdict_take (t, tx, skb, verdict, ret);
out:
  ns_ret (t);
  return skb;
}

/* ---- v6.6+: the tcx hook ---- */

/* tc_run: static in net/core/dev.c from v6.6; 6.12.118 keeps it out of line (nm -S: 281
 * bytes; pushes rbp, r13, r12, rbx and aligns the stack: 13 frame instructions). How a
 * 6.6-6.11 build compiled it is not known: the model calls it on every tcx release. */
static NS_FUNC (fn_tc_run, "tc_run", 281, 13, NS_FN_STATIC, 2);

/* tc_run's software bypass: v6.10's tcf_bypass_check_needed_key (off: a NOP), or from
 * v6.14 tcf_sw_enabled_key and tcf_block_bypass_sw: TRUE when the block runs nothing in
 * software (none of its filters counted in useswcnt), so tc_run returns at once. */
static gboolean
tc_run_bypass_sw (NsThread *t, const TcEnv *env, struct mini_Qdisc *miniq)
{
  struct tc_block_ns *block;

  if (!env->sw_bypass_cnt) {
    ns_insns (t, env->sw_bypass_key ? 1 : 0);
    return FALSE;
  }
  NS_LOAD_FIELD (t, miniq, block);
  block = miniq->block;
  /* census: 8 — the key's jump (a NOP while a software filter exists), the block's load
   * and test, useswcnt's load, the return value, its test and branch */
  ns_insns (t, 8);
  if (block == NULL)
    return FALSE;
  NS_LOAD_FIELD (t, block, useswcnt);
  return block->useswcnt == 0;
}

/* tc_run: classify on the tcx_entry's mini_Qdisc; the verdict (TC_ACT_UNSPEC without a
 * mini_Qdisc or when its block is bypassed). */
static int
tc_run (NsThread *t, NetTx *tx, struct tcx_entry *entry, struct sk_buff *skb)
{
  struct tcf_result *res = &net_tx_pcpu (tx, t)->stack_cl_res;
  struct mini_Qdisc *miniq;
  int verdict = TC_ACT_UNSPEC;

  ns_call (t, &fn_tc_run);
  NS_LOAD_FIELD (t, entry, miniq);
  miniq = entry->miniq;
  /* census: 10 — the stack canary's 3, res zeroed (2 movq), miniq's load, test and
   * branch, skb and drop_reason kept in callee-saved registers (2) */
  ns_insns (t, 10);
  if (miniq == NULL)
    goto out;
  if (tc_run_bypass_sw (t, tx->tc, miniq))
    goto out;
  /* tc_skb_cb mru and post_ct, the drop reason */
  ns_store (t, skb->cb + 28, 10);
  if (tx->tc->drop_reason)
    ns_insns (t, 2);                /* census: *drop_reason's load, tcf_set_drop_reason */
  mini_qdisc_bstats_cpu_update (t, tx, miniq, skb);
  /* census: 19 (the cb stores, pkt_len, gso test, this_cpu_ptr, two adds, the call's
   * arguments) */
  ns_insns (t, 19);
  NS_LOAD_FIELD (t, miniq, filter_list);
  NS_LOAD_FIELD (t, miniq, block);
  verdict = tcf_classify (t, tx->tc, skb, miniq->block, miniq->filter_list, res, FALSE);
  /* census: the "tcf related quirks" switch, 4 instructions to its end */
  ns_insns (t, 4);
  switch (verdict) {
  case TC_ACT_SHOT:
    NS_LOAD_FIELD (t, miniq, cpu_qstats);
    tc_qstats_cpu_drop_inc (t, tx->tc, miniq->cpu_qstats);
    ns_insns (t, 5);                /* census: the drop reason, qstats, incl, jmp */
    break;
  case TC_ACT_OK:
  case TC_ACT_RECLASSIFY:
    skb->tc_index = (guint16) (res->classid & 0xFFFF);
    NS_STORE_FIELD (t, skb, tc_index);
    ns_insns (t, 3);                /* census: classid's load, the store, jmp */
    break;
  default:
    break;
  }
out:
  ns_insns (t, 3);                  /* census: the stack canary's check */
  ns_ret (t);
  return verdict;
}

/* bpf_net_ctx_set (include/linux/filter.h, v6.11): the on-stack context zeroed, and made
 * current's unless the task has one already (NULL then; pktgen's kthread has none). */
static struct tx_bpf_ctx *
bpf_net_ctx_set (NsThread *t, NetTx *tx)
{
  struct tx_bpf_ctx *ctx = &tx->bpf_ctx[ns_thread_cpu (t)];

  ns_store (t, ctx->stack_ctx, sizeof ctx->stack_ctx);
  ns_load (t, &net_tx_pcpu (tx, t)->current_task, sizeof (gpointer));
  NS_LOAD_FIELD (t, ctx, task_bpf_net_context);
  /* census: 12 — the context's address, the REP STOSQ and its 3 set-up instructions,
   * current, the saved pointer's NULL, the test, kern_flags, the store, the saved
   * pointer */
  ns_insns (t, 11);
  ns_rep_string (t, sizeof ctx->stack_ctx);
  if (ctx->task_bpf_net_context != NULL)
    return NULL;
  ctx->task_bpf_net_context = ctx->stack_ctx;
  NS_STORE_FIELD (t, ctx, task_bpf_net_context);
  return ctx;
}

/* bpf_net_ctx_clear: current's context back to none (ctx as bpf_net_ctx_set gave it). */
static void
bpf_net_ctx_clear (NsThread *t, NetTx *tx, struct tx_bpf_ctx *ctx)
{
  /* census: 4 — the saved pointer's test, current, the store */
  ns_insns (t, 4);
  if (ctx == NULL)
    return;
  ns_load (t, &net_tx_pcpu (tx, t)->current_task, sizeof (gpointer));
  ctx->task_bpf_net_context = NULL;
  NS_STORE_FIELD (t, ctx, task_bpf_net_context);
}

/* sch_handle_egress of v6.6+: tc_run on the tcx_entry of dev->tcx_egress (no tcx
 * program: tcx_needed_key stays off, as only BPF attachments turn it on); NULL if tc
 * took the skb. */
static struct sk_buff *
sch_handle_egress_tcx (NsThread *t, NetTx *tx, struct sk_buff *skb, int *ret,
                       struct net_device *dev)
{
  struct tx_bpf_ctx *ctx = NULL;
  struct bpf_mprog_entry *entry;
  int verdict;

  ns_call (t, &fn_sch_handle_egress);
  NS_LOAD_FIELD (t, dev, tcx_egress);
  entry = dev->tcx_egress;
  /* census: 3 — the entry's load, test and branch; from 54a59aed395c one more,
   * drop_reason = SKB_DROP_REASON_TC_EGRESS */
  ns_insns (t, tx->tc->drop_reason ? 4 : 3);
  if (entry == NULL)
    goto out;
  if (tx->bpf_ctx != NULL)
    ctx = bpf_net_ctx_set (t, tx);
  NS_LOAD_FIELD (t, entry, parent);
  /* census: 6 — tcx_needed_key's NOP, tcx_entry(entry), the arguments, the call */
  ns_insns (t, 6);
  verdict = tc_run (t, tx, tcx_entry (entry), skb);
  /* census: 8 (the verdict switch's compare tree) */
  ns_insns (t, 8);
  skb = egress_verdict_take (t, tx, skb, verdict, ret);
  if (tx->bpf_ctx != NULL)
    bpf_net_ctx_clear (t, tx, ctx);
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

/* NetDevCore's adapter of sch_handle_egress: the release's hook. */
static struct sk_buff *
tx_egress (NsThread *t, gpointer owner, struct sk_buff *skb, int *ret,
           struct net_device *dev)
{
  NetTx *tx = owner;

  if (tx->tc->tcx)
    return sch_handle_egress_tcx (t, tx, skb, ret, dev);
  return sch_handle_egress (t, tx, skb, ret, dev);
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
