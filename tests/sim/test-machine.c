/* test-machine.c — the machine model run on real simulated threads: pointer chases hit each
 * level's latency, return and indirect-call mitigations cost exactly their penalty, inlined
 * calls are free, a locked hand-off costs the c2c value of its distance and a plain
 * transfer that less one locked RMW, stores invalidate, system calls sum their mitigation pieces, and cycles land where charged. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <string.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "machine.h"

#define SRC "test-machine"

/* ---- fixtures ---- */

/* Registry defaults with name=value overrides (NULL-terminated pairs). */
static NsParams *
params_with (const char *const *sets)
{
  NsParams *params = ns_params_new ();

  for (guint i = 0; sets != NULL && sets[i] != NULL; i += 2) {
    GError *error = NULL;
    gboolean ok = ns_params_set (params, sets[i], sets[i + 1], SRC, &error);
    ck_assert_msg (ok, "%s", error ? error->message : "?");
  }
  return params;
}

typedef struct {
  NsParams   *params;
  NsBuild    *build;
  NsMachine  *machine;
  NsEngine   *engine;
} Rig;

static void
rig_init (Rig *rig, const char *const *sets, const NsMitigations *mit)
{
  GError *error = NULL;

  rig->params = params_with (sets);
  rig->build = ns_build_new ("6.9.0", 60);
  rig->machine = ns_machine_new (rig->params, mit, rig->build, &error);
  ck_assert_msg (rig->machine != NULL, "%s", error ? error->message : "?");
  rig->engine = ns_machine_create_engine (rig->machine);
  ck_assert_uint_eq (ns_engine_n_cpus (rig->engine), ns_machine_n_cpus (rig->machine));
}

static void
rig_clear (Rig *rig)
{
  ns_engine_free (rig->engine);
  ns_machine_free (rig->machine);
  ns_build_free (rig->build);
  ns_params_free (rig->params);
}

/* Runs fn(data) as one user thread on CPU 0 from time 0 until everything is done. */
static NsThread *
rig_run (Rig *rig, const char *name, NsThreadFunc fn, gpointer data)
{
  NsThread *t = ns_engine_spawn (rig->engine, name, 0, NS_THREAD_USER, 0, fn, data);

  ns_engine_run (rig->engine, NS_TIME_FOREVER);
  return t;
}

static double
param (Rig *rig, const char *name)
{
  return ns_params_get_double (rig->params, name);
}

/* CALL cycles of one out-of-line call: call.cycles + (2 + prologue) / issue width. */
static double
call_cycles (Rig *rig)
{
  return param (rig, "call.cycles") +
         (2 + param (rig, "call.prologue_insns")) / param (rig, "cpu.issue_width");
}

/* Sum of every account cell (all functions, all causes). */
static double
account_total (NsMachine *m)
{
  double sum = 0.0;

  for (guint c = 0; c < NS_CAUSE_N; c++) {
    sum += ns_machine_account_cycles (m, NULL, (NsCause) c);
    for (guint id = 1; id <= ns_func_count (); id++)
      sum += ns_machine_account_cycles (m, ns_func_by_id (id), (NsCause) c);
  }
  return sum;
}

/* Sum of one cause over all functions. */
static double
account_cause (NsMachine *m, NsCause cause)
{
  double sum = ns_machine_account_cycles (m, NULL, cause);

  for (guint id = 1; id <= ns_func_count (); id++)
    sum += ns_machine_account_cycles (m, ns_func_by_id (id), cause);
  return sum;
}

static void
assert_close (double got, double want, double rel, const char *what)
{
  ck_assert_msg (fabs (got - want) <= rel * fabs (want) + 1e-9,
                 "%s: got %.9g, want %.9g (rel. tolerance %g)", what, got, want, rel);
}

/* ---- pointer chase ---- */

typedef struct {
  NsMachine *machine;
  guint8    *base;
  gsize      n_lines;
  NsCause    level;        /* the level expected to serve every load */
  double     per_load;     /* account cycles of `level` per measured load */
  double     ps_per_load;  /* thread time per measured load */
  guint64    served;       /* loads counted at `level` */
} Chase;

/* Links the lines of [base, base + n × 64) into one random cycle (fixed seed). */
static void
chase_link (guint8 *base, gsize n_lines, gulong seed)
{
  gsl_rng *rng = gsl_rng_alloc (gsl_rng_mt19937);
  gsize *order = g_new (gsize, n_lines);

  gsl_rng_set (rng, seed);
  for (gsize i = 0; i < n_lines; i++)
    order[i] = i;
  gsl_ran_shuffle (rng, order + 1, n_lines - 1, sizeof (gsize));
  for (gsize i = 0; i < n_lines; i++) {
    guint8 *from = base + order[i] * 64;
    guint8 *to = base + order[(i + 1) % n_lines] * 64;
    *(guint8 **) from = to;
  }
  g_free (order);
  gsl_rng_free (rng);
}

static void
chase_thread (NsThread *t, gpointer data)
{
  Chase *c = data;
  guint8 *p = c->base;
  NsTime start;

  for (gsize i = 0; i < c->n_lines; i++) {         /* warm-up pass */
    ns_load_dep (t, p, sizeof (gpointer));
    p = *(guint8 **) p;
  }
  ck_assert_ptr_eq (p, c->base);
  ns_machine_account_reset (c->machine);
  start = ns_thread_now (t);
  for (gsize i = 0; i < c->n_lines; i++) {
    ns_load_dep (t, p, sizeof (gpointer));
    p = *(guint8 **) p;
  }
  c->ps_per_load = (double) (ns_thread_now (t) - start) / c->n_lines;
  c->per_load = ns_machine_account_cycles (c->machine, NULL, c->level) / c->n_lines;
  c->served = ns_machine_account_events (c->machine, c->level);
}

/* Chases a working set of ws_bytes on rig (its page frames drawn from page_key) and
 * fills c with what `level` served. */
static void
run_chase (Rig *rig, guint64 page_key, gsize ws_bytes, NsCause level, Chase *c)
{
  ns_machine_set_page_key (rig->machine, page_key);
  c->machine = rig->machine;
  c->n_lines = ws_bytes / 64;
  c->level = level;
  c->base = ns_arena_alloc (ns_machine_arena (rig->machine), ws_bytes, 4096);
  chase_link (c->base, c->n_lines, 20240601);
  ns_engine_spawn (rig->engine, "chase", 0, NS_THREAD_USER, 0, chase_thread, c);
  ns_engine_run (rig->engine, NS_TIME_FOREVER);
}

/* sets, then mem.page_frames = contiguous (a new strv for params_with). */
static char **
contiguous_sets (const char *const *sets)
{
  GStrvBuilder *b = g_strv_builder_new ();
  char **all;

  g_strv_builder_addv (b, (const char **) sets);
  g_strv_builder_add_many (b, "mem.page_frames", "contiguous", NULL);
  all = g_strv_builder_end (b);
  g_strv_builder_unref (b);
  return all;
}

/* The load latency of level in cycles, read from the rig's parameters (not from the
 * machine, whose table the charge itself reads). */
static double
level_param_cycles (Rig *rig, NsCause level)
{
  switch (level) {
  case NS_CAUSE_L1:
    return param (rig, "cache.l1d.latency_cycles");
  case NS_CAUSE_L2:
    return param (rig, "cache.l2.latency_cycles");
  case NS_CAUSE_L3:
    return param (rig, "cache.l3.latency_cycles");
  case NS_CAUSE_DRAM:
    return param (rig, "mem.dram_latency_ns") * param (rig, "cpu.freq_ghz");
  default:
    ck_abort_msg ("no latency parameter for %s", ns_cause_name (level));
    return 0.0;
  }
}

/* Chases a working set of ws_bytes on contiguous pages (a working set that fits a level's
 * capacity then fits its sets) and checks it costs `level`'s latency parameter per load. */
static void
check_chase (const char *const *sets, gsize ws_bytes, NsCause level)
{
  g_auto (GStrv) with = contiguous_sets (sets);
  Rig rig;
  Chase c = { 0 };
  double want;

  rig_init (&rig, (const char *const *) with, NULL);
  run_chase (&rig, 0, ws_bytes, level, &c);

  want = level_param_cycles (&rig, level);
  ck_assert_uint_eq (c.served, c.n_lines);
  assert_close (c.per_load, want, 0.05, ns_cause_name (level));
  assert_close (account_total (rig.machine) / c.n_lines, want, 0.05, "all causes");
  assert_close (c.ps_per_load, want * 1000.0 / ns_machine_ghz (rig.machine), 0.05, "time");
  rig_clear (&rig);
}

/* Generic defaults: L1D 32 KiB, L2 512 KiB, L3 8 MiB (victim cache), DRAM 80 ns. */
static const char *const generic_sets[] = { NULL };

/* A different part: other sizes, latencies, clock, an inclusive L3 with 3072 sets. */
static const char *const other_sets[] = {
  "cpu.freq_ghz", "2.5",
  "cache.l1d.size_kib", "48", "cache.l1d.assoc", "12", "cache.l1d.latency_cycles", "5",
  "cache.l2.size_kib", "1280", "cache.l2.assoc", "10", "cache.l2.latency_cycles", "15",
  "cache.l3.size_kib", "3072", "cache.l3.assoc", "16", "cache.l3.latency_cycles", "55",
  "cache.l3.inclusive", "true", "mem.dram_latency_ns", "110",
  NULL
};

START_TEST (test_chase_generic)
{
  const gsize kib = 1024;

  check_chase (generic_sets, 16 * kib, NS_CAUSE_L1);
  check_chase (generic_sets, 256 * kib, NS_CAUSE_L2);
  check_chase (generic_sets, 4096 * kib, NS_CAUSE_L3);
  check_chase (generic_sets, 32768 * kib, NS_CAUSE_DRAM);
}
END_TEST

/* Pages at random frames (the default): three quarters of the L2 no longer fit its sets,
 * some colours getting more than their share of pages, while on contiguous pages every
 * line is served by the L2. */
START_TEST (test_chase_random_frames)
{
  for (guint64 key = 1; key <= 2; key++) {
    Rig rig;
    Chase c = { 0 };

    rig_init (&rig, generic_sets, NULL);
    run_chase (&rig, key, 384 * 1024, NS_CAUSE_L2, &c);
    ck_assert_uint_lt (c.served, c.n_lines);
    ck_assert_uint_gt (c.served, c.n_lines / 2);
    rig_clear (&rig);
  }
  check_chase (generic_sets, 384 * 1024, NS_CAUSE_L2);
}
END_TEST

START_TEST (test_chase_other_part)
{
  const gsize kib = 1024;
  Rig rig;

  rig_init (&rig, other_sets, NULL);
  assert_close (ns_machine_level_cycles (rig.machine, NS_CAUSE_DRAM), 275.0, 1e-12, "dram");
  rig_clear (&rig);
  check_chase (other_sets, 24 * kib, NS_CAUSE_L1);
  check_chase (other_sets, 640 * kib, NS_CAUSE_L2);
  check_chase (other_sets, 1536 * kib, NS_CAUSE_L3);
  check_chase (other_sets, 12288 * kib, NS_CAUSE_DRAM);
}
END_TEST

START_TEST (test_chase_plru)
{
  /* tree PLRU where the ways are a power of two, LRU (with a message) where not: a working
   * set that fits a level still hits it every time */
  static const char *const plru_sets[] = {
    "cache.policy", "plru",
    "cache.l1d.size_kib", "48", "cache.l1d.assoc", "12",
    "cache.l2.size_kib", "1280", "cache.l2.assoc", "10",
    NULL
  };
  const gsize kib = 1024;

  check_chase (plru_sets, 16 * kib, NS_CAUSE_L1);
  check_chase (plru_sets, 640 * kib, NS_CAUSE_L2);
}
END_TEST

/* ---- inclusion victims ---- */

#define VICTIM_ROUNDS 24

typedef struct {
  NsMachine *machine;
  guint8    *base;     /* the hot line; stream line k at base + (k + 1) × stride */
  gsize      stride;   /* L2 sets × 64: every line in the hot line's L1 and L2 set */
  guint64    l3;       /* loads the L3 served */
} Victim;

/* Each round reads the hot line, then a new line of its set. */
static void
victim_thread (NsThread *t, gpointer data)
{
  Victim *v = data;

  ns_machine_account_reset (v->machine);
  for (guint k = 0; k < VICTIM_ROUNDS; k++) {
    ns_load_dep (t, v->base, sizeof (gpointer));
    ns_load_dep (t, v->base + (k + 1) * v->stride, sizeof (gpointer));
  }
  v->l3 = ns_machine_account_events (v->machine, NS_CAUSE_L3);
}

/* Loads the L3 served to a thread that reads one hot line between new lines of its set. */
static guint64
victim_l3_loads (const char *sees_l1_hits)
{
  const char *const sets[] = { "mem.page_frames", "contiguous",
                               "cache.l2.sees_l1_hits", sees_l1_hits, NULL };
  Rig rig;
  Victim v = { 0 };

  rig_init (&rig, sets, NULL);
  v.machine = rig.machine;
  v.stride = (gsize) param (&rig, "cache.l2.size_kib") * 1024 /
             (gsize) param (&rig, "cache.l2.assoc");
  v.base = ns_arena_alloc (ns_machine_arena (rig.machine), (VICTIM_ROUNDS + 1) * v.stride,
                           4096);
  rig_run (&rig, "victim", victim_thread, &v);
  rig_clear (&rig);
  return v.l3;
}

/* The hot line always hits the L1 (it stays most recent of its L1 set), but unless the L2
 * sees those hits, every eighth new line of the 8-way L2 set finds it least recent there
 * and evicts it, from the L1 too: rounds 8 and 16 read it back from the L3 (a victim
 * cache). With the hits seen, it never leaves. */
START_TEST (test_inclusion_victims)
{
  ck_assert_uint_eq (victim_l3_loads ("false"), 2);
  ck_assert_uint_eq (victim_l3_loads ("true"), 0);
}
END_TEST

/* ---- calls, returns, indirect calls, inlining ---- */

#define N_CALLS 1000

static NS_FUNC (fn_callee, "test_machine_callee", 200, NS_FRAME_UNKNOWN, NS_FN_NOINLINE, 2);
static NS_FUNC (fn_target, "test_machine_icall_target", 120, NS_FRAME_UNKNOWN, NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_inl, "test_machine_always_inline", 400, NS_FRAME_UNKNOWN, NS_FN_ALWAYS_INLINE, 9);
static NS_FUNC (fn_tail, "test_machine_tail_callee", 200, NS_FRAME_UNKNOWN, NS_FN_NOINLINE, 2);

typedef struct {
  NsMachine *machine;
  NsTime     end;
} Run;

static void
direct_calls_thread (NsThread *t, gpointer data)
{
  Run *run = data;

  for (guint i = 0; i < N_CALLS; i++) {
    ns_call (t, &fn_callee);
    ns_insns (t, 10);
    ns_ret (t);
  }
  ck_assert_uint_eq (ns_thread_call_depth (t), 0);
  run->end = ns_thread_now (t);
}

static void
indirect_calls_thread (NsThread *t, gpointer data)
{
  Run *run = data;

  for (guint i = 0; i < N_CALLS; i++) {
    ns_icall (t, &fn_target);
    ns_insns (t, 10);
    ns_ret (t);
  }
  run->end = ns_thread_now (t);
}

/* Runs fn on CPU 0 of a machine with mitigations mit; returns total cycles and end time. */
static double
run_calls (const NsMitigations *mit, NsThreadFunc fn, NsTime *end, double *penalty,
           NsCause cause, double *cause_cycles)
{
  Rig rig;
  Run run = { 0 };
  double total;

  rig_init (&rig, NULL, mit);
  run.machine = rig.machine;
  rig_run (&rig, "calls", fn, &run);
  total = account_total (rig.machine);
  *end = run.end;
  *penalty = cause == NS_CAUSE_RETTHUNK ? ns_machine_ret_penalty_cycles (rig.machine)
                                        : ns_machine_icall_penalty_cycles (rig.machine);
  *cause_cycles = account_cause (rig.machine, cause);
  if (fn == direct_calls_thread) {
    guint64 inlined = 1;
    ck_assert_uint_eq (ns_machine_account_calls (rig.machine, &fn_callee, &inlined), N_CALLS);
    ck_assert_uint_eq (inlined, 0);
  } else {
    ck_assert_uint_eq (ns_machine_account_calls (rig.machine, &fn_target, NULL), N_CALLS);
    ck_assert_uint_eq (ns_machine_account_events (rig.machine, NS_CAUSE_INDIRECT), N_CALLS);
  }
  rig_clear (&rig);
  return total;
}

/* Expected extra cycles per event given by the defaults. */
static double
default_param (const char *name)
{
  NsParams *p = ns_params_new ();
  double v = ns_params_get_double (p, name);
  ns_params_free (p);
  return v;
}

START_TEST (test_safe_ret_penalty)
{
  NsMitigations plain = { 0 }, safe_ret = { 0 }, unret = { 0 }, stuff = { 0 };
  double ipc = default_param ("cpu.ipc");
  double want = default_param ("branch.mispredict_cycles") +
                default_param ("branch.resolve_cycles") +
                default_param ("ret.safe_ret_insns") / ipc;
  NsTime end_plain, end_safe, end;
  double pen, thunk, total_plain, total_safe, total;

  safe_ret.srso = NS_SRSO_SAFE_RET;
  total_plain = run_calls (&plain, direct_calls_thread, &end_plain, &pen, NS_CAUSE_RETTHUNK,
                           &thunk);
  ck_assert (pen == 0.0 && thunk == 0.0);
  total_safe = run_calls (&safe_ret, direct_calls_thread, &end_safe, &pen, NS_CAUSE_RETTHUNK,
                          &thunk);
  assert_close (pen, want, 1e-12, "ret penalty helper");
  assert_close (thunk, N_CALLS * want, 1e-9, "RETTHUNK cycles");
  assert_close (total_safe - total_plain, N_CALLS * want, 1e-6, "account difference");
  assert_close ((double) (end_safe - end_plain), N_CALLS * want * 1000.0 / 3.0, 1e-6,
                "clock difference");

  /* retbleed unret and call-depth stuffing: their own per-return costs */
  unret.retbleed = NS_RETBLEED_UNRET;
  total = run_calls (&unret, direct_calls_thread, &end, &pen, NS_CAUSE_RETTHUNK, &thunk);
  assert_close (total - total_plain,
                N_CALLS * default_param ("ret.unret_insns") / default_param ("cpu.ipc"), 1e-6,
                "unret");
  stuff.retbleed = NS_RETBLEED_STUFF;
  total = run_calls (&stuff, direct_calls_thread, &end, &pen, NS_CAUSE_RETTHUNK, &thunk);
  assert_close (total - total_plain, N_CALLS * default_param ("ret.stuff_cycles"), 1e-6, "stuff");
}
END_TEST

