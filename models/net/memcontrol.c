/* memcontrol.c — socket memory charged to a memory cgroup, v6.9: mm/memcontrol.c
 * (mem_cgroup_charge_skmem, try_charge_memcg with consume_stock inlined, refill_stock,
 * __refill_stock, drain_stock, mem_cgroup_uncharge_skmem, mod_memcg_state) and
 * mm/page_counter.c (page_counter_try_charge, page_counter_uncharge with
 * page_counter_cancel, propagate_protected_usage), cgroup v2.
 *
 * Each CPU caches pre-charged pages of one memcg in its memcg_stock_pcp. A charge takes
 * its pages from the stock of the CPU it runs on when the stock holds them for the
 * socket's memcg (consume_stock); otherwise try_charge_memcg charges MEMCG_CHARGE_BATCH
 * (64) pages to the memcg's page counter and every ancestor's (page_counter_try_charge:
 * an atomic add on each level's usage line) and stocks what it did not need
 * (refill_stock). An uncharge gives its pages to the stock of its CPU (refill_stock):
 * once that holds more than MEMCG_CHARGE_BATCH, drain_stock uncharges all of it up every
 * level (page_counter_uncharge: an atomic subtract each) and forgets the memcg. Seed 000
 * charges in the NET_RX softirq on the sender's CPU and uncharges in udp_rmem_release on
 * the reader's, so the sender's stock runs dry and the reader's overflows every few
 * dozen pages, and both write the same usage lines: the coherence model prices the
 * transfers.
 *
 * Instruction counts: the census of the Debian 6.1.176 binary (doc/census/seed000/
 * receive.md section E: mem_cgroup_charge_skmem, try_charge_memcg with a consume_stock
 * hit, the stats; recv.md's "socket memcg on" variant: mem_cgroup_uncharge_skmem,
 * refill_stock and __refill_stock without a drain), as body instructions (each
 * function's total less its prologue, epilogue and return, which the machine charges per
 * call). The charge from the page counters, the stock's refill with another memcg and
 * the drain: doc/census/seed000/residue.md (2026-12-04). Text sizes: the Debian 6.1.176
 * binary's (nm -S; doc/census/text-sizes-6.1.176.txt). */
#include "config.h"
#include "memcontrol.h"
#include "netstack.h"

static NS_FUNC (fn_mem_cgroup_charge_skmem, "mem_cgroup_charge_skmem", 206, 11, NS_FN_EXTERN, 3);
static NS_FUNC (fn_mem_cgroup_uncharge_skmem, "mem_cgroup_uncharge_skmem", 56, 5,
                NS_FN_EXTERN, 3);
static NS_FUNC (fn_try_charge_memcg, "try_charge_memcg", 1969, 15, NS_FN_STATIC | NS_FN_NOINLINE,
                4);
static NS_FUNC (fn_mod_memcg_state, "mod_memcg_state", 38, 2, NS_FN_STATIC | NS_FN_NOINLINE, 8);
static NS_FUNC (fn___mod_memcg_state, "__mod_memcg_state", 115, 3, NS_FN_EXTERN, 40);
static NS_FUNC (fn_cgroup_rstat_updated, "cgroup_rstat_updated", 184, 7, NS_FN_EXTERN, 20);
static NS_FUNC (fn_refill_stock, "refill_stock", 43, 3, NS_FN_STATIC | NS_FN_NOINLINE, 4);
static NS_FUNC (fn___refill_stock, "__refill_stock", 124, 7, NS_FN_STATIC | NS_FN_NOINLINE, 2);
/* drain_stock: static, called from __refill_stock (twice), drain_local_stock and
 * memcg_hotplug_cpu_dead; its size keeps it out of line */
static NS_FUNC (fn_drain_stock, "drain_stock", 150, 5, NS_FN_STATIC, 4);
/* mm/page_counter.c, exported to memcontrol.c and hugetlb_cgroup.c */
static NS_FUNC (fn_page_counter_try_charge, "page_counter_try_charge", 176, 11, NS_FN_EXTERN, 8);
static NS_FUNC (fn_page_counter_uncharge, "page_counter_uncharge", 112, 7, NS_FN_EXTERN, 20);
/* out of line in 6.1.176 (a traced static function, 116 bytes; residue.md) */
static NS_FUNC (fn_propagate_protected_usage, "propagate_protected_usage", 116, 1,
                NS_FN_STATIC | NS_FN_NOINLINE, 4);

