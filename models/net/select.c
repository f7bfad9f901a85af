/* select.c — select(2) on sockets and the wait queues it sleeps on, v6.9: fs/select.c
 * (core_sys_select, do_select, __pollwait, pollwake, poll_freewait, poll_schedule_timeout),
 * kernel/sched/wait.c (add_wait_queue, remove_wait_queue, __wake_up_sync_key,
 * __wake_up_common), net/socket.c (sock_poll), net/ipv4/udp.c (udp_poll),
 * net/core/datagram.c (datagram_poll).
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
 * what the coherence model charges. Text sizes and instruction counts are estimates with
 * their reasons. */
#include "config.h"
#include "select.h"
#include "udp_rx.h"

static NS_FUNC (fn___x64_sys_select, "__x64_sys_select", 64, NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_kern_select, "kern_select", 260, NS_FN_STATIC, 2);
static NS_FUNC (fn_core_sys_select, "core_sys_select", 2200, NS_FN_EXTERN, 3);
static NS_FUNC (fn___fdget, "__fdget", 120, NS_FN_EXTERN, 100);
static NS_FUNC (fn_sock_poll, "sock_poll", 180, NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_udp_poll, "udp_poll", 200, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_tcp_poll, "tcp_poll", 700, NS_FN_EXTERN | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_datagram_poll, "datagram_poll", 300, NS_FN_EXTERN, 10);
static NS_FUNC (fn___pollwait, "__pollwait", 240, NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_add_wait_queue, "add_wait_queue", 110, NS_FN_EXTERN, 50);
static NS_FUNC (fn_remove_wait_queue, "remove_wait_queue", 100, NS_FN_EXTERN, 50);
static NS_FUNC (fn_fput, "fput", 160, NS_FN_EXTERN, 200);
static NS_FUNC (fn___wake_up_sync_key, "__wake_up_sync_key", 48, NS_FN_EXTERN, 20);
static NS_FUNC (fn___wake_up_common_lock, "__wake_up_common_lock", 160, NS_FN_STATIC, 4);
static NS_FUNC (fn___wake_up_common, "__wake_up_common", 240, NS_FN_STATIC, 4);
static NS_FUNC (fn_pollwake, "pollwake", 120, NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_receiver_wake_function, "receiver_wake_function", 80,
                NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_default_wake_function, "default_wake_function", 60, NS_FN_EXTERN, 10);
static NS_FUNC (fn___schedule, "__schedule", 4000, NS_FN_STATIC, 3);

struct _NsPollWqueues {
  NsNetStack    *s;
  NsWaitQueue   *wq;            /* where the polling task sleeps */
  guint32       *mem;           /* struct poll_wqueues' first line: pt, task, triggered */
  guint8        *entries_mem;   /* poll_table_entry array, 64 bytes each */
  NsWaitEntry   *entries;
  struct socket **on;           /* the socket whose queue entry i sits on */
  struct file  **filp;
  guint          max, used;
  gboolean       triggered;
  NsTime         slept;         /* model: total time asleep in select */
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
  pwq->entries_mem = ns_arena_alloc (s->arena, (gsize) 64 * max_entries, 64);
  pwq->entries = g_new0 (NsWaitEntry, max_entries);
  pwq->on = g_new0 (struct socket *, max_entries);
  pwq->filp = g_new0 (struct file *, max_entries);
  pwq->max = max_entries;
  return pwq;
}

/* Total simulated time the owner slept in select. */
NsTime
ns_poll_wqueues_slept (const NsPollWqueues *pwq)
{
  g_return_val_if_fail (pwq != NULL, 0);
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
  g_free (pwq->entries);
  g_free (pwq->on);
  g_free (pwq->filp);
  g_free (pwq);
}

/* ---- wait queues ---- */

/* add_wait_queue: under the head's lock (irqsave), link the entry. */
void
add_wait_queue (NsThread *t, NsNetStack *s, struct socket *sock, NsWaitEntry *e)
{
  ns_call (t, &fn_add_wait_queue);
  /* estimate: ~8 instructions (flags, list_add) */
  ns_insns (t, 8);
  ns_raw_spin_lock (t, s, &sock->wq.lock, NS_LOCK_IRQSAVE);
  ns_store (t, sock->wq.head, sizeof sock->wq.head);
  ns_store (t, e->mem, 40);
  g_queue_push_head (&sock->waiters, e);
  ns_raw_spin_unlock (t, s, &sock->wq.lock, NS_LOCK_IRQSAVE);
  ns_ret (t);
}

