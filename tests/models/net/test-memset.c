/* test-memset.c — the x86-64 memset model (models/net/memset.c) against the kernel's
 * arch/x86/lib/memset_64.S by release: v6.1-v6.3 jump to memset_erms on an ERMS CPU;
 * from 20f3337d350c (v6.4-rc1) __memset runs its own rep stosb on a CPU the kernel marks
 * FSRS (its CPUID's bit, or an AMD CPU with FSRM from e046fe5a36a9) and jumps to
 * memset_orig on any other. The instruction counts are the census's
 * (doc/census/seed000/residue.md for memset_orig over an aligned multiple of 8, 6.12.118's
 * memset for the FSRS body, pktgen.md for memset_erms), written out here. */
#include "config.h"
#include "memset.h"
#include "stack-rig.h"

/* The FSRS body's instructions: the patched-out jmp, three moves, the rep stosb, the
 * result. memset_erms's: the jmp, then 7 less P/E 2. */
#define FSRS_INSNS 6
#define ERMS_INSNS 6

static NS_FUNC (fn_test_memset, "memset", 51, 0, NS_FN_EXTERN, 5000);

typedef struct {
  NsMemsetPath path;
  gint         misalign;   /* the area this far past a 64-byte boundary of the arena;
                              -1: none (an uncharged stack buffer) */
  gsize        n;
  gpointer     p;          /* set by run_one */
} Call;

/* One memset as the call says. */
static void
memset_body (NsThread *t, gpointer data)
{
  const Call *c = data;

  ns_memset (t, &fn_test_memset, c->path, c->p, c->n);
}

/* Registry defaults but x86.fsrs and x86.fsrm as given. */
static NsParams *
params_with (gboolean fsrs, gboolean fsrm)
{
  const char *const sets[] = { "x86.fsrs", fsrs ? "true" : "false",
                               "x86.fsrm", fsrm ? "true" : "false", NULL };

  return stack_rig_params (sets);
}

/* The body each release and CPU gets: memset_erms up to v6.3 whatever the CPU (the kernel
 * tests ERMS there); from v6.4 the FSRS body on a CPU whose CPUID enumerates FSRS, or on
 * an AMD CPU with FSRM (init_amd marks it, e046fe5a36a9), memset_orig on any other: an
 * Intel or unnamed CPU with FSRM alone, an AMD CPU without FSRM. */
START_TEST (test_path_by_release_and_cpu)
{
  static const struct {
    guint features;
    gboolean fsrs, fsrm;
    NsMemsetPath v6_3, v6_4;
  } cpus[] = {
    { NS_CPU_INTEL, TRUE, TRUE, NS_MEMSET_ERMS, NS_MEMSET_FSRS },
    { NS_CPU_INTEL, FALSE, TRUE, NS_MEMSET_ERMS, NS_MEMSET_ORIG },
    { NS_CPU_INTEL, FALSE, FALSE, NS_MEMSET_ERMS, NS_MEMSET_ORIG },
    { NS_CPU_AMD, FALSE, TRUE, NS_MEMSET_ERMS, NS_MEMSET_FSRS },
    { NS_CPU_AMD, FALSE, FALSE, NS_MEMSET_ERMS, NS_MEMSET_ORIG },
    { 0, FALSE, TRUE, NS_MEMSET_ERMS, NS_MEMSET_ORIG },
    { 0, TRUE, FALSE, NS_MEMSET_ERMS, NS_MEMSET_FSRS },
  };
  static const struct { const char *version; gboolean v6_4; } releases[] = {
    { "6.1.0", FALSE }, { "6.3.13", FALSE }, { "6.4.0-rc1", TRUE }, { "6.9.0", TRUE },
    { "6.12.118", TRUE },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cpus); c++) {
    NsParams *params = params_with (cpus[c].fsrs, cpus[c].fsrm);

    for (guint i = 0; i < G_N_ELEMENTS (releases); i++) {
      NsBuild *build = ns_build_new (releases[i].version, 60);
      NsMemsetPath want = releases[i].v6_4 ? cpus[c].v6_4 : cpus[c].v6_3;

      ck_assert_msg (ns_memset_path (build, params, cpus[c].features) == want,
                     "%s, CPU case %u", releases[i].version, c);
      ns_build_free (build);
    }
    ns_params_free (params);
  }
}
END_TEST

