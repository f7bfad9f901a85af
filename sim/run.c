/* run.c — running a scenario.
 *
 * A scenario may list variants (<variants><variant name><set path value/>…</variant>) and
 * comparisons between them (<comparisons><compare label baseline patched/>). Each variant
 * is the scenario re-read with its sets applied (then the command line's --set, which wins).
 * Each variant runs measure/@repetitions times; repetition r runs on a fresh machine whose
 * random streams derive from (seed, r) only, so results never depend on scheduling or on
 * which other variants ran. Within a repetition: warm-up, mark, then measurement until the
 * stop rule holds: a fixed simulated duration, or — with measure/@converge — batches until
 * the confidence interval of the batch means is narrower than converge × mean (or until
 * max-duration). */
#include "config.h"
#include <math.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include "run.h"
#include "kconfig.h"
#include "profile.h"
#include "xml.h"
#include "../models/workload.h"

/* Everything one variant needs to build a fresh machine per repetition. */
typedef struct {
  NsScenario            *sc;
  NsCpuProfile          *profile;
  NsParams              *params;
  NsMitigations          mit;
  NsBuild               *build;
  const NsWorkloadClass *klass;
  const char            *variant;   /* its name ("": the scenario has no variants) */
  const char            *shown;     /* the name its progress and run-time errors give it
                                       (its twin's in a what-if run; NULL: variant) */
  const NsRunOptions    *opt;       /* the overrides it was set up with */
  char                  *base_series; /* "kernel config package P is a V .config, the
                                         kernel K" when the base config package is of
                                         another series than the kernel, else NULL */
} NsVariantSetup;

/* Variant names of sc, in file order. */
GPtrArray *
ns_run_variant_names (const NsScenario *sc)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  xmlNodePtr variants = ns_xml_child (xmlDocGetRootElement (sc->doc), "variants");

  for (xmlNodePtr v = variants ? variants->children : NULL; v; v = v->next)
    if (v->type == XML_ELEMENT_NODE && !strcmp ((const char *) v->name, "variant"))
      g_ptr_array_add (names, ns_xml_prop (v, "name"));
  return names;
}

/* "'a', 'b', 'c'" of names (variant names; empty ones skipped), for error messages;
 * "none" if there are none. */
char *
ns_run_variant_list (GPtrArray *names)
{
  GString *list = g_string_new (NULL);

  for (guint i = 0; i < names->len; i++)
    if (((const char *) names->pdata[i])[0] != '\0')
      g_string_append_printf (list, "%s'%s'", list->len ? ", " : "",
                              (const char *) names->pdata[i]);
  if (list->len == 0)
    g_string_append (list, "none");
  return g_string_free (list, FALSE);
}

/* Overlays the scenario's <param> elements on params, with file:line in their sources;
 * a refusal is at the line of the attribute at fault: the name's if unknown, else the
 * value's (a from='s, which gave it), naming the sets behind either. */
static gboolean
apply_scenario_params (const NsScenario *sc, NsParams *params, GError **error)
{
  xmlNodePtr root = xmlDocGetRootElement (sc->doc);

  for (xmlNodePtr n = root->children; n; n = n->next) {
    g_autofree char *name = NULL, *value = NULL, *source = NULL, *where = NULL;
    GError *local = NULL;
    if (n->type != XML_ELEMENT_NODE || strcmp ((const char *) n->name, "param"))
      continue;
    name = ns_xml_prop (n, "name");
    value = ns_xml_prop (n, "value");
    source = ns_xml_prop (n, "source");
    where = g_strdup_printf ("%s (scenario %s:%d)", source, sc->path, ns_xml_line (n));
    if (!ns_params_set (params, name, value, where, &local)) {  /* a set may have given
                                                                   the value or the name */
      NsXmlBlame blame = { .attrs = { "value", "name" } };
      if (ns_param_lookup (name) == NULL)
        blame = (NsXmlBlame) { .attrs = { "name" } };
      ns_xml_error_blame (sc, n, blame, error, "%s", local->message);
      g_error_free (local);
      return FALSE;
    }
  }
  return TRUE;
}

/* TRUE if metric is one of the metrics klass measures. */
static gboolean
metric_known (const NsWorkloadClass *klass, const char *metric)
{
  for (guint i = 0; klass->metrics[i]; i++)
    if (!strcmp (klass->metrics[i], metric))
      return TRUE;
  return FALSE;
}

/* Reports cause (freed), an error about the value of attribute attr of the scenario's
 * top-level element, at that element: "file:line: attribute 'attr': cause", ending
 * "(after --set …)" when a set gave the value. */
static void
blame_attribute (const NsScenario *sc, const char *element, const char *attr, GError *cause,
                 GError **error)
{
  ns_xml_error_attr (sc, ns_xml_child (xmlDocGetRootElement (sc->doc), element), attr, error,
                     "attribute '%s': %s", attr, cause->message);
  g_error_free (cause);
}

/* The set that made the <param> element n or changed its value, or NULL. */
static const char *
param_set_by (const NsScenario *sc, xmlNodePtr n)
{
  xmlAttrPtr value = xmlHasProp (n, BAD_CAST "value");
  const char *by = NULL;

  if (sc->set_by == NULL)
    return NULL;
  by = g_hash_table_lookup (sc->set_by, n);
  return by != NULL || value == NULL ? by : g_hash_table_lookup (sc->set_by, value);
}

/* "attribute 'profile': FILE:LINE: ", naming the profile's file and the line of its first
 * <param> among at_fault (just "FILE: " if it sets none of them); newly allocated. */
static char *
profile_blame (const NsCpuProfile *profile, const char *const *at_fault)
{
  int line = 0;

  for (guint i = 0; at_fault != NULL && at_fault[i] != NULL && line == 0; i++)
    line = ns_cpu_profile_param_line (profile, at_fault[i]);
  return line > 0 ? g_strdup_printf ("attribute 'profile': %s:%d: ", profile->path, line)
                  : g_strdup_printf ("attribute 'profile': %s: ", profile->path);
}

/* Reports cause (freed), an error about parameters taken together (the machine's
 * geometry), at the first of the scenario's <param>s for a parameter the cause was raised
 * about, else at <cpu> and the profile's own <param> (the profile gave them):
 * "file:line: variant 'V': [attribute 'profile': PROFILE:LINE: ]cause", ending "(after …)"
 * with the sets behind every such <param>, or the one that named the profile. */
static void
blame_params (const NsVariantSetup *vs, GError *cause, GError **error)
{
  const char *const *at_fault = ns_error_get_params (cause);
  xmlNodePtr root = xmlDocGetRootElement (vs->sc->doc), at = NULL;
  g_autoptr (GString) sets = g_string_new (NULL);
  g_autoptr (GString) shown = g_string_new (NULL);
  g_autofree char *variant = vs->variant != NULL && vs->variant[0] != '\0'
                             ? g_strdup_printf ("variant '%s': ", vs->variant) : g_strdup ("");
  g_autofree char *in_profile = NULL;

  for (xmlNodePtr n = root->children; n != NULL && at_fault != NULL; n = n->next) {
    g_autofree char *name = ns_xml_is_element (n, "param") ? ns_xml_prop (n, "name") : NULL;
    const char *by;

    if (name == NULL || !g_strv_contains (at_fault, name))
      continue;
    at = at != NULL ? at : n;
    by = param_set_by (vs->sc, n);
    if (by != NULL)
      g_string_append_printf (sets, "%s%s", sets->len > 0 ? ", " : "", by);
  }
  if (at == NULL) {                            /* the profile's: a set may have named it */
    const char *by = NULL;

    at = ns_xml_child (root, "cpu");
    if (at != NULL && vs->sc->set_by != NULL)
      by = g_hash_table_lookup (vs->sc->set_by, ns_xml_attr (at, "profile"));
    if (by != NULL)
      g_string_append (sets, by);
    in_profile = profile_blame (vs->profile, at_fault);
  }
  ns_escape_controls (shown, sets->str);       /* a set's value may hold a line break */
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s:%d: %s%s%s%s%s%s", vs->sc->path,
               ns_xml_line (at), variant, in_profile ? in_profile : "", cause->message,
               shown->len > 0 ? " (after " : "", shown->str, shown->len > 0 ? ")" : "");
  g_error_free (cause);
}

/* Finds the workload class and checks the requested metric. */
static gboolean
setup_workload_class (NsVariantSetup *vs, GError **error)
{
  NsScenario *sc = vs->sc;
  g_autofree char *known = NULL;

  vs->klass = ns_workload_class_find (sc->workload_type);
  if (vs->klass == NULL)
    goto unknown_type;
  if (!metric_known (vs->klass, sc->measure.metric))
    goto unknown_metric;
  return TRUE;

/* ERRORS */
unknown_type:
  ns_xml_error_attr (sc, sc->workload, "type", error, "attribute 'type': unknown workload "
                     "type '%s' (netsim list workloads shows them)", sc->workload_type);
  return FALSE;
unknown_metric:                         /* the workload's type chose the metrics */
  known = g_strjoinv (", ", (char **) vs->klass->metrics);
  ns_xml_error_blame (sc, ns_xml_child (xmlDocGetRootElement (sc->doc), "measure"),
                      (NsXmlBlame) { .attrs = { "metric" },
                                     .also = { (xmlNodePtr) ns_xml_attr (sc->workload,
                                                                         "type") } },
                      error, "attribute 'metric': workload %s has no metric '%s' (it has: "
                      "%s)", vs->klass->name, sc->measure.metric, known);
  return FALSE;
}

/* Sets the options of the scenario's base config package, if it names one, on the build;
 * remembers a package of another kernel series (note_base_series). */
static gboolean
setup_base_config (NsVariantSetup *vs, GError **error)
{
  NsScenario *sc = vs->sc;
  g_autoptr (NsKconfigPackage) package = NULL;
  const char *const *names, *const *values;
  GError *cause = NULL;

  if (sc->base_config == NULL)
    return TRUE;
  package = ns_kconfig_package_load (sc->base_config, &cause);
  if (package == NULL)
    goto bad_package;
  names = ns_kconfig_package_names (package);
  values = ns_kconfig_package_values (package);
  for (guint i = 0; names[i] != NULL; i++)
    ns_build_set_config (vs->build, names[i], values[i]);
  if (ns_kernel_version_cmp (ns_kconfig_package_kernel (package), sc->kernel_version) != 0)
    vs->base_series = g_strdup_printf ("kernel config package %s is a %s .config, the "
                                       "kernel %s", ns_kconfig_package_name (package),
                                       ns_kconfig_package_kernel (package),
                                       sc->kernel_version);
  return TRUE;

/* ERRORS */
bad_package:
  blame_attribute (sc, "kernel", "base-config", cause, error);
  return FALSE;
}

/* Notes, once the run has read its options, those a base config package of another
 * series lacks (in_force: ns_build_config_in_force's lines), which took the model's
 * default; nothing when it lacks none, or is of the kernel's series. */
static void
note_base_series (NsVariantSetup *vs, char **in_force)
{
  g_autoptr (GPtrArray) lacked = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *names = NULL;
  g_autofree char *note = NULL;
  guint n;

  if (vs->base_series == NULL)
    return;
  for (char **line = in_force; *line != NULL; line++) {
    g_autofree char *value = NULL;
    gboolean stated;
    char *key = ns_build_config_line_split (*line, &value, &stated);
    if (stated)
      g_free (key);
    else
      g_ptr_array_add (lacked, key);
  }
  n = lacked->len;
  if (n == 0)
    return;
  g_ptr_array_add (lacked, NULL);
  names = g_strjoinv (", ", (char **) lacked->pdata);
  note = g_strdup_printf ("%s: of the options the run read it lacks %s, which took the "
                          "model's default (the series between may have renamed or added "
                          "%s)", vs->base_series, names, n > 1 ? "them" : "it");
  ns_build_note (vs->build, note);
}

