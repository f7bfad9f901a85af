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
 * Linux only. Optional arguments: datagram length in bytes (default 8920, seed 000's)
 * and a scale factor for the number of writes (default 1). */
#include "config.h"
#include <arpa/inet.h>
#include <errno.h>
#include <gsl/gsl_fit.h>
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

/* One UDP socket bound to 127.0.0.1:port (port 0: any) with SO_REUSEADDR; -1 on error. */
static int
bound_socket (guint16 port)
{
  struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons (port),
                             .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  int one = 1, fd = socket (AF_INET, SOCK_DGRAM, 0);

  if (fd < 0)
    return -1;
  if (setsockopt (fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0
      || bind (fd, (struct sockaddr *) &sin, sizeof sin) < 0) {
    close (fd);
    return -1;
  }
  return fd;
}

/* The port fd is bound to. */
static guint16
bound_port (int fd)
{
  struct sockaddr_in sin;
  socklen_t len = sizeof sin;

  getsockname (fd, (struct sockaddr *) &sin, &len);
  return ntohs (sin.sin_port);
}

/* A UDP socket connected to 127.0.0.1:port; -1 on error. */
static int
client_socket (guint16 port)
{
  struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons (port),
                             .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  int fd = socket (AF_INET, SOCK_DGRAM, 0);

  if (fd >= 0 && connect (fd, (struct sockaddr *) &sin, sizeof sin) < 0) {
    close (fd);
    return -1;
  }
  return fd;
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
    best = MIN (best, (ns_hostbench_now_ns () - t0) / writes);
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
    servers[made] = bound_socket (bound_port (servers[0]));
    if (servers[made] < 0)
      goto socket_failed;
  }
  client = client_socket (bound_port (servers[0]));
  if (client < 0)
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

/* bench-udp-chain [LENGTH [SCALE]]: cycles per write() at each chain length and per
 * extra socket on the chain. */
int
main (int argc, char **argv)
{
  gsize len = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 8920;
  guint scale = argc > 2 ? (guint) g_ascii_strtoull (argv[2], NULL, 10) : 1;
  guint writes = 20000 * MAX (scale, 1);
  double x[G_N_ELEMENTS (chain_lengths)], y[G_N_ELEMENTS (chain_lengths)];
  double c0, c1, cov00, cov01, cov11, sumsq, ghz;
  char *buf;
  struct utsname uts;

  if (len < 1 || len > 65507) {
    fprintf (stderr, "bench-udp-chain: LENGTH must be 1 to 65507 bytes\n");
    return 2;
  }
  raise_fd_limit ();
  buf = g_malloc0 (len);
  ghz = ns_hostbench_core_ghz (10000000, 5);
  for (guint i = 0; i < G_N_ELEMENTS (chain_lengths); i++) {
    double ns = ns_per_write_with_chain (chain_lengths[i], buf, len, writes);

    if (isnan (ns))
      return 1;
    x[i] = chain_lengths[i];
    y[i] = ns * ghz;
    printf ("cycles_per_write_chain_%u %.0f\n", chain_lengths[i], y[i]);
    if (i > 0)
      printf ("cycles_per_socket_%u_to_%u %.2f\n", chain_lengths[i - 1], chain_lengths[i],
              (y[i] - y[i - 1]) / (x[i] - x[i - 1]));
  }
  gsl_fit_linear (x, 1, y, 1, G_N_ELEMENTS (x), &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
  printf ("cycles_per_socket_fit %.2f\n", c1);
  printf ("datagram_bytes %zu\n", len);
  printf ("core_clock_ghz %.3f\n", ghz);
  if (uname (&uts) == 0)
    printf ("kernel %s\n", uts.release);
  g_free (buf);
  return 0;
}
