/* sync.c — spinlocks and wait queues for simulated threads.
 *
 * Spinlock
 * --------
 * The lock word (4 bytes, in simulated memory) holds NS_SPIN_LOCKED while the lock is held
 * and additionally NS_SPIN_QUEUED while threads wait for it, like the locked byte and the
 * non-zero tail of the kernel's qspinlock; 0 means free. The waiters themselves are kept
 * host-side, in arrival order (FIFO), in a process-wide table from lock word address to
 * queue that holds an entry only while the lock has waiters. Queue nodes live on the
 * waiting threads' own stacks, so waiting allocates nothing.
 *
 *   lock:    sync point (yield), then one locked RMW of the line (ns_atomic: the machine
 *            charges it and any transfer of the line). Free → the caller holds it. Held →
 *            the caller joins the FIFO and spins (its CPU stays busy) until an unlock hands
 *            the lock over; the span spun is recorded as NS_CAUSE_LOCK_WAIT, then a second
 *            ns_atomic prices the hand-off: the line moves from the releaser's core, so
 *            the cost comes from the coherence model (the c2c value of that CPU pair's
 *            distance, a CAS ping-pong's half round trip), not from a separate parameter.
 *   trylock: sync point, one ns_atomic, never waits.
 *   unlock:  sync point, then a release store to the word (ns_store). With waiters, the
 *            first one is woken at the releaser's time and owns the lock from then on (the
 *            word stays locked: a hand-off, so no third thread can barge in); else the word
 *            becomes 0. The releaser goes on without yielding.
 *
 * Why the sync points. The engine lets a thread run up to a quantum ahead of the others.
 * Lock state is shared, so every operation yields first: it then executes only when no
 * runnable thread has a smaller local time, i.e. lock operations take effect in simulated-
 * time order. Without the yield before unlock, a lagging thread could later take the lock
 * "free" at a simulated time when the releaser still held it; without the yield before
 * lock, a later arrival could queue ahead of an earlier one. No yield is needed after
 * unlock: the woken waiter is runnable from the release time and the dispatcher runs it
 * in time order anyway. Between deciding to wait and spinning nothing yields, so a wake-up
 * can never be lost. A thread that spins on a lock held by a thread of its own CPU never
 * gets it (the CPU is busy spinning) — the same deadlock as the real kernel's.
 *
 * Stale waiters. If an engine is freed while threads still spin, their queue entry stays
 * in the table; it is recognised (the word no longer says NS_SPIN_QUEUED: fresh arena
 * memory is zero, ns_spin_lock_init clears it) and dropped without being dereferenced.
 *
 * Wait queue
 * ----------
 * A host-side FIFO of sleeping threads. wait = join the FIFO and ns_thread_block (the CPU
 * is free meanwhile); nothing yields between the caller's condition check and sleeping, so
 * a wake-up is never lost. wake_one/wake_all pop in arrival order. Each wake-up costs the
 * waker sched.wakeup_cycles, charged as NS_CAUSE_INSN (it is kernel instructions: the
 * enqueue on the target runqueue and the IPI send) and attributed to try_to_wake_up, as
 * perf would show it; the wakee becomes runnable sched.wakeup_latency_ns (IPI delivery,
 * idle exit) after the waker's time once it paid that cost — or after `at` when the waker
 * is an event (NULL). Threads of an engine with no machine attached wake at no cost. */
#include "config.h"
#include <math.h>
#include "sync.h"
#include "machine.h"

#define NS_SPIN_LOCKED  0x1u        /* the locked byte */
#define NS_SPIN_QUEUED  0x10000u    /* waiters queued (qspinlock's tail field) */

/* ---- spinlock waiters ---- */

typedef struct {
  GList     link;      /* in the lock's FIFO; link.data = this */
  NsThread *thread;
  gboolean  granted;   /* set by the unlock that hands the lock over */
} NsSpinWaiter;

static GMutex      waiters_lock;
static GHashTable *waiters_table;   /* NsSpinlock* → GQueue* of NsSpinWaiter links */

