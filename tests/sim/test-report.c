/* test-report.c — run results as table, CSV and JSON (sim/report.c) against report.h and
 * doc/manual.md: on a real run of micro/call-chain.xml (three repetitions, harmonic mean,
 * a parameter set on the command line) the JSON parses (a strict RFC 8259 reader below:
 * json-glib is not a dependency) and holds the sets, every variant with its
 * per-repetition values and stop rules, an aggregate that is the harmonic mean of those
 * values and a CV that is their sd over their mean (both computed here with GSL), every
 * registered parameter with its unit, meaning and source, and comparisons whose delta is
 * (patched − baseline) / baseline; the CSV splits with the project's reader into its
 * commented heading (sets, every parameter with unit and source) and rows of 14 fields
 * agreeing with the JSON; the table lists the sets, a line per variant and the sections
 * asked for; format names are exactly table, csv and json; and two runs render
 * byte-identically in every format (no wall time in the output). The table's edges are
 * pinned on the run's result edited in place: mitigation marks and their footnote, the
 * decimals of figures and of the one-operation step, an explanation's set-up, threads and
 * the changes too small to print, breakdown rows with and without an inlined body, and a
 * variant with no operation. */
#include "config.h"
#include "count.h"
#include <check.h>
#include <math.h>
#include <string.h>
#include <gsl/gsl_statistics_double.h>
#include "csv.h"
#include "machine.h"
#include "mitigation.h"
#include "param.h"
#include "report.h"

static const char *const run_sets[] = {
  "measure.warmup=2us", "measure.duration=10us", "measure.repetitions=3",
  "measure.aggregate=harmonic", "param.cache.l2.latency_cycles=13", NULL
};
static const char *const variant_names[] = {
  "plain-ret", "retbleed-unret", "srso-safe-ret", "call-depth-stuffing", "inlined"
};

/* ---- a strict JSON reader (enough to check the output's grammar and read it back) ---- */

typedef struct {
  char       kind;     /* 'o'bject, 'a'rray, 's'tring, 'n'umber, 't'rue, 'f'alse, 'z' null */
  char      *str;
  double     num;
  GPtrArray *keys;     /* object: char* */
  GPtrArray *items;    /* object or array: JNode* */
} JNode;

static JNode *j_value (const char **p);

/* Frees a node and its children. */
static void
j_free (gpointer data)
{
  JNode *n = data;

  if (n == NULL)
    return;
  g_free (n->str);
  g_clear_pointer (&n->keys, g_ptr_array_unref);
  g_clear_pointer (&n->items, g_ptr_array_unref);
  g_free (n);
}

/* Skips JSON whitespace. */
static void
j_ws (const char **p)
{
  while (**p == ' ' || **p == '\t' || **p == '\n' || **p == '\r')
    (*p)++;
}

/* Reads 4 hex digits at *p into *u; FALSE if they are not. */
static gboolean
j_hex4 (const char **p, gunichar *u)
{
  *u = 0;
  for (int i = 0; i < 4; i++, (*p)++) {
    if (!g_ascii_isxdigit (**p))
      return FALSE;
    *u = *u * 16 + (gunichar) g_ascii_xdigit_value (**p);
  }
  return TRUE;
}

/* A string at *p (after its opening quote) with its escapes decoded; NULL if malformed. */
static char *
j_string (const char **p)
{
  GString *s = g_string_new (NULL);

  while (**p != '"') {
    unsigned char c = (unsigned char) **p;
    if (c < 0x20)
      goto bad;
    (*p)++;
    if (c != '\\') {
      g_string_append_c (s, (char) c);
      continue;
    }
    c = (unsigned char) *(*p)++;
    if (c == 'u') {
      gunichar u, lo;
      if (!j_hex4 (p, &u))
        goto bad;
      if (u >= 0xd800 && u < 0xdc00) {
        if ((*p)[0] != '\\' || (*p)[1] != 'u')
          goto bad;
        *p += 2;
        if (!j_hex4 (p, &lo) || lo < 0xdc00 || lo >= 0xe000)
          goto bad;
        u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
      }
      g_string_append_unichar (s, u);
    } else if (strchr ("\"\\/", c) && c) {
      g_string_append_c (s, (char) c);
    } else if (c && strchr ("bfnrt", c)) {
      g_string_append_c (s, "\b\f\n\r\t"[strchr ("bfnrt", c) - "bfnrt"]);
    } else {
      goto bad;
    }
  }
  (*p)++;
  return g_string_free (s, FALSE);
bad:
  g_string_free (s, TRUE);
  return NULL;
}

/* A number at *p by RFC 8259's grammar; FALSE if malformed. */
static gboolean
j_number (const char **p, double *out)
{
  const char *start = *p;

  if (**p == '-')
    (*p)++;
  if (**p == '0')
    (*p)++;
  else if (g_ascii_isdigit (**p))
    while (g_ascii_isdigit (**p))
      (*p)++;
  else
    return FALSE;
  if (**p == '.') {
    (*p)++;
    if (!g_ascii_isdigit (**p))
      return FALSE;
    while (g_ascii_isdigit (**p))
      (*p)++;
  }
  if (**p == 'e' || **p == 'E') {
    (*p)++;
    if (**p == '+' || **p == '-')
      (*p)++;
    if (!g_ascii_isdigit (**p))
      return FALSE;
    while (g_ascii_isdigit (**p))
      (*p)++;
  }
  *out = g_ascii_strtod (start, NULL);
  return TRUE;
}

/* The members or items of an object (obj) or array after its opening bracket. */
static gboolean
j_container (const char **p, JNode *n, gboolean obj)
{
  char close = obj ? '}' : ']';

  j_ws (p);
  if (**p == close) {
    (*p)++;
    return TRUE;
  }
  for (;;) {
    JNode *item;
    j_ws (p);
    if (obj) {
      char *key;
      if (**p != '"')
        return FALSE;
      (*p)++;
      if ((key = j_string (p)) == NULL)
        return FALSE;
      g_ptr_array_add (n->keys, key);
      j_ws (p);
      if (*(*p)++ != ':')
        return FALSE;
    }
    if ((item = j_value (p)) == NULL)
      return FALSE;
    g_ptr_array_add (n->items, item);
    j_ws (p);
    if (**p == close) {
      (*p)++;
      return TRUE;
    }
    if (*(*p)++ != ',')
      return FALSE;
  }
}

/* One value at *p (whitespace around it skipped); NULL if malformed. */
static JNode *
j_value (const char **p)
{
  JNode *n = g_new0 (JNode, 1);
  gboolean ok = TRUE;

  j_ws (p);
  if (**p == '{' || **p == '[') {
    n->kind = **p == '{' ? 'o' : 'a';
    (*p)++;
    n->keys = g_ptr_array_new_with_free_func (g_free);
    n->items = g_ptr_array_new_with_free_func (j_free);
    ok = j_container (p, n, n->kind == 'o');
  } else if (**p == '"') {
    n->kind = 's';
    (*p)++;
    ok = (n->str = j_string (p)) != NULL;
  } else if (g_str_has_prefix (*p, "true") || g_str_has_prefix (*p, "false") ||
             g_str_has_prefix (*p, "null")) {
    n->kind = **p == 'n' ? 'z' : **p;
    *p += n->kind == 'f' ? 5 : 4;
  } else {
    n->kind = 'n';
    ok = j_number (p, &n->num);
  }
  j_ws (p);
  if (!ok) {
    j_free (n);
    return NULL;
  }
  return n;
}

/* The whole text as one JSON value; fails the test if it is not exactly one. */
static JNode *
j_parse (const char *text)
{
  const char *p = text;
  JNode *root = j_value (&p);

  ck_assert_msg (root != NULL, "malformed JSON near byte %ld: %.40s", (long) (p - text), p);
  ck_assert_msg (*p == '\0', "text after the JSON value: %.40s", p);
  return root;
}

