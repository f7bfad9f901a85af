/* select.c — select(2) on sockets and the wait queues it sleeps on, v6.9: fs/select.c
 * (do_pselect, core_sys_select, do_select, __pollwait, pollwake, poll_freewait,
 * poll_select_finish), kernel/sched/wait.c (add_wait_queue, remove_wait_queue,
 * __wake_up_sync_key, __wake_up_common), kernel/sched/core.c (try_to_wake_up and the
 * wakelist), net/socket.c (sock_poll), net/ipv4/udp.c (udp_poll), net/core/datagram.c
 * (datagram_poll).
 *
 * One select pass polls every file in the sets: fdget, vfs_poll → f_op->poll (sock_poll,
 * indirect) → sock->ops->poll (udp_poll, indirect) → datagram_poll, and udp_poll's
 * sk_is_readable, which tests sk_prot->sock_is_readable: NULL for udp_prot (only the
 * sockmap's BPF copies of the proto set it to sk_msg_is_readable; the Debian 6.1 binary's
 * udp_poll takes the branch without a call, doc/census/seed000/select.md), so no call.
 * Until the first ready file the pass also registers a
 * poll-table entry on each socket's wait queue (__pollwait through the table's _qproc
 * pointer: get_file, add_wait_queue under the queue lock). If nothing is ready the task
 * sleeps until a pollwake; the second pass registers nothing; poll_freewait then removes
 * every entry (remove_wait_queue under each queue's lock, fput).
 *
 * The wake side (sock_def_readable → __wake_up_sync_key) runs on the sender's CPU in
 * softirq: the wait-queue head's lock and list line move between the two CPUs, which is
 * what the coherence model charges; try_to_wake_up queues the sleeper on its idle CPU's
 * wakelist (the idle task polls: no IPI).
 *
 * Instruction counts: the census of the Debian 6.1.176 binary (doc/census/seed000/:
 * syscall.md unit 4 for select's fixed part, select.md per fd, receive.md section F for
 * the wake-up) as body instructions, each function's total less its prologue, epilogue and
 * return (the machine charges each NS_FUNC's frame per call); functions the binary enters
 * by a tail jmp are entered by one (ns_tail_call / ns_tail_next). Where v6.9-rc1 is built differently its shape is
 * kept and the comment says so. Counts not in the census are estimates with their
 * reasons. Text sizes: the Debian 6.1.176 binary's (nm -S;
 * doc/census/text-sizes-6.1.176.txt). */
#include "config.h"
#include <string.h>
#include "select.h"
#include "usercopy.h"
#include "udp_rx.h"

#define BITS_PER_LONG          64
/* include/linux/poll.h: N_INLINE_POLL_ENTRIES = WQUEUES_STACK_ALLOC / sizeof(struct
 * poll_table_entry) = (MAX_STACK_ALLOC 832 - FRONTEND_STACK_ALLOC 256) / 64 = 9 with
 * gcc (a clang build has MAX_STACK_ALLOC 768: 8); the census finds 9. */
#define N_INLINE_POLL_ENTRIES  9
/* fs/select.c: struct poll_table_page is next and entry (16 bytes) then the entries;
 * POLL_TABLE_FULL once entry + 1 would pass the page's end: 63 entries of 64 bytes. */
#define POLL_TABLE_HEADER      16
#define POLL_TABLE_ENTRIES     ((4096 - POLL_TABLE_HEADER) / 64)
/* include/linux/init_task.h / kernel/sys.c: a task's default timer_slack_ns (50 us), and
 * fs/select.c's MAX_SLACK (100 ms), the bounds of select's timer slack */
#define TIMER_SLACK_DEFAULT    NS_US (50)
#define SELECT_MAX_SLACK       NS_MS (100)
/* fs/select.c's POLLIN_SET / POLLOUT_SET, less the bits the model's masks and wake keys
 * never carry (EPOLLHUP, EPOLLERR, EPOLLRDBAND; sock_wfree's write-space key carries
 * EPOLLWRNORM | EPOLLWRBAND with EPOLLOUT) */
#define POLLIN_SET             (EPOLLIN | EPOLLRDNORM)
#define POLLOUT_SET            (EPOLLOUT | EPOLLWRNORM | EPOLLWRBAND)

static NS_FUNC (fn___x64_sys_pselect6, "__x64_sys_pselect6", 122, 1,
                NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_do_pselect, "do_pselect", 373, 16, NS_FN_STATIC | NS_FN_NOINLINE, 2);
static NS_FUNC (fn_get_timespec64, "get_timespec64", 140, 5, NS_FN_EXTERN, 20);
static NS_FUNC (fn_put_timespec64, "put_timespec64", 96, 3, NS_FN_EXTERN, 20);
static NS_FUNC (fn_set_user_sigmask, "set_user_sigmask", 205, 5, NS_FN_EXTERN, 5);
static NS_FUNC (fn_core_sys_select, "core_sys_select", 923, 15, NS_FN_EXTERN, 3);
static NS_FUNC (fn_do_select, "do_select", 2070, 17, NS_FN_STATIC | NS_FN_NOINLINE, 1);
static NS_FUNC (fn_select_estimate_accuracy, "select_estimate_accuracy", 291, 9,
                NS_FN_STATIC | NS_FN_NOINLINE, 2);
static NS_FUNC (fn_poll_select_finish, "poll_select_finish", 603, 13,
                NS_FN_STATIC | NS_FN_NOINLINE, 4);
static NS_FUNC (fn_poll_freewait, "poll_freewait", 157, 11, NS_FN_EXTERN, 3);
static NS_FUNC (fn_ktime_get_ts64, "ktime_get_ts64", 215, 7, NS_FN_EXTERN, 100);
static NS_FUNC (fn_read_tsc, "read_tsc", 17, 0, NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_timespec64_add_safe, "timespec64_add_safe", 103, 4, NS_FN_EXTERN, 10);
static NS_FUNC (fn_set_normalized_timespec64, "set_normalized_timespec64", 57, 1,
                NS_FN_EXTERN, 50);