START_TEST (test_icall_penalties)
{
  NsMitigations mit = { 0 };
  double ipc = default_param ("cpu.ipc");
  double predicted = default_param ("icall.predicted_cycles");
  double mispredict = default_param ("branch.mispredict_cycles");
  NsTime end_eibrs, end;
  double pen, ind, total_eibrs, total;
  struct {
    NsSpectreV2 mode;
    double      extra;   /* over eIBRS, per call */
  } cases[] = {
    { NS_SPECTRE_V2_RETPOLINE,
      mispredict + default_param ("branch.resolve_cycles") +
      default_param ("icall.retpoline_insns") / ipc - predicted },
    { NS_SPECTRE_V2_LFENCE, default_param ("icall.lfence_cycles") - predicted },
    { NS_SPECTRE_V2_IBRS, default_param ("icall.ibrs_cycles") },
    { NS_SPECTRE_V2_OFF, 0.0 },
    /* eIBRS with the thunks: the thunk's price, eIBRS adding nothing per call */
    { NS_SPECTRE_V2_EIBRS_RETPOLINE,
      mispredict + default_param ("branch.resolve_cycles") +
      default_param ("icall.retpoline_insns") / ipc - predicted },
    { NS_SPECTRE_V2_EIBRS_LFENCE, default_param ("icall.lfence_cycles") - predicted },
  };

  mit.spectre_v2 = NS_SPECTRE_V2_EIBRS;
  total_eibrs = run_calls (&mit, indirect_calls_thread, &end_eibrs, &pen, NS_CAUSE_INDIRECT,
                           &ind);
  assert_close (pen, predicted, 1e-12, "eibrs helper");
  assert_close (ind, N_CALLS * predicted, 1e-9, "eibrs INDIRECT");
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    mit.spectre_v2 = cases[i].mode;
    total = run_calls (&mit, indirect_calls_thread, &end, &pen, NS_CAUSE_INDIRECT, &ind);
    assert_close (pen - predicted, cases[i].extra, 1e-12, ns_spectre_v2_name (cases[i].mode));
    assert_close (total - total_eibrs, N_CALLS * cases[i].extra, 1e-6,
                  ns_spectre_v2_name (cases[i].mode));
    assert_close ((double) (end - end_eibrs), N_CALLS * cases[i].extra * 1000.0 / 3.0, 1e-6,
                  "clock difference");
  }

  /* legacy IBRS on eIBRS hardware (spectre_v2=ibrs on a CPU whose default is eIBRS):
   * IBRS=1 in the kernel is the enhanced kind, so its calls cost eIBRS's */
  mit.spectre_v2 = NS_SPECTRE_V2_IBRS;
  mit.ibrs_enhanced = TRUE;
  run_calls (&mit, indirect_calls_thread, &end, &pen, NS_CAUSE_INDIRECT, &ind);
  assert_close (pen, predicted, 1e-12, "legacy IBRS on eIBRS hardware");
  assert_close ((double) (end - end_eibrs), 0.0, 1e-6, "legacy IBRS on eIBRS hardware");
  mit.ibrs_enhanced = FALSE;

  /* under SRSO Safe RET the generic retpoline's own RET goes through the return thunk:
   * its instructions too, the forced mispredict still once; an LFENCE retpoline has no
   * RET */
  mit.srso = NS_SRSO_SAFE_RET;
  mit.spectre_v2 = NS_SPECTRE_V2_RETPOLINE;
  run_calls (&mit, indirect_calls_thread, &end, &pen, NS_CAUSE_INDIRECT, &ind);
  assert_close (pen - predicted, cases[0].extra + default_param ("ret.safe_ret_insns") / ipc,
                1e-12, "retpoline under Safe RET");
  mit.spectre_v2 = NS_SPECTRE_V2_LFENCE;
  run_calls (&mit, indirect_calls_thread, &end, &pen, NS_CAUSE_INDIRECT, &ind);
  assert_close (pen - predicted, cases[1].extra, 1e-12, "lfence retpoline under Safe RET");

  /* under retbleed=unret the thunk's RET is a jmp to the untrained return thunk; call depth
   * tracking's thunk ends in a plain ret (its accounting is the call's, in stuff_cycles) */
  mit.srso = NS_SRSO_OFF;
  mit.spectre_v2 = NS_SPECTRE_V2_RETPOLINE;
  mit.retbleed = NS_RETBLEED_UNRET;
  run_calls (&mit, indirect_calls_thread, &end, &pen, NS_CAUSE_INDIRECT, &ind);
  assert_close (pen - predicted, cases[0].extra + default_param ("ret.unret_insns") / ipc,
                1e-12, "retpoline under unret");
  mit.retbleed = NS_RETBLEED_STUFF;
  run_calls (&mit, indirect_calls_thread, &end, &pen, NS_CAUSE_INDIRECT, &ind);
  assert_close (pen - predicted, cases[0].extra, 1e-12, "retpoline under call depth tracking");
}
END_TEST

typedef struct {
  NsMachine *machine;
  NsTime     elapsed;
} InlineRun;

static void
inline_thread (NsThread *t, gpointer data)
{
  InlineRun *run = data;
  NsTime start;

  ns_call (t, &fn_inl);              /* warm: nothing to warm, but keep the shape */
  ns_ret (t);
  ns_machine_account_reset (run->machine);
  start = ns_thread_now (t);
  for (guint i = 0; i < N_CALLS; i++) {
    ns_call (t, &fn_inl);
    ck_assert_ptr_null (ns_thread_current_func (t));   /* attribution stays with caller */
    ns_insns (t, 3);
    ns_ret (t);
  }
  run->elapsed = ns_thread_now (t) - start;
  /* an inlined call inside an out-of-line one: the body goes to the outer function */
  ns_call (t, &fn_callee);
  ns_call (t, &fn_inl);
  ck_assert_ptr_eq (ns_thread_current_func (t), &fn_callee);
  ns_insns (t, 3);
  ns_ret (t);
  ck_assert_ptr_eq (ns_thread_current_func (t), &fn_callee);
  ns_ret (t);
  ck_assert_ptr_null (ns_thread_current_func (t));
}

START_TEST (test_inlined_calls_free)
{
  NsMitigations mit = { 0 };
  InlineRun run = { 0 };
  Rig rig;
  guint64 inlined = 0;
  double ipc = default_param ("cpu.ipc");

  mit.srso = NS_SRSO_SAFE_RET;      /* even with a costly return mitigation */
  rig_init (&rig, NULL, &mit);
  run.machine = rig.machine;
  rig_run (&rig, "inline", inline_thread, &run);

  ck_assert_uint_eq (ns_machine_account_calls (rig.machine, &fn_inl, &inlined), 0);
  ck_assert_uint_eq (inlined, N_CALLS + 1);
  ck_assert_uint_eq (ns_machine_account_calls (rig.machine, &fn_callee, NULL), 1);
  assert_close ((double) run.elapsed, N_CALLS * 3 / ipc * 1000.0 / 3.0, 1e-5, "time");
  assert_close (ns_machine_account_cycles (rig.machine, NULL, NS_CAUSE_INSN),
                N_CALLS * 3 / ipc, 1e-9, "caller INSN");
  for (guint c = 0; c < NS_CAUSE_N; c++)
    ck_assert (ns_machine_account_cycles (rig.machine, &fn_inl, (NsCause) c) == 0.0);
  assert_close (ns_machine_account_cycles (rig.machine, &fn_callee, NS_CAUSE_INSN), 3 / ipc,
                1e-9, "outer INSN");
  assert_close (ns_machine_account_cycles (rig.machine, &fn_callee, NS_CAUSE_RETTHUNK),
                ns_machine_ret_penalty_cycles (rig.machine), 1e-9, "one thunked return");
  ck_assert_uint_eq (ns_machine_account_events (rig.machine, NS_CAUSE_RETTHUNK), 1);
  rig_clear (&rig);
}
END_TEST

static NS_FUNC (fn_fresh, "test_machine_fresh", 200, NS_FRAME_UNKNOWN, NS_FN_NOINLINE, 2);

/* Calls the always-inline function, the plain callee and fn_fresh once each. */
static void
three_calls_thread (NsThread *t, gpointer data)
{
  (void) data;
  ns_call (t, &fn_inl);
  ns_ret (t);
  ns_call (t, &fn_callee);
  ns_ret (t);
  ns_call (t, &fn_fresh);
  ns_ret (t);
}

/* A machine without a build inlines only what is always inlined; a function no one
 * registered is registered at its first call, and its call counted as its own. */
START_TEST (test_no_build_and_first_call_registers)
{
  NsMitigations mit = { 0 };
  NsParams *params = params_with (NULL);
  GError *error = NULL;
  NsMachine *m = ns_machine_new (params, &mit, NULL, &error);
  NsEngine *e;
  guint64 inlined = 0;

  ck_assert_msg (m != NULL, "%s", error ? error->message : "?");
  ck_assert_ptr_null (ns_func_lookup ("test_machine_fresh"));
  e = ns_machine_create_engine (m);
  ns_engine_spawn (e, "three", 0, NS_THREAD_USER, 0, three_calls_thread, NULL);
  ns_engine_run (e, NS_TIME_FOREVER);

  ck_assert_uint_eq (ns_machine_account_calls (m, &fn_inl, &inlined), 0);
  ck_assert_uint_eq (inlined, 1);
  ck_assert_uint_eq (ns_machine_account_calls (m, &fn_callee, &inlined), 1);
  ck_assert_uint_eq (inlined, 0);
  ck_assert_ptr_eq (ns_func_lookup ("test_machine_fresh"), &fn_fresh);
  ck_assert_uint_eq (ns_machine_account_calls (m, &fn_fresh, NULL), 1);
  ns_engine_free (e);
  ns_machine_free (m);
  ns_params_free (params);
}
END_TEST

/* A function with its frame from a binary, and one without (NS_FRAME_UNKNOWN). */
static NS_FUNC (fn_framed, "test_machine_framed", 200, 20, NS_FN_NOINLINE, 2);
static NS_FUNC (fn_frame_zero, "test_machine_frame_zero", 200, 0, NS_FN_NOINLINE, 2);

static void
frames_thread (NsThread *t, gpointer data)
{
  (void) data;
  ns_call (t, &fn_framed);
  ns_ret (t);
  ns_call (t, &fn_frame_zero);
  ns_ret (t);
  ns_call (t, &fn_callee);
  ns_ret (t);
}

/* A call issues its call, its ret and its callee's own frame at the issue width: the
 * binary's count where the declaration gives one (0 is a count), else
 * call.prologue_insns (the window's distance and the text fetch count the same:
 * test_call_sequences_fill_the_window, test_ifetch_runs_the_frame). */
START_TEST (test_call_charges_its_frame)
{
  NsMitigations mit = { 0 };
  Rig rig;
  double width;

  rig_init (&rig, NULL, &mit);
  width = param (&rig, "cpu.issue_width");
  rig_run (&rig, "frames", frames_thread, NULL);
  assert_close (ns_machine_account_cycles (rig.machine, &fn_framed, NS_CAUSE_CALL),
                param (&rig, "call.cycles") + (2 + 20) / width, 1e-9, "frame 20");
  assert_close (ns_machine_account_cycles (rig.machine, &fn_frame_zero, NS_CAUSE_CALL),
                param (&rig, "call.cycles") + 2 / width, 1e-9, "frame 0");
  assert_close (ns_machine_account_cycles (rig.machine, &fn_callee, NS_CAUSE_CALL),
                call_cycles (&rig), 1e-9, "unknown frame: call.prologue_insns");
  ck_assert (param (&rig, "call.prologue_insns") != 20.0 &&
             param (&rig, "call.prologue_insns") != 0.0);
  rig_clear (&rig);
}
END_TEST

/* Three frames of 10 as IBT sees them: a global function, one whose census binary had
 * IBT (its endbr64 counted: NS_FN_ENDBR), and a static one no indirect call reaches. */
static NS_FUNC (fn_global, "test_machine_ibt_global", 200, 10, NS_FN_NOINLINE, 2);
static NS_FUNC (fn_global_endbr, "test_machine_ibt_endbr", 200, 10,
                NS_FN_NOINLINE | NS_FN_ENDBR, 2);
static NS_FUNC (fn_local, "test_machine_ibt_local", 200, 10, NS_FN_STATIC | NS_FN_NOINLINE, 2);

static void
ibt_thread (NsThread *t, gpointer data)
{
  NsFunc *fns[] = { &fn_global, &fn_global_endbr, &fn_local };

  (void) data;
  for (guint i = 0; i < G_N_ELEMENTS (fns); i++) {
    ns_call (t, fns[i]);
    ns_ret (t);
  }
}

/* CONFIG_X86_KERNEL_IBT (from 5.18-rc1) stated y puts an endbr64 at the entry of a
 * function an indirect call may reach, one instruction where its census had none; stated
 * n takes the counted one off; unstated (or a release without the option) each frame
 * stays as counted. A static function no pointer reaches never has one. */
START_TEST (test_ibt_endbr_by_build)
{
  static const struct {
    const char *version, *ibt;
    gint        global, endbr, local;     /* frame instructions a call runs */
  } cases[] = {
    { "6.9.0", NULL, 10, 10, 10 },
    { "6.9.0", "y", 11, 10, 10 },
    { "6.9.0", "n", 10, 9, 10 },
    { "5.17.0", "y", 10, 10, 10 },
  };
  NsMitigations mit = { 0 };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    GError *error = NULL;
    double width, base;
    Rig rig;

    rig.params = params_with (NULL);
    rig.build = ns_build_new (cases[i].version, 60);
    if (cases[i].ibt != NULL)
      ns_build_set_config (rig.build, "CONFIG_X86_KERNEL_IBT", cases[i].ibt);
    rig.machine = ns_machine_new (rig.params, &mit, rig.build, &error);
    ck_assert_msg (rig.machine != NULL, "%s", error ? error->message : "?");
    rig.engine = ns_machine_create_engine (rig.machine);
    width = param (&rig, "cpu.issue_width");
    base = param (&rig, "call.cycles");
    rig_run (&rig, "ibt", ibt_thread, NULL);
    assert_close (ns_machine_account_cycles (rig.machine, &fn_global, NS_CAUSE_CALL),
                  base + (2 + cases[i].global) / width, 1e-9, "global");
    assert_close (ns_machine_account_cycles (rig.machine, &fn_global_endbr, NS_CAUSE_CALL),
                  base + (2 + cases[i].endbr) / width, 1e-9, "endbr counted");
    assert_close (ns_machine_account_cycles (rig.machine, &fn_local, NS_CAUSE_CALL),
                  base + (2 + cases[i].local) / width, 1e-9, "static");
    rig_clear (&rig);
  }
}
END_TEST

static void
shrink_wrapped_thread (NsThread *t, gpointer data)
{
  (void) data;
  ns_call_shrink_wrapped (t, &fn_framed, 1);
  ns_ret (t);
  ns_call (t, &fn_framed);
  ns_ret (t);
  ns_call_shrink_wrapped (t, &fn_framed, 20);
  ns_ret (t);
  ns_call_shrink_wrapped (t, &fn_framed, 0);   /* a path with no frame at all */
  ns_ret (t);
}

/* A call whose path leaves before the frame (GCC shrink-wrapping) issues only the frame
 * instructions its path runs; another call of the same function still runs all of it
 * (two calls of 20, one of 1, one of none), and the reorder window counts the same. */
START_TEST (test_shrink_wrapped_call_skips_the_frame)
{
  NsMitigations mit = { 0 };
  Rig rig;
  double width;

  rig_init (&rig, NULL, &mit);
  width = param (&rig, "cpu.issue_width");
  rig_run (&rig, "wrapped", shrink_wrapped_thread, NULL);
  assert_close (ns_machine_account_cycles (rig.machine, &fn_framed, NS_CAUSE_CALL),
                4 * param (&rig, "call.cycles") + ((2 + 1) + 2 * (2 + 20) + 2) / width, 1e-9,
                "frames 1, 20, 20 and 0");
  rig_clear (&rig);
}
END_TEST

/* f calls g by a tail jump; then h likewise, but h is inlined (no jump left to make);
 * then f jumps to g from code inlined into it. */
static void
tail_thread (NsThread *t, gpointer data)
{
  (void) data;
  ns_call (t, &fn_callee);
  ns_tail_call (t, &fn_tail);
  ck_assert_ptr_eq (ns_thread_current_func (t), &fn_tail);
  ns_ret (t);
  ns_ret (t);
  ns_call (t, &fn_callee);
  ns_tail_call (t, &fn_inl);
  ns_ret (t);
  ns_ret (t);
  ns_call (t, &fn_callee);
  ns_call (t, &fn_inl);
  ns_tail_call (t, &fn_tail);
  ns_ret (t);
  ns_ret (t);
  ns_ret (t);
  /* announced, then cancelled by a return before any call: f returns itself */
  ns_call (t, &fn_callee);
  ns_tail_next (t);
  ns_ret (t);
}

