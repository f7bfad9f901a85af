/* mitigation.h — which speculative-execution mitigations a kernel runs with, and why.
 *
 * A CPU profile lists what Linux selects by default for that CPU, per kernel version range
 * (NsMitigationDefault, parsed from the profile). The scenario's kernel command line then
 * overrides it the way the kernel's parser does. The result says, per mitigation, what is in
 * force and why ("profile default for 6.1–6.9: ..." or "kernel command line: ..."). */
#pragma once
#include "common.h"

G_BEGIN_DECLS

typedef enum {
  NS_SPECTRE_V2_OFF,        /* plain predicted indirect calls */
  NS_SPECTRE_V2_RETPOLINE,  /* generic retpoline thunk on every indirect call/jump */
  NS_SPECTRE_V2_LFENCE,     /* LFENCE; jmp *%reg ("AMD retpoline") */
  NS_SPECTRE_V2_EIBRS,      /* enhanced / automatic IBRS: set once, indirect calls predicted */
  NS_SPECTRE_V2_IBRS,       /* legacy kernel IBRS: SPEC_CTRL written on every entry and exit */
  /* eIBRS set once and every indirect call/jump through a thunk as well (v5.17,
   * 1e19da8522c8: SPECTRE_V2_EIBRS_RETPOLINE / _LFENCE, X86_FEATURE_RETPOLINE set for both,
   * X86_FEATURE_RETPOLINE_LFENCE for the second) */
  NS_SPECTRE_V2_EIBRS_RETPOLINE,  /* eIBRS + the generic retpoline thunk */
  NS_SPECTRE_V2_EIBRS_LFENCE      /* eIBRS + LFENCE; jmp *%reg */
} NsSpectreV2;
#define NS_SPECTRE_V2_LAST NS_SPECTRE_V2_EIBRS_LFENCE

typedef enum {
  NS_RETBLEED_OFF,
  NS_RETBLEED_UNRET,        /* jmp __x86_return_thunk (untrained return thunk) */
  NS_RETBLEED_IBRS,         /* covered by kernel IBRS on entry */
  NS_RETBLEED_STUFF,        /* call depth tracking */
  NS_RETBLEED_EIBRS,        /* covered by eIBRS, no per-return cost */
  NS_RETBLEED_IBPB          /* IBPB on every kernel entry (retbleed=ibpb) */
} NsRetbleed;

typedef enum {
  NS_SRSO_OFF,
  NS_SRSO_SAFE_RET,         /* every return goes through srso_(alias_)return_thunk */
  NS_SRSO_IBPB              /* IBPB on every kernel entry */
} NsSrso;

typedef enum {
  NS_BHI_OFF,
  NS_BHI_LOOP,              /* clear_bhb_loop at every syscall entry */
  NS_BHI_HW                 /* BHI_DIS_S set once */
} NsBhi;

/* The CPU bugs whose command-line keys the kernel ignores on a CPU that does not have the
 * bug: retbleed_select_mitigation(), srso_select_mitigation() and mds_select_mitigation()
 * return early without X86_BUG_RETBLEED / SRSO / MDS, and spectre_v2_select_mitigation()
 * calls bhi_select_mitigation() only with X86_BUG_BHI (arch/x86/kernel/cpu/bugs.c). The
 * bug bits come from cpu_set_bug_bits() (common.c): a profile lists the ones its CPU has. */
typedef enum {
  NS_BUG_RETBLEED = 1 << 0,
  NS_BUG_SRSO     = 1 << 1,
  NS_BUG_MDS      = 1 << 2,
  NS_BUG_BHI      = 1 << 3
} NsBug;
#define NS_BUGS_ALL (NS_BUG_RETBLEED | NS_BUG_SRSO | NS_BUG_MDS | NS_BUG_BHI)
/* What the kernel's command-line handling asks of the CPU beyond its bugs. No vendor bit:
 * an unnamed CPU (the generic profile), on which every value applies. */
typedef enum {
  NS_CPU_INTEL    = 1 << 0,   /* GenuineIntel: legacy IBRS; retbleed follows spectre_v2 */
  NS_CPU_AMD      = 1 << 1,   /* AuthenticAMD */
  NS_CPU_BHI_CTRL = 1 << 2    /* BHI_DIS_S: bhi_select_mitigation() prefers it to the loop */
} NsCpuFeature;

