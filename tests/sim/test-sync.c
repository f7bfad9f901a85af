/* test-sync.c — spinlocks and wait queues on a real machine and engine.
 *
 * The machine: 1 socket, 2 CCXs of 2 cores, no SMT (cpus 0,1 in CCX 0; 2,3 in CCX 1), at
 * 2 GHz so one cycle is exactly 500 ps. Assertions are made after ns_engine_run returns,
 * from what the simulated threads recorded. */
#include "config.h"
#include <check.h>
#include <gsl/gsl_rng.h>
#include "machine.h"
#include "sync.h"

#define GHZ          2.0
#define PS_PER_CYCLE 500
#define ATOMIC_CYC   20.0
#define CCX_NS       20.0
#define SOCKET_NS    80.0
#define WAKE_CYC     400.0
#define WAKE_LAT_NS  1500.0

typedef struct {
  NsParams   *params;
  NsBuild    *build;
  NsMachine  *machine;
  NsEngine   *engine;
  NsSpinlock *lock;
} Fixture;

/* Sets a parameter for the test machine (fails the test on error). */
static void
set_param (NsParams *params, const char *name, const char *value)
{
  GError *error = NULL;

  if (!ns_params_set (params, name, value, "test-sync", &error))
    ck_abort_msg ("%s=%s: %s", name, value, error->message);
}

/* Builds the 2-CCX machine, its engine and a lock in simulated memory. */
static void
fixture_init (Fixture *f)
{
  NsMitigations mit = { 0 };
  GError *error = NULL;

  f->params = ns_params_new ();
  set_param (f->params, "cpu.freq_ghz", "2.0");
  set_param (f->params, "cpu.sockets", "1");
  set_param (f->params, "cpu.ccx_per_socket", "2");
  set_param (f->params, "cpu.cores_per_ccx", "2");
  set_param (f->params, "cpu.smt", "1");
  set_param (f->params, "c2c.ccx_ns", "20");
  set_param (f->params, "c2c.socket_ns", "80");
  set_param (f->params, "lock.atomic_cycles", "20");
  set_param (f->params, "sched.wakeup_cycles", "400");
  set_param (f->params, "sched.wakeup_latency_ns", "1500");
  set_param (f->params, "sched.quantum_ns", "1000");
  f->build = ns_build_new ("6.9.0",
                           ns_params_get_int (f->params, "build.inline_limit_bytes"));
  f->machine = ns_machine_new (f->params, &mit, f->build, &error);
  ck_assert_msg (f->machine != NULL, "ns_machine_new: %s", error ? error->message : "?");
  ck_assert_uint_eq (ns_machine_n_cpus (f->machine), 4);
  ck_assert_int_eq (ns_machine_distance (f->machine, 0, 1), NS_DIST_CCX);
  ck_assert_int_eq (ns_machine_distance (f->machine, 0, 2), NS_DIST_SOCKET);
  f->engine = ns_machine_create_engine (f->machine);
  f->lock = ns_arena_alloc (ns_machine_arena (f->machine), sizeof (NsSpinlock), 64);
  ns_spin_lock_init (f->lock);
}

static void
fixture_clear (Fixture *f)
{
  ns_engine_free (f->engine);
  ns_machine_free (f->machine);
  ns_build_free (f->build);
  ns_params_free (f->params);
}

/* Cycles → picoseconds at the test clock. */
static NsTime
cyc_ps (double cycles)
{
  return (NsTime) (cycles * PS_PER_CYCLE);
}

/* ---- arrival order ---- */

typedef struct {
  Fixture *f;
  guint    order[8];
  guint    n_acquired;
  guint    waiters_at_first_unlock;
  double   hold_cycles;
} OrderRun;

/* Takes the lock, logs the acquisition order (by CPU), holds, releases. */
static void
order_thread (NsThread *self, gpointer data)
{
  OrderRun *run = data;

  ns_spin_lock (self, run->f->lock);
  run->order[run->n_acquired++] = ns_thread_cpu (self);
  ns_charge (self, NS_CAUSE_INSN, run->hold_cycles);
  if (run->n_acquired == 1)
    run->waiters_at_first_unlock = ns_spin_n_waiters (run->f->lock);
  ns_spin_unlock (self, run->f->lock);
}