/* PAGE_COUNTER_MAX (LONG_MAX / PAGE_SIZE on 64-bit): a counter without a limit. */
#define PAGE_COUNTER_MAX     (G_MAXLONG / 4096)

/* ---- setup (control plane: no cycles) ---- */

/* page_counter_init(counter, parent): usage 0, max PAGE_COUNTER_MAX; memory.high too
 * starts at PAGE_COUNTER_MAX (mem_cgroup_css_alloc). */
static void
page_counter_init (struct page_counter *counter, struct page_counter *parent)
{
  counter->usage = 0;
  counter->max = counter->high = PAGE_COUNTER_MAX;
  counter->parent = parent;
}

/* The sockets' memcg below levels - 1 ancestors, the root first (see memcontrol.h). */
struct mem_cgroup *
ns_memcg_new (NsArena *arena, guint levels)
{
  struct mem_cgroup *parent = NULL, *memcg = NULL;

  g_return_val_if_fail (arena != NULL && levels > 0, NULL);
  for (guint i = 0; i < levels; i++) {
    memcg = ns_arena_alloc (arena, sizeof *memcg, 64);
    page_counter_init (&memcg->memory, parent ? &parent->memory : NULL);
    page_counter_init (&memcg->swap, parent ? &parent->swap : NULL);
    parent = memcg;
  }
  return memcg;
}

/* parent_mem_cgroup: the memcg of the memory counter's parent. */
struct mem_cgroup *
parent_mem_cgroup (struct mem_cgroup *memcg)
{
  g_return_val_if_fail (memcg != NULL, NULL);
  if (memcg->memory.parent == NULL)
    return NULL;
  return (struct mem_cgroup *) ((guint8 *) memcg->memory.parent -
                                G_STRUCT_OFFSET (struct mem_cgroup, memory));
}

/* The per-CPU memcg_stock of n_cpus CPUs, nothing cached. */
struct memcg_stock_pcp *
ns_memcg_stocks_new (NsArena *arena, guint n_cpus)
{
  g_return_val_if_fail (arena != NULL && n_cpus > 0, NULL);
  return ns_arena_alloc (arena, sizeof (struct memcg_stock_pcp) * n_cpus, 64);
}

/* ---- mm/page_counter.c ---- */

/* propagate_protected_usage(c, usage): a level with a parent compares its usage with
 * memory.min and memory.low; none is set (0), so the protected usages stay 0 and nothing
 * is written. Out of line in 6.1.176. census (residue.md): 2 at the root (5 less P/E 3),
 * 14 below it (17 less P/E 3). */
static void
propagate_protected_usage (NsThread *t, struct page_counter *c)
{
  ns_call (t, &fn_propagate_protected_usage);
  ns_insns (t, 2);
  NS_LOAD_FIELD (t, c, parent);
  if (c->parent != NULL) {
    ns_insns (t, 12);
    NS_LOAD_FIELD (t, c, min);
    NS_LOAD_FIELD (t, c, min_usage);
    NS_LOAD_FIELD (t, c, low);
    NS_LOAD_FIELD (t, c, low_usage);
  }
  ns_ret (t);
}

/* page_counter_try_charge(counter, nr_pages, &fail): on each level up to the root an
 * atomic_long_add_return on usage, the max test (no limit: never fails), the protected
 * usage and the watermark (written when the usage passes it). census (residue.md): 8
 * (21 less P/E 13) and 14 a level, 1 more when the watermark rises. */
