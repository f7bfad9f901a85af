/* skb_xmit.c — the life of a transmit skb built by a driver-style allocation on v6.1:
 *  - __netdev_alloc_skb (net/core/skbuff.c): a length that with NET_SKB_PAD is at most
 *    SKB_WITH_OVERHEAD(1024) (704 bytes: pktgen's 60-byte frames) or above
 *    SKB_WITH_OVERHEAD(PAGE_SIZE) goes to __alloc_skb: the sk_buff from skbuff_head_cache
 *    (kmem_cache_alloc_node), the head from kmalloc (kmalloc_reserve →
 *    kmalloc_size_roundup, __kmalloc_node_track_caller → __kmem_cache_alloc_node: 576
 *    bytes round up to kmalloc-1k), the sk_buff cleared to `tail`, __build_skb_around;
 *    the Debian 6.1.176 binary takes this branch (doc/census/skb.md). Lengths in between
 *    take a page fragment of this CPU's napi_alloc_cache (local_bh_disable around
 *    page_frag_alloc) and __build_skb (kmem_cache_alloc), head_frag = 1. NET_SKB_PAD is
 *    reserved either way;
 *  - the SLUB fast paths run their hooks: should_failslab (fault injection off) and
 *    memcg_slab_post_alloc_hook (memcg kmem accounting on, as on any systemd machine; the
 *    object not accounted); frees check the cache (cache_from_obj). CONFIG_INIT_ON_ALLOC
 *    (zeroing every object, Debian's default) is off, the Kconfig default;
 *  - __page_frag_alloc_align (mm/page_alloc.c): carve from the top of a 32 KiB order-3
 *    page, pagecnt_bias counts the carvings; when the page is used up and every fragment
 *    was freed (page_ref_sub_and_test), the page is reused in place;
 *  - skb_put / skb_push: exported functions in v6.1;
 *  - kfree_skb_reason / consume_skb: tx_skb_unref (a plain read when users == 1, else a
 *    locked decrement), then __kfree_skb (inline): tx_skb_release_head_state (dst,
 *    destructor, conntrack, extensions), tx_skb_release_data (cloned/zerocopy/frags tests,
 *    skb_free_head → kfree → __kmem_cache_free, or page_frag_free: a locked decrement of
 *    the page's refcount), kfree_skbmem → kmem_cache_free; each arrow from
 *    skb_free_head on, and the one into kfree_skbmem, is a tail jmp in the binary: the
 *    callee is entered by ns_tail_call / ns_tail_next (one return for both);
 *  - local_bh_disable / __local_bh_enable_ip (kernel/softirq.c: models/net/softirq.c, on
 *    this stack's per-CPU data).
 * Instruction counts: the census of the Debian 6.1.176 binary (doc/census/skb.md,
 * pktgen.md), body instructions (each function's total less its prologue, epilogue and
 * return, which the machine charges per call), unless marked "estimate" (paths the census
 * did not take). SLUB objects keep their free pointer at size/2, read on allocation; they
 * are arena memory recycled most-recently-freed first, as the per-CPU freelist recycles
 * them. */
#include "config.h"
#include <string.h>
#include "netdev.h"
#include "net/netdevice.h"

#define SKB_OBJ_SIZE    256u     /* skbuff_head_cache: 232 bytes, HWCACHE_ALIGN */
#define SKB_FP_OFFSET   112u     /* SLUB free pointer: ALIGN_DOWN(232 / 2, 8) */
/* SLUB's free pointer of a cache whose objects are objsize bytes (kmalloc caches:
 * the slot size): s->offset = ALIGN_DOWN(objsize / 2, sizeof(void *)). */
#define SLAB_FP_OFFSET(objsize)  ((gsize) (objsize) / 2 & ~(gsize) 7)
#define SKB_WITH_OVERHEAD_1K  (1024u - SKB_SHINFO_SIZE)   /* SKB_WITH_OVERHEAD(1024) */
#define KMALLOC_MIN_HEAD      512u  /* the smallest kmalloc cache a head rounds up to */
#define SKB_WITH_OVERHEAD_PAGE (4096u - SKB_SHINFO_SIZE)  /* SKB_WITH_OVERHEAD(PAGE_SIZE) */
#define SKB_HEAD_FRAG         0x10u /* skb->head_frag in cloned_bits */

