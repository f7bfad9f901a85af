/* test-select.c — select(2) over UDP sockets (models/net/select.c: ns_sys_select,
 * core_sys_select, do_select, sock_poll / udp_poll / datagram_poll, __pollwait,
 * poll_freewait, pollwake) against the rules of Linux v6.9:
 *  - fs/select.c do_select: every fd below nfds in the read or write set is polled; an
 *    fd's bit is set in res_in when the mask has POLLIN_SET and in res_out when it has
 *    POLLOUT_SET, all other bits of the results are zero (zero_fd_set, set_fd_set); each
 *    set bit counts once in the return value, so an fd ready in both sets counts twice;
 *    fds at or above nfds are not looked at; an expired timeout returns at once without
 *    sleeping, and a zero one (the deadline passed before the call) registers nothing and
 *    estimates no slack; the first pass registers a poll-table entry on each polled
 *    socket's wait queue (__pollwait, get_file) until it finds an fd ready: from then on
 *    wait->_qproc = NULL, so the fds after the first ready one get no entry (with nothing
 *    ready, every polled socket gets one); poll_freewait removes them all
 *    (remove_wait_queue, fput) before returning, after a wake-up by net/core/sock.c
 *    sock_def_readable or at once when something was ready;
 *    with a finite timeout poll_schedule_timeout sleeps until a pollwake or the deadline:
 *    a wake-up polls again and returns what is ready before the deadline, the deadline
 *    sets timed_out and one more full pass reports what is ready then;
 *  - net/core/datagram.c datagram_poll: readable (EPOLLIN | EPOLLRDNORM) when
 *    sk_receive_queue holds a datagram; writable when include/net/sock.h sock_writeable
 *    holds: sk_wmem_alloc < sk_sndbuf >> 1;
 *  - net/ipv4/udp.c udp_poll: also readable when udp_sk(sk)->reader_queue holds a
 *    datagram (where __skb_recv_udp splices the receive queue);
 *  - net/core/sock.c sock_wfree (models/net/ip.c; run by skb_orphan in loopback_xmit or
 *    by kfree_skb of a socket-owned skb): UDP's SOCK_RCU_FREE path subtracts truesize
 *    and calls sock_def_write_space_wfree, which once sock_writeable holds wakes an
 *    active wait queue with EPOLLOUT | EPOLLWRNORM | EPOLLWRBAND: a select waiting for
 *    writability (its entry's key holds POLLOUT_SET) wakes and reports it; one waiting
 *    only to read (key POLLIN_SET) is not woken (pollwake's key test), nor is anyone
 *    while the socket stays unwritable;
 *  - fs/select.c poll_get_entry: a call registering more entries than the
 *    N_INLINE_POLL_ENTRIES (9) inside poll_wqueues takes a page (__get_free_page) for
 *    each 63 entries past them, and poll_freewait gives each back (free_page) before the
 *    call returns.
 * test-udp-path.c already checks the wake-up on a datagram returning that socket alone,
 * the timeout at its deadline and idle sockets writable at once; not repeated here. The
 * model's interface passes files and per-file events, not fd_set bitmaps nor nfds as an
 * int, and an absolute deadline, not a timeval: -EINVAL for a negative nfds or an invalid
 * timeval and the timeval's rounding are not modelled, so not tested. Expected values are
 * the kernel's, computed here, never read back from the model. */
#include "config.h"

#include <math.h>
#include <errno.h>
#include <arpa/inet.h>
#include "stack-rig.h"
#include "select.h"
#include "udp_rx.h"
#include "udp_tx.h"

#define N_PAIRS     4
#define PORT        5401
#define LEN         1000
#define WRITER_CPU  0
#define SELECT_CPU  1
#define UNSET       0xdeadu        /* revents before the select: must be overwritten */

typedef struct {
  StackRig      s;
  struct file  *client[N_PAIRS];   /* connected to server[i] */
  struct file  *server[N_PAIRS];   /* bound to 127.0.0.1:PORT+i, O_NONBLOCK */
  guchar       *buf;
} Rig;

/* One select call and what it returned. */
/* Room for descriptors up to three bitmap words (test_descriptor_holes). */
#define SEL_FDS 192

typedef struct {
  Rig          *rig;
  struct file  *files[SEL_FDS];   /* by descriptor; NULL: in no set */
  guint32       events[SEL_FDS];
  guint32       revents[SEL_FDS];
  guint         n;
  NsTime        until;
  gint          ret;
  gboolean      done;              /* select returned */
  NsTime        returned;
  NsTime        slept;
} Sel;

/* 127.0.0.1:port into ss; its length. */
static gint
loopback4 (struct sockaddr_storage *ss, guint16 port)
{
  struct sockaddr_in *in = (struct sockaddr_in *) ss;

  memset (ss, 0, sizeof *ss);
  in->sin_family = AF_INET;
  in->sin_port = htons (port);
  in->sin_addr.s_addr = htonl (0x7f000001);
  return sizeof *in;
}

/* A v6.9 machine with N_PAIRS IPv4 client → server pairs, the writer's CPU started. */
static void
rig_init (Rig *r)
{
  struct sockaddr_storage ss;

  memset (r, 0, sizeof *r);
  stack_rig_init (&r->s, "6.9.0-rc1", NULL, NULL, NULL);
  for (guint i = 0; i < N_PAIRS; i++) {
    gint len = loopback4 (&ss, PORT + i);
    r->server[i] = ns_netstack_socket (r->s.stack, AF_INET, TRUE);
    ck_assert_int_eq (udp_sock_bind (ns_file_sock (r->server[i]), (struct sockaddr *) &ss,
                                     len), 0);
    r->client[i] = ns_netstack_socket (r->s.stack, AF_INET, FALSE);
    ck_assert_int_eq (ns_netstack_connect (r->s.stack, r->client[i], (struct sockaddr *) &ss,
                                           len), 0);
  }
  r->buf = ns_arena_alloc (ns_machine_arena (r->s.machine), LEN, 64);
  ns_netstack_start_cpu (r->s.stack, WRITER_CPU);
}

