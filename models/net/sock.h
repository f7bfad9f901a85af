/* sock.h — struct sock_common / struct sock / struct udp_sock at the x86-64 kernel's offsets.
 *
 * Layout of kernel v6.9 (x86-64, CONFIG_IPV6=y, CONFIG_NET_NS=y, CONFIG_NET_RX_BUSY_POLL=y,
 * CONFIG_XFRM=y, CONFIG_SECURITY=y, CONFIG_BPF_SYSCALL=y, no lock debugging):
 *  - struct sock_common: kernel-spec.md §6.3 (136 bytes, 0x88);
 *  - struct sock: the pahole dump in Eric Dumazet's "net: reorganize "struct sock" fields"
 *    (commit 5d4cc87414c5, netdev 2024-02-16, merged for v6.9): 752 bytes, 12 cache lines,
 *    the six cache-line groups sock_write_rx … sock_read_tx. Every field below is at the
 *    offset that dump gives (G_STATIC_ASSERTs at the end of this file);
 *  - struct inet_sock / struct udp_sock: from the v6.9 field order with natural
 *    alignment; reader_queue is ____cacheline_aligned as in the kernel. Checked against
 *    the DWARF of Debian's 6.1.176 and 6.12.111 cloud kernels (gdb `ptype /o`, 2026-12-04):
 *    their struct sock is 776 bytes (Debian's config; the dump above, 752), and 6.12's
 *    inet_sock and udp_sock fields follow it in this order and these sizes, each at its
 *    offset here plus 24, on the same cache line (inet_cork_full 144 bytes, reader_queue
 *    at 1088 in both); 6.1 still has inet_sock's bitfields where 6.9 has inet_flags. The
 *    first 540 bytes of struct sock, every field the hot paths touch, agree with 6.12's
 *    to the byte.
 * A socket of a release before that reorganisation is charged at Debian 6.1.176's offsets
 * through the arena's byte map (sock_layout_map_v6_1, models/net/sock.c).
 * Fields the model never touches are kept as padding of the right size so the hot fields
 * keep their offsets and cache lines. Sockets are allocated 64-byte aligned from the
 * machine's arena (kernel-spec §6.4: the udp_sock slab cache is cache-line aligned), so
 * "CLn" of the kernel is line n of the simulated object.
 *
 * Model-only state (a socket's owning table, its id) lives in fields the kernel has at the
 * same place for a comparable purpose (skc_prot) or in the udp_sock tail; see udp_sock. */
#pragma once
#include <glib.h>
#include <stddef.h>
#include <sys/socket.h>          /* AF_INET, AF_INET6 */
#include "sync.h"
#include "skbuff.h"                /* struct sk_buff_head */

G_BEGIN_DECLS

/* Small kernel-style scalar types (network byte order is kept as the kernel keeps it:
 * the value as it sits in memory on a little-endian host). */
typedef guint32 be32;
typedef guint16 be16;

/* struct in6_addr: 16 bytes, 4-byte aligned. */
typedef struct {
  union {
    guint8  u6_addr8[16];
    be16    u6_addr16[8];
    be32    u6_addr32[4];
  };
} ns_in6_addr;

/* sk_state values a UDP socket takes. */
#define TCP_ESTABLISHED  1
#define TCP_CLOSE        7

/* LOOPBACK4_IPV6 (127.0.0.6): the IPv4 view of an AF_INET6 socket bound or connected to a
 * non-v4-mapped IPv6 address, so IPv4 compares never match it by accident. */
#define LOOPBACK4_IPV6   GUINT32_TO_BE (0x7f000006)

struct sk_buff;
struct sock;
struct sock_reuseport;
struct udp_table;

/* Doubly linked hash list (include/linux/list.h types). */
struct hlist_node {
  struct hlist_node  *next;
  struct hlist_node **pprev;
};
struct hlist_head {
  struct hlist_node *first;
};

/* Network namespace: what UDP lookup needs of struct net. */
struct net {
  guint32 hash_mix;              /* net_hash_mix(): random per netns since ≈v5.1 (§1.2.1) */
  gint    sysctl_udp_l3mdev_accept; /* net.ipv4.udp_l3mdev_accept, default 0: compute_score */
  guint32 ns_id;                 /* model: identity for logs */
  gint    sysctl_tcp_l3mdev_accept; /* net.ipv4.tcp_l3mdev_accept, default 0: inet_match and
                                     inet6_match, so UDP's hash4 lookup (≥ 6.13) reads it */
};

