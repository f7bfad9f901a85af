/* skbuff.c — allocating and freeing sk_buffs, for every path the simulator runs (seed
 * 000's UDP datagrams over loopback, seed 002's pktgen frames): net/core/skbuff.c
 * (__alloc_skb, kmalloc_reserve, __build_skb_around, skb_put, skb_push, the frees:
 * kfree_skb_reason, consume_skb, __consume_stateless_skb, skb_release_head_state,
 * skb_release_data, skb_free_head, kfree_skbmem), SLUB (mm/slub.c, mm/slab_common.c:
 * kmem_cache_alloc_node, kmem_cache_alloc, __kmem_cache_alloc_node, kmalloc_slab,
 * kmalloc_size_roundup, __kmalloc_node_track_caller, kmem_cache_free, __kmem_cache_free,
 * kfree, the remote free __slab_free) and the page allocator's per-CPU lists
 * (mm/page_alloc.c) that kmalloc_large uses for heads above 8 KiB, with page_frag_free.
 * Which branch runs is the kernel's choice by size and version: a head up to 8 KiB is a
 * kmalloc-N object (seed 002's 576 bytes: kmalloc-1k), or from v6.3 up to 640 bytes an
 * skb_small_head_cache object; a larger one (seed 000's 9344 bytes) is an order-n page.
 * models/net/sched/skb_xmit.c keeps what only __netdev_alloc_skb uses (the napi
 * page-fragment cache, __build_skb) and calls this file for the rest.
 *
 * What the model keeps of each allocator:
 *  - SLUB (skbuff_cache, skb_small_head_cache, kmalloc-N): per cache a struct kmem_cache
 *    line (cpu_slab, offset, random: read on every allocation and free); per CPU a
 *    kmem_cache_cpu line (freelist, tid, slab); per CPU the struct slab line of the slab
 *    it allocates from. An allocation reads the object's free pointer (SLUB keeps it
 *    inside the free object, at the middle: s->offset = ALIGN_DOWN(object_size / 2,
 *    sizeof(void *)), v5.7+) and updates the cpu line; when the CPU's freelist runs out
 *    (objects freed on other CPUs went to their slab's own freelist) it takes the slab's
 *    freelist back with a cmpxchg (get_freelist). A free on the allocating CPU is the fast
 *    path and puts the object back on that CPU's freelist; on another CPU it is
 *    __slab_free: write the free pointer, cmpxchg_double on the allocating CPU's slab
 *    line. Where the objects sit is slab.c's: each CPU carves its own slabs of
 *    calculate_order's size (shuffled under CONFIG_SLAB_FREELIST_RANDOM), and a freed
 *    object is the next its allocating CPU hands out (most recently freed first).
 *  - The page allocator (order ≤ 3 goes through the PCP lists, v5.13+): per CPU a
 *    per_cpu_pages line and a list of free blocks; the zone has a lock and a free list.
 *    Allocation pops the newest block of the CPU's list; an empty list is refilled with
 *    nr_pcp_alloc blocks from the zone under zone->lock (rmqueue_bulk). A free pushes
 *    the block on the freeing CPU's list; at pcp->high pages, nr_pcp_free pages go back
 *    to the zone, oldest first (free_pcppages_bulk). So a head the receiver frees is
 *    reused by the sender only after passing through the zone: the reuse distance, and
 *    therefore where its lines still are, comes out of the batch sizes. Each order-2
 *    block has four struct pages (64 bytes each) that the allocator writes.
 *  - Page fragments: the frag cache's order-3 pages (sched/skb_xmit.c) come from the page
 *    allocator through alloc_pages_node, which maps each of their pages to the head
 *    (virt_to_head_page); page_frag_free drops the head's refcount and frees the page at
 *    zero. sendmsg's (skb_page_frag_refill) are found by their struct page instead.
 * Batch sizes are the v6.9 formulas for a large zone (see the constants). */
#include "config.h"
#include <string.h>
#include "kchange.h"
#include "skbuff.h"
#include "netstack.h"
#include "ip.h"
#include "slab.h"
#include "memset.h"

/* ---- kernel facts (mm/slub.c, mm/page_alloc.c, include/linux/slab.h) ---- */

#define PAGE_SIZE                4096u
/* SLUB: KMALLOC_SHIFT_HIGH = PAGE_SHIFT + 1, so kmalloc caches end at 8 KiB and larger
 * requests are kmalloc_large page allocations (include/linux/slab.h). */
#define KMALLOC_MAX_CACHE_SIZE   8192u
/* skb_small_head_cache object size, SKB_HEAD_ALIGN(MAX_TCP_HEADER) on x86-64 (v6.3+):
 * MAX_TCP_HEADER 320 rounded + 320 bytes of shinfo [R]. */
#define SKB_SMALL_HEAD_CACHE_SIZE 640u
/* zone_batchsize() of a zone over 1 GiB: min(managed >> 10, 1 MiB / PAGE_SIZE) / 4,
 * rounded to 2^n - 1 = 63 pages. nr_pcp_alloc() takes max(batch >> order, 2) blocks of an
 * order-n allocation. pcp->high: zone_highsize's floor batch << 2 = 252 pages (a larger
 * auto-tuned high only lengthens the reuse distance further). nr_pcp_free() returns about
 * one batch. */
#define PCP_BATCH_PAGES          63u
/* Orders the model's page lists hold: 0 to MAX_ORDER (10 in v6.1-6.9, 4 MiB blocks). The
 * kernel keeps a PCP list and a buddy free list per order; a block is only ever handed
 * out again at its own order. */
#define PAGE_ORDERS              11u
#define PCP_HIGH_PAGES           (PCP_BATCH_PAGES << 2)
/* calculate_normal_threshold's cap (mm/vmstat.c: "Maximum threshold is 125"). */
#define STAT_THRESHOLD_MAX       125

/* ---- model functions. Text sizes: the Debian 6.1.176 binary's (nm -S;
 * doc/census/text-sizes-6.1.176.txt), except those doc/census/text-sizes-kept.txt names.
 * Instruction counts: the census of the Debian 6.1.176 binary (doc/census/skb.md for seed
 * 002's kmalloc-1k head and the same-CPU frees; doc/census/seed000/send.md for the
 * GFP_KERNEL allocation and the large head, recv.md for the cross-CPU free), each
 * function's body = its total less its prologue, epilogue and return, which the machine
 * charges per call (each NS_FUNC's frame); with
 * CONFIG_INIT_ON_ALLOC_DEFAULT_ON off (the Kconfig default) the counts leave out what
 * init_on_alloc adds, which slab_init_on_alloc and kernel_init_pages charge where the
 * build says y (Debian's setting, as the census binary's). Where a count is split between call sites
 * the split is an estimate and the total the census'. Functions the binary enters by a tail
 * jmp are entered by one (ns_tail_next: one return for both). ---- */

NS_FUNC (skb_fn___alloc_skb, "__alloc_skb", 405, 13, NS_FN_EXTERN, 8);
NS_FUNC (skb_fn_kmem_cache_alloc_node, "kmem_cache_alloc_node", 773, 15, NS_FN_EXTERN, 40);
/* kmem_cache_alloc: __build_skb's (sched/skb_xmit.c); __kmem_cache_alloc_node and
 * kmalloc_slab: kmalloc's up to 8 KiB; __kmem_cache_free: kfree's of a slab object */
static NS_FUNC (fn_kmem_cache_alloc, "kmem_cache_alloc", 757, 15, NS_FN_EXTERN, 400);
static NS_FUNC (fn___kmem_cache_alloc_node, "__kmem_cache_alloc_node", 668, 15, NS_FN_EXTERN,
                40);
static NS_FUNC (fn_kmalloc_slab, "kmalloc_slab", 135, 1, NS_FN_EXTERN, 40);
NS_FUNC (skb_fn_kmem_cache_free, "kmem_cache_free", 773, 11, NS_FN_EXTERN, 200);
static NS_FUNC (fn___kmem_cache_free, "__kmem_cache_free", 658, 11, NS_FN_EXTERN, 40);
static NS_FUNC (fn___slab_free, "__slab_free", 714, 15, NS_FN_STATIC | NS_FN_NOINLINE, 2);
/* 6.1's cmpxchg_double_slab.constprop.0.isra.0; 6.9 calls it slab_update_freelist
 * (declared inline: kept out of line as the 6.1 binary has it, a doubt). */
static NS_FUNC (fn_cmpxchg_double_slab, "cmpxchg_double_slab", 205, 2,
                NS_FN_STATIC | NS_FN_NOINLINE, 4);
NS_FUNC (skb_fn___kmalloc_node_track_caller, "__kmalloc_node_track_caller", 327, 13,
                NS_FN_EXTERN, 20);
static NS_FUNC (fn___kmalloc_large_node, "__kmalloc_large_node", 211, 7,
                NS_FN_STATIC | NS_FN_NOINLINE, 2);
NS_FUNC (skb_fn___alloc_pages, "__alloc_pages", 809, 13, NS_FN_EXTERN, 30);
/* __get_free_pages → alloc_pages → alloc_pages_mpol, and free_pages (select's poll table
 * page, fs/select.c) */
static NS_FUNC (fn___get_free_pages, "__get_free_pages", 52, 1, NS_FN_EXTERN, 300);
static NS_FUNC (fn_alloc_pages, "alloc_pages", 131, 2, NS_FN_EXTERN | NS_FN_ENDBR, 400);
static NS_FUNC (fn_alloc_pages_mpol, "alloc_pages_mpol", 478, 14, NS_FN_EXTERN | NS_FN_ENDBR, 10);
static NS_FUNC (fn_free_pages, "free_pages", 71, 1, NS_FN_EXTERN, 400);
static NS_FUNC (fn_should_fail_alloc_page, "should_fail_alloc_page", 12, 1, NS_FN_EXTERN, 2);
static NS_FUNC (fn_get_page_from_freelist, "get_page_from_freelist", 4510, 15, NS_FN_STATIC, 3);
/* clear_page_erms (arch/x86/lib/clear_page_64.S): the body clear_page's alternative picks
 * on an ERMS CPU (every profiled one) */
static NS_FUNC (fn_clear_page_erms, "clear_page_erms", 14, 0, NS_FN_EXTERN | NS_FN_NOINLINE,
                4);
static NS_FUNC (fn___zone_watermark_ok, "__zone_watermark_ok", 320, 1, NS_FN_EXTERN, 10);
static NS_FUNC (fn__raw_spin_trylock, "_raw_spin_trylock", 62, 1, NS_FN_EXTERN, 200);
static NS_FUNC (fn_rmqueue_bulk, "rmqueue_bulk", 1473, 15, NS_FN_STATIC | NS_FN_NOINLINE, 2);
/* 6.1's mod_lruvec_page_state.constprop.0: the irq-save wrapper, out of line there. */
static NS_FUNC (fn_mod_lruvec_page_state, "mod_lruvec_page_state", 45, 2,
                NS_FN_STATIC | NS_FN_NOINLINE, 2);
static NS_FUNC (fn___mod_lruvec_page_state, "__mod_lruvec_page_state", 307, 11, NS_FN_EXTERN, 30);
static NS_FUNC (fn___mod_node_page_state, "__mod_node_page_state", 112, 1, NS_FN_EXTERN, 30);
static NS_FUNC (fn___mod_zone_page_state, "__mod_zone_page_state", 95, 1, NS_FN_EXTERN, 30);
static NS_FUNC (fn___free_one_page, "__free_one_page", 1120, 14, NS_FN_STATIC | NS_FN_NOINLINE, 4);
NS_FUNC (skb_fn_kfree, "kfree", 271, 3, NS_FN_EXTERN, 500);
static NS_FUNC (fn_free_large_kmalloc, "free_large_kmalloc", 101, 5, NS_FN_EXTERN, 2);
static NS_FUNC (fn___free_pages, "__free_pages", 203, 7, NS_FN_EXTERN, 100);
NS_FUNC (skb_fn_free_unref_page, "free_unref_page", 450, 15, NS_FN_EXTERN, 10);
/* v6.5+ free_unref_page_prepare (free_pages_prepare inlined; 982 bytes in Ubuntu's 6.8,
 * DepSurf's function page f/free_unref_page_prepare.md): 6.1 called free_pcp_prepare
 * there; the count is 6.1's free_pcp_prepare. */
