/* calibrate.c — fitting free parameters (NsParamDef.free) of CPU profiles on named
 * calibration rows with GSL's trust-region nonlinear least squares, and recording the fit.
 *
 * A residual evaluation runs, for every row, the case's baseline and patched variants with
 * `--set param.NAME=VALUE` for each parameter being fitted — the same runs netsim validate
 * makes, in parallel child processes with --jobs. The simulated figures are piecewise
 * constant in a parameter at the finest scale (whole operations in a fixed simulated
 * time), so the Jacobian is taken by finite differences with a relative step of a few per
 * cent rather than GSL's default √ε. The fitted value is rounded to four significant
 * digits, and the residual reported is the one at the rounded value: exactly what
 * netsim validate will see. */
#include "config.h"
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit_nlinear.h>
#include "calibrate.h"
#include "param.h"
#include "profile.h"
#include "scenario.h"

#define DEFAULT_MAX_ITER 30
#define DEFAULT_STEP     0.02
#define POLISH_MAX_STEPS 20      /* steps of the last printed digit a polish may walk */
#define IPC_PARAM        "cpu.ipc"
#define ISSUE_PARAM      "cpu.issue_width"  /* a cpu.ipc above it is no fit */

/* One row of a fit: its recorded figures and how to run it. */
typedef struct {
  const NsRecordedRow *row;
  const NsValCase     *vcase;
  char                *scenario;   /* path */
  char               **sets;       /* the case's sets */
  NsScenario          *run;        /* the scenario with the case's sets */
  NsScenario          *file;       /* the scenario file alone */
} NsFitRow;

/* The rows and parameters of one profile's fit. */
typedef struct {
  char                     *profile;
  char                     *profile_path;
  GArray                   *rows;       /* NsFitRow */
  GPtrArray                *params;     /* const NsParamDef* */
  const NsCalibrateOptions *opt;
  double                    issue_width;  /* the least cpu.issue_width a row runs at */
  guint                     evaluations;
  GError                   *error;      /* first run failure */
} NsFitGroup;

/* Frees fit and every string it owns (NULL is fine). */
void
ns_fit_free (NsFit *fit)
{
  if (fit == NULL)
    return;
  g_free (fit->profile);
  g_free (fit->profile_path);
  g_free (fit->param);
  g_free (fit->value_text);
  g_free (fit->residual_text);
  g_free (fit->target);
  g_strfreev (fit->rows);
  g_free (fit->source);
  g_free (fit->outcome);
  g_free (fit->refused);
  g_free (fit->path);
  g_free (fit->shadowed);
  g_free (fit);
}

/* Frees what an NsFitRow owns (scenario path, sets, loaded scenarios), not the row itself. */
static void
fit_row_clear (gpointer p)
{
  NsFitRow *r = p;

  g_free (r->scenario);
  g_strfreev (r->sets);
  g_clear_pointer (&r->run, ns_scenario_free);
  g_clear_pointer (&r->file, ns_scenario_free);
}

/* Frees an NsFitGroup: its strings, rows, parameter list and any stored run error. */
static void
group_free (gpointer p)
{
  NsFitGroup *g = p;

  g_free (g->profile);
  g_free (g->profile_path);
  g_array_unref (g->rows);
  g_ptr_array_unref (g->params);
  g_clear_error (&g->error);
  g_free (g);
}

/* ------------------------------------------------------------------------------------ */
/* Grouping the rows by the profile they run on. */

/* The profile a case runs on (the scenario, with the case's sets, names it); keeps the
 * scenario with the sets and the file alone in fr. */
static NsCpuProfile *
case_profile (NsFitRow *fr, GError **error)
{
  fr->run = ns_scenario_load (fr->scenario, (const char *const *) fr->sets, error);
  if (fr->run == NULL)
    return NULL;
  fr->file = ns_scenario_load (fr->scenario, NULL, error);
  if (fr->file == NULL)
    return NULL;
  return ns_cpu_profile_load (fr->run->cpu, error);
}

/* The cpu.issue_width a row's runs use: the scenario's own (a --set param.cpu.issue_width
 * of a what-if makes one), else its profile's. */
static double
run_issue_width (const NsScenario *run, const NsCpuProfile *profile)
{
  const char *own = ns_scenario_param_value (run, ISSUE_PARAM);

  return own ? g_ascii_strtod (own, NULL) : ns_params_get_double (profile->params, ISSUE_PARAM);
}

/* The free parameters to fit: all of them, or those named (each must be free). */
static GPtrArray *
fit_params (const NsCalibrateOptions *opt, GError **error)
{
  GPtrArray *all = ns_param_all ();   /* owned by the registry */
  GPtrArray *params = g_ptr_array_new ();

  for (guint i = 0; i < all->len; i++) {
    const NsParamDef *def = all->pdata[i];
    if (def->free && (opt->params == NULL ||
                      g_strv_contains (opt->params, def->name)))
      g_ptr_array_add (params, (gpointer) def);
  }
  for (guint i = 0; opt->params && opt->params[i]; i++) {
    const NsParamDef *def = ns_param_lookup (opt->params[i]);
    if (def == NULL || !def->free || def->type != NS_PARAM_DOUBLE) {
      g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "--param %s: not a free numeric parameter "
                   "(netsim list params marks the free ones)", opt->params[i]);
      g_ptr_array_unref (params);
      return NULL;
    }
  }
  return params;
}

/* The group in groups for the profile file at path, or NULL. */
static NsFitGroup *
find_group (GPtrArray *groups, const char *path)
{
  for (guint i = 0; i < groups->len; i++)
    if (!strcmp (((NsFitGroup *) groups->pdata[i])->profile_path, path))
      return groups->pdata[i];
  return NULL;
}

