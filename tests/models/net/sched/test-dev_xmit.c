/* test-dev_xmit.c — the egress hook (models/net/sched/dev_xmit.c) against net/core/dev.c's
 * sch_handle_egress, v6.1's and v6.6's tcx one (tc_run on the mini_Qdisc of the tcx_entry
 * dev->tcx_egress holds):
 *  - no published mini_Qdisc (no clsact, or clsact with an empty egress chain): the skb
 *    goes on untouched, no stats, no classify; from v6.6 clsact's init has published the
 *    tcx_entry itself, whose miniq stays NULL until a filter;
 *  - a published one counts the packet in the qdisc's per-CPU bstats (bytes from
 *    qdisc_pkt_len, the skb's length here), classifies, and acts on the verdict: OK sets
 *    tc_index from the result's classid; SHOT counts a drop in the qdisc's per-CPU
 *    qstats (mini_qdisc_qstats_cpu_drop: drops, the third u32 of gnet_stats_queue), frees
 *    the skb and returns NET_XMIT_DROP; STOLEN consumes it with NET_XMIT_SUCCESS; the same
 *    on every release, the tcx ones classifying in a tc_run call of their own;
 *  - from a12c76a03386 (v6.14-rc1, 6.12.13) a block none of whose filters runs in software
 *    (useswcnt 0, as skip_sw filters leave it) is bypassed before the stats; 6.12.12 still
 *    classifies;
 *  - from v6.11 the hook makes the on-stack bpf_net_context current's and clears it again,
 *    leaving a context the task already has alone.
 * The expected values follow from those rules, not from the model. */
#include "config.h"
#include "sched-rig.h"
#include "tcx.h"

#define LEN  60

/* One pass through the egress hook and what came of it. */
typedef struct {
  DevRig         *d;
  struct sk_buff *in;
  struct sk_buff *out;
  int             ret;
  guint64         live_after;   /* sk_buffs still allocated after the hook */
  guint16         tc_index;     /* of the skb that came back (before it is freed) */
} Pass;

/* One release of each egress hook: v6.1's, the first tcx one, and 6.12.118's (drop
 * reason, bpf_net_context, the software bypass). */
static const char *const hook_releases[] = { "6.1.0", "6.6.0", "6.12.118" };

/* A machine of kernel `version` with dummy0 and clsact; `filters` egress matchall
 * filters (classid = 1:prio) with one gact of verdict each. */
static void
dev_rig_init_filters (DevRig *d, guint filters, gint32 verdict, const char *version)
{
  dev_rig_init_release (d, version);
  clsact_attach (d->tx, d->dev);
  for (guint i = 0; i < filters; i++)
    dev_rig_add_filter (d, TRUE, i + 1, 0x10000 | (i + 1), verdict);
  clsact_sync (d->tx, d->dev);
}

/* Body: an skb from the allocator through tx->core.egress. */
static void
egress_pass (NsThread *t, gpointer data)
{
  Pass *p = data;
  DevRig *d = p->d;

  p->in = __netdev_alloc_skb (t, d->tx, d->dev, LEN);
  skb_put (t, p->in, LEN);
  p->ret = -1;
  p->out = d->tx->core.egress (t, d->tx, p->in, &p->ret, d->dev);
  p->live_after = ns_skb_alloc_live (d->tx->alloc, NULL);
  if (p->out != NULL) {
    p->tc_index = p->out->tc_index;
    kfree_skb (t, d->tx->alloc, p->out);
  }
}

/* Runs one egress pass on CPU 0. */
static void
run_pass (DevRig *d, Pass *p)
{
  *p = (Pass) { .d = d };
  rig_run (&d->rig, egress_pass, p);
}

/* The published egress mini_Qdisc: v6.1's dev->miniq_egress, or the miniq of the
 * tcx_entry whose entry dev->tcx_egress holds. */
static struct mini_Qdisc *
live_miniq (DevRig *d)
{
  if (!d->rig.tc->tcx)
    return d->dev->miniq_egress;
  return tcx_entry (d->dev->tcx_egress)->miniq;
}

/* Calls of the kernel function `name` so far on the rig's machine. */
static guint64
calls_of (DevRig *d, const char *name)
{
  NsFunc *fn = ns_func_lookup (name);

  return fn == NULL ? 0 : ns_machine_account_calls (d->rig.machine, fn, NULL);
}

/* CPU 0's share of the clsact qdisc's bstats and qstats.drops. */
static void
qdisc_stats (DevRig *d, const struct mini_Qdisc *miniq, guint64 *packets, guint64 *bytes,
             guint32 *drops)
{
  struct gnet_stats_basic_sync *b = tc_percpu_ptr (d->rig.tc, miniq->cpu_bstats, 0);
  guint32 *q = tc_percpu_ptr (d->rig.tc, miniq->cpu_qstats, 0);

  *packets = b->packets;
  *bytes = b->bytes;
  *drops = q[2];
}