/* Creates the kernel build of the scenario: its version and config facts (what the
 * mitigation selection needs to know of the build): the base config package's options,
 * then the scenario's own <config> lines over them. */
static gboolean
setup_build_config (NsVariantSetup *vs, GError **error)
{
  NsScenario *sc = vs->sc;
  GHashTableIter iter;
  gpointer key, value;

  vs->build = ns_build_new (sc->kernel_version,
                            ns_params_get_int (vs->params, "build.inline_limit_bytes"));
  if (!setup_base_config (vs, error))
    return FALSE;
  g_hash_table_iter_init (&iter, sc->config);
  while (g_hash_table_iter_next (&iter, &key, &value))
    ns_build_set_config (vs->build, key, value);
  return TRUE;
}

/* Applies the scenario's patches to its kernel build. */
static gboolean
setup_build_patches (NsVariantSetup *vs, GError **error)
{
  NsScenario *sc = vs->sc;
  const char *name = NULL;

  for (guint i = 0; i < sc->patches->len; i++) {
    const NsPatch *patch;
    name = sc->patches->pdata[i];
    patch = ns_patch_find (name);
    if (patch == NULL)
      goto unknown_patch;
    patch->apply (vs->build);
    ns_build_apply_patch (vs->build, patch->name);
  }
  return TRUE;

/* ERRORS */
unknown_patch:
  ns_xml_error_attr (sc, ns_scenario_kernel_child (sc, "patch", name), "name", error,
                     "attribute 'name': unknown patch '%s' (netsim list patches shows them)",
                     name);
  return FALSE;
}

/* A thread may run up to one quantum past a window's end (the engine never cuts a slice
 * short, so where windows fall does not perturb the run), while a metric divides by the
 * window's nominal span: the measured window — the fixed rule's duration, or each batch of
 * the convergence rule (whose overshoot telescopes into the next one) — must be at least
 * ten quanta long to keep that error under a tenth (and a batch's variance honest). The
 * warm-up needs no such length: its overshoot is the measured window's start uncertainty,
 * the same one quantum as at its end. FALSE with a file:line error otherwise. */
static gboolean
check_batch_length (const NsVariantSetup *vs, GError **error)
{
  double quantum_ns = ns_params_get_double (vs->params, "sched.quantum_ns");
  const NsMeasure *m = &vs->sc->measure;
  xmlNodePtr measure = ns_xml_child (xmlDocGetRootElement (vs->sc->doc), "measure");
  gboolean defaulted = !xmlHasProp (measure, BAD_CAST "batch");
  xmlNodePtr quantum = ns_scenario_param_node (vs->sc, "sched.quantum_ns");

  if (m->converge <= 0 && (double) m->duration < 10 * quantum_ns * 1000)
    goto short_duration;
  if (m->converge > 0 && (double) m->batch < 10 * quantum_ns * 1000)
    goto short_batch;
  return TRUE;

/* ERRORS */
  /* blamed: the attributes behind the window, so that the sets that changed them are
   * named ("(after --set measure.converge=…)"), and the scenario's <param> of the quantum */
short_duration:
  ns_xml_error_blame (vs->sc, measure, (NsXmlBlame) { .attrs = { "duration", "converge" },
                                                      .also = { quantum } },
                      error, "attribute 'duration': expected at least 10 x sched.quantum_ns = "
                      "%.6g us under the fixed rule (no attribute 'converge'), got %.6g us",
                      10 * quantum_ns / 1000, (double) m->duration / 1e6);
  return FALSE;
short_batch:
  if (defaulted)
    goto short_default_batch;
  ns_xml_error_blame (vs->sc, measure, (NsXmlBlame) { .attrs = { "batch", "converge" },
                                                      .also = { quantum } },
                      error, "attribute 'batch': expected at least 10 x sched.quantum_ns = "
                      "%.6g us with attribute 'converge' set, got %.6g us",
                      10 * quantum_ns / 1000, (double) m->batch / 1e6);
  return FALSE;
short_default_batch:   /* no batch written: say where the short one came from, and the cures */
  ns_xml_error_blame (vs->sc, measure, (NsXmlBlame) { .attrs = { "duration", "converge" },
                                                      .also = { quantum } },
                      error, "the default batch, attribute 'duration' / 10 = %.6g us (no "
                      "attribute 'batch' is given), is shorter than 10 x sched.quantum_ns = "
                      "%.6g us, the least a batch of the convergence rule ('converge' set) "
                      "may be: set attribute 'batch' to at least %.6g us, or a 'duration' of "
                      "at least %.6g us",
                      (double) m->batch / 1e6, 10 * quantum_ns / 1000, 10 * quantum_ns / 1000,
                      100 * quantum_ns / 1000);
  return FALSE;
}

/* Refuses a value other than y, m or n of an option a model (or the set-up) has read as
 * a Kconfig bool/tristate so far, and m for a bool: FALSE with a file:line error at its
 * <config>, naming the sets behind the value. */
static gboolean
check_config_values (const NsScenario *sc, const NsBuild *build, GError **error)
{
  g_auto (GStrv) bad = ns_build_config_bad (build);
  const char *value;

  if (bad[0] == NULL)
    return TRUE;
  value = ns_build_get_config (build, bad[0]);
  if (!g_hash_table_contains (sc->config, bad[0]))   /* the base config package's */
    ns_xml_error_attr (sc, ns_xml_child (xmlDocGetRootElement (sc->doc), "kernel"),
                       "base-config", error, "attribute 'base-config': %s='%s' in kernel "
                       "config package %s: a bool/tristate option takes y, m or n",
                       bad[0], value, sc->base_config);
  else if (ns_build_config_is_bool (bad[0]) && g_str_equal (value, "m"))
    ns_xml_error_blame (sc, ns_scenario_kernel_child (sc, "config", bad[0]),
                        (NsXmlBlame) { .attrs = { "value", "name" } }, error,
                        "attribute 'value': %s='m': a bool option (Kconfig), which cannot "
                        "be a module: use y or n", bad[0]);
  else
    ns_xml_error_blame (sc, ns_scenario_kernel_child (sc, "config", bad[0]),
                        (NsXmlBlame) { .attrs = { "value", "name" } }, error,
                        "attribute 'value': %s='%s': a bool/tristate option takes y, m or n",
                        bad[0], value);
  return FALSE;
}

/* Frees what vs holds (build, mitigations, parameters, profile, scenario); fine on a
 * partly set-up vs. */
static void
variant_setup_clear (NsVariantSetup *vs)
{
  g_clear_pointer (&vs->build, ns_build_free);
  g_clear_pointer (&vs->base_series, g_free);
  ns_mitigations_clear (&vs->mit);
  g_clear_pointer (&vs->params, ns_params_free);
  g_clear_pointer (&vs->profile, ns_cpu_profile_free);
  g_clear_pointer (&vs->sc, ns_scenario_free);
}

/* Loads the variant's scenario (its <set>s, then the command line's --set and a sweep
 * point's --param), CPU profile, parameters, mitigations and build. */
static gboolean
variant_setup (NsVariantSetup *vs, const char *path, const char *variant,
               const NsRunOptions *opt, GError **error)
{
  GArray *defs;

  GError *cause = NULL;

  memset (vs, 0, sizeof *vs);
  vs->variant = variant;
  vs->opt = opt;
  vs->sc = ns_scenario_load_variant (path, variant, opt->sets, opt->params, opt->params_by,
                                     error);
  if (vs->sc == NULL)
    return FALSE;
  vs->profile = ns_cpu_profile_load (vs->sc->cpu, &cause);
  if (vs->profile == NULL)
    goto bad_profile;
  vs->params = ns_params_copy (vs->profile->params);
  ns_params_track_reads (vs->params);   /* the build and the run's checks read some */
  if (!apply_scenario_params (vs->sc, vs->params, error))
    goto fail;
  if (!ns_kernel_version_check (vs->sc->kernel_version, &cause))
    goto bad_version;
  defs = vs->profile->mitigation_defaults;
  if (!setup_build_config (vs, error))  /* the mitigations in force depend on its options */
    goto fail;
  if (!ns_mitigations_select_built ((NsMitigationDefault *) defs->data, defs->len,
                                    vs->sc->kernel_version, vs->sc->cmdline,
                                    ns_build_mitigations_built (vs->build), &vs->mit,
                                    &cause))
    goto bad_mitigations;
  if (!setup_workload_class (vs, error) || !setup_build_patches (vs, error) ||
      !check_config_values (vs->sc, vs->build, error) || !check_batch_length (vs, error))
    goto fail;
  for (guint i = 0; vs->mit.notes && vs->mit.notes[i]; i++)
    ns_build_note (vs->build, vs->mit.notes[i]);
  return TRUE;

/* ERRORS */
bad_profile:
  blame_attribute (vs->sc, "cpu", "profile", cause, error);
  goto fail;
bad_version:
  blame_attribute (vs->sc, "kernel", "version", cause, error);
  goto fail;
bad_mitigations:                        /* the profile has no default for the version, or
                                           the command line is bad */
  blame_attribute (vs->sc, "kernel",
                   ns_mitigation_default_find ((NsMitigationDefault *) defs->data, defs->len,
                                               vs->sc->kernel_version) == NULL
                   ? "version" : "cmdline", cause, error);
fail:
  variant_setup_clear (vs);
  return FALSE;
}

/* Sets the variant up without running it; see run.h. */
gboolean
ns_run_check_variant (const char *path, const char *variant, const char *const *sets,
                      GError **error)
{
  NsRunOptions opt = { .sets = sets };
  NsVariantSetup vs;

  g_return_val_if_fail (path != NULL && variant != NULL, FALSE);
  if (!variant_setup (&vs, path, variant, &opt, error))
    return FALSE;
  variant_setup_clear (&vs);
  return TRUE;
}

typedef struct {
  double    value;
  char     *rule;
  NsTime    measured;
  guint64   ops;
} NsRepResult;

/* Half-width of the confidence interval of the mean of values[0..n), relative to it. */
static double
relative_ci (const double *values, guint n, double confidence)
{
  double mean = gsl_stats_mean (values, 1, n);
  double sd = gsl_stats_sd_m (values, 1, n, mean);
  double t = gsl_cdf_tdist_Pinv (0.5 + confidence / 2.0, n - 1);

  if (mean == 0)
    return INFINITY;
  return fabs (t * sd / sqrt ((double) n) / mean);
}

/* Where a run-time error of the variant happened, for its message (newly allocated):
 * "FILE:LINE: variant 'NAME'" (the line of its <variant>; its twin's name in a what-if
 * run), or "FILE" for a scenario without variants (with its twin's name in a what-if
 * run): which of a run's variants failed. */
static char *
variant_where (const NsVariantSetup *vs)
{
  const char *shown = vs->shown ? vs->shown : vs->variant;
  xmlNodePtr node;

  if (vs->variant == NULL || vs->variant[0] == '\0')
    return vs->opt->what_if ? g_strdup_printf ("%s: variant '%s'", vs->sc->path, shown)
                            : g_strdup (vs->sc->path);
  node = ns_scenario_variant_node (vs->sc->doc, vs->variant);
  if (node == NULL)
    return g_strdup_printf ("%s: variant '%s'", vs->sc->path, shown);
  return g_strdup_printf ("%s:%d: variant '%s'", vs->sc->path, ns_xml_line (node), shown);
}

/* What a run-time error of the variant ends with (newly allocated): in a what-if run
 * " (after --what-if PATH=VALUE, --what-if …)", the what-ifs that make the twin that
 * failed (as a set-up error names the set behind it); else "". */
