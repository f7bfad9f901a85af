/* engine.c — simulated CPUs, simulated threads (coroutines) and the dispatcher.
 *
 * Semantics
 * ---------
 * Time. Every simulated CPU has a clock `now` (NsTime, picoseconds). A thread running on
 * a CPU charges work with ns_thread_advance (cycles → ps = cycles * 1000 / GHz of its CPU;
 * the fractional picoseconds are carried in a per-CPU double remainder, so nothing is lost
 * over billions of calls) or ns_thread_advance_time (a span). The running thread's clock
 * and its CPU's clock are the same. The engine's global now is the time of the last event
 * dispatched or thread resumed; it never goes backwards.
 *
 * Dispatch (ns_engine_run). Repeatedly:
 *   1. For every CPU, its candidate: none while a thread is SPINNING on it (once woken,
 *      that thread itself, before any other thread of its CPU); else the runnable thread
 *      to run next there, starting at max(cpu.now, thread.ready). Within a class the
 *      earliest ready time wins, then spawn order. Between classes the softirq thread
 *      wins whenever it can start no later than the user thread; if the user thread could
 *      start strictly earlier it runs, and is preempted at its first advance that reaches
 *      the softirq's ready time (see Yielding), so the CPU never idles while user work is
 *      ready.
 *   2. The candidate with the smallest start wins (ties: lower CPU index).
 *   3. If the earliest pending event's time ≤ that start (or there is no candidate), the
 *      event is dispatched instead: global now = its time, its callback runs in scheduler
 *      context (ns_thread_self() == NULL).
 *   4. If the next thing would start at ≥ end, the global now becomes end and run returns;
 *      if there is nothing left (all threads done or waiting, no event), run returns.
 *   5. Otherwise the thread is resumed with cpu.now = thread.now = slice start = start,
 *      and runs until it yields.
 *
 * Yielding. A running thread returns control to the engine:
 *   - ns_thread_yield: stays RUNNABLE with ready = its now;
 *   - inside advance/advance_time, when now − slice start ≥ quantum, or (user threads only)
 *     when a runnable softirq thread on its CPU has ready ≤ now (preemption); it stays
 *     RUNNABLE with ready = its now;
 *   - ns_thread_block: BLOCKED, its CPU is free for other threads;
 *   - ns_thread_spin: SPINNING, its CPU runs nothing else until the thread is woken;
 *   - ns_thread_sleep_until: BLOCKED plus an event that wakes it at the given time;
 *   - when its function returns: DONE.
 *
 * Waking. ns_thread_wake(t, at) acts only on BLOCKED or SPINNING threads (else FALSE): t
 * becomes RUNNABLE with ready = max(at, the time it stopped), and its clock jumps there. A
 * woken SPINNING thread's CPU clock also becomes that time (the CPU was busy spinning all
 * along) and it is the next thread resumed there, so spin returns exactly the time spun.
 * Block and spin return the span the thread's clock moved while it waited (resume
 * time − stop time). Wake works from a running thread and from an event callback; a
 * thread woken before its sleep_until time has its wake-up event cancelled.
 *
 * Calling. advance, advance_time, yield, block, spin and sleep_until are made by the
 * running thread on itself (else a g_return_if_fail critical); wake, the accessors, the
 * attribution stack and the exec slot work on any thread.
 *
 * Times in the past. Events scheduled before the global now, and threads whose start
 * would be before it, are moved to the global now, so time stays monotone.
 *
 * Ownership. The engine owns its threads and their coroutines (256 KiB stacks) and frees
 * them with itself; the exec slot and the attribution stack's NsFunc pointers belong to
 * the caller. Everything is deterministic: no host addresses, hashing or wall time decide
 * any order. */
#include "config.h"

#include "engine.h"
#include "coro.h"

#include <math.h>

typedef struct _NsCpu NsCpu;

