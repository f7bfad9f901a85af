/* reuseport.c — SO_REUSEPORT groups (net/core/sock_reuseport.c; v6.2+ semantics, and the
 * older select_by_hash for the builds before 5.4 and before 6.2).
 *
 * A group (struct sock_reuseport) lists its member sockets in socks[]; a lookup that meets a
 * member hashes the flow and picks one member (reuseport_select_sock → select_by_hash).
 * Kernel-spec §1.6. BPF selection programs are not modelled (prog is always NULL), so a
 * selection is always by hash and never an error pointer. */
#include "config.h"
#include <errno.h>
#include <string.h>
#include "udp.h"
#include "udp-priv.h"

/* Initial socks[] capacity (sock_reuseport.c INIT_SOCKS). */
#define INIT_SOCKS 128

/* struct sock_reuseport, v6.2+ x86-64: rcu head, counters, flags, prog, socks[] (before
 * 6.2 incoming_cpu's two bytes are padding). */
struct sock_reuseport {
  gpointer      rcu[2];            /*  0: struct rcu_head */
  guint16       max_socks;         /* 16 */
  guint16       num_socks;         /* 18 */
  guint16       num_closed_socks;  /* 20 */
  guint16       incoming_cpu;      /* 22: members with SO_INCOMING_CPU set (6.2+) */
  guint32       synq_overflow_ts;  /* 24 */
  guint32       reuseport_id;      /* 28 */
  union {                          /* 32 */
    guint32     flags_word;
    struct {
      guint32   bind_inany : 1;
      guint32   has_conns  : 1;
    };
  };
  gpointer      prog;              /* 40: struct bpf_prog * */
  struct sock  *socks[];           /* 48 */
};

G_STATIC_ASSERT (offsetof (struct sock_reuseport, num_socks) == 18);
G_STATIC_ASSERT (offsetof (struct sock_reuseport, incoming_cpu) == 22);
G_STATIC_ASSERT (offsetof (struct sock_reuseport, prog) == 40);
G_STATIC_ASSERT (offsetof (struct sock_reuseport, socks) == 48);

/* Text sizes: the Debian 6.1.176 binary's (nm -S; doc/census/text-sizes-6.1.176.txt).
 * reuseport_select_sock: extern (EXPORT_SYMBOL); its text carries the BPF program paths. */
NS_FUNC (reuseport_fn_reuseport_select_sock, "reuseport_select_sock", 675, 15, NS_FN_EXTERN, 1);
/* reuseport_select_sock_by_hash: static, two callers since v5.14's socket-migration series
 * (reuseport_select_sock and reuseport_migrate_sock), 108 B over the inline limit: out of
 * line, as the 6.1.176 and 6.12.111 binaries have it. */
static NS_FUNC (fn_select_by_hash, "reuseport_select_sock_by_hash", 108, 1, NS_FN_STATIC, 2);

/* Size of a group with room for max_socks members: the header plus socks[]. */
static gsize
reuseport_bytes (guint max_socks)
{
  return sizeof (struct sock_reuseport) + max_socks * sizeof (struct sock *);
}

/* A zeroed group with room for max_socks members, from the table's arena. */
static struct sock_reuseport *
__reuseport_alloc (struct udp_table *tbl, guint max_socks)
{
  struct sock_reuseport *reuse;

  reuse = ns_arena_alloc (tbl->arena, reuseport_bytes (max_socks), 64);
  reuse->max_socks = max_socks;
  reuse->reuseport_id = ++tbl->next_group_id;
  return reuse;
}

/* Returns the group's memory to the table's arena (the kernel's kfree of the group). */
static void
__reuseport_free (struct udp_table *tbl, struct sock_reuseport *reuse)
{
  ns_arena_release (tbl->arena, reuse, reuseport_bytes (reuse->max_socks));
}

/* Counts sk in the group's incoming_cpu counter if it has SO_INCOMING_CPU set (6.2+). */
static void
reuseport_get_incoming_cpu (struct sock *sk, struct sock_reuseport *reuse)
{
  if (sk->sk_incoming_cpu >= 0)
    reuse->incoming_cpu++;
}

/* Takes sk out of the group's incoming_cpu counter if it has SO_INCOMING_CPU set. */
static void
reuseport_put_incoming_cpu (struct sock *sk, struct sock_reuseport *reuse)
{
  if (sk->sk_incoming_cpu >= 0)
    reuse->incoming_cpu--;
}

/* Appends sk to socks[]. */
static void
__reuseport_add_sock (struct sock *sk, struct sock_reuseport *reuse)
{
  reuse->socks[reuse->num_socks] = sk;
  reuse->num_socks++;
  reuseport_get_incoming_cpu (sk, reuse);
}

/* Removes sk from socks[]: the last member moves into its place. (The kernel's returns
 * whether sk was there, which only TCP's listener paths read; none is modelled.) */
