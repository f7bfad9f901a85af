/* test-run.c — the run layer (sim/run.c): aggregation over repetitions (mean, harmonic
 * mean, CV), per-repetition seeds, and what a run collects beside the metric: the event
 * counts per operation and the calling contexts' cycles (folded stacks), which must add
 * up to the per-function breakdown, in cost order (a comparison's differences too); the
 * one-operation step; the variant names and where a machine the parameters cannot build is
 * blamed; and --what-if: the join of a run with its twins, and the twins' names checked
 * before any run. */
#include "config.h"
#include <check.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "count.h"
#include "run.h"

static char *
micro_path (const char *name)
{
  const char *data = g_getenv ("NETSIM_DATADIR");

  return g_build_filename (data ? data : NS_SRCDIR, "scenarios", "micro", name, NULL);
}

/* ---- aggregation ---- */

START_TEST (test_aggregate)
{
  static const double v[3] = { 1.0, 2.0, 4.0 };
  double cv = -1;

  /* mean 7/3; harmonic 3 / (1 + 1/2 + 1/4) = 12/7; sample sd √(7/3) */
  ck_assert_double_eq_tol (ns_run_aggregate (v, 3, NS_AGG_MEAN, &cv), 7.0 / 3.0, 1e-12);
  ck_assert_double_eq_tol (cv, sqrt (7.0 / 3.0) / (7.0 / 3.0), 1e-12);
  ck_assert_double_eq_tol (ns_run_aggregate (v, 3, NS_AGG_HARMONIC, &cv), 12.0 / 7.0, 1e-12);
  ck_assert_double_eq_tol (cv, sqrt (7.0 / 3.0) / (7.0 / 3.0), 1e-12);
  /* one value: itself, its variation undefined (not 0) */
  ck_assert_double_eq (ns_run_aggregate (v + 2, 1, NS_AGG_HARMONIC, &cv), 4.0);
  ck_assert (isnan (cv));
  ck_assert_double_eq (ns_run_aggregate (v, 2, NS_AGG_MEAN, NULL), 1.5);
  /* a mean of 0: variation relative to it undefined (not ±inf) */
  {
    static const double around_zero[2] = { -1.0, 1.0 };
    ck_assert_double_eq (ns_run_aggregate (around_zero, 2, NS_AGG_MEAN, &cv), 0.0);
    ck_assert (isnan (cv));
  }
  /* equal values: exactly that value (n / Σ 1/x gives 1731734.3749999998) */
  {
    static const double same[3] = { 1731734.375, 1731734.375, 1731734.375 };
    ck_assert_double_eq (ns_run_aggregate (same, 1, NS_AGG_HARMONIC, NULL), same[0]);
    ck_assert_double_eq (ns_run_aggregate (same, 3, NS_AGG_HARMONIC, NULL), same[0]);
  }
}
END_TEST

/* One operation's step of a delta: 100 × patched / baseline over the fewer operations of
 * the two; 0 (no step) when either ran none or the baseline is 0. */
START_TEST (test_one_op_step)
{
  ck_assert_double_eq (ns_run_one_op_step_pct (2.0, 3.0, 10, 4), 37.5);
  ck_assert_double_eq (ns_run_one_op_step_pct (2.0, 3.0, 4, 10), 37.5);
  ck_assert_double_eq (ns_run_one_op_step_pct (2.0, 3.0, 0, 10), 0.0);
  ck_assert_double_eq (ns_run_one_op_step_pct (2.0, 3.0, 10, 0), 0.0);
  ck_assert_double_eq (ns_run_one_op_step_pct (0.0, 3.0, 10, 10), 0.0);
}
END_TEST


/* ---- what a run collects ---- */

/* Runs micro/call-chain.xml (short), collecting stacks. */
static NsRunResult *
run_call_chain (void)
{
  static const char *const sets[] = { "measure.warmup=2us", "measure.duration=20us", NULL };
  g_autofree char *path = micro_path ("call-chain.xml");
  NsRunOptions opt = { 0 };
  GError *error = NULL;
  NsRunResult *res;

  opt.sets = sets;
  opt.stacks = TRUE;
  res = ns_run_scenario (path, &opt, &error);
  ck_assert_msg (res != NULL, "%s", error ? error->message : "?");
  return res;
}

/* The variant called name of res (fails the test if it has none). */
static const NsVariantResult *
variant (const NsRunResult *res, const char *name)
{
  const NsVariantResult *vr = ns_run_result_variant (res, name);

  ck_assert_msg (vr != NULL, "no variant %s", name);
  return vr;
}

/* One out-of-line call per operation, through the return thunk under Safe RET; none
 * when the chain is inlined; 10 instructions per operation either way (to 2 %: the
 * 20 us window cuts an operation at each end). */
START_TEST (test_event_counts)
{
  NsRunResult *res = run_call_chain ();
  const NsVariantResult *safe = variant (res, "srso-safe-ret");
  const NsVariantResult *plain = variant (res, "plain-ret");
  const NsVariantResult *inl = variant (res, "inlined");

  ck_assert_str_eq (safe->name, "srso-safe-ret");
  ck_assert_ptr_null (ns_run_result_variant (res, "srso-safe"));
  ck_assert_double_eq_tol (safe->events_per_op[NS_CAUSE_CALL], 1.0, 0.02 * 1.0);
  ck_assert_double_eq_tol (safe->events_per_op[NS_CAUSE_RETTHUNK], 1.0, 0.02 * 1.0);
  ck_assert_double_eq (plain->events_per_op[NS_CAUSE_RETTHUNK], 0.0);
  ck_assert_double_eq (inl->events_per_op[NS_CAUSE_CALL], 0.0);
  ck_assert_double_eq_tol (inl->events_per_op[NS_CAUSE_INSN], 10.0, 0.02 * 10.0);
  ck_assert_double_eq_tol (safe->events_per_op[NS_CAUSE_INSN], 10.0, 0.02 * 10.0);
  ns_run_result_free (res);
}
END_TEST

/* micro/call-tree.xml: one call and, under Safe RET, one thunked return per operation;
 * the small tree's text stays in the L1I (no I-fetch miss a call), the big tree's (64
 * KiB) does not (its three lines a call miss). Fails if the tree repeats one function or
 * the text size is not fetched. */
START_TEST (test_call_tree_footprint)
{
  static const char *const sets[] = { "measure.warmup=20us", "measure.duration=40us", NULL };
  g_autofree char *path = micro_path ("call-tree.xml");
  NsRunOptions opt = { 0 };
  GError *error = NULL;
  NsRunResult *res;
  const NsVariantResult *small, *big;

  opt.sets = sets;
  res = ns_run_scenario (path, &opt, &error);
  ck_assert_msg (res != NULL, "%s", error ? error->message : "?");
  small = variant (res, "small-saferet");
  big = variant (res, "big-saferet");
  ck_assert_double_eq_tol (big->events_per_op[NS_CAUSE_CALL], 1.0, 0.02);
  ck_assert_double_eq_tol (big->events_per_op[NS_CAUSE_RETTHUNK], 1.0, 0.02);
  ck_assert_double_eq (variant (res, "big-plain")->events_per_op[NS_CAUSE_RETTHUNK], 0.0);
  ck_assert_double_lt (small->events_per_op[NS_CAUSE_IFETCH], 0.01);
  ck_assert_double_gt (big->events_per_op[NS_CAUSE_IFETCH], 2.5);
  ns_run_result_free (res);
}
END_TEST

/* The larger of a row's two totals (signed: magnitude with abs). */
static double
row_key (const NsBreakdownRow *row, gboolean abs)
{
  return abs ? MAX (fabs (row->total_per_op), fabs (row->body_total_per_op))
             : MAX (row->total_per_op, row->body_total_per_op);
}

/* Each variant's breakdown is most expensive first (the larger of its row's own and
 * inlined-body cycles), then by name; and a comparison's differences the largest
 * change first (by magnitude), then by name. */
