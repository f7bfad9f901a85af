/* udp-flood.c — the workload "udp-flood": one connected UDP client write()s datagrams as
 * fast as it can to a loopback port on which N unconnected sockets are bound and nobody
 * reads. It is the model's side of tools/bench-udp-chain, which times the same set-up in
 * the running kernel.
 *
 * Sockets as the host bench makes them: N receivers bound to the loopback address
 * (127.0.0.1, or ::1 with IPV6_V6ONLY for family="ipv6") and one port with SO_REUSEADDR,
 * bound in order, so the last one bound is at the head of the port's hash2 chain and,
 * all scoring the same, receives every datagram; the client is a socket bound to the
 * loopback address (an ephemeral port from the run's random stream) and connected to the
 * port. connected="true" also connects the head receiver to the client (bench-udp-chain
 * --connected; since Linux 6.14 the 4-tuple hash finds it without walking the chain).
 *
 * Loopback runs the receive softirq inside each write(), so every write pays the send
 * path, the receive path and __udp4_lib_lookup's walk over all N sockets; once the head
 * receiver's queue holds rcvbuf bytes, each datagram is dropped after the lookup
 * (__udp_enqueue_schedule_skb, RCVBUFERRORS), as on the host. The client's user-space
 * loop is a write() call and a compare, not charged.
 *
 * Metrics: cycles_per_write (the client CPU's cycles over the window per completed
 * write; the host bench's figure), writes_per_sec, drops_per_sec. op = write. */
#include "config.h"
#include <string.h>
#include <errno.h>
#include "workload.h"
#include "net/netstack.h"
#include "net/udp_tx.h"

typedef struct {
  NsMachine    *machine;
  NsEngine     *engine;
  NsNetStack   *stack;
  guint         n_sockets;
  gsize         length;
  gboolean      ipv6;
  gboolean      connected;
  guint         cpu;
  guint16       port;
  struct file  *client;
  struct file **receivers;
  guchar       *buf;               /* the client's user buffer (simulated memory) */
  guint64       writes;
  guint64       mark_writes;
  NsNetCounters mark;
} Flood;

static const char *const metrics[] = {
  "cycles_per_write", "writes_per_sec", "drops_per_sec", NULL
};
static const char *const families[] = { "ipv4", "ipv6", NULL };
/* The <workload> attributes it takes. */
static const NsWorkloadAttr udp_flood_attributes[] = {
  { "sockets", NS_WORKLOAD_ATTR_UINT, "1", "1", "4096",
    .meaning = "unread sockets bound to the port, the client's target among them" },
  { "length", NS_WORKLOAD_ATTR_SIZE, "8920", "1", "65507",
    .why = "a UDP datagram's payload", .meaning = "bytes a write() sends" },
  { "family", NS_WORKLOAD_ATTR_CHOICE, "ipv4", .choices = families,
    .meaning = "the sockets' address family" },
  { "connected", NS_WORKLOAD_ATTR_BOOL, "false",
    .meaning = "the receiving sockets are connected to the client" },
  { "cpu", NS_WORKLOAD_ATTR_CPU, "0", .meaning = "the client's CPU" },
  { "port", NS_WORKLOAD_ATTR_UINT, "5201", "1", "65535", .meaning = "the sockets' port" },
  { NULL }
};
static const char *const per_time_metrics[] = { "writes_per_sec", "drops_per_sec", NULL };

/* The client: write() forever; a failed write (never expected) counts as no write. */
static void
flood_thread (NsThread *t, gpointer data)
{
  Flood *f = data;

  for (;;)
    if (ns_sys_write (t, f->stack, f->client, f->buf, f->length) > 0)
      f->writes++;
}

/* The loopback address of the flood's family with port (host order); its length. */
static gint
loopback_addr (const Flood *f, struct sockaddr_storage *ss, guint16 port)
{
  memset (ss, 0, sizeof *ss);
  if (f->ipv6) {
    struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *) ss;
    sin6->sin6_family = AF_INET6;
    sin6->sin6_port = g_htons (port);
    sin6->sin6_addr.s6_addr[15] = 1;                  /* ::1 */
    return sizeof *sin6;
  } else {
    struct sockaddr_in *sin = (struct sockaddr_in *) ss;
    sin->sin_family = AF_INET;
    sin->sin_port = g_htons (port);
    sin->sin_addr.s_addr = g_htonl (INADDR_LOOPBACK);
    return sizeof *sin;
  }
}

/* A socket of the flood's family bound to the loopback address at port with SO_REUSEADDR
 * (IPv6: IPV6_V6ONLY), as bench-udp-chain's bound_socket; NULL with *err set. */
static struct file *
bound_socket (Flood *f, guint16 port, gint *err)
{
  struct sockaddr_storage ss;
  gint len = loopback_addr (f, &ss, port);
  struct file *file = ns_netstack_socket_on (f->stack, f->ipv6 ? AF_INET6 : AF_INET, FALSE,
                                             f->cpu);
  struct sock *sk = ns_file_sock (file);

  udp_sock_set_reuseaddr (sk, TRUE);
  *err = f->ipv6 ? udp_sock_set_v6only (sk, TRUE) : 0;
  if (*err == 0)
    *err = udp_sock_bind (sk, (struct sockaddr *) &ss, len);
  return *err == 0 ? file : NULL;
}

/* Connects file to the loopback address at port; 0 or a negative errno. */
static gint
connect_to (Flood *f, struct file *file, guint16 port)
{
  struct sockaddr_storage ss;
  gint len = loopback_addr (f, &ss, port);

  return ns_netstack_connect (f->stack, file, (struct sockaddr *) &ss, len);
}

