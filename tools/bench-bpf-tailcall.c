/* bench-bpf-tailcall.c — does a generic retpoline cost this host's kernel more than the
 * same instructions cost in user space? (the kernel-or-context question behind seed 002's
 * 100-filter rows, doc/model.md "A retpoline in the kernel and in user space").
 *
 * The kernel side: two chains of 33 eBPF programs (BPF_PROG_TYPE_SCHED_CLS), each
 * tail-calling the next through a program array, timed by BPF_PROG_TEST_RUN on a 64-byte
 * packet. With a constant key the x86-64 JIT makes each tail call a direct jump; with a
 * key read from the context (skb->len less 64 plus the next slot) it emits a bounds
 * check, the slot's load, the program's bpf_func load and an indirect jump, which a
 * kernel running spectre_v2=retpoline sends through its generic retpoline thunk. A chain
 * of 33 less a chain of 1 (the last program alone), over 32, is a tail call's time.
 * The user side: the same instruction sequences, assembled from what the JIT emitted on
 * a 6.18 kernel (tools/bench-bpf-tailcall-chain.S), timed the same way in three builds:
 * the direct jump, the indirect jump predicted, and the indirect jump through a retpoline
 * thunk. If the kernel's variable-minus-constant difference matches the replica's
 * retpoline-minus-constant one, a retpoline costs the kernel what it costs user space
 * here; the replica's retpoline-minus-plain is then its price over a predicted jump.
 * Four more pairs of replica builds (plain and retpoline) take the block apart: without
 * the tail-call counter's memory accesses (*_nocount), without them and the prologue's
 * frame (*_bare), and bare with 16 ADDs a block on the key before the slot's load (the
 * jump's target waits for them: *_bare_dep16) or on a register cleared in each block
 * (*_bare_ind16): what the counter's store-to-load chain and dependent work cost after a
 * forced mispredict's restart, against independent work of the same size, and on a
 * predicted path.
 * The kernel's own thunk and mitigations are whatever it runs (printed from
 * /sys/devices/system/cpu/vulnerabilities/spectre_v2); the figures mean what this
 * header says only where that line names retpolines. The core clock comes from a chain
 * of dependent ADDs (ns_hostbench_core_ghz).
 * Prints "name value" lines: cycles a tail call in each build, the differences, the
 * clock, the kernel's spectre_v2 line and release. Needs root (CAP_BPF and
 * CAP_NET_ADMIN for SCHED_CLS programs); without them it prints the user side only and
 * says why. Options: --runs (interleaved rounds; each figure is their median), --scale
 * (of the repetitions). x86-64 Linux only. */
#include "config.h"
#include <errno.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <linux/bpf.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "hostbench.h"

#define CHAIN 33                       /* the kernel's MAX_TAIL_CALL_CNT + 1 programs */
#define BLOCK_BYTES 128                /* the replica's block and program object spacing */
#define ARRAY_SLOTS 64
#define PACKET_BYTES 64                /* skb->len the variable key reads */

/* The replica (tools/bench-bpf-tailcall-chain.S): each chain's first and last blocks */
typedef void (*ChainFn) (void *skb);
extern void bench_tailcall_const (void *), bench_tailcall_const_last (void *);
extern void bench_tailcall_plain (void *), bench_tailcall_plain_last (void *);
extern void bench_tailcall_retpoline (void *), bench_tailcall_retpoline_last (void *);
extern void bench_tailcall_plain_nocount (void *), bench_tailcall_plain_nocount_last (void *);
extern void bench_tailcall_retpoline_nocount (void *),
  bench_tailcall_retpoline_nocount_last (void *);
extern void bench_tailcall_plain_bare (void *), bench_tailcall_plain_bare_last (void *);
extern void bench_tailcall_retpoline_bare (void *), bench_tailcall_retpoline_bare_last (void *);
extern void bench_tailcall_plain_bare_dep (void *), bench_tailcall_plain_bare_dep_last (void *);
extern void bench_tailcall_retpoline_bare_dep (void *),
  bench_tailcall_retpoline_bare_dep_last (void *);
extern void bench_tailcall_plain_bare_ind (void *), bench_tailcall_plain_bare_ind_last (void *);
extern void bench_tailcall_retpoline_bare_ind (void *),
  bench_tailcall_retpoline_bare_ind_last (void *);
extern unsigned char bench_tailcall_arrays[], bench_tailcall_progs[];
#define ARRAY_BYTES 0x340              /* the .S file's, one array a variable-key chain */

/* The replica's builds: the constant-key chain, then the variable-key ones, each with
 * its array (the n-th after the constant one uses array n - 1); a chain's blocks are
 * evenly spaced, its last block CHAIN - 1 spacings after its first */