START_TEST (test_acquire_in_arrival_order)
{
  Fixture f;
  OrderRun run = { .f = &f, .hold_cycles = 20000 };   /* 10 µs: everyone arrives meanwhile */

  fixture_init (&f);
  /* arrivals: cpu 0 at 0, then cpu 3, cpu 1, cpu 2 */
  ns_engine_spawn (f.engine, "t0", 0, NS_THREAD_USER, 0, order_thread, &run);
  ns_engine_spawn (f.engine, "t1", 1, NS_THREAD_USER, NS_US (2), order_thread, &run);
  ns_engine_spawn (f.engine, "t2", 2, NS_THREAD_USER, NS_US (3), order_thread, &run);
  ns_engine_spawn (f.engine, "t3", 3, NS_THREAD_USER, NS_US (1), order_thread, &run);
  ns_engine_run (f.engine, NS_TIME_FOREVER);

  ck_assert_uint_eq (run.n_acquired, 4);
  ck_assert_uint_eq (run.order[0], 0);
  ck_assert_uint_eq (run.order[1], 3);
  ck_assert_uint_eq (run.order[2], 1);
  ck_assert_uint_eq (run.order[3], 2);
  ck_assert_uint_eq (run.waiters_at_first_unlock, 3);
  ck_assert_uint_eq (ns_spin_n_waiters (f.lock), 0);
  ck_assert_uint_eq (f.lock->val, 0);
  fixture_clear (&f);
}
END_TEST

/* Works for 500 ns (within one quantum, so without yielding), then takes the lock. */
static void
late_order_thread (NsThread *self, gpointer data)
{
  ns_charge (self, NS_CAUSE_INSN, 1000);
  order_thread (self, data);
}

START_TEST (test_arrival_order_is_simulated_time)
{
  Fixture f;
  OrderRun run = { .f = &f, .hold_cycles = 20000 };

  fixture_init (&f);
  /* cpu 1 starts first (4.5 µs) but reaches the lock at 5.0 µs, inside its slice; cpu 2
   * reaches it at 4.6 µs and must queue first even though the engine runs it later */
  ns_engine_spawn (f.engine, "t0", 0, NS_THREAD_USER, 0, order_thread, &run);
  ns_engine_spawn (f.engine, "t1", 1, NS_THREAD_USER, NS_NS (4500), late_order_thread, &run);
  ns_engine_spawn (f.engine, "t2", 2, NS_THREAD_USER, NS_NS (4600), order_thread, &run);
  ns_engine_run (f.engine, NS_TIME_FOREVER);

  ck_assert_uint_eq (run.n_acquired, 3);
  ck_assert_uint_eq (run.order[0], 0);
  ck_assert_uint_eq (run.order[1], 2);
  ck_assert_uint_eq (run.order[2], 1);
  fixture_clear (&f);
}
END_TEST

/* ---- hand-off cost ---- */

typedef struct {
  Fixture *f;
  NsTime   holder_unlocked;   /* holder's clock when ns_spin_unlock returned */
  NsTime   waiter_called;     /* waiter's clock when it called ns_spin_lock */
  NsTime   waiter_acquired;   /* waiter's clock when ns_spin_lock returned */
} HandoffRun;

/* Holds the lock for 10 µs and releases it. */
static void
handoff_holder (NsThread *self, gpointer data)
{
  HandoffRun *run = data;

  ns_spin_lock (self, run->f->lock);
  ns_charge (self, NS_CAUSE_INSN, 20000);
  ns_spin_unlock (self, run->f->lock);
  run->holder_unlocked = ns_thread_now (self);
}

/* Arrives while the lock is held and waits for it. */
static void
handoff_waiter (NsThread *self, gpointer data)
{
  HandoffRun *run = data;

  run->waiter_called = ns_thread_now (self);
  ns_spin_lock (self, run->f->lock);
  run->waiter_acquired = ns_thread_now (self);
  ns_spin_unlock (self, run->f->lock);
}

