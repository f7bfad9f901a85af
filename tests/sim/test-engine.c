/* test-engine.c — the dispatcher: time order, quantum, softirq preemption, block/wake,
 * spin, sleep, fractional cycles, determinism, run(end)/stop, thread bookkeeping. */
#include "config.h"

#include <check.h>
#include <stdlib.h>

#include "engine.h"

/* ---- tracing resumptions ---- */

typedef struct {
  gint   id;     /* thread index, -1 for an event */
  guint  cpu;
  NsTime t;
} TraceEntry;

typedef struct _Prog Prog;

typedef struct {
  Prog     *prog;
  NsThread *thread;
  gint      id;
  guint64   seen;        /* engine switch count when this thread last noted a resumption */
  /* per-test parameters and results */
  double    cost;
  guint     steps;
  GRand    *rng;
  NsTime    mark[4];
  gint      flag;
} Actor;

struct _Prog {
  NsEngine *engine;
  GArray   *trace;       /* TraceEntry */
  Actor     actors[16];
  guint     n_actors;
  NsTime    max_skew;
};

/* Records a resumption of a if the engine switched since a last noted one. */
static void
note (Actor *a)
{
  guint64 sw = ns_engine_n_switches (a->prog->engine);

  if (sw != a->seen)
    {
      TraceEntry e = { a->id, ns_thread_cpu (a->thread), ns_thread_now (a->thread) };
      g_array_append_val (a->prog->trace, e);
      a->seen = sw;
    }
}

static Prog *
prog_new (guint n_cpus, double ghz, NsTime quantum)
{
  Prog *p = g_new0 (Prog, 1);
  double *g = g_new (double, n_cpus);
  guint i;

  for (i = 0; i < n_cpus; i++)
    g[i] = ghz;
  p->engine = ns_engine_new (n_cpus, g, quantum);
  p->trace = g_array_new (FALSE, FALSE, sizeof (TraceEntry));
  g_free (g);
  return p;
}

static void
prog_free (Prog *p)
{
  guint i;

  for (i = 0; i < p->n_actors; i++)
    if (p->actors[i].rng != NULL)
      g_rand_free (p->actors[i].rng);
  ns_engine_free (p->engine);
  g_array_unref (p->trace);
  g_free (p);
}

static Actor *
prog_spawn (Prog *p, guint cpu, NsThreadClass klass, NsTime start, NsThreadFunc fn)
{
  Actor *a = &p->actors[p->n_actors];
  char *name = g_strdup_printf ("actor%u", p->n_actors);

  a->prog = p;
  a->id = (gint) p->n_actors++;
  a->seen = G_MAXUINT64;
  a->thread = ns_engine_spawn (p->engine, name, cpu, klass, start, fn, a);
  ck_assert_ptr_nonnull (a->thread);
  g_free (name);
  return a;
}

/* Start times never decrease, over the whole trace and per CPU. */
static void
assert_monotone (GArray *trace)
{
  NsTime last = G_MININT64, last_cpu[16];
  guint i;

  for (i = 0; i < 16; i++)
    last_cpu[i] = G_MININT64;
  for (i = 0; i < trace->len; i++)
    {
      TraceEntry *e = &g_array_index (trace, TraceEntry, i);
      ck_assert_int_ge (e->t, last);
      last = e->t;
      if (e->id >= 0)
        {
          ck_assert_int_ge (e->t, last_cpu[e->cpu]);
          last_cpu[e->cpu] = e->t;
        }
    }
}

/* ---- smallest local time first ---- */

static void
costed_body (NsThread *self, gpointer data)
{
  Actor *a = data;
  Prog *p = a->prog;
  guint i, k;

  for (i = 0; i < a->steps; i++)
    {
      note (a);
      /* just resumed: every other unfinished thread's clock is at least ours */
      for (k = 0; k < p->n_actors; k++)
        {
          NsThread *o = p->actors[k].thread;
          if (o != self && ns_thread_state (o) != NS_THREAD_DONE)
            ck_assert_int_ge (ns_thread_now (o), ns_thread_now (self));
        }
      ns_thread_advance (self, a->cost);
    }
}

START_TEST (test_smallest_time_first)
{
  static const double costs[] = { 100, 250, 370, 55 };
  Prog *p = prog_new (4, 1.0, 0);   /* quantum 0: every advance is a yield */
  guint i, counts[4] = { 0 };

  for (i = 0; i < 4; i++)
    {
      Actor *a = prog_spawn (p, i, NS_THREAD_USER, 0, costed_body);
      a->cost = costs[i];
      a->steps = 200;
    }
  ns_engine_run (p->engine, NS_TIME_FOREVER);

  assert_monotone (p->trace);
  ck_assert_uint_eq (p->trace->len, ns_engine_n_switches (p->engine) - 4);  /* last resumptions end */
  for (i = 0; i < p->trace->len; i++)
    counts[g_array_index (p->trace, TraceEntry, i).id]++;
  for (i = 0; i < 4; i++)
    {
      ck_assert_uint_eq (counts[i], 200);
      ck_assert_int_eq (ns_thread_state (p->actors[i].thread), NS_THREAD_DONE);
      ck_assert_int_eq (ns_thread_now (p->actors[i].thread), NS_NS (200 * costs[i]));
      ck_assert_int_eq (ns_engine_cpu_now (p->engine, i), NS_NS (200 * costs[i]));
    }
  /* the cheap thread ran many times before the expensive one's second step */
  ck_assert_int_eq (g_array_index (p->trace, TraceEntry, 0).id, 0);
  ck_assert_int_eq (g_array_index (p->trace, TraceEntry, 3).id, 3);
  ck_assert_int_eq (g_array_index (p->trace, TraceEntry, 4).id, 3);   /* 55 < 100 */
  prog_free (p);
}
END_TEST

/* Notes its resumption, then works a->cost cycles. */
static void
noted_body (NsThread *self, gpointer data)
{
  Actor *a = data;

  note (a);
  ns_thread_advance (self, a->cost);
}

