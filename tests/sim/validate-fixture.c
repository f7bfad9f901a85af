/* validate-fixture.c — the set-up test-validate.c and test-calibrate.c share: a scratch
 * data directory holding the fixture (tests/data/validation) with live figures, loading
 * and running its rows, and editing its files. */
#include "config.h"
#include <check.h>
#include <string.h>
#include <glib/gstdio.h>
#include "profile.h"
#include "validate-fixture.h"

/* tests/data/name (TESTS_SRCDIR, else the source tree). */
static char *
data_path (const char *name)
{
  const char *tests = g_getenv ("TESTS_SRCDIR");

  if (tests != NULL)
    return g_build_filename (tests, "data", name, NULL);
  return g_build_filename (NS_SRCDIR, "tests", "data", name, NULL);
}

/* The recorded results in dir; the test fails unless they load. */
NsValidation *
load_ok (const char *dir)
{
  GError *error = NULL;
  NsValidation *v = ns_validation_load (dir, &error);

  ck_assert_msg (v != NULL, "%s: %s", dir, error ? error->message : "?");
  return v;
}

/* Runs the rows matching patterns (NULL-terminated) with n_jobs. */
NsValReport *
run_rows (const NsValidation *v, const char *const *patterns, guint n_jobs)
{
  GError *error = NULL;
  GPtrArray *rows = ns_validation_select (v, patterns, &error);
  NsValOptions opt = { .jobs = n_jobs };
  NsValReport *r;

  ck_assert_msg (rows != NULL, "select: %s", error ? error->message : "?");
  r = ns_validation_run (v, rows, &opt, &error);
  ck_assert_msg (r != NULL, "run: %s", error ? error->message : "?");
  g_ptr_array_unref (rows);
  return r;
}

/* The outcome of row id in r; the test fails if r has none. */
const NsValOutcome *
outcome (const NsValReport *r, const char *id)
{
  for (guint i = 0; i < r->outcomes->len; i++) {
    const NsValOutcome *o = r->outcomes->pdata[i];
    if (!strcmp (o->row->id, id))
      return o;
  }
  ck_abort_msg ("no outcome for %s", id);
  return NULL;
}

/* Copies the file at from to to; the test fails on a read or write error. */
static void
copy_file (const char *from, const char *to)
{
  g_autofree char *text = NULL;
  gsize len = 0;

  ck_assert_msg (g_file_get_contents (from, &text, &len, NULL), "read %s", from);
  ck_assert_msg (g_file_set_contents (to, text, (gssize) len, NULL), "write %s", to);
}

/* Copies the files of src (one level) into dst. */
static void
copy_dir (const char *src, const char *dst)
{
  GDir *d = g_dir_open (src, 0, NULL);
  const char *entry;

  ck_assert_msg (d != NULL, "open %s", src);
  g_mkdir_with_parents (dst, 0755);
  while ((entry = g_dir_read_name (d)) != NULL) {
    g_autofree char *a = g_build_filename (src, entry, NULL);
    g_autofree char *b = g_build_filename (dst, entry, NULL);
    if (g_file_test (a, G_FILE_TEST_IS_REGULAR))
      copy_file (a, b);
  }
  g_dir_close (d);
}

/* Removes dir and everything under it. */
void
remove_tree (const char *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *entry;

  while (d != NULL && (entry = g_dir_read_name (d)) != NULL) {
    g_autofree char *path = g_build_filename (dir, entry, NULL);
    if (g_file_test (path, G_FILE_TEST_IS_DIR))
      remove_tree (path);
    else
      g_unlink (path);
  }
  if (d != NULL)
    g_dir_close (d);
  g_rmdir (dir);
}

/* The folder holding every scratch directory of the tests Check forks from this process
 * (NULL outside scratch_base_setup): a forked test that fails exits at once, past its
 * remove_tree, and its directory goes with this folder. */
static char *scratch_base;

/* Unchecked fixture set-up (runs in Check's parent process): makes scratch_base. */
void
scratch_base_setup (void)
{
  scratch_base = g_dir_make_tmp ("netsim-validate-XXXXXX", NULL);
  ck_assert (scratch_base != NULL);
}

/* Unchecked fixture teardown: removes scratch_base with what failed tests left in it. */
void
scratch_base_teardown (void)
{
  if (scratch_base != NULL)
    remove_tree (scratch_base);
  g_clear_pointer (&scratch_base, g_free);
}

/* A new empty scratch directory: in scratch_base if there is one, else in the system's. */
static char *
scratch_new (void)
{
  char *dir;

  if (scratch_base == NULL)
    return g_dir_make_tmp ("netsim-validate-XXXXXX", NULL);
  dir = g_build_filename (scratch_base, "XXXXXX", NULL);
  if (g_mkdtemp (dir) == NULL)
    g_clear_pointer (&dir, g_free);
  return dir;
}

/* A scratch data directory: schemas, the generic profile, the call-chain scenario, the
 * validation schemas, and the fixture as <tmp>/fx. Sets NETSIM_DATADIR to it. */
