/* loopback.c — the device layer of a loopback datagram, v6.9: __dev_queue_xmit (net/dev.c)
 * with the noqueue qdisc and NETIF_F_LLTX, its ndo_start_xmit = loopback_xmit
 * (drivers/net/loopback.c) → __netif_rx → enqueue_to_backlog on this CPU (RPS off), the
 * NET_RX softirq run by local_bh_enable at the end of __dev_queue_xmit (kernel/softirq.c:
 * __local_bh_enable_ip → do_softirq → __do_softirq → net_rx_action), and the backlog NAPI
 * (process_backlog → __netif_receive_skb → __netif_receive_skb_core → ip_rcv/ipv6_rcv).
 *
 * Out of line or not: every function below is out of line in a distro build of v6.9 (they
 * all show up as frames in perf call graphs of this path, and in the 6.1 census); the
 * static ones have two or more call sites or are reached through a pointer, and are
 * larger than the inline limit, so the build model agrees. Inline helpers (skb_orphan,
 * napi_poll, ____napi_schedule ...) are charged inside their callers.
 * Text sizes: the Debian 6.1.176 binary's (nm -S; doc/census/text-sizes-6.1.176.txt), but
 * __do_softirq's (handle_softirqs') and irqtime_account_irq's
 * (doc/census/text-sizes-kept.txt). Instruction
 * counts: the census of the Debian 6.1.176 binary (doc/census/seed000/send.md for the
 * transmit and the backlog, receive.md sections A and B for the softirq), each function's
 * body = its total less its prologue, epilogue and return (its NS_FUNC frame), unless
 * marked "estimate". Where a count is split between call sites the split is an estimate
 * and the total the census'. Functions the binary enters by a tail jmp are entered by
 * ns_tail_call. The net/core/dev.c
 * transmit path (__dev_queue_xmit down to netdev_start_xmit) is models/net/dev.c's,
 * shared with the tc model; this stack gives it its per-CPU data and local_bh_enable
 * (ns_loopback_core_init); bottom halves are models/net/softirq.c's, whose do_softirq
 * here runs NET_RX. */
#include "config.h"
#include "loopback.h"
#include "ip.h"
#include "netdevice.h"

NS_FUNC (lo_fn_loopback_xmit, "loopback_xmit", 280, 7, NS_FN_STATIC | NS_FN_INDIRECT, 1);
NS_FUNC (lo_fn_process_backlog, "process_backlog", 282, 11, NS_FN_STATIC | NS_FN_INDIRECT, 1);
NS_FUNC (lo_fn_net_rx_action, "net_rx_action", 847, 15, NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_eth_type_trans, "eth_type_trans", 323, 3, NS_FN_EXTERN, 30);
static NS_FUNC (fn___netif_rx, "__netif_rx", 169, 3, NS_FN_EXTERN, 5);
static NS_FUNC (fn_netif_rx_internal, "netif_rx_internal", 319, 5, NS_FN_STATIC, 2);
static NS_FUNC (fn_enqueue_to_backlog, "enqueue_to_backlog", 709, 15, NS_FN_STATIC, 4);
static NS_FUNC (fn_do_softirq, "do_softirq", 153, 4, NS_FN_EXTERN, 3);
static NS_FUNC (fn___do_softirq, "__do_softirq", 633, 15, NS_FN_EXTERN, 3);
static NS_FUNC (fn___napi_poll, "__napi_poll", 342, 9, NS_FN_STATIC, 2);
static NS_FUNC (fn_irqtime_account_irq, "irqtime_account_irq", 200, NS_FRAME_UNKNOWN, NS_FN_EXTERN, 4);
static NS_FUNC (fn___netif_receive_skb, "__netif_receive_skb", 75, 5, NS_FN_STATIC, 3);
static NS_FUNC (fn___netif_receive_skb_one_core, "__netif_receive_skb_one_core", 151, 5,
                NS_FN_STATIC, 2);
static NS_FUNC (fn___netif_receive_skb_core, "__netif_receive_skb_core", 3823, 17,
                NS_FN_STATIC, 2);
