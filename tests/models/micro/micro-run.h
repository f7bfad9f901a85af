/* micro-run.h — what the micro workload tests share: running a scenario of
 * scenarios/micro/ (short, with --set overrides) through the run layer, and reading a
 * variant's parameters, metric and per-function breakdown. */
#pragma once
#include <check.h>
#include <string.h>
#include "run.h"

/* The path of scenarios/micro/name under $NETSIM_DATADIR (set by make check). */
static inline char *
micro_path (const char *name)
{
  const char *data = g_getenv ("NETSIM_DATADIR");

  return g_build_filename (data ? data : NS_SRCDIR, "scenarios", "micro", name, NULL);
}

/* Runs scenarios/micro/name with sets (NULL-terminated, may be NULL), only the variant
 * only (NULL: all), seeded with seed when seed_given; the run must succeed. */
static inline NsRunResult *
micro_run_seeded (const char *name, const char *const *sets, const char *only,
                  gboolean seed_given, guint64 seed)
{
  g_autofree char *path = micro_path (name);
  NsRunOptions opt = { 0 };
  GError *error = NULL;
  NsRunResult *res;

  opt.sets = sets;
  opt.only_variant = only;
  opt.seed_given = seed_given;
  opt.seed = seed;
  res = ns_run_scenario (path, &opt, &error);
  ck_assert_msg (res != NULL, "%s: %s", name, error ? error->message : "?");
  return res;
}

/* micro_run_seeded with the scenario's own seed. */
static inline NsRunResult *
micro_run (const char *name, const char *const *sets, const char *only)
{
  return micro_run_seeded (name, sets, only, FALSE, 0);
}

/* The variant called name of res (aborts the test if it has none). */
static inline const NsVariantResult *
micro_variant (const NsRunResult *res, const char *name)
{
  const NsVariantResult *vr = ns_run_result_variant (res, name);

  ck_assert_msg (vr != NULL, "no variant %s", name);
  return vr;
}

/* The breakdown row of func in vr, or NULL if the function was never entered. */
static inline const NsBreakdownRow *
micro_row (const NsVariantResult *vr, const char *func)
{
  for (guint i = 0; i < vr->breakdown->len; i++) {
    const NsBreakdownRow *row = vr->breakdown->pdata[i];
    if (!strcmp (row->func, func))
      return row;
  }
  return NULL;
}

/* The value of parameter name the variant ran with (profile, scenario and --set). */
static inline double
micro_param (const NsVariantResult *vr, const char *name)
{
  return ns_params_get_double (vr->params, name);
}

/* Relative tolerance of a metric measured over span ps of simulated time against the
 * cycles charged per operation: CPU clocks run up to one sched.quantum_ns apart (doc/
 * model.md, "Time and threads"), so an operation counted in the window may end up to a
 * quantum past it; twice that, over the span. */
static inline double
micro_window_tolerance (const NsVariantResult *vr)
{
  return 2.0 * micro_param (vr, "sched.quantum_ns") * 1000.0 / (double) vr->measured[0];
}

/* Asserts that scenarios/micro/name with sets is refused with an error at
 * "path:line:" (its <workload> element's line) that names what. */
static inline void
micro_assert_refused (const char *name, const char *const *sets, guint line, const char *what)
{
  g_autofree char *path = micro_path (name);
  g_autofree char *where = g_strdup_printf ("%s:%u:", path, line);
  NsRunOptions opt = { 0 };
  GError *error = NULL;
  NsRunResult *res;

  opt.sets = sets;
  res = ns_run_scenario (path, &opt, &error);
  ck_assert_msg (res == NULL, "%s: %s was accepted", name, sets[0]);
  ck_assert_msg (g_str_has_prefix (error->message, where), "'%s' lacks %s", error->message,
                 where);
  ck_assert_msg (strstr (error->message, what) != NULL, "'%s' does not name %s",
                 error->message, what);
  g_error_free (error);
}
