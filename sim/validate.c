/* validate.c — validation against the recorded hardware results.
 *
 * The recorded rows live in <dir>/seed-NNN.xml (figures exactly as the seed threads print
 * them, with the set-up they were measured on), the mapping of each row to a simulation in
 * <dir>/cases.xml, and the calibration record (which rows a free parameter was fitted on)
 * in <dir>/calibration.xml. A validation run resolves every selected row's case to two
 * variant runs (baseline and patched kernel), runs them through the run layer exactly as
 * `netsim run SCENARIO --variant V --set …` does, and compares the simulated delta with
 * the recorded one.
 *
 * Every variant runs in its own child process (up to --jobs at once), forked from a parent
 * that has run no model code, so it starts from the process state `netsim run` starts
 * from. That matters: simulated-function declarations live in a process-wide registry
 * (sim/build.c) in which two models may declare the same kernel function (the first
 * declaration wins), so runs of different scenarios in one process could see each other's
 * declarations. Children send back the bit patterns of the numbers, so the results do not
 * depend on --jobs. */
#include "config.h"
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <gsl/gsl_cdf.h>
#include <libxml/tree.h>
#include "validate.h"
#include "calibrate.h"
#include "child.h"
#include "csv.h"
#include "json.h"
#include "param.h"
#include "profile.h"
#include "run.h"
#include "scenario.h"
#include "xml.h"

#define RECORDED_SCHEMA    "recorded.rng"
#define CASES_SCHEMA       "cases.rng"
#define CALIBRATION_SCHEMA "calibration.rng"
#define CASES_FILE         "cases.xml"
#define CALIBRATION_FILE   "calibration.xml"
#define FIT_PREFIX         "fit on "
#define FIT_RESIDUAL       ", residual "

struct _NsValidation {
  char       *dir;
  GPtrArray  *rows;             /* NsRecordedRow*, file order */
  GHashTable *row_index;        /* id → NsRecordedRow* */
  GPtrArray  *cases;            /* NsValCase* */
  GHashTable *case_index;       /* row id → NsValCase* */
  GPtrArray  *fits;             /* NsValFit* */
  GPtrArray  *facts;            /* NsValFact* */
  GPtrArray  *pairs;            /* NsValPair* */
  GPtrArray  *notes;            /* NsValNote* */
  GPtrArray  *files;            /* char*: the files loaded, NULL-terminated */
};

/* ------------------------------------------------------------------------------------ */
/* Small helpers. */

/* Path of a schema shipped in <datadir>/validation/. */
static char *
schema_path (const char *name)
{
  return g_build_filename (ns_data_dir (), "validation", name, NULL);
}

/* Parses path and validates it against the named schema of <datadir>/validation/. */
static xmlDocPtr
load_document (const char *path, const char *schema, GError **error)
{
  g_autofree char *rng = schema_path (schema);

  return ns_xml_load (path, rng, error);
}

/* ------------------------------------------------------------------------------------ */
/* Freeing. */

/* Frees a NsSetupItem and its strings (the free function of NsSetup.items). */
static void
setup_item_free (gpointer p)
{
  NsSetupItem *item = p;

  g_free (item->kind);
  g_free (item->name);
  g_free (item->value);
  g_free (item->unit);
  g_free (item);
}

/* Frees the strings and items of s but not s itself (only items is reset to NULL). */
static void
setup_clear (NsSetup *s)
{
  g_free (s->tool);
  g_free (s->command);
  g_free (s->cpu);
  g_free (s->profile);
  g_free (s->kernel);
  g_free (s->mitigations);
  g_clear_pointer (&s->items, g_ptr_array_unref);
}

/* Frees a NsRecordedRow with its strings and set-up (the free function of v->rows). */
static void
row_free (gpointer p)
{
  NsRecordedRow *row = p;

  g_free (row->id);
  g_free (row->seed);
  g_free (row->file);
  g_free (row->where);
  g_free (row->table);
  g_free (row->variant);
  g_free (row->unit);
  g_free (row->statistic);
  g_free (row->source);
  g_free (row->baseline_text);
  g_free (row->patched_text);
  g_free (row->baseline_cv);
  g_free (row->patched_cv);
  g_free (row->printed_delta);
  setup_clear (&row->setup);
  g_free (row);
}

/* Frees a NsValCase with its strings and sets (the free function of v->cases). */
static void
case_free (gpointer p)
{
  NsValCase *c = p;

  g_free (c->row);
  g_free (c->scenario);
  g_free (c->baseline);
  g_free (c->patched);
  g_free (c->metric);
  g_strfreev (c->sets);
  g_free (c->reason);
  g_free (c->note);
  g_free (c->where);
  g_free (c);
}

/* Frees a NsValFit with its strings and rows (the free function of v->fits). */
static void
fit_free (gpointer p)
{
  NsValFit *f = p;

  g_free (f->profile);
  g_free (f->param);
  g_free (f->value);
  g_free (f->residual);
  g_free (f->target);
  g_strfreev (f->rows);
  g_free (f->unbacked);
  g_free (f);
}

/* Frees a NsValFact and its strings (the free function of v->facts). */
static void
fact_free (gpointer p)
{
  NsValFact *f = p;

  g_free (f->seed);
  g_free (f->name);
  g_free (f->unit);
  g_free (f->baseline);
  g_free (f->patched);
  g_free (f->source);
  g_free (f);
}

/* Frees a NsValPair with its strings and both refs (the free function of v->pairs). */
static void
pair_free (gpointer p)
{
  NsValPair *pair = p;

  g_free (pair->seed);
  g_free (pair->where);
  g_free (pair->id);
  g_free (pair->label);
  g_free (pair->source);
  for (int i = 0; i < 2; i++) {
    g_free (pair->row[i]);
    g_free (pair->side[i]);
  }
  g_free (pair);
}

/* Frees a NsValNote and its strings (the free function of v->notes). */
static void
note_free (gpointer p)
{
  NsValNote *n = p;

  g_free (n->seed);
  g_free (n->source);
  g_free (n->text);
  g_free (n);
}

/* Frees v (NULL is fine). */
void
ns_validation_free (NsValidation *v)
{
  if (v == NULL)
    return;
  g_free (v->dir);
  g_ptr_array_unref (v->rows);
  g_hash_table_unref (v->row_index);
  g_ptr_array_unref (v->cases);
  g_hash_table_unref (v->case_index);
  g_ptr_array_unref (v->fits);
  g_ptr_array_unref (v->facts);
  g_ptr_array_unref (v->pairs);
  g_ptr_array_unref (v->notes);
  g_ptr_array_unref (v->files);
  g_free (v);
}

/* A new, empty NsValidation of dir: the arrays own their elements, the indexes borrow them. */
static NsValidation *
validation_new (const char *dir)
{
  NsValidation *v = g_new0 (NsValidation, 1);

  v->dir = g_strdup (dir);
  v->rows = g_ptr_array_new_with_free_func (row_free);
  v->row_index = g_hash_table_new (g_str_hash, g_str_equal);
  v->cases = g_ptr_array_new_with_free_func (case_free);
  v->case_index = g_hash_table_new (g_str_hash, g_str_equal);
  v->fits = g_ptr_array_new_with_free_func (fit_free);
  v->facts = g_ptr_array_new_with_free_func (fact_free);
  v->pairs = g_ptr_array_new_with_free_func (pair_free);
  v->notes = g_ptr_array_new_with_free_func (note_free);
  v->files = g_ptr_array_new_with_free_func (g_free);
  return v;
}

/* ------------------------------------------------------------------------------------ */
/* Set-ups: a file's, overlaid by its table's, overlaid by its row's. */

/* Deep-copies src into dst, overwriting dst's fields without freeing them; src->items may
 * be NULL (dst gets an empty array). */
static void
setup_copy (NsSetup *dst, const NsSetup *src)
{
  dst->tool = g_strdup (src->tool);
  dst->command = g_strdup (src->command);
  dst->cpu = g_strdup (src->cpu);
  dst->profile = g_strdup (src->profile);
  dst->kernel = g_strdup (src->kernel);
  dst->mitigations = g_strdup (src->mitigations);
  dst->items = g_ptr_array_new_with_free_func (setup_item_free);
  for (guint i = 0; src->items && i < src->items->len; i++) {
    const NsSetupItem *s = src->items->pdata[i];
    NsSetupItem *d = g_new0 (NsSetupItem, 1);
    d->kind = g_strdup (s->kind);
    d->name = g_strdup (s->name);
    d->value = g_strdup (s->value);
    d->unit = g_strdup (s->unit);
    g_ptr_array_add (dst->items, d);
  }
}

/* Replaces *field with node's attribute attr when the attribute is present. */
static void
overlay_attr (char **field, xmlNodePtr node, const char *attr)
{
  char *value = ns_xml_prop (node, attr);

  if (value == NULL)
    return;
  g_free (*field);
  *field = value;
}

/* Adds item to s, replacing an item of the same kind and name. */
static void
setup_put_item (NsSetup *s, NsSetupItem *item)
{
  for (guint i = 0; i < s->items->len; i++) {
    NsSetupItem *old = s->items->pdata[i];
    if (!strcmp (old->kind, item->kind) && !strcmp (old->name, item->name)) {
      setup_item_free (old);
      s->items->pdata[i] = item;
      return;
    }
  }
  g_ptr_array_add (s->items, item);
}

/* Overlays a <setup> element (NULL: nothing) on s. */
static void
setup_overlay (NsSetup *s, xmlNodePtr node)
{
  if (node == NULL)
    return;
  overlay_attr (&s->tool, node, "tool");
  overlay_attr (&s->command, node, "command");
  overlay_attr (&s->cpu, node, "cpu");
  overlay_attr (&s->profile, node, "profile");
  overlay_attr (&s->kernel, node, "kernel");
  overlay_attr (&s->mitigations, node, "mitigations");
  for (xmlNodePtr n = node->children; n; n = n->next) {
    NsSetupItem *item;
    if (!ns_xml_is_element (n, NULL))
      continue;
    item = g_new0 (NsSetupItem, 1);
    item->kind = g_strdup ((const char *) n->name);
    item->name = ns_xml_prop (n, "name");
    item->value = ns_xml_prop (n, "value");
    item->unit = ns_xml_prop (n, "unit");
    setup_put_item (s, item);
  }
}

/* ------------------------------------------------------------------------------------ */
/* Recorded rows. */

/* What every row of one file shares. */
typedef struct {
  NsValidation *v;
  const char   *path;
  char         *seed;
  char         *file;
  double        baseline_tolerance_pct;   /* <recorded baseline-tolerance-pct>, < 0: none */
} NsRecordedFile;

/* Checks a row's merged set-up names what every recorded figure must state. */
static gboolean
check_row_setup (const NsRecordedFile *rf, xmlNodePtr node, const NsRecordedRow *row,
                 GError **error)
{
  const char *missing = !row->setup.tool ? "tool" : !row->setup.command ? "command" :
    !row->setup.cpu ? "cpu" : !row->setup.kernel ? "kernel" :
    !row->setup.mitigations ? "mitigations" : NULL;

  if (missing == NULL)
    return TRUE;
  ns_xml_set_error (error, rf->path, node, "row %s: no <setup> of its file, table or row "
                  "states '%s'", row->id, missing);
  return FALSE;
}

/* Reads <baseline>/<patched> of a row into the text, value and cv fields; FALSE with a
 * file:line error if the value or the cv is not a finite decimal number. */
static gboolean
read_figure (const NsRecordedFile *rf, xmlNodePtr row_node, const char *name, char **text,
             char **cv, double *value, GError **error)
{
  xmlNodePtr n = ns_xml_child (row_node, name);
  double x;

  *text = ns_xml_prop (n, "value");
  *cv = ns_xml_prop (n, "cv");
  if (!ns_parse_decimal (*text, value))
    goto bad_value;
  if (*cv != NULL && !ns_parse_decimal (*cv, &x))
    goto bad_cv;
  return TRUE;

/* ERRORS */
bad_value:
  ns_xml_set_error_attr (error, rf->path, n, "value", "<%s value=\"%s\">: expected a finite "
                         "decimal number as printed (1730488.20, 5914980)", name, *text);
  return FALSE;
bad_cv:
  ns_xml_set_error_attr (error, rf->path, n, "cv", "<%s cv=\"%s\">: expected a finite "
                         "decimal number (0.0050)", name, *cv);
  return FALSE;
}

/* TRUE if text is a delta as a thread prints one: a finite decimal number, optionally
 * signed, optionally followed by '%' (+7.8%, 13.9%, -20). */
static gboolean
is_printed_delta (const char *text)
{
  g_autofree char *number = g_strdup (text);
  gsize n = strlen (number);
  double x;

  if (n > 0 && number[n - 1] == '%')
    number[n - 1] = '\0';
  return ns_parse_decimal (number, &x);
}

/* The value of the set-up's count "runs-per-figure": 0 if absent, G_MAXUINT if not a
 * positive integer. */
static guint
setup_runs (const NsSetup *s)
{
  for (guint i = 0; i < s->items->len; i++) {
    const NsSetupItem *item = s->items->pdata[i];
    guint64 n;
    if (strcmp (item->kind, "count") || strcmp (item->name, "runs-per-figure"))
      continue;
    if (!g_ascii_string_to_unsigned (item->value, 10, 1, G_MAXUINT - 1, &n, NULL))
      return G_MAXUINT;
    return (guint) n;
  }
  return 0;
}

/* Half-width of the 95 % interval of the recorded delta; see validate.h. */
double
ns_validation_delta_ci95 (double ratio, double cv_b, double cv_p, guint n)
{
  double a, b, df;

  g_return_val_if_fail (ratio >= 0 && cv_b >= 0 && cv_p >= 0, -1);
  if (n < 2)
    return -1;
  a = cv_b * cv_b / n;          /* variance of the log of each mean */
  b = cv_p * cv_p / n;
  if (a + b == 0)
    return 0;
  df = (a + b) * (a + b) / ((a * a + b * b) / (n - 1));
  return 100.0 * ratio * gsl_cdf_tdist_Pinv (0.975, df) * sqrt (a + b);
}

/* Sets the row's runs and the interval of its delta (unknown without both CVs and runs). */
static gboolean
read_row_noise (const NsRecordedFile *rf, xmlNodePtr node, NsRecordedRow *row, GError **error)
{
  double cv_b, cv_p;

  row->delta_ci95_pp = -1;
  row->runs = setup_runs (&row->setup);
  if (row->runs == G_MAXUINT)
    goto bad_runs;
  if (row->baseline_cv == NULL || row->patched_cv == NULL)
    return TRUE;
  cv_b = g_ascii_strtod (row->baseline_cv, NULL);
  cv_p = g_ascii_strtod (row->patched_cv, NULL);
  if (cv_b < 0 || cv_p < 0)
    goto bad_cv;
  row->delta_ci95_pp = ns_validation_delta_ci95 (row->patched / row->baseline, cv_b, cv_p,
                                                 row->runs);
  return TRUE;

/* ERRORS */
bad_runs:
  ns_xml_set_error (error, rf->path, node, "row %s: count 'runs-per-figure' must be a "
                    "positive integer", row->id);
  return FALSE;
bad_cv:
  ns_xml_set_error (error, rf->path, node, "row %s: a cv must be >= 0 (got %s and %s)",
                    row->id, row->baseline_cv, row->patched_cv);
  return FALSE;
}

/* Checks the figures and the stated tolerance of a row just read. */
static gboolean
check_row_figures (const NsRecordedFile *rf, xmlNodePtr node, NsRecordedRow *row,
                   GError **error)
{
  double rule;

  if (row->baseline <= 0 || row->patched < 0)
    goto bad_figure;
  row->delta_pct = 100.0 * (row->patched / row->baseline - 1.0);
  rule = MAX (NS_VAL_TOLERANCE_MIN_PP, NS_VAL_TOLERANCE_FRACTION * fabs (row->delta_pct));
  if (row->stated_tolerance_pp > rule)
    goto loose_tolerance;
  return read_row_noise (rf, node, row, error);

/* ERRORS */
bad_figure:
  ns_xml_set_error (error, rf->path, node, "row %s: the baseline must be > 0 and the patched "
                  "figure ≥ 0 (got %s and %s)", row->id, row->baseline_text, row->patched_text);
  return FALSE;
loose_tolerance:
  ns_xml_set_error (error, rf->path, node, "row %s: tolerance-pp %g is looser than the "
                  "default rule max(3 pp, 10 %% of |delta|) = %g pp; only a tighter one may "
                  "be stated", row->id, row->stated_tolerance_pp, rule);
  return FALSE;
}

/* The number tolerance-pp text states, or NAN if it is not a whole number ("1.5pp"). */
static double
tolerance_value (const char *text)
{
  char *end;
  double v = g_ascii_strtod (text, &end);

  return end != text && *end == '\0' ? v : NAN;
}

/* TRUE if id is "SEED-what" for the file's seed. */
static gboolean
row_id_of_seed (const char *id, const char *seed)
{
  gsize n = strlen (seed);

  return !strncmp (id, seed, n) && id[n] == '-' && id[n + 1] != '\0';
}

/* Reads one <row> of a table whose merged set-up is base. */
static gboolean
read_row (NsRecordedFile *rf, xmlNodePtr table, const NsSetup *base, xmlNodePtr node,
          GError **error)
{
  NsRecordedRow *row = g_new0 (NsRecordedRow, 1);
  g_autofree char *tol = NULL;

  row->id = ns_xml_prop (node, "id");
  g_ptr_array_add (rf->v->rows, row);
  row->seed = g_strdup (rf->seed);
  row->file = g_strdup (rf->file);
  row->where = g_strdup_printf ("%s:%d", rf->path, ns_xml_line (node));
  row->table = ns_xml_prop (table, "name");
  row->unit = ns_xml_prop (table, "unit");
  row->statistic = ns_xml_prop (table, "statistic");
  row->source = ns_xml_prop (table, "source");
  row->variant = ns_xml_prop (node, "variant");
  row->printed_delta = ns_xml_prop (node, "printed-delta");
  tol = ns_xml_prop (node, "tolerance-pp");
  row->stated_tolerance_pp = tol ? tolerance_value (tol) : -1;
  row->baseline_tolerance_pct = rf->baseline_tolerance_pct;
  setup_copy (&row->setup, base);
  setup_overlay (&row->setup, ns_xml_child (node, "setup"));
  if (g_hash_table_contains (rf->v->row_index, row->id))
    goto duplicate;
  g_hash_table_insert (rf->v->row_index, row->id, row);
  if (!row_id_of_seed (row->id, rf->seed))
    goto foreign_id;
  if (tol != NULL && !(row->stated_tolerance_pp > 0))
    goto bad_tolerance;
  if (row->printed_delta != NULL && !is_printed_delta (row->printed_delta))
    goto bad_printed_delta;
  return read_figure (rf, node, "baseline", &row->baseline_text, &row->baseline_cv,
                      &row->baseline, error) &&
         read_figure (rf, node, "patched", &row->patched_text, &row->patched_cv,
                      &row->patched, error) &&
         check_row_setup (rf, node, row, error) && check_row_figures (rf, node, row, error);

/* ERRORS */
foreign_id:
  ns_xml_set_error_attr (error, rf->path, node, "id", "row id '%s' does not begin with its "
                         "file's seed: row ids are SEED-what, here %s-…", row->id, rf->seed);
  return FALSE;
bad_printed_delta:
  ns_xml_set_error_attr (error, rf->path, node, "printed-delta", "row %s: printed-delta=\"%s\" "
                         "is not a delta as printed: a decimal number, optionally signed and "
                         "followed by %% (+7.8%%, 13.9%%, -20)", row->id, row->printed_delta);
  return FALSE;
bad_tolerance:
  ns_xml_set_error_attr (error, rf->path, node, "tolerance-pp", "row %s: tolerance-pp=\"%s\" "
                         "is not a positive number of percentage points", row->id, tol);
  return FALSE;
duplicate:
  ns_xml_set_error (error, rf->path, node, "row id '%s' is used twice (first at %s)", row->id,
                  ((NsRecordedRow *) g_hash_table_lookup (rf->v->row_index, row->id))->where);
  return FALSE;
}

/* Reads one <table> under the file's set-up. */
static gboolean
read_table (NsRecordedFile *rf, const NsSetup *file_setup, xmlNodePtr table, GError **error)
{
  NsSetup base = { 0 };
  gboolean ok = TRUE;

  setup_copy (&base, file_setup);
  setup_overlay (&base, ns_xml_child (table, "setup"));
  for (xmlNodePtr n = table->children; ok && n; n = n->next)
    if (ns_xml_is_element (n, "row"))
      ok = read_row (rf, table, &base, n, error);
  setup_clear (&base);
  return ok;
}

/* FALSE with a file:line error if the figure attr of fact f (<fact> n) is given and is
 * not a finite decimal number. */
static gboolean
check_fact_figure (const NsRecordedFile *rf, xmlNodePtr n, const NsValFact *f,
                   const char *attr, const char *text, GError **error)
{
  double x;

  if (text == NULL || ns_parse_decimal (text, &x))
    return TRUE;
  ns_xml_set_error_attr (error, rf->path, n, attr, "fact %s: %s=\"%s\" is not a number: a "
                         "fact's figures are finite decimal numbers as printed (0.642949344), "
                         "the unit goes in unit=", f->name, attr, text);
  return FALSE;
}

/* Appends the <fact> n of the file being read to rf->v->facts; FALSE with a file:line
 * error if a figure is not a number. */
static gboolean
read_fact (NsRecordedFile *rf, xmlNodePtr n, GError **error)
{
  NsValFact *f = g_new0 (NsValFact, 1);

  f->seed = g_strdup (rf->seed);
  f->name = ns_xml_prop (n, "name");
  f->unit = ns_xml_prop (n, "unit");
  f->baseline = ns_xml_prop (n, "baseline");
  f->patched = ns_xml_prop (n, "patched");
  f->source = ns_xml_prop (n, "source");
  g_ptr_array_add (rf->v->facts, f);
  return check_fact_figure (rf, n, f, "baseline", f->baseline, error) &&
         check_fact_figure (rf, n, f, "patched", f->patched, error);
}