/* The member key of object n, of kind; fails the test if absent or of another kind. */
static JNode *
j_get (const JNode *n, const char *key, char kind)
{
  ck_assert_int_eq (n->kind, 'o');
  for (guint i = 0; i < n->keys->len; i++)
    if (!strcmp (n->keys->pdata[i], key)) {
      JNode *m = n->items->pdata[i];
      ck_assert_msg (m->kind == kind, "member %s is '%c', not '%c'", key, m->kind, kind);
      return m;
    }
  ck_abort_msg ("no member %s", key);
  return NULL;
}

/* Item i of array n. */
static JNode *
j_at (const JNode *n, guint i)
{
  ck_assert_int_eq (n->kind, 'a');
  ck_assert_uint_lt (i, n->items->len);
  return n->items->pdata[i];
}

/* ---- the run and its renderings ---- */

/* Runs micro/call-chain.xml with run_sets. */
static NsRunResult *
run_small (void)
{
  const char *data = g_getenv ("NETSIM_DATADIR");
  g_autofree char *path = g_build_filename (data ? data : NS_SRCDIR, "scenarios", "micro",
                                            "call-chain.xml", NULL);
  NsRunOptions opt = { 0 };
  GError *error = NULL;
  NsRunResult *res;

  opt.sets = run_sets;
  res = ns_run_scenario (path, &opt, &error);
  ck_assert_msg (res != NULL, "%s", error ? error->message : "?");
  return res;
}

/* The result rendered in format (the table with every section). */
static char *
render (const NsRunResult *res, NsFormat format)
{
  NsReportOptions opt = { format, TRUE, TRUE, 0, TRUE, TRUE };
  GString *out = g_string_new (NULL);

  ns_report_run (out, res, &opt);
  return g_string_free (out, FALSE);
}

/* |a − b| within rel of |b| (or 1e-12 absolute when b is 0). */
static gboolean
close_to (double a, double b, double rel)
{
  return fabs (a - b) <= MAX (rel * fabs (b), 1e-12);
}

/* ---- tests ---- */

/* Exactly "table", "csv" and "json" parse; anything else is refused, *out untouched. */
START_TEST (test_format_parse)
{
  static const char *const bad[] = { "TABLE", "Csv", "xml", "", "json ", " csv", "tab", NULL };
  NsFormat f = NS_FORMAT_CSV;

  ck_assert (ns_format_parse ("table", &f) && f == NS_FORMAT_TABLE);
  ck_assert (ns_format_parse ("csv", &f) && f == NS_FORMAT_CSV);
  ck_assert (ns_format_parse ("json", &f) && f == NS_FORMAT_JSON);
  for (guint i = 0; bad[i]; i++) {
    f = (NsFormat) 99;
    ck_assert_msg (!ns_format_parse (bad[i], &f), "'%s' accepted", bad[i]);
    ck_assert_int_eq (f, 99);
  }
  ck_assert (!ns_format_parse (NULL, &f));
}
END_TEST

/* Each parameter of the JSON array params is the registry's, in name order, with its unit,
 * meaning and a source; cache.l2.latency_cycles holds the --set value and says so. */
static void
check_json_params (const JNode *params)
{
  GPtrArray *all = ns_param_all ();

  ck_assert_uint_eq (params->items->len, all->len);
  for (guint i = 0; i < all->len; i++) {
    const NsParamDef *d = all->pdata[i];
    const JNode *p = j_at (params, i);
    ck_assert_str_eq (j_get (p, "name", 's')->str, d->name);
    ck_assert_str_eq (j_get (p, "unit", 's')->str, d->unit);
    ck_assert_str_eq (j_get (p, "meaning", 's')->str, d->meaning);
    ck_assert_str_ne (j_get (p, "source", 's')->str, "");
    if (!strcmp (d->name, "cache.l2.latency_cycles")) {
      ck_assert_str_eq (j_get (p, "value", 's')->str, "13");
      ck_assert_ptr_nonnull (strstr (j_get (p, "source", 's')->str, "--set"));
    }
  }
}

/* One JSON variant: three repetitions with stop rules; value the harmonic mean and cv the
 * coefficient of variation of the repetitions' values (GSL); the set-up lists. */
static double
check_json_variant (const JNode *v, const char *name)
{
  const JNode *reps = j_get (v, "repetitions", 'a');
  double x[3], inv[3], value = j_get (v, "value", 'n')->num, mean;

  ck_assert_str_eq (j_get (v, "name", 's')->str, name);
  ck_assert_str_eq (j_get (v, "aggregate", 's')->str, "harmonic");
  ck_assert_uint_eq (reps->items->len, 3);
  for (guint r = 0; r < 3; r++) {
    x[r] = j_get (j_at (reps, r), "value", 'n')->num;
    inv[r] = 1.0 / x[r];
    ck_assert (g_str_has_prefix (j_get (j_at (reps, r), "stop_rule", 's')->str,
                                 "fixed duration: 10 us"));
    ck_assert_double_eq (j_get (j_at (reps, r), "measured_ps", 'n')->num, 10e6);
  }
  mean = gsl_stats_mean (x, 1, 3);
  ck_assert_msg (close_to (value, 1.0 / gsl_stats_mean (inv, 1, 3), 1e-12), "%s: %g", name,
                 value);
  ck_assert (close_to (j_get (v, "cv", 'n')->num, gsl_stats_sd (x, 1, 3) / mean, 1e-9));
  ck_assert_uint_gt (j_get (v, "mitigations", 'a')->items->len, 0);
  ck_assert_uint_gt (j_get (v, "inlining", 'a')->items->len, 0);
  ck_assert_uint_gt (j_get (v, "breakdown", 'a')->items->len, 0);
  check_json_params (j_get (v, "parameters", 'a'));
  return value;
}

/* The JSON is one well-formed object with the scenario, sets, variants and comparisons. */
START_TEST (test_json)
{
  NsRunResult *res = run_small ();
  g_autofree char *text = render (res, NS_FORMAT_JSON);
  JNode *root = j_parse (text);
  const JNode *sets = j_get (root, "sets", 'a'), *vars = j_get (root, "variants", 'a');
  const JNode *comps = j_get (root, "comparisons", 'a');
  double values[G_N_ELEMENTS (variant_names)] = { 0 };

  ck_assert_str_eq (j_get (root, "scenario", 's')->str, "call-chain");
  ck_assert_str_eq (j_get (root, "seed", 's')->str, "1");  /* a string: seeds reach 2^64 - 1 */
  ck_assert_uint_eq (sets->items->len, g_strv_length ((char **) run_sets));
  for (guint i = 0; run_sets[i]; i++)
    ck_assert_str_eq (j_at (sets, i)->str, run_sets[i]);
  ck_assert_uint_eq (vars->items->len, G_N_ELEMENTS (variant_names));
  for (guint i = 0; i < G_N_ELEMENTS (variant_names); i++)
    values[i] = check_json_variant (j_at (vars, i), variant_names[i]);
  ck_assert_uint_eq (comps->items->len, res->comparisons->len);
  for (guint i = 0; i < comps->items->len; i++) {
    const NsComparison *c = &g_array_index (res->comparisons, NsComparison, i);
    const JNode *jc = j_at (comps, i);
    double b = values[c->baseline], p = values[c->patched];
    ck_assert_str_eq (j_get (jc, "baseline", 's')->str, variant_names[c->baseline]);
    ck_assert_str_eq (j_get (jc, "patched", 's')->str, variant_names[c->patched]);
    ck_assert (close_to (j_get (jc, "delta_pct", 'n')->num, (p - b) / b * 100.0, 1e-9));
    {
      const NsVariantResult *vb = res->variants->pdata[c->baseline];
      const NsVariantResult *vp = res->variants->pdata[c->patched];
      ck_assert (close_to (j_get (jc, "one_op_step_pct", 'n')->num,
                           100.0 * p / b / (double) MIN (vb->ops, vp->ops), 1e-9));
    }
    ck_assert_uint_gt (j_get (jc, "explain", 'a')->items->len, 0);
  }
  j_free (root);
  ns_run_result_free (res);
}
END_TEST

