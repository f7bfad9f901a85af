/* test-figures.c — the tables of current results in the docs agree with
 * validation/expected.csv, the file `make check` holds the model to. A table is checked
 * when an HTML comment on the line before it says how (doc/validation.md, "Figures in the
 * docs"):
 *
 *   <!-- figures: sensitivity -->   a sensitivity table (tools/sensitivity): its header
 *       names each column's row and recorded delta, "ROW (+14.47)", then each recorded
 *       pair's figures and change, "ROW:SIDE/ROW:SIDE (+86.67 ± 2.55)" (the first figure
 *       against the second, ± its recorded 95 % interval where it has one); its "as
 *       shipped" line gives the simulated deltas (a '*' on each row outside its tolerance)
 *       and pair changes (a '*' on each outside its interval), the rows within ("5/8"),
 *       the mean absolute error in pp and, in a column "inside rec. 95 %" where the table
 *       has one, how many of the rows with a recorded interval have their delta inside it
 *       ("7/8", "-" for none).
 *   <!-- figures: rows seed=000 recorded=2 simulated=4 -->   a table whose first column
 *       is a row's variant label in that seed ("ipv4 1G") and whose columns (counted from
 *       1) recorded= and simulated= hold the recorded and simulated deltas ("+14.47 %").
 *   <!-- figures: pktgen -->   before the code block of seed 002's table
 *       (models/net/sched/seed002/table.py): each line's CPU, filters and clone name a
 *       row; its recorded pps and delta must be the row's, and on clone-0 lines (the runs
 *       `netsim validate` makes) its simulated pps, errors, delta and "delta ok" too.
 *
 * A figure agrees when it is the expected one rounded to its two decimals (±0.005). Every
 * doc under doc/ and the README is read; the test fails on any stale figure (naming the
 * file, line, cell and the value expected.csv has), on a marker it cannot read, and if
 * the docs mark fewer tables than they did when this test was written. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"

/* Marked tables the docs had when the test was written: a marker lost fails the test. */
#define MIN_MARKED_TABLES 4

typedef struct {
  char   *id, *seed, *cpu, *variant, *status;
  double  recorded, simulated, error_pp;
  double  rec_base, rec_patch, sim_base, sim_patch;   /* the metric, before and after */
  double  ci;            /* the recorded delta's 95 % interval (pp), or -1 */
} Row;

typedef struct {
  GPtrArray  *rows;      /* Row* */
  GString    *problems;  /* one line per disagreement */
  guint       tables;    /* marked tables checked */
} Check;

/* Frees a Row. */
static void
row_free (gpointer p)
{
  Row *r = p;

  g_free (r->id);
  g_free (r->seed);
  g_free (r->cpu);
  g_free (r->variant);
  g_free (r->status);
  g_free (r);
}

/* The path of a file of the source tree. */
static char *
src_path (const char *rel)
{
  const char *data = g_getenv ("NETSIM_DATADIR");

  return g_build_filename (data ? data : NS_SRCDIR, rel, NULL);
}

/* The index of column name in the header fields, or -1. */
static gint
column (char **header, const char *name)
{
  for (gint i = 0; header[i]; i++)
    if (!strcmp (header[i], name))
      return i;
  return -1;
}

