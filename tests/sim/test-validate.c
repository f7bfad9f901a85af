/* test-validate.c — the recorded results load completely and with sources; the tolerance
 * rule, sign agreement and status logic; a fixture case gives the numbers netsim run gives
 * (whatever --jobs is); expected-results regressions; a row both fitted and counted as
 * validation is caught, and a recorded fit whose row has moved is noted; a recorded fit no
 * value in use is makes no calibration row and is a conflict, and a second fit of one
 * profile and parameter is refused; what-if runs. The edges of each load check (found by
 * tools/mutate), the summary's figures in the table and JSON, run seeds and the job
 * runner's progress.
 * Calibration itself (netsim calibrate) is tested in test-calibrate.c. */
#include "config.h"
#include "count.h"
#include <check.h>
#include <math.h>
#include <string.h>
#include "calibrate.h"
#include "param.h"
#include "profile.h"
#include "run.h"
#include "validate.h"
#include "validate-fixture.h"

/* ---- helpers ---- */

/* Loads the live fixture (see fixture_datadir); *tmp is the scratch folder to remove. */
static NsValidation *
load_fixture (char **tmp)
{
  g_autofree char *fx = NULL;

  *tmp = fixture_datadir (&fx);
  return load_ok (fx);
}

/* ---- queries on a loaded validation ---- */

/* The files a validation was loaded from (the seed files, cases.xml, calibration.xml once
 * it exists), the rows a run can replay, and the cases whose scenario file is missing;
 * the free functions take NULL. */
START_TEST (test_queries)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *seed = g_build_filename (fx, "seed-900.xml", NULL);
  g_autofree char *cases = g_build_filename (fx, "cases.xml", NULL);
  g_autofree char *record = g_build_filename (fx, "calibration.xml", NULL);
  NsValidation *v = load_ok (fx);
  const char *const *files = ns_validation_files (v);
  GError *error = NULL;

  ck_assert_str_eq (ns_validation_dir (v), fx);
  ck_assert_str_eq (files[0], seed);
  ck_assert_str_eq (files[1], cases);
  ck_assert_ptr_null (files[2]);
  /* safe-ret, unret, broken, no-variant, no-scenario and calib name a scenario */
  ck_assert_uint_eq (ns_validation_count_modelled (v, ns_validation_rows (v)), 6);
  ck_assert (ns_validation_case_scenario_exists (ns_validation_case (v, "900-safe-ret"), NULL));
  ck_assert (ns_validation_case_scenario_exists (ns_validation_case (v, "900-reason"), NULL));
  ck_assert (!ns_validation_case_scenario_exists (ns_validation_case (v, "900-no-scenario"),
                                                  &error));
  ck_assert_msg (g_str_has_suffix (error->message, "cases.xml:14: scenario scenarios/micro/"
                                   "no-such-scenario.xml does not exist (a row not modelled "
                                   "yet takes reason=)"), "%s", error->message);
  g_clear_error (&error);
  ck_assert (!ns_validation_check_scenario_files (v, &error));
  ck_assert_int_eq (error->code, NS_ERROR_INPUT);
  ck_assert_msg (strstr (error->message, "cases.xml:14: scenario scenarios/micro/"
                         "no-such-scenario.xml does not exist"), "%s", error->message);
  g_clear_error (&error);
  ns_validation_free (v);

  edit_file (cases, "scenarios/micro/no-such-scenario.xml", "scenarios/micro/call-chain.xml");
  ck_assert (g_file_set_contents (record, "<calibration/>\n", -1, NULL));
  v = load_ok (fx);
  files = ns_validation_files (v);
  ck_assert_str_eq (files[1], cases);
  ck_assert_str_eq (files[2], record);
  ck_assert_ptr_null (files[3]);
  ck_assert (ns_validation_check_scenario_files (v, NULL));
  ns_validation_free (v);
  ns_validation_free (NULL);
  ns_val_run_free (NULL);
  ns_val_job_free (NULL);
  remove_tree (tmp);
}
END_TEST

/* ---- the shipped recorded results ---- */

START_TEST (test_recorded_complete)
{
  g_autofree char *dir = g_build_filename (ns_data_dir (), "validation", NULL);
  NsValidation *v = load_ok (dir);
  GPtrArray *rows = ns_validation_rows (v);
  const char *const seeds[] = { "000", "001", "002", "003", "004" };
  const guint per_seed[] = { 9, 1, 16, 3, 4 };

  ck_assert_uint_ge (rows->len, 33);
  for (guint s = 0; s < G_N_ELEMENTS (seeds); s++) {
    guint n = 0;
    for (guint i = 0; i < rows->len; i++)
      n += !strcmp (((NsRecordedRow *) rows->pdata[i])->seed, seeds[s]);
    ck_assert_msg (n == per_seed[s], "seed %s: %u rows, want %u", seeds[s], n, per_seed[s]);
  }
  for (guint i = 0; i < rows->len; i++) {
    const NsRecordedRow *row = rows->pdata[i];
    ck_assert_msg (row->source && row->file && row->unit && row->statistic, "%s", row->id);
    ck_assert_msg (g_str_has_prefix (row->file, row->seed), "%s: file %s", row->id, row->file);
    ck_assert_msg (row->setup.tool && row->setup.command && row->setup.cpu &&
                   row->setup.kernel && row->setup.mitigations, "%s: set-up", row->id);
    ck_assert_msg (row->baseline > 0 && row->baseline_text[0], "%s", row->id);
    ck_assert_msg (ns_validation_case (v, row->id) != NULL, "%s has no case", row->id);
  }
  for (guint i = 0; i < ns_validation_fits (v)->len; i++) {
    const NsValFit *f = ns_validation_fits (v)->pdata[i];
    for (guint k = 0; f->rows[k]; k++)
      ck_assert_msg (ns_validation_find_row (v, f->rows[k]), "fit names %s", f->rows[k]);
  }
  {
    GPtrArray *conflicts = g_ptr_array_new_with_free_func (g_free);
    GPtrArray *provenance = g_ptr_array_new_with_free_func (ns_val_provenance_free);
    ck_assert (ns_validation_check_fits (v, conflicts, provenance, NULL));
    ck_assert_msg (conflicts->len == 0, "%s", conflicts->len ? (char *) conflicts->pdata[0] : "");
    ck_assert_uint_ge (provenance->len, 6);
    g_ptr_array_unref (conflicts);
    g_ptr_array_unref (provenance);
  }
  ns_validation_free (v);
}
END_TEST

/* Figures are kept exactly as printed, with the interval their CVs and runs give, and
 * the extra facts are there. */
START_TEST (test_recorded_facts)
{
  g_autofree char *dir = g_build_filename (ns_data_dir (), "validation", NULL);
  NsValidation *v = load_ok (dir);
  const NsRecordedRow *row = ns_validation_find_row (v, "000-ipv4-1G");
  const NsRecordedRow *off = ns_validation_find_row (v, "000-ipv4-mitoff-1G");
  const NsRecordedRow *tc = ns_validation_find_row (v, "002-r9-7950x-f100");
  gboolean latency = FALSE, pair = FALSE;

  ck_assert_ptr_nonnull (row);
  ck_assert_str_eq (row->baseline_text, "1730488.20");
  ck_assert_str_eq (row->baseline_cv, "0.0050");
  ck_assert_str_eq (row->patched_cv, "0.0020");
  ck_assert_str_eq (row->unit, "KBytes/s");
  ck_assert_double_eq_tol (row->delta_pct, 14.47, 0.01);
  ck_assert_uint_eq (row->runs, 3);                /* the interval: see test_delta_ci95 */
  ck_assert_double_eq_tol (row->delta_ci95_pp, 1.2302, 1e-3);
  ck_assert_uint_eq (tc->runs, 0);
  ck_assert (tc->delta_ci95_pp < 0);
  ck_assert_str_eq (off->setup.mitigations, "mitigations=off on the kernel command line");
  ck_assert_str_eq (tc->printed_delta, "+119.59%");
  ck_assert_str_eq (tc->setup.profile, "ryzen9-7950x");
  for (guint i = 0; i < ns_validation_facts (v)->len; i++) {
    const NsValFact *f = ns_validation_facts (v)->pdata[i];
    if (!strcmp (f->name, "latency_mean"))
      latency = !strcmp (f->baseline, "0.642949344") && !strcmp (f->patched, "0.475903462");
  }
  for (guint i = 0; i < ns_validation_pairs (v)->len; i++) {
    const NsValPair *p = ns_validation_pairs (v)->pdata[i];
    pair = pair || (!strcmp (p->row[0], "000-ipv4-1G") && !strcmp (p->row[1], "000-ipv4-mitoff-1G"));
  }
  ck_assert_msg (latency, "seed 001 latency_mean fact");
  ck_assert_msg (pair, "seed 000 mitigations on/off pair");
  ns_validation_free (v);
}
END_TEST

/* Every shipped row appears in a run, modelled or not: none is dropped. */
START_TEST (test_recorded_none_dropped)
{
  g_autofree char *dir = g_build_filename (ns_data_dir (), "validation", NULL);
  NsValidation *v = load_ok (dir);
  NsValReport *r = run_rows (v, (const char *const[]) { "001", "003", "004", NULL }, 1);

  ck_assert_uint_eq (r->outcomes->len, 8);
  for (guint i = 0; i < r->outcomes->len; i++) {
    const NsValOutcome *o = r->outcomes->pdata[i];
    ck_assert_int_eq (o->status, NS_VAL_NOT_MODELLED);
    ck_assert_ptr_nonnull (o->reason);
  }
  ck_assert_uint_eq (r->not_modelled, 8);
  ck_assert_int_eq (ns_validation_exit_status (r), 0);
  ns_val_report_free (r);
  ns_validation_free (v);
}
END_TEST

/* ---- judging ---- */

START_TEST (test_tolerance_rule)
{
  NsRecordedRow row = { 0 };
  g_autofree char *tmp = NULL;
  NsValidation *v = load_fixture (&tmp);

  row.stated_tolerance_pp = -1;
  row.delta_pct = 10;
  ck_assert_double_eq (ns_validation_tolerance (&row), 3.0);
  row.delta_pct = 50;
  ck_assert_double_eq_tol (ns_validation_tolerance (&row), 5.0, 1e-12);
  row.delta_pct = -130;
  ck_assert_double_eq_tol (ns_validation_tolerance (&row), 13.0, 1e-12);
  row.stated_tolerance_pp = 2;
  ck_assert_double_eq (ns_validation_tolerance (&row), 2.0);
  ck_assert_double_eq (ns_validation_tolerance (ns_validation_find_row (v, "900-tight")), 1.5);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* Loads the fixture with its one tolerance-pp="1.5" replaced by tolerance (three
 * characters, as the file is edited in place); asserts it is refused with file:line and a
 * message holding needle. */
static void
assert_tolerance_refused (const char *tolerance, const char *needle)
{
  g_autofree char *tmp = scratch_datadir ();
  g_autofree char *fx = g_build_filename (tmp, "fx", NULL);
  g_autofree char *seed = g_build_filename (fx, "seed-900.xml", NULL);
  g_autofree char *text = NULL;
  GError *error = NULL;
  char *edited;

  g_assert (strlen (tolerance) == 3);
  ck_assert (g_file_get_contents (seed, &text, NULL, NULL));
  edited = (char *) strstr (text, "tolerance-pp=\"1.5\"");
  ck_assert_ptr_nonnull (edited);
  memcpy (edited + strlen ("tolerance-pp=\""), tolerance, 3);
  ck_assert (g_file_set_contents (seed, text, -1, NULL));
  ck_assert_ptr_null (ns_validation_load (fx, &error));
  ck_assert_msg (strstr (error->message, "seed-900.xml:") && strstr (error->message, needle),
                 "%s", error->message);
  g_error_free (error);
  remove_tree (tmp);
}

/* A stated tolerance looser than the rule is refused with file:line. */
START_TEST (test_tolerance_looser_refused)
{
  assert_tolerance_refused ("9.5", "looser");
}
END_TEST

/* A stated tolerance that is not positive is refused with file:line (-1 read as the
 * "none stated" mark and gave the default rule). */
START_TEST (test_tolerance_negative_refused)
{
  assert_tolerance_refused ("-15", "not a positive");
}
END_TEST

/* The recorded delta's 95 % interval: values checked by hand (t quantiles from tables and
 * by numerical integration of Student's density). */
START_TEST (test_delta_ci95)
{
  /* seed 000 ipv4 1G: CVs 0.0050 and 0.0020 over 3 runs; Welch df 2.624, t 3.4566 */
  ck_assert_double_eq_tol (ns_validation_delta_ci95 (1980936.14 / 1730488.20, 0.005, 0.002, 3),
                           1.2302, 1e-3);
  /* equal CVs: df = 2 (n - 1) = 4, t = 2.776445; 100 × 2.776445 × sqrt (2 × 0.01 / 3) */
  ck_assert_double_eq_tol (ns_validation_delta_ci95 (1.0, 0.1, 0.1, 3), 22.6696, 1e-3);
  /* one CV dominant: df → n - 1 = 9, t = 2.262157; scales with the ratio */
  ck_assert_double_eq_tol (ns_validation_delta_ci95 (2.0, 0.0, 0.1, 10),
                           200 * 2.262157 * 0.1 / sqrt (10), 1e-3);
  /* two runs, the fewest with a spread: df = 2 (n - 1) = 2, t = 4.302653 */
  ck_assert_double_eq_tol (ns_validation_delta_ci95 (1.0, 0.1, 0.1, 2), 43.02653, 1e-3);
  ck_assert_double_eq (ns_validation_delta_ci95 (1.2, 0.0, 0.0, 3), 0.0);
  ck_assert (ns_validation_delta_ci95 (1.2, 0.1, 0.1, 1) < 0);
  ck_assert (ns_validation_delta_ci95 (1.2, 0.1, 0.1, 0) < 0);
}
END_TEST

/* Points NETSIM_DATADIR back at datadir (NULL: unset, the source tree), as it was before
 * an earlier scratch_datadir pointed it at its own copy. */
static void
restore_datadir (const char *datadir)
{
  if (datadir != NULL)
    g_setenv ("NETSIM_DATADIR", datadir, TRUE);
  else
    g_unsetenv ("NETSIM_DATADIR");
}

/* scratch_datadir made from datadir (NULL: the source tree); see restore_datadir. */
static char *
scratch_from (const char *datadir)
{
  restore_datadir (datadir);
  return scratch_datadir ();
}

/* Loads a scratch copy of the fixture with from replaced by to (once) in seed-900.xml;
 * restores NETSIM_DATADIR to datadir first, since scratch_datadir points it at its copy. */
static NsValidation *
load_edited_fixture (const char *datadir, const char *from, const char *to, GError **error)
{
  g_autofree char *tmp = NULL, *fx = NULL, *seed = NULL;
  NsValidation *v;

  tmp = scratch_from (datadir);
  fx = g_build_filename (tmp, "fx", NULL);
  seed = g_build_filename (fx, "seed-900.xml", NULL);
  edit_file (seed, from, to);
  v = ns_validation_load (fx, error);
  remove_tree (tmp);
  return v;
}

/* A scratch copy of the fixture (from datadir, see scratch_from) with each edits[i][0]
 * replaced by edits[i][1] (once) in the fixture file edits[i][2]; *fx is the fixture
 * folder. Returns the scratch folder to remove. */
static char *
edited_fixture (const char *datadir, const char *const (*edits)[3], guint n, char **fx)
{
  char *tmp = scratch_from (datadir);

  *fx = g_build_filename (tmp, "fx", NULL);
  for (guint i = 0; i < n; i++) {
    g_autofree char *path = g_build_filename (*fx, edits[i][2], NULL);
    edit_file (path, edits[i][0], edits[i][1]);
  }
  return tmp;
}

/* Loading the fixture with edits (see edited_fixture) fails with an input error at
 * file:line (at is "seed-900.xml:LINE:"), whose message holds needle. */
static void
assert_load_refused (const char *datadir, const char *const (*edits)[3], guint n,
                     const char *at, const char *needle)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = edited_fixture (datadir, edits, n, &fx);
  GError *error = NULL;

  ck_assert_ptr_null (ns_validation_load (fx, &error));
  ck_assert_int_eq (error->code, NS_ERROR_INPUT);
  ck_assert_msg (strstr (error->message, at) && strstr (error->message, needle),
                 "wanted '%s' … '%s': %s", at, needle, error->message);
  g_error_free (error);
  remove_tree (tmp);
}

#define SEED_FILE "seed-900.xml"

/* A row whose case names a scenario must state its CPU profile (without one the case's
 * CPU went unchecked: any CPU's simulation was judged against it); refused at the row. */
START_TEST (test_modelled_row_needs_profile)
{
  g_autofree char *datadir = g_strdup (g_getenv ("NETSIM_DATADIR"));
  const char *const edits[][3] = {
    { " profile=\"generic\"", "", SEED_FILE },
  };

  assert_load_refused (datadir, edits, 1, "seed-900.xml:17: row 900-safe-ret", "'profile'");
}
END_TEST

