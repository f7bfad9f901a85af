/* skbuff.c — allocating and freeing sk_buffs: net/core/skbuff.c (__alloc_skb,
 * kmalloc_reserve, skb_release_data, kfree_skbmem, __consume_stateless_skb), the SLUB
 * fast and remote-free paths (mm/slub.c) and the page allocator's per-CPU lists
 * (mm/page_alloc.c) that kmalloc_large uses for heads above 8 KiB.
 *
 * What the model keeps of each allocator:
 *  - SLUB (skbuff_cache, skb_small_head_cache, kmalloc-N): per CPU a kmem_cache_cpu line
 *    (freelist, tid); per CPU the struct slab line of the slab it allocates from. An
 *    allocation reads the object's free pointer (SLUB keeps it inside the free object, at
 *    the middle for these caches: s->offset = ALIGN_DOWN(size / 2, sizeof(void *)), v5.7+)
 *    and updates the cpu line; every objs_per_slab allocations it takes the slab's
 *    freelist back with a cmpxchg (get_freelist: where remote frees went). A free on the
 *    allocating CPU is the fast path; on another CPU it is __slab_free: write the free
 *    pointer, cmpxchg_double on the allocating CPU's slab line. Objects are arena memory,
 *    recycled most-recently-freed first (the arena's LIFO per size class).
 *  - The page allocator (order ≤ 3 goes through the PCP lists, v5.13+): per CPU a
 *    per_cpu_pages line and a list of free blocks; the zone has a lock and a free list.
 *    Allocation pops the newest block of the CPU's list; an empty list is refilled with
 *    nr_pcp_alloc blocks from the zone under zone->lock (rmqueue_bulk). A free pushes
 *    the block on the freeing CPU's list; at pcp->high pages, nr_pcp_free pages go back
 *    to the zone, oldest first (free_pcppages_bulk). So a head the receiver frees is
 *    reused by the sender only after passing through the zone: the reuse distance, and
 *    therefore where its lines still are, comes out of the batch sizes. Each order-2
 *    block has four struct pages (64 bytes each) that the allocator writes.
 * Batch sizes are the v6.9 formulas for a large zone (see the constants). */
#include "config.h"
#include <string.h>
#include "skbuff.h"
#include "netstack.h"

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
#define PCP_HIGH_PAGES           (PCP_BATCH_PAGES << 2)
/* skbuff_cache: 256-byte objects in order-1 slabs = 32 objects per slab
 * (/proc/slabinfo "skbuff_head_cache 32 objperslab 2 pagesperslab" on x86-64). */
#define SKB_OBJS_PER_SLAB        32u

/* ---- model functions. Text sizes: estimates (bytes of x86-64 text of a v6.x distro build,
 * judged from the C source's size) unless said otherwise. Instruction counts: the census
 * of the Debian 6.1.176 binary (doc/census/skb.md; doc/census/seed000/send.md for the
 * allocation, recv.md for the free), each function's body = its total less its prologue,
 * epilogue and return, which the machine charges per call (call.prologue_insns); with
 * CONFIG_INIT_ON_ALLOC off (the Kconfig default): no __memset of the slab object, no
 * kernel_init_pages/clear_page_erms of the page. Where a count is split between call sites
 * the split is an estimate and the total the census'. Functions the binary enters by a tail
 * jmp are entered by one (ns_tail_next: one return for both). ---- */

NS_FUNC (skb_fn___alloc_skb, "__alloc_skb", 480, NS_FN_EXTERN, 8);
NS_FUNC (skb_fn_kmem_cache_alloc_node, "kmem_cache_alloc_node", 560, NS_FN_EXTERN, 40);
NS_FUNC (skb_fn_kmem_cache_free, "kmem_cache_free", 640, NS_FN_EXTERN, 200);
static NS_FUNC (fn___slab_free, "__slab_free", 720, NS_FN_STATIC | NS_FN_NOINLINE, 2);
/* 6.1's cmpxchg_double_slab.constprop.0.isra.0; 6.9 calls it slab_update_freelist
 * (declared inline: kept out of line as the 6.1 binary has it, a doubt). */
static NS_FUNC (fn_cmpxchg_double_slab, "cmpxchg_double_slab", 200,
                NS_FN_STATIC | NS_FN_NOINLINE, 4);
NS_FUNC (skb_fn___kmalloc_node_track_caller, "__kmalloc_node_track_caller", 320,
                NS_FN_EXTERN, 20);
