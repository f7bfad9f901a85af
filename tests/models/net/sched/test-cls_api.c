/* test-cls_api.c — tcf_classify and tcf_action_exec (models/net/sched/cls_api.c,
 * act_api.c, cls_matchall.c, act_gact.c): priority order and automatic priorities,
 * protocol skips, verdict handling (continue, pass, drop, pipe, jump, reclassify and its
 * limit, goto chain), and classification results that are the same in every build —
 * without the wrapper, with the RFC's or the merged wrapper, with its static key on, with
 * the classifier and action as modules — over randomised filter chains. */
#include "config.h"
#include <math.h>
#include <gsl/gsl_rng.h>
#include "sched-rig.h"

/* ---- building chains ---- */

/* A matchall filter with one gact per verdict in acts[0..n); NULL where the kernel refuses
 * the filter (a prio already held). */
static struct tcf_proto *
add_mall (SchedRig *rig, struct tcf_chain *chain, guint16 protocol, guint32 prio,
          guint32 classid, const gint32 *acts, guint n, struct tcf_chain *const *gotos)
{
  struct tc_action *a[8];
  struct tcf_proto *tp = tcf_chain_tp_insert (rig->tc, chain, &cls_mall_ops, protocol, prio,
                                              NULL);

  if (tp == NULL)
    return NULL;
  ck_assert_uint_le (n, 8);
  for (guint i = 0; i < n; i++)
    a[i] = tcf_gact_create (rig->tc, acts[i], gotos ? gotos[i] : NULL);
  mall_change (rig->tc, tp, classid, 0, a, n);
  return tp;
}

typedef struct {
  SchedRig          *rig;
  const struct tcf_proto *first;
  struct sk_buff    *skb;
  struct tcf_result *res;
  gboolean           compat;
  int                verdict;
} Classify;

static void
classify_in_thread (NsThread *t, gpointer data)
{
  Classify *c = data;

  c->verdict = tcf_classify (t, c->rig->tc, c->skb, NULL, c->first, c->res, c->compat);
}

/* Classifies one IPv4 skb from `first`; *res (may be NULL) gets the result. */
static int
classify (SchedRig *rig, const struct tcf_proto *first, struct tcf_result *res)
{
  Classify c = { rig, first, rig_skb (rig), NULL, FALSE, 0 };

  c.res = ns_arena_alloc (ns_machine_arena (rig->machine), sizeof *c.res, 64);
  rig_run (rig, classify_in_thread, &c);
  if (res)
    *res = *c.res;
  return c.verdict;
}

#define V(...) ((const gint32[]) { __VA_ARGS__ })

/* ---- order ---- */

/* tc_new_tfilter refuses a second filter at a prio one holds: another protocol -EINVAL
 * (tcf_chain_tp_find), the same -EEXIST (mall_change: a matchall holds one filter);
 * automatic prios never collide. */
START_TEST (test_equal_prio_refused)
{
  SchedRig rig;
  struct tcf_chain *chain;
  int err = 1;
  guint n = 0;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  chain = tcf_chain_create (rig.tc, 0);
  ck_assert_ptr_nonnull (tcf_chain_tp_insert (rig.tc, chain, &cls_mall_ops, TC_ETH_P_ALL, 7,
                                              &err));
  ck_assert_int_eq (err, 0);
  ck_assert_ptr_null (tcf_chain_tp_insert (rig.tc, chain, &cls_mall_ops, TC_ETH_P_ALL, 7,
                                           &err));
  ck_assert_int_eq (err, -EEXIST);
  ck_assert_ptr_null (tcf_chain_tp_insert (rig.tc, chain, &cls_mall_ops, TC_ETH_P_IP, 7,
                                           &err));
  ck_assert_int_eq (err, -EINVAL);
  for (guint i = 0; i < 3; i++)
    ck_assert_ptr_nonnull (tcf_chain_tp_insert (rig.tc, chain, &cls_mall_ops, TC_ETH_P_ALL, 0,
                                                NULL));
  for (const struct tcf_proto *tp = chain->filter_chain; tp; tp = tp->next)
    n++;
  ck_assert_uint_eq (n, 4);
  rig_clear (&rig);
}
END_TEST