/* The FIFO of lock (created if create), or NULL. Call with waiters_lock held. */
static GQueue *
spin_queue_lookup (NsSpinlock *lock, gboolean create)
{
  GQueue *queue;

  if (waiters_table == NULL) {
    if (!create)
      return NULL;
    waiters_table = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL,
                                           (GDestroyNotify) g_free);
  }
  queue = g_hash_table_lookup (waiters_table, lock);
  if (queue == NULL && create) {
    queue = g_new0 (GQueue, 1);
    g_hash_table_insert (waiters_table, lock, queue);
  }
  return queue;
}

/* Forgets lock's FIFO without touching its (possibly dead) nodes. */
static void
spin_queue_forget (NsSpinlock *lock)
{
  g_mutex_lock (&waiters_lock);
  if (waiters_table != NULL)
    g_hash_table_remove (waiters_table, lock);
  g_mutex_unlock (&waiters_lock);
}

/* Appends waiter to lock's FIFO and marks the word queued. */
static void
spin_enqueue (NsSpinlock *lock, NsSpinWaiter *waiter)
{
  GQueue *queue;

  g_mutex_lock (&waiters_lock);
  queue = spin_queue_lookup (lock, TRUE);
  if (!(lock->val & NS_SPIN_QUEUED))
    g_queue_init (queue);   /* stale entry of a freed engine: drop it */
  g_queue_push_tail_link (queue, &waiter->link);
  lock->val |= NS_SPIN_QUEUED;
  g_mutex_unlock (&waiters_lock);
}

/* Removes and returns the first waiter of lock, updating the queued bit; NULL if none. */
static NsSpinWaiter *
spin_dequeue (NsSpinlock *lock)
{
  GQueue *queue;
  GList *link = NULL;

  g_mutex_lock (&waiters_lock);
  queue = spin_queue_lookup (lock, FALSE);
  if (queue != NULL)
    link = g_queue_pop_head_link (queue);
  if (queue == NULL || g_queue_is_empty (queue)) {
    if (queue != NULL)
      g_hash_table_remove (waiters_table, lock);
    lock->val &= ~NS_SPIN_QUEUED;
  }
  g_mutex_unlock (&waiters_lock);
  return link != NULL ? link->data : NULL;
}

/* ---- spinlock ---- */

/* Initialises lock as free (and forgets any stale waiters recorded for its address). */
void
ns_spin_lock_init (NsSpinlock *lock)
{
  g_return_if_fail (lock != NULL);

  lock->val = 0;
  spin_queue_forget (lock);
}

/* Spins until the lock is handed over; returns the span spun. */
static NsTime
spin_wait (NsThread *thread, NsSpinlock *lock)
{
  NsSpinWaiter waiter = { .thread = thread, .granted = FALSE };
  NsTime spun = 0;

  waiter.link.data = &waiter;
  spin_enqueue (lock, &waiter);
  while (!waiter.granted)
    spun += ns_thread_spin (thread);
  return spun;
}

/* Acquires lock, spinning in arrival order behind earlier waiters while it is held. */
void
ns_spin_lock (NsThread *thread, NsSpinlock *lock)
{
  NsTime spun;

  g_return_if_fail (thread != NULL);
  g_return_if_fail (lock != NULL);

  ns_thread_yield (thread);
  ns_atomic (thread, &lock->val);
  if (!(lock->val & NS_SPIN_LOCKED)) {
    lock->val = NS_SPIN_LOCKED;
    return;
  }
  spun = spin_wait (thread, lock);
  ns_account_wait (thread, NS_CAUSE_LOCK_WAIT, spun);
  ns_atomic (thread, &lock->val);
}

