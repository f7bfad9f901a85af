/* ip.c — IPv4 and IPv6 output and input of a UDP datagram on a local (loopback) route,
 * v6.9: net/ipv4/ip_output.c (ip_make_skb, ip_setup_cork, __ip_append_data,
 * ip_generic_getfrag, __ip_make_skb, ip_send_skb, __ip_local_out, ip_output,
 * ip_finish_output, ip_finish_output2), route.c (ipv4_dst_check, ipv4_mtu), ip_input.c
 * (ip_rcv, ip_rcv_core, ip_rcv_finish, ip_local_deliver, ip_protocol_deliver_rcu),
 * raw.c, net/ipv6/ip6_output.c and ip6_input.c (their twins), net/core/sock.c
 * (sk_dst_check, sock_alloc_send_pskb, skb_set_owner_w), net/core/skbuff.c
 * (alloc_skb_with_frags), net/core/dst.c (dst_release), lib/iov_iter.c.
 *
 * The loopback facts that shape the path: lo has NETIF_F_HW_CSUM, so UDP leaves the
 * checksum CHECKSUM_PARTIAL and no byte is summed on either side (skb_csum_unnecessary is
 * true for CHECKSUM_PARTIAL on receive); lo's MTU is 65536, so every datagram is one skb:
 * linear while fraglen + alloc_extra < SKB_MAX_ALLOC (an IPv4 payload of up to 16004
 * bytes, IPv6 15991: seed 000's 8920 bytes), else, lo having NETIF_F_SG, a small head and
 * the payload in page fragments of the task's page_frag; the output route to a local address has
 * dst.input = ip_local_deliver / ip6_input and loopback_xmit keeps the dst, so input needs
 * no route lookup and early demux does not run (it requires !skb_dst); the neighbour is
 * NUD_NOARP with a cached hardware header (neigh_hh_output); netfilter hooks are static-key
 * no-ops with no rules loaded; there is no IP option and no fragment.
 *
 * Which functions are out of line, and the IPv4 instruction counts: the census of the
 * Debian 6.1.176 binary along seed 000's path (doc/census/seed000/send.md, and section C
 * of receive.md), as body instructions: each function's total less its prologue,
 * epilogue and return, which the machine charges per call. Where 6.9-rc1 differs from
 * that binary, 6.9's calls are kept and the comment says so (the 6.1.176 binary carries
 * the 2025 dev_net_rcu backports: rcu_read_lock in ipv4_dst_check, ip4_dst_hoplimit and
 * ip_output that 6.9 has not). Functions the binary enters by a tail jmp are entered by
 * ns_tail_call (one return for both; the IPv6 twins' where their IPv4 twin's is). The
 * indirect calls are
 * getfrag (a function pointer argument of __ip_append_data); dst_output, dst_input,
 * dst_mtu, the ptype handler and the inet protocol handler go through
 * INDIRECT_CALL_INET / INDIRECT_CALL_2 (compares + direct calls). The IPv6 counts are
 * the same binary's census of the IPv6 path (doc/census/seed000/send6.md, receive6.md);
 * text sizes are the Debian 6.1.176 binary's (nm -S; doc/census/text-sizes-6.1.176.txt). */
#include "config.h"
#include <string.h>
#include "ip.h"
#include "loopback.h"
#include "udp_rx.h"
#include "select.h"
#include "iov_iter.h"

/* IPv4 */
static NS_FUNC (fn_sk_dst_check, "sk_dst_check", 182, 7, NS_FN_EXTERN, 20);
static NS_FUNC (fn_ipv4_dst_check, "ipv4_dst_check", 84, 7, NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_ipv4_mtu, "ipv4_mtu", 166, 3, NS_FN_EXTERN | NS_FN_INDIRECT, 4);
static NS_FUNC (fn_dst_release, "dst_release", 169, 5, NS_FN_EXTERN, 200);
static NS_FUNC (fn_ip_make_skb, "ip_make_skb", 311, 22, NS_FN_EXTERN, 2);
static NS_FUNC (fn_ip_setup_cork, "ip_setup_cork", 478, 13, NS_FN_STATIC, 2);
static NS_FUNC (fn___ip_append_data, "__ip_append_data", 4182, 15, NS_FN_STATIC, 2);
static NS_FUNC (fn_ip_local_error, "ip_local_error", 289, 13, NS_FN_EXTERN, 4);
static NS_FUNC (fn_sock_alloc_send_pskb, "sock_alloc_send_pskb", 584, 15, NS_FN_EXTERN, 12);
static NS_FUNC (fn_alloc_skb_with_frags, "alloc_skb_with_frags", 506, 15, NS_FN_EXTERN, 6);
static NS_FUNC (fn_skb_set_owner_w, "skb_set_owner_w", 200, 5, NS_FN_EXTERN, 20);
static NS_FUNC (fn_sock_wfree, "sock_wfree", 456, 11, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_sk_page_frag_refill, "sk_page_frag_refill", 159, 5, NS_FN_EXTERN, 12);
static NS_FUNC (fn_ip_generic_getfrag, "ip_generic_getfrag", 238, 13, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn___ip_make_skb, "__ip_make_skb", 1304, 15, NS_FN_EXTERN, 3);
static NS_FUNC (fn_ip_send_skb, "ip_send_skb", 139, 7, NS_FN_EXTERN, 3);
static NS_FUNC (fn___ip_local_out, "__ip_local_out", 346, 13, NS_FN_EXTERN, 3);
static NS_FUNC (fn_ip_send_check, "ip_send_check", 72, 1, NS_FN_EXTERN, 40);
NS_FUNC (ip_fn_ip_output, "ip_output", 289, 13, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_ip_finish_output, "ip_finish_output", 182, 9, NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn___ip_finish_output, "__ip_finish_output", 396, 13, NS_FN_STATIC, 2);
static NS_FUNC (fn_ip_skb_dst_mtu, "ip_skb_dst_mtu", 413, 2, NS_FN_STATIC, 3);
static NS_FUNC (fn_ip_finish_output2, "ip_finish_output2", 1374, 13, NS_FN_STATIC, 2);
NS_FUNC (ip_fn_ip_rcv, "ip_rcv", 450, 11, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_ip_rcv_core, "ip_rcv_core", 780, 7, NS_FN_STATIC, 2);
/* ip_rcv_finish: inlined in ip_rcv (NF_HOOK's direct okfn call) */
static NS_FUNC (fn_ip_rcv_finish, "ip_rcv_finish", 196, 7, NS_FN_STATIC, 1);
static NS_FUNC (fn_ip_rcv_finish_core, "ip_rcv_finish_core", 1098, 9, NS_FN_STATIC, 2);
NS_FUNC (ip_fn_ip_local_deliver, "ip_local_deliver", 272, 9, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_ip_local_deliver_finish, "ip_local_deliver_finish", 143, 5,
                NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_ip_protocol_deliver_rcu, "ip_protocol_deliver_rcu", 511, 9, NS_FN_EXTERN, 2);
static NS_FUNC (fn_raw_local_deliver, "raw_local_deliver", 579, 15, NS_FN_EXTERN, 1);
/* IPv6 */
/* IPv6 output: __ip6_finish_output and
 * ip6_skb_dst_mtu are inline in ip6_finish_output there, so they have no NsFunc */
static NS_FUNC (fn_ip6_dst_check, "ip6_dst_check", 242, 7, NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_ip6_mtu, "ip6_mtu", 108, 5, NS_FN_EXTERN | NS_FN_INDIRECT, 4);
static NS_FUNC (fn_ip6_dst_hoplimit, "ip6_dst_hoplimit", 87, 3, NS_FN_EXTERN, 6);
static NS_FUNC (fn_ip6_make_skb, "ip6_make_skb", 465, 22, NS_FN_EXTERN, 2);
static NS_FUNC (fn_ip6_setup_cork, "ip6_setup_cork", 1023, 15, NS_FN_STATIC, 2);
static NS_FUNC (fn___ip6_append_data, "__ip6_append_data", 4709, 15, NS_FN_STATIC, 2);
static NS_FUNC (fn_ipv6_local_error, "ipv6_local_error", 342, 14, NS_FN_EXTERN, 4);
static NS_FUNC (fn___ip6_make_skb, "__ip6_make_skb", 1443, 16, NS_FN_EXTERN, 3);
static NS_FUNC (fn_ip6_cork_release, "ip6_cork_release", 109, 7, NS_FN_STATIC, 3);
static NS_FUNC (fn_ip6_send_skb, "ip6_send_skb", 137, 7, NS_FN_EXTERN, 3);
static NS_FUNC (fn_ip6_local_out, "ip6_local_out", 102, 7, NS_FN_EXTERN, 10);
static NS_FUNC (fn___ip6_local_out, "__ip6_local_out", 366, 13, NS_FN_EXTERN, 3);
NS_FUNC (ip_fn_ip6_output, "ip6_output", 349, 13, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_ip6_finish_output, "ip6_finish_output", 820, 15, NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_ip6_finish_output2, "ip6_finish_output2", 1644, 15, NS_FN_STATIC, 2);
NS_FUNC (ip_fn_ipv6_rcv, "ipv6_rcv", 419, 9, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_ip6_rcv_core, "ip6_rcv_core", 1306, 11, NS_FN_STATIC, 2);
/* ip6_rcv_finish: global (NF_HOOK's okfn), but its call in ipv6_rcv is inlined in the
 * binary (census), as ip_rcv_finish is in ip_rcv: modelled as the one-site fold. */
