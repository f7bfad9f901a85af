/* engine.h — simulated cores, simulated threads (coroutines) and the scheduler.
 *
 * The engine always resumes the runnable thread with the smallest local time. A thread
 * runs on one simulated CPU (a logical CPU: an SMT thread of a core). A CPU executes one
 * thread at a time; its clock (NsTime) advances as model code charges cycles. Threads
 * yield at synchronisation points and at least once per quantum, so every CPU's clock stays
 * within one quantum of the others (bounded-skew lax synchronisation). Softirq-class
 * threads run before user-class threads on their CPU and preempt them at the next yield. */
#pragma once
#include "common.h"
#include "event.h"

G_BEGIN_DECLS

typedef struct _NsEngine NsEngine;
typedef struct _NsThread NsThread;
typedef struct _NsFunc   NsFunc;   /* defined in build.h */

typedef enum {
  NS_THREAD_USER,      /* user task: runs when no softirq work is pending on its CPU */
  NS_THREAD_SOFTIRQ    /* softirq / NAPI / ksoftirqd context: preempts user tasks */
} NsThreadClass;

typedef enum {
  NS_THREAD_RUNNABLE,
  NS_THREAD_RUNNING,
  NS_THREAD_BLOCKED,   /* sleeping: its CPU is free for other threads */
  NS_THREAD_SPINNING,  /* waiting but keeps its CPU busy (spinlock) */
  NS_THREAD_DONE
} NsThreadState;

typedef void (*NsThreadFunc) (NsThread *self, gpointer data);

/* Creates an engine with n_cpus simulated CPUs, each with its clock in GHz (cycles→ps), and
 * a quantum (the longest a thread runs before it must yield). */
NsEngine   *ns_engine_new          (guint n_cpus, const double *cpu_ghz, NsTime quantum);
void        ns_engine_free         (NsEngine *engine);
/* Opaque pointer the machine model hangs on the engine (its NsMachine). */
void        ns_engine_set_machine  (NsEngine *engine, gpointer machine);
gpointer    ns_engine_get_machine  (NsEngine *engine);
guint       ns_engine_n_cpus       (NsEngine *engine);
double      ns_engine_cpu_ghz      (NsEngine *engine, guint cpu);
/* Creates a thread bound to cpu; it becomes runnable at time `start`. The engine owns it. */
NsThread   *ns_engine_spawn        (NsEngine *engine, const char *name, guint cpu,
                                    NsThreadClass klass, NsTime start,
                                    NsThreadFunc fn, gpointer data);
/* Schedules fn(data) at simulated time `when` (≥ now); returns the event's sequence number. */
guint64     ns_engine_schedule     (NsEngine *engine, NsTime when, NsEventFunc fn, gpointer data);
gboolean    ns_engine_cancel       (NsEngine *engine, guint64 seq);
/* Runs until every thread is done or blocked with no event pending, until `end`, or until
 * ns_engine_stop(). Returns the global time reached. Can be called again to continue. */
NsTime      ns_engine_run          (NsEngine *engine, NsTime end);
void        ns_engine_stop         (NsEngine *engine);
/* An observer watches a long run (a progress line): ns_engine_run calls fn (engine, data)
 * after every `every` steps (an event dispatched or a thread resumed), between two steps
 * and outside any simulated thread. fn may read the engine (ns_engine_now) and the host's
 * clock, but must not change the simulation: scheduling, cancelling, spawning or stopping
 * from it is refused (a critical warning), so a run is the same step for step with or
 * without an observer. fn NULL removes it. */
typedef void (*NsEngineObserver) (NsEngine *engine, gpointer data);
void        ns_engine_set_observer (NsEngine *engine, guint every, NsEngineObserver fn,
                                    gpointer data);
/* Time of the last dispatched event or thread resumption (the global "now"). */
NsTime      ns_engine_now          (NsEngine *engine);
/* Clock of one CPU. */
NsTime      ns_engine_cpu_now      (NsEngine *engine, guint cpu);
/* Counters: context switches into threads, events dispatched. */
guint64     ns_engine_n_switches   (NsEngine *engine);
guint64     ns_engine_n_events     (NsEngine *engine);
/* Call fn for every thread in spawn order. */
void        ns_engine_foreach_thread (NsEngine *engine, void (*fn) (NsThread *t, gpointer data), gpointer data);
/* Calling contexts: the engine keeps a tree of every distinct chain of frames a thread has
 * entered (its root, out-of-line and inlined functions), with ids from 1 to
 * ns_engine_n_contexts() − 1 in order of first entry. */
guint       ns_engine_n_contexts   (NsEngine *engine);
NsFunc     *ns_engine_context      (NsEngine *engine, guint id, gboolean *inlined,
                                    NsThread **thread, guint *parent);

/* ---- Thread side: called from inside a running simulated thread (or about one). ---- */

/* The running simulated thread, or NULL outside any. */
NsThread     *ns_thread_self          (void);
NsEngine     *ns_thread_engine        (NsThread *thread);
const char   *ns_thread_name          (NsThread *thread);
guint         ns_thread_cpu           (NsThread *thread);
NsThreadClass ns_thread_class         (NsThread *thread);
NsThreadState ns_thread_state         (NsThread *thread);
/* The thread's local time (its CPU's clock while it runs). */
NsTime        ns_thread_now           (NsThread *thread);
/* Advances the running thread's clock by `cycles` of its CPU (fractions carried over, never
 * lost); yields if the quantum is used up or softirq work is pending on its CPU. */
void          ns_thread_advance       (NsThread *thread, double cycles);
/* Advances the running thread's clock by a time span. */
void          ns_thread_advance_time  (NsThread *thread, NsTime span);
/* Synchronisation point: lets every thread with a smaller local time run first. */
void          ns_thread_yield         (NsThread *thread);
/* Sleeps until ns_thread_wake(); the CPU is free meanwhile. Returns the time slept. */
NsTime        ns_thread_block         (NsThread *thread);
/* Waits until ns_thread_wake() while keeping its CPU busy (spinning). Returns the time spun. */
NsTime        ns_thread_spin          (NsThread *thread);
/* Makes a blocked or spinning thread runnable at time `at` (its clock jumps to at least
 * `at`). Callable from threads and events. Returns FALSE if it was not waiting. */
gboolean      ns_thread_wake          (NsThread *thread, NsTime at);
/* Sleeps until simulated time `when`. */
void          ns_thread_sleep_until   (NsThread *thread, NsTime when);

/* Attribution stack: the simulated function whose code is running (see build.h). */
void          ns_thread_push_func     (NsThread *thread, NsFunc *func);
void          ns_thread_pop_func      (NsThread *thread);
NsFunc       *ns_thread_current_func  (NsThread *thread);   /* NULL = top level */
guint         ns_thread_call_depth    (NsThread *thread);
/* Inlined code: a calling context of its own, the attribution stack unchanged. */
void          ns_thread_enter_inline  (NsThread *thread, NsFunc *func);
void          ns_thread_leave_inline  (NsThread *thread);
/* The calling context the thread is in (an id of its engine's tree). */
guint         ns_thread_context       (NsThread *thread);
/* Per-thread slot for the machine model's execution state. */
/* Resumptions after a wait (block, spin, sleep_until) or after another thread ran on its
 * CPU; the first run counts one. */
guint64       ns_thread_breaks        (NsThread *thread);
void          ns_thread_set_exec      (NsThread *thread, gpointer exec);
gpointer      ns_thread_get_exec      (NsThread *thread);

G_END_DECLS
