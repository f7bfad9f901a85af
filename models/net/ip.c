/* ip.c — IPv4 and IPv6 output and input of a UDP datagram on a local (loopback) route,
 * v6.9: net/ipv4/ip_output.c (ip_make_skb, __ip_append_data, ip_generic_getfrag,
 * __ip_make_skb, ip_send_skb, ip_local_out, ip_output, ip_finish_output2), ip_input.c
 * (ip_rcv, ip_rcv_core, ip_rcv_finish, ip_local_deliver, ip_protocol_deliver_rcu),
 * net/ipv6/ip6_output.c and ip6_input.c (their twins), net/core/sock.c (sk_dst_check,
 * sock_alloc_send_pskb, skb_set_owner_w), net/core/dst.c (dst_release), lib/iov_iter.c.
 *
 * The loopback facts that shape the path: lo has NETIF_F_HW_CSUM, so UDP leaves the
 * checksum CHECKSUM_PARTIAL and no byte is summed on either side (skb_csum_unnecessary is
 * true for CHECKSUM_PARTIAL on receive); lo's MTU is 65536, so an 8920-byte datagram is one
 * linear skb (alloclen < SKB_MAX_ALLOC); the output route to a local address has
 * dst.input = ip_local_deliver / ip6_input and loopback_xmit keeps the dst, so input needs
 * no route lookup and early demux does not run (it requires !skb_dst); the neighbour is
 * NUD_NOARP with a cached hardware header (neigh_hh_output); netfilter hooks are static-key
 * no-ops with no rules loaded; there is no IP option and no fragment.
 *
 * Which functions are out of line: the exported ones; static ones with two or more call
 * sites or reached through a pointer (okfn of NF_HOOK, dst->input/output, getfrag). The
 * indirect calls that remain in v6.9 are getfrag (a plain function pointer argument of
 * __ip_append_data); dst_output, dst_input, the ptype handler and the inet protocol
 * handler go through INDIRECT_CALL_INET / INDIRECT_CALL_2 (compares + direct calls).
 * Text sizes and instruction counts are estimates, each with its reason. */
#include "config.h"
#include <string.h>
#include "ip.h"
#include "loopback.h"
#include "udp_rx.h"

/* IPv4 */
static NS_FUNC (fn_sk_dst_check, "sk_dst_check", 200, NS_FN_EXTERN, 20);
static NS_FUNC (fn_ipv4_dst_check, "ipv4_dst_check", 48, NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_dst_release, "dst_release", 120, NS_FN_EXTERN, 200);
static NS_FUNC (fn_ip_make_skb, "ip_make_skb", 330, NS_FN_EXTERN, 2);
static NS_FUNC (fn___ip_append_data, "__ip_append_data", 2900, NS_FN_STATIC, 2);
static NS_FUNC (fn_sock_alloc_send_pskb, "sock_alloc_send_pskb", 560, NS_FN_EXTERN, 12);
static NS_FUNC (fn_alloc_skb_with_frags, "alloc_skb_with_frags", 420, NS_FN_EXTERN, 6);
static NS_FUNC (fn_skb_set_owner_w, "skb_set_owner_w", 220, NS_FN_EXTERN, 20);
static NS_FUNC (fn_ip_generic_getfrag, "ip_generic_getfrag", 140, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn__copy_from_iter, "_copy_from_iter", 1100, NS_FN_EXTERN, 40);
static NS_FUNC (fn___ip_make_skb, "__ip_make_skb", 900, NS_FN_EXTERN, 3);
static NS_FUNC (fn_ip_send_skb, "ip_send_skb", 110, NS_FN_EXTERN, 3);
static NS_FUNC (fn_ip_local_out, "ip_local_out", 90, NS_FN_EXTERN, 10);
static NS_FUNC (fn___ip_local_out, "__ip_local_out", 260, NS_FN_EXTERN, 3);
NS_FUNC (ip_fn_ip_output, "ip_output", 240, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_ip_finish_output, "ip_finish_output", 200, NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_ip_finish_output2, "ip_finish_output2", 1300, NS_FN_STATIC, 2);
NS_FUNC (ip_fn_ip_rcv, "ip_rcv", 160, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_ip_rcv_core, "ip_rcv_core", 900, NS_FN_STATIC, 2);
static NS_FUNC (fn_ip_rcv_finish, "ip_rcv_finish", 240, NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_ip_rcv_finish_core, "ip_rcv_finish_core", 1000, NS_FN_STATIC, 2);
NS_FUNC (ip_fn_ip_local_deliver, "ip_local_deliver", 200, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_ip_local_deliver_finish, "ip_local_deliver_finish", 140,
                NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_ip_protocol_deliver_rcu, "ip_protocol_deliver_rcu", 420, NS_FN_EXTERN, 2);