static NS_FUNC (fn_free_unref_page_prepare, "free_unref_page_prepare", 982, NS_FRAME_UNKNOWN,
                NS_FN_STATIC | NS_FN_NOINLINE, 2);
static NS_FUNC (fn_free_unref_page_commit, "free_unref_page_commit", 371, 15,
                NS_FN_STATIC | NS_FN_NOINLINE, 2);
static NS_FUNC (fn_free_pcppages_bulk, "free_pcppages_bulk", 729, 15, NS_FN_STATIC, 3);
/* the free of a page-fragment head (the frag cache: sched/skb_xmit.c) */
static NS_FUNC (fn_page_frag_free, "page_frag_free", 203, 1, NS_FN_EXTERN, 40);
/* sendmsg's page fragments (sk_page_frag_refill's, net/core/sock.c) and their free */
static NS_FUNC (fn_skb_page_frag_refill, "skb_page_frag_refill", 287, 7, NS_FN_EXTERN, 4);
static NS_FUNC (fn___folio_put, "__folio_put", 110, 3, NS_FN_EXTERN, 60);
NS_FUNC (skb_fn_skb_release_data, "skb_release_data", 419, 9, NS_FN_STATIC, 4);
NS_FUNC (skb_fn_kfree_skbmem, "kfree_skbmem", 122, 1, NS_FN_STATIC, 4);
NS_FUNC (skb_fn_kfree_skb_reason, "kfree_skb_reason", 194, 3, NS_FN_EXTERN, 300);
static NS_FUNC (fn___consume_stateless_skb, "__consume_stateless_skb", 94, 3, NS_FN_EXTERN, 3);
/* consume_skb, and __kfree_skb (inlined into it and kfree_skb_reason) with
 * skb_release_head_state: the skb_release_all of pktgen's and dummy's frees */
static NS_FUNC (fn_consume_skb, "consume_skb", 183, 3, NS_FN_EXTERN, 300);
static NS_FUNC (fn___kfree_skb, "__kfree_skb", 41, 3, NS_FN_STATIC | NS_FN_ALWAYS_INLINE, 30);
static NS_FUNC (fn_skb_release_head_state, "skb_release_head_state", 138, 3, NS_FN_EXTERN, 6);
/* skb_put / skb_push: the exported functions (pktgen's headers, ip.c's fragment) */
static NS_FUNC (fn_skb_put, "skb_put", 58, 1, NS_FN_EXTERN, 400);
static NS_FUNC (fn_skb_push, "skb_push", 45, 1, NS_FN_EXTERN, 200);
NS_FUNC (skb_fn_should_failslab, "should_failslab", 12, 1, NS_FN_EXTERN, 400);
NS_FUNC (skb_fn_memcg_slab_post_alloc_hook, "memcg_slab_post_alloc_hook", 543, 14,
         NS_FN_STATIC | NS_FN_NOINLINE, 400);
NS_FUNC (skb_fn___build_skb_around, "__build_skb_around", 181, 5,
         NS_FN_STATIC | NS_FN_NOINLINE, 4);
NS_FUNC (skb_fn_kmalloc_reserve, "kmalloc_reserve", 149, 13, NS_FN_STATIC | NS_FN_NOINLINE, 2);
NS_FUNC (skb_fn_kmalloc_size_roundup, "kmalloc_size_roundup", 100, 1, NS_FN_EXTERN, 20);
NS_FUNC (skb_fn_skb_free_head, "skb_free_head", 110, 3, NS_FN_STATIC | NS_FN_NOINLINE, 4);
NS_FUNC (skb_fn_cache_from_obj, "cache_from_obj", 277, 4, NS_FN_STATIC | NS_FN_NOINLINE, 200);
NS_FUNC (skb_fn_skb_clone_tx_timestamp, "skb_clone_tx_timestamp", 137, 7, NS_FN_EXTERN, 60);

/* ---- allocator state ---- */

typedef struct {
  guint64 freelist;             /* struct kmem_cache_cpu: freelist, tid, slab, ... */
  guint64 tid;
  guint64 slab;
  guint8  pad[40];
} KmemCacheCpu;

typedef struct {
  guint64 freelist;             /* struct slab: freelist + counters (cmpxchg_double) */
  guint64 counters;
  guint8  pad[48];
} SlabLine;

typedef struct {
  const char   *name;
  gsize         size;           /* slot size (allocation class) */
  gsize         object_size;    /* s->object_size: what init_on_alloc zeroes */
  gsize         fp_offset;      /* where SLUB keeps the free pointer in a free object */
  guint         objs_per_slab;
  /* census: +2 instructions at each virt_to_slab/virt_to_folio when the object sits in a
   * tail page of its slab (skb.md): 2 for the kmalloc caches with order > 0 slabs (most of
   * their objects), 0 for skbuff_cache (the census' main case) */
  guint         tail_page;
  NsKmemCache  *objs;           /* where its objects sit (slab.c: per-CPU slabs) */
  gboolean      own_objs;       /* objs is this cache's (else the machine's kmalloc one) */
  gpointer      line;           /* struct kmem_cache: cpu_slab, offset, random; arena */
  KmemCacheCpu *cpu;            /* per CPU, arena */
  SlabLine     *slab;           /* per CPU: the slab that CPU allocates from, arena */
  guint64       live;
} KmemCache;

typedef struct {
  NsSpinlock lock;              /* struct per_cpu_pages (v6.0+): lock, count, high, batch, */
  gint32  count;                /* lists */
  gint32  high;
  gint32  batch;
  guint8  pad[48];
} PerCpuPages;

typedef struct {
  NsSpinlock lock;              /* zone->lock, on its own line */
  guint8     pad[60];
} ZoneLockLine;

typedef struct {
  gint8   stat_threshold;       /* struct per_cpu_nodestat: stat_threshold, */
  gint8   slab_unreclaimable_diff;  /* vm_node_stat_diff[NR_SLAB_UNRECLAIMABLE_B] */
  guint8  pad[62];
} PerCpuNodestat;

typedef struct {
  gint8   stat_threshold;       /* struct per_cpu_zonestat: stat_threshold, */
  gint8   free_pages_diff;      /* vm_stat_diff[NR_FREE_PAGES] */
  guint8  pad[62];
} PerCpuZonestat;

typedef struct {
  gint64  vm_stat;              /* pgdat->vm_stat[NR_SLAB_UNRECLAIMABLE_B] (its line) */
  guint8  pad0[56];
  gint64  vm_node_stat;         /* vm_node_stat[NR_SLAB_UNRECLAIMABLE_B] (global, its line) */
  guint8  pad1[56];
} NodeStatLines;

struct _NsSkbAlloc {
  NsMachine    *machine;
  NsNetStack   *stack;          /* build options (might_resched, DEBUG_LIST, RCU, locks) */
  NsArena      *arena;
  guint         n_cpus;
  gboolean      small_heads;    /* v6.3+: skb_small_head_cache */
  gboolean      init_on_alloc;  /* CONFIG_INIT_ON_ALLOC_DEFAULT_ON: allocations zeroed */
  NsMemsetPath  memset_path;    /* the body __memset runs on this build and CPU */
  KmemCache     skbuff_cache;
  KmemCache     small_head_cache;
  KmemCache     kmalloc[7];     /* 128, 256, 512, 1k, 2k, 4k, 8k */
  gpointer      kmalloc_caches; /* the kmalloc_caches[][] line kmalloc_slab reads, arena */
  PerCpuPages  *pcp;            /* per CPU, arena */
  GQueue       *pcp_list;       /* per CPU and order (cpu * PAGE_ORDERS + order): free
                                   blocks of that order, newest at the head */
  guint        *pcp_pages;      /* per CPU: pages on the list (kept host-side too) */
  ZoneLockLine *zone;           /* arena */
  PerCpuNodestat *nodestat;     /* per CPU, arena: node 0's per_cpu_nodestats */
  NodeStatLines *node_stat;     /* arena: the node's and the global counter */
  PerCpuZonestat *zonestat;     /* per CPU, arena: the zone's per_cpu_zonestats; NULL
                                   until the zone's free pages first change */
  NodeStatLines *zone_stat;     /* arena: zone->vm_stat[NR_FREE_PAGES], vm_zone_stat[] */
  GQueue        zone_free[PAGE_ORDERS]; /* per order: the zone's free blocks, head = next
                                           out */
  GHashTable   *page_meta;      /* block → its struct pages (arena, 64 bytes per page) */
  GHashTable   *page_block;     /* head struct page → its block (page_address) */
  GHashTable   *large_order;    /* block → order, for kfree */
  GHashTable   *slab_of;        /* object → KmemCache, for kfree */
  GHashTable   *frag_pages;     /* each page of an alloc_pages_node block → head page */
  guint64       live_skbs;
  guint64       live_frag_pages; /* page-fragment pages not yet freed */
  guint64       live_heads;
};

/* fls(x): the 1-based index of the highest bit set, 0 for 0 (GLib's g_bit_storage gives 1
 * for 0). */
static guint
fls_ul (guint64 x)
{
  return x != 0 ? g_bit_storage (x) : 0;
}

/* calculate_normal_threshold (mm/vmstat.c) of a zone of zone_pages managed pages on a
 * machine of cpus online CPUs: 2 * fls(cpus) * (1 + fls(memory in 128 MiB units)), at
 * most 125. refresh_zone_stat_thresholds gives every CPU's per_cpu_nodestats the largest
 * threshold of the node's zones: ZONE_NORMAL's on any machine above a few GiB. */
static gint
calculate_normal_threshold (guint cpus, guint64 zone_pages)
{
  guint64 mem = zone_pages >> (27 - 12);

  return MIN (STAT_THRESHOLD_MAX, (gint) (2 * fls_ul (cpus) * (1 + fls_ul (mem))));
}

/* ---- sk_buff_head operations ---- */

/* Appends skb at the tail of list (__skb_queue_tail). */
void
__skb_queue_tail (struct sk_buff_head *list, struct sk_buff *skb)
{
  struct sk_buff *last = list->prev;

  skb->next = (struct sk_buff *) list;
  skb->prev = last;
  last->next = skb;
  list->prev = skb;
  list->qlen++;
}

/* Removes and returns the head of list, or NULL (__skb_dequeue). */
struct sk_buff *
__skb_dequeue (struct sk_buff_head *list)
{
  struct sk_buff *skb = list->next;

  if (skb == (struct sk_buff *) list)
    return NULL;
  list->next = skb->next;
  skb->next->prev = (struct sk_buff *) list;
  skb->next = skb->prev = NULL;
  list->qlen--;
  return skb;
}

/* Joins list at the tail of head and reinitialises list. */
void
skb_queue_splice_tail_init (struct sk_buff_head *list, struct sk_buff_head *head)
{
  struct sk_buff *first = list->next, *last = list->prev, *at = head->prev;

  if (skb_queue_empty (list))
    return;
  first->prev = at;
  at->next = first;
  last->next = (struct sk_buff *) head;
  head->prev = last;
  head->qlen += list->qlen;
  __skb_queue_head_init (list);
}

/* ---- construction ---- */

