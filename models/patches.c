/* patches.c — the kernel patches scenarios can apply (seed issues add theirs here). */
#include "config.h"
#include <string.h>
#include "workload.h"

/* udp: Avoid call to compute_score on multiple sites (Gabriel Krisman Bertazi, Apr 2024;
 * seed 000). udp4_lib_lookup2 / udp6_lib_lookup2 jump back to their one compute_score call
 * site to re-score a reuseport selection, so GCC folds compute_score in again. The UDP
 * model (models/net/udp.c) runs lookup generation D on a build with this patch. */
static void
apply_udp_compute_score_single_site (NsBuild *build)
{
  ns_build_apply_patch (build, "udp-compute-score-single-site");
  ns_build_set_call_sites (build, "compute_score", 1);
  ns_build_set_call_sites (build, "ipv6:compute_score", 1);
}

static const NsPatch patch_udp_compute_score_single_site = {
  "udp-compute-score-single-site", "50aee97d1511",
  "udp: re-score a reuseport selection by jumping back to the single compute_score call "
  "site (lets GCC inline compute_score again)",
  apply_udp_compute_score_single_site
};

/* Revert of f0ea27e7bfe1 "udp: re-score reuseport groups when connected sockets are
 * present" (Lorenz Bauer, v6.6): no re-score, one compute_score call site (generation B). */
static void
apply_revert_udp_rescore (NsBuild *build)
{
  ns_build_apply_patch (build, "revert-udp-rescore");
  ns_build_set_call_sites (build, "compute_score", 1);
  ns_build_set_call_sites (build, "ipv6:compute_score", 1);
}

static const NsPatch patch_revert_udp_rescore = {
  "revert-udp-rescore", "revert f0ea27e7bfe1",
  "udp: revert the re-scoring of reuseport groups with connected sockets (one "
  "compute_score call site, pre-6.6 lookup)",
  apply_revert_udp_rescore
};

/* net/sched: retpoline wrappers for tc (seed 002): models/net/sched/tc_wrapper.c. */
extern const NsPatch ns_patch_tc_retpoline_wrappers;
extern const NsPatch ns_patch_tc_retpoline_wrappers_rfc;
extern const NsPatch ns_patch_tc_wrapper_cls_first;
extern const NsPatch ns_patch_tc_wrapper_cls_last;

static const NsPatch *const patches[] = {
  &patch_udp_compute_score_single_site,
  &patch_revert_udp_rescore,
  &ns_patch_tc_retpoline_wrappers,
  &ns_patch_tc_retpoline_wrappers_rfc,
  &ns_patch_tc_wrapper_cls_first,
  &ns_patch_tc_wrapper_cls_last,
  NULL
};

/* Every known patch, NULL-terminated. */
const NsPatch *const *
ns_patches (void)
{
  return patches;
}

/* The patch named name, or NULL. */
const NsPatch *
ns_patch_find (const char *name)
{
  g_return_val_if_fail (name != NULL, NULL);
  for (guint i = 0; patches[i]; i++)
    if (!strcmp (patches[i]->name, name))
      return patches[i];
  return NULL;
}
