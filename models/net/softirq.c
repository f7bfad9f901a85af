/* softirq.c — kernel/softirq.c's bottom-half enable/disable for every simulated stack
 * (softirq.h): the loopback stack of seed 000, whose __local_bh_enable_ip runs the NET_RX
 * softirq loopback_xmit raised, and the pktgen/tc stack of seed 002, where none is
 * pending. */
#include "config.h"
#include "softirq.h"

#define SOFTIRQ_DISABLE_OFFSET 0x200

/* kernel/softirq.c: estimate, ~15 straight-line instructions plus the do_softirq call
 * (about 110 bytes). */
static NS_FUNC (fn___local_bh_enable_ip, "__local_bh_enable_ip", 112, NS_FN_EXTERN, 400);

/* local_bh_disable: one add to the per-CPU preempt count. */
void
local_bh_disable (NsThread *t, const SoftirqCtx *ctx)
{
  gint32 *count;

  g_return_if_fail (ctx != NULL);
  count = ctx->preempt_count (ctx->owner, t);
  ns_load (t, count, sizeof *count);
  *count += SOFTIRQ_DISABLE_OFFSET;
  ns_store (t, count, sizeof *count);
  ns_insns (t, 1);
}

/* __local_bh_enable_ip(ip, SOFTIRQ_DISABLE_OFFSET). */
void
__local_bh_enable_ip (NsThread *t, const SoftirqCtx *ctx)
{
  gint32 *count;
  guint32 *pending;

  g_return_if_fail (ctx != NULL);
  count = ctx->preempt_count (ctx->owner, t);
  pending = ctx->pending (ctx->owner, t);
  ns_call (t, &fn___local_bh_enable_ip);
  ns_load (t, count, sizeof *count);
  ns_load (t, pending, sizeof *pending);
  *count -= SOFTIRQ_DISABLE_OFFSET;
  ns_store (t, count, sizeof *count);
  /* estimate: 14 instructions (in_hardirq warn test, softirq_count test, two preempt
   * count updates, in_interrupt and pending tests, should_resched test) */
  ns_insns (t, 14);
  if (*pending && ctx->do_softirq != NULL)
    ctx->do_softirq (t, ctx->owner);
  ns_ret (t);
}
