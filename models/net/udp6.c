/* udp6.c — the IPv6 UDP lookup (net/ipv6/udp.c) and the IPv6 halves of bind/connect.
 *
 * Same structure and generations as udp.c (udp.h). Differences from IPv4, kernel-spec §1.3
 * steps 16–19: only AF_INET6 sockets match, the bound address compare is 128-bit, each
 * component adds 1 (maximum 4) and udp6_lib_lookup2 starts badness at -1, so a score-0
 * socket is still a candidate. Instruction counts: the census of the Debian 6.1.176 binary
 * (doc/census/seed000/receive6.md), as body instructions (total less prologue, epilogue and
 * return). 6.1 inlines compute_score: per lookup 59 in __udp6_lib_lookup (P/E 17), 76 in
 * the out-of-line ipv6_portaddr_hash.isra.0 (P/E 2) and 39 + 25·N + 34 in udp6_lib_lookup2
 * (P/E 17): 20 of compute_score up to the dport reject and 5 for the list step per entry,
 * 36 more for the match (26 of compute_score, 10 for the result), 2 fewer for the last
 * entry's step. As in udp.c, the out-of-line compute_score of 6.9-rc1's baseline charges
 * the same body plus the call set-up (udp_score_call_setup, an estimate); the split of a
 * census range between model steps is an estimate, the sum the census'. Paths the census
 * did not take (reuseport, hash4, lookup1, the wildcard phase's other branches) keep
 * their estimates. */
#include "config.h"
#include <errno.h>
#include <string.h>
#include "jhash.h"
#include "udp-priv.h"

/* SIN6_LEN_RFC2133 (include/linux/ipv6.h): a sockaddr_in6 without sin6_scope_id, the
 * shortest address inet6_bind_sk and __ip6_datagram_connect accept. */
#define SIN6_LEN_RFC2133  24

/* compute_score (net/ipv6/udp.c): static, 255 B, out of line with 2 call sites in the 6.5
 * Ubuntu build (DepSurf, kernel-spec §1.8.1). Its kernel symbol is also "compute_score";
 * the registry needs a distinct name. */
NS_FUNC (udp6_fn_compute_score, "ipv6:compute_score", 255, NS_FRAME_UNKNOWN, NS_FN_STATIC, 2);
/* udp6_lib_lookup2: static, two callers. Estimate 375 B: the 6.1.176 binary's 548 B hold
 * compute_score inlined; scaled as IPv4's DepSurf 350 B is to that binary's 512 B. */
NS_FUNC (udp6_fn_udp6_lib_lookup2, "udp6_lib_lookup2", 375, 15, NS_FN_STATIC, 2);
/* __udp6_lib_lookup: exported; its size and those of ipv6_portaddr_hash, udp6_ehashfn and
 * inet6_lookup_reuseport: the Debian 6.1.176 binary's (nm -S;
 * doc/census/text-sizes-6.1.176.txt), where IPv4's twin keeps DepSurf's 6.8 size (udp.c).
 * The pre-6.6 and v6.13+/v6.14+ helpers after them: estimates (in neither binary). */
NS_FUNC (udp6_fn___udp6_lib_lookup, "__udp6_lib_lookup", 966, 15, NS_FN_EXTERN, 1);
/* ipv6_portaddr_hash (include/net/ipv6.h): static inline, two calls in __udp6_lib_lookup;
 * GCC emits it out of line (ipv6_portaddr_hash.isra.0, 293 B, no fentry) in the 6.1.176
 * binary, which the inlining rules reproduce (larger than the limit, two sites). */
static NS_FUNC (fn_ipv6_portaddr_hash, "ipv6_portaddr_hash", 293, 0, NS_FN_STATIC | NS_FN_INLINE,
                2);
