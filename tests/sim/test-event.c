/* test-event.c — the event queue pops in (time, seq) order, cancels exactly, peeks right. */
#include "config.h"

#include <check.h>
#include <stdlib.h>

#include "event.h"

#define N_RANDOM 100000

typedef struct {
  NsTime  when;
  guint64 seq;
  guint   id;
} RefEvent;

static int
ref_compare (const void *pa, const void *pb)
{
  const RefEvent *a = pa, *b = pb;

  if (a->when != b->when)
    return a->when < b->when ? -1 : 1;
  if (a->seq != b->seq)
    return a->seq < b->seq ? -1 : 1;
  return 0;
}

static void
noop (gpointer data)
{
  (void) data;
}

/* Pushes n random events (times drawn from a small range so ties are common); fills ref. */
static void
push_random (NsEventQueue *q, GRand *rng, RefEvent *ref, guint n)
{
  guint i;

  for (i = 0; i < n; i++)
    {
      ref[i].when = g_rand_int_range (rng, 0, 5000);
      ref[i].id = i;
      ref[i].seq = ns_event_queue_push (q, ref[i].when, noop, GUINT_TO_POINTER (i));
    }
}

START_TEST (test_random_order)
{
  NsEventQueue *q = ns_event_queue_new ();
  GRand *rng = g_rand_new_with_seed (12345);
  RefEvent *ref = g_new (RefEvent, N_RANDOM);
  guint i;

  push_random (q, rng, ref, N_RANDOM);
  ck_assert_uint_eq (ns_event_queue_length (q), N_RANDOM);
  for (i = 1; i < N_RANDOM; i++)
    ck_assert_uint_gt (ref[i].seq, ref[i - 1].seq);

  qsort (ref, N_RANDOM, sizeof *ref, ref_compare);
  for (i = 0; i < N_RANDOM; i++)
    {
      NsTime peeked = -1, when = -1;
      NsEventFunc fn = NULL;
      gpointer data = NULL;

      ck_assert (ns_event_queue_peek (q, &peeked));
      ck_assert (ns_event_queue_pop (q, &when, &fn, &data));
      ck_assert_int_eq (peeked, when);
      ck_assert_int_eq (when, ref[i].when);
      ck_assert_uint_eq (GPOINTER_TO_UINT (data), ref[i].id);
      ck_assert (fn == noop);
    }
  ck_assert_uint_eq (ns_event_queue_length (q), 0);

  g_free (ref);
  g_rand_free (rng);
  ns_event_queue_free (q);
}
END_TEST

/* Interleaves pushes and pops: popped times never go below the last popped time unless a
 * smaller one was pushed after it, and the multiset popped equals the multiset pushed. */
START_TEST (test_interleaved)
{
  NsEventQueue *q = ns_event_queue_new ();
  GRand *rng = g_rand_new_with_seed (777);
  GArray *shadow = g_array_new (FALSE, FALSE, sizeof (RefEvent));
  guint step;

  for (step = 0; step < 20000; step++)
    {
      if (shadow->len == 0 || g_rand_int_range (rng, 0, 3) != 0)
        {
          RefEvent e = { g_rand_int_range (rng, 0, 1000), 0, step };
          e.seq = ns_event_queue_push (q, e.when, noop, GUINT_TO_POINTER (step));
          g_array_append_val (shadow, e);
        }
      else
        {
          guint i, best = 0;
          NsTime when;
          gpointer data;
          RefEvent *items = (RefEvent *) (void *) shadow->data;

          for (i = 1; i < shadow->len; i++)
            if (ref_compare (&items[i], &items[best]) < 0)
              best = i;
          ck_assert (ns_event_queue_pop (q, &when, NULL, &data));
          ck_assert_int_eq (when, items[best].when);
          ck_assert_uint_eq (GPOINTER_TO_UINT (data), items[best].id);
          g_array_remove_index_fast (shadow, best);
        }
      ck_assert_uint_eq (ns_event_queue_length (q), shadow->len);
    }

  g_array_unref (shadow);
  g_rand_free (rng);
  ns_event_queue_free (q);
}
END_TEST

START_TEST (test_equal_times_fifo)
{
  NsEventQueue *q = ns_event_queue_new ();
  guint i;

  for (i = 0; i < 1000; i++)
    ns_event_queue_push (q, (i % 2) ? 42 : 7, noop, GUINT_TO_POINTER (i));
  for (i = 0; i < 1000; i++)
    {
      NsTime when;
      gpointer data;
      guint expect = i < 500 ? 2 * i : 2 * (i - 500) + 1;

      ck_assert (ns_event_queue_pop (q, &when, NULL, &data));
      ck_assert_int_eq (when, i < 500 ? 7 : 42);
      ck_assert_uint_eq (GPOINTER_TO_UINT (data), expect);
    }
  ns_event_queue_free (q);
}
END_TEST

