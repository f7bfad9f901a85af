/* test-common.c — what an NS_ERROR carries beside its message: the parameters its raiser
 * named, kept through copying and propagation, replaced by a second naming, absent on
 * errors that named none or belong to another domain; ns_find_files walks each folder
 * once, whatever links lead back to it. */
#include "config.h"

#include <check.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "common.h"

/* error names exactly want (NULL-terminated), in order. */
static void
assert_params (const GError *error, const char *const *want)
{
  const char *const *got = ns_error_get_params (error);

  ck_assert_ptr_nonnull (got);
  ck_assert_uint_eq (g_strv_length ((char **) got), g_strv_length ((char **) want));
  for (guint i = 0; want[i] != NULL; i++)
    ck_assert_str_eq (got[i], want[i]);
}

/* The names set are the names got, through g_error_copy and g_propagate_error. */
START_TEST (test_params_kept)
{
  static const char *const want[] = { "cpu.sockets", "cpu.cores_per_ccx", NULL };
  GError *raised = NULL, *caught = NULL, *copy;

  g_set_error (&raised, NS_ERROR, NS_ERROR_INPUT, "too big");
  ns_error_set_params (&raised, "cpu.sockets", "cpu.cores_per_ccx", NULL);
  assert_params (raised, want);
  g_propagate_error (&caught, raised);
  copy = g_error_copy (caught);
  g_error_free (caught);                 /* the copy owns its own names */
  assert_params (copy, want);
  g_error_free (copy);
}
END_TEST

/* A second naming replaces the first (no names are lost to a leak checker either). */
START_TEST (test_params_replaced)
{
  static const char *const want[] = { "cache.policy", NULL };
  GError *error = g_error_new (NS_ERROR, NS_ERROR_INPUT, "bad");

  ns_error_set_params (&error, "cache.l1d.size_kib", "cache.l1d.assoc", NULL);
  ns_error_set_params (&error, "cache.policy", NULL);
  assert_params (error, want);
  g_error_free (error);
}
END_TEST

/* No names: an NS_ERROR nobody named parameters on, another domain's error, and a
 * naming with nowhere to go (error NULL, as g_prefix_error allows). */
START_TEST (test_params_absent)
{
  GError *plain = g_error_new (NS_ERROR, NS_ERROR_IO, "cannot read");
  GError *other = g_error_new (G_FILE_ERROR, G_FILE_ERROR_NOENT, "elsewhere");

  ck_assert_ptr_null (ns_error_get_params (plain));
  ck_assert_ptr_null (ns_error_get_params (other));
  ns_error_set_params (NULL, "cpu.ipc", NULL);
  g_error_free (plain);
  g_error_free (other);
}
END_TEST

/* Same seed and stream, same value; another seed, another; 1000 streams, 1000 values. */
START_TEST (test_derive_seed)
{
  GHashTable *seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  ck_assert_uint_eq (ns_derive_seed (7, 3), ns_derive_seed (7, 3));
  ck_assert_uint_ne (ns_derive_seed (7, 3), ns_derive_seed (8, 3));
  for (guint64 stream = 0; stream < 1000; stream++) {
    gint64 *s = g_new (gint64, 1);
    *s = (gint64) ns_derive_seed (1, stream);
    ck_assert (!g_hash_table_contains (seen, s));
    g_hash_table_add (seen, s);
  }
  g_hash_table_unref (seen);
}
END_TEST

/* ns_strv_append: a new list with the item last, the given list untouched, NULL as empty. */
START_TEST (test_strv_append)
{
  const char *const list[] = { "a=1", "b=2", NULL };
  g_auto (GStrv) out = ns_strv_append (list, "seed=3");
  g_auto (GStrv) alone = ns_strv_append (NULL, "x");

  ck_assert_uint_eq (g_strv_length (out), 3);
  ck_assert_str_eq (out[0], "a=1");
  ck_assert_str_eq (out[2], "seed=3");
  ck_assert_ptr_null (list[2]);
  ck_assert_uint_eq (g_strv_length (alone), 1);
  ck_assert_str_eq (alone[0], "x");
}
END_TEST

