/* udp.h — the UDP socket table and the kernel-equivalent socket lookup (IPv4 and IPv6).
 *
 * Mirrors net/ipv4/udp.c, net/ipv6/udp.c, include/net/udp.h and net/core/sock_reuseport.c
 * (kernel-spec.md §1). A struct udp_table belongs to one simulated kernel build: which
 * lookup code runs is a property of that build (its version and patches), never of the
 * caller. Generations (§1.4), taken from the release with its stable sublevel where a
 * stable series took the commit that starts one (ns_kernel_release_has, sim/kchange.h):
 *
 *   A  < 5.0       not modelled: udp_table_new() refuses such a build.
 *   B0 5.0 … 5.3   e32ea7e74727 ("soreuseport: fast reuseport UDP socket selection"): the
 *                  first socket that raises badness, connected or not, hands the flow to its
 *                  group, and whatever member the hash selects answers at once (connected
 *                  members included: the bug the next commit fixed). Stable 5.2.17+ and
 *                  5.3.1+ are B1.
 *   B1 5.4 … 5.7   acdcecc61285 ("udp: correct reuseport selection with connected
 *                  sockets", 12 Sep 2019; first in v5.4-rc1, stable 5.2.17, 5.3.1 and
 *                  4.19.75): a connected chain socket is not handed to its group,
 *                  select_by_hash skips connected members, connect() marks the group
 *                  has_conns, and a selection answers at once only while the group has no
 *                  connected member; otherwise it is DISCARDED (result = sk, badness =
 *                  score) and the walk goes on, so the first unconnected member on the
 *                  chain takes every such flow. Stable 5.4.55+ and 5.7.12+ are B.
 *   B  5.8 … 6.5   efc6b6f6c311 ("udp: Improve load balancing for SO_REUSEPORT.", net, in
 *                  v5.8-rc7; stable 5.4.55, 5.7.12 and 4.19.136): as B1, but a selection in
 *                  a group with connections is KEPT (result = selection ?: sk) with the
 *                  chain socket's score. Also a ≥ 6.6 build with the patch
 *                  "revert-udp-rescore".
 *   C  6.6 … 6.9   f0ea27e7bfe1 (v6.6-rc1; stable 6.5.3, 6.4.16, 6.1.53, 5.15.132,
 *                  5.10.195, so 6.1.53 … 6.1.92 are C): re-score through a SECOND
 *                  compute_score call site
 *                  (compute_score then has 2 call sites and is not inlined). IPv4
 *                  re-scores the selected socket; IPv6 re-scores the chain socket `sk`
 *                  (the hunk the seed's patch removes), so IPv6 C picks what B picks.
 *   D  ≥ 6.10      50aee97d1511 (v6.10-rc1; stable 6.9.3, 6.8.12, 6.6.33, 6.1.93, 5.15.161,
 *                  5.10.219; patch "udp-compute-score-single-site" on 6.6 … 6.9): one
 *                  call site, jump back to re-score `result`; compute_score is folded in.
 *                  This is the merged commit, with its `if (need_rescore) continue;`; the
 *                  seed's v2 lacks that line and, after a re-score that raised badness,
 *                  selects and re-scores once more before settling on the same socket.
 *
 * Version-dependent details, all taken from the build's version (major.minor, but the
 * release with its sublevel where ns_kernel_release_has (sim/kchange.h) says so):
 *   - device bonus (§1.3.7): +4 (v4) / +1 (v6) for any device match before 8d6c414cd2fb
 *     (5.15-rc5; stable 5.14.12, 5.10.73, 5.4.153), only for a socket bound to a device
 *     from it on;
 *   - reuseport select_by_hash (§1.6.3): ≥ 5.4-rc1, 5.2.17, 5.3.1 (acdcecc61285, "udp:
 *     correct reuseport selection with connected sockets") walks on from
 *     socks[reciprocal_scale(hash, n)] past TCP_ESTABLISHED members (NULL if all are);
 *     before, it returns that member, connected or not. ≥ 6.2-rc1, 6.0.16, 6.1.2
 *     (b261eda84ec1, "soreuseport: Fix socket selection for SO_INCOMING_CPU.", net-next
 *     25 Oct 2022, after v6.1-rc1) also prefers a member whose SO_INCOMING_CPU is the
 *     current CPU while the group's incoming_cpu counter is non-zero;
 *   - hash4 (§1.5.8, §1.7): ≥ 6.13. connect() of a socket with a specific local address puts
 *     it on the four-tuple chain and DETACHES it from its reuseport group; a lookup whose
 *     hslot2 has hash4_cnt > 0 first walks the hash4 chain and returns the first exact
 *     (netns, addresses, ports, device) match;
 *   - lookup1 (§1.5.9): ≥ 6.14 (and 6.13.2, 6.12.13), a primary-chain scan after an empty phase 2. Without
 *     concurrent rehash it never finds a socket the two phases missed (it scores with the
 *     packet's exact daddr), so it only adds cost on misses.
 *
 * Where the host's 6.18 and a 6.9 build can pick DIFFERENT sockets for the same table
 * (for the differential test: classify these, do not count them as model errors):
 *   H1 two or more connected sockets with the same 4-tuple (SO_REUSEADDR/REUSEPORT):
 *      6.9 takes the highest score (bound device +4, SO_INCOMING_CPU +1, then chain order,
 *      head = most recent), 6.13+ the first inet_match on the hash4 chain (head = the most
 *      recently connected), ignoring the CPU bonus and the device bonus.
 *   H2 a reuseport group in which a member bound to a specific address connect()ed:
 *      6.13+ detaches that member, so the group has one member fewer and
 *      reciprocal_scale(hash, n) picks among n-1 sockets in a different order
 *      (reuseport_detach_sock moves the last member into the hole). The set of possible
 *      receivers is the same; which member gets a given flow differs. (Members bound to
 *      the wildcard are detached by the rehash of connect() in every version.)
 *   H3 the reuseport hash secret is random per boot on the host: compare group
 *      membership (udp_sock_reuseport_group), never which member was picked.
 *   H4 bind(): 6.9's udp_lib_lport_inuse returns "free" at the first overlapping socket
 *      on the port's chain (head = most recent) that sk may share the port with
 *      (SO_REUSEPORT both, same uid), never looking further; a 6.18.44 host on 2026-12-04
 *      refused such a bind when a later overlapping socket may not share (a plain
 *      127.0.0.2 bound before a reuseport 127.0.0.1 refuses a reuseport 0.0.0.0; it
 *      refuses the reverse order too, so it is not the chain's order). No upstream commit
 *      explains this (the 6.18-era udp_lib_lport_inuse still returns at the first
 *      shareable socket) and the same release string accepted it on 2026-12-03, so it
 *      cannot follow from the version: the model keeps 6.9's rule for every version, and
 *      the differential test probes the host and sets udp_table_set_bind_scans_all ().
 *
 * bind() conflict check (udp_lib_get_port, snum given): when the port's primary slot holds
 * more than 10 sockets (and no fewer than sk's hash2 slot), the kernel checks sk's own
 * hash2 chain and then the wildcard's (udp_lib_lport_inuse2: the first overlapping socket
 * decides), else the primary chain. Before e537dd15d0d4 (mainline 7.0, not its -rcs per
 * NVD; stables 6.19.11, 6.18.21, 6.12.80, 6.6.131, 6.1.168) a wildcard bind took that path
 * too and so never saw sockets bound to specific addresses: 6.9 accepts a plain 0.0.0.0
 * bind after a plain
 * 127.0.0.2 and 11 SO_REUSEADDR 127.0.0.1 sockets on the port, which the fixed kernels
 * refuse. The model runs the build's check (bind_hash2_specific_only).
 *   Not modelled (same on both): BPF sk_lookup / reuseport programs, bind()'s check that the
 *   address is local (EADDRNOTAVAIL), disconnect (connect AF_UNSPEC), l3mdev/VRF devices
 *   beyond the sdif argument.
 *
 * B0 and B1 are not equivalent to the later generations, by design: for a group with a
 * connected member B0 may hand another flow to the connected member and B1 gives every
 * other flow to the first unconnected member on the chain, where B spreads them by hash
 * over the unconnected members (test-udp.c test_generations_before_5_8). For a group
 * without connected members all five return select_by_hash's member at once.
 * Generations B and D differ in one case only (test-udp.c proves it on random tables,
 * with C ≡ D for IPv4 and C ≡ B for IPv6): a reuseport group that has a connected member,
 * where the member the hash selects has the SO_INCOMING_CPU bonus and the chain socket
 * that led to it does not. D (and IPv4 C) re-score the selection (badness + 1); B (and
 * IPv6 C) keep the chain socket's score, so a later socket on the chain scoring exactly
 * that +1 wins in B and loses in D.
 * udp_table_stats()->rescore_raised counts lookups where this re-score raised badness.
 *
 * Setup operations (create, bind, connect, setsockopt, close) are control plane: they
 * change the table with the kernel's semantics but charge no cycles. The two lookups run
 * inside the CPU model and charge everything they touch. */
