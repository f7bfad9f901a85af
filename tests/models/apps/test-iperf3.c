/* test-iperf3.c — the iperf3 workload (models/apps/iperf3.c) through the run layer:
 * attribute validation errors name file:line, the metrics agree with each other, -b
 * paces each stream (3.15 and 3.16 threading), -l defaults to the control connection's
 * MSS over lo, multisend only when unlimited, the
 * compute_score patch speeds the path up
 * under SRSO Safe RET, udp_poll makes no indirect call, the 3.15 server reads the clock
 * twice a pass, runs are deterministic, the sockets' placement does not depend on the
 * datagram length, and the
 * idle fractions count the sleeps in select inside the measured window only (refused
 * with per-stream threading, which has no select). Scenarios are written to a temporary
 * folder; profiles come from $NETSIM_DATADIR (set by make check). */
#include "config.h"
#include <check.h>
#include <math.h>
#include <glib/gstdio.h>
#include "run.h"
#include "refused.h"

static char *tmpdir;

/* Writes a scenario whose <workload> (on line 6) carries attrs; returns its path. */
static char *
write_scenario (const char *name, const char *cpu, const char *attrs, const char *measure)
{
  g_autofree char *text = NULL;
  char *path = g_build_filename (tmpdir, name, NULL);
  GError *error = NULL;

  text = g_strdup_printf ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                          "<scenario name=\"%s\" seed=\"1\">\n"
                          "  <cpu profile=\"%s\"/>\n"
                          "  <kernel version=\"6.9.0-rc1\"/>\n"
                          "\n"
                          "  <workload type=\"iperf3\" %s/>\n"
                          "  <measure %s/>\n"
                          "</scenario>\n", name, cpu, attrs, measure);
  ck_assert_msg (g_file_set_contents (path, text, -1, &error), "%s",
                 error ? error->message : "?");
  return path;
}

/* Runs path with extra --set strings (NULL-terminated, may be NULL). */
static NsRunResult *
run (const char *path, const char *const *sets, GError **error)
{
  NsRunOptions opt = { 0 };

  opt.sets = sets;
  return ns_run_scenario (path, &opt, error);
}

/* The first variant of a run that must succeed (its result in *res, to free). */
static const NsVariantResult *
run_ok (const char *path, const char *const *sets, NsRunResult **res)
{
  GError *error = NULL;

  *res = run (path, sets, &error);
  ck_assert_msg (*res != NULL, "%s", error ? error->message : "?");
  return (*res)->variants->pdata[0];
}

/* The aggregate of the first variant of a run that must succeed. */
static double
value_of (const char *path, const char *const *sets)
{
  NsRunResult *res;
  double v = run_ok (path, sets, &res)->value;

  ns_run_result_free (res);
  return v;
}

static const char *const short_measure =
  "metric=\"kbytes_per_sec\" warmup=\"200us\" duration=\"1ms\"";

