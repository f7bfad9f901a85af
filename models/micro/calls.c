/* calls.c — control-flow microbenchmarks: a chain of nested direct calls (return cost under
 * each return mitigation, inlining), a tree of distinct functions walked depth first (the
 * model's side of tools/bench-saferet-tree: a return's price with a large text
 * footprint) and a loop of indirect calls (spectre_v2 modes). */
#include "config.h"
#include "workload.h"

#define CHAIN_MAX_DEPTH 64
#define TREE_MAX_NODES  4096
#define CALLS_MAX_INSNS 1000000     /* body-insns, nop-insns: ns_insns takes a guint */

typedef struct {
  guint    depth;
  guint    fanout;              /* call-tree: children per function */
  guint    body_insns;
  guint    nop_insns;           /* call-tree: NOPs at each function's start (issue width) */
  NsFunc  *chain;               /* CHAIN_MAX_DEPTH functions (call-tree: its nodes), static */
  guint64  calls;
  guint64  calls_mark;
} Calls;

static const char *const metrics[] = { "cycles_per_call", "ns_per_call", NULL };
/* The <workload> attributes each class takes: the cpu and body-insns of all three, then
 * each one's own. */
#define CALLS_ATTR_CPU { "cpu", NS_WORKLOAD_ATTR_CPU, "0", .meaning = "the CPU that calls" }
#define CALLS_ATTR_BODY                                                                \
  { "body-insns", NS_WORKLOAD_ATTR_UINT, "10", "0", G_STRINGIFY (CALLS_MAX_INSNS),     \
    .meaning = "instructions in each function's body" }
static const NsWorkloadAttr chain_attributes[] = {
  CALLS_ATTR_CPU,
  { "depth", NS_WORKLOAD_ATTR_UINT, "8", "1", G_STRINGIFY (CHAIN_MAX_DEPTH),
    .meaning = "functions in the chain, each calling the next" },
  CALLS_ATTR_BODY,
  { "inline", NS_WORKLOAD_ATTR_BOOL, "false",
    .meaning = "the build inlines the chain's functions into one body" },
  { NULL }
};
static const NsWorkloadAttr tree_attributes[] = {
  CALLS_ATTR_CPU,
  { "depth", NS_WORKLOAD_ATTR_UINT, "5", "1",
    .meaning = "levels of the tree (at most " G_STRINGIFY (TREE_MAX_NODES) " functions)" },
  { "fanout", NS_WORKLOAD_ATTR_UINT, "4", "1", .meaning = "calls each inner function makes" },
  { "text-bytes", NS_WORKLOAD_ATTR_UINT, "192", "16", "4096",
    .meaning = "bytes of text of each function" },
  CALLS_ATTR_BODY,
  { "nop-insns", NS_WORKLOAD_ATTR_UINT, "0", "0", G_STRINGIFY (CALLS_MAX_INSNS),
    .meaning = "NOPs at each function's start (the front end's issue width)" },
  { NULL }
};
static const NsWorkloadAttr icall_attributes[] = { CALLS_ATTR_CPU, CALLS_ATTR_BODY, { NULL } };

/* The chain's functions: chain_fn_0 … chain_fn_63, each a 64-byte function with one call
 * site; attrs picks whether the build may inline them. Built once per attribute set. */
static NsFunc *
chain_functions (guint attrs)
{
  static NsFunc *tables[2];
  static GMutex lock;
  guint slot = (attrs & NS_FN_ALWAYS_INLINE) ? 1 : 0;

  g_mutex_lock (&lock);
  if (tables[slot] == NULL)
    tables[slot] = ns_workload_new_functions (slot ? "chain_inl" : "chain_fn", CHAIN_MAX_DEPTH,
                                              64, NS_FRAME_UNKNOWN, attrs | NS_FN_STRAIGHT);
  g_mutex_unlock (&lock);
  return tables[slot];
}

NS_FUNC (fn_icall_target, "icall_target", 64, NS_FRAME_UNKNOWN, NS_FN_STATIC | NS_FN_INDIRECT | NS_FN_STRAIGHT, 1);

/* One level of the chain: call, do the body, go one deeper, return. */
static void
chain_level (NsThread *t, Calls *c, guint level)
{
  ns_call (t, &c->chain[level]);
  ns_insns (t, c->body_insns);
  c->calls++;
  if (level + 1 < c->depth)
    chain_level (t, c, level + 1);
  ns_ret (t);
}

/* The simulated thread: runs the whole call chain from level 0, forever. */
static void
chain_thread (NsThread *t, gpointer data)
{
  for (;;)
    chain_level (t, data, 0);
}

/* TREE_MAX_NODES functions of text_bytes each for a tree's nodes: tree<bytes>_fn_<i>,
 * distinct symbols (so distinct text lines), never inlined. Built once per size. */
