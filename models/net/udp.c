/* udp.c — the UDP table, socket hashing and the IPv4 lookup (net/ipv4/udp.c).
 *
 * Kernel-spec §1. Function names and branch order follow net/ipv4/udp.c of the modelled
 * version; the generation of udp4_lib_lookup2 (B0 … D, see udp.h) is fixed when the table
 * is created from its kernel build. The lookup functions charge the CPU model where the
 * kernel does the work: ns_call/ns_ret around every function (the build decides which are
 * inlined), ns_load on each socket field read, ns_load_dep for the chain walk, ns_insns for
 * the compares.
 *
 * Instruction counts: the census of the Debian 6.1.176 binary along seed 000's path
 * (doc/census/seed000/receive.md, section D), as body instructions (each function's total
 * less its prologue, epilogue and return, which the machine charges per call). 6.1 inlines
 * compute_score: per lookup 87 in __udp4_lib_lookup (P/E 17) and 62 + 31·N in
 * udp4_lib_lookup2 (P/E 17), where N is the chain length, 31 per chain entry (25 of
 * compute_score up to the dport reject, 6 for the list step) and 26 more for the matching
 * entry. So the inlined form (generation D, or B) charges exactly that; the out-of-line
 * form (generation C, the 6.9-rc1 baseline) charges the same body plus what the machine
 * charges for the call and its argument set-up (udp_score_call_setup, an estimate). Where
 * a count is split between the branches of one census range the split is an estimate; the
 * sum is the census'. Paths the census did not take (reuseport, hash4, lookup1, the
 * wildcard phase) keep their estimates. */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "jhash.h"
#include "kchange.h"
#include "udp-priv.h"

/* ---- the simulated functions ---- */

/* compute_score (IPv4): static; 216 B of text as a stand-alone symbol in the Ubuntu 6.5 and
 * 6.8 builds (DepSurf, kernel-spec §1.8.1; the Krisman patch says "~300 bytes",
 * config-dependent — DepSurf is the measured one). 2 call sites in 6.6 … 6.9 (f0ea27e7bfe1);
 * udp_table_new() records 1 for builds whose code has a single site. */
NS_FUNC (udp_fn_compute_score, "compute_score", 216, NS_FRAME_UNKNOWN, NS_FN_STATIC, 2);
/* udp4_lib_lookup2: static, 350 B (DepSurf 6.8), called for phase 1 and phase 2. */
NS_FUNC (udp_fn_udp4_lib_lookup2, "udp4_lib_lookup2", 350, 15, NS_FN_STATIC, 2);
/* __udp4_lib_lookup: exported, 466 B (DepSurf 6.8). */
NS_FUNC (udp_fn___udp4_lib_lookup, "__udp4_lib_lookup", 466, 15, NS_FN_EXTERN, 1);
/* udp_ehashfn: INDIRECT_CALLABLE_SCOPE (global under retpoline), reached by a direct call
 * after INDIRECT_CALL_2's compare. This size and inet_lookup_reuseport's: the Debian
 * 6.1.176 binary's (nm -S; doc/census/text-sizes-6.1.176.txt). */
static NS_FUNC (fn_udp_ehashfn, "udp_ehashfn", 267, 13, NS_FN_EXTERN, 1);
/* inet_lookup_reuseport (net/ipv4/inet_hashtables.c, exported, v6.6+). */
static NS_FUNC (fn_inet_lookup_reuseport, "inet_lookup_reuseport", 117, 7, NS_FN_EXTERN, 1);
/* lookup_reuseport (static helper in udp.c before v6.6). Estimate 128 B, one caller. */
static NS_FUNC (fn_lookup_reuseport, "lookup_reuseport", 128, NS_FRAME_UNKNOWN, NS_FN_STATIC, 1);
/* udp4_lib_lookup4 (v6.13+): static, one caller. Estimate 192 B. */
static NS_FUNC (fn_udp4_lib_lookup4, "udp4_lib_lookup4", 192, NS_FRAME_UNKNOWN, NS_FN_STATIC, 1);
/* udp4_lib_lookup1 (a502ea6fa94b: v6.14, 6.13.2, 6.12.13): static, one caller. Estimate
 * 160 B. */
static NS_FUNC (fn_udp4_lib_lookup1, "udp4_lib_lookup1", 160, NS_FRAME_UNKNOWN, NS_FN_STATIC, 1);

/* compute_score's instructions by step, inlined. census: 25 up to the dport reject (a
 * connected socket of another flow), 16 more for the match; the split by step is an
 * estimate. They are compares of fields on the line the chase just brought, well
 * predicted, each independent of the others: charged at the issue width, as is the
 * walk's step, the CMP/TEST + Jcc pairs among them as one fused macro-op each
 * (ns_insns_compares; the _PAIRS counts are the census of forms). The host's own
 * kernel walks a chain at 20-21 cycles a socket with its sockets in L2
 * (tools/bench-udp-chain, doc/model.md): the latency of the chase plus the compares at
 * that width, not at the path's cpu.ipc. */
#define SCORE_REJECT_KEYS_INSNS  8   /* net_eq, port hash, v6only: 3 compares + branches */
#define SCORE_REJECT_KEYS_PAIRS  2   /* cmp/jne net and port; v6only is testb $imm, mem */
#define SCORE_ADDR_INSNS         3
#define SCORE_ADDR_PAIRS         1
#define SCORE_FAMILY_INSNS       2   /* cmpw $AF_INET, mem; sete: no branch */
#define SCORE_PEER_INSNS         6   /* load, test, branch, compare, branch, add */
#define SCORE_PEER_PAIRS         2
#define SCORE_DEV_INSNS         10   /* inet_bound_dev_eq with the l3mdev sysctl + bonus */
#define SCORE_DEV_PAIRS          3
#define SCORE_CPU_INSNS          6   /* gs-relative cpu_number load, compare, add, result */
/* census: __udp4_lib_lookup's body, 87 less P/E 17 = 70, of which the hash2 of daddr
 * (ipv4_portaddr_hash_charged) and the slot (SLOT_INSNS) */
#define DRIVER_INSNS            (70 - (JHASH_NWORDS_INSNS + 1) - SLOT_INSNS)
#define SLOT_INSNS               3   /* & mask, scale, add */

/* ---- versions and generations ---- */

/* major * 1000 + minor of "6.9.0-rc1"; FALSE if unparsable. */
static gboolean
parse_version (const char *text, guint *out)
{
  guint major = 0, minor = 0;

  if (sscanf (text, "%u.%u", &major, &minor) != 2)
    return FALSE;
  *out = major * 1000 + minor;
  return TRUE;
}

/* The lookup generation a build of kernel release `release` (major * 1000 + minor:
 * version) compiles (udp.h). */
static UdpLookupGen
generation_of (const NsBuild *build, const char *release, guint version)
{
  if (!ns_kernel_release_has (release, NS_KCHANGE_UDP_SELECT_SKIPS_ESTABLISHED))
    return UDP_GEN_B0;
  if (!ns_kernel_release_has (release, NS_KCHANGE_UDP_KEEP_SELECTION))
    return UDP_GEN_B1;
  if (!ns_kernel_release_has (release, NS_KCHANGE_UDP_RESCORE))
    return UDP_GEN_B;
  if (ns_build_has_patch (build, "revert-udp-rescore"))
    return UDP_GEN_B;
  if (ns_kernel_release_has (release, NS_KCHANGE_UDP_SINGLE_SCORE_SITE) ||
      ns_build_has_patch (build, "udp-compute-score-single-site"))
    return UDP_GEN_D;
  return UDP_GEN_C;
}

/* The release the UDP and loopback models' code is (seed 000's kernel), and the registered
 * changes they read: the lookup's, the receive path's (models/net/udp_rx.c), the device's
 * and the socket's layouts (netdevice.c, sock.c), the skb heads' (skbuff.c) and the system
 * calls' (netstack.c). */