/* Runs holder on cpu 0 and a waiter on waiter_cpu; checks the hand-off and wait costs. */
static void
check_handoff (guint waiter_cpu, double c2c_ns)
{
  Fixture f;
  HandoffRun run = { .f = &f };
  double c2c_cyc = c2c_ns * GHZ;     /* a CAS ping-pong's half round trip */
  double wait_cyc;

  fixture_init (&f);
  ck_assert (ns_machine_transfer_cycles (f.machine, 0, waiter_cpu) ==
             c2c_cyc - ATOMIC_CYC + ns_machine_level_cycles (f.machine, NS_CAUSE_L1));
  ns_engine_spawn (f.engine, "holder", 0, NS_THREAD_USER, 0, handoff_holder, &run);
  ns_engine_spawn (f.engine, "waiter", waiter_cpu, NS_THREAD_USER, NS_US (1),
                   handoff_waiter, &run);
  ns_engine_run (f.engine, NS_TIME_FOREVER);

  ck_assert_int_gt (run.waiter_acquired, 0);
  /* the hand-off: one locked RMW that moves the line from the releaser's core, what the
   * ping-pong's half round trip measures */
  ck_assert_int_eq (run.waiter_acquired - run.holder_unlocked, cyc_ps (c2c_cyc));
  /* the wait: from the end of the failed RMW (which also pulled the line) to the release */
  wait_cyc = (double) (run.holder_unlocked - run.waiter_called) / PS_PER_CYCLE - c2c_cyc;
  ck_assert_int_eq ((gint64) ns_machine_account_cycles (f.machine, NULL, NS_CAUSE_LOCK_WAIT),
                    (gint64) wait_cyc);
  ck_assert (wait_cyc > 10000);
  fixture_clear (&f);
}

START_TEST (test_handoff_same_ccx)
{
  check_handoff (1, CCX_NS);
}
END_TEST

START_TEST (test_handoff_cross_ccx)
{
  check_handoff (2, SOCKET_NS);
}
END_TEST

/* ---- mutual exclusion ---- */

#define MX_THREADS  4
#define MX_SECTIONS 10000

typedef struct {
  Fixture *f;
  guint64 *counter;          /* in simulated memory, incremented non-atomically */
  NsTime   acquired[MX_SECTIONS];
  NsTime   releasing[MX_SECTIONS];
  guint    n_log;
  gsl_rng *rng[MX_THREADS];
} MutexRun;

/* 2500 sections: think, lock, read-modify-write the counter with a random hold, unlock. */
static void
mutex_thread (NsThread *self, gpointer data)
{
  MutexRun *run = data;
  gsl_rng *rng = run->rng[ns_thread_cpu (self)];

  for (guint i = 0; i < MX_SECTIONS / MX_THREADS; i++) {
    guint slot;
    guint64 value;

    ns_charge (self, NS_CAUSE_INSN, gsl_rng_uniform_int (rng, 3000));
    ns_spin_lock (self, run->f->lock);
    slot = run->n_log++;
    run->acquired[slot] = ns_thread_now (self);
    ns_load (self, run->counter, sizeof *run->counter);
    value = *run->counter;
    ns_charge (self, NS_CAUSE_INSN, gsl_rng_uniform_int (rng, 3000));   /* may yield */
    *run->counter = value + 1;
    ns_store (self, run->counter, sizeof *run->counter);
    run->releasing[slot] = ns_thread_now (self);
    ns_spin_unlock (self, run->f->lock);
  }
}

START_TEST (test_mutual_exclusion)
{
  Fixture f;
  MutexRun *run = g_new0 (MutexRun, 1);

  fixture_init (&f);
  run->f = &f;
  run->counter = ns_arena_alloc (ns_machine_arena (f.machine), sizeof (guint64), 64);
  for (guint c = 0; c < MX_THREADS; c++) {
    run->rng[c] = gsl_rng_alloc (gsl_rng_mt19937);
    gsl_rng_set (run->rng[c], 1000 + c);
    ns_engine_spawn (f.engine, "mx", c, NS_THREAD_USER, 0, mutex_thread, run);
  }
  ns_engine_run (f.engine, NS_TIME_FOREVER);

  ck_assert_uint_eq (*run->counter, MX_SECTIONS);
  ck_assert_uint_eq (run->n_log, MX_SECTIONS);
  /* exclusive in simulated time too: each holder starts after the previous one released */
  for (guint i = 1; i < MX_SECTIONS; i++)
    ck_assert_msg (run->acquired[i] >= run->releasing[i - 1],
                   "section %u acquired at %" G_GINT64_FORMAT " ps before %u released at %"
                   G_GINT64_FORMAT " ps", i, run->acquired[i], i - 1, run->releasing[i - 1]);
  ck_assert (ns_machine_account_cycles (f.machine, NULL, NS_CAUSE_LOCK_WAIT) > 0);
  ck_assert_uint_eq (f.lock->val, 0);
  for (guint c = 0; c < MX_THREADS; c++)
    gsl_rng_free (run->rng[c]);
  g_free (run);
  fixture_clear (&f);
}
END_TEST