/* Sets up cache c over objs, the placement of its objects (slab.c: its own cache, owned,
 * or one of the machine's kmalloc caches, shared): slot and object size, free-pointer
 * offset, objects per slab (SLUB's calculate_order for the machine's CPUs: on 8 to 127
 * CPUs the 32 skbuff_cache objects of /proc/slabinfo's "skbuff_head_cache 32 objperslab
 * 2 pagesperslab", 64 on the 128-CPU EPYC), the tail-page cost, its kmem_cache line and
 * its per-CPU state in the arena. */
static void
kmem_cache_init (KmemCache *c, NsSkbAlloc *a, const char *name, NsKmemCache *objs,
                 gboolean own, gsize object_size, guint tail_page)
{
  c->objs = objs;
  c->own_objs = own;
  c->name = name;
  c->size = ns_kmem_cache_size (c->objs);
  c->object_size = object_size;
  c->fp_offset = (object_size / 2) & ~(gsize) 7;
  c->objs_per_slab = (guint) (ns_kmem_cache_slab_bytes (c->objs) / c->size);
  c->tail_page = tail_page;
  c->line = ns_arena_alloc (a->arena, 64, 64);
  c->cpu = ns_arena_alloc (a->arena, sizeof (KmemCacheCpu) * a->n_cpus, 64);
  c->slab = ns_arena_alloc (a->arena, sizeof (SlabLine) * a->n_cpus, 64);
}

/* A cache of the skb allocator's own (skbuff_cache, skbuff_small_head): size-byte objects,
 * shuffled under CONFIG_SLAB_FREELIST_RANDOM from the machine's NS_LAYOUT_SKB_CACHES
 * stream and the cache's index idx. */
static NsKmemCache *
skb_cache_new (NsSkbAlloc *a, gsize size, NsSlabFlags flags, guint idx)
{
  guint64 key = ns_machine_layout_key (a->machine, NS_LAYOUT_SKB_CACHES);

  return ns_kmem_cache_new (a->arena, size, flags, a->n_cpus,
                            ns_slab_freelist_random (ns_machine_build (a->machine)),
                            ns_derive_seed (key, idx));
}

/* Creates the allocator state of machine. */
NsSkbAlloc *
ns_skb_alloc_new (NsMachine *machine)
{
  static const char *const kmalloc_names[] = {
    "kmalloc-128", "kmalloc-256", "kmalloc-512", "kmalloc-1k", "kmalloc-2k", "kmalloc-4k",
    "kmalloc-8k"
  };
  NsBuild *build;
  NsSkbAlloc *a;

  g_return_val_if_fail (machine != NULL, NULL);
  a = g_new0 (NsSkbAlloc, 1);
  a->machine = machine;
  a->arena = ns_machine_arena (machine);
  a->n_cpus = ns_machine_n_cpus (machine);
  build = ns_machine_build (machine);
  /* skb_small_head_cache (bf9f1baa279f): kmalloc_reserve takes the small heads from it */
  a->small_heads = ns_build_has_change (build, NS_KCHANGE_SKB_SMALL_HEAD_CACHE);
  /* init_on_alloc's default (no init_on_alloc= on the command line): the option's, on
   * only where the build says y (the Kconfig default, as CONFIG_SLAB_FREELIST_RANDOM's
   * rule: an option that adds work is not taken from a distribution unstated) */
  a->init_on_alloc = ns_build_config_tristate (build, "CONFIG_INIT_ON_ALLOC_DEFAULT_ON",
                                               NS_KCONFIG_N) == NS_KCONFIG_Y;
  a->memset_path = ns_memset_path (build, ns_machine_params (machine),
                                   ns_machine_mitigations (machine)->cpu_features);
  /* skbuff_cache: 232-byte sk_buffs in 256-byte slots (SLAB_HWCACHE_ALIGN) */
  kmem_cache_init (&a->skbuff_cache, a, "skbuff_cache",
                   skb_cache_new (a, sizeof (struct sk_buff), NS_SLAB_HWCACHE_ALIGN, 0),
                   TRUE, sizeof (struct sk_buff), 0);
  kmem_cache_init (&a->small_head_cache, a, "skbuff_small_head",
                   skb_cache_new (a, SKB_SMALL_HEAD_CACHE_SIZE, NS_SLAB_HWCACHE_ALIGN, 1),
                   TRUE, SKB_SMALL_HEAD_CACHE_SIZE, 2);
  /* the machine's kmalloc caches, which tc's objects share; every slab above kmalloc-128
   * has tail pages */
  for (guint i = 0; i < G_N_ELEMENTS (a->kmalloc); i++)
    kmem_cache_init (&a->kmalloc[i], a, kmalloc_names[i],
                     ns_kmalloc_cache (machine, ns_kmalloc_index ((gsize) 128 << i)), FALSE,
                     (gsize) 128 << i, i > 0 ? 2 : 0);
  a->kmalloc_caches = ns_arena_alloc (a->arena, 64, 64);
  a->pcp = ns_arena_alloc (a->arena, sizeof (PerCpuPages) * a->n_cpus, 64);
  a->pcp_list = g_new0 (GQueue, (gsize) a->n_cpus * PAGE_ORDERS);
  a->pcp_pages = g_new0 (guint, a->n_cpus);
  for (guint c = 0; c < a->n_cpus; c++) {
    ns_spin_lock_init (&a->pcp[c].lock);
    a->pcp[c].high = PCP_HIGH_PAGES;
    a->pcp[c].batch = PCP_BATCH_PAGES;
  }
  a->zone = ns_arena_alloc (a->arena, sizeof (ZoneLockLine), 64);
  ns_spin_lock_init (&a->zone->lock);
  a->nodestat = ns_arena_alloc (a->arena, sizeof (PerCpuNodestat) * a->n_cpus, 64);
  for (guint c = 0; c < a->n_cpus; c++)
    a->nodestat[c].stat_threshold = (gint8) calculate_normal_threshold (a->n_cpus,
                                                                        NS_ZONE_NORMAL_PAGES);
  a->node_stat = ns_arena_alloc (a->arena, sizeof (NodeStatLines), 64);
  a->page_meta = g_hash_table_new (g_direct_hash, g_direct_equal);
  a->page_block = g_hash_table_new (g_direct_hash, g_direct_equal);
  a->large_order = g_hash_table_new (g_direct_hash, g_direct_equal);
  a->slab_of = g_hash_table_new (g_direct_hash, g_direct_equal);
  a->frag_pages = g_hash_table_new (g_direct_hash, g_direct_equal);
  return a;
}

/* Frees c's host-side per-CPU freelist counts and placement. */
static void
kmem_cache_clear (KmemCache *c)
{
  if (c->own_objs)
    ns_kmem_cache_destroy (c->objs);
}

/* Frees the allocator's host-side state (arena memory goes with the machine). */
void
ns_skb_alloc_free (NsSkbAlloc *a)
{
  if (a == NULL)
    return;
  kmem_cache_clear (&a->skbuff_cache);
  kmem_cache_clear (&a->small_head_cache);
  for (guint i = 0; i < G_N_ELEMENTS (a->kmalloc); i++)
    kmem_cache_clear (&a->kmalloc[i]);
  for (guint i = 0; i < a->n_cpus * PAGE_ORDERS; i++)
    g_queue_clear (&a->pcp_list[i]);
  g_free (a->pcp_list);
  g_free (a->pcp_pages);
  for (guint o = 0; o < PAGE_ORDERS; o++)
    g_queue_clear (&a->zone_free[o]);
  g_hash_table_destroy (a->page_meta);
  g_hash_table_destroy (a->page_block);
  g_hash_table_destroy (a->large_order);
  g_hash_table_destroy (a->slab_of);
  g_hash_table_destroy (a->frag_pages);
  g_free (a);
}

/* Live sk_buffs; *heads gets the live head buffers. */
guint64
ns_skb_alloc_live (const NsSkbAlloc *a, guint64 *heads)
{
  g_return_val_if_fail (a != NULL, 0);
  if (heads)
    *heads = a->live_heads;
  return a->live_skbs;
}

/* The node's NR_SLAB_UNRECLAIMABLE_B counter in pages; cpu's diff and threshold. */
gint64
ns_skb_alloc_node_slab_pages (const NsSkbAlloc *a, guint cpu, gint *diff, gint *threshold)
{
  g_return_val_if_fail (a != NULL && cpu < a->n_cpus, 0);
  if (diff)
    *diff = a->nodestat[cpu].slab_unreclaimable_diff;
  if (threshold)
    *threshold = a->nodestat[cpu].stat_threshold;
  return a->node_stat->vm_stat;
}

/* NR_FREE_PAGES of the zone: its counter; cpu's diff and per-CPU list pages. */
gint64
ns_skb_alloc_zone_free_pages (const NsSkbAlloc *a, guint cpu, gint *diff, guint *pcp_pages)
{
  g_return_val_if_fail (a != NULL && cpu < a->n_cpus, 0);
  if (diff)
    *diff = a->zonestat != NULL ? a->zonestat[cpu].free_pages_diff : 0;
  if (pcp_pages)
    *pcp_pages = a->pcp_pages[cpu];
  return a->zone_stat != NULL ? a->zone_stat->vm_stat : 0;
}

/* Page-fragment pages not yet freed: sendmsg's (held by a page_frag or an skb's frags)
 * and the frag cache's (held by the cache's bias or by fragments). */
guint64
ns_skb_alloc_live_frag_pages (const NsSkbAlloc *a)
{
  g_return_val_if_fail (a != NULL, 0);
  return a->live_frag_pages;
}

/* Gives the allocator the stack whose build options it follows (loopback.c's
 * ns_loopback_core_init). */
void
ns_skb_alloc_set_stack (NsSkbAlloc *a, struct _NsNetStack *stack)
{
  g_return_if_fail (a != NULL);
  a->stack = stack;
}

/* ---- build options (nothing without a stack) ---- */

/* might_resched() at a GFP_KERNEL allocation (might_alloc). */
static void
alloc_might_resched (NsThread *t, NsSkbAlloc *a)
{
  if (a->stack != NULL)
    ns_might_resched (t, a->stack);
}

/* rcu_read_lock / rcu_read_unlock. */
static void
alloc_rcu_read_lock (NsThread *t, NsSkbAlloc *a)
{
  if (a->stack != NULL)
    ns_rcu_read_lock (t, a->stack);
}

/* rcu_read_unlock. */
static void
alloc_rcu_read_unlock (NsThread *t, NsSkbAlloc *a)
{
  if (a->stack != NULL)
    ns_rcu_read_unlock (t, a->stack);
}

/* ---- SLUB ---- */

/* should_failslab: fault injection off; census 4, P/E 3 (skb.md): the zero return. */
static void
should_failslab (NsThread *t)
{
  ns_leaf_call (t, &skb_fn_should_failslab, 1);
}

/* memcg_slab_post_alloc_hook: memcg kmem accounting on, the object not accounted (objcg
 * NULL); census 22, P/E 16 (skb.md). */
static void
memcg_slab_post_alloc_hook (NsThread *t)
{
  ns_leaf_call (t, &skb_fn_memcg_slab_post_alloc_hook, 6);
}

/* slab_post_alloc_hook's zeroing under init_on_alloc (slab_want_init_on_alloc: none of
 * the skb allocator's caches has a constructor or SLAB_TYPESAFE_BY_RCU):
 * memset(obj, 0, s->object_size). census (skb.md, send.md): 10 instructions in the
 * allocation function (the key's taken branch, the arguments, the call), then __memset. */
static void
slab_init_on_alloc (NsThread *t, NsSkbAlloc *a, KmemCache *c, gpointer obj)
{
  ns_insns (t, 10);
  ns_memset (t, &ns_fn___memset, a->memset_path, obj, c->object_size);
}