/* Within a class the earliest ready time wins, then spawn order; between classes a
 * softirq thread that can start no later wins: two user and two softirq threads on one
 * CPU, all ready at 0, run softirq 2, softirq 3, user 0, user 1. */
START_TEST (test_ties_in_spawn_order)
{
  Prog *p = prog_new (1, 1.0, NS_US (10));
  static const gint want[] = { 2, 3, 0, 1 };

  for (guint i = 0; i < 4; i++)
    {
      Actor *a = prog_spawn (p, 0, i < 2 ? NS_THREAD_USER : NS_THREAD_SOFTIRQ, 0, noted_body);
      a->cost = 100;
    }
  ns_engine_run (p->engine, NS_TIME_FOREVER);
  ck_assert_uint_eq (p->trace->len, 4);
  for (guint i = 0; i < 4; i++)
    {
      TraceEntry *e = &g_array_index (p->trace, TraceEntry, i);
      ck_assert_int_eq (e->id, want[i]);
      ck_assert_int_eq (e->t, NS_NS (100 * i));
    }
  prog_free (p);
}
END_TEST

/* ---- quantum bounds skew ---- */

static void
busy_body (NsThread *self, gpointer data)
{
  Actor *a = data;
  Prog *p = a->prog;
  guint i;

  for (i = 0; i < a->steps; i++)
    {
      NsTime skew;
      ns_thread_advance (self, a->cost);
      skew = ns_engine_cpu_now (p->engine, 0) - ns_engine_cpu_now (p->engine, 1);
      skew = ABS (skew);
      p->max_skew = MAX (p->max_skew, skew);
    }
}

START_TEST (test_quantum_bounds_skew)
{
  const NsTime quantum = NS_US (1);
  Prog *p = prog_new (2, 1.0, quantum);
  Actor *a = prog_spawn (p, 0, NS_THREAD_USER, 0, busy_body);
  Actor *b = prog_spawn (p, 1, NS_THREAD_USER, 0, busy_body);

  a->cost = 37;
  b->cost = 61;
  a->steps = 20000;
  b->steps = 20000 * 37 / 61;
  ns_engine_run (p->engine, NS_TIME_FOREVER);

  ck_assert_int_le (p->max_skew, quantum + NS_NS (61));
  ck_assert_int_ge (p->max_skew, quantum / 2);     /* the bound is actually approached */
  /* each CPU yielded about once per quantum */
  ck_assert_uint_ge (ns_engine_n_switches (p->engine), 2 * 700);
  ck_assert_uint_le (ns_engine_n_switches (p->engine), 2 * 800);
  prog_free (p);
}
END_TEST

/* ---- softirq preemption ---- */

static void
stepper_body (NsThread *self, gpointer data)
{
  Actor *a = data;
  guint i;

  for (i = 0; i < a->steps; i++)
    {
      ns_thread_advance (self, a->cost);
      if (a->flag == 1 && i == 2)
        ns_thread_wake (a->prog->actors[2].thread, ns_thread_now (self));  /* raise softirq */
    }
}

/* softirq: records when it runs and where the user thread on its CPU stood, works 500 ns. */
static void
softirq_body (NsThread *self, gpointer data)
{
  Actor *a = data;
  Actor *victim = &a->prog->actors[0];

  if (a->flag == 0)
    ns_thread_block (self);
  a->mark[0] = ns_thread_now (self);
  a->mark[1] = ns_thread_now (victim->thread);
  a->mark[2] = ns_thread_state (victim->thread);
  ns_thread_advance (self, 500);
  ns_thread_block (self);
}

static void
wake_softirq_event (gpointer data)
{
  Actor *a = data;
  ck_assert_ptr_null (ns_thread_self ());
  ck_assert (ns_thread_wake (a->thread, ns_engine_now (a->prog->engine)));
}

START_TEST (test_softirq_preempts_at_quantum)
{
  Prog *p = prog_new (2, 1.0, NS_US (1));
  Actor *u = prog_spawn (p, 0, NS_THREAD_USER, 0, stepper_body);
  Actor *v = prog_spawn (p, 1, NS_THREAD_USER, 0, stepper_body);
  Actor *s = prog_spawn (p, 0, NS_THREAD_SOFTIRQ, 0, softirq_body);

  u->cost = v->cost = 100;
  u->steps = v->steps = 50;
  ns_engine_schedule (p->engine, NS_NS (2350), wake_softirq_event, s);
  ns_engine_run (p->engine, NS_TIME_FOREVER);

  ck_assert_int_eq (s->mark[0], NS_US (3));        /* next quantum boundary of u */
  ck_assert_int_eq (s->mark[1], NS_US (3));        /* u stopped there */
  ck_assert_int_eq (s->mark[2], NS_THREAD_RUNNABLE);
  ck_assert_int_eq (ns_thread_now (u->thread), NS_NS (5500));   /* 5 µs + 500 ns stolen */
  ck_assert_int_eq (ns_thread_now (v->thread), NS_US (5));      /* other CPU untouched */
  ck_assert_int_eq (ns_thread_state (s->thread), NS_THREAD_BLOCKED);
  ck_assert_uint_eq (ns_engine_n_events (p->engine), 1);
  prog_free (p);
}
END_TEST

/* ns_thread_breaks: the first run counts one; quantum ends with the CPU to itself do not
 * count; a sleep does; a softirq that runs on its CPU in between does. */
static void
breaks_body (NsThread *self, gpointer data)
{
  Actor *a = data;
  guint i;

  a->mark[0] = (NsTime) ns_thread_breaks (self);
  for (i = 0; i < 50; i++)                        /* 5 us alone: five quantum ends */
    ns_thread_advance (self, 100);
  a->mark[1] = (NsTime) ns_thread_breaks (self);
  ns_thread_sleep_until (self, ns_thread_now (self) + NS_US (1));
  a->mark[2] = (NsTime) ns_thread_breaks (self);
  for (i = 0; i < 50; i++)                        /* the softirq runs at 8 us */
    ns_thread_advance (self, 100);
  a->mark[3] = (NsTime) ns_thread_breaks (self);
}