static NS_FUNC (fn_raise_softirq_irqoff, "raise_softirq_irqoff", 127, 2, NS_FN_EXTERN, 20);
static NS_FUNC (fn___usecs_to_jiffies, "__usecs_to_jiffies", 54, 1, NS_FN_EXTERN, 20);

#define NAPI_STATE_SCHED  1ul
#define SOFTIRQ_OFFSET    0x100   /* include/linux/preempt.h */
#define MAX_SOFTIRQ_RESTART 10    /* kernel/softirq.c */

/* ---- transmit ---- */

/* skb_orphan: the owner's destructor (sock_wfree, ip.c, through the pointer) returns the
 * skb's truesize to sk_wmem_alloc; loopback_xmit calls it so a sender never blocks on
 * sndbuf. */
static void
skb_orphan (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  NS_LOAD_FIELD (t, skb, destructor);
  if (skb->destructor == NULL)
    return;
  sock_wfree (t, s, skb);
  skb->destructor = NULL;
  skb->sk = NULL;
  NS_STORE_FIELD (t, skb, destructor);
  NS_STORE_FIELD (t, skb, sk);
}

/* skb_tx_timestamp: skb_clone_tx_timestamp (CONFIG_NETWORK_PHY_TIMESTAMPING=y, as in
 * models/net/dummy.c: lo has no PHY), then the SW-timestamp flag of the shared info. */
static void
skb_tx_timestamp (NsThread *t, struct sk_buff *skb)
{
  ns_call (t, &skb_fn_skb_clone_tx_timestamp);
  NS_LOAD_FIELD (t, skb, sk);
  ns_insns (t, 9);                  /* census: 18, P/E 9: skb->sk set, no phydev */
  ns_ret (t);
  ns_load (t, skb_shinfo (skb), 4);
}

/* eth_type_trans: reads the Ethernet header neigh_hh_output wrote, pulls it. */
static guint16
eth_type_trans (NsThread *t, NsNetStack *s, struct sk_buff *skb, struct net_device *dev)
{
  guint16 proto = skb_dst (skb) == s->rt_lo6 ? ETH_P_IPV6_BE : ETH_P_IP_BE;

  ns_call (t, &fn_eth_type_trans);
  /* census: 39, P/E 5 — mac header reset, pull 14, dest == dev_addr → PACKET_HOST, the
   * DSA and 802.3 tests, proto 0x0800 */
  ns_insns (t, 34);
  ns_load (t, skb->data, ETH_HLEN);
  NS_LOAD_FIELD (t, dev, dev_addr);
  ns_load (t, dev->dev_addr, 8);              /* ether_addr_equal_64bits */
  skb->dev = dev;
  skb_reset_mac_header (skb);
  __skb_pull (skb, ETH_HLEN);
  skb->pkt_type = 0;            /* PACKET_HOST */
  NS_STORE_FIELD (t, skb, dev);
  NS_STORE_FIELD (t, skb, len);
  NS_STORE_FIELD (t, skb, mac_header);
  NS_STORE_FIELD (t, skb, data);
  ns_ret (t);
  return proto;
}

/* raise_softirq_irqoff(NET_RX_SOFTIRQ): the pending bit; BH is disabled (in_interrupt()),
 * so no ksoftirqd wake-up. */
static void
raise_softirq_irqoff (NsThread *t, struct softnet_data *sd)
{
  ns_call (t, &fn_raise_softirq_irqoff);
  ns_insns (t, 9);                  /* census: 13, P/E 4 */
  sd->softirq_pending = 1;
  NS_STORE_FIELD (t, sd, softirq_pending);
  ns_ret (t);
}

/* napi_schedule_rps → ____napi_schedule (inlined): set NAPI_STATE_SCHED (bts), the backlog
 * NAPI onto sd->poll_list (list_add_tail under DEBUG_LIST), raise NET_RX. */
static void
napi_schedule_rps (NsThread *t, NsNetStack *s, struct softnet_data *sd)
{
  sd->napi_state |= NAPI_STATE_SCHED;
  NS_STORE_FIELD (t, sd, napi_state);
  ns_insns (t, 12);                 /* census: bts, this CPU's sd, not threaded */
  ns___list_add_valid (t, s);
  NS_STORE_FIELD (t, sd, poll_list);
  ns_insns (t, 12);                 /* census: the list links, the raise call */
  raise_softirq_irqoff (t, sd);
}

