/* usercopy.h — the kernel's x86-64 user copy, copy_user_generic
 * (arch/x86/include/asm/uaccess_64.h, arch/x86/lib/copy_user_64.S): which routine the boot
 * alternatives leave a build on a CPU, and what one copy executes. */
#pragma once
#include "build.h"
#include "machine.h"
#include "param.h"

G_BEGIN_DECLS

/* The copy copy_user_generic runs, as its alternatives are patched at boot (every
 * profiled CPU has ERMS, which before v6.4 picks copy_user_enhanced_fast_string). */
typedef enum {
  NS_COPY_USER_EFS_SHORT,     /* before v6.4, no FSRM or before v5.17: a call of
                               * copy_user_enhanced_fast_string, copy_user_short_string's
                               * loops under 64 bytes */
  NS_COPY_USER_EFS,           /* v5.17-v6.3 on an FSRM CPU: the same call, its short test
                               * patched out (244122b4d2e5) */
  NS_COPY_USER_INLINE,        /* from v6.4 on an FSRM CPU: rep movsb inline
                               * (577e6a7fd50d) */
  NS_COPY_USER_ALTERNATIVE,   /* from v6.4-rc4 without FSRM: a call of rep_movs_alternative,
                               * rep movsb from 64 bytes (47ee3f1dd93b) */
  NS_COPY_USER_UNROLLED       /* v6.4-rc1 to rc3 without FSRM: rep_movs_alternative with its
                               * unrolled loop from 64 bytes */
} NsCopyUserPath;

/* The copy a kernel of build runs on the CPU params describe (x86.fsrm). */
NsCopyUserPath ns_copy_user_path (NsBuild *build, const NsParams *params);

/* One copy_user_generic of n bytes taking path, from its STAC to its CLAC: the inline
 * instructions, the routine's call, instructions and return, and its REP string; the
 * bytes' loads and stores stay the caller's (ns_copy). */
void ns_copy_user (NsThread *t, NsCopyUserPath path, gsize n);

G_END_DECLS
