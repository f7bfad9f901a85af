/* tc_wrapper.c — include/net/tc_wrapper.h: the retpoline-avoidance wrappers of the
 * "net/sched: retpoline wrappers for tc" series (Pedro Tammela, Nov–Dec 2022), and the
 * tc environment of one simulated machine (its build facts, per-CPU memory, kmalloc).
 *
 * Two versions of the series are modelled, each a kernel patch (models/patches.c):
 *  - "tc-retpoline-wrappers" — the merged v6 (commits 7f0e810220e2, 871cf386dd16,
 *    9f3101dca3a7, net-next 2022-12-09, v6.2): compare chains ordered "by relevance"
 *    (kernel-spec §3.6.5/6), and the static key tc_skip_wrapper, which tc_wrapper_init()
 *    enables — skipping the chains — unless the CPU runs retpoline thunks
 *    (X86_FEATURE_RETPOLINE: spectre_v2=retpoline or lfence, and eibrs,retpoline or
 *    eibrs,lfence, whose eIBRS does not turn the chains off: tc_wrapper_init() of the
 *    merged series tests only X86_FEATURE_RETPOLINE; kernel-spec §3.6.2).
 *  - "tc-retpoline-wrappers-rfc" — the RFC of 2022-11-25 (message
 *    20221125175207.473866-1-pctammela@mojatatu.com), which is what the seed's tables were
 *    measured with (the RFC cover letter already carries the same numbers for the 5950X,
 *    i5-3337U, i5-10210U and Xeon 6230R): chains in alphabetical order, no static key, the
 *    whole wrapper opt-in through CONFIG_NET_TC_INDIRECT_WRAPPER (needs CONFIG_RETPOLINE).
 *    Its wrapper therefore runs on eIBRS CPUs too — the "IBRS" degradation of the seed.
 * A kernel from v6.2 on has the merged wrapper without any patch. Two what-if patches move
 * the classifier under test (matchall) to the head or the tail of the classifier chain, as
 * the series author did on the 7950X ("first vs last in the static iteration").
 *
 * Only classifiers and actions built in (CONFIG_…=y) have an entry: a module (=m) is
 * never in a chain and always costs every compare, then the indirect call.
 *
 * Cost of a call through the wrapper: the static-key test (one instruction: the merged
 * static_branch_likely(&tc_skip_wrapper) is a JMP to the chain while the key is off, as on
 * a retpoline CPU, and a 5-byte NOP once tc_wrapper_init enables it), then per chain entry tested one compare of
 * the pointer with an immediate and one conditional branch (2 instructions; kernel-spec
 * §3.6.7), then a direct call — or, past the chain, the indirect call, whose cost under the
 * spectre_v2 mode in force is the machine's (ns_icall). The compare is `cmp $imm32, %reg`
 * (kernel text addresses fit a sign-extended imm32), as at the INDIRECT_CALL_2 site of
 * Debian's 6.1 binary, __netif_receive_skb_one_core+0x55: `cmp $ipv6_rcv, %rax; jne`, and
 * a CMP reg,imm followed by a Jcc fuses into one macro-op on every profiled core (Intel
 * optimization manual §3.4.2.2, since Core 2; AMD since Bulldozer), so an entry issues as
 * one macro-op at cpu.issue_width (ns_insns_fused).
 *
 * Retpoline exposure: a retpoline thunk (and an LFENCE-guarded indirect jump) stops the
 * front end at the call until the target is known. The thunk's own wait, with the target
 * already in a register, is the machine's (branch.resolve_cycles, derived from [M22]'s
 * 40-cycle Skylake retpoline; doc/model.md). The chain of loads that produces the
 * action's target (the matchall head, actions[i], a->ops) comes on top of it: in a
 * thunked build those loads are dependent loads (full latency), elsewhere ordinary ones.
 *
 * Stride prefetch: N filters put about nine lines per filter on each packet's path
 * (tcf_proto, the matchall head's two lines, the action array, the four lines of the
 * gact, per-CPU counters) — about 57 KiB for 100 filters, more than any L1D here. Without
 * CONFIG_SLAB_FREELIST_RANDOM a kmalloc cache hands its objects out in order within each
 * slab (models/net/slab.c), so every load site of the walk sees a constant stride from one
 * filter to the next until a page or slab ends, which the machine's L1 IP-based stride
 * prefetcher (prefetch.l1_stride) follows: the walk's loads name their sites. */
