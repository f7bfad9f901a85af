/* cls_api.c — net/sched/cls_api.c: filter chains (tcf_chain, tcf_proto insertion in
 * priority order, automatic priorities) and tcf_classify, the walk over a chain's filters
 * with the kernel's verdict handling (kernel-spec §3.3):
 *  - a filter whose protocol is neither the packet's nor ETH_P_ALL is skipped without its
 *    classifier being called;
 *  - a negative verdict (TC_ACT_UNSPEC, "no match" or gact "continue") goes on to the next
 *    filter; any verdict ≥ 0 ends the walk and is returned;
 *  - TC_ACT_RECLASSIFY (unless compat_mode) restarts at the first filter of the walk,
 *    TC_ACT_GOTO_CHAIN restarts at the first filter of the target chain (res->goto_tp);
 *    after max_reclassify_loop restarts (16 from 05ff8435e505: v5.14-rc1, 5.13.3, 5.12.18,
 *    5.10.51; 4 before) the packet is SHOT;
 *  - falling off the end returns TC_ACT_UNSPEC.
 * v6.1 with CONFIG_NET_TC_SKB_EXT off: tcf_classify is the exported function and calls
 * __tcf_classify, which the Debian 6.1 binary keeps out of line (doc/census/tc.md). */
#include "config.h"
#include "sched-priv.h"

/* Load sites of the filter walk that see one object per filter: the L1 stride
 * prefetcher follows them (ns_load_site). */
static NS_LOAD_SITE (site_tp_protocol, "__tcf_classify: tp->protocol (tcf_proto CL0)");

/* tcf_classify: exported from cls_api.c; it calls __tcf_classify, which GCC keeps out of
 * line (the ingress path calls it too). Sizes and instruction counts: the Debian 6.1.176
 * binary (nm -S; the census in doc/census/tc.md: body instructions, each function's
 * total less its prologue, epilogue and return, which the machine charges per call). */
static NS_FUNC (fn_tcf_classify, "tcf_classify", 72, 3, NS_FN_EXTERN, 6);
static NS_FUNC (fn___tcf_classify, "__tcf_classify", 249, 14, NS_FN_STATIC | NS_FN_NOINLINE, 2);

/* ---- configuration (control path: no simulated cost) ---- */

/* tcf_chain_create: a chain with no filters. */
struct tcf_chain *
tcf_chain_create (TcEnv *env, guint32 index)
{
  struct tcf_chain *chain;

  g_return_val_if_fail (env != NULL, NULL);
  chain = tc_kzalloc (env, sizeof *chain);
  chain->index = index;
  chain->refcnt = 1;
  return chain;
}

/* tcf_auto_prio: 0xC000 with no filter at or above 0x8000, else one below that filter's
 * prio (next: where tcf_chain_tp_find stopped, not the chain's first: a filter given a
 * prio below 0x8000 stays in front of automatic ones). */
static guint32
tcf_auto_prio (const struct tcf_proto *next)
{
  guint32 first_prio = 0xC000u << 16;

  if (next != NULL)
    first_prio = next->prio - 1;
  return first_prio & 0xFFFF0000u;
}

/* tcf_chain_tp_find: walks chain to the first filter at or above prio (upper 16 bits;
 * TC_H_MAKE(0x80000000, 0) for an automatic one), left in *next (NULL: none); that filter
 * if it holds prio itself, else NULL. */
static const struct tcf_proto *
tcf_chain_tp_find (const struct tcf_chain *chain, guint32 prio, const struct tcf_proto **next)
{
  for (const struct tcf_proto *tp = chain->filter_chain; tp != NULL; tp = tp->next)
    if (tp->prio >= prio) {
      *next = tp;
      return tp->prio == prio ? tp : NULL;
    }
  *next = NULL;
  return NULL;
}