typedef struct {
  const char *name;
  ChainFn     first, last;
} Build;

/* From BUILD_PLAIN on, each plain build is followed by its retpoline twin (print_figures
 * pairs them so) */
enum { BUILD_DIRECT, BUILD_PLAIN, BUILD_RETPOLINE, BUILD_PLAIN_NOCOUNT,
       BUILD_RETPOLINE_NOCOUNT, BUILD_PLAIN_BARE, BUILD_RETPOLINE_BARE, BUILD_PLAIN_BARE_DEP,
       BUILD_RETPOLINE_BARE_DEP, BUILD_PLAIN_BARE_IND, BUILD_RETPOLINE_BARE_IND, N_BUILDS };
static const Build builds[N_BUILDS] = {
  { "direct", bench_tailcall_const, bench_tailcall_const_last },
  { "plain", bench_tailcall_plain, bench_tailcall_plain_last },
  { "retpoline", bench_tailcall_retpoline, bench_tailcall_retpoline_last },
  { "plain_nocount", bench_tailcall_plain_nocount, bench_tailcall_plain_nocount_last },
  { "retpoline_nocount", bench_tailcall_retpoline_nocount,
    bench_tailcall_retpoline_nocount_last },
  { "plain_bare", bench_tailcall_plain_bare, bench_tailcall_plain_bare_last },
  { "retpoline_bare", bench_tailcall_retpoline_bare, bench_tailcall_retpoline_bare_last },
  { "plain_bare_dep16", bench_tailcall_plain_bare_dep, bench_tailcall_plain_bare_dep_last },
  { "retpoline_bare_dep16", bench_tailcall_retpoline_bare_dep,
    bench_tailcall_retpoline_bare_dep_last },
  { "plain_bare_ind16", bench_tailcall_plain_bare_ind, bench_tailcall_plain_bare_ind_last },
  { "retpoline_bare_ind16", bench_tailcall_retpoline_bare_ind,
    bench_tailcall_retpoline_bare_ind_last },
};
#define N_FIGURES (N_BUILDS + 2)       /* the replica's builds, the kernel's two */

typedef struct {
  int prog_fd[CHAIN];                  /* the chain's programs, 0 first */
  int map_fd;
} KernelChain;

static gint opt_runs = 5, opt_scale = 1;

/* bpf(2). */
static long
sys_bpf (int cmd, union bpf_attr *attr)
{
  return syscall (__NR_bpf, cmd, attr, sizeof *attr);
}

#define BPF_INSN(c, d, s, o, i) \
  ((struct bpf_insn) { .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })

/* Loads program i of a chain in map_fd: a tail call to slot i + 1 (through skb->len when
 * variable), or, for the last, return 0; its fd, or -1 with errno set. */
