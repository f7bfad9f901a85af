/* test-param.c — the parameter registry and parameter sets. */
#include "config.h"
#include <signal.h>
#include <string.h>
#include <check.h>
#include "param.h"

START_TEST (test_every_param_is_documented)
{
  GPtrArray *all = ns_param_all ();

  ck_assert_uint_gt (all->len, 40);
  for (guint i = 0; i < all->len; i++) {
    const NsParamDef *d = all->pdata[i];
    NsParams *p = ns_params_new ();
    ck_assert_msg (d->meaning && strlen (d->meaning) > 10, "%s lacks a meaning", d->name);
    ck_assert_msg (d->default_source && *d->default_source, "%s lacks a source", d->name);
    ck_assert_msg (d->unit != NULL, "%s lacks a unit", d->name);
    /* the default must pass the parameter's own checks */
    ck_assert_msg (ns_params_set (p, d->name, d->default_value, "test", NULL),
                   "%s: default '%s' rejected", d->name, d->default_value);
    if (i > 0)
      ck_assert_int_lt (strcmp (((NsParamDef *) all->pdata[i - 1])->name, d->name), 0);
    ns_params_free (p);
  }
}
END_TEST

START_TEST (test_set_and_get)
{
  NsParams *p = ns_params_new ();
  GError *err = NULL;

  ck_assert_double_eq (ns_params_get_double (p, "cache.l2.latency_cycles"), 12);
  ck_assert (ns_params_set (p, "cache.l2.latency_cycles", "14.5", "a measurement", &err));
  ck_assert_double_eq (ns_params_get_double (p, "cache.l2.latency_cycles"), 14.5);
  ck_assert_str_eq (ns_params_get_source (p, "cache.l2.latency_cycles"), "a measurement");
  ck_assert (ns_params_set (p, "cpu.smt", "1", "s", &err));
  ck_assert_int_eq (ns_params_get_int (p, "cpu.smt"), 1);
  ck_assert (ns_params_set (p, "cache.l3.inclusive", "yes", "s", &err));
  ck_assert (ns_params_get_bool (p, "cache.l3.inclusive"));
  ck_assert (ns_params_set (p, "cache.policy", "plru", "s", &err));
  ck_assert_str_eq (ns_params_get_string (p, "cache.policy"), "plru");
  ns_params_free (p);
}
END_TEST

/* A string parameter with a fixed set of values takes one of them, spelled exactly, and
 * nothing else (machine.c's read_caches knows only lru and plru): the error names them. */
START_TEST (test_string_choices)
{
  static const char *const bad[] = { "fifo", "LRU", " lru", "" };
  NsParams *p = ns_params_new ();
  GError *err = NULL;

  ck_assert (ns_params_set (p, "cache.policy", "lru", "s", &err));
  ck_assert (ns_params_set (p, "cache.policy", "plru", "s", &err));
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
    g_autofree char *want = g_strdup_printf ("parameter cache.policy: expected lru or plru, "
                                             "got '%s'", bad[i]);

    ck_assert_msg (!ns_params_set (p, "cache.policy", bad[i], "s", &err), "'%s'", bad[i]);
    ck_assert (g_error_matches (err, NS_ERROR, NS_ERROR_INPUT));
    ck_assert_str_eq (err->message, want);
    g_clear_error (&err);
  }
  ck_assert_str_eq (ns_params_get_string (p, "cache.policy"), "plru");
  ns_params_free (p);
}
END_TEST