#define UDP_MODEL_RELEASE "6.9.0-rc1"
static const NsKernelChangeId udp_model_changes[] = {
  NS_KCHANGE_UDP_SELECT_SKIPS_ESTABLISHED, NS_KCHANGE_UDP_KEEP_SELECTION,
  NS_KCHANGE_UDP_SELECT_PREFERS_CPU, NS_KCHANGE_UDP_BIND_HASH2_FIX, NS_KCHANGE_UDP_RESCORE,
  NS_KCHANGE_UDP_SINGLE_SCORE_SITE, NS_KCHANGE_UDP_SHARED_REUSEPORT_LOOKUP,
  NS_KCHANGE_UDP_IPV6_JHASH2, NS_KCHANGE_UDP_DEV_BONUS_BOUND_ONLY, NS_KCHANGE_UDP_HASH4,
  NS_KCHANGE_UDP_LOOKUP1, NS_KCHANGE_SK_MEMORY_PCPU_RESERVE, NS_KCHANGE_UDP_RMEM_SCHEDULE,
  NS_KCHANGE_UDP_DATA_READY_WRAPPER, NS_KCHANGE_UDP_SKIP_DATA_READY,
  NS_KCHANGE_SKB_SMALL_HEAD_CACHE,
  NS_KCHANGE_NETDEV_CACHELINE_GROUPS, NS_KCHANGE_SOCK_FIELDS_REORGANIZED,
  NS_KCHANGE_X64_SYS_CALL, NS_KCHANGE_LSM_STATIC_CALLS, NS_KCHANGE_UDP_RMEM_ADD_RELAXED,
  NS_KCHANGE_UDP_RMEM_WRAPAROUND_FIX, NS_KCHANGE_UDP_RMEM_ADMIT_EMPTY_ONLY,
};

/* Notes on build how its release differs from the code the UDP models are, as far as the
 * registry knows (nothing when it is that release). */
static void
note_version (NsBuild *build)
{
  const char *release = ns_build_version (build);
  g_autofree char *diff = ns_kernel_changes_between (UDP_MODEL_RELEASE, release,
                                                     udp_model_changes,
                                                     G_N_ELEMENTS (udp_model_changes));
  g_autofree char *note = NULL;

  if (diff == NULL && ns_kernel_release_cmp (release, UDP_MODEL_RELEASE) == 0)
    return;
  note = g_strdup_printf ("kernel %s: the UDP models (the socket lookup, and in the loopback "
                          "workloads the send and receive paths) run v6.9-rc1's code but for "
                          "the registered changes (netsim list changes); against it this "
                          "release %s; changes not registered are not modelled (e.g. 6.18's "
                          "per-NUMA producer queues, b650bf0977d3)",
                          release, diff ? diff : "differs in none of them");
  ns_build_note (build, note);
}

/* Sets the table's version-dependent switches. */
static void
udp_table_set_features (struct udp_table *tbl, NsBuild *build)
{
  const char *release = ns_build_version (build);

  tbl->gen = generation_of (build, release, tbl->version);
  tbl->dev_bonus_always = !ns_kernel_release_has (release, NS_KCHANGE_UDP_DEV_BONUS_BOUND_ONLY);
  tbl->ipv6_jhash2 = ns_kernel_release_has (release, NS_KCHANGE_UDP_IPV6_JHASH2);
  tbl->shared_reuseport_lookup =
      ns_kernel_release_has (release, NS_KCHANGE_UDP_SHARED_REUSEPORT_LOOKUP);
  tbl->select_skips_established =
      ns_kernel_release_has (release, NS_KCHANGE_UDP_SELECT_SKIPS_ESTABLISHED);
  tbl->select_prefers_cpu = ns_kernel_release_has (release, NS_KCHANGE_UDP_SELECT_PREFERS_CPU);
  tbl->has_hash4 = ns_kernel_release_has (release, NS_KCHANGE_UDP_HASH4);
  tbl->has_lookup1 = ns_kernel_release_has (release, NS_KCHANGE_UDP_LOOKUP1);
  tbl->sock_layout = ns_kernel_release_has (release, NS_KCHANGE_SOCK_FIELDS_REORGANIZED) ?
                     NULL : sock_layout_map_v6_1 ();
  tbl->bind_hash2_specific_only = ns_kernel_release_has (release, NS_KCHANGE_UDP_BIND_HASH2_FIX);
  /* A single compute_score call site in every generation but C. a502ea6fa94b (lookup1)
   * gave it a second caller; Debian 6.12.118's binary, which has it, still has no
   * compute_score of its own (nm: inlined into both), and the newest tree marks it
   * __always_inline: modelled as one site so the build folds it in either way. */
  if (tbl->gen != UDP_GEN_C) {
    ns_build_set_call_sites (build, udp_fn_compute_score.name, 1);
    ns_build_set_call_sites (build, udp6_fn_compute_score.name, 1);
  }
}

/* ---- table and netns ---- */

/* A table of `entries` slots running the lookup code of build. */
struct udp_table *
udp_table_new (NsArena *arena, NsBuild *build, guint entries, GError **error)
{
  struct udp_table *tbl;
  guint version;
  guint8 *block;
  gsize slots_bytes;

  g_return_val_if_fail (arena != NULL, NULL);
  g_return_val_if_fail (build != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (entries == 0)
    entries = 256;
  if (entries < 256 || entries > 65536 || (entries & (entries - 1)) != 0)
    goto bad_entries;
  if (!parse_version (ns_build_version (build), &version))
    goto bad_version;
  if (version < 5000)
    goto unsupported;

  tbl = ns_arena_alloc (arena, sizeof (*tbl), 64);
  tbl->arena = arena;
  tbl->build = build;
  tbl->version = version;
  tbl->mask = entries - 1;
  tbl->log = g_bit_nth_msf (entries, -1);
  udp_table_set_features (tbl, build);
  note_version (build);
  tbl->hash2_stride = tbl->has_hash4 ? sizeof (struct udp_hslot_main) : sizeof (struct udp_hslot);
  slots_bytes = entries * (sizeof (struct udp_hslot) + tbl->hash2_stride +
                           (tbl->has_hash4 ? sizeof (struct udp_hslot) : 0));
  block = ns_arena_alloc (arena, slots_bytes, 64);
  tbl->alloc_bytes = slots_bytes;
  tbl->hash = (struct udp_hslot *) block;
  tbl->hash2 = block + entries * sizeof (struct udp_hslot);
  if (tbl->has_hash4)
    tbl->hash4 = (struct udp_hslot *) (tbl->hash2 + entries * tbl->hash2_stride);
  tbl->udp_ehash_secret = 0x5eed0001u;
  tbl->udp6_ehash_secret = 0x5eed0002u;
  tbl->udp_ipv6_hash_secret = 0x5eed0003u;
  tbl->port_rover = UDP_EPHEMERAL_LOW;
  return tbl;

/* ERRORS */
bad_entries:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT,
               "UDP table size %u: must be a power of two from 256 to 65536", entries);
  return NULL;
bad_version:
  ns_build_refuse_version (build, error, "kernel version \"%s\" is not N.M[...]",
                           ns_build_version (build));
  return NULL;
unsupported:
  ns_build_refuse_version (build, error, "UDP lookup of kernel %s is not modelled (the "
                           "model covers v5.0 and later)", ns_build_version (build));
  return NULL;
}

/* Closes every socket still hashed, then frees the slots and the table. */
void
udp_table_free (struct udp_table *tbl)
{
  NsArena *arena;

  if (tbl == NULL)
    return;
  for (guint i = 0; i <= tbl->mask; i++)
    while (tbl->hash[i].head.first != NULL)
      udp_sock_close (sk_from_node (tbl->hash[i].head.first));
  arena = tbl->arena;
  ns_kmem_cache_destroy (tbl->sock_cache[0]);
  ns_kmem_cache_destroy (tbl->sock_cache[1]);
  ns_arena_release (arena, tbl->hash, tbl->alloc_bytes);
  ns_arena_release (arena, tbl, sizeof (*tbl));
}

/* The udp4_lib_lookup2 generation (B0, B1, B, C or D) the table's build compiles. */
UdpLookupGen
udp_table_generation (const struct udp_table *tbl)
{
  g_return_val_if_fail (tbl != NULL, UDP_GEN_D);
  return tbl->gen;
}

/* Makes bind() refuse an overlap with any socket sk may not share the port with (see
 * udp.h). */
void
udp_table_set_bind_scans_all (struct udp_table *tbl, gboolean scans_all)
{
  g_return_if_fail (tbl != NULL);
  tbl->bind_scans_all = scans_all;
}

/* Sets the three hash secrets. */
void
udp_table_set_hash_secrets (struct udp_table *tbl, guint32 udp_ehash_secret,
                            guint32 udp6_ehash_secret, guint32 udp_ipv6_hash_secret)
{
  g_return_if_fail (tbl != NULL);
  tbl->udp_ehash_secret = udp_ehash_secret;
  tbl->udp6_ehash_secret = udp6_ehash_secret;
  tbl->udp_ipv6_hash_secret = udp_ipv6_hash_secret;
}