START_TEST (test_tail_call_one_return)
{
  NsMitigations mit = { 0 };
  Rig rig;

  mit.srso = NS_SRSO_SAFE_RET;
  rig_init (&rig, NULL, &mit);
  rig_run (&rig, "tail", tail_thread, NULL);
  ck_assert_uint_eq (ns_machine_account_calls (rig.machine, &fn_tail, NULL), 2);
  ck_assert_uint_eq (ns_machine_account_calls (rig.machine, &fn_callee, NULL), 4);
  /* the tail-jumping caller's return is its callee's; with h inlined f returns itself */
  ck_assert_uint_eq (ns_machine_account_events (rig.machine, NS_CAUSE_RETTHUNK), 4);
  assert_close (ns_machine_account_cycles (rig.machine, &fn_tail, NS_CAUSE_RETTHUNK),
                2 * ns_machine_ret_penalty_cycles (rig.machine), 1e-9, "g's returns");
  assert_close (ns_machine_account_cycles (rig.machine, &fn_callee, NS_CAUSE_RETTHUNK),
                2 * ns_machine_ret_penalty_cycles (rig.machine), 1e-9, "f's own returns");
  rig_clear (&rig);
}
END_TEST

/* Two RDTSCs. */
static void
rdtsc_thread (NsThread *t, gpointer data)
{
  (void) data;
  ns_rdtsc (t);
  ns_rdtsc (t);
}

/* An RDTSC costs x86.rdtsc_cycles whatever cpu.ipc is, as one instruction (cause insn). */
START_TEST (test_rdtsc_cost)
{
  const char *const ipcs[] = { "0.5", "3" };

  for (guint i = 0; i < G_N_ELEMENTS (ipcs); i++) {
    const char *const sets[] = { "cpu.ipc", ipcs[i], "x86.rdtsc_cycles", "36", NULL };
    Rig rig;

    rig_init (&rig, sets, NULL);
    rig_run (&rig, "rdtsc", rdtsc_thread, NULL);
    assert_close (ns_machine_account_cycles (rig.machine, NULL, NS_CAUSE_INSN), 72.0, 1e-9,
                  "two RDTSCs");
    ck_assert_uint_eq (ns_machine_account_events (rig.machine, NS_CAUSE_INSN), 2);
    rig_clear (&rig);
  }
}
END_TEST

/* REP strings of 8, 127, 128 and 624 bytes. */
static void
rep_thread (NsThread *t, gpointer data)
{
  (void) data;
  ns_rep_string (t, 8);
  ns_rep_string (t, 127);
  ns_rep_string (t, 128);
  ns_rep_string (t, 624);
}

/* A REP string costs x86.rep_short_cycles below x86.rep_long_bytes and
 * x86.rep_long_cycles from it, whatever cpu.ipc is, as one instruction each; the step
 * follows the parameter. */
START_TEST (test_rep_string_cost)
{
  const char *const sets[] = { "cpu.ipc", "3", "x86.rep_short_cycles", "7",
                               "x86.rep_long_cycles", "40", NULL };
  const char *const moved[] = { "cpu.ipc", "0.5", "x86.rep_short_cycles", "7",
                                "x86.rep_long_cycles", "40", "x86.rep_long_bytes", "625",
                                NULL };
  Rig rig;

  rig_init (&rig, sets, NULL);
  rig_run (&rig, "rep", rep_thread, NULL);
  assert_close (ns_machine_account_cycles (rig.machine, NULL, NS_CAUSE_INSN),
                2 * 7.0 + 2 * 40.0, 1e-9, "two short and two long REP strings");
  ck_assert_uint_eq (ns_machine_account_events (rig.machine, NS_CAUSE_INSN), 4);
  rig_clear (&rig);
  rig_init (&rig, moved, NULL);
  rig_run (&rig, "rep", rep_thread, NULL);
  assert_close (ns_machine_account_cycles (rig.machine, NULL, NS_CAUSE_INSN), 4 * 7.0,
                1e-9, "all four short under a step at 625 bytes");
  rig_clear (&rig);
}
END_TEST

/* Five compare-and-branch pairs, fused, then five plain wide instructions. */
static void
fused_thread (NsThread *t, gpointer data)
{
  (void) data;
  ns_insns_fused (t, 5);
  ns_insns_wide (t, 5);
}

/* A fused compare-and-branch pair issues as one macro-op: five pairs cost what five wide
 * instructions cost (5 / cpu.issue_width each), and count as ten instructions. */
START_TEST (test_fused_pairs)
{
  const char *const sets[] = { "cpu.issue_width", "4", NULL };
  Rig rig;

  rig_init (&rig, sets, NULL);
  rig_run (&rig, "fused", fused_thread, NULL);
  assert_close (ns_machine_account_cycles (rig.machine, NULL, NS_CAUSE_INSN), 2 * 5 / 4.0,
                1e-9, "five fused pairs and five wide instructions");
  ck_assert_uint_eq (ns_machine_account_events (rig.machine, NS_CAUSE_INSN), 15);
  rig_clear (&rig);
}
END_TEST

/* A compare sequence of 12 instructions, three of its pairs fused: 9 macro-ops. */
static void
compares_thread (NsThread *t, gpointer data)
{
  (void) data;
  ns_insns_compares (t, 12, 3);
}

/* ns_insns_compares issues its fused pairs as one macro-op each and the rest one each, at
 * cpu.issue_width, whatever cpu.ipc: 12 instructions, 9 / 4 cycles. */
START_TEST (test_compare_sequence)
{
  const char *const sets[] = { "cpu.issue_width", "4", "cpu.ipc", "1", NULL };
  Rig rig;

  rig_init (&rig, sets, NULL);
  rig_run (&rig, "compares", compares_thread, NULL);
  assert_close (ns_machine_account_cycles (rig.machine, NULL, NS_CAUSE_INSN), 9 / 4.0,
                1e-9, "12 instructions, 3 fused pairs");
  ck_assert_uint_eq (ns_machine_account_events (rig.machine, NS_CAUSE_INSN), 12);
  rig_clear (&rig);
}
END_TEST

/* A call into a cold four-line function fetched whole (ifetch.text_bytes_per_insn 0): its
 * first line waits the DRAM latency beyond L1 less the lead the call itself gave the front
 * end, each following line that over ifetch.seq_mlp (the lead is spent); a second call
 * hits L1I. */
static NS_FUNC (fn_wide, "test_machine_wide", 256, NS_FRAME_UNKNOWN, NS_FN_NOINLINE, 2);

static void
wide_call_thread (NsThread *t, gpointer data)
{
  (void) data;
  for (int i = 0; i < 2; i++) {
    ns_call (t, &fn_wide);
    ns_ret (t);
  }
}

START_TEST (test_ifetch_first_and_following_lines)
{
  const char *const seqs[] = { "4", "30" };

  for (guint i = 0; i < G_N_ELEMENTS (seqs); i++) {
    const char *const sets[] = { "ifetch.seq_mlp", seqs[i],
                                 "ifetch.text_bytes_per_insn", "0", NULL };
    Rig rig;
    double wait;

    rig_init (&rig, sets, NULL);
    rig_run (&rig, "wide", wide_call_thread, NULL);
    wait = ns_machine_level_cycles (rig.machine, NS_CAUSE_DRAM) -
           param (&rig, "cache.l1d.latency_cycles");
    assert_close (ns_machine_account_cycles (rig.machine, &fn_wide, NS_CAUSE_IFETCH),
                  wait - call_cycles (&rig) + 3 * wait / g_ascii_strtod (seqs[i], NULL), 1e-9,
                  "first + 3 following");
    ck_assert_uint_eq (ns_machine_account_events (rig.machine, NS_CAUSE_IFETCH), 4);
    rig_clear (&rig);
  }
}
END_TEST

/* At ifetch.text_bytes_per_insn 4 a call fetches its entry line and runs through its own
 * prologue, epilogue and ret (7 instructions: 28 bytes, line 0); n body instructions then
 * fetch the lines up to 28 + 4n bytes, never past the function's end. */
static NS_FUNC (fn_run, "test_machine_run", 256, NS_FRAME_UNKNOWN, NS_FN_NOINLINE, 1);

static const char *const text_sets[] = { "ifetch.text_bytes_per_insn", "4",
                                         "call.prologue_insns", "6", NULL };

static void
run_body_thread (NsThread *t, gpointer data)
{
  ns_call (t, &fn_run);
  ns_insns (t, *(const guint *) data);
  ns_ret (t);
}

/* Text lines a thread running fn (data) misses, on a rig with sets. */
static guint64
misses_running (const char *const *sets, NsThreadFunc fn, gpointer data)
{
  Rig rig;
  guint64 misses;

  rig_init (&rig, sets, NULL);
  rig_run (&rig, "text", fn, data);
  misses = ns_machine_account_events (rig.machine, NS_CAUSE_IFETCH);
  rig_clear (&rig);
  return misses;
}

static NS_FUNC (fn_sizeless, "test_machine_sizeless", 0, NS_FRAME_UNKNOWN, NS_FN_NOINLINE, 1);

static void
sizeless_body_thread (NsThread *t, gpointer data)
{
  ns_call (t, &fn_sizeless);
  ns_insns (t, 1000);
  ns_ret (t);
}

/* Text lines a cold call into fn_run with `body` instructions misses, at `per_insn`. */
static guint64
run_body_misses (const char *per_insn, guint body)
{
  const char *const sets[] = { "ifetch.text_bytes_per_insn", per_insn,
                               "call.prologue_insns", "6", NULL };

  return misses_running (sets, run_body_thread, &body);
}

START_TEST (test_ifetch_follows_instructions)
{
  ck_assert_uint_eq (run_body_misses ("4", 0), 1);      /* the entry line */
  ck_assert_uint_eq (run_body_misses ("4", 9), 2);      /* 28 + 36 = 64: line 1 */
  ck_assert_uint_eq (run_body_misses ("4", 8), 1);      /* 60: still line 0 */
  ck_assert_uint_eq (run_body_misses ("4", 25), 3);     /* 128: line 2 */
  ck_assert_uint_eq (run_body_misses ("4", 1000), 4);   /* the end caps it */
  ck_assert_uint_eq (run_body_misses ("8", 0), 1);      /* 56 */
  ck_assert_uint_eq (run_body_misses ("8", 1), 2);      /* 56 + 8 = 64: line 1 */
  ck_assert_uint_eq (run_body_misses ("8", 9), 3);      /* 56 + 72 = 128: line 2 */
  ck_assert_uint_eq (run_body_misses ("0", 0), 4);      /* the whole-text rule */
  /* a function whose text size is not known (0 bytes) fetches nothing as it runs */
  ck_assert_uint_eq (misses_running (text_sets, sizeless_body_thread, NULL), 0);
}
END_TEST

/* A call runs through its callee's own frame from the binary: fn_run_framed's 20
 * prologue and epilogue instructions and ret (21 × 4 = 84 bytes) reach line 1 before its
 * body runs; 11 body instructions more (+44: 128) reach line 2. */
static NS_FUNC (fn_run_framed, "test_machine_run_framed", 256, 20, NS_FN_NOINLINE, 1);

static void
run_framed_thread (NsThread *t, gpointer data)
{
  ns_call (t, &fn_run_framed);
  ns_insns (t, *(const guint *) data);
  ns_ret (t);
}

START_TEST (test_ifetch_runs_the_frame)
{
  guint none = 0, eleven = 11, ten = 10;

  ck_assert_uint_eq (misses_running (text_sets, run_framed_thread, &none), 2);
  ck_assert_uint_eq (misses_running (text_sets, run_framed_thread, &ten), 2);   /* 124 */
  ck_assert_uint_eq (misses_running (text_sets, run_framed_thread, &eleven), 3);
}
END_TEST

/* The return site is where the caller's instructions had run to: fn_resume runs to its
 * line 2, a straight-line 64 KiB callee evicts the L1I, the return refetches line 2 and
 * the caller runs on into line 3. A second call into fn_resume then misses lines 0 and 1
 * only: its entry line in full, line 1 over ifetch.seq_mlp (both from L2). */
static NS_FUNC (fn_resume, "test_machine_resume", 256, NS_FRAME_UNKNOWN, NS_FN_NOINLINE, 2);
static NS_FUNC (fn_evict, "test_machine_evict", 65536, NS_FRAME_UNKNOWN, NS_FN_NOINLINE | NS_FN_STRAIGHT, 1);

typedef struct {
  NsMachine *machine;
  guint64    misses;     /* text lines the second call missed */
  double     waited;     /* their waits: charged and hidden by the lead */
} ResumeRun;

/* I-fetch cycles charged or hidden so far. */
static double
ifetch_waited (NsMachine *m)
{
  return ns_machine_account_cycles (m, &fn_resume, NS_CAUSE_IFETCH) +
         ns_machine_account_overlapped (m, NS_CAUSE_IFETCH);
}

static void
resume_thread (NsThread *t, gpointer data)
{
  ResumeRun *run = data;
  guint64 misses;
  double waited;

  ns_call (t, &fn_resume);
  ns_insns (t, 40);                     /* 28 + 160 = 188: lines 0-2 */
  ns_call (t, &fn_evict);
  ns_ret (t);                           /* the site: line 2 */
  ns_insns (t, 20);                     /* 268, capped: line 3 */
  ns_ret (t);
  misses = ns_machine_account_events (run->machine, NS_CAUSE_IFETCH);
  waited = ifetch_waited (run->machine);
  ns_call (t, &fn_resume);
  ns_insns (t, 1000);
  ns_ret (t);
  run->misses = ns_machine_account_events (run->machine, NS_CAUSE_IFETCH) - misses;
  run->waited = ifetch_waited (run->machine) - waited;
}

START_TEST (test_return_site_is_where_the_caller_ran_to)
{
  ResumeRun run = { 0 };
  Rig rig;
  double wait;

  rig_init (&rig, text_sets, NULL);
  run.machine = rig.machine;
  rig_run (&rig, "resume", resume_thread, &run);
  ck_assert_uint_eq (ns_machine_account_events (rig.machine, NS_CAUSE_IFETCH),
                     3 + 1024 + 1 + 1 + 2);
  ck_assert_uint_eq (run.misses, 2);
  wait = param (&rig, "cache.l2.latency_cycles") - param (&rig, "cache.l1d.latency_cycles");
  assert_close (run.waited, wait + wait / param (&rig, "ifetch.seq_mlp"), 1e-9,
                "lines 0 (entry) and 1 (following) from L2; 2 and 3 hit");
  rig_clear (&rig);
}
END_TEST

/* More of the executed-text rule (ifetch.text_bytes_per_insn 4, call.prologue_insns 6). */
static NS_FUNC (fn_text_outer, "test_machine_text_outer", 256, NS_FRAME_UNKNOWN, NS_FN_NOINLINE, 1);
static NS_FUNC (fn_text_inl, "test_machine_text_inl", 256, NS_FRAME_UNKNOWN, NS_FN_ALWAYS_INLINE, 1);
static NS_FUNC (fn_text_mid, "test_machine_text_mid", 256, NS_FRAME_UNKNOWN, NS_FN_NOINLINE, 1);

/* (a) instructions run in an inlined callee move the out-of-line caller's fetch on */
static void
text_inline_thread (NsThread *t, gpointer data)
{
  (void) data;
  ns_call (t, &fn_text_outer);
  ns_call (t, &fn_text_inl);
  ns_insns (t, 9);                      /* 28 + 36 = 64: the outer function's line 1 */
  ns_ret (t);
  ns_ret (t);
}

START_TEST (test_text_inlined_body_moves_caller)
{
  ck_assert_uint_eq (misses_running (text_sets, text_inline_thread, NULL), 2);
}
END_TEST

/* (b) the body's text is fetched before its instructions are charged: a cold call's line 1
 * waits its whole DRAM/seq_mlp (the call's lead went on the entry line), none of it hidden
 * by the 9 instructions' own cycles */
static void
text_order_thread (NsThread *t, gpointer data)
{
  (void) data;
  ns_call (t, &fn_text_outer);
  ns_insns (t, 9);
  ns_ret (t);
}

START_TEST (test_text_fetch_before_charge)
{
  Rig rig;
  double wait;

  rig_init (&rig, text_sets, NULL);
  rig_run (&rig, "text", text_order_thread, NULL);
  wait = ns_machine_level_cycles (rig.machine, NS_CAUSE_DRAM) -
         param (&rig, "cache.l1d.latency_cycles");
  ck_assert_uint_eq (ns_machine_account_events (rig.machine, NS_CAUSE_IFETCH), 2);
  assert_close (ns_machine_account_cycles (rig.machine, &fn_text_outer, NS_CAUSE_IFETCH),
                wait - call_cycles (&rig) + wait / param (&rig, "ifetch.seq_mlp"), 1e-9,
                "entry less the call's lead + line 1 in full");
  rig_clear (&rig);
}
END_TEST

/* (c) PAUSE / RDTSC are instructions of the function too */
static void
text_pause_thread (NsThread *t, gpointer data)
{
  (void) data;
  ns_call (t, &fn_text_outer);
  ns_insns (t, 8);                      /* 60 */
  ns_pause (t);                         /* 64: line 1 */
  ns_ret (t);
}

START_TEST (test_text_fixed_cost_insn_runs_text)
{
  ck_assert_uint_eq (misses_running (text_sets, text_pause_thread, NULL), 2);
}
END_TEST

/* (d) a return from a tail-called function lands where the tail-jumper's caller ran to:
 * outer runs to line 2, mid (tail-jumped from after 60 insns) jumps to the evicting
 * straight-line callee; its return refetches outer's line 2; a second call of outer then
 * misses lines 0 and 1 only. Also: a second frame at the same depth starts at 0 (mid). */
typedef struct { NsMachine *machine; guint64 misses; } TextTailRun;

static void
text_tail_thread (NsThread *t, gpointer data)
{
  TextTailRun *run = data;
  guint64 before;

  ns_call (t, &fn_text_outer);
  ns_insns (t, 40);                     /* 188: lines 0-2 */
  ns_call (t, &fn_text_mid);
  ns_insns (t, 60);                     /* 268: mid's lines 0-3 */
  ns_tail_call (t, &fn_evict);
  ns_ret (t);                           /* evict's return: outer's line 2 */
  ns_ret (t);                           /* mid's: silent */
  ns_ret (t);
  before = ns_machine_account_events (run->machine, NS_CAUSE_IFETCH);
  ns_call (t, &fn_text_outer);
  ns_insns (t, 40);
  ns_ret (t);
  run->misses = ns_machine_account_events (run->machine, NS_CAUSE_IFETCH) - before;
}

START_TEST (test_text_tail_return_site)
{
  TextTailRun run = { 0 };
  Rig rig;

  rig_init (&rig, text_sets, NULL);
  run.machine = rig.machine;
  rig_run (&rig, "text", text_tail_thread, &run);
  ck_assert_uint_eq (run.misses, 2);
  rig_clear (&rig);
}
END_TEST

