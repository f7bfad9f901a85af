/* validate.h — validation against the recorded hardware results: loading the recorded rows
 * (validation/seed-NNN.xml), the cases that map each row to a scenario (cases.xml) and the
 * calibration record (calibration.xml); running the cases through the run layer
 * (ns_run_scenario, each variant in a child process); judging, summarising and writing
 * the results. See doc/validation.md. */
#pragma once
#include "common.h"
#include "report.h"

G_BEGIN_DECLS

/* ---- recorded data ---- */

typedef struct {
  char *kind;                   /* "size", "count" or "option" */
  char *name;
  char *value;
  char *unit;                   /* sizes only (NULL otherwise) */
} NsSetupItem;

/* How a row was measured: the file's <setup>, overlaid by its table's, then its own. */
typedef struct {
  char      *tool;
  char      *command;
  char      *cpu;
  char      *profile;           /* netsim CPU profile modelling that CPU (NULL: none) */
  char      *kernel;
  char      *mitigations;
  GPtrArray *items;             /* NsSetupItem* */
} NsSetup;

typedef struct {
  char    *id;                  /* "000-ipv4-1G" */
  char    *seed;                /* "000" */
  char    *file;                /* seed thread file, e.g. "000_b53850dfa9e54ad2.txt" */
  char    *where;               /* data file:line of the <row> */
  char    *table;
  char    *variant;             /* "ipv4 1G" */
  char    *unit;
  char    *statistic;
  char    *source;              /* where in the seed file */
  char    *baseline_text;       /* figures exactly as printed */
  char    *patched_text;
  char    *baseline_cv;         /* as printed, NULL if none */
  char    *patched_cv;
  char    *printed_delta;       /* as printed, NULL if the thread prints none */
  double   baseline;
  double   patched;
  double   delta_pct;           /* 100 × (patched / baseline − 1) */
  double   stated_tolerance_pp; /* < 0: none stated */
  double   baseline_tolerance_pct; /* the file's baseline-tolerance-pct: how far a simulated
                                      baseline may lie from the recorded one, in % of it
                                      (issue 4: 20); < 0: none stated, not judged */
  guint    runs;                /* runs behind each figure (the set-up's count
                                   "runs-per-figure"), 0 if not stated */
  double   delta_ci95_pp;       /* half-width of the recorded delta's 95 % interval, from
                                   the CVs and runs (ns_validation_delta_ci95); < 0: unknown */
  NsSetup  setup;
} NsRecordedRow;

/* How a row is simulated. scenario == NULL: not modelled, see reason. */
typedef struct {
  char   *row;
  char   *scenario;             /* as written: relative to the data directory, or absolute */
  char   *baseline;             /* variant playing the baseline kernel */
  char   *patched;              /* variant playing the patched kernel */
  char   *metric;               /* NULL: the scenario's measure/@metric */
  double  unit_scale;           /* simulated metric × unit_scale = recorded unit */
  char  **sets;                 /* PATH=VALUE overrides, NULL-terminated */
  char   *reason;
  char   *note;
  char   *where;                /* cases.xml:line */
} NsValCase;

/* One fit written by netsim calibrate. */
typedef struct {
  char  *profile;
  char  *param;
  char  *value;
  char  *residual;
  char  *target;                /* "absolute", "baseline" or "delta" */
  char **rows;                  /* NULL-terminated */
  char  *unbacked;              /* non-NULL: no value in use is this fit (its profile does
                                   not load, a row was measured on another profile, or no
                                   scenario of its rows nor the profile sets the parameter
                                   with a "fit on" source; one that sets another value is
                                   the stale-value conflict instead): why. Such a fit
                                   makes no row a calibration row; it is a conflict. */
} NsValFit;

typedef struct {
  char *seed;
  char *name;
  char *unit;                   /* may be NULL */
  char *baseline;               /* as printed, may be NULL */
  char *patched;
  char *source;
} NsValFact;

