/* test-loopback.c — models/net/loopback.c, the loopback device layer and backlog NAPI,
 * against the kernel's rules (v6.9):
 *   - drivers/net/loopback.c loopback_xmit: eth_type_trans pulls the 14-byte Ethernet
 *     header, len is taken after it, and dev_lstats_add(dev, len) counts a packet only
 *     when __netif_rx returns NET_RX_SUCCESS; the xmit itself always returns
 *     NETDEV_TX_OK;
 *   - net/core/dev.c enqueue_to_backlog: a packet is queued while qlen <=
 *     netdev_max_backlog (so the queue holds up to max_backlog + 1) and dropped beyond
 *     (lo's per-CPU rx_dropped counted, freed, NET_RX_DROP); the first packet into an
 *     empty queue schedules the backlog NAPI (test-and-set NAPI_STATE_SCHED) and raises
 *     NET_RX, later ones do not;
 *     input_queue_tail counts the queued packets; before the qlen test, a packet whose
 *     skb->dev is not running (!netif_running: __LINK_STATE_START clear) takes the same
 *     drop path (rx_dropped, freed, NET_RX_DROP, so loopback_xmit's lstats skip it);
 *   - process_backlog polls at most its quota (the NAPI weight, dev_weight 64) and stays
 *     scheduled when it used it all; net_rx_action polls a NAPI once per run and puts one
 *     that used its whole weight back on poll_list, re-raising NET_RX, so
 *     handle_softirqs restarts (MAX_SOFTIRQ_RESTART 10) and a long backlog drains in
 *     floor(n / 64) + 1 polls; the NET_RX handlers run in softirq context
 *     (softirq_handle_begin: SOFTIRQ_OFFSET, 0x100, in the preempt count).
 * Expected values are computed here from those rules, not read from the model. */
#include "config.h"
#include <arpa/inet.h>
#include "stack-rig.h"
#include "loopback.h"
#include "udp_tx.h"

#define NAPI_STATE_SCHED  1ul
#define NET_RX_DROP       1
#define ETH_HLEN_BYTES    14u
#define DEV_WEIGHT        64u        /* net.core.dev_weight default */
#define MAX_SOFTIRQ_RESTART 10u      /* kernel/softirq.c */
#define NETDEV_MAX_BACKLOG 1000u     /* net.core.netdev_max_backlog default */
#define SOFTIRQ_OFFSET    0x100
#define SOFTIRQ_MASK      0xff00
#define PORT              5201
#define DGRAM             64

typedef struct {
  StackRig       s;                /* machine, engine, loopback stack */
  struct file   *client;
  struct file   *server;
  guchar        *buf;
  guint          to_send;
  /* the probe of CPU 0's preempt count (test_net_rx_in_softirq_context) */
  gboolean       probing;
  guint          samples_in_softirq;
  guint          samples_other;
} Rig;

/* A machine of the registry defaults running 6.9.0-rc1 with its network stack. */
static void
rig_init (Rig *r)
{
  memset (r, 0, sizeof *r);
  stack_rig_init (&r->s, "6.9.0-rc1", NULL, NULL, NULL);
  r->buf = ns_arena_alloc (ns_machine_arena (r->s.machine), DGRAM, 64);
}

/* Frees what rig_init made. */
static void
rig_clear (Rig *r)
{
  stack_rig_clear (&r->s);
}

/* Runs body(t, r) in a thread on CPU 0 until it returns (no NET_RX context started: what
 * it queues on the backlog stays there). */
static void
run (Rig *r, void (*body) (NsThread *t, gpointer rig))
{
  stack_rig_run (&r->s, 0, body, r);
}

/* An skb as lo receives it: a 14-byte Ethernet header then payload bytes. */
static struct sk_buff *
frame_new (NsThread *t, Rig *r, guint payload)
{
  struct sk_buff *skb = __alloc_skb (t, r->s.stack->alloc, ETH_HLEN_BYTES + payload,
                                     GFP_ATOMIC);

  skb_put (t, skb, ETH_HLEN_BYTES + payload);
  return skb;
}

/* loopback_xmit of one frame of payload bytes; it always returns NETDEV_TX_OK. */
static void
xmit_frame (NsThread *t, Rig *r, guint payload)
{
  ck_assert_int_eq (loopback_xmit (t, r->s.stack, frame_new (t, r, payload), r->s.stack->lo), 0);
}

/* netdev_max_backlog 3: frames 1-4 see qlen 0..3 <= 3 and are queued, 5 and 6 see 4 > 3
 * and are dropped (lo's rx_dropped) and freed; lo's lstats count the queued ones, bytes
 * after the pull. */
