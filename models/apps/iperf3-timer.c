/* iperf3-timer.c — iperf3's timer list (src/timer.c, Jef Poskanzer's timers as iperf3
 * 3.x keeps them, with iperf_time_compare and iperf_time_add_usecs from src/iperf_time.c).
 *
 * One list of timers sorted by due time, earliest first; list_add walks it from the head
 * and links a timer in before the first one due strictly later (so after its equals).
 * tmr_run runs the timers due at now in list order, re-inserting each periodic one at its
 * next due time by list_resort (list_remove, then list_add from the head again) and moving
 * each one-shot timer to the free list. With N pacing timers due at one tick and a later
 * timer behind them, each re-insert compares against all N: N² iperf_time_compare calls a
 * tick (seed 000's -P 64 at -b 1G: 4096 a millisecond).
 *
 * Costs: counted on iperf3 3.12-1+deb12u2's libiperf.so.0.0.0 (census:
 * doc/census/seed000/iperf3.md), each branch as the list's state and the times take it.
 * iperf_time_compare, iperf_time_diff, iperf_time_add_usecs and iperf_time_in_usecs live in
 * iperf_time.c and are exported, so timer.c calls them through the PLT (a stub's
 * `jmp *GOT`, 1 instruction, counted with the callee; a call instruction with its
 * caller); the static list_add is out of line (at 0x22260, no symbol: the one function
 * called from tmr_create, tmr_reset and tmr_run after the time is set, walking the
 * active-list head's global through next at +0x30 with iperf_time_compare on +0x1c);
 * list_remove and list_resort are inline in tmr_run. The walk is a pointer chase
 * (ns_load_dep on each next pointer) with its compares beside it (ns_insns_wide), as the
 * kernel's hash-chain walks are charged. Every field the code reads or writes is loaded or
 * stored at its x86-64 offset in simulated memory; the list's head and free list are the
 * library's two globals, side by side as in timer.c. User-space calls and returns are
 * instructions (no kernel return thunk). */
#include "config.h"
#include <stddef.h>
#include "iperf3-timer.h"

/* glibc malloc of 64 bytes: a 16-byte aligned chunk of 80 (size field included); the
 * user pointer is 16 bytes into it [U: where the heap puts them; consecutive here]. */
#define TIMER_CHUNK   80
#define TIMER_OFFSET  16

/* census: iperf_time_diff's own part, its stub (1) and its 7 to iperf_time_compare's
 * call; then 23 when the operands differ (+5 with a microsecond borrow), 10 when equal */
#define TMR_DIFF_HEAD_INSNS    8
/* census: glibc 2.36's malloc(64) is not counted (set-up only, before the test runs):
 * estimate, its PLT stub and the tcache fast path */
#define TMR_MALLOC_INSNS      20

#if GLIB_SIZEOF_VOID_P == 8
G_STATIC_ASSERT (sizeof (IperfTimer) == 64);
G_STATIC_ASSERT (offsetof (IperfTimer, time) == 28);
G_STATIC_ASSERT (offsetof (IperfTimer, next) == 48);
#endif

/* An empty list with room for max timers, all in simulated memory from machine's arena
 * (freed with the machine). */
IperfTimers *
iperf_timers_new (NsMachine *machine, guint max)
{
  NsArena *arena;
  IperfTimers *l;

  g_return_val_if_fail (machine != NULL && max > 0, NULL);
  arena = ns_machine_arena (machine);
  l = ns_arena_alloc (arena, sizeof (IperfTimers), 64);
  l->heap = ns_arena_alloc (arena, (gsize) max * TIMER_CHUNK + TIMER_OFFSET, 64);
  l->max_alloc = max;
  return l;
}

/* The iperf_time of the simulated instant now (iperf_time_now: whole microseconds). */
struct iperf_time
iperf_time_of (NsTime now)
{
  struct iperf_time it;

  it.secs = (guint32) (now / NS_SEC (1));
  it.usecs = (guint32) (now % NS_SEC (1) / NS_US (1));
  return it;
}

/* The simulated instant an iperf_time stands for. */
static NsTime
time_of_iperf (const struct iperf_time *it)
{
  return NS_SEC (it->secs) + NS_US (it->usecs);
}

