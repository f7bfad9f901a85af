/* netdevice.h — the device-layer kernel functions both transmit models share: the
 * net/core/dev.c transmit path (declared once, in models/net/sched/dev_xmit.c, its model
 * of that file) and kernel/softirq.c's __local_bh_enable_ip (declared once, in
 * models/net/loopback.c, which models the softirq run). The loopback model
 * (loopback.c) and the tc model (sched/dev_xmit.c, sched/skb_xmit.c) charge their calls
 * to these same NsFuncs, so a process running both registers each symbol once. */
#pragma once
#include "build.h"

G_BEGIN_DECLS

/* net/core/dev.c (models/net/sched/dev_xmit.c) */
extern NsFunc dev_fn___dev_queue_xmit;
extern NsFunc dev_fn_netdev_core_pick_tx;
extern NsFunc dev_fn_validate_xmit_skb;
extern NsFunc dev_fn_netif_skb_features;
extern NsFunc dev_fn_dev_hard_start_xmit;

/* kernel/softirq.c, include/linux/bottom_half.h (models/net/loopback.c) */
extern NsFunc lo_fn___local_bh_enable_ip;

G_END_DECLS