START_TEST (test_breaks)
{
  Prog *p = prog_new (1, 1.0, NS_US (1));
  Actor *u = prog_spawn (p, 0, NS_THREAD_USER, 0, breaks_body);
  Actor *s = prog_spawn (p, 0, NS_THREAD_SOFTIRQ, 0, softirq_body);

  ns_engine_schedule (p->engine, NS_US (8), wake_softirq_event, s);
  ns_engine_run (p->engine, NS_TIME_FOREVER);

  ck_assert_int_eq (u->mark[0], 1);
  ck_assert_int_eq (u->mark[1], 1);
  ck_assert_int_eq (u->mark[2], 2);
  ck_assert_int_eq (u->mark[3], 3);
  prog_free (p);
}
END_TEST

/* Runs a user thread (20 steps of 100 ns from 0) with a softirq thread on its CPU
 * runnable from `ready` (500 ns of work); returns when the softirq started. */
static NsTime
softirq_start_from (NsTime ready)
{
  Prog *p = prog_new (1, 1.0, NS_US (1));
  Actor *u = prog_spawn (p, 0, NS_THREAD_USER, 0, stepper_body);
  Actor *pad = prog_spawn (p, 0, NS_THREAD_USER, NS_TIME_FOREVER / 2, stepper_body);
  Actor *s = prog_spawn (p, 0, NS_THREAD_SOFTIRQ, ready, softirq_body);
  NsTime start;

  (void) pad;
  u->cost = 100;
  u->steps = 20;
  s->flag = 1;                                      /* runnable from `ready`, no block */
  ns_engine_run (p->engine, NS_US (100));

  start = s->mark[0];
  ck_assert_int_eq (s->mark[1], start);             /* the user thread stopped there */
  ck_assert_int_eq (ns_thread_now (u->thread), NS_NS (2500));
  prog_free (p);
  return start;
}

/* A softirq that becomes ready in the middle of a user slice preempts at the first advance
 * that reaches its ready time (one landing on it included); the CPU does not idle before
 * that. */
START_TEST (test_softirq_preempts_mid_slice)
{
  ck_assert_int_eq (softirq_start_from (NS_NS (450)), NS_NS (500));
  ck_assert_int_eq (softirq_start_from (NS_NS (400)), NS_NS (400));
}
END_TEST

/* A user thread raising softirq work on its own CPU is preempted at its next advance. */
START_TEST (test_softirq_raised_locally)
{
  Prog *p = prog_new (1, 1.0, NS_US (1));
  Actor *u = prog_spawn (p, 0, NS_THREAD_USER, 0, stepper_body);
  Actor *pad = prog_spawn (p, 0, NS_THREAD_USER, NS_TIME_FOREVER / 2, stepper_body);
  Actor *s = prog_spawn (p, 0, NS_THREAD_SOFTIRQ, 0, softirq_body);

  (void) pad;
  u->cost = 100;
  u->steps = 20;
  u->flag = 1;                                      /* wakes actor 2 at step 2 (300 ns) */
  ns_engine_run (p->engine, NS_US (100));

  ck_assert_int_eq (s->mark[0], NS_NS (400));
  ck_assert_int_eq (s->mark[1], NS_NS (400));
  ck_assert_int_eq (ns_thread_now (u->thread), NS_NS (2500));
  prog_free (p);
}
END_TEST

/* Event callback: raises the actor's flag. */
static void
raise_flag_event (gpointer data)
{
  Actor *a = data;

  a->flag = 1;
}

/* Notes the flag as it starts. */
static void
flag_reader_body (NsThread *self, gpointer data)
{
  Actor *a = data;

  (void) self;
  a->mark[0] = a->flag;
}

/* An event due when a thread would start runs first (rule 3: time <= start). */
START_TEST (test_event_first_at_a_tie)
{
  Prog *p = prog_new (1, 1.0, NS_US (1));
  Actor *a = prog_spawn (p, 0, NS_THREAD_USER, NS_NS (500), flag_reader_body);

  ns_engine_schedule (p->engine, NS_NS (500), raise_flag_event, a);
  ns_engine_run (p->engine, NS_TIME_FOREVER);
  ck_assert_int_eq (a->mark[0], 1);
  prog_free (p);
}
END_TEST

/* ---- block / wake ---- */

static void
sleeper_body (NsThread *self, gpointer data)
{
  Actor *a = data;

  ns_thread_advance (self, 100);
  ck_assert (!ns_thread_wake (self, 0));            /* running: not waiting */
  a->mark[0] = ns_thread_block (self);              /* woken by a thread */
  a->mark[1] = ns_thread_now (self);
  a->mark[2] = ns_thread_block (self);              /* woken by an event */
  a->mark[3] = ns_thread_now (self);
}

static void
waker_body (NsThread *self, gpointer data)
{
  Actor *a = data;
  NsThread *sleeper = a->prog->actors[0].thread;

  ns_thread_advance (self, 300);
  ck_assert_int_eq (ns_thread_state (sleeper), NS_THREAD_BLOCKED);
  ck_assert (ns_thread_wake (sleeper, ns_thread_now (self)));
  ck_assert (!ns_thread_wake (sleeper, ns_thread_now (self)));   /* already runnable */
  ck_assert_int_eq (ns_thread_state (sleeper), NS_THREAD_RUNNABLE);
}

static void
wake_actor0_event (gpointer data)
{
  Prog *p = data;
  ck_assert_ptr_null (ns_thread_self ());
  ck_assert_int_eq (ns_engine_now (p->engine), NS_NS (700));
  ck_assert (ns_thread_wake (p->actors[0].thread, ns_engine_now (p->engine)));
}

