/* bench-rethunk.c — the return thunk of the return-thunk benchmarks, in one place.
 *
 * __x86_return_thunk jumps to a plain `ret` or to the Safe RET sequence (call
 * srso_safe_ret; srso_safe_ret: lea 8(%rsp),%rsp; ret), chosen at run time through one
 * predicted indirect jump that both cases pay (bench_rethunk_select). Compiled without
 * the return-thunk flags: this file has no C function of its own. */
#include "config.h"
#include "bench-rethunk.h"

__asm__ (
  "  .text\n"
  "  .p2align 6\n"
  "  .globl __x86_return_thunk\n"
  "__x86_return_thunk:\n  jmp *bench_ret_target(%rip)\n"
  "bench_plain_ret:\n  ret\n  int3\n"
  "bench_safe_ret_thunk:\n  call bench_srso_safe_ret\n  ud2\n"
  "bench_srso_safe_ret:\n  lea 8(%rsp),%rsp\n  ret\n  int3\n"
  "  .data\n  .globl bench_ret_target\nbench_ret_target:\n  .quad bench_plain_ret\n"
  "  .globl bench_safe_target\nbench_safe_target:\n  .quad bench_safe_ret_thunk\n"
  "  .globl bench_plain_target\nbench_plain_target:\n  .quad bench_plain_ret\n"
  "  .text\n"
);