struct _NsCpu {
  guint      index;
  double     ghz;
  NsTime     now;
  double     frac_ps;        /* fractional picoseconds not yet charged, in [0, 1) */
  GPtrArray *threads;        /* NsThread bound here and not done, in spawn order */
  NsThread  *spinner;        /* thread spinning here, or NULL */
  NsThread  *candidate;      /* next thread to run here (valid unless dirty) */
  NsTime     cand_start;     /* its start time, NS_TIME_FOREVER if none */
  NsTime     softirq_ready;  /* earliest ready among runnable softirq threads here */
  gboolean   dirty;          /* candidate must be recomputed */
  NsThread  *last;           /* the thread that ran here last, or NULL */
};

struct _NsThread {
  NsEngine      *engine;
  NsCpu         *cpu;
  char          *name;
  guint          index;       /* spawn order */
  NsThreadClass  klass;
  NsThreadState  state;
  NsTime         now;         /* local clock */
  NsTime         ready;       /* RUNNABLE: earliest start */
  NsTime         stopped;     /* BLOCKED / SPINNING: when it stopped */
  NsTime         slice_start; /* RUNNING: when this slice began */
  guint64        sleep_seq;   /* pending sleep_until wake-up event, 0 if none */
  NsCoro        *coro;
  NsThreadFunc   fn;
  gpointer       data;
  NsFunc       **funcs;       /* attribution stack */
  guint          n_funcs;
  guint          funcs_alloc;
  guint          context;     /* its calling context: an id of engine->contexts */
  gpointer       exec;
  guint64        breaks;      /* resumptions after a wait or after another thread ran on
                                 its CPU (ns_thread_breaks) */
  gboolean       waited;      /* switched out BLOCKED or SPINNING since it last ran */
};

/* A node of the engine's calling-context tree: one distinct chain of frames, from a
 * thread's root. Children are a sibling list kept most-recently-entered first. */
typedef struct {
  NsFunc   *func;             /* NULL: the root of thread */
  NsThread *thread;
  guint     parent;           /* 0 for a root */
  guint     child;            /* first child, 0 if none */
  guint     sibling;          /* next sibling, 0 if none */
  gboolean  inlined;
} NsContext;

struct _NsEngine {
  guint         n_cpus;
  NsCpu        *cpus;
  GArray       *active_cpus;  /* guint: CPUs that ever had a thread, ascending */
  NsTime        quantum;
  NsTime        now;
  NsEventQueue *events;
  GPtrArray    *threads;      /* every thread, spawn order */
  GArray       *contexts;     /* NsContext by id; id 0 is unused (none) */
  gpointer      machine;
  guint64       n_switches;
  guint64       n_events;
  gboolean      in_run;
  gboolean      stop_requested;
  /* ns_engine_set_observer: called every observe_every steps of ns_engine_run */
  NsEngineObserver observer;
  gpointer      observer_data;
  guint         observe_every;
  guint         steps_unobserved;
  gboolean      in_observer;  /* the observer runs: the engine must not change */
};

static __thread NsThread *current_thread;

/* ---- calling contexts ---- */

/* The context node with id `id` (unchecked); the pointer is valid until the next context_new. */
static inline NsContext *
context_at (NsEngine *engine, guint id)
{
  return &g_array_index (engine->contexts, NsContext, id);
}

/* Appends a node under parent (0: a root) and returns its id. */
static guint
context_new (NsEngine *engine, guint parent, NsFunc *func, NsThread *thread,
             gboolean inlined)
{
  NsContext node = { func, thread, parent, 0, 0, inlined };
  guint id = engine->contexts->len;

  if (parent != 0)
    {
      node.sibling = context_at (engine, parent)->child;
      context_at (engine, parent)->child = id;
    }
  g_array_append_val (engine->contexts, node);
  return id;
}

/* The child of parent for a frame of func (inlined or not), created on first entry. The
 * child found moves to the head of the list: a hot path finds its child first. */
static guint
context_child (NsEngine *engine, guint parent, NsFunc *func, gboolean inlined)
{
  NsContext *p = context_at (engine, parent);
  guint prev = 0;

  for (guint id = p->child; id != 0; prev = id, id = context_at (engine, id)->sibling)
    {
      NsContext *c = context_at (engine, id);
      if (c->func != func || c->inlined != inlined)
        continue;
      if (prev != 0)
        {
          context_at (engine, prev)->sibling = c->sibling;
          c->sibling = p->child;
          p->child = id;
        }
      return id;
    }
  return context_new (engine, parent, func, p->thread, inlined);
}

