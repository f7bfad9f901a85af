/* bench-retpoline.c — what a generic retpoline costs per indirect call in seed 002's
 * filter walk on this host, with the filters' data in L1 and out of it.
 *
 * bench-retpoline-walk.c is built twice: its indirect calls (->classify, ->act) go
 * through the retpoline thunks below, or are plain predicted calls. Each filter is six
 * objects of a line each (tcf_proto, cls_mall_head, the actions array, the gact action,
 * its byte/packet counters, the hit counter). "packed" puts the objects of a kind one
 * after another (sequential slab allocation: a stride the L1 prefetcher follows);
 * "scattered" puts them on random lines of a region eight times their size (as slab
 * freelist randomisation and interleaved allocations leave them), so a 100-filter walk
 * runs from L2. The core clock comes from a chain of dependent ADDs
 * (ns_hostbench_core_ghz). Prints "name value" lines: cycles per filter of each build and
 * layout, and the extra cycles per retpoline (two per filter). x86-64 only.
 * Optional argument: a scale factor for the iteration counts (default 1). */
#include "config.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "bench-retpoline.h"
#include "hostbench.h"

/* The generic retpoline, one thunk per register (-mindirect-branch-register): the call
 * pushes a return address that the mov overwrites with the target, so the ret goes
 * there, while its prediction (the RSB) points at the speculation trap. */
__asm__ (
  "  .text\n"
  "  .irp reg,rax,rbx,rcx,rdx,rsi,rdi,rbp,r8,r9,r10,r11,r12,r13,r14,r15\n"
  "  .globl __x86_indirect_thunk_\\reg\n"
  "  .p2align 5\n"
  "__x86_indirect_thunk_\\reg:\n"
  "  call 1f\n"
  "2:\n  pause\n  lfence\n  jmp 2b\n"
  "1:\n  mov %\\reg,(%rsp)\n  ret\n"
  "  .endr\n"
);

#define KINDS     6       /* objects per filter */
#define LINE      64
#define SPREAD    8       /* scattered: region lines per object line */

typedef struct {
  guint8          *region;
  struct bench_tp *first;
} Filters;

/* The line of object kind k of filter i: kind-major in order, or a random slot. */
static gpointer
slot (const Filters *f, const guint *order, guint n, guint k, guint i)
{
  return f->region + (gsize) order[k * n + i] * LINE;
}

/* n filters of build w, each matching and continuing, laid out packed or scattered. */
static Filters
filters_new (const BenchWalk *w, guint n, gboolean scattered)
{
  guint lines = KINDS * n * (scattered ? SPREAD : 1);
  guint *order = g_new (guint, lines);
  GRand *rand = g_rand_new_with_seed (1);
  Filters f = { g_aligned_alloc0 (lines, LINE, 4096), NULL };

  for (guint i = 0; i < lines; i++)
    order[i] = i;
  for (guint i = lines - 1; scattered && i > 0; i--) {
    guint j = (guint) g_rand_int_range (rand, 0, (gint32) i + 1), t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  for (guint i = n; i-- > 0;) {
    struct bench_tp *tp = slot (&f, order, n, 0, i);
    struct bench_head *head = slot (&f, order, n, 1, i);
    struct bench_act **actions = slot (&f, order, n, 2, i);
    struct bench_act *a = slot (&f, order, n, 3, i);

    *a = (struct bench_act) { w->gact_ops, -1, 0, slot (&f, order, n, 4, i), 0 };
    actions[0] = a;
    *head = (struct bench_head) { 0, { i, 0 }, actions, 1, slot (&f, order, n, 5, i) };
    *tp = (struct bench_tp) { f.first, w->mall_classify, 3, i, head };
    f.first = tp;
  }
  g_rand_free (rand);
  g_free (order);
  return f;
}

/* The best of 7 runs of packets walks: nanoseconds per walk. */
static double
time_walks (const BenchWalk *w, const Filters *f, guint64 packets)
{
  static const struct bench_skb skb = { 8, 64 };
  struct bench_res res;
  double best = INFINITY;
  volatile int sink;

  for (int r = 0; r < 7; r++) {
    double t0 = ns_hostbench_now_ns ();
    for (guint64 k = 0; k < packets; k++)
      sink = w->tcf_classify (&skb, f->first, &res);
    /* once: MIN evaluates its arguments twice */
    double per = (ns_hostbench_now_ns () - t0) / (double) packets;

    best = MIN (best, per);
  }
  (void) sink;
  return best;
}

/* bench-retpoline [SCALE]: cycles per filter of the four builds in both layouts, 1 and
 * 100 filters; the extra cycles per retpoline (retpoline − plain, two per filter), what
 * the RFC wrapper adds per filter (wrapper − plain: its 7 + 6 compare-and-branch pairs
 * and two direct calls against two predicted indirect calls), and one fall-through pair's
 * cycles ((wrapper − wrapper_first) / 11). */
int
main (int argc, char **argv)
{
  guint64 scale = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 1;
  static const guint counts[] = { 1, 100 };
  static const char *const layout[2] = { "packed", "scattered" };
  static const char *const build[4] = { "plain", "retpoline", "wrapper", "wrapper_first" };
  const BenchWalk *walks[4] = { &bench_walk_plain, &bench_walk_retpoline, &bench_walk_wrapper,
                                &bench_walk_wrapper_first };
  double ghz = ns_hostbench_core_ghz (10000000, 5);

  printf ("core_clock_ghz %.3f\n", ghz);
  for (guint c = 0; c < G_N_ELEMENTS (counts); c++)
    for (int l = 0; l < 2; l++) {
      double cyc[4];
      for (int b = 0; b < 4; b++) {
        Filters f = filters_new (walks[b], counts[c], l);
        cyc[b] = time_walks (walks[b], &f, 200000 * MAX (scale, 1) / counts[c]) * ghz /
                 counts[c];
        printf ("cycles_per_filter_%s_%s_%u %.2f\n", build[b], layout[l], counts[c], cyc[b]);
        g_aligned_free (f.region);
      }
      printf ("retpoline_extra_%s_%u %.2f\n", layout[l], counts[c], (cyc[1] - cyc[0]) / 2);
      printf ("wrapper_extra_per_filter_%s_%u %.2f\n", layout[l], counts[c], cyc[2] - cyc[0]);
      printf ("compare_pair_cycles_%s_%u %.3f\n", layout[l], counts[c], (cyc[2] - cyc[3]) / 11);
    }
  return 0;
}