/* Thread body: one datagram from client[i], data = { rig, i }. */
static void
writer (NsThread *t, gpointer data)
{
  Rig *r = ((gpointer *) data)[0];
  guint i = GPOINTER_TO_UINT (((gpointer *) data)[1]);

  ck_assert_int_eq (ns_sys_write (t, r->s.stack, r->client[i], r->buf, LEN), LEN);
}

/* Sends one datagram to server[i] and lets its softirq deliver it. */
static void
send_to (Rig *r, guint i)
{
  gpointer args[2] = { r, GUINT_TO_POINTER (i) };

  stack_rig_run (&r->s, WRITER_CPU, writer, args);
}

/* Thread body: one non-blocking read(2) of server[0]. */
static void
reader (NsThread *t, gpointer data)
{
  Rig *r = data;

  ck_assert_int_eq (ns_sys_read (t, r->s.stack, r->server[0], r->buf, LEN), LEN);
}

/* Thread body: the Sel's select, its results recorded. */
static void
selector (NsThread *t, gpointer data)
{
  Sel *sel = data;
  NsPollWqueues *pwq = ns_poll_wqueues_new (sel->rig->s.stack, 2 * N_PAIRS + 1);

  sel->ret = ns_sys_select (t, sel->rig->s.stack, pwq, sel->files, sel->events, sel->n,
                            sel->revents, sel->until);
  sel->done = TRUE;
  sel->returned = ns_thread_now (t);
  sel->slept = ns_poll_wqueues_slept (pwq, ns_thread_now (t));
  ns_poll_wqueues_free (pwq);
}

/* Adds file with events to sel's sets, its result preset to UNSET. */
static void
sel_add (Sel *sel, struct file *file, guint32 events)
{
  sel->files[sel->n] = file;
  sel->events[sel->n] = events;
  sel->revents[sel->n] = UNSET;
  sel->n++;
}

/* An empty select on r with deadline until (0: already expired, a zero timeout). */
static void
sel_init (Sel *sel, Rig *r, NsTime until)
{
  memset (sel, 0, sizeof *sel);
  sel->rig = r;
  sel->until = until;
}

/* Spawns sel's select on SELECT_CPU and runs until every thread is done or asleep (the
 * select may be left asleep: the callers check sel->done). */
static void
sel_start (Sel *sel)
{
  stack_rig_start (&sel->rig->s, SELECT_CPU, selector, sel);
}

/* The number of result bits revents stands for: one per set (res_in, res_out). */
static gint
result_bits (guint32 revents)
{
  return ((revents & EPOLLIN) != 0) + ((revents & EPOLLOUT) != 0);
}

/* sock_writeable's threshold (include/net/sock.h): writable while wmem_alloc is below
 * half of sk_sndbuf. */
static gint
writable_limit (struct file *f)
{
  return ns_file_sock (f)->sk_sndbuf >> 1;
}

/* Several sockets in both sets: only ready fds keep their bit, every other result is
 * cleared, the count is the number of bits set; a client whose write memory reaches
 * sndbuf / 2 is not writable. A zero timeout: it returns at once without sleeping. */
START_TEST (test_bitmaps_of_several_sockets)
{
  const gboolean has_datagram[N_PAIRS] = { FALSE, TRUE, FALSE, TRUE };
  const gboolean wmem_full[N_PAIRS] = { FALSE, TRUE, FALSE, TRUE };
  gint expected = 0;
  Sel sel;
  Rig r;

  rig_init (&r);
  for (guint i = 0; i < N_PAIRS; i++) {
    if (has_datagram[i])
      send_to (&r, i);
    if (wmem_full[i])
      ns_file_sock (r.client[i])->sk_wmem_alloc = (guint32) writable_limit (r.client[i]);
  }
  sel_init (&sel, &r, 0);
  for (guint i = 0; i < N_PAIRS; i++)
    sel_add (&sel, r.server[i], EPOLLIN);
  for (guint i = 0; i < N_PAIRS; i++)
    sel_add (&sel, r.client[i], EPOLLOUT);
  sel_start (&sel);
  for (guint i = 0; i < N_PAIRS; i++) {
    guint32 in = has_datagram[i] ? EPOLLIN : 0, out = wmem_full[i] ? 0 : EPOLLOUT;
    ck_assert_uint_eq (sel.revents[i], in);
    ck_assert_uint_eq (sel.revents[N_PAIRS + i], out);
    expected += result_bits (in) + result_bits (out);
  }
  ck_assert_int_eq (expected, 4);
  ck_assert_int_eq (sel.ret, expected);
  ck_assert_int_eq (sel.slept, 0);
  stack_rig_clear (&r.s);
}
END_TEST

/* Runs sel's select and returns the instructions the machine counted for it. */
static guint64
sel_insns (Sel *sel)
{
  ns_machine_account_reset (sel->rig->s.machine);
  sel_start (sel);
  return ns_machine_account_events (sel->rig->s.machine, NS_CAUSE_INSN);
}

/* The instructions of a select() of r's two sockets at fds fd0 (server 0) and fd1
 * (server 1, sent a datagram), nfds fd1 + 1; the reports checked: fd1 readable, fd0 and
 * every fd in no set 0, the results not written past nfds. */
