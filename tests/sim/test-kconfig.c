/* test-kconfig.c — kernel config packages: the shipped one loads with its file's values;
 * names resolve through the data directory; bad packages fail with file:line. */
#include "config.h"
#include <check.h>
#include <string.h>
#include <glib/gstdio.h>
#include "common.h"
#include "kconfig.h"

#define DEBIAN "debian-6.1.0-50-cloud-amd64"

/* A package file: name attribute, then the body lines (line 4 onwards). */
static char *
package_text (const char *name, const char *body)
{
  return g_strdup_printf (
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<kconfig name=\"%s\" kernel=\"6.1.176\">\n"
    "  <description>test</description><source>test: a .config</source>\n"
    "%s"
    "</kconfig>\n", name, body);
}

/* Writes text as <tmp>/<stem>.xml and loads it; the package (or NULL and *error). The
 * file's path is stored in *path_out; the file is removed. */
static NsKconfigPackage *
load_text (const char *stem, const char *text, char **path_out, GError **error)
{
  g_autofree char *dir = g_dir_make_tmp ("netsim-kconfig-XXXXXX", NULL);
  g_autofree char *file = g_strconcat (stem, ".xml", NULL);
  char *path = g_build_filename (dir, file, NULL);
  NsKconfigPackage *package;

  ck_assert (g_file_set_contents (path, text, -1, NULL));
  package = ns_kconfig_package_load (path, error);
  g_unlink (path);
  g_rmdir (dir);
  *path_out = path;
  return package;
}

/* Loads a bad package body under name stem and checks the error: an input error at
 * path:line containing needle. */
static void
assert_refused (const char *stem, const char *name, const char *body, int line,
                const char *needle)
{
  g_autofree char *text = package_text (name, body);
  g_autofree char *path = NULL;
  g_autofree char *prefix = NULL;
  GError *error = NULL;
  NsKconfigPackage *package = load_text (stem, text, &path, &error);

  ck_assert_msg (package == NULL, "bad package loaded: %s", body);
  ck_assert_int_eq (error->domain, NS_ERROR);
  ck_assert_int_eq (error->code, NS_ERROR_INPUT);
  prefix = g_strdup_printf ("%s:%d:", path, line);
  ck_assert_msg (g_str_has_prefix (error->message, prefix), "want %s…, got: %s", prefix,
                 error->message);
  ck_assert_msg (strstr (error->message, needle) != NULL, "want '%s' in: %s", needle,
                 error->message);
  g_error_free (error);
}

/* The shipped Debian package: its file's values (allocation zeroing and the slab shuffle
 * on, tc as modules, IBT "is not set"), in file order, found by name and listed. */
START_TEST (test_shipped_debian)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (NsKconfigPackage) p = ns_kconfig_package_load (DEBIAN, &error);
  g_autoptr (GPtrArray) names = ns_kconfig_package_list ();
  const char *const *keys, *const *values;
  guint n = 0;

  ck_assert_msg (p != NULL, "%s", error ? error->message : "?");
  ck_assert_str_eq (ns_kconfig_package_name (p), DEBIAN);
  ck_assert_str_eq (ns_kconfig_package_kernel (p), "6.1.176");
  ck_assert_str_eq (ns_kconfig_package_get (p, "CONFIG_INIT_ON_ALLOC_DEFAULT_ON"), "y");
  ck_assert_str_eq (ns_kconfig_package_get (p, "CONFIG_SLAB_FREELIST_RANDOM"), "y");
  ck_assert_str_eq (ns_kconfig_package_get (p, "CONFIG_NET_CLS_MATCHALL"), "m");
  ck_assert_str_eq (ns_kconfig_package_get (p, "CONFIG_X86_KERNEL_IBT"), "n");
  ck_assert_ptr_null (ns_kconfig_package_get (p, "CONFIG_MITIGATION_RETPOLINE"));
  keys = ns_kconfig_package_names (p);
  values = ns_kconfig_package_values (p);
  for (; keys[n] != NULL; n++)
    ck_assert_str_eq (ns_kconfig_package_get (p, keys[n]), values[n]);
  ck_assert_ptr_null (values[n]);
  ck_assert_uint_gt (n, 40);
  ck_assert_str_eq (keys[0], "CONFIG_BPF_LSM");
  ck_assert (g_ptr_array_find_with_equal_func (names, DEBIAN, g_str_equal, NULL));
}
END_TEST

