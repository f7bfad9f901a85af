/* netstack.c — building one machine's network stack: netns and UDP table, the loopback
 * device with its local routes and neighbours, per-CPU softnet_data and NET_RX softirq
 * contexts, and sockets with their struct socket / struct file (net/socket.c,
 * net/core/sock.c sock_init_data). Setup is control plane: it charges no cycles. */
#include "config.h"
#include <string.h>
#include "netstack.h"
#include "loopback.h"
#include "udp_rx.h"
#include "ip.h"

/* Kernel defaults (Documentation/admin-guide/sysctl/net.rst): net.core.rmem_default and
 * wmem_default are 212992 on x86-64 (SK_RMEM_MAX = 256 × (sizeof sk_buff-ish overhead)),
 * netdev_max_backlog 1000. */
#define RMEM_DEFAULT        212992u
#define WMEM_DEFAULT        212992u
#define NETDEV_MAX_BACKLOG  1000u
/* udp_table size: alloc_large_system_hash scale 21 caps at 65536 slots on machines with
 * 128 GiB or more (kernel-spec §1.1.2); the seed machine is a many-core server. */
#define UDP_HTABLE_ENTRIES  65536u
/* Fixed per-netns hash mix so runs are deterministic (random per netns in the kernel). */
#define NET_HASH_MIX        0x9e3779b9u

/* The loopback device: IFF_UP | IFF_LOOPBACK, MTU 65536 (v4.x+), features including
 * NETIF_F_HW_CSUM, SG and LLTX (drivers/net/loopback.c LOOPBACK_FEATURES), its ops
 * (ndo_start_xmit = loopback_xmit), one TX queue on the noqueue qdisc, an all-zero
 * hardware address. */
static struct net_device *
loopback_dev_new (NsNetStack *s)
{
  struct net_device *dev = ns_arena_alloc (s->arena, sizeof *dev, 64);
  struct net_device_ops *ops = ns_arena_alloc (s->arena, sizeof *ops, 64);
  struct Qdisc *noqueue = ns_arena_alloc (s->arena, sizeof *noqueue, 64);

  ops->ndo_start_xmit = &lo_fn_loopback_xmit;
  ops->start_xmit_impl = loopback_xmit;
  dev->netdev_ops = ops;
  dev->state = 1ul << __LINK_STATE_START;
  dev->real_num_tx_queues = dev->num_tx_queues = 1;
  dev->real_num_rx_queues = 1;
  dev->mtu = 65536;
  dev->flags = IFF_UP | IFF_LOOPBACK;
  dev->hard_header_len = 14;
  dev->features = NETIF_F_HW_CSUM | NETIF_F_SG | NETIF_F_LLTX;
  dev->ifindex = 1;
  dev->dev_addr = ns_arena_alloc (s->arena, 32, 8);   /* MAX_ADDR_LEN, zero for lo */
  dev->_tx = ns_arena_alloc (s->arena, sizeof (struct netdev_queue), 64);
  dev->_tx[0].dev = dev;
  dev->_tx[0].qdisc = dev->_tx[0].qdisc_sleeping = noqueue;   /* enqueue == NULL */
  dev->_tx[0].xmit_lock_owner = -1;
  dev->qdisc = noqueue;
  g_strlcpy (dev->name, "lo", sizeof dev->name);
  return dev;
}

/* A local output route via lo (RTN_LOCAL: dst.input = ip_local_deliver / ip6_input). */
static struct dst_entry *
local_route_new (NsNetStack *s, NsFunc *input, NsFunc *output)
{
  struct dst_entry *dst = ns_arena_alloc (s->arena, sizeof *dst, 64);

  dst->dev = s->lo;
  dst->input = input;
  dst->output = output;
  dst->obsolete = DST_OBSOLETE_FORCE_CHK;
  dst->__rcuref = 1;
  dst->rt_type = RTN_LOCAL;
  dst->rt_mtu = 65536;
  return dst;
}