/* Appends the <pair> n to rf->v->pairs, with the row and side of its first two <ref>s. */
static void
read_pair (NsRecordedFile *rf, xmlNodePtr n)
{
  NsValPair *p = g_new0 (NsValPair, 1);
  int i = 0;

  p->seed = g_strdup (rf->seed);
  p->where = g_strdup_printf ("%s:%d", rf->path, ns_xml_line (n));
  p->id = ns_xml_prop (n, "id");
  p->label = ns_xml_prop (n, "label");
  p->source = ns_xml_prop (n, "source");
  for (xmlNodePtr r = n->children; r && i < 2; r = r->next)
    if (ns_xml_is_element (r, "ref")) {
      p->row[i] = ns_xml_prop (r, "row");
      p->side[i++] = ns_xml_prop (r, "side");
    }
  g_ptr_array_add (rf->v->pairs, p);
}

/* Appends the <note> n (its source and text) to rf->v->notes. */
static void
read_note (NsRecordedFile *rf, xmlNodePtr n)
{
  NsValNote *note = g_new0 (NsValNote, 1);

  note->seed = g_strdup (rf->seed);
  note->source = ns_xml_prop (n, "source");
  note->text = ns_xml_text (n);
  g_ptr_array_add (rf->v->notes, note);
}

/* Reads the tables, facts, pairs and notes of one recorded file. */
static gboolean
read_recorded_root (NsRecordedFile *rf, xmlNodePtr root, GError **error)
{
  NsSetup file_setup = { 0 };
  NsSetup empty = { 0 };
  gboolean ok = TRUE;

  setup_copy (&file_setup, &empty);
  setup_overlay (&file_setup, ns_xml_child (root, "setup"));
  for (xmlNodePtr n = root->children; ok && n; n = n->next) {
    if (ns_xml_is_element (n, "table"))
      ok = read_table (rf, &file_setup, n, error);
    else if (ns_xml_is_element (n, "fact"))
      ok = read_fact (rf, n, error);
    else if (ns_xml_is_element (n, "pair"))
      read_pair (rf, n);
    else if (ns_xml_is_element (n, "note"))
      read_note (rf, n);
  }
  setup_clear (&file_setup);
  return ok;
}

/* Loads one seed-NNN.xml. */
static gboolean
load_recorded_file (NsValidation *v, const char *path, GError **error)
{
  xmlDocPtr doc = load_document (path, RECORDED_SCHEMA, error);
  NsRecordedFile rf = { v, path, NULL, NULL, -1 };
  g_autofree char *base_tol = NULL;
  gboolean ok;

  if (doc == NULL)
    return FALSE;
  rf.seed = ns_xml_prop (xmlDocGetRootElement (doc), "seed");
  rf.file = ns_xml_prop (xmlDocGetRootElement (doc), "file");
  base_tol = ns_xml_prop (xmlDocGetRootElement (doc), "baseline-tolerance-pct");
  if (base_tol != NULL)
    rf.baseline_tolerance_pct = tolerance_value (base_tol);   /* the schema: positive */
  ok = read_recorded_root (&rf, xmlDocGetRootElement (doc), error);
  g_free (rf.seed);
  g_free (rf.file);
  xmlFreeDoc (doc);
  return ok;
}

/* GCompareFunc ordering the char* elements of a GPtrArray by strcmp. */
static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* Sorted seed-*.xml file names in dir. */
static GPtrArray *
recorded_files (const char *dir, GError **error)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  GDir *d = g_dir_open (dir, 0, error);
  const char *entry;

  if (d == NULL) {
    g_ptr_array_unref (names);
    return NULL;
  }
  while ((entry = g_dir_read_name (d)) != NULL)
    if (g_str_has_prefix (entry, "seed-") && g_str_has_suffix (entry, ".xml"))
      g_ptr_array_add (names, g_build_filename (dir, entry, NULL));
  g_dir_close (d);
  g_ptr_array_sort (names, compare_names);
  return names;
}

/* The pair before index i of v->pairs with the same id as pair i, or NULL. */
static const NsValPair *
earlier_pair (const NsValidation *v, guint i)
{
  const NsValPair *p = v->pairs->pdata[i];

  for (guint k = 0; k < i; k++)
    if (!strcmp (((NsValPair *) v->pairs->pdata[k])->id, p->id))
      return v->pairs->pdata[k];
  return NULL;
}

/* Checks pair i of v->pairs: an id no earlier pair has, two recorded rows, and rows in one
 * unit, so that the one figure against the other compares like with like. */
static gboolean
check_pair (const NsValidation *v, guint i, GError **error)
{
  const NsValPair *p = v->pairs->pdata[i];
  const NsValPair *first = earlier_pair (v, i);
  const NsRecordedRow *row[2];

  if (first != NULL)
    goto duplicate;
  for (int k = 0; k < 2; k++)
    if ((row[k] = g_hash_table_lookup (v->row_index, p->row[k])) == NULL) {
      g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s: pair %s names row '%s', which is "
                   "not recorded", p->where, p->id, p->row[k]);
      return FALSE;
    }
  if (g_strcmp0 (row[0]->unit, row[1]->unit))
    goto units;
  return TRUE;

/* ERRORS */
duplicate:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s: pair id '%s' is used twice (first at %s)",
               p->where, p->id, first->where);
  return FALSE;
units:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s: pair %s compares row %s (%s) with row "
               "%s (%s): a pair compares two figures in one unit", p->where, p->id,
               row[0]->id, row[0]->unit, row[1]->id, row[1]->unit);
  return FALSE;
}

/* Checks every pair (see check_pair). */
static gboolean
check_pairs (const NsValidation *v, GError **error)
{
  for (guint i = 0; i < v->pairs->len; i++)
    if (!check_pair (v, i, error))
      return FALSE;
  return TRUE;
}

/* ------------------------------------------------------------------------------------ */
/* Cases. */

/* TRUE if x is a power of ten times (1024/1000)^k for a small integer k: a unit change. */
static gboolean
is_unit_scale (double x)
{
  if (!(x > 0) || !isfinite (x))
    return FALSE;
  for (int k = -4; k <= 4; k++) {
    double l = log10 (x / pow (1.024, k));
    if (fabs (l - round (l)) < 1e-9 && fabs (l) <= 12)
      return TRUE;
  }
  return FALSE;
}

/* Why a row's runs may not take a <set> of path from its case or its variants (static
 * text), or NULL if they may: a path into <param> (param.NAME, or param[i].ATTR) would
 * give the row a parameter value of its own, a path to the <cpu> profile another CPU. */
static const char *
forbidden_set (const char *path)
{
  gsize head = strcspn (path, ".[");
  const char *last = strrchr (path, '.');

  if (head == 5 && !strncmp (path, "param", 5))
    return "sets a model parameter for this row's runs alone: there is no parameter per "
           "validation case (a free parameter is fitted with netsim calibrate --fit on a "
           "named calibration row and recorded in calibration.xml; any other value is "
           "declared once, with its source, in the profile or the scenario)";
  if (head == 3 && !strncmp (path, "cpu", 3) && last && !strcmp (last + 1, "profile"))
    return "changes the CPU profile: each row runs on the profile of the CPU it was "
           "measured on (the scenario's <cpu>)";
  return NULL;
}

/* Why a case may not take a <set> of path (static text), or NULL if it may: what
 * forbidden_set refuses, and a path into <kernel> (version, command line, .config,
 * patches): the kernel a row runs is its variants', as every other row running them. */
static const char *
forbidden_case_set (const char *path)
{
  const char *why = forbidden_set (path);

  if (why == NULL && strcspn (path, ".[") == 6 && !strncmp (path, "kernel", 6))
    why = "changes the kernel (its version, command line, .config or patches) for this "
          "row's runs alone: a row runs the kernels of its baseline and patched variants "
          "(the scenario's <kernel> and the variants' own <set>s), as every row that runs "
          "them does";
  return why;
}

/* Reads the <set> children of a case as PATH=VALUE strings; NULL with a file:line error
 * (file) if one sets what forbidden_case_set refuses. */
static char **
read_case_sets (const char *file, const char *row, xmlNodePtr node, GError **error)
{
  GPtrArray *sets = g_ptr_array_new_with_free_func (g_free);

  for (xmlNodePtr n = node->children; n; n = n->next) {
    g_autofree char *path = NULL, *value = NULL;
    const char *why;
    if (!ns_xml_is_element (n, "set"))
      continue;
    path = ns_xml_prop (n, "path");
    value = ns_xml_prop (n, "value");
    if ((why = forbidden_case_set (path)) != NULL) {
      ns_xml_set_error_attr (error, file, n, "path", "case of row %s: <set path=\"%s\"> %s",
                             row, path, why);
      g_ptr_array_unref (sets);
      return NULL;
    }
    g_ptr_array_add (sets, g_strdup_printf ("%s=%s", path, value));
  }
  g_ptr_array_add (sets, NULL);
  g_ptr_array_set_free_func (sets, NULL);
  return (char **) g_ptr_array_free (sets, FALSE);
}

/* Reads one <case>. */
static gboolean
read_case (NsValidation *v, const char *path, xmlNodePtr node, GError **error)
{
  NsValCase *c = g_new0 (NsValCase, 1);
  g_autofree char *scale = NULL;
  const NsRecordedRow *row;
  NsValCase *old;

  g_ptr_array_add (v->cases, c);
  c->row = ns_xml_prop (node, "row");
  c->where = g_strdup_printf ("%s:%d", path, ns_xml_line (node));
  c->scenario = ns_xml_prop (node, "scenario");
  c->baseline = ns_xml_prop (node, "baseline");
  c->patched = ns_xml_prop (node, "patched");
  c->metric = ns_xml_prop (node, "metric");
  c->reason = ns_xml_prop (node, "reason");
  c->note = ns_xml_prop (node, "note");
  c->sets = read_case_sets (path, c->row, node, error);
  if (c->sets == NULL)
    return FALSE;
  scale = ns_xml_prop (node, "unit-scale");
  c->unit_scale = scale ? g_ascii_strtod (scale, NULL) : 1.0;
  if ((row = g_hash_table_lookup (v->row_index, c->row)) == NULL)
    goto unknown_row;
  if ((old = g_hash_table_lookup (v->case_index, c->row)) != NULL)
    goto duplicate;
  if (!is_unit_scale (c->unit_scale))
    goto bad_scale;
  if (c->scenario != NULL && row->setup.profile == NULL)
    goto no_profile;
  g_hash_table_insert (v->case_index, c->row, c);
  return TRUE;

/* ERRORS */
no_profile:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s: row %s: no <setup> of its file, table or "
               "row states 'profile', the netsim CPU profile of the CPU it was measured on, "
               "but its case (%s) runs scenario %s: without it the case's CPU cannot be "
               "checked (only a row not modelled may leave it out)", row->where, c->row,
               c->where, c->scenario);
  return FALSE;
unknown_row:
  ns_xml_set_error (error, path, node, "case for row '%s', which is not recorded in any "
                  "seed-*.xml", c->row);
  return FALSE;
duplicate:
  ns_xml_set_error (error, path, node, "row '%s' has a second case (the first is at %s)",
                  c->row, old->where);
  return FALSE;
bad_scale:
  ns_xml_set_error (error, path, node, "unit-scale '%s': expected a unit conversion (a power "
                  "of 10, times 1.024^k for |k| ≤ 4), not a fudge factor", scale);
  return FALSE;
}

/* Reads every <case> of v's cases.xml (required) into v; FALSE with a file:line error. */
static gboolean
load_cases (NsValidation *v, GError **error)
{
  g_autofree char *path = g_build_filename (v->dir, CASES_FILE, NULL);
  xmlDocPtr doc = load_document (path, CASES_SCHEMA, error);
  gboolean ok = TRUE;

  if (doc == NULL)
    return FALSE;
  for (xmlNodePtr n = xmlDocGetRootElement (doc)->children; ok && n; n = n->next)
    if (ns_xml_is_element (n, "case"))
      ok = read_case (v, path, n, error);
  xmlFreeDoc (doc);
  return ok;
}

/* ------------------------------------------------------------------------------------ */
/* The calibration record. */

/* The words of text separated by any run of the characters in separators,
 * NULL-terminated (no empty words); never NULL. */
static char **
split_words (const char *text, const char *separators)
{
  g_auto (GStrv) parts = g_strsplit_set (text ? text : "", separators, -1);
  GPtrArray *words = g_ptr_array_new ();

  for (guint i = 0; parts[i]; i++)
    if (parts[i][0] != '\0')
      g_ptr_array_add (words, g_strdup (parts[i]));
  g_ptr_array_add (words, NULL);
  return (char **) g_ptr_array_free (words, FALSE);
}

/* FALSE with a file:line error unless fit's value is one its parameter takes and its
 * residual a number from 0 to NS_FIT_MAX_RESIDUAL, as netsim calibrate writes them (a
 * larger residual would loosen the check that the fit still holds; one that is no
 * number would switch it off). */
static gboolean
check_fit_numbers (const NsValFit *f, const char *path, xmlNodePtr node, GError **error)
{
  NsParams *params = ns_params_new ();
  GError *local = NULL;
  gboolean value_ok = ns_params_set (params, f->param, f->value, CALIBRATION_FILE, &local);
  double residual;

  ns_params_free (params);
  if (!value_ok)
    goto bad_value;
  if (!ns_parse_decimal (f->residual, &residual) || residual < 0.0 ||
      residual > NS_FIT_MAX_RESIDUAL)
    goto bad_residual;
  return TRUE;

/* ERRORS */
bad_value:
  ns_xml_set_error_attr (error, path, node, "value", "fit of %s %s: value '%s': %s",
                         f->profile, f->param, f->value, local->message);
  g_error_free (local);
  return FALSE;
bad_residual:
  ns_xml_set_error_attr (error, path, node, "residual", "fit of %s %s: residual '%s': "
                         "expected a number from 0 to %g, as netsim calibrate writes (it "
                         "refuses a fit with a larger one; the residual bounds how far a "
                         "validation may drift before the fit no longer holds)", f->profile,
                         f->param, f->residual, NS_FIT_MAX_RESIDUAL);
  return FALSE;
}

/* TRUE if name is the name of a shipped CPU profile (scenarios/cpus/NAME.xml): no path. */
static gboolean
is_profile_name (const char *name)
{
  g_autoptr (GPtrArray) names = ns_cpu_profile_list ();

  if (strchr (name, '/') != NULL || g_str_has_suffix (name, ".xml"))
    return FALSE;
  for (guint i = 0; i < names->len; i++)
    if (!strcmp (names->pdata[i], name))
      return TRUE;
  return FALSE;
}

/* FALSE, with a file:line error, if fit f (read from node) names no shipped CPU profile: a
 * typo or a path is bad input, not a fit that is no longer backed. */
static gboolean
check_fit_profile (const NsValFit *f, const char *path, xmlNodePtr node, GError **error)
{
  g_autoptr (GPtrArray) names = NULL;
  g_autofree char *list = NULL;

  if (is_profile_name (f->profile))
    return TRUE;
  names = ns_cpu_profile_list ();
  g_ptr_array_add (names, NULL);
  list = g_strjoinv (", ", (char **) names->pdata);
  ns_xml_set_error_attr (error, path, node, "profile", "fit of %s %s: profile '%s' is not a "
                         "CPU profile netsim has (available: %s): a fit names a profile of "
                         "scenarios/cpus/ by its name, not a path", f->profile, f->param,
                         f->profile, names->len > 1 ? list : "none");
  return FALSE;
}

/* Appends one <fit> of calibration.xml at path to v->fits; FALSE with a file:line error if
 * it names a profile netsim has not or a row that is not recorded, or its value or
 * residual is not one netsim calibrate writes. */
static gboolean
read_fit (NsValidation *v, const char *path, xmlNodePtr node, GError **error)
{
  NsValFit *f = g_new0 (NsValFit, 1);
  g_autofree char *rows = ns_xml_prop (node, "rows");

  g_ptr_array_add (v->fits, f);
  f->profile = ns_xml_prop (node, "profile");
  f->param = ns_xml_prop (node, "param");
  f->value = ns_xml_prop (node, "value");
  f->residual = ns_xml_prop (node, "residual");
  f->target = ns_xml_prop (node, "target");
  f->rows = split_words (rows, " \t\r\n");
  if (!check_fit_profile (f, path, node, error))
    return FALSE;
  for (guint i = 0; f->rows[i]; i++) {
    if (!g_hash_table_contains (v->row_index, f->rows[i])) {
      ns_xml_set_error (error, path, node, "fit of %s %s names row '%s', which is not recorded",
                      f->profile, f->param, f->rows[i]);
      return FALSE;
    }
  }
  return check_fit_numbers (f, path, node, error);
}

/* FALSE, with a file:line error, if the fit just read (the last of v->fits, from node)
 * repeats an earlier fit's profile and parameter: one fit per profile and parameter. */
static gboolean
single_fit (NsValidation *v, const char *path, xmlNodePtr node, GError **error)
{
  const NsValFit *last = v->fits->pdata[v->fits->len - 1];

  for (guint i = 0; i + 1 < v->fits->len; i++) {
    const NsValFit *f = v->fits->pdata[i];
    if (!g_strcmp0 (f->profile, last->profile) && !g_strcmp0 (f->param, last->param)) {
      ns_xml_set_error (error, path, node, "a second fit of %s %s (the first has value %s, "
                        "rows %s …): one fit per profile and parameter", last->profile,
                        last->param, f->value, f->rows[0] ? f->rows[0] : "");
      return FALSE;
    }
  }
  return TRUE;
}

/* Loads calibration.xml if it exists (no file: no fits). */
static gboolean
load_calibration (NsValidation *v, GError **error)
{
  g_autofree char *path = g_build_filename (v->dir, CALIBRATION_FILE, NULL);
  xmlDocPtr doc;
  gboolean ok = TRUE;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return TRUE;
  doc = load_document (path, CALIBRATION_SCHEMA, error);
  if (doc == NULL)
    return FALSE;
  for (xmlNodePtr n = xmlDocGetRootElement (doc)->children; ok && n; n = n->next)
    if (ns_xml_is_element (n, "fit"))
      ok = read_fit (v, path, n, error) && single_fit (v, path, n, error);
  xmlFreeDoc (doc);
  return ok;
}

/* The value of param in use on the rows of a fit run through case c, with its source: the
 * scenario file's own (or the one it takes from=), else profile's; FALSE if neither sets
 * it or the scenario does not load. */
static gboolean
value_for_case (const NsValCase *c, const NsCpuProfile *profile, const char *param,
                char **value, char **source)
{
  g_autofree char *path = NULL;
  NsScenario *sc;

  *value = *source = NULL;
  if (c != NULL && c->scenario != NULL) {
    path = ns_validation_scenario_path (c);
    sc = ns_scenario_load (path, NULL, NULL);
    if (sc == NULL)
      return FALSE;
    for (guint i = 0; i < sc->param_names->len && *value == NULL; i++)
      if (!strcmp (sc->param_names->pdata[i], param)) {
        *value = g_strdup (sc->param_values->pdata[i]);
        *source = g_strdup (sc->param_sources->pdata[i]);
      }
    ns_scenario_free (sc);
    if (*value != NULL)
      return TRUE;
  }
  *value = g_strdup (ns_params_get_text (profile->params, param));
  *source = g_strdup (ns_params_get_source (profile->params, param));
  return *value != NULL;
}

/* Why no value in use is the fit f (see NsValFit.unbacked), as a new string; NULL if some
 * row of f runs with a value whose source says "fit on": f's value, or another (then that
 * value is stale, a conflict of its own: provenance_conflicts, and f is still judged). */
static char *
fit_unbacked (const NsValidation *v, const NsValFit *f)
{
  g_autoptr (GError) err = NULL;
  NsCpuProfile *profile = ns_cpu_profile_load (f->profile, &err);
  gboolean backed = FALSE;

  if (profile == NULL)
    return g_strdup_printf ("profile '%s' does not load (%s)", f->profile, err->message);
  for (guint i = 0; f->rows[i]; i++) {
    const NsRecordedRow *row = g_hash_table_lookup (v->row_index, f->rows[i]);
    g_autofree char *value = NULL, *source = NULL;
    if (g_strcmp0 (row->setup.profile, f->profile)) {
      char *why = g_strdup_printf ("row %s was measured on profile '%s'", row->id,
                                   row->setup.profile ? row->setup.profile : "(none)");
      ns_cpu_profile_free (profile);
      return why;
    }
    if (value_for_case (ns_validation_case (v, row->id), profile, f->param, &value, &source) &&
        g_str_has_prefix (source ? source : "", FIT_PREFIX))
      backed = TRUE;
  }
  ns_cpu_profile_free (profile);
  if (backed)
    return NULL;
  return g_strdup_printf ("neither the scenario of its rows nor profile %s sets %s with a "
                          "source \"fit on …\"", f->profile, f->param);
}

/* Sets NsValFit.unbacked of every fit of v (after the cases are loaded). */
static void
back_fits (NsValidation *v)
{
  for (guint i = 0; i < v->fits->len; i++) {
    NsValFit *f = v->fits->pdata[i];
    f->unbacked = fit_unbacked (v, f);
  }
}

/* ------------------------------------------------------------------------------------ */
/* Loading and access. */

/* Fills v->files: recorded (the seed-*.xml paths), cases.xml, calibration.xml if it
 * exists; NULL-terminated. */
static void
list_files (NsValidation *v, GPtrArray *recorded)
{
  g_autofree char *calibration = g_build_filename (v->dir, CALIBRATION_FILE, NULL);

  for (guint i = 0; i < recorded->len; i++)
    g_ptr_array_add (v->files, g_strdup (recorded->pdata[i]));
  g_ptr_array_add (v->files, g_build_filename (v->dir, CASES_FILE, NULL));
  if (g_file_test (calibration, G_FILE_TEST_EXISTS))
    g_ptr_array_add (v->files, g_steal_pointer (&calibration));
  g_ptr_array_add (v->files, NULL);
}

