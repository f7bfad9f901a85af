/* netsim.c — the command line: netsim run | list, with --help for each.
 * Exit status: 0 ran fine, 1 a check failed, 2 bad input or usage. */
#include "config.h"
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "profile.h"
#include "report.h"
#include "run.h"
#include "../models/workload.h"

#define EXIT_CHECK 1
#define EXIT_USAGE 2

typedef struct {
  const char *name;
  const char *summary;
  int       (*main) (int argc, char **argv);
} NsCommand;

static int cmd_run (int argc, char **argv);
static int cmd_list (int argc, char **argv);

static const NsCommand commands[] = {
  { "run", "run a scenario and print its results", cmd_run },
  { "list", "list scenarios, CPU profiles, patches, parameters or workloads", cmd_list },
};

/* Prints err and returns the exit status its code calls for. */
static int
fail_with (GError *err)
{
  int status = err->domain == NS_ERROR && err->code == NS_ERROR_CHECK ? EXIT_CHECK : EXIT_USAGE;

  g_printerr ("netsim: %s\n", err->message);
  g_error_free (err);
  return status;
}

/* Writes data to path atomically (temporary file + rename), or to stdout for NULL or "-". */
static gboolean
write_output (const char *path, const GString *data, GError **error)
{
  if (path == NULL || !strcmp (path, "-")) {
    fwrite (data->str, 1, data->len, stdout);
    return fflush (stdout) == 0;
  }
  return g_file_set_contents (path, data->str, data->len, error);
}

/* Parses a subcommand's options; prints usage errors; returns FALSE to exit with 2. */
static gboolean
parse_options (GOptionContext *ctx, int *argc, char ***argv)
{
  GError *err = NULL;

  if (g_option_context_parse (ctx, argc, argv, &err))
    return TRUE;
  g_printerr ("netsim: %s\n(see --help)\n", err->message);
  g_error_free (err);
  return FALSE;
}

static void
run_progress (const char *variant, guint index, guint total, guint rep, guint n_reps,
              gpointer data)
{
  g_printerr ("\r[%u/%u] %-32s repetition %u/%u", index + 1, total,
              variant[0] ? variant : "(default)", rep + 1, n_reps);
  if (index + 1 == total && rep + 1 == n_reps)
    g_printerr ("\n");
}