static char *
variant_after (const NsVariantSetup *vs)
{
  const char *by = vs->opt->params_by ? vs->opt->params_by : "--param";
  GString *after;

  if (!vs->opt->what_if || vs->opt->params == NULL || vs->opt->params[0] == NULL)
    return g_strdup ("");
  after = g_string_new (" (after ");
  for (guint i = 0; vs->opt->params[i] != NULL; i++)
    g_string_append_printf (after, "%s%s %s", i ? ", " : "", by, vs->opt->params[i]);
  g_string_append_c (after, ')');
  return g_string_free (after, FALSE);
}

/* Sets the error for a measurement in which the workload completed no operation: when
 * says where ("in the measured time (100 us)"), advice what to lengthen. */
static void
error_none_completed (const NsVariantSetup *vs, const char *when, const char *advice,
                      GError **error)
{
  g_autofree char *where = variant_where (vs), *after = variant_after (vs);

  g_set_error (error, NS_ERROR, NS_ERROR_CHECK, "%s: the workload completed no %s %s: %s, "
               "unless the set-up lets none complete (a what-if can send every one "
               "elsewhere, as to reuseport sockets nobody reads, or drop every one)%s",
               where, vs->klass->op_name, when, advice, after);
}

/* Sets the error for a simulation that stopped short of the window's end (ns_engine_run
 * returns early when every thread is blocked and no event is pending: nothing can happen
 * again): when says which window, reached how far into the measured time it got. */
static void
error_stalled (const NsVariantSetup *vs, const char *when, NsTime reached, GError **error)
{
  g_autofree char *where = variant_where (vs), *after = variant_after (vs);

  g_set_error (error, NS_ERROR, NS_ERROR_CHECK, "%s: the simulation stalled %.6g us into "
               "the measured time, %s: every simulated thread blocked with no event pending, "
               "so nothing could happen again (a workload that waits for itself)%s",
               where, (double) reached / 1e6, when, after);
}

/* TRUE if metric of klass divides by the span (per second, a fraction of time), FALSE if
 * by the operations completed. */
static gboolean
metric_per_time (const NsWorkloadClass *klass, const char *metric)
{
  return klass->per_time_metrics != NULL &&
         g_strv_contains (klass->per_time_metrics, metric);
}

/* Measures one repetition under the convergence rule: batches of measure/@batch while one
 * more fits in max-duration, until the CI of the batch values is narrow enough; out gets
 * the ratio estimator, total over total (each batch's value weighed by its metric's
 * denominator: its span or its operations), as the fixed rule's; the batch values serve
 * the CI only. FALSE with an error if the simulation stalled in a batch or a batch
 * completed no operation. */
static gboolean
measure_converging (const NsVariantSetup *vs, NsEngine *engine, NsMachine *machine,
                    gpointer state, NsTime start, NsRepResult *out, GError **error)
{
  const NsMeasure *m = &vs->sc->measure;
  g_autoptr (GArray) batches = g_array_new (FALSE, FALSE, sizeof (double));
  gboolean per_time = metric_per_time (vs->klass, m->metric);
  NsTime now = start;
  double ci = INFINITY, v, weighed = 0.0, weights = 0.0;

  while (m->batch <= m->max_duration - (now - start)) {
    NsTime reached = ns_engine_run (engine, now + m->batch);
    guint64 ops;

    if (reached < now + m->batch)
      goto error_stalled_batch;
    if (!vs->klass->metric (state, machine, m->metric, reached - now, &v))
      goto error_empty_batch;
    g_array_append_val (batches, v);
    ops = vs->klass->ops (state);
    out->ops += ops;
    weighed += v * (per_time ? (double) (reached - now) : (double) ops);
    weights += per_time ? (double) (reached - now) : (double) ops;
    vs->klass->mark (state);
    now = reached;
    if (batches->len >= MAX (m->min_batches, 2)) {
      ci = relative_ci ((double *) batches->data, batches->len, m->confidence);
      if (ci <= m->converge)
        break;
    }
  }
  out->value = weighed / weights;    /* ≥ 1 batch: read_measure keeps batch ≤ max-duration */
  if (batches->len < MAX (m->min_batches, 2))
    out->rule = g_strdup_printf ("max-duration reached: %u batches of %.6g us, fewer than "
                                 "the %u min-batches (no CI)", batches->len,
                                 (double) m->batch / 1e6, MAX (m->min_batches, 2));
  else
    out->rule = g_strdup_printf ("%s: %.0f%% CI ±%.3g%% after %u batches of %.6g us",
                                 ci <= m->converge ? "converged" : "max-duration reached",
                                 m->confidence * 100, ci * 100, batches->len,
                                 (double) m->batch / 1e6);
  return TRUE;

/* ERRORS */
error_stalled_batch:
  {
    g_autofree char *when = g_strdup_printf ("in batch %u (%.6g us, from %.6g us into the "
                                             "measured time)", batches->len + 1,
                                             (double) m->batch / 1e6,
                                             (double) (now - start) / 1e6);

    error_stalled (vs, when, ns_engine_now (engine) - start, error);
    return FALSE;
  }
error_empty_batch:
  {
    g_autofree char *when = g_strdup_printf ("in batch %u (%.6g us, from %.6g us into the "
                                             "measured time)", batches->len + 1,
                                             (double) m->batch / 1e6,
                                             (double) (now - start) / 1e6);

    error_none_completed (vs, when, "lengthen measure/@batch past the longest stretch "
                          "without a completion", error);
    return FALSE;
  }
}

/* Measures one repetition under the fixed rule: measure/@duration from start. FALSE with
 * an error if the simulation stalled before its end or the workload completed no
 * operation. */
static gboolean
measure_fixed (const NsVariantSetup *vs, NsEngine *engine, NsMachine *machine,
               gpointer state, NsTime start, NsRepResult *out, GError **error)
{
  const NsMeasure *m = &vs->sc->measure;
  NsTime reached = ns_engine_run (engine, start + m->duration);

  out->measured = reached - start;
  if (out->measured < m->duration)
    goto error_stalled_window;
  if (!vs->klass->metric (state, machine, m->metric, out->measured, &out->value))
    goto error_empty;
  out->rule = g_strdup_printf ("fixed duration: %.6g us simulated", (double) m->duration / 1e6);
  out->ops = vs->klass->ops (state);
  return TRUE;

/* ERRORS */
error_stalled_window:
  {
    g_autofree char *when = g_strdup_printf ("%.6g us short of the fixed duration's end "
                                             "(%.6g us)", (double) (m->duration -
                                                                    out->measured) / 1e6,
                                             (double) m->duration / 1e6);

    error_stalled (vs, when, out->measured, error);
    return FALSE;
  }
error_empty:
  {
    g_autofree char *when = g_strdup_printf ("in the measured time (%.6g us)",
                                             (double) out->measured / 1e6);

    error_none_completed (vs, when, "lengthen measure/@duration", error);
    return FALSE;
  }
}

/* Layout of a function's running sums: self cycles by cause, calls, inlined invocations,
 * then its inlined body's cycles by cause. */
#define SUM_CALLS    NS_CAUSE_N
#define SUM_INLINED  (NS_CAUSE_N + 1)
#define SUM_BODY     (NS_CAUSE_N + 2)
#define SUM_LEN      (2 * NS_CAUSE_N + 2)

/* Adds the machine's account for this repetition to the variant's running sums. */
static void
accumulate_account (NsMachine *machine, GHashTable *sums)
{
  for (guint id = 0; id <= ns_func_count (); id++) {
    NsFunc *f = id ? ns_func_by_id (id) : NULL;
    const char *name = f ? f->name : "(top level)";
    double *row = g_hash_table_lookup (sums, name);
    guint64 inlined = 0, calls = f ? ns_machine_account_calls (machine, f, &inlined) : 0;
    double cell[SUM_LEN] = { 0 };
    gboolean any = calls || inlined;

    for (int c = 0; c < NS_CAUSE_N; c++) {
      cell[c] = ns_machine_account_cycles (machine, f, c);
      cell[SUM_BODY + c] = f ? ns_machine_account_inline_cycles (machine, f, c) : 0.0;
      any = any || cell[c] != 0 || cell[SUM_BODY + c] != 0;
    }
    if (!any)
      continue;
    if (row == NULL) {
      row = g_new0 (double, SUM_LEN);
      g_hash_table_insert (sums, g_strdup (name), row);
    }
    cell[SUM_CALLS] = (double) calls;
    cell[SUM_INLINED] = (double) inlined;
    for (int i = 0; i < SUM_LEN; i++)
      row[i] += cell[i];
  }
}

/* Appends one frame to a folded stack: ';' unless first, then name with the format's
 * separators (';' and blanks) replaced by '_', then mark. */
static void
append_frame (GString *path, const char *name, const char *mark)
{
  gsize start;

  if (path->len > 0)
    g_string_append_c (path, ';');
  start = path->len;
  g_string_append (path, name);
  g_strdelimit (path->str + start, "; \t", '_');
  g_string_append (path, mark);
}

/* Appends the frames of calling context id to path, outermost first: its thread's name,
 * then each function ("_[i]" if inlined: the flame-graph tools' mark for inline). */
static void
append_context_path (NsEngine *engine, guint id, GString *path)
{
  gboolean inlined;
  NsThread *thread;
  guint parent;
  NsFunc *func = ns_engine_context (engine, id, &inlined, &thread, &parent);

  if (parent != 0)
    append_context_path (engine, parent, path);
  else
    append_frame (path, ns_thread_name (thread), "");
  if (func != NULL)
    append_frame (path, func->name, inlined ? "_[i]" : "");
}

/* Adds the cycles of every calling context and cause of this repetition to stacks
 * (folded stack → double*), the cause as the innermost frame "[cause]". */
static void
accumulate_stacks (NsMachine *machine, NsEngine *engine, GHashTable *stacks)
{
  g_autoptr (GString) path = g_string_new (NULL);

  for (guint id = 1; id < ns_engine_n_contexts (engine); id++) {
    gsize base = 0;
    for (int c = 0; c < NS_CAUSE_N; c++) {
      double cycles = ns_machine_account_context_cycles (machine, id, c);
      double *sum;
      if (cycles <= 0.0)
        continue;
      if (base == 0) {                 /* the context's frames, once */
        g_string_truncate (path, 0);
        append_context_path (engine, id, path);
        base = path->len;
      }
      g_string_truncate (path, base);
      g_string_append_printf (path, ";[%s]", ns_cause_name (c));
      sum = g_hash_table_lookup (stacks, path->str);
      if (sum == NULL) {
        sum = g_new0 (double, 1);
        g_hash_table_insert (stacks, g_strdup (path->str), sum);
      }
      *sum += cycles;
    }
  }
}

/* A thread's running sum over the repetitions. */
typedef struct {
  guint  cpu;
  double cycles;
} ThreadSum;

/* Adds the cycles of every calling context of this repetition to its thread's sum in
 * threads (thread name → ThreadSum). */
static void
accumulate_threads (NsMachine *machine, NsEngine *engine, GHashTable *threads)
{
  for (guint id = 1; id < ns_engine_n_contexts (engine); id++) {
    NsThread *thread;
    ThreadSum *sum;
    double cycles = 0.0;

    ns_engine_context (engine, id, NULL, &thread, NULL);
    for (int c = 0; c < NS_CAUSE_N; c++)
      cycles += ns_machine_account_context_cycles (machine, id, c);
    if (cycles == 0.0)
      continue;
    sum = g_hash_table_lookup (threads, ns_thread_name (thread));
    if (sum == NULL) {
      sum = g_new0 (ThreadSum, 1);
      sum->cpu = ns_thread_cpu (thread);
      g_hash_table_insert (threads, g_strdup (ns_thread_name (thread)), sum);
    }
    sum->cycles += cycles;
  }
}

