/* test-udp_rx.c — the UDP receive path (models/net/udp_rx.c) against the rules of Linux
 * v6.9's net/ipv4/udp.c, with datagrams sent over loopback by the model's write(2):
 *  - __udp_enqueue_schedule_skb drops a datagram exactly when sk_rmem_alloc already exceeds
 *    sk_rcvbuf before its charge (so a first datagram always gets in) or when the charged
 *    total exceeds truesize + (unsigned int) sk_rcvbuf; a drop counts sk_drops and, in
 *    __udp_queue_rcv_skb, UDP_MIB_RCVBUFERRORS and UDP_MIB_INERRORS, and frees the skb;
 *    an admitted datagram meeting sk_rmem_alloc above sk_rcvbuf >> 1 goes through
 *    skb_condense and takes the socket's busylock, one at or below half neither;
 *  - the forward allocation in pages (sk_mem_pages) on enqueue, udp_rmem_release's batched
 *    release (partial = 1: forward_deficit held below forward_threshold = sk_rcvbuf >> 2
 *    while reader_queue has more, one page kept), the splice of sk_receive_queue into
 *    reader_queue; sk_rmem_alloc back at 0 once everything is read; a release that is
 *    not deferred, made by a read from a non-empty reader_queue (outside the splice,
 *    rx_queue_lock_held false), takes sk_receive_queue's lock itself;
 *  - datagrams come out in arrival order across the splices, each read returns one
 *    datagram (known by its length: the model moves no payload bytes); a short buffer
 *    gets len bytes and the rest of the datagram is discarded (udp_recvmsg: copied =
 *    min(len, ulen); read(2) passes no MSG_TRUNC flag, so it returns the bytes copied);
 *  - sock_def_readable wakes a reader blocked in __skb_wait_for_more_packets; an empty
 *    O_NONBLOCK socket gives -EAGAIN;
 *  - net/socket.c sock_read_iter: a read of length 0 returns 0 before sock_recvmsg
 *    (if (!iov_iter_count(to)) return 0, "Match SYS5 behaviour"): nothing is dequeued,
 *    an empty socket neither blocks nor gives -EAGAIN.
 * The expected values are computed here from those rules (the truesize of a datagram from
 * __ip_append_data's allocation and __alloc_skb's rounding), never read from the model.
 *  - the version switches of the path (sim/kchange.c): the pages of the memory accounting
 *    in per-CPU reserves from v6.0 (in the global counter before), udp_rmem_schedule from
 *    v6.4, the wake-up as a direct call from v6.6 (indirect before), and no wake-up for a
 *    datagram queued behind others from v6.10 until the revert (v6.13-rc2, 6.12.5), and
 *    the admission rule's later forms (5a465a0da13e: v6.15-rc1, 6.12.23; 9aaec660b5be:
 *    v6.18-rc1) and v6.10's plain atomic_add (6a1f12dd85a8), whose sk_rmem_alloc can wrap.
 * The first admission rule holds from v5.5 (the unsigned cast) to the release before
 * 5a465a0da13e, so its test also runs builds 5.10 and 6.1 (the stack models v5.0 and
 * later). */
#include "config.h"
#include <errno.h>
#include "udp-pair-rig.h"
#include "kernel-sizes.h"
#include "udp-acct.h"

#define BIG           8920       /* iperf3's datagram */
#define UBUF          9216       /* each user buffer */
#define PAGE          4096       /* PAGE_SIZE, SK_MEM_QUANTUM */
/* UDP_MIB_* words of struct udp_mib (include/uapi/linux/snmp.h's enum, UDP_MIB_NUM = 0
 * first), where the model's per-CPU udp_mib keeps them too. */
#define MIB_INDATAGRAMS 1
#define MIB_INERRORS    3
#define MIB_RCVBUFERRORS 5

/* skb->truesize of an len-byte datagram sent over lo (kernel-sizes.h: __ip_append_data's
 * or __ip6_append_data's allocation, __alloc_skb's rounding, SKB_TRUESIZE). The UDP layer
 * never changes it for a linear skb (skb_condense recomputes the same value). */
static gint
datagram_truesize (gint family, guint len)
{
  return (gint) kernel_udp_truesize (family, len, TRUE);
}

/* The admission rules of __udp_enqueue_schedule_skb, by release. */
typedef enum {
  ADMIT_V55,    /* v5.5 to the releases before 5a465a0da13e */
  ADMIT_V615,   /* 5a465a0da13e: v6.15-rc1, 6.14.2, 6.13.11, 6.12.23 */
  ADMIT_V618,   /* 9aaec660b5be: v6.18-rc1 */
} AdmitRule;

/* Whether rule admits a datagram of truesize size meeting rmem bytes already charged.
 * v5.5: no drop when rmem <= sk_rcvbuf ("always allow at least a packet"), then none when
 * the charged total stays within size + (unsigned int) sk_rcvbuf (an unsigned comparison
 * since v5.5; v6.10 dropped that second test, which one producer never trips). v6.15:
 * unsigned; rmem + size within sk_rcvbuf admits; past it a buffer above INT_MAX >> 1
 * drops and a smaller one drops when rmem > sk_rcvbuf. v6.18: the smaller one drops when
 * anything is charged. */