/* remove_wait_queue: under the head's lock, unlink the entry. */
void
remove_wait_queue (NsThread *t, NsNetStack *s, struct socket *sock, NsWaitEntry *e)
{
  ns_call (t, &fn_remove_wait_queue);
  ns_insns (t, 8);
  ns_raw_spin_lock (t, s, &sock->wq.lock, NS_LOCK_IRQSAVE);
  ns_store (t, sock->wq.head, sizeof sock->wq.head);
  ns_load (t, e->mem, 40);
  g_queue_remove (&sock->waiters, e);
  ns_raw_spin_unlock (t, s, &sock->wq.lock, NS_LOCK_IRQSAVE);
  ns_ret (t);
}

/* default_wake_function → try_to_wake_up. A sleeping task is woken (sync.h prices the
 * wake-up); a task already awake costs the pi_lock round trip and the state test. */
static void
default_wake_function (NsThread *t, NsWaitEntry *e)
{
  ns_call (t, &fn_default_wake_function);
  ns_insns (t, 5);
  if (ns_wait_queue_wake_one (t, e->wq, 0) == 0) {
    /* estimate: ~35 instructions of try_to_wake_up on a TASK_RUNNING task
     * (raw_spin_lock_irqsave(&p->pi_lock), smp_mb__after_spinlock, ttwu_state_match) */
    ns_insns (t, 35);
    ns_atomic (t, e->task);
  }
  ns_ret (t);
}

/* pollwake → __pollwake: the event mask test, pwq->triggered = 1, default_wake_function. */
static void
pollwake (NsThread *t, NsWaitEntry *e, guint32 key)
{
  ns_icall (t, &fn_pollwake);
  /* estimate: ~12 instructions (key test, dummy wait entry, smp_wmb) */
  ns_insns (t, 12);
  if (key & e->key) {
    e->pwq->triggered = TRUE;
    ns_store (t, e->pwq->mem, 4);
    default_wake_function (t, e);
  }
  ns_ret (t);
}

/* receiver_wake_function (__skb_wait_for_more_packets) → autoremove_wake_function:
 * wake, and unlink the entry. */
static void
receiver_wake_function (NsThread *t, struct socket *sock, NsWaitEntry *e)
{
  ns_icall (t, &fn_receiver_wake_function);
  ns_insns (t, 10);
  default_wake_function (t, e);
  g_queue_remove (&sock->waiters, e);
  ns_store (t, e->mem, 16);
  ns_ret (t);
}

/* __wake_up_sync_key → __wake_up_common_lock (head lock) → __wake_up_common: every
 * entry's function through its pointer. */
