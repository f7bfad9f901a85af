/* test-netstack.c — models/net/netstack.c, one machine's network stack and the kernel
 * primitives every path uses, against the kernel's rules (v6.9, x86-64):
 *   - the stack's defaults: net.core.netdev_max_backlog 1000, dev_weight 64,
 *     rmem_default / wmem_default 212992 (Documentation/admin-guide/sysctl/net.rst);
 *     udp_init's 2^(ilog2(nr_cpu_ids) + 4) busylocks (net/ipv4/udp.c); the loopback
 *     device (drivers/net/loopback.c: "lo", IFF_LOOPBACK, MTU 64 KiB, NETIF_F_LLTX,
 *     LOOPBACK_IFINDEX 1) and its RTN_LOCAL routes; one softnet_data per CPU;
 *   - a UDP socket as socket(2) leaves it: sock_init_data's sk_rcvbuf / sk_sndbuf from the
 *     defaults, sk_wq and sk_socket linking sock and socket, SOCK_DGRAM / IPPROTO_UDP,
 *     udp_lib_init_sock's forward_threshold = sk_rcvbuf >> 2, O_NONBLOCK on the file;
 *     connect's cached route holds one reference, released when the socket goes
 *     (inet_sock_destruct's dst_release);
 *   - spin_lock{,_bh,_irq,_irqsave} enter their out-of-line _raw_spin_lock* and take the
 *     lock word; only the _bh pair moves softirq_count() (SOFTIRQ_DISABLE_OFFSET) and
 *     spin_unlock_bh is a local_bh_enable: it runs a pending NET_RX in process context,
 *     but not inside an outer local_bh_disable (kernel/locking/spinlock.c,
 *     include/linux/spinlock_api_smp.h, kernel/softirq.c);
 *   - rcu_read_lock nests (CONFIG_PREEMPT_RCU: __rcu_read_lock / __rcu_read_unlock and the
 *     task's rcu_read_lock_nesting), and is no call at all without preemptible RCU;
 *   - a system call enters sys through do_syscall_64 and comes back out to the level it
 *     started at (arch/x86/entry/common.c); do_syscall_64 reaches sys through
 *     sys_call_table's indirect call until the BHI series (v6.9-rc4, 1e3ad78334a6; stable
 *     6.8.5, 6.6.26, 6.1.85), then through x64_sys_call's compare tree and its tail jmp.
 * Expected values are computed from those rules, not read from the model. */
#include "config.h"
#include <arpa/inet.h>
#include "stack-rig.h"
#include "loopback.h"

#define SOFTIRQ_DISABLE_OFFSET  0x200
#define SOFTIRQ_MASK            0xff00
#define SOCK_DGRAM_TYPE         2
#define IPPROTO_UDP_NUM         17
#define O_NONBLOCK_FLAG         04000
#define RMEM_DEFAULT            212992
#define WMEM_DEFAULT            212992
#define NETDEV_MAX_BACKLOG      1000u
#define DEV_WEIGHT              64
#define LOOPBACK_IFINDEX        1
#define LOOPBACK_MTU            (64 * 1024)

static NS_FUNC (fn_sys_test, "__x64_sys_test", 32, NS_FRAME_UNKNOWN, NS_FN_EXTERN, 1);

typedef struct {
  StackRig       s;                /* machine, engine, loopback stack */
  NsSpinlock  *lock;            /* a lock word in the arena */
} Rig;

/* A machine of the registry defaults running 6.9.0-rc1 (with .config key=value when key
 * is not NULL) and its network stack. */
static void
rig_init (Rig *r, const char *key, const char *value)
{
  const char *config[] = { key, value, NULL };

  memset (r, 0, sizeof *r);
  stack_rig_init (&r->s, "6.9.0-rc1", NULL, key != NULL ? config : NULL, NULL);
  r->lock = ns_arena_alloc (ns_machine_arena (r->s.machine), 64, 64);
  ns_spin_lock_init (r->lock);
}

/* Frees what rig_init made. */
static void
rig_clear (Rig *r)
{
  stack_rig_clear (&r->s);
}

/* Runs body(t, r) in a user thread on CPU 0 until everything is idle. */
static void
run (Rig *r, void (*body) (NsThread *t, gpointer rig))
{
  stack_rig_run (&r->s, 0, body, r);
}