/* Reads validation/expected.csv's rows that have a simulated delta. */
static GPtrArray *
load_expected (void)
{
  g_autofree char *path = src_path ("validation/expected.csv"), *text = NULL;
  g_auto (GStrv) lines = NULL, header = NULL;
  GPtrArray *rows = g_ptr_array_new_with_free_func (row_free);
  gint c_id, c_seed, c_cpu, c_var, c_status, c_rec, c_sim, c_err;
  gint c_rb, c_rp, c_sb, c_sp, c_ci;
  guint l = 0;

  ck_assert_msg (g_file_get_contents (path, &text, NULL, NULL), "cannot read %s", path);
  lines = g_strsplit (text, "\n", -1);
  while (lines[l] && lines[l][0] == '#')
    l++;
  ck_assert_ptr_nonnull (lines[l]);
  header = ns_csv_split (lines[l++]);
  c_id = column (header, "row");
  c_seed = column (header, "seed");
  c_cpu = column (header, "cpu");
  c_var = column (header, "variant");
  c_rb = column (header, "recorded_baseline");
  c_rp = column (header, "recorded_patched");
  c_sb = column (header, "simulated_baseline");
  c_sp = column (header, "simulated_patched");
  c_status = column (header, "status");
  c_rec = column (header, "recorded_delta_pct");
  c_sim = column (header, "simulated_delta_pct");
  c_err = column (header, "error_pp");
  c_ci = column (header, "recorded_delta_ci95_pp");
  ck_assert (c_ci >= 0);
  ck_assert (c_id >= 0 && c_seed >= 0 && c_cpu >= 0 && c_var >= 0 && c_status >= 0 &&
             c_rec >= 0 && c_sim >= 0 && c_err >= 0 && c_rb >= 0 && c_rp >= 0 && c_sb >= 0 &&
             c_sp >= 0);
  for (; lines[l]; l++) {
    g_auto (GStrv) f = lines[l][0] ? ns_csv_split (lines[l]) : NULL;
    Row *r;
    if (f == NULL || (gint) g_strv_length (f) <= c_err || f[c_sim][0] == '\0')
      continue;
    r = g_new0 (Row, 1);
    r->id = g_strdup (f[c_id]);
    r->seed = g_strdup (f[c_seed]);
    r->cpu = g_strdup (f[c_cpu]);
    r->variant = g_strdup (f[c_var]);
    r->status = g_strdup (f[c_status]);
    r->recorded = g_ascii_strtod (f[c_rec], NULL);
    r->simulated = g_ascii_strtod (f[c_sim], NULL);
    r->error_pp = g_ascii_strtod (f[c_err], NULL);
    r->rec_base = g_ascii_strtod (f[c_rb], NULL);
    r->rec_patch = g_ascii_strtod (f[c_rp], NULL);
    r->sim_base = g_ascii_strtod (f[c_sb], NULL);
    r->sim_patch = g_ascii_strtod (f[c_sp], NULL);
    r->ci = (gint) g_strv_length (f) > c_ci && f[c_ci][0] ? g_ascii_strtod (f[c_ci], NULL)
                                                           : -1;
    g_ptr_array_add (rows, r);
  }
  ck_assert_uint_gt (rows->len, 0);
  return rows;
}

/* The row whose field (id or variant, in seed when seed is not NULL) is key, or NULL. */
static const Row *
find_row (const Check *c, const char *seed, const char *key)
{
  for (guint i = 0; i < c->rows->len; i++) {
    const Row *r = c->rows->pdata[i];
    if (seed == NULL ? !strcmp (r->id, key)
                     : !strcmp (r->seed, seed) && !strcmp (r->variant, key))
      return r;
  }
  return NULL;
}

/* Appends one problem line "file:line: what". */
static void G_GNUC_PRINTF (4, 5)
problem (Check *c, const char *file, guint line, const char *format, ...)
{
  va_list ap;

  g_string_append_printf (c->problems, "%s:%u: ", file, line);
  va_start (ap, format);
  g_string_append_vprintf (c->problems, format, ap);
  va_end (ap);
  g_string_append_c (c->problems, '\n');
}

/* The cells of a table line "| a | b |" (stripped), or NULL if it is not one. */
static char **
cells (const char *line)
{
  g_autofree char *inner = NULL;
  char **parts;
  gsize n = strlen (line);

  while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\r'))
    n--;
  if (line[0] != '|' || n < 2 || line[n - 1] != '|')
    return NULL;
  inner = g_strndup (line + 1, n - 2);
  parts = g_strsplit (inner, "|", -1);
  for (guint i = 0; parts[i]; i++)
    g_strstrip (parts[i]);
  return parts;
}

/* Parses a figure as the docs write it ("+12.03 %", "−3.96", "+0.00*"): TRUE with the
 * number in *value and whether a '*' follows in *starred. */
