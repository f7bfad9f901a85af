/* skbuff.h — struct sk_buff and struct skb_shared_info at the x86-64 v6.x offsets, and the
 * allocator pieces an skb's life goes through (include/linux/skbuff.h, net/core/skbuff.c,
 * mm/slub.c, mm/page_alloc.c).
 *
 * Layout: kernel-spec.md §6.2 (v6.1–v6.8 with NF_CONNTRACK, SKB_EXTENSIONS, NET_SCHED,
 * RX_BUSY_POLL, NETWORK_SECMARK; 232 bytes, four cache lines, hand-computed, not pahole).
 * v6.9 is assumed unchanged on the fields used here (§6.2 note 5 [U]). Objects come from
 * the machine's arena, 64-byte aligned like skbuff_cache (SLAB_HWCACHE_ALIGN, §6.4), so
 * "CLn" of the kernel is line n of the simulated object. Host pointers are 8 bytes, like
 * the kernel's, so pointer fields keep their offsets.
 *
 * The allocator (skbuff.c) is the one model of SLUB, kmalloc and the page allocator every
 * path uses: seed 000's 8920-byte UDP datagram (the sk_buff from the skbuff_cache slab,
 * per-CPU freelist, remote frees through the slab's own freelist; a head above
 * KMALLOC_MAX_CACHE_SIZE, 8 KiB on SLUB, is kmalloc_large, an order-n compound page from
 * the per-CPU page lists (PCP) that refill from and drain to the zone's free lists under
 * the zone lock in batches) and seed 002's pktgen frame (a 576-byte head from kmalloc-1k,
 * freed on the allocating CPU; the page-fragment heads of sched/skb_xmit.c's
 * __netdev_alloc_skb). */
#pragma once
#include <glib.h>
#include <stddef.h>
#include "machine.h"
#include "sync.h"

G_BEGIN_DECLS

struct sock;
struct net_device;
struct dst_entry;

/* struct sk_buff_head (24 bytes): the queue head of socket and backlog queues (sock.h
 * uses it from here). */
struct sk_buff_head {
  struct sk_buff *next;
  struct sk_buff *prev;
  guint32         qlen;
  NsSpinlock      lock;
};

/* gfp flags (include/linux/gfp_types.h, v6.1): what the allocator tests of them. */
#define __GFP_HIGH            0x20u
#define __GFP_IO              0x40u
#define __GFP_FS              0x80u
#define __GFP_DIRECT_RECLAIM  0x400u
#define __GFP_KSWAPD_RECLAIM  0x800u
#define __GFP_NOWARN          0x2000u
#define __GFP_NOMEMALLOC      0x80000u
#define GFP_KERNEL            (__GFP_DIRECT_RECLAIM | __GFP_KSWAPD_RECLAIM | __GFP_IO | \
                               __GFP_FS)
#define GFP_NOWAIT            __GFP_KSWAPD_RECLAIM
#define GFP_ATOMIC            (__GFP_HIGH | __GFP_KSWAPD_RECLAIM)

/* ip_summed values (include/linux/skbuff.h). */
#define CHECKSUM_NONE         0
#define CHECKSUM_UNNECESSARY  1
#define CHECKSUM_COMPLETE     2
#define CHECKSUM_PARTIAL      3

/* UDP's use of the dev/dev_scratch word once an skb sits in a socket queue (§5.3). */
struct udp_dev_scratch {
  guint32  _tsize_state;        /* truesize | 0x80000000 when the head state is released */
  guint16  len;                 /* payload length after the UDP header pull */
  guint8   is_linear;
  guint8   csum_unnecessary;
};
#define UDP_SKB_IS_STATELESS  0x80000000u

/* struct sk_buff, v6.x (kernel-spec §6.2). Every offset asserted below is Debian 6.1.176's
 * (gdb on its DWARF, 2026-12-04); 6.12.111's moves csum, hash, napi_id and alloc_cpu
 * within cache line 2 (128-191) and keeps the rest. */