/* ilog2 of n >= 1. */
static guint
ilog2 (guint n)
{
  guint log = 0;

  while (n >>= 1)
    log++;
  return log;
}

/* The defaults, the loopback device, its routes and the per-CPU data. */
START_TEST (test_stack_defaults)
{
  NsNetStack *s;
  Rig r;

  rig_init (&r, NULL, NULL);
  s = r.s.stack;
  ck_assert_uint_eq (s->max_backlog, NETDEV_MAX_BACKLOG);
  ck_assert_uint_eq (s->rmem_default, RMEM_DEFAULT);
  ck_assert_uint_eq (s->wmem_default, WMEM_DEFAULT);
  ck_assert_uint_eq (s->udp_busylocks_log, ilog2 (ns_machine_n_cpus (r.s.machine)) + 4);
  ck_assert_str_eq (s->lo->name, "lo");
  ck_assert_uint_eq (s->lo->flags & (IFF_UP | IFF_LOOPBACK), IFF_UP | IFF_LOOPBACK);
  ck_assert_uint_eq (s->lo->mtu, LOOPBACK_MTU);
  ck_assert_int_eq (s->lo->ifindex, LOOPBACK_IFINDEX);
  ck_assert (s->lo->features & NETIF_F_LLTX);
  ck_assert_ptr_eq (s->rt_lo4->dev, s->lo);
  ck_assert_ptr_eq (s->rt_lo6->dev, s->lo);
  ck_assert_uint_eq (s->rt_lo4->rt_type, RTN_LOCAL);
  ck_assert_uint_eq (s->rt_lo6->rt_type, RTN_LOCAL);
  for (guint c = 0; c < ns_machine_n_cpus (r.s.machine); c++) {
    struct softnet_data *sd = ns_netstack_sd (s, c);
    ck_assert_uint_eq (sd->cpu, c);
    ck_assert_int_eq (sd->napi_weight, DEV_WEIGHT);
    ck_assert_uint_eq (sd->input_pkt_queue.qlen + sd->process_queue.qlen, 0);
    ck_assert_uint_eq (sd->napi_state, 0);
    ck_assert_int_eq (*s->preempt_count[c], 0);
    ck_assert_ptr_ne (sd, ns_netstack_sd (s, (c + 1) % ns_machine_n_cpus (r.s.machine)));
  }
  rig_clear (&r);
}
END_TEST

/* lo is laid out as the build's release: seed 000's 6.9-rc1 keeps net_device's v6.8
 * cache-line groups (priv_flags, netdev_ops and the TX queue on line 0), a 6.1 stack has
 * v6.1's order (the TX queue at 960, line 15), a 6.12 one Debian 6.12.118's (qdisc at
 * 1120). */
