/* iperf3.c — the workload "iperf3": iperf3 UDP over loopback (client -u -P N -l LEN -b RATE
 * against a local server), the benchmark of seed 000.
 *
 * Threading (attribute threading):
 *   single      iperf3 up to 3.15 (the default): the client and the server are one thread
 *               each, a select() loop over all streams. Client: select over the control
 *               socket and the green-lit stream sockets, then iperf_send: `multisend`
 *               passes (10 when unlimited, 1 with -b) over the streams, one write() per
 *               green stream per pass, iperf_check_throttle after each send with -b, then
 *               the timers (each stream's pacing timer every --pacing-timer, 1 ms, also
 *               re-evaluates its green light; all the client's timers sit in iperf3's
 *               one sorted list, iperf3-timer.c, and each fired one goes back in by a
 *               walk from the head). Server: select over its TCP listener, the
 *               control socket and the stream sockets, one read() per readable stream
 *               (iperf_recv), O_NONBLOCK sockets.
 *   per-stream  iperf3 3.16+ (Dec 2023): one client and one server thread per stream. A
 *               client worker writes while its stream is green and waits for the next
 *               pacing tick when it is not (3.16 and 3.17 spin there instead, esnet/iperf
 *               #1741; 3.18 sleeps until the next send, #1743, and drops --pacing-timer,
 *               #1773: the model is neither exactly — CPU occupancy of a rate-limited
 *               sender differs, its throughput on its own CPU hardly); a server worker
 *               blocks in read() [U: 3.16's exact receive loop; modelled as a blocking
 *               read].
 *
 * Limits as iperf3's where it has them (length 16 to 65507 bytes, MIN/MAX_UDP_BLOCKSIZE,
 * by default the MSS iperf3 reads off its control connection over lo, 32768; multisend
 * to 1000, MAX_BURST, and only with rate 0, the one setting it acts in; the default rate
 * 1048576 bits/s, UDP_RATE) except streams: iperf3 stops at 128 (MAX_STREAMS), the model
 * takes up to 1024 so a sweep of the chain's length can go past it — more than 128 stand
 * for several clients' streams on one server port, in one client loop. Sizes read with
 * K/M suffixes are decimal (iperf3's -l 8K is 8192: write 8KiB). Extra sockets (extra-*)
 * are placed directly in the final table; with extra-bind="exact" and
 * extra-position="tail" that is a table iperf3 could not build in that order (extras
 * bound to 127.0.0.1 before the streams would take their set-up datagrams), but the
 * per-datagram walk is the same.
 *
 * Sockets as iperf3 makes them: the server's UDP "listener" is a socket bound to the
 * wildcard address on the port with SO_REUSEADDR (netannounce; no SO_REUSEPORT), AF_INET6
 * dual-stack when the server is started without -4/-6 (server-family="dual"), AF_INET with
 * server-family="inet". On a stream's first datagram the server connect()s the listener to
 * the client (iperf_udp_accept), which rehashes it onto the exact local address's hash2
 * chain, and opens a fresh listener; after the last stream the listener is closed. So with
 * -P N the exact chain holds N connected sockets, newest at the head, and every datagram's
 * lookup scores all of them (a connected socket does not end the walk). The model builds
 * that final table directly, in that order. Client sockets are connected to the server and
 * write() with the stream's own buffer; the server read()s into its own per-stream buffer.
 *
 * Measuring: the metric is the server's received bytes (iperf3 prints a sender and a
 * receiver line for UDP; the seed does not say which it quoted: the receiver's assumed,
 * the two equal in the model's runs, which drop nothing); kbytes_per_sec is bytes / 1024 per second, as -f K prints. -O (omit) is
 * measure/@warmup and -t is measure/@duration (or the convergence rule): the model runs
 * milliseconds, not -t seconds.
 *
 * Cost of the user-space parts (iperf3's own code, glibc's wrappers and the vDSO clock) is
 * counted in instructions on iperf3 3.12's Debian 12 binary (doc/census/seed000/iperf3.md,
 * comments marked "census"; 3.16+'s per-stream threads keep the 3.12 functions' counts); it
 * is attributed to pseudo-functions named "iperf3:..." so the breakdown shows it, without
 * call/return costs (user code returns are not kernel returns: its calls, returns and PLT
 * jumps are instructions). */
#include "config.h"
#include <string.h>
#include <errno.h>
#include "workload.h"
#include "xml.h"
#include "net/netstack.h"
#include "net/select.h"
#include "net/udp_rx.h"
#include "net/udp_tx.h"
#include "iperf3-timer.h"

/* iperf.h's UDP_RATE: the -b of a UDP test that gives none, 1024 × 1024 bits/s (an explicit
 * "-b 1M" is 10^6: unit_atof_rate is decimal) */
#define IPERF_UDP_RATE "1048576"
/* -l's default for a UDP test. iperf3 since 3.1.5 (iperf_client_api.c, iperf_connect; the
 * same in 3.15) reads the control connection's TCP_MAXSEG after writing the cookie, keeps it
 * when it is 1 to MAX_UDP_BLOCKSIZE (65507), and takes it as the block size when -l is not
 * given; DEFAULT_UDP_BLKSIZE (1460) only when there is none. TCP_MAXSEG on an established
 * socket is tp->mss_cache (net/ipv4/tcp.c, do_tcp_getsockopt), which tcp_sync_mss
 * (tcp_output.c) sets to the path MSS bounded by half the largest window the peer has
 * offered (tcp_bound_to_half_wnd, include/net/tcp.h). Over lo (MTU 65536,
 * drivers/net/loopback.c) the path MSS is 65483 for IPv4 (advmss capped at IPV4_MAX_PMTU
 * 65535 less 20 + 20 of headers, ipv4_default_advmss; less the 12 of the timestamp option)
 * and 65464 for IPv6 (65536 − 40 − 20 − 12). The server's SYN-ACK offers one MSS (its
 * initial window, 65536 from tcp_rmem[1] 131072, rounded down to its MSS), so right after
 * connect() mss_cache is 32741 (IPv4) or 32732 (IPv6); the server's ACK of the cookie
 * offers its window rounded up to the window scale's unit, 65536, and tcp_ack_update_window
 * re-syncs the MSS to 65536 / 2 = 32768 in both families, before iperf3's getsockopt (lo
 * delivers the ACK within the cookie's write()). Measured on Linux 6.18 (both families:
 * 32741/32732 after connect, 32768 after a 37-byte write) and reported by iperf3 3.13 -V on
 * 5.15 ("Control connection MSS 32768", esnet/iperf#1540). Before v4.20 tcp_rmem[1] was
 * 87380 and the window, so the default, smaller: not modelled. */
#define IPERF3_LO_UDP_BLKSIZE 32768
/* The client's timers besides the pacing ones, made at TEST_START by create_client_timers:
 * the test's end (-t plus -O), the stats and the reporter timer (-i). Due at iperf3's
 * defaults, -t 10 s, -O 0 and -i 1 s (the seed's -t 30 -O 2 -i 5), they come after every
 * modelled millisecond; what matters is their place behind the pacing timers, where each
 * re-insert's walk ends, so neither their due times nor create_client_omit_timer's
 * one-shot timer (made with -O, due -O seconds out: behind them too) change a walk. Their
 * procs (the interval reports) are not modelled. */
#define IPERF3_TEST_TIMERS 3
#define IPERF3_DURATION_US G_GINT64_CONSTANT (10000000)
#define IPERF3_INTERVAL_US G_GINT64_CONSTANT (1000000)

typedef enum {
  IPERF_SINGLE,
  IPERF_PER_STREAM
} IperfThreading;

typedef struct _Iperf Iperf;

typedef struct {
  Iperf       *ip;
  guint        index;
  struct file *cfile;          /* client socket */
  struct file *sfile;          /* server socket */
  guchar      *cbuf;           /* client user buffer (simulated memory) */
  guchar      *sbuf;           /* server user buffer */
  guint64      bytes_sent;
  guint64      packet_count;
  gboolean     green;
  NsTime       start;          /* result->start_time_fixed */
} IperfStream;

/* One block of extra sockets: the Nth value of each extra-* attribute (one value stands
 * for every block). */
typedef struct {
  guint    n;            /* extra-sockets */
  guint    connected;    /* extra-connected: the block's first `connected` connect() */
  gboolean reuseport;    /* extra-reuseport */
  gboolean wildcard;     /* extra-bind="wildcard" */
  gboolean head;         /* extra-position="head": bound after the streams' sockets */
} IperfExtraBlock;

struct _Iperf {
  NsMachine     *machine;
  NsEngine      *engine;
  NsNetStack    *stack;
  guint          n_streams;
  gsize          blksize;
  double         rate;         /* bits/s per stream; 0 = unlimited */
  gboolean       ipv6;
  gboolean       server_dual;
  IperfThreading threading;
  NsTime         pacing;
  guint          multisend;
  guint          client_cpu, server_cpu;
  guint16        port;
  IperfStream   *streams;
  struct file   *cctrl, *sctrl;
  struct file   *slisten;      /* the server's TCP listener, in its read set all along */
  struct file  **extra;
  guint          n_extra;      /* the blocks' sockets, in all */
  IperfExtraBlock *blocks;     /* the extra-* attributes' blocks, in their order */
  guint          n_blocks;
  NsPollWqueues *cpwq, *spwq;
  IperfTimers   *timers;       /* the client's timer list (single thread) */
  struct file  **sel_files;    /* select argument arrays by descriptor (client's nfds, then
                                  the server's) */
  guint32       *sel_events, *sel_revents;
  NsNetCounters  mark;
  NsTime         mark_cslept, mark_sslept;
};

