/* hostbench.c — microbenchmarks of the host (netsim calibrate --host), written out as a
 * CPU profile whose every value names its method as its source.
 *
 * What is measured, and how (each the best of several runs, to shed interrupts):
 *  - the core clock: a chain of dependent ADDs, one cycle each on every x86-64 core;
 *  - load-to-use latency of L1D, L2, L3 and DRAM: a pointer chase through one line per
 *    step, in random cyclic order, over working sets sized from the cache sizes (sysfs's,
 *    else CPUID's): half-way into each level (L3: at most 4 × L2, as a shared or
 *    virtualised host may give one core far less L3 than it says); DRAM: 8 × L3 within
 *    256 MiB … 1 GiB; every working set asks for 2 MiB pages (MADV_HUGEPAGE), so where
 *    the kernel grants them the chase pays few page walks, as the kernel's own accesses
 *    through its 2 MiB / 1 GiB direct map do; a level whose size neither gives is not
 *    measured;
 *  - branch.mispredict_cycles: a data-dependent branch on random bits against the same
 *    loop on zeros (half the random branches mispredict);
 *  - icall.predicted_cycles, icall.lfence_cycles: a loop calling one function through a
 *    register, plainly or after LFENCE, against the same loop with a direct call;
 *  - lock.atomic_cycles: dependent LOCK XADDs on one line;
 *  - ctxsw.rsb_fill_cycles: the kernel's 32-entry RSB fill on context switch (16 rounds
 *    of two calls that do not return, the stack pointer restored, then LFENCE), back to
 *    back;
 *  - x86.rdtsc_cycles: back-to-back RDTSCs;
 *  - x86.rep_short_cycles, x86.rep_long_cycles, x86.rep_long_bytes: REP STOSB, STOSQ and
 *    MOVSB of 16-120 and of 128-624 bytes, each in a loop beside 16 independent ADDs less
 *    the loop without it (the medians), and the first length, in steps of 8, past half-way
 *    from the one cost to the other;
 *  - mem.bw_l1/l2/l3_bytes_per_cycle, mem.bw_dram_gbps: REP MOVSB (the kernel's
 *    copy_to_user/copy_from_user on ERMS/FSRM cores) between two buffers that together
 *    fill the same working sets as the chase, best of several passes;
 *  - one c2c parameter: a ping-pong of LOCK CMPXCHGs on one line between the first two
 *    online CPUs (as nviennot/core-to-core-latency's, which the profiles cite), half a
 *    round trip, the median over timed batches of 64 round trips (a descheduled batch is
 *    an outlier, not part of a mean); which parameter (SMT, L3 domain, socket) follows
 *    from sysfs topology (whether the two share an L3: sysfs's list, else their APIC IDs
 *    against CPUID's sharing count; with no L3 sharing known, the profile's topology has
 *    one L3 domain a package, so two CPUs of a package are taken to share it, and the
 *    value's source says that was assumed);
 *  - mem.copy_mlp: a REP MOVSB on the first CPU of 16 KiB the second has just written,
 *    median cycles per line, against the transfer (the ping-pong's half round trip less
 *    one LOCK XADD, as the model takes it; Little's law);
 *  - cpu.mlp: one 8-byte store into each line of 16 KiB the second CPU has just written,
 *    then MFENCE (every read-for-ownership inside the interval), median cycles per line,
 *    against the transfer latency (Little's law: the stores' misses in flight);
 * Cache sizes, associativity and topology come from /sys/devices/system/cpu, the default
 * mitigations from its vulnerabilities files (the running kernel's choices); a cache level
 * sysfs does not list (a guest's kernel may list none) from CPUID: the deterministic cache
 * parameters (Intel leaf 4, AMD Fn8000_001D), on AMD then Fn8000_0005/Fn8000_0006.
 * Each parameter this measures that a run could not (a level of unknown size, a ping-pong
 * that completed no batch on a busy host, one CPU) is an XML comment in the profile, and
 * a progress line, saying why.
 * Composite sequences whose model cost is a sum of parameters — the generic retpoline and
 * SRSO Safe RET return — are measured too and reported in the profile's description, not
 * written as parameters: a tight loop shows their floor, with no work in flight. So is
 * instruction fetch from L2 over L1I (code generated into executable memory): per
 * following line of straight-line code, and per call to a one-line function in random
 * order (the call target's first line); the same straight-line code over the L3 working
 * set gives ifetch.seq_mlp. So is one REP MOVSB of seed 000's datagram from L1D, beside
 * what the model charges for it from the values written. */
#define _GNU_SOURCE
#include "config.h"
#include <locale.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include "hostbench.h"
#include "param.h"

/* Monotonic time in nanoseconds. */
double
ns_hostbench_now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* A host benchmark's command line; see hostbench.h. */
gboolean
ns_hostbench_parse_args (const char *prog, const char *summary, const GOptionEntry *entries,
                         int *argc, char ***argv)
{
  g_autoptr (GOptionContext) ctx = NULL;
  g_autoptr (GError) error = NULL;

  g_return_val_if_fail (prog != NULL && entries != NULL && argc != NULL && argv != NULL, FALSE);
  setlocale (LC_ALL, "");
  ctx = g_option_context_new (summary);
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, argc, argv, &error)) {
    fprintf (stderr, "%s: %s\n", prog, error->message);
    return FALSE;
  }
  return TRUE;
}

/* A note when the runs' figures disagree; see hostbench.h. */
char *
ns_hostbench_spread_note (const double *v, guint n)
{
  double lo, hi;

  g_return_val_if_fail (v != NULL || n == 0, NULL);

  if (n < 2)
    return NULL;
  lo = hi = v[0];
  for (guint i = 1; i < n; i++) {
    lo = MIN (lo, v[i]);
    hi = MAX (hi, v[i]);
  }
  if (!(lo > 0) || hi <= NS_HOSTBENCH_RUNS_DISAGREE * lo)
    return NULL;
  return g_strdup_printf ("the runs disagree (the largest is %.1f times the smallest): the "
                          "machine differed between runs (other load, or a guest's vCPUs on "
                          "other cores); measure again when it is quiet", hi / lo);
}

/* The parameters calibrate --host measures (which of the c2c ones depends on how far
 * apart CPUs 0 and 1 are). */
static const char *const measurable[] = {
  "cpu.freq_ghz", "cache.l1d.latency_cycles", "cache.l2.latency_cycles",
  "cache.l3.latency_cycles", "mem.dram_latency_ns", "c2c.smt_ns", "c2c.ccx_ns",
  "c2c.socket_ns", "c2c.remote_ns", "ifetch.seq_mlp", "cpu.mlp", "mem.copy_mlp",
  "branch.mispredict_cycles", "icall.predicted_cycles", "icall.lfence_cycles",
  "lock.atomic_cycles", "x86.rdtsc_cycles", "x86.rep_short_cycles", "x86.rep_long_cycles",
  "x86.rep_long_bytes", "ctxsw.rsb_fill_cycles",
  "mem.bw_l1_bytes_per_cycle", "mem.bw_l2_bytes_per_cycle", "mem.bw_l3_bytes_per_cycle",
  "mem.bw_dram_gbps", NULL
};

/* ---- caches as CPUID describes them (pure: the tests give the registers) ---- */

/* The deterministic cache parameters, one sub-leaf per cache, in one layout for Intel
 * (SDM Vol. 2A, CPUID leaf 04H) and AMD (APM Vol. 3, CPUID Fn8000_001D): EAX[4:0] the
 * type (0 no more caches, 1 data, 2 instruction, 3 unified), EAX[7:5] the level,
 * EAX[25:14] + 1 the most logical CPUs sharing it; EBX[31:22] + 1 ways, EBX[21:12] + 1
 * physical line partitions, EBX[11:0] + 1 the line size; ECX + 1 sets. The size is
 * ways × partitions × line size × sets. */
NsCpuidCache
ns_hostbench_cpuid_cache (guint32 eax, guint32 ebx, guint32 ecx)
{
  NsCpuidCache c = { 0 };
  guint partitions = ((ebx >> 12) & 0x3ff) + 1;

  if ((eax & 0x1f) == 0)
    return c;
  c.type = eax & 0x1f;
  c.level = (eax >> 5) & 0x7;
  c.sharing = ((eax >> 14) & 0xfff) + 1;
  c.ways = (ebx >> 22) + 1;
  c.line = (ebx & 0xfff) + 1;
  c.size = (guint64) c.ways * partitions * c.line * ((guint64) ecx + 1);
  return c;
}

/* AMD's older cache leaves (APM Vol. 3): Fn8000_0005 ECX (L1 data) and EDX (L1
 * instruction): [31:24] the size in KiB, [23:16] the ways (FFh: fully associative),
 * [7:0] the line size; Fn8000_0006 ECX (L2): [31:16] the size in KiB, EDX (L3): [31:18]
 * the size in 512 KiB units (the size lies in [n, n + 1) × 512 KiB); for both [15:12] an
 * associativity code, 0 for no such cache, 9 for "determine every field from
 * Fn8000_001D" (this leaf's size then means nothing), the others ranges of ways (so
 * the ways are not given exactly), [7:0] the line size. */
NsCpuidCache
ns_hostbench_cpuid_amd_cache (guint32 reg, guint level, gboolean instruction)
{
  NsCpuidCache c = { 0 }, none = { 0 };
  guint code = (reg >> 12) & 0xf, ways = (reg >> 16) & 0xff;

  g_return_val_if_fail (level >= 1 && level <= 3, none);

  if (level == 1) {
    c.size = (guint64) (reg >> 24) * 1024;
    c.ways = ways == 0xff ? 0 : ways;
  } else if (code == 0 || code == 9) {
    return none;
  } else {
    c.size = level == 2 ? (guint64) (reg >> 16) * 1024 : (guint64) (reg >> 18) * 512 * 1024;
  }
  if (c.size == 0)
    return none;
  c.type = level > 1 ? 3 : instruction ? 2 : 1;
  c.level = level;
  c.line = reg & 0xff;
  return c;
}

/* Whether two CPUs share a cache, from their APIC IDs: the IDs of the CPUs that share one
 * agree above the low bits that number them, as many bits as the sharing count needs
 * rounded up to a power of two (Intel SDM Vol. 2A, CPUID leaf 04H, EAX[25:14]; Linux
 * derives an AMD CPU's last-level cache ID from Fn8000_001D's count the same way). */
gboolean
ns_hostbench_apic_share (guint32 a, guint32 b, guint sharing)
{
  guint bits = 0;

  while (bits < 31 && (1u << bits) < sharing)
    bits++;
  return (a >> bits) == (b >> bits);
}

/* ---- what a run did not measure, and why (pure) ---- */

/* The working set that measures each of L1D, L2, L3 (size: their sizes, 0 = unknown;
 * ws 0: not measured) and DRAM: half-way into each level; L3 at most 4 × L2, as the slice
 * a shared or virtualised host gives one core may be far smaller than the cache's size;
 * DRAM 8 × L3 within 256 MiB … 1 GiB. */
static void
level_sets (const guint64 size[3], gsize ws[4])
{
  gsize prev = 0;

  for (guint l = 0; l < 3; l++) {
    ws[l] = 0;
    if (size[l] == 0 || size[l] <= prev)
      continue;
    ws[l] = prev + (size[l] - prev) / 2;
    if (l == 2)
      ws[l] = MIN (ws[l], 4 * prev);
    prev = size[l];
  }
  ws[3] = MIN (MAX ((gsize) 256 << 20, (gsize) size[2] * 8), (gsize) 1 << 30);
}

static const char *const level_names[3] = { "L1D", "L2", "L3" };

/* Why level l (0 L1D, 1 L2, 2 L3) has no working set. */
static char *
level_why (const guint64 size[3], guint l)
{
  guint64 below = 0;

  if (size[l] == 0)
    return g_strdup_printf ("neither sysfs nor CPUID gives the %s size", level_names[l]);
  for (guint k = 0; k < l; k++)
    below = size[k] > below ? size[k] : below;
  return g_strdup_printf ("the %s size (%" G_GUINT64_FORMAT " KiB) is not above the size "
                          "of the level below (%" G_GUINT64_FORMAT " KiB)", level_names[l],
                          size[l] / 1024, below / 1024);
}

/* Why a figure that needs level l's latency is missing when l has no working set. */
static char *
needs_why (const guint64 size[3], guint l)
{
  g_autofree char *why = level_why (size, l);

  return g_strdup_printf ("it needs the %s latency, and %s", level_names[l], why);
}

#define WHY_PINGPONG "the ping-pong between CPUs 0 and 1 completed no batch within its " \
                     "time (pinning refused or a busy host)"

/* Why a cross-CPU figure (cpu.mlp with store, mem.copy_mlp with copy) is missing, or
 * NULL if what it needs was there. */
static char *
cross_why (const NsHostbenchRun *run, gboolean done, const char *what)
{
  if (run->n_cpus < 2)
    return g_strdup ("one CPU online");
  if (!run->pingpong)
    return g_strdup (WHY_PINGPONG);
  if (!done)
    return g_strdup_printf ("the %s 16 KiB CPU 1 had just written completed no round "
                            "within its time (pinning refused or a busy host)", what);
  return NULL;
}

/* Why instruction fetch from L2 is not measured in a run like run, or NULL if its L2 is
 * large enough. */
static char *
fetch_l2_why (const NsHostbenchRun *run)
{
  if (run->l2 == 0)
    return g_strdup ("neither sysfs nor CPUID gives the L2 size (fetch from L2 and L3 "
                     "needs it)");
  if (run->l2 <= run->l1i * 4)
    return g_strdup_printf ("the L2 (%" G_GUINT64_FORMAT " KiB) is not above 4 x the L1I "
                            "(%" G_GUINT64_FORMAT " KiB), too little to fetch code from "
                            "beyond L1I", run->l2 / 1024, run->l1i / 1024);
  return NULL;
}