/* A profile no netsim profile file has is refused at the first row naming it. */
START_TEST (test_unknown_profile_at_row)
{
  g_autofree char *datadir = g_strdup (g_getenv ("NETSIM_DATADIR"));
  const char *const edits[][3] = {
    { "<row id=\"900-tight\" variant=\"stated tolerance\" tolerance-pp=\"1.5\">",
      "<row id=\"900-tight\" variant=\"stated tolerance\" tolerance-pp=\"1.5\">"
      "<setup profile=\"nosuch-cpu\"/>", SEED_FILE },
  };
  g_autofree char *fx = NULL;
  g_autofree char *tmp = edited_fixture (datadir, edits, 1, &fx);
  NsValidation *v = load_ok (fx);
  GPtrArray *conflicts = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *provenance = g_ptr_array_new_with_free_func (ns_val_provenance_free);
  GError *error = NULL;

  ck_assert (!ns_validation_check_fits (v, conflicts, provenance, &error));
  ck_assert_msg (strstr (error->message, "seed-900.xml:57: row 900-tight: profile "
                         "'nosuch-cpu': unknown CPU profile"), "%s", error->message);
  g_error_free (error);
  g_ptr_array_unref (conflicts);
  g_ptr_array_unref (provenance);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* Recorded figures that are not finite numbers, or a row id of another seed, are refused
 * at their file:line. */
START_TEST (test_recorded_figures_refused)
{
  static const struct { const char *from, *to, *at, *needle; } bad[] = {
    { "<baseline value=\"100\"/>", NULL, "seed-900.xml:58:", "finite decimal" },
    { "variant=\"stated tolerance\"", "variant=\"stated tolerance\" printed-delta=\"abc\"",
      "seed-900.xml:57:", "printed-delta=\"abc\"" },
    { "baseline=\"1.0\" patched=\"2.0\"", "baseline=\"0.64x\" patched=\"2.0\"",
      "seed-900.xml:62:", "fact extra: baseline=\"0.64x\" is not a number" },
    { "<row id=\"900-tight\"", "<row id=\"901-tight\"", "seed-900.xml:57:",
      "row id '901-tight' does not begin with its file's seed" },
  };
  g_autofree char *datadir = g_strdup (g_getenv ("NETSIM_DATADIR"));
  g_autofree char *huge = g_strdup_printf ("<baseline value=\"1%0400d\"/>", 0);

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
    const char *const edits[][3] = { { bad[i].from, bad[i].to ? bad[i].to : huge, SEED_FILE } };
    assert_load_refused (datadir, edits, 1, bad[i].at, bad[i].needle);
  }
}
END_TEST

/* A pair naming an unknown row, a second pair with one id, and a pair of rows in two
 * units are refused at the pair's file:line. */
START_TEST (test_pairs_refused)
{
  g_autofree char *datadir = g_strdup (g_getenv ("NETSIM_DATADIR"));
  const char *const unknown[][3] = {
    { "<ref row=\"900-unret\"", "<ref row=\"900-nope\"", SEED_FILE },
  };
  const char *const twice[][3] = {
    { "  <note source=\"fixture\">", "  <pair id=\"900-pair\" label=\"again\" source=\"x\">"
      "<ref row=\"900-unret\" side=\"baseline\"/><ref row=\"900-safe-ret\" side=\"baseline\"/>"
      "</pair>\n  <note source=\"fixture\">", SEED_FILE },
  };
  const char *const units[][3] = {
    { "<table name=\"tolerance\" unit=\"cycles/call\"", "<table name=\"tolerance\" "
      "unit=\"packets/s\"", SEED_FILE },
    { "<ref row=\"900-unret\"", "<ref row=\"900-tight\"", SEED_FILE },
  };

  assert_load_refused (datadir, unknown, 1, "seed-900.xml:63:", "names row '900-nope'");
  assert_load_refused (datadir, twice, 1, "seed-900.xml:67:",
                       "pair id '900-pair' is used twice (first at");
  assert_load_refused (datadir, units, 2, "seed-900.xml:63:",
                       "900-tight (packets/s) with row 900-safe-ret (cycles/call)");
}
END_TEST

/* A negative CV or a runs count that is not a positive integer is refused at file:line. */
START_TEST (test_recorded_noise_refused)
{
  const char *const edits[][2] = {
    { "<patched value=\"14.00\" cv=\"0.5\"/>", "<patched value=\"14.00\" cv=\"-0.5\"/>" },
    { "name=\"runs-per-figure\" value=\"3\"", "name=\"runs-per-figure\" value=\"0\"" },
    { "name=\"runs-per-figure\" value=\"3\"", "name=\"runs-per-figure\" value=\"three\"" },
  };
  g_autofree char *datadir = g_strdup (g_getenv ("NETSIM_DATADIR"));

  for (guint i = 0; i < G_N_ELEMENTS (edits); i++) {
    GError *error = NULL;
    ck_assert_ptr_null (load_edited_fixture (datadir, edits[i][0], edits[i][1], &error));
    ck_assert_msg (strstr (error->message, "seed-900.xml:")
                   && (strstr (error->message, "cv") || strstr (error->message, "runs")),
                   "%s", error->message);
    g_error_free (error);
  }
}
END_TEST

/* The edges of a row's checks, each one edit of the fixture: refused at file:line with
 * its message (a zero baseline, a negative patched figure, a zero tolerance, a printed
 * delta of '%' alone, a CV too large for a double, a set-up that leaves out what every
 * row states, a row id used twice, a file that is not XML). */
