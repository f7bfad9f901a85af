/* netstack.c — building one machine's network stack: netns and UDP table, the loopback
 * device with its local routes and neighbours, per-CPU softnet_data and NET_RX softirq
 * contexts, and sockets with their struct socket / struct file (net/socket.c,
 * net/core/sock.c sock_init_data). Setup is control plane: it charges no cycles. */
#include "config.h"
#include <string.h>
#include "netstack.h"
#include "kchange.h"
#include "loopback.h"
#include "udp_rx.h"
#include "ip.h"
#include "memcontrol.h"

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

/* The loopback device, laid out as the build's release: IFF_UP | IFF_LOOPBACK, MTU 65536 (v4.x+), features including
 * NETIF_F_HW_CSUM, SG and LLTX (drivers/net/loopback.c LOOPBACK_FEATURES), its ops
 * (ndo_start_xmit = loopback_xmit), one TX queue on the noqueue qdisc, an all-zero
 * hardware address. */
static struct net_device *
loopback_dev_new (NsNetStack *s)
{
  struct net_device *dev =
    netdev_alloc (s->arena, netdev_layout_for_release (ns_build_version (s->build)));
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

/* Reads what the build configures and which kernel changes it has into s's flags. */
static void
read_build (NsNetStack *s)
{
  s->lsm = ns_build_config_on (s->build, "CONFIG_SECURITY");
  s->lsm_static_calls = ns_build_has_change (s->build, NS_KCHANGE_LSM_STATIC_CALLS);
  s->preempt = ns_build_config_on (s->build, "CONFIG_PREEMPTION");
  s->preempt_rcu = ns_build_config_on (s->build, "CONFIG_PREEMPT_RCU");
  s->usercopy = ns_build_config_on (s->build, "CONFIG_HARDENED_USERCOPY");
  s->irqtime = ns_build_config_on (s->build, "CONFIG_IRQ_TIME_ACCOUNTING");
  s->voluntary_preempt = ns_build_config_on (s->build, "CONFIG_PREEMPT_VOLUNTARY");
  s->debug_list = ns_build_config_on (s->build, "CONFIG_DEBUG_LIST");
  /* AppArmor, TOMOYO and BPF-LSM unless the build says =n (Debian's kernels build the
   * three and list them in CONFIG_LSM) */
  s->lsms = ns_build_config_on (s->build, "CONFIG_SECURITY_APPARMOR") ? 1u << NS_LSM_APPARMOR : 0;
  if (ns_build_config_on (s->build, "CONFIG_SECURITY_TOMOYO"))
    s->lsms |= 1u << NS_LSM_TOMOYO;
  if (ns_build_config_on (s->build, "CONFIG_BPF_LSM"))
    s->lsms |= 1u << NS_LSM_BPF;
  s->memcg = ns_build_config_on (s->build, "CONFIG_MEMCG");
  s->x64_sys_call = ns_build_has_change (s->build, NS_KCHANGE_X64_SYS_CALL);
  s->memset_path = ns_memset_path (s->build, ns_machine_params (s->machine),
                                   ns_machine_mitigations (s->machine)->cpu_features);
  s->copy_user_path = ns_copy_user_path (s->build, ns_machine_params (s->machine));
  s->mem_pcpu_reserve = ns_build_has_change (s->build, NS_KCHANGE_SK_MEMORY_PCPU_RESERVE);
  s->rmem_schedule = ns_build_has_change (s->build, NS_KCHANGE_UDP_RMEM_SCHEDULE);
  s->data_ready_wrapper = ns_build_has_change (s->build, NS_KCHANGE_UDP_DATA_READY_WRAPPER);
  s->skip_data_ready = ns_build_has_change (s->build, NS_KCHANGE_UDP_SKIP_DATA_READY);
  s->rmem_add_relaxed = ns_build_has_change (s->build, NS_KCHANGE_UDP_RMEM_ADD_RELAXED);
  s->rmem_admit_unsigned = ns_build_has_change (s->build, NS_KCHANGE_UDP_RMEM_WRAPAROUND_FIX);
  s->rmem_admit_empty_only =
      ns_build_has_change (s->build, NS_KCHANGE_UDP_RMEM_ADMIT_EMPTY_ONLY);
}

/* Allocates each CPU's softnet_data (its backlog queue and NAPI) and per-CPU lines. */
static void
softnet_init (NsNetStack *s)
{
  s->sd = g_new0 (struct softnet_data *, s->n_cpus);
  s->napi_thread = g_new0 (NsThread *, s->n_cpus);
  s->task = g_new0 (gpointer, s->n_cpus);
  s->task_frag = g_new0 (struct page_frag *, s->n_cpus);
  s->preempt_count = g_new0 (gint32 *, s->n_cpus);
  s->rcu_nesting = g_new0 (gint, s->n_cpus);
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
  read_build (s);
  s->rmem_default = RMEM_DEFAULT;
  s->wmem_default = WMEM_DEFAULT;
  s->max_backlog = NETDEV_MAX_BACKLOG;
  s->net = ns_net_new (s->arena, NET_HASH_MIX, 1);
  s->udp_table = udp_table_new (s->arena, s->build, UDP_HTABLE_ENTRIES, error);
  if (s->udp_table == NULL)
    goto fail;
  udp_table_use_slab_caches (s->udp_table, s->n_cpus,
                             ns_slab_freelist_random (s->build),
                             ns_machine_layout_key (machine, NS_LAYOUT_UDP_SOCK_CACHES));
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
  softnet_init (s);
  if (s->memcg) {
    s->task_memcg = ns_memcg_new (s->arena, NS_MEMCG_LEVELS);
    s->memcg_stock = ns_memcg_stocks_new (s->arena, s->n_cpus);
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
  g_free (s->task_frag);
  g_free (s->preempt_count);
  g_free (s->rcu_nesting);
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

/* current->task_frag of the task on cpu: the page its sendmsg calls fill (in simulated
 * memory from its first use, so runs that never send a paged datagram keep their arena
 * layout). */
struct page_frag *
ns_netstack_task_frag (NsNetStack *s, guint cpu)
{
  g_return_val_if_fail (s != NULL && cpu < s->n_cpus, NULL);
  if (s->task_frag[cpu] == NULL)
    s->task_frag[cpu] = ns_arena_alloc (s->arena, sizeof (struct page_frag), 64);
  return s->task_frag[cpu];
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

#define EPHEMERAL_LOW   32768          /* net.ipv4.ip_local_port_range's default */
#define EPHEMERAL_HIGH  60999

/* An ephemeral port other than avoid; see netstack.h. */
guint16
ns_netstack_ephemeral_port (gsl_rng *rng, guint16 avoid)
{
  guint16 port;

  g_return_val_if_fail (rng != NULL, EPHEMERAL_LOW);

  do
    port = (guint16) (EPHEMERAL_LOW +
                      gsl_rng_uniform_int (rng, EPHEMERAL_HIGH - EPHEMERAL_LOW + 1));
  while (port == avoid);
  return port;
}

/* socket(2) + sock_init_data + udp_init_sock for a UDP socket of family. */
struct file *
ns_netstack_socket (NsNetStack *s, gint family, gboolean nonblock)
{
  return ns_netstack_socket_on (s, family, nonblock, 0);
}

/* See netstack.h. */
struct file *
ns_netstack_socket_on (NsNetStack *s, gint family, gboolean nonblock, guint cpu)
{
  struct sock *sk;
  struct socket *sock;
  struct file *file;

  g_return_val_if_fail (s != NULL && cpu < s->n_cpus, NULL);
  sk = udp_sock_create_on (s->udp_table, s->net, family, cpu);
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
  sk->sk_allocation = GFP_KERNEL;
  sk->sk_use_task_frag = 1;
  sk->sk_wmem_alloc = 1;
  sk->sk_wq = &sock->wq;
  sk->sk_socket = sock;
  sk->sk_data_ready = &udp_fn_sock_def_readable;
  sk->sk_peek_off = -1;                /* no SO_PEEK_OFF */
  sk->sk_type = 2;
  sk->sk_protocol = 17;
  sk->sk_memcg = s->task_memcg;    /* mem_cgroup_sk_alloc: the creating task's memcg */
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

/* A socket file with no UDP sock, a TCP socket in the given socket state. */
static struct file *
tcp_file_new (NsNetStack *s, gint32 state)
{
  struct socket *sock;
  struct file *file;

  sock = ns_arena_alloc (s->arena, sizeof *sock, 64);
  file = ns_arena_alloc (s->arena, sizeof *file, 64);
  sock->state = state;
  sock->type = 1;               /* SOCK_STREAM */
  sock->file = file;
  ns_spin_lock_init (&sock->wq.lock);
  g_queue_init (&sock->waiters);
  file->f_op = sock;
  file->f_count = 1;
  file->private_data = sock;
  return file;
}

/* The iperf3 control connection as select sees it: an established TCP socket's file. */
struct file *
ns_netstack_ctrl_file (NsNetStack *s)
{
  g_return_val_if_fail (s != NULL, NULL);
  return tcp_file_new (s, SS_CONNECTED);
}

/* A listening TCP socket's file (its struct socket stays SS_UNCONNECTED). */
struct file *
ns_netstack_listen_file (NsNetStack *s)
{
  g_return_val_if_fail (s != NULL, NULL);
  return tcp_file_new (s, SS_UNCONNECTED);
}

/* close(2) of a socket file created by ns_netstack_socket; the sock's cached route goes
 * with it (inet_sock_destruct: dst_release of sk_dst_cache). */
void
ns_netstack_close (NsNetStack *s, struct file *file)
{
  struct socket *sock;

  g_return_if_fail (s != NULL && file != NULL);
  sock = file->private_data;
  if (sock->sk != NULL && sock->sk->sk_dst_cache != NULL) {
    ((struct dst_entry *) sock->sk->sk_dst_cache)->__rcuref--;
    sock->sk->sk_dst_cache = NULL;
  }
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

/* ---- kernel primitives ----
 *
 * Instruction counts: the census of the Debian 6.1.176 binary along seed 000's path
 * (doc/census/seed000/: syscall.md, select.md, send.md, recv.md, receive.md) as body
 * instructions, each function's total less its prologue, epilogue and return (the machine
 * charges each NS_FUNC's frame per call). Functions the binary enters by a tail jmp are
 * entered by one (ns_tail_call / ns_tail_next). Where v6.9-rc1 (the modelled kernel) is built differently, its shape
 * is kept and the comment says so; the counts stay the 6.1 census'. */

/* Text sizes here: the Debian 6.1.176 binary's (nm -S; doc/census/text-sizes-6.1.176.txt),
 * except the syscall entry and exit's (below).
 * Out-of-line spinlock entry points (kernel/locking/spinlock.c). */
static NS_FUNC (fn__raw_spin_lock, "_raw_spin_lock", 43, 1, NS_FN_EXTERN, 1000);
static NS_FUNC (fn__raw_spin_lock_bh, "_raw_spin_lock_bh", 47, 1, NS_FN_EXTERN, 1000);
static NS_FUNC (fn__raw_spin_lock_irq, "_raw_spin_lock_irq", 49, 1, NS_FN_EXTERN, 1000);
static NS_FUNC (fn__raw_spin_lock_irqsave, "_raw_spin_lock_irqsave", 67, 3, NS_FN_EXTERN, 1000);
static NS_FUNC (fn__raw_spin_unlock, "_raw_spin_unlock", 35, 1, NS_FN_EXTERN, 1000);
static NS_FUNC (fn__raw_spin_unlock_bh, "_raw_spin_unlock_bh", 25, 1, NS_FN_EXTERN, 1000);
static NS_FUNC (fn__raw_spin_unlock_irq, "_raw_spin_unlock_irq", 41, 1, NS_FN_EXTERN, 1000);
static NS_FUNC (fn__raw_spin_unlock_irqrestore, "_raw_spin_unlock_irqrestore", 49, 1,
                NS_FN_EXTERN, 1000);
static NS_FUNC (fn___rcu_read_lock, "__rcu_read_lock", 34, 1, NS_FN_EXTERN, 1000);
static NS_FUNC (fn___rcu_read_unlock, "__rcu_read_unlock", 43, 1, NS_FN_EXTERN, 1000);
static NS_FUNC (fn___cond_resched, "__cond_resched", 49, 1, NS_FN_EXTERN, 200);
static NS_FUNC (fn___get_task_ioprio, "__get_task_ioprio", 118, 1, NS_FN_EXTERN, 10);
static NS_FUNC (fn___list_add_valid, "__list_add_valid", 74, 0, NS_FN_EXTERN, 400);
static NS_FUNC (fn___list_del_entry_valid, "__list_del_entry_valid", 98, 0, NS_FN_EXTERN, 400);
/* arch/x86/entry/common.c, kernel/entry/common.c (v6.8+: syscall_enter_from_user_mode
 * and exit_to_user_mode_prepare are inline in include/linux/entry-common.h),
 * arch/x86/kernel/fpu/core.c, arch/x86/kernel/cpu/amd.c. The three syscall functions'
 * sizes: the Debian 6.12.111 binary's, which has the v6.8+ shape (6.1 calls the two out
 * of line; doc/census/text-sizes-kept.txt). */
static NS_FUNC (fn_do_syscall_64, "do_syscall_64", 369, 12, NS_FN_EXTERN | NS_FN_ENDBR, 1);
/* arch/x86/entry/syscall_64.c, v6.9-rc4+ (1e3ad78334a6): the switch over the syscall
 * numbers that replaced sys_call_table's indirect call (the 6.1.176 binary's copy). */
static NS_FUNC (fn_x64_sys_call, "x64_sys_call", 4766, 1, NS_FN_EXTERN, 1);
static NS_FUNC (fn_syscall_exit_to_user_mode, "syscall_exit_to_user_mode", 419, 7,
                NS_FN_EXTERN | NS_FN_ENDBR, 3);
static NS_FUNC (fn_syscall_exit_to_user_mode_prepare, "syscall_exit_to_user_mode_prepare",
                367, 7, NS_FN_STATIC | NS_FN_NOINLINE, 2);
static NS_FUNC (fn_fpregs_assert_state_consistent, "fpregs_assert_state_consistent", 66, 1,
                NS_FN_EXTERN, 4);
static NS_FUNC (fn_amd_clear_divider, "amd_clear_divider", 16, 0, NS_FN_EXTERN, 4);
/* fs/file.c, fs/read_write.c, security/security.c, security/apparmor, kernel/bpf/bpf_lsm.c,
 * mm/usercopy.c, mm/vmalloc.c, arch/x86/mm/physaddr.c. */
static NS_FUNC (fn___fdget_pos, "__fdget_pos", 108, 3, NS_FN_EXTERN, 10);
static NS_FUNC (fn___fget_light, "__fget_light", 256, 11, NS_FN_EXTERN, 10);
static NS_FUNC (fn_rw_verify_area, "rw_verify_area", 89, 1, NS_FN_EXTERN, 20);
static NS_FUNC (fn_security_file_permission, "security_file_permission", 84, 7,
                NS_FN_EXTERN, 10);
static NS_FUNC (fn_apparmor_file_permission, "apparmor_file_permission", 368, 13,
                NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_aa_file_perm, "aa_file_perm", 1237, 15, NS_FN_EXTERN, 10);
static NS_FUNC (fn_bpf_lsm_file_permission, "bpf_lsm_file_permission", 12, 1,
                NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_aa_sk_perm, "aa_sk_perm", 502, 13, NS_FN_EXTERN, 10);
static NS_FUNC (fn___check_object_size, "__check_object_size", 540, 9, NS_FN_EXTERN, 100);
static NS_FUNC (fn_check_stack_object, "check_stack_object", 78, 1,
                NS_FN_STATIC | NS_FN_NOINLINE, 1);
static NS_FUNC (fn_is_vmalloc_addr, "is_vmalloc_addr", 76, 1, NS_FN_EXTERN, 100);
static NS_FUNC (fn___virt_addr_valid, "__virt_addr_valid", 300, 1, NS_FN_EXTERN, 100);
/* kernel/sched/clock.c, arch/x86/kernel/tsc.c (6.1.176's sched_clock: a 5-B jmp). */
static NS_FUNC (fn_sched_clock_cpu, "sched_clock_cpu", 167, 4, NS_FN_EXTERN, 30);
static NS_FUNC (fn_sched_clock, "sched_clock", 5, 0, NS_FN_EXTERN, 50);
static NS_FUNC (fn_native_sched_clock, "native_sched_clock", 153, 3, NS_FN_EXTERN, 2);

static NsFunc *const lock_fns[] = {
  &fn__raw_spin_lock, &fn__raw_spin_lock_bh, &fn__raw_spin_lock_irq, &fn__raw_spin_lock_irqsave
};
static NsFunc *const unlock_fns[] = {
  &fn__raw_spin_unlock, &fn__raw_spin_unlock_bh, &fn__raw_spin_unlock_irq,
  &fn__raw_spin_unlock_irqrestore
};
/* census: _raw_spin_lock 8, _bh 8, _irq 10, _irqsave 17 instructions (P/E 3, 3, 3, 5):
 * preempt_count add (and cli, or pushf;pop;cli), the cmpxchg fast path; _bh's add is
 * local_bh_disable's one instruction */
static const guint lock_insns[] = { 5, 4, 7, 12 };
/* census: _raw_spin_unlock 7, _bh 6 (P/E 1: it tail-jumps to __local_bh_enable_ip),
 * _irq 9, _irqrestore 11 (P/E 3): the release store, sti, preempt_count dec and test */
static const guint unlock_insns[] = { 4, 5, 6, 8 };

/* An out-of-line function that calls nothing: the call, insns, the return. */
void
ns_leaf_call (NsThread *t, NsFunc *fn, guint insns)
{
  ns_call (t, fn);
  ns_insns (t, insns);
  ns_ret (t);
}

/* TRUE unless the build's .config says key=n (key read as a bool/tristate: a value
 * other than y, m or n is kept for the run to refuse). */
gboolean
ns_build_config_on (NsBuild *build, const char *key)
{
  return build == NULL || ns_build_config_tristate (build, key, NS_KCONFIG_Y) != NS_KCONFIG_N;
}

/* spin_lock{,_bh,_irq,_irqsave}: the out-of-line entry, preempt/bh/irq state (_bh:
 * __local_bh_disable_ip, which the unlock's __local_bh_enable_ip undoes), the locked RMW
 * (sync.h prices the line and any waiting). */
void
ns_raw_spin_lock (NsThread *t, NsNetStack *s, NsSpinlock *lock, NsLockKind kind)
{
  ns_call (t, lock_fns[kind]);
  if (kind == NS_LOCK_BH)
    local_bh_disable (t, &s->softirq);
  ns_insns (t, lock_insns[kind]);
  ns_spin_lock (t, lock);
  ns_ret (t);
}

/* spin_unlock{,_bh,_irq,_irqrestore}: release store, then preempt_enable /
 * local_bh_enable (which may run pending softirqs; _raw_spin_unlock_bh tail-jumps to
 * __local_bh_enable_ip) / sti. Inlined without CONFIG_PREEMPTION (INLINE_SPIN_UNLOCK*):
 * the same instructions (estimate) without the call. */
void
ns_raw_spin_unlock (NsThread *t, NsNetStack *s, NsSpinlock *lock, NsLockKind kind)
{
  if (s->preempt)
    ns_call (t, unlock_fns[kind]);
  ns_insns (t, unlock_insns[kind]);
  ns_spin_unlock (t, lock);
  if (kind == NS_LOCK_BH) {
    if (s->preempt)
      ns_tail_next (t);             /* _raw_spin_unlock_bh's jmp */
    __local_bh_enable_ip (t, &s->softirq);
  }
  if (s->preempt)
    ns_ret (t);
}

/* __rcu_read_lock: preemptible RCU's out-of-line lock (a nesting counter in the task). */
void
ns___rcu_read_lock (NsThread *t)
{
  /* census (doc/census/pktgen.md): 4 instructions, the nesting count */
  ns_leaf_call (t, &fn___rcu_read_lock, 4);
}

/* __rcu_read_unlock, outermost: the nesting counter and the special-state test. */
void
ns___rcu_read_unlock (NsThread *t)
{
  /* census (doc/census/pktgen.md, seed000/send.md): 6 instructions (9 less P/E 3) */
  ns_leaf_call (t, &fn___rcu_read_unlock, 6);
}

/* init_sync_kiocb's get_current_ioprio → __get_task_ioprio: no io_context, the task's
 * nice-derived default. */
void
ns___get_task_ioprio (NsThread *t)
{
  /* census (syscall.md): 25 instructions (28 less P/E 3) */
  ns_leaf_call (t, &fn___get_task_ioprio, 25);
}

/* __cond_resched, called by might_resched() under voluntary preemption: nothing to do. */
void
ns___cond_resched (NsThread *t)
{
  /* census (doc/census/pktgen.md): 4 instructions, should_resched is false */
  ns_leaf_call (t, &fn___cond_resched, 4);
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
  /* census (doc/census/seed000/send.md): 16 instructions (18 less the return) */
  ns_leaf_call (t, &fn___list_add_valid, 16);
}

/* CONFIG_DEBUG_LIST's __list_del_entry_valid: the poison and neighbour checks pass. */
void
ns___list_del_entry_valid (NsThread *t, NsNetStack *s)
{
  if (!s->debug_list)
    return;
  /* census (doc/census/seed000/send.md): 19 instructions (21 less the return) */
  ns_leaf_call (t, &fn___list_del_entry_valid, 19);
}

/* rcu_read_lock: __rcu_read_lock with preemptible RCU (the running task's nesting count
 * goes up), nothing without. */
void
ns_rcu_read_lock (NsThread *t, NsNetStack *s)
{
  if (!s->preempt_rcu)
    return;
  ns___rcu_read_lock (t);
  s->rcu_nesting[ns_thread_cpu (t)]++;
}

/* rcu_read_unlock: __rcu_read_unlock with preemptible RCU, nothing without. The outermost
 * unlock (1 → 0) also tests rcu_read_unlock_special; a nested one only decrements. */
void
ns_rcu_read_unlock (NsThread *t, NsNetStack *s)
{
  gint *nesting;

  if (!s->preempt_rcu)
    return;
  nesting = &s->rcu_nesting[ns_thread_cpu (t)];
  g_warn_if_fail (*nesting > 0);
  if (*nesting > 0)
    --*nesting;
  /* census (doc/census/seed000/receive.md, send.md): 9 instructions outermost, 6 nested
   * (P/E 3) */
  ns_leaf_call (t, &fn___rcu_read_unlock, *nesting == 0 ? 6 : 3);
}

/* SYSCALL → entry_SYSCALL_64 → do_syscall_64 → sys_call_table[nr] (or x64_sys_call, whose
 * compare path to sys's tail jmp runs dispatch_insns) → sys, whose stub has stub_insns. */
void
ns_syscall_begin_stub (NsThread *t, NsNetStack *s, NsFunc *sys, guint stub_insns,
                       guint dispatch_insns)
{
  ns_syscall_enter (t);
  /* entry_SYSCALL_64 to its call of do_syscall_64 (not a function: no P/E). census: 46
   * instructions (swapgs, stack switch, 21 pt_regs pushes, 13 register clears, the PTI and
   * IBRS jmps, the calls) less UNTRAIN_RET's call, which ns_syscall_enter prices with the
   * SRSO untraining sequence it calls (syscall.untrain_insns, its LFENCE and return) */
  ns_insns (t, 45);
  ns_call (t, &fn_do_syscall_64);
  /* census: 25 instructions of do_syscall_64 (32 less P/E 7: the kstack offset, the nr
   * range test, array_index_nospec, the calls) and 11 of syscall_enter_from_user_mode (17
   * less P/E 6: context tracking NOPs, sti, the SYSCALL_WORK test), inline in v6.8+, less
   * its call */
  ns_insns (t, 35);
  if (s->x64_sys_call) {
    /* v6.9-rc4+ and the stables of the BHI series: do_syscall_64 calls x64_sys_call, a
     * switch GCC compiles to a compare tree (no jump tables under retpolines), whose
     * path ends in a tail jmp to sys: dispatch_insns less its P/E (1, the ftrace site)
     * and the jmp, which the tail call charges */
    ns_call (t, &fn_x64_sys_call);
    ns_insns (t, dispatch_insns - 2);
    ns_tail_call (t, sys);
  } else {
    ns_insns (t, 1);                /* v6.9-rc1: sys_call_table[nr] for the indirect call */
    ns_icall (t, sys);
  }
  ns_insns (t, stub_insns);
}

/* The write/read stub: census (syscall.md): __x64_sys_write / __x64_sys_read are 5
 * instructions, P/E 1 (fentry; the tail jmp to ksys_* stays in the body). */
void
ns_syscall_begin (NsThread *t, NsNetStack *s, NsFunc *sys)
{
  /* census (syscall.md): x64_sys_call's path to write's and read's tail jmp, 25 */
  ns_syscall_begin_stub (t, s, sys, 4, 25);
}

/* Back from sys: syscall_exit_to_user_mode (exit_to_user_mode_prepare inline, v6.8+),
 * then SYSRET. */
void
ns_syscall_end (NsThread *t, NsNetStack *s)
{
  ns_ret (t);
  if (s->x64_sys_call)
    ns_ret (t);                     /* x64_sys_call's frame, left by its tail jmp: free */
  ns_call (t, &fn_syscall_exit_to_user_mode);
  /* census: syscall_exit_to_user_mode's 8 instructions (12 less P/E 4) and the inline
   * exit_to_user_mode_prepare's 26 (35 less P/E 9) less its call and the VMSCAPE test (4)
   * 6.9-rc1 does not have: 29 in all */
  ns_insns (t, 3);
  /* syscall_exit_to_user_mode_prepare: census 13 less P/E 7 (no SYSCALL_WORK_EXIT) */
  ns_leaf_call (t, &fn_syscall_exit_to_user_mode_prepare, 6);
  ns_insns (t, 15);                 /* cli, ti_work & EXIT_TO_USER_MODE_WORK == 0 */
  /* fpregs_assert_state_consistent (CONFIG_X86_DEBUG_FPU): census 15 less P/E 3 */
  ns_leaf_call (t, &fn_fpregs_assert_state_consistent, 12);
  ns_insns (t, 9);                  /* NEED_FPU_LOAD, TS_COMPAT, the kstack offset mix */
  /* amd_clear_divider, its DIV0 alternative a NOP on Zen 3: census 6 less P/E 2 */
  ns_leaf_call (t, &fn_amd_clear_divider, 4);
  ns_insns (t, 2);
  ns_ret (t);
  ns_ret (t);                       /* do_syscall_64 */
  /* entry_SYSCALL_64 after the call. census: 45 instructions (the SYSRET checks, 17 pops,
   * the trampoline stack, swapgs, the CLEAR_CPU_BUFFERS site, sysretq) */
  ns_insns (t, 45);
  ns_syscall_exit (t);
}

/* sched_clock_cpu → sched_clock → (the static-call trampoline's jmp) native_sched_clock:
 * a stable TSC read scaled to ns. v6.9's sched_clock wraps sched_clock_noinstr in
 * preempt_disable/enable_notrace where 6.1.176 tail-jumps; the count is 6.1's. */
void
ns_sched_clock_cpu (NsThread *t)
{
  ns_call (t, &fn_sched_clock_cpu);
  ns_insns (t, 5);                  /* census (receive.md): 11 less P/E 6 (clock stable) */
  ns_call (t, &fn_sched_clock);
  ns_insns (t, 2);                  /* census: 2, the two jmps */
  ns_call (t, &fn_native_sched_clock);
  ns_rdtsc (t);
  ns_insns (t, 25);                 /* census: 31 less P/E 5, the rdtsc; cyc2ns */
  ns_ret (t);
  ns_ret (t);
  ns_ret (t);
}

/* __fget_light of a single-threaded task: no RCU, no reference. */
void
ns___fget_light (NsThread *t, struct file *file)
{
  ns_call (t, &fn___fget_light);
  /* census: 22 instructions (35 less P/E 13: files->count == 1, the fdtable bound,
   * array_index_nospec, fd[fd], the FMODE_PATH test) */
  ns_insns (t, 22);
  NS_LOAD_FIELD (t, file, f_mode);
  ns_ret (t);
}

/* __fdget_pos of a socket file in a single-threaded task: __fget_light, no f_pos lock. */
void
ns_fdget_pos (NsThread *t, struct file *file)
{
  ns_call (t, &fn___fdget_pos);
  /* census: 8 instructions (13 less P/E 5: __fdget inlined, the call, FMODE_ATOMIC_POS
   * clear) */
  ns_insns (t, 3);
  ns___fget_light (t, file);
  ns_insns (t, 5);
  ns_ret (t);
}

/* __check_object_size's calls for a heap object: not on the stack, not vmalloc, a valid
 * direct-map address. */
static void
check_heap_object_calls (NsThread *t)
{
  ns_leaf_call (t, &fn_check_stack_object, 7);        /* census: 10 less P/E 3 (NOT_STACK) */
  /* check_heap_object, inline: is_kmap_addr (no highmem) */
  ns_insns (t, 6);
  /* census: is_vmalloc_addr 7 less P/E 3 (below vmalloc_base), __virt_addr_valid 49
   * less P/E 3 (direct map, pfn_valid) */
  ns_leaf_call (t, &fn_is_vmalloc_addr, 4);
  ns_insns (t, 2);
  ns_leaf_call (t, &fn___virt_addr_valid, 46);
}

/* __check_object_size of a heap object: check_stack_object (not on the stack), then
 * check_heap_object: a large kmalloc's folio (not slab), bounds against the folio; then
 * check_kernel_text_object. */
void
ns_check_object_size (NsThread *t, NsNetStack *s, gconstpointer kaddr, gsize n)
{
  if (!s->usercopy || n == 0)
    return;
  ns_call (t, &fn___check_object_size);
  /* census (send.md, recv.md): 85–87 instructions, P/E 11: 75 in the body — 8 before the
   * calls (bypass key NOP, n, check_bogus_address), 8 between them, 59 after
   * (virt_to_folio, not slab, the large-folio bound, check_kernel_text_object) */
  ns_insns (t, 8);
  check_heap_object_calls (t);
  ns_insns (t, 59);
  ns_ret (t);
}

/* __check_object_size of an object in the current stack frame: GOOD_STACK. */
void
ns_check_stack_object_size (NsThread *t, NsNetStack *s, gsize n)
{
  if (!s->usercopy || n == 0)
    return;
  ns_call (t, &fn___check_object_size);
  /* census (syscall.md): 29 instructions, P/E 11 */
  ns_insns (t, 8);
  ns_leaf_call (t, &fn_check_stack_object, 15);       /* census: 18 less P/E 3 (in the stack) */
  ns_insns (t, 10);
  ns_ret (t);
}

/* One LSM's hook h from security_<hook>: through the list's pointer (< 6.12) or its
 * static call (6.12+); FALSE if the LSM's slot is off (BPF-LSM with no program, 6.12+). */
static gboolean
lsm_hook_call (NsThread *t, NsNetStack *s, const NsLsmHookSite *site, const NsLsmHook *h)
{
  if (!s->lsm_static_calls) {
    ns_insns (t, site->step_insns);
    ns_icall (t, h->fn);
    return TRUE;
  }
  if (h->lsm == NS_LSM_BPF)
    return FALSE;
  ns_insns (t, site->call_insns);
  ns_call (t, h->fn);               /* the static call's site, patched to a direct call */
  return TRUE;
}

/* security_<hook>: call_int_hook over the hooks of the build's LSMs, each run whole. */
void
ns_security_call_hooks (NsThread *t, NsNetStack *s, const NsLsmHookSite *site,
                        const NsLsmHook *hooks, guint n_hooks)
{
  if (!s->lsm)
    return;
  ns_call (t, site->hook);
  ns_insns (t, s->lsm_static_calls ? site->slot_insns : site->insns);
  for (guint i = 0; i < n_hooks; i++) {
    if (!(s->lsms & (1u << hooks[i].lsm)) || !lsm_hook_call (t, s, site, &hooks[i]))
      continue;
    ns_insns (t, hooks[i].insns);
    if (hooks[i].body != NULL)
      hooks[i].body (t, s);
    ns_ret (t);
  }
  ns_ret (t);
}

/* aa_sk_perm (entered by the hook's tail jmp): might_sleep, then the task's label is
 * unconfined, so no check. */
void
ns_aa_sk_perm (NsThread *t, NsNetStack *s)
{
  ns_tail_call (t, &fn_aa_sk_perm);
  /* census (syscall.md): 26 instructions (41 less P/E 15) */
  ns_insns (t, 4);
  ns_might_resched (t, s);
  ns_insns (t, 22);
  ns_ret (t);
}

/* aa_file_perm for an unconfined label: under rcu_read_lock, the file's label, done. */
static void
aa_file_perm (NsThread *t, NsNetStack *s)
{
  ns_call (t, &fn_aa_file_perm);
  /* census (syscall.md): 21 instructions (38 less P/E 17) */
  ns_insns (t, 9);
  ns_rcu_read_lock (t, s);
  ns_insns (t, 12);
  ns_rcu_read_unlock (t, s);
  ns_ret (t);
}

/* security_file_permission's list: AppArmor's hook, then BPF-LSM's (no program: returns
 * 0). census (syscall.md): apparmor_file_permission 41 instructions, P/E 15 (not the
 * null dentry, label not stale, unchanged); bpf_lsm_file_permission 4, P/E 3. */
/* census: security_file_permission 35 instructions, P/E 9: 6 of its own and a loop step
 * of 10 per hook (its fsnotify_perm call moved to rw_verify_area in v6.8); 6.12.111: 2
 * argument saves, 11 slots, rc = 0; a block of 2 moves, the call, test, jump back */
static const NsLsmHookSite file_permission_site = {
  &fn_security_file_permission, 6, 10, 14, 4
};
static const NsLsmHook file_permission_hooks[] = {
  { NS_LSM_APPARMOR, &fn_apparmor_file_permission, 26, aa_file_perm },  /* common_file_perm */
  { NS_LSM_BPF, &fn_bpf_lsm_file_permission, 1, NULL },
};

/* rw_verify_area (count >= 0, ppos NULL for a stream) → security_file_permission; for a
 * read, v6.8+'s fsnotify_file_area_perm (inline) finds no watchers. */
void
ns_rw_verify_area_rw (NsThread *t, NsNetStack *s, struct file *file, gint read_write)
{
  ns_call (t, &fn_rw_verify_area);
  /* census (syscall.md): 11 instructions (12 less P/E 1; 6.1.176 tail-jumps to
   * security_file_permission, v6.9 calls it and then tests the result) */
  ns_insns (t, 11);
  NS_LOAD_FIELD (t, file, f_flags);
  ns_security_call_hooks (t, s, &file_permission_site, file_permission_hooks,
                          G_N_ELEMENTS (file_permission_hooks));
  if (read_write == NS_READ)
    /* estimate: 18 instructions, the census' fsnotify_perm.part.0 (24 less P/E 6: not
     * NONOTIFY, no connectors), inline here in v6.8+ */
    ns_insns (t, 18);
  ns_ret (t);
}

/* rw_verify_area of a write. */
void
ns_rw_verify_area (NsThread *t, NsNetStack *s, struct file *file)
{
  ns_rw_verify_area_rw (t, s, file, NS_WRITE);
}