static NsFunc *
tree_functions (guint text_bytes)
{
  static GHashTable *tables;      /* text_bytes → NsFunc[TREE_MAX_NODES] */
  static GMutex lock;
  NsFunc *fns;

  g_mutex_lock (&lock);
  if (tables == NULL)
    tables = g_hash_table_new (g_direct_hash, g_direct_equal);
  fns = g_hash_table_lookup (tables, GUINT_TO_POINTER (text_bytes));
  if (fns == NULL) {
    g_autofree char *prefix = g_strdup_printf ("tree%u_fn", text_bytes);

    fns = ns_workload_new_functions (prefix, TREE_MAX_NODES, text_bytes, NS_FRAME_UNKNOWN,
                                     NS_FN_STATIC | NS_FN_NOINLINE | NS_FN_STRAIGHT);
    g_hash_table_insert (tables, GUINT_TO_POINTER (text_bytes), fns);
  }
  g_mutex_unlock (&lock);
  return fns;
}

/* Node i at level: call it, its body, its children (fanout × the next level), return;
 * *next numbers the nodes in depth-first order. */
static void
tree_node (NsThread *t, Calls *c, guint level, guint *next)
{
  ns_call (t, &c->chain[(*next)++]);
  ns_insns_wide (t, c->nop_insns);
  ns_insns (t, c->body_insns);
  c->calls++;
  if (level + 1 < c->depth)
    for (guint k = 0; k < c->fanout; k++)
      tree_node (t, c, level + 1, next);
  ns_ret (t);
}

/* The simulated thread: walks the whole tree from its root, forever. */
static void
tree_thread (NsThread *t, gpointer data)
{
  for (;;) {
    guint next = 0;
    tree_node (t, data, 0, &next);
  }
}

/* The simulated thread: indirect calls to icall_target with the body, forever. */
static void
icall_thread (NsThread *t, gpointer data)
{
  Calls *c = data;

  for (;;) {
    ns_icall (t, &fn_icall_target);
    ns_insns (t, c->body_insns);
    c->calls++;
    ns_ret (t);
  }
}

/* Reads the instruction count attr of attrs into *out; FALSE with a file:line error. */
static gboolean
get_insns (const NsScenario *sc, const NsWorkloadAttr *attrs, const char *attr, guint *out,
           GError **error)
{
  guint64 n;

  if (!ns_workload_attr_uint (sc, attrs, attr, &n, error))
    return FALSE;
  *out = (guint) n;                             /* at most CALLS_MAX_INSNS */
  return TRUE;
}

/* Reads the attributes common to the three workloads (attrs: the class's, all checked
 * first) into c and *cpu; FALSE with a file:line error. */
static gboolean
calls_read_common (const NsScenario *sc, NsMachine *machine, const NsWorkloadAttr *attrs,
                   Calls *c, guint *cpu, GError **error)
{
  return ns_workload_attr_check (sc, attrs, error) &&
         ns_workload_attr_cpu (sc, machine, attrs, "cpu", cpu, error) &&
         get_insns (sc, attrs, "body-insns", &c->body_insns, error);
}

/* Reads the attributes common to the three workloads and spawns the thread. */
static gpointer
calls_setup_common (const NsScenario *sc, NsMachine *machine, NsEngine *engine,
                    const NsWorkloadAttr *attrs, NsThreadFunc fn, Calls *c, GError **error)
{
  guint cpu;

  if (!calls_read_common (sc, machine, attrs, c, &cpu, error)) {
    g_free (c);
    return NULL;
  }
  ns_engine_spawn (engine, "calls", cpu, NS_THREAD_USER, 0, fn, c);
  return c;
}

/* Sets up call-chain (depth, inline, body-insns, cpu); NULL with a file:line error. An
 * inlined chain with an empty body is refused: its passes would charge nothing, so the
 * thread's simulated time would never advance and the run never end. */
static gpointer
chain_setup (const NsScenario *sc, NsMachine *machine, NsEngine *engine, gsl_rng *rng,
             GError **error)
{
  Calls *c = g_new0 (Calls, 1);
  guint64 depth;
  gboolean inl;
  guint cpu;

  if (!calls_read_common (sc, machine, chain_attributes, c, &cpu, error) ||
      !ns_workload_attr_uint (sc, chain_attributes, "depth", &depth, error) ||
      !ns_workload_attr_bool (sc, chain_attributes, "inline", &inl, error))
    goto fail;
  if (inl && c->body_insns == 0)
    goto empty_inlined;
  c->depth = depth;
  c->chain = chain_functions (inl ? NS_FN_STATIC | NS_FN_ALWAYS_INLINE
                                  : NS_FN_STATIC | NS_FN_NOINLINE);
  ns_engine_spawn (engine, "calls", cpu, NS_THREAD_USER, 0, chain_thread, c);
  return c;

/* ERRORS */
empty_inlined:
  ns_xml_error_blame (sc, sc->workload, (NsXmlBlame) { .attrs = { "body-insns", "inline" } },
                      error, "attribute 'body-insns': expected 1 to %d with inline=\"true\", "
                      "got 0 (an inlined chain with an empty body costs nothing a pass: "
                      "simulated time would never advance)", CALLS_MAX_INSNS);
fail:
  g_free (c);
  return NULL;
}

