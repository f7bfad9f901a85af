/* netstack.h — the kernel objects a loopback UDP datagram meets besides skbs and socks:
 * the loopback net_device (struct net_device: netdevice.h), routes (dst_entry/rtable), neighbours with their cached
 * hardware header, per-CPU softnet_data with the backlog NAPI, struct socket / file /
 * socket_wq, and one simulated machine's network stack holding them (NsNetStack).
 *
 * Layouts are the v6.9 x86-64 ones where the field order matters for cache lines and
 * approximate elsewhere (marked [U]); every object is arena memory, 64-byte aligned, so
 * lines written on one CPU and read on another pay what coherence says. */
#pragma once
#include <glib.h>
#include <gsl/gsl_rng.h>
#include "machine.h"
#include "sync.h"
#include "skbuff.h"
#include "sock.h"
#include "udp.h"
#include "netdevice.h"
#include "memset.h"
#include "usercopy.h"

G_BEGIN_DECLS

/* ---- struct net_device: net/netdevice.h (one layout, kernel v6.9, shared with the tc
 * model) ---- */

/* ---- routes: struct dst_entry (v6.5+: __rcuref alone on the second line, "or
 * performance tanks badly") followed by the rtable / rt6_info part ---- */

#define DST_OBSOLETE_FORCE_CHK  (-1)
#define RTN_LOCAL               2

struct dst_entry {
  struct net_device *dev;          /*   0 */
  gpointer  ops;                   /*   8 */
  gulong    _metrics;              /*  16 */
  gulong    expires;               /*  24 */
  gpointer  xfrm;                  /*  32 */
  NsFunc   *input;                 /*  40: ip_local_deliver / ip6_input */
  NsFunc   *output;                /*  48: ip_output / ip6_output */
  guint16   flags;                 /*  56 */
  gint16    obsolete;              /*  58 */
  guint16   header_len;            /*  60 */
  guint16   trailer_len;           /*  62 */
  gint32    __rcuref;              /*  64 CL1 */
  gint32    __use;                 /*  68 */
  gulong    lastuse;               /*  72 */
  guint8    _rest[48];             /*  80: rcu_head, error, tracker, uncached list, lwt */
  /* struct rtable / rt6_info */
  gint32    rt_genid;              /* 128 */
  guint32   rt_flags;              /* 132 */
  guint16   rt_type;               /* 136 */
  guint8    rt_is_input;
  guint8    rt_uses_gateway;
  gint32    rt_iif;
  guint32   rt_mtu;
  guint32   _pad;
};
G_STATIC_ASSERT (G_STRUCT_OFFSET (struct dst_entry, input) == 40);
G_STATIC_ASSERT (G_STRUCT_OFFSET (struct dst_entry, __rcuref) == 64);

/* ---- struct neighbour with its hh_cache (the cached 14-byte Ethernet header) [U] ---- */

#define NUD_NOARP 0x40u

struct neighbour {
  struct neighbour *next;          /* CL0: hash chain, table, keys */
  gpointer  tbl;
  gpointer  dev;
  guint32   primary_key[4];
  guint8    nud_state;
  guint8    type;
  guint8    dead;
  guint8    _pad[21];
  guint32   hh_len __attribute__ ((aligned (64)));   /* CL1: struct hh_cache */
  guint32   hh_lock;               /* seqlock_t sequence */
  guint8    hh_data[32];
  gpointer  output;
};

/* ---- per-CPU softnet_data with the backlog napi_struct [R: v6.9 field order] ---- */

/* UDP_MIB_* (include/uapi/linux/snmp.h), in the kernel's order: the model keeps the first
 * eight words of struct udp_mib on one line (IGNOREDMULTI and MEMERRORS are never counted).
 * One array serves both families, where the kernel counts IPv6 in udpv6_statistics. */
