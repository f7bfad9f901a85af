/* softirq.h — kernel/softirq.c and include/linux/bottom_half.h: local_bh_disable and
 * __local_bh_enable_ip, one model for every simulated stack. The per-CPU words they
 * touch (pcpu_hot.preempt_count, irq_stat.__softirq_pending) sit where each stack keeps
 * them, and running the pending softirqs is the stack's: a SoftirqCtx says both. */
#pragma once
#include <glib.h>
#include "machine.h"

G_BEGIN_DECLS

typedef struct {
  gpointer   owner;                                   /* the stack */
  gint32  *(*preempt_count) (gpointer owner, NsThread *t);  /* this CPU's */
  guint32 *(*pending)       (gpointer owner, NsThread *t);  /* this CPU's */
  /* do_softirq: runs this CPU's pending softirqs; NULL where the stack raises none */
  void     (*do_softirq)    (NsThread *t, gpointer owner);
} SoftirqCtx;

/* local_bh_disable: preempt_count_add(SOFTIRQ_DISABLE_OFFSET), inline. */
void  local_bh_disable      (NsThread *t, const SoftirqCtx *ctx);
/* __local_bh_enable_ip (out of line): drop the offset; do_softirq if something is
 * pending and we are not in interrupt context; preempt_check_resched. */
void  __local_bh_enable_ip  (NsThread *t, const SoftirqCtx *ctx);

G_END_DECLS