static NS_FUNC (fn_ip6_rcv_finish, "ip6_rcv_finish", 163, 5, NS_FN_STATIC, 1);
/* ip6_rcv_finish_core: static, two callers (ipv6_rcv, ip6_list_rcv_finish), out of line
 * (.constprop.0 in the binary). */
static NS_FUNC (fn_ip6_rcv_finish_core, "ip6_rcv_finish_core", 200, 3, NS_FN_STATIC, 2);
NS_FUNC (ip_fn_ip6_input, "ip6_input", 219, 9, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_ip6_input_finish, "ip6_input_finish", 90, 5, NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_ip6_protocol_deliver_rcu, "ip6_protocol_deliver_rcu", 1273, 15,
                NS_FN_EXTERN, 2);
static NS_FUNC (fn_raw6_local_deliver, "raw6_local_deliver", 566, 15, NS_FN_EXTERN, 1);

/* ---- routes ---- */

/* ipv4_dst_check: the route is still current if obsolete is DST_OBSOLETE_FORCE_CHK and
 * its genid matches the netns' (rt_is_expired). */
static void
ipv4_dst_check (NsThread *t, struct dst_entry *dst)
{
  ns_call (t, &fn_ipv4_dst_check);
  NS_LOAD_FIELD (t, dst, obsolete);
  NS_LOAD_FIELD (t, dst, rt_genid);
  /* census: 12 instructions less the two calls 6.9 does not make — 10 (obsolete test,
   * the genid compare). The 6.1.176 binary wraps the genid read in rcu_read_lock (the
   * 2025 dev_net_rcu backport); 6.9's rt_is_expired reads dev_net without RCU. */
  ns_insns (t, 10);
  ns_ret (t);
}

/* ip6_dst_check: rt->sernum 0 (the local route has no nexthop object), so under
 * rcu_read_lock the per-CPU copy is checked against its fib6_info (rt6_dst_from_check
 * inlined: no RTF_EXPIRES, obsolete FORCE_CHK, the fib6 node's sernum equal to the
 * socket's dst_cookie, the fib6_info not expiring). */
static void
ip6_dst_check (NsThread *t, NsNetStack *s, struct dst_entry *dst)
{
  ns_call (t, &fn_ip6_dst_check);
  /* census (send6.md): 35 instructions less P/E 9 — 26: 6 (the sernum test, the cookie) */
  ns_insns (t, 6);
  ns_rcu_read_lock (t, s);
  NS_LOAD_FIELD (t, dst, obsolete);
  NS_LOAD_FIELD (t, dst, rt_genid);  /* model: the fib6 sernum behind the cookie */
  /* census: 19 instructions (rt->from, RTF_PCPU, the expiry flag, obsolete, the cookie
   * compare, the fib6_info's expiry flag) */
  ns_insns (t, 19);
  ns_rcu_read_unlock (t, s);
  ns_insns (t, 1);                  /* census: 1 instruction (the result) */
  ns_ret (t);
}

/* sk_dst_check: sk_dst_get (rcu_read_lock, the cached route, a reference taken,
 * rcu_read_unlock), then dst->ops->check through INDIRECT_CALL_INET (ipv4_dst_check /
 * ip6_dst_check: direct calls); NULL if none is cached. */
struct dst_entry *
sk_dst_check (NsThread *t, NsNetStack *s, struct sock *sk)
{
  struct dst_entry *dst = sk->sk_dst_cache;

  ns_call (t, &fn_sk_dst_check);
  ns_insns (t, 4);                  /* census: 4 instructions (arguments) */
  ns_rcu_read_lock (t, s);
  NS_LOAD_FIELD (t, sk, sk_dst_cache);
  if (dst != NULL) {
    ns_atomic (t, &dst->__rcuref);
    dst->__rcuref++;
  }
  /* census: 10 instructions (the route pointer, the reference: 6.1 counts a lock cmpxchg
   * loop of one pass, 6.9's rcuref_get is a lock xadd) */
  ns_insns (t, 10);
  ns_rcu_read_unlock (t, s);
  if (dst == NULL)
    goto out;
  NS_LOAD_FIELD (t, dst, obsolete);
  NS_LOAD_FIELD (t, dst, ops);
  if (dst == s->rt_lo6) {
    /* census (send6.md): 5 instructions (obsolete test, the ops->check compare with
     * ip6_dst_check: the first, so no jump back) */
    ns_insns (t, 5);
    ip6_dst_check (t, s, dst);
  } else {
    /* census: 8 instructions (obsolete test, the ops->check compare with ip6_dst_check
     * then ipv4_dst_check) */
    ns_insns (t, 8);
    ipv4_dst_check (t, dst);
  }
  ns_insns (t, 6);                  /* census: 6 instructions (the result test, return) */
out:
  ns_ret (t);
  return dst;
}

/* dst_release: rcuref_put of the route's reference; a NULL dst returns at once (the
 * callers' ip_rt_put and ip_cork_release pass NULL once the skb owns the route). */
void
dst_release (NsThread *t, struct dst_entry *dst)
{
  ns_call (t, &fn_dst_release);
  if (dst == NULL) {
    ns_insns (t, 2);                /* census: 5 instructions less 3 of return: the test */
    ns_ret (t);
    return;
  }
  /* census (doc/census/seed000/receive.md, ipv4_pktinfo_prepare's dst_release): 15
   * instructions less 7 of prologue and return — 8 (the lock xadd and its result test:
   * the count stays above zero) */
  ns_insns (t, 8);
  ns_atomic (t, &dst->__rcuref);
  dst->__rcuref--;
  ns_ret (t);
}

/* ipv4_mtu (dst_mtu through INDIRECT_CALL_INET: a direct call): rt_pmtu 0, no MTU
 * metric, so the device's MTU capped at IP_MAX_MTU, less no lwtunnel headroom. */
static guint
ipv4_mtu (NsThread *t, struct dst_entry *dst)
{
  ns_call (t, &fn_ipv4_mtu);
  NS_LOAD_FIELD (t, dst, rt_mtu);
  NS_LOAD_FIELD (t, dst, _metrics);
  NS_LOAD_FIELD (t, dst, dev);
  NS_LOAD_FIELD (t, dst->dev, mtu);
  /* census: 22 instructions (rt_pmtu, the metric, dev->mtu, the lock test, the cap, the
   * lwtunnel test) */
  ns_insns (t, 22);
  ns_ret (t);
  return MIN (dst->dev->mtu, 65535u);
}

/* ---- output: building the skb ---- */

/* kfree(NULL) of ip_cork_release: the ZERO_OR_NULL_PTR test returns. */
static void
kfree_null (NsThread *t)
{
  ns_call (t, &skb_fn_kfree);
  ns_insns (t, 5);                  /* census: 10 instructions less 5 of prologue and return */
  ns_ret (t);
}

/* alloc_skb_with_frags(size, data_len 0): no page frags, so alloc_skb → __alloc_skb
 * (skbuff.c's). */
static struct sk_buff *
alloc_skb_with_frags (NsThread *t, NsNetStack *s, guint size)
{
  struct sk_buff *skb;

  ns_call (t, &fn_alloc_skb_with_frags);
  /* census: 18 instructions (npages 0 against MAX_SKB_FRAGS, errcode, the arguments) */
  ns_insns (t, 18);
  skb = __alloc_skb (t, s->alloc, size, GFP_KERNEL);
  ns_insns (t, 6);                  /* census: 6 instructions (skb test, no frag loop) */
  ns_ret (t);
  return skb;
}

/* skb_set_owner_w: skb_orphan of a fresh skb, the full socket's sock_wfree destructor,
 * the txhash (skb_set_hash_from_sk: charged, not stored; nothing on the modelled path
 * reads skb->hash but the IPv6 flow label, which so comes out 0), truesize added to
 * sk_wmem_alloc (a lock xadd). */
static void
skb_set_owner_w (NsThread *t, struct sk_buff *skb, struct sock *sk)
{
  ns_call (t, &fn_skb_set_owner_w);
  skb->sk = sk;
  skb->destructor = sk;         /* model: non-NULL = sock_wfree */
  NS_STORE_FIELD (t, skb, sk);
  NS_STORE_FIELD (t, skb, destructor);
  ns_atomic (t, &sk->sk_wmem_alloc);
  sk->sk_wmem_alloc += skb->truesize;
  /* census: 30 instructions (old destructor and sk tests, sk_fullsock, the hash from
   * sk_txhash, the refcount_add) */
  ns_insns (t, 30);
  ns_ret (t);
}

/* sock_def_write_space_wfree (v6.9 net/core/sock.c, inline in sock_wfree): once
 * sock_writeable (sk_wmem_alloc < sk_sndbuf >> 1), smp_mb__after_atomic (a compiler
 * barrier on x86) and, if the wait queue is active (waitqueue_active), wake it with
 * EPOLLOUT | EPOLLWRNORM | EPOLLWRBAND; sk_wake_async_rcu: no FASYNC. */
