/* act_api.c — net/sched/act_api.c: tcf_action_exec, the walk over a filter's actions
 * (kernel-spec §3.4), and tcf_exts_exec (include/net/pkt_cls.h):
 *  - an skb flagged tc_skip_classify returns TC_ACT_OK at once (the flag is cleared);
 *  - an action with skip_sw is ignored;
 *  - TC_ACT_REPEAT re-runs the action, at most 32 times, then the pipeline stops with OK;
 *  - TC_ACT_JUMP n: n = 0 or n > nr_actions stops with OK; otherwise the jump TTL
 *    (TCA_ACT_MAX_PRIO) is decremented (0: stop with OK) and the walk restarts at 0,
 *    skipping the first n actions;
 *  - TC_ACT_GOTO_CHAIN: no chain → SHOT; else res->goto_tp = the chain's first filter;
 *  - any verdict but PIPE ends the walk and is returned; after the last action its
 *    verdict is returned (so a trailing PIPE returns 3, a match for tcf_classify). */
#include "config.h"
#include "sched-priv.h"

/* Load sites of the filter walk that see one object per filter: the L1 stride
 * prefetcher follows them (ns_load_site). */
static NS_LOAD_SITE (site_actions, "tcf_action_exec: actions[i]");
static NS_LOAD_SITE (site_tcfa_flags, "tcf_action_exec: a->tcfa_flags (action CL3)");

/* tcf_action_exec: exported. Size: the Debian 6.1.176 binary's (nm -S;
 * doc/census/text-sizes-6.1.176.txt). */
static NS_FUNC (fn_tcf_action_exec, "tcf_action_exec", 367, 15, NS_FN_EXTERN, 4);

/* tcf_action_goto_chain_exec: res->goto_tp = a->goto_chain->filter_chain. */
static void
tcf_action_goto_chain_exec (NsThread *t, const struct tc_action *a, struct tcf_result *res)
{
  NS_LOAD_FIELD (t, a, goto_chain);
  NS_LOAD_FIELD (t, a->goto_chain, filter_chain);
  res->goto_tp = a->goto_chain->filter_chain;
  ns_store (t, &res->goto_tp, sizeof res->goto_tp);
  /* estimate: 3 instructions */
  ns_insns (t, 3);
}

/* skb_skip_tc_classify: test-and-clear of the skb's tc_skip_classify bit. */
static gboolean
skb_skip_tc_classify (NsThread *t, struct sk_buff *skb)
{
  NS_LOAD_FIELD (t, skb, header_bits);
  /* census (doc/census/tc.md): 2 instructions (test, branch) */
  ns_insns (t, 2);
  if (!(skb->header_bits[0] & TC_SKB_SKIP_CLASSIFY))
    return FALSE;
  skb->header_bits[0] &= ~TC_SKB_SKIP_CLASSIFY;
  NS_STORE_FIELD (t, skb, header_bits);
  return TRUE;
}

/* One action with its repeat loop; returns the verdict, *stop set when the pipeline ends
 * with that verdict regardless of the walk. */
static int
tcf_action_run_one (NsThread *t, TcEnv *env, struct sk_buff *skb, const struct tc_action *a,
                    struct tcf_result *res)
{
  int repeat_ttl = 32;
  int ret;

  for (;;) {
    ret = tc_act (t, env, skb, a, res);
    /* census: 2 instructions (REPEAT compare and branch) */
    ns_insns (t, 2);
    if (G_LIKELY (ret != TC_ACT_REPEAT))
      return ret;
    if (--repeat_ttl == 0)
      return TC_ACT_REPEAT;   /* the caller stops the pipeline with OK */
  }
}

/* tcf_action_exec: runs actions[0..nr_actions) on skb. */
int
tcf_action_exec (NsThread *t, TcEnv *env, struct sk_buff *skb, struct tc_action **actions,
                 gint nr_actions, struct tcf_result *res)
{
  guint32 jmp_prgcnt = 0, jmp_ttl = TCA_ACT_MAX_PRIO;
  int ret = TC_ACT_OK;

  g_return_val_if_fail (env != NULL && skb != NULL, TC_ACT_OK);
  ns_call (t, &fn_tcf_action_exec);
  /* census: 15 instructions — arguments kept in callee-saved registers and on the
   * stack, the flag byte load, the end pointer, the loop's entry test, the counters */
  ns_insns (t, 15);
  if (skb_skip_tc_classify (t, skb))
    goto out;

restart_act_graph:
  for (gint i = 0; i < nr_actions; i++) {
    const struct tc_action *a;

    /* census: 12 instructions — actions[i], jump counter test, skip_sw test, the repeat
     * counter, ops->act, the call's arguments and the call */
    ns_insns (t, 12);
    if (jmp_prgcnt > 0) {
      jmp_prgcnt -= 1;
      continue;
    }
    ns_load_site (t, &site_actions, tc_act_thunked (env, actions[i]->ops->act),
                  &actions[i], sizeof actions[i]);
    a = actions[i];
    ns_load_site (t, &site_tcfa_flags, FALSE, &a->tcfa_flags, sizeof a->tcfa_flags);
    if (a->tcfa_flags & TCA_ACT_FLAGS_SKIP_SW)
      continue;
    ret = tcf_action_run_one (t, env, skb, a, res);
    if (G_UNLIKELY (ret == TC_ACT_REPEAT)) {
      ret = TC_ACT_OK;          /* "TC_ACT_REPEAT abuse ?" */
      goto out;
    }
    /* census: 9 instructions — JUMP and GOTO_CHAIN opcode tests (and + cmp), PIPE test,
     * the exit */
    ns_insns (t, 9);
    if (TC_ACT_EXT_CMP (ret, TC_ACT_JUMP)) {
      jmp_prgcnt = (guint32) ret & TCA_ACT_MAX_PRIO_MASK;
      if (!jmp_prgcnt || jmp_prgcnt > (guint32) nr_actions) {
        ret = TC_ACT_OK;        /* faulty opcode, stop pipeline */
        goto out;
      }
      if (--jmp_ttl > 0)
        goto restart_act_graph;
      ret = TC_ACT_OK;          /* faulty graph, stop pipeline */
      goto out;
    } else if (TC_ACT_EXT_CMP (ret, TC_ACT_GOTO_CHAIN)) {
      NS_LOAD_FIELD (t, a, goto_chain);
      if (G_UNLIKELY (a->goto_chain == NULL)) {
        ret = TC_ACT_SHOT;      /* "can't go to NULL chain!" */
        goto out;
      }
      tcf_action_goto_chain_exec (t, a, res);
    }
    if (ret != TC_ACT_PIPE)
      break;
  }
out:
  ns_ret (t);
  return ret;
}

/* tcf_exts_exec: inline in the classifier; its loads of the exts are the classifier's. */
int
tcf_exts_exec (NsThread *t, TcEnv *env, struct sk_buff *skb, struct tcf_exts *exts,
               struct tcf_result *res)
{
  g_return_val_if_fail (exts != NULL, TC_ACT_OK);
  /* census: 3 instructions (actions and nr_actions into argument registers, the tail
   * jump into tcf_action_exec) */
  ns_insns (t, 3);
  return tcf_action_exec (t, env, skb, exts->actions, exts->nr_actions, res);
}