/* What the repetitions of one variant add up. */
typedef struct {
  GHashTable *sums;             /* function name → running sums (SUM_LEN doubles) */
  GHashTable *threads;          /* thread name → ThreadSum */
  GHashTable *stacks;           /* folded stack → cycles (double*); NULL: not wanted */
  GHashTable *params_read;      /* names any repetition's machine and models read */
  guint64     events[NS_CAUSE_N];
  double      overlapped[NS_CAUSE_N];
} NsVariantSums;

/* Adds to read (a set of names) the parameters read from params since it was tracked. */
static void
accumulate_params_read (const NsParams *params, GHashTable *read)
{
  g_auto (GStrv) names = ns_params_read (params);

  for (guint i = 0; names[i] != NULL; i++)
    g_hash_table_add (read, g_strdup (names[i]));
}

/* The names in read (a set), sorted as the registry is (newly allocated). */
static char **
params_read_list (GHashTable *read)
{
  g_autoptr (GStrvBuilder) names = g_strv_builder_new ();
  GPtrArray *all = ns_param_all ();

  for (guint i = 0; i < all->len; i++) {
    const NsParamDef *def = all->pdata[i];
    if (g_hash_table_contains (read, def->name))
      g_strv_builder_add (names, def->name);
  }
  return g_strv_builder_end (names);
}

/* Adds the machine's account of this repetition to acc. */
static void
accumulate (NsMachine *machine, NsEngine *engine, NsVariantSums *acc)
{
  accumulate_params_read (ns_machine_params (machine), acc->params_read);
  accumulate_account (machine, acc->sums);
  accumulate_threads (machine, engine, acc->threads);
  if (acc->stacks != NULL)
    accumulate_stacks (machine, engine, acc->stacks);
  for (int c = 0; c < NS_CAUSE_N; c++) {
    acc->events[c] += ns_machine_account_events (machine, c);
    acc->overlapped[c] += ns_machine_account_overlapped (machine, c);
  }
}

/* Makes a fresh machine, its engine and the workload's state on it (rng its stream);
 * FALSE with the run's error, blamed on the scenario's parameters (the machine) or on its
 * kernel version (a model that does not cover it), and *machine, *engine and *state set
 * to what was made (for workload_stop). */
static gboolean
workload_start (const NsVariantSetup *vs, guint64 rep_seed, gsl_rng *rng, NsMachine **machine,
                NsEngine **engine, gpointer *state, GError **error)
{
  GError *cause = NULL;

  *machine = ns_machine_new (vs->params, &vs->mit, vs->build, &cause);
  if (*machine == NULL)
    goto bad_machine;
  /* the page frames: a stream of their own, so the workload's draws stay as they were */
  ns_machine_set_page_key (*machine, ns_derive_seed (rep_seed, 0));
  *engine = ns_machine_create_engine (*machine);
  *state = vs->klass->setup (vs->sc, *machine, *engine, rng, &cause);
  if (*state == NULL)
    goto bad_setup;
  return TRUE;

/* ERRORS */
bad_machine:
  if (g_error_matches (cause, NS_ERROR, NS_ERROR_INPUT))
    blame_params (vs, cause, error);
  else
    g_propagate_error (error, cause);
  return FALSE;
bad_setup:                              /* a model may not cover the kernel version */
  if (ns_build_version_refused (vs->build))
    blame_attribute (vs->sc, "kernel", "version", cause, error);
  else
    g_propagate_error (error, cause);
  return FALSE;
}

/* Frees what workload_start made (each may be NULL). */
static void
workload_stop (const NsVariantSetup *vs, NsMachine *machine, NsEngine *engine, gpointer state)
{
  if (state)
    vs->klass->free (state);
  if (engine)
    ns_engine_free (engine);
  if (machine)
    ns_machine_free (machine);
}

/* Sets the variant up with opt's overrides and the workload on a machine; see run.h. */
gboolean
ns_run_check_workload (const char *path, const char *variant, const NsRunOptions *opt,
                       GError **error)
{
  NsVariantSetup vs;
  NsMachine *machine = NULL;
  NsEngine *engine = NULL;
  gpointer state = NULL;
  gsl_rng *rng;
  guint64 rep_seed;
  gboolean ok;

  g_return_val_if_fail (path != NULL && opt != NULL, FALSE);
  if (!variant_setup (&vs, path, variant, opt, error))
    return FALSE;
  rep_seed = ns_derive_seed (opt->seed_given ? opt->seed : vs.sc->seed, 0);
  rng = gsl_rng_alloc (gsl_rng_mt19937);
  gsl_rng_set (rng, rep_seed);
  ok = workload_start (&vs, rep_seed, rng, &machine, &engine, &state, error);
  workload_stop (&vs, machine, engine, state);
  gsl_rng_free (rng);
  variant_setup_clear (&vs);
  return ok;
}

/* What the engine observer of a repetition reports progress to. */
typedef struct {
  const NsRunOptions *opt;
  NsTime              end;          /* warmup + duration (or max-duration) */
  gboolean            at_most;      /* the convergence rule may stop before end */
  gint64              last_us;      /* host time of the last report */
} NsRepWatch;

/* Engine steps between two looks at the host clock. */
#define REP_WATCH_STEPS 4096

/* Engine observer: reports the simulated time reached, at most every NS_RUN_PROGRESS_MS. */
static void
rep_watch (NsEngine *engine, gpointer data)
{
  NsRepWatch *w = data;
  gint64 now_us = g_get_monotonic_time ();

  if (now_us - w->last_us < NS_RUN_PROGRESS_MS * 1000)
    return;
  w->last_us = now_us;
  w->opt->progress_time (ns_engine_now (engine), w->end, w->at_most, w->opt->progress_data);
}

/* Runs repetition rep on a fresh machine and adds its account to acc; with
 * opt->progress_time, reports its simulated time as it goes. */
static gboolean
run_repetition (const NsVariantSetup *vs, const NsRunOptions *opt, guint rep, guint64 seed,
                NsVariantSums *acc, NsRepResult *out, GError **error)
{
  const NsMeasure *m = &vs->sc->measure;
  NsMachine *machine = NULL;
  NsEngine *engine = NULL;
  gpointer state = NULL;
  gsl_rng *rng = gsl_rng_alloc (gsl_rng_mt19937);
  guint64 rep_seed = ns_derive_seed (seed, rep);
  NsTime start;
  gboolean ok = FALSE;
  NsRepWatch watch = { opt, m->warmup + (m->converge > 0 ? m->max_duration : m->duration),
                       m->converge > 0, g_get_monotonic_time () };

  gsl_rng_set (rng, rep_seed);
  if (!workload_start (vs, rep_seed, rng, &machine, &engine, &state, error) ||
      !check_config_values (vs->sc, vs->build, error))
    goto out;
  if (opt->progress_time != NULL)
    ns_engine_set_observer (engine, REP_WATCH_STEPS, rep_watch, &watch);
  start = ns_engine_run (engine, m->warmup);
  vs->klass->mark (state);
  ns_machine_account_reset (machine);
  /* read_measure saw to it that neither rule's end passes NS_TIME_FOREVER */
  if (m->converge > 0) {
    ok = measure_converging (vs, engine, machine, state, start, out, error);
    out->measured = ns_engine_now (engine) - start;
  } else {
    ok = measure_fixed (vs, engine, machine, state, start, out, error);
  }
  ok = ok && check_config_values (vs->sc, vs->build, error);
  if (ok)
    accumulate (machine, engine, acc);

out:
  workload_stop (vs, machine, engine, state);
  gsl_rng_free (rng);
  return ok;
}

/* The mean or harmonic mean of values[0..n) (n ≥ 1; harmonic: all positive; equal values
 * give that value exactly); *cv (may be NULL) gets their coefficient of variation, the
 * sample standard deviation over the arithmetic mean (NAN, undefined, for a single value
 * or a zero mean: "no variation" would be a claim one run cannot make). */
double
ns_run_aggregate (const double *values, guint n, NsAggregate how, double *cv)
{
  double mean, value;

  g_return_val_if_fail (values != NULL && n > 0, 0.0);
  mean = gsl_stats_mean (values, 1, n);
  value = mean;
  if (how == NS_AGG_HARMONIC && gsl_stats_min (values, 1, n) == gsl_stats_max (values, 1, n)) {
    value = values[0];                  /* n / Σ 1/x would round it */
  } else if (how == NS_AGG_HARMONIC) {
    double inv = 0;
    for (guint i = 0; i < n; i++)
      inv += 1.0 / values[i];
    value = n / inv;
  }
  if (cv)
    *cv = n > 1 && mean != 0 ? gsl_stats_sd_m (values, 1, n, mean) / fabs (mean) : NAN;
  return value;
}

/* Sets the variant's aggregate value and CV over its repetitions. */
static void
aggregate (NsVariantResult *vr, NsAggregate how)
{
  vr->value = ns_run_aggregate (vr->values, vr->n_reps, how, &vr->cv);
  vr->aggregate = g_strdup (how == NS_AGG_HARMONIC ? "harmonic" : "mean");
}

/* Orders NsBreakdownRow pointers most expensive first (the larger of out-of-line and
 * inlined-body cycles), then by function name. */
static gint
compare_rows (gconstpointer a, gconstpointer b)
{
  const NsBreakdownRow *ra = *(NsBreakdownRow *const *) a;
  const NsBreakdownRow *rb = *(NsBreakdownRow *const *) b;
  double ka = MAX (ra->total_per_op, ra->body_total_per_op);
  double kb = MAX (rb->total_per_op, rb->body_total_per_op);

  if (ka != kb)
    return ka < kb ? 1 : -1;
  return strcmp (ra->func, rb->func);
}

/* Frees one NsBreakdownRow and its function name. */
static void
breakdown_row_free (gpointer p)
{
  NsBreakdownRow *row = p;
  g_free (row->func);
  g_free (row);
}

/* Turns the summed account into per-operation rows, most expensive first; none without an
 * operation (per-operation figures do not exist then). */
static GPtrArray *
breakdown_rows (GHashTable *sums, guint64 ops)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func (breakdown_row_free);
  GHashTableIter iter;
  gpointer key, value;
  double per;

  if (ops == 0)
    return rows;
  per = 1.0 / (double) ops;

  g_hash_table_iter_init (&iter, sums);
  while (g_hash_table_iter_next (&iter, &key, &value)) {
    const double *sum = value;
    NsBreakdownRow *row = g_new0 (NsBreakdownRow, 1);
    row->func = g_strdup (key);
    for (int c = 0; c < NS_CAUSE_N; c++) {
      row->cycles_per_op[c] = sum[c] * per;
      row->total_per_op += sum[c] * per;
      row->body_per_op[c] = sum[SUM_BODY + c] * per;
      row->body_total_per_op += sum[SUM_BODY + c] * per;
    }
    row->calls_per_op = sum[SUM_CALLS] * per;
    row->inlined_per_op = sum[SUM_INLINED] * per;
    g_ptr_array_add (rows, row);
  }
  g_ptr_array_sort (rows, compare_rows);
  return rows;
}

/* Sort key of a row of differences: the larger magnitude of its two totals. */
static double
delta_key (const NsBreakdownRow *row)
{
  return MAX (fabs (row->total_per_op), fabs (row->body_total_per_op));
}

/* Orders rows of differences: the largest change first, then by name. */
static gint
compare_deltas (gconstpointer a, gconstpointer b)
{
  const NsBreakdownRow *ra = *(NsBreakdownRow *const *) a;
  const NsBreakdownRow *rb = *(NsBreakdownRow *const *) b;
  double ka = delta_key (ra), kb = delta_key (rb);

  if (ka != kb)
    return ka < kb ? 1 : -1;
  return strcmp (ra->func, rb->func);
}