#define IPERF_EXTRA_MAX 1024   /* extra sockets, in all */

static const char *const metrics[] = {
  "kbytes_per_sec", "mbits_per_sec", "datagrams_per_sec", "sent_per_sec", "drops_per_sec",
  "client_idle", "server_idle", NULL
};
static const char *const families[] = { "ipv4", "ipv6", NULL };
static const char *const server_families[] = { "dual", "inet", NULL };
static const char *const threadings[] = { "single", "per-stream", NULL };
/* The <workload> attributes it takes. The longest --pacing-timer iperf3 takes is an int
 * of microseconds (which keeps a next tick far inside NsTime for any run that can
 * finish); the extra-* ones are lists, read below. */
static const NsWorkloadAttr iperf3_attributes[] = {
  { "streams", NS_WORKLOAD_ATTR_UINT, "1", "1", "1024",
    .why = "iperf3 itself stops at 128, MAX_STREAMS: more stand for several clients' "
           "streams on one server port",
    .meaning = "-P: the client's UDP streams" },
  { "length", NS_WORKLOAD_ATTR_SIZE, G_STRINGIFY (IPERF3_LO_UDP_BLKSIZE), "16", "65507",
    .why = "a UDP datagram carrying iperf3's header",
    .meaning = "-l: bytes a datagram (the default: iperf3's over lo, its control "
               "connection's MSS)" },
  { "rate", NS_WORKLOAD_ATTR_TEXT, IPERF_UDP_RATE,
    .meaning = "-b: bits/s a stream, such as 1G, 100M, or 0 (unlimited)" },
  { "family", NS_WORKLOAD_ATTR_CHOICE, "ipv4", .choices = families,
    .meaning = "the client's address family (-4, -6)" },
  { "server-family", NS_WORKLOAD_ATTR_CHOICE, "dual", .choices = server_families,
    .meaning = "the server's socket: dual-stack AF_INET6 (iperf3's default) or AF_INET" },
  { "threading", NS_WORKLOAD_ATTR_CHOICE, "single", .choices = threadings,
    .meaning = "one thread for all streams (iperf3 3.15 and older) or one a stream (3.16+)" },
  { "pacing-timer", NS_WORKLOAD_ATTR_TIME, "1ms", "1us", "2147483647us",
    .why = "iperf3's --pacing-timer is an int of microseconds",
    .meaning = "--pacing-timer: the paced client's tick (whole microseconds; with a rate)" },
  { "multisend", NS_WORKLOAD_ATTR_UINT, "10", "1", "1000",
    .meaning = "passes over the streams a loop when unlimited (rate 0)" },
  { "client-cpu", NS_WORKLOAD_ATTR_CPU, "0",
    .meaning = "the client's CPU (per-stream: its first stream's)" },
  { "server-cpu", NS_WORKLOAD_ATTR_CPU, "1",
    .meaning = "the server's CPU (per-stream: its first stream's)" },
  { "port", NS_WORKLOAD_ATTR_UINT, "5201", "1", "65535", .meaning = "the server's port" },
  { "extra-sockets", NS_WORKLOAD_ATTR_TEXT, "0",
    .meaning = "other sockets on the server's port: a count, or a comma-separated count a "
               "block (1024 in all)" },
  { "extra-reuseport", NS_WORKLOAD_ATTR_TEXT, "false",
    .meaning = "the extra sockets set SO_REUSEPORT (true or false, or one a block)" },
  { "extra-bind", NS_WORKLOAD_ATTR_TEXT, "exact",
    .meaning = "the extra sockets bind the server's address or the wildcard (exact or "
               "wildcard, or one a block)" },
  { "extra-position", NS_WORKLOAD_ATTR_TEXT, "tail",
    .meaning = "the extra sockets' place in the port's chain (tail or head, or one a block)" },
  { "extra-connected", NS_WORKLOAD_ATTR_TEXT, "0",
    .meaning = "how many extra sockets are connected (a count, or one a block)" },
  { NULL }
};
static const char *const per_time_metrics[] = {  /* all: per second or fractions of time */
  "kbytes_per_sec", "mbits_per_sec", "datagrams_per_sec", "sent_per_sec", "drops_per_sec",
  "client_idle", "server_idle", NULL
};

/* ---- user-space pieces ---- */

static NS_FUNC (fn_u_send, "iperf3:iperf_udp_send", 0, NS_FRAME_UNKNOWN, NS_FN_EXTERN, 1);
static NS_FUNC (fn_u_recv, "iperf3:iperf_udp_recv", 0, NS_FRAME_UNKNOWN, NS_FN_EXTERN, 1);
static NS_FUNC (fn_u_loop, "iperf3:main_loop", 0, NS_FRAME_UNKNOWN, NS_FN_EXTERN, 1);
static NS_FUNC (fn_u_clock, "iperf3:clock_gettime(vDSO)", 0, NS_FRAME_UNKNOWN, NS_FN_EXTERN, 1);
static NS_FUNC (fn_u_timers, "iperf3:tmr_run", 0, NS_FRAME_UNKNOWN, NS_FN_EXTERN, 1);
/* glibc's select() wrapper: the system call's user-side entry and exit */
static NS_FUNC (fn_u_select, "iperf3:select(libc)", 0, NS_FRAME_UNKNOWN, NS_FN_EXTERN, 1);

/* Attributes t's following costs to the user-space pseudo-function f (no call cost). */
static void
user_enter (NsThread *t, NsFunc *f)
{
  ns_thread_push_func (t, f);
}

/* Ends the user-space attribution user_enter began. */
static void
user_leave (NsThread *t)
{
  ns_thread_pop_func (t);
}

/* User-space instruction counts. census: iperf3.md (doc/census/seed000/): iperf3
 * 3.12-1+deb12u2's libiperf.so.0.0.0, Debian 12's glibc 2.36 and the 6.1 vDSO, counted on
 * seed 000's path (-u, -l 8920, 32-bit UDP counters, no -J, no debug). A call instruction
 * counts in its caller; a PLT stub's `jmp *GOT` (1: libiperf calls its own exported
 * functions and glibc's through the PLT) with the function it leads to. User space pays no
 * return thunk and no retpoline: its calls and returns are instructions (ns_insns), as
 * the model charges all user-space work. */

/* iperf_time_now via its PLT stub (1) and its 23 (the call of clock_gettime, the
 * microsecond division by multiply), clock_gettime@plt (1), glibc's clock_gettime (11:
 * the vDSO pointer from _rtld_global_ro, the indirect call, the return test) and the
 * vDSO's __vdso_clock_gettime (51: CLOCK_MONOTONIC, VDSO_CLOCKMODE_TSC, seqcount even,
 * the cycles past cycle_last, no second carry) with __arch_get_hw_counter (7: RDTSCP and
 * its padding NOP, the shift and or): 94, of which the RDTSCP is ns_rdtsc_ordered */
#define IPERF3_CLOCK_INSNS        93
/* FD_ISSET/FD_SET/FD_CLR under _FORTIFY_SOURCE: __fdelt_chk@plt (1) and glibc's
 * __fdelt_chk (5: the bound test, the shift, the return) */
#define IPERF3_FDELT_INSNS         6
/* iperf_check_throttle with -b: 53 of its own (test->done, the rate, the bits-per-second
 * double division, the green light and FD_SET or FD_CLR), iperf_time_diff 38 (its PLT
 * stub 1, 7, iperf_time_compare 1 + 6 with the start's seconds before now's, 23 with no
 * microsecond borrow; +5 with one), iperf_time_in_secs 10 (with its stub) and
 * __fdelt_chk 6; the caller's PLT stub (1) is the caller's. The path without a borrow is
 * charged always: over the seed's 30-second runs now's microseconds lie below the
 * start's on about half the calls (+2.5 instructions a datagram sent paced, 0.02 % of
 * its ~15900), a phase the model's millisecond windows, whose times begin at 0, cannot
 * reproduce (iperf3-timer.c's compares, between timers close in time, take the branch
 * their times take). */
#define IPERF3_THROTTLE_INSNS    107
/* iperf_check_throttle without -b: the done and rate tests and out (19) */
#define IPERF3_THROTTLE_IDLE_INSNS 19

/* iperf_time_now → clock_gettime(CLOCK_MONOTONIC) in the vDSO (census: IPERF3_CLOCK_INSNS)
 * around one TSC read, ordered (the vDSO's rdtsc_ordered is RDTSCP on Zen 3): it waits for
 * older work. */
static NsTime
iperf_time_now (NsThread *t)
{
  user_enter (t, &fn_u_clock);
  ns_insns (t, IPERF3_CLOCK_INSNS);
  ns_rdtsc_ordered (t);
  user_leave (t);
  return ns_thread_now (t);
}