static NS_FUNC (fn__copy_from_user, "_copy_from_user", 88, 4, NS_FN_EXTERN, 1000);
static NS_FUNC (fn__copy_to_user, "_copy_to_user", 40, 0, NS_FN_EXTERN, 1000);
static NS_FUNC (fn_memset, "memset", 51, 0, NS_FN_EXTERN, 5000);
static NS_FUNC (fn___fdget, "__fdget", 15, 1, NS_FN_EXTERN, 100);
static NS_FUNC (fn_sock_poll, "sock_poll", 226, 9, NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_udp_poll, "udp_poll", 151, 9, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_tcp_poll, "tcp_poll", 890, 11, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_tcp_stream_memory_free, "tcp_stream_memory_free", 53, 1, NS_FN_EXTERN, 2);
static NS_FUNC (fn_datagram_poll, "datagram_poll", 247, 3, NS_FN_EXTERN, 10);
static NS_FUNC (fn___pollwait, "__pollwait", 210, 9, NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_add_wait_queue, "add_wait_queue", 147, 13, NS_FN_EXTERN, 50);
static NS_FUNC (fn_remove_wait_queue, "remove_wait_queue", 88, 7, NS_FN_EXTERN, 50);
static NS_FUNC (fn_fput, "fput", 133, 3, NS_FN_EXTERN, 200);
static NS_FUNC (fn___wake_up_sync_key, "__wake_up_sync_key", 33, 1, NS_FN_EXTERN, 20);
static NS_FUNC (fn___wake_up_common_lock, "__wake_up_common_lock", 196, 15,
                NS_FN_STATIC | NS_FN_NOINLINE, 4);
static NS_FUNC (fn___wake_up_common, "__wake_up_common", 371, 15, NS_FN_STATIC | NS_FN_NOINLINE, 4);
static NS_FUNC (fn_pollwake, "pollwake", 146, 3, NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_receiver_wake_function, "receiver_wake_function", 27, 1,
                NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_default_wake_function, "default_wake_function", 33, 1, NS_FN_EXTERN, 10);
static NS_FUNC (fn_try_to_wake_up, "try_to_wake_up", 1344, 15, NS_FN_EXTERN, 1);
static NS_FUNC (fn_select_task_rq_fair, "select_task_rq_fair", 6200, 15,
                NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_available_idle_cpu, "available_idle_cpu", 82, 1, NS_FN_EXTERN, 20);
static NS_FUNC (fn_cpus_share_cache, "cpus_share_cache", 57, 1, NS_FN_EXTERN, 20);
static NS_FUNC (fn_ttwu_queue_wakelist, "ttwu_queue_wakelist", 259, 13,
                NS_FN_STATIC | NS_FN_NOINLINE, 2);
static NS_FUNC (fn___smp_call_single_queue, "__smp_call_single_queue", 53, 3, NS_FN_EXTERN, 4);
static NS_FUNC (fn_llist_add_batch, "llist_add_batch", 27, 0, NS_FN_EXTERN, 20);
static NS_FUNC (fn_send_call_function_single_ipi, "send_call_function_single_ipi", 155, 1,
                NS_FN_EXTERN, 4);
static NS_FUNC (fn___schedule, "__schedule", 2523, 15, NS_FN_STATIC, 3);

struct _NsPollWqueues {
  NsNetStack    *s;
  NsWaitQueue   *wq;            /* where the polling task sleeps */
  guint32       *mem;           /* struct poll_wqueues' first line: pt, task, triggered */
  guint8        *entries_mem;   /* the N_INLINE_POLL_ENTRIES inline poll_table_entry,
                                   64 bytes each (poll_wqueues on do_select's stack) */
  GPtrArray     *tables;        /* the call's poll_table_pages (page_address), oldest
                                   first (the kernel links them newest first) */
  NsWaitEntry   *entries;
  struct socket **on;           /* the socket whose queue entry i sits on */
  struct file  **filp;
  guint          max, used;
  gboolean       triggered;
  NsTime         slept;         /* model: total time of the finished sleeps in select */
  NsTime         asleep_since;  /* model: start of the ongoing sleep; NS_TIME_FOREVER: none */
};

/* A poll table for up to max_entries registrations. */
NsPollWqueues *
ns_poll_wqueues_new (NsNetStack *s, guint max_entries)
{
  NsPollWqueues *pwq;

  g_return_val_if_fail (s != NULL && max_entries > 0, NULL);
  pwq = g_new0 (NsPollWqueues, 1);
  pwq->s = s;
  pwq->wq = ns_wait_queue_new ();
  pwq->mem = ns_arena_alloc (s->arena, 64, 64);
  pwq->entries_mem = ns_arena_alloc (s->arena, (gsize) 64 * N_INLINE_POLL_ENTRIES, 64);
  pwq->tables = g_ptr_array_new ();
  pwq->entries = g_new0 (NsWaitEntry, max_entries);
  pwq->on = g_new0 (struct socket *, max_entries);
  pwq->filp = g_new0 (struct file *, max_entries);
  pwq->max = max_entries;
  pwq->asleep_since = NS_TIME_FOREVER;
  return pwq;
}

/* Simulated time the owner slept in select up to now: its finished sleeps, and the part
 * before now of one it is still in (a measurement window clipped to now both ends). */
NsTime
ns_poll_wqueues_slept (const NsPollWqueues *pwq, NsTime now)
{
  g_return_val_if_fail (pwq != NULL, 0);
  if (pwq->asleep_since < now)
    return pwq->slept + (now - pwq->asleep_since);
  return pwq->slept;
}

/* Frees pwq's wait queue and host-side arrays (NULL is fine; arena memory goes with the
 * machine). */
void
ns_poll_wqueues_free (NsPollWqueues *pwq)
{
  if (pwq == NULL)
    return;
  ns_wait_queue_free (pwq->wq);
  g_ptr_array_unref (pwq->tables);
  g_free (pwq->entries);
  g_free (pwq->on);
  g_free (pwq->filp);
  g_free (pwq);
}

/* ---- wait queues ---- */

/* add_wait_queue: under the head's lock (irqsave), link the entry (DEBUG_LIST checks it);
 * the unlock is a tail jmp. */
void
add_wait_queue (NsThread *t, NsNetStack *s, struct socket *sock, NsWaitEntry *e)
{
  ns_call (t, &fn_add_wait_queue);
  /* census (select.md): 26 instructions (39 less P/E 13): clear WQ_FLAG_EXCLUSIVE, the
   * empty queue's WQ_FLAG_PRIORITY walk, 4 list stores */
  ns_insns (t, 8);
  ns_raw_spin_lock (t, s, &sock->wq.lock, NS_LOCK_IRQSAVE);
  ns_insns (t, 6);
  ns___list_add_valid (t, s);
  ns_store (t, sock->wq.head, sizeof sock->wq.head);
  ns_store (t, e->mem, 40);
  g_queue_push_head (&sock->waiters, e);
  ns_insns (t, 12);
  ns_tail_next (t);
  ns_raw_spin_unlock (t, s, &sock->wq.lock, NS_LOCK_IRQSAVE);
  ns_ret (t);
}

/* remove_wait_queue: under the head's lock, unlink the entry (DEBUG_LIST checks it,
 * LIST_POISON stores); the unlock is a tail jmp. */
