/* test-usercopy.c — the x86-64 user copy model (models/net/usercopy.c) against the
 * kernel's copy_user_generic by release and CPU: before v6.4 a call of
 * copy_user_enhanced_fast_string, whose short-copy test an FSRM CPU patches out from
 * 244122b4d2e5 (v5.17-rc1); from 577e6a7fd50d (v6.4-rc1) an inline rep movsb on FSRM and
 * a call of rep_movs_alternative elsewhere, whose copies of 64 bytes and more are one
 * rep movsb from 47ee3f1dd93b (v6.4-rc4) and an unrolled loop before. The instruction
 * counts are written out here from the disassembly of the Debian 6.1.176 and 6.12.118
 * binaries (copy_user_enhanced_fast_string, copy_user_short_string,
 * rep_movs_alternative, _copy_from_user's inline copy). */
#include "config.h"
#include "usercopy.h"
#include "stack-rig.h"

typedef struct {
  NsCopyUserPath path;
  gsize          n;
} Copy;

/* One copy as c says. */
static void
copy_body (NsThread *t, gpointer data)
{
  const Copy *c = data;

  ns_copy_user (t, c->path, c->n);
}

/* Registry defaults but x86.fsrm as given and, where rep is not NULL, both REP string
 * start-ups (x86.rep_short_cycles and x86.rep_long_cycles) at rep cycles. */
static NsParams *
params_with (gboolean fsrm, const char *rep)
{
  const char *const plain[] = { "x86.fsrm", fsrm ? "true" : "false", NULL };
  const char *const with_rep[] = { "x86.fsrm", fsrm ? "true" : "false",
                                   "x86.rep_short_cycles", rep, "x86.rep_long_cycles", rep,
                                   NULL };

  return stack_rig_params (rep != NULL ? with_rep : plain);
}

/* The copy each release and CPU gets: the short test up to v5.16 on any CPU and up to
 * v6.3 without FSRM; the inline rep movsb from v6.4 with it; rep_movs_alternative's
 * unrolled loop on 6.4-rc1 to rc3 without, its rep movsb from rc4. */
START_TEST (test_path_by_release_and_cpu)
{
  static const struct { const char *version; NsCopyUserPath with, without; } cases[] = {
    { "5.15.0", NS_COPY_USER_EFS_SHORT, NS_COPY_USER_EFS_SHORT },
    { "5.17.0-rc1", NS_COPY_USER_EFS, NS_COPY_USER_EFS_SHORT },
    { "6.1.0", NS_COPY_USER_EFS, NS_COPY_USER_EFS_SHORT },
    { "6.3.13", NS_COPY_USER_EFS, NS_COPY_USER_EFS_SHORT },
    { "6.4.0-rc1", NS_COPY_USER_INLINE, NS_COPY_USER_UNROLLED },
    { "6.4.0-rc3", NS_COPY_USER_INLINE, NS_COPY_USER_UNROLLED },
    { "6.4.0-rc4", NS_COPY_USER_INLINE, NS_COPY_USER_ALTERNATIVE },
    { "6.9.0-rc1", NS_COPY_USER_INLINE, NS_COPY_USER_ALTERNATIVE },
    { "6.12.118", NS_COPY_USER_INLINE, NS_COPY_USER_ALTERNATIVE },
  };
  NsParams *fsrm = params_with (TRUE, NULL), *plain = params_with (FALSE, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    NsBuild *build = ns_build_new (cases[i].version, 60);

    ck_assert_msg (ns_copy_user_path (build, fsrm) == cases[i].with, "%s with FSRM",
                   cases[i].version);
    ck_assert_msg (ns_copy_user_path (build, plain) == cases[i].without,
                   "%s without FSRM", cases[i].version);
    ns_build_free (build);
  }
  ns_params_free (fsrm);
  ns_params_free (plain);
}
END_TEST

/* Runs c on a bare 6.9 machine of params (taken); instructions counted (cause insn
 * events), calls of the three routines, and the cycles of cause insn in all. */
static void
run_one (NsParams *params, Copy *c, guint64 *insns, guint64 calls[3], double *cycles)
{
  static const char *const routines[] = {
    "copy_user_enhanced_fast_string", "copy_user_short_string", "rep_movs_alternative"
  };
  StackRig s;

  stack_rig_init_machine_with (&s, "6.9.0", params);
  stack_rig_run (&s, 0, copy_body, c);
  *insns = ns_machine_account_events (s.machine, NS_CAUSE_INSN);
  *cycles = ns_machine_account_cycles (s.machine, NULL, NS_CAUSE_INSN);
  for (guint i = 0; i < 3; i++) {
    NsFunc *fn = ns_func_lookup (routines[i]);

    calls[i] = stack_rig_calls (&s, routines[i]);
    if (fn != NULL)
      *cycles += ns_machine_account_cycles (s.machine, fn, NS_CAUSE_INSN);
  }
  stack_rig_clear (&s);
}