struct sk_buff {
  struct sk_buff    *next;                 /*   0 CL0 */
  struct sk_buff    *prev;                 /*   8 */
  union {                                  /*  16 */
    struct net_device *dev;
    guint64            dev_scratch;
  };
  struct sock       *sk;                   /*  24 */
  gint64             tstamp;               /*  32 */
  char               cb[48];               /*  40 CL0-1: IPCB / UDP_SKB_CB / qdisc cb */
  struct dst_entry  *_skb_refdst;          /*  88 CL1 */
  gpointer           destructor;           /*  96: model: the NsFunc called through it */
  guint64            _nfct;                /* 104 */
  guint32            len;                  /* 112 */
  guint32            data_len;             /* 116 */
  guint16            mac_len;              /* 120 */
  guint16            hdr_len;              /* 122 */
  guint16            queue_mapping;        /* 124 */
  guint8             cloned_bits;          /* 126: cloned, nohdr, fclone, peeked, head_frag */
  guint8             active_extensions;    /* 127 */
  guint8             pkt_type;             /* 128 CL2: first "headers" flag byte */
  guint8             ip_summed;            /* 129: (a bit field in the kernel) */
  guint8             csum_valid;           /* 130 */
  guint8             header_bits[3];       /* 131 */
  guint16            tc_index;             /* 134 */
  union {                                  /* 136 */
    guint32          csum;
    struct {
      guint16        csum_start;
      guint16        csum_offset;
    };
  };
  guint32            priority;             /* 140 */
  gint32             skb_iif;              /* 144 */
  guint32            hash;                 /* 148 */
  guint32            vlan_all;             /* 152 */
  guint32            napi_id;              /* 156 */
  guint16            alloc_cpu;            /* 160 */
  guint16            _hole162;
  guint32            secmark;              /* 164 */
  guint32            mark;                 /* 168 */
  guint16            inner_protocol;       /* 172 */
  guint16            inner_transport_header; /* 174 */
  guint16            inner_network_header; /* 176 */
  guint16            inner_mac_header;     /* 178 */
  guint16            protocol;             /* 180 (be16) */
  guint16            transport_header;     /* 182 */
  guint16            network_header;       /* 184 */
  guint16            mac_header;           /* 186 */
  guint32            tail;                 /* 188 */
  guint32            end;                  /* 192 CL3 */
  guint32            _hole196;
  guchar            *head;                 /* 200 */
  guchar            *data;                 /* 208 */
  guint32            truesize;             /* 216 */
  gint32             users;                /* 220 */
  gpointer           extensions;           /* 224 */
};                                         /* 232 */

/* skb_frag_t (struct bio_vec from v6.5, the same 16 bytes before it): a page, the
 * fragment's length and its offset in the page. */
struct page_ns;
typedef struct {
  struct page_ns *bv_page;
  guint32         bv_len;
  guint32         bv_offset;
} skb_frag_t;
G_STATIC_ASSERT (sizeof (skb_frag_t) == 16);
#define MAX_SKB_FRAGS  17u

/* struct skb_shared_info (at skb->head + skb->end): the fields used; 320 bytes with
 * MAX_SKB_FRAGS = 17 16-byte frags (SKB_DATA_ALIGN(sizeof) = 320 on x86-64 [R]). */
struct skb_shared_info {
  guint8    flags;                         /*   0 */
  guint8    meta_len;
  guint8    nr_frags;                      /*   2 */
  guint8    tx_flags;
  guint16   gso_size;                      /*   4 */
  guint16   gso_segs;
  struct sk_buff *frag_list;               /*   8 */
  guint64   hwtstamps;                     /*  16 */
  guint32   gso_type;                      /*  24 */
  guint32   tskey;                         /*  28 */
  gint32    dataref;                       /*  32 */
  guint32   xdp_frags_size;                /*  36 */
  gpointer  destructor_arg;                /*  40 */
  skb_frag_t frags[MAX_SKB_FRAGS];         /*  48 */
};

