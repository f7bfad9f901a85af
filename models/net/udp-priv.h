/* udp-priv.h — what udp.c, udp6.c and reuseport.c share (not for other model files). */
#pragma once
#include "udp.h"

G_BEGIN_DECLS

/* Ephemeral range (net.ipv4.ip_local_port_range default). */
#define UDP_EPHEMERAL_LOW   32768
#define UDP_EPHEMERAL_HIGH  60999

/* sk_userlocks bits (include/net/sock.h). */
#define SOCK_BINDADDR_LOCK  4
#define SOCK_BINDPORT_LOCK  8

/* ---- sock_reuseport.h ---- */
gint          reuseport_alloc              (struct sock *sk, gboolean bind_inany);
gint          reuseport_add_sock           (struct sock *sk, struct sock *sk2, gboolean bind_inany);
void          reuseport_detach_sock        (struct sock *sk);
void          reuseport_update_incoming_cpu (struct sock *sk, gint val);
void          reuseport_has_conns_set      (struct sock *sk);
gboolean      reuseport_has_conns          (NsThread *t, struct sock *sk);
struct sock  *reuseport_select_sock        (NsThread *t, struct sock *sk, guint32 hash,
                                            struct sk_buff *skb, gint hdr_len, gint cpu);

/* ---- shared by the IPv4 and IPv6 halves ---- */

/* Lookup instruction counts of udp4_lib_lookup2 (doc/census/seed000/receive.md, section
 * D: 62 + 31·N, P/E 17). The IPv6 twin has its own census (receive6.md) and shares only
 * the result step, which that census confirms. */
#define UDP_LOOKUP2_FIXED_INSNS  19  /* census: outside the chain entries (36 less P/E 17) */
#define UDP_CHAIN_STEP_INSNS      6  /* census: node → sk and the loop step, per entry */
#define UDP_LOOKUP2_RESULT_INSNS 10  /* census 26 for the match, less compute_score's 16
                                        past the reject (the split: estimate): badness,
                                        the state test, result */
#define UDP_SCORE_CALL_INSNS     11  /* estimate: an out-of-line compute_score call's
                                        argument set-up and score compare */
#define UDP_CHAIN_STEP_PAIRS      1  /* census of forms: the end-of-list test/je */

/* The _PAIRS counts: the census of forms (doc/census/seed000/receive.md and receive6.md,
 * "Compare forms") in Debian 6.1's udp4_lib_lookup2 and udp6_lib_lookup2, charged with
 * ns_insns_compares: CMP/TEST of register-register, -immediate and register-memory forms
 * fuse with a Jcc on every modelled core (Intel Sandy Bridge to Cascade Lake
 * macro-fusion, AMD branch fusion: LLVM X86BaseInfo.h, classifyFirstOpcodeInMacroFusion);
 * memory-immediate compares (testb $0x20, 0x13(%r13)) and OR + Jcc (fused from Zen 3 only)
 * are counted unfused. */

/* Charges UDP_SCORE_CALL_INSNS to the caller when tbl's build keeps fn out of line. */
void          udp_score_call_setup         (NsThread *t, struct udp_table *tbl, NsFunc *fn);

/* udp[46]_lib_lookup2's test that keeps a connected chain socket out of group selection
 * (from 5.4; FALSE before), with the sk_state load. */
gboolean      udp_lookup2_sk_connected     (NsThread *t, const struct udp_table *tbl,
                                            struct sock *sk);
/* raw_smp_processor_id() of the thread running the lookup. */
gint          udp_current_cpu              (NsThread *t, const struct udp_table *tbl);
/* udp_sk_bound_dev_eq → inet_bound_dev_eq (loads net.ipv4.udp_l3mdev_accept): scoring. */
gboolean      udp_sk_bound_dev_eq          (NsThread *t, struct net *net, gint bound_dev_if,
                                            gint dif, gint sdif);
/* inet_sk_bound_dev_eq → inet_bound_dev_eq (loads net.ipv4.tcp_l3mdev_accept): inet_match
 * and inet6_match, i.e. the hash4 chain. */
