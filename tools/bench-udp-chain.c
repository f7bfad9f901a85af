/* bench-udp-chain.c — what one more socket on a UDP port's hslot2 chain costs this host's
 * own kernel per datagram (seed 000's walk, measured in a real kernel, not a replica).
 *
 * For each chain length N, N unconnected AF_INET UDP sockets are bound to one port of
 * 127.0.0.1 (SO_REUSEADDR, as iperf3's server sockets share theirs), and one connected
 * client write()s datagrams to that port. Loopback runs the receive softirq inside the
 * write, so each write pays __udp4_lib_lookup's walk over all N sockets (the walk keeps
 * the best score and has no early exit); once the receiving socket's queue is full each
 * datagram is dropped after the lookup, the same at every N. The server sockets are
 * unconnected on purpose: since Linux 6.14 a connected UDP socket is also found through
 * the 4-tuple hash (hash4) without walking the chain. The difference between two chain
 * lengths is therefore the kernel's walk over the extra sockets: its compute_score
 * (inlined wherever the kernel has one call site) and the sockets' cache misses, under
 * whatever mitigations the running kernel applies (it does not say; see
 * /sys/devices/system/cpu/vulnerabilities). The core clock comes from a chain of
 * dependent ADDs (ns_hostbench_core_ghz).
 * Prints "name value" lines: cycles per write at each N, cycles per extra socket between
 * successive N, the least-squares slope over all N, the clock and the kernel release.
 * Options: --ipv6 (AF_INET6 sockets on ::1), --connected (the receiving socket connected
 * to the client, the others not: on 6.14+ the hash4 lookup finds it without the walk),
 * --length (default 8920, seed 000's), --scale (of the number of writes), --runs (whole
 * sweeps over the chain lengths, interleaved so that a slow spell of a shared host hits
 * every length alike; each length's median is printed). Linux only. */
#include "config.h"
#include <arpa/inet.h>
#include <errno.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "hostbench.h"

static const guint chain_lengths[] = { 1, 16, 64, 256, 512 };

static gboolean opt_ipv6, opt_connected;
static gint opt_length = 8920, opt_scale = 1, opt_runs = 1;

/* The loopback address of the family in use with port (host order). */
static socklen_t
loopback_addr (struct sockaddr_storage *ss, guint16 port)
{
  memset (ss, 0, sizeof *ss);
  if (opt_ipv6) {
    struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *) ss;
    sin6->sin6_family = AF_INET6;
    sin6->sin6_port = htons (port);
    sin6->sin6_addr = in6addr_loopback;
    return sizeof *sin6;
  } else {
    struct sockaddr_in *sin = (struct sockaddr_in *) ss;
    sin->sin_family = AF_INET;
    sin->sin_port = htons (port);
    sin->sin_addr.s_addr = htonl (INADDR_LOOPBACK);
    return sizeof *sin;
  }
}

/* The port (host order) of the address fd is bound (peer: connected) to. */
static guint16
socket_port (int fd, gboolean peer)
{
  struct sockaddr_storage ss;
  socklen_t len = sizeof ss;

  if ((peer ? getpeername : getsockname) (fd, (struct sockaddr *) &ss, &len) < 0)
    return 0;
  return ntohs (ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *) &ss)->sin6_port
                                         : ((struct sockaddr_in *) &ss)->sin_port);
}

/* One UDP socket bound to the loopback address and port (0: any) with SO_REUSEADDR
 * (IPv6: IPV6_V6ONLY, as a socket on ::1 is anyway); -1 on error. */