/* skb->head_frag in cloned_bits. */
#define SKB_HEAD_FRAG         0x10u
/* The page-fragment cache's page: order 3 (PAGE_FRAG_CACHE_MAX_SIZE, PAGE_SIZE < 32 KiB). */
#define PAGE_FRAG_CACHE_MAX_SIZE  32768u
#define PAGE_FRAG_CACHE_MAX_ORDER 3u

/* struct page (the refcount the frag cache and page_frag_free use). */
struct page_ns {
  gulong              flags;
  gpointer            compound_head;
  guint8              _pad16[36];
  gint32              _refcount;          /* 52 */
  guint8              _pad56[8];
};
G_STATIC_ASSERT (sizeof (struct page_ns) == 64);

/* struct page_frag: the page a task's sendmsg fills (current->task_frag: sk_page_frag for
 * a socket with sk_use_task_frag, UDP's default), and how far it is filled. */
struct page_frag {
  struct page_ns *page;
  guint32         offset;
  guint32         size;
};
/* SKB_FRAG_PAGE_ORDER: get_order(32768) with 4 KiB pages. */
#define SKB_FRAG_PAGE_ORDER  3u

#define SKB_DATA_ALIGN(x)   (((x) + 63u) & ~63u)
#define SKB_SHINFO_SIZE     SKB_DATA_ALIGN ((guint) sizeof (struct skb_shared_info))
/* SKB_MAX_ALLOC = SKB_MAX_ORDER(0, 2): an order-2 block less the shared info, 16064 bytes
 * with 4 KiB pages; __ip_append_data goes paged at fraglen + alloc_extra ≥ this on an SG
 * device. */
#define SKB_MAX_ALLOC       ((4096u << 2) - SKB_SHINFO_SIZE)
/* SKB_TRUESIZE(X): X + SKB_DATA_ALIGN(sizeof(sk_buff)) + SKB_DATA_ALIGN(sizeof(shinfo)). */
#define SKB_TRUESIZE(x)     ((x) + SKB_DATA_ALIGN ((guint) sizeof (struct sk_buff)) + \
                             SKB_SHINFO_SIZE)

G_STATIC_ASSERT (sizeof (struct udp_dev_scratch) == 8);
G_STATIC_ASSERT (offsetof (struct sk_buff, dev_scratch) == 16);
G_STATIC_ASSERT (offsetof (struct sk_buff, sk) == 24);
G_STATIC_ASSERT (offsetof (struct sk_buff, cb) == 40);
G_STATIC_ASSERT (offsetof (struct sk_buff, _skb_refdst) == 88);
G_STATIC_ASSERT (offsetof (struct sk_buff, len) == 112);
G_STATIC_ASSERT (offsetof (struct sk_buff, cloned_bits) == 126);
G_STATIC_ASSERT (offsetof (struct sk_buff, pkt_type) == 128);
G_STATIC_ASSERT (offsetof (struct sk_buff, tc_index) == 134);
G_STATIC_ASSERT (offsetof (struct sk_buff, csum) == 136);
G_STATIC_ASSERT (offsetof (struct sk_buff, hash) == 148);
G_STATIC_ASSERT (offsetof (struct sk_buff, napi_id) == 156);
G_STATIC_ASSERT (offsetof (struct sk_buff, alloc_cpu) == 160);
G_STATIC_ASSERT (offsetof (struct sk_buff, protocol) == 180);
G_STATIC_ASSERT (offsetof (struct sk_buff, transport_header) == 182);
G_STATIC_ASSERT (offsetof (struct sk_buff, network_header) == 184);
G_STATIC_ASSERT (offsetof (struct sk_buff, tail) == 188);
G_STATIC_ASSERT (offsetof (struct sk_buff, end) == 192);
G_STATIC_ASSERT (offsetof (struct sk_buff, head) == 200);
G_STATIC_ASSERT (offsetof (struct sk_buff, data) == 208);
G_STATIC_ASSERT (offsetof (struct sk_buff, truesize) == 216);
G_STATIC_ASSERT (offsetof (struct sk_buff, users) == 220);
G_STATIC_ASSERT (offsetof (struct sk_buff, extensions) == 224);
G_STATIC_ASSERT (sizeof (struct sk_buff) == 232);
G_STATIC_ASSERT (offsetof (struct skb_shared_info, dataref) == 32);
G_STATIC_ASSERT (SKB_SHINFO_SIZE == 320);

