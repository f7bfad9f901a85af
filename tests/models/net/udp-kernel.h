/* udp-kernel.h — real UDP sockets on the loopback device of the host kernel, for the
 * differential test of the UDP lookup model (test-udp-diff.c).
 *
 * A UkHost is the environment: a private network namespace when the process may create
 * one (else the default namespace), lo up, the process pinned to one CPU (its highest) so
 * every datagram goes through that CPU's softirq backlog in order, and a sentinel pair of
 * sockets that proves all earlier datagrams were processed. A UkTable is one case: client
 * sockets, the table's sockets on one port (created with the options of a UkSockSpec, in
 * order), and the delivery of datagrams from clients, recording which table socket got
 * each one. Only 127.0.0.0/8 and ::1 are ever used. */
#pragma once
#include <glib.h>
#include <netinet/in.h>
#include <sys/socket.h>

G_BEGIN_DECLS

/* An endpoint. IPv4 addresses use addr[0..3]; IPv6 addresses (also v4-mapped) all 16 bytes.
 * Everything in network byte order except port (host order). */
typedef struct {
  int     family;       /* AF_INET or AF_INET6 */
  guint8  addr[16];
  guint16 port;
} UkAddr;

/* One table socket: created, given its options in this order, bound, then connected. */
typedef struct {
  int      family;      /* AF_INET or AF_INET6 */
  gboolean v6only;      /* IPV6_V6ONLY before bind (AF_INET6 only) */
  gboolean reuseaddr;   /* SO_REUSEADDR */
  gboolean reuseport;   /* SO_REUSEPORT */
  int      incoming_cpu;/* SO_INCOMING_CPU (after SO_REUSEPORT), -1: not set */
  gboolean bind_dev;    /* SO_BINDTODEVICE "lo" */
  UkAddr   local;       /* bind address; local.port is the table's port */
  gboolean connect;     /* connect() to peer after bind */
  UkAddr   peer;
} UkSockSpec;

/* Where creating a table socket stopped. */
typedef enum {
  UK_OK = 0,
  UK_FAIL_SOCKET,       /* socket() or a setsockopt() other than SO_BINDTODEVICE */
  UK_FAIL_BINDDEV,      /* SO_BINDTODEVICE refused (EPERM: no CAP_NET_RAW) */
  UK_FAIL_BIND,         /* bind() refused: the kernel forbids this combination */
  UK_FAIL_CONNECT       /* connect() refused */
} UkFail;

/* One datagram: from src (a client made with uk_table_add_client) to dst. */
typedef struct {
  UkAddr src;
  UkAddr dst;
} UkPacket;

typedef struct _UkHost  UkHost;
typedef struct _UkTable UkTable;

/* Sets up the environment; notes what it could not do in `log` (one line per fact). Returns
 * NULL (with error) only when not even IPv4 loopback sockets work. */
UkHost     *uk_host_new            (GString *log, GError **error);
void        uk_host_free           (UkHost *host);
gboolean    uk_host_has_ipv6       (const UkHost *host);
gboolean    uk_host_private_netns  (const UkHost *host);
/* Whether SO_BINDTODEVICE "lo" is permitted (FALSE after the first EPERM). */
gboolean    uk_host_can_bind_dev   (const UkHost *host);
int         uk_host_lo_ifindex     (const UkHost *host);
/* Whether the host's bind() refuses a socket that overlaps any socket it may not share the
 * port with (probed), rather than deciding by the first overlapping one on the chain. */
gboolean    uk_host_bind_scans_all (const UkHost *host);
/* Whether the host's bind() runs e537dd15d0d4's check (a wildcard bind sees sockets bound
 * to specific addresses when the port's primary slot holds more than 10), probed. */
gboolean    uk_host_bind_hash2_fixed (const UkHost *host);
/* The CPU the process is pinned to, on whose backlog every loopback datagram is received
 * (compute_score's raw_smp_processor_id()), or -1 if pinning failed. */
int         uk_host_cpu            (const UkHost *host);
/* The CPUs the process could run on before pinning (*n of them). */
const int  *uk_host_cpus           (const UkHost *host, guint *n);
/* A port free on every loopback address right now. In a private namespace the hint is
 * tried first (so runs are reproducible); otherwise the kernel picks. 0 on failure. */
guint16     uk_host_free_port      (UkHost *host, guint16 hint);

UkTable    *uk_table_new           (UkHost *host);
/* Closes every socket of the case. */
void        uk_table_free          (UkTable *table);
/* Binds a client socket to addr (addr->port 0: the kernel picks; the port is written back).
 * Returns FALSE with errno kept on failure. */
gboolean    uk_table_add_client    (UkTable *table, UkAddr *addr);
/* Creates the next table socket from spec. Returns its index (0, 1, ... in creation order
 * of accepted sockets) or -1 with *fail and *err set; nothing is left open on failure.
 * When connected, *bound receives the local address the kernel chose (getsockname). */
int         uk_table_add           (UkTable *table, const UkSockSpec *spec, UkAddr *bound,
                                    UkFail *fail, int *err);
guint       uk_table_n_socks       (const UkTable *table);
/* Sends pkts[i] for every i, waits until the kernel has processed all of them, and stores
 * in receivers[i] the index of the table socket that received packet i, or -1 if none did
 * (the lookup found no socket). FALSE with error if a send or the sentinel failed. */
gboolean    uk_table_deliver       (UkTable *table, guint32 case_id, const UkPacket *pkts,
                                    guint n, int *receivers, GError **error);

/* Endpoint helpers. */
void        uk_addr_v4             (UkAddr *a, guint8 b0, guint8 b1, guint8 b2, guint8 b3,
                                    guint16 port);
void        uk_addr_v6_loopback    (UkAddr *a, guint16 port);
void        uk_addr_v6_any         (UkAddr *a, guint16 port);
/* ::ffff:a.b.c.d from an IPv4 endpoint. */
void        uk_addr_v4_mapped      (UkAddr *a, const UkAddr *v4);
gboolean    uk_addr_is_v4_mapped   (const UkAddr *a);
gboolean    uk_addr_equal          (const UkAddr *a, const UkAddr *b);
/* "127.0.0.1:5000", "[::1]:5000", "[::ffff:127.0.0.1]:5000"; into buf of size ≥ 64. */
const char *uk_addr_str            (const UkAddr *a, char *buf, gsize size);

G_END_DECLS
