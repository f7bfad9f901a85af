/* test-udp-path.c — the loopback UDP path (models/net/skbuff.c, netstack.c, loopback.c,
 * ip.c, udp_tx.c, udp_rx.c, select.c) on a real machine and engine: delivery over IPv4
 * and IPv6, datagram conservation, receive-buffer drops only when the reader falls
 * behind, compute_score calls per packet equal to the chain length in the unpatched
 * build (and inlined with the patch), the softirq running on the sender's CPU, bottom
 * halves re-enabled as often as disabled, determinism, and select(2): it sleeps until a
 * datagram arrives and returns that socket alone, times out, and reports idle sockets
 * writable at once. */
#include "config.h"
#include <errno.h>
#include <arpa/inet.h>
#include "stack-rig.h"
#include "select.h"
#include "udp_rx.h"
#include "udp_tx.h"

#define LEN        8920
#define PORT       5201
#define MAX_PAIRS  64

typedef struct {
  StackRig       s;                /* machine, engine, loopback stack */
  guint          n_pairs;
  struct file   *cfile[MAX_PAIRS];
  struct file   *sfile[MAX_PAIRS];
  guchar        *cbuf;
  guchar        *sbuf;
  /* sender: send `to_send` datagrams round-robin over the pairs (only pair `only` if set) */
  guint          to_send;
  gint           only;
  guint          sender_cpu;
  guint64        sent_ok;
  /* receiver: blocking reads of pair 0 until `to_read`, with `delay` between reads */
  guint          to_read;
  NsTime         delay;
  guint64        read_ok;
  guint64        read_bytes;
} Rig;

/* A machine of the registry defaults (1 socket, 4 cores, SMT 2) running build version
 * (+ patch), with SRSO Safe RET when safe_ret. */
static void
rig_init (Rig *r, const char *version, const char *patch, gboolean safe_ret)
{
  NsMitigations mit = { 0 };

  memset (r, 0, sizeof *r);
  r->only = -1;
  mit.srso = safe_ret ? NS_SRSO_SAFE_RET : NS_SRSO_OFF;
  mit.spectre_v2 = safe_ret ? NS_SPECTRE_V2_RETPOLINE : NS_SPECTRE_V2_OFF;
  stack_rig_init (&r->s, version, patch, NULL, &mit);
  r->cbuf = ns_arena_alloc (ns_machine_arena (r->s.machine), LEN, 64);
  r->sbuf = ns_arena_alloc (ns_machine_arena (r->s.machine), LEN, 64);
}

/* Frees what rig_init made. */
static void
rig_clear (Rig *r)
{
  stack_rig_clear (&r->s);
}

static gint
addr_of (struct sockaddr_storage *ss, gint family, gboolean mapped, gboolean any, guint16 port)
{
  memset (ss, 0, sizeof *ss);
  if (family == AF_INET) {
    struct sockaddr_in *in = (struct sockaddr_in *) ss;
    in->sin_family = AF_INET;
    in->sin_port = htons (port);
    in->sin_addr.s_addr = any ? 0 : htonl (0x7f000001);
    return sizeof *in;
  }
  struct sockaddr_in6 *in6 = (struct sockaddr_in6 *) ss;
  in6->sin6_family = AF_INET6;
  in6->sin6_port = htons (port);
  if (!any && mapped) {
    in6->sin6_addr.s6_addr[10] = in6->sin6_addr.s6_addr[11] = 0xff;
    in6->sin6_addr.s6_addr[12] = 127;
    in6->sin6_addr.s6_addr[15] = 1;
  } else if (!any) {
    in6->sin6_addr.s6_addr[15] = 1;
  }
  return sizeof *in6;
}

/* n iperf3-style pairs: a client socket of family connected to PORT, a dual-stack server
 * socket bound to [::]:PORT with SO_REUSEADDR and connected back to the client. */