static gboolean
kernel_admits (AdmitRule rule, gint rmem, gint rcvbuf, gint size)
{
  guint r = (guint) rmem, b = (guint) rcvbuf;

  if (rule == ADMIT_V55)
    return rmem <= rcvbuf && r + (guint) size <= (guint) size + b;
  if (r + (guint) size <= b)
    return TRUE;
  if (b > (guint) (G_MAXINT >> 1))
    return FALSE;
  return rule == ADMIT_V618 ? r == 0 : r <= b;
}

/* ---- the receive-buffer limit ---- */

typedef struct {
  const char *version;
  gint        rcvbuf_truesizes_x4;   /* sk_rcvbuf in quarters of a truesize (0: default) */
  gint        rcvbuf_delta;          /* added to it */
  AdmitRule   rule;
} AdmitCase;

static const AdmitCase admit_cases[] = {
  { "6.9.0", 8, 0, ADMIT_V55 },     /* exactly 2 truesizes: rmem == rcvbuf still admits */
  { "6.9.0", 8, -1, ADMIT_V55 },    /* one byte less: the third is dropped */
  { "6.9.0", 2, 0, ADMIT_V55 },     /* below one truesize: the first alone gets in */
  { "6.9.0", 0, 0, ADMIT_V55 },     /* net.core.rmem_default */
  { "6.1.0", 8, 0, ADMIT_V55 },
  { "5.10.0", 8, -1, ADMIT_V55 },
  { "6.12.22", 6, 0, ADMIT_V55 },   /* 1.5 truesizes: the second overshoots */
  { "6.12.23", 6, 0, ADMIT_V615 },  /* the same: rmem <= rcvbuf still lets one over */
  { "6.15.0", 8, -1, ADMIT_V615 },
  { "6.15.0", 8, 0, ADMIT_V615 },   /* exactly 2 truesizes: rmem == rcvbuf lets a third in */
  { "6.18.0", 6, 0, ADMIT_V618 },   /* 1.5 truesizes: the second is refused */
  { "6.18.0", 8, 0, ADMIT_V618 },   /* exactly 2 truesizes: both fit, the third refused */
  { "6.18.0", 2, 0, ADMIT_V618 },   /* below one truesize: the first alone gets in */
};

/* Nobody reads: every datagram is admitted or dropped exactly as the kernel's rule says
 * for the sk_rmem_alloc it meets; a drop counts sk_drops, UDP_MIB_RCVBUFERRORS and
 * UDP_MIB_INERRORS once each and frees the skb; an admitted one charges its truesize. */
static void
check_admission (const AdmitCase *c, gint family)
{
  const gint size = datagram_truesize (family, BIG);
  struct softnet_data *sd;
  guint admitted = 0, dropped = 0;
  struct sock *sk;
  gint rcvbuf;
  Rig rig;

  rcvbuf = c->rcvbuf_truesizes_x4 == 0 ? 0
                                     : c->rcvbuf_truesizes_x4 * size / 4 + c->rcvbuf_delta;
  rig_init (&rig, c->version, family, (guint) rcvbuf);
  sk = ns_file_sock (rig.server);
  rcvbuf = sk->sk_rcvbuf;
  sd = ns_netstack_sd (rig.s.stack, SENDER_CPU);
  for (guint k = 0; k < 20; k++) {
    gint rmem = sk->sk_rmem_alloc;
    gboolean admit = kernel_admits (c->rule, rmem, rcvbuf, size);
    send_datagram (&rig, BIG);
    admitted += admit;
    dropped += !admit;
    ck_assert_msg (sk->sk_rmem_alloc == rmem + (admit ? size : 0),
                   "%s rcvbuf %d datagram %u: rmem %d -> %d, kernel: %s", c->version, rcvbuf,
                   k, rmem, sk->sk_rmem_alloc, admit ? "admit" : "drop");
    ck_assert_int_eq (sk->sk_drops, dropped);
    ck_assert_uint_eq (sk->sk_receive_queue.qlen, admitted);
  }
  ck_assert_uint_gt (dropped, 0);
  ck_assert_uint_eq (sd->udp_mib[MIB_RCVBUFERRORS], dropped);
  ck_assert_uint_eq (sd->udp_mib[MIB_INERRORS], dropped);
  ck_assert_uint_eq (rig.s.stack->counters.rcvbuf_drops, dropped);
  ck_assert_uint_eq (rig.s.stack->counters.enqueued, admitted);
  ck_assert_uint_eq (ns_skb_alloc_live (rig.s.stack->alloc, NULL), admitted);
  rig_clear (&rig);
}

START_TEST (test_rcvbuf_admission_v4)
{
  check_admission (&admit_cases[_i], AF_INET);
}
END_TEST

START_TEST (test_rcvbuf_admission_v6)
{
  check_admission (&admit_cases[_i], AF_INET6);
}
END_TEST

/* SO_RCVBUFFORCE's largest sk_rcvbuf (2 * (INT_MAX / 2)): truesize + sk_rcvbuf does not
 * fit an int, and the kernel compares it as unsigned (v5.5's "fix integer overflow while
 * computing available space in sk_rcvbuf"), so nothing is dropped. */