/* Adds sign × row into the difference row of its function in by_name. */
static void
add_to_delta (GHashTable *by_name, const NsBreakdownRow *row, double sign)
{
  NsBreakdownRow *d = g_hash_table_lookup (by_name, row->func);

  if (d == NULL) {
    d = g_new0 (NsBreakdownRow, 1);
    d->func = g_strdup (row->func);
    g_hash_table_insert (by_name, d->func, d);
  }
  d->calls_per_op += sign * row->calls_per_op;
  d->inlined_per_op += sign * row->inlined_per_op;
  d->total_per_op += sign * row->total_per_op;
  d->body_total_per_op += sign * row->body_total_per_op;
  for (int c = 0; c < NS_CAUSE_N; c++) {
    d->cycles_per_op[c] += sign * row->cycles_per_op[c];
    d->body_per_op[c] += sign * row->body_per_op[c];
  }
}

/* TRUE if a row of differences changes no figure at all. */
static gboolean
delta_is_zero (const NsBreakdownRow *d)
{
  if (d->calls_per_op != 0.0 || d->inlined_per_op != 0.0)
    return FALSE;
  for (int c = 0; c < NS_CAUSE_N; c++)
    if (d->cycles_per_op[c] != 0.0 || d->body_per_op[c] != 0.0)
      return FALSE;
  return TRUE;
}

/* Per function, patched − baseline of every per-operation figure of the breakdown, the
 * largest changes first; only rows that change nothing at all are left out, so the rows
 * add up to the change of the total. */
GPtrArray *
ns_run_breakdown_delta (const NsVariantResult *baseline, const NsVariantResult *patched)
{
  GHashTable *by_name;
  GPtrArray *rows;
  GHashTableIter iter;
  gpointer value;

  g_return_val_if_fail (baseline != NULL && patched != NULL, NULL);
  by_name = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < baseline->breakdown->len; i++)
    add_to_delta (by_name, baseline->breakdown->pdata[i], -1.0);
  for (guint i = 0; i < patched->breakdown->len; i++)
    add_to_delta (by_name, patched->breakdown->pdata[i], +1.0);
  rows = g_ptr_array_new_with_free_func (breakdown_row_free);
  g_hash_table_iter_init (&iter, by_name);
  while (g_hash_table_iter_next (&iter, NULL, &value)) {
    NsBreakdownRow *d = value;
    if (delta_is_zero (d))
      breakdown_row_free (d);
    else
      g_ptr_array_add (rows, d);
  }
  g_hash_table_destroy (by_name);
  g_ptr_array_sort (rows, compare_deltas);
  return rows;
}

/* Cycles per operation of a variant: the sum of its breakdown's own (not inlined) rows;
 * NAN when its windows held no operation. */
double
ns_run_cycles_per_op (const NsVariantResult *vr)
{
  double sum = 0.0;

  g_return_val_if_fail (vr != NULL, 0.0);
  if (vr->ops == 0)
    return NAN;                 /* no operation in the window: no figure per operation */
  for (guint i = 0; i < vr->breakdown->len; i++)
    sum += ((const NsBreakdownRow *) vr->breakdown->pdata[i])->total_per_op;
  return sum;
}

/* See run.h. */
double
ns_run_one_op_step_pct (double baseline, double patched, guint64 ops_b, guint64 ops_p)
{
  guint64 ops = MIN (ops_b, ops_p);

  if (ops == 0 || baseline == 0.0)
    return 0.0;
  return 100.0 * patched / baseline / (double) ops;
}

typedef struct {
  GPtrArray  *funcs;            /* NsFunc *: those the variant ran */
  GHashTable *used;             /* functions this variant ran (names) */
} NsDecisionList;

/* Keeps func if the variant ran it (the registry is process-wide). */
static void
collect_decision (NsFunc *func, gboolean inlined, const char *reason, gpointer data)
{
  NsDecisionList *list = data;

  (void) inlined;
  (void) reason;
  if (g_hash_table_contains (list->used, func->name))
    g_ptr_array_add (list->funcs, func);
}

/* Orders NsFunc pointers by name. */
static gint
compare_func_names (gconstpointer a, gconstpointer b)
{
  return strcmp ((*(NsFunc *const *) a)->name, (*(NsFunc *const *) b)->name);
}

/* The build's decisions on the functions the variant ran, "name: inlined|called (reason)",
 * NULL-terminated, by function name: the registry's order is that in which functions were
 * first registered, which depends on the variants that ran before in the process. */
static char **
inlining_lines (NsBuild *build, GHashTable *used)
{
  g_autoptr (GPtrArray) funcs = g_ptr_array_new ();
  GPtrArray *lines = g_ptr_array_new ();
  NsDecisionList list = { funcs, used };

  ns_build_foreach_decision (build, collect_decision, &list);
  g_ptr_array_sort (funcs, compare_func_names);
  for (guint i = 0; i < funcs->len; i++) {
    NsFunc *func = funcs->pdata[i];
    const char *reason;
    gboolean inlined = ns_build_inlines (build, func, &reason);

    g_ptr_array_add (lines, g_strdup_printf ("%s: %s (%s)", func->name,
                                             inlined ? "inlined" : "called", reason));
  }
  g_ptr_array_add (lines, NULL);
  return (char **) g_ptr_array_free (lines, FALSE);
}

/* Copies what the variant ran with into its result. */
static void
describe_variant (NsVariantResult *vr, const NsVariantSetup *vs, GHashTable *used)
{
  vr->metric = g_strdup (vs->sc->measure.metric);
  vr->op_name = g_strdup (vs->klass->op_name);
  vr->mitigations = g_strdupv (vs->mit.explain);
  vr->inlining = inlining_lines (vs->build, used);
  vr->cpu_name = g_strdup (vs->profile->name);
  vr->cpu_model = g_strdup (vs->profile->model);
  vr->kernel = g_strdup (vs->sc->kernel_version);
  vr->cmdline = g_strdup (vs->sc->cmdline);
  vr->base_config = g_strdup (vs->sc->base_config ? vs->sc->base_config : "");
  vr->params = ns_params_copy (vs->params);
}

/* Frees an NsVariantResult and everything it owns (the free func of result->variants). */
static void
variant_result_free (gpointer p)
{
  NsVariantResult *vr = p;
  g_free (vr->name);
  g_free (vr->metric);
  g_free (vr->op_name);
  g_free (vr->values);
  g_strfreev (vr->stop_rules);
  g_free (vr->measured);
  g_free (vr->aggregate);
  g_clear_pointer (&vr->breakdown, g_ptr_array_unref);
  g_clear_pointer (&vr->stacks, g_ptr_array_unref);
  g_clear_pointer (&vr->threads, g_ptr_array_unref);
  g_strfreev (vr->mitigations);
  g_strfreev (vr->inlining);
  g_strfreev (vr->config_read);
  g_strfreev (vr->config_in_force);
  g_strfreev (vr->params_read);
  g_strfreev (vr->replaced);
  g_strfreev (vr->notes);
  g_free (vr->cpu_name);
  g_free (vr->cpu_model);
  g_free (vr->kernel);
  g_free (vr->cmdline);
  g_free (vr->base_config);
  ns_params_free (vr->params);
  g_free (vr);
}

/* Frees one NsStackRow. */
static void
stack_row_free (gpointer p)
{
  NsStackRow *row = p;
  g_free (row->stack);
  g_free (row);
}

/* Orders NsStackRow pointers by stack. */
static gint
compare_stack_rows (gconstpointer a, gconstpointer b)
{
  return strcmp ((*(NsStackRow *const *) a)->stack, (*(NsStackRow *const *) b)->stack);
}

/* Turns the summed calling contexts (folded stack → cycles) into rows sorted by stack. */
static GPtrArray *
stack_rows (GHashTable *stacks)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func (stack_row_free);
  GHashTableIter it;
  gpointer key, value;

  g_hash_table_iter_init (&it, stacks);
  while (g_hash_table_iter_next (&it, &key, &value)) {
    NsStackRow *row = g_new (NsStackRow, 1);
    row->stack = g_strdup (key);
    row->cycles = *(double *) value;
    g_ptr_array_add (rows, row);
  }
  g_ptr_array_sort (rows, compare_stack_rows);
  return rows;
}

/* Frees one NsThreadRow. */
static void
thread_row_free (gpointer p)
{
  NsThreadRow *row = p;
  g_free (row->thread);
  g_free (row);
}

/* Orders NsThreadRow pointers by CPU, then name. */
static gint
compare_thread_rows (gconstpointer a, gconstpointer b)
{
  const NsThreadRow *ra = *(NsThreadRow *const *) a, *rb = *(NsThreadRow *const *) b;

  if (ra->cpu != rb->cpu)
    return ra->cpu < rb->cpu ? -1 : 1;
  return strcmp (ra->thread, rb->thread);
}

/* Turns the threads' sums into rows per operation of vr (NAN without operations) and
 * shares of their CPU's measured time at clock_ghz. */
static GPtrArray *
thread_rows (GHashTable *threads, const NsVariantResult *vr, double clock_ghz)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func (thread_row_free);
  double measured_s = 0.0;
  GHashTableIter it;
  gpointer key, value;

  for (guint r = 0; r < vr->n_reps; r++)
    measured_s += (double) vr->measured[r] / (double) NS_SEC (1);
  g_hash_table_iter_init (&it, threads);
  while (g_hash_table_iter_next (&it, &key, &value)) {
    const ThreadSum *sum = value;
    NsThreadRow *row = g_new (NsThreadRow, 1);
    row->thread = g_strdup (key);
    row->cpu = sum->cpu;
    row->cycles_per_op = vr->ops ? sum->cycles / (double) vr->ops : NAN;
    row->busy = measured_s > 0 ? sum->cycles / (clock_ghz * 1e9 * measured_s) : NAN;
    g_ptr_array_add (rows, row);
  }
  g_ptr_array_sort (rows, compare_thread_rows);
  return rows;
}

/* Runs every repetition of one variant; shown is the name its progress and run-time
 * errors give it (ns_run_output_name, or its twin's). */