/* Every shipped package loads (both of them), and Kconfig's defaults are what seed 002's
 * scenarios assume: no slab shuffle, no allocation zeroing. */
START_TEST (test_shipped_all_load)
{
  g_autoptr (GPtrArray) names = ns_kconfig_package_list ();
  g_autoptr (NsKconfigPackage) defaults = NULL;

  ck_assert_uint_ge (names->len, 2);
  for (guint i = 0; i < names->len; i++) {
    g_autoptr (GError) error = NULL;
    g_autoptr (NsKconfigPackage) p = ns_kconfig_package_load (names->pdata[i], &error);
    ck_assert_msg (p != NULL, "%s", error ? error->message : "?");
  }
  defaults = ns_kconfig_package_load ("kconfig-defaults-6.1", NULL);
  ck_assert_ptr_nonnull (defaults);
  ck_assert_str_eq (ns_kconfig_package_get (defaults, "CONFIG_SLAB_FREELIST_RANDOM"), "n");
  ck_assert_str_eq (ns_kconfig_package_get (defaults, "CONFIG_INIT_ON_ALLOC_DEFAULT_ON"), "n");
}
END_TEST

/* An unknown name is an input error that lists the shipped packages. */
START_TEST (test_unknown_name_lists_available)
{
  GError *error = NULL;

  ck_assert_ptr_null (ns_kconfig_package_load ("debian-9", &error));
  ck_assert_int_eq (error->code, NS_ERROR_INPUT);
  ck_assert_msg (strstr (error->message, "unknown kernel config package 'debian-9'") &&
                 strstr (error->message, DEBIAN), "%s", error->message);
  g_error_free (error);
}
END_TEST

/* A package given by path loads under its own name. */
START_TEST (test_load_by_path)
{
  g_autofree char *text = package_text ("mine", "  <option name=\"CONFIG_MEMCG\" value=\"n\"/>\n");
  g_autofree char *path = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (NsKconfigPackage) p = load_text ("mine", text, &path, &error);

  ck_assert_msg (p != NULL, "%s", error ? error->message : "?");
  ck_assert_str_eq (ns_kconfig_package_name (p), "mine");
  ck_assert_str_eq (ns_kconfig_package_get (p, "CONFIG_MEMCG"), "n");
  ck_assert_str_eq (ns_kconfig_package_path (p), path);
}
END_TEST

/* Bad packages: each refused at the line at fault. */
START_TEST (test_bad_packages)
{
  assert_refused ("stem", "other", "  <option name=\"CONFIG_MEMCG\" value=\"y\"/>\n", 2,
                  "must equal the file name without .xml ('stem')");
  assert_refused ("twice", "twice",
                  "  <option name=\"CONFIG_MEMCG\" value=\"y\"/>\n"
                  "  <option name=\"CONFIG_MEMCG\" value=\"n\"/>\n", 5,
                  "CONFIG_MEMCG is given twice (first on line 4)");
  assert_refused ("boolm", "boolm",
                  "  <option name=\"CONFIG_SLAB_FREELIST_RANDOM\" value=\"m\"/>\n", 4,
                  "a bool option");
  assert_refused ("noopt", "noopt", "", 2, "option");
  assert_refused ("badname", "badname", "  <option name=\"MEMCG\" value=\"y\"/>\n", 4,
                  "CONFIG_");
  assert_refused ("quoted", "quoted",
                  "  <option name=\"CONFIG_MEMCG\" value=\"y y\"/>\n", 4, "value");
}
END_TEST

static Suite *
kconfig_suite (void)
{
  Suite *s = suite_create ("kconfig");
  TCase *tc = tcase_create ("core");

  tcase_add_test (tc, test_shipped_debian);
  tcase_add_test (tc, test_shipped_all_load);
  tcase_add_test (tc, test_unknown_name_lists_available);
  tcase_add_test (tc, test_load_by_path);
  tcase_add_test (tc, test_bad_packages);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (kconfig_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
