/* udp-kernel.c — real UDP sockets on loopback: the kernel half of the UDP lookup
 * differential test. See udp-kernel.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE       /* unshare, sched_setaffinity, sched_getcpu */
#endif
#include "config.h"

#include "udp-kernel.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define UK_MAGIC        0x75647064u   /* "udpd" */
#define UK_SENTINEL     0xffffffffu   /* packet id of the sentinel datagram */
#define UK_SENTINEL_MS  2000          /* longest wait for the sentinel */
#define UK_ERROR        (g_quark_from_static_string ("uk-error"))

struct _UkHost {
  gboolean private_netns;
  gboolean has_ipv6;
  gboolean can_bind_dev;
  gboolean bind_scans_all;
  gboolean bind_hash2_fixed;
  int      lo_ifindex;
  int      cpu;           /* the CPU the process is pinned to, -1 if pinning failed */
  GArray  *cpus;          /* int: the CPUs the process could run on before pinning */
  guint32  nonce;         /* tells this process's datagrams from any stray ones */
  int      sentinel_tx;   /* AF_INET, 127.0.0.1:any */
  int      sentinel_rx;   /* AF_INET, 127.0.0.1:any */
  UkAddr   sentinel_addr;
};

typedef struct {
  int    fd;
  UkAddr addr;
} UkClient;

struct _UkTable {
  UkHost *host;
  GArray *socks;          /* int fds, in creation order */
  GArray *clients;        /* UkClient */
};

typedef struct {
  guint32 magic;
  guint32 nonce;
  guint32 case_id;
  guint32 pkt_id;
} UkPayload;

/* ---- endpoints ---- */

/* Fills an IPv4 endpoint a.b.c.d:port. */
void
uk_addr_v4 (UkAddr *a, guint8 b0, guint8 b1, guint8 b2, guint8 b3, guint16 port)
{
  memset (a, 0, sizeof (*a));
  a->family = AF_INET;
  a->addr[0] = b0;
  a->addr[1] = b1;
  a->addr[2] = b2;
  a->addr[3] = b3;
  a->port = port;
}

/* Fills [::1]:port. */
void
uk_addr_v6_loopback (UkAddr *a, guint16 port)
{
  memset (a, 0, sizeof (*a));
  a->family = AF_INET6;
  a->addr[15] = 1;
  a->port = port;
}

/* Fills [::]:port. */
void
uk_addr_v6_any (UkAddr *a, guint16 port)
{
  memset (a, 0, sizeof (*a));
  a->family = AF_INET6;
  a->port = port;
}

/* Fills [::ffff:a.b.c.d]:port from an IPv4 endpoint. */
void
uk_addr_v4_mapped (UkAddr *a, const UkAddr *v4)
{
  g_return_if_fail (v4->family == AF_INET);

  memset (a, 0, sizeof (*a));
  a->family = AF_INET6;
  a->addr[10] = 0xff;
  a->addr[11] = 0xff;
  memcpy (a->addr + 12, v4->addr, 4);
  a->port = v4->port;
}

/* Whether a is an IPv6 v4-mapped endpoint. */
gboolean
uk_addr_is_v4_mapped (const UkAddr *a)
{
  static const guint8 prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

  return a->family == AF_INET6 && memcmp (a->addr, prefix, 12) == 0;
}

/* Same family, address and port. */
gboolean
uk_addr_equal (const UkAddr *a, const UkAddr *b)
{
  gsize len = a->family == AF_INET ? 4 : 16;

  return a->family == b->family && a->port == b->port && memcmp (a->addr, b->addr, len) == 0;
}

/* Text form of an endpoint, into buf. */
const char *
uk_addr_str (const UkAddr *a, char *buf, gsize size)
{
  char host[INET6_ADDRSTRLEN];

  if (inet_ntop (a->family, a->addr, host, sizeof (host)) == NULL)
    g_strlcpy (host, "?", sizeof (host));
  if (a->family == AF_INET6)
    g_snprintf (buf, size, "[%s]:%u", host, a->port);
  else
    g_snprintf (buf, size, "%s:%u", host, a->port);
  return buf;
}