/* Loads the recorded rows, cases and calibration record of dir; see validate.h. */
NsValidation *
ns_validation_load (const char *dir, GError **error)
{
  NsValidation *v;
  g_autoptr (GPtrArray) files = NULL;

  g_return_val_if_fail (dir != NULL, NULL);
  files = recorded_files (dir, error);
  if (files == NULL)
    return NULL;
  if (files->len == 0)
    goto no_files;
  v = validation_new (dir);
  for (guint i = 0; i < files->len; i++)
    if (!load_recorded_file (v, files->pdata[i], error))
      goto fail;
  if (!check_pairs (v, error) || !load_cases (v, error) || !load_calibration (v, error))
    goto fail;
  back_fits (v);
  list_files (v, files);
  return v;

/* ERRORS */
no_files:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s: no recorded results (seed-*.xml)", dir);
  return NULL;
fail:
  ns_validation_free (v);
  return NULL;
}

/* The files v was loaded from, NULL-terminated (owned by v). */
const char *const *
ns_validation_files (const NsValidation *v)
{
  g_return_val_if_fail (v != NULL, NULL);
  return (const char *const *) v->files->pdata;
}

/* The directory v was loaded from (owned by v). */
const char *
ns_validation_dir (const NsValidation *v)
{
  return v->dir;
}

/* Every recorded row (NsRecordedRow*) in file order; the array and rows are owned by v. */
GPtrArray *
ns_validation_rows (const NsValidation *v)
{
  return v->rows;
}

/* The recorded row with this id (owned by v), or NULL if there is none. */
const NsRecordedRow *
ns_validation_find_row (const NsValidation *v, const char *id)
{
  return g_hash_table_lookup (v->row_index, id);
}

/* The case of the row row_id (owned by v), or NULL if cases.xml has none. */
const NsValCase *
ns_validation_case (const NsValidation *v, const char *row_id)
{
  return g_hash_table_lookup (v->case_index, row_id);
}

/* The fits of calibration.xml (NsValFit*; empty without the file), owned by v. */
GPtrArray *
ns_validation_fits (const NsValidation *v)
{
  return v->fits;
}

/* The <fact>s of every recorded file (NsValFact*) in file order, owned by v. */
GPtrArray *
ns_validation_facts (const NsValidation *v)
{
  return v->facts;
}

/* The <pair>s of every recorded file (NsValPair*) in file order, owned by v. */
GPtrArray *
ns_validation_pairs (const NsValidation *v)
{
  return v->pairs;
}

/* The <note>s of every recorded file (NsValNote*) in file order, owned by v. */
GPtrArray *
ns_validation_notes (const NsValidation *v)
{
  return v->notes;
}

/* TRUE if a fit of calibration.xml names the row. */
gboolean
ns_validation_is_calibration (const NsValidation *v, const char *row_id)
{
  for (guint i = 0; i < v->fits->len; i++) {
    const NsValFit *f = v->fits->pdata[i];
    if (f->unbacked == NULL && g_strv_contains ((const char *const *) f->rows, row_id))
      return TRUE;
  }
  return FALSE;
}

/* TRUE if the pattern selects the row id (see ns_validation_select). */
static gboolean
pattern_matches (const char *pattern, const char *id)
{
  gsize n = strlen (pattern);

  if (strpbrk (pattern, "*?["))
    return fnmatch (pattern, id, 0) == 0;       /* the shell's globs, [..] classes too */
  return !strcmp (pattern, id) || (!strncmp (pattern, id, n) && id[n] == '-');
}

/* Rows matching any of patterns; see validate.h. */
GPtrArray *
ns_validation_select (const NsValidation *v, const char *const *patterns, GError **error)
{
  GPtrArray *rows = g_ptr_array_new ();
  guint p;

  for (guint i = 0; i < v->rows->len; i++) {
    const NsRecordedRow *row = v->rows->pdata[i];
    gboolean take = patterns == NULL || patterns[0] == NULL;
    for (guint k = 0; !take && patterns[k]; k++)
      take = pattern_matches (patterns[k], row->id);
    if (take)
      g_ptr_array_add (rows, (gpointer) row);
  }
  for (p = 0; patterns && patterns[p]; p++) {
    gboolean any = FALSE;
    for (guint i = 0; !any && i < v->rows->len; i++)
      any = pattern_matches (patterns[p], ((NsRecordedRow *) v->rows->pdata[i])->id);
    if (!any)
      goto no_match;
  }
  return rows;

  /* ERRORS */
no_match:
  {
    g_autoptr (GString) ids = g_string_new (NULL);

    for (guint i = 0; i < v->rows->len; i++)
      g_string_append_printf (ids, "%s%s", i ? " " : "",
                              ((NsRecordedRow *) v->rows->pdata[i])->id);
    g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "no recorded row matches '%s' (a glob "
                 "such as '002-*-f100' or a prefix such as 000; the rows: %s)",
                 patterns[p], ids->str);
  }
  g_ptr_array_unref (rows);
  return NULL;
}

/* Absolute path of the case's scenario: as written if absolute, else in the data dir. */
char *
ns_validation_scenario_path (const NsValCase *c)
{
  g_return_val_if_fail (c != NULL && c->scenario != NULL, NULL);
  if (g_path_is_absolute (c->scenario))
    return g_strdup (c->scenario);
  return g_build_filename (ns_data_dir (), c->scenario, NULL);
}

/* measure.metric=M (if the case names a metric), then the case's own sets. */
char **
ns_validation_case_sets (const NsValCase *c)
{
  GPtrArray *sets = g_ptr_array_new ();

  if (c->metric)
    g_ptr_array_add (sets, g_strdup_printf ("measure.metric=%s", c->metric));
  for (guint i = 0; c->sets && c->sets[i]; i++)
    g_ptr_array_add (sets, g_strdup (c->sets[i]));
  g_ptr_array_add (sets, NULL);
  return (char **) g_ptr_array_free (sets, FALSE);
}

/* Appends the strings of a NULL-terminated list (NULL is fine) to sets. */
static void
append_sets (GPtrArray *sets, const char *const *more)
{
  for (guint i = 0; more && more[i]; i++)
    g_ptr_array_add (sets, g_strdup (more[i]));
}

/* TRUE if one of sets (PATH=VALUE strings; NULL is fine) sets the attribute set does,
 * however spelt (ns_scenario_set_key). */
static gboolean
sets_attribute_of (const char *const *sets, const char *set)
{
  g_autofree char *key = ns_scenario_set_key (set);

  for (guint i = 0; sets && sets[i]; i++) {
    g_autofree char *other = ns_scenario_set_key (sets[i]);
    if (g_str_equal (key, other))
      return TRUE;
  }
  return FALSE;
}

/* The sets a row's runs use under opt; see validate.h. */
char **
ns_validation_run_sets (const NsValidation *v, const NsRecordedRow *row, const NsValOptions *opt)
{
  const NsValCase *c;
  g_auto (GStrv) case_sets = NULL;
  const char *const *mine = NULL;
  GPtrArray *sets;

  g_return_val_if_fail (v != NULL && row != NULL && opt != NULL, NULL);
  c = ns_validation_case (v, row->id);
  if (c == NULL || c->scenario == NULL)
    return g_new0 (char *, 1);
  case_sets = ns_validation_case_sets (c);
  if (opt->profile_sets && row->setup.profile)
    mine = g_hash_table_lookup (opt->profile_sets, row->setup.profile);
  sets = g_ptr_array_new ();
  for (guint i = 0; case_sets[i]; i++)
    if (!sets_attribute_of (opt->sets, case_sets[i]) && !sets_attribute_of (mine, case_sets[i]))
      g_ptr_array_add (sets, g_strdup (case_sets[i]));     /* else a later set replaces it */
  append_sets (sets, opt->sets);
  append_sets (sets, mine);
  g_ptr_array_add (sets, NULL);
  return (char **) g_ptr_array_free (sets, FALSE);
}

/* TRUE if both variants of case c set up with sets, their workload included (error: the
 * first failure's). */
static gboolean
case_sets_up (const NsValCase *c, const char *path, char **sets, GError **error)
{
  NsRunOptions opt = { .sets = (const char *const *) sets };

  return ns_run_check_workload (path, c->baseline, &opt, error) &&
         ns_run_check_workload (path, c->patched, &opt, error);
}

/* The number of rows with a case naming a scenario; see validate.h. */
guint
ns_validation_count_modelled (const NsValidation *v, GPtrArray *rows)
{
  guint n = 0;

  g_return_val_if_fail (v != NULL && rows != NULL, 0);
  for (guint i = 0; i < rows->len; i++) {
    const NsValCase *c = ns_validation_case (v, ((NsRecordedRow *) rows->pdata[i])->id);
    n += c != NULL && c->scenario != NULL;
  }
  return n;
}

/* Why case c's scenario cannot run when its file does not exist: "cases.xml:LINE: …". */
static char *
missing_scenario (const NsValCase *c)
{
  return g_strdup_printf ("%s: scenario %s does not exist (a row not modelled yet takes "
                          "reason=)", c->where, c->scenario);
}

/* TRUE unless case c names a scenario file that does not exist; see validate.h. */
gboolean
ns_validation_case_scenario_exists (const NsValCase *c, GError **error)
{
  g_autofree char *path = NULL, *why = NULL;

  g_return_val_if_fail (c != NULL, FALSE);
  if (c->scenario == NULL)
    return TRUE;
  path = ns_validation_scenario_path (c);
  if (g_file_test (path, G_FILE_TEST_EXISTS))
    return TRUE;
  why = missing_scenario (c);
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s", why);
  return FALSE;
}

/* FALSE with the first case, in file order, that names a scenario file that does not
 * exist; see validate.h. */
gboolean
ns_validation_check_scenario_files (const NsValidation *v, GError **error)
{
  g_return_val_if_fail (v != NULL, FALSE);
  for (guint i = 0; i < v->cases->len; i++)
    if (!ns_validation_case_scenario_exists (v->cases->pdata[i], error))
      return FALSE;
  return TRUE;
}

/* FALSE with an error naming case c if one of sets changes the metric its runs measure:
 * the recorded row's delta is in that metric, and a delta in another cannot be judged
 * against it. */
static gboolean
check_metric_kept (const NsValCase *c, const char *const *sets, GError **error)
{
  for (guint i = 0; sets && sets[i]; i++) {
    if (!sets_attribute_of ((const char *const[]) { "measure.metric", NULL }, sets[i]))
      continue;
    if (c->metric)
      g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "--set %s: %s: row %s is judged on "
                   "metric %s (the case's metric=), the one its recorded delta was measured "
                   "in: a delta in another metric cannot be compared with it", sets[i],
                   c->where, c->row, c->metric);
    else
      g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "--set %s: %s: row %s is judged on the "
                   "metric %s measures, the one its recorded delta was measured in: a delta "
                   "in another metric cannot be compared with it", sets[i], c->where, c->row,
                   c->scenario);
    return FALSE;
  }
  return TRUE;
}

/* Sets up both variants of every modelled row with its run sets; see validate.h. A case
 * that fails without the what-if too is left to be reported per row. */
gboolean
ns_validation_check_sets (const NsValidation *v, GPtrArray *rows, const NsValOptions *opt,
                          GError **error)
{
  g_return_val_if_fail (v != NULL && rows != NULL && opt != NULL, FALSE);
  for (guint i = 0; i < rows->len; i++) {
    const NsRecordedRow *row = rows->pdata[i];
    const NsValCase *c = ns_validation_case (v, row->id);
    g_autofree char *path = NULL;
    g_auto (GStrv) sets = NULL, plain = NULL;
    GError *local = NULL;

    if (c == NULL || c->scenario == NULL)
      continue;
    if (!check_metric_kept (c, opt->sets, error))
      return FALSE;
    path = ns_validation_scenario_path (c);
    sets = ns_validation_run_sets (v, row, opt);
    if (case_sets_up (c, path, sets, &local))
      continue;
    plain = ns_validation_case_sets (c);
    if (!case_sets_up (c, path, plain, NULL)) {
      g_error_free (local);     /* fails anyway: reported per row */
      continue;
    }
    g_propagate_error (error, local);
    return FALSE;
  }
  return TRUE;
}

/* ------------------------------------------------------------------------------------ */
/* Judging. */

/* The row's tolerance in percentage points. */
double
ns_validation_tolerance (const NsRecordedRow *row)
{
  double rule = MAX (NS_VAL_TOLERANCE_MIN_PP, NS_VAL_TOLERANCE_FRACTION * fabs (row->delta_pct));

  if (row->stated_tolerance_pp >= 0 && row->stated_tolerance_pp < rule)
    return row->stated_tolerance_pp;
  return rule;
}

/* NS_VAL_PASS if |error_pp| <= tolerance_pp and the deltas' signs agree (the issues'
 * acceptance: "within … with the right sign"), else NS_VAL_FAIL (a NaN error fails). */
NsValStatus
ns_validation_judge (double error_pp, double tolerance_pp, gboolean signs_agree)
{
  return fabs (error_pp) <= tolerance_pp && signs_agree ? NS_VAL_PASS : NS_VAL_FAIL;
}

/* TRUE if a delta in percent is "no change": inside the sign dead band (not NaN). */
static gboolean
no_change (double pct)
{
  return fabs (pct) < NS_VAL_SIGN_DEADBAND_PP;
}

/* The strict sign of a delta in percent: 1, -1, or 0 (zero, NaN). */
static int
sign_of (double pct)
{
  return pct > 0 ? 1 : pct < 0 ? -1 : 0;
}

/* TRUE if both deltas have the same strict sign, or both are inside the dead band. */
gboolean
ns_validation_signs_agree (double recorded_pct, double simulated_pct)
{
  if (isnan (simulated_pct) || isnan (recorded_pct))
    return FALSE;
  if (no_change (recorded_pct))         /* a recorded "no change" has no sign to match */
    return no_change (simulated_pct);
  return sign_of (recorded_pct) == sign_of (simulated_pct);
}

/* The passing simulated deltas against recorded_pct: [recorded ± tolerance] within those
 * that agree in sign (ns_validation_signs_agree) — above 0 for a recorded rise beyond the
 * dead band, above its lower edge for one inside it; mirrored for a fall; inside it for
 * exactly 0. See validate.h. */
double
ns_validation_verdict_margin (double recorded_pct, double simulated_pct, double tolerance_pp)
{
  double lo = recorded_pct - tolerance_pp, hi = recorded_pct + tolerance_pp;

  if (no_change (recorded_pct)) {
    lo = MAX (lo, -NS_VAL_SIGN_DEADBAND_PP);
    hi = MIN (hi, NS_VAL_SIGN_DEADBAND_PP);
  } else if (recorded_pct > 0) {
    lo = MAX (lo, 0);
  } else {
    hi = MIN (hi, 0);
  }
  if (isnan (simulated_pct))
    return -INFINITY;
  if (simulated_pct < lo)
    return simulated_pct - lo;
  if (simulated_pct > hi)
    return hi - simulated_pct;
  return MIN (simulated_pct - lo, hi - simulated_pct);
}

/* Static name of status ("pass", "fail", "not-modelled", "error"); "?" if out of range. */
const char *
ns_val_status_name (NsValStatus status)
{
  static const char *const names[] = { "pass", "fail", "not-modelled", "error" };

  g_return_val_if_fail ((guint) status < G_N_ELEMENTS (names), "?");
  return names[status];
}

/* ------------------------------------------------------------------------------------ */
/* Variant runs: a digest of what ns_run_scenario produced for one variant. */

/* Frees a NsValParam and its strings (the free function of NsValRun.free_params). */
static void
val_param_free (gpointer p)
{
  NsValParam *param = p;

  g_free (param->name);
  g_free (param->value);
  g_free (param->source);
  g_free (param);
}

/* Appends a new NsValParam holding copies of name, value and source to params. */
static void
add_param (GPtrArray *params, const char *name, const char *value, const char *source)
{
  NsValParam *p = g_new0 (NsValParam, 1);

  p->name = g_strdup (name);
  p->value = g_strdup (value);
  p->source = g_strdup (source);
  g_ptr_array_add (params, p);
}

/* Frees run (NULL is fine). */
void
ns_val_run_free (NsValRun *run)
{
  if (run == NULL)
    return;
  g_free (run->metric);
  g_free (run->cpu);
  g_free (run->cpu_model);
  g_free (run->kernel);
  g_free (run->cmdline);
  g_free (run->mitigations);
  g_ptr_array_unref (run->free_params);
  g_ptr_array_unref (run->unsourced);
  g_ptr_array_unref (run->unstated);
  g_free (run);
}

/* A new zeroed NsValRun with an empty free_params array; free with ns_val_run_free. */
static NsValRun *
val_run_new (void)
{
  NsValRun *run = g_new0 (NsValRun, 1);

  run->free_params = g_ptr_array_new_with_free_func (val_param_free);
  run->unsourced = g_ptr_array_new_with_free_func (val_param_free);
  run->unstated = g_ptr_array_new_with_free_func (g_free);
  return run;
}

/* Appends a copy of each NsValParam of src to dst. */
static void
copy_params (GPtrArray *dst, const GPtrArray *src)
{
  for (guint i = 0; i < src->len; i++) {
    const NsValParam *p = src->pdata[i];
    add_param (dst, p->name, p->value, p->source);
  }
}

/* A deep copy of src, free parameters included; free with ns_val_run_free. */
static NsValRun *
val_run_copy (const NsValRun *src)
{
  NsValRun *run = val_run_new ();

  run->value = src->value;
  run->cv = src->cv;
  run->reps = src->reps;
  run->ops = src->ops;
  run->metric = g_strdup (src->metric);
  run->cpu = g_strdup (src->cpu);
  run->cpu_model = g_strdup (src->cpu_model);
  run->kernel = g_strdup (src->kernel);
  run->cmdline = g_strdup (src->cmdline);
  run->mitigations = g_strdup (src->mitigations);
  copy_params (run->free_params, src->free_params);
  copy_params (run->unsourced, src->unsourced);
  for (guint i = 0; i < src->unstated->len; i++)
    g_ptr_array_add (run->unstated, g_strdup (src->unstated->pdata[i]));
  return run;
}

/* ns_params_foreach callback: appends a free parameter's value and source to data, a
 * GPtrArray of NsValParam*; other parameters are skipped. */
static void
collect_free_param (const NsParamDef *def, const char *value, const char *source,
                    gpointer data)
{
  if (def->free)
    add_param (data, def->name, value, source);
}

/* ns_params_foreach callback: appends the parameter to the NsValParam array data if its
 * source starts "unsourced" (profiles write UNSOURCED, registry defaults unsourced). */
static void
collect_unsourced (const NsParamDef *def, const char *value, const char *source,
                   gpointer data)
{
  if (source && g_ascii_strncasecmp (source, "UNSOURCED", 9) == 0)
    add_param (data, def->name, value, source);
}

/* Appends to unstated each option of in_force (ns_build_config_in_force's lines) the run
 * took without the build stating it, as "CONFIG_X=y" ("CONFIG_X" for one read as a
 * string). */
static void
collect_unstated (char **in_force, GPtrArray *unstated)
{
  for (char **l = in_force; l != NULL && *l != NULL; l++) {
    gboolean stated;
    g_autofree char *value = NULL;
    g_autofree char *key = ns_build_config_line_split (*l, &value, &stated);

    if (!stated)
      g_ptr_array_add (unstated, value ? g_strconcat (key, "=", value, NULL)
                                       : g_steal_pointer (&key));
  }
}

/* A new NsValRun digesting one variant's result (figures, machine, free parameters); the
 * caller frees it with ns_val_run_free. */
static NsValRun *
run_digest (const NsVariantResult *vr)
{
  NsValRun *run = val_run_new ();

  run->value = vr->value;
  run->cv = vr->cv;
  run->reps = vr->n_reps;
  run->ops = vr->ops;
  run->metric = g_strdup (vr->metric);
  run->cpu = g_strdup (vr->cpu_name);
  run->cpu_model = g_strdup (vr->cpu_model);
  run->kernel = g_strdup (vr->kernel);
  run->cmdline = g_strdup (vr->cmdline);
  run->mitigations = ns_mitigations_summary (vr->mitigations);
  ns_params_foreach (vr->params, collect_free_param, run->free_params);
  ns_params_foreach (vr->params, collect_unsourced, run->unsourced);
  collect_unstated (vr->config_in_force, run->unstated);
  return run;
}

/* A new job running variant of scenario with a copy of sets (NULL: none); no result yet.
 * Free with ns_val_job_free. */
NsValJob *
ns_val_job_new (const char *scenario, const char *variant, const char *const *sets)
{
  NsValJob *job = g_new0 (NsValJob, 1);

  job->scenario = g_strdup (scenario);
  job->variant = g_strdup (variant);
  job->sets = g_strdupv ((char **) sets);
  if (job->sets == NULL)
    job->sets = g_new0 (char *, 1);
  return job;
}

/* Frees job with its sets, result and error (NULL is fine). */
void
ns_val_job_free (NsValJob *job)
{
  if (job == NULL)
    return;
  g_free (job->scenario);
  g_free (job->variant);
  g_strfreev (job->sets);
  ns_val_run_free (job->run);
  g_clear_error (&job->error);
  g_free (job);
}

/* Runs the job's variant exactly as `netsim run SCENARIO --variant V --set …` does. */
static void
job_run_here (NsValJob *job)
{
  NsRunOptions opt = { 0 };
  NsRunResult *result;

  opt.sets = (const char *const *) job->sets;
  opt.only_variant = job->variant;
  result = ns_run_scenario (job->scenario, &opt, &job->error);
  if (result == NULL)
    return;
  job->run = run_digest (result->variants->pdata[0]);
  ns_run_result_free (result);
}

/* ---- the child-process protocol: "key\tvalue" lines, strings escaped, doubles as bits */

/* Appends "key\tvalue\n" with value C-escaped; appends nothing if value is NULL. */
static void
put_string (GString *out, const char *key, const char *value)
{
  g_autofree char *escaped = NULL;

  if (value == NULL)
    return;
  escaped = g_strescape (value, NULL);
  g_string_append_printf (out, "%s\t%s\n", key, escaped);
}

