/* bench-rethunk.h — the __x86_return_thunk the return-thunk benchmarks link
 * (tools/bench-saferet, tools/bench-saferet-tree): code built with
 * -mfunction-return=thunk-extern returns through it, and it jumps through
 * bench_ret_target to a plain `ret` or to the SRSO Safe RET sequence. x86-64 only. */
#pragma once
#include <glib.h>

/* Defined in assembly (bench-rethunk.c): the thunk's target, and its two values. */
extern gpointer bench_ret_target, bench_safe_target, bench_plain_target;

/* Every return through the thunk from now on: Safe RET when safe, else a plain ret. */
static inline void
bench_rethunk_select (gboolean safe)
{
  bench_ret_target = safe ? bench_safe_target : bench_plain_target;
}
