/* test-udp-diff.c — differential test of the UDP lookup model against the host's kernel
 * (issue 3, item 2).
 *
 * Each case builds a random UDP socket table on one loopback port twice: with real sockets
 * (udp-kernel.c) and in the model (models/net/udp.h, a build of the host's kernel version),
 * creating the sockets in the same order with the same options: AF_INET / AF_INET6 (dual-
 * stack or v6only), bound to 127.0.0.1, 127.0.0.2, 0.0.0.0, ::1, :: or ::ffff:127.0.0.1,
 * SO_REUSEADDR, SO_REUSEPORT, SO_BINDTODEVICE lo, some connect()ed to a client endpoint.
 * A socket the kernel refuses (EADDRINUSE, ...) is left out of both tables, and the model
 * must refuse it too. Datagrams from client sockets on 127.0.0.x / ::1 go to the table's
 * port; the socket that receives each one (or nobody: the lookup returned NULL) must be
 * the socket the model's __udp4_lib_lookup / __udp6_lib_lookup returns, or — when both
 * answers are unconnected members of one reuseport group, whose pick depends on the
 * kernel's random hash secret — a member of the same group.
 *
 * Reuseport groups are tracked here with the kernel's rules (udp_reuseport_add_sock: the
 * first socket on the primary chain with the same family, v6only, device, SO_REUSEPORT and
 * exact local address; connect() detaches: from 6.13 always, before only a wildcard-bound
 * socket, which the connect rehashes), independently of the model. The model's
 * groups must partition the sockets the same way, and "same group" needs both to agree.
 * The host kernel's version is the model build's version (uname -r).
 *
 * SO_INCOMING_CPU: about a third of the sockets set it to one of the host's CPUs. The
 * process is pinned to its highest CPU (udp-kernel.c), on whose backlog loopback receives
 * every datagram, and the model's lookups run on that CPU of the model's machine, so
 * compute_score's +1 and reuseport's CPU preference (6.2+) are compared; a connected
 * receiver's sk_incoming_cpu follows the CPU (sk_incoming_cpu_update) in both.
 *
 * What this cannot compare (printed with the results; doc/models/udp-loopback.md §6): other
 * lookup generations than the host's (B, C, 6.9-rc1's C/D switch and re-score), on 6.13+
 * the connected-peer score terms (hash4 answers every connected socket first), l3mdev/VRF
 * (sdif is 0), BPF programs, and which group member a hash picks.
 *
 * Fixed seeds: case n draws from seed UDP_DIFF_SEED + n. UDP_DIFF_ONLY=n runs case n alone
 * and prints it; the program then exits 77 (SKIP), never 0, and a value that is not a case
 * number fails. */
#include "config.h"
#include "kchange.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "machine.h"
#include "net/udp.h"
#include "udp-kernel.h"

#define UDP_DIFF_SEED     0x75647000u
#define TARGET_CASES      1000    /* cases to run (not counting skipped ones) */
#define MIN_CASES         500     /* the floor */
#define MAX_ATTEMPTS      2500    /* stop trying after this many cases */
#define MAX_SOCKS         12
#define MAX_CLIENTS       5
#define MAX_PKTS          14
#define MAX_DETAILS       5       /* disagreements printed in full */

/* ---- one case ---- */

typedef struct {
  UkSockSpec   spec;      /* as attempted (bind_dev cleared when not permitted) */
  gboolean     accepted;  /* the kernel created it */
  UkFail       fail;      /* where the kernel refused it */
  int          err;       /* errno of the refusal */
  int          model_err; /* the model's bind/connect result (0 or -errno) */
  int          kidx;      /* index in the kernel table, or -1 */
  UkAddr       local;     /* local endpoint after bind / connect (getsockname) */
  gboolean     v6only;    /* effective IPV6_V6ONLY after bind (bind to ::1 sets it) */
  int          group;     /* tracker: kernel reuseport group, -1 none */
  struct sock *msk;       /* the model's socket (accepted ones) */
} DiffSock;

typedef struct {
  guint32  id;
  guint16  port;
  gboolean mixed;                 /* IPv6 sockets and clients too */
  UkAddr   clients[MAX_CLIENTS];
  guint    n_clients;
  DiffSock socks[MAX_SOCKS];
  guint    n_socks;
  UkPacket pkts[MAX_PKTS];
  guint    n_pkts;
  int      kernel[MAX_PKTS];      /* index into socks[] of the receiver, -1 none */
  int      model[MAX_PKTS];
  gboolean pkt_agree[MAX_PKTS];
  gboolean bind_agree;            /* kernel and model accepted the same sockets */
  gboolean local_agree;           /* and gave them the same local addresses */
  gboolean group_agree;           /* and put them in the same reuseport groups */
  int      next_group;
} DiffCase;

/* The run: environment, model rig, counters. */
typedef struct {
  UkHost    *host;
  GString   *log;
  char       release[65];
  NsParams  *params;
  NsBuild   *build;
  NsMachine *machine;
  NsEngine  *engine;
  struct net *net;
  int        lo;                  /* lo's ifindex (the packets' dif) */
  gint64     only;                /* UDP_DIFF_ONLY, or -1 */
  gboolean   warned_binddev;
  char       gen;                 /* the model's lookup generation (udp.h) */
  gboolean   bind_hash2_fixed;    /* the model's build runs e537dd15d0d4's bind check */
  int        cpu;                 /* the host CPU every datagram is received on, or -1 */
  const int *cpus;                /* the host's CPUs (SO_INCOMING_CPU values), n_cpus */
  guint      n_cpus;
  gboolean   cpu_prefers;         /* b261eda84ec1: reuseport picks a member with the CPU first */
  gboolean   hash4;               /* host kernel 6.13+: connect() always rehashes (hash4) */
  /* counters */
  guint      ran, agreed, skipped, attempts;
  guint      packets, packets_none, packets_group, packets_conn, packets_dev;
  guint      packets_v6, packets_v4_to_v6, mixed_cases;
  guint      packets_other_member;  /* agreed as "same group", different member */
  guint      packets_cpu;         /* receiver (kernel's) has SO_INCOMING_CPU = the CPU */
  guint      socks_cpu, socks_cpu_match;  /* sockets given SO_INCOMING_CPU / the CPU */
  guint      refused_socks, refused_binddev;
  GHashTable *skip_reasons;       /* reason → count (GUINT_TO_POINTER) */
  GHashTable *refusals;           /* "bind: Address already in use" → count */
  guint      details;
} Diff;

