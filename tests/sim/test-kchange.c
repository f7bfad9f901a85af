/* test-kchange.c — sim/kchange.c, the registry of kernel changes read from the release:
 * every entry is well formed (a 12-hex commit or none, a title and an effect, a mainline
 * release and stable releases the version code can order, each stable series older than
 * the mainline one and listed once), and ns_kernel_release_has follows it at each bound:
 * the mainline release has the change and the release candidate before it does not; each
 * stable release has it, the one before it in its series does not, and a later one does;
 * a reverted change is gone again from its revert's releases on. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include <check.h>
#include "kchange.h"

/* TRUE if s is 12 lowercase hex digits. */
static gboolean
is_commit (const char *s)
{
  if (strlen (s) != 12)
    return FALSE;
  for (const char *p = s; *p; p++)
    if (!g_ascii_isxdigit (*p) || g_ascii_isupper (*p))
      return FALSE;
  return TRUE;
}

/* A release of the same series as release ("6.1.93") at sublevel + delta ("6.1.92"). */
static char *
sublevel_step (const char *release, int delta)
{
  guint major, minor, sub;

  ck_assert_int_eq (sscanf (release, "%u.%u.%u", &major, &minor, &sub), 3);
  return g_strdup_printf ("%u.%u.%u", major, minor, (guint) ((int) sub + delta));
}

START_TEST (test_entries_well_formed)
{
  for (guint id = 0; id < NS_KCHANGE_COUNT; id++) {
    const NsKernelChangeInfo *c = ns_kernel_change_info (id);
    const char *const *st = c->releases.stables;

    ck_assert_ptr_nonnull (c);
    ck_assert_msg (c->commit == NULL || is_commit (c->commit), "%u: %s", id, c->commit);
    ck_assert_msg (c->title && *c->title && c->effect && *c->effect && c->evidence &&
                   *c->evidence, "%u", id);
    ck_assert_msg (ns_kernel_version_check (c->releases.mainline, NULL), "%u", id);
    for (guint i = 0; i < G_N_ELEMENTS (c->releases.stables) && st[i]; i++) {
      ck_assert_msg (ns_kernel_version_check (st[i], NULL), "%u: %s", id, st[i]);
      ck_assert_msg (ns_kernel_version_cmp (st[i], c->releases.mainline) < 0, "%u: %s",
                     id, st[i]);
      for (guint j = 0; j < i; j++)
        ck_assert_msg (ns_kernel_version_cmp (st[i], st[j]) != 0, "%u: %s twice", id, st[i]);
    }
    if (c->revert == NULL) {
      ck_assert_msg (c->reverted.mainline == NULL && c->reverted.stables[0] == NULL, "%u", id);
      continue;
    }
    ck_assert_msg (is_commit (c->revert) && strcmp (c->revert, c->commit) != 0, "%u", id);
    ck_assert_msg (ns_kernel_release_cmp (c->reverted.mainline, c->releases.mainline) > 0,
                   "%u: reverted before it went in", id);
  }
}
END_TEST

/* A reverted change at its revert's bounds: the revert's mainline release lacks it and
 * the release candidate before has it; each stable release with the revert lacks it, the
 * one before it has it; ns_kernel_release_reverted says which. */
static void
check_revert_bounds (NsKernelChangeId id)
{
  const NsKernelChangeInfo *c = ns_kernel_change_info (id);
  const char *const *st = c->reverted.stables;
  guint major, minor, rc;
  g_autofree char *prev = NULL;

  ck_assert_int_eq (sscanf (c->reverted.mainline, "%u.%u-rc%u", &major, &minor, &rc), 3);
  prev = g_strdup_printf ("%u.%u.0-rc%u", major, minor, rc - 1);
  ck_assert_msg (!ns_kernel_release_has (c->reverted.mainline, id), "%u", id);
  ck_assert_msg (ns_kernel_release_reverted (c->reverted.mainline, id), "%u", id);
  ck_assert_msg (ns_kernel_release_has (prev, id), "%u: %s", id, prev);
  ck_assert_msg (!ns_kernel_release_reverted (prev, id), "%u: %s", id, prev);
  for (guint i = 0; i < G_N_ELEMENTS (c->reverted.stables) && st[i]; i++) {
    g_autofree char *before = sublevel_step (st[i], -1);

    ck_assert_msg (!ns_kernel_release_has (st[i], id), "%u: %s", id, st[i]);
    ck_assert_msg (ns_kernel_release_has (before, id), "%u: %s", id, before);
  }
}

