/* run.h — running a scenario: variants, repetitions, warm-up, the stop rule, aggregation,
 * and the per-function breakdown of where the cycles went. */
#pragma once
#include "common.h"
#include "machine.h"
#include "scenario.h"

G_BEGIN_DECLS

/* Cycles per operation charged to one simulated function, by cause. */
typedef struct {
  char   *func;                 /* symbol, or "(top level)" */
  double  calls_per_op;         /* out-of-line calls */
  double  inlined_per_op;       /* inlined invocations */
  double  cycles_per_op[NS_CAUSE_N];   /* self: the function's out-of-line frames */
  double  total_per_op;
  double  body_per_op[NS_CAUSE_N];     /* its inlined invocations' own code, which is
                                          also in the rows of the functions it was
                                          inlined into */
  double  body_total_per_op;
} NsBreakdownRow;

/* Cycles spent in one calling context on one cause: a line of a folded-stacks file. */
typedef struct {
  char   *stack;                /* "thread;outer;…;inner;[cause]", inlined frames "f_[i]" */
  double  cycles;               /* over the measured time of every repetition */
} NsStackRow;

/* Cycles per operation charged while one simulated thread ran, and the share of its CPU's
 * measured time they fill. */
typedef struct {
  char   *thread;               /* ns_thread_name */
  guint   cpu;
  double  cycles_per_op;
  double  busy;                 /* cycles / (cpu.freq_ghz × measured time): a thread's last
                                   slice may run up to one quantum past a window's end */
} NsThreadRow;

typedef struct {
  char        *name;            /* variant name ("" for a scenario without variants) */
  char        *metric;
  char        *op_name;
  guint        n_reps;
  double      *values;          /* per repetition */
  char       **stop_rules;      /* per repetition: which rule ended the measurement */
  NsTime      *measured;        /* per repetition: simulated time measured */
  double       value;           /* aggregate (mean or harmonic mean) */
  double       cv;              /* coefficient of variation over repetitions (NAN if 1 rep) */
  char        *aggregate;       /* "mean" or "harmonic" */
  guint64      ops;             /* operations measured, all repetitions */
  GPtrArray   *breakdown;       /* NsBreakdownRow*, by MAX (total, body total), descending */
  GPtrArray   *stacks;          /* NsStackRow* by stack, if NsRunOptions.stacks; else NULL */
  GPtrArray   *threads;         /* NsThreadRow* by CPU, then name: the breakdown by thread */
  double       events_per_op[NS_CAUSE_N];  /* event counts (ns_event_name), all CPUs */
  double       overlapped_per_op[NS_CAUSE_N];  /* cycles hidden by an overlap, all CPUs */
  char       **mitigations;     /* explanation lines */
  char       **inlining;        /* "func: inlined|call — reason" lines */
  char        *cpu_name;        /* profile name */
  char        *cpu_model;
  char        *kernel;
  char        *cmdline;
  char        *base_config;     /* the kernel config package's name or path ("" if none) */
  NsParams    *params;          /* the complete parameter set used */
  char       **config_read;     /* .config options the models asked for (stated or not;
                                   ns_build_config_read): any other set changed nothing */
  char       **config_in_force; /* those options as the run took them, "KEY=y (unstated)"
                                   (ns_build_config_in_force) */
  char       **params_read;     /* parameters the machine and models read (registry order;
                                   ns_params_read): a set of any other changed nothing */
  char       **notes;           /* the models' notes on what the build runs (ns_build_notes) */
  char       **replaced;        /* the variant's own <set>s a --set overrode
                                   (NsScenario.replaced) */
} NsVariantResult;

typedef struct {
  char   *label;
  guint   baseline;             /* indices into variants */
  guint   patched;
  double  delta_pct;            /* (patched − baseline) / baseline × 100; NaN if baseline 0 */
} NsComparison;

typedef struct {
  char       *scenario_path;
  char       *scenario_name;
  char       *description;
  char      **sets;             /* the --set PATH=VALUE strings in force (NULL: none) */
  char      **what_if;          /* the --what-if PATH=VALUE strings of the twins (NULL:
                                   none; ns_run_result_what_if) */
  guint64     seed;
  GPtrArray  *variants;         /* NsVariantResult* */
  GArray     *comparisons;      /* NsComparison */
} NsRunResult;

typedef void (*NsRunProgress) (const char *variant, guint index, guint total, guint rep,
                               guint n_reps, gpointer data);
