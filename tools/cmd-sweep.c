/* cmd-sweep.c — netsim sweep: run a scenario over a grid of parameter values (sim/sweep.c),
 * with progress, clean interruption, JSON and a gnuplot plot. See doc/sweeps.md. */
#include "config.h"
#include <math.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include "cmd.h"
#include "run.h"
#include "scenario.h"
#include "sweep.h"

#define NS_EXIT_SIGNAL_BASE 128

/* 1: finish the points in flight, 2: abandon them (set by the signal handler). */
static volatile int stop_level;
static volatile sig_atomic_t stop_signal;

/* SIGINT: finish the points in flight (again: abandon them); SIGTERM: abandon. */
static void
on_signal (int sig)
{
  static const char finish[] = "\nnetsim sweep: interrupted: finishing the points in flight "
                               "(interrupt again to abandon them)\n";
  static const char abandon[] = "\nnetsim sweep: abandoning the points in flight\n";

  stop_signal = sig;
  stop_level = sig == SIGINT && stop_level == 0 ? 1 : 2;
  if (stop_level == 1)
    (void) !write (STDERR_FILENO, finish, sizeof finish - 1);
  else
    (void) !write (STDERR_FILENO, abandon, sizeof abandon - 1);
}

/* Routes SIGINT and SIGTERM to on_signal. */
static void
install_signals (void)
{
  struct sigaction sa;

  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_RESTART;       /* poll() still returns early: the loop then sees the flag */
  sigemptyset (&sa.sa_mask);
  sigaction (SIGINT, &sa, NULL);
  sigaction (SIGTERM, &sa, NULL);
}

/* Progress line on the terminal: points done/total, failures, elapsed, ETA. */
static void
show_progress (const NsSweepProgress *p, gpointer data)
{
  g_autofree char *elapsed = ns_cmd_format_duration (p->elapsed_s);
  g_autofree char *eta = ns_cmd_format_duration (p->eta_s);

  g_printerr ("\r[%u/%u] %u failed, %u running, elapsed %s, ETA %s   ", p->done, p->total,
              p->failed, p->running, elapsed, eta);
}

#define MAX_FAILURES_SHOWN 5

typedef struct {
  guint shown;               /* failures printed so far */
  gint  error_column;        /* index of the error field in a point's fields */
} NsFailures;

/* Prints the error of the first few points that fail, as they fail. */
static void
show_failure (guint point, const char *const *fields, gpointer data)
{
  NsFailures *f = data;
  const char *error = fields[f->error_column];

  if (error == NULL || error[0] == '\0' || f->shown++ >= MAX_FAILURES_SHOWN)
    return;
  g_printerr ("%snetsim sweep: point %u failed: %s\n", isatty (STDERR_FILENO) ? "\r" : "",
              point, error);
  if (f->shown == MAX_FAILURES_SHOWN)
    g_printerr ("netsim sweep: (further failures are only in the output)\n");
}

/* ------------------------------------------------------------------------------------- */
/* TRUE if -o names a regular file or none yet, which the sweep can append each point to
 * and --resume read back (not standard output, by "-" or a descriptor's name such as
 * /dev/stdout, even when that is a regular file); else FALSE, after saying so. */
static gboolean
csv_is_a_file (const char *output)
{
  if (strcmp (output, "-") != 0 && ns_cmd_named_descriptor (output) < 0 &&
      (!g_file_test (output, G_FILE_TEST_EXISTS) ||
       g_file_test (output, G_FILE_TEST_IS_REGULAR)))
    return TRUE;
  g_printerr ("netsim sweep: -o %s: the sweep's CSV must be a regular file: each point is "
              "appended to it as it finishes and --resume reads it back (netsim run -o - "
              "writes one run to standard output)\n", output);
  return FALSE;
}

/* --plot x=PATH,y=METRIC[,series=PATH] FILE.png|svg */

typedef struct {
  char *x, *y, *series;
  char *file;                 /* FILE.png or FILE.svg */
  char *base;                 /* FILE without the extension */
  gboolean svg;
} NsPlot;

/* Frees the plot's strings. */
static void
plot_clear (NsPlot *plot)
{
  g_free (plot->x);
  g_free (plot->y);
  g_free (plot->series);
  g_free (plot->file);
  g_free (plot->base);
}

/* Parses the specification and the file name; FALSE with a message on stderr. */
static gboolean
plot_parse (NsPlot *plot, const char *spec, const char *file)
{
  g_auto (GStrv) parts = g_strsplit (spec, ",", -1);

  for (guint i = 0; parts[i]; i++) {
    char **slot = g_str_has_prefix (parts[i], "x=") ? &plot->x
                : g_str_has_prefix (parts[i], "y=") ? &plot->y
                : g_str_has_prefix (parts[i], "series=") ? &plot->series : NULL;
    if (slot == NULL || *slot != NULL || !strchr (parts[i], '=')[1])
      goto bad_spec;
    *slot = g_strdup (strchr (parts[i], '=') + 1);
  }
  if (plot->x == NULL || plot->y == NULL)
    goto bad_spec;
  if (!g_str_has_suffix (file, ".png") && !g_str_has_suffix (file, ".svg"))
    goto bad_file;
  plot->file = g_strdup (file);
  plot->base = g_strndup (file, strlen (file) - 4);
  plot->svg = g_str_has_suffix (file, ".svg");
  return TRUE;

/* ERRORS */
bad_spec:
  g_printerr ("netsim sweep: --plot: expected x=PATH,y=METRIC[,series=PATH] FILE.png, got "
              "'%s'\n", spec);
  return FALSE;
bad_file:
  g_printerr ("netsim sweep: --plot: the image must end in .png or .svg, got '%s'\n", file);
  return FALSE;
}

/* Index of the named column, or -1. */
static gint
column_index (const NsSweep *sweep, const char *name)
{
  const char *const *columns = ns_sweep_columns (sweep);

  for (gint i = 0; columns[i]; i++)
    if (!strcmp (columns[i], name))
      return i;
  return -1;
}