static void
__reuseport_detach_sock (struct sock *sk, struct sock_reuseport *reuse)
{
  for (guint i = 0; i < reuse->num_socks; i++) {
    if (reuse->socks[i] != sk)
      continue;
    reuse->socks[i] = reuse->socks[reuse->num_socks - 1];
    reuse->num_socks--;
    reuseport_put_incoming_cpu (sk, reuse);
    return;
  }
}

/* A group twice as large with the same members (reuseport_grow); the old one is freed. */
static struct sock_reuseport *
reuseport_grow (struct udp_table *tbl, struct sock_reuseport *reuse)
{
  struct sock_reuseport *more;
  guint more_socks = MIN ((guint) reuse->max_socks * 2, (guint) G_MAXUINT16);

  if (more_socks == reuse->max_socks)
    return NULL;
  more = __reuseport_alloc (tbl, more_socks);
  more->num_socks = reuse->num_socks;
  more->num_closed_socks = reuse->num_closed_socks;
  more->incoming_cpu = reuse->incoming_cpu;
  more->reuseport_id = reuse->reuseport_id;
  more->bind_inany = reuse->bind_inany;
  more->has_conns = reuse->has_conns;
  memcpy (more->socks, reuse->socks, reuse->num_socks * sizeof (struct sock *));
  for (guint i = 0; i < more->num_socks; i++)
    more->socks[i]->sk_reuseport_cb = more;
  __reuseport_free (tbl, reuse);
  return more;
}

/* Makes sk the first member of a new group (reuseport_alloc). */
gint
reuseport_alloc (struct sock *sk, gboolean bind_inany)
{
  struct udp_table *tbl = sk->sk_prot;
  struct sock_reuseport *reuse = sk->sk_reuseport_cb;

  if (reuse != NULL) {
    if (bind_inany)
      reuse->bind_inany = 1;
    return 0;
  }
  reuse = __reuseport_alloc (tbl, INIT_SOCKS);
  reuse->socks[0] = sk;
  reuse->num_socks = 1;
  reuse->bind_inany = bind_inany;
  reuseport_get_incoming_cpu (sk, reuse);
  sk->sk_reuseport_cb = reuse;
  return 0;
}

/* Adds sk to the group of sk2, giving sk2 a group first if it has none. */
gint
reuseport_add_sock (struct sock *sk, struct sock *sk2, gboolean bind_inany)
{
  struct udp_table *tbl = sk->sk_prot;
  struct sock_reuseport *reuse;

  if (sk2->sk_reuseport_cb == NULL)
    reuseport_alloc (sk2, bind_inany);
  reuse = sk2->sk_reuseport_cb;
  if (reuse->num_socks + reuse->num_closed_socks == reuse->max_socks) {
    reuse = reuseport_grow (tbl, reuse);
    if (reuse == NULL)
      return -ENOMEM;
  }
  __reuseport_add_sock (sk, reuse);
  sk->sk_reuseport_cb = reuse;
  return 0;
}

/* Removes sk from its group (reuseport_detach_sock); frees an emptied group. */
void
reuseport_detach_sock (struct sock *sk)
{
  struct udp_table *tbl = sk->sk_prot;
  struct sock_reuseport *reuse = sk->sk_reuseport_cb;

  if (reuse == NULL)
    return;
  __reuseport_detach_sock (sk, reuse);
  sk->sk_reuseport_cb = NULL;
  if (reuse->num_socks + reuse->num_closed_socks == 0)
    __reuseport_free (tbl, reuse);
}

/* SO_INCOMING_CPU on a member: keeps the group's incoming_cpu counter (6.2+). */
void
reuseport_update_incoming_cpu (struct sock *sk, gint val)
{
  struct sock_reuseport *reuse = sk->sk_reuseport_cb;
  gint old = sk->sk_incoming_cpu;

  sk->sk_incoming_cpu = val;
  if (reuse == NULL)
    return;
  if (old < 0 && val >= 0)
    reuse->incoming_cpu++;
  else if (old >= 0 && val < 0)
    reuse->incoming_cpu--;
}

/* Marks sk's group as having a connected member (reuseport_has_conns_set). */
void
reuseport_has_conns_set (struct sock *sk)
{
  struct sock_reuseport *reuse = sk->sk_reuseport_cb;

  if (reuse != NULL)
    reuse->has_conns = 1;
}

/* reuseport_has_conns (include/net/sock_reuseport.h, inline): one load of the group flag. */
gboolean
reuseport_has_conns (NsThread *t, struct sock *sk)
{
  struct sock_reuseport *reuse;

  NS_LOAD_FIELD (t, sk, sk_reuseport_cb);
  reuse = sk->sk_reuseport_cb;
  if (reuse == NULL)
    return FALSE;
  ns_load_dep (t, &reuse->flags_word, sizeof (reuse->flags_word));
  ns_insns (t, 3);
  return reuse->has_conns;
}

