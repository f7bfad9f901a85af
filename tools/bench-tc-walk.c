/* bench-tc-walk.c — what one more tc filter costs this host's own kernel per packet, and
 * how much of it is the filter's own step through tcf_classify and its ->classify call
 * (seed 002's walk, measured in a real kernel, not a replica; doc/model.md "The kernel's
 * own tc walk").
 *
 * In a network namespace of its own (the host's interfaces are not touched), lo gets a
 * clsact qdisc and N cls_bpf filters on its egress hook, each running the classic BPF
 * program "ret #0": no match, so every packet walks all N. Three layouts:
 *  - prios: N filters at priorities 1..N, one program each: per filter, tcf_classify's
 *    step (the protocol test, tp->next), the tp->classify call into cls_bpf_classify,
 *    and in it one program's run (bpf_prog_run: an indirect call into the JIT's image);
 *  - progs: one filter at priority 1 holding N programs (handles 1..N): per program, only
 *    cls_bpf_classify's list step and the program's run;
 *  - skips: as prios, but each filter for protocol ipv6, which the frames are not: per
 *    filter, only tcf_classify's protocol test and tp->next (the classifier never runs).
 * Each packet is a 64-byte frame sent with sendto() on an AF_PACKET socket bound to no
 * protocol, ethertype 0x88B5 (IEEE 802 local experimental: nothing receives it), so the
 * walk runs once a send, in dev_queue_xmit's egress hook. The difference between two
 * filter counts is the kernel's walk over the extra filters or programs; the prios slope
 * less the progs slope is one filter's tcf_proto step: tcf_classify's loop, the
 * ->classify call and cls_bpf_classify's entry, list start and return, the tcf_proto and
 * cls_bpf_head lines. Which calls are indirect is the kernel's: from 6.2 a kernel built
 * with retpolines compiles the tc wrapper (include/net/tc_wrapper.h) and leaves it on
 * while the CPU runs them (X86_FEATURE_RETPOLINE), and cls_bpf, built in, is the first
 * entry of its compare chain, so ->classify is a compare and a direct call; the program's
 * bpf_func call is indirect (through the retpoline thunk under retpolines) on every
 * kernel. The core clock comes from a chain of dependent ADDs (ns_hostbench_core_ghz).
 * Prints "name value" lines: cycles per packet at each filter count in each layout,
 * each layout's cycles a step between successive counts, the least-squares slopes (cycles a filter, a program, a skipped filter), the first two's
 * difference, a skipped filter's slope up to 100 filters, the clock,
 * the kernel's spectre_v2 and spec_rstack_overflow lines and release. Needs root
 * (CAP_SYS_ADMIN for the namespace, CAP_NET_ADMIN and CAP_NET_RAW) and iproute2's tc
 * with cls_bpf; without them it says why and exits 0 (make bench goes on). Options:
 * --runs (sweeps over the layouts and every count, interleaved; each point's median),
 * --scale (of the number of sends), --tc (the tc program). Linux only. */
#define _GNU_SOURCE 1                  /* unshare, CLONE_NEWNET */
#include "config.h"
#include <arpa/inet.h>
#include <errno.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <linux/if_packet.h>
#include <math.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "hostbench.h"

#define FRAME_BYTES 64
#define ETHERTYPE_LOCAL_EXP 0x88B5     /* IEEE 802 local experimental ethertype 1 */

static const guint filter_counts[] = { 1, 25, 50, 100, 200 };
#define N_COUNTS G_N_ELEMENTS (filter_counts)
#define N_COUNTS_L1 (N_COUNTS - 1)     /* the counts up to 100 */

typedef enum { LAYOUT_PRIOS, LAYOUT_PROGS, LAYOUT_SKIPS, N_LAYOUTS } Layout;
static const char *const layout_names[N_LAYOUTS] = { "prios", "progs", "skips" };

static gint opt_scale = 1, opt_runs = 1;
static gchar *opt_tc;

/* Runs tc -batch over the commands in batch; FALSE with *error set if tc cannot be run
 * or fails (its standard error in the message). */
static gboolean
tc_batch (const char *batch, GError **error)
{
  g_autofree char *path = NULL, *err_text = NULL;
  const char *argv[] = { opt_tc, "-batch", NULL, NULL };
  int fd, status;
  gboolean ok = FALSE;

  fd = g_file_open_tmp ("bench-tc-walk-XXXXXX", &path, error);
  if (fd < 0)
    return FALSE;
  close (fd);
  if (!g_file_set_contents (path, batch, -1, error))
    goto done;
  argv[2] = path;
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                     NULL, NULL, NULL, &err_text, &status, error))
    goto done;
  if (!g_spawn_check_wait_status (status, NULL)) {
    g_set_error (error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED, "%s -batch: %s", opt_tc,
                 g_strstrip (err_text));
    goto done;
  }
  ok = TRUE;