/* A numeric result column (rather than a metric name). */
static gboolean
is_result_column (const char *name)
{
  static const char *const numeric[] = { "value", "cv", "reps", "ops", "wall_s", NULL };
  return g_strv_contains (numeric, name);
}

/* Checks x and series name columns that identify points and y is defined and of one
 * unit in every mark (before running anything). */
static gboolean
plot_check (NsPlot *plot, const NsSweep *sweep)
{
  gint x = column_index (sweep, plot->x);
  gint status = column_index (sweep, "status");
  const char *metric;
  guint n_metrics;

  if (x <= 0 || x >= status)
    goto bad_x;
  if (plot->series && (column_index (sweep, plot->series) <= 0 ||
                       column_index (sweep, plot->series) >= status))
    goto bad_series;
  if (!is_result_column (plot->y) && !ns_sweep_has_metric (sweep, plot->y))
    goto bad_y;
  if (is_result_column (plot->y) && column_index (sweep, plot->y) < 0)
    goto y_needs_timing;
  if (plot->series == NULL && strcmp (plot->x, "variant") && column_index (sweep, "variant") > 0)
    plot->series = g_strdup ("variant");
  if (!strcmp (plot->y, "cv") && ns_sweep_max_repetitions (sweep) < 2)
    goto cv_undefined;
  metric = ns_sweep_swept (sweep, "measure.metric", &n_metrics);
  if (!strcmp (plot->y, "value") && n_metrics > 1 && strcmp (plot->x, metric) &&
      g_strcmp0 (plot->series, metric))
    goto metrics_mixed;
  return TRUE;

/* ERRORS */
bad_x:
  g_printerr ("netsim sweep: --plot: x=%s is not a swept parameter (nor seed or "
              "repetition)\n", plot->x);
  return FALSE;
bad_series:
  g_printerr ("netsim sweep: --plot: series=%s is not a swept parameter\n", plot->series);
  return FALSE;
bad_y:
  g_printerr ("netsim sweep: --plot: y=%s is neither the scenario's metric (nor a swept "
              "measure.metric) nor one of value, cv, reps, ops, wall_s (with --timing)\n",
              plot->y);
  return FALSE;
y_needs_timing:
  g_printerr ("netsim sweep: --plot: y=%s is a column only --timing writes\n", plot->y);
  return FALSE;
cv_undefined:
  g_printerr ("netsim sweep: --plot: y=cv is undefined (nan) at every point: cv is the "
              "coefficient of variation over a point's measure/@repetitions, and every point "
              "measures one; sweep or --set measure.repetitions to 2 or more (--repeat runs "
              "separate points: plot y=value for their spread)\n");
  return FALSE;
metrics_mixed:
  g_printerr ("netsim sweep: --plot: y=value would average the %u metrics of the swept %s "
              "(different quantities) into one mark: make it x or series (series=%s), or plot "
              "y=METRIC for one of them\n", n_metrics, metric, metric);
  return FALSE;
}

typedef enum { X_NUMBER, X_SIZE, X_TIME, X_CATEGORY } NsXKind;

/* How x values read as numbers: plain numbers, sizes (bytes), times (s), else categories. */
static NsXKind
x_kind (GPtrArray *texts)
{
  gboolean number = TRUE, size = TRUE, time = TRUE;

  for (guint i = 0; i < texts->len; i++) {
    const char *t = texts->pdata[i];
    char *end;
    guint64 bytes;
    NsTime ps;
    g_ascii_strtod (t, &end);
    number = number && t[0] && *end == '\0';
    size = size && ns_parse_size (t, &bytes);
    time = time && ns_parse_time (t, &ps);
  }
  return number ? X_NUMBER : size ? X_SIZE : time ? X_TIME : X_CATEGORY;
}

/* The x value as a number for gnuplot (a category: its ordinal). */
static double
x_number (NsXKind kind, const char *text, guint ordinal)
{
  guint64 bytes = 0;
  NsTime ps = 0;

  switch (kind) {
  case X_NUMBER: return g_ascii_strtod (text, NULL);
  case X_SIZE:   ns_parse_size (text, &bytes); return (double) bytes;
  case X_TIME:   ns_parse_time (text, &ps); return (double) ps / 1e12;
  default:       return ordinal;
  }
}

typedef struct {
  GPtrArray  *series;       /* char*: series names, first-seen order */
  GPtrArray  *xs;           /* char*: x texts, first-seen order */
  GHashTable *marks;        /* "series\x1fx" → GArray of the y of its points */
  guint       rows;         /* points plotted */
  guint       undefined;    /* points that ran with y nan (left out) */
  guint       groups;       /* marks */
  const char *scenario;
  gboolean    spread;       /* some mark has two points or more: error bars */
} NsPlotData;

/* Collects the y of the points that ran per (series, x). */
static void
plot_collect (const NsPlot *plot, const NsSweep *sweep, NsPlotData *d)
{
  gint xc = column_index (sweep, plot->x), sc = plot->series ? column_index (sweep, plot->series) : -1;
  gint st = column_index (sweep, "status"), mc = column_index (sweep, "metric");
  gint yc = is_result_column (plot->y) ? column_index (sweep, plot->y) : column_index (sweep, "value");

  for (guint p = 0; p < ns_sweep_n_points (sweep); p++) {
    g_auto (GStrv) f = ns_sweep_row (sweep, p);
    const char *series = sc >= 0 && f ? f[sc] : "";
    g_autofree char *key = NULL;
    GArray *ys;
    double y;
    if (f == NULL || strcmp (f[st], "ok") || (!is_result_column (plot->y) && strcmp (f[mc], plot->y)))
      continue;
    y = g_ascii_strtod (f[yc], NULL);
    if (isnan (y)) {                    /* undefined (a cv of one repetition): no mark */
      d->undefined++;
      continue;
    }
    if (!g_ptr_array_find_with_equal_func (d->series, series, g_str_equal, NULL))
      g_ptr_array_add (d->series, g_strdup (series));
    if (!g_ptr_array_find_with_equal_func (d->xs, f[xc], g_str_equal, NULL))
      g_ptr_array_add (d->xs, g_strdup (f[xc]));
    key = g_strdup_printf ("%s\x1f%s", series, f[xc]);
    ys = g_hash_table_lookup (d->marks, key);
    if (ys == NULL) {
      ys = g_array_new (FALSE, FALSE, sizeof (double));
      g_hash_table_insert (d->marks, g_steal_pointer (&key), ys);
    }
    g_array_append_val (ys, y);
    d->spread |= ys->len > 1;
    d->rows++;
  }
}

