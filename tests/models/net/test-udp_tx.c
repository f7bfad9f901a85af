/* test-udp_tx.c — write(2) on a UDP socket (models/net/udp_tx.c: ns_sys_write, udp_sendmsg
 * / udpv6_sendmsg, udp_send_skb / udp_v6_send_skb, with ip.c's headers and loopback's
 * orphan), against the rules of Linux v6.9:
 *  - net/ipv4/udp.c udp_sendmsg, net/ipv6/udp.c udpv6_sendmsg: with no address a socket
 *    that is not TCP_ESTABLISHED gets EDESTADDRREQ and sends nothing; an AF_INET6 socket
 *    whose peer is v4-mapped sends through udp_sendmsg, an IPv4 datagram whose largest
 *    payload is IPv4's 65507 (IP_MAX_MTU 65535 less 20 + 8; __ip_append_data's EMSGSIZE);
 *    a sent datagram returns its length; udp_sendmsg's only size test before the state
 *    test is len > 0xFFFF (EMSGSIZE), udpv6_sendmsg's comes after it; a refused datagram
 *    gives back the route reference its cork took (ip_cork_release / ip6_cork_release);
 *  - udp_send_skb / udp_v6_send_skb: the UDP header carries the socket's source port, the
 *    peer's port and len = payload + 8; UDP_MIB_OUTDATAGRAMS counts each datagram sent;
 *  - net/ipv4/ip_output.c __ip_make_skb / __ip_local_out: version 4, ihl 5, ttl 64
 *    (sysctl_ip_default_ttl), protocol 17, tot_len = 20 + 8 + payload, the socket's
 *    addresses; net/ipv6/ip6_output.c __ip6_make_skb / __ip6_local_out: version 6,
 *    nexthdr 17, hop limit 64 (ipv6 devconf hop_limit via ip6_dst_hoplimit), payload_len
 *    = 8 + payload, the socket's addresses; skb->protocol ETH_P_IP / ETH_P_IPV6;
 *  - a datagram the device drops (lo not up: __dev_queue_xmit's -ENETDOWN) is write(2)'s
 *    error: ip_send_skb / ip6_send_skb count OUTDISCARDS, udp_send_skb counts neither
 *    OUTDATAGRAMS nor (the error is not ENOBUFS) SNDBUFERRORS, udp_sendmsg returns it;
 *  - drivers/net/loopback.c loopback_xmit's skb_orphan: sock_wfree gives the skb's
 *    truesize back, so sk_wmem_alloc ends where it began.
 * The model moves no payload bytes, so lengths, headers, counters and socket state are
 * checked, not contents. test-ip.c has the native EMSGSIZE boundaries and paged
 * datagrams. The model sets no csum_start / csum_offset (udp4_hwcsum and
 * udp6_hwcsum_outgoing are charged, not performed), so they are not checked.
 * Expected values are the kernel's, computed here, never read back from the model. */
#include "config.h"
#include <errno.h>
#include "udp-pair-rig.h"
#include "ip.h"

#define MIB_OUTDATAGRAMS  4        /* UDP_MIB_OUTDATAGRAMS (include/uapi/linux/snmp.h) */
#define MIB_SNDBUFERRORS  6        /* UDP_MIB_SNDBUFERRORS */
#define UDP_HDR           8
#define IPV4_HDR          20
#define IPV6_HDR          40
#define KERNEL_IPV4_MAX_PAYLOAD  (65535 - IPV4_HDR - UDP_HDR)

/* UDP_MIB_OUTDATAGRAMS of the sender's CPU. */
static guint64
out_datagrams (Rig *rig)
{
  return ns_netstack_sd (rig->s.stack, SENDER_CPU)->udp_mib[MIB_OUTDATAGRAMS];
}