static NS_FUNC (fn___kmalloc_large_node, "__kmalloc_large_node", 240,
                NS_FN_STATIC | NS_FN_NOINLINE, 2);
NS_FUNC (skb_fn___alloc_pages, "__alloc_pages", 640, NS_FN_EXTERN, 30);
static NS_FUNC (fn_should_fail_alloc_page, "should_fail_alloc_page", 16, NS_FN_EXTERN, 2);
static NS_FUNC (fn_get_page_from_freelist, "get_page_from_freelist", 3400, NS_FN_STATIC, 3);
static NS_FUNC (fn___zone_watermark_ok, "__zone_watermark_ok", 300, NS_FN_EXTERN, 10);
static NS_FUNC (fn__raw_spin_trylock, "_raw_spin_trylock", 48, NS_FN_EXTERN, 200);
static NS_FUNC (fn_rmqueue_bulk, "rmqueue_bulk", 900, NS_FN_STATIC | NS_FN_NOINLINE, 2);
/* 6.1's mod_lruvec_page_state.constprop.0: the irq-save wrapper, out of line there. */
static NS_FUNC (fn_mod_lruvec_page_state, "mod_lruvec_page_state", 64,
                NS_FN_STATIC | NS_FN_NOINLINE, 2);
static NS_FUNC (fn___mod_lruvec_page_state, "__mod_lruvec_page_state", 260, NS_FN_EXTERN, 30);
static NS_FUNC (fn___mod_node_page_state, "__mod_node_page_state", 200, NS_FN_EXTERN, 30);
NS_FUNC (skb_fn_kfree, "kfree", 380, NS_FN_EXTERN, 500);
static NS_FUNC (fn_free_large_kmalloc, "free_large_kmalloc", 200, NS_FN_EXTERN, 2);
static NS_FUNC (fn___free_pages, "__free_pages", 200, NS_FN_EXTERN, 100);
NS_FUNC (skb_fn_free_unref_page, "free_unref_page", 700, NS_FN_EXTERN, 10);
/* v6.5+ free_unref_page_prepare (free_pages_prepare inlined; 982 bytes in Ubuntu's 6.8,
 * DepSurf): 6.1 called free_pcp_prepare there; the count is 6.1's free_pcp_prepare. */
static NS_FUNC (fn_free_unref_page_prepare, "free_unref_page_prepare", 982,
                NS_FN_STATIC | NS_FN_NOINLINE, 2);
static NS_FUNC (fn_free_unref_page_commit, "free_unref_page_commit", 400,
                NS_FN_STATIC | NS_FN_NOINLINE, 2);
static NS_FUNC (fn_free_pcppages_bulk, "free_pcppages_bulk", 1100, NS_FN_STATIC, 3);
NS_FUNC (skb_fn_skb_release_data, "skb_release_data", 420, NS_FN_STATIC, 4);
NS_FUNC (skb_fn_kfree_skbmem, "kfree_skbmem", 160, NS_FN_STATIC, 4);
NS_FUNC (skb_fn_kfree_skb_reason, "kfree_skb_reason", 260, NS_FN_EXTERN, 300);
static NS_FUNC (fn___consume_stateless_skb, "__consume_stateless_skb", 64, NS_FN_EXTERN, 3);
/* Also on seed 002's pktgen path (models/net/sched/skb_xmit.c, models/net/dummy.c): one
 * declaration each, here. Sizes: the Debian 6.1.176 binary's (nm -S) where the census
 * gives them. */
NS_FUNC (skb_fn_should_failslab, "should_failslab", 12, NS_FN_EXTERN, 400);
NS_FUNC (skb_fn_memcg_slab_post_alloc_hook, "memcg_slab_post_alloc_hook", 543,
         NS_FN_STATIC | NS_FN_NOINLINE, 400);
NS_FUNC (skb_fn___build_skb_around, "__build_skb_around", 181,
         NS_FN_STATIC | NS_FN_NOINLINE, 4);