/* iperf_check_throttle: green while the stream's average rate since its start is below
 * the target; without a rate it returns at once (iperf3 3.12 calls it then too, after
 * iperf_send's passes). census: IPERF3_THROTTLE_INSNS, IPERF3_THROTTLE_IDLE_INSNS; green
 * and red cost the same (FD_SET and FD_CLR are 11 instructions each). */
static void
iperf_check_throttle (NsThread *t, IperfStream *sp, NsTime now)
{
  double seconds;

  if (sp->ip->rate == 0) {
    ns_insns (t, IPERF3_THROTTLE_IDLE_INSNS);
    return;
  }
  ns_insns (t, IPERF3_THROTTLE_INSNS);
  seconds = (double) (now - sp->start) / 1e12;
  sp->green = seconds <= 0 || (double) sp->bytes_sent * 8.0 / seconds < sp->ip->rate;
}

/* iperf_udp_send: timestamp and sequence number into the buffer, write(). census, 92
 * besides the clock: 10 to the clock's call; then 24 (packet_count, the 12-byte header of
 * the 32-bit counters: sec, usec and count byte-swapped, the call of Nwrite), Nwrite@plt
 * 1, Nwrite 16 to its call of write, write@plt 1 and glibc's write 4 (the
 * __libc_single_threaded test, the number, syscall): 46 before the system call; after it
 * glibc's 3 (the error test, ret), Nwrite's 13 (the whole length written, out) and 20 of
 * its own (the byte counters, the debug test, the canary): 36. */
static gssize
iperf_udp_send (NsThread *t, IperfStream *sp)
{
  Iperf *ip = sp->ip;
  gssize r;

  user_enter (t, &fn_u_send);
  ns_insns (t, 10);
  iperf_time_now (t);
  ns_insns (t, 46);
  sp->packet_count++;
  ns_store (t, sp->cbuf, 12);
  r = ns_sys_write (t, ip->stack, sp->cfile, sp->cbuf, ip->blksize);
  ns_insns (t, 36);
  if (r > 0)
    sp->bytes_sent += (guint64) r;
  user_leave (t);
  return r;
}

/* iperf_udp_recv: read() one datagram, sequence/loss/jitter bookkeeping. census, 187
 * besides the clock: 15 to the call of Nread, Nread@plt 1, Nread 15 to its call of read,
 * read@plt 1, glibc's read 4 (36 before the system call); after it glibc's 3, Nread's 16
 * (the whole length read), then 40 of its own to the clock's call (state TEST_RUNNING,
 * the byte counters, the 32-bit header decoded by bswap, no debug, the sequence number
 * the next expected one: no loss, no out-of-order); after the clock 4, iperf_time_diff 49
 * (its stub 1, 7, iperf_time_compare 1 + 17 — arrival and send time in one second, the
 * arrival's microseconds later — 23 with no borrow), 2, iperf_time_in_secs 10 and 27 (the
 * jitter in doubles, a transit time not shorter than the last: +1 when it is, the
 * canary): 151 after the system call besides the clock. */
static gssize
iperf_udp_recv (NsThread *t, IperfStream *sp)
{
  Iperf *ip = sp->ip;
  gssize r;

  user_enter (t, &fn_u_recv);
  ns_insns (t, 36);
  r = ns_sys_read (t, ip->stack, sp->sfile, sp->sbuf, ip->blksize);
  ns_insns (t, 19);
  if (r > 0) {
    ns_load (t, sp->sbuf, 12);
    ns_insns (t, 40);
    iperf_time_now (t);
    ns_insns (t, 92);
  }
  user_leave (t);
  return r;
}

/* ---- iperf3 ≤ 3.15: one thread per side ---- */

/* The earliest pacing tick after now (stream timers fire every pacing from their start). */
static NsTime
next_tick (Iperf *ip, NsTime now)
{
  NsTime start = ip->streams[0].start;

  return start + ((now - start) / ip->pacing + 1) * ip->pacing;
}

/* iperf_send (3.12): multisend passes over the streams, then with no rate the clock and
 * iperf_check_throttle for every sending stream, then FD_CLR of each stream select
 * reported writable. A green stream is in the write set and writable (its UDP socket's
 * send buffer is freed at the loopback transmit); a red one was FD_CLR'd by
 * iperf_check_throttle. census (iperf3.md), per call: 24 to the first pass with -b (27
 * without, the multisend from the test), both with the caller's PLT stub; a pass's head:
 * with -b the clock's call (4), the clock, 6; without, 7; per stream, red 6, green 26 to
 * the indirect call of sp->snd (the green light, the sender test, FD_ISSET's
 * __fdelt_chk; without -b 33, the bytes and blocks limits, both 0), after it 14 to
 * iperf_check_throttle's stub (the byte and block counts) and 6 after, or 15 without -b;
 * a pass's end 5 (3 when no stream sent); after the passes 9 with -b, without 5, the
 * clock, 3 and 7 + 4 a sending stream around iperf_check_throttle, 7; FD_CLR 31 a stream
 * in the write set (two __fdelt_chk), 17 one not; out 12. */
static void
iperf_send (NsThread *t, Iperf *ip)
{
  gboolean paced = ip->rate != 0;
  guint n_set = 0;

  for (guint i = 0; i < ip->n_streams; i++)
    n_set += ip->streams[i].green;
  ns_insns (t, paced ? 25 : 27);
  for (guint m = 0; m < ip->multisend; m++) {
    gboolean active = FALSE;
    NsTime now = 0;
    if (paced) {
      ns_insns (t, 4);
      now = iperf_time_now (t);
      ns_insns (t, 6);
    } else {
      ns_insns (t, 7);
    }
    for (guint i = 0; i < ip->n_streams; i++) {
      IperfStream *sp = &ip->streams[i];
      if (!sp->green) {
        ns_insns (t, 6);
        continue;
      }
      ns_insns (t, paced ? 26 : 33);
      if (iperf_udp_send (t, sp) < 0)
        continue;
      active = TRUE;
      if (paced) {
        ns_insns (t, 14);
        iperf_check_throttle (t, sp, now);
        ns_insns (t, 6);
      } else {
        ns_insns (t, 15);
      }
    }
    ns_insns (t, active ? 5 : 3);
    if (!active)
      break;
  }
  if (paced) {
    ns_insns (t, 9);
  } else {
    NsTime now;
    ns_insns (t, 5);
    now = iperf_time_now (t);
    ns_insns (t, 3);
    for (guint i = 0; i < ip->n_streams; i++) {
      ns_insns (t, 7);
      iperf_check_throttle (t, &ip->streams[i], now);
      ns_insns (t, 4);
    }
    ns_insns (t, 7);
  }
  ns_insns (t, 31 * n_set + 17 * (ip->n_streams - n_set) + 12);
}

/* send_timer_proc: a pacing timer re-evaluates its stream's green light. census: a tail
 * jump to iperf_check_throttle's PLT stub and the stub's jump (2). The function has no
 * symbol in the stripped library: it is the code between iperf_check_throttle and
 * iperf_send, a lone `jmp iperf_check_throttle@plt` with the arguments as received. */
static void
send_timer_proc (NsThread *t, gpointer client_data, NsTime now)
{
  ns_insns (t, 2);
  iperf_check_throttle (t, client_data, now);
}

/* TEST_START: create_client_timers, then iperf_create_send_timers (a pacing timer per
 * stream with -b, each made at its own clock reading). */
static void
create_client_timers (NsThread *t, Iperf *ip)
{
  NsTime now;

  user_enter (t, &fn_u_timers);
  now = iperf_time_now (t);
  tmr_create (t, ip->timers, now, NULL, NULL, IPERF3_DURATION_US, FALSE);
  tmr_create (t, ip->timers, now, NULL, NULL, IPERF3_INTERVAL_US, TRUE);
  tmr_create (t, ip->timers, now, NULL, NULL, IPERF3_INTERVAL_US, TRUE);
  for (guint i = 0; i < ip->n_streams && ip->rate != 0; i++)
    tmr_create (t, ip->timers, iperf_time_now (t), send_timer_proc, &ip->streams[i],
                ip->pacing / NS_US (1), TRUE);
  user_leave (t);
}

/* tmr_run after each iperf_send: the due timers run and go back into the sorted list.
 * census: the loop's 5 after iperf_send to the clock's call, 2 to tmr_run's (its stub is
 * tmr_run's). */
static void
run_timers (NsThread *t, Iperf *ip)
{
  NsTime now;

  ns_insns (t, 5);
  now = iperf_time_now (t);
  ns_insns (t, 2);
  user_enter (t, &fn_u_timers);
  tmr_run (t, ip->timers, now);
  user_leave (t);
}

/* iperf3 3.15's descriptors: each socket and each stream's mkstemp buffer takes the lowest
 * free number, and iperf_new_stream keeps the buffer's fd open (esnet/iperf
 * src/iperf_api.c), so the select sets have holes. Client: control connection 3, stream
 * i's socket 4 + 2i, its buffer 5 + 2i; max_fd is the last stream's socket. Server: TCP
 * listener 3, control 4, the first UDP listener 5, which becomes stream 0's socket;
 * iperf_udp_accept opens the next listener before iperf_new_stream opens the buffer, so
 * stream i >= 1's socket is 2i + 4 and its buffer 2i + 7 (stream 0's 7); the last
 * listener, 2n + 4, is closed once every stream is accepted but max_fd stays there. */