static gboolean
parse_figure (const char *cell, double *value, gboolean *starred)
{
  g_autoptr (GString) s = g_string_new (cell);
  char *end;

  g_string_replace (s, "\xe2\x88\x92", "-", 0);         /* U+2212 minus sign */
  g_strstrip (s->str);
  s->len = strlen (s->str);
  *starred = s->len > 0 && s->str[s->len - 1] == '*';
  if (*starred)
    g_string_truncate (s, s->len - 1);
  if (g_str_has_suffix (s->str, "%"))
    g_string_truncate (s, s->len - 1);
  g_strstrip (s->str);
  *value = g_ascii_strtod (s->str, &end);
  return s->str[0] != '\0' && *end == '\0' && isfinite (*value);
}

/* TRUE if a figure written with two decimals is value rounded to them. */
static gboolean
agrees (double figure, double value)
{
  return fabs (figure - value) <= 0.005 + 1e-9;
}

/* Checks one figure cell against want; what names it in a problem line. */
static void
check_figure (Check *c, const char *file, guint line, const char *cell, double want,
              const char *what)
{
  double got;
  gboolean starred;

  if (!parse_figure (cell, &got, &starred))
    problem (c, file, line, "%s: '%s' is not a figure", what, cell);
  else if (!agrees (got, want))
    problem (c, file, line, "%s: the doc says %s, validation/expected.csv %+.2f", what, cell,
             want);
}

/* A sensitivity table's column after the fixed ones: a row's, or a recorded pair's (the
 * figure of one row's side against another's). */
typedef struct {
  const Row *row;                   /* a row's column; NULL for a pair's */
  const Row *over, *under;          /* a pair's: the change of over's figure from under's */
  gboolean   over_patched, under_patched;
  double     ci;                    /* the pair's recorded interval (pp), or -1 */
} Column;

/* The header title of the interval count column. */
#define INSIDE_TITLE "inside rec. 95 %"

/* Row id's side ("ROW:baseline" or "ROW:patched") in *row and *patched; FALSE after a
 * problem. */
static gboolean
pair_side (Check *c, const char *file, guint line, const char *ref, const Row **row,
           gboolean *patched)
{
  g_auto (GStrv) parts = g_strsplit (ref, ":", 2);

  if (parts[1] == NULL || (strcmp (parts[1], "baseline") && strcmp (parts[1], "patched"))) {
    problem (c, file, line, "sensitivity pair side '%s' is not 'ROW:baseline|patched'", ref);
    return FALSE;
  }
  if ((*row = find_row (c, NULL, parts[0])) == NULL) {
    problem (c, file, line, "no row %s in validation/expected.csv", parts[0]);
    return FALSE;
  }
  *patched = !strcmp (parts[1], "patched");
  return TRUE;
}

/* A pair's change in %, from the recorded or the simulated figures. */
static double
pair_change (const Column *col, gboolean simulated)
{
  const Row *o = col->over, *u = col->under;
  double over = simulated ? (col->over_patched ? o->sim_patch : o->sim_base)
                          : (col->over_patched ? o->rec_patch : o->rec_base);
  double under = simulated ? (col->under_patched ? u->sim_patch : u->sim_base)
                           : (col->under_patched ? u->rec_patch : u->rec_base);

  return 100.0 * (over / under - 1.0);
}

/* A pair's header "ROW:SIDE/ROW:SIDE" with its figure "+86.67 ± 2.55" into col; FALSE
 * after a problem. */
static gboolean
header_pair (Check *c, const char *file, guint line, const char *name, const char *figure,
             Column *col)
{
  g_auto (GStrv) refs = g_strsplit (name, "/", 2);
  g_auto (GStrv) fig = g_strsplit (figure, " \xc2\xb1 ", 2);    /* " ± " */
  g_autofree char *what = g_strdup_printf ("recorded pair %s", name);

  if (!pair_side (c, file, line, refs[0], &col->over, &col->over_patched) ||
      !pair_side (c, file, line, refs[1], &col->under, &col->under_patched))
    return FALSE;
  check_figure (c, file, line, fig[0], pair_change (col, FALSE), what);
  col->ci = fig[1] != NULL ? g_ascii_strtod (fig[1], NULL) : -1;
  return TRUE;
}

/* A sensitivity table's header cell, "ROW (+14.47)" or a pair's, into col; FALSE after a
 * problem. */