START_TEST (test_breakdown_order)
{
  static const char *const names[] = { "z", "a", "m", "b" };
  static const double totals[] = { -3.0, 1.0, 0.5, 1.0 }, bodies[] = { 0, 0, 2.0, 0 };
  static const char *const order[] = { "z", "m", "a", "b" };
  NsRunResult *res = run_call_chain ();
  NsVariantResult base = { 0 }, patched = { 0 };
  g_autoptr (GPtrArray) delta = NULL;
  guint n_ordered = 0;

  for (guint v = 0; v < res->variants->len; v++) {
    const NsVariantResult *vr = res->variants->pdata[v];
    for (guint i = 1; i < vr->breakdown->len; i++) {
      const NsBreakdownRow *a = vr->breakdown->pdata[i - 1], *b = vr->breakdown->pdata[i];
      ck_assert_msg (row_key (a, FALSE) > row_key (b, FALSE) ||
                     (row_key (a, FALSE) == row_key (b, FALSE) && strcmp (a->func, b->func) < 0),
                     "%s: %s (%g) before %s (%g)", vr->name, a->func, row_key (a, FALSE),
                     b->func, row_key (b, FALSE));
      n_ordered += row_key (a, FALSE) > row_key (b, FALSE) && strcmp (a->func, b->func) > 0;
    }
  }
  ck_assert_uint_gt (n_ordered, 0);   /* some cost order is not the name order */
  base.breakdown = g_ptr_array_new ();
  patched.breakdown = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++) {
    NsBreakdownRow *row = g_new0 (NsBreakdownRow, 1);
    row->func = (char *) names[i];
    row->cycles_per_op[0] = row->total_per_op = totals[i];
    row->body_per_op[0] = row->body_total_per_op = bodies[i];
    g_ptr_array_add (patched.breakdown, row);
  }
  delta = ns_run_breakdown_delta (&base, &patched);
  ck_assert_uint_eq (delta->len, G_N_ELEMENTS (order));
  for (guint i = 0; i < delta->len; i++)
    ck_assert_str_eq (((NsBreakdownRow *) delta->pdata[i])->func, order[i]);
  ck_assert_double_eq (row_key (delta->pdata[0], TRUE), 3.0);
  g_ptr_array_unref (base.breakdown);
  g_ptr_array_unref (patched.breakdown);
  ns_run_result_free (res);
}
END_TEST

/* The breakdown row of func in vr (NULL if it has none). */
static const NsBreakdownRow *
breakdown_row (const NsVariantResult *vr, const char *func)
{
  for (guint i = 0; i < vr->breakdown->len; i++) {
    const NsBreakdownRow *row = vr->breakdown->pdata[i];
    if (!strcmp (row->func, func))
      return row;
  }
  return NULL;
}

/* micro/udp-lookup.xml: every lookup scores the whole 64-socket chain, by 64 calls of
 * compute_score in the 6.9-rc1 baseline and 64 inlined invocations with the patch; 4 KiB
 * apart the sockets' lines share one L1D set, so each lookup takes at least one L2 load
 * per socket (in compute_score), packed none. Fails if the chain is cut short, the patch
 * does not inline, the stride does not place the sockets, or the compares are charged
 * at the path's IPC. */
START_TEST (test_udp_lookup_chain)
{
  static const char *const sets[] = { "measure.warmup=20us", "measure.duration=100us", NULL };
  static const char *const names[] = { "l1-plain-baseline", "l1-plain-patched",
                                       "l2-plain-baseline", "l2-plain-patched" };
  g_autofree char *path = micro_path ("udp-lookup.xml");
  NsRunOptions opt = { 0 };
  GError *error = NULL;
  NsRunResult *res;

  opt.sets = sets;
  res = ns_run_scenario (path, &opt, &error);
  ck_assert_msg (res != NULL, "%s", error ? error->message : "?");
  for (guint v = 0; v < G_N_ELEMENTS (names); v++) {
    const NsVariantResult *vr = variant (res, names[v]);
    const NsBreakdownRow *score = breakdown_row (vr, "compute_score");
    gboolean patched = g_str_has_suffix (names[v], "patched");
    double runs, other, l2_cycles;

    ck_assert_ptr_nonnull (score);
    runs = patched ? score->inlined_per_op : score->calls_per_op;
    other = patched ? score->calls_per_op : score->inlined_per_op;
    l2_cycles = patched ? score->body_per_op[NS_CAUSE_L2] : score->cycles_per_op[NS_CAUSE_L2];
    /* to half a socket: the window cuts a lookup at each end */
    ck_assert_double_eq_tol (runs, 64.0, 0.5);
    ck_assert_double_eq (other, 0.0);
    if (patched)
      /* the compares run at the issue width (6 on the EPYC profile): 25 instructions
       * up to the dport reject of another flow's socket, not at cpu.ipc (1.5) */
      ck_assert_double_le (score->body_per_op[NS_CAUSE_INSN] / 64.0, 25 / 6.0 * 1.1);
    if (g_str_has_prefix (names[v], "l2-")) {
      ck_assert_double_ge (vr->events_per_op[NS_CAUSE_L2], 64.0);
      /* a pointer chase: each socket's miss waits its whole L2 latency (12 cycles on the
       * EPYC profile), none overlaps the previous socket's */
      ck_assert_double_ge (l2_cycles, 64 * 12.0 * 0.95);
    } else {
      ck_assert_double_lt (vr->events_per_op[NS_CAUSE_L2], 0.1);
      ck_assert_double_eq (l2_cycles, 0.0);
    }
  }
  ns_run_result_free (res);
}
END_TEST

/* Every variant's stacks add up to its breakdown, cause by cause; each starts with the
 * thread's frame and ends with a cause. */
START_TEST (test_stacks_sum_to_breakdown)
{
  NsRunResult *res = run_call_chain ();

  for (guint v = 0; v < res->variants->len; v++) {
    const NsVariantResult *vr = res->variants->pdata[v];
    double by_stack[NS_CAUSE_N] = { 0 }, by_func[NS_CAUSE_N] = { 0 };

    ck_assert_ptr_nonnull (vr->stacks);
    ck_assert_uint_gt (vr->stacks->len, 0);
    for (guint i = 0; i < vr->stacks->len; i++) {
      const NsStackRow *row = vr->stacks->pdata[i];
      const char *leaf = strrchr (row->stack, ';');
      int c;
      ck_assert_ptr_nonnull (leaf);
      ck_assert (g_str_has_prefix (row->stack, "calls;"));
      for (c = 0; c < NS_CAUSE_N; c++) {
        g_autofree char *want = g_strdup_printf (";[%s]", ns_cause_name (c));
        if (!strcmp (leaf, want))
          break;
      }
      ck_assert_msg (c < NS_CAUSE_N, "no cause at the end of %s", row->stack);
      /* cppcheck-suppress arrayIndexOutOfBounds ; ck_assert_msg does not return */
      by_stack[c] += row->cycles;
    }
    for (guint i = 0; i < vr->breakdown->len; i++) {
      const NsBreakdownRow *row = vr->breakdown->pdata[i];
      for (int c = 0; c < NS_CAUSE_N; c++)
        by_func[c] += row->cycles_per_op[c] * (double) vr->ops;
    }
    for (int c = 0; c < NS_CAUSE_N; c++)
      ck_assert_double_eq_tol (by_stack[c], by_func[c], 1e-6 * (1.0 + by_func[c]));
  }
  ns_run_result_free (res);
}
END_TEST

/* Every variant's threads add up to its total; the call chain's one thread never sleeps,
 * so it fills its CPU's measured time (less than one quantum past the window's end). */
START_TEST (test_threads_sum_to_breakdown)
{
  NsRunResult *res = run_call_chain ();

  for (guint v = 0; v < res->variants->len; v++) {
    const NsVariantResult *vr = res->variants->pdata[v];
    const NsThreadRow *row;

    ck_assert_uint_eq (vr->threads->len, 1);
    row = vr->threads->pdata[0];
    ck_assert_str_eq (row->thread, "calls");
    ck_assert_uint_eq (row->cpu, 0);
    ck_assert_double_eq_tol (row->cycles_per_op, ns_run_cycles_per_op (vr),
                             1e-9 * ns_run_cycles_per_op (vr));
    ck_assert_msg (row->busy > 0.99 && row->busy < 1.06, "busy %f", row->busy);
  }
  ns_run_result_free (res);
}
END_TEST

/* Without NsRunOptions.stacks nothing is collected. */
START_TEST (test_no_stacks_unless_asked)
{
  static const char *const sets[] = { "measure.warmup=2us", "measure.duration=20us", NULL };
  g_autofree char *path = micro_path ("call-chain.xml");
  NsRunOptions opt = { 0 };
  NsRunResult *res;

  opt.sets = sets;
  res = ns_run_scenario (path, &opt, NULL);
  ck_assert_ptr_nonnull (res);
  ck_assert_ptr_null (((NsVariantResult *) res->variants->pdata[0])->stacks);
  ns_run_result_free (res);
}
END_TEST

