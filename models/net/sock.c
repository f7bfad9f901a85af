/* sock.c — a UDP socket object as a kernel before 5d4cc87414c5 ("net: reorganize "struct
 * sock" fields", v6.9-rc1) lays it out: the byte map the arena charges such a socket by
 * (ns_arena_set_layout), so its fields are charged on the lines v6.1 has them on while the
 * model keeps them where sock.h declares them (v6.9).
 *
 * The v6.1 offsets are Debian 6.1.176's DWARF (gdb, printing &((struct sock *)0)->FIELD
 * for each field sock.h declares, 2026-12-05): struct sock_common is the same 136 bytes;
 * struct sock is 776 bytes, so inet_sock and udp_sock's fields lie 24 bytes further on, up
 * to reader_queue, which is ____cacheline_aligned at 1088 in both (udp_sock 1152 bytes in
 * both; the v6.1 inet_sock's bitfields where v6.9 has inet_flags are taken as the v6.9
 * fields moved by 24). Three fields v6.1 does not have take the byte v6.1 reads for the
 * same purpose: sk_tx_bits (sk_gso_disabled, sk_kern_sock, sk_no_check_tx/rx) v6.1's
 * bitfield byte at 512 that it shares with sk_userlocks, sk_txtime_bits v6.1's txtime
 * bitfield byte after sk_clockid (621), and sk_use_task_frag (v6.2) sk_allocation, which
 * v6.1's sk_page_frag tests instead. Range: releases before v6.9-rc1 (only 6.1 measured;
 * fields came and went in between). */
#include "config.h"
#include <stddef.h>
#include "sock.h"

/* One field: its offset in sock.h's struct sock, its size, its v6.1 offset. */
typedef struct {
  guint16 model, size, v6_1;
} SockField;

#define F(field, off61) \
  { offsetof (struct sock, field), sizeof (((struct sock *) 0)->field), off61 }

static const SockField sock_fields_v6_1[] = {
  F (sk_drops, 184), F (sk_peek_off, 384), F (sk_error_queue, 192),
  F (sk_receive_queue, 216), F (sk_backlog, 240), F (sk_rx_dst, 136),
  F (sk_rx_dst_ifindex, 144), F (sk_rx_dst_cookie, 148), F (sk_ll_usec, 272),
  F (sk_napi_id, 276), F (sk_busy_poll_budget, 566), F (sk_prefer_busy_poll, 565),
  F (sk_userlocks, 512), F (sk_rcvbuf, 280), F (sk_filter, 288), F (sk_wq, 296),
  F (sk_data_ready, 680), F (sk_rcvtimeo, 592), F (sk_rcvlowat, 188), F (sk_err, 544),
  F (sk_socket, 624), F (sk_memcg, 664), F (sk_policy, 304), F (sk_lock, 152),
  F (sk_reserved_mem, 268), F (sk_forward_alloc, 264), F (sk_tsflags, 608),
  F (sk_write_pending, 388), F (sk_omem_alloc, 328), F (sk_sndbuf, 332),
  F (sk_wmem_queued, 336), F (sk_wmem_alloc, 340), F (sk_tsq_flags, 344),
  F (sk_send_head, 352), F (sk_write_queue, 360), F (sk_dst_pending_confirm, 392),
  F (sk_pacing_status, 396), F (sk_frag, 472), F (sk_timer, 408), F (sk_pacing_rate, 456),
  F (sk_zckey, 616), F (sk_tskey, 612), F (sk_max_pacing_rate, 464), F (sk_sndtimeo, 400),
  F (sk_priority, 448), F (sk_mark, 452), F (sk_dst_cache, 320), F (sk_route_caps, 488),
  F (sk_gso_type, 496), F (sk_gso_max_segs, 518), F (sk_gso_max_size, 500),
  F (sk_allocation, 504), F (sk_txhash, 508), F (sk_pacing_shift, 513),
  F (sk_use_task_frag, 504), F (sk_tx_bits, 512), F (sk_shutdown, 610), F (sk_type, 514),
  F (sk_protocol, 516), F (sk_lingertime, 520), F (sk_prot_creator, 528),
  F (sk_callback_lock, 536), F (sk_err_soft, 548), F (sk_ack_backlog, 552),
  F (sk_max_ack_backlog, 556), F (sk_uid, 560), F (sk_peer_lock, 568),
  F (sk_bind_phc, 572), F (sk_peer_pid, 576), F (sk_peer_cred, 584), F (sk_stamp, 600),
  F (sk_disconnects, 284), F (sk_txrehash, 564), F (sk_clockid, 620),
  F (sk_txtime_bits, 621), F (sk_user_data, 632), F (sk_security, 640),
  F (sk_cgrp_data, 648), F (sk_state_change, 672), F (sk_write_space, 688),
  F (sk_error_report, 696), F (sk_backlog_rcv, 704), F (sk_destruct, 720),
  F (sk_reuseport_cb, 728), F (sk_bpf_storage, 736), F (sk_rcu, 744), F (ns_tracker, 760),
};
#undef F

#define SOCK_V6_1_SIZE      776u    /* sizeof (struct sock) in Debian 6.1.176 */
#define READER_QUEUE_OFF    1088u   /* udp_sock's cache-line-aligned reader_queue, both */

static guint16 map_v6_1[SOCK_MAP_LEN];

/* Fills map_v6_1: sock_common and udp_sock from reader_queue on where they lie, struct
 * sock's fields at their v6.1 offsets, inet_sock and udp_sock's others 24 bytes on. */
static gpointer
build_map_v6_1 (gpointer unused)
{
  const guint shift = SOCK_V6_1_SIZE - sizeof (struct sock);

  (void) unused;
  for (guint o = 0; o < SOCK_MAP_LEN; o++)
    map_v6_1[o] = (guint16) (o >= sizeof (struct sock) && o < READER_QUEUE_OFF ? o + shift : o);
  for (guint i = 0; i < G_N_ELEMENTS (sock_fields_v6_1); i++) {
    const SockField *f = &sock_fields_v6_1[i];

    for (guint b = 0; b < f->size; b++)
      map_v6_1[f->model + b] = (guint16) (f->v6_1 + b);
  }
  return map_v6_1;
}

/* The byte map of a UDP socket object as releases before the reorganisation lay it out;
 * see sock.h. */
const guint16 *
sock_layout_map_v6_1 (void)
{
  static GOnce once = G_ONCE_INIT;

  return g_once (&once, build_map_v6_1, NULL);
}