/* ---- small helpers ---- */

/* A uniform integer in [0, n). */
static guint
pick (GRand *rng, guint n)
{
  return (guint) g_rand_int_range (rng, 0, (gint32) n);
}

/* TRUE with probability p. */
static gboolean
chance (GRand *rng, double p)
{
  return g_rand_double (rng) < p;
}

/* Adds one to the count of key. */
static void
count (GHashTable *h, const char *key)
{
  gpointer old = g_hash_table_lookup (h, key);

  g_hash_table_replace (h, g_strdup (key), GUINT_TO_POINTER (GPOINTER_TO_UINT (old) + 1));
}

/* "a: 3, b: 1" from a reason → count table. */
static char *
counts_str (GHashTable *h)
{
  GString *s = g_string_new (NULL);
  GList *keys = g_list_sort (g_hash_table_get_keys (h), (GCompareFunc) strcmp);

  for (GList *l = keys; l != NULL; l = l->next)
    g_string_append_printf (s, "%s%s: %u", s->len ? ", " : "", (char *) l->data,
                            GPOINTER_TO_UINT (g_hash_table_lookup (h, l->data)));
  g_list_free (keys);
  if (s->len == 0)
    g_string_append (s, "none");
  return g_string_free (s, FALSE);
}

/* The step a UkFail names. */
static const char *
fail_name (UkFail f)
{
  switch (f) {
  case UK_OK:           return "ok";
  case UK_FAIL_SOCKET:  return "socket/setsockopt";
  case UK_FAIL_BINDDEV: return "SO_BINDTODEVICE";
  case UK_FAIL_BIND:    return "bind";
  case UK_FAIL_CONNECT: return "connect";
  }
  return "?";
}

/* Prints what the log gathered so far (so nothing is lost if an assertion fails later). */
static void
flush_log (Diff *diff)
{
  fputs (diff->log->str, stdout);
  fflush (stdout);
  g_string_truncate (diff->log, 0);
}

/* ---- the generator ---- */

/* Binds a client: at `hint` if free, else where the kernel likes. */
static gboolean
gen_client (DiffCase *c, UkTable *kt, UkAddr *a, guint16 hint)
{
  a->port = hint;
  if (!uk_table_add_client (kt, a)) {
    a->port = 0;
    if (!uk_table_add_client (kt, a))
      return FALSE;
  }
  c->clients[c->n_clients++] = *a;
  return TRUE;
}

/* 2–3 IPv4 clients on 127.0.0.1–4 and, in a mixed case, 1–2 on ::1. */
static gboolean
gen_clients (DiffCase *c, UkTable *kt, GRand *rng)
{
  guint n4 = 2 + pick (rng, 2), n6 = c->mixed ? 1 + pick (rng, 2) : 0;

  for (guint i = 0; i < n4; i++) {
    UkAddr a;
    uk_addr_v4 (&a, 127, 0, 0, (guint8) (1 + pick (rng, 4)), 0);
    if (!gen_client (c, kt, &a, (guint16) (30000 + pick (rng, 10000))))
      return FALSE;
  }
  for (guint i = 0; i < n6; i++) {
    UkAddr a;
    uk_addr_v6_loopback (&a, 0);
    if (!gen_client (c, kt, &a, (guint16) (30000 + pick (rng, 10000))))
      return FALSE;
  }
  return TRUE;
}

/* A client of the given kind (AF_INET or AF_INET6) into *out; FALSE if there is none. */
static gboolean
gen_client_of (DiffCase *c, GRand *rng, int family, UkAddr *out)
{
  guint n = 0, k;

  for (guint i = 0; i < c->n_clients; i++)
    n += c->clients[i].family == family;
  if (n == 0)
    return FALSE;
  k = pick (rng, n);
  for (guint i = 0; i < c->n_clients; i++)
    if (c->clients[i].family == family && k-- == 0) {
      *out = c->clients[i];
      return TRUE;
    }
  return FALSE;
}

/* The peer a table socket connects to: mostly a client (so its packets match), else an
 * endpoint nobody sends from. `v4` selects an IPv4 peer (v4-mapped for AF_INET6). */
static void
gen_peer (DiffCase *c, GRand *rng, const UkSockSpec *s, gboolean v4, UkAddr *peer)
{
  UkAddr a;

  if (!chance (rng, 0.85) || !gen_client_of (c, rng, v4 ? AF_INET : AF_INET6, &a)) {
    if (v4)
      uk_addr_v4 (&a, 127, 0, 0, 5, (guint16) (40000 + pick (rng, 1000)));
    else
      uk_addr_v6_loopback (&a, (guint16) (40000 + pick (rng, 1000)));
  }
  if (v4 && s->family == AF_INET6)
    uk_addr_v4_mapped (peer, &a);
  else
    *peer = a;
}

/* One table socket's options. p_reuse*: this case's odds of each option. SO_INCOMING_CPU:
 * on about a third of the sockets, one of the host's CPUs (when the test could pin itself
 * to one; the draws are made either way, so the tables are the same). */