START_TEST (test_rcvbuf_near_int_max)
{
  const gint size = datagram_truesize (AF_INET, BIG);
  struct sock *sk;
  Rig rig;

  rig_init (&rig, "6.9.0", AF_INET, G_MAXINT / 2 * 2);
  sk = ns_file_sock (rig.server);
  for (guint k = 0; k < 4; k++)
    send_datagram (&rig, BIG);
  ck_assert_int_eq (sk->sk_drops, 0);
  ck_assert_int_eq (sk->sk_rmem_alloc, 4 * size);
  ck_assert_uint_eq (sk->sk_receive_queue.qlen, 4);
  rig_clear (&rig);
}
END_TEST

/* The same buffer with rmem already half a truesize below it (charged here by hand): v6.9
 * admits (rmem <= sk_rcvbuf, and the unsigned total stays within size + sk_rcvbuf) and
 * 6.12.22 too (a plain atomic_add, 6a1f12dd85a8), and in both sk_rmem_alloc wraps
 * negative, the bug 5a465a0da13e fixed: from 6.12.23 rmem + size over a buffer above
 * INT_MAX >> 1 is dropped. */
START_TEST (test_rcvbuf_wraparound_by_release)
{
  static const struct { const char *version; gboolean admit, wraps; } cases[] = {
    { "6.9.0", TRUE, TRUE }, { "6.12.22", TRUE, TRUE }, { "6.12.23", FALSE, FALSE },
    { "6.15.0", FALSE, FALSE },
  };
  const gint size = datagram_truesize (AF_INET, BIG);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    struct sock *sk;
    gint pre;
    Rig rig;

    rig_init (&rig, cases[i].version, AF_INET, G_MAXINT / 2 * 2);
    sk = ns_file_sock (rig.server);
    pre = sk->sk_rcvbuf - size / 2;
    sk->sk_rmem_alloc = pre;
    send_datagram (&rig, BIG);
    ck_assert_msg (sk->sk_drops == (cases[i].admit ? 0 : 1), "%s", cases[i].version);
    ck_assert_msg ((sk->sk_rmem_alloc < 0) == cases[i].wraps, "%s: rmem %d",
                   cases[i].version, sk->sk_rmem_alloc);
    ck_assert_msg ((guint) sk->sk_rmem_alloc == (guint) pre + (cases[i].admit ? (guint) size : 0),
                   "%s", cases[i].version);
    sk->sk_rmem_alloc = (gint) ((guint) sk->sk_rmem_alloc - (guint) pre);
    rig_clear (&rig);
  }
}
END_TEST

/* ---- the busylock ---- */

/* Plain spin-lock acquisitions (_raw_spin_lock) and skb_condense calls one datagram's
 * write and receive softirq make. */
static void
send_counting (Rig *rig, guint len, guint64 *locks, guint64 *condenses)
{
  guint64 l0 = stack_rig_calls (&rig->s, "_raw_spin_lock");
  guint64 c0 = stack_rig_calls (&rig->s, "skb_condense");

  send_datagram (rig, len);
  *locks = stack_rig_calls (&rig->s, "_raw_spin_lock") - l0;
  *condenses = stack_rig_calls (&rig->s, "skb_condense") - c0;
}

/* v6.9 __udp_enqueue_schedule_skb: a datagram admitted while sk_rmem_alloc is above
 * sk_rcvbuf >> 1 first goes through skb_condense (a linear skb keeps its truesize) and
 * takes the socket's busylock (spin_lock, released after sk_data_ready); at or below half
 * neither, nor for a datagram dropped by the rmem > sk_rcvbuf test, which comes first.
 * With sk_rcvbuf = 8 truesizes, datagrams 0-4 meet rmem 0 .. 4 truesizes (not above
 * half), 5-8 meet 5 .. 8 (above half, within the buffer), 9 meets 9 (dropped). Each
 * datagram's write and softirq take the same plain locks otherwise (datagram 0 aside,
 * which meets cold sockets). */
START_TEST (test_busylock_above_half_rcvbuf)
{
  const gint size = datagram_truesize (AF_INET, 1000);
  guint64 base = 0, locks, condenses;
  struct sock *sk;
  Rig rig;

  rig_init (&rig, "6.9.0", AF_INET, (guint) (8 * size));
  sk = ns_file_sock (rig.server);
  ck_assert_int_eq (sk->sk_rcvbuf, 8 * size);
  for (guint k = 0; k < 10; k++) {
    gint rmem = sk->sk_rmem_alloc;
    gboolean drop = rmem > sk->sk_rcvbuf;
    gboolean busy = !drop && rmem > (sk->sk_rcvbuf >> 1);
    send_counting (&rig, 1000, &locks, &condenses);
    ck_assert_int_eq (sk->sk_rmem_alloc, rmem + (drop ? 0 : size));
    ck_assert_int_eq (sk->sk_drops, drop);
    ck_assert_msg (condenses == (guint64) busy, "datagram %u (rmem %d, rcvbuf %d): %" G_GUINT64_FORMAT
                   " skb_condense", k, rmem, sk->sk_rcvbuf, condenses);
    if (k == 1)
      base = locks;
    if (k >= 1 && !drop)
      ck_assert_msg (locks == base + (guint64) busy, "datagram %u (rmem %d, rcvbuf %d): %"
                     G_GUINT64_FORMAT " plain locks, %" G_GUINT64_FORMAT " below half",
                     k, rmem, sk->sk_rcvbuf, locks, base);
  }
  ck_assert_int_eq (sk->sk_drops, 1);
  ck_assert_uint_eq (sk->sk_receive_queue.qlen, 9);
  rig_clear (&rig);
}
END_TEST