/* ---- trylock ---- */

typedef struct {
  Fixture *f;
  gboolean while_held;
  guint    waiters_while_held;
  gboolean after_release;
  guint    val_while_mine;
} TryRun;

/* Holds the lock for 10 µs. */
static void
try_holder (NsThread *self, gpointer data)
{
  TryRun *run = data;

  ns_spin_lock (self, run->f->lock);
  ns_charge (self, NS_CAUSE_INSN, 20000);
  ns_spin_unlock (self, run->f->lock);
}

/* Tries while the lock is held, then again after the release. */
static void
try_other (NsThread *self, gpointer data)
{
  TryRun *run = data;

  run->while_held = ns_spin_trylock (self, run->f->lock);
  run->waiters_while_held = ns_spin_n_waiters (run->f->lock);
  ns_thread_sleep_until (self, NS_US (20));
  run->after_release = ns_spin_trylock (self, run->f->lock);
  run->val_while_mine = run->f->lock->val;
  if (run->after_release)
    ns_spin_unlock (self, run->f->lock);
}

START_TEST (test_trylock)
{
  Fixture f;
  TryRun run = { .f = &f };

  fixture_init (&f);
  ns_engine_spawn (f.engine, "holder", 0, NS_THREAD_USER, 0, try_holder, &run);
  ns_engine_spawn (f.engine, "other", 2, NS_THREAD_USER, NS_US (1), try_other, &run);
  ns_engine_run (f.engine, NS_TIME_FOREVER);

  ck_assert (!run.while_held);
  ck_assert_uint_eq (run.waiters_while_held, 0);
  ck_assert (run.after_release);
  ck_assert_uint_ne (run.val_while_mine, 0);
  ck_assert_uint_eq (f.lock->val, 0);
  ck_assert (ns_machine_account_cycles (f.machine, NULL, NS_CAUSE_LOCK_WAIT) == 0);
  fixture_clear (&f);
}
END_TEST

/* ---- wait queue ---- */

typedef struct {
  Fixture     *f;
  NsWaitQueue *wq;
  guint        woken_order[4];
  NsTime       woken_at[4];          /* by cpu */
  guint        n_woken;
  guint        wake_one_ret, wake_all_ret, wake_empty_ret;
  gboolean     active_before, active_after;
  NsTime       waker_t0, waker_t1;   /* waker's clock before / after all wake-ups */
} WaitRun;

/* Sleeps on the wait queue once and logs when and in which order it woke. */
static void
wq_sleeper (NsThread *self, gpointer data)
{
  WaitRun *run = data;
  guint cpu = ns_thread_cpu (self);

  ns_wait_queue_wait (self, run->wq);
  run->woken_order[run->n_woken++] = cpu;
  run->woken_at[cpu] = ns_thread_now (self);
}

/* Wakes one, then all, then tries an empty queue. */
static void
wq_waker (NsThread *self, gpointer data)
{
  WaitRun *run = data;

  run->active_before = ns_wait_queue_active (run->wq);
  run->waker_t0 = ns_thread_now (self);
  run->wake_one_ret = ns_wait_queue_wake_one (self, run->wq, 0);
  run->wake_all_ret = ns_wait_queue_wake_all (self, run->wq, 0);
  run->wake_empty_ret = ns_wait_queue_wake_one (self, run->wq, 0);
  run->waker_t1 = ns_thread_now (self);
  run->active_after = ns_wait_queue_active (run->wq);
}