static void
body_backlog_limit (NsThread *t, gpointer data)
{
  Rig *r = data;
  struct softnet_data *sd = ns_netstack_sd (r->s.stack, 0);
  const guint max = 3, sent = 6, payload = 100, queued = max + 1;

  r->s.stack->max_backlog = max;
  for (guint i = 0; i < sent; i++)
    xmit_frame (t, r, payload);
  ck_assert_uint_eq (sd->input_pkt_queue.qlen, queued);
  ck_assert_uint_eq (sd->input_queue_tail, queued);
  ck_assert_uint_eq (r->s.stack->counters.backlog_drops, sent - queued);
  /* dev_core_stats_rx_dropped_inc(skb->dev): lo's per-CPU rx_dropped, this CPU's */
  ck_assert_ptr_nonnull (r->s.stack->lo->core_stats);
  ck_assert_uint_eq (r->s.stack->lo->core_stats[0].rx_dropped, sent - queued);
  ck_assert_uint_eq (r->s.stack->lo->core_stats[0].tx_dropped, 0);
  ck_assert_uint_eq (ns_skb_alloc_live (r->s.stack->alloc, NULL), queued);
  ck_assert_uint_eq (sd->lo_lstats[0], queued);
  ck_assert_uint_eq (sd->lo_lstats[1], queued * payload);
  ck_assert_uint_eq (sd->input_pkt_queue.next->len, payload);
}

START_TEST (test_backlog_limit)
{
  Rig r;

  rig_init (&r);
  run (&r, body_backlog_limit);
  rig_clear (&r);
}
END_TEST

/* lo down (__LINK_STATE_START clear): v6.9 net/core/dev.c enqueue_to_backlog tests
 * netif_running(skb->dev) under the backlog lock and goes to drop — nothing queued, no
 * NAPI scheduled, lo's rx_dropped counted, the skb freed, NET_RX_DROP (so
 * drivers/net/loopback.c loopback_xmit does not count it in its lstats). */
static void
body_dev_not_running (NsThread *t, gpointer data)
{
  Rig *r = data;
  struct softnet_data *sd = ns_netstack_sd (r->s.stack, 0);
  struct net_device *lo = r->s.stack->lo;
  const guint sent = 3;

  lo->state &= ~(1ul << __LINK_STATE_START);
  for (guint i = 0; i < sent; i++)
    xmit_frame (t, r, 100);
  ck_assert_uint_eq (sd->input_pkt_queue.qlen, 0);
  ck_assert_uint_eq (sd->input_queue_tail, 0);
  ck_assert_uint_eq (sd->napi_state & NAPI_STATE_SCHED, 0);
  ck_assert_uint_eq (sd->softirq_pending, 0);
  ck_assert_uint_eq (r->s.stack->counters.backlog_drops, sent);
  ck_assert_ptr_nonnull (lo->core_stats);
  ck_assert_uint_eq (lo->core_stats[0].rx_dropped, sent);
  ck_assert_uint_eq (ns_skb_alloc_live (r->s.stack->alloc, NULL), 0);
  ck_assert_uint_eq (sd->lo_lstats[0], 0);
  ck_assert_uint_eq (sd->lo_lstats[1], 0);
  /* up again: the next frame is queued and counted */
  lo->state |= 1ul << __LINK_STATE_START;
  xmit_frame (t, r, 100);
  ck_assert_uint_eq (sd->input_pkt_queue.qlen, 1);
  ck_assert_uint_eq (sd->lo_lstats[0], 1);
}

START_TEST (test_dev_not_running)
{
  Rig r;

  rig_init (&r);
  run (&r, body_dev_not_running);
  rig_clear (&r);
}
END_TEST

/* The stack's defaults are the kernel's: netdev_max_backlog 1000, backlog weight 64;
 * with them 1001 frames are queued and the 1002nd is dropped. */
static void
body_default_limit (NsThread *t, gpointer data)
{
  Rig *r = data;
  struct softnet_data *sd = ns_netstack_sd (r->s.stack, 0);

  ck_assert_uint_eq (r->s.stack->max_backlog, NETDEV_MAX_BACKLOG);
  ck_assert_int_eq (sd->napi_weight, DEV_WEIGHT);
  for (guint i = 0; i < NETDEV_MAX_BACKLOG + 2; i++)
    xmit_frame (t, r, 1);
  ck_assert_uint_eq (sd->input_pkt_queue.qlen, NETDEV_MAX_BACKLOG + 1);
  ck_assert_uint_eq (r->s.stack->counters.backlog_drops, 1);
  ck_assert_uint_eq (sd->lo_lstats[0], NETDEV_MAX_BACKLOG + 1);
}

START_TEST (test_default_limit)
{
  Rig r;

  rig_init (&r);
  run (&r, body_default_limit);
  rig_clear (&r);
}
END_TEST