static gboolean
header_column (Check *c, const char *file, guint line, const char *cell, Column *col)
{
  g_auto (GStrv) parts = g_strsplit (cell, " (", 2);

  if (parts[1] == NULL || !g_str_has_suffix (parts[1], ")")) {
    problem (c, file, line, "sensitivity header cell '%s' is not 'ROW (DELTA)'", cell);
    return FALSE;
  }
  parts[1][strlen (parts[1]) - 1] = '\0';
  if (strchr (parts[0], '/') != NULL)
    return header_pair (c, file, line, parts[0], parts[1], col);
  col->row = find_row (c, NULL, parts[0]);
  if (col->row == NULL) {
    problem (c, file, line, "no row %s in validation/expected.csv", parts[0]);
    return FALSE;
  }
  check_figure (c, file, line, parts[1], col->row->recorded, col->row->id);
  return TRUE;
}

/* Checks an "as shipped" cell of a pair's column. */
static void
check_pair_cell (Check *c, const char *file, guint line, const char *cell, const Column *col)
{
  double sim = pair_change (col, TRUE), got;
  gboolean outside = col->ci >= 0 && fabs (sim - pair_change (col, FALSE)) > col->ci;
  gboolean starred;

  check_figure (c, file, line, cell, sim, "as shipped, a recorded pair");
  if (parse_figure (cell, &got, &starred) && starred != outside)
    problem (c, file, line, "as shipped, a recorded pair: '%s' %s a '*', but the change "
             "lies %s the recorded interval", cell, starred ? "has" : "lacks",
             outside ? "outside" : "inside");
}

/* Checks an "as shipped" cell of a row's column; counts the row's verdicts. */
static void
check_row_cell (Check *c, const char *file, guint line, const char *cell, const Row *r,
                guint *within, double *sum, guint *with_ci, guint *inside)
{
  gboolean fails = !strcmp (r->status, "fail"), starred;
  g_autofree char *what = g_strdup_printf ("as shipped, %s", r->id);
  double got;

  check_figure (c, file, line, cell, r->simulated, what);
  if (parse_figure (cell, &got, &starred) && starred != fails)
    problem (c, file, line, "%s: '%s' %s a '*', but the row %s", what, cell,
             starred ? "has" : "lacks", fails ? "fails" : "does not fail");
  *within += !strcmp (r->status, "pass");
  *sum += fabs (r->error_pp);
  if (r->ci >= 0) {
    (*with_ci)++;
    *inside += fabs (r->error_pp) <= r->ci;
  }
}

/* Checks the "as shipped" line of a sensitivity table against its columns (n of them,
 * after the first first cells). */
static void
check_as_shipped (Check *c, const char *file, guint line, char **f, const Column *cols,
                  guint n, guint first)
{
  guint within = 0, rows = 0, with_ci = 0, inside = 0;
  double sum = 0, got;
  gboolean starred;
  g_autofree char *want_within = NULL, *want_inside = NULL;

  if (g_strv_length (f) != n + first) {
    problem (c, file, line, "'as shipped' has %u cells, the header %u", g_strv_length (f),
             n + first);
    return;
  }
  for (guint i = 0; i < n; i++) {
    if (cols[i].row == NULL) {
      check_pair_cell (c, file, line, f[first + i], &cols[i]);
      continue;
    }
    rows++;
    check_row_cell (c, file, line, f[first + i], cols[i].row, &within, &sum, &with_ci,
                    &inside);
  }
  want_within = g_strdup_printf ("%u/%u", within, rows);
  if (strcmp (f[2], want_within))
    problem (c, file, line, "as shipped: within %s, validation/expected.csv %s", f[2],
             want_within);
  if (!parse_figure (f[3], &got, &starred) || rows == 0 || !agrees (got, sum / rows))
    problem (c, file, line, "as shipped: mean abs err %s, validation/expected.csv %.2f", f[3],
             rows ? sum / rows : 0.0);
  want_inside = with_ci ? g_strdup_printf ("%u/%u", inside, with_ci) : g_strdup ("-");
  if (first == 5 && strcmp (f[4], want_inside))
    problem (c, file, line, "as shipped: inside the recorded interval %s, "
             "validation/expected.csv %s", f[4], want_inside);
}