/* Half-width of the 95 % interval of the mean of n values (Student's t); 0 if n < 2. */
static double
mean_ci95 (const GArray *ys)
{
  const double *v = (const double *) ys->data;

  if (ys->len < 2)
    return 0;
  return gsl_cdf_tdist_Pinv (0.975, ys->len - 1) * gsl_stats_sd (v, 1, ys->len) / sqrt (ys->len);
}

/* The data file: one block per series (x mean n label ci95), blocks separated by two
 * blank lines. */
static GString *
plot_data_text (const NsPlotData *d, NsXKind kind)
{
  GString *out = g_string_new ("# netsim sweep plot data: x, y (the mean of the mark's "
                               "points), n (its points), x-label, half-width of the 95 % "
                               "interval of the mean (0 if n < 2)\n");

  for (guint s = 0; s < d->series->len; s++) {
    g_string_append_printf (out, "%s# series %s\n", s ? "\n\n" : "",
                            (const char *) d->series->pdata[s]);
    for (guint i = 0; i < d->xs->len; i++) {
      g_autofree char *key = g_strdup_printf ("%s\x1f%s", (const char *) d->series->pdata[s],
                                              (const char *) d->xs->pdata[i]);
      const GArray *ys = g_hash_table_lookup (d->marks, key);
      g_autofree char *x = NULL, *y = NULL, *label = NULL, *ci = NULL;
      if (ys == NULL)
        continue;
      x = ns_sweep_format_double (x_number (kind, d->xs->pdata[i], i));
      y = ns_sweep_format_double (gsl_stats_mean ((const double *) ys->data, 1, ys->len));
      ci = ns_sweep_format_double (mean_ci95 (ys));
      label = g_strdup_printf ("\"%s\"", (const char *) d->xs->pdata[i]);
      g_strdelimit (label + 1, "\"", '\'');
      label[strlen (label) - 1] = '"';
      g_string_append_printf (out, "%s %s %u %s %s\n", x, y, ys->len, label, ci);
    }
  }
  return out;
}

/* Sort order of doubles. */
static gint
compare_doubles (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* Geometric-looking x values: positive, spanning ≥ 32×, median step ratio ≥ 1.5. */
static gboolean
x_is_geometric (const NsPlotData *d, NsXKind kind)
{
  g_autoptr (GArray) v = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) ratios = g_array_new (FALSE, FALSE, sizeof (double));

  if (kind == X_CATEGORY || d->xs->len < 3)
    return FALSE;
  for (guint i = 0; i < d->xs->len; i++) {
    double x = x_number (kind, d->xs->pdata[i], i);
    if (!(x > 0))
      return FALSE;
    g_array_append_val (v, x);
  }
  g_array_sort (v, compare_doubles);
  for (guint i = 1; i < v->len; i++) {
    double r = g_array_index (v, double, i) / g_array_index (v, double, i - 1);
    g_array_append_val (ratios, r);
  }
  g_array_sort (ratios, compare_doubles);
  return g_array_index (v, double, v->len - 1) / g_array_index (v, double, 0) >= 32 &&
         g_array_index (ratios, double, ratios->len / 2) >= 1.5;
}

/* Scale and tick format of the x axis. */
static void
plot_x_axis (GString *gp, const NsPlotData *d, NsXKind kind)
{
  g_string_append (gp, "set autoscale xfix\n");
  if (x_is_geometric (d, kind))
    g_string_append_printf (gp, "set logscale x %d\n", kind == X_SIZE ? 2 : 10);
  if (kind == X_SIZE)
    g_string_append (gp, "set format x '%.0b %BB'\n");
  else if (kind == X_TIME)
    g_string_append (gp, "set format x '%.0s %cs'\n");
}

/* The gnuplot script: pngcairo if this gnuplot has it, else png; or svg. */
static GString *
plot_script (const NsPlot *plot, const NsSweep *sweep, const NsPlotData *d, NsXKind kind)
{
  GString *gp = g_string_new ("# gnuplot script written by netsim sweep; render with: gnuplot ");
  g_autofree char *out = ns_cmd_gnuplot_quote (plot->file), *dat = NULL, *title = NULL;
  g_autofree char *xl = ns_cmd_gnuplot_quote (plot->x), *yl = NULL;
  g_autofree char *dat_path = g_strconcat (plot->base, ".dat", NULL);

  dat = ns_cmd_gnuplot_quote (dat_path);
  title = d->rows > d->groups
    ? g_strdup_printf ("%s: %s vs %s (each mark: the mean of its points%s)", d->scenario,
                       plot->y, plot->x, d->spread ? "; bar: its 95 % interval" : "")
    : g_strdup_printf ("%s: %s vs %s", d->scenario, plot->y, plot->x);
  yl = ns_cmd_gnuplot_quote (plot->y);
  g_string_append_printf (gp, "%s.gp\n", plot->base);
  if (plot->svg)
    g_string_append (gp, "set terminal svg size 960,600 noenhanced\n");
  else
    g_string_append (gp, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
                         "  set terminal pngcairo size 960,600 noenhanced\n"
                         "} else {\n  set terminal png size 960,600 noenhanced\n}\n");
  g_string_append_printf (gp, "set output %s\n", out);
  g_free (out);
  out = ns_cmd_gnuplot_quote (title);
  g_string_append_printf (gp, "set title %s\nset xlabel %s\nset ylabel %s\n", out, xl, yl);
  g_string_append (gp, "set grid\nset key outside right top noenhanced\n");
  plot_x_axis (gp, d, kind);
  g_string_append (gp, "plot");
  for (guint s = 0; s < d->series->len; s++) {
    const char *value = d->series->pdata[s];
    g_autofree char *label = plot->series == NULL ? g_strdup (plot->y)
                           : !strcmp (plot->series, "variant") ? g_strdup (value)
                           : g_strdup_printf ("%s=%s", plot->series, value);
    g_autofree char *name = ns_cmd_gnuplot_quote (label);
    g_string_append_printf (gp, "%s %s index %u using 1:2%s%s with %s title %s",
                            s ? ", \\\n    " : " ", s ? "''" : dat, s, d->spread ? ":5" : "",
                            kind == X_CATEGORY ? ":xtic(4)" : "",
                            d->spread ? "yerrorlines" : "linespoints", name);
  }
  g_string_append_c (gp, '\n');
  return gp;
}

