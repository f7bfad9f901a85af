/* test-softirq.c — models/net/softirq.c's local_bh_disable / __local_bh_enable_ip against
 * the kernel's preempt-count rules (v6.9, !PREEMPT_RT; include/linux/preempt.h,
 * include/linux/bottom_half.h, kernel/softirq.c):
 *   - SOFTIRQ_OFFSET is 0x100 (serving a softirq), SOFTIRQ_DISABLE_OFFSET 0x200 (bottom
 *     halves disabled), SOFTIRQ_MASK 0xff00; in_interrupt() is any of the softirq,
 *     hardirq (0xf0000) or NMI (0xf00000) bits;
 *   - local_bh_disable adds SOFTIRQ_DISABLE_OFFSET; __local_bh_enable_ip(ip,
 *     SOFTIRQ_DISABLE_OFFSET) subtracts cnt - 1, runs do_softirq only if
 *     !in_interrupt() && local_softirq_pending(), then preempt_count_dec(): so the
 *     softirqs run with preemption still disabled (count 1), never from inside an outer
 *     bh-disabled section or a softirq handler, and the count ends where it started.
 * The per-CPU words are the test's own (a SoftirqCtx over arena memory), and its
 * do_softirq records the count it ran at and clears the pending mask as __do_softirq
 * does. Expected counts are computed from the constants above, not read from the model. */
#include "config.h"
#include "softirq.h"
#include "stack-rig.h"

#define SOFTIRQ_OFFSET          0x100
#define SOFTIRQ_DISABLE_OFFSET  0x200
#define SOFTIRQ_MASK            0xff00
#define HARDIRQ_OFFSET          0x10000
#define NET_RX_SOFTIRQ_BIT      (1u << 3)

/* One CPU as the softirq model sees it: its preempt count and pending mask (arena), and
 * what the test's do_softirq saw. */
typedef struct {
  gint32  *count;
  guint32 *pending;
  guint    runs;              /* do_softirq calls */
  gint32   count_at_run;      /* the preempt count do_softirq ran with */
} Cpu;

typedef struct {
  StackRig    s;              /* the machine (no stack) */
  Cpu         cpu;
  SoftirqCtx  ctx;
} Rig;

typedef void (*Body) (NsThread *t, Rig *rig);

typedef struct {
  Rig  *rig;
  Body  body;
} Job;

/* The CPU's preempt count word (SoftirqCtx.preempt_count). */
static gint32 *
cpu_count (gpointer owner, NsThread *t)
{
  (void) t;
  return ((Cpu *) owner)->count;
}

/* The CPU's pending mask (SoftirqCtx.pending). */
static guint32 *
cpu_pending (gpointer owner, NsThread *t)
{
  (void) t;
  return ((Cpu *) owner)->pending;
}

/* do_softirq: records the count it runs at; __do_softirq clears what it handles. */
static void
cpu_do_softirq (NsThread *t, gpointer owner)
{
  Cpu *cpu = owner;

  (void) t;
  cpu->runs++;
  cpu->count_at_run = *cpu->count;
  *cpu->pending = 0;
}

/* A machine of the registry defaults with one test CPU's words in its arena. */
static void
rig_init (Rig *rig, gboolean with_do_softirq)
{
  NsArena *arena;

  memset (rig, 0, sizeof *rig);
  stack_rig_init_machine (&rig->s, "6.9.0-rc1", NULL, NULL, NULL);
  arena = ns_machine_arena (rig->s.machine);
  rig->cpu.count = ns_arena_alloc (arena, 64, 64);
  rig->cpu.pending = ns_arena_alloc (arena, 64, 64);
  rig->ctx = (SoftirqCtx) { &rig->cpu, cpu_count, cpu_pending,
                            with_do_softirq ? cpu_do_softirq : NULL };
}

/* The simulated thread's body: the job's. */
static void
job_thread (NsThread *t, gpointer data)
{
  Job *job = data;

  job->body (t, job->rig);
}

/* Runs body in a simulated thread on CPU 0 of a fresh rig, then frees the rig. */
static void
run (Body body, gboolean with_do_softirq)
{
  Rig rig;
  Job job = { &rig, body };

  rig_init (&rig, with_do_softirq);
  stack_rig_run (&rig.s, 0, job_thread, &job);
  stack_rig_clear (&rig.s);
}

/* local_bh_disable adds SOFTIRQ_DISABLE_OFFSET per nesting level; each enable takes one
 * level off; nothing pending, so do_softirq never runs. */
static void
body_nesting (NsThread *t, Rig *rig)
{
  Cpu *cpu = &rig->cpu;

  local_bh_disable (t, &rig->ctx);
  ck_assert_int_eq (*cpu->count, SOFTIRQ_DISABLE_OFFSET);
  local_bh_disable (t, &rig->ctx);
  ck_assert_int_eq (*cpu->count, 2 * SOFTIRQ_DISABLE_OFFSET);
  ck_assert_int_eq (*cpu->count & SOFTIRQ_MASK, 2 * SOFTIRQ_DISABLE_OFFSET);
  __local_bh_enable_ip (t, &rig->ctx);
  ck_assert_int_eq (*cpu->count, SOFTIRQ_DISABLE_OFFSET);
  __local_bh_enable_ip (t, &rig->ctx);
  ck_assert_int_eq (*cpu->count, 0);
  ck_assert_uint_eq (cpu->runs, 0);
}

