/* test-scenario.c — scenario loading, defaults, --set overrides, typed getters, parsers,
 * and the table of malformed and hostile scenario files. */
#include "config.h"
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "scenario.h"
#include "xml.h"

/* Path of a file under tests/data (TESTS_SRCDIR, else the source tree). */
static char *
data_path (const char *sub, const char *name)
{
  const char *tests = g_getenv ("TESTS_SRCDIR");

  if (tests != NULL)
    return g_build_filename (tests, "data", sub, name, NULL);
  return g_build_filename (NS_SRCDIR, "tests", "data", sub, name, NULL);
}

/* Loads tests/data/good/name with sets (NULL-terminated, may be NULL); must succeed. */
static NsScenario *
load_good (const char *name, const char *const *sets)
{
  g_autofree char *path = data_path ("good", name);
  GError *error = NULL;
  NsScenario *sc = ns_scenario_load (path, sets, &error);

  ck_assert_msg (sc != NULL, "%s: %s", name, error != NULL ? error->message : "?");
  return sc;
}

/* Loads tests/data/good/name with sets; must fail with NS_ERROR_INPUT. Returns the
 * message with the file's path replaced by its base name. */
static char *
load_fails (const char *name, const char *const *sets)
{
  g_autofree char *path = data_path ("good", name);
  GError *error = NULL;
  NsScenario *sc = ns_scenario_load (path, sets, &error);
  char *message;

  ck_assert_msg (sc == NULL, "%s loaded", name);
  ck_assert_int_eq (error->code, NS_ERROR_INPUT);
  if (g_str_has_prefix (error->message, path))
    message = g_strconcat (name, error->message + strlen (path), NULL);
  else
    message = g_strdup (error->message);
  g_error_free (error);
  return message;
}

/* The element children names of the root of sc, space-separated. */
static char *
root_children (const NsScenario *sc)
{
  GString *names = g_string_new (NULL);

  for (xmlNodePtr n = xmlDocGetRootElement (sc->doc)->children; n != NULL; n = n->next)
    if (n->type == XML_ELEMENT_NODE)
      g_string_append_printf (names, "%s%s", names->len ? " " : "", (const char *) n->name);
  return g_string_free (names, FALSE);
}

START_TEST (test_defaults)
{
  NsScenario *sc = load_good ("minimal.xml", NULL);

  ck_assert_str_eq (sc->name, "minimal");
  ck_assert_str_eq (sc->description, "");
  ck_assert_str_eq (sc->cpu, "generic");
  ck_assert_str_eq (sc->kernel_version, "6.9");
  ck_assert_str_eq (sc->cmdline, "");
  ck_assert_uint_eq (sc->patches->len, 0);
  ck_assert_uint_eq (g_hash_table_size (sc->config), 0);
  ck_assert_uint_eq (sc->param_names->len, 0);
  ck_assert_str_eq (sc->workload_type, "pointer-chase");
  ck_assert_str_eq ((const char *) sc->workload->name, "workload");
  ck_assert_uint_eq (sc->seed, 1);
  ck_assert_str_eq (sc->measure.metric, "cycles_per_load");
  ck_assert_int_eq (sc->measure.warmup, 0);
  ck_assert_int_eq (sc->measure.duration, NS_MS (1));
  ck_assert_uint_eq (sc->measure.repetitions, 1);
  ck_assert_int_eq (sc->measure.aggregate, NS_AGG_MEAN);
  ck_assert_double_eq (sc->measure.converge, 0.0);
  ck_assert_double_eq (sc->measure.confidence, 0.95);
  ck_assert_int_eq (sc->measure.batch, NS_US (100));
  ck_assert_int_eq (sc->measure.max_duration, NS_MS (100));
  ck_assert_uint_eq (sc->measure.min_batches, 5);
  ns_scenario_free (sc);
}
END_TEST

START_TEST (test_full)
{
  NsScenario *sc = load_good ("pointer-chase.xml", NULL);

  ck_assert_str_eq (sc->name, "pointer-chase");
  ck_assert_str_eq (sc->description, "Dependent loads over a 64 KiB working set.");
  ck_assert_uint_eq (sc->seed, 7);
  ck_assert_str_eq (sc->kernel_version, "6.9.0-rc1");
  ck_assert_str_eq (sc->cmdline, "mitigations=off quiet");
  ck_assert_str_eq (g_hash_table_lookup (sc->config, "CONFIG_RETPOLINE"), "y");
  ck_assert_str_eq (g_hash_table_lookup (sc->config, "CONFIG_NET_CLS_ACT"), "m");
  ck_assert_uint_eq (sc->patches->len, 1);
  ck_assert_str_eq (g_ptr_array_index (sc->patches, 0), "udp-rescore-single-site");
  ck_assert_uint_eq (sc->param_names->len, 2);
  ck_assert_str_eq (g_ptr_array_index (sc->param_names, 1), "core.base_ipc");
  ck_assert_str_eq (g_ptr_array_index (sc->param_values, 1), "2.5");
  ck_assert_str_eq (g_ptr_array_index (sc->param_sources, 1), "netsim calibrate on host");
  ck_assert_int_eq (sc->measure.warmup, NS_US (10));
  ck_assert_int_eq (sc->measure.duration, NS_US (100));
  ck_assert_uint_eq (sc->measure.repetitions, 3);
  ck_assert_int_eq (sc->measure.aggregate, NS_AGG_HARMONIC);
  ck_assert_double_eq (sc->measure.converge, 0.01);
  ck_assert_double_eq (sc->measure.confidence, 0.99);
  ck_assert_int_eq (sc->measure.batch, NS_US (10));
  ck_assert_int_eq (sc->measure.max_duration, NS_MS (10));
  ck_assert_uint_eq (sc->measure.min_batches, 8);
  ns_scenario_free (sc);
}
END_TEST

/* <param from=FILE> takes FILE's value and source (noting FILE), records FILE as the
 * value's home, and leaves a plain <param> in the document as run; a --set replaces it. */
START_TEST (test_param_from)
{
  g_autofree char *path = data_path ("good", "param-from.xml");
  g_autofree char *folder = g_path_get_dirname (path);
  g_autofree char *home = g_build_filename (folder, "pointer-chase.xml", NULL);
  g_autofree char *canonical = g_canonicalize_filename (home, NULL);
  NsScenario *sc = load_good ("param-from.xml", NULL);
  g_autofree char *dump = ns_scenario_dump (sc);
  NsScenario *set = load_good ("param-from.xml",
                               (const char *const[]) { "param.core.base_ipc=3", NULL });

  ck_assert_str_eq (ns_scenario_param_value (sc, "core.base_ipc"), "2.5");
  ck_assert_str_eq (g_ptr_array_index (sc->param_sources, 1),
                    "netsim calibrate on host (declared in pointer-chase.xml)");
  ck_assert_str_eq (ns_scenario_param_home (sc, "core.base_ipc"), canonical);
  ck_assert_str_eq (ns_scenario_param_home (sc, "cache.l2.latency_cycles"), path);
  ck_assert_ptr_null (ns_scenario_param_home (sc, "no.such"));
  ck_assert_ptr_null (strstr (dump, "from="));
  ck_assert_ptr_nonnull (strstr (dump, "<param name=\"core.base_ipc\" value=\"2.5\""));
  ck_assert_str_eq (ns_scenario_param_value (set, "core.base_ipc"), "3");
  ck_assert_str_eq (g_ptr_array_index (set->param_sources, 1), "command line: --set");
  ck_assert_str_eq (ns_scenario_param_home (set, "core.base_ipc"), path);
  ns_scenario_free (sc);
  ns_scenario_free (set);
}
END_TEST

/* The second <param> of sc's document. */
static xmlNodePtr
second_param (const NsScenario *sc)
{
  xmlNodePtr first = ns_xml_child (xmlDocGetRootElement (sc->doc), "param");

  for (xmlNodePtr n = first->next; n != NULL; n = n->next)
    if (ns_xml_is_element (n, "param"))
      return n;
  ck_abort_msg ("one <param>");
  return NULL;
}

/* A value <param from=FILE> takes is at the from= attribute's line (an error about it
 * points there, not at FILE), and a set that gave from= is the value's set. */