enum {
  UDP_MIB_NUM,
  UDP_MIB_INDATAGRAMS,
  UDP_MIB_NOPORTS,
  UDP_MIB_INERRORS,
  UDP_MIB_OUTDATAGRAMS,
  UDP_MIB_RCVBUFERRORS,
  UDP_MIB_SNDBUFERRORS,
  UDP_MIB_CSUMERRORS,
  NS_UDP_MIB_SLOTS
};

/* The model's slots of the per-CPU IP statistics (ipstats_mib; the kernel's has ~38 words
 * over several lines, the model one line of six): IP_UPD_PO_STATS(IPSTATS_MIB_OUT) of each
 * family, IPSTATS_MIB_IN, IPSTATS_MIB_INDELIVERS and IPSTATS_MIB_OUTDISCARDS of both. */
enum {
  NS_IPSTATS_OUT,
  NS_IPSTATS6_OUT,
  NS_IPSTATS_IN,
  NS_IPSTATS_INDELIVERS,
  NS_IPSTATS_OUTDISCARDS,
  NS_IPSTATS_SLOTS = 6
};

struct softnet_data {
  /* CL0 */
  gpointer  poll_list[2];          /* list_head of NAPIs to poll */
  struct sk_buff_head process_queue;
  guint32   processed;
  guint32   time_squeeze;
  struct netdev_xmit xmit;         /* recursion, more, skip_txqueue */
  guint8    in_net_rx_action;
  guint8    _pad0[3];
  /* CL1 */
  guint32   input_queue_head __attribute__ ((aligned (64)));
  /* CL2: call_single_data_t csd */
  guint8    csd[32] __attribute__ ((aligned (64)));
  /* CL3 */
  guint32   cpu __attribute__ ((aligned (64)));
  guint32   input_queue_tail;
  struct sk_buff_head input_pkt_queue;
  guint8    _pad3[32];
  /* CL4: struct napi_struct backlog */
  gpointer  napi_poll_list[2] __attribute__ ((aligned (64)));
  gulong    napi_state;            /* NAPI_STATE_SCHED */
  gint      napi_weight;
  gint      napi_defer;
  gpointer  napi_poll;             /* model: NsFunc of process_backlog */
  guint8    _pad4[24];
  /* CL5: irq_stat.__softirq_pending and the per-CPU counters of this CPU */
  guint32   softirq_pending __attribute__ ((aligned (64)));
  guint32   _pad5;
  guint64   ip_mib[NS_IPSTATS_SLOTS];   /* the model's IPSTATS_MIB_* slots (per-CPU) */
  /* CL6 */
  guint64   udp_mib[NS_UDP_MIB_SLOTS] __attribute__ ((aligned (64)));   /* UDP_MIB_* */
  /* CL7 */
  guint64   lo_lstats[4] __attribute__ ((aligned (64)));  /* pcpu_lstats of lo */
  guint64   sk_memory_fw_alloc;    /* proto->per_cpu_fw_alloc of udp_prot */
};

/* ---- struct file, struct socket with its embedded socket_wq (v5.3+) ---- */

struct file {
  gpointer  f_lock_pad;            /* CL0 [U] */
  guint32   f_mode;
  guint32   f_flags;               /* O_NONBLOCK */
  gpointer  f_op;
  gint64    f_count;
  gpointer  private_data;          /* struct socket * */
  guint8    _rest[24];
};

/* An entry on a wait queue head: the kernel's wait_queue_entry, plus what the model needs
 * to deliver the wake-up (host side, in the head's queue). */
typedef enum {
  NS_WAKE_POLLWAKE,                /* select/poll: pollwake → __pollwake */
  NS_WAKE_RECEIVER                 /* __skb_wait_for_more_packets: receiver_wake_function */
} NsWakeFunc;

typedef struct _NsPollWqueues NsPollWqueues;

typedef struct {
  NsWakeFunc     func;
  guint32        key;              /* events the waiter wants (EPOLLIN...) */
  NsWaitQueue   *wq;               /* the sleeping thread's own queue */
  NsPollWqueues *pwq;              /* pollwake: the poll table (triggered flag) */
  gpointer       mem;              /* the entry in simulated memory (64 bytes) */
  gpointer       task;             /* the waiter's task_struct line */
} NsWaitEntry;

