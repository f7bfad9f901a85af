/* udp_tx.c — the UDP send path of write(2) on a connected socket, v6.9.
 *
 *   write → do_syscall_64 → sys_call_table[__NR_write] (indirect before v6.9-rc4) →
 *   __x64_sys_write → ksys_write → fdget_pos → vfs_write (rw_verify_area →
 *   security_file_permission → the LSM hooks; new_sync_write inlined: __get_task_ioprio)
 *   → f_op->write_iter = sock_write_iter (indirect) → __sock_sendmsg →
 *   security_socket_sendmsg (the LSM hook walk) → sock_sendmsg_nosec (inlined) →
 *   INDIRECT_CALL_INET(ops->sendmsg) → inet_sendmsg / inet6_sendmsg → inet_send_prepare
 *   → INDIRECT_CALL_2(sk_prot->sendmsg) → udp_sendmsg / udpv6_sendmsg.
 *   udp_sendmsg (connected, no cork, no cmsg): sk_dst_check for the cached route,
 *   ip_make_skb (the copy from user), udp_send_skb (UDP header, CHECKSUM_PARTIAL:
 *   udp4_hwcsum), ip_send_skb → … → dev_queue_xmit → loopback_xmit (models/net/ip.c and
 *   loopback.c). udpv6_sendmsg (connected, no cork, no cmsg): txopt_get, fl6_update_dst,
 *   security_sk_classify_flow, ip6_sk_dst_lookup_flow → sk_dst_check, ip6_dst_hoplimit,
 *   ip6_make_skb, udp_v6_send_skb (udp6_hwcsum_outgoing inlined: csum_ipv6_magic),
 *   ip6_send_skb.
 * Instruction counts of the IPv4 path: the census of the Debian 6.1.176 binary
 * (doc/census/seed000/syscall.md unit 2 and send.md), as body instructions (each
 * function's total less its prologue, epilogue and return, which the machine charges per
 * call); the binary's tail jmps (__x64_sys_write → ksys_write, apparmor_socket_sendmsg →
 * aa_sk_perm, inet_sendmsg → udp_sendmsg) are ns_tail_calls. The syscall entry and
 * exit, __fdget_pos, rw_verify_area and __check_object_size are netstack.c's. The IPv6
 * path's counts: the census of the same binary (doc/census/seed000/send6.md), likewise as
 * body instructions (inet6_sendmsg → udpv6_sendmsg is a tail jmp as IPv4's). Text sizes:
 * the Debian 6.1.176 binary's (nm -S; doc/census/text-sizes-6.1.176.txt). */
#include "config.h"
#include <errno.h>
#include "udp_tx.h"
#include "ip.h"