/* Runs micro/call-chain.xml (every variant, or only `only`) briefly, with extra
 * (NULL-terminated, may be NULL) after the short measurement's sets. */
static NsRunResult *
run_call_chain_briefly (const char *only, const char *const *extra)
{
  g_autoptr (GStrvBuilder) b = g_strv_builder_new ();
  g_auto (GStrv) sets = NULL;
  g_autofree char *path = micro_path ("call-chain.xml");
  NsRunOptions opt = { 0 };
  GError *error = NULL;
  NsRunResult *res;

  g_strv_builder_add_many (b, "measure.warmup=10us", "measure.duration=40us", NULL);
  if (extra != NULL)
    g_strv_builder_addv (b, (const char **) extra);
  sets = g_strv_builder_end (b);
  opt.sets = (const char *const *) sets;
  opt.only_variant = only;
  res = ns_run_scenario (path, &opt, &error);
  ck_assert_msg (res != NULL, "%s", error ? error->message : "?");
  return res;
}

/* What the machine says about its parameters is a note of the run, once, not a message
 * on standard error each time a repetition builds a machine: at 0.1 GHz the c2c
 * transfers are under one locked RMW. */
START_TEST (test_machine_remarks_are_notes)
{
  static const char *const extra[] = { "param.cpu.freq_ghz=0.1", "measure.repetitions=2",
                                       NULL };
  NsRunResult *res = run_call_chain_briefly ("plain-ret", extra);
  const NsVariantResult *vr = res->variants->pdata[0];
  guint n = 0;

  for (guint i = 0; vr->notes && vr->notes[i]; i++)
    n += strstr (vr->notes[i], "c2c.smt_ns: 8 ns is 0.8 cycles at cpu.freq_ghz 0.1, less "
                 "than one locked RMW") != NULL;
  ck_assert_uint_eq (n, 1);
  ns_run_result_free (res);
}
END_TEST

/* A variant's params_read names what its build, the run's checks and every repetition's
 * machine and models read, and no more: the call chain reads the inlining limit (the
 * build), the quantum, the IPC and the return mitigation in force (unret's price only in
 * the variant that selects it); nothing in it sleeps, so never the wake-up latency. */
START_TEST (test_params_read)
{
  NsRunResult *res = run_call_chain_briefly (NULL, NULL);
  const char *const *plain = (const char *const *) variant (res, "plain-ret")->params_read;
  const char *const *unret = (const char *const *) variant (res, "retbleed-unret")->params_read;

  ck_assert_ptr_nonnull (plain);
  ck_assert (g_strv_contains (plain, "build.inline_limit_bytes"));
  ck_assert (g_strv_contains (plain, "sched.quantum_ns"));
  ck_assert (g_strv_contains (plain, "cpu.ipc"));
  ck_assert (!g_strv_contains (plain, "ret.unret_insns"));
  ck_assert (g_strv_contains (unret, "ret.unret_insns"));
  for (guint i = 0; i < res->variants->len; i++) {
    const NsVariantResult *vr = res->variants->pdata[i];
    ck_assert_msg (!g_strv_contains ((const char *const *) vr->params_read,
                                     "sched.wakeup_latency_ns"), "%s", vr->name);
  }
  ns_run_result_free (res);
}
END_TEST

/* --what-if: the twin of each variant follows the variants, named "NAME (what-if)", and
 * the comparisons become each variant against its twin with the twin's delta (here
 * mitigations=off makes a Safe RET chain cheaper and leaves a plain one as it was). */
START_TEST (test_what_if_join)
{
  static const char *const off[] = { "kernel.cmdline=mitigations=off", NULL };
  NsRunResult *base = run_call_chain_briefly (NULL, NULL);
  NsRunResult *alt = run_call_chain_briefly (NULL, off);
  guint n = base->variants->len;
  gint safe = -1;
  GError *error = NULL;
  NsRunResult *joined = ns_run_result_what_if (base, alt, off, &error);

  ck_assert_ptr_nonnull (joined);
  ck_assert_ptr_nonnull (joined->what_if);
  ck_assert_str_eq (joined->what_if[0], off[0]);
  ck_assert_ptr_null (joined->what_if[1]);
  ck_assert_uint_eq (joined->variants->len, 2 * n);
  ck_assert_uint_eq (joined->comparisons->len, n);
  for (guint i = 0; i < n; i++) {
    const NsComparison *c = &g_array_index (joined->comparisons, NsComparison, i);
    const NsVariantResult *b = joined->variants->pdata[c->baseline];
    const NsVariantResult *w = joined->variants->pdata[c->patched];
    g_autofree char *twin = g_strdup_printf ("%s (what-if)", b->name);
    g_autofree char *label = g_strdup_printf ("%s: kernel.cmdline=mitigations=off", b->name);

    ck_assert_uint_eq (c->baseline, i);
    ck_assert_uint_eq (c->patched, n + i);
    ck_assert_str_eq (w->name, twin);
    ck_assert_str_eq (c->label, label);
    ck_assert_double_eq_tol (c->delta_pct, 100.0 * (w->value / b->value - 1.0), 1e-9);
    if (strcmp (b->name, "srso-safe-ret") == 0)
      safe = (gint) i;
  }
  ck_assert_int_ge (safe, 0);
  ck_assert_double_lt (g_array_index (joined->comparisons, NsComparison, safe).delta_pct,
                       -20.0);
  ns_run_result_free (joined);
  /* runs of other variants are not twins */
  base = run_call_chain_briefly ("plain-ret", NULL);
  alt = run_call_chain_briefly ("inlined", NULL);
  ck_assert_ptr_null (ns_run_result_what_if (base, alt, off, &error));
  ck_assert_ptr_nonnull (error);
  g_clear_error (&error);
}
END_TEST

/* A fitted value's note quotes its source whole up to 64 characters, else its first 64
 * and an ellipsis (counted in characters: the sources are UTF-8), a " (declared in FILE)"
 * after the source kept whole. Under the sanitizers the short case also checks that no
 * byte past the source is read. */
START_TEST (test_fit_note_source)
{
  g_autofree char *longer = g_strnfill (70, 'x');
  g_autofree char *utf8 = g_strconcat ("µ", longer, NULL);
  NsFittedParam fit = { (char *) "cpu.ipc", (char *) "1.028",
                        (char *) "fit on 000-ipv4-mitoff-1G, residual 8.18e-05" };
  g_autofree char *note = ns_run_fit_note (&fit, "zen3-epyc-7713", "ryzen9-5950x");
  g_autofree char *cut = NULL, *cut_utf8 = NULL, *want = NULL, *declared = NULL;
  g_autofree char *declared_note = NULL, *long_declared = NULL, *long_declared_note = NULL;

  ck_assert_ptr_nonnull (strstr (note, "(fit on 000-ipv4-mitoff-1G, residual 8.18e-05); runs "
                                       "on ryzen9-5950x"));
  ck_assert_ptr_nonnull (strstr (note, "cpu.ipc = 1.028 was fitted for profile zen3-epyc-7713"));
  fit.source = longer;
  cut = ns_run_fit_note (&fit, "a", "b");
  want = g_strdup_printf ("(%.64s…)", longer);
  ck_assert_ptr_nonnull (strstr (cut, want));
  fit.source = utf8;
  cut_utf8 = ns_run_fit_note (&fit, "a", "b");
  g_free (want);
  want = g_strdup_printf ("(µ%.63s…)", longer);
  ck_assert_ptr_nonnull (strstr (cut_utf8, want));
  /* a short source from another file: the file's path whole, past the 64 characters */
  declared = g_strdup ("fit on 000-ipv4-mitoff-1G, residual 8.18e-05 (declared in "
                       "../udp-lookup-iperf3.xml)");
  fit.source = declared;
  declared_note = ns_run_fit_note (&fit, "a", "b");
  g_free (want);
  want = g_strdup_printf ("(%s);", declared);
  ck_assert_ptr_nonnull (strstr (declared_note, want));
  /* a long one: cut before the path */
  long_declared = g_strconcat (longer, " (declared in ../a/b.xml)", NULL);
  fit.source = long_declared;
  long_declared_note = ns_run_fit_note (&fit, "a", "b");
  g_free (want);
  want = g_strdup_printf ("(%.64s… (declared in ../a/b.xml));", longer);
  ck_assert_ptr_nonnull (strstr (long_declared_note, want));
}
END_TEST