static void
gen_sock (const Diff *diff, DiffCase *c, GRand *rng, double p_reuseaddr, double p_reuseport,
          double p_conn, UkSockSpec *s)
{
  gboolean dev, set_cpu;
  guint which_cpu;

  memset (s, 0, sizeof (*s));
  s->family = c->mixed && chance (rng, 0.5) ? AF_INET6 : AF_INET;
  if (s->family == AF_INET) {
    guint r = pick (rng, 10);
    if (r < 5)
      uk_addr_v4 (&s->local, 127, 0, 0, 1, c->port);
    else if (r < 9)
      uk_addr_v4 (&s->local, 0, 0, 0, 0, c->port);
    else
      uk_addr_v4 (&s->local, 127, 0, 0, 2, c->port);
  } else {
    guint r = pick (rng, 20);
    UkAddr v4;
    if (r < 7) {
      uk_addr_v6_loopback (&s->local, c->port);
      s->v6only = chance (rng, 0.5);          /* bind sets it anyway */
    } else if (r < 16) {
      uk_addr_v6_any (&s->local, c->port);
      s->v6only = chance (rng, 0.4);
    } else {
      uk_addr_v4 (&v4, 127, 0, 0, 1, c->port);
      uk_addr_v4_mapped (&s->local, &v4);
    }
  }
  s->reuseaddr = chance (rng, p_reuseaddr);
  s->reuseport = chance (rng, p_reuseport);
  set_cpu = chance (rng, 0.35);               /* drawn always, as dev */
  which_cpu = pick (rng, 64);
  s->incoming_cpu = set_cpu && diff->cpu >= 0 ? diff->cpus[which_cpu % diff->n_cpus] : -1;
  dev = chance (rng, 0.25);                   /* drawn always: same tables either way */
  s->bind_dev = uk_host_can_bind_dev (diff->host) && dev;
  s->connect = chance (rng, p_conn);
  if (s->connect) {
    gboolean v4;
    if (s->family == AF_INET || uk_addr_is_v4_mapped (&s->local))
      v4 = TRUE;
    else if (s->v6only || s->local.addr[15] == 1)
      v4 = FALSE;                             /* ::1 or v6only: IPv6 peers only */
    else
      v4 = chance (rng, 0.5);                 /* dual-stack :: */
    gen_peer (c, rng, s, v4, &s->peer);
  }
}

/* Datagrams: one from each connected socket's client peer (so 4-tuple matches happen),
 * the rest from random clients; IPv4 ones to 127.0.0.1, .2 or .3, IPv6 ones to ::1. */
static void
gen_packets (DiffCase *c, GRand *rng)
{
  guint n = 8 + pick (rng, 4);

  for (guint i = 0; i < c->n_socks && c->n_pkts < MAX_PKTS; i++) {
    DiffSock *d = &c->socks[i];
    UkAddr peer = d->spec.peer;
    if (!d->accepted || !d->spec.connect || !chance (rng, 0.8))
      continue;
    if (peer.family == AF_INET6 && uk_addr_is_v4_mapped (&peer))
      uk_addr_v4 (&peer, peer.addr[12], peer.addr[13], peer.addr[14], peer.addr[15], peer.port);
    for (guint k = 0; k < c->n_clients; k++)
      if (uk_addr_equal (&c->clients[k], &peer)) {
        UkPacket *p = &c->pkts[c->n_pkts++];
        p->src = peer;
        if (peer.family == AF_INET)
          uk_addr_v4 (&p->dst, 127, 0, 0, d->local.family == AF_INET ? d->local.addr[3] :
                      d->local.addr[15], c->port);
        else
          uk_addr_v6_loopback (&p->dst, c->port);
        break;
      }
  }
  while (c->n_pkts < n && c->n_pkts < MAX_PKTS) {
    UkPacket *p = &c->pkts[c->n_pkts++];
    guint r = pick (rng, 20);
    p->src = c->clients[pick (rng, c->n_clients)];
    if (p->src.family == AF_INET6)
      uk_addr_v6_loopback (&p->dst, c->port);
    else
      uk_addr_v4 (&p->dst, 127, 0, 0, r < 11 ? 1 : r < 17 ? 2 : 3, c->port);
  }
}

/* ---- the kernel's reuseport groups, tracked independently of the model ---- */

/* Whether two endpoints have the same address, ports aside (inet_rcv_saddr_equal with
 * match_wildcard false, for sockets of one family). */
static gboolean
same_addr (const UkAddr *a, const UkAddr *b)
{
  gsize len = a->family == AF_INET ? 4 : 16;

  return a->family == b->family && memcmp (a->addr, b->addr, len) == 0;
}

/* udp_reuseport_add_sock at bind of socks[i]: join the group of the first matching socket
 * on the primary chain (giving it a fresh group if it has none, as reuseport_add_sock
 * does for a member detached by connect), else a new group. Chain order: AF_INET sockets
 * newest first; AF_INET6 SO_REUSEPORT sockets are appended, so for an AF_INET6 socket
 * (whose candidates all are AF_INET6 reuseport ones) the scan meets the oldest first —
 * checked on the host: a bind after a connected member joins the older members' group.
 * connect() then detaches (udp_lib_rehash / udp_lib_hash4, 6.13+). */
static void
track_group (DiffCase *c, guint i)
{
  DiffSock *d = &c->socks[i];
  gboolean oldest_first = d->spec.family == AF_INET6;

  d->group = -1;
  if (!d->spec.reuseport)
    return;
  for (guint k = 0; k < i; k++) {
    DiffSock *o = &c->socks[oldest_first ? k : i - 1 - k];
    if (!o->accepted || !o->spec.reuseport || o->spec.family != d->spec.family ||
        o->v6only != d->v6only || o->spec.bind_dev != d->spec.bind_dev)
      continue;
    /* o's local address as it is now (a connect() may have changed it) against d's
     * bound address (d is not connected yet at this point) */
    if (!same_addr (&o->local, &d->spec.local))
      continue;
    if (o->group < 0)
      o->group = c->next_group++;
    d->group = o->group;
    break;
  }
  if (d->group < 0)
    d->group = c->next_group++;
}

/* TRUE if the connect() of d left its reuseport group: from 6.13 every connect hashes
 * the socket on its 4-tuple and detaches it (udp_lib_hash4); before, only a socket bound
 * to a wildcard address, whose local address the connect sets and so rehashes
 * (udp_lib_rehash). */
static gboolean
connect_detaches (const Diff *diff, const DiffSock *d)
{
  static const guint8 zero[16];

  if (!d->spec.connect)
    return FALSE;
  return diff->hash4 ||
         memcmp (d->spec.local.addr, zero, d->spec.local.family == AF_INET ? 4 : 16) == 0;
}

/* ---- model side ---- */