/* Why ifetch.seq_mlp is missing, or NULL if what it needs was there. */
static char *
fetch_why (const NsHostbenchRun *run, const guint64 size[3], const gsize ws[4])
{
  char *why = fetch_l2_why (run);

  if (why != NULL)
    return why;
  if (ws[2] == 0)
    return needs_why (size, 2);
  if (ws[0] == 0)
    return needs_why (size, 0);
  return NULL;
}

/* Why param (one calibrate --host measures) is missing from a run like run. */
static char *
unmeasured_why (const NsHostbenchRun *run, const char *param)
{
  static const char *const lat[3] = { "cache.l1d.latency_cycles", "cache.l2.latency_cycles",
                                      "cache.l3.latency_cycles" };
  static const char *const bw[3] = { "mem.bw_l1_bytes_per_cycle",
                                     "mem.bw_l2_bytes_per_cycle",
                                     "mem.bw_l3_bytes_per_cycle" };
  const guint64 size[3] = { run->l1d, run->l2, run->l3 };
  gsize ws[4];
  char *why = NULL;

  level_sets (size, ws);
  for (guint l = 0; l < 3; l++)
    if ((g_str_equal (param, lat[l]) || g_str_equal (param, bw[l])) && ws[l] == 0)
      return level_why (size, l);
  if (g_str_equal (param, run->c2c_param))
    why = cross_why (run, TRUE, NULL);
  else if (g_str_equal (param, "cpu.mlp"))
    why = cross_why (run, run->store, "stores into");
  else if (g_str_equal (param, "mem.copy_mlp")) {
    why = cross_why (run, run->copy, "copy of");
    if (why == NULL && ws[0] == 0)
      why = needs_why (size, 0);
  } else if (g_str_equal (param, "ifetch.seq_mlp"))
    why = fetch_why (run, size, ws);
  else if (g_str_equal (param, "x86.rep_long_bytes"))
    why = g_strdup ("REP strings of 8 to 512 bytes showed no step from the short cost "
                    "to at least twice it");
  return why ? why : g_strdup ("the measurement gave no figure above 0");
}

/* What a run did not measure, and why; see hostbench.h. */
GPtrArray *
ns_hostbench_unmeasured (const NsHostbenchRun *run, const char *const *measured)
{
  static const char *const levels[4] = { "l1d", "l1i", "l2", "l3" };
  static const char *const names[4] = { "L1D", "L1I", "L2", "L3" };
  guint64 sizes[4];
  GPtrArray *lines;

  g_return_val_if_fail (run != NULL && run->c2c_param != NULL && measured != NULL, NULL);

  lines = g_ptr_array_new_with_free_func (g_free);
  sizes[0] = run->l1d;
  sizes[1] = run->l1i;
  sizes[2] = run->l2;
  sizes[3] = run->l3;

  for (guint i = 0; measurable[i] != NULL; i++) {
    const char *p = measurable[i];
    g_autofree char *why = NULL;

    if ((g_str_has_prefix (p, "c2c.") && !g_str_equal (p, run->c2c_param)) ||
        g_strv_contains (measured, p))
      continue;
    why = unmeasured_why (run, p);
    g_ptr_array_add (lines, g_strdup_printf ("%s: not measured: %s", p, why));
  }
  for (guint l = 0; l < 4; l++)
    if (sizes[l] == 0)
      g_ptr_array_add (lines, g_strdup_printf ("cache.%s.size_kib: not read: neither sysfs "
                                               "nor CPUID gives the %s size", levels[l],
                                               names[l]));
  return lines;
}

#if defined(__x86_64__) && defined(__linux__)

/* ---- the measured kernels (x86-64 assembly: the compiler must not reshape them) ---- */

/* 16 ADDs in two independent chains: work beside which a REP string's cost shows. */
#define NSHB_ADDS16 \
  "  add %rdx,%r8\n  add %rdx,%r10\n  add %rdx,%r8\n  add %rdx,%r10\n" \
  "  add %rdx,%r8\n  add %rdx,%r10\n  add %rdx,%r8\n  add %rdx,%r10\n" \
  "  add %rdx,%r8\n  add %rdx,%r10\n  add %rdx,%r8\n  add %rdx,%r10\n" \
  "  add %rdx,%r8\n  add %rdx,%r10\n  add %rdx,%r8\n  add %rdx,%r10\n"

/* Each loop takes its count in %rdi; the call targets add one to %rax and return. */
__asm__ (
  "  .text\n"
  "nshb_target:\n  add $1,%rax\n  ret\n"
  "nshb_target_saferet:\n  add $1,%rax\n  jmp nshb_return_thunk\n"
  "nshb_safe_ret:\n  lea 8(%rsp),%rsp\n  ret\n  int3\n"
  "nshb_return_thunk:\n  call nshb_safe_ret\n  ud2\n"
  "nshb_retpoline_rcx:\n  call 1f\n2:\n  pause\n  lfence\n  jmp 2b\n1:\n  mov %rcx,(%rsp)\n  ret\n"
  "  .globl nshb_adds\nnshb_adds:\n  xor %eax,%eax\n  mov $1,%ecx\n3:\n"
  "  add %rcx,%rax\n  add %rcx,%rax\n  add %rcx,%rax\n  add %rcx,%rax\n  add %rcx,%rax\n"
  "  add %rcx,%rax\n  add %rcx,%rax\n  add %rcx,%rax\n  add %rcx,%rax\n  add %rcx,%rax\n"
  "  dec %rdi\n  jnz 3b\n  ret\n"
  "  .globl nshb_direct\nnshb_direct:\n4:\n  call nshb_target\n  dec %rdi\n  jnz 4b\n  ret\n"
  "  .globl nshb_indirect\nnshb_indirect:\n  lea nshb_target(%rip),%rcx\n"
  "5:\n  call *%rcx\n  dec %rdi\n  jnz 5b\n  ret\n"
  "  .globl nshb_lfence\nnshb_lfence:\n  lea nshb_target(%rip),%rcx\n"
  "6:\n  lfence\n  call *%rcx\n  dec %rdi\n  jnz 6b\n  ret\n"
  "  .globl nshb_retpoline\nnshb_retpoline:\n  lea nshb_target(%rip),%rcx\n"
  "7:\n  call nshb_retpoline_rcx\n  dec %rdi\n  jnz 7b\n  ret\n"
  "  .globl nshb_saferet\nnshb_saferet:\n8:\n  call nshb_target_saferet\n  dec %rdi\n"
  "  jnz 8b\n  ret\n"
  "  .globl nshb_xadd\nnshb_xadd:\n  mov $1,%eax\n9:\n  lock xadd %rax,(%rsi)\n  dec %rdi\n"
  "  jnz 9b\n  ret\n"
  "  .globl nshb_rdtsc\nnshb_rdtsc:\n12:\n  rdtsc\n  dec %rdi\n  jnz 12b\n  ret\n"
  /* the context-switch RSB fill: 16 rounds of two calls that never return, each round
   * dropping its two return addresses, then an LFENCE (32 RSB entries overwritten) */
  "  .globl nshb_rsb_fill\nnshb_rsb_fill:\n13:\n  mov $16,%ecx\n"
  "14:\n  call 15f\n  int3\n15:\n  call 16f\n  int3\n16:\n  add $16,%rsp\n  dec %ecx\n"
  "  jnz 14b\n  lfence\n  dec %rdi\n  jnz 13b\n  ret\n"
  /* REP strings: %rsi a buffer of 8 KiB, %rdx the bytes; each iteration sets the string's
   * registers, runs it (movsb: from the buffer's second half) and 16 independent ADDs */
  "  .globl nshb_rep_none\nnshb_rep_none:\n  mov %rdi,%r11\n  mov %rsi,%r9\n  xor %eax,%eax\n"
  "20:\n  mov %r9,%rdi\n  lea 4096(%r9),%rsi\n  mov %rdx,%rcx\n"
  NSHB_ADDS16 "  dec %r11\n  jnz 20b\n  ret\n"
  "  .globl nshb_rep_stosb\nnshb_rep_stosb:\n  mov %rdi,%r11\n  mov %rsi,%r9\n  xor %eax,%eax\n"
  "21:\n  mov %r9,%rdi\n  lea 4096(%r9),%rsi\n  mov %rdx,%rcx\n  rep stosb\n"
  NSHB_ADDS16 "  dec %r11\n  jnz 21b\n  ret\n"
  "  .globl nshb_rep_stosq\nnshb_rep_stosq:\n  mov %rdi,%r11\n  mov %rsi,%r9\n  xor %eax,%eax\n"
  "22:\n  mov %r9,%rdi\n  mov %rdx,%rcx\n  shr $3,%rcx\n  rep stosq\n"
  NSHB_ADDS16 "  dec %r11\n  jnz 22b\n  ret\n"
  "  .globl nshb_rep_movsb\nnshb_rep_movsb:\n  mov %rdi,%r11\n  mov %rsi,%r9\n  xor %eax,%eax\n"
  "23:\n  mov %r9,%rdi\n  lea 4096(%r9),%rsi\n  mov %rdx,%rcx\n  rep movsb\n"
  NSHB_ADDS16 "  dec %r11\n  jnz 23b\n  ret\n"
  "  .globl nshb_branches\nnshb_branches:\n  xor %ecx,%ecx\n  xor %eax,%eax\n"
  "10:\n  testb $1,(%rsi,%rcx)\n  jz 11f\n  add $1,%rax\n11:\n  inc %rcx\n  and %rdx,%rcx\n"
  "  dec %rdi\n  jnz 10b\n  ret\n"
);

typedef void (*LoopFn) (guint64 n, gpointer p, guint64 mask);

void nshb_adds (guint64 n, gpointer p, guint64 mask);
void nshb_direct (guint64 n, gpointer p, guint64 mask);
void nshb_indirect (guint64 n, gpointer p, guint64 mask);
void nshb_lfence (guint64 n, gpointer p, guint64 mask);
void nshb_retpoline (guint64 n, gpointer p, guint64 mask);
void nshb_saferet (guint64 n, gpointer p, guint64 mask);
void nshb_xadd (guint64 n, gpointer p, guint64 mask);
void nshb_rdtsc (guint64 n, gpointer p, guint64 mask);
void nshb_branches (guint64 n, gpointer p, guint64 mask);
void nshb_rsb_fill (guint64 n, gpointer p, guint64 mask);
void nshb_rep_none (guint64 n, gpointer p, guint64 mask);
void nshb_rep_stosb (guint64 n, gpointer p, guint64 mask);
void nshb_rep_stosq (guint64 n, gpointer p, guint64 mask);
void nshb_rep_movsb (guint64 n, gpointer p, guint64 mask);

/* ---- timing ---- */

#define now_ns ns_hostbench_now_ns

/* The best of reps runs of fn (n iterations): nanoseconds per iteration. */
static double
best_ns (LoopFn fn, guint64 n, gpointer p, guint64 mask, guint reps)
{
  double best = INFINITY;

  for (guint r = 0; r < reps; r++) {
    double t0 = now_ns ();
    fn (n, p, mask);
    /* once: MIN evaluates its arguments twice */
    double per = (now_ns () - t0) / (double) n;

    best = MIN (best, per);
  }
  return best;
}

/* The core clock: 10 dependent ADDs per iteration of nshb_adds, one cycle each. The addend
 * is a register: an Intel Xeon host (family 6, a Golden Cove-class core with AVX512-FP16,
 * 2026-12-03) ran a chain of `add $1,%rax` at 22.5 "GHz", 5.4 a cycle, folding immediate
 * adds before execution, while `add %rcx,%rax`, `xor %rcx,%rax` and a 3-cycle IMUL chain all
 * gave the same 4.16 GHz. */
double
ns_hostbench_core_ghz (guint64 n, guint reps)
{
  return 10.0 / best_ns (nshb_adds, MAX (n, 1), NULL, 0, MAX (reps, 1));
}

/* ---- pinning ---- */

/* Pins the calling thread to cpu; FALSE if the kernel refuses. */
static gboolean
pin_to (guint cpu)
{
  cpu_set_t set;

  CPU_ZERO (&set);
  CPU_SET (cpu, &set);
  return sched_setaffinity (0, sizeof set, &set) == 0;
}

/* Pins the calling thread to cpu after saving its affinity in *saved (for
 * sched_setaffinity afterwards: the caller runs where it did); FALSE if either fails. */
static gboolean
pin_saving (guint cpu, cpu_set_t *saved)
{
  return sched_getaffinity (0, sizeof *saved, saved) == 0 && pin_to (cpu);
}

/* ---- sysfs ---- */

/* The contents of a sysfs file, stripped; see hostbench.h. */
char *
ns_hostbench_sysfs_read (const char *path)
{
  char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  return g_strstrip (text);
}

/* One element of a sysfs CPU list, "N" or "LO-HI", as [*lo, *hi]; FALSE if unparsable. */
static gboolean
cpu_range (const char *part, guint *lo, guint *hi)
{
  int got = sscanf (part, "%u-%u", lo, hi);

  if (got == 1)
    *hi = *lo;
  return got >= 1 && *hi >= *lo;
}

/* Number of CPUs in a sysfs CPU list ("0-3,8-11"); an unparsable element counts one. */
static guint
cpu_list_count (const char *list)
{
  g_auto (GStrv) parts = g_strsplit (list ? list : "", ",", -1);
  guint n = 0;

  for (guint i = 0; parts[i] && *parts[i]; i++) {
    guint lo = 0, hi = 0;
    n += cpu_range (parts[i], &lo, &hi) ? hi - lo + 1 : 1;
  }
  return n;
}

