/* test-registry.c — the table of workload classes (models/registry.c): every workload a
 * micro scenario names (the .xml files of scenarios/micro/, <workload type>) is found under that name;
 * names are unique and every class is complete (set-up, counters, metrics); an unknown
 * name is not found, and a scenario naming one is refused with an error at the
 * <workload> element's line, as is a CPU the machine does not have
 * (ns_workload_get_cpu). */
#include "config.h"
#include <check.h>
#include "micro-run.h"
#include "workload.h"

/* Every .xml file of scenarios/micro/ loads and its workload type names a registered class. */
START_TEST (test_micro_scenarios_found)
{
  g_autofree char *dir_path = micro_path ("");
  GDir *dir = g_dir_open (dir_path, 0, NULL);
  const char *name;
  guint seen = 0;

  ck_assert_ptr_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL) {
    g_autofree char *path = NULL;
    GError *error = NULL;
    NsScenario *sc;
    const NsWorkloadClass *cls;

    if (!g_str_has_suffix (name, ".xml"))
      continue;
    path = micro_path (name);
    sc = ns_scenario_load (path, NULL, &error);
    ck_assert_msg (sc != NULL, "%s: %s", name, error ? error->message : "?");
    cls = ns_workload_class_find (sc->workload_type);
    ck_assert_msg (cls != NULL, "%s: workload '%s' not registered", name, sc->workload_type);
    ck_assert_str_eq (cls->name, sc->workload_type);
    ns_scenario_free (sc);
    seen++;
  }
  g_dir_close (dir);
  ck_assert_uint_ge (seen, 7);
}
END_TEST

/* Names are unique, each class is what find returns for its name, and each has its
 * set-up, counters, metric and free, an op name and at least one metric it reports; the
 * metrics it divides by time are among those it reports; its attributes start with type. */
START_TEST (test_classes_complete)
{
  const NsWorkloadClass *const *classes = ns_workload_classes ();
  GHashTable *names = g_hash_table_new (g_str_hash, g_str_equal);
  guint n = 0;

  for (; classes[n]; n++) {
    const NsWorkloadClass *c = classes[n];
    ck_assert_msg (g_hash_table_add (names, (gpointer) c->name), "%s twice", c->name);
    ck_assert_ptr_eq (ns_workload_class_find (c->name), c);
    ck_assert (c->description && *c->description && c->op_name && *c->op_name);
    ck_assert (c->setup && c->mark && c->ops && c->metric && c->free);
    ck_assert_msg (c->metrics && c->metrics[0], "%s reports no metric", c->name);
    ck_assert_msg (c->attributes && c->attributes[0] && g_str_equal (c->attributes[0], "type"),
                   "%s: its attributes must start with type", c->name);
    for (guint k = 0; c->per_time_metrics && c->per_time_metrics[k]; k++)
      ck_assert_msg (g_strv_contains (c->metrics, c->per_time_metrics[k]),
                     "%s: per-time metric %s is not among its metrics", c->name,
                     c->per_time_metrics[k]);
  }
  ck_assert_uint_ge (n, 9);
  g_hash_table_unref (names);
}
END_TEST

/* An unknown name is not found; a scenario naming it is refused at its <workload> line. */
START_TEST (test_unknown_workload_refused)
{
  static const char *const sets[] = { "workload.type=no-such-workload", NULL };

  ck_assert_ptr_null (ns_workload_class_find ("no-such-workload"));
  ck_assert_ptr_null (ns_workload_class_find (""));
  ck_assert_ptr_null (ns_workload_class_find ("pointer"));
  micro_assert_refused ("pointer-chase.xml", sets, 7, "no-such-workload");
}
END_TEST

/* A CPU beyond the machine's (the generic profile has CPUs 0-7) is refused naming the
 * attribute and the range. */
START_TEST (test_cpu_out_of_range_refused)
{
  static const char *const sets[] = { "workload.cpu=8", NULL };

  micro_assert_refused ("pointer-chase.xml", sets, 7, "CPU 8 does not exist (the machine has "
                        "CPUs 0-7)");
}
END_TEST

/* Rates round once: 4 in 20 us is 200000 exactly (4 / (20e6 × 1e-12) gave
 * 200000.00000000003), and any count over a whole second is the count. */
START_TEST (test_rate_rounds_once)
{
  ck_assert (ns_workload_rate (4.0, NS_US (20)) == 200000.0);
  ck_assert (ns_workload_rate (3.0, NS_US (3)) == 1e6);
  ck_assert (ns_workload_rate (1875461.0, NS_SEC (1)) == 1875461.0);
  ck_assert (ns_workload_rate (7.0, NS_MS (7)) == 1000.0);
}
END_TEST

static Suite *
registry_suite (void)
{
  Suite *s = suite_create ("registry");
  TCase *tc = tcase_create ("core");

  tcase_add_test (tc, test_micro_scenarios_found);
  tcase_add_test (tc, test_classes_complete);
  tcase_add_test (tc, test_unknown_workload_refused);
  tcase_add_test (tc, test_cpu_out_of_range_refused);
  tcase_add_test (tc, test_rate_rounds_once);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (registry_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