START_TEST (test_prio_order)
{
  SchedRig rig;
  struct tcf_chain *chain;
  const struct tcf_proto *tp;
  guint32 expect[] = { 1, 2, 3 };
  guint i = 0;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  chain = tcf_chain_create (rig.tc, 0);
  add_mall (&rig, chain, TC_ETH_P_ALL, 3, 3, V (TC_ACT_UNSPEC), 1, NULL);
  add_mall (&rig, chain, TC_ETH_P_ALL, 1, 1, V (TC_ACT_UNSPEC), 1, NULL);
  add_mall (&rig, chain, TC_ETH_P_ALL, 2, 2, V (TC_ACT_UNSPEC), 1, NULL);
  for (tp = chain->filter_chain; tp; tp = tp->next, i++)
    ck_assert_uint_eq (tp->prio >> 16, expect[i]);
  ck_assert_uint_eq (i, 3);
  rig_clear (&rig);
}
END_TEST

START_TEST (test_auto_prio_newest_first)
{
  SchedRig rig;
  struct tcf_chain *chain;
  struct tcf_proto *a, *b, *c;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  chain = tcf_chain_create (rig.tc, 0);
  a = add_mall (&rig, chain, TC_ETH_P_ALL, 0, 1, V (TC_ACT_UNSPEC), 1, NULL);
  b = add_mall (&rig, chain, TC_ETH_P_ALL, 0, 2, V (TC_ACT_UNSPEC), 1, NULL);
  c = add_mall (&rig, chain, TC_ETH_P_ALL, 0, 3, V (TC_ACT_UNSPEC), 1, NULL);
  ck_assert_uint_eq (a->prio >> 16, 0xC000);
  ck_assert_uint_eq (b->prio >> 16, 0xBFFF);
  ck_assert_uint_eq (c->prio >> 16, 0xBFFE);
  ck_assert_ptr_eq (chain->filter_chain, c);
  ck_assert_ptr_eq (c->next, b);
  ck_assert_ptr_eq (b->next, a);
  rig_clear (&rig);
}
END_TEST

/* tc_new_tfilter counts an automatic prio down from the first filter at or above 0x8000,
 * not from the chain's first: a filter given prio 1 stays in front, and a packet gets its
 * verdict (the first filter's pass, not the automatic one's drop). */
START_TEST (test_auto_prio_after_explicit)
{
  SchedRig rig;
  struct tcf_chain *chain;
  struct tcf_proto *given, *a, *b;
  struct tcf_result res;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  chain = tcf_chain_create (rig.tc, 0);
  given = add_mall (&rig, chain, TC_ETH_P_ALL, 1, 0x11, V (TC_ACT_OK), 1, NULL);
  a = add_mall (&rig, chain, TC_ETH_P_ALL, 0, 0x22, V (TC_ACT_SHOT), 1, NULL);
  b = add_mall (&rig, chain, TC_ETH_P_ALL, 0, 0x33, V (TC_ACT_SHOT), 1, NULL);
  ck_assert_uint_eq (a->prio >> 16, 0xC000);
  ck_assert_uint_eq (b->prio >> 16, 0xBFFF);
  ck_assert_ptr_eq (chain->filter_chain, given);
  ck_assert_ptr_eq (given->next, b);
  ck_assert_ptr_eq (b->next, a);
  ck_assert_int_eq (classify (&rig, chain->filter_chain, &res), TC_ACT_OK);
  ck_assert_uint_eq (res.classid, 0x11);
  rig_clear (&rig);
}
END_TEST

/* An automatic prio whose filter to go in front of sits at 0x8000 is refused (-EINVAL,
 * tcf_chain_tp_find with prio_allocate); one at 0x8001 takes 0x8000. */
