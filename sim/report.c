/* report.c — run results as a terminal table, CSV (with a commented header holding the
 * full parameter set) or JSON (everything: parameters with sources, mitigations and why,
 * inlining decisions, per-repetition values, stop rules, per-function breakdown). No wall
 * time is written: the same scenario and seed give byte-identical output. */
#include "config.h"
#include <math.h>
#include <string.h>
#include "report.h"
#include "csv.h"
#include "json.h"

/* Parses "table", "csv" or "json". */
gboolean
ns_format_parse (const char *text, NsFormat *out)
{
  static const char *const names[] = { "table", "csv", "json" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (text && !strcmp (text, names[i])) {
      *out = (NsFormat) i;
      return TRUE;
    }
  return FALSE;
}

/* The variant's name in every output (ns_run_output_name: the scenario's for the unnamed
 * variant of a scenario without variants). */
static const char *
variant_name (const NsRunResult *r, const NsVariantResult *vr)
{
  return ns_run_output_name (r->scenario_name, vr->name);
}

/* text as the table shows it (newly allocated): each control character written as a C
 * escape and a backslash doubled (ns_escape_controls), so that a row stays one line (a
 * --set or --what-if value may hold a newline), as in the CSV heading. */
static char *
table_text (const char *text)
{
  GString *shown = g_string_new (NULL);

  ns_escape_controls (shown, text);
  return g_string_free (shown, FALSE);
}

/* The variant's name as the table shows it (newly allocated; table_text). */
static char *
variant_label (const NsRunResult *r, const NsVariantResult *vr)
{
  return table_text (variant_name (r, vr));
}

/* The width in characters text takes in the table (table_text; not bytes: names may
 * hold "→"). */
static int
table_width (const char *text)
{
  g_autofree char *shown = table_text (text);

  return (int) g_utf8_strlen (shown, -1);
}

/* The variant column's width in characters: 28, or the longest label's (a what-if twin's
 * name is its variant's and " (what-if)"). */
static int
variant_width (const NsRunResult *r)
{
  int width = 28;

  for (guint i = 0; i < r->variants->len; i++)
    width = MAX (width, table_width (variant_name (r, r->variants->pdata[i])));
  return width;
}

/* Appends text as the table shows it (table_text), padded with spaces to width
 * characters. */
static void
append_padded (GString *out, const char *text, int width)
{
  g_autofree char *shown = table_text (text);

  g_string_append (out, shown);
  for (int n = (int) g_utf8_strlen (shown, -1); n < width; n++)
    g_string_append_c (out, ' ');
}

/* The table's heading: scenario (and its description, if any), file, seed, and the first
 * variant's CPU and kernel (with the config package its .config builds on, if any). */
static void
table_header (GString *out, const NsRunResult *r)
{
  const NsVariantResult *first = r->variants->pdata[0];

  g_string_append_printf (out, "scenario  %s%s%s\n", r->scenario_name,
                          r->description && r->description[0] ? " — " : "",
                          r->description ? r->description : "");
  g_string_append_printf (out, "file      %s\nseed      %" G_GUINT64_FORMAT "\n",
                          r->scenario_path, r->seed);
  g_string_append_printf (out, "cpu       %s (%s)\nkernel    %s", first->cpu_name,
                          first->cpu_model ? first->cpu_model : "", first->kernel);
  if (first->base_config[0] != '\0')
    g_string_append_printf (out, ", .config on %s", first->base_config);
  g_string_append_c (out, '\n');
  if (r->sets != NULL) {
    g_autofree char *sets = g_strjoinv (", ", r->sets);
    g_autofree char *shown = table_text (sets);
    g_string_append_printf (out, "set       %s (over the scenario; the description above is "
                            "the file's)\n", shown);
  }
}

/* The distinct model notes of r's variants (borrowed), in first-seen order; in *holders,
 * for each the variants that have it, ", "-joined, or NULL when all of them do. */
static GPtrArray *
model_notes (const NsRunResult *r, GPtrArray **holders)
{
  GPtrArray *notes = g_ptr_array_new ();
  g_autoptr (GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                        (GDestroyNotify) g_ptr_array_unref);

  *holders = g_ptr_array_new_with_free_func (g_free);
  for (guint v = 0; v < r->variants->len; v++) {
    const NsVariantResult *vr = r->variants->pdata[v];
    for (guint i = 0; vr->notes && vr->notes[i]; i++) {
      GPtrArray *list = g_hash_table_lookup (names, vr->notes[i]);
      if (list == NULL) {
        list = g_ptr_array_new ();
        g_hash_table_insert (names, vr->notes[i], list);
        g_ptr_array_add (notes, vr->notes[i]);
      }
      g_ptr_array_add (list, (gpointer) variant_name (r, vr));
    }
  }
  for (guint i = 0; i < notes->len; i++) {
    GPtrArray *list = g_hash_table_lookup (names, notes->pdata[i]);
    GString *joined = g_string_new (NULL);
    for (guint n = 0; list->len < r->variants->len && n < list->len; n++)
      g_string_append_printf (joined, "%s%s", n ? ", " : "", (const char *) list->pdata[n]);
    g_ptr_array_add (*holders, joined->len ? g_string_free (joined, FALSE)
                                           : (g_string_free (joined, TRUE), NULL));
  }
  return notes;
}

/* The table's "note      TEXT" line for each model note of r's variants (model_notes),
 * "note      (VARIANT, …) TEXT" for one only some have: what the run stands for (a
 * kernel.version a model does not implement runs another's rules), as CSV and JSON
 * carry them. */
static void
table_notes (GString *out, const NsRunResult *r)
{
  g_autoptr (GPtrArray) holders = NULL;
  g_autoptr (GPtrArray) notes = model_notes (r, &holders);

  for (guint i = 0; i < notes->len; i++) {
    g_autofree char *text = table_text (notes->pdata[i]);
    g_autofree char *who = holders->pdata[i] ? table_text (holders->pdata[i]) : NULL;
    g_string_append_printf (out, "note      %s%s%s%s\n", who ? "(" : "", who ? who : "",
                            who ? ") " : "", text);
  }
}

/* The value (newly allocated) the explanation lines give key, "?" if none, and its mark
 * (ns_mitigation_explain_value). */
static char *
mitigation_value (char **explain, const char *key, const char **mark)
{
  for (guint i = 0; explain && explain[i]; i++) {
    char *value = ns_mitigation_explain_value (explain[i], key, mark);
    if (value != NULL)
      return value;
  }
  *mark = "";
  return g_strdup ("?");
}

/* The cell of one mitigation of vr: its value then its mark (newly allocated); *mark as
 * mitigation_value gives it. */
static char *
mitigation_cell (const NsVariantResult *vr, const char *key, const char **mark)
{
  g_autofree char *v = mitigation_value (vr->mitigations, key, mark);

  return g_strconcat (v, *mark, NULL);
}

/* The width of the column of key: 11, or the widest of its cells ("eibrs,retpoline*"). */
static int
mitigation_width (const NsRunResult *r, const char *key)
{
  int width = 11;

  for (guint i = 0; i < r->variants->len; i++) {
    const char *mark = "";
    g_autofree char *cell = mitigation_cell (r->variants->pdata[i], key, &mark);
    width = MAX (width, (int) strlen (cell));
  }
  return width;
}

/* The kernels the variants run, as the mitigations' footnote names them: "kernel 6.9.0-rc1"
 * when they share one, else "each variant's kernel (6.9.0-rc1, 6.1.93)"; newly allocated. */
static char *
variant_kernels (const NsRunResult *r)
{
  g_autoptr (GPtrArray) seen = g_ptr_array_new ();
  g_autofree char *list = NULL;

  for (guint i = 0; i < r->variants->len; i++) {
    const char *k = ((NsVariantResult *) r->variants->pdata[i])->kernel;
    if (!g_ptr_array_find_with_equal_func (seen, k, g_str_equal, NULL))
      g_ptr_array_add (seen, (gpointer) k);
  }
  g_ptr_array_add (seen, NULL);
  if (seen->len == 2)
    return g_strconcat ("kernel ", (char *) seen->pdata[0], NULL);
  list = g_strjoinv (", ", (char **) seen->pdata);
  return g_strdup_printf ("each variant's kernel (%s)", list);
}

/* One row per variant with the mitigation in force; '*' marks command-line settings, '!'
 * command-line keys ignored on this CPU, '~' the kernel's own choice over the command
 * line's. The full reasons (with the profile's sources) are in the JSON output. */
static void
table_mitigations (GString *out, const NsRunResult *r)
{
  static const char *const keys[] = { "spectre_v2", "retbleed", "spec_rstack_overflow",
                                       "pti", "mds", "bhi" };
  static const char *const heads[] = { "spectre_v2", "retbleed", "srso", "pti", "mds", "bhi" };
  gboolean any_cmdline = FALSE, any_ignored = FALSE, any_chosen = FALSE;
  g_autofree char *kernels = NULL;
  int widths[G_N_ELEMENTS (keys)];

  int width = variant_width (r);

  for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
    widths[k] = mitigation_width (r, keys[k]);
  g_string_append_c (out, '\n');
  append_padded (out, "mitigations in force", width);
  for (guint k = 0; k < G_N_ELEMENTS (heads); k++)
    g_string_append_printf (out, " %-*s", widths[k], heads[k]);
  g_string_append_c (out, '\n');
  for (guint i = 0; i < r->variants->len; i++) {
    const NsVariantResult *vr = r->variants->pdata[i];
    append_padded (out, variant_name (r, vr), width);
    for (guint k = 0; k < G_N_ELEMENTS (keys); k++) {
      const char *mark = "";
      g_autofree char *cell = mitigation_cell (vr, keys[k], &mark);
      any_cmdline = any_cmdline || *mark == '*';
      any_ignored = any_ignored || *mark == '!';
      any_chosen = any_chosen || *mark == '~';
      g_string_append_printf (out, " %-*s", widths[k], cell);
    }
    g_string_append_c (out, '\n');
  }
  kernels = variant_kernels (r);
  g_string_append_printf (out, "(%s%s%sothers: the CPU profile's default for %s; "
                          "--format json gives every reason and source)\n",
                          any_cmdline ? "* = set on the kernel command line; " : "",
                          any_ignored ? "! = its kernel command-line key ignored, the CPU "
                          "does not have the bug (see its <bugs>); " : "",
                          any_chosen ? "~ = changed by the kernel's own selection (what the "
                          "CPU, the other keys and the build allow); " : "", kernels);
}

/* A line per variant: metric, value, CV ("-" if undefined), repetitions and the last
 * repetition's stop rule (each variant needs n_reps > 0). */
static void
table_results (GString *out, const NsRunResult *r)
{
  int width = variant_width (r);

  g_string_append_c (out, '\n');
  append_padded (out, "variant", width);
  g_string_append_printf (out, " %-18s %14s %8s %5s  %s\n", "metric", "value", "cv", "reps",
                          "stop rule (last repetition)");
  for (guint i = 0; i < r->variants->len; i++) {
    const NsVariantResult *vr = r->variants->pdata[i];
    g_autofree char *cv = isfinite (vr->cv) ? g_strdup_printf ("%.4f", vr->cv)
                                            : g_strdup ("-");

    append_padded (out, variant_name (r, vr), width);
    g_string_append_printf (out, " %-18s %14.4f %8s %5u  %s\n",
                            vr->metric, vr->value, cv, vr->n_reps,
                            vr->stop_rules[vr->n_reps - 1]);
  }
}

/* Decimals that show a positive step of a percentage: 2 from 0.01 up, else as many as its
 * first two significant digits need (a step of 0.0047 % is not "0.00 %"). */
static int
step_digits (double step)
{
  int digits = 2;

  if (step >= 0.01)
    return 2;
  while (digits < 8 && step < pow (10.0, -digits))
    digits++;
  return digits + 1;
}

/* Decimals that give a comparison's figures of magnitude v five significant digits, from
 * 2 up to the 4 of the variant table (so the delta recomputes from what is printed); 2 for
 * a figure of 0. */
static int
value_digits (double v)
{
  if (!isfinite (v) || v >= 100.0 || v == 0.0)
    return 2;
  if (v >= 10.0)
    return 3;
  return 4;
}

/* A line per comparison (baseline, patched, delta), labels padded by characters, a delta
 * smaller than one operation's step marked and explained below; nothing if there are none. */
static void
table_comparisons (GString *out, const NsRunResult *r)
{
  int width = 28;
  double max_step = 0.0;        /* the largest step of a comparison under its step */

  if (r->comparisons->len == 0)
    return;
  for (guint i = 0; i < r->comparisons->len; i++)
    width = MAX (width, table_width (g_array_index (r->comparisons, NsComparison, i).label));
  g_string_append_printf (out, "\n%-*s %16s %16s %10s\n", width, "comparison", "baseline",
                          "patched", "delta");
  for (guint i = 0; i < r->comparisons->len; i++) {
    const NsComparison *c = &g_array_index (r->comparisons, NsComparison, i);
    const NsVariantResult *b = r->variants->pdata[c->baseline];
    const NsVariantResult *p = r->variants->pdata[c->patched];
    double step = ns_run_one_op_step_pct (b->value, p->value, b->ops, p->ops);
    int digits = value_digits (MIN (fabs (b->value), fabs (p->value)));

    append_padded (out, c->label, width);      /* labels may hold "→" or "±", or a
                                                   what-if's newline (escaped) */
    g_string_append_printf (out, " %16.*f %16.*f ", digits, b->value, digits, p->value);
    if (!isfinite (c->delta_pct)) {
      g_string_append_printf (out, "%10s\n", "n/a");
      continue;
    }
    g_string_append_printf (out, "%+9.2f%%", c->delta_pct);
    if (step > 0.0 && fabs (c->delta_pct) < step) {
      g_string_append (out, " *");
      max_step = MAX (max_step, step);
    }
    g_string_append_c (out, '\n');
  }
  if (max_step > 0.0)
    g_string_append_printf (out, "* under one operation of the runs: the metric counts whole "
                            "operations in the measured time,\n  and one moves the delta by "
                            "up to %.*f %% here; lengthen measure/@duration to resolve it\n",
                            step_digits (max_step), max_step);
}

/* The " cause=cycles" items of by_cause that are not 0 (signed for delta), and a newline. */
static void
table_causes (GString *out, const double *by_cause, gboolean delta)
{
  for (int c = 0; c < NS_CAUSE_N; c++)
    if (fabs (by_cause[c]) > 0.005)
      g_string_append_printf (out, delta ? " %s=%+.2f" : " %s=%.2f", ns_cause_name (c),
                              by_cause[c]);
  g_string_append_c (out, '\n');
}

/* v, or 0 where it would print as ±0 at half_step (half the last printed digit), so no
 * figure prints as "-0.000" */
static double
printed (double v, double half_step)
{
  return fabs (v) < half_step ? 0.0 : v;
}

/* One breakdown line: name, calls, inlined, cycles (bracketed for an inlined body), causes;
 * delta: a line of differences (signed figures, causes that changed). */
static void
table_breakdown_line (GString *out, const char *name, double calls, double inlined,
                      double total, const double *by_cause, gboolean body, gboolean delta)
{
  calls = printed (calls, 0.0005);
  inlined = printed (inlined, 0.0005);
  total = printed (total, 0.005);
  if (delta)
    g_string_append_printf (out, body ? "  %-32s %+9.3f %+9.3f [%+9.2f]"
                                      : "  %-32s %+9.3f %+9.3f %+10.2f ",
                            name, calls, inlined, total);
  else
    g_string_append_printf (out, body ? "  %-32s %9.3f %9.3f [%9.2f]"
                                      : "  %-32s %9.3f %9.3f %10.2f ",
                            name, calls, inlined, total);
  table_causes (out, by_cause, delta);
}

/* Appends " %10.2f" of a per-operation figure, or " n/a" in its width when there is none
 * (a variant whose windows held no operation). */
static void
table_per_op (GString *out, double v)
{
  if (isfinite (v))
    g_string_append_printf (out, " %10.2f", v);
  else
    g_string_append_printf (out, " %10s", "n/a");
}

/* TRUE, after a line saying so, if variant vr of r has no per-operation figures. */
static gboolean
table_no_ops (GString *out, const NsRunResult *r, const NsVariantResult *vr)
{
  g_autofree char *label = NULL;

  if (vr->ops > 0)
    return FALSE;
  label = variant_label (r, vr);
  g_string_append_printf (out, "  none: variant %s had no %s in its measured windows, so "
                          "there is no figure per %s\n", label, vr->op_name, vr->op_name);
  return TRUE;
}

/* Rows of a breakdown (or of differences): a line per function's out-of-line frames and
 * a bracketed line for the code of its inlined invocations, the first top functions (0:
 * all) and a line saying how many more there are; TRUE if any bracketed line. */
static gboolean
table_breakdown_rows (GString *out, GPtrArray *rows, guint top, gboolean delta)
{
  gboolean any_body = FALSE;

  for (guint i = 0; i < rows->len && (top == 0 || i < top); i++) {
    const NsBreakdownRow *row = rows->pdata[i];
    gboolean body = fabs (row->body_total_per_op) > 0.005;

    if (!body || fabs (row->calls_per_op) > 0 || fabs (row->total_per_op) > 0.005)
      table_breakdown_line (out, row->func, row->calls_per_op, body ? 0 : row->inlined_per_op,
                            row->total_per_op, row->cycles_per_op, FALSE, delta);
    if (body) {
      char *name = g_strdup_printf ("%s (inlined)", row->func);
      table_breakdown_line (out, name, 0, row->inlined_per_op, row->body_total_per_op,
                            row->body_per_op, TRUE, delta);
      g_free (name);
      any_body = TRUE;
    }
  }
  if (top != 0 && rows->len > top)
    g_string_append_printf (out, "  (%u more function%s: --top 0 shows all)\n",
                            rows->len - top, rows->len - top == 1 ? "" : "s");
  return any_body;
}

/* The legend of the bracketed inlined-body lines. */
static void
table_body_note (GString *out)
{
  g_string_append (out, "  [cycles]: the code of the function's inlined invocations; they "
                   "are already counted in the\n  lines of the functions it was inlined "
                   "into, as perf attributes inlined code\n");
}

/* The total line of a variant's breakdown: cycles per operation over every function
 * (ns_run_cycles_per_op; the inlined bodies are inside them), by cause. */
static void
table_breakdown_total (GString *out, const NsVariantResult *vr)
{
  double by_cause[NS_CAUSE_N] = { 0 };

  for (guint i = 0; i < vr->breakdown->len; i++) {
    const NsBreakdownRow *row = vr->breakdown->pdata[i];
    for (int c = 0; c < NS_CAUSE_N; c++)
      by_cause[c] += row->cycles_per_op[c];
  }
  g_string_append_printf (out, "  %-32s %9s %9s %10.2f ", "total", "", "",
                          ns_run_cycles_per_op (vr));
  table_causes (out, by_cause, FALSE);
}

/* "name (CPU n)" of a thread row (newly allocated). */
static char *
thread_label (const NsThreadRow *row)
{
  return g_strdup_printf ("%s (CPU %u)", row->thread, row->cpu);
}

/* The total split by thread: each thread's cycles per operation and the share of its
 * CPU's measured time they fill (the busiest CPU sets a saturated workload's rate). */
static void
table_breakdown_threads (GString *out, const NsVariantResult *vr)
{
  g_string_append_printf (out, "  %-32s %9s %9s %10s  %s\n", "by thread", "", "", "",
                          "share of its CPU's measured time");
  for (guint i = 0; i < vr->threads->len; i++) {
    const NsThreadRow *row = vr->threads->pdata[i];
    g_autofree char *label = thread_label (row);
    g_string_append_printf (out, "    %-30s %9s %9s %10.2f  %.1f %%\n", label, "", "",
                            row->cycles_per_op, row->busy * 100.0);
  }
}

/* The breakdown of one variant: its first top functions (0: all), then the total and its
 * split by thread. */
static void
table_breakdown (GString *out, const NsRunResult *r, const NsVariantResult *vr, guint top)
{
  g_autofree char *label = variant_label (r, vr);

  g_string_append_printf (out, "\nwhere the cycles went, per %s (variant %s):\n",
                          vr->op_name, label);
  if (table_no_ops (out, r, vr))
    return;
  g_string_append_printf (out, "  %-32s %9s %9s %10s  %s\n", "function", "calls", "inlined",
                          "cycles", "by cause");
  if (table_breakdown_rows (out, vr->breakdown, top, FALSE))
    table_body_note (out);
  table_breakdown_total (out, vr);
  table_breakdown_threads (out, vr);
}

/* TRUE if some variant of r has a non-zero value of cause in the per-cause array at
 * byte offset `member` of NsVariantResult (events_per_op, overlapped_per_op). */
static gboolean
any_per_op (const NsRunResult *r, glong member, NsCause cause)
{
  for (guint i = 0; i < r->variants->len; i++)
    if (((const double *) G_STRUCT_MEMBER_P (r->variants->pdata[i], member))[cause] > 0)
      return TRUE;
  return FALSE;
}

/* TRUE if some variant of r counted events of cause. */
static gboolean
any_events (const NsRunResult *r, NsCause cause)
{
  return any_per_op (r, G_STRUCT_OFFSET (NsVariantResult, events_per_op), cause);
}

/* TRUE if some variant of r had cycles of cause hidden by an overlap. */
static gboolean
any_overlapped (const NsRunResult *r, NsCause cause)
{
  return any_per_op (r, G_STRUCT_OFFSET (NsVariantResult, overlapped_per_op), cause);
}

/* Cycles per operation that overlaps hid (not in the cycles above), a line per variant:
 * I-fetch under the front end's lead; call, beside-work and Safe RET refills under a data
 * miss. */
static void
table_overlapped (GString *out, const NsRunResult *r)
{
  gboolean any = FALSE;

  for (int c = 0; c < NS_CAUSE_N; c++)
    any |= any_overlapped (r, c);
  if (!any)
    return;
  g_string_append_printf (out, "\ncycles hidden by overlaps per %s (all CPUs; not charged):\n"
                          "  ", ((const NsVariantResult *) r->variants->pdata[0])->op_name);
  append_padded (out, "variant", variant_width (r));
  for (int c = 0; c < NS_CAUSE_N; c++)
    if (any_overlapped (r, c))
      g_string_append_printf (out, " %10s", ns_cause_name (c));
  g_string_append_c (out, '\n');
  for (guint i = 0; i < r->variants->len; i++) {
    const NsVariantResult *vr = r->variants->pdata[i];
    g_string_append (out, "  ");
    append_padded (out, variant_name (r, vr), variant_width (r));
    for (int c = 0; c < NS_CAUSE_N; c++)
      if (any_overlapped (r, c))
        table_per_op (out, vr->overlapped_per_op[c]);
    g_string_append_c (out, '\n');
  }
}

/* Event counts per operation, a line per variant, like perf stat: cycles, then every
 * counted event that occurred in some variant; then the cycles overlaps hid. */
static void
table_stat (GString *out, const NsRunResult *r)
{
  const NsVariantResult *first = r->variants->pdata[0];

  int width = variant_width (r);

  g_string_append_printf (out, "\nevents per %s (all CPUs):\n  ", first->op_name);
  append_padded (out, "variant", width);
  g_string_append_printf (out, " %10s", "cycles");
  for (int c = 0; c < NS_CAUSE_N; c++)
    if (ns_event_name (c) && any_events (r, c))
      g_string_append_printf (out, " %10s", ns_event_name (c));
  g_string_append_c (out, '\n');
  for (guint i = 0; i < r->variants->len; i++) {
    const NsVariantResult *vr = r->variants->pdata[i];
    g_string_append (out, "  ");
    append_padded (out, variant_name (r, vr), width);
    table_per_op (out, ns_run_cycles_per_op (vr));
    for (int c = 0; c < NS_CAUSE_N; c++)
      if (ns_event_name (c) && any_events (r, c))
        table_per_op (out, vr->events_per_op[c]);
    g_string_append_c (out, '\n');
  }
  table_overlapped (out, r);
}

/* The events per operation that changed from b to p, as "name ±d" items. */
static void
table_explain_events (GString *out, const NsVariantResult *b, const NsVariantResult *p)
{
  gboolean any = FALSE;

  for (int c = 0; c < NS_CAUSE_N; c++) {
    double d = p->events_per_op[c] - b->events_per_op[c];
    if (ns_event_name (c) == NULL || fabs (d) < 0.005)
      continue;
    g_string_append_printf (out, any ? ", %s %+.2f" : "  events: %s %+.2f",
                            ns_event_name (c), d);
    any = TRUE;
  }
  if (any)
    g_string_append_c (out, '\n');
}

/* What the two variants of a comparison ran with differently, for table_explain_setup. */
typedef struct {
  const NsParams *other;    /* the patched variant's parameters */
  GString        *items;    /* "name a → b unit" items, the clock first */
  guint           n;        /* parameters that differ */
  guint           shown;    /* of them in items: the clock and the first others */
} ParamsDiff;

/* Parameters that differ named in the explain line besides the clock. */
#define EXPLAIN_PARAMS_SHOWN 6

/* ns_params_foreach callback: adds def to the ParamsDiff data if its value differs. */
static void
params_diff_one (const NsParamDef *def, const char *value, const char *source, gpointer data)
{
  ParamsDiff *d = data;
  const char *theirs = ns_params_get_text (d->other, def->name);
  g_autofree char *item = NULL;

  (void) source;
  if (g_strcmp0 (value, theirs) == 0)
    return;
  item = g_strdup_printf ("%s %s → %s %s", def->name, value, theirs, def->unit);
  d->n++;
  if (g_str_equal (def->name, "cpu.freq_ghz")) {
    g_string_prepend (d->items, d->items->len ? ", " : "");
    g_string_prepend (d->items, item);
    d->shown++;
  } else if (d->shown < EXPLAIN_PARAMS_SHOWN) {
    g_string_append_printf (d->items, "%s%s", d->items->len ? ", " : "", item);
    d->shown++;
  }
}

/* The .config options both runs read and took differently, as "KEY a → b" items in key
 * order (an option one run never read is no difference of the builds: the other's code
 * path did not ask); their number in *n, of which the first EXPLAIN_PARAMS_SHOWN
 * listed. */
static GString *
config_diff (char **a, char **b, guint *n)
{
  GHashTable *theirs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  GString *items = g_string_new (NULL);

  *n = 0;
  for (char **l = b; l != NULL && *l != NULL; l++) {
    gboolean stated;
    char *v, *k = ns_build_config_line_split (*l, &v, &stated);

    g_hash_table_insert (theirs, k, v ? v : g_strdup ("-"));
  }
  for (char **l = a; l != NULL && *l != NULL; l++) {
    gboolean stated;
    g_autofree char *mine = NULL;
    g_autofree char *k = ns_build_config_line_split (*l, &mine, &stated);
    const char *other = g_hash_table_lookup (theirs, k);

    if (mine == NULL)
      mine = g_strdup ("-");
    if (other == NULL || strcmp (mine, other) == 0)
      continue;
    if (++*n <= EXPLAIN_PARAMS_SHOWN)
      g_string_append_printf (items, "%s%s %s → %s", items->len ? ", " : "", k, mine, other);
  }
  g_hash_table_destroy (theirs);
  return items;
}

/* The line saying what the compared variants ran with differently, beyond their names:
 * another CPU profile, the parameter values that differ (the clock first: the cycles
 * below are clock-free, so a clock change moves the metric and not them) and the .config
 * options the runs took differently. */
static void
table_explain_setup (GString *out, const NsVariantResult *b, const NsVariantResult *p)
{
  ParamsDiff d = { p->params, g_string_new (NULL), 0, 0 };
  guint n_config;
  GString *config = config_diff (b->config_in_force, p->config_in_force, &n_config);

  ns_params_foreach (b->params, params_diff_one, &d);
  if (strcmp (b->cpu_name, p->cpu_name) != 0)
    g_string_append_printf (out, "  ran on: cpu %s → %s\n", b->cpu_name, p->cpu_name);
  if (d.n > 0)
    g_string_append_printf (out, "  parameters that differ (%u): %s%s\n", d.n, d.items->str,
                            d.n > d.shown ? ", … (--format json gives each variant's full "
                                            "parameter set)" : "");
  if (n_config > 0)
    g_string_append_printf (out, "  .config that differs (%u): %s%s\n", n_config, config->str,
                            n_config > EXPLAIN_PARAMS_SHOWN ? ", … (--format json gives each "
                                                             "variant's config)" : "");
  g_string_free (config, TRUE);
  g_string_free (d.items, TRUE);
}

/* The rows of differences a table prints: those with a figure that does not print as 0;
 * *hidden counts the others (the JSON lists every row). */
static GPtrArray *
table_printed_deltas (GPtrArray *rows, guint *hidden)
{
  GPtrArray *shown = g_ptr_array_new ();

  *hidden = 0;
  for (guint i = 0; i < rows->len; i++) {
    NsBreakdownRow *d = rows->pdata[i];
    if (fabs (d->total_per_op) < 0.005 && fabs (d->body_total_per_op) < 0.005 &&
        fabs (d->calls_per_op) < 0.0005 && fabs (d->inlined_per_op) < 0.0005)
      (*hidden)++;
    else
      g_ptr_array_add (shown, d);
  }
  return shown;
}

/* The row of vr's threads named like row, or NULL. */
static const NsThreadRow *
thread_row_like (const NsVariantResult *vr, const NsThreadRow *row)
{
  for (guint i = 0; i < vr->threads->len; i++) {
    const NsThreadRow *other = vr->threads->pdata[i];
    if (other->cpu == row->cpu && g_str_equal (other->thread, row->thread))
      return other;
  }
  return NULL;
}

/* One thread's line of an explanation: patched − baseline cycles per operation, then
 * both, and the shares of its CPU (a thread one variant lacks counts 0 there). */
static void
table_explain_thread (GString *out, const NsThreadRow *b, const NsThreadRow *p)
{
  const NsThreadRow *row = b != NULL ? b : p;
  g_autofree char *label = NULL;
  double cb = b ? b->cycles_per_op : 0.0, cp = p ? p->cycles_per_op : 0.0;

  g_return_if_fail (row != NULL);
  label = thread_label (row);
  g_string_append_printf (out, "    %-30s %9s %9s %+10.2f  (%.2f → %.2f; %.1f %% → %.1f %% "
                          "of its CPU)\n", label, "", "", printed (cp - cb, 0.005), cb, cp,
                          b ? b->busy * 100.0 : 0.0, p ? p->busy * 100.0 : 0.0);
}

/* The explanation's total split by thread: where the change happened, and which CPU is
 * the busy one before and after. */
static void
table_explain_threads (GString *out, const NsVariantResult *b, const NsVariantResult *p)
{
  g_string_append_printf (out, "  %-32s %9s %9s %10s  %s\n", "by thread", "", "", "",
                          "(baseline → patched cycles; share of its CPU's measured time)");
  for (guint i = 0; i < b->threads->len; i++)
    table_explain_thread (out, b->threads->pdata[i],
                          thread_row_like (p, b->threads->pdata[i]));
  for (guint i = 0; i < p->threads->len; i++)
    if (thread_row_like (b, p->threads->pdata[i]) == NULL)
      table_explain_thread (out, NULL, p->threads->pdata[i]);
}

/* Why a comparison's delta: per function, patched − baseline cycles per operation. */
static void
table_explain (GString *out, const NsRunResult *r, const NsComparison *c, guint top)
{
  g_autofree char *metric_change = isfinite (c->delta_pct) ?
    g_strdup_printf ("%+.2f %%", c->delta_pct) : g_strdup ("n/a");
  const NsVariantResult *b = r->variants->pdata[c->baseline];
  const NsVariantResult *p = r->variants->pdata[c->patched];
  GPtrArray *rows = ns_run_breakdown_delta (b, p);
  double cb = ns_run_cycles_per_op (b), cp = ns_run_cycles_per_op (p);
  g_autofree char *label = table_text (c->label), *bl = variant_label (r, b);
  g_autofree char *pl = variant_label (r, p);
  GPtrArray *shown;
  guint hidden;

  g_string_append_printf (out, "\nwhy %s: %s → %s, per %s, patched − baseline "
                          "(cycles on all CPUs):\n", label, bl, pl, b->op_name);
  table_explain_setup (out, b, p);
  if (table_no_ops (out, r, b) || table_no_ops (out, r, p)) {
    g_ptr_array_unref (rows);
    return;
  }
  g_string_append_printf (out, "  %-32s %9s %9s %10s  %s\n", "function", "calls", "inlined",
                          "cycles", "by cause");
  shown = table_printed_deltas (rows, &hidden);
  if (table_breakdown_rows (out, shown, top, TRUE))
    table_body_note (out);
  if (hidden > 0)
    g_string_append_printf (out, "  (%u more function%s changed by under 0.005 cycles and "
                            "0.0005 calls: --format json lists them)\n", hidden,
                            hidden == 1 ? "" : "s");
  g_ptr_array_unref (shown);
  g_string_append_printf (out, "  %-32s %9s %9s %+10.2f  (%.2f → %.2f, %+.2f %%; "
                          "metric %s)\n", "total", "", "", cp - cb, cb, cp,
                          cb > 0 ? (cp - cb) / cb * 100.0 : 0.0, metric_change);
  table_explain_threads (out, b, p);
  table_explain_events (out, b, p);
  g_ptr_array_unref (rows);
}

/* The inlining decisions of one variant, a line each. */
static void
table_inlining (GString *out, const NsRunResult *r, const NsVariantResult *vr)
{
  g_autofree char *label = variant_label (r, vr);

  g_string_append_printf (out, "\ninlining decisions (variant %s, kernel %s):\n", label,
                          vr->kernel);
  for (guint i = 0; vr->inlining && vr->inlining[i]; i++)
    g_string_append_printf (out, "  %s\n", vr->inlining[i]);
}

/* The terminal table: heading, mitigations, results and comparisons, then the stat,
 * explain, breakdown and inlining sections opt asks for. */
static void
report_table (GString *out, const NsRunResult *r, const NsReportOptions *opt)
{
  table_header (out, r);
  table_notes (out, r);
  table_mitigations (out, r);
  table_results (out, r);
  table_comparisons (out, r);
  if (opt->stat)
    table_stat (out, r);
  for (guint i = 0; opt->explain && i < r->comparisons->len; i++)
    table_explain (out, r, &g_array_index (r->comparisons, NsComparison, i), opt->top);
  for (guint i = 0; i < r->variants->len; i++) {
    if (opt->breakdown)
      table_breakdown (out, r, r->variants->pdata[i], opt->top);
    if (opt->inlining)
      table_inlining (out, r, r->variants->pdata[i]);
  }
}

/* ns_params_foreach callback: appends "# param NAME = VALUE UNIT — SOURCE" to the GString
 * data. */
static void
param_comment (const NsParamDef *def, const char *value, const char *source, gpointer data)
{
  ns_csv_comment (data, "param %s = %s %s — %s", def->name, value, def->unit, source);
}

/* Appends the parameter set as comment lines. */
void
ns_report_params_comment (GString *out, const NsParams *params)
{
  ns_params_foreach (params, param_comment, out);
}

/* The parameter set as "# param …" lines, one string each (without the newline). */
static char **
params_comment_lines (const NsParams *params)
{
  g_autoptr (GString) text = g_string_new (NULL);

  ns_report_params_comment (text, params);
  if (text->len > 0)
    g_string_truncate (text, text->len - 1);
  return g_strsplit (text->str, "\n", -1);
}

/* For each variant after the first, "# variant NAME: cpu PROFILE" if it ran on another
 * profile than the first, and "# variant NAME: param …" for each parameter whose value or
 * source is not the first's. */
static void
csv_variant_params (GString *out, const NsRunResult *r)
{
  const NsVariantResult *first = r->variants->pdata[0];
  g_auto (GStrv) base = params_comment_lines (first->params);

  for (guint i = 1; i < r->variants->len; i++) {
    const NsVariantResult *vr = r->variants->pdata[i];
    g_auto (GStrv) own = params_comment_lines (vr->params);

    if (strcmp (vr->cpu_name, first->cpu_name) != 0)
      ns_csv_comment (out, "variant %s: cpu %s", variant_name (r, vr), vr->cpu_name);
    for (guint k = 0; own[k] != NULL && base[k] != NULL; k++)
      if (strcmp (own[k], base[k]) != 0)
        ns_csv_comment (out, "variant %s: %s", variant_name (r, vr), own[k] + strlen ("# "));
  }
}

/* v as a CSV field in the C locale's fmt, or NULL (an empty field) when it is not finite,
 * as the table's n/a and JSON's null. */
static char *
csv_number (const char *fmt, double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  return isfinite (v) ? g_strdup (g_ascii_formatd (buf, sizeof buf, fmt, v)) : NULL;
}

/* "# note: TEXT" for each distinct model note of r's variants, in first-seen order, with
 * the variants it holds for when not all of them. */
static void
csv_notes (GString *out, const NsRunResult *r)
{
  g_autoptr (GPtrArray) holders = NULL;
  g_autoptr (GPtrArray) notes = model_notes (r, &holders);

  for (guint i = 0; i < notes->len; i++)
    if (holders->pdata[i] == NULL)
      ns_csv_comment (out, "note: %s", (const char *) notes->pdata[i]);
    else
      ns_csv_comment (out, "note (%s): %s", (const char *) holders->pdata[i],
                      (const char *) notes->pdata[i]);
}

/* The CSV report: a commented heading (the sets and what-ifs in force, the first variant's
 * CPU and parameters, then what the other variants ran with differently), then a row per
 * variant and a row per comparison, whose one_op_step_pct (the last column) is the step
 * one operation moves its delta by, as the table's '*' and JSON's one_op_step_pct. */
static void
report_csv (GString *out, const NsRunResult *r)
{
  const NsVariantResult *first = r->variants->pdata[0];

  ns_csv_comment (out, "netsim %s", PACKAGE_VERSION);
  ns_csv_comment (out, "scenario %s (%s)", r->scenario_name, r->scenario_path);
  ns_csv_comment (out, "seed %" G_GUINT64_FORMAT, r->seed);
  ns_csv_comment (out, "cpu %s", first->cpu_name);
  for (guint i = 0; r->sets != NULL && r->sets[i] != NULL; i++)
    ns_csv_comment (out, "set %s", r->sets[i]);
  for (guint i = 0; r->what_if != NULL && r->what_if[i] != NULL; i++)
    ns_csv_comment (out, "what-if: %s", r->what_if[i]);
  csv_notes (out, r);
  ns_report_params_comment (out, first->params);
  csv_variant_params (out, r);
  g_string_append (out, "kind,name,metric,value,cv,reps,aggregate,baseline,patched,delta_pct,"
                        "cpu,kernel,cmdline,mitigations,one_op_step_pct\n");
  for (guint i = 0; i < r->variants->len; i++) {
    const NsVariantResult *vr = r->variants->pdata[i];
    g_autofree char *mit = ns_mitigations_summary (vr->mitigations);
    g_autofree char *cv = csv_number ("%.6g", vr->cv);
    g_autofree char *value = csv_number ("%.10g", vr->value);
    g_autofree char *reps = g_strdup_printf ("%u", vr->n_reps);
    const char *fields[] = { "variant", variant_name (r, vr), vr->metric, value, cv, reps,
                             vr->aggregate, NULL, NULL, NULL, vr->cpu_name, vr->kernel,
                             vr->cmdline, mit, NULL };
    ns_csv_fields (out, fields, G_N_ELEMENTS (fields));
    g_string_append_c (out, '\n');
  }
  for (guint i = 0; i < r->comparisons->len; i++) {
    const NsComparison *c = &g_array_index (r->comparisons, NsComparison, i);
    const NsVariantResult *b = r->variants->pdata[c->baseline];
    const NsVariantResult *p = r->variants->pdata[c->patched];
    g_autofree char *delta = csv_number ("%.6f", c->delta_pct);
    g_autofree char *step = csv_number ("%.6g", ns_run_one_op_step_pct (b->value, p->value,
                                                                        b->ops, p->ops));
    const char *fields[] = { "comparison", c->label, b->metric, NULL, NULL, NULL, NULL,
                             variant_name (r, b), variant_name (r, p), delta, NULL, NULL, NULL,
                             NULL, step };
    ns_csv_fields (out, fields, G_N_ELEMENTS (fields));
    g_string_append_c (out, '\n');
  }
}

/* ns_params_foreach callback: writes one parameter as a JSON object to the NsJson data. */
static void
param_json (const NsParamDef *def, const char *value, const char *source, gpointer data)
{
  NsJson *json = data;

  ns_json_begin_object (json);
  ns_json_member_string (json, "name", def->name);
  ns_json_member_string (json, "value", value);
  ns_json_member_string (json, "unit", def->unit);
  ns_json_member_string (json, "meaning", def->meaning);
  ns_json_member_string (json, "source", source);
  ns_json_member_bool (json, "free", def->free);
  ns_json_end_object (json);
}

/* Writes the parameter set as an array of {name, value, unit, meaning, source, free}. */
void
ns_report_params_json (NsJson *json, const NsParams *params)
{
  ns_json_begin_array (json);
  ns_params_foreach (params, param_json, json);
  ns_json_end_array (json);
}

/* {cause: cycles, ...} for every cause. */
static void
json_causes (NsJson *json, const double *by_cause)
{
  ns_json_begin_object (json);
  for (int c = 0; c < NS_CAUSE_N; c++)
    ns_json_member_double (json, ns_cause_name (c), by_cause[c]);
  ns_json_end_object (json);
}

/* {event: count, ...} for every counted event (ns_event_name). */
static void
json_events (NsJson *json, const double *per_op)
{
  ns_json_begin_object (json);
  for (int c = 0; c < NS_CAUSE_N; c++)
    if (ns_event_name (c) != NULL)
      ns_json_member_double (json, ns_event_name (c), per_op[c]);
  ns_json_end_object (json);
}

/* Rows of a breakdown (or of differences) as a JSON array. */
static void
json_breakdown (NsJson *json, GPtrArray *rows)
{
  ns_json_begin_array (json);
  for (guint i = 0; i < rows->len; i++) {
    const NsBreakdownRow *row = rows->pdata[i];
    ns_json_begin_object (json);
    ns_json_member_string (json, "function", row->func);
    ns_json_member_double (json, "calls_per_op", row->calls_per_op);
    ns_json_member_double (json, "inlined_per_op", row->inlined_per_op);
    ns_json_member_double (json, "cycles_per_op", row->total_per_op);
    ns_json_key (json, "by_cause");
    json_causes (json, row->cycles_per_op);
    ns_json_member_double (json, "inlined_body_cycles_per_op", row->body_total_per_op);
    ns_json_key (json, "inlined_body_by_cause");
    json_causes (json, row->body_per_op);
    ns_json_end_object (json);
  }
  ns_json_end_array (json);
}

/* A variant's threads as a JSON array. */
static void
json_threads (NsJson *json, GPtrArray *rows)
{
  ns_json_begin_array (json);
  for (guint i = 0; i < rows->len; i++) {
    const NsThreadRow *row = rows->pdata[i];
    ns_json_begin_object (json);
    ns_json_member_string (json, "thread", row->thread);
    ns_json_member_int (json, "cpu", row->cpu);
    ns_json_member_double (json, "cycles_per_op", row->cycles_per_op);
    ns_json_member_double (json, "busy", row->busy);
    ns_json_end_object (json);
  }
  ns_json_end_array (json);
}

/* Writes one variant as a JSON object: figures, repetitions, setup (with the models'
 * notes on what the build runs), events, breakdown by function and by thread, and
 * parameters. */
static void
json_variant (NsJson *json, const NsRunResult *result, const NsVariantResult *vr)
{
  ns_json_begin_object (json);
  ns_json_member_string (json, "name", variant_name (result, vr));
  ns_json_member_string (json, "metric", vr->metric);
  ns_json_member_double (json, "value", vr->value);
  ns_json_member_string (json, "aggregate", vr->aggregate);
  ns_json_member_double (json, "cv", vr->cv);
  ns_json_key (json, "repetitions");
  ns_json_begin_array (json);
  for (guint r = 0; r < vr->n_reps; r++) {
    ns_json_begin_object (json);
    ns_json_member_double (json, "value", vr->values[r]);
    ns_json_member_int (json, "measured_ps", vr->measured[r]);
    ns_json_member_string (json, "stop_rule", vr->stop_rules[r]);
    ns_json_end_object (json);
  }
  ns_json_end_array (json);
  ns_json_member_int (json, "ops", (gint64) vr->ops);
  ns_json_member_string (json, "op", vr->op_name);
  ns_json_member_string (json, "cpu", vr->cpu_name);
  ns_json_member_string (json, "cpu_model", vr->cpu_model);
  ns_json_member_string (json, "kernel", vr->kernel);
  ns_json_member_string (json, "cmdline", vr->cmdline);
  ns_json_member_string (json, "base_config", vr->base_config);
  ns_json_member_strv (json, "config", vr->config_in_force);
  ns_json_member_strv (json, "mitigations", vr->mitigations);
  ns_json_member_strv (json, "inlining", vr->inlining);
  ns_json_member_strv (json, "model_notes", vr->notes);
  ns_json_key (json, "events_per_op");
  json_events (json, vr->events_per_op);
  ns_json_key (json, "overlapped_cycles_per_op");
  json_causes (json, vr->overlapped_per_op);
  ns_json_key (json, "breakdown");
  json_breakdown (json, vr->breakdown);
  ns_json_key (json, "threads");
  json_threads (json, vr->threads);
  ns_json_key (json, "parameters");
  ns_report_params_json (json, vr->params);
  ns_json_end_object (json);
}

/* The JSON report: one object with the scenario, every variant and every comparison (with
 * its per-function explanation). */
static void
report_json (GString *out, const NsRunResult *r)
{
  NsJson *json = ns_json_new (out);
  g_autofree char *seed = g_strdup_printf ("%" G_GUINT64_FORMAT, r->seed);

  ns_json_begin_object (json);
  ns_json_member_string (json, "netsim_version", PACKAGE_VERSION);
  ns_json_member_string (json, "scenario", r->scenario_name);
  ns_json_member_string (json, "file", r->scenario_path);
  /* a string, as sweep's and validate's JSON write seeds: it may exceed 2^63 (and 2^53) */
  ns_json_member_string (json, "seed", seed);
  ns_json_member_strv (json, "sets", r->sets);
  ns_json_member_strv (json, "what_if", r->what_if);
  ns_json_key (json, "variants");
  ns_json_begin_array (json);
  for (guint i = 0; i < r->variants->len; i++)
    json_variant (json, r, r->variants->pdata[i]);
  ns_json_end_array (json);
  ns_json_key (json, "comparisons");
  ns_json_begin_array (json);
  for (guint i = 0; i < r->comparisons->len; i++) {
    const NsComparison *c = &g_array_index (r->comparisons, NsComparison, i);
    const NsVariantResult *b = r->variants->pdata[c->baseline], *p = r->variants->pdata[c->patched];
    GPtrArray *rows;

    ns_json_begin_object (json);
    ns_json_member_string (json, "label", c->label);
    ns_json_member_string (json, "baseline", variant_name (r, b));
    ns_json_member_string (json, "patched", variant_name (r, p));
    ns_json_member_double (json, "delta_pct", c->delta_pct);
    ns_json_member_double (json, "one_op_step_pct",
                           ns_run_one_op_step_pct (b->value, p->value, b->ops, p->ops));
    ns_json_member_double (json, "baseline_cycles_per_op", ns_run_cycles_per_op (b));
    ns_json_member_double (json, "patched_cycles_per_op", ns_run_cycles_per_op (p));
    ns_json_key (json, "explain");
    rows = ns_run_breakdown_delta (b, p);
    json_breakdown (json, rows);
    g_ptr_array_unref (rows);
    ns_json_end_object (json);
  }
  ns_json_end_array (json);
  ns_json_end_object (json);
  ns_json_free (json);
}

/* Appends result to out in the requested format. */
void
ns_report_run (GString *out, const NsRunResult *result, const NsReportOptions *opt)
{
  g_return_if_fail (out != NULL && result != NULL && opt != NULL);
  g_return_if_fail (result->variants->len > 0);
  switch (opt->format) {
  case NS_FORMAT_TABLE:
    report_table (out, result, opt);
    break;
  case NS_FORMAT_CSV:
    report_csv (out, result);
    break;
  case NS_FORMAT_JSON:
    report_json (out, result);
    break;
  }
}

/* Appends name as the first frame of a folded stack: as it is, but for '%', the frame
 * separator ';' and each control character (a line break would end the line), written
 * as '%' and two hex digits, so that two names never give one frame and the name reads
 * back. Blanks stay: flamegraph.pl and difffolded.pl take the count after the last. */
static void
append_folded_root (GString *out, const char *name)
{
  for (const char *p = name; *p; p++)
    if (*p == '%' || *p == ';' || g_ascii_iscntrl (*p))
      g_string_append_printf (out, "%%%02X", (guint) (guchar) *p);
    else
      g_string_append_c (out, *p);
}

/* Appends the calling contexts of every variant that collected them as folded stacks
 * ("variant;thread;outer;…;inner;[cause] cycles", the input of flamegraph.pl, the variant
 * as append_folded_root writes it), cycles rounded to integers, lines that round to 0
 * left out. */
void
ns_report_folded (GString *out, const NsRunResult *result)
{
  g_return_if_fail (out != NULL && result != NULL);
  for (guint v = 0; v < result->variants->len; v++) {
    const NsVariantResult *vr = result->variants->pdata[v];
    g_autoptr (GString) root = g_string_new (NULL);
    append_folded_root (root, variant_name (result, vr));
    for (guint i = 0; vr->stacks != NULL && i < vr->stacks->len; i++) {
      const NsStackRow *row = vr->stacks->pdata[i];
      double cycles = round (row->cycles);
      if (cycles >= 1.0)
        g_string_append_printf (out, "%s;%s %.0f\n", root->str, row->stack, cycles);
    }
  }
}