static guint64
holes_insns (Rig *r, guint fd0, guint fd1)
{
  guint64 insns;
  Sel sel;

  sel_init (&sel, r, 0);
  for (guint i = 0; i < SEL_FDS; i++)
    sel.revents[i] = UNSET;
  sel.files[fd0] = r->server[0];
  sel.events[fd0] = EPOLLIN;
  sel.files[fd1] = r->server[1];
  sel.events[fd1] = EPOLLIN;
  sel.n = fd1 + 1;
  insns = sel_insns (&sel);
  ck_assert_int_eq (sel.ret, 1);
  ck_assert_uint_eq (sel.revents[fd1], EPOLLIN);
  ck_assert_uint_eq (sel.revents[fd0], 0);
  for (guint i = 0; i < fd1 + 1; i++)
    if (i != fd0 && i != fd1)
      ck_assert_msg (sel.revents[i] == 0, "fd %u in no set: revents %#x", i, sel.revents[i]);
  ck_assert_uint_eq (sel.revents[fd1 + 1], UNSET);
  return insns;
}

/* Descriptors as iperf3 leaves them, with holes: the same two sockets at fds 3 and 190
 * (nfds 191: a word with fds 3, a word with none, a word with fd 190) cost what they cost
 * at fds 0 and 1 plus 9 instructions for each clear bit inside the two non-empty words
 * (select.md), the empty word's skip and one more word's walk and cond_resched; a NULL
 * file is neither polled nor reported. At fds 3 and 128 (nfds 129) the middle word is
 * empty too, though the next word's first fd is set: the same but the third word's 62
 * clear bits. */
START_TEST (test_descriptor_holes)
{
  static const struct { guint fd1, clear_bits; } layouts[] = {
    { 190, 63 + 62 },                 /* 0-2 and 4-63; 128-189 */
    { 128, 63 },                      /* 0-2 and 4-63 */
  };
  guint64 dense;
  Sel sel;
  Rig r;

  rig_init (&r);
  send_to (&r, 1);
  sel_init (&sel, &r, 0);
  sel_add (&sel, r.server[0], EPOLLIN);
  sel_add (&sel, r.server[1], EPOLLIN);
  dense = sel_insns (&sel);
  ck_assert_int_eq (sel.ret, 1);
  ck_assert_uint_eq (sel.revents[1], EPOLLIN);
  /* the clear bits, the empty word's 6, a word's 37 and __cond_resched's few; of the
   * larger bitmaps, each of the four memsets stores two longs more, 4 instructions each
   * (memset_orig, residue.md), and each of the four copies (two in, two out) two
   * quadwords more, 8 instructions each: the registry's CPU has no FSRM, so 6.9 copies
   * through rep_movs_alternative's 8-byte loop (usercopy.c) */
  ck_assert (r.s.stack->copy_user_path == NS_COPY_USER_ALTERNATIVE);
  for (guint k = 0; k < G_N_ELEMENTS (layouts); k++) {
    guint64 extra = holes_insns (&r, 3, layouts[k].fd1) - dense;
    guint64 least = layouts[k].clear_bits * 9 + 6 + 37 + 4 * 2 * 4 + 4 * 2 * 8;

    ck_assert_msg (extra >= least && extra <= least + 30, "fds 3 and %u: holes cost %"
                   G_GUINT64_FORMAT " instructions more, %u clear bits", layouts[k].fd1, extra,
                   layouts[k].clear_bits);
  }
  stack_rig_clear (&r.s);
}
END_TEST

/* An fd in the read and the write set that is both readable and writable sets a bit in
 * res_in and one in res_out: do_select counts 2 for it. */
START_TEST (test_fd_in_both_sets_counts_twice)
{
  Sel sel;
  Rig r;

  rig_init (&r);
  send_to (&r, 2);
  sel_init (&sel, &r, 0);
  sel_add (&sel, r.server[0], EPOLLIN | EPOLLOUT);   /* writable only */
  sel_add (&sel, r.server[2], EPOLLIN | EPOLLOUT);   /* readable and writable */
  sel_start (&sel);
  ck_assert_uint_eq (sel.revents[0], EPOLLOUT);
  ck_assert_uint_eq (sel.revents[1], EPOLLIN | EPOLLOUT);
  ck_assert_int_eq (sel.ret, result_bits (EPOLLOUT) + result_bits (EPOLLIN | EPOLLOUT));
  ck_assert_int_eq (sel.ret, 3);
  stack_rig_clear (&r.s);
}
END_TEST

/* Files at or above nfds are not polled: a readable socket there is neither reported
 * nor counted, and its result is not written. */
START_TEST (test_sockets_beyond_nfds_ignored)
{
  Sel sel;
  Rig r;

  rig_init (&r);
  send_to (&r, 2);
  sel_init (&sel, &r, 0);
  for (guint i = 0; i < 3; i++)
    sel_add (&sel, r.server[i], EPOLLIN);
  sel.n = 2;                        /* nfds leaves server[2] out */
  sel_start (&sel);
  ck_assert (sel.done);
  ck_assert_int_eq (sel.ret, 0);
  ck_assert_uint_eq (sel.revents[0], 0);
  ck_assert_uint_eq (sel.revents[1], 0);
  ck_assert_uint_eq (sel.revents[2], UNSET);
  stack_rig_clear (&r.s);
}
END_TEST

/* sock_writeable's boundary with an odd sk_sndbuf: one byte of write memory below
 * sndbuf >> 1 is writable, sndbuf >> 1 is not; with nothing ready a zero timeout returns
 * 0 at once. */