/* udp6_ehashfn: INDIRECT_CALLABLE_SCOPE, direct call after INDIRECT_CALL_INET's compare. */
static NS_FUNC (fn_udp6_ehashfn, "udp6_ehashfn", 515, 13, NS_FN_EXTERN, 1);
/* inet6_lookup_reuseport (net/ipv6/inet6_hashtables.c, exported, v6.6+). */
static NS_FUNC (fn_inet6_lookup_reuseport, "inet6_lookup_reuseport", 118, 7, NS_FN_EXTERN, 1);
/* lookup_reuseport of net/ipv6/udp.c before v6.6 (static, one caller). */
static NS_FUNC (fn_lookup_reuseport6, "ipv6:lookup_reuseport", 144, NS_FRAME_UNKNOWN, NS_FN_STATIC, 1);
static NS_FUNC (fn_udp6_lib_lookup4, "udp6_lib_lookup4", 224, NS_FRAME_UNKNOWN, NS_FN_STATIC, 1);
static NS_FUNC (fn_udp6_lib_lookup1, "udp6_lib_lookup1", 176, NS_FRAME_UNKNOWN, NS_FN_STATIC, 1);

/* compute_score's instructions by step, inlined. census: 20 up to the dport reject (a
 * connected socket of another flow), 26 more for the match. Charged at the issue width,
 * the CMP/TEST + Jcc pairs fused, as the IPv4 compute_score's (ns_insns_compares):
 * compares of fields the chase just brought, beside it (models/net/udp.c); so is the
 * list step. */
#define SCORE_REJECT_KEYS_INSNS  9   /* netns, port hash, family: 3 compares + branches */
#define SCORE_REJECT_KEYS_PAIRS  2   /* cmp/jne netns and port; family is cmpw $imm, mem */
#define SCORE_ADDR6_INSNS        6   /* 128-bit compare: 2 loads, 2 xor, or, branch */
#define SCORE_PEER_INSNS         5   /* dport: load, test, branch, compare, branch */
#define SCORE_PEER_PAIRS         2
#define SCORE_PEER6_INSNS       11   /* score, the 128-bit any test and compare, add */
#define SCORE_DEV_INSNS          9   /* inet_bound_dev_eq with the l3mdev sysctl */
#define SCORE_DEV_PAIRS          3
#define SCORE_CPU_INSNS          6   /* gs-relative cpu_number load, compare, add */
/* udp6_lib_lookup2's own. census: 39 outside the entries less P/E 17, less the last
 * entry's shorter step (2); the list step per entry */
#define LOOKUP2_FIXED_INSNS     20
#define CHAIN_STEP_INSNS         5
/* census: __udp6_lib_lookup's body, 59 less P/E 17 = 42, of which the slot (SLOT_INSNS) */
#define DRIVER_INSNS            (42 - SLOT_INSNS)
#define SLOT_INSNS               3   /* & mask, scale, add */
/* census: ipv6_portaddr_hash.isra.0, 76 less P/E 2 for a 4-word address (jhash2); the
 * one-word forms (:: 33, v4-mapped 40, less 2) counted on the same code */
#define PORTADDR_HASH_4W_INSNS  74
#define PORTADDR_HASH_ANY_INSNS 31
#define PORTADDR_HASH_V4_INSNS  38

/* ---- hashes ---- */

/* jhash of the address (:: and v4-mapped as IPv4 words) ^ port (§1.2.4). */
guint32
ipv6_portaddr_hash (const struct net *net, const ns_in6_addr *addr6, guint port)
{
  guint32 hash, mix = net_hash_mix (net);

  if (ipv6_addr_any (addr6))
    hash = jhash_1word (0, mix);
  else if (ipv6_addr_v4mapped (addr6))
    hash = jhash_1word (addr6->u6_addr32[3], mix);
  else
    hash = jhash2 (addr6->u6_addr32, 4, mix);
  return hash ^ port;
}

/* __ipv6_addr_jhash (include/net/ipv6.h): jhash2 of the four words since d11b0df7ddf1
 * (v6.5-rc4 and its stables, "tcp: Reduce chance of collisions in inet6_hashfn()": the
 * table's ipv6_jhash2); before, the first two words xor-folded into jhash_3words. */