/* Adds row to the group of its profile. */
static gboolean
group_row (const NsValidation *v, const NsRecordedRow *row, GPtrArray *groups,
           GPtrArray *params, const NsCalibrateOptions *opt, GError **error)
{
  const NsValCase *c = ns_validation_case (v, row->id);
  NsFitRow fr = { row, c, NULL, NULL, NULL, NULL };
  NsCpuProfile *profile;
  NsFitGroup *g;

  if (c == NULL || c->scenario == NULL)
    goto not_modelled;
  if (!ns_validation_case_scenario_exists (c, error))
    return FALSE;
  fr.scenario = ns_validation_scenario_path (c);
  fr.sets = ns_validation_run_sets (v, row, &(NsValOptions) { .sets = opt->sets });
  profile = case_profile (&fr, error);
  if (profile == NULL) {
    fit_row_clear (&fr);
    return FALSE;
  }
  g = find_group (groups, profile->path);
  if (g == NULL) {
    g = g_new0 (NsFitGroup, 1);
    g->profile = g_strdup (profile->name);
    g->profile_path = g_strdup (profile->path);
    g->rows = g_array_new (FALSE, TRUE, sizeof (NsFitRow));
    g_array_set_clear_func (g->rows, fit_row_clear);
    g->params = g_ptr_array_copy (params, NULL, NULL);
    g->opt = opt;
    g->issue_width = INFINITY;
    g_ptr_array_add (groups, g);
  }
  g->issue_width = MIN (g->issue_width, run_issue_width (fr.run, profile));
  g_array_append_val (g->rows, fr);
  ns_cpu_profile_free (profile);
  return TRUE;

/* ERRORS */
not_modelled:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "row %s is not modelled (%s): it cannot be "
               "fitted", row->id, c && c->reason ? c->reason : "no case");
  return FALSE;
}

/* ------------------------------------------------------------------------------------ */
/* The residual function. */

static const char *const target_names[] = { "absolute", "baseline", "delta" };

/* The static name of target ("absolute", "baseline" or "delta"); "?" if out of range. */
const char *
ns_fit_target_name (NsFitTarget target)
{
  g_return_val_if_fail ((guint) target < G_N_ELEMENTS (target_names), "?");
  return target_names[target];
}

/* Sets *target from its name; FALSE (*target untouched) if name is NULL or unknown. */
gboolean
ns_fit_target_parse (const char *name, NsFitTarget *target)
{
  for (guint i = 0; i < G_N_ELEMENTS (target_names); i++)
    if (!g_strcmp0 (name, target_names[i])) {
      *target = (NsFitTarget) i;
      return TRUE;
    }
  return FALSE;
}

/* Residuals per row: 2 (baseline and patched) for the absolute target, else 1. */
static guint
residuals_per_row (const NsCalibrateOptions *opt)
{
  return opt->target == NS_FIT_ABSOLUTE ? 2 : 1;
}

/* The value x_i clamped to its parameter's range. */
static double
clamp_param (const NsParamDef *def, double x)
{
  if (def->min <= def->max)
    x = CLAMP (x, def->min, def->max);
  return x;
}

/* The case's sets plus param.NAME=VALUE for each fitted parameter. */
static char **
row_sets (const NsFitGroup *g, const NsFitRow *fr, const gsl_vector *x)
{
  GPtrArray *sets = g_ptr_array_new ();
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  for (guint i = 0; fr->sets[i]; i++)
    g_ptr_array_add (sets, g_strdup (fr->sets[i]));
  for (guint k = 0; k < g->params->len; k++) {
    const NsParamDef *def = g->params->pdata[k];
    g_ascii_dtostr (buf, sizeof buf, clamp_param (def, gsl_vector_get (x, k)));
    g_ptr_array_add (sets, g_strdup_printf ("param.%s=%s", def->name, buf));
  }
  g_ptr_array_add (sets, NULL);
  return (char **) g_ptr_array_free (sets, FALSE);
}

/* Writes the residuals of one row from its two finished runs. */
static void
row_residuals (const NsFitGroup *g, const NsFitRow *fr, const NsValRun *b, const NsValRun *p,
               gsl_vector *f, guint at)
{
  const NsRecordedRow *row = fr->row;
  double scale = fr->vcase->unit_scale;

  if (g->opt->target == NS_FIT_DELTA) {
    double sim = 100.0 * (p->value / b->value - 1.0);
    gsl_vector_set (f, at, (sim - row->delta_pct) / 100.0);
    return;
  }
  gsl_vector_set (f, at, (b->value * scale - row->baseline) / row->baseline);
  if (g->opt->target == NS_FIT_BASELINE)
    return;
  gsl_vector_set (f, at + 1, row->patched > 0 ? (p->value * scale - row->patched) / row->patched
                                             : p->value * scale);
}

/* GSL callback: runs every row at x and fills the residual vector. */
static int
group_residuals (const gsl_vector *x, void *data, gsl_vector *f)
{
  NsFitGroup *g = data;
  GPtrArray *jobs = g_ptr_array_new_with_free_func ((GDestroyNotify) ns_val_job_free);
  int status = GSL_SUCCESS;

  for (guint i = 0; i < g->rows->len; i++) {
    const NsFitRow *fr = &g_array_index (g->rows, NsFitRow, i);
    g_auto (GStrv) sets = row_sets (g, fr, x);
    g_ptr_array_add (jobs, ns_val_job_new (fr->scenario, fr->vcase->baseline,
                                           (const char *const *) sets));
    g_ptr_array_add (jobs, ns_val_job_new (fr->scenario, fr->vcase->patched,
                                           (const char *const *) sets));
  }
  ns_val_jobs_run (jobs, g->opt->jobs, g->opt->progress, g->opt->progress_data);
  g->evaluations++;
  for (guint i = 0; i < g->rows->len && status == GSL_SUCCESS; i++) {
    NsValJob *b = jobs->pdata[2 * i], *p = jobs->pdata[2 * i + 1];
    NsValJob *failed = b->run == NULL ? b : p->run == NULL ? p : NULL;
    const NsFitRow *fr = &g_array_index (g->rows, NsFitRow, i);
    g_autofree char *problem = NULL;
    if (failed) {
      if (g->error == NULL)
        g->error = g_error_copy (failed->error);
      status = GSL_EFAILED;
      break;
    }
    problem = ns_validation_runs_problem (fr->row, fr->vcase, b->run, p->run);
    if (problem) {
      if (g->error == NULL)
        g->error = g_error_new (NS_ERROR, NS_ERROR_CHECK, "row %s: %s: it cannot be fitted",
                                fr->row->id, problem);
      status = GSL_EFAILED;
      break;
    }
    row_residuals (g, fr, b->run, p->run, f, i * residuals_per_row (g->opt));
  }
  g_ptr_array_unref (jobs);
  return status;
}

