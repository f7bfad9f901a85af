/* bench-saferet-lookup.c — the walk of udp4_lib_lookup2 over a chain of connected UDP
 * sockets, in user space, as tools/bench-saferet times it. Built twice: with
 * BENCH_INLINE compute_score is inlined (the seed-000 fix: one call site), without it
 * it is out of line (the 6.9-rc1 baseline: a second call site for the re-score). Both
 * builds use -mfunction-return=thunk-extern, as a kernel with CONFIG_RETHUNK does, so
 * every return of an out-of-line function goes through __x86_return_thunk. */
#include "config.h"
#include "bench-saferet.h"

#ifdef BENCH_INLINE
#define SCORE_ATTR  static inline __attribute__ ((always_inline))
#define LOOKUP      bench_lookup_inlined
#else
#define SCORE_ATTR  static __attribute__ ((noinline))
#define LOOKUP      bench_lookup_out_of_line
#endif

/* compute_score (IPv4): the kernel's conditions and score terms, -1 for no match. */
SCORE_ATTR int
compute_score (const struct bench_sock *sk, const void *net, guint32 saddr, guint16 sport,
               guint32 daddr, guint16 hnum, int dif, int sdif)
{
  int score;

  if (sk->net != net || sk->port_hash != hnum || sk->v6only)
    return -1;
  if (sk->rcv_saddr != daddr)
    return -1;
  score = sk->family == 2 ? 2 : 1;
  if (sk->daddr) {
    if (sk->daddr != saddr)
      return -1;
    score += 4;
  }
  if (sk->dport) {
    if (sk->dport != sport)
      return -1;
    score += 4;
  }
  if (sk->bound_dev_if) {
    if (sk->bound_dev_if != dif && sk->bound_dev_if != sdif)
      return -1;
    score += 4;
  }
  if (sk->incoming_cpu == 0)
    score++;
  return score;
}

/* The chain walk, then the re-score of the selected socket that gave compute_score its
 * second call site. */
const struct bench_sock *
LOOKUP (const struct bench_sock *head, const void *net, guint32 saddr, guint16 sport,
        guint32 daddr, guint16 hnum, int dif, int sdif)
{
  const struct bench_sock *result = NULL;
  int badness = 0;

  for (const struct bench_sock *sk = head; sk; sk = sk->next) {
    int score = compute_score (sk, net, saddr, sport, daddr, hnum, dif, sdif);
    if (score > badness) {
      result = sk;
      badness = score;
    }
  }
#ifndef BENCH_INLINE
  if (result && result->reuseport_connected)
    badness = compute_score (result, net, saddr, sport, daddr, hnum, dif, sdif);
#endif
  return badness > 0 ? result : NULL;
}