G_STATIC_ASSERT (sizeof (struct net) == 16);

/* socket_lock_t (32 bytes): slock, owned, and the wait queue head (lock + list head). */
typedef struct {
  NsSpinlock  slock;
  gint        owned;
  NsSpinlock  wq_lock;
  guint32     _wq_pad;
  gpointer    wq_head[2];
} socket_lock_t;

/* struct sock_common, v6.x x86-64 (kernel-spec §6.3). */
struct sock_common {
  union {                                         /*   0 */
    guint64 skc_addrpair;
    struct {
      be32  skc_daddr;                            /*   0: inet_daddr (peer) */
      be32  skc_rcv_saddr;                        /*   4: inet_rcv_saddr (bound) */
    };
  };
  union {                                         /*   8 */
    guint32 skc_hash;
    guint16 skc_u16hashes[2];                     /* [0] udp_port_hash, [1] udp_portaddr_hash */
  };
  union {                                         /*  12 */
    guint32 skc_portpair;
    struct {
      be16    skc_dport;                          /*  12: inet_dport (peer, be) */
      guint16 skc_num;                            /*  14: inet_num (local, host order) */
    };
  };
  guint16     skc_family;                         /*  16 */
  guint8      skc_state;                          /*  18 */
  union {                                         /*  19 */
    guint8    skc_bits;
    struct {
      guint8  skc_reuse      : 4;
      guint8  skc_reuseport  : 1;
      guint8  skc_ipv6only   : 1;
      guint8  skc_net_refcnt : 1;
    };
  };
  gint        skc_bound_dev_if;                   /*  20 */
  union {                                         /*  24 */
    struct hlist_node skc_bind_node;
    struct hlist_node skc_portaddr_node;          /* udp_portaddr_node: the hash2 chain link */
  };
  gpointer    skc_prot;                           /*  40: model: the owning struct udp_table */
  struct net *skc_net;                            /*  48 */
  ns_in6_addr skc_v6_daddr;                       /*  56 */
  ns_in6_addr skc_v6_rcv_saddr;                   /*  72 */
  guint64     skc_cookie;                         /*  88 */
  gulong      skc_flags;                          /*  96 */
  struct hlist_node skc_node;                     /* 104: primary (port) chain link */
  guint16     skc_tx_queue_mapping;               /* 120 */
  guint16     skc_rx_queue_mapping;               /* 122 */
  gint        skc_incoming_cpu;                   /* 124: sk_incoming_cpu (CL1) */
  guint32     skc_refcnt;                         /* 128 */
  guint32     skc_rxhash;                         /* 132 */
};

