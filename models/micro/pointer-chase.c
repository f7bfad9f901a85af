/* pointer-chase.c — dependent loads around a random cycle of cache lines: the latency of
 * whichever level holds the working set (lmbench lat_mem_rd style). */
#include "config.h"
#include <gsl/gsl_randist.h>
#include "workload.h"

typedef struct ChaseNode ChaseNode;
struct ChaseNode {
  ChaseNode *next;
  char       pad[56];           /* one node per 64-byte line */
};
G_STATIC_ASSERT (sizeof (ChaseNode) == 64);

typedef struct {
  ChaseNode *nodes;
  guint64    n_nodes;
  guint64    loads;
  guint64    loads_mark;
} PointerChase;

static const char *const metrics[] = { "cycles_per_load", "ns_per_load", NULL };
/* The <workload> attributes it takes. The largest working set: four times the largest
 * modelled L3 would do; 4 GiB keeps the chase well inside the machine's 16 GiB simulated
 * arena and its host index array (8 bytes a line) at 512 MiB. */
static const NsWorkloadAttr pointer_chase_attributes[] = {
  { "cpu", NS_WORKLOAD_ATTR_CPU, "0", .meaning = "the CPU the chaser runs on" },
  { "working-set", NS_WORKLOAD_ATTR_SIZE, NULL, "128B", "4GiB",
    .why = "two cache lines to 4 GiB: the simulated memory holds 16 GiB",
    .meaning = "bytes of the cycle of lines the loads walk" },
  { NULL }
};

/* Links the nodes into one cycle in a random order (gsl_ran_shuffle), each to the next
 * in that order and the last to the first, so every line is visited once per pass in an
 * order no prefetcher could follow. */
static void
link_random_cycle (ChaseNode *nodes, guint64 n, gsl_rng *rng)
{
  guint64 *order = g_new (guint64, n);

  for (guint64 i = 0; i < n; i++)
    order[i] = i;
  gsl_ran_shuffle (rng, order, n, sizeof *order);
  for (guint64 i = 0; i < n; i++)
    nodes[order[i]].next = &nodes[order[(i + 1) % n]];
  g_free (order);
}

/* The simulated thread: chase forever; the engine stops it at the end of the run. */
static void
chase_thread (NsThread *t, gpointer data)
{
  PointerChase *pc = data;
  ChaseNode *p = &pc->nodes[0];

  for (;;) {
    ns_load_dep (t, &p->next, sizeof p->next);
    p = p->next;
    pc->loads++;
  }
}

/* Links a working-set-sized random cycle of lines and spawns the chaser; NULL with a
 * file:line error. */
static gpointer
chase_setup (const NsScenario *sc, NsMachine *machine, NsEngine *engine, gsl_rng *rng,
             GError **error)
{
  PointerChase *pc;
  guint64 ws;
  guint cpu;

  if (!ns_workload_attr_check (sc, pointer_chase_attributes, error) ||
      !ns_workload_attr_cpu (sc, machine, pointer_chase_attributes, "cpu", &cpu, error) ||
      !ns_workload_attr_uint (sc, pointer_chase_attributes, "working-set", &ws, error))
    return NULL;
  pc = g_new0 (PointerChase, 1);
  pc->n_nodes = ws / sizeof (ChaseNode);
  pc->nodes = ns_arena_alloc (ns_machine_arena (machine), pc->n_nodes * sizeof (ChaseNode), 64);
  link_random_cycle (pc->nodes, pc->n_nodes, rng);
  ns_engine_spawn (engine, "chase", cpu, NS_THREAD_USER, 0, chase_thread, pc);
  return pc;
}

/* Snapshots the load count for the next metric. */
static void
chase_mark (gpointer state)
{
  PointerChase *pc = state;
  pc->loads_mark = pc->loads;
}

/* Loads completed since the mark. */
static guint64
chase_ops (gpointer state)
{
  PointerChase *pc = state;
  return pc->loads - pc->loads_mark;
}

/* Cycles or ns per load since the mark; FALSE for an unknown metric or no loads. */
static gboolean
chase_metric (gpointer state, NsMachine *machine, const char *metric, NsTime span,
              double *value)
{
  double loads = (double) chase_ops (state);

  if (loads == 0)
    return FALSE;
  if (g_str_equal (metric, "cycles_per_load"))
    *value = ns_workload_span_cycles (machine, span) / loads;
  else if (g_str_equal (metric, "ns_per_load"))
    *value = (double) span / 1000.0 / loads;
  else
    return FALSE;
  return TRUE;
}

const NsWorkloadClass ns_pointer_chase_class = {
  .name = "pointer-chase",
  .description = "dependent loads around a random cycle of lines (latency per cache level)",
  .op_name = "load",
  .metrics = metrics,
  .attributes = pointer_chase_attributes,
  .setup = chase_setup,
  .mark = chase_mark,
  .ops = chase_ops,
  .metric = chase_metric,
  .free = g_free,
};