void
remove_wait_queue (NsThread *t, NsNetStack *s, struct socket *sock, NsWaitEntry *e)
{
  ns_call (t, &fn_remove_wait_queue);
  /* census (select.md): 19 instructions (26 less P/E 7) */
  ns_insns (t, 4);
  ns_raw_spin_lock (t, s, &sock->wq.lock, NS_LOCK_IRQSAVE);
  ns_insns (t, 3);
  ns___list_del_entry_valid (t, s);
  ns_store (t, sock->wq.head, sizeof sock->wq.head);
  ns_load (t, e->mem, 40);
  g_queue_remove (&sock->waiters, e);
  ns_insns (t, 12);
  ns_tail_next (t);
  ns_raw_spin_unlock (t, s, &sock->wq.lock, NS_LOCK_IRQSAVE);
  ns_ret (t);
}

/* ---- try_to_wake_up (census: receive.md section F, the wakee asleep in select on an
 * idle CPU of the waker's LLC) ---- */

/* select_task_rq_fair with WF_SYNC: record_wakee, wake_affine → the waker's CPU (one
 * task running), select_idle_sibling → the wakee's previous CPU (idle, same LLC). The
 * runqueue and sched-domain lines it reads are not modelled. */
static void
select_task_rq_fair (NsThread *t, NsNetStack *s)
{
  ns_icall (t, &fn_select_task_rq_fair);
  /* census: 149 instructions (166 less P/E 17), 2 sched-domain levels */
  ns_insns (t, 30);
  ns_rcu_read_lock (t, s);
  ns_insns (t, 40);
  /* available_idle_cpu (idle_cpu, !vcpu_is_preempted), census 11 less P/E 3 for a busy
   * CPU, 22 less 3 for an idle one; cpus_share_cache 14 less 3 */
  ns_leaf_call (t, &fn_available_idle_cpu, 8);       /* wake_affine_idle: this CPU busy */
  ns_insns (t, 40);                 /* sync, nr_running == 1: this CPU; then the sibling */
  ns_leaf_call (t, &fn_available_idle_cpu, 8);       /* select_idle_sibling: target busy */
  ns_insns (t, 10);
  ns_leaf_call (t, &fn_cpus_share_cache, 11);
  ns_insns (t, 5);
  ns_leaf_call (t, &fn_available_idle_cpu, 19);      /* prev is idle: return it */
  ns_insns (t, 20);
  ns_rcu_read_unlock (t, s);
  ns_insns (t, 4);
  ns_ret (t);
}

/* send_call_function_single_ipi (tail jmp from __smp_call_single_queue): the target's
 * idle task polls, so set_nr_if_polling sets TIF_NEED_RESCHED (a cmpxchg on its flags)
 * and no IPI is sent; the sleeper runs once its CPU leaves idle. */
static void
send_call_function_single_ipi (NsThread *t, NsWaitEntry *e)
{
  ns_tail_call (t, &fn_send_call_function_single_ipi);
  ns_insns (t, 14);                 /* census: 17 less P/E 3 */
  ns_wait_queue_wake_one (NULL, e->wq, ns_thread_now (t));
  ns_ret (t);
}

/* ttwu_queue_wakelist (+ __ttwu_queue_wakelist): TTWU_QUEUE, same LLC, the target's
 * runqueue empty → sched_clock_cpu, then __smp_call_single_queue (llist_add of the
 * task's wake_entry on the target CPU's call_single_queue, which was empty). */
static void
ttwu_queue_wakelist (NsThread *t, NsWaitEntry *e)
{
  ns_call (t, &fn_ttwu_queue_wakelist);
  /* census: 48 instructions (63 less P/E 15) */
  ns_insns (t, 30);
  ns_sched_clock_cpu (t);
  ns_insns (t, 18);
  ns_call (t, &fn___smp_call_single_queue);
  ns_insns (t, 10);                 /* census: 13 less P/E 3 */
  /* llist_add_batch: census 9 less P/E 2 (lock cmpxchg, the list was empty) */
  ns_leaf_call (t, &fn_llist_add_batch, 7);
  send_call_function_single_ipi (t, e);
  ns_ret (t);
  ns_ret (t);
}

/* try_to_wake_up(p, TASK_NORMAL, WF_SYNC) under p->pi_lock: a task asleep in
 * TASK_INTERRUPTIBLE (on_rq 0, on_cpu 0) gets a CPU from select_task_rq (indirect) and is
 * queued on that CPU's wakelist; a task already running fails ttwu_state_match. The
 * kernel's cost replaces sync.h's flat sched.wakeup_cycles (the wake-up is made with no
 * waker), its latency stays sched.wakeup_latency_ns. */
static void
try_to_wake_up (NsThread *t, NsNetStack *s, NsWaitEntry *e)
{
  NsSpinlock *pi_lock = e->task;   /* p->pi_lock: the first word of the task's line */

  ns_call (t, &fn_try_to_wake_up);
  /* census: 78 instructions (95 less P/E 17) when it wakes the task */
  ns_insns (t, 12);
  ns_raw_spin_lock (t, s, pi_lock, NS_LOCK_IRQSAVE);
  ns_load (t, (guint8 *) e->task + 8, 8);   /* __state */
  if (ns_wait_queue_active (e->wq)) {
    ns_insns (t, 40);               /* on_rq, TASK_WAKING, on_cpu, wake_cpu */
    ns_store (t, (guint8 *) e->task + 8, 8);
    select_task_rq_fair (t, s);
    ns_insns (t, 16);               /* task_cpu == cpu, ttwu_queue */
    ttwu_queue_wakelist (t, e);
  } else {
    /* estimate: ~4 instructions (ttwu_state_match fails) */
    ns_insns (t, 4);
  }
  ns_raw_spin_unlock (t, s, pi_lock, NS_LOCK_IRQSAVE);
  ns_insns (t, 10);                 /* ttwu_stat (schedstats off), preempt_enable */
  ns_ret (t);
}

/* default_wake_function: a tail jmp to try_to_wake_up. */
static void
default_wake_function (NsThread *t, NsNetStack *s, NsWaitEntry *e)
{
  ns_call (t, &fn_default_wake_function);
  ns_insns (t, 4);                  /* census: 5 less P/E 1 */
  ns_tail_next (t);
  try_to_wake_up (t, s, e);
  ns_ret (t);
}

/* pollwake → __pollwake: the event mask test, pwq->triggered = 1, default_wake_function. */
static void
pollwake (NsThread *t, NsNetStack *s, NsWaitEntry *e, guint32 key)
{
  ns_icall (t, &fn_pollwake);
  /* census: 22 instructions (27 less P/E 5) when the key matches */
  ns_insns (t, 8);
  if (key & e->key) {
    ns_insns (t, 14);               /* the dummy wait entry, smp_wmb, triggered */
    e->pwq->triggered = TRUE;
    ns_store (t, e->pwq->mem, 4);
    default_wake_function (t, s, e);
  }
  ns_ret (t);
}

/* receiver_wake_function (__skb_wait_for_more_packets) → autoremove_wake_function:
 * wake, and unlink the entry. */