/* The model's sockaddr for an endpoint. */
static socklen_t
model_sockaddr (const UkAddr *a, struct sockaddr_storage *ss)
{
  memset (ss, 0, sizeof (*ss));
  if (a->family == AF_INET) {
    struct sockaddr_in *sin = (struct sockaddr_in *) ss;
    sin->sin_family = AF_INET;
    sin->sin_port = g_htons (a->port);
    memcpy (&sin->sin_addr, a->addr, 4);
    return sizeof (*sin);
  } else {
    struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *) ss;
    sin6->sin6_family = AF_INET6;
    sin6->sin6_port = g_htons (a->port);
    memcpy (&sin6->sin6_addr, a->addr, 16);
    return sizeof (*sin6);
  }
}

/* Creates socks[i] in the model with the options, bind and connect the kernel saw.
 * Returns 0 or the first -errno. */
static int
model_add (Diff *diff, struct udp_table *tbl, DiffSock *d)
{
  struct sockaddr_storage ss, src;
  socklen_t len;
  struct sock *sk = udp_sock_create (tbl, diff->net, d->spec.family);
  int err;

  if (d->spec.family == AF_INET6 && (err = udp_sock_set_v6only (sk, d->spec.v6only)) < 0)
    goto fail;
  udp_sock_set_reuseaddr (sk, d->spec.reuseaddr);
  udp_sock_set_reuseport (sk, d->spec.reuseport);
  if (d->spec.incoming_cpu >= 0 &&
      (err = udp_sock_set_incoming_cpu (sk, d->spec.incoming_cpu)) < 0)
    goto fail;
  if (d->spec.bind_dev && (err = udp_sock_bind_to_device (sk, diff->lo)) < 0)
    goto fail;
  len = model_sockaddr (&d->spec.local, &ss);
  if ((err = udp_sock_bind (sk, (struct sockaddr *) &ss, (gint) len)) < 0)
    goto fail;
  if (d->spec.connect) {
    /* the route's source address is the one the kernel picked (IPv4 for a v4-mapped
     * connect, as ip4_datagram_connect sees it) */
    UkAddr route = d->local;
    if (uk_addr_is_v4_mapped (&route))
      uk_addr_v4 (&route, route.addr[12], route.addr[13], route.addr[14], route.addr[15],
                  route.port);
    model_sockaddr (&route, &src);
    len = model_sockaddr (&d->spec.peer, &ss);
    if ((err = udp_sock_connect (sk, (struct sockaddr *) &ss, (gint) len,
                                 (struct sockaddr *) &src)) < 0)
      goto fail;
  }
  d->msk = sk;
  return 0;

/* ERRORS */
fail:
  udp_sock_close (sk);
  return err;
}

/* Whether the model socket's local address is the kernel's (getsockname). */
static gboolean
model_local_matches (const DiffSock *d)
{
  const struct sock *sk = d->msk;

  if (sk->sk_num != d->local.port)
    return FALSE;
  if (d->local.family == AF_INET)
    return memcmp (&sk->sk_rcv_saddr, d->local.addr, 4) == 0;
  return memcmp (&sk->sk_v6_rcv_saddr, d->local.addr, 16) == 0;
}

/* Index in socks[] of a model socket, or -1. */
static int
model_index (const DiffCase *c, const struct sock *sk)
{
  if (sk == NULL)
    return -1;
  for (guint i = 0; i < c->n_socks; i++)
    if (c->socks[i].msk == sk)
      return (int) i;
  return -2;                                  /* a socket the test never made */
}

/* Runs the model's lookup for every packet of the case (inside simulated thread t). */
static void
model_lookups (Diff *diff, NsThread *t, struct udp_table *tbl, DiffCase *c)
{
  for (guint i = 0; i < c->n_pkts; i++) {
    const UkPacket *p = &c->pkts[i];
    struct sock *sk;

    if (p->src.family == AF_INET) {
      be32 saddr, daddr;
      memcpy (&saddr, p->src.addr, 4);
      memcpy (&daddr, p->dst.addr, 4);
      sk = __udp4_lib_lookup (t, diff->net, saddr, g_htons (p->src.port), daddr,
                              g_htons (p->dst.port), diff->lo, 0, tbl, NULL);
    } else {
      /* the addresses sit in simulated memory, as in the skb's header the kernel reads */
      NsArena *arena = ns_machine_arena (diff->machine);
      ns_in6_addr *hdr = ns_arena_alloc (arena, 2 * sizeof *hdr, 64);
      memcpy (&hdr[0], p->src.addr, 16);
      memcpy (&hdr[1], p->dst.addr, 16);
      sk = __udp6_lib_lookup (t, diff->net, &hdr[0], g_htons (p->src.port), &hdr[1],
                              g_htons (p->dst.port), diff->lo, 0, tbl, NULL);
      ns_arena_release (arena, hdr, 2 * sizeof *hdr);
    }
    c->model[i] = model_index (c, sk);
    /* a connected socket's receive notes the CPU (__udp_queue_rcv_skb /
     * __udpv6_queue_rcv_skb: sk_incoming_cpu_update when the peer address is set), which
     * later lookups score; SO_INCOMING_CPU's group counter is not touched */
    if (c->model[i] >= 0 && c->socks[c->model[i]].spec.connect)
      sk->sk_incoming_cpu = (gint) ns_thread_cpu (t);
  }
}

/* Whether the kernel's and the model's receivers of packet i count as the same answer. Two
 * members of one group agree if, from 6.2 on, both or neither have SO_INCOMING_CPU set to
 * the receiving CPU (reuseport_select_sock_by_hash then takes a member with it whenever
 * the group has one, whatever the hash). */
static gboolean
answers_agree (const Diff *diff, const DiffCase *c, guint i)
{
  int k = c->kernel[i], m = c->model[i];
  const DiffSock *a, *b;
  struct sock_reuseport *ga, *gb;

  if (k == m)
    return TRUE;
  if (k < 0 || m < 0)
    return FALSE;
  a = &c->socks[k];
  b = &c->socks[m];
  ga = udp_sock_reuseport_group (a->msk);
  gb = udp_sock_reuseport_group (b->msk);
  /* connected sockets are never picked through their group (6.13+: not even in one) */
  if (a->spec.connect || b->spec.connect)
    return FALSE;
  if (diff->cpu_prefers && diff->cpu >= 0 &&
      (a->spec.incoming_cpu == diff->cpu) != (b->spec.incoming_cpu == diff->cpu))
    return FALSE;
  return a->group >= 0 && a->group == b->group && ga != NULL && ga == gb;
}