NS_FUNC (skb_fn_kmalloc_reserve, "kmalloc_reserve", 149, NS_FN_STATIC | NS_FN_NOINLINE, 2);
NS_FUNC (skb_fn_kmalloc_size_roundup, "kmalloc_size_roundup", 100, NS_FN_EXTERN, 20);
NS_FUNC (skb_fn_skb_free_head, "skb_free_head", 110, NS_FN_STATIC | NS_FN_NOINLINE, 4);
NS_FUNC (skb_fn_cache_from_obj, "cache_from_obj", 277, NS_FN_STATIC | NS_FN_NOINLINE, 200);
NS_FUNC (skb_fn_skb_clone_tx_timestamp, "skb_clone_tx_timestamp", 160, NS_FN_EXTERN, 60);

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
  gsize         size;           /* object size (allocation class) */
  gsize         align;
  gsize         fp_offset;      /* where SLUB keeps the free pointer in a free object */
  guint         objs_per_slab;
  KmemCacheCpu *cpu;            /* per CPU, arena */
  SlabLine     *slab;           /* per CPU: the slab that CPU allocates from, arena */
  guint        *allocs;         /* per CPU: allocations since the last get_freelist */
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

struct _NsSkbAlloc {
  NsMachine    *machine;
  NsNetStack   *stack;          /* build options (might_resched, DEBUG_LIST, RCU, locks) */
  NsArena      *arena;
  guint         n_cpus;
  KmemCache     skbuff_cache;
  KmemCache     small_head_cache;
  KmemCache     kmalloc[7];     /* 128, 256, 512, 1k, 2k, 4k, 8k */
  PerCpuPages  *pcp;            /* per CPU, arena */
  GQueue       *pcp_list;       /* per CPU: free order-n blocks, newest at the head */
  guint        *pcp_pages;      /* per CPU: pages on the list (kept host-side too) */
  ZoneLockLine *zone;           /* arena */
  GQueue        zone_free;      /* blocks on the zone's free list, head = next out */
  GHashTable   *page_meta;      /* block → its struct pages (arena, 64 bytes per page) */
  GHashTable   *large_order;    /* block → order, for kfree */
  GHashTable   *slab_of;        /* object → KmemCache, for kfree */
  guint64       live_skbs;
  guint64       live_heads;
};

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

/* Sets up cache c: object size, alignment, free-pointer offset, objs per slab, and its
 * per-CPU state in the arena. */
static void
kmem_cache_init (KmemCache *c, NsSkbAlloc *a, const char *name, gsize size, guint objs)
{
  c->name = name;
  c->size = size;
  c->align = size >= 64 ? 64 : 8;
  c->fp_offset = (size / 2) & ~(gsize) 7;
  c->objs_per_slab = objs;
  c->cpu = ns_arena_alloc (a->arena, sizeof (KmemCacheCpu) * a->n_cpus, 64);
  c->slab = ns_arena_alloc (a->arena, sizeof (SlabLine) * a->n_cpus, 64);
  c->allocs = g_new0 (guint, a->n_cpus);
}

/* Creates the allocator state of machine. */
NsSkbAlloc *
ns_skb_alloc_new (NsMachine *machine)
{
  static const char *const kmalloc_names[] = {
    "kmalloc-128", "kmalloc-256", "kmalloc-512", "kmalloc-1k", "kmalloc-2k", "kmalloc-4k",
    "kmalloc-8k"
  };
  NsSkbAlloc *a;

  g_return_val_if_fail (machine != NULL, NULL);
  a = g_new0 (NsSkbAlloc, 1);
  a->machine = machine;
  a->arena = ns_machine_arena (machine);
  a->n_cpus = ns_machine_n_cpus (machine);
  kmem_cache_init (&a->skbuff_cache, a, "skbuff_cache", 256, SKB_OBJS_PER_SLAB);
  kmem_cache_init (&a->small_head_cache, a, "skbuff_small_head", SKB_SMALL_HEAD_CACHE_SIZE,
                   25);
  /* objects per slab: SLUB's calculate_order packs order-0..3 slabs: 32 objects for 128 B
   * to 1 KiB (orders 0 to 3), then 16, 8, 4 in order-3 slabs for 2k, 4k, 8k [R: slabinfo] */
  for (guint i = 0; i < G_N_ELEMENTS (a->kmalloc); i++)
    kmem_cache_init (&a->kmalloc[i], a, kmalloc_names[i], (gsize) 128 << i,
                     MAX (4u, 32u >> (i > 3 ? i - 3 : 0)));
  a->pcp = ns_arena_alloc (a->arena, sizeof (PerCpuPages) * a->n_cpus, 64);
  a->pcp_list = g_new0 (GQueue, a->n_cpus);
  a->pcp_pages = g_new0 (guint, a->n_cpus);
  for (guint c = 0; c < a->n_cpus; c++) {
    ns_spin_lock_init (&a->pcp[c].lock);
    a->pcp[c].high = PCP_HIGH_PAGES;
    a->pcp[c].batch = PCP_BATCH_PAGES;
  }
  a->zone = ns_arena_alloc (a->arena, sizeof (ZoneLockLine), 64);
  ns_spin_lock_init (&a->zone->lock);
  a->page_meta = g_hash_table_new (g_direct_hash, g_direct_equal);
  a->large_order = g_hash_table_new (g_direct_hash, g_direct_equal);
  a->slab_of = g_hash_table_new (g_direct_hash, g_direct_equal);
  return a;
}