done:
  unlink (path);
  return ok;
}

/* The tc commands that give lo (which has one) a fresh clsact qdisc with n ret-#0
 * cls_bpf programs in layout. */
static char *
layout_batch (Layout layout, guint n)
{
  GString *b = g_string_new (NULL);

  g_string_append (b, "qdisc del dev lo clsact\nqdisc add dev lo clsact\n");
  for (guint i = 1; i <= n; i++)
    if (layout == LAYOUT_PROGS)
      g_string_append_printf (b, "filter add dev lo egress prio 1 handle %u protocol all "
                              "bpf bytecode \"1,6 0 0 0,\"\n", i);
    else
      g_string_append_printf (b, "filter add dev lo egress prio %u protocol %s "
                              "bpf bytecode \"1,6 0 0 0,\"\n", i,
                              layout == LAYOUT_SKIPS ? "ipv6" : "all");
  return g_string_free (b, FALSE);
}

/* Sets lo up in this namespace; FALSE (errno set) on failure. */
static gboolean
loopback_up (void)
{
  struct ifreq ifr = { 0 };
  int fd = socket (AF_INET, SOCK_DGRAM, 0);
  gboolean ok;

  if (fd < 0)
    return FALSE;
  g_strlcpy (ifr.ifr_name, "lo", sizeof ifr.ifr_name);
  ok = ioctl (fd, SIOCGIFFLAGS, &ifr) == 0;
  ifr.ifr_flags |= IFF_UP;
  ok = ok && ioctl (fd, SIOCSIFFLAGS, &ifr) == 0;
  close (fd);
  return ok;
}

/* The best of 7 runs of `sends` sendto()s of the frame to lo on fd: nanoseconds per
 * send; NAN if a send fails. */
static double
time_sends (int fd, guint sends)
{
  guint8 frame[FRAME_BYTES] = { 0 };
  struct sockaddr_ll to = { .sll_family = AF_PACKET, .sll_halen = 6,
                            .sll_protocol = htons (ETHERTYPE_LOCAL_EXP) };
  double best = INFINITY;

  to.sll_ifindex = (int) if_nametoindex ("lo");
  frame[12] = ETHERTYPE_LOCAL_EXP >> 8;
  frame[13] = ETHERTYPE_LOCAL_EXP & 0xFF;
  for (int r = 0; r < 8; r++) {         /* the first run warms the path */
    double t0 = ns_hostbench_now_ns ();
    for (guint s = 0; s < sends; s++)
      if (sendto (fd, frame, sizeof frame, 0, (struct sockaddr *) &to, sizeof to) < 0)
        return NAN;
    /* once: MIN evaluates its arguments twice */
    double per = (ns_hostbench_now_ns () - t0) / sends;

    if (r > 0)
      best = MIN (best, per);
  }
  return best;
}

/* Cycles per packet for each layout and filter count into y[layout][count]: the median
 * of --runs sweeps; FALSE with *error set on a tc or send failure. */
static gboolean
median_cycles_per_packet (int fd, guint sends, double ghz, double y[N_LAYOUTS][N_COUNTS],
                          GError **error)
{
  const guint runs = (guint) opt_runs;
  g_autofree double *samples = g_new (double, N_LAYOUTS * N_COUNTS * runs);

  for (guint r = 0; r < runs; r++)
    for (guint l = 0; l < N_LAYOUTS; l++)
      for (guint i = 0; i < N_COUNTS; i++) {
        g_autofree char *batch = layout_batch ((Layout) l, filter_counts[i]);
        double ns;

        if (!tc_batch (batch, error))
          return FALSE;
        ns = time_sends (fd, sends);
        if (isnan (ns)) {
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), "sendto: %s",
                       g_strerror (errno));
          return FALSE;
        }
        samples[(l * N_COUNTS + i) * runs + r] = ns * ghz;
      }
  for (guint l = 0; l < N_LAYOUTS; l++)
    for (guint i = 0; i < N_COUNTS; i++) {
      double *s = samples + (l * N_COUNTS + i) * runs;
      gsl_sort (s, 1, runs);
      y[l][i] = gsl_stats_median_from_sorted_data (s, 1, runs);
    }
  return TRUE;
}

/* Enters a network namespace of its own with lo up and a clsact qdisc on it (which
 * also shows that tc and clsact work); FALSE with *error set if it cannot. */
static gboolean
private_loopback (GError **error)
{
  if (unshare (CLONE_NEWNET) < 0 || !loopback_up ()) {
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
                 "a network namespace with lo up: %s", g_strerror (errno));
    return FALSE;
  }
  return tc_batch ("qdisc add dev lo clsact\n", error);
}

