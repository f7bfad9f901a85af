/* test-udp6.c — the IPv6 halves of bind(2) and connect(2) on an AF_INET6 UDP socket
 * (models/net/udp6.c: udp6_bind, udp6_connect; the lookup is test-udp.c's), against the
 * rules of Linux v6.9:
 *  - net/ipv6/af_inet6.c inet6_bind_sk / __inet6_bind: an address shorter than
 *    SIN6_LEN_RFC2133 (24 bytes, no sin6_scope_id) is EINVAL, another family
 *    EAFNOSUPPORT; the IPv4 view of the local address is the mapped address' IPv4 word,
 *    0 for ::, else LOOPBACK4_IPV6 (127.0.0.6); a specific IPv6 address makes the socket
 *    IPv6-only; SOCK_BINDADDR_LOCK for any address but ::, SOCK_BINDPORT_LOCK for a
 *    non-zero port, inet_sport = the bound port; a failed get_port restores
 *    sk_ipv6only and resets the addresses (inet_reset_saddr);
 *  - net/ipv6/datagram.c __ip6_datagram_connect: an AF_INET address on an IPv6-only
 *    socket is EAFNOSUPPORT before any length test; an AF_INET6 one shorter than 24 bytes
 *    is EINVAL; :: means "connect to self": ::ffff:127.0.0.1 when the bound address is
 *    v4-mapped, else ::1; a v4-mapped peer on an IPv6-only socket is ENETUNREACH,
 *    otherwise it connects as IPv4 (__ip4_datagram_connect) and the IPv6 views become
 *    the mapped daddr and rcv_saddr; an IPv6 peer sets sk_v6_daddr and dport, and
 *    ip6_datagram_dst_update gives a wildcard socket the route's source (::1 on lo) with
 *    LOOPBACK4_IPV6 as its IPv4 view; the socket is then TCP_ESTABLISHED.
 * Expected values are the kernel's, written out here, never read back from the model. */
#include "config.h"
#include <errno.h>
#include <arpa/inet.h>
#include "stack-rig.h"
#include "udp.h"
#include "udp-priv.h"

#define PORT               5301
#define SIN6_LEN_RFC2133   24            /* include/linux/ipv6.h */
#define KERNEL_LOOPBACK4_IPV6  0x7f000006u   /* 127.0.0.6, host order */

/* An IPv6 address from text. */
static ns_in6_addr
a6 (const char *text)
{
  ns_in6_addr a;

  ck_assert_int_eq (inet_pton (AF_INET6, text, &a), 1);
  return a;
}

/* A sockaddr_in6 of text, port. */
static struct sockaddr_in6
sin6 (const char *text, guint16 port)
{
  struct sockaddr_in6 s = { .sin6_family = AF_INET6, .sin6_port = htons (port) };

  ck_assert_int_eq (inet_pton (AF_INET6, text, &s.sin6_addr), 1);
  return s;
}

/* TRUE if a equals the address written as text. */
static gboolean
addr_is (const ns_in6_addr *a, const char *text)
{
  ns_in6_addr want = a6 (text);

  return memcmp (a, &want, sizeof want) == 0;
}

/* A fresh AF_INET6 socket on the rig's stack, IPv6-only if v6only. */
static struct sock *
new_sock6 (StackRig *s, gboolean v6only)
{
  struct sock *sk = ns_file_sock (ns_netstack_socket (s->stack, AF_INET6, FALSE));

  ck_assert_int_eq (udp_sock_set_v6only (sk, v6only), 0);
  return sk;
}

/* bind(2) of sk to text:port with addr_len bytes of the address. */
static gint
bind6 (struct sock *sk, const char *text, guint16 port, gint addr_len)
{
  struct sockaddr_in6 s = sin6 (text, port);

  return udp_sock_bind (sk, (struct sockaddr *) &s, addr_len);
}

/* connect(2) of sk to text:port with addr_len bytes of the address. */
static gint
connect6 (struct sock *sk, const char *text, guint16 port, gint addr_len)
{
  struct sockaddr_in6 s = sin6 (text, port);

  return udp_sock_connect (sk, (struct sockaddr *) &s, addr_len, NULL);
}

/* ---- bind ---- */

