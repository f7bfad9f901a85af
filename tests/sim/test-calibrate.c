/* test-calibrate.c — calibration (sim/calibrate.c): a fit of cpu.ipc on a fixture row
 * finds the value its figures were made at and writes it with its provenance, into the
 * profile or into the scenario that declares the parameter (directly or through from=),
 * not when a case sets it; refitting under a set moves the value and writes nothing; a fit
 * at a limit of the parameter's range or with a residual above NS_FIT_MAX_RESIDUAL is
 * refused, a one-parameter fit ends at a minimum at its printed precision, and a row
 * recorded on another profile cannot be fitted; a fit that would replace the record of
 * another file's fit of the same profile and parameter is not written;
 * writing replaces the parameter's element, leaves a commented-out one alone, and is all
 * or nothing. */
#include "config.h"
#include <check.h>
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include "calibrate.h"
#include "param.h"
#include "profile.h"
#include "scenario.h"
#include "validate.h"
#include "validate-fixture.h"

/* ---- helpers ---- */

/* Loads the fixture at fx into *v and fits cpu.ipc on 900-calib with opt (must succeed). */
static GPtrArray *
fit_calib (const char *fx, const NsCalibrateOptions *opt, NsValidation **v)
{
  GPtrArray *rows, *fits;
  GError *error = NULL;

  *v = load_ok (fx);
  rows = ns_validation_select (*v, (const char *const[]) { "900-calib", NULL }, NULL);
  fits = ns_calibrate_fit (*v, rows, opt, &error);
  ck_assert_msg (fits != NULL, "%s", error ? error->message : "?");
  g_ptr_array_unref (rows);
  return fits;
}

/* Fits 900-calib (figures at cpu.ipc 2.0) from a start of 1.7, which home (a scenario
 * path) must declare, and writes the value there; the fits. */
static GPtrArray *
fit_and_write (const char *fx, const char *home, NsValidation **v)
{
  NsCalibrateOptions opt = { 0 };
  GPtrArray *fits = fit_calib (fx, &opt, v);
  const NsFit *fit = fits->pdata[0];
  GError *error = NULL;

  ck_assert_ptr_null (fit->shadowed);
  ck_assert_str_eq (fit->path, home);
  ck_assert_double_eq_tol (fit->start, 1.7, 1e-9);
  ck_assert_msg (fabs (fit->value - 2.0) < 0.05, "fitted ipc %g", fit->value);
  ck_assert_msg (ns_calibrate_write_fit (fit, &error), "%s", error ? error->message : "?");
  return fits;
}

/* ---- fitting ---- */

/* Fits cpu.ipc on 900-calib (figures the generic profile gives at ipc 2.0), writes the
 * value with its provenance into the profile and the rows into calibration.xml. */
START_TEST (test_calibrate_fit)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *profile = g_build_filename (tmp, "scenarios/cpus/generic.xml", NULL);
  g_autofree char *before = NULL, *after = NULL;
  NsValidation *v = load_ok (fx);
  GPtrArray *rows = ns_validation_select (v, (const char *const[]) { "900-calib", NULL }, NULL);
  NsCalibrateOptions opt = { 0 };
  GError *error = NULL;
  GPtrArray *fits;
  const NsFit *fit;
  const char *line;
  g_autofree char *source = NULL;
  NsValReport *r;

  ck_assert (g_file_get_contents (profile, &before, NULL, NULL));
  fits = ns_calibrate_fit (v, rows, &opt, &error);
  ck_assert_msg (fits != NULL, "%s", error ? error->message : "?");
  ck_assert_uint_eq (fits->len, 1);
  fit = fits->pdata[0];
  ck_assert_str_eq (fit->param, "cpu.ipc");
  ck_assert_str_eq (fit->profile, "generic");
  ck_assert_str_eq (fit->path, fit->profile_path);
  ck_assert_msg (fabs (fit->value - 2.0) < 0.05, "fitted ipc %g", fit->value);
  ck_assert (g_str_has_prefix (fit->source, "fit on 900-calib, residual "));
  ck_assert (fit->residual < 0.01);
  ck_assert (ns_calibrate_write_record (v, fits, &error));
  ck_assert_msg (ns_calibrate_write_profile (fit->profile_path, fit->param, fit->value_text,
                                             fit->source, &error), "%s", error ? error->message : "?");
  /* the profile is the old file plus exactly one line */
  ck_assert (g_file_get_contents (profile, &after, NULL, NULL));
  line = strstr (after, "  <param name=\"cpu.ipc\"");
  ck_assert_ptr_nonnull (line);
  {
    const char *eol = strchr (line, '\n');
    g_autofree char *without = g_strdup_printf ("%.*s%s", (int) (line - after), after, eol + 1);
    ck_assert_str_eq (without, before);
  }
  ck_assert_ptr_nonnull (strstr (line, fit->source));
  source = g_strdup (fit->source);
  g_ptr_array_unref (fits);
  g_ptr_array_unref (rows);
  ns_validation_free (v);
  /* reloaded: the row is a calibration row, nothing conflicts, the run uses the fit */
  v = load_ok (fx);
  ck_assert (ns_validation_is_calibration (v, "900-calib"));
  r = run_rows (v, (const char *const[]) { "900-calib", NULL }, 1);
  ck_assert_uint_eq (r->conflicts->len, 0);
  ck_assert (outcome (r, "900-calib")->calibration);
  ck_assert_int_eq (outcome (r, "900-calib")->status, NS_VAL_PASS);
  ck_assert_uint_eq (r->calibration.rows, 1);
  ck_assert_uint_eq (r->validation.rows, 0);
  ck_assert_str_eq (((NsValParam *) outcome (r, "900-calib")->baseline_run->free_params->pdata[0])->source,
                    source);
  ns_val_report_free (r);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* 900-calib fitted when its scenario sets cpu.ipc itself: the value goes into the
 * scenario (whose own value is the starting point), and the profile stays as it was. */
