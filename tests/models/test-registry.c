/* test-registry.c — the table of workload classes (models/registry.c): every workload a
 * micro scenario names (the .xml files of scenarios/micro/, <workload type>) is found
 * under that name; names are unique and every class is complete (set-up, counters,
 * metrics); an unknown name is not found, and a scenario naming one is refused with an
 * error at the <workload> element's line, as is a CPU the machine does not have. And every
 * class's attribute table (NsWorkloadAttr) through the readers that check them: sound
 * tables, each bound taken and one past it refused, each choice taken and another word
 * refused, bad numbers, CPUs and booleans, undeclared attributes. */
#include "config.h"
#include <check.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>
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
 * set-up, counters, metric and free (which takes NULL), an op name and at least one
 * metric it reports; the metrics it divides by time are among those it reports; it has an
 * attribute table. */
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
    c->free (NULL);                             /* NULL is fine */
    ck_assert_msg (c->metrics && c->metrics[0], "%s reports no metric", c->name);
    ck_assert_msg (c->attributes != NULL, "%s: no attribute table", c->name);
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
 * attribute, the range and the sets behind both. */
START_TEST (test_cpu_out_of_range_refused)
{
  static const char *const sets[] = { "workload.cpu=8", NULL };

  static const char *const smt_off[] = { "workload.cpu=5", "param.cpu.smt=1", NULL };

  micro_assert_refused ("pointer-chase.xml", sets, 7, "CPU 8 does not exist (the machine has "
                        "CPUs 0-7)");
  /* the sets that decide the machine's CPUs are named with the attribute's */
  micro_assert_refused ("pointer-chase.xml", smt_off, 7, "CPU 5 does not exist (the machine "
                        "has CPUs 0-3) (after --set workload.cpu=5, --set param.cpu.smt=1)");
}
END_TEST

/* ---- attribute tables ---- */

/* TRUE for the kinds with bounds. */
static gboolean
is_numeric (const NsWorkloadAttr *a)
{
  return a->kind == NS_WORKLOAD_ATTR_UINT || a->kind == NS_WORKLOAD_ATTR_SIZE ||
         a->kind == NS_WORKLOAD_ATTR_TIME;
}

/* Checks numeric attribute a of class c: its bounds and default parse, min <= def <= max. */
static void
assert_numeric_sound (const NsWorkloadClass *c, const NsWorkloadAttr *a)
{
  guint64 lo = 0, hi = G_MAXUINT64, def;

  ck_assert_msg (a->min == NULL || ns_workload_attr_parse (a, a->min, &lo), "%s %s: min '%s'",
                 c->name, a->name, a->min);
  ck_assert_msg (a->max == NULL || ns_workload_attr_parse (a, a->max, &hi), "%s %s: max '%s'",
                 c->name, a->name, a->max);
  ck_assert_msg (lo <= hi, "%s %s: min above max", c->name, a->name);
  if (a->def == NULL)
    return;
  ck_assert_msg (ns_workload_attr_parse (a, a->def, &def) && def >= lo && def <= hi,
                 "%s %s: default '%s' outside %s..%s", c->name, a->name, a->def, a->min,
                 a->max);
}

/* Checks choice attribute a of class c: choices, and a default among them or naming a
 * choice attribute with the same choices. */
static void
assert_choice_sound (const NsWorkloadClass *c, const NsWorkloadAttr *a)
{
  const NsWorkloadAttr *other;

  ck_assert_msg (a->choices != NULL && a->choices[0] != NULL, "%s %s: no choices", c->name,
                 a->name);
  ck_assert_msg (a->def != NULL, "%s %s: a choice without a default", c->name, a->name);
  if (a->def[0] != '@') {
    ck_assert_msg (g_strv_contains (a->choices, a->def), "%s %s: default '%s' not a choice",
                   c->name, a->name, a->def);
    return;
  }
  other = ns_workload_attr_find (c->attributes, a->def + 1);
  ck_assert_msg (other != NULL && other != a && other->kind == a->kind &&
                 other->choices == a->choices, "%s %s: default '%s'", c->name, a->name, a->def);
}

/* Every class's table: names unique, none "type", each with a meaning; numeric bounds and
 * defaults parse and are ordered, choice defaults are choices, CPU and BOOL defaults are
 * values of their kind; why only where a refusal can quote it. */
