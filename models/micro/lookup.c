/* lookup.c — the workload "udp-lookup": the model's own IPv4 UDP socket lookup
 * (__udp4_lib_lookup → udp4_lib_lookup2 → compute_score, models/net/udp.c) in a loop on one
 * CPU, over the chain of connected sockets iperf3 -P N leaves on the server's port. It is
 * the model's side of tools/bench-saferet (tools/bench-saferet-lookup.c): the same chain,
 * walked for each client port in turn, with the sockets packed (served from L1D) or
 * `stride` bytes apart in a shuffled chain order (4096: every socket's lines in one L1D
 * set, so they come from L2).
 *
 * Set-up (control plane, not charged): a udp_table of the scenario's kernel build and a
 * netns; N AF_INET sockets created in memory order, then, in chain order (memory order, or
 * a permutation drawn from the workload's random stream when `shuffle`), each gets
 * SO_REUSEADDR, bind() to 127.0.0.1:5201 and connect() to 127.0.0.1:(40000 + i), i being
 * its place in memory. The hash2 chain of 127.0.0.1:5201 then holds all N, the most
 * recently bound at its head. Lookup k asks for 127.0.0.1:(40000 + k mod N) →
 * 127.0.0.1:5201 with no device; every lookup scores every socket (a connected socket does
 * not end the walk). The loop around the lookup charges nothing: the host benchmark's
 * loop is a few instructions per N sockets. */
#include "config.h"
#include <string.h>
#include <gsl/gsl_randist.h>
#include "workload.h"
#include "net/udp.h"

#define LOOKUP_MAX_SOCKETS  1024
#define LOOKUP_SERVER_PORT  5201
#define LOOKUP_CLIENT_PORT  40000
#define LOOKUP_NET_HASH_MIX 0x9e3779b9u
#define LOOKUP_LOOPBACK     0x7f000001u        /* 127.0.0.1, host order */

typedef struct {
  NsArena          *arena;
  struct udp_table *tbl;
  struct net       *net;
  struct sock     **socks;     /* memory order: socks[i] is connected to 40000 + i */
  guint             n_socks;
  guint64           lookups;
  guint64           lookups_mark;
} Lookup;

static const char *const metrics[] = { "cycles_per_socket", "ns_per_lookup", NULL };
/* The <workload> attributes it takes. */
static const NsWorkloadAttr lookup_attributes[] = {
  { "cpu", NS_WORKLOAD_ATTR_CPU, "0", .meaning = "the CPU that looks up" },
  { "sockets", NS_WORKLOAD_ATTR_UINT, "64", "1", G_STRINGIFY (LOOKUP_MAX_SOCKETS),
    .meaning = "connected sockets in the port's hash chain" },
  { "stride", NS_WORKLOAD_ATTR_SIZE, "0", NULL, "1MiB",
    .meaning = "bytes between sockets: 0 packed, else a multiple of 64 from a struct "
               "udp_sock's size" },
  { "shuffle", NS_WORKLOAD_ATTR_BOOL, "false",
    .meaning = "the sockets' memory in a random order, not the chain's" },
  { NULL }
};

/* The simulated thread: one lookup per client port in turn, forever; each must find the
 * socket connected to that port. */
static void
lookup_thread (NsThread *t, gpointer data)
{
  Lookup *lk = data;
  be32 loopback = GUINT32_TO_BE (LOOKUP_LOOPBACK);

  for (guint64 k = 0;; k++) {
    guint i = (guint) (k % lk->n_socks);
    be16 sport = GUINT16_TO_BE ((guint16) (LOOKUP_CLIENT_PORT + i));
    struct sock *sk = __udp4_lib_lookup (t, lk->net, loopback, sport, loopback,
                                         GUINT16_TO_BE (LOOKUP_SERVER_PORT), 0, 0,
                                         lk->tbl, NULL);
    g_assert (sk == lk->socks[i]);
    lk->lookups++;
  }
}

/* 127.0.0.1:port as a sockaddr_in. */
static void
loopback_sockaddr (struct sockaddr_in *in, guint port)
{
  memset (in, 0, sizeof *in);
  in->sin_family = AF_INET;
  in->sin_port = GUINT16_TO_BE ((guint16) port);
  in->sin_addr.s_addr = GUINT32_TO_BE (LOOKUP_LOOPBACK);
}

/* Creates the sockets in memory order, stride bytes apart from the first (0 = as the
 * arena packs them) by allocating padding from the arena between them; FALSE if the
 * arena did not place one where the stride says. */
static gboolean
create_sockets (Lookup *lk, guint64 stride)
{
  guint64 first = 0;

  for (guint i = 0; i < lk->n_socks; i++) {
    guint64 addr;

    lk->socks[i] = udp_sock_create (lk->tbl, lk->net, AF_INET);
    addr = ns_arena_addr (lk->arena, lk->socks[i]);
    if (i == 0)
      first = addr;
    if (stride == 0)
      continue;
    if (addr != first + i * stride)
      return FALSE;
    if (stride > sizeof (struct udp_sock))
      ns_arena_alloc (lk->arena, stride - sizeof (struct udp_sock), 8);
  }
  return TRUE;
}

/* Binds and connects socket i as iperf3's server stream socket for client port 40000 + i;
 * 0 or a negative errno. */
static gint
connect_socket (Lookup *lk, guint i)
{
  struct sockaddr_in in;
  gint err;

  udp_sock_set_reuseaddr (lk->socks[i], TRUE);
  loopback_sockaddr (&in, LOOKUP_SERVER_PORT);
  err = udp_sock_bind (lk->socks[i], (struct sockaddr *) &in, sizeof in);
  if (err != 0)
    return err;
  loopback_sockaddr (&in, LOOKUP_CLIENT_PORT + i);
  return udp_sock_connect (lk->socks[i], (struct sockaddr *) &in, sizeof in, NULL);
}

