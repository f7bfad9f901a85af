/* cmd-validate.c — netsim validate: run the cases of the recorded hardware results and
 * compare the simulated deltas with the recorded ones (sim/validate.h); optionally check
 * against committed expected results and plot recorded vs simulated deltas (gnuplot). */
#include "config.h"
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "cmd.h"
#include "calibrate.h"
#include "profile.h"
#include "validate.h"

/* Shows the count of finished variant runs on stderr (a newline once all are done). */
static void
progress_cb (guint done, guint total, const NsValJob *job, gpointer data)
{
  g_printerr ("\r[%u/%u] variant runs done", done, total);
  if (done == total)
    g_printerr ("\n");
}

/* ---- the plot */

/* Writes the points of one set (validation or calibration), failing rows labelled with
 * their id, then the half-width of the recorded delta's 95 % interval (0 if unknown);
 * returns how many. */
static guint
plot_points (GString *data, const NsValReport *r, gboolean calibration, double *lo, double *hi)
{
  char x[G_ASCII_DTOSTR_BUF_SIZE], y[G_ASCII_DTOSTR_BUF_SIZE], ci[G_ASCII_DTOSTR_BUF_SIZE];
  guint n = 0;

  for (guint i = 0; i < r->outcomes->len; i++) {
    const NsValOutcome *o = r->outcomes->pdata[i];
    *lo = MIN (*lo, o->row->delta_pct);
    *hi = MAX (*hi, o->row->delta_pct);
    if (o->calibration != calibration || (o->status != NS_VAL_PASS && o->status != NS_VAL_FAIL))
      continue;
    *lo = MIN (*lo, o->sim_delta_pct);
    *hi = MAX (*hi, o->sim_delta_pct);
    g_string_append_printf (data, "%s %s \"%s\" %s\n",
                            g_ascii_formatd (x, sizeof x, "%.6f", o->row->delta_pct),
                            g_ascii_formatd (y, sizeof y, "%.6f", o->sim_delta_pct),
                            o->status == NS_VAL_FAIL ? o->row->id : "",
                            g_ascii_formatd (ci, sizeof ci, "%.6f",
                                             MAX (o->row->delta_ci95_pp, 0.0)));
    n++;
  }
  return n;
}

/* The gnuplot script: tolerance band, y = x, and the points of each non-empty set. */
static char *
plot_script (const char *png, const char *data_file, guint n_val, guint n_cal, double lo,
             double hi)
{
  g_autofree char *out = ns_cmd_gnuplot_quote (png), *data = ns_cmd_gnuplot_quote (data_file);
  GString *s = g_string_new (NULL);
  char a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append (s, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) "
                   "{ set terminal pngcairo size 1000,800 } else { set terminal png size 1000,800 }\n");
  g_string_append_printf (s, "set output %s\n", out);
  g_string_append (s, "set title 'netsim validate: simulated vs recorded delta'\n"
                   "set xlabel 'recorded delta (%)'\nset ylabel 'simulated delta (%)'\n"
                   "set grid\nset key top left box opaque\nset size ratio -1\nset samples 400\n"
                   "tol(x) = (0.1*abs(x) > 3 ? 0.1*abs(x) : 3)\n");
  g_string_append_printf (s, "set xrange [%s:%s]\nset yrange [%s:%s]\n",
                          g_ascii_formatd (a, sizeof a, "%.3f", lo),
                          g_ascii_formatd (b, sizeof b, "%.3f", hi), a, b);
  g_string_append (s, "plot '+' using 1:($1-tol($1)):($1+tol($1)) with filledcurves "
                   "lc rgb '#d6e4f2' title 'tolerance: max(3 pp, 10 % of |delta|)', \\\n"
                   "  x with lines lc rgb '#404040' dt 2 title 'y = x'");
  if (n_val)
    g_string_append_printf (s, ", \\\n  %s index 0 using 1:2:4 with xerrorbars pt 7 ps 1.3 "
                            "lc rgb '#1f5fbf' title 'validation rows (bar: recorded 95 %% "
                            "interval)', \\\n  %s index 0 "
                            "using 1:2:3 with labels left offset 0.8,0 font ',7' notitle",
                            data, data);
  if (n_cal)
    g_string_append_printf (s, ", \\\n  %s index %d using 1:2:4 with xerrorbars pt 5 ps 1.3 "
                            "lc rgb '#c0401a' title 'calibration rows (fitted)'", data,
                            n_val ? 1 : 0);
  g_string_append_c (s, '\n');
  return g_string_free (s, FALSE);
}