/* ---- plain accessors (no cost: callers charge the instructions they stand for) ---- */

static inline struct skb_shared_info *
skb_shinfo (const struct sk_buff *skb)
{
  return (struct skb_shared_info *) (skb->head + skb->end);
}

static inline guchar *
skb_network_header (const struct sk_buff *skb)
{
  return skb->head + skb->network_header;
}

static inline guchar *
skb_transport_header (const struct sk_buff *skb)
{
  return skb->head + skb->transport_header;
}

static inline struct dst_entry *
skb_dst (const struct sk_buff *skb)
{
  return skb->_skb_refdst;
}

static inline gboolean
skb_is_nonlinear (const struct sk_buff *skb)
{
  return skb->data_len != 0;
}

static inline void
skb_reserve (struct sk_buff *skb, guint len)
{
  skb->data += len;
  skb->tail += len;
}

/* __skb_put / __skb_push: the inline forms; skb_put / skb_push below are the exported
 * functions, with their cost. */
static inline guchar *
__skb_put (struct sk_buff *skb, guint len)
{
  guchar *old = skb->head + skb->tail;

  skb->tail += len;
  skb->len += len;
  return old;
}

static inline guchar *
__skb_push (struct sk_buff *skb, guint len)
{
  skb->data -= len;
  skb->len += len;
  return skb->data;
}

static inline guchar *
__skb_pull (struct sk_buff *skb, guint len)
{
  skb->len -= len;
  skb->data += len;
  return skb->data;
}

static inline void
skb_reset_network_header (struct sk_buff *skb)
{
  skb->network_header = (guint16) (skb->data - skb->head);
}

static inline void
skb_reset_transport_header (struct sk_buff *skb)
{
  skb->transport_header = (guint16) (skb->data - skb->head);
}

static inline void
skb_reset_mac_header (struct sk_buff *skb)
{
  skb->mac_header = (guint16) (skb->data - skb->head);
}

/* sk_buff_head queue operations (the lock is the caller's business). */
static inline void
__skb_queue_head_init (struct sk_buff_head *list)
{
  list->next = list->prev = (struct sk_buff *) list;
  list->qlen = 0;
}

static inline gboolean
skb_queue_empty (const struct sk_buff_head *list)
{
  return list->next == (const struct sk_buff *) list;
}

void            __skb_queue_tail   (struct sk_buff_head *list, struct sk_buff *skb);
struct sk_buff *__skb_dequeue      (struct sk_buff_head *list);
/* Moves every skb of list to the tail of head and empties list. */
void            skb_queue_splice_tail_init (struct sk_buff_head *list, struct sk_buff_head *head);

/* ---- allocator state of one simulated machine ---- */

typedef struct _NsSkbAlloc NsSkbAlloc;

/* Creates the skbuff_cache slab, the kmalloc caches and the page allocator's per-CPU
 * lists for a machine with n_cpus CPUs. */
NsSkbAlloc     *ns_skb_alloc_new      (NsMachine *machine);
/* Frees the allocator's host-side state (NULL is fine). */
void            ns_skb_alloc_free     (NsSkbAlloc *alloc);
/* The stack whose build options the allocator follows (CONFIG_PREEMPT_VOLUNTARY's
 * might_resched, CONFIG_DEBUG_LIST, CONFIG_PREEMPT_RCU, out-of-line unlocks); without one
 * none of those calls is made. */
