/* refused.h — the check the workload tests share for a refused attribute: running the
 * scenario at path fails, and the error starts with "path:line:" and names what. */
#pragma once
#include <check.h>
#include <string.h>
#include "run.h"

/* Asserts that the scenario at path (written with setting on its <workload>, line line)
 * is refused with an error at path:line: that names what. */
static inline void
assert_refused (const char *path, guint line, const char *setting, const char *what)
{
  g_autofree char *where = g_strdup_printf ("%s:%u:", path, line);
  NsRunOptions opt = { 0 };
  GError *error = NULL;
  NsRunResult *res = ns_run_scenario (path, &opt, &error);

  ck_assert_msg (res == NULL, "%s was accepted", setting);
  ck_assert_msg (g_str_has_prefix (error->message, where), "%s: '%s' lacks %s", setting,
                 error->message, where);
  ck_assert_msg (strstr (error->message, what) != NULL, "%s: '%s' does not name %s",
                 setting, error->message, what);
  g_error_free (error);
}
