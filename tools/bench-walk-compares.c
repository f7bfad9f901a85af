/* bench-walk-compares.c — what a walk's compares cost beside its chase on this host: the
 * evidence for the machine's rule that well-predicted tests of the line a chase just
 * brought run at the issue width, not at the path's IPC (ns_insns_compares; doc/model.md,
 * "The walk's compares at the issue width" and "The kernel's own tc walk").
 *
 * A pointer chase over 64 nodes of 64 bytes (4 KiB: L1-resident), one dependent load a hop
 * (mov (%reg), %reg), measured four ways:
 *  - pairs_K: K compare-and-branch pairs on the node's other fields before the next hop
 *    (cmpq $imm, off(%reg); je: memory-immediate, never taken), K = 0, 2, 4, 6: what a
 *    walk's tests of the line add to the chase (tcf_classify's protocol test: 9
 *    instructions, compute_score's: 8 to 25);
 *  - call: each hop first calls a function (direct, plain return) that loads a field of
 *    the node and returns it;
 *  - call_verdict: the same, then __tcf_classify's 8 tests of a classifier's verdict on
 *    the returned value (cmp $1; jne; mov; and $0xf0000000; cmp $0x20000000; je; test;
 *    jns: the Debian 6.1.176 binary's, none taken) before the hop.
 * Each figure is the best of --runs measurements of --hops hops, in cycles at the core
 * clock measured from a chain of dependent ADDs (ns_hostbench_core_ghz). Prints "name
 * value" lines: cycles_per_hop_pairs_0/2/4/6, cycles_per_hop_call,
 * cycles_per_hop_call_verdict, core_clock_ghz. x86-64 only; elsewhere it says so and
 * exits 0 (make bench goes on). */
#include "config.h"
#include <stdio.h>
#include "hostbench.h"

#define N_NODES 64

typedef struct node {
  struct node *next;
  gint64       field[7];
} Node;

/* What each hop does besides its load: k compare pairs (CHASE_PAIRS_0 + k, k = 0, 2, 4,
 * 6), or a call, with or without the verdict's tests after it. */
typedef enum {
  CHASE_PAIRS_0 = 0,
  CHASE_CALL = 7,
  CHASE_CALL_VERDICT
} ChaseKind;

static gint runs = 5;
static gint64 hops = 20 * 1000 * 1000;

#if defined(__x86_64__)

#define HOP "mov (%0), %0\n\t"
#define PAIR(off) "cmpq $12345, " #off "(%0)\n\tje 9f\n\t"

/* Chases from p for n hops with k (0, 2, 4 or 6) compare pairs before each; returns the
 * last node (so the chase cannot be dropped). */
static const Node *
chase_pairs (const Node *p, gint64 n, guint k)
{
  for (gint64 i = 0; i < n; i++) {
    switch (k) {
    case 0: __asm__ volatile (HOP "9:" : "+r" (p)); break;
    case 2: __asm__ volatile (PAIR (8) PAIR (16) HOP "9:" : "+r" (p)); break;
    case 4: __asm__ volatile (PAIR (8) PAIR (16) PAIR (24) PAIR (32) HOP "9:" : "+r" (p));
      break;
    default: __asm__ volatile (PAIR (8) PAIR (16) PAIR (24) PAIR (32) PAIR (40) PAIR (48)
                               HOP "9:" : "+r" (p));
    }
  }
  return p;
}

/* A classifier's stand-in: the node's first field, loaded in the callee. */
static __attribute__ ((noinline)) gint
node_verdict (const Node *p)
{
  gint v;

  __asm__ volatile ("movl 8(%1), %0" : "=r" (v) : "r" (p));
  return v;
}

/* Chases from p for n hops, each hop after a call of node_verdict and, with verdict, the
 * 8 tests __tcf_classify makes of its result. */
static const Node *
chase_calls (const Node *p, gint64 n, gboolean verdict)
{
  for (gint64 i = 0; i < n; i++) {
    gint v = node_verdict (p);

    if (verdict)
      __asm__ volatile ("cmp $1, %0\n\tjne 1f\n\t"
                        "1:\n\tmov %0, %%edx\n\tand $0xf0000000, %%edx\n\t"
                        "cmp $0x20000000, %%edx\n\tje 9f\n\ttest %0, %0\n\tjns 9f\n"
                        "9:" : : "r" (v) : "edx", "cc");
    else
      __asm__ volatile ("" : : "r" (v));
    __asm__ volatile (HOP : "+r" (p));
  }
  return p;
}

/* Cycles a hop of one chase kind, best of runs. */
static double
cycles_per_hop (const Node *start, ChaseKind kind, double ghz)
{
  double best = G_MAXDOUBLE;

  for (gint r = 0; r < runs; r++) {
    double t0 = ns_hostbench_now_ns (), ns;
    const Node *end = kind < CHASE_CALL ? chase_pairs (start, hops, kind - CHASE_PAIRS_0)
                                        : chase_calls (start, hops, kind == CHASE_CALL_VERDICT);

    ns = (ns_hostbench_now_ns () - t0) / (double) hops;
    __asm__ volatile ("" : : "r" (end));
    best = MIN (best, ns);
  }
  return best * ghz;
}

/* Links the nodes into one cycle that strides through them (17 apart), fields -1. */
static Node *
nodes_new (void)
{
  Node *nodes = g_aligned_alloc0 (N_NODES, sizeof *nodes, 64);

  for (guint i = 0; i < N_NODES; i++) {
    nodes[i].next = &nodes[(i * 17 + 1) % N_NODES];
    for (guint j = 0; j < G_N_ELEMENTS (nodes[i].field); j++)
      nodes[i].field[j] = -1;
  }
  return nodes;
}

/* Prints each chase kind's cycles a hop and the clock they were read at. */
static void
print_figures (double ghz)
{
  Node *nodes = nodes_new ();
  static const guint pairs[] = { 0, 2, 4, 6 };

  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    printf ("cycles_per_hop_pairs_%u %.2f\n", pairs[i],
            cycles_per_hop (nodes, CHASE_PAIRS_0 + pairs[i], ghz));
  printf ("cycles_per_hop_call %.2f\n", cycles_per_hop (nodes, CHASE_CALL, ghz));
  printf ("cycles_per_hop_call_verdict %.2f\n", cycles_per_hop (nodes, CHASE_CALL_VERDICT, ghz));
  printf ("core_clock_ghz %.3f\n", ghz);
  g_aligned_free (nodes);
}

#endif

int
main (int argc, char **argv)
{
  const GOptionEntry entries[] = {
    { "runs", 'r', 0, G_OPTION_ARG_INT, &runs, "Measurements of each figure; the best is "
      "printed (default 5)", "N" },
    { "hops", 'n', 0, G_OPTION_ARG_INT64, &hops, "Hops a measurement (default 20000000)",
      "N" },
    { NULL }
  };

  if (!ns_hostbench_parse_args ("bench-walk-compares", "— what a walk's compares cost "
                                "beside its chase", entries, &argc, &argv))
    return 2;
  if (runs < 1 || hops < 1000) {
    fprintf (stderr, "bench-walk-compares: --runs must be at least 1 and --hops at least "
             "1000\n");
    return 2;
  }
#if defined(__x86_64__)
  print_figures (ns_hostbench_core_ghz (20 * 1000 * 1000, 5));
#else
  printf ("skipped (x86-64 only)\n");
#endif
  return 0;
}