/* ---- engine ---- */

/* Creates an engine of n_cpus CPUs clocked at cpu_ghz[i] GHz, with the given quantum. */
NsEngine *
ns_engine_new (guint n_cpus, const double *cpu_ghz, NsTime quantum)
{
  NsEngine *engine;
  guint i;

  g_return_val_if_fail (n_cpus > 0, NULL);
  g_return_val_if_fail (cpu_ghz != NULL, NULL);
  g_return_val_if_fail (quantum >= 0, NULL);
  for (i = 0; i < n_cpus; i++)
    g_return_val_if_fail (cpu_ghz[i] > 0.0 && isfinite (cpu_ghz[i]), NULL);

  engine = g_new0 (NsEngine, 1);
  engine->n_cpus = n_cpus;
  engine->cpus = g_new0 (NsCpu, n_cpus);
  for (i = 0; i < n_cpus; i++)
    {
      NsCpu *cpu = &engine->cpus[i];
      cpu->index = i;
      cpu->ghz = cpu_ghz[i];
      cpu->threads = g_ptr_array_new ();
      cpu->cand_start = NS_TIME_FOREVER;
      cpu->softirq_ready = NS_TIME_FOREVER;
    }
  engine->active_cpus = g_array_new (FALSE, FALSE, sizeof (guint));
  engine->quantum = quantum;
  engine->events = ns_event_queue_new ();
  engine->threads = g_ptr_array_new ();
  engine->contexts = g_array_sized_new (FALSE, TRUE, sizeof (NsContext), 256);
  g_array_set_size (engine->contexts, 1);
  return engine;
}

/* Frees one thread and its coroutine. */
static void
thread_free (NsThread *thread)
{
  ns_coro_free (thread->coro);
  g_free (thread->funcs);
  g_free (thread->name);
  g_free (thread);
}

/* Frees the engine with all its threads; not from inside a thread or a run. */
void
ns_engine_free (NsEngine *engine)
{
  guint i;

  if (engine == NULL)
    return;
  g_return_if_fail (!engine->in_run);

  for (i = 0; i < engine->threads->len; i++)
    thread_free (g_ptr_array_index (engine->threads, i));
  g_ptr_array_unref (engine->threads);
  for (i = 0; i < engine->n_cpus; i++)
    g_ptr_array_unref (engine->cpus[i].threads);
  g_free (engine->cpus);
  g_array_unref (engine->active_cpus);
  g_array_unref (engine->contexts);
  ns_event_queue_free (engine->events);
  g_free (engine);
}

/* Hangs the machine model on the engine (not owned). */
void
ns_engine_set_machine (NsEngine *engine, gpointer machine)
{
  g_return_if_fail (engine != NULL);
  engine->machine = machine;
}

/* The machine model hung on the engine, or NULL. */
gpointer
ns_engine_get_machine (NsEngine *engine)
{
  g_return_val_if_fail (engine != NULL, NULL);
  return engine->machine;
}

/* Number of simulated CPUs. */
guint
ns_engine_n_cpus (NsEngine *engine)
{
  g_return_val_if_fail (engine != NULL, 0);
  return engine->n_cpus;
}

/* Clock frequency of a CPU in GHz. */
double
ns_engine_cpu_ghz (NsEngine *engine, guint cpu)
{
  g_return_val_if_fail (engine != NULL, 0.0);
  g_return_val_if_fail (cpu < engine->n_cpus, 0.0);
  return engine->cpus[cpu].ghz;
}

/* Adds cpu to the ascending list of CPUs the dispatcher scans, once. */
static void
engine_activate_cpu (NsEngine *engine, NsCpu *cpu)
{
  guint i;

  for (i = 0; i < engine->active_cpus->len; i++)
    {
      guint idx = g_array_index (engine->active_cpus, guint, i);
      if (idx == cpu->index)
        return;
      if (idx > cpu->index)
        break;
    }
  g_array_insert_val (engine->active_cpus, i, cpu->index);
}