START_TEST (test_recorded_edges_refused)
{
  static const struct { const char *from, *to, *at, *needle; } bad[] = {
    { "<baseline value=\"100\"/>", "<baseline value=\"0\"/>", "seed-900.xml:57:",
      "row 900-tight: the baseline must be > 0 and the patched figure ≥ 0 (got 0 and 150)" },
    { "<patched value=\"150\"/>", "<patched value=\"-1\"/>", "seed-900.xml:57:",
      "(got 100 and -1)" },
    { "tolerance-pp=\"1.5\"", "tolerance-pp=\"0\"", "seed-900.xml:57:",
      "tolerance-pp=\"0\" is not a positive number" },
    { "variant=\"stated tolerance\"", "variant=\"stated tolerance\" printed-delta=\"%\"",
      "seed-900.xml:57:", "printed-delta=\"%\" is not a delta as printed" },
    { " tool=\"netsim micro call-chain\"", "", "seed-900.xml:17:",
      "row 900-safe-ret: no <setup> of its file, table or row states 'tool'" },
    { " mitigations=\"per variant\"", "", "seed-900.xml:17:", "states 'mitigations'" },
    { "<row id=\"900-tight\"", "<row id=\"900-calib\"", "seed-900.xml:57:",
      "row id '900-calib' is used twice (first at " },
    { "</recorded>", "", "seed-900.xml:", "" },
  };
  g_autofree char *datadir = g_strdup (g_getenv ("NETSIM_DATADIR"));
  g_autofree char *huge = g_strdup_printf ("<patched value=\"14.00\" cv=\"1%0400d\"/>", 0);
  const char *const big_cv[][3] = {
    { "<patched value=\"14.00\" cv=\"0.5\"/>", huge, SEED_FILE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
    const char *const edits[][3] = { { bad[i].from, bad[i].to, SEED_FILE } };
    assert_load_refused (datadir, edits, 1, bad[i].at, bad[i].needle);
  }
  assert_load_refused (datadir, big_cv, 1, "seed-900.xml:25:", "<patched cv=\"1000");
}
END_TEST

/* Loads the fixture with one edit (see load_edited_fixture), asserting it loads. */
static NsValidation *
load_edited_ok (const char *datadir, const char *from, const char *to)
{
  GError *error = NULL;
  NsValidation *v = load_edited_fixture (datadir, from, to, &error);

  ck_assert_msg (v != NULL, "%s -> %s: %s", from, to, error ? error->message : "");
  return v;
}

/* The value of the item of kind and name in s, or NULL; asserts there is one at most. */
static const char *
setup_value (const NsSetup *s, const char *kind, const char *name)
{
  const char *value = NULL;

  for (guint i = 0; i < s->items->len; i++) {
    const NsSetupItem *item = s->items->pdata[i];
    if (!strcmp (item->kind, kind) && !strcmp (item->name, name)) {
      ck_assert_ptr_null (value);
      value = item->value;
    }
  }
  return value;
}

/* The edges a row may reach and still load: a patched figure of 0, a stated tolerance
 * equal to the rule, CVs of 0 (an interval of 0), printed deltas with and without '%'
 * (one digit too);
 * a row's set-up item replaces the item of its kind and name only. */
START_TEST (test_recorded_edges_accepted)
{
  g_autofree char *datadir = g_strdup (g_getenv ("NETSIM_DATADIR"));
  const NsRecordedRow *row;
  NsValidation *v;

  v = load_edited_ok (datadir, "<patched value=\"150\"/>", "<patched value=\"0\"/>");
  ck_assert_double_eq (ns_validation_find_row (v, "900-tight")->delta_pct, -100.0);
  ns_validation_free (v);
  /* 900-tight's delta is +50 %: the rule gives max(3, 5) = 5 pp, which may be stated */
  v = load_edited_ok (datadir, "tolerance-pp=\"1.5\"", "tolerance-pp=\"5\"");
  ck_assert_double_eq (ns_validation_tolerance (ns_validation_find_row (v, "900-tight")), 5.0);
  ns_validation_free (v);
  v = load_edited_ok (datadir, "<baseline value=\"12.66\" cv=\"0.5\"/>\n      "
                      "<patched value=\"14.00\" cv=\"0.5\"/>", "<baseline value=\"12.66\" "
                      "cv=\"0\"/><patched value=\"14.00\" cv=\"0\"/>");
  ck_assert_double_eq (ns_validation_find_row (v, "900-unret")->delta_ci95_pp, 0.0);
  ns_validation_free (v);
  for (guint i = 0; i < 3; i++) {
    const char *printed = i == 0 ? "+7.8%" : i == 1 ? "-20" : "5";
    g_autofree char *to = g_strdup_printf ("variant=\"stated tolerance\" printed-delta=\"%s\"",
                                           printed);
    v = load_edited_ok (datadir, "variant=\"stated tolerance\"", to);
    ck_assert_str_eq (ns_validation_find_row (v, "900-tight")->printed_delta, printed);
    ns_validation_free (v);
  }
  v = load_edited_ok (datadir, "<row id=\"900-unret\" variant=\"unret vs plain ret\">",
                      "<row id=\"900-unret\" variant=\"unret vs plain ret\"><setup>"
                      "<count name=\"runs-per-figure\" value=\"5\"/>"
                      "<size name=\"depth\" value=\"8\" unit=\"B\"/></setup>");
  row = ns_validation_find_row (v, "900-unret");
  ck_assert_uint_eq (row->runs, 5);
  ck_assert_uint_eq (row->setup.items->len, 3);
  ck_assert_str_eq (setup_value (&row->setup, "count", "depth"), "8");
  ck_assert_str_eq (setup_value (&row->setup, "count", "runs-per-figure"), "5");
  ck_assert_str_eq (setup_value (&row->setup, "size", "depth"), "8");
  ck_assert_uint_eq (ns_validation_find_row (v, "900-safe-ret")->runs, 3);
  ns_validation_free (v);
}
END_TEST

START_TEST (test_status_logic)
{
  ck_assert_int_eq (ns_validation_judge (2.99, 3.0, TRUE), NS_VAL_PASS);
  ck_assert_int_eq (ns_validation_judge (-3.0, 3.0, TRUE), NS_VAL_PASS);
  ck_assert_int_eq (ns_validation_judge (-3.01, 3.0, TRUE), NS_VAL_FAIL);
  ck_assert_int_eq (ns_validation_judge (12.0, 11.96, TRUE), NS_VAL_FAIL);
  /* the issues accept a row within tolerance *with the right sign*: seed 002's i5-10210U
   * clone-1000 row at 100 filters, recorded +0.96 % (no change), simulated -1.18 % (a
   * fall), is 2.14 pp off and fails */
  ck_assert (!ns_validation_signs_agree (0.9584, -1.1848));
  ck_assert_int_eq (ns_validation_judge (-1.1848 - 0.9584, 3.0,
                                         ns_validation_signs_agree (0.9584, -1.1848)),
                    NS_VAL_FAIL);
  ck_assert (ns_validation_signs_agree (14.5, 2.0));
  ck_assert (ns_validation_signs_agree (0.39, -0.5));      /* both "no change" */
  ck_assert (!ns_validation_signs_agree (-3.96, 0.2));
  ck_assert (!ns_validation_signs_agree (7.8, -1.5));
  ck_assert (!ns_validation_signs_agree (0.0, 4.0));
  ck_assert (!ns_validation_signs_agree (2.0, 0.0));         /* 0 is no rise */
  /* a recorded rise or fall agrees with a simulated delta of its sign, in the band or not:
   * the 10210U's 100-filter row under CONFIG_SLAB_FREELIST_RANDOM=y, recorded -1.93 %,
   * simulated -0.98 %, failed on its sign until 2026-12-04 */
  ck_assert (ns_validation_signs_agree (-1.93, -0.98));
  ck_assert (ns_validation_signs_agree (-1.93, -5.0));
  ck_assert (!ns_validation_signs_agree (-1.93, 0.0));
  ck_assert (!ns_validation_signs_agree (2.0, -0.1));
  /* a recorded "no change" agrees with a simulated one only, whichever way each went
   * (+0.04 and -0.04 recorded against -1.35 simulated get one verdict) */
  ck_assert (ns_validation_signs_agree (0.96, -0.98));
  ck_assert (ns_validation_signs_agree (0.5, 0.0));
  ck_assert (!ns_validation_signs_agree (0.96, 2.5));
  ck_assert (!ns_validation_signs_agree (0.96, -1.35));
  ck_assert (!ns_validation_signs_agree (0.04, -1.35));
  ck_assert (!ns_validation_signs_agree (-0.04, -1.35));
  ck_assert (!ns_validation_signs_agree (-1.0, 0.5));
  ck_assert (!ns_validation_signs_agree (0.0, NAN));
  ck_assert (!ns_validation_signs_agree (-2.0, NAN));
  ck_assert_str_eq (ns_val_status_name (NS_VAL_NOT_MODELLED), "not-modelled");
  ck_assert_str_eq (ns_val_status_name (NS_VAL_ERROR), "error");
}
END_TEST

/* Sign agreement is monotone: a simulated delta that agrees with a recorded rise or fall
 * still agrees farther the same way, and a recorded "no change" gives the same verdict
 * whichever its sign; no recorded delta agrees with a simulated one of the opposite strict
 * sign unless both are "no change". */
START_TEST (test_signs_monotone)
{
  for (double r = -4.0; r <= 4.0; r += 0.0625)
    for (double s = -4.0; s <= 4.0; s += 0.0625) {
      gboolean agree = ns_validation_signs_agree (r, s);
      if (fabs (r) < NS_VAL_SIGN_DEADBAND_PP)
        ck_assert_msg (agree == ns_validation_signs_agree (-r, s),
                       "recorded %g and %g (no change) judge simulated %g apart", r, -r, s);
      if (r * s < 0 && (fabs (r) >= NS_VAL_SIGN_DEADBAND_PP ||
                        fabs (s) >= NS_VAL_SIGN_DEADBAND_PP))
        ck_assert_msg (!agree, "recorded %g agrees with simulated %g", r, s);
      if (!agree || fabs (r) < NS_VAL_SIGN_DEADBAND_PP || s == 0)
        continue;
      for (double d = 0.0625; d <= 3.0; d += 0.0625)
        ck_assert_msg (ns_validation_signs_agree (r, s > 0 ? s + d : s - d),
                       "recorded %g agrees with simulated %g, not with %g", r, s,
                       s > 0 ? s + d : s - d);
    }
}
END_TEST

/* One operation's step: 100 × patched / baseline over the smaller run's count. */
START_TEST (test_one_op_step)
{
  NsValRun b = { 0 }, p = { 0 };
  NsValOutcome o = { 0 };

  o.baseline_run = &b;
  o.patched_run = &p;
  b.value = 123500, b.ops = 247;
  p.value = 216000, p.ops = 432;
  ck_assert_double_eq_tol (ns_validation_one_op_step_pp (&o), 100.0 * 216000 / 123500 / 247,
                           1e-12);
  b.ops = 5000;             /* the patched run has fewer now */
  ck_assert_double_eq_tol (ns_validation_one_op_step_pp (&o), 100.0 * 216000 / 123500 / 432,
                           1e-12);
  p.ops = 0;
  ck_assert (ns_validation_one_op_step_pp (&o) == 0.0);
}
END_TEST

/* The verdict margin is the signed distance to the edge of the passing deltas, the
 * tolerance or the sign dead band, whichever is nearer; it agrees with the verdict. */
START_TEST (test_verdict_margin)
{
  static const double rec[] = { 14.59, 0.96, -1.93, -3.96, 0.0, 7.87, -0.5, 1.0, 0.3 };
  static const double tol[] = { 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 0.5 };

  /* tolerance edges */
  ck_assert_double_eq_tol (ns_validation_verdict_margin (14.59, 11.64, 3.0), 0.05, 1e-9);
  ck_assert_double_eq_tol (ns_validation_verdict_margin (14.59, 17.0, 3.0), 0.59, 1e-9);
  ck_assert_double_eq_tol (ns_validation_verdict_margin (24.22, 12.27, 3.0), -8.95, 1e-9);
  /* the sign: a recorded +0.96 ("no change") passes only a simulated delta inside the
   * band (-1 to 1); a recorded fall beyond the band only a simulated fall */
  ck_assert_double_eq_tol (ns_validation_verdict_margin (0.96, -1.34, 3.0), -0.34, 1e-9);
  ck_assert_double_eq_tol (ns_validation_verdict_margin (0.96, 0.5, 3.0), 0.5, 1e-9);
  ck_assert_double_eq_tol (ns_validation_verdict_margin (0.96, 3.5, 3.0), -2.5, 1e-9);
  ck_assert_double_eq_tol (ns_validation_verdict_margin (-1.93, -1.34, 3.0), 1.34, 1e-9);
  ck_assert_double_eq_tol (ns_validation_verdict_margin (-1.93, -0.98, 3.0), 0.98, 1e-9);
  ck_assert_double_eq_tol (ns_validation_verdict_margin (-3.96, 0.10, 3.0), -1.06, 1e-9);
  ck_assert_double_eq_tol (ns_validation_verdict_margin (-1.93, 0.10, 3.0), -0.10, 1e-9);
  ck_assert_double_eq_tol (ns_validation_verdict_margin (0.0, 0.5, 3.0), 0.5, 1e-9);
  ck_assert_double_eq_tol (ns_validation_verdict_margin (1.5, 0.0, 0.2), -1.3, 1e-9);
  ck_assert (ns_validation_verdict_margin (1.5, 1.2, 0.1) < 0);
  ck_assert_double_eq_tol (ns_validation_verdict_margin (5.0, 2.0, 1.0), -2.0, 1e-9);
  /* its sign is the verdict's, over a sweep of simulated deltas */
  for (guint r = 0; r < G_N_ELEMENTS (rec); r++)
    for (double sim = -8.0; sim <= 20.0; sim += 0.0625) {
      gboolean pass = ns_validation_judge (sim - rec[r], tol[r],
                                           ns_validation_signs_agree (rec[r], sim)) ==
                      NS_VAL_PASS;
      double m = ns_validation_verdict_margin (rec[r], sim, tol[r]);
      ck_assert_msg (pass == (m >= 0) || fabs (m) < 1e-9, "recorded %g, simulated %g: "
                     "margin %g, verdict %s", rec[r], sim, m, pass ? "pass" : "fail");
    }
}
END_TEST

START_TEST (test_select_patterns)
{
  g_autofree char *tmp = NULL;
  NsValidation *v = load_fixture (&tmp);
  GError *error = NULL;
  GPtrArray *rows;

  rows = ns_validation_select (v, (const char *const[]) { "900-un*", NULL }, NULL);
  ck_assert_uint_eq (rows->len, 1);
  g_ptr_array_unref (rows);
  rows = ns_validation_select (v, (const char *const[]) { "900", NULL }, NULL);
  ck_assert_uint_eq (rows->len, ns_validation_rows (v)->len);
  g_ptr_array_unref (rows);
  rows = ns_validation_select (v, (const char *const[]) { "900-calib", "900-unret", NULL }, NULL);
  ck_assert_uint_eq (rows->len, 2);
  g_ptr_array_unref (rows);
  /* a glob as the shell takes it: [..] classes too (900-safe-ret and 900-unret) */
  rows = ns_validation_select (v, (const char *const[]) { "900-[su][an]*", NULL }, NULL);
  ck_assert_uint_eq (rows->len, 2);
  g_ptr_array_unref (rows);
  ck_assert_ptr_null (ns_validation_select (v, (const char *const[]) { "90", NULL }, &error));
  ck_assert_int_eq (error->code, NS_ERROR_INPUT);
  g_error_free (error);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* ---- running the fixture ---- */

/* Every status arises where it should, and the summary counts them. */
START_TEST (test_fixture_statuses)
{
  g_autofree char *tmp = NULL;
  NsValidation *v = load_fixture (&tmp);
  NsValReport *r = run_rows (v, NULL, 1);
  GString *text = g_string_new (NULL);

  ck_assert_int_eq (outcome (r, "900-safe-ret")->status, NS_VAL_PASS);
  ck_assert_int_eq (outcome (r, "900-unret")->status, NS_VAL_FAIL);
  ck_assert_int_eq (outcome (r, "900-broken")->status, NS_VAL_ERROR);
  /* a case that names a scenario claims the row is modelled: a missing variant or file is
   * a mistake in cases.xml, an error at its line, not "not modelled" */
  ck_assert_int_eq (outcome (r, "900-no-variant")->status, NS_VAL_ERROR);
  ck_assert_ptr_nonnull (strstr (outcome (r, "900-no-variant")->reason, "no-such-variant"));
  ck_assert_ptr_nonnull (strstr (outcome (r, "900-no-variant")->reason, "cases.xml:"));
  ck_assert_int_eq (outcome (r, "900-no-scenario")->status, NS_VAL_ERROR);
  ck_assert_ptr_nonnull (strstr (outcome (r, "900-no-scenario")->reason, "cases.xml:"));
  ck_assert_str_eq (outcome (r, "900-reason")->reason, "left out on purpose");
  ck_assert_int_eq (outcome (r, "900-no-case")->status, NS_VAL_NOT_MODELLED);
  ck_assert_uint_eq (r->not_modelled, 3);
  ck_assert_uint_eq (r->validation.rows, 6);
  ck_assert_uint_eq (r->validation.within, 1);
  ck_assert_uint_eq (r->validation.errors, 3);
  ck_assert_uint_eq (r->calibration.rows, 0);
  ck_assert (r->validation.max_abs_pp >= 50 - 1e-6);
  /* 900-unret misses by 50 pp, inside its recorded interval; 900-safe-ret has none */
  ck_assert (outcome (r, "900-safe-ret")->row->delta_ci95_pp < 0);
  ck_assert (outcome (r, "900-unret")->row->delta_ci95_pp > 150);
  ck_assert (outcome (r, "900-unret")->within_noise);
  ck_assert (!outcome (r, "900-safe-ret")->within_noise);
  ck_assert_uint_eq (r->validation.noisy_misses, 1);
  ck_assert_uint_eq (r->validation.misses_within_noise, 1);
  /* the generic profile leaves some registry defaults in place, and those say unsourced */
  ck_assert (g_ptr_array_find_with_equal_func (r->unsourced, "cpu.mlp = 2.0: generic",
                                               g_str_equal, NULL));
  ck_assert_int_eq (ns_validation_exit_status (r), 1);
  /* the rows not modelled grouped by reason, the errors one a line, both in row order */
  ns_validation_write (text, r, NS_FORMAT_TABLE);
  ck_assert_msg (strstr (text->str, "\nnot modelled (3):\n  left out on purpose: 900-reason\n"
                         "  no <case> for this row in cases.xml: 900-no-case\n  only its "
                         "tolerance is tested: 900-tight\n\nrun errors (3):\n  900-broken: ")
                 && strstr (text->str, "\n  900-no-variant: ") &&
                 strstr (text->str, "\n  900-no-scenario: "), "%s", text->str);
  g_string_free (text, TRUE);
  ns_val_report_free (r);
  r = run_rows (v, (const char *const[]) { "900-safe-ret", "900-reason", NULL }, 1);
  ck_assert_int_eq (ns_validation_exit_status (r), 0);
  ns_val_report_free (r);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* Gives the baseline and patched figures of row id in the recorded file at path the CV
 * cv (they have none). */
static void
set_cvs (const char *path, const char *id, const char *cv)
{
  g_autofree char *text = NULL, *pattern = NULL, *replacement = NULL, *edited = NULL;
  g_autoptr (GRegex) re = NULL;

  ck_assert (g_file_get_contents (path, &text, NULL, NULL));
  pattern = g_strdup_printf ("(<row id=\"%s\"[^>]*>\\s*<baseline value=\"[^\"]*\")(/>\\s*"
                             "<patched value=\"[^\"]*\")", id);
  replacement = g_strdup_printf ("\\g<1> cv=\"%s\"\\g<2> cv=\"%s\"", cv, cv);
  re = g_regex_new (pattern, 0, 0, NULL);
  edited = g_regex_replace (re, text, -1, 0, replacement, 0, NULL);
  ck_assert_msg (strcmp (edited, text) != 0, "row %s not rewritten", id);
  ck_assert (g_file_set_contents (path, edited, -1, NULL));
}

/* The line of text (not its first) that starts with head, without its newline, as a new
 * string; the test fails if there is none. */
static char *
line_starting (const char *text, const char *head)
{
  g_autofree char *key = g_strdup_printf ("\n%s", head);
  const char *at = strstr (text, key);

  ck_assert_msg (at != NULL, "no line starting '%s' in %s", head, text);
  return g_strndup (at + 1, strcspn (at + 1, "\n"));
}

/* text up to end (NULL: its end) without its white space, as a new string. */
static char *
without_space (const char *text, const char *end)
{
  GString *out = g_string_new (NULL);

  for (const char *c = text; *c && (end == NULL || c < end); c++)
    if (!g_ascii_isspace (*c))
      g_string_append_c (out, *c);
  return g_string_free (out, FALSE);
}

/* The JSON text of row id's outcome in json (netsim validate --format json), with its
 * white space removed: from its "row" member to the next row's. */
static char *
json_outcome_of (const char *json, const char *id)
{
  g_autofree char *key = g_strdup_printf ("\"row\": \"%s\"", id);
  const char *start = strstr (json, key);

  ck_assert_msg (start != NULL, "no row %s in %s", id, json);
  return without_space (start, strstr (start + 1, "\"row\": \""));
}

/* json (see json_outcome_of) holds member, e.g. "\"sign_agrees\":true". */
static void
assert_json_has (const char *json, const char *member)
{
  ck_assert_msg (strstr (json, member) != NULL, "no %s in %s", member, json);
}

/* The summary's figures over three rows that run: 900-safe-ret recorded as simulated (0 pp
 * off, far inside), 900-unret 50 pp off (a miss inside its recorded noise), 900-calib a
 * pass half the near band inside its tolerance with CVs that make its interval far
 * narrower (a pass outside noise), sharing 900-safe-ret's runs: the nearest row, the
 * largest miss, the mean, the noise counts and the shared runs. */
START_TEST (test_summary_figures)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *seed = g_build_filename (fx, "seed-900.xml", NULL);
  const char *const rows[] = { "900-safe-ret", "900-unret", "900-calib", NULL };
  double sim, band, recorded, tol, e_unret;
  NsValidation *v = load_ok (fx);
  NsValReport *r = run_rows (v, rows, 1);
  const NsValSummary *s;
  GString *text = g_string_new (NULL);
  g_autofree char *line = NULL;

  sim = outcome (r, "900-safe-ret")->sim_delta_pct;
  band = MAX (NS_VAL_NEAR_PP, ns_validation_one_op_step_pp (outcome (r, "900-safe-ret")));
  ns_val_report_free (r);
  ns_validation_free (v);
  ck_assert (sim > 40);                 /* so that the tolerance is 10 % of the delta */
  recorded = (sim + band / 2) / 1.1;    /* sim = recorded + 0.1 recorded - band / 2 */
  tol = 0.1 * recorded;
  set_figures (seed, "900-calib", 100.0, 100.0 + recorded);
  set_cvs (seed, "900-calib", "0.001");
  v = load_ok (fx);
  r = run_rows (v, rows, 1);
  s = &r->validation;
  ck_assert_int_eq (outcome (r, "900-calib")->status, NS_VAL_PASS);
  ck_assert_double_eq_tol (outcome (r, "900-calib")->error_pp, tol - band / 2, 1e-4);
  ck_assert (outcome (r, "900-calib")->row->delta_ci95_pp < tol / 4);
  ck_assert_str_eq (outcome (r, "900-calib")->shares_runs_with, "900-safe-ret");
  ck_assert_ptr_null (outcome (r, "900-safe-ret")->shares_runs_with);
  ck_assert_uint_eq (s->rows, 3);
  ck_assert_uint_eq (s->within, 2);
  ck_assert_uint_eq (s->signs, 3);
  ck_assert_uint_eq (s->shared_runs, 1);
  ck_assert_uint_eq (s->near_boundary, 1);
  ck_assert_str_eq (s->nearest_row, "900-calib");
  ck_assert_double_eq_tol (s->nearest_margin_pp, band / 2, 1e-4);
  e_unret = fabs (outcome (r, "900-unret")->error_pp);
  ck_assert_double_eq_tol (e_unret, 50, 1e-3);
  ck_assert_str_eq (s->max_row, "900-unret");
  ck_assert_double_eq (s->max_abs_pp, e_unret);
  ck_assert_double_eq_tol (s->mean_abs_pp, (fabs (outcome (r, "900-safe-ret")->error_pp) +
                                            e_unret + tol - band / 2) / 3, 1e-4);
  ck_assert_uint_eq (s->noisy_misses, 1);
  ck_assert_uint_eq (s->misses_within_noise, 1);
  ck_assert_uint_eq (s->noisy_passes, 1);
  ck_assert_uint_eq (s->passes_outside_noise, 1);
  ck_assert_uint_eq (r->calibration.rows, 0);
  ns_validation_write (text, r, NS_FORMAT_TABLE);
  line = g_strdup_printf ("\nvalidation rows passing (within tolerance, right sign): 2/3 (1 "
                          "of them judges another row's runs: 2 distinct simulations); sign "
                          "agreement: 3/3; mean |error| %.2f pp, max |error| %.2f pp "
                          "(900-unret); misses inside the recorded delta's 95 %% interval: 1 "
                          "of the 1 with one; passes outside the recorded delta's 95 %% "
                          "interval: 1 of the 1 with one; verdicts within 0.2 pp (or a run's "
                          "one-operation step) of their boundary: 1 (nearest 900-calib, "
                          "inside by %.2f pp)\ncalibration rows passing (within tolerance, "
                          "right sign): 0/0\n", s->mean_abs_pp, s->max_abs_pp, band / 2);
  ck_assert_msg (strstr (text->str, line), "no line\n%s\nin\n%s", line, text->str);
  ck_assert_msg (strstr (text->str, "\nvalidation rows that run another validation row's "
                         "runs") && strstr (text->str, "(1):\n  900-calib: the runs of "
                         "900-safe-ret\n"), "%s", text->str);
  /* no section for what none of the rows is */
  ck_assert_msg (!strstr (text->str, "\nnot modelled (") && !strstr (text->str, "\nrun errors (")
                 && !strstr (text->str, "\ncounted as calibration, as their runs"), "%s",
                 text->str);
  g_string_truncate (text, 0);
  ns_validation_write (text, r, NS_FORMAT_CSV);
  ck_assert_msg (strstr (text->str, ",its runs are those of 900-safe-ret: the same simulation "
                         "judged against this row's recorded figures,") &&
                 !strstr (text->str, "# seeds_run"), "%s", text->str);
  g_string_truncate (text, 0);
  ns_validation_write (text, r, NS_FORMAT_JSON);
  for (guint i = 0; i < 3; i++) {
    static const char *const inside[] = { "null", "true", "false" };
    g_autofree char *o = json_outcome_of (text->str, rows[i]);
    g_autofree char *member = g_strdup_printf ("\"inside_recorded_interval\":%s,", inside[i]);
    assert_json_has (o, member);
    assert_json_has (o, "\"baseline_tolerance_pct\":null,");
    assert_json_has (o, "\"baseline_within_tolerance\":null,");
    assert_json_has (o, "\"run_seeds\":null");
    assert_json_has (o, "\"sign_agrees\":true,");
  }
  {   /* no calibration row ran: its |error| figures are null */
    g_autofree char *flat = without_space (text->str, NULL);
    const char *cal = strstr (flat, "\"calibration\":{\"rows\":0,");
    ck_assert_msg (cal && strstr (cal, "\"mean_abs_error_pp\":null,\"max_abs_error_pp\":"
                                  "null,"), "%s", flat);
  }
  {
    g_autofree char *o = json_outcome_of (text->str, "900-unret");
    assert_json_has (o, "\"reproduce\":\"netsimrunscenarios/micro/call-chain.xml--variant"
                     "plain-ret;netsimrunscenarios/micro/call-chain.xml--variantretbleed-unret"
                     "\"}");
  }
  g_string_free (text, TRUE);
  ns_val_report_free (r);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* A second seed file for the fixture: one row (no case), a fact and a note. */
static const char seed_901[] =
  "<recorded seed=\"901\" file=\"none (second test seed)\">\n"
  "  <thread title=\"second\" author=\"netsim tests\" date=\"2025-01-01\"/>\n"
  "  <setup tool=\"t\" command=\"c\" cpu=\"generic test CPU\" profile=\"generic\" "
  "kernel=\"6.9\" mitigations=\"none\"/>\n"
  "  <table name=\"other\" unit=\"cycles/call\" statistic=\"made up\" source=\"x\">\n"
  "    <row id=\"901-other\" variant=\"other\"><baseline value=\"1\"/><patched value=\"2\"/>"
  "</row>\n  </table>\n"
  "  <fact name=\"extra-901\" unit=\"s\" baseline=\"3\" patched=\"4\" source=\"fixture 901\"/>\n"
  "  <note source=\"fixture 901\">The second seed's note.</note>\n"
  "</recorded>\n";

/* The output in format of the rows of v that patterns select (a new string). */
static char *
output_of_rows (const NsValidation *v, const char *const *patterns, NsFormat format)
{
  NsValReport *r = run_rows (v, patterns, 1);
  GString *text = g_string_new (NULL);

  ns_validation_write (text, r, format);
  ns_val_report_free (r);
  return g_string_free (text, FALSE);
}

/* The JSON output's facts and notes are those of the seeds with a selected row, its pairs
 * (and the table's) those whose two rows are selected; a pair whose sides have no interval
 * is inside none (null). */
START_TEST (test_facts_pairs_notes_selected)
{
  const char *const pair_rows[] = { "900-safe-ret", "900-unret", NULL };
  const char *const one_row[] = { "900-safe-ret", NULL };
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *second = g_build_filename (fx, "seed-901.xml", NULL);
  g_autofree char *both = NULL, *one = NULL, *other = NULL, *table = NULL, *table1 = NULL;
  NsValidation *v;

  ck_assert (g_file_set_contents (second, seed_901, -1, NULL));
  v = load_ok (fx);
  both = output_of_rows (v, pair_rows, NS_FORMAT_JSON);
  one = output_of_rows (v, one_row, NS_FORMAT_JSON);
  other = output_of_rows (v, (const char *const[]) { "901-other", NULL }, NS_FORMAT_JSON);
  table = output_of_rows (v, pair_rows, NS_FORMAT_TABLE);
  table1 = output_of_rows (v, one_row, NS_FORMAT_TABLE);
  ck_assert_msg (count_occurrences (table, "\nrecorded pairs (") == 1 &&
                 strstr (table, "\n  900-pair                   unret vs Safe RET patched"),
                 "%s", table);
  ck_assert_msg (!strstr (table1, "recorded pairs") && !strstr (table1, "900-pair"), "%s",
                 table1);
  ck_assert_msg (strstr (both, "\"name\": \"extra\"") && !strstr (both, "extra-901") &&
                 strstr (both, "Made-up figures for tests.") && !strstr (both, "second seed"),
                 "%s", both);
  ck_assert_msg (strstr (both, "\"id\": \"900-pair\"") &&
                 strstr (both, "\"recorded_delta_ci95_pp\": null") &&
                 strstr (both, "\"inside_recorded_interval\": null\n"), "%s", both);
  ck_assert_msg (strstr (one, "\"name\": \"extra\"") && !strstr (one, "900-pair"), "%s", one);
  ck_assert_msg (strstr (other, "\"name\": \"extra-901\"") && strstr (other, "second seed") &&
                 !strstr (other, "\"name\": \"extra\"") && !strstr (other, "Made-up") &&
                 !strstr (other, "900-pair"), "%s", other);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* A recorded interval of 0 (both CVs 0) is an interval: the row's and the pair's are
 * printed as 0.00 and 0 (not as none) and a simulated delta off the recorded one lies
 * outside it (a miss counted among those with an interval, not inside it). */
START_TEST (test_zero_interval)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *seed = g_build_filename (fx, "seed-900.xml", NULL);
  const char *const rows[] = { "900-safe-ret", "900-unret", NULL };
  g_autofree char *unret = NULL, *flat = NULL, *line = NULL, *csv = NULL;
  GString *text = g_string_new (NULL);
  const NsValOutcome *o;
  NsValidation *v;
  NsValReport *r;

  edit_file (seed, "cv=\"0.5\"", "cv=\"0\"");
  edit_file (seed, "cv=\"0.5\"", "cv=\"0\"");
  edit_file (seed, "cv=\"0.001\"", "cv=\"0\"");
  edit_file (seed, "<ref row=\"900-safe-ret\" side=\"patched\"/>",
             "<ref row=\"900-safe-ret\" side=\"baseline\"/>");
  v = load_ok (fx);
  r = run_rows (v, rows, 1);
  o = outcome (r, "900-unret");
  ck_assert_double_eq (o->row->delta_ci95_pp, 0.0);
  ck_assert_int_eq (o->status, NS_VAL_FAIL);
  ck_assert (!o->within_noise);
  ck_assert_uint_eq (r->validation.noisy_misses, 1);
  ck_assert_uint_eq (r->validation.misses_within_noise, 0);
  ns_validation_write (text, r, NS_FORMAT_TABLE);
  line = line_starting (text->str, "900-unret ");
  ck_assert_msg (strstr (line, "     0.00 "), "%s", line);        /* the rec ci95 column */
  ck_assert_msg (strstr (text->str, " ±  0.00  simulated ") &&
                 strstr (text->str, "%, outside the interval\n"), "%s", text->str);
  g_string_truncate (text, 0);
  ns_validation_write (text, r, NS_FORMAT_JSON);
  unret = json_outcome_of (text->str, "900-unret");
  assert_json_has (unret, "\"delta_ci95_pp\":0,");
  assert_json_has (unret, "\"inside_recorded_interval\":false,");
  flat = without_space (strstr (text->str, "\"id\": \"900-pair\""), NULL);
  assert_json_has (flat, "\"recorded_delta_ci95_pp\":0,");
  assert_json_has (flat, "\"inside_recorded_interval\":false}");
  g_string_truncate (text, 0);
  ns_validation_write (text, r, NS_FORMAT_CSV);
  csv = line_starting (text->str, "900-unret,");
  ck_assert_msg (g_str_has_suffix (csv, ",0.0000"), "%s", csv);   /* last column: rec ci95 */
  g_string_free (text, TRUE);
  ns_val_report_free (r);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* ns_validation_run_seeds: each row that ran (pass or fail, not an error) is counted per
 * seed, with its passes and the range of its simulated delta, which stays by the main
 * run's (a rise for 900-safe-ret, a fall for 900-no-variant run the other way round). */
START_TEST (test_run_seeds)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *cases = g_build_filename (fx, "cases.xml", NULL);
  const char *const patterns[] = { "900-safe-ret", "900-unret", "900-broken", "900-no-variant",
                                   NULL };
  static const struct { const char *row; guint ran, passing; } want[] = {
    { "900-safe-ret", 3, 3 }, { "900-unret", 3, 0 }, { "900-broken", 0, 0 },
    { "900-no-variant", 3, 0 },
  };
  NsValOptions opt = { .jobs = 2 };
  GString *text = g_string_new (NULL);
  g_autofree char *line = NULL;
  g_autofree char *broken = NULL;
  const char *seeds;
  GPtrArray *rows;
  NsValidation *v;
  NsValReport *r;

  edit_file (cases, "baseline=\"plain-ret\"\n        patched=\"no-such-variant\"",
             "baseline=\"srso-safe-ret\" patched=\"plain-ret\"");
  v = load_ok (fx);
  rows = ns_validation_select (v, patterns, NULL);
  r = ns_validation_run (v, rows, &opt, NULL);
  ck_assert (ns_validation_run_seeds (r, rows, &opt, 3, NULL));
  ck_assert_uint_eq (r->run_seeds, 3);
  ck_assert (outcome (r, "900-no-variant")->sim_delta_pct < -10);
  for (guint i = 0; i < G_N_ELEMENTS (want); i++) {
    const NsValOutcome *o = outcome (r, want[i].row);
    ck_assert_msg (o->seeds_ran == want[i].ran && o->seeds_passing == want[i].passing,
                   "%s: ran %u, passing %u", want[i].row, o->seeds_ran, o->seeds_passing);
    if (o->seeds_ran == 0)
      continue;
    ck_assert (o->seeds_delta_min_pct <= o->seeds_delta_max_pct);
    ck_assert_msg (fabs (o->seeds_delta_min_pct - o->sim_delta_pct) < 1 &&
                   fabs (o->seeds_delta_max_pct - o->sim_delta_pct) < 1, "%s: %g..%g, %g",
                   want[i].row, o->seeds_delta_min_pct, o->seeds_delta_max_pct,
                   o->sim_delta_pct);
  }
  ns_validation_write (text, r, NS_FORMAT_TABLE);
  seeds = strstr (text->str, "\nover run seeds 1-3 (");
  ck_assert_msg (seeds != NULL, "%s", text->str);
  line = g_strdup_printf ("\n  900-safe-ret                3/3   %+9.2f .. %+9.2f\n",
                          outcome (r, "900-safe-ret")->seeds_delta_min_pct,
                          outcome (r, "900-safe-ret")->seeds_delta_max_pct);
  ck_assert_msg (strstr (seeds, line) && strstr (seeds, "\n  900-unret                   0/3 ")
                 && strstr (seeds, "\n  900-no-variant              0/3 ") &&
                 !strstr (seeds, "900-broken") &&
                 strstr (seeds, "\nverdicts the run seed decides: 0\n"), "%s", seeds);
  g_string_truncate (text, 0);
  ns_validation_write (text, r, NS_FORMAT_CSV);
  broken = line_starting (text->str, "900-broken,");
  ck_assert_msg (strstr (text->str, "\n# seeds_run, seeds_passing: ") &&
                 g_str_has_suffix (broken, ",0,0,,") &&
                 count_occurrences (text->str, ",3,3,") == 1 &&
                 count_occurrences (text->str, ",3,0,") == 2, "%s", text->str);
  g_string_truncate (text, 0);
  ns_validation_write (text, r, NS_FORMAT_JSON);
  for (guint i = 0; i < G_N_ELEMENTS (want); i++) {
    g_autofree char *o = json_outcome_of (text->str, want[i].row);
    g_autofree char *member = g_strdup_printf ("\"run_seeds\":{\"seeds\":3,\"ran\":%u,"
                                               "\"passing\":%u,", want[i].ran,
                                               want[i].passing);
    assert_json_has (o, member);
    if (want[i].ran == 0)
      assert_json_has (o, "\"delta_min_pct\":null,\"delta_max_pct\":null}");
  }
  g_string_free (text, TRUE);
  ns_val_report_free (r);
  g_ptr_array_unref (rows);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* Runs that cannot be judged: either run on another CPU profile than the row's (the
 * baseline's or the patched's), or a baseline figure of 0; the same runs on the row's
 * profile with a positive baseline can. */
START_TEST (test_runs_problem)
{
  g_autofree char *tmp = NULL;
  NsValidation *v = load_fixture (&tmp);
  const NsRecordedRow *row = ns_validation_find_row (v, "900-safe-ret");
  const NsValCase *c = ns_validation_case (v, "900-safe-ret");
  NsValRun b = { .value = 10, .cpu = (char *) "generic" };
  NsValRun p = { .value = 20, .cpu = (char *) "generic" };
  char *why;

  ck_assert_ptr_null (ns_validation_runs_problem (row, c, &b, &p));
  p.cpu = (char *) "other";
  why = ns_validation_runs_problem (row, c, &b, &p);
  ck_assert_msg (why && strstr (why, "runs on CPU profile 'other', but the row was measured "
                                "on generic test CPU (profile 'generic')"), "%s", why);
  g_free (why);
  p.cpu = (char *) "generic";
  b.cpu = (char *) "other";
  why = ns_validation_runs_problem (row, c, &b, &p);
  ck_assert_msg (why && strstr (why, "runs on CPU profile 'other'"), "%s", why);
  g_free (why);
  b.cpu = (char *) "generic";
  b.value = 0;
  why = ns_validation_runs_problem (row, c, &b, &p);
  ck_assert_msg (why && strstr (why, "the baseline variant 'plain-ret' gave 0, so no delta"),
                 "%s", why);
  g_free (why);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* A file's baseline-tolerance-pct (issue 4's "baseline pps within 20 %") is judged apart
 * from the delta verdicts: a row whose simulated baseline is 25 % off its recorded one is
 * counted outside, named in the summary (the farthest row, whichever comes first; a row
 * that did not run is none), and keeps its delta verdict; without the attribute no row is
 * judged on its baseline. */
START_TEST (test_baseline_tolerance)
{
  g_autofree char *tmp = NULL, *fx = NULL, *seed = NULL;
  NsValidation *v;
  NsValReport *r;
  GString *text = g_string_new (NULL);
  double plain = call_chain_value ("plain-ret", NULL);
  double safe = call_chain_value ("srso-safe-ret", NULL);
  double unret = call_chain_value ("retbleed-unret", NULL);

  tmp = fixture_datadir (&fx);
  seed = g_build_filename (fx, "seed-900.xml", NULL);
  v = load_ok (fx);
  r = run_rows (v, (const char *const[]) { "900-safe-ret", NULL }, 1);
  ck_assert_uint_eq (r->validation.baselines, 0);
  ck_assert (!outcome (r, "900-safe-ret")->baseline_within);
  ns_val_report_free (r);
  ns_validation_free (v);

  edit_file (seed, "<recorded seed=\"900\"", "<recorded baseline-tolerance-pct=\"20\" seed=\"900\"");
  /* the same delta on a baseline the model undershoots by 16.67 % (recorded 1.2 × simulated) */
  set_figures (seed, "900-safe-ret", plain * 1.2, safe * 1.2);
  v = load_ok (fx);
  r = run_rows (v, (const char *const[]) { "900-safe-ret", "900-unret", NULL }, 1);
  ck_assert_double_eq_tol (outcome (r, "900-safe-ret")->baseline_error_pct, -100.0 / 6, 1e-3);
  ck_assert (outcome (r, "900-safe-ret")->baseline_within);
  ck_assert_int_eq (outcome (r, "900-safe-ret")->status, NS_VAL_PASS);
  ck_assert (outcome (r, "900-unret")->baseline_within);
  ck_assert_uint_eq (r->validation.baselines, 2);
  ns_val_report_free (r);
  ns_validation_free (v);

  set_figures (seed, "900-safe-ret", plain * 1.5, safe * 1.5);   /* −33.3 %: outside */
  v = load_ok (fx);
  r = run_rows (v, (const char *const[]) { "900-safe-ret", "900-unret", NULL }, 1);
  ck_assert (!outcome (r, "900-safe-ret")->baseline_within);
  ck_assert_int_eq (outcome (r, "900-safe-ret")->status, NS_VAL_PASS);
  ck_assert_uint_eq (r->validation.baselines, 2);
  ck_assert_uint_eq (r->validation.baselines_within, 1);
  ck_assert_str_eq (r->validation.baseline_worst_row, "900-safe-ret");
  ns_validation_write (text, r, NS_FORMAT_TABLE);
  ck_assert_ptr_nonnull (strstr (text->str, "baselines within their file's stated tolerance "
                                            "of the recorded: 1/2 (farthest 900-safe-ret, "
                                            "-33.33 % against ±20 %)"));
  ck_assert_ptr_nonnull (strstr (text->str, "outside their file's stated tolerance: "
                                            "900-safe-ret -33.33 % (±20 %, validation)\n"));
  g_string_free (text, TRUE);
  ns_val_report_free (r);
  ns_validation_free (v);

  /* the farthest is the later row now, by more than the earlier one's */
  set_figures (seed, "900-safe-ret", plain * 1.2, safe * 1.2);
  set_figures (seed, "900-unret", plain * 2, plain * 2 * (unret / plain + 0.5));
  v = load_ok (fx);
  r = run_rows (v, (const char *const[]) { "900-safe-ret", "900-unret", "900-broken", NULL }, 1);
  ck_assert_uint_eq (r->validation.baselines_within, 1);
  ck_assert_str_eq (r->validation.baseline_worst_row, "900-unret");
  ck_assert_double_eq_tol (r->validation.baseline_worst_pct, -50.0, 1e-3);
  text = g_string_new (NULL);
  ns_validation_write (text, r, NS_FORMAT_TABLE);
  ck_assert_msg (strstr (text->str, "outside their file's stated tolerance: 900-unret -50.00 % "
                         "(±20 %, validation)\n"), "%s", text->str);
  g_string_free (text, TRUE);
  ns_val_report_free (r);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* A case's mistake found only when it runs — a metric the workload lacks, a <set> the
 * scenario refuses, a scenario file that is not XML — makes its row an error whose reason
 * starts with the case's cases.xml:LINE; the other rows are judged as usual (a malformed
 * scenario stopped the whole validation). */
START_TEST (test_case_errors_name_case_line)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *cases = g_build_filename (fx, "cases.xml", NULL);
  g_autofree char *bad = g_build_filename (tmp, "scenarios/micro/bad.xml", NULL);
  NsValidation *v;
  NsValReport *r;
  const NsValOutcome *o;

  ck_assert (g_file_set_contents (bad, "<scenario>\n<oops>\n", -1, NULL));
  edit_file (cases, "metric=\"cycles_per_call\"", "metric=\"nosuch_metric\"");
  edit_file (cases, "scenarios/micro/no-such-scenario.xml", "scenarios/micro/bad.xml");
  v = load_ok (fx);
  r = run_rows (v, (const char *const[]) { "900-safe-ret", "900-broken", "900-no-scenario",
                                           "900-unret", NULL }, 1);
  o = outcome (r, "900-safe-ret");
  ck_assert_int_eq (o->status, NS_VAL_ERROR);
  ck_assert_msg (strstr (o->reason, "cases.xml:4: case of row 900-safe-ret: ") &&
                 strstr (o->reason, "nosuch_metric"), "%s", o->reason);
  o = outcome (r, "900-broken");
  ck_assert_int_eq (o->status, NS_VAL_ERROR);
  ck_assert_msg (strstr (o->reason, "cases.xml:8: case of row 900-broken: ") &&
                 strstr (o->reason, "measure.duration=0"), "%s", o->reason);
  o = outcome (r, "900-no-scenario");
  ck_assert_int_eq (o->status, NS_VAL_ERROR);
  ck_assert_msg (strstr (o->reason, "cases.xml:14: case of row 900-no-scenario: ") &&
                 strstr (o->reason, "bad.xml:"), "%s", o->reason);
  ck_assert_int_eq (outcome (r, "900-unret")->status, NS_VAL_FAIL);
  ck_assert_int_eq (ns_validation_exit_status (r), 1);
  ns_val_report_free (r);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* A value whose source says UNSOURCED that a run used is listed once, with its CPU, in
 * NAME order; a sourced value is not listed. */
START_TEST (test_unsourced_listed)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *sc = g_build_filename (tmp, "scenarios", "micro", "call-chain.xml", NULL);
  g_autofree char *text = NULL;
  GString *edited;
  NsValidation *v;
  NsValReport *r;

  ck_assert (g_file_get_contents (sc, &text, NULL, NULL));
  edited = g_string_new (text);
  ck_assert_uint_eq (g_string_replace (edited, "  <workload ", "  <param name=\"x86.pause_cycles\" "
                                       "value=\"12\" source=\"UNSOURCED test value\"/>\n"
                                       "  <workload ", 1), 1);
  ck_assert (g_file_set_contents (sc, edited->str, -1, NULL));
  g_string_free (edited, TRUE);
  v = load_ok (fx);
  r = run_rows (v, (const char *const[]) { "900-safe-ret", "900-unret", NULL }, 1);
  /* four runs, one line */
  ck_assert (g_ptr_array_find_with_equal_func (r->unsourced, "x86.pause_cycles = 12: generic",
                                               g_str_equal, NULL));
  ck_assert (!g_ptr_array_find_with_equal_func (r->unsourced, "cache.l1d.latency_cycles = 4: "
                                                "generic", g_str_equal, NULL));
  for (guint i = 1; i < r->unsourced->len; i++)
    ck_assert_int_lt (strcmp (r->unsourced->pdata[i - 1], r->unsourced->pdata[i]), 0);
  ns_val_report_free (r);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* The .config options the runs took without their scenario stating them are listed once
 * each, with the CPU, sorted ("CONFIG_X=y: generic", or without "=" for an option read as
 * a string), through the jobs' protocol (2 jobs: child processes); an option the scenario
 * then states leaves the list, the others stay. */
START_TEST (test_unstated_config_listed)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *sc = g_build_filename (tmp, "scenarios", "micro", "call-chain.xml", NULL);
  g_autofree char *text = NULL, *first = NULL, *stated = NULL;
  const char *const rows[] = { "900-safe-ret", "900-unret", NULL };
  GString *edited;
  NsValidation *v;
  NsValReport *r;
  guint before;

  v = load_ok (fx);
  r = run_rows (v, rows, 2);
  before = r->unstated->len;
  ck_assert_uint_gt (before, 1);
  for (guint i = 0; i < before; i++) {
    ck_assert_msg (g_str_has_prefix (r->unstated->pdata[i], "CONFIG_") &&
                   g_str_has_suffix (r->unstated->pdata[i], ": generic"), "%s",
                   (const char *) r->unstated->pdata[i]);
    if (i > 0)
      ck_assert_int_lt (strcmp (r->unstated->pdata[i - 1], r->unstated->pdata[i]), 0);
  }
  first = g_strndup (r->unstated->pdata[0], strcspn (r->unstated->pdata[0], "=:"));
  ns_val_report_free (r);
  ns_validation_free (v);

  /* the kernel element, empty, gets the option as a child */
  ck_assert (g_file_get_contents (sc, &text, NULL, NULL));
  edited = g_string_new (text);
  stated = g_strdup_printf ("spec_rstack_overflow=off\">\n    <config name=\"%s\" "
                            "value=\"y\"/>\n  </kernel>", first);
  ck_assert_uint_eq (g_string_replace (edited, "spec_rstack_overflow=off\"/>", stated, 1), 1);
  ck_assert (g_file_set_contents (sc, edited->str, -1, NULL));
  g_string_free (edited, TRUE);
  v = load_ok (fx);
  r = run_rows (v, rows, 2);
  ck_assert_uint_eq (r->unstated->len, before - 1);
  for (guint i = 0; i < r->unstated->len; i++)
    ck_assert (!g_str_has_prefix (r->unstated->pdata[i], first));
  ns_val_report_free (r);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* The case prints what `netsim run --variant V` prints for the same scenario. */
START_TEST (test_fixture_matches_run)
{
  g_autofree char *tmp = NULL;
  NsValidation *v = load_fixture (&tmp);
  NsValReport *r = run_rows (v, (const char *const[]) { "900-safe-ret", NULL }, 1);
  const NsValOutcome *o = outcome (r, "900-safe-ret");
  g_autofree char *path = g_build_filename (ns_data_dir (), "scenarios/micro/call-chain.xml", NULL);
  NsRunOptions opt = { 0 };
  NsRunResult *run;
  GError *error = NULL;
  double b, p;
  guint i;

  run = ns_run_scenario (path, &opt, &error);
  ck_assert_msg (run != NULL, "%s", error ? error->message : "?");
  b = ns_run_result_variant (run, "plain-ret")->value;
  p = ns_run_result_variant (run, "srso-safe-ret")->value;
  ck_assert (o->sim_baseline == b && o->sim_patched == p);
  for (i = 0; i < run->comparisons->len; i++) {
    const NsComparison *c = &g_array_index (run->comparisons, NsComparison, i);
    if (!strcmp (c->label, "Safe RET vs plain"))
      break;
  }
  ck_assert_msg (i < run->comparisons->len, "no comparison 'Safe RET vs plain'");
  ck_assert (o->sim_delta_pct == g_array_index (run->comparisons, NsComparison, i).delta_pct);
  ck_assert_double_eq_tol (o->error_pp, o->sim_delta_pct - o->row->delta_pct, 1e-12);
  ns_run_result_free (run);
  ns_val_report_free (r);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* NsValProgress recording each call's done and total (data: a GArray of guint pairs). */
static void
record_progress (guint done, guint total, const NsValJob *job, gpointer data)
{
  guint pair[2] = { done, total };

  ck_assert_ptr_null (job);
  g_array_append_vals (data, pair, 2);
}

/* ns_val_jobs_run: progress is called with 0 done first, then each time more jobs have
 * finished (never twice with one count), total last, and not at all without jobs; a job
 * its child fails gets the child's error, with its code (an input error), the others a
 * run. */
START_TEST (test_jobs_progress)
{
  g_autofree char *path = g_build_filename (ns_data_dir (), "scenarios/micro/call-chain.xml",
                                            NULL);
  static const char *const variants[] = { "plain-ret", "no-such-variant", "srso-safe-ret",
                                          "retbleed-unret" };
  GPtrArray *jobs = g_ptr_array_new_with_free_func ((GDestroyNotify) ns_val_job_free);
  GArray *calls = g_array_new (FALSE, FALSE, sizeof (guint));

  ns_val_jobs_run (jobs, 2, record_progress, calls);
  ck_assert_uint_eq (calls->len, 0);
  for (guint i = 0; i < G_N_ELEMENTS (variants); i++)
    g_ptr_array_add (jobs, ns_val_job_new (path, variants[i], NULL));
  ns_val_jobs_run (jobs, 2, record_progress, calls);
  ck_assert_uint_ge (calls->len, 4);
  ck_assert_uint_eq (g_array_index (calls, guint, 0), 0);
  for (guint i = 0; i < calls->len; i += 2) {
    ck_assert_uint_eq (g_array_index (calls, guint, i + 1), G_N_ELEMENTS (variants));
    if (i > 0)
      ck_assert_uint_gt (g_array_index (calls, guint, i), g_array_index (calls, guint, i - 2));
  }
  ck_assert_uint_eq (g_array_index (calls, guint, calls->len - 2), G_N_ELEMENTS (variants));
  for (guint i = 0; i < G_N_ELEMENTS (variants); i++) {
    const NsValJob *job = jobs->pdata[i];
    if (i == 1) {
      ck_assert_ptr_null (job->run);
      ck_assert (g_error_matches (job->error, NS_ERROR, NS_ERROR_INPUT));
      ck_assert_msg (strstr (job->error->message, "no-such-variant"), "%s",
                     job->error->message);
    } else {
      ck_assert_msg (job->run != NULL && job->error == NULL, "%s", variants[i]);
      ck_assert_str_eq (job->run->metric, "cycles_per_call");
    }
  }
  g_array_unref (calls);
  g_ptr_array_unref (jobs);
}
END_TEST

/* Child processes (--jobs) give bit-identical results and the same errors. */
START_TEST (test_jobs_identical)
{
  g_autofree char *tmp = NULL;
  NsValidation *v = load_fixture (&tmp);
  NsValReport *a = run_rows (v, NULL, 1);
  NsValReport *b = run_rows (v, NULL, 3);
  GString *sa = g_string_new (NULL), *sb = g_string_new (NULL);

  for (guint i = 0; i < a->outcomes->len; i++) {
    const NsValOutcome *x = a->outcomes->pdata[i], *y = b->outcomes->pdata[i];
    ck_assert_int_eq (x->status, y->status);
    ck_assert (memcmp (&x->sim_baseline, &y->sim_baseline, sizeof (double)) == 0);
    ck_assert (memcmp (&x->sim_patched, &y->sim_patched, sizeof (double)) == 0);
    ck_assert_str_eq (x->reason ? x->reason : "", y->reason ? y->reason : "");
  }
  ns_validation_write (sa, a, NS_FORMAT_JSON);
  ns_validation_write (sb, b, NS_FORMAT_JSON);
  ck_assert_str_eq (sa->str, sb->str);
  g_string_free (sa, TRUE);
  g_string_free (sb, TRUE);
  ns_val_report_free (a);
  ns_val_report_free (b);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* CSV has its documented header and one line per row; JSON carries the provenance. */
START_TEST (test_outputs)
{
  g_autofree char *tmp = NULL;
  NsValidation *v = load_fixture (&tmp);
  NsValReport *r = run_rows (v, NULL, 1);
  GString *csv = g_string_new (NULL), *json = g_string_new (NULL), *table = g_string_new (NULL);
  g_auto (GStrv) lines = NULL;
  guint data = 0;

  ns_validation_write (csv, r, NS_FORMAT_CSV);
  ns_validation_write (json, r, NS_FORMAT_JSON);
  ns_validation_write (table, r, NS_FORMAT_TABLE);
  lines = g_strsplit (csv->str, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    data += lines[i][0] != '#' && lines[i][0] != '\0';
  ck_assert_uint_eq (data, 1 + ns_validation_rows (v)->len);
  ck_assert_ptr_nonnull (strstr (csv->str, "\nrow,seed,file,cpu,profile,variant,unit,"));
  ck_assert_ptr_nonnull (strstr (csv->str, "# validation rows passing (within tolerance, right sign): 1/6"));
  ck_assert_ptr_nonnull (strstr (json->str, "\"profiles\""));
  ck_assert_ptr_nonnull (strstr (json->str, "\"profile\": \"generic\""));
  ck_assert_ptr_nonnull (strstr (json->str, "\"fitted_on_rows\""));
  ck_assert_ptr_nonnull (strstr (json->str, "\"name\": \"cpu.ipc\""));
  ck_assert_ptr_nonnull (strstr (table->str, "validation rows passing (within tolerance, right sign): 1/6"));
  ck_assert_ptr_nonnull (strstr (table->str, "rows not modelled: 3 of 9"));
  ck_assert_ptr_nonnull (strstr (table->str, "900-pair"));
  g_string_free (csv, TRUE);
  g_string_free (json, TRUE);
  g_string_free (table, TRUE);
  ns_val_report_free (r);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* The fixture's pair (900-safe-ret's patched figure against 900-unret's) with CVs on
 * both figures, unret's cv_unret, in a scratch copy of datadir (NULL: the source tree's
 * data): the table says whether the simulated change lies inside the recorded interval,
 * and so does the pair's JSON. */
static void
assert_pair_verdict (const char *datadir, const char *cv_unret, gboolean inside)
{
  g_autofree char *tmp = NULL, *fx = NULL, *seed = NULL, *unret = NULL;
  NsValidation *v;
  NsValReport *r;
  GString *json = g_string_new (NULL), *table = g_string_new (NULL);
  const char *pairs;

  restore_datadir (datadir);
  tmp = fixture_datadir (&fx);
  seed = g_build_filename (fx, "seed-900.xml", NULL);
  edit_file (seed, "\"/>\n    </row>\n    <!-- the tests write a delta 50 pp above",
             "\" cv=\"0.001\"/>\n    </row>\n    <!-- the tests write a delta 50 pp above");
  unret = g_strdup_printf (" cv=\"%s\"/>\n    </row>\n    <!-- the case's run fails",
                           cv_unret);
  edit_file (seed, " cv=\"0.5\"/>\n    </row>\n    <!-- the case's run fails", unret);
  v = load_ok (fx);
  r = run_rows (v, (const char *const[]) { "900-safe-ret", "900-unret", NULL }, 1);
  ns_validation_write (json, r, NS_FORMAT_JSON);
  ns_validation_write (table, r, NS_FORMAT_TABLE);
  ck_assert_msg (strstr (table->str, inside ? "%, inside the interval\n"
                                            : "%, outside the interval\n") != NULL,
                 "cv %s: %s", cv_unret, table->str);
  pairs = strstr (json->str, "\"pairs\"");
  ck_assert_ptr_nonnull (pairs);
  ck_assert_ptr_nonnull (strstr (pairs, inside ? "\"inside_recorded_interval\": true"
                                               : "\"inside_recorded_interval\": false"));
  g_string_free (json, TRUE);
  g_string_free (table, TRUE);
  ns_val_report_free (r);
  ns_validation_free (v);
  remove_tree (tmp);
}

/* With the figures' noise small the pair's change lies far outside its interval; with
 * unret's patched CV 5 (over 3 runs) the interval holds it. */
START_TEST (test_pair_inside_interval)
{
  g_autofree char *datadir = g_strdup (g_getenv ("NETSIM_DATADIR"));

  assert_pair_verdict (datadir, "0.001", FALSE);
  assert_pair_verdict (datadir, "5", TRUE);
}
END_TEST

/* "ROW,STATUS,BASELINE,PATCHED,SET" of o's simulated figures as --format csv prints
 * them, with status and baseline replaced where given, and set as given. */
static char *
expected_line_in (const NsValOutcome *o, const char *status, const char *baseline,
                  const char *set)
{
  char b[G_ASCII_DTOSTR_BUF_SIZE], p[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (b, sizeof b, "%.10g", o->sim_baseline);
  g_ascii_formatd (p, sizeof p, "%.10g", o->sim_patched);
  return g_strdup_printf ("%s,%s,%s,%s,%s\n", o->row->id,
                          status ? status : ns_val_status_name (o->status),
                          baseline ? baseline : b, p, set);
}

/* "ROW,STATUS,BASELINE,PATCHED,SET" of o's simulated figures as --format csv prints them,
 * with status and baseline replaced where given. */
static char *
expected_line (const NsValOutcome *o, const char *status, const char *baseline)
{
  return expected_line_in (o, status, baseline, o->calibration ? "calibration" : "validation");
}

/* A row that passed in the expected results and no longer passes is a regression; a row
 * whose simulated figures differ from the printed ones, or that counts in another set
 * (calibration, validation) than there, has changed: all count. */
START_TEST (test_expected_regression)
{
  g_autofree char *tmp = NULL;
  NsValidation *v = load_fixture (&tmp);
  NsValReport *r = run_rows (v, (const char *const[]) { "900-unret", "900-safe-ret", NULL }, 1);
  const NsValOutcome *unret = outcome (r, "900-unret"), *safe = outcome (r, "900-safe-ret");
  g_autofree char *path = g_build_filename (tmp, "expected.csv", NULL);
  g_autofree char *unret_pass = expected_line (unret, "pass", NULL);
  g_autofree char *unret_same = expected_line (unret, NULL, NULL);
  g_autofree char *safe_same = expected_line (safe, NULL, NULL);
  g_autofree char *safe_moved = expected_line (safe, NULL, "12345");
  g_autofree char *safe_calibration = expected_line_in (safe, NULL, NULL, "calibration");
  g_autofree char *text = NULL;
  GString *messages = g_string_new (NULL), *csv = g_string_new (NULL);
  GError *error = NULL;
  const char *header = "# comment\nrow,status,simulated_baseline,simulated_patched,set\n";

  ns_validation_write (csv, r, NS_FORMAT_CSV);
  ck_assert (g_file_set_contents (path, csv->str, -1, NULL));
  ck_assert_int_eq (ns_validation_check_expected (r, path, FALSE, messages, NULL), 0);
  ck_assert_str_eq (messages->str, "");
  text = g_strconcat (header, unret_pass, safe_same, NULL);
  ck_assert (g_file_set_contents (path, text, -1, NULL));
  ck_assert_int_eq (ns_validation_check_expected (r, path, FALSE, messages, NULL), 1);
  ck_assert_ptr_nonnull (strstr (messages->str, "regression: 900-unret"));
  ck_assert_ptr_null (strstr (messages->str, "changed:"));
  g_free (text);
  text = g_strconcat (header, unret_same, safe_moved, NULL);
  ck_assert (g_file_set_contents (path, text, -1, NULL));
  ck_assert_int_eq (ns_validation_check_expected (r, path, FALSE, messages, NULL), 1);
  ck_assert_ptr_nonnull (strstr (messages->str, "changed: 900-safe-ret simulated 12345 / "));
  /* the same figures, but the row counted as calibration there: a change too */
  g_string_truncate (messages, 0);
  g_free (text);
  text = g_strconcat (header, unret_same, safe_calibration, NULL);
  ck_assert (g_file_set_contents (path, text, -1, NULL));
  ck_assert_int_eq (ns_validation_check_expected (r, path, FALSE, messages, NULL), 1);
  ck_assert_msg (strstr (messages->str, "changed: 900-safe-ret counts as calibration in ") &&
                 strstr (messages->str, "as validation now"), "%s", messages->str);
  ck_assert (g_file_set_contents (path, "row,status\n900-unret,fail\n", -1, NULL));
  ck_assert_int_eq (ns_validation_check_expected (r, path, FALSE, messages, &error), -1);
  ck_assert_ptr_nonnull (strstr (error->message, "simulated_baseline"));
  g_clear_error (&error);
  g_string_free (messages, TRUE);
  g_string_free (csv, TRUE);
  ns_val_report_free (r);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* A row that ran (fail) in the expected results and no longer runs is a regression too, so
 * is a row absent there that fails or errors now, and, when every recorded row ran, a row
 * that ran there and no longer exists. */
START_TEST (test_expected_rows_that_stop_running)
{
  g_autofree char *tmp = NULL;
  NsValidation *v = load_fixture (&tmp);
  NsValReport *r = run_rows (v, (const char *const[]) { "900-unret", "900-broken", NULL }, 1);
  const NsValOutcome *unret = outcome (r, "900-unret");
  g_autofree char *path = g_build_filename (tmp, "expected.csv", NULL);
  g_autofree char *unret_same = expected_line (unret, NULL, NULL);
  g_autofree char *text = NULL;
  GString *messages = g_string_new (NULL);
  const char *header = "row,status,simulated_baseline,simulated_patched,set\n";

  text = g_strconcat (header, unret_same, "900-broken,fail,100,110,validation\n", NULL);
  ck_assert (g_file_set_contents (path, text, -1, NULL));
  ck_assert_int_eq (ns_validation_check_expected (r, path, FALSE, messages, NULL), 1);
  ck_assert_ptr_nonnull (strstr (messages->str, "regression: 900-broken ran in"));
  g_string_truncate (messages, 0);
  g_free (text);
  text = g_strconcat (header, unret_same, "900-gone,pass,100,110,validation\n", NULL);
  ck_assert (g_file_set_contents (path, text, -1, NULL));
  /* 900-broken, absent from this file, errors now: a regression of its own, whether or
   * not every row ran; 900-gone counts only when every row ran */
  ck_assert_int_eq (ns_validation_check_expected (r, path, FALSE, messages, NULL), 1);
  ck_assert_ptr_nonnull (strstr (messages->str, "regression: 900-broken is absent in"));
  g_string_truncate (messages, 0);
  ck_assert_int_eq (ns_validation_check_expected (r, path, TRUE, messages, NULL), 2);
  ck_assert_ptr_nonnull (strstr (messages->str, "regression: 900-gone ran in"));
  g_string_free (messages, TRUE);
  ns_val_report_free (r);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* The expected results are read strictly: a line cut short, an unknown status, a row
 * twice, no row at all: each refused with PATH:LINE (CI would otherwise guard less). */
START_TEST (test_expected_read_strictly)
{
  static const struct { const char *text; const char *needle; } bad[] = {
    { "row,status,simulated_baseline,simulated_patched,set\n900-unret,pass,1\n", ":2: 3 fields" },
    { "# c\nrow,status,simulated_baseline,simulated_patched,set\n900-unret,passed,1,2,validation\n",
      ":3: status 'passed'" },
    { "row,status,simulated_baseline,simulated_patched,set\n900-a,pass,1,2,validation\n"
      "900-a,fail,1,2,validation\n",
      ":3: row 900-a is listed twice" },
    { "row,status,simulated_baseline,simulated_patched,set\n", "no rows" },
    { "row,status,simulated_baseline,simulated_patched\n900-a,pass,1,2\n", "and set" },
    { "row,status,simulated_baseline,simulated_patched,set\n900-a,pass,,2,validation\n",
      ":2: row 900-a, status pass: simulated_baseline '' is not what --format csv prints" },
    { "row,status,simulated_baseline,simulated_patched,set\n900-a,fail,1,abc,validation\n",
      ":2: row 900-a, status fail: simulated_patched 'abc'" },
    { "row,status,simulated_baseline,simulated_patched,set\n900-a,error,1,,validation\n",
      ":2: row 900-a, status error: simulated_baseline '1'" },
  };
  g_autofree char *dir = g_dir_make_tmp ("netsim-expected-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "e.csv", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
    GError *error = NULL;
    ck_assert (g_file_set_contents (path, bad[i].text, -1, NULL));
    ck_assert (!ns_validation_read_expected (path, &error));
    ck_assert_msg (strstr (error->message, bad[i].needle) != NULL, "%s", error->message);
    g_error_free (error);
  }
  remove_tree (dir);
}
END_TEST

/* ---- recorded fits ---- */

/* A profile fitted on a row that calibration.xml does not name: the row would count as
 * validation — the check must fail. */
START_TEST (test_fitted_and_validation_conflict)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *profile = g_build_filename (tmp, "scenarios/cpus/generic.xml", NULL);
  NsValidation *v = load_ok (fx);
  GPtrArray *conflicts = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *provenance = g_ptr_array_new_with_free_func (ns_val_provenance_free);
  GError *error = NULL;
  NsValReport *r;

  ck_assert (!ns_validation_is_calibration (v, "900-safe-ret"));
  ck_assert_msg (ns_calibrate_write_profile (profile, "cpu.ipc", "1.5",
                                             "fit on 900-safe-ret, residual 0.01", &error),
                 "%s", error ? error->message : "?");
  ck_assert (ns_validation_check_fits (v, conflicts, provenance, &error));
  ck_assert_uint_eq (conflicts->len, 1);
  ck_assert_ptr_nonnull (strstr (conflicts->pdata[0], "900-safe-ret"));
  r = run_rows (v, (const char *const[]) { "900-safe-ret", NULL }, 1);
  ck_assert_uint_ge (r->conflicts->len, 1);
  ck_assert_int_eq (outcome (r, "900-safe-ret")->status, NS_VAL_PASS);
  ck_assert_int_eq (ns_validation_exit_status (r), 1);
  ns_val_report_free (r);
  g_ptr_array_unref (conflicts);
  g_ptr_array_unref (provenance);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* A fit a scenario file sets itself is checked without a run: listed with its scope, and
 * a conflict while calibration.xml does not name its row. */
START_TEST (test_scenario_fit_checked)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *scenario = scenario_with (tmp, "<param name=\"cpu.ipc\" value=\"1.7\" "
                                                  "source=\"fit on 900-safe-ret, residual 0.01\"/>");
  GPtrArray *conflicts = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *provenance = g_ptr_array_new_with_free_func (ns_val_provenance_free);
  const NsValProvenance *found = NULL;
  NsValidation *v;

  v = load_ok (fx);
  ck_assert (ns_validation_check_fits (v, conflicts, provenance, NULL));
  for (guint i = 0; i < provenance->len; i++) {
    const NsValProvenance *pv = provenance->pdata[i];
    if (!strcmp (pv->value, "1.7"))
      found = pv;
  }
  ck_assert_ptr_nonnull (found);
  ck_assert_str_eq (found->scope, "scenario call-chain.xml");
  ck_assert_str_eq (found->profile, "generic");
  ck_assert (found->fitted);
  ck_assert_uint_eq (conflicts->len, 1);
  ck_assert_ptr_nonnull (strstr (conflicts->pdata[0], "900-safe-ret"));
  ns_validation_free (v);
  g_ptr_array_unref (conflicts);
  g_ptr_array_unref (provenance);
  remove_tree (tmp);
}
END_TEST

/* A fixed parameter whose source takes a validation row as its evidence is a fit on that
 * row, which only a free parameter may be: a conflict, once per row however often named
 * (a full stop ending the sentence ends the id); a source that names no row is none (an
 * id inside a longer one: a character of [0-9A-Za-z_.+-] next to it, or a full stop
 * followed by one). */
START_TEST (test_fixed_param_fitted_on_row)
{
  static const struct { const char *source; gboolean names; } sources[] = {
    { "host walk, 2026-12-04 (measured; not rows x900-safe-ret, 900-safe-ret.b or "
      "900-safe-retx)", FALSE },
    { "not 900-safe-ret_2, 900-safe-ret+b, 900-safe-ret-b, +900-safe-ret, -900-safe-ret, "
      "_900-safe-ret, .900-safe-ret or 900-safe-ret._x", FALSE },
    { "fitted so that it matches 900-safe-ret. And 900-safe-ret again", TRUE },
    { "fitted so that it matches 900-safe-ret.", TRUE },
    { "900-safe-ret", TRUE },
    { "(900-safe-ret)", TRUE },
  };
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *profile = g_build_filename (tmp, "scenarios/cpus/generic.xml", NULL);
  GPtrArray *conflicts = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *provenance = g_ptr_array_new_with_free_func (ns_val_provenance_free);
  NsCpuProfile *profile_loaded;
  guint n_unset = 0;

  for (guint i = 0; i < G_N_ELEMENTS (sources); i++) {
    NsValidation *v;
    ck_assert (ns_calibrate_write_profile (profile, "branch.resolve_cycles", "9.0",
                                           sources[i].source, NULL));
    g_ptr_array_set_size (conflicts, 0);
    g_ptr_array_set_size (provenance, 0);  /* a profile already listed is not checked again */
    v = load_ok (fx);
    ck_assert (ns_validation_check_fits (v, conflicts, provenance, NULL));
    ck_assert_msg (conflicts->len == (sources[i].names ? 1 : 0), "%s: %u conflicts",
                   sources[i].source, conflicts->len);
    ck_assert (!sources[i].names ||
               strstr (conflicts->pdata[0], "900-safe-ret: branch.resolve_cycles = 9.0 of "
                       "profile generic names the row in its source"));
    ck_assert (ns_validation_check_fits (v, conflicts, provenance, NULL));
    ck_assert_uint_eq (conflicts->len, sources[i].names ? 1 : 0);   /* listed: not again */
    ns_validation_free (v);
  }
  profile_loaded = ns_cpu_profile_load ("generic", NULL);
  /* a free value the profile sets has its line, one it leaves to the registry none */
  for (guint i = 0; i < provenance->len; i++) {
    const NsValProvenance *pv = provenance->pdata[i];
    gboolean set;
    if (strcmp (pv->scope, "profile"))
      continue;
    set = ns_cpu_profile_param_line (profile_loaded, pv->param) > 0;
    ck_assert_msg (set ? pv->where && g_str_has_prefix (pv->where, profile) : !pv->where,
                   "%s: %s", pv->param, pv->where ? pv->where : "(none)");
    n_unset += !set;
  }
  ck_assert_uint_gt (n_unset, 0);
  ns_cpu_profile_free (profile_loaded);
  g_ptr_array_unref (conflicts);
  g_ptr_array_unref (provenance);
  remove_tree (tmp);
}
END_TEST

/* A scenario validate runs may set only free parameters itself: any other is a per-case
 * value, a conflict whatever its source says. */
START_TEST (test_scenario_fixed_param_conflict)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *scenario = scenario_with (tmp, "<param name=\"branch.resolve_cycles\" "
                                                  "value=\"9\" source=\"measured\"/>");
  GPtrArray *conflicts = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *provenance = g_ptr_array_new_with_free_func (ns_val_provenance_free);
  NsValidation *v = load_ok (fx);
  NsValReport *r;

  ck_assert (ns_validation_check_fits (v, conflicts, provenance, NULL));
  ck_assert_uint_eq (conflicts->len, 1);
  ck_assert_ptr_nonnull (strstr (conflicts->pdata[0], "scenario call-chain.xml sets "
                                                      "branch.resolve_cycles = 9 itself"));
  r = run_rows (v, (const char *const[]) { "900-safe-ret", NULL }, 1);
  ck_assert_int_eq (ns_validation_exit_status (r), 1);
  ns_val_report_free (r);
  ns_validation_free (v);
  g_ptr_array_unref (conflicts);
  g_ptr_array_unref (provenance);
  remove_tree (tmp);
}
END_TEST

/* A fit whose source names no recorded row (as a scenario's own fit may) is a conflict
 * until calibration.xml records the fit of that value; then its rows are calibration rows. */
START_TEST (test_unrecorded_fit_conflict)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *profile = g_build_filename (tmp, "scenarios/cpus/generic.xml", NULL);
  g_autofree char *record = g_build_filename (fx, "calibration.xml", NULL);
  GPtrArray *conflicts = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *provenance = g_ptr_array_new_with_free_func (ns_val_provenance_free);
  NsValidation *v;
  NsValReport *r;

  ck_assert (ns_calibrate_write_profile (profile, "cpu.ipc", "1.5",
                                         "fit on the safe-ret row by hand, residual 1%", NULL));
  v = load_ok (fx);
  ck_assert (ns_validation_check_fits (v, conflicts, provenance, NULL));
  ck_assert_uint_eq (conflicts->len, 1);
  ck_assert_ptr_nonnull (strstr (conflicts->pdata[0], "names no recorded row id"));
  ns_validation_free (v);
  ck_assert (g_file_set_contents (record, "<calibration>\n  <fit profile=\"generic\" "
                                  "param=\"cpu.ipc\" value=\"1.50\" residual=\"0.002\" "
                                  "target=\"baseline\" rows=\"900-safe-ret\"/>\n"
                                  "</calibration>\n", -1, NULL));
  v = load_ok (fx);
  r = run_rows (v, (const char *const[]) { "900-safe-ret", NULL }, 1);
  ck_assert_uint_eq (r->conflicts->len, 0);
  ck_assert (outcome (r, "900-safe-ret")->calibration);
  ck_assert_uint_eq (r->calibration.rows, 1);
  ck_assert_uint_eq (ns_validation_drifted_fits (r), 0);   /* its row is where it was fitted */
  ns_val_report_free (r);
  ns_validation_free (v);
  /* the record of another value of that parameter still names the rows: the value in use
   * is not the recorded fit, a conflict */
  ck_assert (g_file_set_contents (record, "<calibration>\n  <fit profile=\"generic\" "
                                  "param=\"cpu.ipc\" value=\"1.4\" residual=\"0.002\" "
                                  "target=\"baseline\" rows=\"900-safe-ret\"/>\n"
                                  "</calibration>\n", -1, NULL));
  v = load_ok (fx);
  r = run_rows (v, (const char *const[]) { "900-safe-ret", NULL }, 1);
  ck_assert_uint_eq (r->conflicts->len, 1);
  ck_assert_ptr_nonnull (strstr (r->conflicts->pdata[0], "differs from the recorded fit"));
  ck_assert_ptr_nonnull (((NsValProvenance *) r->provenance->pdata[0])->stale);
  ns_val_report_free (r);
  ns_validation_free (v);
  g_ptr_array_unref (conflicts);
  g_ptr_array_unref (provenance);
  remove_tree (tmp);
}
END_TEST

/* Writes cpu.ipc = 1.5 "fit on 900-calib" into the fixture's generic profile and records
 * that fit in its calibration.xml (record), which makes 900-calib a calibration row. */
static void
fit_ipc_on_900_calib (const char *profile, const char *record)
{
  ck_assert (ns_calibrate_write_profile (profile, "cpu.ipc", "1.5",
                                         "fit on 900-calib, residual 0", NULL));
  ck_assert (g_file_set_contents (record, "<calibration>\n  <fit profile=\"generic\" "
                                  "param=\"cpu.ipc\" value=\"1.5\" residual=\"0\" "
                                  "target=\"baseline\" rows=\"900-calib\"/>\n"
                                  "</calibration>\n", -1, NULL));
}

/* The line of path that holds needle (1-based); the test fails if none does. */
static int
line_of (const char *path, const char *needle)
{
  g_autofree char *text = NULL;
  guint line;

  ck_assert (g_file_get_contents (path, &text, NULL, NULL));
  line = line_of_text (text, needle);
  ck_assert_uint_gt (line, 0);
  return (int) line;
}

/* A fit whose value calibration.xml records, but whose source names a row that record
 * does not list (a validation row here), is a conflict at the <param>'s file:line naming
 * that row, listed once however many scopes list the value; the rows it names that the
 * record lists are fine. Until 2026-12-04 the record's rows replaced the source's
 * unseen. */
START_TEST (test_fit_names_unrecorded_row)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *record = g_build_filename (fx, "calibration.xml", NULL);
  g_autofree char *scenario = scenario_with (tmp, "<param name=\"cpu.ipc\" value=\"2.0\" "
                                                  "source=\"fit on 900-calib 900-safe-ret, "
                                                  "residual 0\"/>");
  g_autofree char *where = g_strdup_printf ("%s:%d: cpu.ipc = 2.0 of profile generic is a fit "
                                            "on row 900-safe-ret", scenario,
                                            line_of (scenario, "name=\"cpu.ipc\""));
  GPtrArray *conflicts = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *provenance = g_ptr_array_new_with_free_func (ns_val_provenance_free);
  const NsValProvenance *pv = NULL;
  NsValidation *v;
  NsValReport *r;

  ck_assert (g_file_set_contents (record, "<calibration>\n  <fit profile=\"generic\" "
                                  "param=\"cpu.ipc\" value=\"2.0\" residual=\"0\" "
                                  "target=\"baseline\" rows=\"900-calib\"/>\n"
                                  "</calibration>\n", -1, NULL));
  v = load_ok (fx);
  ck_assert (ns_validation_check_fits (v, conflicts, provenance, NULL));
  ck_assert_msg (conflicts->len == 1 && g_str_has_prefix (conflicts->pdata[0], where) &&
                 strstr (conflicts->pdata[0], "records the fit of that value on 900-calib "
                                              "only"),
                 "%u: %s", conflicts->len, conflicts->len ? (char *) conflicts->pdata[0] : "");
  for (guint i = 0; i < provenance->len; i++)
    if (!strcmp (((NsValProvenance *) provenance->pdata[i])->value, "2.0"))
      pv = provenance->pdata[i];
  ck_assert_ptr_nonnull (pv);
  ck_assert (!pv->recorded);
  ck_assert_str_eq (pv->unrecorded[0], "900-safe-ret");
  ck_assert_ptr_null (pv->unrecorded[1]);
  r = run_rows (v, (const char *const[]) { "900-calib", NULL }, 1);
  ck_assert_uint_eq (r->conflicts->len, 1);
  ck_assert (g_str_has_prefix (r->conflicts->pdata[0], where));
  ck_assert_int_eq (ns_validation_exit_status (r), 1);
  ns_val_report_free (r);
  ns_validation_free (v);
  /* naming only the recorded row is the recorded fit */
  edit_file (scenario, "fit on 900-calib 900-safe-ret", "fit on 900-calib");
  v = load_ok (fx);
  r = run_rows (v, (const char *const[]) { "900-calib", NULL }, 1);
  ck_assert_msg (r->conflicts->len == 0, "%s", (char *) r->conflicts->pdata[0]);
  ck_assert_int_eq (ns_validation_exit_status (r), 0);
  ns_val_report_free (r);
  ns_validation_free (v);
  g_ptr_array_unref (conflicts);
  g_ptr_array_unref (provenance);
  remove_tree (tmp);
}
END_TEST

/* A row whose two runs are a calibration row's (900-safe-ret's case runs the variants of
 * 900-calib's, its metric set being the scenario's own) counts as calibration too, and the
 * outputs say whose runs they are, whether or not that row is selected; a row with other
 * runs (900-unret) stays validation, until its case names a variant that, under another
 * name, makes the same document as 900-calib's. */
START_TEST (test_same_runs_as_calibration)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *profile = g_build_filename (tmp, "scenarios/cpus/generic.xml", NULL);
  g_autofree char *record = g_build_filename (fx, "calibration.xml", NULL);
  g_autofree char *cases = g_build_filename (fx, "cases.xml", NULL);
  g_autofree char *scenario = g_build_filename (tmp, "scenarios/micro/call-chain.xml", NULL);
  GString *table = g_string_new (NULL), *csv = g_string_new (NULL);
  NsValidation *v;
  NsValReport *r;

  fit_ipc_on_900_calib (profile, record);
  v = load_ok (fx);
  r = run_rows (v, (const char *const[]) { "900-safe-ret", "900-unret", NULL }, 1);
  ck_assert (outcome (r, "900-safe-ret")->calibration);
  ck_assert_str_eq (outcome (r, "900-safe-ret")->same_runs_as, "900-calib");
  ck_assert (!outcome (r, "900-unret")->calibration);
  ck_assert_ptr_null (outcome (r, "900-unret")->same_runs_as);
  ck_assert_uint_eq (r->calibration.rows, 1);
  ck_assert_uint_eq (r->validation.rows, 1);
  ck_assert_uint_eq (r->conflicts->len, 0);
  /* 900-calib was not selected: 900-safe-ret's runs are the one simulation of its set */
  ck_assert_uint_eq (r->calibration.shared_runs, 0);
  ns_validation_write (table, r, NS_FORMAT_TABLE);
  ck_assert_msg (strstr (table->str, "900-safe-ret: the runs of 900-calib") != NULL, "%s",
                 table->str);
  ns_validation_write (csv, r, NS_FORMAT_CSV);
  ck_assert_msg (strstr (csv->str, ",counted as calibration: its runs are those of 900-calib,")
                 != NULL, "%s", csv->str);
  ns_val_report_free (r);
  /* selected, 900-calib runs its own runs: 900-safe-ret shares them */
  r = run_rows (v, (const char *const[]) { "900-safe-ret", "900-calib", NULL }, 1);
  ck_assert_ptr_null (outcome (r, "900-calib")->same_runs_as);
  ck_assert_str_eq (outcome (r, "900-safe-ret")->same_runs_as, "900-calib");
  ck_assert_uint_eq (r->calibration.rows, 2);
  ck_assert_uint_eq (r->calibration.shared_runs, 1);
  ns_val_report_free (r);
  ns_validation_free (v);
  /* a variant of another name that makes the same document is the same run */
  edit_file (scenario, "<variants>", "<variants>\n    <variant name=\"safe-ret-again\">\n"
             "      <set path=\"kernel.cmdline\" value=\"spec_rstack_overflow=safe-ret\"/>\n"
             "    </variant>");
  edit_file (cases, "patched=\"retbleed-unret\"", "patched=\"safe-ret-again\"");
  v = load_ok (fx);
  r = run_rows (v, (const char *const[]) { "900-unret", NULL }, 1);
  ck_assert_str_eq (outcome (r, "900-unret")->same_runs_as, "900-calib");
  ns_val_report_free (r);
  ns_validation_free (v);
  /* ...and so is the same file named by another path */
  edit_file (cases, "<case row=\"900-unret\" scenario=\"scenarios/micro/call-chain.xml\"",
             "<case row=\"900-unret\" scenario=\"scenarios/micro/../micro/call-chain.xml\"");
  v = load_ok (fx);
  r = run_rows (v, (const char *const[]) { "900-unret", NULL }, 1);
  ck_assert_str_eq (outcome (r, "900-unret")->same_runs_as, "900-calib");
  ns_val_report_free (r);
  ns_validation_free (v);
  g_string_free (table, TRUE);
  g_string_free (csv, TRUE);
  remove_tree (tmp);
}
END_TEST

/* A recorded fit whose row has moved since (900-calib's figures are the model's at
 * cpu.ipc 2.0, the profile and the record say 1.5) no longer holds: noted once (the
 * scenario sets the same value too), exit status 1; not judged for a what-if, nor when a
 * pattern leaves its row out. */
START_TEST (test_drifted_fit)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *profile = g_build_filename (tmp, "scenarios/cpus/generic.xml", NULL);
  g_autofree char *scenario = scenario_with (tmp, "<param name=\"cpu.ipc\" value=\"1.5\" "
                                                  "source=\"fit on 900-calib, residual 0\"/>");
  g_autofree char *record = g_build_filename (fx, "calibration.xml", NULL);
  const char *const what_if[] = { "param.x86.pause_cycles=11", NULL };
  g_autoptr (GPtrArray) rows = NULL;
  NsValOptions opt = { .jobs = 1, .what_if = what_if };
  const NsValProvenance *pv;
  NsValidation *v;
  NsValReport *r;
  GString *out = g_string_new (NULL);

  fit_ipc_on_900_calib (profile, record);
  v = load_ok (fx);
  r = run_rows (v, (const char *const[]) { "900-calib", "900-safe-ret", NULL }, 1);
  ck_assert_uint_eq (r->conflicts->len, 0);
  ck_assert_uint_eq (r->provenance->len, 2);              /* profile and scenario */
  ck_assert_uint_eq (ns_validation_drifted_fits (r), 1);
  pv = r->provenance->pdata[0];
  if (pv->drifted == NULL)
    pv = r->provenance->pdata[1];
  ck_assert_ptr_nonnull (pv->drifted);
  ck_assert_ptr_nonnull (strstr (pv->drifted, "cpu.ipc = 1.5 for profile generic"));
  ck_assert_int_eq (outcome (r, "900-safe-ret")->status, NS_VAL_PASS);
  ck_assert_int_eq (ns_validation_exit_status (r), 1);
  ns_validation_write (out, r, NS_FORMAT_TABLE);
  ck_assert_msg (strstr (out->str, "FIT NO LONGER HOLDS: the fit cpu.ipc = 1.5") != NULL,
                 "%s", out->str);
  ns_val_report_free (r);
  /* without its row the fit is not judged */
  r = run_rows (v, (const char *const[]) { "900-safe-ret", NULL }, 1);
  ck_assert_uint_eq (ns_validation_drifted_fits (r), 0);
  ck_assert_int_eq (ns_validation_exit_status (r), 0);
  ns_val_report_free (r);
  /* nor in a what-if */
  rows = ns_validation_select (v, (const char *const[]) { "900-calib", NULL }, NULL);
  r = ns_validation_run (v, rows, &opt, NULL);
  ck_assert_ptr_nonnull (r);
  ck_assert_uint_eq (ns_validation_drifted_fits (r), 0);
  ns_val_report_free (r);
  ns_validation_free (v);
  g_string_free (out, TRUE);
  remove_tree (tmp);
}
END_TEST

/* A fitted value changed by hand, its source still naming its row (the scenario says
 * cpu.ipc 1.5 "fit on 900-calib", calibration.xml records 2.0, at which 900-calib's
 * figures were made): a conflict naming the recorded fit and netsim calibrate --fit, the
 * recorded fit judged (its row, run at 1.5, no longer gives its residual), exit status 1,
 * the stale note printed once (the scenario's and the run's entries share it). At the
 * recorded value nothing is wrong, and a what-if --set of the fitted parameter is no
 * conflict. */
START_TEST (test_fit_changed_by_hand)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *record = g_build_filename (fx, "calibration.xml", NULL);
  g_autofree char *scenario = scenario_with (tmp, "<param name=\"cpu.ipc\" value=\"2.0\" "
                                                  "source=\"fit on 900-calib, residual 0\"/>");
  const char *const sets[] = { "param.cpu.ipc=1.5", NULL };
  const char *const lines[] = { "every run with --set param.cpu.ipc=1.5", NULL };
  NsValOptions what_if = { .jobs = 1, .sets = sets, .what_if = lines };
  g_autoptr (GPtrArray) rows = NULL;
  GString *out = g_string_new (NULL);
  GPtrArray *conflicts = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *provenance = g_ptr_array_new_with_free_func (ns_val_provenance_free);
  NsValidation *v;
  NsValReport *r;

  ck_assert (g_file_set_contents (record, "<calibration>\n  <fit profile=\"generic\" "
                                  "param=\"cpu.ipc\" value=\"2.0\" residual=\"0\" "
                                  "target=\"baseline\" rows=\"900-calib\"/>\n"
                                  "</calibration>\n", -1, NULL));
  v = load_ok (fx);
  r = run_rows (v, (const char *const[]) { "900-calib", NULL }, 1);
  ck_assert_msg (r->conflicts->len == 0, "%s", (char *) r->conflicts->pdata[0]);
  ck_assert_uint_eq (ns_validation_drifted_fits (r), 0);
  ck_assert_int_eq (ns_validation_exit_status (r), 0);
  ns_val_report_free (r);
  rows = ns_validation_select (v, (const char *const[]) { "900-calib", NULL }, NULL);
  r = ns_validation_run (v, rows, &what_if, NULL);
  ck_assert_ptr_nonnull (r);
  ck_assert_msg (r->conflicts->len == 0, "%s", (char *) r->conflicts->pdata[0]);
  ns_val_report_free (r);
  ns_validation_free (v);
  edit_file (scenario, "value=\"2.0\" source=\"fit on 900-calib", "value=\"1.5\" source=\"fit on "
             "900-calib");
  v = load_ok (fx);
  r = run_rows (v, (const char *const[]) { "900-calib", NULL }, 1);
  ck_assert_uint_eq (r->conflicts->len, 1);
  ck_assert_msg (strstr (r->conflicts->pdata[0], "cpu.ipc = 1.5 on profile generic") &&
                 strstr (r->conflicts->pdata[0], "differs from the recorded fit, cpu.ipc = 2.0") &&
                 strstr (r->conflicts->pdata[0], "netsim calibrate --fit 900-calib"), "%s",
                 (char *) r->conflicts->pdata[0]);
  ck_assert_uint_eq (ns_validation_drifted_fits (r), 1);
  ck_assert_int_eq (ns_validation_exit_status (r), 1);
  ns_validation_write (out, r, NS_FORMAT_TABLE);
  ck_assert_msg (count_occurrences (out->str,
                                    "\nnote: calibration.xml records cpu.ipc = 2.0") == 1,
                 "%s", out->str);
  ck_assert_ptr_nonnull (strstr (out->str, "FIT NO LONGER HOLDS: the fit cpu.ipc = 2.0"));
  ns_val_report_free (r);
  /* the scenario's own value is in use: the check of the fits finds it before any run */
  ck_assert (ns_validation_check_fits (v, conflicts, provenance, NULL));
  ck_assert_msg (conflicts->len == 1 &&
                 strstr (conflicts->pdata[0], "cpu.ipc = 1.5 on profile generic (scenario "
                         "call-chain.xml, 'fit on 900-calib, residual 0') differs from the "
                         "recorded fit, cpu.ipc = 2.0 on 900-calib"), "%u: %s", conflicts->len,
                 conflicts->len ? (char *) conflicts->pdata[0] : "");
  g_ptr_array_unref (conflicts);
  g_ptr_array_unref (provenance);
  ns_validation_free (v);
  g_string_free (out, TRUE);
  remove_tree (tmp);
}
END_TEST

/* A calibration.xml fit that no value in use is makes no calibration row: an entry for a
 * row measured on another profile, or for a profile and parameter whose value (generic's
 * registry cpu.ipc, no "fit on" source) is not a fit. Each leaves 900-calib a validation
 * row and is a conflict naming the entry and why. */
START_TEST (test_unbacked_fit_conflict)
{
  const char *const entries[][2] = {
    { "profile=\"generic\"", "sets cpu.ipc with a source \"fit on" },
  };
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *record = g_build_filename (fx, "calibration.xml", NULL);
  g_autofree char *seed = g_build_filename (fx, "seed-900.xml", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (entries) + 1; i++) {
    const char *who = i < G_N_ELEMENTS (entries) ? entries[i][0] : "profile=\"generic\"";
    const char *why = i < G_N_ELEMENTS (entries) ? entries[i][1]
                      : "row 900-calib was measured on profile 'another'";
    g_autofree char *text = g_strdup_printf ("<calibration>\n  <fit %s param=\"cpu.ipc\" "
                                             "value=\"1\" residual=\"0\" target=\"delta\" "
                                             "rows=\"900-calib\"/>\n</calibration>\n", who);
    GPtrArray *conflicts = g_ptr_array_new_with_free_func (g_free);
    GPtrArray *provenance = g_ptr_array_new_with_free_func (ns_val_provenance_free);
    NsValidation *v;
    gboolean named = FALSE;

    if (i == G_N_ELEMENTS (entries))    /* the row recorded on another profile */
      edit_file (seed, "profile=\"generic\"", "profile=\"another\"");
    ck_assert (g_file_set_contents (record, text, -1, NULL));
    v = load_ok (fx);
    ck_assert_msg (!ns_validation_is_calibration (v, "900-calib"), "%s", who);
    ck_assert (ns_validation_check_fits (v, conflicts, provenance, NULL) ||
               i == G_N_ELEMENTS (entries));
    for (guint k = 0; k < conflicts->len; k++)
      named |= strstr (conflicts->pdata[k], "calibration.xml: the fit of") &&
               strstr (conflicts->pdata[k], "not backed") && strstr (conflicts->pdata[k], why);
    ck_assert_msg (named, "%s: no conflict saying '%s' among %u", who, why, conflicts->len);
    ns_validation_free (v);
    g_ptr_array_unref (conflicts);
    g_ptr_array_unref (provenance);
  }
  remove_tree (tmp);
}
END_TEST

/* A fit naming no CPU profile netsim has (a typo, a name of another case, a path, which
 * would open a file relative to the working folder) is bad input at its calibration.xml
 * line, not a fit that is no longer backed (until 2026-12-04: exit 1, no line). */
START_TEST (test_fit_profile_refused)
{
  static const char *const bad[] = { "nonexistent", "GENERIC", "../../etc/passwd",
                                     "generic.xml", "cpus/generic" };
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *record = g_build_filename (fx, "calibration.xml", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
    g_autofree char *xml = g_strdup_printf ("<calibration>\n  <fit profile=\"%s\" "
                                            "param=\"cpu.ipc\" value=\"1\" residual=\"0\" "
                                            "target=\"delta\" rows=\"900-calib\"/>\n"
                                            "</calibration>\n", bad[i]);
    g_autofree char *what = g_strdup_printf ("profile '%s' is not a CPU profile netsim has",
                                             bad[i]);
    GError *error = NULL;

    ck_assert (g_file_set_contents (record, xml, -1, NULL));
    ck_assert_ptr_null (ns_validation_load (fx, &error));
    ck_assert (g_error_matches (error, NS_ERROR, NS_ERROR_INPUT));
    ck_assert_msg (strstr (error->message, "calibration.xml:2: ") &&
                   strstr (error->message, what), "%s", error->message);
    g_error_free (error);
  }
  remove_tree (tmp);
}
END_TEST

/* Two calibration.xml fits of one profile and parameter are refused when it loads, at the
 * second's file:line: one fit per profile and parameter. */
START_TEST (test_duplicate_fit_refused)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *record = g_build_filename (fx, "calibration.xml", NULL);
  GError *error = NULL;

  ck_assert (g_file_set_contents (record, "<calibration>\n  <fit profile=\"generic\" "
                                  "param=\"cpu.ipc\" value=\"2\" residual=\"0\" target=\"baseline\" "
                                  "rows=\"900-calib\"/>\n  <fit profile=\"generic\" param=\"cpu.ipc\" "
                                  "value=\"1.5\" residual=\"0\" target=\"baseline\" "
                                  "rows=\"900-safe-ret\"/>\n</calibration>\n", -1, NULL));
  ck_assert_ptr_null (ns_validation_load (fx, &error));
  ck_assert_msg (strstr (error->message, "calibration.xml:3") &&
                 strstr (error->message, "one fit per profile and parameter"), "%s",
                 error->message);
  g_error_free (error);
  remove_tree (tmp);
}
END_TEST

/* A fit's value must be one its parameter takes, and its residual a number from 0 to the
 * most netsim calibrate writes: a hand-edited residual of 1e9 switched the "fit no longer
 * holds" check off, one of "abc" was printed as is (until 2026-12-04). */
START_TEST (test_fit_numbers_refused)
{
  static const char *const bad[][3] = {       /* value, residual, what the error names */
    { "1.5", "1e9", "residual '1e9': expected a number from 0 to 0.002" },
    { "1.5", "abc", "residual 'abc': expected a number" },
    { "1.5", "-1", "residual '-1': expected a number" },
    { "1.5", "inf", "residual 'inf': expected a number" },
    { "1.4x5", "0", "value '1.4x5'" },
  };
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *record = g_build_filename (fx, "calibration.xml", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
    g_autofree char *xml = g_strdup_printf ("<calibration>\n  <fit profile=\"generic\" "
                                            "param=\"cpu.ipc\" value=\"%s\" residual=\"%s\" "
                                            "target=\"baseline\" rows=\"900-calib\"/>\n"
                                            "</calibration>\n", bad[i][0], bad[i][1]);
    GError *error = NULL;

    ck_assert (g_file_set_contents (record, xml, -1, NULL));
    ck_assert_ptr_null (ns_validation_load (fx, &error));
    ck_assert_int_eq (error->code, NS_ERROR_INPUT);
    ck_assert_msg (strstr (error->message, "calibration.xml:2") &&
                   strstr (error->message, bad[i][2]), "%s", error->message);
    g_error_free (error);
  }
  remove_tree (tmp);
}
END_TEST

/* The fixture with each edits[i][0] replaced by edits[i][1] in its file edits[i][2] loads
 * and gives row's case a unit scale of scale. */
static void
assert_unit_scale (const char *datadir, const char *const (*edits)[3], guint n,
                   const char *row, double scale)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = edited_fixture (datadir, edits, n, &fx);
  NsValidation *v = load_ok (fx);

  ck_assert_double_eq_tol (ns_validation_case (v, row)->unit_scale, scale, scale * 1e-12);
  ns_validation_free (v);
  remove_tree (tmp);
}

