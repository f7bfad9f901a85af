/* pkt_cls.h — tc classifier and action objects and entry points: the parts of
 * include/uapi/linux/pkt_cls.h (verdicts), include/net/sch_generic.h (struct tcf_proto,
 * struct tcf_result, struct mini_Qdisc), include/net/act_api.h (struct tc_action),
 * include/net/pkt_cls.h (struct tcf_exts, tcf_exts_exec) and include/net/tc_wrapper.h
 * that the clsact + matchall + gact path uses (kernel-spec.md §3).
 *
 * Layouts are those of kernel v6.1 on x86-64 (CONFIG_NET_CLS_ACT=y, CONFIG_GACT_PROB=y, no
 * lock debugging, no refcount tracker), from the field order with natural alignment,
 * checked against the DWARF of Debian's 6.1.176 kernel and its act_gact and cls_matchall
 * modules (gdb `ptype /o`, 2026-12-04: every asserted offset and size agrees; struct
 * tc_action had lacked its 16-byte tcfa_rcu, 208 bytes where the kernel's are 224, which
 * moved tcf_gact's own fields by 16 within the same line); G_STATIC_ASSERTs at the end pin
 * them. Objects live in
 * the machine's arena, allocated as the kernel allocates them (kmalloc-128 for a tcf_proto,
 * kmalloc-192 for a matchall head, kmalloc-256 for the action array and a gact), so the
 * lines a filter walk touches are the kernel's lines.
 *
 * A kernel function pointer (tp->classify, a->ops->act) is modelled as a pointer to a
 * TcFn: the simulated function (its NsFunc: name, text size) plus the C model of its body.
 * tc_classify() and tc_act() (tc_wrapper.c) decide, as the kernel build would, whether a
 * call through one is a direct call after a compare chain or an indirect call. */
#pragma once
#include <glib.h>
#include <gsl/gsl_rng.h>
#include <stddef.h>
#include "machine.h"
#include "net/skbuff.h"

G_BEGIN_DECLS

/* ---- verdicts (uapi pkt_cls.h, kernel-spec §3.1) ---- */
#define TC_ACT_UNSPEC        (-1)
#define TC_ACT_OK            0
#define TC_ACT_RECLASSIFY    1
#define TC_ACT_SHOT          2
#define TC_ACT_PIPE          3
#define TC_ACT_STOLEN        4
#define TC_ACT_QUEUED        5
#define TC_ACT_REPEAT        6
#define TC_ACT_REDIRECT      7
#define TC_ACT_TRAP          8
#define TC_ACT_EXT_SHIFT     28
#define TC_ACT_EXT_VAL_MASK  ((1 << TC_ACT_EXT_SHIFT) - 1)
#define TC_ACT_JUMP          (1 << TC_ACT_EXT_SHIFT)
#define TC_ACT_GOTO_CHAIN    (2 << TC_ACT_EXT_SHIFT)
#define TC_ACT_EXT_CMP(c, o) (((c) & ~TC_ACT_EXT_VAL_MASK) == (o))
#define TCA_ACT_MAX_PRIO     32
#define TCA_ACT_MAX_PRIO_MASK 0x1FF
/* tcf_exts / tc_action flags */
#define TCA_CLS_FLAGS_SKIP_SW  (1 << 1)
#define TCA_ACT_FLAGS_SKIP_SW  (1 << 2)

/* Ethernet protocol numbers as __be16 values sit in memory on x86 (htons). */
#define TC_ETH_P_ALL   GUINT16_TO_BE (0x0003)
#define TC_ETH_P_IP    GUINT16_TO_BE (0x0800)
#define TC_ETH_P_IPV6  GUINT16_TO_BE (0x86DD)

/* Model bits in sk_buff.header_bits[0] (the kernel's tc_at_ingress and tc_skip_classify
 * bits live in the same "headers" flag bytes of CL2, kernel-spec §6.2). */
#define TC_SKB_AT_INGRESS      0x01
#define TC_SKB_SKIP_CLASSIFY   0x02

struct tcf_proto;
struct tcf_chain;
struct tc_action;
struct tcf_result;
typedef struct _TcEnv TcEnv;

/* ---- a kernel function pointer value ---- */