/* Coroutine body of every simulated thread. */
static void
thread_main (gpointer data)
{
  NsThread *thread = data;
  thread->fn (thread, thread->data);
}

/* Marks a thread runnable from `ready` and tells its CPU. */
static void
thread_make_runnable (NsThread *thread, NsTime ready)
{
  NsCpu *cpu = thread->cpu;

  thread->state = NS_THREAD_RUNNABLE;
  thread->ready = ready;
  if (thread->klass == NS_THREAD_SOFTIRQ && ready < cpu->softirq_ready)
    cpu->softirq_ready = ready;
  cpu->dirty = TRUE;
}

/* Creates a thread on cpu, runnable at `start`; NULL if its stack cannot be allocated. */
NsThread *
ns_engine_spawn (NsEngine *engine, const char *name, guint cpu,
                 NsThreadClass klass, NsTime start, NsThreadFunc fn, gpointer data)
{
  NsThread *thread;

  g_return_val_if_fail (engine != NULL && !engine->in_observer, NULL);
  g_return_val_if_fail (cpu < engine->n_cpus, NULL);
  g_return_val_if_fail (klass == NS_THREAD_USER || klass == NS_THREAD_SOFTIRQ, NULL);
  g_return_val_if_fail (fn != NULL, NULL);

  thread = g_new0 (NsThread, 1);
  thread->coro = ns_coro_new (thread_main, thread, 0);
  if (thread->coro == NULL)
    goto no_coro;

  thread->engine = engine;
  thread->cpu = &engine->cpus[cpu];
  thread->name = g_strdup (name != NULL ? name : "thread");
  thread->index = engine->threads->len;
  thread->klass = klass;
  thread->fn = fn;
  thread->data = data;
  thread->now = MAX (start, 0);
  thread->context = context_new (engine, 0, NULL, thread, FALSE);
  g_ptr_array_add (engine->threads, thread);
  g_ptr_array_add (thread->cpu->threads, thread);
  engine_activate_cpu (engine, thread->cpu);
  thread_make_runnable (thread, thread->now);
  return thread;

/* ERRORS */
no_coro:
  g_free (thread);
  return NULL;
}

/* Schedules fn(data) at `when` (moved up to the global now if earlier); returns its seq. */
guint64
ns_engine_schedule (NsEngine *engine, NsTime when, NsEventFunc fn, gpointer data)
{
  g_return_val_if_fail (engine != NULL && !engine->in_observer, 0);
  g_return_val_if_fail (fn != NULL, 0);

  return ns_event_queue_push (engine->events, MAX (when, engine->now), fn, data);
}

/* Cancels a pending event; FALSE if it already fired or was cancelled. */
gboolean
ns_engine_cancel (NsEngine *engine, guint64 seq)
{
  g_return_val_if_fail (engine != NULL && !engine->in_observer, FALSE);
  return ns_event_queue_cancel (engine->events, seq);
}

/* Recomputes which thread runs next on cpu and from when (see the rules atop this file). */
static void
cpu_refresh (NsCpu *cpu)
{
  NsThread *soft = NULL, *user = NULL;
  NsTime soft_start, user_start;
  guint i;

  cpu->dirty = FALSE;
  for (i = 0; i < cpu->threads->len; i++)
    {
      NsThread *t = g_ptr_array_index (cpu->threads, i);
      if (t->state != NS_THREAD_RUNNABLE)
        continue;
      if (t->klass == NS_THREAD_SOFTIRQ)
        {
          if (soft == NULL || t->ready < soft->ready)
            soft = t;
        }
      else if (user == NULL || t->ready < user->ready)
        user = t;
    }
  cpu->softirq_ready = soft != NULL ? soft->ready : NS_TIME_FOREVER;

  cpu->candidate = NULL;
  cpu->cand_start = NS_TIME_FOREVER;
  if (cpu->spinner != NULL)
    {
      /* the CPU belongs to its spinner until the spinner is woken and resumed */
      if (cpu->spinner->state == NS_THREAD_RUNNABLE)
        {
          cpu->candidate = cpu->spinner;
          cpu->cand_start = MAX (cpu->now, cpu->spinner->ready);
        }
      return;
    }

  soft_start = soft != NULL ? MAX (cpu->now, soft->ready) : NS_TIME_FOREVER;
  user_start = user != NULL ? MAX (cpu->now, user->ready) : NS_TIME_FOREVER;
  if (soft != NULL && soft_start <= user_start)
    {
      cpu->candidate = soft;
      cpu->cand_start = soft_start;
    }
  else if (user != NULL)
    {
      cpu->candidate = user;
      cpu->cand_start = user_start;
    }
}