/* The first frame into an empty backlog schedules its NAPI and raises NET_RX; a second
 * finds qlen 1 and raises nothing; into an empty queue whose NAPI is still scheduled
 * (being polled), test_and_set finds SCHED and raises nothing either. */
static void
body_napi_scheduled_once (NsThread *t, gpointer data)
{
  Rig *r = data;
  struct softnet_data *sd = ns_netstack_sd (r->s.stack, 0);

  ck_assert_uint_eq (sd->napi_state & NAPI_STATE_SCHED, 0);
  xmit_frame (t, r, 10);
  ck_assert_uint_eq (sd->napi_state & NAPI_STATE_SCHED, NAPI_STATE_SCHED);
  ck_assert_uint_ne (sd->softirq_pending, 0);
  sd->softirq_pending = 0;
  xmit_frame (t, r, 10);
  ck_assert_uint_eq (sd->softirq_pending, 0);
  kfree_skb (t, r->s.stack->alloc, __skb_dequeue (&sd->input_pkt_queue));
  kfree_skb (t, r->s.stack->alloc, __skb_dequeue (&sd->input_pkt_queue));
  xmit_frame (t, r, 10);
  ck_assert_uint_eq (sd->softirq_pending, 0);
  ck_assert_uint_eq (sd->input_pkt_queue.qlen, 1);
}

START_TEST (test_napi_scheduled_once)
{
  Rig r;

  rig_init (&r);
  run (&r, body_napi_scheduled_once);
  rig_clear (&r);
}
END_TEST

/* A UDP client on CPU 0 connected to 127.0.0.1:PORT and a server bound there with a
 * receive buffer that holds everything sent (rmem_default raised first). */
static void
rig_pair (Rig *r)
{
  struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons (PORT) };

  r->s.stack->rmem_default = 64u << 20;
  r->client = ns_netstack_socket (r->s.stack, AF_INET, FALSE);
  r->server = ns_netstack_socket (r->s.stack, AF_INET, FALSE);
  ck_assert_int_eq (udp_sock_bind (ns_file_sock (r->server), (struct sockaddr *) &in,
                                   sizeof in), 0);
  in.sin_addr.s_addr = htonl (0x7f000001);
  ck_assert_int_eq (ns_netstack_connect (r->s.stack, r->client, (struct sockaddr *) &in,
                                         sizeof in), 0);
}

/* Thread body: to_send datagrams of DGRAM bytes. */
static void
sender (NsThread *t, gpointer data)
{
  Rig *r = data;

  for (guint k = 0; k < r->to_send; k++)
    ck_assert_int_eq (ns_sys_write (t, r->s.stack, r->client, r->buf, DGRAM), DGRAM);
}

/* Sends n datagrams from CPU 0 before its NET_RX context exists, so all of them wait on
 * CPU 0's backlog with NET_RX raised. */
static void
fill_backlog (Rig *r, guint n)
{
  struct softnet_data *sd = ns_netstack_sd (r->s.stack, 0);

  rig_pair (r);
  r->to_send = n;
  ns_engine_spawn (r->s.engine, "writer", 0, NS_THREAD_USER, 0, sender, r);
  ns_engine_run (r->s.engine, NS_MS (50));
  ck_assert_uint_eq (sd->input_pkt_queue.qlen, n);
  ck_assert_uint_ne (sd->softirq_pending, 0);
}

/* __do_softirq entries for `rounds` NET_RX rounds: kernel/softirq.c __do_softirq (v6.9)
 * starts max_restart at MAX_SOFTIRQ_RESTART and, while a softirq is pending again after a
 * round, restarts only if --max_restart is non-zero, so one entry runs at most 10 rounds;
 * then wakeup_softirqd, and ksoftirqd's __do_softirq runs the next ones. */
static guint
softirq_entries (guint rounds)
{
  return (rounds + MAX_SOFTIRQ_RESTART - 1) / MAX_SOFTIRQ_RESTART;
}

/* A backlog of n datagrams drains completely once NET_RX runs: floor(n / 64) polls use
 * their whole quota and are repolled, the last one empties the queue and unschedules the
 * NAPI; net_rx_action runs once per poll (one NAPI on the list), one per softirq round,
 * at most MAX_SOFTIRQ_RESTART rounds per __do_softirq. */