typedef struct {
  char *seed;
  char *where;                  /* data file:line of the <pair> */
  char *id;
  char *label;
  char *source;
  char *row[2];
  char *side[2];                /* "baseline" or "patched" */
} NsValPair;

typedef struct {
  char *seed;
  char *source;
  char *text;
} NsValNote;

typedef struct _NsValidation NsValidation;

/* Loads dir/seed-*.xml (recorded rows), dir/cases.xml and dir/calibration.xml (optional),
 * validating each against the schemas in <datadir>/validation/. A row has at most one case
 * (a row without one is reported as not modelled); a case, a fit or a pair must name a
 * recorded row. Errors are "file:line: message" (NS_ERROR_INPUT). */
NsValidation        *ns_validation_load       (const char *dir, GError **error);
void                 ns_validation_free       (NsValidation *v);
const char          *ns_validation_dir        (const NsValidation *v);
/* The files v was loaded from: the seed-*.xml, cases.xml and calibration.xml if there is
 * one (NULL-terminated, owned by v). */
const char *const   *ns_validation_files      (const NsValidation *v);
/* All rows in file order (seed, table, row); NsRecordedRow*, owned by v. */
GPtrArray           *ns_validation_rows       (const NsValidation *v);
const NsRecordedRow *ns_validation_find_row   (const NsValidation *v, const char *id);
const NsValCase     *ns_validation_case       (const NsValidation *v, const char *row_id);
GPtrArray           *ns_validation_fits       (const NsValidation *v);   /* NsValFit* */
GPtrArray           *ns_validation_facts      (const NsValidation *v);   /* NsValFact* */
GPtrArray           *ns_validation_pairs      (const NsValidation *v);   /* NsValPair* */
GPtrArray           *ns_validation_notes      (const NsValidation *v);   /* NsValNote* */
/* TRUE if a backed fit in calibration.xml (NsValFit.unbacked NULL) names the row. */
gboolean             ns_validation_is_calibration (const NsValidation *v, const char *row_id);
/* Rows matching any pattern (a glob on the row id; a pattern without * ? [ also matches
 * ids that start with it followed by '-'), in file order. No patterns: all rows. A pattern
 * matching nothing is an error. Returns a new array of borrowed NsRecordedRow*. */
GPtrArray           *ns_validation_select     (const NsValidation *v, const char *const *patterns,
                                               GError **error);
/* Absolute path of a case's scenario file. */
char                *ns_validation_scenario_path (const NsValCase *c);
/* The --set list a case runs a variant with (metric first, then the case's sets). */
char               **ns_validation_case_sets  (const NsValCase *c);

/* ---- judging ---- */

typedef enum {
  NS_VAL_PASS,
  NS_VAL_FAIL,
  NS_VAL_NOT_MODELLED,
  NS_VAL_ERROR                  /* the case's run failed: counts as failing */
} NsValStatus;

#define NS_VAL_TOLERANCE_MIN_PP   3.0   /* tolerance floor, percentage points */
#define NS_VAL_TOLERANCE_FRACTION 0.10  /* … or this fraction of |recorded delta| */
#define NS_VAL_SIGN_DEADBAND_PP   1.0   /* |delta| below this is "no change": a recorded
                                           one agrees with a simulated one only */
/* A verdict is reported as near its boundary when the simulated delta lies within this of
 * it (the tolerance, or the sign dead band's edge): about what a simulated delta moves with a fitted cpu.ipc's last printed
 * digit, a fixed-duration run's partial last operation and the page-frame draw (seed
 * 000's deltas move by up to ±0.2 pp with them, doc/validation.md) — a pass or fail by
 * less is not evidence either way. */
#define NS_VAL_NEAR_PP            0.2
/* How a profile's source marks a value measured or derived on another core: the
 * unsourced list writes its CPU "CPU*". */
#define NS_VAL_BORROWED           "UNSOURCED, borrowed"

/* max(3 pp, 10 % of |recorded delta|), or the row's stated (tighter) tolerance. */
double       ns_validation_tolerance   (const NsRecordedRow *row);
/* PASS if |error_pp| ≤ tolerance_pp and the signs agree (ns_validation_signs_agree),
 * else FAIL. */
