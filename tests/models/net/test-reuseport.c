/* test-reuseport.c — SO_REUSEPORT groups (models/net/reuseport.c) against the kernel's
 * bookkeeping (net/core/sock_reuseport.c): members join at the end of socks[]; a member
 * that leaves is replaced by the last one (reuseport_detach_sock); a full group grows to
 * twice its size (reuseport_grow, from INIT_SOCKS = 128) with its members in order; the
 * last member's leaving frees the group (the arena accepts the release); a connect()
 * marks the group has_conns. */
#include "config.h"
#include <check.h>
#include <arpa/inet.h>
#include <string.h>
#include "arena.h"
#include "build.h"
#include "udp.h"

#define BASE G_GUINT64_CONSTANT (0xffff888100000000)

typedef struct {
  NsArena          *arena;
  NsBuild          *build;
  struct net       *net;
  struct udp_table *tbl;
} Rig;

/* A v6.9 UDP table in an arena of its own. */
static void
rig_init (Rig *rig)
{
  GError *error = NULL;

  rig->arena = ns_arena_new (BASE, ((gsize) 256) << 20);
  rig->build = ns_build_new ("6.9.0", 60);
  rig->net = ns_net_new (rig->arena, 0x12345678u, 1);
  rig->tbl = udp_table_new (rig->arena, rig->build, 256, &error);
  ck_assert_msg (rig->tbl != NULL, "%s", error ? error->message : "?");
}

/* Frees what rig_init made. */
static void
rig_clear (Rig *rig)
{
  ns_build_free (rig->build);
  ns_arena_free (rig->arena);
}

/* A socket with SO_REUSEPORT and SO_INCOMING_CPU cpu (-1: unset) bound to
 * 127.0.0.1:5000. */
static struct sock *
member_on (Rig *rig, gint cpu)
{
  struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons (5000) };
  struct sock *sk = udp_sock_create (rig->tbl, rig->net, AF_INET);

  in.sin_addr.s_addr = htonl (0x7f000001);
  udp_sock_set_reuseport (sk, TRUE);
  if (cpu >= 0)
    udp_sock_set_incoming_cpu (sk, cpu);
  ck_assert_int_eq (udp_sock_bind (sk, (struct sockaddr *) &in, sizeof in), 0);
  return sk;
}

/* A socket with SO_REUSEPORT bound to 127.0.0.1:5000. */
static struct sock *
member (Rig *rig)
{
  return member_on (rig, -1);
}

START_TEST (test_leave_moves_the_last_member)
{
  struct sock *sk[4];
  struct sock_reuseport *reuse;
  Rig rig;

  rig_init (&rig);
  for (guint i = 0; i < 4; i++)
    sk[i] = member (&rig);
  reuse = udp_sock_reuseport_group (sk[0]);
  ck_assert_uint_eq (reuseport_group_size (reuse), 4);
  for (guint i = 0; i < 4; i++) {
    ck_assert_ptr_eq (udp_sock_reuseport_group (sk[i]), reuse);
    ck_assert_ptr_eq (reuseport_group_member (reuse, i), sk[i]);
  }
  udp_sock_close (sk[1]);
  ck_assert_uint_eq (reuseport_group_size (reuse), 3);
  ck_assert_ptr_eq (reuseport_group_member (reuse, 0), sk[0]);
  ck_assert_ptr_eq (reuseport_group_member (reuse, 1), sk[3]);
  ck_assert_ptr_eq (reuseport_group_member (reuse, 2), sk[2]);
  ck_assert_ptr_null (reuseport_group_member (reuse, 3));   /* past the members */
  udp_sock_close (sk[0]);
  udp_sock_close (sk[2]);
  udp_sock_close (sk[3]);                 /* the last: the group goes back to the arena */
  rig_clear (&rig);
}
END_TEST