static guint32
__ipv6_addr_jhash (gboolean jhash2_words, const ns_in6_addr *a, guint32 initval)
{
  if (jhash2_words)
    return jhash2 (a->u6_addr32, 4, initval);
  return jhash_3words (a->u6_addr32[0] ^ a->u6_addr32[1], a->u6_addr32[2], a->u6_addr32[3],
                       initval);
}

/* __inet6_ehashfn(lhash, lport, fhash, fport, udp6_ehash_secret + mix). */
guint32
udp6_ehashfn (const struct udp_table *tbl, const struct net *net, const ns_in6_addr *laddr,
              guint16 lport, const ns_in6_addr *faddr, be16 fport)
{
  guint32 lhash = laddr->u6_addr32[3];
  guint32 fhash = __ipv6_addr_jhash (tbl->ipv6_jhash2, faddr, tbl->udp_ipv6_hash_secret);

  return jhash_3words (lhash, fhash, ((guint32) lport << 16) | fport,
                       tbl->udp6_ehash_secret + net_hash_mix (net));
}

/* ipv6_portaddr_hash as the lookup executes it: the mix load (the caller's), then the
 * out-of-line hash: a one-word jhash for :: and for a v4-mapped address (its IPv4 word),
 * a four-word one for any other address. */
static guint32
ipv6_portaddr_hash_charged (NsThread *t, struct net *net, const ns_in6_addr *addr6, guint port)
{
  guint32 hash;

  NS_LOAD_FIELD (t, net, hash_mix);
  ns_call (t, &fn_ipv6_portaddr_hash);
  ns_load (t, addr6, sizeof *addr6);
  ns_insns (t, ipv6_addr_any (addr6) ? PORTADDR_HASH_ANY_INSNS
               : ipv6_addr_v4mapped (addr6) ? PORTADDR_HASH_V4_INSNS : PORTADDR_HASH_4W_INSNS);
  hash = ipv6_portaddr_hash (net, addr6, port);
  ns_ret (t);
  return hash;
}

/* udp6_ehashfn as called (out of line) from the lookup. */
static guint32
udp6_ehashfn_charged (NsThread *t, struct udp_table *tbl, struct net *net,
                      const ns_in6_addr *laddr, guint16 lport, const ns_in6_addr *faddr,
                      be16 fport)
{
  guint32 hash;

  ns_call (t, &fn_udp6_ehashfn);
  ns_load (t, &tbl->udp6_ehash_secret, sizeof (guint32) * 2);
  NS_LOAD_FIELD (t, net, hash_mix);
  ns_insns (t, 2 * JHASH_NWORDS_INSNS + 10);
  hash = udp6_ehashfn (tbl, net, laddr, lport, faddr, fport);
  ns_ret (t);
  return hash;
}

/* ---- compute_score (IPv6) ---- */

/* compute_score (IPv6): score of AF_INET6 sk for saddr:sport → daddr:hnum on dif/sdif
 * (-1: not a candidate): 0, +1 each for peer port, peer address, device (by version), CPU. */