START_TEST (test_param_from_blame)
{
  g_autofree char *home = data_path ("good", "pointer-chase.xml");
  g_autofree char *from = g_strconcat ("param[2].from=", home, NULL);   /* from the cwd */
  g_autofree char *by = g_strconcat ("--set ", from, NULL);
  NsScenario *sc = load_good ("param-from.xml", NULL);
  NsScenario *set = load_good ("param-from.xml", (const char *const[]) { from, NULL });
  xmlAttrPtr value = ns_xml_attr (second_param (sc), "value");
  xmlAttrPtr set_value = ns_xml_attr (second_param (set), "value");

  ck_assert_int_eq (ns_xml_line (second_param (sc)), 7);
  ck_assert_int_eq (ns_xml_line ((xmlNodePtr) value), 8);
  ck_assert_ptr_null (g_hash_table_lookup (sc->set_by, value));
  ck_assert_int_eq (ns_xml_line ((xmlNodePtr) set_value), 7);   /* a set's from= has no line */
  ck_assert_str_eq (g_hash_table_lookup (set->set_by, set_value), by);
  ns_scenario_free (sc);
  ns_scenario_free (set);
}
END_TEST

START_TEST (test_profile_path_resolved)
{
  g_autofree char *path = data_path ("good", "profile-path.xml");
  g_autofree char *folder = g_path_get_dirname (path);
  g_autofree char *expected = g_build_filename (folder, "../cpus/test-cpu.xml", NULL);
  NsScenario *sc = load_good ("profile-path.xml", NULL);

  ck_assert_str_eq (sc->cpu, expected);
  ck_assert_str_eq (sc->workload_type, "udp-sink");
  ck_assert_int_eq (sc->measure.duration, NS_MS (2));
  ns_scenario_free (sc);
}
END_TEST

START_TEST (test_variants)
{
  NsScenario *sc = load_good ("variants.xml", NULL);
  g_autofree char *working_set = NULL;

  /* the variants' sets are checked on a copy: the scenario itself is unchanged */
  ck_assert (ns_xml_get_string (sc, sc->workload, "working-set", NULL, &working_set, NULL));
  ck_assert_str_eq (working_set, "16KiB");
  ck_assert_uint_eq (sc->param_names->len, 0);
  ck_assert_uint_eq (g_hash_table_size (sc->config), 0);
  ns_scenario_free (sc);
}
END_TEST

/* Loading a variant applies its <set>s, then the --set strings; an unknown one fails. */
START_TEST (test_load_variant)
{
  g_autofree char *path = data_path ("good", "variants.xml");
  const char *const sets[] = { "param.cache.l2.latency_cycles=16", NULL };
  g_autofree char *working_set = NULL;
  GError *error = NULL;
  NsScenario *sc = ns_scenario_load_variant (path, "l2", sets, NULL, NULL, &error);

  ck_assert_msg (sc != NULL, "%s", error ? error->message : "?");
  ck_assert (ns_xml_get_string (sc, sc->workload, "working-set", NULL, &working_set, NULL));
  ck_assert_str_eq (working_set, "256KiB");
  ck_assert_str_eq (g_hash_table_lookup (sc->config, "CONFIG_X"), "y");
  ck_assert_uint_eq (sc->param_names->len, 1);
  ck_assert_str_eq (g_ptr_array_index (sc->param_values, 0), "16");   /* --set comes last */
  ck_assert_str_eq (g_ptr_array_index (sc->param_sources, 0), "command line: --set");
  /* the --set overrode the variant's own set of the same value: recorded, for a note */
  ck_assert_ptr_nonnull (sc->replaced);
  ck_assert_uint_eq (g_strv_length (sc->replaced), 1);
  ck_assert_str_eq (sc->replaced[0], "--set param.cache.l2.latency_cycles=16 replaces "
                    "variant 'l2' set param.cache.l2.latency_cycles=14");
  ns_scenario_free (sc);

  sc = ns_scenario_load_variant (path, "l2", NULL, NULL, NULL, &error);
  ck_assert_msg (sc != NULL, "%s", error ? error->message : "?");
  ck_assert_str_eq (g_ptr_array_index (sc->param_values, 0), "14");
  ck_assert_str_eq (g_ptr_array_index (sc->param_sources, 0), "variant 'l2' set");
  ck_assert_uint_eq (g_strv_length (sc->replaced), 0);
  ns_scenario_free (sc);

  {                                   /* the variant's own PATH=VALUE again: no note */
    const char *const same[] = { "param.cache.l2.latency_cycles=14", NULL };
    sc = ns_scenario_load_variant (path, "l2", same, NULL, NULL, &error);
    ck_assert_msg (sc != NULL, "%s", error ? error->message : "?");
    ck_assert_uint_eq (g_strv_length (sc->replaced), 0);
  }
  ns_scenario_free (sc);

  sc = ns_scenario_load_variant (path, "l1", NULL, NULL, NULL, &error);
  ck_assert_msg (sc != NULL, "%s", error ? error->message : "?");
  ck_assert_uint_eq (g_hash_table_size (sc->config), 0);
  ns_scenario_free (sc);

  sc = ns_scenario_load_variant (path, "l3", NULL, NULL, NULL, &error);
  ck_assert_ptr_null (sc);
  ck_assert_msg (strstr (error->message, "no variant named 'l3'") != NULL, "%s", error->message);
  g_clear_error (&error);

  /* params come after sets (a --what-if's may override a --set; a sweep's --param may not,
   * test_set_once_per_option) and are named by their option in errors */
  sc = ns_scenario_load_variant (path, "l2", sets,
                                 (const char *const[]) { "param.cache.l2.latency_cycles=18", NULL },
                                 "--what-if", &error);
  ck_assert_msg (sc != NULL, "%s", error ? error->message : "?");
  ck_assert_str_eq (g_ptr_array_index (sc->param_values, 0), "18");
  ck_assert_str_eq (g_ptr_array_index (sc->param_sources, 0), "command line: --what-if");
  ns_scenario_free (sc);
  sc = ns_scenario_load_variant (path, "l2", sets,
                                 (const char *const[]) { "measure.repetitions=x", NULL }, NULL,
                                 &error);
  ck_assert_ptr_null (sc);
  ck_assert_msg (strstr (error->message, "(after --param measure.repetitions=x)") != NULL, "%s",
                 error->message);
  g_clear_error (&error);
  sc = ns_scenario_load_variant (path, "l2", NULL,
                                 (const char *const[]) { "measure.repetitions", NULL }, NULL,
                                 &error);
  ck_assert_ptr_null (sc);
  ck_assert_msg (g_str_has_prefix (error->message, "--param measure.repetitions: "), "%s",
                 error->message);
  g_clear_error (&error);
  /* ...or by the option params_by names (netsim run's --what-if) */
  sc = ns_scenario_load_variant (path, "l2", NULL,
                                 (const char *const[]) { "measure.repetitions=x", NULL },
                                 "--what-if", &error);
  ck_assert_ptr_null (sc);
  ck_assert_msg (strstr (error->message, "(after --what-if measure.repetitions=x)") != NULL,
                 "%s", error->message);
  g_error_free (error);
}
END_TEST

/* A command-line set that edits <variants> is applied before the variant's <set>s, so it
 * takes effect (doc/scenario-format.md: such sets edit the document the variants come
 * from); other command-line sets still override a variant's (the test above); an error a
 * variant's <set> gives after a command-line set edited it names that set. */
START_TEST (test_set_edits_variants)
{
  g_autofree char *path = data_path ("good", "variants.xml");
  g_autofree char *working_set = NULL;
  GError *error = NULL;
  NsScenario *sc = ns_scenario_load_variant (path, "l2", (const char *const[]) {
                     "variants.variant[2].set[1].value=1MiB", NULL }, NULL, NULL, &error);

  ck_assert_msg (sc != NULL, "%s", error ? error->message : "?");
  ck_assert (ns_xml_get_string (sc, sc->workload, "working-set", NULL, &working_set, NULL));
  ck_assert_str_eq (working_set, "1MiB");
  ns_scenario_free (sc);

  /* a variant the command line adds can be loaded by its name (also by a --param) */
  sc = ns_scenario_load_variant (path, "l3", NULL, (const char *const[]) {
                                   "variants.variant[3].name=l3", NULL }, NULL, &error);
  ck_assert_msg (sc != NULL, "%s", error ? error->message : "?");
  ns_scenario_free (sc);

  /* the variant's seed refusal and a bad path, at the <set>'s line, after the --set */
  sc = ns_scenario_load_variant (path, "l2", (const char *const[]) {
                                   "variants.variant[2].set[1].path=seed", NULL }, NULL, NULL,
                                 &error);
  ck_assert_ptr_null (sc);
  ck_assert_msg (strstr (error->message, "variants.xml:11: element set: a variant cannot set "
                         "the seed") != NULL &&
                 g_str_has_suffix (error->message, " (after --set "
                                   "variants.variant[2].set[1].path=seed)"), "%s",
                 error->message);
  g_clear_error (&error);
  sc = ns_scenario_load (path, (const char *const[]) {
                           "variants.variant[2].set[1].path=seed", NULL }, &error);
  ck_assert_ptr_null (sc);
  ck_assert_msg (g_str_has_suffix (error->message, " (after --set "
                                   "variants.variant[2].set[1].path=seed)"), "%s",
                 error->message);
  g_clear_error (&error);
  sc = ns_scenario_load_variant (path, "l2", (const char *const[]) {
                                   "variants.variant[2].set[1].path=kernel.config[5].name",
                                   NULL }, NULL, NULL, &error);
  ck_assert_ptr_null (sc);
  ck_assert_msg (strstr (error->message, "variants.xml:11: element set: "
                         "kernel.config[5].name=256KiB: cannot create config[5]") != NULL &&
                 g_str_has_suffix (error->message, " (after --set "
                                   "variants.variant[2].set[1].path=kernel.config[5].name)"),
                 "%s", error->message);
  g_clear_error (&error);

  /* a variant's <set> of <comparisons> is checked on the whole document, which has them */
  sc = ns_scenario_load (path, (const char *const[]) {
                           "variants.variant[2].set[1].path=comparisons.compare[3].label",
                           NULL }, &error);
  ck_assert_ptr_null (sc);
  ck_assert_msg (strstr (error->message, "variants.xml:11: element set: "
                         "comparisons.compare[3].label=256KiB: cannot create compare[3]: "
                         "element comparisons has only 1 <compare> element") != NULL,
                 "%s", error->message);
  g_error_free (error);
}
END_TEST