/* The CSV: a heading of comment lines (each --set, then every parameter as "# param NAME =
 * VALUE UNIT — SOURCE" of the first variant's set), the column line, then a row of 15
 * fields per variant (value to 10 digits, reps, aggregate) and per comparison (its delta's
 * one-operation step last, as JSON's one_op_step_pct: CSV had no step at all). */
START_TEST (test_csv)
{
  NsRunResult *res = run_small ();
  g_autofree char *text = render (res, NS_FORMAT_CSV);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  const NsParams *params = ((NsVariantResult *) res->variants->pdata[0])->params;
  GPtrArray *all = ns_param_all ();
  guint l = 0, n_sets = 0, n_params = 0;

  for (; lines[l] && lines[l][0] == '#'; l++) {
    if (g_str_has_prefix (lines[l], "# set ")) {
      ck_assert_uint_eq (n_params, 0);
      ck_assert_str_eq (lines[l] + 6, run_sets[n_sets++]);
    } else if (g_str_has_prefix (lines[l], "# param ")) {
      const NsParamDef *d = all->pdata[n_params++];
      g_autofree char *want = g_strdup_printf ("# param %s = %s %s — %s", d->name,
                                               ns_params_get_text (params, d->name), d->unit,
                                               ns_params_get_source (params, d->name));
      ck_assert_str_eq (lines[l], want);
    }
  }
  ck_assert_uint_eq (n_sets, g_strv_length ((char **) run_sets));
  ck_assert_uint_eq (n_params, all->len);
  ck_assert_str_eq (lines[l++], "kind,name,metric,value,cv,reps,aggregate,baseline,patched,"
                    "delta_pct,cpu,kernel,cmdline,mitigations,one_op_step_pct");
  for (guint i = 0; i < res->variants->len + res->comparisons->len; i++, l++) {
    g_auto (GStrv) f = ns_csv_split (lines[l]);
    ck_assert_uint_eq (g_strv_length (f), 15);
    if (i < res->variants->len) {
      const NsVariantResult *vr = res->variants->pdata[i];
      ck_assert_str_eq (f[0], "variant");
      ck_assert_str_eq (f[1], variant_names[i]);
      ck_assert (close_to (g_ascii_strtod (f[3], NULL), vr->values[0], 1e-9));
      ck_assert_str_eq (f[5], "3");
      ck_assert_str_eq (f[6], "harmonic");
      ck_assert_str_eq (f[14], "");
    } else {
      const NsComparison *c = &g_array_index (res->comparisons, NsComparison,
                                              i - res->variants->len);
      const NsVariantResult *vb = res->variants->pdata[c->baseline];
      const NsVariantResult *vp = res->variants->pdata[c->patched];
      double step = 100.0 * vp->value / vb->value / (double) MIN (vb->ops, vp->ops);
      ck_assert_str_eq (f[0], "comparison");
      ck_assert_str_eq (f[1], c->label);
      ck_assert_str_eq (f[7], variant_names[c->baseline]);
      ck_assert_str_eq (f[8], variant_names[c->patched]);
      ck_assert_double_gt (step, 0);
      ck_assert_msg (close_to (g_ascii_strtod (f[14], NULL), step, 1e-5), "step %s, not %g",
                     f[14], step);
    }
  }
  ck_assert_str_eq (lines[l], "");
  ck_assert_ptr_null (lines[l + 1]);
  ns_run_result_free (res);
}
END_TEST

/* The table: the sets line, a result line per variant (metric, 3 reps, its stop rule), and
 * per variant the breakdown and inlining sections asked for. */
START_TEST (test_table)
{
  NsRunResult *res = run_small ();
  g_autofree char *text = render (res, NS_FORMAT_TABLE);
  g_autofree char *sets = g_strjoinv (", ", (char **) run_sets);
  g_autofree char *set_line = g_strdup_printf ("\nset       %s (", sets);

  ck_assert_ptr_nonnull (strstr (text, set_line));
  for (guint i = 0; i < G_N_ELEMENTS (variant_names); i++) {
    g_autofree char *head = g_strdup_printf ("\n%-28s cycles_per_call ", variant_names[i]);
    const char *line = strstr (text, head);
    ck_assert_msg (line != NULL, "no result line for %s", variant_names[i]);
    ck_assert_ptr_nonnull (g_strstr_len (line, strchr (line + 1, '\n') - line,
                                         "     3  fixed duration: 10 us"));
  }
  ck_assert_uint_eq (count_occurrences (text, "where the cycles went, per"), 5);
  ck_assert_uint_eq (count_occurrences (text, "inlining decisions (variant"), 5);
  ck_assert_uint_eq (count_occurrences (text, "\nwhy "), res->comparisons->len);
  ns_run_result_free (res);
}
END_TEST

/* A comparison whose delta is smaller than one operation's step of its runs is marked '*'
 * and the note under the table gives the step; the others are not marked. */
START_TEST (test_table_marks_deltas_under_one_operation)
{
  NsRunResult *res = run_small ();
  NsComparison *c = &g_array_index (res->comparisons, NsComparison, 0);
  const NsVariantResult *b = res->variants->pdata[c->baseline];
  const NsVariantResult *p = res->variants->pdata[c->patched];
  double step = 100.0 * p->value / b->value / (double) MIN (b->ops, p->ops);
  g_autofree char *plain = render (res, NS_FORMAT_TABLE);
  g_autofree char *marked = NULL;
  g_autofree char *note = g_strdup_printf ("one moves the delta by up to %.2f %% here", step);
  g_autofree char *line = g_strdup_printf ("%+9.2f%% *\n", step / 2);

  ck_assert_msg (strstr (plain, "% *\n") == NULL && strstr (plain, "under one operation") == NULL,
                 "a delta of %.2f %% is marked", c->delta_pct);
  c->delta_pct = step / 2;
  marked = render (res, NS_FORMAT_TABLE);
  ck_assert_msg (strstr (marked, line) != NULL, "no mark on a delta of %.4f %%", step / 2);
  ck_assert_uint_eq (count_occurrences (marked, "% *\n"), 1);
  ck_assert_msg (strstr (marked, note) != NULL, "no note of the step %.2f %%", step);
  c->delta_pct = -step * 1.01;
  g_free (marked);
  marked = render (res, NS_FORMAT_TABLE);
  ck_assert (strstr (marked, "% *\n") == NULL);
  /* a step under 0.01 % is given to two significant digits, never as "0.00 %" */
  ((NsVariantResult *) b)->ops = ((NsVariantResult *) p)->ops = 100000000;
  step = 100.0 * p->value / b->value / 1e8;
  c->delta_pct = step / 2;
  g_free (marked);
  marked = render (res, NS_FORMAT_TABLE);
  ck_assert_msg (strstr (marked, "up to 0.00 %") == NULL && strstr (marked, "up to 0.00000") != NULL,
                 "step %g %%: %s", step, strstr (marked, "* under"));
  ns_run_result_free (res);
}
END_TEST

/* The CSV heading and the table's carry the models' notes, each once: plainly when every
 * variant has it, else naming the variants that do (the table dropped them: a saved table
 * said "kernel 6.18.0" with no sign that v6.9's rules ran). */