static gint
compute_score (NsThread *t, struct udp_table *tbl, struct sock *sk, struct net *net,
               const ns_in6_addr *saddr, be16 sport, const ns_in6_addr *daddr, guint16 hnum,
               gint dif, gint sdif)
{
  gint score = -1;
  gint bound_dev_if;

  udp_score_call_setup (t, tbl, &udp6_fn_compute_score);
  ns_call (t, &udp6_fn_compute_score);
  tbl->stats.scored++;
  NS_LOAD_FIELD_DEP (t, sk, sk_net);   /* the chase: waits for the pointer */
  NS_LOAD_FIELD (t, sk, __sk_common.skc_u16hashes[0]);
  NS_LOAD_FIELD (t, sk, sk_family);
  ns_insns_compares (t, SCORE_REJECT_KEYS_INSNS, SCORE_REJECT_KEYS_PAIRS);
  if (sock_net (sk) != net || udp_sk (sk)->udp_port_hash != hnum || sk->sk_family != AF_INET6)
    goto out;

  NS_LOAD_FIELD (t, sk, sk_v6_rcv_saddr);
  ns_insns_wide (t, SCORE_ADDR6_INSNS);
  if (!ipv6_addr_equal (&sk->sk_v6_rcv_saddr, daddr))
    goto out;

  score = 0;
  NS_LOAD_FIELD (t, sk, sk_dport);
  ns_insns_compares (t, SCORE_PEER_INSNS, SCORE_PEER_PAIRS);
  if (sk->sk_dport) {
    if (sk->sk_dport != sport)
      goto reject;
    score++;
  }
  NS_LOAD_FIELD (t, sk, sk_v6_daddr);
  ns_insns_wide (t, SCORE_PEER6_INSNS);
  if (!ipv6_addr_any (&sk->sk_v6_daddr)) {
    if (!ipv6_addr_equal (&sk->sk_v6_daddr, saddr))
      goto reject;
    score++;
  }

  NS_LOAD_FIELD (t, sk, sk_bound_dev_if);
  ns_insns_compares (t, SCORE_DEV_INSNS, SCORE_DEV_PAIRS);
  bound_dev_if = sk->sk_bound_dev_if;
  if (!udp_sk_bound_dev_eq (t, net, bound_dev_if, dif, sdif))
    goto reject;
  if (bound_dev_if || tbl->dev_bonus_always)
    score++;

  NS_LOAD_FIELD (t, sk, sk_incoming_cpu);
  ns_insns_wide (t, SCORE_CPU_INSNS);
  if (sk->sk_incoming_cpu == udp_current_cpu (t, tbl))
    score++;
  goto out;

reject:
  score = -1;
out:
  ns_ret (t);
  return score;
}

/* inet6_lookup_reuseport (v6.6+) / lookup_reuseport (before). */
static struct sock *
inet6_lookup_reuseport (NsThread *t, struct udp_table *tbl, struct net *net, struct sock *sk,
                        struct sk_buff *skb, const ns_in6_addr *saddr, be16 sport,
                        const ns_in6_addr *daddr, guint16 hnum)
{
  struct sock *reuse_sk = NULL;
  guint32 phash;

  ns_call (t, tbl->shared_reuseport_lookup ? &fn_inet6_lookup_reuseport
                                           : &fn_lookup_reuseport6);
  NS_LOAD_FIELD (t, sk, __sk_common.skc_bits);
  ns_insns (t, 3);
  if (sk->sk_reuseport) {
    ns_insns (t, 2);                      /* INDIRECT_CALL_INET compare */
    phash = udp6_ehashfn_charged (t, tbl, net, daddr, hnum, saddr, sport);
    reuse_sk = reuseport_select_sock (t, sk, phash, skb, 8, udp_current_cpu (t, tbl));
    if (reuse_sk != NULL)
      tbl->stats.reuseport_selects++;
  }
  ns_ret (t);
  return reuse_sk;
}

/* ---- udp6_lib_lookup2 ---- */

/* udp6_lib_lookup2: best socket on hslot2's chain (badness starts at -1, as a score can be 0);
 * a pure reuseport group answers at once. */
static struct sock *
udp6_lib_lookup2 (NsThread *t, struct udp_table *tbl, struct net *net, const ns_in6_addr *saddr,
                  be16 sport, const ns_in6_addr *daddr, guint16 hnum, gint dif, gint sdif,
                  struct udp_hslot *hslot2, struct sk_buff *skb)
{
  struct hlist_node *node;
  struct sock *sk, *result = NULL;
  gint score, badness = -1;
  gboolean need_rescore;