/* cases.xml's own mistakes are refused at its file:line: a case of a row no seed file
 * records, a second case of one row, a unit-scale that is no unit conversion (a power of
 * ten, times 1.024^k for |k| ≤ 4, within 10^±12), a file that is not XML; the scales at
 * the edges of the rule load. */
START_TEST (test_cases_refused)
{
  static const struct { const char *from, *to, *needle; } bad[] = {
    { "<case row=\"900-reason\"", "<case row=\"900-nope\"",
      "cases.xml:16: case for row '900-nope', which is not recorded in any seed-*.xml" },
    { "<case row=\"900-tight\"", "<case row=\"900-reason\"",
      "cases.xml:19: row '900-reason' has a second case (the first is at " },
    { "</cases>", "", "cases.xml:" },
  };
  static const char *const fudge[] = { "1.5", "0", "-1000", "1e13", "1e-13",
                                       "1.125899906842624" };  /* 1.024^5 */
  static const struct { const char *scale; double value; } unit[] = {
    { "1.099511627776", 1.099511627776 },                     /* 1.024^4 */
    { "0.0009094947017729282", 1e-3 / 1.099511627776 },       /* 10^-3 × 1.024^-4 */
    { "1e12", 1e12 }, { "1e-12", 1e-12 }, { "0.001", 1e-3 },
  };
  g_autofree char *datadir = g_strdup (g_getenv ("NETSIM_DATADIR"));

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
    const char *const edits[][3] = { { bad[i].from, bad[i].to, "cases.xml" } };
    assert_load_refused (datadir, edits, 1, "cases.xml:", bad[i].needle);
  }
  for (guint i = 0; i < G_N_ELEMENTS (fudge); i++) {
    g_autofree char *to = g_strdup_printf ("<case unit-scale=\"%s\" row=\"900-unret\"",
                                           fudge[i]);
    g_autofree char *needle = g_strdup_printf ("cases.xml:6: unit-scale '%s': expected a unit "
                                               "conversion", fudge[i]);
    const char *const edits[][3] = { { "<case row=\"900-unret\"", to, "cases.xml" } };
    assert_load_refused (datadir, edits, 1, "cases.xml:", needle);
  }
  for (guint i = 0; i < G_N_ELEMENTS (unit); i++) {
    g_autofree char *to = g_strdup_printf ("<case unit-scale=\"%s\" row=\"900-unret\"",
                                           unit[i].scale);
    const char *const edits[][3] = { { "<case row=\"900-unret\"", to, "cases.xml" } };
    assert_unit_scale (datadir, edits, 1, "900-unret", unit[i].value);
  }
}
END_TEST

