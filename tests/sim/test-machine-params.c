/* test-machine-params.c — the machine's parameter declarations (sim/machine-params.c)
 * against their contract (param.h, machine-params.c's header, doc/cpu-profiles.md,
 * doc/validation.md): every parameter has a dotted lower-case name declared once, a
 * meaning, a provenance and a unit (a real-valued quantity a non-empty one), and a
 * default of its type inside its own range; the only free (fittable) parameter is
 * cpu.ipc (doc/architecture.md: at most one fitted parameter per profile); a default
 * that is unsourced says so at the start of its provenance, which is how netsim validate
 * finds it (doc/validation.md: sources starting "unsourced"); and every shipped CPU
 * profile that leaves such a default in force keeps it marked unsourced in its parameter
 * set, so none hides (doc/cpu-profiles.md: profiles may inherit unsourced registry
 * defaults; validate lists them). */
#include "config.h"
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "param.h"
#include "profile.h"

/* TRUE if source marks a value as unsourced the way netsim validate reads it. */
static gboolean
starts_unsourced (const char *source)
{
  return g_ascii_strncasecmp (source, "unsourced", 9) == 0;
}

/* TRUE if name is dotted lower case: at least two parts of [a-z0-9_]. */
static gboolean
is_dotted_name (const char *name)
{
  return g_regex_match_simple ("^[a-z0-9_]+(\\.[a-z0-9_]+)+$", name, 0, 0);
}

/* Every parameter: a dotted name, a meaning, a provenance, a unit (non-empty for a real
 * number); names strictly increasing in the sorted list, so each declared once, and
 * each found by lookup. */
START_TEST (test_declarations_complete)
{
  GPtrArray *all = ns_param_all ();

  ck_assert_uint_gt (all->len, 0);
  for (guint i = 0; i < all->len; i++) {
    const NsParamDef *d = all->pdata[i];

    ck_assert_msg (is_dotted_name (d->name), "bad name '%s'", d->name);
    ck_assert_msg (d->meaning && *d->meaning, "%s: no meaning", d->name);
    ck_assert_msg (d->default_source && *d->default_source, "%s: no provenance", d->name);
    ck_assert_msg (d->unit != NULL, "%s: no unit", d->name);
    ck_assert_msg (d->type != NS_PARAM_DOUBLE || *d->unit, "%s: a real number without unit",
                   d->name);
    ck_assert_ptr_eq (ns_param_lookup (d->name), d);
    if (i > 0)
      ck_assert_msg (strcmp (((const NsParamDef *) all->pdata[i - 1])->name, d->name) < 0,
                     "%s declared twice or out of order", d->name);
  }
}
END_TEST

/* Parses text entirely as a number; FALSE if anything is left over. */
static gboolean
parse_number (const char *text, double *out)
{
  char *end;

  errno = 0;
  *out = g_ascii_strtod (text, &end);
  return *text && *end == '\0' && errno == 0;
}

/* Every default is of its parameter's type — a number (an integer for an INT) inside
 * [min, max], a boolean word for a BOOL, non-empty text for a
 * STRING (the boolean words are param.c's). */
START_TEST (test_defaults_in_range)
{
  static const char *const bool_words[] = { "true", "false", "yes", "no", "on", "off", "1",
                                            "0", NULL };
  GPtrArray *all = ns_param_all ();

  for (guint i = 0; i < all->len; i++) {
    const NsParamDef *d = all->pdata[i];
    double v;

    switch (d->type) {
    case NS_PARAM_DOUBLE:
    case NS_PARAM_INT:
      ck_assert_msg (parse_number (d->default_value, &v), "%s: default '%s' not a number",
                     d->name, d->default_value);
      ck_assert_msg (d->type == NS_PARAM_DOUBLE || v == (double) (gint64) v,
                     "%s: default %s not an integer", d->name, d->default_value);
      ck_assert_msg (d->min <= d->max, "%s: a number without a range", d->name);
      ck_assert_msg (v >= d->min && v <= d->max, "%s: default %s outside [%g, %g]", d->name,
                     d->default_value, d->min, d->max);
      break;
    case NS_PARAM_BOOL:
      ck_assert_msg (g_strv_contains (bool_words, d->default_value),
                     "%s: default '%s' not a boolean", d->name, d->default_value);
      break;
    case NS_PARAM_STRING:
      ck_assert_msg (*d->default_value, "%s: empty default", d->name);
      break;
    }
  }
}
END_TEST

