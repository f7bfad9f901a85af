/* cls_matchall.c — net/sched/cls_matchall.c: the matchall classifier (kernel-spec §3.5).
 * mall_classify never looks at the packet: it loads tp->root (the head); with no head or a
 * skip_sw head it returns -1; otherwise it copies head->res into *res, bumps the per-CPU
 * hit counter and returns tcf_exts_exec() — the verdict of its actions, by a tail jmp
 * into tcf_action_exec (doc/census/tc.md: mall_classify has no ret of its own).
 *
 * struct cls_mall_head (v6.1, hand-computed): exts 0–31, res 32–47, handle 48, flags 52,
 * in_hw_count 56, pf (struct tc_matchall_pcnt __percpu *) 64, rwork 72–127, deleting 128:
 * 136 bytes, kmalloc-192. The per-CPU counter is one u64 (rhit). */
#include "config.h"
#include "sched-priv.h"

/* Load sites of the filter walk that see one object per filter: the L1 stride
 * prefetcher follows them (ns_load_site). */
static NS_LOAD_SITE (site_head_flags, "mall_classify: head->flags (head CL0: flags, res, exts)");
static NS_LOAD_SITE (site_head_pf, "mall_classify: head->pf (head CL1)");
static NS_LOAD_SITE (site_rhit, "mall_classify: __this_cpu_inc(pf->rhit)");

struct cls_mall_head {
  struct tcf_exts     exts;               /*   0 CL0 */
  struct tcf_result   res;                /*  32 */
  guint32             handle;             /*  48 */
  guint32             flags;              /*  52 */
  guint32             in_hw_count;        /*  56 */
  guint32             _pad60;
  guint64            *pf;                 /*  64 CL1: __percpu rhit */
  guint8              rwork[56];          /*  72: struct rcu_work */
  gboolean            deleting;           /* 128 */
};
G_STATIC_ASSERT (offsetof (struct cls_mall_head, res) == 32);
G_STATIC_ASSERT (offsetof (struct cls_mall_head, flags) == 52);
G_STATIC_ASSERT (offsetof (struct cls_mall_head, pf) == 64);
G_STATIC_ASSERT (sizeof (struct cls_mall_head) == 136);

/* mall_classify: static, reached through tp->classify (TC_INDIRECT_SCOPE: extern once the
 * wrapper series makes it a direct-call target), tcf_exts_exec inlined. Size: the Debian
 * 6.1.176 binary's (nm -S; doc/census/text-sizes-6.1.176.txt). */
static NS_FUNC (fn_mall_classify, "mall_classify", 74, 4, NS_FN_STATIC | NS_FN_INDIRECT, 1);

static int mall_classify (NsThread *t, TcEnv *env, struct sk_buff *skb,
                          const struct tcf_proto *tp, struct tcf_result *res);

const TcFn tc_fn_mall_classify = {
  &fn_mall_classify, "CONFIG_NET_CLS_MATCHALL", (gpointer) mall_classify
};

const struct tcf_proto_ops cls_mall_ops = { "matchall", &tc_fn_mall_classify };

/* mall_classify: the body (the caller charged the call: tc_classify). */
static int
mall_classify (NsThread *t, TcEnv *env, struct sk_buff *skb, const struct tcf_proto *tp,
               struct tcf_result *res)
{
  struct cls_mall_head *head;
  gboolean thunked;
  guint64 *rhit;

  NS_LOAD_FIELD (t, tp, root);
  head = tp->root;
  /* census (doc/census/tc.md): 5 instructions — head load and NULL test, flags load
   * and skip_sw test */
  ns_insns (t, 5);
  if (G_UNLIKELY (head == NULL))
    return TC_ACT_UNSPEC;
  /* head's first line holds flags, res and exts.actions: the first step of the chain of
   * loads that ends at the first action's act pointer */
  thunked = head->exts.nr_actions > 0 && tc_act_thunked (env, head->exts.actions[0]->ops->act);
  ns_load_site (t, &site_head_flags, thunked, &head->flags, sizeof head->flags);
  if (head->flags & TCA_CLS_FLAGS_SKIP_SW)
    return TC_ACT_UNSPEC;
  /* *res = head->res: a 16-byte copy; census: 5 instructions */
  ns_load (t, &head->res, sizeof head->res);
  *res = head->res;
  ns_store (t, res, sizeof *res);
  ns_insns (t, 5);
  /* __this_cpu_inc(head->pf->rhit): pf on CL1, one RMW of this CPU's counter;
   * census: 2 instructions */
  ns_load_site (t, &site_head_pf, FALSE, &head->pf, sizeof head->pf);
  rhit = tc_percpu_ptr (env, head->pf, ns_thread_cpu (t));
  ns_load_site (t, &site_rhit, FALSE, rhit, sizeof *rhit);
  (*rhit)++;
  ns_store (t, rhit, sizeof *rhit);
  ns_insns (t, 2);
  NS_LOAD_FIELD (t, &head->exts, actions);
  NS_LOAD_FIELD (t, &head->exts, nr_actions);
  ns_tail_next (t);                 /* census: tcf_exts_exec's jmp tcf_action_exec */
  return tcf_exts_exec (t, env, skb, &head->exts, res);
}

/* mall_change up to mall_set_parms: kzalloc of the head, tcf_exts_init's kcalloc of
 * TCA_ACT_MAX_PRIO action pointers, alloc_percpu of the hit counters (v6.1's order). */
struct cls_mall_head *
mall_change_head (TcEnv *env, struct tcf_proto *tp, guint32 classid, guint32 flags)
{
  struct cls_mall_head *head;

  g_return_val_if_fail (env != NULL && tp != NULL, NULL);
  head = tc_kzalloc (env, sizeof *head);
  head->exts.actions = tc_kzalloc (env, TCA_ACT_MAX_PRIO * sizeof (struct tc_action *));
  head->pf = tc_alloc_percpu (env, sizeof (guint64), sizeof (guint64));
  head->res.classid = classid;
  head->flags = flags;
  tp->root = head;
  return head;
}

/* mall_set_parms → tcf_exts_validate: the head's actions. */
void
mall_set_actions (struct cls_mall_head *head, struct tc_action **acts, guint n_acts)
{
  g_return_if_fail (head != NULL && n_acts <= TCA_ACT_MAX_PRIO);
  head->exts.nr_actions = (gint32) n_acts;
  for (guint i = 0; i < n_acts; i++)
    head->exts.actions[i] = acts[i];
}

/* mall_change + mall_set_parms: a head with classid, flags and n_acts actions made
 * before. */
void
mall_change (TcEnv *env, struct tcf_proto *tp, guint32 classid, guint32 flags,
             struct tc_action **acts, guint n_acts)
{
  g_return_if_fail (env != NULL && tp != NULL && n_acts <= TCA_ACT_MAX_PRIO);
  mall_set_actions (mall_change_head (env, tp, classid, flags), acts, n_acts);
}

/* The filter's hit count over every CPU. */
guint64
mall_hits (TcEnv *env, const struct tcf_proto *tp)
{
  const struct cls_mall_head *head;
  guint64 sum = 0;

  g_return_val_if_fail (env != NULL && tp != NULL, 0);
  head = tp->root;
  if (head == NULL)
    return 0;
  for (guint c = 0; c < ns_machine_n_cpus (env->machine); c++)
    sum += *(guint64 *) tc_percpu_ptr (env, head->pf, c);
  return sum;
}