/* Within a repetition: simulated time reached and the repetition's end (warmup + duration;
 * with the convergence rule its max-duration, which it may stop short of: at_most). */
typedef void (*NsRunTimeProgress) (NsTime done, NsTime end, gboolean at_most, gpointer data);

typedef struct {
  const char *const *sets;      /* --set PATH=VALUE strings (may be NULL) */
  const char *const *params;    /* PATH=VALUE strings applied after sets (may be NULL): a
                                   sweep point's --param, or netsim run's --what-if */
  const char        *params_by; /* the option params came from, for messages (NULL:
                                   "--param") */
  gboolean           what_if;   /* the run makes --what-if twins (params are the
                                   what-ifs): its progress and run-time errors name each
                                   variant's twin, "NAME (what-if)" (ns_run_twin_name),
                                   the errors ending "(after --what-if PATH=VALUE, …)" */
  gboolean           seed_given;
  guint64            seed;
  const char        *only_variant;  /* run just this variant (NULL = all) */
  guint              jobs;      /* variants run at once, each on a thread of its own (0 or
                                   1: one after another); the results do not depend on it */
  gboolean           stacks;    /* collect the cycles of every calling context (folded) */
  NsRunProgress      progress;  /* as each repetition starts */
  /* during a repetition, at most every NS_RUN_PROGRESS_MS of host time; read by an engine
   * observer (ns_engine_set_observer), so the results are the same with it or without.
   * With jobs > 1 it is not called, and progress is called from one thread at a time, its
   * index counting the variants done and its total all the run's (a what-if's twins too) */
  NsRunTimeProgress  progress_time;
  gpointer           progress_data; /* for both */
} NsRunOptions;

#define NS_RUN_PROGRESS_MS 250

/* TRUE if the scenario file at path loads as written (no set, no variant's <set>s);
 * else FALSE with the loader's "file:line: …" error (NS_ERROR_INPUT). A set or a
 * variant changes a valid file, and never mends a broken one: ns_run_scenario and
 * ns_sweep_new check this first. */
gboolean     ns_run_check_file  (const char *path, GError **error);
/* Runs every variant of the scenario at path; the file must be valid as written
 * (ns_run_check_file), whatever opt's sets. Errors: NS_ERROR_INPUT with file:line; a
 * <compare> of two variants that run and measure different metrics (after their sets) is
 * one, found before anything runs. */
NsRunResult *ns_run_scenario   (const char *path, const NsRunOptions *options, GError **error);
/* ns_run_scenario twice, as twin_options says (a --what-if's twins: *twins) and as options
 * says (the result), their variants run together, options->jobs at once; errors as two
 * runs in that order would give them (the twins' first). */
NsRunResult *ns_run_scenario_pair (const char *path, const NsRunOptions *options,
                                   const NsRunOptions *twin_options, NsRunResult **twins,
                                   GError **error);
void         ns_run_result_free (NsRunResult *result);
/* The variant of result called name, or NULL if it has none. */
const NsVariantResult *ns_run_result_variant (const NsRunResult *result, const char *name);
/* The name the variant called variant of the scenario called scenario_name goes by in
 * every output (the table, CSV, JSON, --folded, progress, a what-if's labels): its own, or
 * the scenario's for the one unnamed variant ("") of a scenario without variants. */
const char  *ns_run_output_name (const char *scenario_name, const char *variant);
/* The name of the what-if twin of that variant: its output name and " (what-if)" (newly
 * allocated). */
char        *ns_run_twin_name   (const char *scenario_name, const char *variant);
/* FALSE with NS_ERROR_INPUT if the what-if twin ("NAME (what-if)") of a variant that a run
 * of the scenario at path with opt would run has the name of another variant it would run;
 * loads the scenario (its errors are the run's) and runs nothing: --what-if asks before
 * its runs. With opt->only_variant one variant runs, so no name can clash. */
gboolean     ns_run_check_twin_names (const char *path, const NsRunOptions *opt,
                                      GError **error);
/* FALSE with NS_ERROR_INPUT, before any run, if the what-ifs (PATH=VALUE strings, after
 * opt's sets) would not make each variant a run of the scenario at path with opt would run
 * a twin it can be compared with: a what-if that renames or adds a variant (its twin would
 * be another variant's, or none's), or one that changes the metric a variant measures (a
 * delta between two metrics means nothing). Each error names the what-if behind it, at
 * the line of what it changed; loads the scenario (leaving a load's errors to the run,
 * which gives them) and runs nothing. */