static guint
client_stream_fd (guint i)
{
  return 4 + 2 * i;
}

static guint
server_stream_fd (guint i)
{
  return i == 0 ? 5 : 2 * i + 4;
}

#define IPERF_CLIENT_CTRL_FD   3
#define IPERF_SERVER_LISTEN_FD 3
#define IPERF_SERVER_CTRL_FD   4
/* select's nfds (max_fd + 1) on each side for n streams */
#define IPERF_CLIENT_NFDS(n)   (2 * (n) + 3)
#define IPERF_SERVER_NFDS(n)   (2 * (n) + 5)

/* select() from the main loop through glibc's wrapper, whose frame takes the system
 * call's user-side entry and exit (as perf shows them, under the loop). census: select@plt
 * 1 and glibc 2.36's select 80 with a timeout (both sides pass one): the timeval's range
 * tests and its conversion to a timespec (tv_usec × 1000, the overflow test), the
 * __libc_single_threaded test, the pselect6 system call (glibc 2.36 makes select() a
 * pselect6 with a NULL sigmask: the kernel runs do_pselect, not kern_select), and after it
 * the error test and the remaining time back to a timeval (a division by multiply): 54
 * through the syscall instruction, the stub's included, 27 after it. */
static gint
iperf_select (NsThread *t, Iperf *ip, NsPollWqueues *pwq, struct file *const *files,
              const guint32 *events, guint nfds, guint32 *revents, NsTime until)
{
  gint ret;

  user_enter (t, &fn_u_select);
  ns_insns (t, 54);
  ret = ns_sys_select (t, ip->stack, pwq, files, events, nfds, revents, until);
  ns_insns (t, 27);
  user_leave (t);
  return ret;
}

/* The client's main loop (iperf_run_client, TEST_RUNNING). */
static void
client_single_thread (NsThread *t, gpointer data)
{
  Iperf *ip = data;
  struct file **files = ip->sel_files;
  guint32 *events = ip->sel_events, *revents = ip->sel_revents;

  for (guint i = 0; i < ip->n_streams; i++)
    ip->streams[i].start = ns_thread_now (t);
  create_client_timers (t, ip);
  for (;;) {
    guint nfds = IPERF_CLIENT_NFDS (ip->n_streams);
    NsTime until;
    user_enter (t, &fn_u_loop);
    /* census (iperf3.md, iperf_run_client): 34 to the clock's call (the read and write
     * sets' 2 × 128-byte copies in 16 SSE moves each), then 2 to tmr_timeout's call, 11 to
     * select's (the state and rcv-timeout tests, the arguments; exceptfds NULL) */
    ns_insns (t, 34);
    iperf_time_now (t);
    ns_insns (t, 2);
    until = tmr_timeout (t, ip->timers);
    ns_insns (t, 11);
    memset (files, 0, nfds * sizeof *files);
    files[IPERF_CLIENT_CTRL_FD] = ip->cctrl;
    events[IPERF_CLIENT_CTRL_FD] = EPOLLIN;
    for (guint i = 0; i < ip->n_streams; i++)
      if (ip->streams[i].green) {       /* a throttled stream is FD_CLR'd from the set */
        files[client_stream_fd (i)] = ip->streams[i].cfile;
        events[client_stream_fd (i)] = EPOLLOUT;
      }
    iperf_select (t, ip, ip->cpwq, files, events, nfds, revents, until);
    /* census: select's result > 0 (7), FD_ISSET of the control socket (__fdelt_chk 6: not
     * set), 19 to iperf_send's call (TEST_RUNNING, UDP, mode SENDER) */
    ns_insns (t, 7 + IPERF3_FDELT_INSNS + 19);
    iperf_send (t, ip);
    run_timers (t, ip);
    /* census: not omitting or past -O, not done, no -n or -k: 19 back to the loop's top */
    ns_insns (t, 19);
    user_leave (t);
  }
}

/* The server's main loop (iperf_run_server, TEST_RUNNING): the clock for tmr_timeout,
 * select over its read set in descriptor order — the TCP listener (kept there for the
 * whole test: iperf3 closes only the UDP listener once every stream is accepted), the
 * control connection, the streams — then, when select returned > 0, the clock again
 * (iperf_time_now(&last_receive_time), unconditional there: the --rcv-timeout
 * watchdog's last receive, read at every such pass whether or not the option was given;
 * esnet/iperf src/iperf_server_api.c before 3.16's threads) and one read per readable
 * stream (iperf_recv). */
static void
server_single_thread (NsThread *t, gpointer data)
{
  Iperf *ip = data;
  guint n = IPERF_SERVER_NFDS (ip->n_streams);
  guint off = IPERF_CLIENT_NFDS (ip->n_streams);
  struct file **files = ip->sel_files + off;
  guint32 *events = ip->sel_events + off;
  guint32 *revents = ip->sel_revents + off;

  files[IPERF_SERVER_LISTEN_FD] = ip->slisten;
  events[IPERF_SERVER_LISTEN_FD] = EPOLLIN;
  files[IPERF_SERVER_CTRL_FD] = ip->sctrl;
  events[IPERF_SERVER_CTRL_FD] = EPOLLIN;
  for (guint i = 0; i < ip->n_streams; i++) {
    files[server_stream_fd (i)] = ip->streams[i].sfile;
    events[server_stream_fd (i)] = EPOLLIN;
  }
  for (;;) {
    user_enter (t, &fn_u_loop);
    /* census (iperf3.md, iperf_run_server): 40 to the clock's call (the bitrate-limit
     * test, the sets' copies), 2 to tmr_timeout's, whose list the model does not keep on
     * this side: census 100, the stats timer's due time ahead in the same second (its
     * PLT stub, 17, iperf_time_diff 49, 7, iperf_time_in_usecs 6, 20), then 25 to
     * select's call (not IPERF_START, mode not SENDER: the timeout in µs against
     * --rcv-timeout's default, used_timeout the shorter, the timer's). The model's select
     * waits without that timeout: the stats timer fires once a second. */
    ns_insns (t, 40);
    iperf_time_now (t);
    ns_insns (t, 2 + 100 + 25);
    if (iperf_select (t, ip, ip->spwq, files, events, n, revents, NS_TIME_FOREVER) <= 0) {
      ns_insns (t, 10);
      user_leave (t);
      continue;
    }
    /* census: 6 to the clock's call (last_receive_time), then FD_ISSET of the TCP
     * listener and of the control socket (2 + 9 and two __fdelt_chk, neither set), 19 to
     * iperf_recv's call (TEST_RUNNING, mode RECEIVER), its stub and its 12 to the walk */
    ns_insns (t, 6);
    iperf_time_now (t);             /* last_receive_time */
    ns_insns (t, 2 + 9 + 2 * IPERF3_FDELT_INSNS + 19 + 1 + 12);
    for (guint i = 0; i < ip->n_streams; i++) {
      /* census, iperf_recv's walk: 2 + __fdelt_chk + 9 a stream not readable; a
       * readable one 2 + __fdelt_chk + 11 to the indirect call of sp->rcv (not a
       * sender), after it 11 (bytes and blocks received), FD_CLR's __fdelt_chk and 9 */
      if (revents[server_stream_fd (i)]) {
        ns_insns (t, 2 + IPERF3_FDELT_INSNS + 11);
        iperf_udp_recv (t, &ip->streams[i]);
        ns_insns (t, 11 + IPERF3_FDELT_INSNS + 9);
      } else {
        ns_insns (t, 2 + IPERF3_FDELT_INSNS + 9);
      }
    }
    /* census: iperf_recv's return (7), then 10: the timeout not zero, so no tmr_run
     * (the server runs its timers only after a select that timed out or polled), back
     * to the loop's top */
    ns_insns (t, 7 + 10);
    user_leave (t);
  }
}

/* ---- iperf3 3.16+: a thread per stream and side ---- */

/* A 3.16+ client worker: writes while its stream is green, else sleeps to the next
 * pacing tick and re-checks the throttle. */
static void
client_stream_thread (NsThread *t, gpointer data)
{
  IperfStream *sp = data;
  Iperf *ip = sp->ip;

  sp->start = ns_thread_now (t);
  for (;;) {
    if (!sp->green) {
      /* red: the main thread's pacing timer turns it green again at the next tick */
      ns_thread_sleep_until (t, next_tick (ip, ns_thread_now (t)));
      iperf_check_throttle (t, sp, iperf_time_now (t));
      continue;
    }
    user_enter (t, &fn_u_loop);
    for (guint m = 0; m < ip->multisend && sp->green; m++) {
      NsTime now = ip->rate != 0 ? iperf_time_now (t) : 0;
      iperf_udp_send (t, sp);
      if (ip->rate != 0)            /* as before the census: 3.16 is not counted */
        iperf_check_throttle (t, sp, now);
    }
    user_leave (t);
  }
}