/* lo's neighbour: NUD_NOARP with the hardware header cached after first use. */
static struct neighbour *
loopback_neigh_new (NsNetStack *s)
{
  struct neighbour *n = ns_arena_alloc (s->arena, sizeof *n, 64);

  n->dev = s->lo;
  n->nud_state = NUD_NOARP;
  n->hh_len = 14;
  return n;
}

/* Builds the stack; see netstack.h. */
NsNetStack *
ns_netstack_new (NsMachine *machine, NsEngine *engine, GError **error)
{
  NsNetStack *s;

  g_return_val_if_fail (machine != NULL && engine != NULL, NULL);
  s = g_new0 (NsNetStack, 1);
  s->machine = machine;
  s->engine = engine;
  s->arena = ns_machine_arena (machine);
  s->build = ns_machine_build (machine);
  s->n_cpus = ns_machine_n_cpus (machine);
  s->lsm = ns_build_config_on (s->build, "CONFIG_SECURITY");
  s->preempt = ns_build_config_on (s->build, "CONFIG_PREEMPTION");
  s->preempt_rcu = ns_build_config_on (s->build, "CONFIG_PREEMPT_RCU");
  s->usercopy = ns_build_config_on (s->build, "CONFIG_HARDENED_USERCOPY");
  s->irqtime = ns_build_config_on (s->build, "CONFIG_IRQ_TIME_ACCOUNTING");
  s->voluntary_preempt = ns_build_config_on (s->build, "CONFIG_PREEMPT_VOLUNTARY");
  s->debug_list = ns_build_config_on (s->build, "CONFIG_DEBUG_LIST");
  s->rmem_default = RMEM_DEFAULT;
  s->wmem_default = WMEM_DEFAULT;
  s->max_backlog = NETDEV_MAX_BACKLOG;
  s->net = ns_net_new (s->arena, NET_HASH_MIX, 1);
  s->udp_table = udp_table_new (s->arena, s->build, UDP_HTABLE_ENTRIES, error);
  if (s->udp_table == NULL)
    goto fail;
  s->alloc = ns_skb_alloc_new (machine);
  s->lo = loopback_dev_new (s);
  s->rt_lo4 = local_route_new (s, &ip_fn_ip_local_deliver, &ip_fn_ip_output);
  s->rt_lo6 = local_route_new (s, &ip_fn_ip6_input, &ip_fn_ip6_output);
  s->neigh_lo4 = loopback_neigh_new (s);
  s->neigh_lo6 = loopback_neigh_new (s);
  s->arp_hash = ns_arena_alloc (s->arena, 64, 64);
  s->ptype_base = ns_arena_alloc (s->arena, 128, 64);
  s->ptype_all = ns_arena_alloc (s->arena, 64, 64);
  s->ptype_all->next = s->ptype_all->prev = s->ptype_all;
  s->jiffies = ns_arena_alloc (s->arena, 64, 64);
  *s->jiffies = 4294937296u;       /* INITIAL_JIFFIES (-300 s), 64-bit view */
  s->inet_protos = ns_arena_alloc (s->arena, 64, 64);
  s->raw_hash = ns_arena_alloc (s->arena, 64, 64);
  s->udp_memory_allocated = ns_arena_alloc (s->arena, 64, 64);
  /* udp_init: 2^(ilog2(nr_cpu_ids) + 4) busylocks */
  s->udp_busylocks_log = g_bit_storage (s->n_cpus) - 1 + 4;
  s->udp_busylocks = ns_arena_alloc (s->arena, sizeof (NsSpinlock) << s->udp_busylocks_log, 64);
  s->sd = g_new0 (struct softnet_data *, s->n_cpus);
  s->napi_thread = g_new0 (NsThread *, s->n_cpus);
  s->task = g_new0 (gpointer, s->n_cpus);
  s->preempt_count = g_new0 (gint32 *, s->n_cpus);
  s->task_wq = g_new0 (NsWaitQueue *, s->n_cpus);
  for (guint c = 0; c < s->n_cpus; c++) {
    struct softnet_data *sd = ns_arena_alloc (s->arena, sizeof *sd, 64);
    sd->cpu = c;
    __skb_queue_head_init (&sd->process_queue);
    __skb_queue_head_init (&sd->input_pkt_queue);
    ns_spin_lock_init (&sd->input_pkt_queue.lock);
    sd->napi_weight = 64;         /* weight_p, net.core.dev_weight default 64 */
    sd->napi_poll = &lo_fn_process_backlog;
    s->sd[c] = sd;
    s->task[c] = ns_arena_alloc (s->arena, 64, 64);
    s->preempt_count[c] = ns_arena_alloc (s->arena, 64, 64);   /* pcpu_hot's line */
  }
  ns_loopback_core_init (s);
  return s;

fail:
  ns_netstack_free (s);
  return NULL;
}

