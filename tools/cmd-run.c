/* cmd-run.c — netsim run: run a scenario and print its results. */
#include "config.h"
#include <string.h>
#include <unistd.h>
#include "cmd.h"
#include "mitigation.h"
#include "report.h"
#include "run.h"

/* The progress line on a terminal: which variant and repetition runs, and how far it got. */
typedef struct {
  const char *variant;
  guint       index, total, rep, n_reps;
  gint64      rep_start_us;   /* host time the repetition started */
  gboolean    shown;          /* a line is on the terminal (it needs a newline at the end) */
} NsRunShow;

/* Simulated time in the largest unit (s, ms, us, ns) that leaves it ≥ 1. */
static char *
format_sim_time (NsTime t)
{
  static const struct { NsTime per; const char *unit; } units[] = {
    { NS_SEC (1), "s" }, { NS_MS (1), "ms" }, { NS_US (1), "us" }, { NS_NS (1), "ns" } };

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (t >= units[i].per)
      return g_strdup_printf ("%.4g %s", (double) t / units[i].per, units[i].unit);
  return g_strdup_printf ("%" G_GINT64_FORMAT " ps", t);
}

/* Shows on stderr which variant and repetition starts. */
static void
run_progress (const char *variant, guint index, guint total, guint rep, guint n_reps,
              gpointer data)
{
  NsRunShow *show = data;

  *show = (NsRunShow) { variant, index, total, rep, n_reps, g_get_monotonic_time (), TRUE };
  g_printerr ("\r[%u/%u] %s, repetition %u/%u\033[K", index + 1, total, show->variant,
              rep + 1, n_reps);
}

/* Shows on stderr how far the running repetition got in simulated time, and when it should
 * end at the host rate so far. */
static void
run_time_progress (NsTime done, NsTime end, gboolean at_most, gpointer data)
{
  NsRunShow *show = data;
  double f = end > 0 ? MIN ((double) done / (double) end, 1.0) : 0.0;
  double elapsed = (g_get_monotonic_time () - show->rep_start_us) / 1e6;
  g_autofree char *d = format_sim_time (done), *e = format_sim_time (end);
  g_autofree char *eta = ns_cmd_format_duration (f > 0 ? elapsed * (1 - f) / f : -1);

  g_printerr ("\r[%u/%u] %s, repetition %u/%u: %s of %s%s simulated (%.0f %%), ETA %s%s"
              "\033[K", show->index + 1, show->total, show->variant, show->rep + 1,
              show->n_reps, d, at_most ? "at most " : "", e, f * 100, at_most ? "≤ " : "",
              eta);
}

/* Ends the progress line, if one is shown, so that what follows starts a line. */
static void
run_progress_end (NsRunShow *show)
{
  if (show->shown)
    g_printerr ("\n");
  show->shown = FALSE;
}

/* Prints on stderr a note for each fitted value the run carries to another CPU. */
static void
print_fit_notes (const NsRunResult *result)
{
  GError *err = NULL;
  char **notes = ns_run_fit_notes (result, &err);

  ns_cmd_print_notes ("run", notes, err);
}

/* TRUE if no variant of result read key: a .config option (config) or a parameter. */
static gboolean
nothing_read (const NsRunResult *result, const char *key, gboolean config)
{
  for (guint i = 0; i < result->variants->len; i++) {
    const NsVariantResult *vr = result->variants->pdata[i];
    char **read = config ? vr->config_read : vr->params_read;
    if (read && g_strv_contains ((const char *const *) read, key))
      return FALSE;
  }
  return TRUE;
}

/* Why no variant of result read the .config option key (newly allocated): where key
 * names a mitigation option of arch/x86/Kconfig in other kernel versions than a variant's
 * (ns_mitigation_option: CONFIG_CPU_SRSO before 6.9, CONFIG_MITIGATION_SRSO from it),
 * what that kernel calls it; else a guess at a typo. */
static char *
unread_config_reason (const NsRunResult *result, const char *key)
{
  NsBuilt option = ns_mitigation_option_lookup (key);

  for (guint i = 0; option != 0 && i < result->variants->len; i++) {
    const NsVariantResult *vr = result->variants->pdata[i];
    const char *name = ns_mitigation_option (option, vr->kernel);
    if (name == NULL)
      return g_strdup_printf ("kernel %s has no such option", vr->kernel);
    if (strcmp (name, key) != 0)
      return g_strdup_printf ("kernel %s names this option %s: %s", vr->kernel, name,
                              ns_mitigation_option_renamed (option));
  }
  return g_strdup ("a typo?");
}