/* The CPU whose candidate starts first (ties: lower index), or NULL. */
static NsCpu *
engine_pick_cpu (NsEngine *engine)
{
  NsCpu *best = NULL;
  guint i;

  for (i = 0; i < engine->active_cpus->len; i++)
    {
      NsCpu *cpu = &engine->cpus[g_array_index (engine->active_cpus, guint, i)];
      if (cpu->dirty)
        cpu_refresh (cpu);
      if (cpu->candidate != NULL && (best == NULL || cpu->cand_start < best->cand_start))
        best = cpu;
    }
  return best;
}

/* Pops the earliest event and runs it in scheduler context. */
static void
engine_dispatch_event (NsEngine *engine)
{
  NsTime when;
  NsEventFunc fn;
  gpointer data;

  ns_event_queue_pop (engine->events, &when, &fn, &data);
  engine->now = MAX (engine->now, when);
  engine->n_events++;
  fn (data);
}

/* Drops a finished thread from its CPU's list. */
static void
thread_retire (NsThread *thread)
{
  thread->state = NS_THREAD_DONE;
  g_ptr_array_remove (thread->cpu->threads, thread);
}

/* Resumes cpu's candidate at `start` and books its state once it yields. */
static void
engine_resume (NsEngine *engine, NsCpu *cpu, NsTime start)
{
  NsThread *thread = cpu->candidate;

  start = MAX (start, engine->now);
  engine->now = start;
  engine->n_switches++;
  cpu->now = start;
  thread->now = start;
  thread->slice_start = start;
  if (thread->waited || cpu->last != thread)
    thread->breaks++;
  thread->waited = FALSE;
  cpu->last = thread;
  thread->state = NS_THREAD_RUNNING;
  if (cpu->spinner == thread)
    cpu->spinner = NULL;

  current_thread = thread;
  ns_coro_resume (thread->coro);
  current_thread = NULL;

  cpu->now = thread->now;
  cpu->dirty = TRUE;
  if (ns_coro_is_done (thread->coro))
    thread_retire (thread);
}

/* Calls the observer between two steps, with the engine locked against change. */
static void
engine_observe (NsEngine *engine)
{
  engine->steps_unobserved = 0;
  engine->in_observer = TRUE;
  engine->observer (engine, engine->observer_data);
  engine->in_observer = FALSE;
}

/* Sets (fn NULL: removes) the observer ns_engine_run calls every `every` steps; see
 * engine.h. */
void
ns_engine_set_observer (NsEngine *engine, guint every, NsEngineObserver fn, gpointer data)
{
  g_return_if_fail (engine != NULL && !engine->in_observer);
  g_return_if_fail (fn == NULL || every > 0);
  engine->observer = fn;
  engine->observer_data = data;
  engine->observe_every = every;
  engine->steps_unobserved = 0;
}

/* Dispatches events and threads in time order until `end`, stop, or nothing is left. */
NsTime
ns_engine_run (NsEngine *engine, NsTime end)
{
  g_return_val_if_fail (engine != NULL, 0);
  g_return_val_if_fail (!engine->in_run && current_thread == NULL, engine->now);

  engine->in_run = TRUE;
  while (!engine->stop_requested)
    {
      NsCpu *cpu = engine_pick_cpu (engine);
      NsTime start = cpu != NULL ? cpu->cand_start : NS_TIME_FOREVER;
      NsTime ev_time;
      gboolean have_event = ns_event_queue_peek (engine->events, &ev_time);

      if (have_event && ev_time <= start)
        start = ev_time;
      else if (cpu == NULL)
        break;                       /* nothing left */
      else
        have_event = FALSE;

      if (start >= end)
        {
          engine->now = MAX (engine->now, end);
          break;
        }
      if (have_event)
        engine_dispatch_event (engine);
      else
        engine_resume (engine, cpu, start);
      if (engine->observer != NULL && ++engine->steps_unobserved >= engine->observe_every)
        engine_observe (engine);
    }
  engine->stop_requested = FALSE;
  engine->in_run = FALSE;
  return engine->now;
}