static int
load_program (int map_fd, int i, gboolean variable)
{
  struct bpf_insn insn[8];
  union bpf_attr attr;
  int n = 0;

  if (i < CHAIN - 1) {
    if (variable) {
      insn[n++] = BPF_INSN (BPF_LDX | BPF_MEM | BPF_W, BPF_REG_3, BPF_REG_1,
                            offsetof (struct __sk_buff, len), 0);
      insn[n++] = BPF_INSN (BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_3, 0, 0,
                            i + 1 - PACKET_BYTES);
    } else {
      insn[n++] = BPF_INSN (BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_3, 0, 0, i + 1);
    }
    insn[n++] = BPF_INSN (BPF_LD | BPF_DW | BPF_IMM, BPF_REG_2, BPF_PSEUDO_MAP_FD, 0, map_fd);
    insn[n++] = BPF_INSN (0, 0, 0, 0, 0);
    insn[n++] = BPF_INSN (BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_tail_call);
  }
  insn[n++] = BPF_INSN (BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
  insn[n++] = BPF_INSN (BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
  memset (&attr, 0, sizeof attr);
  attr.prog_type = BPF_PROG_TYPE_SCHED_CLS;
  attr.insns = (guint64) (guintptr) insn;
  attr.insn_cnt = (guint32) n;
  attr.license = (guint64) (guintptr) "GPL";
  return (int) sys_bpf (BPF_PROG_LOAD, &attr);
}

/* Builds a chain of CHAIN programs in a new program array; FALSE with errno set. */
static gboolean
kernel_chain_build (KernelChain *c, gboolean variable)
{
  union bpf_attr attr;

  memset (&attr, 0, sizeof attr);
  attr.map_type = BPF_MAP_TYPE_PROG_ARRAY;
  attr.key_size = attr.value_size = 4;
  attr.max_entries = ARRAY_SLOTS;
  c->map_fd = (int) sys_bpf (BPF_MAP_CREATE, &attr);
  if (c->map_fd < 0)
    return FALSE;
  for (int i = 0; i < CHAIN; i++) {
    c->prog_fd[i] = load_program (c->map_fd, i, variable);
    if (c->prog_fd[i] < 0)
      return FALSE;
  }
  for (guint32 slot = 1; slot < CHAIN; slot++) {
    guint32 fd = (guint32) c->prog_fd[slot];

    memset (&attr, 0, sizeof attr);
    attr.map_fd = (guint32) c->map_fd;
    attr.key = (guint64) (guintptr) &slot;
    attr.value = (guint64) (guintptr) &fd;
    if (sys_bpf (BPF_MAP_UPDATE_ELEM, &attr) < 0)
      return FALSE;
  }
  return TRUE;
}

/* The kernel's mean nanoseconds a run of program fd over repeat runs (it rounds them to
 * whole ns), the best of 5; NAN with errno set on failure. */
static double
kernel_run_ns (int fd, guint repeat)
{
  unsigned char packet[PACKET_BYTES] = { [12] = 0x08 };      /* an IPv4 EtherType */
  double best = INFINITY;
  union bpf_attr attr;

  for (int r = 0; r < 5; r++) {
    memset (&attr, 0, sizeof attr);
    attr.test.prog_fd = (guint32) fd;
    attr.test.data_in = (guint64) (guintptr) packet;
    attr.test.data_size_in = sizeof packet;
    attr.test.repeat = repeat;
    if (sys_bpf (BPF_PROG_TEST_RUN, &attr) < 0)
      return NAN;
    best = MIN (best, (double) attr.test.duration);
  }
  return best;
}

/* Nanoseconds a call of f(skb), the best of 5 timings of repeat calls. */
static double
user_run_ns (void (*f) (void *), void *skb, guint repeat)
{
  double best = INFINITY;

  for (int r = 0; r < 5; r++) {
    double t0 = ns_hostbench_now_ns ();
    for (guint i = 0; i < repeat; i++)
      f (skb);
    /* once: MIN evaluates its arguments twice */
    double per = (ns_hostbench_now_ns () - t0) / repeat;

    best = MIN (best, per);
  }
  return best;
}

/* Points the replica's variable-key chains' arrays at their program objects and those
 * at the blocks (the JIT's slot -> prog -> bpf_func + 0xc). */
static void
replica_fill (void)
{
  for (int k = BUILD_PLAIN; k < N_BUILDS; k++) {
    unsigned char *array = bench_tailcall_arrays + (gsize) (k - 1) * ARRAY_BYTES;
    unsigned char *first = (unsigned char *) builds[k].first;
    gsize spacing = (gsize) ((unsigned char *) builds[k].last - first) / (CHAIN - 1);
    guint32 max_entries = ARRAY_SLOTS;

    memcpy (array + 0x4c, &max_entries, sizeof max_entries);
    for (int j = 1; j < CHAIN; j++) {
      unsigned char *prog = bench_tailcall_progs + ((gsize) (k - 1) * CHAIN + j) * BLOCK_BYTES;
      void *func = first + (gsize) j * spacing;

      memcpy (prog + 0x48, &func, sizeof func);
      memcpy (array + 0x138 + j * 8, &prog, sizeof prog);
    }
  }
}

/* One round: nanoseconds a tail call of each replica build into fig[BUILD_*] and, when
 * kernel chains are given, of the kernel's direct and variable builds into
 * fig[N_BUILDS] and fig[N_BUILDS + 1]. */
static gboolean
measure_round (const KernelChain *kc, double fig[N_FIGURES])
{
  static unsigned char skb[256] __attribute__ ((aligned (64)));
  guint repeat = 100000 * (guint) opt_scale;
  guint32 len = PACKET_BYTES;

  memcpy (skb + 0x70, &len, sizeof len);
  for (int k = 0; k < N_BUILDS; k++)
    fig[k] = (user_run_ns (builds[k].first, skb, repeat) -
              user_run_ns (builds[k].last, skb, repeat)) / (CHAIN - 1);
  for (int v = 0; kc != NULL && v < 2; v++) {
    double whole = kernel_run_ns (kc[v].prog_fd[0], repeat);
    double one = kernel_run_ns (kc[v].prog_fd[CHAIN - 1], repeat);

    if (isnan (whole) || isnan (one))
      return FALSE;
    fig[N_BUILDS + v] = (whole - one) / (CHAIN - 1);
  }
  return TRUE;
}

/* The median of the n figures at v (sorted in place). */
static double
median (double *v, guint n)
{
  gsl_sort (v, 1, n);
  return gsl_stats_median_from_sorted_data (v, 1, n);
}

static const GOptionEntry entries[] = {
  { "runs", 'r', 0, G_OPTION_ARG_INT, &opt_runs,
    "Interleaved rounds; each figure is their median (default 5)", "N" },
  { "scale", 's', 0, G_OPTION_ARG_INT, &opt_scale, "Scale of the repetitions", "N" },
  { NULL }
};

/* Prints the figures: cycles a tail call per build and the differences. */
static void
print_figures (double ghz, const double fig[N_FIGURES], gboolean have_kernel)
{
  const double *kern = fig + N_BUILDS;

  for (int k = 0; k < N_BUILDS; k++)
    printf ("user_cycles_per_tailcall_%s %.2f\n", builds[k].name, fig[k] * ghz);
  printf ("user_retpoline_over_direct %.2f\n",
          (fig[BUILD_RETPOLINE] - fig[BUILD_DIRECT]) * ghz);
  printf ("user_retpoline_over_plain %.2f\n", (fig[BUILD_RETPOLINE] - fig[BUILD_PLAIN]) * ghz);
  for (int k = BUILD_PLAIN_NOCOUNT; k < N_BUILDS; k += 2)
    printf ("user_retpoline_over_%s %.2f\n", builds[k].name,
            (fig[k + 1] - fig[k]) * ghz);
  if (!have_kernel)
    return;
  printf ("kernel_cycles_per_tailcall_direct %.2f\n", kern[0] * ghz);
  printf ("kernel_cycles_per_tailcall_variable %.2f\n", kern[1] * ghz);
  printf ("kernel_variable_over_direct %.2f\n", (kern[1] - kern[0]) * ghz);
}

/* bench-bpf-tailcall [OPTION…]: cycles a tail call in the kernel and in the replica. */
int
main (int argc, char **argv)
{
  g_autofree char *spectre_v2 = NULL;
  KernelChain kc[2];
  gboolean have_kernel;
  double ghz, fig[N_FIGURES];
  g_autofree double *samples = NULL;
  guint n_figures, runs;
  struct utsname uts;

  if (!ns_hostbench_parse_args ("bench-bpf-tailcall", "— a retpolined BPF tail call in "
                                "this kernel and in user space", entries, &argc, &argv))
    return 2;
  if (opt_runs < 1 || opt_runs > 99 || opt_scale < 1 || opt_scale > 1000) {
    fprintf (stderr, "bench-bpf-tailcall: --runs must be 1 to 99, --scale 1 to 1000\n");
    return 2;
  }
  replica_fill ();
  have_kernel = kernel_chain_build (&kc[0], FALSE) && kernel_chain_build (&kc[1], TRUE);
  if (!have_kernel)
    fprintf (stderr, "bench-bpf-tailcall: no kernel side (loading eBPF programs: %s; "
             "needs root)\n", g_strerror (errno));
  ghz = ns_hostbench_core_ghz (10000000, 5);
  n_figures = have_kernel ? N_FIGURES : N_BUILDS;
  runs = (guint) opt_runs;
  samples = g_new (double, (gsize) N_FIGURES * runs);
  for (guint r = 0; r < runs; r++) {
    if (!measure_round (have_kernel ? kc : NULL, fig))
      goto run_failed;
    for (guint k = 0; k < n_figures; k++)
      samples[k * runs + r] = fig[k];
  }
  for (guint k = 0; k < n_figures; k++)
    fig[k] = median (samples + k * runs, runs);
  print_figures (ghz, fig, have_kernel);
  spectre_v2 = ns_hostbench_sysfs_read ("/sys/devices/system/cpu/vulnerabilities/spectre_v2");
  if (spectre_v2 == NULL)
    spectre_v2 = g_strdup ("unknown");
  printf ("runs %d\ncore_clock_ghz %.3f\nspectre_v2 %s\n", opt_runs, ghz, spectre_v2);
  if (have_kernel && strstr (spectre_v2, "Retpoline") == NULL)
    fprintf (stderr, "bench-bpf-tailcall: this kernel's spectre_v2 line names no retpolines: "
             "its variable-key tail call may not go through a retpoline thunk, so the "
             "kernel figures do not measure one\n");
  if (uname (&uts) == 0)
    printf ("kernel %s\n", uts.release);
  return 0;

  /* ERRORS */
run_failed:
  fprintf (stderr, "bench-bpf-tailcall: BPF_PROG_TEST_RUN: %s\n", g_strerror (errno));
  return 1;
}