/* Checks the sensitivity table starting at lines[l] (its header). */
static void
check_sensitivity (Check *c, const char *file, char **lines, guint l)
{
  g_auto (GStrv) head = cells (lines[l]);
  g_autofree Column *cols = NULL;
  guint n, first = 4;

  if (head == NULL || g_strv_length (head) < 5 || strcmp (head[0], "what-if")) {
    problem (c, file, l + 1, "a sensitivity marker not followed by '| what-if | …' table");
    return;
  }
  if (!strcmp (head[4], INSIDE_TITLE))
    first = 5;
  n = g_strv_length (head) - first;
  cols = g_new0 (Column, n);
  for (guint i = 0; i < n; i++)
    if (!header_column (c, file, l + 1, head[first + i], &cols[i]))
      return;
  for (guint k = l + 2; lines[k] && lines[k][0] == '|'; k++) {
    g_auto (GStrv) f = cells (lines[k]);
    if (f && f[0] && !strcmp (f[0], "as shipped")) {
      check_as_shipped (c, file, k + 1, f, cols, n, first);
      c->tables++;
      return;
    }
  }
  problem (c, file, l + 1, "sensitivity table without an 'as shipped' line");
}

/* The value of "key=" in a marker's words, or NULL. */
static const char *
marker_value (char **words, const char *key)
{
  gsize n = strlen (key);

  for (guint i = 0; words[i]; i++)
    if (!strncmp (words[i], key, n) && words[i][n] == '=')
      return words[i] + n + 1;
  return NULL;
}

/* Checks the rows table starting at lines[l] (its header) as the marker's words say. */
static void
check_rows (Check *c, const char *file, char **lines, guint l, char **words)
{
  const char *seed = marker_value (words, "seed");
  const char *rec = marker_value (words, "recorded"), *sim = marker_value (words, "simulated");
  guint rc = rec ? (guint) atoi (rec) : 0, sc = sim ? (guint) atoi (sim) : 0, n = 0;

  if (seed == NULL || rc < 2 || sc < 2 || lines[l][0] != '|') {
    problem (c, file, l, "a rows marker needs seed=, recorded= and simulated= (columns "
             "from 2) and a table on the next line");
    return;
  }
  for (guint k = l + 2; lines[k] && lines[k][0] == '|'; k++, n++) {
    g_auto (GStrv) f = cells (lines[k]);
    const Row *r = f ? find_row (c, seed, f[0]) : NULL;
    if (r == NULL || g_strv_length (f) < MAX (rc, sc)) {
      problem (c, file, k + 1, "'%s' is no row of seed %s (by its variant label) with "
               "columns %u and %u", f && f[0] ? f[0] : "", seed, rc, sc);
      continue;
    }
    check_figure (c, file, k + 1, f[rc - 1], r->recorded, r->id);
    check_figure (c, file, k + 1, f[sc - 1], r->simulated, r->id);
  }
  if (n == 0)
    problem (c, file, l + 1, "a rows table without rows");
  c->tables++;
}

/* Seed 002's row for a table line's CPU (as the row's cpu begins or contains it), filter
 * count and clone_skb, or NULL. */
static const Row *
find_pktgen_row (const Check *c, const char *cpu, guint filters, guint clone)
{
  g_autofree char *count = g_strdup_printf (", %u filter%s", filters, filters == 1 ? "" : "s");

  for (guint i = 0; i < c->rows->len; i++) {
    const Row *r = c->rows->pdata[i];
    const char *at = strstr (r->variant, count);
    if (strcmp (r->seed, "002") || strstr (r->cpu, cpu) == NULL || at == NULL)
      continue;
    at += strlen (count);
    if (clone == 0 ? *at == '\0' : g_str_equal (at, ", clone 1000") && clone == 1000)
      return r;
  }
  return NULL;
}

/* The number of rows of seed in validation/expected.csv. */
static guint
seed_rows (const Check *c, const char *seed)
{
  guint n = 0;

  for (guint i = 0; i < c->rows->len; i++)
    n += !strcmp (((const Row *) c->rows->pdata[i])->seed, seed);
  return n;
}