START_TEST (test_attribute_tables_sound)
{
  for (const NsWorkloadClass *const *k = ns_workload_classes (); *k; k++) {
    g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
    guint64 cpu;

    for (const NsWorkloadAttr *a = (*k)->attributes; a->name != NULL; a++) {
      ck_assert_msg (g_hash_table_add (names, (gpointer) a->name), "%s: %s twice",
                     (*k)->name, a->name);
      ck_assert_msg (!g_str_equal (a->name, "type"), "%s declares type", (*k)->name);
      ck_assert_msg (a->meaning != NULL && *a->meaning != '\0', "%s %s: no meaning",
                     (*k)->name, a->name);
      ck_assert_ptr_eq (ns_workload_attr_find ((*k)->attributes, a->name), a);
      if (is_numeric (a))
        assert_numeric_sound (*k, a);
      else if (a->kind == NS_WORKLOAD_ATTR_CHOICE)
        assert_choice_sound (*k, a);
      else if (a->kind == NS_WORKLOAD_ATTR_CPU || a->kind == NS_WORKLOAD_ATTR_CPUS)
        ck_assert_msg (a->def != NULL && ns_parse_uint (a->def, &cpu), "%s %s: default",
                       (*k)->name, a->name);
      else if (a->kind == NS_WORKLOAD_ATTR_BOOL)
        ck_assert_msg (a->def != NULL && (g_str_equal (a->def, "true") ||
                                          g_str_equal (a->def, "false")),
                       "%s %s: default", (*k)->name, a->name);
      else
        ck_assert_msg (a->def != NULL, "%s %s: text without a default", (*k)->name, a->name);
      ck_assert_msg (a->why == NULL || is_numeric (a) || a->kind == NS_WORKLOAD_ATTR_CHOICE,
                     "%s %s: a why no refusal quotes", (*k)->name, a->name);
    }
  }
}
END_TEST

/* Writes a scenario of workload c on the generic profile (CPUs 0-7) for 10 us, its
 * <workload> on line 5 with name="value" and each other required attribute at its lower
 * bound; its path, to unlink. */
static char *
write_attr (const NsWorkloadClass *c, const char *name, const char *value)
{
  g_autoptr (GString) xml = g_string_new ("<?xml version=\"1.0\"?>\n<scenario name=\"t\">\n"
                                          "<cpu profile=\"generic\"/>\n"
                                          "<kernel version=\"6.1\"/>\n<workload type=\"");
  char *path = NULL;
  int fd = g_file_open_tmp ("test-registry-XXXXXX.xml", &path, NULL);

  g_string_append_printf (xml, "%s\" %s=\"%s\"", c->name, name, value);
  for (const NsWorkloadAttr *a = c->attributes; a->name != NULL; a++)
    if (a->def == NULL && !g_str_equal (a->name, name))
      g_string_append_printf (xml, " %s=\"%s\"", a->name, a->min);
  g_string_append_printf (xml, "/>\n<measure metric=\"%s\" duration=\"10us\"/>\n"
                          "</scenario>\n", c->metrics[0]);
  close (fd);
  ck_assert (g_file_set_contents (path, xml->str, -1, NULL));
  return path;
}

/* Asserts that running c with attribute name written as value is refused at line 5
 * with an error that contains what: the model reads the attribute through its table. */
static void
assert_attr_refused (const NsWorkloadClass *c, const char *name, const char *value,
                     const char *what)
{
  g_autofree char *path = write_attr (c, name, value);
  g_autoptr (GError) error = NULL;
  NsRunOptions opts = { 0 };
  NsRunResult *r = ns_run_scenario (path, &opts, &error);

  g_unlink (path);
  ck_assert_msg (r == NULL, "%s %s=\"%s\" accepted", c->name, name, value);
  ck_assert_msg (strstr (error->message, ".xml:5: ") != NULL &&
                 strstr (error->message, what) != NULL, "%s %s=\"%s\": '%s' lacks line 5 or "
                 "'%s'", c->name, name, value, error->message, what);
}

/* The value of c's numeric or choice attribute name written as value, read by its
 * table's reader on the scenario (not run: working-set's 4GiB would fill 4 GiB of memory),
 * which must take it: the number (ps for a time), or the choice's index. */
static guint64
read_taken (const NsWorkloadClass *c, const char *name, const char *value)
{
  const NsWorkloadAttr *a = ns_workload_attr_find (c->attributes, name);
  g_autofree char *path = write_attr (c, name, value);
  g_autoptr (GError) error = NULL;
  NsScenario *sc = ns_scenario_load (path, NULL, &error);
  gboolean ok;
  guint64 v = 0;
  NsTime t = 0;
  guint choice = 0;

  g_unlink (path);
  ck_assert_msg (sc != NULL, "%s", error ? error->message : "?");
  if (a->kind == NS_WORKLOAD_ATTR_CHOICE) {
    ok = ns_workload_attr_choice (sc, c->attributes, name, &choice, &error);
    v = choice;
  } else if (a->kind == NS_WORKLOAD_ATTR_TIME) {
    ok = ns_workload_attr_time (sc, c->attributes, name, &t, &error);
    v = (guint64) t;
  } else {
    ok = ns_workload_attr_uint (sc, c->attributes, name, &v, &error);
  }
  ck_assert_msg (ok, "%s %s=\"%s\" not taken: %s", c->name, name, value,
                 error ? error->message : "?");
  ns_scenario_free (sc);
  return v;
}