static void
page_counter_try_charge (NsThread *t, struct page_counter *counter, guint nr_pages)
{
  ns_call (t, &fn_page_counter_try_charge);
  ns_insns (t, 7);
  for (struct page_counter *c = counter; c != NULL; c = c->parent) {
    ns_atomic (t, &c->usage);
    c->usage += nr_pages;
    NS_LOAD_FIELD (t, c, max);
    ns_insns (t, 8);                /* census: the add, the max test, the arguments */
    propagate_protected_usage (t, c);
    NS_LOAD_FIELD (t, c, watermark);
    ns_insns (t, 6);                /* census: the watermark test, the parent */
    if ((gulong) c->usage > c->watermark) {
      ns_insns (t, 1);
      c->watermark = (gulong) c->usage;
      NS_STORE_FIELD (t, c, watermark);
    }
    ns_load_dep (t, &c->parent, sizeof c->parent);
  }
  ns_insns (t, 1);                  /* census: the result */
  ns_ret (t);
}

/* page_counter_uncharge(counter, nr_pages): page_counter_cancel (inlined in 6.1.176) on
 * each level up to the root — atomic_long_sub_return on usage, the underflow test, the
 * protected usage. census (residue.md): 6 (15 less P/E 9) and 9 a level. */
static void
page_counter_uncharge (NsThread *t, struct page_counter *counter, guint nr_pages)
{
  ns_call (t, &fn_page_counter_uncharge);
  ns_insns (t, 6);
  for (struct page_counter *c = counter; c != NULL; c = c->parent) {
    ns_atomic (t, &c->usage);
    g_warn_if_fail (c->usage >= (gint64) nr_pages);
    c->usage -= nr_pages;
    ns_insns (t, 6);                /* census: the sub, the underflow test, the call */
    propagate_protected_usage (t, c);
    ns_insns (t, 3);                /* census: the parent */
    ns_load_dep (t, &c->parent, sizeof c->parent);
  }
  ns_ret (t);
}

/* ---- the per-CPU stock (mm/memcontrol.c) ---- */

/* The stock of t's CPU (this_cpu_ptr(&memcg_stock)). */
static struct memcg_stock_pcp *
this_cpu_stock (NsThread *t, NsNetStack *s)
{
  return &s->memcg_stock[ns_thread_cpu (t)];
}

/* css_get / css_put of the stock's memcg (percpu_ref_get_many / percpu_ref_put_many,
 * inlined): under rcu_read_lock, the percpu mode test and this CPU's counter. census
 * (residue.md): 6 with the two calls' instructions. */
static void
css_ref (NsThread *t, NsNetStack *s, struct memcg_stock_pcp *stock, glong delta)
{
  ns_rcu_read_lock (t, s);
  ns_insns (t, 6);
  stock->css_ref += delta;
  NS_STORE_FIELD (t, stock, css_ref);
  ns_rcu_read_unlock (t, s);
}

/* drain_stock(stock): the cached memcg's stocked pages uncharged up every level
 * (page_counter_uncharge of memory; memsw only on cgroup v1, a static key), then css_put
 * and no memcg cached. Nothing when none is cached. census (residue.md): 3 with none
 * cached (10 less P/E 7), 17 without pages, 21 with them. */
static void
drain_stock (NsThread *t, NsNetStack *s, struct memcg_stock_pcp *stock)
{
  struct mem_cgroup *old;

  ns_call (t, &fn_drain_stock);
  ns_insns (t, 3);
  NS_LOAD_FIELD (t, stock, cached);
  old = stock->cached;
  if (old == NULL)
    goto out;
  NS_LOAD_FIELD (t, stock, nr_pages);
  ns_insns (t, 4);
  if (stock->nr_pages != 0) {
    ns_insns (t, 2);
    page_counter_uncharge (t, &old->memory, stock->nr_pages);
    ns_insns (t, 4);                /* census: the memsw key's NOP, nr_pages = 0, the
                                       CSS_NO_REF test */
    stock->nr_pages = 0;
    NS_STORE_FIELD (t, stock, nr_pages);
  } else {
    ns_insns (t, 2);                /* census: the CSS_NO_REF test */
  }
  css_ref (t, s, stock, -1);
  stock->cached = NULL;
  NS_STORE_FIELD (t, stock, cached);
  ns_insns (t, 2);
out:
  ns_ret (t);
}