START_TEST (test_auto_prio_at_0x8000_refused)
{
  SchedRig rig;
  struct tcf_chain *chain;
  struct tcf_proto *tp;
  int err = 0;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  chain = tcf_chain_create (rig.tc, 0);
  ck_assert_ptr_nonnull (tcf_chain_tp_insert (rig.tc, chain, &cls_mall_ops, TC_ETH_P_ALL,
                                              0x8001, NULL));
  tp = tcf_chain_tp_insert (rig.tc, chain, &cls_mall_ops, TC_ETH_P_ALL, 0, &err);
  ck_assert_ptr_nonnull (tp);
  ck_assert_int_eq (err, 0);
  ck_assert_uint_eq (tp->prio >> 16, 0x8000);
  ck_assert_ptr_null (tcf_chain_tp_insert (rig.tc, chain, &cls_mall_ops, TC_ETH_P_ALL, 0,
                                           &err));
  ck_assert_int_eq (err, -EINVAL);
  rig_clear (&rig);
}
END_TEST

/* ---- verdicts ---- */

START_TEST (test_protocol_mismatch_skips_classifier)
{
  SchedRig rig;
  struct tcf_chain *chain;
  struct tcf_proto *v6, *all;
  guint64 direct, indirect;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  chain = tcf_chain_create (rig.tc, 0);
  v6 = add_mall (&rig, chain, TC_ETH_P_IPV6, 1, 6, V (TC_ACT_OK), 1, NULL);
  all = add_mall (&rig, chain, TC_ETH_P_ALL, 2, 4, V (TC_ACT_OK), 1, NULL);
  ck_assert_int_eq (classify (&rig, chain->filter_chain, NULL), TC_ACT_OK);
  ck_assert_uint_eq (mall_hits (rig.tc, v6), 0);
  ck_assert_uint_eq (mall_hits (rig.tc, all), 1);
  tc_wrapper_counts (rig.tc, &direct, &indirect, NULL);
  ck_assert_uint_eq (direct + indirect, 2);      /* one classify, one act */
  rig_clear (&rig);
}
END_TEST

START_TEST (test_pass_sets_result_and_drop_shoots)
{
  SchedRig rig;
  struct tcf_chain *chain, *chain2;
  struct tcf_result res;
  struct tcf_proto *drop;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  chain = tcf_chain_create (rig.tc, 0);
  add_mall (&rig, chain, TC_ETH_P_ALL, 1, 0x10005, V (TC_ACT_OK), 1, NULL);
  ck_assert_int_eq (classify (&rig, chain->filter_chain, &res), TC_ACT_OK);
  ck_assert_uint_eq (res.classid, 0x10005);
  chain2 = tcf_chain_create (rig.tc, 0);
  drop = add_mall (&rig, chain2, TC_ETH_P_ALL, 1, 7, V (TC_ACT_SHOT), 1, NULL);
  ck_assert_int_eq (classify (&rig, chain2->filter_chain, NULL), TC_ACT_SHOT);
  ck_assert_uint_eq (tc_action_drops (rig.tc, ((struct tcf_exts *) drop->root)->actions[0]), 1);
  rig_clear (&rig);
}
END_TEST

START_TEST (test_continue_traverses_every_filter)
{
  SchedRig rig;
  struct tcf_chain *chain;
  struct tcf_proto *tps[100];

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  chain = tcf_chain_create (rig.tc, 0);
  for (guint i = 0; i < 100; i++)
    tps[i] = add_mall (&rig, chain, TC_ETH_P_ALL, 0, i, V (TC_ACT_UNSPEC), 1, NULL);
  ck_assert_int_eq (classify (&rig, chain->filter_chain, NULL), TC_ACT_UNSPEC);
  for (guint i = 0; i < 100; i++)
    ck_assert_uint_eq (mall_hits (rig.tc, tps[i]), 1);
  rig_clear (&rig);
}
END_TEST

