/* bpf-tailcall.c — the model's side of tools/bench-bpf-tailcall: a chain of eBPF programs
 * that tail-call each other through a program array, as the x86-64 JIT of Linux 6.18
 * emits them (tools/bench-bpf-tailcall-chain.S has the instructions), one run of the
 * chain an operation. key="const" is the JIT's direct tail call (a patched jmp into the
 * next program); key="variable" reads the slot through the context (skb->len), checks it
 * against the array's max_entries, loads the slot's program and its bpf_func, and jumps
 * indirectly: predicted with spectre_v2=off, through a generic retpoline thunk with
 * spectre_v2=retpoline. Each program is its own 128-byte text (two of the BPF pack's
 * 64-byte chunks) reached at +0xc by a tail call; the chain's last program returns.
 *
 * Instruction counts are the JIT's (objdump of the images read back on 6.18, counted as
 * the other micro workloads count them): the entry program's prologue 10 (a tail call
 * enters 4 in, after the ftrace NOP, the tail-call counter's clear and the frame, and
 * runs 6), the constant-key tail call 9 and the variable one 17 besides the jump, the
 * exit 2 and the return. The loads that produce the jump's target (skb->len, the slot,
 * bpf_func) are dependent where the jump goes through a retpoline thunk, as the filter
 * walk's are (its ret waits for them); the tail-call counter's loads and stores on the
 * stack are L1 hits beside them. The model has no store-to-load forwarding: the counter's
 * read-modify-write through memory costs its instructions only. */
#include "config.h"
#include "workload.h"

#define TAILCALL_MAX_PROGRAMS 33        /* MAX_TAIL_CALL_CNT (33) tail calls from one entry */
#define TAILCALL_TEXT_BYTES   128
#define TAILCALL_ARRAY_SLOTS  64
#define TAILCALL_SKB_LEN      64        /* the bench's packet: the variable key is len - 64 + i */

struct tailcall_prog  { guint8 pad[0x48]; NsFunc *bpf_func; guint8 tail[0x30]; };
struct tailcall_array { guint8 pad[0x4c]; guint32 max_entries; guint8 gap[0xe8];
                        struct tailcall_prog *ptrs[TAILCALL_ARRAY_SLOTS]; };
struct tailcall_skb   { guint8 pad[0x70]; guint32 len; };
G_STATIC_ASSERT (offsetof (struct tailcall_array, ptrs) == 0x138);
G_STATIC_ASSERT (offsetof (struct tailcall_prog, bpf_func) == 0x48);
G_STATIC_ASSERT (offsetof (struct tailcall_skb, len) == 0x70);

enum { KEY_CONST, KEY_VARIABLE };       /* index in keys[] */

typedef struct {
  NsFunc                *progs;         /* the chain's programs, static */
  struct tailcall_array *array;
  struct tailcall_prog  *prog_objs;     /* one a program, bpf_func pointing at its text */
  struct tailcall_skb   *skb;
  guint64               *stack;         /* the frame's counter and its pointer, one line */
  guint                  key;
  gboolean               thunked;       /* indirect jumps go through a retpoline thunk */
  guint                  n_progs;
  guint64                runs;
  guint64                runs_mark;
} TailCalls;

static const char *const metrics[] = { "cycles_per_run", NULL };
static const char *const keys[] = { "const", "variable", NULL };
/* The <workload> attributes it takes. */
static const NsWorkloadAttr tailcall_attributes[] = {
  { "cpu", NS_WORKLOAD_ATTR_CPU, "0", .meaning = "the CPU that runs the programs" },
  { "programs", NS_WORKLOAD_ATTR_UINT, G_STRINGIFY (TAILCALL_MAX_PROGRAMS), "1",
    G_STRINGIFY (TAILCALL_MAX_PROGRAMS), .why = "MAX_TAIL_CALL_CNT tail calls from one entry",
    .meaning = "programs in the chain, the entry's included" },
  { "key", NS_WORKLOAD_ATTR_CHOICE, "variable", .choices = keys,
    .meaning = "the tail call's index: a constant (direct jumps) or from the packet "
               "(indirect jumps)" },
  { NULL }
};