static void
sock_def_write_space_wfree (NsThread *t, NsNetStack *s, struct sock *sk)
{
  struct socket *sock = sk->sk_socket;

  NS_LOAD_FIELD (t, sk, sk_wq);
  /* census (with sock_wfree's tail): sock_writeable, rcu_dereference(sk_wq), the
   * waitqueue_active test, sk_wake_async's flags test */
  ns_insns (t, 33);
  if ((gint) sk->sk_wmem_alloc < (sk->sk_sndbuf >> 1) && sk->sk_wq != NULL && sock != NULL) {
    ns_load (t, sock->wq.head, sizeof sock->wq.head);       /* waitqueue_active */
    if (!g_queue_is_empty (&sock->waiters)) {
      ns_insns (t, 3);              /* the wake-up's arguments (as sock_def_readable) */
      __wake_up_sync_key (t, s, sock, EPOLLOUT | EPOLLWRNORM | EPOLLWRBAND);
    }
  }
}

/* sock_wfree (v6.9 net/core/sock.c), called through skb->destructor (skb_orphan, or
 * skb_release_head_state when a socket-owned skb is freed): no SOCK_USE_WRITE_QUEUE;
 * SOCK_RCU_FREE (UDP) with the default sk_write_space, so under RCU the lock xadd of
 * -truesize on sk_wmem_alloc (not the last reference) and sock_def_write_space_wfree. */
void
sock_wfree (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  struct sock *sk = skb->sk;

  ns_icall (t, &fn_sock_wfree);
  /* census: 60, P/E 13 — 47: SOCK_RCU_FREE and the default write_space, under RCU the
   * lock xadd of -truesize (not the last reference), sock_writeable, no sleeper, no
   * FASYNC */
  ns_insns (t, 14);
  ns_rcu_read_lock (t, s);
  ns_atomic (t, &sk->sk_wmem_alloc);
  sk->sk_wmem_alloc -= skb->truesize;
  sock_def_write_space_wfree (t, s, sk);
  ns_rcu_read_unlock (t, s);
  ns_ret (t);
}

/* sock_alloc_send_pskb (blocking, data_len 0): sndtimeo, sk_err and SEND_SHUTDOWN tests,
 * wmem_alloc below sk_sndbuf, alloc_skb_with_frags, skb_set_owner_w. */
static struct sk_buff *
sock_alloc_send_pskb (NsThread *t, NsNetStack *s, struct sock *sk, guint size)
{
  struct sk_buff *skb;

  ns_call (t, &fn_sock_alloc_send_pskb);
  NS_LOAD_FIELD (t, sk, sk_err);
  NS_LOAD_FIELD (t, sk, sk_wmem_alloc);
  NS_LOAD_FIELD (t, sk, sk_sndbuf);
  /* census: 30 instructions (timeo, the error and shutdown tests, the wmem test, the
   * arguments) */
  ns_insns (t, 30);
  skb = alloc_skb_with_frags (t, s, size);
  ns_insns (t, 5);                  /* census: 5 instructions (skb test, arguments) */
  skb_set_owner_w (t, skb, sk);
  ns_insns (t, 8);                  /* census: 8 instructions (return) */
  ns_ret (t);
  return skb;
}

/* getfrag = ip_generic_getfrag (through the pointer): CHECKSUM_PARTIAL, so
 * copy_from_iter_full: check_copy_size (__check_object_size), _copy_from_iter. */
static void
ip_generic_getfrag (NsThread *t, NsNetStack *s, guchar *to, const guchar *ubuf, gsize len)
{
  ns_icall (t, &fn_ip_generic_getfrag);
  ns_insns (t, 14);                 /* census: 14 instructions (ip_summed test, arguments) */
  ns_check_object_size (t, s, to, len);
  ns_insns (t, 4);                  /* census: 4 instructions (arguments) */
  ns_copy_from_iter (t, s->copy_user_path, to, ubuf, len);
  ns_insns (t, 8);                  /* census: 8 instructions (copied == len, return) */
  ns_ret (t);
}

/* The body instructions of __ip_append_data or __ip6_append_data around its three calls. */
typedef struct {
  NsFunc *fn;
  NsFunc *local_error;      /* ip_local_error / ipv6_local_error */
  guint   max_len;          /* maxnonfragsize - fragheaderlen: the UDP datagram's limit */
  guint   fragheaderlen;
  guint   alloc_extra;      /* beyond hh_len: IPv4 15 (alignment), IPv6 sizeof(frag_hdr) */
  guint   reserve_extra;    /* headroom beyond hh_len: IPv4 0, IPv6 sizeof(frag_hdr) */
  guint   before_alloc;     /* to the call of sock_alloc_send_pskb */
  guint   before_put;       /* to the call of skb_put */
  guint   before_getfrag;   /* to the getfrag call */
  guint   after_getfrag;    /* the enqueue and the loop's end */
} AppendDataCounts;

/* __ip_append_data (census: send.md, 258 instructions less P/E 17): exthdrlen, mtu and
 * maxfraglen, ignore_df, the size tests, csummode with NETIF_F_HW_CSUM, zerocopy and
 * tstamp tests, alloc_new_skb's length arithmetic (118); skb fields and skb_reserve (12);
 * headers, fraggap 0, copy length, the getfrag arguments (45); no uarg, no MSG_CONFIRM,
 * the destructor already set, the enqueue on the cork queue, the loop's end,
 * wmem_alloc_delta 0 (66). */
static const AppendDataCounts ip_append_counts = {
  &fn___ip_append_data, &fn_ip_local_error, 65535 - IPV4_HLEN, IPV4_HLEN, 15, 0, 118, 12,
  45, 66
};

/* __ip6_append_data.isra.0 (census: send6.md, 340 instructions less P/E 17): the same
 * decisions with IPv6's header chain (no options, no dst_allfrag), ip6_sk_ignore_df, the
 * CHECKSUM_PARTIAL test on headersize 40, ip6_append_data_mtu inlined (213); protocol,
 * ip_summed, skb_reserve (29); the header offsets, fraggap 0, the getfrag arguments (28);
 * tx_flags and tskey, no uarg, no MSG_CONFIRM, the destructor already set, the enqueue,
 * the loop's end, wmem_alloc_delta 0, the stack protector (53). */
static const AppendDataCounts ip6_append_counts = {
  &fn___ip6_append_data, &fn_ipv6_local_error, IPV6_HLEN + 65535 - IPV6_HLEN, IPV6_HLEN,
  8, 8, 213, 29, 28, 53
};

/* sk_page_frag_refill (net/core/sock.c) of sk_page_frag(sk): the task's page fragment
 * (sk_use_task_frag), refilled for at least 32 bytes. */
static void
sk_page_frag_refill (NsThread *t, NsNetStack *s, struct sock *sk, struct page_frag *pfrag)
{
  ns_call (t, &fn_sk_page_frag_refill);
  NS_LOAD_FIELD (t, sk, sk_allocation);
  ns_insns (t, 3);                  /* estimate: the arguments */
  skb_page_frag_refill (t, s->alloc, 32, pfrag);
  ns_insns (t, 2);                  /* estimate: the result test (always true here) */
  ns_ret (t);
}

/* The rest of the __ip_append_data / __ip6_append_data loop for a paged skb (lo has
 * NETIF_F_SG): each pass refills the task's page fragment, starts a new frag unless
 * skb_can_coalesce (same page, contiguous), copies what fits through getfrag into
 * page_address + offset, and adds it to the frag, to len, data_len and truesize
 * (skb_len_add) and to wmem_alloc_delta, which goes into sk_wmem_alloc at the end. */
static void
append_paged (NsThread *t, NsNetStack *s, struct sock *sk, struct sk_buff *skb,
              const guchar *ubuf, gsize len)
{
  struct page_frag *pfrag = ns_netstack_task_frag (s, ns_thread_cpu (t));
  struct skb_shared_info *shinfo = skb_shinfo (skb);
  guint wmem_alloc_delta = 0;
  gsize offset = 0;

  NS_LOAD_FIELD (t, sk, sk_use_task_frag);
  while (offset < len) {
    guint copy = (guint) (len - offset);
    skb_frag_t *last = shinfo->nr_frags ? &shinfo->frags[shinfo->nr_frags - 1] : NULL;

    /* estimate: 20 instructions (copy against mtu - skb->len and length, the SG and
     * zerocopy tests) */
    ns_insns (t, 20);
    sk_page_frag_refill (t, s, sk, pfrag);
    NS_LOAD_FIELD (t, shinfo, nr_frags);
    ns_insns (t, 6);                /* estimate: skb_can_coalesce */
    if (last == NULL || last->bv_page != pfrag->page ||
        last->bv_offset + last->bv_len != pfrag->offset) {
      g_return_if_fail (shinfo->nr_frags < MAX_SKB_FRAGS);
      last = &shinfo->frags[shinfo->nr_frags++];
      last->bv_page = pfrag->page;
      last->bv_offset = pfrag->offset;
      last->bv_len = 0;
      ns_store (t, last, sizeof *last);
      NS_STORE_FIELD (t, shinfo, nr_frags);
      get_page (t, pfrag->page);
    }
    copy = MIN (copy, pfrag->size - pfrag->offset);
    ip_generic_getfrag (t, s, ns_page_address (s->alloc, pfrag->page) + pfrag->offset,
                        ubuf + offset, copy);
    pfrag->offset += copy;
    last->bv_len += copy;
    skb->len += copy;
    skb->data_len += copy;
    skb->truesize += copy;
    wmem_alloc_delta += copy;
    offset += copy;
    NS_STORE_FIELD (t, pfrag, offset);
    NS_STORE_FIELD (t, last, bv_len);
    NS_STORE_FIELD (t, skb, len);
    NS_STORE_FIELD (t, skb, data_len);
    NS_STORE_FIELD (t, skb, truesize);
    ns_insns (t, 12);               /* estimate: the adds, offset and length, the loop */
  }
  ns_atomic (t, &sk->sk_wmem_alloc);
  sk->sk_wmem_alloc += wmem_alloc_delta;
}

