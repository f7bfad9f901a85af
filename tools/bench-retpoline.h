/* bench-retpoline.h — the tc objects bench-retpoline's filter walk reads (each object on
 * a line of its own), and the four builds of the walk. */
#pragma once
#include <glib.h>

struct bench_res {
  guint64 classid, klass;
};

struct bench_skb {
  guint16 protocol;
  guint32 len;
};

struct bench_stats {
  guint64 bytes, packets;
};

struct bench_act;

struct bench_act_ops {
  int (*act) (struct bench_act *a, const struct bench_skb *skb, struct bench_res *res);
};

struct bench_act {                      /* tc_action with tcf_gact's fields */
  const struct bench_act_ops *ops;
  int                         action;
  guint                       flags;
  struct bench_stats         *cpu_bstats;
  guint64                     lastuse;
};

struct bench_head {                     /* cls_mall_head */
  guint              flags;
  struct bench_res   res;
  struct bench_act **actions;           /* tcf_exts: a kmalloc'd array */
  int                nr_actions;
  guint64           *rhit;              /* per-CPU hit counter */
};

struct bench_tp;

typedef int (*BenchClassifyFn) (const struct bench_skb *skb, const struct bench_tp *tp,
                                struct bench_res *res);

struct bench_tp {                       /* tcf_proto */
  const struct bench_tp *next;
  BenchClassifyFn        classify;
  guint16                protocol;
  guint32                prio;
  struct bench_head     *root;
};

/* One build of the walk: tcf_classify, the matchall classifier and the gact ops. */
typedef struct {
  BenchClassifyFn             tcf_classify;
  BenchClassifyFn             mall_classify;
  const struct bench_act_ops *gact_ops;
} BenchWalk;

extern const BenchWalk bench_walk_plain, bench_walk_retpoline, bench_walk_wrapper,
                       bench_walk_wrapper_first;
