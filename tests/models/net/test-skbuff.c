/* test-skbuff.c — the skb allocator model against the kernel's size arithmetic (x86-64):
 * the head's size class (skb_small_head_cache from v6.3, a kmalloc class up to 8 KiB, a
 * page order above), skb->end and truesize (SKB_TRUESIZE of the head's usable size, which
 * the receive-buffer limit counts), users and dataref; skb_reserve, skb_put and skb_push
 * move data and tail as the kernel's do; the frees give back every allocation; the queue
 * helpers keep FIFO order; sendmsg's page fragments are refilled, kept, reused and replaced
 * as skb_page_frag_refill does, and put_page frees a page on its last reference; a large
 * head's pages reach the node's vmstat counter through the per-CPU diff and its threshold
 * (mm/vmstat.c); skbuff_cache refills its per-CPU slab every 32 allocations on 16 CPUs
 * and every 64 on 128 (SLUB's calculate_order). The expected sizes are computed here
 * from the kernel's rules (mm/slab_common.c kmalloc_info, kmalloc_size_roundup;
 * net/core/skbuff.c), not read from the model. */
#include "config.h"
#include "skbuff.h"
#include "stack-rig.h"
#include "kernel-sizes.h"

#define SHINFO   KERNEL_SKB_SHINFO
#define SKB      KERNEL_SKB_STRUCT

typedef struct {
  StackRig    s;              /* the machine (no stack) */
  NsSkbAlloc *alloc;
  gpointer    data;           /* the body's own state */
} Rig;

typedef void (*Body) (NsThread *t, Rig *rig);

typedef struct {
  Rig      *rig;
  Body      body;
  gboolean  done;                  /* body returned */
} Job;

/* A machine of the registry defaults running kernel version, with its skb allocator. */
static void
rig_init (Rig *rig, const char *version)
{
  stack_rig_init_machine (&rig->s, version, NULL, NULL, NULL);
  rig->alloc = ns_skb_alloc_new (rig->s.machine);
}

/* Frees what rig_init made. */
static void
rig_clear (Rig *rig)
{
  ns_skb_alloc_free (rig->alloc);
  stack_rig_clear (&rig->s);
}

/* The simulated thread's body: the job's. */
static void
job_thread (NsThread *t, gpointer data)
{
  Job *job = data;

  job->body (t, job->rig);
  job->done = TRUE;
}

/* Runs body inside a simulated thread on cpu until it returns; asserts it did. */
static void
run_cpu (Rig *rig, guint cpu, Body body)
{
  Job job = { rig, body, FALSE };

  ns_engine_spawn (rig->s.engine, "skb", cpu, NS_THREAD_SOFTIRQ,
                   ns_engine_now (rig->s.engine), job_thread, &job);
  ns_engine_run (rig->s.engine, NS_TIME_FOREVER);
  ck_assert_msg (job.done, "the skb thread's body did not run to its end");
}

/* Runs body inside a simulated thread on CPU 0 until it returns; asserts it did. */
static void
run (Rig *rig, Body body)
{
  run_cpu (rig, 0, body);
}

/* Runs body on a fresh machine of kernel version; the allocator must end with nothing
 * live. */
static void
run_on (const char *version, Body body)
{
  Rig rig;

  rig_init (&rig, version);
  run (&rig, body);
  ck_assert_uint_eq (ns_skb_alloc_live (rig.alloc, NULL), 0);
  rig_clear (&rig);
}

static const guint sizes[] = { 0, 1, 100, 320, 321, 704, 1000, 1500, 3700, 7808, 7872,
                               7873, 8920, 9000, 20000 };

/* __alloc_skb of every size: end, truesize, the counts, an empty linear area; then freed. */
static void
alloc_sizes (NsThread *t, Rig *rig)
{
  gboolean small = ns_kernel_version_cmp (ns_build_version (rig->s.build), "6.3") >= 0;

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++) {
    struct sk_buff *skb = __alloc_skb (t, rig->alloc, sizes[i], GFP_ATOMIC);
    guint head = kernel_skb_head_bytes (sizes[i], small);

    ck_assert_ptr_nonnull (skb);
    ck_assert_msg (skb->end == head - SHINFO, "size %u: end %u, expected %u", sizes[i],
                   skb->end, head - SHINFO);
    ck_assert_msg (skb->truesize == head - SHINFO + SKB + SHINFO,
                   "size %u: truesize %u, expected %u", sizes[i], skb->truesize,
                   head + SKB);
    ck_assert_int_eq (skb->users, 1);
    ck_assert_int_eq (skb_shinfo (skb)->dataref, 1);
    ck_assert_uint_eq (skb->len, 0);
    ck_assert_ptr_eq (skb->data, skb->head);
    ck_assert_uint_eq (skb->tail, 0);
    kfree_skb (t, rig->alloc, skb);
  }
}