  ns_call (t, &udp6_fn_udp6_lib_lookup2);
  ns_insns (t, LOOKUP2_FIXED_INSNS);
  for (node = udp_chain_first (t, hslot2); node != NULL; node = udp_chain_next (t, node)) {
    sk = sk_from_portaddr_node (node);
    need_rescore = FALSE;
rescore:
    ns_insns_compares (t, CHAIN_STEP_INSNS, UDP_CHAIN_STEP_PAIRS);
    score = compute_score (t, tbl, need_rescore ? result : sk, net, saddr, sport, daddr,
                           hnum, dif, sdif);
    if (score <= badness)
      continue;
    if (need_rescore) {
      tbl->stats.rescore_raised++;
      badness = score;
      continue;
    }
    badness = score;
    ns_insns (t, UDP_LOOKUP2_RESULT_INSNS);
    if (udp_lookup2_sk_connected (t, tbl, sk)) {
      result = sk;
      continue;
    }
    result = inet6_lookup_reuseport (t, tbl, net, sk, skb, saddr, sport, daddr, hnum);
    if (result == NULL) {
      result = sk;
      continue;
    }
    if (tbl->gen == UDP_GEN_B0)           /* e32ea7e74727: any selection answers */
      goto done;
    if (!reuseport_has_conns (t, sk))
      goto done;
    switch (tbl->gen) {
    case UDP_GEN_B0:                      /* answered above */
      break;
    case UDP_GEN_B1:                      /* acdcecc61285: the selection is discarded */
      result = sk;
      break;
    case UDP_GEN_B:                       /* efc6b6f6c311: keep sk's score */
      break;
    case UDP_GEN_C:             /* f0ea27e7bfe1's IPv6 hunk re-scores sk, not result */
      tbl->stats.rescored++;
      score = compute_score (t, tbl, sk, net, saddr, sport, daddr, hnum, dif, sdif);
      if (score > badness)
        tbl->stats.rescore_raised++;
      badness = score;
      break;
    case UDP_GEN_D:
      tbl->stats.rescored++;
      need_rescore = TRUE;
      goto rescore;
    }
  }
done:
  ns_ret (t);
  return result;
}

/* ---- hash4 (v6.13+) and lookup1 (v6.14+, 6.13.2, 6.12.13) ---- */

/* inet6_match (include/net/inet6_hashtables.h): netns, ports, family, both addresses,
 * bound device by the TCP sysctl (inet_sk_bound_dev_eq), not UDP's. */
static gboolean
inet6_match (NsThread *t, struct net *net, const struct sock *sk, const ns_in6_addr *saddr,
             const ns_in6_addr *daddr, be16 sport, guint16 hnum, gint dif, gint sdif)
{
  NS_LOAD_FIELD_DEP (t, sk, sk_net);   /* the chase: waits for the pointer */
  NS_LOAD_FIELD (t, sk, __sk_common.skc_portpair);
  NS_LOAD_FIELD (t, sk, sk_family);
  ns_insns_wide (t, 6);                 /* compares beside the chase */
  if (sock_net (sk) != net || sk->sk_dport != sport || sk->sk_num != hnum ||
      sk->sk_family != AF_INET6)
    return FALSE;
  NS_LOAD_FIELD (t, sk, sk_v6_daddr);
  NS_LOAD_FIELD (t, sk, sk_v6_rcv_saddr);
  ns_insns_wide (t, 2 * SCORE_ADDR6_INSNS);
  if (!ipv6_addr_equal (&sk->sk_v6_daddr, saddr) || !ipv6_addr_equal (&sk->sk_v6_rcv_saddr, daddr))
    return FALSE;
  NS_LOAD_FIELD (t, sk, sk_bound_dev_if);
  return inet_sk_bound_dev_eq (t, net, sk->sk_bound_dev_if, dif, sdif);
}

/* udp6_lib_lookup4 (v6.13+): first exact 4-tuple match on the hash4 chain, or NULL. */
static struct sock *
udp6_lib_lookup4 (NsThread *t, struct udp_table *tbl, struct net *net, const ns_in6_addr *saddr,
                  be16 sport, const ns_in6_addr *daddr, guint16 hnum, gint dif, gint sdif)
{
  struct hlist_node *node;
  struct sock *found = NULL;
  guint32 hash4;

  ns_call (t, &fn_udp6_lib_lookup4);
  hash4 = udp6_ehashfn_charged (t, tbl, net, daddr, hnum, saddr, sport);
  NS_LOAD_FIELD (t, tbl, hash4);
  ns_insns (t, SLOT_INSNS);
  for (node = udp_chain_first (t, udp_hashslot4 (tbl, hash4)); node != NULL;
       node = udp_chain_next (t, node)) {
    struct sock *sk = sk_from_lrpa_node (node);

    ns_insns (t, 2);
    if (inet6_match (t, net, sk, saddr, daddr, sport, hnum, dif, sdif)) {
      found = sk;
      break;
    }
  }
  ns_ret (t);
  return found;
}

