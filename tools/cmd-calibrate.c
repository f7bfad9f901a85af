/* cmd-calibrate.c — netsim calibrate: fit the free parameters of CPU profiles on named
 * calibration rows (sim/calibrate.h), or show which parameters are fitted and on what. */
#include "config.h"
#include <stdio.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "cmd.h"
#include "calibrate.h"
#include "hostbench.h"
#include "profile.h"

typedef struct {
  gboolean  fit;
  char    **rows;
  char    **params;
  char     *target;
  NsFitTarget target_kind;
  char     *recorded;
  gint      jobs;
  gboolean  dry_run;
  gboolean  replace;
  gboolean  quiet;
  gboolean  host;
  gboolean  quick;
  gint      runs;
  gboolean  jobs_given, runs_given;
  char     *output;
  char     *into;
} NsCalibrateArgs;


/* Frees what parse_args allocated in a (not a itself). */
static void
args_clear (NsCalibrateArgs *a)
{
  g_strfreev (a->rows);
  g_strfreev (a->params);
  g_free (a->target);
  g_free (a->recorded);
  g_free (a->output);
  g_free (a->into);
}

/* Shows the current residual evaluation's finished variant runs on stderr; the call with
 * done 0 that starts each batch of runs counts a new evaluation in *data. */
static void
progress_cb (guint done, guint total, const NsValJob *job, gpointer data)
{
  guint *evaluation = data;

  if (done == 0)
    (*evaluation)++;
  g_printerr ("\rresidual evaluation %u: %u/%u variant runs", *evaluation, done, total);
  if (done == total)
    g_printerr ("\n");
}

/* calibrate --help's text after the options */
static const char calibrate_description[] =
  "With --fit: fits the free parameters (netsim list params marks them; today cpu.ipc) of\n"
  "the CPU profile each named row runs on, by GSL nonlinear least squares on those rows\n"
  "only; writes each value, with the source \"fit on ROWS, residual R\", where the rows\n"
  "take it from: into their scenario when it sets the parameter itself (the shipped\n"
  "scenarios keep their fits so: an IPC belongs to a workload), else into the profile\n"
  "(scenarios/cpus/NAME.xml); and records the rows in calibration.xml, which makes them\n"
  "calibration rows: netsim validate reports them apart, and only the other rows are\n"
  "evidence. Without --fit: prints the free parameters of every profile and scenario the\n"
  "recorded rows use, where each value is set and its provenance.\n"
  "Exit status: 0 ok, 1 a run failed or the rows do not depend on the parameter, a fit is\n"
  "refused (its value at a limit of the parameter's range, a cpu.ipc above the profile's\n"
  "cpu.issue_width, its residual above 0.002, or not converged: nothing written), or a\n"
  "row is fitted but counted as validation; 2 bad input or usage.\n"
  "\n"
  "With --host -o FILE: measures this machine — core clock, L1D/L2/L3/DRAM latency,\n"
  "branch mispredict, indirect-call and LFENCE costs, LOCK XADD, RDTSC, REP STOS/MOVS\n"
  "start-ups, copy bandwidth, core-to-core transfer —\n"
  "reads cache sizes, topology and the kernel's mitigations from sysfs (cache sizes it\n"
  "lacks from CPUID), and writes a CPU profile whose every value names its method as\n"
  "its source; what it could not measure is a comment saying why. Use it with\n"
  "--set cpu.profile=FILE. Retpoline and Safe RET costs, and a datagram's 8920-byte\n"
  "copy beside the model's price for it, are measured and reported in the profile's\n"
  "description. The model's other parameters keep their defaults; cpu.ipc\n"
  "stays to be fitted. A host's runs scatter (a VM's more): --runs 3 or 5 writes each\n"
  "value as the median of the runs, with their figures in its source.\n"
  "\n"
  "With --host --into PROFILE.xml --param NAME…: measures as above and sets each named\n"
  "value in that existing profile (its <param> replaced, or added after the last one),\n"
  "the rest of the file byte for byte as it was; nothing is written if a name is not\n"
  "measured, this host gives no figure for it, or its figure is out of range. The source\n"
  "says where and when it was measured; whether that host stands for the profile's CPU\n"
  "(the same core?) is for the source's reader, so say it there.";

/* The option set of calibrate --host, with argc arguments left; FALSE: usage error
 * (reported). */