/* census: iperf_time_compare's instructions for a against b, its PLT stub included: 6
 * when a's seconds are below b's, 9 above, 14 equal with a's microseconds below, 17
 * otherwise (the return included). */
static guint
compare_insns (const struct iperf_time *a, const struct iperf_time *b)
{
  if (a->secs != b->secs)
    return 1 + (a->secs < b->secs ? 6 : 9);
  return 1 + (a->usecs < b->usecs ? 14 : 17);
}

/* -1, 0 or 1 as a is earlier than, equal to or later than b (no charge). */
static gint
iperf_time_compare_value (const struct iperf_time *a, const struct iperf_time *b)
{
  if (a->secs != b->secs)
    return a->secs < b->secs ? -1 : 1;
  if (a->usecs != b->usecs)
    return a->usecs < b->usecs ? -1 : 1;
  return 0;
}

/* iperf_time_compare: -1, 0 or 1 as a is earlier than, equal to or later than b. The
 * caller loads the listed timer's time; the other operand is the timer in hand or a copy
 * of now on the stack, in L1. */
static gint
iperf_time_compare (NsThread *t, IperfTimers *l, const struct iperf_time *a,
                    const struct iperf_time *b)
{
  ns_insns_wide (t, compare_insns (a, b));
  l->compares++;
  return iperf_time_compare_value (a, b);
}

/* census: iperf_time_diff (a, b) with its stub and the compare: 8 + the compare + 23
 * (+5 when the later operand's microseconds are below the earlier's), 8 + 18 + 10 when
 * equal. */
static guint
diff_insns (const struct iperf_time *a, const struct iperf_time *b)
{
  guint n = TMR_DIFF_HEAD_INSNS + compare_insns (a, b);
  gint c = iperf_time_compare_value (a, b);

  if (c == 0)
    return n + 10;
  if (c > 0)
    return n + 23 + (a->usecs < b->usecs ? 5 : 0);
  return n + 23 + (b->usecs < a->usecs ? 5 : 0);
}

/* iperf_time_add_usecs: moves *it usecs later. census: its stub and 16 (the division by
 * 10^6 by multiply, the adds in SSE registers, the carry test), +9 with a carry. */
static void
iperf_time_add_usecs (NsThread *t, struct iperf_time *it, guint64 usecs)
{
  ns_load (t, it, sizeof *it);
  it->secs += (guint32) (usecs / 1000000);
  it->usecs += (guint32) (usecs % 1000000);
  if (it->usecs >= 1000000) {
    it->secs += it->usecs / 1000000;
    it->usecs %= 1000000;
    ns_insns (t, 1 + 16 + 9);
  } else {
    ns_insns (t, 1 + 16);
  }
  ns_store (t, it, sizeof *it);
}

/* Links tm between prev (NULL: at the head) and next (NULL: at the tail); its
 * instructions are its caller's. */
static void
link_between (NsThread *t, IperfTimers *l, IperfTimer *prev, IperfTimer *tm, IperfTimer *next)
{
  tm->prev = prev;
  tm->next = next;
  ns_store (t, &tm->prev, 2 * sizeof (IperfTimer *));
  if (prev == NULL) {
    l->timers = tm;
    ns_store (t, &l->timers, sizeof l->timers);
  } else {
    prev->next = tm;
    ns_store (t, &prev->next, sizeof prev->next);
  }
  if (next != NULL) {
    next->prev = tm;
    ns_store (t, &next->prev, sizeof next->prev);
  }
}

/* list_add: links tm in before the first timer due strictly later than it. census
 * (0x22260): 9 to the empty-list test (the prologue, the head), then empty 9; else 4 to
 * the head's compare, 2 after it; before the head 11; else 4 to the walk, 11 more when the
 * head has no next; a walk step 3 to its compare, 2 after it, then 10 to link in before
 * that timer and return, 5 to step on, or 13 to link at the tail and return. */