/* The text of value v of numeric attribute a, as a scenario writes it. */
static char *
value_text (const NsWorkloadAttr *a, guint64 v)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT "%s", v,
                          a->kind == NS_WORKLOAD_ATTR_TIME ? "ps" : "");
}

/* What an attribute takes reads as its kind, bounds or choices say. */
START_TEST (test_attribute_describe)
{
  static const char *const one[] = { "a", NULL }, *const two[] = { "a", "b", NULL };
  static const char *const three[] = { "a", "b", "c", NULL };
  static const struct { NsWorkloadAttr a; const char *text; } cases[] = {
    { { "n", NS_WORKLOAD_ATTR_UINT, "1", "1", "1024", .meaning = "m" }, "1 to 1024" },
    { { "n", NS_WORKLOAD_ATTR_UINT, "1", NULL, "7", .meaning = "m" }, "at most 7" },
    { { "n", NS_WORKLOAD_ATTR_UINT, "1", "1", .meaning = "m" }, "at least 1" },
    { { "n", NS_WORKLOAD_ATTR_UINT, "1", .meaning = "m" }, "at least 0" },
    { { "n", NS_WORKLOAD_ATTR_SIZE, "16", "16", "65507", .meaning = "m" },
      "16 to 65507 bytes" },
    { { "n", NS_WORKLOAD_ATTR_SIZE, NULL, "128B", "4GiB", .meaning = "m" }, "128B to 4GiB" },
    { { "n", NS_WORKLOAD_ATTR_SIZE, "0", NULL, "1MiB", .meaning = "m" }, "at most 1MiB" },
    { { "n", NS_WORKLOAD_ATTR_SIZE, "2", "2", .meaning = "m" }, "at least 2 bytes" },
    { { "n", NS_WORKLOAD_ATTR_TIME, "1ms", "1us", "2147483647us", .meaning = "m" },
      "1us to 2147483647us" },
    { { "n", NS_WORKLOAD_ATTR_BOOL, "false", .meaning = "m" }, "true or false" },
    { { "n", NS_WORKLOAD_ATTR_CHOICE, "a", .choices = one, .meaning = "m" }, "a" },
    { { "n", NS_WORKLOAD_ATTR_CHOICE, "a", .choices = two, .meaning = "m" }, "a or b" },
    { { "n", NS_WORKLOAD_ATTR_CHOICE, "a", .choices = three, .meaning = "m" }, "a, b or c" },
    { { "n", NS_WORKLOAD_ATTR_CPU, "0", .meaning = "m" }, "a CPU of the machine" },
    { { "n", NS_WORKLOAD_ATTR_CPUS, "1", .meaning = "m" }, "1 to the machine's CPUs" },
    { { "n", NS_WORKLOAD_ATTR_TEXT, "", .meaning = "m" }, "text" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    g_autofree char *text = ns_workload_attr_describe (&cases[i].a);
    ck_assert_str_eq (text, cases[i].text);
  }
}
END_TEST

/* Numbers parse with each kind's syntax: a size's suffixes, a time's units. */
START_TEST (test_attribute_parse)
{
  static const NsWorkloadAttr n = { "n", NS_WORKLOAD_ATTR_UINT, "0", .meaning = "m" };
  static const NsWorkloadAttr size = { "s", NS_WORKLOAD_ATTR_SIZE, "0", .meaning = "m" };
  static const NsWorkloadAttr time = { "t", NS_WORKLOAD_ATTR_TIME, "0", .meaning = "m" };
  guint64 v = 7;

  ck_assert (ns_workload_attr_parse (&n, "12", &v) && v == 12);
  ck_assert (!ns_workload_attr_parse (&n, "1K", &v));
  ck_assert (ns_workload_attr_parse (&size, "1KiB", &v) && v == 1024);
  ck_assert (!ns_workload_attr_parse (&size, "1 KiB", &v));
  ck_assert (ns_workload_attr_parse (&time, "2us", &v) && v == 2000000);
  ck_assert (!ns_workload_attr_parse (&time, "2", &v) && v == 2000000);
}
END_TEST

/* Every numeric attribute of every class takes its bounds and refuses one past each, at
 * its line, with "attribute 'NAME': expected MIN to MAX (WHY), got VALUE". */
START_TEST (test_attribute_bounds)
{
  for (const NsWorkloadClass *const *k = ns_workload_classes (); *k; k++)
    for (const NsWorkloadAttr *a = (*k)->attributes; a->name != NULL; a++) {
      g_autofree char *range = ns_workload_attr_describe (a);
      guint64 lo = 0, hi = G_MAXUINT64;

      if (!is_numeric (a))
        continue;
      if (a->min != NULL)
        ns_workload_attr_parse (a, a->min, &lo);
      if (a->max != NULL)
        ns_workload_attr_parse (a, a->max, &hi);
      for (guint i = 0; i < 4; i++) {
        gboolean past = i % 2;
        guint64 v = i < 2 ? lo - past : hi + past;
        g_autofree char *text = value_text (a, v);

        g_autofree char *what = g_strdup_printf ("attribute '%s': expected %s%s%s%s, got %s",
                                                 a->name, range, a->why ? " (" : "",
                                                 a->why ? a->why : "", a->why ? ")" : "", text);

        if (past && (i < 2 ? lo == 0 : hi == G_MAXUINT64))
          continue;                             /* no value past an open end */
        if (past)
          assert_attr_refused (*k, a->name, text, what);
        else
          ck_assert_uint_eq (read_taken (*k, a->name, text), v);
      }
    }
}
END_TEST

/* Every choice attribute takes each of its choices and refuses another word, naming them. */
START_TEST (test_attribute_choices)
{
  for (const NsWorkloadClass *const *k = ns_workload_classes (); *k; k++)
    for (const NsWorkloadAttr *a = (*k)->attributes; a->name != NULL; a++) {
      g_autofree char *list = NULL;
      g_autofree char *what = NULL;

      if (a->kind != NS_WORKLOAD_ATTR_CHOICE)
        continue;
      list = ns_workload_attr_describe (a);
      what = g_strdup_printf ("attribute '%s': expected %s%s%s%s, got 'no-such-choice'",
                              a->name, list, a->why ? " (" : "", a->why ? a->why : "",
                              a->why ? ")" : "");
      for (guint i = 0; a->choices[i] != NULL; i++)
        ck_assert_uint_eq (read_taken (*k, a->name, a->choices[i]), i);
      assert_attr_refused (*k, a->name, "no-such-choice", what);
    }
}
END_TEST

/* Every numeric, CPU and CPUS attribute refuses "x1"; every CPU attribute CPU 8 of the
 * generic profile's 0-7, every CPUS one 0 and 9 CPUs; every boolean "maybe"; an attribute no table declares is refused with the
 * list of those it has. */
START_TEST (test_attribute_other_kinds)
{
  for (const NsWorkloadClass *const *k = ns_workload_classes (); *k; k++) {
    g_autoptr (GString) names = g_string_new ("allowed: type");

    for (const NsWorkloadAttr *a = (*k)->attributes; a->name != NULL; a++) {
      g_autofree char *bad = g_strdup_printf ("attribute '%s': ", a->name);

      g_string_append_printf (names, ", %s", a->name);
      if (is_numeric (a) || a->kind == NS_WORKLOAD_ATTR_CPU || a->kind == NS_WORKLOAD_ATTR_CPUS)
        assert_attr_refused (*k, a->name, "x1", bad);
      if (a->kind == NS_WORKLOAD_ATTR_CPU)
        assert_attr_refused (*k, a->name, "8", "CPU 8 does not exist");
      if (a->kind == NS_WORKLOAD_ATTR_CPUS) {
        assert_attr_refused (*k, a->name, "0", "expected 1 to the machine's 8 CPUs");
        assert_attr_refused (*k, a->name, "9", "expected 1 to the machine's 8 CPUs");
      }
      if (a->kind == NS_WORKLOAD_ATTR_BOOL)
        assert_attr_refused (*k, a->name, "maybe", bad);
    }
    assert_attr_refused (*k, "no-such-attribute", "1", names->str);
  }
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
  tcase_add_test (tc, test_attribute_tables_sound);
  tcase_add_test (tc, test_attribute_describe);
  tcase_add_test (tc, test_attribute_parse);
  tcase_add_test (tc, test_attribute_bounds);
  tcase_add_test (tc, test_attribute_choices);
  tcase_add_test (tc, test_attribute_other_kinds);
  tcase_set_timeout (tc, 600);
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