/* The script gp (the plot's FILE.gp) with its output the file image instead. */
static char *
render_script (const NsPlot *plot, const GString *gp, const char *image)
{
  g_autofree char *file = ns_cmd_gnuplot_quote (plot->file), *tmp = ns_cmd_gnuplot_quote (image);
  g_autofree char *from = g_strdup_printf ("\nset output %s\n", file);
  g_autofree char *to = g_strdup_printf ("\nset output %s\n", tmp);
  GString *script = g_string_new_len (gp->str, (gssize) gp->len);

  g_string_replace (script, from, to, 1);
  return g_string_free (script, FALSE);
}

/* Runs gnuplot on script_file; FALSE with an error quoting gnuplot's, which names
 * gp_path (the same script, rendering into the plot's file) for script_file. */
static gboolean
run_gnuplot (const char *script_file, const char *gp_path, GError **error)
{
  const char *gnuplot = ns_cmd_gnuplot_path ();
  const char *argv[] = { gnuplot, script_file, NULL };
  g_autofree char *err_text = NULL;
  g_autoptr (GError) wait = NULL;
  GString *said;
  gint status;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
                     &err_text, &status, error))
    return FALSE;
  if (g_spawn_check_wait_status (status, &wait))
    return TRUE;
  said = g_string_new (g_strstrip (err_text));
  g_string_replace (said, script_file, gp_path, 0);
  g_set_error (error, NS_ERROR, NS_ERROR_IO, "%s %s failed (%s)%s%s", gnuplot, gp_path,
               wait->message, said->len ? ": " : "", said->str);
  g_string_free (said, TRUE);
  return FALSE;
}

/* Renders the plot with gnuplot from its script gp (written to gp_path), or says why it
 * cannot. gnuplot draws into a temporary folder and the image replaces the plot's file
 * only once drawn whole (ns_cmd_copy_output): a gnuplot that fails leaves no partial or
 * empty image, and an earlier one as it was. */
static gboolean
plot_render (const NsPlot *plot, const char *gp_path, const GString *gp, GError **error)
{
  g_autofree char *dir = NULL, *base = NULL, *script_file = NULL, *image_file = NULL;
  g_autofree char *script = NULL;
  gboolean ok;

  if (!ns_cmd_have_gnuplot ()) {
    g_autofree char *hint = ns_cmd_gnuplot_hint ();
    g_printerr ("netsim sweep: no gnuplot (%s), so %s was not drawn: wrote %s and its data; "
                "with a gnuplot, run 'gnuplot %s'\n", hint, plot->file, gp_path, gp_path);
    return TRUE;
  }
  dir = g_dir_make_tmp ("netsim-plot-XXXXXX", error);
  if (dir == NULL)
    return FALSE;
  base = g_path_get_basename (gp_path);
  script_file = g_build_filename (dir, base, NULL);
  image_file = g_build_filename (dir, plot->svg ? "image.svg" : "image.png", NULL);
  script = render_script (plot, gp, image_file);
  ok = g_file_set_contents (script_file, script, -1, error) &&
       run_gnuplot (script_file, gp_path, error) &&
       ns_cmd_copy_output (image_file, plot->file, error);
  g_unlink (script_file);
  g_unlink (image_file);
  g_rmdir (dir);
  return ok;
}

/* TRUE if the plot's .dat and .gp can be written later (as ns_cmd_check_output). */
static gboolean
plot_outputs_writable (const NsPlot *plot, GError **error)
{
  g_autofree char *dat = g_strconcat (plot->base, ".dat", NULL);
  g_autofree char *gp = g_strconcat (plot->base, ".gp", NULL);

  return ns_cmd_check_output (dat, error) && ns_cmd_check_output (gp, error);
}

/* TRUE if the CSV, the JSON, the plot image and its .dat and .gp (from plot_base) are
 * different files (NULL ones left out; devices and FIFOs may be shared); else says which
 * two meet: one would overwrite the other. */