START_TEST (test_calibrate_fit_into_scenario)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *profile = g_build_filename (tmp, "scenarios/cpus/generic.xml", NULL);
  g_autofree char *scenario = scenario_with (tmp, "<param name=\"cpu.ipc\" value=\"1.7\" "
                                                  "source=\"start\"/>");
  g_autofree char *profile_before = NULL, *profile_after = NULL;
  NsValidation *v;
  GPtrArray *fits;
  GError *error = NULL;
  const NsFit *fit;
  NsScenario *sc;

  ck_assert (g_file_get_contents (profile, &profile_before, NULL, NULL));
  fits = fit_and_write (fx, scenario, &v);
  fit = fits->pdata[0];
  ck_assert (g_file_get_contents (profile, &profile_after, NULL, NULL));
  ck_assert_str_eq (profile_after, profile_before);
  sc = ns_scenario_load (scenario, NULL, &error);
  ck_assert_msg (sc != NULL, "%s", error ? error->message : "?");
  ck_assert_uint_eq (sc->param_names->len, 1);
  ck_assert_str_eq (sc->param_values->pdata[0], fit->value_text);
  ck_assert_str_eq (sc->param_sources->pdata[0], fit->source);
  ns_scenario_free (sc);
  g_ptr_array_unref (fits);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* 900-calib fitted when its scenario takes cpu.ipc from another scenario (<param
 * from=...>): the value goes into the scenario that declares it, and the row's own
 * scenario, still taking it from there, runs on the new value. */
START_TEST (test_calibrate_fit_through_from)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *home = g_build_filename (tmp, "scenarios/micro/ipc-home.xml", NULL);
  g_autofree char *canonical = g_canonicalize_filename (home, NULL);
  g_autofree char *original = g_build_filename (tmp, "scenarios/micro/call-chain.xml", NULL);
  g_autofree char *text = NULL, *scenario = NULL, *own_before = NULL, *own_after = NULL;
  NsValidation *v;
  GPtrArray *fits;
  GError *error = NULL;
  const NsFit *fit;
  NsScenario *sc;

  /* ipc-home.xml: call-chain.xml declaring cpu.ipc; call-chain.xml takes it from there */
  ck_assert (g_file_get_contents (original, &text, NULL, NULL));
  g_free (scenario_with (tmp, "<param name=\"cpu.ipc\" value=\"1.7\" source=\"start\"/>"));
  ck_assert (g_rename (original, home) == 0);
  ck_assert (g_file_set_contents (original, text, -1, NULL));
  scenario = scenario_with (tmp, "<param name=\"cpu.ipc\" from=\"ipc-home.xml\"/>");
  ck_assert (g_file_get_contents (scenario, &own_before, NULL, NULL));
  fits = fit_and_write (fx, canonical, &v);
  fit = fits->pdata[0];
  ck_assert (g_file_get_contents (scenario, &own_after, NULL, NULL));
  ck_assert_str_eq (own_after, own_before);
  sc = ns_scenario_load (scenario, NULL, &error);
  ck_assert_msg (sc != NULL, "%s", error ? error->message : "?");
  ck_assert_str_eq (sc->param_values->pdata[0], fit->value_text);
  ck_assert (g_str_has_prefix (sc->param_sources->pdata[0], fit->source));
  ns_scenario_free (sc);
  g_ptr_array_unref (fits);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* A case whose <set> sets the fitted parameter would leave no one file holding what the
 * row runs on; such a case is refused when cases.xml loads (no parameter per validation
 * case: test-validate.c's test_case_param_set_refused), so nothing can be fitted under it. */
START_TEST (test_calibrate_fit_shadowed_by_case)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *cases = g_build_filename (fx, "cases.xml", NULL);
  GError *error = NULL;

  edit_file (cases, "patched=\"srso-safe-ret\"/>\n  <case row=\"900-tight\"",
             "patched=\"srso-safe-ret\">\n    <set path=\"param.cpu.ipc\" value=\"1.7\"/>\n"
             "  </case>\n  <case row=\"900-tight\"");
  ck_assert_ptr_null (ns_validation_load (fx, &error));
  ck_assert_msg (strstr (error->message, "900-calib") &&
                 strstr (error->message, "netsim calibrate --fit"), "%s", error->message);
  g_error_free (error);
  remove_tree (tmp);
}
END_TEST