/* calibration.xml's own mistakes are refused at its file:line (a fit naming a row no seed
 * file records, a file that is not XML); a fit whose rows have no case or a case without
 * a scenario loads, unbacked: neither a scenario nor the profile sets its value. */
START_TEST (test_calibration_record_edges)
{
  static const struct { const char *xml, *needle; } bad[] = {
    { "<calibration>\n  <fit profile=\"generic\" param=\"cpu.ipc\" value=\"1\" residual=\"0\" "
      "target=\"delta\" rows=\"900-calib 900-nope\"/>\n</calibration>\n",
      "calibration.xml:2: fit of generic cpu.ipc names row '900-nope', which is not recorded" },
    { "<calibration>\n  <fit profile=\"generic\"", "calibration.xml:" },
  };
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *record = g_build_filename (fx, "calibration.xml", NULL);
  const NsValFit *fit;
  NsValidation *v;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
    GError *error = NULL;
    ck_assert (g_file_set_contents (record, bad[i].xml, -1, NULL));
    ck_assert_ptr_null (ns_validation_load (fx, &error));
    ck_assert_int_eq (error->code, NS_ERROR_INPUT);
    ck_assert_msg (strstr (error->message, bad[i].needle), "%s", error->message);
    g_error_free (error);
  }
  ck_assert (g_file_set_contents (record, "<calibration>\n  <fit profile=\"generic\" "
                                  "param=\"cpu.ipc\" value=\"1\" residual=\"0\" "
                                  "target=\"delta\" rows=\"900-reason 900-no-case\"/>\n"
                                  "</calibration>\n", -1, NULL));
  v = load_ok (fx);
  fit = ns_validation_fits (v)->pdata[0];
  ck_assert_msg (fit->unbacked && strstr (fit->unbacked, "neither the scenario of its rows "
                                          "nor profile generic sets cpu.ipc"), "%s",
                 fit->unbacked);
  ck_assert (!ns_validation_is_calibration (v, "900-reason"));
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* ---- no parameter per validation case ---- */