static NsVariantResult *
run_variant (const char *path, const char *name, const char *shown, guint index,
             guint total, const NsRunOptions *opt, guint64 seed, GError **error)
{
  NsVariantSetup vs;
  NsVariantResult *vr;
  NsVariantSums acc = { NULL, NULL, NULL, NULL, { 0 }, { 0 } };
  guint n;

  if (!variant_setup (&vs, path, name, opt, error))
    return NULL;
  vs.shown = shown;
  n = vs.sc->measure.repetitions;      /* ≤ NS_MAX_REPETITIONS: read_measure's check */
  vr = g_new0 (NsVariantResult, 1);
  vr->name = g_strdup (name);
  vr->n_reps = n;
  vr->values = g_new0 (double, n);
  vr->stop_rules = g_new0 (char *, (gsize) n + 1);     /* NULL-terminated; no guint wrap */
  vr->measured = g_new0 (NsTime, n);
  acc.sums = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  acc.threads = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  acc.params_read = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (opt->stacks)
    acc.stacks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint r = 0; r < n; r++) {
    NsRepResult rep = { 0 };
    if (opt->progress)
      opt->progress (shown, index, total, r, n, opt->progress_data);
    if (!run_repetition (&vs, opt, r, seed, &acc, &rep, error)) {
      g_free (rep.rule);
      goto fail;
    }
    vr->values[r] = rep.value;
    vr->stop_rules[r] = rep.rule;
    vr->measured[r] = rep.measured;
    vr->ops += rep.ops;
  }
  aggregate (vr, vs.sc->measure.aggregate);
  vr->breakdown = breakdown_rows (acc.sums, vr->ops);
  if (acc.stacks != NULL)
    vr->stacks = stack_rows (acc.stacks);
  for (int c = 0; c < NS_CAUSE_N; c++) {
    vr->events_per_op[c] = vr->ops ? (double) acc.events[c] / (double) vr->ops : NAN;
    vr->overlapped_per_op[c] = vr->ops ? acc.overlapped[c] / (double) vr->ops : NAN;
  }
  describe_variant (vr, &vs, acc.sums);
  vr->config_read = ns_build_config_read (vs.build);
  vr->config_in_force = ns_build_config_in_force (vs.build);
  note_base_series (&vs, vr->config_in_force);
  accumulate_params_read (vs.params, acc.params_read);
  vr->params_read = params_read_list (acc.params_read);
  vr->notes = ns_build_notes (vs.build);
  vr->replaced = g_strdupv (vs.sc->replaced);
  vr->threads = thread_rows (acc.threads, vr, ns_params_get_double (vr->params,
                                                                     "cpu.freq_ghz"));
  g_hash_table_unref (acc.sums);
  g_hash_table_unref (acc.threads);
  g_hash_table_unref (acc.params_read);
  g_clear_pointer (&acc.stacks, g_hash_table_unref);
  variant_setup_clear (&vs);
  return vr;

fail:
  g_hash_table_unref (acc.sums);
  g_hash_table_unref (acc.threads);
  g_hash_table_unref (acc.params_read);
  g_clear_pointer (&acc.stacks, g_hash_table_unref);
  variant_result_free (vr);
  variant_setup_clear (&vs);
  return NULL;
}

/* One variant to run: what run_variant needs (its own copy of the run's options, whose
 * progress a pool rewrites), and what it gave. */
typedef struct {
  const char      *path, *name;
  char            *shown;        /* its name in progress and errors */
  guint            index, total; /* for progress: among its scenario's variants */
  guint            order;        /* among all the jobs run together */
  NsRunOptions     opt;
  guint64          seed;
  NsVariantResult *result;
  GError          *error;
} VariantJob;

/* Frees a VariantJob and what it holds. */
static void
variant_job_free (gpointer p)
{
  VariantJob *job = p;

  g_free (job->shown);
  if (job->result != NULL)
    variant_result_free (job->result);
  g_clear_error (&job->error);
  g_free (job);
}

/* Runs job's variant; FALSE if it failed (job->error set). */
static gboolean
variant_job_run (VariantJob *job)
{
  job->result = run_variant (job->path, job->name, job->shown, job->index, job->total,
                             &job->opt, job->seed, &job->error);
  return job->result != NULL;
}

/* The jobs running at once: the caller's progress, how many jobs have ended, and the
 * lowest order that failed (a later job's run would be discarded, so it is skipped). */
typedef struct {
  NsRunProgress progress;
  gpointer      progress_data;
  GMutex        lock;
  guint         done, total;
  guint         failed_at;       /* G_MAXUINT: none failed */
} VariantPool;

/* Calls the caller's progress from one worker at a time, counting the jobs of the whole
 * pool (index: how many have ended), since they do not start in order. */
static void
pool_progress (const char *variant, guint index, guint total, guint rep, guint n_reps,
               gpointer data)
{
  VariantPool *pool = data;

  (void) index;
  (void) total;
  g_mutex_lock (&pool->lock);
  pool->progress (variant, pool->done, pool->total, rep, n_reps, pool->progress_data);
  g_mutex_unlock (&pool->lock);
}

/* A worker's task: runs one job unless a job before it has failed. */
static void
pool_run_job (gpointer data, gpointer user_data)
{
  VariantJob *job = data;
  VariantPool *pool = user_data;
  gboolean skip, ok;

  g_mutex_lock (&pool->lock);
  skip = job->order > pool->failed_at;
  g_mutex_unlock (&pool->lock);
  ok = skip || variant_job_run (job);
  g_mutex_lock (&pool->lock);
  if (!ok)
    pool->failed_at = MIN (pool->failed_at, job->order);
  pool->done++;
  g_mutex_unlock (&pool->lock);
}

/* Runs jobs on up to n_threads threads at once (each variant's machine is its own; the
 * registries they share are locked), waiting for all; their progress (that of the first
 * job's options) goes to the caller from one thread at a time, without the in-repetition
 * time. FALSE: no thread could start. */
static gboolean
run_jobs_pool (GPtrArray *jobs, guint n_threads, GError **error)
{
  const NsRunOptions *first = &((VariantJob *) jobs->pdata[0])->opt;
  VariantPool pool = { first->progress, first->progress_data, { 0 }, 0, jobs->len,
                       G_MAXUINT };
  GThreadPool *threads;

  g_mutex_init (&pool.lock);
  for (guint i = 0; i < jobs->len; i++) {
    NsRunOptions *opt = &((VariantJob *) jobs->pdata[i])->opt;
    opt->progress = pool.progress != NULL ? pool_progress : NULL;
    opt->progress_data = &pool;
    opt->progress_time = NULL;          /* several repetitions run at once */
  }
  threads = g_thread_pool_new (pool_run_job, &pool, (gint) n_threads, TRUE, error);
  if (threads == NULL)
    goto no_threads;
  for (guint i = 0; i < jobs->len; i++)
    g_thread_pool_push (threads, jobs->pdata[i], NULL);
  g_thread_pool_free (threads, FALSE, TRUE);
  g_mutex_clear (&pool.lock);
  return TRUE;

/* ERRORS */
no_threads:
  g_mutex_clear (&pool.lock);
  return FALSE;
}

/* Runs jobs (n_threads at once, or one after another, stopping at the first that fails);
 * FALSE with the error of the first job that failed, in order, as a run in turn stops at
 * it, whatever ran after. */
static gboolean
run_jobs (GPtrArray *jobs, guint n_threads, GError **error)
{
  if (n_threads > 1 && jobs->len > 1) {
    if (!run_jobs_pool (jobs, MIN (n_threads, jobs->len), error))
      return FALSE;
  } else {
    for (guint i = 0; i < jobs->len && variant_job_run (jobs->pdata[i]); i++)
      ;
  }
  for (guint i = 0; i < jobs->len; i++) {
    VariantJob *job = jobs->pdata[i];
    if (job->result == NULL) {
      g_propagate_error (error, g_steal_pointer (&job->error));
      return FALSE;
    }
  }
  return TRUE;
}

/* Adds to jobs one per variant of names that runs (all, or opt->only_variant), with the
 * names their progress and errors give them. */
static void
add_variant_jobs (GPtrArray *jobs, const char *path, const NsScenario *base,
                  GPtrArray *names, const NsRunOptions *opt, guint64 seed)
{
  for (guint i = 0; i < names->len; i++) {
    const char *name = names->pdata[i];
    VariantJob *job;
    if (opt->only_variant && strcmp (opt->only_variant, name))
      continue;
    job = g_new0 (VariantJob, 1);
    job->path = path;
    job->name = name;
    job->shown = opt->what_if ? ns_run_twin_name (base->name, name)
                              : g_strdup (ns_run_output_name (base->name, name));
    /* progress counts the variants that run: all, or the one --variant names */
    job->index = opt->only_variant ? 0 : i;
    job->total = opt->only_variant ? 1 : names->len;
    job->order = jobs->len;
    job->opt = *opt;
    job->seed = seed;
    g_ptr_array_add (jobs, job);
  }
}

/* Index in result->variants of the variant named name, or -1 if it did not run. */
static gint
variant_index (NsRunResult *result, const char *name)
{
  for (guint i = 0; i < result->variants->len; i++) {
    NsVariantResult *vr = result->variants->pdata[i];
    if (!g_strcmp0 (vr->name, name))
      return (gint) i;
  }
  return -1;
}

/* (patched − baseline) / baseline in per cent; NaN against a zero baseline. */
static double
delta_pct (double baseline, double patched)
{
  return baseline != 0 ? 100.0 * (patched / baseline - 1.0) : NAN;
}

/* Reads <comparisons><compare label baseline patched/> and computes the deltas. */
static void
compare_variants (const NsScenario *base, NsRunResult *result)
{
  xmlNodePtr cmps = ns_xml_child (xmlDocGetRootElement (base->doc), "comparisons");

  for (xmlNodePtr n = cmps ? cmps->children : NULL; n; n = n->next) {
    g_autofree char *b = NULL, *p = NULL;
    NsComparison c;
    gint bi, pi;
    double bv, pv;
    if (n->type != XML_ELEMENT_NODE)
      continue;
    b = ns_xml_prop (n, "baseline");
    p = ns_xml_prop (n, "patched");
    bi = variant_index (result, b);
    pi = variant_index (result, p);
    if (bi < 0 || pi < 0)
      continue;             /* --variant ran a subset (names are checked at load) */
    c.label = ns_xml_prop (n, "label");
    c.baseline = bi;
    c.patched = pi;
    bv = ((NsVariantResult *) result->variants->pdata[bi])->value;
    pv = ((NsVariantResult *) result->variants->pdata[pi])->value;
    c.delta_pct = delta_pct (bv, pv);
    g_array_append_val (result->comparisons, c);
  }
}

/* Frees an NsComparison's label (the clear func of result->comparisons). */
static void
comparison_clear (gpointer p)
{
  g_free (((NsComparison *) p)->label);
}

/* Frees a run result. */
void
ns_run_result_free (NsRunResult *result)
{
  if (result == NULL)
    return;
  g_free (result->scenario_path);
  g_free (result->scenario_name);
  g_free (result->description);
  g_strfreev (result->sets);
  g_strfreev (result->what_if);
  g_ptr_array_unref (result->variants);
  g_array_unref (result->comparisons);
  g_free (result);
}

/* The variant called name, by a walk of result's variants. */
const NsVariantResult *
ns_run_result_variant (const NsRunResult *result, const char *name)
{
  g_return_val_if_fail (result != NULL && name != NULL, NULL);
  for (guint i = 0; i < result->variants->len; i++) {
    const NsVariantResult *vr = result->variants->pdata[i];
    if (!strcmp (vr->name, name))
      return vr;
  }
  return NULL;
}

/* The name a variant goes by in every output; see run.h. */
const char *
ns_run_output_name (const char *scenario_name, const char *variant)
{
  g_return_val_if_fail (scenario_name != NULL && variant != NULL, NULL);
  return variant[0] != '\0' ? variant : scenario_name;
}

/* The name of a variant's what-if twin, "NAME (what-if)"; see run.h. */
char *
ns_run_twin_name (const char *scenario_name, const char *variant)
{
  g_return_val_if_fail (scenario_name != NULL && variant != NULL, NULL);
  return g_strdup_printf ("%s (what-if)", ns_run_output_name (scenario_name, variant));
}

/* The first name the what-if twin of one of names (the variant names of the scenario
 * called scenario_name) would take from another of them (newly allocated), NULL if none
 * would. */
static char *
twin_name_taken (const char *scenario_name, GPtrArray *names)
{
  for (guint i = 0; i < names->len; i++) {
    char *twin = ns_run_twin_name (scenario_name, names->pdata[i]);
    if (g_ptr_array_find_with_equal_func (names, twin, g_str_equal, NULL))
      return twin;
    g_free (twin);
  }
  return NULL;
}