START_TEST (test_writable_boundary)
{
  struct sock *sk;
  Sel sel;
  Rig r;

  rig_init (&r);
  sk = ns_file_sock (r.client[0]);
  sk->sk_sndbuf = 4097;
  sk->sk_wmem_alloc = 2047;         /* 4097 >> 1 = 2048 */
  sel_init (&sel, &r, 0);
  sel_add (&sel, r.client[0], EPOLLOUT);
  sel_start (&sel);
  ck_assert_int_eq (sel.ret, 1);
  ck_assert_uint_eq (sel.revents[0], EPOLLOUT);

  sk->sk_wmem_alloc = 2048;
  sel_init (&sel, &r, ns_engine_now (r.s.engine));
  sel_add (&sel, r.client[0], EPOLLOUT);
  sel_start (&sel);
  ck_assert (sel.done);
  ck_assert_int_eq (sel.ret, 0);
  ck_assert_uint_eq (sel.revents[0], 0);
  ck_assert_int_eq (sel.slept, 0);
  stack_rig_clear (&r.s);
}
END_TEST

/* A zero timeout (the deadline already passed when select is called): do_select starts
 * with _qproc = NULL and timed_out = 1 — one pass, no poll-table entry, no slack estimate
 * — where a deadline still ahead registers on the socket it polls. */
START_TEST (test_zero_timeout_registers_nothing)
{
  guint64 waits, slacks;
  Sel sel;
  Rig r;

  rig_init (&r);
  waits = stack_rig_calls (&r.s, "__pollwait");
  slacks = stack_rig_calls (&r.s, "select_estimate_accuracy");
  sel_init (&sel, &r, ns_engine_now (r.s.engine));
  sel_add (&sel, r.server[0], EPOLLIN);
  sel_start (&sel);
  ck_assert (sel.done);
  ck_assert_int_eq (sel.ret, 0);
  ck_assert_uint_eq (stack_rig_calls (&r.s, "__pollwait"), waits);
  ck_assert_uint_eq (stack_rig_calls (&r.s, "select_estimate_accuracy"), slacks);
  sel_init (&sel, &r, ns_engine_now (r.s.engine) + 1000000);
  sel_add (&sel, r.server[0], EPOLLIN);
  sel_start (&sel);
  ck_assert (sel.done);
  ck_assert_int_eq (sel.ret, 0);
  ck_assert_uint_eq (stack_rig_calls (&r.s, "__pollwait"), waits + 1);
  ck_assert_uint_eq (stack_rig_calls (&r.s, "select_estimate_accuracy"), slacks + 1);
  stack_rig_clear (&r.s);
}
END_TEST

/* select() enters as glibc 2.36 makes it: the pselect6 system call with a timespec and
 * no signal mask (do_pselect: get_timespec64, set_user_sigmask), the remaining time
 * written back by put_timespec64, and not for a zero timeout, which reads no clock in
 * do_pselect either (poll_select_set_timeout keeps end_time {0, 0}). */
static const char *const PSELECT_FNS[] = { "__x64_sys_pselect6", "do_pselect", "get_timespec64",
                                           "set_user_sigmask", "put_timespec64",
                                           "ktime_get_ts64", "kern_select" };
enum { PS_ENTRY, PS_DO, PS_GET, PS_SIGMASK, PS_PUT, PS_CLOCK, PS_KERN, PS_N };

/* The calls of each of PSELECT_FNS one select on r with deadline until makes. */
static void
pselect_calls (Rig *r, NsTime until, guint64 *calls)
{
  guint64 before[PS_N];
  Sel sel;

  for (guint i = 0; i < PS_N; i++)
    before[i] = stack_rig_calls (&r->s, PSELECT_FNS[i]);
  sel_init (&sel, r, until);
  sel_add (&sel, r->server[0], EPOLLIN);
  sel_start (&sel);
  ck_assert (sel.done);
  for (guint i = 0; i < PS_N; i++)
    calls[i] = stack_rig_calls (&r->s, PSELECT_FNS[i]) - before[i];
}

START_TEST (test_enters_as_pselect6)
{
  guint64 timed[PS_N], zero[PS_N];
  Rig r;

  rig_init (&r);
  pselect_calls (&r, ns_engine_now (r.s.engine) + 1000000, timed);
  pselect_calls (&r, ns_engine_now (r.s.engine), zero);
  for (guint i = PS_ENTRY; i <= PS_SIGMASK; i++) {
    ck_assert_msg (timed[i] == 1 && zero[i] == 1, "%s: %" G_GUINT64_FORMAT " / %"
                   G_GUINT64_FORMAT, PSELECT_FNS[i], timed[i], zero[i]);
  }
  ck_assert_uint_eq (timed[PS_PUT], 1);
  ck_assert_uint_eq (zero[PS_PUT], 0);
  ck_assert_uint_eq (timed[PS_KERN], 0);
  /* the timeout's end (do_pselect), the slack (select_estimate_accuracy), each timed-out
   * pass's expiry test and the remaining time (poll_select_finish) read the clock; a zero
   * timeout reads none of them */
  ck_assert_uint_ge (timed[PS_CLOCK], 3);
  ck_assert_uint_eq (zero[PS_CLOCK], 0);
  stack_rig_clear (&r.s);
}
END_TEST

/* The instructions of one select's entry functions, less their prologue, epilogue and
 * return (the machine's per-call charge): fn's instruction cycles × cpu.ipc. */
static double
entry_insns (Rig *r, const char *fn)
{
  double ipc = ns_params_get_double (ns_machine_params (r->s.machine), "cpu.ipc");

  return ns_machine_account_cycles (r->s.machine, ns_func_lookup (fn), NS_CAUSE_INSN) * ipc;
}

/* The pselect6 entry's census bodies (doc/census/seed000/syscall.md, Unit 4'), with a
 * timeout and with a zero one: __x64_sys_pselect6 13, do_pselect 64 / 54,
 * get_timespec64 24, set_user_sigmask 10, poll_select_finish 50 / 28, put_timespec64 17
 * / not called. */