struct _NsNetStack;
void            ns_skb_alloc_set_stack (NsSkbAlloc *alloc, struct _NsNetStack *stack);
/* Objects live right now (for the conservation tests): sk_buffs, and head buffers. */
guint64         ns_skb_alloc_live     (const NsSkbAlloc *alloc, guint64 *heads);

/* alloc_pages_node(NUMA_NO_NODE, gfp | __GFP_COMP, order) on t's CPU: a compound page
 * from the page allocator (refcount 1), every page of which virt_to_head_page maps back
 * to its head (the frag cache's refill takes its pages so). Returns the head page. */
struct page_ns *alloc_pages_node      (NsThread *t, NsSkbAlloc *alloc, guint gfp,
                                       guint order);
/* __get_free_pages(gfp, order) on t's CPU: a block of 1 << order pages from the page
 * allocator (not compound), its address; free_pages(addr, order) gives it back to t's
 * CPU's per-CPU list. */
guchar         *__get_free_pages      (NsThread *t, NsSkbAlloc *alloc, guint gfp, guint order);
void            free_pages            (NsThread *t, NsSkbAlloc *alloc, gpointer addr,
                                       guint order);
/* virt_to_head_page: the head page of the alloc_pages_node block holding addr, or NULL. */
struct page_ns *virt_to_head_page     (NsSkbAlloc *alloc, gconstpointer addr);

/* The managed pages of the node's ZONE_NORMAL, from which calculate_normal_threshold
 * sets the per-CPU vmstat thresholds: the UDP hash size's assumption of a machine with
 * 128 GiB or more (netstack.c, UDP_HTABLE_ENTRIES) less the 4 GiB below ZONE_NORMAL,
 * 124 GiB in 4 KiB pages, on one node [U: the seed machine's memory is not recorded; with
 * 64 or more CPUs online any ZONE_NORMAL of 8 GiB or more gives the same threshold, the
 * cap of 125]. */
#define NS_ZONE_NORMAL_PAGES  (G_GUINT64_CONSTANT (124) << 18)
/* The node statistic NR_SLAB_UNRECLAIMABLE_B in pages (kmalloc_large's pages): the
 * node's counter, into which a CPU's diff is folded once past its threshold
 * (__mod_node_page_state); *diff gets cpu's diff not yet folded, *threshold its
 * stat_threshold (either may be NULL). */
gint64          ns_skb_alloc_node_slab_pages (const NsSkbAlloc *alloc, guint cpu, gint *diff,
                                              gint *threshold);
/* The zone statistic NR_FREE_PAGES, counted from 0 when the allocator was made: the
 * zone's counter, into which a CPU's diff is folded once past its threshold
 * (__mod_zone_page_state); *diff gets cpu's diff not yet folded, *pcp_pages the pages on
 * cpu's per-CPU lists (either may be NULL). */
gint64          ns_skb_alloc_zone_free_pages (const NsSkbAlloc *alloc, guint cpu, gint *diff,
                                              guint *pcp_pages);
/* Page-fragment pages not yet freed: sendmsg's (held by a page_frag or by skb frags) and
 * the frag cache's (alloc_pages_node). */
guint64         ns_skb_alloc_live_frag_pages (const NsSkbAlloc *alloc);
/* skb_page_frag_refill(sz, pfrag, GFP_KERNEL) on t's CPU: makes sz bytes free at
 * pfrag->offset — the same page from 0 when nobody else holds it, its rest while sz bytes
 * remain, else a new order-3 compound page (the old one put). Always TRUE here. */
gboolean        skb_page_frag_refill  (NsThread *t, NsSkbAlloc *alloc, guint sz,
                                       struct page_frag *pfrag);
/* page_address: the memory of a page the allocator handed out. */
guchar         *ns_page_address       (NsSkbAlloc *alloc, struct page_ns *page);
/* get_page / put_page: a reference more or less on a compound page (locked inc / dec);
 * the last put frees the page to t's CPU's per-CPU list. */