/* The UDP header of skb: client's port → PORT, len = payload + 8. */
static void
expect_udp_header (const struct sk_buff *skb, struct file *client, guint len)
{
  const NsUdphdr *uh = (const NsUdphdr *) skb_transport_header (skb);

  ck_assert_uint_eq (uh->source, htons (ns_file_sock (client)->sk_num));
  ck_assert_uint_eq (uh->dest, htons (PORT));
  ck_assert_uint_eq (uh->len, htons (len + UDP_HDR));
}

/* The IPv4 header of skb: 4/5, ttl 64, UDP, tot_len, 127.0.0.1 both ways. */
static void
expect_ipv4_header (const struct sk_buff *skb, guint len)
{
  const NsIphdr *iph = (const NsIphdr *) skb_network_header (skb);

  ck_assert_uint_eq (skb->protocol, htons (0x0800));
  ck_assert_uint_eq (skb->transport_header - skb->network_header, IPV4_HDR);
  ck_assert_uint_eq (iph->ver_ihl, 0x45);
  ck_assert_uint_eq (iph->ttl, 64);
  ck_assert_uint_eq (iph->protocol, 17);
  ck_assert_uint_eq (iph->tot_len, htons (IPV4_HDR + UDP_HDR + len));
  ck_assert_uint_eq (iph->saddr, htonl (0x7f000001));
  ck_assert_uint_eq (iph->daddr, htonl (0x7f000001));
}

/* The IPv6 header of skb: version 6, nexthdr UDP, hop limit 64, payload_len, ::1 both
 * ways. */
static void
expect_ipv6_header (const struct sk_buff *skb, guint len)
{
  const NsIpv6hdr *ip6h = (const NsIpv6hdr *) skb_network_header (skb);
  struct in6_addr lo = IN6ADDR_LOOPBACK_INIT;

  ck_assert_uint_eq (skb->protocol, htons (0x86dd));
  ck_assert_uint_eq (skb->transport_header - skb->network_header, IPV6_HDR);
  ck_assert_uint_eq (ntohl (ip6h->ver_tc_flow) >> 28, 6);
  ck_assert_uint_eq (ip6h->nexthdr, 17);
  ck_assert_uint_eq (ip6h->hop_limit, 64);
  ck_assert_uint_eq (ip6h->payload_len, htons (UDP_HDR + len));
  ck_assert_mem_eq (&ip6h->saddr, &lo, sizeof lo);
  ck_assert_mem_eq (&ip6h->daddr, &lo, sizeof lo);
}

/* ---- connected sends ---- */

static const guint send_lens[] = { 0, 1, 1000, 1472, 8000 };

/* Each write returns its length and counts one OUTDATAGRAMS; after loopback's orphan the
 * sender's sk_wmem_alloc is back where it began. */
START_TEST (test_write_returns_len_and_counts)
{
  const gint family = _i == 0 ? AF_INET : AF_INET6;
  guint64 out0;
  gint wmem0;
  Rig rig;

  rig_init (&rig, "6.9.0", family, 0);
  out0 = out_datagrams (&rig);
  wmem0 = ns_file_sock (rig.client)->sk_wmem_alloc;
  for (guint k = 0; k < G_N_ELEMENTS (send_lens); k++) {
    ck_assert_int_eq (write_on (&rig, rig.client, send_lens[k]), (gssize) send_lens[k]);
    ck_assert_uint_eq (out_datagrams (&rig), out0 + k + 1);
    ck_assert_int_eq (ns_file_sock (rig.client)->sk_wmem_alloc, wmem0);
  }
  ck_assert_uint_eq (ns_file_sock (rig.server)->sk_receive_queue.qlen,
                     G_N_ELEMENTS (send_lens));
  rig_clear (&rig);
}
END_TEST

