/* memset.c — the x86-64 memset of arch/x86/lib/memset_64.S as the boot alternatives leave
 * it: v6.1-v6.3 jump to memset_erms on an ERMS CPU; from 20f3337d350c (v6.4-rc1)
 * __memset runs its own rep stosb on a CPU the kernel marks FSRS (one that enumerates
 * it, or from e046fe5a36a9 an AMD CPU with FSRM) and jumps to memset_orig elsewhere.
 * Counts: doc/census (pktgen.md, seed000/syscall.md, seed000/residue.md). */
#include "memset.h"

#include <string.h>

NS_FUNC (ns_fn___memset, "__memset", 51, 0, NS_FN_EXTERN, 200);
/* memset_erms: a rep stosb, entered by __memset's patched jmp (v6.1-v6.3). */
static NS_FUNC (fn_memset_erms, "memset_erms", 19, 0, NS_FN_STATIC | NS_FN_NOINLINE, 1);
/* memset_orig: the store loops (8 bytes a store, 64 a round, a byte loop for the tail). */
static NS_FUNC (fn_memset_orig, "memset_orig", 176, 0, NS_FN_STATIC | NS_FN_NOINLINE, 1);

/* TRUE if a kernel of build marks params' CPU X86_FEATURE_FSRS: its CPUID enumerates it,
 * or (init_amd, e046fe5a36a9) it is an AMD CPU with FSRM. */
static gboolean
cpu_marked_fsrs (NsBuild *build, const NsParams *params, guint cpu_features)
{
  if (ns_params_get_bool (params, "x86.fsrs"))
    return TRUE;
  return (cpu_features & NS_CPU_AMD) && ns_params_get_bool (params, "x86.fsrm") &&
         ns_build_has_change (build, NS_KCHANGE_X86_AMD_FSRS);
}

/* The body a kernel of build runs on params' CPU; see memset.h. */
NsMemsetPath
ns_memset_path (NsBuild *build, const NsParams *params, guint cpu_features)
{
  g_return_val_if_fail (build != NULL && params != NULL, NS_MEMSET_ERMS);

  if (!ns_build_has_change (build, NS_KCHANGE_X86_REP_INSNS))
    return NS_MEMSET_ERMS;
  return cpu_marked_fsrs (build, params, cpu_features) ? NS_MEMSET_FSRS : NS_MEMSET_ORIG;
}

/* memset_orig's instructions for n bytes misalign bytes past an 8-byte boundary, less its
 * return. census (residue.md) for an aligned multiple of 8: 10 to the size tests (the
 * byte pattern, the alignment test, n / 64), 2 + 11 per 64-byte round, 3 to the 8-byte
 * loop, 2 + 4 per 8-byte store, 2 for the tail test, 1 (the result). Estimates from the
 * code's shape, not counted in a census: an unaligned start tests n <= 7 (2), and beyond
 * 7 bytes stores 8 unaligned and moves to the boundary (6); each tail byte 4. */
static guint
memset_orig_insns (guint misalign, gsize n)
{
  guint insns = 7;                      /* the pattern, the alignment test */
  gsize rounds, longs;

  if (misalign != 0) {
    insns += 2;
    if (n <= 7)
      return insns + 2 + 4 * (guint) n + 1;
    insns += 6;
    n -= 8 - misalign;
  }
  rounds = n / 64;
  longs = (n & 0x38) / 8;
  insns += 3 + (rounds ? 2 + 11 * (guint) rounds : 0);
  insns += 3 + (longs ? 2 + 4 * (guint) longs : 0);
  insns += 2 + 4 * (guint) (n & 7);
  return insns + 1;
}

/* p's n bytes zeroed, their stores charged (nothing for NULL: a stack buffer). */
static void
memset_stores (NsThread *t, gpointer p, gsize n)
{
  if (p == NULL)
    return;
  memset (p, 0, n);
  ns_store (t, p, n);
}

/* One memset through entry on path; see memset.h. */
void
ns_memset (NsThread *t, NsFunc *entry, NsMemsetPath path, gpointer p, gsize n)
{
  g_return_if_fail (t != NULL && entry != NULL);

  ns_call (t, entry);
  switch (path) {
  case NS_MEMSET_FSRS:
    /* census (6.12.118's memset): the patched-out jmp (a NOP), three argument moves, the
     * rep stosb, the result */
    memset_stores (t, p, n);
    ns_insns (t, 5);
    ns_rep_string (t, n);
    ns_ret (t);
    return;
  case NS_MEMSET_ERMS:
    ns_insns (t, 1);                    /* census: the jmp */
    ns_tail_call (t, &fn_memset_erms);
    memset_stores (t, p, n);
    ns_insns (t, 4);                    /* census: 7 less P/E 2, the rep stosb apart */
    ns_rep_string (t, n);
    break;
  case NS_MEMSET_ORIG:
  default:
    ns_insns (t, 1);                    /* census: the jmp */
    ns_tail_call (t, &fn_memset_orig);
    memset_stores (t, p, n);
    ns_insns (t, memset_orig_insns ((guint) ((guintptr) p & 7), n));
    break;
  }
  ns_ret (t);
  ns_ret (t);
}