/* clsact with no egress filter: nothing published, the skb passes, nothing counted. */
START_TEST (test_empty_egress_passes_untouched)
{
  struct tcf_chain *chain;
  DevRig d;
  Pass p;

  dev_rig_init_filters (&d, 0, TC_ACT_OK, hook_releases[_i]);
  ck_assert_ptr_null (live_miniq (&d));
  run_pass (&d, &p);
  ck_assert_ptr_eq (p.out, p.in);
  ck_assert_int_eq (p.ret, -1);
  chain = clsact_chain (d.tx, d.dev, TRUE);
  ck_assert_ptr_null (chain->filter_chain);
  dev_rig_clear (&d);
}
END_TEST

/* OK: counted once in bstats, tc_index from the classid's minor, no drop. */
START_TEST (test_ok_sets_tc_index)
{
  guint64 packets, bytes;
  guint32 drops;
  DevRig d;
  Pass p;

  dev_rig_init_filters (&d, 1, TC_ACT_OK, hook_releases[_i]);
  run_pass (&d, &p);
  ck_assert_ptr_eq (p.out, p.in);
  ck_assert_uint_eq (p.tc_index, 1);
  qdisc_stats (&d, live_miniq (&d), &packets, &bytes, &drops);
  ck_assert_uint_eq (packets, 1);
  ck_assert_uint_eq (drops, 0);
  dev_rig_clear (&d);
}
END_TEST

/* SHOT: a drop in the qdisc's qstats, the skb freed, NET_XMIT_DROP. */
START_TEST (test_shot_counts_a_drop)
{
  guint64 packets, bytes;
  guint32 drops;
  DevRig d;
  Pass p;

  dev_rig_init_filters (&d, 1, TC_ACT_SHOT, hook_releases[_i]);
  run_pass (&d, &p);
  ck_assert_ptr_null (p.out);
  ck_assert_int_eq (p.ret, NET_XMIT_DROP);
  ck_assert_uint_eq (p.live_after, 0);
  qdisc_stats (&d, live_miniq (&d), &packets, &bytes, &drops);
  ck_assert_uint_eq (packets, 1);
  ck_assert_uint_eq (drops, 1);
  dev_rig_clear (&d);
}
END_TEST

/* STOLEN: consumed, NET_XMIT_SUCCESS, no drop. */
START_TEST (test_stolen_is_consumed)
{
  guint64 packets, bytes;
  guint32 drops;
  DevRig d;
  Pass p;

  dev_rig_init_filters (&d, 1, TC_ACT_STOLEN, hook_releases[_i]);
  run_pass (&d, &p);
  ck_assert_ptr_null (p.out);
  ck_assert_int_eq (p.ret, NET_XMIT_SUCCESS);
  ck_assert_uint_eq (p.live_after, 0);
  qdisc_stats (&d, live_miniq (&d), &packets, &bytes, &drops);
  ck_assert_uint_eq (drops, 0);
  dev_rig_clear (&d);
}
END_TEST

/* From v6.6 clsact's init publishes a tcx_entry per direction (its bundle's entry a, its
 * parent the bundle) before any filter; the first filter publishes its miniq, not the
 * device slot; v6.5's slot stays NULL until then. */
START_TEST (test_tcx_entry_published_at_attach)
{
  struct tcx_entry *tcx;
  DevRig d;

  dev_rig_init_filters (&d, 0, TC_ACT_OK, "6.6.0");
  ck_assert_ptr_nonnull (d.dev->tcx_egress);
  ck_assert_ptr_nonnull (d.dev->tcx_ingress);
  ck_assert_ptr_ne (d.dev->tcx_egress, d.dev->tcx_ingress);
  tcx = tcx_entry (d.dev->tcx_egress);
  ck_assert_ptr_eq (d.dev->tcx_egress, &tcx->bundle.a);
  ck_assert_ptr_null (tcx->miniq);
  dev_rig_add_filter (&d, TRUE, 1, 0x10001, TC_ACT_OK);
  clsact_sync (d.tx, d.dev);
  ck_assert_ptr_nonnull (tcx->miniq);
  ck_assert_ptr_eq (tcx->miniq->filter_list, clsact_chain (d.tx, d.dev, TRUE)->filter_chain);
  ck_assert_ptr_eq (d.dev->tcx_egress, &tcx->bundle.a);
  dev_rig_clear (&d);

  dev_rig_init_filters (&d, 0, TC_ACT_OK, "6.5.0");
  ck_assert_ptr_null (d.dev->miniq_egress);
  dev_rig_clear (&d);
}
END_TEST