#pragma once
#include <netinet/in.h>
#include <sys/socket.h>
#include "machine.h"
#include "sock.h"
#include "slab.h"

G_BEGIN_DECLS

/* struct udp_hslot: chain head, count, lock; aligned to 2 * sizeof(long) = 16 bytes. */
struct udp_hslot {
  struct hlist_head head;
  gint              count;
  NsSpinlock        lock;
} __attribute__ ((aligned (16)));

/* v6.13+: hash2 slots carry the number of hash4 sockets hashed under them (32 bytes). */
struct udp_hslot_main {
  struct udp_hslot hslot;
  guint32          hash4_cnt;
} __attribute__ ((aligned (16)));

G_STATIC_ASSERT (sizeof (struct udp_hslot) == 16);
G_STATIC_ASSERT (sizeof (struct udp_hslot_main) == 32);

/* The value is the generation's last character ('0', '1', 'B', 'C', 'D'). */
typedef enum {
  UDP_GEN_B0 = '0',
  UDP_GEN_B1 = '1',
  UDP_GEN_B = 'B',
  UDP_GEN_C = 'C',
  UDP_GEN_D = 'D'
} UdpLookupGen;

/* Counters a table keeps about its lookups (model bookkeeping, not kernel state). */
typedef struct {
  guint64 lookups;          /* __udp4_lib_lookup + __udp6_lib_lookup calls */
  guint64 scored;           /* compute_score evaluations (both call sites) */
  guint64 rescored;         /* re-scores of a reuseport selection (C, D) */
  guint64 rescore_raised;   /* ... that raised badness above the chain socket's score */
  guint64 reuseport_selects;/* reuseport_select_sock calls that returned a socket */
  guint64 hash4_hits;       /* lookups answered by the hash4 chain (≥ 6.13) */
  guint64 misses;           /* lookups that returned NULL */
} UdpTableStats;

