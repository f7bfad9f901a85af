/* bench-retpoline-walk.c — seed 002's filter walk in user space, as tools/bench-retpoline
 * times it: tcf_classify over a chain of matchall filters, each running one gact action
 * that returns "continue". Built twice: with -mindirect-branch=thunk-extern (every
 * indirect call goes through a generic retpoline thunk, as on a retpoline kernel before
 * the tc wrapper) and without (a plain, predicted indirect call). BENCH_WALK names the
 * build. */
#include "config.h"
#include "bench-retpoline.h"

#define TC_ACT_PIPE  3
#define ETH_P_ALL_LE 3

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
    ret = a->ops->act (a, skb, res);
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

/* __tcf_classify: the filters in order until one gives a verdict (>= 0). */
static __attribute__ ((noinline)) int
tcf_classify (const struct bench_skb *skb, const struct bench_tp *tp, struct bench_res *res)
{
  for (; tp != NULL; tp = tp->next) {
    int err;
    if (tp->protocol != skb->protocol && tp->protocol != ETH_P_ALL_LE)
      continue;
    err = tp->classify (skb, tp, res);
    if (err >= 0)
      return err;
  }
  return -1;
}

const BenchWalk BENCH_WALK = { tcf_classify, mall_classify, &gact_ops };