static NS_LOAD_SITE (site_len, "bpf tail call: skb->len");
static NS_LOAD_SITE (site_slot, "bpf tail call: array->ptrs[index]");
static NS_LOAD_SITE (site_func, "bpf tail call: prog->bpf_func");

/* The chain's programs: bpf_prog_0 … bpf_prog_32, each its own 128-byte text, every
 * instruction charged by the model (no frame of their own). Built once. */
static NsFunc *
tailcall_programs (void)
{
  static NsFunc *table;
  static GMutex lock;

  g_mutex_lock (&lock);
  if (table == NULL)
    table = ns_workload_new_functions ("bpf_prog", TAILCALL_MAX_PROGRAMS, TAILCALL_TEXT_BYTES,
                                       0, NS_FN_STATIC | NS_FN_INDIRECT | NS_FN_STRAIGHT);
  g_mutex_unlock (&lock);
  return table;
}

/* The constant-key tail call: the counter's check and increment, then the patched jmp. */
static void
tail_call_const (NsThread *t, TailCalls *c, guint next)
{
  ns_insns (t, 2);                  /* mov $next, %edx; movabs $array, %rsi */
  ns_load (t, &c->stack[1], sizeof c->stack[1]);
  ns_load (t, &c->stack[0], sizeof c->stack[0]);
  ns_insns (t, 4);                  /* mov -0x10(%rbp); cmpq $0x21, (%rax); jae; nop */
  c->stack[0]++;
  ns_store (t, &c->stack[0], sizeof c->stack[0]);
  ns_insns (t, 3);                  /* addq $1, (%rax); pop; pop */
  ns_tail_call (t, &c->progs[next]);
}

/* The variable-key tail call: the slot through skb->len, its bounds, the counter, the
 * slot's program and its bpf_func, then the indirect jump; FALSE where the JIT's code
 * falls through to the exit instead (a slot out of range or empty). */
static gboolean
tail_call_variable (NsThread *t, TailCalls *c, guint next)
{
  struct tailcall_prog *prog;
  guint32 index;

  ns_load_site (t, &site_len, c->thunked, &c->skb->len, sizeof c->skb->len);
  index = c->skb->len - TAILCALL_SKB_LEN + next;
  ns_insns (t, 4);                  /* mov 0x70(%rdi); add; movabs; mov %edx, %edx */
  NS_LOAD_FIELD (t, c->array, max_entries);
  ns_insns (t, 2);                  /* cmp %edx, 0x4c(%rsi); jbe */
  if (index >= c->array->max_entries)
    return FALSE;
  ns_load (t, &c->stack[1], sizeof c->stack[1]);
  ns_load (t, &c->stack[0], sizeof c->stack[0]);
  ns_insns (t, 3);                  /* mov -0x10(%rbp); cmpq $0x21, (%rax); jae */
  ns_load_site (t, &site_slot, c->thunked, &c->array->ptrs[index], sizeof (gpointer));
  prog = c->array->ptrs[index];
  ns_insns (t, 3);                  /* mov 0x138(%rsi,%rdx,8); test; je */
  if (prog == NULL)
    return FALSE;
  c->stack[0]++;
  ns_store (t, &c->stack[0], sizeof c->stack[0]);
  ns_insns (t, 3);                  /* addq $1, (%rax); pop; pop */
  ns_load_site (t, &site_func, c->thunked, &prog->bpf_func, sizeof prog->bpf_func);
  ns_insns (t, 2);                  /* mov 0x48(%rcx), %rcx; add $0xc, %rcx */
  ns_tail_next (t);
  ns_icall (t, prog->bpf_func);
  return TRUE;
}

/* Program i, entered by the run's call (i = 0) or by a tail call: its prologue, then the
 * next program's tail call, or the exit (the last program's, or where a variable key's
 * tail call falls through). */