/* struct sock, v6.9 (752 bytes). Offsets in the comments are the pahole ones. */
struct sock {
  struct sock_common __sk_common;                 /*   0 */
  /* sock_write_rx */
  gint        sk_drops;                           /* 136 */
  gint        sk_peek_off;                        /* 140 */
  struct sk_buff_head sk_error_queue;             /* 144 */
  struct sk_buff_head sk_receive_queue;           /* 168 */
  struct {
    gint            rmem_alloc;                   /* 192: sk_rmem_alloc */
    gint            len;                          /* 196 */
    struct sk_buff *head;                         /* 200 */
    struct sk_buff *tail;                         /* 208 */
  } sk_backlog;
  /* sock_read_rx */
  gpointer    sk_rx_dst;                          /* 216 */
  gint        sk_rx_dst_ifindex;                  /* 224 */
  guint32     sk_rx_dst_cookie;                   /* 228 */
  guint32     sk_ll_usec;                         /* 232 */
  guint32     sk_napi_id;                         /* 236 */
  guint16     sk_busy_poll_budget;                /* 240 */
  guint8      sk_prefer_busy_poll;                /* 242 */
  guint8      sk_userlocks;                       /* 243 */
  gint        sk_rcvbuf;                          /* 244 */
  gpointer    sk_filter;                          /* 248 */
  gpointer    sk_wq;                              /* 256: model: the NsWaitQueue readers sleep on */
  gpointer    sk_data_ready;                      /* 264 */
  glong       sk_rcvtimeo;                        /* 272 */
  gint        sk_rcvlowat;                        /* 280 */
  /* sock_read_rxtx */
  gint        sk_err;                             /* 284 */
  gpointer    sk_socket;                          /* 288 */
  gpointer    sk_memcg;                           /* 296 */
  gpointer    sk_policy[2];                       /* 304 */
  /* sock_write_rxtx */
  socket_lock_t sk_lock;                          /* 320 */
  guint32     sk_reserved_mem;                    /* 352 */
  gint        sk_forward_alloc;                   /* 356 */
  guint32     sk_tsflags;                         /* 360 */
  /* sock_write_tx */
  gint        sk_write_pending;                   /* 364 */
  gint        sk_omem_alloc;                      /* 368 */
  gint        sk_sndbuf;                          /* 372 */
  gint        sk_wmem_queued;                     /* 376 */
  guint32     sk_wmem_alloc;                      /* 380 */
  gulong      sk_tsq_flags;                       /* 384 */
  gpointer    sk_send_head;                       /* 392 */
  struct sk_buff_head sk_write_queue;             /* 400 */
  guint32     sk_dst_pending_confirm;             /* 424 */
  guint32     sk_pacing_status;                   /* 428 */
  guint8      sk_frag[16];                        /* 432: struct page_frag */
  guint8      sk_timer[40];                       /* 448: struct timer_list */
  gulong      sk_pacing_rate;                     /* 488 */
  gint        sk_zckey;                           /* 496 */
  gint        sk_tskey;                           /* 500 */
  /* sock_read_tx */
  gulong      sk_max_pacing_rate;                 /* 504 */
  glong       sk_sndtimeo;                        /* 512 */
  guint32     sk_priority;                        /* 520 */
  guint32     sk_mark;                            /* 524 */
  gpointer    sk_dst_cache;                       /* 528 */
  guint64     sk_route_caps;                      /* 536 */
  guint16     sk_gso_type;                        /* 544 */
  guint16     sk_gso_max_segs;                    /* 546 */
  guint32     sk_gso_max_size;                    /* 548 */
  guint32     sk_allocation;                      /* 552 */
  guint32     sk_txhash;                          /* 556 */
  guint8      sk_pacing_shift;                    /* 560 */
  guint8      sk_use_task_frag;                   /* 561 */
  /* (end of the groups) */
  guint8      sk_tx_bits;                         /* 562: gso_disabled, kern_sock, no_check_tx/rx */
  guint8      sk_shutdown;                        /* 563 */
  guint16     sk_type;                            /* 564 */
  guint16     sk_protocol;                        /* 566 */
  gulong      sk_lingertime;                      /* 568 */
  gpointer    sk_prot_creator;                    /* 576 */
  guint64     sk_callback_lock;                   /* 584: rwlock_t */
  gint        sk_err_soft;                        /* 592 */
  guint32     sk_ack_backlog;                     /* 596 */
  guint32     sk_max_ack_backlog;                 /* 600 */
  guint32     sk_uid;                             /* 604: kuid_t, owner (reuseport groups) */
  guint32     sk_peer_lock;                       /* 608 */
  gint        sk_bind_phc;                        /* 612 */
  gpointer    sk_peer_pid;                        /* 616 */
  gpointer    sk_peer_cred;                       /* 624 */
  gint64      sk_stamp;                           /* 632 */
  gint        sk_disconnects;                     /* 640 */
  guint8      sk_txrehash;                        /* 644 */
  guint8      sk_clockid;                         /* 645 */
  guint8      sk_txtime_bits;                     /* 646 */
  guint8      _hole647;
  gpointer    sk_user_data;                       /* 648 */
  gpointer    sk_security;                        /* 656 */
  guint64     sk_cgrp_data;                       /* 664 */
  gpointer    sk_state_change;                    /* 672 */
  gpointer    sk_write_space;                     /* 680 */
  gpointer    sk_error_report;                    /* 688 */
  gpointer    sk_backlog_rcv;                     /* 696 */
  gpointer    sk_destruct;                        /* 704 */
  struct sock_reuseport *sk_reuseport_cb;         /* 712 (CL11) */
  gpointer    sk_bpf_storage;                     /* 720 */
  gpointer    sk_rcu[2];                          /* 728 */
  gpointer    ns_tracker;                         /* 744 */
};