/* __ip_append_data / __ip6_append_data for one datagram: NULL (-EMSGSIZE) when the UDP
 * datagram exceeds maxnonfragsize less the IP header — IP_MAX_MTU for IPv4,
 * sizeof(ipv6hdr) + IPV6_MAXPLEN for IPv6, both sockets ignoring DF under
 * IP_PMTUDISC_WANT — after ip_local_error / ipv6_local_error, which return at once without
 * IP_RECVERR / IPV6_RECVERR. Else one skb: linear when fraglen + alloc_extra <
 * SKB_MAX_ALLOC (the whole datagram after the link-layer room), else — lo has
 * NETIF_F_SG — a head for the headers and the payload in page fragments (append_paged);
 * reserve the link-layer room, skb_put the linear part, set the headers' offsets, copy
 * the payload. The model does not fragment: an IPv6 datagram above
 * NS_UDPV6_LO_MAX_UNFRAGMENTED, which the kernel splits at lo's MTU, is refused by the
 * workloads (udp_tx.h). The census counted the linear path; the paged path's other work
 * is append_paged's estimates. */
static struct sk_buff *
append_data (NsThread *t, NsNetStack *s, struct sock *sk, const guchar *ubuf, gsize len,
             const AppendDataCounts *c)
{
  const guint hh_len = 16;      /* LL_RESERVED_SPACE(lo) = ((14 + 0) & ~15) + 16 */
  const guint fragheaderlen = c->fragheaderlen;
  const guint fraglen = fragheaderlen + UDP_HLEN + (guint) len;
  const guint alloc_extra = hh_len + c->alloc_extra;
  guint pagedlen = 0, alloclen = fraglen;
  struct sk_buff *skb;

  ns_call (t, c->fn);
  NS_LOAD_FIELD (t, sk, sk_tsflags);
  if (UDP_HLEN + len > c->max_len) {
    /* estimate: 40 instructions (exthdrlen, mtu, maxfraglen, ignore_df, the size test,
     * the local error's arguments) */
    ns_insns (t, 40);
    ns_call (t, c->local_error);
    NS_LOAD_FIELD (t, inet_sk (sk), inet_flags);
    ns_insns (t, 3);                /* estimate: the RECVERR test */
    ns_ret (t);
    ns_ret (t);
    return NULL;
  }
  NS_LOAD_FIELD (t, s->lo, features);
  ns_insns (t, c->before_alloc);    /* census (see the counts' comment) */
  if (fraglen + alloc_extra >= SKB_MAX_ALLOC) {
    alloclen = fragheaderlen + UDP_HLEN;
    pagedlen = (guint) len;
  }
  skb = sock_alloc_send_pskb (t, s, sk, alloclen + alloc_extra);
  skb->ip_summed = CHECKSUM_PARTIAL;
  skb->csum = 0;
  skb_reserve (skb, hh_len + c->reserve_extra);   /* IPv6: + frag_hdr + dst_exthdrlen 0 */
  NS_STORE_FIELD (t, skb, ip_summed);
  NS_STORE_FIELD (t, skb, csum);
  ns_insns (t, c->before_put);      /* census */
  skb_put (t, skb, fraglen - pagedlen);
  skb_reset_network_header (skb);
  skb->transport_header = skb->network_header + fragheaderlen;
  NS_STORE_FIELD (t, skb, data);
  NS_STORE_FIELD (t, skb, network_header);
  NS_STORE_FIELD (t, skb, transport_header);
  ns_insns (t, c->before_getfrag);  /* census */
  if (pagedlen == 0)
    ip_generic_getfrag (t, s, skb->data + fragheaderlen + UDP_HLEN, ubuf, len);
  else
    append_paged (t, s, sk, skb, ubuf, len);
  ns_insns (t, c->after_getfrag);   /* census */
  ns_ret (t);
  return skb;
}

/* ip_setup_cork: no options; fragsize = dst_mtu (ipv4_mtu) as pmtudisc is WANT; gso
 * size, ttl, tos, mark, tstamp flags; the route moves into the cork. */
static void
ip_setup_cork (NsThread *t, struct sock *sk, struct dst_entry *rt)
{
  ns_call (t, &fn_ip_setup_cork);
  NS_LOAD_FIELD (t, inet_sk (sk), pmtudisc);
  ns_insns (t, 20);                 /* census: 20 instructions (opt, pmtudisc test) */
  ipv4_mtu (t, rt);
  ns_store (t, inet_sk (sk)->cork, 64);
  /* census: 27 instructions (mtu ≥ 68, fragsize, gso_size, the cork's dst, ttl, tos,
   * priority, mark, tsflags) */
  ns_insns (t, 27);
  ns_ret (t);
}

/* ip_cork_release (inlined in __ip_make_skb): kfree(cork->opt), NULL (no options), and
 * dst_release(cork->dst): NULL once the skb took the route, the route itself when
 * __ip_append_data refused the datagram; both calls are made. */
static void
ip_cork_release (NsThread *t, struct dst_entry *cork_dst)
{
  kfree_null (t);
  ns_insns (t, 4);                  /* census: 4 instructions (clearing opt, argument) */
  dst_release (t, cork_dst);
}

/* __ip_make_skb of a one-skb queue: the IPv4 header (DF from ip_dont_fragment's dst_mtu,
 * ttl, tos, ip_select_ident's atomic per-socket id, addresses), priority and mark, the
 * route into the skb, ip_cork_release. */
static void
__ip_make_skb (NsThread *t, struct sock *sk, struct sk_buff *skb, struct dst_entry *rt)
{
  NsIphdr *iph = (NsIphdr *) skb_network_header (skb);

  ns_call (t, &fn___ip_make_skb);
  /* census: 60 instructions (dequeue, no frag list, ignore_df, pmtudisc test) */
  ns_insns (t, 60);
  ipv4_mtu (t, rt);
  iph->ver_ihl = 0x45;
  iph->ttl = 64;
  iph->protocol = IPPROTO_UDP_NUM;
  iph->saddr = inet_sk (sk)->inet_saddr;
  iph->daddr = sk->sk_daddr;
  ns_store (t, iph, sizeof *iph);
  ns_atomic (t, &inet_sk (sk)->inet_id);
  inet_sk (sk)->inet_id++;
  skb->_skb_refdst = rt;
  skb->priority = sk->sk_priority;
  NS_LOAD_FIELD (t, sk, sk_priority);
  NS_STORE_FIELD (t, skb, _skb_refdst);
  NS_STORE_FIELD (t, skb, priority);
  NS_STORE_FIELD (t, skb, mark);
  /* census: 200 less P/E 17 = 183 in all, less the two calls 6.9 does not make = 181:
   * 60 above, 4 in ip_cork_release, 6 at the return, so 111 here (the split: estimate;
   * until 2026-12-01 109, the comment's split having left 2 out) (DF, no options,
   * ip_select_ttl: the hop-limit metric 0 so sysctl_ip_default_ttl, tos, the inet_id lock
   * xadd, priority, mark, skb_dst_set, the ICMP test). The 6.1.176 binary wraps the
   * sysctl read in rcu_read_lock (ip4_dst_hoplimit's 2025 backport); 6.9 does not. */
  ns_insns (t, 111);
  ip_cork_release (t, NULL);
  ns_insns (t, 6);                  /* census: 6 instructions (return) */
  ns_ret (t);
}

/* ip_make_skb: a private cork and queue, ip_setup_cork, __ip_append_data, __ip_make_skb
 * (the route moves into the skb); a refused datagram's __ip_flush_pending_frames (an
 * empty queue) releases the cork and its route. */
struct sk_buff *
ip_make_skb (NsThread *t, NsNetStack *s, struct sock *sk, struct dst_entry *rt,
             const guchar *ubuf, gsize len, gint *err)
{
  struct sk_buff *skb;

  g_return_val_if_fail (t != NULL && s != NULL && sk != NULL && err != NULL, NULL);
  ns_call (t, &fn_ip_make_skb);
  /* census: 25 instructions (MSG_PROBE, queue head init, cork flags and addr) */
  ns_insns (t, 25);
  ns_load (t, inet_sk (sk)->cork, 64);
  ip_setup_cork (t, sk, rt);
  ns_insns (t, 15);                 /* census: 15 instructions (the error test, arguments) */
  skb = append_data (t, s, sk, ubuf, len, &ip_append_counts);
  ns_insns (t, 10);                 /* census: 10 instructions (the error test, arguments) */
  if (skb == NULL) {
    ip_cork_release (t, rt);        /* __ip_flush_pending_frames */
    ns_ret (t);
    *err = -EMSGSIZE;
    return NULL;
  }
  __ip_make_skb (t, sk, skb, rt);
  ns_insns (t, 5);                  /* census: 5 instructions (return) */
  ns_ret (t);
  return skb;
}