/* A 3.16+ server worker: a blocking read() of its stream, forever. */
static void
server_stream_thread (NsThread *t, gpointer data)
{
  IperfStream *sp = data;

  for (;;) {
    user_enter (t, &fn_u_loop);
    ns_insns (t, 10);
    user_leave (t);
    iperf_udp_recv (t, sp);
  }
}

/* ---- set-up ---- */

/* The sockaddr of family for the loopback address and port (v4-mapped for a dual-stack
 * socket talking IPv4). */
static gint
loopback_addr (struct sockaddr_storage *ss, gint family, gboolean v4mapped, guint16 port)
{
  memset (ss, 0, sizeof *ss);
  if (family == AF_INET) {
    struct sockaddr_in *in = (struct sockaddr_in *) ss;
    in->sin_family = AF_INET;
    in->sin_port = GUINT16_TO_BE (port);
    in->sin_addr.s_addr = GUINT32_TO_BE (0x7f000001);
    return sizeof *in;
  } else {
    struct sockaddr_in6 *in6 = (struct sockaddr_in6 *) ss;
    in6->sin6_family = AF_INET6;
    in6->sin6_port = GUINT16_TO_BE (port);
    if (v4mapped) {
      in6->sin6_addr.s6_addr[10] = 0xff;
      in6->sin6_addr.s6_addr[11] = 0xff;
      in6->sin6_addr.s6_addr[12] = 127;
      in6->sin6_addr.s6_addr[15] = 1;
    } else {
      in6->sin6_addr.s6_addr[15] = 1;
    }
    return sizeof *in6;
  }
}

/* The wildcard address of family on port. */
static gint
wildcard_addr (struct sockaddr_storage *ss, gint family, guint16 port)
{
  memset (ss, 0, sizeof *ss);
  if (family == AF_INET) {
    struct sockaddr_in *in = (struct sockaddr_in *) ss;
    in->sin_family = AF_INET;
    in->sin_port = GUINT16_TO_BE (port);
    return sizeof *in;
  } else {
    struct sockaddr_in6 *in6 = (struct sockaddr_in6 *) ss;
    in6->sin6_family = AF_INET6;
    in6->sin6_port = GUINT16_TO_BE (port);
    return sizeof *in6;
  }
}

/* The local-side family of the server's sockets. */
static gint
server_family (const Iperf *ip)
{
  return ip->server_dual || ip->ipv6 ? AF_INET6 : AF_INET;
}

/* The peer port extra socket i connects to: the discard port (9) and up, skipping the
 * server's, so each connected extra has its own peer and none is a client (those sit on
 * ephemeral ports, 32768 and up). */
static guint16
extra_peer_port (const Iperf *ip, guint i)
{
  guint port = 9 + i;

  return (guint16) (port >= ip->port ? port + 1 : port);
}

/* The sockets of extra block b, bound to the server address and port (what-if studies),
 * numbered from *next on: the block's first `connected` then connect() to a peer of their
 * own on the loopback address (a reuseport group with connected members:
 * reuseport_has_conns), the rest stay unconnected. */
static gboolean
make_extra_sockets (Iperf *ip, const IperfExtraBlock *b, guint *next, GError **error,
                    const NsScenario *sc)
{
  gint family = server_family (ip);
  gboolean v4mapped = !ip->ipv6 && family == AF_INET6;

  for (guint k = 0; k < b->n; k++) {
    guint i = (*next)++;
    struct sockaddr_storage ss;
    struct file *f = ns_netstack_socket_on (ip->stack, family, TRUE, ip->server_cpu);
    struct sock *sk = ns_file_sock (f);
    gint len = b->wildcard ? wildcard_addr (&ss, family, ip->port)
                           : loopback_addr (&ss, family, v4mapped, ip->port);
    gint err;
    udp_sock_set_reuseaddr (sk, TRUE);
    udp_sock_set_reuseport (sk, b->reuseport);
    err = udp_sock_bind (sk, (struct sockaddr *) &ss, len);
    if (err != 0)
      goto bind_failed;
    ip->extra[i] = f;
    if (k >= b->connected)
      continue;
    len = loopback_addr (&ss, family, v4mapped, extra_peer_port (ip, i));
    err = ns_netstack_connect (ip->stack, f, (struct sockaddr *) &ss, len);
    if (err != 0)
      goto connect_failed;
    continue;
bind_failed:
    ns_xml_error (sc, sc->workload, error, "extra socket %u: bind() failed with errno %d",
                  i, -err);
    return FALSE;
connect_failed:
    ns_xml_error (sc, sc->workload, error, "extra socket %u: connect() failed with errno %d",
                  i, -err);
    return FALSE;
  }
  return TRUE;
}

/* The extra blocks whose position is head (or tail), each in turn. */
static gboolean
make_extra_blocks (Iperf *ip, gboolean head, guint *next, GError **error,
                   const NsScenario *sc)
{
  for (guint b = 0; b < ip->n_blocks; b++)
    if (ip->blocks[b].head == head && !make_extra_sockets (ip, &ip->blocks[b], next, error, sc))
      return FALSE;
  return TRUE;
}

/* Each stream's user buffers, as iperf_new_stream makes them: blksize bytes of a
 * temporary file mmap'ed by each side, so page-aligned user memory apart from the kernel's
 * objects. Mapped after every socket exists, so the sockets lie together as in their slab
 * caches whatever the datagram length (interleaved with the buffers, the sockets' stride
 * grew with -l, and one 64-byte window of lengths stacked them in the same cache sets). */
static void
map_stream_buffers (Iperf *ip)
{
  NsArena *arena = ns_machine_arena (ip->machine);
  gsize bytes = ((gsize) ip->blksize + 4095) & ~(gsize) 4095;

  for (guint i = 0; i < ip->n_streams; i++) {
    ip->streams[i].cbuf = ns_arena_alloc (arena, bytes, 4096);
    ip->streams[i].sbuf = ns_arena_alloc (arena, bytes, 4096);
  }
}

/* The streams: client sockets connected to the server; server listeners (SO_REUSEADDR,
 * wildcard) connected back to each client, as iperf_udp_accept does. */
static gboolean
make_streams (Iperf *ip, gsl_rng *rng, GError **error, const NsScenario *sc)
{
  gint cfamily = ip->ipv6 ? AF_INET6 : AF_INET;
  gint sfamily = server_family (ip);

  for (guint i = 0; i < ip->n_streams; i++) {
    IperfStream *sp = &ip->streams[i];
    struct sockaddr_storage ss;
    struct sock *csk, *ssk;
    gint len, err;

    sp->ip = ip;
    sp->index = i;
    sp->green = TRUE;
    /* client: socket, connect; the autobind picks a random port of
     * net.ipv4.ip_local_port_range (32768-60999), as udp_lib_get_port does (bound here
     * explicitly from the workload's random stream so repetitions differ). iperf3's server
     * listener holds the test port before any stream socket exists (netannounce in
     * iperf_exchange_parameters), so the draw skips it as the autobind would; the model
     * binds each listener after its stream's client socket */
    sp->cfile = ns_netstack_socket_on (ip->stack, cfamily, FALSE, ip->client_cpu);
    do {
      guint16 port = ns_netstack_ephemeral_port (rng, ip->port);
      len = wildcard_addr (&ss, cfamily, port);
      err = udp_sock_bind (ns_file_sock (sp->cfile), (struct sockaddr *) &ss, len);
    } while (err == -EADDRINUSE);
    if (err != 0)
      goto failed;
    len = loopback_addr (&ss, cfamily, FALSE, ip->port);
    err = ns_netstack_connect (ip->stack, sp->cfile, (struct sockaddr *) &ss, len);
    if (err != 0)
      goto failed;
    csk = ns_file_sock (sp->cfile);
    /* server: a fresh listener on the wildcard address, then connect() to the client */
    sp->sfile = ns_netstack_socket_on (ip->stack, sfamily, ip->threading == IPERF_SINGLE,
                                       ip->server_cpu);
    ssk = ns_file_sock (sp->sfile);
    udp_sock_set_reuseaddr (ssk, TRUE);
    len = wildcard_addr (&ss, sfamily, ip->port);
    err = udp_sock_bind (ssk, (struct sockaddr *) &ss, len);
    if (err != 0)
      goto failed;
    len = loopback_addr (&ss, sfamily, !ip->ipv6 && sfamily == AF_INET6, csk->sk_num);
    err = ns_netstack_connect (ip->stack, sp->sfile, (struct sockaddr *) &ss, len);
    if (err != 0)
      goto failed;
    continue;
failed:
    ns_xml_error (sc, sc->workload, error, "stream %u: socket set-up failed with errno %d",
                  i, -err);
    return FALSE;
  }
  return TRUE;
}