/* enqueue_to_backlog(skb, cpu): under the backlog lock, drop if skb->dev is not running
 * or the queue is over netdev_max_backlog; else append to input_pkt_queue and, if the
 * backlog NAPI is not scheduled, schedule it and raise NET_RX_SOFTIRQ. */
static gint
enqueue_to_backlog (NsThread *t, NsNetStack *s, struct sk_buff *skb, guint cpu)
{
  struct softnet_data *sd = s->sd[cpu];

  ns_call (t, &fn_enqueue_to_backlog);
  /* census: 85 when it schedules the NAPI, 59 when it is queued, 61 with qlen 0 and SCHED
   * set; P/E 17. Common 42: 20 for the reason, sd and the stack protector, 10 for
   * netif_running, qlen against max_backlog and the flow limit, 12 for the enqueue and
   * the tail counter; then 2 for the qlen-0 test and 24 for napi_schedule_rps */
  ns_insns (t, 20);
  /* v6.9 net/core/dev.c enqueue_to_backlog: rps_lock_irqsave, then
   * if (!netif_running(skb->dev)) goto drop (__LINK_STATE_START clear), then qlen against
   * netdev_max_backlog; both drops share the drop label */
  ns_raw_spin_lock (t, s, &sd->input_pkt_queue.lock, NS_LOCK_IRQSAVE);  /* rps_lock_irqsave */
  ns_insns (t, 10);
  NS_LOAD_FIELD (t, skb->dev, state);
  if (!(skb->dev->state & (1ul << __LINK_STATE_START)))
    goto drop;
  NS_LOAD_FIELD (t, sd, input_pkt_queue.qlen);
  if (sd->input_pkt_queue.qlen > s->max_backlog)
    goto drop;
  if (sd->input_pkt_queue.qlen == 0) {
    ns_insns (t, 2);
    NS_LOAD_FIELD (t, sd, napi_state);
    if (!(sd->napi_state & NAPI_STATE_SCHED))
      napi_schedule_rps (t, s, sd);
  }
  /* __skb_queue_tail + input_queue_tail_incr_save */
  ns_insns (t, 12);
  __skb_queue_tail (&sd->input_pkt_queue, skb);
  NS_STORE_FIELD (t, skb, next);
  NS_STORE_FIELD (t, sd, input_pkt_queue);
  sd->input_queue_tail++;
  NS_STORE_FIELD (t, sd, input_queue_tail);
  ns_raw_spin_unlock (t, s, &sd->input_pkt_queue.lock, NS_LOCK_IRQSAVE);
  ns_ret (t);
  return 0;                     /* NET_RX_SUCCESS */

drop:
  /* sd->dropped++, rps_unlock_irq_restore, dev_core_stats_rx_dropped_inc(skb->dev),
   * kfree_skb_reason, NET_RX_DROP */
  s->counters.backlog_drops++;  /* sd->dropped (a host counter: not charged) */
  ns_raw_spin_unlock (t, s, &sd->input_pkt_queue.lock, NS_LOCK_IRQSAVE);
  dev_core_stats_rx_dropped_inc (t, &s->dev_core, skb->dev);
  kfree_skb (t, s->alloc, skb);
  ns_ret (t);
  return 1;                     /* NET_RX_DROP */
}

/* __netif_rx → netif_rx_internal (RPS off: the local CPU's backlog). */
static gint
__netif_rx (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  gint ret;

  ns_call (t, &fn___netif_rx);
  ns_insns (t, 7);                  /* census: 12, P/E 5: the tracepoint NOPs */
  ns_call (t, &fn_netif_rx_internal);
  /* census: 22, P/E 7: netstamp_needed_key, tracepoint and rps_needed NOPs, the CPU */
  ns_insns (t, 15);
  ret = enqueue_to_backlog (t, s, skb, ns_thread_cpu (t));
  ns_ret (t);
  ns_ret (t);
  return ret;
}