static gboolean
outputs_distinct (const char *csv, const char *json, const char *plot_file,
                  const char *plot_base)
{
  g_autofree char *dat = plot_base ? g_strconcat (plot_base, ".dat", NULL) : NULL;
  g_autofree char *gp = plot_base ? g_strconcat (plot_base, ".gp", NULL) : NULL;
  const char *names[] = { csv, json, plot_file, dat, gp };
  const char *opts[] = { "-o", "--json", "--plot", "--plot's .dat", "--plot's .gp" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    for (guint j = i + 1; j < G_N_ELEMENTS (names); j++)
      if (ns_cmd_outputs_clash (names[i], names[j])) {
        g_printerr ("netsim sweep: %s and %s are one file, %s: one would overwrite the other\n",
                    opts[i], opts[j], names[i]);
        return FALSE;
      }
  return TRUE;
}

/* TRUE unless the CSV, the JSON, the plot image or its .dat or .gp is a file the sweep
 * reads (the scenario, a CPU profile, a <param from=…> file); else FALSE with an error
 * naming both. */
static gboolean
outputs_not_inputs (const NsSweep *sweep, const char *scenario, const char *csv,
                    const char *json, const NsPlot *plot, GError **error)
{
  g_autofree char *dat = plot->file ? g_strconcat (plot->base, ".dat", NULL) : NULL;
  g_autofree char *gp = plot->file ? g_strconcat (plot->base, ".gp", NULL) : NULL;
  g_auto (GStrv) profiles = ns_sweep_profile_files (sweep);
  g_auto (GStrv) froms = ns_sweep_param_files (sweep);
  const char *const scenarios[] = { scenario, NULL };
  const char *names[] = { csv, json, plot->file, dat, gp };
  const char *opts[] = { "-o", "--json", "--plot", "--plot's .dat", "--plot's .gp" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (!ns_cmd_check_not_inputs (opts[i], names[i], "the scenario", scenarios, error) ||
        !ns_cmd_check_not_inputs (opts[i], names[i], "the CPU profile",
                                  (const char *const *) profiles, error) ||
        !ns_cmd_check_not_inputs (opts[i], names[i], "the file a <param from=…> reads",
                                  (const char *const *) froms, error))
      return FALSE;
  return TRUE;
}

/* Renders the plot's FILE.dat into *dat and FILE.gp into *gp; FALSE if no point has y. */
static gboolean
plot_texts (const NsPlot *plot, const NsSweep *sweep, GString **dat, GString **gp,
            GError **error)
{
  NsPlotData d = { g_ptr_array_new_with_free_func (g_free),
                   g_ptr_array_new_with_free_func (g_free),
                   g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                          (GDestroyNotify) g_array_unref), 0, 0, 0,
                   ns_sweep_scenario_name (sweep), FALSE };
  gboolean ok = FALSE;
  NsXKind kind;

  plot_collect (plot, sweep, &d);
  d.groups = g_hash_table_size (d.marks);
  if (d.rows == 0 && ns_sweep_n_failed (sweep) == ns_sweep_n_points (sweep))
    goto all_failed;
  if (d.rows == 0 && d.undefined > 0)
    goto all_undefined;
  if (d.rows == 0)
    goto no_rows;
  kind = x_kind (d.xs);
  *dat = plot_data_text (&d, kind);
  *gp = plot_script (plot, sweep, &d, kind);
  ok = TRUE;
  goto out;

  /* ERRORS */
all_failed:
  g_set_error (error, NS_ERROR, NS_ERROR_CHECK, "--plot: nothing to plot, every point "
               "failed (the output's error column says why)");
  goto out;
all_undefined:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "--plot: nothing to plot, y=%s is undefined "
               "(nan) at every point that ran", plot->y);
  goto out;
no_rows:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "--plot: no point that ran has y=%s (it "
               "names the scenario's metric or one of value, cv, reps, ops, wall_s)", plot->y);
out:
  g_ptr_array_unref (d.series);
  g_ptr_array_unref (d.xs);
  g_hash_table_unref (d.marks);
  return ok;
}

/* Takes "--plot SPEC FILE" (or --plot=SPEC FILE) out of argv; FALSE on a usage error. */
static gboolean
extract_plot (int *argc, char **argv, char **spec, char **file)
{
  for (int i = 1; i < *argc; i++) {
    int take;
    if (!strcmp (argv[i], "--"))
      break;
    if (strcmp (argv[i], "--plot") && !g_str_has_prefix (argv[i], "--plot="))
      continue;
    take = argv[i][6] == '=' ? 2 : 3;
    if (*spec != NULL || i + take - 1 >= *argc)
      goto usage;
    *spec = g_strdup (take == 2 ? argv[i] + 7 : argv[i + 1]);
    *file = g_strdup (argv[i + take - 1]);
    memmove (argv + i, argv + i + take, (*argc - i - take + 1) * sizeof *argv);
    *argc -= take;
    i--;
  }
  return TRUE;

usage:
  g_printerr ("netsim sweep: --plot takes two arguments: x=PATH,y=METRIC[,series=PATH] "
              "FILE.png (once)\n");
  return FALSE;
}

/* ------------------------------------------------------------------------------------- */

/* TRUE if arg pastes into a POSIX shell as itself unquoted: not empty, and only letters,
 * digits and characters no shell gives a meaning to in a word ("_@%+=:,./-"). */
static gboolean
is_shell_safe (const char *arg)
{
  if (arg[0] == '\0')
    return FALSE;
  for (const char *p = arg; *p; p++)
    if (!g_ascii_isalnum (*p) && strchr ("_@%+=:,./-", *p) == NULL)
      return FALSE;
  return TRUE;
}

/* The command line that resumes this sweep, each argument quoted (g_shell_quote) unless
 * it is_shell_safe, so that it pastes back into a POSIX shell as the same arguments (a
 * newline or carriage return in a --set value stays inside its quotes). */
static char *
resume_command (int argc, char **argv)
{
  GString *cmd = g_string_new ("netsim sweep");
  gboolean has_resume = FALSE;

  for (int i = 1; i < argc; i++) {
    g_autofree char *q = NULL;
    if (!strcmp (argv[i], "--force"))
      continue;
    has_resume = has_resume || !strcmp (argv[i], "--resume");
    q = is_shell_safe (argv[i]) ? g_strdup (argv[i]) : g_shell_quote (argv[i]);
    g_string_append_printf (cmd, " %s", q);
  }
  if (!has_resume)
    g_string_append (cmd, " --resume");
  return g_string_free (cmd, FALSE);
}

