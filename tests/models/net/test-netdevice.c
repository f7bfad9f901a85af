/* test-netdevice.c — struct net_device's layouts by release (models/net/netdevice.c):
 *  - a release gets v6.1's layout before 43a71cd66b9c (v6.8-rc1: the cache-line groups;
 *    no stable took it), v6.8's through the 6.11 cycle and v6.12's from the 6.12 cycle on;
 *  - each layout places every field inside the object without overlap, v6.1 lacks the
 *    v6.3 gso/gro_ipv4_max_size fields, v6.8's size is the declared struct's;
 *  - a device is charged at its layout's offsets and its object covers them all;
 *  - behaviour: a cold transmit through dummy0 (priomap, priv_flags, the TX queue, flags,
 *    features, ptype_all, netdev_ops, lstats) reads five lines of a v6.1 device (2, 3, 15,
 *    20, 34) and four of a v6.8 one (0, 2, 6, 16), so on otherwise identical machines
 *    (6.7.12 and 6.8-rc1) the v6.1 one takes exactly one more data miss, and once warm both
 *    cost the same.
 * Expected offsets are the DWARF's (gdb ptype /o), not the model's. */
#include "config.h"
#include "kchange.h"
#include "net/netdevice.h"
#include "sched/sched-rig.h"

/* Each field's size, as the struct declares it. */
#define SZ(field) [NETDEV_FIELD_##field] = sizeof (((struct net_device *) 0)->field),
static const gsize field_size[NETDEV_FIELD_COUNT] = { NETDEV_FIELDS (SZ) };

START_TEST (test_layout_by_release)
{
  static const struct { const char *release, *layout; } cases[] = {
    { "5.10.200", "v6.1" }, { "6.1.0-rc7", "v6.1" }, { "6.1.176", "v6.1" },
    { "6.6.60", "v6.1" }, { "6.7.12", "v6.1" }, { "6.8.0-rc1", "v6.8" },
    { "6.9.0-rc1", "v6.8" }, { "6.11.11", "v6.8" }, { "6.12.0-rc1", "v6.12" },
    { "6.12.118", "v6.12" }, { "6.18", "v6.12" },
  };
  const NsKernelChangeInfo *groups =
    ns_kernel_change_info (NS_KCHANGE_NETDEV_CACHELINE_GROUPS);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    ck_assert_msg (g_str_equal (netdev_layout_for_release (cases[i].release)->name,
                                cases[i].layout), "%s", cases[i].release);
  ck_assert_str_eq (netdev_layout_for_release (NULL)->name, "v6.8");
  /* the groups begin at the registry's release, and no stable series took them */
  ck_assert_str_eq (groups->releases.mainline, "6.8-rc1");
  ck_assert_ptr_null (groups->releases.stables[0]);
}
END_TEST

/* Index of the present field at the lowest offset above `after` (or -1). */
static gint
next_field (const struct netdev_layout *l, gint after)
{
  gint best = -1;

  for (guint f = 0; f < NETDEV_FIELD_COUNT; f++)
    if (l->off[f] != NETDEV_FIELD_ABSENT && (gint) l->off[f] > after &&
        (best < 0 || l->off[f] < l->off[best]))
      best = (gint) f;
  return best;
}

START_TEST (test_layouts_well_formed)
{
  guint n;
  const struct netdev_layout *ls = netdev_layouts (&n);

  ck_assert_uint_eq (n, 3);
  for (guint i = 0; i < n; i++) {
    const struct netdev_layout *l = &ls[i];
    guint present = 0, end = 0;

    /* in offset order, each field ends before the next begins and inside the object */
    for (gint f = next_field (l, -1); f >= 0; f = next_field (l, l->off[f])) {
      ck_assert_msg (l->off[f] >= end, "%s: field %d at %u overlaps", l->name, f, l->off[f]);
      end = l->off[f] + (guint) field_size[f];
      present++;
    }
    ck_assert_msg (end <= l->size, "%s: ends at %u past %u", l->name, end, l->size);
    ck_assert_uint_eq (present + (i == 0 ? 2 : 0), NETDEV_FIELD_COUNT);
  }
  ck_assert_str_eq (ls[0].name, "v6.1");
  ck_assert_uint_eq (ls[0].off[NETDEV_FIELD_gso_ipv4_max_size], NETDEV_FIELD_ABSENT);
  ck_assert_uint_eq (ls[0].off[NETDEV_FIELD_gro_ipv4_max_size], NETDEV_FIELD_ABSENT);
  ck_assert_uint_eq (ls[1].size, sizeof (struct net_device));
  /* v6.12's groups are v6.8's, field for field */
  for (guint f = 0; f <= NETDEV_FIELD_miniq_ingress; f++)
    ck_assert_msg (ls[2].off[f] == ls[1].off[f], "field %u", f);
}
END_TEST

/* The offset at which the arena charges dev->field. */
#define CHARGED(dev, field) \
  (ns_arena_charged_addr (arena, &(dev)->field) - ns_arena_addr (arena, (dev)))

