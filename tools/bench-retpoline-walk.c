/* bench-retpoline-walk.c — seed 002's filter walk in user space, as tools/bench-retpoline
 * times it: tcf_classify over a chain of matchall filters, each running one gact action
 * that returns "continue". Built three times: with -mindirect-branch=thunk-extern (every
 * indirect call goes through a generic retpoline thunk, as on a retpoline kernel before
 * the tc wrapper), without (a plain, predicted indirect call), and with BENCH_WRAPPER:
 * the RFC tc wrapper's compare chains (alphabetical: matchall is the 7th classifier, gact
 * the 6th action), each entry a compare of the loaded pointer with the function's
 * address and a conditional branch, then a direct call; with BENCH_WRAPPER_FIRST as well,
 * the chains test matchall and gact first (one compare each), so the two wrapper builds
 * differ by 11 compare-and-branch pairs a filter that fall through. Those builds are
 * compiled without PIE, so each compare is `cmp $imm32, %reg` as in the kernel.
 * BENCH_WALK names the build. */
#include "config.h"
#include "bench-retpoline.h"

#define TC_ACT_PIPE  3
#define ETH_P_ALL_LE 3

#ifdef BENCH_WRAPPER
/* The classifiers and actions the RFC's chains test before matchall and gact: only their
 * addresses matter (a walk of matchall filters never calls them). */
#define NEVER_CALLED_CLASSIFY(name)                                                \
  static __attribute__ ((noinline, used)) int name (const struct bench_skb *s,       \
                                                    const struct bench_tp *t,        \
                                                    struct bench_res *r)             \
  {                                                                                  \
    __builtin_trap ();                                                               \
  }
#define NEVER_CALLED_ACT(name)                                                     \
  static __attribute__ ((noinline, used)) int name (struct bench_act *a,             \
                                                    const struct bench_skb *s,       \
                                                    struct bench_res *r)             \
  {                                                                                  \
    __builtin_trap ();                                                               \
  }
NEVER_CALLED_CLASSIFY (cls_basic)
NEVER_CALLED_CLASSIFY (cls_bpf)
NEVER_CALLED_CLASSIFY (cls_cgroup)
NEVER_CALLED_CLASSIFY (cls_flow)
NEVER_CALLED_CLASSIFY (cls_flower)
NEVER_CALLED_CLASSIFY (cls_fw)
NEVER_CALLED_ACT (act_bpf)
NEVER_CALLED_ACT (act_connmark)
NEVER_CALLED_ACT (act_csum)
NEVER_CALLED_ACT (act_ct)
NEVER_CALLED_ACT (act_ctinfo)
#endif

/* tcf_gact_act: bump this CPU's byte and packet counters, note the use, return the verdict. */
static __attribute__ ((noinline)) int
gact_act (struct bench_act *a, const struct bench_skb *skb, struct bench_res *res)
{
  struct bench_stats *b = a->cpu_bstats;

  (void) res;
  b->bytes += skb->len;
  b->packets++;
  a->lastuse = 1;
  return a->action;
}

static const struct bench_act_ops gact_ops = { gact_act };

#if defined BENCH_WRAPPER && defined BENCH_WRAPPER_FIRST
/* tc_act with gact first in the chain. */
#define TC_ACT(fn, a, skb, res) ((fn) == gact_act ? gact_act (a, skb, res) : (fn) (a, skb, res))
#elif defined BENCH_WRAPPER
/* tc_act of the RFC: the action chain up to gact, then a direct call. */
#define TC_ACT(fn, a, skb, res)                                                    \
  ((fn) == act_bpf ? act_bpf (a, skb, res) :                                       \
   (fn) == act_connmark ? act_connmark (a, skb, res) :                             \
   (fn) == act_csum ? act_csum (a, skb, res) :                                     \
   (fn) == act_ct ? act_ct (a, skb, res) :                                         \
   (fn) == act_ctinfo ? act_ctinfo (a, skb, res) :                                 \
   (fn) == gact_act ? gact_act (a, skb, res) : (fn) (a, skb, res))
#else
#define TC_ACT(fn, a, skb, res) (fn) (a, skb, res)
#endif

/* tcf_action_exec: each action in turn while it says "pipe". */
static __attribute__ ((noinline)) int
action_exec (const struct bench_skb *skb, struct bench_act **actions, int nr,
             struct bench_res *res)
{
  int ret = -1;

  for (int i = 0; i < nr; i++) {
    struct bench_act *a = actions[i];
    if (a->flags & 1)
      continue;
    ret = TC_ACT (a->ops->act, a, skb, res);
    if (ret != TC_ACT_PIPE)
      break;
  }
  return ret;
}

/* mall_classify: matches every packet, counts the hit, runs the filter's actions. */
static __attribute__ ((noinline)) int
mall_classify (const struct bench_skb *skb, const struct bench_tp *tp, struct bench_res *res)
{
  struct bench_head *head = tp->root;

  if (head->flags & 2)
    return -1;
  *res = head->res;
  (*head->rhit)++;
  return action_exec (skb, head->actions, head->nr_actions, res);
}

#if defined BENCH_WRAPPER && defined BENCH_WRAPPER_FIRST
/* tc_classify with matchall first in the chain. */
#define TC_CLASSIFY(fn, skb, tp, res)                                              \
  ((fn) == mall_classify ? mall_classify (skb, tp, res) : (fn) (skb, tp, res))
#elif defined BENCH_WRAPPER
/* tc_classify of the RFC: the classifier chain up to matchall, then a direct call. */
#define TC_CLASSIFY(fn, skb, tp, res)                                              \
  ((fn) == cls_basic ? cls_basic (skb, tp, res) :                                  \
   (fn) == cls_bpf ? cls_bpf (skb, tp, res) :                                      \
   (fn) == cls_cgroup ? cls_cgroup (skb, tp, res) :                                \
   (fn) == cls_flow ? cls_flow (skb, tp, res) :                                    \
   (fn) == cls_flower ? cls_flower (skb, tp, res) :                                \
   (fn) == cls_fw ? cls_fw (skb, tp, res) :                                        \
   (fn) == mall_classify ? mall_classify (skb, tp, res) : (fn) (skb, tp, res))
#else
#define TC_CLASSIFY(fn, skb, tp, res) (fn) (skb, tp, res)
#endif

/* __tcf_classify: the filters in order until one gives a verdict (>= 0). */
static __attribute__ ((noinline)) int
tcf_classify (const struct bench_skb *skb, const struct bench_tp *tp, struct bench_res *res)
{
  for (; tp != NULL; tp = tp->next) {
    int err;
    if (tp->protocol != skb->protocol && tp->protocol != ETH_P_ALL_LE)
      continue;
    err = TC_CLASSIFY (tp->classify, skb, tp, res);
    if (err >= 0)
      return err;
  }
  return -1;
}

const BenchWalk BENCH_WALK = { tcf_classify, mall_classify, &gact_ops };