/* (e) deep nesting past the frame stack's first allocation (16): each frame its own cursor */
static void
text_deep_thread (NsThread *t, gpointer data)
{
  guint depth = GPOINTER_TO_UINT (data);

  for (guint i = 0; i < depth; i++) {
    ns_call (t, &fn_text_outer);          /* recursion: one function, many frames */
    ns_insns (t, 1);
  }
  for (guint i = 0; i < depth; i++)
    ns_ret (t);
}

START_TEST (test_text_deep_frames)
{
  /* each frame ran 28 + 4 = 32 bytes: line 0 only; one miss in all */
  ck_assert_uint_eq (misses_running (text_sets, text_deep_thread, GUINT_TO_POINTER (40)), 1);
}
END_TEST

/* The front end's lead: instructions before a call into a cold one-line function. */
typedef struct {
  guint64 insns;          /* before the call */
  gboolean mispredict;    /* and a mispredict after them */
} LeadRun;

static NS_FUNC (fn_cold, "test_machine_cold", 64, NS_FRAME_UNKNOWN, NS_FN_NOINLINE, 1);

static void
lead_thread (NsThread *t, gpointer data)
{
  LeadRun *run = data;

  ns_insns (t, run->insns);
  if (run->mispredict)
    ns_mispredict (t, 1);
  ns_call (t, &fn_cold);
  ns_ret (t);
}

/* I-fetch charged to fn_cold after insns instructions (and a mispredict); *wait = its
 * line's DRAM latency beyond L1, *call = CALL cycles, *lead_max = the lead's cap. */
static double
lead_ifetch (guint64 insns, gboolean mispredict, double *wait, double *call, double *lead_max)
{
  LeadRun run = { insns, mispredict };
  Rig rig;
  double got;

  rig_init (&rig, NULL, NULL);
  rig_run (&rig, "lead", lead_thread, &run);
  got = ns_machine_account_cycles (rig.machine, &fn_cold, NS_CAUSE_IFETCH);
  ck_assert_uint_eq (ns_machine_account_events (rig.machine, NS_CAUSE_IFETCH), 1);
  *wait = ns_machine_level_cycles (rig.machine, NS_CAUSE_DRAM) -
          param (&rig, "cache.l1d.latency_cycles");
  /* what the lead hid is accounted, and with what was charged makes the whole wait */
  assert_close (got + ns_machine_account_overlapped (rig.machine, NS_CAUSE_IFETCH), *wait,
                1e-9, "charged + overlapped");
  *call = call_cycles (&rig);
  *lead_max = param (&rig, "cpu.rob_entries") / param (&rig, "cpu.ipc");
  rig_clear (&rig);
  return got;
}

START_TEST (test_ifetch_lead)
{
  double wait, call, lead_max, got;

  /* 60 instructions at IPC 1.5: 40 cycles of work the front end ran ahead by, and the
   * call's own */
  got = lead_ifetch (60, FALSE, &wait, &call, &lead_max);
  assert_close (got, wait - 40.0 - call, 1e-9, "lead 40");
  /* a mispredict restarts fetch: only the call's lead is left */
  got = lead_ifetch (60, TRUE, &wait, &call, &lead_max);
  assert_close (got, wait - call, 1e-9, "after a mispredict");
  /* no further than a reorder buffer's worth of instructions at cpu.ipc */
  got = lead_ifetch (100000, FALSE, &wait, &call, &lead_max);
  ck_assert (wait > lead_max);
  assert_close (got, wait - lead_max, 1e-9, "lead capped");
}
END_TEST

/* The shadow of a data miss: a dependent load served by DRAM, then `gap` instructions,
 * then (if mispredict) a mispredict, then a call and `beside` independent instructions. */
typedef struct {
  guint8  *obj;
  guint    gap;
  gboolean mispredict;
} ShadowRun;

static NS_FUNC (fn_shadowed, "test_machine_shadowed", 64, NS_FRAME_UNKNOWN, NS_FN_NOINLINE, 1);

static void
shadow_thread (NsThread *t, gpointer data)
{
  ShadowRun *run = data;

  ns_call (t, &fn_shadowed);             /* text fetched before the miss: no I-fetch later */
  ns_ret (t);
  ns_load_dep (t, run->obj, 8);
  ns_insns (t, run->gap);
  if (run->mispredict)
    ns_mispredict (t, 1);
  ns_insns_beside (t, 12);
  ns_call (t, &fn_shadowed);
  ns_ret (t);
}

/* CALL + beside-work cycles charged after the miss (all at top level but the CALL). */
static double
shadowed_cycles (guint gap, gboolean mispredict, double *full)
{
  ShadowRun run = { NULL, gap, mispredict };
  Rig rig;
  double got;

  rig_init (&rig, NULL, NULL);
  run.obj = ns_arena_alloc (ns_machine_arena (rig.machine), 64, 64);
  rig_run (&rig, "shadow", shadow_thread, &run);
  /* the first call's CALL is in fn_shadowed's row too: take it out */
  got = ns_machine_account_cycles (rig.machine, &fn_shadowed, NS_CAUSE_CALL) -
        call_cycles (&rig) + ns_machine_account_cycles (rig.machine, NULL, NS_CAUSE_INSN) -
        gap / param (&rig, "cpu.ipc");
  *full = call_cycles (&rig) + 12 / param (&rig, "cpu.issue_width");
  /* what the shadow hid is accounted, and with what was charged makes the whole */
  assert_close (got + ns_machine_account_overlapped (rig.machine, NS_CAUSE_CALL) +
                ns_machine_account_overlapped (rig.machine, NS_CAUSE_INSN), *full, 1e-9,
                "charged + overlapped");
  rig_clear (&rig);
  return got;
}

START_TEST (test_miss_shadow)
{
  double full, got;

  /* right after a DRAM miss the call and its argument moves are free */
  got = shadowed_cycles (0, FALSE, &full);
  ck_assert (full > 0.0);
  assert_close (got, 0.0, 1e-9, "in the shadow");
  /* a mispredict drains it */
  got = shadowed_cycles (0, TRUE, &full);
  assert_close (got, full, 1e-9, "after a mispredict");
  /* further than a reorder buffer of instructions from the miss, nothing overlaps it */
  got = shadowed_cycles (1000, FALSE, &full);
  assert_close (got, full, 1e-9, "out of the window");
}
END_TEST

/* A Safe RET return after a data miss: a dependent load (of obj, served by DRAM unless
 * warm: by L1), `gap` instructions, then the return. */
typedef struct {
  guint8  *obj;
  guint    gap;
  gboolean warm;
} ForcedRun;

static void
forced_return_thread (NsThread *t, gpointer data)
{
  ForcedRun *run = data;

  if (run->warm)
    ns_load (t, run->obj, 8);
  ns_insns (t, 1000);                      /* any shadow the warming cast expires */
  ns_call (t, &fn_shadowed);
  ns_load_dep (t, run->obj, 8);
  ns_insns (t, run->gap);
  ns_ret (t);
}

/* The RETTHUNK cycles charged to the one return of forced_return_thread under srso, and
 * (hidden) what the miss's shadow hid of it; checks the two make the return's price. */
static double
forced_return_cycles (NsSrso srso, guint gap, gboolean warm, double *hidden)
{
  NsMitigations mit = { 0 };
  ForcedRun run = { NULL, gap, warm };
  double charged, pen;
  Rig rig;

  mit.srso = srso;
  rig_init (&rig, NULL, &mit);
  run.obj = ns_arena_alloc (ns_machine_arena (rig.machine), 64, 64);
  rig_run (&rig, "forced", forced_return_thread, &run);
  charged = account_cause (rig.machine, NS_CAUSE_RETTHUNK);
  *hidden = ns_machine_account_overlapped (rig.machine, NS_CAUSE_RETTHUNK);
  pen = ns_machine_ret_penalty_cycles (rig.machine);
  assert_close (charged + *hidden, pen, 1e-9, "charged + hidden");
  rig_clear (&rig);
  return charged;
}

START_TEST (test_forced_return_under_miss)
{
  double forced = default_param ("branch.mispredict_cycles") +
                  default_param ("branch.resolve_cycles");
  double insns = default_param ("ret.safe_ret_insns") / default_param ("cpu.ipc");
  double hidden, got;

  /* after a DRAM miss the forced mispredict's refill runs under it; the thunk's own
   * instructions do not */
  got = forced_return_cycles (NS_SRSO_SAFE_RET, 0, FALSE, &hidden);
  assert_close (hidden, forced, 1e-9, "refill hidden");
  assert_close (got, insns, 1e-9, "the instructions charged");
  /* after an L1 hit nothing is outstanding: the whole price */
  got = forced_return_cycles (NS_SRSO_SAFE_RET, 0, TRUE, &hidden);
  assert_close (hidden, 0.0, 1e-9, "no miss");
  assert_close (got, forced + insns, 1e-9, "whole price");
  /* further than a reorder buffer of instructions from the miss: none of it */
  got = forced_return_cycles (NS_SRSO_SAFE_RET, 1000, FALSE, &hidden);
  assert_close (hidden, 0.0, 1e-9, "out of the window");
  /* a plain return has no price to hide */
  got = forced_return_cycles (NS_SRSO_OFF, 0, FALSE, &hidden);
  assert_close (got + hidden, 0.0, 1e-9, "plain return");
}
END_TEST

/* An expired shadow stays gone: a DRAM miss, then more than cpu.rob_entries instructions
 * (its shadow unused), then a dependent load served by the L2, then independent work worth
 * more than the L2 miss's stall. Only the L2 miss's own stall (its latency beyond L1) can
 * hide that work, not the DRAM miss's shadow brought back. */
typedef struct {
  guint8 *dram_obj, *l2_obj, *evict;
} ExpiryRun;

static void
shadow_expiry_thread (NsThread *t, gpointer data)
{
  ExpiryRun *run = data;

  ns_load_dep (t, run->l2_obj, 8);                  /* into L1 and L2 */
  for (guint off = 0; off < 64 * 1024; off += 64)   /* out of the 32 KiB L1 again */
    ns_load (t, run->evict + off, 8);
  ns_insns (t, 1000);                                /* the eviction's shadows expire */
  ns_load_dep (t, run->dram_obj, 8);                 /* DRAM: a large shadow */
  ns_insns (t, 1000);                                /* ...which expires unused */
  ns_load_dep (t, run->l2_obj, 8);                   /* an L2 hit: a small one */
  ns_insns_beside (t, 100);
}

START_TEST (test_miss_shadow_expires)
{
  ExpiryRun run;
  double l2_stall, beside, hidden;
  Rig rig;

  rig_init (&rig, NULL, NULL);
  run.dram_obj = ns_arena_alloc (ns_machine_arena (rig.machine), 64, 64);
  run.l2_obj = ns_arena_alloc (ns_machine_arena (rig.machine), 64, 64);
  run.evict = ns_arena_alloc (ns_machine_arena (rig.machine), 64 * 1024, 64);
  rig_run (&rig, "expiry", shadow_expiry_thread, &run);
  l2_stall = param (&rig, "cache.l2.latency_cycles") - param (&rig, "cache.l1d.latency_cycles");
  beside = 100 / param (&rig, "cpu.issue_width");
  ck_assert (beside > l2_stall);
  hidden = ns_machine_account_overlapped (rig.machine, NS_CAUSE_INSN);
  assert_close (hidden, l2_stall, 1e-9, "only the L2 miss's stall hides work");
  rig_clear (&rig);
}
END_TEST

/* A load that costs nothing does not renew a miss's shadow: a DRAM miss, then
 * cpu.rob_entries - 10 instructions, then a dependent L1 hit or an independent DRAM miss
 * inside the first's window (which overlaps it whole: no cycles), then 20 instructions,
 * then beside-work: the first miss's shadow is more than a reorder buffer behind it. */
typedef struct {
  NsMachine *machine;
  guint8    *warm, *dram_a, *dram_b;
  guint      rob;
  int        second;   /* 0 none, 1 the L1 hit, 2 the overlapped miss */
} RenewRun;

static void
renew_thread (NsThread *t, gpointer data)
{
  RenewRun *run = data;

  ns_load (t, run->warm, 8);
  ns_insns (t, 1000);                        /* the warming's shadow expires */
  ns_machine_account_reset (run->machine);
  ns_load_dep (t, run->dram_a, 8);
  ns_insns (t, run->rob - 10);
  if (run->second == 1)
    ns_load_dep (t, run->warm, 8);
  else if (run->second == 2)
    ns_load (t, run->dram_b, 8);
  ns_insns (t, 20);
  ns_insns_beside (t, 12);
}

START_TEST (test_free_load_keeps_shadow_age)
{
  for (int second = 0; second <= 2; second++) {
    RenewRun run = { 0 };
    double dram;
    Rig rig;

    rig_init (&rig, NULL, NULL);
    run.machine = rig.machine;
    run.warm = ns_arena_alloc (ns_machine_arena (rig.machine), 64, 64);
    run.dram_a = ns_arena_alloc (ns_machine_arena (rig.machine), 64, 64);
    run.dram_b = ns_arena_alloc (ns_machine_arena (rig.machine), 64, 64);
    run.rob = (guint) param (&rig, "cpu.rob_entries");
    run.second = second;
    rig_run (&rig, "renew", renew_thread, &run);
    /* the second miss is free: only the first's latency is charged */
    dram = ns_machine_level_cycles (rig.machine, NS_CAUSE_DRAM);
    ck_assert_uint_eq (ns_machine_account_events (rig.machine, NS_CAUSE_DRAM),
                       (guint64) (second == 2 ? 2 : 1));
    assert_close (account_cause (rig.machine, NS_CAUSE_DRAM), dram, 1e-9, "one miss's wait");
    ck_assert_msg (ns_machine_account_overlapped (rig.machine, NS_CAUSE_INSN) == 0.0,
                   "second load %d: the expired shadow hid %g cycles", second,
                   ns_machine_account_overlapped (rig.machine, NS_CAUSE_INSN));
    rig_clear (&rig);
  }
}
END_TEST

/* A wait ends every overlap: a DRAM miss, then (if sleep) a 1 us sleep, then 12
 * instructions of beside-work. Returns the cycles of that work the miss's shadow hid. */
typedef struct {
  guint8  *obj;
  gboolean sleep;
} WaitShadowRun;

static void
wait_shadow_thread (NsThread *t, gpointer data)
{
  WaitShadowRun *run = data;

  ns_load_dep (t, run->obj, 8);
  if (run->sleep)
    ns_thread_sleep_until (t, ns_thread_now (t) + NS_US (1));
  ns_insns_beside (t, 12);
}

static double
hidden_after (gboolean sleep, double *full)
{
  WaitShadowRun run = { NULL, sleep };
  double hidden;
  Rig rig;

  rig_init (&rig, NULL, NULL);
  run.obj = ns_arena_alloc (ns_machine_arena (rig.machine), 64, 64);
  rig_run (&rig, "waiter", wait_shadow_thread, &run);
  hidden = ns_machine_account_overlapped (rig.machine, NS_CAUSE_INSN);
  *full = 12 / param (&rig, "cpu.issue_width");
  rig_clear (&rig);
  return hidden;
}

START_TEST (test_wait_ends_shadow)
{
  double full, hidden;

  hidden = hidden_after (FALSE, &full);
  assert_close (hidden, full, 1e-9, "no wait: all of it in the shadow");
  hidden = hidden_after (TRUE, &full);
  assert_close (hidden, 0.0, 1e-9, "after a sleep: none of it");
}
END_TEST

/* A return into a caller whose line a 64 KiB callee evicted from the L1I (not the L2):
 * after its 3000 instructions the front end's lead hides the refetch of the return site,
 * unless the return is a forced mispredict. */
static NS_FUNC (fn_site_caller, "test_machine_site_caller", 64, NS_FRAME_UNKNOWN, NS_FN_NOINLINE, 1);
static NS_FUNC (fn_site_big, "test_machine_site_big", 65536, NS_FRAME_UNKNOWN, NS_FN_NOINLINE | NS_FN_STRAIGHT, 1);

static void
return_site_thread (NsThread *t, gpointer data)
{
  (void) data;
  ns_call (t, &fn_site_caller);
  ns_call (t, &fn_site_big);
  ns_insns (t, 3000);
  ns_ret (t);
  ns_ret (t);
}

START_TEST (test_forced_return_refetches_site)
{
  NsMitigations modes[2] = { { 0 }, { 0 } };

  modes[1].srso = NS_SRSO_SAFE_RET;
  for (guint i = 0; i < 2; i++) {
    Rig rig;
    guint64 misses;
    double got;

    rig_init (&rig, NULL, &modes[i]);
    rig_run (&rig, "site", return_site_thread, NULL);
    misses = ns_machine_account_events (rig.machine, NS_CAUSE_IFETCH);
    got = ns_machine_account_cycles (rig.machine, &fn_site_caller, NS_CAUSE_IFETCH);
    /* the caller's line at the call, the callee's 1024, the return site again; the
     * caller's IFETCH: its cold line at the call (less the call's own lead), then the
     * site's refetch from L2 if the return was forced */
    ck_assert_uint_eq (misses, 1 + 1024 + 1);
    assert_close (got - (i == 0 ? 0.0 : param (&rig, "cache.l2.latency_cycles") -
                                         param (&rig, "cache.l1d.latency_cycles")),
                  ns_machine_level_cycles (rig.machine, NS_CAUSE_DRAM) -
                  param (&rig, "cache.l1d.latency_cycles") - call_cycles (&rig), 1e-9,
                  i == 0 ? "plain: the site's refetch hidden" : "safe ret: the L2 refetch waits");
    rig_clear (&rig);
  }
}
END_TEST

/* An inlined body with an out-of-line callee inside it: 2 + 4 instructions of its own,
 * 5 in the callee, an icall from the body (its INDIRECT is the body's, the returns of
 * both callees theirs). */
static void
inline_body_thread (NsThread *t, gpointer data)
{
  (void) data;
  ns_call (t, &fn_inl);
  ns_insns (t, 2);
  ns_call (t, &fn_callee);
  ns_insns (t, 5);
  ns_ret (t);
  ns_insns (t, 4);
  ns_icall (t, &fn_target);
  ns_ret (t);
  ns_ret (t);
}