START_TEST (test_alloc_sizes)
{
  static const char *const versions[] = { "6.1.0", "6.9.0" };

  run_on (versions[_i], alloc_sizes);
}
END_TEST

/* skb_reserve, skb_put, skb_push: data and tail move as the kernel's do. */
static void
put_push (NsThread *t, Rig *rig)
{
  struct sk_buff *skb = __alloc_skb (t, rig->alloc, 1000, GFP_ATOMIC);
  guchar *p;

  skb_reserve (skb, 64);
  ck_assert_ptr_eq (skb->data, skb->head + 64);
  ck_assert_uint_eq (skb->tail, 64);
  p = skb_put (t, skb, 100);
  ck_assert_ptr_eq (p, skb->head + 64);
  ck_assert_uint_eq (skb->tail, 164);
  ck_assert_uint_eq (skb->len, 100);
  p = skb_push (t, skb, 28);
  ck_assert_ptr_eq (p, skb->head + 36);
  ck_assert_ptr_eq (skb->data, p);
  ck_assert_uint_eq (skb->len, 128);
  ck_assert_uint_eq (skb->tail, 164);
  consume_skb (t, rig->alloc, skb);
}

START_TEST (test_put_push)
{
  run_on ("6.9.0", put_push);
}
END_TEST

/* 300 skbs of mixed sizes held at once, then freed in another order: every sk_buff and
 * head comes back, and a second user (skb_get's reference) keeps both alive. */
static void
hold_and_free (NsThread *t, Rig *rig)
{
  struct sk_buff *held[300];
  guint64 heads = 0;

  for (guint i = 0; i < G_N_ELEMENTS (held); i++)
    held[i] = __alloc_skb (t, rig->alloc, sizes[i % G_N_ELEMENTS (sizes)], GFP_KERNEL);
  ck_assert_uint_eq (ns_skb_alloc_live (rig->alloc, &heads), G_N_ELEMENTS (held));
  ck_assert_uint_eq (heads, G_N_ELEMENTS (held));
  held[0]->users++;                       /* skb_get */
  for (guint i = 0; i < G_N_ELEMENTS (held); i += 2)
    kfree_skb (t, rig->alloc, held[i]);
  for (guint i = 1; i < G_N_ELEMENTS (held); i += 2)
    consume_skb (t, rig->alloc, held[i]);
  ck_assert_uint_eq (ns_skb_alloc_live (rig->alloc, &heads), 1);
  ck_assert_uint_eq (heads, 1);
  kfree_skb (t, rig->alloc, held[0]);
  kfree_skb (t, rig->alloc, NULL);        /* does nothing */
}

START_TEST (test_frees_give_everything_back)
{
  run_on ("6.9.0", hold_and_free);
}
END_TEST

/* The queue helpers: FIFO, and a splice appends a whole list and empties it. */
static void
queues (NsThread *t, Rig *rig)
{
  struct sk_buff_head a, b;
  struct sk_buff *skbs[5];

  memset (&a, 0, sizeof a);
  memset (&b, 0, sizeof b);
  __skb_queue_head_init (&a);
  __skb_queue_head_init (&b);
  for (guint i = 0; i < 5; i++) {
    skbs[i] = __alloc_skb (t, rig->alloc, 64, GFP_ATOMIC);
    __skb_queue_tail (i < 3 ? &a : &b, skbs[i]);
  }
  ck_assert_uint_eq (a.qlen, 3);
  skb_queue_splice_tail_init (&b, &a);
  ck_assert (skb_queue_empty (&b));
  ck_assert_uint_eq (b.qlen, 0);
  ck_assert_uint_eq (a.qlen, 5);
  for (guint i = 0; i < 5; i++) {
    struct sk_buff *skb = __skb_dequeue (&a);
    ck_assert_ptr_eq (skb, skbs[i]);
    kfree_skb (t, rig->alloc, skb);
  }
  ck_assert_ptr_null (__skb_dequeue (&a));
  ck_assert (skb_queue_empty (&a));
}

START_TEST (test_queues)
{
  run_on ("6.9.0", queues);
}
END_TEST

/* skb_page_frag_refill by v6.9's rules (net/core/sock.c): a fresh page of order
 * SKB_FRAG_PAGE_ORDER (32 KiB) at offset 0; kept while 32 bytes remain though an skb
 * holds it; replaced by a new one, the old one put, when fewer remain; reused from offset
 * 0 once the page_frag is its only holder. put_page frees a page on its last reference. */