/* loopback_xmit: orphan, keep the dst (skb_dst_force), eth_type_trans, __netif_rx,
 * per-CPU lstats (netdev_start_xmit charged the indirect call and its return). */
int
loopback_xmit (NsThread *t, gpointer owner, struct sk_buff *skb, struct net_device *dev)
{
  NsNetStack *s = owner;
  struct softnet_data *sd = s->sd[ns_thread_cpu (t)];
  guint len;

  /* census: 45, P/E 9 — 36: 6 to skb_tx_timestamp's call, 8 for the SW-tstamp test,
   * skb_clear_tstamp and skb_orphan's test, 6 for skb_dst_force and eth_type_trans's call,
   * 6 for the protocol, len and __netif_rx's call, 10 for dev_lstats_add */
  ns_insns (t, 6);
  skb_tx_timestamp (t, skb);
  ns_insns (t, 8);
  skb_orphan (t, s, skb);
  NS_LOAD_FIELD (t, skb, _skb_refdst);
  ns_insns (t, 6);
  skb->protocol = eth_type_trans (t, s, skb, dev);
  NS_STORE_FIELD (t, skb, protocol);
  len = skb->len;
  ns_insns (t, 6);
  if (__netif_rx (t, s, skb) == 0) {
    /* dev_lstats_add: u64_stats update of this CPU's pcpu_lstats */
    ns_insns (t, 10);
    ns_store (t, sd->lo_lstats, 16);
    sd->lo_lstats[0]++;
    sd->lo_lstats[1] += len;
  }
  return 0;
}

/* ---- the loopback stack as net/core/dev.c's ---- */

/* This CPU's softnet_data.xmit. */
static struct netdev_xmit *
lo_xmit (gpointer owner, NsThread *t)
{
  return &((NsNetStack *) owner)->sd[ns_thread_cpu (t)]->xmit;
}

/* do_softirq for the loopback stack: the NET_RX softirq runs on this CPU before
 * __local_bh_enable_ip returns — the CPU's NET_RX context is woken and preempts the
 * caller at once (it is a softirq-class thread of the same CPU). */
static void
lo_do_softirq (NsThread *t, gpointer owner)
{
  NsNetStack *s = owner;
  guint cpu = ns_thread_cpu (t);

  if (s->napi_thread[cpu] == NULL)
    return;
  ns_call (t, &fn_do_softirq);
  /* census (do_softirq.part.0 of the 6.1 binary): 34, P/E 5 — irq save/cli/restore,
   * pending, ksoftirqd_running, the switch to the irq stack. v6.9's do_softirq has no
   * ksoftirqd_running test (d15121be7485, Revert "softirq: Let ksoftirqd do its job",
   * v6.5-rc1); its few instructions are left in the 6.1 count. */
  ns_insns (t, 29);
  ns_thread_wake (s->napi_thread[cpu], ns_thread_now (t));
  ns_thread_yield (t);
  ns_ret (t);
}

/* This CPU's pcpu_hot.preempt_count and irq_stat.__softirq_pending. */
static gint32 *
lo_preempt_count (gpointer owner, NsThread *t)
{
  return ((NsNetStack *) owner)->preempt_count[ns_thread_cpu (t)];
}

/* This CPU's irq_stat.__softirq_pending (kept in its softnet_data). */
static guint32 *
lo_softirq_pending (gpointer owner, NsThread *t)
{
  return &((NsNetStack *) owner)->sd[ns_thread_cpu (t)]->softirq_pending;
}

/* Fills s->dev_core (see loopback.h). */
void
ns_loopback_core_init (NsNetStack *s)
{
  g_return_if_fail (s != NULL && s->ptype_all != NULL && s->jiffies != NULL);
  s->softirq = (SoftirqCtx) { s, lo_preempt_count, lo_softirq_pending, lo_do_softirq };
  ns_skb_alloc_set_stack (s->alloc, s);
  s->dev_core = (NetDevCore) {
    .owner = s, .xmit = lo_xmit, .softirq = &s->softirq,
    .egress_needed_key = &s->egress_needed_key, .egress = NULL,
    .ptype_all = s->ptype_all, .jiffies = s->jiffies,
    .alloc = s->alloc, .arena = s->arena, .n_cpus = s->n_cpus
  };
}

