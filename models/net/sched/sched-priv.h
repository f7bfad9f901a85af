/* sched-priv.h — the state of the tc model shared by its files (not for other models). */
#pragma once
#include "pkt_cls.h"

G_BEGIN_DECLS

#define TC_CHAIN_MAX      24
#define TC_PERCPU_STRIDE  (64u << 10)   /* bytes between two CPUs' copies of per-CPU data */
#define TC_SLAB_CHUNK     (32u << 10)   /* one slab region of a kmalloc size class */
#define TC_KMALLOC_CLASSES 13

/* Load sites of the filter walk that see one object per filter (see tc_walk_load). */
typedef enum {
  TC_SITE_TP,          /* tp->protocol / tp->classify (tcf_proto CL0) */
  TC_SITE_HEAD,        /* matchall head CL0 (flags, res, exts) */
  TC_SITE_HEAD_PF,     /* matchall head CL1 (pf) */
  TC_SITE_RHIT,        /* the per-CPU rhit counter */
  TC_SITE_ACTIONS,     /* exts->actions[i] */
  TC_SITE_ACT_CL0,     /* a->ops, tcfa_action, lastuse */
  TC_SITE_ACT_CL1,     /* tcfa_tm.firstuse */
  TC_SITE_ACT_CL2,     /* cpu_bstats */
  TC_SITE_ACT_CL3,     /* tcfa_flags, tcfg_ptype */
  TC_SITE_BSTATS,      /* the per-CPU bstats */
  TC_SITE_N
} TcSite;

/* Stride detector state of one load site on one CPU. */
typedef struct {
  guint64  last;
  gint64   stride;
  guint    confirmed;
} TcStride;

/* One kmalloc size class: objects carved in order from 32 KiB regions, as SLUB lays a
 * cache's objects out consecutively in its slabs. */
typedef struct {
  gsize    size;
  guint8  *chunk;
  gsize    used;
} TcSlab;

struct _TcEnv {
  NsMachine   *machine;
  NsArena     *arena;
  guint        n_cpus;
  /* per-CPU chunk: n_cpus units of TC_PERCPU_STRIDE bytes */
  guint8      *percpu_base;
  gsize        percpu_used;
  TcSlab       slabs[TC_KMALLOC_CLASSES];
  /* the build and boot facts */
  gboolean     thunked;         /* X86_FEATURE_RETPOLINE: spectre_v2=retpoline or lfence */
  gboolean     wrapper;         /* include/net/tc_wrapper.h compiled in */
  gboolean     has_key;         /* this wrapper version has the tc_skip_wrapper key */
  gboolean     skip_wrapper;    /* tc_skip_wrapper enabled by tc_wrapper_init */
  const TcFn  *cls_chain[TC_CHAIN_MAX];
  guint        n_cls;
  const TcFn  *act_chain[TC_CHAIN_MAX];
  guint        n_act;
  guint        max_reclassify;
  /* kernel data in simulated memory */
  struct tc_action_ops *gact_ops;   /* act_gact_ops (static .data in the kernel) */
  guint64     *jiffies;             /* the global jiffies word */
  TcStride    *stride;          /* n_cpus × TC_SITE_N */
  /* counters */
  guint64      n_direct, n_indirect, n_compares;
};

/* The matchall and gact functions (cls_matchall.c, act_gact.c). */
extern const TcFn tc_fn_mall_classify;
extern const TcFn tc_fn_tcf_gact_act;

/* Fills the kernel's act_gact_ops (kind "gact", act = tcf_gact_act). */
void  tc_gact_ops_init (struct tc_action_ops *ops);

/* A load of the filter walk at site: through the L1 stride prefetcher (tc_wrapper.c),
 * then ns_load, or ns_load_dep when dep (a load an indirect call's target waits for). */
void  tc_walk_load (NsThread *t, TcEnv *env, TcSite site, gboolean dep, gconstpointer p,
                    gsize size);

/* kmalloc size class of size (the smallest class holding it). */
gsize tc_kmalloc_class (gsize size);

G_END_DECLS