typedef struct {
  guint64     size;             /* bytes; 0 = level absent */
  guint       ways;             /* 0: not known */
  guint       shared_cpus;      /* 0: not known */
  guint       cpuid_sharing;    /* CPUID's most CPUs sharing it (0: not from CPUID) */
  const char *from;             /* NULL: sysfs; else the CPUID leaf, "CPUID leaf 4" */
} HostCache;

typedef struct {
  char      *model;             /* /proc/cpuinfo model name, family, model */
  char      *kernel;
  HostCache  l1d, l1i, l2, l3;
  guint      n_cpus, smt, cpus_per_package;
  guint      cpu_a, cpu_b;      /* the ping-pong pair */
  NsHostPair pair;              /* where they sit */
  const char *c2c_param;        /* which c2c parameter their distance is */
  gboolean   c2c_assumed;       /* ...assuming they share an L3 domain (ns_hostbench_c2c_param) */
} HostInfo;

/* Reads cpu0's cache index i into the matching level of info. */
static void
read_cache_index (HostInfo *info, guint i)
{
  g_autofree char *dir = g_strdup_printf ("/sys/devices/system/cpu/cpu0/cache/index%u", i);
  g_autofree char *level = NULL, *type = NULL, *size = NULL, *ways = NULL, *shared = NULL;
  g_autofree char *p_level = g_build_filename (dir, "level", NULL);
  g_autofree char *p_type = g_build_filename (dir, "type", NULL);
  g_autofree char *p_size = g_build_filename (dir, "size", NULL);
  g_autofree char *p_ways = g_build_filename (dir, "ways_of_associativity", NULL);
  g_autofree char *p_shared = g_build_filename (dir, "shared_cpu_list", NULL);
  HostCache c = { 0 };
  char *end;

  level = ns_hostbench_sysfs_read (p_level);
  type = ns_hostbench_sysfs_read (p_type);
  size = ns_hostbench_sysfs_read (p_size);
  if (!level || !type || !size)
    return;
  ways = ns_hostbench_sysfs_read (p_ways);
  shared = ns_hostbench_sysfs_read (p_shared);
  c.size = g_ascii_strtoull (size, &end, 10) * (*end == 'M' ? 1048576 : *end == 'K' ? 1024 : 1);
  c.ways = ways ? (guint) g_ascii_strtoull (ways, NULL, 10) : 0;
  c.shared_cpus = MAX (1, cpu_list_count (shared));
  if (!strcmp (level, "1"))
    *(strcmp (type, "Instruction") ? &info->l1d : &info->l1i) = c;
  else if (!strcmp (level, "2"))
    info->l2 = c;
  else if (!strcmp (level, "3"))
    info->l3 = c;
}

/* The value of "key : value" in /proc/cpuinfo's first block, or NULL. */
static char *
cpuinfo_field (const char *cpuinfo, const char *key)
{
  g_auto (GStrv) lines = g_strsplit (cpuinfo ? cpuinfo : "", "\n", -1);

  for (guint i = 0; lines[i] && *lines[i]; i++) {
    char *colon = strchr (lines[i], ':');
    if (colon && !strncmp (lines[i], key, strlen (key)) &&
        g_ascii_isspace (lines[i][strlen (key)]))
      return g_strstrip (g_strdup (colon + 1));
  }
  return NULL;
}

/* TRUE if cpu's sysfs list file names other. */
static gboolean
cpu_list_has (guint cpu, const char *file, guint other)
{
  g_autofree char *path = g_strdup_printf ("/sys/devices/system/cpu/cpu%u/%s", cpu, file);
  g_autofree char *list = ns_hostbench_sysfs_read (path);
  g_auto (GStrv) parts = g_strsplit (list ? list : "", ",", -1);

  for (guint i = 0; parts[i] && *parts[i]; i++) {
    guint lo = 0, hi = 0;
    if (cpu_range (parts[i], &lo, &hi) && other >= lo && other <= hi)
      return TRUE;
  }
  return FALSE;
}

/* ---- CPUID ---- */

/* Puts c into its level of info unless sysfs gave that level (sysfs is what the kernel
 * says; CPUID fills only what it left out). */
static void
cache_fill (HostInfo *info, const NsCpuidCache *c, const char *from)
{
  HostCache *slot = c->level == 1 ? (c->type == 2 ? &info->l1i : &info->l1d)
                  : c->type == 2 ? NULL
                  : c->level == 2 ? &info->l2 : c->level == 3 ? &info->l3 : NULL;

  if (c->type == 0 || slot == NULL || slot->size != 0)
    return;
  slot->size = c->size;
  slot->ways = c->ways;
  slot->cpuid_sharing = c->sharing;
  /* CPUID's count is the most CPUs that can share it, not those online */
  slot->shared_cpus = c->sharing ? MIN (c->sharing, MAX (info->n_cpus, 1)) : 0;
  slot->from = from;
}

/* The deterministic cache parameters of leaf (4, or AMD's 0x8000001D) into info. */
static void
cpuid_deterministic (HostInfo *info, guint leaf, const char *from)
{
  for (guint i = 0; i < 16; i++) {
    guint a, b, c, d;
    NsCpuidCache cache;

    __cpuid_count (leaf, i, a, b, c, d);
    cache = ns_hostbench_cpuid_cache (a, b, c);
    if (cache.type == 0)
      break;
    cache_fill (info, &cache, from);
  }
}

/* TRUE if the CPU is AMD's or Hygon's (whose cache leaves are AMD's). */
static gboolean
cpuid_is_amd (void)
{
  guint a, b, c, d;
  char vendor[13];

  __cpuid (0, a, b, c, d);
  memcpy (vendor, &b, 4);
  memcpy (vendor + 4, &d, 4);
  memcpy (vendor + 8, &c, 4);
  vendor[12] = '\0';
  return g_str_equal (vendor, "AuthenticAMD") || g_str_equal (vendor, "HygonGenuine");
}

/* One of AMD's older cache leaves, if ext (the highest extended leaf) reaches it: the cache
 * its ECX describes at level_c, the one its EDX describes at level_d (the L1I when
 * d_is_l1i); source names the leaf (a static string: the levels keep it). */
static void
cpuid_amd_legacy_leaf (HostInfo *info, guint ext, guint leaf, const char *source,
                       guint level_c, guint level_d, gboolean d_is_l1i)
{
  guint a, b, c, d;
  NsCpuidCache cache;

  if (ext < leaf)
    return;
  __cpuid (leaf, a, b, c, d);
  cache = ns_hostbench_cpuid_amd_cache (c, level_c, FALSE);
  cache_fill (info, &cache, source);
  cache = ns_hostbench_cpuid_amd_cache (d, level_d, d_is_l1i);
  cache_fill (info, &cache, source);
}

/* AMD: Fn8000_001D where TOPOEXT (Fn8000_0001 ECX bit 22) says it exists, then the older
 * Fn8000_0005 (L1) and Fn8000_0006 (L2, L3) for what is still missing. */
static void
cpuid_amd_caches (HostInfo *info)
{
  guint a, b, c = 0, d, ext = __get_cpuid_max (0x80000000, NULL);

  if (ext >= 0x80000001)
    __cpuid (0x80000001, a, b, c, d);
  if (ext >= 0x8000001d && (c >> 22 & 1))
    cpuid_deterministic (info, 0x8000001d, "CPUID leaf 0x8000001D");
  cpuid_amd_legacy_leaf (info, ext, 0x80000005, "CPUID leaf 0x80000005", 1, 1, TRUE);
  cpuid_amd_legacy_leaf (info, ext, 0x80000006, "CPUID leaf 0x80000006", 2, 3, FALSE);
}

/* Fills the cache levels sysfs left empty from CPUID, read on CPU 0 where it can be pinned
 * (a hybrid CPU's cores differ; sysfs's are cpu0's). */
static void
cpuid_caches (HostInfo *info)
{
  cpu_set_t saved;
  gboolean pinned;

  if (info->l1d.size && info->l1i.size && info->l2.size && info->l3.size)
    return;
  pinned = pin_saving (0, &saved);
  if (cpuid_is_amd ())
    cpuid_amd_caches (info);
  else if (__get_cpuid_max (0, NULL) >= 4)
    cpuid_deterministic (info, 4, "CPUID leaf 4");
  if (pinned)
    sched_setaffinity (0, sizeof saved, &saved);
}

/* The APIC ID of cpu (leaf 0xB's x2APIC ID where given, else leaf 1's initial APIC ID),
 * read there; FALSE if the thread cannot be pinned to it. */
static gboolean
apic_id_on (guint cpu, guint32 *id)
{
  guint a, b, c, d;
  cpu_set_t saved;

  if (!pin_saving (cpu, &saved))
    return FALSE;
  b = 0;
  if (__get_cpuid_max (0, NULL) >= 0xb)
    __cpuid_count (0xb, 0, a, b, c, d);
  if ((b & 0xffff) != 0) {
    *id = d;
  } else {
    __cpuid (1, a, b, c, d);
    *id = b >> 24;
  }
  sched_setaffinity (0, sizeof saved, &saved);
  return TRUE;
}

/* The CPUs of one L3 domain the profile writes; see hostbench.h. */
guint
ns_hostbench_l3_domain (const NsHostPair *pair, gboolean *assumed)
{
  gboolean known;

  g_return_val_if_fail (pair != NULL, 1);

  known = pair->l3_size != 0 && pair->l3_cpus != 0;
  if (assumed)
    *assumed = !known;
  return MAX (1, known ? pair->l3_cpus : pair->cpus_per_package);
}

/* The c2c parameter of the pair's distance; see hostbench.h. */
const char *
ns_hostbench_c2c_param (const NsHostPair *pair, gboolean *assumed)
{
  gboolean guessed;

  g_return_val_if_fail (pair != NULL, NULL);

  ns_hostbench_l3_domain (pair, &guessed);
  guessed = guessed && !pair->siblings && pair->same_package;
  if (assumed)
    *assumed = guessed;
  return pair->siblings ? "c2c.smt_ns"
       : guessed || pair->l3_shared ? "c2c.ccx_ns"
       : pair->same_package ? "c2c.socket_ns" : "c2c.remote_ns";
}

/* TRUE if info's CPUs a and b share its L3: sysfs's list where it gave the L3; else, where
 * CPUID gave a sharing count, their APIC IDs (ns_hostbench_apic_share); FALSE when that
 * cannot be told (no L3 size or count: the caller then assumes, ns_hostbench_c2c_param). */
static gboolean
share_l3 (const HostInfo *info)
{
  guint32 a, b;

  if (info->l3.size == 0 || info->l3.shared_cpus <= 1)
    return FALSE;
  if (info->l3.from == NULL)
    return cpu_list_has (info->cpu_a, "cache/index3/shared_cpu_list", info->cpu_b);
  return info->l3.cpuid_sharing > 1 && apic_id_on (info->cpu_a, &a) &&
         apic_id_on (info->cpu_b, &b) && ns_hostbench_apic_share (a, b,
                                                                   info->l3.cpuid_sharing);
}

/* Where info's CPUs 0 and 1 sit (package_listed: cpu0's core_siblings_list was read; with
 * none, all online CPUs are one package, as cpus_per_package says), and so which c2c
 * parameter their ping-pong is. */
static void
host_pair_read (HostInfo *info, gboolean package_listed)
{
  NsHostPair *pair = &info->pair;
  gboolean assumed;

  pair->cpus_per_package = info->cpus_per_package;
  pair->l3_size = info->l3.size;
  pair->l3_cpus = info->l3.size ? info->l3.shared_cpus : 0;
  pair->siblings = cpu_list_has (0, "topology/thread_siblings_list", 1);
  pair->same_package = !package_listed || cpu_list_has (0, "topology/core_siblings_list", 1);
  ns_hostbench_l3_domain (pair, &assumed);
  pair->l3_shared = !assumed && share_l3 (info);
  info->c2c_param = ns_hostbench_c2c_param (pair, &info->c2c_assumed);
}

/* Fills info from sysfs and /proc/cpuinfo (the caches sysfs does not give, from CPUID). */
static void
host_info_read (HostInfo *info)
{
  g_autofree char *cpuinfo = NULL, *name = NULL, *family = NULL, *model = NULL;
  g_autofree char *siblings = ns_hostbench_sysfs_read ("/sys/devices/system/cpu/cpu0/topology/"
                                          "thread_siblings_list");
  g_autofree char *package = ns_hostbench_sysfs_read ("/sys/devices/system/cpu/cpu0/topology/"
                                         "core_siblings_list");
  struct utsname un;

  g_file_get_contents ("/proc/cpuinfo", &cpuinfo, NULL, NULL);
  name = cpuinfo_field (cpuinfo, "model name");
  family = cpuinfo_field (cpuinfo, "cpu family");
  model = cpuinfo_field (cpuinfo, "model");
  info->model = g_strdup_printf ("%s (family %s, model %s)", name ? name : "unknown x86-64",
                                 family ? family : "?", model ? model : "?");
  info->kernel = g_strdup (uname (&un) == 0 ? un.release : "unknown");
  info->n_cpus = g_get_num_processors ();
  for (guint i = 0; i < 8; i++)
    read_cache_index (info, i);
  cpuid_caches (info);
  info->smt = MAX (1, cpu_list_count (siblings));
  info->cpus_per_package = MAX (1, package ? cpu_list_count (package) : info->n_cpus);
  info->cpu_a = 0;
  info->cpu_b = 1;
  host_pair_read (info, package != NULL);
}