static NS_FUNC (fn_raw_local_deliver, "raw_local_deliver", 260, NS_FN_EXTERN, 1);
/* IPv6 */
static NS_FUNC (fn_ip6_dst_check, "ip6_dst_check", 200, NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_ip6_make_skb, "ip6_make_skb", 380, NS_FN_EXTERN, 2);
static NS_FUNC (fn_ip6_setup_cork, "ip6_setup_cork", 700, NS_FN_STATIC, 2);
static NS_FUNC (fn___ip6_append_data, "__ip6_append_data", 3300, NS_FN_STATIC, 2);
static NS_FUNC (fn___ip6_make_skb, "__ip6_make_skb", 1000, NS_FN_EXTERN, 3);
static NS_FUNC (fn_ip6_cork_release, "ip6_cork_release", 200, NS_FN_STATIC, 3);
static NS_FUNC (fn_ip6_send_skb, "ip6_send_skb", 120, NS_FN_EXTERN, 3);
static NS_FUNC (fn_ip6_local_out, "ip6_local_out", 90, NS_FN_EXTERN, 10);
static NS_FUNC (fn___ip6_local_out, "__ip6_local_out", 240, NS_FN_EXTERN, 3);
NS_FUNC (ip_fn_ip6_output, "ip6_output", 300, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_ip6_finish_output, "ip6_finish_output", 260, NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_ip6_finish_output2, "ip6_finish_output2", 1500, NS_FN_STATIC, 2);
NS_FUNC (ip_fn_ipv6_rcv, "ipv6_rcv", 160, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_ip6_rcv_core, "ip6_rcv_core", 1100, NS_FN_STATIC, 2);
static NS_FUNC (fn_ip6_rcv_finish, "ip6_rcv_finish", 300, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
NS_FUNC (ip_fn_ip6_input, "ip6_input", 120, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_ip6_input_finish, "ip6_input_finish", 90, NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_ip6_protocol_deliver_rcu, "ip6_protocol_deliver_rcu", 1200,
                NS_FN_EXTERN, 2);
static NS_FUNC (fn_raw6_local_deliver, "raw6_local_deliver", 300, NS_FN_EXTERN, 1);

/* ---- routes ---- */

/* sk_dst_check: rcuref get of the cached route, then dst->ops->check through
 * INDIRECT_CALL_INET (ipv4_dst_check / ip6_dst_check: a genid / cookie compare). */
struct dst_entry *
sk_dst_check (NsThread *t, NsNetStack *s, struct sock *sk)
{
  struct dst_entry *dst = sk->sk_dst_cache;

  ns_call (t, &fn_sk_dst_check);
  /* estimate: ~20 instructions (rcu_read_lock, sk_dst_get's rcuref_get_not_zero,
   * obsolete test) */
  ns_insns (t, 20);
  ns_rcu_read_lock (t, s);
  NS_LOAD_FIELD (t, sk, sk_dst_cache);
  if (dst != NULL) {
    ns_atomic (t, &dst->__rcuref);
    dst->__rcuref++;
  }
  ns_rcu_read_unlock (t, s);
  if (dst == NULL)
    goto out;
  NS_LOAD_FIELD (t, dst, obsolete);
  ns_call (t, dst == s->rt_lo6 ? &fn_ip6_dst_check : &fn_ipv4_dst_check);
  /* estimate: ~10 instructions (ipv4: rt_is_expired genid compare; ipv6: rt6 cookie and
   * expiry checks, ~25) */
  ns_insns (t, dst == s->rt_lo6 ? 25 : 10);
  NS_LOAD_FIELD (t, dst, rt_genid);
  ns_ret (t);
out:
  ns_ret (t);
  return dst;
}

/* dst_release: rcuref_put of the route's reference count. */
void
dst_release (NsThread *t, struct dst_entry *dst)
{
  if (dst == NULL)
    return;
  ns_call (t, &fn_dst_release);
  /* estimate: ~12 instructions (rcuref_put fast path) */
  ns_insns (t, 12);
  ns_atomic (t, &dst->__rcuref);
  dst->__rcuref--;
  ns_ret (t);
}

/* ---- output: building the skb ---- */

/* sock_alloc_send_pskb → alloc_skb_with_frags → __alloc_skb, then skb_set_owner_w charges
 * truesize to sk_wmem_alloc (destructor sock_wfree). */
static struct sk_buff *
sock_alloc_send_skb (NsThread *t, NsNetStack *s, struct sock *sk, guint size)
{
  struct sk_buff *skb;

  ns_call (t, &fn_sock_alloc_send_pskb);
  /* estimate: ~30 instructions (sk_err, shutdown, sk_wmem_alloc < sk_sndbuf test) */
  ns_insns (t, 30);
  NS_LOAD_FIELD (t, sk, sk_err);
  NS_LOAD_FIELD (t, sk, sk_wmem_alloc);
  NS_LOAD_FIELD (t, sk, sk_sndbuf);
  ns_call (t, &fn_alloc_skb_with_frags);
  /* estimate: ~20 instructions (data_len 0: no page frags) */
  ns_insns (t, 20);
  skb = __alloc_skb (t, s->alloc, size);
  ns_ret (t);
  ns_call (t, &fn_skb_set_owner_w);
  /* estimate: ~20 instructions (skb_orphan of a fresh skb, sk, destructor, full-sock
   * test) */
  ns_insns (t, 20);
  skb->sk = sk;
  skb->destructor = sk;         /* model: non-NULL = sock_wfree */
  NS_STORE_FIELD (t, skb, sk);
  NS_STORE_FIELD (t, skb, destructor);
  ns_atomic (t, &sk->sk_wmem_alloc);
  sk->sk_wmem_alloc += skb->truesize;
  ns_ret (t);
  ns_ret (t);
  return skb;
}

/* getfrag = ip_generic_getfrag (through the pointer): CHECKSUM_PARTIAL, so a plain
 * copy_from_iter_full of the user data into the skb. */
static void
ip_generic_getfrag (NsThread *t, NsNetStack *s, guchar *to, const guchar *ubuf, gsize len)
{
  ns_icall (t, &fn_ip_generic_getfrag);
  /* estimate: ~10 instructions (ip_summed test) */
  ns_insns (t, 10);
  ns_call (t, &fn__copy_from_iter);
  /* estimate: ~40 instructions (iov_iter type dispatch for ITER_UBUF, access_ok, STAC,
   * the rep movsb set-up of copy_user_generic with FSRM, CLAC, advance) */
  ns_insns (t, 40);
  ns_check_object_size (t, s, to, len);
  ns_copy (t, to, ubuf, len);
  ns_ret (t);
  ns_ret (t);
}

/* __ip_append_data / __ip6_append_data for one datagram that fits the MTU: allocate,
 * reserve the link-layer room, set the headers' offsets, copy the payload. */
static struct sk_buff *
append_data (NsThread *t, NsNetStack *s, struct sock *sk, const guchar *ubuf, gsize len,
             guint fragheaderlen, NsFunc *fn)
{
  const guint hh_len = 16;      /* LL_RESERVED_SPACE(lo) = ((14 + 0) & ~15) + 16 */
  guint fraglen = fragheaderlen + UDP_HLEN + (guint) len;
  struct sk_buff *skb;

  ns_call (t, fn);
  /* estimate: ~130 instructions (mtu and maxfraglen, exthdrlen, csummode choice with
   * NETIF_F_HW_CSUM, zerocopy tests, the one-iteration loop's length arithmetic,
   * skb field set-up, cork and wmem_alloc_delta bookkeeping, __skb_queue_tail on the
   * cork queue) */
  ns_insns (t, 130);
  NS_LOAD_FIELD (t, sk, sk_tsflags);
  NS_LOAD_FIELD (t, s->lo, features);
  skb = sock_alloc_send_skb (t, s, sk, fraglen + hh_len + 15);
  skb->ip_summed = CHECKSUM_PARTIAL;
  skb->csum = 0;
  skb_reserve (skb, hh_len);
  skb_put (skb, fraglen);
  skb_reset_network_header (skb);
  skb->transport_header = skb->network_header + fragheaderlen;
  NS_STORE_FIELD (t, skb, ip_summed);
  NS_STORE_FIELD (t, skb, csum);
  NS_STORE_FIELD (t, skb, tail);
  NS_STORE_FIELD (t, skb, len);
  NS_STORE_FIELD (t, skb, data);
  NS_STORE_FIELD (t, skb, network_header);
  NS_STORE_FIELD (t, skb, transport_header);
  ip_generic_getfrag (t, s, skb->data + fragheaderlen + UDP_HLEN, ubuf, len);
  ns_ret (t);
  return skb;
}

/* ip_make_skb: cork set-up (inlined ip_setup_cork), __ip_append_data, __ip_make_skb
 * (IPv4 header, ip_select_ident, the route moves into the skb), ip_cork_release. */
struct sk_buff *
ip_make_skb (NsThread *t, NsNetStack *s, struct sock *sk, struct dst_entry *rt,
             const guchar *ubuf, gsize len)
{
  struct sk_buff *skb;
  NsIphdr *iph;

  g_return_val_if_fail (t != NULL && s != NULL && sk != NULL, NULL);
  ns_call (t, &fn_ip_make_skb);
  /* estimate: ~45 instructions (flags, cork queue init, ip_setup_cork: options none,
   * dst_mtu, fragsize, gso_size, tx flags) */
  ns_insns (t, 45);
  NS_LOAD_FIELD (t, rt, rt_mtu);
  NS_LOAD_FIELD (t, rt, dev);
  ns_load (t, inet_sk (sk)->cork, 64);
  ns_store (t, inet_sk (sk)->cork, 64);
  skb = append_data (t, s, sk, ubuf, len, IPV4_HLEN, &fn___ip_append_data);
  ns_call (t, &fn___ip_make_skb);
  /* estimate: ~110 instructions (dequeue from the cork queue, frag list join of nothing,
   * ignore_df, ttl, the 20-byte header, ip_select_ident's per-socket id, ip_copy_addrs,
   * priority, mark, tstamp, skb_dst_set of the cork's route, icmp out test,
   * ip_cork_release) */
  ns_insns (t, 110);
  iph = (NsIphdr *) skb_network_header (skb);
  iph->ver_ihl = 0x45;
  iph->ttl = 64;
  iph->protocol = IPPROTO_UDP_NUM;
  iph->saddr = inet_sk (sk)->inet_saddr;
  iph->daddr = sk->sk_daddr;
  ns_store (t, iph, sizeof *iph);
  NS_LOAD_FIELD (t, inet_sk (sk), inet_id);
  NS_STORE_FIELD (t, inet_sk (sk), inet_id);
  skb->_skb_refdst = rt;
  skb->priority = sk->sk_priority;
  NS_LOAD_FIELD (t, sk, sk_priority);
  NS_STORE_FIELD (t, skb, _skb_refdst);
  NS_STORE_FIELD (t, skb, priority);
  NS_STORE_FIELD (t, skb, mark);
  ns_ret (t);
  ns_ret (t);
  return skb;
}

/* ip6_make_skb: ip6_setup_cork, __ip6_append_data, __ip6_make_skb (IPv6 header,
 * ip6_flow_hdr, hop limit), ip6_cork_release. */
struct sk_buff *
ip6_make_skb (NsThread *t, NsNetStack *s, struct sock *sk, struct dst_entry *rt,
              const guchar *ubuf, gsize len)
{
  struct sk_buff *skb;
  NsIpv6hdr *ip6h;

  g_return_val_if_fail (t != NULL && s != NULL && sk != NULL, NULL);
  ns_call (t, &fn_ip6_make_skb);
  /* estimate: ~30 instructions (flags, cork init, ipc6 defaults) */
  ns_insns (t, 30);
  ns_call (t, &fn_ip6_setup_cork);
  /* estimate: ~70 instructions (no options to duplicate, hop limit, tclass, dst mtu with
   * rt6 mtu checks, frag size, gso) */
  ns_insns (t, 70);
  NS_LOAD_FIELD (t, rt, rt_mtu);
  NS_LOAD_FIELD (t, rt, dev);
  ns_store (t, inet_sk (sk)->cork, 64);
  ns_ret (t);
  skb = append_data (t, s, sk, ubuf, len, IPV6_HLEN, &fn___ip6_append_data);
  ns_call (t, &fn___ip6_make_skb);
  /* estimate: ~120 instructions (dequeue, join, ipv6 options none, the 40-byte header:
   * flow label (ip6_make_flowlabel with auto flow labels), addresses, hop limit; priority,
   * mark, tstamp, skb_dst_set, ICMP6 test, IP6_UPD_PO_STATS) */
  ns_insns (t, 120);
  ip6h = (NsIpv6hdr *) skb_network_header (skb);
  ip6h->ver_tc_flow = GUINT32_TO_BE (0x60000000);
  ip6h->nexthdr = IPPROTO_UDP_NUM;
  ip6h->hop_limit = 64;
  ip6h->saddr = sk->sk_v6_rcv_saddr;
  ip6h->daddr = sk->sk_v6_daddr;
  ns_store (t, ip6h, sizeof *ip6h);
  NS_LOAD_FIELD (t, sk, sk_v6_daddr);
  NS_LOAD_FIELD (t, sk, sk_v6_rcv_saddr);
  skb->_skb_refdst = rt;
  skb->priority = sk->sk_priority;
  NS_STORE_FIELD (t, skb, _skb_refdst);
  NS_STORE_FIELD (t, skb, priority);
  NS_STORE_FIELD (t, skb, mark);
  ns_call (t, &fn_ip6_cork_release);
  /* estimate: ~20 instructions (options freed: none; dst already moved) */
  ns_insns (t, 20);
  ns_ret (t);
  ns_ret (t);
  ns_ret (t);
  return skb;
}

/* ---- output: down to the device ---- */

/* neigh_output → neigh_hh_output: the cached 16-byte (14 used) hardware header copied in
 * front of the network header under the hh seqlock, then dev_queue_xmit. */
static gint
neigh_hh_output (NsThread *t, NsNetStack *s, struct neighbour *n, struct sk_buff *skb)
{
  /* estimate: ~20 instructions (seqlock read loop of one pass, 16-byte copy, push) */
  ns_insns (t, 20);
  NS_LOAD_FIELD (t, n, nud_state);
  NS_LOAD_FIELD (t, n, hh_lock);
  ns_load (t, n->hh_data, 16);
  skb_push (skb, ETH_HLEN);
  ns_store (t, skb->data, ETH_HLEN);
  NS_STORE_FIELD (t, skb, data);
  NS_STORE_FIELD (t, skb, len);
  return dev_queue_xmit (t, &s->dev_core, skb);
}

/* The neighbour step of ip_finish_output2 / ip6_finish_output2, under rcu_read_lock:
 * __ipv4_neigh_lookup_noref / __ipv6_neigh_lookup_noref (the hash bucket, then the entry
 * n, each load waiting for the one before), then neigh_output. The per-family hashing is
 * in the callers' instruction estimates. */
static gint
neigh_lookup_output (NsThread *t, NsNetStack *s, struct neighbour *n, struct sk_buff *skb)
{
  gint rc;

  ns_rcu_read_lock (t, s);
  ns_load_dep (t, s->arp_hash, 8);
  ns_load_dep (t, n, 64);
  rc = neigh_hh_output (t, s, n, skb);
  ns_rcu_read_unlock (t, s);
  return rc;
}

/* ip_output → (NF_HOOK_COND, no hooks) ip_finish_output → __ip_finish_output (MTU fits)
 * → ip_finish_output2 → neighbour lookup → neigh_hh_output. */
static gint
ip_output (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  struct dst_entry *dst = skb_dst (skb);
  struct softnet_data *sd = s->sd[ns_thread_cpu (t)];
  gint rc;

  ns_call (t, &ip_fn_ip_output);
  /* estimate: ~25 instructions (IP_UPD_PO_STATS, skb->dev, protocol, NF_HOOK_COND's
   * static-key test) */
  ns_insns (t, 25);
  ns_mib_inc (t, &sd->ip_mib[0]);
  NS_LOAD_FIELD (t, dst, dev);
  skb->dev = dst->dev;
  skb->protocol = ETH_P_IP_BE;
  NS_STORE_FIELD (t, skb, dev);
  NS_STORE_FIELD (t, skb, protocol);
  ns_call (t, &fn_ip_finish_output);
  /* estimate: ~30 instructions (cgroup BPF egress key off, __ip_finish_output inlined:
   * xfrm dst test, mtu from dst, gso test, length vs mtu) */
  ns_insns (t, 30);
  NS_LOAD_FIELD (t, skb, len);
  NS_LOAD_FIELD (t, dst, rt_mtu);
  ns_call (t, &fn_ip_finish_output2);
  /* estimate: ~70 instructions (headroom test, multicast/broadcast stats, lwtunnel test,
   * rcu, ip_neigh_for_gw → __ipv4_neigh_lookup_noref: arp_hashfn and the bucket walk,
   * sock_confirm_neigh, neigh_output's NUD_CONNECTED and hh_len tests) */
  ns_insns (t, 70);
  NS_LOAD_FIELD (t, dst, rt_uses_gateway);
  rc = neigh_lookup_output (t, s, s->neigh_lo4, skb);
  ns_ret (t);
  ns_ret (t);
  ns_ret (t);
  return rc;
}

/* ip_send_skb → ip_local_out → __ip_local_out (tot_len, header checksum, LOCAL_OUT hook
 * off) → dst_output through INDIRECT_CALL_INET → ip_output. */
gint
ip_send_skb (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  NsIphdr *iph;
  gint rc;

  g_return_val_if_fail (t != NULL && s != NULL && skb != NULL, -1);
  iph = (NsIphdr *) skb_network_header (skb);
  s->counters.sent++;
  ns_call (t, &fn_ip_send_skb);
  /* estimate: ~10 instructions (net_xmit_errno handling) */
  ns_insns (t, 10);
  ns_call (t, &fn_ip_local_out);
  ns_insns (t, 8);
  ns_call (t, &fn___ip_local_out);
  /* estimate: ~45 instructions (iph_set_totlen, ip_send_check: ip_fast_csum of 5 words,
   * l3mdev_ip_out, skb->protocol, nf_hook's static key) */
  ns_insns (t, 45);
  iph->tot_len = GUINT16_TO_BE ((guint16) skb->len);
  ns_store (t, iph, sizeof *iph);
  NS_LOAD_FIELD (t, skb, len);
  ns_ret (t);
  rc = ip_output (t, s, skb);
  ns_ret (t);
  ns_ret (t);
  return rc;
}

/* ip6_output → ip6_finish_output → __ip6_finish_output → ip6_finish_output2 →
 * neighbour (__ipv6_neigh_lookup_noref) → neigh_hh_output. */
static gint
ip6_output (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  struct dst_entry *dst = skb_dst (skb);
  struct softnet_data *sd = s->sd[ns_thread_cpu (t)];
  gint rc;

  ns_call (t, &ip_fn_ip6_output);
  /* estimate: ~35 instructions (idev, protocol, dev, disable_ipv6 test, NF_HOOK_COND) */
  ns_insns (t, 35);
  NS_LOAD_FIELD (t, dst, dev);
  skb->dev = dst->dev;
  skb->protocol = ETH_P_IPV6_BE;
  NS_STORE_FIELD (t, skb, dev);
  NS_STORE_FIELD (t, skb, protocol);
  ns_call (t, &fn_ip6_finish_output);
  /* estimate: ~35 instructions (cgroup BPF key off, __ip6_finish_output: xfrm dst test,
   * mtu, gso, frag tests) */
  ns_insns (t, 35);
  NS_LOAD_FIELD (t, dst, rt_mtu);
  ns_call (t, &fn_ip6_finish_output2);
  /* estimate: ~85 instructions (headroom, multicast test, IP6_UPD_PO_STATS, lwtunnel,
   * rt6_nexthop, __ipv6_neigh_lookup_noref: ndisc hash over 4 words and the bucket walk,
   * sock_confirm_neigh, neigh_output tests) */
  ns_insns (t, 85);
  ns_mib_inc (t, &sd->ip_mib[1]);
  rc = neigh_lookup_output (t, s, s->neigh_lo6, skb);
  ns_ret (t);
  ns_ret (t);
  ns_ret (t);
  return rc;
}

/* ip6_send_skb → ip6_local_out → __ip6_local_out (payload_len, LOCAL_OUT off) →
 * dst_output → ip6_output. */
gint
ip6_send_skb (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  NsIpv6hdr *ip6h;
  gint rc;

  g_return_val_if_fail (t != NULL && s != NULL && skb != NULL, -1);
  ip6h = (NsIpv6hdr *) skb_network_header (skb);
  s->counters.sent++;
  ns_call (t, &fn_ip6_send_skb);
  ns_insns (t, 10);
  ns_call (t, &fn_ip6_local_out);
  ns_insns (t, 8);
  ns_call (t, &fn___ip6_local_out);
  /* estimate: ~35 instructions (payload_len, IP6CB nhoff, l3mdev_ip6_out, protocol,
   * nf_hook key) */
  ns_insns (t, 35);
  ip6h->payload_len = GUINT16_TO_BE ((guint16) (skb->len - IPV6_HLEN));
  ns_store (t, ip6h, 8);
  ns_ret (t);
  rc = ip6_output (t, s, skb);
  ns_ret (t);
  ns_ret (t);
  return rc;
}

/* ---- input ---- */

/* ip_rcv → ip_rcv_core (header checks, checksum of the header, IPCB) → NF_HOOK
 * PRE_ROUTING (off) → ip_rcv_finish → ip_rcv_finish_core (valid dst: no route lookup,
 * no early demux) → dst_input (INDIRECT_CALL_INET) → ip_local_deliver → NF_HOOK LOCAL_IN
 * (off) → ip_local_deliver_finish → ip_protocol_deliver_rcu → raw_local_deliver (no raw
 * socket) → INDIRECT_CALL_2 → udp_rcv. */
gint
ip_rcv (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  struct softnet_data *sd;
  NsIphdr *iph;
  gint rc;

  g_return_val_if_fail (t != NULL && s != NULL && skb != NULL, -1);
  sd = s->sd[ns_thread_cpu (t)];
  iph = (NsIphdr *) skb->data;
  ns_call (t, &ip_fn_ip_rcv);
  ns_insns (t, 10);
  ns_call (t, &fn_ip_rcv_core);
  /* estimate: ~75 instructions (pkt_type, IP_UPD_PO_STATS, skb_share_check,
   * pskb_may_pull, version/ihl tests, ip_fast_csum of the header, tot_len, trim test,
   * transport header, IPCB clear, skb_orphan, nf_reset_ct) */
  ns_insns (t, 75);
  ns_mib_inc (t, &sd->ip_mib[2]);
  NS_LOAD_FIELD (t, skb, pkt_type);
  NS_LOAD_FIELD (t, skb, users);
  ns_load (t, iph, sizeof *iph);
  skb->transport_header = skb->network_header + IPV4_HLEN;
  NS_STORE_FIELD (t, skb, transport_header);
  ns_store (t, skb->cb, 24);
  NS_LOAD_FIELD (t, skb, _nfct);
  ns_ret (t);
  ns_call (t, &fn_ip_rcv_finish);
  /* estimate: ~15 instructions (l3mdev_ip_rcv, early demux sysctl read) */
  ns_insns (t, 15);
  ns_call (t, &fn_ip_rcv_finish_core);
  /* estimate: ~45 instructions (route hint test, skb_valid_dst, ihl test, rt_type
   * multicast/broadcast tests, IP_UPD_PO_STATS by type) */
  ns_insns (t, 45);
  NS_LOAD_FIELD (t, skb, _skb_refdst);
  NS_LOAD_FIELD (t, skb_dst (skb), rt_type);
  ns_ret (t);
  NS_LOAD_FIELD (t, skb_dst (skb), input);
  ns_call (t, &ip_fn_ip_local_deliver);
  /* estimate: ~20 instructions (ip_is_fragment, NF_HOOK LOCAL_IN key) */
  ns_insns (t, 20);
  ns_call (t, &fn_ip_local_deliver_finish);
  /* estimate: ~20 instructions (skb_clear_delivery_time, __skb_pull of the header,
   * rcu_read_lock) */
  ns_insns (t, 20);
  __skb_pull (skb, IPV4_HLEN);
  NS_STORE_FIELD (t, skb, data);
  NS_STORE_FIELD (t, skb, len);
  ns_call (t, &fn_ip_protocol_deliver_rcu);
  /* estimate: ~35 instructions (inet_protos lookup, no_policy, xfrm test, INDIRECT_CALL_2
   * compares, INDELIVERS stats) */
  ns_insns (t, 35);
  ns_call (t, &fn_raw_local_deliver);
  /* estimate: ~20 instructions (raw_v4_hashinfo bucket of protocol 17: empty) */
  ns_insns (t, 20);
  ns_load_dep (t, s->raw_hash, 8);
  ns_ret (t);
  ns_rcu_read_lock (t, s);
  ns_load_dep (t, s->inet_protos, 8);
  ns_mib_inc (t, &sd->ip_mib[3]);
  rc = udp_rcv (t, s, skb);
  ns_rcu_read_unlock (t, s);
  ns_ret (t);
  ns_ret (t);
  ns_ret (t);
  ns_ret (t);
  ns_ret (t);
  return rc;
}

/* ipv6_rcv → ip6_rcv_core → NF_HOOK PRE_ROUTING (off) → ip6_rcv_finish (valid dst: no
 * ip6_route_input) → dst_input → ip6_input → ip6_input_finish → ip6_protocol_deliver_rcu
 * → raw6_local_deliver → INDIRECT_CALL_2 → udpv6_rcv. */
gint
ipv6_rcv (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  struct softnet_data *sd;
  NsIpv6hdr *ip6h;
  gint rc;

  g_return_val_if_fail (t != NULL && s != NULL && skb != NULL, -1);
  sd = s->sd[ns_thread_cpu (t)];
  ip6h = (NsIpv6hdr *) skb->data;
  ns_call (t, &ip_fn_ipv6_rcv);
  ns_insns (t, 10);
  ns_call (t, &fn_ip6_rcv_core);
  /* estimate: ~85 instructions (pkt_type, idev, disable_ipv6, stats, share check,
   * IP6CB, pskb_may_pull, version, address class tests (loopback on lo allowed),
   * multicast tests, payload_len, trim, hop-by-hop none, nf_reset) */
  ns_insns (t, 85);
  ns_mib_inc (t, &sd->ip_mib[2]);
  NS_LOAD_FIELD (t, skb, pkt_type);
  ns_load (t, ip6h, sizeof *ip6h);
  skb->transport_header = skb->network_header + IPV6_HLEN;
  NS_STORE_FIELD (t, skb, transport_header);
  ns_store (t, skb->cb, 24);
  ns_ret (t);
  ns_call (t, &fn_ip6_rcv_finish);
  /* estimate: ~30 instructions (l3mdev, early demux gate with a dst present, ip6 route
   * hint test, skb_valid_dst) */
  ns_insns (t, 30);
  NS_LOAD_FIELD (t, skb, _skb_refdst);
  NS_LOAD_FIELD (t, skb_dst (skb), input);
  ns_call (t, &ip_fn_ip6_input);
  ns_insns (t, 15);
  ns_call (t, &fn_ip6_input_finish);
  ns_insns (t, 10);
  ns_call (t, &fn_ip6_protocol_deliver_rcu);
  /* estimate: ~70 instructions (nexthdr loop of one pass, __skb_pull to the transport
   * header, raw test, inet6_protos, xfrm policy flags, INDIRECT_CALL_2, stats) */
  ns_insns (t, 70);
  __skb_pull (skb, IPV6_HLEN);
  NS_STORE_FIELD (t, skb, data);
  NS_STORE_FIELD (t, skb, len);
  ns_call (t, &fn_raw6_local_deliver);
  ns_insns (t, 20);
  ns_load_dep (t, s->raw_hash, 8);
  ns_ret (t);
  ns_rcu_read_lock (t, s);
  ns_load_dep (t, s->inet_protos, 8);
  ns_mib_inc (t, &sd->ip_mib[3]);
  rc = udpv6_rcv (t, s, skb);
  ns_rcu_read_unlock (t, s);
  ns_ret (t);
  ns_ret (t);
  ns_ret (t);
  ns_ret (t);
  ns_ret (t);
  return rc;
}
