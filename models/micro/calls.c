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
/* The <workload> attributes each class takes (ns_xml_check_attrs; netsim list workloads). */
static const char *const chain_attributes[] = {
  "type", "cpu", "depth", "body-insns", "inline", NULL
};
static const char *const tree_attributes[] = {
  "type", "cpu", "depth", "fanout", "text-bytes", "body-insns", "nop-insns", NULL
};
static const char *const icall_attributes[] = { "type", "cpu", "body-insns", NULL };

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

/* Reads the instruction count attr (def when absent), 0 to CALLS_MAX_INSNS; FALSE with a
 * file:line error. */
static gboolean
get_insns (const NsScenario *sc, const char *attr, guint def, guint *out, GError **error)
{
  guint64 n;

  if (!ns_xml_get_uint (sc, sc->workload, attr, TRUE, def, &n, error))
    return FALSE;
  if (n > CALLS_MAX_INSNS)
    goto error_range;
  *out = (guint) n;
  return TRUE;

/* ERRORS */
error_range:
  ns_xml_error_attr (sc, sc->workload, attr, error, "attribute '%s': expected 0 to %d, got %"
                     G_GUINT64_FORMAT, attr, CALLS_MAX_INSNS, n);
  return FALSE;
}

/* Reads the attributes common to the three workloads (allowed: the class's) into c and
 * *cpu; FALSE with a file:line error. */
static gboolean
calls_read_common (const NsScenario *sc, NsMachine *machine, const char *const *allowed,
                   Calls *c, guint *cpu, GError **error)
{
  return ns_xml_check_attrs (sc, sc->workload, allowed, error) &&
         ns_workload_get_cpu (sc, sc->workload, "cpu", 0, machine, cpu, error) &&
         get_insns (sc, "body-insns", 10, &c->body_insns, error);
}

/* Reads the attributes common to the three workloads and spawns the thread. */
static gpointer
calls_setup_common (const NsScenario *sc, NsMachine *machine, NsEngine *engine,
                    const char *const *allowed, NsThreadFunc fn, Calls *c, GError **error)
{
  guint cpu;

  if (!calls_read_common (sc, machine, allowed, c, &cpu, error)) {
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

  if (!ns_xml_get_uint (sc, sc->workload, "depth", TRUE, 8, &depth, error) ||
      !ns_xml_get_bool (sc, sc->workload, "inline", FALSE, &inl, error))
    goto fail;
  if (depth < 1 || depth > CHAIN_MAX_DEPTH)
    goto bad_depth;
  if (!calls_read_common (sc, machine, chain_attributes, c, &cpu, error))
    goto fail;
  if (inl && c->body_insns == 0)
    goto empty_inlined;
  c->depth = depth;
  c->chain = chain_functions (inl ? NS_FN_STATIC | NS_FN_ALWAYS_INLINE
                                  : NS_FN_STATIC | NS_FN_NOINLINE);
  ns_engine_spawn (engine, "calls", cpu, NS_THREAD_USER, 0, chain_thread, c);
  return c;

/* ERRORS */
bad_depth:
  ns_xml_error_attr (sc, sc->workload, "depth", error, "attribute 'depth': expected 1 to %d, "
                     "got %" G_GUINT64_FORMAT, CHAIN_MAX_DEPTH, depth);
  goto fail;
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

  if (!ns_xml_get_uint (sc, sc->workload, "depth", TRUE, 5, &depth, error) ||
      !ns_xml_get_uint (sc, sc->workload, "fanout", TRUE, 4, &fanout, error) ||
      !ns_xml_get_uint (sc, sc->workload, "text-bytes", TRUE, 192, &bytes, error) ||
      !get_insns (sc, "nop-insns", 0, &c->nop_insns, error))
    goto fail;
  nodes = tree_nodes (fanout, depth);
  if (depth < 1 || fanout < 1 || nodes > TREE_MAX_NODES)
    goto too_big;
  if (bytes < 16 || bytes > 4096)
    goto bad_bytes;
  c->depth = depth;
  c->fanout = fanout;
  c->chain = tree_functions ((guint) bytes);
  return calls_setup_common (sc, machine, engine, tree_attributes, tree_thread, c, error);

/* ERRORS */
too_big:
  ns_xml_error_blame (sc, sc->workload, (NsXmlBlame) { .attrs = { "fanout", "depth" } },
                      error, "attribute 'fanout' (%" G_GUINT64_FORMAT ") and attribute "
                      "'depth' (%" G_GUINT64_FORMAT "): expected at least 1 each and at most "
                      "%d functions", fanout, depth, TREE_MAX_NODES);
  goto fail;
bad_bytes:
  ns_xml_error_attr (sc, sc->workload, "text-bytes", error, "attribute 'text-bytes': "
                     "expected 16 to 4096, got %" G_GUINT64_FORMAT, bytes);
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
