/* test-skb_xmit.c — the driver-style transmit skb allocation (models/net/sched/skb_xmit.c)
 * against v6.1's rules (x86-64, 4 KiB pages, L1_CACHE_BYTES 64):
 *  - net/core/skbuff.c __netdev_alloc_skb: len + NET_SKB_PAD (64) at most
 *    SKB_WITH_OVERHEAD(1024) or above SKB_WITH_OVERHEAD(PAGE_SIZE) goes to __alloc_skb
 *    (a kmalloc head, head_frag clear, freed by kfree); lengths in between take a
 *    fragment of SKB_DATA_ALIGN(len + NET_SKB_PAD + SKB_DATA_ALIGN(sizeof(shinfo))) bytes
 *    from this CPU's napi_alloc_cache.page (local_bh_disable around page_frag_alloc, so
 *    the preempt count is back where it was), __build_skb makes the skb around it
 *    (truesize SKB_TRUESIZE(fragsz - shinfo), __build_skb_around) and head_frag is set;
 *    skb_reserve(NET_SKB_PAD) either way (no NET_IP_ALIGN on this path; 0 on x86 anyway);
 *    skb_free_head gives a head_frag head to page_frag_free, any other to kfree;
 *  - mm/page_alloc.c page_frag_alloc_align (page_frag_alloc: align_mask ~0u) and
 *    __page_frag_cache_refill: an order-3 page (PAGE_FRAG_CACHE_MAX_SIZE, 32 KiB) whose
 *    refcount is 1 + PAGE_FRAG_CACHE_MAX_SIZE (page_ref_add) and pagecnt_bias
 *    PAGE_FRAG_CACHE_MAX_SIZE + 1; fragments are carved downwards from the top (offset
 *    -= fragsz, bias--); when offset would go negative, page_ref_sub_and_test(page,
 *    bias) — zero iff every fragment was freed (page_frag_free: put_page_testzero) —
 *    reuses the page in place (set_page_count(MAX + 1), bias MAX + 1, offset from the
 *    top), otherwise a fresh page is taken and the old one is left to its fragments,
 *    the last of whose page_frag_free frees it (free_the_page → free_unref_page);
 *  - include/linux/skbuff.h skb_get: refcount_inc(&skb->users).
 * Expected values are computed here from those rules, not read from the model. */
#include "config.h"
#include "sched-rig.h"
#include "../kernel-sizes.h"

#define PAD        64u      /* NET_SKB_PAD: max(32, L1_CACHE_BYTES) */
#define FRAG_PAGE  32768u   /* PAGE_FRAG_CACHE_MAX_SIZE: __ALIGN_MASK(32768, ~PAGE_MASK) */
#define FRAG_BIAS  (FRAG_PAGE + 1u)
#define SKB_IN_FRAG_PATH_LEN 1000u  /* a length in the fragment range */

/* SKB_DATA_ALIGN: round up to SMP_CACHE_BYTES (64). */
static guint
data_align (guint x)
{
  return (x + 63u) & ~63u;
}

/* TRUE if __netdev_alloc_skb(len) (v6.1) takes a page fragment: len + NET_SKB_PAD above
 * SKB_WITH_OVERHEAD(1024) and at most SKB_WITH_OVERHEAD(PAGE_SIZE). */
static gboolean
kernel_takes_frag (guint len)
{
  guint padded = len + PAD;

  return padded > 1024u - KERNEL_SKB_SHINFO && padded <= 4096u - KERNEL_SKB_SHINFO;
}

/* The fragment size __netdev_alloc_skb (v6.1) asks page_frag_alloc for. */
static guint
kernel_fragsz (guint len)
{
  return data_align (len + PAD + KERNEL_SKB_SHINFO);
}

/* truesize of a head_frag skb: __build_skb_around's SKB_TRUESIZE(fragsz - shinfo). */
static guint
kernel_frag_truesize (guint fragsz)
{
  return (fragsz - KERNEL_SKB_SHINFO) + KERNEL_SKB_STRUCT + KERNEL_SKB_SHINFO;
}

/* Calls of the kernel function `name` so far on the rig's machine (0 before its first
 * call anywhere registers it). */
static guint64
calls_of (DevRig *d, const char *name)
{
  NsFunc *fn = ns_func_lookup (name);

  return fn == NULL ? 0 : ns_machine_account_calls (d->rig.machine, fn, NULL);
}