START_TEST (test_block_wake)
{
  Prog *p = prog_new (2, 1.0, NS_US (10));
  Actor *s = prog_spawn (p, 0, NS_THREAD_USER, 0, sleeper_body);
  Actor *w = prog_spawn (p, 1, NS_THREAD_USER, 0, waker_body);

  ns_engine_schedule (p->engine, NS_NS (700), wake_actor0_event, p);
  ns_engine_run (p->engine, NS_TIME_FOREVER);

  ck_assert_int_eq (s->mark[0], NS_NS (200));
  ck_assert_int_eq (s->mark[1], NS_NS (300));
  ck_assert_int_eq (s->mark[2], NS_NS (400));
  ck_assert_int_eq (s->mark[3], NS_NS (700));
  ck_assert_int_eq (ns_thread_state (s->thread), NS_THREAD_DONE);
  ck_assert (!ns_thread_wake (s->thread, 0));       /* done: not waiting */
  ck_assert (!ns_thread_wake (w->thread, 0));
  prog_free (p);
}
END_TEST

/* Blocks at once and notes when it is back. */
static void
blocker_body (NsThread *self, gpointer data)
{
  Actor *a = data;

  ns_thread_block (self);
  a->mark[0] = ns_thread_now (self);
}

/* Works 100 ns, wakes actor 0 (a user thread on its own CPU), then works ten more steps
 * of 100 ns, noting where it stood after the first of them. */
static void
local_waker_body (NsThread *self, gpointer data)
{
  Actor *a = data;

  ns_thread_advance (self, 100);
  ck_assert (ns_thread_wake (a->prog->actors[0].thread, ns_thread_now (self)));
  for (guint i = 0; i < 10; i++)
    ns_thread_advance (self, 100);
  a->mark[0] = ns_thread_now (self);
}

/* Waking a user thread on one's own CPU does not preempt: only softirq work does (the
 * woken thread waits for the waker's slice to end, here for the waker to finish). */
START_TEST (test_user_wake_does_not_preempt)
{
  Prog *p = prog_new (1, 1.0, NS_US (10));
  Actor *sleeper = prog_spawn (p, 0, NS_THREAD_USER, 0, blocker_body);
  Actor *waker = prog_spawn (p, 0, NS_THREAD_USER, 0, local_waker_body);

  ns_engine_run (p->engine, NS_TIME_FOREVER);
  ck_assert_int_eq (waker->mark[0], NS_NS (1100));
  ck_assert_int_eq (sleeper->mark[0], NS_NS (1100));
  ck_assert_uint_eq (ns_thread_breaks (waker->thread), 1);
  prog_free (p);
}
END_TEST

/* A wake with a time before the thread stopped does not move it back. */
static void
early_waker_body (NsThread *self, gpointer data)
{
  Actor *a = data;
  NsThread *sleeper = a->prog->actors[0].thread;

  ck_assert (ns_thread_wake (sleeper, 0));
  ck_assert_int_eq (ns_thread_now (sleeper), NS_NS (100));   /* where it stopped */
}

START_TEST (test_wake_never_goes_back)
{
  Prog *p = prog_new (2, 1.0, NS_US (10));
  Actor *s = prog_spawn (p, 0, NS_THREAD_USER, 0, sleeper_body);

  prog_spawn (p, 1, NS_THREAD_USER, NS_NS (150), early_waker_body);
  ns_engine_schedule (p->engine, NS_NS (700), wake_actor0_event, p);
  ns_engine_run (p->engine, NS_TIME_FOREVER);
  ck_assert_int_eq (s->mark[0], NS_NS (50));        /* woken at 150, stopped at 100 */
  ck_assert_int_eq (s->mark[1], NS_NS (150));
  prog_free (p);
}
END_TEST

/* ---- spin ---- */

static void
spinner_body (NsThread *self, gpointer data)
{
  Actor *a = data;

  ns_thread_advance (self, 100);
  a->mark[0] = a->flag ? ns_thread_spin (self) : ns_thread_block (self);
  ck_assert_int_eq (ns_thread_state (self), NS_THREAD_RUNNING);
  a->mark[1] = ns_thread_now (self);
  ns_thread_advance (self, 100);
}

static void
bystander_body (NsThread *self, gpointer data)
{
  Actor *a = data;
  a->mark[0] = ns_thread_now (self);
  ns_thread_advance (self, 50);
}

static void
release_body (NsThread *self, gpointer data)
{
  Actor *a = data;
  NsThread *spinner = a->prog->actors[0].thread;

  ns_thread_advance (self, 1000);
  ck_assert_int_eq (ns_thread_state (spinner), a->flag ? NS_THREAD_SPINNING : NS_THREAD_BLOCKED);
  ck_assert (ns_thread_wake (spinner, ns_thread_now (self)));
}

static void
run_spin_case (gboolean spin, NsTime *spun, NsTime *bystander_start, NsTime *cpu0_end)
{
  Prog *p = prog_new (2, 1.0, NS_US (10));
  Actor *sp = prog_spawn (p, 0, NS_THREAD_USER, 0, spinner_body);
  Actor *by = prog_spawn (p, 0, NS_THREAD_USER, NS_NS (150), bystander_body);
  Actor *rel = prog_spawn (p, 1, NS_THREAD_USER, 0, release_body);

  sp->flag = rel->flag = spin;
  ns_engine_run (p->engine, NS_TIME_FOREVER);
  *spun = sp->mark[0];
  *bystander_start = by->mark[0];
  *cpu0_end = ns_engine_cpu_now (p->engine, 0);
  ck_assert_int_eq (sp->mark[1], NS_NS (1000));
  prog_free (p);
}

START_TEST (test_spin_keeps_cpu)
{
  NsTime spun, start, end;

  run_spin_case (TRUE, &spun, &start, &end);
  ck_assert_int_eq (spun, NS_NS (900));
  ck_assert_int_eq (start, NS_NS (1100));           /* only after the spinner went on */
  ck_assert_int_eq (end, NS_NS (1150));

  run_spin_case (FALSE, &spun, &start, &end);       /* control: blocking frees the CPU */
  ck_assert_int_eq (spun, NS_NS (900));
  ck_assert_int_eq (start, NS_NS (150));
  ck_assert_int_eq (end, NS_NS (1100));
}
END_TEST