static void
list_add (NsThread *t, IperfTimers *l, IperfTimer *tm)
{
  IperfTimer *t2, *t2prev;

  ns_insns (t, 9);
  ns_load_dep (t, &l->timers, sizeof l->timers);
  if (l->timers == NULL) {
    ns_insns (t, 9);
    link_between (t, l, NULL, tm, NULL);
    return;
  }
  ns_insns (t, 4);
  ns_load (t, &l->timers->time, sizeof l->timers->time);
  if (iperf_time_compare (t, l, &tm->time, &l->timers->time) < 0) {
    ns_insns (t, 2 + 11);
    link_between (t, l, NULL, tm, l->timers);
    return;
  }
  ns_insns (t, 2 + 4);
  ns_load_dep (t, &l->timers->next, sizeof l->timers->next);
  if (l->timers->next == NULL) {
    ns_insns (t, 11);
    link_between (t, l, l->timers, tm, NULL);
    return;
  }
  for (t2prev = l->timers, t2 = l->timers->next;; t2prev = t2, t2 = t2->next) {
    ns_insns_wide (t, 3);
    ns_load (t, &t2->time, sizeof t2->time);
    if (iperf_time_compare (t, l, &tm->time, &t2->time) < 0) {
      ns_insns (t, 2 + 10);
      link_between (t, l, t2prev, tm, t2);
      return;
    }
    ns_load_dep (t, &t2->next, sizeof t2->next);
    if (t2->next == NULL)
      break;
    ns_insns_wide (t, 2 + 5);
  }
  ns_insns (t, 2 + 13);
  link_between (t, l, t2, tm, NULL);
}

/* list_remove: unlinks tm from the active list (the caller charges it: inline in tmr_run,
 * tmr_cancel's own). */
static void
list_remove (NsThread *t, IperfTimers *l, IperfTimer *tm)
{
  ns_load (t, &tm->prev, 2 * sizeof (IperfTimer *));
  if (tm->prev == NULL) {
    l->timers = tm->next;
    ns_store (t, &l->timers, sizeof l->timers);
  } else {
    tm->prev->next = tm->next;
    ns_store (t, &tm->prev->next, sizeof tm->prev->next);
  }
  if (tm->next != NULL) {
    tm->next->prev = tm->prev;
    ns_store (t, &tm->next->prev, sizeof tm->next->prev);
  }
}

/* list_resort: tm out of the list and back in at its (new) due time. census: inline in
 * tmr_run, the unlink 9 for the head with a next timer (8 with a previous one, 8 at the
 * tail; 7 both), and 2 to list_add's call. */
static void
list_resort (NsThread *t, IperfTimers *l, IperfTimer *tm)
{
  ns_insns (t, 9 - (tm->prev != NULL) - (tm->next == NULL) + 2);
  list_remove (t, l, tm);
  list_add (t, l, tm);
}

/* tmr_create: a timer due usecs after now (periodic: every usecs), charged to t; NULL
 * when the list's room is used up. census: its stub, 31 through iperf_time_add_usecs's
 * call with a timer off the free list; with malloc's 34, malloc (TMR_MALLOC_INSNS: not
 * counted); then 2 to list_add's call and 11 out. */
IperfTimer *
tmr_create (NsThread *t, IperfTimers *l, NsTime now, IperfTimerProc proc,
            gpointer client_data, gint64 usecs, gboolean periodic)
{
  IperfTimer *tm;

  g_return_val_if_fail (t != NULL && l != NULL && usecs >= 0, NULL);
  ns_load (t, &l->free_timers, sizeof l->free_timers);
  if (l->free_timers != NULL) {
    ns_insns (t, 1 + 31);
    tm = l->free_timers;
    ns_load_dep (t, &tm->next, sizeof tm->next);
    l->free_timers = tm->next;
  } else if (l->n_alloc < l->max_alloc) {
    ns_insns (t, 1 + 34 + TMR_MALLOC_INSNS);
    tm = (IperfTimer *) (l->heap + TIMER_OFFSET + (gsize) TIMER_CHUNK * l->n_alloc++);
  } else {
    return NULL;
  }
  tm->timer_proc = proc;
  tm->client_data = client_data;
  tm->usecs = usecs;
  tm->periodic = periodic;
  tm->time = iperf_time_of (now);
  ns_store (t, tm, offsetof (IperfTimer, prev));
  iperf_time_add_usecs (t, &tm->time, (guint64) usecs);
  ns_insns (t, 2);
  list_add (t, l, tm);
  ns_insns (t, 11);
  return tm;
}

