/* filter-walk.c — the model's side of tools/bench-retpoline: its user-space tc filter walk
 * (tools/bench-retpoline-walk.c), a chain of N matchall filters with one gact action each
 * that says "continue", walked once per operation, with the benchmark's objects, layouts
 * and code shape, so that the benchmark's host figures and this workload's are measured
 * on like contexts (tools/replay-bench-retpoline fits branch.resolve_cycles on them).
 *
 * Each filter is six objects of a 64-byte line each: the tcf_proto, the matchall head,
 * the actions array, the gact action, its byte/packet counters and the hit counter.
 * layout="packed" puts the objects of a kind one after another (kind after kind, as
 * sequential slab allocations leave them: a stride of one line the L1 stride prefetcher
 * follows); "scattered" puts every object on a random line of a region eight times their
 * size. The walk visits the filters in allocation order, as the benchmark does.
 *
 * Instruction counts are those of the benchmark's plain build (GCC 12, -O2, objdump of
 * libns_bench_walk_plain_a-bench-retpoline-walk.o), counted as the kernel models' census
 * counts them: a function's instructions less its prologue, epilogue and return (pushes,
 * pops, stack adjustment, ret), which the machine charges with every out-of-line call
 * (each function's frame, declared below; until 2026-12-05 call.prologue_insns, 6, for
 * each), and with the NOPs that execution falls through. tcf_classify 6
 * to enter (one a NOP) and 1 to leave, 14 a filter; mall_classify 11 (it ends in a tail
 * jmp to action_exec); action_exec 9 to enter (one a NOP), 9 an action; gact_act 8: 58
 * a 1-filter walk. The wrapper builds load the function pointer into a register before
 * the chain, one instruction a call site more. Text sizes are that build's symbols'.
 * Load dependences follow the kernel model's tc walk (models/net/sched/): the
 * chain walk (tp->protocol, read first on tp's line) is dependent, and the loads that
 * produce the action's target (the head, actions[i], a->ops) are dependent where the
 * indirect call goes through a retpoline thunk (spectre_v2=retpoline or lfence, with eIBRS
 * or without: ns_spectre_v2_thunked).
 *
 * wrapper="rfc" is the benchmark's wrapper build: each ->classify and ->act is reached by
 * the RFC tc wrapper's compare chain (6 entries fall through before matchall's, 5 before
 * gact's) and a direct call; "first" tests matchall and gact first. */
#include "config.h"
#include <gsl/gsl_randist.h>
#include "workload.h"

#define WALK_MAX_FILTERS 4096
#define WALK_KINDS       6          /* objects a filter */
#define WALK_LINE        64
#define WALK_SPREAD      8          /* scattered: region lines per object line */
#define TC_ACT_PIPE      3
#define ETH_P_ALL_LE     3          /* htons(ETH_P_ALL) on little-endian */

struct walk_res   { guint64 classid, klass; };
struct walk_skb   { guint16 protocol; guint32 len; };
struct walk_stats { guint64 bytes, packets; };
struct walk_act_ops { gpointer act; };

struct walk_act {                       /* tc_action with tcf_gact's fields */
  const struct walk_act_ops *ops;       /*  0 */
  int                        action;    /*  8 */
  guint                      flags;     /* 12 */
  struct walk_stats         *cpu_bstats;/* 16 */
  guint64                    lastuse;   /* 24 */
};

struct walk_head {                      /* cls_mall_head */
  guint              flags;             /*  0 */
  struct walk_res    res;               /*  8 */
  struct walk_act  **actions;           /* 24 */
  int                nr_actions;        /* 32 */
  guint64           *rhit;              /* 40 */
};

struct walk_tp {                        /* tcf_proto */
  struct walk_tp    *next;              /*  0 */
  gpointer           classify;          /*  8 */
  guint16            protocol;          /* 16 */
  guint32            prio;              /* 20 */
  struct walk_head  *root;              /* 24 */
};
G_STATIC_ASSERT (offsetof (struct walk_tp, root) == 24);
G_STATIC_ASSERT (offsetof (struct walk_head, rhit) == 40);
G_STATIC_ASSERT (offsetof (struct walk_act, lastuse) == 24);

enum { LAYOUT_PACKED, LAYOUT_SCATTERED };        /* index in layouts[] */
enum { WRAPPER_OFF, WRAPPER_RFC, WRAPPER_FIRST }; /* index in wrappers[] */

