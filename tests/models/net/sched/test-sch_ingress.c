/* test-sch_ingress.c — the clsact qdisc (models/net/sched/sch_ingress.c) against the
 * kernel's (net/sched/sch_ingress.c clsact_init, net/sched/sch_generic.c
 * mini_qdisc_pair_swap, net/sched/cls_api.c tcf_chain0_head_change, v6.1/v6.2):
 *  - attaching clsact turns on both static keys (net_inc_ingress_queue and
 *    net_inc_egress_queue: the hot paths' ingress_needed_key / egress_needed_key);
 *  - it gives the device two blocks of its own — "tc filter add dev D ingress" and
 *    "… egress" reach different chains, each chain 0 — with a mini_Qdisc each, both on the
 *    qdisc's per-CPU bstats/qstats (mini_qdisc_pair_init: miniq->cpu_bstats =
 *    qdisc->cpu_bstats for both pairs);
 *  - nothing is published at attach: dev->miniq_* stay NULL until chain 0 holds a filter
 *    (mini_qdisc_pair_init only records where to publish; mini_qdisc_pair_swap with no
 *    head stores NULL), so an empty direction costs the hot path only its NULL test;
 *  - the hot path sees chain 0's first filter: after a filter change the mini_Qdisc's
 *    filter_list is the chain's new head (mini_qdisc_pair_swap(miniqp, tp_head)), and a
 *    change in one direction leaves the other alone;
 *  - tc_new_tfilter of a matchall filter with a gact makes its objects in v6.1's order
 *    (tcf_chain_get, tcf_proto_create, mall_change's head and action array, then
 *    mall_set_parms → tcf_action_init's gact), each in its kmalloc class, and publishes
 *    the new first filter at once;
 *  - the mini_Qdiscs live inside the qdisc's own allocation (qdisc_alloc: struct Qdisc,
 *    384 bytes, then clsact_sched_data: 640 bytes, kmalloc-1k), the egress pair at 552
 *    and 592, and mini_qdisc_pair_swap alternates them at each head change: miniq1 after
 *    the first filter, miniq2 after the second; a filter added behind the head changes
 *    nothing. */
#include "config.h"
#include "sched-rig.h"

START_TEST (test_attach_turns_on_both_static_keys)
{
  DevRig d;

  dev_rig_init (&d);
  ck_assert (!d.tx->ingress_needed_key);
  ck_assert (!d.tx->egress_needed_key);
  clsact_attach (d.tx, d.dev);
  ck_assert (d.tx->ingress_needed_key);
  ck_assert (d.tx->egress_needed_key);
  dev_rig_clear (&d);
}
END_TEST

/* Attaching clsact creates no chain: chain 0 of a block comes with its first filter
 * (tc_new_tfilter's tcf_chain_get(block, 0, true)), so a kmalloc-128 object taken after
 * the attach follows the one taken before it; the first clsact_chain of a direction
 * makes its chain 0 there, the next call returns the same one. */
START_TEST (test_chain0_comes_with_the_first_filter)
{
  guint8 *before, *after;
  struct tcf_chain *out;
  DevRig d;

  dev_rig_init (&d);
  before = tc_kzalloc (d.rig.tc, 100);
  clsact_attach (d.tx, d.dev);
  after = tc_kzalloc (d.rig.tc, 100);
  ck_assert_ptr_eq (after, before + 128);
  out = clsact_chain (d.tx, d.dev, TRUE);
  ck_assert_ptr_eq ((guint8 *) out, after + 128);
  ck_assert_ptr_eq (clsact_chain (d.tx, d.dev, TRUE), out);
  dev_rig_clear (&d);
}
END_TEST

/* The first filter the hot path sees in a direction: NULL when the device has no
 * mini_Qdisc there or it has no filter (sch_handle_egress's miniq test, then the walk). */
static const struct tcf_proto *
hot_head (const struct mini_Qdisc *miniq)
{
  return miniq ? miniq->filter_list : NULL;
}

/* tc_new_tfilter in v6.1's order on an unshuffled kernel: chain 0 (with the block's
 * first filter) then the tcf_proto, consecutive kmalloc-128 objects; the matchall head
 * (kmalloc-192); tcf_exts_init's array of 32 action pointers, then the gact, consecutive
 * kmalloc-256 objects (tcf_action_init runs inside mall_set_parms, after the array). A
 * second filter's objects follow the first's, and it runs first (automatic priority:
 * one below the first's) as soon as it is added. */