/* Frees the host side of the stack (the arena goes with the machine). */
void
ns_netstack_free (NsNetStack *s)
{
  if (s == NULL)
    return;
  if (s->udp_table)
    udp_table_free (s->udp_table);
  ns_skb_alloc_free (s->alloc);
  g_free (s->sd);
  g_free (s->napi_thread);
  g_free (s->task);
  g_free (s->preempt_count);
  for (guint c = 0; s->task_wq && c < s->n_cpus; c++)
    if (s->task_wq[c])
      ns_wait_queue_free (s->task_wq[c]);
  g_free (s->task_wq);
  g_free (s);
}

/* Spawns cpu's NET_RX softirq context. */
void
ns_netstack_start_cpu (NsNetStack *s, guint cpu)
{
  g_autofree char *name = NULL;

  g_return_if_fail (s != NULL && cpu < s->n_cpus);
  if (s->napi_thread[cpu] != NULL)
    return;
  name = g_strdup_printf ("net_rx/%u", cpu);
  s->napi_thread[cpu] = ns_engine_spawn (s->engine, name, cpu, NS_THREAD_SOFTIRQ, 0,
                                         ns_net_rx_softirq_thread, s);
}

/* cpu's softnet_data. */
struct softnet_data *
ns_netstack_sd (NsNetStack *s, guint cpu)
{
  g_return_val_if_fail (s != NULL && cpu < s->n_cpus, NULL);
  return s->sd[cpu];
}

/* The task_struct line of the task running on cpu. */
gpointer
ns_netstack_task (NsNetStack *s, guint cpu)
{
  g_return_val_if_fail (s != NULL && cpu < s->n_cpus, NULL);
  return s->task[cpu];
}

/* The wait queue of the task on cpu. */
NsWaitQueue *
ns_netstack_task_wq (NsNetStack *s, guint cpu)
{
  g_return_val_if_fail (s != NULL && cpu < s->n_cpus, NULL);
  if (s->task_wq[cpu] == NULL)
    s->task_wq[cpu] = ns_wait_queue_new ();
  return s->task_wq[cpu];
}

