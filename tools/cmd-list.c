/* cmd-list.c — netsim list: what netsim knows. */
#include "config.h"
#include <string.h>
#include "cmd.h"
#include "kconfig.h"
#include "profile.h"
#include "scenario.h"
#include "kchange.h"
#include "../models/workload.h"

/* Prints each scenario file under the data dir (as scenarios/…, the name run and sweep
 * take; each once, however many links lead to its folder, and none in cpus/ or configs/)
 * with its description, or why it does not load; FALSE if there is none. */
static gboolean
list_scenarios (GError **error)
{
  static const char *const not_scenarios[] = { "cpus", "configs", NULL };
  g_autofree char *root = g_build_filename (ns_data_dir (), "scenarios", NULL);
  g_autoptr (GPtrArray) found = ns_find_files (root, ".xml", not_scenarios);

  if (found->len == 0) {
    g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "no scenarios in %s", root);
    return FALSE;
  }
  for (guint i = 0; i < found->len; i++) {
    GError *err = NULL;
    NsScenario *sc = ns_scenario_load (found->pdata[i], NULL, &err);
    g_autofree char *rel = g_strconcat ("scenarios", (const char *) found->pdata[i] +
                                        strlen (root), NULL);
    if (sc) {
      g_print ("%-44s %s\n", rel, sc->description ? sc->description : sc->name);
      ns_scenario_free (sc);
    } else {
      g_print ("%-44s (does not load: %s)\n", rel, err->message);
      g_error_free (err);
    }
  }
  return TRUE;
}

/* Prints each CPU profile's name and model, or why it does not load (as for scenarios);
 * FALSE with error if there is none (a wrong NETSIM_DATADIR). */
static gboolean
list_cpus (GError **error)
{
  g_autoptr (GPtrArray) names = ns_cpu_profile_list ();

  if (names->len == 0) {
    g_autofree char *dir = g_build_filename (ns_data_dir (), "scenarios", "cpus", NULL);
    g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "no CPU profiles in %s", dir);
    return FALSE;
  }
  for (guint i = 0; i < names->len; i++) {
    GError *err = NULL;
    NsCpuProfile *p = ns_cpu_profile_load (names->pdata[i], &err);
    if (p) {
      g_print ("%-20s %s\n", p->name, p->model ? p->model : "");
      ns_cpu_profile_free (p);
    } else {
      g_print ("%-20s (does not load: %s)\n", (const char *) names->pdata[i], err->message);
      g_error_free (err);
    }
  }
  return TRUE;
}

/* Prints each kernel config package's name and kernel, or why it does not load (none is
 * fine: a scenario needs none). */
static void
list_configs (void)
{
  g_autoptr (GPtrArray) names = ns_kconfig_package_list ();

  if (names->len == 0)
    g_print ("(no kernel config packages in %s/scenarios/configs)\n", ns_data_dir ());
  for (guint i = 0; i < names->len; i++) {
    GError *err = NULL;
    g_autoptr (NsKconfigPackage) p = ns_kconfig_package_load (names->pdata[i], &err);
    if (p) {
      guint n = g_strv_length ((char **) ns_kconfig_package_names (p));
      g_print ("%-32s a %s .config, %u options\n", ns_kconfig_package_name (p),
               ns_kconfig_package_kernel (p), n);
    } else {
      g_print ("%-32s (does not load: %s)\n", (const char *) names->pdata[i], err->message);
      g_error_free (err);
    }
  }
}

/* Prints the package (a shipped name, or a file: a package or a .config) as a run takes
 * it: its name, kernel and file, then each option as CONFIG_X=VALUE in the file's order
 * (a string unquoted, '# … is not set' as n); FALSE with the loader's error. */