/* Sizes: estimates of x86-64 text, v6.1, or the Debian 6.1.176 binary's (nm -S) for the
 * functions the census added. __alloc_skb, kmem_cache_alloc_node, kmem_cache_free,
 * kfree, __kmalloc_node_track_caller, skb_release_data, kfree_skbmem, kfree_skb_reason,
 * kmalloc_reserve, kmalloc_size_roundup, should_failslab, memcg_slab_post_alloc_hook,
 * __build_skb_around, skb_free_head and cache_from_obj (skbuff.c, through skbuff.h) are
 * declared once where their model lives. */
static NS_FUNC (fn___netdev_alloc_skb, "__netdev_alloc_skb", 380, NS_FN_EXTERN, 60);
static NS_FUNC (fn_kmalloc_slab, "kmalloc_slab", 135, NS_FN_EXTERN, 40);
static NS_FUNC (fn___kmem_cache_alloc_node, "__kmem_cache_alloc_node", 668, NS_FN_EXTERN, 40);
static NS_FUNC (fn___kmem_cache_free, "__kmem_cache_free", 658, NS_FN_EXTERN, 40);
static NS_FUNC (fn___page_frag_alloc_align, "__page_frag_alloc_align", 300, NS_FN_EXTERN, 8);
static NS_FUNC (fn___page_frag_cache_refill, "__page_frag_cache_refill", 120,
                NS_FN_STATIC | NS_FN_NOINLINE, 1);
static NS_FUNC (fn___build_skb, "__build_skb", 200, NS_FN_EXTERN, 4);
static NS_FUNC (fn_kmem_cache_alloc, "kmem_cache_alloc", 560, NS_FN_EXTERN, 400);
static NS_FUNC (fn_skb_put, "skb_put", 64, NS_FN_EXTERN, 400);
static NS_FUNC (fn_skb_push, "skb_push", 64, NS_FN_EXTERN, 200);
static NS_FUNC (fn_consume_skb, "consume_skb", 96, NS_FN_EXTERN, 300);
static NS_FUNC (fn___kfree_skb, "__kfree_skb", 80, NS_FN_STATIC | NS_FN_ALWAYS_INLINE, 30);
static NS_FUNC (fn_skb_release_head_state, "skb_release_head_state", 180, NS_FN_EXTERN, 6);
static NS_FUNC (fn_page_frag_free, "page_frag_free", 96, NS_FN_EXTERN, 40);

/* ---- the environment ---- */

/* This CPU's pcpu_hot.preempt_count and irq_stat.__softirq_pending (tx_pcpu). */
static gint32 *
tx_preempt_count (gpointer owner, NsThread *t)
{
  return &net_tx_pcpu (owner, t)->preempt_count;
}

/* This CPU's irq_stat.__softirq_pending (tx_pcpu). */
static guint32 *
tx_softirq_pending (gpointer owner, NsThread *t)
{
  return &net_tx_pcpu (owner, t)->softirq_pending;
}

/* Creates the transmit-path state of machine (tc: its tc environment). */
NetTx *
net_tx_new (NsMachine *machine, TcEnv *tc)
{
  NetTx *tx;

  g_return_val_if_fail (machine != NULL && tc != NULL, NULL);
  tx = g_new0 (NetTx, 1);
  tx->machine = machine;
  tx->arena = ns_machine_arena (machine);
  tx->tc = tc;
  tx->n_cpus = ns_machine_n_cpus (machine);
  tx->pcpu = ns_arena_alloc (tx->arena, sizeof (struct tx_pcpu) * tx->n_cpus, 64);
  for (guint c = 0; c < tx->n_cpus; c++)
    tx->pcpu[c].cpu_number = c;
  tx->ptype_all = ns_arena_alloc (tx->arena, 64, 64);
  tx->ptype_all->next = tx->ptype_all->prev = tx->ptype_all;
  tx->noqueue_qdisc = ns_arena_alloc (tx->arena, sizeof (struct Qdisc), 64);
  tx->skbuff_head_cache = ns_arena_alloc (tx->arena, 64, 64);
  tx->kmalloc_caches = ns_arena_alloc (tx->arena, 64, 64);
  tx->page_of = g_hash_table_new (g_direct_hash, g_direct_equal);
  /* nothing raises a softirq on this path: no do_softirq */
  tx->softirq = (SoftirqCtx) { tx, tx_preempt_count, tx_softirq_pending, NULL };
  net_tx_core_init (tx);
  return tx;
}