gboolean     ns_run_check_what_if (const char *path, const NsRunOptions *opt,
                                   const char *const *what_ifs, GError **error);
/* The files of the CPU profiles the variants a run of the scenario at path with opt would
 * run (opt->only_variant's, else all) are read from, each once (NULL-terminated, free with
 * g_strfreev); runs nothing, and leaves out what does not load (the run says why). */
char       **ns_run_profile_files (const char *path, const NsRunOptions *opt);
/* The files a <param from=FILE> of those variants reads its value from (the scenario
 * itself left out), each once, as ns_run_profile_files. */
char       **ns_run_param_files   (const char *path, const NsRunOptions *opt);
/* Joins a run of the same scenario and variants made with the extra sets what_ifs (what_if)
 * to base, taking both: what_if's variants follow base's, named "NAME (what-if)", the
 * comparisons become each variant of base against its twin, labelled "NAME: what_ifs"
 * (joined by spaces; the scenario's own comparisons are dropped), and base's what_if
 * holds a copy of what_ifs. The twins' names must be free (ns_run_check_twin_names, before
 * the runs). NULL, both freed, with NS_ERROR_INTERNAL if the two runs' variants differ. */
NsRunResult *ns_run_result_what_if (NsRunResult *base, NsRunResult *what_if,
                                    const char *const *what_ifs, GError **error);
/* Sets the variant of the scenario at path up with sets as ns_run_scenario would (scenario,
 * profile, parameters, mitigations, workload, build) without running it; FALSE with the
 * error the run would give. */
gboolean     ns_run_check_variant (const char *path, const char *variant,
                                   const char *const *sets, GError **error);
/* As ns_run_check_variant with the overrides of opt (sets, params, params_by, seed; the
 * rest unused), variant NULL for the scenario without a variant's sets, then the
 * workload's own setup on a fresh machine (its attributes, the models' kernel version),
 * not run; FALSE with the error the run's first repetition would give. */
gboolean     ns_run_check_workload (const char *path, const char *variant,
                                    const NsRunOptions *opt, GError **error);
/* A free parameter a scenario file sets to a fit (its source starts "fit on"). */
typedef struct {
  char *name;
  char *value;
  char *source;
} NsFittedParam;

/* The fitted free parameters the scenario file at path sets (NsFittedParam*, in file
 * order), and in *own_profile the name of the CPU profile it names. NULL with an error if
 * the file or its profile cannot be read. */
GPtrArray   *ns_run_scenario_fits (const char *path, char **own_profile, GError **error);
/* The note for fit, made for profile own, staying in force on profile other. */
char        *ns_run_fit_note      (const NsFittedParam *fit, const char *own,
                                   const char *other);
/* Notes (NULL-terminated, may be empty) for the variants of result that ran on another CPU
 * profile than the scenario file names (after --set cpu.profile=…) with a free parameter
 * the file sets to a fit ("fit on …") still in force: one per parameter and profile. NULL
 * with an error if the scenario or its profile cannot be read. */
char       **ns_run_fit_notes   (const NsRunResult *result, GError **error);
/* Per function, patched − baseline of every per-operation figure of the breakdown
 * (NsBreakdownRow* of differences), the largest changes first. */
GPtrArray   *ns_run_breakdown_delta (const NsVariantResult *baseline,
                                     const NsVariantResult *patched);
/* Cycles per operation of a variant, summed over its breakdown (all CPUs); NAN when its
 * windows held no operation (its breakdown is then empty and its events per operation
 * NAN too). */
double       ns_run_cycles_per_op (const NsVariantResult *vr);
/* The percentage points one operation more or less in either of two runs that count whole
 * operations (ops_b, ops_p) moves patched / baseline by: 100 × patched / baseline / the
 * smaller count; 0 if either counted none or baseline is 0. */
double       ns_run_one_op_step_pct (double baseline, double patched, guint64 ops_b,
                                     guint64 ops_p);
/* Variant names of a scenario, in file order (empty array: no variants). */
GPtrArray   *ns_run_variant_names (const NsScenario *sc);
/* "'a', 'b'" of variant names (empty ones skipped; "none"), for error messages. */
char        *ns_run_variant_list (GPtrArray *names);
/* The mean or harmonic mean of values[0..n); *cv (may be NULL) gets their coefficient of
 * variation (sample standard deviation over the arithmetic mean; NAN for one value or a
 * zero mean). */
double       ns_run_aggregate (const double *values, guint n, NsAggregate how, double *cv);
G_END_DECLS