/* socket(2) + sock_init_data + udp_init_sock for a UDP socket of family. */
struct file *
ns_netstack_socket (NsNetStack *s, gint family, gboolean nonblock)
{
  struct sock *sk;
  struct socket *sock;
  struct file *file;

  g_return_val_if_fail (s != NULL, NULL);
  sk = udp_sock_create (s->udp_table, s->net, family);
  g_return_val_if_fail (sk != NULL, NULL);
  sock = ns_arena_alloc (s->arena, sizeof *sock, 64);
  file = ns_arena_alloc (s->arena, sizeof *file, 64);
  sock->type = 2;               /* SOCK_DGRAM */
  sock->ops = GINT_TO_POINTER (family == AF_INET6 ? 6 : 4);
  sock->sk = sk;
  sock->file = file;
  ns_spin_lock_init (&sock->wq.lock);
  g_queue_init (&sock->waiters);
  file->f_op = sock;
  file->f_count = 1;
  file->f_flags = nonblock ? 04000 : 0;   /* O_NONBLOCK */
  file->private_data = sock;
  /* sock_init_data */
  __skb_queue_head_init (&sk->sk_receive_queue);
  ns_spin_lock_init (&sk->sk_receive_queue.lock);
  __skb_queue_head_init (&sk->sk_error_queue);
  __skb_queue_head_init (&sk->sk_write_queue);
  sk->sk_rcvbuf = (gint) s->rmem_default;
  sk->sk_sndbuf = (gint) s->wmem_default;
  sk->sk_wmem_alloc = 1;
  sk->sk_wq = &sock->wq;
  sk->sk_socket = sock;
  sk->sk_data_ready = &udp_fn_sock_def_readable;
  sk->sk_type = 2;
  sk->sk_protocol = 17;
  /* udp_init_sock / udp_lib_init_sock */
  __skb_queue_head_init (&udp_sk (sk)->reader_queue);
  ns_spin_lock_init (&udp_sk (sk)->reader_queue.lock);
  udp_sk (sk)->forward_threshold = sk->sk_rcvbuf >> 2;
  return file;
}

/* The struct socket behind a socket file. */
struct socket *
ns_file_socket (struct file *file)
{
  g_return_val_if_fail (file != NULL, NULL);
  return file->private_data;
}

/* The sock behind a socket file (NULL for a non-UDP control file). */
struct sock *
ns_file_sock (struct file *file)
{
  g_return_val_if_fail (file != NULL, NULL);
  return ((struct socket *) file->private_data)->sk;
}

/* connect(2) with the route and source the datagram connect leaves behind. */
gint
ns_netstack_connect (NsNetStack *s, struct file *file, const struct sockaddr *addr,
                     gint addr_len)
{
  struct sock *sk;
  gboolean v4;
  gint err;

  g_return_val_if_fail (s != NULL && file != NULL && addr != NULL, -22);
  sk = ns_file_sock (file);
  err = udp_sock_connect (sk, addr, addr_len, NULL);
  if (err != 0)
    return err;
  v4 = addr->sa_family == AF_INET ||
       (sk->sk_v6_daddr.u6_addr32[0] == 0 && sk->sk_v6_daddr.u6_addr32[1] == 0 &&
        sk->sk_v6_daddr.u6_addr32[2] == GUINT32_TO_BE (0xffff));
  sk->sk_dst_cache = v4 ? s->rt_lo4 : s->rt_lo6;
  ((struct dst_entry *) sk->sk_dst_cache)->__rcuref++;
  inet_sk (sk)->inet_saddr = sk->sk_rcv_saddr;
  inet_sk (sk)->inet_sport = GUINT16_TO_BE (sk->sk_num);
  return 0;
}

/* The iperf3 control connection as select sees it: a socket file with no UDP sock. */
struct file *
ns_netstack_ctrl_file (NsNetStack *s)
{
  struct socket *sock;
  struct file *file;

  g_return_val_if_fail (s != NULL, NULL);
  sock = ns_arena_alloc (s->arena, sizeof *sock, 64);
  file = ns_arena_alloc (s->arena, sizeof *file, 64);
  sock->type = 1;               /* SOCK_STREAM */
  sock->file = file;
  ns_spin_lock_init (&sock->wq.lock);
  g_queue_init (&sock->waiters);
  file->f_op = sock;
  file->f_count = 1;
  file->private_data = sock;
  return file;
}

/* close(2) of a socket file created by ns_netstack_socket. */
void
ns_netstack_close (NsNetStack *s, struct file *file)
{
  struct socket *sock;

  g_return_if_fail (s != NULL && file != NULL);
  sock = file->private_data;
  if (sock->sk != NULL)
    udp_sock_close (sock->sk);
  g_queue_clear (&sock->waiters);
  ns_arena_release (s->arena, sock, sizeof *sock);
  ns_arena_release (s->arena, file, sizeof *file);
}