/* The table (struct udp_table): primary (port) slots, hash2 (port + address) slots and, for
 * ≥ 6.13, hash4 slots; one mask. Kernel state plus the build facts the code depends on. */
struct udp_table {
  struct udp_hslot *hash;          /* primary slots, [mask + 1] */
  guint8           *hash2;         /* hash2 slots: udp_hslot (16 B) or udp_hslot_main (32 B) */
  struct udp_hslot *hash4;         /* ≥ 6.13: four-tuple slots, else NULL */
  guint             mask;
  guint             log;
  guint             hash2_stride;  /* 16 or 32 */
  /* hash secrets (net_get_random_once in the kernel; settable for determinism) */
  guint32           udp_ehash_secret;
  guint32           udp6_ehash_secret;
  guint32           udp_ipv6_hash_secret;
  /* the build's lookup code */
  UdpLookupGen      gen;
  guint             version;       /* major * 1000 + minor, e.g. 6009 */
  gboolean          dev_bonus_always;   /* before 8d6c414cd2fb (ns_kernel_release_has, sim/kchange.h) */
  gboolean          ipv6_jhash2;   /* d11b0df7ddf1: jhash2 of an IPv6 address */
  gboolean          shared_reuseport_lookup; /* inet(6)_lookup_reuseport, not the UDP copy */
  gboolean          select_skips_established; /* acdcecc61285 (ns_kernel_release_has, sim/kchange.h) */
  gboolean          select_prefers_cpu;       /* b261eda84ec1 (ns_kernel_release_has, sim/kchange.h) */
  gboolean          has_hash4;     /* 78c91ae2c6de (v6.13) */
  gboolean          has_lookup1;   /* a502ea6fa94b (v6.14; 6.13.2, 6.12.13) */
  const guint16    *sock_layout;   /* before 5d4cc87414c5: sockets charged at v6.1's
                                      offsets (sock_layout_map_v6_1), else NULL */
  gboolean          bind_scans_all; /* bind: every overlapping socket counts (H4); FALSE */
  gboolean          bind_hash2_specific_only; /* bind: the hash2 check only for a specific
                                                 address (e537dd15d0d4: 7.0, stables) */
  /* model bookkeeping */
  NsArena          *arena;
  NsBuild          *build;
  NsKmemCache      *sock_cache[2]; /* the UDP and UDPv6 slab caches, or NULL: the arena */
  gsize             alloc_bytes;
  guint32           next_id;
  guint32           next_group_id;
  guint16           port_rover;    /* next ephemeral port to try for bind(port 0) */
  /* in6addr_any, a global of the kernel's .rodata (net/ipv6/addrconf_core.c): the
   * wildcard lookup hashes and compares it, so it lives here, in simulated memory */
  ns_in6_addr       in6addr_any;
  UdpTableStats     stats;
};