/* Nodes of a tree of depth levels with fanout children each: 1 + f + … + f^(depth-1). */
static guint64
tree_nodes (guint64 fanout, guint64 depth)
{
  guint64 n = 0, level = 1;

  for (guint64 d = 0; d < depth && n <= TREE_MAX_NODES; d++, level *= fanout)
    n += level;
  return n;
}

/* Sets up call-tree (fanout, depth, text-bytes, body-insns, nop-insns, cpu); NULL with a
 * file:line error. */
static gpointer
tree_setup (const NsScenario *sc, NsMachine *machine, NsEngine *engine, gsl_rng *rng,
            GError **error)
{
  Calls *c = g_new0 (Calls, 1);
  guint64 depth, fanout, bytes, nodes;

  if (!ns_workload_attr_check (sc, tree_attributes, error) ||
      !ns_workload_attr_uint (sc, tree_attributes, "depth", &depth, error) ||
      !ns_workload_attr_uint (sc, tree_attributes, "fanout", &fanout, error) ||
      !ns_workload_attr_uint (sc, tree_attributes, "text-bytes", &bytes, error) ||
      !get_insns (sc, tree_attributes, "nop-insns", &c->nop_insns, error))
    goto fail;
  nodes = tree_nodes (fanout, depth);
  if (nodes > TREE_MAX_NODES)
    goto too_big;
  c->depth = depth;
  c->fanout = fanout;
  c->chain = tree_functions ((guint) bytes);
  return calls_setup_common (sc, machine, engine, tree_attributes, tree_thread, c, error);

/* ERRORS */
too_big:
  ns_xml_error_blame (sc, sc->workload, (NsXmlBlame) { .attrs = { "fanout", "depth" } },
                      error, "attribute 'fanout' (%" G_GUINT64_FORMAT ") and attribute "
                      "'depth' (%" G_GUINT64_FORMAT "): expected at most %d functions in the tree",
                      fanout, depth, TREE_MAX_NODES);
fail:
  g_free (c);
  return NULL;
}

/* Sets up indirect-call (body-insns, cpu); NULL with a file:line error. */
static gpointer
icall_setup (const NsScenario *sc, NsMachine *machine, NsEngine *engine, gsl_rng *rng,
             GError **error)
{
  return calls_setup_common (sc, machine, engine, icall_attributes, icall_thread,
                             g_new0 (Calls, 1), error);
}

/* Snapshots the call count for the next metric. */
static void
calls_mark (gpointer state)
{
  Calls *c = state;
  c->calls_mark = c->calls;
}

/* Calls completed since the mark (every chain level counts as one). */
static guint64
calls_ops (gpointer state)
{
  Calls *c = state;
  return c->calls - c->calls_mark;
}

/* Cycles or ns per call since the mark; FALSE for an unknown metric or no calls. */
static gboolean
calls_metric (gpointer state, NsMachine *machine, const char *metric, NsTime span,
              double *value)
{
  double calls = (double) calls_ops (state);

  if (calls == 0)
    return FALSE;
  if (g_str_equal (metric, "cycles_per_call"))
    *value = ns_workload_span_cycles (machine, span) / calls;
  else if (g_str_equal (metric, "ns_per_call"))
    *value = (double) span / 1000.0 / calls;
  else
    return FALSE;
  return TRUE;
}

const NsWorkloadClass ns_call_chain_class = {
  .name = "call-chain",
  .description = "nested direct calls of depth D (return cost per return mitigation)",
  .op_name = "call",
  .metrics = metrics,
  .attributes = chain_attributes,
  .setup = chain_setup,
  .mark = calls_mark,
  .ops = calls_ops,
  .metric = calls_metric,
  .free = g_free,
};

const NsWorkloadClass ns_call_tree_class = {
  .name = "call-tree",
  .description = "a tree of distinct functions walked depth first (a return's price with "
                 "a large text footprint)",
  .op_name = "call",
  .metrics = metrics,
  .attributes = tree_attributes,
  .setup = tree_setup,
  .mark = calls_mark,
  .ops = calls_ops,
  .metric = calls_metric,
  .free = g_free,
};

const NsWorkloadClass ns_indirect_call_class = {
  .name = "indirect-call",
  .description = "a loop of indirect calls (cost per spectre_v2 mode)",
  .op_name = "call",
  .metrics = metrics,
  .attributes = icall_attributes,
  .setup = icall_setup,
  .mark = calls_mark,
  .ops = calls_ops,
  .metric = calls_metric,
  .free = g_free,
};