/* Whether the model's reuseport groups partition the sockets as the tracker's do. */
static gboolean
groups_agree (const DiffCase *c)
{
  for (guint i = 0; i < c->n_socks; i++)
    for (guint j = i + 1; j < c->n_socks; j++) {
      const DiffSock *a = &c->socks[i], *b = &c->socks[j];
      gboolean kernel_same, model_same;
      if (a->msk == NULL || b->msk == NULL)
        continue;
      kernel_same = a->group >= 0 && a->group == b->group;
      model_same = udp_sock_reuseport_group (a->msk) != NULL &&
                   udp_sock_reuseport_group (a->msk) == udp_sock_reuseport_group (b->msk);
      if (kernel_same != model_same)
        return FALSE;
    }
  return TRUE;
}

/* ---- printing ---- */

/* The label of the tracked kernel group of socks[i]: the index of its first member, or -1. */
static int
kernel_group_label (const DiffCase *c, guint i)
{
  if (!c->socks[i].accepted || c->socks[i].group < 0)
    return -1;
  for (guint j = 0; j < c->n_socks; j++)
    if (c->socks[j].accepted && c->socks[j].group == c->socks[i].group)
      return (int) j;
  return -1;
}

/* The label of the model group of socks[i]: the index of its first member, or -1. */
static int
model_group_label (const DiffCase *c, guint i)
{
  struct sock_reuseport *g;

  if (c->socks[i].msk == NULL || (g = udp_sock_reuseport_group (c->socks[i].msk)) == NULL)
    return -1;
  for (guint j = 0; j < c->n_socks; j++)
    if (c->socks[j].msk != NULL && udp_sock_reuseport_group (c->socks[j].msk) == g)
      return (int) j;
  return -1;
}

/* One line (two if the model refused it) describing socks[i]. */
static void
print_sock (GString *out, const DiffCase *c, guint i)
{
  const DiffSock *d = &c->socks[i];
  char a[64], b[64];

  g_string_append_printf (out, "    #%-2u %-8s bind %-28s%s%s%s%s", i,
                          d->spec.family == AF_INET ? "AF_INET" : "AF_INET6",
                          uk_addr_str (&d->spec.local, a, sizeof (a)),
                          d->spec.family == AF_INET6 ? (d->spec.v6only ? " v6only" : " dual") : "",
                          d->spec.reuseaddr ? " reuseaddr" : "",
                          d->spec.reuseport ? " reuseport" : "",
                          d->spec.bind_dev ? " dev=lo" : "");
  if (d->spec.incoming_cpu >= 0)
    g_string_append_printf (out, " cpu=%d", d->spec.incoming_cpu);
  if (d->spec.connect)
    g_string_append_printf (out, " connect %s", uk_addr_str (&d->spec.peer, a, sizeof (a)));
  if (!d->accepted) {
    g_string_append_printf (out, "  REFUSED by the kernel at %s: %s; model: %s\n",
                            fail_name (d->fail), g_strerror (d->err),
                            d->model_err < 0 ? g_strerror (-d->model_err) : "ACCEPTED");
    return;
  }
  g_string_append_printf (out, "  → local %s%s, group kernel #%d / model #%d%s\n",
                          uk_addr_str (&d->local, b, sizeof (b)),
                          d->spec.family == AF_INET6 && d->v6only && !d->spec.v6only ?
                          " (bind set v6only)" : "", kernel_group_label (c, i),
                          model_group_label (c, i),
                          d->model_err < 0 ? "  MODEL REFUSED" : "");
  if (d->model_err < 0)
    g_string_append_printf (out, "        (model: %s)\n", g_strerror (-d->model_err));
}

/* The whole case: clients, sockets, every packet with both answers. */
static void
print_case (GString *out, const DiffCase *c)
{
  char a[64], b[64];

  g_string_append_printf (out, "udp-diff: case %u (seed 0x%x, reproduce with "
                          "UDP_DIFF_ONLY=%u): port %u\n  clients:", c->id,
                          UDP_DIFF_SEED + c->id, c->id, c->port);
  for (guint i = 0; i < c->n_clients; i++)
    g_string_append_printf (out, " %s", uk_addr_str (&c->clients[i], a, sizeof (a)));
  g_string_append (out, "\n  sockets, in creation order (chains are newest first, except "
                   "AF_INET6 reuseport sockets, appended); groups named by first member:\n");
  for (guint i = 0; i < c->n_socks; i++)
    print_sock (out, c, i);
  if (!c->bind_agree || !c->local_agree) {
    g_string_append (out, "  the model's table differs from the kernel's (see above)\n");
    return;
  }
  if (!c->group_agree)
    g_string_append (out, "  the model's reuseport groups differ from the kernel's rules "
                     "(udp_reuseport_add_sock; connect detaches)\n");
  for (guint i = 0; i < c->n_pkts; i++) {
    char k[16], m[16];
    g_snprintf (k, sizeof (k), c->kernel[i] >= 0 ? "#%d" : "none", c->kernel[i]);
    g_snprintf (m, sizeof (m), c->model[i] >= 0 ? "#%d" : "none", c->model[i]);
    g_string_append_printf (out, "  packet %2u %s → %s: kernel %s, model %s%s\n", i,
                            uk_addr_str (&c->pkts[i].src, a, sizeof (a)),
                            uk_addr_str (&c->pkts[i].dst, b, sizeof (b)), k, m,
                            c->pkt_agree[i] ? "" : "   <-- DISAGREE");
  }
}