/* __refill_stock(memcg, nr_pages): the stock of t's CPU caches memcg (a stock of another
 * memcg, or of none since its last drain, is drained and memcg taken with css_get), adds
 * nr_pages and drains (a tail jmp) once it holds more than MEMCG_CHARGE_BATCH. census
 * (residue.md): 10 (19 less P/E 9) with the same memcg, 13 more with another (css_get's 6
 * among them), 2 more draining. */
static void
__refill_stock (NsThread *t, NsNetStack *s, struct mem_cgroup *memcg, guint nr_pages)
{
  struct memcg_stock_pcp *stock = this_cpu_stock (t, s);

  ns_call (t, &fn___refill_stock);
  ns_insns (t, 5);
  NS_LOAD_FIELD (t, stock, cached);
  if (stock->cached != memcg) {
    ns_insns (t, 3);
    drain_stock (t, s, stock);
    ns_insns (t, 2);
    css_ref (t, s, stock, 1);
    stock->cached = memcg;
    NS_STORE_FIELD (t, stock, cached);
    ns_insns (t, 2);
  }
  ns_insns (t, 5);
  stock->nr_pages += nr_pages;
  NS_STORE_FIELD (t, stock, nr_pages);
  if (stock->nr_pages > MEMCG_CHARGE_BATCH) {
    ns_insns (t, 2);
    ns_tail_next (t);
    drain_stock (t, s, stock);
  }
  ns_ret (t);
}

/* refill_stock(memcg, nr_pages): __refill_stock under the stock_lock (irq save/restore). */
static void
refill_stock (NsThread *t, NsNetStack *s, struct mem_cgroup *memcg, guint nr_pages)
{
  ns_call (t, &fn_refill_stock);
  ns_insns (t, 7);                  /* census (residue.md): 16, P/E 5: pushf, cli, the call */
  __refill_stock (t, s, memcg, nr_pages);
  ns_insns (t, 4);                  /* census: the IF test, sti */
  ns_ret (t);
}

/* consume_stock(memcg, nr_pages), inlined in try_charge_memcg: under the stock_lock
 * (irq save, cli, restore), take nr_pages from the stock of t's CPU when it caches memcg
 * and holds that many. census (residue.md, try_charge_memcg+0x7a..+0xa4, +0x1f6..+0x209,
 * +0x2ce..+0x2f2): 24 for a hit, 17 when the stock caches another memcg or none, 21 when
 * it holds too few pages; none above MEMCG_CHARGE_BATCH. */
static gboolean
consume_stock (NsThread *t, NsNetStack *s, struct mem_cgroup *memcg, guint nr_pages)
{
  struct memcg_stock_pcp *stock = this_cpu_stock (t, s);

  if (nr_pages > MEMCG_CHARGE_BATCH)
    return FALSE;
  ns_insns (t, 10);                 /* census: pushf, cli, this_cpu_ptr, the memcg test */
  NS_LOAD_FIELD (t, stock, cached);
  if (stock->cached != memcg) {
    ns_insns (t, 7);                /* census: the IF test, sti, FALSE */
    return FALSE;
  }
  NS_LOAD_FIELD (t, stock, nr_pages);
  ns_insns (t, 4);                  /* census: the pages test */
  if (stock->nr_pages < nr_pages) {
    ns_insns (t, 7);
    return FALSE;
  }
  stock->nr_pages -= nr_pages;
  NS_STORE_FIELD (t, stock, nr_pages);
  ns_insns (t, 10);                 /* census: the take, the IF test, sti, TRUE */
  return TRUE;
}

/* try_charge_memcg's check after a charge from the counters, one level (done_restock's
 * loop up to the root): memory and swap usage against their high (none set, so nothing
 * is scheduled: in softirq !in_task goes on to the parent). census (residue.md): 12 in
 * softirq, seed 000's case (a task would test both highs: 14). */
static void
memcg_high_check (NsThread *t, struct mem_cgroup *memcg)
{
  ns_insns (t, 12);
  NS_LOAD_FIELD (t, &memcg->memory, usage);
  NS_LOAD_FIELD (t, &memcg->memory, high);
  NS_LOAD_FIELD (t, &memcg->swap, usage);
  NS_LOAD_FIELD (t, &memcg->swap, high);
  ns_load_dep (t, &memcg->memory.parent, sizeof memcg->memory.parent);
}

