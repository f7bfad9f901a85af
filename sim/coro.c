/* coro.c — stackful coroutines with a user-space context switch.
 *
 * Each coroutine owns one stack, mmap'd once in ns_coro_new with a PROT_NONE guard page
 * below it, so an overflow faults instead of silently corrupting the neighbour's memory.
 *
 * On x86-64 a switch is a dozen instructions of hand-written assembly (below): push the
 * callee-saved registers (rbp, rbx, r12–r15) and the SSE/x87 control words (MXCSR and the
 * x87 control word, which the ABI says are callee-saved too) on the current stack, store
 * the stack pointer, load the other one, pop the same things back and `ret`. A new
 * coroutine's stack is prepared so that its first switch "returns" into a trampoline that
 * calls coro_main(coro). No system call is made per switch.
 *
 * Elsewhere a portable fallback is used: makecontext/swapcontext to enter a coroutine the
 * first time, then _setjmp/_longjmp (which do not touch the signal mask) for every switch,
 * with fegetenv/fesetenv keeping each side's floating-point environment (needs libm).
 * Defining NS_CORO_PORTABLE selects the fallback on x86-64 too (for testing it).
 *
 * With AddressSanitizer (config.h defines NS_WITH_ASAN), every switch is announced with
 * __sanitizer_start_switch_fiber / __sanitizer_finish_switch_fiber so ASan knows which
 * stack is live, and a stack is unpoisoned before it is unmapped.
 *
 * The running coroutine is tracked per host thread, so separate host threads may each
 * drive their own coroutines. Coroutines are resumed only from scheduler context (never
 * nested), and a coroutine always yields back to whoever resumed it. */
#include "config.h"

#include "coro.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__x86_64__) && !defined(NS_CORO_PORTABLE)
#define NS_CORO_ASM 1
#else
#include <fenv.h>
#include <setjmp.h>
#include <ucontext.h>
#endif

#ifdef NS_WITH_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#define NS_CORO_DEFAULT_STACK (256 * 1024)

struct _NsCoro {
  NsCoroFunc  fn;
  gpointer    data;
  gboolean    started;
  gboolean    done;
  guint8     *map;           /* guard page + stack, as mmap'd */
  gsize       map_size;
  guint8     *stack_lo;      /* lowest usable byte of the stack */
  gsize       stack_size;
#ifdef NS_CORO_ASM
  void       *sp;            /* this coroutine's saved stack pointer while suspended */
  void       *caller_sp;     /* the resumer's saved stack pointer while this one runs */
#else
  ucontext_t  entry_ctx;     /* used once, to enter the coroutine */
  jmp_buf     self_env;      /* where the suspended coroutine continues */
  jmp_buf     caller_env;    /* where the resumer continues */
#endif
#ifdef NS_WITH_ASAN
  void       *fake_stack;    /* ASan's fake stack of this coroutine while suspended */
  const void *caller_bottom; /* the resumer's stack, for switching back */
  size_t      caller_size;
#endif
};

static __thread NsCoro *current_coro;

/* ---- ASan fiber annotations (no-ops without ASan) ---- */

#ifdef NS_WITH_ASAN
/* Announces a switch from the scheduler into coro; *save receives the scheduler's fake stack. */
static inline void
asan_enter_begin (NsCoro *coro, void **save)
{
  __sanitizer_start_switch_fiber (save, coro->stack_lo, coro->stack_size);
}

/* Completes a switch back into the scheduler. */
static inline void
asan_enter_end (void *save)
{
  __sanitizer_finish_switch_fiber (save, NULL, NULL);
}

/* Announces a switch from coro back to its resumer; a finished coro's fake stack is dropped. */
static inline void
asan_leave_begin (NsCoro *coro)
{
  __sanitizer_start_switch_fiber (coro->done ? NULL : &coro->fake_stack,
                                  coro->caller_bottom, coro->caller_size);
}

/* Completes a switch into coro and learns the resumer's stack. */
static inline void
asan_leave_end (NsCoro *coro)
{
  __sanitizer_finish_switch_fiber (coro->fake_stack, &coro->caller_bottom, &coro->caller_size);
}
#else
#define asan_enter_begin(coro, save) ((void) (coro), (void) (save))
#define asan_enter_end(save)         ((void) (save))
#define asan_leave_begin(coro)       ((void) (coro))
#define asan_leave_end(coro)         ((void) (coro))
#endif

/* Runs the coroutine body on its own stack, then leaves for good. */
static void coro_main (NsCoro *coro);

/* ---- x86-64 switch ---- */