START_TEST (test_pselect6_entry_census)
{
  static const struct { const char *fn; double timed, zero; } body[] = {
    { "__x64_sys_pselect6", 13, 13 }, { "do_pselect", 64, 54 }, { "get_timespec64", 24, 24 },
    { "set_user_sigmask", 10, 10 }, { "poll_select_finish", 50, 28 },
    { "put_timespec64", 17, 0 },
  };
  Sel sel;
  Rig r;

  rig_init (&r);
  for (guint z = 0; z < 2; z++) {
    sel_init (&sel, &r, ns_engine_now (r.s.engine) + (z ? 0 : 1000000));
    sel_add (&sel, r.server[0], EPOLLIN);
    sel_insns (&sel);
    ck_assert (sel.done);
    for (guint i = 0; i < G_N_ELEMENTS (body); i++) {
      double want = z ? body[i].zero : body[i].timed, got = entry_insns (&r, body[i].fn);
      ck_assert_msg (fabs (got - want) < 0.01, "%s (%s timeout): %.3f instructions, not %.0f",
                     body[i].fn, z ? "zero" : "a", got, want);
    }
  }
  stack_rig_clear (&r.s);
}
END_TEST

/* udp_poll: a datagram left on reader_queue (the second of two after one read, which
 * spliced both off sk_receive_queue) keeps the socket readable. */
START_TEST (test_reader_queue_readable)
{
  struct sock *sk;
  Sel sel;
  Rig r;

  rig_init (&r);
  send_to (&r, 0);
  send_to (&r, 0);
  stack_rig_run (&r.s, SELECT_CPU, reader, &r);
  sk = ns_file_sock (r.server[0]);
  ck_assert (skb_queue_empty (&sk->sk_receive_queue));
  ck_assert_uint_eq (udp_sk (sk)->reader_queue.qlen, 1);
  sel_init (&sel, &r, 0);
  sel_add (&sel, r.server[0], EPOLLIN);
  sel_start (&sel);
  ck_assert_int_eq (sel.ret, 1);
  ck_assert_uint_eq (sel.revents[0], EPOLLIN);
  stack_rig_clear (&r.s);
}
END_TEST

/* tcp_poll of an idle established connection and of a listener (residue.md): neither is
 * ready; the connection goes on through the shutdown, receive and send-space tests and
 * calls tcp_stream_memory_free, 65 instructions more in tcp_poll and the callee's 12 (the
 * prologues and returns are charged as cycles, not counted), where the listener returns
 * after the state test. */
START_TEST (test_tcp_poll_listener_and_connection)
{
  guint64 insns[2];
  Sel sel;
  Rig r;

  rig_init (&r);
  for (guint i = 0; i < 2; i++) {
    sel_init (&sel, &r, 0);
    sel_add (&sel, i == 0 ? ns_netstack_listen_file (r.s.stack)
                          : ns_netstack_ctrl_file (r.s.stack), EPOLLIN);
    insns[i] = sel_insns (&sel);
    ck_assert_int_eq (sel.ret, 0);
    ck_assert_uint_eq (sel.revents[0], 0);
  }
  ck_assert_msg (insns[1] == insns[0] + 65 + 12,
                 "listener %" G_GUINT64_FORMAT ", connection %" G_GUINT64_FORMAT,
                 insns[0], insns[1]);
  stack_rig_clear (&r.s);
}
END_TEST

/* Asleep with nothing ready, select has one entry on each polled socket's wait queue
 * (the TCP control file's too) and holds a reference on each file; a datagram's
 * sock_def_readable wakes it, it reports that socket, and poll_freewait leaves no entry
 * and every file count as before. */
START_TEST (test_registers_then_frees)
{
  struct file *files[N_PAIRS];
  gint64 count[N_PAIRS];
  Sel sel;
  Rig r;

  rig_init (&r);
  files[0] = ns_netstack_ctrl_file (r.s.stack);
  for (guint i = 1; i < N_PAIRS; i++)
    files[i] = r.server[i];
  sel_init (&sel, &r, NS_TIME_FOREVER);
  for (guint i = 0; i < N_PAIRS; i++) {
    count[i] = files[i]->f_count;
    sel_add (&sel, files[i], EPOLLIN);
  }
  sel_start (&sel);
  ck_assert (!sel.done);                        /* asleep */
  for (guint i = 0; i < N_PAIRS; i++) {
    ck_assert_uint_eq (ns_file_socket (files[i])->waiters.length, 1);
    ck_assert_int_eq (files[i]->f_count, count[i] + 1);
  }
  send_to (&r, 3);
  ck_assert (sel.done);
  ck_assert_int_eq (sel.ret, 1);
  ck_assert_uint_gt (sel.slept, 0);
  for (guint i = 0; i < N_PAIRS; i++) {
    ck_assert_uint_eq (sel.revents[i], i == 3 ? EPOLLIN : 0);
    ck_assert_uint_eq (ns_file_socket (files[i])->waiters.length, 0);
    ck_assert_int_eq (files[i]->f_count, count[i]);
  }
  stack_rig_clear (&r.s);
}
END_TEST

/* The readable sockets (TRUE) of a three-socket select, in fd order, and the poll-table
 * entries v6.9's do_select makes for them. */
typedef struct {
  gboolean ready[3];
} ReadyCase;

static const ReadyCase ready_cases[] = {
  { { FALSE, TRUE, FALSE } },
  { { TRUE, FALSE, FALSE } },
  { { FALSE, FALSE, TRUE } },
  { { FALSE, TRUE, TRUE } },
};

/* fs/select.c do_select: _qproc stays set only until the first fd found ready, so the
 * entries registered are the fds up to and including it. */