START_TEST (test_wait_queue_fifo)
{
  Fixture f;
  WaitRun run = { 0 };
  NsTime wake_cost = cyc_ps (WAKE_CYC), latency = NS_NS (WAKE_LAT_NS);
  NsTime t0;
  NsFunc *ttwu;

  fixture_init (&f);
  run.f = &f;
  run.wq = ns_wait_queue_new ();
  /* arrivals on the queue: cpu 2, cpu 3, cpu 1 */
  ns_engine_spawn (f.engine, "s1", 1, NS_THREAD_USER, NS_US (3), wq_sleeper, &run);
  ns_engine_spawn (f.engine, "s2", 2, NS_THREAD_USER, NS_US (1), wq_sleeper, &run);
  ns_engine_spawn (f.engine, "s3", 3, NS_THREAD_USER, NS_US (2), wq_sleeper, &run);
  ns_engine_spawn (f.engine, "waker", 0, NS_THREAD_USER, NS_US (10), wq_waker, &run);
  ns_engine_run (f.engine, NS_TIME_FOREVER);

  ck_assert (run.active_before);
  ck_assert (!run.active_after);
  ck_assert_uint_eq (run.wake_one_ret, 1);
  ck_assert_uint_eq (run.wake_all_ret, 2);
  ck_assert_uint_eq (run.wake_empty_ret, 0);
  ck_assert_uint_eq (run.n_woken, 3);
  ck_assert_uint_eq (run.woken_order[0], 2);
  ck_assert_uint_eq (run.woken_order[1], 3);
  ck_assert_uint_eq (run.woken_order[2], 1);

  /* the waker pays try_to_wake_up per wake-up; each wakee runs after the latency */
  t0 = run.waker_t0;
  ck_assert_int_eq (t0, NS_US (10));
  ck_assert_int_eq (run.waker_t1 - t0, 3 * wake_cost);
  ck_assert_int_eq (run.woken_at[2], t0 + 1 * wake_cost + latency);
  ck_assert_int_eq (run.woken_at[3], t0 + 2 * wake_cost + latency);
  ck_assert_int_eq (run.woken_at[1], t0 + 3 * wake_cost + latency);
  ttwu = ns_func_lookup ("try_to_wake_up");
  ck_assert_ptr_nonnull (ttwu);
  ck_assert (ns_machine_account_cycles (f.machine, ttwu, NS_CAUSE_INSN) == 3 * WAKE_CYC);
  ns_wait_queue_free (run.wq);
  fixture_clear (&f);
}
END_TEST

typedef struct {
  NsWaitQueue *wq;
  guint        ret;
  NsTime       woken_at;
  NsTime       at;                   /* event_wake_at: when the event runs */
} EventWakeRun;

static void
event_sleeper (NsThread *self, gpointer data)
{
  EventWakeRun *run = data;

  ns_wait_queue_wait (self, run->wq);
  run->woken_at = ns_thread_now (self);
}

/* Event callback: wakes the queue at 5 µs with no waker thread. */
static void
event_wake (gpointer data)
{
  EventWakeRun *run = data;

  run->ret = ns_wait_queue_wake_all (NULL, run->wq, NS_US (5));
}

/* Event callback: wakes the queue at the event's time (ns_engine_now), no waker thread. */
static void
event_wake_at (gpointer data)
{
  EventWakeRun *run = data;

  run->ret = ns_wait_queue_wake_all (NULL, run->wq, run->at);
}

START_TEST (test_wait_queue_wake_from_event)
{
  Fixture f;
  EventWakeRun run = { 0 };

  fixture_init (&f);
  run.wq = ns_wait_queue_new ();
  ns_engine_spawn (f.engine, "sleeper", 3, NS_THREAD_USER, 0, event_sleeper, &run);
  ns_engine_schedule (f.engine, NS_US (5), event_wake, &run);
  ns_engine_run (f.engine, NS_TIME_FOREVER);

  ck_assert_uint_eq (run.ret, 1);
  ck_assert_int_eq (run.woken_at, NS_US (5) + NS_NS (WAKE_LAT_NS));
  ck_assert (!ns_wait_queue_active (run.wq));
  ns_wait_queue_free (run.wq);
  fixture_clear (&f);
}
END_TEST

typedef struct {
  NsWaitQueue *wq;
  NsTime       deadline;
  gboolean     woken;
  NsTime       back_at;
  gboolean     active_after;
} DeadlineRun;