/* ------------------------------------------------------------------------------------ */
/* Fitting one group. */

/* Root mean square of the residuals in f. */
static double
rms (const gsl_vector *f)
{
  double sum = 0;

  for (size_t i = 0; i < f->size; i++)
    sum += gsl_vector_get (f, i) * gsl_vector_get (f, i);
  return sqrt (sum / (double) f->size);
}

/* TRUE if some residual changes with some parameter (the Jacobian is not all zero). */
static gboolean
jacobian_nonzero (gsl_multifit_nlinear_workspace *w)
{
  const gsl_matrix *J = gsl_multifit_nlinear_jac (w);

  for (size_t i = 0; i < J->size1; i++)
    for (size_t j = 0; j < J->size2; j++)
      if (gsl_matrix_get (J, i, j) != 0)
        return TRUE;
  return FALSE;
}

/* x rounded to four significant digits, the precision a fit is written at. */
static double
round4 (double x)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (buf, sizeof buf, "%.4g", x);
  return g_ascii_strtod (buf, NULL);
}

/* Rounds x to four significant digits (clamped to the parameter's range), as text too. */
static void
round_params (const NsFitGroup *g, gsl_vector *x, char **texts)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  for (guint k = 0; k < g->params->len; k++) {
    double v = clamp_param (g->params->pdata[k], gsl_vector_get (x, k));
    g_ascii_formatd (buf, sizeof buf, "%.4g", v);
    g_free (texts[k]);
    texts[k] = g_strdup (buf);
    gsl_vector_set (x, k, g_ascii_strtod (buf, NULL));
  }
}

/* TRUE if x lies at or beyond a limit of def's range (a trial point outside it runs
 * clamped, so the residual is flat there and the driver may stop on it). */
static gboolean
at_range_limit (const NsParamDef *def, double x)
{
  return def->min <= def->max && (x <= def->min || x >= def->max);
}

/* "fit on ROW ROW…, residual R". */
static char **
group_row_ids (const NsFitGroup *g)
{
  char **ids = g_new0 (char *, g->rows->len + 1);

  for (guint i = 0; i < g->rows->len; i++)
    ids[i] = g_strdup (g_array_index (g->rows, NsFitRow, i).row->id);
  return ids;
}

/* TRUE if the paths a and b (either may be relative to the working directory) name the
 * same file by their canonical form. */
static gboolean
same_path (const char *a, const char *b)
{
  g_autofree char *ca = g_canonicalize_filename (a, NULL);
  g_autofree char *cb = g_canonicalize_filename (b, NULL);

  return strcmp (ca, cb) == 0;
}

/* Where a fitted value of param is used by every row of g: the scenario file that
 * declares it for them all (their own, or the one their <param from=...> names: a
 * workload's fit, as the shipped scenarios keep theirs), else the profile (*path: a new
 * string). NULL, with *why, when no one file serves them all: the rows' scenarios take it
 * from different files, or (a guard: cases.xml refuses such a case when it loads, see
 * validate.c's forbidden_set) a case's sets set param. */
static gboolean
param_home (const NsFitGroup *g, const char *param, char **path, char **why)
{
  const NsFitRow *first = &g_array_index (g->rows, NsFitRow, 0), *fr = NULL;
  const char *home = ns_scenario_param_home (first->file, param);

  *path = *why = NULL;
  for (guint i = 0; i < g->rows->len; i++) {
    const char *here;
    fr = &g_array_index (g->rows, NsFitRow, i);
    here = ns_scenario_param_home (fr->file, param);
    if (ns_scenario_param_value (fr->run, param) && here == NULL)
      goto set_by_case;
    if ((here == NULL) != (home == NULL) || (home != NULL && !same_path (here, home)))
      goto rows_differ;
  }
  *path = g_strdup (home != NULL ? home : g->profile_path);
  return TRUE;

/* ERRORS */
set_by_case:
  *why = g_strdup_printf ("the case of row %s sets %s itself (remove that <set>, or fit it "
                          "by hand)", fr->row->id, param);
  return FALSE;
rows_differ:
  *why = g_strdup_printf ("rows %s and %s take %s from different files (a scenario that sets "
                          "it, another scenario, or the profile): fit them one scenario at a "
                          "time", first->row->id, fr->row->id, param);
  return FALSE;
}

/* Builds the NsFit of every parameter of g at the rounded position x. */
static void
group_results (const NsFitGroup *g, const gsl_vector *x0, const gsl_vector *x, char **texts,
               double residual, guint iterations, const char *outcome, const char *refused,
               GPtrArray *fits)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_auto (GStrv) ids = group_row_ids (g);
  g_autofree char *list = g_strjoinv (" ", ids);

  g_ascii_formatd (buf, sizeof buf, "%.3g", residual);
  for (guint k = 0; k < g->params->len; k++) {
    NsFit *fit = g_new0 (NsFit, 1);
    fit->profile = g_strdup (g->profile);
    fit->profile_path = g_strdup (g->profile_path);
    fit->param = g_strdup (((const NsParamDef *) g->params->pdata[k])->name);
    fit->start = gsl_vector_get (x0, k);
    fit->value = gsl_vector_get (x, k);
    fit->value_text = g_strdup (texts[k]);
    fit->residual = residual;
    fit->residual_text = g_strdup (buf);
    fit->target = g_strdup (ns_fit_target_name (g->opt->target));
    fit->rows = g_strdupv (ids);
    fit->iterations = iterations;
    fit->evaluations = g->evaluations;
    fit->source = g_strdup_printf ("fit on %s, residual %s", list, buf);
    fit->outcome = g_strdup (outcome);
    fit->refused = g_strdup (refused);
    param_home (g, fit->param, &fit->path, &fit->shadowed);
    g_ptr_array_add (fits, fit);
  }
}