/* The receivers, then the client (an ephemeral port of 32768-60999 from rng), connected
 * to the port; with connected, the head receiver connected back. */
static gboolean
make_sockets (Flood *f, gsl_rng *rng, const NsScenario *sc, GError **error)
{
  guint made = 0;
  gint err = 0;
  guint16 cport;

  for (made = 0; made < f->n_sockets; made++) {
    f->receivers[made] = bound_socket (f, f->port, &err);
    if (f->receivers[made] == NULL)
      goto failed;
  }
  do {
    /* not the receivers' port: with SO_REUSEADDR on both sides the bind would succeed
     * and put the client on their chain, connected to itself */
    cport = ns_netstack_ephemeral_port (rng, f->port);
    f->client = bound_socket (f, cport, &err);
  } while (f->client == NULL && err == -EADDRINUSE);
  if (f->client == NULL)
    goto failed;
  err = connect_to (f, f->client, f->port);
  if (err == 0 && f->connected)
    err = connect_to (f, f->receivers[f->n_sockets - 1], cport);
  if (err != 0)
    goto failed;
  return TRUE;

/* ERRORS */
failed:
  ns_xml_error (sc, sc->workload, error, "socket %u of %u: set-up failed with errno %d",
                made + 1, f->n_sockets + 1, -err);
  return FALSE;
}

/* Reads and checks the <workload> attributes into f. */
static gboolean
read_attributes (Flood *f, const NsScenario *sc, NsMachine *machine, GError **error)
{
  guint64 sockets, length, port;
  guint family;

  if (!ns_workload_attr_check (sc, udp_flood_attributes, error) ||
      !ns_workload_attr_uint (sc, udp_flood_attributes, "sockets", &sockets, error) ||
      !ns_workload_attr_uint (sc, udp_flood_attributes, "length", &length, error) ||
      !ns_workload_attr_choice (sc, udp_flood_attributes, "family", &family, error) ||
      !ns_workload_attr_bool (sc, udp_flood_attributes, "connected", &f->connected, error) ||
      !ns_workload_attr_cpu (sc, machine, udp_flood_attributes, "cpu", &f->cpu, error) ||
      !ns_workload_attr_uint (sc, udp_flood_attributes, "port", &port, error) ||
      !ns_workload_check_udp_unfragmented (sc, length, family == 1, error))
    return FALSE;
  f->n_sockets = (guint) sockets;
  f->length = (gsize) length;
  f->ipv6 = family == 1;
  f->port = (guint16) port;
  return TRUE;
}

/* Frees the workload's state and its network stack (NULL is fine). */
static void
flood_free (gpointer state)
{
  Flood *f = state;

  if (f == NULL)
    return;
  g_free (f->receivers);
  ns_netstack_free (f->stack);
  g_free (f);
}

/* Reads the attributes, builds the stack and sockets and spawns the client; NULL with a
 * file:line error. */
static gpointer
flood_setup (const NsScenario *sc, NsMachine *machine, NsEngine *engine, gsl_rng *rng,
             GError **error)
{
  Flood *f = g_new0 (Flood, 1);

  f->machine = machine;
  f->engine = engine;
  if (!read_attributes (f, sc, machine, error))
    goto fail;
  f->stack = ns_netstack_new (machine, engine, error);
  if (f->stack == NULL)
    goto fail;
  f->receivers = g_new0 (struct file *, f->n_sockets);
  if (!make_sockets (f, rng, sc, error))
    goto fail;
  f->buf = ns_arena_alloc (ns_machine_arena (machine), f->length, 64);
  ns_netstack_start_cpu (f->stack, f->cpu);
  ns_engine_spawn (engine, "udp-flood", f->cpu, NS_THREAD_USER, 0, flood_thread, f);
  return f;

fail:
  flood_free (f);
  return NULL;
}

/* Snapshots the write count and the stack's counters for the next metric. */
static void
flood_mark (gpointer state)
{
  Flood *f = state;

  f->mark_writes = f->writes;
  f->mark = f->stack->counters;
}

/* Writes completed since the mark. */
static guint64
flood_ops (gpointer state)
{
  Flood *f = state;

  return f->writes - f->mark_writes;
}

/* Value of metric since the mark over span; FALSE for an unknown metric or when no write
 * completed. */
static gboolean
flood_metric (gpointer state, NsMachine *machine, const char *metric, NsTime span,
              double *value)
{
  Flood *f = state;
  guint64 writes = f->writes - f->mark_writes;

  if (span <= 0 || writes == 0)
    return FALSE;
  if (g_str_equal (metric, "cycles_per_write"))
    *value = ns_workload_span_cycles (machine, span) / (double) writes;
  else if (g_str_equal (metric, "writes_per_sec"))
    *value = ns_workload_rate ((double) writes, span);
  else if (g_str_equal (metric, "drops_per_sec"))
    *value = ns_workload_rate ((double) (f->stack->counters.rcvbuf_drops - f->mark.rcvbuf_drops),
                               span);
  else
    return FALSE;
  return TRUE;
}

const NsWorkloadClass ns_udp_flood_class = {
  .name = "udp-flood",
  .description = "one connected client write()s to a loopback UDP port of N unread sockets "
                 "(tools/bench-udp-chain's set-up)",
  .op_name = "write",
  .metrics = metrics,
  .attributes = udp_flood_attributes,
  .per_time_metrics = per_time_metrics,
  .setup = flood_setup,
  .mark = flood_mark,
  .ops = flood_ops,
  .metric = flood_metric,
  .free = flood_free,
};
