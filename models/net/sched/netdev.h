/* netdev.h — the transmit side of a software network device, as pktgen's queue_xmit mode
 * drives it on kernel v6.1: struct net_device / netdev_queue / Qdisc (the fields the path
 * reads), the per-CPU data it touches, __dev_queue_xmit and its helpers (net/core/dev.c),
 * the clsact qdisc (net/sched/sch_ingress.c), the sk_buff life of a page-fragment skb
 * (net/core/skbuff.c, mm/page_alloc.c, mm/slub.c), local_bh_enable (kernel/softirq.c) and
 * the dummy driver (drivers/net/dummy.c).
 *
 * Offsets: struct net_device is ~2.3 KiB in v6.1 and has no annotated cache-line groups
 * until v6.8; the offsets below are estimates that keep its fields in the lines the v6.1
 * order puts them in (state and the RX/TX lists early, features after them, netdev_ops and
 * flags next, the per-CPU stats pointer, the ingress block, then the ____cacheline_aligned
 * TX section with _tx, real_num_tx_queues, qdisc and miniq_egress) [U: not pahole]. */
#pragma once
#include "pkt_cls.h"

G_BEGIN_DECLS

/* IFF_* and NETIF_F_* bits the path tests. */
#define IFF_UP                    0x1u
#define IFF_XMIT_DST_RELEASE      (1ull << 6)
#define IFF_NO_QUEUE              (1ull << 21)
#define NETIF_F_LLTX              (1ull << 12)
#define NETIF_F_HW_CSUM           (1ull << 3)
#define NETIF_F_HIGHDMA           (1ull << 5)
#define __LINK_STATE_START        0
#define __LINK_STATE_NOCARRIER    1
#define NET_XMIT_SUCCESS          0x00
#define NET_XMIT_DROP             0x01
#define NETDEV_TX_OK              0x00
#define NET_SKB_PAD               64u       /* max(32, L1_CACHE_BYTES) on x86-64 */
#define PAGE_FRAG_CACHE_MAX_SIZE  32768u    /* order-3 page of the frag cache */

typedef struct _NetTx NetTx;
struct net_device;

/* net_device_ops: ndo_start_xmit at its place (after ndo_init/uninit/open/stop). */
typedef int (*NdoStartXmitImpl) (NsThread *t, NetTx *tx, struct sk_buff *skb,
                                 struct net_device *dev);
struct net_device_ops {
  gpointer            ndo_init, ndo_uninit, ndo_open, ndo_stop; /*  0 */
  NsFunc             *ndo_start_xmit;     /* 32: the driver's xmit function */
  gpointer            ndo_features_check; /* 40: NULL for dummy */
  gpointer            ndo_select_queue;   /* 48: NULL for dummy */
  NdoStartXmitImpl    start_xmit_impl;    /* 56: model body of ndo_start_xmit */
};

/* struct Qdisc: enqueue/dequeue first (noqueue_qdisc has enqueue == NULL). */
struct Qdisc {
  gpointer            enqueue;            /*  0 */
  gpointer            dequeue;            /*  8 */
  guint32             flags;              /* 16 */
  guint8              _pad[44];
};

/* struct netdev_queue (v6.1): qdisc in CL0; the ____cacheline_aligned_in_smp xmit lock
 * group (lock, owner, trans_start) and state further on [R: field order]. */
struct netdev_queue {
  struct net_device  *dev;                /*   0 */
  struct Qdisc       *qdisc;              /*   8 */
  struct Qdisc       *qdisc_sleeping;     /*  16 */
  guint8              _pad24[104];
  guint32             _xmit_lock;         /* 128 CL2 */
  gint32              xmit_lock_owner;    /* 132 */
  gulong              trans_start;        /* 136 */
  gulong              state;              /* 144 */
  guint8              _pad152[168];
};                                        /* 320 */

/* struct pcpu_lstats (dummy's per-CPU counters): packets, bytes, syncp. */
struct pcpu_lstats {
  guint64             packets;
  guint64             bytes;
};

struct list_head_ns {
  gpointer            next, prev;
};

/* struct net_device: the fields the transmit path reads (estimated offsets, see top). */
struct net_device {
  char                name[16];           /*    0 */
  guint8              _pad16[56];
  gulong              state;              /*   72 CL1 */
  guint8              _pad80[64];
  struct list_head_ns ptype_all;          /*  144 CL2 */
  guint8              _pad160[32];
  guint64             features;           /*  192 CL3 */
  guint64             hw_features, wanted_features, vlan_features, hw_enc_features;
  guint64             mpls_features;      /*  232 */
  guint8              _pad240[16];
  const struct net_device_ops *netdev_ops; /* 256 CL4 */
  guint8              _pad264[24];
  guint32             flags;              /*  288 */
  guint32             _pad292;
  guint64             priv_flags;         /*  296 */
  guint8              _pad304[80];
  struct pcpu_lstats *lstats;             /*  384 CL6: __percpu */
  guint8              _pad392[248];
  struct mini_Qdisc  *miniq_ingress;      /*  640 CL10 */
  guint8              _pad648[184];
  struct netdev_queue *_tx;               /*  832 CL13: TX section */
  guint32             num_tx_queues;      /*  840 */
  guint32             real_num_tx_queues; /*  844 */
  struct Qdisc       *qdisc;              /*  848 */
  guint8              _pad856[40];
  struct mini_Qdisc  *miniq_egress;       /*  896 CL14 */
  guint8              _pad904[120];
  gpointer            priomap;            /* 1024 CL16: CONFIG_CGROUP_NET_PRIO */
  guint8              _pad1032[1016];
};                                        /* 2048 */