START_TEST (test_lo_layout_by_release)
{
  static const struct { const char *release, *layout; gsize tx, qdisc; } cases[] = {
    { "6.9.0-rc1", "v6.8", 24, 840 }, { "6.1.0", "v6.1", 960, 976 },
    { "6.12.0", "v6.12", 24, 1120 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    StackRig sr;
    const struct net_device *lo;

    stack_rig_init (&sr, cases[i].release, NULL, NULL, NULL);
    lo = sr.stack->lo;
    ck_assert_str_eq (lo->layout->name, cases[i].layout);
    ck_assert_uint_eq (ns_arena_charged_addr (sr.stack->arena, &lo->_tx) -
                       ns_arena_addr (sr.stack->arena, lo), cases[i].tx);
    ck_assert_uint_eq (ns_arena_charged_addr (sr.stack->arena, &lo->qdisc) -
                       ns_arena_addr (sr.stack->arena, lo), cases[i].qdisc);
    stack_rig_clear (&sr);
  }
}
END_TEST

/* The charged offset of p in the socket object obj. */
static gint64
charged_offset (NsNetStack *s, gconstpointer obj, gconstpointer p)
{
  return (gint64) (ns_arena_charged_addr (s->arena, p) - ns_arena_charged_addr (s->arena, obj));
}

/* A UDP socket is charged as its release lays it out: before 5d4cc87414c5 (v6.9-rc1) at
 * Debian 6.1.176's offsets (sk_rcvbuf 280, sk_receive_queue 216, sk_forward_alloc 264,
 * sk_data_ready 680; inet_sock and udp_sock's fields 24 bytes on, up to reader_queue at
 * 1088 in both), from it where sock.h declares them; closing it charges its memory as it
 * lies again. */
START_TEST (test_socket_layout_by_release)
{
  static const struct { const char *release; gint64 rcvbuf, rq, fwd, ready, pending; } cases[] = {
    { "6.1.0", 280, 216, 264, 680, 1000 }, { "6.8.12", 280, 216, 264, 680, 1000 },
    { "6.9.0-rc1", 244, 168, 356, 264, 976 }, { "6.12.0", 244, 168, 356, 264, 976 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    StackRig sr;
    struct file *f;
    struct sock *sk;
    struct udp_sock *up;

    stack_rig_init (&sr, cases[i].release, NULL, NULL, NULL);
    f = ns_netstack_socket (sr.stack, AF_INET6, FALSE);
    sk = ns_file_sock (f);
    up = udp_sk (sk);
    ck_assert_int_eq (charged_offset (sr.stack, sk, &sk->sk_rcvbuf), cases[i].rcvbuf);
    ck_assert_int_eq (charged_offset (sr.stack, sk, &sk->sk_receive_queue.lock),
                      cases[i].rq + (gint64) offsetof (struct sk_buff_head, lock));
    ck_assert_int_eq (charged_offset (sr.stack, sk, &sk->sk_forward_alloc), cases[i].fwd);
    ck_assert_int_eq (charged_offset (sr.stack, sk, &sk->sk_data_ready), cases[i].ready);
    ck_assert_int_eq (charged_offset (sr.stack, sk, &up->pending), cases[i].pending);
    ck_assert_int_eq (charged_offset (sr.stack, sk, &up->reader_queue), 1088);
    ck_assert_int_eq (charged_offset (sr.stack, sk, &sk->sk_state), 18);  /* sock_common */
    ns_netstack_close (sr.stack, f);
    ck_assert_uint_eq (ns_arena_charged_addr (sr.stack->arena, &sk->sk_rcvbuf),
                       ns_arena_addr (sr.stack->arena, &sk->sk_rcvbuf));
    stack_rig_clear (&sr);
  }
}
END_TEST

/* socket(2) of a UDP socket, blocking and non-blocking, of both families. */
START_TEST (test_socket_init)
{
  static const gint families[] = { AF_INET, AF_INET6 };
  Rig r;

  rig_init (&r, NULL, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (families); i++) {
    for (gint nonblock = 0; nonblock <= 1; nonblock++) {
      struct file *file = ns_netstack_socket (r.s.stack, families[i], nonblock);
      struct socket *sock = ns_file_socket (file);
      struct sock *sk = ns_file_sock (file);
      ck_assert_ptr_eq (file->private_data, sock);
      ck_assert_ptr_eq (sock->file, file);
      ck_assert_ptr_eq (sock->sk, sk);
      ck_assert_ptr_eq (sk->sk_socket, sock);
      ck_assert_ptr_eq (sk->sk_wq, &sock->wq);
      ck_assert_int_eq (sock->type, SOCK_DGRAM_TYPE);
      ck_assert_int_eq (sk->sk_type, SOCK_DGRAM_TYPE);
      ck_assert_int_eq (sk->sk_protocol, IPPROTO_UDP_NUM);
      ck_assert_int_eq (sk->sk_rcvbuf, RMEM_DEFAULT);
      ck_assert_int_eq (sk->sk_sndbuf, WMEM_DEFAULT);
      ck_assert_int_eq (udp_sk (sk)->forward_threshold, RMEM_DEFAULT >> 2);
      ck_assert_uint_eq (file->f_flags & O_NONBLOCK_FLAG, nonblock ? O_NONBLOCK_FLAG : 0);
      ck_assert_uint_eq (sk->sk_receive_queue.qlen, 0);
      ns_netstack_close (r.s.stack, file);
    }
  }
  rig_clear (&r);
}
END_TEST

/* connect(2) caches lo's local route with one reference, which close gives back. */
/* Addresses of n AF_INET6 sockets the stack creates on CPUs 0 and 1 in turn (out[2][n]). */
static void
sockets_on_two_cpus (Rig *r, guint n, guint64 (*out)[8])
{
  NsArena *arena = ns_machine_arena (r->s.machine);

  for (guint i = 0; i < n; i++)
    for (guint cpu = 0; cpu < 2; cpu++)
      out[cpu][i] = ns_arena_addr (arena, ns_file_sock (ns_netstack_socket_on (r->s.stack,
                                                                               AF_INET6, FALSE,
                                                                               cpu)));
}

/* The addresses of sockets_on_two_cpus on a stack with CONFIG_SLAB_FREELIST_RANDOM=y
 * whose machine has page key `key`. */
static void
shuffled_layout (guint64 key, guint64 (*out)[8])
{
  static const char *const config[] = { "CONFIG_SLAB_FREELIST_RANDOM", "y", NULL };
  Rig r;

  memset (&r, 0, sizeof r);
  stack_rig_init_machine (&r.s, "6.9.0-rc1", NULL, config, NULL);
  ns_machine_set_page_key (r.s.machine, key);
  r.s.stack = ns_netstack_new (r.s.machine, r.s.engine, NULL);
  sockets_on_two_cpus (&r, 8, out);
  stack_rig_clear (&r.s);
}

/* A socket comes from the slab of the CPU that creates it: with the freelists in order,
 * each CPU's udp6_socks are consecutive 1344-byte objects of a slab of its own. Shuffled
 * (CONFIG_SLAB_FREELIST_RANDOM=y), the layout follows the machine's layout key: the same key gives the
 * same addresses, another key others. */
START_TEST (test_socket_slabs_per_cpu)
{
  guint64 a[2][8], b[2][8], c[2][8];
  Rig r;

  rig_init (&r, "CONFIG_SLAB_FREELIST_RANDOM", "n");
  sockets_on_two_cpus (&r, 8, a);
  for (guint cpu = 0; cpu < 2; cpu++)
    for (guint i = 1; i < 8; i++)
      ck_assert_uint_eq (a[cpu][i] - a[cpu][i - 1], 1344);
  rig_clear (&r);
  shuffled_layout (11, a);
  shuffled_layout (11, b);
  shuffled_layout (12, c);
  ck_assert (memcmp (a, b, sizeof a) == 0);
  ck_assert (memcmp (a, c, sizeof a) != 0);
}
END_TEST

START_TEST (test_connect_route_reference)
{
  struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons (5201),
                            .sin_addr.s_addr = htonl (0x7f000001) };
  struct file *file;
  struct sock *sk;
  gint32 refs;
  Rig r;

  rig_init (&r, NULL, NULL);
  refs = r.s.stack->rt_lo4->__rcuref;
  file = ns_netstack_socket (r.s.stack, AF_INET, FALSE);
  ck_assert_int_eq (ns_netstack_connect (r.s.stack, file, (struct sockaddr *) &in, sizeof in), 0);
  sk = ns_file_sock (file);
  ck_assert_ptr_eq (sk->sk_dst_cache, r.s.stack->rt_lo4);
  ck_assert_int_eq (r.s.stack->rt_lo4->__rcuref, refs + 1);
  ns_netstack_close (r.s.stack, file);
  ck_assert_int_eq (r.s.stack->rt_lo4->__rcuref, refs);
  rig_clear (&r);
}
END_TEST

static const char *const lock_fn_names[] = {
  "_raw_spin_lock", "_raw_spin_lock_bh", "_raw_spin_lock_irq", "_raw_spin_lock_irqsave"
};

/* Each lock kind: its own _raw_spin_lock* entered, the lock held until the unlock,
 * softirq_count() raised by the _bh kind only, everything back after the unlock. */
static void
body_lock_kinds (NsThread *t, gpointer data)
{
  Rig *r = data;
  gint32 *count = r->s.stack->preempt_count[0];

  for (NsLockKind kind = NS_LOCK_PLAIN; kind <= NS_LOCK_IRQSAVE; kind++) {
    ns_raw_spin_lock (t, r->s.stack, r->lock, kind);
    for (NsLockKind k = NS_LOCK_PLAIN; k <= NS_LOCK_IRQSAVE; k++)
      ck_assert_msg (stack_rig_calls (&r->s, lock_fn_names[k]) == (k <= kind),
                     "%s after the lock of kind %d", lock_fn_names[k], kind);
    ck_assert_uint_ne (r->lock->val, 0);
    ck_assert_int_eq (*count & SOFTIRQ_MASK, kind == NS_LOCK_BH ? SOFTIRQ_DISABLE_OFFSET : 0);
    ns_raw_spin_unlock (t, r->s.stack, r->lock, kind);
    ck_assert_uint_eq (r->lock->val, 0);
    ck_assert_int_eq (*count, 0);
  }
}

START_TEST (test_lock_kinds)
{
  Rig r;

  rig_init (&r, NULL, NULL);
  run (&r, body_lock_kinds);
  rig_clear (&r);
}
END_TEST

/* spin_unlock_bh in process context with NET_RX pending runs it (local_bh_enable), but
 * not inside an outer local_bh_disable, whose own enable then does. */
static void
body_unlock_bh_runs_softirq (NsThread *t, gpointer data)
{
  Rig *r = data;
  struct softnet_data *sd = ns_netstack_sd (r->s.stack, 0);

  sd->softirq_pending = 1;
  ns_raw_spin_lock (t, r->s.stack, r->lock, NS_LOCK_BH);
  ns_raw_spin_unlock (t, r->s.stack, r->lock, NS_LOCK_BH);
  ck_assert_uint_eq (sd->softirq_pending, 0);
  ck_assert_uint_eq (stack_rig_calls (&r->s, "net_rx_action"), 1);

  sd->softirq_pending = 1;
  local_bh_disable (t, &r->s.stack->softirq);
  ns_raw_spin_lock (t, r->s.stack, r->lock, NS_LOCK_BH);
  ns_raw_spin_unlock (t, r->s.stack, r->lock, NS_LOCK_BH);
  ck_assert_uint_eq (sd->softirq_pending, 1);
  ck_assert_uint_eq (stack_rig_calls (&r->s, "net_rx_action"), 1);
  __local_bh_enable_ip (t, &r->s.stack->softirq);
  ck_assert_uint_eq (sd->softirq_pending, 0);
  ck_assert_uint_eq (stack_rig_calls (&r->s, "net_rx_action"), 2);
  ck_assert_int_eq (*r->s.stack->preempt_count[0], 0);
}

START_TEST (test_unlock_bh_runs_softirq)
{
  Rig r;

  rig_init (&r, NULL, NULL);
  ns_netstack_start_cpu (r.s.stack, 0);
  run (&r, body_unlock_bh_runs_softirq);
  rig_clear (&r);
}
END_TEST

/* Nested read sections count up and down on the CPU's task; each is one call of
 * __rcu_read_lock and one of __rcu_read_unlock with preemptible RCU. */
static void
body_rcu_nesting (NsThread *t, gpointer data)
{
  Rig *r = data;
  gint *nesting = &r->s.stack->rcu_nesting[0];
  const gint expect = r->s.stack->preempt_rcu ? 1 : 0;

  ns_rcu_read_lock (t, r->s.stack);
  ns_rcu_read_lock (t, r->s.stack);
  ck_assert_int_eq (*nesting, 2 * expect);
  ns_rcu_read_unlock (t, r->s.stack);
  ck_assert_int_eq (*nesting, expect);
  ns_rcu_read_unlock (t, r->s.stack);
  ck_assert_int_eq (*nesting, 0);
}

START_TEST (test_rcu_nesting)
{
  Rig r;

  rig_init (&r, NULL, NULL);
  ck_assert (r.s.stack->preempt_rcu);
  run (&r, body_rcu_nesting);
  ck_assert_uint_eq (stack_rig_calls (&r.s, "__rcu_read_lock"), 2);
  ck_assert_uint_eq (stack_rig_calls (&r.s, "__rcu_read_unlock"), 2);
  rig_clear (&r);
}
END_TEST

/* Without CONFIG_PREEMPT_RCU rcu_read_lock is preempt_disable, inline: no calls. */
START_TEST (test_rcu_without_preempt_rcu)
{
  Rig r;

  rig_init (&r, "CONFIG_PREEMPT_RCU", "n");
  ck_assert (!r.s.stack->preempt_rcu);
  run (&r, body_rcu_nesting);
  ck_assert_uint_eq (stack_rig_calls (&r.s, "__rcu_read_lock"), 0);
  ck_assert_uint_eq (stack_rig_calls (&r.s, "__rcu_read_unlock"), 0);
  rig_clear (&r);
}
END_TEST

/* __check_object_size of a heap object (of 100, 0 and 50 bytes) and of a stack one (8,
 * 0 and 16): copy_to_user and copy_from_user check only n > 0. */
static void
body_check_object_size (NsThread *t, gpointer data)
{
  Rig *r = data;

  ns_check_object_size (t, r->s.stack, r->lock, 100);
  ns_check_object_size (t, r->s.stack, r->lock, 0);
  ns_check_object_size (t, r->s.stack, r->lock, 50);
  ns_check_stack_object_size (t, r->s.stack, 8);
  ns_check_stack_object_size (t, r->s.stack, 0);
  ns_check_stack_object_size (t, r->s.stack, 16);
}

/* CONFIG_HARDENED_USERCOPY (the rig's default build has it) checks each copy of some
 * bytes: __check_object_size four times, each asking check_stack_object first (the heap
 * object is not on the stack; then check_heap_object); without it (check_object_size is
 * empty) and for no bytes, nothing. */
START_TEST (test_hardened_usercopy)
{
  Rig r;

  rig_init (&r, NULL, NULL);
  ck_assert (r.s.stack->usercopy);
  run (&r, body_check_object_size);
  ck_assert_uint_eq (stack_rig_calls (&r.s, "__check_object_size"), 4);
  ck_assert_uint_eq (stack_rig_calls (&r.s, "check_stack_object"), 4);
  rig_clear (&r);
  rig_init (&r, "CONFIG_HARDENED_USERCOPY", "n");
  ck_assert (!r.s.stack->usercopy);
  run (&r, body_check_object_size);
  ck_assert_uint_eq (stack_rig_calls (&r.s, "__check_object_size"), 0);
  ck_assert_uint_eq (stack_rig_calls (&r.s, "check_stack_object"), 0);
  rig_clear (&r);
}
END_TEST

/* One system call of kernel release version: the calls of x64_sys_call and the indirect
 * calls it made, and sys's call depth below the caller's (inside it the running function
 * is sys; after the exit the thread is back where it began). */
typedef struct {
  StackRig s;
  guint64  dispatches, icalls;
  guint    depth;
} DispatchRig;

static void
body_syscall_depth (NsThread *t, gpointer data)
{
  DispatchRig *r = data;
  guint depth = ns_thread_call_depth (t);

  ns_syscall_begin (t, r->s.stack, &fn_sys_test);
  ck_assert_ptr_eq (ns_thread_current_func (t), &fn_sys_test);
  r->depth = ns_thread_call_depth (t) - depth;
  ns_syscall_end (t, r->s.stack);
  ck_assert_uint_eq (ns_thread_call_depth (t), depth);
}

static void
syscall_of (DispatchRig *r, const char *version)
{
  memset (r, 0, sizeof *r);
  stack_rig_init (&r->s, version, NULL, NULL, NULL);
  stack_rig_run (&r->s, 0, body_syscall_depth, r);
  r->dispatches = stack_rig_calls (&r->s, "x64_sys_call");
  r->icalls = ns_machine_account_events (r->s.machine, NS_CAUSE_INDIRECT);
  ck_assert_uint_eq (stack_rig_calls (&r->s, "do_syscall_64"), 1);
  ck_assert_uint_eq (stack_rig_calls (&r->s, "__x64_sys_test"), 1);
  ck_assert_uint_eq (stack_rig_calls (&r->s, "syscall_exit_to_user_mode"), 1);
  stack_rig_clear (&r->s);
}

/* The dispatch follows the release: the table's indirect call (sys two frames down) before
 * the BHI series, x64_sys_call (sys entered by its tail jmp, three frames down: the model
 * keeps the frame the jmp replaced, returning from both at once) from it on. */
START_TEST (test_syscall_dispatch_by_release)
{
  const char *table[] = { "6.9.0-rc1", "6.9.0-rc3", "6.8.4", "6.7.12", "6.6.25", "6.1.84",
                          "6.2" };
  const char *tree[] = { "6.9.0-rc4", "6.9", "6.18.44", "6.8.5", "6.6.26", "6.1.85" };
  DispatchRig r;

  for (guint i = 0; i < G_N_ELEMENTS (table); i++) {
    syscall_of (&r, table[i]);
    ck_assert_msg (r.dispatches == 0 && r.icalls == 1 && r.depth == 2, "%s", table[i]);
  }
  for (guint i = 0; i < G_N_ELEMENTS (tree); i++) {
    syscall_of (&r, tree[i]);
    ck_assert_msg (r.dispatches == 1 && r.icalls == 0 && r.depth == 3, "%s", tree[i]);
  }
}
END_TEST

/* The memset body the stack's build runs on its CPU: from v6.4 __memset's own rep stosb
 * where the kernel marks the CPU FSRS, which it does to an AMD CPU with FSRM (init_amd,
 * e046fe5a36a9) though its CPUID does not enumerate FSRS (x86.fsrs false), and not to an
 * Intel CPU with FSRM alone; memset_erms before v6.4 whatever the CPU. The vendor comes to
 * the stack with the mitigations in force, as boot_cpu_data's. */
START_TEST (test_memset_path_by_vendor)
{
  static const struct {
    const char *version;
    guint features;
    gboolean fsrm;
    NsMemsetPath want;
  } cases[] = {
    { "6.9.0-rc1", NS_CPU_AMD, TRUE, NS_MEMSET_FSRS },
    { "6.9.0-rc1", NS_CPU_AMD, FALSE, NS_MEMSET_ORIG },
    { "6.9.0-rc1", NS_CPU_INTEL, TRUE, NS_MEMSET_ORIG },
    { "6.9.0-rc1", 0, TRUE, NS_MEMSET_ORIG },
    { "6.1.0", NS_CPU_AMD, TRUE, NS_MEMSET_ERMS },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    const char *const sets[] = { "x86.fsrm", cases[i].fsrm ? "true" : "false",
                                 "x86.fsrs", "false", NULL };
    NsMitigations mit = { 0 };
    StackRig s;

    mit.cpu_features = cases[i].features;
    stack_rig_init_with (&s, cases[i].version, stack_rig_params (sets), &mit);
    ck_assert_msg (s.stack->memset_path == cases[i].want, "case %u: path %d", i,
                   (int) s.stack->memset_path);
    stack_rig_clear (&s);
  }
}
END_TEST

/* An autobind's port lies in 32768-60999 (net.ipv4.ip_local_port_range's default); the
 * port to avoid is never returned: when a draw hits it, the next draw is taken. The
 * avoided port is made the first draw of the seed, so the redraw is exercised, whatever
 * the caller's draws before. */
START_TEST (test_ephemeral_port_skips_avoid)
{
  gsl_rng *probe = gsl_rng_alloc (gsl_rng_mt19937), *rng = gsl_rng_alloc (gsl_rng_mt19937);
  guint16 first, second;

  for (gulong seed = 1; seed <= 64; seed++) {
    gsl_rng_set (probe, seed);
    first = (guint16) (32768 + gsl_rng_uniform_int (probe, 60999 - 32768 + 1));
    second = (guint16) (32768 + gsl_rng_uniform_int (probe, 60999 - 32768 + 1));
    gsl_rng_set (rng, seed);
    ck_assert_uint_eq (ns_netstack_ephemeral_port (rng, 0), first);
    gsl_rng_set (rng, seed);
    ck_assert_uint_eq (ns_netstack_ephemeral_port (rng, first), second);
    ck_assert (second >= 32768 && second <= 60999);
  }
  gsl_rng_free (probe);
  gsl_rng_free (rng);
}
END_TEST

static Suite *
netstack_suite (void)
{
  Suite *s = suite_create ("netstack");
  TCase *tc = tcase_create ("core");

  tcase_add_test (tc, test_stack_defaults);
  tcase_add_test (tc, test_lo_layout_by_release);
  tcase_add_test (tc, test_socket_layout_by_release);
  tcase_add_test (tc, test_socket_init);
  tcase_add_test (tc, test_socket_slabs_per_cpu);
  tcase_add_test (tc, test_connect_route_reference);
  tcase_add_test (tc, test_lock_kinds);
  tcase_add_test (tc, test_unlock_bh_runs_softirq);
  tcase_add_test (tc, test_rcu_nesting);
  tcase_add_test (tc, test_rcu_without_preempt_rcu);
  tcase_add_test (tc, test_hardened_usercopy);
  tcase_add_test (tc, test_syscall_dispatch_by_release);
  tcase_add_test (tc, test_ephemeral_port_skips_avoid);
  tcase_add_test (tc, test_memset_path_by_vendor);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (netstack_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