/* Coverage: what kind of socket the kernel gave packet i to. */
static void
count_packet (Diff *diff, const DiffCase *c, guint i)
{
  const DiffSock *d = c->kernel[i] >= 0 ? &c->socks[c->kernel[i]] : NULL;

  diff->packets++;
  diff->packets_v6 += c->pkts[i].src.family == AF_INET6;
  if (d == NULL) {
    diff->packets_none++;
    return;
  }
  diff->packets_conn += d->spec.connect;
  diff->packets_cpu += diff->cpu >= 0 && d->spec.incoming_cpu == diff->cpu;
  diff->packets_group += !d->spec.connect && d->group >= 0;
  diff->packets_dev += d->spec.bind_dev;
  diff->packets_v4_to_v6 += c->pkts[i].src.family == AF_INET && d->spec.family == AF_INET6;
}

/* ---- running one case ---- */

/* Creates socks[i] in the kernel (dropping SO_BINDTODEVICE once it proves forbidden). */
static void
kernel_add (Diff *diff, UkTable *kt, DiffSock *d)
{
  d->kidx = uk_table_add (kt, &d->spec, &d->local, &d->fail, &d->err);
  if (d->kidx < 0 && d->fail == UK_FAIL_BINDDEV && d->err == EPERM) {
    if (!diff->warned_binddev)
      g_string_append (diff->log, "udp-diff: SO_BINDTODEVICE not permitted (EPERM): "
                       "the option is left out of every later socket\n");
    diff->warned_binddev = TRUE;
    diff->refused_binddev++;
    d->spec.bind_dev = FALSE;
    d->kidx = uk_table_add (kt, &d->spec, &d->local, &d->fail, &d->err);
  }
  d->accepted = d->kidx >= 0;
  d->v6only = d->spec.family == AF_INET6 &&
              (d->spec.v6only || (!uk_addr_is_v4_mapped (&d->spec.local) &&
                                  memcmp (d->spec.local.addr, (guint8[16]) { 0 }, 16) != 0));
}

/* Builds both tables of a case in lockstep. */
static void
build_tables (Diff *diff, DiffCase *c, UkTable *kt, struct udp_table *tbl, GRand *rng)
{
  guint n = 1 + pick (rng, 12);
  double p_ra = chance (rng, 0.5) ? 0.8 : 0.2, p_rp = chance (rng, 0.5) ? 0.8 : 0.25;
  double p_conn = chance (rng, 0.3) ? 0.5 : 0.2;

  c->bind_agree = c->local_agree = TRUE;
  for (guint i = 0; i < n; i++) {
    DiffSock *d = &c->socks[c->n_socks++];
    gen_sock (diff, c, rng, p_ra, p_rp, p_conn, &d->spec);
    kernel_add (diff, kt, d);
    d->group = -1;
    if (d->accepted) {
      diff->socks_cpu += d->spec.incoming_cpu >= 0;
      diff->socks_cpu_match += diff->cpu >= 0 && d->spec.incoming_cpu == diff->cpu;
      track_group (c, c->n_socks - 1);
      if (connect_detaches (diff, d))
        d->group = -1;
      d->model_err = model_add (diff, tbl, d);
      if (d->model_err < 0)
        c->bind_agree = FALSE;
      else if (!model_local_matches (d))
        c->local_agree = FALSE;
    } else {
      char *why = g_strdup_printf ("%s: %s", fail_name (d->fail), g_strerror (d->err));
      count (diff->refusals, why);
      g_free (why);
      diff->refused_socks++;
      /* a bind the kernel refuses, the model must refuse as well */
      d->model_err = d->fail == UK_FAIL_BIND ? model_add (diff, tbl, d) : -d->err;
      if (d->model_err == 0) {
        c->bind_agree = FALSE;
        udp_sock_close (d->msk);
        d->msk = NULL;
      }
    }
  }
}

/* Sends the case's datagrams through the kernel and records the receivers in c->kernel. */
static void
kernel_deliver (DiffCase *c, UkTable *kt)
{
  int recv[MAX_PKTS];
  GError *error = NULL;
  gboolean ok = uk_table_deliver (kt, c->id, c->pkts, c->n_pkts, recv, &error);

  ck_assert_msg (ok, "case %u: delivery failed: %s", c->id, error ? error->message : "?");
  for (guint i = 0; i < c->n_pkts; i++) {
    c->kernel[i] = -1;
    for (guint s = 0; s < c->n_socks; s++)
      if (c->socks[s].accepted && c->socks[s].kidx == recv[i])
        c->kernel[i] = (int) s;
  }
}

/* Compares both answers of every packet, counts, and prints a disagreeing case. */
static void
judge_case (Diff *diff, DiffCase *c)
{
  gboolean table_ok = c->bind_agree && c->local_agree && c->group_agree;
  gboolean agree = table_ok;

  for (guint i = 0; i < c->n_pkts; i++) {
    c->pkt_agree[i] = table_ok && answers_agree (diff, c, i);
    diff->packets_other_member += c->pkt_agree[i] && c->kernel[i] != c->model[i];
    agree = agree && c->pkt_agree[i];
    count_packet (diff, c, i);
  }
  diff->mixed_cases += c->mixed;
  diff->ran++;
  diff->agreed += agree;
  if ((!agree && diff->details++ < MAX_DETAILS) || diff->only >= 0)
    print_case (diff->log, c);
}