/* Refuses, before any run, a what-if whose twins' names would clash; see run.h. */
gboolean
ns_run_check_twin_names (const char *path, const NsRunOptions *opt, GError **error)
{
  g_autoptr (GPtrArray) names = NULL;
  g_autofree char *taken = NULL;
  NsScenario *sc;

  g_return_val_if_fail (path != NULL && opt != NULL, FALSE);
  /* one variant runs, and its twin's name is never its own */
  if (opt->only_variant != NULL)
    return TRUE;
  sc = ns_scenario_load_variant (path, NULL, opt->sets, opt->params, opt->params_by, error);
  if (sc == NULL)
    return FALSE;
  names = ns_run_variant_names (sc);
  taken = twin_name_taken (sc->name, names);
  if (taken != NULL)
    goto name_taken;
  ns_scenario_free (sc);
  return TRUE;

/* ERRORS */
name_taken:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s: --what-if names each variant's twin "
               "'NAME (what-if)', and a variant of the scenario is called '%s' already "
               "(rename it, or run another with --variant)", sc->path, taken);
  ns_scenario_free (sc);
  return FALSE;
}

/* The metric the scenario sc measures, and in *who the set that gave it (NULL: the
 * file's own). */
static const char *
measured_metric (const NsScenario *sc, const char **who)
{
  xmlNodePtr measure = ns_xml_child (xmlDocGetRootElement (sc->doc), "measure");
  xmlAttrPtr metric = measure ? ns_xml_attr (measure, "metric") : NULL;

  *who = metric ? g_hash_table_lookup (sc->set_by, metric) : NULL;
  return sc->measure.metric;
}

/* "'NAME' measures METRIC", and " (SET)" when a set gave that metric (newly allocated). */
static char *
measures_text (const char *name, const char *metric, const char *who)
{
  return g_strdup_printf ("'%s' measures %s%s%s%s", name, metric, who ? " (" : "",
                          who ? who : "", who ? ")" : "");
}

/* The options of the twin run of a run with opt: opt's, what_ifs as its params. */
static NsRunOptions
twin_options (const NsRunOptions *opt, const char *const *what_ifs)
{
  NsRunOptions twins = *opt;

  twins.params = what_ifs;
  twins.params_by = "--what-if";
  twins.what_if = TRUE;
  return twins;
}

/* FALSE with an error at the name of the first variant of twins (the scenario loaded with
 * what-ifs) that is not the variant of base (loaded without them) in its place: one a
 * what-if renamed, or added. */
static gboolean
check_same_variants (const NsScenario *base, const NsScenario *twins, GError **error)
{
  g_autoptr (GPtrArray) had = ns_run_variant_names (base);
  g_autoptr (GPtrArray) got = ns_run_variant_names (twins);
  const char *was;
  xmlNodePtr node;
  guint i;

  for (i = 0; i < got->len; i++)
    if (i >= had->len || strcmp (had->pdata[i], got->pdata[i]) != 0)
      break;
  if (i == got->len)
    return TRUE;        /* a set cannot remove a variant */
  was = i < had->len ? had->pdata[i] : NULL;
  node = ns_scenario_variant_node (twins->doc, got->pdata[i]);
  ns_xml_error_attr (twins, node, "name", error, "element variant: attribute 'name': a "
                     "what-if may not rename or add a variant (here '%s'%s%s%s): each "
                     "variant is compared with its twin, the same variant run with the "
                     "what-ifs (change a variant's own sets instead: "
                     "variants.variant[N].set[M].value=…)", (const char *) got->pdata[i],
                     was ? ", which the scenario calls '" : ", which the scenario lacks",
                     was ? was : "", was ? "'" : "");
  return FALSE;
}

/* FALSE with an error at the metric of the twin of variant ("": the scenario without
 * variants' one) if the what-ifs change the metric it measures; TRUE too if
 * either run's load fails (the run says why). */
static gboolean
check_same_metric (const char *path, const char *variant, const NsRunOptions *opt,
                   const NsRunOptions *twins, GError **error)
{
  NsScenario *base = ns_scenario_load_variant (path, variant, opt->sets, opt->params,
                                               opt->params_by, NULL);
  NsScenario *twin = ns_scenario_load_variant (path, variant, twins->sets, twins->params,
                                               twins->params_by, NULL);
  const char *who;
  gboolean ok = base == NULL || twin == NULL ||
                strcmp (measured_metric (base, &who), measured_metric (twin, &who)) == 0;

  if (!ok)
    ns_xml_error_attr (twin, ns_xml_child (xmlDocGetRootElement (twin->doc), "measure"),
                       "metric", error, "element measure: attribute 'metric': the what-if "
                       "twin of '%s' would measure %s, and '%s' %s: a comparison needs the "
                       "same metric on both sides (a delta between two metrics means "
                       "nothing)", ns_run_output_name (base->name, variant),
                       twin->measure.metric, ns_run_output_name (base->name, variant),
                       base->measure.metric);
  if (base)
    ns_scenario_free (base);
  if (twin)
    ns_scenario_free (twin);
  return ok;
}

/* Refuses, before any run, what-ifs whose twins could not be compared; see run.h. */
gboolean
ns_run_check_what_if (const char *path, const NsRunOptions *opt, const char *const *what_ifs,
                      GError **error)
{
  NsRunOptions twins;
  NsScenario *base, *twin;
  g_autoptr (GPtrArray) names = NULL;
  gboolean ok = TRUE;

  g_return_val_if_fail (path != NULL && opt != NULL && what_ifs != NULL, FALSE);
  twins = twin_options (opt, what_ifs);
  /* without a variant's sets, which may be what a what-if or --set edits (the run says so) */
  base = ns_scenario_load_variant (path, NULL, opt->sets, opt->params, opt->params_by, NULL);
  twin = ns_scenario_load_variant (path, NULL, twins.sets, twins.params, twins.params_by,
                                   NULL);
  if (base != NULL && twin != NULL)
    ok = check_same_variants (base, twin, error);
  names = base != NULL ? ns_run_variant_names (base) : g_ptr_array_new_with_free_func (g_free);
  if (opt->only_variant != NULL || names->len == 0) {
    g_ptr_array_set_size (names, 0);
    g_ptr_array_add (names, g_strdup (opt->only_variant ? opt->only_variant : ""));
  }
  for (guint i = 0; ok && i < names->len; i++)
    ok = check_same_metric (path, names->pdata[i], opt, &twins, error);
  if (base)
    ns_scenario_free (base);
  if (twin)
    ns_scenario_free (twin);
  return ok;
}

/* Adds to files the files one variant of the scenario at path reads, with opt's overrides. */
typedef void (*AddFilesFunc) (GPtrArray *files, const char *path, const char *variant,
                              const NsRunOptions *opt);

/* The files add finds for each variant a run of path with opt would run, NULL-terminated
 * and newly allocated. */
static char **
variants_files (const char *path, const NsRunOptions *opt, AddFilesFunc add)
{
  GPtrArray *files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) names = NULL;
  NsScenario *base = ns_scenario_load_variant (path, opt->only_variant, opt->sets,
                                               opt->params, opt->params_by, NULL);

  names = base ? ns_run_variant_names (base) : g_ptr_array_new ();
  if (opt->only_variant != NULL || names->len == 0)
    add (files, path, opt->only_variant, opt);
  for (guint i = 0; opt->only_variant == NULL && i < names->len; i++)
    add (files, path, names->pdata[i], opt);
  if (base)
    ns_scenario_free (base);
  g_ptr_array_add (files, NULL);
  return (char **) g_ptr_array_free (files, FALSE);
}

/* Adds to files the file of the CPU profile the variant of the scenario at path runs on
 * with opt's overrides, unless it is there already; nothing if either does not load. */
static void
add_profile_file (GPtrArray *files, const char *path, const char *variant,
                  const NsRunOptions *opt)
{
  NsScenario *sc = ns_scenario_load_variant (path, variant, opt->sets, opt->params,
                                             opt->params_by, NULL);
  NsCpuProfile *profile = sc ? ns_cpu_profile_load (sc->cpu, NULL) : NULL;

  if (profile && !g_ptr_array_find_with_equal_func (files, profile->path, g_str_equal, NULL))
    g_ptr_array_add (files, g_strdup (profile->path));
  if (profile)
    ns_cpu_profile_free (profile);
  if (sc)
    ns_scenario_free (sc);
}

/* The CPU profile files the variants of a run would read; see run.h. */
char **
ns_run_profile_files (const char *path, const NsRunOptions *opt)
{
  g_return_val_if_fail (path != NULL && opt != NULL, NULL);
  return variants_files (path, opt, add_profile_file);
}

/* Adds to files each file a <param from=FILE> of the variant of the scenario at path with
 * opt's overrides reads (not the scenario itself), unless it is there already; nothing if
 * the scenario does not load. */
static void
add_param_files (GPtrArray *files, const char *path, const char *variant,
                 const NsRunOptions *opt)
{
  NsScenario *sc = ns_scenario_load_variant (path, variant, opt->sets, opt->params,
                                             opt->params_by, NULL);

  if (sc) {
    ns_scenario_add_param_files (sc, files);
    ns_scenario_free (sc);
  }
}

/* The files the <param from=…> of the variants a run would run read; see run.h. */
char **
ns_run_param_files (const char *path, const NsRunOptions *opt)
{
  g_return_val_if_fail (path != NULL && opt != NULL, NULL);
  return variants_files (path, opt, add_param_files);
}

/* Joins a what-if run to the run without it; see run.h. */
NsRunResult *
ns_run_result_what_if (NsRunResult *base, NsRunResult *what_if,
                       const char *const *what_ifs, GError **error)
{
  g_autofree char *label = NULL;
  guint n;

  g_return_val_if_fail (base != NULL && what_if != NULL && what_ifs != NULL, NULL);
  n = base->variants->len;
  if (what_if->variants->len != n)
    goto mismatch;
  for (guint i = 0; i < n; i++)
    if (strcmp (((NsVariantResult *) base->variants->pdata[i])->name,
                ((NsVariantResult *) what_if->variants->pdata[i])->name) != 0)
      goto mismatch;
  label = g_strjoinv (" ", (char **) what_ifs);
  g_array_set_size (base->comparisons, 0);
  for (guint i = 0; i < n; i++) {
    NsVariantResult *b = base->variants->pdata[i];
    NsVariantResult *w = g_ptr_array_steal_index (what_if->variants, 0);
    NsComparison c = { g_strdup_printf ("%s: %s",
                                        ns_run_output_name (base->scenario_name, b->name),
                                        label), i, n + i, NAN };

    g_free (w->name);
    w->name = ns_run_twin_name (base->scenario_name, b->name);
    g_ptr_array_add (base->variants, w);
    c.delta_pct = delta_pct (b->value, w->value);
    g_array_append_val (base->comparisons, c);
  }
  base->what_if = g_strdupv ((char **) what_ifs);
  ns_run_result_free (what_if);
  return base;

/* ERRORS */
mismatch:
  g_set_error (error, NS_ERROR, NS_ERROR_INTERNAL, "%s: the what-if run's variants are not "
               "the run's", base->scenario_path);
  ns_run_result_free (what_if);
  ns_run_result_free (base);
  return NULL;
}

/* A new result for base's scenario run with seed under sets: copies of its path, name,
 * description and the sets, no variants or comparisons yet. */
static NsRunResult *
run_result_new (const NsScenario *base, guint64 seed, const char *const *sets)
{
  NsRunResult *result = g_new0 (NsRunResult, 1);

  result->scenario_path = g_strdup (base->path);
  result->scenario_name = g_strdup (base->name);
  result->description = g_strdup (base->description);
  result->sets = sets != NULL && sets[0] != NULL ? g_strdupv ((char **) sets) : NULL;
  result->seed = seed;
  result->variants = g_ptr_array_new_with_free_func (variant_result_free);
  result->comparisons = g_array_new (FALSE, TRUE, sizeof (NsComparison));
  g_array_set_clear_func (result->comparisons, comparison_clear);
  return result;
}