/* Prints on stderr a note for each .config option or parameter a --set or --what-if in
 * given gives that no variant's machine or models read (a typo, or something the
 * scenario's paths never consult): it changed nothing. */
static void
print_unread_sets (const NsRunResult *result, char **given)
{
  static const struct {
    const char *prefix, *what;
    gboolean    config;
  } kinds[] = { { "kernel.config.", "option", TRUE }, { "param.", "parameter", FALSE } };

  for (guint i = 0; given && given[i]; i++) {
    const char *eq = strchr (given[i], '=');
    for (guint k = 0; eq != NULL && k < G_N_ELEMENTS (kinds); k++) {
      gsize skip = strlen (kinds[k].prefix);
      g_autofree char *key = NULL;
      if (!g_str_has_prefix (given[i], kinds[k].prefix) || eq - given[i] <= (gssize) skip)
        continue;
      key = g_strndup (given[i] + skip, eq - given[i] - skip);
      if (nothing_read (result, key, kinds[k].config)) {
        g_autofree char *why = kinds[k].config ? unread_config_reason (result, key)
                                               : g_strdup ("the paths it runs never "
                                                           "consult it");
        g_printerr ("netsim run: note: %s: no model this scenario runs reads %s %s, so it "
                    "changed nothing (%s)\n", given[i], kinds[k].what, key, why);
      }
    }
  }
}

/* Prints on stderr, once each, a note for every word of a variant's kernel command line
 * that no model reads: it changed nothing. */
static void
print_unread_cmdline (const NsRunResult *result)
{
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < result->variants->len; i++)
    ns_cmd_note_unread_cmdline ("run", seen,
                                ((const NsVariantResult *) result->variants->pdata[i])->cmdline);
}

/* Prints on stderr, once each, a note for every variant's own <set> a --set overrode:
 * that variant no longer runs what its name says. */
static void
print_replaced_sets (const NsRunResult *result)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < result->variants->len; i++)
    ns_cmd_note_replaced ("run", seen,
                          ((const NsVariantResult *) result->variants->pdata[i])->replaced);
}

/* Prints on stderr each distinct note the models made on what a variant's build runs
 * (ns_build_note), once. */
static void
print_model_notes (const NsRunResult *result)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < result->variants->len; i++) {
    const NsVariantResult *vr = result->variants->pdata[i];
    for (guint k = 0; vr->notes && vr->notes[k]; k++)
      if (g_hash_table_add (seen, vr->notes[k]))
        g_printerr ("netsim run: note: %s\n", vr->notes[k]);
  }
}

/* Runs the scenario with what_ifs after the sets of opt, then as opt says, and joins the
 * two (each variant and its what-if twin); NULL with an error. A twin's name that a
 * variant has already, and what-ifs that rename or add a variant or change its metric
 * (ns_run_check_what_if), are refused before either run, and the what-if run goes first
 * so that a bad what-if value is reported before the other run's time is spent. */
static NsRunResult *
run_with_what_if (const char *path, const NsRunOptions *opt, char **what_ifs, GError **error)
{
  NsRunOptions alt = *opt;
  NsRunResult *other, *result;

  if (!ns_run_check_twin_names (path, opt, error) ||
      !ns_run_check_what_if (path, opt, (const char *const *) what_ifs, error))
    return NULL;
  alt.params = (const char *const *) what_ifs;
  alt.params_by = "--what-if";
  alt.what_if = TRUE;
  result = ns_run_scenario_pair (path, opt, &alt, &other, error);
  if (result == NULL)
    return NULL;
  return ns_run_result_what_if (result, other, (const char *const *) what_ifs, error);
}

/* TRUE unless -o (output) or --folded (folded) is a file the run reads: the scenario, the
 * CPU profile of a variant it runs (or of its what-if twin) or a file a <param from=…>
 * reads; else FALSE with an error naming both. Runs nothing. */