/* tc_run is a call of its own from v6.6, once a packet; v6.5 classifies inline. */
START_TEST (test_tc_run_called_from_6_6)
{
  const char *releases[] = { "6.5.0", "6.6.0" };
  DevRig d;
  Pass p;

  for (guint i = 0; i < G_N_ELEMENTS (releases); i++) {
    guint64 before, classified;

    dev_rig_init_filters (&d, 1, TC_ACT_OK, releases[i]);
    before = calls_of (&d, "tc_run");
    classified = calls_of (&d, "tcf_classify");
    run_pass (&d, &p);
    run_pass (&d, &p);
    ck_assert_uint_eq (calls_of (&d, "tc_run") - before, i == 0 ? 0 : 2);
    ck_assert_uint_eq (calls_of (&d, "tcf_classify") - classified, 2);
    dev_rig_clear (&d);
  }
}
END_TEST

/* A block whose filters all skip software (useswcnt 0): bypassed from a12c76a03386 (6.12.13,
 * 6.14) before any stats or classify; 6.12.12 counts and classifies it. */
START_TEST (test_software_bypass_by_release)
{
  const char *releases[] = { "6.12.12", "6.12.13", "6.14.0" };
  guint64 packets, bytes;
  guint32 drops;
  DevRig d;
  Pass p;

  for (guint i = 0; i < G_N_ELEMENTS (releases); i++) {
    gboolean bypassed = i > 0;
    struct tc_block_ns *block;

    dev_rig_init_filters (&d, 1, TC_ACT_OK, releases[i]);
    block = live_miniq (&d)->block;
    ck_assert_int_eq (block->useswcnt, 1);
    run_pass (&d, &p);
    ck_assert_uint_eq (p.tc_index, 1);
    block->useswcnt = 0;            /* as a skip_sw filter leaves it */
    run_pass (&d, &p);
    ck_assert_ptr_eq (p.out, p.in);
    qdisc_stats (&d, live_miniq (&d), &packets, &bytes, &drops);
    ck_assert_msg (packets == (bypassed ? 1 : 2), "%s: %" G_GUINT64_FORMAT " packets counted",
                   releases[i], packets);
    ck_assert_uint_eq (p.tc_index, bypassed ? 0 : 1);
    dev_rig_clear (&d);
  }
}
END_TEST

/* From v6.11 the hook sets the task's bpf_net_context to its on-stack one around tc_run
 * and clears it after, leaving a context the task already has alone; v6.10 has none. */
START_TEST (test_bpf_net_context_set_and_cleared)
{
  DevRig d;
  Pass p;

  dev_rig_init_filters (&d, 1, TC_ACT_OK, "6.10.0");
  ck_assert_ptr_null (d.tx->bpf_ctx);
  dev_rig_clear (&d);

  dev_rig_init_filters (&d, 1, TC_ACT_OK, "6.11.0");
  ck_assert_ptr_nonnull (d.tx->bpf_ctx);
  d.tx->bpf_ctx[0].task_bpf_net_context = &d;     /* a context already set */
  run_pass (&d, &p);
  ck_assert_ptr_eq (d.tx->bpf_ctx[0].task_bpf_net_context, &d);
  ck_assert_uint_eq (p.tc_index, 1);
  d.tx->bpf_ctx[0].task_bpf_net_context = NULL;
  run_pass (&d, &p);
  ck_assert_ptr_null (d.tx->bpf_ctx[0].task_bpf_net_context);
  ck_assert_uint_eq (p.tc_index, 1);
  dev_rig_clear (&d);
}
END_TEST

static Suite *
dev_xmit_suite (void)
{
  Suite *s = suite_create ("dev_xmit");
  TCase *tc = tcase_create ("sch_handle_egress");

  tcase_add_loop_test (tc, test_empty_egress_passes_untouched, 0, G_N_ELEMENTS (hook_releases));
  tcase_add_loop_test (tc, test_ok_sets_tc_index, 0, G_N_ELEMENTS (hook_releases));
  tcase_add_loop_test (tc, test_shot_counts_a_drop, 0, G_N_ELEMENTS (hook_releases));
  tcase_add_loop_test (tc, test_stolen_is_consumed, 0, G_N_ELEMENTS (hook_releases));
  tcase_add_test (tc, test_tcx_entry_published_at_attach);
  tcase_add_test (tc, test_tc_run_called_from_6_6);
  tcase_add_test (tc, test_software_bypass_by_release);
  tcase_add_test (tc, test_bpf_net_context_set_and_cleared);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (dev_xmit_suite ());
  gint failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