static void
page_frags (NsThread *t, Rig *rig)
{
  struct page_frag *pf = ns_arena_alloc (ns_machine_arena (rig->s.machine), sizeof *pf, 64);
  struct page_ns *first;

  pf->page = NULL;
  ck_assert (skb_page_frag_refill (t, rig->alloc, 32, pf));
  first = pf->page;
  ck_assert_uint_eq (pf->size, 32768);
  ck_assert_uint_eq (pf->offset, 0);
  ck_assert_int_eq (first->_refcount, 1);
  ck_assert_uint_eq (ns_skb_alloc_live_frag_pages (rig->alloc), 1);
  get_page (t, first);                      /* an skb's fragment */
  pf->offset = 32768 - 32;
  ck_assert (skb_page_frag_refill (t, rig->alloc, 32, pf));
  ck_assert_ptr_eq (pf->page, first);
  ck_assert_uint_eq (pf->offset, 32768 - 32);
  pf->offset = 32768 - 31;
  ck_assert (skb_page_frag_refill (t, rig->alloc, 32, pf));
  ck_assert_ptr_ne (pf->page, first);
  ck_assert_uint_eq (pf->offset, 0);
  ck_assert_int_eq (first->_refcount, 1);   /* the fragment's alone */
  ck_assert_uint_eq (ns_skb_alloc_live_frag_pages (rig->alloc), 2);
  put_page (t, rig->alloc, first);
  ck_assert_uint_eq (ns_skb_alloc_live_frag_pages (rig->alloc), 1);
  pf->offset = 1000;
  first = pf->page;
  ck_assert (skb_page_frag_refill (t, rig->alloc, 32, pf));
  ck_assert_ptr_eq (pf->page, first);
  ck_assert_uint_eq (pf->offset, 0);
  put_page (t, rig->alloc, pf->page);
  ck_assert_uint_eq (ns_skb_alloc_live_frag_pages (rig->alloc), 0);
}

START_TEST (test_page_frags)
{
  run_on ("6.9.0", page_frags);
}
END_TEST

/* ---- the node's vmstat (mm/vmstat.c) ---- */

#define FOLD_SKBS    80
#define FOLD_SIZE    9000        /* a kmalloc_large head (order 2) */
#define ALLOC_CPU    0
#define FREE_CPU     1

/* fls(x): the 1-based index of the highest bit set. */
static guint
kernel_fls (guint64 x)
{
  guint n = 0;

  for (; x != 0; x >>= 1)
    n++;
  return n;
}

/* The kernel's NR_SLAB_UNRECLAIMABLE_B in pages: the node's counter and each CPU's diff;
 * the skbs held. */
typedef struct {
  gint64          node;
  gint            diff[2];       /* ALLOC_CPU, FREE_CPU */
  gint            threshold;
  gint            pages;         /* each head's pages */
  struct sk_buff *skbs[FOLD_SKBS];
} NodeStat;

/* __mod_node_page_state(pgdat, NR_SLAB_UNRECLAIMABLE_B, pages << PAGE_SHIFT) on the CPU
 * of diff: x = diff + pages; past the threshold (|x| > t) node_page_state_add(x) and 0. */
static void
kernel_mod_node (NodeStat *ns, gint *diff, gint pages)
{
  gint x = *diff + pages;

  if (ABS (x) > ns->threshold) {
    ns->node += x;
    x = 0;
  }
  *diff = x;
}

/* The model's counter and cpu's diff are the kernel's. */
static void
expect_node (Rig *rig, const NodeStat *ns, guint cpu, gint diff, guint k)
{
  gint got;
  gint64 node = ns_skb_alloc_node_slab_pages (rig->alloc, cpu, &got, NULL);

  ck_assert_msg (node == ns->node, "step %u: node %" G_GINT64_FORMAT ", kernel %"
                 G_GINT64_FORMAT, k, node, ns->node);
  ck_assert_msg (got == diff, "step %u: cpu %u's diff %d, kernel %d", k, cpu, got, diff);
}

/* FOLD_SKBS large heads allocated on this CPU, the stat followed after each. */
static void
fold_alloc (NsThread *t, Rig *rig)
{
  NodeStat *ns = rig->data;

  for (guint k = 0; k < FOLD_SKBS; k++) {
    ns->skbs[k] = __alloc_skb (t, rig->alloc, FOLD_SIZE, GFP_KERNEL);
    kernel_mod_node (ns, &ns->diff[0], ns->pages);
    expect_node (rig, ns, ALLOC_CPU, ns->diff[0], k);
  }
}