/* Frees the host side of the transmit path (NULL is fine; arena memory goes with the
 * machine). */
void
net_tx_free (NetTx *tx)
{
  if (tx == NULL)
    return;
  g_hash_table_destroy (tx->page_of);
  g_free (tx);
}

/* This CPU's per-CPU area. */
struct tx_pcpu *
net_tx_pcpu (NetTx *tx, NsThread *t)
{
  return &tx->pcpu[ns_thread_cpu (t)];
}

/* ---- allocation ---- */

/* A fresh order-3 page for the frag cache (alloc_pages_node + page_ref_add). */
static void
tx_page_frag_cache_refill (NsThread *t, NetTx *tx, struct page_frag_cache *nc)
{
  struct page_ns *page;

  ns_call (t, &fn___page_frag_cache_refill);
  nc->va = ns_arena_alloc (tx->arena, PAGE_FRAG_CACHE_MAX_SIZE, PAGE_FRAG_CACHE_MAX_SIZE);
  page = ns_arena_alloc (tx->arena, sizeof *page, 64);
  g_hash_table_insert (tx->page_of, nc->va, page);
  page->_refcount = 1 + PAGE_FRAG_CACHE_MAX_SIZE;
  ns_store (t, &page->_refcount, sizeof page->_refcount);
  /* estimate: 300 instructions — an order-3 allocation from the per-CPU lists
   * (__alloc_pages fast path, prep_new_page) and the refcount setup; rare: once per
   * page that still has a live fragment when it runs out */
  ns_insns (t, 300);
  nc->size = PAGE_FRAG_CACHE_MAX_SIZE;
  nc->pfmemalloc = FALSE;
  nc->pagecnt_bias = PAGE_FRAG_CACHE_MAX_SIZE + 1;
  nc->offset = PAGE_FRAG_CACHE_MAX_SIZE;
  ns_ret (t);
}

/* __page_frag_alloc_align(nc, fragsz, GFP_ATOMIC, ~0u): the next fragment below offset. */
static guint8 *
tx_page_frag_alloc (NsThread *t, NetTx *tx, struct page_frag_cache *nc, guint fragsz)
{
  gint offset;

  ns_call (t, &fn___page_frag_alloc_align);
  ns_load (t, nc, sizeof *nc);
  /* estimate: 10 instructions (va test, offset arithmetic, bias decrement, stores) */
  ns_insns (t, 10);
  if (nc->va == NULL)
    tx_page_frag_cache_refill (t, tx, nc);
  offset = (gint) nc->offset - (gint) fragsz;
  if (G_UNLIKELY (offset < 0)) {
    struct page_ns *page = g_hash_table_lookup (tx->page_of, nc->va);

    /* page_ref_sub_and_test(page, nc->pagecnt_bias) */
    ns_atomic (t, &page->_refcount);
    page->_refcount -= (gint32) nc->pagecnt_bias;
    /* estimate: 8 instructions (virt_to_page, the test, set_page_count, bias reset) */
    ns_insns (t, 8);
    if (page->_refcount != 0) {
      tx_page_frag_cache_refill (t, tx, nc);
    } else {
      page->_refcount = PAGE_FRAG_CACHE_MAX_SIZE + 1;
      ns_store (t, &page->_refcount, sizeof page->_refcount);
      nc->pagecnt_bias = PAGE_FRAG_CACHE_MAX_SIZE + 1;
    }
    offset = (gint) PAGE_FRAG_CACHE_MAX_SIZE - (gint) fragsz;
  }
  nc->pagecnt_bias--;
  nc->offset = (guint16) offset;
  ns_store (t, nc, sizeof *nc);
  ns_ret (t);
  return nc->va + offset;
}

/* The core of slab_alloc_node's fast path on a cache whose kmem_cache line is cache and
 * whose kmem_cache_cpu line is freelist: insns instructions, the object's free pointer
 * (at fp_offset) read, the freelist advanced. Returns a size-byte object. */
static guint8 *
tx_slab_fastpath (NsThread *t, NetTx *tx, gpointer cache, gpointer freelist, gsize size,
                  gsize fp_offset, guint insns)
{
  guint8 *obj;

  ns_load (t, cache, 64);
  ns_load (t, freelist, 16);
  ns_insns (t, insns);
  obj = ns_arena_alloc (tx->arena, size, 64);
  ns_load_dep (t, obj + fp_offset, 8);
  ns_store (t, freelist, 16);
  return obj;
}