/* Starting point: the values the rows run on now (their scenario's, else the profile's). */
static gboolean
start_point (const NsFitGroup *g, gsl_vector *x0, GError **error)
{
  const NsFitRow *first = &g_array_index (g->rows, NsFitRow, 0);
  NsCpuProfile *profile = ns_cpu_profile_load (g->profile_path, error);

  if (profile == NULL)
    return FALSE;
  for (guint k = 0; k < g->params->len; k++) {
    const char *name = ((const NsParamDef *) g->params->pdata[k])->name;
    const char *own = ns_scenario_param_value (first->file, name);
    gsl_vector_set (x0, k, own ? g_ascii_strtod (own, NULL)
                                : ns_params_get_double (profile->params, name));
  }
  ns_cpu_profile_free (profile);
  return TRUE;
}

/* The driver's exit as text: converged by which test, no progress, the iteration limit,
 * or another GSL status. */
static char *
driver_outcome (int status, int info)
{
  if (status == GSL_SUCCESS)
    return g_strdup (info == 1 ? "converged (step size test, xtol)"
                     : info == 2 ? "converged (gradient test, gtol)"
                     : "converged (machine precision)");
  if (status == GSL_EMAXITER && info == GSL_ENOPROG)
    return g_strdup ("no progress (no trust-region step lowered the cost)");
  if (status == GSL_EMAXITER)
    return g_strdup ("iteration limit reached");
  return g_strdup_printf ("stopped: %s", gsl_strerror (status));
}

/* TRUE if x lies inside def's range or on its limits. */
static gboolean
in_range (const NsParamDef *def, double x)
{
  return def->min > def->max || (x >= def->min && x <= def->max);
}

/* v moved by dir (±1) units of its last of four significant digits, rounded to four: for
 * 1.124, 1.123 or 1.125. */
static double
neighbour (double v, int dir)
{
  double unit = v == 0 ? 1e-4 : pow (10, floor (log10 (fabs (v))) - 3);

  return round4 (v + dir * unit);
}

/* The RMS residual of a one-parameter group at value v, into *r (x and f: scratch of the
 * group's sizes); FALSE if a run failed (g->error says why). */
static gboolean
residual_at (NsFitGroup *g, double v, gsl_vector *x, gsl_vector *f, double *r)
{
  gsl_vector_set (x, 0, v);
  if (group_residuals (x, g, f) != GSL_SUCCESS)
    return FALSE;
  *r = rms (f);
  return TRUE;
}

/* Polishes a one-parameter fit at its printed precision: from *v (rounded, residual *r)
 * walks by the last printed digit towards the lower-residual neighbour while the residual
 * falls (at most POLISH_MAX_STEPS steps, never out of the range); *confirmed when it stops
 * at a value both of whose neighbours are no better, so the result does not depend on
 * where the driver stopped. FALSE if a run failed. */
static gboolean
polish (NsFitGroup *g, gsl_vector *x, gsl_vector *f, double *v, double *r, guint *steps,
        gboolean *confirmed)
{
  const NsParamDef *def = g->params->pdata[0];
  double cand[2], res[2] = { INFINITY, INFINITY };
  int dir;

  *steps = 0;
  *confirmed = FALSE;
  for (int d = 0; d < 2; d++) {
    cand[d] = neighbour (*v, d ? 1 : -1);
    if (in_range (def, cand[d]) && !residual_at (g, cand[d], x, f, &res[d]))
      return FALSE;
  }
  if (res[0] >= *r && res[1] >= *r) {
    *confirmed = TRUE;
    return TRUE;
  }
  dir = res[0] < res[1] ? -1 : 1;
  *v = cand[dir > 0];
  *r = res[dir > 0];
  for (*steps = 1; *steps < POLISH_MAX_STEPS; (*steps)++) {
    double next = neighbour (*v, dir), rn;
    if (!in_range (def, next))
      return TRUE;
    if (!residual_at (g, next, x, f, &rn))
      return FALSE;
    if (rn >= *r) {
      *confirmed = TRUE;
      return TRUE;
    }
    *v = next;
    *r = rn;
  }
  return TRUE;
}

/* Why a fitted value x of def is no value for the rows of g: a cpu.ipc above the
 * cpu.issue_width they run at (a core sustains no more instructions a cycle than it
 * issues), as a new string; NULL when it is not. */
static char *
beyond_issue_width (const NsFitGroup *g, const NsParamDef *def, double x)
{
  if (strcmp (def->name, IPC_PARAM) || !(x > g->issue_width))
    return NULL;
  return g_strdup_printf ("%s = %.4g exceeds %s = %g of profile %s as the rows run: a core "
                          "cannot sustain more instructions a cycle than it issues, so no "
                          "plausible %s reproduces these rows (the model, or a what-if's "
                          "set, is off by more than %s can make up)", IPC_PARAM, x,
                          ISSUE_PARAM, g->issue_width, g->profile, IPC_PARAM, IPC_PARAM);
}

/* Why the fit of g at the rounded x (residual, converged or not; raw: where the driver
 * stopped, perhaps out of a parameter's range) is no fit to write — a value at a limit of
 * its range, a cpu.ipc above the rows' cpu.issue_width, the residual, no convergence — as
 * a new string naming the parameter at fault; NULL when it is one. */
static char *
refusal (const NsFitGroup *g, const gsl_vector *x, const gsl_vector *raw, double residual,
         gboolean converged, const char *outcome)
{
  for (guint k = 0; k < g->params->len; k++) {
    const NsParamDef *def = g->params->pdata[k];
    double v = gsl_vector_get (x, k);
    gboolean pinned = !converged && !in_range (def, gsl_vector_get (raw, k));
    char *why;
    if (at_range_limit (def, v) || pinned)
      return g_strdup_printf ("%s = %.4g lies at or beyond a limit of its range %g to %g (%s): "
                              "the best value lies outside the range, or the fit ran out of "
                              "it and stopped where the residual is flat; start it nearer (the "
                              "value the rows run on now) or fit other rows", def->name,
                              v, def->min, def->max, outcome);
    if ((why = beyond_issue_width (g, def, v)) != NULL)
      return why;
  }
  if (!(residual <= NS_FIT_MAX_RESIDUAL))
    return g_strdup_printf ("residual %.3g exceeds %g (0.2 %% of a figure, 0.2 pp of a delta): "
                            "the fitted value "
                            "does not reproduce its rows", residual, NS_FIT_MAX_RESIDUAL);
  if (!converged)
    return g_strdup_printf ("the fit did not converge (%s)", outcome);
  return NULL;
}