static gboolean
show_config (const char *name_or_path, GError **error)
{
  g_autoptr (NsKconfigPackage) p = ns_kconfig_package_load (name_or_path, error);
  const char *const *names, *const *values;

  if (p == NULL)
    return FALSE;
  g_print ("name    %s\nkernel  %s\nfile    %s\n", ns_kconfig_package_name (p),
           ns_kconfig_package_kernel (p), ns_kconfig_package_path (p));
  names = ns_kconfig_package_names (p);
  values = ns_kconfig_package_values (p);
  for (guint i = 0; names[i] != NULL; i++)
    g_print ("%s=%s\n", names[i], values[i]);
  return TRUE;
}

/* Prints every parameter: type, unit, default, whether it is free, meaning and source. */
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

/* Prints every modelled patch: name, upstream commit and description. */
static void
list_patches (void)
{
  const NsPatch *const *p = ns_patches ();

  if (p[0] == NULL)
    g_print ("(no patches are modelled yet)\n");
  for (; *p; p++)
    g_print ("%-32s %-14s %s\n", (*p)->name, (*p)->commit, (*p)->description);
}

/* Prints every workload class with its description, metrics and attributes: each one's
 * values, default and meaning. */
static void
list_workloads (void)
{
  for (const NsWorkloadClass *const *k = ns_workload_classes (); *k; k++) {
    g_autofree char *metrics = g_strjoinv (", ", (char **) (*k)->metrics);

    g_print ("%-16s %s\n    metrics: %s\n    attributes:\n", (*k)->name, (*k)->description,
             metrics);
    for (const NsWorkloadAttr *a = (*k)->attributes; a->name != NULL; a++) {
      g_autofree char *values = ns_workload_attr_describe (a);

      g_print ("      %-16s %s; %s%s%s\n        %s\n", a->name, values,
               a->def == NULL ? "required" : "default ",
               a->def != NULL && a->def[0] == '@' ? "that of " : "",
               a->def == NULL ? "" : a->def + (a->def[0] == '@'), a->meaning);
    }
  }
}

/* What release does with change id: "has", "lacks" or "undone" (has its revert). */
static const char *
change_state (const char *release, NsKernelChangeId id)
{
  if (ns_kernel_release_has (release, id))
    return "has";
  return ns_kernel_release_reverted (release, id) ? "undone" : "lacks";
}

/* Prints every kernel change netsim reads from the release (sim/kchange.c): commit, title,
 * what it changes in the models, the first mainline release, each stable series' first
 * release, its revert if any, and where those were read; with release, whether that
 * release has each, lacks it, or has its revert ("undone"); with since as well, only the
 * changes whose state differs between since and release, each with its state in since. */
static void
list_changes (const char *release, const char *since)
{
  for (guint id = 0; id < NS_KCHANGE_COUNT; id++) {
    const NsKernelChangeInfo *c = ns_kernel_change_info (id);
    g_autofree char *stables = g_strjoinv (", ", (char **) c->releases.stables);
    const char *state = release != NULL ? change_state (release, id) : NULL;
    int width = state != NULL ? 7 : 0;

    if (since != NULL && !strcmp (state, change_state (since, id)))
      continue;
    g_print ("%-*s%-12s %s\n    %s\n    mainline %s; stable %s\n", width, state ? state : "",
             c->commit ? c->commit : "(2 commits)", c->title, c->effect,
             c->releases.mainline, *stables ? stables : "none");
    if (c->revert != NULL) {
      g_autofree char *undone = g_strjoinv (", ", (char **) c->reverted.stables);
      g_print ("    reverted by %s: mainline %s; stable %s\n", c->revert,
               c->reverted.mainline, *undone ? undone : "none");
    }
    if (since != NULL)
      g_print ("    %s %s it\n", since, change_state (since, id));
    g_print ("    (%s)\n", c->evidence);
  }
}

/* netsim list [WHAT]: lists scenarios, CPUs, kernel config packages, patches,
 * parameters, workloads or kernel changes. */