/* A case's <set> of a parameter (param.NAME, or param[i].value reaching the scenario's
 * own <param>) or of the CPU profile is refused when cases.xml loads, at file:line, saying
 * why (a value set this way escaped the fit checks: its source was "command line: --set");
 * other sets (measure.duration) stay allowed. */
START_TEST (test_case_param_set_refused)
{
  const char *const refused[][2] = {
    { "<set path=\"param.call.cycles\" value=\"3\"/>", "no parameter per validation case" },
    { "<set path=\"param[1].value\" value=\"3\"/>", "no parameter per validation case" },
    { "<set path=\"cpu.profile\" value=\"generic\"/>", "profile of the CPU" },
    { "<set path=\"kernel.cmdline\" value=\"spectre_v2=off\"/>", "changes the kernel" },
    { "<set path=\"kernel[1].config.CONFIG_X\" value=\"y\"/>", "changes the kernel" },
    { "<set path=\"kernel.patch[1].name\" value=\"x\"/>", "changes the kernel" },
  };
  g_autofree char *datadir = g_strdup (g_getenv ("NETSIM_DATADIR"));

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++) {
    g_autofree char *tmp = scratch_from (datadir);
    g_autofree char *cases = g_build_filename (tmp, "fx", "cases.xml", NULL);
    g_autofree char *fx = g_build_filename (tmp, "fx", NULL);
    g_autofree char *to = g_strdup_printf ("%s\n    <set path=\"measure.duration\"",
                                           refused[i][0]);
    GError *error = NULL;

    edit_file (cases, "<set path=\"measure.duration\"", to);
    ck_assert_ptr_null (ns_validation_load (fx, &error));
    ck_assert_int_eq (error->code, NS_ERROR_INPUT);
    ck_assert_msg (strstr (error->message, "cases.xml:") && strstr (error->message, "900-broken")
                   && strstr (error->message, refused[i][1]), "%s", error->message);
    g_error_free (error);
    remove_tree (tmp);
  }
}
END_TEST