/* ::1 — a specific IPv6 address: IPv4 view 127.0.0.6, IPv6-only, both locks, sport. */
START_TEST (test_bind_specific)
{
  StackRig s;
  struct sock *sk;

  stack_rig_init (&s, "6.9.0", NULL, NULL, NULL);
  sk = new_sock6 (&s, FALSE);
  ck_assert_int_eq (bind6 (sk, "::1", PORT, sizeof (struct sockaddr_in6)), 0);
  ck_assert (addr_is (&sk->sk_v6_rcv_saddr, "::1"));
  ck_assert_uint_eq (sk->sk_rcv_saddr, htonl (KERNEL_LOOPBACK4_IPV6));
  ck_assert_uint_eq (inet_sk (sk)->inet_saddr, htonl (KERNEL_LOOPBACK4_IPV6));
  ck_assert_uint_eq (sk->sk_ipv6only, 1);
  ck_assert_uint_eq (sk->sk_userlocks, SOCK_BINDADDR_LOCK | SOCK_BINDPORT_LOCK);
  ck_assert_uint_eq (sk->sk_num, PORT);
  ck_assert_uint_eq (inet_sk (sk)->inet_sport, htons (PORT));
  stack_rig_clear (&s);
}
END_TEST

/* :: port 0 — no IPv4 view, still dual-stack, no lock, an ephemeral port as sport. */
START_TEST (test_bind_wildcard_ephemeral)
{
  StackRig s;
  struct sock *sk;

  stack_rig_init (&s, "6.9.0", NULL, NULL, NULL);
  sk = new_sock6 (&s, FALSE);
  ck_assert_int_eq (bind6 (sk, "::", 0, sizeof (struct sockaddr_in6)), 0);
  ck_assert (addr_is (&sk->sk_v6_rcv_saddr, "::"));
  ck_assert_uint_eq (sk->sk_rcv_saddr, 0);
  ck_assert_uint_eq (sk->sk_ipv6only, 0);
  ck_assert_uint_eq (sk->sk_userlocks, 0);
  ck_assert_uint_ne (sk->sk_num, 0);
  ck_assert_uint_eq (inet_sk (sk)->inet_sport, htons (sk->sk_num));
  stack_rig_clear (&s);
}
END_TEST

/* ::ffff:127.0.0.1 — the IPv4 word as the IPv4 view; the socket stays dual-stack. */
START_TEST (test_bind_v4mapped)
{
  StackRig s;
  struct sock *sk;

  stack_rig_init (&s, "6.9.0", NULL, NULL, NULL);
  sk = new_sock6 (&s, FALSE);
  ck_assert_int_eq (bind6 (sk, "::ffff:127.0.0.1", PORT, sizeof (struct sockaddr_in6)), 0);
  ck_assert_uint_eq (sk->sk_rcv_saddr, htonl (0x7f000001));
  ck_assert_uint_eq (sk->sk_ipv6only, 0);
  ck_assert_uint_eq (sk->sk_userlocks, SOCK_BINDADDR_LOCK | SOCK_BINDPORT_LOCK);
  stack_rig_clear (&s);
}
END_TEST

/* A bind that loses the port (EADDRINUSE) leaves the socket as it was: dual-stack, no
 * address, unbound (sk_ipv6only = saved_ipv6only; inet_reset_saddr). */
START_TEST (test_bind_failure_restores)
{
  StackRig s;
  struct sock *first, *second;

  stack_rig_init (&s, "6.9.0", NULL, NULL, NULL);
  first = new_sock6 (&s, FALSE);
  second = new_sock6 (&s, FALSE);
  ck_assert_int_eq (bind6 (first, "::1", PORT, sizeof (struct sockaddr_in6)), 0);
  ck_assert_int_eq (bind6 (second, "::1", PORT, sizeof (struct sockaddr_in6)), -EADDRINUSE);
  ck_assert_uint_eq (second->sk_ipv6only, 0);
  ck_assert (addr_is (&second->sk_v6_rcv_saddr, "::"));
  ck_assert_uint_eq (second->sk_rcv_saddr, 0);
  ck_assert_uint_eq (inet_sk (second)->inet_saddr, 0);
  ck_assert_uint_eq (second->sk_num, 0);
  ck_assert_uint_eq (second->sk_userlocks, 0);
  stack_rig_clear (&s);
}
END_TEST