/* udp6_lib_lookup1 (v6.14+, 6.13.2, 6.12.13): best score on the primary (port) chain, no
 * reuseport selection. */
static struct sock *
udp6_lib_lookup1 (NsThread *t, struct udp_table *tbl, struct net *net, const ns_in6_addr *saddr,
                  be16 sport, const ns_in6_addr *daddr, guint16 hnum, gint dif, gint sdif)
{
  struct hlist_node *node;
  struct sock *result = NULL;
  gint score, badness = -1;

  ns_call (t, &fn_udp6_lib_lookup1);
  NS_LOAD_FIELD (t, net, hash_mix);
  NS_LOAD_FIELD (t, tbl, hash);
  ns_insns (t, SLOT_INSNS + 2);
  for (node = udp_chain_first (t, udp_hashslot (tbl, net, hnum)); node != NULL;
       node = udp_chain_next (t, node)) {
    struct sock *sk = sk_from_node (node);

    ns_insns_wide (t, CHAIN_STEP_INSNS);
    score = compute_score (t, tbl, sk, net, saddr, sport, daddr, hnum, dif, sdif);
    if (score > badness) {
      result = sk;
      badness = score;
    }
  }
  ns_ret (t);
  return result;
}

/* ---- __udp6_lib_lookup ---- */

/* __udp6_lib_lookup: hash4 (v6.13+), then the exact-address and wildcard hash2 chains,
 * then the port chain (v6.14+); the receiving socket or NULL. */
struct sock *
__udp6_lib_lookup (NsThread *t, struct net *net, const ns_in6_addr *saddr, be16 sport,
                   const ns_in6_addr *daddr, be16 dport, gint dif, gint sdif,
                   struct udp_table *tbl, struct sk_buff *skb)
{
  guint16 hnum = GUINT16_FROM_BE (dport);
  struct udp_hslot *hslot2;
  struct sock *result;
  guint32 hash2;

  g_return_val_if_fail (t != NULL && net != NULL && tbl != NULL, NULL);
  g_return_val_if_fail (saddr != NULL && daddr != NULL, NULL);

  ns_call (t, &udp6_fn___udp6_lib_lookup);
  tbl->stats.lookups++;
  ns_insns (t, DRIVER_INSNS);
  hash2 = ipv6_portaddr_hash_charged (t, net, daddr, hnum);
  hslot2 = udp_hashslot2_charged (t, tbl, hash2);

  if (tbl->has_hash4 && udp_has_hash4 (t, tbl, hslot2)) {
    result = udp6_lib_lookup4 (t, tbl, net, saddr, sport, daddr, hnum, dif, sdif);
    if (result != NULL) {
      tbl->stats.hash4_hits++;
      goto done;
    }
  }

  /* Lookup connected or non-wildcard sockets. */
  result = udp6_lib_lookup2 (t, tbl, net, saddr, sport, daddr, hnum, dif, sdif, hslot2, skb);
  if (result != NULL && result->sk_state == TCP_ESTABLISHED)
    goto done;
  if (result != NULL)
    goto done;

  /* Lookup wildcard sockets. */
  hash2 = ipv6_portaddr_hash_charged (t, net, &tbl->in6addr_any, hnum);
  hslot2 = udp_hashslot2_charged (t, tbl, hash2);
  result = udp6_lib_lookup2 (t, tbl, net, saddr, sport, &tbl->in6addr_any, hnum, dif, sdif,
                             hslot2, skb);
  if (result != NULL)
    goto done;

