/* udp_tx.c — the UDP send path of write(2) on a connected socket, v6.9.
 *
 *   write → do_syscall_64 → sys_call_table[__NR_write] (indirect before v6.9-rc4) →
 *   ksys_write → fdget_pos → vfs_write (rw_verify_area → security_file_permission →
 *   the LSM hook; new_sync_write inlined) → f_op->write_iter = sock_write_iter (indirect)
 *   → sock_sendmsg → security_socket_sendmsg → sock_sendmsg_nosec (inlined) →
 *   INDIRECT_CALL_INET(ops->sendmsg) → inet_sendmsg / inet6_sendmsg →
 *   inet_send_prepare → INDIRECT_CALL_2(sk_prot->sendmsg) → udp_sendmsg / udpv6_sendmsg.
 *   udp_sendmsg (connected, no cork, no cmsg): sk_dst_check for the cached route,
 *   ip_make_skb (the copy from user), udp_send_skb (UDP header, CHECKSUM_PARTIAL:
 *   udp4_hwcsum), ip_send_skb → … → dev_queue_xmit → loopback_xmit (models/net/ip.c and
 *   loopback.c). udpv6_sendmsg: ip6_sk_dst_lookup_flow → sk_dst_check, ip6_make_skb,
 *   udp_v6_send_skb → udp6_hwcsum_outgoing, ip6_send_skb.
 * Text sizes and instruction counts are estimates with their reasons. */
#include "config.h"
#include <errno.h>
#include "udp_tx.h"
#include "ip.h"