/* One case: FALSE if it was skipped. */
static gboolean
run_case (Diff *diff, NsThread *t, guint32 id)
{
  GRand *rng = g_rand_new_with_seed (UDP_DIFF_SEED + id);
  DiffCase *c = g_new0 (DiffCase, 1);
  UkTable *kt = uk_table_new (diff->host);
  struct udp_table *tbl = NULL;
  GError *error = NULL;
  const char *skip = NULL;
  guint n_accepted = 0;

  c->id = id;
  c->mixed = uk_host_has_ipv6 (diff->host) && chance (rng, 0.45);
  if (!gen_clients (c, kt, rng)) {
    skip = "client sockets could not be bound";
    goto done;
  }
  c->port = uk_host_free_port (diff->host, (guint16) (20000 + pick (rng, 10000)));
  if (c->port == 0) {
    skip = "no free port";
    goto done;
  }
  tbl = udp_table_new (ns_machine_arena (diff->machine), diff->build, 0, &error);
  ck_assert_msg (tbl != NULL, "udp_table_new: %s", error ? error->message : "?");
  diff->gen = (char) udp_table_generation (tbl);
  diff->bind_hash2_fixed = tbl->bind_hash2_specific_only;
  udp_table_set_bind_scans_all (tbl, uk_host_bind_scans_all (diff->host));  /* H4 */
  build_tables (diff, c, kt, tbl, rng);
  for (guint i = 0; i < c->n_socks; i++)
    n_accepted += c->socks[i].accepted;
  if (n_accepted == 0) {
    skip = "the kernel accepted no socket";
    goto done;
  }
  gen_packets (c, rng);
  kernel_deliver (c, kt);
  c->group_agree = groups_agree (c);
  if (c->bind_agree && c->local_agree)
    model_lookups (diff, t, tbl, c);
  judge_case (diff, c);

done:
  if (skip != NULL) {
    diff->skipped++;
    count (diff->skip_reasons, skip);
    g_string_append_printf (diff->log, "udp-diff: case %u skipped: %s\n", id, skip);
  }
  flush_log (diff);
  g_clear_error (&error);
  uk_table_free (kt);
  if (tbl != NULL)
    udp_table_free (tbl);      /* closes the model's sockets */
  g_free (c);
  g_rand_free (rng);
  return skip == NULL;
}

/* The simulated thread: every case, kernel and model in lockstep. */
static void
diff_thread (NsThread *t, gpointer data)
{
  Diff *diff = data;

  if (diff->only >= 0) {
    run_case (diff, t, (guint32) diff->only);
    return;
  }
  for (guint32 id = 0; diff->ran < TARGET_CASES && diff->attempts < MAX_ATTEMPTS; id++) {
    diff->attempts++;
    run_case (diff, t, id);
  }
}

/* ---- the rig ---- */

/* Environment (namespace, pinning), the model's machine for the host's kernel version. */
static void
diff_init (Diff *diff)
{
  NsMitigations mit;
  struct utsname u;
  GError *error = NULL;
  const char *only = g_getenv ("UDP_DIFF_ONLY");

  memset (diff, 0, sizeof (*diff));
  memset (&mit, 0, sizeof (mit));
  diff->log = g_string_new (NULL);
  diff->only = -1;
  if (only != NULL) {
    guint64 n;
    ck_assert_msg (g_ascii_string_to_unsigned (only, 10, 0, G_MAXUINT32, &n, NULL),
                   "UDP_DIFF_ONLY='%s': expected a case number", only);
    diff->only = (gint64) n;
  }
  diff->skip_reasons = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  diff->refusals = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  diff->host = uk_host_new (diff->log, &error);
  flush_log (diff);
  ck_assert_msg (diff->host != NULL, "%s", error ? error->message : "?");
  diff->lo = uk_host_lo_ifindex (diff->host);
  ck_assert_int_eq (uname (&u), 0);
  g_strlcpy (diff->release, u.release, sizeof (diff->release));
  diff->hash4 = ns_kernel_release_cmp (u.release, "6.13-rc1") >= 0;
  /* the model's rule: 6.2-rc1 on, and the stable releases that took b261eda84ec1 */
  diff->cpu_prefers = ns_kernel_release_has (u.release, NS_KCHANGE_UDP_SELECT_PREFERS_CPU);
  diff->cpu = uk_host_cpu (diff->host);
  diff->cpus = uk_host_cpus (diff->host, &diff->n_cpus);
  diff->params = ns_params_new ();
  diff->build = ns_build_new (diff->release, 60);
  diff->machine = ns_machine_new (diff->params, &mit, diff->build, &error);
  ck_assert_msg (diff->machine != NULL, "%s", error ? error->message : "?");
  diff->engine = ns_machine_create_engine (diff->machine);
  /* the model's lookups run on the host's receiving CPU (raw_smp_processor_id()) */
  ck_assert_msg (diff->cpu < 0 || (guint) diff->cpu < ns_machine_n_cpus (diff->machine),
                 "the host receives on CPU %d; the model's machine has %u CPUs", diff->cpu,
                 ns_machine_n_cpus (diff->machine));
  diff->net = ns_net_new (ns_machine_arena (diff->machine), 0x5a5a1234, 1);
}

/* Frees what diff_init made. */
static void
diff_clear (Diff *diff)
{
  ns_net_free (ns_machine_arena (diff->machine), diff->net);
  ns_engine_free (diff->engine);
  ns_machine_free (diff->machine);
  ns_build_free (diff->build);
  ns_params_free (diff->params);
  uk_host_free (diff->host);
  g_hash_table_unref (diff->skip_reasons);
  g_hash_table_unref (diff->refusals);
  g_string_free (diff->log, TRUE);
}

/* Prints what a comparison with the host's kernel cannot cover (doc/models/udp-loopback.md
 * §6, "The differential test"), so that a pass is not read as more than it checks. */
static void
print_limits (const Diff *diff)
{
  printf ("udp-diff: compared: the model built for the host's release only (%s, generation "
          "%c%s). Never compared with a kernel here: the other generations (B0, 5.0-5.3; B1, "
          "5.4-5.7, with the stable sublevels udp.h lists moving both bounds; B; C; "
          "6.9-rc1's C/D switch and D's re-score of a group with a connected member), "
          "%sl3mdev/VRF (every datagram has sdif 0), BPF sk_lookup and reuseport programs, "
          "and which "
          "member of a reuseport group a flow's hash picks (H3)\n", diff->release, diff->gen,
          diff->hash4 ? ", hash4" : "",
          diff->hash4 ? "the connected-peer +4/+4 score terms (from 6.13 connect() always "
          "leaves a specific local address, so udp4_hash4 / udp6_hash4 put every connected "
          "socket on hash4, which answers by the 4-tuple before any score is taken), " : "");
  if (diff->cpu < 0)
    printf ("udp-diff: SO_INCOMING_CPU not compared: the test could not pin itself to one "
            "CPU\n");
  else
    printf ("udp-diff: SO_INCOMING_CPU: every datagram received on CPU %d (the model's "
            "lookups run on its CPU %d) of the host's %u%s; %u sockets set it, %u to that "
            "CPU; %u datagrams went to such a socket\n", diff->cpu, diff->cpu, diff->n_cpus,
            diff->n_cpus < 2 ? " (one CPU: only 'that CPU' against 'not set')" : "",
            diff->socks_cpu, diff->socks_cpu_match, diff->packets_cpu);
  printf ("udp-diff: bind()'s hash2 check (e537dd15d0d4): the model's %s build %s it, the "
          "host's probe %s it\n", diff->release, diff->bind_hash2_fixed ? "runs" : "lacks",
          uk_host_bind_hash2_fixed (diff->host) ? "finds" : "does not find");
}