/* TRUE if the driver's position p lies out of some parameter's range. */
static gboolean
out_of_range (const NsFitGroup *g, const gsl_vector *p)
{
  for (guint k = 0; k < g->params->len; k++)
    if (!in_range (g->params->pdata[k], gsl_vector_get (p, k)))
      return TRUE;
  return FALSE;
}

/* Runs the trust-region fit of one group (then, for one parameter, the polish), judges it
 * (NsFit.refused) and appends its NsFit entries. */
static gboolean
fit_group (NsFitGroup *g, GPtrArray *fits, GError **error)
{
  gsl_multifit_nlinear_parameters params = gsl_multifit_nlinear_default_parameters ();
  gsl_multifit_nlinear_fdf fdf = { 0 };
  gsl_multifit_nlinear_workspace *w = NULL;
  gsl_vector *x0 = gsl_vector_alloc (g->params->len), *x = NULL, *f = NULL, *raw = NULL;
  char **texts = g_new0 (char *, g->params->len + 1);
  g_autofree char *driver = NULL, *outcome = NULL, *refused = NULL;
  int info = 0, status;
  gboolean ok = FALSE, converged, pinned_raw;
  double residual;
  gsl_error_handler_t *old = gsl_set_error_handler_off ();

  fdf.f = group_residuals;
  fdf.n = g->rows->len * residuals_per_row (g->opt);
  fdf.p = g->params->len;
  fdf.params = g;
  params.h_df = g->opt->step > 0 ? g->opt->step : DEFAULT_STEP;
  if (fdf.n < fdf.p)
    goto too_few;
  if (!start_point (g, x0, error))
    goto out;
  w = gsl_multifit_nlinear_alloc (gsl_multifit_nlinear_trust, &params, fdf.n, fdf.p);
  if (gsl_multifit_nlinear_init (x0, &fdf, w) != GSL_SUCCESS)
    goto run_failed;
  if (!jacobian_nonzero (w))
    goto flat;
  status = gsl_multifit_nlinear_driver (g->opt->max_iter ? g->opt->max_iter : DEFAULT_MAX_ITER,
                                        1e-4, 1e-8, 1e-8, NULL, NULL, &info, w);
  if (g->error)
    goto run_failed;
  driver = driver_outcome (status, info);
  x = gsl_vector_alloc (fdf.p);
  f = gsl_vector_alloc (fdf.n);
  gsl_vector_memcpy (x, gsl_multifit_nlinear_position (w));
  raw = gsl_vector_alloc (fdf.p);
  gsl_vector_memcpy (raw, x);
  pinned_raw = out_of_range (g, x);
  round_params (g, x, texts);
  if (group_residuals (x, g, f) != GSL_SUCCESS)
    goto run_failed;
  residual = rms (f);
  converged = status == GSL_SUCCESS && !pinned_raw;
  if (fdf.p == 1) {
    double v = gsl_vector_get (x, 0);
    guint steps;
    if (!polish (g, x, f, &v, &residual, &steps, &converged))
      goto run_failed;
    gsl_vector_set (x, 0, v);
    round_params (g, x, texts);
    outcome = g_strdup_printf ("%s%s; %s", driver, pinned_raw ? ", out of the range" : "",
                               !converged ? "not polished: the residual still fell after the polish's last step"
                               : steps ? "polished to a minimum at the last printed digit"
                               : "a minimum at the last printed digit");
  } else
    outcome = g_strdup_printf ("%s%s", driver, pinned_raw ? ", out of the range" : "");
  refused = refusal (g, x, raw, residual, converged, outcome);
  group_results (g, x0, x, texts, residual, (guint) gsl_multifit_nlinear_niter (w), outcome,
                 refused, fits);
  ok = TRUE;
  goto out;

/* ERRORS */
too_few:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "profile %s: %u residuals cannot fit %u "
               "parameters: name more rows", g->profile, (guint) fdf.n, (guint) fdf.p);
  goto out;
run_failed:
  if (g->error)
    g_propagate_error (error, g_steal_pointer (&g->error));
  else
    g_set_error (error, NS_ERROR, NS_ERROR_CHECK, "profile %s: the fit failed", g->profile);
  goto out;
flat:
  g_set_error (error, NS_ERROR, NS_ERROR_CHECK, "profile %s: no fitted row changes when the "
               "parameters move by %g %%: they cannot be fitted on these rows", g->profile,
               100 * params.h_df);
out:
  gsl_set_error_handler (old);
  g_strfreev (texts);
  g_clear_pointer (&w, gsl_multifit_nlinear_free);
  g_clear_pointer (&x0, gsl_vector_free);
  g_clear_pointer (&x, gsl_vector_free);
  g_clear_pointer (&raw, gsl_vector_free);
  g_clear_pointer (&f, gsl_vector_free);
  return ok;
}

/* Fits the free parameters on rows; see calibrate.h. */
GPtrArray *
ns_calibrate_fit (const NsValidation *v, GPtrArray *rows, const NsCalibrateOptions *opt,
                  GError **error)
{
  g_autoptr (GPtrArray) groups = g_ptr_array_new_with_free_func (group_free);
  g_autoptr (GPtrArray) params = NULL;
  GPtrArray *fits;

  g_return_val_if_fail (v != NULL && rows != NULL && opt != NULL, NULL);
  params = fit_params (opt, error);
  if (params == NULL)
    return NULL;
  if (params->len == 0)
    goto no_params;
  for (guint i = 0; i < rows->len; i++)
    if (!group_row (v, rows->pdata[i], groups, params, opt, error))
      return NULL;
  fits = g_ptr_array_new_with_free_func ((GDestroyNotify) ns_fit_free);
  for (guint i = 0; i < groups->len; i++)
    if (!fit_group (groups->pdata[i], fits, error)) {
      g_ptr_array_unref (fits);
      return NULL;
    }
  return fits;

/* ERRORS */
no_params:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "no free parameter to fit");
  return NULL;
}

