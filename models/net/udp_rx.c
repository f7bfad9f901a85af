/* udp_rx.c — the UDP receive path, v6.9 (kernel-spec.md §5; net/ipv4/udp.c,
 * net/ipv6/udp.c, net/core/sock.c, net/core/datagram.c, net/socket.c, fs/read_write.c).
 *
 * Softirq side (on the CPU that ran the loopback xmit):
 *   udp_rcv → __udp4_lib_rcv: header and length checks, udp4_csum_init (CHECKSUM_PARTIAL
 *   from loopback: nothing to verify), __udp4_lib_lookup (models/net/udp.c), then
 *   udp_unicast_rcv_skb (a call, as in the census) → udp_queue_rcv_skb → udp_queue_rcv_one_skb: xfrm
 *   policy test, sk_filter_trim_cap (security_sock_rcv_skb, no filter), pull the UDP header,
 *   ipv4_pktinfo_prepare (drops the dst reference), __udp_queue_rcv_skb (inlined: rxhash,
 *   napi id, sk_incoming_cpu of a connected socket; head state already released) →
 *   __udp_enqueue_schedule_skb (§5.2): the receive-buffer test (rmem > sk_rcvbuf → drop,
 *   counted; later releases' forms in rcvbuf_refuses), above half the buffer
 *   skb_condense and a busylock, the atomic add to sk_rmem_alloc, the receive-queue lock,
 *   forward allocation in pages (udp_rmem_schedule → __sk_mem_schedule →
 *   __sk_mem_raise_allocated with the per-CPU reserve of v6.x; before v6.4 the pages of
 *   the whole truesize), the tail append, and
 *   sk_data_ready (INDIRECT_CALL_1 → sock_def_readable: wake the sleepers).
 *   udpv6_rcv is the same through __udp6_lib_rcv / udpv6_queue_rcv_skb.
 * Process side (the reader's CPU):
 *   read → ksys_read → vfs_read → sock_read_iter (f_op->read_iter) → sock_recvmsg →
 *   inet_recvmsg / inet6_recvmsg → udp_recvmsg / udpv6_recvmsg → __skb_recv_udp (§5.4: the
 *   reader_queue under its lock, spliced from sk_receive_queue when empty, udp_rmem_release
 *   returning memory in chunks of forward_threshold = rcvbuf / 4) → copy_linear_skb →
 *   _copy_to_iter (the copy to user; a paged datagram's through skb_copy_datagram_iter,
 *   one copy per page fragment) → skb_consume_udp → __consume_stateless_skb (which puts
 *   the fragments' pages).
 * The skb fields each step touches are loaded or stored at their offsets, so the reader
 * pays coherence for the lines the softirq wrote (next/prev/dev_scratch in CL0; users,
 * head, end in CL3) and for the payload lines.
 *
 * Instruction counts: the census of the Debian 6.1.176 binary along seed 000's path, as
 * body instructions (each function's total less its prologue, epilogue and return, which
 * the machine charges per call): doc/census/seed000/receive.md sections D (the demux) and E
 * (the enqueue) and F's first step (sock_def_readable), syscall.md unit 3 (read() down to
 * inet_recvmsg) and recv.md (udp_recvmsg down to the free). Where one census count covers
 * several model steps the split between them is an estimate, the sum the census'. Functions
 * the binary enters by a tail jmp are entered by ns_tail_call (one return for both). Socket
 * memory is charged to a memcg (cgroup v2, the task in a non-root memcg: receive.md's
 * case, recv.md's "socket memcg on" variant; the charge and its per-CPU stock:
 * models/net/memcontrol.c) unless the build sets CONFIG_MEMCG=n. The IPv6 functions: doc/census/seed000/receive6.md (the
 * softirq side from udpv6_rcv to the enqueue, inet6_recvmsg and udpv6_recvmsg). Text
 * sizes: the Debian 6.1.176 binary's (nm -S; doc/census/text-sizes-6.1.176.txt), but
 * __udp_enqueue_schedule_skb's, the 6.12.111 binary's (doc/census/text-sizes-kept.txt). */
#include "config.h"
#include <errno.h>
#include "udp_rx.h"
#include "ip.h"
#include "select.h"
#include "iov_iter.h"
#include "memcontrol.h"