/* The command line of netsim sweep. */
typedef struct {
  char    *scenario;                    /* the argument, as given */
  char   **params, **sets;
  char    *output, *json, *variant, *seed_text;
  char    *plot_spec, *plot_file;       /* --plot SPEC FILE */
  gboolean seed_given;
  guint64  seed;
  gint     jobs, repeat;
  gboolean resume, force, quiet, timing;
} NsSweepArgs;

/* Frees what parse_args allocated in a (not a itself). */
static void
args_clear (NsSweepArgs *a)
{
  g_free (a->scenario);
  g_strfreev (a->params);
  g_strfreev (a->sets);
  g_free (a->output);
  g_free (a->json);
  g_free (a->variant);
  g_free (a->seed_text);
  g_free (a->plot_spec);
  g_free (a->plot_file);
}

/* Prints on stderr, once each, the models' notes on the points' builds (what netsim run
 * prints for one run), with how many points carry each. */
static void
print_point_notes (const NsSweep *sweep)
{
  g_autoptr (GPtrArray) notes = ns_sweep_notes (sweep);

  for (guint i = 0; i < notes->len; i++)
    g_printerr ("netsim sweep: note %s\n", (const char *) notes->pdata[i]);
}

/* Prints on stderr a note for each fitted value the sweep carries to another CPU. */
static void
print_fit_notes (const NsSweep *sweep)
{
  GError *err = NULL;
  char **notes = ns_sweep_fit_notes (sweep, &err);

  ns_cmd_print_notes ("sweep", notes, err);
}

/* Prints on stderr, once each, a note for every word no model reads of a kernel command
 * line a --set or a point's --param gives (the scenario's own are the run's to note): it
 * changed nothing at any point that gave it. The points are walked only when a --param
 * (params, as given) sweeps the command line. */
static void
print_unread_cmdline (const NsSweep *sweep, char **sets, char **params)
{
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const char *path = "kernel.cmdline=";

  gboolean swept = FALSE;

  for (guint i = 0; sets && sets[i]; i++)
    if (g_str_has_prefix (sets[i], path))
      ns_cmd_note_unread_cmdline ("sweep", seen, sets[i] + strlen (path));
  for (guint i = 0; params && params[i]; i++)
    swept = swept || g_str_has_prefix (params[i], path);
  for (guint p = 0; swept && p < ns_sweep_n_points (sweep); p++) {
    g_auto (GStrv) at = ns_sweep_point_params (sweep, p);
    for (guint i = 0; at && at[i]; i++)
      if (g_str_has_prefix (at[i], path))
        ns_cmd_note_unread_cmdline ("sweep", seen, at[i] + strlen (path));
  }
}

/* Prints on stderr, once each, a note for every variant's own <set> a --set overrides
 * (each variant the sweep may run: --variant's, else all): the points of that variant run
 * the --set's value. */
static void
print_replaced_sets (const char *path, const char *variant, char **sets)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) names = NULL;
  g_autoptr (GPtrArray) loaded = g_ptr_array_new_with_free_func ((GDestroyNotify) ns_scenario_free);
  NsScenario *sc = sets ? ns_scenario_load (path, (const char *const *) sets, NULL) : NULL;

  if (sc == NULL)
    return;                         /* no --set, or the sweep reports the error itself */
  names = ns_run_variant_names (sc);
  ns_scenario_free (sc);
  for (guint i = 0; i < names->len; i++) {
    const char *name = names->pdata[i];
    if (variant != NULL && strcmp (variant, name) != 0)
      continue;
    sc = ns_scenario_load_variant (path, name, (const char *const *) sets, NULL, NULL, NULL);
    if (sc == NULL)
      continue;
    g_ptr_array_add (loaded, sc);
    ns_cmd_note_replaced ("sweep", seen, sc->replaced);
  }
}

/* Builds the sweep from the arguments; NULL after printing why. */
static NsSweep *
build_sweep (const char *path, const NsSweepArgs *a, GError **error)
{
  NsSweep *sweep = ns_sweep_new (path, a->variant, (const char *const *) a->sets, error);

  if (sweep == NULL)
    return NULL;
  for (guint i = 0; a->params && a->params[i]; i++)
    if (!ns_sweep_add_param (sweep, a->params[i], error))
      goto fail;
  if (a->seed_given)
    ns_sweep_set_seed (sweep, a->seed);
  ns_sweep_set_repeat (sweep, (guint) a->repeat);
  ns_sweep_set_timing (sweep, a->timing);
  if (!ns_sweep_prepare (sweep, error))
    goto fail;
  print_fit_notes (sweep);
  print_unread_cmdline (sweep, a->sets, a->params);
  print_replaced_sets (path, a->variant, a->sets);
  return sweep;

fail:
  ns_sweep_free (sweep);
  return NULL;
}

/* Writes the JSON and the plot's .dat and .gp of a complete sweep, all or nothing (a new
 * file is removed again if another cannot be written), then renders the image. */
static gboolean
write_extras (const NsSweep *sweep, const NsSweepArgs *a, const NsPlot *plot, GError **error)
{
  g_autofree char *dat_path = plot->file ? g_strconcat (plot->base, ".dat", NULL) : NULL;
  g_autofree char *gp_path = plot->file ? g_strconcat (plot->base, ".gp", NULL) : NULL;
  const char *paths[] = { a->json, dat_path, gp_path };
  GString *texts[] = { NULL, NULL, NULL };
  gboolean ok = TRUE;

  if (a->json) {
    texts[0] = g_string_new (NULL);
    ns_sweep_json (sweep, texts[0]);
  }
  if (plot->file)
    ok = plot_texts (plot, sweep, &texts[1], &texts[2], error);
  ok = ok && ns_cmd_write_outputs (paths, (const GString *const *) texts,
                                   G_N_ELEMENTS (paths), error);
  ok = ok && (plot->file == NULL || plot_render (plot, gp_path, texts[2], error));
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    if (texts[i])
      g_string_free (texts[i], TRUE);
  return ok;
}