static int
bound_socket (guint16 port)
{
  struct sockaddr_storage ss;
  socklen_t len = loopback_addr (&ss, port);
  int one = 1, fd = socket (ss.ss_family, SOCK_DGRAM, 0);

  if (fd < 0)
    return -1;
  if (setsockopt (fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0
      || (opt_ipv6 && setsockopt (fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one) < 0)
      || bind (fd, (struct sockaddr *) &ss, len) < 0) {
    close (fd);
    return -1;
  }
  return fd;
}

/* Connects fd to the loopback address at port; FALSE on error. */
static gboolean
connect_to (int fd, guint16 port)
{
  struct sockaddr_storage ss;
  socklen_t len = loopback_addr (&ss, port);

  return connect (fd, (struct sockaddr *) &ss, len) == 0;
}

/* The best of 7 runs of `writes` write()s of len bytes on fd: nanoseconds per write;
 * NAN if a write fails. */
static double
time_writes (int fd, const char *buf, gsize len, guint writes)
{
  double best = INFINITY;

  for (guint w = 0; w < writes / 4; w++)        /* warm the path, fill the queue */
    if (write (fd, buf, len) < 0)
      return NAN;
  for (int r = 0; r < 7; r++) {
    double t0 = ns_hostbench_now_ns ();
    for (guint w = 0; w < writes; w++)
      if (write (fd, buf, len) < 0)
        return NAN;
    /* once: MIN evaluates its arguments twice */
    double per = (ns_hostbench_now_ns () - t0) / writes;

    best = MIN (best, per);
  }
  return best;
}

/* Nanoseconds per write with n server sockets on the port's chain; NAN on a socket
 * error (reported on standard error). */
static double
ns_per_write_with_chain (guint n, const char *buf, gsize len, guint writes)
{
  int *servers = g_new (int, n), client = -1;
  guint made = 0;
  double ns = NAN;

  servers[made] = bound_socket (0);
  if (servers[made] < 0)
    goto socket_failed;
  for (made = 1; made < n; made++) {
    servers[made] = bound_socket (socket_port (servers[0], FALSE));
    if (servers[made] < 0)
      goto socket_failed;
  }
  client = bound_socket (0);
  if (client < 0 || !connect_to (client, socket_port (servers[0], FALSE)))
    goto socket_failed;
  if (opt_connected && !connect_to (servers[n - 1], socket_port (client, FALSE)))
    goto socket_failed;
  ns = time_writes (client, buf, len, writes);
  if (isnan (ns))
    fprintf (stderr, "bench-udp-chain: write: %s\n", g_strerror (errno));
  goto done;

  /* ERRORS */
socket_failed:
  fprintf (stderr, "bench-udp-chain: socket %u of %u: %s\n", made + 1, n,
           g_strerror (errno));
done:
  if (client >= 0)
    close (client);
  for (guint i = 0; i < made; i++)
    close (servers[i]);
  g_free (servers);
  return ns;
}

/* Cycles per write at each chain length into y: the median of --runs sweeps over the
 * lengths; FALSE (reported) on a socket error. */
static gboolean
median_cycles_per_write (const char *buf, guint writes, double ghz, double *y)
{
  const guint n = G_N_ELEMENTS (chain_lengths), runs = (guint) opt_runs;
  g_autofree double *samples = g_new (double, n * runs);

  for (guint r = 0; r < runs; r++)
    for (guint i = 0; i < n; i++) {
      double ns = ns_per_write_with_chain (chain_lengths[i], buf, (gsize) opt_length, writes);
      if (isnan (ns))
        return FALSE;
      samples[i * runs + r] = ns * ghz;
    }
  for (guint i = 0; i < n; i++) {
    gsl_sort (samples + i * runs, 1, runs);
    y[i] = gsl_stats_median_from_sorted_data (samples + i * runs, 1, runs);
  }
  return TRUE;
}

/* Raises the open-file limit to its hard maximum (the longest chain needs > 512 fds). */
static void
raise_fd_limit (void)
{
  struct rlimit rl;

  if (getrlimit (RLIMIT_NOFILE, &rl) == 0) {
    rl.rlim_cur = rl.rlim_max;
    setrlimit (RLIMIT_NOFILE, &rl);
  }
}

static const GOptionEntry entries[] = {
  { "ipv6", '6', 0, G_OPTION_ARG_NONE, &opt_ipv6, "AF_INET6 sockets on ::1", NULL },
  { "connected", 'c', 0, G_OPTION_ARG_NONE, &opt_connected,
    "Connect one chain socket to the client (6.14+: found through hash4, no walk)", NULL },
  { "length", 'l', 0, G_OPTION_ARG_INT, &opt_length, "Datagram bytes (default 8920)", "N" },
  { "scale", 's', 0, G_OPTION_ARG_INT, &opt_scale, "Scale of the number of writes", "N" },
  { "runs", 'r', 0, G_OPTION_ARG_INT, &opt_runs,
    "Sweeps over the chain lengths, interleaved; each length's median (default 1)", "N" },
  { NULL }
};

/* bench-udp-chain [OPTION…]: cycles per write() at each chain length and per extra
 * socket on the chain. */
int
main (int argc, char **argv)
{
  guint writes;
  double x[G_N_ELEMENTS (chain_lengths)], y[G_N_ELEMENTS (chain_lengths)];
  double c0, c1, cov00, cov01, cov11, sumsq, ghz;
  char *buf;
  struct utsname uts;

  if (!ns_hostbench_parse_args ("bench-udp-chain", "— what one more socket on a UDP "
                                "port's chain costs this kernel", entries, &argc, &argv))
    return 2;
  if (opt_length < 1 || opt_length > 65507 || opt_scale < 1 || opt_runs < 1 || opt_runs > 99) {
    fprintf (stderr, "bench-udp-chain: --length must be 1 to 65507 bytes, --scale ≥ 1, "
             "--runs 1 to 99\n");
    return 2;
  }
  writes = 20000 * (guint) opt_scale;
  raise_fd_limit ();
  buf = g_malloc0 ((gsize) opt_length);
  ghz = ns_hostbench_core_ghz (10000000, 5);
  if (!median_cycles_per_write (buf, writes, ghz, y))
    return 1;
  for (guint i = 0; i < G_N_ELEMENTS (chain_lengths); i++) {
    x[i] = chain_lengths[i];
    printf ("cycles_per_write_chain_%u %.0f\n", chain_lengths[i], y[i]);
    if (i > 0)
      printf ("cycles_per_socket_%u_to_%u %.2f\n", chain_lengths[i - 1], chain_lengths[i],
              (y[i] - y[i - 1]) / (x[i] - x[i - 1]));
  }
  gsl_fit_linear (x, 1, y, 1, G_N_ELEMENTS (x), &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
  printf ("cycles_per_socket_fit %.2f\n", c1);
  printf ("family %s\nreceiver %s\n", opt_ipv6 ? "ipv6" : "ipv4",
          opt_connected ? "connected" : "unconnected");
  printf ("datagram_bytes %d\nruns %d\n", opt_length, opt_runs);
  printf ("core_clock_ghz %.3f\n", ghz);
  if (uname (&uts) == 0)
    printf ("kernel %s\n", uts.release);
  g_free (buf);
  return 0;
}