/* Deletes the listed files (NULL-terminated) from dir, then dir itself; errors ignored. */
static void
remove_dir (const char *dir, const char *const *files)
{
  for (guint i = 0; files[i]; i++) {
    g_autofree char *p = g_build_filename (dir, files[i], NULL);
    g_unlink (p);
  }
  g_rmdir (dir);
}

/* Runs gnuplot on script_file; FALSE with an error (NS_ERROR_CHECK: a tool that failed at
 * run time, not bad input) giving its exit status or signal and what it said. */
static gboolean
run_gnuplot (const char *script_file, const char *png, GError **error)
{
  const char *argv[3] = { ns_cmd_gnuplot_path (), script_file, NULL };
  g_autofree char *err_text = NULL;
  g_autoptr (GError) wait = NULL;
  gint status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
                     &err_text, &status, error))
    return FALSE;
  if (g_spawn_check_wait_status (status, &wait))
    return TRUE;
  g_strstrip (err_text);
  g_set_error (error, NS_ERROR, NS_ERROR_CHECK, "gnuplot (%s) failed to render %s (%s)%s%s; "
               "nothing was written", argv[0], png, wait->message, err_text[0] ? ": " : "",
               err_text);
  return FALSE;
}

/* Renders recorded vs simulated deltas with gnuplot into image (PNG bytes), for png;
 * nothing is written to png here. */
static gboolean
plot (const NsValReport *r, const char *png, GString *image, GError **error)
{
  g_autofree char *dir = g_dir_make_tmp ("netsim-plot-XXXXXX", error);
  g_autofree char *data_file = NULL, *script_file = NULL, *script = NULL;
  g_autofree char *image_file = NULL, *bytes = NULL;
  GString *data = g_string_new (NULL);
  double lo = -10, hi = 10;
  guint n_val, n_cal;
  gsize len = 0;
  gboolean ok;

  if (dir == NULL)
    return FALSE;
  n_val = plot_points (data, r, FALSE, &lo, &hi);
  if (n_val)
    g_string_append (data, "\n\n");
  n_cal = plot_points (data, r, TRUE, &lo, &hi);
  data_file = g_build_filename (dir, "points.dat", NULL);
  script_file = g_build_filename (dir, "plot.gp", NULL);
  image_file = g_build_filename (dir, "plot.png", NULL);
  script = plot_script (image_file, data_file, n_val, n_cal, floor (lo / 10) * 10 - 10,
                        ceil (hi / 10) * 10 + 10);
  ok = g_file_set_contents (data_file, data->str, data->len, error) &&
       g_file_set_contents (script_file, script, -1, error) &&
       run_gnuplot (script_file, png, error) &&
       g_file_get_contents (image_file, &bytes, &len, error);
  if (ok)
    g_string_append_len (image, bytes, (gssize) len);
  remove_dir (dir, (const char *const[]) { "points.dat", "plot.gp", "plot.png", NULL });
  g_string_free (data, TRUE);
  return ok;
}

/* ---- the command */

typedef struct {
  char    **patterns;
  char     *format;
  char     *output;
  char     *plot;
  char     *recorded;
  char     *expected;
  char    **sets;
  gint      jobs;
  gboolean  refit;
  gboolean  quiet;
  gint      run_seeds;
} NsValidateArgs;

/* Frees what parse_args allocated in a (not a itself). */
static void
args_clear (NsValidateArgs *a)
{
  g_strfreev (a->patterns);
  g_free (a->format);
  g_free (a->output);
  g_free (a->plot);
  g_free (a->recorded);
  g_free (a->expected);
  g_strfreev (a->sets);
}