START_TEST (test_csv_carries_notes)
{
  NsRunResult *res = run_small ();
  g_autofree char *csv = NULL, *table = NULL;
  g_autofree char *some = NULL, *some_line = NULL;

  ck_assert_uint_ge (res->variants->len, 3);
  for (guint i = 0; i < res->variants->len; i++) {
    NsVariantResult *vr = res->variants->pdata[i];
    const char *everyone[] = { "shared remark", i < 2 ? "first two only" : NULL, NULL };
    g_strfreev (vr->notes);
    vr->notes = g_strdupv ((char **) everyone);
  }
  csv = render (res, NS_FORMAT_CSV);
  some = g_strdup_printf ("\n# note (%s, %s): first two only\n",
                          ((NsVariantResult *) res->variants->pdata[0])->name,
                          ((NsVariantResult *) res->variants->pdata[1])->name);
  ck_assert_uint_eq (count_occurrences (csv, "\n# note: shared remark\n"), 1);
  ck_assert_msg (strstr (csv, some) != NULL, "%s", csv);
  table = render (res, NS_FORMAT_TABLE);
  some_line = g_strdup_printf ("\nnote      (%s, %s) first two only\n",
                               ((NsVariantResult *) res->variants->pdata[0])->name,
                               ((NsVariantResult *) res->variants->pdata[1])->name);
  ck_assert_uint_eq (count_occurrences (table, "\nnote      shared remark\n"), 1);
  ck_assert_msg (strstr (table, some_line) != NULL, "%s", table);
  ck_assert_msg (strstr (table, some_line) < strstr (table, "\nmitigations in force"), "%s",
                 table);        /* in the heading, with the kernel it is about */
  ns_run_result_free (res);
}
END_TEST

/* Two runs of the same scenario, a second apart, render byte-identically in every format:
 * nothing from the wall clock or the host reaches the output. */
START_TEST (test_byte_identical)
{
  NsRunResult *a = run_small (), *b;
  char *before[NS_FORMAT_JSON + 1];

  for (NsFormat f = NS_FORMAT_TABLE; f <= NS_FORMAT_JSON; f++)
    before[f] = render (a, f);
  g_usleep (1100 * 1000);
  b = run_small ();
  for (NsFormat f = NS_FORMAT_TABLE; f <= NS_FORMAT_JSON; f++) {
    g_autofree char *again = render (a, f), *other = render (b, f);
    ck_assert_msg (!strcmp (before[f], again), "format %d: two renders of one result differ",
                   f);
    ck_assert_msg (!strcmp (before[f], other), "format %d: two runs render differently", f);
    g_free (before[f]);
  }
  ns_run_result_free (a);
  ns_run_result_free (b);
}
END_TEST

/* The unnamed variant of a scenario without variants goes by the scenario's name in every
 * format, as its what-if twin ("NAME (what-if)") and a what-if's labels do: the table
 * called it "(default)", the CSV and JSON "" (a comparison's baseline too), --folded the
 * scenario's name. */
START_TEST (test_unnamed_variant_named_alike)
{
  NsRunResult *res = run_small ();
  NsVariantResult *first = res->variants->pdata[0];
  g_autofree char *table = NULL, *csv = NULL, *json = NULL, *row = NULL;
  g_autofree char *baseline = NULL;
  JNode *root, *variants;
  guint of_first = 0;

  g_free (first->name);
  first->name = g_strdup ("");
  for (guint i = 0; i < res->comparisons->len; i++)
    if (g_array_index (res->comparisons, NsComparison, i).baseline == 0)
      of_first++;
  ck_assert_uint_gt (of_first, 0);
  table = render (res, NS_FORMAT_TABLE);
  csv = render (res, NS_FORMAT_CSV);
  json = render (res, NS_FORMAT_JSON);
  ck_assert_msg (strstr (table, "(default)") == NULL, "%s", table);
  row = g_strdup_printf ("\n%-28s cycles_per_call ", res->scenario_name);
  ck_assert_msg (strstr (table, row) != NULL, "%s", table);
  g_free (row);
  row = g_strdup_printf ("\nvariant,%s,cycles_per_call,", res->scenario_name);
  ck_assert_msg (strstr (csv, row) != NULL, "%s", csv);
  ck_assert (strstr (csv, "\nvariant,,") == NULL);
  baseline = g_strdup_printf (",%s,", res->scenario_name);
  ck_assert_uint_eq (count_occurrences (csv, baseline), 1 + of_first);
  root = j_parse (json);
  variants = j_get (root, "variants", 'a');
  ck_assert_str_eq (j_get (j_at (variants, 0), "name", 's')->str, res->scenario_name);
  ck_assert_str_eq (j_get (j_at (j_get (root, "comparisons", 'a'), 0), "baseline", 's')->str,
                    res->scenario_name);
  j_free (root);
  ns_run_result_free (res);
}
END_TEST

/* A control character in a label (a --what-if value's newline in its comparison's label, a
 * variant renamed by --set) is written in the table as the CSV heading writes it (\n, a
 * backslash doubled), so that its row stays one line: it split over two. */
START_TEST (test_table_escapes_controls)
{
  NsRunResult *res = run_small ();
  NsComparison *c = &g_array_index (res->comparisons, NsComparison, 0);
  NsVariantResult *first = res->variants->pdata[0];
  g_autofree char *table = NULL;

  g_free (c->label);
  c->label = g_strdup ("off: kernel.cmdline=spectre_v2=retpoline\nnosmt\\");
  g_free (first->name);
  first->name = g_strdup ("tab\there");
  table = render (res, NS_FORMAT_TABLE);
  ck_assert_msg (strstr (table, "\noff: kernel.cmdline=spectre_v2=retpoline\\nnosmt\\\\ ")
                 != NULL, "%s", table);
  ck_assert_msg (strstr (table, "\nwhy off: kernel.cmdline=spectre_v2=retpoline\\nnosmt")
                 != NULL, "%s", table);
  ck_assert (strstr (table, "\nnosmt") == NULL);
  ck_assert (strstr (table, "\t") == NULL);
  ck_assert_uint_eq (count_occurrences (table, "\ntab\\there "), 2);   /* mitigations, results */
  ns_run_result_free (res);
}
END_TEST

/* The mitigations table's columns are as wide as their widest cell: a spectre_v2 value
 * longer than the usual eleven ("eibrs,retpoline*") pushes the whole column, head and
 * every row, so that the retbleed column still starts under its head. */
START_TEST (test_table_mitigation_columns_fit)
{
  NsRunResult *res = run_small ();
  NsVariantResult *first = res->variants->pdata[0];
  g_autofree char *table = NULL;
  const char *head, *row;
  gsize at;

  for (guint i = 0; first->mitigations[i]; i++)
    if (g_str_has_prefix (first->mitigations[i], "spectre_v2=")) {
      g_free (first->mitigations[i]);
      first->mitigations[i] = g_strdup ("spectre_v2=eibrs,retpoline: kernel command line: "
                                        "spectre_v2=eibrs,retpoline");
    }
  table = render (res, NS_FORMAT_TABLE);
  head = strstr (table, "\nmitigations in force");
  ck_assert_ptr_nonnull (head);
  head++;
  at = strstr (head, " retbleed ") + 1 - head;
  row = strchr (head, '\n') + 1;
  ck_assert_msg (strstr (row, " eibrs,retpoline* ") != NULL &&
                 strstr (row, " eibrs,retpoline* ") < strchr (row, '\n'), "%s", table);
  for (guint i = 0; i < res->variants->len; i++, row = strchr (row, '\n') + 1) {
    ck_assert_msg (row[at - 1] == ' ' && row[at] != ' ', "row %u: %.*s", i,
                   (int) (strchr (row, '\n') - row), row);
  }
  ns_run_result_free (res);
}
END_TEST

/* The mitigations' footnote names the kernel its defaults are for: one when every variant
 * runs it, each variant's when a what-if or a variant's set changes the release. */
START_TEST (test_table_mitigation_kernels)
{
  NsRunResult *res = run_small ();
  NsVariantResult *last = res->variants->pdata[res->variants->len - 1];
  g_autofree char *one = NULL, *two = NULL, *expect = NULL;
  const char *k0 = ((NsVariantResult *) res->variants->pdata[0])->kernel;

  one = render (res, NS_FORMAT_TABLE);
  expect = g_strdup_printf ("the CPU profile's default for kernel %s;", k0);
  ck_assert_msg (strstr (one, expect) != NULL, "%s", one);
  ck_assert_uint_gt (res->variants->len, 1);
  g_free (last->kernel);
  last->kernel = g_strdup ("6.1.93");
  two = render (res, NS_FORMAT_TABLE);
  g_free (expect);
  expect = g_strdup_printf ("the CPU profile's default for each variant's kernel (%s, "
                            "6.1.93);", k0);
  ck_assert_msg (strstr (two, expect) != NULL, "%s", two);
  ns_run_result_free (res);
}
END_TEST