/* IPv6 output. Counts: the census of the Debian 6.1.176 binary
 * (doc/census/seed000/send6.md) as body instructions, each function's total less its
 * prologue, epilogue and return. 6.9-rc1 differs from it in ip6_send_skb (below). */

/* A route's inet6_dev setting when the route has no metric for it (ip6_mtu's mtu6,
 * ip6_dst_hoplimit's hop_limit): __in6_dev_get(dst->dev) under rcu_read_lock; fn's body
 * is before + inside + after instructions. */
static void
ip6_idev_setting (NsThread *t, NsNetStack *s, NsFunc *fn, struct dst_entry *dst,
                  guint before, guint inside, guint after)
{
  ns_call (t, fn);
  NS_LOAD_FIELD (t, dst, _metrics);
  ns_insns (t, before);
  ns_rcu_read_lock (t, s);
  NS_LOAD_FIELD (t, dst, dev);
  ns_insns (t, inside);
  ns_rcu_read_unlock (t, s);
  ns_insns (t, after);
  ns_ret (t);
}

/* ip6_mtu (dst_mtu through INDIRECT_CALL_INET: a direct call) →
 * ip6_dst_mtu_maybe_forward: no MTU metric, so the inet6_dev's mtu6; no lwtunnel
 * headroom. Census: 25 instructions less P/E 7 — 18: 7 (the metric 0, IPV6_MIN_MTU), 7
 * (__in6_dev_get, cnf.mtu6), 4 (the lwtunnel test). */
static void
ip6_mtu (NsThread *t, NsNetStack *s, struct dst_entry *dst)
{
  ip6_idev_setting (t, s, &fn_ip6_mtu, dst, 7, 7, 4);
}

/* ip6_dst_hoplimit; see ip.h. Census: 18 instructions less P/E 5 — 13: 7 (the metric,
 * the device), 5 (__in6_dev_get, cnf.hop_limit), 1 (the result). */
void
ip6_dst_hoplimit (NsThread *t, NsNetStack *s, struct dst_entry *dst)
{
  g_return_if_fail (t != NULL && s != NULL && dst != NULL);
  ip6_idev_setting (t, s, &fn_ip6_dst_hoplimit, dst, 7, 5, 1);
}

/* ip6_setup_cork: no options to duplicate; hop limit, tclass; not an xfrm tunnel, pmtudisc
 * WANT, so fragsize = dst_mtu of the route (ip6_mtu); gso size, priority, mark, no
 * tstamp flags, no ALLFRAG; the route moves into the cork. */
static void
ip6_setup_cork (NsThread *t, NsNetStack *s, struct sock *sk, struct dst_entry *rt)
{
  ns_call (t, &fn_ip6_setup_cork);
  NS_LOAD_FIELD (t, inet_sk (sk), pmtudisc);
  NS_LOAD_FIELD (t, rt, dev);
  /* census: 87 instructions less P/E 17 — 70: 40 (the opt test, hop limit, tclass, the
   * DST_XFRM_TUNNEL and pmtudisc tests, xfrm_dst_path, the dst_mtu compare) */
  ns_insns (t, 40);
  ip6_mtu (t, s, rt);
  ns_store (t, inet_sk (sk)->cork, 64);
  /* census: 30 instructions (np->frag_size, fragsize, gso_size, priority, mark, the
   * tsflags and SOCK_WIFI_STATUS tests, the ALLFRAG feature, the cork's dst) */
  ns_insns (t, 30);
  ns_ret (t);
}

/* ip6_cork_release: no options to free; the cork's route is NULL once the skb stole it
 * (ip6_cork_steal_dst), so no call, or the route itself when __ip6_append_data refused
 * the datagram: dst_release. */
static void
ip6_cork_release (NsThread *t, struct dst_entry *cork_dst)
{
  ns_call (t, &fn_ip6_cork_release);
  /* census: 16 instructions less P/E 9 — 7 (the opt and dst tests) */
  ns_insns (t, 7);
  if (cork_dst != NULL)
    dst_release (t, cork_dst);
  ns_ret (t);
}

/* __ip6_make_skb of a one-skb queue: dequeue, ignore_df, no extension headers, the
 * network header pulled and pushed back (skb_push), the 40-byte header: the auto flow
 * label (ip6_make_flowlabel: the skb's l4 hash from sk_txhash, rotated), tclass, payload
 * protocol, hop limit, addresses; priority, mark, tstamp; ip6_cork_steal_dst (the cork's
 * route reference moves into the skb: no dst_clone), IP6_UPD_PO_STATS, ip6_cork_release. */
static void
__ip6_make_skb (NsThread *t, NsNetStack *s, struct sock *sk, struct sk_buff *skb,
                struct dst_entry *rt)
{
  struct softnet_data *sd = s->sd[ns_thread_cpu (t)];
  NsIpv6hdr *ip6h;

  ns_call (t, &fn___ip6_make_skb);
  /* census: 192 instructions less P/E 18 — 174: 83 (dequeue, data at the network header,
   * no frag list, ip6_sk_ignore_df, the opt test, __skb_pull of the network header, the
   * stack protector) */
  ns_insns (t, 83);
  __skb_pull (skb, IPV6_HLEN);
  skb_push (t, skb, IPV6_HLEN);
  skb_reset_network_header (skb);
  ip6h = (NsIpv6hdr *) skb_network_header (skb);
  ip6h->ver_tc_flow = GUINT32_TO_BE (0x60000000 | (skb->hash & 0xfffff));
  ip6h->nexthdr = IPPROTO_UDP_NUM;
  ip6h->hop_limit = 64;
  ip6h->saddr = sk->sk_v6_rcv_saddr;
  ip6h->daddr = sk->sk_v6_daddr;
  NS_LOAD_FIELD (t, skb, hash);
  ns_store (t, ip6h, sizeof *ip6h);
  skb->_skb_refdst = rt;
  skb->priority = sk->sk_priority;
  NS_LOAD_FIELD (t, sk, sk_priority);
  NS_STORE_FIELD (t, skb, _skb_refdst);
  NS_STORE_FIELD (t, skb, priority);
  NS_STORE_FIELD (t, skb, mark);
  ns_mib_inc (t, &sd->ip_mib[NS_IPSTATS6_OUT]);   /* IP6_UPD_PO_STATS(OUT) */
  /* census: 86 instructions (the network header, ip6_autoflowlabel and
   * ip6_make_flowlabel on skb->hash, ip6_flow_hdr, addresses, priority, mark, tstamp,
   * ip6_cork_steal_dst and skb_dst_set, the idev's and the netns' OUT counters, the
   * ICMPv6 test) */
  ns_insns (t, 86);
  ip6_cork_release (t, NULL);
  ns_insns (t, 5);                  /* census: 5 instructions (return) */
  ns_ret (t);
}

/* ip6_make_skb: a private cork and queue, ip6_setup_cork, __ip6_append_data,
 * __ip6_make_skb (the route moves into the skb); a refused datagram's
 * __ip6_flush_pending_frames (an empty queue) releases the cork and its route. */
struct sk_buff *
ip6_make_skb (NsThread *t, NsNetStack *s, struct sock *sk, struct dst_entry *rt,
              const guchar *ubuf, gsize len, gint *err)
{
  struct sk_buff *skb;

  g_return_val_if_fail (t != NULL && s != NULL && sk != NULL && err != NULL, NULL);
  ns_call (t, &fn_ip6_make_skb);
  /* census: 108 instructions less P/E 24 — 84: 37 (the stack protector, ipc6->opt, no
   * MSG_PROBE, queue and cork init, the arguments) */
  ns_insns (t, 37);
  ns_load (t, inet_sk (sk)->cork, 64);
  ip6_setup_cork (t, s, sk, rt);
  /* census: 35 instructions (the error test, dontfrag -1 so np's, the arguments) */
  ns_insns (t, 35);
  skb = append_data (t, s, sk, ubuf, len, &ip6_append_counts);
  ns_insns (t, 9);                  /* census: 9 instructions (the error test, arguments) */
  if (skb == NULL) {
    ip6_cork_release (t, rt);       /* __ip6_flush_pending_frames */
    ns_ret (t);
    *err = -EMSGSIZE;
    return NULL;
  }
  __ip6_make_skb (t, s, sk, skb, rt);
  ns_insns (t, 3);                  /* census: 3 instructions (the stack protector) */
  ns_ret (t);
  return skb;
}

/* ---- output: down to the device ---- */

/* neigh_output → neigh_hh_output: the cached 16-byte (14 used) hardware header copied in
 * front of the network header under the hh seqlock, then dev_queue_xmit (the inline
 * wrapper: a call of __dev_queue_xmit(skb, NULL)). */