/* What an explanation line says of a command-line key it ignored for want of the bug. */
#define NS_MITIGATION_IGNORED "ignored: the CPU profile does not list X86_BUG_"
/* What it says where the kernel chose another value than the command line asked for. */
#define NS_MITIGATION_KERNEL_CHOSE "the kernel chose otherwise: "

/* The mitigation code a kernel build compiles in: one bit a Kconfig bool of arch/x86/Kconfig
 * (each "default y"), read from the scenario's <config> (ns_build_mitigations_built) and
 * closed under Kconfig's "depends on": every option lies in the CPU_MITIGATIONS menu (x86's
 * SPECULATION_MITIGATIONS before 6.9-rc6, 6.8.9, 6.6.30, 6.1.90; from f43b9876e857),
 * RETHUNK needs RETPOLINE, and UNRET_ENTRY, SRSO and CALL_DEPTH_TRACKING need RETHUNK (so
 * RETPOLINE=n takes them all away). SPECTRE_BHI compiles no code in or out: it is the BHI
 * mitigation's default. */
typedef enum {
  NS_BUILT_RETPOLINE           = 1 << 0,  /* retpoline thunks (spectre_v2=retpoline, lfence,
                                           * eibrs,retpoline, eibrs,lfence) */
  NS_BUILT_RETHUNK             = 1 << 1,  /* return thunks, which the three below patch in */
  NS_BUILT_UNRET_ENTRY         = 1 << 2,  /* untrained return thunk (retbleed=unret) */
  NS_BUILT_IBPB_ENTRY          = 1 << 3,  /* IBPB on entry (retbleed=ibpb, SRSO ibpb) */
  NS_BUILT_IBRS_ENTRY          = 1 << 4,  /* kernel IBRS on entry (spectre_v2=ibrs) */
  NS_BUILT_SRSO                = 1 << 5,  /* SRSO Safe RET (srso_(alias_)return_thunk) */
  NS_BUILT_CALL_DEPTH_TRACKING = 1 << 6,  /* call depth tracking (retbleed=stuff) */
  NS_BUILT_CPU_MITIGATIONS     = 1 << 7,  /* the menu of all the others; =n also turns
                                           * cpu_mitigations off by default (6.9-rc4+) */
  NS_BUILT_PAGE_TABLE_ISOLATION = 1 << 8, /* PTI (pti_check_boottime_disable()) */
  NS_BUILT_SPECTRE_BHI         = 1 << 9   /* the BHI mitigation on by default */
} NsBuilt;
#define NS_BUILT_ALL 0x3ffu

/* What one CPU runs by default for kernels in [kernel_from, kernel_to] (versions "6.1",
 * "6.9"; inclusive, compared numerically on major.minor). */
typedef struct {
  char        *kernel_from;
  char        *kernel_to;
  NsSpectreV2  spectre_v2;
  NsRetbleed   retbleed;
  NsSrso       srso;
  gboolean     pti;
  gboolean     mds_verw;
  NsBhi        bhi;
  char        *source;      /* where this default comes from (required) */
  int          line;        /* line in the profile, for messages */
  guint        unaffected;  /* NsBug bits the CPU lacks (0: it has them all, the kernel's
                             * view of a CPU on none of its whitelists) */
  guint        features;    /* NsCpuFeature bits of the CPU */
} NsMitigationDefault;

/* What is in force for one run. */
typedef struct {
  NsSpectreV2  spectre_v2;
  NsRetbleed   retbleed;
  NsSrso       srso;
  gboolean     pti;
  gboolean     mds_verw;
  NsBhi        bhi;
  gboolean     smt_off;     /* the kernel took the SMT siblings offline (cpu_smt_disable()) */
  guint        cpu_features; /* the CPU's NsCpuFeature bits (its vendor), as the kernel
                                saw them at boot: boot_cpu_data's, for the models' own
                                vendor rules (0 without a profile default) */
  gboolean     ibrs_enhanced; /* the CPU has eIBRS (X86_FEATURE_IBRS_ENHANCED: the default
                               for the kernel is an eIBRS mode), so legacy IBRS's IBRS=1 in the
                               kernel restricts prediction as eIBRS does */
  /* one line per mitigation: "spectre_v2=retpoline: <why>"; NULL-terminated */
  char       **explain;
  /* notes on the command line: keys or values newer than the kernel, applied as
   * backports; words after a "--", gone to init (NULL: none) */
  char       **notes;
} NsMitigations;