/* Spawns the threads of the chosen threading model. */
static void
spawn_threads (Iperf *ip)
{
  NsNetStack *s = ip->stack;

  if (ip->threading == IPERF_SINGLE) {
    guint n = ip->n_streams + 1;
    guint nfds = IPERF_CLIENT_NFDS (ip->n_streams) + IPERF_SERVER_NFDS (ip->n_streams);
    ip->cpwq = ns_poll_wqueues_new (s, n + 1);
    ip->spwq = ns_poll_wqueues_new (s, n + 2);
    ip->sel_files = g_new0 (struct file *, nfds);
    ip->sel_events = g_new0 (guint32, nfds);
    ip->sel_revents = g_new0 (guint32, nfds);
    ip->timers = iperf_timers_new (ip->machine, ip->n_streams + IPERF3_TEST_TIMERS);
    ns_netstack_start_cpu (s, ip->client_cpu);
    ns_engine_spawn (ip->engine, "iperf3-server", ip->server_cpu, NS_THREAD_USER, 0,
                     server_single_thread, ip);
    ns_engine_spawn (ip->engine, "iperf3-client", ip->client_cpu, NS_THREAD_USER, 0,
                     client_single_thread, ip);
    return;
  }
  for (guint i = 0; i < ip->n_streams; i++) {
    g_autofree char *sname = g_strdup_printf ("iperf3-server/%u", i);
    g_autofree char *cname = g_strdup_printf ("iperf3-client/%u", i);
    ns_netstack_start_cpu (s, ip->client_cpu + i);
    ns_engine_spawn (ip->engine, sname, ip->server_cpu + i, NS_THREAD_USER, 0,
                     server_stream_thread, &ip->streams[i]);
    ns_engine_spawn (ip->engine, cname, ip->client_cpu + i, NS_THREAD_USER, 0,
                     client_stream_thread, &ip->streams[i]);
  }
}

/* The first attribute of the extra sockets' written on w (not defaulted), or NULL: with
 * extra-sockets 0 any of them would change nothing. */
static const char *
extra_knob_written (xmlNodePtr w)
{
  static const char *const knobs[] = {
    "extra-reuseport", "extra-bind", "extra-position", "extra-connected", NULL
  };

  for (guint i = 0; knobs[i] != NULL; i++)
    if (xmlHasProp (w, BAD_CAST knobs[i]) != NULL)
      return knobs[i];
  return NULL;
}

/* length, as -l: iperf3's unit_atoi reads "8K" as 8192 bytes (k/K, m/M, g/G are powers of
 * 1024), netsim's sizes read K as 1000; an iperf3-style suffix is refused with both
 * readings rather than silently taken as the other. */
static gboolean
read_length (const NsScenario *sc, xmlNodePtr w, guint64 *length, GError **error)
{
  g_autofree char *text = NULL;
  gsize n;

  text = ns_xml_prop (w, "length");
  n = text != NULL ? strlen (text) : 0;
  if (n > 1 && text[n - 1] == 'B')
    n--;                              /* KB, MB, GB: netsim's powers of 1000 too */
  if (n > 1 && strchr ("kKmMgG", text[n - 1]) != NULL && g_ascii_isdigit (text[n - 2]))
    goto ambiguous_unit;
  return ns_workload_attr_uint (sc, iperf3_attributes, "length", length, error);

/* ERRORS */
ambiguous_unit:
  ns_xml_error_attr (sc, w, "length", error, "attribute 'length': '%s' is ambiguous: iperf3's "
                     "-l reads K, M and G as powers of 1024 (-l 8K is 8192 bytes), netsim's "
                     "sizes as powers of 1000; write the bytes (8192) or KiB (8KiB)", text);
  return FALSE;
}

/* Reads and checks the rate (-b), multisend and pacing-timer attributes into ip: how the
 * client paces its sends. */
static gboolean
read_pacing (Iperf *ip, const NsScenario *sc, xmlNodePtr w, GError **error)
{
  g_autofree char *rate = NULL;
  guint64 multisend;

  if (!ns_workload_attr_text (sc, iperf3_attributes, "rate", &rate, error) ||
      !ns_workload_attr_time (sc, iperf3_attributes, "pacing-timer", &ip->pacing, error) ||
      !ns_workload_attr_uint (sc, iperf3_attributes, "multisend", &multisend, error))
    return FALSE;
  if (!ns_parse_rate (rate, &ip->rate))
    goto bad_rate;
  if (xmlHasProp (w, BAD_CAST "multisend") != NULL && ip->rate != 0)
    goto paced_multisend;
  if (ip->pacing % NS_US (1) != 0)
    goto bad_pacing;
  if (xmlHasProp (w, BAD_CAST "pacing-timer") != NULL && ip->rate == 0)
    goto unpaced_pacing;
  /* iperf_send: burst 0 → multisend passes when unlimited, one pass with -b (an explicit
   * multisend with a rate is refused above: it could not take effect) */
  ip->multisend = ip->rate == 0 ? (guint) multisend : 1;
  return TRUE;

/* ERRORS */
bad_rate:
  ns_xml_error_attr (sc, w, "rate", error, "attribute 'rate': expected a rate in bits/s "
                     "such as 1G, 100M or 0 (unlimited), got '%s'", rate);
  return FALSE;
paced_multisend:
  ns_xml_error_blame (sc, w, (NsXmlBlame) { .attrs = { "multisend", "rate" } }, error,
                      "attribute 'multisend' (%" G_GUINT64_FORMAT ") cannot take effect with "
                      "attribute 'rate' ('%s'): iperf3 makes one pass over the streams a loop "
                      "when paced (iperf_send makes multisend passes with -b 0 only); give "
                      "rate=\"0\" or leave multisend out", multisend, rate);
  return FALSE;
bad_pacing:
  ns_xml_error_attr (sc, w, "pacing-timer", error, "attribute 'pacing-timer': expected whole "
                     "microseconds from 1us to 2147483647us (iperf3's --pacing-timer is an int "
                     "of microseconds)");
  return FALSE;
unpaced_pacing:
  ns_xml_error_blame (sc, w, (NsXmlBlame) { .attrs = { "pacing-timer", "rate" } }, error,
                      "attribute 'pacing-timer' cannot take effect with attribute 'rate' "
                      "('%s'): unlimited (-b 0) streams stay green and iperf3 makes no pacing "
                      "timers (iperf_create_send_timers only with a rate); give a rate or "
                      "leave pacing-timer out", rate);
  return FALSE;
}

/* Reads and checks the <workload> attributes into ip. */
static gboolean
read_attributes (Iperf *ip, const NsScenario *sc, NsMachine *machine, GError **error)
{
  const NsWorkloadAttr *attrs = iperf3_attributes;
  guint64 streams, length, port;
  guint fam, sfam, thr;
  xmlNodePtr w = sc->workload;

  if (!ns_workload_attr_check (sc, attrs, error) ||
      !ns_workload_attr_uint (sc, attrs, "streams", &streams, error) ||
      !read_length (sc, w, &length, error) ||
      !ns_workload_attr_choice (sc, attrs, "family", &fam, error) ||
      !ns_workload_attr_choice (sc, attrs, "server-family", &sfam, error) ||
      !ns_workload_attr_choice (sc, attrs, "threading", &thr, error) ||
      !ns_workload_attr_cpu (sc, machine, attrs, "client-cpu", &ip->client_cpu, error) ||
      !ns_workload_attr_cpu (sc, machine, attrs, "server-cpu", &ip->server_cpu, error) ||
      !ns_workload_attr_uint (sc, attrs, "port", &port, error) ||
      !read_pacing (ip, sc, w, error))
    return FALSE;
  if (fam == 1 && sfam == 1)
    goto bad_family;
  if (!ns_workload_check_udp_unfragmented (sc, length, fam == 1, error))
    return FALSE;
  ip->n_streams = (guint) streams;
  ip->blksize = (gsize) length;
  ip->ipv6 = fam == 1;
  ip->server_dual = sfam == 0;
  ip->threading = thr == 0 ? IPERF_SINGLE : IPERF_PER_STREAM;
  ip->port = (guint16) port;
  return TRUE;

/* ERRORS */
bad_family:
  ns_xml_error_blame (sc, w, (NsXmlBlame) { .attrs = { "server-family", "family" } }, error,
                      "attribute 'server-family': an AF_INET server ('inet') cannot receive "
                      "the streams of attribute 'family' ('ipv6')");
  return FALSE;
}

/* The comma-separated values of the extra-* attribute attr (its default if absent): one, or one a
 * block of extra-sockets (n_blocks; 0 while reading extra-sockets, which sets it); NULL with
 * a file:line error otherwise. */
static char **
extra_values (const NsScenario *sc, const char *attr, guint n_blocks, GError **error)
{
  g_autofree char *text = NULL;
  char **values;
  guint n;

  if (!ns_workload_attr_text (sc, iperf3_attributes, attr, &text, error))
    return NULL;
  values = g_strsplit (text, ",", -1);
  n = g_strv_length (values);
  if (n_blocks == 0 || n == 1 || n == n_blocks)
    return values;
  g_strfreev (values);
  ns_xml_error_blame (sc, sc->workload, (NsXmlBlame) { .attrs = { attr, "extra-sockets" } },
                      error, "attribute '%s': %u values for the %u blocks of attribute "
                      "'extra-sockets': give one value for them all or one a block", attr, n,
                      n_blocks);
  return NULL;
}

/* The choices of extra-reuseport, extra-bind and extra-position, in that order: each
 * word's index, halved for the booleans, is the value (0 false/exact/tail, 1 true/wildcard/
 * head). */