/* Each bad attribute value is refused with "file:6:" and the attribute's name. */
START_TEST (test_bad_attributes)
{
  static const char *const bad[][2] = {
    { "streams=\"0\"", "streams" },
    { "streams=\"5000\"", "streams" },
    { "length=\"8\"", "length" },
    { "length=\"70000\"", "length" },
    /* iperf3's -l 8K is 8192 bytes (unit_atoi), netsim's 8K 8000: refused either way */
    { "length=\"8K\"", "'8K' is ambiguous: iperf3's -l reads K, M and G as powers of 1024" },
    { "length=\"1k\"", "'1k' is ambiguous" },
    { "length=\"8KB\"", "'8KB' is ambiguous" },
    { "rate=\"fast\"", "rate" },
    { "family=\"ipx\"", "family" },
    { "server-family=\"unix\"", "server-family" },
    { "threading=\"many\"", "threading" },
    { "client-cpu=\"999\"", "client-cpu" },
    { "port=\"0\"", "port" },
    { "multisend=\"0\"", "multisend" },
    { "rate=\"0\" multisend=\"0\"", "attribute 'multisend': expected 1 to 1000, got 0" },
    { "rate=\"0\" multisend=\"1001\"", "attribute 'multisend': expected 1 to 1000, got 1001" },
    { "multisend=\"many\"", "multisend" },
    { "pacing-timer=\"2147483648us\"", "attribute 'pacing-timer': expected 1us to 2147483647us" },
    /* iperf_send makes multisend passes with -b 0 only: paced, it would change nothing */
    { "multisend=\"5\" rate=\"1G\"", "one pass over the streams a loop when paced" },
    /* without rate iperf3 paces too, at UDP_RATE */
    { "multisend=\"10\"", "attribute 'rate' ('1048576')" },
    /* iperf3's --pacing-timer is an int of microseconds */
    { "pacing-timer=\"0\"", "pacing-timer" },
    { "pacing-timer=\"1500ns\"", "pacing-timer" },
    { "extra-bind=\"any\"", "extra-bind" },
    { "extra-sockets=\"2\" extra-bind=\"any\"",
      "attribute 'extra-bind': expected exact or wildcard, got 'any'" },
    /* knobs that would change nothing: pacing timers exist only with a rate, the extra
     * sockets' settings only with extra sockets (refused when written, as multisend) */
    { "pacing-timer=\"7us\" rate=\"0\"", "'pacing-timer' cannot take effect with "
      "attribute 'rate' ('0')" },
    { "extra-reuseport=\"false\"", "'extra-reuseport' cannot take effect with attribute "
      "'extra-sockets' 0" },
    { "extra-sockets=\"0\" extra-bind=\"exact\"", "'extra-bind' cannot take effect" },
    { "extra-position=\"head\"", "'extra-position' cannot take effect" },
    { "extra-connected=\"0\"", "'extra-connected' cannot take effect" },
    /* blocks of extra sockets: each of 1 or more, each other extra-* one value or one a
     * block, extra-connected within its block */
    { "extra-sockets=\"4,0\"", "a comma-separated list of blocks of 1 or more" },
    { "extra-sockets=\"1000,25\"", "adding up to at most 1024, got '1000,25'" },
    { "extra-sockets=\"2,2\" extra-bind=\"exact,wildcard,exact\"",
      "'extra-bind': 3 values for the 2 blocks of attribute 'extra-sockets'" },
    { "extra-sockets=\"2,3\" extra-connected=\"1,4\"",
      "'extra-connected': expected 0 to block 2's extra-sockets (3), got 4" },
    { "colour=\"red\"", "colour" },
    { "family=\"ipv6\" server-family=\"inet\"", "server-family" },
    /* above lo's MTU less the IPv6 and UDP headers the kernel fragments: not modelled */
    { "family=\"ipv6\" length=\"65489\"", "fragments" },
    { "threading=\"per-stream\" streams=\"4\" client-cpu=\"0\" server-cpu=\"2\"",
      "overlap (attribute 'threading' per-stream, one per attribute 'streams')" },
    { "threading=\"per-stream\" streams=\"4\" client-cpu=\"6\" server-cpu=\"0\"",
      "4 thread(s) per side (attribute 'threading' per-stream, one per attribute 'streams') "
      "do not fit the machine's 8 CPUs" },
    { "extra-sockets=\"1025\"", "extra-sockets" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
    g_autofree char *path = write_scenario ("bad.xml", "generic", bad[i][0], short_measure);
    assert_refused (path, 6, bad[i][0], bad[i][1]);
  }
}
END_TEST

/* length="8KiB" is 8192 bytes, the datagram iperf3's -l 8K sends: the same run as 8192,
 * and not the 8000-byte one. */
START_TEST (test_length_in_kib)
{
  g_autofree char *path = write_scenario ("kib.xml", "generic",
                                          "streams=\"2\" length=\"8KiB\" rate=\"0\"",
                                          short_measure);
  const char *const bytes[] = { "workload.length=8192", NULL };
  const char *const si[] = { "workload.length=8000", NULL };
  double kib = value_of (path, NULL);

  ck_assert_msg (kib == value_of (path, bytes), "8KiB: %f KB/s", kib);
  ck_assert_msg (kib != value_of (path, si), "8KiB ran as 8000 bytes: %f KB/s", kib);
}
END_TEST

/* TRUE if a short unlimited run of 1000-byte datagrams from client-cpu client to
 * server-cpu server, with attrs (threading, streams), notes that client and server share
 * a core, naming the two CPUs. */
static gboolean
smt_noted (guint client, guint server, const char *attrs)
{
  g_autofree char *text = g_strdup_printf ("length=\"1000\" rate=\"0\" client-cpu=\"%u\" "
                                           "server-cpu=\"%u\" %s", client, server, attrs);
  g_autofree char *path = write_scenario ("smt.xml", "generic", text, short_measure);
  g_autofree char *note = g_strdup_printf ("share a core (SMT siblings, client-cpu %u, "
                                           "server-cpu %u)", client, server);
  NsRunResult *res;
  const NsVariantResult *vr = run_ok (path, NULL, &res);
  gboolean noted = FALSE;

  for (guint i = 0; vr->notes && vr->notes[i]; i++) {
    ck_assert_msg (strstr (vr->notes[i], "SMT siblings") == NULL ||
                   strstr (vr->notes[i], note) != NULL, "%s", vr->notes[i]);
    noted = noted || strstr (vr->notes[i], note) != NULL;
  }
  ns_run_result_free (res);
  return noted;
}

/* Client and server on SMT siblings of one core (the generic profile's CPUs i and i + 4)
 * get a note that each runs at the core's full speed; on other cores, none. Per-stream
 * threads take a CPU each from client-cpu and server-cpu on: streams 2 from 0 and 3
 * (CPUs 0, 1 against 3, 4) share core 0; from 0 and 2 (0, 1 against 2, 3) none. */
START_TEST (test_smt_siblings_noted)
{
  static const char per_stream[] = "threading=\"per-stream\" streams=\"2\"";

  ck_assert (smt_noted (0, 4, ""));
  ck_assert (!smt_noted (0, 1, ""));
  ck_assert (!smt_noted (0, 3, ""));
  ck_assert (smt_noted (0, 3, per_stream));
  ck_assert (!smt_noted (0, 2, per_stream));
}
END_TEST

/* The breakdown by thread of a single-threaded run: the client and its CPU's softirq on
 * CPU 0, the server on CPU 1, adding up to the total; an unlimited sender keeps CPU 0
 * busy (up to a quantum past the window's end); no cycle is left outside a function. */
START_TEST (test_threads_split_the_total)
{
  g_autofree char *path = write_scenario ("threads.xml", "generic", "streams=\"2\" "
                                          "length=\"1000\" rate=\"0\"", short_measure);
  static const char *const names[] = { "iperf3-client", "net_rx/0", "iperf3-server" };
  static const guint cpus[] = { 0, 0, 1 };
  NsRunResult *res;
  const NsVariantResult *vr = run_ok (path, NULL, &res);
  double sum = 0.0, cpu0 = 0.0;

  ck_assert_uint_eq (vr->threads->len, 3);
  for (guint i = 0; i < 3; i++) {
    const NsThreadRow *row = vr->threads->pdata[i];
    ck_assert_str_eq (row->thread, names[i]);
    ck_assert_uint_eq (row->cpu, cpus[i]);
    ck_assert_double_gt (row->cycles_per_op, 0.0);
    sum += row->cycles_per_op;
    cpu0 += row->cpu == 0 ? row->busy : 0.0;
  }
  ck_assert_double_eq_tol (sum, ns_run_cycles_per_op (vr), 1e-9 * sum);
  ck_assert_msg (cpu0 > 0.95 && cpu0 < 1.05, "CPU 0 busy %f", cpu0);
  /* every cycle has a function: select's system call is the main loop's */
  for (guint i = 0; i < vr->breakdown->len; i++) {
    const NsBreakdownRow *row = vr->breakdown->pdata[i];
    ck_assert_msg (strcmp (row->func, "(top level)") != 0, "(top level): %.2f cycles",
                   row->total_per_op);
  }
  ns_run_result_free (res);
}
END_TEST

/* The note of a run's first variant containing needle, or NULL. */
static const char *
note_with (const NsVariantResult *vr, const char *needle)
{
  for (guint i = 0; vr->notes && vr->notes[i]; i++)
    if (strstr (vr->notes[i], needle) != NULL)
      return vr->notes[i];
  return NULL;
}

/* More streams than iperf3's 128 are noted as a what-if of the chain, with what the one
 * loop does that iperf3 cannot: the timer list only with a rate, the descriptor limit
 * only past 1024 descriptors; 128 streams get no note. */
START_TEST (test_past_max_streams_noted)
{
  g_autofree char *at = write_scenario ("p128.xml", "generic", "streams=\"128\" "
                                        "length=\"1000\" rate=\"1G\"", short_measure);
  g_autofree char *paced = write_scenario ("p129.xml", "generic", "streams=\"129\" "
                                           "length=\"1000\" rate=\"1G\"", short_measure);
  g_autofree char *wide = write_scenario ("p600.xml", "generic", "streams=\"600\" "
                                          "length=\"1000\" rate=\"0\"", short_measure);
  NsRunResult *res;
  const NsVariantResult *vr = run_ok (at, NULL, &res);
  const char *note;

  ck_assert_msg (note_with (vr, "MAX_STREAMS") == NULL, "%s", note_with (vr, "MAX_STREAMS"));
  ns_run_result_free (res);
  vr = run_ok (paced, NULL, &res);
  note = note_with (vr, "MAX_STREAMS");
  ck_assert_msg (note != NULL && strstr (note, "129 streams in one client and one server "
                                         "loop") != NULL, "%s", note ? note : "no note");
  ck_assert_msg (strstr (note, "watches 263 descriptors;") != NULL, "%s", note);
  ck_assert_msg (strstr (note, "FD_SETSIZE") == NULL, "%s", note);
  ck_assert_msg (strstr (note, "timer list") != NULL, "%s", note);
  ns_run_result_free (res);
  vr = run_ok (wide, NULL, &res);
  note = note_with (vr, "MAX_STREAMS");
  ck_assert_msg (note != NULL && strstr (note, "watches 1205 descriptors (past glibc's "
                                         "FD_SETSIZE") != NULL, "%s", note ? note : "no note");
  ck_assert_msg (strstr (note, "timer list") == NULL, "%s", note);
  ns_run_result_free (res);
}
END_TEST

/* kbytes_per_sec = datagrams_per_sec × length / 1024; unlimited senders lose nothing when
 * the reader keeps up. */
START_TEST (test_metrics_agree)
{
  g_autofree char *path = write_scenario ("metrics.xml", "generic",
                                          "streams=\"4\" length=\"1000\" rate=\"0\"",
                                          short_measure);
  const char *const dgrams[] = { "measure.metric=datagrams_per_sec", NULL };
  const char *const mbits[] = { "measure.metric=mbits_per_sec", NULL };
  const char *const drops[] = { "measure.metric=drops_per_sec", NULL };
  const char *const sent[] = { "measure.metric=sent_per_sec", NULL };
  double kb = value_of (path, NULL), dg = value_of (path, dgrams), mb = value_of (path, mbits);
  double lost = value_of (path, drops), tx = value_of (path, sent);

  ck_assert (kb > 0);
  ck_assert_double_eq_tol (kb, dg * 1000 / 1024.0, kb * 1e-9);
  ck_assert_double_eq_tol (mb, kb * 1024 * 8 / 1e6, mb * 1e-9);
  /* nothing dropped; sent and received in the 1 ms window differ at most by the datagrams
   * in flight at its two edges, one a stream at each (1000/s each in a rate) */
  ck_assert_msg (lost == 0.0, "%g drops/s", lost);
  ck_assert_msg (fabs (tx - dg) <= 8000.0, "sent %g/s, received %g/s", tx, dg);
}
END_TEST

/* -b paces each stream to its rate (checked every pacing-timer and after each send). */
static void
check_paced (const char *threading, const char *cpus)
{
  g_autofree char *attrs = g_strdup_printf ("streams=\"3\" length=\"1000\" rate=\"40M\" "
                                            "threading=\"%s\" %s", threading, cpus);
  g_autofree char *path = write_scenario ("paced.xml", "generic", attrs,
                                          "metric=\"mbits_per_sec\" warmup=\"5ms\" "
                                          "duration=\"40ms\"");
  double mbits = value_of (path, NULL);

  ck_assert_msg (fabs (mbits - 120.0) < 120.0 * 0.03, "%s: %.2f Mbit/s, want 120", threading,
                 mbits);
}

/* Reuseport extras at the head of the chain, with no connected member, answer every
 * datagram (udp4_lib_lookup2 returns a reuseport group's pick at once) and nobody reads
 * them: the server receives nothing, so its throughput is 0, and the run reports it (it
 * used to fail, "completed no datagram", though no metric divides by the datagrams
 * received) along with the drops at the extras' full receive buffers and the sends. */
START_TEST (test_traffic_taken_by_extras_reads_zero)
{
  g_autofree char *path = write_scenario ("extras.xml", "generic",
                                          "streams=\"2\" length=\"1000\" rate=\"0\" "
                                          "extra-sockets=\"8\" extra-reuseport=\"true\" "
                                          "extra-position=\"head\" server-family=\"inet\"",
                                          short_measure);
  const char *const drops[] = { "measure.metric=drops_per_sec", NULL };
  const char *const sent[] = { "measure.metric=sent_per_sec", NULL };

  ck_assert_double_eq (value_of (path, NULL), 0.0);
  ck_assert (value_of (path, drops) > 0.0);
  ck_assert (value_of (path, sent) > 0.0);
}
END_TEST

/* Blocks of extra sockets are built in their order: a plain block bound after a head
 * reuseport group sits in front of it on the chain and, scoring as high as the group's
 * members, keeps the lookup from returning the group's pick, so the streams' connected
 * sockets get their datagrams; the same blocks bound the other way round leave the group
 * at the head, answering every datagram (as test_traffic_taken_by_extras_reads_zero). */
START_TEST (test_extra_blocks_in_order)
{
  const char *base = "streams=\"2\" length=\"1000\" rate=\"0\" server-family=\"inet\" "
                     "extra-position=\"head\"";
  g_autofree char *plain_last = g_strdup_printf ("%s extra-sockets=\"8,2\" "
                                                 "extra-reuseport=\"true,false\"", base);
  g_autofree char *group_last = g_strdup_printf ("%s extra-sockets=\"2,8\" "
                                                 "extra-reuseport=\"false,true\"", base);
  g_autofree char *a = write_scenario ("plain-last.xml", "generic", plain_last, short_measure);
  g_autofree char *b = write_scenario ("group-last.xml", "generic", group_last, short_measure);

  ck_assert (value_of (a, NULL) > 0.0);
  ck_assert_double_eq (value_of (b, NULL), 0.0);
}
END_TEST

/* client_idle / server_idle are the fraction of the measured time the single thread sleeps
 * in select (doc/models/udp-loopback.md): per-stream threads (3.16+) have no select, so
 * the metrics are refused at set-up with file:line — at <measure> (line 7) when the file
 * chose both, at <workload> (line 6) naming the set when --set chose the threading — and
 * not reported as "completed no datagram" after a run. */
START_TEST (test_idle_refused_without_select)
{
  static const char *const idle[] = { "client_idle", "server_idle" };
  const char *const per_stream[] = { "workload.threading=per-stream", NULL };

  for (guint i = 0; i < G_N_ELEMENTS (idle); i++) {
    g_autofree char *measure = g_strdup_printf ("metric=\"%s\" warmup=\"200us\" "
                                                "duration=\"2ms\"", idle[i]);
    g_autofree char *path = write_scenario ("idle.xml", "generic", "streams=\"1\" "
                                            "threading=\"per-stream\"", measure);
    g_autofree char *single = write_scenario ("idle-single.xml", "generic",
                                              "streams=\"1\"", measure);
    g_autofree char *at6 = g_strdup_printf ("%s:6:", single);
    GError *error = NULL;
    NsRunResult *res;

    assert_refused (path, 7, idle[i], "unavailable with attribute 'threading' per-stream");
    res = run (single, per_stream, &error);
    ck_assert_msg (res == NULL, "%s accepted with --set threading", idle[i]);
    ck_assert (g_error_matches (error, NS_ERROR, NS_ERROR_INPUT));
    ck_assert_msg (g_str_has_prefix (error->message, at6) &&
                   g_str_has_suffix (error->message,
                                     "(after --set workload.threading=per-stream)"),
                   "%s", error->message);
    g_error_free (error);
  }
}
END_TEST

/* iperf3's server listener holds the test port before any stream socket exists
 * (iperf_exchange_parameters: netannounce, then the client's netdial), so a client's
 * autobind never takes it: with the test port in the ephemeral range, set to the first
 * port seed 1's stream draws (37072), the set-up still succeeds (it failed with EADDRINUSE
 * when the client took the port first). */
START_TEST (test_client_port_skips_test_port)
{
  g_autofree char *path = write_scenario ("port.xml", "generic", "streams=\"1\" rate=\"0\" "
                                          "port=\"37072\"", short_measure);
  NsRunResult *res;

  ck_assert (run_ok (path, NULL, &res)->value > 0);
  ns_run_result_free (res);
}
END_TEST

/* The idle fractions count a sleep only for its part inside the measured window: above 0
 * for a side paced at 1 Gbit/s (iperf3 -b: 125000 bytes, 15 datagrams of 8920, a 1 ms
 * tick, then a sleep in select until the next tick), and with the cycles the machine
 * charged they account for the window's time on the two CPUs: (1 − client idle) +
 * (1 − server idle) = charged cycles / the window's cycles (nothing else runs on either
 * CPU). The 200 us windows hold a tick's burst, start in a sleep begun in the warm-up,
 * which counted whole before (4.8), and end in one still going, which counted not at all:
 * either error breaks the sum. */
START_TEST (test_idle_clipped_to_window)
{
  static const char *const warmups[] = { "measure.warmup=2ms", "measure.warmup=2050us",
                                         "measure.warmup=2900us", "measure.warmup=2950us" };
  g_autofree char *path = write_scenario ("idle-window.xml", "generic",
                                          "streams=\"1\" length=\"8920\" rate=\"1G\"",
                                          "metric=\"kbytes_per_sec\" warmup=\"2ms\" "
                                          "duration=\"200us\"");

  for (guint w = 0; w < G_N_ELEMENTS (warmups); w++) {
    const char *const cs[] = { warmups[w], "measure.metric=client_idle", NULL };
    const char *const ss[] = { warmups[w], "measure.metric=server_idle", NULL };
    NsRunResult *res;
    const NsVariantResult *vr = run_ok (path, cs, &res);
    double ci = vr->value, si = value_of (path, ss);
    double window_cycles = (double) vr->measured[0] / 1000.0 *
                           ns_params_get_double (vr->params, "cpu.freq_ghz");
    double busy = ns_run_cycles_per_op (vr) * (double) vr->ops / window_cycles;

    ck_assert_uint_eq (vr->n_reps, 1);
    ck_assert_msg (ci > 0.0 && ci <= 1.0 && si > 0.0 && si <= 1.0, "%s: client %g, server %g",
                   warmups[w], ci, si);
    ck_assert_msg (fabs ((1.0 - ci) + (1.0 - si) - busy) < 1e-4,
                   "%s: client idle %.6f, server idle %.6f, charged %.6f of the window",
                   warmups[w], ci, si, busy);
    ns_run_result_free (res);
  }
}
END_TEST

START_TEST (test_paced_single)
{
  check_paced ("single", "");
}
END_TEST

/* Without rate a UDP test runs at iperf3's UDP_RATE, 1024 × 1024 bits/s a stream (not the
 * decimal 10^6 an explicit -b 1M gives): 64 streams make 67.1 Mbit/s, not 64 (100-byte
 * datagrams over 100 ms: ~131 a stream, so one datagram more or less is under 1 %). */
START_TEST (test_default_rate_is_udp_rate)
{
  g_autofree char *path = write_scenario ("default-rate.xml", "generic",
                                          "streams=\"64\" length=\"100\"",
                                          "metric=\"mbits_per_sec\" warmup=\"5ms\" "
                                          "duration=\"100ms\"");
  double mbits = value_of (path, NULL), want = 64 * 1048576 / 1e6;

  ck_assert_msg (fabs (mbits - want) < want * 0.01, "%.3f Mbit/s, want %.3f", mbits, want);
}
END_TEST

/* Bytes a received datagram of one run without `length` (kbytes_per_sec × 1024 over
 * datagrams_per_sec), unlimited, of family. */
static double
default_datagram_bytes (const char *family)
{
  g_autofree char *attrs = g_strdup_printf ("streams=\"1\" rate=\"0\" family=\"%s\"", family);
  g_autofree char *path = write_scenario ("default-length.xml", "generic", attrs, short_measure);
  const char *const dgrams[] = { "measure.metric=datagrams_per_sec", NULL };

  return value_of (path, NULL) * 1024.0 / value_of (path, dgrams);
}

/* Without -l iperf3 (3.1.5+, iperf_connect) sends blocks of the control connection's
 * TCP_MAXSEG, tp->mss_cache (do_tcp_getsockopt). Over lo that is the path MSS (65483 IPv4,
 * 65464 IPv6: MTU 65536, advmss, 12 bytes of timestamps) cut to half the largest window the
 * server offered (tcp_sync_mss → tcp_bound_to_half_wnd): its ACK of the cookie offers
 * 65536 (tcp_rmem[1] 131072's window, one MSS rounded up to the window scale's unit), so
 * 32768 in both families, as iperf3 3.13 -V prints over ::1 on 5.15 (esnet/iperf#1540) —
 * not DEFAULT_UDP_BLKSIZE (1460), which is only for a connection without an MSS. */
START_TEST (test_default_length_is_control_mss)
{
  const double half_window = 65536 / 2;

  ck_assert_double_eq_tol (default_datagram_bytes ("ipv4"), MIN (65483, half_window), 1e-6);
  ck_assert_double_eq_tol (default_datagram_bytes ("ipv6"), MIN (65464, half_window), 1e-6);
}
END_TEST

START_TEST (test_paced_per_stream)
{
  check_paced ("per-stream", "client-cpu=\"0\" server-cpu=\"4\"");
}
END_TEST

/* System calls per datagram of one run that must succeed (client and server). */
static double
syscalls_per_datagram (const char *path, const char *const *sets)
{
  NsRunResult *res;
  double v = run_ok (path, sets, &res)->events_per_op[NS_CAUSE_SYSCALL];

  ns_run_result_free (res);
  return v;
}

/* iperf_send: with -b one pass over the streams per select(), unlimited `multisend` (10 by
 * default) passes; an explicit multisend acts there alone (with -b it is refused:
 * test_bad_attributes). With one stream that unpaced (-b far above the capacity) is about
 * one select() per datagram more than unlimited: 1 against 1/10; unlimited with
 * multisend="1" makes the paced loop's one pass. */
START_TEST (test_multisend_only_unlimited)
{
  g_autofree char *path = write_scenario ("multisend.xml", "generic",
                                          "streams=\"1\" length=\"8920\" rate=\"0\"",
                                          short_measure);
  const char *const paced[] = { "workload.rate=100G", NULL };
  const char *const one_pass[] = { "workload.multisend=1", NULL };
  double unlimited = syscalls_per_datagram (path, NULL);
  double with_b = syscalls_per_datagram (path, paced);
  double once = syscalls_per_datagram (path, one_pass);

  ck_assert_msg (with_b - unlimited > 0.7 && with_b - unlimited < 1.0,
                 "syscalls per datagram: %.3f with -b, %.3f unlimited", with_b, unlimited);
  ck_assert_msg (fabs (once - with_b) < 0.05,
                 "syscalls per datagram: %.3f multisend 1 unlimited, %.3f with -b", once,
                 with_b);
}
END_TEST

/* With Safe RET (the Zen 3 profile's default for 6.9), the single-call-site patch makes
 * the 16-socket chain walk cheaper: more throughput. */
START_TEST (test_patch_helps_under_safe_ret)
{
  g_autofree char *path = write_scenario ("patch.xml", "zen3-epyc-7713",
                                          "streams=\"16\" length=\"8920\" rate=\"0\"",
                                          short_measure);
  const char *const patched[] = { "kernel.patch.name=udp-compute-score-single-site", NULL };
  double base = value_of (path, NULL), pat = value_of (path, patched);

  ck_assert_msg (pat > base * 1.01, "patched %.0f vs baseline %.0f", pat, base);
}
END_TEST

/* Cycles per datagram of cause charged to func in a variant's breakdown (0 if absent). */
static double
breakdown_cycles (const NsVariantResult *v, const char *func, NsCause cause)
{
  for (guint i = 0; i < v->breakdown->len; i++) {
    const NsBreakdownRow *row = v->breakdown->pdata[i];
    if (g_str_equal (row->func, func))
      return row->cycles_per_op[cause];
  }
  return 0.0;
}

/* The first variant of a run of 4 unlimited 8920-byte streams on seed 000's EPYC profile,
 * written to name (its result in *res, to free). */
static const NsVariantResult *
run_epyc_unlimited (const char *name, NsRunResult **res)
{
  g_autofree char *path = write_scenario (name, "zen3-epyc-7713",
                                          "streams=\"4\" length=\"8920\" rate=\"0\"",
                                          short_measure);

  return run_ok (path, NULL, res);
}

/* select()'s poll of a UDP socket: sock_poll reaches udp_poll through an indirect call (a
 * retpoline on Zen 3), and udp_poll itself makes none: its sk_is_readable finds
 * udp_prot.sock_is_readable NULL (doc/census/seed000/select.md). */
START_TEST (test_udp_poll_makes_no_indirect_call)
{
  NsRunResult *res;
  const NsVariantResult *v = run_epyc_unlimited ("poll.xml", &res);

  ck_assert (breakdown_cycles (v, "sock_poll", NS_CAUSE_INDIRECT) > 0.0);
  /* udp_poll ran (breakdown_cycles gives 0 for a function that is not there) */
  ck_assert (breakdown_cycles (v, "udp_poll", NS_CAUSE_INSN) > 0.0);
  ck_assert_double_eq_tol (breakdown_cycles (v, "udp_poll", NS_CAUSE_INDIRECT), 0.0, 1e-12);
  ns_run_result_free (res);
}
END_TEST

/* Out-of-line calls per datagram of func in a variant's breakdown (0 if absent). */
static double
breakdown_calls (const NsVariantResult *v, const char *func)
{
  for (guint i = 0; i < v->breakdown->len; i++) {
    const NsBreakdownRow *row = v->breakdown->pdata[i];
    if (g_str_equal (row->func, func))
      return row->calls_per_op;
  }
  return 0.0;
}

/* The attributes' bounds are taken: 1000 unpaced multisend passes, a pacing timer of 1us
 * and of 2^31 - 1 us (iperf3's int), datagrams of 16 and 65507 bytes, ports 1 and 65535,
 * 1024 extra sockets, per-stream threads that end at the machine's last CPU and start
 * where the other side's end; the server's sockets are dual-stack unless
 * server-family="inet", so an IPv4 run's server reads through udpv6_recvmsg, or with inet
 * through udp_recvmsg; a window in which nothing is sent or received is an error. */
START_TEST (test_bounds_taken_and_server_family)
{
  static const char *const taken[] = {
    "rate=\"0\" multisend=\"1000\"", "rate=\"1G\" pacing-timer=\"1us\"",
    "rate=\"1G\" pacing-timer=\"2147483647us\"", "rate=\"0\" length=\"16\"",
    "rate=\"0\" length=\"65507\"", "rate=\"0\" port=\"1\"", "rate=\"0\" port=\"65535\"",
    "rate=\"0\" extra-sockets=\"1024\"",
    "rate=\"0\" threading=\"per-stream\" streams=\"4\" client-cpu=\"4\" server-cpu=\"0\"",
    "rate=\"0\" threading=\"per-stream\" streams=\"4\" client-cpu=\"0\" server-cpu=\"4\"",
  };

  for (guint i = 0; i < G_N_ELEMENTS (taken); i++) {
    /* no warm-up: under the longest timer a stream sends only at its start */
    g_autofree char *path = write_scenario ("taken.xml", "generic", taken[i],
                                            "metric=\"kbytes_per_sec\" duration=\"1ms\"");
    NsRunResult *res;

    run_ok (path, NULL, &res);
    ns_run_result_free (res);
  }
  /* at iperf3's default rate (1 Mbit/s) a 1 ms window after the warm-up sees no datagram
   * of 8920 bytes sent or received: an error, not 0 KB/s */
  {
    g_autofree char *path = write_scenario ("empty.xml", "generic", "length=\"8920\"",
                                            short_measure);
    GError *error = NULL;
    NsRunResult *res = run (path, NULL, &error);

    ck_assert_msg (res == NULL && strstr (error->message, "completed no datagram") != NULL,
                   "%s", res ? "a window of no datagram measured" : error->message);
    g_error_free (error);
  }
  for (guint inet = 0; inet <= 1; inet++) {
    g_autofree char *path = write_scenario ("family.xml", "generic",
                                            inet ? "rate=\"0\" server-family=\"inet\""
                                                 : "rate=\"0\"", short_measure);
    NsRunResult *res;
    const NsVariantResult *v = run_ok (path, NULL, &res);

    ck_assert_msg ((breakdown_calls (v, "udpv6_recvmsg") > 0) == !inet &&
                   (breakdown_calls (v, "udp_recvmsg") > 0) == inet,
                   "server-family %s: udpv6_recvmsg %g, udp_recvmsg %g a datagram",
                   inet ? "inet" : "dual", breakdown_calls (v, "udpv6_recvmsg"),
                   breakdown_calls (v, "udp_recvmsg"));
    ns_run_result_free (res);
  }
}
END_TEST

/* iperf_run_server (3.15) selects over the TCP listener, the control connection and the
 * streams (it closes only the UDP listener once the streams are accepted); the client
 * over its control connection and the green streams. So where the client polls one TCP
 * socket per N UDP ones, the server polls two: tcp_poll × N / udp_poll lies strictly
 * between 1 and 2 (each pass of do_select polls every file; 1 without the listener). */
START_TEST (test_select_sets_as_iperf3_makes_them)
{
  NsRunResult *res;
  const NsVariantResult *v = run_epyc_unlimited ("sets.xml", &res);
  double ratio = breakdown_calls (v, "tcp_poll") * 4 / breakdown_calls (v, "udp_poll");

  ck_assert_msg (ratio > 1.1 && ratio < 2.0, "tcp_poll x 4 / udp_poll = %.3f", ratio);
  ns_run_result_free (res);
}
END_TEST

/* Cycles of one calling context and cause ("thread;outer;…;inner;[cause]") in a variant
 * of a run with stacks; 0 if absent. */
static double
stack_cycles (const NsVariantResult *v, const char *stack)
{
  for (guint i = 0; i < v->stacks->len; i++) {
    const NsStackRow *row = v->stacks->pdata[i];
    if (g_str_equal (row->stack, stack))
      return row->cycles;
  }
  return 0.0;
}

/* iperf_run_server (3.15, src/iperf_server_api.c) reads the clock twice a pass with
 * streams readable: iperf_time_now(&now) for tmr_timeout before select, and
 * iperf_time_now(&last_receive_time) once select returned > 0 (the --rcv-timeout
 * watchdog's, unconditional there). In the server thread the clock read straight from the
 * loop (not iperf_udp_recv's) costs 2 × (93 instructions + RDTSC) per pass (census,
 * doc/census/seed000/iperf3.md); a pass is one select() through glibc's wrapper, whose
 * frame iperf3:select(libc) holds 171 instructions of its own a call: the wrapper's 80
 * and its PLT stub, and entry_SYSCALL_64's 45 on entry and 45 on exit (not a function:
 * the model charges them in the calling frame, doc/census/seed000/syscall.md). One read a
 * pass would be half that. */
START_TEST (test_server_reads_clock_twice_a_pass)
{
  g_autofree char *path = write_scenario ("clock.xml", "zen3-epyc-7713",
                                          "streams=\"4\" length=\"8920\" rate=\"0\"",
                                          short_measure);
  NsRunOptions opt = { 0 };
  GError *error = NULL;
  NsRunResult *res;
  const NsVariantResult *v;
  double ipc, rdtsc, select, clock, per_pass;

  opt.stacks = TRUE;
  res = ns_run_scenario (path, &opt, &error);
  ck_assert_msg (res != NULL, "%s", error ? error->message : "?");
  v = res->variants->pdata[0];
  ipc = ns_params_get_double (v->params, "cpu.ipc");
  rdtsc = ns_params_get_double (v->params, "x86.rdtsc_cycles");
  select = stack_cycles (v, "iperf3-server;iperf3:main_loop;iperf3:select(libc);[insn]");
  clock = stack_cycles (v, "iperf3-server;iperf3:main_loop;iperf3:clock_gettime(vDSO);[insn]");
  ck_assert (select > 0.0);
  per_pass = clock / (select * ipc / 171);
  ck_assert_msg (fabs (per_pass / (2 * (93 / ipc + rdtsc)) - 1) < 0.03,
                 "clock cycles a pass %.2f, two reads %.2f", per_pass, 2 * (93 / ipc + rdtsc));
  ns_run_result_free (res);
}
END_TEST

/* iperf_udp_send's and iperf_udp_recv's own instructions a call are the census's
 * (doc/census/seed000/iperf3.md): besides the clock (a frame of its own) the send is 92
 * with Nwrite and glibc's write, the receive 187 with Nread, glibc's read and the jitter's
 * iperf_time_diff and iperf_time_in_secs; each frame also holds entry_SYSCALL_64's 45 + 45
 * (syscall.md). A call is one udp_sendmsg or sock_recvmsg (the server's dual-stack
 * sockets read through udpv6_recvmsg), counted exactly; 16 paced
 * streams give thousands in the window, so a call the window cuts moves the figure by
 * under 0.05 % and one instruction more or less by 0.36 % or more. */
START_TEST (test_datagram_user_instructions_are_the_census)
{
  g_autofree char *path = write_scenario ("user.xml", "zen3-epyc-7713",
                                          "streams=\"16\" length=\"8920\" rate=\"1G\"",
                                          "metric=\"datagrams_per_sec\" warmup=\"1ms\" "
                                          "duration=\"4ms\"");
  NsRunResult *res;
  const NsVariantResult *v = run_ok (path, NULL, &res);
  double ipc = ns_params_get_double (v->params, "cpu.ipc");
  double send = breakdown_cycles (v, "iperf3:iperf_udp_send", NS_CAUSE_INSN) * ipc /
                breakdown_calls (v, "udp_sendmsg");
  double recv = breakdown_cycles (v, "iperf3:iperf_udp_recv", NS_CAUSE_INSN) * ipc /
                breakdown_calls (v, "sock_recvmsg");

  ck_assert_msg (fabs (send / (92 + 90) - 1) < 0.002, "send %.2f instructions a call", send);
  ck_assert_msg (fabs (recv / (187 + 90) - 1) < 0.002, "recv %.2f instructions a call", recv);
  ns_run_result_free (res);
}
END_TEST

/* net_rx_action charges its census body: 101 instructions for one NAPI less its
 * prologue and epilogue, 17, is 84 (doc/census/seed000/receive.md, table A, whose total
 * 414 adds up only with the P/E inside the 101); __usecs_to_jiffies, called once from it,
 * 11 less 3 = 8. Both run once a softirq run at one IPC, so their instruction cycles
 * stand 84 : 8 whatever the profile's IPC. */
START_TEST (test_net_rx_action_charges_its_census_body)
{
  NsRunResult *res;
  const NsVariantResult *v = run_epyc_unlimited ("rx.xml", &res);
  double rx = breakdown_cycles (v, "net_rx_action", NS_CAUSE_INSN);
  double jiffies = breakdown_cycles (v, "__usecs_to_jiffies", NS_CAUSE_INSN);

  ck_assert (jiffies > 0.0);
  /* to 0.5 %: a softirq run the measured window cuts in two counts part of one of them
   * (the 101 as body gives 12.6) */
  ck_assert_double_eq_tol (rx / jiffies, 84.0 / 8.0, 0.005 * 84.0 / 8.0);
  ns_run_result_free (res);
}
END_TEST

/* Instruction cycles a millisecond in iperf3's timer list (iperf3:tmr_run) with streams
 * green 1000-byte streams at rate. */
static double
timer_cycles_per_ms (guint streams, const char *rate)
{
  g_autofree char *attrs = g_strdup_printf ("streams=\"%u\" length=\"1000\" rate=\"%s\"",
                                            streams, rate);
  g_autofree char *path = write_scenario ("timers.xml", "generic", attrs,
                                          "metric=\"datagrams_per_sec\" warmup=\"1ms\" "
                                          "duration=\"4ms\"");
  NsRunResult *res;
  const NsVariantResult *v = run_ok (path, NULL, &res);
  double cycles = breakdown_cycles (v, "iperf3:tmr_run", NS_CAUSE_INSN) * v->value / 1e3;

  ns_run_result_free (res);
  return cycles;
}

/* The client's pacing timers share iperf3's one sorted list (src/timer.c), and each one
 * a tick fires goes back in by a walk from the head past every other timer of the tick:
 * N² compares a tick with every stream green. Four times the streams cost over six times
 * the cycles a millisecond: each timer's own work (iperf_check_throttle's 107
 * instructions and tmr_run's, census) grows four times, the walk sixteen, and at 16
 * streams the walk, issued at the core's width, is about half; linear work would give
 * four. Unlimited (-b 0) makes no pacing timers, and each pass only looks at the list's
 * head. */
START_TEST (test_pacing_timers_walk_grows_quadratically)
{
  double p16 = timer_cycles_per_ms (16, "10G"), p64 = timer_cycles_per_ms (64, "10G");
  double unlimited = timer_cycles_per_ms (64, "0");

  ck_assert (p16 > 0.0);
  ck_assert_msg (p64 > 6.0 * p16, "64 streams %.0f, 16 streams %.0f cycles/ms", p64, p16);
  ck_assert_msg (unlimited < p64 / 50.0, "unlimited %.0f, paced %.0f cycles/ms", unlimited,
                 p64);
}
END_TEST

/* The same scenario twice, three repetitions each: every repetition's value, and the
 * aggregate, the same to the last bit. */
START_TEST (test_determinism)
{
  g_autofree char *path = write_scenario ("det.xml", "generic",
                                          "streams=\"8\" length=\"4000\" rate=\"0\" "
                                          "extra-sockets=\"3\" extra-reuseport=\"true\"",
                                          short_measure);
  const char *const reps[] = { "measure.repetitions=3", NULL };
  NsRunResult *ra, *rb;
  const NsVariantResult *a = run_ok (path, reps, &ra), *b = run_ok (path, reps, &rb);

  ck_assert (a->value > 0);
  ck_assert_uint_eq (a->n_reps, 3);
  ck_assert_uint_eq (b->n_reps, 3);
  for (guint i = 0; i < a->n_reps; i++)
    ck_assert_msg (a->values[i] == b->values[i], "repetition %u: %.17g, then %.17g", i,
                   a->values[i], b->values[i]);
  ck_assert (a->value == b->value);
  ns_run_result_free (ra);
  ns_run_result_free (rb);
}
END_TEST

/* IPv6 streams and extra wildcard sockets at the head of the chain run and deliver. */
START_TEST (test_ipv6_and_extras)
{
  g_autofree char *path = write_scenario ("v6.xml", "generic",
                                          "streams=\"4\" length=\"2000\" rate=\"0\" "
                                          "family=\"ipv6\" extra-sockets=\"2\" "
                                          "extra-bind=\"wildcard\" extra-position=\"head\"",
                                          short_measure);

  ck_assert (value_of (path, NULL) > 0);
}
END_TEST

/* Inlined invocations per datagram of func in a variant's breakdown (0 if absent). */
static double
breakdown_inlined (const NsVariantResult *v, const char *func)
{
  for (guint i = 0; i < v->breakdown->len; i++) {
    const NsBreakdownRow *row = v->breakdown->pdata[i];
    if (g_str_equal (row->func, func))
      return row->inlined_per_op;
  }
  return 0.0;
}

/* compute_score per datagram on 6.9-rc1, IPv4 (server-family inet), 4 streams and 8
 * reuseport extras: at the tail, unconnected, each datagram's walk scores the 12 chain
 * sockets once (to the window edges' few hundredths); at the head with extra-connected=2
 * the group has connected members (reuseport_has_conns), so udp4_lib_lookup2 re-scores
 * the group's pick (the second call site seed 000's patch removes) and walks on to the
 * stream's socket, which still gets the traffic: one call more. The patched kernel inlines every one of them. An extra-connected
 * above extra-sockets is refused at file:6. */
START_TEST (test_extra_connected_rescores)
{
  const char *const base = "streams=\"4\" length=\"1000\" rate=\"0\" server-family=\"inet\" "
                           "extra-sockets=\"8\" extra-reuseport=\"true\"";
  g_autofree char *tail_attrs = g_strdup_printf ("%s extra-position=\"tail\"", base);
  g_autofree char *conn_attrs = g_strdup_printf ("%s extra-position=\"head\" "
                                                 "extra-connected=\"2\"", base);
  g_autofree char *over_attrs = g_strdup_printf ("%s extra-connected=\"9\"", base);
  g_autofree char *tail = write_scenario ("tail.xml", "zen3-epyc-7713", tail_attrs,
                                          short_measure);
  g_autofree char *conn = write_scenario ("conn.xml", "zen3-epyc-7713", conn_attrs,
                                          short_measure);
  g_autofree char *over = write_scenario ("over.xml", "generic", over_attrs, short_measure);
  const char *const patched[] = { "kernel.patch.name=udp-compute-score-single-site", NULL };
  NsRunResult *rt, *rc, *rp;
  const NsVariantResult *vt = run_ok (tail, NULL, &rt), *vc = run_ok (conn, NULL, &rc);
  const NsVariantResult *vp = run_ok (conn, patched, &rp);
  double walk = breakdown_calls (vt, "compute_score");
  double rescored = breakdown_calls (vc, "compute_score");

  ck_assert_msg (vc->value > 0, "the streams lost their datagrams to the group");
  /* calls in the window over datagrams read in it: the datagrams queued at its two edges
   * move the ratio by a few hundredths either way */
  ck_assert_msg (fabs (walk - 12.0) < 0.05, "tail: %.3f compute_score a datagram", walk);
  ck_assert_msg (fabs (rescored - 13.0) < 0.05, "head, 2 connected: %.3f compute_score "
                 "a datagram, tail %.3f", rescored, walk);
  ck_assert_double_eq (breakdown_calls (vp, "compute_score"), 0.0);
  /* its own window edges: 13 to a few hundredths, as the baseline's calls */
  ck_assert_msg (fabs (breakdown_inlined (vp, "compute_score") - 13.0) < 0.05, "patched: "
                 "%.3f compute_score inlined a datagram",
                 breakdown_inlined (vp, "compute_score"));
  ns_run_result_free (rt);
  ns_run_result_free (rc);
  ns_run_result_free (rp);
  assert_refused (over, 6, "extra-connected=\"9\"", "attribute 'extra-connected': expected "
                  "0 to attribute 'extra-sockets' (8), got 9");
}
END_TEST

/* The user buffers are iperf3's own mmap'ed pages, apart from the kernel's objects: the
 * sockets' placement, so compute_score's walk of the 64 listeners, does not depend on the
 * datagram length. With each stream's buffers allocated between its sockets, 60000 bytes
 * (one 64-byte window, 59969-60032) stacked the listeners in the same cache sets and
 * tripled compute_score's cycles against 59968. */
START_TEST (test_socket_layout_independent_of_length)
{
  const char *const lengths[] = { "workload.length=59968", "workload.length=60000" };
  double cycles[2];

  for (guint i = 0; i < 2; i++) {
    g_autofree char *path = write_scenario ("layout.xml", "zen3-epyc-7713",
                                            "streams=\"64\" length=\"8920\" rate=\"0\"",
                                            short_measure);
    const char *const sets[] = { lengths[i], NULL };
    NsRunResult *res;
    const NsVariantResult *v = run_ok (path, sets, &res);

    cycles[i] = 0.0;
    for (NsCause c = 0; c < NS_CAUSE_N; c++)
      cycles[i] += breakdown_cycles (v, "compute_score", c);
    ns_run_result_free (res);
  }
  ck_assert_msg (cycles[0] > 0.0 && fabs (cycles[1] / cycles[0] - 1.0) < 0.05,
                 "compute_score %.0f cycles a datagram at 59968 bytes, %.0f at 60000",
                 cycles[0], cycles[1]);
}
END_TEST

static void
setup (void)
{
  GError *error = NULL;

  tmpdir = g_dir_make_tmp ("test-iperf3-XXXXXX", &error);
  ck_assert_msg (tmpdir != NULL, "%s", error ? error->message : "?");
}

static void
teardown (void)
{
  GDir *dir = g_dir_open (tmpdir, 0, NULL);
  const char *name;

  while (dir && (name = g_dir_read_name (dir)) != NULL) {
    g_autofree char *p = g_build_filename (tmpdir, name, NULL);
    g_unlink (p);
  }
  if (dir)
    g_dir_close (dir);
  g_rmdir (tmpdir);
  g_free (tmpdir);
}

static Suite *
iperf3_suite (void)
{
  Suite *s = suite_create ("iperf3");
  TCase *tc = tcase_create ("core");

  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_set_timeout (tc, 300);
  tcase_add_test (tc, test_bad_attributes);
  tcase_add_test (tc, test_bounds_taken_and_server_family);
  tcase_add_test (tc, test_length_in_kib);
  tcase_add_test (tc, test_smt_siblings_noted);
  tcase_add_test (tc, test_past_max_streams_noted);
  tcase_add_test (tc, test_threads_split_the_total);
  tcase_add_test (tc, test_metrics_agree);
  tcase_add_test (tc, test_paced_single);
  tcase_add_test (tc, test_traffic_taken_by_extras_reads_zero);
  tcase_add_test (tc, test_extra_blocks_in_order);
  tcase_add_test (tc, test_default_rate_is_udp_rate);
  tcase_add_test (tc, test_default_length_is_control_mss);
  tcase_add_test (tc, test_paced_per_stream);
  tcase_add_test (tc, test_multisend_only_unlimited);
  tcase_add_test (tc, test_patch_helps_under_safe_ret);
  tcase_add_test (tc, test_udp_poll_makes_no_indirect_call);
  tcase_add_test (tc, test_select_sets_as_iperf3_makes_them);
  tcase_add_test (tc, test_server_reads_clock_twice_a_pass);
  tcase_add_test (tc, test_pacing_timers_walk_grows_quadratically);
  tcase_add_test (tc, test_determinism);
  tcase_add_test (tc, test_ipv6_and_extras);
  tcase_add_test (tc, test_extra_connected_rescores);
  tcase_add_test (tc, test_net_rx_action_charges_its_census_body);
  tcase_add_test (tc, test_datagram_user_instructions_are_the_census);
  tcase_add_test (tc, test_idle_refused_without_select);
  tcase_add_test (tc, test_idle_clipped_to_window);
  tcase_add_test (tc, test_client_port_skips_test_port);
  tcase_add_test (tc, test_socket_layout_independent_of_length);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (iperf3_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
