/* test-json.c — the JSON writer: layout and separators, string escaping (control
 * characters, UTF-8 kept, invalid bytes replaced so the document stays UTF-8), numbers
 * that round-trip, non-finite numbers and NULL strings as null. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <string.h>

#include "json.h"

/* The text a writer produces for one string value at the top level, without the newline. */
static char *
string_value (const char *s)
{
  GString *out = g_string_new (NULL);
  NsJson *json = ns_json_new (out);

  ns_json_string (json, s);
  ns_json_free (json);
  return g_string_free (out, FALSE);
}

/* The text of one number value at the top level. */
static char *
double_value (double d)
{
  GString *out = g_string_new (NULL);
  NsJson *json = ns_json_new (out);

  ns_json_double (json, d);
  ns_json_free (json);
  return g_string_free (out, FALSE);
}

START_TEST (test_layout)
{
  GString *out = g_string_new (NULL);
  NsJson *json = ns_json_new (out);
  char *names[] = { "a", "b", NULL };

  ns_json_begin_object (json);
  ns_json_member_string (json, "name", "x");
  ns_json_member_int (json, "n", -3);
  ns_json_member_bool (json, "ok", TRUE);
  ns_json_key (json, "list");
  ns_json_begin_array (json);
  ns_json_int (json, 1);
  ns_json_begin_object (json);
  ns_json_end_object (json);
  ns_json_begin_array (json);
  ns_json_end_array (json);
  ns_json_end_array (json);
  ns_json_member_strv (json, "names", names);
  ns_json_member_strv (json, "none", NULL);
  ns_json_member_string (json, "missing", NULL);
  ns_json_end_object (json);
  ck_assert_str_eq (out->str,
                    "{\n"
                    "  \"name\": \"x\",\n"
                    "  \"n\": -3,\n"
                    "  \"ok\": true,\n"
                    "  \"list\": [\n"
                    "    1,\n"
                    "    {},\n"
                    "    []\n"
                    "  ],\n"
                    "  \"names\": [\n"
                    "    \"a\",\n"
                    "    \"b\"\n"
                    "  ],\n"
                    "  \"none\": [],\n"
                    "  \"missing\": null\n"
                    "}\n");
  ns_json_free (json);
  g_string_free (out, TRUE);
}
END_TEST

START_TEST (test_escapes)
{
  static const struct { const char *in, *out; } cases[] = {
    { "plain", "\"plain\"" },
    { "", "\"\"" },
    { "say \"hi\"", "\"say \\\"hi\\\"\"" },
    { "a\\b", "\"a\\\\b\"" },
    { "l1\nl2\r\t", "\"l1\\nl2\\r\\t\"" },
    { "\001\037", "\"\\u0001\\u001f\"" },
    { "\x7f", "\"\x7f\"" },                         /* DEL needs no escape */
    { "µs → ns", "\"µs → ns\"" },                   /* valid UTF-8 kept */
    { "/tmp/x\xff/s.xml", "\"/tmp/x\\ufffd/s.xml\"" },  /* Latin-1 file name */
    { "\xc3", "\"\\ufffd\"" },                      /* sequence cut short */
    { "\xe2\x86", "\"\\ufffd\\ufffd\"" },
    { "\xc0\xaf", "\"\\ufffd\\ufffd\"" },           /* overlong '/' */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    char *got = string_value (cases[i].in);
    ck_assert_msg (strcmp (got, cases[i].out) == 0, "case %u: %s, expected %s", i, got,
                   cases[i].out);
    ck_assert (g_utf8_validate (got, -1, NULL));
    g_free (got);
  }
}
END_TEST

START_TEST (test_keys_escaped)
{
  GString *out = g_string_new (NULL);
  NsJson *json = ns_json_new (out);

  ns_json_begin_object (json);
  ns_json_member_int (json, "k\"\xff", 1);
  ns_json_end_object (json);
  ck_assert_str_eq (out->str, "{\n  \"k\\\"\\ufffd\": 1\n}\n");
  ns_json_free (json);
  g_string_free (out, TRUE);
}
END_TEST

START_TEST (test_numbers)
{
  static const double values[] = { 0.1, 1.0 / 3.0, 1e-300, 6.02214076e23, -2.5, 0.0,
                                   1730488.2 };
  char *text;

  for (guint i = 0; i < G_N_ELEMENTS (values); i++) {
    text = double_value (values[i]);
    ck_assert_msg (g_ascii_strtod (text, NULL) == values[i], "%s does not read back", text);
    ck_assert_ptr_null (strchr (text, ','));       /* never a locale's decimal comma */
    g_free (text);
  }
  /* the fewest digits that read back: no 0.0050000000000000001 */
  text = double_value (0.005);
  ck_assert_str_eq (text, "0.005");
  g_free (text);
  text = double_value (1.0 / 3.0);
  ck_assert_str_eq (text, "0.3333333333333333");
  g_free (text);
  text = double_value (NAN);
  ck_assert_str_eq (text, "null");
  g_free (text);
  text = double_value (-INFINITY);
  ck_assert_str_eq (text, "null");
  g_free (text);
}
END_TEST

static Suite *
json_suite (void)
{
  Suite *s = suite_create ("json");
  TCase *tc = tcase_create ("core");

  tcase_add_test (tc, test_layout);
  tcase_add_test (tc, test_escapes);
  tcase_add_test (tc, test_keys_escaped);
  tcase_add_test (tc, test_numbers);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (json_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