static void
rig_pairs (Rig *r, guint n, gint family)
{
  for (guint i = 0; i < n; i++) {
    struct sockaddr_storage ss;
    struct sock *csk, *ssk;
    gint len;
    r->cfile[i] = ns_netstack_socket (r->s.stack, family, FALSE);
    len = addr_of (&ss, family, FALSE, FALSE, PORT);
    ck_assert_int_eq (ns_netstack_connect (r->s.stack, r->cfile[i], (struct sockaddr *) &ss, len), 0);
    csk = ns_file_sock (r->cfile[i]);
    r->sfile[i] = ns_netstack_socket (r->s.stack, AF_INET6, FALSE);
    ssk = ns_file_sock (r->sfile[i]);
    udp_sock_set_reuseaddr (ssk, TRUE);
    len = addr_of (&ss, AF_INET6, FALSE, TRUE, PORT);
    ck_assert_int_eq (udp_sock_bind (ssk, (struct sockaddr *) &ss, len), 0);
    len = addr_of (&ss, AF_INET6, family == AF_INET, FALSE, csk->sk_num);
    ck_assert_int_eq (ns_netstack_connect (r->s.stack, r->sfile[i], (struct sockaddr *) &ss, len), 0);
  }
  r->n_pairs = n;
}

static void
sender (NsThread *t, gpointer data)
{
  Rig *r = data;

  for (guint k = 0; k < r->to_send; k++) {
    guint i = r->only >= 0 ? (guint) r->only : k % r->n_pairs;
    if (ns_sys_write (t, r->s.stack, r->cfile[i], r->cbuf, LEN) == LEN)
      r->sent_ok++;
  }
}

static void
receiver (NsThread *t, gpointer data)
{
  Rig *r = data;

  while (r->read_ok < r->to_read) {
    gssize n;
    if (r->delay > 0)
      ns_thread_advance_time (t, r->delay);
    n = ns_sys_read (t, r->s.stack, r->sfile[0], r->sbuf, LEN);
    if (n > 0) {
      r->read_ok++;
      r->read_bytes += (guint64) n;
    }
  }
}

static void
start (Rig *r, guint sender_cpu, gboolean with_reader)
{
  r->sender_cpu = sender_cpu;
  ns_netstack_start_cpu (r->s.stack, sender_cpu);
  if (with_reader)
    ns_engine_spawn (r->s.engine, "reader", 1, NS_THREAD_USER, 0, receiver, r);
  ns_engine_spawn (r->s.engine, "writer", sender_cpu, NS_THREAD_USER, 0, sender, r);
}

/* Datagrams queued on every server socket (receive + reader queues) and in backlogs. */
static guint64
queued (Rig *r)
{
  guint64 q = 0;

  for (guint i = 0; i < r->n_pairs; i++) {
    struct sock *sk = ns_file_sock (r->sfile[i]);
    q += sk->sk_receive_queue.qlen + udp_sk (sk)->reader_queue.qlen;
  }
  for (guint c = 0; c < ns_machine_n_cpus (r->s.machine); c++) {
    struct softnet_data *sd = ns_netstack_sd (r->s.stack, c);
    q += sd->input_pkt_queue.qlen + sd->process_queue.qlen;
  }
  return q;
}

static void
check_delivery (gint family)
{
  Rig r;

  rig_init (&r, "6.9.0-rc1", NULL, FALSE);
  rig_pairs (&r, 1, family);
  r.to_send = 20;
  r.to_read = 20;
  start (&r, 0, TRUE);
  ns_engine_run (r.s.engine, NS_MS (10));
  ck_assert_uint_eq (r.sent_ok, 20);
  ck_assert_uint_eq (r.read_ok, 20);
  ck_assert_uint_eq (r.read_bytes, 20 * LEN);
  ck_assert_uint_eq (r.s.stack->counters.sent, 20);
  ck_assert_uint_eq (r.s.stack->counters.enqueued, 20);
  ck_assert_uint_eq (r.s.stack->counters.received, 20);
  ck_assert_uint_eq (r.s.stack->counters.rcvbuf_drops, 0);
  ck_assert_uint_eq (r.s.stack->counters.noport, 0);
  ck_assert_uint_eq (ns_skb_alloc_live (r.s.stack->alloc, NULL), 0);
  /* every bottom-half disable (spin_lock_bh, rcu_read_lock_bh) was undone: with both
   * threads asleep or done, every CPU's preempt count is back at 0 */
  for (guint c = 0; c < ns_machine_n_cpus (r.s.machine); c++)
    ck_assert_msg (*r.s.stack->preempt_count[c] == 0, "CPU %u: preempt_count %d", c,
                   *r.s.stack->preempt_count[c]);
  rig_clear (&r);
}

