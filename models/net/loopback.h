/* loopback.h — the device layer of a loopback datagram: dev_queue_xmit down to
 * loopback_xmit (drivers/net/loopback.c), __netif_rx into the per-CPU backlog, the NET_RX
 * softirq (kernel/softirq.c) and the backlog NAPI up to the protocol handler
 * (net/core/dev.c). */
#pragma once
#include "netstack.h"

G_BEGIN_DECLS

/* __dev_queue_xmit for the loopback device (noqueue qdisc, NETIF_F_LLTX): validate,
 * dev_hard_start_xmit → ndo_start_xmit = loopback_xmit → __netif_rx; then the
 * rcu_read_unlock_bh → local_bh_enable that runs the raised NET_RX softirq on this CPU
 * before returning. */
gint  __dev_queue_xmit          (NsThread *t, NsNetStack *s, struct sk_buff *skb);
/* __local_bh_enable_ip: runs pending softirqs (do_softirq) on t's CPU. */
void  __local_bh_enable_ip      (NsThread *t, NsNetStack *s);
/* The body of a CPU's NET_RX softirq context (the thread ns_netstack_start_cpu spawns):
 * sleeps until raised, then __do_softirq → net_rx_action → process_backlog. data is the
 * CPU's struct softnet_data's stack (NsNetStack *) with the CPU from the thread. */
void  ns_net_rx_softirq_thread  (NsThread *t, gpointer data);

extern NsFunc lo_fn_loopback_xmit;
extern NsFunc lo_fn_process_backlog;
extern NsFunc lo_fn_net_rx_action;

G_END_DECLS