/* kmem_cache_alloc(skbuff_head_cache): the SLUB fast path on this CPU. */
static struct sk_buff *
tx_kmem_cache_alloc_skb (NsThread *t, NetTx *tx)
{
  guint8 *obj;

  ns_call (t, &fn_kmem_cache_alloc);
  /* estimate: 45 instructions, the hand estimate of the SLUB fast path before the
   * census (not counted: the census's kmalloc path, tx_slab_alloc, charges about 82 for
   * kmem_cache_alloc_node with its hooks) */
  obj = tx_slab_fastpath (t, tx, tx->skbuff_head_cache, &net_tx_pcpu (tx, t)->slab_freelist,
                          SKB_OBJ_SIZE, SKB_FP_OFFSET, 45);
  tx->skbs_live++;
  tx->skbs_allocated++;
  ns_ret (t);
  return (struct sk_buff *) obj;
}

/* __build_skb_around(skb, data, size): the fields after `tail`, the shared info. */
static void
tx___build_skb_around (NsThread *t, struct sk_buff *skb, guint8 *data, guint size)
{
  struct skb_shared_info *shinfo;

  ns_call (t, &skb_fn___build_skb_around);
  size -= SKB_SHINFO_SIZE;
  skb->truesize = SKB_TRUESIZE (size);
  skb->users = 1;
  skb->head = skb->data = data;
  skb->tail = 0;
  skb->end = size;
  skb->mac_header = skb->transport_header = 0xFFFF;
  skb->alloc_cpu = (guint16) ns_thread_cpu (t);
  ns_store (t, &skb->tail, offsetof (struct sk_buff, extensions) -
                           offsetof (struct sk_buff, tail));
  shinfo = skb_shinfo (skb);
  memset (shinfo, 0, offsetof (struct skb_shared_info, dataref));
  shinfo->dataref = 1;
  ns_store (t, shinfo, offsetof (struct skb_shared_info, dataref) + 4);
  /* census: 24 instructions — the fields, the shinfo memset (4 stores), dataref */
  ns_insns (t, 24);
  ns_ret (t);
}

/* __build_skb(data, frag_size): sk_buff cleared to `tail`, __build_skb_around. */
static struct sk_buff *
tx_build_skb (NsThread *t, NetTx *tx, guint8 *data, guint frag_size)
{
  struct sk_buff *skb;

  ns_call (t, &fn___build_skb);
  skb = tx_kmem_cache_alloc_skb (t, tx);
  memset (skb, 0, offsetof (struct sk_buff, tail));
  ns_store (t, skb, offsetof (struct sk_buff, tail));
  /* estimate: 24 instructions — the 188-byte memset as 8-byte stores, the call */
  ns_insns (t, 24);
  tx___build_skb_around (t, skb, data, frag_size);
  ns_ret (t);
  return skb;
}

/* should_failslab: fault injection off. */
static void
tx_should_failslab (NsThread *t)
{
  ns_call (t, &skb_fn_should_failslab);
  ns_insns (t, 1);                  /* census: the zero return */
  ns_ret (t);
}

/* memcg_slab_post_alloc_hook: memcg kmem accounting on, the object not accounted. */
static void
tx_memcg_slab_post_alloc_hook (NsThread *t)
{
  ns_call (t, &skb_fn_memcg_slab_post_alloc_hook);
  ns_insns (t, 6);                  /* census: the objcg test, the loop not entered */
  ns_ret (t);
}

/* slab_alloc_node's fast path on this CPU's cpu slab of a cache whose kmem_cache line is
 * cache and whose kmem_cache_cpu line is freelist: the hooks, the tid and freelist
 * reads, the object's free pointer (at fp_offset), the this_cpu_cmpxchg16b. Returns a
 * size-byte object. */
static guint8 *
tx_slab_alloc (NsThread *t, NetTx *tx, gpointer cache, gpointer freelist, gsize size,
               gsize fp_offset)
{
  guint8 *obj;

  ns_insns (t, 10);                 /* census: arguments, the gfp mask, might_alloc */
  tx_should_failslab (t);
  /* census: 55 instructions — memcg and KFENCE keys, tid and freelist reads, the
   * node test, get_freepointer, the cmpxchg16b and sete, prefetch of the next object */
  obj = tx_slab_fastpath (t, tx, cache, freelist, size, fp_offset, 55);
  ns_insns (t, 12);                 /* census: the init_on_alloc key, the post hook's call */
  tx_memcg_slab_post_alloc_hook (t);
  return obj;
}

