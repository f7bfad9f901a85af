/* test-coro.c — coroutines: ping-pong, many coroutines, deep stacks, state, FP control. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <fenv.h>
#include <signal.h>
#include <stdlib.h>

#include "coro.h"

#if defined(__x86_64__) || defined(__SSE__)
#include <xmmintrin.h>
#define HAVE_MXCSR 1
#define read_mxcsr() _mm_getcsr ()
#else
#define read_mxcsr() 0u
#endif

/* ---- ping-pong ---- */

typedef struct {
  GArray *log;     /* gint: +n from the coroutine, -n from the scheduler */
  NsCoro *self_seen;
} PingPong;

static void
ping_pong_body (gpointer data)
{
  PingPong *pp = data;
  gint i;
  double acc = 1.0;    /* lives across yields, likely in a callee-saved register */

  pp->self_seen = ns_coro_self ();
  for (i = 1; i <= 5; i++)
    {
      acc *= 2.0;
      g_array_append_val (pp->log, i);
      ns_coro_yield ();
    }
  ck_assert (acc == 32.0);
}

START_TEST (test_ping_pong)
{
  PingPong pp = { g_array_new (FALSE, FALSE, sizeof (gint)), NULL };
  NsCoro *c = ns_coro_new (ping_pong_body, &pp, 0);
  gint round = 0, i;

  ck_assert_ptr_nonnull (c);
  ck_assert_ptr_null (ns_coro_self ());
  ck_assert (!ns_coro_is_done (c));
  while (!ns_coro_is_done (c))
    {
      gint mark = -(++round);
      ns_coro_resume (c);
      ck_assert_ptr_null (ns_coro_self ());
      g_array_append_val (pp.log, mark);
    }
  ck_assert_ptr_eq (pp.self_seen, c);
  ck_assert_int_eq (round, 6);           /* five yields + the final return */
  ck_assert_uint_eq (pp.log->len, 11);
  for (i = 0; i < 5; i++)
    {
      ck_assert_int_eq (g_array_index (pp.log, gint, 2 * i), i + 1);
      ck_assert_int_eq (g_array_index (pp.log, gint, 2 * i + 1), -(i + 1));
    }
  ck_assert_int_eq (g_array_index (pp.log, gint, 10), -6);

  ns_coro_free (c);
  g_array_unref (pp.log);
}
END_TEST

/* ---- many coroutines, round-robin ---- */

#define N_COROS  2000
#define N_YIELDS 100

typedef struct {
  guint  id;
  guint  count;
  guint  checksum;
  guint *global_turn;
} Worker;

static void
worker_body (gpointer data)
{
  Worker *w = data;
  guint i;

  for (i = 0; i < N_YIELDS; i++)
    {
      /* every other worker ran exactly once since our last turn */
      ck_assert_uint_eq (*w->global_turn, i * N_COROS + w->id);
      (*w->global_turn)++;
      w->count++;
      w->checksum = w->checksum * 31 + w->id + i;
      ns_coro_yield ();
    }
}

START_TEST (test_many_round_robin)
{
  Worker *workers = g_new0 (Worker, N_COROS);
  NsCoro **coros = g_new0 (NsCoro *, N_COROS);
  guint turn = 0, i, round, alive = N_COROS;

  for (i = 0; i < N_COROS; i++)
    {
      workers[i].id = i;
      workers[i].global_turn = &turn;
      coros[i] = ns_coro_new (worker_body, &workers[i], 0);
      ck_assert_ptr_nonnull (coros[i]);
    }
  for (round = 0; alive > 0; round++)
    for (i = 0; i < N_COROS; i++)
      if (!ns_coro_is_done (coros[i]))
        {
          ns_coro_resume (coros[i]);
          if (ns_coro_is_done (coros[i]))
            alive--;
        }
  ck_assert_uint_eq (round, N_YIELDS + 1);
  ck_assert_uint_eq (turn, N_COROS * N_YIELDS);
  for (i = 0; i < N_COROS; i++)
    {
      guint expect = 0, k;
      for (k = 0; k < N_YIELDS; k++)
        expect = expect * 31 + i + k;
      ck_assert_uint_eq (workers[i].count, N_YIELDS);
      ck_assert_uint_eq (workers[i].checksum, expect);
      ns_coro_free (coros[i]);
    }
  g_free (coros);
  g_free (workers);
}
END_TEST

/* ---- deep recursion ---- */

static guint
recurse (guint depth, guint yield_at)
{
  volatile guint8 frame[1024];
  guint i, sum = 0;

  for (i = 0; i < sizeof frame; i++)
    frame[i] = (guint8) (depth + i);
  if (depth == yield_at)
    ns_coro_yield ();          /* suspend with a deep stack, resume, unwind */
  if (depth > 0)
    sum = recurse (depth - 1, yield_at);
  for (i = 0; i < sizeof frame; i++)
    sum += frame[i];
  return sum;
}

static void
deep_body (gpointer data)
{
  guint *out = data;
  *out = recurse (96, 1);      /* 97 frames of > 1 KiB: ~100 KiB of stack */
}

START_TEST (test_deep_recursion)
{
  guint got = 0, expect = 0, d, i;
  NsCoro *c = ns_coro_new (deep_body, &got, 0);

  for (d = 0; d <= 96; d++)
    for (i = 0; i < 1024; i++)
      expect += (guint8) (d + i);

  ns_coro_resume (c);
  ck_assert (!ns_coro_is_done (c));
  ns_coro_resume (c);
  ck_assert (ns_coro_is_done (c));
  ck_assert_uint_eq (got, expect);
  ns_coro_free (c);
}
END_TEST