/* ns_str_distance: Levenshtein's, symmetric, 0 only for equal strings. */
START_TEST (test_str_distance)
{
  ck_assert_uint_eq (ns_str_distance ("kitten", "sitting"), 3);
  ck_assert_uint_eq (ns_str_distance ("sitting", "kitten"), 3);
  ck_assert_uint_eq (ns_str_distance ("", "abc"), 3);
  ck_assert_uint_eq (ns_str_distance ("abc", ""), 3);
  ck_assert_uint_eq (ns_str_distance ("cpu.ipc", "cpu.ipc"), 0);
  ck_assert_uint_eq (ns_str_distance ("latency_cycle", "latency_cycles"), 1);
  ck_assert_uint_eq (ns_str_distance ("latancy", "latency"), 1);
  ck_assert_uint_eq (ns_str_distance ("ab", "ba"), 2);
}
END_TEST

/* Writes an empty file at dir/name (name may hold folders, made as needed). */
static void
touch (const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *folder = g_path_get_dirname (path);

  ck_assert_int_eq (g_mkdir_with_parents (folder, 0755), 0);
  ck_assert (g_file_set_contents (path, "", 0, NULL));
}

/* Makes dir/name a symbolic link to target. */
static void
link_to (const char *target, const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  ck_assert_int_eq (symlink (target, path), 0);
}

/* Removes path and, for a real folder, what is in it; a link is removed, not followed. */
static void
remove_tree (const char *path)
{
  GDir *d = g_file_test (path, G_FILE_TEST_IS_SYMLINK) ? NULL : g_dir_open (path, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL) {
    g_autofree char *child = g_build_filename (path, name, NULL);
    remove_tree (child);
  }
  if (d != NULL)
    g_dir_close (d);
  g_remove (path);
}

/* ns_find_files walks each folder once: a link back up (a loop) is not walked again, a
 * second name of a folder (alias -> sub) adds nothing, a link to a folder outside the
 * tree is walked; no folder skip names is entered; only names with the suffix; sorted. */
START_TEST (test_find_files_once)
{
  g_autofree char *tmp = g_dir_make_tmp ("netsim-find-XXXXXX", NULL);
  g_autofree char *top = g_build_filename (tmp, "top", NULL);
  g_autofree char *outside = g_build_filename (tmp, "outside", NULL);
  const char *const want[] = { "a.xml", "ext/e.xml", "sub/b.xml", "sub/deeper/c.xml" };
  const char *const skip[] = { "cpus", "configs", NULL };
  g_autoptr (GPtrArray) found = NULL;

  ck_assert_ptr_nonnull (tmp);
  touch (top, "a.xml");
  touch (top, "notes.txt");
  touch (top, "sub/b.xml");
  touch (top, "sub/deeper/c.xml");
  touch (top, "cpus/generic.xml");
  touch (top, "sub/configs/distro.xml");
  touch (outside, "e.xml");
  link_to ("..", top, "sub/loop");
  link_to ("../..", top, "sub/deeper/up");
  link_to ("sub", top, "alias");
  link_to (outside, top, "ext");
  link_to ("nowhere", top, "dangling");
  found = ns_find_files (top, ".xml", skip);
  ck_assert_uint_eq (found->len, G_N_ELEMENTS (want));
  for (guint i = 0; i < found->len; i++) {
    g_autofree char *path = g_build_filename (top, want[i], NULL);
    ck_assert_str_eq (found->pdata[i], path);
  }
  remove_tree (tmp);
}
END_TEST

/* ns_find_files on a folder that does not exist finds nothing. */
START_TEST (test_find_files_none)
{
  g_autoptr (GPtrArray) found = ns_find_files ("/nonexistent/netsim", ".xml", NULL);

  ck_assert_uint_eq (found->len, 0);
}
END_TEST

static Suite *
common_suite (void)
{
  Suite *s = suite_create ("common");
  TCase *tc = tcase_create ("core");

  tcase_add_test (tc, test_derive_seed);
  tcase_add_test (tc, test_strv_append);
  tcase_add_test (tc, test_str_distance);
  tcase_add_test (tc, test_params_kept);
  tcase_add_test (tc, test_params_replaced);
  tcase_add_test (tc, test_params_absent);
  tcase_add_test (tc, test_find_files_once);
  tcase_add_test (tc, test_find_files_none);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (common_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