/* ---- the NET_RX softirq ---- */

/* __netif_receive_skb_core: the headers, no taps, no tc ingress, no rx_handler; the
 * ptype_base walk finds the protocol handler. Returns the handler's result. */
static gint
__netif_receive_skb_core (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  struct net_device *dev = skb->dev;

  ns_call (t, &fn___netif_receive_skb_core);
  /* census (the constprop copy): 135, P/E 19 — skb_iif, net_timestamp_check, header
   * resets, mac_len, pfmemalloc, 4 key NOPs (generic XDP, ingress...), VLAN tests, the
   * empty ptype_all, rx_handler NULL, one ptype_base entry, skb_orphan_frags */
  ns_insns (t, 116);
  NS_LOAD_FIELD (t, skb, dev);
  NS_LOAD_FIELD (t, skb, tstamp);
  NS_STORE_FIELD (t, skb, skb_iif);
  skb_reset_network_header (skb);
  NS_STORE_FIELD (t, skb, network_header);
  NS_LOAD_FIELD (t, skb, vlan_all);
  NS_LOAD_FIELD (t, skb, protocol);
  NS_LOAD_FIELD (t, dev, ptype_specific);
  NS_LOAD_FIELD (t, dev, rx_handler);
  ns_load_dep (t, s->ptype_base, 64);
  ns_ret (t);
  return 0;
}

/* __netif_receive_skb → __netif_receive_skb_one_core → the core, then the handler
 * through INDIRECT_CALL_INET (a compare and a direct call to ip_rcv / ipv6_rcv). */
static void
__netif_receive_skb (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  /* no memalloc socket: the ftrace site, the static key's NOP and a tail jmp, before the
   * frame (push %rbp, %rbx) of the pfmemalloc branch (doc/census/frameless-6.1.176.txt) */
  ns_call_shrink_wrapped (t, &fn___netif_receive_skb, 1);
  ns_insns (t, 3);                  /* census: 4, P/E 1: memalloc_socks NOP, the tail jmp */
  ns_tail_call (t, &fn___netif_receive_skb_one_core);
  /* census: 33, P/E 7 — orig_dev, pt_prev, the stack protector, INDIRECT_CALL_INET's
   * compares with ipv6_rcv and ip_rcv before the direct call; 29 for IPv6, whose compare
   * is the first (receive6.md) */
  ns_insns (t, skb->protocol == ETH_P_IPV6_BE ? 22 : 26);
  __netif_receive_skb_core (t, s, skb);
  if (skb->protocol == ETH_P_IPV6_BE)
    ipv6_rcv (t, s, skb);
  else
    ip_rcv (t, s, skb);
  ns_ret (t);
  ns_ret (t);
}

/* process_backlog: deliver process_queue; refill it from input_pkt_queue under the backlog
 * lock; when both are empty, clear NAPI_STATE_SCHED and stop. */