/* The same heads freed on this CPU. */
static void
fold_free (NsThread *t, Rig *rig)
{
  NodeStat *ns = rig->data;

  for (guint k = 0; k < FOLD_SKBS; k++) {
    kfree_skb (t, rig->alloc, ns->skbs[k]);
    kernel_mod_node (ns, &ns->diff[1], -ns->pages);
    expect_node (rig, ns, FREE_CPU, ns->diff[1], k);
  }
}

/* A 6.9 rig whose data is ns, with the node's stat threshold and the pages a FOLD_SIZE
 * head holds. */
static void
node_stat_rig_init (Rig *rig, NodeStat *ns)
{
  rig_init (rig, "6.9.0");
  rig->data = ns;
  ns->threshold = MIN (125, (gint) (2 * kernel_fls (ns_machine_n_cpus (rig->s.machine)) *
                                    (1 + kernel_fls (NS_ZONE_NORMAL_PAGES >> 15))));
  ns->pages = (gint) (kernel_skb_head_bytes (FOLD_SIZE, TRUE) / 4096);
}

/* mm/vmstat.c: every CPU's stat_threshold is calculate_normal_threshold of the node's
 * largest zone, min(125, 2 * fls(online CPUs) * (1 + fls(zone pages in 128 MiB
 * units))); kmalloc_large's pages (mod_lruvec_page_state → __mod_node_page_state) stay in
 * the CPU's diff until it passes the threshold, then go to the node's counter. Heads
 * allocated on one CPU and freed on another: each CPU folds its own diff, and the node's
 * counter plus both diffs is always the pages held. */
START_TEST (test_node_stat_folds)
{
  NodeStat ns = { 0 };
  Rig rig;

  node_stat_rig_init (&rig, &ns);
  ck_assert_int_eq (ns.pages, 4);
  for (guint c = 0; c < ns_machine_n_cpus (rig.s.machine); c++) {
    gint diff, threshold;
    ck_assert_int_eq (ns_skb_alloc_node_slab_pages (rig.alloc, c, &diff, &threshold), 0);
    ck_assert_int_eq (diff, 0);
    ck_assert_int_eq (threshold, ns.threshold);
  }
  ck_assert_int_lt (ns.threshold, FOLD_SKBS * ns.pages / 2);   /* at least two folds */
  run_cpu (&rig, ALLOC_CPU, fold_alloc);
  ck_assert_int_ne (ns.node, 0);
  run_cpu (&rig, FREE_CPU, fold_free);
  ck_assert_int_eq (ns.node + ns.diff[0] + ns.diff[1], 0);
  ck_assert_uint_eq (ns_skb_alloc_live (rig.alloc, NULL), 0);
  rig_clear (&rig);
}
END_TEST

/* NR_FREE_PAGES (mm/vmstat.c, mm/page_alloc.c): rmqueue_bulk takes its blocks' pages off
 * the zone's count on the allocating CPU, __free_one_page gives each block's back on the
 * CPU whose per-CPU list drains; each CPU's diff folds into the zone's counter past the
 * threshold. Whatever the folds, the counter plus the diffs is minus the pages out of the
 * zone: those on the per-CPU lists and the heads still held. */
static void
expect_zone (Rig *rig, const NodeStat *ns, gint held_pages, guint k)
{
  gint64 sum = ns_skb_alloc_zone_free_pages (rig->alloc, 0, NULL, NULL), out = held_pages;

  for (guint c = 0; c < 2; c++) {
    gint diff;
    guint pcp;
    ns_skb_alloc_zone_free_pages (rig->alloc, c, &diff, &pcp);
    ck_assert_int_le (ABS (diff), ns->threshold);
    sum += diff;
    out += pcp;
  }
  ck_assert_msg (sum == -out, "step %u: NR_FREE_PAGES %" G_GINT64_FORMAT ", %"
                 G_GINT64_FORMAT " pages out of the zone", k, sum, out);
}

static void
zone_alloc (NsThread *t, Rig *rig)
{
  NodeStat *ns = rig->data;

  for (guint k = 0; k < FOLD_SKBS; k++) {
    ns->skbs[k] = __alloc_skb (t, rig->alloc, FOLD_SIZE, GFP_KERNEL);
    expect_zone (rig, ns, (gint) (k + 1) * ns->pages, k);
  }
}

static void
zone_free (NsThread *t, Rig *rig)
{
  NodeStat *ns = rig->data;

  for (guint k = 0; k < FOLD_SKBS; k++) {
    kfree_skb (t, rig->alloc, ns->skbs[k]);
    expect_zone (rig, ns, (gint) (FOLD_SKBS - k - 1) * ns->pages, k);
  }
}