/* ---- sleep_until ---- */

static void
nap_body (NsThread *self, gpointer data)
{
  Actor *a = data;

  ns_thread_advance (self, 10);
  ns_thread_sleep_until (self, NS_US (5));
  a->mark[0] = ns_thread_now (self);
  ns_thread_sleep_until (self, NS_US (1));          /* in the past: returns at once */
  a->mark[1] = ns_thread_now (self);
}

static void
interrupted_nap_body (NsThread *self, gpointer data)
{
  Actor *a = data;

  ns_thread_sleep_until (self, NS_US (10));
  a->mark[0] = ns_thread_now (self);
  ns_thread_block (self);                            /* nobody wakes us again */
  a->mark[1] = 1;
}

static void
alarm_body (NsThread *self, gpointer data)
{
  Actor *a = data;

  ns_thread_advance (self, 2000);
  ck_assert (ns_thread_wake (a->prog->actors[1].thread, ns_thread_now (self)));
}

START_TEST (test_sleep_until)
{
  Prog *p = prog_new (3, 1.0, NS_US (1));
  Actor *nap = prog_spawn (p, 0, NS_THREAD_USER, 0, nap_body);
  Actor *inter = prog_spawn (p, 1, NS_THREAD_USER, 0, interrupted_nap_body);

  prog_spawn (p, 2, NS_THREAD_USER, 0, alarm_body);
  ns_engine_run (p->engine, NS_TIME_FOREVER);

  ck_assert_int_eq (nap->mark[0], NS_US (5));
  ck_assert_int_eq (nap->mark[1], NS_US (5));
  ck_assert_int_eq (inter->mark[0], NS_US (2));
  ck_assert_int_eq (inter->mark[1], 0);              /* the cancelled alarm did not fire */
  ck_assert_int_eq (ns_thread_state (inter->thread), NS_THREAD_BLOCKED);
  ck_assert_uint_eq (ns_engine_n_events (p->engine), 1);
  ck_assert_int_eq (ns_engine_now (p->engine), NS_US (5));
  prog_free (p);
}
END_TEST

/* ---- fractional cycles ---- */

static void
fraction_body (NsThread *self, gpointer data)
{
  Actor *a = data;
  guint i;

  for (i = 0; i < 1000000; i++)
    ns_thread_advance (self, a->cost);
  a->mark[0] = ns_thread_now (self);
}

static NsTime
run_fraction (double ghz, double cycles)
{
  Prog *p = prog_new (1, ghz, NS_TIME_FOREVER);
  Actor *a = prog_spawn (p, 0, NS_THREAD_USER, 0, fraction_body);
  NsTime t;

  a->cost = cycles;
  ns_engine_run (p->engine, NS_TIME_FOREVER);
  t = a->mark[0];
  prog_free (p);
  return t;
}

START_TEST (test_fractional_carry)
{
  NsTime t;

  t = run_fraction (3.0, 0.3);          /* 0.1 ns each: 1e6 × 100 ps */
  ck_assert_int_le (ABS (t - NS_PS (100000000)), 1);
  t = run_fraction (3.0, 0.0003);       /* 0.1 ps each: only the carry makes it count */
  ck_assert_int_le (ABS (t - NS_PS (100000)), 1);
  t = run_fraction (2.7, 1.0);          /* 370.37… ps each */
  ck_assert_int_le (ABS (t - NS_PS (370370370)), 1);
}
END_TEST

/* ---- determinism ---- */

static void
wake_random_event (gpointer data)
{
  Actor *a = data;
  TraceEntry e = { -1, 0, ns_engine_now (a->prog->engine) };

  g_array_append_val (a->prog->trace, e);
  ns_thread_wake (a->thread, ns_engine_now (a->prog->engine));
}

/* Periodic event: wakes every waiting thread while any is unfinished. */
static void
tick_event (gpointer data)
{
  Prog *p = data;
  gboolean any = FALSE;
  guint i;

  for (i = 0; i < p->n_actors; i++)
    if (ns_thread_state (p->actors[i].thread) != NS_THREAD_DONE)
      {
        ns_thread_wake (p->actors[i].thread, ns_engine_now (p->engine));
        any = TRUE;
      }
  if (any)
    ns_engine_schedule (p->engine, ns_engine_now (p->engine) + NS_US (3), tick_event, p);
}

static void
random_body (NsThread *self, gpointer data)
{
  Actor *a = data;
  Prog *p = a->prog;
  guint i;

  for (i = 0; i < a->steps; i++)
    {
      gint op = g_rand_int_range (a->rng, 0, 100);
      Actor *other = &p->actors[g_rand_int_range (a->rng, 0, p->n_actors)];

      note (a);
      if (op < 50)
        ns_thread_advance (self, g_rand_double_range (a->rng, 0.5, 800.0));
      else if (op < 60)
        ns_thread_yield (self);
      else if (op < 70)
        ns_thread_sleep_until (self, ns_thread_now (self) + g_rand_int_range (a->rng, -100, 2000) * 1000);
      else if (op < 82)
        ns_thread_wake (other->thread, ns_thread_now (self) + g_rand_int_range (a->rng, 0, 500) * 1000);
      else if (op < 88)
        ns_thread_block (self);
      else if (op < 92)
        ns_thread_spin (self);
      else if (op < 97)
        ns_engine_schedule (p->engine, ns_thread_now (self) + g_rand_int_range (a->rng, 0, 3000) * 1000,
                            wake_random_event, other);
      else
        ns_thread_advance_time (self, g_rand_int_range (a->rng, 0, 5000));
      if (a->flag > 0 && i == (guint) a->flag)
        ns_engine_stop (p->engine);
    }
  note (a);
}