/* Runs variant of micro/indirect-call.xml (short) with the command line's sets (first
 * a kernel version, then more), asserting that it runs. */
static NsRunResult *
run_indirect_call (const char *variant_name, const char *const *sets)
{
  g_autofree char *path = micro_path ("indirect-call.xml");
  g_autoptr (GPtrArray) all = g_ptr_array_new ();
  NsRunOptions opt = { .only_variant = variant_name };
  GError *error = NULL;
  NsRunResult *res;

  g_ptr_array_add (all, (gpointer) "measure.warmup=2us");
  g_ptr_array_add (all, (gpointer) "measure.duration=20us");
  for (guint i = 0; sets && sets[i]; i++)
    g_ptr_array_add (all, (gpointer) sets[i]);
  g_ptr_array_add (all, NULL);
  opt.sets = (const char *const *) all->pdata;
  res = ns_run_scenario (path, &opt, &error);
  ck_assert_msg (res != NULL, "%s: %s", variant_name, error ? error->message : "?");
  return res;
}

/* A build without retpolines (CONFIG_RETPOLINE=n before v6.9, CONFIG_MITIGATION_RETPOLINE=n
 * from v6.9) runs what the kernel falls back to, as bugs.c does: spectre_v2=retpoline or
 * =lfence is switched to auto, which on the generic CPU is off, so the run costs what the
 * off variant costs, and its mitigation line says why (the kernel's choice, "~"); the old
 * code refused the scenario. The other name is no option of that version and changes
 * nothing: the retpoline stays. */
START_TEST (test_retpoline_not_built_falls_back)
{
  static const char *const no_rp_68[] = { "kernel.version=6.8",
                                          "kernel.config.CONFIG_RETPOLINE=n", NULL };
  static const char *const no_mrp[] = { "kernel.config.CONFIG_MITIGATION_RETPOLINE=n", NULL };
  static const char *const no_rp[] = { "kernel.config.CONFIG_RETPOLINE=n", NULL };
  static const char *const v68[] = { "kernel.version=6.8", NULL };
  NsRunResult *off = run_indirect_call ("off", v68);
  NsRunResult *retpoline = run_indirect_call ("retpoline", v68);
  NsRunResult *fell = run_indirect_call ("retpoline", no_rp_68);
  NsRunResult *lfence = run_indirect_call ("lfence", no_mrp);
  NsRunResult *other_name = run_indirect_call ("retpoline", no_rp);
  const NsVariantResult *vf = variant (fell, "retpoline");
  const NsVariantResult *vl = variant (lfence, "lfence");
  const NsVariantResult *vo = variant (other_name, "retpoline");

  ck_assert_msg (g_str_has_prefix (vf->mitigations[0], "spectre_v2=off: kernel command line: "
                                   "spectre_v2=retpoline; " NS_MITIGATION_KERNEL_CHOSE "off, "
                                   "as CONFIG_RETPOLINE=n"), "%s", vf->mitigations[0]);
  ck_assert_double_eq (vf->value, variant (off, "off")->value);
  ck_assert (vf->value < variant (retpoline, "retpoline")->value);
  ck_assert_msg (g_str_has_prefix (vl->mitigations[0], "spectre_v2=off: ") &&
                 strstr (vl->mitigations[0], "CONFIG_MITIGATION_RETPOLINE=n") != NULL,
                 "%s", vl->mitigations[0]);
  ck_assert (g_str_has_prefix (vo->mitigations[0], "spectre_v2=retpoline: "));
  ck_assert (!g_strv_contains ((const char *const *) vo->config_read, "CONFIG_RETPOLINE"));
  ck_assert (g_strv_contains ((const char *const *) vo->config_read,
                              "CONFIG_MITIGATION_RETPOLINE"));
  ns_run_result_free (off);
  ns_run_result_free (retpoline);
  ns_run_result_free (fell);
  ns_run_result_free (lfence);
  ns_run_result_free (other_name);
}
END_TEST

/* SRSO compiled out (CONFIG_MITIGATION_SRSO=n, or CONFIG_MITIGATION_RETHUNK=n it depends
 * on; CONFIG_CPU_SRSO=n before 6.9) leaves SRSO unmitigated, as srso_select_mitigation()
 * does: the Zen 3 UDP lookup runs without Safe RET (faster, as with
 * spec_rstack_overflow=off), its line saying why; the options are read (no "changed
 * nothing" note) and, Kconfig bools, refuse m. The old code ignored them. */
START_TEST (test_srso_not_built_runs_without_safe_ret)
{
  const char *data = g_getenv ("NETSIM_DATADIR");
  g_autofree char *path = g_build_filename (data ? data : NS_SRCDIR, "scenarios",
                                            "udp-lookup-iperf3.xml", NULL);
  const char *const cases[][3] = {   /* the version, a set, what the SRSO line says */
    { "kernel.version=6.9", "kernel.config.CONFIG_MITIGATION_SRSO=n", "=n" },
    { "kernel.version=6.9", "kernel.config.CONFIG_MITIGATION_RETHUNK=n", "CONFIG_MITIGATION_"
      "SRSO is not built: it depends on CONFIG_MITIGATION_RETHUNK, =n" },
    { "kernel.version=6.8", "kernel.config.CONFIG_CPU_SRSO=n", "CONFIG_CPU_SRSO=n" },
    { "kernel.version=6.9", "kernel.cmdline=spec_rstack_overflow=off", NULL },
    { "kernel.version=6.9", NULL, NULL },
  };
  double value[G_N_ELEMENTS (cases)];
  static const char *const module[] = { "kernel.config.CONFIG_MITIGATION_SRSO=m", NULL };
  GError *error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    const char *const sets[] = { "measure.warmup=100us", "measure.duration=200us",
                                 "measure.repetitions=1", cases[i][0], cases[i][1], NULL };
    const char *set = cases[i][1] ? cases[i][1] : "";
    NsRunOptions opt = { .sets = sets, .only_variant = "ipv4-1G-baseline" };
    NsRunResult *res = ns_run_scenario (path, &opt, &error);
    const NsVariantResult *vr;
    g_autofree char *key = NULL;

    ck_assert_msg (res != NULL, "%s: %s", set, error ? error->message : "?");
    vr = variant (res, "ipv4-1G-baseline");
    value[i] = vr->value;
    ck_assert_msg (g_str_has_prefix (vr->mitigations[2], i < 4 ? "spec_rstack_overflow=off: "
                                     : "spec_rstack_overflow=safe-ret: "), "%s: %s",
                   set, vr->mitigations[2]);
    ck_assert_msg (cases[i][2] == NULL || strstr (vr->mitigations[2], cases[i][2]) != NULL,
                   "%s: %s", set, vr->mitigations[2]);
    if (i < 3) {                                        /* read: no "changed nothing" note */
      key = g_strndup (set + strlen ("kernel.config."),
                       strcspn (set + strlen ("kernel.config."), "="));
      ck_assert (g_strv_contains ((const char *const *) vr->config_read, key));
    }
    ns_run_result_free (res);
  }
  ck_assert_double_eq (value[0], value[3]);
  ck_assert_double_eq (value[1], value[3]);
  ck_assert (value[0] > value[4]);
  ck_assert (!ns_run_check_variant (path, "ipv4-1G-baseline", module, &error));
  ck_assert_msg (strstr (error->message, "CONFIG_MITIGATION_SRSO='m': a bool option") != NULL,
                 "%s", error->message);
  g_error_free (error);
}
END_TEST

/* Kconfig's bool/tristate options take y, m or n and nothing else: the retpoline option
 * (v6.9's CONFIG_MITIGATION_RETPOLINE here) spelled N, yes, no or 0 with a retpoline mode is neither a build with retpolines nor one
 * without, and is refused at its <config> with the set that gave it (the old code read it
 * as y and ran retpolines); it is a bool (arch/x86/Kconfig), so m, which a tristate
 * takes, is refused too, at its line (the old code ran it as y); y sets up. */