/* Frees the table (closing its sockets), the netns and the state (NULL is fine). */
static void
lookup_free (gpointer state)
{
  Lookup *lk = state;

  if (lk == NULL)
    return;
  if (lk->tbl)
    udp_table_free (lk->tbl);
  if (lk->net)
    ns_net_free (lk->arena, lk->net);
  g_free (lk->socks);
  g_free (lk);
}

/* Reads sockets, stride, shuffle and cpu; FALSE with a file:line error. */
static gboolean
read_attributes (const NsScenario *sc, NsMachine *machine, guint64 *n, guint64 *stride,
                 gboolean *shuffle, guint *cpu, GError **error)
{
  guint64 min_stride = (sizeof (struct udp_sock) + 63) & ~(guint64) 63;

  if (!ns_workload_attr_check (sc, lookup_attributes, error) ||
      !ns_workload_attr_cpu (sc, machine, lookup_attributes, "cpu", cpu, error) ||
      !ns_workload_attr_uint (sc, lookup_attributes, "sockets", n, error) ||
      !ns_workload_attr_uint (sc, lookup_attributes, "stride", stride, error) ||
      !ns_workload_attr_bool (sc, lookup_attributes, "shuffle", shuffle, error))
    return FALSE;
  if (*stride != 0 && (*stride % 64 != 0 || *stride < min_stride))
    goto bad_stride;
  return TRUE;

/* ERRORS */
bad_stride:
  ns_xml_error_attr (sc, sc->workload, "stride", error, "attribute 'stride': expected 0 "
                     "(packed) or a multiple of 64 bytes from %" G_GUINT64_FORMAT " (a struct "
                     "udp_sock) to 1MiB, got %" G_GUINT64_FORMAT, min_stride, *stride);
  return FALSE;
}

/* Sets up udp-lookup (sockets, stride, shuffle, cpu); NULL with a file:line error. */
static gpointer
lookup_setup (const NsScenario *sc, NsMachine *machine, NsEngine *engine, gsl_rng *rng,
              GError **error)
{
  Lookup *lk = g_new0 (Lookup, 1);
  g_autofree guint *order = NULL;
  guint64 n, stride;
  gboolean shuffle;
  guint cpu;
  gint err = 0;

  if (!read_attributes (sc, machine, &n, &stride, &shuffle, &cpu, error))
    goto fail;
  lk->arena = ns_machine_arena (machine);
  lk->n_socks = (guint) n;
  lk->socks = g_new0 (struct sock *, lk->n_socks);
  lk->net = ns_net_new (lk->arena, LOOKUP_NET_HASH_MIX, 1);
  lk->tbl = udp_table_new (lk->arena, ns_machine_build (machine), 0, error);
  if (lk->tbl == NULL)
    goto fail;
  if (!create_sockets (lk, stride))
    goto misplaced;
  order = g_new (guint, lk->n_socks);
  for (guint i = 0; i < lk->n_socks; i++)
    order[i] = i;
  if (shuffle)
    gsl_ran_shuffle (rng, order, lk->n_socks, sizeof *order);
  for (guint j = 0; j < lk->n_socks && err == 0; j++)
    err = connect_socket (lk, order[j]);
  if (err != 0)
    goto set_up_failed;
  ns_engine_spawn (engine, "udp-lookup", cpu, NS_THREAD_USER, 0, lookup_thread, lk);
  return lk;

/* ERRORS */
misplaced:
  ns_xml_error_attr (sc, sc->workload, "stride", error, "attribute 'stride': the arena did "
                     "not place the sockets %" G_GUINT64_FORMAT " bytes apart", stride);
  goto fail;
set_up_failed:
  ns_xml_error (sc, sc->workload, error, "socket set-up failed with errno %d", -err);
fail:
  lookup_free (lk);
  return NULL;
}

/* Snapshots the lookup count for the next metric. */
static void
lookup_mark (gpointer state)
{
  Lookup *lk = state;
  lk->lookups_mark = lk->lookups;
}

/* Lookups completed since the mark. */
static guint64
lookup_ops (gpointer state)
{
  Lookup *lk = state;
  return lk->lookups - lk->lookups_mark;
}

/* Cycles per chain socket or ns per lookup since the mark; FALSE for an unknown metric
 * or no lookups. */
static gboolean
lookup_metric (gpointer state, NsMachine *machine, const char *metric, NsTime span,
               double *value)
{
  Lookup *lk = state;
  double lookups = (double) lookup_ops (state);

  if (lookups == 0)
    return FALSE;
  if (g_str_equal (metric, "cycles_per_socket"))
    *value = ns_workload_span_cycles (machine, span) / lookups / lk->n_socks;
  else if (g_str_equal (metric, "ns_per_lookup"))
    *value = (double) span / 1000.0 / lookups;
  else
    return FALSE;
  return TRUE;
}

const NsWorkloadClass ns_udp_lookup_class = {
  .name = "udp-lookup",
  .description = "the IPv4 UDP socket lookup over a chain of connected sockets, packed or "
                 "strided (the model's side of tools/bench-saferet)",
  .op_name = "lookup",
  .metrics = metrics,
  .attributes = lookup_attributes,
  .setup = lookup_setup,
  .mark = lookup_mark,
  .ops = lookup_ops,
  .metric = lookup_metric,
  .free = lookup_free,
};
