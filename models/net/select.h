/* select.h — select(2) over sockets and the wait queues behind it (fs/select.c,
 * kernel/sched/wait.c, net/socket.c sock_poll, net/ipv4/udp.c udp_poll,
 * net/core/datagram.c datagram_poll, net/core/sock.c sock_def_readable). */
#pragma once
#include "netstack.h"

G_BEGIN_DECLS

/* A task's struct poll_wqueues: the poll table, the triggered flag, its inline entries. */
NsPollWqueues *ns_poll_wqueues_new  (NsNetStack *s, guint max_entries);
void           ns_poll_wqueues_free (NsPollWqueues *pwq);
/* Simulated time the owner has slept in select up to now (model bookkeeping): its finished
 * sleeps plus the part before now of an ongoing one, so that the difference of two reads
 * is the time asleep between them. */
NsTime         ns_poll_wqueues_slept (const NsPollWqueues *pwq, NsTime now);

/* select(n, readfds, writefds, NULL, timeout) over files[0..n), indexed by descriptor
 * (n = nfds): events[i] is EPOLLIN for a file in the read set, EPOLLOUT in the write set;
 * files[i] NULL for a descriptor in neither (a clear bit: do_select tests it, and skips a
 * bitmap word that has none set). revents[i] gets what is ready (0 for a NULL). Polls
 * every file; if none is ready, registers on their wait queues, sleeps until a wake-up
 * (the CPU is free meanwhile), polls again. Returns the number of bits set in the result
 * sets (do_select: a file ready for reading and writing counts twice).
 * until: NS_TIME_FOREVER (no timeout), or the absolute time the select times out at — then
 * each sleep ends at a wake-up or at that time plus the timer slack (select_estimate_
 * accuracy: 0.1 % of the time left, at least 50 us, at most 100 ms; the hrtimer of an
 * idle CPU fires at the end of its range), whichever is first; a wake-up polls again
 * (returning what is ready, else sleeping on), the deadline makes one last full pass
 * (do_select's timed_out) whose result is returned, 0 if nothing is ready; a time already
 * passed at the call is a zero timeout: one pass, no wait-queue entry. */
gint  ns_sys_select        (NsThread *t, NsNetStack *s, NsPollWqueues *pwq,
                            struct file *const *files, const guint32 *events, guint n,
                            guint32 *revents, NsTime until);

/* Wait-queue primitives on a socket's wait queue head (sock->wq.wait). */
void  add_wait_queue       (NsThread *t, NsNetStack *s, struct socket *sock, NsWaitEntry *e);
void  remove_wait_queue    (NsThread *t, NsNetStack *s, struct socket *sock, NsWaitEntry *e);
/* wake_up_interruptible_sync_poll(&wq->wait, key) → __wake_up_sync_key: walks the entries
 * under the head's lock and calls each one's function (pollwake, receiver_wake_function). */
void  __wake_up_sync_key   (NsThread *t, NsNetStack *s, struct socket *sock, guint32 key);
/* Charges one context switch of the running task to idle or back (__schedule with the
 * RSB fill of spectre_v2 mitigations). */
void  ns_schedule_cost     (NsThread *t, NsNetStack *s);

G_END_DECLS