/* slab_alloc_node (inlined into each allocation function) on t's CPU: slab_pre_alloc_hook
 * (might_alloc: might_resched when gfp may sleep, should_failslab), the fast path (the
 * kmem_cache and kmem_cache_cpu lines, the object's free pointer, this_cpu_cmpxchg16b),
 * slab_post_alloc_hook. When the CPU's freelist runs out, ___slab_alloc's get_freelist
 * takes back the slab's freelist (where remote frees went) with a cmpxchg. */
static gpointer
slab_alloc_node (NsThread *t, NsSkbAlloc *a, KmemCache *c, guint gfp)
{
  guint cpu = ns_thread_cpu (t);
  gpointer obj;

  /* census (skb.md: kmem_cache_alloc_node 109 less init_on_alloc's 10, P/E 17 = 82; 84
   * with send.md's might_resched call): 10 for the arguments, the gfp mask and
   * might_alloc's test (12 with its call and jump back), 55 for the memcg and KFENCE keys,
   * tid and freelist reads, get_freepointer, the cmpxchg16b and sete, 12 for the
   * init_on_alloc key and the hook's call */
  ns_insns (t, (gfp & __GFP_DIRECT_RECLAIM) ? 12 : 10);
  if (gfp & __GFP_DIRECT_RECLAIM)
    alloc_might_resched (t, a);
  should_failslab (t);
  ns_load (t, c->line, 64);
  ns_load (t, &c->cpu[cpu], 16);
  ns_insns (t, 55);
  if (ns_kmem_cache_cpu_empty (c->objs, cpu)) {
    /* estimate: ~60 instructions of ___slab_alloc taking the slab's freelist back */
    ns_insns (t, 60);
    ns_atomic (t, &c->slab[cpu]);
  }
  obj = ns_kmem_cache_alloc (c->objs, cpu);
  ns_load_dep (t, (guint8 *) obj + c->fp_offset, 8);
  ns_store (t, &c->cpu[cpu], 16);
  ns_insns (t, 12);
  if (a->init_on_alloc)
    slab_init_on_alloc (t, a, c, obj);
  memcg_slab_post_alloc_hook (t);
  c->live++;
  return obj;
}

/* An allocation function fn around slab_alloc_node, with tp instructions of its own
 * (kmem_cache_alloc_node's kmem_cache_alloc tracepoint: census 5; the same in
 * kmem_cache_alloc, estimate: 6.1 inlines the same slab_alloc_node into both; none in
 * __kmem_cache_alloc_node, census, skb.md: 104 less init_on_alloc's 10, P/E 17). */
static gpointer
slab_alloc_fn (NsThread *t, NsSkbAlloc *a, NsFunc *fn, KmemCache *c, guint gfp, guint tp)
{
  gpointer obj;

  ns_call (t, fn);
  obj = slab_alloc_node (t, a, c, gfp);
  if (tp > 0)
    ns_insns (t, tp);
  ns_ret (t);
  return obj;
}

/* kmem_cache_alloc_node(c, gfp, NUMA_NO_NODE). */
static gpointer
kmem_cache_alloc_node (NsThread *t, NsSkbAlloc *a, KmemCache *c, guint gfp)
{
  return slab_alloc_fn (t, a, &skb_fn_kmem_cache_alloc_node, c, gfp, 5);
}

/* cache_from_obj: the hardened check that the object belongs to the cache; census 30,
 * P/E 6 (skb.md, recv.md), +2 for an object in a tail page. */
static void
cache_from_obj (NsThread *t, KmemCache *c)
{
  ns_leaf_call (t, &skb_fn_cache_from_obj, 24 + c->tail_page);
}

/* cmpxchg_double_slab: the slab's freelist and counters with lock cmpxchg16b (first try). */
static void
cmpxchg_double_slab (NsThread *t, KmemCache *c, guint alloc_cpu)
{
  ns_call (t, &fn_cmpxchg_double_slab);
  ns_atomic (t, &c->slab[alloc_cpu]);
  ns_insns (t, 11);                 /* census: 15, P/E 4 (recv.md) */
  ns_ret (t);
}

/* __slab_free on a frozen slab (the allocating CPU's cpu slab): no list work. */
static void
__slab_free (NsThread *t, KmemCache *c, guint alloc_cpu)
{
  ns_call (t, &fn___slab_free);
  /* census (recv.md): 71, P/E 17 — the counters, a rep stosq of 8 qwords, the frozen
   * test around the cmpxchg_double_slab call */
  ns_insns (t, 39);
  ns_rep_string (t, 8 * 8);
  cmpxchg_double_slab (t, c, alloc_cpu);
  ns_insns (t, 14);
  ns_ret (t);
}

/* slab_free → do_slab_free (inlined into both frees) on t's CPU: the kmem_cache and
 * kmem_cache_cpu lines, the free pointer written; the object back on this CPU's freelist
 * when it allocated it (local insns instructions), else (remote insns, then a tail jmp)
 * __slab_free: cmpxchg_double on the owning CPU's slab. */
static void
slab_free (NsThread *t, NsSkbAlloc *a, KmemCache *c, gpointer obj, guint alloc_cpu,
           guint local, guint remote)
{
  guint cpu = ns_thread_cpu (t);

  ns_load (t, c->line, 64);
  ns_load (t, &c->cpu[cpu], 16);
  ns_store (t, (guint8 *) obj + c->fp_offset, 8);
  if (alloc_cpu == cpu || alloc_cpu >= a->n_cpus) {
    ns_insns (t, local + c->tail_page);
    ns_store (t, &c->cpu[cpu], 16);
  } else {
    ns_insns (t, remote + c->tail_page);
    ns_tail_next (t);
    __slab_free (t, c, alloc_cpu);
  }
  c->live--;
  ns_kmem_cache_free_on (c->objs, obj, cpu);
}

/* kmem_cache_free(c, obj): cache_from_obj, the tracepoint, slab_free. */
static void
kmem_cache_free (NsThread *t, NsSkbAlloc *a, KmemCache *c, gpointer obj, guint alloc_cpu)
{
  ns_call (t, &skb_fn_kmem_cache_free);
  ns_insns (t, 8);                  /* census: the tracepoint's caller ip, the call */
  cache_from_obj (t, c);
  /* census (skb.md: 74, P/E 13): 53 — virt_to_slab, memcg 1+3, set_freepointer, the
   * cpu-slab test, the cmpxchg16b and sete; remote (recv.md: 62, P/E 11): 43 —
   * virt_to_slab, memcg, set_freepointer, c->slab ≠ slab, the tail jmp */
  slab_free (t, a, c, obj, alloc_cpu, 53, 43);
  ns_ret (t);
}

/* __kmem_cache_free(c, obj, caller): kfree's slab_free (kfree found the cache). */
static void
__kmem_cache_free (NsThread *t, NsSkbAlloc *a, KmemCache *c, gpointer obj, guint alloc_cpu)
{
  ns_call (t, &fn___kmem_cache_free);
  /* census (skb.md: 70, P/E 13): 57 — the free hooks (memcg, KASAN and KFENCE keys),
   * virt_to_slab, tid, the cpu-slab test, set_freepointer, the cmpxchg16b and sete;
   * remote: estimate, kmem_cache_free's difference (10 fewer) */
  slab_free (t, a, c, obj, alloc_cpu, 57, 47);
  ns_ret (t);
}

/* ---- the page allocator ---- */

/* The struct pages of block (1 << order pages, 64 bytes each), created with the block. */
static guint8 *
page_meta_of (NsSkbAlloc *a, gpointer block)
{
  return g_hash_table_lookup (a->page_meta, block);
}

/* cpu's PCP list of order-`order` blocks. */
static GQueue *
pcp_list (NsSkbAlloc *a, guint cpu, guint order)
{
  g_return_val_if_fail (order < PAGE_ORDERS, &a->pcp_list[cpu * PAGE_ORDERS]);
  return &a->pcp_list[cpu * PAGE_ORDERS + order];
}

/* A fresh block of 1 << order pages from the arena, page-aligned, with its struct pages. */
static gpointer
zone_grow (NsSkbAlloc *a, guint order)
{
  gpointer block = ns_arena_alloc (a->arena, (gsize) PAGE_SIZE << order, PAGE_SIZE);
  gpointer meta = ns_arena_alloc (a->arena, (gsize) 64 << order, 64);

  g_hash_table_insert (a->page_meta, block, meta);
  g_hash_table_insert (a->page_block, meta, block);
  return block;
}

/* _raw_spin_trylock of cpu's pcp->lock (pcp_spin_trylock): only its CPU takes it here. */
static void
pcp_spin_trylock (NsThread *t, NsSkbAlloc *a, guint cpu)
{
  ns_call (t, &fn__raw_spin_trylock);
  ns_insns (t, 8);                  /* census: 11, P/E 3: preempt count, lock cmpxchg */
  if (!ns_spin_trylock (t, &a->pcp[cpu].lock))
    g_warn_if_reached ();
  ns_ret (t);
}

/* pcp_spin_unlock: spin_unlock of cpu's pcp->lock. */
static void
pcp_spin_unlock (NsThread *t, NsSkbAlloc *a, guint cpu)
{
  if (a->stack != NULL)
    ns_raw_spin_unlock (t, a->stack, &a->pcp[cpu].lock, NS_LOCK_PLAIN);
  else
    ns_spin_unlock (t, &a->pcp[cpu].lock);
}

/* spin_lock_irqsave / spin_unlock_irqrestore of the zone's lock: _raw_spin_lock_irqsave and
 * its unlock (out of line with CONFIG_PREEMPTION) where the allocator has a stack's build,
 * the bare lock otherwise. */
static void
zone_lock (NsThread *t, NsSkbAlloc *a)
{
  if (a->stack != NULL)
    ns_raw_spin_lock (t, a->stack, &a->zone->lock, NS_LOCK_IRQSAVE);
  else
    ns_spin_lock (t, &a->zone->lock);
}

static void
zone_unlock (NsThread *t, NsSkbAlloc *a)
{
  if (a->stack != NULL)
    ns_raw_spin_unlock (t, a->stack, &a->zone->lock, NS_LOCK_IRQSAVE);
  else
    ns_spin_unlock (t, &a->zone->lock);
}

/* DEBUG_LIST's checks of a zone or pcp list operation, where the build is known. */
static void
alloc_list_del (NsThread *t, NsSkbAlloc *a)
{
  if (a->stack != NULL)
    ns___list_del_entry_valid (t, a->stack);
}

/* The same for a list add. */
static void
alloc_list_add (NsThread *t, NsSkbAlloc *a)
{
  if (a->stack != NULL)
    ns___list_add_valid (t, a->stack);
}

/* The zone's NR_FREE_PAGES lines, made on the first change of the count: an allocator
 * that never reaches the buddy lists (pktgen's kmalloc heads) keeps the arena layout it
 * had before the model counted them. The thresholds are the node's (refresh_zone_stat_
 * thresholds sets both from the same zone). */
static void
zone_stat_init (NsSkbAlloc *a)
{
  a->zonestat = ns_arena_alloc (a->arena, sizeof (PerCpuZonestat) * a->n_cpus, 64);
  for (guint c = 0; c < a->n_cpus; c++)
    a->zonestat[c].stat_threshold = a->nodestat[c].stat_threshold;
  a->zone_stat = ns_arena_alloc (a->arena, sizeof (NodeStatLines), 64);
}

/* One per-CPU vmstat diff (an s8, mm/vmstat.c): delta onto *diff, which once its
 * magnitude exceeds *threshold is folded into the counter and the global one of lines (a
 * lock add on each, fold_insns) and restarts at 0; the diff's and the threshold's loads,
 * then store_insns and the diff's store. Shared by the zone and node items. */
