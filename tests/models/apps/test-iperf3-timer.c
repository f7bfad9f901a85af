/* test-iperf3-timer.c — iperf3's timer list (models/apps/iperf3-timer.c) against the
 * rules of iperf3 3.x src/timer.c and src/iperf_time.c:
 *  - list_add keeps the list sorted by due time and links a timer in before the first one
 *    due strictly later, so timers due at the same time stay in creation order;
 *  - tmr_run runs, in list order, every timer whose due time is not after now (an
 *    iperf_time_compare of each with now, and one more for the first timer not due),
 *    re-inserts each periodic one usecs later by list_resort (list_remove, then list_add
 *    from the head: one iperf_time_compare with the head, then one per node walked until
 *    the first timer due strictly later), and moves each one-shot one to the free list;
 *    it follows each timer's next pointer as it was before the timer ran, so a periodic
 *    timer re-inserted behind it can run again in the same call;
 *  - tmr_create takes the free list's first timer before it allocates a new one;
 *  - tmr_timeout is the head's due time; iperf_time is whole microseconds.
 * Expected orders and compare counts are worked out here from those rules. */
#include "config.h"
#include "../net/stack-rig.h"
#include "apps/iperf3-timer.h"

#define MAX_TIMERS 80

typedef struct {
  IperfTimers *l;
  guint        runs[MAX_TIMERS];   /* proc calls per timer index */
  guint        order[MAX_TIMERS];  /* the order procs ran in */
  guint        n_run;
} Timers;

typedef struct {
  Timers *tt;
  guint   index;
} Slot;

static Slot slots[MAX_TIMERS];

/* A timer proc that records which timer ran. */
static void
record_proc (NsThread *t, gpointer client_data, NsTime now)
{
  Slot *slot = client_data;

  (void) t;
  (void) now;
  slot->tt->runs[slot->index]++;
  slot->tt->order[slot->tt->n_run++] = slot->index;
}

/* Timer index i's slot (client data) for tt. */
static Slot *
slot_of (Timers *tt, guint i)
{
  slots[i].tt = tt;
  slots[i].index = i;
  return &slots[i];
}

/* The list's timers, head first, as slot indices (-1 for a timer without a slot). */
static guint
list_indices (IperfTimers *l, gint *out)
{
  guint n = 0;

  for (IperfTimer *tm = l->timers; tm != NULL; tm = tm->next)
    out[n++] = tm->client_data ? (gint) ((Slot *) tm->client_data)->index : -1;
  return n;
}

typedef struct {
  StackRig rig;
  Timers   tt;
  void   (*body) (NsThread *t, Timers *tt);
} Rig;

/* Runs the rig's body in a simulated thread. */
static void
rig_thread (NsThread *t, gpointer data)
{
  Rig *r = data;

  r->body (t, &r->tt);
}

/* Runs body on a bare machine with an empty list of room MAX_TIMERS. */
static void
run_body (void (*body) (NsThread *t, Timers *tt))
{
  Rig r = { 0 };

  stack_rig_init_machine (&r.rig, "6.9.0-rc1", NULL, NULL, NULL);
  r.tt.l = iperf_timers_new (r.rig.machine, MAX_TIMERS);
  r.body = body;
  stack_rig_run (&r.rig, 0, rig_thread, &r);
  stack_rig_clear (&r.rig);
}

/* ---- sorted insertion ---- */

/* Due offsets (us) of the timers body_sorted makes, in creation order. */
static const gint64 sorted_due[] = { 500, 100, 300, 100, 700, 300, 100, 50, 700 };

/* Creates timers out of order and checks the list is sorted, equals in creation order. */
static void
body_sorted (NsThread *t, Timers *tt)
{
  guint n = G_N_ELEMENTS (sorted_due), want[G_N_ELEMENTS (sorted_due)];
  gint got[MAX_TIMERS];

  for (guint i = 0; i < n; i++)
    tmr_create (t, tt->l, 0, record_proc, slot_of (tt, i), sorted_due[i], FALSE);
  /* the stable order by due time: insertion sort that passes equals */
  for (guint i = 0; i < n; i++) {
    guint j = i;
    while (j > 0 && sorted_due[want[j - 1]] > sorted_due[i]) {
      want[j] = want[j - 1];
      j--;
    }
    want[j] = i;
  }
  ck_assert_uint_eq (list_indices (tt->l, got), n);
  for (guint i = 0; i < n; i++)
    ck_assert_int_eq (got[i], (gint) want[i]);
  ck_assert_int_eq (tmr_timeout (t, tt->l), NS_US (50));
}

START_TEST (test_list_sorted_equals_in_creation_order)
{
  run_body (body_sorted);
}
END_TEST

/* ---- a pacing tick ---- */

static guint tick_n;

/* n periodic 1 ms timers made at one instant and a later one-shot: one tick runs each
 * once, in order, with n + 1 compares in tmr_run and n in each re-insert. */