/* The datagram that arrives carries the kernel's UDP and IP headers. */
START_TEST (test_headers)
{
  const gint family = _i % 2 == 0 ? AF_INET : AF_INET6;
  const guint len = send_lens[_i / 2];
  struct sk_buff *skb;
  Rig rig;

  rig_init (&rig, "6.9.0", family, 0);
  ck_assert_int_eq (write_on (&rig, rig.client, len), (gssize) len);
  skb = last_queued (&rig);
  expect_udp_header (skb, rig.client, len);
  if (family == AF_INET)
    expect_ipv4_header (skb, len);
  else
    expect_ipv6_header (skb, len);
  rig_clear (&rig);
}
END_TEST

/* ---- a device that drops ---- */

/* With lo down the datagram is freed in __dev_queue_xmit and write(2) fails with its
 * -ENETDOWN: one OUTDISCARDS (the model's IP statistics slot), no OUTDATAGRAMS or
 * SNDBUFERRORS, nothing queued; the free's skb_release_head_state puts the route the skb
 * held (lo keeps dsts: no IFF_XMIT_DST_RELEASE) and runs sock_wfree, giving sk_wmem_alloc
 * back. Up again, the next write is sent and counted. */
START_TEST (test_device_drop_is_the_error)
{
  const gint family = _i == 0 ? AF_INET : AF_INET6;
  struct softnet_data *sd;
  struct dst_entry *dst;
  guint64 out0, discards0, sndbuf0;
  gint wmem0, ref0;
  Rig rig;

  rig_init (&rig, "6.9.0", family, 0);
  sd = ns_netstack_sd (rig.s.stack, SENDER_CPU);
  dst = ns_file_sock (rig.client)->sk_dst_cache;
  ref0 = dst->__rcuref;
  out0 = out_datagrams (&rig);
  discards0 = sd->ip_mib[NS_IPSTATS_OUTDISCARDS];
  sndbuf0 = sd->udp_mib[MIB_SNDBUFERRORS];
  wmem0 = ns_file_sock (rig.client)->sk_wmem_alloc;
  rig.s.stack->lo->flags &= ~IFF_UP;
  ck_assert_int_eq (write_on (&rig, rig.client, 100), -ENETDOWN);
  ck_assert_uint_eq (sd->ip_mib[NS_IPSTATS_OUTDISCARDS], discards0 + 1);
  ck_assert_uint_eq (out_datagrams (&rig), out0);
  ck_assert_uint_eq (sd->udp_mib[MIB_SNDBUFERRORS], sndbuf0);
  ck_assert_uint_eq (ns_file_sock (rig.server)->sk_receive_queue.qlen, 0);
  ck_assert_int_eq (ns_file_sock (rig.client)->sk_wmem_alloc, wmem0);
  ck_assert_int_eq (dst->__rcuref, ref0);
  rig.s.stack->lo->flags |= IFF_UP;
  ck_assert_int_eq (write_on (&rig, rig.client, 100), 100);
  ck_assert_uint_eq (out_datagrams (&rig), out0 + 1);
  ck_assert_uint_eq (sd->ip_mib[NS_IPSTATS_OUTDISCARDS], discards0 + 1);
  rig_clear (&rig);
}
END_TEST

/* ---- an unconnected socket ---- */

/* With no peer, write(2) is EDESTADDRREQ: nothing sent, counted, charged or queued. */
START_TEST (test_unconnected_edestaddrreq)
{
  const gint family = _i == 0 ? AF_INET : AF_INET6;
  struct sockaddr_storage ss;
  struct file *lone;
  guint64 out0;
  gint len, wmem0;
  Rig rig;

  rig_init (&rig, "6.9.0", family, 0);
  lone = ns_netstack_socket (rig.s.stack, family, FALSE);
  len = loopback_addr (&ss, family, PORT + 1);
  ck_assert_int_eq (udp_sock_bind (ns_file_sock (lone), (struct sockaddr *) &ss, len), 0);
  out0 = out_datagrams (&rig);
  wmem0 = ns_file_sock (lone)->sk_wmem_alloc;
  ck_assert_int_eq (write_on (&rig, lone, 100), -EDESTADDRREQ);
  ck_assert_uint_eq (out_datagrams (&rig), out0);
  ck_assert_int_eq (ns_file_sock (lone)->sk_wmem_alloc, wmem0);
  ck_assert_uint_eq (ns_file_sock (rig.server)->sk_receive_queue.qlen, 0);
  rig_clear (&rig);
}
END_TEST