  if (tbl->has_lookup1)
    result = udp6_lib_lookup1 (t, tbl, net, saddr, sport, daddr, hnum, dif, sdif);

done:
  if (result == NULL)
    tbl->stats.misses++;
  ns_ret (t);
  return result;
}

/* ======================= control plane (not charged) ======================= */

/* Partial hash2 of sk's bound IPv6 address (port 0). */
guint32
udp6_portaddr_partial (const struct sock *sk)
{
  return ipv6_portaddr_hash (sock_net (sk), &sk->sk_v6_rcv_saddr, 0);
}

/* inet6_bind of an AF_INET6 socket, then udp_v6_get_port. */
gint
udp6_bind (struct sock *sk, const struct sockaddr *uaddr, gint addr_len)
{
  const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *) uaddr;
  ns_in6_addr addr;
  gboolean saved_ipv6only = sk->sk_ipv6only;
  be32 v4addr = 0;
  guint snum;
  gint err;

  if (addr_len < SIN6_LEN_RFC2133)
    return -EINVAL;
  if (sin6->sin6_family != AF_INET6)
    return -EAFNOSUPPORT;
  memcpy (&addr, &sin6->sin6_addr, sizeof (addr));
  if (ipv6_addr_v4mapped (&addr)) {
    if (sk->sk_ipv6only)
      return -EINVAL;
    v4addr = addr.u6_addr32[3];
  } else if (!ipv6_addr_any (&addr)) {
    v4addr = LOOPBACK4_IPV6;
  }
  sk->sk_rcv_saddr = v4addr;
  inet_sk (sk)->inet_saddr = v4addr;
  sk->sk_v6_rcv_saddr = addr;
  /* A specific IPv6 address makes the socket IPv6-only. */
  if (!ipv6_addr_any (&addr) && !ipv6_addr_v4mapped (&addr))
    sk->sk_ipv6only = 1;
  snum = GUINT16_FROM_BE (sin6->sin6_port);
  udp_sk (sk)->udp_portaddr_hash = udp6_portaddr_partial (sk);
  err = udp_lib_get_port (sk, snum);
  if (err != 0) {
    sk->sk_ipv6only = saved_ipv6only;
    sk->sk_rcv_saddr = 0;
    inet_sk (sk)->inet_saddr = 0;
    memset (&sk->sk_v6_rcv_saddr, 0, sizeof (sk->sk_v6_rcv_saddr));
    return err;
  }
  if (!ipv6_addr_any (&addr))
    sk->sk_userlocks |= SOCK_BINDADDR_LOCK;
  if (snum)
    sk->sk_userlocks |= SOCK_BINDPORT_LOCK;
  inet_sk (sk)->inet_sport = GUINT16_TO_BE (sk->sk_num);
  return 0;
}

/* udp_v6_rehash: moves sk to the hash2 slot of its current IPv6 local address and port. */
void
udp_v6_rehash (struct sock *sk)
{
  guint16 new_hash = ipv6_portaddr_hash (sock_net (sk), &sk->sk_v6_rcv_saddr, sk->sk_num);

  udp_lib_rehash (sk, new_hash);
}

/* udp6_hash4: v4-mapped sockets hash as IPv4. */
void
udp6_hash4 (struct sock *sk)
{
  struct udp_table *tbl = sk->sk_prot;

  if (ipv6_addr_v4mapped (&sk->sk_v6_rcv_saddr)) {
    udp4_hash4 (sk);
    return;
  }
  if (!tbl->has_hash4 || hlist_unhashed (&sk->sk_node) || ipv6_addr_any (&sk->sk_v6_rcv_saddr))
    return;
  udp_lib_hash4 (sk, udp6_ehashfn (tbl, sock_net (sk), &sk->sk_v6_rcv_saddr, sk->sk_num,
                                   &sk->sk_v6_daddr, sk->sk_dport));
}

