/* test-patches.c — the table of kernel patches (models/patches.c) and what applying one
 * records on a build:
 * - udp-compute-score-single-site (50aee97d1511, "udp: Avoid call to compute_score on
 *   multiple sites", v6.10): the patch flag the UDP model reads (ns_build_has_patch; the
 *   lookup generation it selects is test-udp.c's) and one compute_score call site for
 *   IPv4 and IPv6, so the build's inlining rules (doc/model.md: a static function with
 *   one call site is folded into its caller) inline the 216-byte compute_score, which
 *   with the 6.9-rc1 tree's two call sites stays out of line (over
 *   build.inline_limit_bytes);
 * - revert-udp-rescore (revert of f0ea27e7bfe1, v6.6): its flag and one call site;
 * - names are unique, each patch has its commit, description and apply, find returns it;
 *   an unknown name is not found, and a scenario naming one is refused with an error at
 *   its <kernel> element's line that names it. */
#include "config.h"
#include <check.h>
#include "micro-run.h"
#include "workload.h"
#include "net/udp.h"

/* A 6.9-rc1 build at the registry's inline limit with patch (NULL: none) applied. */
static NsBuild *
build_with (const char *patch)
{
  NsBuild *b = ns_build_new ("6.9.0-rc1", 60);

  if (patch != NULL) {
    const NsPatch *p = ns_patch_find (patch);
    ck_assert_msg (p != NULL, "no patch %s", patch);
    p->apply (b);
  }
  return b;
}

/* Unpatched: two compute_score call sites each family, out of line, no patch flag. */
START_TEST (test_unpatched_build)
{
  NsBuild *b = build_with (NULL);

  ck_assert (!ns_build_has_patch (b, "udp-compute-score-single-site"));
  ck_assert_uint_eq (ns_build_call_sites (b, &udp_fn_compute_score), 2);
  ck_assert_uint_eq (ns_build_call_sites (b, &udp6_fn_compute_score), 2);
  ck_assert (!ns_build_inlines (b, &udp_fn_compute_score, NULL));
  ns_build_free (b);
}
END_TEST

/* The seed patch: its flag, one call site each family, compute_score inlined. */
START_TEST (test_seed_patch_applied)
{
  NsBuild *b = build_with ("udp-compute-score-single-site");

  ck_assert (ns_build_has_patch (b, "udp-compute-score-single-site"));
  ck_assert (!ns_build_has_patch (b, "revert-udp-rescore"));
  ck_assert_uint_eq (ns_build_call_sites (b, &udp_fn_compute_score), 1);
  ck_assert_uint_eq (ns_build_call_sites (b, &udp6_fn_compute_score), 1);
  ck_assert (ns_build_inlines (b, &udp_fn_compute_score, NULL));
  ck_assert (ns_build_inlines (b, &udp6_fn_compute_score, NULL));
  ck_assert_str_eq (ns_patch_find ("udp-compute-score-single-site")->commit, "50aee97d1511");
  ns_build_free (b);
}
END_TEST

/* The revert of the re-score: its flag (not the seed patch's), one call site. */
START_TEST (test_revert_applied)
{
  NsBuild *b = build_with ("revert-udp-rescore");

  ck_assert (ns_build_has_patch (b, "revert-udp-rescore"));
  ck_assert (!ns_build_has_patch (b, "udp-compute-score-single-site"));
  ck_assert_uint_eq (ns_build_call_sites (b, &udp_fn_compute_score), 1);
  ck_assert_uint_eq (ns_build_call_sites (b, &udp6_fn_compute_score), 1);
  ns_build_free (b);
}
END_TEST

/* Unique names, each with commit, description and apply, found by its name. */
START_TEST (test_table_complete)
{
  const NsPatch *const *patches = ns_patches ();
  GHashTable *names = g_hash_table_new (g_str_hash, g_str_equal);
  guint n = 0;

  for (; patches[n]; n++) {
    const NsPatch *p = patches[n];
    ck_assert_msg (g_hash_table_add (names, (gpointer) p->name), "%s twice", p->name);
    ck_assert (p->commit && *p->commit && p->description && *p->description && p->apply);
    ck_assert_ptr_eq (ns_patch_find (p->name), p);
  }
  ck_assert_uint_ge (n, 6);
  g_hash_table_unref (names);
}
END_TEST

/* An unknown patch is not found, and a run naming it is refused at <kernel>'s line. */
START_TEST (test_unknown_patch_refused)
{
  static const char *const sets[] = { "kernel.patch.name=no-such-patch", NULL };

  ck_assert_ptr_null (ns_patch_find ("no-such-patch"));
  ck_assert_ptr_null (ns_patch_find ("udp-compute-score"));
  micro_assert_refused ("udp-lookup.xml", sets, 13, "unknown patch 'no-such-patch'");
}
END_TEST

static Suite *
patches_suite (void)
{
  Suite *s = suite_create ("patches");
  TCase *tc = tcase_create ("core");

  tcase_add_test (tc, test_unpatched_build);
  tcase_add_test (tc, test_seed_patch_applied);
  tcase_add_test (tc, test_revert_applied);
  tcase_add_test (tc, test_table_complete);
  tcase_add_test (tc, test_unknown_patch_refused);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (patches_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