/* ---- memory accounting ---- */

/* The socket's memory state equals the kernel's a, at step `what`: rmem, forward_alloc,
 * deficit, both queues, and the pages charged, in the sender's and the reader's per-CPU
 * reserves (v6.0+, net/core/sock.c, "net: implement per-cpu reserves for
 * memory_allocated") and in udp_prot.memory_allocated itself. */
static void
expect_acct (Rig *rig, const Acct *a, const char *what, guint k)
{
  struct sock *sk = ns_file_sock (rig->server);
  gint64 global = *rig->s.stack->udp_memory_allocated;
  gint64 pcpu[2] = {
    (gint64) ns_netstack_sd (rig->s.stack, SENDER_CPU)->sk_memory_fw_alloc,
    (gint64) ns_netstack_sd (rig->s.stack, READER_CPU)->sk_memory_fw_alloc,
  };

  ck_assert_msg (sk->sk_rmem_alloc == a->rmem, "%s %u: rmem %d, kernel %d", what, k,
                 sk->sk_rmem_alloc, a->rmem);
  ck_assert_msg (sk->sk_forward_alloc == a->fwd, "%s %u: forward_alloc %d, kernel %d", what,
                 k, sk->sk_forward_alloc, a->fwd);
  ck_assert_msg (udp_sk (sk)->forward_deficit == a->deficit, "%s %u: deficit %d, kernel %d",
                 what, k, udp_sk (sk)->forward_deficit, a->deficit);
  ck_assert_msg (global == a->global && pcpu[0] == a->reserve[0] && pcpu[1] == a->reserve[1],
                 "%s %u: pages %" G_GINT64_FORMAT " global, %" G_GINT64_FORMAT " and %"
                 G_GINT64_FORMAT " per-CPU; kernel %d, %d and %d", what, k, global, pcpu[0],
                 pcpu[1], a->global, a->reserve[0], a->reserve[1]);
  ck_assert_uint_eq (sk->sk_receive_queue.qlen, a->receive_q);
  ck_assert_uint_eq (udp_sk (sk)->reader_queue.qlen, a->reader_q);
}

typedef struct {
  const char *kernel;            /* kernel version */
  guint version;                 /* the same as major * 1000 + minor */
  gint  rcvbuf;                  /* 0: net.core.rmem_default */
  guint len;                     /* datagram length */
  guint first;                   /* datagrams sent first */
  guint reads_between;           /* then read */
  guint second;                  /* then sent, before reading everything */
} AcctCase;

static const AcctCase acct_cases[] = {
  /* threshold 53248: three 16640-byte skbs are held back */
  { "6.9.0", 6009, 0, BIG, 10, 0, 0 },
  /* 2304-byte skbs, pages raised every other one */
  { "6.9.0", 6009, 0, 1400, 30, 0, 10 },
  /* threshold = one truesize: every read releases and splices what arrived meanwhile */
  { "6.9.0", 6009, 4 * 16640, BIG, 3, 1, 2 },
  /* the deficit held across new arrivals */
  { "6.9.0", 6009, 0, BIG, 3, 1, 5 },
  /* before udp_rmem_schedule: the whole truesize's pages on each raise */
  { "6.1.0", 6001, 0, BIG, 10, 0, 0 },
  { "6.1.0", 6001, 0, BIG, 3, 1, 5 },
  /* 100 datagrams into 4 MiB less 64 KiB: the sender's reserve reaches 256 pages and goes
   * to the global counter; the reader's first release (at the threshold, a quarter of
   * the buffer) is exactly 256 pages and goes too */
  { "6.9.0", 6009, (4 << 20) - (64 << 10), BIG, 100, 0, 0 },
  /* before the per-CPU reserves: every raise and release on the global counter */
  { "5.10.0", 5010, 0, BIG, 10, 0, 0 },
  { "5.10.0", 5010, 0, BIG, 3, 1, 5 },
};

/* Sends n datagrams of c's length, each admitted, following them in a. */
static void
acct_send (Rig *rig, const AcctCase *c, Acct *a, gint size, guint n)
{
  struct sock *sk = ns_file_sock (rig->server);

  for (guint k = 0; k < n; k++) {
    ck_assert (kernel_admits (ADMIT_V55, a->rmem, sk->sk_rcvbuf, size));
    send_datagram (rig, c->len);
    acct_enqueue (a, size, c->version);
    expect_acct (rig, a, "enqueue", k);
  }
}