/* Frees what host_info_read allocated. */
static void
host_info_clear (HostInfo *info)
{
  g_free (info->model);
  g_free (info->kernel);
}

/* ---- measurements ---- */

typedef struct {
  double ghz;
  double lat_ns[4];             /* L1D, L2, L3, DRAM (0: not measured) */
  double mispredict, icall_predicted, icall_lfence;                   /* cycles */
  double atomic, rdtsc, rsb_fill;                                     /* cycles */
  double call_ret, retpoline, saferet;                         /* cycles per iteration */
  gboolean fetched;             /* the next two were measured */
  double fetch_next_line, fetch_call_line;   /* extra cycles from L2 over L1I: a following
                                                line, a call target */
  double fetch_seq_mlp;         /* following lines in flight, from L3 (0: not measured) */
  double c2c_ns;                /* 0: one CPU only */
  double c2c_copy_line;         /* cycles per line of a copy another core's writes feed
                                   (0: one CPU only) */
  double copy_mlp;              /* lines that copy keeps in flight (0: not measured) */
  double c2c_store_line;        /* cycles per line of stores into another core's lines */
  double store_mlp;             /* store misses those stores keep in flight (0: not measured) */
  double copy_bpns[4];          /* copy bytes per ns from L1D, L2, L3, DRAM (0: not measured) */
  double rep_short, rep_long;   /* cycles of a REP string below / from rep_bytes */
  double rep_bytes;             /* where the REP strings' cost steps up (0: no step found) */
  double datagram_copy;         /* cycles of one REP MOVSB of DATAGRAM_BYTES from L1D */
} HostMeasures;

/* Seed 000's iperf3 datagram (-l 8920): the copy its send and receive paths each make. */
#define DATAGRAM_BYTES 8920

/* Copies n bytes with REP MOVSB, as the kernel's user-copy routines do on ERMS cores. */
static void
rep_movsb (void *dst, const void *src, gsize n)
{
  __asm__ volatile ("rep movsb" : "+D" (dst), "+S" (src), "+c" (n) : : "memory");
}

/* Nanoseconds per REP MOVSB of `copy` bytes between two buffers `apart` bytes apart, the
 * direction alternating, over `copies` copies: the best of reps passes (a first pass warms
 * the buffers into their level). */
static double
copy_ns (gsize copy, gsize apart, guint64 copies, guint reps)
{
  guint8 *buf = g_aligned_alloc0 (2, apart, 64);
  double best = INFINITY;

  for (guint r = 0; r < reps + 1; r++) {
    double t0 = now_ns ();
    for (guint64 k = 0; k < copies; k++)
      rep_movsb (buf + (k & 1 ? 0 : apart), buf + (k & 1 ? apart : 0), copy);
    double per = (now_ns () - t0) / (double) copies;

    if (r > 0)
      best = MIN (best, per);
  }
  g_aligned_free (buf);
  return best;
}

/* Copy bandwidth in bytes per ns: REP MOVSB of bytes / 2 from one half of a bytes-sized
 * buffer to the other, repeated until total bytes moved; best of reps. */
static double
copy_bytes_per_ns (gsize bytes, guint64 total, guint reps)
{
  gsize half = MAX (bytes / 2, 4096) & ~(gsize) 63;

  return (double) half / copy_ns (half, half, MAX (total / half, 1), reps);
}

/* Nanoseconds per load of a random cyclic pointer chase over bytes of memory; warm: the
 * first run goes through every line once (a cache level's set), else loads only (DRAM). */
static double
chase_ns (gsize bytes, guint64 loads, guint reps, gboolean warm)
{
  const gsize huge = 2 << 20;
  gsize n = MAX (bytes / 64, 2), size = n * 64, map_size = size + huge;
  guint8 *map = mmap (NULL, map_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                      -1, 0);
  guint8 *mem = (guint8 *) (((guintptr) map + huge - 1) & ~(guintptr) (huge - 1));
  guint *order = g_new (guint, n);
  GRand *rand = g_rand_new_with_seed (1);
  double best = INFINITY;

  if (map == MAP_FAILED)
    goto out;
  /* 2 MiB pages where the kernel grants them: a chase through L3 should not measure
   * page walks */
  madvise (mem, size, MADV_HUGEPAGE);
  for (gsize i = 0; i < n; i++)
    order[i] = (guint) i;
  for (gsize i = n - 1; i > 0; i--) {           /* Fisher-Yates: one random cycle */
    gsize j = g_rand_int_range (rand, 0, (gint32) i + 1);
    guint tmp = order[i];
    order[i] = order[j];
    order[j] = tmp;
  }
  for (gsize i = 0; i < n; i++)
    *(void **) (mem + (gsize) order[i] * 64) = mem + (gsize) order[(i + 1) % n] * 64;
  if (warm)
    loads = MAX (loads, (guint64) n);
  for (guint r = 0; r < reps + 1; r++) {        /* the first run warms */
    void *volatile *p = (void *volatile *) (mem + (gsize) order[0] * 64);
    double t0 = now_ns ();
    for (guint64 k = 0; k < loads; k++)
      p = (void *volatile *) *p;
    double per = (now_ns () - t0) / (double) loads;

    if (r > 0)
      best = MIN (best, per);
    if (p == NULL)
      break;
  }
  munmap (map, map_size);
out:
  g_rand_free (rand);
  g_free (order);
  return best;
}

/* Extra cycles per branch that a random outcome costs: half of them mispredict. */
static double
mispredict_cycles (double ghz, guint64 n, guint reps)
{
  const gsize len = 1 << 16;
  guint8 *bits = g_malloc0 (len);
  GRand *rand = g_rand_new_with_seed (2);
  double predictable, random;

  predictable = best_ns (nshb_branches, n, bits, len - 1, reps);
  for (gsize i = 0; i < len; i++)
    bits[i] = (guint8) g_rand_int (rand);
  random = best_ns (nshb_branches, n, bits, len - 1, reps);
  g_rand_free (rand);
  g_free (bits);
  return MAX (0.0, (random - predictable) * ghz * 2.0);
}

typedef struct {
  guint              cpu;
  volatile gint64   *flag;      /* 2i + 1: ping i; 2i + 2: its answer; -1: stop */
} PingPong;

/* The responder: turns each odd value into the next even one until told to stop, spinning
 * on LOCK CMPXCHG as the profiles' cited ping-pongs do (each try takes the line, so a
 * half round trip is one transfer plus the locked RMW that takes it). A failed try leaves
 * a stop (-1) in place. */
static gpointer
pong_thread (gpointer data)
{
  PingPong *pp = data;

  pin_to (pp->cpu);
  for (gint64 answer = 2;;) {
    gint64 v = answer - 1;
    if (__atomic_compare_exchange_n (pp->flag, &v, answer, FALSE, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE))
      answer += 2;
    else if (v < 0)
      break;
  }
  return NULL;
}

#define C2C_BATCH 64        /* round trips per timed batch of the ping-pong */

/* Half a round trip from timed batches; see hostbench.h. */
double
ns_hostbench_one_way_ns (double *batch_ns, guint n_batches, guint round_trips)
{
  g_return_val_if_fail (batch_ns != NULL && n_batches > 0 && round_trips > 0, 0);
  gsl_sort (batch_ns, 1, n_batches);
  return gsl_stats_median_from_sorted_data (batch_ns, 1, n_batches) / (2.0 * round_trips);
}

/* One round trip of the ping-pong (round i): turns its answer to round i - 1 (2i; 0 before
 * the first) into ping i, spinning on LOCK CMPXCHG like the responder; FALSE if limit_ns
 * (since t0) ran out first. */
static gboolean
ping (volatile gint64 *flag, gint64 i, double t0, double limit_ns)
{
  guint spins = 0;
  gint64 v = 2 * i;

  while (!__atomic_compare_exchange_n (flag, &v, 2 * i + 1, FALSE, __ATOMIC_ACQ_REL,
                                       __ATOMIC_ACQUIRE)) {
    v = 2 * i;
    if ((++spins & 1023) == 0 && now_ns () - t0 >= limit_ns)
      return FALSE;
  }
  return TRUE;
}

/* A CAS ping-pong between cpu_a and cpu_b, ns: half a round trip (one line transfer and the
 * locked RMW that takes it, what the c2c.* parameters mean), the median
 * over batches of C2C_BATCH round trips each (up to rounds round trips in all, or limit_ns
 * of time, whichever comes first; a batch cut short by the limit is dropped), so that a
 * few batches in which either side was descheduled do not move it; 0 if the CPUs cannot
 * be pinned or no batch completed. */
static double
c2c_ns (guint cpu_a, guint cpu_b, guint64 rounds, double limit_ns)
{
  gint64 *flag = g_aligned_alloc0 (1, 64, 64);
  PingPong pp = { cpu_b, flag };
  guint n_batches = (guint) MAX (1, rounds / C2C_BATCH), done = 0;
  g_autofree double *batch = g_new (double, n_batches);
  double t0, ns = 0;
  gboolean in_time = TRUE;
  GThread *pong;
  cpu_set_t saved;

  if (!pin_saving (cpu_a, &saved))
    goto out;
  pong = g_thread_new ("netsim-pong", pong_thread, &pp);
  t0 = now_ns ();
  in_time = ping (flag, 0, t0, limit_ns);   /* round 0 waits for nothing: untimed */
  for (guint b = 0; b < n_batches && in_time; b++) {
    double c0 = now_ns ();
    for (guint j = 0; j < C2C_BATCH && in_time; j++)
      in_time = ping (flag, 1 + (gint64) b * C2C_BATCH + j, t0, limit_ns);
    if (in_time)
      batch[done++] = now_ns () - c0;
  }
  __atomic_store_n (flag, -1, __ATOMIC_RELEASE);
  g_thread_join (pong);
  ns = done > 0 ? ns_hostbench_one_way_ns (batch, done, C2C_BATCH) : 0;
  sched_setaffinity (0, sizeof saved, &saved);   /* the caller runs where it did */
out:
  g_aligned_free (flag);
  return ns;
}

typedef struct {
  guint              cpu;
  guint8            *buf;
  gsize              bytes;
  volatile gint64   *flag;      /* 2i: fill for round i; 2i + 1: filled; -1: stop */
} Filler;

/* The filler: for each even value writes the buffer on its CPU (its lines then sit
 * Modified in that core's cache), then answers with the next odd one. */
static gpointer
filler_thread (gpointer data)
{
  Filler *f = data;

  pin_to (f->cpu);
  for (;;) {
    gint64 v = __atomic_load_n (f->flag, __ATOMIC_ACQUIRE);
    if (v < 0)
      break;
    if ((v & 1) == 0) {
      memset (f->buf, (int) (v >> 1) & 0xff, f->bytes);
      /* not a plain store: it could overwrite a stop written meanwhile (see pong_thread) */
      __atomic_compare_exchange_n (f->flag, &v, v + 1, FALSE, __ATOMIC_RELEASE,
                                   __ATOMIC_RELAXED);
    }
  }
  return NULL;
}

/* Median of the n values in v (sorts v). */
static double
median (double *v, guint n)
{
  gsl_sort (v, 1, n);
  return gsl_stats_median_from_sorted_data (v, 1, n);
}

/* Overhead of one timed interval (two now_ns calls), ns: the median of rounds. */
static double
timer_overhead_ns (guint rounds)
{
  g_autofree double *d = g_new (double, rounds);

  for (guint i = 0; i < rounds; i++) {
    double t0 = now_ns ();
    d[i] = now_ns () - t0;
  }
  return median (d, rounds);
}

/* What cpu_a does to the bytes at src that cpu_b has just written (dst: a buffer as large). */
typedef void (*C2cOp) (guint8 *dst, guint8 *src, gsize bytes);

/* Copies the bytes with REP MOVSB, as copy_to_user does on ERMS/FSRM cores. */
static void
c2c_op_copy (guint8 *dst, guint8 *src, gsize bytes)
{
  rep_movsb (dst, src, bytes);
}

/* Stores one 8-byte word into each line of src, then MFENCE: the interval holds every
 * store's read-for-ownership, not just its entry into the store buffer. */
static void
c2c_op_store (guint8 *dst, guint8 *src, gsize bytes)
{
  (void) dst;
  for (gsize o = 0; o < bytes; o += 64)
    *(volatile gint64 *) (src + o) = (gint64) o;
  __atomic_thread_fence (__ATOMIC_SEQ_CST);
}

/* op on cpu_a over bytes that cpu_b has just written, ns per op: the median of up to
 * rounds (less if limit_ns runs out), timer overhead taken off; 0 if the CPUs cannot be
 * pinned or no op completed. */
static double
c2c_op_ns (C2cOp op, guint cpu_a, guint cpu_b, gsize bytes, guint rounds, double limit_ns)
{
  gint64 *flag = g_aligned_alloc0 (1, 64, 64);
  guint8 *src = g_aligned_alloc0 (1, bytes, 64), *dst = g_aligned_alloc0 (1, bytes, 64);
  g_autofree double *d = g_new (double, rounds);
  Filler f = { cpu_b, src, bytes, flag };
  double t0, overhead = timer_overhead_ns (1000), ns = 0;
  guint done = 0;
  GThread *filler;
  cpu_set_t saved;

  if (!pin_saving (cpu_a, &saved))
    goto out;
  filler = g_thread_new ("netsim-filler", filler_thread, &f);
  t0 = now_ns ();
  for (guint i = 0; i < rounds && now_ns () - t0 < limit_ns; i++) {
    double c0;
    __atomic_store_n (flag, 2 * (gint64) i, __ATOMIC_RELEASE);
    while (__atomic_load_n (flag, __ATOMIC_ACQUIRE) != 2 * (gint64) i + 1)
      if (now_ns () - t0 >= limit_ns)
        goto stop;
    c0 = now_ns ();
    op (dst, src, bytes);
    double took = now_ns () - c0 - overhead;

    d[done++] = MAX (0.0, took);
  }
stop:
  __atomic_store_n (flag, -1, __ATOMIC_RELEASE);
  g_thread_join (filler);
  ns = done > 0 ? median (d, done) : 0;
  sched_setaffinity (0, sizeof saved, &saved);   /* the caller runs where it did */
out:
  g_aligned_free (dst);
  g_aligned_free (src);
  g_aligned_free (flag);
  return ns;
}