/* Appends "key\tbits\n", bits being value's 64-bit pattern in hex, so it round-trips exactly. */
static void
put_double (GString *out, const char *key, double value)
{
  guint64 bits;

  memcpy (&bits, &value, sizeof bits);
  g_string_append_printf (out, "%s\t%016" G_GINT64_MODIFIER "x\n", key, bits);
}

/* Writes each NsValParam of params as a "key\tNAME\tVALUE\tSOURCE" line (escaped). */
static void
put_params (GString *out, const char *key, GPtrArray *params)
{
  for (guint i = 0; i < params->len; i++) {
    const NsValParam *p = params->pdata[i];
    g_autofree char *n = g_strescape (p->name, NULL), *v = g_strescape (p->value, NULL),
      *s = g_strescape (p->source, NULL);
    g_string_append_printf (out, "%s\t%s\t%s\t%s\n", key, n, v, s);
  }
}

/* Serialises a finished job (result or error) for the parent. */
static void
job_serialize (GString *out, const NsValJob *job)
{
  const NsValRun *run = job->run;

  if (run == NULL) {
    g_string_append_printf (out, "error\t%d\n", job->error ? job->error->code : NS_ERROR_INTERNAL);
    put_string (out, "message", job->error ? job->error->message : "run failed");
    return;
  }
  put_double (out, "value", run->value);
  put_double (out, "cv", run->cv);
  g_string_append_printf (out, "reps\t%u\n", run->reps);
  g_string_append_printf (out, "ops\t%" G_GUINT64_FORMAT "\n", run->ops);
  put_string (out, "metric", run->metric);
  put_string (out, "cpu", run->cpu);
  put_string (out, "cpu_model", run->cpu_model);
  put_string (out, "kernel", run->kernel);
  put_string (out, "cmdline", run->cmdline);
  put_string (out, "mitigations", run->mitigations);
  put_params (out, "param", run->free_params);
  put_params (out, "unsourced", run->unsourced);
  for (guint i = 0; i < run->unstated->len; i++)
    put_string (out, "unstated", run->unstated->pdata[i]);
}

/* The double whose bit pattern is the hex text (the inverse of put_double). */
static double
get_double (const char *hex)
{
  guint64 bits = g_ascii_strtoull (hex, NULL, 16);
  double value;

  memcpy (&value, &bits, sizeof value);
  return value;
}

/* Reads one "key\tvalue…" line of the protocol into run or the error fields. */
static void
parse_line (NsValRun *run, char **f, gint *code, char **message)
{
  static const char *const keys[] = { "metric", "cpu", "cpu_model", "kernel", "cmdline",
                                      "mitigations" };
  char **fields[] = { &run->metric, &run->cpu, &run->cpu_model, &run->kernel, &run->cmdline,
                      &run->mitigations };

  if (!strcmp (f[0], "value"))
    run->value = get_double (f[1]);
  else if (!strcmp (f[0], "cv"))
    run->cv = get_double (f[1]);
  else if (!strcmp (f[0], "reps"))
    run->reps = (guint) g_ascii_strtoull (f[1], NULL, 10);
  else if (!strcmp (f[0], "ops"))
    run->ops = g_ascii_strtoull (f[1], NULL, 10);
  else if (!strcmp (f[0], "error"))
    *code = (gint) g_ascii_strtoll (f[1], NULL, 10);
  else if (!strcmp (f[0], "message"))
    *message = g_strcompress (f[1]);
  else if ((!strcmp (f[0], "param") || !strcmp (f[0], "unsourced")) && g_strv_length (f) == 4) {
    g_autofree char *n = g_strcompress (f[1]), *v = g_strcompress (f[2]), *s = g_strcompress (f[3]);
    add_param (!strcmp (f[0], "param") ? run->free_params : run->unsourced, n, v, s);
  } else if (!strcmp (f[0], "unstated"))
    g_ptr_array_add (run->unstated, g_strcompress (f[1]));
  else
    for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
      if (!strcmp (f[0], keys[k]))
        *fields[k] = g_strcompress (f[1]);
}

/* Fills job from what its child wrote. */
static void
job_deserialize (NsValJob *job, const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  NsValRun *run = val_run_new ();
  g_autofree char *message = NULL;
  gint code = -1;

  for (guint i = 0; lines[i]; i++) {
    g_auto (GStrv) f = g_strsplit (lines[i], "\t", -1);
    if (f[0] && f[1])
      parse_line (run, f, &code, &message);
  }
  if (code < 0 && run->metric != NULL && run->cpu != NULL) {
    job->run = run;
    return;
  }
  ns_val_run_free (run);
  g_set_error (&job->error, NS_ERROR, code >= 0 ? code : NS_ERROR_INTERNAL, "%s",
               message ? message : "the run's child process wrote no complete result");
}

/* ---- child processes */

typedef struct {
  NsChild   child;
  NsValJob *job;
} NsValChild;

/* In the child: runs the job and returns its serialised result. */
static char *
job_run_in_child (gpointer data)
{
  NsValJob *job = data;
  GString *out = g_string_new (NULL);

  job_run_here (job);
  job_serialize (out, job);
  return g_string_free (out, FALSE);
}

/* Forks a child that runs job and writes the result to a pipe. FALSE: fork failed. */
static gboolean
child_start (NsValChild *child, NsValJob *job)
{
  child->job = job;
  return ns_child_start (&child->child, job_run_in_child, job);
}

/* Reaps a child whose pipe reached end of file and fills its job. */
static void
child_finish (NsValChild *child)
{
  int status;
  g_autofree char *text = ns_child_reap (&child->child, &status);

  if (WIFSIGNALED (status))
    g_set_error (&child->job->error, NS_ERROR, NS_ERROR_INTERNAL, "%s: the run of variant "
                 "'%s' died with signal %d", child->job->scenario, child->job->variant,
                 WTERMSIG (status));
  else
    job_deserialize (child->job, text);
}

/* Reads what is available from a child; TRUE once its pipe is at end of file. */
static gboolean
child_read (NsValChild *child)
{
  return ns_child_read (&child->child) <= 0;
}

/* Waits for output from the children and reads it; finishes and removes those whose
 * output is complete. Returns how many finished (0 if the output read was partial). */
static guint
children_wait (GArray *children)
{
  struct pollfd *fds = g_new0 (struct pollfd, children->len);
  guint finished = 0;

  for (guint i = 0; i < children->len; i++) {
    fds[i].fd = g_array_index (children, NsValChild, i).child.fd;
    fds[i].events = POLLIN;
  }
  while (poll (fds, children->len, -1) < 0 && errno == EINTR)
    ;
  for (guint i = children->len; i-- > 0;) {
    NsValChild *child = &g_array_index (children, NsValChild, i);
    if (fds[i].revents == 0 || !child_read (child))
      continue;
    child_finish (child);
    g_array_remove_index (children, i);
    finished++;
  }
  g_free (fds);
  return finished;
}

/* Runs jobs in child processes, at most n_jobs (>= 1) at once, filling each job's run or
 * error; calls progress (with a NULL job) once with 0 done, then whenever the count of
 * finished jobs grows. */
static void
jobs_run_children (GPtrArray *jobs, guint n_jobs, NsValProgress progress, gpointer data)
{
  GArray *children = g_array_new (FALSE, TRUE, sizeof (NsValChild));
  guint next = 0, done = 0, shown = 0;

  if (progress && jobs->len > 0)
    progress (0, jobs->len, NULL, data);
  while (done < jobs->len) {
    while (children->len < n_jobs && next < jobs->len) {
      NsValChild child = { 0 };
      NsValJob *job = jobs->pdata[next++];
      if (child_start (&child, job)) {
        g_array_append_val (children, child);
        continue;
      }
      g_set_error (&job->error, NS_ERROR, NS_ERROR_INTERNAL, "cannot start a child process: "
                   "%s", g_strerror (errno));
      done++;
    }
    if (children->len > 0)
      done += children_wait (children);
    if (progress && done != shown)
      progress (done, jobs->len, NULL, data);
    shown = done;
  }
  g_array_free (children, TRUE);
}

/* Runs every job, each in its own child process; see validate.h. */
void
ns_val_jobs_run (GPtrArray *jobs, guint n_jobs, NsValProgress progress, gpointer data)
{
  g_return_if_fail (jobs != NULL);
  jobs_run_children (jobs, MAX (n_jobs, 1), progress, data);
}

/* ------------------------------------------------------------------------------------ */
/* Provenance of the free parameters and the fitted-and-validation check. */

/* Parses "fit on ROW ROW…, residual R"; see validate.h. */
char **
ns_validation_parse_fit_source (const char *source, char **residual)
{
  const char *rows, *end;
  g_autofree char *list = NULL;

  if (residual)
    *residual = NULL;
  if (source == NULL || !g_str_has_prefix (source, FIT_PREFIX))
    return NULL;
  rows = source + strlen (FIT_PREFIX);
  end = strstr (rows, FIT_RESIDUAL);
  list = end ? g_strndup (rows, end - rows) : g_strdup (rows);
  if (residual && end)
    *residual = g_strdup (end + strlen (FIT_RESIDUAL));
  return split_words (list, " ,");
}

/* Frees a NsValProvenance and its strings (the free function of provenance arrays). */
void
ns_val_provenance_free (gpointer p)
{
  NsValProvenance *pv = p;

  g_free (pv->profile);
  g_free (pv->param);
  g_free (pv->value);
  g_free (pv->source);
  g_free (pv->scope);
  g_free (pv->where);
  g_free (pv->stale);
  g_free (pv->drifted);
  g_strfreev (pv->rows);
  g_strfreev (pv->unrecorded);
  g_free (pv->residual);
  g_free (pv);
}

/* The fit of calibration.xml for (profile, param): the one that produced this value, else
 * (*stale set) any fit of that parameter; NULL if none. */
static const NsValFit *
recorded_fit (const NsValidation *v, const char *profile, const char *param, const char *value,
              gboolean *stale)
{
  double x = g_ascii_strtod (value, NULL);
  const NsValFit *other = NULL;

  *stale = FALSE;
  for (guint i = 0; i < v->fits->len; i++) {
    const NsValFit *f = v->fits->pdata[i];
    if (strcmp (f->profile, profile) || strcmp (f->param, param))
      continue;
    if (g_ascii_strtod (f->value, NULL) == x)
      return f;
    other = f;
  }
  *stale = other != NULL;
  return other;
}

/* The recorded row ids among tokens, NULL-terminated. */
static char **
known_rows (const NsValidation *v, char **tokens)
{
  GPtrArray *rows = g_ptr_array_new ();

  for (guint i = 0; tokens && tokens[i]; i++)
    if (g_hash_table_contains (v->row_index, tokens[i]))
      g_ptr_array_add (rows, g_strdup (tokens[i]));
  g_ptr_array_add (rows, NULL);
  return (char **) g_ptr_array_free (rows, FALSE);
}

/* The ids of rows that fit_rows does not hold, NULL-terminated; NULL if there are none. */
static char **
rows_outside (char **rows, char **fit_rows)
{
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 0; rows[i]; i++)
    if (!g_strv_contains ((const char *const *) fit_rows, rows[i]))
      g_ptr_array_add (out, g_strdup (rows[i]));
  if (out->len == 0) {
    g_ptr_array_free (out, TRUE);
    return NULL;
  }
  g_ptr_array_add (out, NULL);
  return (char **) g_ptr_array_free (out, FALSE);
}

/* TRUE if a value of scope is what the rows run with: a scenario's own value, a run's (but
 * not a what-if's --set, source "command line: …"), a profile's only if it says it is a
 * fit (a scenario may set its own value over a profile's). */
static gboolean
value_in_use (const char *scope, gboolean fitted, const char *source)
{
  if (!strcmp (scope, "profile"))
    return fitted;
  if (!strcmp (scope, "run"))
    return !g_str_has_prefix (source ? source : "", "command line:");
  return TRUE;
}

/* Provenance of one free parameter value set at where (FILE:LINE, or NULL): whether it is
 * a fit, and on which rows — those of the calibration.xml fit that produced it, provided
 * every recorded row id its source names is among them (else the ones it names, each
 * other one listed as unrecorded, a conflict); else the recorded row ids its source names;
 * else, if the source names none, those of the calibration.xml fit of that parameter. A
 * value in use (value_in_use) that differs from the value calibration.xml records for the
 * profile and parameter is stale (a conflict, see provenance_conflicts), and the recorded
 * fit is still judged (fit, check_fit_holds). */
static NsValProvenance *
provenance_new (const NsValidation *v, const char *profile, const char *name,
                const char *value, const char *source, const char *scope, const char *where)
{
  NsValProvenance *pv = g_new0 (NsValProvenance, 1);
  g_auto (GStrv) tokens = ns_validation_parse_fit_source (source, &pv->residual);
  gboolean stale = FALSE;
  const NsValFit *fit = recorded_fit (v, profile, name, value, &stale);

  pv->profile = g_strdup (profile);
  pv->param = g_strdup (name);
  pv->value = g_strdup (value);
  pv->source = g_strdup (source);
  pv->scope = g_strdup (scope);
  pv->where = g_strdup (where);
  pv->fitted = tokens != NULL;
  if (stale && value_in_use (scope, pv->fitted, source)) {
    g_autofree char *rows = g_strjoinv (" ", fit->rows);
    pv->fit = fit;
    pv->stale = g_strdup_printf ("calibration.xml records %s = %s for profile %s (rows %s), "
                                 "but %s is in use: record the new fit", name, fit->value,
                                 profile, rows, value);
  }
  if (!pv->fitted)
    return pv;
  pv->rows = known_rows (v, tokens);
  if (fit == NULL || (stale && pv->rows[0] != NULL))
    return pv;
  pv->unrecorded = stale ? NULL : rows_outside (pv->rows, fit->rows);
  if (pv->unrecorded != NULL) {
    pv->fit = fit;
    return pv;
  }
  pv->recorded = TRUE;
  pv->fit = fit;
  g_strfreev (pv->rows);
  pv->rows = g_strdupv (fit->rows);
  g_free (pv->residual);
  pv->residual = g_strdup (fit->residual);
  return pv;
}

/* Appends the conflicts of one value: a value in use that is not the fit calibration.xml
 * records for its parameter (unless stale_known: listed from another scope); a source that
 * names a row the recorded fit of its value does not list (unless unrecorded_known: listed
 * from another scope); a fit that calibration.xml does not record leaves the rows it was
 * fitted on counted as validation. */
static void
provenance_conflicts (const NsValidation *v, const NsValProvenance *pv, gboolean stale_known,
                      gboolean unrecorded_known, GPtrArray *conflicts)
{
  if (pv->stale != NULL && !stale_known) {
    g_autofree char *rows = g_strjoinv (" ", pv->fit->rows);
    g_ptr_array_add (conflicts, g_strdup_printf (
      "%s = %s on profile %s (%s, '%s') differs from the recorded fit, %s = %s on %s "
      "(calibration.xml): a fitted parameter is used at its fit; run netsim calibrate --fit "
      "%s to fit it again (that records it), or put the recorded value back", pv->param,
      pv->value, pv->profile, pv->scope, pv->source ? pv->source : "", pv->param,
      pv->fit->value, rows, rows));
  }
  if (!pv->fitted || pv->recorded)
    return;
  for (guint i = 0; pv->unrecorded && !unrecorded_known && pv->unrecorded[i]; i++) {
    g_autofree char *rows = g_strjoinv (" ", pv->fit->rows);
    g_ptr_array_add (conflicts, g_strdup_printf (
      "%s: %s = %s of profile %s is a fit on row %s ('%s'), but calibration.xml records "
      "the fit of that value on %s only: a fit's source names the rows it was fitted on, "
      "every one of them recorded; fit it on its rows with netsim calibrate --fit (that "
      "records them), or correct the source", pv->where ? pv->where : pv->scope, pv->param,
      pv->value, pv->profile, pv->unrecorded[i], pv->source, rows));
  }
  if (pv->unrecorded != NULL)
    return;
  if (pv->rows[0] == NULL)
    g_ptr_array_add (conflicts, g_strdup_printf (
      "%s = %s on profile %s ('%s') is a fit that names no recorded row id and that "
      "calibration.xml does not record: the rows it was fitted on count as validation "
      "(fit it with netsim calibrate, or record its rows)", pv->param, pv->value,
      pv->profile, pv->source));
  for (guint i = 0; pv->rows[i]; i++)
    if (!ns_validation_is_calibration (v, pv->rows[i]))
      g_ptr_array_add (conflicts, g_strdup_printf (
        "%s: %s of profile %s is '%s', but calibration.xml does not name the row, so it "
        "counts as validation", pv->rows[i], pv->param, pv->profile, pv->source));
}

/* TRUE if provenance already holds the values of profile. */
static gboolean
has_profile (GPtrArray *provenance, const char *profile)
{
  for (guint i = 0; i < provenance->len; i++)
    if (!strcmp (((NsValProvenance *) provenance->pdata[i])->profile, profile))
      return TRUE;
  return FALSE;
}

/* TRUE if provenance holds an entry for this value of param on profile that is stale (or,
 * if unrecorded, that names rows its recorded fit does not list): a run lists a scenario's
 * value again, with the file:line in its source. */
static gboolean
conflict_listed (GPtrArray *provenance, const char *profile, const char *param,
                 const char *value, gboolean unrecorded)
{
  for (guint i = 0; i < provenance->len; i++) {
    const NsValProvenance *pv = provenance->pdata[i];
    if ((unrecorded ? pv->unrecorded != NULL : pv->stale != NULL) &&
        !strcmp (pv->profile, profile) && !strcmp (pv->param, param) &&
        !strcmp (pv->value, value))
      return TRUE;
  }
  return FALSE;
}

/* Records (once) and checks one free parameter value, set at where (FILE:LINE, or NULL). */
static const NsValProvenance *
check_free_param (const NsValidation *v, const char *profile, const NsValParam *p,
                  const char *scope, const char *where, GPtrArray *conflicts,
                  GPtrArray *provenance)
{
  NsValProvenance *pv;
  gboolean stale_known, unrecorded_known;

  for (guint i = 0; i < provenance->len; i++) {
    pv = provenance->pdata[i];
    if (!strcmp (pv->profile, profile) && !strcmp (pv->param, p->name) &&
        !strcmp (pv->value, p->value) && !g_strcmp0 (pv->source, p->source))
      return pv;
  }
  stale_known = conflict_listed (provenance, profile, p->name, p->value, FALSE);
  unrecorded_known = conflict_listed (provenance, profile, p->name, p->value, TRUE);
  pv = provenance_new (v, profile, p->name, p->value, p->source, scope, where);
  g_ptr_array_add (provenance, pv);
  provenance_conflicts (v, pv, stale_known, unrecorded_known, conflicts);
  return pv;
}

/* TRUE if c may be part of a row id (recorded.rng: [0-9A-Za-z_.+-]). */
static gboolean
row_id_char (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '.' || c == '+' || c == '-';
}

/* TRUE if text names row id id as a word of its own, not inside a longer id (a full stop
 * just after it that ends the sentence is not part of it). */
static gboolean
text_names_row (const char *text, const char *id)
{
  gsize n = strlen (id);

  for (const char *p = strstr (text, id); p != NULL; p = strstr (p + 1, id)) {
    const char *end = p + n;
    gboolean starts = p == text || !row_id_char (p[-1]);
    gboolean ends = !row_id_char (*end) ||
                    (*end == '.' && !g_ascii_isalnum (end[1]) && end[1] != '_');
    if (starts && ends)
      return TRUE;
  }
  return FALSE;
}

/* Appends a conflict for each row counted as validation that the source of a fixed (not
 * free) parameter value names: a value taken from a recorded row is a fit on it, which
 * only a free parameter may be, and only on calibration rows (owner: "profile P", "scenario
 * FILE"). */
static void
check_fixed_param (const NsValidation *v, const char *owner, const NsValParam *p,
                   GPtrArray *conflicts)
{
  for (guint i = 0; p->source != NULL && i < v->rows->len; i++) {
    const char *id = ((const NsRecordedRow *) v->rows->pdata[i])->id;
    if (!ns_validation_is_calibration (v, id) && text_names_row (p->source, id))
      g_ptr_array_add (conflicts, g_strdup_printf (
        "%s: %s = %s of %s names the row in its source ('%s'): a value taken from a "
        "recorded row is a fit on it, which only a free parameter may be (netsim list "
        "params), fitted on calibration rows with netsim calibrate --fit; the row counts as "
        "validation and cannot judge a value fitted on it", id, p->name, p->value, owner,
        p->source));
  }
}

/* Checks and records the free parameters of one loaded profile, and checks that no other
 * parameter's source takes a validation row as its evidence. */
static void
check_profile (const NsValidation *v, const NsCpuProfile *profile, GPtrArray *conflicts,
               GPtrArray *provenance)
{
  GPtrArray *defs = ns_param_all ();   /* owned by the registry */
  g_autofree char *owner = g_strdup_printf ("profile %s", profile->name);

  for (guint i = 0; i < defs->len; i++) {
    const NsParamDef *def = defs->pdata[i];
    NsValParam p = { (char *) def->name,
                     (char *) ns_params_get_text (profile->params, def->name),
                     (char *) ns_params_get_source (profile->params, def->name) };
    int line = ns_cpu_profile_param_line (profile, def->name);
    g_autofree char *where = line > 0 ? g_strdup_printf ("%s:%d", profile->path, line) : NULL;
    if (def->free)
      check_free_param (v, profile->name, &p, "profile", where, conflicts, provenance);
    else
      check_fixed_param (v, owner, &p, conflicts);
  }
}

/* The profiles rows name, each once; see validate.h. */
GPtrArray *
ns_validation_row_profiles (GPtrArray *rows)
{
  GPtrArray *names;

  g_return_val_if_fail (rows != NULL, NULL);
  names = g_ptr_array_new ();
  for (guint i = 0; i < rows->len; i++) {
    const char *p = ((NsRecordedRow *) rows->pdata[i])->setup.profile;
    if (p && !g_ptr_array_find_with_equal_func (names, p, g_str_equal, NULL))
      g_ptr_array_add (names, (gpointer) p);
  }
  return names;
}