/* tmr_timeout: when the earliest timer is due (never: NS_TIME_FOREVER), at the thread's
 * clock (the caller's iperf_time_now just before). census: its stub and 18 with an empty
 * list; else its stub, 17 to iperf_time_diff's call (head, now), the diff, then 7 to
 * iperf_time_in_usecs's call, its stub and 5, 20 (the timeval) when the head is ahead,
 * 14 when it is due (a zero timeout). */
NsTime
tmr_timeout (NsThread *t, IperfTimers *l)
{
  struct iperf_time inow;

  g_return_val_if_fail (t != NULL && l != NULL, NS_TIME_FOREVER);
  inow = iperf_time_of (ns_thread_now (t));
  ns_load_dep (t, &l->timers, sizeof l->timers);
  if (l->timers == NULL) {
    ns_insns (t, 1 + 18);
    return NS_TIME_FOREVER;
  }
  ns_load (t, &l->timers->time, sizeof l->timers->time);
  ns_insns (t, 1 + 17 + diff_insns (&l->timers->time, &inow));
  if (iperf_time_compare_value (&l->timers->time, &inow) > 0)
    ns_insns (t, 7 + 6 + 20);
  else
    ns_insns (t, 14);
  return time_of_iperf (&l->timers->time);
}

/* tmr_run: runs each timer due at now, re-inserting the periodic ones, cancelling the
 * others. census: its stub and 17 through the first list test; a timer 6 to its compare
 * with now, then 2 and out when it is not due; a due one 5 to the indirect call of
 * timer_proc, 3 (the periodic test), then periodic: 3 to iperf_time_add_usecs's call,
 * list_resort, 2 (the next timer's test); one-shot: 2 to tmr_cancel's call and its stub,
 * 3 (back to the list test); out 9. */
void
tmr_run (NsThread *t, IperfTimers *l, NsTime now)
{
  struct iperf_time inow = iperf_time_of (now);
  IperfTimer *tm, *next;

  g_return_if_fail (t != NULL && l != NULL);
  ns_insns (t, 1 + 17);
  ns_load_dep (t, &l->timers, sizeof l->timers);
  for (tm = l->timers; tm != NULL; tm = next) {
    ns_insns (t, 6);
    ns_load (t, &tm->next, sizeof tm->next);
    next = tm->next;
    ns_load (t, &tm->time, sizeof tm->time);
    if (iperf_time_compare (t, l, &tm->time, &inow) > 0) {
      ns_insns (t, 2);
      break;
    }
    ns_insns (t, 5);
    ns_load (t, tm, 2 * sizeof (gpointer));
    l->fired++;
    if (tm->timer_proc != NULL)
      tm->timer_proc (t, tm->client_data, now);
    ns_insns (t, 3);
    if (tm->periodic) {
      ns_insns (t, 3);
      iperf_time_add_usecs (t, &tm->time, (guint64) tm->usecs);
      list_resort (t, l, tm);
      ns_insns (t, 2);
    } else {
      ns_insns (t, 2 + 1);
      tmr_cancel (t, l, tm);
      ns_insns (t, 3);
    }
  }
  ns_insns (t, 9);
}

/* tmr_cancel: takes tm off the active list onto the free list. census: 13 with a
 * previous and a next timer, 14 at the head, 1 fewer at the tail (its stub is the
 * caller's). */
void
tmr_cancel (NsThread *t, IperfTimers *l, IperfTimer *tm)
{
  g_return_if_fail (t != NULL && l != NULL && tm != NULL);
  ns_load (t, &tm->prev, 2 * sizeof (IperfTimer *));
  ns_insns (t, 13 + (tm->prev == NULL) - (tm->next == NULL));
  list_remove (t, l, tm);
  ns_load (t, &l->free_timers, sizeof l->free_timers);
  tm->next = l->free_timers;
  tm->prev = NULL;
  ns_store (t, &tm->prev, 2 * sizeof (IperfTimer *));
  l->free_timers = tm;
  ns_store (t, &l->free_timers, sizeof l->free_timers);
}