static gint
neigh_hh_output (NsThread *t, NsNetStack *s, struct neighbour *n, struct sk_buff *skb)
{
  /* census (part of ip_finish_output2's): 20 instructions (seqcount read of one pass,
   * the 16-byte copy, skb_push) */
  ns_insns (t, 20);
  NS_LOAD_FIELD (t, n, nud_state);
  NS_LOAD_FIELD (t, n, hh_lock);
  ns_load (t, n->hh_data, 16);
  __skb_push (skb, ETH_HLEN);
  ns_store (t, skb->data, ETH_HLEN);
  NS_STORE_FIELD (t, skb, data);
  NS_STORE_FIELD (t, skb, len);
  return dev_queue_xmit (t, &s->dev_core, skb);
}

/* The neighbour step of ip_finish_output2 / ip6_finish_output2, under rcu_read_lock:
 * __ipv4_neigh_lookup_noref / __ipv6_neigh_lookup_noref (the hash bucket, then the entry
 * n, each load waiting for the one before; lookup_insns for the hashing and the walk),
 * then neigh_output. Plain rcu_read_lock in the 6.1.176 binary and in 6.9 alike: the
 * neighbour code moved from rcu_bh to standard RCU in v6.4 (09eed1192cec, "neighbour:
 * switch to standard rcu, instead of rcu_bh", net-next March 2023; in the 6.1 stable
 * series since October 2023). */
static gint
neigh_lookup_output (NsThread *t, NsNetStack *s, struct neighbour *n, struct sk_buff *skb,
                     guint lookup_insns)
{
  gint rc;

  ns_rcu_read_lock (t, s);
  ns_insns (t, lookup_insns);
  ns_load_dep (t, s->arp_hash, 8);
  ns_load_dep (t, n, 64);
  rc = neigh_hh_output (t, s, n, skb);
  ns_rcu_read_unlock (t, s);
  return rc;
}

/* ip_finish_output2: not multicast or broadcast, headroom enough, no lwtunnel; the
 * neighbour of the local route (ARP table, key 0 on lo) and its cached header. */
static gint
ip_finish_output2 (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  struct dst_entry *dst = skb_dst (skb);
  gint rc;

  ns_tail_call (t, &fn_ip_finish_output2);   /* __ip_finish_output's tail jmp */
  NS_LOAD_FIELD (t, dst, rt_type);
  NS_LOAD_FIELD (t, dst, rt_uses_gateway);
  /* census: 35 instructions (rt_type tests, LL_RESERVED_SPACE and the headroom test,
   * the lwtunnel test) */
  ns_insns (t, 35);
  /* census: 40 instructions (rt_nexthop, arp_hashfn, the bucket's first entry matches,
   * sock_confirm_neigh, neigh_output's NUD_CONNECTED and hh_len tests) */
  rc = neigh_lookup_output (t, s, s->neigh_lo4, skb, 40);
  ns_insns (t, 13);                 /* census: 13 instructions (return) */
  ns_ret (t);
  return rc;
}

/* ip_skb_dst_mtu (an inline GCC keeps out of line; no fentry): pmtudisc WANT →
 * ip_dst_mtu_maybe_forward: rt_pmtu 0, no metric, dev->mtu. */
static void
ip_skb_dst_mtu (NsThread *t, struct sk_buff *skb)
{
  struct dst_entry *dst = skb_dst (skb);

  ns_call (t, &fn_ip_skb_dst_mtu);
  NS_LOAD_FIELD (t, skb, sk);
  NS_LOAD_FIELD (t, dst, rt_mtu);
  NS_LOAD_FIELD (t, dst->dev, mtu);
  /* census: 45 instructions (full socket and pmtudisc tests, IPCB forwarded flag, the
   * sysctl and lock tests, rt_pmtu, the metric, dev->mtu, the cap) */
  ns_insns (t, 45);
  ns_ret (t);
}

/* __ip_finish_output: no xfrm, ip_skb_dst_mtu, not GSO, the length fits, no
 * frag_max_size → ip_finish_output2 (a tail jmp). */
static gint
__ip_finish_output (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  gint rc;

  ns_tail_call (t, &fn___ip_finish_output);  /* ip_finish_output's tail jmp */
  NS_LOAD_FIELD (t, skb_dst (skb), xfrm);
  ns_insns (t, 12);                 /* census: 12 instructions (the xfrm test, arguments) */
  ip_skb_dst_mtu (t, skb);
  NS_LOAD_FIELD (t, skb, len);
  /* census: 11 instructions (gso test, len against mtu, frag_max_size) */
  ns_insns (t, 11);
  rc = ip_finish_output2 (t, s, skb);
  ns_ret (t);
  return rc;
}

/* ip_output → (NF_HOOK_COND, no hooks: the key is off) ip_finish_output (cgroup BPF
 * egress key off) → __ip_finish_output. */
static gint
ip_output (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  struct dst_entry *dst = skb_dst (skb);
  struct softnet_data *sd = s->sd[ns_thread_cpu (t)];
  gint rc;

  ns_call (t, &ip_fn_ip_output);
  /* counted where 6.1 counts it; a 2023 change (IPSTATS_MIB_OUTPKTS, "OutTransmits")
   * counts OUTREQUESTS in __ip_local_out and the packets and octets in ip_finish_output2:
   * one per-CPU increment a datagram more in 6.9, not modelled (likewise IPv6's) */
  ns_mib_inc (t, &sd->ip_mib[NS_IPSTATS_OUT]);
  NS_LOAD_FIELD (t, dst, dev);
  skb->dev = dst->dev;
  skb->protocol = ETH_P_IP_BE;
  NS_STORE_FIELD (t, skb, dev);
  NS_STORE_FIELD (t, skb, protocol);
  /* census: 32 instructions less the two calls 6.9 does not make — 30 (OUTREQUESTS and
   * OUTOCTETS, skb->dev, protocol, the REROUTED test, the POST_ROUTING key). The 6.1.176
   * binary holds rcu_read_lock across ip_output (a 2025 backport); 6.9 does not, so its
   * NF_HOOK_COND ends ip_output: a tail jmp (estimate: as ip6_output's, and the 8
   * instructions after the call move before it). */
  ns_insns (t, 30);
  ns_tail_call (t, &fn_ip_finish_output);
  ns_insns (t, 8);                  /* census: 8 instructions (the cgroup BPF key) */
  rc = __ip_finish_output (t, s, skb);
  ns_ret (t);                       /* ip_finish_output */
  ns_ret (t);
  return rc;
}

/* ip_send_check: ip_fast_csum over the 5-word header at iph (any alignment). */
void
ip_send_check (NsThread *t, gpointer iph)
{
  ns_call (t, &fn_ip_send_check);
  ns_load (t, iph, sizeof (NsIphdr));
  ns_store (t, (guint8 *) iph + G_STRUCT_OFFSET (NsIphdr, check), sizeof (guint16));
  ns_insns (t, 22);                 /* census: 22 instructions (one loop iteration, fold) */
  ns_ret (t);
}

/* __ip_local_out: tot_len, ip_send_check, no l3mdev, protocol, the LOCAL_OUT key off:
 * returns 1. */
static void
__ip_local_out (NsThread *t, struct sk_buff *skb)
{
  NsIphdr *iph = (NsIphdr *) skb_network_header (skb);

  ns_call (t, &fn___ip_local_out);
  iph->tot_len = GUINT16_TO_BE ((guint16) skb->len);
  NS_LOAD_FIELD (t, skb, len);
  ns_insns (t, 10);                 /* census: 10 instructions (iph_set_totlen, argument) */
  ip_send_check (t, iph);
  /* census: 21 instructions (l3mdev test, skb->protocol, nf_hook's key) */
  ns_insns (t, 21);
  ns_ret (t);
}

/* The error tail of ip_send_skb and ip6_send_skb: a positive NET_XMIT_* code becomes
 * net_xmit_errno's (-ENOBUFS unless NET_XMIT_CN), and any error counts the family's
 * OUTDISCARDS (the model's one slot serves both). Returns the errno or 0. */
static gint
ip_send_skb_errno (NsThread *t, NsNetStack *s, gint rc)
{
  if (rc) {
    if (rc > 0)
      rc = net_xmit_errno (rc);
    if (rc)
      ns_mib_inc (t, &s->sd[ns_thread_cpu (t)]->ip_mib[NS_IPSTATS_OUTDISCARDS]);
  }
  return rc;
}

/* ip_send_skb → ip_local_out (inline in ip_output.c) → __ip_local_out → dst_output
 * through INDIRECT_CALL_INET: a direct call of ip_output. */
gint
ip_send_skb (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  gint rc;

  g_return_val_if_fail (t != NULL && s != NULL && skb != NULL, -1);
  s->counters.sent++;
  ns_call (t, &fn_ip_send_skb);
  ns_insns (t, 10);                 /* census: 10 instructions (arguments) */
  __ip_local_out (t, skb);
  NS_LOAD_FIELD (t, skb_dst (skb), output);
  ns_insns (t, 6);                  /* census: 6 instructions (err 1, the output compare) */
  rc = ip_output (t, s, skb);
  rc = ip_send_skb_errno (t, s, rc);
  ns_insns (t, 6);                  /* census: 6 instructions (net_xmit_errno, return) */
  ns_ret (t);
  return rc;
}

