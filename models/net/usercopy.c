/* usercopy.c — the x86-64 user copy copy_user_generic as the boot alternatives leave it:
 * before v6.4 a call of copy_user_enhanced_fast_string (every profiled CPU has ERMS), its
 * short-copy test patched out on FSRM from v5.17; from v6.4 (577e6a7fd50d) an inline
 * rep movsb on FSRM and a call of rep_movs_alternative elsewhere. Counts: the Debian
 * 6.1.176 and 6.12.118 binaries (doc/census/seed000/residue.md, "The user copies"). */
#include "usercopy.h"

/* v5.4-v6.3: STAC, the short test (an FSRM CPU's NOP from v5.17), rep movsb, CLAC. */
static NS_FUNC (fn_copy_user_enhanced_fast_string, "copy_user_enhanced_fast_string", 26, 0,
                NS_FN_EXTERN, 1000);
/* its jb target under 64 bytes: 8-byte and byte loops, CLAC, the return */
static NS_FUNC (fn_copy_user_short_string, "copy_user_short_string", 67, 0,
                NS_FN_STATIC | NS_FN_NOINLINE, 1);
/* v6.4+ without FSRM: byte and 8-byte loops under 64 bytes, rep movsb (ERMS) above */
static NS_FUNC (fn_rep_movs_alternative, "rep_movs_alternative", 137, 1,
                NS_FN_EXTERN | NS_FN_ENDBR, 1000);

/* The copy a kernel of build runs on params' CPU; see usercopy.h. */
NsCopyUserPath
ns_copy_user_path (NsBuild *build, const NsParams *params)
{
  gboolean fsrm;

  g_return_val_if_fail (build != NULL && params != NULL, NS_COPY_USER_INLINE);

  fsrm = ns_params_get_bool (params, "x86.fsrm");
  if (!ns_build_has_change (build, NS_KCHANGE_X86_COPY_USER_INLINE)) {
    if (fsrm && ns_build_has_change (build, NS_KCHANGE_X86_COPY_USER_FSRM_TEST))
      return NS_COPY_USER_EFS;
    return NS_COPY_USER_EFS_SHORT;
  }
  if (fsrm)
    return NS_COPY_USER_INLINE;
  if (!ns_build_has_change (build, NS_KCHANGE_X86_COPY_USER_ERMS))
    return NS_COPY_USER_UNROLLED;
  return NS_COPY_USER_ALTERNATIVE;
}

/* Instructions of an 8-byte loop over n bytes (n >= 8), then a byte loop over the rest,
 * as rep_movs_alternative runs them (6.12.118): mov, mov, add, add, sub, je a word, and
 * cmp, jae while 8 or more remain, else a jmp to the byte loop; 6 a byte. */
static guint
rep_movs_alternative_words (gsize n)
{
  gsize words = n / 8, tail = n % 8;
  guint insns = 8 * (guint) words - 2;

  if (tail != 0)
    insns += 2 + 1 + 6 * (guint) tail;
  return insns;
}

/* rep_movs_alternative's body for n bytes, less its entry and return (6.12.118; the
 * ERMS alternative for 64 bytes and more, its unrolled loop on 6.4-rc1 to rc3). */
static void
rep_movs_alternative_body (NsThread *t, gsize n, gboolean unrolled)
{
  ns_insns (t, 2);                      /* cmp $64, jae .Llarge */
  if (n >= 64 && !unrolled) {
    ns_rep_string (t, n);               /* .Llarge: rep movsb */
    return;
  }
  if (n >= 64) {
    /* 427fda2c8a49's .Lunrolled (as 47ee3f1dd93b's diff removes it): 16 moves, add, add,
     * sub, cmp, jae a round, independent of each other but for the pointers, at the
     * issue width (the bytes themselves are the caller's ns_copy); then cmp, jae to
     * .Lword (no 6.4-rc1 binary read: the count is the code's) */
    ns_insns_wide (t, 21 * (guint) (n / 64));
    ns_insns (t, 2);
    n %= 64;
    if (n >= 8)
      ns_insns (t, rep_movs_alternative_words (n));
    else
      ns_insns (t, 2 + 6 * (guint) n);  /* test, jne; the byte loop */
    return;
  }
  ns_insns (t, 2);                      /* cmp $8, jae .Lword */
  if (n >= 8)
    ns_insns (t, rep_movs_alternative_words (n));
  else
    ns_insns (t, 2 + 6 * (guint) n);    /* test, je; the byte loop */
}

/* copy_user_short_string's body for n < 64 bytes, less its return (6.1.176): the count
 * split (4), 6 a quadword, the tail test (2), 1 + 6 a byte of the tail, xor, CLAC. */
static void
copy_user_short_string (NsThread *t, gsize n)
{
  guint tail = (guint) (n % 8);

  ns_insns (t, 4 + 6 * (guint) (n / 8) + 2 + (tail ? 1 + 6 * tail : 0) + 2);
}

/* copy_user_enhanced_fast_string's body for n bytes (6.1.176): STAC, the short test
 * (cmp, jb; one NOP where FSRM patched it out), mov, rep movsb, xor, CLAC. */
static void
copy_user_enhanced_fast_string (NsThread *t, gsize n, gboolean short_test)
{
  ns_call (t, &fn_copy_user_enhanced_fast_string);
  if (short_test && n < 64) {
    ns_insns (t, 2);                    /* STAC, cmp; the jb is the jump in */
    ns_tail_call (t, &fn_copy_user_short_string);
    copy_user_short_string (t, n);
    ns_ret (t);
  } else {
    ns_insns (t, short_test ? 4 : 3);   /* STAC, cmp, jb or their NOP, mov */
    ns_rep_string (t, n);
    ns_insns (t, 2);                    /* xor, CLAC */
  }
  ns_ret (t);
}

/* One copy_user_generic of n bytes; see usercopy.h. */
void
ns_copy_user (NsThread *t, NsCopyUserPath path, gsize n)
{
  g_return_if_fail (t != NULL);

  switch (path) {
  case NS_COPY_USER_INLINE:
    /* 6.12.118's _copy_from_user: STAC, the count into rcx, rep movsb, the NOP pad of
     * the call it replaced, CLAC */
    ns_insns (t, 2);
    ns_rep_string (t, n);
    ns_insns (t, 2);
    return;
  case NS_COPY_USER_ALTERNATIVE:
  case NS_COPY_USER_UNROLLED:
    ns_insns (t, 1);                    /* STAC */
    ns_call (t, &fn_rep_movs_alternative);
    rep_movs_alternative_body (t, n, path == NS_COPY_USER_UNROLLED);
    ns_ret (t);
    ns_insns (t, 1);                    /* CLAC */
    return;
  case NS_COPY_USER_EFS:
    copy_user_enhanced_fast_string (t, n, FALSE);
    return;
  case NS_COPY_USER_EFS_SHORT:
  default:
    copy_user_enhanced_fast_string (t, n, TRUE);
    return;
  }
}