static void
check_drain (guint n)
{
  struct softnet_data *sd;
  guint64 polls, actions;
  guint rounds = n / DEV_WEIGHT + 1;
  Rig r;

  rig_init (&r);
  fill_backlog (&r, n);
  ns_machine_account_reset (r.s.machine);
  ns_netstack_start_cpu (r.s.stack, 0);
  ns_engine_run (r.s.engine, NS_MS (100));
  sd = ns_netstack_sd (r.s.stack, 0);
  ck_assert_uint_eq (r.s.stack->counters.enqueued, n);
  ck_assert_uint_eq (sd->input_pkt_queue.qlen + sd->process_queue.qlen, 0);
  ck_assert_uint_eq (sd->input_queue_head, n);
  ck_assert_uint_eq (sd->napi_state & NAPI_STATE_SCHED, 0);
  ck_assert_uint_eq (sd->softirq_pending, 0);
  polls = ns_machine_account_calls (r.s.machine, &lo_fn_process_backlog, NULL);
  actions = ns_machine_account_calls (r.s.machine, &lo_fn_net_rx_action, NULL);
  ck_assert_uint_eq (polls, rounds);
  ck_assert_uint_eq (actions, polls);
  ck_assert_uint_eq (stack_rig_calls (&r.s, "__do_softirq"), softirq_entries (rounds));
  ck_assert_int_eq (*r.s.stack->preempt_count[0], 0);
  rig_clear (&r);
}

START_TEST (test_drain_within_quota)
{
  check_drain (40);
}
END_TEST

START_TEST (test_drain_two_quotas)
{
  check_drain (100);
}
END_TEST

/* Exactly two quotas: both polls return 64 and stay scheduled, a third finds the queue
 * empty and unschedules the NAPI. */
START_TEST (test_drain_exact_quotas)
{
  check_drain (2 * DEV_WEIGHT);
}
END_TEST

/* More than netdev_budget (300): still one poll of 64 per net_rx_action, all delivered. */
START_TEST (test_drain_beyond_budget)
{
  check_drain (400);
}
END_TEST

/* Exactly MAX_SOFTIRQ_RESTART (10) rounds: the tenth is the last restart one __do_softirq
 * allows, so all of them run in the first entry. */
START_TEST (test_drain_max_restarts)
{
  check_drain ((MAX_SOFTIRQ_RESTART - 1) * DEV_WEIGHT + 1);
}
END_TEST

/* More than MAX_SOFTIRQ_RESTART (10) polls: 11 rounds, the first __do_softirq runs 10
 * and the eleventh runs in a second one (ksoftirqd's); one poll per net_rx_action, all
 * delivered. */
START_TEST (test_drain_beyond_restarts)
{
  check_drain (700);
}
END_TEST

/* Thread body on CPU 1: samples CPU 0's preempt count every 20 ns while r->probing. */
static void
probe (NsThread *t, gpointer data)
{
  Rig *r = data;

  while (r->probing) {
    gint32 count = *r->s.stack->preempt_count[0];
    if ((count & SOFTIRQ_MASK) == SOFTIRQ_OFFSET)
      r->samples_in_softirq++;
    else if (count != 0)
      r->samples_other++;
    ns_thread_advance_time (t, NS_NS (20));
    if (r->s.stack->counters.enqueued == r->to_send)
      r->probing = FALSE;
  }
}

/* While CPU 0 drains its backlog in the NET_RX softirq, its preempt count shows softirq
 * context (SOFTIRQ_OFFSET, in_serving_softirq()) and nothing else; afterwards 0. */
START_TEST (test_net_rx_in_softirq_context)
{
  Rig r;

  rig_init (&r);
  fill_backlog (&r, 50);
  r.probing = TRUE;
  ns_engine_spawn (r.s.engine, "probe", 1, NS_THREAD_USER, ns_engine_now (r.s.engine), probe, &r);
  ns_netstack_start_cpu (r.s.stack, 0);
  ns_engine_run (r.s.engine, NS_MS (100));
  ck_assert_uint_eq (r.s.stack->counters.enqueued, 50);
  ck_assert_uint_gt (r.samples_in_softirq, 0);
  ck_assert_uint_eq (r.samples_other, 0);
  ck_assert_int_eq (*r.s.stack->preempt_count[0], 0);
  rig_clear (&r);
}
END_TEST

static Suite *
loopback_suite (void)
{
  Suite *s = suite_create ("loopback");
  TCase *tc = tcase_create ("core");

  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_backlog_limit);
  tcase_add_test (tc, test_default_limit);
  tcase_add_test (tc, test_dev_not_running);
  tcase_add_test (tc, test_napi_scheduled_once);
  tcase_add_test (tc, test_drain_within_quota);
  tcase_add_test (tc, test_drain_two_quotas);
  tcase_add_test (tc, test_drain_exact_quotas);
  tcase_add_test (tc, test_drain_beyond_budget);
  tcase_add_test (tc, test_drain_max_restarts);
  tcase_add_test (tc, test_drain_beyond_restarts);
  tcase_add_test (tc, test_net_rx_in_softirq_context);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (loopback_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