/* Instructions (cause insn events) and memset_erms / memset_orig calls one memset makes;
 * with seen non-NULL, a copy of the area's 64 bytes before and after, filled with 0xa5
 * first. */
static void
run_one (Call *c, guint64 *insns, guint64 *erms, guint64 *orig, guint8 *seen)
{
  StackRig s;
  guint8 *area = NULL;

  stack_rig_init_machine (&s, "6.9.0", NULL, NULL, NULL);
  if (c->misalign >= 0) {
    area = ns_arena_alloc (ns_machine_arena (s.machine), 256, 64);
    memset (area, 0xa5, 256);
  }
  c->p = area ? area + c->misalign : NULL;
  stack_rig_run (&s, 0, memset_body, c);
  if (seen != NULL)
    memcpy (seen, area, 64);
  *insns = ns_machine_account_events (s.machine, NS_CAUSE_INSN);
  *erms = stack_rig_calls (&s, "memset_erms");
  *orig = stack_rig_calls (&s, "memset_orig");
  stack_rig_clear (&s);
}

/* Each body's instructions and calls: the FSRS body none, memset_erms and memset_orig one
 * tail call each; memset_orig over 24 aligned bytes counts the census's 30 and the jmp,
 * over 200 bytes 3 rounds and 1 long, over 2 bytes 2 past a boundary its byte loop. */
START_TEST (test_bodies)
{
  struct { Call call; guint64 insns, erms, orig; } cases[] = {
    { { NS_MEMSET_FSRS, -1, 24, NULL }, FSRS_INSNS, 0, 0 },
    { { NS_MEMSET_ERMS, -1, 24, NULL }, ERMS_INSNS, 1, 0 },
    { { NS_MEMSET_ORIG, -1, 24, NULL }, 1 + 30, 0, 1 },
    /* 10 + (2 + 3 x 11) + 3 + (2 + 4) + 2 + 1 */
    { { NS_MEMSET_ORIG, 0, 200, NULL }, 1 + 57, 0, 1 },
    /* 7 + 2 (n <= 7) + 2 + 2 x 4 + 1 */
    { { NS_MEMSET_ORIG, 2, 2, NULL }, 1 + 20, 0, 1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    guint64 insns, erms, orig;

    run_one (&cases[i].call, &insns, &erms, &orig, NULL);
    ck_assert_msg (insns == cases[i].insns, "case %u: %" G_GUINT64_FORMAT " instructions, "
                   "wanted %" G_GUINT64_FORMAT, i, insns, cases[i].insns);
    ck_assert_uint_eq (erms, cases[i].erms);
    ck_assert_uint_eq (orig, cases[i].orig);
  }
}
END_TEST

/* Each body zeroes the bytes of an area it is given, and only those. */
START_TEST (test_zeroes_the_bytes)
{
  static const NsMemsetPath paths[] = { NS_MEMSET_ERMS, NS_MEMSET_FSRS, NS_MEMSET_ORIG };

  for (guint k = 0; k < G_N_ELEMENTS (paths); k++) {
    Call c = { paths[k], 8, 16, NULL };
    guint64 insns, erms, orig;
    guint8 seen[64];

    run_one (&c, &insns, &erms, &orig, seen);
    for (guint i = 0; i < sizeof seen; i++)
      ck_assert_uint_eq (seen[i], i >= 8 && i < 24 ? 0 : 0xa5);
  }
}
END_TEST

static Suite *
memset_suite (void)
{
  Suite *s = suite_create ("memset");
  TCase *tc = tcase_create ("memset");

  tcase_add_test (tc, test_path_by_release_and_cpu);
  tcase_add_test (tc, test_bodies);
  tcase_add_test (tc, test_zeroes_the_bytes);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (memset_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