typedef int (*TcClassifyImpl) (NsThread *t, TcEnv *env, struct sk_buff *skb,
                               const struct tcf_proto *tp, struct tcf_result *res);
typedef int (*TcActImpl) (NsThread *t, TcEnv *env, struct sk_buff *skb,
                          const struct tc_action *a, struct tcf_result *res);

typedef struct {
  NsFunc      *func;        /* the simulated kernel function (name, text size) */
  const char  *kconfig;     /* CONFIG_NET_CLS_* / CONFIG_NET_ACT_* that builds it */
  gpointer     impl;        /* TcClassifyImpl or TcActImpl; NULL: never called here */
} TcFn;

/* ---- objects (v6.1 layouts) ---- */

/* struct tcf_result, 16 bytes. */
struct tcf_result {
  union {
    struct {
      gulong   klass;                     /*  0: unsigned long class */
      guint32  classid;                   /*  8 */
    };
    const struct tcf_proto *goto_tp;      /*  0 */
  };
};

/* struct tcf_proto_ops: what the model needs of a classifier's ops. */
struct tcf_proto_ops {
  const char  *kind;
  const TcFn  *classify;
};

/* struct tcf_proto, 104 bytes (kmalloc-128). */
struct tcf_proto {
  struct tcf_proto   *next;               /*   0 CL0 */
  gpointer            root;               /*   8 */
  const TcFn         *classify;           /*  16: int (*classify)(...) */
  guint16             protocol;           /*  24: __be16 */
  guint16             _pad26;
  guint32             prio;               /*  28 */
  gpointer            data;               /*  32 */
  const struct tcf_proto_ops *ops;        /*  40 */
  struct tcf_chain   *chain;              /*  48 */
  guint32             lock;               /*  56: spinlock_t */
  gboolean            deleting;           /*  60 (bool + pad) */
  guint32             refcnt;             /*  64 CL1 */
  guint32             _pad68;
  guint8              rcu[16];            /*  72 */
  guint8              destroy_ht_node[16];/*  88 */
};                                        /* 104 */

/* struct tcf_chain, v6.1: a 32-byte mutex, then the filter chain head. */
struct tcf_chain {
  guint8              filter_chain_lock[32]; /*  0: struct mutex */
  struct tcf_proto   *filter_chain;       /* 32 */
  guint8              list[16];           /* 40 */
  gpointer            block;              /* 56 */
  guint32             index;              /* 64 CL1 */
  guint32             refcnt;             /* 68 */
  guint32             action_refcnt;      /* 72 */
  guint8              explicitly_created, flushing;
  guint8              _pad78[2];
  gpointer            tmplt_ops, tmplt_priv; /* 80, 88 */
  guint8              rcu[16];            /* 96 */
};                                        /* 112 */

/* struct tcf_exts, 32 bytes (CONFIG_NET_CLS_ACT). */
struct tcf_exts {
  guint32             type;               /*  0 */
  gint32              nr_actions;         /*  4 */
  struct tc_action  **actions;            /*  8: kcalloc(TCA_ACT_MAX_PRIO) */
  gpointer            net;                /* 16 */
  gint32              action, police;     /* 24, 28 */
};

/* struct tc_action_ops: what the model needs (act at its v6.1 offset, line 0). */
struct tc_action_ops {
  guint8              head[16];           /*  0: struct list_head */
  char                kind[16];           /* 16: IFNAMSIZ */
  guint32             id, net_id;         /* 32, 36 */
  gsize               size;               /* 40 */
  gpointer            owner;              /* 48 */
  const TcFn         *act;                /* 56: int (*act)(...) */
};

/* struct gnet_stats_basic_sync, 16 bytes, 16-byte aligned (64-bit: no seqcount). */
struct gnet_stats_basic_sync {
  guint64             bytes;
  guint64             packets;
} __attribute__ ((aligned (16)));

/* struct tcf_t: install, lastuse, expires, firstuse (jiffies). */
struct tcf_t {
  guint64             install, lastuse, expires, firstuse;
};

