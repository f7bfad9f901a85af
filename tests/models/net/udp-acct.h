/* udp-acct.h — a UDP socket's memory accounting by the rules of Linux's
 * net/ipv4/udp.c and net/core/sock.c (the forward allocation on enqueue, udp_rmem_release
 * on dequeue), for the tests that follow the pages a socket charges and releases
 * (test-udp_rx.c, test-memcontrol.c). */
#pragma once
#include <glib.h>

#define ACCT_PAGE     4096       /* PAGE_SIZE, SK_MEM_QUANTUM */
#define ACCT_RESERVE  256        /* net.core.mem_pcpu_rsv: SK_MEMORY_PCPU_RESERVE pages */

/* The kernel's socket memory state of a UDP socket, kept by the rules below. */
typedef struct {
  gint  rmem;                    /* sk_rmem_alloc */
  gint  fwd;                     /* sk_forward_alloc */
  gint  deficit;                 /* udp_sk(sk)->forward_deficit */
  gint  pages;                   /* pages charged to udp_prot.memory_allocated */
  gint  reserve[2];              /* v6.0+: of those, in the per-CPU reserve of the enqueueing
                                    CPU [0] and of the reading CPU [1] */
  gint  global;                  /* the rest, in the global counter itself */
  guint receive_q;               /* sk_receive_queue length */
  guint reader_q;                /* reader_queue length */
} Acct;

/* sk_memory_allocated_add(sk, pages) on the CPU of side (0 enqueue, 1 read): from v6.0
 * ("net: implement per-cpu reserves for memory_allocated") into that CPU's reserve, which
 * goes to the global counter whole once it reaches +-ACCT_RESERVE pages; before, straight
 * onto the global counter. */
static inline void
acct_charge (Acct *a, guint side, gint pages, guint version)
{
  gint local = a->reserve[side] + pages;

  a->pages += pages;
  if (version < 6000) {
    a->global += pages;
    return;
  }
  if (local >= ACCT_RESERVE || local <= -ACCT_RESERVE) {
    a->global += local;
    local = 0;
  }
  a->reserve[side] = local;
}

/* __udp_enqueue_schedule_skb charging an admitted skb of truesize size on kernel version
 * (major * 1000 + minor): rmem += size; from v6.4 udp_rmem_schedule (net/ipv4/udp.c, "udp:
 * introduce __sk_mem_schedule() usage") raises a positive shortfall size - forward_alloc by
 * __sk_mem_schedule (net/core/sock.c: sk_mem_pages(shortfall) pages onto forward_alloc and
 * the charge); before, when size >= sk_forward_alloc, __sk_mem_raise_allocated of
 * sk_mem_pages(size) pages; then forward_alloc -= size; the tail of sk_receive_queue. */
static inline void
acct_enqueue (Acct *a, gint size, guint version)
{
  gint need = version >= 6004 ? size - a->fwd : size >= a->fwd ? size : 0;

  a->rmem += size;
  if (need > 0) {
    gint amt = (need + ACCT_PAGE - 1) / ACCT_PAGE;
    acct_charge (a, 0, amt, version);
    a->fwd += amt * ACCT_PAGE;
  }
  a->fwd -= size;
  a->receive_q++;
}

/* __skb_recv_udp taking one skb of truesize size: from reader_queue, which is first
 * refilled by splicing sk_receive_queue when empty; then udp_rmem_release(sk, size, 1, ..):
 * forward_deficit += size; nothing more while it is below forward_threshold and
 * reader_queue is not empty; else the deficit goes back to forward_alloc, all of it but
 * the last page ((fwd - partial) & ~(PAGE_SIZE - 1)) to __sk_mem_reduce_allocated, rmem
 * drops by the deficit, and sk_receive_queue is spliced into reader_queue (on kernel
 * version, as acct_enqueue's). */
static inline void
acct_dequeue (Acct *a, gint size, gint threshold, guint version)
{
  gint amt;

  if (a->reader_q == 0) {
    a->reader_q = a->receive_q;
    a->receive_q = 0;
  }
  a->reader_q--;
  a->deficit += size;
  if (a->deficit < threshold && a->reader_q > 0)
    return;
  a->fwd += a->deficit;
  amt = (a->fwd - 1) & ~(ACCT_PAGE - 1);
  a->fwd -= amt;
  acct_charge (a, 1, -(amt / ACCT_PAGE), version);
  a->rmem -= a->deficit;
  a->deficit = 0;
  a->reader_q += a->receive_q;
  a->receive_q = 0;
}