static gint
process_backlog (NsThread *t, NsNetStack *s, struct softnet_data *sd, gint quota)
{
  gint work = 0;

  ns_icall (t, &lo_fn_process_backlog);
  /* census: fixed 64, P/E 13 — 51: 15 for the RPS IPI check and napi->weight, 12 in each
   * backlog-lock section, 12 on the way out; 22 per skb (dequeue, the RCU calls,
   * __netif_receive_skb, input_queue_head_incr, ++work) */
  ns_insns (t, 15);
  for (;;) {
    struct sk_buff *skb;
    while ((skb = __skb_dequeue (&sd->process_queue)) != NULL) {
      ns_insns (t, 22);
      NS_LOAD_FIELD (t, sd, process_queue);
      ns_load (t, &skb->next, 16);
      NS_STORE_FIELD (t, sd, process_queue);
      sd->input_queue_head++;
      NS_STORE_FIELD (t, sd, input_queue_head);
      ns_rcu_read_lock (t, s);
      __netif_receive_skb (t, s, skb);
      ns_rcu_read_unlock (t, s);
      if (++work >= quota)
        goto out;
    }
    ns_raw_spin_lock (t, s, &sd->input_pkt_queue.lock, NS_LOCK_IRQ);  /* backlog_lock_irq_disable */
    ns_insns (t, 12);
    NS_LOAD_FIELD (t, sd, input_pkt_queue);
    if (skb_queue_empty (&sd->input_pkt_queue)) {
      sd->napi_state &= ~NAPI_STATE_SCHED;          /* napi->state = 0 */
      NS_STORE_FIELD (t, sd, napi_state);
      ns_raw_spin_unlock (t, s, &sd->input_pkt_queue.lock, NS_LOCK_IRQ);
      break;
    }
    skb_queue_splice_tail_init (&sd->input_pkt_queue, &sd->process_queue);
    NS_STORE_FIELD (t, sd, input_pkt_queue);
    NS_STORE_FIELD (t, sd, process_queue);
    ns_raw_spin_unlock (t, s, &sd->input_pkt_queue.lock, NS_LOCK_IRQ);
  }
out:
  ns_insns (t, 12);
  ns_ret (t);
  return work;
}

/* __usecs_to_jiffies: the conversion, out of line. */
static void
__usecs_to_jiffies (NsThread *t)
{
  ns_call (t, &fn___usecs_to_jiffies);
  ns_insns (t, 8);                  /* census: 11, P/E 3 */
  ns_ret (t);
}

/* net_rx_action → napi_poll → __napi_poll → n->poll (process_backlog) for the NAPI on
 * poll_list (the backlog NAPI, listed while NAPI_STATE_SCHED), within netdev_budget
 * (300) — the netdev_budget_usecs limit is computed but the model's jiffies stand still.
 * A NAPI that used its whole weight stays scheduled: napi_poll puts it on the repoll
 * list, which goes back onto poll_list with NET_RX raised again
 * (__raise_softirq_irqoff), so each run polls it once. */
static void
net_rx_action (NsThread *t, NsNetStack *s, struct softnet_data *sd)
{
  gint budget = 300;            /* net.core.netdev_budget */
  gboolean repoll = FALSE;

  ns_icall (t, &lo_fn_net_rx_action);
  /* census: 101 for one NAPI with its P/E 17, so a body of 84 — fixed 66 with the P/E:
   * 30 to the time limit's __usecs_to_jiffies (netdev_budget_usecs) with the prologue, 10
   * for the list_splice_init of poll_list and the loop entry, 26 for
   * net_rps_action_and_irq_enable and the canary with the epilogue; per NAPI 35: 12 to
   * napi_poll's list_del_init, 23 around __napi_poll and the work checks. Less the P/E
   * (9 at the entry, 8 at the exit: the split an estimate): 21 + 10 + 12 + 23 + 18 = 84.
   * (Until 2026-12-01 the model charged the 101 as body: +17 a softirq run.) */
  ns_insns (t, 21);
  __usecs_to_jiffies (t);
  ns_insns (t, 10);
  NS_LOAD_FIELD (t, sd, poll_list);
  NS_STORE_FIELD (t, sd, poll_list);
  if (sd->napi_state & NAPI_STATE_SCHED) {
    gint work;
    ns_insns (t, 12);
    ns___list_del_entry_valid (t, s);
    ns_call (t, &fn___napi_poll);
    /* census: 28, P/E 11: SCHED set, the indirect poll, work < weight, tracepoint NOP */
    ns_insns (t, 17);
    NS_LOAD_FIELD (t, sd, napi_poll);
    work = process_backlog (t, s, sd, sd->napi_weight);
    repoll = work >= sd->napi_weight;
    ns_ret (t);
    ns_insns (t, 23);
    budget -= work;
    if (budget <= 0) {          /* the softirq window is exhausted */
      sd->time_squeeze++;
      NS_STORE_FIELD (t, sd, time_squeeze);
    }
  }
  if (repoll) {
    /* estimate: 10 instructions, napi_poll's list_add_tail to repoll, the splices back
     * onto poll_list, the pending bit (or) */
    ns_insns (t, 10);
    ns___list_add_valid (t, s);
    NS_STORE_FIELD (t, sd, poll_list);
    sd->softirq_pending = 1;
    NS_STORE_FIELD (t, sd, softirq_pending);
  }
  ns_insns (t, 18);
  ns_ret (t);
}

