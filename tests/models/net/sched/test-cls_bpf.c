/* test-cls_bpf.c — the BPF classifier (models/net/sched/cls_bpf.c) against the kernel's
 * cls_bpf_classify (net/sched/cls_bpf.c) with classic programs `ret #k`, walked by
 * tcf_classify:
 *  - k = 0 is no match: the walk goes on to the filter's next program, then to the next
 *    filter, and falls off the end with -1 (TC_ACT_UNSPEC), every program run once;
 *  - any other k is a match with classid k (res->class 0) and the verdict of the program's
 *    actions: TC_ACT_OK with none, which ends the walk;
 *  - a filter's programs run newest first (cls_bpf_change's list_add_rcu);
 *  - the program's bpf_func call is an indirect call on every build; ->classify is a
 *    direct call after one compare where the tc wrapper is on and cls_bpf built in (it
 *    heads the merged chain), an indirect one where cls_bpf is a module.
 * Expected values are computed here from those rules, not read back from the model. */
#include "config.h"
#include "sched-rig.h"

typedef struct {
  SchedRig               *rig;
  struct sk_buff         *skb;
  const struct tcf_proto *first;
  struct tcf_result      *res;
  int                     verdict;
} Walk;

/* tcf_classify over the chain from first, in a simulated thread. */
static void
walk_in_thread (NsThread *t, gpointer data)
{
  Walk *w = data;

  w->verdict = tcf_classify (t, w->rig->tc, w->skb, NULL, w->first, w->res, FALSE);
}

/* Runs one walk from first; the result in *res (simulated memory, preset to a pattern). */
static int
walk (SchedRig *rig, const struct tcf_proto *first, struct tcf_result **res)
{
  Walk w = { rig, rig_skb (rig), first, NULL, 0 };

  w.res = ns_arena_alloc (ns_machine_arena (rig->machine), sizeof *w.res, 64);
  w.res->klass = 0xC1A55;
  w.res->classid = 0xDEAD;
  rig_run (rig, walk_in_thread, &w);
  *res = w.res;
  return w.verdict;
}

/* Calls of the JIT's image so far: programs run. */
static guint64
programs_run (SchedRig *rig)
{
  const NsFunc *image = ns_func_lookup ("bpf_prog_jit_image");

  ck_assert_ptr_nonnull (image);
  return ns_machine_account_calls (rig->machine, image, NULL);
}

/* A 6.18.44 machine under generic retpolines (config: overrides, may be NULL), its event
 * accounting from zero. */
static void
rig_init_618 (SchedRig *rig, const char *const *config)
{
  rig_init (rig, "6.18.44", NULL, config, NS_SPECTRE_V2_RETPOLINE);
  ns_machine_account_reset (rig->machine);
}

/* Filters at priorities 1..n of one chain, filter i holding programs k[i] (one each). */
static const struct tcf_proto *
add_filters (SchedRig *rig, const guint32 *k, guint n)
{
  struct tcf_chain *chain = tcf_chain_create (rig->tc, 0);

  for (guint i = 0; i < n; i++) {
    struct tcf_proto *tp = tcf_chain_tp_insert (rig->tc, chain, &cls_bpf_ops, TC_ETH_P_ALL,
                                                i + 1, NULL);
    cls_bpf_change (rig->tc, tp, 1, k[i]);
  }
  return chain->filter_chain;
}

/* Three `ret #0` filters: no match, all three programs run, -1, *res untouched; under
 * retpolines on 6.18 three compares and direct ->classify calls, three indirect calls
 * (the programs'). */
START_TEST (test_no_match_walks_every_program)
{
  static const guint32 k[] = { 0, 0, 0 };
  guint64 direct, indirect, compares;
  struct tcf_result *res;
  SchedRig rig;

  rig_init_618 (&rig, NULL);
  ck_assert_int_eq (walk (&rig, add_filters (&rig, k, 3), &res), TC_ACT_UNSPEC);
  ck_assert_uint_eq (res->classid, 0xDEAD);
  ck_assert_uint_eq (programs_run (&rig), 3);
  tc_wrapper_counts (rig.tc, &direct, &indirect, &compares);
  ck_assert_uint_eq (direct, 3);
  ck_assert_uint_eq (indirect, 0);
  ck_assert_uint_eq (compares, 3);
  ck_assert_uint_eq (ns_machine_account_events (rig.machine, NS_CAUSE_INDIRECT), 3);
  rig_clear (&rig);
}
END_TEST

/* A non-zero k matches: classid k, class 0, TC_ACT_OK (no actions); the filters after it
 * do not run. */
START_TEST (test_nonzero_return_is_a_classid)
{
  static const guint32 k[] = { 0, 0x10002, 0x10003 };
  struct tcf_result *res;
  SchedRig rig;

  rig_init_618 (&rig, NULL);
  ck_assert_int_eq (walk (&rig, add_filters (&rig, k, 3), &res), TC_ACT_OK);
  ck_assert_uint_eq (res->classid, 0x10002);
  ck_assert_uint_eq (res->klass, 0);
  ck_assert_uint_eq (programs_run (&rig), 2);
  rig_clear (&rig);
}
END_TEST