/* Kernel accessor names for the sock_common fields. */
#define sk_daddr            __sk_common.skc_daddr
#define sk_rcv_saddr        __sk_common.skc_rcv_saddr
#define sk_hash             __sk_common.skc_hash
#define sk_dport            __sk_common.skc_dport
#define sk_num              __sk_common.skc_num
#define sk_family           __sk_common.skc_family
#define sk_state            __sk_common.skc_state
#define sk_reuse            __sk_common.skc_reuse
#define sk_reuseport        __sk_common.skc_reuseport
#define sk_ipv6only         __sk_common.skc_ipv6only
#define sk_bound_dev_if     __sk_common.skc_bound_dev_if
#define sk_prot             __sk_common.skc_prot
#define sk_net              __sk_common.skc_net
#define sk_v6_daddr         __sk_common.skc_v6_daddr
#define sk_v6_rcv_saddr     __sk_common.skc_v6_rcv_saddr
#define sk_node             __sk_common.skc_node
#define sk_incoming_cpu     __sk_common.skc_incoming_cpu
#define sk_refcnt           __sk_common.skc_refcnt
#define sk_rxhash           __sk_common.skc_rxhash
#define sk_rmem_alloc       sk_backlog.rmem_alloc

/* struct inet_sock, v6.9 (offsets checked against Debian 6.12's less 24: see the top of this file). */
struct inet_sock {
  struct sock sk;                                 /*   0 */
  gpointer    pinet6;                             /* 752 */
  gulong      inet_flags;                         /* 760 */
  be32        inet_saddr;                         /* 768: source for sending */
  gint16      uc_ttl;                             /* 772 */
  be16        inet_sport;                         /* 774 */
  gpointer    inet_opt;                           /* 776 */
  gint        inet_id;                            /* 784 */
  guint8      tos, min_ttl, mc_ttl, pmtudisc, rcv_tos, convert_csum;  /* 788 */
  gint        uc_index;                           /* 796 */
  gint        mc_index;                           /* 800 */
  be32        mc_addr;                            /* 804 */
  guint32     local_port_range;                   /* 808 */
  gpointer    mc_list;                            /* 816 */
  guint8      cork[144];                          /* 824: struct inet_cork_full (144 in Debian 6.1 and 6.12) */
};

/* struct udp_sock, v6.9 (offsets checked against Debian 6.12's less 24: see the top of
 * this file), plus the v6.13 hash4 fields and the model's own tail (never read by model
 * code as kernel state). */
struct udp_sock {
  struct inet_sock inet;                          /*   0 */
  gulong      udp_flags;                          /* 968 */
  gint        pending;                            /* 976 */
  guint8      encap_type;                         /* 980 */
  guint8      _pad981;
  guint16     len;                                /* 982 */
  guint16     gso_size;                           /* 984 */
  guint16     pcslen;                             /* 986 */
  guint16     pcrlen;                             /* 988 */
  guint16     _pad990;
  gpointer    encap_rcv;                          /* 992 */
  gpointer    encap_err_rcv;                      /* 1000 */
  gpointer    encap_err_lookup;                   /* 1008 */
  gpointer    encap_destroy;                      /* 1016 */
  gpointer    gro_receive;                        /* 1024 */
  gpointer    gro_complete;                       /* 1032 */
  struct sk_buff_head reader_queue __attribute__ ((aligned (64)));  /* 1088 (CL17) */
  gint        forward_deficit;                    /* 1112 */
  gint        forward_threshold;                  /* 1116 */
  gboolean    peeking_with_offset;                /* 1120 (bool in the kernel) */
  /* v6.13+: hash4 (four-tuple) chain; in the kernel these sit inside udp_sock too. */
  guint32     udp_lrpa_hash;                      /* 1124 */
  struct hlist_node udp_lrpa_node;                /* 1128 */
  /* model only */
  guint32     ns_id;                              /* creation number within the table */
  gboolean    ns_hashed4;                         /* on a hash4 chain */
};

/* struct udp6_sock is a udp_sock followed by struct ipv6_pinfo (the inet6 field pinet6
 * points at). ipv6_pinfo, v6.9 include/linux/ipv6.h field order with natural alignment and
 * CONFIG_IPV6_SUBTREES=y (Debian): 160 bytes, as sizeof gives on Debian's 6.1.176 and
 * 6.12.111 kernels (gdb on their DWARF, 2026-12-04; udp6_sock 1344 there too). The
 * model reads none of it; only the object's size matters (which L1D sets the next socket
 * of the slab falls on). */
#define NS_IPV6_PINFO_SIZE  160