/* Reports one measurement on standard error if asked. */
static void
say (const NsHostbenchOptions *opt, const char *what, double value, const char *unit)
{
  if (opt->progress)
    g_printerr ("  %-48s %8.2f %s\n", what, value, unit);
}

/* The working sets of L1D, L2, L3 and DRAM for info's caches (level_sets). */
static void
working_sets (const HostInfo *info, gsize ws[4])
{
  const guint64 size[3] = { info->l1d.size, info->l2.size, info->l3.size };

  level_sets (size, ws);
}

/* Copy bandwidth from each level over the working sets ws, split between source and
 * destination. */
static void
measure_copies (const gsize ws[4], const NsHostbenchOptions *opt, HostMeasures *m)
{
  const char *names[3] = { "L1D copy (REP MOVSB)", "L2 copy (REP MOVSB)",
                           "L3 copy (REP MOVSB)" };
  guint64 total = opt->quick ? (guint64) 16 << 20 : (guint64) 512 << 20;
  guint reps = opt->quick ? 2 : 5;

  for (guint l = 0; l < 3; l++) {
    if (ws[l] == 0)
      continue;
    m->copy_bpns[l] = copy_bytes_per_ns (ws[l], total, reps);
    say (opt, names[l], m->copy_bpns[l] / m->ghz, "bytes/cycle");
  }
  m->copy_bpns[3] = copy_bytes_per_ns (ws[3], total, reps);
  say (opt, "DRAM copy (REP MOVSB)", m->copy_bpns[3], "GB/s");
}

/* ---- instruction fetch ---- */

#define NOP4 "\x0f\x1f\x40\x00"   /* nopl 0(%rax): 4 bytes, one macro-op */

/* Executable memory holding code[0..len) (written, then made read + execute); NULL if the
 * host refuses. */
static guint8 *
code_new (const guint8 *code, gsize len)
{
  gsize size = (len + 4095) & ~(gsize) 4095;
  guint8 *mem = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

  if (mem == MAP_FAILED)
    return NULL;
  memcpy (mem, code, len);
  if (mprotect (mem, size, PROT_READ | PROT_EXEC) != 0) {
    munmap (mem, size);
    return NULL;
  }
  return mem;
}

/* Frees what code_new returned for len bytes. */
static void
code_free (guint8 *mem, gsize len)
{
  if (mem != NULL)
    munmap (mem, (len + 4095) & ~(gsize) 4095);
}

/* Writes a body of lines 64-byte lines at buf + at: 4-byte NOPs, 1-byte NOPs up to the
 * last byte, which is a RET. */
static void
put_body (guint8 *buf, gsize at, gsize lines)
{
  gsize end = at + lines * 64 - 1, i = at;

  for (; i + 4 <= end; i += 4)
    memcpy (buf + i, NOP4, 4);
  for (; i < end; i++)
    buf[i] = 0x90;
  buf[end] = 0xc3;
}

/* Best cycles per run of the code at entry (called as a function), over reps runs. */
static double
best_code_cycles (const guint8 *entry, guint reps, double ghz)
{
  void (*fn) (void) = (void (*) (void)) (gpointer) entry;
  double best = INFINITY;

  for (guint r = 0; r < reps; r++) {
    double t0 = now_ns ();
    fn ();
    double took = now_ns () - t0;

    best = MIN (best, took);
  }
  return best * ghz;
}

/* Cycles per 64-byte line of straight-line code (4-byte NOPs) of bytes, best of reps. */
static double
straight_line_cycles (gsize bytes, guint reps, double ghz)
{
  guint8 *buf = g_malloc (bytes), *code;
  double cycles = 0;

  put_body (buf, 0, bytes / 64);
  if ((code = code_new (buf, bytes)) != NULL)
    cycles = best_code_cycles (code, reps, ghz) / (double) (bytes / 64);
  code_free (code, bytes);
  g_free (buf);
  return cycles;
}

/* Cycles per call of a driver making one direct call to each of the one-line functions
 * at a 128-byte stride in region bytes, in random order; best of reps. */
static double
call_chain_cycles (gsize region, guint reps, double ghz)
{
  gsize n = region / 128, len = region + n * 5 + 64;
  guint8 *buf = g_malloc0 (len), *code;
  guint *order = g_new (guint, n);
  GRand *rand = g_rand_new_with_seed (1);
  double cycles = 0;

  for (gsize f = 0; f < n; f++) {
    put_body (buf, f * 128, 1);
    order[f] = (guint) f;
  }
  for (gsize i = n - 1; i > 0; i--) {
    gsize j = (gsize) g_rand_int_range (rand, 0, (gint32) i + 1);
    guint t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  for (gsize i = 0; i < n; i++) {           /* call rel32 to function order[i] */
    gsize at = region + i * 5;
    gint32 rel = (gint32) ((gssize) order[i] * 128 - (gssize) (at + 5));
    buf[at] = 0xe8;
    memcpy (buf + at + 1, &rel, 4);
  }
  buf[region + n * 5] = 0xc3;
  if ((code = code_new (buf, len)) != NULL)
    cycles = best_code_cycles (code + region, reps, ghz) / (double) n;
  code_free (code, len);
  g_rand_free (rand);
  g_free (order);
  g_free (buf);
  return cycles;
}

/* What instruction fetch adds over L1I: from L2 per following line of straight-line code
 * and per call to a one-line function (its first line) in random order; and from the
 * L3 working set ws3 per following line, which gives the lines sequential fetch keeps in
 * flight (the L3 latency over it; from L2 the cost is too small to divide by). */
static void
measure_fetch (const HostInfo *info, const NsHostbenchOptions *opt, gsize ws3,
               HostMeasures *m)
{
  guint reps = opt->quick ? 20 : 200;
  gsize l1 = MAX (info->l1i.size / 2, 4096), l2 = info->l2.size / 2;
  double base, l3_line;

  if (info->l2.size <= info->l1i.size * 4 || m->ghz <= 0)
    return;
  base = straight_line_cycles (l1, reps, m->ghz);
  m->fetch_next_line = straight_line_cycles (l2, reps, m->ghz) - base;
  m->fetch_call_line = call_chain_cycles (l2 / 2, reps, m->ghz) -
                       call_chain_cycles (l1 / 2, reps, m->ghz);
  m->fetched = TRUE;
  say (opt, "I-fetch from L2: a following line, extra", m->fetch_next_line, "cycles");
  say (opt, "I-fetch from L2: a call target's line, extra", m->fetch_call_line, "cycles");
  if (ws3 == 0 || m->lat_ns[2] <= 0 || m->lat_ns[0] <= 0)
    return;
  l3_line = straight_line_cycles (ws3, MAX (reps / 10, 3), m->ghz) - base;
  say (opt, "I-fetch from L3: a following line, extra", l3_line, "cycles");
  if (l3_line > 0)
    m->fetch_seq_mlp = (m->lat_ns[2] - m->lat_ns[0]) * m->ghz / l3_line;
}

/* Cycles per line of op on CPU 0 over 16 KiB CPU 1 has just written (in the writer's L1D,
 * as a just-written datagram or a socket's lines); 0 if not measured. */
static double
c2c_cycles_per_line (C2cOp op, const HostInfo *info, const NsHostbenchOptions *opt,
                     const HostMeasures *m)
{
  const gsize bytes = 16384;
  double ns = c2c_op_ns (op, info->cpu_a, info->cpu_b, bytes, opt->quick ? 500 : 20000,
                         opt->quick ? 2e8 : 2e9);

  return ns > 0 && m->ghz > 0 ? ns * m->ghz / (double) (bytes / 64) : 0.0;
}

/* Lines in flight by Little's law; see hostbench.h. */
double
ns_hostbench_lines_in_flight (double pingpong_ns, double ghz, double atomic_cycles,
                              double cycles_per_line)
{
  double wait;

  g_return_val_if_fail (ghz > 0 && cycles_per_line > 0, 0.0);
  wait = MAX (0.0, pingpong_ns * ghz - atomic_cycles);
  return wait > 0 ? wait / cycles_per_line : 0.0;
}

/* A REP MOVSB of lines another core has just written: cycles per line, and the lines in
 * flight that makes (the transfer beyond an L1 hit over the time per line). */
static void
measure_c2c_copy (const HostInfo *info, const NsHostbenchOptions *opt, HostMeasures *m)
{
  m->c2c_copy_line = c2c_cycles_per_line (c2c_op_copy, info, opt, m);
  if (m->c2c_copy_line <= 0)
    return;
  say (opt, "copy of lines another core wrote, per line", m->c2c_copy_line, "cycles");
  if (m->c2c_ns <= 0)
    return;
  m->copy_mlp = ns_hostbench_lines_in_flight (m->c2c_ns, m->ghz, m->atomic, m->c2c_copy_line);
  say (opt, "  lines it keeps in flight", m->copy_mlp, "lines");
}

/* Stores into lines another core has just written: cycles per line, and the misses in
 * flight that makes (the transfer beyond an L1 hit over the time per line; the model
 * charges such a store that over cpu.mlp). */
static void
measure_c2c_store (const HostInfo *info, const NsHostbenchOptions *opt, HostMeasures *m)
{
  m->c2c_store_line = c2c_cycles_per_line (c2c_op_store, info, opt, m);
  if (m->c2c_store_line <= 0)
    return;
  say (opt, "store into a line another core wrote, per line", m->c2c_store_line, "cycles");
  if (m->c2c_ns <= 0)
    return;
  m->store_mlp = ns_hostbench_lines_in_flight (m->c2c_ns, m->ghz, m->atomic, m->c2c_store_line);
  say (opt, "  store misses in flight", m->store_mlp, "misses");
}

/* Cycles one REP string of `bytes` (fn's kind) adds to a loop of 16 independent ADDs: the
 * loop with it less the loop without, timed beside it each time (the loop without does not
 * depend on bytes, but a guest's clock drifts between measurements; a pair shares it). */
static double
rep_string_cycles (LoopFn fn, guint8 *buf, gsize bytes, guint64 n, guint reps, double ghz)
{
  double with = best_ns (fn, n, buf, bytes, reps);
  double without = best_ns (nshb_rep_none, n, buf, bytes, reps);

  return MAX (0.0, (with - without) * ghz);
}

/* The first multiple of 8 bytes from 8 to 512 at which a REP string of fn's kind costs
 * more than half-way from short to long (0 if none does). */
static double
rep_string_step (LoopFn fn, guint8 *buf, double short_c, double long_c, guint64 n,
                 guint reps, double ghz)
{
  for (gsize bytes = 8; bytes <= 512; bytes += 8)
    if (rep_string_cycles (fn, buf, bytes, n, reps, ghz) > (short_c + long_c) / 2)
      return (double) bytes;
  return 0;
}

/* REP STOSB, STOSQ and MOVSB: the median cost of the short ones (16-120 bytes), of the
 * long ones (128-624 bytes) and of where each kind steps from one to the other. */
static void
measure_rep_strings (const NsHostbenchOptions *opt, HostMeasures *m)
{
  static const gsize shorts[] = { 16, 32, 64, 96, 120 }, longs[] = { 128, 176, 232, 624 };
  LoopFn kinds[3] = { nshb_rep_stosb, nshb_rep_stosq, nshb_rep_movsb };
  guint64 n = opt->quick ? 20000 : 200000;
  guint reps = opt->quick ? 3 : 7;
  guint8 *buf = g_aligned_alloc0 (1, 8192, 64);
  double s[G_N_ELEMENTS (shorts) * 3], l[G_N_ELEMENTS (longs) * 3], steps[3];

  for (guint k = 0; k < 3; k++) {
    for (guint i = 0; i < G_N_ELEMENTS (shorts); i++)
      s[k * G_N_ELEMENTS (shorts) + i] = rep_string_cycles (kinds[k], buf, shorts[i], n,
                                                            reps, m->ghz);
    for (guint i = 0; i < G_N_ELEMENTS (longs); i++)
      l[k * G_N_ELEMENTS (longs) + i] = rep_string_cycles (kinds[k], buf, longs[i], n,
                                                           reps, m->ghz);
  }
  m->rep_short = median (s, G_N_ELEMENTS (s));
  m->rep_long = median (l, G_N_ELEMENTS (l));
  for (guint k = 0; k < 3; k++)
    steps[k] = rep_string_step (kinds[k], buf, m->rep_short, m->rep_long, n / 4, reps,
                                m->ghz);
  m->rep_bytes = m->rep_long > 2 * m->rep_short ? median (steps, 3) : 0;
  say (opt, "REP STOS/MOVS under 128 bytes", m->rep_short, "cycles");
  say (opt, "REP STOS/MOVS of 128-624 bytes", m->rep_long, "cycles");
  say (opt, "REP STOS/MOVS: the long cost from", m->rep_bytes, "bytes");
  g_aligned_free (buf);
}

/* One REP MOVSB of DATAGRAM_BYTES between two L1D-resident buffers, the two directions in
 * turn (as two datagrams' copies would run), best of reps passes: cycles per copy. */
static void
measure_datagram_copy (const NsHostbenchOptions *opt, HostMeasures *m)
{
  const gsize apart = DATAGRAM_BYTES + 2048 + 64 - DATAGRAM_BYTES % 64;   /* not 4 KiB */

  m->datagram_copy = copy_ns (DATAGRAM_BYTES, apart, opt->quick ? 20000 : 400000,
                              opt->quick ? 3 : 7) * m->ghz;
  say (opt, "REP MOVSB of a 8920-byte datagram from L1D", m->datagram_copy, "cycles");
}

/* Runs every measurement. */
static void
measure (const HostInfo *info, const NsHostbenchOptions *opt, HostMeasures *m)
{
  guint64 scale = opt->quick ? 1 : 20, n = 500000 * scale;
  guint reps = opt->quick ? 3 : 7;
  gint64 *line = g_aligned_alloc0 (1, 64, 64);
  gsize ws[4];
  double direct, indirect, lfence;

  m->ghz = ns_hostbench_core_ghz (n, reps);
  say (opt, "core clock (dependent ADD chain)", m->ghz, "GHz");
  working_sets (info, ws);
  for (guint l = 0; l < 3; l++) {
    if (ws[l] == 0)
      continue;
    m->lat_ns[l] = chase_ns (ws[l], n / 4, reps, TRUE);
    say (opt, l == 0 ? "L1D load-to-use" : l == 1 ? "L2 load-to-use" : "L3 load-to-use",
         m->lat_ns[l] * m->ghz, "cycles");
  }
  m->lat_ns[3] = chase_ns (ws[3], opt->quick ? 20000 : 2000000, opt->quick ? 1 : 3, FALSE);
  say (opt, "DRAM load-to-use", m->lat_ns[3], "ns");
  measure_copies (ws, opt, m);
  m->mispredict = mispredict_cycles (m->ghz, n, reps);
  say (opt, "branch mispredict", m->mispredict, "cycles");
  direct = best_ns (nshb_direct, n, NULL, 0, reps) * m->ghz;
  m->call_ret = direct;
  indirect = best_ns (nshb_indirect, n, NULL, 0, reps) * m->ghz - direct;
  lfence = best_ns (nshb_lfence, n, NULL, 0, reps) * m->ghz - direct;
  m->icall_predicted = MAX (0.0, indirect);           /* not MAX of the calls: it */
  m->icall_lfence = MAX (0.0, lfence);                /* evaluates them twice */
  m->retpoline = best_ns (nshb_retpoline, n / 4, NULL, 0, reps) * m->ghz - direct;
  m->saferet = best_ns (nshb_saferet, n / 4, NULL, 0, reps) * m->ghz - direct;
  m->atomic = best_ns (nshb_xadd, n, line, 0, reps) * m->ghz;
  m->rdtsc = best_ns (nshb_rdtsc, n / 4, NULL, 0, reps) * m->ghz;
  m->rsb_fill = best_ns (nshb_rsb_fill, n / 32, NULL, 0, reps) * m->ghz;
  say (opt, "direct call + return (loop iteration)", m->call_ret, "cycles");
  say (opt, "predicted indirect call, extra", m->icall_predicted, "cycles");
  say (opt, "LFENCE indirect call, extra", m->icall_lfence, "cycles");
  say (opt, "generic retpoline, extra over a direct call", m->retpoline, "cycles");
  say (opt, "SRSO Safe RET return, extra over a plain return", m->saferet, "cycles");
  say (opt, "LOCK XADD", m->atomic, "cycles");
  say (opt, "RDTSC (back to back)", m->rdtsc, "cycles");
  say (opt, "RSB fill, 32 entries (context switch)", m->rsb_fill, "cycles");
  measure_rep_strings (opt, m);
  measure_datagram_copy (opt, m);
  measure_fetch (info, opt, ws[2], m);
  if (info->n_cpus > 1) {
    m->c2c_ns = c2c_ns (info->cpu_a, info->cpu_b, opt->quick ? 20000 : 500000,
                        opt->quick ? 2e8 : 2e9);
    say (opt, info->c2c_param, m->c2c_ns, "ns");
    measure_c2c_copy (info, opt, m);
    measure_c2c_store (info, opt, m);
  }
  g_aligned_free (line);
}

/* ---- the profile ---- */


/* The source of a measured value: "host measurement (stamp): how". */
static char *
measured_source (const char *stamp, const char *how)
{
  return g_strdup_printf ("host measurement (%s): %s", stamp, how);
}

/* v as a profile writes it ("%.3g") into buf; FALSE if it lies outside the registry's
 * range for name (a busy or virtualised host can give that). */
static gboolean
measured_text (const char *name, double v, char buf[G_ASCII_DTOSTR_BUF_SIZE])
{
  const NsParamDef *def = ns_param_lookup (name);

  g_ascii_formatd (buf, G_ASCII_DTOSTR_BUF_SIZE, "%.3g", v);
  return def == NULL || def->min > def->max ||
         (v >= def->min && v <= def->max && isfinite (v));
}

/* Appends <param name value source/> with source "host measurement (...): how". */
static void
put_param (GString *out, const char *stamp, const char *name, const char *value,
           const char *how)
{
  g_autofree char *raw = measured_source (stamp, how);
  g_autofree char *src = g_markup_escape_text (raw, -1);

  g_string_append_printf (out, "  <param name=\"%s\" value=\"%s\" source=\"%s\"/>\n", name,
                          value, src);
}

/* A measured number as a parameter, or, if it lies outside the registry's range, an XML
 * comment that says so instead. */
static void
put_double (GString *out, const char *stamp, const char *name, double v, const char *how)
{
  const NsParamDef *def = ns_param_lookup (name);
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!measured_text (name, v, buf)) {
    g_string_append_printf (out, "  <!-- %s: measured %s %s, outside the range [%g, %g] a "
                            "profile may set; left at its default -->\n", name, buf,
                            def->unit, def->min, def->max);
    return;
  }
  put_param (out, stamp, name, buf, how);
}