START_TEST (test_inlined_body_account)
{
  NsMitigations mit = { 0 };
  Rig rig;
  double ipc = default_param ("cpu.ipc");
  double body_insn, caller_insn;

  mit.spectre_v2 = NS_SPECTRE_V2_RETPOLINE;
  mit.srso = NS_SRSO_SAFE_RET;
  rig_init (&rig, NULL, &mit);
  rig_run (&rig, "body", inline_body_thread, NULL);

  body_insn = ns_machine_account_inline_cycles (rig.machine, &fn_inl, NS_CAUSE_INSN);
  caller_insn = ns_machine_account_cycles (rig.machine, NULL, NS_CAUSE_INSN);
  /* the body holds its own 6 instructions, not the callee's 5 */
  assert_close (body_insn, 6 / ipc, 1e-9, "body INSN");
  /* ... which are also the caller's (the top level), as perf attributes inlined code */
  assert_close (caller_insn, 6 / ipc, 1e-9, "caller INSN");
  assert_close (ns_machine_account_inline_cycles (rig.machine, &fn_inl, NS_CAUSE_INDIRECT),
                ns_machine_icall_penalty_cycles (rig.machine), 1e-9, "body INDIRECT");
  ck_assert (ns_machine_account_inline_cycles (rig.machine, &fn_inl, NS_CAUSE_CALL) == 0.0);
  /* the thunked returns are the callees' own, not the body's, which has no return (until
   * 2026-12-04 a return into inlined code was also added to the body) */
  ck_assert (ns_machine_ret_penalty_cycles (rig.machine) > 0.0);
  ck_assert (ns_machine_account_inline_cycles (rig.machine, &fn_inl, NS_CAUSE_RETTHUNK) == 0.0);
  assert_close (ns_machine_account_cycles (rig.machine, &fn_callee, NS_CAUSE_RETTHUNK),
                ns_machine_ret_penalty_cycles (rig.machine), 1e-9, "callee's return");
  assert_close (ns_machine_account_cycles (rig.machine, &fn_target, NS_CAUSE_RETTHUNK),
                ns_machine_ret_penalty_cycles (rig.machine), 1e-9, "icall target's return");
  /* an out-of-line function has no inlined body */
  for (guint c = 0; c < NS_CAUSE_N; c++)
    ck_assert (ns_machine_account_inline_cycles (rig.machine, &fn_callee, (NsCause) c) == 0.0);
  assert_close (ns_machine_account_cycles (rig.machine, &fn_callee, NS_CAUSE_INSN), 5 / ipc,
                1e-9, "callee INSN");
  /* reset clears the bodies too */
  ns_machine_account_reset (rig.machine);
  ck_assert (ns_machine_account_inline_cycles (rig.machine, &fn_inl, NS_CAUSE_INSN) == 0.0);
  rig_clear (&rig);
}
END_TEST

/* The calling context of the engine whose innermost frame is func (inlined or not). */
static guint
find_context (NsEngine *e, NsFunc *func, gboolean inlined)
{
  for (guint id = 1; id < ns_engine_n_contexts (e); id++) {
    gboolean inl;
    if (ns_engine_context (e, id, &inl, NULL, NULL) == func && inl == inlined)
      return id;
  }
  ck_abort_msg ("no context of %s%s", func->name, inlined ? " (inlined)" : "");
  return 0;
}

START_TEST (test_context_and_event_account)
{
  NsMitigations mit = { 0 };
  Rig rig;
  double ipc = default_param ("cpu.ipc");
  guint body, callee, target, root;
  NsThread *t;

  mit.spectre_v2 = NS_SPECTRE_V2_RETPOLINE;
  rig_init (&rig, NULL, &mit);
  t = rig_run (&rig, "body", inline_body_thread, NULL);
  root = ns_thread_context (t);
  body = find_context (rig.engine, &fn_inl, TRUE);
  callee = find_context (rig.engine, &fn_callee, FALSE);
  target = find_context (rig.engine, &fn_target, FALSE);
  /* the inlined body's context has its 6 instructions and the icall it made ... */
  assert_close (ns_machine_account_context_cycles (rig.machine, body, NS_CAUSE_INSN),
                6 / ipc, 1e-9, "body INSN");
  assert_close (ns_machine_account_context_cycles (rig.machine, body, NS_CAUSE_INDIRECT),
                ns_machine_icall_penalty_cycles (rig.machine), 1e-9, "body INDIRECT");
  /* ... each callee its own instructions and the CALL into it, under the body */
  assert_close (ns_machine_account_context_cycles (rig.machine, callee, NS_CAUSE_INSN),
                5 / ipc, 1e-9, "callee INSN");
  ck_assert (ns_machine_account_context_cycles (rig.machine, callee, NS_CAUSE_CALL) > 0.0);
  ck_assert (ns_machine_account_context_cycles (rig.machine, body, NS_CAUSE_CALL) == 0.0);
  ns_engine_context (rig.engine, callee, NULL, NULL, &callee);
  ns_engine_context (rig.engine, target, NULL, NULL, &target);
  ck_assert_uint_eq (callee, body);
  ck_assert_uint_eq (target, body);
  /* the root ran nothing of its own, and every cause sums to the functions' account */
  for (guint c = 0; c < NS_CAUSE_N; c++) {
    double by_ctx = 0, by_func = ns_machine_account_cycles (rig.machine, NULL, c) +
      ns_machine_account_cycles (rig.machine, &fn_callee, c) +
      ns_machine_account_cycles (rig.machine, &fn_target, c);
    ck_assert (ns_machine_account_context_cycles (rig.machine, root, c) == 0.0);
    for (guint id = 1; id < ns_engine_n_contexts (rig.engine); id++)
      by_ctx += ns_machine_account_context_cycles (rig.machine, id, c);
    assert_close (by_ctx, by_func, 1e-12, ns_cause_name (c));
  }
  /* the event counts: 2 + 5 + 4 instructions, two out-of-line calls, one of them
   * indirect; no return thunk under retpoline alone */
  ck_assert_uint_eq (ns_machine_account_events (rig.machine, NS_CAUSE_INSN), 11);
  ck_assert_uint_eq (ns_machine_account_events (rig.machine, NS_CAUSE_CALL), 2);
  ck_assert_uint_eq (ns_machine_account_events (rig.machine, NS_CAUSE_INDIRECT), 1);
  ck_assert_uint_eq (ns_machine_account_events (rig.machine, NS_CAUSE_RETTHUNK), 0);
  ck_assert_str_eq (ns_event_name (NS_CAUSE_RETTHUNK), "ret-thunk");
  ck_assert_ptr_null (ns_event_name (NS_CAUSE_COPY));
  ns_machine_account_reset (rig.machine);
  ck_assert (ns_machine_account_context_cycles (rig.machine, body, NS_CAUSE_INSN) == 0.0);
  ck_assert_uint_eq (ns_machine_account_events (rig.machine, NS_CAUSE_INSN), 0);
  rig_clear (&rig);
}
END_TEST

/* ---- the L1 stride prefetcher ---- */

#define WALK_OBJS  4096             /* 4096 × 256 B = 1 MiB: beyond L1 and L2 */
#define WALK_STRIDE 256

static NS_LOAD_SITE (site_walk_a, "test_machine: walk a");
static NS_LOAD_SITE (site_walk_b, "test_machine: walk b");

typedef struct {
  guint8  *a, *b;                   /* two arrays walked by two sites */
  gboolean irregular;               /* walk a with alternating strides */
} Walk;

static void
walk_thread (NsThread *t, gpointer data)
{
  Walk *w = data;

  for (guint i = 0; i < WALK_OBJS; i++) {
    gsize off = w->irregular ? (gsize) (i / 2) * 2 * WALK_STRIDE + (i % 2) * 64 : (gsize) i * WALK_STRIDE;
    ns_load_site (t, &site_walk_a, TRUE, w->a + off, 8);
    ns_load_site (t, &site_walk_b, FALSE, w->b + (gsize) i * WALK_STRIDE, 8);
  }
}

/* Loads the machine served beyond the L1D. */
static guint64
loads_beyond_l1 (NsMachine *machine)
{
  return ns_machine_account_events (machine, NS_CAUSE_L2) +
         ns_machine_account_events (machine, NS_CAUSE_L3) +
         ns_machine_account_events (machine, NS_CAUSE_DRAM);
}

/* Loads served per level after one walk under sets (NULL: the defaults). */
static void
run_walk (const char *const *sets, gboolean irregular, guint64 *l1, guint64 *beyond)
{
  Rig rig;
  Walk w = { NULL, NULL, irregular };
  NsArena *arena;

  rig_init (&rig, sets, &(NsMitigations) { 0 });
  arena = ns_machine_arena (rig.machine);
  w.a = ns_arena_alloc (arena, (gsize) WALK_OBJS * WALK_STRIDE, 4096);
  w.b = ns_arena_alloc (arena, (gsize) WALK_OBJS * WALK_STRIDE, 4096);
  rig_run (&rig, "walk", walk_thread, &w);
  *l1 = ns_machine_account_events (rig.machine, NS_CAUSE_L1);
  *beyond = loads_beyond_l1 (rig.machine);
  rig_clear (&rig);
}

/* A walk's page crossings: loads that open a new 4 KiB page after the first. */
#define WALK_PAGE_CROSSINGS (WALK_OBJS * WALK_STRIDE / 4096 - 1)

START_TEST (test_stride_prefetch)
{
  static const char *const off[] = { "prefetch.l1_stride", "false", NULL };
  static const char *const crossing[] = { "prefetch.l1_stride_in_page", "false", NULL };
  guint64 l1, beyond;

  /* off: every load of both cold walks misses */
  run_walk (off, FALSE, &l1, &beyond);
  ck_assert_uint_eq (l1, 0);
  ck_assert_uint_eq (beyond, 2 * WALK_OBJS);
  /* allowed to cross pages: each site, keyed apart although interleaved, misses on its
   * first three loads (no stride, one stride, then the stride repeats and prefetching
   * starts) */
  run_walk (crossing, FALSE, &l1, &beyond);
  ck_assert_uint_eq (beyond, 2 * 3);
  ck_assert_uint_eq (l1, 2 * WALK_OBJS - 2 * 3);
  /* the default keeps prefetches in the load's page: the first load of each new page
   * misses too, but the stride survives the crossing (the next load prefetches again) */
  run_walk (NULL, FALSE, &l1, &beyond);
  ck_assert_uint_eq (beyond, 2 * (3 + WALK_PAGE_CROSSINGS));
  ck_assert_uint_eq (l1, 2 * WALK_OBJS - 2 * (3 + WALK_PAGE_CROSSINGS));
  /* an alternating stride (64, 448, 64, ...) never repeats: site a misses on every new
   * line, while site b still prefetches */
  run_walk (NULL, TRUE, &l1, &beyond);
  ck_assert_uint_eq (beyond, WALK_OBJS + 3 + WALK_PAGE_CROSSINGS);
}
END_TEST

/* One site's strided walk: n loads from base + first, stride bytes apart (negative: down). */
typedef struct {
  guint8 *base;
  gsize   first;
  gssize  stride;
  guint   n;
} Strided;

static NS_LOAD_SITE (site_strided, "test_machine: strided walk");

static void
strided_thread (NsThread *t, gpointer data)
{
  Strided *w = data;

  for (guint i = 0; i < w->n; i++)
    ns_load_site (t, &site_strided, FALSE, w->base + w->first + (gssize) i * w->stride, 8);
}

/* Loads of w served beyond the L1D under sets (NULL: the defaults). */
static guint64
strided_misses (const char *const *sets, Strided w)
{
  Rig rig;
  guint64 beyond;

  rig_init (&rig, sets, &(NsMitigations) { 0 });
  w.base = ns_arena_alloc (ns_machine_arena (rig.machine), 1 << 20, 4096);
  rig_run (&rig, "strided", strided_thread, &w);
  beyond = loads_beyond_l1 (rig.machine);
  rig_clear (&rig);
  return beyond;
}

START_TEST (test_stride_prefetch_page_limit)
{
  static const char *const crossing[] = { "prefetch.l1_stride_in_page", "false", NULL };
  /* 256 loads 256 bytes apart down from the top of 64 KiB: 16 pages, as seed 002's walk
   * descends through its caches */
  Strided down = { NULL, 65536 - 256, -256, 256 };
  /* a page's stride: every target lies in the next page */
  Strided pages = { NULL, 0, 4096, 64 };

  /* a descending stride stops at each page's bottom as an ascending one at its top: the
   * first three loads and the first of each of the 15 later pages miss */
  ck_assert_uint_eq (strided_misses (NULL, down), 3 + 15);
  ck_assert_uint_eq (strided_misses (crossing, down), 3);
  /* a stride of a page or more is learned but never prefetched */
  ck_assert_uint_eq (strided_misses (NULL, pages), 64);
  ck_assert_uint_eq (strided_misses (crossing, pages), 3);
}
END_TEST

/* ---- coherence ---- */

static const char *const two_socket_sets[] = {
  "cpu.sockets", "2", "cpu.ccx_per_socket", "2", "cpu.cores_per_ccx", "2", "cpu.smt", "2",
  "cpu.mlp", "1", "c2c.smt_ns", "7", "c2c.ccx_ns", "21", "c2c.socket_ns", "73",
  "c2c.remote_ns", "141",
  NULL
};

#define ROUNDS 200

typedef struct {
  NsMachine *machine;
  guint8    *line;
  guint      turn;
  gboolean   atomic;
  guint64    polls;        /* ns_insns (1) charged while waiting, since the reset */
} PingPong;

typedef struct {
  PingPong *pp;
  guint     me;
} Player;

static void
wait_turn (NsThread *t, PingPong *pp, guint me)
{
  while (pp->turn != me) {
    ns_insns (t, 1);
    pp->polls++;
    ns_thread_yield (t);
  }
}

static void
player_thread (NsThread *t, gpointer data)
{
  Player *pl = data;
  PingPong *pp = pl->pp;

  for (guint r = 0; r < ROUNDS; r++) {
    wait_turn (t, pp, pl->me);
    if (pp->atomic)
      ns_atomic (t, pp->line);
    else
      ns_store (t, pp->line, 8);
    if (r == 0 && pl->me == 0) {
      ns_machine_account_reset (pp->machine);   /* the first store was a plain miss */
      pp->polls = 0;
    }
    pp->turn = 1 - pl->me;
  }
}

/* The c2c parameter of a distance: half a round trip of a CAS ping-pong, cycles. */
static double
pingpong_cycles (Rig *rig, NsDistance dist)
{
  static const char *const names[] = {
    [NS_DIST_SMT] = "c2c.smt_ns", [NS_DIST_CCX] = "c2c.ccx_ns",
    [NS_DIST_SOCKET] = "c2c.socket_ns", [NS_DIST_REMOTE] = "c2c.remote_ns"
  };

  return param (rig, names[dist]) * param (rig, "cpu.freq_ghz");
}

/* Two threads on cpu 0 and `other` hand one line back and forth ROUNDS times each. A
 * locked hand-off costs the ping-pong's half round trip (the c2c parameter) in all; a
 * store's transfer is that less the locked RMW, over cpu.mlp. */
static void
check_pingpong (const char *const *sets, NsDistance dist, gboolean atomic)
{
  Rig rig;
  PingPong pp = { 0 };
  Player a = { &pp, 0 }, b = { &pp, 1 };
  guint other = 0;
  double transfer, per, lock;
  guint64 transfers;

  rig_init (&rig, sets, NULL);
  ck_assert (ns_machine_cpu_at (rig.machine, 0, dist, &other));
  pp.machine = rig.machine;
  pp.atomic = atomic;
  pp.line = ns_arena_alloc (ns_machine_arena (rig.machine), 64, 64);
  ns_engine_spawn (rig.engine, "a", 0, NS_THREAD_USER, 0, player_thread, &a);
  ns_engine_spawn (rig.engine, "b", other, NS_THREAD_USER, 0, player_thread, &b);
  ns_engine_run (rig.engine, NS_TIME_FOREVER);

  transfers = ns_machine_account_events (rig.machine, NS_CAUSE_COHERENCE);
  ck_assert_uint_eq (transfers, 2 * ROUNDS - 1);
  lock = param (&rig, "lock.atomic_cycles");
  /* beyond an L1 hit: the ping-pong less the RMW, whose own L1 read the transfer replaces */
  transfer = pingpong_cycles (&rig, dist) - lock;
  ck_assert (transfer > 0);
  assert_close (ns_machine_transfer_cycles (rig.machine, 0, other),
                transfer + param (&rig, "cache.l1d.latency_cycles"), 1e-9, "load-to-use");
  per = account_cause (rig.machine, NS_CAUSE_COHERENCE) / transfers;
  if (atomic)
    assert_close (per + lock, pingpong_cycles (&rig, dist), 1e-9, "locked hand-off");
  else
    assert_close (per, transfer / param (&rig, "cpu.mlp"), 1e-9, "store transfer");
  /* INSN: the waiting polls, plus lock.atomic_cycles per atomic */
  assert_close (account_cause (rig.machine, NS_CAUSE_INSN),
                pp.polls / param (&rig, "cpu.ipc") + (atomic ? transfers * lock : 0.0), 1e-9,
                "insn");
  ck_assert_uint_gt (pp.polls, 0);
  rig_clear (&rig);
}