START_TEST (test_zone_free_pages_follow_the_lists)
{
  NodeStat ns = { 0 };
  guint pcp[2];
  gint64 zone;
  Rig rig;

  node_stat_rig_init (&rig, &ns);
  run_cpu (&rig, ALLOC_CPU, zone_alloc);
  zone = ns_skb_alloc_zone_free_pages (rig.alloc, ALLOC_CPU, NULL, &pcp[0]);
  ck_assert_int_lt (zone, 0);                   /* folded at least once */
  run_cpu (&rig, FREE_CPU, zone_free);
  zone = ns_skb_alloc_zone_free_pages (rig.alloc, FREE_CPU, NULL, &pcp[1]);
  ck_assert_uint_lt (pcp[1], (guint) (FOLD_SKBS * ns.pages));   /* the list drained */
  ck_assert_uint_eq (ns_skb_alloc_live (rig.alloc, NULL), 0);
  rig_clear (&rig);
}
END_TEST

/* A machine of registry defaults but n_cpus logical CPUs (one socket, 8 cores an L3
 * domain, 2 threads a core), running v6.9, with its skb allocator. */
static void
rig_init_cpus (Rig *rig, guint n_cpus)
{
  g_autofree char *ccx = g_strdup_printf ("%u", n_cpus / 16);
  const char *const sets[] = { "cpu.ccx_per_socket", ccx, "cpu.cores_per_ccx", "8", NULL };

  memset (rig, 0, sizeof *rig);
  stack_rig_init_machine_with (&rig->s, "6.9.0", stack_rig_params (sets));
  ck_assert_uint_eq (ns_machine_n_cpus (rig->s.machine), n_cpus);
  rig->alloc = ns_skb_alloc_new (rig->s.machine);
}

/* 200 sk_buffs from skbuff_cache on one CPU, none freed: every allocation that empties
 * the CPU's slab costs ___slab_alloc's extra instructions; rig->data gets the period. */
static void
slab_refills (NsThread *t, Rig *rig)
{
  NsMachine *m = rig->s.machine;
  struct sk_buff *skbs[200];
  guint64 cheapest = G_MAXUINT64, cost[200];
  guint refills[200] = { 0 }, n = 0;

  for (guint i = 0; i < 200; i++) {
    guint64 before = ns_machine_account_events (m, NS_CAUSE_INSN);

    skbs[i] = kmem_cache_alloc_skbuff (t, rig->alloc, GFP_ATOMIC);
    cost[i] = ns_machine_account_events (m, NS_CAUSE_INSN) - before;
    cheapest = MIN (cheapest, cost[i]);
  }
  for (guint i = 0; i < 200; i++)
    if (cost[i] > cheapest + 30)
      refills[n++] = i;
  ck_assert_uint_ge (n, 2);
  for (guint k = 2; k < n; k++)
    ck_assert_uint_eq (refills[k] - refills[k - 1], refills[1] - refills[0]);
  for (guint i = 0; i < 200; i++)
    kfree_skbmem (t, rig->alloc, skbs[i]);
  *(guint *) rig->data = refills[1] - refills[0];
}

/* skbuff_cache's 256-byte objects: 32 a slab (order 1) on 16 CPUs, as /proc/slabinfo shows
 * for a machine of 8 to 127; 64 (order 2) on 128, where SLUB wants 36 objects a slab. */
START_TEST (test_objects_per_slab_follow_the_cpus)
{
  static const guint cpus[] = { 16, 128 }, expect[] = { 32, 64 };

  for (guint i = 0; i < G_N_ELEMENTS (cpus); i++) {
    Rig rig;
    guint period = 0;

    rig_init_cpus (&rig, cpus[i]);
    rig.data = &period;
    run (&rig, slab_refills);
    ck_assert_msg (period == expect[i], "%u CPUs: a refill every %u allocations, "
                   "expected %u", cpus[i], period, expect[i]);
    rig_clear (&rig);
  }
}
END_TEST

/* Eight __alloc_skb(1000)s: sk_buff and head (1344 bytes with the shared info: kmalloc-2k),
 * alternately, into rig->data. */
static void
alloc_eight (NsThread *t, Rig *rig)
{
  struct sk_buff **skbs = rig->data;

  for (guint i = 0; i < 8; i++)
    skbs[i] = __alloc_skb (t, rig->alloc, 1000, GFP_ATOMIC);
}

/* Frees the eight of alloc_eight. */
static void
free_eight (NsThread *t, Rig *rig)
{
  struct sk_buff **skbs = rig->data;

  for (guint i = 0; i < 8; i++)
    kfree_skb (t, rig->alloc, skbs[i]);
}

