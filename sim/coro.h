/* coro.h — stackful coroutines with a user-space context switch (no syscalls per switch). */
#pragma once
#include <glib.h>

G_BEGIN_DECLS

typedef struct _NsCoro NsCoro;
typedef void (*NsCoroFunc) (gpointer data);

/* Creates a suspended coroutine that will run fn(data) on its own stack of stack_size bytes
 * (0 = default 256 KiB). The stack is allocated once, here. */
NsCoro  *ns_coro_new       (NsCoroFunc fn, gpointer data, gsize stack_size);
/* Frees a coroutine that has finished or was never started (a suspended one may be freed too:
 * its stack is dropped without unwinding). */
void     ns_coro_free      (NsCoro *coro);
/* Switches from the caller (the scheduler, not a coroutine) into coro until it yields or
 * returns. Must not be called from inside a coroutine. */
void     ns_coro_resume    (NsCoro *coro);
/* Switches from the running coroutine back to whoever resumed it. */
void     ns_coro_yield     (void);
/* TRUE once fn has returned. */
gboolean ns_coro_is_done   (const NsCoro *coro);
/* The running coroutine, or NULL in scheduler context. */
NsCoro  *ns_coro_self      (void);

G_END_DECLS
