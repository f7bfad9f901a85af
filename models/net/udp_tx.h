/* udp_tx.h — the UDP send path, v6.9: write(2) on a connected UDP socket down to the
 * device (net/socket.c, net/ipv4/af_inet.c, net/ipv4/udp.c, net/ipv6/udp.c). */
#pragma once
#include "netstack.h"

G_BEGIN_DECLS

/* write(fd, ubuf, len) on a connected UDP socket (ubuf is simulated memory): the syscall,
 * udp_sendmsg / udpv6_sendmsg with the copy from user, IP output and loopback transmit, and
 * — on loopback — the whole receive softirq on this CPU before it returns. Returns len or
 * a negative errno (-EDESTADDRREQ for an unconnected socket, tested before the payload
 * limit; -EMSGSIZE above 65507 bytes on IPv4 — an IPv4-mapped peer included — and 65527
 * on IPv6, and on IPv4 above 65535 whatever the socket's state). */
gssize ns_sys_write (NsThread *t, NsNetStack *s, struct file *file, const guchar *ubuf,
                     gsize len);

/* The largest IPv6 UDP payload the model sends as the kernel does on lo: above it
 * __ip6_append_data splits the datagram at lo's MTU (65536 less the 40-byte IPv6 and the
 * 8-byte UDP headers), ip6_fragment sends fragments and the receiver reassembles them,
 * none of which the model does (it would send one skb). IPv4 caps its MTU at 65535, so
 * every IPv4 datagram up to 65507 bytes is one packet. Workloads refuse IPv6 lengths above
 * this. */
#define NS_UDPV6_LO_MAX_UNFRAGMENTED  (65536u - 40u - 8u)

extern NsFunc udp_fn_udp_sendmsg;
extern NsFunc udp_fn_udpv6_sendmsg;

G_END_DECLS