/* Builds the randomised program: 8 threads on 3 CPUs of different speeds. */
static Prog *
random_prog (guint32 seed, gint stop_at)
{
  static const double ghz[3] = { 2.0, 3.1, 2.45 };
  Prog *p = g_new0 (Prog, 1);
  guint i;

  p->engine = ns_engine_new (3, ghz, NS_NS (800));
  p->trace = g_array_new (FALSE, FALSE, sizeof (TraceEntry));
  for (i = 0; i < 8; i++)
    {
      Actor *a = prog_spawn (p, i % 3, (i % 4 == 3) ? NS_THREAD_SOFTIRQ : NS_THREAD_USER,
                             i * 1000, random_body);
      a->rng = g_rand_new_with_seed (seed + i);
      a->steps = 400;
    }
  p->actors[5].flag = stop_at;
  ns_engine_schedule (p->engine, NS_US (3), tick_event, p);
  return p;
}

static gboolean
traces_equal (GArray *a, GArray *b)
{
  guint i;

  if (a->len != b->len)
    return FALSE;
  for (i = 0; i < a->len; i++)
    {
      TraceEntry *x = &g_array_index (a, TraceEntry, i), *y = &g_array_index (b, TraceEntry, i);
      if (x->id != y->id || x->t != y->t || (x->id >= 0 && x->cpu != y->cpu))
        return FALSE;
    }
  return TRUE;
}

START_TEST (test_determinism)
{
  Prog *a = random_prog (99, 0), *b = random_prog (99, 0), *c = random_prog (100, 0);
  guint i;

  ns_engine_run (a->engine, NS_TIME_FOREVER);
  ns_engine_run (b->engine, NS_TIME_FOREVER);
  ns_engine_run (c->engine, NS_TIME_FOREVER);

  ck_assert_uint_gt (a->trace->len, 1000);
  assert_monotone (a->trace);
  ck_assert (traces_equal (a->trace, b->trace));
  ck_assert (!traces_equal (a->trace, c->trace));   /* the trace does depend on the program */
  ck_assert_int_eq (ns_engine_now (a->engine), ns_engine_now (b->engine));
  ck_assert_uint_eq (ns_engine_n_switches (a->engine), ns_engine_n_switches (b->engine));
  ck_assert_uint_eq (ns_engine_n_events (a->engine), ns_engine_n_events (b->engine));
  for (i = 0; i < 8; i++)
    {
      ck_assert_int_eq (ns_thread_state (a->actors[i].thread), NS_THREAD_DONE);
      ck_assert_int_eq (ns_thread_now (a->actors[i].thread), ns_thread_now (b->actors[i].thread));
    }
  prog_free (a);
  prog_free (b);
  prog_free (c);
}
END_TEST

/* ---- an observer watches and changes nothing ---- */

typedef struct {
  guint  calls;
  NsTime last;
  gboolean monotone;
} Watch;

static void
watch_observer (NsEngine *engine, gpointer data)
{
  Watch *w = data;

  w->monotone = w->monotone && ns_engine_now (engine) >= w->last;
  w->last = ns_engine_now (engine);
  w->calls++;
}

START_TEST (test_observer_changes_nothing)
{
  Prog *plain = random_prog (99, 0), *watched = random_prog (99, 0);
  Watch w = { 0, 0, TRUE };

  ns_engine_set_observer (watched->engine, 7, watch_observer, &w);
  ns_engine_run (plain->engine, NS_TIME_FOREVER);
  ns_engine_run (watched->engine, NS_TIME_FOREVER);
  ck_assert_uint_gt (w.calls, 100);
  /* every 7th step: a step resumes a thread or dispatches an event */
  ck_assert_uint_eq (w.calls, (ns_engine_n_switches (watched->engine)
                               + ns_engine_n_events (watched->engine)) / 7);
  ck_assert (w.monotone);
  ck_assert (traces_equal (plain->trace, watched->trace));
  ck_assert_int_eq (ns_engine_now (plain->engine), ns_engine_now (watched->engine));
  ck_assert_uint_eq (ns_engine_n_events (plain->engine), ns_engine_n_events (watched->engine));
  /* removed, it is called no more */
  ns_engine_set_observer (watched->engine, 0, NULL, NULL);
  w.calls = 0;
  for (guint i = 1; i <= 10; i++)   /* ten steps: a 7-step observer would see one */
    ns_engine_schedule (watched->engine, ns_engine_now (watched->engine) + i, tick_event, watched);
  ns_engine_run (watched->engine, NS_TIME_FOREVER);
  ck_assert_uint_eq (w.calls, 0);
  prog_free (plain);
  prog_free (watched);
}
END_TEST

/* ---- run(end) and stop ---- */

static gboolean
prog_all_done (Prog *p)
{
  guint i;

  for (i = 0; i < p->n_actors; i++)
    if (ns_thread_state (p->actors[i].thread) != NS_THREAD_DONE)
      return FALSE;
  return TRUE;
}

START_TEST (test_run_until_and_continue)
{
  Prog *whole = random_prog (7, 0), *parts = random_prog (7, 0);
  NsTime end = 0;
  guint n_runs = 0;

  ns_engine_run (whole->engine, NS_TIME_FOREVER);
  ck_assert (prog_all_done (whole));

  while (!prog_all_done (parts))
    {
      guint before = parts->trace->len, i;
      NsTime reached;

      end += NS_US (5);
      reached = ns_engine_run (parts->engine, end);
      n_runs++;
      for (i = before; i < parts->trace->len; i++)
        ck_assert_int_lt (g_array_index (parts->trace, TraceEntry, i).t, end);
      if (!prog_all_done (parts))
        ck_assert_int_eq (reached, end);
      ck_assert_int_eq (reached, ns_engine_now (parts->engine));
      ck_assert_uint_lt (n_runs, 100000);
    }
  ck_assert_uint_gt (n_runs, 3);
  ck_assert (traces_equal (whole->trace, parts->trace));
  ck_assert_uint_eq (ns_engine_n_switches (whole->engine), ns_engine_n_switches (parts->engine));
  ck_assert_uint_eq (ns_engine_n_events (whole->engine), ns_engine_n_events (parts->engine));
  prog_free (whole);
  prog_free (parts);
}
END_TEST

