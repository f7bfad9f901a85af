/* test-memcontrol.c — a UDP socket's memory charged to its memcg (models/net/memcontrol.c)
 * against the rules of Linux v6.9's mm/memcontrol.c and mm/page_counter.c, with datagrams
 * sent over loopback from SENDER_CPU (the charge runs in its NET_RX softirq) and read on
 * READER_CPU (udp_rmem_release uncharges there):
 *  - try_charge_memcg takes the pages from the charging CPU's memcg_stock when it caches
 *    the memcg and holds enough (consume_stock); otherwise page_counter_try_charge charges
 *    MEMCG_CHARGE_BATCH (64) pages to the memcg's memory counter and every ancestor's up
 *    to the root's, and refill_stock stocks the 64 - nr_pages it did not need;
 *  - mem_cgroup_uncharge_skmem gives the pages to the uncharging CPU's stock
 *    (refill_stock → __refill_stock: a stock caching no memcg, as after a drain, takes
 *    the memcg first); a stock holding more than 64 pages is drained (drain_stock:
 *    page_counter_uncharge of all of it up every level, the memcg forgotten);
 *  - so every level's usage is the pages the socket holds plus both stocks, the sender's
 *    stock never exceeds 64, and the charge and drain paths run page_counter_try_charge
 *    and page_counter_uncharge exactly when those rules say;
 *  - the sockets' memcg sits NS_MEMCG_LEVELS levels deep, counting the root, and each walk
 *    up the counters calls propagate_protected_usage once a level.
 * The socket's pages come from udp-acct.h (net/ipv4/udp.c's rules), the stocks and counters
 * from the rules above, computed here, never read back from the model. */
#include "config.h"
#include "udp-pair-rig.h"
#include "kernel-sizes.h"
#include "udp-acct.h"
#include "memcontrol.h"

#define BIG           8920       /* iperf3's datagram */
#define UBUF          9216
#define BATCH         64         /* MEMCG_CHARGE_BATCH */
#define ROUNDS        8
#define PER_ROUND     10

/* The kernel's memcg state: one memcg charges, so every level's counter is the same. */
typedef struct {
  gint64   usage;                /* memory.usage of each level */
  gboolean cached[2];            /* the stock of SENDER_CPU, READER_CPU caches the memcg */
  guint    stock[2];             /* its nr_pages */
  guint    try_charges;          /* page_counter_try_charge calls */
  guint    uncharges;            /* page_counter_uncharge calls */
} Memcg;

/* drain_stock: the stocked pages uncharged up every level, no memcg cached. */
static void
memcg_drain (Memcg *m, guint cpu)
{
  if (!m->cached[cpu])
    return;
  if (m->stock[cpu] > 0) {
    m->usage -= m->stock[cpu];
    m->uncharges++;
    m->stock[cpu] = 0;
  }
  m->cached[cpu] = FALSE;
}

/* refill_stock → __refill_stock(memcg, nr) on cpu. */
static void
memcg_refill (Memcg *m, guint cpu, guint nr)
{
  if (!m->cached[cpu]) {
    memcg_drain (m, cpu);
    m->cached[cpu] = TRUE;
  }
  m->stock[cpu] += nr;
  if (m->stock[cpu] > BATCH)
    memcg_drain (m, cpu);
}

/* mem_cgroup_charge_skmem → try_charge_memcg(memcg, nr) on cpu. */
static void
memcg_charge (Memcg *m, guint cpu, guint nr)
{
  guint batch = MAX (BATCH, nr);

  if (nr <= BATCH && m->cached[cpu] && m->stock[cpu] >= nr) {
    m->stock[cpu] -= nr;
    return;
  }
  m->usage += batch;
  m->try_charges++;
  if (batch > nr)
    memcg_refill (m, cpu, batch - nr);
}

/* The model's stock of cpu is the kernel's. */
static void
expect_stock (Rig *rig, const Memcg *m, guint cpu, guint idx, const char *what, guint k)
{
  NsNetStack *s = rig->s.stack;
  const struct memcg_stock_pcp *stock = &s->memcg_stock[cpu];

  ck_assert_msg (stock->cached == (m->cached[idx] ? s->task_memcg : NULL),
                 "%s %u: cpu %u's stock caches %p", what, k, cpu, (void *) stock->cached);
  ck_assert_msg (stock->nr_pages == m->stock[idx], "%s %u: cpu %u's stock %u, kernel %u",
                 what, k, cpu, stock->nr_pages, m->stock[idx]);
}