/* Frees c's host-side per-CPU allocation counts. */
static void
kmem_cache_clear (KmemCache *c)
{
  g_free (c->allocs);
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
  for (guint c = 0; c < a->n_cpus; c++)
    g_queue_clear (&a->pcp_list[c]);
  g_free (a->pcp_list);
  g_free (a->pcp_pages);
  g_queue_clear (&a->zone_free);
  g_hash_table_destroy (a->page_meta);
  g_hash_table_destroy (a->large_order);
  g_hash_table_destroy (a->slab_of);
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

/* kmem_cache_alloc_node(c, GFP_KERNEL, NUMA_NO_NODE): slab_alloc_node's fast path on t's
 * CPU: might_alloc, the hooks, cpu freelist, the object's free pointer; every
 * objs_per_slab allocations get_freelist's cmpxchg on the slab (remote frees). */
static gpointer
kmem_cache_alloc_node (NsThread *t, NsSkbAlloc *a, KmemCache *c)
{
  guint cpu = ns_thread_cpu (t);
  gpointer obj;

  ns_call (t, &skb_fn_kmem_cache_alloc_node);
  /* census (send.md: 111 less init_on_alloc's 10, P/E 17): 84 — 12 for the arguments,
   * the gfp mask and might_alloc's test with its call and jump back, 55 for the memcg and
   * KFENCE keys, tid and freelist reads, get_freepointer, the cmpxchg16b and sete, 12 for
   * the init_on_alloc key and the hook's call, 5 for the tracepoint */
  ns_insns (t, 12);
  alloc_might_resched (t, a);
  should_failslab (t);
  ns_insns (t, 55);
  ns_load (t, &c->cpu[cpu], 16);
  if (++c->allocs[cpu] >= c->objs_per_slab) {
    c->allocs[cpu] = 0;
    /* estimate: ~60 instructions of ___slab_alloc taking the slab's freelist back */
    ns_insns (t, 60);
    ns_atomic (t, &c->slab[cpu]);
  }
  obj = ns_arena_alloc (a->arena, c->size, c->align);
  ns_load_dep (t, (guint8 *) obj + c->fp_offset, 8);
  ns_store (t, &c->cpu[cpu], 16);
  ns_insns (t, 12);
  memcg_slab_post_alloc_hook (t);
  ns_insns (t, 5);
  c->live++;
  ns_ret (t);
  return obj;
}

/* cache_from_obj: the hardened check that the object belongs to the cache; census 30,
 * P/E 6 (skb.md, recv.md). */
static void
cache_from_obj (NsThread *t)
{
  ns_leaf_call (t, &skb_fn_cache_from_obj, 24);
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
  ns_insns (t, 40);
  cmpxchg_double_slab (t, c, alloc_cpu);
  ns_insns (t, 14);
  ns_ret (t);
}

/* kmem_cache_free → do_slab_free: the fast path when t's CPU allocated the object, else
 * (tail jmp) __slab_free: write the free pointer, cmpxchg_double on the owning CPU's slab. */
static void
kmem_cache_free (NsThread *t, NsSkbAlloc *a, KmemCache *c, gpointer obj, guint alloc_cpu)
{
  guint cpu = ns_thread_cpu (t);

  ns_call (t, &skb_fn_kmem_cache_free);
  ns_insns (t, 8);                  /* census: the tracepoint's caller ip, the call */
  cache_from_obj (t);
  ns_store (t, (guint8 *) obj + c->fp_offset, 8);
  if (alloc_cpu == cpu || alloc_cpu >= a->n_cpus) {
    /* census (skb.md: 74, P/E 13): 53 — virt_to_slab, memcg 1+3, set_freepointer, the
     * cpu-slab test, the cmpxchg16b and sete */
    ns_insns (t, 53);
    ns_store (t, &c->cpu[cpu], 16);
  } else {
    /* census (recv.md: 62, P/E 11): 43 — virt_to_slab, memcg, set_freepointer, c->slab ≠
     * slab, the tail jmp */
    ns_insns (t, 43);
    ns_tail_next (t);
    __slab_free (t, c, alloc_cpu);
  }
  c->live--;
  ns_arena_release (a->arena, obj, c->size);
  ns_ret (t);
}

/* ---- the page allocator ---- */

/* The struct pages of block (1 << order pages, 64 bytes each), created with the block. */
static guint8 *
page_meta_of (NsSkbAlloc *a, gpointer block)
{
  return g_hash_table_lookup (a->page_meta, block);
}

/* A fresh block of 1 << order pages from the arena, page-aligned, with its struct pages. */
static gpointer
zone_grow (NsSkbAlloc *a, guint order)
{
  gpointer block = ns_arena_alloc (a->arena, (gsize) PAGE_SIZE << order, PAGE_SIZE);
  gpointer meta = ns_arena_alloc (a->arena, (gsize) 64 << order, 64);

  g_hash_table_insert (a->page_meta, block, meta);
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

/* rmqueue_bulk: moves nr_pcp_alloc blocks from the zone to cpu's list under zone->lock. */
static void
rmqueue_bulk (NsThread *t, NsSkbAlloc *a, guint cpu, guint order)
{
  guint want = MAX (PCP_BATCH_PAGES >> order, 2u);

  ns_call (t, &fn_rmqueue_bulk);
  ns_spin_lock (t, &a->zone->lock);
  for (guint i = 0; i < want; i++) {
    gpointer block = g_queue_pop_head (&a->zone_free);
    if (block == NULL)
      block = zone_grow (a, order);
    /* estimate: ~40 instructions per block (__rmqueue_smallest, del_page_from_free_list,
     * expand, check_pcp_refill, list_add_tail) */
    ns_insns (t, 40);
    ns_store (t, page_meta_of (a, block), 64);
    g_queue_push_tail (&a->pcp_list[cpu], block);
    a->pcp_pages[cpu] += 1u << order;
  }
  ns_spin_unlock (t, &a->zone->lock);
  ns_ret (t);
}

/* __zone_watermark_ok: above the min watermark, the order's first free list non-empty;
 * census 44, P/E 3 (send.md; +4 per further migratetype list, +6 per empty order). */
static void
__zone_watermark_ok (NsThread *t)
{
  ns_leaf_call (t, &fn___zone_watermark_ok, 41);
}

/* get_page_from_freelist: the first zone's watermark, rmqueue → rmqueue_pcplist (inlined)
 * under the pcp trylock, refilling from the zone when the list is empty, then
 * prep_new_page (inlined: post_alloc_hook, prep_compound_page) writes every struct page. */
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
  if (g_queue_is_empty (&a->pcp_list[cpu]))
    rmqueue_bulk (t, a, cpu, order);
  block = g_queue_pop_head (&a->pcp_list[cpu]);
  a->pcp_pages[cpu] -= 1u << order;
  ns_load_dep (t, page_meta_of (a, block), 64);   /* list_first_entry → page->lru */
  if (a->stack != NULL)
    ns___list_del_entry_valid (t, a->stack);
  ns_insns (t, 20);
  ns_store (t, &a->pcp[cpu].count, sizeof a->pcp[cpu].count);
  pcp_spin_unlock (t, a, cpu);
  ns_insns (t, 76 + 6 * ((1u << order) - 1));
  ns_store (t, page_meta_of (a, block), (gsize) 64 << order);
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

/* __alloc_pages(GFP_KERNEL | __GFP_COMP, order) on t's CPU: prepare_alloc_pages
 * (might_alloc, should_fail_alloc_page), the get_page_from_freelist fast path. */
static gpointer
__alloc_pages (NsThread *t, NsSkbAlloc *a, guint order)
{
  gpointer block;

  ns_call (t, &skb_fn___alloc_pages);
  /* census (send.md): 111, P/E 15 — 96: gfp and order tests, the alloc context, the
   * cpusets and memcg keys, the zonelist; split between the calls: estimate */
  ns_insns (t, 24);
  alloc_might_resched (t, a);
  ns_insns (t, 6);
  should_fail_alloc_page (t);
  ns_insns (t, 36);
  block = get_page_from_freelist (t, a, order);
  ns_insns (t, 30);
  ns_ret (t);
  g_hash_table_insert (a->large_order, block, GUINT_TO_POINTER (order + 1));
  return block;
}

/* __mod_node_page_state: the node's per-CPU vmstat diff, within its threshold; census
 * 23, P/E 3. */
static void
__mod_node_page_state (NsThread *t)
{
  ns_leaf_call (t, &fn___mod_node_page_state, 20);
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
  __mod_node_page_state (t);
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

/* free_pcppages_bulk: about one batch of the oldest blocks back to the zone. */
static void
free_pcppages_bulk (NsThread *t, NsSkbAlloc *a, guint cpu, guint order)
{
  guint n = (PCP_BATCH_PAGES + (1u << order) - 1) >> order;

  ns_call (t, &fn_free_pcppages_bulk);
  ns_spin_lock (t, &a->zone->lock);
  for (guint i = 0; i < n && !g_queue_is_empty (&a->pcp_list[cpu]); i++) {
    gpointer block = g_queue_pop_tail (&a->pcp_list[cpu]);
    a->pcp_pages[cpu] -= 1u << order;
    /* estimate: ~45 instructions per block (__free_one_page without a buddy merge,
     * add_to_free_list, accounting) */
    ns_insns (t, 45);
    ns_store (t, page_meta_of (a, block), 64);
    g_queue_push_head (&a->zone_free, block);
  }
  ns_spin_unlock (t, &a->zone->lock);
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
  g_queue_push_head (&a->pcp_list[cpu], block);
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

/* The kmalloc cache of a request up to 8 KiB (power-of-two classes from 128). */
static KmemCache *
kmalloc_cache (NsSkbAlloc *a, gsize size)
{
  for (guint i = 0; i < G_N_ELEMENTS (a->kmalloc); i++)
    if (size <= a->kmalloc[i].size)
      return &a->kmalloc[i];
  g_return_val_if_reached (NULL);
}

/* kmalloc_size_roundup(size): the kmalloc class, or PAGE_SIZE << get_order above 8 KiB. */
static guint
kmalloc_size_roundup (NsThread *t, NsSkbAlloc *a, guint size)
{
  guint osize;

  ns_call (t, &skb_fn_kmalloc_size_roundup);
  if (size > KMALLOC_MAX_CACHE_SIZE) {
    ns_insns (t, 13);               /* census: 16, P/E 3 (send.md): bsr, the shift */
    osize = PAGE_SIZE << size_order (size);
  } else {
    /* census (skb.md): 11, and kmalloc_slab's 17 (a call there; estimate: the model has
     * no kmalloc_slab of its own) */
    ns_insns (t, 28);
    osize = (guint) kmalloc_cache (a, size)->size;
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
  obj = __alloc_pages (t, a, order);
  ns_insns (t, 12);
  mod_lruvec_page_state (t, a, (gint) (PAGE_SIZE << order));
  ns_insns (t, 6);
  ns_ret (t);
  return obj;
}

/* __kmalloc_node_track_caller(size): a kmalloc-N object up to 8 KiB, else
 * __kmalloc_large_node. */
static guchar *
__kmalloc_node_track_caller (NsThread *t, NsSkbAlloc *a, guint size)
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
    /* estimate: the model allocates kmalloc-N through its kmem_cache_alloc_node (the
     * kernel's __kmem_cache_alloc_node, which seed 002's skb_xmit.c models); 20
     * instructions as skb.md's __kmalloc_node_track_caller */
    ns_insns (t, 20);
    c = kmalloc_cache (a, size);
    obj = kmem_cache_alloc_node (t, a, c);
    g_hash_table_insert (a->slab_of, obj, c);
  }
  ns_ret (t);
  return obj;
}

/* kmalloc_reserve: the head buffer; *size becomes the usable size. Small heads come from
 * skb_small_head_cache (v6.3+), others from kmalloc (kmalloc_large above
 * KMALLOC_MAX_CACHE_SIZE). */
static guchar *
kmalloc_reserve (NsThread *t, NsSkbAlloc *a, guint *size)
{
  KmemCache *c;
  guchar *obj;

  ns_call (t, &skb_fn_kmalloc_reserve);
  ns_insns (t, 10);                 /* census (skb.md: 40, P/E 15): arguments, the call */
  if (*size <= SKB_SMALL_HEAD_CACHE_SIZE) {
    /* v6.3+, not in the 6.1 census: estimate, the same 15 around the allocation */
    c = &a->small_head_cache;
    obj = kmem_cache_alloc_node (t, a, c);
    *size = (guint) c->size;
    g_hash_table_insert (a->slab_of, obj, c);
    ns_insns (t, 15);
    ns_ret (t);
    return obj;
  }
  *size = kmalloc_size_roundup (t, a, *size);
  ns_insns (t, 9);                  /* census: gfp flags, the allocation call */
  obj = __kmalloc_node_track_caller (t, a, *size);
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

/* kfree(head): free_large_kmalloc for a page (tail jmp), the slab path for kmalloc-N and
 * small heads. alloc_cpu picks SLUB's remote path. */
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
    /* census (skb.md): 29, P/E 3; estimate: the model frees through its kmem_cache_free
     * rather than __kmem_cache_free */
    ns_insns (t, 26);
    kmem_cache_free (t, a, c, obj, alloc_cpu);
  }
  ns_ret (t);
}

/* ---- sk_buff ---- */

/* __build_skb_around(skb, data, size): the fields from `tail` on, the shared info. */
static void
__build_skb_around (NsThread *t, struct sk_buff *skb, guchar *data, guint size)
{
  struct skb_shared_info *shinfo;

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
  ns_ret (t);
}

/* Allocates an skb with a head of at least size bytes of data (GFP_KERNEL, no fclone). */
struct sk_buff *
__alloc_skb (NsThread *t, NsSkbAlloc *a, guint size)
{
  struct sk_buff *skb;
  guint osize;
  guchar *data;

  g_return_val_if_fail (t != NULL && a != NULL, NULL);
  ns_call (t, &skb_fn___alloc_skb);
  /* census (skb.md, send.md): 75, P/E 15 — 60 */
  ns_insns (t, 12);                 /* stack protector, flags, the cache, the call */
  skb = kmem_cache_alloc_node (t, a, &a->skbuff_cache);
  ns_insns (t, 8);                  /* the NULL test, prefetchw, SKB_HEAD_ALIGN */
  ns_prefetch (t, skb);
  osize = SKB_DATA_ALIGN (size) + SKB_SHINFO_SIZE;
  data = kmalloc_reserve (t, a, &osize);
  /* memset(skb, 0, offsetof(struct sk_buff, tail)): one rep stosq of 22 quadwords */
  memset (skb, 0, offsetof (struct sk_buff, tail));
  ns_store (t, skb, offsetof (struct sk_buff, tail));
  ns_insns (t, 10);                 /* the NULL test, the rep stosq and its set-up */
  __build_skb_around (t, skb, data, osize - SKB_SHINFO_SIZE);
  ns_insns (t, 30);                 /* the pfmemalloc merge, the fclone test, the canary */
  a->live_skbs++;
  a->live_heads++;
  ns_ret (t);
  return skb;
}

/* skb_free_head: head_frag is 0 for kmalloc'ed heads: tail jmp kfree. */
static void
skb_free_head (NsThread *t, NsSkbAlloc *a, struct sk_buff *skb)
{
  ns_call (t, &skb_fn_skb_free_head);
  ns_insns (t, 6);                  /* census: 9, P/E 3: head_frag, pp_recycle */
  ns_tail_next (t);
  kfree (t, a, skb->head, skb->alloc_cpu);
  ns_ret (t);
}

/* skb_release_data: drop the shinfo dataref (atomic unless it is the only user) and free
 * the head; a linear skb has no frags or frag_list to release. */
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

/* kfree_skb: skb_unref, then release data and the sk_buff (no head state left). */
void
kfree_skb (NsThread *t, NsSkbAlloc *a, struct sk_buff *skb)
{
  g_return_if_fail (t != NULL && a != NULL && skb != NULL);
  ns_call (t, &skb_fn_kfree_skb_reason);
  /* estimate: ~30 instructions (skb_unref fast path, trace point off, skb_release_all's
   * head state checks) */
  ns_insns (t, 30);
  NS_LOAD_FIELD (t, skb, users);
  NS_LOAD_FIELD (t, skb, _skb_refdst);
  skb_release_data (t, a, skb);
  kfree_skbmem (t, a, skb);
  ns_ret (t);
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