/* kmem_cache_alloc_node(skbuff_head_cache, gfp, NUMA_NO_NODE). */
static struct sk_buff *
tx_kmem_cache_alloc_node_skb (NsThread *t, NetTx *tx)
{
  guint8 *obj;

  ns_call (t, &skb_fn_kmem_cache_alloc_node);
  obj = tx_slab_alloc (t, tx, tx->skbuff_head_cache, &net_tx_pcpu (tx, t)->slab_freelist,
                       SKB_OBJ_SIZE, SKB_FP_OFFSET);
  ns_insns (t, 5);                  /* census: the kmem_cache_alloc_node tracepoint */
  tx->skbs_live++;
  tx->skbs_allocated++;
  ns_ret (t);
  return (struct sk_buff *) obj;
}

/* kmalloc_slab(size): the kmalloc cache of a size above 192 bytes (fls of size - 1). */
static void
tx_kmalloc_slab (NsThread *t, NetTx *tx)
{
  ns_call (t, &fn_kmalloc_slab);
  ns_load (t, tx->kmalloc_caches, 8);
  ns_insns (t, 17);                 /* census: the size tests, fls, kmalloc_caches[][] */
  ns_ret (t);
}

/* kmalloc_size_roundup(size): the object size of the kmalloc cache size falls in. */
static guint
tx_kmalloc_size_roundup (NsThread *t, NetTx *tx, guint size)
{
  guint osize = KMALLOC_MIN_HEAD;

  ns_call (t, &skb_fn_kmalloc_size_roundup);
  ns_insns (t, 11);                 /* census: the size tests, the call, object_size */
  tx_kmalloc_slab (t, tx);
  ns_ret (t);
  while (osize < size)
    osize <<= 1;
  return osize;
}

/* __kmalloc_node_track_caller(size, gfp, node) → __kmem_cache_alloc_node. */
static guint8 *
tx___kmalloc_node_track_caller (NsThread *t, NetTx *tx, guint size)
{
  struct tx_pcpu *pc = net_tx_pcpu (tx, t);
  guint8 *obj;

  ns_call (t, &skb_fn___kmalloc_node_track_caller);
  ns_insns (t, 8);                  /* census: the large-size test, the kmalloc_slab call */
  tx_kmalloc_slab (t, tx);
  ns_insns (t, 7);                  /* census: ZERO_OR_NULL test, the call */
  ns_call (t, &fn___kmem_cache_alloc_node);
  obj = tx_slab_alloc (t, tx, tx->kmalloc_caches, &pc->kmalloc_freelist, size,
                       SLAB_FP_OFFSET (size));
  ns_ret (t);
  ns_insns (t, 5);                  /* census: the kmalloc tracepoint, the return value */
  ns_ret (t);
  return obj;
}

/* kmalloc_reserve(&size, gfp, node, &pfmemalloc): no __GFP_MEMALLOC retry. */
static guint8 *
tx_kmalloc_reserve (NsThread *t, NetTx *tx, guint *size)
{
  guint8 *data;

  ns_call (t, &skb_fn_kmalloc_reserve);
  ns_insns (t, 10);                 /* census: arguments, the roundup call */
  *size = tx_kmalloc_size_roundup (t, tx, *size);
  ns_insns (t, 9);                  /* census: gfp flags, the allocation call */
  data = tx___kmalloc_node_track_caller (t, tx, *size);
  ns_insns (t, 6);                  /* census: the NULL and pfmemalloc tests, *size */
  ns_ret (t);
  return data;
}