static guint
kernel_entries (const ReadyCase *c)
{
  for (guint i = 0; i < G_N_ELEMENTS (c->ready); i++)
    if (c->ready[i])
      return i + 1;
  return G_N_ELEMENTS (c->ready);
}

/* Three sockets in the read set with a deadline ahead, some readable: do_select registers
 * a poll-table entry (__pollwait, add_wait_queue, get_file) on each socket up to the first
 * ready one and none after it (wait->_qproc = NULL once an fd is ready), reports every
 * ready one, and without sleeping poll_freewait removes each entry it made
 * (remove_wait_queue, fput): no entry left, every file count as before. */
START_TEST (test_registers_until_first_ready)
{
  const ReadyCase *c = &ready_cases[_i];
  const guint entries = kernel_entries (c);
  const char *const fns[] = { "__pollwait", "add_wait_queue", "remove_wait_queue", "fput" };
  guint64 calls[G_N_ELEMENTS (fns)];
  gint64 count[3];
  gint expected = 0;
  Sel sel;
  Rig r;

  rig_init (&r);
  for (guint i = 0; i < 3; i++)
    if (c->ready[i])
      send_to (&r, i);
  for (guint f = 0; f < G_N_ELEMENTS (fns); f++)
    calls[f] = stack_rig_calls (&r.s, fns[f]);
  sel_init (&sel, &r, ns_engine_now (r.s.engine) + NS_MS (1));
  for (guint i = 0; i < 3; i++) {
    count[i] = r.server[i]->f_count;
    sel_add (&sel, r.server[i], EPOLLIN);
    expected += c->ready[i];
  }
  sel_start (&sel);
  ck_assert (sel.done);
  ck_assert_int_eq (sel.slept, 0);
  ck_assert_int_eq (sel.ret, expected);
  for (guint i = 0; i < 3; i++) {
    ck_assert_uint_eq (sel.revents[i], c->ready[i] ? EPOLLIN : 0);
    ck_assert_uint_eq (ns_file_socket (r.server[i])->waiters.length, 0);
    ck_assert_int_eq (r.server[i]->f_count, count[i]);
  }
  for (guint f = 0; f < G_N_ELEMENTS (fns); f++)
    ck_assert_msg (stack_rig_calls (&r.s, fns[f]) - calls[f] == entries,
                   "case %d: %s called %" G_GUINT64_FORMAT " times, kernel %u", _i, fns[f],
                   stack_rig_calls (&r.s, fns[f]) - calls[f], entries);
  stack_rig_clear (&r.s);
}
END_TEST

/* A helper thread's job: after `delay`, either send one datagram to server[0] or drop
 * client[0]'s write memory to 0 behind select's back (no sk_write_space, no wake-up). */
typedef struct {
  Rig      *rig;
  NsTime    delay;
  gboolean  send;
} Later;

/* Thread body: the Later's action after its delay. */
static void
later (NsThread *t, gpointer data)
{
  Later *l = data;

  ns_thread_advance_time (t, l->delay);
  if (l->send)
    ck_assert_int_eq (ns_sys_write (t, l->rig->s.stack, l->rig->client[0], l->rig->buf, LEN),
                      LEN);
  else
    ns_file_sock (l->rig->client[0])->sk_wmem_alloc = 0;
}

/* Runs sel's select on SELECT_CPU and l's action on WRITER_CPU, both from now, until
 * every thread is done or asleep (the select's deadline event included). */
static void
sel_run_with (Sel *sel, Later *l)
{
  NsEngine *engine = sel->rig->s.engine;

  ns_engine_spawn (engine, "select", SELECT_CPU, NS_THREAD_USER, ns_engine_now (engine),
                   selector, sel);
  ns_engine_spawn (engine, "later", WRITER_CPU, NS_THREAD_USER, ns_engine_now (engine),
                   later, l);
  ns_engine_run (engine, NS_TIME_FOREVER);
}

/* fs/select.c do_select with a 1 ms timeout and nothing ready: poll_schedule_timeout
 * sleeps until a pollwake or the deadline; a datagram 100 us in wakes it
 * (sock_def_readable → pollwake), the next pass finds the socket readable and select
 * returns 1 long before the deadline. */
START_TEST (test_timeout_woken_early)
{
  const NsTime timeout = NS_MS (1), delay = NS_US (100);
  NsTime start;
  Later l;
  Sel sel;
  Rig r;

  rig_init (&r);
  start = ns_engine_now (r.s.engine);
  sel_init (&sel, &r, start + timeout);
  sel_add (&sel, r.server[0], EPOLLIN);
  l = (Later) { &r, delay, TRUE };
  sel_run_with (&sel, &l);
  ck_assert (sel.done);
  ck_assert_int_eq (sel.ret, 1);
  ck_assert_uint_eq (sel.revents[0], EPOLLIN);
  ck_assert_int_ge (sel.returned, start + delay);
  ck_assert_int_lt (sel.returned, start + delay + NS_US (100));
  ck_assert_int_lt (sel.slept, timeout - delay);
  ck_assert_uint_eq (ns_file_socket (r.server[0])->waiters.length, 0);
  stack_rig_clear (&r.s);
}
END_TEST

/* do_select at the deadline: poll_schedule_timeout returns 0, timed_out = 1, and the loop
 * makes one more full pass before breaking, so a socket that became ready without a
 * wake-up (here client[0]'s write memory dropped below sndbuf / 2 with no sk_write_space)
 * is reported at expiry: 1, EPOLLOUT, at the deadline, not before. */