/* A count (from sysfs or CPUID) as a parameter. */
static void
put_uint (GString *out, const char *stamp, const char *name, guint64 v, const char *how)
{
  g_autofree char *text = g_strdup_printf ("%" G_GUINT64_FORMAT, v);

  put_param (out, stamp, name, text, how);
}

/* The spectre_v2 file's modes, each as the kernel prints the whole of it before the first
 * separator (spectre_v2_show_state(), 5.17-6.9), with its profile value: the
 * spectre_v2_strings[] entries ("Enhanced IBRS" 5.17-6.2, "Enhanced / Automatic IBRS" from
 * e7862eda309e, v6.3; LFENCE's "Mitigation: " before eafd987d4a82, v5.17, made it
 * "Vulnerable: ") and the lines printed alone for eIBRS modes with unprivileged eBPF
 * (44a3918c8245 and 0de05d056afd, v5.17). */
static const char *const spectre_v2_modes[] = {
  "Vulnerable", "off",
  "Mitigation: Retpolines", "retpoline",
  "Mitigation: LFENCE", "lfence",
  "Vulnerable: LFENCE", "lfence",
  "Mitigation: Enhanced IBRS", "eibrs",
  "Mitigation: Enhanced / Automatic IBRS", "eibrs",
  "Mitigation: Enhanced IBRS + LFENCE", "eibrs,lfence",
  "Mitigation: Enhanced / Automatic IBRS + LFENCE", "eibrs,lfence",
  "Mitigation: Enhanced IBRS + Retpolines", "eibrs,retpoline",
  "Mitigation: Enhanced / Automatic IBRS + Retpolines", "eibrs,retpoline",
  "Mitigation: IBRS", "ibrs",
  "Vulnerable: eIBRS with unprivileged eBPF", "eibrs",
  "Vulnerable: eIBRS+LFENCE with unprivileged eBPF and SMT", "eibrs,lfence",
  NULL
};

/* The length of text's mode: up to the first separator of the states that follow it
 * (", " until 0cd01ac5dcb1, v6.9, "; " from it) or the end of the line. */
static gsize
spectre_v2_mode_length (const char *text)
{
  gsize n = 0;

  while (text[n] != '\0' && text[n] != '\n' &&
         !((text[n] == ',' || text[n] == ';') && text[n + 1] == ' '))
    n++;
  return n;
}

/* The profile's spectre_v2 value for a vulnerabilities/spectre_v2 text; see hostbench.h. */
const char *
ns_hostbench_spectre_v2_mode (const char *text)
{
  gsize n;

  if (text == NULL)
    return "off";
  n = spectre_v2_mode_length (text);
  for (guint i = 0; spectre_v2_modes[i] != NULL; i += 2)
    if (strlen (spectre_v2_modes[i]) == n && !strncmp (text, spectre_v2_modes[i], n))
      return spectre_v2_modes[i + 1];
  return "off";
}

/* The modes of the other vulnerabilities files calibrate --host reads, each as the kernel
 * prints the whole of it before the first separator, with its profile value (compared
 * ignoring case: v6.5 printed "safe RET", v6.6 "Safe RET"); a mode not listed is the
 * file's fallback. retbleed_strings[] (v5.19-6.9; "Vulnerable: untrained return thunk /
 * IBPB on non-AMD based uarch" left out: the kernel runs one of the two, which the text
 * does not say); srso_strings[] (v6.5-6.9: "IBPB on VMEXIT only" costs a kernel entry
 * nothing, and the "no microcode" forms still run the thunk); meltdown's "Mitigation: PTI";
 * mds_strings[] (a VERW "attempted, no microcode" is executed all the same). */
static const char *const vuln_modes[] = {
  "retbleed", "Mitigation: untrained return thunk", "unret",
  "retbleed", "Mitigation: IBPB", "ibpb",
  "retbleed", "Mitigation: IBRS", "ibrs",
  "retbleed", "Mitigation: Enhanced IBRS", "eibrs",
  "retbleed", "Mitigation: Stuffing", "stuff",
  "spec_rstack_overflow", "Mitigation: Safe RET", "safe-ret",
  "spec_rstack_overflow", "Vulnerable: Safe RET", "safe-ret",
  "spec_rstack_overflow", "Mitigation: IBPB", "ibpb",
  "meltdown", "Mitigation: PTI", "true",
  "mds", "Mitigation: Clear CPU buffers", "true",
  "mds", "Vulnerable: Clear CPU buffers attempted", "true",
  NULL
};

/* The profile value for the text of vulnerabilities file `file`; see hostbench.h. */
const char *
ns_hostbench_vuln_mode (const char *file, const char *text, const char *fallback)
{
  gsize n;

  g_return_val_if_fail (file != NULL, fallback);

  if (text == NULL)
    return fallback;
  n = spectre_v2_mode_length (text);
  for (guint i = 0; vuln_modes[i] != NULL; i += 3)
    if (!strcmp (vuln_modes[i], file) && strlen (vuln_modes[i + 1]) == n &&
        !g_ascii_strncasecmp (text, vuln_modes[i + 1], n))
      return vuln_modes[i + 2];
  return fallback;
}

/* The running kernel's choice for one vulnerabilities file, as a profile value. */
static const char *
vuln_mode (const char *file, const char *fallback)
{
  g_autofree char *path = g_build_filename ("/sys/devices/system/cpu/vulnerabilities", file,
                                            NULL);
  g_autofree char *text = ns_hostbench_sysfs_read (path);

  return ns_hostbench_vuln_mode (file, text, fallback);
}

/* The BHI mitigation the spectre_v2 file names ("BHI: SW loop", "BHI: BHI_DIS_S", 6.9+),
 * as a profile value; off for any other. */
static const char *
host_bhi_mode (void)
{
  g_autofree char *text = ns_hostbench_sysfs_read ("/sys/devices/system/cpu/vulnerabilities/spectre_v2");

  if (text != NULL && strstr (text, "BHI: SW loop") != NULL)
    return "loop";
  if (text != NULL && strstr (text, "BHI: BHI_DIS_S") != NULL)
    return "hw";
  return "off";
}

/* The profile default for a host running spectre_v2 mode; see hostbench.h. */
const char *
ns_hostbench_spectre_v2_default (const char *mode, const char **cmdline)
{
  g_return_val_if_fail (mode != NULL && cmdline != NULL, "off");

  *cmdline = NULL;
  if (strcmp (mode, "eibrs,retpoline") && strcmp (mode, "eibrs,lfence"))
    return mode;
  *cmdline = mode;
  return "eibrs";
}

/* The profile default for a host running retbleed mode; see hostbench.h. */
const char *
ns_hostbench_retbleed_default (const char *mode, const char **cmdline)
{
  g_return_val_if_fail (mode != NULL && cmdline != NULL, "off");

  *cmdline = NULL;
  if (strcmp (mode, "stuff"))
    return mode;
  *cmdline = mode;
  return "off";
}

/* The running kernel's spectre_v2 mode, as a profile value. */
static const char *
host_spectre_v2_mode (void)
{
  g_autofree char *text = ns_hostbench_sysfs_read ("/sys/devices/system/cpu/vulnerabilities/spectre_v2");

  return ns_hostbench_spectre_v2_mode (text);
}