/* Says why the sweep stopped before its end (err, taken), how far it got and the command
 * that resumes it once that is put right; returns err's exit status. */
static int
stopped_by_error (NsSweep *sweep, const NsSweepArgs *a, GError *err, int argc, char **argv)
{
  g_autofree char *cmd = resume_command (argc, argv);
  int status = ns_cmd_fail (err);

  ns_sweep_finish (sweep, NULL);
  g_printerr ("netsim sweep: stopped after %u of %u points (in %s); once that is put right, "
              "to resume:\n  %s\n", ns_sweep_n_done (sweep), ns_sweep_n_points (sweep),
              a->output, cmd);
  return status;
}

/* Runs the sweep to the end or to an interruption; returns the exit status. */
static int
run_sweep (NsSweep *sweep, const NsSweepArgs *a, const NsPlot *plot, int argc, char **argv)
{
  NsSweepRunOptions opt = { (guint) a->jobs, &stop_level, NULL, NULL, NULL };
  NsFailures failures = { 0, column_index (sweep, "error") };
  GError *err = NULL;
  gboolean ok;

  if (!a->quiet && isatty (STDERR_FILENO))
    opt.progress = show_progress;
  if (!a->quiet)
    opt.point_done = show_failure;
  opt.progress_data = &failures;
  install_signals ();
  ok = ns_sweep_run (sweep, &opt, &err);
  if (opt.progress)
    g_printerr ("\n");
  if (ok && !ns_sweep_complete (sweep)) {
    g_autofree char *cmd = resume_command (argc, argv);
    ns_sweep_finish (sweep, NULL);
    g_printerr ("netsim sweep: stopped after %u of %u points (in %s); to resume:\n  %s\n",
                ns_sweep_n_done (sweep), ns_sweep_n_points (sweep), a->output, cmd);
    return NS_EXIT_SIGNAL_BASE + (stop_signal ? stop_signal : SIGINT);
  }
  if (!ok)
    return stopped_by_error (sweep, a, err, argc, argv);
  if (!ns_sweep_finish (sweep, &err) || !write_extras (sweep, a, plot, &err))
    return ns_cmd_fail (err);
  print_point_notes (sweep);
  if (!a->quiet)
    g_printerr ("netsim sweep: %u points (%u failed) in %s\n", ns_sweep_n_points (sweep),
                ns_sweep_n_failed (sweep), a->output);
  return ns_sweep_n_failed (sweep) ? NS_EXIT_CHECK : NS_EXIT_OK;
}

static const char description[] =
  "Runs SCENARIO.xml at every point of the cartesian product of the --param values and\n"
  "appends one CSV line per point to --output as each finishes (durably: a crash leaves at\n"
  "worst its last line cut short, which --resume drops and runs again). Several --param\n"
  "form the product, the first outermost; PATH is as for netsim run --set. Values: V1,V2,… (\\, is a comma inside a value, as in\n"
  "spectre_v2=retpoline\\,lfence) or ranges START:STOP:STEP, START:STOP:×FACTOR\n"
  "(also xFACTOR), with units: workload.working-set=4KiB:1MiB:x2, measure.duration=\n"
  "10us:50us:10us. PATH seed sweeps the run seed (--param seed=1:20:1); PATH variant picks\n"
  "variants (default: all of the scenario's, one point each).\n"
  "\n"
  "  --plot x=PATH,y=METRIC[,series=PATH] FILE.png|svg\n"
  "        Writes FILE.gp (gnuplot script) and FILE.dat (mean of y per x and series, with\n"
  "        its 95 % interval as error bars when a mark has several points) and\n"
  "        renders the image if gnuplot is installed. series defaults to variant.\n"
  "\n"
  "Each point's seed derives from --seed (default: the scenario's) and the point's index\n"
  "(a swept seed is the point's own: --seed or --set seed=… with it is refused),\n"
  "so the output is the same byte for byte whatever --jobs (unless --timing adds each\n"
  "point's host time). An interrupted sweep continues with --resume.\n"
  "Exit status: 0 every point ran, 1 some point failed (recorded with its error), 2 bad\n"
  "input or usage, 128+N stopped by signal N. See doc/sweeps.md.";

/* Parses the command line; FALSE: usage error (already reported). */
static gboolean
parse_args (int argc, char **argv, NsSweepArgs *a)
{
  GOptionEntry entries[] = {
    { "param", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &a->params, "A swept parameter (repeatable): "
      "PATH=V1,V2,… or PATH=START:STOP:STEP or PATH=START:STOP:×FACTOR", "PATH=VALUES" },
    { "set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &a->sets, "A fixed override for every point "
      "(repeatable), as for netsim run", "PATH=VALUE" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &a->output, "The CSV file (required)", "FILE" },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &a->json, "Also write every point as JSON", "FILE" },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &a->jobs, "Points run at once (default: the number of "
      "processors; at most 4 times that: more only share them thinner, and each holds a "
      "whole simulated machine in memory)", "N" },
    { "repeat", 0, 0, G_OPTION_ARG_INT, &a->repeat, "Runs of each point, each with its own "
      "seed (default 1)", "R" },
    { "seed", 0, 0, G_OPTION_ARG_STRING, &a->seed_text, "Sweep seed the points' seeds derive "
      "from (default: the scenario's)", "S" },
    { "variant", 0, 0, G_OPTION_ARG_STRING, &a->variant, "Run only this variant", "NAME" },
    { "resume", 0, 0, G_OPTION_ARG_NONE, &a->resume, "Continue an interrupted sweep: skip the "
      "points already in --output (refused if it is another sweep's)", NULL },
    { "force", 0, 0, G_OPTION_ARG_NONE, &a->force, "Overwrite an existing --output", NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &a->quiet, "No progress or summary on standard "
      "error", NULL },
    { "timing", 0, 0, G_OPTION_ARG_NONE, &a->timing, "Add a wall_s column: the host seconds "
      "each point took (it differs between runs; without it the output is the same byte "
      "for byte whatever --jobs)", NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("SCENARIO.xml — sweep a scenario "
                                                         "over a grid of parameter values");
  NsCmdOptions *given = ns_cmd_add_entries (ctx, entries);

  a->jobs = (gint) g_get_num_processors ();
  a->repeat = 1;
  ns_cmd_limit_jobs (given, &a->jobs);
  ns_cmd_limit_int (given, &a->repeat, 1, G_MAXINT, "1 to 2147483647");
  g_option_context_set_description (ctx, description);
  if (!extract_plot (&argc, argv, &a->plot_spec, &a->plot_file) ||
      !ns_cmd_parse_options (ctx, given, &argc, &argv))
    return FALSE;
  if (argc != 2 || a->output == NULL)
    goto usage;
  a->scenario = g_strdup (argv[1]);
  return TRUE;

/* ERRORS */
usage:
  g_printerr ("netsim sweep: expected one SCENARIO.xml and --output FILE (see netsim sweep "
              "--help)\n");
  return FALSE;
}