START_TEST (test_timeout_final_pass_reports)
{
  const NsTime timeout = NS_MS (1);
  NsTime start;
  Later l;
  Sel sel;
  Rig r;

  rig_init (&r);
  ns_file_sock (r.client[0])->sk_wmem_alloc = (guint32) writable_limit (r.client[0]);
  start = ns_engine_now (r.s.engine);
  sel_init (&sel, &r, start + timeout);
  sel_add (&sel, r.client[0], EPOLLOUT);
  l = (Later) { &r, timeout / 2, FALSE };
  sel_run_with (&sel, &l);
  ck_assert (sel.done);
  ck_assert_int_eq (sel.ret, 1);
  ck_assert_uint_eq (sel.revents[0], EPOLLOUT);
  ck_assert_int_ge (sel.returned, start + timeout);
  ck_assert_uint_eq (ns_file_socket (r.client[0])->waiters.length, 0);
  stack_rig_clear (&r.s);
}
END_TEST

/* A socket-owned skb of client[0] (skb_set_owner_w's charge) with the write memory
 * left at wmem_before + truesize. */
typedef struct {
  Rig            *rig;
  struct sk_buff *skb;
  gint            wmem_before;
} Owned;

/* Thread body: allocates the Owned skb and charges it to client[0]. */
static void
owned_alloc (NsThread *t, gpointer data)
{
  Owned *o = data;
  struct sock *sk = ns_file_sock (o->rig->client[0]);

  o->skb = __alloc_skb (t, o->rig->s.stack->alloc, LEN, GFP_KERNEL);
  o->skb->sk = sk;
  o->skb->destructor = sk;          /* the model's sock_wfree */
  sk->sk_wmem_alloc = (guint32) (o->wmem_before + (gint) o->skb->truesize);
}

/* Thread body: frees the Owned skb (skb_release_head_state → sock_wfree). */
static void
owned_free (NsThread *t, gpointer data)
{
  Owned *o = data;

  kfree_skb (t, o->rig->s.stack->alloc, o->skb);
}

/* A select on client[0] with events, asleep (no deadline) while the Owned skb keeps
 * sk_wmem_alloc at wmem_before + truesize; then the skb is freed (its write memory back
 * at wmem_before). Returns whether the select has returned; *queue_wakes gets the wait
 * queue's wake-ups (__wake_up_sync_key) the free made, *task_wakes the task wake-ups
 * (pollwake's default_wake_function). */
static gboolean
select_woken_by_wfree (Rig *r, Sel *sel, guint32 events, gint wmem_before,
                       guint64 *queue_wakes, guint64 *task_wakes)
{
  Owned o = { r, NULL, wmem_before };

  stack_rig_run (&r->s, WRITER_CPU, owned_alloc, &o);
  sel_init (sel, r, NS_TIME_FOREVER);
  sel_add (sel, r->client[0], events);
  sel_start (sel);
  ck_assert (!sel->done);
  ck_assert_uint_eq (ns_file_socket (r->client[0])->waiters.length, 1);
  *queue_wakes = stack_rig_calls (&r->s, "__wake_up_sync_key");
  *task_wakes = stack_rig_calls (&r->s, "default_wake_function");
  stack_rig_run (&r->s, WRITER_CPU, owned_free, &o);
  *queue_wakes = stack_rig_calls (&r->s, "__wake_up_sync_key") - *queue_wakes;
  *task_wakes = stack_rig_calls (&r->s, "default_wake_function") - *task_wakes;
  ck_assert_int_eq (ns_file_sock (r->client[0])->sk_wmem_alloc, wmem_before);
  return sel->done;
}

/* sock_wfree → sock_def_write_space_wfree: the free takes sk_wmem_alloc from
 * sndbuf / 2 - 1 + truesize (not writable) to sndbuf / 2 - 1 (writable), so the EPOLLOUT
 * waiter is woken and select reports the socket writable. */
START_TEST (test_wfree_wakes_writer)
{
  guint64 queue_wakes, task_wakes;
  Sel sel;
  Rig r;

  rig_init (&r);
  ck_assert (select_woken_by_wfree (&r, &sel, EPOLLOUT, writable_limit (r.client[0]) - 1,
                                    &queue_wakes, &task_wakes));
  ck_assert_uint_eq (queue_wakes, 1);
  ck_assert_uint_eq (task_wakes, 1);
  ck_assert_int_eq (sel.ret, 1);
  ck_assert_uint_eq (sel.revents[0], EPOLLOUT);
  ck_assert_uint_eq (ns_file_socket (r.client[0])->waiters.length, 0);
  stack_rig_clear (&r.s);
}
END_TEST

/* The same free wakes the queue of a select waiting only to read, but pollwake does not
 * wake the task (the key EPOLLOUT | EPOLLWRNORM | EPOLLWRBAND has no POLLIN_SET bit);
 * a free that leaves sk_wmem_alloc at sndbuf / 2 (not sock_writeable) wakes nothing. */
START_TEST (test_wfree_wakes_no_reader)
{
  guint64 queue_wakes, task_wakes;
  Sel sel;
  Rig r;

  rig_init (&r);
  ck_assert (!select_woken_by_wfree (&r, &sel, EPOLLIN, writable_limit (r.client[0]) - 1,
                                     &queue_wakes, &task_wakes));
  ck_assert_uint_eq (queue_wakes, 1);
  ck_assert_uint_eq (task_wakes, 0);
  stack_rig_clear (&r.s);
  rig_init (&r);
  ck_assert (!select_woken_by_wfree (&r, &sel, EPOLLOUT, writable_limit (r.client[0]),
                                     &queue_wakes, &task_wakes));
  ck_assert_uint_eq (queue_wakes, 0);
  ck_assert_uint_eq (task_wakes, 0);
  stack_rig_clear (&r.s);
}
END_TEST

/* ---- the poll table's pages (fs/select.c poll_get_entry, poll_freewait) ---- */

