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

/* ---- model functions: text sizes are estimates (no DepSurf entry in kernel-spec §1.8):
 * bytes of x86-64 text of a v6.x distro build, judged from the C source's size ---- */

NS_FUNC (skb_fn___alloc_skb, "__alloc_skb", 480, NS_FN_EXTERN, 8);
NS_FUNC (skb_fn_kmem_cache_alloc_node, "kmem_cache_alloc_node", 560, NS_FN_EXTERN, 40);
NS_FUNC (skb_fn_kmem_cache_free, "kmem_cache_free", 640, NS_FN_EXTERN, 200);
static NS_FUNC (fn___slab_free, "__slab_free", 720, NS_FN_STATIC | NS_FN_NOINLINE, 2);
NS_FUNC (skb_fn___kmalloc_node_track_caller, "__kmalloc_node_track_caller", 320,
                NS_FN_EXTERN, 20);
static NS_FUNC (fn___kmalloc_large_node, "__kmalloc_large_node", 240, NS_FN_STATIC, 2);
NS_FUNC (skb_fn___alloc_pages, "__alloc_pages", 640, NS_FN_EXTERN, 30);
static NS_FUNC (fn_get_page_from_freelist, "get_page_from_freelist", 3400, NS_FN_STATIC, 3);
static NS_FUNC (fn_rmqueue_bulk, "rmqueue_bulk", 900, NS_FN_STATIC | NS_FN_NOINLINE, 2);
static NS_FUNC (fn_prep_new_page, "prep_new_page", 420, NS_FN_STATIC, 2);
static NS_FUNC (fn_mod_lruvec_page_state, "__mod_lruvec_page_state", 260, NS_FN_EXTERN, 30);
NS_FUNC (skb_fn_kfree, "kfree", 380, NS_FN_EXTERN, 500);
static NS_FUNC (fn_free_large_kmalloc, "free_large_kmalloc", 200, NS_FN_EXTERN, 2);
NS_FUNC (skb_fn_free_unref_page, "free_unref_page", 700, NS_FN_EXTERN, 10);
static NS_FUNC (fn_free_pcppages_bulk, "free_pcppages_bulk", 1100, NS_FN_STATIC, 3);
NS_FUNC (skb_fn_skb_release_data, "skb_release_data", 420, NS_FN_STATIC, 4);
NS_FUNC (skb_fn_kfree_skbmem, "kfree_skbmem", 160, NS_FN_STATIC, 4);
NS_FUNC (skb_fn_kfree_skb_reason, "kfree_skb_reason", 260, NS_FN_EXTERN, 300);
static NS_FUNC (fn___consume_stateless_skb, "__consume_stateless_skb", 64, NS_FN_EXTERN, 3);

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
  gint32  count;                /* struct per_cpu_pages: count, high, batch, lists */
  gint32  high;
  gint32  batch;
  guint8  pad[52];
} PerCpuPages;

typedef struct {
  NsSpinlock lock;              /* zone->lock, on its own line */
  guint8     pad[60];
} ZoneLockLine;

