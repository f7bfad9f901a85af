/* loopback.c — the device layer of a loopback datagram, v6.9: __dev_queue_xmit (net/dev.c)
 * with the noqueue qdisc and NETIF_F_LLTX, its ndo_start_xmit = loopback_xmit
 * (drivers/net/loopback.c) → __netif_rx → enqueue_to_backlog on this CPU (RPS off), the
 * NET_RX softirq run by local_bh_enable at the end of __dev_queue_xmit (kernel/softirq.c:
 * __local_bh_enable_ip → do_softirq → __do_softirq → net_rx_action), and the backlog NAPI
 * (process_backlog → __netif_receive_skb → __netif_receive_skb_core → ip_rcv/ipv6_rcv).
 *
 * Out of line or not: every function below is out of line in a distro build of v6.9 (they
 * all show up as frames in perf call graphs of this path); the static ones have two or
 * more call sites or are reached through a pointer, and are larger than the inline
 * limit, so the build model agrees. Inline helpers (skb_orphan, napi_poll,
 * ____napi_schedule ...) are charged inside their callers.
 * Text sizes are estimates (bytes of x86-64 text, judged from the C source), instruction
 * counts are estimates of the path taken here, each with its reason. The net/core/dev.c
 * transmit path (__dev_queue_xmit down to netdev_start_xmit) is models/net/dev.c's,
 * shared with the tc model; this stack gives it its per-CPU data and local_bh_enable
 * (ns_loopback_core_init); bottom halves are models/net/softirq.c's, whose do_softirq
 * here runs NET_RX. */
#include "config.h"
#include "loopback.h"
#include "ip.h"
#include "netdevice.h"

NS_FUNC (lo_fn_loopback_xmit, "loopback_xmit", 260, NS_FN_STATIC | NS_FN_INDIRECT, 1);
NS_FUNC (lo_fn_process_backlog, "process_backlog", 520, NS_FN_STATIC | NS_FN_INDIRECT, 1);
NS_FUNC (lo_fn_net_rx_action, "net_rx_action", 900, NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_sock_wfree, "sock_wfree", 300, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_eth_type_trans, "eth_type_trans", 220, NS_FN_EXTERN, 30);
static NS_FUNC (fn___netif_rx, "__netif_rx", 120, NS_FN_EXTERN, 5);
static NS_FUNC (fn_netif_rx_internal, "netif_rx_internal", 280, NS_FN_STATIC, 2);
static NS_FUNC (fn_enqueue_to_backlog, "enqueue_to_backlog", 620, NS_FN_STATIC, 4);
static NS_FUNC (fn_do_softirq, "do_softirq", 120, NS_FN_EXTERN, 3);
static NS_FUNC (fn___do_softirq, "__do_softirq", 720, NS_FN_EXTERN, 3);
static NS_FUNC (fn___napi_poll, "__napi_poll", 400, NS_FN_STATIC, 2);
static NS_FUNC (fn_irqtime_account_irq, "irqtime_account_irq", 200, NS_FN_EXTERN, 4);
static NS_FUNC (fn_sched_clock_cpu, "sched_clock_cpu", 160, NS_FN_EXTERN, 30);
static NS_FUNC (fn___netif_receive_skb, "__netif_receive_skb", 200, NS_FN_STATIC, 3);
static NS_FUNC (fn___netif_receive_skb_one_core, "__netif_receive_skb_one_core", 220,
                NS_FN_STATIC, 2);
static NS_FUNC (fn___netif_receive_skb_core, "__netif_receive_skb_core", 3200,
                NS_FN_STATIC, 2);

#define NAPI_STATE_SCHED  1ul

/* ---- transmit ---- */

/* skb_orphan: the owner's destructor (sock_wfree, through the pointer) returns the skb's
 * truesize to sk_wmem_alloc; loopback_xmit calls it so a sender never blocks on sndbuf. */
static void
skb_orphan (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  struct sock *sk = skb->sk;

  NS_LOAD_FIELD (t, skb, destructor);
  if (skb->destructor == NULL)
    return;
  ns_icall (t, &fn_sock_wfree);
  /* estimate: ~30 instructions (SOCK_RCU_FREE + sock_def_write_space_wfree: sndbuf test,
   * wq sleeper test under RCU) */
  ns_insns (t, 30);
  ns_rcu_read_lock (t, s);
  ns_atomic (t, &sk->sk_wmem_alloc);
  sk->sk_wmem_alloc -= skb->truesize;
  NS_LOAD_FIELD (t, sk, sk_wq);
  ns_rcu_read_unlock (t, s);
  ns_ret (t);
  skb->destructor = NULL;
  skb->sk = NULL;
  NS_STORE_FIELD (t, skb, destructor);
  NS_STORE_FIELD (t, skb, sk);
}