START_TEST (test_release_has_at_each_bound)
{
  for (guint id = 0; id < NS_KCHANGE_COUNT; id++) {
    const NsKernelChangeInfo *c = ns_kernel_change_info (id);
    const char *const *st = c->releases.stables;
    g_autofree char *rc0 = g_strconcat (c->releases.mainline, "-rc0", NULL);

    ck_assert_msg (ns_kernel_release_has (c->releases.mainline, id), "%u", id);
    if (strstr (c->releases.mainline, "-rc") == NULL) {
      ck_assert_msg (!ns_kernel_release_has (rc0, id), "%u: %s", id, rc0);
    } else {
      guint major, minor, rc;
      g_autofree char *prev = NULL;

      ck_assert_int_eq (sscanf (c->releases.mainline, "%u.%u-rc%u", &major, &minor, &rc), 3);
      prev = g_strdup_printf ("%u.%u.0-rc%u", major, minor, rc - 1);
      ck_assert_msg (!ns_kernel_release_has (prev, id), "%u: %s", id, prev);
    }
    for (guint i = 0; i < G_N_ELEMENTS (c->releases.stables) && st[i]; i++) {
      g_autofree char *before = sublevel_step (st[i], -1);
      g_autofree char *after = sublevel_step (st[i], 1);

      ck_assert_msg (ns_kernel_release_has (st[i], id), "%u: %s", id, st[i]);
      ck_assert_msg (!ns_kernel_release_has (before, id), "%u: %s", id, before);
      ck_assert_msg (ns_kernel_release_has (after, id), "%u: %s", id, after);
    }
    if (c->revert != NULL)
      check_revert_bounds (id);
  }
  /* 612b1c0dec5b: 6.10 to 6.12.4 and 6.13-rc1 run it; 6.12.5 and 6.13 have its revert */
  ck_assert (ns_kernel_release_has ("6.12.4", NS_KCHANGE_UDP_SKIP_DATA_READY));
  ck_assert (!ns_kernel_release_has ("6.12.5", NS_KCHANGE_UDP_SKIP_DATA_READY));
  ck_assert (!ns_kernel_release_has ("6.13", NS_KCHANGE_UDP_SKIP_DATA_READY));
  ck_assert (!ns_kernel_release_has ("6.9.12", NS_KCHANGE_UDP_SKIP_DATA_READY));
  ck_assert (!ns_kernel_release_reverted ("6.9.12", NS_KCHANGE_UDP_SKIP_DATA_READY));
  /* a series that never took it: 6.7.y and the BHI series */
  ck_assert (!ns_kernel_release_has ("6.7.12", NS_KCHANGE_X64_SYS_CALL));
  /* seed 000's kernel: the re-score, not yet the single site */
  ck_assert (ns_kernel_release_has ("6.9.0-rc1", NS_KCHANGE_UDP_RESCORE));
  ck_assert (!ns_kernel_release_has ("6.9.0-rc1", NS_KCHANGE_UDP_SINGLE_SCORE_SITE));
}
END_TEST

START_TEST (test_changes_between)
{
  static const NsKernelChangeId ids[] = {
    NS_KCHANGE_UDP_RESCORE, NS_KCHANGE_UDP_SINGLE_SCORE_SITE, NS_KCHANGE_X64_SYS_CALL,
    NS_KCHANGE_LSM_STATIC_CALLS, NS_KCHANGE_UDP_SHARED_REUSEPORT_LOOKUP,
  };
  g_autofree char *same = ns_kernel_changes_between ("6.9.0-rc1", "6.9.0-rc1", ids,
                                                     G_N_ELEMENTS (ids));
  g_autofree char *stable = ns_kernel_changes_between ("6.9.0-rc1", "6.1.93", ids,
                                                       G_N_ELEMENTS (ids));
  g_autofree char *old = ns_kernel_changes_between ("6.9.0-rc1", "5.10.100", ids,
                                                    G_N_ELEMENTS (ids));
  g_autofree char *both = ns_kernel_changes_between ("6.9.0-rc1", "6.12", ids, 4);

  ck_assert_ptr_null (same);
  /* 6.1.93 took seed 000's fix and the BHI series' dispatch: two it has, none it lacks */
  ck_assert_str_eq (stable, "has 50aee97d1511 (udp: Avoid call to compute_score on "
                    "multiple sites), 1e3ad78334a6 (x86/syscall: Don't force use of "
                    "indirect calls for system calls)");
  /* 5.10.100 predates the re-score and the shared lookup (no commit: its title) */
  ck_assert_str_eq (old, "lacks f0ea27e7bfe1 (udp: re-score reuseport groups when connected "
                    "sockets are present), net: export inet_lookup_reuseport and "
                    "inet6_lookup_reuseport; net: remove duplicate reuseport_lookup functions");
  ck_assert (g_str_has_prefix (both, "has 50aee97d1511"));
  ck_assert (strstr (both, "417c5643cd67") != NULL);
  ck_assert (strstr (both, "lacks") == NULL);
}
END_TEST

static Suite *
kchange_suite (void)
{
  Suite *s = suite_create ("kchange");
  TCase *tc = tcase_create ("registry");

  tcase_add_test (tc, test_entries_well_formed);
  tcase_add_test (tc, test_release_has_at_each_bound);
  tcase_add_test (tc, test_changes_between);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (kchange_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