/* Prints each point, each layout's least-squares slope over the filter counts and their
 * difference, and the skipped filters' slope over the counts up to 100. */
static void
print_figures (double y[N_LAYOUTS][N_COUNTS])
{
  double x[N_COUNTS], slope[N_LAYOUTS], skipped_l1, c0, cov00, cov01, cov11, sumsq;

  for (guint i = 0; i < N_COUNTS; i++)
    x[i] = filter_counts[i];
  for (guint l = 0; l < N_LAYOUTS; l++) {
    for (guint i = 0; i < N_COUNTS; i++)
      printf ("cycles_per_packet_%s_%u %.0f\n", layout_names[l], filter_counts[i], y[l][i]);
    for (guint i = 1; i < N_COUNTS; i++)
      printf ("cycles_per_step_%s_%u_to_%u %.2f\n", layout_names[l], filter_counts[i - 1],
              filter_counts[i], (y[l][i] - y[l][i - 1]) / (x[i] - x[i - 1]));
    gsl_fit_linear (x, 1, y[l], 1, N_COUNTS, &c0, &slope[l], &cov00, &cov01, &cov11, &sumsq);
  }
  printf ("cycles_per_filter_prios %.2f\n", slope[LAYOUT_PRIOS]);
  printf ("cycles_per_prog_progs %.2f\n", slope[LAYOUT_PROGS]);
  printf ("cycles_per_tcf_proto_step %.2f\n", slope[LAYOUT_PRIOS] - slope[LAYOUT_PROGS]);
  printf ("cycles_per_filter_skipped %.2f\n", slope[LAYOUT_SKIPS]);
  /* the skipped filters' tcf_proto lines stay in the L1D up to 100 (12.8 KiB at 200 share
   * it with the path's own lines): their slope there is the walk's step beside the chase */
  gsl_fit_linear (x, 1, y[LAYOUT_SKIPS], 1, N_COUNTS_L1, &c0, &skipped_l1, &cov00, &cov01,
                  &cov11, &sumsq);
  printf ("cycles_per_filter_skipped_to_100 %.2f\n", skipped_l1);
}

/* Prints the vulnerabilities file name's line as "name line" ("name unknown" if
 * unreadable). */
static void
print_vulnerability (const char *name)
{
  g_autofree char *path = g_strdup_printf ("/sys/devices/system/cpu/vulnerabilities/%s", name);
  g_autofree char *text = ns_hostbench_sysfs_read (path);

  printf ("%s %s\n", name, text ? text : "unknown");
}

static const GOptionEntry entries[] = {
  { "scale", 's', 0, G_OPTION_ARG_INT, &opt_scale, "Scale of the number of sends", "N" },
  { "runs", 'r', 0, G_OPTION_ARG_INT, &opt_runs,
    "Sweeps over the layouts and every filter count, interleaved; each point's median "
    "(default 1)", "N" },
  { "tc", 0, 0, G_OPTION_ARG_STRING, &opt_tc, "The tc program (default: tc on PATH)", "PATH" },
  { NULL }
};

/* bench-tc-walk [OPTION…]: cycles per packet at each filter count in each layout, per
 * filter, per program, per tcf_proto step and per skipped filter. */
int
main (int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
  double y[N_LAYOUTS][N_COUNTS], ghz;
  struct utsname uts;
  int fd;

  if (!ns_hostbench_parse_args ("bench-tc-walk", "— what one more tc filter costs "
                                "this kernel", entries, &argc, &argv))
    return 2;
  if (opt_scale < 1 || opt_scale > 1000 || opt_runs < 1 || opt_runs > 99) {
    fprintf (stderr, "bench-tc-walk: --scale must be 1 to 1000, --runs 1 to 99\n");
    return 2;
  }
  if (opt_tc == NULL)
    opt_tc = g_strdup ("tc");
  if (!private_loopback (&error)) {
    printf ("skipped %s (needs root and iproute2's tc with clsact and cls_bpf)\n",
            error->message);
    return 0;
  }
  fd = socket (AF_PACKET, SOCK_RAW, 0);
  if (fd < 0) {
    printf ("skipped AF_PACKET socket: %s\n", g_strerror (errno));
    return 0;
  }
  ghz = ns_hostbench_core_ghz (10000000, 5);
  if (!median_cycles_per_packet (fd, 20000 * (guint) opt_scale, ghz, y, &error)) {
    fprintf (stderr, "bench-tc-walk: %s\n", error->message);
    close (fd);
    return 1;
  }
  close (fd);
  print_figures (y);
  printf ("runs %d\ncore_clock_ghz %.3f\n", opt_runs, ghz);
  print_vulnerability ("spectre_v2");
  print_vulnerability ("spec_rstack_overflow");
  if (uname (&uts) == 0)
    printf ("kernel %s\n", uts.release);
  return 0;
}