START_TEST (test_topology)
{
  Rig rig;
  guint cpu = 99;
  double l1;

  rig_init (&rig, two_socket_sets, NULL);
  ck_assert_uint_eq (ns_machine_n_cores (rig.machine), 8);
  ck_assert_uint_eq (ns_machine_n_cpus (rig.machine), 16);
  ck_assert_uint_eq (ns_machine_core_of (rig.machine, 9), 1);
  ck_assert_uint_eq (ns_machine_ccx_of (rig.machine, 3), 1);
  ck_assert_uint_eq (ns_machine_ccx_of (rig.machine, 13), 2);
  ck_assert_uint_eq (ns_machine_socket_of (rig.machine, 4), 1);
  ck_assert_uint_eq (ns_machine_socket_of (rig.machine, 11), 0);
  ck_assert_int_eq (ns_machine_distance (rig.machine, 0, 0), NS_DIST_SAME);
  ck_assert_int_eq (ns_machine_distance (rig.machine, 0, 8), NS_DIST_SMT);
  ck_assert_int_eq (ns_machine_distance (rig.machine, 0, 9), NS_DIST_CCX);
  ck_assert_int_eq (ns_machine_distance (rig.machine, 1, 3), NS_DIST_SOCKET);
  ck_assert_int_eq (ns_machine_distance (rig.machine, 3, 4), NS_DIST_REMOTE);
  ck_assert (ns_machine_cpu_at (rig.machine, 0, NS_DIST_SMT, &cpu) && cpu == 8);
  ck_assert (ns_machine_cpu_at (rig.machine, 0, NS_DIST_CCX, &cpu) && cpu == 1);
  ck_assert (ns_machine_cpu_at (rig.machine, 0, NS_DIST_SOCKET, &cpu) && cpu == 2);
  ck_assert (ns_machine_cpu_at (rig.machine, 0, NS_DIST_REMOTE, &cpu) && cpu == 4);
  /* the ping-pong figure (ns at 3 GHz) less one locked RMW (20 cycles), load-to-use:
   * plus the L1 hit the RMW's figure contains */
  l1 = ns_machine_level_cycles (rig.machine, NS_CAUSE_L1);
  assert_close (ns_machine_transfer_cycles (rig.machine, 0, 4), 141 * 3.0 - 20 + l1, 1e-12,
                "remote transfer");
  assert_close (ns_machine_transfer_cycles (rig.machine, 0, 8), 7 * 3.0 - 20 + l1, 1e-12,
                "smt transfer");
  ck_assert (ns_machine_transfer_cycles (rig.machine, 0, 0) == 0.0);
  rig_clear (&rig);
}
END_TEST

START_TEST (test_transfer_below_a_locked_rmw)
{
  /* a ping-pong of 5 ns at 3 GHz is 15 cycles, less than the 20 of the locked RMW it
   * contains: the transfer costs an L1 hit and a locked hand-off the RMW alone */
  static const char *const sets[] = {
    "cpu.sockets", "2", "cpu.ccx_per_socket", "2", "cpu.cores_per_ccx", "2", "cpu.smt", "2",
    "cpu.mlp", "1", "c2c.smt_ns", "7", "c2c.ccx_ns", "5", "c2c.socket_ns", "73",
    "c2c.remote_ns", "141",
    NULL
  };
  Rig rig;
  double l1;

  rig_init (&rig, sets, NULL);
  l1 = ns_machine_level_cycles (rig.machine, NS_CAUSE_L1);
  ck_assert (l1 > 0.0);
  ck_assert (ns_machine_transfer_cycles (rig.machine, 0, 1) == l1);
  ck_assert (ns_machine_transfer_cycles (rig.machine, 0, 8) == 1.0 + l1);
  rig_clear (&rig);
}
END_TEST

START_TEST (test_coherence_by_distance)
{
  static const NsDistance dists[] = {
    NS_DIST_SMT, NS_DIST_CCX, NS_DIST_SOCKET, NS_DIST_REMOTE
  };

  for (guint i = 0; i < G_N_ELEMENTS (dists); i++)
    check_pingpong (two_socket_sets, dists[i], FALSE);
}
END_TEST

/* A streaming copy of lines another core has just written: each source line streams at
 * the L3 copy bandwidth, plus what the transfer takes beyond it with mem.copy_mlp lines in
 * flight; each destination line that core owns costs its transfer over mem.copy_mlp. */
typedef struct {
  NsMachine *machine;
  guint8    *src, *dst;
  gsize      bytes;
  gboolean   written;
} CopyRun;

static void
copy_writer_thread (NsThread *t, gpointer data)
{
  CopyRun *run = data;

  ns_store (t, run->src, run->bytes);
  ns_store (t, run->dst, run->bytes);
  run->written = TRUE;
}

static void
copy_reader_thread (NsThread *t, gpointer data)
{
  CopyRun *run = data;

  while (!run->written) {
    ns_insns (t, 1);
    ns_thread_yield (t);
  }
  ns_machine_account_reset (run->machine);
  ns_copy (t, run->dst, run->src, run->bytes);
}

static void
check_copy_from (NsDistance dist)
{
  static const char *const sets[] = {
    "cpu.sockets", "2", "cpu.ccx_per_socket", "2", "cpu.cores_per_ccx", "2", "cpu.smt", "2",
    "c2c.smt_ns", "7", "c2c.ccx_ns", "21", "c2c.socket_ns", "73", "c2c.remote_ns", "141",
    "mem.copy_mlp", "8", "mem.bw_l3_bytes_per_cycle", "8", "cpu.mlp", "2",
    NULL
  };
  Rig rig;
  CopyRun run = { 0 };
  guint other = 0;
  double lines, stream, transfer;

  rig_init (&rig, sets, NULL);
  ck_assert (ns_machine_cpu_at (rig.machine, 0, dist, &other));
  run.machine = rig.machine;
  run.bytes = 4096;
  run.src = ns_arena_alloc (ns_machine_arena (rig.machine), run.bytes, 64);
  run.dst = ns_arena_alloc (ns_machine_arena (rig.machine), run.bytes, 64);
  ns_engine_spawn (rig.engine, "writer", other, NS_THREAD_USER, 0, copy_writer_thread, &run);
  rig_run (&rig, "reader", copy_reader_thread, &run);

  lines = run.bytes / 64.0;
  stream = 64.0 / 8.0;
  transfer = (ns_machine_transfer_cycles (rig.machine, 0, other) -
              param (&rig, "cache.l1d.latency_cycles")) / 8.0;
  ck_assert_uint_eq (ns_machine_account_events (rig.machine, NS_CAUSE_COHERENCE), 2 * lines);
  assert_close (account_cause (rig.machine, NS_CAUSE_COPY), lines * stream, 1e-9, "streamed");
  assert_close (account_cause (rig.machine, NS_CAUSE_COHERENCE),
                lines * (MAX (0.0, transfer - stream) + transfer), 1e-9, "transfers");
  rig_clear (&rig);
}

START_TEST (test_copy_from_another_core)
{
  /* within an L3 domain the transfers hide under the stream (63 cycles / 8 lines in
   * flight < 8 cycles a line); across sockets they do not (423 / 8 > 8) */
  check_copy_from (NS_DIST_CCX);
  check_copy_from (NS_DIST_REMOTE);
}
END_TEST

/* A copy into lines no other core holds, the copying core's own (its stores own them)
 * and lines nobody has touched: no transfer and no coherence event. */
static void
own_copy_thread (NsThread *t, gpointer data)
{
  CopyRun *run = data;

  ns_store (t, run->src, run->bytes);
  ns_store (t, run->dst, run->bytes);
  ns_machine_account_reset (run->machine);
  ns_copy (t, run->dst, run->src, run->bytes);
  ns_copy (t, run->dst + run->bytes, run->src, run->bytes);
}

START_TEST (test_copy_without_transfer)
{
  CopyRun run = { 0 };
  Rig rig;

  rig_init (&rig, NULL, NULL);
  run.machine = rig.machine;
  run.bytes = 4096;
  run.src = ns_arena_alloc (ns_machine_arena (rig.machine), run.bytes, 64);
  run.dst = ns_arena_alloc (ns_machine_arena (rig.machine), 2 * run.bytes, 64);
  rig_run (&rig, "own", own_copy_thread, &run);
  ck_assert_uint_eq (ns_machine_account_events (rig.machine, NS_CAUSE_COHERENCE), 0);
  ck_assert (account_cause (rig.machine, NS_CAUSE_COPY) > 0.0);
  rig_clear (&rig);
}
END_TEST

START_TEST (test_atomic_by_distance)
{
  /* atomics pay the full transfer even where independent misses overlap (mlp 2) */
  static const char *const sets[] = {
    "cpu.sockets", "2", "cpu.ccx_per_socket", "2", "cpu.cores_per_ccx", "2", "cpu.smt", "2",
    "cpu.mlp", "2", "c2c.smt_ns", "7", "c2c.ccx_ns", "21", "c2c.socket_ns", "73",
    "c2c.remote_ns", "141",
    NULL
  };
  static const NsDistance dists[] = {
    NS_DIST_SMT, NS_DIST_CCX, NS_DIST_SOCKET, NS_DIST_REMOTE
  };

  for (guint i = 0; i < G_N_ELEMENTS (dists); i++)
    check_pingpong (sets, dists[i], TRUE);
}
END_TEST

/* Scripted steps on several CPUs, each run in its turn: step i is op[i] by actor[i]. */
enum { OP_LOAD, OP_STORE, OP_STREAM, OP_STREAM_L1, OP_ATOMIC };

#define STREAM_BYTES (1024 * 1024)   /* twice the default L2 */
#define L1_STREAM_BYTES (128 * 1024) /* four times the default L1D, a quarter of its L2 */

typedef struct {
  NsMachine      *machine;
  guint8         *line;
  guint8         *stream;
  const guint    *actor;
  const guint    *op;
  guint           n_steps;
  guint           turn;
  double          cost[16];      /* cycles of each step, by account delta */
  guint64         l1_hits[16];   /* L1 load events during each step */
} Script;

typedef struct {
  Script *s;
  guint   me;              /* actor index */
} Actor;

static void
actor_thread (NsThread *t, gpointer data)
{
  Actor *ac = data;
  Script *s = ac->s;

  for (guint step = 0; step < s->n_steps; step++) {
    double before;
    guint64 l1_before;
    if (s->actor[step] != ac->me)
      continue;
    while (s->turn != step) {
      ns_insns (t, 1);
      ns_thread_yield (t);
    }
    before = account_total (s->machine) - account_cause (s->machine, NS_CAUSE_INSN);
    l1_before = ns_machine_account_events (s->machine, NS_CAUSE_L1);
    if (s->op[step] == OP_STORE)
      ns_store (t, s->line, 8);
    else if (s->op[step] == OP_LOAD)
      ns_load_dep (t, s->line, 8);
    else if (s->op[step] == OP_ATOMIC)
      ns_atomic (t, s->line);
    else
      for (gsize off = 0; off < (s->op[step] == OP_STREAM ? STREAM_BYTES : L1_STREAM_BYTES);
           off += 64)
        ns_load (t, s->stream + off, 8);
    s->cost[step] = account_total (s->machine) - account_cause (s->machine, NS_CAUSE_INSN) -
                    before;
    s->l1_hits[step] = ns_machine_account_events (s->machine, NS_CAUSE_L1) - l1_before;
    s->turn = step + 1;
  }
}

/* Runs a script with three actors on cpus[0..2] of the two-socket machine with extra
 * sets (NULL-terminated name, value pairs; NULL for none). */
static void
run_script_on (Rig *rig, const char *const *extra, Script *s, const guint *actor,
               const guint *op, guint n_steps, const guint *cpus)
{
  static Actor actors[3];
  g_autoptr (GPtrArray) sets = g_ptr_array_new ();

  for (guint i = 0; two_socket_sets[i] != NULL; i++)
    g_ptr_array_add (sets, (gpointer) two_socket_sets[i]);
  for (guint i = 0; extra != NULL && extra[i] != NULL; i++)
    g_ptr_array_add (sets, (gpointer) extra[i]);
  g_ptr_array_add (sets, NULL);
  rig_init (rig, (const char *const *) sets->pdata, NULL);
  s->machine = rig->machine;
  s->line = ns_arena_alloc (ns_machine_arena (rig->machine), 64, 64);
  s->stream = ns_arena_alloc (ns_machine_arena (rig->machine), STREAM_BYTES, 4096);
  s->actor = actor;
  s->op = op;
  s->n_steps = n_steps;
  for (guint i = 0; i < 3; i++) {
    actors[i].s = s;
    actors[i].me = i;
    ns_engine_spawn (rig->engine, "actor", cpus[i], NS_THREAD_USER, 0, actor_thread,
                     &actors[i]);
  }
  ns_engine_run (rig->engine, NS_TIME_FOREVER);
}

/* Runs a script with three actors on cpus[0..2] of the two-socket machine. */
static void
run_script (Rig *rig, Script *s, const guint *actor, const guint *op, guint n_steps,
            const guint *cpus)
{
  run_script_on (rig, NULL, s, actor, op, n_steps, cpus);
}

/* Steps: 0 actor 0 loads, 1 actor 0 loads again, 2 actor 1 loads, 3 actor 1 stores,
 * 4 actor 0 loads, 5 actor 2 loads, 6 actor 0 loads again, 7 actor 1 stores again,
 * 8 actor 0 loads again. */
static const guint script_actor[] = { 0, 0, 1, 1, 0, 2, 0, 1, 0 };
static const guint script_op[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };

START_TEST (test_store_invalidates)
{
  /* A on cpu 0, B on cpu 2 (other CCX, same socket), B' = B's SMT sibling on cpu 10 */
  static const guint cpus[] = { 0, 2, 10 };
  Rig rig;
  Script s = { 0 };
  double l1, c2c;

  run_script (&rig, &s, script_actor, script_op, G_N_ELEMENTS (script_actor), cpus);

  l1 = ns_machine_level_cycles (rig.machine, NS_CAUSE_L1);
  c2c = ns_machine_transfer_cycles (rig.machine, 0, 2);
  assert_close (s.cost[0], ns_machine_level_cycles (rig.machine, NS_CAUSE_DRAM), 1e-9, "cold");
  assert_close (s.cost[1], l1, 1e-9, "A hit");
  ck_assert_uint_eq (s.l1_hits[1], 1);
  assert_close (s.cost[2], c2c, 1e-9, "B reads A's clean copy");
  assert_close (s.cost[3], (c2c - l1) / param (&rig, "cpu.mlp"), 1e-9,
                "B's store invalidates A");
  assert_close (s.cost[4], c2c, 1e-9, "A's copy was invalidated: transfer");
  ck_assert_uint_eq (s.l1_hits[4], 0);
  assert_close (s.cost[5], l1, 1e-9, "B' shares B's caches: an L1 hit");
  ck_assert_uint_eq (s.l1_hits[5], 1);
  assert_close (s.cost[6], l1, 1e-9, "A hit again");
  /* A's read left B's line shared: B's next store must invalidate A again */
  assert_close (s.cost[7], (c2c - l1) / param (&rig, "cpu.mlp"), 1e-9, "B's second store");
  assert_close (s.cost[8], c2c, 1e-9, "A's copy was invalidated again");
  rig_clear (&rig);
}
END_TEST

START_TEST (test_smt_shares_caches)
{
  /* A on cpu 0, A' = its SMT sibling on cpu 8, C on cpu 1 (same CCX) */
  static const guint cpus[] = { 0, 8, 1 };
  Rig rig;
  Script s = { 0 };
  double l1;

  run_script (&rig, &s, script_actor, script_op, G_N_ELEMENTS (script_actor), cpus);

  l1 = ns_machine_level_cycles (rig.machine, NS_CAUSE_L1);
  assert_close (s.cost[2], l1, 1e-9, "sibling reads: shared L1");
  assert_close (s.cost[3], 0.0, 1e-9, "sibling upgrades a line only its core holds");
  assert_close (s.cost[4], l1, 1e-9, "A reads the sibling's write: no transfer");
  assert_close (s.cost[5], ns_machine_transfer_cycles (rig.machine, 0, 1), 1e-9,
                "C reads the core's Modified line");
  rig_clear (&rig);
}
END_TEST

START_TEST (test_nearest_and_farthest_holder)
{
  /* X on cpu 0, R on cpu 4 (other socket), N on cpu 1 (X's CCX). X and R read the line;
   * N's read is served by the nearest copy (X, same CCX); N's store must invalidate the
   * farthest (R, other socket). */
  static const guint cpus[] = { 0, 4, 1 };
  static const guint actor[] = { 0, 1, 2, 2, 1 };
  static const guint op[] = { OP_LOAD, OP_LOAD, OP_LOAD, OP_STORE, OP_LOAD };
  Rig rig;
  Script s = { 0 };

  run_script (&rig, &s, actor, op, G_N_ELEMENTS (actor), cpus);
  assert_close (s.cost[1], ns_machine_transfer_cycles (rig.machine, 4, 0), 1e-9, "R reads X");
  assert_close (s.cost[2], ns_machine_transfer_cycles (rig.machine, 1, 0), 1e-9, "nearest");
  assert_close (s.cost[3], (ns_machine_transfer_cycles (rig.machine, 1, 4) -
                           ns_machine_level_cycles (rig.machine, NS_CAUSE_L1)) /
                          param (&rig, "cpu.mlp"), 1e-9, "farthest");
  assert_close (s.cost[4], ns_machine_transfer_cycles (rig.machine, 4, 1), 1e-9, "R re-reads");
  rig_clear (&rig);
}
END_TEST

START_TEST (test_written_back_line)
{
  /* W on cpu 0 writes the line, then streams twice its L2 through: the Modified line is
   * written back into the CCX's victim L3. S on cpu 1 (same CCX) finds it there, not in W;
   * in a second run F on cpu 2 (other CCX) gets it from that L3 at cross-CCX distance,
   * not from DRAM. */
  static const guint cpus[] = { 0, 1, 2 };
  static const guint actor_s[] = { 0, 0, 1 };
  static const guint actor_f[] = { 0, 0, 2 };
  static const guint op[] = { OP_STORE, OP_STREAM, OP_LOAD };
  Rig rig;
  Script s = { 0 }, f = { 0 };

  run_script (&rig, &s, actor_s, op, G_N_ELEMENTS (op), cpus);
  assert_close (s.cost[2], level_param_cycles (&rig, NS_CAUSE_L3), 1e-9, "same CCX: L3 hit");
  rig_clear (&rig);
  run_script (&rig, &f, actor_f, op, G_N_ELEMENTS (op), cpus);
  assert_close (f.cost[2], ns_machine_transfer_cycles (rig.machine, 2, 0), 1e-9,
                "other CCX: from the L3 copy");
  rig_clear (&rig);
}
END_TEST

/* A 512 KiB victim L3 a CCX: a stream (1 MiB) through a core of the CCX pushes out
 * whatever its L3 held. */