START_TEST (test_pipe_falls_through_and_trailing_pipe_matches)
{
  SchedRig rig;
  struct tcf_chain *chain, *chain2;
  struct tcf_proto *first, *second;
  struct tcf_exts *exts;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  chain = tcf_chain_create (rig.tc, 0);
  first = add_mall (&rig, chain, TC_ETH_P_ALL, 1, 1, V (TC_ACT_PIPE, TC_ACT_OK), 2, NULL);
  ck_assert_int_eq (classify (&rig, chain->filter_chain, NULL), TC_ACT_OK);
  exts = first->root;
  ck_assert_uint_eq (tc_action_packets (rig.tc, exts->actions[1]), 1);
  chain2 = tcf_chain_create (rig.tc, 0);
  add_mall (&rig, chain2, TC_ETH_P_ALL, 1, 1, V (TC_ACT_PIPE), 1, NULL);
  second = add_mall (&rig, chain2, TC_ETH_P_ALL, 2, 2, V (TC_ACT_OK), 1, NULL);
  ck_assert_int_eq (classify (&rig, chain2->filter_chain, NULL), TC_ACT_PIPE);
  ck_assert_uint_eq (mall_hits (rig.tc, second), 0);
  rig_clear (&rig);
}
END_TEST

/* Any verdict but pipe ends the filter's action list: the actions after it never run. */
START_TEST (test_non_pipe_verdict_ends_the_actions)
{
  SchedRig rig;
  struct tcf_chain *chain;
  struct tcf_proto *drop, *cont;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  chain = tcf_chain_create (rig.tc, 0);
  cont = add_mall (&rig, chain, TC_ETH_P_ALL, 1, 1, V (TC_ACT_UNSPEC, TC_ACT_OK), 2, NULL);
  drop = add_mall (&rig, chain, TC_ETH_P_ALL, 2, 2, V (TC_ACT_SHOT, TC_ACT_OK), 2, NULL);
  /* continue, then the next filter's drop: SHOT, neither trailing OK ran */
  ck_assert_int_eq (classify (&rig, chain->filter_chain, NULL), TC_ACT_SHOT);
  ck_assert_uint_eq (tc_action_packets (rig.tc, ((struct tcf_exts *) cont->root)->actions[1]), 0);
  ck_assert_uint_eq (tc_action_packets (rig.tc, ((struct tcf_exts *) drop->root)->actions[1]), 0);
  ck_assert_uint_eq (tc_action_drops (rig.tc, ((struct tcf_exts *) drop->root)->actions[0]), 1);
  rig_clear (&rig);
}
END_TEST

START_TEST (test_jump_skips_actions)
{
  SchedRig rig;
  struct tcf_chain *chain;
  struct tcf_exts *exts;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  chain = tcf_chain_create (rig.tc, 0);
  /* jump 2: restart, skip actions 0 and 1, run action 2 */
  add_mall (&rig, chain, TC_ETH_P_ALL, 1, 1,
            V (TC_ACT_JUMP | 2, TC_ACT_SHOT, TC_ACT_OK), 3, NULL);
  ck_assert_int_eq (classify (&rig, chain->filter_chain, NULL), TC_ACT_OK);
  exts = chain->filter_chain->root;
  ck_assert_uint_eq (tc_action_packets (rig.tc, exts->actions[0]), 1);
  ck_assert_uint_eq (tc_action_packets (rig.tc, exts->actions[1]), 0);
  ck_assert_uint_eq (tc_action_packets (rig.tc, exts->actions[2]), 1);
  /* a jump beyond the action count stops the pipeline with OK */
  chain = tcf_chain_create (rig.tc, 0);
  add_mall (&rig, chain, TC_ETH_P_ALL, 1, 1, V (TC_ACT_JUMP | 5, TC_ACT_SHOT), 2, NULL);
  ck_assert_int_eq (classify (&rig, chain->filter_chain, NULL), TC_ACT_OK);
  rig_clear (&rig);
}
END_TEST