/* udp_sendmsg tests only len > 0xFFFF before the socket's state, __ip_append_data's
 * 65507 comes after it; udpv6_sendmsg has no size test before the state test: so an
 * unconnected socket is EDESTADDRREQ up to 65535 bytes on IPv4 and beyond on IPv6. */
START_TEST (test_unconnected_state_before_size)
{
  const gint family = _i == 0 ? AF_INET : AF_INET6;
  const gssize ret_65536 = family == AF_INET ? -EMSGSIZE : -EDESTADDRREQ;
  struct sockaddr_storage ss;
  struct file *lone;
  gint len;
  Rig rig;

  rig_init (&rig, "6.9.0", family, 0);
  lone = ns_netstack_socket (rig.s.stack, family, FALSE);
  len = loopback_addr (&ss, family, PORT + 1);
  ck_assert_int_eq (udp_sock_bind (ns_file_sock (lone), (struct sockaddr *) &ss, len), 0);
  ck_assert_int_eq (write_on (&rig, lone, KERNEL_IPV4_MAX_PAYLOAD + 1), -EDESTADDRREQ);
  ck_assert_int_eq (write_on (&rig, lone, 65535), -EDESTADDRREQ);
  ck_assert_int_eq (write_on (&rig, lone, 65536), ret_65536);
  rig_clear (&rig);
}
END_TEST

/* ---- too large on a connected socket ---- */

/* A refused datagram (EMSGSIZE) leaves the connected route's reference count as it was:
 * ip_cork_release / ip6_cork_release drop the reference the cork took from sk_dst_check.
 * The refusal is __ip_append_data's / __ip6_append_data's: ip_make_skb ran, the local
 * error was reported (ip_local_error / ipv6_local_error), nothing was allocated. */
START_TEST (test_emsgsize_releases_route)
{
  const gint family = _i == 0 ? AF_INET : AF_INET6;
  const gsize over = family == AF_INET ? KERNEL_IPV4_MAX_PAYLOAD + 1 : 65535 - UDP_HDR + 1;
  struct dst_entry *dst;
  guint64 out0;
  gint ref0;
  Rig rig;

  rig_init (&rig, "6.9.0", family, 0);
  dst = ns_file_sock (rig.client)->sk_dst_cache;
  ck_assert_ptr_nonnull (dst);
  ref0 = dst->__rcuref;
  out0 = out_datagrams (&rig);
  ck_assert_int_eq (write_on (&rig, rig.client, over), -EMSGSIZE);
  ck_assert_int_eq (dst->__rcuref, ref0);
  /* refused inside the append, after the cork was set up, before any allocation */
  ck_assert_uint_eq (stack_rig_calls (&rig.s, family == AF_INET ? "ip_make_skb"
                                                                : "ip6_make_skb"), 1);
  ck_assert_uint_eq (stack_rig_calls (&rig.s, family == AF_INET ? "ip_local_error"
                                                                : "ipv6_local_error"), 1);
  ck_assert_uint_eq (stack_rig_calls (&rig.s, "sock_alloc_send_pskb"), 0);
  ck_assert_uint_eq (out_datagrams (&rig), out0);
  ck_assert_uint_eq (ns_file_sock (rig.server)->sk_receive_queue.qlen, 0);
  rig_clear (&rig);
}
END_TEST

/* ---- an AF_INET6 socket with a v4-mapped peer ---- */

/* A rig whose server is an AF_INET socket bound to 127.0.0.1:PORT and whose client is a
 * dual-stack AF_INET6 socket connected to ::ffff:127.0.0.1:PORT. */