/* --refit: the recorded fit of 900-calib fitted again under a set that slows every call
 * finds a new cpu.ipc, which brings the row back to its recorded figures (the shipped
 * value no longer does); without a set it finds the shipped value again. Nothing is
 * written. */
START_TEST (test_calibrate_refit)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *profile = g_build_filename (tmp, "scenarios/cpus/generic.xml", NULL);
  g_autofree char *before = NULL, *after = NULL;
  const char *const slower[] = { "param.call.cycles=3", NULL };
  NsCalibrateOptions opt = { 0 };
  NsValidation *v;
  GPtrArray *fits;
  GError *error = NULL;
  const NsFit *fit;
  const NsRecordedRow *row;
  double shipped;

  fits = fit_calib (fx, &opt, &v);
  ck_assert (ns_calibrate_write (v, fits, &error));
  shipped = ((NsFit *) fits->pdata[0])->value;
  g_ptr_array_unref (fits);
  ns_validation_free (v);
  v = load_ok (fx);
  row = ns_validation_find_row (v, "900-calib");
  ck_assert (g_file_get_contents (profile, &before, NULL, NULL));
  /* under the set */
  opt.sets = slower;
  fits = ns_calibrate_refit (v, NULL, &opt, &error);
  ck_assert_msg (fits != NULL, "%s", error ? error->message : "?");
  ck_assert_uint_eq (fits->len, 1);
  fit = fits->pdata[0];
  ck_assert_str_eq (fit->profile, "generic");
  ck_assert_str_eq (fit->param, "cpu.ipc");
  ck_assert_str_eq (fit->target, "absolute");
  ck_assert_double_eq_tol (fit->start, shipped, 1e-9);
  ck_assert_msg (fit->value > shipped * 1.05, "refit %g, shipped %g", fit->value, shipped);
  {
    g_autofree char *ipc = g_strdup_printf ("param.cpu.ipc=%s", fit->value_text);
    const char *const refitted[] = { slower[0], ipc, NULL };
    const char *const kept[] = { slower[0], NULL };
    double b_new = call_chain_value ("plain-ret", refitted);
    double b_old = call_chain_value ("plain-ret", kept);
    ck_assert_msg (fabs (b_new / row->baseline - 1) < 0.01, "refitted %g vs %g", b_new, row->baseline);
    ck_assert_msg (fabs (b_old / row->baseline - 1) > 0.05, "kept %g vs %g", b_old, row->baseline);
  }
  g_ptr_array_unref (fits);
  /* without a set; and a profile list without generic refits nothing */
  opt.sets = NULL;
  fits = ns_calibrate_refit (v, NULL, &opt, &error);
  ck_assert_msg (fits != NULL && fits->len == 1, "%s", error ? error->message : "?");
  ck_assert_msg (fabs (((NsFit *) fits->pdata[0])->value / shipped - 1) < 0.01, "refit %g",
                 ((NsFit *) fits->pdata[0])->value);
  g_ptr_array_unref (fits);
  fits = ns_calibrate_refit (v, (const char *const[]) { "another", NULL }, &opt, &error);
  ck_assert_uint_eq (fits->len, 0);
  g_ptr_array_unref (fits);
  ck_assert (g_file_get_contents (profile, &after, NULL, NULL));
  ck_assert_str_eq (after, before);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* Fits cpu.ipc on 900-calib with target, after the test set its figures, from the
 * scenario's start value start (text); the fits (must not fail outright). */
static GPtrArray *
fit_from (const char *tmp, const char *fx, const char *start, NsFitTarget target,
          NsValidation **v)
{
  g_autofree char *line = g_strdup_printf ("<param name=\"cpu.ipc\" value=\"%s\" "
                                           "source=\"start\"/>", start);
  NsCalibrateOptions opt = { .target = target };

  g_free (scenario_with (tmp, line));
  return fit_calib (fx, &opt, v);
}

/* Asserts that writing fits is refused (NS_ERROR_CHECK), leaving no calibration.xml and
 * the scenario as it was. */
static void
assert_write_refused (const NsValidation *v, GPtrArray *fits, const char *tmp,
                      const char *fx)
{
  g_autofree char *record = g_build_filename (fx, "calibration.xml", NULL);
  g_autofree char *scenario = g_build_filename (tmp, "scenarios/micro/call-chain.xml", NULL);
  g_autofree char *before = NULL, *after = NULL;
  GError *error = NULL;

  ck_assert (g_file_get_contents (scenario, &before, NULL, NULL));
  ck_assert (!ns_calibrate_write (v, fits, &error));
  ck_assert_msg (g_error_matches (error, NS_ERROR, NS_ERROR_CHECK) &&
                 strstr (error->message, "nothing written"), "%s", error->message);
  g_error_free (error);
  ck_assert (!g_file_test (record, G_FILE_TEST_EXISTS));
  ck_assert (g_file_get_contents (scenario, &after, NULL, NULL));
  ck_assert_str_eq (after, before);
}