/* struct tc_action, 224 bytes (v6.1; Debian 6.1.176's DWARF). */
struct tc_action {
  const struct tc_action_ops *ops;        /*   0 CL0 */
  guint32             type;               /*   8 */
  guint32             _pad12;
  gpointer            idrinfo;            /*  16 */
  guint32             tcfa_index;         /*  24 */
  guint32             tcfa_refcnt;        /*  28 */
  guint32             tcfa_bindcnt;       /*  32 */
  gint32              tcfa_action;        /*  36 */
  struct tcf_t        tcfa_tm;            /*  40: lastuse 48 (CL0), firstuse 64 (CL1) */
  guint8              _pad72[8];
  struct gnet_stats_basic_sync tcfa_bstats;    /*  80 */
  struct gnet_stats_basic_sync tcfa_bstats_hw; /*  96 */
  guint32             tcfa_qstats[5];     /* 112: struct gnet_stats_queue */
  guint32             _pad132;
  gpointer            tcfa_rate_est;      /* 136 */
  guint32             tcfa_lock;          /* 144 */
  guint32             _pad148;
  struct gnet_stats_basic_sync *cpu_bstats; /* 152 CL2: __percpu */
  gpointer            cpu_bstats_hw;      /* 160 */
  guint32            *cpu_qstats;         /* 168: __percpu struct gnet_stats_queue */
  gpointer            act_cookie;         /* 176 */
  struct tcf_chain   *goto_chain;         /* 184 */
  guint32             tcfa_flags;         /* 192 CL3 */
  guint32             _pad196;
  guint8              tcfa_rcu[16];       /* 200: struct rcu_head */
  guint8              hw_stats, used_hw_stats, used_hw_stats_valid, _pad219;  /* 216 */
  guint32             in_hw_count;        /* 220 */
};                                        /* 224 */

/* struct mini_Qdisc (clsact's per-direction filter head), 40 bytes. */
struct mini_Qdisc {
  struct tcf_proto   *filter_list;        /*  0 */
  gpointer            block;              /*  8 */
  struct gnet_stats_basic_sync *cpu_bstats; /* 16: __percpu */
  guint32            *cpu_qstats;         /* 24: __percpu */
  gulong              rcu_state;          /* 32 */
};

/* Per-CPU area used by the tc objects of one machine: the kernel's __percpu allocations,
 * one copy per CPU; `percpu_stride` bytes between CPUs' copies. */
gpointer tc_percpu_ptr (TcEnv *env, gpointer base, guint cpu);

/* ---- the tc environment of one simulated machine ---- */

/* Creates the tc state of a machine: reads the build (version, patches, CONFIG_NET_CLS_*,
 * CONFIG_NET_ACT_*, CONFIG_RETPOLINE, CONFIG_NET_TC_INDIRECT_WRAPPER) and the mitigations
 * in force, and "boots" the wrapper (tc_wrapper_init sets the static key). Its objects
 * come from the machine's kmalloc caches (models/net/slab.h). */
TcEnv      *tc_env_new           (NsMachine *machine);
void        tc_env_free          (TcEnv *env);
NsMachine  *tc_env_machine       (TcEnv *env);
/* Kernel memory for tc objects: a zeroed object of the machine's kmalloc cache of its size
 * class (the object rounded up to 8/16/32/64/96/128/192/256/512…, at that stride in its
 * slab; the caches the skb heads come from too). */
gpointer    tc_kzalloc           (TcEnv *env, gsize size);
/* ksize(obj): the kmalloc class of a live object of the machine's kmalloc caches (tc's
 * objects, skb heads), 0 for memory that is not one (static data, another cache's object,
 * a freed object). */
gsize       tc_ksize             (const TcEnv *env, gconstpointer obj);
/* The CPU the configuring process (tc, ip) runs on from now: its kzallocs come from that
 * CPU's slabs (0 at creation). */
void        tc_env_set_alloc_cpu (TcEnv *env, guint cpu);
/* __alloc_percpu(size, align): one copy per CPU, densely packed per CPU (size at most one
 * CPU's unit, TC_PERCPU_STRIDE). */
gpointer    tc_alloc_percpu      (TcEnv *env, gsize size, gsize align);
/* Largest reclassify loop count (16 from v5.14, 4 before; kernel-spec §3.3). */
guint       tc_max_reclassify    (const TcEnv *env);

/* ---- chains and filters (cls_api.c) ---- */