/* __alloc_skb(size, gfp, SKB_ALLOC_RX, NUMA_NO_NODE): not fclone, not NAPI. */
static struct sk_buff *
tx___alloc_skb (NsThread *t, NetTx *tx, guint size)
{
  struct sk_buff *skb;
  guint8 *data;

  ns_call (t, &skb_fn___alloc_skb);
  ns_insns (t, 12);                 /* census: stack protector, flags, the cache, the call */
  skb = tx_kmem_cache_alloc_node_skb (t, tx);
  ns_insns (t, 8);                  /* census: the NULL test, prefetchw, SKB_HEAD_ALIGN */
  ns_prefetch (t, skb);
  size = SKB_DATA_ALIGN (size) + SKB_SHINFO_SIZE;
  data = tx_kmalloc_reserve (t, tx, &size);
  /* memset(skb, 0, offsetof(struct sk_buff, tail)): one rep stosq of 22 quadwords */
  memset (skb, 0, offsetof (struct sk_buff, tail));
  ns_store (t, skb, offsetof (struct sk_buff, tail));
  ns_insns (t, 10);                 /* census: the NULL test, the rep stosq and its set-up */
  tx___build_skb_around (t, skb, data, size);
  /* census: 30 instructions — the fclone test, skb_set_kcov_handle, the stack
   * protector's check, the return value */
  ns_insns (t, 30);
  ns_ret (t);
  return skb;
}

/* __netdev_alloc_skb(dev, len, GFP_NOWAIT) from process context. */
struct sk_buff *
__netdev_alloc_skb (NsThread *t, NetTx *tx, struct net_device *dev, guint len)
{
  struct tx_pcpu *pc = net_tx_pcpu (tx, t);
  struct sk_buff *skb;
  guint8 *data;

  g_return_val_if_fail (tx != NULL, NULL);
  ns_call (t, &fn___netdev_alloc_skb);
  len += NET_SKB_PAD;
  /* census: 9 instructions — the size tests, the call's arguments */
  ns_insns (t, 9);
  if (len <= SKB_WITH_OVERHEAD_1K || len > SKB_WITH_OVERHEAD_PAGE) {
    skb = tx___alloc_skb (t, tx, len);
    goto skb_success;
  }
  len = SKB_DATA_ALIGN (len) + SKB_SHINFO_SIZE;
  /* estimate: 5 instructions — alignment, sk_memalloc_socks static branch,
   * in_hardirq() || irqs_disabled() (pushf; pop; test) */
  ns_insns (t, 5);
  local_bh_disable (t, &tx->softirq);
  data = tx_page_frag_alloc (t, tx, &pc->napi_frag, len);
  __local_bh_enable_ip (t, &tx->softirq);
  skb = tx_build_skb (t, tx, data, len);
  skb->cloned_bits |= SKB_HEAD_FRAG;
skb_success:
  /* skb_reserve(NET_SKB_PAD), skb->dev = dev; census: 6 instructions */
  skb->data += NET_SKB_PAD;
  skb->tail += NET_SKB_PAD;
  skb->dev = dev;
  ns_store (t, &skb->dev, sizeof skb->dev);
  ns_store (t, &skb->cloned_bits, 1);
  ns_store (t, &skb->tail, sizeof skb->tail);
  ns_store (t, &skb->data, sizeof skb->data);
  ns_insns (t, 6);
  ns_ret (t);
  return skb;
}

/* skb_put: tail and len grow by len (the tail beyond end would be skb_over_panic). */
guchar *
tx_skb_put (NsThread *t, struct sk_buff *skb, guint len)
{
  guchar *p;

  ns_call (t, &fn_skb_put);
  NS_LOAD_FIELD (t, skb, tail);
  NS_LOAD_FIELD (t, skb, end);
  NS_LOAD_FIELD (t, skb, head);
  NS_LOAD_FIELD (t, skb, data_len);
  g_warn_if_fail (skb->tail + len <= skb->end);
  p = skb_put (skb, len);
  NS_STORE_FIELD (t, skb, tail);
  NS_STORE_FIELD (t, skb, len);
  /* census: 11 instructions */
  ns_insns (t, 11);
  ns_ret (t);
  return p;
}

/* skb_push: data moves back by len (below head would be skb_under_panic). */
guchar *
tx_skb_push (NsThread *t, struct sk_buff *skb, guint len)
{
  guchar *p;

  ns_call (t, &fn_skb_push);
  NS_LOAD_FIELD (t, skb, data);
  NS_LOAD_FIELD (t, skb, head);
  p = skb_push (skb, len);
  NS_STORE_FIELD (t, skb, data);
  NS_STORE_FIELD (t, skb, len);
  /* census: 7 instructions */
  ns_insns (t, 7);
  ns_ret (t);
  return p;
}

/* refcount_inc(&skb->users). */
void
tx_skb_get (NsThread *t, struct sk_buff *skb)
{
  ns_atomic (t, &skb->users);
  skb->users++;
  /* estimate: 3 instructions (the saturation tests on the old value) */
  ns_insns (t, 3);
}