/* Checks the options against each other and against the files they name, parses the seed
 * and the plot: 0, or the exit status of the error it reported. */
static int
check_args (NsSweepArgs *a, NsPlot *plot)
{
  GError *err = NULL;

  if (!ns_cmd_check_jobs ("sweep", a->jobs))
    return NS_EXIT_USAGE;
  if (a->resume && a->force)
    goto resume_and_force;
  if (!ns_cmd_check_sets_once ("sweep", a->sets, "--set") ||
      !ns_cmd_check_one_seed ("sweep", a->seed_text, a->sets, "--set") ||
      !ns_cmd_check_one_seed ("sweep", a->seed_text, a->params, "--param"))
    return NS_EXIT_USAGE;
  a->seed_given = a->seed_text != NULL;
  if (a->seed_given && !ns_cmd_parse_seed ("sweep", a->seed_text, &a->seed))
    return NS_EXIT_USAGE;
  if (!ns_cmd_check_output (a->output, &err) || !ns_cmd_check_output (a->json, &err) ||
      !ns_cmd_check_output (a->plot_file, &err))
    return ns_cmd_fail (err);
  if (!csv_is_a_file (a->output) ||
      (a->plot_spec && !plot_parse (plot, a->plot_spec, a->plot_file)))
    return NS_EXIT_USAGE;
  if (plot->file && !plot_outputs_writable (plot, &err))
    return ns_cmd_fail (err);
  if (!outputs_distinct (a->output, a->json, plot->file, plot->file ? plot->base : NULL))
    return NS_EXIT_USAGE;
  return 0;

/* ERRORS */
resume_and_force:
  g_printerr ("netsim sweep: --resume and --force exclude each other\n");
  return NS_EXIT_USAGE;
}

/* Prints on stderr what opening the output found: a header written again, a torn line
 * dropped, the points a resumed sweep has already. */
static void
print_open_notes (const NsSweep *sweep, const NsSweepArgs *a)
{
  if (ns_sweep_header_was_cut (sweep))
    g_printerr ("netsim sweep: %s: the header was incomplete (the sweep that began the file "
                "stopped while writing it, or the file was cut short), so the file held no "
                "point: the header was written again and all %u points run\n", a->output,
                ns_sweep_n_points (sweep));
  if (ns_sweep_was_torn (sweep))
    g_printerr ("netsim sweep: %s: dropped a torn last line (a point cut short); it runs "
                "again\n", a->output);
  if (a->resume && !a->quiet && ns_sweep_n_done (sweep) > 0)
    g_printerr ("netsim sweep: resuming: %u of %u points already in %s\n",
                ns_sweep_n_done (sweep), ns_sweep_n_points (sweep), a->output);
}

/* Builds the sweep of the scenario at path and opens its output as a says (new, resumed or
 * overwritten), after checking the plot's columns and that no output is an input: the
 * sweep, or NULL with *status the exit status of the error it reported. */
static NsSweep *
open_sweep (const char *path, const NsSweepArgs *a, NsPlot *plot, int *status)
{
  NsSweepMode mode = a->resume ? NS_SWEEP_RESUME : a->force ? NS_SWEEP_OVERWRITE : NS_SWEEP_NEW;
  GError *err = NULL;
  NsSweep *sweep = build_sweep (path, a, &err);

  if (sweep == NULL || (plot->file && !plot_check (plot, sweep)) ||
      !outputs_not_inputs (sweep, path, a->output, a->json, plot, &err) ||
      !ns_sweep_open (sweep, a->output, mode, &err)) {
    *status = err ? ns_cmd_fail (err) : NS_EXIT_USAGE;
    ns_sweep_free (sweep);
    return NULL;
  }
  print_open_notes (sweep, a);
  return sweep;
}

/* netsim sweep SCENARIO.xml -p PATH=VALUES… -o FILE: runs the grid, one CSV line a point. */
int
ns_cmd_sweep (int argc, char **argv)
{
  NsSweepArgs a = { 0 };
  g_auto (GStrv) orig = g_strdupv (argv);
  g_autofree char *scenario = NULL;
  NsPlot plot = { 0 };
  NsSweep *sweep = NULL;
  GError *err = NULL;
  int status = NS_EXIT_USAGE;

  if (!parse_args (argc, argv, &a) || (status = check_args (&a, &plot)) != 0)
    goto out;
  if ((scenario = ns_cmd_scenario_path (a.scenario, &err)) == NULL) {
    status = ns_cmd_fail (err);
    goto out;
  }
  if ((sweep = open_sweep (scenario, &a, &plot, &status)) != NULL)
    status = run_sweep (sweep, &a, &plot, argc, orig);
out:
  ns_sweep_free (sweep);
  plot_clear (&plot);
  args_clear (&a);
  return status;
}