static void
mapped_rig_init (Rig *rig)
{
  struct sockaddr_in6 peer = { .sin6_family = AF_INET6, .sin6_port = htons (PORT) };
  struct sockaddr_storage ss;
  gint len;

  memset (rig, 0, sizeof *rig);
  rig->family = AF_INET6;
  stack_rig_init (&rig->s, "6.9.0", NULL, NULL, NULL);
  rig->server = ns_netstack_socket (rig->s.stack, AF_INET, FALSE);
  len = loopback_addr (&ss, AF_INET, PORT);
  ck_assert_int_eq (udp_sock_bind (ns_file_sock (rig->server), (struct sockaddr *) &ss, len),
                    0);
  rig->client = ns_netstack_socket (rig->s.stack, AF_INET6, FALSE);
  ck_assert_int_eq (inet_pton (AF_INET6, "::ffff:127.0.0.1", &peer.sin6_addr), 1);
  ck_assert_int_eq (ns_netstack_connect (rig->s.stack, rig->client, (struct sockaddr *) &peer,
                                         sizeof peer), 0);
  rig->txbuf = ns_arena_alloc (ns_machine_arena (rig->s.machine), RIG_BUF, 64);
  rig->rxbuf = ns_arena_alloc (ns_machine_arena (rig->s.machine), RIG_BUF, 64);
  ns_netstack_start_cpu (rig->s.stack, SENDER_CPU);
}

/* With CONFIG_SECURITY the LSM hooks AppArmor registers run through its hook list
 * (security/security.c call_int_hook: one indirect call per registered hook); AppArmor
 * is there unless the build has CONFIG_SECURITY_APPARMOR=n. A write and its delivery
 * reach three of its hooks: file_permission (rw_verify_area), socket_sendmsg and
 * socket_sock_rcv_skb. */
START_TEST (test_apparmor_hooks_follow_the_config)
{
  static const char *const with[] = { "CONFIG_SECURITY", "y", NULL };
  static const char *const without[] = { "CONFIG_SECURITY", "y",
                                         "CONFIG_SECURITY_APPARMOR", "n", NULL };
  static const char *const listed[] = { "CONFIG_SECURITY", "y",
                                        "CONFIG_SECURITY_APPARMOR", "y", NULL };

  guint64 n = rig_icalls_per_datagram ("6.9.0", AF_INET, with);

  ck_assert_uint_eq (n, rig_icalls_per_datagram ("6.9.0", AF_INET, without) + 3);
  ck_assert_uint_eq (n, rig_icalls_per_datagram ("6.9.0", AF_INET, listed));
}
END_TEST

/* From v6.12 (417c5643cd67) the security hooks run static calls: a write and its delivery
 * make no indirect call for an LSM, AppArmor's hooks are called directly and BPF-LSM's
 * (LSM_HOOK_INIT_RUNTIME) not at all until a BPF program attaches. Until then each hook on
 * a list is an indirect call: AppArmor's three (file_permission, socket_sendmsg,
 * sock_rcv_skb), TOMOYO's socket_sendmsg and BPF-LSM's three (the same hooks; the
 * connected socket's cached route skips sk_classify_flow). */
START_TEST (test_lsm_static_calls_from_6_12)
{
  static const char *const with[] = { "CONFIG_SECURITY", "y", NULL };
  static const char *const without[] = { "CONFIG_SECURITY", "n", NULL };
  Rig rig;

  ck_assert_uint_eq (rig_icalls_per_datagram ("6.12.0", AF_INET, with),
                     rig_icalls_per_datagram ("6.12.0", AF_INET, without));
  ck_assert_uint_eq (rig_icalls_per_datagram ("6.11.0", AF_INET, with),
                     rig_icalls_per_datagram ("6.11.0", AF_INET, without) + 3 + 1 + 3);
  rig_init_config (&rig, "6.12.0", AF_INET, 0, with);
  send_datagram (&rig, 1000);
  ck_assert_uint_eq (stack_rig_calls (&rig.s, "apparmor_socket_sendmsg"), 1);
  ck_assert_uint_eq (stack_rig_calls (&rig.s, "aa_sk_perm"), 1);   /* the hook ran whole */
  ck_assert_uint_eq (stack_rig_calls (&rig.s, "tomoyo_socket_sendmsg"), 1);
  ck_assert_uint_eq (stack_rig_calls (&rig.s, "bpf_lsm_socket_sendmsg"), 0);
  ck_assert_uint_eq (stack_rig_calls (&rig.s, "bpf_lsm_file_permission"), 0);
  rig_clear (&rig);
}
END_TEST