/* The sk_buffs and their heads sit in their caches' slabs (slab.c), not in allocation
 * order in one arena: with the freelists in order (the default) the eight sk_buffs are
 * consecutive 256-byte objects and the heads consecutive 2 KiB ones though they were
 * allocated alternately; shuffled, the sk_buffs are not; an sk_buff freed on its
 * allocating CPU is the next it hands out (the per-CPU freelist, LIFO), one freed on
 * another CPU is not (it goes to its slab's freelist): the next is a fresh one. */
START_TEST (test_objects_sit_in_their_slabs)
{
  static const char *const shuffled[] = { "CONFIG_SLAB_FREELIST_RANDOM", "y", NULL };
  struct sk_buff *skbs[8] = { NULL };
  guint8 *first, *last_freed;
  gboolean in_order = TRUE;
  Rig rig;

  rig_init (&rig, "6.1.0");
  rig.data = skbs;
  run (&rig, alloc_eight);
  for (guint i = 1; i < 8; i++) {
    ck_assert_uint_eq ((guint8 *) skbs[i] - (guint8 *) skbs[i - 1], 256);
    ck_assert_uint_eq (skbs[i]->head - skbs[i - 1]->head, 2048);
  }
  last_freed = (guint8 *) skbs[7];
  run (&rig, free_eight);
  run (&rig, alloc_eight);
  ck_assert_ptr_eq (skbs[0], last_freed);
  run_cpu (&rig, 1, free_eight);
  run (&rig, alloc_eight);
  ck_assert_ptr_eq (skbs[0], last_freed + 256);       /* slot 8: the slab carves on */
  run (&rig, free_eight);
  rig_clear (&rig);

  memset (&rig, 0, sizeof rig);
  stack_rig_init_machine (&rig.s, "6.1.0", NULL, shuffled, NULL);
  rig.alloc = ns_skb_alloc_new (rig.s.machine);
  rig.data = skbs;
  run (&rig, alloc_eight);
  first = (guint8 *) skbs[0];
  for (guint i = 1; i < 8; i++)
    if ((guint8 *) skbs[i] - first != (gssize) i * 256)
      in_order = FALSE;
  ck_assert (!in_order);
  run (&rig, free_eight);
  rig_clear (&rig);
}
END_TEST

/* The heads come from the machine's kmalloc caches, the ones every kmalloc shares (tc's
 * objects too: one set per boot, create_kmalloc_caches): a 1000-byte request's head is a
 * live kmalloc-2k object (the sk_buff is skbuff_cache's, no kmalloc object), and the
 * kmalloc-2k object another kmalloc user takes next on the same CPU is the slot after the
 * last head; once freed, a head is no kmalloc object any more. */
START_TEST (test_heads_share_the_machines_kmalloc_caches)
{
  struct sk_buff *skbs[8] = { NULL };
  NsKmemCache *kmalloc_2k;
  guint8 *other;
  Rig rig;

  rig_init (&rig, "6.1.0");
  rig.data = skbs;
  run (&rig, alloc_eight);
  kmalloc_2k = ns_kmalloc_cache (rig.s.machine, ns_kmalloc_index (2048));
  ck_assert_ptr_eq (kmalloc_2k, ns_kmalloc_cache (rig.s.machine, ns_kmalloc_index (1025)));
  ck_assert_uint_eq (ns_ksize (rig.s.machine, skbs[7]->head), 2048);
  ck_assert_uint_eq (ns_ksize (rig.s.machine, skbs[7]), 0);
  other = ns_kmem_cache_alloc (kmalloc_2k, 0);
  ck_assert_ptr_eq (other, skbs[7]->head + 2048);
  ns_kmem_cache_free_on (kmalloc_2k, other, 0);
  run (&rig, free_eight);
  ck_assert_uint_eq (ns_ksize (rig.s.machine, skbs[7]->head), 0);
  rig_clear (&rig);
}
END_TEST

/* Allocates rig->data's two skbs: a 7872-byte one and a 7873-byte one. */
static void
alloc_at_kmalloc_max (NsThread *t, Rig *rig)
{
  struct sk_buff **skbs = rig->data;

  skbs[0] = __alloc_skb (t, rig->alloc, 7872, GFP_ATOMIC);
  skbs[1] = __alloc_skb (t, rig->alloc, 7873, GFP_ATOMIC);
}

/* Frees rig->data's two skbs. */
static void
free_two (NsThread *t, Rig *rig)
{
  struct sk_buff **skbs = rig->data;

  kfree_skb (t, rig->alloc, skbs[0]);
  kfree_skb (t, rig->alloc, skbs[1]);
}