/* Reads n datagrams of c's length, following them in a. */
static void
acct_read (Rig *rig, const AcctCase *c, Acct *a, gint size, guint n)
{
  struct sock *sk = ns_file_sock (rig->server);

  for (guint k = 0; k < n; k++) {
    ck_assert_int_eq (read_datagram (rig, UBUF), c->len);
    acct_dequeue (a, size, sk->sk_rcvbuf >> 2, c->version);
    expect_acct (rig, a, "read", k);
  }
}

/* After each enqueue and each read the socket's rmem, forward_alloc, forward_deficit,
 * pages and both queues are the kernel's; once all is read rmem is 0 and one page of
 * forward allocation is kept (udp_rmem_release's partial = 1). */
START_TEST (test_memory_accounting)
{
  const AcctCase *c = &acct_cases[_i];
  const gint size = datagram_truesize (AF_INET, c->len);
  Acct a = { 0 };
  struct sock *sk;
  Rig rig;

  rig_init (&rig, c->kernel, AF_INET, (guint) c->rcvbuf);
  sk = ns_file_sock (rig.server);
  acct_send (&rig, c, &a, size, c->first);
  acct_read (&rig, c, &a, size, c->reads_between);
  acct_send (&rig, c, &a, size, c->second);
  acct_read (&rig, c, &a, size, c->first + c->second - c->reads_between);
  ck_assert_int_eq (sk->sk_rmem_alloc, 0);
  ck_assert_int_eq (sk->sk_forward_alloc, PAGE);
  ck_assert_uint_eq (ns_skb_alloc_live (rig.s.stack->alloc, NULL), 0);
  rig_clear (&rig);
}
END_TEST

/* ---- the release outside the splice ---- */

/* Plain spin-lock acquisitions (_raw_spin_lock) one read of a datagram of len bytes
 * makes. */
static guint64
read_counting (Rig *rig, guint len)
{
  guint64 l0 = stack_rig_calls (&rig->s, "_raw_spin_lock");

  ck_assert_int_eq (read_datagram (rig, UBUF), len);
  return stack_rig_calls (&rig->s, "_raw_spin_lock") - l0;
}

/* v6.9 __skb_recv_udp takes a datagram off a non-empty reader_queue under that queue's
 * own lock (spin_lock_bh) and releases its memory with udp_rmem_release(sk, size, 1,
 * false): the release is deferred while the deficit stays below forward_threshold and
 * reader_queue holds more (no other lock), but once the read empties reader_queue it
 * returns the memory and splices sk_receive_queue into reader_queue under
 * sk_receive_queue's lock, which it takes itself (spin_lock, the plain lock). Three
 * datagrams: the first read splices them (under both locks, the release deferred), the
 * second leaves one behind (deferred: no plain lock), a fourth datagram arrives on
 * sk_receive_queue, the third read empties reader_queue (a plain lock, and the fourth
 * datagram spliced across); the fourth read is again taken from reader_queue and leaves
 * it empty. */
START_TEST (test_release_takes_receive_queue_lock)
{
  const gint size = datagram_truesize (AF_INET, 1000);
  struct sock *sk;
  Rig rig;

  rig_init (&rig, "6.9.0", AF_INET, 0);
  sk = ns_file_sock (rig.server);
  ck_assert_int_lt (3 * size, sk->sk_rcvbuf >> 2);   /* every release below is by an empty
                                                        reader_queue, none by the threshold */
  for (guint k = 0; k < 3; k++)
    send_datagram (&rig, 1000);
  ck_assert_uint_eq (read_counting (&rig, 1000), 1);             /* the splice */
  ck_assert_uint_eq (udp_sk (sk)->reader_queue.qlen, 2);
  ck_assert_uint_eq (read_counting (&rig, 1000), 0);             /* deferred */
  ck_assert_int_eq (udp_sk (sk)->forward_deficit, 2 * size);
  send_datagram (&rig, 1000);
  ck_assert_uint_eq (sk->sk_receive_queue.qlen, 1);
  ck_assert_uint_eq (read_counting (&rig, 1000), 1);             /* the release's own lock */
  ck_assert_int_eq (udp_sk (sk)->forward_deficit, 0);
  ck_assert_int_eq (sk->sk_rmem_alloc, size);
  ck_assert_uint_eq (sk->sk_receive_queue.qlen, 0);
  ck_assert_uint_eq (udp_sk (sk)->reader_queue.qlen, 1);
  ck_assert_uint_eq (read_counting (&rig, 1000), 1);
  ck_assert_int_eq (sk->sk_rmem_alloc, 0);
  ck_assert_uint_eq (udp_sk (sk)->reader_queue.qlen, 0);
  rig_clear (&rig);
}
END_TEST

/* ---- the wake-up call ---- */

/* __udp_enqueue_schedule_skb wakes the reader through sk->sk_data_ready: since v6.6-rc1
 * (0558e1674598, no stable took it) as INDIRECT_CALL_1(..., sock_def_readable, ...), a
 * compare and a direct call; before it an indirect call (a retpoline where they are on).
 * The read's dispatch differs by release too (x64_sys_call from 6.9-rc4 and 6.1.85,
 * test-netstack.c), so each pair compared has the same: 6.1.85 and 6.9 dispatch through
 * x64_sys_call, 6.1.0, 6.5.13, 6.6.0 and 6.9-rc1 through sys_call_table. Nothing else on
 * the path differs. */
