/* test-kconfig.c — kernel config packages: the shipped one loads with its file's values;
 * names resolve through the data directory; a .config as make writes it loads as one;
 * bad packages and .config files fail with file:line. */
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

/* Checks error: an input error starting with prefix and containing needle; frees it. */
static void
assert_input_error (GError *error, const char *prefix, const char *needle)
{
  ck_assert_ptr_nonnull (error);
  ck_assert_int_eq (error->domain, NS_ERROR);
  ck_assert_int_eq (error->code, NS_ERROR_INPUT);
  ck_assert_msg (g_str_has_prefix (error->message, prefix), "want %s…, got: %s", prefix,
                 error->message);
  ck_assert_msg (strstr (error->message, needle) != NULL, "want '%s' in: %s", needle,
                 error->message);
  g_error_free (error);
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
  prefix = g_strdup_printf ("%s:%d:", path, line);
  assert_input_error (error, prefix, needle);
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
  /* v6.1's preemption choice defaults to PREEMPT_NONE under PREEMPT_DYNAMIC; IBT's
   * def_bool y came in v6.2 */
  ck_assert_str_eq (ns_kconfig_package_get (defaults, "CONFIG_PREEMPT_VOLUNTARY"), "n");
  ck_assert_str_eq (ns_kconfig_package_get (defaults, "CONFIG_PREEMPT_RCU"), "y");
  ck_assert_str_eq (ns_kconfig_package_get (defaults, "CONFIG_X86_KERNEL_IBT"), "n");
  /* what distributions set on seed 000's path, none of it a Kconfig default */
  ck_assert_str_eq (ns_kconfig_package_get (defaults, "CONFIG_MEMCG"), "n");
  ck_assert_str_eq (ns_kconfig_package_get (defaults, "CONFIG_SECURITY"), "n");
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

/* Writes text as <tmp>/<file> and loads it; the package (or NULL and *error), the file's
 * path in *path_out; the file is removed. */
static NsKconfigPackage *
load_file (const char *file, const char *text, gssize length, char **path_out,
           GError **error)
{
  g_autofree char *dir = g_dir_make_tmp ("netsim-kconfig-XXXXXX", NULL);
  char *path = g_build_filename (dir, file, NULL);
  NsKconfigPackage *package;

  ck_assert (g_file_set_contents (path, text, length, NULL));
  package = ns_kconfig_package_load (path, error);
  g_unlink (path);
  g_rmdir (dir);
  *path_out = path;
  return package;
}

#define DOTCONFIG_HEAD                                                         \
  "#\n"                                                                       \
  "# Automatically generated file; DO NOT EDIT.\n"                            \
  "# Linux/x86 6.12.95 Kernel Configuration\n"                                \
  "#\n"

/* A .config as make writes it loads as a package named by its file: the header's
 * version, "is not set" as n, a tristate's m, a string's quotes and escapes undone, in
 * file order; comments and blank lines skipped. */
START_TEST (test_dotconfig_loads)
{
  static const char text[] =
    DOTCONFIG_HEAD
    "CONFIG_CC_VERSION_TEXT=\"gcc-12 (Debian \\\"12.2\\\") 12.2.0\"\n"
    "\n"
    "#\n# Networking options\n#\n"
    "CONFIG_NET_CLS_MATCHALL=m\n"
    "# CONFIG_SLAB_FREELIST_RANDOM is not set\n"
    "CONFIG_NR_CPUS=8192\n";
  g_autofree char *path = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (NsKconfigPackage) p = load_file ("config-6.12.95-amd64", text, -1, &path, &error);
  const char *const *names;

  ck_assert_msg (p != NULL, "%s", error ? error->message : "?");
  ck_assert_str_eq (ns_kconfig_package_name (p), "config-6.12.95-amd64");
  ck_assert_str_eq (ns_kconfig_package_kernel (p), "6.12.95");
  ck_assert_str_eq (ns_kconfig_package_path (p), path);
  ck_assert_str_eq (ns_kconfig_package_get (p, "CONFIG_CC_VERSION_TEXT"),
                    "gcc-12 (Debian \"12.2\") 12.2.0");
  ck_assert_str_eq (ns_kconfig_package_get (p, "CONFIG_NET_CLS_MATCHALL"), "m");
  ck_assert_str_eq (ns_kconfig_package_get (p, "CONFIG_SLAB_FREELIST_RANDOM"), "n");
  ck_assert_str_eq (ns_kconfig_package_get (p, "CONFIG_NR_CPUS"), "8192");
  ck_assert_ptr_null (ns_kconfig_package_get (p, "CONFIG_NET"));
  names = ns_kconfig_package_names (p);
  ck_assert_str_eq (names[0], "CONFIG_CC_VERSION_TEXT");
  ck_assert_str_eq (names[3], "CONFIG_NR_CPUS");
  ck_assert_ptr_null (names[4]);
}
END_TEST

/* Comments that only look like the header or an unset option are comments: a header needs
 * both its "# Linux/" and its " Kernel Configuration" (the first header is the kernel's),
 * an unset option both its "# CONFIG_" and its " is not set"; a second byte of 0x8b is not
 * gzip's magic without its first. The package frees (NULL too). */
START_TEST (test_dotconfig_near_misses)
{
  static const char text[] =
    "#\x8b not gzip\n"
    "# Linux/x86 9.9.9 kernel build\n"
    "# My 9.8.7 Kernel Configuration\n"
    DOTCONFIG_HEAD
    "# CONFIG_X86 is the architecture's\n"
    "# MEMCG is not set\n"
    "CONFIG_MEMCG=y\n";
  g_autofree char *path = NULL;
  g_autoptr (GError) error = NULL;
  NsKconfigPackage *p = load_file ("config-near", text, -1, &path, &error);

  ck_assert_msg (p != NULL, "%s", error ? error->message : "?");
  ck_assert_str_eq (ns_kconfig_package_kernel (p), "6.12.95");
  ck_assert_str_eq (ns_kconfig_package_names (p)[0], "CONFIG_MEMCG");
  ck_assert_ptr_null (ns_kconfig_package_names (p)[1]);
  ns_kconfig_package_free (p);
  ns_kconfig_package_free (NULL);
}
END_TEST

/* A file whose name does not end in .xml but whose text is XML is read as a package. */
START_TEST (test_dotconfig_sniffs_xml)
{
  g_autofree char *text = package_text ("mine", "  <option name=\"CONFIG_MEMCG\" value=\"n\"/>\n");
  g_autofree char *path = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (NsKconfigPackage) p = load_file ("mine", text, -1, &path, &error);

  ck_assert_msg (p != NULL, "%s", error ? error->message : "?");
  ck_assert_str_eq (ns_kconfig_package_kernel (p), "6.1.176");
  ck_assert_str_eq (ns_kconfig_package_get (p, "CONFIG_MEMCG"), "n");
}
END_TEST

/* Loads a bad .config (length bytes of text, -1: up to its NUL) and checks the error: an
 * input error starting path:line (line 0: "path: ") and containing needle. */
static void
assert_dotconfig_refused (const char *text, gssize length, int line, const char *needle)
{
  g_autofree char *path = NULL;
  g_autofree char *prefix = NULL;
  GError *error = NULL;
  NsKconfigPackage *package = load_file ("config-bad", text, length, &path, &error);

  ck_assert_msg (package == NULL, "bad .config loaded: %s", text);
  prefix = line ? g_strdup_printf ("%s:%d: ", path, line) : g_strdup_printf ("%s: ", path);
  assert_input_error (error, prefix, needle);
}

/* Bad .config files: each refused at the line at fault, the whole file with a reason. */
START_TEST (test_dotconfig_refused)
{
  assert_dotconfig_refused ("CONFIG_MEMCG=y\n", -1, 1, "no '# Linux/ARCH VERSION Kernel");
  assert_dotconfig_refused (DOTCONFIG_HEAD "CONFIG_MEMCG=y\nmemcg on\n", -1, 6,
                            "not a .config line");
  assert_dotconfig_refused (DOTCONFIG_HEAD "MEMCG=y\n", -1, 5, "not a .config line");
  assert_dotconfig_refused (DOTCONFIG_HEAD "CONFIG_MEM-CG=y\n", -1, 5, "not a .config line");
  assert_dotconfig_refused (DOTCONFIG_HEAD "CONFIG_=y\n", -1, 5, "not a .config line");
  assert_dotconfig_refused (DOTCONFIG_HEAD "CONFIG_MEMCG=y\n\n# CONFIG_MEMCG is not set\n",
                            -1, 7, "CONFIG_MEMCG is given twice (first on line 5)");
  assert_dotconfig_refused (DOTCONFIG_HEAD "CONFIG_SLAB_FREELIST_RANDOM=m\n", -1, 5,
                            "a bool option");
  assert_dotconfig_refused (DOTCONFIG_HEAD "CONFIG_LOCALVERSION=\"-mine\n", -1, 5,
                            "closing quote");
  assert_dotconfig_refused (DOTCONFIG_HEAD "CONFIG_LOCALVERSION=\"a\" b\n", -1, 5,
                            "closing quote");
  assert_dotconfig_refused ("# Linux/x86 six Kernel Configuration\n", -1, 0,
                            "the header's kernel version");
  assert_dotconfig_refused (DOTCONFIG_HEAD "CONFIG_MEMCG=y\n\0\n", sizeof DOTCONFIG_HEAD + 16,
                            0, "not a text file");
  assert_dotconfig_refused ("\x1f\x8b\x08\0\0\0", 6, 0, "gzip-compressed");
  assert_dotconfig_refused ("\x1f\x8b", 2, 0, "gzip-compressed");   /* the magic alone */
  assert_dotconfig_refused ("\xfd" "7zXZ\0\0\x04", 7, 0, "xz-compressed");
  assert_dotconfig_refused ("\xfd" "7zXZ\0", 6, 0, "xz-compressed");
  assert_dotconfig_refused ("#abcd\0", 6, 0, "not a text file");      /* xz's NUL only */
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
  tcase_add_test (tc, test_dotconfig_loads);
  tcase_add_test (tc, test_dotconfig_near_misses);
  tcase_add_test (tc, test_dotconfig_sniffs_xml);
  tcase_add_test (tc, test_dotconfig_refused);
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