typedef struct {
  struct walk_tp     *first;
  struct walk_skb    *skb;
  struct walk_res    *res;          /* the caller's stack slot */
  struct walk_act_ops *gact_ops;
  guint               wrapper;
  gboolean            thunked;      /* indirect calls go through a retpoline thunk */
  guint               n_filters;
  guint64             walks;
  guint64             walks_mark;
} FilterWalk;

static const char *const metrics[] = { "cycles_per_walk", "cycles_per_filter", NULL };
static const char *const layouts[] = { "packed", "scattered", NULL };
static const char *const wrappers[] = { "off", "rfc", "first", NULL };
/* The <workload> attributes it takes. */
static const NsWorkloadAttr walk_attributes[] = {
  { "cpu", NS_WORKLOAD_ATTR_CPU, "0", .meaning = "the CPU that walks" },
  { "filters", NS_WORKLOAD_ATTR_UINT, "1", "1", G_STRINGIFY (WALK_MAX_FILTERS),
    .meaning = "matchall filters in the chain" },
  { "layout", NS_WORKLOAD_ATTR_CHOICE, "packed", .choices = layouts,
    .meaning = "the filters' objects next to each other, or spread over memory" },
  { "wrapper", NS_WORKLOAD_ATTR_CHOICE, "off", .choices = wrappers,
    .meaning = "indirect calls (off), the RFC's compare chain with matchall last (rfc) or "
               "first (first)" },
  { NULL }
};

/* Load sites that see one object a filter (the L1 stride prefetcher keys on them). */
static NS_LOAD_SITE (site_tp, "bench tcf_classify: tp->protocol");
static NS_LOAD_SITE (site_head, "bench mall_classify: head->flags");
static NS_LOAD_SITE (site_rhit, "bench mall_classify: (*head->rhit)++");
static NS_LOAD_SITE (site_actions, "bench action_exec: actions[i]");
static NS_LOAD_SITE (site_act, "bench action_exec: a->flags");
static NS_LOAD_SITE (site_act_ops, "bench action_exec: a->ops");
static NS_LOAD_SITE (site_stats, "bench gact_act: a->cpu_bstats->bytes");

/* Frames: the benchmark's own objects, as make builds them (GCC 12.2 -O2, user space: no
 * ftrace site): tcf_classify pushes 3 registers, action_exec 4 and adjusts the stack,
 * mall_classify and gact_act none (objdump -d of the bench-retpoline-walk objects). */
static NS_FUNC (fn_tcf_classify, "bench_tcf_classify", 80, 6, NS_FN_STATIC | NS_FN_NOINLINE, 1);
static NS_FUNC (fn_mall_classify, "bench_mall_classify", 54, 0, NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_action_exec, "bench_action_exec", 91, 10, NS_FN_STATIC | NS_FN_NOINLINE, 1);
static NS_FUNC (fn_gact_act, "bench_gact_act", 39, 0, NS_FN_STATIC | NS_FN_INDIRECT, 1);

/* Reaches fn as the build does: an indirect call, or the wrapper's compare chain (pairs
 * that fall through before fn's entry, whose compare-and-branch is one more) and a
 * direct call. */
static void
walk_dispatch (NsThread *t, const FilterWalk *w, NsFunc *fn, guint before)
{
  if (w->wrapper == WRAPPER_OFF) {
    ns_icall (t, fn);
    return;
  }
  ns_insns (t, 1);                  /* the pointer's load into a register */
  ns_insns_fused (t, (w->wrapper == WRAPPER_RFC ? before : 0) + 1);
  ns_call (t, fn);
}

/* gact_act: bump the counters, note the use, return the verdict. */
static int
gact_act (NsThread *t, const FilterWalk *w, struct walk_act *a)
{
  struct walk_stats *b;

  NS_LOAD_FIELD (t, a, cpu_bstats);
  b = a->cpu_bstats;
  NS_LOAD_FIELD (t, w->skb, len);
  ns_load_site (t, &site_stats, FALSE, b, sizeof *b);
  b->bytes += w->skb->len;
  b->packets++;
  ns_store (t, b, sizeof *b);
  NS_LOAD_FIELD (t, a, action);
  a->lastuse = 1;
  NS_STORE_FIELD (t, a, lastuse);
  ns_insns (t, 8);
  ns_ret (t);
  return a->action;
}