NsValStatus  ns_validation_judge       (double error_pp, double tolerance_pp,
                                        gboolean signs_agree);
/* A recorded "no change" (|delta| < NS_VAL_SIGN_DEADBAND_PP) agrees with a simulated
 * "no change" only; any other recorded delta with a simulated delta of its strict sign.
 * FALSE if either is NaN. Monotone: a simulated delta of a recorded rise or fall's sign
 * always agrees, and a recorded "no change" gives the same verdict whichever way it went. */
gboolean     ns_validation_signs_agree (double recorded_pct, double simulated_pct);
/* How far simulated_pct lies inside (> 0) or outside (< 0) the simulated deltas that pass
 * against recorded_pct: those within tolerance_pp that agree in sign (ns_validation_judge;
 * never none, as recorded_pct itself passes); -INFINITY for a NaN simulated_pct. */
double       ns_validation_verdict_margin (double recorded_pct, double simulated_pct,
                                           double tolerance_pp);
const char  *ns_val_status_name        (NsValStatus status);
/* Half-width, in percentage points, of the 95 % interval of the delta
 * 100 × (patched / baseline − 1) when each figure is the mean of n runs with coefficient
 * of variation cv_b, cv_p: the delta method on the log ratio, with Student's t at the
 * Welch–Satterthwaite degrees of freedom. ratio = patched / baseline. < 0 if n < 2. */
double       ns_validation_delta_ci95  (double ratio, double cv_b, double cv_p, guint n);

/* ---- running variants (each in a child process) ---- */

typedef struct {
  char *name;
  char *value;
  char *source;
} NsValParam;

/* What one variant run produced (a digest of NsVariantResult). */
typedef struct {
  double      value;
  double      cv;
  guint       reps;
  guint64     ops;              /* operations measured, all repetitions */
  char       *metric;
  char       *cpu;              /* profile name */
  char       *cpu_model;
  char       *kernel;
  char       *cmdline;
  char       *mitigations;      /* "spectre_v2=retpoline srso=safe-ret …" */
  GPtrArray  *free_params;      /* NsValParam*: the free parameters it ran with */
  GPtrArray  *unsourced;        /* NsValParam*: the values it ran with whose source starts
                                   "unsourced" in any case (a reasoned default or a stated
                                   choice, in a profile or the registry) */
  GPtrArray  *unstated;         /* char*: "CONFIG_X=y", each .config option the models took
                                   without the scenario stating it (ns_build_config_in_force) */
} NsValRun;

/* Why row's finished runs b (baseline) and p (patched) of its case c cannot be judged or
 * fitted — a run on another CPU profile than the row's recorded profile, or a baseline
 * figure not above 0 — as a new string; NULL when they can. netsim validate and netsim
 * calibrate apply the same checks. */
char *ns_validation_runs_problem (const NsRecordedRow *row, const NsValCase *c,
                                  const NsValRun *b, const NsValRun *p);

typedef struct {
  char      *scenario;          /* path */
  char      *variant;
  char     **sets;              /* NULL-terminated */
  NsValRun  *run;               /* result, or NULL and error */
  GError    *error;
} NsValJob;

/* Progress of ns_val_jobs_run: called once with done 0 when it starts, then whenever more
 * jobs have finished (done == total last). */
typedef void (*NsValProgress) (guint done, guint total, const NsValJob *job, gpointer data);

NsValJob *ns_val_job_new   (const char *scenario, const char *variant, const char *const *sets);
void      ns_val_job_free  (NsValJob *job);
void      ns_val_run_free  (NsValRun *run);
/* Runs every job through ns_run_scenario (only that variant, with those sets), each in
 * its own child process (forked from this one, which must not have run model code), up to
 * n_jobs at once. Results do not depend on n_jobs. */
void      ns_val_jobs_run  (GPtrArray *jobs, guint n_jobs, NsValProgress progress,
                            gpointer progress_data);

/* ---- a validation run ---- */