/* Every level's usage, both stocks and the slow paths taken are the kernel's. */
static void
expect_memcg (Rig *rig, const Memcg *m, const char *what, guint k)
{
  guint levels = 0;

  for (struct mem_cgroup *mc = rig->s.stack->task_memcg; mc; mc = parent_mem_cgroup (mc)) {
    ck_assert_msg (mc->memory.usage == m->usage, "%s %u: level %u's usage %" G_GINT64_FORMAT
                   ", kernel %" G_GINT64_FORMAT, what, k, levels, mc->memory.usage, m->usage);
    levels++;
  }
  ck_assert_uint_eq (levels, NS_MEMCG_LEVELS);
  expect_stock (rig, m, SENDER_CPU, 0, what, k);
  expect_stock (rig, m, READER_CPU, 1, what, k);
  ck_assert_uint_eq (stack_rig_calls (&rig->s, "page_counter_try_charge"), m->try_charges);
  ck_assert_uint_eq (stack_rig_calls (&rig->s, "page_counter_uncharge"), m->uncharges);
  /* each walk up the counters calls propagate_protected_usage once a level (out of
   * line in 6.1.176, doc/census/seed000/residue.md) */
  ck_assert_uint_eq (stack_rig_calls (&rig->s, "propagate_protected_usage"),
                     (m->try_charges + m->uncharges) * NS_MEMCG_LEVELS);
}

/* Rounds of PER_ROUND datagrams sent, then read: after each enqueue and each read the
 * counters of every level, both CPUs' stocks and the slow paths are the kernel's; the
 * usage is the socket's pages plus the stocks; the sender's stock runs dry and the
 * reader's fills past the batch again and again. */
START_TEST (test_stock_and_counters)
{
  const gint size = (gint) kernel_udp_truesize (AF_INET, BIG, TRUE);
  Memcg m = { 0 };
  Acct a = { 0 };
  Rig rig;

  rig_init (&rig, "6.9.0", AF_INET, 0);
  for (guint r = 0; r < ROUNDS; r++) {
    for (guint k = 0; k < PER_ROUND; k++) {
      gint before = a.pages;
      send_datagram (&rig, BIG);
      acct_enqueue (&a, size, 6009);
      if (a.pages > before)
        memcg_charge (&m, 0, (guint) (a.pages - before));
      expect_memcg (&rig, &m, "enqueue", r * PER_ROUND + k);
    }
    for (guint k = 0; k < PER_ROUND; k++) {
      gint before = a.pages;
      ck_assert_int_eq (read_datagram (&rig, UBUF), BIG);
      acct_dequeue (&a, size, ns_file_sock (rig.server)->sk_rcvbuf >> 2, 6009);
      if (a.pages < before)
        memcg_refill (&m, 1, (guint) (before - a.pages));
      expect_memcg (&rig, &m, "read", r * PER_ROUND + k);
    }
  }
  ck_assert_int_eq (m.usage, a.pages + m.stock[0] + m.stock[1]);
  ck_assert_uint_gt (m.try_charges, 1);   /* the sender's stock ran dry more than once */
  ck_assert_uint_gt (m.uncharges, 1);     /* the reader's overflowed more than once */
  rig_clear (&rig);
}
END_TEST

/* Both CPUs write the counters' usage lines (the sender charging, the reader draining):
 * a charge from the counters after a drain pays coherence on them, and so does the drain
 * after a charge. */
START_TEST (test_usage_lines_move)
{
  NsFunc *charge, *uncharge;
  Rig rig;

  rig_init (&rig, "6.9.0", AF_INET, 0);
  for (guint k = 0; k < 4 * PER_ROUND; k++) {
    send_datagram (&rig, BIG);
    ck_assert_int_eq (read_datagram (&rig, UBUF), BIG);
  }
  charge = ns_func_lookup ("page_counter_try_charge");   /* registered at first use */
  uncharge = ns_func_lookup ("page_counter_uncharge");
  ck_assert (charge != NULL && uncharge != NULL);
  ck_assert_uint_gt (ns_machine_account_calls (rig.s.machine, uncharge, NULL), 1);
  ck_assert (ns_machine_account_cycles (rig.s.machine, charge, NS_CAUSE_COHERENCE) > 0);
  ck_assert (ns_machine_account_cycles (rig.s.machine, uncharge, NS_CAUSE_COHERENCE) > 0);
  rig_clear (&rig);
}
END_TEST

/* Without CONFIG_MEMCG nothing is charged: no memcg, no stocks, no counter calls. */
START_TEST (test_memcg_off)
{
  static const char *const config[] = { "CONFIG_MEMCG", "n", NULL };
  Rig rig;

  rig_init_config (&rig, "6.9.0", AF_INET, 0, config);
  for (guint k = 0; k < PER_ROUND; k++)
    send_datagram (&rig, BIG);
  for (guint k = 0; k < PER_ROUND; k++)
    ck_assert_int_eq (read_datagram (&rig, UBUF), BIG);
  ck_assert (rig.s.stack->task_memcg == NULL);
  ck_assert (ns_file_sock (rig.server)->sk_memcg == NULL);
  ck_assert_uint_eq (stack_rig_calls (&rig.s, "mem_cgroup_charge_skmem"), 0);
  ck_assert_uint_eq (stack_rig_calls (&rig.s, "page_counter_try_charge"), 0);
  rig_clear (&rig);
}
END_TEST

static Suite *
memcontrol_suite (void)
{
  Suite *s = suite_create ("memcontrol");
  TCase *tc = tcase_create ("core");

  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_stock_and_counters);
  tcase_add_test (tc, test_usage_lines_move);
  tcase_add_test (tc, test_memcg_off);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (memcontrol_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