/* Takes lock if it is free; never waits. */
gboolean
ns_spin_trylock (NsThread *thread, NsSpinlock *lock)
{
  g_return_val_if_fail (thread != NULL, FALSE);
  g_return_val_if_fail (lock != NULL, FALSE);

  ns_thread_yield (thread);
  ns_atomic (thread, &lock->val);
  if (lock->val & NS_SPIN_LOCKED)
    return FALSE;
  lock->val = NS_SPIN_LOCKED;
  return TRUE;
}

/* Releases lock: hands it to the longest waiter (woken now) or marks it free. */
void
ns_spin_unlock (NsThread *thread, NsSpinlock *lock)
{
  NsSpinWaiter *next = NULL;

  g_return_if_fail (thread != NULL);
  g_return_if_fail (lock != NULL);
  g_return_if_fail (lock->val & NS_SPIN_LOCKED);

  ns_thread_yield (thread);
  ns_store (thread, &lock->val, sizeof lock->val);
  if (lock->val & NS_SPIN_QUEUED)
    next = spin_dequeue (lock);
  if (next == NULL) {
    lock->val = 0;
    return;
  }
  next->granted = TRUE;
  ns_thread_wake (next->thread, ns_thread_now (thread));
}

/* Number of threads waiting for lock now. */
guint
ns_spin_n_waiters (NsSpinlock *lock)
{
  GQueue *queue;
  guint n = 0;

  g_return_val_if_fail (lock != NULL, 0);

  if (!(lock->val & NS_SPIN_QUEUED))
    return 0;
  g_mutex_lock (&waiters_lock);
  queue = spin_queue_lookup (lock, FALSE);
  if (queue != NULL)
    n = g_queue_get_length (queue);
  g_mutex_unlock (&waiters_lock);
  return n;
}

/* ---- wait queue ---- */

typedef struct {
  GList     link;      /* in the wait queue; link.data = this */
  NsThread *thread;
  gboolean  woken;     /* set by the waker that removed it */
  guint64   arrival;   /* the queue's arrival count when it joined */
} NsWaiter;

struct _NsWaitQueue {
  GQueue  waiters;     /* NsWaiter links, arrival order */
  guint64 arrivals;    /* waiters that have joined so far */
};

/* The kernel function wake-up costs are attributed to (registered at first wake; never
 * called, so its size and frame are not charged: the Debian 6.1.176 binary's, as
 * models/net/select.c declares the one its pollwake calls). */
static NS_FUNC (fn_try_to_wake_up, "try_to_wake_up", 1344, 15, NS_FN_EXTERN, 1);

/* Creates an empty wait queue. */
NsWaitQueue *
ns_wait_queue_new (void)
{
  NsWaitQueue *wq = g_new0 (NsWaitQueue, 1);

  g_queue_init (&wq->waiters);
  return wq;
}

/* Frees wq; threads still sleeping on it are forgotten, not woken. */
void
ns_wait_queue_free (NsWaitQueue *wq)
{
  g_free (wq);
}

/* Sleeps on wq until a wake-up removes the caller (direct ns_thread_wake also ends it). */
void
ns_wait_queue_wait (NsThread *thread, NsWaitQueue *wq)
{
  NsWaiter waiter = { .thread = thread, .woken = FALSE };

  g_return_if_fail (thread != NULL);
  g_return_if_fail (wq != NULL);

  waiter.link.data = &waiter;
  waiter.arrival = wq->arrivals++;
  g_queue_push_tail_link (&wq->waiters, &waiter.link);
  ns_thread_block (thread);
  if (!waiter.woken)
    g_queue_unlink (&wq->waiters, &waiter.link);
}

/* Sleeps on wq until a wake-up removes the caller or simulated time `when`, whichever
 * comes first (sleep_until's deadline event is cancelled by the wake). Returns TRUE if
 * woken, FALSE at the deadline (also when `when` had already passed: a yield). */
