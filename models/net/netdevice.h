/* netdevice.h — include/linux/netdevice.h for both device models: struct net_device and
 * the objects hanging off it (net_device_ops, netdev_queue, Qdisc), and the device-layer
 * kernel functions both transmit models share: the
 * net/core/dev.c transmit path (declared once, in models/net/sched/dev_xmit.c, its model
 * of that file) and kernel/softirq.c's __local_bh_enable_ip (declared once, in
 * models/net/loopback.c, which models the softirq run). The loopback model
 * (loopback.c) and the tc model (sched/dev_xmit.c, sched/skb_xmit.c) charge their calls
 * to these same NsFuncs, so a process running both registers each symbol once. */
#pragma once
#include <errno.h>
#include <glib.h>
#include <stddef.h>
#include "build.h"
#include "machine.h"
#include "skbuff.h"
#include "softirq.h"

G_BEGIN_DECLS

/* NET_XMIT_* (a transmit's verdict up the stack), NETDEV_TX_* (a driver's), and
 * net_xmit_errno: the errno a NET_XMIT_* code becomes for a sender (NET_XMIT_CN is a
 * success). */
#define NET_XMIT_SUCCESS          0x00
#define NET_XMIT_DROP             0x01
#define NET_XMIT_CN               0x02
#define NETDEV_TX_OK              0x00
#define net_xmit_errno(e)         ((e) != NET_XMIT_CN ? -ENOBUFS : 0)

/* netdev_queue->state: __QUEUE_STATE_DRV_XOFF (bit 0, netif_tx_stop_queue) and
 * __QUEUE_STATE_STACK_XOFF (bit 1, BQL); netif_xmit_stopped tests either. */
#define QUEUE_STATE_ANY_XOFF      0x3ul

/* IFF_* (dev->flags, dev->priv_flags), NETIF_F_* (netdev_features_t) and __LINK_STATE_*
 * bits the models test. */
#define IFF_UP                    0x1u
#define IFF_LOOPBACK              0x8u
#define IFF_XMIT_DST_RELEASE      (1ull << 6)
#define IFF_NO_QUEUE              (1ull << 21)
#define NETIF_F_SG                (1ull << 0)
#define NETIF_F_HW_CSUM           (1ull << 3)
#define NETIF_F_HIGHDMA           (1ull << 5)
#define NETIF_F_FRAGLIST          (1ull << 6)
#define NETIF_F_LLTX              (1ull << 12)
#define __LINK_STATE_START        0
#define __LINK_STATE_NOCARRIER    1

struct net_device;
struct netdev_layout;
struct sk_buff;
struct mini_Qdisc;
struct bpf_mprog_entry;
struct list_head_ns;

/* net_device_ops: ndo_start_xmit at its place (after ndo_init/uninit/open/stop). The
 * model's driver body gets the stack it runs in (NetDevCore.owner). */
typedef int (*NdoStartXmitImpl) (NsThread *t, gpointer owner, struct sk_buff *skb,
                                 struct net_device *dev);
struct net_device_ops {
  gpointer            ndo_init, ndo_uninit, ndo_open, ndo_stop; /*  0 */
  NsFunc             *ndo_start_xmit;     /* 32: the driver's xmit function */
  gpointer            ndo_features_check; /* 40: NULL for dummy and loopback */
  gpointer            ndo_select_queue;   /* 48: NULL for dummy and loopback */
  /* model, not kernel: the C body of ndo_start_xmit (loopback_xmit, dummy_xmit) */
  NdoStartXmitImpl    start_xmit_impl;    /* 56 */
};

/* struct Qdisc: enqueue/dequeue first (noqueue_qdisc has enqueue == NULL). */
struct Qdisc {
  gpointer            enqueue;            /*  0 */
  gpointer            dequeue;            /*  8 */
  guint32             flags;              /* 16 */
  guint8              _pad[44];
};

/* struct netdev_queue (v6.x): qdisc in CL0; the ____cacheline_aligned_in_smp xmit lock
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

/* struct pcpu_lstats (per-CPU device counters): packets, bytes, syncp. */
struct pcpu_lstats {
  guint64             packets;
  guint64             bytes;
};