/* action_exec: each action in turn while it says "pipe". */
static int
action_exec (NsThread *t, const FilterWalk *w, struct walk_act **actions, int nr)
{
  int ret = -1;

  ns_insns (t, 9);
  for (int i = 0; i < nr; i++) {
    struct walk_act *a;

    ns_load_site (t, &site_actions, w->thunked, &actions[i], sizeof actions[i]);
    a = actions[i];
    ns_load_site (t, &site_act, FALSE, &a->flags, sizeof a->flags);
    ns_insns (t, 7);
    if (a->flags & 1)
      continue;
    ns_load_site (t, &site_act_ops, w->thunked, &a->ops, sizeof a->ops);
    NS_LOAD_FIELD (t, a->ops, act);
    walk_dispatch (t, w, &fn_gact_act, 5);
    ret = gact_act (t, w, a);
    ns_insns (t, 2);
    if (ret != TC_ACT_PIPE)
      break;
  }
  ns_ret (t);
  return ret;
}

/* mall_classify: copy the result, count the hit, tail-jump into the actions. */
static int
mall_classify (NsThread *t, const FilterWalk *w, const struct walk_tp *tp)
{
  struct walk_head *head;
  int ret;

  NS_LOAD_FIELD (t, tp, root);
  head = tp->root;
  ns_load_site (t, &site_head, w->thunked, &head->flags, sizeof head->flags);
  ns_insns (t, 11);
  if (head->flags & 2) {
    ns_ret (t);
    return -1;
  }
  NS_LOAD_FIELD (t, head, res);
  *w->res = head->res;
  ns_store (t, w->res, sizeof *w->res);
  NS_LOAD_FIELD (t, head, rhit);
  ns_load_site (t, &site_rhit, FALSE, head->rhit, sizeof *head->rhit);
  (*head->rhit)++;
  ns_store (t, head->rhit, sizeof *head->rhit);
  NS_LOAD_FIELD (t, head, actions);
  NS_LOAD_FIELD (t, head, nr_actions);
  ns_tail_call (t, &fn_action_exec);
  ret = action_exec (t, w, head->actions, head->nr_actions);
  ns_ret (t);                       /* no return of its own: action_exec's was it */
  return ret;
}

/* tcf_classify: the filters in order until one gives a verdict (>= 0). */
static int
tcf_classify (NsThread *t, const FilterWalk *w)
{
  int ret = -1;

  ns_call (t, &fn_tcf_classify);
  ns_insns (t, 6);
  for (const struct walk_tp *tp = w->first; tp != NULL; tp = tp->next) {
    int err;

    ns_load_site (t, &site_tp, TRUE, &tp->protocol, sizeof tp->protocol);
    NS_LOAD_FIELD (t, w->skb, protocol);
    ns_insns (t, 9);
    if (tp->protocol != w->skb->protocol && tp->protocol != ETH_P_ALL_LE)
      continue;
    NS_LOAD_FIELD (t, tp, classify);
    walk_dispatch (t, w, &fn_mall_classify, 6);
    err = mall_classify (t, w, tp);
    ns_insns (t, 5);
    if (err >= 0) {
      ret = err;
      break;
    }
  }
  ns_insns (t, 1);
  ns_ret (t);
  return ret;
}

/* The simulated thread: one walk per operation, forever. */
static void
walk_thread (NsThread *t, gpointer data)
{
  FilterWalk *w = data;

  for (;;) {
    tcf_classify (t, w);
    w->walks++;
  }
}

/* The line of object kind k of filter i in region (order: line numbers). */
static gpointer
walk_slot (guint8 *region, const guint *order, guint n, guint k, guint i)
{
  return region + (gsize) order[k * n + i] * WALK_LINE;
}

/* Builds n filters in the arena, packed or scattered (rng shuffles the region's lines),
 * linked in allocation order from w->first. */