/* Figures beyond the parameter's range: 900-calib's baseline extrapolated past the upper
 * limit of cpu.ipc (8) from its figures at 4 and 8. The best value lies outside the range,
 * where the trial points run clamped and the residual is flat: the fit ends at the limit
 * and is refused, not written. */
START_TEST (test_calibrate_fit_pinned_refused)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *seed = g_build_filename (fx, "seed-900.xml", NULL);
  const NsParamDef *def = ns_param_lookup ("cpu.ipc");
  const char *const at4[] = { "param.cpu.ipc=4", NULL }, *const at8[] = { "param.cpu.ipc=8", NULL };
  double b4 = call_chain_value ("plain-ret", at4), b8 = call_chain_value ("plain-ret", at8);
  NsValidation *v;
  GPtrArray *fits;
  const NsFit *fit;

  ck_assert_double_eq (def->max, 8);
  ck_assert_msg (fabs (b8 / b4 - 1) > 0.02, "the figure moves with cpu.ipc: %g %g", b4, b8);
  set_figures (seed, "900-calib", b8 * (b8 / b4), 1);
  fits = fit_from (tmp, fx, "7.5", NS_FIT_BASELINE, &v);
  fit = fits->pdata[0];
  ck_assert_msg (fit->refused != NULL && strstr (fit->refused, "limit of its range"),
                 "%s -> %s (%s) accepted", fit->param, fit->value_text, fit->outcome);
  assert_write_refused (v, fits, tmp, fx);
  g_ptr_array_unref (fits);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* Figures only an IPC above the core's issue width reproduces: 900-calib's at cpu.ipc 6
 * on the generic profile (cpu.issue_width 4). The fit finds 6 with a tiny residual, inside
 * the range, and is refused all the same, not written: a core sustains no more
 * instructions a cycle than it issues (until 2026-12-04 validate --refit took 7.054 on the
 * i5-10210U, width 4). Under a what-if that widens the core to 8 the same fit is one. */
START_TEST (test_calibrate_fit_beyond_issue_width)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *seed = g_build_filename (fx, "seed-900.xml", NULL);
  const char *const at6[] = { "param.cpu.ipc=6", NULL };
  const char *const wide[] = { "param.cpu.issue_width=8", NULL };
  const char *const at6_wide[] = { "param.cpu.ipc=6", wide[0], NULL };
  NsCalibrateOptions opt = { .target = NS_FIT_BASELINE };
  NsValidation *v;
  GPtrArray *fits;
  const NsFit *fit;

  set_figures (seed, "900-calib", call_chain_value ("plain-ret", at6), 1);
  fits = fit_from (tmp, fx, "5.5", NS_FIT_BASELINE, &v);
  fit = fits->pdata[0];
  ck_assert_msg (fabs (fit->value - 6) < 0.05 && fit->residual <= NS_FIT_MAX_RESIDUAL,
                 "%s, residual %g", fit->value_text, fit->residual);
  ck_assert_msg (fit->refused != NULL &&
                 strstr (fit->refused, "exceeds cpu.issue_width = 4 of profile generic") &&
                 strstr (fit->refused, "cannot sustain more instructions a cycle than it "
                                       "issues"),
                 "%s -> %s accepted (%s)", fit->param, fit->value_text,
                 fit->refused ? fit->refused : "no refusal");
  assert_write_refused (v, fits, tmp, fx);
  g_ptr_array_unref (fits);
  ns_validation_free (v);
  /* the width the rows run at, a what-if's set included */
  set_figures (seed, "900-calib", call_chain_value ("plain-ret", at6_wide), 1);
  opt.sets = wide;
  fits = fit_calib (fx, &opt, &v);
  fit = fits->pdata[0];
  ck_assert_msg (fabs (fit->value - 6) < 0.05 && fit->refused == NULL, "%s: %s",
                 fit->value_text, fit->refused ? fit->refused : "accepted");
  g_ptr_array_unref (fits);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* Figures no value reproduces: 900-calib's baseline at cpu.ipc 2 and its patched figure
 * 30 % above the one at 2 (target absolute). The best value leaves a residual far above
 * NS_FIT_MAX_RESIDUAL (0.002): refused, not written. */
START_TEST (test_calibrate_fit_residual_refused)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *seed = g_build_filename (fx, "seed-900.xml", NULL);
  const char *const at2[] = { "param.cpu.ipc=2.0", NULL };
  NsValidation *v;
  GPtrArray *fits;
  const NsFit *fit;

  set_figures (seed, "900-calib", call_chain_value ("plain-ret", at2),
               1.3 * call_chain_value ("srso-safe-ret", at2));
  fits = fit_from (tmp, fx, "1.7", NS_FIT_ABSOLUTE, &v);
  fit = fits->pdata[0];
  ck_assert_msg (fit->residual > NS_FIT_MAX_RESIDUAL, "residual %g", fit->residual);
  ck_assert_msg (fit->refused != NULL && strstr (fit->refused, "exceeds 0.002"),
                 "residual %g accepted", fit->residual);
  assert_write_refused (v, fits, tmp, fx);
  g_ptr_array_unref (fits);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* The baseline residual of 900-calib at cpu.ipc = value (a separate run). */