/* The v4-mapped peer gets an IPv4 datagram (udpv6_sendmsg's hand-off to udp_sendmsg):
 * IPv4 and UDP headers, one OUTDATAGRAMS, the AF_INET server receives it, and the
 * sender's sk_wmem_alloc comes back. */
START_TEST (test_v4mapped_sends_ipv4)
{
  const guint len = 1000;
  struct sk_buff *skb;
  guint64 out0;
  gint wmem0;
  Rig rig;

  mapped_rig_init (&rig);
  out0 = out_datagrams (&rig);
  wmem0 = ns_file_sock (rig.client)->sk_wmem_alloc;
  ck_assert_int_eq (write_on (&rig, rig.client, len), (gssize) len);
  ck_assert_uint_eq (ns_file_sock (rig.server)->sk_receive_queue.qlen, 1);
  skb = last_queued (&rig);
  expect_udp_header (skb, rig.client, len);
  expect_ipv4_header (skb, len);
  ck_assert_uint_eq (out_datagrams (&rig), out0 + 1);
  ck_assert_int_eq (ns_file_sock (rig.client)->sk_wmem_alloc, wmem0);
  rig_clear (&rig);
}
END_TEST

/* The v4-mapped peer's largest payload is IPv4's 65507, not IPv6's 65527. */
START_TEST (test_v4mapped_emsgsize)
{
  struct dst_entry *dst;
  guint64 out0;
  gint ref0;
  Rig rig;

  mapped_rig_init (&rig);
  dst = ns_file_sock (rig.client)->sk_dst_cache;
  ref0 = dst->__rcuref;
  out0 = out_datagrams (&rig);
  ck_assert_int_eq (write_on (&rig, rig.client, KERNEL_IPV4_MAX_PAYLOAD),
                    KERNEL_IPV4_MAX_PAYLOAD);
  ck_assert_int_eq (write_on (&rig, rig.client, KERNEL_IPV4_MAX_PAYLOAD + 1), -EMSGSIZE);
  ck_assert_int_eq (dst->__rcuref, ref0);
  ck_assert_uint_eq (out_datagrams (&rig), out0 + 1);
  ck_assert_uint_eq (ns_file_sock (rig.server)->sk_receive_queue.qlen, 1);
  rig_clear (&rig);
}
END_TEST

static Suite *
udp_tx_suite (void)
{
  Suite *s = suite_create ("udp_tx");
  TCase *tc = tcase_create ("write");

  tcase_add_loop_test (tc, test_write_returns_len_and_counts, 0, 2);
  tcase_add_loop_test (tc, test_headers, 0, 2 * G_N_ELEMENTS (send_lens));
  tcase_add_loop_test (tc, test_device_drop_is_the_error, 0, 2);
  tcase_add_loop_test (tc, test_unconnected_edestaddrreq, 0, 2);
  tcase_add_loop_test (tc, test_unconnected_state_before_size, 0, 2);
  tcase_add_loop_test (tc, test_emsgsize_releases_route, 0, 2);
  tcase_add_test (tc, test_apparmor_hooks_follow_the_config);
  tcase_add_test (tc, test_lsm_static_calls_from_6_12);
  tcase_add_test (tc, test_v4mapped_sends_ipv4);
  tcase_add_test (tc, test_v4mapped_emsgsize);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (udp_tx_suite ());
  gint failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