/* A filter chain of a block (tcf_chain_create). */
struct tcf_chain *tcf_chain_create   (TcEnv *env, guint32 index);
/* tcf_proto_create + tcf_chain_tp_insert: a filter of ops with protocol (be16) and prio
 * inserted in ascending prio order; prio 0 means "auto": one below the first filter at
 * or above 0x8000, in front of it, 0xC000 with none (tcf_auto_prio). Returns the
 * tcf_proto, its root set by the classifier's change(); NULL with *err (may be NULL)
 * -EINVAL or -EEXIST where tc_new_tfilter refuses a prio a filter holds already (another
 * protocol; the same, whose matchall holds its one filter), -EINVAL for an automatic prio
 * when the first filter at or above 0x8000 is at 0x8000. */
struct tcf_proto *tcf_chain_tp_insert (TcEnv *env, struct tcf_chain *chain,
                                       const struct tcf_proto_ops *ops, guint16 protocol,
                                       guint32 prio, int *err);
/* The filter of chain at explicit priority prio (1 to 0xFFFF), NULL with none. */
struct tcf_proto *tcf_chain_tp_get    (struct tcf_chain *chain, guint32 prio);

/* tcf_classify (v6.1, CONFIG_NET_TC_SKB_EXT off): walks tp's list in order. */
int  tcf_classify    (NsThread *t, TcEnv *env, struct sk_buff *skb, gpointer block,
                      const struct tcf_proto *tp, struct tcf_result *res,
                      gboolean compat_mode);
/* tcf_action_exec (act_api.c). */
int  tcf_action_exec (NsThread *t, TcEnv *env, struct sk_buff *skb,
                      struct tc_action **actions, gint nr_actions, struct tcf_result *res);
/* tcf_exts_exec (include/net/pkt_cls.h, inline): tcf_action_exec over the exts. */
int  tcf_exts_exec   (NsThread *t, TcEnv *env, struct sk_buff *skb, struct tcf_exts *exts,
                      struct tcf_result *res);

/* ---- the wrapper (tc_wrapper.c) ---- */

/* tc_classify / tc_act: the call through tp->classify / a->ops->act, direct after the
 * compare chain when the build has the wrapper, it is enabled, and the target is
 * built in; else an indirect call (retpoline thunk under spectre_v2=retpoline). */
int  tc_classify     (NsThread *t, TcEnv *env, struct sk_buff *skb, const struct tcf_proto *tp,
                      struct tcf_result *res);
int  tc_act          (NsThread *t, TcEnv *env, struct sk_buff *skb, const struct tc_action *a,
                      struct tcf_result *res);
/* TRUE if calling fn through a pointer goes through a retpoline/LFENCE thunk in this
 * machine (the wrapper does not turn it into a direct call). */
gboolean tc_classify_thunked (const TcEnv *env, const TcFn *fn);
gboolean tc_act_thunked      (const TcEnv *env, const TcFn *fn);
/* TRUE if indirect calls go through a retpoline or LFENCE thunk (X86_FEATURE_RETPOLINE). */
gboolean tc_env_thunked      (const TcEnv *env);
/* The wrapper as booted: compiled in, static key tc_skip_wrapper, chain lengths. */
gboolean tc_wrapper_compiled (const TcEnv *env);
gboolean tc_wrapper_skipped  (const TcEnv *env);   /* static key tc_skip_wrapper on */
/* Position (1-based) of fn in the classifier / action compare chain; 0 if absent (not
 * built in, or the build has no wrapper). The compares a call costs is this position
 * (hit) or the chain length (miss). */
guint tc_wrapper_cls_position (const TcEnv *env, const TcFn *fn);
guint tc_wrapper_act_position (const TcEnv *env, const TcFn *fn);
guint tc_wrapper_cls_len      (const TcEnv *env);
guint tc_wrapper_act_len      (const TcEnv *env);
/* Counters since creation: direct calls, indirect calls, compares executed (the calls
 * through tp->classify and a->ops->act only). */
void  tc_wrapper_counts       (const TcEnv *env, guint64 *direct, guint64 *indirect,
                               guint64 *compares);

/* ---- matchall (cls_matchall.c) and gact (act_gact.c) ---- */