/* What the host kept the full test from comparing, or NULL (set by the test, which main
 * runs in its own process so that it can read this after a pass). */
static const char *partial_coverage;

/* ≥ 500 random tables: every datagram reaches the socket the model picks (or its group). */
START_TEST (test_udp_diff_kernel)
{
  Diff diff;
  char *skips, *refusals;

  diff_init (&diff);
  ns_engine_spawn (diff.engine, "udp-diff", diff.cpu >= 0 ? (guint) diff.cpu : 0,
                   NS_THREAD_SOFTIRQ, 0, diff_thread, &diff);
  ns_engine_run (diff.engine, NS_TIME_FOREVER);

  skips = counts_str (diff.skip_reasons);
  refusals = counts_str (diff.refusals);
  flush_log (&diff);
  printf ("udp-diff: host %s (%s network namespace, IPv6 %s, SO_BINDTODEVICE %s, bind() "
          "weighs %s overlapping socket), model generation %c\n", diff.release,
          uk_host_private_netns (diff.host) ? "private" : "default",
          uk_host_has_ipv6 (diff.host) ? "on" : "off",
          uk_host_can_bind_dev (diff.host) ? "on" : "off",
          uk_host_bind_scans_all (diff.host) ? "every" : "the first", diff.gen);
  print_limits (&diff);
  printf ("udp-diff: %u cases, %u agree, %u skipped (reasons: %s)\n", diff.ran, diff.agreed,
          diff.skipped, skips);
  printf ("udp-diff: %u datagrams (%u IPv6; %u cases with IPv6 sockets); receivers: none %u, "
          "connected %u, reuseport group %u, bound to lo %u, AF_INET6 socket for IPv4 %u\n",
          diff.packets, diff.packets_v6, diff.mixed_cases, diff.packets_none,
          diff.packets_conn, diff.packets_group, diff.packets_dev, diff.packets_v4_to_v6);
  printf ("udp-diff: %u datagrams agree as the same reuseport group, another member (the "
          "kernel's hash secret is random)\n", diff.packets_other_member);
  printf ("udp-diff: %u sockets refused by the kernel and by the model (%s)\n",
          diff.refused_socks, refusals);
  fflush (stdout);
  g_free (skips);
  g_free (refusals);

  if (diff.only < 0) {
    ck_assert_msg (diff.ran >= MIN_CASES, "only %u cases ran (%u skipped); need %u",
                   diff.ran, diff.skipped, MIN_CASES);
    /* the generator really reaches every kind of answer */
    ck_assert_uint_gt (diff.packets_none, 0);
    ck_assert_uint_gt (diff.packets_conn, 0);
    ck_assert_uint_gt (diff.packets_group, 0);
    if (diff.cpu >= 0)
      ck_assert_uint_gt (diff.packets_cpu, 0);
    /* the model reads the fix from the release; a host built otherwise would make every
     * disagreement at bind() a false alarm */
    ck_assert_msg (diff.bind_hash2_fixed == uk_host_bind_hash2_fixed (diff.host),
                   "host %s: its bind() %s e537dd15d0d4's check, but the model's release "
                   "table says it %s (models/net/udp.c, bind_hash2_fix_stables)", diff.release,
                   uk_host_bind_hash2_fixed (diff.host) ? "runs" : "lacks",
                   diff.bind_hash2_fixed ? "runs it" : "lacks it");
    if (uk_host_can_bind_dev (diff.host))
      ck_assert_uint_gt (diff.packets_dev, 0);
    if (uk_host_has_ipv6 (diff.host)) {
      ck_assert_uint_gt (diff.packets_v6, 0);
      ck_assert_uint_gt (diff.packets_v4_to_v6, 0);
    }
    if (!uk_host_has_ipv6 (diff.host) || !uk_host_can_bind_dev (diff.host))
      partial_coverage = !uk_host_has_ipv6 (diff.host) ?
                         "the host has no IPv6 on lo: __udp6_lib_lookup was not compared" :
                         "the host refuses SO_BINDTODEVICE: bound devices were not compared";
  }
  ck_assert_msg (diff.agreed == diff.ran, "%u of %u cases disagree with the kernel",
                 diff.ran - diff.agreed, diff.ran);
  diff_clear (&diff);
}
END_TEST

/* The suite: one test, since every case shares the environment. */
static Suite *
udp_diff_suite (void)
{
  Suite *s = suite_create ("udp-diff");
  TCase *tc = tcase_create ("kernel");

  tcase_add_test (tc, test_udp_diff_kernel);
  suite_add_tcase (s, tc);
  return s;
}

/* Exit status 77 (automake's SKIP) when UDP_DIFF_ONLY reran one case, or when the host
 * allowed no IPv6 on lo or no SO_BINDTODEVICE (partial_coverage says which): the full
 * test, with its case floor and coverage, did not run, so it must not show as a pass. */
int
main (void)
{
  SRunner *runner = srunner_create (udp_diff_suite ());
  int failed;

  srunner_set_fork_status (runner, CK_NOFORK);
  srunner_run_all (runner, CK_NORMAL);
  failed = srunner_ntests_failed (runner);
  srunner_free (runner);
  if (failed == 0 && g_getenv ("UDP_DIFF_ONLY") != NULL) {
    printf ("udp-diff: SKIP: UDP_DIFF_ONLY reran one case, not the test\n");
    return 77;
  }
  if (failed == 0 && partial_coverage != NULL) {
    printf ("udp-diff: SKIP: %s; the cases the host allows all agree, but the test did not "
            "run in full\n", partial_coverage);
    return 77;
  }
  return failed == 0 ? 0 : 1;
}
