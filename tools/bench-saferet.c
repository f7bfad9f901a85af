/* bench-saferet.c — what inlining compute_score saves per call on this host, with the
 * SRSO Safe RET return thunk and with a plain one (seed 000's mechanism, measured).
 *
 * A chain of 64 connected sockets (as iperf3 -P 64 leaves on the server's port) is
 * looked up for each client port in turn, by the out-of-line and the inlined build of
 * bench-saferet-lookup.c; __x86_return_thunk (bench-rethunk.c) jumps to a plain `ret` or
 * to the Safe RET sequence (call srso_safe_ret; srso_safe_ret: lea 8(%rsp),%rsp; ret),
 * chosen at run time through one predicted indirect jump that both cases pay. The core
 * clock comes from a chain of dependent ADDs (ns_hostbench_core_ghz). Prints "name value"
 * lines: cycles per socket of each build under each thunk, and the saving per
 * compute_score call, with the chain's sockets served from L1D and from L2 (suffix _l2).
 * x86-64 only.
 * Optional argument: a scale factor for the iteration counts (default 1). */
#include "config.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "bench-rethunk.h"
#include "bench-saferet.h"
#include "hostbench.h"

#define N_SOCKS 64

typedef const struct bench_sock *(*LookupFn) (const struct bench_sock *, const void *,
                                              guint32, guint16, guint32, guint16, int, int);

#define now_ns ns_hostbench_now_ns

/* The best of 7 runs of lookups: nanoseconds per lookup. */
static double
time_lookups (LookupFn fn, const struct bench_sock *head, const void *net, guint64 lookups)
{
  double best = INFINITY;
  const struct bench_sock *volatile sink;

  for (int r = 0; r < 7; r++) {
    double t0 = now_ns ();
    for (guint64 k = 0; k < lookups; k++)
      sink = fn (head, net, 0x0100007f, (guint16) (40000 + k % N_SOCKS), 0x0100007f, 5201,
                 1, 0);
    /* once: MIN evaluates its arguments twice */
    double per = (now_ns () - t0) / (double) lookups;

    best = MIN (best, per);
  }
  (void) sink;
  return best;
}

/* N_SOCKS sockets on port 5201 of 127.0.0.1 in slots `stride` bytes apart, each connected
 * to 127.0.0.1 from its own client port (40000 + i), linked into one chain as the
 * server's hslot2 holds them: in slot order if shuffle is FALSE, else in a fixed random
 * order of the slots (no constant stride for a prefetcher to follow). */
static struct bench_sock *
link_chain (guint8 *socks, gsize stride, gboolean shuffle, const void *net)
{
  guint order[N_SOCKS];
  GRand *rand = g_rand_new_with_seed (1);

  for (guint i = 0; i < N_SOCKS; i++)
    order[i] = i;
  for (guint i = N_SOCKS - 1; shuffle && i > 0; i--) {
    guint j = g_rand_int_range (rand, 0, (gint32) i + 1), tmp = order[i];
    order[i] = order[j];
    order[j] = tmp;
  }
  g_rand_free (rand);
  for (guint i = 0; i < N_SOCKS; i++) {
    struct bench_sock *sk = (struct bench_sock *) (socks + order[i] * stride);
    sk->rcv_saddr = sk->daddr = 0x0100007f;
    sk->dport = (guint16) (40000 + i);
    sk->port_hash = 5201;
    sk->family = 2;
    sk->net = net;
    sk->incoming_cpu = -1;
    sk->next = i + 1 < N_SOCKS ? (struct bench_sock *) (socks + order[i + 1] * stride) : NULL;
  }
  return (struct bench_sock *) (socks + order[0] * stride);
}

/* Where the chain's sockets are served from: packed in order (L1D); 4 KiB apart in a
 * random order (all in one L1D set of 8 ways: every socket misses L1D and hits L2). (64
 * KiB apart, meant to put them all in one L2 set, they still come from L2 on a Zen 3:
 * not kept.) */
static const struct {
  const char *name;
  gsize       stride;
  gboolean    shuffle;
} layouts[] = {
  { "", sizeof (struct bench_sock), FALSE },
  { "_l2", 4096, TRUE },
};

/* bench-saferet [SCALE]: cycles per chain socket of the out-of-line and inlined lookups under
 * a plain and a Safe RET return thunk, and what inlining saves per call under each, with
 * the chain in L1D and in L2. */
int
main (int argc, char **argv)
{
  guint64 scale = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 1;
  guint64 lookups = 50000 * MAX (scale, 1);
  static const int net = 1;
  double ghz;
  static const char *const build[2] = { "out_of_line", "inlined" };
  static const char *const thunk[2] = { "plain_ret", "safe_ret" };

  ghz = ns_hostbench_core_ghz (10000000, 5);
  for (guint l = 0; l < G_N_ELEMENTS (layouts); l++) {
    guint8 *mem = g_malloc0 (N_SOCKS * layouts[l].stride + 64);
    guint8 *base = (guint8 *) (((guintptr) mem + 63) & ~(guintptr) 63);
    const struct bench_sock *head = link_chain (base, layouts[l].stride, layouts[l].shuffle,
                                                &net);
    double cyc[2][2];

    for (int t = 0; t < 2; t++) {
      bench_rethunk_select (t);
      for (int b = 0; b < 2; b++) {
        double ns = time_lookups (b ? bench_lookup_inlined : bench_lookup_out_of_line, head,
                                  &net, l == 0 ? lookups : lookups / 4);
        cyc[b][t] = ns * ghz / N_SOCKS;
        printf ("cycles_per_socket_%s_%s%s %.2f\n", build[b], thunk[t], layouts[l].name,
                cyc[b][t]);
      }
    }
    bench_rethunk_select (FALSE);
    printf ("inlining_saves_per_call_plain_ret%s %.2f\n", layouts[l].name,
            cyc[0][0] - cyc[1][0]);
    printf ("inlining_saves_per_call_safe_ret%s %.2f\n", layouts[l].name,
            cyc[0][1] - cyc[1][1]);
    g_free (mem);
  }
  printf ("core_clock_ghz %.3f\n", ghz);
  return 0;
}