static void
receiver_wake_function (NsThread *t, NsNetStack *s, struct socket *sock, NsWaitEntry *e,
                        guint32 key)
{
  ns_icall (t, &fn_receiver_wake_function);
  /* estimate: ~10 instructions (key and sk tests, autoremove_wake_function) */
  ns_insns (t, 10);
  /* v6.9 net/core/datagram.c: a key without EPOLLIN | EPOLLERR (sock_wfree's EPOLLOUT)
   * is not for a reader: return 0, the entry stays */
  if (key != 0 && !(key & (EPOLLIN | EPOLLERR))) {
    ns_ret (t);
    return;
  }
  default_wake_function (t, s, e);
  g_queue_remove (&sock->waiters, e);
  ns_store (t, e->mem, 16);
  ns_ret (t);
}

/* __wake_up_common: every entry's function through its pointer (one entry here). */
static void
__wake_up_common (NsThread *t, NsNetStack *s, struct socket *sock, guint32 key)
{
  GList *copy;

  ns_call (t, &fn___wake_up_common);
  /* census: 45 instructions (62 less P/E 17) with 1 entry, not exclusive; the split
   * into set-up (27) and a step per entry (18) is an estimate */
  ns_insns (t, 27);
  ns_load (t, sock->wq.head, sizeof sock->wq.head);
  copy = g_list_copy (sock->waiters.head);
  for (GList *l = copy; l; l = l->next) {
    NsWaitEntry *e = l->data;
    ns_insns (t, 18);
    ns_load_dep (t, e->mem, 40);
    if (e->func == NS_WAKE_POLLWAKE)
      pollwake (t, s, e, key);
    else
      receiver_wake_function (t, s, sock, e, key);
  }
  g_list_free (copy);
  ns_ret (t);
}

/* __wake_up_common_lock: __wake_up_common under the head's lock. v6.7 removed its
 * bookmark loop; the count is 6.1's, which has one. */
static void
__wake_up_common_lock (NsThread *t, NsNetStack *s, struct socket *sock, guint32 key)
{
  ns_call (t, &fn___wake_up_common_lock);
  /* census: 36 instructions (53 less P/E 17; 6 of them the stack protector) */
  ns_insns (t, 14);
  ns_raw_spin_lock (t, s, &sock->wq.lock, NS_LOCK_IRQSAVE);
  ns_insns (t, 6);
  __wake_up_common (t, s, sock, key);
  ns_insns (t, 6);
  ns_raw_spin_unlock (t, s, &sock->wq.lock, NS_LOCK_IRQSAVE);
  ns_insns (t, 10);
  ns_ret (t);
}

/* __wake_up_sync_key: WF_SYNC, a tail jmp to __wake_up_common_lock. */
void
__wake_up_sync_key (NsThread *t, NsNetStack *s, struct socket *sock, guint32 key)
{
  ns_call (t, &fn___wake_up_sync_key);
  ns_insns (t, 6);                  /* census: 7 less P/E 1 */
  ns_tail_next (t);
  __wake_up_common_lock (t, s, sock, key);
  ns_ret (t);
}

/* One context switch of the running task (to idle when it sleeps, back when it wakes):
 * __schedule's work and the RSB fill that switch_to does under spectre_v2 mitigations. */
void
ns_schedule_cost (NsThread *t, NsNetStack *s)
{
  const NsMitigations *mit = ns_machine_mitigations (s->machine);

  ns_call (t, &fn___schedule);
  /* estimate: ~450 instructions (pick_next_task through the fair class and idle,
   * runqueue lock, accounting, context_switch with lazy mm to or from idle) */
  ns_insns (t, 450);
  if (mit->spectre_v2 != NS_SPECTRE_V2_OFF)
    ns_charge (t, NS_CAUSE_INSN,
               ns_params_get_double (ns_machine_params (s->machine), "ctxsw.rsb_fill_cycles"));
  ns_ret (t);
}

/* ---- time and user copies of select's fixed part ---- */

/* ktime_get_ts64: the timekeeper under its seqcount, clock->read (read_tsc, indirect). */
static void
ktime_get_ts64 (NsThread *t)
{
  ns_call (t, &fn_ktime_get_ts64);
  /* census: 38 instructions (47 less P/E 9; no nsec carry) */
  ns_insns (t, 14);
  ns_icall (t, &fn_read_tsc);
  ns_rdtsc_ordered (t);             /* rdtsc_ordered: RDTSCP on every profiled CPU */
  ns_insns (t, 3);                  /* census: 6 less P/E 2 and the rdtscp: its NOP, shl, or */
  ns_ret (t);
  ns_insns (t, 24);
  ns_ret (t);
}

/* _copy_from_user of n bytes: access_ok, barrier_nospec, the copy (usercopy.c). */
static void
_copy_from_user (NsThread *t, NsNetStack *s, gsize n)
{
  ns_call (t, &fn__copy_from_user);
  ns_insns (t, 15);                 /* census: 22 less P/E 6, less the call of the copy */
  ns_copy_user (t, s->copy_user_path, n);
  ns_ret (t);
}

/* _copy_to_user of n bytes: access_ok, the copy (usercopy.c). */
static void
_copy_to_user (NsThread *t, NsNetStack *s, gsize n)
{
  ns_call (t, &fn__copy_to_user);
  ns_insns (t, 9);                  /* census: 12 less P/E 2, less the call of the copy */
  ns_copy_user (t, s->copy_user_path, n);
  ns_ret (t);
}

/* memset of an fd set of bytes bytes on the stack (whole longs, 8-byte aligned): v6.4+'s
 * __memset runs its own rep stosb on an FSRS CPU (every AMD CPU with FSRM: Zen 3 and 4)
 * and memset_orig elsewhere; 6.1-6.3 jump to memset_erms (memset.c). */
static void
memset_fd_set (NsThread *t, NsNetStack *s, gsize bytes)
{
  g_return_if_fail (bytes % 8 == 0);
  ns_memset (t, &fn_memset, s->memset_path, NULL, bytes);
}

/* select_estimate_accuracy: timer slack from the remaining time (nice <= 0, < 100 s):
 * 0.1 % of what is left until `until`, at most MAX_SLACK (100 ms), at least the task's
 * timer_slack_ns (50 us, init_task's default); NS_TIME_FOREVER: none. */
static NsTime
select_estimate_accuracy (NsThread *t, NsTime until)
{
  NsTime slack = 0;

  ns_call (t, &fn_select_estimate_accuracy);
  /* census: 52 instructions (63 less P/E 11), the slack by idiv */
  ns_insns (t, 8);
  ktime_get_ts64 (t);
  if (until != NS_TIME_FOREVER) {
    NsTime left = MAX (until - ns_thread_now (t), 0);
    slack = CLAMP (left / 1000, TIMER_SLACK_DEFAULT, SELECT_MAX_SLACK);
  }
  ns_insns (t, 4);
  ns_leaf_call (t, &fn_set_normalized_timespec64, 7);   /* census: 10 less P/E 3 */
  ns_insns (t, 40);
  ns_ret (t);
  return slack;
}