/* Checks and records the free parameters the scenario file at path sets itself (scope
 * "scenario FILE"), under the name of the profile it runs on; any other parameter it sets
 * itself is a conflict (a per-case value). A scenario that does not
 * load, or whose profile does not, is skipped: each row whose case runs it is an error
 * with the reason (case_blocker, or the run's). */
static void
check_scenario (const NsValidation *v, const char *path, GPtrArray *conflicts,
                GPtrArray *provenance)
{
  NsScenario *sc = ns_scenario_load (path, NULL, NULL);
  NsCpuProfile *profile = NULL;
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *scope = g_strdup_printf ("scenario %s", base);

  if (sc == NULL)
    return;
  profile = ns_cpu_profile_load (sc->cpu, NULL);
  for (guint i = 0; profile && i < sc->param_names->len; i++) {
    const NsParamDef *def = ns_param_lookup (sc->param_names->pdata[i]);
    NsValParam p = { sc->param_names->pdata[i], sc->param_values->pdata[i],
                     sc->param_sources->pdata[i] };
    g_autofree char *where = g_strdup_printf ("%s:%d", path, ns_xml_line (
                                                ns_scenario_param_node (sc, p.name)));
    if (def && def->free)
      check_free_param (v, profile->name, &p, scope, where, conflicts, provenance);
    else if (def)
      g_ptr_array_add (conflicts, g_strdup_printf (
        "%s sets %s = %s itself ('%s'): a scenario that validate runs may set only the "
        "free parameters (netsim list params), fitted on calibration rows; a CPU's other "
        "parameters are its profile's, with their sources, the same for every row on it",
        scope, p.name, p.value, p.source ? p.source : ""));
  }
  ns_scenario_free (sc);
  if (profile != NULL)
    ns_cpu_profile_free (profile);
}

/* The CPU profile name that recorded rows name, loaded; NULL with an error at the first
 * such row's file:line if it does not load (an unknown name, a broken profile). */
static NsCpuProfile *
row_profile_load (const NsValidation *v, const char *name, GError **error)
{
  NsCpuProfile *profile = ns_cpu_profile_load (name, error);

  for (guint i = 0; profile == NULL && i < v->rows->len; i++) {
    const NsRecordedRow *row = v->rows->pdata[i];
    if (!g_strcmp0 (row->setup.profile, name)) {
      g_prefix_error (error, "%s: row %s: profile '%s': ", row->where, row->id, name);
      break;
    }
  }
  return profile;
}

/* Checks the fits of every profile the recorded rows name, and of every scenario their
 * cases run (where the shipped fits live); see validate.h. */
gboolean
ns_validation_check_fits (const NsValidation *v, GPtrArray *conflicts, GPtrArray *provenance,
                          GError **error)
{
  g_autoptr (GPtrArray) names = ns_validation_row_profiles (v->rows);
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < v->fits->len; i++) {
    const NsValFit *f = v->fits->pdata[i];
    g_autofree char *rows = g_strjoinv (" ", f->rows);
    if (f->unbacked != NULL)
      g_ptr_array_add (conflicts, g_strdup_printf (
        "calibration.xml: the fit of %s %s = %s on %s is not backed: %s; its rows count as "
        "validation (fit them with netsim calibrate --fit, or remove the entry)", f->profile,
        f->param, f->value, rows, f->unbacked));
  }
  for (guint i = 0; i < names->len; i++) {
    NsCpuProfile *profile;
    if (has_profile (provenance, names->pdata[i]))
      continue;
    profile = row_profile_load (v, names->pdata[i], error);
    if (profile == NULL)
      return FALSE;
    check_profile (v, profile, conflicts, provenance);
    ns_cpu_profile_free (profile);
  }
  for (guint i = 0; i < v->rows->len; i++) {
    const NsValCase *c = ns_validation_case (v, ((NsRecordedRow *) v->rows->pdata[i])->id);
    char *path;
    if (c == NULL || c->scenario == NULL)
      continue;
    path = ns_validation_scenario_path (c);
    if (!g_hash_table_add (seen, path))
      continue;
    if (g_file_test (path, G_FILE_TEST_EXISTS))
      check_scenario (v, path, conflicts, provenance);
  }
  return TRUE;
}

/* Checks the free parameters a row actually ran with (from its profile, its scenario or
 * its case's overrides): a value fitted on this row while the row counts as validation is
 * a conflict, and so is a fit calibration.xml does not record. */
static void
check_run_params (const NsValidation *v, const NsValOutcome *o, const NsValRun *run,
                  GPtrArray *conflicts, GPtrArray *provenance)
{
  for (guint i = 0; i < run->free_params->len; i++) {
    const NsValParam *p = run->free_params->pdata[i];
    const NsValProvenance *pv = check_free_param (v, run->cpu, p, "run", NULL, conflicts,
                                                  provenance);
    if (pv->fitted && g_strv_contains ((const char *const *) pv->rows, o->row->id) &&
        !o->calibration)
      g_ptr_array_add (conflicts, g_strdup_printf (
        "%s: ran with %s = %s ('%s') but counts as validation (calibration.xml does not "
        "name it)", o->row->id, p->name, p->value, p->source));
  }
}

/* ------------------------------------------------------------------------------------ */
/* A validation run. */

/* Frees a NsValOutcome with its reason and run copies (its row and case are borrowed). */
static void
outcome_free (gpointer p)
{
  NsValOutcome *o = p;

  g_free (o->reason);
  g_strfreev (o->sets);
  ns_val_run_free (o->baseline_run);
  ns_val_run_free (o->patched_run);
  g_free (o);
}

/* Frees report with its outcomes, conflicts and provenance, not report->v (NULL is fine). */
void
ns_val_report_free (NsValReport *report)
{
  if (report == NULL)
    return;
  g_ptr_array_unref (report->outcomes);
  g_ptr_array_unref (report->conflicts);
  g_ptr_array_unref (report->provenance);
  g_ptr_array_unref (report->unsourced);
  g_ptr_array_unref (report->unstated);
  g_strfreev (report->what_if);
  g_free (report);
}

/* The jobs of one modelled outcome (indices into the job list). */
typedef struct {
  gint baseline;
  gint patched;
} NsValJobPair;

/* What a run of (scenario, variant, sets) simulates, as a key: the scenario file's real
 * path and its document once the variant's and the sets' changes are made, so that variants the sets
 * make alike are one run; if that document cannot be made, the path, variant and sets
 * (the run then reports why). */
static char *
run_key (const char *scenario, const char *variant, char **sets)
{
  g_autoptr (GError) err = NULL;
  g_autofree char *joined = NULL;
  NsScenario *sc = ns_scenario_load_variant (scenario, variant, (const char *const *) sets,
                                             NULL, NULL, &err);

  if (sc != NULL) {
    g_autofree char *doc = ns_scenario_dump (sc);
    g_autofree char *real = realpath (scenario, NULL);   /* one file, however it is named */
    ns_scenario_free (sc);
    return g_strdup_printf ("%s\x1e%s", real != NULL ? real : scenario, doc);
  }
  joined = g_strjoinv ("\x1f", sets);
  return g_strdup_printf ("%s\x1e%s\x1e%s", scenario, variant, joined);
}

/* Index of the job whose run has key (run_key), adding a job running (scenario, variant,
 * sets) if none has: identical runs are made once. Takes key. */
static gint
job_index (GPtrArray *jobs, GHashTable *index, char *key, const char *scenario,
           const char *variant, char **sets)
{
  gpointer found;

  if (g_hash_table_lookup_extended (index, key, NULL, &found)) {
    g_free (key);
    return GPOINTER_TO_INT (found);
  }
  g_ptr_array_add (jobs, ns_val_job_new (scenario, variant, (const char *const *) sets));
  g_hash_table_insert (index, key, GINT_TO_POINTER (jobs->len - 1));
  return (gint) jobs->len - 1;
}

/* The key of a row's two runs: its baseline's and its patched variant's run_key, joined. */
static char *
pair_key (const char *baseline_key, const char *patched_key)
{
  return g_strconcat (baseline_key, "\x1d", patched_key, NULL);
}

/* NULL if the variant of sc that case c runs has no <set> forbidden_set refuses; else why
 * the row cannot run (*status ERROR), that reason also appended to conflicts (if any). */
static char *
variant_forbidden (const NsScenario *sc, const NsValCase *c, const char *variant,
                   NsValStatus *status, GPtrArray *conflicts)
{
  xmlNodePtr node = ns_scenario_variant_node (sc->doc, variant);

  for (xmlNodePtr n = node ? node->children : NULL; n; n = n->next) {
    g_autofree char *path = NULL;
    const char *why;
    char *reason;
    if (!ns_xml_is_element (n, "set"))
      continue;
    path = ns_xml_prop (n, "path");
    if ((why = forbidden_set (path)) == NULL)
      continue;
    *status = NS_VAL_ERROR;
    reason = g_strdup_printf ("%s:%d: variant '%s', which row %s runs, has <set path=\"%s\">, "
                              "which %s", sc->path, ns_xml_line (n), variant, c->row, path, why);
    if (conflicts)
      g_ptr_array_add (conflicts, g_strdup (reason));
    return reason;
  }
  return NULL;
}

/* Why the row of case c cannot be judged, the case's cases.xml:LINE first: the mistake
 * (what does not load or run, as message says) is in the case or what it runs. */
static char *
case_error (const NsValCase *c, const char *message)
{
  return g_strdup_printf ("%s: case of row %s: %s", c->where, c->row, message);
}

/* Checks the case's scenario file and variants; NULL if it can run, else why not, with
 * *status ERROR: a case that names a scenario claims the row is modelled, so a missing
 * file or variant is a mistake in cases.xml (its line in the reason; a row not modelled
 * yet says so with reason=), as is a scenario that cannot be read or a variant the row
 * runs that sets what forbidden_set refuses (then also a conflict, if conflicts is
 * given). */
static char *
case_blocker (const NsValCase *c, const char *path, NsValStatus *status, GPtrArray *conflicts)
{
  g_autoptr (GPtrArray) names = NULL;
  GError *err = NULL;
  NsScenario *sc;
  char *why;

  *status = NS_VAL_ERROR;
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return missing_scenario (c);
  sc = ns_scenario_load (path, NULL, &err);
  if (sc == NULL) {
    why = case_error (c, err->message);
    g_error_free (err);
    return why;
  }
  names = ns_run_variant_names (sc);
  why = NULL;
  for (const char *const *v = (const char *const[]) { c->baseline, c->patched, NULL }; *v; v++)
    if (!g_ptr_array_find_with_equal_func (names, *v, g_str_equal, NULL)) {
      why = g_strdup_printf ("%s: scenario %s has no variant '%s'", c->where, c->scenario,
                             *v);
      break;
    }
  for (const char *const *v = (const char *const[]) { c->baseline, c->patched, NULL };
       why == NULL && *v; v++)
    why = variant_forbidden (sc, c, *v, status, conflicts);
  ns_scenario_free (sc);
  return why;
}

/* The validation row that first ran the runs whose pair_key is both (validation_runs:
 * pair key → row id), or NULL after recording id as that row. */
static const char *
first_with_runs (GHashTable *validation_runs, const char *both, const char *id)
{
  const char *first = g_hash_table_lookup (validation_runs, both);

  if (first == NULL)
    g_hash_table_insert (validation_runs, g_strdup (both), (gpointer) id);
  return first;
}

/* Decides whether the row can be simulated; if so adds its two jobs, and if they are the
 * runs of a calibration row (fitted_runs, see fitted_runs_new) counts it as calibration,
 * else notes an earlier validation row with the same runs (validation_runs). A variant
 * that sets a parameter for the row is appended to conflicts (see case_blocker). */
static void
plan_outcome (const NsValidation *v, NsValOutcome *o, const NsValOptions *opt, GPtrArray *jobs,
              GHashTable *index, GHashTable *fitted_runs, GHashTable *validation_runs,
              NsValJobPair *pair, GPtrArray *conflicts)
{
  const NsValCase *c = o->vcase;
  g_autofree char *path = NULL;
  g_autofree char *both = NULL;
  char *baseline_key, *patched_key;

  pair->baseline = pair->patched = -1;
  o->status = NS_VAL_NOT_MODELLED;
  if (c == NULL) {
    o->reason = g_strdup ("no <case> for this row in cases.xml");
    return;
  }
  if (c->scenario == NULL) {
    o->reason = g_strdup (c->reason);
    return;
  }
  path = ns_validation_scenario_path (c);
  o->sets = ns_validation_run_sets (v, o->row, opt);
  o->reason = case_blocker (c, path, &o->status, conflicts);
  if (o->reason != NULL)
    return;
  baseline_key = run_key (path, c->baseline, o->sets);
  patched_key = run_key (path, c->patched, o->sets);
  both = pair_key (baseline_key, patched_key);
  if (!o->calibration) {
    o->same_runs_as = g_hash_table_lookup (fitted_runs, both);
    o->calibration = o->same_runs_as != NULL;
  }
  if (!o->calibration)
    o->shares_runs_with = first_with_runs (validation_runs, both, o->row->id);
  pair->baseline = job_index (jobs, index, baseline_key, path, c->baseline, o->sets);
  pair->patched = job_index (jobs, index, patched_key, path, c->patched, o->sets);
}

/* The runs fits were made on: the pair_key of each calibration row's two runs under opt,
 * mapped to the row's id (borrowed from v), for the rows whose cases can run. */
static GHashTable *
fitted_runs_new (const NsValidation *v, const NsValOptions *opt)
{
  GHashTable *runs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GPtrArray *rows = ns_validation_rows (v);

  for (guint i = 0; i < rows->len; i++) {
    const NsRecordedRow *row = rows->pdata[i];
    const NsValCase *c = ns_validation_case (v, row->id);
    g_autofree char *path = NULL, *why = NULL, *baseline_key = NULL, *patched_key = NULL;
    g_auto (GStrv) sets = NULL;
    NsValStatus status;

    if (!ns_validation_is_calibration (v, row->id) || c == NULL || c->scenario == NULL)
      continue;
    path = ns_validation_scenario_path (c);
    why = case_blocker (c, path, &status, NULL);
    if (why != NULL)
      continue;
    sets = ns_validation_run_sets (v, row, opt);
    baseline_key = run_key (path, c->baseline, sets);
    patched_key = run_key (path, c->patched, sets);
    g_hash_table_insert (runs, pair_key (baseline_key, patched_key), row->id);
  }
  return runs;
}

/* Why row's finished runs b and p (case c) cannot be judged; see validate.h. */
char *
ns_validation_runs_problem (const NsRecordedRow *row, const NsValCase *c, const NsValRun *b,
                            const NsValRun *p)
{
  const char *profile;

  g_return_val_if_fail (row != NULL && c != NULL && b != NULL && p != NULL, NULL);
  profile = row->setup.profile;
  if (profile && (g_strcmp0 (b->cpu, profile) || g_strcmp0 (p->cpu, profile)))
    return g_strdup_printf ("the case runs on CPU profile '%s', but the row was measured "
                            "on %s (profile '%s')", g_strcmp0 (b->cpu, profile)
                            ? b->cpu : p->cpu, row->setup.cpu, profile);
  if (!(b->value > 0))
    return g_strdup_printf ("the baseline variant '%s' gave %g, so no delta can be taken",
                            c->baseline, b->value);
  return NULL;
}

/* Fills a modelled outcome from its two finished jobs. */
static void
finish_outcome (NsValOutcome *o, const NsValJob *b, const NsValJob *p)
{
  const NsValJob *failed = b->run == NULL ? b : p->run == NULL ? p : NULL;

  if (failed != NULL) {
    o->status = NS_VAL_ERROR;
    o->reason = case_error (o->vcase, failed->error ? failed->error->message
                                                    : "the run failed");
    return;
  }
  o->baseline_run = val_run_copy (b->run);
  o->patched_run = val_run_copy (p->run);
  o->reason = ns_validation_runs_problem (o->row, o->vcase, b->run, p->run);
  if (o->reason != NULL) {
    o->status = NS_VAL_ERROR;
    return;
  }
  o->sim_baseline = b->run->value * o->vcase->unit_scale;
  o->sim_patched = p->run->value * o->vcase->unit_scale;
  o->sim_delta_pct = 100.0 * (p->run->value / b->run->value - 1.0);
  o->error_pp = o->sim_delta_pct - o->row->delta_pct;
  o->sign_agrees = ns_validation_signs_agree (o->row->delta_pct, o->sim_delta_pct);
  o->status = ns_validation_judge (o->error_pp, o->tolerance_pp, o->sign_agrees);
  o->within_noise = o->row->delta_ci95_pp >= 0 && fabs (o->error_pp) <= o->row->delta_ci95_pp;
  o->baseline_error_pct = 100.0 * (o->sim_baseline / o->row->baseline - 1.0);
  o->baseline_within = o->row->baseline_tolerance_pct >= 0 &&
                       fabs (o->baseline_error_pct) <= o->row->baseline_tolerance_pct;
}

/* See validate.h. */
double
ns_validation_one_op_step_pp (const NsValOutcome *o)
{
  return ns_run_one_op_step_pct (o->baseline_run->value, o->patched_run->value,
                                 o->baseline_run->ops, o->patched_run->ops);
}

/* Counts a row whose verdict was decided by less than band (NS_VAL_NEAR_PP, or the row's
 * one-operation step if larger; margin: ns_validation_verdict_margin) and keeps the
 * nearest such row. */
static void
summarise_margin (NsValSummary *s, const char *row, double margin, double band)
{
  if (!(fabs (margin) < band))
    return;
  s->near_boundary++;
  if (s->nearest_row == NULL || fabs (margin) < fabs (s->nearest_margin_pp)) {
    s->nearest_row = row;
    s->nearest_margin_pp = margin;
  }
}

/* The row whose runs o runs: a calibration row's (same_runs_as) or an earlier validation
 * row's (shares_runs_with), as calibration says; NULL if neither. */
static const char *
runs_of (const NsValOutcome *o, gboolean calibration)
{
  return calibration ? o->same_runs_as : o->shares_runs_with;
}

/* The report's outcome for row_id, or NULL if that row was not selected. */
static const NsValOutcome *
find_outcome (const NsValReport *r, const char *row_id)
{
  for (guint i = 0; i < r->outcomes->len; i++) {
    const NsValOutcome *o = r->outcomes->pdata[i];
    if (!strcmp (o->row->id, row_id))
      return o;
  }
  return NULL;
}

/* Counts o's baseline against its file's stated tolerance, if it states one, and keeps
 * the row farthest from its recorded baseline. */
static void
summarise_baseline (NsValSummary *s, const NsValOutcome *o)
{
  if (o->row->baseline_tolerance_pct < 0)
    return;
  s->baselines++;
  s->baselines_within += o->baseline_within;
  if (s->baseline_worst_row == NULL ||
      fabs (o->baseline_error_pct) > fabs (s->baseline_worst_pct)) {
    s->baseline_worst_row = o->row->id;
    s->baseline_worst_pct = o->baseline_error_pct;
    s->baseline_worst_tol_pct = o->row->baseline_tolerance_pct;
  }
}

/* Adds a finished outcome to the summary of its set (shared: it ran another selected
 * row's runs, so it is no simulation of its own). */
static void
summarise (NsValSummary *s, const NsValOutcome *o, gboolean shared)
{
  double abs_err;

  if (o->status == NS_VAL_NOT_MODELLED)
    return;
  s->rows++;
  if (o->status == NS_VAL_ERROR) {
    s->errors++;
    return;
  }
  s->within += o->status == NS_VAL_PASS;
  s->signs += o->sign_agrees;
  s->shared_runs += shared;
  if (o->status == NS_VAL_FAIL && o->row->delta_ci95_pp >= 0) {
    s->noisy_misses++;
    s->misses_within_noise += o->within_noise;
  }
  if (o->status == NS_VAL_PASS && o->row->delta_ci95_pp >= 0) {
    s->noisy_passes++;
    s->passes_outside_noise += !o->within_noise;
  }
  summarise_baseline (s, o);
  abs_err = fabs (o->error_pp);
  summarise_margin (s, o->row->id, ns_validation_verdict_margin (o->row->delta_pct,
                                                                 o->sim_delta_pct,
                                                                 o->tolerance_pp),
                    MAX (NS_VAL_NEAR_PP, ns_validation_one_op_step_pp (o)));
  s->mean_abs_pp += abs_err;      /* a sum until summary_finish */
  if (s->max_row == NULL || abs_err > s->max_abs_pp) {
    s->max_abs_pp = abs_err;
    s->max_row = o->row->id;
  }
}

/* Turns the summed |error| of s into the mean over its rows that ran (0 if none ran). */
static void
summary_finish (NsValSummary *s)
{
  guint ran = s->rows - s->errors;

  s->mean_abs_pp = ran ? s->mean_abs_pp / ran : 0;
}

/* A new, empty report on v (borrowed, must outlive it); free with ns_val_report_free. */
static NsValReport *
report_new (const NsValidation *v)
{
  NsValReport *r = g_new0 (NsValReport, 1);

  r->v = v;
  r->outcomes = g_ptr_array_new_with_free_func (outcome_free);
  r->conflicts = g_ptr_array_new_with_free_func (g_free);
  r->provenance = g_ptr_array_new_with_free_func (ns_val_provenance_free);
  r->unsourced = g_ptr_array_new_with_free_func (g_free);
  r->unstated = g_ptr_array_new_with_free_func (g_free);
  return r;
}

/* Removes repeated conflict lines, keeping the first of each. */
static void
dedupe_lines (GPtrArray *lines)
{
  for (guint i = 0; i < lines->len; i++)
    for (guint j = lines->len; j-- > i + 1;)
      if (!strcmp (lines->pdata[i], lines->pdata[j]))
        g_ptr_array_remove_index (lines, j);
}

/* GCompareFunc ordering NsValProvenance* elements by profile name. */
static gint
compare_provenance (gconstpointer a, gconstpointer b)
{
  return strcmp ((*(NsValProvenance *const *) a)->profile, (*(NsValProvenance *const *) b)->profile);
}

/* TRUE if source says its value is borrowed: measured or derived on another core
 * ("UNSOURCED, borrowed: …", as the profiles write it). */