static void
run_program (NsThread *t, TailCalls *c, guint i)
{
  if (i == 0) {
    ns_insns (t, 10);               /* nop; xor %rax; push %rbp; mov; cmp; ja; push; mov;
                                       jmp; push: the counter and its pointer */
    c->stack[0] = 0;
    ns_store (t, c->stack, 2 * sizeof c->stack[0]);
  } else {
    ns_insns (t, 6);                /* cmp; ja; push; mov; jmp; push */
    ns_store (t, c->stack, 2 * sizeof c->stack[0]);
  }
  if (i + 1 < c->n_progs && c->key == KEY_CONST) {
    tail_call_const (t, c, i + 1);
    run_program (t, c, i + 1);
  } else if (i + 1 < c->n_progs && tail_call_variable (t, c, i + 1)) {
    run_program (t, c, i + 1);
  } else {
    ns_insns (t, 2);                /* xor %eax, %eax; leave */
  }
  ns_ret (t);                       /* the exit's; a program left by a tail call pays none */
}

/* The simulated thread: one run of the chain an operation, forever. */
static void
tailcall_thread (NsThread *t, gpointer data)
{
  TailCalls *c = data;

  for (;;) {
    ns_call (t, &c->progs[0]);
    run_program (t, c, 0);
    c->runs++;
  }
}

/* Sets up bpf-tailcall (programs, key, cpu); NULL with a file:line error. */
static gpointer
tailcall_setup (const NsScenario *sc, NsMachine *machine, NsEngine *engine, gsl_rng *rng,
                GError **error)
{
  const NsMitigations *mit = ns_machine_mitigations (machine);
  NsArena *arena = ns_machine_arena (machine);
  TailCalls *c;
  guint64 n;
  guint key, cpu;

  (void) rng;
  if (!ns_workload_attr_check (sc, tailcall_attributes, error) ||
      !ns_workload_attr_cpu (sc, machine, tailcall_attributes, "cpu", &cpu, error) ||
      !ns_workload_attr_uint (sc, tailcall_attributes, "programs", &n, error) ||
      !ns_workload_attr_choice (sc, tailcall_attributes, "key", &key, error))
    return NULL;
  c = g_new0 (TailCalls, 1);
  c->progs = tailcall_programs ();
  c->key = key;
  c->thunked = ns_spectre_v2_thunked (mit->spectre_v2);
  c->n_progs = (guint) n;
  c->skb = ns_arena_alloc (arena, sizeof *c->skb, 64);
  c->skb->len = TAILCALL_SKB_LEN;
  c->stack = ns_arena_alloc (arena, 64, 64);
  c->array = ns_arena_alloc (arena, sizeof *c->array, 64);
  c->array->max_entries = TAILCALL_ARRAY_SLOTS;
  c->prog_objs = ns_arena_alloc (arena, TAILCALL_MAX_PROGRAMS * sizeof *c->prog_objs, 64);
  for (guint i = 1; i < c->n_progs; i++) {
    c->prog_objs[i].bpf_func = &c->progs[i];
    c->array->ptrs[i] = &c->prog_objs[i];
  }
  ns_engine_spawn (engine, "bpf", cpu, NS_THREAD_USER, 0, tailcall_thread, c);
  return c;
}

/* Snapshots the run count for the next metric. */
static void
tailcall_mark (gpointer state)
{
  TailCalls *c = state;
  c->runs_mark = c->runs;
}

/* Runs completed since the mark. */
static guint64
tailcall_ops (gpointer state)
{
  TailCalls *c = state;
  return c->runs - c->runs_mark;
}

/* Cycles per run of the chain since the mark; FALSE for an unknown metric or no run. */
static gboolean
tailcall_metric (gpointer state, NsMachine *machine, const char *metric, NsTime span,
                 double *value)
{
  double runs = (double) tailcall_ops (state);

  if (runs == 0 || !g_str_equal (metric, "cycles_per_run"))
    return FALSE;
  *value = ns_workload_span_cycles (machine, span) / runs;
  return TRUE;
}

const NsWorkloadClass ns_bpf_tailcall_class = {
  .name = "bpf-tailcall",
  .description = "tools/bench-bpf-tailcall's chain of eBPF tail calls (constant key: direct "
                 "jumps; variable key: indirect jumps, retpolined under spectre_v2=retpoline)",
  .op_name = "run",
  .metrics = metrics,
  .attributes = tailcall_attributes,
  .setup = tailcall_setup,
  .mark = tailcall_mark,
  .ops = tailcall_ops,
  .metric = tailcall_metric,
  .free = g_free,
};