#include "config.h"
#include <string.h>
#include "kchange.h"
#include "sched-priv.h"
#include "net/slab.h"
#include "common.h"
#include "workload.h"

/* Load sites of the filter walk that see one object per filter: the L1 stride
 * prefetcher follows them (ns_load_site). */
static NS_LOAD_SITE (site_act_ops, "tc_act: a->ops (action CL0)");

/* ---- the classifiers and actions the wrapper chains name ---- */

/* Text sizes 0: these functions exist in the compare chains only; the model never runs
 * them (no filter of theirs is ever created). */
#define TC_FN_STUB(var, sym, cfg)                                              \
  static NS_FUNC (fn_##var, sym, 0, NS_FRAME_UNKNOWN, NS_FN_STATIC | NS_FN_INDIRECT, 0); \
  static const TcFn var = { &fn_##var, cfg, NULL }

TC_FN_STUB (fn_basic, "basic_classify", "CONFIG_NET_CLS_BASIC");
TC_FN_STUB (fn_cgroup, "cls_cgroup_classify", "CONFIG_NET_CLS_CGROUP");
TC_FN_STUB (fn_flow, "flow_classify", "CONFIG_NET_CLS_FLOW");
TC_FN_STUB (fn_flower, "fl_classify", "CONFIG_NET_CLS_FLOWER");
TC_FN_STUB (fn_fw, "fw_classify", "CONFIG_NET_CLS_FW");
TC_FN_STUB (fn_route4, "route4_classify", "CONFIG_NET_CLS_ROUTE4");
TC_FN_STUB (fn_rsvp, "rsvp_classify", "CONFIG_NET_CLS_RSVP");
TC_FN_STUB (fn_rsvp6, "rsvp6_classify", "CONFIG_NET_CLS_RSVP6");
TC_FN_STUB (fn_tcindex, "tcindex_classify", "CONFIG_NET_CLS_TCINDEX");
TC_FN_STUB (fn_u32, "u32_classify", "CONFIG_NET_CLS_U32");

TC_FN_STUB (fn_act_bpf, "tcf_bpf_act", "CONFIG_NET_ACT_BPF");
TC_FN_STUB (fn_connmark, "tcf_connmark_act", "CONFIG_NET_ACT_CONNMARK");
TC_FN_STUB (fn_csum, "tcf_csum_act", "CONFIG_NET_ACT_CSUM");
TC_FN_STUB (fn_ct, "tcf_ct_act", "CONFIG_NET_ACT_CT");
TC_FN_STUB (fn_ctinfo, "tcf_ctinfo_act", "CONFIG_NET_ACT_CTINFO");
TC_FN_STUB (fn_gate, "tcf_gate_act", "CONFIG_NET_ACT_GATE");
TC_FN_STUB (fn_ife, "tcf_ife_act", "CONFIG_NET_ACT_IFE");
TC_FN_STUB (fn_ipt, "tcf_ipt_act", "CONFIG_NET_ACT_IPT");
TC_FN_STUB (fn_mirred, "tcf_mirred_act", "CONFIG_NET_ACT_MIRRED");
TC_FN_STUB (fn_mpls, "tcf_mpls_act", "CONFIG_NET_ACT_MPLS");
TC_FN_STUB (fn_nat, "tcf_nat_act", "CONFIG_NET_ACT_NAT");
TC_FN_STUB (fn_pedit, "tcf_pedit_act", "CONFIG_NET_ACT_PEDIT");
TC_FN_STUB (fn_police, "tcf_police_act", "CONFIG_NET_ACT_POLICE");
TC_FN_STUB (fn_sample, "tcf_sample_act", "CONFIG_NET_ACT_SAMPLE");
TC_FN_STUB (fn_simp, "tcf_simp_act", "CONFIG_NET_ACT_SIMP");
TC_FN_STUB (fn_skbedit, "tcf_skbedit_act", "CONFIG_NET_ACT_SKBEDIT");
TC_FN_STUB (fn_skbmod, "tcf_skbmod_act", "CONFIG_NET_ACT_SKBMOD");
TC_FN_STUB (fn_tunnel_key, "tunnel_key_act", "CONFIG_NET_ACT_TUNNEL_KEY");
TC_FN_STUB (fn_vlan, "tcf_vlan_act", "CONFIG_NET_ACT_VLAN");

/* The merged chains (kernel-spec §3.6.5/6), before version gating. */
static const TcFn *const cls_merged[] = {
  &tc_fn_cls_bpf_classify, &fn_u32, &fn_flower, &fn_fw, &tc_fn_mall_classify, &fn_basic, &fn_cgroup,
  &fn_flow, &fn_route4, &fn_rsvp, &fn_rsvp6, &fn_tcindex, NULL
};
static const TcFn *const act_merged[] = {
  &tc_fn_tcf_gact_act, &fn_mirred, &fn_pedit, &fn_skbedit, &fn_skbmod, &fn_police,
  &fn_act_bpf, &fn_connmark, &fn_csum, &fn_ct, &fn_ctinfo, &fn_gate, &fn_mpls, &fn_nat,
  &fn_tunnel_key, &fn_vlan, &fn_ife, &fn_ipt, &fn_simp, &fn_sample, NULL
};
/* The RFC's chains: alphabetical by kind ("The calls are ordered alphabetically"). */
static const TcFn *const cls_rfc[] = {
  &fn_basic, &tc_fn_cls_bpf_classify, &fn_cgroup, &fn_flow, &fn_flower, &fn_fw, &tc_fn_mall_classify,
  &fn_route4, &fn_rsvp, &fn_rsvp6, &fn_tcindex, &fn_u32, NULL
};
static const TcFn *const act_rfc[] = {
  &fn_act_bpf, &fn_connmark, &fn_csum, &fn_ct, &fn_ctinfo, &tc_fn_tcf_gact_act, &fn_gate,
  &fn_ife, &fn_ipt, &fn_mirred, &fn_mpls, &fn_nat, &fn_pedit, &fn_police, &fn_sample,
  &fn_simp, &fn_skbedit, &fn_skbmod, &fn_tunnel_key, &fn_vlan, NULL
};

/* The TcFn of classifier function `name`, or NULL. */
const TcFn *
tc_classifier_fn (const char *name)
{
  g_return_val_if_fail (name != NULL, NULL);
  for (guint i = 0; cls_rfc[i]; i++)
    if (!strcmp (cls_rfc[i]->func->name, name))
      return cls_rfc[i];
  return NULL;
}

/* The TcFn of action function `name`, or NULL. */
const TcFn *
tc_action_fn (const char *name)
{
  g_return_val_if_fail (name != NULL, NULL);
  for (guint i = 0; act_rfc[i]; i++)
    if (!strcmp (act_rfc[i]->func->name, name))
      return act_rfc[i];
  return NULL;
}

/* ---- patches ---- */

#define PATCH_MERGED    "tc-retpoline-wrappers"
#define PATCH_RFC       "tc-retpoline-wrappers-rfc"
#define PATCH_CLS_FIRST "tc-wrapper-cls-first"
#define PATCH_CLS_LAST  "tc-wrapper-cls-last"

/* The series changes no call-site count the inlining model sees: the wrapper is inline
 * code in tcf_classify / tcf_action_exec; tc_env_new reads the applied patch names. */
static void
apply_nothing (NsBuild *build)
{
}

const NsPatch ns_patch_tc_retpoline_wrappers = {
  PATCH_MERGED, "7f0e810220e2 871cf386dd16 9f3101dca3a7",
  "net/sched: retpoline wrappers for tc (v6, merged for v6.2): built-in classifiers and "
  "actions called directly after a compare chain, bypassed by the tc_skip_wrapper static "
  "key unless the CPU uses retpolines",
  apply_nothing
};

const NsPatch ns_patch_tc_retpoline_wrappers_rfc = {
  PATCH_RFC, "20221125175207.473866-1-pctammela@mojatatu.com",
  "net/sched: retpoline wrappers for tc, RFC as benchmarked: alphabetical compare chains, "
  "no static key, opt-in with CONFIG_NET_TC_INDIRECT_WRAPPER=y",
  apply_nothing
};

const NsPatch ns_patch_tc_wrapper_cls_first = {
  PATCH_CLS_FIRST, "what-if (seed 002, 7950X experiment)",
  "what-if on top of a tc wrapper: matchall is the first entry of the classifier chain",
  apply_nothing
};

const NsPatch ns_patch_tc_wrapper_cls_last = {
  PATCH_CLS_LAST, "what-if (seed 002, 7950X experiment)",
  "what-if on top of a tc wrapper: matchall is the last entry of the classifier chain",
  apply_nothing
};

/* ---- build facts ---- */

/* TRUE if .config builds key in (key=y; absent: the state unstated), key read as a
 * bool/tristate. */
static gboolean
config_builtin (const NsBuild *build, const char *key, NsKconfig unstated)
{
  return ns_build_config_tristate (build, key, unstated) == NS_KCONFIG_Y;
}

/* CONFIG_RETPOLINE (CONFIG_MITIGATION_RETPOLINE from v6.9; the build's version decides
 * which name is read): on unless set to n — every x86-64 distribution kernel of the
 * period builds it. */
static gboolean
build_has_retpoline (const NsBuild *build)
{
  return config_builtin (build, ns_build_retpoline_option (build), NS_KCONFIG_Y);
}

/* TRUE if release no longer has the chain member named name (rsvp and rsvp6, tcindex:
 * retired in v6.3-rc1 and in stables; ipt: v6.8-rc1; sim/kchange.c). */
static gboolean
chain_member_gone (const char *release, const char *name)
{
  if (!strcmp (name, "rsvp_classify") || !strcmp (name, "rsvp6_classify"))
    return ns_kernel_release_has (release, NS_KCHANGE_TC_RSVP_RETIRED);
  if (!strcmp (name, "tcindex_classify"))
    return ns_kernel_release_has (release, NS_KCHANGE_TC_TCINDEX_RETIRED);
  return !strcmp (name, "tcf_ipt_act") &&
         ns_kernel_release_has (release, NS_KCHANGE_TC_IPT_RETIRED);
}

/* Fills a compare chain with the built-in members of order (NULL-terminated) the build's
 * release still has. */
static guint
chain_fill (const TcFn **chain, const TcFn *const *order, const NsBuild *build)
{
  const char *version = ns_build_version (build);
  guint n = 0;

  for (guint i = 0; order[i] != NULL && n < TC_CHAIN_MAX; i++) {
    gboolean gone = chain_member_gone (version, order[i]->func->name);
    /* unstated: a module, as distribution kernels build the classifiers and actions */
    if (!gone && config_builtin (build, order[i]->kconfig, NS_KCONFIG_M))
      chain[n++] = order[i];
  }
  return n;
}

/* Moves fn to the head (first) or the tail of chain[0..n) if it is there. */
static void
chain_move (const TcFn **chain, guint n, const TcFn *fn, gboolean first)
{
  guint at;

  for (at = 0; at < n && chain[at] != fn; at++)
    ;
  if (at == n)
    return;
  if (first) {
    memmove (&chain[1], &chain[0], at * sizeof chain[0]);
    chain[0] = fn;
  } else {
    memmove (&chain[at], &chain[at + 1], (n - at - 1) * sizeof chain[0]);
    chain[n - 1] = fn;
  }
}

/* Decides which wrapper the build has and lays out its chains (the RFC on a build with
 * the merged wrapper is refused before: pktgen_check_wrapper_series). */
static void
wrapper_build (TcEnv *env, const NsBuild *build)
{
  gboolean merged = ns_build_has_patch (build, PATCH_MERGED) ||
                    ns_build_has_change (build, NS_KCHANGE_TC_RETPOLINE_WRAPPER);
  gboolean rfc = ns_build_has_patch (build, PATCH_RFC) &&
                 config_builtin (build, "CONFIG_NET_TC_INDIRECT_WRAPPER", NS_KCONFIG_N);

  if (!build_has_retpoline (build) || !(merged || rfc))
    return;
  env->wrapper = TRUE;
  env->has_key = !rfc;
  env->n_cls = chain_fill (env->cls_chain, rfc ? cls_rfc : cls_merged, build);
  env->n_act = chain_fill (env->act_chain, rfc ? act_rfc : act_merged, build);
  if (ns_build_has_patch (build, PATCH_CLS_FIRST))
    chain_move (env->cls_chain, env->n_cls, &tc_fn_mall_classify, TRUE);
  else if (ns_build_has_patch (build, PATCH_CLS_LAST))
    chain_move (env->cls_chain, env->n_cls, &tc_fn_mall_classify, FALSE);
}

/* tc_wrapper_init (called from pktsched_init): on x86, enable tc_skip_wrapper when the CPU
 * does not have X86_FEATURE_RETPOLINE. */
static void
tc_wrapper_init (TcEnv *env)
{
  if (env->wrapper && env->has_key && !env->thunked)
    env->skip_wrapper = TRUE;
}

/* ---- the environment ---- */

/* The release tc's and pktgen's code is (seed 002's kernel), and the registered changes
 * they read: tc's, the device's layout (netdevice.c) and the skb heads' (skbuff.c). */
#define TC_MODEL_RELEASE "6.1.0"
static const NsKernelChangeId tc_model_changes[] = {
  NS_KCHANGE_TC_RECLASSIFY_LOOP_16, NS_KCHANGE_TC_RETPOLINE_WRAPPER,
  NS_KCHANGE_TC_RSVP_RETIRED, NS_KCHANGE_TC_TCINDEX_RETIRED, NS_KCHANGE_TC_IPT_RETIRED,
  NS_KCHANGE_SKB_SMALL_HEAD_CACHE, NS_KCHANGE_NETDEV_CACHELINE_GROUPS, NS_KCHANGE_TCX,
  NS_KCHANGE_TC_DROP_REASON, NS_KCHANGE_TC_SW_BYPASS_KEY, NS_KCHANGE_BPF_NET_CONTEXT,
  NS_KCHANGE_TC_SW_BYPASS_USESWCNT,
};

/* Notes on build how its release differs from the code tc and pktgen are, as far as the
 * registry knows (nothing on a 6.1 release that differs in none). */
static void
note_version (NsBuild *build)
{
  const char *release = ns_build_version (build);
  g_autofree char *diff = ns_kernel_changes_between (TC_MODEL_RELEASE, release,
                                                     tc_model_changes,
                                                     G_N_ELEMENTS (tc_model_changes));
  g_autofree char *note = NULL;

  if (diff == NULL && ns_kernel_version_cmp (release, TC_MODEL_RELEASE) == 0)
    return;
  note = g_strdup_printf ("kernel %s: tc and pktgen run v6.1's code but for the registered "
                          "changes (netsim list changes); against it this release %s; "
                          "unregistered changes are not modelled", release,
                          diff ? diff : "differs in none of them");
  ns_build_note (build, note);
}

/* Creates the tc state of machine (see pkt_cls.h). */
TcEnv *
tc_env_new (NsMachine *machine)
{
  const NsMitigations *mit;
  NsBuild *build;
  TcEnv *env;

  g_return_val_if_fail (machine != NULL, NULL);
  env = g_new0 (TcEnv, 1);
  env->machine = machine;
  env->arena = ns_machine_arena (machine);
  env->n_cpus = ns_machine_n_cpus (machine);
  env->percpu_base = ns_arena_alloc (env->arena, (gsize) TC_PERCPU_STRIDE * env->n_cpus, 64);
  mit = ns_machine_mitigations (machine);
  env->thunked = ns_spectre_v2_thunked (mit->spectre_v2);
  build = ns_machine_build (machine);
  env->max_reclassify = 16;
  if (build != NULL) {
    if (!ns_build_has_change (build, NS_KCHANGE_TC_RECLASSIFY_LOOP_16))
      env->max_reclassify = 4;
    env->tcx = ns_build_has_change (build, NS_KCHANGE_TCX);
    env->drop_reason = ns_build_has_change (build, NS_KCHANGE_TC_DROP_REASON);
    env->sw_bypass_key = ns_build_has_change (build, NS_KCHANGE_TC_SW_BYPASS_KEY);
    env->bpf_net_ctx = ns_build_has_change (build, NS_KCHANGE_BPF_NET_CONTEXT);
    env->sw_bypass_cnt = ns_build_has_change (build, NS_KCHANGE_TC_SW_BYPASS_USESWCNT);
    note_version (build);
    wrapper_build (env, build);
  }
  tc_wrapper_init (env);
  env->gact_ops = ns_arena_alloc (env->arena, sizeof *env->gact_ops, 64);
  tc_gact_ops_init (env->gact_ops);
  env->jiffies = ns_arena_alloc (env->arena, 64, 64);
  *env->jiffies = 4294937296u;     /* INITIAL_JIFFIES (-300 s), 64-bit view */
  return env;
}

/* Frees the tc environment (NULL is fine; its arena memory goes with the machine). */
void
tc_env_free (TcEnv *env)
{
  if (env == NULL)
    return;
  g_free (env);
}

/* The machine env was created for. */
NsMachine *
tc_env_machine (TcEnv *env)
{
  g_return_val_if_fail (env != NULL, NULL);
  return env->machine;
}

/* The reclassify loop limit of env's kernel release (16 from 05ff8435e505, else 4). */
guint
tc_max_reclassify (const TcEnv *env)
{
  g_return_val_if_fail (env != NULL, 16);
  return env->max_reclassify;
}

/* The kmalloc class that holds size bytes: beyond kmalloc-8k, the 2^order pages
 * kmalloc_large takes (alloc_pages of get_order(size)). */
gsize
tc_kmalloc_class (gsize size)
{
  guint i = ns_kmalloc_index (size);
  gsize pages = 4096;

  if (i < NS_KMALLOC_CLASSES)
    return ns_kmalloc_size (i);
  while (pages < size)
    pages <<= 1;
  return pages;
}

/* See pkt_cls.h. */
gsize
tc_ksize (const TcEnv *env, gconstpointer obj)
{
  g_return_val_if_fail (env != NULL, 0);
  return ns_ksize (env->machine, obj);
}

/* See pkt_cls.h. */
void
tc_env_set_alloc_cpu (TcEnv *env, guint cpu)
{
  g_return_if_fail (env != NULL && cpu < env->n_cpus);
  env->alloc_cpu = cpu;
}

/* kzalloc(size): an object of the machine's kmalloc cache of its class (slab.h), allocated
 * on the configuring process's CPU (tc_env_set_alloc_cpu); beyond kmalloc-8k a
 * kmalloc_large page allocation. */
gpointer
tc_kzalloc (TcEnv *env, gsize size)
{
  guint i;

  g_return_val_if_fail (env != NULL && size > 0, NULL);
  i = ns_kmalloc_index (size);
  if (i == NS_KMALLOC_CLASSES)
    return ns_arena_alloc (env->arena, tc_kmalloc_class (size), 4096);
  return ns_kmem_cache_alloc (ns_kmalloc_cache (env->machine, i), env->alloc_cpu);
}

/* __alloc_percpu(size, align): the next free bytes of every CPU's unit, in a new chunk
 * (pcpu_create_chunk) when the current one is full: a thousand filters fill one. */
gpointer
tc_alloc_percpu (TcEnv *env, gsize size, gsize align)
{
  gsize off;

  g_return_val_if_fail (env != NULL && size > 0 && size <= TC_PERCPU_STRIDE && align > 0,
                        NULL);
  off = (env->percpu_used + align - 1) & ~(align - 1);
  if (off + size > TC_PERCPU_STRIDE) {
    env->percpu_base = ns_arena_alloc (env->arena, (gsize) TC_PERCPU_STRIDE * env->n_cpus, 64);
    off = 0;
  }
  env->percpu_used = off + size;
  return env->percpu_base + off;
}

/* this_cpu_ptr / per_cpu_ptr of a per-CPU allocation. */
gpointer
tc_percpu_ptr (TcEnv *env, gpointer base, guint cpu)
{
  g_return_val_if_fail (env != NULL && cpu < env->n_cpus, base);
  return (guint8 *) base + (gsize) cpu * TC_PERCPU_STRIDE;
}

/* ---- the wrappers ---- */

/* Position (1-based) of fn in chain[0..n), 0 if absent. */
static guint
chain_position (const TcFn *const *chain, guint n, const TcFn *fn)
{
  for (guint i = 0; i < n; i++)
    if (chain[i] == fn)
      return i + 1;
  return 0;
}

/* Position (1-based) of fn in the classifier compare chain, 0 if absent. */
guint
tc_wrapper_cls_position (const TcEnv *env, const TcFn *fn)
{
  g_return_val_if_fail (env != NULL, 0);
  return chain_position (env->cls_chain, env->n_cls, fn);
}

/* Position (1-based) of fn in the action compare chain, 0 if absent. */
guint
tc_wrapper_act_position (const TcEnv *env, const TcFn *fn)
{
  g_return_val_if_fail (env != NULL, 0);
  return chain_position (env->act_chain, env->n_act, fn);
}

/* Entries in the classifier compare chain (0 without a wrapper). */
guint
tc_wrapper_cls_len (const TcEnv *env)
{
  g_return_val_if_fail (env != NULL, 0);
  return env->n_cls;
}

/* Entries in the action compare chain (0 without a wrapper). */
guint
tc_wrapper_act_len (const TcEnv *env)
{
  g_return_val_if_fail (env != NULL, 0);
  return env->n_act;
}

/* TRUE if the spectre_v2 mode sends indirect calls through a retpoline or LFENCE thunk. */
gboolean
tc_env_thunked (const TcEnv *env)
{
  g_return_val_if_fail (env != NULL, FALSE);
  return env->thunked;
}

/* TRUE if the build has a tc wrapper (merged or RFC) compiled in. */
gboolean
tc_wrapper_compiled (const TcEnv *env)
{
  g_return_val_if_fail (env != NULL, FALSE);
  return env->wrapper;
}

/* TRUE if the static key tc_skip_wrapper is on, so the compare chains are bypassed. */
gboolean
tc_wrapper_skipped (const TcEnv *env)
{
  g_return_val_if_fail (env != NULL, FALSE);
  return env->skip_wrapper;
}

/* Stores the direct calls, indirect calls and compares counted since creation (NULL
 * outputs are skipped). */
void
tc_wrapper_counts (const TcEnv *env, guint64 *direct, guint64 *indirect, guint64 *compares)
{
  g_return_if_fail (env != NULL);
  if (direct)
    *direct = env->n_direct;
  if (indirect)
    *indirect = env->n_indirect;
  if (compares)
    *compares = env->n_compares;
}

/* TRUE if a call to fn through chain (n entries) ends as an indirect call. */
static gboolean
call_is_indirect (const TcEnv *env, const TcFn *const *chain, guint n, const TcFn *fn)
{
  return !env->wrapper || env->skip_wrapper || chain_position (chain, n, fn) == 0;
}

/* TRUE if calling classifier fn ends as an indirect call through a thunk on this machine. */
gboolean
tc_classify_thunked (const TcEnv *env, const TcFn *fn)
{
  g_return_val_if_fail (env != NULL, FALSE);
  return env->thunked && call_is_indirect (env, env->cls_chain, env->n_cls, fn);
}

/* TRUE if calling action fn ends as an indirect call through a thunk on this machine. */
gboolean
tc_act_thunked (const TcEnv *env, const TcFn *fn)
{
  g_return_val_if_fail (env != NULL, FALSE);
  return env->thunked && call_is_indirect (env, env->act_chain, env->n_act, fn);
}

/* The wrapper's dispatch: static key, compares, then direct (TRUE) or indirect (FALSE). */
static gboolean
wrapper_dispatch (NsThread *t, TcEnv *env, const TcFn *const *chain, guint n, const TcFn *fn)
{
  if (!env->wrapper)
    return FALSE;
  /* static_branch_likely(&tc_skip_wrapper) in the merged tc_wrapper.h: a NOP when the
   * key is on (no retpoline: skip the chain), a JMP to the chain when it is off (the RFC
   * has no key; its "if (0) {}" head costs nothing) */
  if (env->has_key)
    ns_insns_wide (t, 1);
  if (env->skip_wrapper)
    return FALSE;
  for (guint i = 0; i < n; i++) {
    ns_insns_fused (t, 1);          /* cmp $fn, %reg; je direct_call: one fused
                                       macro-op, well predicted, off the critical path */
    env->n_compares++;
    if (chain[i] == fn)
      return TRUE;
  }
  return FALSE;
}

/* Calls fn (direct or indirect), running its model body. */
static void
enter (NsThread *t, TcEnv *env, const TcFn *fn, gboolean direct)
{
  if (direct) {
    env->n_direct++;
    ns_call (t, fn->func);
  } else {
    env->n_indirect++;
    ns_icall (t, fn->func);
  }
}

/* The inline functions of include/net/tc_wrapper.h (v6.2 and the RFC): their code — the
 * key test, the compare chain, the call or the indirect call — is inlined into
 * __tcf_classify and tcf_action_exec; the breakdown shows it as their inlined body. A
 * kernel without the series has no such function: the call is written in the caller. */
static NS_FUNC (fn_tc_classify, "tc_classify", 0, NS_FRAME_UNKNOWN, NS_FN_ALWAYS_INLINE, 3);
static NS_FUNC (fn_tc_act, "tc_act", 0, NS_FRAME_UNKNOWN, NS_FN_ALWAYS_INLINE, 3);

/* Enters the wrapper's inline function if the build has one. */
static void
wrapper_enter (NsThread *t, const TcEnv *env, NsFunc *inline_fn)
{
  if (env->wrapper)
    ns_call (t, inline_fn);
}

/* Leaves it. */
static void
wrapper_leave (NsThread *t, const TcEnv *env)
{
  if (env->wrapper)
    ns_ret (t);
}

/* tc_classify: return tp->classify(skb, tp, res), through the wrapper if built. */
int
tc_classify (NsThread *t, TcEnv *env, struct sk_buff *skb, const struct tcf_proto *tp,
             struct tcf_result *res)
{
  const TcFn *fn;
  gboolean direct;
  int ret;

  g_return_val_if_fail (env != NULL && tp != NULL, TC_ACT_UNSPEC);
  fn = tp->classify;
  wrapper_enter (t, env, &fn_tc_classify);
  /* tp's line came in with the caller's protocol test (tcf_classify_one), charged there
   * as the target's load */
  ns_load (t, &tp->classify, sizeof tp->classify);
  direct = wrapper_dispatch (t, env, env->cls_chain, env->n_cls, fn);
  enter (t, env, fn, direct);
  ret = fn->impl ? ((TcClassifyImpl) fn->impl) (t, env, skb, tp, res) : TC_ACT_UNSPEC;
  ns_ret (t);
  wrapper_leave (t, env);
  return ret;
}

/* tc_act: return a->ops->act(skb, a, res), through the wrapper if built. */
int
tc_act (NsThread *t, TcEnv *env, struct sk_buff *skb, const struct tc_action *a,
        struct tcf_result *res)
{
  const TcFn *fn;
  gboolean direct, thunked;
  int ret;

  g_return_val_if_fail (env != NULL && a != NULL, TC_ACT_OK);
  fn = a->ops->act;
  thunked = tc_act_thunked (env, fn);
  wrapper_enter (t, env, &fn_tc_act);
  ns_load_site (t, &site_act_ops, thunked, &a->ops, sizeof a->ops);
  ns_load (t, &a->ops->act, sizeof a->ops->act);
  direct = wrapper_dispatch (t, env, env->act_chain, env->n_act, fn);
  enter (t, env, fn, direct);
  ret = fn->impl ? ((TcActImpl) fn->impl) (t, env, skb, a, res) : TC_ACT_PIPE;
  ns_ret (t);
  wrapper_leave (t, env);
  return ret;
}