/* put_timespec64: the timespec through a stack copy to the user. census (syscall.md,
 * pselect6): 22 instructions, P/E 5 */
static void
put_timespec64 (NsThread *t, NsNetStack *s)
{
  ns_call (t, &fn_put_timespec64);
  ns_insns (t, 11);
  _copy_to_user (t, s, 16);         /* a struct timespec64 */
  ns_insns (t, 6);
  ns_ret (t);
}

/* poll_select_finish (PT_TIMESPEC, pselect6's): the remaining time back into the user's
 * timespec; nothing for a zero timeout ("no update for zero timeout"). census
 * (syscall.md, pselect6): 65 instructions (50 less P/E 15) and put_timespec64; 43 (28
 * less P/E 15) for a zero timeout. */
static void
poll_select_finish (NsThread *t, NsNetStack *s, gboolean zero)
{
  ns_call (t, &fn_poll_select_finish);
  if (zero) {
    ns_insns (t, 28);
    ns_ret (t);
    return;
  }
  ns_insns (t, 23);
  ktime_get_ts64 (t);
  ns_insns (t, 8);
  ns_leaf_call (t, &fn_set_normalized_timespec64, 7);   /* census: 10 less P/E 3 */
  ns_insns (t, 11);
  put_timespec64 (t, s);
  ns_insns (t, 8);
  ns_ret (t);
}

/* ---- polling ---- */

/* poll_get_entry (inlined in __pollwait): the next of the N_INLINE_POLL_ENTRIES entries
 * inside poll_wqueues; past them the next entry of the current poll_table_page, a fresh
 * page from __get_free_page(GFP_KERNEL) when there is none or it is full
 * (POLL_TABLE_FULL), linked before the others (new_table->entry, ->next). The entry's
 * memory. census (select.md): a new page's path is 8 instructions more, besides the
 * page allocator. */
static guint8 *
poll_get_entry (NsThread *t, NsNetStack *s, NsPollWqueues *pwq)
{
  guint k;
  guint8 *table;

  if (pwq->used < N_INLINE_POLL_ENTRIES)
    return pwq->entries_mem + (gsize) 64 * pwq->used;
  k = (pwq->used - N_INLINE_POLL_ENTRIES) % POLL_TABLE_ENTRIES;
  if (k == 0) {
    table = __get_free_pages (t, s->alloc, GFP_KERNEL, 0);
    ns_insns (t, 8);
    ns_store (t, table, POLL_TABLE_HEADER);
    g_ptr_array_add (pwq->tables, table);
  }
  table = g_ptr_array_index (pwq->tables, pwq->tables->len - 1);
  ns_load (t, table + 8, 8);        /* table->entry++ */
  ns_store (t, table + 8, 8);
  return table + POLL_TABLE_HEADER + (gsize) 64 * k;
}

/* __pollwait (through poll_table->_qproc): a table entry, get_file, and a tail jmp to
 * add_wait_queue. */
static void
__pollwait (NsThread *t, NsNetStack *s, NsPollWqueues *pwq, struct file *file,
            struct socket *sock, guint32 key)
{
  NsWaitEntry *e;

  ns_icall (t, &fn___pollwait);
  /* census (select.md): 24 instructions for an inline entry, 28 from a table page (33 /
   * 37 less P/E 9); a new page's __get_free_page is not counted there (poll_get_entry) */
  ns_insns (t, pwq->used < N_INLINE_POLL_ENTRIES ? 24 : 28);
  if (pwq->used == pwq->max)
    goto out;
  e = &pwq->entries[pwq->used];
  *e = (NsWaitEntry) { NS_WAKE_POLLWAKE, key, pwq->wq, pwq, poll_get_entry (t, s, pwq),
                       ns_netstack_task (s, ns_thread_cpu (t)) };
  pwq->on[pwq->used] = sock;
  pwq->filp[pwq->used] = file;
  pwq->used++;
  ns_atomic (t, &file->f_count);   /* get_file */
  file->f_count++;
  ns_tail_next (t);
  add_wait_queue (t, s, sock, e);
out:
  ns_ret (t);
}

/* The events sk has now for poll (datagram_poll + udp_poll's reader_queue test). */
guint32
ns_udp_poll_mask (struct sock *sk)
{
  guint32 mask = 0;

  if (!skb_queue_empty (&sk->sk_receive_queue) ||
      !skb_queue_empty (&udp_sk (sk)->reader_queue))
    mask |= EPOLLIN | EPOLLRDNORM;
  if ((gint) sk->sk_wmem_alloc < sk->sk_sndbuf / 2)   /* sock_writeable */
    mask |= EPOLLOUT;
  return mask;
}

/* datagram_poll: sock_poll_wait (poll_wait → _qproc when registering, then smp_mb), the
 * error, shutdown and queue tests, sock_writeable. */
static void
datagram_poll (NsThread *t, NsNetStack *s, NsPollWqueues *pwq, struct file *file,
               struct sock *sk, guint32 key, gboolean qproc)
{
  ns_call (t, &fn_datagram_poll);
  /* census (select.md): 43 instructions registering (48 less P/E 5), less 6.1.176's
   * backported smp_mb in poll_wait, which v6.9-rc1 lacks: 42; 38 otherwise. The locked
   * stack barrier of sock_poll_wait touches no modelled line and is not priced as an
   * atomic. */
  ns_insns (t, 5);
  if (qproc) {
    __pollwait (t, s, pwq, file, sk->sk_socket, key);
    ns_insns (t, 4);
  }
  NS_LOAD_FIELD (t, sk, sk_err);
  NS_LOAD_FIELD (t, sk, sk_error_queue.next);
  NS_LOAD_FIELD (t, sk, sk_shutdown);
  NS_LOAD_FIELD (t, sk, sk_receive_queue.next);
  NS_LOAD_FIELD (t, sk, sk_wmem_alloc);
  NS_LOAD_FIELD (t, sk, sk_sndbuf);
  ns_insns (t, 33);
  ns_ret (t);
}

/* udp_poll: datagram_poll, the reader_queue, O_NONBLOCK (so no first_packet_length: a
 * blocking socket's readable case, not on seed 000's path, is not modelled), and
 * sk_is_readable. */
static guint32
udp_poll (NsThread *t, NsNetStack *s, NsPollWqueues *pwq, struct file *file,
          struct sock *sk, guint32 key, gboolean qproc)
{
  guint32 mask;