/* The table's lookup counters (model bookkeeping). */
const UdpTableStats *
udp_table_stats (const struct udp_table *tbl)
{
  g_return_val_if_fail (tbl != NULL, NULL);
  return &tbl->stats;
}

/* Zeroes the table's lookup counters. */
void
udp_table_reset_stats (struct udp_table *tbl)
{
  g_return_if_fail (tbl != NULL);
  memset (&tbl->stats, 0, sizeof (tbl->stats));
}

/* A netns with hash mix `hash_mix`. */
struct net *
ns_net_new (NsArena *arena, guint32 hash_mix, guint32 ns_id)
{
  struct net *net;

  g_return_val_if_fail (arena != NULL, NULL);
  net = ns_arena_alloc (arena, sizeof (*net), 64);
  net->hash_mix = hash_mix;
  net->ns_id = ns_id;
  return net;
}

/* Returns net's memory to arena (NULL is fine). */
void
ns_net_free (NsArena *arena, struct net *net)
{
  if (net != NULL)
    ns_arena_release (arena, net, sizeof (*net));
}

/* ---- hashes (kernel-spec §1.2) ---- */

/* net_hash_mix: the namespace's hash salt. */
guint32
net_hash_mix (const struct net *net)
{
  return net->hash_mix;
}

/* Primary slot index of port num. */
guint
udp_hashfn (const struct net *net, guint num, guint mask)
{
  return (num + net_hash_mix (net)) & mask;
}

/* jhash_1word(addr, mix) ^ port. */
guint32
ipv4_portaddr_hash (const struct net *net, be32 saddr, guint port)
{
  return jhash_1word (saddr, net_hash_mix (net)) ^ port;
}

/* __inet_ehashfn(laddr, lport, faddr, fport, udp_ehash_secret + mix). */
guint32
udp_ehashfn (const struct udp_table *tbl, const struct net *net, be32 laddr, guint16 lport,
             be32 faddr, be16 fport)
{
  return jhash_3words (laddr, faddr, ((guint32) lport << 16) | fport,
                       tbl->udp_ehash_secret + net_hash_mix (net));
}

/* udp_hashslot: the primary (port) slot of port num in net. */
struct udp_hslot *
udp_hashslot (struct udp_table *tbl, const struct net *net, guint num)
{
  return &tbl->hash[udp_hashfn (net, num, tbl->mask)];
}

/* udp_hashslot2: the secondary (port + address) slot of hash. */
struct udp_hslot *
udp_hashslot2 (struct udp_table *tbl, guint hash)
{
  g_return_val_if_fail (tbl != NULL, NULL);
  return (struct udp_hslot *) (tbl->hash2 + (hash & tbl->mask) * tbl->hash2_stride);
}

/* udp_hashslot4: the four-tuple slot of hash; the table must have hash4 (v6.13+). */
struct udp_hslot *
udp_hashslot4 (struct udp_table *tbl, guint hash)
{
  return &tbl->hash4[hash & tbl->mask];
}

/* How many hash4-hashed sockets share hash2 slot hslot2 (0 before v6.13); not charged. */
guint
udp_hslot2_hash4_cnt (const struct udp_table *tbl, const struct udp_hslot *hslot2)
{
  g_return_val_if_fail (tbl != NULL && hslot2 != NULL, 0);
  return tbl->has_hash4 ? ((const struct udp_hslot_main *) hslot2)->hash4_cnt : 0;
}

/* ---- charged helpers shared with udp6.c ---- */

/* A compute_score call site: when the build keeps fn out of line, the caller moves its 8
 * arguments into place (6 registers, 2 on the stack, the stack adjust after) and
 * compares the returned score, work the inlined form folds into its reject branch. */
void
udp_score_call_setup (NsThread *t, struct udp_table *tbl, NsFunc *fn)
{
  /* moves of loop-invariant registers and a predicted compare, independent of the chain
   * walk's loads: issued at the core's width, and hidden under a socket's miss, as the
   * machine prices a call's own prologue and epilogue (call.prologue_insns) */
  if (!ns_build_inlines (tbl->build, fn, NULL))
    ns_insns_beside (t, UDP_SCORE_CALL_INSNS);
}

/* raw_smp_processor_id(): the simulated CPU the thread runs on. */
gint
udp_current_cpu (NsThread *t, const struct udp_table *tbl)
{
  (void) tbl;
  return (gint) ns_thread_cpu (t);
}

/* inet_bound_dev_eq (include/net/inet_sock.h): a socket bound to bound_dev_if (0: none)
 * takes a packet from device dif (sdif: its l3mdev slave, 0 if none); an unbound socket
 * takes one through an l3mdev only with l3mdev_accept. */
static gboolean
inet_bound_dev_eq (gboolean l3mdev_accept, gint bound_dev_if, gint dif, gint sdif)
{
  if (bound_dev_if == 0)
    return sdif == 0 || l3mdev_accept;
  return bound_dev_if == dif || bound_dev_if == sdif;
}

/* udp_sk_bound_dev_eq (include/net/udp.h): inet_bound_dev_eq with the UDP sysctl
 * udp_l3mdev_accept, loaded; compute_score's device test. */
gboolean
udp_sk_bound_dev_eq (NsThread *t, struct net *net, gint bound_dev_if, gint dif, gint sdif)
{
  NS_LOAD_FIELD (t, net, sysctl_udp_l3mdev_accept);
  return inet_bound_dev_eq (net->sysctl_udp_l3mdev_accept, bound_dev_if, dif, sdif);
}

/* inet_sk_bound_dev_eq (include/net/inet_sock.h): inet_bound_dev_eq with the TCP sysctl
 * tcp_l3mdev_accept, which inet_match and inet6_match use for every socket they match since
 * 944fd1aeacb6 ("net: allow unbound socket for packets in VRF when tcp_l3mdev_accept set"),
 * UDP's hash4 chain included. */
gboolean
inet_sk_bound_dev_eq (NsThread *t, struct net *net, gint bound_dev_if, gint dif, gint sdif)
{
  NS_LOAD_FIELD (t, net, sysctl_tcp_l3mdev_accept);
  return inet_bound_dev_eq (net->sysctl_tcp_l3mdev_accept, bound_dev_if, dif, sdif);
}

/* udp_hashslot2 as the lookup executes it: loads tbl->hash2 and tbl->mask. */
struct udp_hslot *
udp_hashslot2_charged (NsThread *t, struct udp_table *tbl, guint hash)
{
  NS_LOAD_FIELD (t, tbl, hash2);
  NS_LOAD_FIELD (t, tbl, mask);
  ns_insns (t, SLOT_INSNS);
  return udp_hashslot2 (tbl, hash);
}

/* udp_has_hash4: one load of hslot2's hash4_cnt. */
gboolean
udp_has_hash4 (NsThread *t, struct udp_table *tbl, struct udp_hslot *hslot2)
{
  struct udp_hslot_main *main_slot = (struct udp_hslot_main *) hslot2;

  NS_LOAD_FIELD (t, main_slot, hash4_cnt);
  ns_insns (t, 2);
  return udp_hslot2_hash4_cnt (tbl, hslot2) != 0;
}

/* First node of hslot's chain, charged as a dependent load of the head. */
struct hlist_node *
udp_chain_first (NsThread *t, struct udp_hslot *hslot)
{
  ns_load_dep (t, &hslot->head.first, sizeof (hslot->head.first));
  return hslot->head.first;
}

/* The node after node on its chain. Every walk has just read node's socket (its score or
 * match test loads the same line first, waiting for the pointer): the link is in L1 and
 * its load runs beside those, so it is not a step of its own in the chase. */
struct hlist_node *
udp_chain_next (NsThread *t, struct hlist_node *node)
{
  ns_load (t, &node->next, sizeof (node->next));
  return node->next;
}

/* ipv4_portaddr_hash as the lookup executes it (static inline: mix load + jhash). */
static guint32
ipv4_portaddr_hash_charged (NsThread *t, struct net *net, be32 saddr, guint port)
{
  NS_LOAD_FIELD (t, net, hash_mix);
  ns_insns (t, JHASH_NWORDS_INSNS + 1);
  return ipv4_portaddr_hash (net, saddr, port);
}