START_TEST (test_disable_enable_nesting)
{
  run (body_nesting, TRUE);
}
END_TEST

/* The outermost enable with NET_RX pending runs do_softirq once, with the bh offset gone
 * but preemption still disabled (count cnt - (cnt - 1) = 1: "keep preemption disabled
 * until we are done with softirq processing"), and leaves the count at 0. */
static void
body_outermost_runs_pending (NsThread *t, Rig *rig)
{
  Cpu *cpu = &rig->cpu;

  local_bh_disable (t, &rig->ctx);
  *cpu->pending = NET_RX_SOFTIRQ_BIT;
  __local_bh_enable_ip (t, &rig->ctx);
  ck_assert_uint_eq (cpu->runs, 1);
  ck_assert_int_eq (cpu->count_at_run, 1);
  ck_assert_int_eq (*cpu->count, 0);
  ck_assert_uint_eq (*cpu->pending, 0);
}

START_TEST (test_outermost_enable_runs_pending)
{
  run (body_outermost_runs_pending, TRUE);
}
END_TEST

/* An enable inside an outer local_bh_disable leaves softirq_count() nonzero, so
 * in_interrupt() holds and the pending softirq waits for the outer enable. */
static void
body_nested_defers (NsThread *t, Rig *rig)
{
  Cpu *cpu = &rig->cpu;

  local_bh_disable (t, &rig->ctx);
  local_bh_disable (t, &rig->ctx);
  *cpu->pending = NET_RX_SOFTIRQ_BIT;
  __local_bh_enable_ip (t, &rig->ctx);
  ck_assert_uint_eq (cpu->runs, 0);
  ck_assert_int_eq (*cpu->count, SOFTIRQ_DISABLE_OFFSET);
  ck_assert_uint_eq (*cpu->pending, NET_RX_SOFTIRQ_BIT);
  __local_bh_enable_ip (t, &rig->ctx);
  ck_assert_uint_eq (cpu->runs, 1);
  ck_assert_int_eq (cpu->count_at_run, 1);
  ck_assert_int_eq (*cpu->count, 0);
}

START_TEST (test_nested_enable_defers)
{
  run (body_nested_defers, TRUE);
}
END_TEST

/* Inside a softirq handler (SOFTIRQ_OFFSET held, as __do_softirq's softirq_handle_begin
 * leaves it) a bh disable/enable pair does not run softirqs again: in_interrupt(). */
static void
body_in_softirq_defers (NsThread *t, Rig *rig)
{
  Cpu *cpu = &rig->cpu;

  *cpu->count = SOFTIRQ_OFFSET;
  *cpu->pending = NET_RX_SOFTIRQ_BIT;
  local_bh_disable (t, &rig->ctx);
  ck_assert_int_eq (*cpu->count, SOFTIRQ_OFFSET + SOFTIRQ_DISABLE_OFFSET);
  __local_bh_enable_ip (t, &rig->ctx);
  ck_assert_uint_eq (cpu->runs, 0);
  ck_assert_int_eq (*cpu->count, SOFTIRQ_OFFSET);
  ck_assert_uint_eq (*cpu->pending, NET_RX_SOFTIRQ_BIT);
}

START_TEST (test_in_softirq_enable_defers)
{
  run (body_in_softirq_defers, TRUE);
}
END_TEST

/* The same in hard-interrupt context (HARDIRQ_OFFSET): in_interrupt(), nothing runs. */
static void
body_in_hardirq_defers (NsThread *t, Rig *rig)
{
  Cpu *cpu = &rig->cpu;

  *cpu->count = HARDIRQ_OFFSET;
  *cpu->pending = NET_RX_SOFTIRQ_BIT;
  local_bh_disable (t, &rig->ctx);
  __local_bh_enable_ip (t, &rig->ctx);
  ck_assert_uint_eq (cpu->runs, 0);
  ck_assert_int_eq (*cpu->count, HARDIRQ_OFFSET);
}

START_TEST (test_in_hardirq_enable_defers)
{
  run (body_in_hardirq_defers, TRUE);
}
END_TEST

/* A stack that raises no softirqs (do_softirq NULL, the pktgen/tc one): the enable only
 * restores the count, pending or not. */
static void
body_no_do_softirq (NsThread *t, Rig *rig)
{
  Cpu *cpu = &rig->cpu;

  *cpu->pending = NET_RX_SOFTIRQ_BIT;
  local_bh_disable (t, &rig->ctx);
  __local_bh_enable_ip (t, &rig->ctx);
  ck_assert_int_eq (*cpu->count, 0);
  ck_assert_uint_eq (*cpu->pending, NET_RX_SOFTIRQ_BIT);
}

START_TEST (test_no_do_softirq)
{
  run (body_no_do_softirq, FALSE);
}
END_TEST

static Suite *
softirq_suite (void)
{
  Suite *s = suite_create ("softirq");
  TCase *tc = tcase_create ("core");

  tcase_add_test (tc, test_disable_enable_nesting);
  tcase_add_test (tc, test_outermost_enable_runs_pending);
  tcase_add_test (tc, test_nested_enable_defers);
  tcase_add_test (tc, test_in_softirq_enable_defers);
  tcase_add_test (tc, test_in_hardirq_enable_defers);
  tcase_add_test (tc, test_no_do_softirq);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (softirq_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