/* Makes the current (or next) ns_engine_run return after the running step. */
void
ns_engine_stop (NsEngine *engine)
{
  g_return_if_fail (engine != NULL && !engine->in_observer);
  engine->stop_requested = TRUE;
}

/* The global now: time of the last event dispatched or thread resumed. */
NsTime
ns_engine_now (NsEngine *engine)
{
  g_return_val_if_fail (engine != NULL, 0);
  return engine->now;
}

/* Clock of one CPU (the running thread's clock if it runs there). */
NsTime
ns_engine_cpu_now (NsEngine *engine, guint cpu)
{
  g_return_val_if_fail (engine != NULL, 0);
  g_return_val_if_fail (cpu < engine->n_cpus, 0);
  return engine->cpus[cpu].now;
}

/* Number of thread resumptions so far. */
guint64
ns_engine_n_switches (NsEngine *engine)
{
  g_return_val_if_fail (engine != NULL, 0);
  return engine->n_switches;
}

/* Number of events dispatched so far. */
guint64
ns_engine_n_events (NsEngine *engine)
{
  g_return_val_if_fail (engine != NULL, 0);
  return engine->n_events;
}

/* Calls fn(thread, data) for every thread, in spawn order. */
void
ns_engine_foreach_thread (NsEngine *engine, void (*fn) (NsThread *t, gpointer data), gpointer data)
{
  guint i;

  g_return_if_fail (engine != NULL);
  g_return_if_fail (fn != NULL);

  for (i = 0; i < engine->threads->len; i++)
    fn (g_ptr_array_index (engine->threads, i), data);
}

/* Number of calling-context ids so far (ids run from 1 to this − 1). */
guint
ns_engine_n_contexts (NsEngine *engine)
{
  g_return_val_if_fail (engine != NULL, 0);
  return engine->contexts->len;
}

/* One calling context: its innermost frame's function (NULL for a thread's root), whether
 * that frame is inlined, its thread, and its parent's id (0 for a root). */
NsFunc *
ns_engine_context (NsEngine *engine, guint id, gboolean *inlined, NsThread **thread,
                   guint *parent)
{
  NsContext *c;

  g_return_val_if_fail (engine != NULL, NULL);
  g_return_val_if_fail (id > 0 && id < engine->contexts->len, NULL);
  c = context_at (engine, id);
  if (inlined)
    *inlined = c->inlined;
  if (thread)
    *thread = c->thread;
  if (parent)
    *parent = c->parent;
  return c->func;
}

/* ---- thread side ---- */

/* The running simulated thread, NULL in scheduler context. */
NsThread *
ns_thread_self (void)
{
  return current_thread;
}

/* The engine a thread belongs to. */
NsEngine *
ns_thread_engine (NsThread *thread)
{
  g_return_val_if_fail (thread != NULL, NULL);
  return thread->engine;
}

/* The name given at spawn. */
const char *
ns_thread_name (NsThread *thread)
{
  g_return_val_if_fail (thread != NULL, NULL);
  return thread->name;
}

/* The CPU a thread is bound to. */
guint
ns_thread_cpu (NsThread *thread)
{
  g_return_val_if_fail (thread != NULL, 0);
  return thread->cpu->index;
}

/* User or softirq class. */
NsThreadClass
ns_thread_class (NsThread *thread)
{
  g_return_val_if_fail (thread != NULL, NS_THREAD_USER);
  return thread->klass;
}

/* Current scheduling state. */
NsThreadState
ns_thread_state (NsThread *thread)
{
  g_return_val_if_fail (thread != NULL, NS_THREAD_DONE);
  return thread->state;
}

/* The thread's local clock. */
NsTime
ns_thread_now (NsThread *thread)
{
  g_return_val_if_fail (thread != NULL, 0);
  return thread->now;
}

