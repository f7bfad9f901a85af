/* softirq.c — kernel/softirq.c's bottom-half enable/disable for every simulated stack
 * (softirq.h): the loopback stack of seed 000, whose __local_bh_enable_ip runs the NET_RX
 * softirq loopback_xmit raised, and the pktgen/tc stack of seed 002, where none is
 * pending. */
#include "config.h"
#include "softirq.h"

#define SOFTIRQ_DISABLE_OFFSET 0x200
#define SOFTIRQ_MASK           0xff00
#define HARDIRQ_MASK           0xf0000
#define NMI_MASK               0xf00000

/* kernel/softirq.c. Size: the Debian 6.1.176 binary's (nm -S;
 * doc/census/text-sizes-6.1.176.txt). Instruction counts: the census of the Debian 6.1.176
 * binary (doc/census/xmit.md, pktgen.md): body instructions, the function's total less
 * its prologue, epilogue and return (the NS_FUNC's frame, charged per call). */
static NS_FUNC (fn___local_bh_enable_ip, "__local_bh_enable_ip", 102, 1, NS_FN_EXTERN, 400);

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

/* __local_bh_enable_ip(ip, SOFTIRQ_DISABLE_OFFSET): count -= cnt - 1, so preemption
 * stays disabled while pending softirqs run — only when !in_interrupt(), i.e. not
 * inside an outer bh-disabled section, a softirq handler or a hard interrupt — then
 * preempt_count_dec. */
void
__local_bh_enable_ip (NsThread *t, const SoftirqCtx *ctx)
{
  gint32 *count;
  guint32 *pending;
  gboolean in_interrupt;

  g_return_if_fail (ctx != NULL);
  count = ctx->preempt_count (ctx->owner, t);
  pending = ctx->pending (ctx->owner, t);
  ns_call (t, &fn___local_bh_enable_ip);
  ns_load (t, count, sizeof *count);
  in_interrupt = ((*count - (SOFTIRQ_DISABLE_OFFSET - 1)) &
                  (SOFTIRQ_MASK | HARDIRQ_MASK | NMI_MASK)) != 0;
  if (!in_interrupt)
    ns_load (t, pending, sizeof *pending);
  *count -= SOFTIRQ_DISABLE_OFFSET - 1;
  ns_store (t, count, sizeof *count);
  /* census: 13 instructions (the in_hardirq warning's test, count -= cnt - 1, the
   * in_interrupt test, preempt_count_dec and its test); 3 more for the pending-softirq
   * test once the count leaves interrupt context (not when an outer local_bh_disable is
   * still in force, as around pktgen's __dev_queue_xmit): 19 less P/E 3 (recv.md,
   * select.md); 2 more to call do_softirq when one is pending, 21 less 3 (receive.md) */
  ns_insns (t, in_interrupt ? 13 : *pending ? 18 : 16);
  if (!in_interrupt && *pending && ctx->do_softirq != NULL)
    ctx->do_softirq (t, ctx->owner);
  *count -= 1;
  ns_ret (t);
}
