/* hostbench.h — microbenchmarks of the machine netsim runs on (netsim calibrate --host):
 * the measured values of a CPU profile for this host, each with the method as its source
 * (ARCHITECTURE §6 b). x86-64 Linux only. */
#pragma once
#include "common.h"

G_BEGIN_DECLS

typedef struct {
  gboolean quick;               /* short measurements (tests): noisier, same shape */
  gboolean progress;            /* one line per measurement on standard error */
  guint    runs;                /* measurements of the whole set; each value written is
                                   their median, its source lists them (0 or 1: one) */
} NsHostbenchOptions;

/* The contents of a sysfs (or any small text) file at path, stripped of surrounding
 * blanks; NULL if unreadable. Free with g_free. */
char    *ns_hostbench_sysfs_read (const char *path);
/* Monotonic time in nanoseconds (the clock every host measurement uses). */
double   ns_hostbench_now_ns (void);
/* A host benchmark's command line: sets the locale, parses argv with entries under
 * summary ("— what it measures"); FALSE after saying why on standard error as
 * "prog: message" (the caller exits with status 2). */
gboolean ns_hostbench_parse_args (const char *prog, const char *summary,
                                  const GOptionEntry *entries, int *argc, char ***argv);
/* The core clock in GHz, from a chain of dependent ADDs (one cycle each; best of reps
 * runs of n × 10 ADDs); 0 where the host is not x86-64. */
double   ns_hostbench_core_ghz (guint64 n, guint reps);

/* Half a ping-pong round trip, ns (with LOCK CMPXCHG on both sides: one line transfer plus
 * the locked RMW that takes it), from n_batches timed batches of round_trips
 * ping-pong round trips each (batch_ns: each batch's time, ns; sorted in place): half the
 * median batch's round trip. A batch in which either side was descheduled is an outlier
 * the median sheds (a mean over all rounds would carry it). */
double   ns_hostbench_one_way_ns (double *batch_ns, guint n_batches, guint round_trips);

/* Misses in flight by Little's law, as the machine model charges them: the wait beyond
 * an L1 hit of one transfer, which is the ping-pong's half round trip pingpong_ns at ghz
 * less the locked RMW atomic_cycles it contains (its own L1 read being the transfer's;
 * never below 0), the same for a store and a copy's line, over the measured
 * cycles_per_line; 0 when that wait is not positive. */
double   ns_hostbench_lines_in_flight (double pingpong_ns, double ghz, double atomic_cycles,
                                       double cycles_per_line);
/* A note for a value whose n runs (figures v, all > 0) disagree — the largest more than
 * NS_HOSTBENCH_RUNS_DISAGREE times the smallest, as when a guest's vCPUs land on other
 * cores from one run to the next: "the runs disagree (the largest is 2.1 times the
 * smallest): …"; NULL when they agree or n < 2. */
#define NS_HOSTBENCH_RUNS_DISAGREE 1.5
char    *ns_hostbench_spread_note (const double *v, guint n);

/* One cache as CPUID describes it (for host_info_read and tests). */
typedef struct {
  guint   type;                 /* 0 none (the list's end), 1 data, 2 instruction,
                                   3 unified */
  guint   level;
  guint   ways;                 /* 0: not given exactly */
  guint   line;                 /* bytes */
  guint   sharing;              /* the most logical CPUs that share it (0: not given) */
  guint64 size;                 /* bytes */
} NsCpuidCache;

/* One sub-leaf of CPUID's deterministic cache parameters (Intel leaf 4, AMD
 * Fn8000_001D: one layout) from its EAX, EBX, ECX. */
NsCpuidCache ns_hostbench_cpuid_cache     (guint32 eax, guint32 ebx, guint32 ecx);
/* The cache of level 1 (data, or instruction with instruction TRUE: Fn8000_0005 ECX, EDX)
 * or of level 2 or 3 (Fn8000_0006 ECX, EDX) from AMD's older leaves' register reg; type 0
 * where the leaf gives none (absent, or AMD's "see Fn8000_001D" associativity code). */
NsCpuidCache ns_hostbench_cpuid_amd_cache (guint32 reg, guint level, gboolean instruction);
/* TRUE if the CPUs with APIC IDs a and b share a cache CPUID says at most sharing logical
 * CPUs share (the IDs agree above the bits that count the sharing CPUs). */
gboolean     ns_hostbench_apic_share      (guint32 a, guint32 b, guint sharing);
/* The profile's spectre_v2 value ("eibrs,retpoline", "lfence", ...) for the text of
 * /sys/devices/system/cpu/vulnerabilities/spectre_v2: its mode, the text before the first
 * ", " or "; ", matched whole against what bugs.c prints (spectre_v2_strings[], 5.17-6.9,
 * both wordings of eIBRS, and the "Vulnerable: eIBRS..." lines); "off" for "Vulnerable",
 * for a mode it does not know, and for NULL. */
