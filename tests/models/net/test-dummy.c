/* test-dummy.c — the dummy device (models/net/dummy.c) against drivers/net/dummy.c in
 * v6.1, the device of the tc/pktgen path:
 *  - dummy_setup / register: the device is up and running (IFF_UP, __LINK_STATE_START,
 *    no NOCARRIER), IFF_NO_QUEUE (so the noqueue qdisc: enqueue NULL) with
 *    alloc_netdev's IFF_XMIT_DST_RELEASE, features SG, FRAGLIST, NETIF_F_LLTX (no TX lock: the
 *    queue's xmit_lock_owner stays -1), NETIF_F_HW_CSUM and NETIF_F_HIGHDMA, exactly
 *    one TX queue, no taps (empty ptype_all), ndo_start_xmit = dummy_xmit, lstats
 *    allocated and zero; its netdev_ops are static data and its TX queues
 *    (kvzalloc(GFP_KERNEL_ACCOUNT)) and the net_device a kmalloc-cg allocation, so none of
 *    them is an object of the unaccounted kmalloc caches tc's objects come from;
 *  - dummy_xmit through dev_queue_xmit: dev_lstats_add adds one packet and skb->len
 *    bytes to the sending CPU's pcpu_lstats only; dev_kfree_skb frees the skb as
 *    consumed (consume_skb, not kfree_skb_reason); NETDEV_TX_OK, so __dev_queue_xmit
 *    returns NET_XMIT_SUCCESS.
 * Expected values follow from those rules, not from the model. */
#include "config.h"
#include "sched/sched-rig.h"

/* The rig plus a transmit stack and dummy0. */
/* One packet of `len` bytes sent on a CPU, and what dev_queue_xmit returned. */
typedef struct {
  DevRig *d;
  guint     len;
  int       ret;
} Packet;

/* CPU cpu's pcpu_lstats of the device. */
static const struct pcpu_lstats *
lstats_of (DevRig *d, guint cpu)
{
  return tc_percpu_ptr (d->rig.tc, d->dev->lstats, cpu);
}

/* Body: allocate a packet of p->len bytes and dev_queue_xmit it. */
static void
send_body (NsThread *t, gpointer data)
{
  Packet *p = data;
  struct sk_buff *skb = __netdev_alloc_skb (t, p->d->tx, p->d->dev, p->len);

  skb_put (t, skb, p->len);
  p->ret = dev_queue_xmit (t, &p->d->tx->core, skb);
}

/* Sends one packet of len bytes on cpu; returns dev_queue_xmit's value. */
static int
send_on (DevRig *d, guint cpu, guint len)
{
  Packet p = { d, len, -1 };

  rig_run_on (&d->rig, cpu, send_body, &p);
  return p.ret;
}

/* The set-up: up, noqueue, LLTX, one TX queue, dummy_xmit, zeroed lstats. */
START_TEST (test_setup)
{
  const guint64 features = NETIF_F_SG | NETIF_F_FRAGLIST | NETIF_F_LLTX | NETIF_F_HW_CSUM |
                           NETIF_F_HIGHDMA;
  struct netdev_queue *txq;
  DevRig d;

  dev_rig_init (&d);
  ck_assert_str_eq (d.dev->name, "dummy0");
  ck_assert (d.dev->flags & IFF_UP);
  ck_assert (d.dev->state & (1ul << __LINK_STATE_START));
  ck_assert (!(d.dev->state & (1ul << __LINK_STATE_NOCARRIER)));
  ck_assert (d.dev->priv_flags & IFF_NO_QUEUE);
  ck_assert (d.dev->priv_flags & IFF_XMIT_DST_RELEASE);
  ck_assert_uint_eq (d.dev->features & features, features);
  ck_assert_uint_eq (d.dev->num_tx_queues, 1);
  ck_assert_uint_eq (d.dev->real_num_tx_queues, 1);
  txq = &d.dev->_tx[0];
  ck_assert_ptr_eq (txq->dev, d.dev);
  ck_assert_ptr_eq (txq->qdisc, d.dev->qdisc);
  ck_assert_ptr_eq (txq->qdisc_sleeping, d.dev->qdisc);
  ck_assert_ptr_null (txq->qdisc->enqueue);
  ck_assert_int_eq (txq->xmit_lock_owner, -1);
  ck_assert_ptr_eq (d.dev->ptype_all.next, &d.dev->ptype_all);
  ck_assert_str_eq (d.dev->netdev_ops->ndo_start_xmit->name, "dummy_xmit");
  ck_assert_uint_eq (tc_ksize (d.rig.tc, d.dev->netdev_ops), 0);
  ck_assert_uint_eq (tc_ksize (d.rig.tc, d.dev->_tx), 0);
  ck_assert_uint_eq (tc_ksize (d.rig.tc, d.dev), 0);
  ck_assert_uint_eq (tc_ksize (d.rig.tc, tc_kzalloc (d.rig.tc, 40)), 64);
  for (guint c = 0; c < ns_machine_n_cpus (d.rig.machine); c++) {
    ck_assert_uint_eq (lstats_of (&d, c)->packets, 0);
    ck_assert_uint_eq (lstats_of (&d, c)->bytes, 0);
  }
  dev_rig_clear (&d);
}
END_TEST

