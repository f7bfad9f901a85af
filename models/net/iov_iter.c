/* iov_iter.c — lib/iov_iter.c's _copy_from_iter and _copy_to_iter for an ITER_UBUF
 * iterator: access_ok, the user copy (usercopy.c: v6.4+'s inline copy_user_generic on an
 * FSRM CPU; 6.1 called copy_user_enhanced_fast_string), the iterator's advance. Sizes: the
 * census (doc/census/seed000/send.md and recv.md). */
#include "config.h"
#include "iov_iter.h"

static NS_FUNC (fn__copy_from_iter, "_copy_from_iter", 1384, 14, NS_FN_EXTERN, 40);
static NS_FUNC (fn__copy_to_iter, "_copy_to_iter", 1601, 14, NS_FN_EXTERN, 40);

/* census: 59 instructions less 16 of prologue and return, less the call of
 * copy_user_enhanced_fast_string: 42, an estimate from the census for the 6.9 shape, whose
 * copy_user_generic is inline; the same for either direction */
#define COPY_ITER_BODY_INSNS 42

/* One ITER_UBUF copy through fn: its call, body, the user copy on path, the bytes from src
 * to dst, its return (both directions iterate the same way: iterate_and_advance). */
static void
copy_iter (NsThread *t, NsFunc *fn, NsCopyUserPath path, gpointer dst, gconstpointer src,
           gsize n)
{
  ns_call (t, fn);
  ns_insns (t, COPY_ITER_BODY_INSNS);
  ns_copy_user (t, path, n);
  ns_copy (t, dst, src, n);
  ns_ret (t);
}

/* _copy_from_iter; see iov_iter.h. */
void
ns_copy_from_iter (NsThread *t, NsCopyUserPath path, guchar *to, const guchar *ubuf,
                   gsize len)
{
  g_return_if_fail (t != NULL);
  copy_iter (t, &fn__copy_from_iter, path, to, ubuf, len);
}

/* _copy_to_iter; see iov_iter.h. */
void
ns_copy_to_iter (NsThread *t, NsCopyUserPath path, guchar *ubuf, gconstpointer from, gsize n)
{
  g_return_if_fail (t != NULL);
  copy_iter (t, &fn__copy_to_iter, path, ubuf, from, n);
}