typedef struct {
  const NsRecordedRow *row;
  const NsValCase     *vcase;
  gboolean             calibration;   /* named by calibration.xml, or same_runs_as set */
  const char          *same_runs_as;  /* the row calibration.xml names whose two runs (the
                                         same scenario documents once the variants' and
                                         the cases' sets are made) are this row's, so it
                                         counts as calibration too; NULL if none */
  const char          *shares_runs_with;  /* the earlier validation row whose two runs are
                                             this one's (one prediction, two recordings);
                                             NULL if none */
  NsValStatus          status;
  char                *reason;        /* not modelled / error: why */
  NsValRun            *baseline_run;  /* owned copies (NULL unless modelled and run) */
  NsValRun            *patched_run;
  double               sim_baseline;  /* in the recorded unit (× unit_scale) */
  double               sim_patched;
  double               sim_delta_pct; /* 100 × (patched / baseline − 1) of the raw values */
  double               error_pp;      /* sim_delta_pct − recorded delta */
  double               tolerance_pp;
  gboolean             sign_agrees;
  gboolean             within_noise;  /* ran, the row has an interval, and |error_pp| is
                                         within it */
  double               baseline_error_pct;  /* 100 × (simulated / recorded baseline − 1) */
  gboolean             baseline_within;     /* |baseline_error_pct| ≤ the row's
                                               baseline_tolerance_pct (FALSE if none) */
  char               **sets;          /* the sets its runs use (NULL without a scenario) */
  /* over run seeds 1…NsValReport.run_seeds (ns_validation_run_seeds; 0s without): */
  guint                seeds_ran;     /* seeds on which both its runs succeeded */
  guint                seeds_passing; /* … and it passed */
  double               seeds_delta_min_pct;   /* the simulated delta's range over those */
  double               seeds_delta_max_pct;
} NsValOutcome;

/* The percentage points one operation more or less in either run of a row that ran moves
 * its simulated delta by: 100 × patched / baseline / the smaller run's operations (a
 * fixed-duration run counts whole operations: seed 002's 2 ms i5-3337U runs, 247
 * packets, 0.71 pp); 0 if a count is unknown. */
double       ns_validation_one_op_step_pp (const NsValOutcome *o);

typedef struct {
  guint   rows;                 /* modelled rows of this set (pass + fail + error) */
  guint   within;               /* pass */
  guint   errors;
  guint   signs;                /* sign agreement (rows that ran) */
  guint   shared_runs;          /* rows that ran judged on another row's runs (the
                                   same two simulations against other recorded figures) */
  double  mean_abs_pp;          /* over rows that ran */
  double  max_abs_pp;
  const char *max_row;
  guint   noisy_misses;         /* fail rows whose recorded delta has an interval */
  guint   misses_within_noise;  /* … and whose error lies inside it */
  guint   noisy_passes;         /* pass rows whose recorded delta has an interval */
  guint   passes_outside_noise; /* … and whose error lies outside it */
  guint   near_boundary;        /* rows that ran whose simulated delta is within
                                   NS_VAL_NEAR_PP (or one operation's step, if larger) of
                                   their verdict's boundary (the tolerance or the sign dead
                                   band) */
  const char *nearest_row;      /* the one of them nearest its boundary */
  double  nearest_margin_pp;    /* its ns_validation_verdict_margin: > 0 inside, < 0 out */
  guint   baselines;            /* rows that ran whose file states a baseline tolerance */
  guint   baselines_within;     /* … whose simulated baseline is within it */
  const char *baseline_worst_row;   /* the one of them farthest from its recorded baseline */
  double  baseline_worst_pct;       /* its baseline_error_pct */
  double  baseline_worst_tol_pct;   /* its tolerance */
} NsValSummary;

/* One value of a free parameter: from a profile file (scope "profile"), from a scenario
 * file (scope "scenario FILE", FILE its base name) or as a run used it (scope "run": set
 * by a case's <set>, or first seen in a run). */