/* try_charge_memcg(memcg, gfp, nr_pages): consume_stock; on a miss batch =
 * max(MEMCG_CHARGE_BATCH, nr_pages) pages charged up the page counters (memsw only on
 * cgroup v1, a static key; no limit: done_restock at once), batch - nr_pages to the
 * stock, the high check of every level, the task's over-high test. census: 65 less P/E
 * 17 = 48 with a consume_stock hit (receive.md); from the counters 65 + 12 a level
 * (residue.md, the stock holding too few pages). */
static void
try_charge_memcg (NsThread *t, NsNetStack *s, struct mem_cgroup *memcg, guint nr_pages)
{
  guint batch = MAX (MEMCG_CHARGE_BATCH, nr_pages);

  ns_call (t, &fn_try_charge_memcg);
  ns_insns (t, 20);                 /* census: batch, the reclaim state, the guard */
  if (consume_stock (t, s, memcg, nr_pages)) {
    ns_insns (t, 4);                /* census: the result, the guard */
    goto out;
  }
  ns_insns (t, 7);                  /* census: the memsw key's NOP, the arguments */
  page_counter_try_charge (t, &memcg->memory, batch);
  ns_insns (t, 4);                  /* census: the result, done_restock's batch test */
  if (batch > nr_pages) {
    ns_insns (t, 4);
    refill_stock (t, s, memcg, batch - nr_pages);
    ns_insns (t, 1);
  }
  for (struct mem_cgroup *m = memcg; m != NULL; m = parent_mem_cgroup (m))
    memcg_high_check (t, m);
  ns_insns (t, 8);                  /* census: memcg_nr_pages_over_high, the result, the
                                       guard */
out:
  ns_ret (t);
}

/* mod_memcg_state(memcg, MEMCG_SOCK, ±pages) → __mod_memcg_state → cgroup_rstat_updated:
 * the per-CPU stat below its flush batch, the cgroup already on the rstat list. 6.9's
 * memcg_rstat_updated batches per ancestor level; counted as 6.1. */
static void
mod_memcg_state (NsThread *t)
{
  ns_call (t, &fn_mod_memcg_state);
  ns_insns (t, 11);                 /* census: 15 less P/E 4 (irq save, cli, restore) */
  ns_call (t, &fn___mod_memcg_state);
  ns_insns (t, 17);                 /* census: 22 less P/E 5 (the per-CPU stat add) */
  ns_call (t, &fn_cgroup_rstat_updated);
  ns_insns (t, 6);                  /* census: 15 less P/E 9 (already updated) */
  ns_ret (t);
  ns_ret (t);
  ns_ret (t);
}

/* ---- socket memory (mm/memcontrol.c) ---- */

/* mem_cgroup_charge_skmem; see memcontrol.h. */
void
mem_cgroup_charge_skmem (NsThread *t, NsNetStack *s, struct mem_cgroup *memcg,
                         guint nr_pages)
{
  g_return_if_fail (t != NULL && s != NULL && memcg != NULL && s->memcg_stock != NULL);
  ns_call (t, &fn_mem_cgroup_charge_skmem);
  ns_insns (t, 23);                 /* census: 36 less P/E 13 (cgroup v2 test, arguments) */
  try_charge_memcg (t, s, memcg, nr_pages);
  mod_memcg_state (t);
  ns_ret (t);
}

/* mem_cgroup_uncharge_skmem; see memcontrol.h. */
void
mem_cgroup_uncharge_skmem (NsThread *t, NsNetStack *s, struct mem_cgroup *memcg,
                           guint nr_pages)
{
  g_return_if_fail (t != NULL && s != NULL && memcg != NULL && s->memcg_stock != NULL);
  ns_call (t, &fn_mem_cgroup_uncharge_skmem);
  /* census: 15, less P/E 5 (fentry, 2 push, 2 pop; residue.md): refill_stock is a tail
   * jmp, so the two return once */
  ns_insns (t, 10);
  mod_memcg_state (t);
  ns_tail_next (t);
  refill_stock (t, s, memcg, nr_pages);
  ns_ret (t);
}
