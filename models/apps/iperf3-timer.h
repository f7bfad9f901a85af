/* iperf3-timer.h — iperf3's timer list (src/timer.c, iperf3 3.x up to 3.17): one doubly
 * linked list of timers sorted by due time, a periodic timer re-inserted after it fires by
 * a walk from the list's head. The workload's client keeps its pacing timers in it. */
#pragma once
#include <glib.h>
#include "machine.h"

G_BEGIN_DECLS

/* iperf3's struct iperf_time (src/iperf_time.h): CLOCK_MONOTONIC cut to microseconds. */
struct iperf_time {
  guint32 secs;
  guint32 usecs;
};

typedef void (*IperfTimerProc) (NsThread *t, gpointer client_data, NsTime now);

/* iperf3's Timer (src/timer.h) in its x86-64 layout: 64 bytes, malloc()ed. */
typedef struct _IperfTimer IperfTimer;
struct _IperfTimer {
  IperfTimerProc     timer_proc;   /* NULL: a timer whose work the model leaves out */
  gpointer           client_data;
  gint64             usecs;
  gint               periodic;
  struct iperf_time  time;
  IperfTimer        *prev;
  IperfTimer        *next;
  gint               hash;
};

typedef struct {
  IperfTimer *timers;       /* the active list, earliest first */
  IperfTimer *free_timers;  /* cancelled timers, reused by tmr_create */
  guint8     *heap;         /* simulated memory the timers are malloc()ed from */
  guint       n_alloc, max_alloc;
  guint64     compares;     /* iperf_time_compare calls so far (list_add and tmr_run) */
  guint64     fired;        /* timer procs run so far */
} IperfTimers;

/* An empty list with room for max timers, all in simulated memory from machine's arena
 * (freed with the machine). */
IperfTimers *iperf_timers_new      (NsMachine *machine, guint max);
/* The iperf_time of the simulated instant now. */
struct iperf_time iperf_time_of    (NsTime now);
/* tmr_create: a timer due usecs after now (periodic: every usecs), charged to t; NULL
 * when the list's room is used up. */
IperfTimer  *tmr_create            (NsThread *t, IperfTimers *l, NsTime now,
                                    IperfTimerProc proc, gpointer client_data,
                                    gint64 usecs, gboolean periodic);
/* tmr_timeout: when the earliest timer is due (never: NS_TIME_FOREVER). */
NsTime       tmr_timeout           (NsThread *t, IperfTimers *l);
/* tmr_run: runs each timer due at now, re-inserting the periodic ones, cancelling the
 * others. */
void         tmr_run               (NsThread *t, IperfTimers *l, NsTime now);
/* tmr_cancel: takes tm off the active list onto the free list. */
void         tmr_cancel            (NsThread *t, IperfTimers *l, IperfTimer *tm);

G_END_DECLS