struct socket_wq {
  NsSpinlock lock;                 /* wait_queue_head_t: lock, head */
  guint32    _pad;
  gpointer   head[2];
  gpointer   fasync_list;
  gulong     flags;
  guint8     _rest[24];
};

/* socket_state (include/uapi/linux/net.h) */
#define SS_UNCONNECTED 1
#define SS_CONNECTED   3

struct socket {
  gint32    state;                 /* CL0 */
  gint16    type;
  guint16   _pad;
  gulong    flags;
  struct file *file;
  struct sock *sk;
  gpointer  ops;                   /* model: 4 = AF_INET ops, 6 = AF_INET6 ops */
  guint8    _rest[24];
  struct socket_wq wq __attribute__ ((aligned (64)));   /* CL1 */
  /* model: the host side of wq's list */
  GQueue    waiters;               /* NsWaitEntry* */
};

#define EPOLLIN      0x001u
#define EPOLLOUT     0x004u
#define EPOLLERR     0x008u
#define EPOLLRDNORM  0x040u
#define EPOLLWRNORM  0x100u
#define EPOLLWRBAND  0x200u

/* ---- the stack of one machine ---- */

typedef struct _NsNetStack NsNetStack;
struct mem_cgroup;
struct memcg_stock_pcp;

/* Per-run datagram counters (model bookkeeping, for metrics and conservation tests). */
typedef struct {
  guint64 sent;                    /* datagrams handed to ip_send_skb / ip6_send_skb */
  guint64 backlog_drops;           /* enqueue_to_backlog: dev down or over max_backlog */
  guint64 noport;                  /* no socket: UDP_MIB_NOPORTS */
  guint64 rcvbuf_drops;            /* __udp_enqueue_schedule_skb: RCVBUFERRORS */
  guint64 enqueued;                /* put on a socket's receive queue */
  guint64 data_ready_skipped;      /* enqueued without sk_data_ready (612b1c0dec5b) */
  guint64 received;                /* returned by recvmsg */
  guint64 received_bytes;          /* bytes copied to user by recvmsg */
} NsNetCounters;