/* See pkt_cls.h. */
struct tcf_proto *
tcf_chain_tp_get (struct tcf_chain *chain, guint32 prio)
{
  const struct tcf_proto *next;

  g_return_val_if_fail (chain != NULL && prio >= 1 && prio <= 0xFFFF, NULL);
  return (struct tcf_proto *) tcf_chain_tp_find (chain, prio << 16, &next);
}

/* Creates a filter of ops and links it into chain in ascending prio order (prio 0:
 * automatic). The kernel keeps prio in the upper 16 bits (TC_H_MAJ). NULL with *err
 * (may be NULL) set where tc_new_tfilter refuses: a filter already holds an explicit prio
 * (tcf_chain_tp_find returns it: another protocol is -EINVAL; the same protocol goes to
 * its ->change, and a matchall, which holds one filter, is -EEXIST), or an automatic prio
 * finds the filter it would go in front of at 0x8000 (-EINVAL). */
struct tcf_proto *
tcf_chain_tp_insert (TcEnv *env, struct tcf_chain *chain, const struct tcf_proto_ops *ops,
                     guint16 protocol, guint32 prio, int *err)
{
  gboolean allocate = prio == 0;
  guint32 key = allocate ? 0x80000000u : prio << 16;
  const struct tcf_proto *held, *next;
  struct tcf_proto *tp, **pp;

  g_return_val_if_fail (env != NULL && chain != NULL && ops != NULL, NULL);
  g_return_val_if_fail (prio <= 0xFFFF, NULL);
  if (err)
    *err = 0;
  held = tcf_chain_tp_find (chain, key, &next);
  if (held != NULL) {
    /* an automatic prio meeting a filter at 0x8000, or another protocol: -EINVAL */
    if (err)
      *err = allocate || held->protocol != protocol ? -EINVAL : -EEXIST;
    return NULL;
  }
  tp = tc_kzalloc (env, sizeof *tp);
  tp->ops = ops;
  tp->classify = ops->classify;
  tp->protocol = protocol;
  tp->prio = allocate ? tcf_auto_prio (next) : key;
  tp->chain = chain;
  tp->refcnt = 1;
  for (pp = &chain->filter_chain; *pp != NULL && (*pp)->prio <= tp->prio; pp = &(*pp)->next)
    ;
  tp->next = *pp;
  *pp = tp;
  /* tcf_proto_count_usesw: every filter of the model runs in software (none skip_sw) */
  if (chain->block != NULL)
    ((struct tc_block_ns *) chain->block)->useswcnt++;
  return tp;
}

/* ---- the data path ---- */

/* The walk's own instructions a filter, by the census of forms (Debian 6.1.176's
 * __tcf_classify loop, doc/census/tc.md): the protocol test and the step to tp->next,
 * and the CMP/TEST + Jcc pairs among them that the decoders fuse (register-register and
 * register-immediate forms, on every modelled core; ns_insns_compares). */
#define TCF_WALK_TEST_INSNS  9
#define TCF_WALK_TEST_PAIRS  2
#define TCF_WALK_STEP_INSNS  3
#define TCF_WALK_STEP_PAIRS  1

/* One filter of the walk: protocol test, then the classifier through the wrapper. The
 * protocol load is the first touch of tp's line (tp came from the previous filter's
 * tp->next: the chain walk, a dependent load as every model's list walk is); the line
 * also holds tp->classify. Returns TRUE with *err set if the classifier ran. */
static gboolean
tcf_classify_one (NsThread *t, TcEnv *env, struct sk_buff *skb, const struct tcf_proto *tp,
                  struct tcf_result *res, int *err)
{
  guint16 protocol;