/* ---- freeing ---- */

/* skb_unref: TRUE if this was the last reference. */
static gboolean
tx_skb_unref (NsThread *t, struct sk_buff *skb)
{
  NS_LOAD_FIELD (t, skb, users);
  /* estimate: 3 instructions (load, compare with 1, branch) */
  ns_insns (t, 3);
  if (G_LIKELY (skb->users == 1))
    return TRUE;
  ns_atomic (t, &skb->users);
  return --skb->users == 0;
}

/* skb_release_head_state: dst, destructor, conntrack, extensions (none set here). */
static void
tx_skb_release_head_state (NsThread *t, struct sk_buff *skb)
{
  ns_call (t, &fn_skb_release_head_state);
  NS_LOAD_FIELD (t, skb, _skb_refdst);
  NS_LOAD_FIELD (t, skb, destructor);
  NS_LOAD_FIELD (t, skb, _nfct);
  NS_LOAD_FIELD (t, skb, active_extensions);
  /* census: 12 instructions (four tests and branches) */
  ns_insns (t, 12);
  ns_ret (t);
}

/* page_frag_free: put_page_testzero on the fragment's (head) page. */
static void
tx_page_frag_free (NsThread *t, NetTx *tx, guint8 *addr)
{
  guint64 sim = ns_arena_addr (tx->arena, addr);
  gpointer va = addr - (sim & (PAGE_FRAG_CACHE_MAX_SIZE - 1));
  struct page_ns *page = g_hash_table_lookup (tx->page_of, va);

  g_return_if_fail (page != NULL);
  ns_call (t, &fn_page_frag_free);
  NS_LOAD_FIELD (t, page, compound_head);
  ns_atomic (t, &page->_refcount);
  page->_refcount--;
  /* estimate: 8 instructions (virt_to_head_page arithmetic, compound_head test, the
   * zero test) */
  ns_insns (t, 8);
  ns_ret (t);
}

/* cache_from_obj(s, x): the hardened check that x belongs to s (virt_to_slab). */
static void
tx_cache_from_obj (NsThread *t)
{
  ns_call (t, &skb_fn_cache_from_obj);
  ns_insns (t, 24);                 /* census: the memcg and hardening keys, virt_to_slab */
  ns_ret (t);
}

/* do_slab_free's fast path on this CPU: the free pointer (at fp_offset) written, the
 * object back on the cpu freelist (and its arena memory up for reuse, most recently
 * freed first). */
static void
tx_slab_free (NsThread *t, NetTx *tx, gpointer cache, gpointer freelist, guint8 *obj,
              gsize size, gsize fp_offset)
{
  ns_load (t, cache, 64);
  ns_load (t, freelist, 16);
  ns_store (t, obj + fp_offset, 8);
  ns_store (t, freelist, 16);
  ns_arena_release (tx->arena, obj, size);
}

/* kfree(head) → (tail jmp) __kmem_cache_free: a kmalloc head back to its cache. */
static void
tx_kfree (NsThread *t, NetTx *tx, guint8 *head, gsize size)
{
  ns_call (t, &skb_fn_kfree);
  /* census: 28 instructions — the kfree tracepoint, ZERO_OR_NULL, virt_to_folio (an
   * object in a tail page of the slab), the slab test, the tail jmp */
  ns_insns (t, 28);
  ns_tail_call (t, &fn___kmem_cache_free);
  /* census: 59 instructions — the free hooks (memcg, KASAN and KFENCE keys), virt_to_slab,
   * tid, the cpu-slab test, set_freepointer, the cmpxchg16b and sete */
  ns_insns (t, 59);
  tx_slab_free (t, tx, tx->kmalloc_caches, &net_tx_pcpu (tx, t)->kmalloc_freelist, head,
                size, SLAB_FP_OFFSET (size));
  ns_ret (t);
  ns_ret (t);
}

/* skb_free_head: a page fragment (head_frag) or a kmalloc head, each by a tail jmp
 * (kfree's: census; page_frag_free's: estimate, the same position, not counted). */