START_TEST (test_full_group_doubles)
{
  struct sock *sk[300];
  struct sock_reuseport *reuse;
  Rig rig;

  rig_init (&rig);
  for (guint i = 0; i < G_N_ELEMENTS (sk); i++)
    sk[i] = member (&rig);
  reuse = udp_sock_reuseport_group (sk[0]);
  ck_assert_uint_eq (reuseport_group_size (reuse), G_N_ELEMENTS (sk));
  for (guint i = 0; i < G_N_ELEMENTS (sk); i++) {
    ck_assert_ptr_eq (udp_sock_reuseport_group (sk[i]), reuse);   /* all moved over */
    ck_assert_ptr_eq (reuseport_group_member (reuse, i), sk[i]);
  }
  for (guint i = 0; i < G_N_ELEMENTS (sk); i++)
    udp_sock_close (sk[i]);
  rig_clear (&rig);
}
END_TEST

START_TEST (test_connect_marks_has_conns)
{
  struct sockaddr_in peer = { .sin_family = AF_INET, .sin_port = htons (6000) };
  struct sock *a, *b;
  Rig rig;

  rig_init (&rig);
  a = member (&rig);
  b = member (&rig);
  ck_assert (!reuseport_group_has_conns (udp_sock_reuseport_group (a)));
  peer.sin_addr.s_addr = htonl (0x7f000001);
  ck_assert_int_eq (udp_sock_connect (b, (struct sockaddr *) &peer, sizeof peer, NULL), 0);
  ck_assert (reuseport_group_has_conns (udp_sock_reuseport_group (a)));
  udp_sock_close (a);
  udp_sock_close (b);
  rig_clear (&rig);
}
END_TEST

/* The group's incoming_cpu counter (6.2+: reuseport_get_incoming_cpu on joining,
 * reuseport_put_incoming_cpu on leaving, reuseport_update_incoming_cpu on setsockopt)
 * counts the members with SO_INCOMING_CPU set, CPU 0 like any other: a member's setting
 * from unset raises it, a move between CPUs leaves it, unsetting (a negative CPU) or
 * leaving lowers it. */
START_TEST (test_incoming_cpu_counter)
{
  static const struct { gint cpu; guint count; } steps[] = {
    { 0, 2 }, { 1, 2 }, { 0, 2 }, { -1, 1 }, { 3, 2 }, { -5, 1 },
  };
  struct sock_reuseport *reuse;
  struct sock *a, *b, *c;
  Rig rig;

  rig_init (&rig);
  a = member_on (&rig, 0);
  reuse = udp_sock_reuseport_group (a);
  ck_assert_uint_eq (reuseport_group_incoming_cpu (reuse), 1);
  b = member (&rig);
  ck_assert_uint_eq (reuseport_group_incoming_cpu (reuse), 1);
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++) {
    udp_sock_set_incoming_cpu (b, steps[i].cpu);
    ck_assert_msg (reuseport_group_incoming_cpu (reuse) == steps[i].count,
                   "b's CPU set to %d: counter %u, want %u", steps[i].cpu,
                   reuseport_group_incoming_cpu (reuse), steps[i].count);
  }
  c = member_on (&rig, 2);
  ck_assert_uint_eq (reuseport_group_incoming_cpu (reuse), 2);
  udp_sock_close (a);                     /* CPU 0 leaves */
  ck_assert_ptr_eq (udp_sock_reuseport_group (c), reuse);
  ck_assert_uint_eq (reuseport_group_incoming_cpu (reuse), 1);
  udp_sock_close (c);
  ck_assert_uint_eq (reuseport_group_incoming_cpu (reuse), 0);
  udp_sock_close (b);
  rig_clear (&rig);
}
END_TEST

static Suite *
reuseport_suite (void)
{
  Suite *s = suite_create ("reuseport");
  TCase *tc = tcase_create ("groups");

  tcase_add_test (tc, test_leave_moves_the_last_member);
  tcase_add_test (tc, test_full_group_doubles);
  tcase_add_test (tc, test_connect_marks_has_conns);
  tcase_add_test (tc, test_incoming_cpu_counter);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (reuseport_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