START_TEST (test_rejects_bad_values)
{
  NsParams *p = ns_params_new ();
  GError *err = NULL;

  ck_assert (!ns_params_set (p, "no.such.param", "1", "s", &err));
  ck_assert (strstr (err->message, "unknown parameter"));
  ck_assert (strstr (err->message, "did you mean") == NULL);
  g_clear_error (&err);
  /* a misspelling names the parameter it is near */
  ck_assert (!ns_params_set (p, "cache.l2.latency_cycle", "14", "s", &err));
  ck_assert_msg (strstr (err->message, "(did you mean 'cache.l2.latency_cycles'?") != NULL,
                 "%s", err->message);
  g_clear_error (&err);
  ck_assert_str_eq (ns_param_nearest ("cpu.ipcc"), "cpu.ipc");
  ck_assert_ptr_null (ns_param_nearest ("cpu"));
  ck_assert (!ns_params_set (p, "cpu.smt", "1.5", "s", &err));
  ck_assert (strstr (err->message, "integer"));
  g_clear_error (&err);
  ck_assert (!ns_params_set (p, "cpu.smt", "3", "s", &err));
  ck_assert (strstr (err->message, "outside the valid range"));
  g_clear_error (&err);
  /* the bounds exactly, as they read back (%g gave [0, 1.04858e+06], which holds 1048577) */
  ck_assert (!ns_params_set (p, "cache.l3.size_kib", "1048577", "s", &err));
  ck_assert_str_eq (err->message, "parameter cache.l3.size_kib: 1048577 is outside the valid "
                    "range [0, 1048576] KiB");
  g_clear_error (&err);
  ck_assert (!ns_params_set (p, "cpu.freq_ghz", "10.5", "s", &err));
  ck_assert_str_eq (err->message, "parameter cpu.freq_ghz: 10.5 is outside the valid range "
                    "[0.1, 10] GHz");
  g_clear_error (&err);
  ck_assert (!ns_params_set (p, "cpu.freq_ghz", "fast", "s", &err));
  g_clear_error (&err);
  /* NaN would pass any range test (every comparison is false), infinity is no value */
  ck_assert (!ns_params_set (p, "cpu.freq_ghz", "nan", "s", &err));
  g_clear_error (&err);
  ck_assert (!ns_params_set (p, "cpu.ipc", "inf", "s", &err));
  g_clear_error (&err);
  ck_assert (!ns_params_set (p, "cache.l3.inclusive", "maybe", "s", &err));
  g_clear_error (&err);
  ck_assert (!ns_params_set (p, "cpu.freq_ghz", "3", "", &err));
  ck_assert (strstr (err->message, "source"));
  g_clear_error (&err);
  /* failed sets change nothing */
  ck_assert_int_eq (ns_params_get_int (p, "cpu.smt"), 2);
  ns_params_free (p);
}
END_TEST

/* Parameter values take the number syntax of scenario attributes (ns_parse_decimal): a
 * hex float, a space or a hex integer is refused, which strtod/strtoll would read; a sign,
 * a leading '.', an exponent are fine. */
START_TEST (test_number_syntax_is_the_scenarios)
{
  static const char *const bad_doubles[] = { "0x1p1", " 2", "2 ", "\t2", "0X2", "-0x1p1",
                                             "+ 2", "1_0", "2e", "." };
  static const struct { const char *text; double value; } good_doubles[] = {
    { "2", 2 }, { "+2", 2 }, { "-0.5", -0.5 }, { ".5", 0.5 }, { "2.", 2 }, { "1e0", 1 },
    { "0.2E+1", 2 } };
  static const char *const bad_ints[] = { " 1", "0x1", "1.0", "1e0", "+", "", "1 " };
  NsParams *p = ns_params_new ();
  GError *err = NULL;
  double d;

  for (guint i = 0; i < G_N_ELEMENTS (bad_doubles); i++) {
    ck_assert_msg (!ns_params_set (p, "cpu.freq_ghz", bad_doubles[i], "s", &err),
                   "cpu.freq_ghz='%s' accepted", bad_doubles[i]);
    ck_assert (strstr (err->message, "expected a number"));
    g_clear_error (&err);
    ck_assert (!ns_parse_decimal (bad_doubles[i], &d));
  }
  for (guint i = 0; i < G_N_ELEMENTS (good_doubles); i++) {
    ck_assert_msg (ns_parse_decimal (good_doubles[i].text, &d), "'%s' refused",
                   good_doubles[i].text);
    ck_assert (d == good_doubles[i].value);
  }
  ck_assert (ns_params_set (p, "cpu.freq_ghz", "+3.5", "s", NULL));
  ck_assert (ns_params_get_double (p, "cpu.freq_ghz") == 3.5);
  for (guint i = 0; i < G_N_ELEMENTS (bad_ints); i++) {
    ck_assert_msg (!ns_params_set (p, "cpu.smt", bad_ints[i], "s", &err),
                   "cpu.smt='%s' accepted", bad_ints[i]);
    ck_assert (strstr (err->message, "expected an integer"));
    g_clear_error (&err);
  }
  ck_assert (ns_params_set (p, "cpu.smt", "+1", "s", NULL));
  ck_assert_int_eq (ns_params_get_int (p, "cpu.smt"), 1);
  ns_params_free (p);
}
END_TEST