/* inet6_bind_sk: fewer than SIN6_LEN_RFC2133 bytes is EINVAL, exactly 24 (an RFC 2133
 * sockaddr_in6 without sin6_scope_id) binds; an AF_INET address is EAFNOSUPPORT. */
START_TEST (test_bind_address_length_and_family)
{
  struct sockaddr_in6 wrong = sin6 ("::1", PORT);
  StackRig s;
  struct sock *sk;

  stack_rig_init (&s, "6.9.0", NULL, NULL, NULL);
  sk = new_sock6 (&s, FALSE);
  ck_assert_int_eq (bind6 (sk, "::1", PORT, SIN6_LEN_RFC2133 - 1), -EINVAL);
  wrong.sin6_family = AF_INET;
  ck_assert_int_eq (udp_sock_bind (sk, (struct sockaddr *) &wrong, sizeof wrong),
                    -EAFNOSUPPORT);
  ck_assert_int_eq (bind6 (sk, "::1", PORT, SIN6_LEN_RFC2133), 0);
  ck_assert_uint_eq (sk->sk_num, PORT);
  stack_rig_clear (&s);
}
END_TEST

/* ---- connect ---- */

/* An IPv6 peer on a wildcard socket: daddr, dport, the route's source ::1 as the local
 * address with 127.0.0.6 as its IPv4 view, TCP_ESTABLISHED. */
START_TEST (test_connect_v6_peer)
{
  StackRig s;
  struct sock *sk;

  stack_rig_init (&s, "6.9.0", NULL, NULL, NULL);
  sk = new_sock6 (&s, FALSE);
  ck_assert_int_eq (connect6 (sk, "::1", PORT, sizeof (struct sockaddr_in6)), 0);
  ck_assert (addr_is (&sk->sk_v6_daddr, "::1"));
  ck_assert_uint_eq (sk->sk_dport, htons (PORT));
  ck_assert (addr_is (&sk->sk_v6_rcv_saddr, "::1"));
  ck_assert_uint_eq (sk->sk_rcv_saddr, htonl (KERNEL_LOOPBACK4_IPV6));
  ck_assert_uint_eq (sk->sk_state, TCP_ESTABLISHED);
  stack_rig_clear (&s);
}
END_TEST

/* A v4-mapped peer (or a sockaddr_in) on a dual-stack socket connects as IPv4: the IPv4
 * daddr and source 127.0.0.1, their mapped IPv6 views, TCP_ESTABLISHED. */
START_TEST (test_connect_v4mapped_peer)
{
  struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons (PORT),
                            .sin_addr.s_addr = htonl (0x7f000001) };
  StackRig s;
  struct sock *sk;
  gint err;

  stack_rig_init (&s, "6.9.0", NULL, NULL, NULL);
  sk = new_sock6 (&s, FALSE);
  if (_i == 0)
    err = connect6 (sk, "::ffff:127.0.0.1", PORT, sizeof (struct sockaddr_in6));
  else
    err = udp_sock_connect (sk, (struct sockaddr *) &in, sizeof in, NULL);
  ck_assert_int_eq (err, 0);
  ck_assert_uint_eq (sk->sk_daddr, htonl (0x7f000001));
  ck_assert_uint_eq (sk->sk_dport, htons (PORT));
  ck_assert (addr_is (&sk->sk_v6_daddr, "::ffff:127.0.0.1"));
  ck_assert_uint_eq (sk->sk_rcv_saddr, htonl (0x7f000001));
  ck_assert_uint_eq (inet_sk (sk)->inet_saddr, htonl (0x7f000001));
  ck_assert (addr_is (&sk->sk_v6_rcv_saddr, "::ffff:127.0.0.1"));
  ck_assert_uint_eq (sk->sk_state, TCP_ESTABLISHED);
  stack_rig_clear (&s);
}
END_TEST

/* On an IPv6-only socket: a sockaddr_in is EAFNOSUPPORT (tested before its length: even
 * a short one), a v4-mapped sockaddr_in6 ENETUNREACH; the socket stays unconnected. */
