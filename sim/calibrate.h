/* calibrate.h — fitting the free parameters of CPU profiles on named calibration rows
 * (GSL nonlinear least squares), and recording each fit: the value with its provenance
 * where the rows take it from (their scenario when it sets the parameter itself, else the
 * profile scenarios/cpus/NAME.xml; a textual edit of that one <param>) and the rows in
 * validation/calibration.xml. See doc/validation.md. */
#pragma once
#include "validate.h"

G_BEGIN_DECLS

/* What the residuals compare. */
typedef enum {
  NS_FIT_ABSOLUTE,              /* baseline and patched figures (relative errors) */
  NS_FIT_BASELINE,              /* the baseline figure only (relative error) */
  NS_FIT_DELTA                  /* the delta (error in pp / 100) */
} NsFitTarget;

typedef struct {
  const char *const *params;    /* free parameters to fit (NULL: every free parameter) */
  NsFitTarget        target;
  guint              jobs;          /* variant runs in parallel (child processes) */
  guint              max_iter;      /* trust-region iterations (0: 30) */
  double             step;          /* relative finite-difference step (0: 0.02) */
  NsValProgress      progress;
  gpointer           progress_data;
  const char *const *sets;          /* PATH=VALUE for every run, after the case's (a what-if
                                       refit, netsim validate --refit; NULL: none) */
} NsCalibrateOptions;

/* The largest residual (RMS) a fit may have to be written: 0.002, i.e. 0.2 % of a fitted
 * baseline (0.2 pp of a delta under --target delta), the drift netsim validate allows a
 * recorded fit (FIT NO LONGER HOLDS). The shipped fits have 7.9e-6 to 2.0e-4
 * (validation/calibration.xml); a fit above it does not
 * reproduce its rows, whatever the value. doc/validation.md. */
#define NS_FIT_MAX_RESIDUAL 0.002

/* One fitted parameter of one profile. */
typedef struct {
  char    *profile;             /* profile name */
  char    *profile_path;        /* its file */
  char    *param;
  double   start;               /* value before the fit */
  double   value;               /* fitted value, rounded to 4 significant digits */
  char    *value_text;
  double   residual;            /* RMS of the residuals at value */
  char    *residual_text;
  char    *target;              /* "absolute", "baseline" or "delta" */
  char   **rows;                /* rows fitted on, NULL-terminated */
  guint    iterations;
  guint    evaluations;         /* residual evaluations (each runs 2 variants per row) */
  char    *source;              /* "fit on ROW ROW…, residual R" */
  char    *outcome;             /* how the fit ended: the driver's exit (converged by which
                                   test, no progress, or the iteration limit) and, for one
                                   parameter, the polish at the last printed digit */
  char    *refused;             /* non-NULL: not a fit (it is never written): the value lies
                                   at or beyond a limit of the parameter's range, a cpu.ipc
                                   exceeds the cpu.issue_width the rows run at, the
                                   residual exceeds NS_FIT_MAX_RESIDUAL, or the fit did not
                                   converge: why */
  char    *path;                /* the file the rows take the value from, where it is
                                   written: their scenario when that sets the parameter
                                   itself (as the shipped scenarios keep their fits), else
                                   profile_path; NULL when shadowed */
  char    *shadowed;            /* non-NULL: no one file serves every fitted row (a case's
                                   sets set the parameter, or the rows' scenarios differ
                                   in setting it): why */
} NsFit;

void        ns_fit_free               (NsFit *fit);
/* "absolute", "baseline", "delta"; and back (FALSE: unknown name). */
const char *ns_fit_target_name        (NsFitTarget target);
gboolean    ns_fit_target_parse       (const char *name, NsFitTarget *target);
/* Fits the free parameters of the profile each row runs on, separately per profile, on
 * rows (NsRecordedRow*; each must be modelled). Residuals: the relative errors of the
 * simulated baseline and patched figures (target absolute), of the baseline figure only
 * (target baseline), or the delta errors in percentage points / 100 (target delta). Returns NsFit* (one per profile and parameter)
 * or NULL with an error (NS_ERROR_INPUT: a row cannot be fitted; NS_ERROR_CHECK: a run
 * failed or the rows do not depend on the parameter). */
GPtrArray *ns_calibrate_fit           (const NsValidation *v, GPtrArray *rows,
                                       const NsCalibrateOptions *opt, GError **error);
/* Fits again, under opt (its params and target are ignored), every fit calibration.xml
 * records for a profile in profiles (NULL-terminated; NULL: every profile): the same
 * parameter on the same rows with the same target. Returns NsFit* in calibration.xml's
 * order (nothing is written), or NULL with an error as ns_calibrate_fit. */
GPtrArray *ns_calibrate_refit         (const NsValidation *v, const char *const *profiles,
                                       const NsCalibrateOptions *opt, GError **error);
/* Sets <param name=param value=value source=source/> in the profile file at path by a
 * textual edit (replacing that parameter's element, or adding a line after the last
 * <param>); the rest of the file stays byte-identical. The result must load. */
gboolean   ns_calibrate_write_profile (const char *path, const char *param, const char *value,
                                       const char *source, GError **error);
/* Sets each of params (NULL-terminated) to values[i] with sources[i] in the profile at
 * path by the same edit, all or none: a failure leaves the file as it was. */
gboolean   ns_calibrate_write_profile_params (const char *path, const char *const *params,
                                              GPtrArray *values, GPtrArray *sources,
                                              GError **error);
/* Writes fit's value and source into fit->path (the same textual edit; a scenario must set
 * the parameter already, and must load after). */
gboolean   ns_calibrate_write_fit     (const NsFit *fit, GError **error);
/* Writes v's calibration.xml and every fit into its file, all or none: a failure (or,
 * before anything is written, a shadowed or refused fit — NS_ERROR_CHECK for a refused
 * one — or a fit that would replace calibration.xml's fit of the same profile and
 * parameter held by another file, NS_ERROR_INPUT) leaves every file as it was. */
gboolean   ns_calibrate_write         (const NsValidation *v, GPtrArray *fits, GError **error);
/* Rewrites <dir>/calibration.xml with v's fits, those of fits replacing any earlier fit of
 * the same profile and parameter. */
gboolean   ns_calibrate_write_record  (const NsValidation *v, GPtrArray *fits, GError **error);

G_END_DECLS