START_TEST (test_reclassify_limit)
{
  static const struct { const char *version; guint64 runs; } cases[] = {
    { "6.1.0", 17 },     /* 16 restarts from 05ff8435e505: v5.14-rc1 */
    { "5.14.0", 17 }, { "5.14-rc1", 17 },
    { "5.13.3", 17 },    /* … and its stables: 5.13.3, 5.12.18, 5.10.51 */
    { "5.12.18", 17 }, { "5.10.51", 17 },
    { "5.13.2", 5 },     /* 4 before */
    { "5.12.17", 5 }, { "5.11.22", 5 }, { "5.10.50", 5 }, { "5.10.0", 5 },
  };

  for (guint k = 0; k < G_N_ELEMENTS (cases); k++) {
    SchedRig rig;
    struct tcf_chain *chain;
    struct tcf_proto *tp;

    rig_init (&rig, cases[k].version, NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
    chain = tcf_chain_create (rig.tc, 0);
    tp = add_mall (&rig, chain, TC_ETH_P_ALL, 1, 1, V (TC_ACT_RECLASSIFY), 1, NULL);
    ck_assert_int_eq (classify (&rig, chain->filter_chain, NULL), TC_ACT_SHOT);
    ck_assert_uint_eq (mall_hits (rig.tc, tp), cases[k].runs);
    rig_clear (&rig);
  }
}
END_TEST

/* A reclassify restarts at the walk's first filter (__tcf_classify: first_tp = orig_tp),
 * not at the filter that asked: a continue filter in front runs on each of the 17 passes. */
START_TEST (test_reclassify_restarts_at_first_filter)
{
  SchedRig rig;
  struct tcf_chain *chain;
  struct tcf_proto *front, *back;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  chain = tcf_chain_create (rig.tc, 0);
  front = add_mall (&rig, chain, TC_ETH_P_ALL, 1, 1, V (TC_ACT_UNSPEC), 1, NULL);
  back = add_mall (&rig, chain, TC_ETH_P_ALL, 2, 2, V (TC_ACT_RECLASSIFY), 1, NULL);
  ck_assert_int_eq (classify (&rig, chain->filter_chain, NULL), TC_ACT_SHOT);
  ck_assert_uint_eq (mall_hits (rig.tc, front), 17);
  ck_assert_uint_eq (mall_hits (rig.tc, back), 17);
  rig_clear (&rig);
}
END_TEST

START_TEST (test_goto_chain)
{
  SchedRig rig;
  struct tcf_chain *chain0, *chain1;
  struct tcf_proto *after_goto;
  struct tcf_result res;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  chain0 = tcf_chain_create (rig.tc, 0);
  chain1 = tcf_chain_create (rig.tc, 1);
  add_mall (&rig, chain1, TC_ETH_P_ALL, 1, 0x11, V (TC_ACT_OK), 1, NULL);
  add_mall (&rig, chain0, TC_ETH_P_ALL, 1, 0x1, V (TC_ACT_GOTO_CHAIN | 1), 1,
            (struct tcf_chain *const[]) { chain1 });
  after_goto = add_mall (&rig, chain0, TC_ETH_P_ALL, 2, 0x2, V (TC_ACT_OK), 1, NULL);
  ck_assert_int_eq (classify (&rig, chain0->filter_chain, &res), TC_ACT_OK);
  ck_assert_uint_eq (res.classid, 0x11);
  ck_assert_uint_eq (mall_hits (rig.tc, after_goto), 0);
  rig_clear (&rig);
}
END_TEST

/* ---- the same results in every build ---- */

#define N_BUILDS 6

/* Builds the rig of build k: 0 no wrapper; 1 the RFC; 2 merged; 3 merged with the static
 * key on (eIBRS); 4 merged with matchall and gact as modules; 5 merged, LFENCE retpoline. */
static void
rig_for_build (SchedRig *rig, guint k)
{
  static const char *const rfc[] = { "tc-retpoline-wrappers-rfc", NULL };
  static const char *const merged[] = { "tc-retpoline-wrappers", NULL };
  static const char *const modules[] = { "CONFIG_NET_CLS_MATCHALL", "m",
                                         "CONFIG_NET_ACT_GACT", "m", NULL };
  const char *const *patches = k == 0 ? NULL : k == 1 ? rfc : merged;
  NsSpectreV2 mode = k == 3 ? NS_SPECTRE_V2_EIBRS
                   : k == 5 ? NS_SPECTRE_V2_LFENCE : NS_SPECTRE_V2_RETPOLINE;

  rig_init (rig, "6.1.0", patches, k == 4 ? modules : NULL, mode);
}

typedef struct {
  int      verdict;
  guint32  classid;
  guint64  hits[40];
  guint64  packets[120];
} Outcome;

/* A random chain set from seed: chains 0-2, 1-8 filters each, 1-3 actions per filter
 * with verdicts drawn from continue (most), pass, drop, pipe, reclassify, goto chain, jump;
 * protocols all / ip / ipv6. Classifies one skb; records verdict, classid, per-filter
 * hits and per-action packets. */
static void
random_outcome (guint64 seed, guint k, Outcome *out)
{
  gsl_rng *rng = gsl_rng_alloc (gsl_rng_mt19937);
  struct tcf_chain *chains[3];
  struct tcf_proto *tps[40];
  struct tc_action *acts[120];
  struct tcf_result res;
  SchedRig rig;
  guint n_tp = 0, n_act = 0;

  gsl_rng_set (rng, seed);
  rig_for_build (&rig, k);
  for (guint c = 0; c < 3; c++)
    chains[c] = tcf_chain_create (rig.tc, c);
  for (guint c = 0; c < 3; c++) {
    guint n = 1 + gsl_rng_uniform_int (rng, 8);
    for (guint f = 0; f < n; f++) {
      static const guint16 protos[] = { TC_ETH_P_ALL, TC_ETH_P_ALL, TC_ETH_P_IP, TC_ETH_P_IPV6 };
      guint na = 1 + gsl_rng_uniform_int (rng, 3);
      gint32 v[3];
      struct tcf_chain *g[3] = { NULL, NULL, NULL };
      for (guint a = 0; a < na; a++) {
        guint r = gsl_rng_uniform_int (rng, 20);
        v[a] = r < 9 ? TC_ACT_UNSPEC : r < 11 ? TC_ACT_OK : r < 12 ? TC_ACT_SHOT
             : r < 15 ? TC_ACT_PIPE : r < 16 ? TC_ACT_RECLASSIFY
             : r < 18 ? (gint32) (TC_ACT_JUMP | (1 + gsl_rng_uniform_int (rng, 3)))
             : TC_ACT_GOTO_CHAIN;
        if (v[a] == TC_ACT_GOTO_CHAIN) {
          guint to = gsl_rng_uniform_int (rng, 3);
          v[a] |= (gint32) to;
          g[a] = chains[to];
        }
      }
      tps[n_tp] = add_mall (&rig, chains[c], protos[gsl_rng_uniform_int (rng, 4)],
                            1 + gsl_rng_uniform_int (rng, 50),
                            (guint32) gsl_rng_uniform_int (rng, 0xFFFF), v, na, g);
      if (tps[n_tp] == NULL)        /* a prio already held: refused, as the kernel does */
        continue;
      for (guint a = 0; a < na; a++)
        acts[n_act++] = ((struct tcf_exts *) tps[n_tp]->root)->actions[a];
      n_tp++;
    }
  }
  memset (out, 0, sizeof *out);
  memset (&res, 0, sizeof res);
  out->verdict = classify (&rig, chains[0]->filter_chain, &res);
  out->classid = res.classid;
  for (guint i = 0; i < n_tp; i++)
    out->hits[i] = mall_hits (rig.tc, tps[i]);
  for (guint i = 0; i < n_act; i++)
    out->packets[i] = tc_action_packets (rig.tc, acts[i]);
  rig_clear (&rig);
  gsl_rng_free (rng);
}

START_TEST (test_random_chains_same_in_every_build)
{
  guint verdicts_seen = 0;

  for (guint64 seed = 1; seed <= 60; seed++) {
    Outcome ref, other;

    random_outcome (seed, 0, &ref);
    if (ref.verdict >= TC_ACT_UNSPEC && ref.verdict <= TC_ACT_TRAP)
      verdicts_seen |= 1u << (ref.verdict + 1);
    for (guint k = 1; k < N_BUILDS; k++) {
      random_outcome (seed, k, &other);
      ck_assert_msg (memcmp (&ref, &other, sizeof ref) == 0,
                     "seed %" G_GUINT64_FORMAT ": build %u classifies differently "
                     "(verdict %d vs %d)", seed, k, other.verdict, ref.verdict);
    }
  }
  /* the mix reaches no-match, OK, SHOT and PIPE outcomes */
  ck_assert_uint_eq (verdicts_seen & 0x1b, 0x1b);
}
END_TEST

/* ---- cost ---- */

typedef struct {
  Classify c;
  NsTime   span;
} Timed;

/* classify_in_thread, timing the walk in the simulated thread's clock. */
static void
timed_classify_in_thread (NsThread *t, gpointer data)
{
  Timed *d = data;
  NsTime start = ns_thread_now (t);

  classify_in_thread (t, &d->c);
  d->span = ns_thread_now (t) - start;
}

/* Cycles the walk from `first` takes, the second of two runs (caches warm). */
static double
walk_cycles (SchedRig *rig, const struct tcf_proto *first)
{
  Timed d = { { rig, first, rig_skb (rig), NULL, FALSE, 0 }, 0 };

  d.c.res = ns_arena_alloc (ns_machine_arena (rig->machine), sizeof *d.c.res, 64);
  rig_run (rig, timed_classify_in_thread, &d);
  rig_run (rig, timed_classify_in_thread, &d);
  return (double) d.span * ns_params_get_double (rig->params, "cpu.freq_ghz") / 1000.0;
}

/* Cycles one filter of another protocol adds to a walk, at cpu.ipc `ipc`: 16 such filters
 * in front of a matching one, against the walk from the matching one alone. */
static double
skipped_filter_cycles (const char *ipc)
{
  const char *const params[] = { "cpu.ipc", ipc, NULL };
  SchedRig rig;
  struct tcf_chain *chain;
  struct tcf_proto *all;
  double whole, last;

  rig_init_with (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE, params);
  chain = tcf_chain_create (rig.tc, 0);
  for (guint32 prio = 1; prio <= 16; prio++)
    add_mall (&rig, chain, TC_ETH_P_IPV6, prio, 6, V (TC_ACT_OK), 1, NULL);
  all = add_mall (&rig, chain, TC_ETH_P_ALL, 17, 4, V (TC_ACT_OK), 1, NULL);
  whole = walk_cycles (&rig, chain->filter_chain);
  last = walk_cycles (&rig, all);
  rig_clear (&rig);
  return (whole - last) / 16;
}

/* A skipped filter costs the walk its tcf_proto line and the protocol test and step beside
 * the chase, at the issue width (as compute_score's compares): the same at any cpu.ipc. */
START_TEST (test_skipped_filter_beside_the_chase)
{
  double slow = skipped_filter_cycles ("1.0"), fast = skipped_filter_cycles ("2.0");

  ck_assert_double_gt (slow, 0.0);
  /* (the engine keeps whole picoseconds: a few thousandths of a cycle either way) */
  ck_assert_msg (fabs (slow - fast) < 0.01,
                 "a skipped filter costs %.4f cycles at cpu.ipc 1 and %.4f at 2", slow, fast);
}
END_TEST

static Suite *
cls_api_suite (void)
{
  Suite *s = suite_create ("cls_api");
  TCase *tc = tcase_create ("classify");

  tcase_add_test (tc, test_prio_order);
  tcase_add_test (tc, test_equal_prio_refused);
  tcase_add_test (tc, test_auto_prio_newest_first);
  tcase_add_test (tc, test_auto_prio_after_explicit);
  tcase_add_test (tc, test_auto_prio_at_0x8000_refused);
  tcase_add_test (tc, test_protocol_mismatch_skips_classifier);
  tcase_add_test (tc, test_pass_sets_result_and_drop_shoots);
  tcase_add_test (tc, test_continue_traverses_every_filter);
  tcase_add_test (tc, test_pipe_falls_through_and_trailing_pipe_matches);
  tcase_add_test (tc, test_non_pipe_verdict_ends_the_actions);
  tcase_add_test (tc, test_jump_skips_actions);
  tcase_add_test (tc, test_reclassify_limit);
  tcase_add_test (tc, test_reclassify_restarts_at_first_filter);
  tcase_add_test (tc, test_goto_chain);
  tcase_add_test (tc, test_random_chains_same_in_every_build);
  tcase_add_test (tc, test_skipped_filter_beside_the_chase);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (cls_api_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