static void
vmstat_diff_add (NsThread *t, gint8 *diff, const gint8 *threshold, NodeStatLines *lines,
                 glong delta, guint fold_insns, guint store_insns)
{
  glong x;

  ns_load (t, diff, sizeof *diff);
  ns_load (t, threshold, sizeof *threshold);
  x = *diff + delta;
  if (ABS (x) > *threshold) {
    ns_insns (t, fold_insns);
    ns_atomic (t, &lines->vm_stat);
    lines->vm_stat += x;
    ns_atomic (t, &lines->vm_node_stat);
    lines->vm_node_stat += x;
    x = 0;
  }
  *diff = (gint8) x;
  if (store_insns > 0)
    ns_insns (t, store_insns);
  ns_store (t, diff, sizeof *diff);
}

/* __mod_zone_page_state(zone, NR_FREE_PAGES, delta) (mm/vmstat.c): the pages go onto this
 * CPU's diff of the item (per_cpu_zonestats, an s8); once its magnitude exceeds the CPU's
 * stat_threshold they are folded into the zone's counter and the global one (a lock add
 * on each) and the diff restarts at 0. census (residue.md): 19, P/E 3, within the
 * threshold; the fold 6 more. */
static void
__mod_zone_page_state (NsThread *t, NsSkbAlloc *a, gint delta)
{
  PerCpuZonestat *pcp;

  if (a->zonestat == NULL)
    zone_stat_init (a);
  pcp = &a->zonestat[ns_thread_cpu (t)];

  ns_call (t, &fn___mod_zone_page_state);
  ns_insns (t, 15);
  vmstat_diff_add (t, &pcp->free_pages_diff, &pcp->stat_threshold, a->zone_stat, delta, 6, 1);
  ns_ret (t);
}

/* rmqueue_bulk: moves nr_pcp_alloc blocks from the zone to cpu's list under zone->lock,
 * each found by __rmqueue_smallest (inlined) on the order's own free list (no expand: the
 * zone's free blocks of the order are the ones the other CPU's drains gave back), then
 * NR_FREE_PAGES once for them all. census (residue.md): 62 instructions a call (79 less
 * P/E 17) and 59 a block (6.1.176 has 6 more: check_pcp_refill's call of
 * check_new_pages, which v6.5+ gates behind check_pages_enabled, off without
 * init_on_alloc/free or debug_pagealloc, and its separate count of pages added). */
static void
rmqueue_bulk (NsThread *t, NsSkbAlloc *a, guint cpu, guint order)
{
  guint want = MAX (PCP_BATCH_PAGES >> order, 2u);

  ns_call (t, &fn_rmqueue_bulk);
  ns_insns (t, 14);                 /* census: the arguments, the stack guard */
  zone_lock (t, a);
  ns_insns (t, 30);                 /* census: the count test, the loop's set-up */
  for (guint i = 0; i < want; i++) {
    gpointer block = g_queue_pop_head (&a->zone_free[order]);
    if (block == NULL)
      block = zone_grow (a, order);
    /* census: 19 to the free list's first page (the order bound, the list head, the
     * page_reporting key) */
    ns_insns (t, 19);
    alloc_list_del (t, a);
    /* census: 24 (del_page_from_free_list's stores and nr_free, the expand test,
     * set_pcppage_migratetype, the tracepoint) */
    ns_insns (t, 24);
    ns_store (t, page_meta_of (a, block), 64);
    ns_insns (t, 5);                /* census: list_add_tail's arguments */
    alloc_list_add (t, a);
    ns_insns (t, 11);               /* census: the list stores, the loop test */
    g_queue_push_tail (pcp_list (a, cpu, order), block);
    a->pcp_pages[cpu] += 1u << order;
  }
  ns_insns (t, 11);                 /* census: -(i << order), the arguments */
  __mod_zone_page_state (t, a, -(gint) (want << order));
  ns_insns (t, 3);
  zone_unlock (t, a);
  ns_insns (t, 4);                  /* census: the stack guard, the result */
  ns_ret (t);
}

/* __zone_watermark_ok: above the min watermark, the order's first free list non-empty;
 * census 44, P/E 3 (send.md; +4 per further migratetype list, +6 per empty order). */
static void
__zone_watermark_ok (NsThread *t)
{
  ns_leaf_call (t, &fn___zone_watermark_ok, 41);
}

/* clear_page_erms on one page: mov $4096, xor, rep stosb (census 5 with P/E 2, send.md). */
static void
clear_page_erms (NsThread *t, gpointer page)
{
  ns_call (t, &fn_clear_page_erms);
  memset (page, 0, PAGE_SIZE);
  ns_store (t, page, PAGE_SIZE);
  ns_insns (t, 2);
  ns_rep_string (t, PAGE_SIZE);
  ns_ret (t);
}

/* kernel_init_pages (inlined into post_alloc_hook) under init_on_alloc: each of block's
 * 1 << order pages cleared. census (send.md, order 2): 45 instructions, 9 per page
 * (kmap_local_page, the call) and 9 around the loop (the split an estimate). */
static void
kernel_init_pages (NsThread *t, gpointer block, guint order)
{
  ns_insns (t, 9);
  for (guint i = 0; i < 1u << order; i++) {
    ns_insns (t, 9);
    clear_page_erms (t, (guint8 *) block + (gsize) i * PAGE_SIZE);
  }
}

/* get_page_from_freelist: the first zone's watermark, rmqueue → rmqueue_pcplist (inlined)
 * under the pcp trylock, refilling from the zone when the list is empty, then
 * prep_new_page (inlined: post_alloc_hook, prep_compound_page) writes every struct page
 * and, under init_on_alloc, clears the pages. */
static gpointer
get_page_from_freelist (NsThread *t, NsSkbAlloc *a, guint order)
{
  guint cpu = ns_thread_cpu (t);
  gpointer block;

  ns_call (t, &fn_get_page_from_freelist);
  /* census (send.md: 261 less init_on_alloc's 45, P/E 17): 199 for order 2 — 40 for the
   * zonelist walk to the first zone, 30 for rmqueue and pcp_allowed_order, 15 for the
   * free_factor and the list pick, 20 for the list_del and count, 76 for PGALLOC, the NUMA
   * counters and post_alloc_hook, 6 per tail page of prep_compound_page */
  ns_insns (t, 40);
  __zone_watermark_ok (t);
  ns_insns (t, 30);
  pcp_spin_trylock (t, a, cpu);
  ns_insns (t, 15);
  if (g_queue_is_empty (pcp_list (a, cpu, order)))
    rmqueue_bulk (t, a, cpu, order);
  block = g_queue_pop_head (pcp_list (a, cpu, order));
  a->pcp_pages[cpu] -= 1u << order;
  ns_load_dep (t, page_meta_of (a, block), 64);   /* list_first_entry → page->lru */
  if (a->stack != NULL)
    ns___list_del_entry_valid (t, a->stack);
  ns_insns (t, 20);
  ns_store (t, &a->pcp[cpu].count, sizeof a->pcp[cpu].count);
  pcp_spin_unlock (t, a, cpu);
  ns_insns (t, 76 + 6 * ((1u << order) - 1));
  ns_store (t, page_meta_of (a, block), (gsize) 64 << order);
  if (a->init_on_alloc)
    kernel_init_pages (t, block, order);
  ns_ret (t);
  return block;
}

/* should_fail_alloc_page: fault injection off (noinline for error injection); census 4,
 * P/E 3. */
static void
should_fail_alloc_page (NsThread *t)
{
  ns_leaf_call (t, &fn_should_fail_alloc_page, 1);
}

/* __alloc_pages(gfp | __GFP_COMP, order) on t's CPU: prepare_alloc_pages (might_alloc
 * when gfp may block, should_fail_alloc_page), the get_page_from_freelist fast path; the
 * head page's refcount is 1 (prep_new_page's set_page_refcounted). */
static gpointer
__alloc_pages (NsThread *t, NsSkbAlloc *a, guint gfp, guint order)
{
  struct page_ns *head;
  gpointer block;

  ns_call (t, &skb_fn___alloc_pages);
  /* census (send.md): 111, P/E 15 — 96: gfp and order tests, the alloc context, the
   * cpusets and memcg keys, the zonelist; split between the calls: estimate */
  ns_insns (t, 24);
  if (gfp & __GFP_DIRECT_RECLAIM)
    alloc_might_resched (t, a);
  ns_insns (t, 6);
  should_fail_alloc_page (t);
  ns_insns (t, 36);
  block = get_page_from_freelist (t, a, order);
  ns_insns (t, 30);
  ns_ret (t);
  g_hash_table_insert (a->large_order, block, GUINT_TO_POINTER (order + 1));
  head = (struct page_ns *) page_meta_of (a, block);
  head->_refcount = 1;
  return block;
}

/* __mod_node_page_state(pgdat, NR_SLAB_UNRECLAIMABLE_B, delta) (mm/vmstat.c): a byte
 * item, kept in pages (delta >> PAGE_SHIFT); the pages go onto this CPU's diff of the
 * item (per_cpu_nodestats, an s8), and once its magnitude exceeds the CPU's
 * stat_threshold node_page_state_add folds it into the node's counter and the global one
 * (pgdat->vm_stat[item], vm_node_stat[item]: an atomic add on each, lines every CPU
 * writes) and the diff restarts at 0. census 23, P/E 3, within the threshold; the fold 7
 * more with its two lock adds (recv.md, "threshold overflow"). */
static void
__mod_node_page_state (NsThread *t, NsSkbAlloc *a, gint delta)
{
  PerCpuNodestat *pcp = &a->nodestat[ns_thread_cpu (t)];

  ns_call (t, &fn___mod_node_page_state);
  ns_insns (t, 20);
  vmstat_diff_add (t, &pcp->slab_unreclaimable_diff, &pcp->stat_threshold, a->node_stat,
                   delta / (gint) PAGE_SIZE, 7, 0);
  ns_ret (t);
}

/* __mod_lruvec_page_state: no memcg on a large kmalloc page (memcg_data 0) → the node
 * counter (a tail jmp to __mod_node_page_state). */
static void
__mod_lruvec_page_state (NsThread *t, NsSkbAlloc *a, gint delta)
{
  ns_call (t, &fn___mod_lruvec_page_state);
  /* census: 39 with a positive delta (send.md), 40 with a negative one (recv.md), P/E 11:
   * the head page, memcg_data under RCU, the tail jmp */
  ns_insns (t, 14);
  alloc_rcu_read_lock (t, a);
  ns_insns (t, 8);
  alloc_rcu_read_unlock (t, a);
  ns_insns (t, delta < 0 ? 7 : 6);
  ns_tail_next (t);
  __mod_node_page_state (t, a, delta);
  ns_ret (t);
}

/* mod_lruvec_page_state(page, NR_SLAB_UNRECLAIMABLE_B, delta): irq save, cli, the call,
 * restore. 6.1 has an out-of-line constprop copy; 6.9's large kmalloc calls the folio
 * flavour (lruvec_stat_mod_folio): the 6.1 count, a doubt. */
static void
mod_lruvec_page_state (NsThread *t, NsSkbAlloc *a, gint delta)
{
  ns_call (t, &fn_mod_lruvec_page_state);
  ns_insns (t, 6);                  /* census: 17, P/E 4: pushf; pop; cli + pads, the call */
  __mod_lruvec_page_state (t, a, delta);
  ns_insns (t, 7);                  /* census: the IF test, sti + pad */
  ns_ret (t);
}

/* __free_one_page(page, pfn, zone, order, migratetype, FPI_NONE) without a merge (the
 * model's zone never holds a block's buddy free): NR_FREE_PAGES, the buddy test,
 * set_buddy_order, buddy_merge_likely's test of the next order's buddy (not free: to the
 * list's head), the list add, nr_free. census (residue.md): 104 (120 less P/E 16; no
 * fentry); 6.9-rc1 has the same steps. The buddies' struct pages it reads are not
 * modelled. */
