/* test-pingpong.c — the pingpong workload (models/micro/pingpong.c) against the machine
 * model's documented coherence rules (doc/model.md, "Memory"; sim/machine.c's header):
 * - the c2c parameter of a distance is a CAS ping-pong's half round trip, one transfer plus
 *   the locked RMW that takes the line less the RMW's own L1 read, so a transfer waits it
 *   less lock.atomic_cycles (never below zero) beyond an L1 hit;
 * - a load of a line Modified in another physical core pays the transfer of their
 *   distance load-to-use (that wait plus cache.l1d.latency_cycles) (c2c.ccx_ns within an L3 domain, c2c.socket_ns across domains of a socket,
 *   c2c.remote_ns across sockets), cause coherence; the owner keeps a shared copy;
 * - SMT siblings share the caches, so a sibling's line is an ordinary L1 hit
 *   (cache.l1d.latency_cycles);
 * - a store takes ownership: invalidating another core's copy costs the transfer to it
 *   wait over cpu.mlp (coherence); a line the SMT sibling owns, the SMT wait over cpu.mlp.
 * So each hand-off (the reader's load of the turn, then its store handing it back) costs
 * l1d + wait × (1 + 1 / cpu.mlp) and two transfers between cores, and l1d + the SMT
 * transfer / cpu.mlp and one transfer between SMT siblings; and the turns strictly alternate, so every
 * hand-off pays them (a player writing twice would own the line the second time).
 * Expected values come from the parameters each variant ran with. */
#include "config.h"
#include <check.h>
#include <math.h>
#include "micro-run.h"

/* A variant of scenarios/micro/pingpong.xml and the c2c parameter of its distance. */
typedef struct {
  const char *variant;
  const char *c2c;
} PingDistance;

static const PingDistance distances[] = {
  { "smt", "c2c.smt_ns" },
  { "same-ccx", "c2c.ccx_ns" },
  { "cross-ccx", "c2c.socket_ns" },
  { "cross-socket", "c2c.remote_ns" },
};

/* Cycles a hand-off costs at distance d by the coherence rules above. */
static double
handoff_cycles (const NsVariantResult *vr, const PingDistance *d)
{
  double transfer = MAX (0.0, micro_param (vr, d->c2c) * micro_param (vr, "cpu.freq_ghz") -
                              micro_param (vr, "lock.atomic_cycles"));
  double mlp = micro_param (vr, "cpu.mlp");

  if (g_str_equal (d->variant, "smt"))
    return micro_param (vr, "cache.l1d.latency_cycles") + transfer / mlp;
  return micro_param (vr, "cache.l1d.latency_cycles") + transfer * (1.0 + 1.0 / mlp);
}

/* Every distance of pingpong.xml on the profile named by sets: the cycles charged per
 * hand-off exactly, ns_per_handoff to the window's edge, and the transfers per hand-off
 * (one between SMT siblings, two otherwise: strict alternation). */
static void
check_distances (const char *const *sets)
{
  NsRunResult *res = micro_run ("pingpong.xml", sets, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (distances); i++) {
    const PingDistance *d = &distances[i];
    const NsVariantResult *vr = micro_variant (res, d->variant);
    double want = handoff_cycles (vr, d);
    double want_ns = want / micro_param (vr, "cpu.freq_ghz");
    double transfers = g_str_equal (d->variant, "smt") ? 1.0 : 2.0;

    ck_assert_msg (fabs (ns_run_cycles_per_op (vr) - want) <= want * 1e-3,
                   "%s on %s: %.3f cycles charged a hand-off, want %.3f", d->variant,
                   vr->cpu_name, ns_run_cycles_per_op (vr), want);
    ck_assert_msg (fabs (vr->value - want_ns) <= want_ns * micro_window_tolerance (vr),
                   "%s on %s: ns_per_handoff %.3f, want %.3f", d->variant, vr->cpu_name,
                   vr->value, want_ns);
    ck_assert_msg (fabs (vr->events_per_op[NS_CAUSE_COHERENCE] - transfers) <= 0.01,
                   "%s on %s: %.3f transfers a hand-off, want %.0f", d->variant,
                   vr->cpu_name, vr->events_per_op[NS_CAUSE_COHERENCE], transfers);
  }
  ns_run_result_free (res);
}

/* The generic profile with the scenario's two sockets of two L3 domains (cpu.mlp 2). */
START_TEST (test_handoff_by_distance_generic)
{
  static const char *const sets[] = { "measure.warmup=2us", "measure.duration=50us", NULL };

  check_distances (sets);
}
END_TEST

/* The Zen 3 EPYC profile (its own c2c matrix and measured store misses in flight). */
START_TEST (test_handoff_by_distance_zen3)
{
  static const char *const sets[] = { "measure.warmup=2us", "measure.duration=50us",
                                      "cpu.profile=zen3-epyc-7713", NULL };

  check_distances (sets);
}
END_TEST

/* A distance that names no pair of CPUs is refused at the <workload> element's line. */
START_TEST (test_bad_distance_refused)
{
  static const char *const same[] = { "workload.distance=same", NULL };
  static const char *const far[] = { "workload.distance=far", NULL };

  micro_assert_refused ("pingpong.xml", same, 8, "distance");
  micro_assert_refused ("pingpong.xml", far, 8, "distance");
}
END_TEST

/* On an MDS-affected part, mds=full,nosmt or mitigations=auto,nosmt takes the SMT siblings
 * offline: the sibling hand-off is refused, saying why; mds=full alone keeps them. */
START_TEST (test_nosmt_takes_siblings_offline)
{
  static const char *const nosmt[][4] = {
    { "cpu.profile=i5-3337u", "workload.distance=smt", "kernel.cmdline=mds=full,nosmt", NULL },
    { "cpu.profile=i5-3337u", "workload.distance=smt", "kernel.cmdline=mitigations=auto,nosmt",
      NULL },
  };
  static const char *const smt[] = { "cpu.profile=i5-3337u", "workload.distance=smt",
                                     "kernel.cmdline=mds=full", NULL };

  for (guint i = 0; i < G_N_ELEMENTS (nosmt); i++)
    micro_assert_refused ("pingpong.xml", nosmt[i], 8, "nosmt took the SMT siblings offline");
  ns_run_result_free (micro_run ("pingpong.xml", smt, NULL));
}
END_TEST

static Suite *
pingpong_suite (void)
{
  Suite *s = suite_create ("pingpong");
  TCase *tc = tcase_create ("core");

  tcase_set_timeout (tc, 300);
  tcase_add_test (tc, test_handoff_by_distance_generic);
  tcase_add_test (tc, test_handoff_by_distance_zen3);
  tcase_add_test (tc, test_bad_distance_refused);
  tcase_add_test (tc, test_nosmt_takes_siblings_offline);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (pingpong_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