/* Parses the command line; FALSE: usage error (already reported). */
static gboolean
parse_args (int argc, char **argv, NsValidateArgs *a)
{
  GOptionEntry entries[] = {
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &a->jobs, "Variant runs at once, in child processes "
      "(default 1; results are identical; at most 4 × the processors: more only share them "
      "thinner, and each holds a whole simulated machine in memory)", "N" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &a->format, "Output format: table (default), csv, "
      "json (json has the set-ups, the runs' free parameters and their provenance)", "FORMAT" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &a->output, "Write the results to FILE (whole or "
      "not at all) instead of standard output", "FILE" },
    { "plot", 0, 0, G_OPTION_ARG_FILENAME, &a->plot, "Also plot simulated vs recorded delta "
      "with the y = x line and the tolerance band to FILE.png, a PNG (the name must end in "
      ".png; needs gnuplot)", "FILE.png" },
    { "recorded", 0, 0, G_OPTION_ARG_FILENAME, &a->recorded, "Folder with seed-*.xml, cases.xml "
      "and calibration.xml (default: <datadir>/validation)", "DIR" },
    { "expected", 0, 0, G_OPTION_ARG_FILENAME, &a->expected, "Compare with expected results "
      "(a --format csv output): exit 1 if a row that passed there does not pass now, a "
      "row's simulated figures or set (calibration, validation) differ from those printed "
      "there, or a fit no longer holds",
      "FILE" },
    { "set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &a->sets, "What-if: override an attribute "
      "of every run (repeatable; as netsim run --set, after each case's own sets, replacing "
      "a case's set of the same attribute; not measure.metric, the metric a row's recorded "
      "delta is in), e.g. param.cpu.freq_ghz=3.675", "PATH=VALUE" },
    { "refit", 0, 0, G_OPTION_ARG_NONE, &a->refit, "What-if: first fit every recorded fit "
      "again (calibration.xml: same parameter, rows and target) under the --set values, and "
      "run each row at its profile's new value; nothing is written", NULL },
    { "run-seeds", 0, 0, G_OPTION_ARG_INT, &a->run_seeds, "Also run every selected row under "
      "run seeds 1…N (as --set seed=K: each its own slab layout, page frames and workload "
      "draws) and print per row on how many it passes and its simulated delta's range: "
      "how much a verdict owes to the one draw the table shows (table, summary and exit "
      "status stay the scenarios' own seeds'; N from 2 to 100, N + 1 times the runs)", "N" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &a->quiet, "No progress on standard error", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &a->patterns, NULL, NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx =
    g_option_context_new ("[PATTERN…] — compare predictions with the recorded hardware results");
  NsCmdOptions *given = ns_cmd_add_entries (ctx, entries);

  ns_cmd_limit_jobs (given, &a->jobs);
  ns_cmd_limit_int (given, &a->run_seeds, 0, 100, "2 to 100 seeds (or 0, none)");
  g_option_context_set_description (ctx,
    "Runs the case of every recorded row (or of the rows whose id matches a PATTERN: a glob\n"
    "such as '002-*-f100', or a prefix such as 000) and prints, per row, the recorded and\n"
    "simulated baseline, patched and delta, the error in percentage points, the tolerance\n"
    "max(3 pp, 10 % of |recorded delta|), the set (calibration or validation) and the status\n"
    "(pass, fail, not-modelled, error), then summary lines and the runs' parameter values\n"
    "whose source says unsourced. Where the thread gives CVs and the number of runs,\n"
    "it also prints the recorded delta's 95 % interval (informative: judging uses the\n"
    "tolerance only). Where a recorded file states a baseline tolerance (seed 002: issue\n"
    "4's 20 %), the summary also counts the simulated baselines within it and names those\n"
    "outside (reported apart: no verdict or exit status depends on it). The recorded pairs\n"
    "whose two rows were selected (seed 000: mitigations off vs on) follow, each with the\n"
    "simulated change and, where both figures have CVs, whether it lies inside the\n"
    "recorded 95 % interval (reported apart too). Rows without a scenario yet are listed\n"
    "as not-modelled. See doc/validation.md.\n"
    "What-if (--set, --refit): how the table depends on a value, e.g. an unsourced one:\n"
    "  netsim validate 000 --set param.cpu.freq_ghz=3.675 --refit\n"
    "runs every row with the set, after re-fitting the free parameters on their calibration\n"
    "rows under it, and prints what was changed above the results. The recorded figures stay\n"
    "as measured; without --refit the calibration rows keep the shipped fits.\n"
    "A recorded fit (calibration.xml) no longer holds when its rows, as this run made them,\n"
    "miss by more than its recorded residual + 0.002: the model changed since the fit and\n"
    "netsim calibrate must run again (judged unless --set or --refit).\n"
    "Exit status: 0 ok; 1 a validation row failed (outside its tolerance or with the wrong\n"
    "sign) or errored, a calibration row errored, a row is both fitted and counted as\n"
    "validation, a fitted value in use differs from calibration.xml's record, a variant a\n"
    "row runs sets a parameter or the CPU profile, a fit no longer holds, or gnuplot\n"
    "failed to draw --plot's image (then neither it nor -o is written). With\n"
    "--expected FILE, 1 instead only for a change against FILE: a row that passed there and\n"
    "does not now, one that ran there and errors now, a row absent there that fails or\n"
    "errors, changed figures or set, a conflict or a drifted fit (rows that failed in FILE\n"
    "and still fail do not count); 2 bad input or usage (also: a case that sets a parameter\n"
    "or the CPU profile, --plot without gnuplot).");
  if (!ns_cmd_parse_options (ctx, given, &argc, &argv))
    return FALSE;
  if (argc > 1) {
    g_printerr ("netsim validate: unexpected argument '%s' (see --help)\n", argv[1]);
    return FALSE;
  }
  return TRUE;
}

/* TRUE if --plot's path may take the PNG: a name ending in .png, as sweep --plot asks,
 * or an existing device or FIFO (/dev/null, /dev/stdout into a viewer), written in place. */
static gboolean
plot_name_ok (const char *path)
{
  return g_str_has_suffix (path, ".png") ||
         (g_file_test (path, G_FILE_TEST_EXISTS) &&
          !g_file_test (path, G_FILE_TEST_IS_REGULAR | G_FILE_TEST_IS_DIR));
}

/* Checks options that need no run; FALSE: usage error (reported). */
static gboolean
check_args (const NsValidateArgs *a, NsFormat *format)
{
  GError *err = NULL;

  if (a->format && !ns_format_parse (a->format, format)) {
    g_printerr ("netsim validate: --format: expected table, csv or json, got '%s'\n", a->format);
    return FALSE;
  }
  if (!ns_cmd_check_jobs ("validate", a->jobs))
    return FALSE;
  if (a->run_seeds == 1) {     /* the parse took 0 to 100 */
    g_printerr ("netsim validate: --run-seeds: expected 2 to 100 seeds (or 0, none), got "
                "'1'\n");
    return FALSE;
  }
  for (guint i = 0; a->run_seeds && a->sets && a->sets[i]; i++)
    if (g_str_has_prefix (a->sets[i], "seed=")) {
      g_printerr ("netsim validate: --set %s: --run-seeds sets the run seed of its runs "
                  "itself\n", a->sets[i]);
      return FALSE;
    }
  if (!ns_cmd_check_sets_once ("validate", a->sets, "--set"))
    return FALSE;
  if ((a->sets || a->refit) && a->expected) {
    g_printerr ("netsim validate: --expected checks the recorded set-ups; it does not go "
                "with --set or --refit\n");
    return FALSE;
  }
  for (guint i = 0; a->sets && a->sets[i]; i++)
    if (g_str_has_prefix (a->sets[i], "cpu.profile=")) {
      g_printerr ("netsim validate: --set %s: each row runs on the profile of the CPU it was "
                  "measured on (netsim run --set cpu.profile=… runs a scenario on another)\n",
                  a->sets[i]);
      return FALSE;
    }
  if (a->expected && (ns_cmd_same_file (a->expected, a->output) ||
                      ns_cmd_same_file (a->expected, a->plot))) {
    g_printerr ("netsim validate: --expected %s is also the output: the check would compare "
                "the run with itself and overwrite the file (check first, then write it)\n",
                a->expected);
    return FALSE;
  }
  if (a->plot && !plot_name_ok (a->plot)) {
    g_printerr ("netsim validate: --plot: the image is a PNG, so its name must end in .png "
                "(or name a device or FIFO, written in place), got '%s'\n", a->plot);
    return FALSE;
  }
  if ((a->output == NULL || ns_cmd_names_stdout (a->output)) && ns_cmd_names_stdout (a->plot)) {
    g_printerr ("netsim validate: --plot %s is standard output, where the table goes: the "
                "two would mix (name a file for one of them: --plot FILE.png or -o FILE)\n",
                a->plot);
    return FALSE;
  }
  if (ns_cmd_outputs_clash (a->output, a->plot)) {
    g_printerr ("netsim validate: -o and --plot are one file, %s: one would overwrite the "
                "other\n", a->output);
    return FALSE;
  }
  if (!ns_cmd_check_output (a->output, &err) || !ns_cmd_check_output (a->plot, &err) ||
      (a->expected && !ns_validation_read_expected (a->expected, &err))) {
    g_printerr ("netsim validate: %s\n", err->message);
    g_error_free (err);
    return FALSE;
  }
  if (a->plot && !ns_cmd_have_gnuplot ()) {
    g_autofree char *hint = ns_cmd_gnuplot_hint ();
    g_printerr ("netsim validate: --plot needs gnuplot: %s\n", hint);
    return FALSE;
  }
  return TRUE;
}

/* Writes the output and the plot, both rendered first and then written all or nothing
 * (ns_cmd_write_outputs), after the expected-results check; returns the exit status. */
static int
finish (const NsValidateArgs *a, const NsValReport *report, NsFormat format)
{
  GString *out = g_string_new (NULL), *messages = g_string_new (NULL);
  GString *image = g_string_new (NULL);
  const char *const paths[] = { a->output, a->plot };
  GError *err = NULL;
  gint regressions = 0;
  int status = ns_validation_exit_status (report);

  if (a->expected) {                 /* before anything is written */
    regressions = ns_validation_check_expected (report, a->expected, a->patterns == NULL,
                                                messages, &err);
    if (regressions < 0)
      goto fail;
    status = regressions > 0 || report->conflicts->len > 0 ||
             ns_validation_drifted_fits (report) > 0 ? NS_EXIT_CHECK : NS_EXIT_OK;
  }
  ns_validation_write (out, report, format);
  if (a->plot && !plot (report, a->plot, image, &err))
    goto fail;                      /* nothing written yet */
  if (!ns_cmd_write_outputs (paths, (const GString *const[]) { out, a->plot ? image : NULL },
                             2, &err))
    goto fail;
  g_printerr ("%s", messages->str);
  g_string_free (out, TRUE);
  g_string_free (image, TRUE);
  g_string_free (messages, TRUE);
  return status;

fail:
  g_string_free (out, TRUE);
  g_string_free (image, TRUE);
  g_string_free (messages, TRUE);
  return ns_cmd_fail (err);
}

/* ---- outputs that are inputs */

/* TRUE unless -o or --plot of a is input, what to validate; else FALSE with an error
 * naming both. */
static gboolean
outputs_not_input (const NsValidateArgs *a, const char *what, const char *input,
                   GError **error)
{
  return ns_cmd_check_not_input ("-o", a->output, what, input, error) &&
         ns_cmd_check_not_input ("--plot", a->plot, what, input, error);
}

/* TRUE unless -o or --plot of a is a file the run of rows reads: a recorded file of v
 * (seed-*.xml, cases.xml, calibration.xml), the scenario of a row's case, the CPU
 * profile a row names; else FALSE with an error naming both. Runs nothing. */
static gboolean
outputs_not_inputs (const NsValidateArgs *a, const NsValidation *v, GPtrArray *rows,
                    GError **error)
{
  g_autoptr (GPtrArray) profiles = ns_validation_row_profiles (rows);
  const char *const *files = ns_validation_files (v);
  gboolean ok = TRUE;

  for (guint i = 0; ok && files[i]; i++)
    ok = outputs_not_input (a, "the recorded file", files[i], error);
  for (guint i = 0; ok && i < rows->len; i++) {
    const NsValCase *c = ns_validation_case (v, ((NsRecordedRow *) rows->pdata[i])->id);
    g_autofree char *path = c && c->scenario ? ns_validation_scenario_path (c) : NULL;
    ok = outputs_not_input (a, "the scenario", path, error);
  }
  for (guint i = 0; ok && i < profiles->len; i++) {
    NsCpuProfile *profile = ns_cpu_profile_load (profiles->pdata[i], NULL);
    ok = profile == NULL || outputs_not_input (a, "the CPU profile", profile->path, error);
    if (profile)
      ns_cpu_profile_free (profile);
  }
  return ok;
}

/* ---- the what-if */

/* FALSE (with an error) if a --set sets a parameter that --refit fits for profiles. */
static gboolean
check_refit_sets (const NsValidation *v, char **sets, const char *const *profiles,
                  GError **error)
{
  GPtrArray *fits = ns_validation_fits (v);

  for (guint i = 0; i < fits->len; i++) {
    const NsValFit *f = fits->pdata[i];
    g_autofree char *prefix = g_strdup_printf ("param.%s=", f->param);
    if (!g_strv_contains (profiles, f->profile))
      continue;
    for (guint k = 0; sets && sets[k]; k++)
      if (g_str_has_prefix (sets[k], prefix)) {
        g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "--set %s: --refit fits %s (on %s), so "
                     "it cannot be set too", sets[k], f->param, f->profile);
        return FALSE;
      }
  }
  return TRUE;
}

