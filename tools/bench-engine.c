/* bench-engine.c — wall-clock cost of the engine's building blocks.
 *
 * Prints one "name value" line per measurement:
 *   coro_switch_ns              one coroutine switch (a resume+yield pair / 2)
 *   engine_events_per_sec       schedule + dispatch of events with a trivial callback that
 *                               reschedules itself; 1024 events pending throughout
 *   thread_resumptions_per_sec  64 threads on 8 CPUs (one softirq-class per CPU) doing
 *                               advance() of 13–18 ns each under a 100 ns quantum
 * Optional argument: a scale factor for the iteration counts (default 1). */
#include "config.h"

#include <stdlib.h>

#include "coro.h"
#include "engine.h"

#define N_SWITCH_PAIRS  10000000     /* 20 M switches */
#define N_EVENTS         5000000
#define N_PENDING           1024
#define N_THREADS             64
#define N_BENCH_CPUS           8

/* ---- coroutine switch ---- */

/* Coroutine body: yields back to its resumer until *data (a gboolean) turns TRUE. */
static void
yield_forever (gpointer data)
{
  volatile gboolean *stop = data;

  while (!*stop)
    ns_coro_yield ();
}

/* Nanoseconds per coroutine switch over pairs resume+yield pairs. */
static double
bench_coro_switch (guint64 pairs)
{
  volatile gboolean stop = FALSE;
  NsCoro *coro = ns_coro_new (yield_forever, (gpointer) &stop, 0);
  gint64 t0, t1;
  guint64 i;

  ns_coro_resume (coro);                       /* warm up: enter the loop */
  t0 = g_get_monotonic_time ();
  for (i = 0; i < pairs; i++)
    ns_coro_resume (coro);
  t1 = g_get_monotonic_time ();
  stop = TRUE;
  ns_coro_resume (coro);
  ns_coro_free (coro);
  return (double) (t1 - t0) * 1000.0 / (2.0 * (double) pairs);
}

/* ---- events ---- */

typedef struct {
  NsEngine *engine;
  guint64   remaining;
  guint32   lcg;
} EventBench;

/* Trivial callback: reschedules itself a pseudo-random distance ahead until done. */
static void
event_tick (gpointer data)
{
  EventBench *b = data;

  if (b->remaining == 0)
    return;
  b->remaining--;
  b->lcg = b->lcg * 1664525u + 1013904223u;
  ns_engine_schedule (b->engine, ns_engine_now (b->engine) + 1 + (b->lcg >> 20), event_tick, b);
}

/* Events dispatched per wall-clock second, with N_PENDING events in the queue. */
static double
bench_events (guint64 n_events, guint64 *dispatched)
{
  static const double ghz[1] = { 3.0 };
  EventBench b;
  gint64 t0, t1;
  guint i;

  b.engine = ns_engine_new (1, ghz, NS_US (1));
  b.remaining = n_events > N_PENDING ? n_events - N_PENDING : 0;
  b.lcg = 1;
  t0 = g_get_monotonic_time ();
  for (i = 0; i < N_PENDING; i++)
    ns_engine_schedule (b.engine, i, event_tick, &b);
  ns_engine_run (b.engine, NS_TIME_FOREVER);
  t1 = g_get_monotonic_time ();
  *dispatched = ns_engine_n_events (b.engine);
  ns_engine_free (b.engine);
  return (double) *dispatched / ((double) (t1 - t0) / 1e6);
}

/* ---- thread resumptions ---- */

/* Simulated thread: *data steps of ns_thread_advance, 40 to 55 cycles by CPU, then returns. */
static void
busy_thread (NsThread *self, gpointer data)
{
  guint64 steps = *(guint64 *) data, i;

  for (i = 0; i < steps; i++)
    ns_thread_advance (self, 40.0 + (double) (ns_thread_cpu (self) % 3) * 7.5);
}

/* Thread resumptions per wall-clock second. */
static double
bench_threads (guint64 steps, guint64 *resumptions)
{
  double ghz[N_BENCH_CPUS];
  NsEngine *engine;
  gint64 t0, t1;
  guint i;

  for (i = 0; i < N_BENCH_CPUS; i++)
    ghz[i] = 3.0;
  engine = ns_engine_new (N_BENCH_CPUS, ghz, NS_NS (100));
  for (i = 0; i < N_THREADS; i++)
    {
      char name[32];
      g_snprintf (name, sizeof name, "busy%u", i);
      ns_engine_spawn (engine, name, i % N_BENCH_CPUS,
                       i < N_BENCH_CPUS ? NS_THREAD_SOFTIRQ : NS_THREAD_USER, 0, busy_thread, &steps);
    }
  t0 = g_get_monotonic_time ();
  ns_engine_run (engine, NS_TIME_FOREVER);
  t1 = g_get_monotonic_time ();
  *resumptions = ns_engine_n_switches (engine);
  ns_engine_free (engine);
  return (double) *resumptions / ((double) (t1 - t0) / 1e6);
}

/* bench-engine [SCALE]: times coroutine switches, event dispatch and thread resumptions,
 * printing "name value" lines; exit status 2 for a bad scale. */
int
main (int argc, char **argv)
{
  double scale = argc > 1 ? g_ascii_strtod (argv[1], NULL) : 1.0;
  guint64 n_events, n_resumed;
  double switch_ns, events_rate, resume_rate;

  if (!(scale > 0.0))
    {
      g_printerr ("usage: %s [SCALE>0]\n", argv[0]);
      return 2;
    }

  switch_ns = bench_coro_switch ((guint64) (N_SWITCH_PAIRS * scale));
  events_rate = bench_events ((guint64) (N_EVENTS * scale), &n_events);
  resume_rate = bench_threads ((guint64) (200000 * scale), &n_resumed);

  g_print ("coro_switch_ns %.2f\n", switch_ns);
  g_print ("coro_switches %" G_GUINT64_FORMAT "\n", (guint64) (2 * N_SWITCH_PAIRS * scale));
  g_print ("engine_events_per_sec %.0f\n", events_rate);
  g_print ("engine_events %" G_GUINT64_FORMAT "\n", n_events);
  g_print ("thread_resumptions_per_sec %.0f\n", resume_rate);
  g_print ("thread_resumptions %" G_GUINT64_FORMAT "\n", n_resumed);
  return 0;
}