NS_FUNC (udp_fn_sock_def_readable, "sock_def_readable", 115, 3, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
NS_FUNC (udp_fn___udp_enqueue_schedule_skb, "__udp_enqueue_schedule_skb", 607, 12,
         NS_FN_EXTERN | NS_FN_ENDBR, 3);
NS_FUNC (udp_fn_udp_recvmsg, "udp_recvmsg", 1358, 15, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
NS_FUNC (udp_fn_udpv6_recvmsg, "udpv6_recvmsg", 1949, 16, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_udp_rcv, "udp_rcv", 22, 1, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn___udp4_lib_rcv, "__udp4_lib_rcv", 3114, 15, NS_FN_EXTERN, 2);
static NS_FUNC (fn_udpv6_rcv, "udpv6_rcv", 22, 1, NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn___udp6_lib_rcv, "__udp6_lib_rcv", 2592, 15, NS_FN_EXTERN, 2);
/* udp6_csum_init: exported from net/ipv6/ip6_checksum.c, so out of line (IPv4's
 * udp4_csum_init is inlined) */
static NS_FUNC (fn_udp6_csum_init, "udp6_csum_init", 732, 5, NS_FN_EXTERN, 2);
static NS_FUNC (fn_udp_unicast_rcv_skb, "udp_unicast_rcv_skb", 136, 1,
                NS_FN_STATIC | NS_FN_NOINLINE, 2);
static NS_FUNC (fn_udp6_unicast_rcv_skb, "udp6_unicast_rcv_skb", 150, 5,
                NS_FN_STATIC | NS_FN_NOINLINE, 2);
static NS_FUNC (fn_skb_pull_rcsum, "skb_pull_rcsum", 147, 3, NS_FN_EXTERN, 20);
static NS_FUNC (fn_bpf_lsm_socket_sock_rcv_skb, "bpf_lsm_socket_sock_rcv_skb", 12, 1,
                NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_sk_leave_memory_pressure, "sk_leave_memory_pressure", 72, 1,
                NS_FN_STATIC | NS_FN_NOINLINE, 3);
static NS_FUNC (fn_bpf_lsm_socket_recvmsg, "bpf_lsm_socket_recvmsg", 12, 1,
                NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_udp_queue_rcv_skb, "udp_queue_rcv_skb", 506, 7, NS_FN_STATIC, 3);
static NS_FUNC (fn_udp_queue_rcv_one_skb, "udp_queue_rcv_one_skb", 1391, 11, NS_FN_STATIC, 2);
static NS_FUNC (fn_udpv6_queue_rcv_skb, "udpv6_queue_rcv_skb", 514, 7, NS_FN_STATIC, 3);
static NS_FUNC (fn_udpv6_queue_rcv_one_skb, "udpv6_queue_rcv_one_skb", 1353, 9, NS_FN_STATIC, 2);
static NS_FUNC (fn_sk_filter_trim_cap, "sk_filter_trim_cap", 577, 15, NS_FN_EXTERN, 10);
static NS_FUNC (fn_security_sock_rcv_skb, "security_sock_rcv_skb", 76, 7, NS_FN_EXTERN, 5);
static NS_FUNC (fn_apparmor_socket_sock_rcv_skb, "apparmor_socket_sock_rcv_skb", 67, 1,
                NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_ipv4_pktinfo_prepare, "ipv4_pktinfo_prepare", 193, 5, NS_FN_EXTERN, 3);
static NS_FUNC (fn_skb_condense, "skb_condense", 116, 3, NS_FN_EXTERN, 3);
static NS_FUNC (fn___sk_mem_raise_allocated, "__sk_mem_raise_allocated", 1067, 15, NS_FN_EXTERN, 3);
static NS_FUNC (fn___sk_mem_schedule, "__sk_mem_schedule", 76, 5, NS_FN_EXTERN, 10);
static NS_FUNC (fn___sk_mem_reduce_allocated, "__sk_mem_reduce_allocated", 176, 3, NS_FN_EXTERN, 3);
static NS_FUNC (fn___x64_sys_read, "__x64_sys_read", 21, 1, NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_ksys_read, "ksys_read", 228, 11, NS_FN_EXTERN, 4);
static NS_FUNC (fn_vfs_read, "vfs_read", 780, 15, NS_FN_EXTERN, 20);
static NS_FUNC (fn_sock_read_iter, "sock_read_iter", 242, 5, NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_sock_recvmsg, "sock_recvmsg", 109, 7, NS_FN_EXTERN, 10);
static NS_FUNC (fn_security_socket_recvmsg, "security_socket_recvmsg", 96, 11, NS_FN_EXTERN, 2);
static NS_FUNC (fn_apparmor_socket_recvmsg, "apparmor_socket_recvmsg", 26, 1,
                NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_inet_recvmsg, "inet_recvmsg", 298, 7, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_inet6_recvmsg, "inet6_recvmsg", 298, 7, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn___skb_recv_udp, "__skb_recv_udp", 802, 15, NS_FN_EXTERN, 4);
static NS_FUNC (fn___skb_try_recv_from_queue, "__skb_try_recv_from_queue", 358, 11,
                NS_FN_EXTERN, 4);
static NS_FUNC (fn_udp_rmem_release, "udp_rmem_release", 320, 13, NS_FN_STATIC, 4);
static NS_FUNC (fn___skb_wait_for_more_packets, "__skb_wait_for_more_packets", 370, 15,
                NS_FN_EXTERN, 3);
/* the copy of a paged datagram (net/core/datagram.c) */
static NS_FUNC (fn_skb_copy_datagram_iter, "skb_copy_datagram_iter", 137, 9, NS_FN_EXTERN, 20);
static NS_FUNC (fn___skb_datagram_iter, "__skb_datagram_iter", 730, 15, NS_FN_STATIC, 3);
static NS_FUNC (fn_simple_copy_to_iter, "simple_copy_to_iter", 64, 7, NS_FN_STATIC, 3);
static NS_FUNC (fn_skb_consume_udp, "skb_consume_udp", 200, 5, NS_FN_EXTERN, 3);

#define SK_MEM_QUANTUM            4096

/* sk_mem_pages (include/net/sock.h): the pages that hold amt bytes, rounded up. */
static inline gint
sk_mem_pages (gint amt)
{
  return (amt + SK_MEM_QUANTUM - 1) / SK_MEM_QUANTUM;
}
/* SK_MEMORY_PCPU_RESERVE: the per-CPU forward-alloc cache of a proto, 1 MiB in pages
 * (net.core.mem_pcpu_rsv default, v6.0+). */
#define SK_MEMORY_PCPU_RESERVE    256

/* ---- softirq: enqueue ---- */

/* sk_memory_allocated_add: the per-CPU reserve, flushed to the global counter at
 * SK_MEMORY_PCPU_RESERVE pages (v6.0+); before v6.0 every call adds to the global counter
 * atomically (inline in its callers; its instructions are in theirs). */
static void
sk_memory_allocated_add (NsThread *t, NsNetStack *s, gint64 pages)
{
  struct softnet_data *sd = s->sd[ns_thread_cpu (t)];
  gint64 local;

  ns_insns (t, 6);                  /* census: part of the caller's count (estimate: 6) */
  if (!s->mem_pcpu_reserve) {
    ns_atomic (t, s->udp_memory_allocated);
    *s->udp_memory_allocated += pages;
    return;
  }
  ns_store (t, &sd->sk_memory_fw_alloc, 8);
  local = (gint64) sd->sk_memory_fw_alloc + pages;
  if (local >= SK_MEMORY_PCPU_RESERVE || local <= -SK_MEMORY_PCPU_RESERVE) {
    ns_atomic (t, s->udp_memory_allocated);
    *s->udp_memory_allocated += local;
    local = 0;
  }
  sd->sk_memory_fw_alloc = (guint64) local;
}

/* __sk_mem_raise_allocated(sk, size, amt, SK_MEM_RECV): under the udp_mem limits. */
static void
__sk_mem_raise_allocated (NsThread *t, NsNetStack *s, struct sock *sk, gint pages)
{
  gboolean memcg = s->memcg && sk->sk_memcg != NULL;   /* memcg_sockets_enabled_key */

  ns_call (t, &fn___sk_mem_raise_allocated);
  /* census: 63 less P/E 17 = 46 with the inline sk_memory_allocated_add's 6; 15 of it
   * the memcg charge's test and arguments (receive.md: memcg off −168 = 153 in the calls
   * + 15; the split: estimate) */
  ns_insns (t, memcg ? 25 + 15 : 25);
  sk_memory_allocated_add (t, s, pages);
  NS_LOAD_FIELD (t, sk, sk_memcg);
  if (memcg)
    mem_cgroup_charge_skmem (t, s, sk->sk_memcg, (guint) pages);
  ns_load (t, s->udp_memory_allocated, 8);
  ns_call (t, &fn_sk_leave_memory_pressure);
  ns_insns (t, 7);                  /* census: 10 less P/E 3 (UDP has no memory_pressure) */
  ns_ret (t);
  ns_ret (t);
}

/* __sk_mem_schedule(sk, size, SK_MEM_RECV) (net/core/sock.c, exported): the pages of size
 * onto sk_forward_alloc, then __sk_mem_raise_allocated (which the model never refuses: no
 * udp_mem limit is reached). The enqueue's path since v6.4 (udp_rmem_schedule). */
static void
__sk_mem_schedule (NsThread *t, NsNetStack *s, struct sock *sk, gint size)
{
  gint pages = sk_mem_pages (size);

  ns_call (t, &fn___sk_mem_schedule);
  ns_insns (t, 8);                  /* sk_mem_pages, the add, the call, the test: estimate */
  NS_LOAD_FIELD (t, sk, sk_forward_alloc);
  sk->sk_forward_alloc += pages * SK_MEM_QUANTUM;
  NS_STORE_FIELD (t, sk, sk_forward_alloc);
  __sk_mem_raise_allocated (t, s, sk, pages);
  ns_ret (t);
}

/* The enqueue's forward allocation for size bytes, under the receive-queue lock: from v6.4
 * udp_rmem_schedule (static, inlined; Jason Xing's "udp: introduce __sk_mem_schedule()
 * usage") raises only a positive shortfall, by the shortfall's pages, through
 * __sk_mem_schedule; before it, the enqueue raised the pages of the whole size whenever
 * size >= sk_forward_alloc (the 6.1 census binary's form). Then size is taken. */
static void
udp_rmem_schedule (NsThread *t, NsNetStack *s, struct sock *sk, gint size)
{
  ns_insns (t, 6);                     /* the forward_alloc test */
  NS_LOAD_FIELD (t, sk, sk_forward_alloc);
  if (s->rmem_schedule) {
    gint delta = size - sk->sk_forward_alloc;
    if (delta > 0) {
      ns_insns (t, 3);                 /* the arguments */
      __sk_mem_schedule (t, s, sk, delta);
    }
  } else if (size >= sk->sk_forward_alloc) {
    gint pages = sk_mem_pages (size);
    ns_insns (t, 6);                   /* sk_mem_pages, the call, the add */
    __sk_mem_raise_allocated (t, s, sk, pages);
    sk->sk_forward_alloc += pages * SK_MEM_QUANTUM;
  }
  sk->sk_forward_alloc -= size;
  NS_STORE_FIELD (t, sk, sk_forward_alloc);
}

/* __sk_mem_reduce_allocated(sk, pages). */
static void
__sk_mem_reduce_allocated (NsThread *t, NsNetStack *s, struct sock *sk, gint pages)
{
  gboolean memcg = s->memcg && sk->sk_memcg != NULL;   /* memcg_sockets_enabled_key */

  ns_call (t, &fn___sk_mem_reduce_allocated);
  /* census (recv.md): 21 less P/E 5 = 16 with the inline sk_memory_allocated_sub's 6;
   * +5 with a socket memcg (the "on" variant); no memory pressure */
  ns_insns (t, memcg ? 10 + 5 : 10);
  sk_memory_allocated_add (t, s, -pages);
  NS_LOAD_FIELD (t, sk, sk_memcg);
  if (memcg)
    mem_cgroup_uncharge_skmem (t, s, sk->sk_memcg, (guint) pages);
  ns_ret (t);
}

/* smp_mb(): a locked op on the stack; priced as an atomic on a line private to the CPU. */
static void
smp_mb (NsThread *t, NsNetStack *s)
{
  ns_atomic (t, s->sd[ns_thread_cpu (t)]->csd);
}

/* sock_def_readable: wake the sleepers of the socket's wait queue with EPOLLIN. */
static void
sock_def_readable (NsThread *t, NsNetStack *s, struct sock *sk)
{
  struct socket *sock = sk->sk_socket;

  if (s->data_ready_wrapper)
    ns_call (t, &udp_fn_sock_def_readable);   /* INDIRECT_CALL_1's direct call */
  else
    ns_icall (t, &udp_fn_sock_def_readable);  /* before v6.6: through sk_data_ready */
  /* census (receive.md F): 17 less P/E 3 without a sleeper (rcu, sk_wq, the barrier,
   * sk_wake_async's flags test); 20 with one (+3: the wake-up's arguments). The
   * rcu_read_unlock is a tail jmp in the binary. */
  ns_insns (t, 14);
  ns_rcu_read_lock (t, s);
  NS_LOAD_FIELD (t, sk, sk_wq);
  smp_mb (t, s);                       /* skwq_has_sleeper */
  ns_load (t, sock->wq.head, sizeof sock->wq.head);
  if (!g_queue_is_empty (&sock->waiters)) {
    ns_insns (t, 3);
    __wake_up_sync_key (t, s, sock, EPOLLIN | EPOLLRDNORM);
  }
  ns_load (t, &sock->wq.flags, 8);
  ns_tail_next (t);
  ns_rcu_read_unlock (t, s);
  ns_ret (t);
}

/* The enqueue's wake-up, after the receive queue's unlock: the SOCK_DEAD test, then
 * sk_data_ready (6.9's INDIRECT_CALL_1(sk->sk_data_ready, sock_def_readable, sk) from
 * 0558e1674598 compares and calls directly where 6.1 called through the pointer: +2,
 * estimate). With 612b1c0dec5b (v6.10 until its revert in v6.13-rc2 and 6.12.5) a datagram
 * queued behind others, on a socket with the default sk_data_ready and no peek offset, only
 * tests for an async waiter (sk_wake_async_rcu: SOCK_FASYNC in sk_flags); the tests: 6,
 * estimate (no binary of those releases at hand). */
static void
udp_data_ready (NsThread *t, NsNetStack *s, struct sock *sk, gboolean becomes_readable)
{
  ns_insns (t, s->data_ready_wrapper ? 8 + 2 : 8);
  NS_LOAD_FIELD (t, sk, sk_data_ready);
  if (s->skip_data_ready) {
    ns_insns (t, 6);
    /* becomes_readable || sk_data_ready != sock_def_readable || sk_peek_off >= 0, in
     * that order: the peek offset is read only when the first two fail */
    if (!becomes_readable && sk->sk_data_ready == &udp_fn_sock_def_readable) {
      NS_LOAD_FIELD (t, sk, sk_peek_off);
      if (sk->sk_peek_off < 0) {
        NS_LOAD_FIELD (t, sk, __sk_common.skc_flags);  /* sk_wake_async_rcu */
        s->counters.data_ready_skipped++;
        return;
      }
    }
  }
  sock_def_readable (t, s, sk);
}

/* The busylock of sk: udp_busylocks[hash_ptr(sk, log)] (one line holds 16 of them). */
static NsSpinlock *
busylock_of (NsNetStack *s, struct sock *sk, NsSpinlock *locks, guint log)
{
  guint64 addr = ns_arena_addr (s->arena, sk);

  return &locks[(addr * G_GUINT64_CONSTANT (0x61C8864680B583EB)) >> (64 - log)];
}

/* skb_condense (net/core/skbuff.c): a paged skb whose fragments do not fit the head's
 * tailroom is left alone (a datagram goes paged only from 15992 payload bytes, and a
 * paged head has at most 640 bytes, so the kernel's __pskb_pull_tail branch is never
 * taken here: a precondition); a linear one gets truesize recomputed from its end. */
static void
skb_condense (NsThread *t, struct sk_buff *skb)
{
  ns_call (t, &fn_skb_condense);
  if (skb->data_len != 0) {
    NS_LOAD_FIELD (t, skb, data_len);
    NS_LOAD_FIELD (t, skb, end);
    NS_LOAD_FIELD (t, skb, tail);
    /* estimate: 6 instructions (the data_len test, the tailroom compare, return) */
    ns_insns (t, 6);
    g_return_if_fail (skb->data_len > skb->end - skb->tail);
    ns_ret (t);
    return;
  }
  /* estimate: ~15 instructions (linear skb: truesize recomputed from the end offset) */
  ns_insns (t, 15);
  NS_LOAD_FIELD (t, skb, data_len);
  NS_LOAD_FIELD (t, skb, end);
  skb->truesize = SKB_TRUESIZE (skb->end);
  NS_STORE_FIELD (t, skb, truesize);
  ns_ret (t);
}

/* The receive-buffer test before the charge of a datagram of truesize size meeting rmem
 * charged bytes, by release: rmem > sk_rcvbuf (signed; a first datagram always gets in);
 * from 5a465a0da13e unsigned, on rmem + size: over sk_rcvbuf, a buffer above INT_MAX >> 1
 * drops, a smaller one drops when rmem > sk_rcvbuf, from 9aaec660b5be when anything is
 * charged at all. TRUE to drop. */
static gboolean
rcvbuf_refuses (const NsNetStack *s, gint rmem, gint rcvbuf, guint size)
{
  guint r = (guint) rmem, b = (guint) rcvbuf;

  if (!s->rmem_admit_unsigned)
    return rmem > rcvbuf;
  if (r + size <= b)
    return FALSE;
  if (b > (guint) (G_MAXINT >> 1))
    return TRUE;
  return s->rmem_admit_empty_only ? r != 0 : r > b;
}

/* __udp_enqueue_schedule_skb (kernel-spec §5.2). Returns 0, or -ENOMEM (rcvbuf) after
 * counting the drop in sk_drops. census: 102 less P/E 15 = 87 instructions on the path
 * with __sk_mem_raise_allocated (the split below: estimate). */
static gint
__udp_enqueue_schedule_skb (NsThread *t, NsNetStack *s, struct sock *sk, struct sk_buff *skb)
{
  struct sk_buff_head *list = &sk->sk_receive_queue;
  struct udp_dev_scratch *scratch = (struct udp_dev_scratch *) &skb->dev_scratch;
  NsSpinlock *busy = NULL;
  gint rmem, size, rc = 0;
  gboolean becomes_readable;

  ns_call (t, &udp_fn___udp_enqueue_schedule_skb);
  ns_insns (t, 15);                    /* rmem and rcvbuf reads, the two tests */
  NS_LOAD_FIELD (t, sk, sk_rmem_alloc);
  NS_LOAD_FIELD (t, sk, sk_rcvbuf);
  rmem = sk->sk_rmem_alloc;
  if (s->rmem_admit_unsigned)
    NS_LOAD_FIELD (t, skb, truesize);  /* size before the test (5a465a0da13e) */
  if (rcvbuf_refuses (s, rmem, sk->sk_rcvbuf, skb->truesize))
    goto drop;
  if (s->rmem_admit_unsigned ? (guint) rmem > ((guint) sk->sk_rcvbuf >> 1)
                             : rmem > (sk->sk_rcvbuf >> 1)) {
    skb_condense (t, skb);
    busy = busylock_of (s, sk, s->udp_busylocks, s->udp_busylocks_log);
    ns_raw_spin_lock (t, s, busy, NS_LOCK_PLAIN);
  }
  size = (gint) skb->truesize;
  NS_LOAD_FIELD (t, skb, truesize);
  ns_insns (t, 12);                    /* udp_set_dev_scratch */
  scratch->_tsize_state = skb->truesize | (skb_dst (skb) ? 0 : UDP_SKB_IS_STATELESS);
  scratch->len = (guint16) skb->len;
  scratch->is_linear = !skb_is_nonlinear (skb);
  scratch->csum_unnecessary = 1;
  NS_LOAD_FIELD (t, skb, len);
  NS_STORE_FIELD (t, skb, dev_scratch);
  ns_insns (t, 5);                     /* atomic_add_return, the rcvbuf test */
  ns_atomic (t, &sk->sk_rmem_alloc);
  sk->sk_rmem_alloc = (gint) ((guint) sk->sk_rmem_alloc + (guint) size);   /* atomic_t wraps */
  /* unsigned, as the kernel's rmem > (size + (unsigned int)sk->sk_rcvbuf) (since v5.5):
   * with SO_RCVBUFFORCE's largest buffer the int sum would overflow; from 6a1f12dd85a8
   * a plain atomic_add, no test */
  if (!s->rmem_add_relaxed &&
      (guint) sk->sk_rmem_alloc > (guint) size + (guint) sk->sk_rcvbuf) {
    ns_atomic (t, &sk->sk_rmem_alloc);
    sk->sk_rmem_alloc -= size;
    goto drop_busy;
  }
  ns_insns (t, 2);
  ns_raw_spin_lock (t, s, &list->lock, NS_LOCK_PLAIN);
  udp_rmem_schedule (t, s, sk, size);
  ns_insns (t, 20);                    /* sock_skb_set_dropcount (off), __skb_queue_tail */
  NS_LOAD_FIELD (t, sk, __sk_common.skc_flags);
  becomes_readable = list->qlen == 0;  /* 612b1c0dec5b's skb_queue_empty, in registers */
  __skb_queue_tail (list, skb);
  skb->sk = NULL;
  NS_STORE_FIELD (t, skb, next);
  ns_store (t, list, sizeof *list);
  if (list->qlen > 1)
    ns_store (t, skb->prev, 8);         /* the previous tail's next */
  ns_raw_spin_unlock (t, s, &list->lock, NS_LOCK_PLAIN);
  s->counters.enqueued++;
  udp_data_ready (t, s, sk, becomes_readable);
  ns_insns (t, 13);                    /* busylock_release's test, return */
  if (busy)
    ns_raw_spin_unlock (t, s, busy, NS_LOCK_PLAIN);
  ns_ret (t);
  return 0;

/* ERRORS */
drop_busy:
  if (busy)
    ns_raw_spin_unlock (t, s, busy, NS_LOCK_PLAIN);
drop:
  ns_atomic (t, &sk->sk_drops);
  sk->sk_drops++;
  rc = -ENOMEM;
  ns_ret (t);
  return rc;
}

/* security_sock_rcv_skb: AppArmor without secmark returns at once. census:
 * security_sock_rcv_skb 34 less P/E 9 (2 loop iterations), AppArmor's hook 8 less 3. */
static void
security_sock_rcv_skb (NsThread *t, NsNetStack *s)
{
  /* 25 less the two hooks' list steps (10 each, as the census counts them elsewhere);
   * 6.12.111: 2 argument saves, 11 slots, rc = 0; a block of 2 moves, the call, test,
   * jump back */
  static const NsLsmHookSite site = { &fn_security_sock_rcv_skb, 5, 10, 14, 4 };
  static const NsLsmHook hooks[] = {
    { NS_LSM_APPARMOR, &fn_apparmor_socket_sock_rcv_skb, 5, NULL },
    { NS_LSM_BPF, &fn_bpf_lsm_socket_sock_rcv_skb, 1, NULL },  /* census: a nop, 4 less P/E 3 */
  };

  ns_security_call_hooks (t, s, &site, hooks, G_N_ELEMENTS (hooks));
}

/* sk_filter_trim_cap: pfmemalloc test, cgroup BPF ingress key off, the LSM's
 * sock_rcv_skb hook, no socket filter attached. */
static void
sk_filter_trim_cap (NsThread *t, NsNetStack *s, struct sock *sk, struct sk_buff *skb)
{
  ns_call (t, &fn_sk_filter_trim_cap);
  ns_insns (t, 13);                 /* census: 42 less P/E 17 = 25 (split: estimate) */
  security_sock_rcv_skb (t, s);
  ns_insns (t, 12);
  ns_rcu_read_lock (t, s);
  NS_LOAD_FIELD (t, sk, sk_filter);
  ns_rcu_read_unlock (t, s);
  ns_ret (t);
}

/* skb_pull_rcsum(skb, sizeof(struct udphdr)) of udp_csum_pull_header: CHECKSUM_PARTIAL
 * with its start before the new data, so ip_summed becomes CHECKSUM_NONE. */
static void
skb_pull_rcsum (NsThread *t, struct sk_buff *skb)
{
  ns_call (t, &fn_skb_pull_rcsum);
  ns_insns (t, 26);                 /* census: 31 less P/E 5 */
  NS_LOAD_FIELD (t, skb, ip_summed);
  __skb_pull (skb, UDP_HLEN);
  NS_STORE_FIELD (t, skb, data);
  NS_STORE_FIELD (t, skb, len);
  ns_ret (t);
}

/* ipv4_pktinfo_prepare(sk, skb, true): no IP_PKTINFO (and for an AF_INET6 socket no
 * IPV6_RECVPKTINFO), so skb_dst_drop. */
static void
ipv4_pktinfo_prepare (NsThread *t, struct sock *sk, struct sk_buff *skb)
{
  ns_call (t, &fn_ipv4_pktinfo_prepare);
  /* census: 27 less P/E 7; +9 for an AF_INET6 socket (ipv6_sk_rxinfo) */
  ns_insns (t, sk->sk_family == AF_INET6 ? 20 + 9 : 20);
  NS_LOAD_FIELD (t, inet_sk (sk), inet_flags);
  if (sk->sk_family == AF_INET6)
    NS_LOAD_FIELD (t, inet_sk (sk), pinet6);
  dst_release (t, skb_dst (skb));
  skb->_skb_refdst = NULL;
  NS_STORE_FIELD (t, skb, _skb_refdst);
  ns_ret (t);
}

/* What __udp_queue_rcv_skb / __udpv6_queue_rcv_skb do before the enqueue (inlined:
 * static, one call site), and the enqueue with its error accounting. `insns`: the
 * caller's census count for this part (connected, so sock_rps_save_rxhash,
 * sk_mark_napi_id, sk_incoming_cpu_update, each a read and a write only on change, the
 * call and its result). */
static gint
queue_rcv (NsThread *t, NsNetStack *s, struct sock *sk, struct sk_buff *skb, gint insns)
{
  struct softnet_data *sd = s->sd[ns_thread_cpu (t)];
  gint cpu = (gint) ns_thread_cpu (t);

  ns_insns (t, insns);
  NS_LOAD_FIELD (t, sk, sk_daddr);
  NS_LOAD_FIELD (t, sk, sk_rxhash);
  NS_LOAD_FIELD (t, sk, sk_napi_id);
  NS_LOAD_FIELD (t, sk, sk_incoming_cpu);
  if (sk->sk_daddr || sk->sk_state == TCP_ESTABLISHED) {
    if (sk->sk_incoming_cpu != cpu) {
      sk->sk_incoming_cpu = cpu;
      NS_STORE_FIELD (t, sk, sk_incoming_cpu);
    }
  }
  if (__udp_enqueue_schedule_skb (t, s, sk, skb) < 0) {
    /* UDP_MIB_RCVBUFERRORS + UDP_MIB_INERRORS, kfree_skb_reason */
    ns_mib_inc (t, &sd->udp_mib[UDP_MIB_RCVBUFERRORS]);
    ns_mib_inc (t, &sd->udp_mib[UDP_MIB_INERRORS]);
    s->counters.rcvbuf_drops++;
    kfree_skb (t, s->alloc, skb);
    return -1;
  }
  return 0;
}

/* udp_queue_rcv_skb → udp_queue_rcv_one_skb (no GSO skb to segment), a tail jmp. */
static gint
udp_queue_rcv_skb (NsThread *t, NsNetStack *s, struct sock *sk, struct sk_buff *skb)
{
  gint rc;

  ns_call (t, &fn_udp_queue_rcv_skb);
  ns_insns (t, 10);                 /* census: 17 less P/E 7 (udp_unexpected_gso) */
  ns_load (t, skb_shinfo (skb), 8);
  ns_tail_call (t, &fn_udp_queue_rcv_one_skb);
  /* census: 81 less P/E 13 = 68 with __udp_queue_rcv_skb (queue_rcv's 38); here xfrm4
   * policy (default accept), nf_reset_ct, encap key off, UDP-Lite tests, prefetch, the
   * filter test and the three calls' arguments (split: estimate) */
  ns_insns (t, 20);
  ns_prefetch (t, &sk->sk_rmem_alloc);
  sk_filter_trim_cap (t, s, sk, skb);
  ns_insns (t, 4);
  skb_pull_rcsum (t, skb);
  ns_insns (t, 6);                  /* cscov adjust, pktinfo arguments */
  ipv4_pktinfo_prepare (t, sk, skb);
  /* census: 38 of udp_queue_rcv_one_skb's 68 (the split: estimate) */
  rc = queue_rcv (t, s, sk, skb, 38);
  ns_ret (t);
  ns_ret (t);
  return rc;
}

/* udpv6_queue_rcv_skb → udpv6_queue_rcv_one_skb (no GSO skb: a tail jmp), with
 * __udpv6_queue_rcv_skb inlined; the dst is dropped inline (skb_dst_drop → dst_release),
 * there is no IPv6 pktinfo step (IPv6 ancillary data is built at recvmsg). census
 * (receive6.md): udpv6_queue_rcv_skb 17, P/E 7; udpv6_queue_rcv_one_skb 84, P/E 11. */
static gint
udpv6_queue_rcv_skb (NsThread *t, NsNetStack *s, struct sock *sk, struct sk_buff *skb)
{
  gint rc;

  ns_call (t, &fn_udpv6_queue_rcv_skb);
  ns_insns (t, 10);                 /* census: 10 instructions (udp_unexpected_gso) */
  ns_load (t, skb_shinfo (skb), 8);
  ns_tail_call (t, &fn_udpv6_queue_rcv_one_skb);
  /* census: 31 instructions (xfrm6 policy: count 0, no secpath, default accept; nfct 0;
   * encap key; pcflag; prefetch; no filter; the call's arguments) */
  ns_insns (t, 31);
  ns_prefetch (t, &sk->sk_rmem_alloc);
  sk_filter_trim_cap (t, s, sk, skb);
  ns_insns (t, 8);                  /* census: 8 instructions (result, udp_csum_pull_header) */
  skb_pull_rcsum (t, skb);
  ns_insns (t, 8);                  /* census: 8 instructions (cscov adjust, skb_dst_drop) */
  dst_release (t, skb_dst (skb));
  skb->_skb_refdst = NULL;
  NS_STORE_FIELD (t, skb, _skb_refdst);
  NS_LOAD_FIELD (t, sk, sk_v6_daddr);
  rc = queue_rcv (t, s, sk, skb, 24);   /* census: 24 instructions */
  ns_insns (t, 2);                  /* census: 2 instructions (the result) */
  ns_ret (t);
  ns_ret (t);
  return rc;
}

/* udp_unicast_rcv_skb / udp6_unicast_rcv_skb: no checksum conversion (convert_csum 0),
 * then the queueing. */
static void
unicast_rcv_skb (NsThread *t, NsNetStack *s, struct sock *sk, struct sk_buff *skb,
                 gboolean v6)
{
  ns_call (t, v6 ? &fn_udp6_unicast_rcv_skb : &fn_udp_unicast_rcv_skb);
  /* census: 11 less P/E 3; udp6_unicast_rcv_skb 16 less P/E 7 (receive6.md) */
  ns_insns (t, v6 ? 9 : 8);
  NS_LOAD_FIELD (t, inet_sk (sk), inet_flags);
  if (v6)
    udpv6_queue_rcv_skb (t, s, sk, skb);
  else
    udp_queue_rcv_skb (t, s, sk, skb);
  ns_ret (t);
}

/* The socket lookup found nothing: UDP_MIB_NOPORTS (ICMP port unreachable is not
 * modelled), free the skb. */
static void
no_port (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  ns_mib_inc (t, &s->sd[ns_thread_cpu (t)]->udp_mib[UDP_MIB_NOPORTS]);
  s->counters.noport++;
  dst_release (t, skb_dst (skb));
  skb->_skb_refdst = NULL;
  kfree_skb (t, s->alloc, skb);
}

/* udp_rcv → __udp4_lib_rcv (a tail jmp). */
gint
udp_rcv (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  NsIphdr *iph;
  NsUdphdr *uh;
  struct sock *sk;

  g_return_val_if_fail (t != NULL && s != NULL && skb != NULL, -1);
  iph = (NsIphdr *) skb_network_header (skb);
  uh = (NsUdphdr *) skb->data;
  ns_call (t, &fn_udp_rcv);
  ns_insns (t, 3);                  /* census: 4 less P/E 1 */
  ns_tail_call (t, &fn___udp4_lib_rcv);
  /* census: 125 less P/E 17 = 108: pskb_may_pull, ulen tests, udp4_csum_init for
   * CHECKSUM_PARTIAL, skb_steal_sock (no early-demux socket: the loopback skb keeps its
   * dst), rt_flags, and 36 setting up the lookup (inet_iif, inet_sdif, the table); 8 after
   * it (the split: estimate) */
  ns_insns (t, 100);
  ns_load (t, uh, sizeof *uh);
  NS_LOAD_FIELD (t, skb, len);
  NS_LOAD_FIELD (t, skb, ip_summed);
  NS_LOAD_FIELD (t, skb, sk);
  NS_LOAD_FIELD (t, skb_dst (skb), rt_flags);
  sk = __udp4_lib_lookup (t, s->net, iph->saddr, uh->source, iph->daddr, uh->dest,
                          s->lo->ifindex, 0, s->udp_table, skb);
  ns_insns (t, 8);
  if (sk == NULL)
    no_port (t, s, skb);
  else
    unicast_rcv_skb (t, s, sk, skb, FALSE);
  ns_ret (t);
  ns_ret (t);
  return 0;
}

/* udpv6_rcv → __udp6_lib_rcv (a tail jmp): pskb_may_pull, ulen tests, udp6_csum_init (out
 * of line: CHECKSUM_PARTIAL, nothing to verify), skb_steal_sock (no early-demux socket),
 * not multicast, the lookup, then udp6_unicast_rcv_skb (a tail jmp, modelled as the call
 * it ends with). census (receive6.md): udpv6_rcv 4, P/E 1; __udp6_lib_rcv 93, P/E 15;
 * udp6_csum_init 38, P/E 7. */
gint
udpv6_rcv (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  NsIpv6hdr *ip6h;
  NsUdphdr *uh;
  struct sock *sk;

  g_return_val_if_fail (t != NULL && s != NULL && skb != NULL, -1);
  ip6h = (NsIpv6hdr *) skb_network_header (skb);
  uh = (NsUdphdr *) skb->data;
  ns_call (t, &fn_udpv6_rcv);
  ns_insns (t, 3);
  ns_tail_call (t, &fn___udp6_lib_rcv);
  ns_insns (t, 37);                 /* census: 37 instructions (may_pull, ulen, proto) */
  ns_load (t, uh, sizeof *uh);
  NS_LOAD_FIELD (t, skb, len);
  ns_call (t, &fn_udp6_csum_init);
  ns_insns (t, 31);                 /* census: 38 less P/E 7 */
  NS_LOAD_FIELD (t, skb, ip_summed);
  ns_ret (t);
  /* census: 32 instructions (skb_steal_sock, the multicast test, inet6_iif/sdif, the
   * lookup's arguments) */
  ns_insns (t, 32);
  ns_load (t, &ip6h->saddr, 32);
  NS_LOAD_FIELD (t, skb, sk);
  sk = __udp6_lib_lookup (t, s->net, &ip6h->saddr, uh->source, &ip6h->daddr, uh->dest,
                          s->lo->ifindex, 0, s->udp_table, skb);
  ns_insns (t, 9);                  /* census: 9 instructions (result, uh->check, tail jmp) */
  if (sk == NULL) {
    no_port (t, s, skb);
  } else {
    ns_tail_next (t);               /* jmp udp6_unicast_rcv_skb */
    unicast_rcv_skb (t, s, sk, skb, TRUE);
  }
  ns_ret (t);
  ns_ret (t);
  return 0;
}

/* ---- process side: dequeue ---- */

/* udp_rmem_release(sk, size, partial = 1, queue_lock_held): batch the release until
 * forward_threshold or an empty reader_queue, then return memory and splice. */
static void
udp_rmem_release (NsThread *t, NsNetStack *s, struct sock *sk, gint size, gboolean locked)
{
  struct udp_sock *up = udp_sk (sk);
  struct sk_buff_head *sk_queue = &sk->sk_receive_queue;
  gint amt;

  ns_call (t, &fn_udp_rmem_release);
  /* census (recv.md): 30 less P/E 15 when it returns early (deficit below the threshold,
   * reader_queue not empty) */
  ns_insns (t, 15);
  up->forward_deficit += size;
  size = up->forward_deficit;
  ns_store (t, &up->forward_deficit, 8);
  if (size < up->forward_threshold && !skb_queue_empty (&up->reader_queue))
    goto out;
  up->forward_deficit = 0;
  /* census: 55 less P/E 15 for the full release with the lock held (+25); 58 taking the
   * lock itself (+3) */
  ns_insns (t, locked ? 25 : 28);
  if (!locked)
    ns_raw_spin_lock (t, s, &sk_queue->lock, NS_LOCK_PLAIN);
  sk->sk_forward_alloc += size;
  amt = (sk->sk_forward_alloc - 1) & ~(SK_MEM_QUANTUM - 1);
  sk->sk_forward_alloc -= amt;
  NS_STORE_FIELD (t, sk, sk_forward_alloc);
  if (amt)
    __sk_mem_reduce_allocated (t, s, sk, amt / SK_MEM_QUANTUM);
  ns_atomic (t, &sk->sk_rmem_alloc);
  sk->sk_rmem_alloc = (gint) ((guint) sk->sk_rmem_alloc - (guint) size);   /* atomic_t wraps */
  skb_queue_splice_tail_init (sk_queue, &up->reader_queue);
  ns_store (t, sk_queue, 16);
  if (!locked)
    ns_raw_spin_unlock (t, s, &sk_queue->lock, NS_LOCK_PLAIN);
out:
  ns_ret (t);
}

/* __skb_try_recv_from_queue: take the head skb (no peek). */
static struct sk_buff *
try_recv_from_queue (NsThread *t, struct sk_buff_head *queue)
{
  struct sk_buff *skb;

  ns_call (t, &fn___skb_try_recv_from_queue);
  ns_insns (t, 13);                 /* census: 26 less P/E 13 on an empty queue */
  ns_load (t, queue, 16);
  skb = __skb_dequeue (queue);
  if (skb != NULL) {
    ns_insns (t, 9);                /* census: 35 with a datagram (__skb_unlink) */
    ns_load (t, &skb->next, 16);
    ns_store (t, queue, 16);
    if (queue->qlen > 0)
      ns_store (t, &queue->next->prev, 8);
  }
  ns_ret (t);
  return skb;
}

/* udp_skb_destructor / udp_skb_dtor_locked (inlined in __skb_recv_udp): release the
 * truesize kept in dev_scratch. */
static void
udp_skb_destructor (NsThread *t, NsNetStack *s, struct sock *sk, struct sk_buff *skb,
                    gboolean locked)
{
  struct udp_dev_scratch *scratch = (struct udp_dev_scratch *) &skb->dev_scratch;

  ns_insns (t, 12);                 /* prefetch, truesize mask, the call's arguments */
  NS_LOAD_FIELD (t, skb, dev_scratch);
  udp_rmem_release (t, s, sk, (gint) (scratch->_tsize_state & ~UDP_SKB_IS_STATELESS), locked);
}

/* __skb_wait_for_more_packets: prepare_to_wait_exclusive with receiver_wake_function,
 * sleep unless something arrived meanwhile, finish_wait. */
static void
wait_for_more_packets (NsThread *t, NsNetStack *s, struct sock *sk)
{
  struct socket *sock = sk->sk_socket;
  NsWaitQueue *wq = ns_netstack_task_wq (s, ns_thread_cpu (t));
  gpointer mem = ns_netstack_task (s, ns_thread_cpu (t));
  NsWaitEntry e = { NS_WAKE_RECEIVER, EPOLLIN, wq, NULL, mem, mem };

  ns_call (t, &fn___skb_wait_for_more_packets);
  /* estimate: ~30 instructions (prepare_to_wait_exclusive's state, error, shutdown and
   * queue tests) */
  ns_insns (t, 30);
  add_wait_queue (t, s, sock, &e);
  NS_LOAD_FIELD (t, sk, sk_receive_queue.prev);
  if (skb_queue_empty (&sk->sk_receive_queue)) {
    ns_wait_queue_wait (t, wq);
    ns_schedule_cost (t, s);
    ns_schedule_cost (t, s);
  }
  if (g_queue_find (&sock->waiters, &e))   /* finish_wait: still linked if not woken */
    remove_wait_queue (t, s, sock, &e);
  ns_ret (t);
}

/* __skb_recv_udp (kernel-spec §5.4). NULL and *err = -EAGAIN when nothing is queued on a
 * non-blocking socket. census (recv.md): 111 less P/E 17 = 94 splicing sk_receive_queue,
 * 79 less 17 = 62 taking the datagram from reader_queue (the split: estimate). */
static struct sk_buff *
__skb_recv_udp (NsThread *t, NsNetStack *s, struct sock *sk, gboolean nonblock, gint *err)
{
  struct sk_buff_head *sk_queue = &sk->sk_receive_queue;
  struct sk_buff_head *queue = &udp_sk (sk)->reader_queue;
  struct sk_buff *skb = NULL;

  ns_call (t, &fn___skb_recv_udp);
  ns_insns (t, 20);                    /* sock_rcvtimeo, sock_error, loop set-up */
  NS_LOAD_FIELD (t, sk, sk_err);
  for (;;) {
    ns_raw_spin_lock (t, s, &queue->lock, NS_LOCK_BH);
    skb = try_recv_from_queue (t, queue);
    if (skb != NULL) {
      ns_insns (t, 8);
      udp_skb_destructor (t, s, sk, skb, FALSE);
      ns_raw_spin_unlock (t, s, &queue->lock, NS_LOCK_BH);
      break;
    }
    NS_LOAD_FIELD (t, sk, sk_receive_queue.next);
    if (!skb_queue_empty (sk_queue)) {
      ns_insns (t, 40);                /* the queue test, skb_queue_splice_tail_init */
      ns_raw_spin_lock (t, s, &sk_queue->lock, NS_LOCK_PLAIN);
      skb_queue_splice_tail_init (sk_queue, queue);
      ns_store (t, sk_queue, 16);
      ns_store (t, queue, 16);
      skb = try_recv_from_queue (t, queue);
      if (skb != NULL)
        udp_skb_destructor (t, s, sk, skb, TRUE);
      ns_raw_spin_unlock (t, s, &sk_queue->lock, NS_LOCK_PLAIN);
      ns_raw_spin_unlock (t, s, &queue->lock, NS_LOCK_BH);
      if (skb != NULL)
        break;
      continue;
    }
    ns_raw_spin_unlock (t, s, &queue->lock, NS_LOCK_BH);
    /* busy_check: no busy polling (net.core.busy_read = 0) */
    ns_insns (t, 6);
    if (nonblock) {
      *err = -EAGAIN;
      break;
    }
    wait_for_more_packets (t, s, sk);
  }
  if (skb != NULL)
    ns_insns (t, 22);                  /* the unlock's arguments, return */
  ns_ret (t);
  return skb;
}

/* skb_consume_udp: skb_unref, head state (already released), __consume_stateless_skb (a
 * tail jmp). */
static void
skb_consume_udp (NsThread *t, NsNetStack *s, struct sock *sk, struct sk_buff *skb)
{
  ns_call (t, &fn_skb_consume_udp);
  /* census: 19 less P/E 5 (peek offset < 0, users == 1, the STATELESS bit) */
  ns_insns (t, 14);
  ns_load (t, &udp_sk (sk)->peeking_with_offset, 4);
  NS_LOAD_FIELD (t, skb, users);
  ns_tail_next (t);
  __consume_stateless_skb (t, s->alloc, skb);
  ns_ret (t);
}

/* simple_copy_to_iter (__skb_datagram_iter's cb, called directly by INDIRECT_CALL_1):
 * copy_to_iter — check_copy_size on the kernel address, _copy_to_iter. */
static void
simple_copy_to_iter (NsThread *t, NsNetStack *s, guchar *ubuf, gconstpointer from, gsize n)
{
  ns_call (t, &fn_simple_copy_to_iter);
  ns_insns (t, 4);                  /* estimate: the arguments */
  ns_check_object_size (t, s, from, n);
  ns_copy_to_iter (t, s->copy_user_path, ubuf, from, n);
  ns_insns (t, 2);                  /* estimate: return */
  ns_ret (t);
}

/* skb_copy_datagram_iter(skb, 0, to, len) → __skb_datagram_iter with simple_copy_to_iter:
 * the linear part (none left once the headers are pulled from a paged skb), then each
 * page fragment in one pass (no highmem on x86-64: kmap_local_page is page_address)
 * until len bytes are copied; no frag_list. */
static void
skb_copy_datagram_iter (NsThread *t, NsNetStack *s, struct sk_buff *skb, guchar *ubuf,
                        gsize len)
{
  struct skb_shared_info *shinfo = skb_shinfo (skb);
  gsize headlen = skb->len - skb->data_len;
  gsize copied = 0;

  ns_call (t, &fn_skb_copy_datagram_iter);
  ns_insns (t, 5);                  /* estimate: the arguments, the cb */
  ns_call (t, &fn___skb_datagram_iter);
  NS_LOAD_FIELD (t, skb, len);
  NS_LOAD_FIELD (t, skb, data_len);
  /* estimate: 16 instructions (skb_headlen, the linear copy test, the frag loop's start) */
  ns_insns (t, 16);
  if (headlen > 0) {
    gsize n = MIN (headlen, len);
    NS_LOAD_FIELD (t, skb, data);
    simple_copy_to_iter (t, s, ubuf, skb->data, n);
    copied = n;
  }
  NS_LOAD_FIELD (t, shinfo, nr_frags);
  for (guint i = 0; i < shinfo->nr_frags && copied < len; i++) {
    const skb_frag_t *frag = &shinfo->frags[i];
    gsize n = MIN ((gsize) frag->bv_len, len - copied);

    ns_load (t, frag, sizeof *frag);
    /* estimate: 14 instructions (end and copy, skb_frag_foreach_page's one pass,
     * page_address, the INDIRECT_CALL_1 compare, the short-copy test) */
    ns_insns (t, 14);
    simple_copy_to_iter (t, s, ubuf + copied,
                         ns_page_address (s->alloc, frag->bv_page) + frag->bv_offset, n);
    copied += n;
  }
  ns_insns (t, 6);                  /* estimate: the frag_list test, return 0 */
  ns_ret (t);
  ns_ret (t);
}

/* udp_recvmsg / udpv6_recvmsg: dequeue, copy to the user buffer, stats, consume.
 * census (recv.md): udp_recvmsg 135 less P/E 17 = 118 (the split: estimate); udpv6_recvmsg
 * (receive6.md) 168 less P/E 18 = 150 for an IPv6 datagram, 152 for an IPv4 one on the
 * AF_INET6 socket (the is_udp4 MIB choice and cmsg_flags test), each part counted. */
static gssize
udp_recvmsg (NsThread *t, NsNetStack *s, struct sock *sk, guchar *ubuf, gsize len,
             gboolean nonblock, gboolean v6)
{
  struct softnet_data *sd = s->sd[ns_thread_cpu (t)];
  struct udp_dev_scratch *scratch;
  struct sk_buff *skb;
  gint err = 0;
  gsize copied;

  ns_call (t, v6 ? &udp_fn_udpv6_recvmsg : &udp_fn_udp_recvmsg);
  /* MSG_ERRQUEUE, peek offset, stack protector; IPv6: the pinet6 load, the rxpmtu test
   * (census: 41) */
  ns_insns (t, v6 ? 41 : 30);
  skb = __skb_recv_udp (t, s, sk, nonblock, &err);
  if (skb == NULL)
    goto out;
  scratch = (struct udp_dev_scratch *) &skb->dev_scratch;
  copied = MIN (len, (gsize) scratch->len);
  /* ulen from the scratch (IPv6: the jumbogram test), truncation, is_udp4 and the MIB,
   * csum_unnecessary, is_linear → copy_linear_skb → copy_to_iter: check_copy_size
   * (census IPv6: 53) */
  ns_insns (t, v6 ? 53 : 30);
  NS_LOAD_FIELD (t, skb, protocol);
  if (scratch->is_linear) {
    NS_LOAD_FIELD (t, skb, data);
    ns_check_object_size (t, s, skb->data, copied);
    ns_insns (t, v6 ? 4 : 5);
    ns_copy_to_iter (t, s->copy_user_path, ubuf, skb->data, copied);
  } else {
    skb_copy_datagram_iter (t, s, skb, ubuf, copied);
  }
  /* UDP_MIB_INDATAGRAMS, sock_recv_cmsgs (no timestamps: 11), no msg_name for read(2),
   * GRO and cmsg flag tests (IPv6: np->rxopt.all, is_udp4, an IPv4 datagram's
   * cmsg_flags), MSG_TRUNC (census IPv6: 48, 50 for an IPv4 datagram) */
  ns_insns (t, !v6 ? 40 : skb->protocol == ETH_P_IPV6_BE ? 48 : 50);
  ns_mib_inc (t, &sd->udp_mib[UDP_MIB_INDATAGRAMS]);
  NS_LOAD_FIELD (t, sk, sk_tsflags);
  NS_LOAD_FIELD (t, inet_sk (sk), inet_flags);
  s->counters.received++;
  s->counters.received_bytes += copied;
  skb_consume_udp (t, s, sk, skb);
  ns_insns (t, v6 ? 4 : 13);        /* the result, stack protector (census IPv6: 4) */
  err = (gint) copied;
out:
  ns_ret (t);
  return err;
}

/* security_socket_recvmsg → apparmor_socket_recvmsg → aa_sk_perm. census:
 * security_socket_recvmsg 44 less P/E 13 (2 loop iterations), apparmor_socket_recvmsg 5
 * less 1. */
static void
security_socket_recvmsg (NsThread *t, NsNetStack *s)
{
  /* 31 less the two hooks' list steps (10 each); 6.12.111: 4 argument saves, 11 slots,
   * rc = 0; a block of 4 moves, the call, test, jump back */
  static const NsLsmHookSite site = { &fn_security_socket_recvmsg, 11, 10, 16, 6 };
  static const NsLsmHook hooks[] = {
    { NS_LSM_APPARMOR, &fn_apparmor_socket_recvmsg, 4, ns_aa_sk_perm },  /* its tail jmp */
    { NS_LSM_BPF, &fn_bpf_lsm_socket_recvmsg, 1, NULL },
  };

  ns_security_call_hooks (t, s, &site, hooks, G_N_ELEMENTS (hooks));
}

/* sock_recvmsg → security_socket_recvmsg, sock_recvmsg_nosec → inet(6)_recvmsg →
 * udp(v6)_recvmsg: one datagram into ubuf; returns its result. */
static gssize
sock_recvmsg (NsThread *t, NsNetStack *s, struct file *file, guchar *ubuf, gsize len)
{
  struct socket *sock = ns_file_socket (file);
  struct sock *sk = sock->sk;
  gboolean v6 = sk->sk_family == AF_INET6;
  gssize ret;

  ns_call (t, &fn_sock_recvmsg);
  ns_insns (t, 12);                 /* census: 26 less P/E 7 = 19 (split: estimate) */
  security_socket_recvmsg (t, s);
  /* INDIRECT_CALL_INET(sock->ops->recvmsg, inet6_recvmsg, inet_recvmsg): compares, then a
   * tail jmp; inet6_recvmsg is the first compare (receive6.md: 2 fewer) */
  ns_insns (t, v6 ? 5 : 7);
  NS_LOAD_FIELD (t, sock, ops);
  ns_tail_call (t, v6 ? &fn_inet6_recvmsg : &fn_inet_recvmsg);
  /* census: inet_recvmsg 35 less P/E 9 = 26 (rfs key off, INDIRECT_CALL_2 compares, then
   * msg_namelen; the split: estimate); inet6_recvmsg 34 less 9 = 25 (receive6.md: 18
   * before the call, 7 after) */
  ns_insns (t, 18);
  ret = udp_recvmsg (t, s, sk, ubuf, len, (file->f_flags & 04000) != 0, v6);
  ns_insns (t, v6 ? 7 : 8);
  ns_ret (t);   /* inet_recvmsg */
  ns_ret (t);   /* sock_recvmsg */
  return ret;
}

/* sock_read_iter (f_op->read_iter): MSG_DONTWAIT from O_NONBLOCK; an empty iterator
 * returns 0 before sock_recvmsg (v6.9 net/socket.c, "Match SYS5 behaviour": nothing
 * dequeued, never blocks); else sock_recvmsg and the iterator's copy-back. */
static gssize
sock_read_iter (NsThread *t, NsNetStack *s, struct file *file, guchar *ubuf, gsize len)
{
  gssize ret = 0;

  ns_icall (t, &fn_sock_read_iter);
  /* census: 55 less P/E 7 = 48: the msghdr (zeroed: rep stos of 13 quadwords),
   * O_NONBLOCK */
  ns_insns (t, 37);
  ns_rep_string (t, 13 * 8);
  NS_LOAD_FIELD (t, file, f_flags);
  if (len != 0) {                   /* if (!iov_iter_count(to)) return 0; */
    ret = sock_recvmsg (t, s, file, ubuf, len);
    ns_insns (t, 10);               /* the iterator's copy-back */
  }
  ns_ret (t);   /* sock_read_iter */
  return ret;
}

/* read(2) on a UDP socket; see udp_rx.h. Counts: syscall.md unit 3. */
gssize
ns_sys_read (NsThread *t, NsNetStack *s, struct file *file, guchar *ubuf, gsize len)
{
  gssize ret;

  g_return_val_if_fail (t != NULL && s != NULL && file != NULL, -EINVAL);
  ns_syscall_begin (t, s, &fn___x64_sys_read);
  ns_tail_call (t, &fn_ksys_read);   /* __x64_sys_read's tail jmp */
  ns_insns (t, 18);                 /* census: 41 less P/E 13 = 28 (split: estimate) */
  ns_fdget_pos (t, file);
  ns_call (t, &fn_vfs_read);
  /* census: 112 less P/E 17 = 95 (split: estimate): FMODE_READ / FMODE_CAN_READ,
   * access_ok */
  ns_insns (t, 20);
  NS_LOAD_FIELD (t, file, f_mode);
  ns_rw_verify_area_rw (t, s, file, NS_READ);
  ns_insns (t, 29);                 /* count clamp, ->read NULL, new_sync_read's kiocb */
  ns_rep_string (t, 6 * 8);         /* the kiocb zeroed: rep stos of 6 quadwords */
  ns___get_task_ioprio (t);
  ns_insns (t, 20);                 /* the iov_iter, ppos NULL, ->read_iter */
  NS_LOAD_FIELD (t, file, f_op);
  ret = sock_read_iter (t, s, file, ubuf, len);
  ns_insns (t, 25);                 /* vfs_read: fsnotify_access, add_rchar, inc_syscr */
  ns_ret (t);   /* vfs_read */
  ns_insns (t, 10);                 /* ksys_read: ppos, fdput_pos */
  ns_ret (t);   /* ksys_read */
  ns_syscall_end (t, s);
  return ret;
}