/* Re-fits the recorded fits of the rows' profiles under a->sets: fills profile_sets
 * (profile → param.NAME=VALUE list) and appends one what-if line per fit. */
static gboolean
refit (const NsValidateArgs *a, const NsValidation *v, GPtrArray *rows, const NsValOptions *opt,
       GHashTable *profile_sets, GPtrArray *what_if, GError **error)
{
  g_autoptr (GPtrArray) names = ns_validation_row_profiles (rows);
  const char *const *profiles;
  NsCalibrateOptions copt = { .jobs = (guint) a->jobs, .sets = (const char *const *) a->sets,
                              .progress = opt->progress };
  g_autoptr (GPtrArray) fits = NULL;

  g_ptr_array_add (names, NULL);
  profiles = (const char *const *) names->pdata;
  if (!check_refit_sets (v, a->sets, profiles, error))
    return FALSE;
  if (!a->quiet)
    g_printerr ("netsim validate: re-fitting the recorded fits of %u profile(s)…\n",
                names->len - 1);
  if ((fits = ns_calibrate_refit (v, profiles, &copt, error)) == NULL)
    return FALSE;
  for (guint i = 0; i < fits->len; i++) {
    const NsFit *f = fits->pdata[i];
    g_autofree char *rows_text = g_strjoinv (" ", f->rows);
    g_autofree char *set = g_strdup_printf ("param.%s=%s", f->param, f->value_text);
    char start[G_ASCII_DTOSTR_BUF_SIZE];

    g_hash_table_insert (profile_sets, g_strdup (f->profile),
                         ns_strv_append (g_hash_table_lookup (profile_sets, f->profile), set));
    g_ascii_formatd (start, sizeof start, "%.4g", f->start);
    g_ptr_array_add (what_if, g_strdup_printf ("refit %s %s = %s (shipped fit %s) on %s, "
                                               "target %s, residual %s; used by every row "
                                               "measured on %s%s%s", f->profile, f->param,
                                               f->value_text, start, rows_text, f->target,
                                               f->residual_text, f->profile,
                                               f->refused ? "; NOT A FIT: " : "",
                                               f->refused ? f->refused : ""));
  }
  return TRUE;
}