/* One per-CPU counter increment (this_cpu_inc): a store to its line. */
void
ns_mib_inc (NsThread *t, guint64 *counter)
{
  ns_store (t, counter, sizeof *counter);
  (*counter)++;
}

/* ---- kernel primitives ---- */

/* Out-of-line spinlock entry points (kernel/locking/spinlock.c); text sizes estimated. */
static NS_FUNC (fn__raw_spin_lock, "_raw_spin_lock", 48, NS_FN_EXTERN, 1000);
static NS_FUNC (fn__raw_spin_lock_bh, "_raw_spin_lock_bh", 64, NS_FN_EXTERN, 1000);
static NS_FUNC (fn__raw_spin_lock_irq, "_raw_spin_lock_irq", 56, NS_FN_EXTERN, 1000);
static NS_FUNC (fn__raw_spin_lock_irqsave, "_raw_spin_lock_irqsave", 64, NS_FN_EXTERN, 1000);
static NS_FUNC (fn__raw_spin_unlock, "_raw_spin_unlock", 32, NS_FN_EXTERN, 1000);
static NS_FUNC (fn__raw_spin_unlock_bh, "_raw_spin_unlock_bh", 48, NS_FN_EXTERN, 1000);
static NS_FUNC (fn__raw_spin_unlock_irq, "_raw_spin_unlock_irq", 40, NS_FN_EXTERN, 1000);
static NS_FUNC (fn__raw_spin_unlock_irqrestore, "_raw_spin_unlock_irqrestore", 48,
                NS_FN_EXTERN, 1000);
static NS_FUNC (fn___rcu_read_lock, "__rcu_read_lock", 32, NS_FN_EXTERN, 1000);
static NS_FUNC (fn___rcu_read_unlock, "__rcu_read_unlock", 96, NS_FN_EXTERN, 1000);
/* Sizes: the Debian 6.1.176 binary's (nm -S). */
static NS_FUNC (fn___cond_resched, "__cond_resched", 49, NS_FN_EXTERN, 200);
static NS_FUNC (fn___list_add_valid, "__list_add_valid", 112, NS_FN_EXTERN, 400);
static NS_FUNC (fn___list_del_entry_valid, "__list_del_entry_valid", 144, NS_FN_EXTERN, 400);
static NS_FUNC (fn_do_syscall_64, "do_syscall_64", 300, NS_FN_EXTERN, 1);
static NS_FUNC (fn_syscall_exit_to_user_mode, "syscall_exit_to_user_mode", 420,
                NS_FN_EXTERN, 3);
static NS_FUNC (fn___fdget_pos, "__fdget_pos", 200, NS_FN_EXTERN, 10);
static NS_FUNC (fn_rw_verify_area, "rw_verify_area", 200, NS_FN_EXTERN, 20);
static NS_FUNC (fn_security_file_permission, "security_file_permission", 160,
                NS_FN_EXTERN, 10);
static NS_FUNC (fn_apparmor_file_permission, "apparmor_file_permission", 240,
                NS_FN_STATIC | NS_FN_INDIRECT, 1);

static NS_FUNC (fn___check_object_size, "__check_object_size", 500, NS_FN_EXTERN, 100);

static NsFunc *const lock_fns[] = {
  &fn__raw_spin_lock, &fn__raw_spin_lock_bh, &fn__raw_spin_lock_irq, &fn__raw_spin_lock_irqsave
};
static NsFunc *const unlock_fns[] = {
  &fn__raw_spin_unlock, &fn__raw_spin_unlock_bh, &fn__raw_spin_unlock_irq,
  &fn__raw_spin_unlock_irqrestore
};