static const char *const small_l3_sets[] = { "cache.l3.size_kib", "512", NULL };

START_TEST (test_evicted_l3_copy_is_gone)
{
  /* W on cpu 0 writes the line and streams its L2 through (the line written back into the
   * CCX's victim L3, the directory's CCX bit set); S on cpu 1 (same CCX) streams twice the
   * L3 through, which forgets the line silently; F on cpu 2 (other CCX) then finds no
   * copy anywhere, whatever the stale bit says: DRAM. */
  static const guint cpus[] = { 0, 1, 2 };
  static const guint actor[] = { 0, 0, 1, 1, 2 };
  static const guint op[] = { OP_STORE, OP_STREAM, OP_STREAM, OP_STREAM, OP_LOAD };
  Rig rig;
  Script s = { 0 };

  run_script_on (&rig, small_l3_sets, &s, actor, op, G_N_ELEMENTS (op), cpus);
  assert_close (s.cost[4], ns_machine_level_cycles (rig.machine, NS_CAUSE_DRAM), 1e-9,
                "no copy left: DRAM");
  rig_clear (&rig);
}
END_TEST

START_TEST (test_store_finds_l3_copy)
{
  /* W on cpu 0 writes the line and streams its L2 through (the line written back into the
   * CCX's victim L3); S on cpu 1 (same CCX) then writes it: the write's fill comes from
   * that L3, exposed like any store miss, with nothing to invalidate. */
  static const guint cpus[] = { 0, 1, 2 };
  static const guint actor[] = { 0, 0, 1 };
  static const guint op[] = { OP_STORE, OP_STREAM, OP_STORE };
  Rig rig;
  Script s = { 0 };

  run_script (&rig, &s, actor, op, G_N_ELEMENTS (op), cpus);
  assert_close (s.cost[2], (ns_machine_level_cycles (rig.machine, NS_CAUSE_L3) -
                            ns_machine_level_cycles (rig.machine, NS_CAUSE_L1)) /
                           param (&rig, "cpu.mlp"), 1e-9, "from the L3");
  rig_clear (&rig);
}
END_TEST

START_TEST (test_store_invalidates_remote_l3)
{
  /* R on cpu 2 writes the line and streams its L2 through (the line written back into its
   * CCX's victim L3); W on cpu 0 (the other CCX) writes it, which must take that L3 copy
   * away too, and streams its own L2 through (the line written back into its CCX's L3);
   * R's reload then comes from that L3 at cross-CCX distance, not from its own stale
   * copy. */
  static const guint cpus[] = { 0, 2, 1 };
  static const guint actor[] = { 1, 1, 0, 0, 1 };
  static const guint op[] = { OP_STORE, OP_STREAM, OP_STORE, OP_STREAM, OP_LOAD };
  Rig rig;
  Script s = { 0 };

  run_script (&rig, &s, actor, op, G_N_ELEMENTS (op), cpus);
  assert_close (s.cost[4], ns_machine_transfer_cycles (rig.machine, 2, 0), 1e-9,
                "from the writer's L3, not the stale copy");
  rig_clear (&rig);
}
END_TEST

START_TEST (test_owned_store_refills)
{
  /* W on cpu 0 writes the line, streams four L1s through (the Modified line drops to its
   * L2, W still its owner), then writes it again: no transfer, but the refill from the L2,
   * exposed like any store miss. A third store hits the L1: free. */
  static const guint cpus[] = { 0, 1, 2 };
  static const guint actor[] = { 0, 0, 0, 0 };
  static const guint op[] = { OP_STORE, OP_STREAM_L1, OP_STORE, OP_STORE };
  Rig rig;
  Script s = { 0 };
  double refill;

  run_script (&rig, &s, actor, op, G_N_ELEMENTS (op), cpus);
  refill = (ns_machine_level_cycles (rig.machine, NS_CAUSE_L2) -
            ns_machine_level_cycles (rig.machine, NS_CAUSE_L1)) / param (&rig, "cpu.mlp");
  ck_assert (refill > 0.0);
  assert_close (s.cost[2], refill, 1e-9, "owned line back from the L2");
  assert_close (s.cost[3], 0.0, 1e-9, "owned line in the L1");
  ck_assert_uint_eq (ns_machine_account_events (rig.machine, NS_CAUSE_COHERENCE), 0);
  rig_clear (&rig);
}
END_TEST

START_TEST (test_atomic_miss_beyond_l1)
{
  /* lock.atomic_cycles is measured on a line in L1, so a locked RMW of a line this core
   * must fetch adds only the serving level's latency beyond L1: a cold line's DRAM, then
   * (after four L1s stream through) the owned line's L2, then nothing. */
  static const guint cpus[] = { 0, 1, 2 };
  static const guint actor[] = { 0, 0, 0, 0 };
  static const guint op[] = { OP_ATOMIC, OP_STREAM_L1, OP_ATOMIC, OP_ATOMIC };
  Rig rig;
  Script s = { 0 };
  double l1;

  run_script (&rig, &s, actor, op, G_N_ELEMENTS (op), cpus);
  l1 = ns_machine_level_cycles (rig.machine, NS_CAUSE_L1);
  ck_assert (l1 > 0.0);
  assert_close (s.cost[0], ns_machine_level_cycles (rig.machine, NS_CAUSE_DRAM) - l1, 1e-9,
                "cold line from DRAM");
  assert_close (s.cost[2], ns_machine_level_cycles (rig.machine, NS_CAUSE_L2) - l1, 1e-9,
                "owned line back from the L2");
  assert_close (s.cost[3], 0.0, 1e-9, "owned line in the L1");
  ck_assert_uint_eq (ns_machine_account_events (rig.machine, NS_CAUSE_COHERENCE), 0);
  rig_clear (&rig);
}
END_TEST

typedef struct {
  NsMachine *machine;
  guint8    *line, *stream;
  gsize      stream_bytes;
  guint      turn;
  NsCause    reload;       /* what served core 0's reload */
} Inclusion;

static void
inclusion_owner (NsThread *t, gpointer data)
{
  Inclusion *in = data;
  guint64 before[NS_CAUSE_N];

  ns_load_dep (t, in->line, 8);
  in->turn = 1;
  while (in->turn != 2) {
    ns_insns (t, 1);
    ns_thread_yield (t);
  }
  for (guint c = 0; c < NS_CAUSE_N; c++)
    before[c] = ns_machine_account_events (in->machine, (NsCause) c);
  ns_load_dep (t, in->line, 8);
  for (guint c = 0; c < NS_CAUSE_N; c++)
    if (ns_machine_account_events (in->machine, (NsCause) c) != before[c])
      in->reload = (NsCause) c;
}

static void
inclusion_streamer (NsThread *t, gpointer data)
{
  Inclusion *in = data;

  while (in->turn != 1) {
    ns_insns (t, 1);
    ns_thread_yield (t);
  }
  for (gsize off = 0; off < in->stream_bytes; off += 64)
    ns_load (t, in->stream + off, 8);
  in->turn = 2;
}

/* Core 0 reads a line, core 1 of the same CCX streams twice the L3 through it: what
 * serves core 0's reload? */
static NsCause
inclusion_reload (const char *inclusive)
{
  const char *const sets[] = {
    "cache.l3.size_kib", "1024", "cache.l3.inclusive", inclusive, NULL
  };
  Rig rig;
  Inclusion in = { 0 };

  rig_init (&rig, sets, NULL);
  in.machine = rig.machine;
  in.line = ns_arena_alloc (ns_machine_arena (rig.machine), 64, 64);
  in.stream_bytes = 2048 * 1024;
  in.stream = ns_arena_alloc (ns_machine_arena (rig.machine), in.stream_bytes, 4096);
  in.reload = NS_CAUSE_N;
  ns_engine_spawn (rig.engine, "owner", 0, NS_THREAD_USER, 0, inclusion_owner, &in);
  ns_engine_spawn (rig.engine, "streamer", 1, NS_THREAD_USER, 0, inclusion_streamer, &in);
  ns_engine_run (rig.engine, NS_TIME_FOREVER);
  rig_clear (&rig);
  return in.reload;
}

START_TEST (test_l3_inclusion)
{
  /* a victim-cache L3 leaves core 0's private copy alone; an inclusive one evicting the
   * line back-invalidates it there */
  ck_assert_int_eq (inclusion_reload ("false"), NS_CAUSE_L1);
  ck_assert_int_eq (inclusion_reload ("true"), NS_CAUSE_DRAM);
}
END_TEST

/* ---- system calls ---- */

typedef struct {
  NsMachine *machine;
  double     enter, exit;
} SyscallRun;

static void
syscall_thread (NsThread *t, gpointer data)
{
  SyscallRun *run = data;

  ns_syscall_enter (t);
  run->enter = ns_machine_account_cycles (run->machine, NULL, NS_CAUSE_SYSCALL);
  ns_syscall_exit (t);
  run->exit = ns_machine_account_cycles (run->machine, NULL, NS_CAUSE_SYSCALL) - run->enter;
}

START_TEST (test_syscall_pieces)
{
  double base = default_param ("syscall.base_cycles");
  double pti = default_param ("syscall.pti_cycles");
  double ibrs = default_param ("syscall.ibrs_cycles");
  double ibpb = default_param ("syscall.ibpb_cycles");
  double verw = default_param ("syscall.verw_cycles");
  double bhi = default_param ("syscall.bhi_loop_cycles");
  /* UNTRAIN_RET: its instructions at the default IPC, an LFENCE, one mitigated return */
  double untrain = default_param ("syscall.untrain_insns") / default_param ("cpu.ipc") +
                   default_param ("icall.lfence_cycles");
  double safe_ret = default_param ("branch.mispredict_cycles") +
                    default_param ("branch.resolve_cycles") +
                    default_param ("ret.safe_ret_insns") / default_param ("cpu.ipc");
  /* the jmp into the untrained return thunk stands for its ret (untrain_insns has the jmp) */
  double unret = default_param ("ret.unret_insns") / default_param ("cpu.ipc");
  struct {
    NsMitigations mit;
    double        enter, exit;
  } cases[] = {
    { { 0 }, base / 2, base / 2 },
    { { .pti = TRUE }, (base + pti) / 2, (base + pti) / 2 },
    { { .spectre_v2 = NS_SPECTRE_V2_IBRS, .pti = TRUE, .mds_verw = TRUE },
      (base + pti + ibrs) / 2, (base + pti + ibrs) / 2 + verw },
    { { .retbleed = NS_RETBLEED_IBRS }, (base + ibrs) / 2, (base + ibrs) / 2 },
    { { .srso = NS_SRSO_IBPB }, base / 2 + ibpb, base / 2 },
    /* retbleed=ibpb: ENTRY_IBPB, the same barrier as SRSO's, issued once */
    { { .retbleed = NS_RETBLEED_IBPB }, base / 2 + ibpb, base / 2 },
    { { .retbleed = NS_RETBLEED_IBPB, .srso = NS_SRSO_IBPB }, base / 2 + ibpb, base / 2 },
    { { .spectre_v2 = NS_SPECTRE_V2_EIBRS, .bhi = NS_BHI_LOOP }, base / 2 + bhi, base / 2 },
    { { .spectre_v2 = NS_SPECTRE_V2_RETPOLINE, .srso = NS_SRSO_SAFE_RET, .bhi = NS_BHI_HW },
      base / 2 + untrain + safe_ret, base / 2 },
    { { .retbleed = NS_RETBLEED_UNRET }, base / 2 + untrain + unret, base / 2 },
    { { .retbleed = NS_RETBLEED_STUFF }, base / 2, base / 2 },
    { { .spectre_v2 = NS_SPECTRE_V2_IBRS, .retbleed = NS_RETBLEED_IBRS, .srso = NS_SRSO_IBPB,
        .pti = TRUE, .mds_verw = TRUE, .bhi = NS_BHI_LOOP },
      (base + pti + ibrs) / 2 + ibpb + bhi, (base + pti + ibrs) / 2 + verw },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    Rig rig;
    SyscallRun run = { 0 };
    rig_init (&rig, NULL, &cases[i].mit);
    run.machine = rig.machine;
    rig_run (&rig, "sys", syscall_thread, &run);
    assert_close (run.enter, cases[i].enter, 1e-12, "syscall enter");
    assert_close (run.exit, cases[i].exit, 1e-12, "syscall exit");
    assert_close (account_total (rig.machine), cases[i].enter + cases[i].exit, 1e-12, "total");
    ck_assert_uint_eq (ns_machine_account_events (rig.machine, NS_CAUSE_SYSCALL), 1);
    /* UNTRAIN_RET (Safe RET or unret) counts its instructions, its call and its return
     * through the thunk, as perf would see them; nothing else counts any */
    {
      gboolean untrains = cases[i].mit.srso == NS_SRSO_SAFE_RET ||
                          cases[i].mit.retbleed == NS_RETBLEED_UNRET;
      ck_assert_uint_eq (ns_machine_account_events (rig.machine, NS_CAUSE_INSN),
                         untrains ? (guint64) default_param ("syscall.untrain_insns") : 0);
      ck_assert_uint_eq (ns_machine_account_events (rig.machine, NS_CAUSE_CALL), untrains);
      ck_assert_uint_eq (ns_machine_account_events (rig.machine, NS_CAUSE_RETTHUNK), untrains);
    }
    rig_clear (&rig);
  }
}
END_TEST

static void
pause_thread (NsThread *t, gpointer data)
{
  (void) data;
  ns_pause (t);
  ns_pause (t);
}

/* PAUSE (cpu_relax): x86.pause_cycles each, whatever the IPC, one instruction each. */
START_TEST (test_pause)
{
  Rig rig;

  rig_init (&rig, NULL, NULL);
  rig_run (&rig, "pause", pause_thread, NULL);
  assert_close (ns_machine_account_cycles (rig.machine, NULL, NS_CAUSE_INSN),
                2 * default_param ("x86.pause_cycles"), 1e-12, "pause cycles");
  ck_assert_uint_eq (ns_machine_account_events (rig.machine, NS_CAUSE_INSN), 2);
  rig_clear (&rig);
}
END_TEST

/* ---- overlap of misses ---- */

static NS_FUNC (fn_window_target, "test_machine_window_target", 64, NS_FRAME_UNKNOWN, NS_FN_NOINLINE, 3);

typedef struct {
  NsMachine *machine;
  guint8    *lines;        /* cold lines, one per load */
  double     cost[10];     /* DRAM cycles of each scripted load */
} WindowRun;

/* One cold independent load of line i: its DRAM cycles. */
static double
window_load (NsThread *t, WindowRun *w, guint i)
{
  double before = account_cause (w->machine, NS_CAUSE_DRAM);

  ns_load (t, w->lines + i * 4096, 8);
  return account_cause (w->machine, NS_CAUSE_DRAM) - before;
}

static void
window_thread (NsThread *t, gpointer data)
{
  WindowRun *w = data;

  w->cost[0] = window_load (t, w, 0);    /* opens a window */
  w->cost[1] = window_load (t, w, 1);    /* overlaps it */
  ns_insns (t, 300);                     /* beyond the 224-entry reorder buffer */
  w->cost[2] = window_load (t, w, 2);    /* opens a new one */
  ns_icall (t, &fn_window_target);       /* retpoline or predicted, by the mitigations */
  w->cost[3] = window_load (t, w, 3);
  ns_ret (t);                            /* through SRSO Safe RET, or plain */
  w->cost[7] = window_load (t, w, 8);
  ns_account_wait (t, NS_CAUSE_LOCK_WAIT, 1000);
  w->cost[4] = window_load (t, w, 4);    /* a wait drains the window */
  ns_load_dep (t, w->lines + 5 * 4096, 8);
  w->cost[5] = window_load (t, w, 6);    /* overlaps the dependent miss */
  ns_atomic (t, w->lines + 7 * 4096 + 64);
  w->cost[6] = window_load (t, w, 7);    /* a locked instruction closes the window */
  ns_rdtsc (t);
  w->cost[8] = window_load (t, w, 9);    /* a plain RDTSC orders nothing */
  ns_rdtsc_ordered (t);
  w->cost[9] = window_load (t, w, 10);   /* an ordered one waits for older loads */
}

/* Independent misses within cpu.rob_entries instructions overlap: the first waits its
 * latency beyond L1, the next only what it lasts longer. A retpoline's ret waits for the
 * loads that feed its target, so the next miss cannot overlap them; the LFENCE of an
 * lfence retpoline (spectre_v2=retpoline,lfence) lets nothing younger execute before
 * everything older completes, the same for the next miss; a Safe RET return is a forced
 * mispredict too, so nothing after it issues early; a predicted indirect call or return
 * leaves the window open; so does an RDTSC, where an ordered TSC read (RDTSCP) closes it. */
START_TEST (test_miss_overlap_window)
{
  static const NsMitigations retpoline = { .spectre_v2 = NS_SPECTRE_V2_RETPOLINE };
  static const NsMitigations eibrs = { .spectre_v2 = NS_SPECTRE_V2_EIBRS };
  static const NsMitigations safe_ret = { .spectre_v2 = NS_SPECTRE_V2_EIBRS,
                                          .srso = NS_SRSO_SAFE_RET };
  static const NsMitigations lfence = { .spectre_v2 = NS_SPECTRE_V2_LFENCE };
  /* eIBRS with the thunks: the thunk's forced mispredict or LFENCE all the same */
  static const NsMitigations eibrs_retpoline = { .spectre_v2 = NS_SPECTRE_V2_EIBRS_RETPOLINE };
  static const NsMitigations eibrs_lfence = { .spectre_v2 = NS_SPECTRE_V2_EIBRS_LFENCE };
  const NsMitigations *mits[] = { &retpoline, &eibrs, &safe_ret, &lfence, &eibrs_retpoline,
                                  &eibrs_lfence };

  for (guint i = 0; i < G_N_ELEMENTS (mits); i++) {
    Rig rig;
    WindowRun w = { 0 };
    double full;

    rig_init (&rig, NULL, mits[i]);
    w.machine = rig.machine;
    w.lines = ns_arena_alloc (ns_machine_arena (rig.machine), 11 * 4096, 4096);
    full = ns_machine_level_cycles (rig.machine, NS_CAUSE_DRAM) -
           ns_machine_level_cycles (rig.machine, NS_CAUSE_L1);
    rig_run (&rig, "window", window_thread, &w);
    assert_close (w.cost[0], full, 1e-9, "first miss");
    ck_assert (w.cost[1] < 1e-9);
    assert_close (w.cost[2], full, 1e-9, "a miss past the reorder buffer");
    if (ns_spectre_v2_thunked (mits[i]->spectre_v2))
      assert_close (w.cost[3], full, 1e-9, "a miss after a retpoline");
    else
      ck_assert (w.cost[3] < 1e-9);
    if (mits[i] == &safe_ret)
      assert_close (w.cost[7], full, 1e-9, "a miss after a Safe RET return");
    else
      ck_assert (w.cost[7] < 1e-9);
    assert_close (w.cost[4], full, 1e-9, "a miss after a wait");
    ck_assert (w.cost[5] < 1e-9);
    assert_close (w.cost[6], full, 1e-9, "a miss after a locked instruction");
    ck_assert (w.cost[8] < 1e-9);
    assert_close (w.cost[9], full, 1e-9, "a miss after an ordered TSC read");
    rig_clear (&rig);
  }
}
END_TEST