/* The mitigations' footnote explains only the marks its rows carry: '*' (a command-line
 * setting), '!' (a key ignored on this CPU) and '~' (the kernel's own choice); a key no
 * explanation line gives, or a variant with none, is "?" with no mark. */
START_TEST (test_table_mitigation_marks)
{
  static const char *const marked[] = {
    "spectre_v2=off: CPU profile default", "retbleed=unret: " NS_MITIGATION_KERNEL_CHOSE
    "stuffing needs retpoline", "spec_rstack_overflow=off: CPU profile default",
    "pti=off: CPU profile default", "mds=off: " NS_MITIGATION_IGNORED "MDS", NULL
  };
  NsRunResult *res = run_small ();
  g_autofree char *plain = render (res, NS_FORMAT_TABLE), *other = NULL, *row = NULL;
  const char *star = "* = set on the kernel command line; ", *bang = "! = its kernel",
             *tilde = "~ = changed by the kernel's own selection";

  ck_assert_msg (strstr (plain, star) != NULL, "%s", plain);
  ck_assert_msg (strstr (plain, bang) == NULL && strstr (plain, tilde) == NULL, "%s", plain);
  for (guint i = 0; i < res->variants->len; i++) {
    NsVariantResult *vr = res->variants->pdata[i];
    g_strfreev (vr->mitigations);
    vr->mitigations = i == 0 ? NULL : g_strdupv ((char **) marked);
  }
  other = render (res, NS_FORMAT_TABLE);
  ck_assert_msg (strstr (other, star) == NULL, "%s", other);
  ck_assert_msg (strstr (other, bang) != NULL && strstr (other, tilde) != NULL, "%s", other);
  row = g_strdup_printf ("\n%-28s %-11s %-11s %-11s %-11s %-11s %-11s\n", variant_names[0],
                         "?", "?", "?", "?", "?", "?");
  ck_assert_msg (strstr (other, row) != NULL, "%s", other);
  g_free (row);
  row = g_strdup_printf ("\n%-28s %-11s %-11s %-11s %-11s %-11s %-11s\n", variant_names[1],
                         "off", "unret~", "off", "off", "off!", "?");
  ck_assert_msg (strstr (other, row) != NULL, "%s", other);
  ns_run_result_free (res);
}
END_TEST

/* The first comparison of res, its baseline in *b and its patched variant in *p. */
static NsComparison *
first_comparison (NsRunResult *res, NsVariantResult **b, NsVariantResult **p)
{
  NsComparison *c = &g_array_index (res->comparisons, NsComparison, 0);

  *b = res->variants->pdata[c->baseline];
  *p = res->variants->pdata[c->patched];
  return c;
}

/* Gives the first comparison's variants of res value (both) and ops (both) and its delta
 * 0: under one operation's step of 100 / ops %. */
static void
set_first_comparison (NsRunResult *res, double value, guint64 ops)
{
  NsVariantResult *b, *p;
  NsComparison *c = first_comparison (res, &b, &p);

  b->value = p->value = value;
  b->ops = p->ops = ops;
  c->delta_pct = 0.0;
}

/* TRUE if table holds the comparison line's figures "value value" with digits decimals. */
static gboolean
has_figures (const char *table, double value, int digits)
{
  g_autofree char *figures = g_strdup_printf (" %16.*f %16.*f     +0.00%% *\n", digits, value,
                                              digits, value);
  return strstr (table, figures) != NULL;
}

/* A comparison's figures have five significant digits, 2 to 4 decimals (2 from 100 up, 3
 * from 10, else 4); the step under the table has 2 decimals from 0.01 % up, else as many
 * as its first two significant digits need, at most 9. */
START_TEST (test_table_figure_digits)
{
  static const struct { double value; int digits; } figures[] = {
    { 150.0, 2 }, { 100.0, 2 }, { 99.99, 3 }, { 10.0, 3 }, { 9.99, 4 }, { 0.5, 4 }
  };
  static const struct { guint64 ops; const char *step; } steps[] = {
    { 5000, "0.02" }, { 10000, "0.01" }, { 21277, "0.0047" }, { 100000000, "0.0000010" },
    { G_GUINT64_CONSTANT (100000000000000), "0.000000000" }
  };
  NsRunResult *res = run_small ();

  for (guint i = 0; i < G_N_ELEMENTS (figures); i++) {
    g_autofree char *table = NULL;
    set_first_comparison (res, figures[i].value, 1000);
    table = render (res, NS_FORMAT_TABLE);
    ck_assert_msg (has_figures (table, figures[i].value, figures[i].digits), "%g: %.300s",
                   figures[i].value, strstr (table, "\ncomparison"));
  }
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++) {
    g_autofree char *table = NULL, *note = NULL;
    set_first_comparison (res, 150.0, steps[i].ops);
    table = render (res, NS_FORMAT_TABLE);
    note = g_strdup_printf ("moves the delta by up to %s %% here", steps[i].step);
    ck_assert_msg (strstr (table, note) != NULL, "%s: %.300s", note, strstr (table, "* under"));
  }
  {                             /* a delta of exactly one step is not under it */
    g_autofree char *table = NULL;
    set_first_comparison (res, 150.0, 10000);
    g_array_index (res->comparisons, NsComparison, 0).delta_pct = 100.0 / 10000;
    table = render (res, NS_FORMAT_TABLE);
    ck_assert_msg (strstr (table, "% *\n") == NULL, "%.300s", strstr (table, "\ncomparison"));
  }
  ns_run_result_free (res);
}
END_TEST

/* Sets each "NAME=VALUE" of sets on params (a test's own source). */
static void
set_params (NsParams *params, const char *const *sets)
{
  for (guint i = 0; sets[i]; i++) {
    g_auto (GStrv) kv = g_strsplit (sets[i], "=", 2);
    GError *error = NULL;
    ck_assert_msg (ns_params_set (params, kv[0], kv[1], "test", &error), "%s",
                   error ? error->message : "?");
  }
}

/* The explain line of res's first comparison that starts with head, up to its newline (a
 * new string); NULL if there is none. */
static char *
explain_line (const NsRunResult *res, const char *head)
{
  g_autofree char *table = render (res, NS_FORMAT_TABLE);
  const char *why = strstr (table, "\nwhy "), *at = why ? strstr (why, head) : NULL;

  ck_assert_ptr_nonnull (why);
  if (at == NULL || at > strstr (why + 1, "\nwhy "))
    return NULL;
  return g_strndup (at, strcspn (at, "\n"));
}

/* An explanation says what its two variants ran with differently: another CPU, the
 * parameters that differ (the clock first, then the first six in name order, "…" for
 * more) and the .config options both read and took differently (the first six in the
 * baseline's order, "…" for more; one the other never read is no difference); nothing
 * when they ran alike. */