/* A parameter set by a variant a row runs is refused too: the row is an error (not
 * judged) and a conflict names the variant and the set, exit status 1; the same set in a
 * variant no selected row runs changes nothing. */
START_TEST (test_variant_param_set_refused)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *scenario = g_build_filename (tmp, "scenarios/micro/call-chain.xml", NULL);
  NsValidation *v;
  NsValReport *r;
  const NsValOutcome *o;

  edit_file (scenario, "<variant name=\"srso-safe-ret\">", "<variant name=\"srso-safe-ret\">\n"
             "      <set path=\"param.call.cycles\" value=\"3\"/>");
  v = load_ok (fx);
  r = run_rows (v, (const char *const[]) { "900-safe-ret", NULL }, 1);
  o = outcome (r, "900-safe-ret");
  ck_assert_int_eq (o->status, NS_VAL_ERROR);
  ck_assert_msg (strstr (o->reason, "variant 'srso-safe-ret'") &&
                 strstr (o->reason, "param.call.cycles") &&
                 strstr (o->reason, "no parameter per validation case"), "%s", o->reason);
  ck_assert_uint_eq (r->conflicts->len, 1);
  ck_assert_str_eq (r->conflicts->pdata[0], o->reason);
  ck_assert_int_eq (ns_validation_exit_status (r), 1);
  ns_val_report_free (r);
  r = run_rows (v, (const char *const[]) { "900-unret", NULL }, 1);   /* plain, unret */
  ck_assert_int_eq (outcome (r, "900-unret")->status, NS_VAL_FAIL);
  ck_assert_uint_eq (r->conflicts->len, 0);
  ns_val_report_free (r);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* ---- what-if (netsim validate --set) ---- */