typedef struct {
  char      *profile;
  char      *param;
  char      *value;
  char      *source;
  char      *scope;             /* "profile", "scenario FILE" or "run" */
  char      *where;             /* FILE:LINE of the <param> that sets it (NULL: a run's, or a
                                   registry default) */
  gboolean   fitted;            /* source says "fit on …" */
  gboolean   recorded;          /* calibration.xml records the fit (rows from there) */
  const NsValFit *fit;          /* that record (borrowed from the NsValidation), or NULL */
  char     **rows;              /* fitted on (NULL unless fitted): see provenance rules in
                                   doc/validation.md */
  char     **unrecorded;        /* recorded row ids the source names that the calibration.xml
                                   fit of this value (fit) does not list: a conflict (NULL
                                   when none) */
  char      *residual;
  char      *stale;             /* non-NULL: a value in use, and calibration.xml records
                                   another value (why): a conflict; fit is that record */
  char      *drifted;           /* non-NULL: the recorded fit's rows, as this validation ran
                                   them, no longer give its residual (why): refit */
} NsValProvenance;

typedef struct {
  const NsValidation *v;
  GPtrArray          *outcomes;       /* NsValOutcome*, in row order */
  NsValSummary        validation;
  NsValSummary        calibration;
  guint               not_modelled;
  GPtrArray          *conflicts;      /* char*: rows fitted and counted as validation,
                                         values off their recorded fit, parameters a
                                         variant sets for a row */
  GPtrArray          *provenance;     /* NsValProvenance*, by profile then parameter */
  GPtrArray          *unsourced;      /* char*: "NAME = VALUE: CPU CPU…" for every unsourced
                                         value a run used, sorted by NAME, each once; a
                                         CPU whose profile borrows it is written "CPU*" */
  GPtrArray          *unstated;       /* char*: "CONFIG_X=y: CPU CPU…" for every .config
                                         option a run took unstated, sorted, each once */
  char              **what_if;        /* NsValOptions.what_if, copied (NULL: none) */
  guint               run_seeds;      /* ns_validation_run_seeds' n_seeds (0: not run) */
} NsValReport;

typedef struct {
  guint               jobs;
  NsValProgress       progress;
  gpointer            progress_data;
  /* A what-if (netsim validate --set, --refit); all NULL for the recorded set-ups. */
  const char *const  *sets;           /* PATH=VALUE for every run, after the case's sets */
  GHashTable         *profile_sets;   /* profile name → NULL-terminated PATH=VALUE list for
                                         the rows measured on that profile, after sets */
  const char *const  *what_if;        /* lines saying what was changed, printed with the
                                         results */
} NsValOptions;

void         ns_val_provenance_free   (gpointer provenance);
/* Parses a profile parameter source "fit on ROW ROW…, residual R": the rows (NULL if the
 * source is not a fit) and the residual text. */
char       **ns_validation_parse_fit_source (const char *source, char **residual);
/* FALSE with NS_ERROR_INPUT "DIR/cases.xml:LINE: scenario FILE does not exist …" for the
 * first case (file order) naming a scenario file that does not exist: what netsim
 * validate reports as that row's error, and netsim calibrate's listing refuses (the
 * scenario's own free parameters could not be listed or checked). */
gboolean     ns_validation_check_scenario_files (const NsValidation *v, GError **error);
/* TRUE unless case c names a scenario file that does not exist; else FALSE with
 * NS_ERROR_INPUT "DIR/cases.xml:LINE: scenario FILE does not exist …". */
gboolean     ns_validation_case_scenario_exists (const NsValCase *c, GError **error);
/* Checks every fit named by a free parameter of a profile the rows name, or set by a
 * scenario file their cases run (scope "scenario FILE"), against calibration.xml: a row
 * fitted but not recorded as a calibration row is a conflict (appended to conflicts, an
 * array of char*). Also appends the provenance of those free parameter values to
 * provenance (an array freeing with ns_val_provenance_free). FALSE with an error if a
 * profile or an existing scenario cannot be read. */