START_TEST (test_explain_setup)
{
  static const char *const seven[] = {
    "branch.mispredict_cycles=16", "c2c.ccx_ns=21", "c2c.smt_ns=9", "cache.l1d.assoc=16",
    "cache.l1d.latency_cycles=5", "cache.l2.assoc=16", "cpu.freq_ghz=3.5", NULL
  };
  static const char *const eighth[] = { "cache.l3.assoc=8", NULL };
  static const char *const config_b[] = {
    "CONFIG_A=y", "CONFIG_B=m", "CONFIG_C=y (unstated)", "CONFIG_ONLY_B=y", "CONFIG_D=y",
    "CONFIG_E=y", "CONFIG_F=y", "CONFIG_S (unstated)", "CONFIG_G=y", NULL
  };
  static const char *const config_p[] = {
    "CONFIG_G=n", "CONFIG_S=\"x\"", "CONFIG_F=n", "CONFIG_E=n", "CONFIG_D=n", "CONFIG_C=n",
    "CONFIG_B=y", "CONFIG_A=y", "CONFIG_ONLY_P=y", NULL
  };
  const char *params_head = "  parameters that differ (", *config_head = "  .config that";
  const char *six = "cpu.freq_ghz 3.0 → 3.5 GHz, branch.mispredict_cycles 15 → 16 cycles, "
    "c2c.ccx_ns 20 → 21 ns, c2c.smt_ns 8 → 9 ns, cache.l1d.assoc 8 → 16 ways, "
    "cache.l1d.latency_cycles 4 → 5 cycles";
  NsRunResult *res = run_small ();
  NsVariantResult *b, *p;
  g_autofree char *line = NULL, *want = NULL;

  first_comparison (res, &b, &p);
  ck_assert_ptr_null ((line = explain_line (res, "  ran on:")));
  ck_assert_ptr_null ((line = explain_line (res, params_head)));
  ck_assert_ptr_null ((line = explain_line (res, config_head)));
  set_params (p->params, seven);
  line = explain_line (res, params_head);
  want = g_strdup_printf ("%s7): %s, cache.l2.assoc 8 → 16 ways", params_head, six);
  ck_assert_str_eq (line, want);
  set_params (p->params, eighth);
  g_free (line);
  g_free (want);
  line = explain_line (res, params_head);
  want = g_strdup_printf ("%s8): %s, cache.l2.assoc 8 → 16 ways, … (--format json gives "
                          "each variant's full parameter set)", params_head, six);
  ck_assert_str_eq (line, want);

  g_free (p->cpu_name);
  p->cpu_name = g_strdup ("other-cpu");
  g_free (line);
  line = explain_line (res, "  ran on:");
  ck_assert_str_eq (line, "  ran on: cpu generic → other-cpu");

  g_strfreev (b->config_in_force);
  g_strfreev (p->config_in_force);
  b->config_in_force = g_strdupv ((char **) config_b);
  p->config_in_force = g_strdupv ((char **) config_p);
  g_free (line);
  line = explain_line (res, config_head);
  ck_assert_str_eq (line, "  .config that differs (7): CONFIG_B m → y, CONFIG_C y → n, "
                    "CONFIG_D y → n, CONFIG_E y → n, CONFIG_F y → n, CONFIG_S - → \"x\", … "
                    "(--format json gives each variant's config)");
  g_free (p->config_in_force[0]);
  p->config_in_force[0] = g_strdup ("CONFIG_G=y");
  g_free (line);
  line = explain_line (res, config_head);
  ck_assert_str_eq (line, "  .config that differs (6): CONFIG_B m → y, CONFIG_C y → n, "
                    "CONFIG_D y → n, CONFIG_E y → n, CONFIG_F y → n, CONFIG_S - → \"x\"");
  ns_run_result_free (res);
}
END_TEST

/* The breakdown row of func in vr, its figures all set to 0. */
static NsBreakdownRow *
zeroed_row (NsVariantResult *vr, const char *func)
{
  for (guint i = 0; i < vr->breakdown->len; i++) {
    NsBreakdownRow *row = vr->breakdown->pdata[i];
    if (g_str_equal (row->func, func)) {
      char *name = row->func;
      memset (row, 0, sizeof *row);
      row->func = name;
      return row;
    }
  }
  ck_abort_msg ("no row %s", func);
  return NULL;
}

/* Gives func's row in vr only cycles of the first cause, of its frames or (body) of its
 * inlined invocations. */
static void
changed_cycles (NsVariantResult *vr, const char *func, double cycles, gboolean body)
{
  NsBreakdownRow *row = zeroed_row (vr, func);

  if (body)
    row->body_per_op[0] = row->body_total_per_op = cycles;
  else
    row->cycles_per_op[0] = row->total_per_op = cycles;
}

/* An explanation lists a function whose change prints as non-zero: 0.005 cycles (of its
 * frames or of its inlined body) or 0.0005 calls or inlined invocations, exactly, are
 * listed; smaller changes are counted in one line (singular for one). */
START_TEST (test_explain_hides_unprinted_changes)
{
  NsRunResult *res = run_small ();
  NsVariantResult *b, *p;
  g_autofree char *two = NULL, *note = NULL, *want = NULL;

  first_comparison (res, &b, &p);
  for (guint i = 0; i < 5; i++) {
    g_autofree char *func = g_strdup_printf ("chain_fn_%u", i);
    zeroed_row (b, func);
    zeroed_row (p, func);
  }
  changed_cycles (p, "chain_fn_0", 0.004, FALSE);
  changed_cycles (p, "chain_fn_1", 0.005, FALSE);
  zeroed_row (p, "chain_fn_2")->calls_per_op = 0.0005;
  zeroed_row (p, "chain_fn_3")->inlined_per_op = 0.0005;
  changed_cycles (p, "chain_fn_4", -0.005, TRUE);
  note = explain_line (res, "  chain_fn_1 ");     /* no cause of 0.005 cycles listed */
  want = g_strdup_printf ("  %-32s %+9.3f %+9.3f %+10.2f ", "chain_fn_1", 0.0, 0.0, 0.005);
  ck_assert_str_eq (note, want);
  g_free (note);
  note = explain_line (res, "  chain_fn_4 ");     /* 0.005 cycles of body: no body line */
  g_free (want);
  want = g_strdup_printf ("  %-32s %+9.3f %+9.3f %+10.2f ", "chain_fn_4", 0.0, 0.0, 0.0);
  ck_assert_str_eq (note, want);
  g_free (note);
  note = explain_line (res, "  (1 more");
  ck_assert_str_eq (note, "  (1 more function changed by under 0.005 cycles and 0.0005 calls: "
                    "--format json lists them)");
  g_free (note);
  {
    g_autofree char *table = render (res, NS_FORMAT_TABLE);
    const char *why = strstr (table, "\nwhy "), *end = strstr (why + 1, "\nwhy ");
    g_autofree char *first = g_strndup (why, end - why);
    ck_assert_msg (strstr (first, "\n  chain_fn_0 ") == NULL, "%s", first);
    for (guint i = 1; i < 5; i++) {
      g_autofree char *head = g_strdup_printf ("\n  chain_fn_%u ", i);
      ck_assert_msg (strstr (first, head) != NULL, "no %s: %s", head + 1, first);
    }
  }
  changed_cycles (p, "chain_fn_1", -0.004, FALSE);
  note = explain_line (res, "  (2 more");
  ck_assert_str_eq (note, "  (2 more functions changed by under 0.005 cycles and 0.0005 calls: "
                    "--format json lists them)");
  zeroed_row (p, "chain_fn_0");
  zeroed_row (p, "chain_fn_1");
  two = explain_line (res, "  (");
  ck_assert_msg (two == NULL || !g_str_has_suffix (two, "--format json lists them)"), "%s",
                 two);
  ns_run_result_free (res);
}
END_TEST

/* The section of table from the line starting with head to the next empty line (a new
 * string, from its newline). */
static char *
section_of (const char *table, const char *head)
{
  const char *at = strstr (table, head), *end;

  ck_assert_msg (at != NULL, "no %s", head);
  end = strstr (at, "\n\n");
  return end ? g_strndup (at - 1, end - at + 2) : g_strdup (at - 1);
}

/* A breakdown prints a function's own line unless it only has an inlined body (more than
 * 0.005 cycles) and neither calls nor more than 0.005 cycles of its own; the body gets a
 * bracketed line. */