/* The rows named by a recorded fit (the array does not own them). */
static GPtrArray *
fit_rows (const NsValidation *v, const NsValFit *f, GError **error)
{
  GPtrArray *rows = g_ptr_array_new ();

  for (guint i = 0; f->rows[i]; i++) {
    const NsRecordedRow *row = ns_validation_find_row (v, f->rows[i]);
    if (row == NULL) {
      g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "calibration.xml: the fit of %s %s names "
                   "row %s, which is not recorded", f->profile, f->param, f->rows[i]);
      g_ptr_array_unref (rows);
      return NULL;
    }
    g_ptr_array_add (rows, (gpointer) row);
  }
  return rows;
}

/* Fits one recorded fit again under opt's sets, appending the result to fits. */
static gboolean
refit_one (const NsValidation *v, const NsValFit *f, const NsCalibrateOptions *opt,
           GPtrArray *fits, GError **error)
{
  NsCalibrateOptions o = *opt;
  const char *params[] = { f->param, NULL };
  g_autoptr (GPtrArray) rows = NULL, got = NULL;

  o.params = params;
  if (!ns_fit_target_parse (f->target, &o.target))
    goto bad_target;
  if ((rows = fit_rows (v, f, error)) == NULL ||
      (got = ns_calibrate_fit (v, rows, &o, error)) == NULL)
    return FALSE;
  while (got->len > 0)
    g_ptr_array_add (fits, g_ptr_array_steal_index (got, 0));
  return TRUE;

/* ERRORS */
bad_target:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "calibration.xml: the fit of %s %s has target "
               "'%s' (expected absolute, baseline or delta)", f->profile, f->param,
               f->target ? f->target : "");
  return FALSE;
}

/* Fits every recorded fit of profiles again under opt; see calibrate.h. */
GPtrArray *
ns_calibrate_refit (const NsValidation *v, const char *const *profiles,
                    const NsCalibrateOptions *opt, GError **error)
{
  GPtrArray *recorded, *fits;

  g_return_val_if_fail (v != NULL && opt != NULL, NULL);
  recorded = ns_validation_fits (v);
  fits = g_ptr_array_new_with_free_func ((GDestroyNotify) ns_fit_free);
  for (guint i = 0; i < recorded->len; i++) {
    const NsValFit *f = recorded->pdata[i];
    if (profiles && !g_strv_contains (profiles, f->profile))
      continue;
    if (!refit_one (v, f, opt, fits, error)) {
      g_ptr_array_unref (fits);
      return NULL;
    }
  }
  return fits;
}

/* ------------------------------------------------------------------------------------ */
/* Writing the profile (a textual edit) and the calibration record. */

/* The element text <param name=… value=… source=…/>, attribute values escaped. */
static char *
param_element (const char *param, const char *value, const char *source)
{
  g_autofree char *n = g_markup_escape_text (param, -1);
  g_autofree char *v = g_markup_escape_text (value, -1);
  g_autofree char *s = g_markup_escape_text (source, -1);

  return g_strdup_printf ("<param name=\"%s\" value=\"%s\" source=\"%s\"/>", n, v, s);
}

/* Leading white space of the line holding offset pos of text. */
static char *
line_indent (const char *text, gsize pos)
{
  gsize start = pos, end;

  while (start > 0 && text[start - 1] != '\n')
    start--;
  for (end = start; end < pos && (text[end] == ' ' || text[end] == '\t'); end++)
    ;
  return g_strndup (text + start, end - start);
}

/* TRUE if offset pos of text lies inside an XML comment. */
static gboolean
in_comment (const char *text, gint pos)
{
  const char *open = NULL;

  for (const char *p = strstr (text, "<!--"); p && p - text < pos; p = strstr (p + 4, "<!--"))
    open = p;
  return open != NULL && !g_strstr_len (open + 4, text + pos - (open + 4), "-->");
}

/* One piece of a start tag after its name: a character that is no '>' or quote, or a
 * whole quoted attribute value (which may hold '>'). */
#define TAG_PIECE "(?:[^>\"']|\"[^\"]*\"|'[^']*')"
/* The end of a <param>: "/>", or ">" and an empty body up to "</param>". */
#define PARAM_END "(?:/>|>\\s*</param\\s*>)"

/* 1-based number of the line holding offset pos of text. */
static int
line_at (const char *text, gsize pos)
{
  int line = 1;

  for (gsize i = 0; i < pos && text[i] != '\0'; i++)
    line += text[i] == '\n';
  return line;
}

/* Offsets [*start, *end) of the last (first when first is TRUE) match of re in text that
 * does not begin inside a comment; FALSE if none. */
static gboolean
find_element (const GRegex *re, const char *text, gboolean first, gint *start, gint *end)
{
  g_autoptr (GMatchInfo) m = NULL;
  gboolean found = FALSE;

  for (g_regex_match (re, text, 0, &m); g_match_info_matches (m); g_match_info_next (m, NULL)) {
    gint s0, e0;
    if (g_match_info_fetch_pos (m, 0, &s0, &e0) && !in_comment (text, s0)) {
      *start = s0;
      *end = e0;
      found = TRUE;
      if (first)
        break;
    }
  }
  return found;
}

/* The edited text: param's element replaced, or a new line after the last <param> (or
 * before the first <mitigations> if there is no <param>); any legal quoting and spacing
 * of the attributes is recognised, and the rest of the text is kept byte for byte. NULL
 * if neither exists. *line is the line of text the edit is made at. */
static char *
edit_profile_text (const char *text, const char *param, const char *element, int *line)
{
  g_autofree char *quoted = g_regex_escape_string (param, -1);
  g_autofree char *own = g_strdup_printf ("<param\\s" TAG_PIECE "*?(?<=\\s)name\\s*=\\s*"
                                          "(?:\"%s\"|'%s')" TAG_PIECE "*" PARAM_END,
                                          quoted, quoted);
  g_autoptr (GRegex) own_re = g_regex_new (own, 0, 0, NULL);
  g_autoptr (GRegex) any_re = g_regex_new ("<param\\s" TAG_PIECE "*" PARAM_END, 0, 0, NULL);
  const char *mitigations;
  gint start = -1, end = -1;
  g_autofree char *indent = NULL;

  g_return_val_if_fail (own_re != NULL && any_re != NULL, NULL);
  if (find_element (own_re, text, TRUE, &start, &end)) {
    *line = line_at (text, (gsize) start);
    return g_strdup_printf ("%.*s%s%s", start, text, element, text + end);
  }
  if (find_element (any_re, text, FALSE, &start, &end)) {
    *line = line_at (text, (gsize) end);
    indent = line_indent (text, (gsize) start);
    return g_strdup_printf ("%.*s\n%s%s%s", end, text, indent, element, text + end);
  }
  mitigations = strstr (text, "<mitigations");
  if (mitigations == NULL)
    return NULL;
  start = (gint) (mitigations - text);
  *line = line_at (text, (gsize) start);
  indent = line_indent (text, (gsize) start);
  return g_strdup_printf ("%.*s%s\n%s%s", start, text, element, indent, text + start);
}