  ns_icall (t, &fn_udp_poll);
  /* census (select.md): 17 instructions (28 less P/E 11), 19 when readable */
  ns_insns (t, 4);
  datagram_poll (t, s, pwq, file, sk, key, qproc);
  ns_load (t, &udp_sk (sk)->reader_queue.next, 8);
  mask = ns_udp_poll_mask (sk);
  if (mask & EPOLLRDNORM) {
    NS_LOAD_FIELD (t, file, f_flags);
    ns_insns (t, 2);
  }
  /* sk_is_readable: sk->sk_prot->sock_is_readable is NULL for a plain UDP socket */
  NS_LOAD_FIELD (t, sk, sk_prot);
  ns_insns (t, 13);
  ns_ret (t);
  return mask;
}

/* tcp_stream_memory_free(sk, wake 1): notsent_lowat unset, so the netns sysctl's (UINT_MAX
 * by default) against the unsent bytes: TRUE for an idle connection. */
static void
tcp_stream_memory_free (NsThread *t)
{
  ns_call (t, &fn_tcp_stream_memory_free);
  ns_insns (t, 12);                 /* census (residue.md): 15 less P/E 3 */
  ns_ret (t);
}

/* tcp_poll of iperf3's TCP sockets, never ready here: sock_poll_wait (poll_wait → _qproc
 * when registering, then smp_mb), then the state. The listener (SS_UNCONNECTED) returns
 * its empty accept queue's mask; the idle control connection (SS_CONNECTED) goes through
 * the shutdown, urgent-data, receive-queue and sk_is_readable tests (tcp_prot's
 * sock_is_readable is NULL) and sk_stream_is_writeable, which calls
 * tcp_stream_memory_free (INDIRECT_CALL_INET_1: compare, then a direct call).
 * census (residue.md): 29 / 94 less P/E 13 in a later pass, +5 registering with v6.9-rc1's
 * one barrier (6.1.176 has poll_wait's backported smp_mb too, as datagram_poll). */
static void
tcp_poll (NsThread *t, NsNetStack *s, NsPollWqueues *pwq, struct file *file,
          struct socket *sock, guint32 key, gboolean qproc)
{
  ns_icall (t, &fn_tcp_poll);
  ns_insns (t, 3);                  /* census: sk, the wait pointer test */
  ns_load (t, &sock->wq, 16);
  if (qproc) {
    ns_insns (t, 6);                /* census: _qproc, the address, the indirect call */
    __pollwait (t, s, pwq, file, sock, key);
    ns_insns (t, 1);                /* census: sock_poll_wait's smp_mb */
  } else {
    ns_insns (t, 3);                /* census: _qproc NULL */
  }
  NS_LOAD_FIELD (t, sock, state);
  ns_insns (t, 5);                  /* census: sk_state, the TCP_LISTEN test */
  if (sock->state != SS_CONNECTED) {
    ns_insns (t, 5);                /* census: the accept queue's head, the mask */
    ns_ret (t);
    return;
  }
  /* census: 54 to the call (the shutdown mask, SYN_SENT / SYN_RECV, rcvlowat and urg_data,
   * rcv_nxt - copied_seq == 0, no sock_is_readable, no SEND_SHUTDOWN, sk_stream_wspace >=
   * min_wspace, wmem_queued < sndbuf, the stream_memory_free compare) */
  ns_insns (t, 54);
  tcp_stream_memory_free (t);
  ns_insns (t, 16);                 /* census: EPOLLOUT | WRNORM, sk_err, the error queue */
  ns_ret (t);
}

/* sock_poll → sock->ops->poll (udp_poll). A file without a UDP sock is one of iperf3's
 * TCP sockets: tcp_poll, never ready here. */
static guint32
sock_poll (NsThread *t, NsNetStack *s, NsPollWqueues *pwq, struct file *file, guint32 key,
           gboolean qproc)
{
  struct socket *sock = ns_file_socket (file);
  struct sock *sk = sock->sk;
  guint32 mask = 0;

  ns_icall (t, &fn_sock_poll);
  /* census (select.md): 20 instructions (31 less P/E 11: ops, the requested events,
   * sk_can_busy_loop with sk_ll_usec 0) */
  ns_insns (t, 16);
  NS_LOAD_FIELD (t, sock, ops);
  if (sk == NULL) {
    tcp_poll (t, s, pwq, file, sock, key, qproc);
  } else {
    NS_LOAD_FIELD (t, sk, sk_ll_usec);
    mask = udp_poll (t, s, pwq, file, sk, key, qproc);
  }
  ns_insns (t, 4);
  ns_ret (t);
  return mask;
}

/* __fdget: a tail jmp to __fget_light (FMODE_PATH masked). */
static void
__fdget (NsThread *t, struct file *file)
{
  ns_call (t, &fn___fdget);
  ns_insns (t, 2);                  /* census: 3 less P/E 1 */
  ns_tail_next (t);
  ns___fget_light (t, file);
  ns_ret (t);
}

/* select_poll_one, inline in do_select: fdget, vfs_poll → f_op->poll, fdput (nothing: no
 * reference was taken). census (select.md): do_select's per-fd slice, 4 instructions to
 * the __fdget call and 35 around the poll call (building _key, the indirect call, the
 * mask test). */
static guint32
select_poll_one (NsThread *t, NsNetStack *s, NsPollWqueues *pwq, struct file *file,
                 guint32 key, gboolean qproc)
{
  guint32 mask;

  ns_insns (t, 4);
  __fdget (t, file);
  ns_insns (t, 29);
  NS_LOAD_FIELD (t, file, f_op);
  mask = sock_poll (t, s, pwq, file, key, qproc);
  ns_insns (t, 6);
  return mask;
}

/* free_poll_entry (inlined in poll_freewait): remove_wait_queue, then fput. */
static void
free_poll_entry (NsThread *t, NsNetStack *s, NsPollWqueues *pwq, guint i)
{
  remove_wait_queue (t, s, pwq->on[i], &pwq->entries[i]);
  /* the count stays > 0: the ftrace site, lock decq and the return, before the frame of
   * the last reference's path (doc/census/frameless-6.1.176.txt) */
  ns_call_shrink_wrapped (t, &fn_fput, 1);
  ns_insns (t, 2);                  /* census: 5 less P/E 3 (the count stays > 0) */
  ns_atomic (t, &pwq->filp[i]->f_count);
  pwq->filp[i]->f_count--;
  ns_ret (t);
}

/* poll_freewait: free_poll_entry of every inline entry in order, then of each table page
 * from the newest (pwq->table), its entries last to first, each page then given back
 * (free_page). */
