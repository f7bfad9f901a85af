/* ip.h — IPv4 and IPv6 output and input of a UDP datagram on the local route
 * (net/ipv4/ip_output.c, ip_input.c, route.c; net/ipv6/ip6_output.c, ip6_input.c;
 * net/core/dst.c, sock.c). */
#pragma once
#include "netstack.h"

G_BEGIN_DECLS

#define IPPROTO_UDP_NUM   17
#define ETH_P_IP_BE       GUINT16_TO_BE (0x0800)
#define ETH_P_IPV6_BE     GUINT16_TO_BE (0x86DD)
#define ETH_HLEN          14u
#define IPV4_HLEN         20u
#define IPV6_HLEN         40u
#define UDP_HLEN          8u

/* sk_dst_check(sk, cookie): the socket's cached route with a reference taken (rcuref
 * get), checked through dst->ops->check; NULL if none is cached. */
struct dst_entry *sk_dst_check       (NsThread *t, NsNetStack *s, struct sock *sk);
/* dst_release: drops a reference (rcuref put); NULL is a call that returns at once. */
void              dst_release        (NsThread *t, struct dst_entry *dst);

/* ip_make_skb: one skb holding the UDP header room and len bytes of payload copied from
 * the user buffer (getfrag = ip_generic_getfrag), IPv4 header built (__ip_make_skb);
 * rt's reference moves into the skb. NULL with *err = -EMSGSIZE when __ip_append_data
 * refuses the length (the reference is released then). */
struct sk_buff   *ip_make_skb        (NsThread *t, NsNetStack *s, struct sock *sk,
                                      struct dst_entry *rt, const guchar *ubuf, gsize len,
                                      gint *err);
/* sock_wfree: skb->destructor of a socket-owned skb (the model's non-NULL destructor):
 * gives its truesize back to skb->sk's sk_wmem_alloc. The caller clears the pointers. */
void              sock_wfree         (NsThread *t, NsNetStack *s, struct sk_buff *skb);
/* ip_send_skb → ip_local_out → ip_output → … → dev_queue_xmit. */
gint              ip_send_skb        (NsThread *t, NsNetStack *s, struct sk_buff *skb);
/* The IPv6 twins. */
struct sk_buff   *ip6_make_skb       (NsThread *t, NsNetStack *s, struct sock *sk,
                                      struct dst_entry *rt, const guchar *ubuf, gsize len,
                                      gint *err);
gint              ip6_send_skb       (NsThread *t, NsNetStack *s, struct sk_buff *skb);
/* ip6_dst_hoplimit(dst): no hoplimit metric, so the route device's inet6_dev hop_limit
 * (read under rcu_read_lock); udpv6_sendmsg's ip6_sk_dst_hoplimit of a unicast flow. */
void              ip6_dst_hoplimit   (NsThread *t, NsNetStack *s, struct dst_entry *dst);

/* Protocol handlers the backlog delivers to (ptype_base: ip_packet_type, ipv6_packet_type). */
gint              ip_rcv             (NsThread *t, NsNetStack *s, struct sk_buff *skb);
gint              ipv6_rcv           (NsThread *t, NsNetStack *s, struct sk_buff *skb);

/* ip_send_check(iph): the IPv4 header checksum (ip_fast_csum over its 5 words) of the
 * 20-byte header at iph, which need not be aligned (pktgen's sits in a byte buffer). */
void              ip_send_check      (NsThread *t, gpointer iph);

/* The IPv4 / IPv6 header of a model skb (addresses in network byte order). */
typedef struct {
  guint8  ver_ihl, tos;
  guint16 tot_len, id, frag_off;
  guint8  ttl, protocol;
  guint16 check;
  guint32 saddr, daddr;
} NsIphdr;

typedef struct {
  guint32     ver_tc_flow;
  guint16     payload_len;
  guint8      nexthdr, hop_limit;
  ns_in6_addr saddr, daddr;
} NsIpv6hdr;

typedef struct {
  guint16 source, dest, len, check;
} NsUdphdr;

extern NsFunc ip_fn_ip_output;
extern NsFunc ip_fn_ip_rcv;
extern NsFunc ip_fn_ip_local_deliver;
extern NsFunc ip_fn_ip6_input;
extern NsFunc ip_fn_ip6_output;
extern NsFunc ip_fn_ipv6_rcv;

G_END_DECLS