START_TEST (test_data_ready_indirect_before_6_6)
{
  guint64 v69 = rig_icalls_per_datagram ("6.9.0", AF_INET, NULL);
  guint64 v69rc1 = rig_icalls_per_datagram ("6.9.0-rc1", AF_INET, NULL);

  ck_assert_uint_eq (rig_icalls_per_datagram ("6.1.85", AF_INET, NULL), v69 + 1);
  ck_assert_uint_eq (rig_icalls_per_datagram ("6.1.0", AF_INET, NULL), v69rc1 + 1);
  ck_assert_uint_eq (rig_icalls_per_datagram ("6.5.13", AF_INET, NULL), v69rc1 + 1);
  ck_assert_uint_eq (rig_icalls_per_datagram ("6.6.0", AF_INET, NULL), v69rc1);
}
END_TEST

/* Datagrams sent to a socket nobody reads on release: how many enqueues woke it
 * (sock_def_readable) and how many skipped the wake-up. */
static void
wakeups_of_three (const char *release, guint64 *woke, guint64 *skipped)
{
  Rig rig;

  rig_init (&rig, release, AF_INET, 0);
  ns_machine_account_reset (rig.s.machine);
  for (guint i = 0; i < 3; i++)
    send_datagram (&rig, 1000);
  *woke = ns_machine_account_calls (rig.s.machine, &udp_fn_sock_def_readable, NULL);
  *skipped = rig.s.stack->counters.data_ready_skipped;
  ck_assert_uint_eq (ns_file_sock (rig.server)->sk_receive_queue.qlen, 3);
  rig_clear (&rig);
}

/* 612b1c0dec5b (v6.10-rc1) calls sk_data_ready only for a datagram that makes the queue
 * readable (it was empty), on a socket with the default sk_data_ready and no SO_PEEK_OFF;
 * its revert (3d501f562f63: v6.13-rc2, 6.12.5) wakes for every datagram again. Three
 * datagrams nobody reads: one wake-up and two skipped between the two, three before and
 * after. */