/* ---- the reorder buffer holds a call's own instructions ---- */

/* A callee whose frame a binary gives: 30 prologue and epilogue instructions. */
static NS_FUNC (fn_window_framed, "test_machine_window_framed", 64, 30, NS_FN_NOINLINE, 3);

typedef struct {
  WindowRun w;
  NsFunc   *target;        /* the function called */
  guint     calls;         /* out-of-line calls between the two misses */
} CallWindowRun;

/* A miss, then `calls` calls and returns (no work of their own), then another miss. */
static void
call_window_thread (NsThread *t, gpointer data)
{
  CallWindowRun *r = data;

  r->w.cost[0] = window_load (t, &r->w, 0);
  for (guint i = 0; i < r->calls; i++) {
    ns_call (t, r->target);
    ns_ret (t);
  }
  r->w.cost[1] = window_load (t, &r->w, 1);
}

/* The overlap window's distance counts a call's own instructions (call, return, the
 * callee's prologue and epilogue: 2 + its frame, or 2 + call.prologue_insns where it has
 * none) as the reorder buffer holds them: a miss behind fewer calls than fill
 * cpu.rob_entries overlaps the first, one behind more waits in full. */
START_TEST (test_call_sequences_fill_the_window)
{
  NsFunc *target = _i == 0 ? &fn_window_target : &fn_window_framed;
  guint seq = 2 + (_i == 0 ? (guint) default_param ("call.prologue_insns") : 30);
  guint rob = (guint) default_param ("cpu.rob_entries");
  guint counts[2] = { (rob - 1) / seq, rob / seq + 1 };

  for (guint i = 0; i < G_N_ELEMENTS (counts); i++) {
    Rig rig;
    CallWindowRun r = { { 0 }, target, counts[i] };
    double full;

    rig_init (&rig, NULL, NULL);
    r.w.machine = rig.machine;
    r.w.lines = ns_arena_alloc (ns_machine_arena (rig.machine), 2 * 4096, 4096);
    full = ns_machine_level_cycles (rig.machine, NS_CAUSE_DRAM) -
           ns_machine_level_cycles (rig.machine, NS_CAUSE_L1);
    rig_run (&rig, "calls", call_window_thread, &r);
    assert_close (r.w.cost[0], full, 1e-9, "first miss");
    if (i == 0)
      ck_assert_msg (r.w.cost[1] < 1e-9, "%u calls: %.1f cycles", r.calls, r.w.cost[1]);
    else
      assert_close (r.w.cost[1], full, 1e-9, "a miss past the calls' instructions");
    rig_clear (&rig);
  }
}
END_TEST

/* ---- attribution ---- */

static NS_FUNC (fn_outer, "test_machine_outer", 64, NS_FRAME_UNKNOWN, NS_FN_NOINLINE, 3);
static NS_FUNC (fn_inner, "test_machine_inner", 64, NS_FRAME_UNKNOWN, NS_FN_NOINLINE | NS_FN_INDIRECT, 3);

typedef struct {
  NsMachine *machine;
  guint8    *obj;
  guint8    *src, *dst;
  NsTime     wait_delta;
} AttrRun;

static void
attribution_thread (NsThread *t, gpointer data)
{
  AttrRun *run = data;
  NsTime before;

  ns_insns (t, 30);                      /* top level: 20 cycles at IPC 1.5 */
  ns_call (t, &fn_outer);                /* CALL + IFETCH on outer */
  ns_mispredict (t, 2);                  /* outer: 30 */
  ns_charge (t, NS_CAUSE_LOCK_WAIT, 7.5);
  ns_load (t, run->obj, 8);              /* outer: DRAM (240 − 4) / 2 */
  ns_load (t, run->obj, 8);              /* L1 hit: free */
  ns_icall (t, &fn_inner);               /* INDIRECT on outer, CALL on inner */
  ns_insns (t, 3);                       /* inner: 2 */
  ns_ret (t);
  ns_ret (t);
  before = ns_thread_now (t);
  ns_account_wait (t, NS_CAUSE_LOCK_WAIT, NS_NS (10));   /* top: 30 cycles, no time */
  run->wait_delta = ns_thread_now (t) - before;
  ns_copy (t, run->dst, run->src, 4096); /* top: DRAM bandwidth, 4 bytes/cycle */
  ns_copy (t, run->dst + 8192, run->src, 4096);   /* source now in L1: 32 bytes/cycle */
  ns_prefetch (t, run->obj + 4096);
  ns_load_dep (t, run->obj + 4096, 8);   /* prefetched: an L1 hit */
}

START_TEST (test_attribution_and_reset)
{
  Rig rig;
  AttrRun run = { 0 };
  NsMachine *m;
  guint64 inlined = 9;
  double call_cost;
  NsArena *arena;

  rig_init (&rig, NULL, NULL);
  m = run.machine = rig.machine;
  arena = ns_machine_arena (m);
  run.obj = ns_arena_alloc (arena, 8192, 64);
  run.src = ns_arena_alloc (arena, 4096, 64);
  run.dst = ns_arena_alloc (arena, 16384, 64);
  rig_run (&rig, "attr", attribution_thread, &run);

  call_cost = call_cycles (&rig);
  assert_close (ns_machine_account_cycles (m, NULL, NS_CAUSE_INSN), 20.0, 1e-12, "top insn");
  assert_close (ns_machine_account_cycles (m, &fn_outer, NS_CAUSE_CALL), call_cost, 1e-12,
                "outer call");
  /* one text line (64 bytes at a 64-byte aligned address), cold: the call target's first
   * line waits the DRAM latency beyond L1, 240 - 4, less the front end's lead: the top
   * level's 20 cycles of instructions and the call's own */
  assert_close (ns_machine_account_cycles (m, &fn_outer, NS_CAUSE_IFETCH),
                236.0 - 20.0 - call_cost, 1e-12, "outer ifetch");
  assert_close (ns_machine_account_cycles (m, &fn_outer, NS_CAUSE_MISPREDICT), 30.0, 1e-12,
                "outer mispredict");
  assert_close (ns_machine_account_cycles (m, &fn_outer, NS_CAUSE_LOCK_WAIT), 7.5, 1e-12,
                "outer lock wait");
  /* a lone independent miss opens an overlap window and waits 240 - 4 in full */
  assert_close (ns_machine_account_cycles (m, &fn_outer, NS_CAUSE_DRAM), 236.0, 1e-12,
                "outer independent DRAM load");
  assert_close (ns_machine_account_cycles (m, &fn_outer, NS_CAUSE_INDIRECT),
                param (&rig, "icall.predicted_cycles"), 1e-12, "indirect at the call site");
  /* the inner call's own instructions need nothing the outer DRAM load brings: they run
   * in its shadow */
  ck_assert (ns_machine_account_cycles (m, &fn_inner, NS_CAUSE_CALL) == 0.0);
  assert_close (ns_machine_account_cycles (m, &fn_inner, NS_CAUSE_INSN), 2.0, 1e-12,
                "inner insn");
  ck_assert (ns_machine_account_cycles (m, &fn_inner, NS_CAUSE_INDIRECT) == 0.0);
  ck_assert (ns_machine_account_cycles (m, &fn_outer, NS_CAUSE_INSN) == 0.0);
  ck_assert_int_eq (run.wait_delta, 0);
  assert_close (ns_machine_account_cycles (m, NULL, NS_CAUSE_LOCK_WAIT), 30.0, 1e-12,
                "waiting recorded");
  assert_close (ns_machine_account_cycles (m, NULL, NS_CAUSE_COPY),
                4096 / (12.0 / 3.0) + 4096 / 32.0, 1e-9, "copy by bandwidth");
  assert_close (ns_machine_account_cycles (m, NULL, NS_CAUSE_L1), 4.0, 1e-12, "prefetched");
  ck_assert_uint_eq (ns_machine_account_events (m, NS_CAUSE_DRAM), 1);
  ck_assert_uint_eq (ns_machine_account_events (m, NS_CAUSE_L1), 2);
  ck_assert_uint_eq (ns_machine_account_calls (m, &fn_outer, &inlined), 1);
  ck_assert_uint_eq (inlined, 0);
  ck_assert_uint_eq (ns_machine_account_calls (m, &fn_inner, NULL), 1);

  ns_machine_account_reset (m);
  ck_assert (account_total (m) == 0.0);
  ck_assert_uint_eq (ns_machine_account_calls (m, &fn_outer, NULL), 0);
  for (guint c = 0; c < NS_CAUSE_N; c++)
    ck_assert_uint_eq (ns_machine_account_events (m, (NsCause) c), 0);
  rig_clear (&rig);
}
END_TEST

/* Asserts that ns_machine_new refuses params with an input error naming every one of
 * names (NULL-terminated), the parameters the caller blames it on. */
static void
assert_machine_refused (NsParams *params, const char *const *names)
{
  GError *error = NULL;

  ck_assert_ptr_null (ns_machine_new (params, NULL, NULL, &error));
  ck_assert_ptr_nonnull (error);
  ck_assert (g_error_matches (error, NS_ERROR, NS_ERROR_INPUT));
  for (guint i = 0; names[i] != NULL; i++) {
    ck_assert_msg (strstr (error->message, names[i]) != NULL, "%s lacks %s", error->message,
                   names[i]);
    ck_assert_msg (ns_error_get_params (error) != NULL &&
                   g_strv_contains (ns_error_get_params (error), names[i]),
                   "%s: %s not among the parameters at fault", error->message, names[i]);
  }
  g_error_free (error);
  ns_params_free (params);
}

/* Model state kept on the machine: a key's value is returned until replaced, replacing
 * destroys the old value, and freeing the machine destroys what is left, once each. */
static void
count_destroy (gpointer p)
{
  (*(guint *) p)++;
}

START_TEST (test_machine_data)
{
  NsMitigations mit = { 0 };
  guint first = 0, second = 0;
  Rig rig;

  rig_init (&rig, NULL, &mit);
  ck_assert_ptr_null (ns_machine_get_data (rig.machine, "k"));
  ns_machine_set_data (rig.machine, "k", &first, count_destroy);
  ck_assert_ptr_eq (ns_machine_get_data (rig.machine, "k"), &first);
  ns_machine_set_data (rig.machine, "k", &second, count_destroy);
  ck_assert_uint_eq (first, 1);
  ck_assert_ptr_eq (ns_machine_get_data (rig.machine, "k"), &second);
  ck_assert_ptr_null (ns_machine_get_data (rig.machine, "other"));
  rig_clear (&rig);
  ck_assert_uint_eq (first, 1);
  ck_assert_uint_eq (second, 1);
}
END_TEST

/* Geometry the model cannot build is refused naming every parameter behind it, so that
 * the run can blame the sets that gave them: a 2 KiB L1D cannot hold one set of 64 ways
 * of 64-byte lines (64 x 64 = 4 KiB), nor a 1 KiB L3 one of 32; 8 sockets x 8 L3 domains
 * x 256 cores exceeds the 4096 cores the model holds. An L3 of 0 KiB is none, which a
 * part may lack; one of exactly one set is a cache. (cache.policy's values are the registry's: test-param.) */
START_TEST (test_bad_params)
{
  static const char *const small_l1d[] = { "cache.l1d.size_kib", "2", "cache.l1d.assoc",
                                            "64", NULL };
  static const char *const small_names[] = { "cache.l1d.size_kib", "cache.l1d.assoc",
                                             "cache.line_bytes", NULL };
  static const char *const huge[] = { "cpu.sockets", "8", "cpu.ccx_per_socket", "8",
                                      "cpu.cores_per_ccx", "256", NULL };
  static const char *const huge_names[] = { "cpu.sockets", "cpu.ccx_per_socket",
                                            "cpu.cores_per_ccx", NULL };

  static const char *const small_l3[] = { "cache.l3.size_kib", "1", "cache.l3.assoc", "32",
                                           NULL };
  static const char *const small_l3_names[] = { "cache.l3.size_kib", "cache.l3.assoc",
                                                "cache.line_bytes", NULL };
  static const char *const no_l3[] = { "cache.l3.size_kib", "0", NULL };
  static const char *const one_set_l3[] = { "cache.l3.size_kib", "1", "cache.l3.assoc", "16",
                                            NULL };
  NsParams *params = params_with (no_l3);
  NsParams *one_set = params_with (one_set_l3);
  NsMachine *m;

  assert_machine_refused (params_with (small_l1d), small_names);
  assert_machine_refused (params_with (huge), huge_names);
  /* an L3 may be absent (size 0), but one that is there must hold a set */
  assert_machine_refused (params_with (small_l3), small_l3_names);
  m = ns_machine_new (params, NULL, NULL, NULL);
  ck_assert_ptr_nonnull (m);
  ns_machine_free (m);
  ns_params_free (params);
  m = ns_machine_new (one_set, NULL, NULL, NULL);   /* exactly one set: 16 x 64 B */
  ck_assert_ptr_nonnull (m);
  ns_machine_free (m);
  ns_params_free (one_set);
}
END_TEST

static Suite *
machine_suite (void)
{
  Suite *s = suite_create ("machine");
  TCase *chase = tcase_create ("chase");
  TCase *calls = tcase_create ("calls");
  TCase *coh = tcase_create ("coherence");
  TCase *acct = tcase_create ("account");

  tcase_set_timeout (chase, 600);
  tcase_add_test (chase, test_chase_generic);
  tcase_add_test (chase, test_chase_other_part);
  tcase_add_test (chase, test_chase_random_frames);
  tcase_add_test (chase, test_chase_plru);
  tcase_add_test (chase, test_inclusion_victims);
  tcase_add_test (calls, test_safe_ret_penalty);
  tcase_add_test (calls, test_icall_penalties);
  tcase_add_test (calls, test_inlined_calls_free);
  tcase_add_test (calls, test_no_build_and_first_call_registers);
  tcase_add_test (calls, test_call_charges_its_frame);
  tcase_add_test (calls, test_ibt_endbr_by_build);
  tcase_add_test (calls, test_shrink_wrapped_call_skips_the_frame);
  tcase_add_test (calls, test_tail_call_one_return);
  tcase_add_test (calls, test_rdtsc_cost);
  tcase_add_test (calls, test_rep_string_cost);
  tcase_add_test (calls, test_fused_pairs);
  tcase_add_test (calls, test_compare_sequence);
  tcase_add_test (calls, test_ifetch_first_and_following_lines);
  tcase_add_test (calls, test_ifetch_follows_instructions);
  tcase_add_test (calls, test_ifetch_runs_the_frame);
  tcase_add_test (calls, test_return_site_is_where_the_caller_ran_to);
  tcase_add_test (calls, test_text_inlined_body_moves_caller);
  tcase_add_test (calls, test_text_fetch_before_charge);
  tcase_add_test (calls, test_text_fixed_cost_insn_runs_text);
  tcase_add_test (calls, test_text_tail_return_site);
  tcase_add_test (calls, test_text_deep_frames);
  tcase_add_test (calls, test_ifetch_lead);
  tcase_add_test (calls, test_miss_shadow);
  tcase_add_test (calls, test_miss_shadow_expires);
  tcase_add_test (calls, test_free_load_keeps_shadow_age);
  tcase_add_test (calls, test_forced_return_under_miss);
  tcase_add_test (calls, test_wait_ends_shadow);
  tcase_add_test (calls, test_forced_return_refetches_site);
  tcase_add_test (calls, test_inlined_body_account);
  tcase_add_test (calls, test_context_and_event_account);
  tcase_add_test (calls, test_stride_prefetch);
  tcase_add_test (calls, test_stride_prefetch_page_limit);
  tcase_add_test (coh, test_topology);
  tcase_add_test (coh, test_coherence_by_distance);
  tcase_add_test (coh, test_transfer_below_a_locked_rmw);
  tcase_add_test (coh, test_atomic_by_distance);
  tcase_add_test (coh, test_atomic_miss_beyond_l1);
  tcase_add_test (coh, test_copy_from_another_core);
  tcase_add_test (coh, test_copy_without_transfer);
  tcase_add_test (coh, test_store_invalidates);
  tcase_add_test (coh, test_smt_shares_caches);
  tcase_add_test (coh, test_l3_inclusion);
  tcase_add_test (coh, test_nearest_and_farthest_holder);
  tcase_add_test (coh, test_written_back_line);
  tcase_add_test (coh, test_evicted_l3_copy_is_gone);
  tcase_add_test (coh, test_store_finds_l3_copy);
  tcase_add_test (coh, test_store_invalidates_remote_l3);
  tcase_add_test (coh, test_owned_store_refills);
  tcase_add_test (acct, test_syscall_pieces);
  tcase_add_test (acct, test_pause);
  tcase_add_test (acct, test_attribution_and_reset);
  tcase_add_test (acct, test_miss_overlap_window);
  tcase_add_loop_test (acct, test_call_sequences_fill_the_window, 0, 2);
  tcase_add_test (acct, test_bad_params);
  tcase_add_test (acct, test_machine_data);
  suite_add_tcase (s, chase);
  suite_add_tcase (s, calls);
  suite_add_tcase (s, coh);
  suite_add_tcase (s, acct);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (machine_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