static void
__free_one_page (NsThread *t, NsSkbAlloc *a, gpointer block, guint order)
{
  ns_call (t, &fn___free_one_page);
  ns_insns (t, 19);                 /* census: capture_control, the isolate test, args */
  __mod_zone_page_state (t, a, (gint) (1u << order));
  ns_insns (t, 65);                 /* census: the buddy tests, the order, the list pick */
  alloc_list_add (t, a);
  ns_insns (t, 20);                 /* census: the list stores, nr_free, the keys */
  ns_store (t, page_meta_of (a, block), 64);
  ns_ret (t);
}

/* free_pcppages_bulk: about one batch of the oldest blocks of the freed order back to the
 * zone (the kernel goes round its lists from the freed page's; the model drains that one),
 * under zone->lock, released by a tail jmp to the unlock. census (residue.md): 52 a call
 * (70 less P/E 15, less the last block's 3 list tests) and 46 a block, counted on 6.1.176
 * (a doubt: v6.9-rc1 takes each block's migratetype from the pageblock bitmap, 6.1 from
 * page->index, and 6.1 checks each page again, free_page_is_bad). */
static void
free_pcppages_bulk (NsThread *t, NsSkbAlloc *a, guint cpu, guint order)
{
  guint n = (PCP_BATCH_PAGES + (1u << order) - 1) >> order;

  ns_call (t, &fn_free_pcppages_bulk);
  ns_insns (t, 11);                 /* census: count = min(count, pcp->count), args */
  zone_lock (t, a);
  ns_insns (t, 39);                 /* census: the list walk's start, the order */
  for (guint i = 0; i < n && !g_queue_is_empty (pcp_list (a, cpu, order)); i++) {
    gpointer block = g_queue_pop_tail (pcp_list (a, cpu, order));
    a->pcp_pages[cpu] -= 1u << order;
    ns_insns (t, 6);                /* census: the list's last page */
    alloc_list_del (t, a);
    ns_insns (t, 34);               /* census: poison, counts, the page checks, args */
    __free_one_page (t, a, block, order);
    ns_insns (t, 6);                /* census: the tracepoint, the loop tests */
    g_queue_push_head (&a->zone_free[order], block);
  }
  ns_insns (t, 2);                  /* census: the unlock's arguments and jmp, less the
                                       last block's 3 list tests */
  if (a->stack != NULL)
    ns_tail_next (t);
  zone_unlock (t, a);
  ns_ret (t);
}

/* free_unref_page_prepare (free_pages_prepare inlined): every struct page checked and
 * cleared; the compound head's page[1] flag with a lock andb. */
static void
free_unref_page_prepare (NsThread *t, NsSkbAlloc *a, gpointer block, guint order)
{
  guint8 *meta = page_meta_of (a, block);

  ns_call (t, &fn_free_unref_page_prepare);
  /* census (recv.md, 6.1's free_pcp_prepare): 135 for order 2, P/E 17 — 55 for the keys,
   * the head page and the memcg kmem test, 21 per tail page */
  ns_insns (t, 55 + 21 * ((1u << order) - 1));
  if (order > 0)
    ns_atomic (t, meta + 64);       /* ClearPageHasHWPoisoned on page[1] */
  ns_store (t, meta, (gsize) 64 << order);
  ns_ret (t);
}

/* free_unref_page_commit: onto cpu's list; drained to the zone above pcp->high. */
static void
free_unref_page_commit (NsThread *t, NsSkbAlloc *a, gpointer block, guint cpu, guint order)
{
  ns_call (t, &fn_free_unref_page_commit);
  /* census (recv.md): 63, P/E 17 — 46: PGFREE, the list add, count, the high tests */
  ns_insns (t, 20);
  if (a->stack != NULL)
    ns___list_add_valid (t, a->stack);
  g_queue_push_head (pcp_list (a, cpu, order), block);
  a->pcp_pages[cpu] += 1u << order;
  ns_insns (t, 26);
  ns_store (t, &a->pcp[cpu].count, sizeof a->pcp[cpu].count);
  if (a->pcp_pages[cpu] >= PCP_HIGH_PAGES)
    free_pcppages_bulk (t, a, cpu, order);
  ns_ret (t);
}

/* free_unref_page(order): prepare, then onto t's CPU's list under the pcp trylock. */
static void
free_unref_page (NsThread *t, NsSkbAlloc *a, gpointer block, guint order)
{
  guint cpu = ns_thread_cpu (t);

  ns_call (t, &skb_fn_free_unref_page);
  /* census (recv.md): 89, P/E 17 — 72: pfn and section lookup, migratetype, preempt
   * count; split between the calls: estimate */
  ns_insns (t, 8);
  free_unref_page_prepare (t, a, block, order);
  ns_insns (t, 30);
  pcp_spin_trylock (t, a, cpu);
  ns_insns (t, 10);
  free_unref_page_commit (t, a, block, cpu, order);
  pcp_spin_unlock (t, a, cpu);
  ns_insns (t, 24);
  ns_ret (t);
}

/* __free_pages(page, order): the head's refcount to zero (lock decl), tail jmp
 * free_unref_page (order ≤ 3). */
static void
__free_pages (NsThread *t, NsSkbAlloc *a, gpointer block, guint order)
{
  ns_call (t, &fn___free_pages);
  ns_atomic (t, page_meta_of (a, block));
  ns_insns (t, 13);                 /* census: 20, P/E 7 (recv.md) */
  ns_tail_next (t);
  free_unref_page (t, a, block, order);
  ns_ret (t);
}

/* __get_free_pages(gfp, order) on t's CPU (mm/page_alloc.c): alloc_pages (mm/mempolicy.c:
 * outside interrupts the task's policy, none set here, so the local node's preferred
 * policy) → (tail jmp) alloc_pages_mpol → __alloc_pages; then page_address. census
 * (residue.md): __get_free_pages 8 (11 less P/E 3: the highmem mask, the NULL test,
 * page_address); alloc_pages 26 to the policy (6.1.176's alloc_pages to its mode tests:
 * in_interrupt, __GFP_THISNODE, current->mempolicy NULL, numa_node_id,
 * preferred_node_policy[node]) and 6 for v6.7+'s tail call's five arguments (estimate).
 * alloc_pages_mpol (v6.7+, no 6.1 counterpart) stays an estimate: 20 (policy_nodemask,
 * the preferred-many and THP-order tests, the interleave test after the call; 6.1's
 * policy_nodemask and policy_node, out of line there, are 7 and 16 with a
 * _find_first_bit call). */
guchar *
__get_free_pages (NsThread *t, NsSkbAlloc *a, guint gfp, guint order)
{
  gpointer block;

  g_return_val_if_fail (t != NULL && a != NULL && order < PAGE_ORDERS, NULL);
  ns_call (t, &fn___get_free_pages);
  ns_insns (t, 2);
  ns_call (t, &fn_alloc_pages);
  ns_insns (t, 26 + 6);
  ns_tail_call (t, &fn_alloc_pages_mpol);
  ns_insns (t, 14);
  block = __alloc_pages (t, a, gfp, order);
  ns_insns (t, 6);
  ns_ret (t);                       /* alloc_pages_mpol */
  ns_ret (t);                       /* alloc_pages: the tail jmp's one return */
  ns_insns (t, 6);
  ns_ret (t);
  return block;
}

/* free_pages(addr, order) on t's CPU: the address's page to (tail jmp) __free_pages: its
 * refcount to zero, free_unref_page onto t's CPU's list. census (residue.md): 12 (13 less
 * the fentry: the NULL test, virt_to_page, the jmp). */
void
free_pages (NsThread *t, NsSkbAlloc *a, gpointer addr, guint order)
{
  gpointer order_p;

  g_return_if_fail (t != NULL && a != NULL && addr != NULL);
  order_p = g_hash_table_lookup (a->large_order, addr);
  g_return_if_fail (order_p != NULL && GPOINTER_TO_UINT (order_p) - 1 == order);
  g_hash_table_remove (a->large_order, addr);
  ns_call (t, &fn_free_pages);
  ns_insns (t, 12);
  ns_tail_next (t);
  __free_pages (t, a, addr, order);
  ns_ret (t);
}

/* alloc_pages_node(NUMA_NO_NODE, gfp | __GFP_COMP, order): __alloc_pages' compound page,
 * each of whose pages leads back to the head (virt_to_head_page). */
struct page_ns *
alloc_pages_node (NsThread *t, NsSkbAlloc *a, guint gfp, guint order)
{
  struct page_ns *head;
  guchar *block;

  g_return_val_if_fail (t != NULL && a != NULL && order < PAGE_ORDERS, NULL);
  block = __alloc_pages (t, a, gfp, order);
  head = (struct page_ns *) page_meta_of (a, block);
  for (guint i = 0; i < 1u << order; i++)
    g_hash_table_insert (a->frag_pages, block + (gsize) i * PAGE_SIZE, head);
  a->live_frag_pages++;
  return head;
}

/* virt_to_head_page: the head page of the alloc_pages_node block holding addr. */
struct page_ns *
virt_to_head_page (NsSkbAlloc *a, gconstpointer addr)
{
  guint64 sim;

  g_return_val_if_fail (a != NULL && addr != NULL, NULL);
  sim = ns_arena_addr (a->arena, addr);
  return g_hash_table_lookup (a->frag_pages,
                              (const guchar *) addr - (sim & (PAGE_SIZE - 1)));
}

/* free_the_page(page, order) of an alloc_pages_node block whose last reference went:
 * order ≤ 3 (pcp_allowed_order) → free_unref_page onto t's CPU's list. */
static void
free_the_page (NsThread *t, NsSkbAlloc *a, struct page_ns *page)
{
  guchar *block = g_hash_table_lookup (a->page_block, page);
  guint order = GPOINTER_TO_UINT (g_hash_table_lookup (a->large_order, block)) - 1;

  g_return_if_fail (block != NULL && order < PAGE_ORDERS);
  g_hash_table_remove (a->large_order, block);
  for (guint i = 0; i < 1u << order; i++)
    g_hash_table_remove (a->frag_pages, block + (gsize) i * PAGE_SIZE);
  free_unref_page (t, a, block, order);
  a->live_frag_pages--;
}

/* ---- page fragments of sendmsg (sk_page_frag) ---- */

/* The memory of a page the page allocator handed out (page_address). */
guchar *
ns_page_address (NsSkbAlloc *a, struct page_ns *page)
{
  g_return_val_if_fail (a != NULL && page != NULL, NULL);
  return g_hash_table_lookup (a->page_block, page);
}

/* get_page (folio_get): a locked increment of the head page's refcount. */
void
get_page (NsThread *t, struct page_ns *page)
{
  g_return_if_fail (t != NULL && page != NULL && page->_refcount > 0);
  ns_atomic (t, &page->_refcount);
  page->_refcount++;
  /* estimate: 3 instructions (page_folio's compound_head test, the lock incl) */
  ns_insns (t, 3);
}

/* put_page (folio_put): folio_put_testzero's locked decrement; the last reference frees
 * the compound page through __folio_put (destroy_large_folio, free_unref_page: order 3 is
 * at most PAGE_ALLOC_COSTLY_ORDER, so onto t's CPU's per-CPU list). */
void
put_page (NsThread *t, NsSkbAlloc *a, struct page_ns *page)
{
  gpointer block, order_p;

  g_return_if_fail (t != NULL && a != NULL && page != NULL && page->_refcount > 0);
  ns_atomic (t, &page->_refcount);
  /* estimate: 4 instructions (page_folio, the lock decl and its zero test) */
  ns_insns (t, 4);
  if (--page->_refcount > 0)
    return;
  block = g_hash_table_lookup (a->page_block, page);
  order_p = g_hash_table_lookup (a->large_order, block);
  g_return_if_fail (order_p != NULL);
  g_hash_table_remove (a->large_order, block);
  ns_call (t, &fn___folio_put);
  /* estimate: 20 instructions (the large-folio test, destroy_large_folio: the compound
   * destructor, mem_cgroup_uncharge with no memcg charge, the order) */
  ns_insns (t, 20);
  free_unref_page (t, a, block, GPOINTER_TO_UINT (order_p) - 1);
  ns_ret (t);
  a->live_frag_pages--;
}