/* eth_type_trans: reads the Ethernet header neigh_hh_output wrote, pulls it. */
static guint16
eth_type_trans (NsThread *t, NsNetStack *s, struct sk_buff *skb, struct net_device *dev)
{
  guint16 proto = skb_dst (skb) == s->rt_lo6 ? ETH_P_IPV6_BE : ETH_P_IP_BE;

  ns_call (t, &fn_eth_type_trans);
  /* estimate: ~35 instructions (mac header reset, pull, dest address compare with
   * dev_addr, pkt_type, DSA/ETH_P_802_3 tests) */
  ns_insns (t, 35);
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

/* enqueue_to_backlog(skb, cpu): under the backlog lock, append to input_pkt_queue and,
 * if the backlog NAPI is not scheduled, schedule it and raise NET_RX_SOFTIRQ. */
static gint
enqueue_to_backlog (NsThread *t, NsNetStack *s, struct sk_buff *skb, guint cpu)
{
  struct softnet_data *sd = s->sd[cpu];
  gint ret = 0;

  ns_call (t, &fn_enqueue_to_backlog);
  /* estimate: ~30 instructions (reason, sd, netif_running, qlen vs max_backlog,
   * skb_flow_limit off) */
  ns_insns (t, 30);
  NS_LOAD_FIELD (t, s->lo, state);
  ns_raw_spin_lock (t, s, &sd->input_pkt_queue.lock, NS_LOCK_IRQSAVE);  /* rps_lock_irqsave */
  NS_LOAD_FIELD (t, sd, input_pkt_queue.qlen);
  if (sd->input_pkt_queue.qlen > s->max_backlog) {
    s->counters.backlog_drops++;
    ns_raw_spin_unlock (t, s, &sd->input_pkt_queue.lock, NS_LOCK_IRQSAVE);
    kfree_skb (t, s->alloc, skb);
    ret = 1;                    /* NET_RX_DROP */
    goto out;
  }
  if (sd->input_pkt_queue.qlen == 0) {
    NS_LOAD_FIELD (t, sd, napi_state);
    if (!(sd->napi_state & NAPI_STATE_SCHED)) {
      /* napi_schedule_rps → ____napi_schedule: list_add_tail on poll_list and
       * __raise_softirq_irqoff; estimate ~15 instructions */
      sd->napi_state |= NAPI_STATE_SCHED;
      ns_insns (t, 15);
      NS_STORE_FIELD (t, sd, napi_state);
      NS_STORE_FIELD (t, sd, poll_list);
      sd->softirq_pending = 1;
      NS_STORE_FIELD (t, sd, softirq_pending);
    }
  }
  /* __skb_queue_tail + input_queue_tail_incr_save; estimate ~12 instructions */
  ns_insns (t, 12);
  __skb_queue_tail (&sd->input_pkt_queue, skb);
  NS_STORE_FIELD (t, skb, next);
  NS_STORE_FIELD (t, sd, input_pkt_queue);
  sd->input_queue_tail++;
  NS_STORE_FIELD (t, sd, input_queue_tail);
  ns_raw_spin_unlock (t, s, &sd->input_pkt_queue.lock, NS_LOCK_IRQSAVE);
out:
  ns_ret (t);
  return ret;
}

/* __netif_rx → netif_rx_internal (RPS off: the local CPU's backlog). */
static gint
__netif_rx (NsThread *t, NsNetStack *s, struct sk_buff *skb)
{
  gint ret;

  ns_call (t, &fn___netif_rx);
  /* estimate: ~10 instructions (lockdep assert off, trace point off) */
  ns_insns (t, 10);
  ns_call (t, &fn_netif_rx_internal);
  /* estimate: ~20 instructions (net_timestamp_check with netstamp_needed_key off,
   * static branch rps_needed off, get_cpu) */
  ns_insns (t, 20);
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

  /* estimate: ~20 instructions (skb_tx_timestamp, skb_dst_force on a refcounted dst,
   * len) */
  ns_insns (t, 20);
  ns_load (t, skb_shinfo (skb), 4);
  skb_orphan (t, s, skb);
  NS_LOAD_FIELD (t, skb, _skb_refdst);
  skb->protocol = eth_type_trans (t, s, skb, dev);
  NS_STORE_FIELD (t, skb, protocol);
  len = skb->len;
  if (__netif_rx (t, s, skb) == 0) {
    /* dev_lstats_add: u64_stats update of this CPU's pcpu_lstats */
    ns_insns (t, 8);
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
  /* estimate: ~15 instructions (irq save, pending, ksoftirqd_running test,
   * do_softirq_own_stack's stack switch) */
  ns_insns (t, 15);
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
  s->dev_core = (NetDevCore) {
    .owner = s, .xmit = lo_xmit, .softirq = &s->softirq,
    .egress_needed_key = &s->egress_needed_key, .egress = NULL,
    .ptype_all = s->ptype_all, .jiffies = s->jiffies
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
  /* estimate: ~110 instructions (skb_iif, net_timestamp_check, network/transport header
   * reset, mac_len, pfmemalloc, generic XDP key off, VLAN tests, ptype_all walk (empty),
   * ingress key off, rx_handler NULL, ptype_base and ptype_specific walks, skb_orphan_frags) */
  ns_insns (t, 110);
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
  ns_call (t, &fn___netif_receive_skb);
  /* estimate: ~10 instructions (sk_memalloc_socks key) */
  ns_insns (t, 10);
  ns_call (t, &fn___netif_receive_skb_one_core);
  /* estimate: ~15 instructions (orig_dev, pt_prev, INDIRECT_CALL_INET compares) */
  ns_insns (t, 15);
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
  /* estimate: ~15 instructions (RPS IPI check, napi->weight) */
  ns_insns (t, 15);
  for (;;) {
    struct sk_buff *skb;
    while ((skb = __skb_dequeue (&sd->process_queue)) != NULL) {
      /* __skb_dequeue, rcu_read_lock, input_queue_head_incr: ~15 instructions */
      ns_insns (t, 15);
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
  ns_ret (t);
  return work;
}

/* net_rx_action → napi_poll → __napi_poll → n->poll (process_backlog) while NAPIs are
 * listed, within netdev_budget (300). */
static void
net_rx_action (NsThread *t, NsNetStack *s, struct softnet_data *sd)
{
  gint budget = 300;            /* net.core.netdev_budget */

  ns_icall (t, &lo_fn_net_rx_action);
  /* estimate: ~50 instructions (time limit from jiffies, list_splice_init of
   * poll_list, in_net_rx_action, the loop's list and budget tests) */
  ns_insns (t, 50);
  NS_LOAD_FIELD (t, sd, poll_list);
  NS_STORE_FIELD (t, sd, poll_list);
  while ((sd->napi_state & NAPI_STATE_SCHED) && budget > 0) {
    gint work;
    ns_call (t, &fn___napi_poll);
    /* estimate: ~25 instructions (weight, NAPI_STATE_SCHED test, trace, work checks) */
    ns_insns (t, 25);
    NS_LOAD_FIELD (t, sd, napi_poll);
    work = process_backlog (t, s, sd, sd->napi_weight);
    ns_ret (t);
    budget -= work;
  }
  /* net_rps_action_and_irq_enable: ~10 instructions */
  ns_insns (t, 10);
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
  ns_call (t, &fn_sched_clock_cpu);
  /* estimate: ~15 instructions around the RDTSC (cyc2ns scale and offset) */
  ns_insns (t, 15);
  ns_rdtsc (t);
  ns_ret (t);
  ns_ret (t);
}

/* __do_softirq: pending bits, the NET_RX action through softirq_vec, accounting. */
static void
__do_softirq (NsThread *t, NsNetStack *s, struct softnet_data *sd)
{
  ns_call (t, &fn___do_softirq);
  /* estimate: ~60 instructions (lockdep off, pending snapshot and clear, the bit loop,
   * restart test) */
  ns_insns (t, 60);
  irqtime_account_irq (t, s);
  NS_LOAD_FIELD (t, sd, softirq_pending);
  sd->softirq_pending = 0;
  NS_STORE_FIELD (t, sd, softirq_pending);
  net_rx_action (t, s, sd);
  irqtime_account_irq (t, s);
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