static const struct {
  const char        *attr;
  const char *const  words[9];
  const char        *expected;
} extra_choices[] = {
  { "extra-reuseport", { "false", "true", "no", "yes", "off", "on", "0", "1", NULL },
    "true or false" },
  { "extra-bind", { "exact", "wildcard", NULL }, "exact or wildcard" },
  { "extra-position", { "tail", "head", NULL }, "tail or head" },
};

/* Block b's value of extra-* attribute values (its extra_values): one for every block, or
 * the block's own. */
static const char *
extra_value (char **values, guint b)
{
  return values[values[1] == NULL ? 0 : b];
}

/* Reads block b's extra-reuseport, extra-bind, extra-position (values[0..2], their
 * extra_values) and extra-connected (values[3]) into *x, whose n is set; FALSE with a
 * file:line error naming the attribute (and the block, for a list). */
static gboolean
read_extra_block (const NsScenario *sc, char **const values[4], guint b, guint n_blocks,
                  IperfExtraBlock *x, GError **error)
{
  gboolean *flags[] = { &x->reuseport, &x->wildcard, &x->head };
  const char *text;
  guint64 connected;
  gint i = -1;

  for (guint k = 0; k < G_N_ELEMENTS (extra_choices); k++) {
    text = extra_value (values[k], b);
    for (i = 0; extra_choices[k].words[i] != NULL; i++)
      if (!strcmp (extra_choices[k].words[i], text))
        break;
    if (extra_choices[k].words[i] == NULL)
      goto bad_choice;
    *flags[k] = i % 2;
  }
  text = extra_value (values[3], b);
  if (!g_ascii_string_to_unsigned (text, 10, 0, x->n, &connected, NULL))
    goto bad_connected;
  x->connected = (guint) connected;
  return TRUE;

/* ERRORS */
bad_choice:
  for (guint k = 0; k < G_N_ELEMENTS (extra_choices); k++)
    if (extra_value (values[k], b) == text)
      ns_xml_error_attr (sc, sc->workload, extra_choices[k].attr, error, "attribute '%s': "
                         "expected %s, got '%s'", extra_choices[k].attr,
                         extra_choices[k].expected, text);
  return FALSE;
bad_connected:
  if (n_blocks == 1)
    ns_xml_error_blame (sc, sc->workload,
                        (NsXmlBlame) { .attrs = { "extra-connected", "extra-sockets" } }, error,
                        "attribute 'extra-connected': expected 0 to attribute 'extra-sockets' "
                        "(%u), got %s", x->n, text);
  else
    ns_xml_error_blame (sc, sc->workload,
                        (NsXmlBlame) { .attrs = { "extra-connected", "extra-sockets" } }, error,
                        "attribute 'extra-connected': expected 0 to block %u's extra-sockets "
                        "(%u), got %s", b + 1, x->n, text);
  return FALSE;
}

/* Reads the extra sockets' blocks: extra-sockets is a count, or a comma-separated list of
 * counts (one block each, every count 1 or more); each other extra-* attribute one value
 * for every block or one a block. FALSE with a file:line error. */
static gboolean
read_extra_blocks (Iperf *ip, const NsScenario *sc, GError **error)
{
  g_auto (GStrv) counts = NULL;
  char **values[4] = { NULL };
  const char *knob;
  gboolean ok = FALSE;
  guint64 n;

  counts = extra_values (sc, "extra-sockets", 0, error);
  if (counts == NULL)
    return FALSE;
  ip->n_blocks = g_strv_length (counts);
  ip->blocks = g_new0 (IperfExtraBlock, ip->n_blocks);
  for (guint b = 0; b < ip->n_blocks; b++) {
    if (!g_ascii_string_to_unsigned (counts[b], 10, ip->n_blocks > 1, IPERF_EXTRA_MAX, &n,
                                     NULL) || ip->n_extra + n > IPERF_EXTRA_MAX)
      goto bad_count;
    ip->blocks[b].n = (guint) n;
    ip->n_extra += (guint) n;
  }
  if (ip->n_extra == 0 && (knob = extra_knob_written (sc->workload)) != NULL)
    goto idle_extra_knob;
  for (guint k = 0; k < 4; k++)
    if ((values[k] = extra_values (sc, k < 3 ? extra_choices[k].attr : "extra-connected",
                                   ip->n_blocks, error)) == NULL)
      goto out;
  for (guint b = 0; b < ip->n_blocks; b++)
    if (!read_extra_block (sc, values, b, ip->n_blocks, &ip->blocks[b], error))
      goto out;
  ok = TRUE;
out:
  for (guint k = 0; k < 4; k++)
    g_strfreev (values[k]);
  return ok;

/* ERRORS */
bad_count:
  {
    g_autofree char *text = g_strjoinv (",", counts);
    ns_xml_error_attr (sc, sc->workload, "extra-sockets", error, "attribute 'extra-sockets': "
                       "expected 0 to %u, or a comma-separated list of blocks of 1 or more "
                       "adding up to at most %u, got '%s'", IPERF_EXTRA_MAX, IPERF_EXTRA_MAX,
                       text);
  }
  return FALSE;
idle_extra_knob:
  ns_xml_error_blame (sc, sc->workload, (NsXmlBlame) { .attrs = { knob, "extra-sockets" } },
                      error, "attribute '%s' cannot take effect with attribute "
                      "'extra-sockets' 0: it sets up the extra sockets, and there are none; "
                      "give extra-sockets or leave %s out", knob, knob);
  return FALSE;
}

/* What sets the threads per side, for messages: "attribute 'threading' single", or with
 * per-stream the streams attribute too. */
static const char *
threads_per_side (const Iperf *ip)
{
  return ip->threading == IPERF_SINGLE ? "attribute 'threading' single"
                                       : "attribute 'threading' per-stream, one per "
                                         "attribute 'streams'";
}

/* What an error about the threads' CPUs is about: the CPU attributes, and those that
 * set the threads per side (threads_per_side). */
static NsXmlBlame
cpus_blame (const Iperf *ip)
{
  return (NsXmlBlame) { .attrs = { "client-cpu", "server-cpu", "threading",
                                   ip->threading == IPERF_SINGLE ? NULL : "streams" } };
}

/* Checks that the threads' CPUs exist and do not overlap. */
static gboolean
check_cpus (Iperf *ip, const NsScenario *sc, NsMachine *machine, GError **error)
{
  guint span = ip->threading == IPERF_SINGLE ? 1 : ip->n_streams;
  guint n = ns_machine_n_cpus (machine);
  NsXmlBlame blame;

  if (ip->client_cpu + span > n || ip->server_cpu + span > n)
    goto too_few;
  if (ip->client_cpu < ip->server_cpu + span && ip->server_cpu < ip->client_cpu + span)
    goto overlap;
  return TRUE;

/* ERRORS */
too_few:
  blame = cpus_blame (ip);
  ns_xml_blame_machine (sc, &blame);            /* the topology decides the CPUs */
  ns_xml_error_blame (sc, sc->workload, blame, error, "attribute 'client-cpu' (%u) "
                      "and attribute 'server-cpu' (%u): %u thread(s) per side (%s) do not fit "
                      "the machine's %u CPUs", ip->client_cpu, ip->server_cpu, span,
                      threads_per_side (ip), n);
  return FALSE;
overlap:
  ns_xml_error_blame (sc, sc->workload, cpus_blame (ip), error, "attribute 'client-cpu' and "
                      "attribute 'server-cpu': the client CPUs %u-%u and server CPUs %u-%u "
                      "overlap (%s)", ip->client_cpu, ip->client_cpu + span - 1,
                      ip->server_cpu, ip->server_cpu + span - 1, threads_per_side (ip));
  return FALSE;
}

/* Notes a client and server thread on SMT siblings of one core: the machine shares the
 * core's caches between them but runs each at the core's full speed (no shared issue
 * width, ROB or fill buffers), so the pair's throughput there is an upper bound. */
static void
note_smt_siblings (Iperf *ip, NsMachine *machine)
{
  guint span = ip->threading == IPERF_SINGLE ? 1 : ip->n_streams;
  g_autofree char *note = NULL;

  for (guint i = 0; i < span; i++)
    for (guint j = 0; j < span; j++)
      if (ns_machine_core_of (machine, ip->client_cpu + i) ==
          ns_machine_core_of (machine, ip->server_cpu + j))
        goto siblings;
  return;

siblings:
  note = g_strdup_printf ("iperf3: client and server threads share a core (SMT siblings, "
                          "client-cpu %u, server-cpu %u): the model shares the core's caches "
                          "but runs each thread at the core's full speed, so this "
                          "throughput is an upper bound", ip->client_cpu, ip->server_cpu);
  ns_build_note (ns_machine_build (machine), note);
}

/* iperf3's MAX_STREAMS (src/iperf.h): -P above it is refused */
#define IPERF3_MAX_STREAMS  128
/* glibc's FD_SETSIZE, and the default soft RLIMIT_NOFILE: a single iperf3 cannot open,
 * or FD_SET, a descriptor at or above it */