START_TEST (test_retpoline_value_checked)
{
  g_autofree char *path = micro_path ("indirect-call.xml");
  static const char *const bad[] = { "N", "yes", "no", "0" };   /* " n": the XML layer's */
  static const char *const module[] = { "kernel.config.CONFIG_MITIGATION_RETPOLINE=m", NULL };
  static const char *const yes[] = { "kernel.config.CONFIG_MITIGATION_RETPOLINE=y", NULL };
  GError *error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
    g_autofree char *set = g_strdup_printf ("kernel.config.CONFIG_MITIGATION_RETPOLINE=%s", bad[i]);
    g_autofree char *after = g_strdup_printf ("(after --set %s)", set);
    const char *const sets[] = { set, NULL };

    ck_assert_msg (!ns_run_check_variant (path, "retpoline", sets, &error), "'%s'", bad[i]);
    ck_assert (g_error_matches (error, NS_ERROR, NS_ERROR_INPUT));
    ck_assert_msg (strstr (error->message, "indirect-call.xml:") != NULL &&
                   strstr (error->message, "takes y, m or n") != NULL &&
                   g_str_has_suffix (error->message, after), "%s", error->message);
    g_clear_error (&error);
  }
  ck_assert (!ns_run_check_variant (path, "retpoline", module, &error));
  ck_assert (g_error_matches (error, NS_ERROR, NS_ERROR_INPUT));
  ck_assert_msg (strstr (error->message, "indirect-call.xml:") != NULL &&
                 strstr (error->message, "attribute 'value': CONFIG_MITIGATION_RETPOLINE='m': "
                         "a bool option (Kconfig), which cannot be a module: use y or n "
                         "(after --set kernel.config.CONFIG_MITIGATION_RETPOLINE=m)") != NULL,
                 "%s", error->message);
  g_clear_error (&error);
  ck_assert_msg (ns_run_check_variant (path, "retpoline", yes, &error), "%s",
                 error ? error->message : "");
}
END_TEST

/* An option the network stack reads when the machine is set up (CONFIG_SECURITY, on
 * unless n) with the value N is refused before the run, at the scenario's <config> line,
 * naming the set; the old code ran it as y. */
START_TEST (test_model_config_value_checked)
{
  g_autofree char *path = micro_path ("udp-flood.xml");
  static const char *const sets[] = { "kernel.config.CONFIG_SECURITY=N", NULL };
  NsRunOptions opt = { .sets = sets, .only_variant = "ipv4-64-n1" };
  GError *error = NULL;
  NsRunResult *res = ns_run_scenario (path, &opt, &error);

  ck_assert_ptr_null (res);
  ck_assert (g_error_matches (error, NS_ERROR, NS_ERROR_INPUT));
  ck_assert_msg (strstr (error->message, "udp-flood.xml:18: attribute 'value': "
                         "CONFIG_SECURITY='N': a bool/tristate option takes y, m or n "
                         "(after --set kernel.config.CONFIG_SECURITY=N)") != NULL,
                 "%s", error->message);
  g_error_free (error);
}
END_TEST

/* A parameter with a fixed set of values (cache.policy: lru or plru) is checked where the
 * scenario's parameters are, at load, with file:line and the set (the old code failed
 * only when the machine was built, naming no file). */
START_TEST (test_param_choice_checked_at_load)
{
  g_autofree char *path = micro_path ("call-chain.xml");
  static const char *const sets[] = { "param.cache.policy=fifo", NULL };
  GError *error = NULL;

  ck_assert (!ns_run_check_variant (path, "plain-ret", sets, &error));
  ck_assert (g_error_matches (error, NS_ERROR, NS_ERROR_INPUT));
  ck_assert_msg (strstr (error->message, "call-chain.xml:") != NULL &&
                 strstr (error->message, "parameter cache.policy: expected lru or plru, got "
                         "'fifo'") != NULL &&
                 g_str_has_suffix (error->message, "(after --set param.cache.policy=fifo)"),
                 "%s", error->message);
  g_error_free (error);
}
END_TEST

/* Parameters the machine can only judge together are refused naming the scenario file,
 * the variant and every set behind the parameters the machine names as at fault, in the
 * order given: a 2 KiB L1D cannot hold one set of 64 ways of 64-byte lines; 8 sockets x 8
 * L3 domains x 256 cores exceed the cores the model holds (an unrelated set is not named). */
