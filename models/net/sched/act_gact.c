/* act_gact.c — net/sched/act_gact.c: the generic action (kernel-spec §3.5.3). tcf_gact_act
 * reads the configured verdict and the probability type (CONFIG_GACT_PROB; 0 here: no
 * random or deterministic alternative), updates this CPU's byte/packet counters
 * (cpu_bstats: gact allocates per-CPU stats), counts a drop for SHOT, updates lastuse when
 * jiffies moved, and returns the verdict: "pass"/"ok" 0, "drop"/"shot" 2, "continue" -1,
 * "pipe" 3, "reclassify" 1, "goto chain N" TC_ACT_GOTO_CHAIN|N, "jump N" TC_ACT_JUMP|N.
 *
 * struct tcf_gact (v6.1): struct tc_action (224 bytes), tcfg_ptype 224, tcfg_pval 226,
 * tcfg_paction 228, packets 232: 240 bytes (Debian 6.1.176's act_gact.ko DWARF), kmalloc-256 (tcf_idr_create kzalloc's
 * ops->size). */
#include "config.h"
#include <string.h>
#include "sched-priv.h"

/* Load sites of the filter walk that see one object per filter: the L1 stride
 * prefetcher follows them (ns_load_site). */
static NS_LOAD_SITE (site_cpu_bstats, "tcf_gact_act: a->cpu_bstats (action CL2)");
static NS_LOAD_SITE (site_bstats, "tcf_gact_act: this CPU's bstats");
static NS_LOAD_SITE (site_firstuse, "tcf_gact_act: tcfa_tm.firstuse (action CL1)");

struct tcf_gact {
  struct tc_action    common;             /*   0 */
  guint16             tcfg_ptype;         /* 224 CL3 */
  guint16             tcfg_pval;          /* 226 */
  gint32              tcfg_paction;       /* 228 */
  guint32             packets;            /* 232 */
  guint32             _pad236;
};
G_STATIC_ASSERT (offsetof (struct tcf_gact, tcfg_ptype) == 224);
G_STATIC_ASSERT (sizeof (struct tcf_gact) == 240);

/* tcf_gact_act: static, reached through a->ops->act (extern with the wrapper series).
 * Size: the Debian 6.1.176 binary's (nm -S; doc/census/text-sizes-6.1.176.txt). */
static NS_FUNC (fn_tcf_gact_act, "tcf_gact_act", 306, 9, NS_FN_STATIC | NS_FN_INDIRECT, 1);

static int tcf_gact_act (NsThread *t, TcEnv *env, struct sk_buff *skb,
                         const struct tc_action *a, struct tcf_result *res);

const TcFn tc_fn_tcf_gact_act = {
  &fn_tcf_gact_act, "CONFIG_NET_ACT_GACT", (gpointer) tcf_gact_act
};

/* act_gact_ops: kind "gact", act = tcf_gact_act, size = sizeof (struct tcf_gact). */
void
tc_gact_ops_init (struct tc_action_ops *ops)
{
  g_return_if_fail (ops != NULL);
  memset (ops, 0, sizeof *ops);
  g_strlcpy (ops->kind, "gact", sizeof ops->kind);
  ops->size = sizeof (struct tcf_gact);
  ops->act = &tc_fn_tcf_gact_act;
}

/* bstats_update(this_cpu_ptr(a->cpu_bstats), skb): bytes += qdisc_pkt_len(skb), packets
 * += skb_is_gso(skb) ? gso_segs : 1. */
static void
tcf_action_update_bstats (NsThread *t, TcEnv *env, const struct tc_action *a,
                          struct sk_buff *skb)
{
  struct gnet_stats_basic_sync *b;
  struct skb_shared_info *shinfo = skb_shinfo (skb);

  ns_load_site (t, &site_cpu_bstats, FALSE, &a->cpu_bstats, sizeof a->cpu_bstats);
  b = tc_percpu_ptr (env, a->cpu_bstats, ns_thread_cpu (t));
  /* qdisc_skb_cb(skb)->pkt_len: the first word of skb->cb */
  ns_load (t, skb->cb, sizeof (guint32));
  NS_LOAD_FIELD (t, skb, head);
  NS_LOAD_FIELD (t, skb, end);
  NS_LOAD_FIELD (t, shinfo, gso_size);
  ns_load_site (t, &site_bstats, FALSE, b, sizeof *b);
  b->bytes += *(guint32 *) skb->cb;
  b->packets += shinfo->gso_size ? shinfo->gso_segs : 1;
  ns_store (t, b, sizeof *b);
  /* census (doc/census/tc.md): 12 instructions — cpu_bstats and its NULL test,
   * this_cpu_ptr, pkt_len, shinfo address, gso test, two read-modify-write adds
   * (u64_stats_update_begin/end are empty on 64-bit) */
  ns_insns (t, 12);
}