static gboolean
check_host_args (const NsCalibrateArgs *a, int argc)
{
  if (argc > 1 || a->fit || a->rows || (a->output == NULL) == (a->into == NULL)) {
    g_printerr ("netsim calibrate: --host takes -o FILE or --into PROFILE, and no rows "
                "(see --help)\n");
    return FALSE;
  }
  if (a->into != NULL && !g_str_has_suffix (a->into, ".xml")) {
    g_printerr ("netsim calibrate: --into %s: expected a profile file, NAME.xml (see "
                "--help)\n", a->into);
    return FALSE;
  }
  if ((a->into != NULL) != (a->params != NULL)) {
    g_printerr ("netsim calibrate: --into takes --param NAME (the measured values to "
                "write), and --param with --host goes with --into (see --help)\n");
    return FALSE;
  }
  if (a->dry_run || a->replace || a->target || a->recorded || a->jobs_given) {
    g_printerr ("netsim calibrate: --dry-run, --replace, --target, --recorded and --jobs go "
                "with --fit, not --host (see --help)\n");
    return FALSE;
  }
  return TRUE;
}

/* The option set of calibrate without --host (--fit ROW…, or the listing), with argc
 * arguments left; FALSE: usage error (reported). */
static gboolean
check_fit_args (NsCalibrateArgs *a, int argc)
{
  if (a->output || a->into || a->quick || a->runs_given) {
    g_printerr ("netsim calibrate: --output, --into, --quick and --runs go with --host "
                "(see --help)\n");
    return FALSE;
  }
  if (argc > 1 || (a->fit && a->rows == NULL) || (!a->fit && a->rows != NULL)) {
    g_printerr ("netsim calibrate: expected --fit ROW… or no arguments (see --help)\n");
    return FALSE;
  }
  if (!a->fit && (a->params || a->target || a->dry_run || a->replace || a->jobs_given)) {
    g_printerr ("netsim calibrate: --param, --target, --dry-run, --replace and --jobs go with "
                "--fit (see --help)\n");
    return FALSE;
  }
  if (a->target && !ns_fit_target_parse (a->target, &a->target_kind)) {
    g_printerr ("netsim calibrate: --target: expected absolute, baseline or delta, got '%s'\n",
                a->target);
    return FALSE;
  }
  return ns_cmd_check_jobs ("calibrate", a->jobs);
}