START_TEST (test_machine_geometry_blamed)
{
  g_autofree char *path = micro_path ("call-chain.xml");
  static const struct {
    const char *sets[5], *says, *after;
  } cases[] = {
    { { "param.cache.l1d.size_kib=2", "param.cache.l1d.assoc=64", "workload.depth=4", NULL },
      ": variant 'plain-ret': cache.l1d.size_kib = 2 KiB cannot hold one set of "
      "cache.l1d.assoc = 64 ways",
      "(after --set param.cache.l1d.size_kib=2, --set param.cache.l1d.assoc=64)" },
    { { "param.cpu.sockets=8", "param.cpu.ccx_per_socket=8", "param.cpu.cores_per_ccx=256",
        "param.cpu.smt=1", NULL },
      ": variant 'plain-ret': topology of 16384 cores",
      "(after --set param.cpu.sockets=8, --set param.cpu.ccx_per_socket=8, "
      "--set param.cpu.cores_per_ccx=256)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    NsRunOptions opt = { .sets = cases[i].sets, .only_variant = "plain-ret" };
    GError *error = NULL;

    ck_assert_ptr_null (ns_run_scenario (path, &opt, &error));
    ck_assert (g_error_matches (error, NS_ERROR, NS_ERROR_INPUT));
    ck_assert_msg (strstr (error->message, "call-chain.xml:") != NULL &&
                   strstr (error->message, cases[i].says) != NULL &&
                   g_str_has_suffix (error->message, cases[i].after), "%s", error->message);
    g_error_free (error);
  }
}
END_TEST

/* Writes into dir a copy of the generic profile named "tiny" whose L1D of 1 KiB has ways
 * ways (a string): too small for one set from 32 ways on. Its path; *line the line of its
 * cache.l1d.size_kib. */
static char *
tiny_profile (const char *dir, const char *ways, guint *line)
{
  const char *data = g_getenv ("NETSIM_DATADIR");
  g_autofree char *generic = g_build_filename (data ? data : NS_SRCDIR, "scenarios", "cpus",
                                               "generic.xml", NULL);
  g_autofree char *text = NULL, *assoc = g_strdup_printf ("\"cache.l1d.assoc\" value=\"%s\"",
                                                           ways);
  g_autoptr (GString) copy = NULL;
  char *path = g_build_filename (dir, "tiny.xml", NULL);

  ck_assert (g_file_get_contents (generic, &text, NULL, NULL));
  copy = g_string_new (text);
  ck_assert_uint_eq (g_string_replace (copy, "name=\"generic\"", "name=\"tiny\"", 1), 1);
  ck_assert_uint_eq (g_string_replace (copy, "\"cache.l1d.size_kib\" value=\"32\"",
                                       "\"cache.l1d.size_kib\" value=\"1\"", 1), 1);
  ck_assert_uint_eq (g_string_replace (copy, "\"cache.l1d.assoc\" value=\"8\"", assoc, 1), 1);
  *line = line_of_text (copy->str, "\"cache.l1d.size_kib\"");
  ck_assert (g_file_set_contents (path, copy->str, copy->len, NULL));
  return path;
}

/* The same geometry error from a profile's own values names the profile's file and the
 * line of its first <param> at fault after the scenario's <cpu> (it named the <cpu> line
 * only, never the profile). */
START_TEST (test_machine_geometry_blamed_in_profile)
{
  g_autofree char *path = micro_path ("call-chain.xml");
  g_autofree char *dir = g_dir_make_tmp ("test-run-XXXXXX", NULL), *profile = NULL;
  g_autofree char *set = NULL, *says = NULL;
  const char *sets[] = { NULL, NULL };
  NsRunOptions opt = { .sets = sets, .only_variant = "plain-ret" };
  GError *error = NULL;
  guint line;

  profile = tiny_profile (dir, "64", &line);
  sets[0] = set = g_strdup_printf ("cpu.profile=%s", profile);
  says = g_strdup_printf ("call-chain.xml:4: variant 'plain-ret': attribute 'profile': %s:%u: "
                          "cache.l1d.size_kib = 1 KiB cannot hold one set of cache.l1d.assoc "
                          "= 64 ways", profile, line);
  ck_assert_ptr_null (ns_run_scenario (path, &opt, &error));
  ck_assert (g_error_matches (error, NS_ERROR, NS_ERROR_INPUT));
  ck_assert_msg (strstr (error->message, says) != NULL, "%s", error->message);
  g_error_free (error);
  g_unlink (profile);
  g_rmdir (dir);
}
END_TEST

/* Set-up errors found after loading name the element and attribute whose value is bad,
 * and the --set that gave it: an unknown CPU profile (<cpu>, line 4 of call-chain.xml), a
 * bad kernel command line (<kernel>, line 5), an unknown patch, metric or workload type, a
 * kernel version the profile has no default for or whose minor is past 2^64 - 1 (its
 * version attribute, not its command line). */
START_TEST (test_setup_errors_located)
{
  g_autofree char *path = micro_path ("call-chain.xml");
  static const struct {
    const char *set, *where;
  } cases[] = {
    { "cpu.profile=nope", "call-chain.xml:4: attribute 'profile': unknown CPU profile 'nope'" },
    { "kernel.cmdline=spectre_v2=bogus", "call-chain.xml:5: attribute 'cmdline': kernel "
      "command line: bad value in 'spectre_v2=bogus'" },
    { "kernel.patch.name=nope", "attribute 'name': unknown patch 'nope'" },
    { "measure.metric=nope", "call-chain.xml:7: attribute 'metric': workload call-chain has "
      "no metric 'nope'" },
    { "workload.type=nope", "call-chain.xml:6: attribute 'type': unknown workload type 'nope'" },
    { "kernel.version=2.6", "call-chain.xml:5: attribute 'version': the CPU profile states "
      "no default mitigations for kernel 2.6" },
    { "kernel.version=6.18446744073709551625", "call-chain.xml:5: attribute 'version': "
      "kernel version '6.18446744073709551625': expected MAJOR.MINOR" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    const char *const sets[] = { cases[i].set, NULL };
    g_autofree char *after = g_strdup_printf ("(after --set %s)", cases[i].set);
    GError *error = NULL;

    ck_assert (!ns_run_check_variant (path, "plain-ret", sets, &error));
    ck_assert_msg (strstr (error->message, cases[i].where) != NULL, "%s", error->message);
    ck_assert_msg (g_str_has_suffix (error->message, after), "%s", error->message);
    g_error_free (error);
  }
}
END_TEST

/* An error a variant's <set> causes after a command-line set edited that <set> names both:
 * the variant's set and the --set behind it (doc/scenario-format.md, --set on variants). */
START_TEST (test_edited_variant_set_named)
{
  g_autofree char *path = micro_path ("call-chain.xml");
  const char *const sets[] = { "variants.variant[2].set[1].value=spectre_v2=bogus", NULL };
  GError *error = NULL;

  ck_assert (!ns_run_check_variant (path, "retbleed-unret", sets, &error));
  ck_assert_msg (strstr (error->message, "call-chain.xml:5: attribute 'cmdline': kernel "
                         "command line: bad value in 'spectre_v2=bogus'") != NULL &&
                 g_str_has_suffix (error->message, "(after variant 'retbleed-unret' set "
                                   "kernel.cmdline=spectre_v2=bogus, as --set "
                                   "variants.variant[2].set[1].value=spectre_v2=bogus "
                                   "edited it)"), "%s", error->message);
  /* the --set is named once, as the editor: not also on its own */
  ck_assert_msg (strstr (error->message, "(after variant 'retbleed-unret'") != NULL, "%s",
                 error->message);
  g_error_free (error);
}
END_TEST

/* A copy of the micro scenario name in a new temporary folder (*dir, to remove) with every
 * "from" replaced by "to"; its path. */
static char *
micro_copy_replacing (const char *name, const char *from, const char *to, char **dir)
{
  g_autofree char *src = micro_path (name), *text = NULL;
  g_autoptr (GString) copy = NULL;
  char *path;

  ck_assert (g_file_get_contents (src, &text, NULL, NULL));
  copy = g_string_new (text);
  ck_assert_uint_gt (g_string_replace (copy, from, to, 0), 0);
  *dir = g_dir_make_tmp ("test-run-XXXXXX", NULL);
  ck_assert_ptr_nonnull (*dir);
  path = g_build_filename (*dir, name, NULL);
  ck_assert (g_file_set_contents (path, copy->str, copy->len, NULL));
  return path;
}

/* A scenario's variant names are its <variant> elements' in file order (a comment or a
 * processing instruction named variant among them is none), and their list for messages
 * quotes the non-empty ones, "none" without; a variant the file lacks is refused (by the
 * variant check and the workload check). */
START_TEST (test_variant_names)
{
  static const char *const want[] = { "plain-ret", "retbleed-unret", "srso-safe-ret",
                                      "call-depth-stuffing", "inlined" };
  g_autofree char *dir = NULL, *list = NULL;
  g_autofree char *path = micro_copy_replacing ("call-chain.xml", "<variants>",
                                                "<variants><!-- a remark --><?variant not one?>",
                                                &dir);
  GError *error = NULL;
  NsScenario *sc = ns_scenario_load (path, NULL, &error);
  g_autoptr (GPtrArray) names = NULL, some = g_ptr_array_new ();
  NsRunOptions none = { 0 };

  ck_assert_msg (sc != NULL, "%s", error ? error->message : "?");
  names = ns_run_variant_names (sc);
  ck_assert_uint_eq (names->len, G_N_ELEMENTS (want));
  for (guint i = 0; i < names->len; i++)
    ck_assert_str_eq (names->pdata[i], want[i]);
  list = ns_run_variant_list (names);
  ck_assert_str_eq (list, "'plain-ret', 'retbleed-unret', 'srso-safe-ret', "
                    "'call-depth-stuffing', 'inlined'");
  g_free (list);
  ck_assert_str_eq ((list = ns_run_variant_list (some)), "none");
  g_ptr_array_add (some, "");
  g_free (list);
  ck_assert_str_eq ((list = ns_run_variant_list (some)), "none");
  g_ptr_array_add (some, "b");
  g_free (list);
  ck_assert_str_eq ((list = ns_run_variant_list (some)), "'b'");
  g_free (list);                /* a variant the file lacks is refused before any setup */
  list = g_strdup_printf ("%s: no variant named 'nope' (variants: 'plain-ret', ", path);
  ck_assert (!ns_run_check_variant (path, "nope", NULL, &error));
  ck_assert_msg (g_str_has_prefix (error->message, list), "%s", error->message);
  g_clear_error (&error);
  ck_assert (!ns_run_check_workload (path, "nope", &none, &error));
  ck_assert_msg (g_str_has_prefix (error->message, list), "%s", error->message);
  g_clear_error (&error);
  ns_scenario_free (sc);
  g_unlink (path);
  g_rmdir (dir);
}
END_TEST

/* The error of an L1D of 1 KiB with ways (a string literal) ways of 64 bytes. */
#define L1D_CAUSE(ways) "cache.l1d.size_kib = 1 KiB cannot hold one set of cache.l1d.assoc = " \
                        ways " ways of cache.line_bytes = 64 bytes"

/* A machine the parameters cannot build is blamed at the first scenario <param> it names,
 * with the --sets behind those <param>s (those that made one, and one that edited a
 * file's <param>: its value), and names the variant if there is one. */
START_TEST (test_geometry_error_blamed)
{
  static const char *const sets[] = { "param.cache.l1d.size_kib=1",
                                      "param.cache.l1d.assoc=32", NULL };
  static const char *const edit[] = { "param.cache.l1d.assoc=64", NULL };
  g_autofree char *path = micro_path ("call-chain.xml"), *dir = NULL, *own = NULL;
  g_autofree char *want = NULL;
  NsRunOptions opt = { .sets = sets }, none = { 0 };
  GError *error = NULL;

  ck_assert (!ns_run_check_workload (path, "plain-ret", &opt, &error));
  want = g_strdup_printf ("%s:2: variant 'plain-ret': %s (after --set %s, --set %s)", path,
                          L1D_CAUSE ("32"), sets[0], sets[1]);
  ck_assert_str_eq (error->message, want);
  g_clear_error (&error);
  own = micro_copy_replacing ("call-chain.xml", "  <workload",
                              "  <param name=\"cache.l1d.size_kib\" value=\"1\" source=\"t\"/>\n"
                              "  <param name=\"cache.l1d.assoc\" value=\"32\" source=\"t\"/>\n"
                              "  <workload", &dir);
  ck_assert (!ns_run_check_workload (own, NULL, &none, &error));
  g_free (want);
  want = g_strdup_printf ("%s:6: %s", own, L1D_CAUSE ("32"));
  ck_assert_str_eq (error->message, want);
  g_clear_error (&error);
  opt.sets = edit;              /* a --set that edits the value of the file's <param> */
  ck_assert (!ns_run_check_workload (own, NULL, &opt, &error));
  g_free (want);
  want = g_strdup_printf ("%s:6: %s (after --set %s)", own, L1D_CAUSE ("64"), edit[0]);
  ck_assert_str_eq (error->message, want);
  g_clear_error (&error);
  g_unlink (own);
  g_rmdir (dir);
}
END_TEST

/* A profile the scenario names whose own parameters cannot build the machine is blamed
 * at <cpu> and at the profile's line of the first parameter at fault, with no --set
 * behind it. */
START_TEST (test_profile_geometry_error_blamed)
{
  g_autofree char *pdir = g_dir_make_tmp ("test-run-XXXXXX", NULL), *tiny = NULL;
  g_autofree char *dir = NULL, *own = NULL, *named = NULL, *want = NULL;
  NsRunOptions none = { 0 };
  GError *error = NULL;
  guint line;

  tiny = tiny_profile (pdir, "32", &line);
  named = g_strdup_printf ("profile=\"%s\"", tiny);
  own = micro_copy_replacing ("call-chain.xml", "profile=\"generic\"", named, &dir);
  ck_assert (!ns_run_check_workload (own, "plain-ret", &none, &error));
  want = g_strdup_printf ("%s:4: variant 'plain-ret': attribute 'profile': %s:%u: %s", own,
                          tiny, line, L1D_CAUSE ("32"));
  ck_assert_str_eq (error->message, want);
  g_clear_error (&error);
  g_unlink (own);
  g_rmdir (dir);
  g_unlink (tiny);
  g_rmdir (pdir);
}
END_TEST

/* Each repetition draws the page frames anew (mem.page_frames = random, overriding the
 * pointer-chase micro's contiguous): a chase over three quarters of the L2 then costs
 * something different in each of three repetitions, and the same again for the same seed;
 * on contiguous frames every repetition gives the same. */
START_TEST (test_page_frames_drawn_per_repetition)
{
  g_autofree char *path = micro_path ("pointer-chase.xml");
  const char *frames[] = { "param.mem.page_frames=random", "param.mem.page_frames=contiguous" };

  for (guint f = 0; f < 2; f++) {
    const char *const sets[] = { "workload.working-set=384KiB", "measure.duration=50us",
                                 frames[f], NULL };
    NsRunOptions opt = { 0 };
    GError *error = NULL;
    NsRunResult *a, *b;
    const NsVariantResult *va, *vb;

    opt.sets = sets;
    opt.only_variant = "L2-256KiB";
    a = ns_run_scenario (path, &opt, &error);
    ck_assert_msg (a != NULL, "%s", error ? error->message : "?");
    b = ns_run_scenario (path, &opt, &error);
    ck_assert_msg (b != NULL, "%s", error ? error->message : "?");
    va = a->variants->pdata[0];
    vb = b->variants->pdata[0];
    ck_assert_uint_eq (va->n_reps, 3);
    for (guint r = 0; r < 3; r++)
      ck_assert (va->values[r] == vb->values[r]);
    if (f == 0)
      ck_assert_msg (va->values[0] != va->values[1] && va->values[1] != va->values[2]
                     && va->values[0] != va->values[2], "%g %g %g", va->values[0],
                     va->values[1], va->values[2]);
    else
      ck_assert (va->values[0] == va->values[1] && va->values[1] == va->values[2]);
    ns_run_result_free (a);
    ns_run_result_free (b);
  }
}
END_TEST

/* A what-if twin's name that a variant which runs has already is refused from the file
 * alone, before any run; with --variant only that variant runs, so nothing clashes. */
START_TEST (test_twin_names_checked_before_running)
{
  g_autofree char *own = micro_path ("call-chain.xml"), *dir = NULL, *taken = NULL;
  NsRunOptions opt = { 0 };
  GError *error = NULL;

  ck_assert (ns_run_check_twin_names (own, &opt, &error));
  ck_assert_ptr_null (error);
  taken = micro_copy_replacing ("call-chain.xml", "\"inlined\"", "\"plain-ret (what-if)\"",
                                &dir);
  ck_assert (!ns_run_check_twin_names (taken, &opt, &error));
  ck_assert_ptr_nonnull (error);
  ck_assert (g_error_matches (error, NS_ERROR, NS_ERROR_INPUT));
  ck_assert_msg (strstr (error->message, "called 'plain-ret (what-if)' already") != NULL,
                 "%s", error->message);
  g_clear_error (&error);
  opt.only_variant = "plain-ret";
  ck_assert (ns_run_check_twin_names (taken, &opt, &error));
  ck_assert_ptr_null (error);
  g_unlink (taken);
  g_rmdir (dir);
}
END_TEST

/* A run-time failure names the variant that failed and its line: with 18 variants, a
 * paced one (1 kbit/s: no 8920-byte datagram in 100 us) failed as "FILE: the workload
 * completed no datagram …", naming none of them. */
START_TEST (test_run_time_error_names_variant)
{
  const char *data = g_getenv ("NETSIM_DATADIR");
  g_autofree char *path = g_build_filename (data ? data : NS_SRCDIR, "scenarios",
                                            "udp-lookup-iperf3.xml", NULL);
  g_autofree char *text = NULL;
  guint line = g_file_get_contents (path, &text, NULL, NULL)
               ? line_of_text (text, "<variant name=\"ipv4-10G-baseline\"") : 0;
  g_autofree char *where = g_strdup_printf ("%s:%u: variant 'ipv4-10G-baseline': the workload "
                                            "completed no datagram in the measured time "
                                            "(100 us): lengthen measure/@duration", path, line);
  static const char *const sets[] = { "workload.streams=1", "measure.warmup=1ms",
                                      "measure.duration=100us", "measure.repetitions=1",
                                      "variants.variant[3].set.value=1K", NULL };
  NsRunOptions opt = { .sets = sets };
  GError *error = NULL;

  ck_assert_ptr_null (ns_run_scenario (path, &opt, &error));
  ck_assert (g_error_matches (error, NS_ERROR, NS_ERROR_CHECK));
  ck_assert_msg (g_str_has_prefix (error->message, where), "%s", error->message);
  g_error_free (error);
}
END_TEST

/* A progress callback that fails the test: the run was to be refused before any variant
 * ran. */
static void
no_progress (const char *variant, guint index, guint total, guint rep, guint n_reps,
             gpointer data)
{
  (void) index; (void) total; (void) rep; (void) n_reps; (void) data;
  ck_abort_msg ("variant %s ran", variant);
}

/* A <compare> of two variants that measure different metrics (a variant's <set> changed
 * its measure/@metric) is refused before any variant runs, at the <compare>'s line and
 * naming the set: its delta (9.65 cycles against 3.22 ns a call, "-66.67 %") meant
 * nothing. With --variant one variant runs and no comparison applies. */
START_TEST (test_compare_needs_one_metric)
{
  g_autofree char *path = micro_path ("indirect-call.xml");
  g_autofree char *where = g_strdup_printf ("%s:24: element compare: baseline 'eibrs' "
                                            "measures cycles_per_call, patched 'retpoline' "
                                            "measures ns_per_call (variant 'retpoline' set "
                                            "measure.metric=ns_per_call, as --set "
                                            "variants.variant[2].set.path=measure.metric, "
                                            "--set variants.variant[2].set.value=ns_per_call "
                                            "edited it): a comparison needs the same metric "
                                            "on both sides", path);
  static const char *const sets[] = { "measure.duration=20us",
                                      "variants.variant[2].set.path=measure.metric",
                                      "variants.variant[2].set.value=ns_per_call", NULL };
  NsRunOptions opt = { .sets = sets, .progress = no_progress };
  GError *error = NULL;
  NsRunResult *res;

  ck_assert_ptr_null (ns_run_scenario (path, &opt, &error));
  ck_assert (g_error_matches (error, NS_ERROR, NS_ERROR_INPUT));
  ck_assert_msg (g_str_has_prefix (error->message, where), "%s", error->message);
  g_clear_error (&error);
  opt.progress = NULL;
  opt.only_variant = "retpoline";
  res = ns_run_scenario (path, &opt, &error);
  ck_assert_msg (res != NULL, "%s", error ? error->message : "?");
  ck_assert_str_eq (((NsVariantResult *) res->variants->pdata[0])->metric, "ns_per_call");
  ck_assert_uint_eq (res->comparisons->len, 0);
  ns_run_result_free (res);
}
END_TEST

/* ns_run_check_what_if refuses, before any run, the what-ifs whose twins could not be
 * compared with their variants, naming the what-if at the line of what it changed: one
 * changing the metric (twin against variant gave "-66.67 %" between ns and cycles a call),
 * one renaming the variant that runs (it failed as "no variant named 'off'", naming no
 * what-if) or adding one; a what-if editing a variant's own <set> is fine. */
START_TEST (test_what_if_checked_before_running)
{
  g_autofree char *path = micro_path ("indirect-call.xml");
  g_autofree char *metric = g_strdup_printf ("%s:7: element measure: attribute 'metric': the "
                                             "what-if twin of 'off' would measure "
                                             "ns_per_call, and 'off' cycles_per_call: a "
                                             "comparison needs the same metric on both sides",
                                             path);
  g_autofree char *renamed = g_strdup_printf ("%s:9: element variant: attribute 'name': a "
                                              "what-if may not rename or add a variant (here "
                                              "'zz', which the scenario calls 'off')", path);
  static const char *const to_ns[] = { "measure.metric=ns_per_call", NULL };
  static const char *const rename[] = { "variants.variant[1].name=zz", NULL };
  static const char *const add[] = { "variants.variant[6].name=zz", NULL };
  static const char *const fine[] = { "variants.variant[2].set.value=spectre_v2=eibrs",
                                      "kernel.cmdline=spectre_v2=off", NULL };
  NsRunOptions opt = { .only_variant = "off" };
  GError *error = NULL;

  ck_assert (!ns_run_check_what_if (path, &opt, to_ns, &error));
  ck_assert (g_error_matches (error, NS_ERROR, NS_ERROR_INPUT));
  ck_assert_msg (g_str_has_prefix (error->message, metric) &&
                 g_str_has_suffix (error->message, "(after --what-if "
                                   "measure.metric=ns_per_call)"), "%s", error->message);
  g_clear_error (&error);
  ck_assert (!ns_run_check_what_if (path, &opt, rename, &error));
  ck_assert_msg (g_str_has_prefix (error->message, renamed) &&
                 g_str_has_suffix (error->message, "(after --what-if "
                                   "variants.variant[1].name=zz)"), "%s", error->message);
  g_clear_error (&error);
  opt.only_variant = NULL;
  ck_assert (!ns_run_check_what_if (path, &opt, add, &error));
  ck_assert_msg (strstr (error->message, "(here 'zz', which the scenario lacks)") != NULL &&
                 g_str_has_suffix (error->message, "(after --what-if "
                                   "variants.variant[6].name=zz)"), "%s", error->message);
  g_clear_error (&error);
  ck_assert_msg (ns_run_check_what_if (path, &opt, fine, &error), "%s", error->message);
}
END_TEST

/* A twin that fails at run time is named, with the what-ifs that made it: the error blamed
 * the variant itself ("FILE:9: variant 'off': the workload completed no call …"), which
 * runs fine; in a scenario without variants it is the scenario's twin. */
START_TEST (test_twin_run_time_error_names_twin)
{
  g_autofree char *path = micro_path ("indirect-call.xml"), *dir = NULL, *plain = NULL;
  g_autofree char *where = g_strdup_printf ("%s:9: variant 'off (what-if)': the workload "
                                            "completed no call in the measured time (20 us)",
                                            path);
  g_autofree char *plain_where = NULL;
  static const char *const sets[] = { "measure.duration=20us", NULL };
  static const char *const what_ifs[] = { "workload.body-insns=1000000", NULL };
  const char *after = "(after --what-if workload.body-insns=1000000)";
  NsRunOptions opt = { .sets = sets, .params = what_ifs, .params_by = "--what-if",
                       .what_if = TRUE, .only_variant = "off" };
  GError *error = NULL;

  ck_assert_ptr_null (ns_run_scenario (path, &opt, &error));
  ck_assert (g_error_matches (error, NS_ERROR, NS_ERROR_CHECK));
  ck_assert_msg (g_str_has_prefix (error->message, where) &&
                 g_str_has_suffix (error->message, after), "%s", error->message);
  g_clear_error (&error);
  /* the same scenario without its variants */
  plain = micro_copy_replacing ("indirect-call.xml", "<variants>", "<!--", &dir);
  {
    g_autofree char *text = NULL;
    g_autoptr (GString) cut = NULL;
    ck_assert (g_file_get_contents (plain, &text, NULL, NULL));
    cut = g_string_new (text);
    ck_assert_uint_eq (g_string_replace (cut, "</comparisons>", "-->", 0), 1);
    ck_assert_uint_eq (g_string_replace (cut, "</variants>", "", 0), 1);
    ck_assert_uint_eq (g_string_replace (cut, "<comparisons>", "", 0), 1);
    ck_assert (g_file_set_contents (plain, cut->str, cut->len, NULL));
  }
  opt.only_variant = NULL;
  plain_where = g_strdup_printf ("%s: variant 'indirect-call (what-if)': the workload "
                                 "completed no call", plain);
  ck_assert_ptr_null (ns_run_scenario (plain, &opt, &error));
  ck_assert_msg (g_str_has_prefix (error->message, plain_where) &&
                 g_str_has_suffix (error->message, after), "%s", error->message);
  g_clear_error (&error);
  /* the run without the what-ifs names no twin and no what-if */
  opt = (NsRunOptions) { .params = (const char *const []) { "measure.duration=20us",
                                                            "workload.body-insns=1000000",
                                                            NULL } };
  ck_assert_ptr_null (ns_run_scenario (plain, &opt, &error));
  g_free (plain_where);
  plain_where = g_strdup_printf ("%s: the workload completed no call", plain);
  ck_assert_msg (g_str_has_prefix (error->message, plain_where) &&
                 strstr (error->message, "(after") == NULL, "%s", error->message);
  g_clear_error (&error);
  g_unlink (plain);
  g_rmdir (dir);
}
END_TEST

static Suite *
run_suite (void)
{
  Suite *s = suite_create ("run");
  TCase *tc = tcase_create ("run");

  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_aggregate);
  tcase_add_test (tc, test_one_op_step);
  tcase_add_test (tc, test_breakdown_order);
  tcase_add_test (tc, test_variant_names);
  tcase_add_test (tc, test_geometry_error_blamed);
  tcase_add_test (tc, test_profile_geometry_error_blamed);
  tcase_add_test (tc, test_event_counts);
  tcase_add_test (tc, test_retpoline_not_built_falls_back);
  tcase_add_test (tc, test_srso_not_built_runs_without_safe_ret);
  tcase_add_test (tc, test_retpoline_value_checked);
  tcase_add_test (tc, test_model_config_value_checked);
  tcase_add_test (tc, test_setup_errors_located);
  tcase_add_test (tc, test_edited_variant_set_named);
  tcase_add_test (tc, test_param_choice_checked_at_load);
  tcase_add_test (tc, test_machine_geometry_blamed);
  tcase_add_test (tc, test_machine_geometry_blamed_in_profile);
  tcase_add_test (tc, test_call_tree_footprint);
  tcase_add_test (tc, test_udp_lookup_chain);
  tcase_add_test (tc, test_stacks_sum_to_breakdown);
  tcase_add_test (tc, test_threads_sum_to_breakdown);
  tcase_add_test (tc, test_machine_remarks_are_notes);
  tcase_add_test (tc, test_no_stacks_unless_asked);
  tcase_add_test (tc, test_fit_note_source);
  tcase_add_test (tc, test_params_read);
  tcase_add_test (tc, test_what_if_join);
  tcase_add_test (tc, test_twin_names_checked_before_running);
  tcase_add_test (tc, test_page_frames_drawn_per_repetition);
  tcase_add_test (tc, test_run_time_error_names_variant);
  tcase_add_test (tc, test_compare_needs_one_metric);
  tcase_add_test (tc, test_what_if_checked_before_running);
  tcase_add_test (tc, test_twin_run_time_error_names_twin);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *runner = srunner_create (run_suite ());
  int failed;

  srunner_run_all (runner, CK_NORMAL);
  failed = srunner_ntests_failed (runner);
  srunner_free (runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