/* dummy_xmit counts on the sending CPU: CPU 0 sends 60 and 100 bytes, CPU 1 1500;
 * every send returns NET_XMIT_SUCCESS and no other CPU's counters move. */
START_TEST (test_xmit_counts_per_cpu)
{
  const struct { guint cpu, len; } sends[] = { { 0, 60 }, { 1, 1500 }, { 0, 100 } };
  guint64 packets[2] = { 0 }, bytes[2] = { 0 };
  DevRig d;

  dev_rig_init (&d);
  ck_assert_uint_ge (ns_machine_n_cpus (d.rig.machine), 3);
  for (guint i = 0; i < G_N_ELEMENTS (sends); i++) {
    ck_assert_int_eq (send_on (&d, sends[i].cpu, sends[i].len), NET_XMIT_SUCCESS);
    packets[sends[i].cpu]++;
    bytes[sends[i].cpu] += sends[i].len;
  }
  for (guint c = 0; c < 2; c++) {
    ck_assert_uint_eq (lstats_of (&d, c)->packets, packets[c]);
    ck_assert_uint_eq (lstats_of (&d, c)->bytes, bytes[c]);
  }
  for (guint c = 2; c < ns_machine_n_cpus (d.rig.machine); c++)
    ck_assert_uint_eq (lstats_of (&d, c)->packets, 0);
  dev_rig_clear (&d);
}
END_TEST

/* dev_kfree_skb is consume_skb: every skb freed, counted as consumed, none dropped. */
START_TEST (test_xmit_consumes_the_skb)
{
  const guint n = 3;
  NsFunc *consume, *drop;
  DevRig d;

  dev_rig_init (&d);
  send_on (&d, 0, 60);                      /* registers the functions */
  consume = ns_func_lookup ("consume_skb");
  drop = ns_func_lookup ("kfree_skb_reason");
  ck_assert_ptr_nonnull (consume);
  ns_machine_account_reset (d.rig.machine);
  for (guint i = 0; i < n; i++)
    send_on (&d, 0, 60);
  ck_assert_uint_eq (ns_skb_alloc_live (d.tx->alloc, NULL), 0);
  ck_assert_uint_eq (ns_machine_account_calls (d.rig.machine, consume, NULL), n);
  if (drop != NULL)
    ck_assert_uint_eq (ns_machine_account_calls (d.rig.machine, drop, NULL), 0);
  dev_rig_clear (&d);
}
END_TEST

static Suite *
dummy_suite (void)
{
  Suite *s = suite_create ("dummy");
  TCase *tc = tcase_create ("dummy");

  tcase_add_test (tc, test_setup);
  tcase_add_test (tc, test_xmit_counts_per_cpu);
  tcase_add_test (tc, test_xmit_consumes_the_skb);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (dummy_suite ());
  gint failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