START_TEST (test_cancel_exact)
{
  NsEventQueue *q = ns_event_queue_new ();
  GRand *rng = g_rand_new_with_seed (4242);
  RefEvent *ref = g_new (RefEvent, N_RANDOM);
  gboolean *cancelled = g_new0 (gboolean, N_RANDOM);
  guint i, n_cancelled = 0, n_popped = 0;
  NsTime last = G_MININT64;

  push_random (q, rng, ref, N_RANDOM);
  for (i = 0; i < N_RANDOM; i++)
    if (g_rand_int_range (rng, 0, 4) == 0)
      {
        ck_assert (ns_event_queue_cancel (q, ref[i].seq));
        ck_assert (!ns_event_queue_cancel (q, ref[i].seq));   /* twice: FALSE */
        cancelled[i] = TRUE;
        n_cancelled++;
      }
  ck_assert_uint_eq (ns_event_queue_length (q), N_RANDOM - n_cancelled);

  for (;;)
    {
      NsTime peeked, when;
      gpointer data;
      guint id;

      if (!ns_event_queue_peek (q, &peeked))
        break;
      ck_assert (ns_event_queue_pop (q, &when, NULL, &data));
      ck_assert_int_eq (peeked, when);
      ck_assert_int_ge (when, last);
      last = when;
      id = GPOINTER_TO_UINT (data);
      ck_assert_msg (!cancelled[id], "cancelled event %u popped", id);
      ck_assert (!ns_event_queue_cancel (q, ref[id].seq));      /* already fired: FALSE */
      cancelled[id] = TRUE;                                     /* mark as seen */
      n_popped++;
    }
  ck_assert_uint_eq (n_popped, N_RANDOM - n_cancelled);
  for (i = 0; i < N_RANDOM; i++)
    ck_assert (cancelled[i]);

  g_free (cancelled);
  g_free (ref);
  g_rand_free (rng);
  ns_event_queue_free (q);
}
END_TEST

/* A seq whose slot was reused by a later event must not cancel the later one. */
START_TEST (test_cancel_stale_seq)
{
  NsEventQueue *q = ns_event_queue_new ();
  guint64 a, b;
  NsTime when;

  a = ns_event_queue_push (q, 10, noop, NULL);
  ck_assert (ns_event_queue_pop (q, &when, NULL, NULL));
  b = ns_event_queue_push (q, 20, noop, NULL);
  ck_assert_uint_ne (a, b);
  ck_assert_uint_gt (b, a);
  ck_assert (!ns_event_queue_cancel (q, a));
  ck_assert_uint_eq (ns_event_queue_length (q), 1);
  ck_assert (!ns_event_queue_cancel (q, 0));
  ck_assert (!ns_event_queue_cancel (q, G_MAXUINT64));
  ck_assert (ns_event_queue_cancel (q, b));
  ck_assert_uint_eq (ns_event_queue_length (q), 0);
  ns_event_queue_free (q);
}
END_TEST

START_TEST (test_empty)
{
  NsEventQueue *q = ns_event_queue_new ();
  NsTime when = 99;
  NsEventFunc fn = noop;
  gpointer data = q;
  guint64 seq;

  ck_assert (!ns_event_queue_peek (q, &when));
  ck_assert (!ns_event_queue_pop (q, &when, &fn, &data));
  ck_assert_int_eq (when, 99);
  ck_assert (fn == noop && data == q);
  ck_assert_uint_eq (ns_event_queue_length (q), 0);

  seq = ns_event_queue_push (q, 5, noop, NULL);
  ck_assert_uint_ne (seq, 0);
  ck_assert (ns_event_queue_cancel (q, seq));
  ck_assert (!ns_event_queue_peek (q, NULL));
  ck_assert (!ns_event_queue_pop (q, NULL, NULL, NULL));
  ns_event_queue_free (q);
  ns_event_queue_free (NULL);
}
END_TEST

static Suite *
event_suite (void)
{
  Suite *s = suite_create ("event");
  TCase *tc = tcase_create ("queue");

  tcase_add_test (tc, test_random_order);
  tcase_add_test (tc, test_interleaved);
  tcase_add_test (tc, test_equal_times_fifo);
  tcase_add_test (tc, test_cancel_exact);
  tcase_add_test (tc, test_cancel_stale_seq);
  tcase_add_test (tc, test_empty);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (event_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