START_TEST (test_charged_at_layout_offsets)
{
  NsArena *arena = ns_arena_new (1ull << 32, 1 << 20);
  const struct netdev_layout *v61 = netdev_layout_for_release ("6.1.0");
  const struct netdev_layout *v612 = netdev_layout_for_release ("6.12.118");
  struct net_device *dev = netdev_alloc (arena, v61);
  struct net_device *dev12 = netdev_alloc (arena, v612);
  struct net_device *dev68 = netdev_alloc (arena, netdev_layout_for_release ("6.9.0-rc1"));
  guint8 *after = ns_arena_alloc (arena, 64, 64);

  ck_assert_ptr_eq (dev->layout, v61);
  ck_assert_uint_eq (CHARGED (dev, _tx), 960);
  ck_assert_uint_eq (CHARGED (dev, lstats), 1296);
  ck_assert_uint_eq (CHARGED (dev, priomap), 2232);
  ck_assert_uint_eq (CHARGED (dev, real_num_tx_queues), 972);
  ck_assert_uint_eq (CHARGED (dev12, qdisc), 1120);
  ck_assert_uint_eq (CHARGED (dev12, priomap), 2280);
  ck_assert_uint_eq (CHARGED (dev12, _tx), 24);
  ck_assert_uint_eq (CHARGED (dev68, priomap), offsetof (struct net_device, priomap));
  /* each object covers its layout: the next allocation starts past it */
  ck_assert ((guint8 *) dev12 >= (guint8 *) dev + 2432);
  ck_assert ((guint8 *) dev68 >= (guint8 *) dev12 + 2496);
  ck_assert (after >= (guint8 *) dev68 + 2048);
  /* the values stay where the C struct keeps them */
  dev->priomap = dev;
  ck_assert_ptr_eq (dev->priomap, dev);
  ns_arena_free (arena);
}
END_TEST

/* A machine of release with its transmit stack and dummy0. */
static void
rig_at (DevRig *d, const char *release)
{
  rig_init (&d->rig, release, NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  d->tx = net_tx_new (d->rig.machine, d->rig.tc);
  d->dev = dummy_create (d->tx, "dummy0");
}

/* Body: one 60-byte packet through dev_queue_xmit. */
static void
send_body (NsThread *t, gpointer data)
{
  DevRig *d = data;
  struct sk_buff *skb = __netdev_alloc_skb (t, d->tx, d->dev, 60);

  skb_put (t, skb, 60);
  ck_assert_int_eq (dev_queue_xmit (t, &d->tx->core, skb), NET_XMIT_SUCCESS);
}

/* Data misses (served past L1) and simulated time of one transmit on d. */
static void
send_counted (DevRig *d, guint64 *misses, double *cycles)
{
  NsTime start = ns_engine_now (d->rig.engine);
  static const NsCause levels[] = { NS_CAUSE_L2, NS_CAUSE_L3, NS_CAUSE_DRAM,
                                    NS_CAUSE_COHERENCE };
  NsMachine *m = d->rig.machine;

  ns_machine_account_reset (m);
  rig_run (&d->rig, send_body, d);
  *misses = 0;
  for (guint i = 0; i < G_N_ELEMENTS (levels); i++)
    *misses += ns_machine_account_events (m, levels[i]);
  *cycles = (double) (ns_engine_now (d->rig.engine) - start);
}

START_TEST (test_cold_transmit_lines)
{
  DevRig old, grouped;
  guint64 miss_old, miss_grouped;
  double cyc_old, cyc_grouped;

  rig_at (&old, "6.7.12");
  rig_at (&grouped, "6.8.0-rc1");
  ck_assert_str_eq (old.dev->layout->name, "v6.1");
  ck_assert_str_eq (grouped.dev->layout->name, "v6.8");
  send_counted (&old, &miss_old, &cyc_old);
  send_counted (&grouped, &miss_grouped, &cyc_grouped);
  ck_assert_uint_eq (miss_old, miss_grouped + 1);
  ck_assert (cyc_old >= cyc_grouped);   /* the extra miss may overlap the others */
  /* warm: the same work, the same cost */
  send_counted (&old, &miss_old, &cyc_old);
  send_counted (&grouped, &miss_grouped, &cyc_grouped);
  ck_assert_uint_eq (miss_old, miss_grouped);
  ck_assert_double_eq_tol (cyc_old, cyc_grouped, 1e-9);
  dev_rig_clear (&old);
  dev_rig_clear (&grouped);
}
END_TEST

static Suite *
netdevice_suite (void)
{
  Suite *s = suite_create ("netdevice");
  TCase *tc = tcase_create ("layouts");

  tcase_add_test (tc, test_layout_by_release);
  tcase_add_test (tc, test_layouts_well_formed);
  tcase_add_test (tc, test_charged_at_layout_offsets);
  tcase_add_test (tc, test_cold_transmit_lines);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (netdevice_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