/* One filter, programs added with k = 0x11 then 0x22: the newer runs first and matches. */
START_TEST (test_newest_program_runs_first)
{
  struct tcf_result *res;
  struct tcf_proto *tp;
  SchedRig rig;

  rig_init (&rig, "6.18.44", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  tp = tcf_chain_tp_insert (rig.tc, tcf_chain_create (rig.tc, 0), &cls_bpf_ops,
                            TC_ETH_P_ALL, 1, NULL);
  cls_bpf_change (rig.tc, tp, 1, 0x11);
  cls_bpf_change (rig.tc, tp, 2, 0x22);
  ck_assert_uint_eq (cls_bpf_count (tp), 2);
  ns_machine_account_reset (rig.machine);
  ck_assert_int_eq (walk (&rig, tp, &res), TC_ACT_OK);
  ck_assert_uint_eq (res->classid, 0x22);
  ck_assert_uint_eq (programs_run (&rig), 1);
  rig_clear (&rig);
}
END_TEST

/* cls_bpf a module: no chain entry, so ->classify is an indirect call too. */
START_TEST (test_module_classify_is_indirect)
{
  static const char *const module[] = { "CONFIG_NET_CLS_BPF", "m", NULL };
  static const guint32 k[] = { 0, 0 };
  guint64 direct, indirect;
  struct tcf_result *res;
  SchedRig rig;

  rig_init_618 (&rig, module);
  ck_assert_int_eq (walk (&rig, add_filters (&rig, k, 2), &res), TC_ACT_UNSPEC);
  tc_wrapper_counts (rig.tc, &direct, &indirect, NULL);
  ck_assert_uint_eq (direct, 0);
  ck_assert_uint_eq (indirect, 2);
  ck_assert_uint_eq (ns_machine_account_events (rig.machine, NS_CAUSE_INDIRECT), 4);
  rig_clear (&rig);
}
END_TEST

/* tcf_chain_tp_get finds a filter by its explicit priority only. */
START_TEST (test_tp_get_by_priority)
{
  struct tcf_proto *one, *three;
  struct tcf_chain *chain;
  SchedRig rig;

  rig_init (&rig, "6.18.44", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  chain = tcf_chain_create (rig.tc, 0);
  three = tcf_chain_tp_insert (rig.tc, chain, &cls_bpf_ops, TC_ETH_P_ALL, 3, NULL);
  one = tcf_chain_tp_insert (rig.tc, chain, &cls_bpf_ops, TC_ETH_P_ALL, 1, NULL);
  ck_assert_ptr_eq (tcf_chain_tp_get (chain, 1), one);
  ck_assert_ptr_eq (tcf_chain_tp_get (chain, 3), three);
  ck_assert_ptr_null (tcf_chain_tp_get (chain, 2));
  ck_assert_ptr_null (tcf_chain_tp_get (chain, 4));
  rig_clear (&rig);
}
END_TEST

/* tc_new_tfilter_bpf: a second program at a priority joins that filter (one tcf_proto, two
 * programs); another protocol there, or a matchall filter there, is refused (NULL); a new
 * priority makes a new filter after the lower ones. */
START_TEST (test_new_tfilter_bpf_joins_or_refuses)
{
  struct tcf_proto *one, *again, *three;
  DevRig d;

  dev_rig_init_release (&d, "6.18.44");
  clsact_attach (d.tx, d.dev);
  one = tc_new_tfilter_bpf (d.tx, d.dev, TRUE, TC_ETH_P_ALL, 1, 1, 0);
  again = tc_new_tfilter_bpf (d.tx, d.dev, TRUE, TC_ETH_P_ALL, 1, 2, 0);
  ck_assert_ptr_nonnull (one);
  ck_assert_ptr_eq (again, one);
  ck_assert_uint_eq (cls_bpf_count (one), 2);
  ck_assert_ptr_null (tc_new_tfilter_bpf (d.tx, d.dev, TRUE, TC_ETH_P_IP, 1, 3, 0));
  ck_assert_uint_eq (cls_bpf_count (one), 2);
  dev_rig_add_filter (&d, TRUE, 2, 0, TC_ACT_UNSPEC);
  ck_assert_ptr_null (tc_new_tfilter_bpf (d.tx, d.dev, TRUE, TC_ETH_P_ALL, 2, 1, 0));
  three = tc_new_tfilter_bpf (d.tx, d.dev, TRUE, TC_ETH_P_ALL, 3, 1, 0);
  ck_assert_ptr_eq (one->next->next, three);
  dev_rig_clear (&d);
}
END_TEST

static Suite *
cls_bpf_suite (void)
{
  Suite *s = suite_create ("cls_bpf");
  TCase *tc = tcase_create ("cls_bpf");

  tcase_add_test (tc, test_no_match_walks_every_program);
  tcase_add_test (tc, test_nonzero_return_is_a_classid);
  tcase_add_test (tc, test_newest_program_runs_first);
  tcase_add_test (tc, test_module_classify_is_indirect);
  tcase_add_test (tc, test_tp_get_by_priority);
  tcase_add_test (tc, test_new_tfilter_bpf_joins_or_refuses);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *runner = srunner_create (cls_bpf_suite ());
  int failed;

  srunner_run_all (runner, CK_NORMAL);
  failed = srunner_ntests_failed (runner);
  srunner_free (runner);
  return failed ? 1 : 0;
}