START_TEST (test_stop)
{
  Prog *whole = random_prog (31, 0), *stopped = random_prog (31, 150);
  NsTime t;

  ns_engine_run (whole->engine, NS_TIME_FOREVER);
  ns_engine_run (stopped->engine, NS_TIME_FOREVER);
  ck_assert (!prog_all_done (stopped));
  ck_assert_uint_lt (stopped->trace->len, whole->trace->len);
  t = ns_engine_run (stopped->engine, NS_TIME_FOREVER);
  ck_assert (prog_all_done (stopped));
  ck_assert_int_eq (t, ns_engine_now (whole->engine));
  ck_assert (traces_equal (whole->trace, stopped->trace));
  prog_free (whole);
  prog_free (stopped);
}
END_TEST

static void
long_nap_body (NsThread *self, gpointer data)
{
  ns_thread_sleep_until (self, NS_US (10));
}

START_TEST (test_nothing_left)
{
  Prog *p = prog_new (2, 1.0, NS_US (1));
  Actor *a;

  ck_assert_int_eq (ns_engine_run (p->engine, NS_TIME_FOREVER), 0);
  ck_assert_int_eq (ns_engine_run (p->engine, NS_US (3)), 0);       /* nothing to wait for */
  a = prog_spawn (p, 1, NS_THREAD_USER, 0, long_nap_body);
  ck_assert_int_eq (ns_engine_run (p->engine, NS_US (3)), NS_US (3)); /* time passes to end */
  ck_assert_int_eq (ns_engine_now (p->engine), NS_US (3));
  ck_assert_int_eq (ns_thread_state (a->thread), NS_THREAD_BLOCKED);
  ck_assert_int_eq (ns_engine_run (p->engine, NS_TIME_FOREVER), NS_US (10));
  ck_assert_int_eq (ns_thread_state (a->thread), NS_THREAD_DONE);
  prog_free (p);
}
END_TEST

/* ---- bookkeeping ---- */

/* NsFunc is opaque to the engine: any distinct addresses do. */
static gint64 func_storage[2];
#define FN_A ((NsFunc *) (void *) &func_storage[0])
#define FN_B ((NsFunc *) (void *) &func_storage[1])

static void
bookkeeping_body (NsThread *self, gpointer data)
{
  Actor *a = data;

  ck_assert_ptr_eq (ns_thread_self (), self);
  ck_assert_int_eq (ns_thread_state (self), NS_THREAD_RUNNING);
  ck_assert_ptr_null (ns_thread_current_func (self));
  ck_assert_uint_eq (ns_thread_call_depth (self), 0);
  ns_thread_push_func (self, FN_A);
  ns_thread_push_func (self, FN_B);
  ns_thread_yield (self);
  ck_assert_ptr_eq (ns_thread_current_func (self), FN_B);
  ck_assert_uint_eq (ns_thread_call_depth (self), 2);
  ns_thread_pop_func (self);
  ck_assert_ptr_eq (ns_thread_current_func (self), FN_A);
  ns_thread_pop_func (self);
  ck_assert_uint_eq (ns_thread_call_depth (self), 0);
  ck_assert_ptr_eq (ns_thread_get_exec (self), a);
  a->flag++;
}

static void
collect_names (NsThread *t, gpointer data)
{
  g_string_append_printf (data, "%s@%u ", ns_thread_name (t), ns_thread_cpu (t));
}

/* ---- calling contexts ---- */

/* Stand-ins for simulated functions: the engine never looks inside an NsFunc. */
static int func_a, func_b, func_c, func_d;
#define FA ((NsFunc *) &func_a)
#define FB ((NsFunc *) &func_b)
#define FC ((NsFunc *) &func_c)
#define FD ((NsFunc *) &func_d)

typedef struct {
  guint root, a, a_b, a_b_c, a_d, a_b_again, a_again, b, a_outb, a_d_again;
} Contexts;

/* Walks frames so that some paths repeat (same id) and some differ only by inlining. */
static void
context_body (NsThread *t, gpointer data)
{
  Contexts *c = data;

  c->root = ns_thread_context (t);
  ns_thread_push_func (t, FA);
  c->a = ns_thread_context (t);
  ns_thread_enter_inline (t, FB);
  c->a_b = ns_thread_context (t);
  ns_thread_push_func (t, FC);
  c->a_b_c = ns_thread_context (t);
  ns_thread_pop_func (t);
  ns_thread_leave_inline (t);
  ns_thread_push_func (t, FD);
  c->a_d = ns_thread_context (t);
  ns_thread_pop_func (t);
  ns_thread_enter_inline (t, FB);   /* after D joined A's children: still the same node */
  c->a_b_again = ns_thread_context (t);
  ns_thread_leave_inline (t);
  ns_thread_push_func (t, FB);      /* B out of line under A: another context */
  c->a_outb = ns_thread_context (t);
  ns_thread_pop_func (t);
  ns_thread_push_func (t, FD);      /* D again, after B moved ahead of it */
  c->a_d_again = ns_thread_context (t);
  ns_thread_pop_func (t);
  ns_thread_pop_func (t);
  ck_assert_uint_eq (ns_thread_context (t), c->root);
  ns_thread_push_func (t, FA);
  c->a_again = ns_thread_context (t);
  ns_thread_pop_func (t);
  ns_thread_push_func (t, FB);
  c->b = ns_thread_context (t);
  ns_thread_pop_func (t);
}

/* Asserts what the engine says of context id. */
static void
assert_context (NsEngine *e, guint id, NsFunc *func, gboolean inlined, NsThread *thread,
                guint parent)
{
  gboolean got_inlined = !inlined;
  NsThread *got_thread = NULL;
  guint got_parent = G_MAXUINT;

  ck_assert_ptr_eq (ns_engine_context (e, id, &got_inlined, &got_thread, &got_parent), func);
  ck_assert_int_eq (got_inlined, inlined);
  ck_assert_ptr_eq (got_thread, thread);
  ck_assert_uint_eq (got_parent, parent);
}