/* The sockaddr for an endpoint; returns its length. */
static socklen_t
uk_sockaddr (const UkAddr *a, struct sockaddr_storage *ss)
{
  memset (ss, 0, sizeof (*ss));
  if (a->family == AF_INET) {
    struct sockaddr_in *sin = (struct sockaddr_in *) ss;
    sin->sin_family = AF_INET;
    sin->sin_port = htons (a->port);
    memcpy (&sin->sin_addr, a->addr, 4);
    return sizeof (*sin);
  } else {
    struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *) ss;
    sin6->sin6_family = AF_INET6;
    sin6->sin6_port = htons (a->port);
    memcpy (&sin6->sin6_addr, a->addr, 16);
    return sizeof (*sin6);
  }
}

/* The endpoint of a sockaddr. */
static void
uk_from_sockaddr (const struct sockaddr_storage *ss, UkAddr *a)
{
  memset (a, 0, sizeof (*a));
  a->family = ss->ss_family;
  if (ss->ss_family == AF_INET) {
    const struct sockaddr_in *sin = (const struct sockaddr_in *) ss;
    memcpy (a->addr, &sin->sin_addr, 4);
    a->port = ntohs (sin->sin_port);
  } else {
    const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *) ss;
    memcpy (a->addr, &sin6->sin6_addr, 16);
    a->port = ntohs (sin6->sin6_port);
  }
}

/* Local endpoint of fd. */
static gboolean
uk_getsockname (int fd, UkAddr *a)
{
  struct sockaddr_storage ss;
  socklen_t len = sizeof (ss);

  if (getsockname (fd, (struct sockaddr *) &ss, &len) < 0)
    return FALSE;
  uk_from_sockaddr (&ss, a);
  return TRUE;
}