START_TEST (test_data_ready_skipped_behind_others)
{
  static const struct { const char *release; guint64 woke, skipped; } cases[] = {
    { "6.9.0", 3, 0 }, { "6.10.0-rc1", 1, 2 }, { "6.11.11", 1, 2 }, { "6.12.4", 1, 2 },
    { "6.12.5", 3, 0 }, { "6.13.0-rc1", 1, 2 }, { "6.13.0-rc2", 3, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    guint64 woke, skipped;

    wakeups_of_three (cases[i].release, &woke, &skipped);
    ck_assert_msg (woke == cases[i].woke && skipped == cases[i].skipped,
                   "%s: %" G_GUINT64_FORMAT " wake-ups, %" G_GUINT64_FORMAT " skipped",
                   cases[i].release, woke, skipped);
  }
}
END_TEST

/* ---- delivery order, truncation, wake-up ---- */

/* Datagrams of distinct lengths come out one per read in the order sent (the model moves
 * no payload bytes, so a datagram is known by its length), also when some arrive after the
 * first read spliced the others onto reader_queue; each read counts UDP_MIB_INDATAGRAMS on
 * the reader's CPU and the bytes it returned. */
static void
check_fifo (gint family)
{
  const guint lens[] = { 1000, 3000, 200, 8000, 1, 4500 };
  guint64 bytes = 0;
  struct sock *sk;
  Rig rig;

  rig_init (&rig, "6.9.0", family, 0);
  sk = ns_file_sock (rig.server);
  for (guint k = 0; k < 3; k++)
    send_datagram (&rig, lens[k]);
  ck_assert_int_eq (read_datagram (&rig, UBUF), lens[0]);
  for (guint k = 3; k < G_N_ELEMENTS (lens); k++)
    send_datagram (&rig, lens[k]);
  ck_assert_uint_eq (udp_sk (sk)->reader_queue.qlen, 2);
  ck_assert_uint_eq (sk->sk_receive_queue.qlen, 3);
  for (guint k = 1; k < G_N_ELEMENTS (lens); k++) {
    ck_assert_msg (read_datagram (&rig, UBUF) == lens[k], "datagram %u out of order", k);
    if (k == 2) {                /* reader_queue emptied: udp_rmem_release spliced */
      ck_assert_uint_eq (udp_sk (sk)->reader_queue.qlen, 3);
      ck_assert_uint_eq (sk->sk_receive_queue.qlen, 0);
    }
  }
  for (guint k = 0; k < G_N_ELEMENTS (lens); k++)
    bytes += lens[k];
  ck_assert_uint_eq (ns_netstack_sd (rig.s.stack, READER_CPU)->udp_mib[MIB_INDATAGRAMS],
                     G_N_ELEMENTS (lens));
  ck_assert_uint_eq (rig.s.stack->counters.received, G_N_ELEMENTS (lens));
  ck_assert_uint_eq (rig.s.stack->counters.received_bytes, bytes);
  ck_assert_int_eq (sk->sk_rmem_alloc, 0);
  rig_clear (&rig);
}

START_TEST (test_fifo_v4)
{
  check_fifo (AF_INET);
}
END_TEST

START_TEST (test_fifo_v6)
{
  check_fifo (AF_INET6);
}
END_TEST

/* A read shorter than the datagram returns len (udp_recvmsg: copied = min(len, ulen);
 * read(2) has no MSG_TRUNC flag asking for the full length) and consumes the whole
 * datagram: the next read gets the next one, and the first one's whole truesize is
 * released. A longer buffer gets the datagram's length. */
START_TEST (test_short_read_truncates)
{
  struct sock *sk;
  Rig rig;

  rig_init (&rig, "6.9.0", AF_INET, 0);
  sk = ns_file_sock (rig.server);
  send_datagram (&rig, 1000);
  send_datagram (&rig, 500);
  ck_assert_int_eq (read_datagram (&rig, 100), 100);
  ck_assert_uint_eq (rig.s.stack->counters.received_bytes, 100);
  ck_assert_int_eq (read_datagram (&rig, UBUF), 500);
  ck_assert_uint_eq (rig.s.stack->counters.received_bytes, 100 + 500);
  ck_assert_int_eq (sk->sk_rmem_alloc, 0);
  ck_assert_uint_eq (sk->sk_receive_queue.qlen + udp_sk (sk)->reader_queue.qlen, 0);
  ck_assert_uint_eq (ns_skb_alloc_live (rig.s.stack->alloc, NULL), 0);
  rig_clear (&rig);
}
END_TEST

/* Body: sleep arg's picoseconds, then send one 700-byte datagram. */
static void
write_later (NsThread *t, Rig *rig, gpointer arg)
{
  ns_thread_advance_time (t, *(NsTime *) arg);
  ns_sys_write (t, rig->s.stack, rig->client, rig->txbuf, 700);
}

/* A blocking read on an empty socket sleeps until the datagram arrives: sock_def_readable
 * wakes it (receiver_wake_function), and it returns that datagram soon after it was sent. */
START_TEST (test_blocked_reader_woken)
{
  const NsTime delay = NS_US (100);
  ReadCall call = { UBUF, 0, 0 };
  Job reader, writer;
  Rig rig;

  rig_init (&rig, "6.9.0", AF_INET, 0);
  reader = (Job) { &rig, read_one, &call };
  writer = (Job) { &rig, write_later, (gpointer) &delay };
  ns_engine_spawn (rig.s.engine, "reader", READER_CPU, NS_THREAD_USER, 0, job_thread, &reader);
  ns_engine_spawn (rig.s.engine, "writer", SENDER_CPU, NS_THREAD_USER, 0, job_thread, &writer);
  ns_engine_run (rig.s.engine, NS_MS (2));
  ck_assert_int_eq (call.ret, 700);
  ck_assert_int_ge (call.returned, delay);
  ck_assert_int_lt (call.returned, delay + NS_US (50));
  ck_assert_int_eq (ns_file_sock (rig.server)->sk_rmem_alloc, 0);
  rig_clear (&rig);
}
END_TEST

/* A server-owned skb and the task wake-ups its free made (write_space_then_send). */
typedef struct {
  NsTime          free_at;
  struct sk_buff *skb;
  guint64         task_wakes;      /* default_wake_function calls during the free */
  guint           waiters_after;   /* entries on the server's queue after it */
} WfreeCall;

/* Body: charges an skb to the server socket so that sk_wmem_alloc is sndbuf / 2 - 1 plus
 * its truesize (not writable), frees it at free_at (sock_wfree: writable again, so
 * sock_def_write_space_wfree wakes the queue with EPOLLOUT | EPOLLWRNORM | EPOLLWRBAND),
 * then sends one 700-byte datagram 100 us later. */
static void
write_space_then_send (NsThread *t, Rig *rig, gpointer arg)
{
  WfreeCall *w = arg;
  struct sock *sk = ns_file_sock (rig->server);
  guint64 wakes;

  w->skb = __alloc_skb (t, rig->s.stack->alloc, 700, GFP_KERNEL);
  w->skb->sk = sk;
  w->skb->destructor = sk;          /* the model's sock_wfree */
  sk->sk_wmem_alloc = (guint32) ((sk->sk_sndbuf >> 1) - 1 + (gint) w->skb->truesize);
  ns_thread_advance_time (t, w->free_at);
  wakes = stack_rig_calls (&rig->s, "default_wake_function");
  kfree_skb (t, rig->s.stack->alloc, w->skb);
  w->task_wakes = stack_rig_calls (&rig->s, "default_wake_function") - wakes;
  w->waiters_after = ns_file_socket (rig->server)->waiters.length;
  ns_thread_advance_time (t, NS_US (100));
  ns_sys_write (t, rig->s.stack, rig->client, rig->txbuf, 700);
}

/* A reader blocked in __skb_wait_for_more_packets is not woken by the write-space wake
 * (net/core/datagram.c receiver_wake_function: a key without EPOLLIN | EPOLLERR returns
 * 0 and leaves the entry queued); the datagram sent after it wakes it. */
START_TEST (test_blocked_reader_ignores_write_space)
{
  ReadCall call = { UBUF, 0, 0 };
  WfreeCall w = { .free_at = NS_US (100) };
  Job reader, writer;
  Rig rig;

  rig_init (&rig, "6.9.0", AF_INET, 0);
  reader = (Job) { &rig, read_one, &call };
  writer = (Job) { &rig, write_space_then_send, &w };
  ns_engine_spawn (rig.s.engine, "reader", READER_CPU, NS_THREAD_USER, 0, job_thread, &reader);
  ns_engine_spawn (rig.s.engine, "writer", SENDER_CPU, NS_THREAD_USER, 0, job_thread, &writer);
  ns_engine_run (rig.s.engine, NS_MS (2));
  ck_assert_uint_eq (w.task_wakes, 0);
  ck_assert_uint_eq (w.waiters_after, 1);
  ck_assert_int_eq (call.ret, 700);
  ck_assert_int_ge (call.returned, NS_US (200));
  rig_clear (&rig);
}
END_TEST

/* read(2) on an empty O_NONBLOCK socket: __skb_recv_udp gives -EAGAIN at once. */
START_TEST (test_nonblocking_empty_read)
{
  Rig rig;

  rig_init (&rig, "6.9.0", AF_INET, 0);
  rig.server->f_flags |= 04000;   /* O_NONBLOCK */
  ck_assert_int_eq (read_datagram (&rig, UBUF), -EAGAIN);
  send_datagram (&rig, 64 * 20);
  ck_assert_int_eq (read_datagram (&rig, UBUF), 64 * 20);
  ck_assert_int_eq (read_datagram (&rig, UBUF), -EAGAIN);
  rig_clear (&rig);
}
END_TEST

/* v6.9 net/socket.c sock_read_iter returns 0 for an empty iterator before calling
 * sock_recvmsg: a zero-length read leaves a queued datagram (and its sk_rmem_alloc
 * charge) where it is, and the next full read gets it. */
START_TEST (test_zero_length_read_keeps_datagram)
{
  struct sock *sk;
  gint rmem;
  Rig rig;

  rig_init (&rig, "6.9.0", AF_INET, 0);
  sk = ns_file_sock (rig.server);
  send_datagram (&rig, 700);
  rmem = sk->sk_rmem_alloc;
  ck_assert_int_gt (rmem, 0);
  ck_assert_int_eq (read_datagram (&rig, 0), 0);
  ck_assert_uint_eq (sk->sk_receive_queue.qlen + udp_sk (sk)->reader_queue.qlen, 1);
  ck_assert_int_eq (sk->sk_rmem_alloc, rmem);
  ck_assert_uint_eq (rig.s.stack->counters.received_bytes, 0);
  ck_assert_int_eq (read_datagram (&rig, UBUF), 700);
  ck_assert_int_eq (sk->sk_rmem_alloc, 0);
  rig_clear (&rig);
}
END_TEST

/* The same check comes before any wait: on an empty socket a zero-length read returns 0
 * at once, blocking (no sleep in __skb_wait_for_more_packets) or O_NONBLOCK (no
 * -EAGAIN). */
START_TEST (test_zero_length_read_empty)
{
  ReadCall call = { 0, G_MININT, -1 };
  Rig rig;

  rig_init (&rig, "6.9.0", AF_INET, 0);
  run_on (&rig, READER_CPU, read_one, &call);
  ck_assert_int_eq (call.ret, 0);
  ck_assert_int_ge (call.returned, 0);
  rig.server->f_flags |= 04000;   /* O_NONBLOCK */
  ck_assert_int_eq (read_datagram (&rig, 0), 0);
  rig_clear (&rig);
}
END_TEST

static Suite *
udp_rx_suite (void)
{
  Suite *s = suite_create ("udp_rx");
  TCase *tc = tcase_create ("core");

  tcase_set_timeout (tc, 60);
  tcase_add_loop_test (tc, test_rcvbuf_admission_v4, 0, G_N_ELEMENTS (admit_cases));
  tcase_add_loop_test (tc, test_rcvbuf_admission_v6, 0, G_N_ELEMENTS (admit_cases));
  tcase_add_test (tc, test_rcvbuf_near_int_max);
  tcase_add_test (tc, test_rcvbuf_wraparound_by_release);
  tcase_add_test (tc, test_busylock_above_half_rcvbuf);
  tcase_add_loop_test (tc, test_memory_accounting, 0, G_N_ELEMENTS (acct_cases));
  tcase_add_test (tc, test_data_ready_indirect_before_6_6);
  tcase_add_test (tc, test_data_ready_skipped_behind_others);
  tcase_add_test (tc, test_release_takes_receive_queue_lock);
  tcase_add_test (tc, test_fifo_v4);
  tcase_add_test (tc, test_fifo_v6);
  tcase_add_test (tc, test_short_read_truncates);
  tcase_add_test (tc, test_blocked_reader_woken);
  tcase_add_test (tc, test_blocked_reader_ignores_write_space);
  tcase_add_test (tc, test_nonblocking_empty_read);
  tcase_add_test (tc, test_zero_length_read_keeps_datagram);
  tcase_add_test (tc, test_zero_length_read_empty);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (udp_rx_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