/* skb_page_frag_refill(sz, pfrag, gfp): the page is reused from offset 0 when nobody
 * else holds it (refcount 1), kept while sz bytes remain, else dropped (put_page) for a
 * new order-SKB_FRAG_PAGE_ORDER compound page (alloc_pages without direct reclaim,
 * __GFP_COMP | __GFP_NOWARN | __GFP_NORETRY). The order-0 fallback is not modelled: the
 * model's page allocator does not fail. */
gboolean
skb_page_frag_refill (NsThread *t, NsSkbAlloc *a, guint sz, struct page_frag *pfrag)
{
  gpointer block;

  g_return_val_if_fail (t != NULL && a != NULL && pfrag != NULL, FALSE);
  ns_call (t, &fn_skb_page_frag_refill);
  NS_LOAD_FIELD (t, pfrag, page);
  ns_insns (t, 3);                  /* estimate: the page test */
  if (pfrag->page != NULL) {
    NS_LOAD_FIELD (t, pfrag->page, _refcount);
    ns_insns (t, 4);                /* estimate: page_ref_count == 1, the offset test */
    if (pfrag->page->_refcount == 1) {
      pfrag->offset = 0;
      NS_STORE_FIELD (t, pfrag, offset);
      goto out;
    }
    NS_LOAD_FIELD (t, pfrag, offset);
    if (pfrag->offset + sz <= pfrag->size)
      goto out;
    put_page (t, a, pfrag->page);
  }
  /* estimate: 12 instructions (offset cleared, the order and static key tests, the gfp,
   * alloc_pages → alloc_pages_mpol's default policy) */
  ns_insns (t, 12);
  block = __alloc_pages (t, a, (GFP_KERNEL & ~__GFP_DIRECT_RECLAIM) | __GFP_NOWARN,
                         SKB_FRAG_PAGE_ORDER);
  pfrag->page = (struct page_ns *) page_meta_of (a, block);
  pfrag->offset = 0;
  pfrag->size = PAGE_SIZE << SKB_FRAG_PAGE_ORDER;
  ns_store (t, pfrag, sizeof *pfrag);
  a->live_frag_pages++;
out:
  ns_insns (t, 2);                  /* estimate: return TRUE */
  ns_ret (t);
  return TRUE;
}

/* ---- kmalloc ---- */

/* The allocation order of a kmalloc_large request of size bytes (get_order). */
static guint
size_order (gsize size)
{
  guint order = 0;

  while (((gsize) PAGE_SIZE << order) < size)
    order++;
  return order;
}

/* kmalloc_slab(size, flags): the kmalloc cache of a request up to 8 KiB from
 * kmalloc_caches[KMALLOC_NORMAL][fls(size - 1)] (power-of-two classes from 128). Census
 * 20, P/E 3 (skb.md: sizes above 192, the fls path; estimate: the same below, where the
 * size_index table replaces fls). */
static KmemCache *
kmalloc_slab (NsThread *t, NsSkbAlloc *a, gsize size)
{
  KmemCache *c = NULL;

  ns_call (t, &fn_kmalloc_slab);
  ns_load (t, a->kmalloc_caches, 8);
  ns_insns (t, 17);
  for (guint i = 0; i < G_N_ELEMENTS (a->kmalloc) && c == NULL; i++)
    if (size <= a->kmalloc[i].size)
      c = &a->kmalloc[i];
  ns_ret (t);
  g_return_val_if_fail (c != NULL, &a->kmalloc[G_N_ELEMENTS (a->kmalloc) - 1]);
  return c;
}

/* kmalloc_size_roundup(size): the kmalloc class's object size (kmalloc_slab), or
 * PAGE_SIZE << get_order above 8 KiB. */
static guint
kmalloc_size_roundup (NsThread *t, NsSkbAlloc *a, guint size)
{
  guint osize;

  ns_call (t, &skb_fn_kmalloc_size_roundup);
  if (size > KMALLOC_MAX_CACHE_SIZE) {
    ns_insns (t, 13);               /* census: 16, P/E 3 (send.md): bsr, the shift */
    osize = PAGE_SIZE << size_order (size);
  } else {
    ns_insns (t, 11);               /* census: 14, P/E 3 (skb.md): the size tests, the
                                     * call, object_size */
    osize = (guint) kmalloc_slab (t, a, size)->size;
  }
  ns_ret (t);
  return osize;
}

/* __kmalloc_large_node(size, flags, node): an order-n compound page, its stat. */
static gpointer
__kmalloc_large_node (NsThread *t, NsSkbAlloc *a, guint size)
{
  guint order = size_order (size);
  gpointer obj;

  ns_call (t, &fn___kmalloc_large_node);
  /* census (send.md): 49, P/E 9 — 40: flags, numa_node_id, the page's address, the
   * stat's arguments; split: estimate */
  ns_insns (t, 22);
  obj = __alloc_pages (t, a, GFP_KERNEL, order);
  ns_insns (t, 12);
  mod_lruvec_page_state (t, a, (gint) (PAGE_SIZE << order));
  ns_insns (t, 6);
  ns_ret (t);
  return obj;
}

/* __kmalloc_node_track_caller(size, gfp, NUMA_NO_NODE): up to 8 KiB a kmalloc-N object
 * (kmalloc_slab, __kmem_cache_alloc_node), else __kmalloc_large_node. */
static guchar *
__kmalloc_node_track_caller (NsThread *t, NsSkbAlloc *a, guint size, guint gfp)
{
  KmemCache *c;
  guchar *obj;

  ns_call (t, &skb_fn___kmalloc_node_track_caller);
  if (size > KMALLOC_MAX_CACHE_SIZE) {
    /* census (send.md): 30, P/E 15 — 15: the size test, the call, the tracepoint NOP */
    ns_insns (t, 10);
    obj = __kmalloc_large_node (t, a, size);
    ns_insns (t, 5);
  } else {
    /* census (skb.md): 35, P/E 15 — 20 */
    ns_insns (t, 8);                /* the large-size test, the kmalloc_slab call */
    c = kmalloc_slab (t, a, size);
    ns_insns (t, 7);                /* ZERO_OR_NULL test, the call */
    obj = slab_alloc_fn (t, a, &fn___kmem_cache_alloc_node, c, gfp, 0);
    g_hash_table_insert (a->slab_of, obj, c);
    ns_insns (t, 5);                /* the kmalloc tracepoint, the return value */
  }
  ns_ret (t);
  return obj;
}

/* kmalloc_reserve(&size, gfp, node, &pfmemalloc): the head buffer; *size becomes the
 * usable size. From v6.3 heads up to SKB_SMALL_HEAD_CACHE_SIZE come from
 * skb_small_head_cache; others from kmalloc (kmalloc_large above KMALLOC_MAX_CACHE_SIZE).
 * No __GFP_MEMALLOC retry. */
static guchar *
kmalloc_reserve (NsThread *t, NsSkbAlloc *a, guint *size, guint gfp)
{
  KmemCache *c;
  guchar *obj;

  ns_call (t, &skb_fn_kmalloc_reserve);
  ns_insns (t, 10);                 /* census (skb.md: 40, P/E 15): arguments, the call */
  if (a->small_heads && *size <= SKB_SMALL_HEAD_CACHE_SIZE) {
    /* v6.3+, not in the 6.1 census: estimate, the same 15 around the allocation */
    c = &a->small_head_cache;
    obj = kmem_cache_alloc_node (t, a, c, gfp);
    *size = (guint) c->size;
    ns_insns (t, 15);
    ns_ret (t);
    return obj;
  }
  *size = kmalloc_size_roundup (t, a, *size);
  ns_insns (t, 9);                  /* census: gfp flags, the allocation call */
  obj = __kmalloc_node_track_caller (t, a, *size, gfp | __GFP_NOMEMALLOC | __GFP_NOWARN);
  ns_insns (t, 6);                  /* census: the NULL and pfmemalloc tests */
  ns_ret (t);
  return obj;
}

/* free_large_kmalloc: the stat, then (tail jmp) __free_pages of the compound page. */
static void
free_large_kmalloc (NsThread *t, NsSkbAlloc *a, gpointer obj, guint order)
{
  ns_call (t, &fn_free_large_kmalloc);
  /* census (recv.md): 21, P/E 5 — 16: folio_order, the stat's arguments, the tail jmp */
  ns_insns (t, 10);
  mod_lruvec_page_state (t, a, -(gint) (PAGE_SIZE << order));
  ns_insns (t, 6);
  ns_tail_next (t);
  __free_pages (t, a, obj, order);
  ns_ret (t);
}

/* kfree(obj): not PG_slab → (tail jmp) free_large_kmalloc; a slab object → (tail jmp)
 * __kmem_cache_free of its cache. alloc_cpu picks SLUB's remote path. */
static void
kfree (NsThread *t, NsSkbAlloc *a, gpointer obj, guint alloc_cpu)
{
  gpointer order_p = g_hash_table_lookup (a->large_order, obj);

  ns_call (t, &skb_fn_kfree);
  if (order_p != NULL) {
    guint order = GPOINTER_TO_UINT (order_p) - 1;
    g_hash_table_remove (a->large_order, obj);
    /* census (recv.md): 27, P/E 3: tracepoint NOP, virt_to_folio, not PG_slab */
    ns_insns (t, 24);
    ns_tail_next (t);
    free_large_kmalloc (t, a, obj, order);
  } else {
    KmemCache *c = g_hash_table_lookup (a->slab_of, obj);
    g_return_if_fail (c != NULL);
    g_hash_table_remove (a->slab_of, obj);
    /* census (skb.md): 29, P/E 3 — 26: the kfree tracepoint, ZERO_OR_NULL,
     * virt_to_folio (+2 in a tail page), the slab test, the tail jmp */
    ns_insns (t, 26 + c->tail_page);
    ns_tail_next (t);
    __kmem_cache_free (t, a, c, obj, alloc_cpu);
  }
  ns_ret (t);
}

/* page_frag_free(addr): put_page_testzero on the fragment's head page; while the frag
 * cache holds its bias the count stays above zero, and a page the cache left behind
 * (it refilled while a fragment was live) is freed at its last fragment's free
 * (free_the_page, order 3). */
static void
page_frag_free (NsThread *t, NsSkbAlloc *a, guchar *addr)
{
  struct page_ns *page = virt_to_head_page (a, addr);

  g_return_if_fail (page != NULL);
  ns_call (t, &fn_page_frag_free);
  NS_LOAD_FIELD (t, page, compound_head);
  ns_atomic (t, &page->_refcount);
  page->_refcount--;
  /* estimate: 8 instructions (virt_to_head_page arithmetic, compound_head test, the
   * zero test) */
  ns_insns (t, 8);
  if (page->_refcount == 0)
    free_the_page (t, a, page);
  ns_ret (t);
}

/* ---- sk_buff ---- */

/* __build_skb_around(skb, data, frag_size): the fields from `tail` on (and alloc_cpu),
 * the shared info at the end of the frag_size bytes. */