#define udp_port_hash       inet.sk.__sk_common.skc_u16hashes[0]
#define udp_portaddr_hash   inet.sk.__sk_common.skc_u16hashes[1]
#define udp_portaddr_node   inet.sk.__sk_common.skc_portaddr_node

static inline struct udp_sock *
udp_sk (const struct sock *sk)
{
  return (struct udp_sock *) sk;
}

static inline struct inet_sock *
inet_sk (const struct sock *sk)
{
  return (struct inet_sock *) sk;
}

static inline struct net *
sock_net (const struct sock *sk)
{
  return sk->sk_net;
}

static inline gboolean
ipv6_only_sock (const struct sock *sk)
{
  return sk->sk_ipv6only;
}

/* The socket whose skc_portaddr_node is node (udp_portaddr_for_each_entry). */
static inline struct sock *
sk_from_portaddr_node (const struct hlist_node *node)
{
  return (struct sock *) ((guint8 *) node - offsetof (struct sock_common, skc_portaddr_node));
}

/* The socket whose skc_node is node (sk_for_each). */
static inline struct sock *
sk_from_node (const struct hlist_node *node)
{
  return (struct sock *) ((guint8 *) node - offsetof (struct sock_common, skc_node));
}

/* The udp_sock whose udp_lrpa_node is node (udp_lrpa_for_each_entry). */
static inline struct sock *
sk_from_lrpa_node (const struct hlist_node *node)
{
  return (struct sock *) ((guint8 *) node - offsetof (struct udp_sock, udp_lrpa_node));
}

/* ---- hlist (include/linux/list.h semantics) ---- */

static inline gboolean
hlist_unhashed (const struct hlist_node *n)
{
  return n->pprev == NULL;
}

static inline void
hlist_add_head (struct hlist_node *n, struct hlist_head *h)
{
  struct hlist_node *first = h->first;

  n->next = first;
  if (first != NULL)
    first->pprev = &n->next;
  h->first = n;
  n->pprev = &h->first;
}

static inline void
hlist_add_tail (struct hlist_node *n, struct hlist_head *h)
{
  struct hlist_node **link = &h->first;

  while (*link != NULL)
    link = &(*link)->next;
  n->next = NULL;
  n->pprev = link;
  *link = n;
}

static inline void
hlist_del_init (struct hlist_node *n)
{
  if (hlist_unhashed (n))
    return;
  *n->pprev = n->next;
  if (n->next != NULL)
    n->next->pprev = n->pprev;
  n->next = NULL;
  n->pprev = NULL;
}

/* ---- layout checks: kernel-spec §6.3 and the v6.9 pahole dump ---- */