static double
baseline_residual (const NsValidation *v, const char *value)
{
  g_autofree char *set = g_strdup_printf ("param.cpu.ipc=%s", value);
  const char *const sets[] = { set, NULL };
  const NsRecordedRow *row = ns_validation_find_row (v, "900-calib");

  return fabs (call_chain_value ("plain-ret", sets) / row->baseline - 1);
}

/* Asserts that the one-parameter fit in fits ends at a minimum at its printed precision:
 * the residual at the written value is no larger than at either neighbour in the last
 * printed digit (runs made apart from the fit), and the fit says how the driver ended and
 * that the value is such a minimum; returns that residual. */
static double
assert_polished (const NsValidation *v, const NsFit *fit, const char *start)
{
  double unit = pow (10, floor (log10 (fit->value)) - 3);
  char below[G_ASCII_DTOSTR_BUF_SIZE], above[G_ASCII_DTOSTR_BUF_SIZE];
  double here = baseline_residual (v, fit->value_text);

  ck_assert_msg (strstr (fit->outcome, "at the last printed digit") &&
                 (strstr (fit->outcome, "converged") || strstr (fit->outcome, "no progress") ||
                  strstr (fit->outcome, "iteration limit")), "%s", fit->outcome);
  g_ascii_formatd (below, sizeof below, "%.4g", fit->value - unit);
  g_ascii_formatd (above, sizeof above, "%.4g", fit->value + unit);
  ck_assert_msg (baseline_residual (v, below) >= here && baseline_residual (v, above) >= here,
                 "from %s: %s (residual %g) has a better neighbour: %s %g, %s %g", start,
                 fit->value_text, here, below, baseline_residual (v, below), above,
                 baseline_residual (v, above));
  ck_assert_double_eq_tol (fit->residual, here, 1e-12);
  return here;
}

/* A one-parameter fit ends at a minimum at its printed precision whatever the start: from
 * 1.7 and from 2.6 (target baseline) the value is such a minimum, with the same residual,
 * and is accepted; and where the driver is cut short (1 to 3 iterations, a coarse
 * finite-difference step of 10 or 30 %) and stops off a minimum, the polish walks to one
 * (some of these fits are polished: the driver's stop is not enough). */
START_TEST (test_calibrate_fit_polished)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *scenario = g_build_filename (tmp, "scenarios/micro/call-chain.xml", NULL);
  NsValidation *v;
  GPtrArray *fits = fit_from (tmp, fx, "1.7", NS_FIT_BASELINE, &v);
  double low = assert_polished (v, fits->pdata[0], "1.7"), high;
  guint polished = 0;

  ck_assert_ptr_null (((const NsFit *) fits->pdata[0])->refused);
  g_ptr_array_unref (fits);
  ns_validation_free (v);
  edit_file (scenario, "value=\"1.7\"", "value=\"2.6\"");
  fits = fit_calib (fx, &(NsCalibrateOptions) { .target = NS_FIT_BASELINE }, &v);
  high = assert_polished (v, fits->pdata[0], "2.6");
  ck_assert_ptr_null (((const NsFit *) fits->pdata[0])->refused);
  ck_assert_msg (fabs (low - high) < 1e-9, "residual %g from 1.7, %g from 2.6", low, high);
  g_ptr_array_unref (fits);
  ns_validation_free (v);
  for (guint iter = 1; iter <= 3; iter++)
    for (guint s = 0; s < 2; s++) {
      NsCalibrateOptions cut = { .target = NS_FIT_BASELINE, .max_iter = iter,
                                 .step = s ? 0.3 : 0.1 };
      fits = fit_calib (fx, &cut, &v);
      assert_polished (v, fits->pdata[0], "2.6, cut short");
      polished += strstr (((const NsFit *) fits->pdata[0])->outcome, "polished") != NULL;
      g_ptr_array_unref (fits);
      ns_validation_free (v);
    }
  ck_assert_msg (polished > 0, "no cut-short fit needed the polish");
  remove_tree (tmp);
}
END_TEST

/* calibrate checks what validate checks of a row's runs (validate.c's finish_outcome):
 * a row recorded on another profile than its case runs on cannot be fitted. */