NS_FUNC (udp_fn_udp_sendmsg, "udp_sendmsg", 2800, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
NS_FUNC (udp_fn_udpv6_sendmsg, "udpv6_sendmsg", 3300, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn___x64_sys_write, "__x64_sys_write", 32, NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_ksys_write, "ksys_write", 200, NS_FN_EXTERN, 4);
static NS_FUNC (fn_vfs_write, "vfs_write", 700, NS_FN_EXTERN, 20);
static NS_FUNC (fn_sock_write_iter, "sock_write_iter", 260, NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_sock_sendmsg, "sock_sendmsg", 140, NS_FN_EXTERN, 20);
static NS_FUNC (fn_security_socket_sendmsg, "security_socket_sendmsg", 100, NS_FN_EXTERN, 2);
static NS_FUNC (fn_apparmor_socket_sendmsg, "apparmor_socket_sendmsg", 160,
                NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_inet_sendmsg, "inet_sendmsg", 120, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_inet6_sendmsg, "inet6_sendmsg", 120, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_inet_send_prepare, "inet_send_prepare", 100, NS_FN_EXTERN, 3);
static NS_FUNC (fn_udp_send_skb, "udp_send_skb", 700, NS_FN_STATIC, 2);
static NS_FUNC (fn_udp4_hwcsum, "udp4_hwcsum", 200, NS_FN_EXTERN, 2);
static NS_FUNC (fn_udp_v6_send_skb, "udp_v6_send_skb", 800, NS_FN_STATIC, 2);
static NS_FUNC (fn_udp6_hwcsum_outgoing, "udp6_hwcsum_outgoing", 260, NS_FN_STATIC, 2);
static NS_FUNC (fn_ip6_sk_dst_lookup_flow, "ip6_sk_dst_lookup_flow", 300, NS_FN_EXTERN, 3);

#define UDP_MAX_PAYLOAD  65507u   /* 65535 - 20 - 8 */

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

/* udp_send_skb: the UDP header, hardware checksum set-up, ip_send_skb, stats. */
static gint
udp_send_skb (NsThread *t, NsNetStack *s, struct sock *sk, struct sk_buff *skb)
{
  struct softnet_data *sd = s->sd[ns_thread_cpu (t)];
  NsUdphdr *uh = (NsUdphdr *) skb_transport_header (skb);
  gint err;

  ns_call (t, &fn_udp_send_skb);
  /* estimate: ~40 instructions (offset, len, GSO test, UDP-Lite and no_check_tx tests) */
  ns_insns (t, 40);
  udp_fill_header (t, sk, skb, uh, IPV4_HLEN);
  ns_call (t, &fn_udp4_hwcsum);
  /* estimate: ~20 instructions (csum_start/offset, ~csum_tcpudp_magic of the pseudo
   * header) */
  ns_insns (t, 20);
  NS_STORE_FIELD (t, skb, csum);
  ns_ret (t);
  err = ip_send_skb (t, s, skb);
  /* UDP_MIB_OUTDATAGRAMS */
  ns_mib_inc (t, &sd->udp_mib[1]);
  ns_ret (t);
  return err;
}

/* udp_v6_send_skb: the same for IPv6 (udp6_hwcsum_outgoing, ip6_send_skb). */
static gint
udp_v6_send_skb (NsThread *t, NsNetStack *s, struct sock *sk, struct sk_buff *skb)
{
  struct softnet_data *sd = s->sd[ns_thread_cpu (t)];
  NsUdphdr *uh = (NsUdphdr *) skb_transport_header (skb);
  gint err;

  ns_call (t, &fn_udp_v6_send_skb);
  ns_insns (t, 40);
  udp_fill_header (t, sk, skb, uh, IPV6_HLEN);
  ns_call (t, &fn_udp6_hwcsum_outgoing);
  /* estimate: ~25 instructions (csum_start/offset, ~csum_ipv6_magic of the pseudo header) */
  ns_insns (t, 25);
  NS_STORE_FIELD (t, skb, csum);
  ns_ret (t);
  err = ip6_send_skb (t, s, skb);
  ns_mib_inc (t, &sd->udp_mib[1]);
  ns_ret (t);
  return err;
}

/* udp_sendmsg, connected, uncorked. */
static gssize
udp_sendmsg (NsThread *t, NsNetStack *s, struct sock *sk, const guchar *ubuf, gsize len)
{
  struct dst_entry *rt;
  struct sk_buff *skb;
  gssize err = (gssize) len;

  ns_call (t, &udp_fn_udp_sendmsg);
  /* estimate: ~110 instructions (len and flags tests, corkreq, pending test, daddr and
   * dport from the connected socket, ipcm_init_sk, cgroup BPF sendmsg key off, tos,
   * flowi4 set-up for the connected route, saddr) */
  ns_insns (t, 110);
  NS_LOAD_FIELD (t, sk, sk_daddr);
  NS_LOAD_FIELD (t, sk, sk_dport);
  NS_LOAD_FIELD (t, sk, sk_state);
  ns_load (t, &udp_sk (sk)->pending, 8);
  ns_load (t, &inet_sk (sk)->inet_saddr, 8);
  if (sk->sk_state != TCP_ESTABLISHED) {
    err = -EDESTADDRREQ;
    goto out;
  }
  rt = sk_dst_check (t, s, sk);
  skb = ip_make_skb (t, s, sk, rt, ubuf, len);
  udp_send_skb (t, s, sk, skb);
  /* the route moved into the skb (ip_setup_cork stole it): ip_rt_put(NULL) */
  ns_insns (t, 15);
out:
  ns_ret (t);
  return err;
}

/* udpv6_sendmsg, connected, uncorked (also the v4-mapped dispatch test). */
static gssize
udpv6_sendmsg (NsThread *t, NsNetStack *s, struct sock *sk, const guchar *ubuf, gsize len)
{
  struct dst_entry *rt;
  struct sk_buff *skb;
  gssize err = (gssize) len;

  ns_call (t, &udp_fn_udpv6_sendmsg);
  /* estimate: ~150 instructions (ipcm6 init, v4-mapped test, connected daddr/dport,
   * flowlabel, flowi6 set-up, fl6 saddr, cgroup BPF key off, hop limit, ipc6 tclass) */
  ns_insns (t, 150);
  NS_LOAD_FIELD (t, sk, sk_v6_daddr);
  NS_LOAD_FIELD (t, sk, sk_dport);
  NS_LOAD_FIELD (t, sk, sk_state);
  ns_load (t, &udp_sk (sk)->pending, 8);
  if (sk->sk_state != TCP_ESTABLISHED) {
    err = -EDESTADDRREQ;
    goto out;
  }
  ns_call (t, &fn_ip6_sk_dst_lookup_flow);
  /* estimate: ~30 instructions (ip6_sk_dst_check: cookie, address compares with the
   * flow) */
  ns_insns (t, 30);
  rt = sk_dst_check (t, s, sk);
  ns_ret (t);
  skb = ip6_make_skb (t, s, sk, rt, ubuf, len);
  udp_v6_send_skb (t, s, sk, skb);
  ns_insns (t, 15);
out:
  ns_ret (t);
  return err;
}

/* write(2) on a UDP socket; see udp_tx.h. */
gssize
ns_sys_write (NsThread *t, NsNetStack *s, struct file *file, const guchar *ubuf, gsize len)
{
  struct socket *sock;
  struct sock *sk;
  gboolean v6;
  gssize ret;

  g_return_val_if_fail (t != NULL && s != NULL && file != NULL, -EINVAL);
  sock = ns_file_socket (file);
  sk = sock->sk;
  v6 = sk->sk_family == AF_INET6 && !ipv6_addr_v4mapped_sk (sk);
  ns_syscall_begin (t, s, &fn___x64_sys_write);
  ns_call (t, &fn_ksys_write);
  ns_insns (t, 12);
  ns_fdget_pos (t, file);
  ns_call (t, &fn_vfs_write);
  /* estimate: ~40 instructions (FMODE_WRITE / CAN_WRITE, access_ok, count clamp,
   * file_start_write (not a regular file), new_sync_write inlined, fsnotify_modify test,
   * file_end_write) */
  ns_insns (t, 40);
  NS_LOAD_FIELD (t, file, f_mode);
  ns_rw_verify_area (t, s, file);
  NS_LOAD_FIELD (t, file, f_op);
  ns_icall (t, &fn_sock_write_iter);
  /* estimate: ~25 instructions (msghdr from the kiocb, O_NONBLOCK, SOCK_NOSPACE test) */
  ns_insns (t, 25);
  ns_call (t, &fn_sock_sendmsg);
  ns_insns (t, 10);
  /* estimate: ~25 instructions of apparmor_socket_sendmsg → aa_sock_msg_perm, unconfined */
  ns_security_hook (t, s, &fn_security_socket_sendmsg, &fn_apparmor_socket_sendmsg, 25);
  NS_LOAD_FIELD (t, sock, ops);
  ns_call (t, sk->sk_family == AF_INET6 ? &fn_inet6_sendmsg : &fn_inet_sendmsg);
  ns_insns (t, 10);
  ns_call (t, &fn_inet_send_prepare);
  /* estimate: ~12 instructions (sock_rps_record_flow key off, inet_num test: bound) */
  ns_insns (t, 12);
  NS_LOAD_FIELD (t, sk, sk_num);
  ns_ret (t);
  if (len > UDP_MAX_PAYLOAD)
    ret = -EMSGSIZE;
  else if (v6)
    ret = udpv6_sendmsg (t, s, sk, ubuf, len);
  else
    ret = udp_sendmsg (t, s, sk, ubuf, len);
  ns_ret (t);   /* inet_sendmsg */
  ns_ret (t);   /* sock_sendmsg */
  ns_ret (t);   /* sock_write_iter */
  ns_ret (t);   /* vfs_write */
  ns_ret (t);   /* ksys_write */
  ns_syscall_end (t, s);
  return ret;
}