/* Each path's instructions and routine calls by size, from the binaries:
 *   inline: STAC, mov, rep movsb, its NOP pad, CLAC;
 *   copy_user_enhanced_fast_string: STAC, NOP (FSRM) or cmp+jb, mov, rep movsb, xor,
 *   CLAC; under 64 bytes without FSRM, STAC, cmp and copy_user_short_string: 4, 6 a
 *   quadword, 2, 1 + 6 a byte of a tail, xor, CLAC;
 *   rep_movs_alternative (between STAC and CLAC; its endbr64 is its frame, charged with
 *   the call, not counted here): cmp+jae; from 64 bytes rep movsb; under 8 cmp+jae,
 *   test+je, 6 a byte; else cmp+jae, 8 a quadword but the last's 6 (its je taken) where
 *   no tail follows, and for a tail jmp, 6 a byte; unrolled (6.4-rc1..rc3): 21 a 64-byte
 *   round, cmp+jae, then as under 64. */
START_TEST (test_instructions_and_calls)
{
  static const struct {
    Copy copy;
    guint64 insns, efs, short_string, alternative;
  } cases[] = {
    { { NS_COPY_USER_INLINE, 16 }, 5, 0, 0, 0 },
    { { NS_COPY_USER_INLINE, 8920 }, 5, 0, 0, 0 },
    { { NS_COPY_USER_EFS, 16 }, 6, 1, 0, 0 },
    { { NS_COPY_USER_EFS_SHORT, 100 }, 7, 1, 0, 0 },
    { { NS_COPY_USER_EFS_SHORT, 16 }, 2 + 4 + 2 * 6 + 2 + 2, 1, 1, 0 },
    { { NS_COPY_USER_EFS_SHORT, 13 }, 2 + 4 + 6 + 2 + 1 + 5 * 6 + 2, 1, 1, 0 },
    { { NS_COPY_USER_ALTERNATIVE, 8920 }, 2 + 2 + 1, 0, 0, 1 },
    { { NS_COPY_USER_ALTERNATIVE, 16 }, 2 + 2 + 2 + (8 + 6), 0, 0, 1 },
    { { NS_COPY_USER_ALTERNATIVE, 13 }, 2 + 2 + 2 + (6 + 2 + 1 + 5 * 6), 0, 0, 1 },
    { { NS_COPY_USER_ALTERNATIVE, 5 }, 2 + 2 + 2 + 2 + 5 * 6, 0, 0, 1 },
    { { NS_COPY_USER_UNROLLED, 200 }, 2 + 2 + 3 * 21 + 2 + 6, 0, 0, 1 },
    { { NS_COPY_USER_UNROLLED, 8920 }, 2 + 2 + 139 * 21 + 2 + (8 + 8 + 6), 0, 0, 1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    Copy c = cases[i].copy;
    guint64 insns, calls[3];
    double cycles;

    run_one (params_with (TRUE, NULL), &c, &insns, calls, &cycles);
    ck_assert_msg (insns == cases[i].insns, "case %u: %" G_GUINT64_FORMAT " instructions, "
                   "wanted %" G_GUINT64_FORMAT, i, insns, cases[i].insns);
    ck_assert_uint_eq (calls[0], cases[i].efs);
    ck_assert_uint_eq (calls[1], cases[i].short_string);
    ck_assert_uint_eq (calls[2], cases[i].alternative);
  }
}
END_TEST

/* A REP string's start-up is paid where a rep movsb runs: the inline copy,
 * copy_user_enhanced_fast_string's (under 64 bytes only with FSRM) and
 * rep_movs_alternative's from 64 bytes, not the loops of either under 64 bytes. */
START_TEST (test_rep_startup_where_rep_runs)
{
  static const struct { Copy copy; gboolean rep; } cases[] = {
    { { NS_COPY_USER_INLINE, 16 }, TRUE },
    { { NS_COPY_USER_EFS, 16 }, TRUE },
    { { NS_COPY_USER_EFS_SHORT, 16 }, FALSE },
    { { NS_COPY_USER_EFS_SHORT, 64 }, TRUE },
    { { NS_COPY_USER_ALTERNATIVE, 16 }, FALSE },
    { { NS_COPY_USER_ALTERNATIVE, 63 }, FALSE },
    { { NS_COPY_USER_ALTERNATIVE, 64 }, TRUE },
    { { NS_COPY_USER_UNROLLED, 64 }, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    Copy c = cases[i].copy;
    guint64 insns, calls[3];
    double base, slow;

    run_one (params_with (TRUE, "0"), &c, &insns, calls, &base);
    run_one (params_with (TRUE, "150"), &c, &insns, calls, &slow);
    ck_assert_msg ((slow - base > 149.0) == cases[i].rep, "case %u: %g more", i,
                   slow - base);
  }
}
END_TEST

static Suite *
usercopy_suite (void)
{
  Suite *s = suite_create ("usercopy");
  TCase *tc = tcase_create ("usercopy");

  tcase_add_test (tc, test_path_by_release_and_cpu);
  tcase_add_test (tc, test_instructions_and_calls);
  tcase_add_test (tc, test_rep_startup_where_rep_runs);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (usercopy_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