/* The model functions (so tests can read their call/inlining counts from the account). */
extern NsFunc udp_fn_compute_score;       /* net/ipv4/udp.c compute_score */
extern NsFunc udp_fn_udp4_lib_lookup2;
extern NsFunc udp_fn___udp4_lib_lookup;
extern NsFunc udp6_fn_compute_score;      /* net/ipv6/udp.c compute_score */
extern NsFunc udp6_fn_udp6_lib_lookup2;
extern NsFunc udp6_fn___udp6_lib_lookup;
extern NsFunc reuseport_fn_reuseport_select_sock;

/* ---- table and netns ---- */

/* A table of `entries` slots (a power of two, 256 … 65536; 0 = 256) allocated from arena,
 * running the lookup code of `build`. NULL with an error for an unsupported build (< 5.0).
 * arena must be the machine's (ns_machine_arena): the lookups charge loads of the table, the
 * sockets and the groups, and the machine only knows simulated memory. Records in build
 * that compute_score has one call site when its generation is not C. */
struct udp_table *udp_table_new          (NsArena *arena, NsBuild *build, guint entries,
                                          GError **error);
/* Closes every socket still hashed and frees the table. */
void              udp_table_free         (struct udp_table *tbl);
/* From now on the table's sockets come from two slab caches, "UDP" (struct udp_sock)
 * and "UDPv6" (struct udp6_sock), laid out for a machine of n_cpus CPUs, their freelists
 * shuffled from seed when shuffle (CONFIG_SLAB_FREELIST_RANDOM); before, and without
 * this call, they are packed in creation order in the arena with everything else. */
void              udp_table_use_slab_caches (struct udp_table *tbl, guint n_cpus,
                                             gboolean shuffle, guint64 seed);
/* TRUE if kernel release `release` ("5.4.55", "6.2-rc1", "6.18.44-fc"; "5.4" is 5.4.0, a
 * mainline -rc comes before its .0) has `change`: from the first mainline release with it,
 * or in a stable series that took it, from the release that took it on (the table and its
 * sources are in udp.c). */
UdpLookupGen      udp_table_generation   (const struct udp_table *tbl);
/* Sets udp_ehash_secret (IPv4 reuseport/hash4 hash), udp6_ehash_secret and
 * udp_ipv6_hash_secret (IPv6). Defaults: fixed values, so runs are deterministic. */
void              udp_table_set_hash_secrets (struct udp_table *tbl, guint32 udp_ehash_secret,
                                              guint32 udp6_ehash_secret,
                                              guint32 udp_ipv6_hash_secret);
const UdpTableStats *udp_table_stats     (const struct udp_table *tbl);
void              udp_table_reset_stats  (struct udp_table *tbl);
/* Makes bind() (udp_lib_get_port) refuse sk if ANY socket on the port's chain overlaps it
 * and may not share the port, as the test host's kernel does (H4); default FALSE: the
 * first overlapping socket decides, as up to 6.9 at least. */
void              udp_table_set_bind_scans_all (struct udp_table *tbl, gboolean scans_all);
/* hash2 slot for a full (masked inside) hash value. */
struct udp_hslot *udp_hashslot2          (struct udp_table *tbl, guint hash);
/* hash4_cnt of a hash2 slot (0 before 6.13). */
guint             udp_hslot2_hash4_cnt   (const struct udp_table *tbl,
                                          const struct udp_hslot *hslot2);

/* A network namespace with its hash mix, allocated from arena. */
struct net       *ns_net_new             (NsArena *arena, guint32 hash_mix, guint32 ns_id);
void              ns_net_free            (NsArena *arena, struct net *net);

/* ---- hashes (§1.2) ---- */
guint32  net_hash_mix        (const struct net *net);
guint    udp_hashfn          (const struct net *net, guint num, guint mask);
guint32  ipv4_portaddr_hash  (const struct net *net, be32 saddr, guint port);
guint32  ipv6_portaddr_hash  (const struct net *net, const ns_in6_addr *addr6, guint port);
/* udp_ehashfn / udp6_ehashfn: the kernel keeps the secrets in globals, the model in tbl. */
guint32  udp_ehashfn         (const struct udp_table *tbl, const struct net *net, be32 laddr,
                              guint16 lport, be32 faddr, be16 fport);
guint32  udp6_ehashfn        (const struct udp_table *tbl, const struct net *net,
                              const ns_in6_addr *laddr, guint16 lport,
                              const ns_in6_addr *faddr, be16 fport);