/* cpu.ipc is the one free parameter (the fitted one). */
START_TEST (test_only_ipc_is_free)
{
  GPtrArray *all = ns_param_all ();

  for (guint i = 0; i < all->len; i++) {
    const NsParamDef *d = all->pdata[i];
    ck_assert_msg (d->free == !strcmp (d->name, "cpu.ipc"), "%s: free is %d", d->name,
                   d->free);
  }
}
END_TEST

/* A provenance that calls its value unsourced, or a reasoned default, says "unsourced"
 * first, where validate looks; and the reasoned placeholders the header names
 * (cpu-params.md §5) exist. */
START_TEST (test_unsourced_marked_first)
{
  GPtrArray *all = ns_param_all ();
  guint n_unsourced = 0;

  for (guint i = 0; i < all->len; i++) {
    const NsParamDef *d = all->pdata[i];
    g_autofree char *lower = g_ascii_strdown (d->default_source, -1);

    /* a reasoned default is a placeholder, not a measurement: it must be marked */
    if (strstr (lower, "reasoned default") != NULL)
      ck_assert_msg (starts_unsourced (d->default_source),
                     "%s: a reasoned default not marked unsourced: validate misses it (%s)",
                     d->name, d->default_source);
    if (strstr (lower, "unsourced") == NULL)
      continue;
    ck_assert_msg (starts_unsourced (d->default_source),
                   "%s: 'unsourced' inside its provenance, not first: validate misses it "
                   "(%s)", d->name, d->default_source);
    n_unsourced++;
  }
  ck_assert_uint_gt (n_unsourced, 0);
  ck_assert (starts_unsourced (ns_param_lookup ("cpu.ipc")->default_source));
}
END_TEST

/* In every shipped profile, an unsourced default the profile does not set stays in its
 * parameter set with the registry's value and its "unsourced" provenance (so netsim
 * validate lists it); one the profile sets carries the profile's own source. The pairs
 * left in force are printed, for the reader. */
START_TEST (test_profiles_keep_unsourced_visible)
{
  GPtrArray *names = ns_cpu_profile_list ();
  GPtrArray *all = ns_param_all ();

  ck_assert_uint_gt (names->len, 1);
  for (guint p = 0; p < names->len; p++) {
    GError *error = NULL;
    NsCpuProfile *profile = ns_cpu_profile_load (names->pdata[p], &error);
    GString *left = g_string_new (NULL);

    ck_assert_msg (profile != NULL, "%s", error ? error->message : "?");
    for (guint i = 0; i < all->len; i++) {
      const NsParamDef *d = all->pdata[i];
      const char *source = ns_params_get_source (profile->params, d->name);

      if (!starts_unsourced (d->default_source))
        continue;
      if (ns_cpu_profile_sets (profile, d->name)) {
        ck_assert_str_ne (source, d->default_source);
        continue;
      }
      ck_assert_str_eq (source, d->default_source);
      ck_assert_str_eq (ns_params_get_text (profile->params, d->name), d->default_value);
      g_string_append_printf (left, " %s", d->name);
    }
    g_print ("%s leaves unsourced defaults in force:%s\n", profile->name,
             left->len ? left->str : " none");
    g_string_free (left, TRUE);
    ns_cpu_profile_free (profile);
  }
  g_ptr_array_unref (names);
}
END_TEST

static Suite *
machine_params_suite (void)
{
  Suite *s = suite_create ("machine-params");
  TCase *tc = tcase_create ("core");

  tcase_add_test (tc, test_declarations_complete);
  tcase_add_test (tc, test_defaults_in_range);
  tcase_add_test (tc, test_only_ipc_is_free);
  tcase_add_test (tc, test_unsourced_marked_first);
  tcase_add_test (tc, test_profiles_keep_unsourced_visible);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (machine_params_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