void
__wake_up_sync_key (NsThread *t, NsNetStack *s, struct socket *sock, guint32 key)
{
  GList *copy;

  ns_call (t, &fn___wake_up_sync_key);
  ns_insns (t, 5);
  ns_call (t, &fn___wake_up_common_lock);
  /* estimate: ~10 instructions (bookmark set-up) */
  ns_insns (t, 10);
  ns_raw_spin_lock (t, s, &sock->wq.lock, NS_LOCK_IRQSAVE);
  ns_call (t, &fn___wake_up_common);
  /* estimate: ~10 instructions + ~8 per entry (list walk, flags) */
  ns_insns (t, 10);
  ns_load (t, sock->wq.head, sizeof sock->wq.head);
  copy = g_list_copy (sock->waiters.head);
  for (GList *l = copy; l; l = l->next) {
    NsWaitEntry *e = l->data;
    ns_insns (t, 8);
    ns_load_dep (t, e->mem, 40);
    if (e->func == NS_WAKE_POLLWAKE)
      pollwake (t, e, key);
    else
      receiver_wake_function (t, sock, e);
  }
  g_list_free (copy);
  ns_ret (t);
  ns_raw_spin_unlock (t, s, &sock->wq.lock, NS_LOCK_IRQSAVE);
  ns_ret (t);
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

/* ---- polling ---- */

/* __pollwait (through poll_table->_qproc): a table entry, get_file, add_wait_queue. */
static void
__pollwait (NsThread *t, NsNetStack *s, NsPollWqueues *pwq, struct file *file,
            struct socket *sock, guint32 key)
{
  NsWaitEntry *e;

  ns_icall (t, &fn___pollwait);
  /* estimate: ~20 instructions (poll_get_entry from the inline array, entry init) */
  ns_insns (t, 20);
  if (pwq->used == pwq->max)
    goto out;
  e = &pwq->entries[pwq->used];
  *e = (NsWaitEntry) { NS_WAKE_POLLWAKE, key, pwq->wq, pwq,
                       pwq->entries_mem + (gsize) 64 * pwq->used,
                       ns_netstack_task (s, ns_thread_cpu (t)) };
  pwq->on[pwq->used] = sock;
  pwq->filp[pwq->used] = file;
  pwq->used++;
  ns_atomic (t, &file->f_count);   /* get_file */
  file->f_count++;
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

/* sock_poll → udp_poll → datagram_poll (registering when qproc), sk_is_readable. A file
 * without a UDP sock is the TCP control connection: tcp_poll, never ready here. */
static guint32
sock_poll (NsThread *t, NsNetStack *s, NsPollWqueues *pwq, struct file *file, guint32 key,
           gboolean qproc)
{
  struct socket *sock = ns_file_socket (file);
  struct sock *sk = sock->sk;
  guint32 mask = 0;

  ns_icall (t, &fn_sock_poll);
  /* estimate: ~12 instructions (ops, requested events, sk_can_busy_loop) */
  ns_insns (t, 12);
  NS_LOAD_FIELD (t, sock, ops);
  if (sk == NULL) {
    ns_icall (t, &fn_tcp_poll);
    /* estimate: ~60 instructions (sock_poll_wait, state, shutdown, receive and send
     * space tests of an idle established connection) */
    ns_insns (t, 60);
    ns_load (t, &sock->wq, 16);
    if (qproc)
      __pollwait (t, s, pwq, file, sock, key);
    ns_ret (t);
    goto out;
  }
  NS_LOAD_FIELD (t, sk, sk_ll_usec);
  ns_icall (t, &fn_udp_poll);
  ns_insns (t, 10);
  ns_call (t, &fn_datagram_poll);
  /* estimate: ~30 instructions (poll_does_not_wait, smp_mb after poll_wait, error and
   * shutdown tests, queue test, connection_based, sock_writeable) */
  ns_insns (t, 30);
  if (qproc)
    __pollwait (t, s, pwq, file, sock, key);
  NS_LOAD_FIELD (t, sk, sk_err);
  NS_LOAD_FIELD (t, sk, sk_error_queue.next);
  NS_LOAD_FIELD (t, sk, sk_shutdown);
  NS_LOAD_FIELD (t, sk, sk_receive_queue.next);
  NS_LOAD_FIELD (t, sk, sk_wmem_alloc);
  NS_LOAD_FIELD (t, sk, sk_sndbuf);
  ns_ret (t);
  ns_load (t, &udp_sk (sk)->reader_queue.next, 8);
  NS_LOAD_FIELD (t, file, f_flags);
  /* sk_is_readable: sk->sk_prot->sock_is_readable is NULL for a plain UDP socket;
   * census: 4 instructions (the load, the test, the branch) */
  NS_LOAD_FIELD (t, sk, sk_prot);
  ns_insns (t, 4);
  mask = ns_udp_poll_mask (sk);
  ns_ret (t);
out:
  ns_ret (t);
  return mask;
}

/* select_poll_one: fdget, vfs_poll, fdput. */
static guint32
select_poll_one (NsThread *t, NsNetStack *s, NsPollWqueues *pwq, struct file *file,
                 guint32 key, gboolean qproc)
{
  guint32 mask;

  ns_call (t, &fn___fdget);
  /* estimate: ~15 instructions (__fget_light of a single-threaded task) */
  ns_insns (t, 15);
  NS_LOAD_FIELD (t, file, f_mode);
  ns_ret (t);
  /* vfs_poll: f_op->poll present */
  ns_insns (t, 4);
  NS_LOAD_FIELD (t, file, f_op);
  mask = sock_poll (t, s, pwq, file, key, qproc);
  return mask;
}

/* poll_freewait: remove every registered entry and drop its file reference. */
static void
poll_freewait (NsThread *t, NsNetStack *s, NsPollWqueues *pwq)
{
  for (guint i = 0; i < pwq->used; i++) {
    ns_insns (t, 6);
    remove_wait_queue (t, s, pwq->on[i], &pwq->entries[i]);
    ns_call (t, &fn_fput);
    /* estimate: ~10 instructions (atomic_long_dec_and_test, not last) */
    ns_insns (t, 10);
    ns_atomic (t, &pwq->filp[i]->f_count);
    pwq->filp[i]->f_count--;
    ns_ret (t);
  }
  pwq->used = 0;
}

/* do_select (inlined into core_sys_select: static, one call site). */
static gint
do_select (NsThread *t, NsNetStack *s, NsPollWqueues *pwq, struct file *const *files,
           const guint32 *events, guint n, guint32 *revents, NsTime until)
{
  gboolean qproc = TRUE;
  gint retval;

  /* rcu: max_select_fd over the open-fd bitmap; poll_initwait. estimate: ~40 instructions */
  ns_rcu_read_lock (t, s);
  ns_insns (t, 40);
  ns_rcu_read_unlock (t, s);
  pwq->triggered = FALSE;
  ns_store (t, pwq->mem, 16);
  for (;;) {
    retval = 0;
    for (guint i = 0; i < n; i++) {
      guint32 mask;
      /* estimate: ~10 instructions per file (bit tests, result bits) */
      ns_insns (t, 10);
      mask = select_poll_one (t, s, pwq, files[i], events[i], qproc);
      revents[i] = mask & events[i];
      if (revents[i]) {
        retval++;
        qproc = FALSE;
      }
    }
    qproc = FALSE;
    if (retval)
      break;
    if (until != NS_TIME_FOREVER) {
      if (ns_thread_now (t) < until) {
        pwq->slept += until - ns_thread_now (t);
        ns_thread_sleep_until (t, until);
        ns_schedule_cost (t, s);
        ns_schedule_cost (t, s);
      }
      break;
    }
    /* poll_schedule_timeout: set_current_state, then sleep unless already triggered.
     * Nothing may be charged between the test and the sleep (a wake-up would be lost). */
    ns_load (t, pwq->mem, 4);
    if (!pwq->triggered) {
      NsTime before = ns_thread_now (t);
      ns_wait_queue_wait (t, pwq->wq);
      pwq->slept += ns_thread_now (t) - before;
      ns_schedule_cost (t, s);       /* switched out to idle */
      ns_schedule_cost (t, s);       /* and back in */
    }
    pwq->triggered = FALSE;
    ns_store (t, pwq->mem, 4);
  }
  poll_freewait (t, s, pwq);
  return retval;
}

/* select(2) over sockets; see select.h. */
gint
ns_sys_select (NsThread *t, NsNetStack *s, NsPollWqueues *pwq, struct file *const *files,
               const guint32 *events, guint n, guint32 *revents, NsTime until)
{
  gint ret;

  g_return_val_if_fail (t != NULL && s != NULL && pwq != NULL, -1);
  ns_syscall_begin (t, s, &fn___x64_sys_select);
  ns_call (t, &fn_kern_select);
  /* estimate: ~25 instructions (timeout copy and poll_select_set_timeout) */
  ns_insns (t, 25);
  ns_call (t, &fn_core_sys_select);
  /* estimate: ~60 instructions (fd set sizes, stack bitmaps, get_fd_set × 3
   * (copy_from_user of the sets), zero_fd_set × 3) */
  ns_insns (t, 60);
  ret = do_select (t, s, pwq, files, events, n, revents, until);
  /* set_fd_set × 3 (copy_to_user), poll_select_finish. estimate: ~40 instructions */
  ns_insns (t, 40);
  ns_ret (t);
  ns_ret (t);
  ns_syscall_end (t, s);
  return ret;
}