static gboolean
outputs_not_inputs (const char *scenario, const NsRunOptions *opt, char **what_ifs,
                    const char *output, const char *folded, GError **error)
{
  NsRunOptions alt = *opt;
  g_auto (GStrv) profiles = ns_run_profile_files (scenario, opt), twins = NULL;
  g_auto (GStrv) froms = ns_run_param_files (scenario, opt), twin_froms = NULL;
  const char *const options[] = { "-o", "--folded" }, *const outputs[] = { output, folded };
  const char *from_what = "the file a <param from=…> reads";

  alt.params = (const char *const *) what_ifs;
  alt.params_by = "--what-if";
  twins = what_ifs ? ns_run_profile_files (scenario, &alt) : NULL;
  twin_froms = what_ifs ? ns_run_param_files (scenario, &alt) : NULL;
  for (guint i = 0; i < G_N_ELEMENTS (outputs); i++)
    if (!ns_cmd_check_not_input (options[i], outputs[i], "the scenario", scenario, error) ||
        !ns_cmd_check_not_inputs (options[i], outputs[i], "the CPU profile",
                                  (const char *const *) profiles, error) ||
        !ns_cmd_check_not_inputs (options[i], outputs[i], "the CPU profile",
                                  (const char *const *) twins, error) ||
        !ns_cmd_check_not_inputs (options[i], outputs[i], from_what,
                                  (const char *const *) froms, error) ||
        !ns_cmd_check_not_inputs (options[i], outputs[i], from_what,
                                  (const char *const *) twin_froms, error))
      return FALSE;
  return TRUE;
}

/* The first option of opt asking for a section only the table prints ("--breakdown",
 * "--explain", "--stat", "--inlining"; JSON always has their figures), NULL if none. */
static const char *
table_section_asked (const NsReportOptions *opt)
{
  if (opt->breakdown)
    return "--breakdown";
  if (opt->explain)
    return "--explain";
  if (opt->stat)
    return "--stat";
  if (opt->inlining)
    return "--inlining";
  return NULL;
}

/* Renders the report (and the folded stacks, if folded is not NULL) in memory, then writes
 * them to output and folded, all or none (ns_cmd_write_outputs). */
static gboolean
write_outputs (const NsRunResult *result, const NsReportOptions *ropt, const char *output,
               const char *folded, GError **error)
{
  g_autoptr (GString) report = g_string_new (NULL), stacks = NULL;
  const char *paths[] = { output, folded };
  const GString *data[] = { report, NULL };

  ns_report_run (report, result, ropt);
  if (folded != NULL) {
    stacks = g_string_new (NULL);
    ns_report_folded (stacks, result);
    data[1] = stacks;
  }
  return ns_cmd_write_outputs (paths, data, G_N_ELEMENTS (paths), error);
}

/* The command line of netsim run. */
typedef struct {
  char     *scenario;     /* the argument, as given */
  char    **sets, **what_ifs;
  char     *format, *output, *variant, *folded, *seed;
  gint      top, jobs;
  gboolean  top_given;
  gboolean  breakdown, inlining, quiet, explain, stat;
} NsRunArgs;

/* Frees what parse_args allocated in a (not a itself). */
static void
args_clear (NsRunArgs *a)
{
  g_free (a->scenario);
  g_strfreev (a->sets);
  g_strfreev (a->what_ifs);
  g_free (a->format);
  g_free (a->output);
  g_free (a->variant);
  g_free (a->folded);
  g_free (a->seed);
}

