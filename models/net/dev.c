/* dev.c — the net/core/dev.c transmit helpers that both modelled device paths take, the
 * same in v6.1 and v6.9 for a one-queue software device without GSO, VLAN or xfrm
 * offload: the loopback path of seed 000 (models/net/loopback.c) and the dummy/clsact
 * path of seed 002 (models/net/sched/dev_xmit.c).
 *
 *   netdev_core_pick_tx: skb->sender_cpu, queue 0, &dev->_tx[0]
 *   validate_xmit_skb → netif_skb_features (→ skb_network_protocol), the vlan, socket,
 *     gso, linearize and checksum tests, validate_xmit_xfrm (no sec_path)
 *
 * Instruction counts are estimates from the C source (about one instruction per simple
 * statement, test or field access of the fast path; the helpers named in each comment are
 * inline there). */
#include "config.h"
#include "netdevice.h"
#include "skbuff.h"

/* Sizes: estimates of x86-64 text (distro config, helpers inlined as noted). */
static NS_FUNC (fn_netdev_core_pick_tx, "netdev_core_pick_tx", 160, NS_FN_EXTERN, 3);
static NS_FUNC (fn_validate_xmit_skb, "validate_xmit_skb", 420, NS_FN_STATIC, 2);
static NS_FUNC (fn_netif_skb_features, "netif_skb_features", 420, NS_FN_EXTERN, 4);
static NS_FUNC (fn_skb_network_protocol, "skb_network_protocol", 140, NS_FN_EXTERN, 6);
static NS_FUNC (fn_validate_xmit_xfrm, "validate_xmit_xfrm", 900, NS_FN_EXTERN, 2);

/* netdev_core_pick_tx: the XPS sender_cpu, queue 0 of a one-queue device. */
struct netdev_queue *
netdev_core_pick_tx (NsThread *t, struct net_device *dev, struct sk_buff *skb)
{
  ns_call (t, &fn_netdev_core_pick_tx);
  /* skb->sender_cpu (napi_id union): set to raw_smp_processor_id() + 1 */
  NS_LOAD_FIELD (t, skb, napi_id);
  if (skb->napi_id == 0) {
    skb->napi_id = ns_thread_cpu (t) + 1;
    NS_STORE_FIELD (t, skb, napi_id);
  }
  NS_LOAD_FIELD (t, dev, real_num_tx_queues);
  skb->queue_mapping = 0;
  NS_STORE_FIELD (t, skb, queue_mapping);
  NS_LOAD_FIELD (t, dev, _tx);
  /* estimate: 12 instructions (sender_cpu test and store, queue count test, mapping,
   * &dev->_tx[0]) */
  ns_insns (t, 12);
  ns_ret (t);
  return &dev->_tx[0];
}

/* netif_skb_features: dev->features narrowed by gso, encapsulation, vlan and the
 * default features check, then harmonize_features (skb_network_protocol). */
static guint64
netif_skb_features (NsThread *t, struct sk_buff *skb)
{
  struct net_device *dev = skb->dev;
  guint64 features;

  ns_call (t, &fn_netif_skb_features);
  NS_LOAD_FIELD (t, skb, dev);
  NS_LOAD_FIELD (t, dev, features);
  features = dev->features;
  NS_LOAD_FIELD (t, skb_shinfo (skb), gso_size);
  NS_LOAD_FIELD (t, skb, header_bits);       /* encapsulation */
  NS_LOAD_FIELD (t, skb, vlan_all);
  NS_LOAD_FIELD (t, dev, netdev_ops);
  ns_load (t, &dev->netdev_ops->ndo_features_check, sizeof (gpointer));
  NS_LOAD_FIELD (t, skb, protocol);          /* dflt_features_check: vlan test */
  /* estimate: 22 instructions (gso, encapsulation and vlan tests, ndo_features_check
   * test, vlan_features_check) */
  ns_insns (t, 22);
  /* harmonize_features: skb_network_protocol, net_mpls_features, csum test */
  ns_call (t, &fn_skb_network_protocol);
  NS_LOAD_FIELD (t, skb, protocol);
  /* estimate: 8 instructions (ETH_P_TEB test, __vlan_get_protocol's vlan test) */
  ns_insns (t, 8);
  ns_ret (t);
  NS_LOAD_FIELD (t, skb, ip_summed);
  /* estimate: 6 instructions (mpls test, can_checksum_protocol, no highmem on x86-64) */
  ns_insns (t, 6);
  ns_ret (t);
  return features;
}

/* validate_xmit_xfrm: xfrm_offload(skb) — no sec_path extension: return skb. */
static void
validate_xmit_xfrm (NsThread *t, struct sk_buff *skb)
{
  ns_call (t, &fn_validate_xmit_xfrm);
  NS_LOAD_FIELD (t, skb, active_extensions);
  /* estimate: 7 instructions (prologue locals, skb_ext_find test, return) */
  ns_insns (t, 7);
  ns_ret (t);
}

/* validate_xmit_skb: features, vlan, socket validation, gso/linearize/csum, xfrm. */
struct sk_buff *
validate_xmit_skb (NsThread *t, struct sk_buff *skb, struct net_device *dev)
{
  ns_call (t, &fn_validate_xmit_skb);
  netif_skb_features (t, skb);
  NS_LOAD_FIELD (t, skb, vlan_all);          /* validate_xmit_vlan */
  NS_LOAD_FIELD (t, skb, sk);                /* sk_validate_xmit_skb */
  NS_LOAD_FIELD (t, skb_shinfo (skb), gso_size);   /* netif_needs_gso */
  NS_LOAD_FIELD (t, skb, data_len);          /* skb_needs_linearize */
  NS_LOAD_FIELD (t, skb, ip_summed);         /* CHECKSUM_PARTIAL? */
  /* estimate: 16 instructions (the five tests above and their branches) */
  ns_insns (t, 16);
  validate_xmit_xfrm (t, skb);
  ns_ret (t);
  return skb;
}