#ifdef NS_CORO_ASM
/* void ns_coro_switch_x86_64 (void **save_sp, void *load_sp)
 * Saves the callee-saved state on the current stack and *save_sp = rsp, then continues on
 * load_sp. Frame layout, from the saved rsp up: mxcsr (4) x87 cw (2) pad (2) pad (8),
 * r15 r14 r13 r12 rbx rbp, return address.
 *
 * ns_coro_trampoline_x86_64: first code a new coroutine runs. rbx holds the coroutine and
 * r12 the C entry point; rsp is 16-byte aligned here, so the call is ABI-conformant. */
__asm__ (
  "  .text\n"
  "  .p2align 4\n"
  "  .globl ns_coro_switch_x86_64\n"
  "  .hidden ns_coro_switch_x86_64\n"
  "  .type ns_coro_switch_x86_64, @function\n"
  "ns_coro_switch_x86_64:\n"
  "  .cfi_startproc\n"
  "  pushq %rbp\n"
  "  pushq %rbx\n"
  "  pushq %r12\n"
  "  pushq %r13\n"
  "  pushq %r14\n"
  "  pushq %r15\n"
  "  subq $16, %rsp\n"
  "  stmxcsr (%rsp)\n"
  "  fnstcw 4(%rsp)\n"
  "  movq %rsp, (%rdi)\n"
  "  movq %rsi, %rsp\n"
  "  ldmxcsr (%rsp)\n"
  "  fldcw 4(%rsp)\n"
  "  addq $16, %rsp\n"
  "  popq %r15\n"
  "  popq %r14\n"
  "  popq %r13\n"
  "  popq %r12\n"
  "  popq %rbx\n"
  "  popq %rbp\n"
  "  ret\n"
  "  .cfi_endproc\n"
  "  .size ns_coro_switch_x86_64, .-ns_coro_switch_x86_64\n"
  "\n"
  "  .p2align 4\n"
  "  .globl ns_coro_trampoline_x86_64\n"
  "  .hidden ns_coro_trampoline_x86_64\n"
  "  .type ns_coro_trampoline_x86_64, @function\n"
  "ns_coro_trampoline_x86_64:\n"
  "  .cfi_startproc\n"
  "  .cfi_undefined rip\n"
  "  movq %rbx, %rdi\n"
  "  callq *%r12\n"
  "  ud2\n"
  "  .cfi_endproc\n"
  "  .size ns_coro_trampoline_x86_64, .-ns_coro_trampoline_x86_64\n"
);

void ns_coro_switch_x86_64 (void **save_sp, void *load_sp);
void ns_coro_trampoline_x86_64 (void);

/* Lays out the initial frame so that the first switch into coro lands in the trampoline. */
static void
coro_prepare_stack (NsCoro *coro)
{
  guint64 *top = (guint64 *) (((guintptr) (coro->stack_lo + coro->stack_size)) & ~(guintptr) 15);
  guint32 mxcsr;
  guint16 fpucw;

  __asm__ volatile ("stmxcsr %0" : "=m" (mxcsr));
  __asm__ volatile ("fnstcw %0" : "=m" (fpucw));

  top[-1] = (guint64) (guintptr) ns_coro_trampoline_x86_64;  /* return address */
  top[-2] = 0;                                               /* rbp: ends frame chains */
  top[-3] = (guint64) (guintptr) coro;                       /* rbx */
  top[-4] = (guint64) (guintptr) coro_main;                  /* r12 */
  top[-5] = 0;                                               /* r13 */
  top[-6] = 0;                                               /* r14 */
  top[-7] = 0;                                               /* r15 */
  top[-8] = 0;
  top[-9] = 0;
  memcpy (&top[-9], &mxcsr, sizeof mxcsr);
  memcpy ((guint8 *) &top[-9] + 4, &fpucw, sizeof fpucw);
  coro->sp = &top[-9];
}

/* Switches from the scheduler into coro. */
static inline void
coro_switch_in (NsCoro *coro)
{
  ns_coro_switch_x86_64 (&coro->caller_sp, coro->sp);
}

/* Switches from coro back to its resumer. */
static inline void
coro_switch_out (NsCoro *coro)
{
  ns_coro_switch_x86_64 (&coro->sp, coro->caller_sp);
}

#else /* portable fallback */

/* First code run on a new coroutine's stack (makecontext cannot pass a pointer portably,
 * so the coroutine is taken from current_coro, set by the resumer). */
static void
coro_entry_portable (void)
{
  coro_main (current_coro);
}