static gboolean
source_borrowed (const char *source)
{
  return source != NULL && g_ascii_strncasecmp (source, NS_VAL_BORROWED,
                                                strlen (NS_VAL_BORROWED)) == 0;
}

/* Adds cpu to values' entry key (key → GPtrArray of CPU names, each once); takes key. */
static void
add_to_entry (GHashTable *values, char *key, const char *cpu)
{
  GPtrArray *cpus = g_hash_table_lookup (values, key);

  if (cpus == NULL) {
    cpus = g_ptr_array_new_with_free_func (g_free);
    g_hash_table_insert (values, key, cpus);
  } else {
    g_free (key);
  }
  if (!g_ptr_array_find_with_equal_func (cpus, cpu, g_str_equal, NULL))
    g_ptr_array_add (cpus, g_strdup (cpu));
}

/* Adds run's CPU to the entry "NAME = VALUE" of each unsourced value it used, in
 * values (NAME = VALUE → GPtrArray of CPU names, each once; "CPU*" where its profile
 * borrows the value from another core). */
static void
add_unsourced (GHashTable *values, const NsValRun *run)
{
  for (guint i = 0; i < run->unsourced->len; i++) {
    const NsValParam *p = run->unsourced->pdata[i];
    g_autofree char *cpu = g_strconcat (run->cpu, source_borrowed (p->source) ? "*" : "",
                                        NULL);

    add_to_entry (values, g_strdup_printf ("%s = %s", p->name, p->value), cpu);
  }
}

/* Adds run's CPU to the entry "CONFIG_X=y" of each .config option it took unstated. */
static void
add_unstated (GHashTable *options, const NsValRun *run)
{
  for (guint i = 0; i < run->unstated->len; i++)
    add_to_entry (options, g_strdup (run->unstated->pdata[i]), run->cpu);
}

/* Fills lines with "KEY: CPU CPU…" from values (add_to_entry), sorted (CPUs sorted too). */
static void
entry_lines (GHashTable *values, GPtrArray *lines)
{
  GHashTableIter iter;
  gpointer key, cpus;

  g_hash_table_iter_init (&iter, values);
  while (g_hash_table_iter_next (&iter, &key, &cpus)) {
    GPtrArray *c = cpus;
    GString *line = g_string_new (key);
    g_ptr_array_sort (c, compare_names);
    for (guint i = 0; i < c->len; i++)
      g_string_append_printf (line, "%s%s", i ? " " : ": ", (const char *) c->pdata[i]);
    g_ptr_array_add (lines, g_string_free (line, FALSE));
  }
  g_ptr_array_sort (lines, compare_names);
}

/* TRUE if the outcome was judged (pass or fail), so its simulated figures mean something. */
static gboolean
outcome_ran (const NsValOutcome *o)
{
  return o->status == NS_VAL_PASS || o->status == NS_VAL_FAIL;
}

/* How much a recorded fit's residual may grow before the fit no longer holds: a refit
 * would then move its value by more than calibrate's four-digit rounding does (the shipped
 * fits' residuals at the rounded value are ~1e-4; 0.002 is 0.2 % of a fitted baseline). */
#define FIT_HOLD_MARGIN 0.002

/* The outcome of the row with id in r; NULL if the run did not include that row. */
static const NsValOutcome *
outcome_of (const NsValReport *r, const char *id)
{
  for (guint i = 0; i < r->outcomes->len; i++)
    if (!strcmp (((const NsValOutcome *) r->outcomes->pdata[i])->row->id, id))
      return r->outcomes->pdata[i];
  return NULL;
}

/* Adds the squared residuals of one fitted row, as netsim calibrate computes them for the
 * target, to *sum and their number to *n. */
static void
add_fit_residuals (const NsValOutcome *o, const char *target, double *sum, guint *n)
{
  const NsRecordedRow *row = o->row;
  double e;

  if (!g_strcmp0 (target, "delta")) {
    e = (o->sim_delta_pct - row->delta_pct) / 100.0;
    *sum += e * e;
    *n += 1;
    return;
  }
  e = (o->sim_baseline - row->baseline) / row->baseline;
  *sum += e * e;
  *n += 1;
  if (g_strcmp0 (target, "absolute"))
    return;
  e = row->patched > 0 ? (o->sim_patched - row->patched) / row->patched : o->sim_patched;
  *sum += e * e;
  *n += 1;
}

/* The RMS residual of fit's rows as r ran them; -1 if one of them did not run. */
static double
fit_residual_now (const NsValReport *r, const NsValFit *fit)
{
  double sum = 0;
  guint n = 0;

  for (guint i = 0; fit->rows[i]; i++) {
    const NsValOutcome *o = outcome_of (r, fit->rows[i]);
    if (o == NULL || !outcome_ran (o))
      return -1;
    add_fit_residuals (o, fit->target, &sum, &n);
  }
  return n ? sqrt (sum / n) : -1;
}

/* Sets pv->drifted if pv's recorded fit (its value's, or, for a stale value, the one
 * calibration.xml records) has rows that, as r ran them, now miss by more than the
 * recorded residual + FIT_HOLD_MARGIN (the model or the value changed since the fit). Not
 * for what-ifs, whose sets move the rows on purpose; each fit once (judged: the set of
 * fits already looked at, as the same value may be listed from several scopes). */
static void
check_fit_holds (const NsValReport *r, NsValProvenance *pv, GHashTable *judged)
{
  const NsValFit *fit = pv->fit;
  double now, then;

  if (r->what_if != NULL || fit == NULL)
    return;
  if (!g_hash_table_add (judged, (gpointer) fit))
    return;
  now = fit_residual_now (r, fit);
  then = g_ascii_strtod (fit->residual, NULL);
  if (now < 0 || now <= fabs (then) + FIT_HOLD_MARGIN)
    return;
  pv->drifted = g_strdup_printf ("the fit %s = %s for profile %s no longer holds: its rows "
                                 "give a residual of %.3g now, %s when fitted; the model "
                                 "(or the recorded figures) changed since: run netsim "
                                 "calibrate again", pv->param,
                                 fit->value, pv->profile, now, fit->residual);
}

/* Judges, summarises and cross-checks the outcomes once every job has run. */
static void
finish_report (NsValReport *r, GPtrArray *jobs, const NsValJobPair *pairs)
{
  g_autoptr (GHashTable) unsourced = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                            (GDestroyNotify) g_ptr_array_unref);
  g_autoptr (GHashTable) unstated = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                           (GDestroyNotify) g_ptr_array_unref);
  g_autoptr (GHashTable) judged = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < r->outcomes->len; i++) {
    NsValOutcome *o = r->outcomes->pdata[i];
    const char *other;
    if (pairs[i].baseline >= 0)
      finish_outcome (o, jobs->pdata[pairs[i].baseline], jobs->pdata[pairs[i].patched]);
    if (o->baseline_run) {
      check_run_params (r->v, o, o->baseline_run, r->conflicts, r->provenance);
      check_run_params (r->v, o, o->patched_run, r->conflicts, r->provenance);
      add_unsourced (unsourced, o->baseline_run);
      add_unsourced (unsourced, o->patched_run);
      add_unstated (unstated, o->baseline_run);
      add_unstated (unstated, o->patched_run);
    }
    if (o->status == NS_VAL_NOT_MODELLED)
      r->not_modelled++;
    other = runs_of (o, o->calibration);
    summarise (o->calibration ? &r->calibration : &r->validation, o,
               other != NULL && find_outcome (r, other) != NULL);
  }
  summary_finish (&r->validation);
  summary_finish (&r->calibration);
  for (guint i = 0; i < r->provenance->len; i++)
    check_fit_holds (r, r->provenance->pdata[i], judged);
  dedupe_lines (r->conflicts);
  entry_lines (unsourced, r->unsourced);
  entry_lines (unstated, r->unstated);
  g_ptr_array_sort (r->provenance, compare_provenance);   /* stable: by profile */
}

/* Runs the cases of rows; see validate.h. */
NsValReport *
ns_validation_run (const NsValidation *v, GPtrArray *rows, const NsValOptions *opt,
                   GError **error)
{
  NsValReport *r;
  GPtrArray *jobs;
  GHashTable *index, *fitted_runs, *validation_runs;
  NsValJobPair *pairs;

  g_return_val_if_fail (v != NULL && rows != NULL && opt != NULL, NULL);
  r = report_new (v);
  r->what_if = g_strdupv ((char **) opt->what_if);
  if (!ns_validation_check_fits (v, r->conflicts, r->provenance, error)) {
    ns_val_report_free (r);
    return NULL;
  }
  jobs = g_ptr_array_new_with_free_func ((GDestroyNotify) ns_val_job_free);
  index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  fitted_runs = fitted_runs_new (v, opt);
  validation_runs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  pairs = g_new0 (NsValJobPair, rows->len);
  for (guint i = 0; i < rows->len; i++) {
    NsValOutcome *o = g_new0 (NsValOutcome, 1);
    o->row = rows->pdata[i];
    o->vcase = ns_validation_case (v, o->row->id);
    o->calibration = ns_validation_is_calibration (v, o->row->id);
    o->tolerance_pp = ns_validation_tolerance (o->row);
    g_ptr_array_add (r->outcomes, o);
    plan_outcome (v, o, opt, jobs, index, fitted_runs, validation_runs, &pairs[i],
                  r->conflicts);
  }
  g_hash_table_unref (fitted_runs);
  g_hash_table_unref (validation_runs);
  ns_val_jobs_run (jobs, MAX (opt->jobs, 1), opt->progress, opt->progress_data);
  finish_report (r, jobs, pairs);
  g_free (pairs);
  g_hash_table_unref (index);
  g_ptr_array_unref (jobs);
  return r;
}

/* Adds one seed's outcome to the spread of o (its row's outcome in the main report). */
static void
seed_spread_add (NsValOutcome *o, const NsValOutcome *seed)
{
  if (seed->status != NS_VAL_PASS && seed->status != NS_VAL_FAIL)
    return;
  if (o->seeds_ran == 0 || seed->sim_delta_pct < o->seeds_delta_min_pct)
    o->seeds_delta_min_pct = seed->sim_delta_pct;
  if (o->seeds_ran == 0 || seed->sim_delta_pct > o->seeds_delta_max_pct)
    o->seeds_delta_max_pct = seed->sim_delta_pct;
  o->seeds_ran++;
  o->seeds_passing += seed->status == NS_VAL_PASS;
}

/* Runs the rows again per run seed; see validate.h. */
gboolean
ns_validation_run_seeds (NsValReport *report, GPtrArray *rows, const NsValOptions *opt,
                         guint n_seeds, GError **error)
{
  g_return_val_if_fail (report != NULL && rows != NULL && opt != NULL, FALSE);
  g_return_val_if_fail (rows->len == report->outcomes->len && n_seeds > 0, FALSE);
  for (guint k = 1; k <= n_seeds; k++) {
    g_autofree char *seed = g_strdup_printf ("seed=%u", k);
    g_auto (GStrv) sets = ns_strv_append (opt->sets, seed);
    NsValOptions seed_opt = *opt;
    NsValReport *r;

    seed_opt.sets = (const char *const *) sets;
    r = ns_validation_run (report->v, rows, &seed_opt, error);
    if (r == NULL)
      return FALSE;
    for (guint i = 0; i < rows->len; i++)
      seed_spread_add (report->outcomes->pdata[i], r->outcomes->pdata[i]);
    ns_val_report_free (r);
  }
  report->run_seeds = n_seeds;
  return TRUE;
}

/* The number of recorded fits that no longer hold; see validate.h. */
guint
ns_validation_drifted_fits (const NsValReport *r)
{
  guint n = 0;

  for (guint i = 0; i < r->provenance->len; i++)
    n += ((const NsValProvenance *) r->provenance->pdata[i])->drifted != NULL;
  return n;
}

/* Exit status of a validation run; see validate.h. */
int
ns_validation_exit_status (const NsValReport *r)
{
  gboolean bad = r->conflicts->len > 0 || r->calibration.errors > 0 ||
                 r->validation.within < r->validation.rows || ns_validation_drifted_fits (r) > 0;

  return bad ? 1 : 0;
}

/* ------------------------------------------------------------------------------------ */
/* Output. */

/* The set the outcome's row counts in: "calibration" or "validation" (static). */
static const char *
set_name (const NsValOutcome *o)
{
  return o->calibration ? "calibration" : "validation";
}

/* The short CPU label of a row: its profile, else the start of the recorded CPU text. */
static char *
cpu_label (const NsRecordedRow *row, gsize width)
{
  const char *text = row->setup.profile ? row->setup.profile : row->setup.cpu;

  return g_strndup (text, width);
}

/* `netsim run` command lines that print the same numbers as the case. */
static char *
reproduce_command (const NsValOutcome *o)
{
  const NsValCase *c = o->vcase;
  GString *s = g_string_new (NULL);

  if (c == NULL || c->scenario == NULL || o->sets == NULL)
    return g_string_free (s, FALSE);
  for (int k = 0; k < 2; k++) {
    g_string_append_printf (s, "%snetsim run %s --variant %s", k ? "; " : "", c->scenario,
                            k ? c->patched : c->baseline);
    for (guint i = 0; o->sets[i]; i++)
      g_string_append_printf (s, " --set %s", o->sets[i]);
  }
  return g_string_free (s, FALSE);
}

/* Writes value to buf ("%.2f", signed if sign) if the outcome ran, else "-". */
static void
format_sim (char *buf, gsize len, const NsValOutcome *o, double value, gboolean sign)
{
  if (outcome_ran (o))
    g_snprintf (buf, len, sign ? "%+.2f" : "%.2f", value);
  else
    g_strlcpy (buf, "-", len);
}

/* Appends the table line of one outcome: recorded and simulated figures, error, status. */
static void
table_row (GString *out, const NsValOutcome *o)
{
  const NsRecordedRow *row = o->row;
  g_autofree char *cpu = cpu_label (row, 16);
  g_autofree char *variant = g_strndup (row->variant, 36);
  char sb[32], sp[32], sd[16], err[16], ci[16];

  if (row->delta_ci95_pp >= 0)
    g_snprintf (ci, sizeof ci, "%.2f", row->delta_ci95_pp);
  else
    g_strlcpy (ci, "-", sizeof ci);
  format_sim (sb, sizeof sb, o, o->sim_baseline, FALSE);
  format_sim (sp, sizeof sp, o, o->sim_patched, FALSE);
  format_sim (sd, sizeof sd, o, o->sim_delta_pct, TRUE);
  format_sim (err, sizeof err, o, o->error_pp, TRUE);
  g_string_append_printf (out, "%-25s %-4s %-16s %-36s %12s %12s %+9.2f %8s %12s %12s %9s %8s "
                          "%5.2f %-11s %s\n", row->id, row->seed, cpu, variant,
                          row->baseline_text, row->patched_text, row->delta_pct, ci, sb, sp, sd,
                          err, o->tolerance_pp, set_name (o), ns_val_status_name (o->status));
}

/* Lists the rows of a status grouped by reason, in order of first appearance. */
static void
table_reasons (GString *out, const NsValReport *r, NsValStatus status, const char *title)
{
  GPtrArray *reasons = g_ptr_array_new ();
  guint n = 0;

  for (guint i = 0; i < r->outcomes->len; i++) {
    const NsValOutcome *o = r->outcomes->pdata[i];
    if (o->status != status)
      continue;
    n++;
    if (!g_ptr_array_find_with_equal_func (reasons, o->reason, g_str_equal, NULL))
      g_ptr_array_add (reasons, o->reason);
  }
  if (n > 0)
    g_string_append_printf (out, "\n%s (%u):\n", title, n);
  for (guint i = 0; status == NS_VAL_ERROR && i < r->outcomes->len; i++) {
    const NsValOutcome *o = r->outcomes->pdata[i];
    if (o->status == status)
      g_string_append_printf (out, "  %s: %s\n", o->row->id, o->reason);
  }
  for (guint k = 0; status != NS_VAL_ERROR && k < reasons->len; k++) {
    gboolean first = TRUE;
    g_string_append_printf (out, "  %s:", (const char *) reasons->pdata[k]);
    for (guint i = 0; i < r->outcomes->len; i++) {
      const NsValOutcome *o = r->outcomes->pdata[i];
      if (o->status == status && !strcmp (o->reason, reasons->pdata[k])) {
        g_string_append_printf (out, "%s %s", first ? "" : ",", o->row->id);
        first = FALSE;
      }
    }
    g_string_append_c (out, '\n');
  }
  g_ptr_array_unref (reasons);
}

/* Lists the rows that run another row's runs: under title, "ROW: the runs of OTHER". */
static void
table_runs_of (GString *out, const NsValReport *r, gboolean calibration, const char *title)
{
  guint n = 0;

  for (guint i = 0; i < r->outcomes->len; i++)
    n += runs_of (r->outcomes->pdata[i], calibration) != NULL;
  if (n > 0)
    g_string_append_printf (out, "\n%s (%u):\n", title, n);
  for (guint i = 0; i < r->outcomes->len; i++) {
    const NsValOutcome *o = r->outcomes->pdata[i];
    if (runs_of (o, calibration) != NULL)
      g_string_append_printf (out, "  %s: the runs of %s\n", o->row->id, runs_of (o, calibration));
  }
}

/* Recorded value of one side of a row (its CV into *cv, < 0 if not given; its runs into
 * *runs), and the simulated one if the row ran. */
static gboolean
pair_side (const NsValReport *r, const NsValPair *p, int k, double *rec, double *cv,
           guint *runs, double *sim)
{
  const NsRecordedRow *row = ns_validation_find_row (r->v, p->row[k]);
  const NsValOutcome *o = find_outcome (r, p->row[k]);
  gboolean base = !strcmp (p->side[k], "baseline");
  const char *cv_text = base ? row->baseline_cv : row->patched_cv;

  *rec = base ? row->baseline : row->patched;
  *cv = cv_text ? g_ascii_strtod (cv_text, NULL) : -1.0;
  *runs = row->runs;
  if (o == NULL || !outcome_ran (o))
    return FALSE;
  *sim = base ? o->baseline_run->value : o->patched_run->value;
  return TRUE;
}

/* A pair's recorded delta (second figure against the first, %), its 95 % half-width
 * (< 0 unless both figures have CVs) and, if both rows ran, the simulated delta; FALSE if
 * they did not. */
static gboolean
pair_figures (const NsValReport *r, const NsValPair *p, double *rec_pct, double *ci_pp,
              double *sim_pct)
{
  double ra, rb, cva, cvb, sa = 0, sb = 0;
  guint na, nb;
  gboolean ran = pair_side (r, p, 0, &ra, &cva, &na, &sa) &
                 pair_side (r, p, 1, &rb, &cvb, &nb, &sb);

  *rec_pct = 100.0 * (rb / ra - 1.0);
  *ci_pp = cva >= 0 && cvb >= 0 ? ns_validation_delta_ci95 (rb / ra, cva, cvb, MIN (na, nb))
                                : -1.0;
  *sim_pct = ran ? 100.0 * (sb / sa - 1.0) : NAN;
  return ran;
}

/* TRUE if a pair's simulated change lies inside its recorded 95 % interval (ci_pp >= 0),
 * as a row's delta is judged (|error| <= the interval). */
static gboolean
pair_inside (double rec_pct, double ci_pp, double sim_pct)
{
  return fabs (sim_pct - rec_pct) <= ci_pp;
}

/* Recorded pairs (e.g. mitigations off vs on) whose rows were selected. */
static void
table_pairs (GString *out, const NsValReport *r)
{
  gboolean header = FALSE;

  for (guint i = 0; i < ns_validation_pairs (r->v)->len; i++) {
    const NsValPair *p = ns_validation_pairs (r->v)->pdata[i];
    double rec, ci, sim;
    gboolean ran;
    if (!find_outcome (r, p->row[0]) || !find_outcome (r, p->row[1]))
      continue;
    if (!header)
      g_string_append (out, "\nrecorded pairs (extra facts, not counted; the second figure "
                       "against the first, ± the 95 % interval where both have CVs):\n");
    header = TRUE;
    ran = pair_figures (r, p, &rec, &ci, &sim);
    g_string_append_printf (out, "  %-26s %-44s recorded %+8.2f %%", p->id, p->label, rec);
    if (ci >= 0)
      g_string_append_printf (out, " ± %5.2f", ci);
    if (!ran)
      g_string_append (out, "  not modelled\n");
    else if (ci < 0)
      g_string_append_printf (out, "  simulated %+8.2f %%\n", sim);
    else
      g_string_append_printf (out, "  simulated %+8.2f %%, %s the interval\n", sim,
                              pair_inside (rec, ci, sim) ? "inside" : "outside");
  }
}

/* Appends the summary line of one set, named set (only the 0/0 count if it has no rows,
 * no error figures if none ran). */
static void
summary_line (GString *out, const char *set, const NsValSummary *s)
{
  g_string_append_printf (out, "%s rows passing (within tolerance, right sign): %u/%u", set,
                          s->within, s->rows);
  if (s->shared_runs)
    g_string_append_printf (out, " (%u of them %s another row's runs: %u distinct "
                            "simulations)", s->shared_runs,
                            s->shared_runs == 1 ? "judges" : "judge",
                            s->rows - s->errors - s->shared_runs);
  if (s->rows == 0) {
    g_string_append (out, "\n");
    return;
  }
  if (s->rows == s->errors) {              /* nothing ran: no error to average */
    g_string_append_printf (out, "; no row ran; %u run errors\n", s->errors);
    return;
  }
  g_string_append_printf (out, "; sign agreement: %u/%u; mean |error| %.2f pp, max |error| "
                          "%.2f pp%s%s%s", s->signs, s->rows - s->errors, s->mean_abs_pp,
                          s->max_abs_pp, s->max_row ? " (" : "", s->max_row ? s->max_row : "",
                          s->max_row ? ")" : "");
  if (s->errors)
    g_string_append_printf (out, "; %u run errors", s->errors);
  if (s->noisy_misses)
    g_string_append_printf (out, "; misses inside the recorded delta's 95 %% interval: %u of "
                            "the %u with one", s->misses_within_noise, s->noisy_misses);
  if (s->noisy_passes)
    g_string_append_printf (out, "; passes outside the recorded delta's 95 %% interval: %u "
                            "of the %u with one",
                            s->passes_outside_noise, s->noisy_passes);
  if (s->near_boundary)
    g_string_append_printf (out, "; verdicts within %.1f pp (or a run's one-operation step) "
                            "of their boundary: %u (nearest %s, "
                            "%s by %.2f pp)", NS_VAL_NEAR_PP, s->near_boundary,
                            s->nearest_row, s->nearest_margin_pp >= 0 ? "inside" : "outside",
                            fabs (s->nearest_margin_pp));
  if (s->baselines)
    g_string_append_printf (out, "; simulated baselines within their file's stated tolerance "
                            "of the recorded: %u/%u (farthest %s, %+.2f %% against ±%g %%)",
                            s->baselines_within, s->baselines, s->baseline_worst_row,
                            s->baseline_worst_pct, s->baseline_worst_tol_pct);
  g_string_append_c (out, '\n');
}