struct list_head_ns {
  gpointer            next, prev;
};

/* struct net_device_core_stats (v5.19+): the per-CPU drop counters dev_core_stats_*_inc
 * bump, each CPU's in its own per-CPU area (the model gives each a line). */
struct net_device_core_stats {
  gulong              rx_dropped;
  gulong              tx_dropped;
  gulong              rx_nohandler;
  gulong              rx_otherhost_dropped;
  guint8              _pad[32];
};

/* struct net_device: the fields the models use, stored at the v6.8+ offsets. A device of
 * another release is charged at that release's offsets (the arena's byte map of the
 * object, set by netdev_alloc)
 * (models/net/netdevice.c: v6.1 and v6.12 read off Debian's DWARF, v6.8–v6.11 below).
 * v6.8 (43a71cd66b9c) put the fast-path fields first, in the cache-line groups
 * net_device_read_tx (priv_flags … tcx_egress), net_device_read_txrx (lstats … ip6_ptr)
 * and net_device_read_rx (xdp_prog … tcx_ingress); those offsets follow the v6.9 field
 * order with natural alignment (CONFIG_XPS, NETFILTER_EGRESS, NET_XGRESS, NETPOLL on)
 * [R: field order, not pahole], and Debian 6.12.118's DWARF has every one of them. The tc
 * model runs v6.1's dev->miniq_egress / miniq_ingress (the mini_Qdisc itself) before
 * v6.6 and tcx_egress / tcx_ingress (a bpf_mprog_entry whose tcx_entry holds the
 * mini_Qdisc pointer) from it, one slot for both: the byte maps name it miniq_*. The rest (name,
 * ptype_all, dev_addr, the TX section with num_tx_queues and qdisc, priomap) is past the
 * groups at estimated offsets that keep them off the fast-path lines [U] (6.12.118's:
 * name and ptype_all here, the others further on: netdevice.c). */
struct net_device {
  /* net_device_read_tx */
  guint64             priv_flags;         /*    0 CL0 */
  const struct net_device_ops *netdev_ops; /*   8 */
  gpointer            header_ops;         /*   16 */
  struct netdev_queue *_tx;               /*   24 */
  guint64             gso_partial_features; /* 32 */
  guint32             real_num_tx_queues; /*   40 */
  guint32             gso_max_size;       /*   44 */
  guint32             gso_ipv4_max_size;  /*   48 */
  guint16             gso_max_segs;       /*   52 */
  gint16              num_tc;             /*   54 */
  guint32             mtu;                /*   56 */
  guint16             needed_headroom;    /*   60 */
  guint16             tc_to_txq[16][2];   /*   62: struct netdev_tc_txq { count, offset } */
  guint16             _pad126;
  gpointer            xps_maps[2];        /*  128 CL2 */
  gpointer            nf_hooks_egress;    /*  144 */
  union {                                 /*  152 */
    struct mini_Qdisc *miniq_egress;      /*       v6.1 */
    struct bpf_mprog_entry *tcx_egress;   /*       v6.6+ (models/net/sched/tcx.h) */
  };
  /* net_device_read_txrx */
  struct pcpu_lstats *lstats;             /*  160: __percpu */
  gulong              state;              /*  168 */
  guint32             flags;              /*  176 */
  guint16             hard_header_len;    /*  180 */
  guint16             _pad182;
  guint64             features;           /*  184 */
  gpointer            ip6_ptr;            /*  192 CL3 */
  /* net_device_read_rx */
  gpointer            xdp_prog;           /*  200 */
  struct list_head_ns ptype_specific;     /*  208 */
  gint32              ifindex;            /*  224 */
  guint32             real_num_rx_queues; /*  228 */
  gpointer            _rx;                /*  232 */
  gulong              gro_flush_timeout;  /*  240 */
  gint32              napi_defer_hard_irqs; /* 248 */
  guint32             gro_max_size;       /*  252 */
  guint32             gro_ipv4_max_size;  /*  256 CL4 */
  guint32             _pad260;
  gpointer            rx_handler;         /*  264 */
  gpointer            rx_handler_data;    /*  272 */
  gpointer            nd_net;             /*  280 */
  gpointer            npinfo;             /*  288 */
  union {                                 /*  296 */
    struct mini_Qdisc *miniq_ingress;     /*       v6.1 */
    struct bpf_mprog_entry *tcx_ingress;  /*       v6.6+ */
  };
  /* end of the groups */
  char                name[16];           /*  304 */
  guint8              _pad320[104];       /*  name_node … close_list */
  struct list_head_ns ptype_all;          /*  424 */
  guint8              _pad440[200];
  const guint8       *dev_addr;           /*  640 CL10 [U] */
  struct net_device_core_stats *core_stats; /* 648: __percpu, allocated at first use [U] */
  guint8              _pad656[176];
  guint32             num_tx_queues;      /*  832 CL13: TX section [U] */
  guint32             _pad836;
  struct Qdisc       *qdisc;              /*  840 */
  guint8              _pad848[176];
  gpointer            priomap;            /* 1024 CL16: CONFIG_CGROUP_NET_PRIO [U] */
  guint8              _pad1032[1008];
  /* model, not kernel: how this device's kernel lays the fields out (never charged) */
  const struct netdev_layout *layout;     /* 2040 */
};                                        /* 2048 */