/* Parses the command line; FALSE: usage error (reported). */
static gboolean
parse_args (int argc, char **argv, NsCalibrateArgs *a)
{
  GOptionEntry entries[] = {
    { "fit", 0, 0, G_OPTION_ARG_NONE, &a->fit, "Fit on the named rows (ids or patterns as for "
      "netsim validate)", NULL },
    { "param", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &a->params, "Fit only this free parameter "
      "(repeatable; default: every free parameter)", "NAME" },
    { "target", 0, 0, G_OPTION_ARG_STRING, &a->target, "What to match: absolute (the baseline "
      "and patched figures, default), baseline (the baseline figure only) or delta", "WHAT" },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &a->jobs, "With --fit: variant runs at once, in child "
      "processes (default 1; at most 4 × the processors: more only share them thinner, and "
      "each holds a whole simulated machine in memory)", "N" },
    { "recorded", 0, 0, G_OPTION_ARG_FILENAME, &a->recorded, "Folder with seed-*.xml, cases.xml "
      "and calibration.xml (default: <datadir>/validation); --fit writes calibration.xml "
      "there, and the fitted value into the scenario files the cases name, where they are "
      "(under <datadir>: copy the tree and set NETSIM_DATADIR to experiment)", "DIR" },
    { "dry-run", 'n', 0, G_OPTION_ARG_NONE, &a->dry_run, "With --fit: print the fit, write "
      "nothing", NULL },
    { "replace", 0, 0, G_OPTION_ARG_NONE, &a->replace, "With --fit: replace a recorded fit of "
      "the same profile and parameter on other rows (those rows count as evidence again, "
      "these no longer do)", NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &a->quiet, "No progress on standard error", NULL },
    { "host", 0, 0, G_OPTION_ARG_NONE, &a->host, "Measure this machine (x86-64 Linux) with "
      "microbenchmarks and write its CPU profile to --output", NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &a->output, "With --host: the profile file, "
      "NAME.xml, a new one (written whole or not at all)", "FILE" },
    { "quick", 0, 0, G_OPTION_ARG_NONE, &a->quick, "With --host: short measurements (a few "
      "seconds in all, 10 to 15 on a small VM; noisier)", NULL },
    { "into", 0, 0, G_OPTION_ARG_FILENAME, &a->into, "With --host: write the measured values "
      "--param names into this existing CPU profile instead (all or none)", "FILE" },
    { "runs", 0, 0, G_OPTION_ARG_INT, &a->runs, "With --host: measure N times (1 to 100, "
      "default 1); each value is the median, its source lists the N figures", "N" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &a->rows, NULL, NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx =
    g_option_context_new ("[--fit ROW… | --host -o FILE] — fit free parameters on named "
                          "calibration rows, or measure this machine");
  NsCmdOptions *given = ns_cmd_add_entries (ctx, entries);

  ns_cmd_limit_jobs (given, &a->jobs);
  ns_cmd_limit_int (given, &a->runs, 1, 100, "1 to 100");
  g_option_context_set_description (ctx, calibrate_description);
  if (!ns_cmd_parse_options (ctx, given, &argc, &argv))
    return FALSE;
  a->jobs_given = ns_cmd_given (given, &a->jobs);
  a->runs_given = ns_cmd_given (given, &a->runs);
  return a->host ? check_host_args (a, argc) : check_fit_args (a, argc);
}

/* Prints the free parameters of every profile and scenario the rows use, and any
 * fitted-but-validation conflict; a case naming a scenario file that is not there is
 * refused (exit 2, at its line of cases.xml): its parameters would go unlisted. */
static int
show_provenance (const NsValidation *v)
{
  GPtrArray *conflicts = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *provenance = g_ptr_array_new_with_free_func (ns_val_provenance_free);
  GError *err = NULL;
  int status = NS_EXIT_OK;

  if (!ns_validation_check_scenario_files (v, &err) ||
      !ns_validation_check_fits (v, conflicts, provenance, &err)) {
    status = ns_cmd_fail (err);
    goto out;
  }
  g_print ("%-18s %-10s %-8s %-40s %s\n", "profile", "parameter", "value", "set in", "source");
  for (guint i = 0; i < provenance->len; i++) {
    const NsValProvenance *pv = provenance->pdata[i];
    g_print ("%-18s %-10s %-8s %-40s %s\n", pv->profile, pv->param, pv->value, pv->scope,
             pv->source);
  }
  for (guint i = 0; i < conflicts->len; i++)
    g_print ("conflict: %s\n", (const char *) conflicts->pdata[i]);
  status = conflicts->len ? NS_EXIT_CHECK : NS_EXIT_OK;
out:
  g_ptr_array_unref (conflicts);
  g_ptr_array_unref (provenance);
  return status;
}

/* The ids of the rows (NsRecordedRow*) measured on profile, NULL-terminated. */
static char **
rows_on_profile (GPtrArray *rows, const char *profile)
{
  GPtrArray *ids = g_ptr_array_new ();

  for (guint i = 0; i < rows->len; i++) {
    const NsRecordedRow *row = rows->pdata[i];
    if (!g_strcmp0 (row->setup.profile, profile))
      g_ptr_array_add (ids, g_strdup (row->id));
  }
  g_ptr_array_add (ids, NULL);
  return (char **) g_ptr_array_free (ids, FALSE);
}

/* TRUE if the NULL-terminated lists a and b hold the same strings, whatever the order. */
static gboolean
same_ids (char **a, char **b)
{
  for (char **s = a; *s; s++)
    if (!g_strv_contains ((const char *const *) b, *s))
      return FALSE;
  return g_strv_length (a) == g_strv_length (b);
}

/* The recorded fits a fit on rows (of params; NULL: every free parameter) would replace on
 * other rows: "PROFILE PARAM = VALUE on ROW…" items, "; "-separated, or NULL if none (a
 * refit on the same rows replaces nothing that counts). */
static char *
fits_replaced (const NsValidation *v, GPtrArray *rows, const char *const *params)
{
  GPtrArray *old = ns_validation_fits (v);
  g_autoptr (GString) out = g_string_new (NULL);

  for (guint i = 0; i < old->len; i++) {
    const NsValFit *f = old->pdata[i];
    g_auto (GStrv) mine = NULL;
    g_autofree char *theirs = NULL;
    if (params && !g_strv_contains (params, f->param))
      continue;
    mine = rows_on_profile (rows, f->profile);
    if (mine[0] == NULL || same_ids (mine, f->rows))
      continue;
    theirs = g_strjoinv (" ", f->rows);
    g_string_append_printf (out, "%s%s %s = %s on %s", out->len ? "; " : "", f->profile,
                            f->param, f->value, theirs);
  }
  return out->len ? g_strdup (out->str) : NULL;
}

/* FALSE with an error if the fit on rows would replace a recorded fit on other rows and
 * replace is not given: it would move rows between the evidence and the calibration rows
 * unseen; with replace, says on standard output which fits it replaces. */
static gboolean
check_replaced (const NsValidation *v, GPtrArray *rows, const NsCalibrateArgs *a,
                GError **error)
{
  g_autofree char *replaced = fits_replaced (v, rows, (const char *const *) a->params);

  if (replaced == NULL)
    return TRUE;
  if (!a->replace && !a->dry_run)
    goto not_asked;
  g_print ("replaces the recorded fit%s %s: those rows count as evidence again once it is "
           "written, and these rows no longer do\n", strchr (replaced, ';') ? "s" : "",
           replaced);
  return TRUE;

/* ERRORS */
not_asked:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "calibration.xml records the fit %s: a fit "
               "on other rows would replace it, so those rows would count as evidence again "
               "and these no longer would; give --replace to do so (or --dry-run to see the "
               "fit first)", replaced);
  return FALSE;
}