/* A row's run sets: the case's, then every run's, then its profile's (only its own). */
START_TEST (test_run_sets_order)
{
  g_autofree char *tmp = NULL;
  NsValidation *v = load_fixture (&tmp);
  const char *const every[] = { "param.call.cycles=3", NULL };
  const char *const mine[] = { "param.cpu.ipc=1.25", NULL };
  const char *const other[] = { "param.cpu.ipc=9", NULL };
  g_autoptr (GHashTable) per_profile = g_hash_table_new (g_str_hash, g_str_equal);
  NsValOptions opt = { .sets = every };
  g_auto (GStrv) plain = NULL, broken = NULL, none = NULL;

  g_hash_table_insert (per_profile, "generic", (gpointer) mine);
  g_hash_table_insert (per_profile, "another", (gpointer) other);
  opt.profile_sets = per_profile;
  broken = ns_validation_run_sets (v, ns_validation_find_row (v, "900-broken"), &opt);
  ck_assert_uint_eq (g_strv_length (broken), 3);
  ck_assert_str_eq (broken[0], "measure.duration=0");
  ck_assert_str_eq (broken[1], "param.call.cycles=3");
  ck_assert_str_eq (broken[2], "param.cpu.ipc=1.25");
  plain = ns_validation_run_sets (v, ns_validation_find_row (v, "900-calib"),
                                  &(NsValOptions) { 0 });
  ck_assert_uint_eq (g_strv_length (plain), 0);
  none = ns_validation_run_sets (v, ns_validation_find_row (v, "900-reason"), &opt);
  ck_assert_uint_eq (g_strv_length (none), 0);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* A --set of what a case sets itself replaces the case's set (netsim validate --set
 * workload.clone-skb=1000 on a case setting it to 0 was refused as two --sets of one
 * attribute, naming a --set the user never typed): the case's set is left out, the row
 * runs with the user's and judges as netsim run would with it. */
START_TEST (test_what_if_replaces_case_set)
{
  g_autofree char *tmp = NULL;
  NsValidation *v = load_fixture (&tmp);
  const char *const sets[] = { "measure[01].duration=50us", NULL };
  const char *const plain[] = { "measure.duration=50us", NULL };
  const char *const cycles[] = { "param.call.cycles=3", NULL };
  NsValOptions opt = { .sets = sets };
  GPtrArray *rows = ns_validation_select (v, (const char *const[]) { "900-broken", NULL }, NULL);
  g_auto (GStrv) run_sets = ns_validation_run_sets (v, rows->pdata[0], &opt);
  g_auto (GStrv) kept = NULL;
  GError *error = NULL;
  NsValReport *r;
  const NsValOutcome *o;

  ck_assert_uint_eq (g_strv_length (run_sets), 1);     /* the case's measure.duration=0 out */
  ck_assert_str_eq (run_sets[0], "measure[01].duration=50us");
  kept = ns_validation_run_sets (v, rows->pdata[0], &(NsValOptions) { .sets = cycles });
  ck_assert_uint_eq (g_strv_length (kept), 2);          /* another attribute: both */
  ck_assert_str_eq (kept[0], "measure.duration=0");
  ck_assert (ns_validation_check_sets (v, rows, &opt, NULL));
  r = ns_validation_run (v, rows, &opt, &error);
  ck_assert_msg (r != NULL, "%s", error ? error->message : "?");
  o = outcome (r, "900-broken");
  ck_assert_msg (o->status != NS_VAL_ERROR, "900-broken: %s", o->reason);
  ck_assert_double_eq_tol (o->sim_baseline, call_chain_value ("plain-ret", plain), 1e-9);
  ns_val_report_free (r);
  g_ptr_array_unref (rows);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* A --set of the metric is refused before anything runs, naming the case (its cases.xml
 * line) and the metric the recorded delta is in: a delta in another means nothing. */
START_TEST (test_what_if_metric_refused)
{
  g_autofree char *tmp = NULL;
  NsValidation *v = load_fixture (&tmp);
  const char *const sets[] = { "measure[1].metric=cycles_per_load", NULL };
  NsValOptions opt = { .sets = sets };
  GPtrArray *named = ns_validation_select (v, (const char *const[]) { "900-safe-ret", NULL },
                                           NULL);
  GPtrArray *own = ns_validation_select (v, (const char *const[]) { "900-calib", NULL }, NULL);
  GError *error = NULL;

  ck_assert (!ns_validation_check_sets (v, named, &opt, &error));
  ck_assert_int_eq (error->code, NS_ERROR_INPUT);
  ck_assert_msg (strstr (error->message, "--set measure[1].metric=cycles_per_load: ") &&
                 strstr (error->message, "cases.xml:4: row 900-safe-ret is judged on metric "
                         "cycles_per_call (the case's metric=)"), "%s", error->message);
  g_clear_error (&error);
  ck_assert (!ns_validation_check_sets (v, own, &opt, &error));
  ck_assert_msg (strstr (error->message, "cases.xml:17: row 900-calib is judged on the metric "
                         "scenarios/micro/call-chain.xml measures"), "%s", error->message);
  g_clear_error (&error);
  g_ptr_array_unref (named);
  g_ptr_array_unref (own);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* A what-if runs every row with the sets (the figures move as netsim run's with them),
 * says so in every format, and a bad set is an input error before anything runs. */
START_TEST (test_what_if_run)
{
  g_autofree char *tmp = NULL;
  NsValidation *v = load_fixture (&tmp);
  const char *const sets[] = { "param.call.cycles=3", NULL };
  const char *const lines[] = { "every run with --set param.call.cycles=3", NULL };
  const char *const bad[] = { "param.no.such=1", NULL };
  NsValOptions opt = { .sets = sets, .what_if = lines };
  GPtrArray *rows = ns_validation_select (v, (const char *const[]) { "900-calib", NULL }, NULL);
  GString *out = g_string_new (NULL);
  GError *error = NULL;
  NsValReport *r;
  const NsValOutcome *o;

  ck_assert (ns_validation_check_sets (v, rows, &opt, NULL));
  r = ns_validation_run (v, rows, &opt, &error);
  ck_assert_msg (r != NULL, "%s", error ? error->message : "?");
  o = outcome (r, "900-calib");
  ck_assert_double_eq_tol (o->sim_baseline, call_chain_value ("plain-ret", sets), 1e-9);
  ck_assert_double_gt (fabs (o->sim_baseline - o->row->baseline), 0.05 * o->row->baseline);
  ck_assert_str_eq (o->sets[g_strv_length (o->sets) - 1], "param.call.cycles=3");
  ns_validation_write (out, r, NS_FORMAT_TABLE);
  ck_assert_ptr_nonnull (strstr (out->str, "\nWHAT-IF: every run with --set param.call.cycles=3\n"));
  g_string_truncate (out, 0);
  ns_validation_write (out, r, NS_FORMAT_CSV);
  ck_assert_ptr_nonnull (strstr (out->str, "\n# what-if: every run with --set param.call.cycles=3\n"));
  g_string_truncate (out, 0);
  ns_validation_write (out, r, NS_FORMAT_JSON);
  ck_assert_ptr_nonnull (strstr (out->str, "\"what_if\": [\n    \"every run with --set "
                                "param.call.cycles=3\"\n  ],"));
  ns_val_report_free (r);
  opt.sets = bad;
  ck_assert (!ns_validation_check_sets (v, rows, &opt, &error));
  ck_assert_int_eq (error->code, NS_ERROR_INPUT);
  ck_assert_ptr_nonnull (strstr (error->message, "param.no.such=1"));
  g_clear_error (&error);
  g_string_free (out, TRUE);
  g_ptr_array_unref (rows);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

START_TEST (test_parse_fit_source)
{
  g_autofree char *residual = NULL;
  g_auto (GStrv) rows = ns_validation_parse_fit_source ("fit on 000-ipv4-1G 002-r9-7950x-f1, "
                                                        "residual 0.0123", &residual);

  ck_assert_uint_eq (g_strv_length (rows), 2);
  ck_assert_str_eq (rows[1], "002-r9-7950x-f1");
  ck_assert_str_eq (residual, "0.0123");
  ck_assert_ptr_null (ns_validation_parse_fit_source ("UNSOURCED default", NULL));
  g_strfreev (rows);
  rows = ns_validation_parse_fit_source ("fit on  000-ipv4-1G ,  002-r9-7950x-f1", NULL);
  ck_assert_uint_eq (g_strv_length (rows), 2);   /* no empty words */
  ck_assert_str_eq (rows[0], "000-ipv4-1G");
  g_strfreev (rows);
  g_clear_pointer (&residual, g_free);
  rows = ns_validation_parse_fit_source ("fit on 900-calib", &residual);   /* no residual */
  ck_assert_uint_eq (g_strv_length (rows), 1);
  ck_assert_ptr_null (residual);
}
END_TEST

static Suite *
validate_suite (void)
{
  Suite *s = suite_create ("validate");
  TCase *recorded = tcase_create ("recorded");
  TCase *judge = tcase_create ("judge");
  TCase *run = tcase_create ("run");
  TCase *fits = tcase_create ("fits");

  tcase_add_test (recorded, test_recorded_complete);
  tcase_add_test (recorded, test_queries);
  tcase_add_test (recorded, test_recorded_facts);
  tcase_add_test (recorded, test_recorded_none_dropped);
  tcase_add_test (recorded, test_recorded_noise_refused);
  tcase_add_test (recorded, test_modelled_row_needs_profile);
  tcase_add_test (recorded, test_unknown_profile_at_row);
  tcase_add_test (recorded, test_recorded_figures_refused);
  tcase_add_test (recorded, test_pairs_refused);
  tcase_add_test (recorded, test_recorded_edges_refused);
  tcase_add_test (recorded, test_recorded_edges_accepted);
  tcase_add_unchecked_fixture (recorded, scratch_base_setup, scratch_base_teardown);
  suite_add_tcase (s, recorded);
  tcase_add_test (judge, test_tolerance_rule);
  tcase_add_test (judge, test_tolerance_looser_refused);
  tcase_add_test (judge, test_tolerance_negative_refused);
  tcase_add_test (judge, test_status_logic);
  tcase_add_test (judge, test_verdict_margin);
  tcase_add_test (judge, test_signs_monotone);
  tcase_add_test (judge, test_one_op_step);
  tcase_add_test (judge, test_delta_ci95);
  tcase_add_test (judge, test_select_patterns);
  tcase_add_test (judge, test_parse_fit_source);
  tcase_add_unchecked_fixture (judge, scratch_base_setup, scratch_base_teardown);
  suite_add_tcase (s, judge);
  tcase_add_test (run, test_fixture_statuses);
  tcase_add_test (run, test_summary_figures);
  tcase_add_test (run, test_runs_problem);
  tcase_add_test (run, test_run_seeds);
  tcase_add_test (run, test_zero_interval);
  tcase_add_test (run, test_facts_pairs_notes_selected);
  tcase_add_test (run, test_baseline_tolerance);
  tcase_add_test (run, test_case_errors_name_case_line);
  tcase_add_test (run, test_fixture_matches_run);
  tcase_add_test (run, test_jobs_identical);
  tcase_add_test (run, test_jobs_progress);
  tcase_add_test (run, test_outputs);
  tcase_add_test (run, test_pair_inside_interval);
  tcase_add_test (run, test_expected_regression);
  tcase_add_test (run, test_expected_rows_that_stop_running);
  tcase_add_test (run, test_expected_read_strictly);
  tcase_add_test (run, test_unsourced_listed);
  tcase_add_test (run, test_unstated_config_listed);
  tcase_add_unchecked_fixture (run, scratch_base_setup, scratch_base_teardown);
  suite_add_tcase (s, run);
  tcase_add_test (fits, test_fitted_and_validation_conflict);
  tcase_add_test (fits, test_unrecorded_fit_conflict);
  tcase_add_test (fits, test_fit_names_unrecorded_row);
  tcase_add_test (fits, test_fixed_param_fitted_on_row);
  tcase_add_test (fits, test_scenario_fixed_param_conflict);
  tcase_add_test (fits, test_same_runs_as_calibration);
  tcase_add_test (fits, test_drifted_fit);
  tcase_add_test (fits, test_scenario_fit_checked);
  tcase_add_test (fits, test_fit_changed_by_hand);
  tcase_add_test (fits, test_unbacked_fit_conflict);
  tcase_add_test (fits, test_fit_profile_refused);
  tcase_add_test (fits, test_duplicate_fit_refused);
  tcase_add_test (fits, test_case_param_set_refused);
  tcase_add_test (fits, test_fit_numbers_refused);
  tcase_add_test (fits, test_cases_refused);
  tcase_add_test (fits, test_calibration_record_edges);
  tcase_add_test (fits, test_variant_param_set_refused);
  tcase_add_test (run, test_run_sets_order);
  tcase_add_test (run, test_what_if_replaces_case_set);
  tcase_add_test (run, test_what_if_metric_refused);
  tcase_add_test (run, test_what_if_run);
  tcase_add_unchecked_fixture (fits, scratch_base_setup, scratch_base_teardown);
  suite_add_tcase (s, fits);
  return s;
}

int
main (void)
{
  SRunner *runner = srunner_create (validate_suite ());
  int failed;

  ns_param_registry_init ();
  srunner_run_all (runner, CK_NORMAL);
  failed = srunner_ntests_failed (runner);
  srunner_free (runner);
  return failed == 0 ? 0 : 1;
}