char *
scratch_datadir (void)
{
  const char *src = g_getenv ("NETSIM_DATADIR") ? g_getenv ("NETSIM_DATADIR") : NS_SRCDIR;
  char *tmp = scratch_new ();
  g_autofree char *fixture = data_path ("validation");
  const char *const files[] = { "scenarios/scenario.rng", "scenarios/cpu.rng",
                                "scenarios/cpus/generic.xml", "scenarios/micro/call-chain.xml",
                                "validation/recorded.rng", "validation/cases.rng",
                                "validation/calibration.rng", NULL };

  ck_assert (tmp != NULL);
  for (guint i = 0; files[i]; i++) {
    g_autofree char *from = g_build_filename (src, files[i], NULL);
    g_autofree char *to = g_build_filename (tmp, files[i], NULL);
    g_autofree char *dir = g_path_get_dirname (to);
    g_mkdir_with_parents (dir, 0755);
    copy_file (from, to);
  }
  {
    g_autofree char *fx = g_build_filename (tmp, "fx", NULL);
    copy_dir (fixture, fx);
  }
  g_setenv ("NETSIM_DATADIR", tmp, TRUE);
  return tmp;
}

/* The value the call-chain scenario gives for variant with extra sets (child process). */
double
call_chain_value (const char *variant, const char *const *sets)
{
  g_autofree char *path = g_build_filename (ns_data_dir (), "scenarios/micro/call-chain.xml", NULL);
  GPtrArray *jobs = g_ptr_array_new_with_free_func ((GDestroyNotify) ns_val_job_free);
  NsValJob *job = ns_val_job_new (path, variant, sets);
  double value;

  g_ptr_array_add (jobs, job);
  ns_val_jobs_run (jobs, 1, NULL, NULL);
  ck_assert_msg (job->run != NULL, "%s: %s", variant, job->error ? job->error->message : "?");
  value = job->run->value;
  g_ptr_array_unref (jobs);
  return value;
}

/* Rewrites the baseline and patched figures of row id in the recorded file at path. */
void
set_figures (const char *path, const char *id, double baseline, double patched)
{
  g_autofree char *text = NULL, *pattern = NULL, *replacement = NULL, *edited = NULL;
  char b[G_ASCII_DTOSTR_BUF_SIZE], p[G_ASCII_DTOSTR_BUF_SIZE];
  g_autoptr (GRegex) re = NULL;

  ck_assert (g_file_get_contents (path, &text, NULL, NULL));
  pattern = g_strdup_printf ("(<row id=\"%s\"[^>]*>\\s*<baseline value=\")[^\"]*(\"[^>]*/>\\s*"
                             "<patched value=\")[^\"]*(\")", id);
  replacement = g_strdup_printf ("\\g<1>%s\\g<2>%s\\g<3>",
                                 g_ascii_formatd (b, sizeof b, "%.6f", baseline),
                                 g_ascii_formatd (p, sizeof p, "%.6f", patched));
  re = g_regex_new (pattern, 0, 0, NULL);
  edited = g_regex_replace (re, text, -1, 0, replacement, 0, NULL);
  ck_assert_msg (strcmp (edited, text) != 0, "row %s not rewritten", id);
  ck_assert (g_file_set_contents (path, edited, -1, NULL));
}

/* A scratch data directory whose fixture (<tmp>/fx) has live figures: 900-safe-ret = the
 * simulated ones, 900-unret = a delta 50 pp above the simulated one, 900-calib = the
 * figures at cpu.ipc = 2.0. Sets NETSIM_DATADIR; *fx is the fixture folder. */
char *
fixture_datadir (char **fx)
{
  char *tmp = scratch_datadir ();
  g_autofree char *seed = NULL;
  const char *const at2[] = { "param.cpu.ipc=2.0", NULL };
  double plain = call_chain_value ("plain-ret", NULL);
  double safe = call_chain_value ("srso-safe-ret", NULL);
  double unret = call_chain_value ("retbleed-unret", NULL);

  *fx = g_build_filename (tmp, "fx", NULL);
  seed = g_build_filename (*fx, "seed-900.xml", NULL);
  set_figures (seed, "900-safe-ret", plain, safe);
  set_figures (seed, "900-unret", plain, plain * (unret / plain + 0.5));
  set_figures (seed, "900-calib", call_chain_value ("plain-ret", at2),
               call_chain_value ("srso-safe-ret", at2));
  return tmp;
}

/* Replaces from by to (once) in the file at path. */
void
edit_file (const char *path, const char *from, const char *to)
{
  g_autofree char *text = NULL;
  GString *edited;

  ck_assert (g_file_get_contents (path, &text, NULL, NULL));
  edited = g_string_new (text);
  ck_assert_uint_eq (g_string_replace (edited, from, to, 1), 1);
  ck_assert (g_file_set_contents (path, edited->str, -1, NULL));
  g_string_free (edited, TRUE);
}

/* The fixture's call-chain scenario under tmp, with lines (XML) inserted before its
 * <workload>; returns its path. */
char *
scenario_with (const char *tmp, const char *lines)
{
  char *scenario = g_build_filename (tmp, "scenarios/micro/call-chain.xml", NULL);
  g_autofree char *to = g_strdup_printf ("%s\n  <workload", lines);

  edit_file (scenario, "<workload", to);
  return scenario;
}
