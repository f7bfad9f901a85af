/* memset.h — the kernel's x86-64 memset (arch/x86/lib/memset_64.S): which body the boot
 * alternatives leave a build on a CPU, and what one call of it executes. */
#pragma once
#include "build.h"
#include "machine.h"
#include "param.h"
#include "mitigation.h"

G_BEGIN_DECLS

/* The body __memset runs, as its alternatives are patched at boot. */
typedef enum {
  NS_MEMSET_ERMS,   /* before 20f3337d350c (v6.4): an ERMS CPU jumps to memset_erms */
  NS_MEMSET_FSRS,   /* from v6.4 on a CPU the kernel marks FSRS: __memset's own rep stosb */
  NS_MEMSET_ORIG    /* from v6.4 on any other CPU: a jump to memset_orig's store loops */
} NsMemsetPath;

/* The body a kernel of build runs on the CPU params describe (x86.fsrs, and on an AMD CPU,
 * as cpu_features says (NsCpuFeature bits), x86.fsrm from e046fe5a36a9). Every profiled
 * CPU has ERMS, which the v6.1-v6.3 alternative then picks. */
NsMemsetPath ns_memset_path (NsBuild *build, const NsParams *params, guint cpu_features);

/* __memset, the symbol C code's memset calls reach (pktgen's padding, SLUB's and
 * init_on_alloc's zeroing). */
extern NsFunc ns_fn___memset;

/* One memset(p, 0, n) entered through entry (__memset or its alias memset) and taking
 * path: its instructions, calls, return and REP string, and p's n bytes zeroed and their
 * stores charged where the body makes them; p NULL: an 8-byte-aligned area the model does
 * not charge (a stack buffer). */
void ns_memset (NsThread *t, NsFunc *entry, NsMemsetPath path, gpointer p, gsize n);

G_END_DECLS