/* TRUE unless the build's .config says key=n. */
gboolean
ns_build_config_on (NsBuild *build, const char *key)
{
  const char *v = build ? ns_build_get_config (build, key) : NULL;

  return v == NULL || g_strcmp0 (v, "n") != 0;
}

/* spin_lock{,_bh,_irq,_irqsave}: the out-of-line entry, preempt/bh/irq state, the
 * locked RMW (sync.h prices the line and any waiting). */
void
ns_raw_spin_lock (NsThread *t, NsNetStack *s, NsSpinlock *lock, NsLockKind kind)
{
  ns_call (t, lock_fns[kind]);
  /* estimate: ~6 instructions (preempt_count_add / local_bh_disable / cli or pushf;cli,
   * the cmpxchg fast path counted by ns_spin_lock) */
  ns_insns (t, 6);
  ns_spin_lock (t, lock);
  ns_ret (t);
}

/* spin_unlock{,_bh,_irq,_irqrestore}: release store, then preempt_enable /
 * local_bh_enable (which may run pending softirqs) / sti. Inlined without
 * CONFIG_PREEMPTION (INLINE_SPIN_UNLOCK*). */
void
ns_raw_spin_unlock (NsThread *t, NsNetStack *s, NsSpinlock *lock, NsLockKind kind)
{
  if (s->preempt)
    ns_call (t, unlock_fns[kind]);
  /* estimate: ~5 instructions (release store, preempt count, resched test) */
  ns_insns (t, 5);
  ns_spin_unlock (t, lock);
  if (kind == NS_LOCK_BH)
    __local_bh_enable_ip (t, &s->softirq);
  if (s->preempt)
    ns_ret (t);
}

/* __rcu_read_lock: preemptible RCU's out-of-line lock (a nesting counter in the task). */
void
ns___rcu_read_lock (NsThread *t)
{
  ns_call (t, &fn___rcu_read_lock);
  ns_insns (t, 4);                  /* census (doc/census/pktgen.md): the nesting count */
  ns_ret (t);
}

/* __rcu_read_unlock: the nesting counter and the special-state test. */
void
ns___rcu_read_unlock (NsThread *t)
{
  ns_call (t, &fn___rcu_read_unlock);
  /* census (doc/census/pktgen.md): 6 instructions (the nesting count, the special-state
   * test) */
  ns_insns (t, 6);
  ns_ret (t);
}

/* __cond_resched, called by might_resched() under voluntary preemption: nothing to do. */
void
ns___cond_resched (NsThread *t)
{
  ns_call (t, &fn___cond_resched);
  ns_insns (t, 4);                  /* census (doc/census/pktgen.md): should_resched is false */
  ns_ret (t);
}

/* might_resched(): a call to __cond_resched with CONFIG_PREEMPT_VOLUNTARY (the
 * preempt_dynamic "voluntary" default), nothing otherwise. */
void
ns_might_resched (NsThread *t, NsNetStack *s)
{
  if (s->voluntary_preempt)
    ns___cond_resched (t);
}

/* CONFIG_DEBUG_LIST's __list_add_valid: the two neighbour-pointer checks pass. */
void
ns___list_add_valid (NsThread *t, NsNetStack *s)
{
  if (!s->debug_list)
    return;
  ns_call (t, &fn___list_add_valid);
  /* census (doc/census/seed000/send.md): 16 instructions (18 less the return) */
  ns_insns (t, 16);
  ns_ret (t);
}

/* CONFIG_DEBUG_LIST's __list_del_entry_valid: the poison and neighbour checks pass. */
void
ns___list_del_entry_valid (NsThread *t, NsNetStack *s)
{
  if (!s->debug_list)
    return;
  ns_call (t, &fn___list_del_entry_valid);
  /* census (doc/census/seed000/send.md): 19 instructions (21 less the return) */
  ns_insns (t, 19);
  ns_ret (t);
}

/* rcu_read_lock: __rcu_read_lock with preemptible RCU, nothing without. */
void
ns_rcu_read_lock (NsThread *t, NsNetStack *s)
{
  if (s->preempt_rcu)
    ns___rcu_read_lock (t);
}