START_TEST (test_deliver_ipv4)
{
  check_delivery (AF_INET);
}
END_TEST

START_TEST (test_deliver_ipv6)
{
  check_delivery (AF_INET6);
}
END_TEST

/* The datagram's two user copies (write's copy from user, read's copy to user) take
 * the routine the release and the registry's CPU (no FSRM) pick: on 6.9 a call of
 * rep_movs_alternative each, on 6.1 one of copy_user_enhanced_fast_string (8920 bytes:
 * never the short-copy loops), and every datagram is read whole. */
START_TEST (test_user_copies_by_release)
{
  static const struct { const char *version, *routine, *other; } cases[] = {
    { "6.9.0-rc1", "rep_movs_alternative", "copy_user_enhanced_fast_string" },
    { "6.1.0", "copy_user_enhanced_fast_string", "rep_movs_alternative" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    Rig r;

    rig_init (&r, cases[i].version, NULL, FALSE);
    rig_pairs (&r, 1, AF_INET);
    r.to_send = 10;
    r.to_read = 10;
    start (&r, 0, TRUE);
    ns_engine_run (r.s.engine, NS_MS (10));
    ck_assert_uint_eq (r.read_bytes, 10 * LEN);
    ck_assert_msg (stack_rig_calls (&r.s, cases[i].routine) == 2 * 10, "%s: %s called %"
                   G_GUINT64_FORMAT " times", cases[i].version, cases[i].routine,
                   stack_rig_calls (&r.s, cases[i].routine));
    ck_assert_uint_eq (stack_rig_calls (&r.s, cases[i].other), 0);
    ck_assert_uint_eq (stack_rig_calls (&r.s, "copy_user_short_string"), 0);
    rig_clear (&r);
  }
}
END_TEST

/* sent = received + dropped + in flight. At any stopping time a datagram may be inside a
 * function between two queues, so: received + dropped + queued <= sent <= received +
 * dropped + live skbs. Once the sender is done and everything settled: equality, and
 * every live skb is a queued one. */
START_TEST (test_conservation)
{
  const NsNetCounters *c;
  guint64 heads, q, live, gone;
  Rig r;

  rig_init (&r, "6.9.0-rc1", NULL, FALSE);
  rig_pairs (&r, 4, AF_INET);
  r.to_send = 400;
  r.to_read = 400;
  r.delay = NS_US (2);
  start (&r, 0, TRUE);
  c = &r.s.stack->counters;
  for (NsTime stop = NS_US (50); stop <= NS_MS (2); stop += NS_US (170)) {
    ns_engine_run (r.s.engine, stop);
    q = queued (&r);
    live = ns_skb_alloc_live (r.s.stack->alloc, &heads);
    gone = c->received + c->rcvbuf_drops + c->noport + c->backlog_drops;
    ck_assert_uint_le (gone + q, c->sent);
    ck_assert_uint_le (c->sent, gone + live);
    ck_assert_uint_le (heads, live);         /* a free may be between its two halves */
  }
  ns_engine_run (r.s.engine, NS_MS (50));
  ck_assert_uint_eq (r.sent_ok, 400);
  q = queued (&r);
  gone = c->received + c->rcvbuf_drops + c->noport + c->backlog_drops;
  ck_assert_uint_eq (c->sent, 400);
  ck_assert_uint_eq (c->sent, gone + q);
  ck_assert_uint_eq (ns_skb_alloc_live (r.s.stack->alloc, &heads), q);
  ck_assert_uint_eq (heads, q);
  ck_assert_uint_gt (c->rcvbuf_drops, 0);   /* pairs 1-3 are never read */
  rig_clear (&r);
}
END_TEST

/* Nobody reads: the queue fills to what the rcvbuf rule admits (rmem <= rcvbuf before
 * each packet: floor(rcvbuf / truesize) + 1), the rest is dropped and counted. */
START_TEST (test_rcvbuf_drops_when_slow)
{
  Rig r;
  struct sock *sk;
  guint admitted;

  rig_init (&r, "6.9.0-rc1", NULL, FALSE);
  rig_pairs (&r, 1, AF_INET);
  r.to_send = 40;
  start (&r, 0, FALSE);
  ns_engine_run (r.s.engine, NS_MS (5));
  sk = ns_file_sock (r.sfile[0]);
  admitted = (guint) sk->sk_rcvbuf / SKB_TRUESIZE (16384 - SKB_SHINFO_SIZE) + 1;
  ck_assert_uint_eq (r.s.stack->counters.enqueued, admitted);
  ck_assert_uint_eq (r.s.stack->counters.rcvbuf_drops, 40 - admitted);
  ck_assert_int_eq (sk->sk_drops, 40 - admitted);
  ck_assert_uint_eq (sk->sk_receive_queue.qlen, admitted);
  rig_clear (&r);
}
END_TEST

/* A reader that keeps up: no drops, whatever the burst. */
START_TEST (test_no_drops_when_reader_keeps_up)
{
  Rig r;

  rig_init (&r, "6.9.0-rc1", NULL, FALSE);
  rig_pairs (&r, 1, AF_INET);
  r.to_send = 200;
  r.to_read = 200;
  start (&r, 0, TRUE);
  ns_engine_run (r.s.engine, NS_MS (20));
  ck_assert_uint_eq (r.read_ok, 200);
  ck_assert_uint_eq (r.s.stack->counters.rcvbuf_drops, 0);
  rig_clear (&r);
}
END_TEST

/* compute_score runs once per socket of the exact-address chain per packet: out of line
 * in 6.9.0-rc1 (two call sites), inlined with the single-site patch. */
static void
check_score_calls (const char *patch, gint family)
{
  NsFunc *cs = family == AF_INET ? &udp_fn_compute_score : &udp6_fn_compute_score;
  guint64 calls, inlined;
  Rig r;

  rig_init (&r, "6.9.0-rc1", patch, TRUE);
  rig_pairs (&r, 16, family);
  r.to_send = 10;
  r.only = 5;
  start (&r, 0, FALSE);
  ns_engine_run (r.s.engine, NS_MS (5));
  ck_assert_uint_eq (r.s.stack->counters.enqueued, 10);
  calls = ns_machine_account_calls (r.s.machine, cs, &inlined);
  if (patch == NULL) {
    ck_assert_uint_eq (calls, 16 * 10);
    ck_assert_uint_eq (inlined, 0);
  } else {
    ck_assert_uint_eq (calls, 0);
    ck_assert_uint_eq (inlined, 16 * 10);
  }
  rig_clear (&r);
}

START_TEST (test_score_calls_unpatched_v4)
{
  check_score_calls (NULL, AF_INET);
}
END_TEST

START_TEST (test_score_calls_patched_v4)
{
  check_score_calls ("udp-compute-score-single-site", AF_INET);
}
END_TEST

START_TEST (test_score_calls_unpatched_v6)
{
  check_score_calls (NULL, AF_INET6);
}
END_TEST

/* Loopback runs the receive softirq on the sending CPU: the connected socket records
 * that CPU as sk_incoming_cpu. (What the patch saves under Safe RET is checked by
 * test-udp's test_fix_saves_cycles and test-iperf3's test_patch_helps_under_safe_ret.) */
START_TEST (test_softirq_on_sender_cpu)
{
  Rig r;

  rig_init (&r, "6.9.0-rc1", NULL, FALSE);
  rig_pairs (&r, 1, AF_INET);
  r.to_send = 3;
  start (&r, 2, FALSE);
  ns_engine_run (r.s.engine, NS_MS (1));
  ck_assert_int_eq (ns_file_sock (r.sfile[0])->sk_incoming_cpu, 2);
  rig_clear (&r);
}
END_TEST

/* An unconnected socket gets nothing it was not addressed to; a port nobody holds counts
 * as NOPORTS and frees the skb. */
START_TEST (test_noport)
{
  struct sockaddr_storage ss;
  Rig r;
  gint len;

  rig_init (&r, "6.9.0-rc1", NULL, FALSE);
  r.cfile[0] = ns_netstack_socket (r.s.stack, AF_INET, FALSE);
  len = addr_of (&ss, AF_INET, FALSE, FALSE, 7777);
  ck_assert_int_eq (ns_netstack_connect (r.s.stack, r.cfile[0], (struct sockaddr *) &ss, len), 0);
  r.n_pairs = 1;
  r.sfile[0] = ns_netstack_socket (r.s.stack, AF_INET, FALSE);
  r.to_send = 5;
  start (&r, 0, FALSE);
  ns_engine_run (r.s.engine, NS_MS (1));
  ck_assert_uint_eq (r.s.stack->counters.noport, 5);
  ck_assert_uint_eq (ns_skb_alloc_live (r.s.stack->alloc, NULL), 0);
  rig_clear (&r);
}
END_TEST

/* A select over the three server sockets of rig_pairs, on CPU 1. */
typedef struct {
  Rig     *r;
  NsTime   until;        /* NS_TIME_FOREVER, or the absolute timeout */
  guint32  events;       /* EPOLLIN (server sockets) or EPOLLOUT (client sockets) */
  gint     ready;
  guint32  revents[3];
  NsTime   returned;     /* when select returned */
  NsTime   slept;
} Sel;

/* Thread body: one select, recorded in the Sel. */
static void
selector (NsThread *t, gpointer data)
{
  Sel *sel = data;
  Rig *r = sel->r;
  const guint32 events[3] = { sel->events, sel->events, sel->events };
  struct file *const *files = sel->events == EPOLLOUT ? r->cfile : r->sfile;
  NsPollWqueues *pwq = ns_poll_wqueues_new (r->s.stack, 4);

  sel->ready = ns_sys_select (t, r->s.stack, pwq, files, events, 3, sel->revents, sel->until);
  sel->returned = ns_thread_now (t);
  sel->slept = ns_poll_wqueues_slept (pwq, ns_thread_now (t));
  ns_poll_wqueues_free (pwq);
}

/* On a fresh rig r with three IPv4 pairs, runs a select of events on CPU 1 while pair
 * `only` gets to_send datagrams from CPU 0 after `delay` (none if to_send is 0), for 2 ms;
 * the caller checks sel and clears r. */
static void
run_select (Rig *r, Sel *sel, guint32 events, NsTime until, guint to_send, gint only,
            NsTime delay)
{
  rig_init (r, "6.9.0-rc1", NULL, FALSE);
  rig_pairs (r, 3, AF_INET);
  memset (sel, 0, sizeof *sel);
  sel->r = r;
  sel->events = events;
  sel->until = until;
  r->to_send = to_send;
  r->only = only;
  r->delay = delay;
  ns_netstack_start_cpu (r->s.stack, 0);
  ns_engine_spawn (r->s.engine, "select", 1, NS_THREAD_USER, 0, selector, sel);
  if (to_send > 0)
    ns_engine_spawn (r->s.engine, "writer", 0, NS_THREAD_USER, delay, sender, r);
  ns_engine_run (r->s.engine, NS_MS (2));
}

/* select(2) sleeps while nothing is readable and wakes when a datagram arrives: it returns
 * the one ready socket in its read set, having slept about as long as the sender waited;
 * the others report nothing. */
START_TEST (test_select_wakes_on_a_datagram)
{
  Sel sel;
  Rig r;

  run_select (&r, &sel, EPOLLIN, NS_TIME_FOREVER, 1, 1, NS_US (100));
  ck_assert_int_eq (sel.ready, 1);
  ck_assert_uint_eq (sel.revents[0], 0);
  ck_assert_uint_eq (sel.revents[1], EPOLLIN);
  ck_assert_uint_eq (sel.revents[2], 0);
  ck_assert_int_ge (sel.returned, NS_US (100));
  ck_assert_int_lt (sel.returned, NS_US (150));
  ck_assert_int_ge (sel.slept, NS_US (90));
  rig_clear (&r);
}
END_TEST

/* With nothing sent, a select with a timeout returns 0 at the timeout plus its timer slack,
 * having slept: fs/select.c select_estimate_accuracy gives 0.1 % of the 500 us, raised to
 * the task's timer_slack_ns (50 us), and schedule_hrtimeout_range's timer fires at the
 * range's end on an idle CPU. */
START_TEST (test_select_times_out)
{
  Sel sel;
  Rig r;

  run_select (&r, &sel, EPOLLIN, NS_US (500), 0, -1, 0);
  ck_assert_int_eq (sel.ready, 0);
  for (guint i = 0; i < 3; i++)
    ck_assert_uint_eq (sel.revents[i], 0);
  ck_assert_int_ge (sel.returned, NS_US (550));
  ck_assert_int_lt (sel.returned, NS_US (570));
  ck_assert_int_ge (sel.slept, NS_US (530));
  rig_clear (&r);
}
END_TEST

/* An idle UDP socket is writable at once (its send buffer is empty): every client socket
 * reports POLLOUT and the select does not sleep. */
START_TEST (test_select_writable_at_once)
{
  Sel sel;
  Rig r;

  run_select (&r, &sel, EPOLLOUT, NS_TIME_FOREVER, 0, -1, 0);
  ck_assert_int_eq (sel.ready, 3);
  for (guint i = 0; i < 3; i++)
    ck_assert_uint_eq (sel.revents[i], EPOLLOUT);
  ck_assert_int_eq (sel.slept, 0);
  ck_assert_int_lt (sel.returned, NS_US (20));
  rig_clear (&r);
}
END_TEST

/* Same set-up, same run: same counters and the same simulated times. */
START_TEST (test_determinism)
{
  NsTime end[2];
  guint64 recv[2], clock[2];

  for (guint k = 0; k < 2; k++) {
    Rig r;
    rig_init (&r, "6.9.0-rc1", NULL, TRUE);
    rig_pairs (&r, 8, AF_INET);
    r.to_send = 300;
    r.to_read = 1000;
    start (&r, 0, TRUE);
    end[k] = ns_engine_run (r.s.engine, NS_MS (3));
    recv[k] = r.s.stack->counters.received;
    clock[k] = (guint64) ns_engine_cpu_now (r.s.engine, 0);
    rig_clear (&r);
  }
  ck_assert_int_eq (end[0], end[1]);
  ck_assert_uint_eq (recv[0], recv[1]);
  ck_assert_uint_eq (clock[0], clock[1]);
}
END_TEST

static Suite *
udp_path_suite (void)
{
  Suite *s = suite_create ("udp-path");
  TCase *tc = tcase_create ("core");

  tcase_add_test (tc, test_deliver_ipv4);
  tcase_add_test (tc, test_deliver_ipv6);
  tcase_add_test (tc, test_conservation);
  tcase_add_test (tc, test_user_copies_by_release);
  tcase_add_test (tc, test_rcvbuf_drops_when_slow);
  tcase_add_test (tc, test_no_drops_when_reader_keeps_up);
  tcase_add_test (tc, test_score_calls_unpatched_v4);
  tcase_add_test (tc, test_score_calls_patched_v4);
  tcase_add_test (tc, test_score_calls_unpatched_v6);
  tcase_add_test (tc, test_softirq_on_sender_cpu);
  tcase_add_test (tc, test_noport);
  tcase_add_test (tc, test_determinism);
  tcase_add_test (tc, test_select_wakes_on_a_datagram);
  tcase_add_test (tc, test_select_times_out);
  tcase_add_test (tc, test_select_writable_at_once);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (udp_path_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