/* A non-blocking datagram socket bound to a, or -1 (errno kept). */
static int
uk_bound_socket (const UkAddr *a, gboolean v6only)
{
  struct sockaddr_storage ss;
  socklen_t len = uk_sockaddr (a, &ss);
  int fd = socket (a->family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  int saved;

  if (fd < 0)
    return -1;
  if (a->family == AF_INET6) {
    int on = v6only ? 1 : 0;
    if (setsockopt (fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof (on)) < 0)
      goto fail;
  }
  if (bind (fd, (struct sockaddr *) &ss, len) < 0)
    goto fail;
  return fd;

/* ERRORS */
fail:
  saved = errno;
  close (fd);
  errno = saved;
  return -1;
}

/* ---- the host ---- */

/* Moves the process into a new network namespace with lo up; FALSE (nothing changed) if
 * not permitted. */
static gboolean
uk_enter_netns (GString *log)
{
  struct ifreq ifr;
  int fd;

  if (unshare (CLONE_NEWNET) < 0) {
    g_string_append_printf (log, "udp-diff: no private network namespace (%s); "
                            "using the default one\n", g_strerror (errno));
    return FALSE;
  }
  fd = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    goto fail;
  memset (&ifr, 0, sizeof (ifr));
  g_strlcpy (ifr.ifr_name, "lo", IFNAMSIZ);
  if (ioctl (fd, SIOCGIFFLAGS, &ifr) < 0)
    goto fail_close;
  ifr.ifr_flags |= IFF_UP;
  if (ioctl (fd, SIOCSIFFLAGS, &ifr) < 0)
    goto fail_close;
  close (fd);
  return TRUE;

/* ERRORS */
fail_close:
  close (fd);
fail:
  /* Already in the new namespace: it cannot be left, so the test cannot run here. */
  g_error ("udp-diff: new network namespace but lo cannot be brought up: %s",
           g_strerror (errno));
  return FALSE;
}

/* Pins the process to the highest-numbered CPU it may run on (so that a host with two CPUs
 * runs everything on CPU 1, not the model's default CPU 0), noting in host->cpus the CPUs
 * it could run on. All loopback softirq work then happens in order on that CPU's backlog:
 * loopback_xmit → __netif_rx → netif_rx_internal queues to smp_processor_id()'s backlog
 * when no RPS map sends it elsewhere (lo has none), and the datagram is received there, so
 * raw_smp_processor_id() in compute_score is host->cpu for every packet. */
static void
uk_pin_cpu (UkHost *host, GString *log)
{
  cpu_set_t set;

  host->cpu = -1;
  if (sched_getaffinity (0, sizeof (set), &set) < 0)
    goto fail;
  for (int c = 0; c < CPU_SETSIZE; c++)
    if (CPU_ISSET (c, &set)) {
      g_array_append_val (host->cpus, c);
      host->cpu = c;
    }
  if (host->cpu < 0)
    goto fail;
  CPU_ZERO (&set);
  CPU_SET (host->cpu, &set);
  if (sched_setaffinity (0, sizeof (set), &set) < 0 || sched_getcpu () != host->cpu)
    goto fail;
  return;

/* ERRORS */
fail:
  host->cpu = -1;
  g_string_append_printf (log, "udp-diff: cannot pin to one CPU (%s); relying on the "
                          "sentinel alone, SO_INCOMING_CPU not compared\n",
                          g_strerror (errno));
}

/* Whether an IPv6 socket can be bound to [::1]. */
static gboolean
uk_probe_ipv6 (GString *log)
{
  UkAddr a;
  int fd;

  uk_addr_v6_loopback (&a, 0);
  fd = uk_bound_socket (&a, TRUE);
  if (fd < 0) {
    g_string_append_printf (log, "udp-diff: IPv6 loopback unusable (%s); IPv6 cases "
                            "skipped\n", g_strerror (errno));
    return FALSE;
  }
  close (fd);
  return TRUE;
}

/* Sets an int socket option to 1. */
static gboolean
uk_set_on (int fd, int level, int name)
{
  int on = 1;

  return setsockopt (fd, level, name, &on, sizeof (on)) == 0;
}

/* A datagram socket with SO_REUSEPORT if reuseport, bound to 127.0.0.a:port, or -1. */
static int
uk_probe_socket (guint8 a, guint16 port, gboolean reuseport)
{
  struct sockaddr_storage ss;
  UkAddr addr;
  socklen_t len;
  int fd = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

  uk_addr_v4 (&addr, a ? 127 : 0, 0, 0, a, port);
  len = uk_sockaddr (&addr, &ss);
  if (fd >= 0 && (!reuseport || uk_set_on (fd, SOL_SOCKET, SO_REUSEPORT)) &&
      bind (fd, (struct sockaddr *) &ss, len) == 0)
    return fd;
  if (fd >= 0)
    close (fd);
  return -1;
}

/* Whether the kernel's bind() weighs every socket it overlaps, not only the first on the
 * port's chain: 127.0.0.2 (plain), then 127.0.0.1 (SO_REUSEPORT) on one port; a wildcard
 * SO_REUSEPORT bind overlaps both, the reuseport one first (chains are newest first). A
 * kernel whose first overlapping socket decides (udp_lib_lport_inuse's early return, up to
 * 6.9 at least) accepts it; one that weighs them all refuses it, for the plain socket. */
static gboolean
uk_probe_bind_scans_all (GString *log)
{
  int fd[3] = { -1, -1, -1 };
  gboolean all = FALSE;
  UkAddr a;
  guint16 port;

  uk_addr_v4 (&a, 127, 0, 0, 2, 0);
  fd[0] = uk_bound_socket (&a, FALSE);
  if (fd[0] < 0 || !uk_getsockname (fd[0], &a))
    goto out;
  port = a.port;
  fd[1] = uk_probe_socket (1, port, TRUE);
  if (fd[1] < 0)
    goto out;
  fd[2] = uk_probe_socket (0, port, TRUE);
  all = fd[2] < 0 && errno == EADDRINUSE;
  g_string_append_printf (log, "udp-kernel: bind() weighs %s overlapping socket (probed on "
                          "port %u)\n", all ? "every" : "the first", port);
out:
  for (guint i = 0; i < G_N_ELEMENTS (fd); i++)
    if (fd[i] >= 0)
      close (fd[i]);
  return all;
}

/* Whether the kernel's bind() runs e537dd15d0d4's check: 127.0.0.1 to 127.0.0.11 (plain)
 * on one port put 11 sockets in its primary slot; a plain 0.0.0.0 bind overlaps them all.
 * A kernel without the fix checks only the wildcard's hash2 chain and accepts it. */
static gboolean
uk_probe_bind_hash2_fixed (GString *log)
{
  int fd[12];
  gboolean fixed = FALSE;
  guint n = 0;
  UkAddr a;
  guint16 port;

  uk_addr_v4 (&a, 127, 0, 0, 1, 0);
  fd[n] = uk_bound_socket (&a, FALSE);
  if (fd[n] < 0 || !uk_getsockname (fd[n++], &a))
    goto out;
  port = a.port;
  for (guint8 b3 = 2; b3 <= 11; b3++)
    if ((fd[n++] = uk_probe_socket (b3, port, FALSE)) < 0)
      goto out;
  fd[n] = uk_probe_socket (0, port, FALSE);
  fixed = fd[n++] < 0 && errno == EADDRINUSE;
  g_string_append_printf (log, "udp-kernel: a wildcard bind() %s 11 sockets bound to "
                          "specific addresses (e537dd15d0d4 %s; probed on port %u)\n",
                          fixed ? "sees" : "misses", fixed ? "in" : "not in", port);
out:
  for (guint i = 0; i < n; i++)
    if (fd[i] >= 0)
      close (fd[i]);
  return fixed;
}

/* Sets up the environment (see udp-kernel.h). */
UkHost *
uk_host_new (GString *log, GError **error)
{
  UkHost *host = g_new0 (UkHost, 1);
  UkAddr a;

  host->sentinel_tx = host->sentinel_rx = -1;
  host->cpus = g_array_new (FALSE, FALSE, sizeof (int));
  host->private_netns = uk_enter_netns (log);
  uk_pin_cpu (host, log);
  host->lo_ifindex = (int) if_nametoindex ("lo");
  if (host->lo_ifindex <= 0)
    goto fail;
  host->has_ipv6 = uk_probe_ipv6 (log);
  host->can_bind_dev = TRUE;
  host->bind_scans_all = uk_probe_bind_scans_all (log);
  host->bind_hash2_fixed = uk_probe_bind_hash2_fixed (log);
  host->nonce = (guint32) getpid () ^ g_random_int ();

  uk_addr_v4 (&a, 127, 0, 0, 1, 0);
  host->sentinel_tx = uk_bound_socket (&a, FALSE);
  if (host->sentinel_tx < 0)
    goto fail;
  host->sentinel_rx = uk_bound_socket (&a, FALSE);
  if (host->sentinel_rx < 0 || !uk_getsockname (host->sentinel_rx, &host->sentinel_addr))
    goto fail;
  return host;

/* ERRORS */
fail:
  g_set_error (error, UK_ERROR, errno,
               "IPv4 loopback sockets unusable: %s", g_strerror (errno));
  uk_host_free (host);
  return NULL;
}

/* Closes the sentinel sockets and frees the host. */
void
uk_host_free (UkHost *host)
{
  if (host == NULL)
    return;
  if (host->sentinel_tx >= 0)
    close (host->sentinel_tx);
  if (host->sentinel_rx >= 0)
    close (host->sentinel_rx);
  g_array_unref (host->cpus);
  g_free (host);
}

/* Whether IPv6 loopback sockets work. */
gboolean
uk_host_has_ipv6 (const UkHost *host)
{
  return host->has_ipv6;
}

/* Whether the test runs in its own network namespace. */
gboolean
uk_host_private_netns (const UkHost *host)
{
  return host->private_netns;
}

/* Whether SO_BINDTODEVICE is (still believed to be) permitted. */
gboolean
uk_host_can_bind_dev (const UkHost *host)
{
  return host->can_bind_dev;
}

/* Whether bind() refuses an overlap with any socket it may not share the port with (see
 * udp-kernel.h). */
gboolean
uk_host_bind_scans_all (const UkHost *host)
{
  return host->bind_scans_all;
}

/* Whether the host's bind() runs e537dd15d0d4's check (probed; see udp-kernel.h). */
gboolean
uk_host_bind_hash2_fixed (const UkHost *host)
{
  return host->bind_hash2_fixed;
}

/* The CPU every datagram is received on, or -1 (see udp-kernel.h). */
int
uk_host_cpu (const UkHost *host)
{
  return host->cpu;
}

/* The CPUs the process could run on before it was pinned (see udp-kernel.h). */
const int *
uk_host_cpus (const UkHost *host, guint *n)
{
  *n = host->cpus->len;
  return (const int *) host->cpus->data;
}

/* lo's interface index in the test's namespace. */
int
uk_host_lo_ifindex (const UkHost *host)
{
  return host->lo_ifindex;
}

/* A port free on every loopback address (see udp-kernel.h). */
guint16
uk_host_free_port (UkHost *host, guint16 hint)
{
  UkAddr a, got;
  int fd = -1;

  if (host->has_ipv6)
    uk_addr_v6_any (&a, 0);           /* dual-stack [::] covers IPv4 too */
  else
    uk_addr_v4 (&a, 0, 0, 0, 0, 0);
  if (host->private_netns && hint != 0) {
    a.port = hint;
    fd = uk_bound_socket (&a, FALSE);
  }
  if (fd < 0) {
    a.port = 0;
    fd = uk_bound_socket (&a, FALSE);
  }
  if (fd < 0)
    return 0;
  if (!uk_getsockname (fd, &got))
    got.port = 0;
  close (fd);
  return got.port;
}

/* ---- one case ---- */

/* An empty case. */
UkTable *
uk_table_new (UkHost *host)
{
  UkTable *table = g_new0 (UkTable, 1);

  table->host = host;
  table->socks = g_array_new (FALSE, FALSE, sizeof (int));
  table->clients = g_array_new (FALSE, FALSE, sizeof (UkClient));
  return table;
}

/* Closes every socket of the case and frees it. */
void
uk_table_free (UkTable *table)
{
  if (table == NULL)
    return;
  for (guint i = 0; i < table->socks->len; i++)
    close (g_array_index (table->socks, int, i));
  for (guint i = 0; i < table->clients->len; i++)
    close (g_array_index (table->clients, UkClient, i).fd);
  g_array_free (table->socks, TRUE);
  g_array_free (table->clients, TRUE);
  g_free (table);
}

/* Binds a client socket (see udp-kernel.h). */
gboolean
uk_table_add_client (UkTable *table, UkAddr *addr)
{
  UkClient c;

  c.fd = uk_bound_socket (addr, addr->family == AF_INET6);
  if (c.fd < 0)
    return FALSE;
  if (!uk_getsockname (c.fd, &c.addr)) {
    int saved = errno;
    close (c.fd);
    errno = saved;
    return FALSE;
  }
  addr->port = c.addr.port;
  g_array_append_val (table->clients, c);
  return TRUE;
}

/* Creates the next table socket (see udp-kernel.h). */
int
uk_table_add (UkTable *table, const UkSockSpec *spec, UkAddr *bound, UkFail *fail,
              int *err)
{
  struct sockaddr_storage ss;
  socklen_t len;
  int fd;

  g_return_val_if_fail (spec->local.family == spec->family, -1);

  *fail = UK_FAIL_SOCKET;
  fd = socket (spec->family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0)
    goto fail;
  if (spec->family == AF_INET6) {
    int v6only = spec->v6only ? 1 : 0;   /* always explicit: the default is a sysctl */
    if (setsockopt (fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof (v6only)) < 0)
      goto fail_close;
  }
  if (spec->reuseaddr && !uk_set_on (fd, SOL_SOCKET, SO_REUSEADDR))
    goto fail_close;
  if (spec->reuseport && !uk_set_on (fd, SOL_SOCKET, SO_REUSEPORT))
    goto fail_close;
  if (spec->incoming_cpu >= 0 &&
      setsockopt (fd, SOL_SOCKET, SO_INCOMING_CPU, &spec->incoming_cpu,
                  sizeof (spec->incoming_cpu)) < 0)
    goto fail_close;
  if (spec->bind_dev) {
    *fail = UK_FAIL_BINDDEV;
    if (setsockopt (fd, SOL_SOCKET, SO_BINDTODEVICE, "lo", 3) < 0) {
      if (errno == EPERM)
        table->host->can_bind_dev = FALSE;
      goto fail_close;
    }
  }
  *fail = UK_FAIL_BIND;
  len = uk_sockaddr (&spec->local, &ss);
  if (bind (fd, (struct sockaddr *) &ss, len) < 0)
    goto fail_close;
  if (spec->connect) {
    *fail = UK_FAIL_CONNECT;
    len = uk_sockaddr (&spec->peer, &ss);
    if (connect (fd, (struct sockaddr *) &ss, len) < 0)
      goto fail_close;
  }
  if (bound != NULL && !uk_getsockname (fd, bound))
    goto fail_close;
  *fail = UK_OK;
  *err = 0;
  g_array_append_val (table->socks, fd);
  return (int) table->socks->len - 1;

/* ERRORS */
fail_close:
  *err = errno;
  close (fd);
  return -1;
fail:
  *err = errno;
  return -1;
}

/* Number of table sockets created so far. */
guint
uk_table_n_socks (const UkTable *table)
{
  return table->socks->len;
}

/* The client socket bound to src, or -1. */
static int
uk_client_fd (UkTable *table, const UkAddr *src)
{
  for (guint i = 0; i < table->clients->len; i++) {
    UkClient *c = &g_array_index (table->clients, UkClient, i);
    if (uk_addr_equal (&c->addr, src))
      return c->fd;
  }
  return -1;
}

/* Sends one payload from fd to dst. */
static gboolean
uk_send (int fd, const UkAddr *dst, const UkPayload *p)
{
  struct sockaddr_storage ss;
  socklen_t len = uk_sockaddr (dst, &ss);

  return sendto (fd, p, sizeof (*p), 0, (struct sockaddr *) &ss, len) == sizeof (*p);
}

/* Sends the sentinel and waits for it: once it is back, the loopback backlog has processed
 * every datagram sent before it (one CPU, FIFO). */
static gboolean
uk_sentinel (UkHost *host, guint32 case_id, GError **error)
{
  UkPayload p = { UK_MAGIC, host->nonce, case_id, UK_SENTINEL };
  gint64 deadline = g_get_monotonic_time () + UK_SENTINEL_MS * 1000;

  if (!uk_send (host->sentinel_tx, &host->sentinel_addr, &p))
    goto fail_send;
  for (;;) {
    struct pollfd pfd = { host->sentinel_rx, POLLIN, 0 };
    gint64 left = (deadline - g_get_monotonic_time ()) / 1000;
    UkPayload got;

    if (left <= 0 || poll (&pfd, 1, (int) left) <= 0)
      goto fail_timeout;
    if (recv (host->sentinel_rx, &got, sizeof (got), MSG_DONTWAIT) == sizeof (got) &&
        got.magic == UK_MAGIC && got.nonce == host->nonce && got.case_id == case_id &&
        got.pkt_id == UK_SENTINEL)
      return TRUE;
  }

/* ERRORS */
fail_send:
  g_set_error (error, UK_ERROR, errno,
               "sending the sentinel: %s", g_strerror (errno));
  return FALSE;
fail_timeout:
  g_set_error (error, UK_ERROR, ETIMEDOUT,
               "the sentinel datagram did not come back within %d ms", UK_SENTINEL_MS);
  return FALSE;
}

/* Reads every datagram queued on table socket `idx` into receivers[]. */
static gboolean
uk_drain (UkTable *table, guint idx, guint32 case_id, guint n, int *receivers,
          GError **error)
{
  int fd = g_array_index (table->socks, int, idx);
  UkPayload got;
  ssize_t r;

  while ((r = recv (fd, &got, sizeof (got), MSG_DONTWAIT)) >= 0) {
    if (r != sizeof (got) || got.magic != UK_MAGIC || got.nonce != table->host->nonce ||
        got.case_id != case_id || got.pkt_id >= n)
      continue;                       /* not ours: ignore */
    if (receivers[got.pkt_id] >= 0)
      goto fail_twice;
    receivers[got.pkt_id] = (int) idx;
  }
  if (errno != EAGAIN && errno != EWOULDBLOCK && errno != ECONNREFUSED)
    goto fail_recv;
  return TRUE;

/* ERRORS */
fail_twice:
  g_set_error (error, UK_ERROR, EEXIST,
               "packet %u received by sockets %d and %u", got.pkt_id,
               receivers[got.pkt_id], idx);
  return FALSE;
fail_recv:
  g_set_error (error, UK_ERROR, errno,
               "recv on table socket %u: %s", idx, g_strerror (errno));
  return FALSE;
}

/* Sends the packets and records who got each (see udp-kernel.h). */
gboolean
uk_table_deliver (UkTable *table, guint32 case_id, const UkPacket *pkts, guint n,
                  int *receivers, GError **error)
{
  char buf[64];
  guint i;

  for (i = 0; i < n; i++) {
    UkPayload p = { UK_MAGIC, table->host->nonce, case_id, i };
    int fd = uk_client_fd (table, &pkts[i].src);

    receivers[i] = -1;
    if (fd < 0)
      goto fail_client;
    if (!uk_send (fd, &pkts[i].dst, &p))
      goto fail_send;
  }
  if (!uk_sentinel (table->host, case_id, error))
    return FALSE;
  for (guint s = 0; s < table->socks->len; s++)
    if (!uk_drain (table, s, case_id, n, receivers, error))
      return FALSE;
  return TRUE;

/* ERRORS */
fail_client:
  g_set_error (error, UK_ERROR, ENOENT, "no client socket bound to %s",
               uk_addr_str (&pkts[i].src, buf, sizeof (buf)));
  return FALSE;
fail_send:
  g_set_error (error, UK_ERROR, errno, "sendto: %s",
               g_strerror (errno));
  return FALSE;
}