/* TRUE if the file at path loads as what it is (a scenario when scenario is TRUE, else a
 * profile); *value is then a copy of the text value it gives param (NULL: none). */
static gboolean
file_param_value (const char *path, gboolean scenario, const char *param, char **value,
                  GError **error)
{
  if (scenario) {
    NsScenario *sc = ns_scenario_load (path, NULL, error);
    if (sc == NULL)
      return FALSE;
    *value = g_strdup (ns_scenario_param_value (sc, param));
    ns_scenario_free (sc);
  } else {
    NsCpuProfile *p = ns_cpu_profile_load (path, error);
    if (p == NULL)
      return FALSE;
    *value = g_strdup (ns_params_get_text (p->params, param));
    ns_cpu_profile_free (p);
  }
  return TRUE;
}

/* Sets param's element in the file at path by a textual edit. The file must load first
 * (its errors then name its own lines); the old text is restored if the result does not
 * load or does not give param the value, and the error names path and the line edited. */
static gboolean
write_param (const char *path, gboolean scenario, const char *param, const char *value,
             const char *source, GError **error)
{
  g_autofree char *text = NULL, *edited = NULL, *element = NULL, *was = NULL, *now = NULL;
  g_autoptr (GError) local = NULL;
  int line = 0;

  if (!g_file_get_contents (path, &text, NULL, error) ||
      !file_param_value (path, scenario, param, &was, error))
    return FALSE;
  element = param_element (param, value, source);
  edited = edit_profile_text (text, param, element, &line);
  if (edited == NULL)
    goto no_place;
  if (!g_file_set_contents (path, edited, -1, error))
    return FALSE;
  if (!file_param_value (path, scenario, param, &now, &local))
    goto no_load;
  if (g_strcmp0 (now, value) != 0)
    goto not_set;
  return TRUE;

/* ERRORS */
no_place:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s: no <param> or <mitigations> element to "
               "place %s next to", path, param);
  return FALSE;
no_load:
  g_file_set_contents (path, text, -1, NULL);
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s:%d: %s=\"%s\" written here does not load "
               "(the edited text: %s); file left as it was", path, line, param, value,
               local->message);
  return FALSE;
not_set:
  g_file_set_contents (path, text, -1, NULL);
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s:%d: the edit did not set %s to %s (is an "
               "earlier <param name=\"%s\"> commented out?); file left as it was", path, line,
               param, value, param);
  return FALSE;
}

/* Writes the parameter into the profile file; see calibrate.h. */
gboolean
ns_calibrate_write_profile (const char *path, const char *param, const char *value,
                            const char *source, GError **error)
{
  g_return_val_if_fail (path && param && value && source, FALSE);
  return write_param (path, FALSE, param, value, source, error);
}

/* Writes a fit where its rows take the value from; see calibrate.h. */
gboolean
ns_calibrate_write_fit (const NsFit *fit, GError **error)
{
  g_return_val_if_fail (fit != NULL && fit->path != NULL, FALSE);
  return write_param (fit->path, strcmp (fit->path, fit->profile_path) != 0, fit->param,
                      fit->value_text, fit->source, error);
}

/* Appends a <fit/> line for one fitted parameter to out; every attribute is escaped but
 * target (written as is). */
static void
record_fit (GString *out, const char *profile, const char *param, const char *value,
            const char *residual, const char *target, char **rows)
{
  g_autofree char *p = g_markup_escape_text (profile, -1);
  g_autofree char *n = g_markup_escape_text (param, -1);
  g_autofree char *v = g_markup_escape_text (value, -1);
  g_autofree char *r = g_markup_escape_text (residual, -1);
  g_autofree char *list = g_strjoinv (" ", rows);
  g_autofree char *l = g_markup_escape_text (list, -1);

  g_string_append_printf (out, "  <fit profile=\"%s\" param=\"%s\" value=\"%s\" residual=\"%s\" "
                          "target=\"%s\" rows=\"%s\"/>\n", p, n, v, r, target, l);
}

/* TRUE if fits has a new fit of old's profile and parameter (old is then dropped). */
static gboolean
replaced_by (const NsValFit *old, GPtrArray *fits)
{
  for (guint i = 0; i < fits->len; i++) {
    const NsFit *f = fits->pdata[i];
    if (!strcmp (f->profile, old->profile) && !strcmp (f->param, old->param))
      return TRUE;
  }
  return FALSE;
}

/* Rewrites calibration.xml; see calibrate.h. */
gboolean
ns_calibrate_write_record (const NsValidation *v, GPtrArray *fits, GError **error)
{
  GPtrArray *old = ns_validation_fits (v);
  g_autofree char *path = g_build_filename (ns_validation_dir (v), "calibration.xml", NULL);
  GString *out = g_string_new ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                               "<!-- Written by netsim calibrate: the fits behind every "
                               "parameter whose source says \"fit on\". -->\n<calibration>\n");
  gboolean ok;

  for (guint i = 0; i < old->len; i++) {
    const NsValFit *f = old->pdata[i];
    if (!replaced_by (f, fits))
      record_fit (out, f->profile, f->param, f->value, f->residual, f->target, f->rows);
  }
  for (guint i = 0; i < fits->len; i++) {
    const NsFit *f = fits->pdata[i];
    record_fit (out, f->profile, f->param, f->value_text, f->residual_text, f->target, f->rows);
  }
  g_string_append (out, "</calibration>\n");
  ok = g_file_set_contents (path, out->str, out->len, error);
  g_string_free (out, TRUE);
  return ok;
}