/* TRUE if an entry of provenance before i has the stale note of entry i (one value is
 * listed from each scope that sets it: profile, scenario, run). */
static gboolean
stale_noted (GPtrArray *provenance, guint i)
{
  const char *note = ((const NsValProvenance *) provenance->pdata[i])->stale;

  for (guint k = 0; k < i; k++)
    if (!g_strcmp0 (((const NsValProvenance *) provenance->pdata[k])->stale, note))
      return TRUE;
  return FALSE;
}

/* Appends a line naming every row that ran whose simulated baseline lies outside its
 * file's stated tolerance (none: nothing). */
static void
baselines_outside_line (GString *out, const NsValReport *r)
{
  const char *sep = "";
  gboolean any = FALSE;

  for (guint i = 0; i < r->outcomes->len; i++) {
    const NsValOutcome *o = r->outcomes->pdata[i];
    if (!outcome_ran (o) || o->row->baseline_tolerance_pct < 0 || o->baseline_within)
      continue;
    if (!any)
      g_string_append (out, "simulated baselines outside their file's stated tolerance: ");
    any = TRUE;
    g_string_append_printf (out, "%s%s %+.2f %% (±%g %%, %s)", sep, o->row->id,
                            o->baseline_error_pct, o->row->baseline_tolerance_pct,
                            set_name (o));
    sep = ", ";
  }
  if (any)
    g_string_append_c (out, '\n');
}

/* How many of the "NAME = VALUE: CPU…" lines name a CPU that borrows the value. */
static guint
borrowed_lines (GPtrArray *lines)
{
  guint n = 0;

  for (guint i = 0; i < lines->len; i++) {
    const char *cpus = strstr (lines->pdata[i], ": ");
    if (cpus != NULL && strchr (cpus, '*') != NULL)
      n++;
  }
  return n;
}

/* Appends both sets' summary lines, the not-modelled count, stale-fit notes and conflicts. */
static void
table_summary (GString *out, const NsValReport *r)
{
  g_string_append_c (out, '\n');
  summary_line (out, "validation", &r->validation);
  summary_line (out, "calibration", &r->calibration);
  baselines_outside_line (out, r);
  g_string_append_printf (out, "rows not modelled: %u of %u\n", r->not_modelled,
                          r->outcomes->len);
  if (r->unsourced->len > 0)
    g_string_append_printf (out, "unsourced values in the parameter sets the runs used (%u, "
                            "charged or not; a reasoned default or a stated choice, in a "
                            "profile or the registry; a CPU marked * borrows the value, "
                            "measured or derived on another core, in %u of them):\n",
                            r->unsourced->len,
                            borrowed_lines (r->unsourced));
  for (guint i = 0; i < r->unsourced->len; i++)
    g_string_append_printf (out, "  %s\n", (const char *) r->unsourced->pdata[i]);
  if (r->unstated->len > 0)
    g_string_append_printf (out, "kernel .config options the runs took without their "
                            "scenario stating them (%u; the model's default for each, by "
                            "CPU profile):\n", r->unstated->len);
  for (guint i = 0; i < r->unstated->len; i++)
    g_string_append_printf (out, "  %s\n", (const char *) r->unstated->pdata[i]);
  for (guint i = 0; i < r->provenance->len; i++) {
    const NsValProvenance *pv = r->provenance->pdata[i];
    if (pv->stale && !stale_noted (r->provenance, i))
      g_string_append_printf (out, "note: %s\n", pv->stale);
    if (pv->drifted)
      g_string_append_printf (out, "FIT NO LONGER HOLDS: %s\n", pv->drifted);
  }
  if (r->conflicts->len == 0)
    return;
  g_string_append_printf (out, "conflicts with the calibration rule (rows fitted and counted "
                          "as validation, values set for one row, values off their recorded "
                          "fit) (%u):\n", r->conflicts->len);
  for (guint i = 0; i < r->conflicts->len; i++)
    g_string_append_printf (out, "  %s\n", (const char *) r->conflicts->pdata[i]);
}

/* Appends, after --run-seeds, each row's passes and simulated delta range over the run
 * seeds, and the rows whose verdict the seed decides. */
static void
table_seed_spread (GString *out, const NsValReport *r)
{
  GString *changing = g_string_new (NULL);
  guint n_changing = 0;

  if (r->run_seeds == 0)
    return;
  g_string_append_printf (out, "\nover run seeds 1-%u (each row run again with --set seed=K: "
                          "its own slab layout, page frames and workload draws; the table "
                          "above is the scenarios' own seeds), per row: seeds passing, "
                          "simulated delta min .. max:\n", r->run_seeds);
  for (guint i = 0; i < r->outcomes->len; i++) {
    const NsValOutcome *o = r->outcomes->pdata[i];
    if (o->seeds_ran == 0)
      continue;
    g_string_append_printf (out, "  %-25s %3u/%-3u %+9.2f .. %+9.2f\n", o->row->id,
                            o->seeds_passing, o->seeds_ran, o->seeds_delta_min_pct,
                            o->seeds_delta_max_pct);
    if (o->seeds_passing > 0 && o->seeds_passing < o->seeds_ran) {
      g_string_append_printf (changing, "%s%s passes on %u of %u", n_changing ? "; " : "",
                              o->row->id, o->seeds_passing, o->seeds_ran);
      n_changing++;
    }
  }
  g_string_append_printf (out, "verdicts the run seed decides: %u%s%s%s\n", n_changing,
                          n_changing ? " (" : "", changing->str, n_changing ? ")" : "");
  g_string_free (changing, TRUE);
}

/* Appends each line of r's what-if after prefix; FALSE if there is none. */
static gboolean
write_what_if (GString *out, const NsValReport *r, const char *prefix)
{
  for (guint i = 0; r->what_if && r->what_if[i]; i++)
    g_string_append_printf (out, "%s%s\n", prefix, r->what_if[i]);
  return r->what_if && r->what_if[0];
}

/* Appends the report as a table: header, what-if lines, one line per row, reasons, pairs
 * and summary. */
static void
write_table (GString *out, const NsValReport *r)
{
  g_string_append_printf (out, "validation against the recorded hardware results in %s\n"
                          "tolerance: max(%.0f pp, %.0f %% of |recorded delta|) unless the row "
                          "states a tighter one; deltas in %%, error in percentage points\n"
                          "rec ci95: half-width of the recorded delta's 95 %% interval, from "
                          "the thread's CVs and runs (- where it gives none)\n\n",
                          ns_validation_dir (r->v), NS_VAL_TOLERANCE_MIN_PP,
                          100 * NS_VAL_TOLERANCE_FRACTION);
  if (write_what_if (out, r, "WHAT-IF: "))
    g_string_append_c (out, '\n');
  g_string_append_printf (out, "%-25s %-4s %-16s %-36s %12s %12s %9s %8s %12s %12s %9s %8s %5s "
                          "%-11s %s\n", "row", "seed", "cpu", "variant", "rec baseline",
                          "rec patched", "rec delta", "rec ci95", "sim baseline", "sim patched",
                          "sim delta", "error", "tol", "set", "status");
  for (guint i = 0; i < r->outcomes->len; i++)
    table_row (out, r->outcomes->pdata[i]);
  table_runs_of (out, r, TRUE, "counted as calibration, as their runs are a calibration "
                 "row's (the same scenario document once the sets are made; another "
                 "recording of a fitted run is no evidence)");
  table_runs_of (out, r, FALSE, "validation rows that run another validation row's runs "
                 "(one prediction judged against two recordings; each row is counted)");
  table_reasons (out, r, NS_VAL_NOT_MODELLED, "not modelled");
  table_reasons (out, r, NS_VAL_ERROR, "run errors");
  table_pairs (out, r);
  table_seed_spread (out, r);
  table_summary (out, r);
}

/* ---- CSV */

/* Appends value in format (C locale) if the outcome ran; appends nothing otherwise. */
static void
csv_number (GString *out, const NsValOutcome *o, double value, const char *format)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (outcome_ran (o))
    g_string_append (out, g_ascii_formatd (buf, sizeof buf, format, value));
}

static const char csv_header[] =
  "# netsim validate: one line per recorded row (lines starting with # are comments).\n"
  "# row: recorded row id; seed: seed thread number; file: the seed thread; cpu: the CPU as\n"
  "#   recorded; profile: the netsim CPU profile modelling it; variant: what the row varies;\n"
  "#   unit: unit of the recorded figures\n"
  "# recorded_baseline, recorded_patched: figures exactly as printed in the thread;\n"
  "#   recorded_delta_pct: 100 x (patched / baseline - 1) of those; printed_delta: the delta\n"
  "#   as the thread prints it (empty if it prints none)\n"
  "# simulated_baseline, simulated_patched: metric of the baseline and patched variants (as\n"
  "#   netsim run prints them, times the case's unit-scale); simulated_delta_pct: as netsim\n"
  "#   run's comparison; error_pp: simulated minus recorded delta, percentage points;\n"
  "#   tolerance_pp: max(3, 10 % of |recorded delta|) or the row's stated one\n"
  "# set: calibration (named by calibration.xml, or running the same two scenario documents\n"
  "#   as a row it names) or validation; status: pass, fail, not-modelled or error;\n"
  "#   sign_agrees: a recorded rise or fall: the same strict sign; a recorded |delta| < 1 pp\n"
  "#     (no change): a simulated one\n"
  "# scenario, baseline_variant, patched_variant, metric, sets: the case; reason: why a row\n"
  "#   is not modelled, what went wrong, or whose runs the row's are (a calibration row's\n"
  "#   if calibration.xml does not name it, or an earlier validation row's: one simulation\n"
  "#   judged against two recordings); recorded_delta_ci95_pp: half-width of the\n"
  "#   recorded delta's 95 % interval, from the thread's CVs and runs (empty if none)\n";

/* The reason column: why the row is not modelled or what went wrong, else for a row
 * counted as calibration for its runs whose runs they are; NULL if neither. */
static char *
outcome_note (const NsValOutcome *o)
{
  if (o->reason != NULL)
    return g_strdup (o->reason);
  if (o->same_runs_as != NULL)
    return g_strdup_printf ("counted as calibration: its runs are those of %s", o->same_runs_as);
  if (o->shares_runs_with != NULL)
    return g_strdup_printf ("its runs are those of %s: the same simulation judged against "
                            "this row's recorded figures", o->shares_runs_with);
  return NULL;
}

/* Appends the --run-seeds columns of o: seeds run, passing, delta min and max (the
 * figures empty if none ran). */
static void
csv_seed_spread (GString *out, const NsValOutcome *o)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append_printf (out, ",%u,%u,", o->seeds_ran, o->seeds_passing);
  if (o->seeds_ran > 0)
    g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.6f", o->seeds_delta_min_pct));
  g_string_append_c (out, ',');
  if (o->seeds_ran > 0)
    g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.6f", o->seeds_delta_max_pct));
}

/* Appends the CSV line of one outcome, in the column order write_csv writes (with the
 * --run-seeds columns if run_seeds > 0). */
static void
csv_row (GString *out, const NsValOutcome *o, guint run_seeds)
{
  const NsRecordedRow *row = o->row;
  const NsValCase *c = o->vcase;
  g_autofree char *sets = c && c->sets ? g_strjoinv (" ", c->sets) : NULL;
  const char *fields[] = { row->id, row->seed, row->file, row->setup.cpu, row->setup.profile,
                           row->variant, row->unit, row->baseline_text, row->patched_text };
  g_autofree char *note = outcome_note (o);
  const char *case_fields[] = { c ? c->scenario : NULL, c ? c->baseline : NULL,
                                c ? c->patched : NULL, c ? c->metric : NULL, sets, note };
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  ns_csv_fields (out, fields, G_N_ELEMENTS (fields));
  g_string_append_printf (out, ",%s,", g_ascii_formatd (buf, sizeof buf, "%.4f", row->delta_pct));
  ns_csv_field (out, row->printed_delta);
  g_string_append_c (out, ',');
  csv_number (out, o, o->sim_baseline, "%.10g");
  g_string_append_c (out, ',');
  csv_number (out, o, o->sim_patched, "%.10g");
  g_string_append_c (out, ',');
  csv_number (out, o, o->sim_delta_pct, "%.6f");
  g_string_append_c (out, ',');
  csv_number (out, o, o->error_pp, "%.4f");
  g_string_append_printf (out, ",%s,%s,%s,%s,", g_ascii_formatd (buf, sizeof buf, "%.4f",
                          o->tolerance_pp), set_name (o), ns_val_status_name (o->status),
                          outcome_ran (o) ? (o->sign_agrees ? "yes" : "no") : "");
  ns_csv_fields (out, case_fields, G_N_ELEMENTS (case_fields));
  g_string_append_c (out, ',');
  if (row->delta_ci95_pp >= 0)
    g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.4f", row->delta_ci95_pp));
  if (run_seeds > 0)
    csv_seed_spread (out, o);
  g_string_append_c (out, '\n');
}

/* Appends the report as CSV: the commented header, the column names, one line per row,
 * then the table summary as # comment lines. */
static void
write_csv (GString *out, const NsValReport *r)
{
  GString *summary = g_string_new (NULL);
  g_auto (GStrv) lines = NULL;

  g_string_append (out, csv_header);
  if (r->run_seeds > 0)
    g_string_append (out, "# seeds_run, seeds_passing: with --run-seeds N, how many run seeds "
                     "ran the row and how many of\n#   them passed it; seeds_delta_min_pct, "
                     "seeds_delta_max_pct: the range of their simulated deltas\n");
  for (guint i = 0; r->what_if && r->what_if[i]; i++)
    ns_csv_comment (out, "what-if: %s", r->what_if[i]);
  g_string_append_printf (out, "row,seed,file,cpu,profile,variant,unit,recorded_baseline,"
                   "recorded_patched,recorded_delta_pct,printed_delta,simulated_baseline,"
                   "simulated_patched,simulated_delta_pct,error_pp,tolerance_pp,set,status,"
                   "sign_agrees,scenario,baseline_variant,patched_variant,metric,sets,reason,"
                   "recorded_delta_ci95_pp%s\n", r->run_seeds > 0 ? ",seeds_run,seeds_passing,"
                   "seeds_delta_min_pct,seeds_delta_max_pct" : "");
  for (guint i = 0; i < r->outcomes->len; i++)
    csv_row (out, r->outcomes->pdata[i], r->run_seeds);
  table_summary (summary, r);
  lines = g_strsplit (g_strstrip (summary->str), "\n", -1);
  for (guint i = 0; lines[i]; i++)
    g_string_append_printf (out, "# %s\n", lines[i]);
  g_string_free (summary, TRUE);
}

/* ---- JSON */

/* An array of char* as a JSON array of strings. */
static void
json_lines (NsJson *json, GPtrArray *lines)
{
  ns_json_begin_array (json);
  for (guint i = 0; i < lines->len; i++)
    ns_json_string (json, lines->pdata[i]);
  ns_json_end_array (json);
}

/* Writes a set-up as a JSON object: its attributes, then its items. */
static void
json_setup (NsJson *json, const NsSetup *s)
{
  ns_json_begin_object (json);
  ns_json_member_string (json, "tool", s->tool);
  ns_json_member_string (json, "command", s->command);
  ns_json_member_string (json, "cpu", s->cpu);
  ns_json_member_string (json, "profile", s->profile);
  ns_json_member_string (json, "kernel", s->kernel);
  ns_json_member_string (json, "mitigations", s->mitigations);
  ns_json_key (json, "items");
  ns_json_begin_array (json);
  for (guint i = 0; i < s->items->len; i++) {
    const NsSetupItem *item = s->items->pdata[i];
    ns_json_begin_object (json);
    ns_json_member_string (json, "kind", item->kind);
    ns_json_member_string (json, "name", item->name);
    ns_json_member_string (json, "value", item->value);
    if (item->unit)
      ns_json_member_string (json, "unit", item->unit);
    ns_json_end_object (json);
  }
  ns_json_end_array (json);
  ns_json_end_object (json);
}

/* Writes a row's recorded figures as a JSON object (delta_ci95_pp null when unknown). */
static void
json_recorded (NsJson *json, const NsRecordedRow *row)
{
  ns_json_begin_object (json);
  ns_json_member_string (json, "baseline", row->baseline_text);
  ns_json_member_string (json, "patched", row->patched_text);
  ns_json_member_string (json, "baseline_cv", row->baseline_cv);
  ns_json_member_string (json, "patched_cv", row->patched_cv);
  ns_json_member_string (json, "printed_delta", row->printed_delta);
  ns_json_member_double (json, "delta_pct", row->delta_pct);
  ns_json_member_int (json, "runs", row->runs);
  ns_json_member_double (json, "delta_ci95_pp", row->delta_ci95_pp >= 0 ? row->delta_ci95_pp
                         : NAN);
  ns_json_member_string (json, "unit", row->unit);
  ns_json_member_string (json, "statistic", row->statistic);
  ns_json_end_object (json);
}

/* Writes the outcome's case as a JSON object with its reproduce command; null if no case. */
static void
json_case (NsJson *json, const NsValOutcome *o)
{
  const NsValCase *c = o->vcase;
  g_autofree char *reproduce = reproduce_command (o);

  if (c == NULL) {
    ns_json_string (json, NULL);
    return;
  }
  ns_json_begin_object (json);
  ns_json_member_string (json, "where", c->where);
  ns_json_member_string (json, "scenario", c->scenario);
  ns_json_member_string (json, "baseline_variant", c->baseline);
  ns_json_member_string (json, "patched_variant", c->patched);
  ns_json_member_string (json, "metric", c->metric);
  ns_json_member_double (json, "unit_scale", c->unit_scale);
  ns_json_member_strv (json, "sets", c->sets);
  ns_json_member_string (json, "reason", c->reason);
  ns_json_member_string (json, "note", c->note);
  ns_json_member_string (json, "reproduce", reproduce[0] ? reproduce : NULL);
  ns_json_end_object (json);
}

/* Writes one variant run as a JSON object, with its free parameters. */
static void
json_run (NsJson *json, const NsValRun *run)
{
  ns_json_begin_object (json);
  ns_json_member_double (json, "value", run->value);
  ns_json_member_double (json, "cv", run->cv);
  ns_json_member_int (json, "repetitions", run->reps);
  ns_json_member_int (json, "operations", (gint64) run->ops);
  ns_json_member_string (json, "metric", run->metric);
  ns_json_member_string (json, "cpu", run->cpu);
  ns_json_member_string (json, "kernel", run->kernel);
  ns_json_member_string (json, "cmdline", run->cmdline);
  ns_json_member_string (json, "mitigations", run->mitigations);
  ns_json_key (json, "free_parameters");
  ns_json_begin_array (json);
  for (guint i = 0; i < run->free_params->len; i++) {
    const NsValParam *p = run->free_params->pdata[i];
    ns_json_begin_object (json);
    ns_json_member_string (json, "name", p->name);
    ns_json_member_string (json, "value", p->value);
    ns_json_member_string (json, "source", p->source);
    ns_json_end_object (json);
  }
  ns_json_end_array (json);
  ns_json_end_object (json);
}

/* Writes the simulated figures and both runs as a JSON object; null if nothing ran. */
static void
json_simulated (NsJson *json, const NsValOutcome *o)
{
  if (o->baseline_run == NULL) {
    ns_json_string (json, NULL);
    return;
  }
  ns_json_begin_object (json);
  ns_json_member_double (json, "baseline", o->sim_baseline);
  ns_json_member_double (json, "patched", o->sim_patched);
  ns_json_member_double (json, "delta_pct", outcome_ran (o) ? o->sim_delta_pct : NAN);
  ns_json_key (json, "baseline_run");
  json_run (json, o->baseline_run);
  ns_json_key (json, "patched_run");
  json_run (json, o->patched_run);
  ns_json_end_object (json);
}

/* Writes o's spread over the run seeds (null without --run-seeds). */
static void
json_seed_spread (NsJson *json, const NsValOutcome *o, guint run_seeds)
{
  if (run_seeds == 0) {
    ns_json_string (json, NULL);
    return;
  }
  ns_json_begin_object (json);
  ns_json_member_int (json, "seeds", run_seeds);
  ns_json_member_int (json, "ran", o->seeds_ran);
  ns_json_member_int (json, "passing", o->seeds_passing);
  ns_json_member_double (json, "delta_min_pct", o->seeds_ran ? o->seeds_delta_min_pct : NAN);
  ns_json_member_double (json, "delta_max_pct", o->seeds_ran ? o->seeds_delta_max_pct : NAN);
  ns_json_end_object (json);
}

/* Writes one outcome as a JSON object: the row, its set-up, recorded figures, case,
 * simulated figures, verdict and (run_seeds > 0) its spread over the run seeds. */