/* CPU 0's napi_alloc_cache.page. */
static struct page_frag_cache *
napi_frag (DevRig *d)
{
  return &d->tx->pcpu[0].napi_frag;
}

/* The struct page of the frag cache's current page. */
static struct page_ns *
frag_page (DevRig *d)
{
  struct page_ns *page = virt_to_head_page (d->tx->alloc, napi_frag (d)->va);

  ck_assert_ptr_nonnull (page);
  return page;
}

/* What every skb __netdev_alloc_skb returns has: NET_SKB_PAD of headroom, no data, dev. */
static void
assert_reserved (DevRig *d, const struct sk_buff *skb)
{
  ck_assert_uint_eq (skb->data - skb->head, PAD);
  ck_assert_uint_eq (skb->tail, PAD);
  ck_assert_uint_eq (skb->len, 0);
  ck_assert_ptr_eq (skb->dev, d->dev);
  ck_assert_int_eq (skb->users, 1);
}

/* Body: lengths outside the fragment range get a kmalloc head, freed by kfree. */
static void
kmalloc_lengths (NsThread *t, gpointer data)
{
  static const guint lens[] = { 0, 60, 140, 640, 3713, 4000 };
  DevRig *d = data;

  for (guint i = 0; i < G_N_ELEMENTS (lens); i++) {
    guint64 kfrees = calls_of (d, "kfree"), frag_frees = calls_of (d, "page_frag_free");
    struct sk_buff *skb;

    ck_assert (!kernel_takes_frag (lens[i]));
    skb = __netdev_alloc_skb (t, d->tx, d->dev, lens[i]);
    ck_assert_msg (!(skb->cloned_bits & SKB_HEAD_FRAG), "len %u: head_frag", lens[i]);
    ck_assert_uint_eq (skb->truesize, kernel_skb_truesize (lens[i] + PAD, FALSE));
    ck_assert_uint_eq (skb->end + KERNEL_SKB_SHINFO,
                       kernel_skb_head_bytes (lens[i] + PAD, FALSE));
    assert_reserved (d, skb);
    ck_assert_ptr_null (napi_frag (d)->va);
    kfree_skb (t, d->tx->alloc, skb);
    ck_assert_uint_eq (calls_of (d, "kfree") - kfrees, 1);
    ck_assert_uint_eq (calls_of (d, "page_frag_free") - frag_frees, 0);
  }
  ck_assert_uint_eq (ns_skb_alloc_live (d->tx->alloc, NULL), 0);
}

/* At most SKB_WITH_OVERHEAD(1024) or above SKB_WITH_OVERHEAD(PAGE_SIZE) with the pad:
 * __alloc_skb's head (kmalloc class), no head_frag, NET_SKB_PAD reserved, kfree'd. */
START_TEST (test_short_and_long_lengths_take_kmalloc)
{
  DevRig d;

  dev_rig_init (&d);
  rig_run (&d.rig, kmalloc_lengths, &d);
  dev_rig_clear (&d);
}
END_TEST

/* Body: lengths in the fragment range, carved downwards from the top of one page, each
 * a head_frag skb; then each freed by page_frag_free. */
static void
frag_lengths (NsThread *t, gpointer data)
{
  static const guint lens[] = { 641, 1000, 1500, 3712 };
  struct sk_buff *skbs[G_N_ELEMENTS (lens)];
  DevRig *d = data;
  gint32 preempt = d->tx->pcpu[0].preempt_count;
  guint offset = FRAG_PAGE;

  for (guint i = 0; i < G_N_ELEMENTS (lens); i++) {
    guint fragsz = kernel_fragsz (lens[i]);
    struct sk_buff *skb;

    ck_assert (kernel_takes_frag (lens[i]));
    skb = skbs[i] = __netdev_alloc_skb (t, d->tx, d->dev, lens[i]);
    offset -= fragsz;
    ck_assert_msg (skb->cloned_bits & SKB_HEAD_FRAG, "len %u: no head_frag", lens[i]);
    ck_assert_uint_eq (ns_arena_addr (d->tx->arena, skb->head) % 64u, 0);
    ck_assert_ptr_eq (skb->head, napi_frag (d)->va + offset);
    ck_assert_uint_eq (napi_frag (d)->offset, offset);
    ck_assert_uint_eq (skb->truesize, kernel_frag_truesize (fragsz));
    ck_assert_uint_eq (skb->end, fragsz - KERNEL_SKB_SHINFO);
    assert_reserved (d, skb);
    ck_assert_int_eq (d->tx->pcpu[0].preempt_count, preempt);
  }
  ck_assert_uint_eq (calls_of (d, "__page_frag_cache_refill"), 1);
  for (guint i = 0; i < G_N_ELEMENTS (lens); i++) {
    guint64 kfrees = calls_of (d, "kfree"), frag_frees = calls_of (d, "page_frag_free");

    kfree_skb (t, d->tx->alloc, skbs[i]);
    ck_assert_uint_eq (calls_of (d, "page_frag_free") - frag_frees, 1);
    ck_assert_uint_eq (calls_of (d, "kfree") - kfrees, 0);
  }
  ck_assert_uint_eq (ns_skb_alloc_live (d->tx->alloc, NULL), 0);
}