/* Records in snap the current text of the file at path (NULL if it does not exist). */
static void
snapshot_file (GHashTable *snap, const char *path)
{
  char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    text = NULL;
  g_hash_table_replace (snap, g_strdup (path), text);
}

/* Path → current text (NULL: absent) of calibration.xml and of every file a fit goes to. */
static GHashTable *
snapshot_files (const NsValidation *v, GPtrArray *fits)
{
  GHashTable *snap = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autofree char *record = g_build_filename (ns_validation_dir (v), "calibration.xml", NULL);

  snapshot_file (snap, record);
  for (guint i = 0; i < fits->len; i++)
    snapshot_file (snap, ((const NsFit *) fits->pdata[i])->path);
  return snap;
}

/* Puts every snapshotted file back as it was (removing those that did not exist). */
static void
restore_files (GHashTable *snap)
{
  GHashTableIter it;
  gpointer path, text;

  g_hash_table_iter_init (&it, snap);
  while (g_hash_table_iter_next (&it, &path, &text)) {
    if (text)
      g_file_set_contents (path, text, -1, NULL);
    else
      g_unlink (path);
  }
}

/* Sets params' values in the profile at path, all or none; see calibrate.h. */
gboolean
ns_calibrate_write_profile_params (const char *path, const char *const *params,
                                   GPtrArray *values, GPtrArray *sources, GError **error)
{
  g_autoptr (GHashTable) snap = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                       g_free);

  g_return_val_if_fail (path != NULL && params != NULL && values != NULL && sources != NULL,
                        FALSE);
  snapshot_file (snap, path);
  for (guint i = 0; params[i] != NULL; i++)
    if (!ns_calibrate_write_profile (path, params[i], values->pdata[i], sources->pdata[i],
                                     error))
      goto failed;
  return TRUE;

/* ERRORS */
failed:
  restore_files (snap);
  g_prefix_error (error, "nothing written: ");
  return FALSE;
}

/* The file that holds the value of param the recorded row id runs with: its scenario's
 * own (or the one it takes from=), else profile_path; NULL if the row has no case or its
 * scenario does not load. A new string. */
static char *
row_param_home (const NsValidation *v, const char *id, const char *param,
                const char *profile_path)
{
  const NsValCase *c = ns_validation_case (v, id);
  g_autofree char *scenario = NULL;
  NsScenario *sc;
  char *home;

  if (c == NULL || c->scenario == NULL)
    return NULL;
  scenario = ns_validation_scenario_path (c);
  if ((sc = ns_scenario_load (scenario, NULL, NULL)) == NULL)
    return NULL;
  home = g_strdup (ns_scenario_param_home (sc, param) ? ns_scenario_param_home (sc, param)
                                                      : profile_path);
  ns_scenario_free (sc);
  return home;
}

/* Why writing fit would orphan another file's recorded fit, as a new string (NULL: it
 * would not): calibration.xml's fit of the same profile and parameter, which fit
 * replaces (one fit per profile and parameter), names a row whose value another file
 * than fit->path holds; that file would keep a "fit on" value no record backs. */
static char *
orphaned_fit (const NsValidation *v, const NsFit *fit)
{
  GPtrArray *old = ns_validation_fits (v);

  for (guint i = 0; i < old->len; i++) {
    const NsValFit *f = old->pdata[i];
    if (strcmp (f->profile, fit->profile) || strcmp (f->param, fit->param))
      continue;
    for (guint k = 0; f->rows[k]; k++) {
      g_autofree char *home = row_param_home (v, f->rows[k], f->param, fit->profile_path);
      if (home != NULL && !same_path (home, fit->path)) {
        g_autofree char *old_rows = g_strjoinv (" ", f->rows);
        g_autofree char *new_rows = g_strjoinv (" ", fit->rows);
        return g_strdup_printf ("calibration.xml's fit of %s %s = %s on %s, held by %s, "
                                "would be replaced by this fit on %s, written to %s (one "
                                "fit per profile and parameter), leaving %s's value "
                                "unrecorded: fit the rows together (--fit %s %s)",
                                f->profile, f->param, f->value, old_rows, home, new_rows,
                                fit->path, home, old_rows, new_rows);
      }
    }
  }
  return NULL;
}

/* Writes calibration.xml and every fit, all or none; see calibrate.h. */
gboolean
ns_calibrate_write (const NsValidation *v, GPtrArray *fits, GError **error)
{
  g_autoptr (GHashTable) snap = NULL;
  g_autofree char *why = NULL;

  g_return_val_if_fail (v != NULL && fits != NULL, FALSE);
  for (guint i = 0; i < fits->len; i++) {
    const NsFit *f = fits->pdata[i];
    if (f->refused)
      goto refused;
    if (f->shadowed)
      goto shadowed;
  }
  for (guint i = 0; i < fits->len; i++)
    if ((why = orphaned_fit (v, fits->pdata[i])) != NULL)
      goto orphaned;
  snap = snapshot_files (v, fits);
  if (!ns_calibrate_write_record (v, fits, error))
    goto failed;
  for (guint i = 0; i < fits->len; i++)
    if (!ns_calibrate_write_fit (fits->pdata[i], error))
      goto failed;
  return TRUE;

/* ERRORS */
orphaned:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s; nothing written", why);
  return FALSE;
refused:
  for (guint i = 0; i < fits->len; i++) {
    const NsFit *f = fits->pdata[i];
    if (f->refused) {
      g_set_error (error, NS_ERROR, NS_ERROR_CHECK, "profile %s: %s: no fit; nothing "
                   "written", f->profile, f->refused);
      break;
    }
  }
  return FALSE;
shadowed:
  for (guint i = 0; i < fits->len; i++) {
    const NsFit *f = fits->pdata[i];
    if (f->shadowed) {
      g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s: no one file (profile %s or a "
                   "scenario) holds the %s every fitted row uses; nothing written (use "
                   "--dry-run to see the fit)", f->shadowed, f->profile, f->param);
      break;
    }
  }
  return FALSE;
failed:
  restore_files (snap);
  g_prefix_error (error, "nothing written: ");
  return FALSE;
}