/* tcf_lastuse_update: lastuse = jiffies if it moved; firstuse set once. */
static void
tcf_lastuse_update (NsThread *t, TcEnv *env, struct tcf_t *tm)
{
  guint64 now;

  ns_load (t, env->jiffies, sizeof *env->jiffies);
  now = *env->jiffies;
  NS_LOAD_FIELD (t, tm, lastuse);
  ns_load_site (t, &site_firstuse, FALSE, &tm->firstuse, sizeof tm->firstuse);
  /* census: 5 instructions (the jiffies load, two compares, branches) */
  ns_insns (t, 5);
  if (tm->lastuse != now) {
    tm->lastuse = now;
    NS_STORE_FIELD (t, tm, lastuse);
  }
  if (G_UNLIKELY (tm->firstuse == 0)) {
    tm->firstuse = now;
    NS_STORE_FIELD (t, tm, firstuse);
  }
}

/* tcf_gact_act: the body (the caller charged the call: tc_act). */
static int
tcf_gact_act (NsThread *t, TcEnv *env, struct sk_buff *skb, const struct tc_action *a,
              struct tcf_result *res)
{
  struct tcf_gact *gact = (struct tcf_gact *) a;
  int action;

  NS_LOAD_FIELD (t, &gact->common, tcfa_action);
  action = gact->common.tcfa_action;
  NS_LOAD_FIELD (t, gact, tcfg_ptype);
  /* census: 6 instructions (the two READ_ONCEs, arguments kept, the ptype test) */
  ns_insns (t, 6);
  tcf_action_update_bstats (t, env, a, skb);
  /* census: 2 instructions (SHOT test) */
  ns_insns (t, 2);
  if (action == TC_ACT_SHOT) {
    /* tcf_action_inc_drop_qstats: qstats_drop_inc(this_cpu_ptr(a->cpu_qstats)) */
    NS_LOAD_FIELD (t, &gact->common, cpu_qstats);
    tc_qstats_cpu_drop_inc (t, env, gact->common.cpu_qstats);
    ns_insns (t, 3);
  }
  tcf_lastuse_update (t, env, &gact->common.tcfa_tm);
  ns_insns (t, 1);                  /* census: the return value */
  return action;
}

/* tcf_gact_init via tcf_idr_create: a gact with verdict action (control path). */
struct tc_action *
tcf_gact_create (TcEnv *env, gint32 action, struct tcf_chain *goto_chain)
{
  struct tcf_gact *gact;

  g_return_val_if_fail (env != NULL, NULL);
  g_return_val_if_fail (!TC_ACT_EXT_CMP (action, TC_ACT_GOTO_CHAIN) || goto_chain != NULL,
                        NULL);
  gact = tc_kzalloc (env, sizeof *gact);
  gact->common.ops = env->gact_ops;
  gact->common.tcfa_action = action;
  gact->common.tcfa_refcnt = 1;
  /* tcf_idr_create: install = lastuse = jiffies, firstuse = 0 */
  gact->common.tcfa_tm.install = *env->jiffies;
  gact->common.tcfa_tm.lastuse = *env->jiffies;
  gact->common.cpu_bstats = tc_alloc_percpu (env, sizeof (struct gnet_stats_basic_sync), 16);
  gact->common.cpu_bstats_hw = tc_alloc_percpu (env, sizeof (struct gnet_stats_basic_sync),
                                                16);
  gact->common.cpu_qstats = tc_alloc_percpu (env, GNET_QSTATS_WORDS * sizeof (guint32), 4);
  gact->common.goto_chain = goto_chain;
  return &gact->common;
}

/* Packets the action saw, over every CPU. */
guint64
tc_action_packets (TcEnv *env, const struct tc_action *a)
{
  guint64 sum = 0;

  g_return_val_if_fail (env != NULL && a != NULL, 0);
  for (guint c = 0; c < ns_machine_n_cpus (env->machine); c++)
    sum += ((struct gnet_stats_basic_sync *) tc_percpu_ptr (env, a->cpu_bstats, c))->packets;
  return sum;
}

/* Drops the action counted, over every CPU. */
guint64
tc_action_drops (TcEnv *env, const struct tc_action *a)
{
  guint64 sum = 0;

  g_return_val_if_fail (env != NULL && a != NULL, 0);
  for (guint c = 0; c < ns_machine_n_cpus (env->machine); c++)
    sum += ((guint32 *) tc_percpu_ptr (env, a->cpu_qstats, c))[GNET_QSTATS_DROPS];
  return sum;
}