/* Prints each fit and how it ended; unless a fit is refused (an NS_ERROR_CHECK error
 * naming every refused fit, nothing written, --dry-run too) or dry_run, writes the record
 * and each fit's file, all or none. */
static gboolean
write_fits (const NsValidation *v, GPtrArray *fits, gboolean dry_run, GError **error)
{
  g_autoptr (GString) refused = g_string_new (NULL);

  for (guint i = 0; i < fits->len; i++) {
    const NsFit *f = fits->pdata[i];
    g_print ("%s: %s %.6g -> %s (%s; %s; %u iterations, %u evaluations)\n", f->profile,
             f->param, f->start, f->value_text, f->source, f->outcome, f->iterations,
             f->evaluations);
  }
  for (guint i = 0; i < fits->len; i++) {
    const NsFit *f = fits->pdata[i];
    if (f->refused)
      g_string_append_printf (refused, "%sprofile %s, %s: refused: %s", refused->len ? "; " : "",
                              f->profile, f->param, f->refused);
  }
  if (refused->len > 0) {
    g_set_error (error, NS_ERROR, NS_ERROR_CHECK, "%s; nothing written", refused->str);
    return FALSE;
  }
  if (dry_run)
    return TRUE;
  if (!ns_calibrate_write (v, fits, error))
    return FALSE;
  for (guint i = 0; i < fits->len; i++)
    g_print ("wrote %s\n", ((const NsFit *) fits->pdata[i])->path);
  g_print ("wrote %s/calibration.xml\n", ns_validation_dir (v));
  return TRUE;
}

/* netsim calibrate --host --into PROFILE --param NAME…: measured values into a profile. */
/* Says on standard error that the measuring begins (once the arguments are checked). */
static void
say_measuring (const NsHostbenchOptions *opt)
{
  if (opt->progress)
    g_printerr ("measuring this host%s%s:\n", opt->quick ? " (quick)" : "",
                opt->runs > 1 ? ", each value the median of the runs" : "");
}

/* TRUE if path's file name is NAME.xml, as a profile's must be. */
static gboolean
profile_file_name (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);

  return g_str_has_suffix (base, ".xml") && strlen (base) > 4;
}

static int
calibrate_host_into (const NsCalibrateArgs *a, const NsHostbenchOptions *opt)
{
  g_autoptr (GPtrArray) values = NULL, sources = NULL;
  NsCpuProfile *profile;
  GError *err = NULL;

  profile = ns_cpu_profile_load (a->into, &err);    /* before measuring: a bad file fails */
  if (profile == NULL)
    return ns_cmd_fail (err);
  ns_cpu_profile_free (profile);
  say_measuring (opt);
  if (!ns_hostbench_measure (opt, (const char *const *) a->params, &values, &sources, &err) ||
      !ns_calibrate_write_profile_params (a->into, (const char *const *) a->params, values,
                                          sources, &err))
    return ns_cmd_fail (err);
  for (guint i = 0; a->params[i] != NULL; i++)
    g_print ("%s = %s\n", a->params[i], (const char *) values->pdata[i]);
  g_print ("wrote %u value%s into %s\n", values->len, values->len == 1 ? "" : "s", a->into);
  return NS_EXIT_OK;
}