/* Above SKB_WITH_OVERHEAD(1024), at most SKB_WITH_OVERHEAD(PAGE_SIZE): a fragment of
 * SKB_DATA_ALIGN(len + pad + shinfo) below the last, head_frag, truesize
 * SKB_TRUESIZE(fragsz - shinfo), bottom halves re-enabled, page_frag_free'd. */
START_TEST (test_middle_lengths_take_a_page_fragment)
{
  DevRig d;

  dev_rig_init (&d);
  rig_run (&d.rig, frag_lengths, &d);
  dev_rig_clear (&d);
}
END_TEST

/* What a page-filling run leaves to check. */
typedef struct {
  DevRig         *d;
  gboolean        keep_first;  /* keep the page's first fragment alive */
  guint8         *old_va;
  struct page_ns *old_page;
  struct sk_buff *last;
} Fill;

/* Allocates every fragment of SKB_IN_FRAG_PATH_LEN one page holds, checking the bias
 * bookkeeping (refcount - bias = live fragments of the page); returns the first. */
static struct sk_buff *
fill_page (NsThread *t, Fill *f, guint per_page)
{
  DevRig *d = f->d;
  guint fragsz = kernel_fragsz (SKB_IN_FRAG_PATH_LEN);
  struct sk_buff *first = NULL;
  guint freed = 0;

  for (guint i = 0; i < per_page; i++) {
    struct sk_buff *skb = __netdev_alloc_skb (t, d->tx, d->dev, SKB_IN_FRAG_PATH_LEN);

    ck_assert_ptr_eq (skb->head, napi_frag (d)->va + FRAG_PAGE - (i + 1) * fragsz);
    ck_assert_uint_eq (napi_frag (d)->pagecnt_bias, FRAG_BIAS - (i + 1));
    ck_assert_int_eq (frag_page (d)->_refcount, FRAG_BIAS - freed);
    if (i == 0) {
      first = skb;
    } else {
      kfree_skb (t, d->tx->alloc, skb);
      freed++;
    }
    ck_assert_int_eq (frag_page (d)->_refcount - (gint32) napi_frag (d)->pagecnt_bias, 1);
  }
  ck_assert_uint_eq (napi_frag (d)->offset, FRAG_PAGE - per_page * fragsz);
  return first;
}