/* Picks the default matching kernel_version from defaults[0..n) (error if none matches),
 * then applies cmdline ("mitigations=off spectre_v2=eibrs ..."; unknown keys ignored as the
 * kernel does, and so are the keys of bugs the default's CPU lacks, its unaffected bits;
 * bad values of known keys are an error). */
gboolean     ns_mitigations_select (const NsMitigationDefault *defaults, guint n_defaults,
                                    const char *kernel_version, const char *cmdline,
                                    NsMitigations *out, GError **error);
/* ns_mitigations_select for a build that compiles in only the NsBuilt bits built (as
 * ns_mitigation_built_closure gives them): a mode whose code the build lacks falls back
 * as arch/x86/kernel/cpu/bugs.c does (6.1-6.9), its explanation line saying so ("~"). */
gboolean     ns_mitigations_select_built (const NsMitigationDefault *defaults,
                                          guint n_defaults, const char *kernel_version,
                                          const char *cmdline, guint built,
                                          NsMitigations *out, GError **error);
/* The Kconfig name of one NsBuilt option in kernel version: the CONFIG_MITIGATION_ name
 * from 6.9 (renamed for v6.9-rc1), the older one before (CONFIG_RETPOLINE,
 * CONFIG_CPU_SRSO, ...; CONFIG_CPU_MITIGATIONS from 6.9-rc6 and 6.8.9, 6.6.30, 6.1.90,
 * CONFIG_SPECULATION_MITIGATIONS before); NULL where that kernel has no such option (call depth tracking before 6.2, the
 * mitigations menu before 5.19-rc7 and 5.18.14, 5.15.57, 5.10.133). */
const char  *ns_mitigation_option  (NsBuilt option, const char *version);
/* Why option has another name in other kernel versions ("the mitigation options took the
 * CONFIG_MITIGATION_ names in 6.9-rc1"), or NULL if it has one name in all. */
const char  *ns_mitigation_option_renamed (NsBuilt option);
/* The NsBuilt bit whose Kconfig name, in some kernel version, is key; 0 if none. */
NsBuilt      ns_mitigation_option_lookup (const char *key);
/* The NsBuilt bits stated (not =n) closed under Kconfig's "depends on": a bit whose
 * dependency is missing is dropped, as Kconfig drops the option. */
guint        ns_mitigation_built_closure (guint stated);
/* The words of cmdline (as written) whose key no netsim model reads (none of the keys
 * ns_mitigations_select takes, after its '-'/'_' and quote rules: "mitigation=off",
 * "nosmt"), which change nothing, as the kernel passes a parameter it does not know on to
 * init (an argument holding, between quotes, a word the kernel's cmdline_find_option
 * finds, as dyndbg="a spectre_v2=off b" does, is read); a newly allocated NULL-terminated array (empty: every word is read). It stops at
 * a bare "--", as the kernel's parse_args() does: the words from there on go to init, which
 * the notes of ns_mitigations_select say. */
char       **ns_mitigation_cmdline_unread (const char *cmdline);
/* "mitigations=, spectre_v2=, nospectre_v2, …": the keys netsim reads, newly allocated. */
char        *ns_mitigation_cmdline_keys (void);
/* The first of defaults[0..n) whose kernel range holds version, or NULL (the version
 * ns_mitigations_select then refuses). */
const NsMitigationDefault *ns_mitigation_default_find (const NsMitigationDefault *defaults,
                                                       guint n, const char *version);
void         ns_mitigations_clear  (NsMitigations *mit);
void         ns_mitigation_default_clear (NsMitigationDefault *def);
const char  *ns_spectre_v2_name    (NsSpectreV2 mode);
/* TRUE if indirect calls go through the retpoline thunks (X86_FEATURE_RETPOLINE: the
 * generic retpoline or the LFENCE one, with eIBRS or without). */
