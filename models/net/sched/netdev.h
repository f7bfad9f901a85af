/* netdev.h — the transmit side of a software network device, as pktgen's queue_xmit mode
 * drives it on kernel v6.1: the per-CPU data it touches, the stack net/core/dev.c's
 * transmit path (models/net/dev.c, shared with the loopback model) runs in (NetTx.core)
 * with sch_handle_egress as its egress hook, the clsact qdisc (net/sched/sch_ingress.c),
 * __netdev_alloc_skb and its page-fragment cache (skb_xmit.c; the sk_buff's allocator and
 * frees are models/net/skbuff.c's, on NetTx.alloc), the per-CPU words its bottom halves use (NetTx.softirq; the code is
 * models/net/softirq.c's) and the dummy driver (drivers/net/dummy.c). struct net_device and the objects off it (net_device_ops,
 * netdev_queue, Qdisc) are net/netdevice.h's, shared with the loopback model. */
#pragma once
#include "pkt_cls.h"
#include "net/netdevice.h"

G_BEGIN_DECLS

typedef struct _NetTx NetTx;

#define NET_SKB_PAD               64u       /* max(32, L1_CACHE_BYTES) on x86-64 */

/* struct page_frag_cache (v6.1, PAGE_SIZE < 32 KiB): va, offset, size, pagecnt_bias,
 * pfmemalloc. */
struct page_frag_cache {
  guint8             *va;
  guint16             offset, size;
  guint32             pagecnt_bias;
  gboolean            pfmemalloc;
};

/* One CPU's copies of the per-CPU variables the path uses, each in the line the kernel's
 * per-CPU sections give it: pcpu_hot (preempt count, current task), softnet_data.xmit,
 * irq_stat and napi_alloc_cache (the slab caches' kmem_cache_cpu lines are skbuff.c's). */
struct tx_pcpu {
  gint32              preempt_count;      /* CL0 */
  guint32             cpu_number;
  gpointer            current_task;
  guint8              _pad16[48];
  struct netdev_xmit  xmit;               /* CL1: softnet_data.xmit */
  guint32             softirq_pending;    /* irq_stat.__softirq_pending */
  guint8              _pad72[56];
  struct page_frag_cache napi_frag;       /* CL2: napi_alloc_cache.page */
  guint8              _pad152[40];
  struct tcf_result   stack_cl_res;       /* CL3: sch_handle_egress's on-stack cl_res */
  guint8              _pad208[48];
};
G_STATIC_ASSERT (sizeof (struct tx_pcpu) == 256);

/* From v6.11 (401cb7dae813), one CPU's share of what bpf_net_ctx_set touches around the
 * egress hook: the running task's task_struct line with bpf_net_context (pktgen's kthread)
 * and the hook's on-stack struct bpf_net_context, 112 bytes (6.12.118: the REP STOSQ of
 * 14 quadwords that CONFIG_INIT_STACK_ALL_ZERO compiles its declaration to). */
struct tx_bpf_ctx {
  gpointer            task_bpf_net_context;   /* CL0: task_struct.bpf_net_context */
  guint8              _pad8[56];
  guint8              stack_ctx[112];     /* CL1: __bpf_net_ctx */
  guint8              _pad176[16];
};
G_STATIC_ASSERT (sizeof (struct tx_bpf_ctx) == 192);

/* The simulated task's thread_info flags and kthread flags (pktgen's kthread). */
struct task_ns {
  gulong              ti_flags;           /* thread_info.flags (TIF_NEED_RESCHED) */
  guint8              _pad8[56];
  gulong              kthread_flags;      /* to_kthread(current)->flags, its own line */
  guint8              _pad72[56];
};

/* The transmit-path state of one simulated machine. */
struct _NetTx {
  NsMachine          *machine;
  NsArena            *arena;
  TcEnv              *tc;
  guint               n_cpus;
  struct tx_pcpu     *pcpu;               /* n_cpus entries, 256-byte aligned */
  struct list_head_ns *ptype_all;         /* the global ptype_all list head */
  struct Qdisc       *noqueue_qdisc;
  NsSkbAlloc         *alloc;              /* slab caches, kmalloc, frag pages (skbuff.c) */
  gboolean            egress_needed_key;  /* static keys */
  gboolean            ingress_needed_key;
  SoftirqCtx          softirq;            /* bottom halves on this stack's per-CPU data */
  NetDevCore          core;               /* what net/core/dev.c's transmit needs */
  GHashTable         *clsact;             /* device → its clsact qdisc's private data */
  struct tx_bpf_ctx  *bpf_ctx;            /* n_cpus entries from v6.11, else NULL */
};

NetTx          *net_tx_new            (NsMachine *machine, TcEnv *tc);
void            net_tx_free           (NetTx *tx);
struct tx_pcpu *net_tx_pcpu           (NetTx *tx, NsThread *t);

/* net/core/skbuff.c: __netdev_alloc_skb(dev, len, GFP_NOWAIT): __alloc_skb on tx->alloc,
 * or a page fragment and __build_skb. Freed with skbuff.c's kfree_skb / consume_skb. */
struct sk_buff *__netdev_alloc_skb (NsThread *t, NetTx *tx, struct net_device *dev,
                                    guint len);
/* refcount_inc(&skb->users): a locked add. */
void            tx_skb_get         (NsThread *t, struct sk_buff *skb);

/* Fills tx->core: this stack's side of net/core/dev.c's transmit (models/net/dev.c),
 * with sch_handle_egress as its egress hook (sched/dev_xmit.c). */
void  net_tx_core_init        (NetTx *tx);

/* net/sched/sch_ingress.c: attach a clsact qdisc (its two blocks and mini_Qdiscs, not yet
 * published: dev->miniq_* stay NULL until a chain 0 has a filter; the ingress and egress
 * static keys); the egress/ingress filter chains to add filters to. */
void              clsact_attach    (NetTx *tx, struct net_device *dev);
struct tcf_chain *clsact_chain     (NetTx *tx, struct net_device *dev, gboolean egress);
/* tcf_chain0_head_change → mini_qdisc_pair_swap of each direction whose chain 0 has a new
 * head since the last call: the pair's other mini_Qdisc takes it and is published in
 * dev->miniq_*, or NULL with none. */
void              clsact_sync      (NetTx *tx, struct net_device *dev);
/* tc_new_tfilter: `tc filter add dev DEV egress|ingress [protocol P] matchall action gact
 * VERDICT` on a clsact device (automatic priority: the new filter runs first), objects
 * allocated in v6.1's order on tc_env_set_alloc_cpu's CPU, published at once. */
struct tcf_proto *tc_new_tfilter_matchall (NetTx *tx, struct net_device *dev,
                                           gboolean egress, guint16 protocol,
                                           gint32 verdict);

/* tc_new_tfilter: `tc filter add dev DEV egress|ingress prio PRIO handle HANDLE [protocol
 * P] bpf bytecode "1,6 0 0 K,"` on a clsact device: the classic program `ret #K` (0: no
 * match) added to the cls_bpf filter at PRIO, created first if there is none (it goes in
 * priority order); published at once. NULL if PRIO holds a filter of another kind or
 * protocol. */
struct tcf_proto *tc_new_tfilter_bpf     (NetTx *tx, struct net_device *dev,
                                          gboolean egress, guint16 protocol, guint32 prio,
                                          guint32 handle, guint32 ret_k);

/* drivers/net/dummy.c: a dummy device (ether_setup, IFF_NO_QUEUE, LLTX, one TX queue,
 * per-CPU lstats), up, with carrier. */
struct net_device *dummy_create    (NetTx *tx, const char *name);

G_END_DECLS