#define NS_SK_OFF(f, off) G_STATIC_ASSERT (offsetof (struct sock, f) == (off))
G_STATIC_ASSERT (sizeof (ns_in6_addr) == 16);
G_STATIC_ASSERT (sizeof (struct hlist_node) == 16);
G_STATIC_ASSERT (sizeof (struct sk_buff_head) == 24);
G_STATIC_ASSERT (sizeof (socket_lock_t) == 32);
G_STATIC_ASSERT (offsetof (struct sock_common, skc_rcv_saddr) == 4);
G_STATIC_ASSERT (offsetof (struct sock_common, skc_u16hashes) == 8);
G_STATIC_ASSERT (offsetof (struct sock_common, skc_dport) == 12);
G_STATIC_ASSERT (offsetof (struct sock_common, skc_num) == 14);
G_STATIC_ASSERT (offsetof (struct sock_common, skc_family) == 16);
G_STATIC_ASSERT (offsetof (struct sock_common, skc_state) == 18);
G_STATIC_ASSERT (offsetof (struct sock_common, skc_bits) == 19);
G_STATIC_ASSERT (offsetof (struct sock_common, skc_bound_dev_if) == 20);
G_STATIC_ASSERT (offsetof (struct sock_common, skc_portaddr_node) == 24);
G_STATIC_ASSERT (offsetof (struct sock_common, skc_prot) == 40);
G_STATIC_ASSERT (offsetof (struct sock_common, skc_net) == 48);
G_STATIC_ASSERT (offsetof (struct sock_common, skc_v6_daddr) == 56);
G_STATIC_ASSERT (offsetof (struct sock_common, skc_v6_rcv_saddr) == 72);
G_STATIC_ASSERT (offsetof (struct sock_common, skc_cookie) == 88);
G_STATIC_ASSERT (offsetof (struct sock_common, skc_node) == 104);
G_STATIC_ASSERT (offsetof (struct sock_common, skc_incoming_cpu) == 124);
G_STATIC_ASSERT (offsetof (struct sock_common, skc_refcnt) == 128);
G_STATIC_ASSERT (sizeof (struct sock_common) == 136);
NS_SK_OFF (sk_drops, 0x88);
NS_SK_OFF (sk_error_queue, 0x90);
NS_SK_OFF (sk_receive_queue, 0xa8);
NS_SK_OFF (sk_backlog, 0xc0);
NS_SK_OFF (sk_rx_dst, 0xd8);
NS_SK_OFF (sk_userlocks, 0xf3);
NS_SK_OFF (sk_rcvbuf, 0xf4);
NS_SK_OFF (sk_filter, 0xf8);
NS_SK_OFF (sk_wq, 0x100);
NS_SK_OFF (sk_data_ready, 0x108);
NS_SK_OFF (sk_rcvtimeo, 0x110);
NS_SK_OFF (sk_rcvlowat, 0x118);
NS_SK_OFF (sk_err, 0x11c);
NS_SK_OFF (sk_socket, 0x120);
NS_SK_OFF (sk_lock, 0x140);
NS_SK_OFF (sk_reserved_mem, 0x160);
NS_SK_OFF (sk_forward_alloc, 0x164);
NS_SK_OFF (sk_tsflags, 0x168);
NS_SK_OFF (sk_write_pending, 0x16c);
NS_SK_OFF (sk_tsq_flags, 0x180);
NS_SK_OFF (sk_write_queue, 0x190);
NS_SK_OFF (sk_frag, 0x1b0);
NS_SK_OFF (sk_timer, 0x1c0);
NS_SK_OFF (sk_pacing_rate, 0x1e8);
NS_SK_OFF (sk_max_pacing_rate, 0x1f8);
NS_SK_OFF (sk_sndtimeo, 0x200);
NS_SK_OFF (sk_dst_cache, 0x210);
NS_SK_OFF (sk_gso_type, 0x220);
NS_SK_OFF (sk_txhash, 0x22c);
NS_SK_OFF (sk_shutdown, 0x233);
NS_SK_OFF (sk_type, 0x234);
NS_SK_OFF (sk_protocol, 0x236);
NS_SK_OFF (sk_lingertime, 0x238);
NS_SK_OFF (sk_prot_creator, 0x240);
NS_SK_OFF (sk_uid, 0x25c);
NS_SK_OFF (sk_stamp, 0x278);
NS_SK_OFF (sk_disconnects, 0x280);
NS_SK_OFF (sk_user_data, 0x288);
NS_SK_OFF (sk_state_change, 0x2a0);
NS_SK_OFF (sk_backlog_rcv, 0x2b8);
NS_SK_OFF (sk_destruct, 0x2c0);
NS_SK_OFF (sk_reuseport_cb, 0x2c8);
NS_SK_OFF (sk_rcu, 0x2d8);
NS_SK_OFF (ns_tracker, 0x2e8);
G_STATIC_ASSERT (sizeof (struct sock) == 752);
G_STATIC_ASSERT (offsetof (struct inet_sock, pinet6) == 752);
G_STATIC_ASSERT (offsetof (struct inet_sock, cork) == 824);
G_STATIC_ASSERT (offsetof (struct udp_sock, udp_flags) == 968);
G_STATIC_ASSERT (offsetof (struct udp_sock, reader_queue) == 1088);
G_STATIC_ASSERT (offsetof (struct udp_sock, forward_deficit) == 1112);
#undef NS_SK_OFF

/* The bytes of the largest UDP socket object (udp6_sock, 64-byte aligned) a layout map
 * covers. */
#define SOCK_MAP_LEN ((sizeof (struct udp_sock) + NS_IPV6_PINFO_SIZE + 63) & ~(gsize) 63)
/* A UDP socket object (udp_sock or udp6_sock) as releases before 5d4cc87414c5 (v6.9-rc1)
 * lay it out: for byte offset o, where Debian 6.1.176 keeps that byte (models/net/sock.c);
 * SOCK_MAP_LEN entries, for ns_arena_set_layout. */
const guint16 *sock_layout_map_v6_1 (void);

G_END_DECLS