static void
tx_skb_free_head (NsThread *t, NetTx *tx, struct sk_buff *skb)
{
  ns_call (t, &skb_fn_skb_free_head);
  ns_insns (t, 6);                  /* census: the head_frag and pp_recycle tests */
  ns_tail_next (t);
  if (skb->cloned_bits & SKB_HEAD_FRAG)
    tx_page_frag_free (t, tx, skb->head);
  else
    tx_kfree (t, tx, skb->head, skb->end + SKB_SHINFO_SIZE);
  ns_ret (t);
}

/* skb_release_data: not cloned, no zerocopy, no frags, no frag_list: skb_free_head. */
static void
tx_skb_release_data (NsThread *t, NetTx *tx, struct sk_buff *skb)
{
  struct skb_shared_info *shinfo = skb_shinfo (skb);

  ns_call (t, &skb_fn_skb_release_data);
  NS_LOAD_FIELD (t, skb, cloned_bits);
  ns_load (t, shinfo, 16);                   /* flags, nr_frags, frag_list */
  /* census: 23 instructions (cloned, zerocopy, nr_frags loop entry, frag_list tests,
   * the skb_free_head call, the pp_recycle and head_frag resets) */
  ns_insns (t, 23);
  tx_skb_free_head (t, tx, skb);
  ns_ret (t);
}

/* kfree_skbmem: SKB_FCLONE_UNAVAILABLE → (tail jmp) kmem_cache_free(skbuff_head_cache,
 * skb). */
static void
tx_kfree_skbmem (NsThread *t, NetTx *tx, struct sk_buff *skb)
{
  struct tx_pcpu *pc = net_tx_pcpu (tx, t);

  ns_call (t, &skb_fn_kfree_skbmem);
  NS_LOAD_FIELD (t, skb, cloned_bits);       /* fclone */
  ns_insns (t, 7);                  /* census: the fclone test, the tail jmp */
  ns_tail_call (t, &skb_fn_kmem_cache_free);
  ns_insns (t, 8);                  /* census: the kmem_cache_free tracepoint, the call */
  tx_cache_from_obj (t);
  /* census: 53 instructions — the free hooks (memcg, KASAN and KFENCE keys),
   * virt_to_slab, tid, the cpu-slab test, set_freepointer, the cmpxchg16b and sete */
  ns_insns (t, 53);
  tx->skbs_live--;
  tx_slab_free (t, tx, tx->skbuff_head_cache, &pc->slab_freelist, (guint8 *) skb,
                SKB_OBJ_SIZE, SKB_FP_OFFSET);
  ns_ret (t);
  ns_ret (t);
}

/* __kfree_skb: skb_release_all, then (tail jmp of the caller it is inlined into in v6.1:
 * kfree_skb_reason's, census; consume_skb's freeing path, not counted: estimate)
 * kfree_skbmem. */
static void
tx___kfree_skb (NsThread *t, NetTx *tx, struct sk_buff *skb)
{
  ns_call (t, &fn___kfree_skb);
  tx_skb_release_head_state (t, skb);
  NS_LOAD_FIELD (t, skb, head);
  /* census: 4 instructions (head test, the drop reason, the tail jmp's setup) */
  ns_insns (t, 4);
  if (G_LIKELY (skb->head != NULL))
    tx_skb_release_data (t, tx, skb);
  ns_tail_next (t);
  tx_kfree_skbmem (t, tx, skb);
  ns_ret (t);
}

/* kfree_skb → kfree_skb_reason(skb, SKB_DROP_REASON_NOT_SPECIFIED). */
void
tx_kfree_skb (NsThread *t, NetTx *tx, struct sk_buff *skb)
{
  g_return_if_fail (tx != NULL);
  if (skb == NULL)
    return;
  ns_call (t, &skb_fn_kfree_skb_reason);
  /* census: 9 instructions (NULL test, reason, the kfree_skb tracepoint's nop) */
  ns_insns (t, 9);
  if (tx_skb_unref (t, skb))
    tx___kfree_skb (t, tx, skb);
  ns_ret (t);
}

/* consume_skb (dev_kfree_skb in a driver). */
void
tx_consume_skb (NsThread *t, NetTx *tx, struct sk_buff *skb)
{
  g_return_if_fail (tx != NULL && skb != NULL);
  ns_call (t, &fn_consume_skb);
  /* census: 10 instructions (the NULL test, the refcount's lock xadd and its tests) */
  ns_insns (t, 10);
  if (tx_skb_unref (t, skb))
    tx___kfree_skb (t, tx, skb);
  ns_ret (t);
}