/* The largest head kmalloc's caches serve is KMALLOC_MAX_CACHE_SIZE itself (the test is
 * size > 8192): 7872 bytes and skb_shared_info's 320 are 8192, a kmalloc-8k object; a byte
 * more rounds to 8256, kmalloc_large's, an order-2 block of the page allocator (no kmalloc
 * object, the skb's end 16384 - 320). */
START_TEST (test_head_at_kmalloc_max)
{
  struct sk_buff *skbs[2] = { NULL };
  Rig rig;

  rig_init (&rig, "6.1.0");
  rig.data = skbs;
  run (&rig, alloc_at_kmalloc_max);
  ck_assert_uint_eq (skbs[0]->end + SHINFO, 8192);
  ck_assert_uint_eq (ns_ksize (rig.s.machine, skbs[0]->head), 8192);
  ck_assert_uint_eq (skbs[1]->end + SHINFO, 16384);
  ck_assert_uint_eq (ns_ksize (rig.s.machine, skbs[1]->head), 0);
  run (&rig, free_two);
  rig_clear (&rig);
  ns_skb_alloc_free (NULL);                     /* NULL is fine */
}
END_TEST

#define PCP_SKBS 100

/* Allocates PCP_SKBS skbs with order-2 heads (7873 bytes: kmalloc_large's 16 KiB) on
 * the CPU, then frees them one by one, recording in rig->data (gint64[PCP_SKBS]) the pages
 * on the CPU's per-CPU lists after each free. */
static void
pcp_fill_and_drain (NsThread *t, Rig *rig)
{
  struct sk_buff *skbs[PCP_SKBS];
  gint64 *pcp = rig->data;

  for (guint i = 0; i < PCP_SKBS; i++)
    skbs[i] = __alloc_skb (t, rig->alloc, 7873, GFP_ATOMIC);
  for (guint i = 0; i < PCP_SKBS; i++) {
    guint pages;

    kfree_skb (t, rig->alloc, skbs[i]);
    ns_skb_alloc_zone_free_pages (rig->alloc, ns_thread_cpu (t), NULL, &pages);
    pcp[i] = pages;
  }
}

/* free_unref_page_commit: each freed order-2 head adds its 4 pages to the CPU's list; the
 * free that brings the list to pcp->high (4 × batch, 252 pages) or past it sends a batch
 * back to the zone (free_pcppages_bulk: blocks until 63 pages are gone, 16 of order 2, 64
 * pages), so after a free the list is below 252, and it falls by 64 - 4 = 60 at once. */
START_TEST (test_pcp_list_drains_at_high)
{
  gint64 pcp[PCP_SKBS];
  guint drains = 0;
  Rig rig;

  rig_init (&rig, "6.1.0");
  rig.data = pcp;
  run (&rig, pcp_fill_and_drain);
  for (guint i = 0; i < PCP_SKBS; i++) {
    ck_assert_int_lt (pcp[i], 252);
    if (i > 0 && pcp[i] != pcp[i - 1] + 4) {
      ck_assert_int_eq (pcp[i], pcp[i - 1] - 60);
      drains++;
    }
  }
  ck_assert_uint_ge (drains, 1);
  rig_clear (&rig);
}
END_TEST

/* What two allocations of rig->data's size and the frees of their skbs leave: the
 * instructions (cause insn), the memset_erms and clear_page_erms calls, the head's address
 * and whether its linear area came back zeroed when, filled with 0xa5 and freed, it was
 * handed out again (the same CPU: the same object or block). */
typedef struct {
  guint     size;
  guint64   insns, memsets, clears;
  guchar   *head;
  gboolean  reused, zeroed;
} InitRun;

/* Allocates one skb of run->size, fills its head's first skb->end bytes with 0xa5 (host
 * side, uncharged), frees it and allocates again: whether the second skb got the same head,
 * and whether those bytes are zero. */
static void
alloc_twice (NsThread *t, Rig *rig)
{
  InitRun *run = rig->data;
  struct sk_buff *skb = __alloc_skb (t, rig->alloc, run->size, GFP_ATOMIC);
  guint end;

  run->head = skb->head;
  end = skb->end;
  memset (skb->head, 0xa5, end);
  kfree_skb (t, rig->alloc, skb);
  skb = __alloc_skb (t, rig->alloc, run->size, GFP_ATOMIC);
  run->reused = skb->head == run->head;
  run->zeroed = TRUE;
  for (guint i = 0; i < end; i++)
    if (skb->head[i] != 0)
      run->zeroed = FALSE;
  kfree_skb (t, rig->alloc, skb);
}

