/* netdevice.c — struct net_device as each range of kernel releases lays it out
 * (netdevice.h): a device is charged through the arena's byte map of its layout
 * (ns_arena_set_layout), so where a model charges dev->field a v6.1 device spreads its fast
 * path over the lines v6.1 has it on and a v6.8+ device keeps it in the front groups.
 *
 * v6.1 and v6.12 are read off Debian's cloud-amd64 debug images with
 *   gdb -batch -ex 'ptype /o struct net_device' vmlinux
 * (linux-image-6.1.0-50-cloud-amd64-dbg 6.1.176-1 and
 * linux-image-6.12.118+deb12-cloud-amd64-dbg 6.12.118-1~deb12u1, 2026-12-05): the
 * release that tag names, with Debian's configuration, is what they measure; the range
 * each covers is an assumption stated at its entry. */
#include "config.h"
#include "kchange.h"
#include "netdevice.h"

#define ABSENT NETDEV_FIELD_ABSENT
#define AT(field) [NETDEV_FIELD_##field] = offsetof (struct net_device, field),

enum { NETDEV_LAYOUT_V6_1, NETDEV_LAYOUT_V6_8, NETDEV_LAYOUT_V6_12, NETDEV_LAYOUT_N };

static const struct netdev_layout layouts[NETDEV_LAYOUT_N] = {
  /* Before the cache-line groups: the order net_device had grown into, its hot fields
   * spread from state (line 0) to priomap (line 34). Taken for every release before
   * v6.8-rc1, though fields came and went in between (v6.3's gso/gro_ipv4_max_size, v6.6's
   * tcx_egress/tcx_ingress in the mini_Qdisc slots): only 6.1 was measured. lstats is in
   * the ml_priv/lstats/tstats/dstats union; miniq_* are v6.1's own fields. */
  [NETDEV_LAYOUT_V6_1] = { "v6.1", "Debian 6.1.176's DWARF", 2432, {
    [NETDEV_FIELD_name] = 0, [NETDEV_FIELD_state] = 56, [NETDEV_FIELD_ptype_all] = 128,
    [NETDEV_FIELD_ptype_specific] = 144, [NETDEV_FIELD_flags] = 192,
    [NETDEV_FIELD_priv_flags] = 200, [NETDEV_FIELD_netdev_ops] = 208,
    [NETDEV_FIELD_ifindex] = 216, [NETDEV_FIELD_hard_header_len] = 222,
    [NETDEV_FIELD_mtu] = 224, [NETDEV_FIELD_needed_headroom] = 228,
    [NETDEV_FIELD_features] = 232, [NETDEV_FIELD_gso_partial_features] = 280,
    [NETDEV_FIELD_core_stats] = 488, [NETDEV_FIELD_header_ops] = 544,
    [NETDEV_FIELD_ip6_ptr] = 736, [NETDEV_FIELD_dev_addr] = 768, [NETDEV_FIELD__rx] = 776,
    [NETDEV_FIELD_real_num_rx_queues] = 788, [NETDEV_FIELD_xdp_prog] = 792,
    [NETDEV_FIELD_gro_flush_timeout] = 800, [NETDEV_FIELD_napi_defer_hard_irqs] = 808,
    [NETDEV_FIELD_gro_max_size] = 812, [NETDEV_FIELD_rx_handler] = 816,
    [NETDEV_FIELD_rx_handler_data] = 824, [NETDEV_FIELD_miniq_ingress] = 832,
    [NETDEV_FIELD__tx] = 960, [NETDEV_FIELD_num_tx_queues] = 968,
    [NETDEV_FIELD_real_num_tx_queues] = 972, [NETDEV_FIELD_qdisc] = 976,
    [NETDEV_FIELD_xps_maps] = 1000, [NETDEV_FIELD_miniq_egress] = 1016,
    [NETDEV_FIELD_nf_hooks_egress] = 1024, [NETDEV_FIELD_npinfo] = 1264,
    [NETDEV_FIELD_nd_net] = 1272, [NETDEV_FIELD_lstats] = 1296,
    [NETDEV_FIELD_gso_max_size] = 2120, [NETDEV_FIELD_gso_max_segs] = 2128,
    [NETDEV_FIELD_num_tc] = 2144, [NETDEV_FIELD_tc_to_txq] = 2146,
    [NETDEV_FIELD_priomap] = 2232,
    [NETDEV_FIELD_gso_ipv4_max_size] = ABSENT, [NETDEV_FIELD_gro_ipv4_max_size] = ABSENT } },
  /* The groups (NS_KCHANGE_NETDEV_CACHELINE_GROUPS) and the rest at estimated offsets:
   * struct net_device as netdevice.h declares it, seed 000's v6.9-rc1. */
  [NETDEV_LAYOUT_V6_8] = {
    "v6.8", "the v6.9 field order with natural alignment (netdevice.h)", 2048, {
    NETDEV_FIELDS (AT) } },
  /* The same groups (every offset of them as v6.8's) and the rest as measured. Taken from
   * the 6.12 cycle on, though where between v6.9 and v6.12 the rest moved is not known, and a
   * 6.12 stable moved priomap (6.12.111's DWARF: 2272). miniq_* stand in the tcx_* slots. */
  [NETDEV_LAYOUT_V6_12] = { "v6.12", "Debian 6.12.118's DWARF", 2496, {
    [NETDEV_FIELD_priv_flags] = 0, [NETDEV_FIELD_netdev_ops] = 8,
    [NETDEV_FIELD_header_ops] = 16, [NETDEV_FIELD__tx] = 24,
    [NETDEV_FIELD_gso_partial_features] = 32, [NETDEV_FIELD_real_num_tx_queues] = 40,
    [NETDEV_FIELD_gso_max_size] = 44, [NETDEV_FIELD_gso_ipv4_max_size] = 48,
    [NETDEV_FIELD_gso_max_segs] = 52, [NETDEV_FIELD_num_tc] = 54, [NETDEV_FIELD_mtu] = 56,
    [NETDEV_FIELD_needed_headroom] = 60, [NETDEV_FIELD_tc_to_txq] = 62,
    [NETDEV_FIELD_xps_maps] = 128, [NETDEV_FIELD_nf_hooks_egress] = 144,
    [NETDEV_FIELD_miniq_egress] = 152, [NETDEV_FIELD_lstats] = 160,
    [NETDEV_FIELD_state] = 168, [NETDEV_FIELD_flags] = 176,
    [NETDEV_FIELD_hard_header_len] = 180, [NETDEV_FIELD_features] = 184,
    [NETDEV_FIELD_ip6_ptr] = 192, [NETDEV_FIELD_xdp_prog] = 200,
    [NETDEV_FIELD_ptype_specific] = 208, [NETDEV_FIELD_ifindex] = 224,
    [NETDEV_FIELD_real_num_rx_queues] = 228, [NETDEV_FIELD__rx] = 232,
    [NETDEV_FIELD_gro_flush_timeout] = 240, [NETDEV_FIELD_napi_defer_hard_irqs] = 248,
    [NETDEV_FIELD_gro_max_size] = 252, [NETDEV_FIELD_gro_ipv4_max_size] = 256,
    [NETDEV_FIELD_rx_handler] = 264, [NETDEV_FIELD_rx_handler_data] = 272,
    [NETDEV_FIELD_nd_net] = 280, [NETDEV_FIELD_npinfo] = 288,
    [NETDEV_FIELD_miniq_ingress] = 296, [NETDEV_FIELD_name] = 304,
    [NETDEV_FIELD_ptype_all] = 424, [NETDEV_FIELD_core_stats] = 752,
    [NETDEV_FIELD_dev_addr] = 1024, [NETDEV_FIELD_num_tx_queues] = 1112,
    [NETDEV_FIELD_qdisc] = 1120, [NETDEV_FIELD_priomap] = 2280 } },
};