int
ns_cmd_list (int argc, char **argv)
{
  g_autoptr (GOptionContext) ctx =
    g_option_context_new ("[scenarios|cpus|configs [NAME|FILE]|patches|params|workloads|"
                          "changes] — list what netsim knows");
  g_autofree char *release = NULL, *since = NULL;
  const GOptionEntry entries[] = {
    { "release", 0, 0, G_OPTION_ARG_STRING, &release,
      "With changes: mark each change the kernel release R has, lacks or has undone (6.1.93, "
      "6.9.0-rc1)", "R" },
    { "since", 0, 0, G_OPTION_ARG_STRING, &since,
      "With changes and --release R: only the changes R0 and R differ in (what a what-if "
      "from R0 to R changes), each with R0's state", "R0" },
    { NULL }
  };
  GError *err = NULL;
  const char *what;

  g_option_context_set_description (ctx, "Without an argument, lists scenarios. configs: the "
                                    "kernel config packages a scenario's <kernel "
                                    "base-config> or --set kernel.base-config=NAME "
                                    "names (a .config file, /boot/config-*, is given "
                                    "by path instead); configs NAME or FILE: that "
                                    "package or .config as a run takes it, its name, "
                                    "kernel and file, then one CONFIG_X=VALUE line an "
                                    "option (a string unquoted, '# CONFIG_X is not set' "
                                    "as n), exit 2 with the file:line at fault if it "
                                    "does not load. changes: the "
                                    "kernel changes netsim reads from a scenario's "
                                    "kernel version (the models' code and the "
                                    "mitigations' command-line words and defaults), with "
                                    "the first mainline and stable releases that have each "
                                    "and any revert (--release R: which of them R has, "
                                    "lacks, or has undone; --since R0 as well: only those "
                                    "R0 and R differ in).");
  if (!ns_cmd_parse_options (ctx, ns_cmd_add_entries (ctx, entries), &argc, &argv))
    return NS_EXIT_USAGE;
  if (argc == 3 && !strcmp (argv[1], "configs"))
    return show_config (argv[2], &err) ? 0 : ns_cmd_fail (err);
  if (argc > 2)
    goto too_many;
  what = argc == 2 ? argv[1] : "scenarios";
  if (release != NULL && strcmp (what, "changes") != 0)
    goto release_without_changes;
  if (since != NULL && release == NULL)
    goto since_without_release;
  if (release != NULL && !ns_kernel_version_check (release, &err))
    goto bad_release;
  if (since != NULL && !ns_kernel_version_check (since, &err))
    goto bad_since;
  if (!strcmp (what, "scenarios")) {
    if (!list_scenarios (&err))
      return ns_cmd_fail (err);
  } else if (!strcmp (what, "cpus")) {
    if (!list_cpus (&err))
      return ns_cmd_fail (err);
  } else if (!strcmp (what, "configs"))
    list_configs ();
  else if (!strcmp (what, "params"))
    list_params ();
  else if (!strcmp (what, "patches"))
    list_patches ();
  else if (!strcmp (what, "workloads"))
    list_workloads ();
  else if (!strcmp (what, "changes"))
    list_changes (release, since);
  else
    goto unknown;
  return 0;

/* ERRORS */
too_many:
  g_printerr ("netsim list: lists one thing at a time, got %d: expected one of scenarios, "
              "cpus, configs, patches, params, workloads, changes\n", argc - 1);
  return NS_EXIT_USAGE;
unknown:
  g_printerr ("netsim list: unknown '%s': expected one of scenarios, cpus, configs, patches, "
              "params, workloads, changes\n", what);
  return NS_EXIT_USAGE;
release_without_changes:
  g_printerr ("netsim list: --release marks kernel changes; it goes with 'changes', not "
              "'%s'\n", what);
  return NS_EXIT_USAGE;
since_without_release:
  g_printerr ("netsim list: --since R0 compares R0 with the release --release R names; "
              "give both\n");
  return NS_EXIT_USAGE;
bad_release:
  g_printerr ("netsim list: --release %s: %s\n", release, err->message);
  g_error_free (err);
  return NS_EXIT_USAGE;
bad_since:
  g_printerr ("netsim list: --since %s: %s\n", since, err->message);
  g_error_free (err);
  return NS_EXIT_USAGE;
}