/* Sleeps on the queue until woken or the run's deadline, and logs which and when. */
static void
deadline_sleeper (NsThread *self, gpointer data)
{
  DeadlineRun *run = data;

  run->woken = ns_wait_queue_wait_until (self, run->wq, run->deadline);
  run->back_at = ns_thread_now (self);
  run->active_after = ns_wait_queue_active (run->wq);
}

/* Runs deadline_sleeper on cpu 1 with a deadline at 20 µs, and a wake of the queue from
 * an event at wake_at (0: none). */
static void
run_deadline (DeadlineRun *run, NsTime wake_at)
{
  Fixture f;
  EventWakeRun waker = { 0 };

  fixture_init (&f);
  run->wq = waker.wq = ns_wait_queue_new ();
  run->deadline = NS_US (20);
  ns_engine_spawn (f.engine, "sleeper", 1, NS_THREAD_USER, 0, deadline_sleeper, run);
  waker.at = wake_at;
  if (wake_at > 0)
    ns_engine_schedule (f.engine, wake_at, event_wake_at, &waker);
  ns_engine_run (f.engine, NS_TIME_FOREVER);
  ns_wait_queue_free (run->wq);
  fixture_clear (&f);
}

/* A timed wait ends at the first of a wake-up (TRUE, at the wake plus the wake latency)
 * and its deadline (FALSE, at the deadline, the waiter off the queue so that a later
 * wake finds nobody). */
START_TEST (test_wait_queue_wait_until)
{
  DeadlineRun woken = { 0 }, expired = { 0 };

  run_deadline (&woken, NS_US (5));
  ck_assert (woken.woken);
  ck_assert_int_eq (woken.back_at, NS_US (5) + NS_NS (WAKE_LAT_NS));
  ck_assert (!woken.active_after);
  run_deadline (&expired, 0);
  ck_assert (!expired.woken);
  ck_assert_int_eq (expired.back_at, NS_US (20));
  ck_assert (!expired.active_after);
}
END_TEST

/* Ends a slice (resumed at 5 us) and works on to 5.9 us: a wake-up paid from there (200
 * ns) crosses the quantum, so the other CPUs run while the waker pays. */
static void
near_slice_end (NsThread *self)
{
  ns_thread_advance_time (self, NS_US (5));
  ns_thread_advance_time (self, NS_NS (900));
}

/* A wake-up whose cost carries the waker past a timed waiter's deadline (test_wake_races_
 * deadline): the waker and the sleeper's two waits. */
typedef struct {
  NsWaitQueue *wq, *other;
  guint        woke;              /* what the waker's wake_one returned */
  gboolean     first_woken;       /* what the timed wait returned */
  NsTime       first_back;
  gboolean     second_back;       /* the untimed wait on `other` returned */
} RaceRun;

/* Waker on cpu 0: its slice nearly spent at 5.9 us, wakes wq; paying try_to_wake_up
 * (200 ns) takes it past its quantum and past the sleeper's 6 us deadline. */
static void
race_waker (NsThread *self, gpointer data)
{
  RaceRun *run = data;

  near_slice_end (self);
  run->woke = ns_wait_queue_wake_one (self, run->wq, 0);
}

/* Sleeper on cpu 1: a wait on wq until 6 us, then an untimed wait on `other` that nothing
 * wakes. */
static void
race_sleeper (NsThread *self, gpointer data)
{
  RaceRun *run = data;

  run->first_woken = ns_wait_queue_wait_until (self, run->wq, NS_US (6));
  run->first_back = ns_thread_now (self);
  ns_wait_queue_wait (self, run->other);
  run->second_back = TRUE;
}

/* The deadline comes while the waker pays: the timed wait ends by its deadline (FALSE, at
 * 6 us), the waker finds nobody left to wake, and the sleeper's next wait is not woken
 * by it (the waker used to take the sleeper off the queue before paying, so the wait
 * returned TRUE and the late wake-up hit the next wait). */
START_TEST (test_wake_races_deadline)
{
  Fixture f;
  RaceRun run = { 0 };

  fixture_init (&f);
  run.wq = ns_wait_queue_new ();
  run.other = ns_wait_queue_new ();
  ns_engine_spawn (f.engine, "waker", 0, NS_THREAD_USER, 0, race_waker, &run);
  ns_engine_spawn (f.engine, "sleeper", 1, NS_THREAD_USER, 0, race_sleeper, &run);
  ns_engine_run (f.engine, NS_US (100));

  ck_assert (!run.first_woken);
  ck_assert_int_eq (run.first_back, NS_US (6));
  ck_assert_uint_eq (run.woke, 0);
  ck_assert (!run.second_back);
  ns_wait_queue_free (run.wq);
  ns_wait_queue_free (run.other);
  fixture_clear (&f);
}
END_TEST