/* Loads every *.xml directly in folder; returns how many. */
static guint
load_scenarios_in (const char *folder)
{
  GDir *dir = g_dir_open (folder, 0, NULL);
  const char *name;
  guint n = 0;

  ck_assert_msg (dir != NULL, "cannot open %s", folder);
  while ((name = g_dir_read_name (dir)) != NULL) {
    g_autofree char *path = g_build_filename (folder, name, NULL);
    GError *error = NULL;
    NsScenario *sc;

    if (!g_str_has_suffix (name, ".xml"))
      continue;
    sc = ns_scenario_load (path, NULL, &error);
    ck_assert_msg (sc != NULL, "%s", error != NULL ? error->message : path);
    ns_scenario_free (sc);
    n++;
  }
  g_dir_close (dir);
  return n;
}

/* Every scenario shipped under scenarios/, at the top and in its folders (but not the CPU
 * profiles in cpus/ nor the kernel config packages in configs/), loads: the 8 seed
 * replays and what-ifs at the top, 7 micro ones. */
START_TEST (test_shipped_scenarios)
{
  const char *datadir = g_getenv ("NETSIM_DATADIR");
  g_autofree char *top = g_build_filename (datadir ? datadir : NS_SRCDIR, "scenarios", NULL);
  GDir *dir = g_dir_open (top, 0, NULL);
  const char *sub;
  guint at_top = load_scenarios_in (top), below = 0;

  ck_assert_ptr_nonnull (dir);
  while ((sub = g_dir_read_name (dir)) != NULL) {
    g_autofree char *folder = g_build_filename (top, sub, NULL);

    if (!g_str_equal (sub, "cpus") && !g_str_equal (sub, "configs") &&
        g_file_test (folder, G_FILE_TEST_IS_DIR))
      below += load_scenarios_in (folder);
  }
  g_dir_close (dir);
  ck_assert_uint_ge (at_top, 8);
  ck_assert_uint_ge (below, 7);
}
END_TEST

/* The shipped scenarios that run on another scenario's fitted cpu.ipc take it from there
 * (<param from=...>), so a refit of that scenario carries over. */
START_TEST (test_shipped_fits_declared_once)
{
  static const char *const uses[][2] = {
    { "micro/udp-flood.xml", "udp-lookup-iperf3.xml" },
    { "tc-pktgen-whatif-7950x.xml", "tc-pktgen-matchall-7950x.xml" },
    { "tc-pktgen-whatif-6230r.xml", "tc-pktgen-matchall-6230r.xml" },
  };
  const char *datadir = g_getenv ("NETSIM_DATADIR");
  g_autofree char *top = g_build_filename (datadir ? datadir : NS_SRCDIR, "scenarios", NULL);

  for (gsize i = 0; i < G_N_ELEMENTS (uses); i++) {
    g_autofree char *user_path = g_build_filename (top, uses[i][0], NULL);
    g_autofree char *home_path = g_build_filename (top, uses[i][1], NULL);
    g_autofree char *canonical = g_canonicalize_filename (home_path, NULL);
    GError *error = NULL;
    NsScenario *user = ns_scenario_load (user_path, NULL, &error);
    NsScenario *home = ns_scenario_load (home_path, NULL, &error);

    ck_assert_msg (user != NULL && home != NULL, "%s", error ? error->message : "?");
    ck_assert_str_eq (ns_scenario_param_home (user, "cpu.ipc"), canonical);
    ck_assert_str_eq (ns_scenario_param_value (user, "cpu.ipc"),
                      ns_scenario_param_value (home, "cpu.ipc"));
    ns_scenario_free (user);
    ns_scenario_free (home);
  }
}
END_TEST