static void
json_outcome (NsJson *json, const NsValOutcome *o, guint run_seeds)
{
  const NsRecordedRow *row = o->row;

  ns_json_begin_object (json);
  ns_json_member_string (json, "row", row->id);
  ns_json_member_string (json, "seed", row->seed);
  ns_json_member_string (json, "file", row->file);
  ns_json_member_string (json, "where", row->where);
  ns_json_member_string (json, "table", row->table);
  ns_json_member_string (json, "variant", row->variant);
  ns_json_member_string (json, "source", row->source);
  ns_json_key (json, "setup");
  json_setup (json, &row->setup);
  ns_json_key (json, "recorded");
  json_recorded (json, row);
  ns_json_key (json, "case");
  json_case (json, o);
  ns_json_key (json, "simulated");
  json_simulated (json, o);
  ns_json_member_double (json, "error_pp", outcome_ran (o) ? o->error_pp : NAN);
  ns_json_member_double (json, "tolerance_pp", o->tolerance_pp);
  ns_json_key (json, "sign_agrees");
  if (outcome_ran (o))
    ns_json_bool (json, o->sign_agrees);
  else
    ns_json_string (json, NULL);
  ns_json_key (json, "inside_recorded_interval");
  if (outcome_ran (o) && o->row->delta_ci95_pp >= 0)
    ns_json_bool (json, o->within_noise);
  else
    ns_json_string (json, NULL);
  ns_json_member_double (json, "baseline_error_pct",
                         outcome_ran (o) ? o->baseline_error_pct : NAN);
  ns_json_member_double (json, "baseline_tolerance_pct",
                         o->row->baseline_tolerance_pct >= 0 ? o->row->baseline_tolerance_pct
                                                             : NAN);
  ns_json_key (json, "baseline_within_tolerance");
  if (outcome_ran (o) && o->row->baseline_tolerance_pct >= 0)
    ns_json_bool (json, o->baseline_within);
  else
    ns_json_string (json, NULL);
  ns_json_member_string (json, "set", set_name (o));
  ns_json_member_string (json, "status", ns_val_status_name (o->status));
  ns_json_member_string (json, "reason", o->reason);
  ns_json_member_string (json, "same_runs_as", o->same_runs_as);
  ns_json_member_string (json, "shares_runs_with", o->shares_runs_with);
  ns_json_key (json, "run_seeds");
  json_seed_spread (json, o, run_seeds);
  ns_json_end_object (json);
}

/* Writes one set's summary as a JSON object (the |error| figures null if no row ran). */
static void
json_summary (NsJson *json, const NsValSummary *s)
{
  ns_json_begin_object (json);
  ns_json_member_int (json, "rows", s->rows);
  ns_json_member_int (json, "within_tolerance", s->within);
  ns_json_member_int (json, "run_errors", s->errors);
  ns_json_member_int (json, "sign_agreement", s->signs);
  ns_json_member_int (json, "rows_on_another_rows_runs", s->shared_runs);
  ns_json_member_double (json, "mean_abs_error_pp", s->rows > s->errors ? s->mean_abs_pp : NAN);
  ns_json_member_double (json, "max_abs_error_pp", s->rows > s->errors ? s->max_abs_pp : NAN);
  ns_json_member_string (json, "max_abs_error_row", s->max_row);
  ns_json_member_int (json, "misses_with_recorded_interval", s->noisy_misses);
  ns_json_member_int (json, "misses_inside_recorded_interval", s->misses_within_noise);
  ns_json_member_int (json, "passes_with_recorded_interval", s->noisy_passes);
  ns_json_member_int (json, "passes_outside_recorded_interval", s->passes_outside_noise);
  ns_json_member_int (json, "verdicts_near_boundary", s->near_boundary);
  ns_json_member_string (json, "nearest_boundary_row", s->nearest_row);
  ns_json_member_double (json, "nearest_boundary_margin_pp",
                         s->nearest_row ? s->nearest_margin_pp : NAN);
  ns_json_member_int (json, "baselines_with_tolerance", s->baselines);
  ns_json_member_int (json, "baselines_within_tolerance", s->baselines_within);
  ns_json_member_string (json, "baseline_farthest_row", s->baseline_worst_row);
  ns_json_member_double (json, "baseline_farthest_error_pct",
                         s->baseline_worst_row ? s->baseline_worst_pct : NAN);
  ns_json_end_object (json);
}

/* Per CPU profile: its free parameters, whether and on which rows each was fitted. */
static void
json_provenance (NsJson *json, const NsValReport *r)
{
  ns_json_begin_array (json);
  for (guint i = 0; i < r->provenance->len; i++) {
    const NsValProvenance *pv = r->provenance->pdata[i];
    if (i == 0 || strcmp (pv->profile, ((NsValProvenance *) r->provenance->pdata[i - 1])->profile)) {
      if (i > 0) {
        ns_json_end_array (json);
        ns_json_end_object (json);
      }
      ns_json_begin_object (json);
      ns_json_member_string (json, "profile", pv->profile);
      ns_json_key (json, "free_parameters");
      ns_json_begin_array (json);
    }
    ns_json_begin_object (json);
    ns_json_member_string (json, "name", pv->param);
    ns_json_member_string (json, "value", pv->value);
    ns_json_member_string (json, "source", pv->source);
    ns_json_member_string (json, "scope", pv->scope);
    ns_json_member_bool (json, "fitted", pv->fitted);
    ns_json_member_bool (json, "recorded_in_calibration_xml", pv->recorded);
    ns_json_member_string (json, "stale_record", pv->stale);
    ns_json_member_string (json, "fit_no_longer_holds", pv->drifted);
    ns_json_member_strv (json, "fitted_on_rows", pv->rows);
    ns_json_member_string (json, "residual", pv->residual);
    ns_json_end_object (json);
  }
  if (r->provenance->len > 0) {
    ns_json_end_array (json);
    ns_json_end_object (json);
  }
  ns_json_end_array (json);
}

/* Writes every fit of v's calibration.xml as a JSON array of objects. */
static void
json_fits (NsJson *json, const NsValidation *v)
{
  ns_json_begin_array (json);
  for (guint i = 0; i < v->fits->len; i++) {
    const NsValFit *f = v->fits->pdata[i];
    ns_json_begin_object (json);
    ns_json_member_string (json, "profile", f->profile);
    ns_json_member_string (json, "param", f->param);
    ns_json_member_string (json, "value", f->value);
    ns_json_member_string (json, "residual", f->residual);
    ns_json_member_string (json, "target", f->target);
    ns_json_member_strv (json, "rows", f->rows);
    ns_json_end_object (json);
  }
  ns_json_end_array (json);
}

/* TRUE if some selected row comes from seed (its facts, pairs and notes are written). */
static gboolean
seed_selected (const NsValReport *r, const char *seed)
{
  for (guint i = 0; i < r->outcomes->len; i++)
    if (!strcmp (((NsValOutcome *) r->outcomes->pdata[i])->row->seed, seed))
      return TRUE;
  return FALSE;
}

/* Writes the facts of the seeds that have a selected row as a JSON array. */
static void
json_facts (NsJson *json, const NsValReport *r)
{
  ns_json_begin_array (json);
  for (guint i = 0; i < r->v->facts->len; i++) {
    const NsValFact *f = r->v->facts->pdata[i];
    if (!seed_selected (r, f->seed))
      continue;
    ns_json_begin_object (json);
    ns_json_member_string (json, "seed", f->seed);
    ns_json_member_string (json, "name", f->name);
    ns_json_member_string (json, "unit", f->unit);
    ns_json_member_string (json, "baseline", f->baseline);
    ns_json_member_string (json, "patched", f->patched);
    ns_json_member_string (json, "source", f->source);
    ns_json_end_object (json);
  }
  ns_json_end_array (json);
}

/* Writes the pairs whose two rows are both selected as a JSON array, with the recorded and
 * simulated deltas (simulated null unless both rows ran) and whether the simulated one lies
 * inside the recorded interval (null without one). */
static void
json_pairs (NsJson *json, const NsValReport *r)
{
  ns_json_begin_array (json);
  for (guint i = 0; i < r->v->pairs->len; i++) {
    const NsValPair *p = r->v->pairs->pdata[i];
    double rec, ci, sim;
    gboolean ran;
    if (!find_outcome (r, p->row[0]) || !find_outcome (r, p->row[1]))
      continue;
    ran = pair_figures (r, p, &rec, &ci, &sim);
    ns_json_begin_object (json);
    ns_json_member_string (json, "id", p->id);
    ns_json_member_string (json, "label", p->label);
    ns_json_member_string (json, "source", p->source);
    ns_json_key (json, "refs");
    ns_json_begin_array (json);
    for (int k = 0; k < 2; k++) {
      ns_json_begin_object (json);
      ns_json_member_string (json, "row", p->row[k]);
      ns_json_member_string (json, "side", p->side[k]);
      ns_json_end_object (json);
    }
    ns_json_end_array (json);
    ns_json_member_double (json, "recorded_delta_pct", rec);
    ns_json_member_double (json, "recorded_delta_ci95_pp", ci >= 0 ? ci : NAN);
    ns_json_member_double (json, "simulated_delta_pct", ran ? sim : NAN);
    ns_json_key (json, "inside_recorded_interval");
    if (ran && ci >= 0)
      ns_json_bool (json, pair_inside (rec, ci, sim));
    else
      ns_json_string (json, NULL);
    ns_json_end_object (json);
  }
  ns_json_end_array (json);
}

/* Writes the notes of the seeds that have a selected row as a JSON array. */
static void
json_notes (NsJson *json, const NsValReport *r)
{
  ns_json_begin_array (json);
  for (guint i = 0; i < r->v->notes->len; i++) {
    const NsValNote *n = r->v->notes->pdata[i];
    if (!seed_selected (r, n->seed))
      continue;
    ns_json_begin_object (json);
    ns_json_member_string (json, "seed", n->seed);
    ns_json_member_string (json, "source", n->source);
    ns_json_member_string (json, "text", n->text);
    ns_json_end_object (json);
  }
  ns_json_end_array (json);
}

/* Appends the whole report as one JSON object: rows, summary, conflicts, profiles,
 * calibration, pairs, facts and notes. */
static void
write_json (GString *out, const NsValReport *r)
{
  NsJson *json = ns_json_new (out);

  ns_json_begin_object (json);
  ns_json_member_string (json, "netsim_version", PACKAGE_VERSION);
  ns_json_member_string (json, "recorded", ns_validation_dir (r->v));
  ns_json_member_string (json, "tolerance_rule", "max(3 pp, 10 % of |recorded delta|) unless "
                         "the row states a tighter one");
  ns_json_key (json, "what_if");
  ns_json_begin_array (json);
  for (guint i = 0; r->what_if && r->what_if[i]; i++)
    ns_json_string (json, r->what_if[i]);
  ns_json_end_array (json);
  ns_json_key (json, "rows");
  ns_json_begin_array (json);
  for (guint i = 0; i < r->outcomes->len; i++)
    json_outcome (json, r->outcomes->pdata[i], r->run_seeds);
  ns_json_end_array (json);
  ns_json_key (json, "summary");
  ns_json_begin_object (json);
  ns_json_key (json, "validation");
  json_summary (json, &r->validation);
  ns_json_key (json, "calibration");
  json_summary (json, &r->calibration);
  ns_json_member_int (json, "not_modelled", r->not_modelled);
  ns_json_member_int (json, "rows_total", r->outcomes->len);
  ns_json_end_object (json);
  ns_json_key (json, "conflicts");
  json_lines (json, r->conflicts);
  ns_json_key (json, "unsourced");
  json_lines (json, r->unsourced);
  ns_json_key (json, "unstated_config");
  json_lines (json, r->unstated);
  ns_json_key (json, "profiles");
  json_provenance (json, r);
  ns_json_key (json, "calibration");
  json_fits (json, r->v);
  ns_json_key (json, "pairs");
  json_pairs (json, r);
  ns_json_key (json, "facts");
  json_facts (json, r);
  ns_json_key (json, "notes");
  json_notes (json, r);
  ns_json_end_object (json);
  ns_json_free (json);
}

/* Writes the report in the chosen format; see validate.h. */
void
ns_validation_write (GString *out, const NsValReport *report, NsFormat format)
{
  g_return_if_fail (out != NULL && report != NULL);
  switch (format) {
  case NS_FORMAT_TABLE:
    write_table (out, report);
    break;
  case NS_FORMAT_CSV:
    write_csv (out, report);
    break;
  case NS_FORMAT_JSON:
    write_json (out, report);
    break;
  }
}

/* ------------------------------------------------------------------------------------ */
/* Expected results. */

/* Index of the column called name in the NULL-terminated header, or -1 if absent. */
static gint
column_of (char **header, const char *name)
{
  for (guint i = 0; header[i]; i++)
    if (!strcmp (header[i], name))
      return (gint) i;
  return -1;
}

/* One row of an expected-results CSV: its status, simulated figures as printed and set. */
typedef struct {
  char *status;
  char *baseline;
  char *patched;
  char *set;
} ExpectedRow;

/* Frees an ExpectedRow. */
static void
expected_row_free (gpointer p)
{
  ExpectedRow *e = p;

  g_free (e->status);
  g_free (e->baseline);
  g_free (e->patched);
  g_free (e->set);
  g_free (e);
}

/* TRUE if status is one ns_val_status_name gives. */
static gboolean
known_status (const char *status)
{
  for (NsValStatus s = NS_VAL_PASS; s <= NS_VAL_ERROR; s++)
    if (!strcmp (status, ns_val_status_name (s)))
      return TRUE;
  return FALSE;
}

/* Checks the simulated figure in column k of a data line of an expected-results CSV
 * (fields f, at lineno, status in column col[1]): a finite decimal number where the row
 * ran (pass, fail), empty where it did not, as --format csv prints them; FALSE with a
 * PATH:LINE error if not. */
static gboolean
expected_figure_ok (const char *path, guint lineno, char **f, const gint *col, gint k,
                    GError **error)
{
  gboolean ran = !strcmp (f[col[1]], "pass") || !strcmp (f[col[1]], "fail");
  double x;

  if (ran ? ns_parse_decimal (f[k], &x) : f[k][0] == '\0')
    return TRUE;
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s:%u: row %s, status %s: %s '%s' is not "
               "what --format csv prints (%s)", path, lineno, f[col[0]], f[col[1]],
               k == col[2] ? "simulated_baseline" : "simulated_patched", f[k],
               ran ? "a number where the row ran" : "nothing where the row did not run");
  return FALSE;
}

/* Checks one data line of an expected-results CSV (fields f, at lineno): as many fields as
 * the header, a known status, a row not seen before, figures as --format csv prints them
 * (expected_figure_ok); FALSE with a PATH:LINE error if not. */
static gboolean
expected_line_ok (const char *path, guint lineno, char **f, char **header, const gint *col,
                  GHashTable *expected, GError **error)
{
  if (g_strv_length (f) != g_strv_length (header)) {
    g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s:%u: %u fields where the header has %u "
                 "(a line cut short or edited?)", path, lineno, g_strv_length (f),
                 g_strv_length (header));
    return FALSE;
  }
  if (!known_status (f[col[1]])) {
    g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s:%u: status '%s' is not one of pass, "
                 "fail, not-modelled, error", path, lineno, f[col[1]]);
    return FALSE;
  }
  if (g_hash_table_contains (expected, f[col[0]])) {
    g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s:%u: row %s is listed twice", path,
                 lineno, f[col[0]]);
    return FALSE;
  }
  return expected_figure_ok (path, lineno, f, col, col[2], error) &&
         expected_figure_ok (path, lineno, f, col, col[3], error);
}

/* Reads row id → ExpectedRow from a CSV written by --format csv: every row whole, with a
 * known status, once; at least one. */
static GHashTable *
read_expected (const char *path, GError **error)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL, header = NULL;
  GHashTable *expected;
  gint col[5] = { -1, -1, -1, -1, -1 };   /* row, status, simulated baseline, patched, set */
  static const char *const names[5] = { "row", "status", "simulated_baseline",
                                        "simulated_patched", "set" };

  if (!g_file_get_contents (path, &text, NULL, error))
    return NULL;
  expected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, expected_row_free);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++) {
    g_auto (GStrv) f = NULL;
    ExpectedRow *e;
    if (lines[i][0] == '#' || lines[i][0] == '\0')
      continue;
    f = ns_csv_split (lines[i]);
    if (header == NULL) {
      header = g_steal_pointer (&f);
      for (guint k = 0; k < G_N_ELEMENTS (names); k++)
        if ((col[k] = column_of (header, names[k])) < 0)
          goto bad_header;
      continue;
    }
    if (!expected_line_ok (path, i + 1, f, header, col, expected, error))
      goto fail;
    e = g_new0 (ExpectedRow, 1);
    e->status = g_strdup (f[col[1]]);
    e->baseline = g_strdup (f[col[2]]);
    e->patched = g_strdup (f[col[3]]);
    e->set = g_strdup (f[col[4]]);
    g_hash_table_insert (expected, g_strdup (f[col[0]]), e);
  }
  if (header == NULL)
    goto bad_header;
  if (g_hash_table_size (expected) == 0)
    goto no_rows;
  return expected;

/* ERRORS */
no_rows:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s: no rows below the header", path);
  goto fail;
bad_header:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s: expected a CSV written by netsim "
               "validate --format csv (columns row, status, simulated_baseline, "
               "simulated_patched and set)", path);
fail:
  g_hash_table_unref (expected);
  return NULL;
}

/* Reads an expected-results CSV; see validate.h. */
gboolean
ns_validation_read_expected (const char *path, GError **error)
{
  GHashTable *expected = read_expected (path, error);

  if (expected == NULL)
    return FALSE;
  g_hash_table_unref (expected);
  return TRUE;
}

/* TRUE (with a message) if o ran and its simulated figures, printed as --format csv
 * prints them, differ from want's. */
static gboolean
figures_changed (const NsValOutcome *o, const ExpectedRow *want, const char *path,
                 GString *messages)
{
  g_autoptr (GString) baseline = g_string_new (NULL);
  g_autoptr (GString) patched = g_string_new (NULL);

  if (!outcome_ran (o))
    return FALSE;
  csv_number (baseline, o, o->sim_baseline, "%.10g");
  csv_number (patched, o, o->sim_patched, "%.10g");
  if (!strcmp (baseline->str, want->baseline) && !strcmp (patched->str, want->patched))
    return FALSE;
  g_string_append_printf (messages, "changed: %s simulated %s / %s in %s, %s / %s now (as "
                          "--format csv prints them): the model changed, or the file was not "
                          "written by it; write %s again (netsim validate --format csv) "
                          "in a deliberate, explained commit\n", o->row->id, want->baseline,
                          want->patched, path, baseline->str, patched->str, path);
  return TRUE;
}

/* TRUE (with a message) if o's row counts in another set (calibration, validation) than
 * in want: a row that moved between them with unchanged figures is a change too. */
static gboolean
set_changed (const NsValOutcome *o, const ExpectedRow *want, const char *path,
             GString *messages)
{
  if (!strcmp (set_name (o), want->set))
    return FALSE;
  g_string_append_printf (messages, "changed: %s counts as %s in %s, as %s now: what is "
                          "evidence changed; write %s again (netsim validate --format csv) "
                          "in a deliberate, explained commit\n", o->row->id, want->set, path,
                          set_name (o), path);
  return TRUE;
}

/* Counts (with a message each) the rows of expected that ran (pass or fail) and that the
 * report, of every recorded row, no longer has. */
static gint
rows_gone (const NsValReport *report, GHashTable *expected, const char *path,
           GString *messages)
{
  g_autoptr (GHashTable) have = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GList) ids = g_list_sort (g_hash_table_get_keys (expected),
                                       (GCompareFunc) strcmp);
  gint gone = 0;

  for (guint i = 0; i < report->outcomes->len; i++)
    g_hash_table_add (have, ((const NsValOutcome *) report->outcomes->pdata[i])->row->id);
  for (GList *l = ids; l != NULL; l = l->next) {
    const ExpectedRow *e = g_hash_table_lookup (expected, l->data);
    if (g_hash_table_contains (have, l->data) ||
        (strcmp (e->status, "pass") && strcmp (e->status, "fail")))
      continue;
    g_string_append_printf (messages, "regression: %s ran in %s (%s); no recorded row has "
                            "that id now\n", (const char *) l->data, path, e->status);
    gone++;
  }
  return gone;
}

/* Compares the report with expected results; see validate.h. */
gint
ns_validation_check_expected (const NsValReport *report, const char *path, gboolean all_rows,
                              GString *messages, GError **error)
{
  GHashTable *expected = read_expected (path, error);
  gint regressions = 0;

  if (expected == NULL)
    return -1;
  if (all_rows)
    regressions += rows_gone (report, expected, path, messages);
  for (guint i = 0; i < report->outcomes->len; i++) {
    const NsValOutcome *o = report->outcomes->pdata[i];
    const ExpectedRow *e = g_hash_table_lookup (expected, o->row->id);
    const char *want = e ? e->status : NULL;
    const char *got = ns_val_status_name (o->status);
    gboolean bad = FALSE;
    if (want != NULL && !strcmp (want, "pass") && o->status != NS_VAL_PASS) {
      bad = TRUE;
      g_string_append_printf (messages, "regression: %s passed in %s, now %s%s%s\n",
                              o->row->id, path, got, o->reason ? ": " : "",
                              o->reason ? o->reason : "");
    } else if (want != NULL && !strcmp (want, "fail") && !outcome_ran (o)) {
      bad = TRUE;
      g_string_append_printf (messages, "regression: %s ran in %s (fail), now %s%s%s\n",
                              o->row->id, path, got, o->reason ? ": " : "",
                              o->reason ? o->reason : "");
    } else if (want == NULL && (o->status == NS_VAL_FAIL || o->status == NS_VAL_ERROR)) {
      bad = TRUE;               /* a new row must not bring a miss in unseen */
      g_string_append_printf (messages, "regression: %s is absent in %s and %s now%s%s: add "
                              "it (a deliberate, explained commit)\n", o->row->id, path, got,
                              o->reason ? ": " : "", o->reason ? o->reason : "");
    } else if (want == NULL || (strcmp (want, got) && o->status == NS_VAL_PASS)) {
      g_string_append_printf (messages, "note: %s is %s now, %s in %s: update it (a "
                              "deliberate, explained commit)\n", o->row->id, got,
                              want ? want : "absent", path);
    }
    if (e != NULL && figures_changed (o, e, path, messages))
      bad = TRUE;
    if (e != NULL && set_changed (o, e, path, messages))
      bad = TRUE;
    regressions += bad;
  }
  g_hash_table_unref (expected);
  return regressions;
}