START_TEST (test_calibrate_fit_profile_mismatch)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *seed = g_build_filename (fx, "seed-900.xml", NULL);
  NsValidation *v;
  GPtrArray *rows;
  NsCalibrateOptions opt = { 0 };
  GError *error = NULL;

  edit_file (seed, "profile=\"generic\"", "profile=\"another\"");
  v = load_ok (fx);
  rows = ns_validation_select (v, (const char *const[]) { "900-calib", NULL }, NULL);
  ck_assert_ptr_null (ns_calibrate_fit (v, rows, &opt, &error));
  ck_assert_msg (g_error_matches (error, NS_ERROR, NS_ERROR_CHECK) &&
                 strstr (error->message, "900-calib") &&
                 strstr (error->message, "runs on CPU profile 'generic'"), "%s",
                 error->message);
  g_error_free (error);
  g_ptr_array_unref (rows);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* ---- writing ---- */

/* One fit per profile and parameter: calibration.xml records a fit of generic's cpu.ipc on
 * 900-safe-ret, whose scenario (call-chain-b.xml) holds that value; a new fit on 900-calib,
 * which takes the value from the profile, would replace that record and leave
 * call-chain-b.xml's "fit on" value unrecorded: writing it is refused (NS_ERROR_INPUT),
 * nothing written. */
START_TEST (test_calibrate_write_refuses_orphaning)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *original = g_build_filename (tmp, "scenarios/micro/call-chain.xml", NULL);
  g_autofree char *other = g_build_filename (tmp, "scenarios/micro/call-chain-b.xml", NULL);
  g_autofree char *cases = g_build_filename (fx, "cases.xml", NULL);
  g_autofree char *record = g_build_filename (fx, "calibration.xml", NULL);
  g_autofree char *profile = g_build_filename (tmp, "scenarios/cpus/generic.xml", NULL);
  g_autofree char *text = NULL, *record_before = NULL, *record_after = NULL;
  g_autofree char *profile_before = NULL, *profile_after = NULL;
  NsCalibrateOptions opt = { 0 };
  NsValidation *v;
  GPtrArray *fits;
  GError *error = NULL;

  ck_assert (g_file_get_contents (original, &text, NULL, NULL));
  g_free (scenario_with (tmp, "<param name=\"cpu.ipc\" value=\"1.5\" source=\"fit on "
                              "900-safe-ret, residual 0\"/>"));
  ck_assert (g_rename (original, other) == 0);
  ck_assert (g_file_set_contents (original, text, -1, NULL));
  edit_file (cases, "scenario=\"scenarios/micro/call-chain.xml\"",
             "scenario=\"scenarios/micro/call-chain-b.xml\"");
  ck_assert (g_file_set_contents (record, "<calibration>\n  <fit profile=\"generic\" "
                                  "param=\"cpu.ipc\" value=\"1.5\" residual=\"0\" "
                                  "target=\"baseline\" rows=\"900-safe-ret\"/>\n"
                                  "</calibration>\n", -1, NULL));
  ck_assert (g_file_get_contents (record, &record_before, NULL, NULL));
  ck_assert (g_file_get_contents (profile, &profile_before, NULL, NULL));
  fits = fit_calib (fx, &opt, &v);
  ck_assert_ptr_null (((const NsFit *) fits->pdata[0])->refused);
  ck_assert (!ns_calibrate_write (v, fits, &error));
  ck_assert_msg (g_error_matches (error, NS_ERROR, NS_ERROR_INPUT) &&
                 strstr (error->message, "call-chain-b.xml") &&
                 strstr (error->message, "900-safe-ret") &&
                 strstr (error->message, "nothing written"), "%s", error->message);
  g_error_free (error);
  ck_assert (g_file_get_contents (record, &record_after, NULL, NULL));
  ck_assert_str_eq (record_after, record_before);
  ck_assert (g_file_get_contents (profile, &profile_after, NULL, NULL));
  ck_assert_str_eq (profile_after, profile_before);
  g_ptr_array_unref (fits);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST



/* Writing a parameter twice replaces the first element; a file without a place fails. */
START_TEST (test_write_profile_replaces)
{
  g_autofree char *tmp = scratch_datadir ();
  g_autofree char *profile = g_build_filename (tmp, "scenarios/cpus/generic.xml", NULL);
  g_autofree char *text = NULL;
  GError *error = NULL;
  NsCpuProfile *p;

  ck_assert (ns_calibrate_write_profile (profile, "cpu.ipc", "1.8", "fit on a, residual 1", NULL));
  ck_assert (ns_calibrate_write_profile (profile, "cpu.ipc", "1.9", "fit on b, residual 2", NULL));
  ck_assert (g_file_get_contents (profile, &text, NULL, NULL));
  ck_assert_ptr_null (strstr (strstr (text, "name=\"cpu.ipc\"") + 1, "name=\"cpu.ipc\""));
  p = ns_cpu_profile_load (profile, &error);
  ck_assert_msg (p != NULL, "%s", error ? error->message : "?");
  ck_assert_str_eq (ns_params_get_text (p->params, "cpu.ipc"), "1.9");
  ck_assert_str_eq (ns_params_get_source (p->params, "cpu.ipc"), "fit on b, residual 2");
  ns_cpu_profile_free (p);
  /* an out-of-range value does not load: the original file is restored */
  ck_assert (!ns_calibrate_write_profile (profile, "cpu.ipc", "99", "fit on c, residual 3", &error));
  g_clear_error (&error);
  g_free (text);
  ck_assert (g_file_get_contents (profile, &text, NULL, NULL));
  ck_assert_ptr_nonnull (strstr (text, "value=\"1.9\""));
  remove_tree (tmp);
}
END_TEST

