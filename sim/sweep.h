/* sweep.h — what-if sweeps: a scenario run over the cartesian product of parameter values.
 *
 * A sweep has dimensions (--param PATH=VALUES, in the order given; the scenario's variants
 * form a dimension of their own), each point of the grid runs in a forked worker process,
 * and each finished point is appended to the output as one complete CSV line (O_APPEND
 * write + fdatasync). The output's header identifies the sweep; --resume checks it and
 * skips points already present. See doc/sweeps.md. */
#pragma once
#include "common.h"

G_BEGIN_DECLS

typedef struct _NsSweep NsSweep;

typedef enum {
  NS_SWEEP_NEW,          /* the output must not exist */
  NS_SWEEP_RESUME,       /* continue the output if it exists (same sweep only) */
  NS_SWEEP_OVERWRITE     /* start over */
} NsSweepMode;

typedef struct {
  guint   total;         /* points in the grid */
  guint   done;          /* points in the output (earlier sessions included) */
  guint   done_now;      /* of which finished in this session */
  guint   failed;        /* points recorded as failed (all sessions) */
  guint   running;       /* in flight */
  double  elapsed_s;     /* wall time of this session */
  double  eta_s;         /* estimated wall time left (< 0: unknown) */
} NsSweepProgress;

typedef void (*NsSweepProgressFunc) (const NsSweepProgress *progress, gpointer data);
/* Called as each point is recorded, with its fields (by column). */
typedef void (*NsSweepPointFunc) (guint point, const char *const *fields, gpointer data);

typedef struct {
  guint                 jobs;          /* worker processes at once (≥ 1) */
  /* Read between events; set from a signal handler: 1 = start no new point and let the
   * in-flight ones finish, 2 = also kill the in-flight ones (abandoned, not recorded). */
  const volatile int   *stop;
  NsSweepProgressFunc   progress;      /* after each point and about every 250 ms */
  NsSweepPointFunc      point_done;    /* may be NULL */
  gpointer              progress_data; /* for both */
} NsSweepRunOptions;

/* A sweep of the scenario at path with fixed overrides sets (--set strings, may be NULL),
 * of its variant named variant only (like ns_sweep_set_variant; the sets then apply on
 * top of that variant's) or, variant NULL, of every variant.
 * Errors: NS_ERROR_INPUT (the scenario does not load, as written or with the sets). */
NsSweep    *ns_sweep_new          (const char *path, const char *variant,
                                   const char *const *sets, GError **error);
void        ns_sweep_free         (NsSweep *sweep);
/* Adds a dimension "PATH=V1,V2,…" (items may be ranges START:STOP:STEP or START:STOP:×F).
 * PATH "seed" sweeps the run seed, "variant" the scenario's variants. A PATH a --set of
 * the sweep sets too (seed included) is refused: every point would override it. */
gboolean    ns_sweep_add_param    (NsSweep *sweep, const char *spec, GError **error);
/* Sets the sweep seed the points' seeds derive from (--seed); ns_sweep_prepare refuses it
 * with a swept seed, which each point runs instead. */
void        ns_sweep_set_seed     (NsSweep *sweep, guint64 seed);
void        ns_sweep_set_repeat   (NsSweep *sweep, guint repeat);
/* With timing, each line ends with a wall_s column: the host seconds its point took (the
 * one thing that differs between runs); without (the default), a sweep's output is the
 * same byte for byte whatever --jobs. Before ns_sweep_prepare. */
void        ns_sweep_set_timing   (NsSweep *sweep, gboolean timing);
/* Restricts the variants to name (like --param variant=NAME). */
void        ns_sweep_set_variant  (NsSweep *sweep, const char *name);
/* Completes the grid (adds the variant dimension) and builds the header; a swept seed with
 * --repeat or ns_sweep_set_seed is NS_ERROR_INPUT. The fixed sets
 * are tried first, alone, on each variant the sweep runs (NS_ERROR_INPUT naming the
 * variant and the set), then every value of every dimension, alone: NS_ERROR_INPUT naming
 * the dimension and the first value that does not work. */
gboolean    ns_sweep_prepare      (NsSweep *sweep, GError **error);

guint       ns_sweep_n_points     (const NsSweep *sweep);
/* The scenario's name attribute. */
const char *ns_sweep_scenario_name (const NsSweep *sweep);
/* The files of the CPU profiles the sweep reads: the scenario's (after the fixed sets),
 * then each value of a cpu.profile dimension, each once, leaving out those that do not
 * load (their points fail and say why); NULL-terminated, free with g_strfreev. */
char      **ns_sweep_profile_files (const NsSweep *sweep);
/* The files a <param from=FILE> of the points reads (each variant the sweep runs, with
 * each value of a swept param[N].from), the scenario itself left out, each once, leaving
 * out what does not load; NULL-terminated, free with g_strfreev. */
