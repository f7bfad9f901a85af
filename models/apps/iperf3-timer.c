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
 * Costs: iperf_time_compare and iperf_time_add_usecs live in another translation unit
 * (iperf_time.c), so timer.c calls them out of line; the instruction counts are estimates,
 * stated at each constant. The walk is a pointer chase (ns_load_dep on each next pointer)
 * with its compares beside it (ns_insns_wide), as the kernel's hash-chain walks are
 * charged. Every field the code reads or writes is loaded or stored at its x86-64 offset
 * in simulated memory; the list's head and free list are the library's two globals,
 * side by side as in timer.c. User-space calls and returns are instructions (no kernel
 * return thunk). */
#include "config.h"
#include <stddef.h>
#include "iperf3-timer.h"

/* glibc malloc of 64 bytes: a 16-byte aligned chunk of 80 (size field included); the
 * user pointer is 16 bytes into it [U: where the heap puts them; consecutive here]. */
#define TIMER_CHUNK   80
#define TIMER_OFFSET  16

/* estimate: an out-of-line iperf_time_compare call: the two argument registers, the call,
 * the callee's loads, its compares and branches down to the usecs compare, its return,
 * and the caller's sign test and branch */
#define TMR_COMPARE_INSNS     16
/* estimate: list_add's walk step: t2prev = t2, t2 = t2->next, the NULL test */
#define TMR_WALK_STEP_INSNS    3
/* estimate: linking a timer in or out: the head and tail tests and pointer stores */
#define TMR_LINK_INSNS         6
/* estimate: tmr_run's loop step (next = t->next, the periodic test) and the indirect
 * call of timer_proc with its argument moves (user space: no retpoline) */
#define TMR_RUN_STEP_INSNS     8
/* estimate: iperf_time_add_usecs out of line: the call, a 64-bit division and modulo by
 * 10^6 done by multiply and shift, the adds, the carry test and the return */
#define TMR_ADD_USECS_INSNS   16
/* estimate: tmr_create: the free-list pop (or glibc's tcache fast path for malloc) and
 * the five field stores */
#define TMR_CREATE_INSNS      40

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

/* iperf_time_compare: -1, 0 or 1 as a is earlier than, equal to or later than b. The
 * caller loads the listed timer's time; the other operand is the timer in hand or a copy
 * of now on the stack, in L1. */
static gint
iperf_time_compare (NsThread *t, IperfTimers *l, const struct iperf_time *a,
                    const struct iperf_time *b)
{
  ns_insns_wide (t, TMR_COMPARE_INSNS);
  l->compares++;
  if (a->secs != b->secs)
    return a->secs < b->secs ? -1 : 1;
  if (a->usecs != b->usecs)
    return a->usecs < b->usecs ? -1 : 1;
  return 0;
}

/* iperf_time_add_usecs: moves *it usecs later. */
static void
iperf_time_add_usecs (NsThread *t, struct iperf_time *it, guint64 usecs)
{
  ns_load (t, it, sizeof *it);
  ns_insns (t, TMR_ADD_USECS_INSNS);
  it->secs += (guint32) (usecs / 1000000);
  it->usecs += (guint32) (usecs % 1000000);
  if (it->usecs >= 1000000) {
    it->secs += it->usecs / 1000000;
    it->usecs %= 1000000;
  }
  ns_store (t, it, sizeof *it);
}