  /* skb_protocol(skb, false): skb->protocol */
  NS_LOAD_FIELD (t, skb, protocol);
  protocol = skb->protocol;
  ns_load_site (t, &site_tp_protocol, TRUE, &tp->protocol, sizeof tp->protocol);
  /* census: 9 instructions — the skb's VLAN test (testb $imm, mem; jne: a memory-immediate
   * test, not fused), its protocol, a jmp, tp's protocol, two compares and branches (cmp
   * reg, reg; je and cmp $imm, reg; jne: fused). Compares of the line the chase just
   * brought, well predicted and independent of the chase: at the issue width, as
   * compute_score's are (TCF_WALK_TEST_*; doc/model.md, "The walk's compares at the issue
   * width") */
  ns_insns_compares (t, TCF_WALK_TEST_INSNS, TCF_WALK_TEST_PAIRS);
  if (tp->protocol != protocol && tp->protocol != TC_ETH_P_ALL)
    return FALSE;
  ns_insns (t, 5);                  /* census: the classify call's arguments, the call */
  *err = tc_classify (t, env, skb, tp, res);
  return TRUE;
}

/* __tcf_classify: the walk from tp; orig_tp is where RECLASSIFY restarts. */
static int
__tcf_classify (NsThread *t, TcEnv *env, struct sk_buff *skb, const struct tcf_proto *tp,
                const struct tcf_proto *orig_tp, struct tcf_result *res,
                gboolean compat_mode, guint32 *last_executed_chain)
{
  const struct tcf_proto *first_tp;
  guint limit = 0;
  int err;

reclassify:
  for (; tp != NULL; tp = tp->next) {
    if (!tcf_classify_one (t, env, skb, tp, res, &err))
      goto next;
    /* census: 8 instructions — RECLASSIFY and compat tests, GOTO_CHAIN opcode test
     * (and + cmp), err >= 0 test, branches */
    ns_insns (t, 8);
    if (G_UNLIKELY (err == TC_ACT_RECLASSIFY && !compat_mode)) {
      first_tp = orig_tp;
      *last_executed_chain = first_tp->chain->index;
      goto reset;
    } else if (G_UNLIKELY (TC_ACT_EXT_CMP (err, TC_ACT_GOTO_CHAIN))) {
      first_tp = res->goto_tp;
      *last_executed_chain = (guint32) err & TC_ACT_EXT_VAL_MASK;
      goto reset;
    }
    if (err >= 0)
      return err;
next:
    /* tp = rcu_dereference_bh(tp->next): same line as the protocol, already loaded;
     * census: 3 instructions (load, NULL test and branch: fused), beside the chase */
    NS_LOAD_FIELD (t, tp, next);
    ns_insns_compares (t, TCF_WALK_STEP_INSNS, TCF_WALK_STEP_PAIRS);
  }
  return TC_ACT_UNSPEC;

reset:
  /* estimate (not on the census's path): 3 instructions (limit++ compare, reload of tp) */
  ns_insns (t, 3);
  if (G_UNLIKELY (limit++ >= tc_max_reclassify (env)))
    return TC_ACT_SHOT;   /* the kernel logs "reclassify loop" (rate-limited) */
  tp = first_tp;
  goto reclassify;
}

/* tcf_classify: classify skb with the filters from tp on; *res gets the match's result. */
int
tcf_classify (NsThread *t, TcEnv *env, struct sk_buff *skb, gpointer block,
              const struct tcf_proto *tp, struct tcf_result *res, gboolean compat_mode)
{
  guint32 last_executed_chain = 0;
  int ret;

  g_return_val_if_fail (env != NULL && skb != NULL && res != NULL, TC_ACT_UNSPEC);
  ns_call (t, &fn_tcf_classify);
  /* census: 7 instructions — argument set-up 2, the stack protector's canary 3
   * (load, store, clearing the register), &last_executed_chain, the call */
  ns_insns (t, 7);
  ns_call (t, &fn___tcf_classify);
  /* census: 11 instructions — arguments kept in callee-saved registers, the tp NULL
   * test, the loop's entry */
  ns_insns (t, 11);
  ret = __tcf_classify (t, env, skb, tp, tp, res, compat_mode, &last_executed_chain);
  ns_insns (t, 1);                  /* census: the return value */
  ns_ret (t);
  /* census: 3 instructions (the stack protector's check) */
  ns_insns (t, 3);
  ns_ret (t);
  return ret;
}