/* The element is found whatever legal quoting and spacing it uses, a '>' inside a quoted
 * value included; only it changes, byte for byte. A value that does not load leaves the file
 * as it was, and the error names the file and the element's real line. */
START_TEST (test_write_profile_any_quoting)
{
  g_autofree char *tmp = scratch_datadir ();
  g_autofree char *profile = g_build_filename (tmp, "scenarios/cpus/generic.xml", NULL);
  g_autofree char *text = NULL, *after = NULL, *want = NULL, *at = NULL;
  g_auto (GStrv) parts = NULL;
  const char *own = "<param name = 'lock.atomic_cycles'\n    value\t=\t'20' source=\"old -> x\"/>";
  GError *error = NULL;

  ck_assert (g_file_get_contents (profile, &text, NULL, NULL));
  /* a '>' in an earlier element's value, and the parameter's own element requoted */
  parts = g_strsplit (text, "source=\"GENERIC: 2 threads", 2);
  ck_assert_uint_eq (g_strv_length (parts), 2);
  g_free (text);
  text = g_strjoin ("source=\"a -> b; GENERIC: 2 threads", parts[0], parts[1], NULL);
  g_strfreev (g_steal_pointer (&parts));
  parts = g_regex_split_simple ("<param name=\"lock.atomic_cycles\"[^\n]*/>", text, 0, 0);
  ck_assert_uint_eq (g_strv_length (parts), 2);
  g_free (text);
  text = g_strjoin (own, parts[0], parts[1], NULL);
  ck_assert (g_file_set_contents (profile, text, -1, NULL));
  ck_assert_msg (ns_calibrate_write_profile (profile, "lock.atomic_cycles", "8", "fit on a",
                                             &error), "%s", error ? error->message : "?");
  ck_assert (g_file_get_contents (profile, &after, NULL, NULL));
  want = g_strjoin ("<param name=\"lock.atomic_cycles\" value=\"8\" source=\"fit on a\"/>",
                    parts[0], parts[1], NULL);
  ck_assert_str_eq (after, want);
  /* out of range: left as it was; the error is at the element's line in the file */
  ck_assert (g_file_set_contents (profile, text, -1, NULL));
  ck_assert (!ns_calibrate_write_profile (profile, "lock.atomic_cycles", "-5", "fit on b",
                                          &error));
  at = g_strdup_printf ("%s:37: ", profile);
  ck_assert_msg (g_str_has_prefix (error->message, at), "%s", error->message);
  g_clear_error (&error);
  g_free (after);
  ck_assert (g_file_get_contents (profile, &after, NULL, NULL));
  ck_assert_str_eq (after, text);
  remove_tree (tmp);
}
END_TEST

/* Several values into one profile, all or none: a bad second value leaves the file as it
 * was, the first value's edit included; good values all land. */
START_TEST (test_write_profile_params_all_or_none)
{
  g_autofree char *tmp = scratch_datadir ();
  g_autofree char *profile = g_build_filename (tmp, "scenarios/cpus/generic.xml", NULL);
  g_autofree char *before = NULL, *after = NULL;
  g_autoptr (GPtrArray) values = g_ptr_array_new ();
  g_autoptr (GPtrArray) sources = g_ptr_array_new ();
  const char *const params[] = { "lock.atomic_cycles", "cpu.mlp", NULL };
  GError *error = NULL;
  NsCpuProfile *p;

  ck_assert (g_file_get_contents (profile, &before, NULL, NULL));
  g_ptr_array_add (values, "8");
  g_ptr_array_add (values, "0");                /* outside cpu.mlp's range: does not load */
  g_ptr_array_add (sources, "host measurement (a)");
  g_ptr_array_add (sources, "host measurement (b)");
  ck_assert (!ns_calibrate_write_profile_params (profile, params, values, sources, &error));
  ck_assert_msg (g_str_has_prefix (error->message, "nothing written: "), "%s", error->message);
  g_clear_error (&error);
  ck_assert (g_file_get_contents (profile, &after, NULL, NULL));
  ck_assert_str_eq (after, before);
  values->pdata[1] = "7";
  ck_assert_msg (ns_calibrate_write_profile_params (profile, params, values, sources, &error),
                 "%s", error ? error->message : "?");
  p = ns_cpu_profile_load (profile, &error);
  ck_assert_msg (p != NULL, "%s", error ? error->message : "?");
  ck_assert_str_eq (ns_params_get_text (p->params, "lock.atomic_cycles"), "8");
  ck_assert_str_eq (ns_params_get_text (p->params, "cpu.mlp"), "7");
  ck_assert_str_eq (ns_params_get_source (p->params, "cpu.mlp"), "host measurement (b)");
  ns_cpu_profile_free (p);
  remove_tree (tmp);
}
END_TEST