NS_FUNC (udp_fn_udp_sendmsg, "udp_sendmsg", 3741, 22, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
NS_FUNC (udp_fn_udpv6_sendmsg, "udpv6_sendmsg", 4182, 22, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn___x64_sys_write, "__x64_sys_write", 21, 1, NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_ksys_write, "ksys_write", 228, 11, NS_FN_EXTERN, 4);
static NS_FUNC (fn_vfs_write, "vfs_write", 995, 15, NS_FN_EXTERN, 20);
static NS_FUNC (fn_sock_write_iter, "sock_write_iter", 245, 5, NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn___sock_sendmsg, "__sock_sendmsg", 97, 5, NS_FN_EXTERN, 4);
static NS_FUNC (fn_security_socket_sendmsg, "security_socket_sendmsg", 86, 9, NS_FN_EXTERN, 2);
static NS_FUNC (fn_apparmor_socket_sendmsg, "apparmor_socket_sendmsg", 26, 1,
                NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_tomoyo_socket_sendmsg, "tomoyo_socket_sendmsg", 10, 1,
                NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_tomoyo_socket_sendmsg_permission, "tomoyo_socket_sendmsg_permission",
                205, 3, NS_FN_EXTERN, 1);
static NS_FUNC (fn_bpf_lsm_socket_sendmsg, "bpf_lsm_socket_sendmsg", 12, 1,
                NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_inet_sendmsg, "inet_sendmsg", 106, 7, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_inet6_sendmsg, "inet6_sendmsg", 106, 7, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_inet_send_prepare, "inet_send_prepare", 155, 5, NS_FN_EXTERN, 3);
static NS_FUNC (fn_udp_send_skb, "udp_send_skb", 881, 13, NS_FN_STATIC, 2);
static NS_FUNC (fn_udp4_hwcsum, "udp4_hwcsum", 250, 11, NS_FN_EXTERN, 2);
static NS_FUNC (fn_udp_v6_send_skb, "udp_v6_send_skb", 1089, 15, NS_FN_STATIC, 2);
static NS_FUNC (fn_csum_ipv6_magic, "csum_ipv6_magic", 84, 1, NS_FN_EXTERN, 10);
static NS_FUNC (fn_ip6_sk_dst_lookup_flow, "ip6_sk_dst_lookup_flow", 418, 11, NS_FN_EXTERN, 3);
static NS_FUNC (fn_fl6_update_dst, "fl6_update_dst", 125, 4, NS_FN_EXTERN, 6);
static NS_FUNC (fn_security_sk_classify_flow, "security_sk_classify_flow", 60, 7, NS_FN_EXTERN, 6);
static NS_FUNC (fn_bpf_lsm_sk_getsecid, "bpf_lsm_sk_getsecid", 10, 1,
                NS_FN_EXTERN | NS_FN_INDIRECT, 1);

/* udp_sendmsg's own size test (before the socket's state): len > 0xFFFF is -EMSGSIZE.
 * The datagram's real limit is __ip_append_data's / __ip6_append_data's (ip.c: 65507
 * bytes of IPv4 payload, 65527 of IPv6), reached after the state test, so an unconnected
 * socket gets EDESTADDRREQ first. */
#define UDP_MAX_LEN        0xFFFFu

/* An AF_INET6 socket connected to a v4-mapped peer sends through udp_sendmsg. */
static gboolean
ipv6_addr_v4mapped_sk (const struct sock *sk)
{
  const ns_in6_addr *a = &sk->sk_v6_daddr;

  return a->u6_addr32[0] == 0 && a->u6_addr32[1] == 0 &&
         a->u6_addr32[2] == GUINT32_TO_BE (0xffff);
}

/* The UDP header both udp_send_skb and udp_v6_send_skb write: ports from the socket,
 * length from the skb past the network header of nh_len bytes. */
static void
udp_fill_header (NsThread *t, struct sock *sk, struct sk_buff *skb, NsUdphdr *uh,
                 guint nh_len)
{
  uh->source = inet_sk (sk)->inet_sport;
  uh->dest = sk->sk_dport;
  uh->len = GUINT16_TO_BE ((guint16) (skb->len - nh_len));
  ns_store (t, uh, sizeof *uh);
  NS_LOAD_FIELD (t, inet_sk (sk), inet_sport);
  NS_LOAD_FIELD (t, sk, sk_dport);
  NS_LOAD_FIELD (t, sk, sk_tx_bits);
}

/* The tail both udp_send_skb and udp_v6_send_skb share: an error of the IP layer is
 * -ENOBUFS (a full device queue or a drop) → UDP_MIB_SNDBUFERRORS and success, as the
 * socket has no IP_RECVERR (the model has no setsockopt of it); any other error is
 * returned; success counts UDP_MIB_OUTDATAGRAMS. Returns the sendmsg error. */
static gint
udp_send_skb_count (NsThread *t, struct softnet_data *sd, gint err)
{
  if (err) {
    if (err == -ENOBUFS) {
      ns_mib_inc (t, &sd->udp_mib[UDP_MIB_SNDBUFERRORS]);
      err = 0;
    }
  } else {
    ns_mib_inc (t, &sd->udp_mib[UDP_MIB_OUTDATAGRAMS]);
  }
  return err;
}

/* udp_send_skb: the UDP header, no GSO, not UDP-Lite, checksum on: CHECKSUM_PARTIAL →
 * udp4_hwcsum; ip_send_skb; OUTDATAGRAMS. */
static gint
udp_send_skb (NsThread *t, NsNetStack *s, struct sock *sk, struct sk_buff *skb)
{
  struct softnet_data *sd = s->sd[ns_thread_cpu (t)];
  NsUdphdr *uh = (NsUdphdr *) skb_transport_header (skb);
  gint err;

  ns_call (t, &fn_udp_send_skb);
  udp_fill_header (t, sk, skb, uh, IPV4_HLEN);
  /* census: 30 instructions (offset, len, the header, the GSO, UDP-Lite, no_check_tx
   * and ip_summed tests) */
  ns_insns (t, 30);
  ns_call (t, &fn_udp4_hwcsum);
  NS_STORE_FIELD (t, skb, csum);
  /* census: 35 instructions (no frag_list: csum_start and csum_offset, ~csum_tcpudp_magic
   * of the pseudo header) */
  ns_insns (t, 35);
  ns_ret (t);
  ns_insns (t, 6);                  /* census: 6 instructions (arguments) */
  err = ip_send_skb (t, s, skb);
  err = udp_send_skb_count (t, sd, err);
  ns_insns (t, 10);                 /* census: 10 instructions (err test, the MIB, return) */
  ns_ret (t);
  return err;
}

/* csum_ipv6_magic: the pseudo-header sum of the two addresses, length and protocol,
 * folded (no loop). */
static void
csum_ipv6_magic (NsThread *t, const NsIpv6hdr *ip6h)
{
  ns_call (t, &fn_csum_ipv6_magic);
  ns_load (t, &ip6h->saddr, 32);
  ns_insns (t, 23);                 /* census (send6.md): 26 instructions less P/E 3 */
  ns_ret (t);
}

/* udp_v6_send_skb: the UDP header; no GSO, not UDP-Lite, no_check6_tx off,
 * CHECKSUM_PARTIAL → udp6_hwcsum_outgoing (inlined in the binary: no frag_list, so
 * csum_start, csum_offset and the folded pseudo header); ip6_send_skb; OUTDATAGRAMS. */
static gint
udp_v6_send_skb (NsThread *t, NsNetStack *s, struct sock *sk, struct sk_buff *skb)
{
  struct softnet_data *sd = s->sd[ns_thread_cpu (t)];
  NsUdphdr *uh = (NsUdphdr *) skb_transport_header (skb);
  gint err;

  ns_call (t, &fn_udp_v6_send_skb);
  udp_fill_header (t, sk, skb, uh, IPV6_HLEN);
  /* census (send6.md): 81 instructions less P/E 17 — 64: 51 (offset, len, the header, the
   * GSO, UDP-Lite, no_check6_tx and ip_summed tests, the frag_list test, csum_start and
   * csum_offset, the arguments) */
  ns_insns (t, 51);
  csum_ipv6_magic (t, (const NsIpv6hdr *) skb_network_header (skb));
  NS_STORE_FIELD (t, skb, csum);
  ns_insns (t, 5);                  /* census: 5 instructions (not, the check field) */
  err = ip6_send_skb (t, s, skb);
  err = udp_send_skb_count (t, sd, err);
  ns_insns (t, 8);                  /* census: 8 instructions (err test, the MIB) */
  ns_ret (t);
  return err;
}

/* udp_sendmsg, connected, uncorked, no cmsg: the checks, ipcm_init_sk, inet_opt under
 * rcu_read_lock (none), the connected route (sk_dst_check), the lockless path
 * ip_make_skb + udp_send_skb, then ip_rt_put of the route the cork stole (NULL: still a
 * dst_release call). */
static gssize
udp_sendmsg (NsThread *t, NsNetStack *s, struct sock *sk, const guchar *ubuf, gsize len)
{
  struct dst_entry *rt;
  struct sk_buff *skb;
  gint make_err = 0;
  gssize err = (gssize) len;

  ns_tail_call (t, &udp_fn_udp_sendmsg);   /* inet_sendmsg's tail jmp */
  NS_LOAD_FIELD (t, sk, sk_daddr);
  NS_LOAD_FIELD (t, sk, sk_dport);
  NS_LOAD_FIELD (t, sk, sk_state);
  ns_load (t, &udp_sk (sk)->pending, 8);
  ns_load (t, &inet_sk (sk)->inet_saddr, 8);
  /* census: 70 instructions (the cork flag, len, OOB and pending tests, msg_name NULL so
   * the connected daddr and dport, controllen, three rep stosq of stack structs,
   * ipcm_init_sk) */
  ns_insns (t, 67);
  ns_rep_string (t, 7 * 8);
  ns_rep_string (t, 9 * 8);
  ns_rep_string (t, 7 * 8);
  if (len > UDP_MAX_LEN) {
    err = -EMSGSIZE;
    goto out;
  }
  if (sk->sk_state != TCP_ESTABLISHED) {
    err = -EDESTADDRREQ;
    goto out;
  }
  ns_rcu_read_lock (t, s);
  NS_LOAD_FIELD (t, inet_sk (sk), inet_opt);
  ns_insns (t, 6);                  /* census: 6 instructions (inet_opt: none) */
  ns_rcu_read_unlock (t, s);
  /* census: 37 instructions (the UDP4_SENDMSG cgroup key, ipc.opt, tos, multicast and
   * oif tests, uc_index, the connected test) */
  ns_insns (t, 37);
  rt = sk_dst_check (t, s, sk);
  /* census: 30 instructions (route test, MSG_CONFIRM, saddr, corkreq 0, the lockless
   * path's arguments) */
  ns_insns (t, 30);
  skb = ip_make_skb (t, s, sk, rt, ubuf, len, &make_err);
  ns_insns (t, 10);                 /* census: 10 instructions (skb test, arguments) */
  if (skb == NULL) {
    err = make_err;                 /* PTR_ERR: the cork released the route */
  } else {
    err = udp_send_skb (t, s, sk, skb);
    if (err == 0)
      err = (gssize) len;
  }
  ns_insns (t, 10);                 /* census: 10 instructions (err) */
  dst_release (t, NULL);            /* ip_rt_put(rt): the cork stole the route */
  /* census: 30 instructions (free, the error tests, return len, stack protector) */
  ns_insns (t, 30);
out:
  ns_ret (t);
  return err;
}

/* fl6_update_dst(fl6, opt NULL, &final): no routing header, so NULL. */
static void
fl6_update_dst (NsThread *t)
{
  ns_call (t, &fn_fl6_update_dst);
  ns_insns (t, 3);                  /* census (send6.md): 9 instructions less P/E 6 */
  ns_ret (t);
}

/* security_sk_classify_flow: the sk_getsecid hook list of the census' Debian LSMs, in
 * which only BPF-LSM has an entry (bpf_lsm_sk_getsecid: no body); 5 instructions of its
 * own, a list step of 7 and the indirect call (census: 21 less P/E 9). 6.12.111: 2
 * argument saves and 11 slots (a void hook: no rc); a block is lea, the call, the jump
 * back. */
static void
security_sk_classify_flow (NsThread *t, NsNetStack *s)
{
  static const NsLsmHookSite site = { &fn_security_sk_classify_flow, 5, 7, 13, 2 };
  static const NsLsmHook hooks[] = {
    { NS_LSM_BPF, &fn_bpf_lsm_sk_getsecid, 0, NULL },
  };

  ns_security_call_hooks (t, s, &site, hooks, G_N_ELEMENTS (hooks));
}

/* ip6_sk_dst_lookup_flow: sk_dst_check(sk, np->dst_cookie), then ip6_sk_dst_check
 * (inlined): an AF_INET6 route whose /128 key is the flow's daddr and whose saddr cache
 * matches, no oif → the cached route (no ip6_dst_lookup_flow). */
static struct dst_entry *
ip6_sk_dst_lookup_flow (NsThread *t, NsNetStack *s, struct sock *sk)
{
  struct dst_entry *dst;

  ns_call (t, &fn_ip6_sk_dst_lookup_flow);
  /* census (send6.md): 64 instructions less P/E 13 — 51: 14 (inet6_sk, the cookie) */
  ns_insns (t, 14);
  dst = sk_dst_check (t, s, sk);
  NS_LOAD_FIELD (t, sk, sk_v6_daddr);
  NS_LOAD_FIELD (t, sk, sk_v6_rcv_saddr);
  /* census: 37 instructions (dst test, ops->family, ip6_rt_check of daddr and of saddr
   * against the route's keys and the socket's address caches, the oif test) */
  ns_insns (t, 37);
  ns_ret (t);
  return dst;
}

/* udpv6_sendmsg, connected, uncorked, no cmsg (also the v4-mapped dispatch test):
 * ipcm6_init, the connected daddr, dport and flow label into a zeroed flowi6, txopt_get
 * under rcu_read_lock (no options), fl6_update_dst, security_sk_classify_flow, tclass,
 * ip6_sk_dst_lookup_flow, the hop limit (ip6_dst_hoplimit), the lockless path
 * ip6_make_skb (which steals the route: no dst_release after it) + udp_v6_send_skb. */
static gssize
udpv6_sendmsg (NsThread *t, NsNetStack *s, struct sock *sk, const guchar *ubuf, gsize len)
{
  struct dst_entry *rt;
  struct sk_buff *skb;
  gint make_err = 0;
  gssize err = (gssize) len;

  ns_tail_call (t, &udp_fn_udpv6_sendmsg);   /* inet6_sendmsg's tail jmp, as IPv4's */
  NS_LOAD_FIELD (t, sk, sk_v6_daddr);
  NS_LOAD_FIELD (t, sk, sk_dport);
  NS_LOAD_FIELD (t, sk, sk_state);
  ns_load (t, &udp_sk (sk)->pending, 8);
  /* census (send6.md): 270 instructions less P/E 24 — 246: 104 (stack protector, three
   * rep stosq of stack structs, corkflag, ipcm6_init, msg_name NULL, pending, the
   * ESTABLISHED test, v4-mapped test, len, getfrag, fl6 zeroed, dport, flow label,
   * bound_dev_if and sticky ifindex, uid, controllen); the rep stosq are of 8, 18 and 11
   * quadwords (opt_space, cork, fl6) */
  ns_insns (t, 101);
  ns_rep_string (t, 8 * 8);
  ns_rep_string (t, 18 * 8);
  ns_rep_string (t, 11 * 8);
  if (sk->sk_state != TCP_ESTABLISHED) {
    err = -EDESTADDRREQ;
    goto out;
  }
  ns_rcu_read_lock (t, s);          /* txopt_get: np->opt is NULL */
  ns_insns (t, 7);                  /* census: 7 instructions (np->opt) */
  ns_rcu_read_unlock (t, s);
  NS_LOAD_FIELD (t, sk, sk_v6_rcv_saddr);
  /* census: 38 instructions (no flow label, ipv6_fixup_options, protocol, mark, daddr,
   * saddr from np, sport, the UDP6_SENDMSG cgroup key, daddr not any, arguments) */
  ns_insns (t, 38);
  fl6_update_dst (t);
  /* census: 21 instructions (final_p NULL, oif 0 and not multicast: ucast_oif) */
  ns_insns (t, 21);
  security_sk_classify_flow (t, s);
  /* census: 15 instructions (tclass -1 so np's, ip6_make_flowinfo, arguments) */
  ns_insns (t, 15);
  rt = ip6_sk_dst_lookup_flow (t, s, sk);
  /* census: 17 instructions (IS_ERR, hlimit -1, ip6_sk_dst_hoplimit: not multicast,
   * np->hop_limit -1) */
  ns_insns (t, 17);
  ip6_dst_hoplimit (t, s, rt);      /* ip.c */
  /* census: 22 instructions (MSG_CONFIRM, ulen, corkreq 0, the lockless path's
   * arguments) */
  ns_insns (t, 22);
  skb = ip6_make_skb (t, s, sk, rt, ubuf, len, &make_err);
  ns_insns (t, 10);                 /* census: 10 instructions (IS_ERR_OR_NULL, arguments) */
  if (skb == NULL) {
    err = make_err;                 /* PTR_ERR: the cork released the route */
    goto out;
  }
  err = udp_v6_send_skb (t, s, sk, skb);
  if (err == 0)
    err = (gssize) len;
  /* census: 12 instructions (no flow label, no opt_to_free, err 0, return len, the stack
   * protector) */
  ns_insns (t, 12);
out:
  ns_ret (t);
  return err;
}

/* tomoyo_socket_sendmsg (1 instruction) tail-jumps to tomoyo_socket_sendmsg_permission:
 * the request zeroed (rep stos), not a kthread, AF_INET, msg_name NULL → 0. */
static void
tomoyo_socket_sendmsg_permission (NsThread *t, NsNetStack *s)
{
  (void) s;
  ns_tail_call (t, &fn_tomoyo_socket_sendmsg_permission);
  ns_insns (t, 25);                 /* census: 26 instructions (31 less P/E 5) */
  ns_rep_string (t, 6 * 8);         /* the request zeroed: rep stos of 6 quadwords */
  ns_ret (t);
}

/* security_socket_sendmsg: the hook list of the census' Debian CONFIG_LSM order —
 * AppArmor (4 instructions, then its tail jmp to aa_sk_perm), TOMOYO, BPF-LSM (1: xor
 * eax) — each a list step of 10 instructions and an indirect call; the hook's own 8 (the
 * list head, return 0). */
static void
security_socket_sendmsg (NsThread *t, NsNetStack *s)
{
  /* 6.12.111: 3 argument saves, 11 slots, rc = 0; a block of 3 moves, the call, test,
   * jump back */
  static const NsLsmHookSite site = { &fn_security_socket_sendmsg, 8, 10, 15, 5 };
  static const NsLsmHook hooks[] = {
    { NS_LSM_APPARMOR, &fn_apparmor_socket_sendmsg, 4, ns_aa_sk_perm },
    { NS_LSM_TOMOYO, &fn_tomoyo_socket_sendmsg, 1, tomoyo_socket_sendmsg_permission },
    { NS_LSM_BPF, &fn_bpf_lsm_socket_sendmsg, 1, NULL },
  };

  ns_security_call_hooks (t, s, &site, hooks, G_N_ELEMENTS (hooks));
}

/* sock_write_iter: the msghdr from the kiocb (zeroed: rep stos), __sock_sendmsg
 * (security_socket_sendmsg, then sock_sendmsg_nosec inlined: INDIRECT_CALL_INET of
 * ops->sendmsg, a direct call of inet_sendmsg / inet6_sendmsg), inet_send_prepare, and
 * INDIRECT_CALL_2 of sk_prot->sendmsg: a tail jmp to udp_sendmsg / udpv6_sendmsg. */
static gssize
sock_write_iter (NsThread *t, NsNetStack *s, struct socket *sock, const guchar *ubuf,
                 gsize len, gboolean v6)
{
  struct sock *sk = sock->sk;
  gssize ret;

  ns_icall (t, &fn_sock_write_iter);
  /* census: 30 instructions (msghdr zeroed by a rep stos of 13 quadwords, ki_pos,
   * O_NONBLOCK and IOCB_NOWAIT, the SEQPACKET test) */
  ns_insns (t, 29);
  ns_rep_string (t, 13 * 8);
  ns_call (t, &fn___sock_sendmsg);
  ns_insns (t, 8);                  /* census: 8 instructions (msg_data_left, arguments) */
  security_socket_sendmsg (t, s);
  NS_LOAD_FIELD (t, sock, ops);
  /* census: 9 instructions (err test, the ops->sendmsg compares); 7 for inet6_sendmsg,
   * the first compare (syscall.md's 26 for __sock_sendmsg less 3: send6.md) */
  ns_insns (t, sk->sk_family == AF_INET6 ? 7 : 9);
  ns_call (t, sk->sk_family == AF_INET6 ? &fn_inet6_sendmsg : &fn_inet_sendmsg);
  ns_insns (t, 10);                 /* census: 10 instructions (arguments) */
  ns_call (t, &fn_inet_send_prepare);
  NS_LOAD_FIELD (t, sk, sk_num);
  /* census: 4 instructions (the rfs key, inet_num test: bound) */
  ns_insns (t, 4);
  ns_ret (t);
  /* census: 7 instructions (the sk_prot->sendmsg compares) */
  ns_insns (t, 7);
  if (v6)
    ret = udpv6_sendmsg (t, s, sk, ubuf, len);
  else
    ret = udp_sendmsg (t, s, sk, ubuf, len);
  ns_ret (t);   /* inet_sendmsg (free: its tail jmp's callee returned for it) */
  /* census: 2 instructions (return); 1 after inet6_sendmsg (no jump back) */
  ns_insns (t, sk->sk_family == AF_INET6 ? 1 : 2);
  ns_ret (t);   /* __sock_sendmsg */
  /* census: 16 instructions (the iov_iter copied back, return) */
  ns_insns (t, 16);
  ns_ret (t);
  return ret;
}

/* vfs_write: FMODE_WRITE / FMODE_CAN_WRITE, access_ok, rw_verify_area, the count clamp,
 * not a regular file (no file_start_write); no ->write, so new_sync_write (inlined):
 * init_sync_kiocb (get_current_ioprio → __get_task_ioprio), the ITER_UBUF iterator,
 * call_write_iter → f_op->write_iter = sock_write_iter (indirect); fsnotify_modify (no
 * watchers), add_wchar, inc_syscw. */
static gssize
vfs_write (NsThread *t, NsNetStack *s, struct file *file, const guchar *ubuf, gsize len,
           gboolean v6)
{
  gssize ret;

  ns_call (t, &fn_vfs_write);
  NS_LOAD_FIELD (t, file, f_mode);
  /* census: 20 instructions (the mode tests, access_ok) */
  ns_insns (t, 20);
  ns_rw_verify_area (t, s, file);
  /* census: 25 instructions (count clamp, the regular-file test, ->write NULL, the kiocb
   * zeroed by a rep stos of 6 quadwords) */
  ns_insns (t, 24);
  ns_rep_string (t, 6 * 8);
  ns___get_task_ioprio (t);
  NS_LOAD_FIELD (t, file, f_op);
  /* census: 20 instructions (ki_flags, the iterator, ppos NULL, the call) */
  ns_insns (t, 20);
  ret = sock_write_iter (t, s, ns_file_socket (file), ubuf, len, v6);
  /* census: 35 instructions (ret test, fsnotify_modify's connectors test, add_wchar,
   * inc_syscw, the regular-file test) */
  ns_insns (t, 35);
  ns_ret (t);
  return ret;
}

/* write(2) on a UDP socket; see udp_tx.h. */
gssize
ns_sys_write (NsThread *t, NsNetStack *s, struct file *file, const guchar *ubuf, gsize len)
{
  struct sock *sk;
  gboolean v6;
  gssize ret;

  g_return_val_if_fail (t != NULL && s != NULL && file != NULL, -EINVAL);
  sk = ns_file_socket (file)->sk;
  v6 = sk->sk_family == AF_INET6 && !ipv6_addr_v4mapped_sk (sk);
  ns_syscall_begin (t, s, &fn___x64_sys_write);
  ns_tail_call (t, &fn_ksys_write); /* __x64_sys_write's tail jmp */
  ns_insns (t, 16);                 /* census: 16 instructions (arguments, stack protector) */
  ns_fdget_pos (t, file);
  /* census: 6 instructions (the file test, FMODE_STREAM: no ppos) */
  ns_insns (t, 6);
  ret = vfs_write (t, s, file, ubuf, len, v6);
  /* census: 6 instructions (no FDPUT_POS_UNLOCK, no FDPUT_FPUT, return) */
  ns_insns (t, 6);
  ns_ret (t);   /* ksys_write */
  ns_syscall_end (t, s);
  return ret;
}