#define MANY_PORT   5501
#define MANY_MAX    80
/* include/linux/poll.h: N_INLINE_POLL_ENTRIES = (832 - 256) / sizeof(struct
 * poll_table_entry), 64 bytes on x86-64; a poll_table_page holds (PAGE_SIZE - 16) / 64 */
#define KERNEL_INLINE_ENTRIES  ((832 - 256) / 64)
#define KERNEL_PAGE_ENTRIES    ((4096 - 16) / 64)

/* A select over n sockets. */
typedef struct {
  Rig          *rig;
  struct file  *files[MANY_MAX];
  guint32       events[MANY_MAX];
  guint32       revents[MANY_MAX];
  guint         n;
  gint          ret;
  gboolean      done;
} ManySel;

/* Thread body: the ManySel's select without a timeout. */
static void
many_selector (NsThread *t, gpointer data)
{
  ManySel *sel = data;
  NsPollWqueues *pwq = ns_poll_wqueues_new (sel->rig->s.stack, sel->n);

  sel->ret = ns_sys_select (t, sel->rig->s.stack, pwq, sel->files, sel->events, sel->n,
                            sel->revents, NS_TIME_FOREVER);
  sel->done = TRUE;
  ns_poll_wqueues_free (pwq);
}

/* The poll_table_pages a call registering n entries takes: poll_get_entry gives the first
 * KERNEL_INLINE_ENTRIES from poll_wqueues and takes a fresh page (__get_free_page) for
 * the first entry past them and whenever the current page is full (POLL_TABLE_FULL). */
static guint
kernel_table_pages (guint n)
{
  if (n <= KERNEL_INLINE_ENTRIES)
    return 0;
  return (n - KERNEL_INLINE_ENTRIES + KERNEL_PAGE_ENTRIES - 1) / KERNEL_PAGE_ENTRIES;
}

static const guint many_cases[] = { 4, 9, 10, 72, 73, MANY_MAX };

/* A select with nothing ready registers an entry on each of its n sockets: past the
 * inline entries it takes poll_table_pages from the page allocator and holds them while
 * it sleeps; woken by a datagram on the last socket, poll_freewait frees each page
 * (free_page) within the same call, and the CPU's free lists get them back. */
START_TEST (test_table_pages)
{
  const guint n = many_cases[_i], pages = kernel_table_pages (n);
  struct sockaddr_storage ss;
  struct file *client;
  guint64 got0, freed0;
  ManySel sel = { 0 };
  Rig r;
  gint len = 0;

  rig_init (&r);
  sel.rig = &r;
  for (guint i = 0; i < n; i++) {
    len = loopback4 (&ss, (guint16) (MANY_PORT + i));
    sel.files[i] = ns_netstack_socket (r.s.stack, AF_INET, TRUE);
    ck_assert_int_eq (udp_sock_bind (ns_file_sock (sel.files[i]), (struct sockaddr *) &ss,
                                     len), 0);
    sel.events[i] = EPOLLIN;
  }
  sel.n = n;
  client = ns_netstack_socket (r.s.stack, AF_INET, FALSE);
  ck_assert_int_eq (ns_netstack_connect (r.s.stack, client, (struct sockaddr *) &ss, len), 0);
  r.client[0] = client;             /* writer() sends from client[0] */
  got0 = stack_rig_calls (&r.s, "__get_free_pages");
  freed0 = stack_rig_calls (&r.s, "free_pages");
  stack_rig_start (&r.s, SELECT_CPU, many_selector, &sel);
  ck_assert (!sel.done);            /* asleep, every entry registered */
  ck_assert_uint_eq (stack_rig_calls (&r.s, "__get_free_pages") - got0, pages);
  ck_assert_uint_eq (stack_rig_calls (&r.s, "free_pages") - freed0, 0);
  send_to (&r, 0);
  ck_assert (sel.done);
  ck_assert_int_eq (sel.ret, 1);
  ck_assert_uint_eq (sel.revents[n - 1], EPOLLIN);
  ck_assert_uint_eq (stack_rig_calls (&r.s, "__get_free_pages") - got0, pages);
  ck_assert_uint_eq (stack_rig_calls (&r.s, "free_pages") - freed0, pages);
  for (guint i = 0; i < n; i++)
    ck_assert_uint_eq (ns_file_socket (sel.files[i])->waiters.length, 0);
  stack_rig_clear (&r.s);
}
END_TEST

static Suite *
select_suite (void)
{
  Suite *s = suite_create ("select");
  TCase *tc = tcase_create ("core");

  tcase_add_test (tc, test_bitmaps_of_several_sockets);
  tcase_add_test (tc, test_descriptor_holes);
  tcase_add_test (tc, test_fd_in_both_sets_counts_twice);
  tcase_add_test (tc, test_sockets_beyond_nfds_ignored);
  tcase_add_test (tc, test_writable_boundary);
  tcase_add_test (tc, test_reader_queue_readable);
  tcase_add_test (tc, test_registers_then_frees);
  tcase_add_test (tc, test_tcp_poll_listener_and_connection);
  tcase_add_loop_test (tc, test_registers_until_first_ready, 0, G_N_ELEMENTS (ready_cases));
  tcase_add_test (tc, test_zero_timeout_registers_nothing);
  tcase_add_test (tc, test_enters_as_pselect6);
  tcase_add_test (tc, test_pselect6_entry_census);
  tcase_add_test (tc, test_timeout_woken_early);
  tcase_add_test (tc, test_timeout_final_pass_reports);
  tcase_add_test (tc, test_wfree_wakes_writer);
  tcase_add_test (tc, test_wfree_wakes_no_reader);
  tcase_add_loop_test (tc, test_table_pages, 0, G_N_ELEMENTS (many_cases));
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (select_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