START_TEST (test_breakdown_rows)
{
  NsRunResult *res = run_small ();
  NsVariantResult *vr = res->variants->pdata[0];
  NsBreakdownRow *row;
  g_autofree char *table = NULL, *section = NULL, *head = NULL, *zero = NULL, *small = NULL;

  zeroed_row (vr, "chain_fn_0");
  row = zeroed_row (vr, "chain_fn_1");
  row->total_per_op = 0.005;
  row->body_total_per_op = 1.0;
  row = zeroed_row (vr, "chain_fn_2");
  row->calls_per_op = 0.125;
  row->body_total_per_op = 1.0;
  row = zeroed_row (vr, "chain_fn_3");
  row->inlined_per_op = 0.125;
  row->body_total_per_op = 0.005;
  table = render (res, NS_FORMAT_TABLE);
  head = g_strdup_printf ("where the cycles went, per call (variant %s):", vr->name);
  section = section_of (table, head);
  zero = g_strdup_printf ("\n  %-32s %9.3f %9.3f %10.2f \n", "chain_fn_0", 0.0, 0.0, 0.0);
  small = g_strdup_printf ("\n  %-32s %9.3f %9.3f %10.2f \n", "chain_fn_3", 0.0, 0.125, 0.0);
  ck_assert_msg (strstr (section, zero) != NULL, "%s", section);
  ck_assert_msg (strstr (section, small) != NULL, "%s", section);
  ck_assert_msg (strstr (section, "\n  chain_fn_1  ") == NULL, "%s", section);
  ck_assert_msg (strstr (section, "\n  chain_fn_1 (inlined) ") != NULL, "%s", section);
  ck_assert_msg (strstr (section, "\n  chain_fn_2  ") != NULL, "%s", section);
  ck_assert_msg (strstr (section, "\n  chain_fn_2 (inlined) ") != NULL, "%s", section);
  ck_assert_msg (strstr (section, "\n  chain_fn_3 (inlined)") == NULL, "%s", section);
  ck_assert_uint_eq (count_occurrences (section, "(inlined)"), 2);
  ns_run_result_free (res);
}
END_TEST

/* A variant whose windows held no operation has no figure per operation: its breakdown
 * and every explanation it is in say so instead of listing functions. */
START_TEST (test_breakdown_without_operations)
{
  NsRunResult *res = run_small ();
  NsVariantResult *b, *p;
  NsComparison *c = first_comparison (res, &b, &p);
  g_autofree char *table = NULL, *head = NULL, *none = NULL, *section = NULL;
  g_autofree char *why = NULL;

  p->ops = 0;
  table = render (res, NS_FORMAT_TABLE);
  head = g_strdup_printf ("where the cycles went, per call (variant %s):", p->name);
  section = section_of (table, head);
  none = g_strdup_printf ("\n  none: variant %s had no call in its measured windows, so there "
                          "is no figure per call\n", p->name);
  ck_assert_msg (g_str_has_suffix (section, none), "%s", section);
  why = g_strdup_printf ("why %s:", c->label);
  g_free (section);
  section = section_of (table, why);
  ck_assert_msg (g_str_has_suffix (section, none), "%s", section);
  head = (g_free (head), g_strdup_printf ("where the cycles went, per call (variant %s):",
                                          b->name));
  g_free (section);
  section = section_of (table, head);
  ck_assert_msg (strstr (section, "none:") == NULL && strstr (section, "\n  function "),
                 "%s", section);
  ns_run_result_free (res);
}
END_TEST

/* A breakdown cut to its first top rows says how many more there are (singular for one),
 * and nothing when top is all of them. */
START_TEST (test_breakdown_top)
{
  NsRunResult *res = run_small ();
  NsVariantResult *vr = res->variants->pdata[0];
  g_autofree char *head = g_strdup_printf ("where the cycles went, per call (variant %s):",
                                           vr->name);
  guint n = vr->breakdown->len;

  ck_assert_uint_ge (n, 3);
  for (guint top = n - 2; top <= n; top++) {
    NsReportOptions opt = { NS_FORMAT_TABLE, TRUE, FALSE, top, FALSE, FALSE };
    g_autoptr (GString) out = g_string_new (NULL);
    g_autofree char *section = NULL;
    const char *more = top == n - 2 ? "\n  (2 more functions: --top 0 shows all)\n"
                                    : "\n  (1 more function: --top 0 shows all)\n";

    ns_report_run (out, res, &opt);
    section = section_of (out->str, head);
    ck_assert_uint_eq (count_occurrences (section, "\n  chain_fn_"), top);
    if (top == n)
      ck_assert_msg (strstr (section, "more function") == NULL, "%s", section);
    else
      ck_assert_msg (strstr (section, more) != NULL, "%s", section);
  }
  ns_run_result_free (res);
}
END_TEST

/* An explanation's events line gives each counted event whose count per operation changed
 * by 0.005 or more, in cause order; causes the machine does not count as events are not
 * in it, and with no such change there is no line. */
START_TEST (test_explain_events)
{
  NsRunResult *res = run_small ();
  NsVariantResult *b, *p;
  int named[3] = { 0 }, n_named = 0, unnamed = -1;
  g_autofree char *line = NULL, *want = NULL;

  first_comparison (res, &b, &p);
  for (int k = 0; k < NS_CAUSE_N; k++) {
    if (ns_event_name (k) == NULL && unnamed < 0)
      unnamed = k;
    else if (ns_event_name (k) != NULL && n_named < 3)
      named[n_named++] = k;
  }
  ck_assert_int_ge (unnamed, 0);
  ck_assert_int_eq (n_named, 3);
  memset (b->events_per_op, 0, sizeof b->events_per_op);
  memset (p->events_per_op, 0, sizeof p->events_per_op);
  b->events_per_op[named[0]] = 1.0;
  p->events_per_op[named[0]] = 2.0;
  p->events_per_op[named[1]] = 0.004;
  p->events_per_op[named[2]] = -0.005;
  p->events_per_op[unnamed] = 5.0;
  line = explain_line (res, "  events:");
  want = g_strdup_printf ("  events: %s +1.00, %s -0.01", ns_event_name (named[0]),
                          ns_event_name (named[2]));
  ck_assert_str_eq (line, want);
  p->events_per_op[named[0]] = 1.004;
  p->events_per_op[named[2]] = 0.0;
  g_free (line);
  line = explain_line (res, "  events:");
  ck_assert_msg (line == NULL, "%s", line);
  ns_run_result_free (res);
}
END_TEST

/* The CSV heading names what a variant after the first ran with differently from it:
 * another CPU, each parameter whose value or source differs; nothing for variants that
 * ran alike. */
START_TEST (test_csv_variant_params)
{
  static const char *const sets[] = { "cache.l3.assoc=8", NULL };
  NsRunResult *res = run_small ();
  NsVariantResult *second = res->variants->pdata[1], *third = res->variants->pdata[2];
  g_autofree char *plain = render (res, NS_FORMAT_CSV), *csv = NULL, *cpu = NULL;
  g_autofree char *param = NULL;

  ck_assert_msg (strstr (plain, "\n# variant ") == NULL, "%s", plain);
  g_free (second->cpu_name);
  second->cpu_name = g_strdup ("other-cpu");
  set_params (third->params, sets);
  csv = render (res, NS_FORMAT_CSV);
  cpu = g_strdup_printf ("\n# variant %s: cpu other-cpu\n", second->name);
  param = g_strdup_printf ("\n# variant %s: param cache.l3.assoc = 8 ways — test\n",
                           third->name);
  ck_assert_msg (strstr (csv, cpu) != NULL, "%s", csv);
  ck_assert_msg (strstr (csv, param) != NULL, "%s", csv);
  ck_assert_uint_eq (count_occurrences (csv, "\n# variant "), 2);
  ns_run_result_free (res);
}
END_TEST

/* An explanation's total from a baseline of 0 cycles per operation gives its relative
 * change as 0 %, not a division by zero. */
START_TEST (test_explain_total_from_zero)
{
  NsRunResult *res = run_small ();
  NsVariantResult *b, *p;
  NsComparison *c = first_comparison (res, &b, &p);
  g_autofree char *line = NULL, *want = NULL;
  double cp = ns_run_cycles_per_op (p);

  for (guint i = 0; i < b->breakdown->len; i++)
    zeroed_row (b, ((NsBreakdownRow *) b->breakdown->pdata[i])->func);
  line = explain_line (res, "  total ");
  want = g_strdup_printf ("  %-32s %9s %9s %+10.2f  (0.00 → %.2f, +0.00 %%; metric %+.2f %%)",
                          "total", "", "", cp, cp, c->delta_pct);
  ck_assert_str_eq (line, want);
  ns_run_result_free (res);
}
END_TEST