START_TEST (test_new_tfilter_allocates_in_the_kernels_order)
{
  const struct tcf_exts *h1, *h2;   /* the matchall heads: exts is their first member */
  struct tcf_proto *tp1, *tp2;
  struct tcf_chain *chain0;
  guint8 *a1, *a2;
  DevRig d;

  dev_rig_init (&d);
  clsact_attach (d.tx, d.dev);
  tp1 = tc_new_tfilter_matchall (d.tx, d.dev, TRUE, TC_ETH_P_ALL, TC_ACT_OK);
  chain0 = clsact_chain (d.tx, d.dev, TRUE);
  h1 = tp1->root;
  a1 = (guint8 *) h1->actions[0];
  ck_assert_uint_eq (tc_ksize (d.rig.tc, chain0), 128);
  ck_assert_uint_eq (tc_ksize (d.rig.tc, tp1), 128);
  ck_assert_uint_eq (tc_ksize (d.rig.tc, h1), 192);
  ck_assert_uint_eq (tc_ksize (d.rig.tc, h1->actions), 256);
  ck_assert_uint_eq (tc_ksize (d.rig.tc, a1), 256);
  ck_assert_ptr_eq ((guint8 *) tp1, (guint8 *) chain0 + 128);
  ck_assert_ptr_eq (a1, (guint8 *) h1->actions + 256);
  ck_assert_ptr_eq (hot_head (d.dev->miniq_egress), tp1);

  tp2 = tc_new_tfilter_matchall (d.tx, d.dev, TRUE, TC_ETH_P_ALL, TC_ACT_OK);
  h2 = tp2->root;
  a2 = (guint8 *) h2->actions[0];
  ck_assert_ptr_eq ((guint8 *) tp2, (guint8 *) tp1 + 128);
  ck_assert_ptr_eq ((guint8 *) h2, (guint8 *) h1 + 192);
  ck_assert_ptr_eq ((guint8 *) h2->actions, a1 + 256);
  ck_assert_ptr_eq (a2, (guint8 *) h2->actions + 256);
  ck_assert_uint_eq (tp2->prio, tp1->prio - (1u << 16));
  ck_assert_ptr_eq (hot_head (d.dev->miniq_egress), tp2);
  ck_assert_ptr_eq (tp2->next, tp1);
  ck_assert_ptr_null (d.dev->miniq_ingress);
  dev_rig_clear (&d);
}
END_TEST

/* Two blocks: distinct chain 0s, and once both have a filter, distinct mini_Qdiscs on
 * distinct blocks, with per-CPU stats. */
START_TEST (test_ingress_and_egress_have_their_own_chain0)
{
  DevRig d;
  struct tcf_chain *in, *out;

  dev_rig_init (&d);
  clsact_attach (d.tx, d.dev);
  in = clsact_chain (d.tx, d.dev, FALSE);
  out = clsact_chain (d.tx, d.dev, TRUE);
  ck_assert_ptr_nonnull (in);
  ck_assert_ptr_nonnull (out);
  ck_assert_ptr_ne (in, out);
  ck_assert_uint_eq (in->index, 0);
  ck_assert_uint_eq (out->index, 0);
  ck_assert_ptr_null (in->filter_chain);
  ck_assert_ptr_null (out->filter_chain);
  dev_rig_add_filter (&d, FALSE, 1, 1, TC_ACT_OK);
  dev_rig_add_filter (&d, TRUE, 1, 1, TC_ACT_OK);
  clsact_sync (d.tx, d.dev);
  ck_assert_ptr_nonnull (d.dev->miniq_ingress);
  ck_assert_ptr_nonnull (d.dev->miniq_egress);
  ck_assert_ptr_ne (d.dev->miniq_ingress, d.dev->miniq_egress);
  ck_assert_ptr_ne (d.dev->miniq_ingress->block, d.dev->miniq_egress->block);
  ck_assert_ptr_nonnull (d.dev->miniq_egress->cpu_bstats);
  ck_assert_ptr_nonnull (d.dev->miniq_egress->cpu_qstats);
  ck_assert_ptr_eq (d.dev->miniq_ingress->cpu_bstats, d.dev->miniq_egress->cpu_bstats);
  ck_assert_ptr_eq (d.dev->miniq_ingress->cpu_qstats, d.dev->miniq_egress->cpu_qstats);
  dev_rig_clear (&d);
}
END_TEST

/* An empty clsact publishes nothing; a direction is published with its first filter and
 * unpublished when its chain empties again; the other direction stays NULL throughout. */
START_TEST (test_empty_direction_is_not_published)
{
  DevRig d;
  struct tcf_chain *out;
  struct tcf_proto *tp;

  dev_rig_init (&d);
  clsact_attach (d.tx, d.dev);
  clsact_sync (d.tx, d.dev);
  ck_assert_ptr_null (d.dev->miniq_ingress);
  ck_assert_ptr_null (d.dev->miniq_egress);
  out = clsact_chain (d.tx, d.dev, TRUE);
  tp = dev_rig_add_filter (&d, TRUE, 1, 1, TC_ACT_OK);
  clsact_sync (d.tx, d.dev);
  ck_assert_ptr_nonnull (d.dev->miniq_egress);
  ck_assert_ptr_eq (d.dev->miniq_egress->filter_list, tp);
  ck_assert_ptr_null (d.dev->miniq_ingress);
  out->filter_chain = NULL;               /* the last filter deleted */
  clsact_sync (d.tx, d.dev);
  ck_assert_ptr_null (d.dev->miniq_egress);
  dev_rig_clear (&d);
}
END_TEST