struct _NsNetStack {
  NsMachine          *machine;
  NsEngine           *engine;
  NsArena            *arena;
  NsBuild            *build;
  guint               n_cpus;
  struct net         *net;
  struct udp_table   *udp_table;
  NsSkbAlloc         *alloc;
  struct net_device  *lo;
  struct dst_entry   *rt_lo4;      /* output route to 127.0.0.0/8 via lo (RTN_LOCAL) */
  struct dst_entry   *rt_lo6;      /* output route to ::1 via lo */
  struct neighbour   *neigh_lo4;
  struct neighbour   *neigh_lo6;
  gpointer            arp_hash;    /* the neighbour hash bucket line */
  gpointer            ptype_base;  /* ptype_base[] bucket of ETH_P_IP / ETH_P_IPV6 */
  struct list_head_ns *ptype_all;  /* the global ptype_all list head (empty: no taps) */
  guint64            *jiffies;     /* the global jiffies word */
  gboolean            egress_needed_key;   /* static key: no egress hook here */
  gint32            **preempt_count; /* per CPU: pcpu_hot.preempt_count */
  gint               *rcu_nesting; /* per CPU: current->rcu_read_lock_nesting of the task
                                      running there (softirqs run in its context) */
  SoftirqCtx          softirq;     /* bottom halves on this stack's per-CPU data */
  NetDevCore          dev_core;    /* what net/core/dev.c's transmit needs */
  gpointer            inet_protos; /* inet_protos[] / inet6_protos[] line */
  gpointer            raw_hash;    /* raw_v4_hashinfo / raw_v6_hashinfo bucket line */
  gint64             *udp_memory_allocated; /* udp_prot.memory_allocated (global), pages */
  NsSpinlock         *udp_busylocks; /* udp_init: 2^udp_busylocks_log spinlocks */
  guint               udp_busylocks_log;
  struct softnet_data **sd;        /* per CPU */
  NsThread          **napi_thread; /* per CPU: the NET_RX softirq context, or NULL */
  gpointer           *task;        /* per CPU: task_struct line of the thread running there */
  struct page_frag  **task_frag;   /* per CPU: that task's current->task_frag */
  NsWaitQueue       **task_wq;     /* per CPU: what that task sleeps on (created on demand) */
  gboolean            lsm;         /* an LSM (AppArmor) hooks file/socket operations */
  gboolean            lsm_static_calls; /* v6.12+: LSM hooks through static calls */
  guint               lsms;        /* 1 << NsLsm of each LSM on the hook lists */
  gboolean            memcg;       /* CONFIG_MEMCG: socket memory charged to the memcg */
  struct mem_cgroup  *task_memcg;  /* with CONFIG_MEMCG (else NULL): the simulated tasks'
                                      memcg, their sockets' sk_memcg, below its ancestors
                                      (memcontrol.h) */
  struct memcg_stock_pcp *memcg_stock; /* with CONFIG_MEMCG: per CPU, its charge stock */
  gboolean            preempt;     /* CONFIG_PREEMPTION: spin unlocks are calls */
  gboolean            preempt_rcu; /* CONFIG_PREEMPT_RCU: rcu_read_(un)lock are calls */
  gboolean            usercopy;    /* CONFIG_HARDENED_USERCOPY: __check_object_size */
  gboolean            irqtime;     /* CONFIG_IRQ_TIME_ACCOUNTING: irqtime_account_irq */
  gboolean            voluntary_preempt; /* CONFIG_PREEMPT_VOLUNTARY: might_resched calls */
  gboolean            debug_list;  /* CONFIG_DEBUG_LIST: list_add/list_del check calls */
  NsMemsetPath        memset_path;  /* the body __memset runs on this build and CPU */
  NsCopyUserPath      copy_user_path; /* the copy copy_user_generic runs on them */
  gboolean            x64_sys_call; /* syscalls dispatched by x64_sys_call's compare tree
                                       (1e3ad78334a6), not sys_call_table's indirect call */
  /* the receive path's switches by release (sim/kchange.h) */
  gboolean            mem_pcpu_reserve;   /* 3cd3399dd7a8: per-CPU memory_allocated reserve */
  gboolean            rmem_schedule;      /* fd9c31f83441: udp_rmem_schedule's shortfall */
  gboolean            data_ready_wrapper; /* 0558e1674598: sk_data_ready by INDIRECT_CALL_1 */
  gboolean            skip_data_ready;    /* 612b1c0dec5b, not yet reverted: no sk_data_ready
                                             for a datagram queued behind others */
  gboolean            rmem_add_relaxed;   /* 6a1f12dd85a8: no test after the charge */
  gboolean            rmem_admit_unsigned; /* 5a465a0da13e: the unsigned rmem + size test */
  gboolean            rmem_admit_empty_only; /* 9aaec660b5be: over sk_rcvbuf only when
                                                nothing is charged */
  guint               rmem_default;  /* net.core.rmem_default */
  guint               wmem_default;  /* net.core.wmem_default */
  guint               max_backlog;   /* net.core.netdev_max_backlog */
  NsNetCounters       counters;
};

/* Builds the stack on a machine: netns, UDP table (running the lookup of the machine's
 * build), loopback device, routes, neighbours, per-CPU softnet_data. Kernel .config facts
 * of the build (each "y" unless the scenario says otherwise, as in PREEMPT_DYNAMIC
 * distribution configs of v6.x): CONFIG_SECURITY (an LSM — AppArmor — hooks file and
 * socket operations), CONFIG_PREEMPTION, CONFIG_PREEMPT_RCU, CONFIG_HARDENED_USERCOPY,
 * CONFIG_IRQ_TIME_ACCOUNTING, CONFIG_PREEMPT_VOLUNTARY (Debian's preempt_dynamic default),
 * CONFIG_DEBUG_LIST (on in Debian's build), CONFIG_SECURITY_TOMOYO and CONFIG_BPF_LSM
 * (on Debian's LSM list after AppArmor), CONFIG_MEMCG (the task in a non-root memcg, as
 * under systemd: NS_MEMCG_LEVELS levels of page counters, every CPU's charge stock
 * empty). CONFIG_SLAB_FREELIST_RANDOM follows slab.h's one rule (on only where the
 * scenario says y; seed 000's do): the UDP socket caches' freelists shuffled from the
 * machine's layout key, a layout per repetition as per boot. NULL with an error for an
 * unsupported build. */