/* A wake_all that meets a thread joining the queue while the waker pays (its charge
 * crosses the quantum, so the other CPUs run meanwhile): the waker, the first sleeper
 * (untimed, or with a deadline inside that charge), the late one. */
typedef struct {
  NsWaitQueue *wq;
  NsTime       first_deadline;  /* 0: the first sleeper's wait is untimed */
  guint        woke;            /* what the waker's wake_all returned */
  NsTime       waker_in, waker_out;   /* the waker's clock around its wake_all */
  gboolean     first_woken;     /* the first sleeper's wait returned, woken */
  gboolean     late_back;       /* the late sleeper's wait returned */
  gboolean     active_after;    /* the queue, seen by the waker after its wake_all */
} LateRun;

/* Waker on cpu 0: at 5.9 us, its slice nearly spent, wakes everyone on the queue. */
static void
late_waker (NsThread *self, gpointer data)
{
  LateRun *run = data;

  near_slice_end (self);
  run->waker_in = ns_thread_now (self);
  run->woke = ns_wait_queue_wake_all (self, run->wq, 0);
  run->waker_out = ns_thread_now (self);
  run->active_after = ns_wait_queue_active (run->wq);
}

static void
late_first (NsThread *self, gpointer data)
{
  LateRun *run = data;

  if (run->first_deadline > 0) {
    run->first_woken = ns_wait_queue_wait_until (self, run->wq, run->first_deadline);
    return;
  }
  ns_wait_queue_wait (self, run->wq);
  run->first_woken = TRUE;
}

static void
late_second (NsThread *self, gpointer data)
{
  LateRun *run = data;

  ns_wait_queue_wait (self, run->wq);
  run->late_back = TRUE;
}

/* Runs the waker, a first sleeper (from 1 us, with first_deadline) and the late one,
 * joining the queue at 6 us: while the waker pays its first wake-up (5.9 to 6.1 us). */
static void
run_late (LateRun *run, NsTime first_deadline)
{
  Fixture f;

  fixture_init (&f);
  run->wq = ns_wait_queue_new ();
  run->first_deadline = first_deadline;
  ns_engine_spawn (f.engine, "waker", 0, NS_THREAD_USER, 0, late_waker, run);
  ns_engine_spawn (f.engine, "first", 1, NS_THREAD_USER, NS_US (1), late_first, run);
  ns_engine_spawn (f.engine, "late", 2, NS_THREAD_USER, NS_US (6), late_second, run);
  ns_engine_run (f.engine, NS_US (100));
  ns_wait_queue_free (run->wq);
  fixture_clear (&f);
}

/* wake_all wakes the threads asleep when it starts, not one that joins while the waker
 * pays for a wake-up (the kernel walks the list it started on): the late sleeper is the
 * first arrival after the start and stays asleep, unpaid for; and when the first sleeper's
 * deadline takes it off the queue during that payment, the late one, now at the head, is
 * not woken in its place. */
START_TEST (test_wake_all_leaves_late_arrival)
{
  LateRun untimed = { 0 }, timed = { 0 };

  run_late (&untimed, 0);
  ck_assert_uint_eq (untimed.woke, 1);
  ck_assert (untimed.first_woken);
  ck_assert (!untimed.late_back);
  ck_assert (untimed.active_after);
  ck_assert_int_eq (untimed.waker_out - untimed.waker_in, cyc_ps (WAKE_CYC));

  run_late (&timed, NS_NS (6050));
  ck_assert_uint_eq (timed.woke, 0);
  ck_assert (!timed.first_woken);
  ck_assert (!timed.late_back);
  ck_assert (timed.active_after);
}
END_TEST

/* A wait ended by a direct ns_thread_wake (not by the queue): the sleeper and the thread
 * that wakes it. */
typedef struct {
  NsWaitQueue *wq;
  NsThread    *sleeper;
  gboolean     active_after;   /* the queue, seen by the sleeper once back */
  guint        woke_later;     /* a wake_one of the queue after that */
} DirectRun;