/* TRUE if the profile just written at path loads (its name, the file stem, may be one the
 * loader refuses); else the file is removed and error says why. */
static gboolean
written_profile_loads (const char *path, GError **error)
{
  g_autoptr (GError) err = NULL;
  NsCpuProfile *p = ns_cpu_profile_load (path, &err);

  if (p != NULL) {
    ns_cpu_profile_free (p);
    return TRUE;
  }
  g_unlink (path);
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s: the profile written does not load (%s); "
               "removed, nothing written: name the file NAME.xml with a NAME a profile may "
               "have (doc/cpu-profiles.md)", path, err->message);
  return FALSE;
}

/* netsim calibrate --host -o FILE | --into PROFILE: measures this machine; a new -o file
 * is checked writable before the measuring. */
static int
calibrate_host (const NsCalibrateArgs *a)
{
  NsHostbenchOptions opt = { a->quick, !a->quiet, (guint) a->runs };
  GError *err = NULL;

  if (a->output != NULL && g_file_test (a->output, G_FILE_TEST_EXISTS))
    goto exists;
  if (a->output != NULL && !ns_cmd_check_output (a->output, &err))
    return ns_cmd_fail (err);
  if (a->into != NULL)
    return calibrate_host_into (a, &opt);
  if (!profile_file_name (a->output))
    goto bad_name;
  say_measuring (&opt);
  if (!ns_hostbench_write_profile (a->output, &opt, &err) ||
      !written_profile_loads (a->output, &err))
    return ns_cmd_fail (err);
  g_print ("wrote %s\n", a->output);
  return NS_EXIT_OK;

/* ERRORS */
exists:
  g_printerr ("netsim calibrate: %s exists: -o writes a new profile (--into updates values "
              "of an existing one)\n", a->output);
  return NS_EXIT_USAGE;
bad_name:
  g_printerr ("netsim calibrate: %s: a profile file is NAME.xml (its name is the file "
              "stem)\n", a->output);
  return NS_EXIT_USAGE;
}

/* netsim calibrate [--fit ROW…]: see --help. */
int
ns_cmd_calibrate (int argc, char **argv)
{
  NsCalibrateArgs a = { .jobs = 1, .runs = 1 };
  NsCalibrateOptions opt = { 0 };
  NsValidation *v = NULL;
  GPtrArray *rows = NULL, *fits = NULL;
  g_autofree char *dir = NULL;
  guint evaluation = 0;
  GError *err = NULL;
  int status = NS_EXIT_OK;

  if (!parse_args (argc, argv, &a)) {
    args_clear (&a);
    return NS_EXIT_USAGE;
  }
  if (a.host) {
    status = calibrate_host (&a);
    args_clear (&a);
    return status;
  }
  dir = ns_cmd_validation_dir (a.recorded);
  if ((v = ns_validation_load (dir, &err)) == NULL)
    goto fail;
  if (!a.fit) {
    status = show_provenance (v);
    goto out;
  }
  opt.params = (const char *const *) a.params;
  opt.target = a.target_kind;
  opt.jobs = (guint) a.jobs;
  if (!a.quiet && isatty (STDERR_FILENO)) {
    opt.progress = progress_cb;
    opt.progress_data = &evaluation;
  }
  if ((rows = ns_validation_select (v, (const char *const *) a.rows, &err)) == NULL ||
      !check_replaced (v, rows, &a, &err) ||
      (fits = ns_calibrate_fit (v, rows, &opt, &err)) == NULL ||
      !write_fits (v, fits, a.dry_run, &err))
    goto fail;
  goto out;

fail:
  status = ns_cmd_fail (err);
out:
  if (fits)
    g_ptr_array_unref (fits);
  if (rows)
    g_ptr_array_unref (rows);
  ns_validation_free (v);
  args_clear (&a);
  return status;
}