/* The <mitigations> element: what the running kernel chose on this host. */
static void
put_mitigations (GString *out, const HostInfo *info)
{
  g_autofree char *src = g_markup_printf_escaped (
    "host: /sys/devices/system/cpu/vulnerabilities under Linux %s, the running kernel's "
    "choices, applied to every kernel version", info->kernel);
  const char *cmdline = NULL, *rb_cmdline = NULL;
  const char *v2 = ns_hostbench_spectre_v2_default (host_spectre_v2_mode (), &cmdline);
  const char *rb = ns_hostbench_retbleed_default (vuln_mode ("retbleed", "off"), &rb_cmdline);

  if (cmdline != NULL)
    g_string_append_printf (out, "  <!-- this host's kernel runs spectre_v2=%s, which only "
                            "the command line selects (the kernel's auto choice on an eIBRS "
                            "CPU is eibrs, the default below): a scenario runs the host's mode "
                            "with kernel.cmdline=spectre_v2=%s -->\n", cmdline, cmdline);
  if (rb_cmdline != NULL)
    g_string_append_printf (out, "  <!-- this host's kernel runs retbleed=%s, which only the "
                            "command line selects (the kernel's auto choice on Intel with "
                            "retpolines is none, the default below): a scenario runs the "
                            "host's mode with kernel.cmdline=retbleed=%s -->\n", rb_cmdline,
                            rb_cmdline);
  g_string_append_printf (out, "  <mitigations kernel-from=\"3.0\" kernel-to=\"99.99\" "
                          "spectre_v2=\"%s\" retbleed=\"%s\" srso=\"%s\" bhi=\"%s\" "
                          "pti=\"%s\" mds=\"%s\"\n               source=\"%s\"/>\n",
                          v2, rb,
                          vuln_mode ("spec_rstack_overflow", "off"), host_bhi_mode (),
                          vuln_mode ("meltdown", "false"), vuln_mode ("mds", "false"), src);
}

/* The cache parameters of one level, from sysfs or CPUID (c->from). */
static void
put_cache (GString *out, const char *stamp, const char *level, const HostCache *c)
{
  g_autofree char *size = g_strdup_printf ("cache.%s.size_kib", level);
  g_autofree char *assoc = g_strdup_printf ("cache.%s.assoc", level);
  g_autofree char *size_how = c->from ? g_strdup_printf ("%s: the %s size", c->from, level)
                                      : g_strdup ("sysfs cpu0/cache size");
  g_autofree char *ways_how = c->from ? g_strdup_printf ("%s: the %s ways", c->from, level)
                                      : g_strdup ("sysfs cpu0/cache ways_of_associativity");

  if (c->size == 0)
    return;
  put_uint (out, stamp, size, c->size / 1024, size_how);
  if (c->ways > 0)
    put_uint (out, stamp, assoc, c->ways, ways_how);
}

/* ---- the values of a run ---- */

/* One measured value of a run: a profile parameter (param) or a figure of the
 * description, under key; how it was measured (parameters only). */
typedef struct {
  const char *key;
  gboolean    param;
  double      value;
  const char *how;
} HostValue;

/* Appends one value to vals. */
static void
add_value (GArray *vals, const char *key, gboolean param, double value, const char *how)
{
  HostValue v = { key, param, value, how };

  g_array_append_val (vals, v);
}

/* The copy bandwidths: bytes per cycle from each cache level, GB/s from DRAM. */
static void
add_copies (GArray *vals, const HostMeasures *m)
{
  static const char *const names[3] = { "mem.bw_l1_bytes_per_cycle",
                                        "mem.bw_l2_bytes_per_cycle",
                                        "mem.bw_l3_bytes_per_cycle" };
  const char *how = "REP MOVSB between two buffers filling the chase's working set of the "
                    "level, best pass";

  for (guint l = 0; l < 3; l++)
    if (m->copy_bpns[l] > 0 && m->ghz > 0)
      add_value (vals, names[l], TRUE, m->copy_bpns[l] / m->ghz, how);
  if (m->copy_bpns[3] > 0)
    add_value (vals, "mem.bw_dram_gbps", TRUE, m->copy_bpns[3],
               "REP MOVSB between two buffers over 8 x L3 (256 MiB to 1 GiB), best pass");
}

/* The latencies, core to core and the memory-level parallelism of one run. */
static void
add_memory (GArray *vals, const HostInfo *info, const HostMeasures *m)
{
  static const char *const lat_names[3] = { "cache.l1d.latency_cycles",
                                            "cache.l2.latency_cycles",
                                            "cache.l3.latency_cycles" };

  for (guint l = 0; l < 3; l++)
    if (m->lat_ns[l] > 0 && isfinite (m->lat_ns[l]))
      add_value (vals, lat_names[l], TRUE, m->lat_ns[l] * m->ghz,
                 "random cyclic pointer chase half-way into the level (L3: at most 4 x L2)");
  if (m->lat_ns[3] > 0 && isfinite (m->lat_ns[3]))
    add_value (vals, "mem.dram_latency_ns", TRUE, m->lat_ns[3],
               "random cyclic pointer chase over 8 x L3 (256 MiB to 1 GiB), TLB misses "
               "included");
  if (m->c2c_ns > 0)
    add_value (vals, info->c2c_param, TRUE, m->c2c_ns,
               info->c2c_assumed
               ? "LOCK CMPXCHG ping-pong on one line between CPUs 0 and 1, half a round "
                 "trip; no L3 sharing known, so the two assumed to share one L3 domain (one "
                 "a package, as cpu.ccx_per_socket)"
               : "LOCK CMPXCHG ping-pong on one line between CPUs 0 and 1, half a round trip");
  if (m->fetch_seq_mlp > 0)
    add_value (vals, "ifetch.seq_mlp", TRUE, m->fetch_seq_mlp,
               "straight-line code (4-byte NOPs) over the L3 working set against the same "
               "from L1I: (L3 - L1D latency) / extra cycles per 64-byte line");
  if (m->store_mlp > 0)
    add_value (vals, "cpu.mlp", TRUE, m->store_mlp,
               "one 8-byte store into each line of 16 KiB CPU 1 has just written, then "
               "MFENCE, on CPU 0 (median): transfer (ping-pong half round trip - LOCK XADD) / "
               "cycles per stored line");
  if (m->copy_mlp > 0)
    add_value (vals, "mem.copy_mlp", TRUE, m->copy_mlp,
               "REP MOVSB on CPU 0 of 16 KiB that CPU 1 has just written (median): "
               "(transfer (ping-pong half round trip - LOCK XADD) - L1D latency) / cycles per "
               "copied line");
}

/* The description's figures and the measured parameters of one run, in the profile's
 * order (the clock first). */
static GArray *
run_values (const HostInfo *info, const HostMeasures *m)
{
  GArray *vals = g_array_new (FALSE, FALSE, sizeof (HostValue));

  add_value (vals, "retpoline", FALSE, m->retpoline, NULL);
  add_value (vals, "saferet", FALSE, m->saferet, NULL);
  add_value (vals, "call_ret", FALSE, m->call_ret, NULL);
  add_value (vals, "datagram_copy", FALSE, m->datagram_copy, NULL);
  if (m->fetched) {
    add_value (vals, "fetch_next_line", FALSE, m->fetch_next_line, NULL);
    add_value (vals, "fetch_call_line", FALSE, m->fetch_call_line, NULL);
  }
  add_value (vals, "cpu.freq_ghz", TRUE, m->ghz, "chain of dependent ADDs (1 cycle each)");
  add_memory (vals, info, m);
  add_value (vals, "branch.mispredict_cycles", TRUE, m->mispredict,
             "data-dependent branch on random bits vs on zeros, x2 (half mispredict)");
  add_value (vals, "icall.predicted_cycles", TRUE, m->icall_predicted,
             "call *%rcx loop minus the same loop with a direct call");
  add_value (vals, "icall.lfence_cycles", TRUE, m->icall_lfence,
             "lfence; call *%rcx loop minus the same loop with a direct call");
  add_value (vals, "lock.atomic_cycles", TRUE, m->atomic, "dependent LOCK XADDs on one line");
  add_value (vals, "x86.rdtsc_cycles", TRUE, m->rdtsc, "back-to-back RDTSCs");
  add_value (vals, "x86.rep_short_cycles", TRUE, m->rep_short,
             "REP STOSB, STOSQ and MOVSB of 16, 32, 64, 96 and 120 bytes, each in a loop "
             "with 16 independent ADDs less the loop without it: the 15 figures' median");
  add_value (vals, "x86.rep_long_cycles", TRUE, m->rep_long,
             "REP STOSB, STOSQ and MOVSB of 128, 176, 232 and 624 bytes, each in a loop "
             "with 16 independent ADDs less the loop without it: the 12 figures' median");
  if (m->rep_bytes > 0)
    add_value (vals, "x86.rep_long_bytes", TRUE, m->rep_bytes,
               "the first multiple of 8 bytes at which a REP STOSB, STOSQ or MOVSB costs "
               "more than half-way from the short to the long cost: the three kinds' median");
  add_value (vals, "ctxsw.rsb_fill_cycles", TRUE, m->rsb_fill,
             "the kernel's 32-entry RSB fill sequence (16 rounds of two calls, then "
             "LFENCE), back to back");
  add_copies (vals, m);
  return vals;
}

/* The median over the runs that measured key (0 if none); with more than one, appends
 * "median of N runs: a, b, c" (the runs' figures in their order) to figures, and a note
 * when they disagree (ns_hostbench_spread_note). */
static double
runs_median (GArray *const *runs, guint n_runs, const char *key, GString *figures)
{
  g_autofree double *v = g_new (double, n_runs);
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  guint found = 0;

  for (guint r = 0; r < n_runs; r++)
    for (guint i = 0; i < runs[r]->len; i++)
      if (g_str_equal (g_array_index (runs[r], HostValue, i).key, key)) {
        v[found++] = g_array_index (runs[r], HostValue, i).value;
        break;
      }
  if (found > 1 && figures != NULL) {
    g_autofree char *note = ns_hostbench_spread_note (v, found);
    g_string_append_printf (figures, "median of %u runs: ", found);
    for (guint i = 0; i < found; i++)
      g_string_append_printf (figures, "%s%s", i ? ", " : "",
                              g_ascii_formatd (buf, sizeof buf, "%.3g", v[i]));
    if (note != NULL)
      g_string_append_printf (figures, "; %s", note);
  }
  return found ? median (v, found) : 0.0;
}

/* How parameter v (of the first run) was measured, with the runs' figures when there
 * are several; *med: their median. */
static char *
measured_how (GArray *const *runs, guint n_runs, const HostValue *v, double *med)
{
  GString *how = g_string_new (v->how);
  g_autoptr (GString) figures = g_string_new (NULL);

  *med = runs_median (runs, n_runs, v->key, figures);
  if (figures->len > 0)
    g_string_append_printf (how, "; %s", figures->str);
  return g_string_free (how, FALSE);
}

/* Writes parameter v (of the first run) as the median over the runs. */
static void
put_measured (GString *out, const char *stamp, GArray *const *runs, guint n_runs,
              const HostValue *v)
{
  double med;
  g_autofree char *how = measured_how (runs, n_runs, v, &med);

  put_double (out, stamp, v->key, med, how);
}

/* TRUE if any of the n_runs runs has a value under key. */
static gboolean
runs_have (GArray *const *runs, guint n_runs, const char *key)
{
  for (guint r = 0; r < n_runs; r++)
    for (guint i = 0; i < runs[r]->len; i++)
      if (g_str_equal (g_array_index (runs[r], HostValue, i).key, key))
        return TRUE;
  return FALSE;
}

/* The description's I-fetch figures (medians), or why no run measured them (first: what
 * the first run had to go on). */
static void
put_fetch_figures (GString *out, GArray *const *runs, guint n_runs,
                   const NsHostbenchRun *first)
{
  g_autofree char *why = NULL;

  if (runs_have (runs, n_runs, "fetch_next_line")) {
    g_string_append_printf (out, ": a following line of straight-line code %.1f cycles "
                            "more, a call to a one-line function in random order %.1f "
                            "more.",
                            runs_median (runs, n_runs, "fetch_next_line", NULL),
                            runs_median (runs, n_runs, "fetch_call_line", NULL));
    return;
  }
  why = fetch_l2_why (first);
  g_string_append_printf (out, ": not measured (%s).",
                          why ? why : "the measurement gave no figure");
}

/* The description's datagram copy (medians) beside what the model charges for it from
 * the values written: the long start-up and the bytes at the L1D copy bandwidth, which
 * was measured over copies with a start-up of their own. */
static void
put_copy_figure (GString *out, GArray *const *runs, guint n_runs)
{
  double copy = runs_median (runs, n_runs, "datagram_copy", NULL);
  double start = runs_median (runs, n_runs, "x86.rep_long_cycles", NULL);
  double bw = runs_median (runs, n_runs, "mem.bw_l1_bytes_per_cycle", NULL);

  g_string_append_printf (out, " A datagram's user copy (seed 000's, REP MOVSB of %d bytes "
                          "between L1D-resident buffers): %.1f cycles", DATAGRAM_BYTES, copy);
  if (bw > 0)
    g_string_append_printf (out, ", where the model charges x86.rep_long_cycles + %d / "
                            "mem.bw_l1_bytes_per_cycle = %.1f.", DATAGRAM_BYTES,
                            start + DATAGRAM_BYTES / bw);
  else
    g_string_append (out, " (no L1D copy bandwidth measured to price it by).");
}

/* The description: the composite sequences, the I-fetch figures and the datagram copy
 * (medians). */