/* Sets up opt's what-if from --set and --refit; what_if and profile_sets keep what opt
 * points to. */
static gboolean
what_if (const NsValidateArgs *a, const NsValidation *v, GPtrArray *rows, NsValOptions *opt,
         GHashTable *profile_sets, GPtrArray *lines, GError **error)
{
  if ((a->sets || a->refit) && ns_validation_count_modelled (v, rows) == 0) {
    g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s has no run to apply to: no selected "
                 "row is modelled (netsim validate without it lists them as not modelled)",
                 a->sets ? "--set" : "--refit");
    return FALSE;
  }
  opt->sets = (const char *const *) a->sets;
  for (guint i = 0; a->sets && a->sets[i]; i++)
    g_ptr_array_add (lines, g_strdup_printf ("every run with --set %s", a->sets[i]));
  if (a->sets && !a->refit)
    g_ptr_array_add (lines, g_strdup ("calibration rows keep the shipped fits (--refit fits "
                                      "them again under the sets)"));
  if (a->sets && !ns_validation_check_sets (v, rows, opt, error))
    return FALSE;
  if (a->refit && !refit (a, v, rows, opt, profile_sets, lines, error))
    return FALSE;
  opt->profile_sets = g_hash_table_size (profile_sets) > 0 ? profile_sets : NULL;
  g_ptr_array_add (lines, NULL);
  opt->what_if = lines->len > 1 ? (const char *const *) lines->pdata : NULL;
  return TRUE;
}