static void
walk_build (FilterWalk *w, NsArena *arena, guint n, gboolean scattered, gsl_rng *rng)
{
  guint lines = WALK_KINDS * n * (scattered ? WALK_SPREAD : 1);
  guint8 *region = ns_arena_alloc (arena, (gsize) lines * WALK_LINE, 4096);
  guint *order = g_new (guint, lines);

  for (guint i = 0; i < lines; i++)
    order[i] = i;
  if (scattered)
    gsl_ran_shuffle (rng, order, lines, sizeof *order);
  for (guint i = n; i-- > 0;) {
    struct walk_tp *tp = walk_slot (region, order, n, 0, i);
    struct walk_head *head = walk_slot (region, order, n, 1, i);
    struct walk_act **actions = walk_slot (region, order, n, 2, i);
    struct walk_act *a = walk_slot (region, order, n, 3, i);

    *a = (struct walk_act) { w->gact_ops, -1, 0, walk_slot (region, order, n, 4, i), 0 };
    actions[0] = a;
    *head = (struct walk_head) { 0, { i, 0 }, actions, 1, walk_slot (region, order, n, 5, i) };
    *tp = (struct walk_tp) { w->first, &fn_mall_classify, ETH_P_ALL_LE, i, head };
    w->first = tp;
  }
  g_free (order);
}

/* Sets up filter-walk (filters, layout, wrapper, cpu); NULL with a file:line error. */
static gpointer
walk_setup (const NsScenario *sc, NsMachine *machine, NsEngine *engine, gsl_rng *rng,
            GError **error)
{
  const NsMitigations *mit = ns_machine_mitigations (machine);
  NsArena *arena = ns_machine_arena (machine);
  FilterWalk *w;
  guint64 n;
  guint layout, wrapper, cpu;

  if (!ns_workload_attr_check (sc, walk_attributes, error) ||
      !ns_workload_attr_cpu (sc, machine, walk_attributes, "cpu", &cpu, error) ||
      !ns_workload_attr_uint (sc, walk_attributes, "filters", &n, error) ||
      !ns_workload_attr_choice (sc, walk_attributes, "layout", &layout, error) ||
      !ns_workload_attr_choice (sc, walk_attributes, "wrapper", &wrapper, error))
    return NULL;
  w = g_new0 (FilterWalk, 1);
  w->wrapper = wrapper;
  w->thunked = ns_spectre_v2_thunked (mit->spectre_v2);
  /* the skb, the result slot and the ops: one line each */
  w->skb = ns_arena_alloc (arena, WALK_LINE, WALK_LINE);
  *w->skb = (struct walk_skb) { 8, 64 };
  w->res = ns_arena_alloc (arena, WALK_LINE, WALK_LINE);
  w->gact_ops = ns_arena_alloc (arena, WALK_LINE, WALK_LINE);
  w->gact_ops->act = &fn_gact_act;
  w->n_filters = (guint) n;
  walk_build (w, arena, w->n_filters, layout == LAYOUT_SCATTERED, rng);
  ns_engine_spawn (engine, "walk", cpu, NS_THREAD_USER, 0, walk_thread, w);
  return w;
}

/* Snapshots the walk count for the next metric. */
static void
walk_mark (gpointer state)
{
  FilterWalk *w = state;
  w->walks_mark = w->walks;
}

/* Walks completed since the mark. */
static guint64
walk_ops (gpointer state)
{
  FilterWalk *w = state;
  return w->walks - w->walks_mark;
}

/* Cycles per walk or per filter since the mark; FALSE for an unknown metric or no walk. */
static gboolean
walk_metric (gpointer state, NsMachine *machine, const char *metric, NsTime span,
             double *value)
{
  FilterWalk *w = state;
  double walks = (double) walk_ops (state);

  if (walks == 0)
    return FALSE;
  if (g_str_equal (metric, "cycles_per_walk"))
    *value = ns_workload_span_cycles (machine, span) / walks;
  else if (g_str_equal (metric, "cycles_per_filter"))
    *value = ns_workload_span_cycles (machine, span) / walks / w->n_filters;
  else
    return FALSE;
  return TRUE;
}

const NsWorkloadClass ns_filter_walk_class = {
  .name = "filter-walk",
  .description = "tools/bench-retpoline's tc filter walk (N matchall filters, packed or "
                 "scattered; indirect calls or the RFC wrapper)",
  .op_name = "walk",
  .metrics = metrics,
  .attributes = walk_attributes,
  .setup = walk_setup,
  .mark = walk_mark,
  .ops = walk_ops,
  .metric = walk_metric,
  .free = g_free,
};
