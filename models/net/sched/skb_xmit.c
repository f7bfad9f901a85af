/* skb_xmit.c — what only the driver-style allocation of a transmit skb adds to
 * net/core/skbuff.c on v6.1, and the transmit path's environment:
 *  - __netdev_alloc_skb (net/core/skbuff.c): a length that with NET_SKB_PAD is at most
 *    SKB_WITH_OVERHEAD(1024) (704 bytes: pktgen's 60-byte frames) or above
 *    SKB_WITH_OVERHEAD(PAGE_SIZE) goes to __alloc_skb (models/net/skbuff.c, the one model
 *    of the sk_buff's and its head's allocation and free: a 576-byte head rounds up to
 *    kmalloc-1k); the Debian 6.1.176 binary takes this branch (doc/census/skb.md).
 *    Lengths in between take a page fragment of this CPU's napi_alloc_cache
 *    (local_bh_disable around page_frag_alloc) and __build_skb (kmem_cache_alloc of
 *    skbuff_cache, __build_skb_around: skbuff.c's), head_frag = 1; the fragment's free is
 *    skbuff.c's page_frag_free. NET_SKB_PAD is reserved either way;
 *  - __page_frag_alloc_align (mm/page_alloc.c): carve from the top of a 32 KiB order-3
 *    page (__page_frag_cache_refill: skbuff.c's alloc_pages_node, the model's page
 *    allocator), pagecnt_bias counts the carvings; when the page is used up and every
 *    fragment was freed (page_ref_sub_and_test), the page is reused in place, else a new
 *    one is taken and the old is freed by its last fragment's page_frag_free;
 *  - skb_get's refcount_inc (pktgen);
 *  - local_bh_disable / __local_bh_enable_ip (kernel/softirq.c: models/net/softirq.c, on
 *    this stack's per-CPU data).
 * Instruction counts: the census of the Debian 6.1.176 binary (doc/census/skb.md,
 * pktgen.md), body instructions (each function's total less its prologue, epilogue and
 * return, which the machine charges per call), unless marked "estimate" (paths the census
 * did not take). */
#include "config.h"
#include <string.h>
#include "sched-priv.h"
#include "netdev.h"
#include "net/netdevice.h"

#define SKB_WITH_OVERHEAD_1K  (1024u - SKB_SHINFO_SIZE)   /* SKB_WITH_OVERHEAD(1024) */
#define SKB_WITH_OVERHEAD_PAGE (4096u - SKB_SHINFO_SIZE)  /* SKB_WITH_OVERHEAD(PAGE_SIZE) */

/* Sizes: the Debian 6.1.176 binary's (nm -S; doc/census/text-sizes-6.1.176.txt); the
 * page-fragment pair's are estimates (doc/census/text-sizes-kept.txt). The allocator's
 * and the frees' functions are skbuff.c's. */
static NS_FUNC (fn___netdev_alloc_skb, "__netdev_alloc_skb", 306, 9, NS_FN_EXTERN, 60);
static NS_FUNC (fn___page_frag_alloc_align, "__page_frag_alloc_align", 300, NS_FRAME_UNKNOWN, NS_FN_EXTERN, 8);
static NS_FUNC (fn___page_frag_cache_refill, "__page_frag_cache_refill", 120, NS_FRAME_UNKNOWN,
                NS_FN_STATIC | NS_FN_NOINLINE, 1);
static NS_FUNC (fn___build_skb, "__build_skb", 83, 7, NS_FN_EXTERN, 4);

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
  tx->alloc = ns_skb_alloc_new (machine);
  tx->clsact = g_hash_table_new (g_direct_hash, g_direct_equal);   /* → the qdisc's
                                                                        private data, arena */
  /* nothing raises a softirq on this path: no do_softirq */
  tx->softirq = (SoftirqCtx) { tx, tx_preempt_count, tx_softirq_pending, NULL };
  if (tc->bpf_net_ctx)
    tx->bpf_ctx = ns_arena_alloc (tx->arena, sizeof (struct tx_bpf_ctx) * tx->n_cpus, 64);
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
  ns_skb_alloc_free (tx->alloc);
  g_hash_table_destroy (tx->clsact);
  g_free (tx);
}

/* This CPU's per-CPU area. */
struct tx_pcpu *
net_tx_pcpu (NetTx *tx, NsThread *t)
{
  return &tx->pcpu[ns_thread_cpu (t)];
}

/* ---- allocation ---- */

/* __page_frag_cache_refill (an order-3 compound page from alloc_pages_node: the caller's
 * mask, pktgen's GFP_NOWAIT, with __GFP_COMP, __GFP_NOWARN, __GFP_NORETRY and
 * __GFP_NOMEMALLOC; the model's allocator reads only __GFP_DIRECT_RECLAIM, so COMP and
 * NORETRY are not spelled) and the refill
 * branch of __page_frag_alloc_align: page_ref_add of PAGE_FRAG_CACHE_MAX_SIZE, the
 * cache's size, bias and offset at the top. */
static void
tx_page_frag_cache_refill (NsThread *t, NetTx *tx, struct page_frag_cache *nc)
{
  struct page_ns *page;

  ns_call (t, &fn___page_frag_cache_refill);
  /* estimate: 6 instructions (the gfp, the order, the call) */
  ns_insns (t, 6);
  page = alloc_pages_node (t, tx->alloc, GFP_NOWAIT | __GFP_NOWARN | __GFP_NOMEMALLOC,
                           PAGE_FRAG_CACHE_MAX_ORDER);
  nc->va = ns_page_address (tx->alloc, page);
  ns_insns (t, 4);                 /* estimate: page_address, the return */
  ns_ret (t);
  ns_atomic (t, &page->_refcount);  /* page_ref_add */
  page->_refcount += PAGE_FRAG_CACHE_MAX_SIZE;
  nc->size = PAGE_FRAG_CACHE_MAX_SIZE;
  nc->pfmemalloc = FALSE;
  nc->pagecnt_bias = PAGE_FRAG_CACHE_MAX_SIZE + 1;
  nc->offset = PAGE_FRAG_CACHE_MAX_SIZE;
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
    struct page_ns *page = virt_to_head_page (tx->alloc, nc->va);

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

/* __build_skb(data, frag_size): an sk_buff cleared to `tail` around data. */
static struct sk_buff *
tx_build_skb (NsThread *t, NetTx *tx, guint8 *data, guint frag_size)
{
  struct sk_buff *skb;

  ns_call (t, &fn___build_skb);
  skb = kmem_cache_alloc_skbuff (t, tx->alloc, GFP_ATOMIC);
  memset (skb, 0, offsetof (struct sk_buff, tail));
  ns_store (t, skb, offsetof (struct sk_buff, tail));
  /* estimate: 24 instructions — the 188-byte memset as 8-byte stores, the call */
  ns_insns (t, 24);
  __build_skb_around (t, tx->alloc, skb, data, frag_size);
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
    skb = __alloc_skb (t, tx->alloc, len, GFP_NOWAIT);
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

/* refcount_inc(&skb->users). */
void
tx_skb_get (NsThread *t, struct sk_buff *skb)
{
  ns_atomic (t, &skb->users);
  skb->users++;
  /* estimate: 3 instructions (the saturation tests on the old value) */
  ns_insns (t, 3);
}