static void
poll_freewait (NsThread *t, NsNetStack *s, NsPollWqueues *pwq)
{
  ns_call (t, &fn_poll_freewait);
  /* census (select.md): 9 instructions of its own (22 less P/E 13), then per entry 11
   * (inline) or 8 (table page); with a table page 30 for the fixed part: 8 per page
   * (p->entry, the page-free step with its call of free_pages) */
  ns_insns (t, 5);
  for (guint i = 0; i < MIN (pwq->used, N_INLINE_POLL_ENTRIES); i++) {
    ns_insns (t, 11);
    free_poll_entry (t, s, pwq, i);
  }
  for (guint p = pwq->tables->len; p-- > 0;) {
    guint8 *table = g_ptr_array_index (pwq->tables, p);
    guint first = N_INLINE_POLL_ENTRIES + p * POLL_TABLE_ENTRIES;
    ns_load (t, table, POLL_TABLE_HEADER);   /* p->entry, then p->next */
    for (guint i = MIN (pwq->used, first + POLL_TABLE_ENTRIES); i-- > first;) {
      ns_insns (t, 8);
      free_poll_entry (t, s, pwq, i);
    }
    ns_insns (t, 8);
    free_pages (t, s->alloc, table, 0);
  }
  g_ptr_array_set_size (pwq->tables, 0);
  ns_insns (t, 4);
  pwq->used = 0;
  ns_ret (t);
}

/* TRUE if a file of word w (fds w * BITS_PER_LONG … of the n) is in a set. */
static gboolean
word_has_fds (struct file *const *files, guint n, guint w)
{
  for (guint i = w * BITS_PER_LONG; i < n && i < (w + 1) * BITS_PER_LONG; i++)
    if (files[i] != NULL)
      return TRUE;
  return FALSE;
}

/* One pass of do_select's loop over the sets, files indexed by descriptor (NULL: in no
 * set, a clear bit): a word with no fd is skipped; per other word the bitmap loads, each
 * of its bits (a clear one only tested), the result stores and a cond_resched. Returns the
 * number of result bits set (a file ready in both sets counts twice); clears *qproc once
 * one is ready. */
static gint
do_select_pass (NsThread *t, NsNetStack *s, NsPollWqueues *pwq, struct file *const *files,
                const guint32 *events, guint n, guint32 *revents, gboolean *qproc)
{
  gint retval = 0;

  memset (revents, 0, n * sizeof *revents);
  for (guint w = 0; w * BITS_PER_LONG < n; w++) {
    gboolean stored = FALSE;
    if (!word_has_fds (files, n, w)) {
      /* estimate: 6 instructions (the three set words' loads, or, the all_bits test and
       * the skip: "if (!all_bits) { i += BITS_PER_LONG; continue; }") */
      ns_insns (t, 6);
      continue;
    }
    /* census (select.md): 37 instructions per non-empty word (+2 when a result bit is
     * stored), then __cond_resched */
    ns_insns (t, 23);
    for (guint i = w * BITS_PER_LONG; i < n && i < (w + 1) * BITS_PER_LONG; i++) {
      guint32 mask;
      gint bits = 0;
      if (files[i] == NULL) {
        /* census: a clear bit inside a non-empty word, 9 instructions (the bit test, the
         * loop step) */
        ns_insns (t, 9);
        continue;
      }
      mask = select_poll_one (t, s, pwq, files[i], events[i], *qproc);
      /* a bit in res_in for POLLIN_SET, one in res_out for POLLOUT_SET: each counts */
      if ((mask & POLLIN_SET) && (events[i] & EPOLLIN)) {
        revents[i] |= EPOLLIN;
        bits++;
      }
      if ((mask & POLLOUT_SET) && (events[i] & EPOLLOUT)) {
        revents[i] |= EPOLLOUT;
        bits++;
      }
      /* census: the rest of the fd's slice, 20 instructions (not ready), 17 (not ready,
       * after a ready one), 23 (ready: the result bit, retval, _qproc = NULL); a second
       * result bit (an fd ready in both sets, not on seed 000's path): +4, estimate */
      if (bits) {
        ns_insns (t, 23 + 4 * (bits - 1));
        retval += bits;
        *qproc = FALSE;
        stored = TRUE;
      } else {
        ns_insns (t, retval ? 17 : 20);
      }
    }
    ns_insns (t, stored ? 16 : 14);
    ns_might_resched (t, s);
  }
  return retval;
}

/* poll_schedule_timeout (inline in do_select): set_current_state, then unless already
 * triggered sleep (schedule_hrtimeout_range) until a pollwake or until (NS_TIME_FOREVER:
 * none); smp_store_mb(triggered, 0). Returns FALSE when the deadline ended the sleep
 * (schedule_hrtimeout_range's 0), TRUE otherwise (-EINTR). Nothing may be charged between
 * the test and the sleep (a wake-up would be lost). */
static gboolean
poll_schedule_timeout (NsThread *t, NsNetStack *s, NsPollWqueues *pwq, NsTime until)
{
  gboolean woken = TRUE;

  ns_load (t, pwq->mem, 4);
  if (!pwq->triggered) {
    NsTime before = ns_thread_now (t);
    pwq->asleep_since = before;
    if (until == NS_TIME_FOREVER)
      ns_wait_queue_wait (t, pwq->wq);
    else
      woken = ns_wait_queue_wait_until (t, pwq->wq, until);
    pwq->asleep_since = NS_TIME_FOREVER;
    pwq->slept += ns_thread_now (t) - before;
    if (before < until) {            /* an expired deadline: the hrtimer fires at once */
      ns_schedule_cost (t, s);       /* switched out to idle */
      ns_schedule_cost (t, s);       /* and back in */
    }
  }
  pwq->triggered = FALSE;
  ns_store (t, pwq->mem, 4);
  return woken;
}

/* do_select: max_select_fd and poll_initwait (inline), the timeout's slack, passes until
 * something is ready or the timeout has passed (sleeping in between), poll_freewait. A zero timeout (zero: the
 * caller's deadline had passed when it made its timeval) registers nothing and estimates
 * no slack: do_select's end_time of {0, 0} sets _qproc = NULL and timed_out at once. */
static gint
do_select (NsThread *t, NsNetStack *s, NsPollWqueues *pwq, struct file *const *files,
           const guint32 *events, guint n, guint32 *revents, NsTime until, gboolean zero)
{
  gboolean qproc = !zero, timed_out = zero;
  NsTime slack = 0;
  gint retval;

  ns_call (t, &fn_do_select);
  /* census (syscall.md): 149 instructions of its own (168 less P/E 19): the poll_wqueues
   * zeroing (rep stos), the busy-poll sysctl, max_select_fd under RCU, poll_initwait, the
   * loop head; _qproc = NULL and the return */
  ns_insns (t, 19);
  ns_rep_string (t, 78 * 8);        /* the poll_wqueues, 624 bytes */
  ns_rcu_read_lock (t, s);
  ns_insns (t, 30);
  ns_rcu_read_unlock (t, s);
  ns_insns (t, 20);
  pwq->triggered = FALSE;
  ns_store (t, pwq->mem, 16);
  /* (the kernel skips the estimate for a NULL timeout; NS_TIME_FOREVER stands in for
   * iperf3's timer timeouts, which never expire in a window, so it is charged) */
  if (!zero)
    slack = select_estimate_accuracy (t, until);
  ns_insns (t, 59);
  /* v6.9 fs/select.c do_select: pass; break if retval || timed_out; else
   * poll_schedule_timeout until a pollwake or the deadline, and at the deadline
   * timed_out = 1, so one more full pass reports what is ready at expiry */
  for (;;) {
    retval = do_select_pass (t, s, pwq, files, events, n, revents, &qproc);
    qproc = FALSE;
    if (retval || timed_out)
      break;
    /* schedule_hrtimeout_range(expire, slack): an idle CPU's timer fires at the range's
     * end */
    if (!poll_schedule_timeout (t, s, pwq, until == NS_TIME_FOREVER ? until : until + slack))
      timed_out = TRUE;
  }
  ns_insns (t, 20);
  poll_freewait (t, s, pwq);
  ns_ret (t);
  return retval;
}