NsNetStack *ns_netstack_new        (NsMachine *machine, NsEngine *engine, GError **error);
/* TRUE unless the build's .config sets key to "n" (absent = "y"). */
gboolean    ns_build_config_on     (NsBuild *build, const char *key);

/* The out-of-line __rcu_read_lock / __rcu_read_unlock of preemptible RCU, for models that
 * know CONFIG_PREEMPT_RCU without a NsNetStack (the unlock is an outermost one). */
void        ns___rcu_read_lock     (NsThread *t);
void        ns___rcu_read_unlock   (NsThread *t);
/* __cond_resched with nothing to do (for models without a NsNetStack), and might_resched():
 * that call under CONFIG_PREEMPT_VOLUNTARY, nothing otherwise. */
void        ns___cond_resched      (NsThread *t);
/* __get_task_ioprio of a task without an io_context (init_sync_kiocb in read/write). */
void        ns___get_task_ioprio   (NsThread *t);
void        ns_might_resched       (NsThread *t, NsNetStack *s);
/* CONFIG_DEBUG_LIST's out-of-line checks of list_add / list_del (passing), nothing
 * without it. */
void        ns___list_add_valid    (NsThread *t, NsNetStack *s);
void        ns___list_del_entry_valid (NsThread *t, NsNetStack *s);
void        ns_netstack_free       (NsNetStack *stack);
/* Spawns the NET_RX softirq thread of cpu (idempotent). Loopback traffic sent from a CPU
 * needs it. */
void        ns_netstack_start_cpu  (NsNetStack *stack, guint cpu);
/* Per-CPU data of cpu. */
struct softnet_data *ns_netstack_sd (NsNetStack *stack, guint cpu);
/* The task_struct line of the simulated task on cpu (pi_lock, __state). */
gpointer    ns_netstack_task       (NsNetStack *stack, guint cpu);
/* current->task_frag of the task on cpu (sk_page_frag of a socket with sk_use_task_frag). */
struct page_frag *ns_netstack_task_frag (NsNetStack *stack, guint cpu);
/* The wait queue the simulated task on cpu sleeps on (one user task per CPU). */
NsWaitQueue *ns_netstack_task_wq   (NsNetStack *stack, guint cpu);

/* Creates a UDP socket of family (AF_INET / AF_INET6 dual-stack) with its struct socket
 * and struct file as socket(2) would, defaults from sock_init_data: sk_rcvbuf =
 * rmem_default, sk_sndbuf = wmem_default, sk_wq = &socket->wq, sk_data_ready =
 * sock_def_readable. nonblock sets O_NONBLOCK on the file. */
struct file *ns_netstack_socket    (NsNetStack *stack, gint family, gboolean nonblock);
/* The same, created by a thread on cpu: the sock comes from that CPU's slab. */
struct file *ns_netstack_socket_on (NsNetStack *stack, gint family, gboolean nonblock,
                                    guint cpu);
/* A port of net.ipv4.ip_local_port_range's default, 32768-60999, drawn from rng as an
 * autobind picks one, skipping avoid (a port the caller's set-up holds); draws again until
 * it differs. */
guint16       ns_netstack_ephemeral_port (gsl_rng *rng, guint16 avoid);
struct socket *ns_file_socket      (struct file *file);
struct sock *ns_file_sock          (struct file *file);
/* connect(2) of a UDP socket file (udp_sock_connect), and what ip4_datagram_connect /
 * ip6_datagram_connect leave in the socket for sending: the cached route (sk_dst_set of
 * lo's local route, one reference), inet_saddr and inet_sport. Returns 0 or -errno. */