/* ip6_finish_output2: headroom enough, not multicast, no lwtunnel; under rcu_read_lock
 * rt6_nexthop (no gateway: the destination), __ipv6_neigh_lookup_noref (ndisc_hashfn over
 * the four address words, the bucket's first entry matches dev and the 128-bit key), no
 * pending confirm, then neigh_output → neigh_hh_output (NUD_NOARP, hh_len 14). */
static gint
ip6_finish_output2 (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  struct dst_entry *dst = skb_dst (skb);
  gint rc;

  ns_call (t, &fn_ip6_finish_output2);
  NS_LOAD_FIELD (t, dst, dev);
  NS_LOAD_FIELD (t, dst->dev, hard_header_len);
  /* census: 142 instructions less P/E 17 — 125: 30 (the stack protector, idev,
   * LL_RESERVED_SPACE and the headroom test, the multicast test, the lwtunnel test) */
  ns_insns (t, 30);
  /* census: 71 instructions (rt6_nexthop, ndisc_hashfn, the bucket and the entry's dev
   * and key compares, sock_confirm_neigh, neigh_output's NUD_CONNECTED and hh_len tests,
   * and the 3 around the unlock; neigh_hh_output's 20 are the IPv4 twin's split of the
   * census' 88 in the read section) */
  rc = neigh_lookup_output (t, s, s->neigh_lo6, skb, 71);
  ns_insns (t, 4);                  /* census: 4 instructions (the stack protector) */
  ns_ret (t);
  return rc;
}

/* ip6_finish_output (the cgroup BPF egress key off) with __ip6_finish_output and
 * ip6_skb_dst_mtu inlined: no xfrm; a full socket with pmtudisc WANT, so dst_mtu →
 * ip6_mtu; not GSO, the length fits, no ALLFRAG, no frag_max_size → ip6_finish_output2
 * (a call: the cgroup verdict is tested after it). */
static gint
ip6_finish_output (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  struct dst_entry *dst = skb_dst (skb);
  gint rc;

  ns_tail_call (t, &fn_ip6_finish_output);   /* ip6_output's tail jmp */
  NS_LOAD_FIELD (t, dst, xfrm);
  NS_LOAD_FIELD (t, skb, sk);
  /* census: 76 instructions less P/E 17 — 59: 33 (the cgroup key, the xfrm test,
   * ip6_skb_dst_mtu's socket, recursion and pmtudisc tests, the dst_mtu compare) */
  ns_insns (t, 33);
  ip6_mtu (t, s, dst);
  NS_LOAD_FIELD (t, skb, len);
  /* census: 21 instructions (gso, len against mtu, ALLFRAG, frag_max_size, arguments) */
  ns_insns (t, 21);
  rc = ip6_finish_output2 (t, s, skb);
  ns_insns (t, 5);                  /* census: 5 instructions (the verdict, return) */
  ns_ret (t);
  return rc;
}

/* ip6_output: protocol and dev, the idev's disable_ipv6 test, not rerouted → NF_HOOK_COND
 * POST_ROUTING (key off) ends it: a tail jmp to ip6_finish_output. */
static gint
ip6_output (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  struct dst_entry *dst = skb_dst (skb);
  gint rc;

  ns_tail_call (t, &ip_fn_ip6_output);   /* ip6_local_out's dst_output: a tail jmp */
  NS_LOAD_FIELD (t, dst, dev);
  skb->dev = dst->dev;
  skb->protocol = ETH_P_IPV6_BE;
  NS_STORE_FIELD (t, skb, dev);
  NS_STORE_FIELD (t, skb, protocol);
  /* census: 42 instructions less P/E 13 — 29 (the stack protector, protocol, dev, idev
   * and disable_ipv6, IP6SKB_REROUTED, the POST_ROUTING key, the tail jmp) */
  ns_insns (t, 29);
  rc = ip6_finish_output (t, s, skb);
  ns_ret (t);                       /* free: ip6_finish_output returned for it */
  return rc;
}

/* __ip6_local_out: payload_len, IP6CB nhoff, not an l3mdev slave, protocol, the LOCAL_OUT
 * key off: returns 1. */
static void
__ip6_local_out (NsThread *t, struct sk_buff *skb)
{
  NsIpv6hdr *ip6h = (NsIpv6hdr *) skb_network_header (skb);

  ns_call (t, &fn___ip6_local_out);
  ip6h->payload_len = GUINT16_TO_BE ((guint16) (skb->len - IPV6_HLEN));
  NS_LOAD_FIELD (t, skb, len);
  ns_store (t, ip6h, 8);
  /* census: 51 instructions less P/E 15 — 36 (the stack protector, payload_len, nhoff,
   * l3mdev_l3_out's flag test, skb->protocol, the LOCAL_OUT key) */
  ns_insns (t, 36);
  ns_ret (t);
}

/* ip6_local_out: __ip6_local_out, then dst_output through INDIRECT_CALL_INET: a compare
 * and a tail jmp to ip6_output. */
static gint
ip6_local_out (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  gint rc;

  ns_call (t, &fn_ip6_local_out);
  ns_insns (t, 4);                  /* census: 22 less P/E 7 — 15: 4 (arguments) */
  __ip6_local_out (t, skb);
  NS_LOAD_FIELD (t, skb_dst (skb), output);
  /* census: 11 instructions (err 1, the output compare, the tail jmp) */
  ns_insns (t, 11);
  rc = ip6_output (t, s, skb);
  ns_ret (t);                       /* free: its tail jmp's callee returned for it */
  return rc;
}

/* ip6_send_skb → ip6_local_out; the error test. The 6.1.176 binary holds rcu_read_lock
 * across ip6_local_out ("ipv6: prevent UAF in ip6_send_skb()", v6.11, backported); 6.9-rc1
 * does not, so the two calls and their call instructions are left out. */
gint
ip6_send_skb (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  gint rc;

  g_return_val_if_fail (t != NULL && s != NULL && skb != NULL, -1);
  s->counters.sent++;
  ns_call (t, &fn_ip6_send_skb);
  /* census: 23 instructions less P/E 9 less the two rcu calls 6.9 does not make — 12:
   * 8 (net, the route, the arguments) */
  ns_insns (t, 8);
  rc = ip6_local_out (t, s, skb);
  rc = ip_send_skb_errno (t, s, rc);
  ns_insns (t, 4);                  /* census: 4 instructions (err 0, return) */
  ns_ret (t);
  return rc;
}

/* ---- input ---- */

/* ip_rcv_core: PACKET_HOST, IP_UPD_PO_STATS, not shared, linear (pskb_may_pull), version
 * and ihl, ip_fast_csum of the header (one loop pass), tot_len, no trim, the transport
 * header, IPCB cleared, no socket to orphan, no conntrack. */
static void
ip_rcv_core (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  NsIphdr *iph = (NsIphdr *) skb->data;

  ns_call (t, &fn_ip_rcv_core);
  ns_mib_inc (t, &s->sd[ns_thread_cpu (t)]->ip_mib[NS_IPSTATS_IN]);
  NS_LOAD_FIELD (t, skb, pkt_type);
  NS_LOAD_FIELD (t, skb, users);
  ns_load (t, iph, sizeof *iph);
  skb->transport_header = skb->network_header + IPV4_HLEN;
  NS_STORE_FIELD (t, skb, transport_header);
  ns_store (t, skb->cb, 24);
  NS_LOAD_FIELD (t, skb, _nfct);
  ns_insns (t, 108);                /* census: 108 instructions (the tests above) */
  ns_ret (t);
}

/* ip_rcv_finish_core: no route hint; the skb keeps the sender's dst (skb_valid_dst), so
 * neither early demux nor a route lookup; ihl 5; RTN_LOCAL, not multicast or broadcast;
 * the in_device's NOPOLICY flag. */
static void
ip_rcv_finish_core (NsThread *t, struct sk_buff *skb)
{
  ns_call (t, &fn_ip_rcv_finish_core);
  NS_LOAD_FIELD (t, skb, _skb_refdst);
  NS_LOAD_FIELD (t, skb_dst (skb), rt_type);
  ns_insns (t, 52);                 /* census: 52 instructions (the tests above) */
  ns_ret (t);
}

/* raw_local_deliver / raw6_local_deliver → raw_v4_input / ipv6_raw_deliver (inlined): the
 * raw hash bucket of the protocol, walked under rcu_read_lock: empty. `before` and `after`
 * are the function's census instructions around the lock (the bucket's 8 are the same in
 * both). */
static void
raw_local_deliver (NsThread *t, NsNetStack *s, NsFunc *fn, gint before, gint after)
{
  ns_call (t, fn);
  ns_insns (t, before);             /* dev_net, the hash */
  ns_rcu_read_lock (t, s);
  ns_load_dep (t, s->raw_hash, 8);
  ns_insns (t, 8);                  /* census: 8 instructions (the empty bucket) */
  ns_rcu_read_unlock (t, s);
  ns_insns (t, after);              /* the stack protector, return */
  ns_ret (t);
}

/* ip_protocol_deliver_rcu: raw_local_deliver, inet_protos[17], no_policy (no xfrm
 * policy check, no nf_reset_ct), INDIRECT_CALL_2 → a direct call of udp_rcv,
 * INDELIVERS. */