const char  *ns_hostbench_spectre_v2_mode (const char *text);
/* The profile value calibrate --host writes for the text of vulnerabilities file `file`
 * ("retbleed", "spec_rstack_overflow", "meltdown", "mds"): its mode, the text before the
 * first ", " or "; ", matched whole (ignoring case) against what bugs.c prints; fallback
 * for a mode it does not know, for "Vulnerable" or "Not affected", and for NULL. */
const char  *ns_hostbench_vuln_mode       (const char *file, const char *text,
                                           const char *fallback);
/* The profile default calibrate --host writes for a host running spectre_v2 mode (a
 * ns_hostbench_spectre_v2_mode() value): the mode, except for eibrs,retpoline and
 * eibrs,lfence, which only the kernel command line selects (a profile refuses them as
 * defaults): then "eibrs", the kernel's auto choice, and *cmdline the spectre_v2 value that
 * gives the host's mode; else *cmdline is NULL. */
const char  *ns_hostbench_spectre_v2_default (const char *mode, const char **cmdline);
/* The profile default calibrate --host writes for a host running retbleed mode (a
 * ns_hostbench_vuln_mode() value): the mode, except for stuff, which only the kernel
 * command line selects (a profile refuses it as a default): then "off", the auto choice on
 * Intel with retpolines (retbleed=stuff needs spectre_v2=retpoline), and *cmdline "stuff";
 * else *cmdline is NULL. */
const char  *ns_hostbench_retbleed_default   (const char *mode, const char **cmdline);

/* Where a host's CPUs 0 and 1 (the ping-pong pair) sit, as sysfs and CPUID tell it. */
typedef struct {
  guint    cpus_per_package;    /* core_siblings_list of cpu0 (all online CPUs without it) */
  guint64  l3_size;             /* bytes (0: neither sysfs nor CPUID gives it) */
  guint    l3_cpus;             /* CPUs that share the L3 (0: not known) */
  gboolean siblings;            /* one core's threads */
  gboolean l3_shared;           /* they share the L3 (read only where its sharing is known) */
  gboolean same_package;
} NsHostPair;

/* The CPUs of one L3 domain as the profile's topology writes it: the L3's sharing count,
 * or, where no L3 sharing is known, one domain a package (*assumed TRUE; may be NULL). */
guint        ns_hostbench_l3_domain       (const NsHostPair *pair, gboolean *assumed);
/* The c2c parameter the pair's ping-pong stands for, by the L3 domains
 * ns_hostbench_l3_domain gives (the model prices a hand-off inside one with c2c.ccx_ns);
 * *assumed (may be NULL) TRUE where their sharing one was assumed, not read. */
const char  *ns_hostbench_c2c_param       (const NsHostPair *pair, gboolean *assumed);

/* What one run of calibrate --host had to go on, for the reasons it gives for what it did
 * not measure (ns_hostbench_unmeasured). */
typedef struct {
  guint       n_cpus;           /* online */
  const char *c2c_param;        /* the c2c parameter that CPUs 0 and 1 stand for */
  guint64     l1d, l1i, l2, l3; /* cache sizes, bytes (0: neither sysfs nor CPUID
                                   gives it) */
  gboolean    pingpong;         /* the ping-pong between CPUs 0 and 1 completed a batch */
  gboolean    copy, store;      /* the copy of / stores into lines CPU 1 had just written
                                   completed a round */
} NsHostbenchRun;

/* "NAME: not measured: WHY" for each parameter calibrate --host measures (of the c2c ones,
 * run->c2c_param only) that measured (NULL-terminated) lacks, in the order
 * ns_hostbench_measures lists them, then "cache.LEVEL.size_kib: not read: WHY" for each
 * cache size neither sysfs nor CPUID gives (a new array of strings; NULL on bad
 * arguments). */
GPtrArray   *ns_hostbench_unmeasured      (const NsHostbenchRun *run,
                                           const char *const *measured);

/* Measures this host (options->runs times) and writes a CPU profile named after path's
 * file stem (XML-escaped) to path (whole or not at all). Whether the loader accepts that
 * name is for the caller to check (netsim calibrate --host loads the file and removes it
 * if not). Errors: NS_ERROR_INPUT (not x86-64 Linux, unwritable path). */
gboolean ns_hostbench_write_profile (const char *path, const NsHostbenchOptions *options,
                                     GError **error);

/* TRUE if calibrate --host measures param (which core-to-core parameter a host gives
 * depends on how far apart its CPUs 0 and 1 are). */
gboolean ns_hostbench_measures       (const char *param);
/* Measures this host (options->runs times) and gives each of params (NULL-terminated)
 * as a profile writes it: values and sources (new arrays of strings, in params' order),
 * the source naming the host, the date and, with several runs, their figures. Errors
 * (NS_ERROR_INPUT): a parameter calibrate --host does not measure (before measuring),
 * not x86-64 Linux; one this host gave no figure for, or one outside its range. */
gboolean ns_hostbench_measure        (const NsHostbenchOptions *options,
                                      const char *const *params, GPtrArray **values,
                                      GPtrArray **sources, GError **error);

G_END_DECLS