/* Hands the CPU back to the dispatcher in `state`; returns when resumed. */
static void
thread_switch_out (NsThread *thread, NsThreadState state)
{
  thread->state = state;
  if (state == NS_THREAD_RUNNABLE)
    thread->ready = thread->now;
  else
    thread->stopped = thread->now;
  thread->waited = state != NS_THREAD_RUNNABLE;
  if (state == NS_THREAD_SPINNING)
    thread->cpu->spinner = thread;
  ns_coro_yield ();
}

/* Moves the running thread's clock by span and yields at a quantum end or for softirq work. */
static inline void
thread_charge (NsThread *thread, NsTime span)
{
  NsCpu *cpu = thread->cpu;

  thread->now += span;
  cpu->now = thread->now;
  if (thread->now - thread->slice_start >= thread->engine->quantum
      || (thread->klass == NS_THREAD_USER && cpu->softirq_ready <= thread->now))
    thread_switch_out (thread, NS_THREAD_RUNNABLE);
}

/* Charges `cycles` (finite, ≥ 0, under a quarter of NsTime's range once in picoseconds)
 * of the running thread's CPU, carrying fractional picoseconds. */
void
ns_thread_advance (NsThread *thread, double cycles)
{
  NsCpu *cpu;
  double total;
  NsTime whole;

  g_return_if_fail (thread != NULL && thread->state == NS_THREAD_RUNNING);
  g_return_if_fail (cycles >= 0.0 && isfinite (cycles));   /* NaN fails both */

  cpu = thread->cpu;
  total = cycles * 1000.0 / cpu->ghz + cpu->frac_ps;
  g_return_if_fail (total < (double) (NS_TIME_FOREVER / 4));   /* the cast stays defined */
  whole = (NsTime) total;
  cpu->frac_ps = total - (double) whole;
  thread_charge (thread, whole);
}

/* Charges a time span to the running thread. */
void
ns_thread_advance_time (NsThread *thread, NsTime span)
{
  g_return_if_fail (thread != NULL && thread->state == NS_THREAD_RUNNING);
  g_return_if_fail (span >= 0);

  thread_charge (thread, span);
}

/* Lets every thread with a smaller local time run first. */
void
ns_thread_yield (NsThread *thread)
{
  g_return_if_fail (thread != NULL && thread->state == NS_THREAD_RUNNING);
  thread_switch_out (thread, NS_THREAD_RUNNABLE);
}

/* Sleeps until woken, CPU free meanwhile; returns the span its clock moved. */
NsTime
ns_thread_block (NsThread *thread)
{
  NsTime before;

  g_return_val_if_fail (thread != NULL && thread->state == NS_THREAD_RUNNING, 0);

  before = thread->now;
  thread_switch_out (thread, NS_THREAD_BLOCKED);
  return thread->now - before;
}

/* Waits until woken keeping the CPU busy; returns the span spun. */
NsTime
ns_thread_spin (NsThread *thread)
{
  NsTime before;

  g_return_val_if_fail (thread != NULL && thread->state == NS_THREAD_RUNNING, 0);

  before = thread->now;
  thread_switch_out (thread, NS_THREAD_SPINNING);
  return thread->now - before;
}

/* Makes a blocked or spinning thread runnable at max(at, its stop time); FALSE otherwise. */
gboolean
ns_thread_wake (NsThread *thread, NsTime at)
{
  NsTime ready;

  g_return_val_if_fail (thread != NULL && !thread->engine->in_observer, FALSE);

  if (thread->state != NS_THREAD_BLOCKED && thread->state != NS_THREAD_SPINNING)
    return FALSE;

  ready = MAX (at, thread->stopped);
  if (thread->state == NS_THREAD_SPINNING)
    thread->cpu->now = MAX (thread->cpu->now, ready);   /* spinner stays: resumes first */
  if (thread->sleep_seq != 0)
    {
      ns_event_queue_cancel (thread->engine->events, thread->sleep_seq);
      thread->sleep_seq = 0;
    }
  thread->now = ready;
  thread_make_runnable (thread, ready);
  return TRUE;
}