START_TEST (test_connect_v6only_refuses_ipv4)
{
  struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons (PORT),
                            .sin_addr.s_addr = htonl (0x7f000001) };
  StackRig s;
  struct sock *sk;

  stack_rig_init (&s, "6.9.0", NULL, NULL, NULL);
  sk = new_sock6 (&s, TRUE);
  ck_assert_int_eq (udp_sock_connect (sk, (struct sockaddr *) &in, sizeof in, NULL),
                    -EAFNOSUPPORT);
  ck_assert_int_eq (udp_sock_connect (sk, (struct sockaddr *) &in, sizeof in - 1, NULL),
                    -EAFNOSUPPORT);
  ck_assert_int_eq (connect6 (sk, "::ffff:127.0.0.1", PORT, sizeof (struct sockaddr_in6)),
                    -ENETUNREACH);
  ck_assert_uint_ne (sk->sk_state, TCP_ESTABLISHED);
  ck_assert_uint_eq (sk->sk_daddr, 0);
  ck_assert_uint_eq (sk->sk_dport, 0);
  stack_rig_clear (&s);
}
END_TEST

/* connect to :: is "connect to self": ::1 on a wildcard socket, ::ffff:127.0.0.1 (an IPv4
 * connect) on one bound to a v4-mapped address. */
START_TEST (test_connect_any_is_self)
{
  StackRig s;
  struct sock *plain, *mapped;

  stack_rig_init (&s, "6.9.0", NULL, NULL, NULL);
  plain = new_sock6 (&s, FALSE);
  ck_assert_int_eq (connect6 (plain, "::", PORT, sizeof (struct sockaddr_in6)), 0);
  ck_assert (addr_is (&plain->sk_v6_daddr, "::1"));
  mapped = new_sock6 (&s, FALSE);
  ck_assert_int_eq (bind6 (mapped, "::ffff:127.0.0.1", PORT + 1,
                           sizeof (struct sockaddr_in6)), 0);
  ck_assert_int_eq (connect6 (mapped, "::", PORT, sizeof (struct sockaddr_in6)), 0);
  ck_assert (addr_is (&mapped->sk_v6_daddr, "::ffff:127.0.0.1"));
  ck_assert_uint_eq (mapped->sk_daddr, htonl (0x7f000001));
  ck_assert_uint_eq (mapped->sk_state, TCP_ESTABLISHED);
  stack_rig_clear (&s);
}
END_TEST

/* __ip6_datagram_connect: fewer than SIN6_LEN_RFC2133 bytes is EINVAL, 24 connects. */
START_TEST (test_connect_address_length)
{
  StackRig s;
  struct sock *sk;

  stack_rig_init (&s, "6.9.0", NULL, NULL, NULL);
  sk = new_sock6 (&s, FALSE);
  ck_assert_int_eq (connect6 (sk, "::1", PORT, SIN6_LEN_RFC2133 - 1), -EINVAL);
  ck_assert_uint_ne (sk->sk_state, TCP_ESTABLISHED);
  ck_assert_int_eq (connect6 (sk, "::1", PORT, SIN6_LEN_RFC2133), 0);
  ck_assert_uint_eq (sk->sk_state, TCP_ESTABLISHED);
  stack_rig_clear (&s);
}
END_TEST

static Suite *
udp6_suite (void)
{
  Suite *s = suite_create ("udp6");
  TCase *bind = tcase_create ("bind");
  TCase *conn = tcase_create ("connect");

  tcase_add_test (bind, test_bind_specific);
  tcase_add_test (bind, test_bind_wildcard_ephemeral);
  tcase_add_test (bind, test_bind_v4mapped);
  tcase_add_test (bind, test_bind_failure_restores);
  tcase_add_test (bind, test_bind_address_length_and_family);
  tcase_add_test (conn, test_connect_v6_peer);
  tcase_add_loop_test (conn, test_connect_v4mapped_peer, 0, 2);
  tcase_add_test (conn, test_connect_v6only_refuses_ipv4);
  tcase_add_test (conn, test_connect_any_is_self);
  tcase_add_test (conn, test_connect_address_length);
  suite_add_tcase (s, bind);
  suite_add_tcase (s, conn);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (udp6_suite ());
  gint failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
