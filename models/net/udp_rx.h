/* udp_rx.h — the UDP receive path, v6.9: udp_rcv / udpv6_rcv in softirq down to the
 * socket's receive queue with its receive-buffer limit and the reader's wake-up, and
 * read(2) → udp_recvmsg / udpv6_recvmsg with the copy to user (kernel-spec.md §5). */
#pragma once
#include "netstack.h"

G_BEGIN_DECLS

/* The inet protocol handlers (INDIRECT_CALL_2 targets of ip_protocol_deliver_rcu and
 * ip6_protocol_deliver_rcu). They consume skb. */
gint    udp_rcv        (NsThread *t, NsNetStack *s, struct sk_buff *skb);
gint    udpv6_rcv      (NsThread *t, NsNetStack *s, struct sk_buff *skb);

/* read(fd, ubuf, len) on a UDP socket: one datagram copied to ubuf (simulated memory).
 * Returns the bytes copied, -EAGAIN (-11) on an empty O_NONBLOCK socket; a blocking socket
 * sleeps in __skb_wait_for_more_packets until a datagram arrives. len 0 returns 0 at once
 * (sock_read_iter, before sock_recvmsg): nothing is dequeued and it never blocks. */
gssize  ns_sys_read    (NsThread *t, NsNetStack *s, struct file *file, guchar *ubuf,
                        gsize len);

/* Readiness of a UDP socket for poll (udp_poll's mask without any charge): EPOLLIN if a
 * datagram is queued, EPOLLOUT if sock_writeable. */
guint32 ns_udp_poll_mask (struct sock *sk);

/* sock_def_readable (the NsFunc sockets' sk_data_ready points at). */
extern NsFunc udp_fn_sock_def_readable;
extern NsFunc udp_fn___udp_enqueue_schedule_skb;
extern NsFunc udp_fn_udp_recvmsg;
extern NsFunc udp_fn_udpv6_recvmsg;

G_END_DECLS
