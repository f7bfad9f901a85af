/* dummy.c — drivers/net/dummy.c: a device that counts and frees what it is given.
 * dummy_setup: ether_setup (IFF_TX_SKB_SHARING), IFF_NO_QUEUE (the noqueue qdisc:
 * __dev_queue_xmit takes the direct path), features SG | FRAGLIST | HW_CSUM | HIGHDMA |
 * LLTX (no TX lock; the kernel's GSO_SOFTWARE and GSO_ENCAP_ALL bits are left out: no
 * modelled path segments), one TX queue; dummy_dev_init allocates the
 * per-CPU lstats. dummy_xmit: dev_lstats_add, skb_tx_timestamp, dev_kfree_skb
 * (= consume_skb), NETDEV_TX_OK. */
#include "config.h"
#include <string.h>
#include "sched/netdev.h"

/* dummy_xmit: static, reached through netdev_ops->ndo_start_xmit; dev_lstats_add and
 * skb_tx_timestamp inline. Size: the 6.1.176 dummy.ko's (nm -S). */
static NS_FUNC (fn_dummy_xmit, "dummy_xmit", 101, 3, NS_FN_STATIC | NS_FN_INDIRECT, 1);

/* dummy_xmit: the body (netdev_start_xmit charged the indirect call). */
static int
dummy_xmit (NsThread *t, gpointer owner, struct sk_buff *skb, struct net_device *dev)
{
  NetTx *tx = owner;
  struct pcpu_lstats *lstats;

  /* dev_lstats_add(dev, skb->len): this CPU's counters */
  NS_LOAD_FIELD (t, dev, lstats);
  NS_LOAD_FIELD (t, skb, len);
  lstats = tc_percpu_ptr (tx->tc, dev->lstats, ns_thread_cpu (t));
  ns_load (t, lstats, sizeof *lstats);
  lstats->bytes += skb->len;
  lstats->packets++;
  ns_store (t, lstats, sizeof *lstats);
  /* census (doc/census/xmit.md): 6 instructions (the skb, this_cpu_ptr, two adds, len) */
  ns_insns (t, 6);
  /* skb_tx_timestamp: skb_clone_tx_timestamp (CONFIG_NETWORK_PHY_TIMESTAMPING=y: returns
   * at !skb->sk, before the frame of the socket's path: the ftrace site only,
   * doc/census/frameless-6.1.176.txt), then the SKBTX_SW_TSTAMP test */
  ns_insns (t, 1);                          /* census: the call */
  ns_call_shrink_wrapped (t, &skb_fn_skb_clone_tx_timestamp, 1);
  NS_LOAD_FIELD (t, skb, sk);
  ns_insns (t, 2);                          /* census: the sk test */
  ns_ret (t);
  NS_LOAD_FIELD (t, skb_shinfo (skb), tx_flags);
  /* census: 7 instructions (shinfo, the SW_TSTAMP test, consume_skb's argument and call,
   * NETDEV_TX_OK) */
  ns_insns (t, 7);
  consume_skb (t, tx->alloc, skb);
  return NETDEV_TX_OK;
}

/* The dummy netdev_ops (static .data in the kernel; simulated memory here). */
static const struct net_device_ops *
dummy_netdev_ops (NetTx *tx)
{
  struct net_device_ops *ops = ns_arena_alloc (tx->arena, sizeof *ops, 64);

  ops->ndo_start_xmit = &fn_dummy_xmit;
  ops->start_xmit_impl = dummy_xmit;
  return ops;
}

/* A dummy device laid out as the machine's kernel release, up with carrier, noqueue qdisc,
 * per-CPU lstats. */
struct net_device *
dummy_create (NetTx *tx, const char *name)
{
  struct net_device *dev;
  NsBuild *build;

  g_return_val_if_fail (tx != NULL && name != NULL, NULL);
  build = ns_machine_build (tx->machine);
  dev = netdev_alloc (tx->arena,
                      netdev_layout_for_release (build ? ns_build_version (build) : NULL));
  g_strlcpy (dev->name, name, sizeof dev->name);
  dev->state = 1ul << __LINK_STATE_START;
  dev->ptype_all.next = dev->ptype_all.prev = &dev->ptype_all;
  dev->features = NETIF_F_SG | NETIF_F_FRAGLIST | NETIF_F_HW_CSUM | NETIF_F_HIGHDMA |
                  NETIF_F_LLTX;
  dev->netdev_ops = dummy_netdev_ops (tx);
  dev->flags = IFF_UP;
  dev->priv_flags = IFF_XMIT_DST_RELEASE | IFF_NO_QUEUE;
  dev->lstats = tc_alloc_percpu (tx->tc, sizeof (struct pcpu_lstats), 8);
  dev->num_tx_queues = dev->real_num_tx_queues = 1;
  /* netif_alloc_netdev_queues: kvzalloc(GFP_KERNEL_ACCOUNT), a kmalloc-cg-* cache apart
   * from tc's unaccounted kmalloc ones (the net_device too: alloc_netdev_mqs) */
  dev->_tx = ns_arena_alloc (tx->arena, sizeof (struct netdev_queue), 64);
  dev->_tx[0].dev = dev;
  dev->_tx[0].qdisc = dev->_tx[0].qdisc_sleeping = tx->noqueue_qdisc;
  dev->_tx[0].xmit_lock_owner = -1;
  dev->qdisc = tx->noqueue_qdisc;
  return dev;
}