/* (u32)(((u64) val * ep_ro) >> 32). */
static guint32
reciprocal_scale (guint32 val, guint32 ep_ro)
{
  return (guint32) (((guint64) val * ep_ro) >> 32);
}

/* select_by_hash: from 5.4 (acdcecc61285, "udp: correct reuseport selection with connected
 * sockets") walk circularly from reciprocal_scale(hash, n) past connected members, NULL if
 * all are; from 6.2 (b261eda84ec1, "soreuseport: Fix socket selection for
 * SO_INCOMING_CPU.") prefer one whose SO_INCOMING_CPU is this CPU while any member set it.
 * Before 5.4: socks[reciprocal_scale(hash, n)], connected or not. */
static struct sock *
reuseport_select_sock_by_hash (NsThread *t, const struct udp_table *tbl,
                               struct sock_reuseport *reuse, guint32 hash, guint16 num_socks,
                               gint cpu)
{
  struct sock *first_valid_sk = NULL;
  struct sock *found = NULL;
  guint i, j;

  ns_call (t, &fn_select_by_hash);
  ns_insns (t, 6);                         /* reciprocal_scale: mul, shift; loop setup */
  i = j = reciprocal_scale (hash, num_socks);
  if (!tbl->select_skips_established) {
    ns_load (t, &reuse->socks[i], sizeof (struct sock *));
    found = reuse->socks[i];
    goto out;
  }
  do {
    struct sock *sk;

    ns_load_dep (t, &reuse->socks[i], sizeof (struct sock *));
    sk = reuse->socks[i];
    NS_LOAD_FIELD (t, sk, sk_state);
    ns_insns (t, 4);
    if (sk->sk_state != TCP_ESTABLISHED) {
      if (!tbl->select_prefers_cpu) {       /* 5.4 … 6.1: the first unconnected member */
        found = sk;
        goto out;
      }
      ns_load (t, &reuse->incoming_cpu, sizeof (reuse->incoming_cpu));
      if (reuse->incoming_cpu == 0) {
        found = sk;
        goto out;
      }
      NS_LOAD_FIELD (t, sk, sk_incoming_cpu);
      ns_insns (t, 3);
      if (sk->sk_incoming_cpu == cpu) {
        found = sk;
        goto out;
      }
      if (first_valid_sk == NULL)
        first_valid_sk = sk;
    }
    if (++i >= num_socks)
      i = 0;
  } while (i != j);
  found = first_valid_sk;
out:
  ns_ret (t);
  return found;
}

/* The member of sk's group that receives a flow with this hash, or NULL (sk has no group or
 * every member is connected). skb and hdr_len feed BPF programs, which are not modelled. */
struct sock *
reuseport_select_sock (NsThread *t, struct sock *sk, guint32 hash, struct sk_buff *skb,
                       gint hdr_len, gint cpu)
{
  const struct udp_table *tbl = sk->sk_prot;
  struct sock_reuseport *reuse;
  struct sock *sk2 = NULL;
  guint16 socks;

  (void) skb;
  (void) hdr_len;
  ns_call (t, &reuseport_fn_reuseport_select_sock);
  ns_insns (t, 8);                         /* rcu_read_lock, pointer checks */
  NS_LOAD_FIELD (t, sk, sk_reuseport_cb);
  reuse = sk->sk_reuseport_cb;
  if (reuse == NULL)
    goto out;
  ns_load_dep (t, &reuse->prog, sizeof (reuse->prog));
  ns_load (t, &reuse->num_socks, sizeof (reuse->num_socks));
  socks = reuse->num_socks;
  if (socks != 0)
    sk2 = reuseport_select_sock_by_hash (t, tbl, reuse, hash, socks, cpu);
out:
  ns_ret (t);
  return sk2;
}

/* ---- queries ---- */

/* The group sk is in, or NULL. */
struct sock_reuseport *
udp_sock_reuseport_group (const struct sock *sk)
{
  g_return_val_if_fail (sk != NULL, NULL);
  return sk->sk_reuseport_cb;
}

/* Number of members. */
guint
reuseport_group_size (const struct sock_reuseport *reuse)
{
  g_return_val_if_fail (reuse != NULL, 0);
  return reuse->num_socks;
}

/* TRUE once a member connect()ed while in the group. */
gboolean
reuseport_group_has_conns (const struct sock_reuseport *reuse)
{
  g_return_val_if_fail (reuse != NULL, FALSE);
  return reuse->has_conns;
}

/* Members with SO_INCOMING_CPU set (the 6.2+ counter). */
guint
reuseport_group_incoming_cpu (const struct sock_reuseport *reuse)
{
  g_return_val_if_fail (reuse != NULL, 0);
  return reuse->incoming_cpu;
}

/* socks[i], or NULL past the end. */
struct sock *
reuseport_group_member (const struct sock_reuseport *reuse, guint i)
{
  g_return_val_if_fail (reuse != NULL, NULL);
  return i < reuse->num_socks ? reuse->socks[i] : NULL;
}