/* Every layout, oldest first. */
const struct netdev_layout *
netdev_layouts (guint *n)
{
  g_return_val_if_fail (n != NULL, NULL);
  *n = G_N_ELEMENTS (layouts);
  return layouts;
}

/* The layout of release: v6.1's before the groups, v6.12's from the 6.12 cycle on, else
 * v6.8's (also for NULL: the struct as declared). */
const struct netdev_layout *
netdev_layout_for_release (const char *release)
{
  if (release == NULL)
    return &layouts[NETDEV_LAYOUT_V6_8];
  if (!ns_kernel_release_has (release, NS_KCHANGE_NETDEV_CACHELINE_GROUPS))
    return &layouts[NETDEV_LAYOUT_V6_1];
  if (ns_kernel_version_cmp (release, "6.12") >= 0)
    return &layouts[NETDEV_LAYOUT_V6_12];
  return &layouts[NETDEV_LAYOUT_V6_8];
}

/* Each field's size, as the struct declares it. */
#define SZ(field) [NETDEV_FIELD_##field] = sizeof (((struct net_device *) 0)->field),
static const guint16 field_size[NETDEV_FIELD_COUNT] = { NETDEV_FIELDS (SZ) };
#undef SZ

/* Byte maps of the struct for each layout (ns_arena_set_layout): a field's bytes where
 * the layout keeps them, the rest (padding the models never charge) where it lies. */
static guint16 maps[NETDEV_LAYOUT_N][sizeof (struct net_device)];

/* Fills maps[]. */
static gpointer
build_maps (gpointer unused)
{
  const struct netdev_layout *declared = &layouts[NETDEV_LAYOUT_V6_8];

  (void) unused;
  for (guint l = 0; l < NETDEV_LAYOUT_N; l++) {
    for (guint o = 0; o < sizeof (struct net_device); o++)
      maps[l][o] = (guint16) o;
    for (guint f = 0; f < NETDEV_FIELD_COUNT; f++)
      for (guint b = 0; layouts[l].off[f] != ABSENT && b < field_size[f]; b++)
        maps[l][declared->off[f] + b] = (guint16) (layouts[l].off[f] + b);
  }
  return maps;
}

/* A zeroed net_device laid out as layout, every charged byte inside the object. */
struct net_device *
netdev_alloc (NsArena *arena, const struct netdev_layout *layout)
{
  static GOnce once = G_ONCE_INIT;
  struct net_device *dev;

  g_return_val_if_fail (arena != NULL && layout != NULL, NULL);
  g_once (&once, build_maps, NULL);
  dev = ns_arena_alloc (arena, MAX (sizeof *dev, (gsize) layout->size), 64);
  dev->layout = layout;
  if (layout != &layouts[NETDEV_LAYOUT_V6_8])
    ns_arena_set_layout (arena, dev, sizeof *dev, maps[layout - layouts]);
  return dev;
}