/* Body: fill a page, free all (or all but the first), allocate once more. */
static void
overflow_page (NsThread *t, gpointer data)
{
  Fill *f = data;
  DevRig *d = f->d;
  guint fragsz = kernel_fragsz (SKB_IN_FRAG_PATH_LEN);
  guint per_page = FRAG_PAGE / fragsz;
  struct sk_buff *first = fill_page (t, f, per_page);

  f->old_va = napi_frag (d)->va;
  f->old_page = frag_page (d);
  if (!f->keep_first)
    kfree_skb (t, d->tx->alloc, first);
  ck_assert_int_eq (f->old_page->_refcount - (gint32) napi_frag (d)->pagecnt_bias,
                    f->keep_first ? 1 : 0);
  f->last = __netdev_alloc_skb (t, d->tx, d->dev, SKB_IN_FRAG_PATH_LEN);
  ck_assert_ptr_eq (f->last->head, napi_frag (d)->va + FRAG_PAGE - fragsz);
  ck_assert_uint_eq (napi_frag (d)->offset, FRAG_PAGE - fragsz);
  ck_assert_uint_eq (napi_frag (d)->pagecnt_bias, FRAG_BIAS - 1);
  ck_assert_int_eq (frag_page (d)->_refcount, FRAG_BIAS);
  ck_assert_uint_eq (ns_skb_alloc_live_frag_pages (d->tx->alloc), f->keep_first ? 2 : 1);
  if (f->keep_first) {
    guint64 page_frees = calls_of (d, "free_unref_page");

    kfree_skb (t, d->tx->alloc, first);
    /* put_page_testzero hits zero: page_frag_free's free_the_page (order 3 ≤
     * PAGE_ALLOC_COSTLY_ORDER: free_unref_page) gives the old page back */
    ck_assert_int_eq (f->old_page->_refcount, 0);
    ck_assert_uint_eq (calls_of (d, "free_unref_page"), page_frees + 1);
    ck_assert_uint_eq (ns_skb_alloc_live_frag_pages (d->tx->alloc), 1);
    ck_assert_ptr_null (virt_to_head_page (d->tx->alloc, f->old_va));
  }
  kfree_skb (t, d->tx->alloc, f->last);
}

/* Every fragment freed when the page runs out: page_ref_sub_and_test hits zero, the
 * page is reused in place (no refill), refcount reset to MAX + 1, carving from the top. */
START_TEST (test_page_reused_when_every_fragment_was_freed)
{
  DevRig d;
  Fill f = { .d = &d, .keep_first = FALSE };

  dev_rig_init (&d);
  rig_run (&d.rig, overflow_page, &f);
  ck_assert_uint_eq (calls_of (&d, "__page_frag_cache_refill"), 1);
  ck_assert_ptr_eq (napi_frag (&d)->va, f.old_va);
  dev_rig_clear (&d);
}
END_TEST

/* A fragment still live when the page runs out: a fresh page (a second refill), the old
 * page keeps one reference per live fragment and drops to zero with the last. */
START_TEST (test_new_page_when_a_fragment_is_live)
{
  DevRig d;
  Fill f = { .d = &d, .keep_first = TRUE };

  dev_rig_init (&d);
  rig_run (&d.rig, overflow_page, &f);
  ck_assert_ptr_ne (napi_frag (&d)->va, f.old_va);
  ck_assert_uint_eq (calls_of (&d, "__page_frag_cache_refill"), 2);
  dev_rig_clear (&d);
}
END_TEST

/* Body: skb_get on a fragment skb, then two frees. */
static void
get_then_free_twice (NsThread *t, gpointer data)
{
  DevRig *d = data;
  struct sk_buff *skb = __netdev_alloc_skb (t, d->tx, d->dev, SKB_IN_FRAG_PATH_LEN);
  guint64 frag_frees = calls_of (d, "page_frag_free");

  tx_skb_get (t, skb);
  ck_assert_int_eq (skb->users, 2);
  kfree_skb (t, d->tx->alloc, skb);
  ck_assert_uint_eq (calls_of (d, "page_frag_free"), frag_frees);
  ck_assert_uint_eq (ns_skb_alloc_live (d->tx->alloc, NULL), 1);
  kfree_skb (t, d->tx->alloc, skb);
  ck_assert_uint_eq (calls_of (d, "page_frag_free"), frag_frees + 1);
  ck_assert_uint_eq (ns_skb_alloc_live (d->tx->alloc, NULL), 0);
}

/* skb_get (pktgen's) takes a reference: the first free only drops it. */
START_TEST (test_skb_get_holds_the_skb)
{
  DevRig d;

  dev_rig_init (&d);
  rig_run (&d.rig, get_then_free_twice, &d);
  dev_rig_clear (&d);
}
END_TEST

static Suite *
skb_xmit_suite (void)
{
  Suite *s = suite_create ("skb_xmit");
  TCase *tc = tcase_create ("__netdev_alloc_skb");

  tcase_add_test (tc, test_short_and_long_lengths_take_kmalloc);
  tcase_add_test (tc, test_middle_lengths_take_a_page_fragment);
  tcase_add_test (tc, test_page_reused_when_every_fragment_was_freed);
  tcase_add_test (tc, test_new_page_when_a_fragment_is_live);
  tcase_add_test (tc, test_skb_get_holds_the_skb);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (skb_xmit_suite ());
  gint failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
