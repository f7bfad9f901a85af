/* sync.h — synchronisation primitives for simulated threads: spinlock, wait queue. */
#pragma once
#include "engine.h"

G_BEGIN_DECLS

/* A spinlock word, 4 bytes like the kernel's qspinlock, so it can sit inside kernel-shaped
 * structs at the kernel's offset. Waiters are kept by the engine, in arrival order. The
 * lock word must live in simulated memory (arena.h) because acquiring it is a locked
 * read-modify-write of its cache line: a hand-off between CPUs costs what the coherence
 * model says a transfer of that line costs. */
typedef struct {
  guint32 val;
} NsSpinlock;

void     ns_spin_lock_init  (NsSpinlock *lock);
void     ns_spin_lock       (NsThread *thread, NsSpinlock *lock);
gboolean ns_spin_trylock    (NsThread *thread, NsSpinlock *lock);
void     ns_spin_unlock     (NsThread *thread, NsSpinlock *lock);
/* Number of threads spinning on lock right now. */
guint    ns_spin_n_waiters  (NsSpinlock *lock);

/* A wait queue (host-side object): threads sleep on it until woken. */
typedef struct _NsWaitQueue NsWaitQueue;

NsWaitQueue *ns_wait_queue_new      (void);
void         ns_wait_queue_free     (NsWaitQueue *wq);
/* Puts the running thread to sleep on wq until woken; its CPU is free meanwhile. */
void         ns_wait_queue_wait     (NsThread *thread, NsWaitQueue *wq);
/* The same, but also ends at simulated time `when`: TRUE if woken, FALSE at the deadline. */
gboolean     ns_wait_queue_wait_until (NsThread *thread, NsWaitQueue *wq, NsTime when);
/* Wakes the longest waiter. waker is the running thread that pays the wake-up cost, or NULL
 * from an event (then `at` is the event time). Returns the number woken (0 or 1). */
guint        ns_wait_queue_wake_one (NsThread *waker, NsWaitQueue *wq, NsTime at);
guint        ns_wait_queue_wake_all (NsThread *waker, NsWaitQueue *wq, NsTime at);
gboolean     ns_wait_queue_active   (NsWaitQueue *wq);

G_END_DECLS