/* A commented-out <param> of the fitted parameter before the real one is left alone. */
START_TEST (test_calibrate_write_skips_comment)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *scenario = scenario_with (tmp, "<!-- <param name=\"cpu.ipc\" value=\"1\" "
                                                  "source=\"old\"/> -->\n  <param name=\"cpu.ipc\" "
                                                  "value=\"1.7\" source=\"start\"/>");
  g_autofree char *text = NULL;
  NsValidation *v;
  NsCalibrateOptions opt = { 0 };   /* a whole fit: one cut short is refused */
  GPtrArray *fits;
  GError *error = NULL;
  NsScenario *sc;

  fits = fit_calib (fx, &opt, &v);
  ck_assert_msg (ns_calibrate_write (v, fits, &error), "%s", error ? error->message : "?");
  ck_assert (g_file_get_contents (scenario, &text, NULL, NULL));
  ck_assert_ptr_nonnull (strstr (text, "<!-- <param name=\"cpu.ipc\" value=\"1\" source=\"old\"/> -->"));
  sc = ns_scenario_load (scenario, NULL, &error);
  ck_assert_msg (sc != NULL, "%s", error ? error->message : "?");
  ck_assert_str_eq (sc->param_values->pdata[0], ((const NsFit *) fits->pdata[0])->value_text);
  ns_scenario_free (sc);
  g_ptr_array_unref (fits);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

/* All or nothing: a fit whose file refuses the value (out of range) leaves the profile as
 * it was and no calibration.xml behind, though the record was written first. */
START_TEST (test_calibrate_write_all_or_nothing)
{
  g_autofree char *fx = NULL;
  g_autofree char *tmp = fixture_datadir (&fx);
  g_autofree char *profile = g_build_filename (tmp, "scenarios/cpus/generic.xml", NULL);
  g_autofree char *record = g_build_filename (fx, "calibration.xml", NULL);
  g_autofree char *before = NULL, *after = NULL;
  NsValidation *v;
  NsCalibrateOptions opt = { 0 };   /* a whole fit: one cut short is refused */
  GPtrArray *fits;
  GError *error = NULL;
  NsFit *fit;

  ck_assert (!g_file_test (record, G_FILE_TEST_EXISTS));
  ck_assert (g_file_get_contents (profile, &before, NULL, NULL));
  fits = fit_calib (fx, &opt, &v);
  fit = fits->pdata[0];
  g_free (fit->value_text);
  fit->value_text = g_strdup ("99");
  ck_assert (!ns_calibrate_write (v, fits, &error));
  ck_assert_ptr_nonnull (error);
  ck_assert_ptr_nonnull (strstr (error->message, "nothing written"));
  g_clear_error (&error);
  ck_assert (!g_file_test (record, G_FILE_TEST_EXISTS));
  ck_assert (g_file_get_contents (profile, &after, NULL, NULL));
  ck_assert_str_eq (after, before);
  g_ptr_array_unref (fits);
  ns_validation_free (v);
  remove_tree (tmp);
}
END_TEST

static Suite *
calibrate_suite (void)
{
  Suite *s = suite_create ("calibrate");
  TCase *fit = tcase_create ("fit");
  TCase *write = tcase_create ("write");

  tcase_add_test (fit, test_calibrate_fit);
  tcase_add_test (fit, test_calibrate_fit_into_scenario);
  tcase_add_test (fit, test_calibrate_fit_through_from);
  tcase_add_test (fit, test_calibrate_fit_shadowed_by_case);
  tcase_add_test (fit, test_calibrate_refit);
  tcase_add_test (fit, test_calibrate_fit_pinned_refused);
  tcase_add_test (fit, test_calibrate_fit_residual_refused);
  tcase_add_test (fit, test_calibrate_fit_beyond_issue_width);
  tcase_add_test (fit, test_calibrate_fit_polished);
  tcase_add_test (fit, test_calibrate_fit_profile_mismatch);
  tcase_add_unchecked_fixture (fit, scratch_base_setup, scratch_base_teardown);
  suite_add_tcase (s, fit);
  tcase_add_test (write, test_write_profile_replaces);
  tcase_add_test (write, test_write_profile_any_quoting);
  tcase_add_test (write, test_write_profile_params_all_or_none);
  tcase_add_test (write, test_calibrate_write_skips_comment);
  tcase_add_test (write, test_calibrate_write_all_or_nothing);
  tcase_add_test (write, test_calibrate_write_refuses_orphaning);
  tcase_add_unchecked_fixture (write, scratch_base_setup, scratch_base_teardown);
  suite_add_tcase (s, write);
  return s;
}

int
main (void)
{
  SRunner *runner = srunner_create (calibrate_suite ());
  int failed;

  ns_param_registry_init ();
  srunner_run_all (runner, CK_NORMAL);
  failed = srunner_ntests_failed (runner);
  srunner_free (runner);
  return failed == 0 ? 0 : 1;
}