/* --run-seeds: the rows again under run seeds 1…N, with a progress line per seed. */
static gboolean
run_seeds (const NsValidateArgs *a, NsValReport *report, GPtrArray *rows,
           const NsValOptions *opt, GError **error)
{
  if (a->run_seeds == 0)
    return TRUE;
  if (!a->quiet)
    g_printerr ("netsim validate: running the %u row(s) again under run seeds 1-%d…\n",
                rows->len, a->run_seeds);
  return ns_validation_run_seeds (report, rows, opt, (guint) a->run_seeds, error);
}

/* netsim validate [PATTERN…]: see --help. */
int
ns_cmd_validate (int argc, char **argv)
{
  NsValidateArgs a = { .jobs = 1 };
  NsFormat format = NS_FORMAT_TABLE;
  NsValOptions opt = { 0 };
  NsValidation *v = NULL;
  NsValReport *report = NULL;
  GPtrArray *rows = NULL;
  g_autofree char *dir = NULL;
  g_autoptr (GHashTable) profile_sets = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                               (GDestroyNotify) g_strfreev);
  g_autoptr (GPtrArray) what_if_lines = g_ptr_array_new_with_free_func (g_free);
  GError *err = NULL;
  int status;

  if (!parse_args (argc, argv, &a) || !check_args (&a, &format)) {
    args_clear (&a);
    return NS_EXIT_USAGE;
  }
  dir = ns_cmd_validation_dir (a.recorded);
  opt.jobs = (guint) a.jobs;
  if (!a.quiet && isatty (STDERR_FILENO))
    opt.progress = progress_cb;
  if ((v = ns_validation_load (dir, &err)) == NULL ||
      (rows = ns_validation_select (v, (const char *const *) a.patterns, &err)) == NULL ||
      !outputs_not_inputs (&a, v, rows, &err) ||
      !what_if (&a, v, rows, &opt, profile_sets, what_if_lines, &err) ||
      (report = ns_validation_run (v, rows, &opt, &err)) == NULL ||
      !run_seeds (&a, report, rows, &opt, &err))
    status = ns_cmd_fail (err);
  else
    status = finish (&a, report, format);
  ns_val_report_free (report);
  if (rows)
    g_ptr_array_unref (rows);
  ns_validation_free (v);
  args_clear (&a);
  return status;
}