START_TEST (test_copy_is_independent)
{
  NsParams *a = ns_params_new ();
  NsParams *b;

  ck_assert (ns_params_set (a, "cpu.freq_ghz", "4.5", "x", NULL));
  b = ns_params_copy (a);
  ck_assert (ns_params_set (a, "cpu.freq_ghz", "2.0", "y", NULL));
  ck_assert_double_eq (ns_params_get_double (b, "cpu.freq_ghz"), 4.5);
  ck_assert_str_eq (ns_params_get_source (b, "cpu.freq_ghz"), "x");
  ns_params_free (a);
  ns_params_free (b);
}
END_TEST

static void
count_param (const NsParamDef *def, const char *value, const char *source, gpointer data)
{
  GPtrArray *names = data;
  if (names->len)
    ck_assert_int_lt (strcmp (g_ptr_array_index (names, names->len - 1), def->name), 0);
  g_ptr_array_add (names, (gpointer) def->name);
  ck_assert (value != NULL && source != NULL);
}

/* A tracked set names exactly the parameters its typed getters returned, in registry
 * order, whatever the getter's type; reporting a value (get_text, get_source) is not a
 * read; an untracked set and a copy of a tracked one name none. */
START_TEST (test_reads_tracked)
{
  NsParams *p = ns_params_new (), *copy;
  char **read;

  (void) ns_params_get_double (p, "cpu.ipc");           /* before tracking: not noted */
  ns_params_track_reads (p);
  (void) ns_params_get_text (p, "cpu.mlp");
  (void) ns_params_get_source (p, "cpu.mlp");
  (void) ns_params_get_double (p, "cpu.freq_ghz");
  (void) ns_params_get_int (p, "cache.line_bytes");
  (void) ns_params_get_double (p, "cache.line_bytes");  /* an int read as a double */
  (void) ns_params_get_bool (p, "prefetch.l1_stride");
  (void) ns_params_get_string (p, "cache.policy");
  read = ns_params_read (p);
  ck_assert_uint_eq (g_strv_length (read), 4);
  ck_assert_str_eq (read[0], "cache.line_bytes");
  ck_assert_str_eq (read[1], "cache.policy");
  ck_assert_str_eq (read[2], "cpu.freq_ghz");
  ck_assert_str_eq (read[3], "prefetch.l1_stride");
  g_strfreev (read);
  copy = ns_params_copy (p);
  (void) ns_params_get_double (copy, "cpu.ipc");
  read = ns_params_read (copy);
  ck_assert_uint_eq (g_strv_length (read), 0);
  g_strfreev (read);
  ns_params_free (copy);
  ns_params_free (p);
}
END_TEST

START_TEST (test_foreach_sorted_complete)
{
  NsParams *p = ns_params_new ();
  GPtrArray *names = g_ptr_array_new ();

  ns_params_foreach (p, count_param, names);
  ck_assert_uint_eq (names->len, ns_param_all ()->len);
  g_ptr_array_free (names, TRUE);
  ns_params_free (p);
}
END_TEST

START_TEST (test_duplicate_declaration_aborts)
{
  static const NsParamDef dup[] = {
    { "cpu.ipc", NS_PARAM_DOUBLE, "", "1", "duplicate", "test", FALSE, 1, 0, NULL },
  };
  ns_param_registry_init ();
  ns_param_register (dup, 1);   /* g_error → SIGTRAP */
}
END_TEST

static Suite *
param_suite (void)
{
  Suite *s = suite_create ("param");
  TCase *tc = tcase_create ("registry");

  tcase_add_test (tc, test_every_param_is_documented);
  tcase_add_test (tc, test_set_and_get);
  tcase_add_test (tc, test_rejects_bad_values);
  tcase_add_test (tc, test_string_choices);
  tcase_add_test (tc, test_number_syntax_is_the_scenarios);
  tcase_add_test (tc, test_copy_is_independent);
  tcase_add_test (tc, test_reads_tracked);
  tcase_add_test (tc, test_foreach_sorted_complete);
  tcase_add_test_raise_signal (tc, test_duplicate_declaration_aborts, SIGTRAP);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (param_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed ? 1 : 0;
}