gboolean     ns_validation_check_fits (const NsValidation *v, GPtrArray *conflicts,
                                       GPtrArray *provenance, GError **error);
/* The sets a row's runs use under opt: the case's, then opt->sets, then those opt->profile_sets
 * has for the row's profile (a new NULL-terminated array; empty without a case). A case's
 * set of an attribute a later one sets too (however spelt: ns_scenario_set_key) is left
 * out: the later one replaces it, as a --set replaces a variant's own <set>. */
char       **ns_validation_run_sets   (const NsValidation *v, const NsRecordedRow *row,
                                       const NsValOptions *opt);
/* How many of rows (NsRecordedRow*) have a case naming a scenario: the rows a run can
 * replay (the others are reported as not modelled). */
guint        ns_validation_count_modelled (const NsValidation *v, GPtrArray *rows);
/* Sets up (ns_run_check_workload: scenario, machine and workload) both variants of every
 * modelled row of rows with its run sets under opt, so that a bad --set is an input error
 * before anything runs: FALSE with the set-up's error for the first case that sets up
 * without opt's sets but not with them, or (first) with "--set measure.metric=M:
 * CASES.XML:LINE: row ID is judged on …" if opt's sets change the metric: a row's delta
 * is judged against the recorded one, measured in the case's metric. */
gboolean     ns_validation_check_sets (const NsValidation *v, GPtrArray *rows,
                                       const NsValOptions *opt, GError **error);
/* The CPU profiles rows (NsRecordedRow*) were measured on, each once in first-use order
 * (a new array of names borrowed from the rows). */
GPtrArray   *ns_validation_row_profiles (GPtrArray *rows);
/* Runs the cases of rows (NsRecordedRow*); identical variant runs are made once. */
NsValReport *ns_validation_run        (const NsValidation *v, GPtrArray *rows,
                                       const NsValOptions *opt, GError **error);
void         ns_val_report_free       (NsValReport *report);
/* Runs rows (those of report, in its order) again under run seeds 1…n_seeds, each as
 * opt's sets and "seed=K" (a fresh slab layout, page-frame draw and workload stream),
 * and records per outcome on how many both runs succeeded, on how many it passed and
 * the simulated delta's range; report's figures, summary and status stay as they were.
 * FALSE with the first run's error. */
gboolean     ns_validation_run_seeds  (NsValReport *report, GPtrArray *rows,
                                       const NsValOptions *opt, guint n_seeds,
                                       GError **error);
/* 1 if a modelled validation row failed or errored, a calibration row errored, a row is
 * both fitted and counted as validation, or a recorded fit no longer holds; else 0. */
int          ns_validation_exit_status (const NsValReport *report);
/* The number of recorded fits (calibration.xml) whose rows, as this validation ran them,
 * miss by more than the recorded residual + 0.002: the model changed since the fit. Not
 * judged for what-ifs (NsValOptions.what_if) or fits whose rows were not all run. */
guint        ns_validation_drifted_fits (const NsValReport *report);
/* Table (with summary lines), CSV (documented header) or JSON (everything). */
void         ns_validation_write      (GString *out, const NsValReport *report, NsFormat format);
/* Compares with expected results (a CSV written by --format csv, read strictly: whole
 * lines, known statuses, each row once, PATH:LINE errors): every row expected to pass must
 * still pass, a row that ran (pass or fail) must still run, and every row that ran must
 * give the simulated baseline and patched figures printed there (as --format csv prints
 * them); with all_rows (the report has every recorded row) a row that ran there must still
 * exist. Appends one line per regression, change (and improvement) to messages; returns
 * the number of rows that regressed or changed, or -1 with an error if path cannot be
 * read. */
gint         ns_validation_check_expected (const NsValReport *report, const char *path,
                                           gboolean all_rows, GString *messages,
                                           GError **error);
/* TRUE if path reads as expected results (a --format csv output, with its header line), so
 * that a bad --expected is refused before anything runs; FALSE with an error if not. */
gboolean     ns_validation_read_expected  (const char *path, GError **error);

G_END_DECLS