/* ---- floating-point control state is per coroutine ---- */

typedef struct {
  gint  round[2];
  guint csr[3];
} FpSeen;

/* fesetround sets both the x87 control word (what fegetround reads back) and MXCSR (what
 * SSE arithmetic uses), so both are checked. */
static void
rounding_body (gpointer data)
{
  FpSeen *seen = data;

  fesetround (FE_UPWARD);
  seen->csr[0] = read_mxcsr ();
  ns_coro_yield ();
  seen->round[0] = fegetround ();
  seen->csr[1] = read_mxcsr ();
  ns_coro_yield ();
  seen->round[1] = fegetround ();
  seen->csr[2] = read_mxcsr ();
}

START_TEST (test_fp_control_saved)
{
  FpSeen seen = { { -1, -1 }, { 0, 0, 0 } };
  NsCoro *c = ns_coro_new (rounding_body, &seen, 0);
  guint csr_near, csr_down;

  fesetround (FE_TONEAREST);
  csr_near = read_mxcsr ();
  ns_coro_resume (c);
  ck_assert_int_eq (fegetround (), FE_TONEAREST);
  ck_assert_uint_eq (read_mxcsr (), csr_near);
  fesetround (FE_DOWNWARD);
  csr_down = read_mxcsr ();
  ns_coro_resume (c);
  ck_assert_int_eq (fegetround (), FE_DOWNWARD);
  ck_assert_uint_eq (read_mxcsr (), csr_down);
  ns_coro_resume (c);
  ck_assert (ns_coro_is_done (c));
  ck_assert_int_eq (seen.round[0], FE_UPWARD);
  ck_assert_int_eq (seen.round[1], FE_UPWARD);
  ck_assert_uint_eq (seen.csr[1], seen.csr[0]);
  ck_assert_uint_eq (seen.csr[2], seen.csr[0]);
#ifdef HAVE_MXCSR
  ck_assert_uint_ne (seen.csr[0], csr_near);
  ck_assert_uint_ne (csr_down, csr_near);
#endif
  ck_assert_int_eq (fegetround (), FE_DOWNWARD);
  fesetround (FE_TONEAREST);
  ns_coro_free (c);
}
END_TEST

/* ---- lifecycle ---- */

static void
empty_body (gpointer data)
{
  gint *ran = data;
  (*ran)++;
}

START_TEST (test_is_done_and_free)
{
  gint ran = 0;
  NsCoro *never = ns_coro_new (empty_body, &ran, 4096);
  NsCoro *once = ns_coro_new (empty_body, &ran, 0);
  NsCoro *suspended = ns_coro_new (ping_pong_body, NULL, 0);
  PingPong pp = { g_array_new (FALSE, FALSE, sizeof (gint)), NULL };

  ck_assert (!ns_coro_is_done (never));
  ns_coro_resume (once);
  ck_assert (ns_coro_is_done (once));
  ck_assert_int_eq (ran, 1);
  ns_coro_free (once);
  ns_coro_free (never);
  ck_assert_int_eq (ran, 1);

  ns_coro_free (suspended);
  suspended = ns_coro_new (ping_pong_body, &pp, 0);
  ns_coro_resume (suspended);            /* free while suspended mid-function */
  ck_assert (!ns_coro_is_done (suspended));
  ns_coro_free (suspended);
  ns_coro_free (NULL);
  g_array_unref (pp.log);
}
END_TEST

#ifndef NS_WITH_ASAN
/* Overflowing a coroutine's stack hits the guard page (SIGSEGV), not foreign memory. */
static guint
runaway (guint depth)
{
  volatile guint8 frame[4096];
  frame[0] = (guint8) depth;
  if (depth > 1000000)          /* never reached: the guard page stops us first */
    return 0;
  return runaway (depth + 1) + frame[0];
}

static void
overflow_body (gpointer data)
{
  *(guint *) data = runaway (0);
}

START_TEST (test_guard_page)
{
  guint sink = 0;
  NsCoro *c = ns_coro_new (overflow_body, &sink, 16 * 1024);
  ns_coro_resume (c);
  ck_abort_msg ("stack overflow was not caught");
}
END_TEST
#endif

static Suite *
coro_suite (void)
{
  Suite *s = suite_create ("coro");
  TCase *tc = tcase_create ("coro");

  tcase_add_test (tc, test_ping_pong);
  tcase_add_test (tc, test_many_round_robin);
  tcase_add_test (tc, test_deep_recursion);
  tcase_add_test (tc, test_fp_control_saved);
  tcase_add_test (tc, test_is_done_and_free);
  /* the guard page's SIGSEGV needs a forked test, and AddressSanitizer takes the signal:
   * say so when the test is left out, rather than pass one check fewer in silence */
#ifndef NS_WITH_ASAN
  if (g_strcmp0 (g_getenv ("CK_FORK"), "no") != 0)
    tcase_add_test_raise_signal (tc, test_guard_page, SIGSEGV);
  else
    fprintf (stderr, "coro: SKIP test_guard_page: CK_FORK=no (it needs a forked test)\n");
#else
  fprintf (stderr, "coro: SKIP test_guard_page: the AddressSanitizer build handles SIGSEGV "
           "itself\n");
#endif
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (coro_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
