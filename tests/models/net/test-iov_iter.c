/* test-iov_iter.c — lib/iov_iter.c's user copies (models/net/iov_iter.c) on an ITER_UBUF
 * iterator: each a call of _copy_from_iter or _copy_to_iter with its 42 body
 * instructions (the 6.9 census: 59 less 16 of prologue and return, less the copy's call),
 * the user copy its path makes (usercopy.c), and the bytes charged by bandwidth. */
#include "config.h"
#include "iov_iter.h"
#include "stack-rig.h"

#define BODY_INSNS 42

typedef struct {
  gboolean       to_user;
  NsCopyUserPath path;
  gsize          n;
  guchar        *kbuf, *ubuf;   /* set by run_one, in the machine's arena */
} Copy;

/* One copy as c says. */
static void
copy_body (NsThread *t, gpointer data)
{
  const Copy *c = data;

  if (c->to_user)
    ns_copy_to_iter (t, c->path, c->ubuf, c->kbuf, c->n);
  else
    ns_copy_from_iter (t, c->path, c->kbuf, c->ubuf, c->n);
}

/* Runs c on a bare 6.9 machine of the registry defaults: instructions (cause insn
 * events), calls of the direction's function and of copy_user_enhanced_fast_string,
 * and the cycles the direction's function was charged for cause copy. */
static void
run_one (Copy *c, guint64 *insns, guint64 *iter_calls, guint64 *efs_calls, double *copy)
{
  const char *name = c->to_user ? "_copy_to_iter" : "_copy_from_iter";
  StackRig s;

  stack_rig_init_machine (&s, "6.9.0", NULL, NULL, NULL);
  c->kbuf = ns_arena_alloc (ns_machine_arena (s.machine), c->n, 64);
  c->ubuf = ns_arena_alloc (ns_machine_arena (s.machine), c->n, 64);
  stack_rig_run (&s, 0, copy_body, c);
  *insns = ns_machine_account_events (s.machine, NS_CAUSE_INSN);
  *iter_calls = stack_rig_calls (&s, name);
  *efs_calls = stack_rig_calls (&s, "copy_user_enhanced_fast_string");
  *copy = ns_machine_account_cycles (s.machine, ns_func_lookup (name), NS_CAUSE_COPY);
  stack_rig_clear (&s);
}

/* Either direction: one call, the body's instructions and the copy's (the inline rep movsb
 * 5, copy_user_enhanced_fast_string's 6 with FSRM from its own call), none of the other
 * direction's function. */
START_TEST (test_calls_and_instructions)
{
  static const struct { NsCopyUserPath path; guint64 copy_insns, efs; } paths[] = {
    { NS_COPY_USER_INLINE, 5, 0 },
    { NS_COPY_USER_EFS, 6, 1 },
  };

  for (guint dir = 0; dir < 2; dir++)
    for (guint i = 0; i < G_N_ELEMENTS (paths); i++) {
      Copy c = { dir == 1, paths[i].path, 8920, NULL, NULL };
      guint64 insns, iter_calls, efs_calls;
      double copy;

      run_one (&c, &insns, &iter_calls, &efs_calls, &copy);
      ck_assert_msg (insns == BODY_INSNS + paths[i].copy_insns,
                     "direction %u path %u: %" G_GUINT64_FORMAT " instructions", dir, i,
                     insns);
      ck_assert_uint_eq (iter_calls, 1);
      ck_assert_uint_eq (efs_calls, paths[i].efs);
      ck_assert (copy > 0.0);
    }
}
END_TEST

/* The bytes are charged by bandwidth: a copy of 8920 bytes costs more than one of 64, by
 * about the ratio of their lines (from the same level, the same rate a byte). */
START_TEST (test_bytes_charged_by_size)
{
  for (guint dir = 0; dir < 2; dir++) {
    Copy small = { dir == 1, NS_COPY_USER_INLINE, 64, NULL, NULL };
    Copy big = { dir == 1, NS_COPY_USER_INLINE, 8960, NULL, NULL };
    guint64 insns, iter_calls, efs_calls;
    double small_copy, big_copy;

    run_one (&small, &insns, &iter_calls, &efs_calls, &small_copy);
    run_one (&big, &insns, &iter_calls, &efs_calls, &big_copy);
    ck_assert_msg (small_copy > 0.0 && big_copy > 100.0 * small_copy,
                   "direction %u: %g cycles for 64 bytes, %g for 8960", dir, small_copy,
                   big_copy);
  }
}
END_TEST

static Suite *
iov_iter_suite (void)
{
  Suite *s = suite_create ("iov_iter");
  TCase *tc = tcase_create ("iov_iter");

  tcase_add_test (tc, test_calls_and_instructions);
  tcase_add_test (tc, test_bytes_charged_by_size);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (iov_iter_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