#define IPERF3_FD_LIMIT     1024

/* Notes a run of more streams than iperf3 takes (workload.streams stands for the lookup
 * chain's length there) and what the single loop then does that no iperf3 does: select()
 * over every stream's descriptor (core_sys_select's kvmalloc of the sets above 320
 * descriptors is not modelled) and, with a rate, one timer list of all the pacing timers,
 * which tmr_run re-sorts from the head (N² compares a tick: past a few hundred streams a
 * tick's re-sorting can outlast the tick, and the client falls behind into its timers). */
static void
note_past_max_streams (Iperf *ip, NsMachine *machine)
{
  guint nfds = IPERF_SERVER_NFDS (ip->n_streams);
  g_autofree char *note = NULL;

  if (ip->n_streams <= IPERF3_MAX_STREAMS)
    return;
  if (ip->threading != IPERF_SINGLE)
    note = g_strdup_printf ("iperf3: %u streams, more than iperf3 takes (it stops at %u, "
                            "MAX_STREAMS): read the run as a what-if of the lookup chain's "
                            "length", ip->n_streams, IPERF3_MAX_STREAMS);
  else
    note = g_strdup_printf ("iperf3: %u streams in one client and one server loop, which "
                            "no iperf3 runs (it stops at %u, MAX_STREAMS); read the run as a "
                            "what-if of the lookup chain's length. The server's select() "
                            "watches %u descriptors%s%s", ip->n_streams, IPERF3_MAX_STREAMS,
                            nfds, nfds > IPERF3_FD_LIMIT ? " (past glibc's FD_SETSIZE and "
                            "the default open-file limit, 1024)" : "",
                            ip->rate == 0 ? "" : "; the client's one timer list holds every "
                            "stream's pacing timer, re-sorted by a walk from its head at "
                            "each tick (streams squared compares a tick: once they outlast "
                            "the tick the client falls behind and runs little but its "
                            "timers; rate 0 has no pacing timers)");
  ns_build_note (ns_machine_build (machine), note);
}

/* Refuses client_idle / server_idle under per-stream threading: those are the fraction of
 * time the single thread sleeps in select(), and 3.16+'s per-stream threads block in
 * sendto()/recvfrom() with no select() poll table to time. At the attribute a set gave
 * (workload's 'threading', else measure's 'metric'), naming the sets behind both; FALSE
 * with a file:line error. */
static gboolean
check_metric_available (const Iperf *ip, const NsScenario *sc, GError **error)
{
  const char *metric = sc->measure.metric;
  xmlAttrPtr threading = xmlHasProp (sc->workload, BAD_CAST "threading");
  gboolean threading_set = threading != NULL && sc->set_by != NULL &&
                           g_hash_table_contains (sc->set_by, threading);
  xmlNodePtr measure = ns_xml_child (xmlDocGetRootElement (sc->doc), "measure");
  NsXmlBlame at_workload = { .attrs = { "threading" },
                             .also = { (xmlNodePtr) ns_xml_attr (measure, "metric") } };
  NsXmlBlame at_measure = { .attrs = { "metric" }, .also = { (xmlNodePtr) threading } };

  if (ip->threading == IPERF_SINGLE ||
      (!g_str_equal (metric, "client_idle") && !g_str_equal (metric, "server_idle")))
    return TRUE;
  ns_xml_error_blame (sc, threading_set ? sc->workload : measure,
                      threading_set ? at_workload : at_measure, error, "attribute 'metric' "
                      "('%s') is unavailable with attribute 'threading' per-stream: it is the "
                      "time the single thread sleeps in select(), and per-stream threads block "
                      "in sendto()/recvfrom() without one", metric);
  return FALSE;
}

/* Frees the workload's state, its select arrays and its network stack (NULL is fine). */
static void
iperf_free (gpointer state)
{
  Iperf *ip = state;

  if (ip == NULL)
    return;
  ns_poll_wqueues_free (ip->cpwq);
  ns_poll_wqueues_free (ip->spwq);
  g_free (ip->sel_files);
  g_free (ip->sel_events);
  g_free (ip->sel_revents);
  g_free (ip->streams);
  g_free (ip->extra);
  g_free (ip->blocks);
  ns_netstack_free (ip->stack);
  g_free (ip);
}

/* Reads the attributes, builds the stack, extra sockets and streams and spawns the
 * threads; NULL with a file:line error. */
static gpointer
iperf_setup (const NsScenario *sc, NsMachine *machine, NsEngine *engine, gsl_rng *rng,
             GError **error)
{
  Iperf *ip = g_new0 (Iperf, 1);
  guint next = 0;

  ip->machine = machine;
  ip->engine = engine;
  if (!read_attributes (ip, sc, machine, error) || !read_extra_blocks (ip, sc, error) ||
      !check_metric_available (ip, sc, error) || !check_cpus (ip, sc, machine, error))
    goto fail;
  ip->stack = ns_netstack_new (machine, engine, error);
  if (ip->stack == NULL)
    goto fail;
  ip->streams = g_new0 (IperfStream, ip->n_streams);
  ip->extra = g_new0 (struct file *, MAX (ip->n_extra, 1));
  ip->cctrl = ns_netstack_ctrl_file (ip->stack);
  ip->sctrl = ns_netstack_ctrl_file (ip->stack);
  ip->slisten = ns_netstack_listen_file (ip->stack);
  if (!make_extra_blocks (ip, FALSE, &next, error, sc))
    goto fail;
  if (!make_streams (ip, rng, error, sc))
    goto fail;
  if (!make_extra_blocks (ip, TRUE, &next, error, sc))
    goto fail;
  map_stream_buffers (ip);
  note_smt_siblings (ip, machine);
  note_past_max_streams (ip, machine);
  spawn_threads (ip);
  return ip;

fail:
  iperf_free (ip);
  return NULL;
}

/* Snapshots the stack's counters and the select sleep times for the next metric. */
static void
iperf_mark (gpointer state)
{
  Iperf *ip = state;
  ip->mark = ip->stack->counters;
  if (ip->cpwq) {
    ip->mark_cslept = ns_poll_wqueues_slept (ip->cpwq, ns_engine_now (ip->engine));
    ip->mark_sslept = ns_poll_wqueues_slept (ip->spwq, ns_engine_now (ip->engine));
  }
}

/* Datagrams the server received since the mark. */
static guint64
iperf_ops (gpointer state)
{
  Iperf *ip = state;
  return ip->stack->counters.received - ip->mark.received;
}

/* Value of metric since the mark over span; FALSE for an unknown or unavailable metric or
 * a span in which no datagram moved (none sent, received or dropped: too short to say
 * anything, as a batch between two pacing ticks). Every metric is per second or a
 * fraction of the span, none divides by the datagrams received: with none received while
 * the client sends (a what-if whose reuseport group takes them all, say) the throughputs
 * are 0 and the drops, sends and idle times what they were. */
static gboolean
iperf_metric (gpointer state, NsMachine *machine, const char *metric, NsTime span,
              double *value)
{
  Iperf *ip = state;
  const NsNetCounters *c = &ip->stack->counters;

  if (span <= 0 || (c->received == ip->mark.received && c->sent == ip->mark.sent &&
                    c->rcvbuf_drops == ip->mark.rcvbuf_drops))
    return FALSE;
  if (g_str_equal (metric, "kbytes_per_sec"))
    *value = ns_workload_rate ((double) (c->received_bytes - ip->mark.received_bytes), span) /
             1024.0;
  else if (g_str_equal (metric, "mbits_per_sec"))
    *value = ns_workload_rate ((double) (c->received_bytes - ip->mark.received_bytes), span) *
             8.0 / 1e6;
  else if (g_str_equal (metric, "datagrams_per_sec"))
    *value = ns_workload_rate ((double) (c->received - ip->mark.received), span);
  else if (g_str_equal (metric, "sent_per_sec"))
    *value = ns_workload_rate ((double) (c->sent - ip->mark.sent), span);
  else if (g_str_equal (metric, "drops_per_sec"))
    *value = ns_workload_rate ((double) (c->rcvbuf_drops - ip->mark.rcvbuf_drops), span);
  else if (g_str_equal (metric, "client_idle") && ip->cpwq)
    *value = (double) (ns_poll_wqueues_slept (ip->cpwq, ns_engine_now (ip->engine)) -
                       ip->mark_cslept) / (double) span;
  else if (g_str_equal (metric, "server_idle") && ip->spwq)
    *value = (double) (ns_poll_wqueues_slept (ip->spwq, ns_engine_now (ip->engine)) -
                       ip->mark_sslept) / (double) span;
  else
    return FALSE;
  return TRUE;
}

const NsWorkloadClass ns_iperf3_class = {
  .name = "iperf3",
  .description = "iperf3 UDP over loopback: -P streams, -l length, -b rate, threading "
                 "single (3.15 and older) or per-stream (3.16+)",
  .op_name = "datagram",
  .metrics = metrics,
  .attributes = iperf3_attributes,
  .per_time_metrics = per_time_metrics,
  .setup = iperf_setup,
  .mark = iperf_mark,
  .ops = iperf_ops,
  .metric = iperf_metric,
  .free = iperf_free,
};