gboolean
ns_wait_queue_wait_until (NsThread *thread, NsWaitQueue *wq, NsTime when)
{
  NsWaiter waiter = { .thread = thread, .woken = FALSE };

  g_return_val_if_fail (thread != NULL, FALSE);
  g_return_val_if_fail (wq != NULL, FALSE);

  waiter.link.data = &waiter;
  waiter.arrival = wq->arrivals++;
  g_queue_push_tail_link (&wq->waiters, &waiter.link);
  ns_thread_sleep_until (thread, when);
  if (!waiter.woken)
    g_queue_unlink (&wq->waiters, &waiter.link);
  return waiter.woken;
}

/* The machine of a thread's engine, or NULL if none is attached. */
static NsMachine *
thread_machine (NsThread *thread)
{
  return ns_engine_get_machine (ns_thread_engine (thread));
}

/* Removes the first waiter of wq and returns its thread, or NULL if none. */
static NsThread *
wait_queue_pop (NsWaitQueue *wq)
{
  GList *link = g_queue_pop_head_link (&wq->waiters);
  NsWaiter *waiter;

  if (link == NULL)
    return NULL;
  waiter = link->data;
  waiter->woken = TRUE;   /* from here on the sleeper never touches the queue */
  return waiter->thread;
}

/* The waker (if any) pays try_to_wake_up for a wake-up of a thread of machine; returns
 * when the wakee can run: the waker's time (else at) plus sched.wakeup_latency_ns. */
static NsTime
wake_charge (NsThread *waker, NsMachine *machine, NsTime at)
{
  double latency_ns = 0.0;

  if (machine != NULL) {
    const NsParams *params = ns_machine_params (machine);

    latency_ns = ns_params_get_double (params, "sched.wakeup_latency_ns");
    if (waker != NULL) {
      ns_func_register (&fn_try_to_wake_up);
      ns_thread_push_func (waker, &fn_try_to_wake_up);
      ns_charge (waker, NS_CAUSE_INSN, ns_params_get_double (params, "sched.wakeup_cycles"));
      ns_thread_pop_func (waker);
    }
  }
  if (waker != NULL)
    at = ns_thread_now (waker);
  return at + (NsTime) llround (latency_ns * 1000.0);
}

/* Wakes the longest waiter of wq if it joined before arrival `before`: the waker pays
 * first (it may yield, and a timed waiter may leave meanwhile), then the head is taken
 * and woken with nothing charged in between, so no waiter is marked woken that its own
 * deadline then resumes. Returns the number woken (0 or 1). */
static guint
wake_head (NsThread *waker, NsWaitQueue *wq, NsTime at, guint64 before)
{
  NsWaiter *head = g_queue_peek_head (&wq->waiters);
  NsTime ready;

  if (head == NULL || head->arrival >= before)
    return 0;
  ready = wake_charge (waker, thread_machine (waker != NULL ? waker : head->thread), at);
  head = g_queue_peek_head (&wq->waiters);
  if (head == NULL || head->arrival >= before)
    return 0;
  ns_thread_wake (wait_queue_pop (wq), ready);
  return 1;
}

/* Wakes the longest waiter of wq; returns the number woken (0 or 1). */
guint
ns_wait_queue_wake_one (NsThread *waker, NsWaitQueue *wq, NsTime at)
{
  g_return_val_if_fail (wq != NULL, 0);

  return wake_head (waker, wq, at, G_MAXUINT64);
}

/* Wakes every thread sleeping on wq now, in arrival order, each wake-up paid for; threads
 * that start waiting meanwhile (the waker may yield while paying) are left for the next
 * wake-up, as the kernel's list walk would. Returns how many were woken. */
guint
ns_wait_queue_wake_all (NsThread *waker, NsWaitQueue *wq, NsTime at)
{
  guint64 before;
  guint n = 0;

  g_return_val_if_fail (wq != NULL, 0);

  before = wq->arrivals;
  while (wake_head (waker, wq, at, before))
    n++;
  return n;
}

/* TRUE if a thread sleeps on wq. */
gboolean
ns_wait_queue_active (NsWaitQueue *wq)
{
  g_return_val_if_fail (wq != NULL, FALSE);

  return !g_queue_is_empty (&wq->waiters);
}