void            get_page              (NsThread *t, struct page_ns *page);
void            put_page              (NsThread *t, NsSkbAlloc *alloc, struct page_ns *page);

/* __alloc_skb(size, gfp, 0, NUMA_NO_NODE) on t's CPU: sk_buff from skbuff_cache
 * (kmem_cache_alloc_node), head of size + shinfo from kmalloc_reserve (skb_small_head_cache
 * from v6.3 up to 640 bytes, a kmalloc-N object up to 8 KiB, kmalloc_large above), the
 * header cleared up to `tail`, __build_skb_around: truesize = SKB_TRUESIZE(head size),
 * users = 1, dataref = 1. gfp with __GFP_DIRECT_RECLAIM (GFP_KERNEL) may resched. */
struct sk_buff *__alloc_skb           (NsThread *t, NsSkbAlloc *alloc, guint size,
                                       guint gfp);
/* kmem_cache_alloc(skbuff_cache, gfp): an uninitialised sk_buff (__build_skb's). */
struct sk_buff *kmem_cache_alloc_skbuff (NsThread *t, NsSkbAlloc *alloc, guint gfp);
/* __build_skb_around(skb, data, frag_size): head and data at data, the shared info at the
 * end of its frag_size bytes, the fields from `tail` on, users = dataref = 1. */
void            __build_skb_around    (NsThread *t, NsSkbAlloc *alloc, struct sk_buff *skb,
                                       guchar *data, guint frag_size);
/* skb_put / skb_push: the exported functions (tail/len grow; data moves back). */
guchar         *skb_put               (NsThread *t, struct sk_buff *skb, guint len);
guchar         *skb_push              (NsThread *t, struct sk_buff *skb, guint len);
/* skb_release_data + kfree_skbmem: frees the head (page_frag_free, kmem_cache_free or
 * kfree) and the sk_buff (kmem_cache_free) on t's CPU; the pieces a remote CPU allocated
 * take SLUB's remote-free path. Used by __consume_stateless_skb and kfree_skb. */
void            skb_release_data      (NsThread *t, NsSkbAlloc *alloc, struct sk_buff *skb);
void            kfree_skbmem          (NsThread *t, NsSkbAlloc *alloc, struct sk_buff *skb);
/* kfree_skb (kfree_skb_reason) and consume_skb: drop a reference; on the last
 * skb_release_head_state (puts a held route, runs the destructor: sock_wfree; no
 * conntrack or extensions), then the frees. kfree_skb (NULL) does nothing. */
void            kfree_skb             (NsThread *t, NsSkbAlloc *alloc, struct sk_buff *skb);
void            consume_skb           (NsThread *t, NsSkbAlloc *alloc, struct sk_buff *skb);
/* __consume_stateless_skb: release data, free the sk_buff; no head state work. */
void            __consume_stateless_skb (NsThread *t, NsSkbAlloc *alloc, struct sk_buff *skb);

extern NsFunc skb_fn___alloc_skb;
extern NsFunc skb_fn_kmem_cache_alloc_node;
extern NsFunc skb_fn_kmem_cache_free;
extern NsFunc skb_fn_kfree;
extern NsFunc skb_fn___kmalloc_node_track_caller;
extern NsFunc skb_fn_skb_release_data;
extern NsFunc skb_fn_kfree_skbmem;
extern NsFunc skb_fn_kfree_skb_reason;
extern NsFunc skb_fn___alloc_pages;
extern NsFunc skb_fn_free_unref_page;
extern NsFunc skb_fn_should_failslab;
extern NsFunc skb_fn_memcg_slab_post_alloc_hook;
extern NsFunc skb_fn___build_skb_around;
extern NsFunc skb_fn_kmalloc_reserve;
extern NsFunc skb_fn_kmalloc_size_roundup;
extern NsFunc skb_fn_skb_free_head;
extern NsFunc skb_fn_cache_from_obj;
extern NsFunc skb_fn_skb_clone_tx_timestamp;

G_END_DECLS