gint        ns_netstack_connect    (NsNetStack *stack, struct file *file,
                                    const struct sockaddr *addr, gint addr_len);
/* A TCP control-connection file (iperf3's ctrl socket): only polled, never ready. */
struct file *ns_netstack_ctrl_file (NsNetStack *stack);
/* A TCP listener as select sees it (tcp_poll's TCP_LISTEN path, an empty accept queue). */
struct file *ns_netstack_listen_file (NsNetStack *stack);
/* Closes the socket (udp_sock_close) and frees the socket and file. */
void        ns_netstack_close      (NsNetStack *stack, struct file *file);

/* An out-of-line function that calls nothing: ns_call, insns body instructions, ns_ret. */
void        ns_leaf_call           (NsThread *t, NsFunc *fn, guint insns);
/* Model helpers for per-CPU counters: one store to the counter's line. */
void        ns_mib_inc             (NsThread *t, guint64 *counter);

/* ---- kernel primitives every path uses (kernel/locking/spinlock.c, kernel/rcu,
 * arch/x86/entry, fs/file.c, fs/read_write.c, security/security.c) ---- */

typedef enum {
  NS_LOCK_PLAIN,                   /* spin_lock / spin_unlock */
  NS_LOCK_BH,                      /* spin_lock_bh / spin_unlock_bh (→ local_bh_enable) */
  NS_LOCK_IRQ,                     /* spin_lock_irq / spin_unlock_irq */
  NS_LOCK_IRQSAVE                  /* spin_lock_irqsave / spin_unlock_irqrestore */
} NsLockKind;

/* _raw_spin_lock*: out of line on x86-64 (no ARCH_INLINE_SPIN_LOCK*); the unlocks are out
 * of line when the build has CONFIG_PREEMPTION (PREEMPT_DYNAMIC distro builds). */
void        ns_raw_spin_lock       (NsThread *t, NsNetStack *s, NsSpinlock *lock,
                                    NsLockKind kind);
void        ns_raw_spin_unlock     (NsThread *t, NsNetStack *s, NsSpinlock *lock,
                                    NsLockKind kind);
/* rcu_read_lock / rcu_read_unlock: calls to __rcu_read_lock / __rcu_read_unlock with
 * CONFIG_PREEMPT_RCU, nothing otherwise. The unlock costs what the nesting depth of the
 * task on the thread's CPU says: an outermost unlock tests rcu_read_unlock_special, a
 * nested one (e.g. the NET_RX softirq run inside ip_finish_output2's read section)
 * does not. */
void        ns_rcu_read_lock       (NsThread *t, NsNetStack *s);
void        ns_rcu_read_unlock     (NsThread *t, NsNetStack *s);
/* System call entry: SYSCALL entry costs, entry_SYSCALL_64, do_syscall_64,
 * sys_call_table[nr] (an indirect call before v6.9-rc4's x64_sys_call, which the stables
 * of the BHI series took too: 6.8.5, 6.6.26, 6.1.85), the __x64_sys_*
 * stub sys (the census' write/read stub: 3 argument loads and its tail jmp); and the way
 * back (syscall_exit_to_user_mode, SYSRET). */
void        ns_syscall_begin       (NsThread *t, NsNetStack *s, NsFunc *sys);
/* The same with a stub of stub_insns body instructions (e.g. __x64_sys_pselect6's), reached
 * in x64_sys_call's compare tree (where the build has it: NS_KCHANGE_X64_SYS_CALL) by a
 * path of dispatch_insns, its ftrace site and tail jmp included (census). */
void        ns_syscall_begin_stub  (NsThread *t, NsNetStack *s, NsFunc *sys, guint stub_insns,
                                    guint dispatch_insns);