static void
direct_sleeper (NsThread *self, gpointer data)
{
  DirectRun *run = data;

  ns_wait_queue_wait (self, run->wq);
  run->active_after = ns_wait_queue_active (run->wq);
}

/* Wakes the sleeper directly at 5 us, then the queue at 10 us. */
static void
direct_waker (NsThread *self, gpointer data)
{
  DirectRun *run = data;

  ns_thread_advance_time (self, NS_US (5));
  ns_thread_wake (run->sleeper, ns_thread_now (self));
  ns_thread_advance_time (self, NS_US (5));
  run->woke_later = ns_wait_queue_wake_one (self, run->wq, 0);
}

/* A sleeper woken directly leaves the queue: it is no longer on it when it runs, and a
 * later wake-up of the queue finds nobody. */
START_TEST (test_wait_ended_by_direct_wake)
{
  Fixture f;
  DirectRun run = { 0 };

  fixture_init (&f);
  run.wq = ns_wait_queue_new ();
  run.sleeper = ns_engine_spawn (f.engine, "sleeper", 1, NS_THREAD_USER, 0, direct_sleeper,
                                 &run);
  ns_engine_spawn (f.engine, "waker", 0, NS_THREAD_USER, NS_US (1), direct_waker, &run);
  ns_engine_run (f.engine, NS_US (100));

  ck_assert (!run.active_after);
  ck_assert_uint_eq (run.woke_later, 0);
  ns_wait_queue_free (run.wq);
  fixture_clear (&f);
}
END_TEST

/* ---- stale waiters ---- */

/* Takes the lock and never releases it. */
static void
stuck_holder (NsThread *self, gpointer data)
{
  ns_spin_lock (self, data);
}

START_TEST (test_stale_waiters_ignored)
{
  Fixture f;

  fixture_init (&f);
  ns_engine_spawn (f.engine, "holder", 0, NS_THREAD_USER, 0, stuck_holder, f.lock);
  ns_engine_spawn (f.engine, "waiter", 1, NS_THREAD_USER, NS_US (1), stuck_holder, f.lock);
  ns_engine_run (f.engine, NS_US (50));
  ck_assert_uint_eq (ns_spin_n_waiters (f.lock), 1);

  /* the engine goes away with a thread still spinning; a zeroed word is a fresh lock */
  ns_engine_free (f.engine);
  f.lock->val = 0;
  ck_assert_uint_eq (ns_spin_n_waiters (f.lock), 0);
  ns_spin_lock_init (f.lock);
  ck_assert_uint_eq (ns_spin_n_waiters (f.lock), 0);
  f.engine = ns_engine_new (1, (double[]) { GHZ }, NS_US (1));
  fixture_clear (&f);
}
END_TEST

static Suite *
sync_suite (void)
{
  Suite *s = suite_create ("sync");
  TCase *spin = tcase_create ("spinlock");
  TCase *wq = tcase_create ("waitqueue");

  tcase_add_test (spin, test_acquire_in_arrival_order);
  tcase_add_test (spin, test_arrival_order_is_simulated_time);
  tcase_add_test (spin, test_handoff_same_ccx);
  tcase_add_test (spin, test_handoff_cross_ccx);
  tcase_add_test (spin, test_mutual_exclusion);
  tcase_add_test (spin, test_trylock);
  tcase_add_test (spin, test_stale_waiters_ignored);
  suite_add_tcase (s, spin);

  tcase_add_test (wq, test_wait_queue_fifo);
  tcase_add_test (wq, test_wait_queue_wake_from_event);
  tcase_add_test (wq, test_wait_queue_wait_until);
  tcase_add_test (wq, test_wake_races_deadline);
  tcase_add_test (wq, test_wake_all_leaves_late_arrival);
  tcase_add_test (wq, test_wait_ended_by_direct_wake);
  suite_add_tcase (s, wq);
  return s;
}

int
main (void)
{
  SRunner *runner = srunner_create (sync_suite ());
  int failed;

  srunner_run_all (runner, CK_NORMAL);
  failed = srunner_ntests_failed (runner);
  srunner_free (runner);
  return failed == 0 ? 0 : 1;
}