char      **ns_sweep_param_files  (const NsSweep *sweep);
/* TRUE if some point reports metric: the scenario's, or a value of a swept measure.metric. */
gboolean    ns_sweep_has_metric   (const NsSweep *sweep, const char *metric);
/* The column (PATH as given) of the dimension that sweeps the attribute path, however
 * spelt (measure[1].metric is measure.metric), and in *n_values (may be NULL) how many
 * values it has; NULL (0) if path is not swept. */
const char *ns_sweep_swept        (const NsSweep *sweep, const char *path, guint *n_values);
/* The most measure/@repetitions a point of the prepared sweep measures (a swept
 * measure.repetitions' largest value, else the scenario's with the fixed sets, on each
 * variant the sweep runs): 1 means every point's cv is undefined (nan). */
guint       ns_sweep_max_repetitions (const NsSweep *sweep);
/* The header (comment lines and the column line) that identifies this sweep. */
const char *ns_sweep_header       (const NsSweep *sweep);
/* Column names of the CSV, NULL-terminated. */
const char *const *ns_sweep_columns (const NsSweep *sweep);
/* The run seed of point: the swept seed, or derived from the sweep seed and the point. */
guint64     ns_sweep_point_seed   (const NsSweep *sweep, guint point);
/* The --param PATH=VALUE strings of point's values (the seed and variant dimensions
 * excepted), NULL-terminated; runs apply them after the fixed --set strings. */
char      **ns_sweep_point_params (const NsSweep *sweep, guint point);
/* Runs point in this process; returns its CSV line (with '\n'), "failed" with the error if
 * it did not run. */
char       *ns_sweep_run_point    (const NsSweep *sweep, guint point);

/* Opens (creates, resumes or overwrites) the output and removes the temporary copy of it
 * an interrupted ns_sweep_finish left. Resuming checks the header (a file cut inside it
 * holds no point: the header is written again), drops a torn last line and loads the
 * points present, each field as netsim writes it, a point once (a second copy with the
 * same result is dropped). Errors: NS_ERROR_INPUT "FILE:LINE: …" for a different sweep,
 * another build of netsim, a line altered or two results of one point, or an existing file
 * without RESUME/OVERWRITE; NS_ERROR_IO. */
gboolean    ns_sweep_open         (NsSweep *sweep, const char *output, NsSweepMode mode,
                                   GError **error);
/* TRUE if opening dropped a torn last line. */
gboolean    ns_sweep_was_torn     (const NsSweep *sweep);
/* TRUE if opening found the file cut inside its header (so holding no point) and wrote
 * the header again. */
gboolean    ns_sweep_header_was_cut (const NsSweep *sweep);
/* Runs the points not in the output, up to jobs at once; appends each as it finishes.
 * Before it starts a point and before it records one, it checks that the scenario file,
 * the CPU profiles (ns_sweep_profile_files) and the <param from=…> files
 * (ns_sweep_param_files) still have the sha256 they had when the sweep was prepared (each
 * point reads them anew): if not, it stops, recording nothing more, and returns FALSE
 * with NS_ERROR_INPUT. Returns FALSE otherwise
 * only on an I/O error; an interrupted run returns TRUE (see complete). */
gboolean    ns_sweep_run          (NsSweep *sweep, const NsSweepRunOptions *options,
                                   GError **error);
/* Every point is in the output. */
gboolean    ns_sweep_complete     (const NsSweep *sweep);
guint       ns_sweep_n_done       (const NsSweep *sweep);
guint       ns_sweep_n_failed     (const NsSweep *sweep);
/* Rewrites a complete output in canonical point order (atomically: through the temporary
 * copy FILE.netsim-rewrite, synced and renamed over FILE) and closes it. */
gboolean    ns_sweep_finish       (NsSweep *sweep, GError **error);
/* Fields of point's line (by column), or NULL if the point is not done. */
char      **ns_sweep_row          (const NsSweep *sweep, guint point);
/* Separates two notes in the CSV's notes column. */
#define NS_SWEEP_NOTES_SEP " | "
/* "(K of N points): NOTE" for each distinct model note of the points done (each point's
 * build notes, as netsim run prints them), in first-seen order. */
GPtrArray  *ns_sweep_notes        (const NsSweep *sweep);
/* The points done as JSON: sweep identity, dimensions and one object per point. */
void        ns_sweep_json         (const NsSweep *sweep, GString *out);
/* Notes (NULL-terminated, may be empty) for each fitted free parameter the scenario file
 * sets ("fit on …") that the sweep leaves in force on another CPU profile than the file's
 * (a --set or a cpu.profile dimension moves it): one per parameter and profile. NULL with
 * an error if a file or profile cannot be read. */
char      **ns_sweep_fit_notes    (const NsSweep *sweep, GError **error);

/* Helpers (exposed for tests and the command line). */
/* Expands "V1,V2,…" (items may be ranges) into values (char*). */
GPtrArray  *ns_sweep_expand       (const char *values, GError **error);
/* Splits one CSV line (RFC 4180 quoting) into fields. */
char      **ns_sweep_csv_split    (const char *line);
/* Shortest decimal text that reads back as value (locale-independent). */
char       *ns_sweep_format_double (double value);

G_END_DECLS