/* Prepares the ucontext used to enter coro the first time. */
static void
coro_prepare_stack (NsCoro *coro)
{
  if (getcontext (&coro->entry_ctx) != 0)
    g_error ("getcontext failed");
  coro->entry_ctx.uc_stack.ss_sp = coro->stack_lo;
  coro->entry_ctx.uc_stack.ss_size = coro->stack_size;
  coro->entry_ctx.uc_link = NULL;
  makecontext (&coro->entry_ctx, coro_entry_portable, 0);
}

/* Switches from the scheduler into coro. _setjmp does not keep the floating-point control
 * state, so each side saves its own around the switch. */
static inline void
coro_switch_in (NsCoro *coro)
{
  fenv_t fp_env;

  fegetenv (&fp_env);
  if (_setjmp (coro->caller_env) == 0)
    {
      if (!coro->started)
        {
          ucontext_t discard;
          coro->started = TRUE;
          swapcontext (&discard, &coro->entry_ctx);
        }
      _longjmp (coro->self_env, 1);
    }
  fesetenv (&fp_env);
}

/* Switches from coro back to its resumer. */
static inline void
coro_switch_out (NsCoro *coro)
{
  fenv_t fp_env;

  fegetenv (&fp_env);
  if (_setjmp (coro->self_env) == 0)
    _longjmp (coro->caller_env, 1);
  fesetenv (&fp_env);
}
#endif

/* Runs the coroutine body on its own stack, then leaves for good. */
static void
coro_main (NsCoro *coro)
{
  asan_leave_end (coro);
  coro->fn (coro->data);
  coro->done = TRUE;
  asan_leave_begin (coro);
  coro_switch_out (coro);
  g_assert_not_reached ();
}

/* Creates a suspended coroutine running fn(data) on a fresh guarded stack; NULL if no memory. */
NsCoro *
ns_coro_new (NsCoroFunc fn, gpointer data, gsize stack_size)
{
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  NsCoro *coro;
  void *map;

  g_return_val_if_fail (fn != NULL, NULL);

  if (stack_size == 0)
    stack_size = NS_CORO_DEFAULT_STACK;
  stack_size = (stack_size + page - 1) / page * page;

  map = mmap (NULL, stack_size + page, PROT_READ | PROT_WRITE,
              MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (map == MAP_FAILED)
    goto no_map;
  if (mprotect (map, page, PROT_NONE) != 0)
    goto no_guard;

  coro = g_new0 (NsCoro, 1);
  coro->fn = fn;
  coro->data = data;
  coro->map = map;
  coro->map_size = stack_size + page;
  coro->stack_lo = (guint8 *) map + page;
  coro->stack_size = stack_size;
  coro_prepare_stack (coro);
  return coro;

/* ERRORS */
no_guard:
  munmap (map, stack_size + page);
no_map:
  g_warning ("ns_coro_new: cannot map a %" G_GSIZE_FORMAT "-byte stack: %s",
             stack_size, g_strerror (errno));
  return NULL;
}

/* Unmaps the coroutine's stack and frees it; it must not be running. */
void
ns_coro_free (NsCoro *coro)
{
  if (coro == NULL)
    return;
  g_return_if_fail (coro != current_coro);

#ifdef NS_WITH_ASAN
  /* A suspended coroutine leaves poisoned redzones behind; a later mapping at the same
   * address must not inherit them. */
  __asan_unpoison_memory_region (coro->stack_lo, coro->stack_size);
#endif
  munmap (coro->map, coro->map_size);
  g_free (coro);
}

/* Runs coro until it yields or returns; only from scheduler context. */
void
ns_coro_resume (NsCoro *coro)
{
  void *fake_stack = NULL;

  g_return_if_fail (coro != NULL);
  g_return_if_fail (current_coro == NULL);
  g_return_if_fail (!coro->done);

  current_coro = coro;
  asan_enter_begin (coro, &fake_stack);
  coro_switch_in (coro);
  asan_enter_end (fake_stack);
  current_coro = NULL;
}

/* Suspends the running coroutine and returns to its resumer. */
void
ns_coro_yield (void)
{
  NsCoro *coro = current_coro;

  g_return_if_fail (coro != NULL);

  asan_leave_begin (coro);
  coro_switch_out (coro);
  asan_leave_end (coro);
}

/* TRUE once the coroutine's function has returned. */
gboolean
ns_coro_is_done (const NsCoro *coro)
{
  g_return_val_if_fail (coro != NULL, TRUE);
  return coro->done;
}

/* The running coroutine, NULL in scheduler context. */
NsCoro *
ns_coro_self (void)
{
  return current_coro;
}