static void
body_tick (NsThread *t, Timers *tt)
{
  guint n = tick_n;
  gint got[MAX_TIMERS];
  guint64 before;

  tmr_create (t, tt->l, 0, NULL, NULL, 10000000, FALSE);      /* the test's end */
  for (guint i = 0; i < n; i++)
    tmr_create (t, tt->l, 0, record_proc, slot_of (tt, i), 1000, TRUE);
  tmr_run (t, tt->l, NS_US (999));
  ck_assert_uint_eq (tt->n_run, 0);
  before = tt->l->compares;
  tmr_run (t, tt->l, NS_US (1000));
  ck_assert_uint_eq (tt->n_run, n);
  for (guint i = 0; i < n; i++) {
    ck_assert_uint_eq (tt->runs[i], 1);
    ck_assert_uint_eq (tt->order[i], i);
  }
  /* tmr_run: n due, one not; each list_add: the head, then every other timer due in the
   * tick (before or after the re-schedule), then the end timer */
  ck_assert_uint_eq (tt->l->compares - before, (guint64) n + 1 + (guint64) n * n);
  ck_assert_uint_eq (list_indices (tt->l, got), n + 1);
  for (guint i = 0; i < n; i++)
    ck_assert_int_eq (got[i], (gint) i);
  ck_assert_int_eq (got[n], -1);
  ck_assert_int_eq (tmr_timeout (t, tt->l), NS_US (2000));
}

START_TEST (test_tick_walks_quadratically)
{
  static const guint sizes[] = { 1, 4, 64 };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++) {
    tick_n = sizes[i];
    run_body (body_tick);
  }
}
END_TEST

/* ---- one-shot timers and the free list ---- */

/* A one-shot timer runs once, leaves the list and is the next timer tmr_create hands
 * out; a late tmr_run can run a periodic timer twice. */
static void
body_one_shot (NsThread *t, Timers *tt)
{
  IperfTimer *once = tmr_create (t, tt->l, 0, record_proc, slot_of (tt, 0), 200, FALSE);
  IperfTimer *again;
  gint got[MAX_TIMERS];

  tmr_create (t, tt->l, 0, record_proc, slot_of (tt, 1), 300, TRUE);
  tmr_run (t, tt->l, NS_US (250));
  ck_assert_uint_eq (tt->runs[0], 1);
  ck_assert_uint_eq (list_indices (tt->l, got), 1);
  ck_assert_int_eq (got[0], 1);
  ck_assert_ptr_eq (tt->l->free_timers, once);
  again = tmr_create (t, tt->l, NS_US (250), record_proc, slot_of (tt, 2), 100, FALSE);
  ck_assert_ptr_eq (again, once);
  ck_assert_ptr_null (tt->l->free_timers);
  ck_assert_int_eq (tmr_timeout (t, tt->l), NS_US (300));
  /* at 600 us the periodic timer (300) runs and goes behind the one-shot (350), due at
   * 600; the one-shot runs, and the loop's saved next pointer reaches the periodic timer
   * again, still not after now: it runs a second time and is due at 900 */
  tmr_run (t, tt->l, NS_US (600));
  ck_assert_uint_eq (tt->runs[1], 2);
  ck_assert_uint_eq (tt->runs[2], 1);
  ck_assert_int_eq (tmr_timeout (t, tt->l), NS_US (900));
  ck_assert_uint_eq (list_indices (tt->l, got), 1);
}

START_TEST (test_one_shot_freed_and_reused)
{
  run_body (body_one_shot);
}
END_TEST

/* ---- iperf_time ---- */

/* iperf_time_now: whole seconds and the microseconds below them (nanoseconds cut). */
START_TEST (test_iperf_time_is_microseconds)
{
  struct iperf_time it = iperf_time_of (NS_SEC (3) + NS_US (999999) + NS_NS (999));

  ck_assert_uint_eq (it.secs, 3);
  ck_assert_uint_eq (it.usecs, 999999);
}
END_TEST

/* The list's room: NULL once max timers are out, none of them freed. */
static void
body_room (NsThread *t, Timers *tt)
{
  for (guint i = 0; i < MAX_TIMERS; i++)
    ck_assert_ptr_nonnull (tmr_create (t, tt->l, 0, NULL, NULL, 10, FALSE));
  ck_assert_ptr_null (tmr_create (t, tt->l, 0, NULL, NULL, 10, FALSE));
}

START_TEST (test_room_is_bounded)
{
  run_body (body_room);
}
END_TEST

static Suite *
iperf3_timer_suite (void)
{
  Suite *s = suite_create ("iperf3-timer");
  TCase *tc = tcase_create ("core");

  tcase_add_test (tc, test_list_sorted_equals_in_creation_order);
  tcase_add_test (tc, test_tick_walks_quadratically);
  tcase_add_test (tc, test_one_shot_freed_and_reused);
  tcase_add_test (tc, test_iperf_time_is_microseconds);
  tcase_add_test (tc, test_room_is_bounded);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (iperf3_timer_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