/* Checks a pps cell against want (to the unit). */
static void
check_count (Check *c, const char *file, guint line, const char *cell, double want,
             const char *what)
{
  char *end;
  double got = g_ascii_strtod (cell, &end);

  if (*end != '\0' || fabs (got - want) > 0.5)
    problem (c, file, line, "%s: the doc says %s, validation/expected.csv %.0f", what, cell,
             want);
}

/* Checks a "+28.5%" error cell: how far sim is from rec, to its one decimal. */
static void
check_error (Check *c, const char *file, guint line, const char *cell, double sim,
             double rec, const char *what)
{
  double got, want = 100.0 * (sim - rec) / rec;
  gboolean starred;

  if (!parse_figure (cell, &got, &starred) || fabs (got - want) > 0.05 + 1e-9)
    problem (c, file, line, "%s: the doc says %s, validation/expected.csv %+.1f%%", what,
             cell, want);
}

/* Checks one line of the pktgen table: "CPU WORDS filt clone rec.bef sim.bef err%
 * rec.aft sim.aft err% rec.d% sim.d% ok". */
static void
check_pktgen_line (Check *c, const char *file, guint line, const char *text)
{
  const char *what;
  g_auto (GStrv) w = g_strsplit_set (text, " ", -1);
  g_autoptr (GPtrArray) t = g_ptr_array_new ();
  g_autoptr (GString) cpu = g_string_new (NULL);
  const Row *r;
  char **v;

  for (guint i = 0; w[i]; i++)
    if (w[i][0] != '\0')
      g_ptr_array_add (t, w[i]);
  if (t->len < 12) {
    problem (c, file, line, "a pktgen table line needs a CPU and 11 columns");
    return;
  }
  v = (char **) t->pdata + t->len - 11;
  for (guint i = 0; i < t->len - 11; i++)
    g_string_append_printf (cpu, "%s%s", i ? " " : "", (char *) t->pdata[i]);
  r = find_pktgen_row (c, cpu->str, (guint) atoi (v[0]), (guint) atoi (v[1]));
  if (r == NULL) {
    problem (c, file, line, "no seed-002 row for '%s', %s filters, clone %s", cpu->str, v[0],
             v[1]);
    return;
  }
  what = r->id;
  check_count (c, file, line, v[2], r->rec_base, what);
  check_count (c, file, line, v[5], r->rec_patch, what);
  check_figure (c, file, line, v[8], r->recorded, what);
  if (atoi (v[1]) != 0)
    return;             /* validate runs clone 1000 as clone 0: no simulated figure */
  if (strcmp (v[10], !strcmp (r->status, "pass") ? "True" : "False"))
    problem (c, file, line, "%s: delta ok '%s', but validation/expected.csv says %s", what,
             v[10], r->status);
  check_count (c, file, line, v[3], r->sim_base, what);
  check_error (c, file, line, v[4], r->sim_base, r->rec_base, what);
  check_count (c, file, line, v[6], r->sim_patch, what);
  check_error (c, file, line, v[7], r->sim_patch, r->rec_patch, what);
  check_figure (c, file, line, v[9], r->simulated, what);
}

/* Checks the pktgen table: a code fence, a header line "cpu …", rows, a closing fence. */
static void
check_pktgen (Check *c, const char *file, char **lines, guint l)
{
  guint n = 0, k;

  if (strcmp (lines[l], "```") || lines[l + 1] == NULL ||
      !g_str_has_prefix (lines[l + 1], "cpu ")) {
    problem (c, file, l + 1, "a pktgen marker not followed by a code block whose first "
             "line is the 'cpu …' header");
    return;
  }
  for (k = l + 2; lines[k] && strcmp (lines[k], "```"); k++, n++)
    check_pktgen_line (c, file, k + 1, lines[k]);
  if (lines[k] == NULL)
    problem (c, file, l + 1, "a pktgen table without its closing fence");
  else if (n != seed_rows (c, "002"))
    problem (c, file, l + 1, "the pktgen table has %u lines, validation/expected.csv %u "
             "seed-002 rows", n, seed_rows (c, "002"));
  c->tables++;
}

