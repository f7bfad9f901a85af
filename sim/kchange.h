/* kchange.h — the kernel changes netsim tells apart by release, in one registry: each with
 * its commit, title, first mainline release, the first release of every stable series that
 * took it, and where those were read. Models ask ns_kernel_release_has; `netsim list
 * changes` prints the registry. The mitigations' command-line keys and values, and the
 * defaults stable releases took, name their change here too (sim/mitigation.c). */
#pragma once
#include <glib.h>
#include "mitigation.h"

G_BEGIN_DECLS

/* A kernel change as the releases carry it: the first mainline release that has it (a
 * release candidate where it went in during one; "7.0" is the release, after its rcs) and
 * the first release of each stable series that took it ("6.1.93" holds 6.1.93 and every
 * later 6.1 release), NULL-terminated. A series not listed is taken as without. */
typedef struct {
  const char *mainline;
  const char *stables[8];
} NsKernelChange;

typedef enum {
  NS_KCHANGE_UDP_SELECT_SKIPS_ESTABLISHED,
  NS_KCHANGE_UDP_KEEP_SELECTION,
  NS_KCHANGE_UDP_SELECT_PREFERS_CPU,
  NS_KCHANGE_UDP_BIND_HASH2_FIX,
  NS_KCHANGE_UDP_RESCORE,
  NS_KCHANGE_UDP_SINGLE_SCORE_SITE,
  NS_KCHANGE_UDP_SHARED_REUSEPORT_LOOKUP,
  NS_KCHANGE_UDP_IPV6_JHASH2,
  NS_KCHANGE_UDP_DEV_BONUS_BOUND_ONLY,
  NS_KCHANGE_X64_SYS_CALL,
  NS_KCHANGE_LSM_STATIC_CALLS,
  NS_KCHANGE_TC_RSVP_RETIRED,
  NS_KCHANGE_TC_TCINDEX_RETIRED,
  NS_KCHANGE_TC_RECLASSIFY_LOOP_16,
  NS_KCHANGE_BHI_RETPOLINE_CHECK,
  NS_KCHANGE_NETDEV_CACHELINE_GROUPS,
  NS_KCHANGE_SK_MEMORY_PCPU_RESERVE,
  NS_KCHANGE_TC_RETPOLINE_WRAPPER,
  NS_KCHANGE_SKB_SMALL_HEAD_CACHE,
  NS_KCHANGE_UDP_RMEM_SCHEDULE,
  NS_KCHANGE_UDP_DATA_READY_WRAPPER,
  NS_KCHANGE_TC_IPT_RETIRED,
  NS_KCHANGE_UDP_SKIP_DATA_READY,
  NS_KCHANGE_UDP_HASH4,
  NS_KCHANGE_UDP_LOOKUP1,
  NS_KCHANGE_SOCK_FIELDS_REORGANIZED,
  NS_KCHANGE_SPECTRE_V2_RETPOLINE_AMD_ANY_CPU,
  NS_KCHANGE_SPECTRE_BHB_OPTIONS,
  NS_KCHANGE_AMD_GENERIC_RETPOLINE,
  NS_KCHANGE_RETBLEED_PARAM,
  NS_KCHANGE_SPECTRE_V2_IBRS,
  NS_KCHANGE_SRSO,
  NS_KCHANGE_BHI_KNOB,
  NS_KCHANGE_RETBLEED_STUFF,
  NS_KCHANGE_SPECTRE_BHI_VMEXIT,
  NS_KCHANGE_PTI_EARLY_PARAM,
  NS_KCHANGE_SRSO_IBPB_DROPS_UNTRAIN_RET,
  NS_KCHANGE_MITIGATIONS_BUILD_DEFAULT_OFF,
  NS_KCHANGE_MITIGATIONS_PARAM_IGNORED,
  NS_KCHANGE_CPU_MITIGATIONS_RENAME,
  NS_KCHANGE_MITIGATION_CONFIG_RENAMES,
  NS_KCHANGE_UDP_RMEM_ADD_RELAXED,
  NS_KCHANGE_UDP_RMEM_WRAPAROUND_FIX,
  NS_KCHANGE_UDP_RMEM_ADMIT_EMPTY_ONLY,
  NS_KCHANGE_MITIGATIONS_MENU,
  NS_KCHANGE_TCX,
  NS_KCHANGE_TC_DROP_REASON,
  NS_KCHANGE_TC_SW_BYPASS_KEY,
  NS_KCHANGE_BPF_NET_CONTEXT,
  NS_KCHANGE_TC_SW_BYPASS_USESWCNT,
  NS_KCHANGE_X86_KERNEL_IBT,
  NS_KCHANGE_X86_REP_INSNS,
  NS_KCHANGE_X86_COPY_USER_FSRM_TEST,
  NS_KCHANGE_X86_COPY_USER_INLINE,
  NS_KCHANGE_X86_COPY_USER_ERMS,
  NS_KCHANGE_X86_AMD_FSRS,
  NS_KCHANGE_COUNT
} NsKernelChangeId;

/* One registered change; a change later reverted names its revert, and the releases that
 * have the revert (mainline NULL: never reverted) run without it again. */
typedef struct {
  const char     *commit;    /* the mainline commit, 12 hex digits */
  const char     *title;     /* its subject line */
  const char     *effect;    /* what netsim does differently with it */
  NsKernelChange  releases;  /* first mainline release, first release of each stable */
  const char     *evidence;  /* where the releases were read */
  const char     *revert;    /* the reverting commit, 12 hex digits, or NULL */
  NsKernelChange  reverted;  /* the releases that have the revert */
} NsKernelChangeInfo;

/* The registered change id. */
const NsKernelChangeInfo *ns_kernel_change_info (NsKernelChangeId id);
/* TRUE if kernel release release ("6.1.93", "6.9.0-rc1", "5.4" = 5.4.0) has change id
 * and not its revert. */
gboolean                  ns_kernel_release_has (const char *release, NsKernelChangeId id);
/* TRUE if release has the revert of change id. */
gboolean                  ns_kernel_release_reverted (const char *release, NsKernelChangeId id);
/* Which of the n changes ids release has and base lacks, and the reverse: "has C (title),
 * …; lacks C (title), …" (commit, or the title alone where the entry has none), newly
 * allocated; NULL when release and base agree on every one. */
char                     *ns_kernel_changes_between (const char *base, const char *release,
                                                     const NsKernelChangeId *ids, guint n);

G_END_DECLS