/* ---- sockets (control plane; errors are negative errno values like the kernel's) ---- */

/* An unbound UDP socket of family AF_INET or AF_INET6 (dual-stack unless IPV6_V6ONLY),
 * owner uid 0, sk_incoming_cpu -1, from the table's slab cache of that family or, without
 * one, 64-byte aligned from its arena. */
struct sock *udp_sock_create        (struct udp_table *tbl, struct net *net, gint family);
/* The same, allocated on cpu: from that CPU's slab of the cache (udp_sock_create: CPU 0). */
struct sock *udp_sock_create_on     (struct udp_table *tbl, struct net *net, gint family,
                                     guint cpu);
/* SO_REUSEADDR / SO_REUSEPORT (before bind, as applications do). */
void         udp_sock_set_reuseaddr (struct sock *sk, gboolean on);
void         udp_sock_set_reuseport (struct sock *sk, gboolean on);
/* Owner uid (reuseport groups need one owner). */
void         udp_sock_set_uid       (struct sock *sk, guint32 uid);
/* IPV6_V6ONLY: -EINVAL on an AF_INET socket or once bound. */
gint         udp_sock_set_v6only    (struct sock *sk, gboolean on);
/* SO_BINDTODEVICE (ifindex 0 unbinds). On a hashed socket this rehashes, which detaches it
 * from its reuseport group like the kernel's udp_lib_rehash. */
gint         udp_sock_bind_to_device (struct sock *sk, gint ifindex);
/* SO_INCOMING_CPU (also updates the group's incoming_cpu counter, 6.2+). */
gint         udp_sock_set_incoming_cpu (struct sock *sk, gint cpu);
/* bind(): sockaddr_in or sockaddr_in6 (v4-mapped allowed on a dual-stack socket). Port 0
 * picks a free ephemeral port (deterministically: the lowest free one from 32768 upward
 * past the table's rover). -EADDRINUSE, -EINVAL, -EAFNOSUPPORT as the kernel returns. */
gint         udp_sock_bind          (struct sock *sk, const struct sockaddr *uaddr, gint addr_len);
/* connect(): sets the peer; an unbound socket is auto-bound first. A wildcard local
 * address is replaced by the route's source (src, or the loopback rule when src is NULL:
 * 127.0.0.1 for IPv4, ::1 for IPv6) and the socket is rehashed into that address's hash2
 * chain (udp_lib_rehash; detaches it from its reuseport group). Sets has_conns on its group
 * (if still in one) and, ≥ 6.13, hashes it into hash4. */
gint         udp_sock_connect       (struct sock *sk, const struct sockaddr *uaddr, gint addr_len,
                                     const struct sockaddr *src);
/* close(): unhash (detaching from any reuseport group) and free. */
void         udp_sock_close         (struct sock *sk);
/* Creation number within the table (0, 1, …): stable names for tests. */
guint32      udp_sock_id            (const struct sock *sk);

/* ---- reuseport groups (net/core/sock_reuseport.c) ---- */

/* The group sk is in, or NULL. */
struct sock_reuseport *udp_sock_reuseport_group (const struct sock *sk);
guint        reuseport_group_size   (const struct sock_reuseport *reuse);
gboolean     reuseport_group_has_conns (const struct sock_reuseport *reuse);
/* Members with SO_INCOMING_CPU set (the group's 6.2+ incoming_cpu counter). */
guint        reuseport_group_incoming_cpu (const struct sock_reuseport *reuse);
/* The i-th member (socks[i]), or NULL. */
struct sock *reuseport_group_member (const struct sock_reuseport *reuse, guint i);

/* ---- the lookups (data plane, inside the CPU model) ---- */

/* The socket that receives an IPv4 datagram saddr:sport → daddr:dport arriving on device
 * dif (sdif: the VRF slave, else 0), or NULL (ICMP port unreachable). t is the softirq
 * thread doing the lookup (it must run on a machine's engine); its CPU is
 * raw_smp_processor_id() for the SO_INCOMING_CPU bonus. skb may be NULL. */
struct sock *__udp4_lib_lookup (NsThread *t, struct net *net, be32 saddr, be16 sport,
                                be32 daddr, be16 dport, gint dif, gint sdif,
                                struct udp_table *tbl, struct sk_buff *skb);
/* The IPv6 twin. */
struct sock *__udp6_lib_lookup (NsThread *t, struct net *net, const ns_in6_addr *saddr,
                                be16 sport, const ns_in6_addr *daddr, be16 dport,
                                gint dif, gint sdif, struct udp_table *tbl,
                                struct sk_buff *skb);

G_END_DECLS
