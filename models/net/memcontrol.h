/* memcontrol.h — socket memory charged to a memory cgroup, v6.9 (mm/memcontrol.c,
 * mm/page_counter.c, include/linux/page_counter.h, include/linux/memcontrol.h): the
 * page counters of the sockets' memcg and of each ancestor up to the root, each CPU's
 * charge stock (struct memcg_stock_pcp), and mem_cgroup_charge_skmem /
 * mem_cgroup_uncharge_skmem with the paths they take through the stock. */
#pragma once
#include <glib.h>
#include "machine.h"

G_BEGIN_DECLS

struct _NsNetStack;

/* MEMCG_CHARGE_BATCH (include/linux/memcontrol.h): what try_charge_memcg charges to the
 * page counters at once, and the most a CPU's stock holds before __refill_stock drains
 * it. */
#define MEMCG_CHARGE_BATCH   64u

/* The memcg levels whose page counters a charge walks: the sockets' memcg and its
 * ancestors up to the root memcg, whose counter is the top of the chain (mem_cgroup_css_
 * alloc gives the root's counter no parent; page_counter_try_charge and
 * page_counter_uncharge walk c->parent until NULL). A login session's process under
 * systemd on cgroup v2 sits in / → user.slice → user-UID.slice → session-N.scope: 4
 * levels (user@.service(5): processes started by sshd or a display manager form a .scope
 * unit under user-UID.slice, collected under user.slice). [U: where the seed's iperf3
 * ran is not recorded; a system service (system.slice/NAME.service) would give 3, an app
 * scope under user@UID.service 6 or more.] */
#define NS_MEMCG_LEVELS      4u

/* struct page_counter, the v6.1+ layout ("mm: page_counter: re-layout structure to
 * reduce false sharing", cache-line padded): usage alone on its line; the protection
 * tracking, watermark and failcnt on the next; the read-mostly limits and parent on the
 * third (____cacheline_internodealigned_in_smp: 64 bytes on x86-64). v6.9 has no
 * local_watermark or protection_support yet. */
struct page_counter {
  gint64               usage;                   /*   0 CL0: atomic_long_t */
  guint8               _pad0[56];
  gulong               emin;                    /*  64 CL1 */
  gint64               min_usage;
  gint64               children_min_usage;
  gulong               elow;
  gint64               low_usage;
  gint64               children_low_usage;
  gulong               watermark;
  gulong               failcnt;
  gulong               min;                     /* 128 CL2: read mostly */
  gulong               low;
  gulong               high;
  gulong               max;
  struct page_counter *parent;
  guint8               _pad2[24];
};
G_STATIC_ASSERT (sizeof (struct page_counter) == 192);
G_STATIC_ASSERT (G_STRUCT_OFFSET (struct page_counter, emin) == 64);
G_STATIC_ASSERT (G_STRUCT_OFFSET (struct page_counter, min) == 128);

/* struct mem_cgroup: the model keeps its two page counters of cgroup v2 that the charge
 * path touches, memory (charged) and swap (read by try_charge_memcg's high check). */
struct mem_cgroup {
  struct page_counter memory;
  struct page_counter swap;
};

/* struct memcg_stock_pcp (mm/memcontrol.c), one per CPU: the stock_lock (a local_lock_t,
 * no state on !PREEMPT_RT), the memcg whose pre-charged pages it caches and how many;
 * the obj stock's fields after them; its work_struct and flags on the second line, where
 * the model also keeps this CPU's count of the cached memcg's css reference (a per-CPU
 * percpu_ref counter in the kernel, as private to the CPU). */
struct memcg_stock_pcp {
  guint64            stock_lock;                /*   0 CL0 */
  struct mem_cgroup *cached;
  guint32            nr_pages;
  guint8             _obj_stock[44];
  guint8             work[32];                  /*  64 CL1 */
  gulong             flags;
  glong              css_ref;                   /* model: percpu_ref count of cached */
  guint8             _pad[16];
};
G_STATIC_ASSERT (sizeof (struct memcg_stock_pcp) == 128);

/* The sockets' memcg (the leaf) with levels - 1 ancestors above it, in the arena; each
 * level's page counters have max = high = PAGE_COUNTER_MAX (no limit set). */
struct mem_cgroup *ns_memcg_new           (NsArena *arena, guint levels);
/* The memcg's parent, or NULL for the root (parent_mem_cgroup). */
struct mem_cgroup *parent_mem_cgroup      (struct mem_cgroup *memcg);
/* n_cpus charge stocks, empty (no memcg cached), in the arena. */
struct memcg_stock_pcp *ns_memcg_stocks_new (NsArena *arena, guint n_cpus);

/* mem_cgroup_charge_skmem(memcg, nr_pages, gfp) of cgroup v2 on t's CPU: try_charge_memcg
 * (the stock of t's CPU when it holds nr_pages for memcg; else MEMCG_CHARGE_BATCH pages
 * charged up every page counter and the rest stocked), then the MEMCG_SOCK stat. Never
 * fails (no limit is set). */
void mem_cgroup_charge_skmem   (NsThread *t, struct _NsNetStack *s, struct mem_cgroup *memcg,
                                guint nr_pages);
/* mem_cgroup_uncharge_skmem(memcg, nr_pages) of cgroup v2 on t's CPU: the MEMCG_SOCK stat,
 * then refill_stock: the pages go to the stock of t's CPU, drained up every page counter
 * once it holds more than MEMCG_CHARGE_BATCH. */
void mem_cgroup_uncharge_skmem (NsThread *t, struct _NsNetStack *s, struct mem_cgroup *memcg,
                                guint nr_pages);

G_END_DECLS