extern const struct tcf_proto_ops cls_mall_ops;
/* The TcFns of every classifier and action the wrappers know (only matchall, cls_bpf and
 * gact have a model body; the others exist so compare chains have their real members). */
const TcFn *tc_classifier_fn (const char *name);   /* "mall_classify", "u32_classify", … */
const TcFn *tc_action_fn     (const char *name);   /* "tcf_gact_act", "tcf_mirred_act", … */

/* ---- cls_bpf (cls_bpf.c) ---- */

extern const struct tcf_proto_ops cls_bpf_ops;
/* cls_bpf_change of a new program: the classic program `ret #ret_k` (0: no match, the
 * walk goes on) with handle, added to tp's list (first: the new one runs first); tp's
 * head is made with its first program. */
void  cls_bpf_change  (TcEnv *env, struct tcf_proto *tp, guint32 handle, guint32 ret_k);
/* The programs of a cls_bpf filter (control path, no cost). */
guint cls_bpf_count   (const struct tcf_proto *tp);

/* mall_change: gives tp a matchall head (classid, flags) with the actions given. */
void  mall_change     (TcEnv *env, struct tcf_proto *tp, guint32 classid, guint32 flags,
                       struct tc_action **acts, guint n_acts);
/* mall_change in the kernel's order of allocations, for a caller whose actions are made
 * in between (tcf_action_init runs inside mall_set_parms): the head, tcf_exts_init's
 * action array and the per-CPU hit counters first, installed as tp's root... */
struct cls_mall_head *mall_change_head (TcEnv *env, struct tcf_proto *tp, guint32 classid,
                                        guint32 flags);
/* ...then mall_set_parms' tcf_exts_validate hands it the actions. */
void  mall_set_actions (struct cls_mall_head *head, struct tc_action **acts, guint n_acts);
/* tcf_gact_init: a gact action with verdict `action` (TC_ACT_* incl. JUMP/GOTO_CHAIN
 * opcodes); goto_chain must be given for TC_ACT_GOTO_CHAIN. */
struct tc_action *tcf_gact_create (TcEnv *env, gint32 action, struct tcf_chain *goto_chain);
/* Statistics as `tc -s` shows them (summed over CPUs; control path, no cost): a matchall
 * filter's hits, an action's packets and drops. */
guint64 mall_hits          (TcEnv *env, const struct tcf_proto *tp);
guint64 tc_action_packets  (TcEnv *env, const struct tc_action *a);
guint64 tc_action_drops    (TcEnv *env, const struct tc_action *a);

G_STATIC_ASSERT (sizeof (struct tcf_result) == 16);
G_STATIC_ASSERT (offsetof (struct tcf_proto, classify) == 16);
G_STATIC_ASSERT (offsetof (struct tcf_proto, protocol) == 24);
G_STATIC_ASSERT (offsetof (struct tcf_proto, prio) == 28);
G_STATIC_ASSERT (offsetof (struct tcf_proto, chain) == 48);
G_STATIC_ASSERT (sizeof (struct tcf_proto) == 104);
G_STATIC_ASSERT (offsetof (struct tcf_chain, filter_chain) == 32);
G_STATIC_ASSERT (offsetof (struct tcf_chain, index) == 64);
G_STATIC_ASSERT (sizeof (struct tcf_exts) == 32);
G_STATIC_ASSERT (offsetof (struct tc_action_ops, act) == 56);
G_STATIC_ASSERT (offsetof (struct tc_action, tcfa_action) == 36);
G_STATIC_ASSERT (offsetof (struct tc_action, tcfa_tm) == 40);
G_STATIC_ASSERT (offsetof (struct tc_action, tcfa_bstats) == 80);
G_STATIC_ASSERT (offsetof (struct tc_action, cpu_bstats) == 152);
G_STATIC_ASSERT (offsetof (struct tc_action, goto_chain) == 184);
G_STATIC_ASSERT (offsetof (struct tc_action, tcfa_flags) == 192);
G_STATIC_ASSERT (offsetof (struct tc_action, in_hw_count) == 220);
G_STATIC_ASSERT (sizeof (struct tc_action) == 224);
G_STATIC_ASSERT (sizeof (struct mini_Qdisc) == 40);

G_END_DECLS