static gint
ip_protocol_deliver_rcu (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  gint rc;

  ns_call (t, &fn_ip_protocol_deliver_rcu);
  ns_insns (t, 8);                  /* census: 8 instructions (arguments) */
  /* census: 20 and 9 instructions around the lock */
  raw_local_deliver (t, s, &fn_raw_local_deliver, 20, 9);
  ns_load_dep (t, s->inet_protos, 8);
  /* census: 12 instructions (the protocol entry, no_policy, the handler compares) */
  ns_insns (t, 12);
  rc = udp_rcv (t, s, skb);
  ns_mib_inc (t, &s->sd[ns_thread_cpu (t)]->ip_mib[NS_IPSTATS_INDELIVERS]);
  ns_insns (t, 6);                  /* census: 6 instructions (ret test, INDELIVERS) */
  ns_ret (t);
  return rc;
}

/* ip_local_deliver (NF_HOOK LOCAL_IN off: a tail jmp) → ip_local_deliver_finish: the
 * IP header pulled, ip_protocol_deliver_rcu under rcu_read_lock. Both are entered by tail
 * jmps (from ip_rcv's dst_input, from ip_local_deliver). */
static gint
ip_local_deliver (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  gint rc;

  ns_tail_call (t, &ip_fn_ip_local_deliver);
  /* census: 18 instructions (ip_is_fragment, the LOCAL_IN key) */
  ns_insns (t, 18);
  ns_tail_call (t, &fn_ip_local_deliver_finish);
  __skb_pull (skb, IPV4_HLEN);
  NS_STORE_FIELD (t, skb, data);
  NS_STORE_FIELD (t, skb, len);
  /* census: 12 instructions (no mono delivery time, __skb_pull) */
  ns_insns (t, 12);
  ns_rcu_read_lock (t, s);
  rc = ip_protocol_deliver_rcu (t, s, skb);
  ns_rcu_read_unlock (t, s);
  ns_insns (t, 11);                 /* census: 11 instructions (return 0) */
  ns_ret (t);
  ns_ret (t);
  return rc;
}

/* ip_rcv → ip_rcv_core → NF_HOOK PRE_ROUTING (off) → ip_rcv_finish (inlined:
 * l3mdev_ip_rcv, ip_rcv_finish_core, dst_input through INDIRECT_CALL_INET: a tail jmp
 * to ip_local_deliver). */
gint
ip_rcv (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  gint rc;

  g_return_val_if_fail (t != NULL && s != NULL && skb != NULL, -1);
  ns_call (t, &ip_fn_ip_rcv);
  ns_insns (t, 8);                  /* census: 8 instructions (arguments) */
  ip_rcv_core (t, s, skb);
  ns_call (t, &fn_ip_rcv_finish);
  /* census: 10 instructions (skb test, the PRE_ROUTING key, l3mdev) */
  ns_insns (t, 10);
  ip_rcv_finish_core (t, skb);
  NS_LOAD_FIELD (t, skb_dst (skb), input);
  /* census: 19 instructions (ret test, dst_input's compares with ip6_input and
   * ip_local_deliver, the tail jmp) */
  ns_insns (t, 19);
  rc = ip_local_deliver (t, s, skb);
  ns_ret (t);
  ns_ret (t);
  return rc;
}

/* ip6_rcv_core: PACKET_HOST, the idev (under rcu_read_lock) and its IN stats, not shared,
 * IP6CB cleared, iif from the dst, pskb_may_pull of the header, version 6, the ECN stats,
 * the loopback-source test (::1 on lo: allowed), not multicast, the transport header,
 * payload_len = the rest (no trim), no hop-by-hop header, no socket to orphan.
 * census: 139, P/E 13 (receive6.md). */
static void
ip6_rcv_core (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  NsIpv6hdr *ip6h = (NsIpv6hdr *) skb->data;

  ns_call (t, &fn_ip6_rcv_core);
  ns_insns (t, 8);                  /* census: 8 instructions (pkt_type, arguments) */
  ns_rcu_read_lock (t, s);
  ns_mib_inc (t, &s->sd[ns_thread_cpu (t)]->ip_mib[NS_IPSTATS_IN]);
  NS_LOAD_FIELD (t, skb, pkt_type);
  NS_LOAD_FIELD (t, skb, users);
  ns_load (t, ip6h, sizeof *ip6h);
  skb->transport_header = skb->network_header + IPV6_HLEN;
  NS_STORE_FIELD (t, skb, transport_header);
  ns_store (t, skb->cb, 24);
  ns_insns (t, 111);                /* census: 111 instructions (the tests above) */
  ns_rcu_read_unlock (t, s);
  NS_LOAD_FIELD (t, skb, destructor);
  ns_insns (t, 7);                  /* census: 7 instructions (no prefetched sk, no orphan) */
  ns_ret (t);
}

/* ip6_rcv_finish_core: early demux is enabled, but the skb keeps the sender's dst, so
 * neither udp_v6_early_demux nor ip6_route_input runs. census: 14, P/E 3. */
static void
ip6_rcv_finish_core (NsThread *t, struct sk_buff *skb)
{
  /* a valid dst: the ftrace site and the return, before the frame of the early-demux
   * path (doc/census/frameless-6.1.176.txt) */
  ns_call_shrink_wrapped (t, &fn_ip6_rcv_finish_core, 1);
  NS_LOAD_FIELD (t, skb, _skb_refdst);
  ns_insns (t, 11);                 /* census: 11 instructions (sysctl, skb_valid_dst) */
  ns_ret (t);
}

/* ip6_protocol_deliver_rcu(nexthdr 0, have_final false): pull to the transport header,
 * nexthdr from IP6CB, raw6_local_deliver, inet6_protos[17] (FINAL | NOPOLICY: no xfrm
 * check, no nf_reset_ct), skb_postpull_rcsum (CHECKSUM_PARTIAL kept), INDIRECT_CALL_2 →
 * a direct call of udpv6_rcv, INDELIVERS. census: 110, P/E 17. */
static gint
ip6_protocol_deliver_rcu (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  gint rc;

  ns_call (t, &fn_ip6_protocol_deliver_rcu);
  ns_insns (t, 36);                 /* census: 36 instructions (the pull, nexthdr) */
  __skb_pull (skb, IPV6_HLEN);
  NS_STORE_FIELD (t, skb, data);
  NS_STORE_FIELD (t, skb, len);
  /* census: raw6_local_deliver 39, P/E 17: 11 and 3 instructions around the lock */
  raw_local_deliver (t, s, &fn_raw6_local_deliver, 11, 3);
  ns_load_dep (t, s->inet_protos, 8);
  /* census: 49 instructions (the protocol entry, flags, sdif, postpull_rcsum, the
   * multicast test, the handler compares) */
  ns_insns (t, 49);
  rc = udpv6_rcv (t, s, skb);
  ns_mib_inc (t, &s->sd[ns_thread_cpu (t)]->ip_mib[NS_IPSTATS_INDELIVERS]);
  ns_insns (t, 8);                  /* census: 8 instructions (ret test, INDELIVERS) */
  ns_ret (t);
  return rc;
}

/* ip6_input (NF_HOOK LOCAL_IN off: a tail jmp) → ip6_input_finish (a tail jmp):
 * ip6_protocol_deliver_rcu under rcu_read_lock. census: ip6_input 23, P/E 9;
 * ip6_input_finish 19, P/E 7. */
static gint
ip6_input (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  gint rc;

  ns_tail_call (t, &ip_fn_ip6_input);
  ns_insns (t, 14);                 /* census: 14 instructions (the key, stack protector) */
  ns_tail_call (t, &fn_ip6_input_finish);
  ns_insns (t, 6);                  /* census: 6 instructions (no mono delivery time) */
  ns_rcu_read_lock (t, s);
  ns_insns (t, 6);                  /* census: 6 instructions (the call's arguments) */
  rc = ip6_protocol_deliver_rcu (t, s, skb);
  ns_rcu_read_unlock (t, s);
  ns_ret (t);
  ns_ret (t);
  return rc;
}

/* ipv6_rcv → ip6_rcv_core → NF_HOOK PRE_ROUTING (off) → ip6_rcv_finish (inlined:
 * l3mdev_l3_rcv, ip6_rcv_finish_core, dst_input through INDIRECT_CALL_INET: a tail jmp to
 * ip6_input). census: 40, P/E 9 (receive6.md). */
gint
ipv6_rcv (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  gint rc;

  g_return_val_if_fail (t != NULL && s != NULL && skb != NULL, -1);
  ns_call (t, &ip_fn_ipv6_rcv);
  ns_insns (t, 7);                  /* census: 7 instructions (dev_net, arguments) */
  ip6_rcv_core (t, s, skb);
  ns_call (t, &fn_ip6_rcv_finish);
  /* census: 14 instructions (the PRE_ROUTING key, l3mdev) */
  ns_insns (t, 14);
  NS_LOAD_FIELD (t, skb->dev, priv_flags);
  ip6_rcv_finish_core (t, skb);
  NS_LOAD_FIELD (t, skb_dst (skb), input);
  /* census: 10 instructions (dst_input's compare with ip6_input, stack protector, the
   * tail jmp) */
  ns_insns (t, 10);
  rc = ip6_input (t, s, skb);
  ns_ret (t);
  ns_ret (t);
  return rc;
}
