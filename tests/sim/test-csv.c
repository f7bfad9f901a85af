/* test-csv.c — CSV fields: RFC 4180 quoting (comma, quote, carriage return, newline),
 * the one-line form of line-per-record files, and splitting a line back into the fields
 * that were written. */
#include "config.h"

#include <check.h>
#include <string.h>

#include "csv.h"

/* One field as ns_csv_field (or, one_line, ns_csv_field_one_line) writes it. */
static char *
field (const char *text, gboolean one_line)
{
  GString *out = g_string_new (NULL);

  if (one_line)
    ns_csv_field_one_line (out, text);
  else
    ns_csv_field (out, text);
  return g_string_free (out, FALSE);
}

/* ns_csv_split (line) gives exactly the fields want (NULL-terminated). */
static void
expect_split (const char *line, const char *const *want)
{
  char **got = ns_csv_split (line);

  ck_assert_uint_eq (g_strv_length (got), g_strv_length ((char **) want));
  for (guint i = 0; want[i] != NULL; i++)
    ck_assert_str_eq (got[i], want[i]);
  g_strfreev (got);
}

START_TEST (test_quoting)
{
  static const struct { const char *in, *out; } cases[] = {
    { "plain", "plain" },
    { "", "" },
    { "1.5e3", "1.5e3" },
    { " edge ", " edge " },                          /* spaces alone: as is */
    { "a,b", "\"a,b\"" },
    { "say \"hi\"", "\"say \"\"hi\"\"\"" },
    { "l1\nl2", "\"l1\nl2\"" },
    { "cr\r", "\"cr\r\"" },
  };
  char *got;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    got = field (cases[i].in, FALSE);
    ck_assert_msg (strcmp (got, cases[i].out) == 0, "case %u: [%s], expected [%s]", i, got,
                   cases[i].out);
    g_free (got);
  }
  got = field (NULL, FALSE);
  ck_assert_str_eq (got, "");
  g_free (got);
}
END_TEST

START_TEST (test_one_line)
{
  static const struct { const char *in, *out; } cases[] = {
    { "plain", "plain" },
    { " lead", "\" lead\"" },
    { "trail ", "\"trail \"" },
    { "l1\nl2", "\"l1 l2\"" },
    { "l1\r\nl2", "\"l1  l2\"" },
    { "a,\"b\"", "\"a,\"\"b\"\"\"" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    char *got = field (cases[i].in, TRUE);
    ck_assert_msg (strcmp (got, cases[i].out) == 0, "case %u: [%s], expected [%s]", i, got,
                   cases[i].out);
    ck_assert_ptr_null (strpbrk (got, "\r\n"));
    g_free (got);
  }
}
END_TEST

/* A comment line escapes control characters and the backslash itself (sim/common.c's
 * ns_escape_controls): a line break and a typed backslash-n give different lines, as a
 * sweep's header must for --resume to tell two sweeps apart. */
START_TEST (test_comment_escapes)
{
  static const struct { const char *in, *out; } cases[] = {
    { "set kernel.cmdline=x\\ny", "# set kernel.cmdline=x\\\\ny\n" },
    { "set kernel.cmdline=x\ny", "# set kernel.cmdline=x\\ny\n" },
    { "a\tb\\", "# a\\tb\\\\\n" },
    { "bell\a", "# bell\\x07\n" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    g_autoptr (GString) out = g_string_new (NULL);

    ns_csv_comment (out, "%s", cases[i].in);
    ck_assert_msg (strcmp (out->str, cases[i].out) == 0, "case %u: [%s], expected [%s]", i,
                   out->str, cases[i].out);
  }
}
END_TEST

START_TEST (test_round_trip)
{
  const char *const fields[] = { "000-ipv4-1G", "", "Ryzen 9 7950X, 100 filters",
                                 "say \"hi\"", "\"", ",", "+14.47", " x ", NULL };
  GString *out = g_string_new (NULL);

  ns_csv_fields (out, fields, G_N_ELEMENTS (fields) - 1);
  expect_split (out->str, fields);
  g_string_free (out, TRUE);
}
END_TEST

START_TEST (test_split)
{
  expect_split ("", (const char *const[]) { "", NULL });
  expect_split ("a,,b,", (const char *const[]) { "a", "", "b", "", NULL });
  expect_split ("\"x,y\",\"\"\"q\"\"\",z",
                (const char *const[]) { "x,y", "\"q\"", "z", NULL });
}
END_TEST

START_TEST (test_fields_separators)
{
  const char *const fields[] = { "a", NULL, "c" };
  GString *out = g_string_new (NULL);

  ns_csv_fields (out, fields, 3);
  ck_assert_str_eq (out->str, "a,,c");
  g_string_truncate (out, 0);
  ns_csv_fields (out, NULL, 0);
  ck_assert_str_eq (out->str, "");
  g_string_free (out, TRUE);
}
END_TEST

static Suite *
csv_suite (void)
{
  Suite *s = suite_create ("csv");
  TCase *tc = tcase_create ("core");

  tcase_add_test (tc, test_quoting);
  tcase_add_test (tc, test_one_line);
  tcase_add_test (tc, test_comment_escapes);
  tcase_add_test (tc, test_round_trip);
  tcase_add_test (tc, test_split);
  tcase_add_test (tc, test_fields_separators);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (csv_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