START_TEST (test_calling_contexts)
{
  static const double ghz[1] = { 1.0 };
  NsEngine *e = ns_engine_new (1, ghz, NS_US (1));
  Contexts c1 = { 0 }, c2 = { 0 };
  NsThread *t1 = ns_engine_spawn (e, "one", 0, NS_THREAD_USER, 0, context_body, &c1);
  NsThread *t2 = ns_engine_spawn (e, "two", 0, NS_THREAD_USER, 0, context_body, &c2);

  ns_engine_run (e, NS_TIME_FOREVER);
  /* a path entered again is the same context; another path is another */
  ck_assert_uint_eq (c1.a_again, c1.a);
  ck_assert_uint_eq (c1.a_b_again, c1.a_b);
  ck_assert_uint_eq (c1.a_d_again, c1.a_d);
  ck_assert_uint_ne (c1.a_outb, c1.a_b);
  ck_assert_uint_ne (c1.b, c1.a_outb);
  ck_assert_uint_ne (c1.a_d, c1.a_b);
  assert_context (e, c1.root, NULL, FALSE, t1, 0);
  assert_context (e, c1.a, FA, FALSE, t1, c1.root);
  assert_context (e, c1.a_b, FB, TRUE, t1, c1.a);
  assert_context (e, c1.a_b_c, FC, FALSE, t1, c1.a_b);
  assert_context (e, c1.a_d, FD, FALSE, t1, c1.a);
  assert_context (e, c1.a_outb, FB, FALSE, t1, c1.a);
  assert_context (e, c1.b, FB, FALSE, t1, c1.root);
  /* each thread has a tree of its own: 7 contexts each (root, A, A+B, A+B·C, A·D, A·B,
   * B), ids from 1 */
  ck_assert_uint_ne (c2.root, c1.root);
  assert_context (e, c2.a_b_c, FC, FALSE, t2, c2.a_b);
  ck_assert_uint_eq (ns_engine_n_contexts (e), 1 + 2 * 7);
  ns_engine_free (e);
}
END_TEST

START_TEST (test_bookkeeping)
{
  static const double ghz[3] = { 1.5, 2.5, 3.5 };
  NsEngine *e = ns_engine_new (3, ghz, NS_US (1));
  Prog holder = { e, NULL, { { 0 } }, 0, 0 };
  GString *names = g_string_new (NULL);
  Actor *a = &holder.actors[0];
  int machine;
  NsThread *t1, *t2;
  guint i;

  ck_assert_uint_eq (ns_engine_n_cpus (e), 3);
  ck_assert (ns_engine_cpu_ghz (e, 2) == 3.5);
  ns_engine_set_machine (e, &machine);
  ck_assert_ptr_eq (ns_engine_get_machine (e), &machine);
  ck_assert_ptr_null (ns_thread_self ());

  a->prog = &holder;
  t1 = ns_engine_spawn (e, "ksoftirqd/2", 2, NS_THREAD_SOFTIRQ, 0, bookkeeping_body, a);
  t2 = ns_engine_spawn (e, "iperf3", 0, NS_THREAD_USER, 0, bookkeeping_body, a);
  ck_assert_ptr_eq (ns_thread_engine (t1), e);
  ck_assert_int_eq (ns_thread_class (t1), NS_THREAD_SOFTIRQ);
  ck_assert_int_eq (ns_thread_class (t2), NS_THREAD_USER);
  ck_assert_int_eq (ns_thread_state (t1), NS_THREAD_RUNNABLE);
  ns_thread_set_exec (t1, a);
  ns_thread_set_exec (t2, a);
  ns_engine_foreach_thread (e, collect_names, names);
  ck_assert_str_eq (names->str, "ksoftirqd/2@2 iperf3@0 ");

  ns_engine_run (e, NS_TIME_FOREVER);
  ck_assert_int_eq (a->flag, 2);
  ck_assert_ptr_null (ns_thread_self ());
  ck_assert_int_eq (ns_thread_state (t1), NS_THREAD_DONE);
  ck_assert_uint_eq (ns_engine_n_switches (e), 4);
  for (i = 0; i < 3; i++)
    ck_assert_int_eq (ns_engine_cpu_now (e, i), 0);

  g_string_free (names, TRUE);
  ns_engine_free (e);
  ns_engine_free (NULL);                            /* a no-op, as g_free's */
}
END_TEST

/* Freeing an engine whose threads are suspended mid-function releases them. */
START_TEST (test_free_suspended)
{
  Prog *p = random_prog (5, 0);

  ns_engine_run (p->engine, NS_US (4));
  ck_assert (!prog_all_done (p));
  prog_free (p);
}
END_TEST

static Suite *
engine_suite (void)
{
  Suite *s = suite_create ("engine");
  TCase *tc = tcase_create ("engine");

  tcase_add_test (tc, test_smallest_time_first);
  tcase_add_test (tc, test_ties_in_spawn_order);
  tcase_add_test (tc, test_quantum_bounds_skew);
  tcase_add_test (tc, test_softirq_preempts_at_quantum);
  tcase_add_test (tc, test_softirq_preempts_mid_slice);
  tcase_add_test (tc, test_breaks);
  tcase_add_test (tc, test_softirq_raised_locally);
  tcase_add_test (tc, test_event_first_at_a_tie);
  tcase_add_test (tc, test_block_wake);
  tcase_add_test (tc, test_wake_never_goes_back);
  tcase_add_test (tc, test_user_wake_does_not_preempt);
  tcase_add_test (tc, test_spin_keeps_cpu);
  tcase_add_test (tc, test_sleep_until);
  tcase_add_test (tc, test_fractional_carry);
  tcase_add_test (tc, test_determinism);
  tcase_add_test (tc, test_observer_changes_nothing);
  tcase_add_test (tc, test_run_until_and_continue);
  tcase_add_test (tc, test_stop);
  tcase_add_test (tc, test_nothing_left);
  tcase_add_test (tc, test_bookkeeping);
  tcase_add_test (tc, test_calling_contexts);
  tcase_add_test (tc, test_free_suspended);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (engine_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