struct _NsSkbAlloc {
  NsMachine    *machine;
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

/* ---- SLUB ---- */

/* slab_alloc_node fast path on t's CPU: cpu freelist, the object's free pointer, and every
 * objs_per_slab allocations get_freelist's cmpxchg on the slab (remote frees). */
static gpointer
kmem_cache_alloc_node (NsThread *t, NsSkbAlloc *a, KmemCache *c)
{
  guint cpu = ns_thread_cpu (t);
  gpointer obj;

  ns_call (t, &skb_fn_kmem_cache_alloc_node);
  /* estimate: ~45 instructions (slab_pre_alloc_hook, tid/freelist reads, the unlocked
   * this_cpu_cmpxchg16b, post-alloc hooks with kmemcg and KASAN off) */
  ns_insns (t, 45);
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
  c->live++;
  ns_ret (t);
  return obj;
}

/* do_slab_free: the fast path when t's CPU allocated the object, else __slab_free (write
 * the free pointer, cmpxchg_double on the owning CPU's slab). */
static void
kmem_cache_free (NsThread *t, NsSkbAlloc *a, KmemCache *c, gpointer obj, guint alloc_cpu)
{
  guint cpu = ns_thread_cpu (t);

  ns_call (t, &skb_fn_kmem_cache_free);
  /* estimate: ~40 instructions (virt_to_slab, free hooks, tid check) */
  ns_insns (t, 40);
  ns_store (t, (guint8 *) obj + c->fp_offset, 8);
  if (alloc_cpu == cpu || alloc_cpu >= a->n_cpus) {
    ns_store (t, &c->cpu[cpu], 16);
  } else {
    ns_call (t, &fn___slab_free);
    /* estimate: ~70 instructions (counters, cmpxchg loop, no list manipulation while the
     * slab stays the owner's cpu slab) */
    ns_insns (t, 70);
    ns_atomic (t, &c->slab[alloc_cpu]);
    ns_ret (t);
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

/* prep_new_page: post_alloc_hook and prep_compound_page write every struct page. */
static void
prep_new_page (NsThread *t, NsSkbAlloc *a, gpointer block, guint order)
{
  ns_call (t, &fn_prep_new_page);
  /* estimate: ~25 + 12 per tail page instructions (set_page_refcounted, compound head,
   * tail pages' compound_head) */
  ns_insns (t, 25 + 12 * ((1u << order) - 1));
  ns_store (t, page_meta_of (a, block), (gsize) 64 << order);
  ns_ret (t);
}

/* __alloc_pages(order) on t's CPU through the PCP list (get_page_from_freelist → rmqueue →
 * rmqueue_pcplist, refilling from the zone when the list is empty). */
static gpointer
__alloc_pages (NsThread *t, NsSkbAlloc *a, guint order)
{
  guint cpu = ns_thread_cpu (t);
  gpointer block;

  ns_call (t, &skb_fn___alloc_pages);
  /* estimate: ~35 instructions (gfp checks, alloc context, cpuset/mems fast path) */
  ns_insns (t, 35);
  ns_call (t, &fn_get_page_from_freelist);
  /* estimate: ~70 instructions (zonelist walk to the first zone, watermark fast check,
   * rmqueue → rmqueue_pcplist: pcp_spin_trylock, list pick) */
  ns_insns (t, 70);
  ns_atomic (t, &a->pcp[cpu]);   /* pcp->lock (a spinlock in per_cpu_pages, v6.0+) */
  if (g_queue_is_empty (&a->pcp_list[cpu]))
    rmqueue_bulk (t, a, cpu, order);
  block = g_queue_pop_head (&a->pcp_list[cpu]);
  a->pcp_pages[cpu] -= 1u << order;
  ns_load_dep (t, page_meta_of (a, block), 64);   /* list_first_entry → page->lru */
  ns_store (t, &a->pcp[cpu].count, sizeof a->pcp[cpu].count);
  prep_new_page (t, a, block, order);
  ns_ret (t);
  ns_ret (t);
  g_hash_table_insert (a->large_order, block, GUINT_TO_POINTER (order + 1));
  return block;
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

/* free_unref_page(order): onto t's CPU's list, draining to the zone above pcp->high. */
static void
free_unref_page (NsThread *t, NsSkbAlloc *a, gpointer block, guint order)
{
  guint cpu = ns_thread_cpu (t);

  ns_call (t, &skb_fn_free_unref_page);
  /* estimate: ~60 instructions (free_pages_prepare checks of every struct page,
   * free_unref_page_prepare, pcp_spin_trylock, free_unref_page_commit) */
  ns_insns (t, 60 + 8 * ((1u << order) - 1));
  ns_store (t, page_meta_of (a, block), (gsize) 64 << order);
  ns_atomic (t, &a->pcp[cpu]);
  g_queue_push_head (&a->pcp_list[cpu], block);
  a->pcp_pages[cpu] += 1u << order;
  ns_store (t, &a->pcp[cpu].count, sizeof a->pcp[cpu].count);
  if (a->pcp_pages[cpu] >= PCP_HIGH_PAGES)
    free_pcppages_bulk (t, a, cpu, order);
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

/* kmalloc_reserve: the head buffer; *size becomes the usable size (kmalloc_size_roundup).
 * Small heads come from skb_small_head_cache (v6.3+), others from kmalloc-N, and above
 * KMALLOC_MAX_CACHE_SIZE from __kmalloc_large_node → alloc_pages. */
static guchar *
kmalloc_reserve (NsThread *t, NsSkbAlloc *a, guint *size)
{
  KmemCache *c;
  guchar *obj;

  /* estimate: ~15 instructions inlined in __alloc_skb (size class choice) */
  ns_insns (t, 15);
  if (*size <= SKB_SMALL_HEAD_CACHE_SIZE) {
    c = &a->small_head_cache;
    obj = kmem_cache_alloc_node (t, a, c);
    *size = (guint) c->size;
    g_hash_table_insert (a->slab_of, obj, c);
    return obj;
  }
  ns_call (t, &skb_fn___kmalloc_node_track_caller);
  /* estimate: ~20 instructions (size index, large check) */
  ns_insns (t, 20);
  if (*size <= KMALLOC_MAX_CACHE_SIZE) {
    c = kmalloc_cache (a, *size);
    obj = kmem_cache_alloc_node (t, a, c);
    *size = (guint) c->size;
    g_hash_table_insert (a->slab_of, obj, c);
  } else {
    guint order = size_order (*size);
    ns_call (t, &fn___kmalloc_large_node);
    /* estimate: ~20 instructions (flags, order, ptr from folio) */
    ns_insns (t, 20);
    obj = __alloc_pages (t, a, order);
    ns_call (t, &fn_mod_lruvec_page_state);
    /* estimate: ~50 instructions (per-cpu vmstat and memcg lruvec counters) */
    ns_insns (t, 50);
    ns_ret (t);
    ns_ret (t);
    *size = PAGE_SIZE << order;
  }
  ns_ret (t);
  return obj;
}

/* kfree(head): the slab path for kmalloc-N / small heads, free_large_kmalloc for pages.
 * alloc_cpu picks SLUB's remote path. */
static void
kfree (NsThread *t, NsSkbAlloc *a, gpointer obj, guint alloc_cpu)
{
  gpointer order_p = g_hash_table_lookup (a->large_order, obj);

  ns_call (t, &skb_fn_kfree);
  /* estimate: ~20 instructions (virt_to_folio, slab test) */
  ns_insns (t, 20);
  if (order_p != NULL) {
    guint order = GPOINTER_TO_UINT (order_p) - 1;
    g_hash_table_remove (a->large_order, obj);
    ns_call (t, &fn_free_large_kmalloc);
    /* estimate: ~25 instructions (folio order, KASAN/kmemleak hooks off) */
    ns_insns (t, 25);
    ns_call (t, &fn_mod_lruvec_page_state);
    ns_insns (t, 50);
    ns_ret (t);
    free_unref_page (t, a, obj, order);
    ns_ret (t);
  } else {
    KmemCache *c = g_hash_table_lookup (a->slab_of, obj);
    g_return_if_fail (c != NULL);
    g_hash_table_remove (a->slab_of, obj);
    kmem_cache_free (t, a, c, obj, alloc_cpu);
  }
  ns_ret (t);
}

/* ---- sk_buff ---- */

/* Allocates an skb with a head of at least size bytes of data (GFP_KERNEL, no fclone). */
struct sk_buff *
__alloc_skb (NsThread *t, NsSkbAlloc *a, guint size)
{
  struct sk_buff *skb;
  struct skb_shared_info *shinfo;
  guint osize;
  guchar *data;

  g_return_val_if_fail (t != NULL && a != NULL, NULL);
  ns_call (t, &skb_fn___alloc_skb);
  /* estimate: ~30 instructions (cache choice, gfp, prefetchw, size alignment) */
  ns_insns (t, 30);
  skb = kmem_cache_alloc_node (t, a, &a->skbuff_cache);
  osize = SKB_DATA_ALIGN (size) + SKB_SHINFO_SIZE;
  data = kmalloc_reserve (t, a, &osize);
  osize -= SKB_SHINFO_SIZE;
  /* memset(skb, 0, offsetof(struct sk_buff, tail)) and __finalize_skb_around: estimate
   * ~35 instructions (rep stosb of 188 bytes counted as its stores, field set-up) */
  memset (skb, 0, offsetof (struct sk_buff, tail));
  ns_insns (t, 35);
  ns_store (t, skb, sizeof *skb);
  skb->truesize = SKB_TRUESIZE (osize);
  skb->users = 1;
  skb->head = data;
  skb->data = data;
  skb->tail = 0;
  skb->end = osize;
  skb->mac_header = 0xffff;
  skb->transport_header = 0xffff;
  skb->alloc_cpu = (guint16) ns_thread_cpu (t);
  shinfo = skb_shinfo (skb);
  memset (shinfo, 0, offsetof (struct skb_shared_info, dataref));
  shinfo->dataref = 1;
  ns_store (t, shinfo, offsetof (struct skb_shared_info, xdp_frags_size));
  a->live_skbs++;
  a->live_heads++;
  ns_ret (t);
  return skb;
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
  /* estimate: ~25 instructions (cloned test, dataref, frag loop of 0, zerocopy test) */
  ns_insns (t, 25);
  NS_LOAD_FIELD (t, skb, cloned_bits);
  ns_load (t, shinfo, offsetof (struct skb_shared_info, xdp_frags_size));
  /* skb_free_head → kfree(head) (head_frag is 0 for kmalloc'ed heads) */
  kfree (t, a, skb->head, skb->alloc_cpu);
  a->live_heads--;
  skb->head = skb->data = NULL;
  ns_ret (t);
}

/* kfree_skbmem: the sk_buff back to skbuff_cache (not fclone). */
void
kfree_skbmem (NsThread *t, NsSkbAlloc *a, struct sk_buff *skb)
{
  g_return_if_fail (t != NULL && a != NULL && skb != NULL);
  ns_call (t, &skb_fn_kfree_skbmem);
  /* estimate: ~10 instructions (fclone switch) */
  ns_insns (t, 10);
  NS_LOAD_FIELD (t, skb, cloned_bits);
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

/* __consume_stateless_skb: release data, free the sk_buff. */
void
__consume_stateless_skb (NsThread *t, NsSkbAlloc *a, struct sk_buff *skb)
{
  g_return_if_fail (t != NULL && a != NULL && skb != NULL);
  ns_call (t, &fn___consume_stateless_skb);
  ns_insns (t, 6);
  skb_release_data (t, a, skb);
  kfree_skbmem (t, a, skb);
  ns_ret (t);
}