static int
cmd_run (int argc, char **argv)
{
  g_auto (GStrv) sets = NULL;
  g_autofree char *format = NULL, *output = NULL, *variant = NULL;
  gint64 seed = -1;
  gint top = 20;
  gboolean breakdown = FALSE, inlining = FALSE, quiet = FALSE;
  GOptionEntry entries[] = {
    { "set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &sets,
      "Override an attribute of the scenario (repeatable): workload.streams=64, "
      "kernel.cmdline=mitigations=off, param.cache.l2.latency_cycles=14", "PATH=VALUE" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Seed of the random streams (default: the "
      "scenario's)", "N" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Output format: table (default), csv, "
      "json (json has the full parameter set with sources)", "FORMAT" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write results to FILE (written "
      "whole or not at all) instead of standard output", "FILE" },
    { "variant", 0, 0, G_OPTION_ARG_STRING, &variant, "Run only this variant", "NAME" },
    { "breakdown", 'b', 0, G_OPTION_ARG_NONE, &breakdown, "Show where the cycles went: per "
      "simulated function, calls and cycles per operation by cause", NULL },
    { "top", 0, 0, G_OPTION_ARG_INT, &top, "Rows of the breakdown to show (0 = all; "
      "default 20)", "N" },
    { "inlining", 0, 0, G_OPTION_ARG_NONE, &inlining, "Show the compiler model's inlining "
      "decisions", NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "No progress on standard error", NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("SCENARIO.xml — run a scenario");
  NsReportOptions ropt = { NS_FORMAT_TABLE, FALSE, FALSE, 20 };
  NsRunOptions opt = { 0 };
  NsRunResult *result;
  GError *err = NULL;
  GString *out;
  gboolean ok;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_description (ctx,
    "Runs every variant of the scenario (or --variant), each for measure/@repetitions\n"
    "repetitions, and prints the metric, its coefficient of variation, the rule that ended\n"
    "each measurement, and the comparisons (baseline vs patched deltas) the scenario lists.\n"
    "Exit status: 0 ok, 1 a check failed, 2 bad input or usage.");
  if (!parse_options (ctx, &argc, &argv))
    return EXIT_USAGE;
  if (argc != 2)
    goto usage;
  if (format && !ns_format_parse (format, &ropt.format))
    goto bad_format;
  if (top < 0)
    goto bad_top;
  ropt.breakdown = breakdown;
  ropt.inlining = inlining;
  ropt.top = (guint) top;
  opt.sets = (const char *const *) sets;
  opt.seed_given = seed >= 0;
  opt.seed = (guint64) seed;
  opt.only_variant = variant;
  if (!quiet && isatty (STDERR_FILENO))
    opt.progress = run_progress;
  result = ns_run_scenario (argv[1], &opt, &err);
  if (result == NULL)
    return fail_with (err);
  out = g_string_new (NULL);
  ns_report_run (out, result, &ropt);
  ok = write_output (output, out, &err);
  g_string_free (out, TRUE);
  ns_run_result_free (result);
  return ok ? 0 : fail_with (err);

/* ERRORS */
usage:
  g_printerr ("netsim run: expected exactly one SCENARIO.xml (see netsim run --help)\n");
  return EXIT_USAGE;
bad_format:
  g_printerr ("netsim run: --format: expected table, csv or json, got '%s'\n", format);
  return EXIT_USAGE;
bad_top:
  g_printerr ("netsim run: --top: expected a number ≥ 0\n");
  return EXIT_USAGE;
}

/* Collects scenario files below dir (recursively, skipping cpus/), sorted. */
static void
find_scenarios (const char *dir, GPtrArray *found)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d && (name = g_dir_read_name (d))) {
    g_autofree char *path = g_build_filename (dir, name, NULL);
    if (g_file_test (path, G_FILE_TEST_IS_DIR) && strcmp (name, "cpus"))
      find_scenarios (path, found);
    else if (g_str_has_suffix (name, ".xml"))
      g_ptr_array_add (found, g_steal_pointer (&path));
  }
}

static gint
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static void
list_scenarios (void)
{
  g_autofree char *root = g_build_filename (ns_data_dir (), "scenarios", NULL);
  g_autoptr (GPtrArray) found = g_ptr_array_new_with_free_func (g_free);

  find_scenarios (root, found);
  g_ptr_array_sort (found, compare_strings);
  for (guint i = 0; i < found->len; i++) {
    GError *err = NULL;
    NsScenario *sc = ns_scenario_load (found->pdata[i], NULL, &err);
    const char *rel = (const char *) found->pdata[i] + strlen (ns_data_dir ()) + 1;
    if (sc) {
      g_print ("%-44s %s\n", rel, sc->description ? sc->description : sc->name);
      ns_scenario_free (sc);
    } else {
      g_print ("%-44s (does not load: %s)\n", rel, err->message);
      g_error_free (err);
    }
  }
}

static gboolean
list_cpus (GError **error)
{
  g_autoptr (GPtrArray) names = ns_cpu_profile_list ();

  for (guint i = 0; i < names->len; i++) {
    NsCpuProfile *p = ns_cpu_profile_load (names->pdata[i], error);
    if (p == NULL)
      return FALSE;
    g_print ("%-20s %s\n", p->name, p->model ? p->model : "");
    ns_cpu_profile_free (p);
  }
  return TRUE;
}

static void
list_params (void)
{
  static const char *const types[] = { "number", "integer", "bool", "string" };
  GPtrArray *all = ns_param_all ();

  for (guint i = 0; i < all->len; i++) {
    const NsParamDef *d = all->pdata[i];
    g_print ("%-28s %-8s %-18s default %-6s%s\n    %s\n    default's source: %s\n", d->name,
             types[d->type], d->unit[0] ? d->unit : "-", d->default_value,
             d->free ? "  (free: may be fitted)" : "", d->meaning, d->default_source);
  }
}

static void
list_patches (void)
{
  const NsPatch *const *p = ns_patches ();

  if (p[0] == NULL)
    g_print ("(no patches are modelled yet)\n");
  for (; *p; p++)
    g_print ("%-32s %-14s %s\n", (*p)->name, (*p)->commit, (*p)->description);
}

static void
list_workloads (void)
{
  for (const NsWorkloadClass *const *k = ns_workload_classes (); *k; k++) {
    g_autofree char *metrics = g_strjoinv (", ", (char **) (*k)->metrics);
    g_print ("%-16s %s\n    metrics: %s\n", (*k)->name, (*k)->description, metrics);
  }
}

static int
cmd_list (int argc, char **argv)
{
  g_autoptr (GOptionContext) ctx =
    g_option_context_new ("[scenarios|cpus|patches|params|workloads] — list what netsim knows");
  GError *err = NULL;
  const char *what;

  g_option_context_set_description (ctx, "Without an argument, lists scenarios.");
  if (!parse_options (ctx, &argc, &argv))
    return EXIT_USAGE;
  if (argc > 2)
    goto usage;
  what = argc == 2 ? argv[1] : "scenarios";
  if (!strcmp (what, "scenarios"))
    list_scenarios ();
  else if (!strcmp (what, "cpus")) {
    if (!list_cpus (&err))
      return fail_with (err);
  } else if (!strcmp (what, "params"))
    list_params ();
  else if (!strcmp (what, "patches"))
    list_patches ();
  else if (!strcmp (what, "workloads"))
    list_workloads ();
  else
    goto usage;
  return 0;

/* ERRORS */
usage:
  g_printerr ("netsim list: expected one of scenarios, cpus, patches, params, workloads\n");
  return EXIT_USAGE;
}

static void
print_usage (FILE *to)
{
  fprintf (to, "Usage: netsim COMMAND [OPTIONS…]\n\n"
           "netsim replays Linux network-stack benchmarks on a cycle-approximate CPU model.\n\n"
           "Commands:\n");
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (to, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fprintf (to, "\nnetsim COMMAND --help explains each. netsim --version prints the version.\n"
           "Exit status: 0 ok, 1 a check failed, 2 bad input or usage.\n");
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  ns_param_registry_init ();
  if (argc < 2) {
    print_usage (stderr);
    return EXIT_USAGE;
  }
  if (!strcmp (argv[1], "--version") || !strcmp (argv[1], "-V")) {
    g_print ("netsim %s\n", PACKAGE_VERSION);
    return 0;
  }
  if (!strcmp (argv[1], "--help") || !strcmp (argv[1], "-h") || !strcmp (argv[1], "help")) {
    print_usage (stdout);
    return 0;
  }
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (!strcmp (argv[1], commands[i].name)) {
      g_set_prgname (commands[i].name);
      return commands[i].main (argc - 1, argv + 1);
    }
  g_printerr ("netsim: unknown command '%s'\n\n", argv[1]);
  print_usage (stderr);
  return EXIT_USAGE;
}