START_TEST (test_dump)
{
  const char *const sets[] = { "seed=42", NULL };
  NsScenario *sc = load_good ("minimal.xml", sets);
  g_autofree char *dump = ns_scenario_dump (sc);

  ck_assert (g_str_has_prefix (dump, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"));
  ck_assert_ptr_nonnull (strstr (dump, "<scenario name=\"minimal\" seed=\"42\">"));
  ck_assert_ptr_nonnull (strstr (dump, "<measure metric=\"cycles_per_load\"/>"));
  ns_scenario_free (sc);
}
END_TEST

START_TEST (test_set_attributes)
{
  const char *const sets[] = {
    "seed=5", "measure.duration=2ms", "kernel.cmdline=mitigations=off", "cpu.profile=zen3",
    "workload.working-set=1MiB", "measure.aggregate=harmonic", NULL
  };
  NsScenario *sc = load_good ("minimal.xml", sets);
  g_autofree char *working_set = NULL;

  ck_assert_uint_eq (sc->seed, 5);
  ck_assert_int_eq (sc->measure.duration, NS_MS (2));
  ck_assert_int_eq (sc->measure.batch, NS_US (200));          /* default follows duration */
  ck_assert_int_eq (sc->measure.max_duration, NS_MS (200));
  ck_assert_str_eq (sc->cmdline, "mitigations=off");           /* split at the first '=' */
  ck_assert_str_eq (sc->cpu, "zen3");
  ck_assert_int_eq (sc->measure.aggregate, NS_AGG_HARMONIC);
  ck_assert (ns_xml_get_string (sc, sc->workload, "working-set", NULL, &working_set, NULL));
  ck_assert_str_eq (working_set, "1MiB");
  ns_scenario_free (sc);
}
END_TEST

START_TEST (test_set_value_with_equals)
{
  const char *const sets[] = { "kernel.cmdline=a=b c=d=", NULL };
  NsScenario *sc = load_good ("pointer-chase.xml", sets);

  ck_assert_str_eq (sc->cmdline, "a=b c=d=");
  ns_scenario_free (sc);
}
END_TEST

START_TEST (test_set_param)
{
  const char *const sets[] = {
    "param.cache.l2.latency_cycles=20",    /* replaces */
    "param.a.b.c.d=x=y",                   /* adds, dots in the name, '=' in the value */
    NULL
  };
  NsScenario *sc = load_good ("pointer-chase.xml", sets);
  const char *const more[] = { "param.x.y.z=1", NULL };
  NsScenario *minimal = load_good ("minimal.xml", more);
  g_autofree char *order = root_children (minimal);

  ck_assert_uint_eq (sc->param_names->len, 3);
  ck_assert_str_eq (g_ptr_array_index (sc->param_names, 0), "cache.l2.latency_cycles");
  ck_assert_str_eq (g_ptr_array_index (sc->param_values, 0), "20");
  ck_assert_str_eq (g_ptr_array_index (sc->param_sources, 0), "command line: --set");
  ck_assert_str_eq (g_ptr_array_index (sc->param_names, 2), "a.b.c.d");
  ck_assert_str_eq (g_ptr_array_index (sc->param_values, 2), "x=y");
  ck_assert_str_eq (g_ptr_array_index (minimal->param_names, 0), "x.y.z");
  ck_assert_str_eq (order, "cpu kernel param workload measure");   /* schema place */
  ns_scenario_free (sc);
  ns_scenario_free (minimal);
}
END_TEST

START_TEST (test_set_creates_elements)
{
  const char *const sets[] = {
    "kernel.patch[1].name=p1", "kernel.patch[2].name=p2",
    "kernel.config[1].name=CONFIG_X", "kernel.config[1].value=y",
    "description.lang=en", NULL
  };
  const char *const indexed[] = {
    "kernel.config[2].value=n", "kernel.config[3].name=CONFIG_NEW",
    "kernel.config[3].value=m", NULL
  };
  g_autofree char *bad = NULL;
  NsScenario *sc;

  /* description takes no attributes: created, then judged by the schema */
  bad = load_fails ("minimal.xml", sets);
  ck_assert_str_eq (bad, "minimal.xml:3: element description: unknown attribute 'lang' (it "
                    "takes none) (after --set description.lang=en)");

  sc = load_good ("minimal.xml", (const char *const[]) { sets[0], sets[1], sets[2], sets[3],
                                                          NULL });
  ck_assert_uint_eq (sc->patches->len, 2);
  ck_assert_str_eq (g_ptr_array_index (sc->patches, 1), "p2");
  ck_assert_str_eq (g_hash_table_lookup (sc->config, "CONFIG_X"), "y");
  ns_scenario_free (sc);

  sc = load_good ("pointer-chase.xml", indexed);
  ck_assert_str_eq (g_hash_table_lookup (sc->config, "CONFIG_NET_CLS_ACT"), "n");
  ck_assert_str_eq (g_hash_table_lookup (sc->config, "CONFIG_NEW"), "m");
  ck_assert_str_eq (g_hash_table_lookup (sc->config, "CONFIG_RETPOLINE"), "y");
  ns_scenario_free (sc);
}
END_TEST

START_TEST (test_set_config_by_name)
{
  const char *const sets[] = {
    "kernel.config.CONFIG_NET_CLS_ACT=y",          /* replaces the listed option */
    "kernel.config.CONFIG_SLAB_FREELIST_RANDOM=y", /* adds one */
    NULL
  };
  NsScenario *sc = load_good ("pointer-chase.xml", sets);
  NsScenario *minimal;
  g_autofree char *dump = NULL, *bad = NULL, *twice = NULL;

  ck_assert_uint_eq (g_hash_table_size (sc->config), 3);
  ck_assert_str_eq (g_hash_table_lookup (sc->config, "CONFIG_NET_CLS_ACT"), "y");
  ck_assert_str_eq (g_hash_table_lookup (sc->config, "CONFIG_SLAB_FREELIST_RANDOM"), "y");
  ck_assert_str_eq (g_hash_table_lookup (sc->config, "CONFIG_RETPOLINE"), "y");
  dump = ns_scenario_dump (sc);                  /* added among the options, before patches */
  ck_assert_ptr_nonnull (strstr (dump, "<config name=\"CONFIG_NET_CLS_ACT\" value=\"y\"/>"));
  ns_scenario_free (sc);

  /* a kernel without options gets one; the same option set twice is refused (the last
   * would win unseen) */
  minimal = load_good ("minimal.xml", (const char *const[]) { "kernel.config.CONFIG_X=m",
                                                              NULL });
  ck_assert_uint_eq (g_hash_table_size (minimal->config), 1);
  ck_assert_str_eq (g_hash_table_lookup (minimal->config, "CONFIG_X"), "m");
  ns_scenario_free (minimal);
  twice = load_fails ("minimal.xml", (const char *const[]) {
                        "kernel.config.CONFIG_X=m", "kernel.config.CONFIG_X=n", NULL });
  ck_assert_msg (strstr (twice, "sets the same attribute as --set kernel.config.CONFIG_X=m")
                 != NULL, "%s", twice);

  /* the schema judges the name, with the file's line */
  bad = load_fails ("minimal.xml", (const char *const[]) { "kernel.config.SLAB=y", NULL });
  ck_assert_msg (strstr (bad, "minimal.xml:5: element config: attribute 'name'") != NULL &&
                 strstr (bad, "(after --set kernel.config.SLAB=y)") != NULL, "%s", bad);
}
END_TEST

START_TEST (test_set_errors_in_document)
{
  static const struct { const char *set, *expected; } cases[] = {
    { "measure.repetitions=x", "minimal.xml:7: element measure: attribute 'repetitions': "
      "expected a positive integer (at most 10000), got 'x' (after --set "
      "measure.repetitions=x)" },
    { "kernel.config[1].name=CONFIG_Z", "minimal.xml:5: element config: missing required "
      "attribute 'value' (expected an option value such as y, m or n) (after --set "
      "kernel.config[1].name=CONFIG_Z)" },
    { "workload.bar.x=1", "minimal.xml:6: element workload: unexpected element 'bar' (it "
      "takes no elements) (after --set workload.bar.x=1)" },
    { "report.format=json", "minimal.xml:3: element scenario: unexpected element 'report' "
      "(allowed: description, cpu, kernel, param, workload, measure, variants, comparisons) "
      "(after --set report.format=json)" },
    { "measure.duration=0", "minimal.xml:7: element measure: attribute 'duration': expected "
      "a time > 0, got '0' (after --set measure.duration=0)" },
    { "measure.duration=0.000s", "minimal.xml:7: element measure: attribute 'duration': "
      "expected a time > 0, got '0.000s' (after --set measure.duration=0.000s)" },
    { "measure.batch=0ns", "minimal.xml:7: element measure: attribute 'batch': expected a "
      "time > 0, got '0ns' (after --set measure.batch=0ns)" },
    { "measure.confidence=0.99999999999999999", "minimal.xml:7: element measure: attribute "
      "'confidence': expected a decimal number between 0 and 1 (exclusive), got "
      "'0.99999999999999999', which is 1 as a double (after --set "
      "measure.confidence=0.99999999999999999)" },
    { "measure.aggregate= harmonic", "minimal.xml:7: element measure: attribute 'aggregate': "
      "value ' harmonic' begins or ends with white space (write it without) (after --set "
      "measure.aggregate= harmonic)" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++) {
    g_autofree char *message = load_fails ("minimal.xml",
                                           (const char *const[]) { cases[i].set, NULL });

    ck_assert_str_eq (message, cases[i].expected);
  }
}
END_TEST

/* A set's error in a file whose start tags span lines (tests/data/good/multiline.xml,
 * <measure> on lines 10-12): at the line where the element's tag begins, whether the set
 * replaced an attribute on a later line or created one (libxml2 alone gives the line the
 * tag ends on). */
START_TEST (test_set_errors_multiline)
{
  static const struct { const char *set, *expected; } cases[] = {
    { "measure.duration=x", "multiline.xml:10: element measure: attribute 'duration': "
      "expected a time such as 1ms (units ps, ns, us, ms, s), got 'x' (after --set "
      "measure.duration=x)" },
    { "measure.aggregate=median", "multiline.xml:10: element measure: attribute "
      "'aggregate': expected one of: mean, harmonic, got 'median' (after --set "
      "measure.aggregate=median)" },
    { "variants.variant[1].name=b", "multiline.xml:16: element variant: variant 'b' is "
      "given twice (first on line 14)" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++) {
    g_autofree char *message = load_fails ("multiline.xml",
                                           (const char *const[]) { cases[i].set, NULL });

    ck_assert_msg (g_str_has_prefix (message, cases[i].expected), "[%s], expected [%s]",
                   message, cases[i].expected);
  }
}
END_TEST

/* An error names the sets behind the attributes it is about and no other, whatever values
 * the other sets gave: not --set measure.warmup=0 when duration is '0' too, nor
 * --set measure.duration=1ms when the batch is 1ms too (the old code matched every set's
 * value against the message's words, and named both). */
/* A set that turns a converging scenario's rule off (converge=0 over the file's 0.01)
 * leaves the file's convergence settings unused, not refused (a set cannot remove them);
 * a convergence-only value a set gives then is refused, naming both sets. */
START_TEST (test_converge_switched_off)
{
  static const char *const off[] = { "measure.converge=0", NULL };
  static const char *const off_batch[] = { "measure.converge=0", "measure.batch=5us", NULL };
  NsScenario *sc = load_good ("pointer-chase.xml", off);
  g_autofree char *message = NULL;

  ck_assert_double_eq (sc->measure.converge, 0.0);
  ns_scenario_free (sc);
  message = load_fails ("pointer-chase.xml", off_batch);
  ck_assert_msg (strstr (message, "element measure: attribute 'batch': only the convergence "
                         "rule reads it") != NULL &&
                 g_str_has_suffix (message, "(after --set measure.batch=5us, --set "
                                   "measure.converge=0)"), "%s", message);
}
END_TEST

START_TEST (test_set_errors_name_only_theirs)
{
  static const struct { const char *sets[5], *expected; } cases[] = {
    { { "measure.warmup=0", "measure.duration=0", NULL },
      "minimal.xml:7: element measure: attribute 'duration': expected a time > 0, got '0' "
      "(after --set measure.duration=0)" },
    { { "measure.batch=1ms", NULL },
      "minimal.xml:7: element measure: attribute 'batch': only the convergence rule reads "
      "it, and 'converge' is 0 (the fixed rule measures one 'duration'): set converge > 0, "
      "or remove it (after --set measure.batch=1ms)" },
    { { "measure.min-batches=9", "measure.confidence=0.9", "measure.converge=0", NULL },
      "minimal.xml:7: element measure: attributes 'confidence', 'min-batches': only the "
      "convergence rule reads them, and 'converge' is 0 (the fixed rule measures one "
      "'duration'): set converge > 0, or remove them (after --set measure.min-batches=9, "
      "--set measure.confidence=0.9, --set measure.converge=0)" },
    { { "measure.converge=0.01", "measure.batch=1ms", "measure.duration=1ms",
        "measure.max-duration=1us", NULL },
      "minimal.xml:7: element measure: attribute 'max-duration' (1us) is shorter than one "
      "batch, attribute 'batch' (1ms) (after --set measure.batch=1ms, --set "
      "measure.max-duration=1us)" },
  };

  NsScenario *sc;

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++) {
    g_autofree char *message = load_fails ("minimal.xml", cases[i].sets);

    ck_assert_str_eq (message, cases[i].expected);
  }
  /* a max-duration of exactly one batch holds that batch */
  sc = load_good ("minimal.xml", (const char *const[]) {
                    "measure.converge=0.01", "measure.batch=1ms", "measure.max-duration=1ms",
                    NULL });
  ck_assert_int_eq (sc->measure.max_duration, sc->measure.batch);
  ns_scenario_free (sc);
}
END_TEST

/* A run whose simulated end passes 2^63-1 ps is refused at load, naming the attributes
 * whose sum it is and the sets behind them: warmup + duration under the fixed rule,
 * warmup + max-duration under the convergence rule; a sum that just fits loads, and the
 * default max-duration shrinks to fit. */
START_TEST (test_measure_end_fits)
{
  static const struct { const char *sets[5], *expected; } refused[] = {
    { { "measure.warmup=10us", "measure.duration=9223372036844775808ps", NULL },
      "minimal.xml:7: element measure: attribute 'warmup' (10us) + attribute 'duration' "
      "(9223372036844775808ps) end past the longest simulated time, 2^63-1 ps (about 106 "
      "days) (after --set measure.warmup=10us, --set measure.duration=9223372036844775808ps)" },
    { { "measure.converge=0.01", "measure.warmup=10us", "measure.batch=1ms",
        "measure.max-duration=9223372036844775808ps", NULL },
      "minimal.xml:7: element measure: attribute 'warmup' (10us) + attribute 'max-duration' "
      "(9223372036844775808ps) end past the longest simulated time, 2^63-1 ps (about 106 "
      "days) (after --set measure.warmup=10us, --set "
      "measure.max-duration=9223372036844775808ps)" },
  };
  NsScenario *sc;

  for (gsize i = 0; i < G_N_ELEMENTS (refused); i++) {
    g_autofree char *message = load_fails ("minimal.xml", refused[i].sets);

    ck_assert_str_eq (message, refused[i].expected);
  }
  sc = load_good ("minimal.xml", (const char *const[]) {
                    "measure.warmup=10us", "measure.duration=9223372036844775807ps", NULL });
  ck_assert_int_eq (sc->measure.duration, NS_TIME_FOREVER - NS_US (10));
  ns_scenario_free (sc);
  sc = load_good ("minimal.xml", (const char *const[]) {
                    "measure.converge=0.01", "measure.warmup=10us", "measure.batch=1ms",
                    "measure.max-duration=9223372036844775807ps", NULL });
  ck_assert_int_eq (sc->measure.max_duration, NS_TIME_FOREVER - NS_US (10));
  ns_scenario_free (sc);
  /* 100 x duration would pass the end: the default cap is what fits */
  sc = load_good ("minimal.xml", (const char *const[]) {
                    "measure.converge=0.01", "measure.warmup=10us",
                    "measure.duration=1000000s", NULL });
  ck_assert_int_eq (sc->measure.max_duration, NS_TIME_FOREVER - NS_US (10));
  ns_scenario_free (sc);
}
END_TEST

/* One option sets an attribute once, however spelt: spellings the path alone tells
 * apart are keyed alike (ns_scenario_set_key), those only the document does (param[1]
 * and param.NAME) are refused as the sets apply; two options may (--what-if over --set),
 * but a sweep's --param may not override a --set. */
START_TEST (test_set_once_per_option)
{
  static const char *const twice[][3] = {             /* NULL-terminated set lists */
    { "param.cpu.ipc=2", "param[1].value=3", NULL },
    { "kernel.config.CONFIG_X=y", "kernel.config[1].value=n", NULL },
    { "measure[1].duration=30us", "measure[01].duration=40us", NULL },
  };
  g_autofree char *key = ns_scenario_set_key ("measure[01].warmup=2us");
  g_autofree char *key10 = ns_scenario_set_key ("kernel.config[010].value");
  g_autofree char *path = data_path ("good", "minimal.xml");
  GError *error = NULL;
  NsScenario *sc;

  ck_assert_str_eq (key, "measure.warmup");
  ck_assert_str_eq (key10, "kernel.config[10].value");
  for (gsize i = 0; i < G_N_ELEMENTS (twice); i++) {
    g_autofree char *message = load_fails ("minimal.xml", twice[i]);
    g_autofree char *want = g_strdup_printf ("--set %s: sets the same attribute as --set %s "
                                             "(the last would win): give one",
                                             twice[i][1], twice[i][0]);
    ck_assert_str_eq (message, want);
  }
  sc = ns_scenario_load_variant (path, NULL, (const char *const[]) { "param.cpu.ipc=2", NULL },
                                 (const char *const[]) { "param[1].value=3", NULL },
                                 "--what-if", &error);
  ck_assert_msg (sc != NULL, "%s", error ? error->message : "?");
  ck_assert_str_eq (ns_scenario_param_value (sc, "cpu.ipc"), "3");
  ns_scenario_free (sc);
  sc = ns_scenario_load_variant (path, NULL, (const char *const[]) { "param.cpu.ipc=2", NULL },
                                 (const char *const[]) { "param[1].value=3", NULL },
                                 "--param", &error);
  ck_assert (sc == NULL);
  ck_assert_str_eq (error->message, "--param param[1].value=3: sets the same attribute as "
                    "--set param.cpu.ipc=2, and every point would override it: drop one");
  g_clear_error (&error);
}
END_TEST

/* An empty value is a slip, except the kernel command line's: none (clears a variant's). */
START_TEST (test_set_empty_cmdline)
{
  g_autofree char *path = data_path ("good", "minimal.xml");
  g_autofree char *message = load_fails ("minimal.xml",
                                         (const char *const[]) { "kernel.version=", NULL });
  GError *error = NULL;
  NsScenario *sc;

  ck_assert_str_eq (message, "--set kernel.version=: empty value after '='");
  sc = ns_scenario_load_variant (path, NULL,
                                 (const char *const[]) { "kernel[1].cmdline=", NULL }, NULL,
                                 NULL, &error);
  ck_assert_msg (sc != NULL, "%s", error ? error->message : "?");
  ck_assert_str_eq (sc->cmdline, "");
  ns_scenario_free (sc);
}
END_TEST

START_TEST (test_set_bad_syntax)
{
  static const struct { const char *set, *expected; } cases[] = {
    { "seed", "--set seed: expected PATH=VALUE (e.g. measure.duration=2ms)" },
    { "=5", "--set =5: empty PATH before '='" },
    { "seed=", "--set seed=: empty value after '='" },
    { "measure..duration=1ms", "--set measure..duration=1ms: empty element name in the path" },
    { ".seed=1", "--set .seed=1: empty element name in the path" },
    { "measure.=1ms", "--set measure.=1ms: empty attribute name at the end of the path" },
    { "kernel.config[0].name=X", "--set kernel.config[0].name=X: bad index in 'config[0]'" },
    { "kernel.config[x].name=X", "--set kernel.config[x].name=X: bad index in 'config[x]'" },
    { "kernel.config[1.name=X", "--set kernel.config[1.name=X: bad index in 'config[1'" },
    { "kernel.config[1]x.name=X", "--set kernel.config[1]x.name=X: bad index in "
      "'config[1]x' (expected name[N] with N from 1 to 100000)" },
    { "kernel.config[100001].name=X", "--set kernel.config[100001].name=X: bad index in "
      "'config[100001]'" },
    { "kernel.config[100000].name=X", "--set kernel.config[100000].name=X: cannot create "
      "config[100000]: element kernel has only 0 <config> elements" },
    { "kernel.config[3].name=X", "--set kernel.config[3].name=X: cannot create config[3]: "
      "element kernel has only 0 <config> elements" },
    { "measure.duration[2]=1ms", "--set measure.duration[2]=1ms: 'duration[2]' is not a "
      "valid attribute name" },
    { "ns:attr=1", "--set ns:attr=1: 'ns:attr' is not a valid attribute name" },
    { "mea sure.x=1", "--set mea sure.x=1: 'mea sure' is not a valid element or attribute "
      "name" },
    { "1st.x=1", "--set 1st.x=1: '1st' is not a valid element or attribute name" },
    /* a name may begin with '_' (none of netsim's elements does) */
    { "_x.y=1", "minimal.xml:3: element scenario: unexpected element '_x' (allowed: " },
    { "param.=1", "--set param.=1: expected param.NAME=VALUE" },
    { "param.a..b=1", "--set param.a..b=1: expected param.NAME=VALUE" },
    { "kernel.config.=y", "--set kernel.config.=y: expected kernel.config.NAME=VALUE" },
    { "kernel.config.CONFIG_A.B=y", "--set kernel.config.CONFIG_A.B=y: expected "
      "kernel.config.NAME=VALUE" },
    { "kernel.config.CONFIG_A[2]=y", "--set kernel.config.CONFIG_A[2]=y: expected "
      "kernel.config.NAME=VALUE" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++) {
    g_autofree char *message = load_fails ("minimal.xml",
                                           (const char *const[]) { cases[i].set, NULL });

    ck_assert_msg (g_str_has_prefix (message, cases[i].expected), "'%s'", message);
  }
}
END_TEST

/* The malformed and hostile files: each must fail with file:line and a key phrase. */
static const struct {
  const char *file;
  int         line;
  const char *phrase;
} bad_files[] = {
  /* not well-formed */
  { "unclosed-tag.xml", 7, "Opening and ending tag mismatch: kernel line 4" },
  { "bad-quoting.xml", 3, "AttValue: \" or ' expected" },
  { "garbage-after-root.xml", 8, "Extra content at the end of the document" },
  { "empty.xml", 1, "file is empty" },
  { "binary-junk.xml", 1, "Start tag expected" },
  { "wrong-encoding.xml", 2, "file is not valid UTF-8" },
  { "unsupported-encoding.xml", 1, "Unsupported encoding NETSIM-7" },
  { "deep-nesting.xml", 6, "elements nested too deeply" },
  { "undeclared-entity.xml", 3, "Entity 'secret' not defined" },
  /* hostile */
  { "billion-laughs.xml", 3, "DOCTYPE declares general entity 'lol'" },
  { "quadratic-blowup.xml", 2, "DOCTYPE declares general entity 'a'" },
  { "external-entity.xml", 3, "declares external general entity 'passwd'" },
  { "external-dtd.xml", 2, "DOCTYPE refers to an external DTD" },
  { "doctype-http.xml", 3, "external DTD ('http://attacker.example/scenario.dtd')" },
  { "parameter-entity.xml", 3, "declares external parameter entity 'remote'" },
  { "xinclude.xml", 4, "XInclude element 'include' is not allowed" },
  { "dtd-attribute-default.xml", 4, "DOCTYPE declares an attribute list ('confidence' of "
    "element 'measure')" },
  { "dtd-element-decl.xml", 2, "DOCTYPE declares element 'scenario'" },
  { "dtd-notation-decl.xml", 3, "DOCTYPE declares notation 'gif'" },
  /* structure */
  { "wrong-root.xml", 2, "expected root element 'scenario', got 'profile'" },
  { "missing-measure.xml", 2, "element scenario: missing required element 'measure'" },
  { "missing-metric.xml", 6, "element measure: missing required attribute 'metric'" },
  { "missing-cpu.xml", 4, "element scenario: missing element 'cpu' before 'kernel'" },
  { "missing-param-source.xml", 6, "element param: missing required attribute 'source'" },
  { "param-from-and-value.xml", 5, "element param: attribute 'from' cannot be given with "
    "'value'" },
  { "missing-workload-type.xml", 5, "element workload: missing required attribute 'type'" },
  { "unknown-element.xml", 7, "element scenario: unexpected element 'report' (allowed: "
    "description, cpu, kernel, param, workload, measure, variants, comparisons)" },
  { "unknown-attribute.xml", 6, "element measure: unknown attribute 'duraton' (allowed: "
    "metric, warmup, duration," },
  { "unknown-attribute-cpu.xml", 3, "element cpu: unknown attribute 'frequency' (allowed: "
    "profile)" },
  { "duplicate-element.xml", 4, "element scenario: element 'cpu' may appear only once" },
  { "wrong-order.xml", 3, "missing element 'cpu' before 'kernel'" },
  { "config-after-patch.xml", 6, "element kernel: element 'config' is out of order" },
  { "text-in-measure.xml", 6, "element measure: unexpected text '100us'" },
  { "workload-child.xml", 7, "element workload: unexpected element 'working-set' (it takes no "
    "elements)" },
  { "workload-text.xml", 5, "element workload: unexpected text '4MiB' (it takes none)" },
  { "workload-namespaced-attr.xml", 8, "element workload: attribute 'x:working-set' is in a "
    "namespace; netsim's files use none (write 'working-set')" },
  /* values */
  { "bad-number.xml", 7, "element measure: attribute 'repetitions': expected a positive "
    "integer (at most 10000), got 'x'" },
  { "too-many-repetitions.xml", 6, "element measure: attribute 'repetitions': expected a "
    "positive integer (at most 10000), got '4294967295'" },
  { "negative-repetitions.xml", 6, "attribute 'repetitions': expected a positive integer "
    "(at most 10000), got '-3'" },
  { "bad-time-unit.xml", 6, "attribute 'duration': expected a time such as 1ms (units ps, "
    "ns, us, ms, s), got '10 sec'" },
  { "bad-aggregate.xml", 6, "attribute 'aggregate': expected one of: mean, harmonic, got "
    "'median'" },
  { "confidence-out-of-range.xml", 6, "attribute 'confidence': expected a decimal number "
    "between 0 and 1 (exclusive), got '1.5'" },
  { "bad-kernel-version.xml", 4, "element kernel: attribute 'version': expected a kernel "
    "version such as 6.9 or 6.9.0-rc1, got 'v6.9-latest!'" },
  { "padded-aggregate.xml", 7, "element measure: attribute 'aggregate': value 'harmonic ' "
    "begins or ends with white space (write it without)" },
  { "bad-seed.xml", 2, "element scenario: attribute 'seed': expected an unsigned integer" },
  { "blank-param-source.xml", 5, "attribute 'source': expected a non-empty note" },
  { "time-overflow.xml", 6, "attribute 'duration': expected a time such as 10us" },
  { "fractional-picoseconds.xml", 6, "attribute 'warmup': expected a time such as 10us "
    "(units ps, ns, us, ms, s; a whole number of ps" },
  { "zero-duration.xml", 6, "attribute 'duration': expected a time > 0, got '0'" },
  { "max-duration-below-batch.xml", 6, "attribute 'max-duration' (100us) is shorter than one "
    "batch, attribute 'batch' (1ms)" },
  { "converge-off-batch.xml", 6, "element measure: attribute 'batch': only the convergence "
    "rule reads it, and 'converge' is 0" },
  { "duplicate-param.xml", 6, "parameter 'cache.l2.latency_cycles' is given twice (first on "
    "line 5)" },
  { "duplicate-config.xml", 6, "option 'CONFIG_RETPOLINE' is given twice (first on line 5)" },
  /* <param from=FILE> */
  { "param-from-missing-file.xml", 5, "no-such-scenario.xml: cannot read: No such file" },
  { "param-from-device.xml", 5, "attribute 'from': /dev/zero is not a regular file" },
  { "param-from-invalid.xml", 5, "wrong-root.xml:2: expected root element 'scenario'" },
  { "param-from-undeclared.xml", 5, "attribute 'from': ../good/pointer-chase.xml declares no "
    "parameter 'cpu.ipc' (from= must name the scenario that declares the value itself)" },
  { "param-from-chain.xml", 5, "attribute 'from': ../good/param-from.xml takes from another "
    "file its parameter 'core.base_ipc'" },
  /* variants and comparisons */
  { "variant-duplicate.xml", 9, "element variant: variant 'a' is given twice (first on line "
    "8)" },
  { "variant-bad-set.xml", 9, "element set: kernel.config[4].name=CONFIG_X: cannot create "
    "config[4]" },
  { "variant-seed.xml", 9, "element set: a variant cannot set the seed: every variant of a "
    "run uses the run's" },
  { "variant-set-twice.xml", 11, "element set: attribute 'path': 'measure[1].duration' sets "
    "the same attribute as the set on line 10 (the last would win): give one" },
  /* a control character in a name a report prints as a row splits or overwrites it */
  { "variant-name-newline.xml", 9, "element variant: attribute 'name': expected a variant "
    "name without control characters (line breaks, tabs), got 'v\\n1'" },
  { "variant-name-cr.xml", 9, "element variant: attribute 'name': expected a variant name "
    "without control characters (line breaks, tabs), got 'r\\red'" },
  { "compare-label-tab.xml", 12, "element compare: attribute 'label': expected a label for "
    "the comparison without control characters (line breaks, tabs), got 'b\\tvs a'" },
  { "scenario-name-newline.xml", 2, "element scenario: attribute 'name': expected a "
    "non-empty name without control characters (line breaks, tabs), got 'scenario\\nname'" },
  { "compare-unknown-variant.xml", 12, "element compare: attribute 'patched': no variant "
    "named 'pacthed'" },
  { "compare-self.xml", 12, "element compare: attribute 'patched': the same variant as "
    "'baseline' ('base'); a comparison needs two" },
  { "compare-duplicate-label.xml", 13, "element compare: label 'x' is given twice (first on "
    "line 12)" },
  /* start tags over several lines (libxml2 gives an element the line its tag ends on): an
   * error about an attribute is at the attribute's line (first line of the tag: the schema's
   * error; last line: the reader's), one about the element where its tag begins */
  { "multiline-tag-first.xml", 10, "element measure: attribute 'repetitions': expected a "
    "positive integer (at most 10000), got 'x'" },
  { "multiline-tag-last.xml", 8, "element measure: attribute 'duration': expected a time > 0, "
    "got '0'" },
  { "multiline-tag-element.xml", 10, "element variant: variant 'a' is given twice (first on "
    "line 8)" },
};

START_TEST (test_bad_file)
{
  g_autofree char *path = data_path ("bad", bad_files[_i].file);
  g_autofree char *prefix = g_strdup_printf ("%s:%d: ", path, bad_files[_i].line);
  GError *error = NULL;
  NsScenario *sc = ns_scenario_load (path, NULL, &error);

  ck_assert_msg (sc == NULL, "%s loaded", bad_files[_i].file);
  ck_assert_ptr_nonnull (error);
  ck_assert_msg (error->domain == NS_ERROR && error->code == NS_ERROR_INPUT, "%s: code %d",
                 bad_files[_i].file, error->code);
  ck_assert_msg (g_str_has_prefix (error->message, prefix), "%s: '%s'", bad_files[_i].file,
                 error->message);
  ck_assert_msg (strstr (error->message, bad_files[_i].phrase) != NULL, "%s: '%s'",
                 bad_files[_i].file, error->message);
  ck_assert_ptr_null (strstr (error->message, "root:x:0:0"));   /* nothing leaked */
  g_error_free (error);
}
END_TEST

/* Every file in tests/data/bad is in the table, and the table has at least 24 files. */
START_TEST (test_bad_table_complete)
{
  g_autofree char *dir_path = data_path ("bad", "");
  GDir *dir = g_dir_open (dir_path, 0, NULL);
  const char *name;
  guint n_files = 0;

  ck_assert_ptr_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL) {
    gboolean listed = FALSE;

    if (!g_str_has_suffix (name, ".xml"))
      continue;
    n_files++;
    for (gsize i = 0; i < G_N_ELEMENTS (bad_files); i++)
      listed |= g_str_equal (bad_files[i].file, name);
    ck_assert_msg (listed, "%s is not in the table", name);
  }
  g_dir_close (dir);
  ck_assert_uint_eq (n_files, G_N_ELEMENTS (bad_files));
  ck_assert_uint_ge (n_files, 24);
}
END_TEST

START_TEST (test_missing_file)
{
  GError *error = NULL;
  NsScenario *sc = ns_scenario_load ("/nonexistent/scenario.xml", NULL, &error);

  ck_assert_ptr_null (sc);
  ck_assert_int_eq (error->code, NS_ERROR_IO);
  ck_assert_str_eq (error->message, "/nonexistent/scenario.xml: cannot read: No such file or "
                    "directory");
  g_error_free (error);
}
END_TEST

/* A text and the number a parser of guint64 must read from it. */
typedef struct {
  const char *text;
  guint64     value;
} U64Case;

/* Asserts that parse reads each of the n_good good texts as its value and refuses each of
 * the n_bad bad ones (leaving *out as it was, if untouched). */
static void
assert_u64_parser (gboolean (*parse) (const char *, guint64 *), const U64Case *good,
                   gsize n_good, const char *const *bad, gsize n_bad, gboolean untouched)
{
  for (gsize i = 0; i < n_good; i++) {
    guint64 value = 7;

    ck_assert_msg (parse (good[i].text, &value), "%s", good[i].text);
    ck_assert_uint_eq (value, good[i].value);
  }
  for (gsize i = 0; i < n_bad; i++) {
    guint64 value = 7;

    ck_assert_msg (!parse (bad[i], &value), "%s accepted", bad[i]);
    ck_assert (!untouched || value == 7);
  }
  ck_assert (!parse (NULL, &(guint64) { 0 }));
}

/* Plain unsigned integers: digits only, to 2^64 - 1 (the workload attributes' counts). */
START_TEST (test_parse_uint)
{
  static const U64Case good[] = {
    { "0", 0 }, { "007", 7 }, { "4096", 4096 }, { "18446744073709551615", G_MAXUINT64 },
  };
  static const char *const bad[] = {
    "", "12x", "-1", "+1", " 1", "1 ", "1.0", "0x10", "1e3", "18446744073709551616",
  };

  assert_u64_parser (ns_parse_uint, good, G_N_ELEMENTS (good), bad, G_N_ELEMENTS (bad),
                     FALSE);
}
END_TEST

START_TEST (test_parse_size)
{
  static const U64Case good[] = {
    { "0", 0 }, { "4096", 4096 }, { "16B", 16 }, { "64KiB", 65536 },
    { "1MiB", 1048576 }, { "2GiB", G_GUINT64_CONSTANT (2147483648) },
    { "1TiB", G_GUINT64_CONSTANT (1) << 40 }, { "8K", 8000 }, { "8KB", 8000 },
    { "3M", 3000000 }, { "1G", 1000000000 }, { "18446744073709551615", G_MAXUINT64 },
  };
  static const char *const bad[] = {
    "", "-1", "+1", "1.5KiB", "KiB", "1 KiB", " 1", "1 ", "1kib", "1Ki", "0x10",
    "18446744073709551616", "17179869184GiB", "1e3",
  };

  assert_u64_parser (ns_parse_size, good, G_N_ELEMENTS (good), bad, G_N_ELEMENTS (bad),
                     TRUE);
}
END_TEST

START_TEST (test_parse_time)
{
  static const struct { const char *text; NsTime value; } good[] = {
    { "0", 0 }, { "0ns", 0 }, { "1ps", 1 }, { "10us", NS_US (10) }, { "1.5ns", 1500 },
    { "2s", NS_SEC (2) }, { "0.000001s", NS_US (1) }, { "1.000000000001s", NS_SEC (1) + 1 },
    { "0.25ms", NS_US (250) }, { "9223372s", NS_SEC (9223372) },
    { "9223372036854775807ps", G_MAXINT64 },
    { "0.100000000000000000s", NS_MS (100) },      /* 18 decimals, the most taken */
  };
  static const char *const bad[] = {
    "", "10", "1.5", "-1us", "+1us", "1.5ps", "0.0001ns", "1e3us", "1 us", " 1us", "1us ",
    "1.us", ".5us", "1h", "1min", "9223373s", "9223372036854775808ps",
    "99999999999999999999s", "1.0000000000000000001s",
  };

  for (gsize i = 0; i < G_N_ELEMENTS (good); i++) {
    NsTime value = 7;

    ck_assert_msg (ns_parse_time (good[i].text, &value), "%s", good[i].text);
    ck_assert_int_eq (value, good[i].value);
  }
  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++) {
    NsTime value = 7;

    ck_assert_msg (!ns_parse_time (bad[i], &value), "%s accepted", bad[i]);
    ck_assert_int_eq (value, 7);
  }
}
END_TEST

START_TEST (test_parse_rate)
{
  static const struct { const char *text; double value; } good[] = {
    { "0", 0 }, { "1000", 1000 }, { "1G", 1e9 }, { "10G", 1e10 }, { "100M", 1e8 },
    { "2.5G", 2.5e9 }, { "64k", 64e3 }, { "40Gbps", 4e10 }, { "1Tbit/s", 1e12 },
    { ".5M", 5e5 },
  };
  static const char *const bad[] = {
    "", "-1G", "G", "1X", "inf", "nan", "1e9", "1 G", "0x10", "1GB", "+1G", ".", ".M",
  };
  g_autofree char *huge = g_strnfill (400, '9');   /* past a double's range: infinite */
  double rate = 7;

  for (gsize i = 0; i < G_N_ELEMENTS (good); i++) {
    double value = 7;

    ck_assert_msg (ns_parse_rate (good[i].text, &value), "%s", good[i].text);
    ck_assert_double_eq (value, good[i].value);
  }
  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++) {
    double value = 7;

    ck_assert_msg (!ns_parse_rate (bad[i], &value), "%s accepted", bad[i]);
    ck_assert_double_eq (value, 7);
  }
  ck_assert_msg (!ns_parse_rate (huge, &rate), "a 400-digit rate accepted");
  ck_assert_double_eq (rate, 7);
}
END_TEST

/* Sets attribute attr of the workload of sc to value. */
static void
set_workload_attr (NsScenario *sc, const char *attr, const char *value)
{
  xmlSetProp (sc->workload, BAD_CAST attr, BAD_CAST value);
}

/* Asserts that error is "pointer-chase.xml:13: " + expected, then clears it. */
static void
assert_workload_error (GError **error, const char *expected)
{
  g_autofree char *path = data_path ("good", "pointer-chase.xml");
  g_autofree char *full = g_strdup_printf ("%s:13: %s", path, expected);

  ck_assert_ptr_nonnull (*error);
  ck_assert_int_eq ((*error)->code, NS_ERROR_INPUT);
  ck_assert_str_eq ((*error)->message, full);
  g_clear_error (error);
}

START_TEST (test_getters)
{
  NsScenario *sc = load_good ("pointer-chase.xml", NULL);
  GError *error = NULL;
  guint64 u = 0;
  double d = 0;
  gboolean b = FALSE;
  NsTime t = 0;
  char *s = NULL;

  ck_assert (ns_xml_get_size (sc, sc->workload, "working-set", FALSE, 0, &u, &error));
  ck_assert_uint_eq (u, 65536);
  ck_assert (ns_xml_get_uint (sc, sc->workload, "stride", FALSE, 0, &u, &error));
  ck_assert_uint_eq (u, 64);
  ck_assert (ns_xml_get_uint (sc, sc->workload, "absent", TRUE, 9, &u, &error));
  ck_assert_uint_eq (u, 9);
  ck_assert (ns_xml_get_time (sc, sc->workload, "absent", TRUE, NS_NS (3), &t, &error));
  ck_assert_int_eq (t, NS_NS (3));
  ck_assert (ns_xml_get_string (sc, sc->workload, "absent", "dflt", &s, &error));
  ck_assert_str_eq (s, "dflt");
  g_free (s);
  ck_assert (ns_xml_get_bool (sc, sc->workload, "absent", TRUE, &b, &error));
  ck_assert (b);

  ck_assert (!ns_xml_get_uint (sc, sc->workload, "absent", FALSE, 0, &u, &error));
  assert_workload_error (&error, "element workload: missing required attribute 'absent'");
  ck_assert (!ns_xml_get_string (sc, sc->workload, "absent", NULL, &s, &error));
  assert_workload_error (&error, "element workload: missing required attribute 'absent'");

  set_workload_attr (sc, "working-set", "64 KB");
  ck_assert (!ns_xml_get_size (sc, sc->workload, "working-set", FALSE, 0, &u, &error));
  assert_workload_error (&error, "element workload: attribute 'working-set': expected a size "
                         "such as 4096, 64KiB, 1MiB or 8K (units B; K/KB, M/MB, G/GB, T/TB: "
                         "powers of 1000; KiB, MiB, GiB, TiB: powers of 1024), got '64 KB'");
  set_workload_attr (sc, "cpu", "-1");
  ck_assert (!ns_xml_get_uint (sc, sc->workload, "cpu", FALSE, 0, &u, &error));
  assert_workload_error (&error, "element workload: attribute 'cpu': expected a non-negative "
                         "integer (at most 18446744073709551615), got '-1'");
  set_workload_attr (sc, "cpu", "18446744073709551616");
  ck_assert (!ns_xml_get_uint (sc, sc->workload, "cpu", FALSE, 0, &u, &error));
  g_clear_error (&error);
  set_workload_attr (sc, "gap", "1min");
  ck_assert (!ns_xml_get_time (sc, sc->workload, "gap", FALSE, 0, &t, &error));
  assert_workload_error (&error, "element workload: attribute 'gap': expected a time such as "
                         "10us (units ps, ns, us, ms, s; a whole number of ps, at most 106 "
                         "days), got '1min'");
  set_workload_attr (sc, "ratio", "-2.5e1");
  ck_assert (ns_xml_get_double (sc, sc->workload, "ratio", FALSE, 0, &d, &error));
  ck_assert_double_eq (d, -25.0);
  set_workload_attr (sc, "ratio", "nan");
  ck_assert (!ns_xml_get_double (sc, sc->workload, "ratio", FALSE, 0, &d, &error));
  assert_workload_error (&error, "element workload: attribute 'ratio': expected a number, "
                         "got 'nan'");
  set_workload_attr (sc, "flag", "off");
  ck_assert (ns_xml_get_bool (sc, sc->workload, "flag", TRUE, &b, &error));
  ck_assert (!b);
  set_workload_attr (sc, "flag", "maybe");
  ck_assert (!ns_xml_get_bool (sc, sc->workload, "flag", TRUE, &b, &error));
  assert_workload_error (&error, "element workload: attribute 'flag': expected true or false "
                         "(or yes/no, on/off, 1/0), got 'maybe'");
  ns_scenario_free (sc);
}
END_TEST

START_TEST (test_check_attrs)
{
  NsScenario *sc = load_good ("pointer-chase.xml", NULL);
  const char *const all[] = { "type", "cpu", "working-set", "stride", NULL };
  const char *const some[] = { "type", "cpu", "working-set", NULL };
  GError *error = NULL;

  ck_assert (ns_xml_check_attrs (sc, sc->workload, all, &error));
  ck_assert (!ns_xml_check_attrs (sc, sc->workload, some, &error));
  assert_workload_error (&error, "element workload: unknown attribute 'stride' (allowed: "
                         "type, cpu, working-set)");
  ns_xml_error (sc, xmlPreviousElementSibling (sc->workload), &error, "element %s: bad %d",
                "param", 3);
  ck_assert_msg (g_str_has_suffix (error->message, "pointer-chase.xml:12: element param: bad 3"),
                 "%s", error->message);
  g_clear_error (&error);
  ns_scenario_free (sc);
}
END_TEST

static Suite *
scenario_suite (void)
{
  Suite *s = suite_create ("scenario");
  TCase *load = tcase_create ("load");
  TCase *set = tcase_create ("set");
  TCase *bad = tcase_create ("bad");
  TCase *values = tcase_create ("values");

  tcase_add_test (load, test_defaults);
  tcase_add_test (load, test_full);
  tcase_add_test (load, test_profile_path_resolved);
  tcase_add_test (load, test_param_from);
  tcase_add_test (load, test_param_from_blame);
  tcase_add_test (load, test_dump);
  tcase_add_test (load, test_variants);
  tcase_add_test (load, test_load_variant);
  tcase_add_test (load, test_set_edits_variants);
  tcase_add_test (load, test_shipped_scenarios);
  tcase_add_test (load, test_shipped_fits_declared_once);
  tcase_add_test (load, test_missing_file);
  tcase_add_test (set, test_set_attributes);
  tcase_add_test (set, test_set_value_with_equals);
  tcase_add_test (set, test_set_param);
  tcase_add_test (set, test_set_creates_elements);
  tcase_add_test (set, test_set_config_by_name);
  tcase_add_test (set, test_set_errors_in_document);
  tcase_add_test (set, test_set_errors_multiline);
  tcase_add_test (set, test_converge_switched_off);
  tcase_add_test (set, test_set_errors_name_only_theirs);
  tcase_add_test (set, test_measure_end_fits);
  tcase_add_test (set, test_set_bad_syntax);
  tcase_add_test (set, test_set_once_per_option);
  tcase_add_test (set, test_set_empty_cmdline);
  tcase_add_loop_test (bad, test_bad_file, 0, G_N_ELEMENTS (bad_files));
  tcase_add_test (bad, test_bad_table_complete);
  tcase_add_test (values, test_parse_uint);
  tcase_add_test (values, test_parse_size);
  tcase_add_test (values, test_parse_time);
  tcase_add_test (values, test_parse_rate);
  tcase_add_test (values, test_getters);
  tcase_add_test (values, test_check_attrs);
  suite_add_tcase (s, load);
  suite_add_tcase (s, set);
  suite_add_tcase (s, bad);
  suite_add_tcase (s, values);
  return s;
}

int
main (void)
{
  SRunner *runner = srunner_create (scenario_suite ());
  int failed;

  srunner_run_all (runner, CK_NORMAL);
  failed = srunner_ntests_failed (runner);
  srunner_free (runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
