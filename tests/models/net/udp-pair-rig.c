/* udp-pair-rig.c — the loopback UDP pair of udp-pair-rig.h. */
#include "config.h"
#include "udp-pair-rig.h"

/* sockaddr of the loopback address of family, port. */
gint
loopback_addr (struct sockaddr_storage *ss, gint family, guint16 port)
{
  memset (ss, 0, sizeof *ss);
  if (family == AF_INET) {
    struct sockaddr_in *in = (struct sockaddr_in *) ss;
    in->sin_family = AF_INET;
    in->sin_port = htons (port);
    in->sin_addr.s_addr = htonl (0x7f000001);
    return sizeof *in;
  }
  struct sockaddr_in6 *in6 = (struct sockaddr_in6 *) ss;
  in6->sin6_family = AF_INET6;
  in6->sin6_port = htons (port);
  in6->sin6_addr.s6_addr[15] = 1;
  return sizeof *in6;
}

/* A machine of the registry defaults running kernel version, its stack with
 * net.core.rmem_default = rcvbuf (0: the default; sock_init_data copies it into sk_rcvbuf,
 * udp_lib_init_sock sets forward_threshold from it), and a connected pair of family: the
 * client sends to the server bound to the loopback address at PORT. */
void
rig_init (Rig *rig, const char *version, gint family, guint rcvbuf)
{
  rig_init_config (rig, version, family, rcvbuf, NULL);
}

/* As rig_init, with .config key/value pairs (NULL-terminated, may be NULL). */
void
rig_init_config (Rig *rig, const char *version, gint family, guint rcvbuf,
                 const char *const *config)
{
  struct sockaddr_storage ss;
  gint len;

  memset (rig, 0, sizeof *rig);
  rig->family = family;
  stack_rig_init (&rig->s, version, NULL, config, NULL);
  if (rcvbuf != 0)
    rig->s.stack->rmem_default = rcvbuf;
  rig->client = ns_netstack_socket (rig->s.stack, family, FALSE);
  len = loopback_addr (&ss, family, PORT);
  ck_assert_int_eq (ns_netstack_connect (rig->s.stack, rig->client, (struct sockaddr *) &ss,
                                         len), 0);
  rig->server = ns_netstack_socket (rig->s.stack, family, FALSE);
  ck_assert_int_eq (udp_sock_bind (ns_file_sock (rig->server), (struct sockaddr *) &ss, len),
                    0);
  len = loopback_addr (&ss, family, ns_file_sock (rig->client)->sk_num);
  ck_assert_int_eq (ns_netstack_connect (rig->s.stack, rig->server, (struct sockaddr *) &ss,
                                         len), 0);
  rig->txbuf = ns_arena_alloc (ns_machine_arena (rig->s.machine), RIG_BUF, 64);
  rig->rxbuf = ns_arena_alloc (ns_machine_arena (rig->s.machine), RIG_BUF, 64);
  ns_netstack_start_cpu (rig->s.stack, SENDER_CPU);
}

/* Frees what rig_init made. */
void
rig_clear (Rig *rig)
{
  stack_rig_clear (&rig->s);
}

/* The simulated thread's body: the job's. */
void
job_thread (NsThread *t, gpointer data)
{
  Job *job = data;

  job->body (t, job->rig, job->arg);
}

/* Runs body(arg) in a user thread on cpu from now until every thread is done or asleep;
 * asserts the body returned. */
void
run_on (Rig *rig, guint cpu, Body body, gpointer arg)
{
  Job job = { rig, body, arg };

  stack_rig_run (&rig->s, cpu, job_thread, &job);
}

typedef struct {
  struct file *file;
  gsize        len;
  gssize       ret;
} WriteCall;

/* Body: write(2) of call->len bytes from txbuf on call->file, noting the result. */
static void
write_call (NsThread *t, Rig *rig, gpointer arg)
{
  WriteCall *call = arg;

  call->ret = ns_sys_write (t, rig->s.stack, call->file, rig->txbuf, call->len);
}

/* write(2) of len bytes on file from the sender's CPU; its result. */
gssize
write_on (Rig *rig, struct file *file, gsize len)
{
  WriteCall call = { file, len, 0 };

  run_on (rig, SENDER_CPU, write_call, &call);
  return call.ret;
}

/* Sends one datagram of len bytes and lets the receive softirq finish. */
void
send_datagram (Rig *rig, guint len)
{
  ck_assert_int_eq (write_on (rig, rig->client, len), (gssize) len);
}

/* Body: one read(2) of call->len bytes into rxbuf. */
void
read_one (NsThread *t, Rig *rig, gpointer arg)
{
  ReadCall *call = arg;

  call->ret = ns_sys_read (t, rig->s.stack, rig->server, rig->rxbuf, call->len);
  call->returned = ns_thread_now (t);
}

/* One read(2) of len bytes on the reader's CPU; returns its result. */
gssize
read_datagram (Rig *rig, gsize len)
{
  ReadCall call = { len, 0, 0 };

  run_on (rig, READER_CPU, read_one, &call);
  return call.ret;
}

/* The skb last queued on the server socket (nobody reading); see udp-pair-rig.h. */
struct sk_buff *
last_queued (Rig *rig)
{
  struct sock *sk = ns_file_sock (rig->server);

  ck_assert_uint_gt (sk->sk_receive_queue.qlen, 0);
  return sk->sk_receive_queue.prev;
}

/* Indirect calls one warm 1000-byte write and its delivery make; see udp-pair-rig.h. */
guint64
rig_icalls_per_datagram (const char *version, gint family, const char *const *config)
{
  guint64 n;
  Rig rig;

  rig_init_config (&rig, version, family, 0, config);
  send_datagram (&rig, 1000);
  ns_machine_account_reset (rig.s.machine);
  send_datagram (&rig, 1000);
  n = ns_machine_account_events (rig.s.machine, NS_CAUSE_INDIRECT);
  rig_clear (&rig);
  return n;
}