/* Parses the command line; FALSE: usage error (already reported). */
static gboolean
parse_args (int argc, char **argv, NsRunArgs *a)
{
  GOptionEntry entries[] = {
    { "set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &a->sets,
      "Override an attribute of the scenario (repeatable): workload.streams=64, "
      "kernel.cmdline=mitigations=off, kernel.config.CONFIG_SLAB_FREELIST_RANDOM=y, "
      "param.cache.l2.latency_cycles=14", "PATH=VALUE" },
    { "what-if", 'w', 0, G_OPTION_ARG_STRING_ARRAY, &a->what_ifs, "Also run every variant "
      "with PATH=VALUE added to its sets (repeatable; after --set) and compare each variant "
      "with that twin instead of the scenario's comparisons: --what-if cpu.profile=ryzen9-7950x "
      "--explain says what another CPU does to each variant, and where (a what-if may not "
      "rename or add a variant, nor change its metric)", "PATH=VALUE" },
    { "seed", 0, 0, G_OPTION_ARG_STRING, &a->seed, "Seed of the random streams (default: the "
      "scenario's)", "N" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &a->format, "Output format: table (default), "
      "csv, json (json has the full parameter set with sources)", "FORMAT" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &a->output, "Write results to FILE (written "
      "whole or not at all) instead of standard output", "FILE" },
    { "variant", 0, 0, G_OPTION_ARG_STRING, &a->variant, "Run only this variant", "NAME" },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &a->jobs, "Variants run at once, each on a thread "
      "of its own (default 1; the results are identical; at most 4 × the processors: each "
      "holds a whole simulated machine in memory); the progress line then counts the "
      "variants done, [DONE+1/ALL], and names each repetition as it starts, not how far it "
      "got", "N" },
    { "breakdown", 'b', 0, G_OPTION_ARG_NONE, &a->breakdown, "Show where the cycles went: "
      "per simulated function, calls and cycles per operation by cause", NULL },
    { "explain", 'e', 0, G_OPTION_ARG_NONE, &a->explain, "For each comparison, why its delta: "
      "per simulated function and cause, the change in cycles per operation (patched − "
      "baseline)", NULL },
    { "stat", 0, 0, G_OPTION_ARG_NONE, &a->stat, "Event counts per operation of every "
      "variant, as perf stat: instructions, data loads served by each cache level, coherence "
      "transfers, I-cache misses, calls, returns through a return thunk, indirect calls, "
      "mispredicts, system calls; then the cycles overlaps hid (I-fetch under the front "
      "end's lead; calls, beside-work and Safe RET refills under a data miss)", NULL },
    { "top", 0, 0, G_OPTION_ARG_INT, &a->top, "Functions of the breakdown and of --explain to "
      "show (0 = all; default 20; a line says how many more)", "N" },
    { "folded", 0, 0, G_OPTION_ARG_FILENAME, &a->folded, "Also write where the cycles went as "
      "folded stacks to FILE, for flame graphs: one line per calling context and cause, "
      "'variant;thread;outer;…;inner;[cause] cycles' (the variant's name as output, "
      "blanks kept, but '%', ';' and control characters written %XX: 'a;b' is a%3Bb; "
      "inlined frames end in _[i]; cycles summed over the measured time of every "
      "repetition)", "FILE" },
    { "inlining", 0, 0, G_OPTION_ARG_NONE, &a->inlining, "Show the compiler model's inlining "
      "decisions", NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &a->quiet, "No progress on standard error", NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("SCENARIO.xml — run a scenario");
  NsCmdOptions *given = ns_cmd_add_entries (ctx, entries);

  a->top = 20;
  a->jobs = 1;
  ns_cmd_limit_int (given, &a->top, 0, G_MAXINT, "0 to 2147483647");
  ns_cmd_limit_jobs (given, &a->jobs);
  g_option_context_set_description (ctx,
    "Runs every variant of the scenario (or --variant), each for measure/@repetitions\n"
    "repetitions, and prints the metric, its coefficient of variation, the rule that ended\n"
    "each measurement, and the comparisons (baseline vs patched deltas) the scenario lists\n"
    "(with --what-if: each variant against its twin run with the what-if sets).\n"
    "Flame graph of one variant: netsim run S.xml --folded out.folded; grep '^VARIANT;'\n"
    "out.folded | flamegraph.pl --countname cycles > VARIANT.svg (difffolded.pl compares two).\n"
    "Exit status: 0 ok, 1 a check failed, 2 bad input or usage.");
  if (!ns_cmd_parse_options (ctx, given, &argc, &argv))
    return FALSE;
  if (argc != 2)
    goto usage;
  a->scenario = g_strdup (argv[1]);
  a->top_given = ns_cmd_given (given, &a->top);
  return TRUE;

/* ERRORS */
usage:
  g_printerr ("netsim run: expected exactly one SCENARIO.xml (see netsim run --help)\n");
  return FALSE;
}

/* Checks the options against each other and fills the report's and the run's options
 * from them: 0, or the exit status of the error it reported. */
static int
check_args (const NsRunArgs *a, NsReportOptions *ropt, NsRunOptions *opt)
{
  GError *err = NULL;

  if (a->format && !ns_format_parse (a->format, &ropt->format))
    goto bad_format;
  ropt->breakdown = a->breakdown;
  ropt->inlining = a->inlining;
  ropt->explain = a->explain;
  ropt->stat = a->stat;
  ropt->top = (guint) a->top;
  if (ropt->format == NS_FORMAT_CSV && table_section_asked (ropt) != NULL)
    goto not_in_csv;
  if (a->top_given && (ropt->format != NS_FORMAT_TABLE || !(a->breakdown || a->explain)))
    goto top_unused;
  if (!ns_cmd_check_sets_once ("run", a->sets, "--set") ||
      !ns_cmd_check_sets_once ("run", a->what_ifs, "--what-if") ||
      !ns_cmd_check_one_seed ("run", a->seed, a->sets, "--set") ||
      !ns_cmd_check_one_seed ("run", a->seed, a->what_ifs, "--what-if"))
    return NS_EXIT_USAGE;
  opt->sets = (const char *const *) a->sets;
  opt->jobs = (guint) a->jobs;
  opt->seed_given = a->seed != NULL;
  if (a->seed != NULL && !ns_cmd_parse_seed ("run", a->seed, &opt->seed))
    return NS_EXIT_USAGE;
  if (!ns_cmd_check_output (a->output, &err) || !ns_cmd_check_output (a->folded, &err))
    return ns_cmd_fail (err);
  if ((a->output == NULL || ns_cmd_names_stdout (a->output)) && ns_cmd_names_stdout (a->folded))
    goto folded_to_stdout;
  if (a->output != NULL && strcmp (a->output, "-") != 0 &&
      ns_cmd_outputs_clash (a->output, a->folded))
    goto one_file;
  opt->only_variant = a->variant;
  opt->stacks = a->folded != NULL;
  return 0;

/* ERRORS */
bad_format:
  g_printerr ("netsim run: --format: expected table, csv or json, got '%s'\n", a->format);
  return NS_EXIT_USAGE;
one_file:
  g_printerr ("netsim run: -o and --folded are one file, %s: one would overwrite the other\n",
              a->output);
  return NS_EXIT_USAGE;
folded_to_stdout:
  g_printerr ("netsim run: --folded %s is standard output, where the results go: the two "
              "would mix (name a file for one of them: --folded FILE or -o FILE)\n", a->folded);
  return NS_EXIT_USAGE;
top_unused:
  g_printerr ("netsim run: --top: it limits the table's --breakdown and --explain, and %s\n",
              ropt->format != NS_FORMAT_TABLE ? "this output is not the table (--format json "
              "always has every function)" : "neither is asked for");
  return NS_EXIT_USAGE;
not_in_csv:
  g_printerr ("netsim run: %s: the CSV output has no such section (the table prints it, "
              "--format json always has its figures)\n", table_section_asked (ropt));
  return NS_EXIT_USAGE;
}

/* Prints the run's notes on standard error: fits, sets and command-line words nothing read,
 * sets a later one replaced, the models' own notes, an --explain with nothing to explain. */
static void
print_notes (const NsRunResult *result, const NsRunArgs *a)
{
  print_fit_notes (result);
  print_unread_sets (result, a->sets);
  print_unread_sets (result, a->what_ifs);
  print_unread_cmdline (result);
  print_replaced_sets (result);
  print_model_notes (result);
  if (a->explain && result->comparisons->len == 0)
    g_printerr ("netsim run: note: --explain has no comparison to explain: %s\n",
                a->variant ? "--variant runs one variant, and each comparison needs two"
                           : "the scenario lists none (--what-if makes one per variant)");
}

/* Runs the scenario at path as opt says (with its what-if twins, if any), the progress on
 * a terminal unless quiet; NULL on error. */
static NsRunResult *
run (const char *path, const NsRunArgs *a, NsRunOptions *opt, GError **error)
{
  NsRunShow show = { 0 };
  NsRunResult *result;

  if (!a->quiet && isatty (STDERR_FILENO)) {
    opt->progress = run_progress;
    opt->progress_time = run_time_progress;
    opt->progress_data = &show;
  }
  if (a->what_ifs != NULL)
    result = run_with_what_if (path, opt, a->what_ifs, error);
  else
    result = ns_run_scenario (path, opt, error);
  run_progress_end (&show);
  opt->progress = NULL;
  opt->progress_time = NULL;
  opt->progress_data = NULL;
  return result;
}

/* netsim run SCENARIO.xml: runs every variant and prints the results. */
int
ns_cmd_run (int argc, char **argv)
{
  NsRunArgs a = { 0 };
  NsReportOptions ropt = { NS_FORMAT_TABLE, FALSE, FALSE, 20, FALSE, FALSE };
  NsRunOptions opt = { 0 };
  NsRunResult *result = NULL;
  g_autofree char *scenario = NULL;
  GError *err = NULL;
  int status;

  if (!parse_args (argc, argv, &a)) {
    args_clear (&a);
    return NS_EXIT_USAGE;
  }
  if ((status = check_args (&a, &ropt, &opt)) != 0)
    goto out;
  if ((scenario = ns_cmd_scenario_path (a.scenario, &err)) == NULL ||
      !outputs_not_inputs (scenario, &opt, a.what_ifs, a.output, a.folded, &err) ||
      (result = run (scenario, &a, &opt, &err)) == NULL) {
    status = ns_cmd_fail (err);
    goto out;
  }
  print_notes (result, &a);
  status = write_outputs (result, &ropt, a.output, a.folded, &err) ? 0 : ns_cmd_fail (err);
out:
  ns_run_result_free (result);
  args_clear (&a);
  return status;
}