/* Source address of the loopback route (or the caller's) for an IPv6 peer. */
static ns_in6_addr
route_src6 (const struct sockaddr *src)
{
  ns_in6_addr a = { { { 0 } } };

  if (src != NULL && src->sa_family == AF_INET6) {
    memcpy (&a, &((const struct sockaddr_in6 *) src)->sin6_addr, sizeof (a));
    return a;
  }
  a.u6_addr32[3] = GUINT32_TO_BE (1);   /* ::1 */
  return a;
}

/* Connects an IPv4 flow on a dual-stack socket (the ipv4_connected path). */
static gint
udp6_connect_mapped (struct sock *sk, be32 daddr, be16 dport, const struct sockaddr *src)
{
  be32 src4 = GUINT32_TO_BE (0x7f000001);
  gint err;

  if (sk->sk_ipv6only)
    return -ENETUNREACH;
  if (src != NULL && src->sa_family == AF_INET)
    src4 = ((const struct sockaddr_in *) src)->sin_addr.s_addr;
  err = __ip4_datagram_connect (sk, daddr, dport, src4);
  if (err != 0)
    return err;
  ipv6_addr_set_v4mapped (sk->sk_daddr, &sk->sk_v6_daddr);
  if (ipv6_addr_any (&sk->sk_v6_rcv_saddr) ||
      (ipv6_addr_v4mapped (&sk->sk_v6_rcv_saddr) && sk->sk_v6_rcv_saddr.u6_addr32[3] == 0)) {
    ipv6_addr_set_v4mapped (sk->sk_rcv_saddr, &sk->sk_v6_rcv_saddr);
    udp_v6_rehash (sk);
  }
  return 0;
}

/* ip6_datagram_connect (+ udp6 hash4 on success). */
gint
udp6_connect (struct sock *sk, const struct sockaddr *uaddr, gint addr_len,
              const struct sockaddr *src)
{
  ns_in6_addr daddr;
  gint err;

  if (uaddr->sa_family == AF_INET) {
    const struct sockaddr_in *sin = (const struct sockaddr_in *) uaddr;

    if (sk->sk_ipv6only)
      return -EAFNOSUPPORT;
    if (addr_len < (gint) sizeof (*sin))   /* __ip4_datagram_connect's */
      return -EINVAL;
    udp_unhash4 (sk);                     /* re-connect: rehash4 */
    err = udp6_connect_mapped (sk, sin->sin_addr.s_addr, sin->sin_port, src);
    goto hash4;
  }
  if (addr_len < SIN6_LEN_RFC2133)
    return -EINVAL;
  if (uaddr->sa_family != AF_INET6)
    return -EAFNOSUPPORT;
  udp_unhash4 (sk);
  memcpy (&daddr, &((const struct sockaddr_in6 *) uaddr)->sin6_addr, sizeof (daddr));
  if (ipv6_addr_any (&daddr)) {
    /* connect to self: ::ffff:127.0.0.1 for a v4-mapped local address, else ::1 */
    if (ipv6_addr_v4mapped (&sk->sk_v6_rcv_saddr))
      ipv6_addr_set_v4mapped (GUINT32_TO_BE (0x7f000001), &daddr);
    else
      daddr.u6_addr32[3] = GUINT32_TO_BE (1);
  }
  if (ipv6_addr_v4mapped (&daddr)) {
    err = udp6_connect_mapped (sk, daddr.u6_addr32[3],
                               ((const struct sockaddr_in6 *) uaddr)->sin6_port, src);
    goto hash4;
  }
  sk->sk_v6_daddr = daddr;
  sk->sk_dport = ((const struct sockaddr_in6 *) uaddr)->sin6_port;
  /* ip6_datagram_dst_update: take the route's source for a wildcard local address. */
  if (ipv6_addr_any (&sk->sk_v6_rcv_saddr)) {
    sk->sk_v6_rcv_saddr = route_src6 (src);
    sk->sk_rcv_saddr = LOOPBACK4_IPV6;
    udp_v6_rehash (sk);
  }
  reuseport_has_conns_set (sk);
  sk->sk_state = TCP_ESTABLISHED;
  err = 0;
hash4:
  if (err == 0)
    udp6_hash4 (sk);
  return err;
}