G_STATIC_ASSERT (offsetof (struct net_device, state) == 72);
G_STATIC_ASSERT (offsetof (struct net_device, features) == 192);
G_STATIC_ASSERT (offsetof (struct net_device, netdev_ops) == 256);
G_STATIC_ASSERT (offsetof (struct net_device, lstats) == 384);
G_STATIC_ASSERT (offsetof (struct net_device, _tx) == 832);
G_STATIC_ASSERT (offsetof (struct net_device, miniq_egress) == 896);
G_STATIC_ASSERT (offsetof (struct net_device, priomap) == 1024);
G_STATIC_ASSERT (sizeof (struct net_device) == 2048);
G_STATIC_ASSERT (offsetof (struct netdev_queue, xmit_lock_owner) == 132);
G_STATIC_ASSERT (sizeof (struct netdev_queue) == 320);

/* struct page_frag_cache (v6.1, PAGE_SIZE < 32 KiB): va, offset, size, pagecnt_bias,
 * pfmemalloc. */
struct page_frag_cache {
  guint8             *va;
  guint16             offset, size;
  guint32             pagecnt_bias;
  gboolean            pfmemalloc;
};

/* struct page (the refcount the frag cache and page_frag_free use). */
struct page_ns {
  gulong              flags;
  gpointer            compound_head;
  guint8              _pad16[36];
  gint32              _refcount;          /* 52 */
  guint8              _pad56[8];
};
G_STATIC_ASSERT (sizeof (struct page_ns) == 64);

/* One CPU's copies of the per-CPU variables the path uses, each in the line the kernel's
 * per-CPU sections give it: pcpu_hot (preempt count, current task), softnet_data.xmit,
 * irq_stat, napi_alloc_cache, and skbuff_head_cache's kmem_cache_cpu. */
struct tx_pcpu {
  gint32              preempt_count;      /* CL0 */
  guint32             cpu_number;
  gpointer            current_task;
  guint8              _pad16[48];
  guint16             xmit_recursion;     /* CL1: softnet_data.xmit */
  guint8              xmit_more, xmit_skip_txqueue;
  guint32             softirq_pending;    /* irq_stat.__softirq_pending */
  guint8              _pad72[56];
  struct page_frag_cache napi_frag;       /* CL2: napi_alloc_cache.page */
  guint8              _pad152[40];
  gpointer            slab_freelist;      /* CL3: kmem_cache_cpu of skbuff_head_cache */
  gulong              slab_tid;
  gpointer            slab_slab;
  guint8              _pad216[40];
  struct tcf_result   stack_cl_res;       /* CL4: sch_handle_egress's on-stack cl_res */
  guint8              _pad272[48];
};
G_STATIC_ASSERT (sizeof (struct tx_pcpu) == 320);

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
  gpointer            skbuff_head_cache;  /* struct kmem_cache line (cpu_slab, offset) */
  gboolean            egress_needed_key;  /* static keys */
  gboolean            ingress_needed_key;
  /* frag pages (order-3, 32 KiB) handed out so far, and their struct pages */
  GHashTable         *page_of;            /* frag page va → struct page_ns */
  guint64             skbs_live, skbs_allocated;
};

NetTx          *net_tx_new            (NsMachine *machine, TcEnv *tc);
void            net_tx_free           (NetTx *tx);
struct tx_pcpu *net_tx_pcpu           (NetTx *tx, NsThread *t);

/* kernel/softirq.c: local_bh_disable (inline add to the preempt count) and
 * __local_bh_enable_ip (out of line). */
void  local_bh_disable        (NsThread *t, NetTx *tx);
void  local_bh_enable         (NsThread *t, NetTx *tx);

/* net/core/skbuff.c with mm/: the page-fragment skb of __netdev_alloc_skb and its end. */
struct sk_buff *__netdev_alloc_skb (NsThread *t, NetTx *tx, struct net_device *dev,
                                    guint len);
/* skb_put / skb_push (exported functions in v6.1, not the inline __skb_put). */
guchar         *tx_skb_put         (NsThread *t, struct sk_buff *skb, guint len);
guchar         *tx_skb_push        (NsThread *t, struct sk_buff *skb, guint len);
/* kfree_skb (kfree_skb_reason) and consume_skb: drop a reference; free on the last. */
void            tx_kfree_skb       (NsThread *t, NetTx *tx, struct sk_buff *skb);
void            tx_consume_skb     (NsThread *t, NetTx *tx, struct sk_buff *skb);
/* refcount_inc(&skb->users): a locked add. */
void            tx_skb_get         (NsThread *t, struct sk_buff *skb);

/* net/core/dev.c: dev_queue_xmit (→ __dev_queue_xmit) and netdev_start_xmit. */
int   dev_queue_xmit          (NsThread *t, NetTx *tx, struct sk_buff *skb);
int   netdev_start_xmit       (NsThread *t, NetTx *tx, struct sk_buff *skb,
                               struct net_device *dev, struct netdev_queue *txq,
                               gboolean more);

/* net/sched/sch_ingress.c: attach a clsact qdisc (both mini_Qdiscs, the ingress and
 * egress static keys); the egress/ingress filter chains to add filters to. */
void              clsact_attach    (NetTx *tx, struct net_device *dev);
struct tcf_chain *clsact_chain     (struct net_device *dev, gboolean egress);
/* Re-reads chain 0's head into the mini_Qdisc after filters were added (the kernel's
 * tcf_chain0_head_change callback). */
void              clsact_sync      (struct net_device *dev);

/* drivers/net/dummy.c: a dummy device (ether_setup, IFF_NO_QUEUE, LLTX, one TX queue,
 * per-CPU lstats), up, with carrier. */
struct net_device *dummy_create    (NetTx *tx, const char *name);

G_END_DECLS