/* Links tm between prev (NULL: at the head) and next (NULL: at the tail). */
static void
link_between (NsThread *t, IperfTimers *l, IperfTimer *prev, IperfTimer *tm, IperfTimer *next)
{
  ns_insns (t, TMR_LINK_INSNS);
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

/* list_add: links tm in before the first timer due strictly later than it. */
static void
list_add (NsThread *t, IperfTimers *l, IperfTimer *tm)
{
  IperfTimer *t2, *t2prev;

  ns_load_dep (t, &l->timers, sizeof l->timers);
  if (l->timers == NULL) {
    link_between (t, l, NULL, tm, NULL);
    return;
  }
  ns_load (t, &l->timers->time, sizeof l->timers->time);
  if (iperf_time_compare (t, l, &tm->time, &l->timers->time) < 0) {
    link_between (t, l, NULL, tm, l->timers);
    return;
  }
  ns_load_dep (t, &l->timers->next, sizeof l->timers->next);
  for (t2prev = l->timers, t2 = l->timers->next; t2 != NULL; t2prev = t2, t2 = t2->next) {
    ns_insns_wide (t, TMR_WALK_STEP_INSNS);
    ns_load (t, &t2->time, sizeof t2->time);
    if (iperf_time_compare (t, l, &tm->time, &t2->time) < 0) {
      link_between (t, l, t2prev, tm, t2);
      return;
    }
    ns_load_dep (t, &t2->next, sizeof t2->next);
  }
  link_between (t, l, t2prev, tm, NULL);
}

/* list_remove: unlinks tm from the active list. */
static void
list_remove (NsThread *t, IperfTimers *l, IperfTimer *tm)
{
  ns_load (t, &tm->prev, 2 * sizeof (IperfTimer *));
  ns_insns (t, TMR_LINK_INSNS);
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

/* list_resort: tm out of the list and back in at its (new) due time. */
static void
list_resort (NsThread *t, IperfTimers *l, IperfTimer *tm)
{
  list_remove (t, l, tm);
  list_add (t, l, tm);
}

/* tmr_create: a timer due usecs after now (periodic: every usecs), charged to t; NULL
 * when the list's room is used up. */
IperfTimer *
tmr_create (NsThread *t, IperfTimers *l, NsTime now, IperfTimerProc proc,
            gpointer client_data, gint64 usecs, gboolean periodic)
{
  IperfTimer *tm;

  g_return_val_if_fail (t != NULL && l != NULL && usecs >= 0, NULL);
  ns_insns (t, TMR_CREATE_INSNS);
  ns_load (t, &l->free_timers, sizeof l->free_timers);
  if (l->free_timers != NULL) {
    tm = l->free_timers;
    ns_load_dep (t, &tm->next, sizeof tm->next);
    l->free_timers = tm->next;
  } else if (l->n_alloc < l->max_alloc) {
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
  list_add (t, l, tm);
  return tm;
}

/* tmr_timeout: when the earliest timer is due (never: NS_TIME_FOREVER). Its instructions
 * are the caller's (the select loop's estimate). */
NsTime
tmr_timeout (NsThread *t, IperfTimers *l)
{
  g_return_val_if_fail (t != NULL && l != NULL, NS_TIME_FOREVER);
  ns_load_dep (t, &l->timers, sizeof l->timers);
  if (l->timers == NULL)
    return NS_TIME_FOREVER;
  ns_load (t, &l->timers->time, sizeof l->timers->time);
  return time_of_iperf (&l->timers->time);
}

/* tmr_run: runs each timer due at now, re-inserting the periodic ones, cancelling the
 * others. */
void
tmr_run (NsThread *t, IperfTimers *l, NsTime now)
{
  struct iperf_time inow = iperf_time_of (now);
  IperfTimer *tm, *next;

  g_return_if_fail (t != NULL && l != NULL);
  ns_load_dep (t, &l->timers, sizeof l->timers);
  for (tm = l->timers; tm != NULL; tm = next) {
    ns_load (t, &tm->next, sizeof tm->next);
    next = tm->next;
    ns_load (t, &tm->time, sizeof tm->time);
    if (iperf_time_compare (t, l, &tm->time, &inow) > 0)
      break;
    ns_insns (t, TMR_RUN_STEP_INSNS);
    ns_load (t, tm, 2 * sizeof (gpointer));
    l->fired++;
    if (tm->timer_proc != NULL)
      tm->timer_proc (t, tm->client_data, now);
    if (tm->periodic) {
      iperf_time_add_usecs (t, &tm->time, (guint64) tm->usecs);
      list_resort (t, l, tm);
    } else {
      tmr_cancel (t, l, tm);
    }
  }
}

/* tmr_cancel: takes tm off the active list onto the free list. */
void
tmr_cancel (NsThread *t, IperfTimers *l, IperfTimer *tm)
{
  g_return_if_fail (t != NULL && l != NULL && tm != NULL);
  list_remove (t, l, tm);
  ns_load (t, &l->free_timers, sizeof l->free_timers);
  tm->next = l->free_timers;
  tm->prev = NULL;
  ns_store (t, &tm->prev, 2 * sizeof (IperfTimer *));
  l->free_timers = tm;
  ns_store (t, &l->free_timers, sizeof l->free_timers);
}