/* core_sys_select with a read and a write set of n fds, exceptfds NULL: the sets copied
 * in (each checked as a stack object), zeroed results, do_select, the results copied
 * out. */
static gint
core_sys_select (NsThread *t, NsNetStack *s, NsPollWqueues *pwq, struct file *const *files,
                 const guint32 *events, guint n, guint32 *revents, NsTime until,
                 gboolean zero)
{
  gsize bytes = (n + BITS_PER_LONG - 1) / BITS_PER_LONG * sizeof (guint64);
  gint ret;

  ns_call (t, &fn_core_sys_select);
  /* census (syscall.md): 133 instructions of its own (150 less P/E 17: the stack fds
   * buffer's zeroing, max_fds under RCU, get_fd_set ×2, zero_fd_set ×3, set_fd_set ×2,
   * the calls), and each copy out's copy_user_generic (usercopy.c: inline in v6.4+);
   * the zeroing is two rep stos, of 6 and of 32 quadwords (the stack buffer) */
  ns_insns (t, 34);
  ns_rep_string (t, 6 * 8);
  ns_rep_string (t, 32 * 8);
  ns_rcu_read_lock (t, s);
  ns_insns (t, 4);
  ns_rcu_read_unlock (t, s);
  ns_insns (t, 20);
  for (guint i = 0; i < 2; i++) {  /* get_fd_set (in), get_fd_set (out) */
    ns_insns (t, 4);
    ns_check_stack_object_size (t, s, bytes);
    _copy_from_user (t, s, bytes);
  }
  ns_insns (t, 4);                  /* get_fd_set (ex): NULL → memset */
  memset_fd_set (t, s, bytes);
  for (guint i = 0; i < 3; i++) {  /* zero_fd_set (res_in, res_out, res_ex) */
    ns_insns (t, 4);
    memset_fd_set (t, s, bytes);
  }
  ns_insns (t, 12);
  ret = do_select (t, s, pwq, files, events, n, revents, until, zero);
  ns_insns (t, 10);
  for (guint i = 0; i < 2; i++) {  /* set_fd_set (in), set_fd_set (out) */
    ns_insns (t, 3);
    ns_check_stack_object_size (t, s, bytes);
    ns_copy_user (t, s->copy_user_path, bytes);
  }
  ns_insns (t, 19);
  ns_ret (t);
  return ret;
}

/* get_timespec64: the user's timespec through a stack copy (tv_nsec's upper half kept
 * outside compat syscalls). census (syscall.md, pselect6): 31 instructions, P/E 7 */
static void
get_timespec64 (NsThread *t, NsNetStack *s)
{
  ns_call (t, &fn_get_timespec64);
  ns_insns (t, 9);
  _copy_from_user (t, s, 16);       /* a struct __kernel_timespec */
  ns_insns (t, 15);
  ns_ret (t);
}

/* do_pselect (a constprop clone in 6.1) with a timespec and no signal mask: the timespec
 * in, poll_select_set_timeout inline (timespec64_valid, now + timeout unless zero),
 * set_user_sigmask (nothing to set), core_sys_select, poll_select_finish. census
 * (syscall.md, pselect6): 82 instructions (64 less P/E 18), 72 (54) with a zero timeout */
static gint
do_pselect (NsThread *t, NsNetStack *s, NsPollWqueues *pwq, struct file *const *files,
            const guint32 *events, guint n, guint32 *revents, NsTime until, gboolean zero)
{
  gint ret;

  ns_call (t, &fn_do_pselect);
  ns_insns (t, 18);
  get_timespec64 (t, s);
  ns_insns (t, 12);
  if (!zero) {
    ns_insns (t, 4);
    ktime_get_ts64 (t);
    ns_insns (t, 5);
    ns_leaf_call (t, &fn_timespec64_add_safe, 11);   /* census: 17 less P/E 6 */
    ns_insns (t, 3);
  } else {
    ns_insns (t, 2);
  }
  ns_insns (t, 5);
  ns_leaf_call (t, &fn_set_user_sigmask, 10);         /* census: 17 less P/E 7 (NULL) */
  ns_insns (t, 8);
  ret = core_sys_select (t, s, pwq, files, events, n, revents, until, zero);
  ns_insns (t, 5);
  poll_select_finish (t, s, zero);
  ns_insns (t, 4);
  ns_ret (t);
  return ret;
}

/* select(2) over sockets; see select.h. glibc 2.36 (Debian 12)
 * implements select() as the pselect6 system call with a NULL signal mask, converting the
 * timeval to a timespec and back (iperf3.md), so the kernel runs __x64_sys_pselect6 and
 * do_pselect, not kern_select. The user passes a timeout (iperf3's tmr_timeout: it has
 * timers), so do_pselect sets an end time and poll_select_finish writes back the remaining
 * time; a deadline already passed when the user made its timeout is a zero timeout, which
 * poll_select_set_timeout keeps as end_time {0, 0} without reading the clock. */
gint
ns_sys_select (NsThread *t, NsNetStack *s, NsPollWqueues *pwq, struct file *const *files,
               const guint32 *events, guint n, guint32 *revents, NsTime until)
{
  gboolean zero;
  gint ret;

  g_return_val_if_fail (t != NULL && s != NULL && pwq != NULL, -1);
  zero = until != NS_TIME_FOREVER && until <= ns_thread_now (t);
  /* census (syscall.md, pselect6): __x64_sys_pselect6 16 instructions with a NULL
   * sigset argpack, P/E 3 */
  /* x64_sys_call's path to pselect6's (nr 270) tail jmp: 24 in the 6.1.176 binary
   * (census, syscall.md: the 25 listed there are select's, nr 23) */
  ns_syscall_begin_stub (t, s, &fn___x64_sys_pselect6, 13, 24);
  ret = do_pselect (t, s, pwq, files, events, n, revents, until, zero);
  ns_syscall_end (t, s);
  return ret;
}