G_STATIC_ASSERT (offsetof (struct net_device, netdev_ops) == 8);
G_STATIC_ASSERT (offsetof (struct net_device, _tx) == 24);
G_STATIC_ASSERT (offsetof (struct net_device, real_num_tx_queues) == 40);
G_STATIC_ASSERT (offsetof (struct net_device, tc_to_txq) == 62);
G_STATIC_ASSERT (offsetof (struct net_device, miniq_egress) == 152);
G_STATIC_ASSERT (offsetof (struct net_device, lstats) == 160);
G_STATIC_ASSERT (offsetof (struct net_device, features) == 184);
G_STATIC_ASSERT (offsetof (struct net_device, ptype_specific) == 208);
G_STATIC_ASSERT (offsetof (struct net_device, rx_handler) == 264);
G_STATIC_ASSERT (offsetof (struct net_device, miniq_ingress) == 296);
G_STATIC_ASSERT (offsetof (struct net_device, name) == 304);
G_STATIC_ASSERT (offsetof (struct net_device, ptype_all) == 424);
G_STATIC_ASSERT (offsetof (struct net_device, dev_addr) == 640);
G_STATIC_ASSERT (offsetof (struct net_device, core_stats) == 648);
G_STATIC_ASSERT (offsetof (struct net_device, qdisc) == 840);
G_STATIC_ASSERT (offsetof (struct net_device, priomap) == 1024);
G_STATIC_ASSERT (offsetof (struct net_device, layout) == 2040);
G_STATIC_ASSERT (sizeof (struct net_device) == 2048);

/* The fields of struct net_device a layout places (every kernel member above), each once:
 * NETDEV_FIELDS (X) expands X (field) for each. */
#define NETDEV_FIELDS(X) \
  X (priv_flags) X (netdev_ops) X (header_ops) X (_tx) X (gso_partial_features) \
  X (real_num_tx_queues) X (gso_max_size) X (gso_ipv4_max_size) X (gso_max_segs) \
  X (num_tc) X (mtu) X (needed_headroom) X (tc_to_txq) X (xps_maps) X (nf_hooks_egress) \
  X (miniq_egress) X (lstats) X (state) X (flags) X (hard_header_len) X (features) \
  X (ip6_ptr) X (xdp_prog) X (ptype_specific) X (ifindex) X (real_num_rx_queues) X (_rx) \
  X (gro_flush_timeout) X (napi_defer_hard_irqs) X (gro_max_size) X (gro_ipv4_max_size) \
  X (rx_handler) X (rx_handler_data) X (nd_net) X (npinfo) X (miniq_ingress) X (name) \
  X (ptype_all) X (dev_addr) X (core_stats) X (num_tx_queues) X (qdisc) X (priomap)
#define NETDEV_FIELD_ENUM(field)  NETDEV_FIELD_##field,
enum netdev_field {
  NETDEV_FIELDS (NETDEV_FIELD_ENUM)
  NETDEV_FIELD_COUNT
};
#undef NETDEV_FIELD_ENUM
#define NETDEV_FIELD_ABSENT       0xffffu   /* the release has no such field */