static void
put_description (GString *out, const char *date, GArray *const *runs, guint n_runs,
                 const NsHostbenchRun *first)
{
  g_string_append_printf (out, "  <description>This host, measured by netsim calibrate "
                          "--host on %s. Composite sequences, measured as a tight loop's "
                          "extra cycles (their floor, with no work in flight): generic "
                          "retpoline %.1f over a direct call, SRSO Safe RET %.1f over a plain "
                          "return; direct call + return loop iteration %.1f. Instruction "
                          "fetch from L2 over L1I (the model charges a call's first missed "
                          "line its latency beyond L1 and a following one that over "
                          "ifetch.seq_mlp, measured from L3 below)", date,
                          runs_median (runs, n_runs, "retpoline", NULL),
                          runs_median (runs, n_runs, "saferet", NULL),
                          runs_median (runs, n_runs, "call_ret", NULL));
  put_fetch_figures (out, runs, n_runs, first);
  put_copy_figure (out, runs, n_runs);
  g_string_append_printf (out, "%s</description>\n",
                          n_runs > 1 ? " Each figure is the median of the runs." : "");
}

/* The topology and cache geometry, from sysfs (the caches it lacks from CPUID); L3
 * domains as ns_hostbench_l3_domain gives them (with no L3 sharing known, one a
 * package). */
static void
put_topology (GString *out, const char *stamp, const HostInfo *info)
{
  const char *pkg = "core_siblings_list of cpu0";
  const char *l3_how = info->l3.from ? "the L3 sharing count of CPUID (at most the online "
                                       "CPUs)" : "L3 shared_cpu_list of cpu0";
  gboolean assumed;
  guint l3 = ns_hostbench_l3_domain (&info->pair, &assumed);
  g_autofree char *ccx_how = !assumed ? g_strdup_printf ("%s / %s", pkg, l3_how)
                                      : g_strdup_printf ("%s: no L3 sharing known, so one "
                                                         "L3 domain a package", pkg);
  g_autofree char *cores_how = g_strdup_printf ("%s / thread_siblings_list of cpu0%s",
                                                !assumed ? l3_how : pkg,
                                                !assumed ? "" : " (no L3 sharing known)");

  put_uint (out, stamp, "cpu.sockets", MAX (1, info->n_cpus / info->cpus_per_package),
            "online CPUs / core_siblings_list of cpu0");
  put_uint (out, stamp, "cpu.ccx_per_socket", MAX (1, info->cpus_per_package / l3),
            ccx_how);
  put_uint (out, stamp, "cpu.cores_per_ccx", MAX (1, l3 / info->smt), cores_how);
  put_uint (out, stamp, "cpu.smt", MIN (2, info->smt), "thread_siblings_list of cpu0");
  put_cache (out, stamp, "l1d", &info->l1d);
  put_cache (out, stamp, "l1i", &info->l1i);
  put_cache (out, stamp, "l2", &info->l2);
  put_cache (out, stamp, "l3", &info->l3);
}

/* Today's date, YYYY-MM-DD (UTC). */
static char *
today_text (void)
{
  g_autoptr (GDateTime) today = g_date_time_new_now_utc ();

  return g_date_time_format (today, "%Y-%m-%d");
}

/* "netsim calibrate --host [--quick] [--runs N], DATE, MODEL": how, when and where. */
static char *
host_stamp (const HostInfo *info, const NsHostbenchOptions *opt, guint n_runs)
{
  g_autofree char *date = today_text ();
  g_autofree char *runs_opt = n_runs > 1 ? g_strdup_printf (" --runs %u", n_runs)
                                         : g_strdup ("");

  return g_strdup_printf ("netsim calibrate --host%s%s, %s, %s", opt->quick ? " --quick" : "",
                          runs_opt, date, info->model);
}

/* What run m of info had to go on, for ns_hostbench_unmeasured. */
static NsHostbenchRun
run_outcome (const HostInfo *info, const HostMeasures *m)
{
  NsHostbenchRun run = { info->n_cpus, info->c2c_param, info->l1d.size, info->l1i.size,
                         info->l2.size, info->l3.size, m->c2c_ns > 0, m->c2c_copy_line > 0,
                         m->c2c_store_line > 0 };

  return run;
}

/* The parameters measured in any of the n_runs runs (NULL-terminated; the strings are
 * the runs'), in the first run's order, then any only later runs have. */
static const char **
measured_keys (GArray *const *runs, guint n_runs)
{
  GPtrArray *keys = g_ptr_array_new ();

  for (guint r = 0; r < n_runs; r++)
    for (guint i = 0; i < runs[r]->len; i++) {
      const HostValue *v = &g_array_index (runs[r], HostValue, i);

      if (v->param && !g_ptr_array_find_with_equal_func (keys, v->key, g_str_equal, NULL))
        g_ptr_array_add (keys, (gpointer) v->key);
    }
  g_ptr_array_add (keys, NULL);
  return (const char **) g_ptr_array_free (keys, FALSE);
}

/* "NAME: not measured: WHY" for what run (info, its measures m, its values vals) lacks. */
static GPtrArray *
run_unmeasured (const HostInfo *info, const HostMeasures *m, GArray *vals)
{
  NsHostbenchRun run = run_outcome (info, m);
  g_autofree const char **keys = measured_keys (&vals, 1);

  return ns_hostbench_unmeasured (&run, keys);
}

/* Measures the host n_runs times (with progress as opt says, and what each run did not
 * measure, and why); each run's values, and in *first what the first run had to go on. */
static GArray **
measure_runs (const HostInfo *info, const NsHostbenchOptions *opt, guint n_runs,
              NsHostbenchRun *first)
{
  GArray **runs = g_new0 (GArray *, n_runs);

  for (guint r = 0; r < n_runs; r++) {
    HostMeasures m = { 0 };

    if (opt->progress && n_runs > 1)
      g_printerr (" run %u of %u:\n", r + 1, n_runs);
    measure (info, opt, &m);
    runs[r] = run_values (info, &m);
    if (r == 0)
      *first = run_outcome (info, &m);
    if (opt->progress) {
      g_autoptr (GPtrArray) lines = run_unmeasured (info, &m, runs[r]);

      for (guint i = 0; i < lines->len; i++)
        g_printerr ("  %s\n", (char *) lines->pdata[i]);
    }
  }
  return runs;
}

/* Frees measure_runs' result. */
static void
runs_free (GArray **runs, guint n_runs)
{
  for (guint r = 0; r < n_runs; r++)
    g_array_unref (runs[r]);
  g_free (runs);
}

/* The first run's value of parameter key among the n_runs runs (NULL if none has it). */
static const HostValue *
first_value (GArray *const *runs, guint n_runs, const char *key)
{
  for (guint r = 0; r < n_runs; r++)
    for (guint i = 0; i < runs[r]->len; i++) {
      const HostValue *v = &g_array_index (runs[r], HostValue, i);

      if (v->param && g_str_equal (v->key, key))
        return v;
    }
  return NULL;
}

/* An XML comment for each parameter no run measured, with why (the first run's
 * reasons: what it had to go on, first). */
static void
put_unmeasured (GString *out, const NsHostbenchRun *first, const char *const *keys)
{
  g_autoptr (GPtrArray) lines = ns_hostbench_unmeasured (first, keys);

  for (guint i = 0; i < lines->len; i++)
    g_string_append_printf (out, "  <!-- %s -->\n", (char *) lines->pdata[i]);
}

/* The whole profile text from the n_runs runs' values (first: what the first run had to
 * go on). */
static void
put_profile (GString *out, const char *name, const HostInfo *info, GArray *const *runs,
             guint n_runs, const NsHostbenchRun *first, const NsHostbenchOptions *opt)
{
  g_autofree char *date = today_text ();
  g_autofree char *stamp = host_stamp (info, opt, n_runs);
  g_autofree char *model = g_markup_escape_text (info->model, -1);
  g_autofree char *escaped = g_markup_escape_text (name, -1);
  g_autofree const char **keys = measured_keys (runs, n_runs);

  g_string_append_printf (out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                          "<cpu name=\"%s\" model=\"%s\">\n", escaped, model);
  put_description (out, date, runs, n_runs, first);
  for (guint i = 0; keys[i] != NULL; i++) {
    put_measured (out, stamp, runs, n_runs, first_value (runs, n_runs, keys[i]));
    if (g_str_equal (keys[i], "cpu.freq_ghz"))         /* the clock, then the topology */
      put_topology (out, stamp, info);
  }
  put_unmeasured (out, first, keys);
  put_mitigations (out, info);
  g_string_append (out, "</cpu>\n");
}

/* Measures this host options->runs times and writes its profile to path. */
gboolean
ns_hostbench_write_profile (const char *path, const NsHostbenchOptions *options,
                            GError **error)
{
  g_autofree char *base = NULL, *name = NULL, *dir = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  GArray **runs;
  HostInfo info = { 0 };
  NsHostbenchRun first;
  guint n_runs;
  gboolean ok;

  g_return_val_if_fail (path != NULL && options != NULL, FALSE);
  base = g_path_get_basename (path);
  if (!g_str_has_suffix (base, ".xml") || strlen (base) == 4)
    goto bad_name;
  dir = g_path_get_dirname (path);
  if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
    goto no_dir;
  name = g_strndup (base, strlen (base) - 4);
  n_runs = MAX (1, options->runs);
  host_info_read (&info);
  runs = measure_runs (&info, options, n_runs, &first);
  put_profile (out, name, &info, runs, n_runs, &first, options);
  runs_free (runs, n_runs);
  host_info_clear (&info);
  ok = g_file_set_contents (path, out->str, (gssize) out->len, error);
  return ok;

/* ERRORS */
bad_name:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s: a profile file is NAME.xml (its name "
               "is the file stem)", path);
  return FALSE;
no_dir:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s: no such directory", dir);
  return FALSE;
}

/* TRUE if calibrate --host measures param (on some host). */
gboolean
ns_hostbench_measures (const char *param)
{
  g_return_val_if_fail (param != NULL, FALSE);
  return g_strv_contains (measurable, param);
}

/* The value of param in runs as a profile writes it (*value, *source); FALSE with an
 * error if this host gave none (why: from first, what the first run had to go on) or gave
 * one outside its range. */
static gboolean
measured_param (GArray *const *runs, guint n_runs, const NsHostbenchRun *first,
                const char *stamp, const char *param, char **value, char **source,
                GError **error)
{
  const NsParamDef *def = ns_param_lookup (param);
  const HostValue *v = first_value (runs, n_runs, param);
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_autofree char *how = NULL, *why = NULL;
  double med;

  if (v == NULL)
    goto not_measured;
  how = measured_how (runs, n_runs, v, &med);
  if (!measured_text (param, med, buf))
    goto out_of_range;
  *value = g_strdup (buf);
  *source = measured_source (stamp, how);
  return TRUE;

/* ERRORS */
not_measured:
  why = g_str_has_prefix (param, "c2c.") && !g_str_equal (param, first->c2c_param)
        ? g_strdup_printf ("CPUs 0 and 1 give %s (a core-to-core time needs a second CPU "
                           "at that distance)", first->c2c_param)
        : unmeasured_why (first, param);
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s: this host gave no measurement of it: "
               "%s", param, why);
  return FALSE;
out_of_range:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s: measured %s %s, outside the range "
               "[%g, %g] a profile may set (a loaded or virtualised host?); nothing written",
               param, buf, def->unit, def->min, def->max);
  return FALSE;
}

/* Measures this host and gives each of params as a profile writes it. */
gboolean
ns_hostbench_measure (const NsHostbenchOptions *options, const char *const *params,
                      GPtrArray **values, GPtrArray **sources, GError **error)
{
  g_autoptr (GPtrArray) vals = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) srcs = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *stamp = NULL;
  HostInfo info = { 0 };
  NsHostbenchRun first;
  GArray **runs;
  guint n_runs, bad;
  gboolean ok = TRUE;

  g_return_val_if_fail (options != NULL && params != NULL && values != NULL &&
                        sources != NULL, FALSE);
  for (bad = 0; params[bad] != NULL; bad++)
    if (!ns_hostbench_measures (params[bad]))
      goto not_measured;
  n_runs = MAX (1, options->runs);
  host_info_read (&info);
  runs = measure_runs (&info, options, n_runs, &first);
  stamp = host_stamp (&info, options, n_runs);
  for (guint i = 0; ok && params[i] != NULL; i++) {
    char *value = NULL, *source = NULL;

    ok = measured_param (runs, n_runs, &first, stamp, params[i], &value, &source, error);
    if (ok) {
      g_ptr_array_add (vals, value);
      g_ptr_array_add (srcs, source);
    }
  }
  runs_free (runs, n_runs);
  host_info_clear (&info);
  if (!ok)
    return FALSE;
  *values = g_steal_pointer (&vals);
  *sources = g_steal_pointer (&srcs);
  return TRUE;

/* ERRORS */
not_measured:
  {
    g_autofree char *list = g_strjoinv (", ", (char **) measurable);

    g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s: not a value calibrate --host "
                 "measures (it measures %s)", params[bad], list);
  }
  return FALSE;
}

#else /* not x86-64 Linux */

/* No clock measurement off x86-64 Linux. */
double
ns_hostbench_core_ghz (guint64 n, guint reps)
{
  return 0.0;
}

/* Off x86-64 Linux: nothing is measured. */
gboolean
ns_hostbench_measures (const char *param)
{
  (void) param;
  return FALSE;
}

/* Off x86-64 Linux: refused. */
gboolean
ns_hostbench_measure (const NsHostbenchOptions *options, const char *const *params,
                      GPtrArray **values, GPtrArray **sources, GError **error)
{
  (void) options;
  (void) params;
  (void) values;
  (void) sources;
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "--host measures x86-64 Linux hosts "
               "only");
  return FALSE;
}

/* Off x86-64 Linux: refused. */
gboolean
ns_hostbench_write_profile (const char *path, const NsHostbenchOptions *options,
                            GError **error)
{
  (void) path;
  (void) options;
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "--host measures x86-64 Linux hosts "
               "only");
  return FALSE;
}

#endif
