/* loopback.h — the device layer of a loopback datagram: dev_queue_xmit down to
 * loopback_xmit (drivers/net/loopback.c), __netif_rx into the per-CPU backlog, the NET_RX
 * softirq (kernel/softirq.c) and the backlog NAPI up to the protocol handler
 * (net/core/dev.c). */
#pragma once
#include "netstack.h"

G_BEGIN_DECLS

/* Fills s->softirq and s->dev_core: the loopback stack's bottom halves (softirq.h; its
 * do_softirq runs NET_RX on this CPU) and its side of net/core/dev.c's transmit path
 * (models/net/dev.c), whose ndo_start_xmit = loopback_xmit → __netif_rx raises NET_RX,
 * and whose closing local_bh_enable runs that softirq before returning. */
void  ns_loopback_core_init     (NsNetStack *s);
/* loopback_xmit: the body of the loopback device's ndo_start_xmit (owner: NsNetStack). */
int   loopback_xmit             (NsThread *t, gpointer owner, struct sk_buff *skb,
                                 struct net_device *dev);
/* The body of a CPU's NET_RX softirq context (the thread ns_netstack_start_cpu spawns):
 * sleeps until raised, then __do_softirq → net_rx_action → process_backlog. data is the
 * CPU's struct softnet_data's stack (NsNetStack *) with the CPU from the thread. */
void  ns_net_rx_softirq_thread  (NsThread *t, gpointer data);

extern NsFunc lo_fn_loopback_xmit;
extern NsFunc lo_fn_process_backlog;
extern NsFunc lo_fn_net_rx_action;

G_END_DECLS