/* rcu_read_unlock: __rcu_read_unlock with preemptible RCU, nothing without. */
void
ns_rcu_read_unlock (NsThread *t, NsNetStack *s)
{
  if (s->preempt_rcu)
    ns___rcu_read_unlock (t);
}

/* SYSCALL → entry_SYSCALL_64 → do_syscall_64 → sys_call_table[nr] → sys. */
void
ns_syscall_begin (NsThread *t, NsNetStack *s, NsFunc *sys)
{
  ns_syscall_enter (t);
  ns_call (t, &fn_do_syscall_64);
  /* estimate: ~25 instructions (syscall_enter_from_user_mode work test, nr range check,
   * array_index_nospec) */
  ns_insns (t, 25);
  ns_icall (t, sys);
  /* estimate: ~6 instructions of the __x64_sys_* stub unpacking pt_regs */
  ns_insns (t, 6);
}

/* Back from sys: syscall_exit_to_user_mode, then SYSRET. */
void
ns_syscall_end (NsThread *t, NsNetStack *s)
{
  ns_ret (t);
  ns_call (t, &fn_syscall_exit_to_user_mode);
  /* estimate: ~30 instructions (exit work flags, rseq/signal/resched tests, user-mode
   * state, mitigation hooks that compile to nothing on this CPU) */
  ns_insns (t, 30);
  ns_ret (t);
  ns_ret (t);
  ns_syscall_exit (t);
}

/* __fdget_pos of a socket file in a single-threaded task. */
void
ns_fdget_pos (NsThread *t, struct file *file)
{
  ns_call (t, &fn___fdget_pos);
  /* estimate: ~20 instructions (files_struct, fdtable bounds, fd array load, f_mode
   * FMODE_PATH test, no atomic pos lock for sockets) */
  ns_insns (t, 20);
  NS_LOAD_FIELD (t, file, f_mode);
  ns_ret (t);
}

/* __check_object_size: not a stack object; check_heap_object for a slab object or a
 * large kmalloc folio (bounds against the folio); the text/rodata tests. */
void
ns_check_object_size (NsThread *t, NsNetStack *s, gconstpointer kaddr, gsize n)
{
  if (!s->usercopy || n == 0)
    return;
  ns_call (t, &fn___check_object_size);
  /* estimate: ~45 instructions (check_stack_object, virt_addr_valid, virt_to_folio,
   * folio_test_slab / large-folio bounds, check_kernel_text_object) */
  ns_insns (t, 45);
  ns_ret (t);
}

/* A security_* hook and, with an LSM, the module's hook (indirect). */
void
ns_security_hook (NsThread *t, NsNetStack *s, NsFunc *hook, NsFunc *lsm_fn, guint lsm_insns)
{
  ns_call (t, hook);
  /* estimate: ~10 instructions (call_int_hook's list walk set-up) */
  ns_insns (t, 10);
  if (s->lsm) {
    ns_icall (t, lsm_fn);
    ns_insns (t, lsm_insns);
    ns_ret (t);
  }
  ns_ret (t);
}

/* rw_verify_area → security_file_permission → apparmor_file_permission (unconfined
 * task: the label test returns at once) and fsnotify_perm (nothing to report). */
void
ns_rw_verify_area (NsThread *t, NsNetStack *s, struct file *file)
{
  ns_call (t, &fn_rw_verify_area);
  /* estimate: ~15 instructions (count and pos checks; no mandatory locks for sockets) */
  ns_insns (t, 15);
  NS_LOAD_FIELD (t, file, f_flags);
  /* estimate: ~30 instructions of apparmor_file_permission → common_file_perm for an
   * unconfined label */
  ns_security_hook (t, s, &fn_security_file_permission, &fn_apparmor_file_permission, 30);
  ns_ret (t);
}