void
__build_skb_around (NsThread *t, NsSkbAlloc *a, struct sk_buff *skb, guchar *data,
                    guint frag_size)
{
  struct skb_shared_info *shinfo;
  guint size = frag_size - SKB_SHINFO_SIZE;

  g_return_if_fail (t != NULL && a != NULL && skb != NULL && data != NULL);
  ns_call (t, &skb_fn___build_skb_around);
  skb->truesize = SKB_TRUESIZE (size);
  skb->users = 1;
  skb->head = data;
  skb->data = data;
  skb->tail = 0;
  skb->end = size;
  skb->mac_header = 0xffff;
  skb->transport_header = 0xffff;
  skb->alloc_cpu = (guint16) ns_thread_cpu (t);
  ns_store (t, &skb->tail, sizeof *skb - offsetof (struct sk_buff, tail));
  shinfo = skb_shinfo (skb);
  memset (shinfo, 0, offsetof (struct skb_shared_info, dataref));
  shinfo->dataref = 1;
  ns_store (t, shinfo, offsetof (struct skb_shared_info, xdp_frags_size));
  ns_insns (t, 24);                 /* census: 31, P/E 7 (skb.md) */
  a->live_heads++;
  ns_ret (t);
}

/* kmem_cache_alloc(skbuff_cache, gfp): an sk_buff, uninitialised (__build_skb's). */
struct sk_buff *
kmem_cache_alloc_skbuff (NsThread *t, NsSkbAlloc *a, guint gfp)
{
  g_return_val_if_fail (t != NULL && a != NULL, NULL);
  a->live_skbs++;
  return slab_alloc_fn (t, a, &fn_kmem_cache_alloc, &a->skbuff_cache, gfp, 5);
}

/* Allocates an skb with a head of at least size bytes of data (no fclone, not the NAPI
 * cache). */
struct sk_buff *
__alloc_skb (NsThread *t, NsSkbAlloc *a, guint size, guint gfp)
{
  struct sk_buff *skb;
  guint osize;
  guchar *data;

  g_return_val_if_fail (t != NULL && a != NULL, NULL);
  ns_call (t, &skb_fn___alloc_skb);
  /* census (skb.md, send.md): 75, P/E 15 — 60 */
  ns_insns (t, 12);                 /* stack protector, flags, the cache, the call */
  skb = kmem_cache_alloc_node (t, a, &a->skbuff_cache, gfp);
  a->live_skbs++;
  ns_insns (t, 8);                  /* the NULL test, prefetchw, SKB_HEAD_ALIGN */
  ns_prefetch (t, skb);
  osize = SKB_DATA_ALIGN (size) + SKB_SHINFO_SIZE;
  data = kmalloc_reserve (t, a, &osize, gfp);
  /* memset(skb, 0, offsetof(struct sk_buff, tail)): one rep stosq of 22 quadwords */
  memset (skb, 0, offsetof (struct sk_buff, tail));
  ns_store (t, skb, offsetof (struct sk_buff, tail));
  ns_insns (t, 9);                  /* the NULL test, the rep stosq's set-up */
  ns_rep_string (t, 22 * 8);        /* census: 22 quadwords; two movq clear the rest */
  __build_skb_around (t, a, skb, data, osize);
  ns_insns (t, 30);                 /* the pfmemalloc merge, the fclone test, the canary */
  ns_ret (t);
  return skb;
}

/* skb_put: tail and len grow by len (the tail beyond end would be skb_over_panic). */
guchar *
skb_put (NsThread *t, struct sk_buff *skb, guint len)
{
  guchar *p;

  ns_call (t, &fn_skb_put);
  NS_LOAD_FIELD (t, skb, tail);
  NS_LOAD_FIELD (t, skb, end);
  NS_LOAD_FIELD (t, skb, head);
  NS_LOAD_FIELD (t, skb, data_len);
  g_warn_if_fail (skb->tail + len <= skb->end);
  p = __skb_put (skb, len);
  NS_STORE_FIELD (t, skb, tail);
  NS_STORE_FIELD (t, skb, len);
  /* census: 11 instructions */
  ns_insns (t, 11);
  ns_ret (t);
  return p;
}

/* skb_push: data moves back by len (below head would be skb_under_panic). */
guchar *
skb_push (NsThread *t, struct sk_buff *skb, guint len)
{
  ns_call (t, &fn_skb_push);
  NS_LOAD_FIELD (t, skb, data);
  NS_LOAD_FIELD (t, skb, head);
  g_warn_if_fail (skb->data >= skb->head + len);
  __skb_push (skb, len);
  NS_STORE_FIELD (t, skb, data);
  NS_STORE_FIELD (t, skb, len);
  ns_insns (t, 7);                  /* census */
  ns_ret (t);
  return skb->data;
}

/* skb_free_head: a page fragment (head_frag: page_frag_free), from v6.3 a small head
 * (kmem_cache_free of skb_small_head_cache) or a kmalloc head (kfree), each by a tail jmp
 * (kfree's: census; the others: estimate, the same position, not counted). */
static void
skb_free_head (NsThread *t, NsSkbAlloc *a, struct sk_buff *skb)
{
  ns_call (t, &skb_fn_skb_free_head);
  ns_insns (t, 6);                  /* census: 9, P/E 3: head_frag, pp_recycle */
  ns_tail_next (t);
  if (skb->cloned_bits & SKB_HEAD_FRAG)
    page_frag_free (t, a, skb->head);
  else if (a->small_heads && skb->end + SKB_SHINFO_SIZE == SKB_SMALL_HEAD_CACHE_SIZE)
    kmem_cache_free (t, a, &a->small_head_cache, skb->head, skb->alloc_cpu);
  else
    kfree (t, a, skb->head, skb->alloc_cpu);
  ns_ret (t);
}

/* skb_release_data: drop the shinfo dataref (atomic unless it is the only user), unref
 * each page fragment (napi_frag_unref → skb_page_unref → put_page: no page pool here),
 * free the head; no frag_list. */
void
skb_release_data (NsThread *t, NsSkbAlloc *a, struct sk_buff *skb)
{
  struct skb_shared_info *shinfo;

  g_return_if_fail (t != NULL && a != NULL && skb != NULL);
  shinfo = skb_shinfo (skb);
  ns_call (t, &skb_fn_skb_release_data);
  NS_LOAD_FIELD (t, skb, cloned_bits);
  ns_load (t, shinfo, offsetof (struct skb_shared_info, xdp_frags_size));
  /* census: 34, P/E 11 (skb.md, recv.md): cloned, zerocopy, nr_frags loop of 0,
   * frag_list, the skb_free_head call, the pp_recycle reset */
  ns_insns (t, 23);
  for (guint i = 0; i < shinfo->nr_frags; i++) {
    NS_LOAD_FIELD (t, shinfo, frags[i].bv_page);
    /* estimate: 5 instructions (the frag's page, pp_recycle false, the loop) */
    ns_insns (t, 5);
    put_page (t, a, shinfo->frags[i].bv_page);
  }
  shinfo->nr_frags = 0;
  skb_free_head (t, a, skb);
  a->live_heads--;
  skb->head = skb->data = NULL;
  ns_ret (t);
}

/* kfree_skbmem: the sk_buff back to skbuff_cache (not fclone: tail jmp kmem_cache_free). */
void
kfree_skbmem (NsThread *t, NsSkbAlloc *a, struct sk_buff *skb)
{
  g_return_if_fail (t != NULL && a != NULL && skb != NULL);
  ns_call (t, &skb_fn_kfree_skbmem);
  NS_LOAD_FIELD (t, skb, cloned_bits);
  ns_insns (t, 7);                  /* census: 8, P/E 1: the fclone test, the tail jmp */
  ns_tail_next (t);
  kmem_cache_free (t, a, &a->skbuff_cache, skb, skb->alloc_cpu);
  a->live_skbs--;
  ns_ret (t);
}

/* skb_unref: TRUE if this was the last reference (a plain read when users == 1, else a
 * locked decrement). */
static gboolean
skb_unref (NsThread *t, struct sk_buff *skb)
{
  NS_LOAD_FIELD (t, skb, users);
  /* estimate: 3 instructions (load, compare with 1, branch) */
  ns_insns (t, 3);
  if (G_LIKELY (skb->users == 1))
    return TRUE;
  ns_atomic (t, &skb->users);
  return --skb->users == 0;
}

/* skb_release_head_state: skb_dst_drop of a route the skb still holds, its destructor
 * (the model's one: sock_wfree), then conntrack and extensions (tested, none held).
 * pktgen's skbs and every skb of seed 000's receive path hold neither. */
static void
skb_release_head_state (NsThread *t, NsSkbAlloc *a, struct sk_buff *skb)
{
  ns_call (t, &fn_skb_release_head_state);
  NS_LOAD_FIELD (t, skb, _skb_refdst);
  NS_LOAD_FIELD (t, skb, destructor);
  NS_LOAD_FIELD (t, skb, _nfct);
  NS_LOAD_FIELD (t, skb, active_extensions);
  /* census: 17, P/E 5 (skb.md): four tests and branches */
  ns_insns (t, 12);
  if (skb->_skb_refdst != NULL) {
    dst_release (t, skb_dst (skb));
    skb->_skb_refdst = NULL;
    NS_STORE_FIELD (t, skb, _skb_refdst);
  }
  if (skb->destructor != NULL)
    sock_wfree (t, a->stack, skb);
  ns_ret (t);
}

/* __kfree_skb: skb_release_all, then (tail jmp of the caller it is inlined into in v6.1:
 * kfree_skb_reason's, census; consume_skb's freeing path, not counted: estimate)
 * kfree_skbmem. */
static void
__kfree_skb (NsThread *t, NsSkbAlloc *a, struct sk_buff *skb)
{
  ns_call (t, &fn___kfree_skb);
  skb_release_head_state (t, a, skb);
  NS_LOAD_FIELD (t, skb, head);
  /* census: 4 instructions (head test, the drop reason, the tail jmp's setup) */
  ns_insns (t, 4);
  if (G_LIKELY (skb->head != NULL))
    skb_release_data (t, a, skb);
  ns_tail_next (t);
  kfree_skbmem (t, a, skb);
  ns_ret (t);
}

/* The body of kfree_skb_reason and consume_skb (fn): insns instructions of its own,
 * skb_unref, __kfree_skb on the last reference. */
static void
skb_drop_ref (NsThread *t, NsSkbAlloc *a, struct sk_buff *skb, NsFunc *fn, guint insns)
{
  ns_call (t, fn);
  ns_insns (t, insns);
  if (skb_unref (t, skb))
    __kfree_skb (t, a, skb);
  ns_ret (t);
}

/* kfree_skb → kfree_skb_reason(skb, SKB_DROP_REASON_NOT_SPECIFIED). Census: 19, P/E 3
 * (skb.md) — 16: 9 of its own (NULL test, reason, the kfree_skb tracepoint's NOP), 3 in
 * skb_unref, 4 in __kfree_skb. */
void
kfree_skb (NsThread *t, NsSkbAlloc *a, struct sk_buff *skb)
{
  g_return_if_fail (t != NULL && a != NULL);
  if (skb != NULL)
    skb_drop_ref (t, a, skb, &skb_fn_kfree_skb_reason, 9);
}

/* consume_skb (dev_kfree_skb in a driver). Census: 18, P/E 5 (skb.md) — 13: 10 of its
 * own (the NULL test, the refcount's lock xadd and its tests), 3 in skb_unref. */
void
consume_skb (NsThread *t, NsSkbAlloc *a, struct sk_buff *skb)
{
  g_return_if_fail (t != NULL && a != NULL && skb != NULL);
  skb_drop_ref (t, a, skb, &fn_consume_skb, 10);
}

/* __consume_stateless_skb: release data, then (tail jmp) free the sk_buff. */
void
__consume_stateless_skb (NsThread *t, NsSkbAlloc *a, struct sk_buff *skb)
{
  g_return_if_fail (t != NULL && a != NULL && skb != NULL);
  ns_call (t, &fn___consume_stateless_skb);
  ns_insns (t, 6);                  /* census: 9, P/E 3 (recv.md): tracepoint NOP */
  skb_release_data (t, a, skb);
  ns_tail_next (t);
  kfree_skbmem (t, a, skb);
  ns_ret (t);
}