/* run->size's alloc_twice on a fresh 6.1 machine whose .config is config (NULL: none). */
static void
init_run (InitRun *run, const char *const *config)
{
  Rig rig;

  memset (&rig, 0, sizeof rig);
  stack_rig_init_machine (&rig.s, "6.1.0", NULL, config, NULL);
  rig.alloc = ns_skb_alloc_new (rig.s.machine);
  rig.data = run;
  run_cpu (&rig, 0, alloc_twice);
  run->insns = ns_machine_account_events (rig.s.machine, NS_CAUSE_INSN);
  run->memsets = stack_rig_calls (&rig.s, "memset_erms");
  run->clears = stack_rig_calls (&rig.s, "clear_page_erms");
  ck_assert_uint_eq (ns_skb_alloc_live (rig.alloc, NULL), 0);
  rig_clear (&rig);
}

/* init_on_alloc (CONFIG_INIT_ON_ALLOC_DEFAULT_ON=y; the Kconfig default, n, where the
 * build does not say): every slab allocation zeroes its object through __memset →
 * memset_erms (6.1 on an ERMS CPU) and every page allocation clears each page with
 * clear_page_erms, so a head freed dirty comes back zeroed; without it, dirty. The
 * census's counts (doc/census/skb.md, seed000/send.md): 10 instructions in the slab
 * allocation function, __memset's jmp and memset_erms's 7 less P/E 2 (16 an object: two
 * a 100-byte skb, the sk_buff and its kmalloc head); for an order-2 head (8920 bytes),
 * the sk_buff's 16, 45 in get_page_from_freelist and 5 less P/E 2 in each of four
 * clear_page_erms (73). Two skbs are allocated per run. */
START_TEST (test_init_on_alloc_zeroes)
{
  static const char *const on[] = { "CONFIG_INIT_ON_ALLOC_DEFAULT_ON", "y", NULL };
  static const char *const off[] = { "CONFIG_INIT_ON_ALLOC_DEFAULT_ON", "n", NULL };
  /* pages: the head is a page block, whose bytes the model keeps as the last user left
   * them (slab.c hands every slab object out zeroed in host memory whatever the build,
   * so only the instructions and calls tell there) */
  static const struct { guint size; guint64 extra, memsets, clears; gboolean pages; } cases[] = {
    { 100, 2 * 16, 2, 0, FALSE },
    { 8920, 16 + 45 + 4 * 3, 1, 4, TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    InitRun unstated = { .size = cases[i].size }, without = { .size = cases[i].size };
    InitRun with = { .size = cases[i].size };

    init_run (&unstated, NULL);
    init_run (&without, off);
    init_run (&with, on);
    ck_assert_msg (unstated.reused && without.reused && with.reused,
                   "size %u: the second skb did not reuse the first's head", cases[i].size);
    ck_assert_msg (!cases[i].pages || (!unstated.zeroed && !without.zeroed && with.zeroed),
                   "size %u: zeroed unstated %d, n %d, y %d", cases[i].size,
                   unstated.zeroed, without.zeroed, with.zeroed);
    ck_assert_uint_eq (unstated.insns, without.insns);
    ck_assert_msg (with.insns - without.insns == 2 * cases[i].extra,
                   "size %u: %" G_GUINT64_FORMAT " more instructions, wanted %"
                   G_GUINT64_FORMAT, cases[i].size, with.insns - without.insns,
                   2 * cases[i].extra);
    ck_assert_uint_eq (with.memsets - without.memsets, 2 * cases[i].memsets);
    ck_assert_uint_eq (with.clears, 2 * cases[i].clears);
    ck_assert_uint_eq (without.clears, 0);
  }
}
END_TEST

static Suite *
skbuff_suite (void)
{
  Suite *s = suite_create ("skbuff");
  TCase *tc = tcase_create ("alloc");

  tcase_add_loop_test (tc, test_alloc_sizes, 0, 2);
  tcase_add_test (tc, test_put_push);
  tcase_add_test (tc, test_frees_give_everything_back);
  tcase_add_test (tc, test_queues);
  tcase_add_test (tc, test_page_frags);
  tcase_add_test (tc, test_node_stat_folds);
  tcase_add_test (tc, test_zone_free_pages_follow_the_lists);
  tcase_add_test (tc, test_objects_per_slab_follow_the_cpus);
  tcase_add_test (tc, test_objects_sit_in_their_slabs);
  tcase_add_test (tc, test_heads_share_the_machines_kmalloc_caches);
  tcase_add_test (tc, test_head_at_kmalloc_max);
  tcase_add_test (tc, test_pcp_list_drains_at_high);
  tcase_add_test (tc, test_init_on_alloc_zeroes);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (skbuff_suite ());
  int failed;

  ns_param_registry_init ();
  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