/* FALSE with an error at the first <compare> of base (the scenario at path loaded with
 * opt's overrides) whose baseline and patched variants measure different metrics, each
 * variant of names loaded with its own sets and opt's as its run will (a load's error is
 * the run's); TRUE without comparisons. Runs nothing. */
static gboolean
check_compared_metrics (const char *path, const NsScenario *base, GPtrArray *names,
                        const NsRunOptions *opt, GError **error)
{
  xmlNodePtr cmps = ns_xml_child (xmlDocGetRootElement (base->doc), "comparisons");
  g_autoptr (GHashTable) loaded = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                         (GDestroyNotify) ns_scenario_free);

  if (cmps == NULL)
    return TRUE;
  for (guint i = 0; i < names->len; i++) {
    NsScenario *sc = ns_scenario_load_variant (path, names->pdata[i], opt->sets, opt->params,
                                               opt->params_by, error);
    if (sc == NULL)
      return FALSE;
    g_hash_table_insert (loaded, names->pdata[i], sc);
  }
  for (xmlNodePtr c = cmps->children; c != NULL; c = c->next) {
    g_autofree char *b = NULL, *p = NULL, *said_b = NULL, *said_p = NULL;
    const NsScenario *sb, *sp;
    const char *mb, *mp, *who_b, *who_p;
    if (c->type != XML_ELEMENT_NODE)
      continue;
    b = ns_xml_prop (c, "baseline");
    p = ns_xml_prop (c, "patched");
    sb = b ? g_hash_table_lookup (loaded, b) : NULL;
    sp = p ? g_hash_table_lookup (loaded, p) : NULL;
    if (sb == NULL || sp == NULL)
      continue;             /* names are checked at load */
    mb = measured_metric (sb, &who_b);
    mp = measured_metric (sp, &who_p);
    if (strcmp (mb, mp) == 0)
      continue;
    said_b = measures_text (b, mb, who_b);
    said_p = measures_text (p, mp, who_p);
    ns_xml_error_blame (base, c, (NsXmlBlame) { .attrs = { "baseline", "patched" } }, error,
                        "element compare: baseline %s, patched %s: a comparison needs the "
                        "same metric on both sides (a delta between two metrics means "
                        "nothing)", said_b, said_p);
    return FALSE;
  }
  return TRUE;
}

/* TRUE if the scenario file at path loads as written; see run.h. */
gboolean
ns_run_check_file (const char *path, GError **error)
{
  NsScenario *sc;

  g_return_val_if_fail (path != NULL, FALSE);
  sc = ns_scenario_load (path, NULL, error);
  if (sc == NULL)
    return FALSE;
  ns_scenario_free (sc);
  return TRUE;
}

/* One scenario's run in the making: its loaded base, the result its variants fill, the
 * names its jobs point into, and where those jobs are in the shared list. */
typedef struct {
  NsScenario  *base;
  NsRunResult *result;
  GPtrArray   *names;
  guint        first, n;
} ScenarioRun;

/* Frees what sr holds. */
static void
scenario_run_clear (ScenarioRun *sr)
{
  g_clear_pointer (&sr->base, ns_scenario_free);
  g_clear_pointer (&sr->result, ns_run_result_free);
  g_clear_pointer (&sr->names, g_ptr_array_unref);
}

/* Loads the scenario at path as opt says and adds a job to jobs for each variant that
 * runs; FALSE (sr cleared, nothing added) on an input error: a file broken as written, no
 * such --variant, two compared variants measuring different metrics. */
static gboolean
scenario_run_prepare (ScenarioRun *sr, const char *path, const NsRunOptions *opt,
                      GPtrArray *jobs, GError **error)
{
  g_autofree char *list = NULL;
  guint64 seed;

  *sr = (ScenarioRun) { 0 };
  /* a set changes a valid file; it does not mend a broken one (without sets or
   * --variant, the load below is that check) */
  if ((opt->sets || opt->params || opt->only_variant) && !ns_run_check_file (path, error))
    return FALSE;
  /* with --variant, the sets apply on top of that variant's, as in its run (a set may
   * edit what only the variant has, e.g. its second <patch>) */
  sr->base = ns_scenario_load_variant (path, opt->only_variant, opt->sets, opt->params,
                                       opt->params_by, error);
  if (sr->base == NULL)
    return FALSE;
  seed = opt->seed_given ? opt->seed : sr->base->seed;
  sr->result = run_result_new (sr->base, seed, opt->sets);
  sr->names = ns_run_variant_names (sr->base);
  if (sr->names->len == 0)
    g_ptr_array_add (sr->names, g_strdup (""));
  if (opt->only_variant && !g_ptr_array_find_with_equal_func (sr->names, opt->only_variant,
                                                               g_str_equal, NULL))
    goto no_variant;
  if (opt->only_variant == NULL &&
      !check_compared_metrics (path, sr->base, sr->names, opt, error))
    goto fail;
  sr->first = jobs->len;
  add_variant_jobs (jobs, path, sr->base, sr->names, opt, seed);
  sr->n = jobs->len - sr->first;
  return TRUE;

/* ERRORS */
no_variant:
  list = ns_run_variant_list (sr->names);
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s: no variant named '%s' (variants: %s)",
               path, opt->only_variant, list);
fail:
  scenario_run_clear (sr);
  return FALSE;
}

/* Moves the results of sr's jobs (all run), in order, to its result and makes its
 * comparisons; returns that result (sr cleared). */
static NsRunResult *
scenario_run_finish (ScenarioRun *sr, GPtrArray *jobs)
{
  NsRunResult *result = g_steal_pointer (&sr->result);

  for (guint i = sr->first; i < sr->first + sr->n; i++)
    g_ptr_array_add (result->variants,
                     g_steal_pointer (&((VariantJob *) jobs->pdata[i])->result));
  compare_variants (sr->base, result);
  scenario_run_clear (sr);
  return result;
}

/* Runs the scenario at path: every variant (or the one asked for), then the comparisons. */
NsRunResult *
ns_run_scenario (const char *path, const NsRunOptions *opt, GError **error)
{
  g_autoptr (GPtrArray) jobs = g_ptr_array_new_with_free_func (variant_job_free);
  ScenarioRun sr;

  g_return_val_if_fail (path != NULL && opt != NULL, NULL);
  if (!scenario_run_prepare (&sr, path, opt, jobs, error))
    return NULL;
  if (!run_jobs (jobs, opt->jobs, error)) {
    scenario_run_clear (&sr);
    return NULL;
  }
  return scenario_run_finish (&sr, jobs);
}

/* Runs the scenario at path twice, as twin_opt says and as opt says, all the variants of
 * both together (opt->jobs at once); see run.h. */
NsRunResult *
ns_run_scenario_pair (const char *path, const NsRunOptions *opt,
                      const NsRunOptions *twin_opt, NsRunResult **twins, GError **error)
{
  g_autoptr (GPtrArray) jobs = g_ptr_array_new_with_free_func (variant_job_free);
  ScenarioRun first, second;

  g_return_val_if_fail (path != NULL && opt != NULL && twin_opt != NULL, NULL);
  g_return_val_if_fail (twins != NULL, NULL);
  if (!scenario_run_prepare (&first, path, twin_opt, jobs, error))
    return NULL;
  if (!scenario_run_prepare (&second, path, opt, jobs, error))
    goto fail_first;
  if (!run_jobs (jobs, opt->jobs, error))
    goto fail_both;
  *twins = scenario_run_finish (&first, jobs);
  return scenario_run_finish (&second, jobs);

/* ERRORS */
fail_both:
  scenario_run_clear (&second);
fail_first:
  scenario_run_clear (&first);
  return NULL;
}

/* Frees an NsFittedParam. */
static void
fitted_param_free (gpointer p)
{
  NsFittedParam *f = p;

  g_free (f->name);
  g_free (f->value);
  g_free (f->source);
  g_free (f);
}

/* The fitted free parameters of a scenario file; see run.h. */
GPtrArray *
ns_run_scenario_fits (const char *path, char **own_profile, GError **error)
{
  NsScenario *file = ns_scenario_load (path, NULL, error);
  NsCpuProfile *own;
  GPtrArray *fits;

  if (file == NULL)
    return NULL;
  own = ns_cpu_profile_load (file->cpu, error);
  if (own == NULL) {
    ns_scenario_free (file);
    return NULL;
  }
  fits = g_ptr_array_new_with_free_func (fitted_param_free);
  for (guint i = 0; i < file->param_names->len; i++) {
    const NsParamDef *def = ns_param_lookup (file->param_names->pdata[i]);
    NsFittedParam *f;
    if (def == NULL || !def->free || !g_str_has_prefix (file->param_sources->pdata[i], "fit on"))
      continue;
    f = g_new0 (NsFittedParam, 1);
    f->name = g_strdup (def->name);
    f->value = g_strdup (file->param_values->pdata[i]);
    f->source = g_strdup (file->param_sources->pdata[i]);
    g_ptr_array_add (fits, f);
  }
  *own_profile = g_strdup (own->name);
  ns_cpu_profile_free (own);
  ns_scenario_free (file);
  return fits;
}

/* source as a note quotes it (newly allocated): whole up to 64 characters, else its first
 * 64 and an ellipsis, a trailing " (declared in FILE)" (a value taken with from=) kept
 * whole after them, so no path is cut. */
static char *
quoted_source (const char *source)
{
  const char *declared = g_strrstr (source, " (declared in ");
  g_autofree char *text = declared ? g_strndup (source, declared - source) : g_strdup (source);
  g_autofree char *head = NULL;

  if (g_utf8_strlen (text, -1) <= 64)
    return g_strdup (source);
  /* g_utf8_substring must not be asked past the string's end */
  head = g_utf8_substring (text, 0, 64);
  return g_strconcat (head, "…", declared ? declared : "", NULL);
}

/* The note for a fitted value carried to another profile; see run.h. */
char *
ns_run_fit_note (const NsFittedParam *fit, const char *own, const char *other)
{
  g_autofree char *shown = quoted_source (fit->source);

  return g_strdup_printf ("the scenario's %s = %s was fitted for profile %s (%s); runs on %s "
                          "keep it: a fitted value holds for its CPU and workload, so set "
                          "param.%s for another CPU", fit->name, fit->value, own, shown, other,
                          fit->name);
}

/* Adds note to notes (a set of strings kept in order) unless it is there; takes it. */
static void
add_note (GPtrArray *notes, char *note)
{
  if (g_ptr_array_find_with_equal_func (notes, note, g_str_equal, NULL))
    g_free (note);
  else
    g_ptr_array_add (notes, note);
}

/* Notes on fitted free parameters; see run.h. */
char **
ns_run_fit_notes (const NsRunResult *result, GError **error)
{
  g_autofree char *own = NULL;
  g_autoptr (GPtrArray) fits = NULL;
  GPtrArray *notes;

  g_return_val_if_fail (result != NULL, NULL);
  fits = ns_run_scenario_fits (result->scenario_path, &own, error);
  if (fits == NULL)
    return NULL;
  notes = g_ptr_array_new ();
  for (guint i = 0; i < fits->len; i++) {
    const NsFittedParam *f = fits->pdata[i];
    for (guint k = 0; k < result->variants->len; k++) {
      const NsVariantResult *vr = result->variants->pdata[k];
      const char *used = ns_params_get_source (vr->params, f->name);
      if (strcmp (vr->cpu_name, own) && used && g_str_has_prefix (used, f->source))
        add_note (notes, ns_run_fit_note (f, own, vr->cpu_name));
    }
  }
  g_ptr_array_add (notes, NULL);
  return (char **) g_ptr_array_free (notes, FALSE);
}