void        ns_syscall_end         (NsThread *t, NsNetStack *s);
/* fdget_pos → __fdget_pos (single-threaded task: no reference taken; sockets have no
 * f_pos lock). */
void        ns_fdget_pos           (NsThread *t, struct file *file);
/* __fget_light of a single-threaded task (files->count == 1: no RCU, no reference), as
 * __fdget_pos and __fdget reach it. */
void        ns___fget_light        (NsThread *t, struct file *file);

/* sched_clock_cpu of a stable TSC clock (sched_clock → native_sched_clock). */
void        ns_sched_clock_cpu     (NsThread *t);

#define NS_READ  0
#define NS_WRITE 1
/* rw_verify_area(read_write, ...) → security_file_permission (the LSM hook list) and, for
 * a read, fsnotify_file_area_perm (no watchers). */
void        ns_rw_verify_area_rw   (NsThread *t, NsNetStack *s, struct file *file,
                                    gint read_write);
/* ns_rw_verify_area_rw (..., NS_WRITE). */
void        ns_rw_verify_area      (NsThread *t, NsNetStack *s, struct file *file);
/* check_copy_size → __check_object_size (CONFIG_HARDENED_USERCOPY): the kernel side of a
 * user copy of n bytes at a heap object (a large kmalloc's folio) is checked against the
 * object's bounds. */
void        ns_check_object_size   (NsThread *t, NsNetStack *s, gconstpointer kaddr, gsize n);
/* The same for an object on the task's stack (check_stack_object finds it: GOOD_STACK). */
void        ns_check_stack_object_size (NsThread *t, NsNetStack *s, gsize n);

/* The LSMs on the hook lists, in Debian's CONFIG_LSM order. */
typedef enum {
  NS_LSM_APPARMOR,
  NS_LSM_TOMOYO,
  NS_LSM_BPF
} NsLsm;

/* One LSM's function on a security hook list: called through the list (an indirect
 * call; from v6.12 its static call), insns body instructions, then body (NULL: nothing)
 * for what it calls. */
typedef struct {
  NsLsm    lsm;
  NsFunc  *fn;
  guint    insns;
  void   (*body) (NsThread *t, NsNetStack *s);
} NsLsmHook;

/* A security_<hook> function as the binaries count it (body instructions: less its P/E).
 * Until v6.12 call_int_hook walks the hook list: per LSM hook a loop step and an indirect
 * call (the 6.1.176 census). From v6.12 (417c5643cd67, "lsm: replace indirect LSM hook
 * calls with static calls") the hook runs MAX_LSM_COUNT static-call slots, each a NOP
 * unless an LSM's static key turns it into a jump to its block: the arguments, the
 * direct call the static call is patched to, the result's test and the jump back (the
 * 6.12.111 census: 11 slots with Debian's LSMs). */
typedef struct {
  NsFunc *hook;
  guint   insns;       /* < 6.12: its own instructions, the loop steps left out */
  guint   step_insns;  /* < 6.12: a loop step of the hook list, per LSM hook */
  guint   slot_insns;  /* 6.12+: its own with every slot a NOP (argument saves, slots, rc) */
  guint   call_insns;  /* 6.12+: an active slot's block less its call */
} NsLsmHookSite;

/* security_<hook>: the out-of-line site->hook, then each hook of an LSM the build has
 * (NsNetStack.lsms), through the list (< 6.12) or its static call (6.12+, where BPF-LSM's
 * slots stay off until a BPF program attaches: LSM_HOOK_INIT_RUNTIME). Nothing without
 * CONFIG_SECURITY (an inline stub returning 0). */
void        ns_security_call_hooks (NsThread *t, NsNetStack *s, const NsLsmHookSite *site,
                                    const NsLsmHook *hooks, guint n_hooks);
/* aa_sk_perm for an unconfined task (AppArmor's socket_sendmsg / socket_recvmsg hooks
 * tail-jump to it): might_sleep's __cond_resched, the unconfined label test. */
void        ns_aa_sk_perm          (NsThread *t, NsNetStack *s);

G_END_DECLS