/* The stat section's overlaps: none without hidden cycles; else a column for each cause
 * some variant hid cycles of, and a row per variant with exactly those columns. */
START_TEST (test_table_overlapped)
{
  NsRunResult *res = run_small ();
  NsVariantResult *first = res->variants->pdata[0];
  const char *head = "cycles hidden by overlaps per call (all CPUs; not charged):";
  g_autofree char *plain = render (res, NS_FORMAT_TABLE), *table = NULL, *section = NULL;
  g_autoptr (GString) want = g_string_new ("\n");

  ck_assert_msg (strstr (plain, head) == NULL, "%s", plain);
  first->overlapped_per_op[NS_CAUSE_N - 1] = 1.5;
  table = render (res, NS_FORMAT_TABLE);
  section = section_of (table, head);
  g_string_append_printf (want, "%s\n  %-28s %10s\n", head, "variant",
                          ns_cause_name (NS_CAUSE_N - 1));
  for (guint i = 0; i < res->variants->len; i++)
    g_string_append_printf (want, "  %-28s %10.2f\n", variant_names[i], i == 0 ? 1.5 : 0.0);
  ck_assert_str_eq (section, want->str);
  ns_run_result_free (res);
}
END_TEST

/* Adds a thread row to vr. */
static void
add_thread (NsVariantResult *vr, const char *thread, guint cpu, double cycles, double busy)
{
  NsThreadRow *row = g_new0 (NsThreadRow, 1);

  row->thread = g_strdup (thread);
  row->cpu = cpu;
  row->cycles_per_op = cycles;
  row->busy = busy;
  g_ptr_array_add (vr->threads, row);
}

/* Appends to out the line an explanation gives thread on cpu: cycles per operation
 * before and after, their difference and the shares of its CPU. */
static void
thread_line (GString *out, const char *thread, guint cpu, double cb, double cp, double busy_b,
             double busy_p)
{
  g_autofree char *label = g_strdup_printf ("%s (CPU %u)", thread, cpu);

  g_string_append_printf (out, "    %-30s %19s %+10.2f  (%.2f → %.2f; %.1f %% → %.1f %% of its "
                          "CPU)\n", label, "", cp - cb, cb, cp, busy_b * 100.0,
                          busy_p * 100.0);
}

/* An explanation's threads: the baseline's in its order, each against the patched
 * variant's thread of that name on that CPU (0 where it has none), then the patched
 * variant's threads the baseline lacks. */
START_TEST (test_explain_threads)
{
  NsRunResult *res = run_small ();
  NsVariantResult *b, *p;
  const NsThreadRow *tb, *tp;
  g_autofree char *table = NULL;
  g_autoptr (GString) want = g_string_new (NULL);
  const char *at;

  first_comparison (res, &b, &p);
  ck_assert_uint_eq (b->threads->len, 1);
  ck_assert_uint_eq (p->threads->len, 1);
  tb = b->threads->pdata[0];
  tp = p->threads->pdata[0];
  add_thread (b, "gone", 2, 1.25, 0.5);
  add_thread (b, tb->thread, 3, 0.75, 0.125);
  add_thread (p, "extra", 1, 2.5, 0.25);
  table = render (res, NS_FORMAT_TABLE);
  thread_line (want, tb->thread, 0, tb->cycles_per_op, tp->cycles_per_op, tb->busy, tp->busy);
  thread_line (want, "gone", 2, 1.25, 0, 0.5, 0);
  thread_line (want, tb->thread, 3, 0.75, 0, 0.125, 0);
  thread_line (want, "extra", 1, 0, 2.5, 0, 0.25);
  at = strstr (table, "\nwhy ");
  ck_assert_msg (strstr (at, want->str) != NULL &&
                 strstr (at, want->str) < strstr (at + 1, "\nwhy "), "want:\n%s", want->str);
  ns_run_result_free (res);
}
END_TEST

/* Frees an NsStackRow made here. */
static void
stack_row_free (gpointer p)
{
  g_free (((NsStackRow *) p)->stack);
  g_free (p);
}

/* --folded writes each variant's name as its stacks' first frame as it is (a twin's
 * "retpoline (what-if)" was "retpoline_(what-if)", so grep '^VARIANT;' found nothing),
 * but for '%', ';' and control characters as %XX: two names never give one frame ("a b"
 * and "a_b" merged), and no name splits a frame or a line. A stack's cycles are rounded
 * to whole ones (0.5 up) and a stack of 0 gets no line. */
START_TEST (test_folded_names)
{
  static const char *const names[] = { "retpoline (what-if)", "a b", "a_b", "a;b 50%",
                                       "x\ny" };
  static const char *const roots[] = { "retpoline (what-if)", "a b", "a_b", "a%3Bb 50%25",
                                       "x%0Ay" };
  NsRunResult *res = run_small ();
  g_autoptr (GString) out = g_string_new (NULL);
  g_auto (GStrv) lines = NULL;

  ck_assert_uint_eq (res->variants->len, G_N_ELEMENTS (names));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++) {
    NsVariantResult *vr = res->variants->pdata[i];
    NsStackRow *row = g_new0 (NsStackRow, 1);
    g_free (vr->name);
    vr->name = g_strdup (names[i]);
    vr->stacks = g_ptr_array_new_with_free_func (stack_row_free);
    row->stack = g_strdup ("thread;f;[insn]");
    row->cycles = 10 + i;
    g_ptr_array_add (vr->stacks, row);
  }
  for (guint i = 0; i < 2; i++) {          /* rounded to 0 cycles: no line */
    NsStackRow *row = g_new0 (NsStackRow, 1);
    row->stack = g_strdup ("thread;g;[insn]");
    row->cycles = i == 0 ? 0.49 : 0.0;
    g_ptr_array_add (((NsVariantResult *) res->variants->pdata[0])->stacks, row);
  }
  ((NsStackRow *) ((NsVariantResult *) res->variants->pdata[1])->stacks->pdata[0])->cycles = 0.5;
  g_array_set_size (res->comparisons, 0);
  ns_report_folded (out, res);
  lines = g_strsplit (out->str, "\n", -1);
  ck_assert_uint_eq (g_strv_length (lines), G_N_ELEMENTS (names) + 1);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++) {
    g_autofree char *want = g_strdup_printf ("%s;thread;f;[insn] %u", roots[i],
                                             i == 1 ? 1 : 10 + i);  /* 0.5 rounds up */
    ck_assert_str_eq (lines[i], want);
  }
  ns_run_result_free (res);
}
END_TEST

static Suite *
report_suite (void)
{
  Suite *s = suite_create ("report");
  TCase *tc = tcase_create ("core");

  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_format_parse);
  tcase_add_test (tc, test_json);
  tcase_add_test (tc, test_csv);
  tcase_add_test (tc, test_table);
  tcase_add_test (tc, test_table_marks_deltas_under_one_operation);
  tcase_add_test (tc, test_byte_identical);
  tcase_add_test (tc, test_csv_carries_notes);
  tcase_add_test (tc, test_unnamed_variant_named_alike);
  tcase_add_test (tc, test_table_escapes_controls);
  tcase_add_test (tc, test_table_mitigation_columns_fit);
  tcase_add_test (tc, test_table_mitigation_kernels);
  tcase_add_test (tc, test_table_mitigation_marks);
  tcase_add_test (tc, test_table_figure_digits);
  tcase_add_test (tc, test_explain_setup);
  tcase_add_test (tc, test_explain_hides_unprinted_changes);
  tcase_add_test (tc, test_explain_threads);
  tcase_add_test (tc, test_breakdown_rows);
  tcase_add_test (tc, test_breakdown_without_operations);
  tcase_add_test (tc, test_breakdown_top);
  tcase_add_test (tc, test_explain_events);
  tcase_add_test (tc, test_csv_variant_params);
  tcase_add_test (tc, test_explain_total_from_zero);
  tcase_add_test (tc, test_table_overlapped);
  tcase_add_test (tc, test_folded_names);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (report_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