/* Checks every marked table of one doc. */
static void
check_doc (Check *c, const char *rel)
{
  g_autofree char *path = src_path (rel), *text = NULL;
  g_auto (GStrv) lines = NULL;

  ck_assert_msg (g_file_get_contents (path, &text, NULL, NULL), "cannot read %s", path);
  lines = g_strsplit (text, "\n", -1);
  for (guint l = 0; lines[l]; l++) {
    g_autofree char *inner = NULL;
    g_auto (GStrv) words = NULL;
    if (!g_str_has_prefix (lines[l], "<!-- figures:") || lines[l + 1] == NULL)
      continue;
    inner = g_strndup (lines[l] + 13, strlen (lines[l] + 13));
    if (!g_str_has_suffix (g_strstrip (inner), "-->")) {
      problem (c, rel, l + 1, "a figures marker must end on its line with -->");
      continue;
    }
    inner[strlen (inner) - 3] = '\0';
    words = g_strsplit_set (g_strstrip (inner), " ", -1);
    if (!strcmp (words[0], "sensitivity"))
      check_sensitivity (c, rel, lines, l + 1);
    else if (!strcmp (words[0], "rows"))
      check_rows (c, rel, lines, l + 1, words);
    else if (!strcmp (words[0], "pktgen"))
      check_pktgen (c, rel, lines, l + 1);
    else
      problem (c, rel, l + 1, "unknown figures marker '%s'", words[0]);
  }
}

/* The docs: README.md and every .md under doc/ (relative to the tree). */
static GPtrArray *
list_docs (void)
{
  GPtrArray *docs = g_ptr_array_new_with_free_func (g_free);
  const char *folders[] = { "doc", "doc/models" };

  g_ptr_array_add (docs, g_strdup ("README.md"));
  for (guint i = 0; i < G_N_ELEMENTS (folders); i++) {
    g_autofree char *dir_path = src_path (folders[i]);
    GDir *dir = g_dir_open (dir_path, 0, NULL);
    const char *name;
    ck_assert_msg (dir != NULL, "cannot list %s", dir_path);
    while ((name = g_dir_read_name (dir)) != NULL)
      if (g_str_has_suffix (name, ".md"))
        g_ptr_array_add (docs, g_build_filename (folders[i], name, NULL));
    g_dir_close (dir);
  }
  return docs;
}

/* Every marked table agrees with validation/expected.csv. */
START_TEST (test_docs_agree)
{
  Check c = { load_expected (), g_string_new (NULL), 0 };
  g_autoptr (GPtrArray) docs = list_docs ();

  for (guint i = 0; i < docs->len; i++)
    check_doc (&c, docs->pdata[i]);
  /* the list goes to stderr whole: Check refuses a message longer than 4 KiB */
  if (c.problems->len > 0)
    g_printerr ("stale or unreadable figures in the docs:\n%s", c.problems->str);
  ck_assert_msg (c.problems->len == 0, "stale or unreadable figures in the docs (%u bytes "
                 "of them, listed above)", (guint) c.problems->len);
  ck_assert_msg (c.tables >= MIN_MARKED_TABLES, "%u marked tables, fewer than %u", c.tables,
                 MIN_MARKED_TABLES);
  g_string_free (c.problems, TRUE);
  g_ptr_array_unref (c.rows);
}
END_TEST

/* The figure parser reads what the docs write and refuses what is not a figure. */
START_TEST (test_parse_figure)
{
  double v;
  gboolean star;

  ck_assert (parse_figure ("+12.03 %", &v, &star) && v == 12.03 && !star);
  ck_assert (parse_figure ("\xe2\x88\x92" "3.96 %", &v, &star) && v == -3.96 && !star);
  ck_assert (parse_figure ("+0.00*", &v, &star) && v == 0.0 && star);
  ck_assert (!parse_figure ("yes", &v, &star));
  ck_assert (!parse_figure ("", &v, &star));
  ck_assert (agrees (12.03, 12.026205) && !agrees (12.02, 12.026205));
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("doc-figures");
  TCase *tc = tcase_create ("figures");
  SRunner *sr;
  int failed;

  tcase_add_test (tc, test_parse_figure);
  tcase_add_test (tc, test_docs_agree);
  suite_add_tcase (s, tc);
  sr = srunner_create (s);
  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed ? 1 : 0;
}