/* struct net_device as one range of kernel releases lays it out: each field's offset and
 * the size (what sizeof gives there), and where the offsets were read. */
struct netdev_layout {
  const char         *name;               /* "v6.1" */
  const char         *source;
  guint16             size;
  guint16             off[NETDEV_FIELD_COUNT];
};

/* The layout of kernel release (NULL: the v6.8 one, the struct as declared). */
const struct netdev_layout *netdev_layout_for_release (const char *release);
/* Every layout, oldest first; *n gets their number. */
const struct netdev_layout *netdev_layouts (guint *n);
/* A zeroed net_device laid out as layout: 64-byte aligned, as large as the larger of the
 * struct and the layout, so every charged field lies inside the object, and charged by
 * the arena where layout keeps each field (ns_arena_set_layout; v6.8's is the struct's). */
struct net_device *netdev_alloc (NsArena *arena, const struct netdev_layout *layout);


G_STATIC_ASSERT (offsetof (struct netdev_queue, xmit_lock_owner) == 132);
G_STATIC_ASSERT (sizeof (struct netdev_queue) == 320);

/* softnet_data.xmit (v5.10+): this CPU's transmit recursion depth, the xmit_more hint
 * and the skip-txqueue flag; each stack keeps it where its per-CPU data has it. */
struct netdev_xmit {
  guint16             recursion;
  guint8              more;
  guint8              skip_txqueue;
};

/* What net/core/dev.c's transmit path (models/net/dev.c) needs from the stack it runs
 * in: the loopback stack of seed 000 (NsNetStack) or the pktgen/tc one of seed 002
 * (NetTx). */
typedef struct {
  gpointer             owner;             /* the stack: NsNetStack* or NetTx* */
  /* this CPU's softnet_data.xmit */
  struct netdev_xmit *(*xmit)          (gpointer owner, NsThread *t);
  /* the stack's bottom halves: local_bh_disable / __local_bh_enable_ip, which runs the
   * softirqs raised meanwhile (softirq.h) */
  const SoftirqCtx    *softirq;
  /* egress_needed_key and, when it is on, sch_handle_egress (NULL: the skb is gone,
   * *ret says what __dev_queue_xmit returns) */
  const gboolean      *egress_needed_key;
  struct sk_buff     *(*egress)        (NsThread *t, gpointer owner, struct sk_buff *skb,
                                        int *ret, struct net_device *dev);
  struct list_head_ns *ptype_all;         /* the global ptype_all list head */
  const guint64       *jiffies;
  /* where a dropped skb goes (kfree_skb) and dev->core_stats is allocated */
  NsSkbAlloc          *alloc;
  NsArena             *arena;
  guint                n_cpus;
} NetDevCore;

/* net/core/dev.c: dev_queue_xmit (→ __dev_queue_xmit, the noqueue path) and
 * netdev_start_xmit, the driver's ndo_start_xmit through its pointer
 * (models/net/dev.c). */
int                  dev_queue_xmit      (NsThread *t, const NetDevCore *core,
                                          struct sk_buff *skb);
int                  netdev_start_xmit   (NsThread *t, const NetDevCore *core,
                                          struct sk_buff *skb, struct net_device *dev,
                                          struct netdev_queue *txq, gboolean more);

/* dev_core_stats_rx_dropped_inc: this CPU's rx_dropped in dev->core_stats (allocated at
 * the first drop), as enqueue_to_backlog's drop does (models/net/dev.c). */
void                 dev_core_stats_rx_dropped_inc (NsThread *t, const NetDevCore *core,
                                                    struct net_device *dev);

/* net/core/dev.c transmit helpers both device paths take (models/net/dev.c). */
/* netdev_core_pick_tx: queue 0 of a one-queue device (sets skb's sender_cpu and mapping). */
struct netdev_queue *netdev_core_pick_tx (NsThread *t, struct net_device *dev,
                                          struct sk_buff *skb);
/* validate_xmit_skb: features and the offload tests; no GSO, VLAN or xfrm work. */
struct sk_buff      *validate_xmit_skb   (NsThread *t, struct sk_buff *skb,
                                          struct net_device *dev);

G_END_DECLS
