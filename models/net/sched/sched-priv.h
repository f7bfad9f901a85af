/* sched-priv.h — the state of the tc model shared by its files (not for other models). */
#pragma once
#include "pkt_cls.h"
#include "net/slab.h"

G_BEGIN_DECLS

#define TC_CHAIN_MAX      24
#define TC_PERCPU_STRIDE  (64u << 10)   /* bytes between two CPUs' copies of per-CPU data */

struct _TcEnv {
  NsMachine   *machine;
  NsArena     *arena;
  guint        n_cpus;
  /* the per-CPU chunk being filled: n_cpus units of TC_PERCPU_STRIDE bytes */
  guint8      *percpu_base;
  gsize        percpu_used;
  guint        alloc_cpu;       /* the CPU the configuring process runs on */
  /* the build and boot facts */
  gboolean     thunked;         /* X86_FEATURE_RETPOLINE: spectre_v2=retpoline or lfence,
                                 * with eIBRS or without (ns_spectre_v2_thunked) */
  gboolean     wrapper;         /* include/net/tc_wrapper.h compiled in */
  gboolean     has_key;         /* this wrapper version has the tc_skip_wrapper key */
  gboolean     skip_wrapper;    /* tc_skip_wrapper enabled by tc_wrapper_init */
  const TcFn  *cls_chain[TC_CHAIN_MAX];
  guint        n_cls;
  const TcFn  *act_chain[TC_CHAIN_MAX];
  guint        n_act;
  guint        max_reclassify;
  gboolean     tcx;             /* the egress hook through dev->tcx_egress and tc_run (v6.6) */
  gboolean     drop_reason;     /* the hook passes tc_run a drop reason (v6.7) */
  gboolean     sw_bypass_key;   /* tc_run's tcf_bypass_check_needed_key NOP (v6.10) */
  gboolean     bpf_net_ctx;     /* the hook sets current->bpf_net_context (v6.11) */
  gboolean     sw_bypass_cnt;   /* tc_run reads the block's useswcnt (v6.14) */
  /* kernel data in simulated memory */
  struct tc_action_ops *gact_ops;   /* act_gact_ops (static .data in the kernel) */
  guint64     *jiffies;             /* the global jiffies word */
  /* counters */
  guint64      n_direct, n_indirect, n_compares;
};

/* A tcf_block as the model needs it (a kmalloc-2k object): its chain 0 (the mini_Qdisc's
 * block pointer), NULL until the block's first filter; useswcnt where 6.12.118's DWARF
 * has it. */
struct tc_block_ns {
  struct tcf_chain *chain0;
  guint32           index;
  guint8            _pad12[160];
  gint32            useswcnt;   /* 172: its filters that run in software (counted as
                                 * tcf_chain_tp_insert adds them) */
};

/* The matchall, cls_bpf and gact functions (cls_matchall.c, cls_bpf.c, act_gact.c). */
extern const TcFn tc_fn_mall_classify;
extern const TcFn tc_fn_cls_bpf_classify;
extern const TcFn tc_fn_tcf_gact_act;

/* Fills the kernel's act_gact_ops (kind "gact", act = tcf_gact_act). */
void  tc_gact_ops_init (struct tc_action_ops *ops);

/* struct gnet_stats_queue is five u32s (qlen, backlog, drops, requeues, overlimits). */
#define GNET_QSTATS_WORDS  5
#define GNET_QSTATS_DROPS  2

/* qstats_drop_inc of t's CPU's copy of a per-CPU gnet_stats_queue (this_cpu_ptr): a load
 * and a store of its drops word. The caller charges the load of the per-CPU pointer. */
static inline void
tc_qstats_cpu_drop_inc (NsThread *t, TcEnv *env, guint32 *cpu_qstats)
{
  guint32 *q = tc_percpu_ptr (env, cpu_qstats, ns_thread_cpu (t));

  ns_load (t, &q[GNET_QSTATS_DROPS], sizeof q[GNET_QSTATS_DROPS]);
  q[GNET_QSTATS_DROPS]++;
  ns_store (t, &q[GNET_QSTATS_DROPS], sizeof q[GNET_QSTATS_DROPS]);
}

/* kmalloc size class of size (the smallest class holding it). */
gsize tc_kmalloc_class (gsize size);

G_END_DECLS