/* ---- compute_score (IPv4) ---- */

/* Score of sk for a packet saddr:sport → daddr:hnum on dif/sdif: -1 = not a candidate.
 * v5.0+ rules (kernel-spec §1.3 steps 1–8), device bonus by version. */
static gint
compute_score (NsThread *t, struct udp_table *tbl, struct sock *sk, struct net *net,
               be32 saddr, be16 sport, be32 daddr, guint16 hnum, gint dif, gint sdif)
{
  gint score = -1;

  udp_score_call_setup (t, tbl, &udp_fn_compute_score);
  ns_call (t, &udp_fn_compute_score);
  tbl->stats.scored++;
  NS_LOAD_FIELD_DEP (t, sk, sk_net);   /* the chase: waits for the pointer */
  NS_LOAD_FIELD (t, sk, __sk_common.skc_u16hashes[0]);
  NS_LOAD_FIELD (t, sk, __sk_common.skc_bits);
  ns_insns_compares (t, SCORE_REJECT_KEYS_INSNS, SCORE_REJECT_KEYS_PAIRS);
  if (sock_net (sk) != net || udp_sk (sk)->udp_port_hash != hnum || ipv6_only_sock (sk))
    goto out;

  NS_LOAD_FIELD (t, sk, sk_rcv_saddr);
  ns_insns_compares (t, SCORE_ADDR_INSNS, SCORE_ADDR_PAIRS);
  if (sk->sk_rcv_saddr != daddr)
    goto out;

  NS_LOAD_FIELD (t, sk, sk_family);
  ns_insns_wide (t, SCORE_FAMILY_INSNS);
  score = sk->sk_family == AF_INET ? 2 : 1;

  NS_LOAD_FIELD (t, sk, sk_daddr);
  ns_insns_compares (t, SCORE_PEER_INSNS, SCORE_PEER_PAIRS);
  if (sk->sk_daddr) {
    if (sk->sk_daddr != saddr)
      goto reject;
    score += 4;
  }
  NS_LOAD_FIELD (t, sk, sk_dport);
  ns_insns_compares (t, SCORE_PEER_INSNS, SCORE_PEER_PAIRS);
  if (sk->sk_dport) {
    if (sk->sk_dport != sport)
      goto reject;
    score += 4;
  }

  NS_LOAD_FIELD (t, sk, sk_bound_dev_if);
  ns_insns_compares (t, SCORE_DEV_INSNS, SCORE_DEV_PAIRS);
  if (!udp_sk_bound_dev_eq (t, net, sk->sk_bound_dev_if, dif, sdif))
    goto reject;
  if (sk->sk_bound_dev_if || tbl->dev_bonus_always)
    score += 4;

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

/* ---- reuseport from the lookup ---- */

/* inet_lookup_reuseport (v6.6+) / lookup_reuseport (before): if sk has SO_REUSEPORT, hash
 * the flow with udp_ehashfn and let the group pick. */
static struct sock *
inet_lookup_reuseport (NsThread *t, struct udp_table *tbl, struct net *net, struct sock *sk,
                       struct sk_buff *skb, be32 saddr, be16 sport, be32 daddr, guint16 hnum)
{
  struct sock *reuse_sk = NULL;
  guint32 phash;

  ns_call (t, tbl->shared_reuseport_lookup ? &fn_inet_lookup_reuseport : &fn_lookup_reuseport);
  NS_LOAD_FIELD (t, sk, __sk_common.skc_bits);
  ns_insns (t, 3);
  if (sk->sk_reuseport) {
    ns_insns (t, 2);                      /* INDIRECT_CALL_2: compare with udp_ehashfn */
    ns_call (t, &fn_udp_ehashfn);
    ns_load (t, &tbl->udp_ehash_secret, sizeof (tbl->udp_ehash_secret));
    NS_LOAD_FIELD (t, net, hash_mix);
    ns_insns (t, JHASH_NWORDS_INSNS + 6);
    phash = udp_ehashfn (tbl, net, daddr, hnum, saddr, sport);
    ns_ret (t);
    reuse_sk = reuseport_select_sock (t, sk, phash, skb, 8, udp_current_cpu (t, tbl));
    if (reuse_sk != NULL)
      tbl->stats.reuseport_selects++;
  }
  ns_ret (t);
  return reuse_sk;
}

/* ---- udp4_lib_lookup2: one hash2 chain (kernel-spec §1.4) ---- */

/* The sk->sk_state == TCP_ESTABLISHED test that keeps a connected chain socket from group
 * selection (acdcecc61285, 5.4); B0 has no such test and hands it to its group. Shared with
 * udp6_lib_lookup2. */
gboolean
udp_lookup2_sk_connected (NsThread *t, const struct udp_table *tbl, struct sock *sk)
{
  if (tbl->gen == UDP_GEN_B0)
    return FALSE;
  NS_LOAD_FIELD (t, sk, sk_state);
  return sk->sk_state == TCP_ESTABLISHED;
}

/* Best socket on hslot2's chain for the packet; a pure reuseport group answers at once. */
static struct sock *
udp4_lib_lookup2 (NsThread *t, struct udp_table *tbl, struct net *net, be32 saddr,
                  be16 sport, be32 daddr, guint16 hnum, gint dif, gint sdif,
                  struct udp_hslot *hslot2, struct sk_buff *skb)
{
  struct hlist_node *node;
  struct sock *sk, *result = NULL;
  gint score, badness = 0;
  gboolean need_rescore;

  ns_call (t, &udp_fn_udp4_lib_lookup2);
  ns_insns (t, UDP_LOOKUP2_FIXED_INSNS);
  for (node = udp_chain_first (t, hslot2); node != NULL; node = udp_chain_next (t, node)) {
    sk = sk_from_portaddr_node (node);
    need_rescore = FALSE;
rescore:
    ns_insns_compares (t, UDP_CHAIN_STEP_INSNS, UDP_CHAIN_STEP_PAIRS);
    score = compute_score (t, tbl, need_rescore ? result : sk, net, saddr, sport, daddr,
                           hnum, dif, sdif);
    if (score <= badness)
      continue;
    if (need_rescore) {                   /* D: the re-score raised badness */
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
    result = inet_lookup_reuseport (t, tbl, net, sk, skb, saddr, sport, daddr, hnum);
    if (result == NULL) {
      result = sk;
      continue;
    }
    if (tbl->gen == UDP_GEN_B0)           /* e32ea7e74727: any selection answers */
      goto done;
    /* Fall back to scoring if the group has connections. */
    if (!reuseport_has_conns (t, sk))
      goto done;
    switch (tbl->gen) {
    case UDP_GEN_B0:                      /* answered above */
      break;
    case UDP_GEN_B1:                      /* acdcecc61285: the selection is discarded */
      result = sk;
      break;
    case UDP_GEN_B:                       /* efc6b6f6c311: keep sk's score for the selection */
      break;
    case UDP_GEN_C:                       /* f0ea27e7bfe1: the second call site */
      tbl->stats.rescored++;
      score = compute_score (t, tbl, result, net, saddr, sport, daddr, hnum, dif, sdif);
      if (score > badness)
        tbl->stats.rescore_raised++;
      badness = score;
      break;
    case UDP_GEN_D:                       /* 50aee97d1511: jump back to the one site */
      tbl->stats.rescored++;
      need_rescore = TRUE;
      goto rescore;
    }
  }
done:
  ns_ret (t);
  return result;
}

/* ---- v6.13+: the four-tuple chain ---- */

/* inet_match (include/net/inet_hashtables.h): netns, both addresses, both ports, bound
 * device by the TCP sysctl (inet_sk_bound_dev_eq), not UDP's. */
static gboolean
inet_match (NsThread *t, struct net *net, const struct sock *sk, be32 saddr, be32 daddr,
            be16 sport, guint16 hnum, gint dif, gint sdif)
{
  NS_LOAD_FIELD_DEP (t, sk, sk_net);   /* the chase: waits for the pointer */
  NS_LOAD_FIELD (t, sk, __sk_common.skc_addrpair);
  NS_LOAD_FIELD (t, sk, __sk_common.skc_portpair);
  ns_insns_wide (t, 8);                 /* compares beside the chase */
  if (sock_net (sk) != net || sk->sk_daddr != saddr || sk->sk_rcv_saddr != daddr ||
      sk->sk_dport != sport || sk->sk_num != hnum)
    return FALSE;
  NS_LOAD_FIELD (t, sk, sk_bound_dev_if);
  return inet_sk_bound_dev_eq (t, net, sk->sk_bound_dev_if, dif, sdif);
}

/* First exact 4-tuple match on the hash4 chain, or NULL. */
static struct sock *
udp4_lib_lookup4 (NsThread *t, struct udp_table *tbl, struct net *net, be32 saddr,
                  be16 sport, be32 daddr, guint16 hnum, gint dif, gint sdif)
{
  struct hlist_node *node;
  struct sock *found = NULL;
  guint32 hash4;

  ns_call (t, &fn_udp4_lib_lookup4);
  ns_call (t, &fn_udp_ehashfn);
  ns_load (t, &tbl->udp_ehash_secret, sizeof (tbl->udp_ehash_secret));
  NS_LOAD_FIELD (t, net, hash_mix);
  ns_insns (t, JHASH_NWORDS_INSNS + 6);
  hash4 = udp_ehashfn (tbl, net, daddr, hnum, saddr, sport);
  ns_ret (t);
  NS_LOAD_FIELD (t, tbl, hash4);
  ns_insns (t, SLOT_INSNS);
  for (node = udp_chain_first (t, udp_hashslot4 (tbl, hash4)); node != NULL;
       node = udp_chain_next (t, node)) {
    struct sock *sk = sk_from_lrpa_node (node);

    ns_insns (t, 2);
    if (inet_match (t, net, sk, saddr, daddr, sport, hnum, dif, sdif)) {
      found = sk;
      break;
    }
  }
  ns_ret (t);
  return found;
}

/* v6.14+: best score on the primary (port) chain, no reuseport selection. */
static struct sock *
udp4_lib_lookup1 (NsThread *t, struct udp_table *tbl, struct net *net, be32 saddr,
                  be16 sport, be32 daddr, guint16 hnum, gint dif, gint sdif)
{
  struct hlist_node *node;
  struct sock *result = NULL;
  gint score, badness = 0;

  ns_call (t, &fn_udp4_lib_lookup1);
  NS_LOAD_FIELD (t, net, hash_mix);
  NS_LOAD_FIELD (t, tbl, hash);
  ns_insns (t, SLOT_INSNS + 2);
  for (node = udp_chain_first (t, udp_hashslot (tbl, net, hnum)); node != NULL;
       node = udp_chain_next (t, node)) {
    struct sock *sk = sk_from_node (node);

    ns_insns_wide (t, UDP_CHAIN_STEP_INSNS);
    score = compute_score (t, tbl, sk, net, saddr, sport, daddr, hnum, dif, sdif);
    if (score > badness) {
      result = sk;
      badness = score;
    }
  }
  ns_ret (t);
  return result;
}

/* ---- __udp4_lib_lookup: the two-phase driver (kernel-spec §1.5) ---- */

/* __udp4_lib_lookup: hash4 (v6.13+), then the exact-address and wildcard hash2 chains,
 * then the port chain (v6.14+); the receiving socket or NULL. */
struct sock *
__udp4_lib_lookup (NsThread *t, struct net *net, be32 saddr, be16 sport, be32 daddr,
                   be16 dport, gint dif, gint sdif, struct udp_table *tbl, struct sk_buff *skb)
{
  guint16 hnum = GUINT16_FROM_BE (dport);
  struct udp_hslot *hslot2;
  struct sock *result;
  guint32 hash2;

  g_return_val_if_fail (t != NULL && net != NULL && tbl != NULL, NULL);

  ns_call (t, &udp_fn___udp4_lib_lookup);
  tbl->stats.lookups++;
  ns_insns (t, DRIVER_INSNS);
  hash2 = ipv4_portaddr_hash_charged (t, net, daddr, hnum);
  hslot2 = udp_hashslot2_charged (t, tbl, hash2);

  if (tbl->has_hash4 && udp_has_hash4 (t, tbl, hslot2)) {
    result = udp4_lib_lookup4 (t, tbl, net, saddr, sport, daddr, hnum, dif, sdif);
    if (result != NULL) {
      tbl->stats.hash4_hits++;
      goto done;
    }
  }

  /* Lookup connected or non-wildcard socket. */
  result = udp4_lib_lookup2 (t, tbl, net, saddr, sport, daddr, hnum, dif, sdif, hslot2, skb);
  if (result != NULL && result->sk_state == TCP_ESTABLISHED)
    goto done;
  /* BPF sk_lookup: static key off, no program attached. */
  if (result != NULL)
    goto done;

  /* Lookup wildcard sockets. */
  hash2 = ipv4_portaddr_hash_charged (t, net, 0, hnum);
  hslot2 = udp_hashslot2_charged (t, tbl, hash2);
  result = udp4_lib_lookup2 (t, tbl, net, saddr, sport, 0, hnum, dif, sdif, hslot2, skb);
  if (result != NULL)
    goto done;

  if (tbl->has_lookup1)
    result = udp4_lib_lookup1 (t, tbl, net, saddr, sport, daddr, hnum, dif, sdif);

done:
  if (result == NULL)
    tbl->stats.misses++;
  ns_ret (t);
  return result;
}

/* ======================= control plane (not charged) ======================= */

/* The slab object size of a UDP socket of `family`: udp_sock, or udp6_sock (udp_sock then
 * struct ipv6_pinfo, NS_IPV6_PINFO_SIZE in sock.h), 64-byte aligned (SLAB_HWCACHE_ALIGN,
 * kernel-spec §6.4). */
static gsize
udp_obj_size (gint family)
{
  gsize size = sizeof (struct udp_sock) + (family == AF_INET6 ? NS_IPV6_PINFO_SIZE : 0);

  return (size + 63) & ~(gsize) 63;
}

/* The table's slab cache for sockets of family, or NULL (the arena). */
static NsKmemCache *
sock_cache (const struct udp_table *tbl, gint family)
{
  return tbl->sock_cache[family == AF_INET6];
}

/* See udp.h. */
void
udp_table_use_slab_caches (struct udp_table *tbl, guint n_cpus, gboolean shuffle,
                           guint64 seed)
{
  g_return_if_fail (tbl != NULL && tbl->sock_cache[0] == NULL);
  tbl->sock_cache[0] = ns_kmem_cache_new (tbl->arena, udp_obj_size (AF_INET),
                                          NS_SLAB_HWCACHE_ALIGN, n_cpus, shuffle, seed);
  tbl->sock_cache[1] = ns_kmem_cache_new (tbl->arena, udp_obj_size (AF_INET6),
                                          NS_SLAB_HWCACHE_ALIGN, n_cpus, shuffle, seed + 1);
}

/* An unbound socket of `family`, allocated on CPU 0. */
struct sock *
udp_sock_create (struct udp_table *tbl, struct net *net, gint family)
{
  return udp_sock_create_on (tbl, net, family, 0);
}

/* An unbound socket of `family`, allocated on cpu (whose slab it comes from). */
struct sock *
udp_sock_create_on (struct udp_table *tbl, struct net *net, gint family, guint cpu)
{
  struct udp_sock *up;
  struct sock *sk;

  g_return_val_if_fail (tbl != NULL && net != NULL, NULL);
  g_return_val_if_fail (family == AF_INET || family == AF_INET6, NULL);

  up = sock_cache (tbl, family) != NULL ? ns_kmem_cache_alloc (sock_cache (tbl, family), cpu)
                                        : ns_arena_alloc (tbl->arena, udp_obj_size (family), 64);
  if (tbl->sock_layout != NULL)
    ns_arena_set_layout (tbl->arena, up, udp_obj_size (family), tbl->sock_layout);
  sk = &up->inet.sk;
  sk->sk_family = family;
  sk->sk_state = TCP_CLOSE;
  sk->sk_prot = tbl;
  sk->sk_net = net;
  sk->sk_incoming_cpu = -1;
  sk->sk_refcnt = 1;
  sk->sk_protocol = 17;                 /* IPPROTO_UDP */
  sk->sk_type = 2;                      /* SOCK_DGRAM */
  ns_spin_lock_init (&sk->sk_receive_queue.lock);
  ns_spin_lock_init (&sk->sk_error_queue.lock);
  ns_spin_lock_init (&sk->sk_write_queue.lock);
  ns_spin_lock_init (&sk->sk_lock.slock);
  ns_spin_lock_init (&up->reader_queue.lock);
  up->ns_id = tbl->next_id++;
  return sk;
}

/* SO_REUSEADDR: sets or clears sk_reuse. */
void
udp_sock_set_reuseaddr (struct sock *sk, gboolean on)
{
  g_return_if_fail (sk != NULL);
  sk->sk_reuse = on ? 1 : 0;           /* SK_CAN_REUSE */
}

/* SO_REUSEPORT: sets or clears sk_reuseport (takes effect at bind). */
void
udp_sock_set_reuseport (struct sock *sk, gboolean on)
{
  g_return_if_fail (sk != NULL);
  sk->sk_reuseport = on ? 1 : 0;
}

/* Sets the socket's owner uid. */
void
udp_sock_set_uid (struct sock *sk, guint32 uid)
{
  g_return_if_fail (sk != NULL);
  sk->sk_uid = uid;
}

/* IPV6_V6ONLY on an unbound AF_INET6 socket; -EINVAL otherwise. */
gint
udp_sock_set_v6only (struct sock *sk, gboolean on)
{
  g_return_val_if_fail (sk != NULL, -EINVAL);
  if (sk->sk_family != AF_INET6 || sk->sk_num != 0)
    return -EINVAL;
  sk->sk_ipv6only = on ? 1 : 0;
  return 0;
}

/* sk->sk_prot->rehash (udp_v4_rehash / udp_v6_rehash). */
static void
udp_rehash (struct sock *sk)
{
  if (sk->sk_family == AF_INET6)
    udp_v6_rehash (sk);
  else
    udp_v4_rehash (sk);
}

/* SO_BINDTODEVICE: sets the bound ifindex and rehashes a bound socket; -EINVAL if negative. */
gint
udp_sock_bind_to_device (struct sock *sk, gint ifindex)
{
  g_return_val_if_fail (sk != NULL, -EINVAL);
  if (ifindex < 0)
    return -EINVAL;
  sk->sk_bound_dev_if = ifindex;
  if (sk->sk_num != 0)
    udp_rehash (sk);
  return 0;
}

/* SO_INCOMING_CPU: sets sk's CPU (from v6.2 also the group's counter); returns 0. */
gint
udp_sock_set_incoming_cpu (struct sock *sk, gint cpu)
{
  const struct udp_table *tbl;

  g_return_val_if_fail (sk != NULL, -EINVAL);
  tbl = sk->sk_prot;
  if (tbl->select_prefers_cpu)
    reuseport_update_incoming_cpu (sk, cpu);
  else
    sk->sk_incoming_cpu = cpu;
  return 0;
}

/* The socket's creation number within its table. */
guint32
udp_sock_id (const struct sock *sk)
{
  g_return_val_if_fail (sk != NULL, 0);
  return udp_sk (sk)->ns_id;
}

/* ---- address compare for bind conflicts and groups (inet_rcv_saddr_equal) ---- */

/* ipv4_rcv_saddr_equal: TRUE if the two IPv4 bound addresses overlap (same, or a
 * permitted wildcard); never when sk2 is IPv6-only. */
static gboolean
ipv4_rcv_saddr_equal (be32 sk1_rcv_saddr, be32 sk2_rcv_saddr, gboolean sk2_ipv6only,
                      gboolean match_sk1_wildcard, gboolean match_sk2_wildcard)
{
  if (sk2_ipv6only)
    return FALSE;
  if (sk1_rcv_saddr == sk2_rcv_saddr)
    return TRUE;
  return (match_sk1_wildcard && !sk1_rcv_saddr) || (match_sk2_wildcard && !sk2_rcv_saddr);
}

/* ipv6_rcv_saddr_equal: TRUE if the bound addresses overlap; a NULL sk2 address (AF_INET)
 * counts as v4-mapped, and two v4-mapped ones compare as IPv4. */
static gboolean
ipv6_rcv_saddr_equal (const ns_in6_addr *sk1_rcv_saddr6, const ns_in6_addr *sk2_rcv_saddr6,
                      be32 sk1_rcv_saddr, be32 sk2_rcv_saddr, gboolean sk1_ipv6only,
                      gboolean sk2_ipv6only, gboolean match_sk1_wildcard,
                      gboolean match_sk2_wildcard)
{
  gboolean mapped1 = ipv6_addr_v4mapped (sk1_rcv_saddr6);
  gboolean mapped2 = sk2_rcv_saddr6 == NULL || ipv6_addr_v4mapped (sk2_rcv_saddr6);
  gboolean any1 = ipv6_addr_any (sk1_rcv_saddr6);
  gboolean any2 = sk2_rcv_saddr6 != NULL && ipv6_addr_any (sk2_rcv_saddr6);

  /* Both v4-mapped (an AF_INET sk2 counts as mapped): compare as IPv4. */
  if (mapped1 && mapped2)
    return ipv4_rcv_saddr_equal (sk1_rcv_saddr, sk2_rcv_saddr, sk2_ipv6only,
                                 match_sk1_wildcard, match_sk2_wildcard);
  if (any1 && any2)
    return TRUE;
  if (any2 && match_sk2_wildcard && !(sk2_ipv6only && mapped1))
    return TRUE;
  if (any1 && match_sk1_wildcard && !(sk1_ipv6only && mapped2))
    return TRUE;
  return sk2_rcv_saddr6 != NULL && ipv6_addr_equal (sk1_rcv_saddr6, sk2_rcv_saddr6);
}

/* inet_rcv_saddr_equal: TRUE if sk and sk2 are bound to overlapping local addresses
 * (match_wildcard: a bound wildcard counts as overlapping). */
gboolean
inet_rcv_saddr_equal (const struct sock *sk, const struct sock *sk2, gboolean match_wildcard)
{
  if (sk->sk_family == AF_INET6)
    return ipv6_rcv_saddr_equal (&sk->sk_v6_rcv_saddr,
                                 sk2->sk_family == AF_INET6 ? &sk2->sk_v6_rcv_saddr : NULL,
                                 sk->sk_rcv_saddr, sk2->sk_rcv_saddr, ipv6_only_sock (sk),
                                 ipv6_only_sock (sk2), match_wildcard, match_wildcard);
  return ipv4_rcv_saddr_equal (sk->sk_rcv_saddr, sk2->sk_rcv_saddr, ipv6_only_sock (sk2),
                               match_wildcard, match_wildcard);
}

/* TRUE if sk is bound to the wildcard address of its family. */
gboolean
inet_rcv_saddr_any (const struct sock *sk)
{
  if (sk->sk_family == AF_INET6)
    return ipv6_addr_any (&sk->sk_v6_rcv_saddr);
  return sk->sk_rcv_saddr == 0;
}

/* ---- udp_lib_get_port ---- */

/* How an already bound sk2 meets a bind of sk to its port (the test udp_lib_lport_inuse
 * and udp_lib_lport_inuse2 share). */
typedef enum {
  UDP_BIND_APART,      /* no overlap (or both SO_REUSEADDR, or other devices) */
  UDP_BIND_SHARES,     /* overlaps, and sk may share the port with it (SO_REUSEPORT) */
  UDP_BIND_CONFLICTS   /* overlaps, and sk may not */
} UdpBindOverlap;

/* Whether sk2, bound to port num, stands in the way of sk's bind to num. */
static UdpBindOverlap
udp_bind_overlap (struct net *net, guint num, struct sock *sk, struct sock *sk2)
{
  if (sock_net (sk2) != net || sk2 == sk || udp_sk (sk2)->udp_port_hash != num)
    return UDP_BIND_APART;
  if (sk2->sk_reuse && sk->sk_reuse)
    return UDP_BIND_APART;
  if (sk2->sk_bound_dev_if && sk->sk_bound_dev_if &&
      sk2->sk_bound_dev_if != sk->sk_bound_dev_if)
    return UDP_BIND_APART;
  if (!inet_rcv_saddr_equal (sk, sk2, TRUE))
    return UDP_BIND_APART;
  if (sk2->sk_reuseport && sk->sk_reuseport && sk->sk_reuseport_cb == NULL &&
      sk->sk_uid == sk2->sk_uid)
    return UDP_BIND_SHARES;
  return UDP_BIND_CONFLICTS;
}

/* TRUE if port num is taken for sk (udp_lib_lport_inuse, primary-chain form). */
static gboolean
udp_lib_lport_inuse (struct net *net, guint num, struct udp_hslot *hslot, struct sock *sk)
{
  for (struct hlist_node *n = hslot->head.first; n != NULL; n = n->next) {
    switch (udp_bind_overlap (net, num, sk, sk_from_node (n))) {
    case UDP_BIND_APART:
      break;
    case UDP_BIND_CONFLICTS:
      return TRUE;
    case UDP_BIND_SHARES:
      /* the kernel returns at once (the first overlapping socket decides), unless the
       * build weighs them all (bind_scans_all) */
      if (!((struct udp_table *) sk->sk_prot)->bind_scans_all)
        return FALSE;
      break;
    }
  }
  return FALSE;
}

/* TRUE if the first socket on hash2 chain hslot2 that overlaps sk on port num may not share
 * it (udp_lib_lport_inuse2: that first one decides, whatever follows). */
static gboolean
udp_lib_lport_inuse2 (struct net *net, guint num, struct udp_hslot *hslot2, struct sock *sk)
{
  for (struct hlist_node *n = hslot2->head.first; n != NULL; n = n->next) {
    UdpBindOverlap o = udp_bind_overlap (net, num, sk, sk_from_portaddr_node (n));

    if (o != UDP_BIND_APART)
      return o == UDP_BIND_CONFLICTS;
  }
  return FALSE;
}

/* Whether bind() of sk checks the two hash2 chains rather than the primary one when the
 * port's primary slot holds more than 10 sockets: every bind before e537dd15d0d4, only one
 * to a specific address from it on (inet_use_hash2_on_bind: not ::, not ::ffff:0.0.0.0,
 * not 0.0.0.0). See udp.h, "bind() conflict check". */
static gboolean
udp_bind_uses_hash2 (const struct udp_table *tbl, const struct sock *sk)
{
  if (!tbl->bind_hash2_specific_only)
    return TRUE;
  if (sk->sk_family == AF_INET6) {
    if (ipv6_addr_any (&sk->sk_v6_rcv_saddr))
      return FALSE;
    if (!ipv6_addr_v4mapped (&sk->sk_v6_rcv_saddr))
      return TRUE;
  }
  return sk->sk_rcv_saddr != 0;
}

/* TRUE if snum is taken for sk, by the check the build's udp_lib_get_port runs: above 10
 * sockets in the primary slot (and no fewer than in sk's hash2 slot) sk's own hash2 chain
 * and then the wildcard's, else the primary chain. */
static gboolean
udp_bind_port_taken (struct sock *sk, guint snum, struct udp_hslot *hslot)
{
  struct udp_table *tbl = sk->sk_prot;
  struct net *net = sock_net (sk);
  guint slot2, nulladdr_slot2;
  gboolean taken;

  if (hslot->count <= 10 || !udp_bind_uses_hash2 (tbl, sk))
    return udp_lib_lport_inuse (net, snum, hslot, sk);
  slot2 = (udp_sk (sk)->udp_portaddr_hash ^ snum) & tbl->mask;
  /* the wildcard's hash2 value is the same for both families (ipv6_portaddr_hash hashes ::
   * as the IPv4 0.0.0.0) */
  nulladdr_slot2 = ipv4_portaddr_hash (net, 0, snum) & tbl->mask;
  if (hslot->count < udp_hashslot2 (tbl, slot2)->count)
    return udp_lib_lport_inuse (net, snum, hslot, sk);
  taken = udp_lib_lport_inuse2 (net, snum, udp_hashslot2 (tbl, slot2), sk);
  if (!taken && nulladdr_slot2 != slot2)
    taken = udp_lib_lport_inuse2 (net, snum, udp_hashslot2 (tbl, nulladdr_slot2), sk);
  return taken;
}

/* Joins a compatible group on the port, or starts one (udp_reuseport_add_sock). */
static gint
udp_reuseport_add_sock (struct sock *sk, struct udp_hslot *hslot)
{
  struct net *net = sock_net (sk);

  for (struct hlist_node *n = hslot->head.first; n != NULL; n = n->next) {
    struct sock *sk2 = sk_from_node (n);

    if (sock_net (sk2) == net && sk2 != sk && sk2->sk_family == sk->sk_family &&
        ipv6_only_sock (sk2) == ipv6_only_sock (sk) &&
        udp_sk (sk2)->udp_port_hash == udp_sk (sk)->udp_port_hash &&
        sk2->sk_bound_dev_if == sk->sk_bound_dev_if && sk2->sk_reuseport &&
        sk2->sk_uid == sk->sk_uid && inet_rcv_saddr_equal (sk, sk2, FALSE))
      return reuseport_add_sock (sk, sk2, inet_rcv_saddr_any (sk));
  }
  return reuseport_alloc (sk, inet_rcv_saddr_any (sk));
}

/* A free ephemeral port for sk, or 0. */
static guint
udp_pick_ephemeral (struct sock *sk)
{
  struct udp_table *tbl = sk->sk_prot;
  guint span = UDP_EPHEMERAL_HIGH - UDP_EPHEMERAL_LOW + 1;

  for (guint i = 0; i < span; i++) {
    guint port = UDP_EPHEMERAL_LOW + (tbl->port_rover - UDP_EPHEMERAL_LOW + i) % span;

    if (!udp_lib_lport_inuse (sock_net (sk), port, udp_hashslot (tbl, sock_net (sk), port), sk)) {
      tbl->port_rover = UDP_EPHEMERAL_LOW + (port - UDP_EPHEMERAL_LOW + 1) % span;
      return port;
    }
  }
  return 0;
}

/* Binds sk to snum and hashes it into the primary and hash2 chains. */
gint
udp_lib_get_port (struct sock *sk, guint snum)
{
  struct udp_table *tbl = sk->sk_prot;
  struct net *net = sock_net (sk);
  struct udp_hslot *hslot, *hslot2;
  gboolean tail;

  if (snum == 0) {
    snum = udp_pick_ephemeral (sk);
    if (snum == 0)
      return -EADDRINUSE;
  }
  hslot = udp_hashslot (tbl, net, snum);
  if (udp_bind_port_taken (sk, snum, hslot))
    return -EADDRINUSE;

  sk->sk_num = snum;
  udp_sk (sk)->udp_port_hash = snum;
  udp_sk (sk)->udp_portaddr_hash ^= snum;
  if (sk->sk_reuseport && udp_reuseport_add_sock (sk, hslot) != 0) {
    sk->sk_num = 0;
    udp_sk (sk)->udp_port_hash = 0;
    udp_sk (sk)->udp_portaddr_hash ^= snum;
    return -ENOMEM;
  }
  /* Reuseport AF_INET6 sockets go to the tail ("soreuseport: fix ordering for mixed v4/v6"). */
  tail = sk->sk_reuseport && sk->sk_family == AF_INET6;
  if (tail)
    hlist_add_tail (&sk->sk_node, &hslot->head);
  else
    hlist_add_head (&sk->sk_node, &hslot->head);
  hslot->count++;
  hslot2 = udp_hashslot2 (tbl, udp_sk (sk)->udp_portaddr_hash);
  if (tail)
    hlist_add_tail (&udp_sk (sk)->udp_portaddr_node, &hslot2->head);
  else
    hlist_add_head (&udp_sk (sk)->udp_portaddr_node, &hslot2->head);
  hslot2->count++;
  return 0;
}

/* Removes sk from its hash4 chain (v6.13+). */
void
udp_unhash4 (struct sock *sk)
{
  struct udp_table *tbl = sk->sk_prot;
  struct udp_sock *up = udp_sk (sk);
  struct udp_hslot_main *hslot2;

  if (!up->ns_hashed4)
    return;
  hlist_del_init (&up->udp_lrpa_node);
  udp_hashslot4 (tbl, up->udp_lrpa_hash)->count--;
  hslot2 = (struct udp_hslot_main *) udp_hashslot2 (tbl, up->udp_portaddr_hash);
  hslot2->hash4_cnt--;
  up->ns_hashed4 = FALSE;
}

/* Unhashes sk from every chain and its group (udp_lib_unhash). */
void
udp_lib_unhash (struct sock *sk)
{
  struct udp_table *tbl = sk->sk_prot;
  struct udp_hslot *hslot, *hslot2;

  if (hlist_unhashed (&sk->sk_node))
    return;
  hslot = udp_hashslot (tbl, sock_net (sk), udp_sk (sk)->udp_port_hash);
  hslot2 = udp_hashslot2 (tbl, udp_sk (sk)->udp_portaddr_hash);
  reuseport_detach_sock (sk);
  hlist_del_init (&sk->sk_node);
  hslot->count--;
  sk->sk_num = 0;
  hlist_del_init (&udp_sk (sk)->udp_portaddr_node);
  hslot2->count--;
  udp_unhash4 (sk);
}

/* The local address changed: move sk to its new hash2 chain; detach it from its group. */
void
udp_lib_rehash (struct sock *sk, guint16 newhash)
{
  struct udp_table *tbl = sk->sk_prot;
  struct udp_hslot *hslot2, *nhslot2;

  if (hlist_unhashed (&sk->sk_node))
    return;
  hslot2 = udp_hashslot2 (tbl, udp_sk (sk)->udp_portaddr_hash);
  nhslot2 = udp_hashslot2 (tbl, newhash);
  if (hslot2 != nhslot2 || sk->sk_reuseport_cb != NULL) {
    if (sk->sk_reuseport_cb != NULL)
      reuseport_detach_sock (sk);
    if (hslot2 != nhslot2) {
      if (udp_sk (sk)->ns_hashed4) {
        ((struct udp_hslot_main *) hslot2)->hash4_cnt--;
        ((struct udp_hslot_main *) nhslot2)->hash4_cnt++;
      }
      hlist_del_init (&udp_sk (sk)->udp_portaddr_node);
      hslot2->count--;
      hlist_add_head (&udp_sk (sk)->udp_portaddr_node, &nhslot2->head);
      nhslot2->count++;
    }
  }
  udp_sk (sk)->udp_portaddr_hash = newhash;
}

/* udp_v4_rehash: moves sk to the hash2 slot of its current local address and port. */
void
udp_v4_rehash (struct sock *sk)
{
  guint16 new_hash = ipv4_portaddr_hash (sock_net (sk), sk->sk_rcv_saddr, sk->sk_num);

  udp_lib_rehash (sk, new_hash);
}

/* Puts a connected sk on its hash4 chain; detaches it from its group (udp_lib_hash4). */
void
udp_lib_hash4 (struct sock *sk, guint16 hash)
{
  struct udp_table *tbl = sk->sk_prot;
  struct udp_sock *up = udp_sk (sk);
  struct udp_hslot *hslot4;

  if (up->ns_hashed4)
    return;
  hslot4 = udp_hashslot4 (tbl, hash);
  up->udp_lrpa_hash = hash;
  reuseport_detach_sock (sk);
  hlist_add_head (&up->udp_lrpa_node, &hslot4->head);
  hslot4->count++;
  ((struct udp_hslot_main *) udp_hashslot2 (tbl, up->udp_portaddr_hash))->hash4_cnt++;
  up->ns_hashed4 = TRUE;
}

/* udp4_hash4: hash a connected socket with a specific local address. */
void
udp4_hash4 (struct sock *sk)
{
  struct udp_table *tbl = sk->sk_prot;

  if (!tbl->has_hash4 || hlist_unhashed (&sk->sk_node) || sk->sk_rcv_saddr == 0)
    return;
  udp_lib_hash4 (sk, udp_ehashfn (tbl, sock_net (sk), sk->sk_rcv_saddr, sk->sk_num,
                                  sk->sk_daddr, sk->sk_dport));
}

/* ---- bind / connect / close ---- */

/* IPv4 bind of an AF_INET socket (inet_bind → udp_v4_get_port). */
static gint
udp4_bind (struct sock *sk, const struct sockaddr *uaddr, gint addr_len)
{
  const struct sockaddr_in *sin = (const struct sockaddr_in *) uaddr;
  guint snum;
  gint err;

  if (addr_len < (gint) sizeof (*sin))
    return -EINVAL;
  if (sin->sin_family != AF_INET)
    return -EAFNOSUPPORT;
  sk->sk_rcv_saddr = sin->sin_addr.s_addr;
  inet_sk (sk)->inet_saddr = sin->sin_addr.s_addr;
  snum = GUINT16_FROM_BE (sin->sin_port);
  /* udp_v4_get_port: precompute the partial secondary hash, then get the port. */
  udp_sk (sk)->udp_portaddr_hash = ipv4_portaddr_hash (sock_net (sk), sk->sk_rcv_saddr, 0);
  err = udp_lib_get_port (sk, snum);
  if (err != 0) {
    sk->sk_rcv_saddr = 0;
    inet_sk (sk)->inet_saddr = 0;
    return err;
  }
  if (sk->sk_rcv_saddr)
    sk->sk_userlocks |= SOCK_BINDADDR_LOCK;
  if (snum)
    sk->sk_userlocks |= SOCK_BINDPORT_LOCK;
  inet_sk (sk)->inet_sport = GUINT16_TO_BE (sk->sk_num);
  return 0;
}

/* bind(): -EINVAL if already bound, else the family's bind. */
gint
udp_sock_bind (struct sock *sk, const struct sockaddr *uaddr, gint addr_len)
{
  g_return_val_if_fail (sk != NULL && uaddr != NULL, -EINVAL);
  if (sk->sk_num != 0)
    return -EINVAL;
  if (sk->sk_family == AF_INET6)
    return udp6_bind (sk, uaddr, addr_len);
  return udp4_bind (sk, uaddr, addr_len);
}

/* Automatic bind to the wildcard address and an ephemeral port (inet_autobind). */
static gint
udp_autobind (struct sock *sk)
{
  if (sk->sk_family == AF_INET6) {
    struct sockaddr_in6 any6 = { .sin6_family = AF_INET6 };
    return udp6_bind (sk, (const struct sockaddr *) &any6, sizeof (any6));
  } else {
    struct sockaddr_in any = { .sin_family = AF_INET };
    return udp4_bind (sk, (const struct sockaddr *) &any, sizeof (any));
  }
}

/* __ip4_datagram_connect with the route's source src (network order). */
gint
__ip4_datagram_connect (struct sock *sk, be32 daddr, be16 dport, be32 src)
{
  struct inet_sock *inet = inet_sk (sk);

  if (!inet->inet_saddr)
    inet->inet_saddr = src;
  if (!sk->sk_rcv_saddr) {
    sk->sk_rcv_saddr = src;
    udp_rehash (sk);
  }
  sk->sk_daddr = daddr;
  sk->sk_dport = dport;
  reuseport_has_conns_set (sk);
  sk->sk_state = TCP_ESTABLISHED;
  return 0;
}

/* Source address the loopback route gives, or the caller's. */
static be32
route_src4 (const struct sockaddr *src)
{
  if (src != NULL && src->sa_family == AF_INET)
    return ((const struct sockaddr_in *) src)->sin_addr.s_addr;
  return GUINT32_TO_BE (0x7f000001);
}

/* connect(): autobinds an unbound sk (-EAGAIN if that fails), then connects it as its
 * family does (udp.h). */
gint
udp_sock_connect (struct sock *sk, const struct sockaddr *uaddr, gint addr_len,
                  const struct sockaddr *src)
{
  const struct sockaddr_in *sin = (const struct sockaddr_in *) uaddr;
  gint err;

  g_return_val_if_fail (sk != NULL && uaddr != NULL, -EINVAL);
  if (sk->sk_num == 0 && (err = udp_autobind (sk)) != 0)
    return -EAGAIN;
  if (sk->sk_family == AF_INET6)
    return udp6_connect (sk, uaddr, addr_len, src);
  if (addr_len < (gint) sizeof (*sin))
    return -EINVAL;
  if (sin->sin_family != AF_INET)
    return -EAFNOSUPPORT;
  udp_unhash4 (sk);                     /* re-connect: rehash4 */
  err = __ip4_datagram_connect (sk, sin->sin_addr.s_addr, sin->sin_port, route_src4 (src));
  if (err == 0)
    udp4_hash4 (sk);
  return err;
}

/* close(): unhashes sk (leaving its group) and returns its memory to its slab cache or the
 * arena. */
void
udp_sock_close (struct sock *sk)
{
  struct udp_table *tbl;

  g_return_if_fail (sk != NULL);
  tbl = sk->sk_prot;
  udp_lib_unhash (sk);
  ns_arena_clear_layout (tbl->arena, sk);
  if (sock_cache (tbl, sk->sk_family) != NULL)
    ns_kmem_cache_free (sock_cache (tbl, sk->sk_family), sk);
  else
    ns_arena_release (tbl->arena, sk, udp_obj_size (sk->sk_family));
}
