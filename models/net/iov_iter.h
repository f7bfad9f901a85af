/* iov_iter.h — the user-memory copies of lib/iov_iter.c that the loopback path runs on an
 * ITER_UBUF iterator (one user buffer, as sendto and recvfrom build): _copy_from_iter on
 * the send side (ip_generic_getfrag) and _copy_to_iter on the receive side
 * (simple_copy_to_iter). */
#pragma once
#include "machine.h"
#include "usercopy.h"

G_BEGIN_DECLS

/* _copy_from_iter of len bytes from the user buffer ubuf to to: its call, access_ok and
 * the iterator's advance, the user copy taking path, the bytes' loads and stores, its
 * return. */
void ns_copy_from_iter (NsThread *t, NsCopyUserPath path, guchar *to, const guchar *ubuf,
                        gsize len);

/* _copy_to_iter of n bytes from from to the user buffer ubuf, as ns_copy_from_iter. */
void ns_copy_to_iter (NsThread *t, NsCopyUserPath path, guchar *ubuf, gconstpointer from,
                      gsize n);

G_END_DECLS