gboolean     ns_spectre_v2_thunked (NsSpectreV2 mode);
/* TRUE if mode runs eIBRS (the kernel's spectre_v2_in_eibrs_mode(): eibrs, eibrs,retpoline,
 * eibrs,lfence): IBRS set once in SPEC_CTRL, no MSR write at entry or exit, and on Intel
 * retbleed covered as by eIBRS. */
gboolean     ns_spectre_v2_in_eibrs_mode (NsSpectreV2 mode);
const char  *ns_retbleed_name      (NsRetbleed mode);
const char  *ns_srso_name          (NsSrso mode);
const char  *ns_bhi_name           (NsBhi mode);
/* The kernel's lower-case name of one bug ("retbleed", "srso", "mds", "bhi"). */
const char  *ns_bug_name           (NsBug bug);
/* Parses space-separated bug names into a mask; FALSE (with *bad the first unknown name,
 * newly allocated) if one is not a bug name. */
gboolean     ns_bugs_parse         (const char *text, guint *mask, char **bad);
/* Parse names as used in profiles and on the command line; FALSE if unknown. */
gboolean     ns_spectre_v2_parse   (const char *text, NsSpectreV2 *out);
gboolean     ns_retbleed_parse     (const char *text, NsRetbleed *out);
gboolean     ns_srso_parse         (const char *text, NsSrso *out);
gboolean     ns_bhi_parse          (const char *text, NsBhi *out);
/* "spectre_v2=retpoline srso=safe-ret …": the key=value part of each line of explain
 * (NsMitigations.explain), newly allocated ("" for none). */
char        *ns_mitigations_summary (char *const *explain);
/* The value one explanation line ("key=value: why") gives key, newly allocated, or NULL if
 * the line is another key's; *mark becomes how the value came about: "~" the kernel chose
 * another value than the command line asked, "*" the command line set it, "!" the command
 * line's key was ignored for want of the bug, "" the profile's default. */
char        *ns_mitigation_explain_value (const char *line, const char *key, const char **mark);
/* TRUE if version ("6.9", "6.9.0-rc1") starts with MAJOR.MINOR, each part within 64 bits;
 * else FALSE with an NS_ERROR_INPUT error (ns_kernel_version_cmp cannot order it). */
gboolean     ns_kernel_version_check (const char *version, GError **error);
/* Compares "6.9.0-rc1" with "6.9" on major.minor: <0, 0, >0. */
int          ns_kernel_version_cmp (const char *a, const char *b);
/* Orders two kernel releases: <0, 0, >0. On major.minor, then the stable sublevel (a
 * release without one is its series' first, "5.4" = 5.4.0), then the mainline release
 * candidate, which comes before its .0 ("6.2-rc1" < "6.2"); a stable candidate
 * ("5.4.55-rc1") is its release, and a suffix ("-fc-v1252") is ignored. */
int          ns_kernel_release_cmp (const char *a, const char *b);
/* The entry of series (at most n, NULL-terminated below n) whose stable releases hold
 * kernel, or NULL: an entry naming a release ("5.10.105") holds it and the later releases
 * of its series, not those before nor the series' .0 and release candidates; one naming
 * none ("6.4") holds the whole series. */
const char  *ns_kernel_stable_series_find (const char *const *series, guint n,
                                           const char *kernel);
/* TRUE if version lies in the inclusive range from..to, on major.minor and then on release
 * candidates: a bound that names one ("6.9.0-rc4") is exact, one that names none covers
 * its whole series ("6.9" from 6.9.0-rc1, "6.8" to the 6.8 release); a version that names
 * none is the release. */
gboolean     ns_kernel_version_in_range (const char *version, const char *from,
                                         const char *to);
/* TRUE if the ranges a_from..a_to and b_from..b_to (read as ns_kernel_version_in_range
 * does) share a version. */
gboolean     ns_kernel_ranges_overlap (const char *a_from, const char *a_to,
                                       const char *b_from, const char *b_to);

G_END_DECLS