/* account_softirq_enter / account_softirq_exit with CONFIG_IRQ_TIME_ACCOUNTING:
 * irqtime_account_irq reads sched_clock_cpu (RDTSC) and adds the delta to the CPU's irq
 * or softirq time. */
static void
irqtime_account_irq (NsThread *t, NsNetStack *s)
{
  if (!s->irqtime)
    return;
  ns_call (t, &fn_irqtime_account_irq);
  /* estimate: ~25 instructions (irqtime per-CPU data, delta, u64_stats update) */
  ns_insns (t, 25);
  ns_sched_clock_cpu (t);
  ns_ret (t);
}

/* __do_softirq: pending bits, the NET_RX action through softirq_vec (again while it is
 * re-raised, up to MAX_SOFTIRQ_RESTART rounds), accounting; the
 * handlers run in softirq context: softirq_handle_begin adds SOFTIRQ_OFFSET to the
 * preempt count (in_serving_softirq(), so in_interrupt() and a bh enable in a handler
 * does not run softirqs again), softirq_handle_end takes it off (kernel/softirq.c). */
static void
__do_softirq (NsThread *t, NsNetStack *s, struct softnet_data *sd)
{
  gint32 *count = s->preempt_count[ns_thread_cpu (t)];
  gint max_restart = MAX_SOFTIRQ_RESTART;

  ns_call (t, &fn___do_softirq);
  /* census: 6.1.176's __do_softirq is a wrapper (3) tail-jumping to handle_softirqs, whose
   * body 6.9-rc1's __do_softirq is: 85, P/E 17 — the irq enable/disable alternatives,
   * pending snapshot and clear, one bit (NET_RX), 2 tracepoint NOPs, nothing re-raised;
   * the wrapper's own 2 are not charged. Irq-time accounting (estimate below) is off in
   * that binary. The two preempt-count adds are among the 68; their pcpu_hot line is
   * the one __local_bh_enable_ip just wrote, its accesses not charged again. */
  ns_insns (t, 68);
  *count += SOFTIRQ_OFFSET;             /* softirq_handle_begin */
  irqtime_account_irq (t, s);
restart:
  NS_LOAD_FIELD (t, sd, softirq_pending);
  sd->softirq_pending = 0;
  NS_STORE_FIELD (t, sd, softirq_pending);
  net_rx_action (t, s, sd);
  /* re-raised meanwhile (a repolled NAPI): restart while MAX_SOFTIRQ_RESTART allows (the
   * model's jiffies stand still, nothing sets need_resched, so the 2 ms and need_resched
   * limits never end the loop). After the last round v6.9's handle_softirqs calls
   * wakeup_softirqd and returns, leaving the rest to ksoftirqd, a CFS thread; that hand-off
   * is NOT modelled: this thread goes on at softirq priority (doc/models/udp-loopback.md,
   * "Left out"; needs over 640 packets backlogged on one CPU, which no workload reaches).
   * The re-read of the pending word is among the 68 instructions, its line the one just
   * cleared (not charged again). */
  if (sd->softirq_pending && --max_restart > 0) {
    ns_insns (t, 8);                    /* estimate: the tests, the jump back */
    goto restart;
  }
  irqtime_account_irq (t, s);
  *count -= SOFTIRQ_OFFSET;             /* softirq_handle_end */
  ns_ret (t);
}

/* A CPU's NET_RX context: sleep until do_softirq wakes it with work pending. */
void
ns_net_rx_softirq_thread (NsThread *t, gpointer data)
{
  NsNetStack *s = data;
  struct softnet_data *sd = s->sd[ns_thread_cpu (t)];

  for (;;) {
    while (!sd->softirq_pending)
      ns_thread_block (t);
    __do_softirq (t, s, sd);
  }
}