/* tcf_chain0_head_change: the mini_Qdisc's filter_list follows chain 0's head, per
 * direction. */
START_TEST (test_sync_publishes_each_directions_head)
{
  DevRig d;
  struct tcf_proto *out5, *out2, *in7;

  dev_rig_init (&d);
  clsact_attach (d.tx, d.dev);
  out5 = dev_rig_add_filter (&d, TRUE, 5, 5, TC_ACT_OK);
  clsact_sync (d.tx, d.dev);
  ck_assert_ptr_eq (hot_head (d.dev->miniq_egress), out5);
  ck_assert_ptr_null (hot_head (d.dev->miniq_ingress));
  /* a lower prio becomes the head */
  out2 = dev_rig_add_filter (&d, TRUE, 2, 2, TC_ACT_OK);
  clsact_sync (d.tx, d.dev);
  ck_assert_ptr_eq (hot_head (d.dev->miniq_egress), out2);
  ck_assert_ptr_eq (out2->next, out5);
  ck_assert_ptr_null (hot_head (d.dev->miniq_ingress));
  /* an ingress filter does not move egress */
  in7 = dev_rig_add_filter (&d, FALSE, 7, 7, TC_ACT_OK);
  clsact_sync (d.tx, d.dev);
  ck_assert_ptr_eq (hot_head (d.dev->miniq_ingress), in7);
  ck_assert_ptr_eq (hot_head (d.dev->miniq_egress), out2);
  ck_assert_ptr_null (in7->next);
  dev_rig_clear (&d);
}
END_TEST

/* The egress pair inside the qdisc: each auto-priority add is a head change, so the live
 * mini_Qdisc alternates (miniq1 at qdisc + 552, miniq2 at + 592, of a live kmalloc-1k
 * object), always holding the new head; the ingress direction stays unpublished. */
START_TEST (test_mini_qdiscs_alternate_inside_the_qdisc)
{
  struct mini_Qdisc *first;
  struct tcf_proto *tp;
  guint8 *qdisc;
  DevRig d;

  dev_rig_init (&d);
  clsact_attach (d.tx, d.dev);
  tp = tc_new_tfilter_matchall (d.tx, d.dev, TRUE, TC_ETH_P_ALL, TC_ACT_OK);
  first = d.dev->miniq_egress;
  qdisc = (guint8 *) first - 552;
  ck_assert_uint_eq (tc_ksize (d.rig.tc, qdisc), 1024);
  ck_assert_ptr_eq (first->filter_list, tp);
  tp = tc_new_tfilter_matchall (d.tx, d.dev, TRUE, TC_ETH_P_ALL, TC_ACT_OK);
  ck_assert_ptr_eq ((guint8 *) d.dev->miniq_egress, qdisc + 592);
  ck_assert_ptr_eq (d.dev->miniq_egress->filter_list, tp);
  ck_assert_ptr_eq (d.dev->miniq_egress->block, first->block);
  ck_assert_ptr_eq (d.dev->miniq_egress->cpu_bstats, first->cpu_bstats);
  tp = tc_new_tfilter_matchall (d.tx, d.dev, TRUE, TC_ETH_P_ALL, TC_ACT_OK);
  ck_assert_ptr_eq (d.dev->miniq_egress, first);
  ck_assert_ptr_eq (first->filter_list, tp);
  ck_assert_ptr_null (d.dev->miniq_ingress);
  dev_rig_clear (&d);
}
END_TEST

/* A filter added behind chain 0's head is no head change: the live mini_Qdisc stays. */
START_TEST (test_no_swap_without_a_head_change)
{
  struct mini_Qdisc *live;
  struct tcf_proto *head;
  DevRig d;

  dev_rig_init (&d);
  clsact_attach (d.tx, d.dev);
  head = dev_rig_add_filter (&d, TRUE, 1, 0, TC_ACT_OK);
  clsact_sync (d.tx, d.dev);
  live = d.dev->miniq_egress;
  dev_rig_add_filter (&d, TRUE, 2, 0, TC_ACT_OK);
  clsact_sync (d.tx, d.dev);
  ck_assert_ptr_eq (d.dev->miniq_egress, live);
  ck_assert_ptr_eq (live->filter_list, head);
  dev_rig_clear (&d);
}
END_TEST

static Suite *
sch_ingress_suite (void)
{
  Suite *s = suite_create ("sch_ingress");
  TCase *tc = tcase_create ("clsact");

  tcase_add_test (tc, test_attach_turns_on_both_static_keys);
  tcase_add_test (tc, test_ingress_and_egress_have_their_own_chain0);
  tcase_add_test (tc, test_chain0_comes_with_the_first_filter);
  tcase_add_test (tc, test_sync_publishes_each_directions_head);
  tcase_add_test (tc, test_empty_direction_is_not_published);
  tcase_add_test (tc, test_new_tfilter_allocates_in_the_kernels_order);
  tcase_add_test (tc, test_mini_qdiscs_alternate_inside_the_qdisc);
  tcase_add_test (tc, test_no_swap_without_a_head_change);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (sch_ingress_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