gboolean      inet_sk_bound_dev_eq         (NsThread *t, struct net *net, gint bound_dev_if,
                                            gint dif, gint sdif);
/* Primary slot of a local port. */
struct udp_hslot *udp_hashslot             (struct udp_table *tbl, const struct net *net,
                                            guint num);
struct udp_hslot *udp_hashslot4            (struct udp_table *tbl, guint hash);
/* Charged forms used by the lookups: tbl->hash2 / mask loads, hash4_cnt load. */
struct udp_hslot *udp_hashslot2_charged    (NsThread *t, struct udp_table *tbl, guint hash);
gboolean      udp_has_hash4                (NsThread *t, struct udp_table *tbl,
                                            struct udp_hslot *hslot2);
/* hlist walking with the loads the kernel's RCU walk does (pointer chase). */
struct hlist_node *udp_chain_first         (NsThread *t, struct udp_hslot *hslot);
struct hlist_node *udp_chain_next          (NsThread *t, struct hlist_node *node);

/* udp_lib_get_port: snum 0 = ephemeral. udp_portaddr_hash must hold the partial hash (of
 * the bound address with port 0). Conflicts are checked as the build's kernel checks them:
 * on the primary chain, or above 10 sockets in the port's primary slot on sk's and the
 * wildcard's hash2 chains (for every bind before e537dd15d0d4, only for a specific address
 * from it on; udp.h, "bind() conflict check"). 0 or -EADDRINUSE. */
gint          udp_lib_get_port             (struct sock *sk, guint snum);
void          udp_lib_unhash               (struct sock *sk);
void          udp_lib_rehash               (struct sock *sk, guint16 newhash);
void          udp_lib_hash4                (struct sock *sk, guint16 hash);
void          udp_unhash4                  (struct sock *sk);
gboolean      inet_rcv_saddr_equal         (const struct sock *sk, const struct sock *sk2,
                                            gboolean match_wildcard);
gboolean      inet_rcv_saddr_any           (const struct sock *sk);

/* IPv6 halves of the control plane (udp6.c). */
gint          udp6_bind                    (struct sock *sk, const struct sockaddr *uaddr,
                                            gint addr_len);
gint          udp6_connect                 (struct sock *sk, const struct sockaddr *uaddr,
                                            gint addr_len, const struct sockaddr *src);
void          udp_v6_rehash                (struct sock *sk);
void          udp6_hash4                   (struct sock *sk);
guint32       udp6_portaddr_partial        (const struct sock *sk);

/* IPv4 pieces udp6.c reuses for v4-mapped traffic. */
gint          __ip4_datagram_connect       (struct sock *sk, be32 daddr, be16 dport, be32 src);
void          udp_v4_rehash                (struct sock *sk);
void          udp4_hash4                   (struct sock *sk);

static inline gboolean
ipv6_addr_any (const ns_in6_addr *a)
{
  return (a->u6_addr32[0] | a->u6_addr32[1] | a->u6_addr32[2] | a->u6_addr32[3]) == 0;
}

static inline gboolean
ipv6_addr_equal (const ns_in6_addr *a, const ns_in6_addr *b)
{
  return ((a->u6_addr32[0] ^ b->u6_addr32[0]) | (a->u6_addr32[1] ^ b->u6_addr32[1]) |
          (a->u6_addr32[2] ^ b->u6_addr32[2]) | (a->u6_addr32[3] ^ b->u6_addr32[3])) == 0;
}

static inline gboolean
ipv6_addr_v4mapped (const ns_in6_addr *a)
{
  return (a->u6_addr32[0] | a->u6_addr32[1] |
          (a->u6_addr32[2] ^ GUINT32_TO_BE (0x0000ffff))) == 0;
}

static inline void
ipv6_addr_set_v4mapped (be32 addr, ns_in6_addr *v4mapped)
{
  v4mapped->u6_addr32[0] = 0;
  v4mapped->u6_addr32[1] = 0;
  v4mapped->u6_addr32[2] = GUINT32_TO_BE (0x0000ffff);
  v4mapped->u6_addr32[3] = addr;
}

G_END_DECLS