/* Event callback: a sleep_until deadline has come. */
static void
thread_sleep_expired (gpointer data)
{
  NsThread *thread = data;

  thread->sleep_seq = 0;
  ns_thread_wake (thread, thread->engine->now);
}

/* Sleeps until simulated time `when` (just yields if that is not in the future). */
void
ns_thread_sleep_until (NsThread *thread, NsTime when)
{
  g_return_if_fail (thread != NULL && thread->state == NS_THREAD_RUNNING);

  if (when <= thread->now)
    {
      thread_switch_out (thread, NS_THREAD_RUNNABLE);
      return;
    }
  thread->sleep_seq = ns_engine_schedule (thread->engine, when, thread_sleep_expired, thread);
  thread_switch_out (thread, NS_THREAD_BLOCKED);
}

/* ---- attribution stack and exec slot ---- */

/* How many times the thread has been resumed after waiting (block, spin, sleep) or after
 * another thread ran on its CPU: its core's pipeline state from before is gone. */
guint64
ns_thread_breaks (NsThread *thread)
{
  g_return_val_if_fail (thread != NULL, 0);

  return thread->breaks;
}

/* Enters simulated function func (not NULL), for attribution. */
void
ns_thread_push_func (NsThread *thread, NsFunc *func)
{
  g_return_if_fail (thread != NULL && func != NULL);

  if (G_UNLIKELY (thread->n_funcs == thread->funcs_alloc))
    {
      thread->funcs_alloc = MAX (16, thread->funcs_alloc * 2);
      thread->funcs = g_renew (NsFunc *, thread->funcs, thread->funcs_alloc);
    }
  thread->funcs[thread->n_funcs++] = func;
  thread->context = context_child (thread->engine, thread->context, func, FALSE);
}

/* Leaves the innermost simulated function. */
void
ns_thread_pop_func (NsThread *thread)
{
  NsContext *c;

  g_return_if_fail (thread != NULL);
  g_return_if_fail (thread->n_funcs > 0);
  c = context_at (thread->engine, thread->context);
  if (G_UNLIKELY (c->inlined || c->func != thread->funcs[thread->n_funcs - 1]))
    goto unbalanced;
  thread->n_funcs--;
  thread->context = c->parent;
  return;

/* ERRORS */
unbalanced:
  g_critical ("thread %s leaves %s while an inlined frame is open", thread->name,
              c->inlined ? "a function" : "the wrong function");
}

/* Enters the code of func inlined into the running function: a calling context of its
 * own, while the attribution stack keeps the function it was inlined into. */
void
ns_thread_enter_inline (NsThread *thread, NsFunc *func)
{
  g_return_if_fail (thread != NULL && func != NULL);
  thread->context = context_child (thread->engine, thread->context, func, TRUE);
}

/* Leaves the innermost inlined frame. */
void
ns_thread_leave_inline (NsThread *thread)
{
  NsContext *c;

  g_return_if_fail (thread != NULL);
  c = context_at (thread->engine, thread->context);
  g_return_if_fail (c->inlined);
  thread->context = c->parent;
}

/* The thread's calling context: an id of its engine's calling-context tree. */
guint
ns_thread_context (NsThread *thread)
{
  g_return_val_if_fail (thread != NULL, 0);
  return thread->context;
}

/* The innermost simulated function, NULL at top level. */
NsFunc *
ns_thread_current_func (NsThread *thread)
{
  g_return_val_if_fail (thread != NULL, NULL);
  return thread->n_funcs > 0 ? thread->funcs[thread->n_funcs - 1] : NULL;
}

/* Depth of the attribution stack. */
guint
ns_thread_call_depth (NsThread *thread)
{
  g_return_val_if_fail (thread != NULL, 0);
  return thread->n_funcs;
}

/* Stores the machine model's per-thread state (not owned). */
void
ns_thread_set_exec (NsThread *thread, gpointer exec)
{
  g_return_if_fail (thread != NULL);
  thread->exec = exec;
}

/* The machine model's per-thread state. */
gpointer
ns_thread_get_exec (NsThread *thread)
{
  g_return_val_if_fail (thread != NULL, NULL);
  return thread->exec;
}
