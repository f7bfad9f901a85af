/* test-arena.c — alignment, deterministic addresses, LIFO reuse per size class,
 * contains/addr, zeroing and accounting. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>

#include "arena.h"

#define BASE G_GUINT64_CONSTANT (0xffff888100000000)
#define CAP  (((gsize) 64) << 20)

START_TEST (test_alignment)
{
  NsArena *a = ns_arena_new (BASE, CAP);
  const gsize aligns[] = { 8, 16, 64, 128, 4096 };

  ck_assert_ptr_nonnull (a);
  for (guint round = 0; round < 3; round++)
    for (guint i = 0; i < G_N_ELEMENTS (aligns); i++) {
      guint8 *p = ns_arena_alloc (a, 1 + round * 37 + i * 5, aligns[i]);
      ck_assert_uint_eq (ns_arena_addr (a, p) % aligns[i], 0);
      ck_assert_uint_eq ((guintptr) p % aligns[i], 0);
    }
  ns_arena_free (a);
}
END_TEST

/* Runs a fixed mixed sequence of allocations and releases; records simulated addresses. */
static void
run_sequence (NsArena *a, guint64 *out, guint n)
{
  gpointer live[64] = { NULL };
  gsize sizes[64] = { 0 };

  for (guint i = 0; i < n; i++) {
    guint slot = (i * 7) % 64;
    if (live[slot] != NULL)
      ns_arena_release (a, live[slot], sizes[slot]);
    sizes[slot] = 8 + (i * 13) % 500;
    live[slot] = ns_arena_alloc (a, sizes[slot], (i % 3) ? 8 : 64);
    out[i] = ns_arena_addr (a, live[slot]);
  }
}

START_TEST (test_deterministic)
{
  NsArena *a = ns_arena_new (BASE, CAP);
  NsArena *b = ns_arena_new (BASE, CAP);
  guint64 xa[1000], xb[1000];

  run_sequence (a, xa, G_N_ELEMENTS (xa));
  run_sequence (b, xb, G_N_ELEMENTS (xb));
  ck_assert_mem_eq (xa, xb, sizeof xa);
  /* the first object sits at the base */
  ck_assert_uint_eq (xa[0], BASE);
  ns_arena_free (a);
  ns_arena_free (b);
}
END_TEST

START_TEST (test_lifo_reuse)
{
  NsArena *a = ns_arena_new (BASE, CAP);
  gpointer p1 = ns_arena_alloc (a, 232, 8);
  gpointer p2 = ns_arena_alloc (a, 232, 8);
  gpointer p3 = ns_arena_alloc (a, 232, 8);
  gpointer other, q;

  ck_assert_uint_eq (ns_arena_addr (a, p2) - ns_arena_addr (a, p1), 232);
  ns_arena_release (a, p1, 232);
  ns_arena_release (a, p3, 232);
  /* another size class does not take them */
  other = ns_arena_alloc (a, 512, 8);
  ck_assert_ptr_ne (other, p1);
  ck_assert_ptr_ne (other, p3);
  /* last freed, first reused; sizes of one class (225..232) share the list */
  q = ns_arena_alloc (a, 230, 8);
  ck_assert_ptr_eq (q, p3);
  q = ns_arena_alloc (a, 232, 8);
  ck_assert_ptr_eq (q, p1);
  /* list empty: bump again, after `other` */
  q = ns_arena_alloc (a, 232, 8);
  ck_assert_uint_eq (ns_arena_addr (a, q), ns_arena_addr (a, other) + 512);
  ns_arena_free (a);
}
END_TEST

/* Counts the criticals logged while it is installed (see count_criticals). */
static void
on_critical (const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data)
{
  (*(guint *) data)++;
}

/* A release that is not the inverse of an allocation (another size class, twice, an
 * address inside an object) is refused with a critical, and the object stays where it
 * was: the next allocation of its class does not get it. */
START_TEST (test_invalid_release)
{
  NsArena *a = ns_arena_new (BASE, CAP);
  guint8 *p = ns_arena_alloc (a, 16384, 4096);
  guint8 *q = ns_arena_alloc (a, 64, 64);
  guint criticals = 0;
  guint handler;
  GLogLevelFlags fatal = g_log_set_always_fatal (G_LOG_FATAL_MASK); /* make check's G_DEBUG
                                                                      makes them fatal */
  handler = g_log_set_handler (G_LOG_DOMAIN, G_LOG_LEVEL_CRITICAL, on_critical, &criticals);
  ns_arena_release (a, p, 32768);                 /* another class */
  ck_assert_uint_eq (criticals, 1);
  ck_assert_ptr_ne (ns_arena_alloc (a, 32768, 4096), p);
  ns_arena_release (a, q + 8, 56);                /* inside an object */
  ck_assert_uint_eq (criticals, 2);
  ns_arena_release (a, q, 64);
  ns_arena_release (a, q, 64);                    /* twice */
  ck_assert_uint_eq (criticals, 3);
  ck_assert_ptr_eq (ns_arena_alloc (a, 64, 64), q);
  ck_assert_ptr_ne (ns_arena_alloc (a, 64, 64), q);
  ns_arena_release (a, p, 16384);                 /* as allocated: fine */
  ck_assert_uint_eq (criticals, 3);
  g_log_remove_handler (G_LOG_DOMAIN, handler);
  g_log_set_always_fatal (fatal);
  ns_arena_free (a);
}
END_TEST

START_TEST (test_zeroed_and_used)
{
  NsArena *a = ns_arena_new (BASE, CAP);
  guint8 *p = ns_arena_alloc (a, 100, 8);
  guint8 *q;

  ck_assert_uint_eq (ns_arena_used (a), 104);
  memset (p, 0xab, 100);
  ns_arena_release (a, p, 100);
  ck_assert_uint_eq (ns_arena_used (a), 0);
  q = ns_arena_alloc (a, 100, 8);
  ck_assert_ptr_eq (q, p);
  for (guint i = 0; i < 100; i++)
    ck_assert_uint_eq (q[i], 0);
  ck_assert_uint_eq (ns_arena_used (a), 104);
  ns_arena_free (a);
}
END_TEST

START_TEST (test_contains_addr)
{
  NsArena *a = ns_arena_new (BASE, CAP);
  guint8 *p = ns_arena_alloc (a, 4096, 64);
  int on_stack = 0;

  ck_assert (ns_arena_contains (a, p));
  ck_assert (ns_arena_contains (a, p + 4095));
  ck_assert (!ns_arena_contains (a, &on_stack));
  ck_assert (!ns_arena_contains (a, p + CAP));
  ck_assert_uint_eq (ns_arena_addr (a, p), BASE);
  ck_assert_uint_eq (ns_arena_addr (a, p + 100), BASE + 100);
  ns_arena_free (a);
}
END_TEST

/* ns_arena_set_layout: an object's bytes are charged where its map puts them (here a
 * reversal of 16-byte fields), the bytes around it and other objects where they lie; a
 * second setting replaces the first; an object over a page boundary is found from either
 * page; clearing gives the addresses back. */
START_TEST (test_layout_remaps)
{
  NsArena *a = ns_arena_new (BASE, CAP);
  guint8 *before = ns_arena_alloc (a, 4000, 64);     /* puts obj across a page boundary */
  guint8 *obj = ns_arena_alloc (a, 256, 64);
  guint8 *after = ns_arena_alloc (a, 64, 64);
  guint64 at = ns_arena_addr (a, obj);
  guint16 swap[256], same[256];

  for (guint o = 0; o < 256; o++) {
    swap[o] = (guint16) ((15 - o / 16) * 16 + o % 16);
    same[o] = (guint16) o;
  }
  ck_assert ((ns_arena_addr (a, obj) >> 12) != (ns_arena_addr (a, obj + 255) >> 12));
  ck_assert_uint_eq (ns_arena_charged_addr (a, obj + 17), at + 17);
  ns_arena_set_layout (a, obj, 256, swap);
  ck_assert_uint_eq (ns_arena_charged_addr (a, obj), at + 240);
  ck_assert_uint_eq (ns_arena_charged_addr (a, obj + 17), at + 225);
  ck_assert_uint_eq (ns_arena_charged_addr (a, obj + 255), at + 15);
  ck_assert_uint_eq (ns_arena_charged_addr (a, before), ns_arena_addr (a, before));
  ck_assert_uint_eq (ns_arena_charged_addr (a, after), ns_arena_addr (a, after));
  ns_arena_set_layout (a, obj, 256, same);
  ck_assert_uint_eq (ns_arena_charged_addr (a, obj + 255), at + 255);
  ns_arena_set_layout (a, obj, 256, swap);
  ns_arena_clear_layout (a, obj);
  ck_assert_uint_eq (ns_arena_charged_addr (a, obj), at);
  ck_assert_uint_eq (ns_arena_charged_addr (a, obj + 255), at + 255);
  ns_arena_clear_layout (a, obj);                    /* clearing twice is harmless */
  ns_arena_free (a);
}
END_TEST

START_TEST (test_large_lazy)
{
  /* 16 GiB of address space costs nothing until touched; big objects work */
  NsArena *a = ns_arena_new (BASE, ((gsize) 16) << 30);
  guint8 *big;

  ck_assert_ptr_nonnull (a);
  big = ns_arena_alloc (a, 64 << 20, 4096);
  big[0] = 1;
  big[(64 << 20) - 1] = 2;
  ns_arena_release (a, big, 64 << 20);
  ck_assert_ptr_eq (ns_arena_alloc (a, 64 << 20, 4096), big);
  ck_assert_uint_eq (big[0], 0);
  ns_arena_free (a);
}
END_TEST

#ifndef NS_WITH_ASAN            /* AddressSanitizer cannot run under an address-space limit */
static guint warnings;

/* A log writer that counts the messages of warning level or worse. */
static GLogWriterOutput
count_warnings (GLogLevelFlags level, const GLogField *fields, gsize n, gpointer data)
{
  (void) fields, (void) n, (void) data;
  if (level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING))
    warnings++;
  return G_LOG_WRITER_HANDLED;
}

/* The bytes of address space this process maps now (/proc/self/statm's first field). */
static gsize
mapped_bytes (void)
{
  g_autofree char *statm = NULL;

  ck_assert (g_file_get_contents ("/proc/self/statm", &statm, NULL, NULL));
  return (gsize) g_ascii_strtoull (statm, NULL, 10) * (gsize) sysconf (_SC_PAGESIZE);
}

START_TEST (test_refused_quietly)
{
  /* under a ulimit -v the reservation fails with errno set and no warning (a machine
   * retries smaller: each try warned, and G_DEBUG=fatal-warnings killed the run) */
  struct rlimit lim;
  NsArena *a;

  g_log_set_writer_func (count_warnings, NULL, NULL);
  lim.rlim_cur = lim.rlim_max = mapped_bytes () + (((gsize) 512) << 20);
  ck_assert_int_eq (setrlimit (RLIMIT_AS, &lim), 0);   /* the test runs in a child */
  errno = 0;
  ck_assert_ptr_null (ns_arena_new (BASE, ((gsize) 16) << 30));
  ck_assert_int_eq (errno, ENOMEM);
  a = ns_arena_new (BASE, CAP);
  ck_assert_ptr_nonnull (a);
  ns_arena_free (a);
  ck_assert_uint_eq (warnings, 0);
}
END_TEST
#endif

static Suite *
arena_suite (void)
{
  Suite *s = suite_create ("arena");
  TCase *tc = tcase_create ("core");

  tcase_add_test (tc, test_alignment);
  tcase_add_test (tc, test_deterministic);
  tcase_add_test (tc, test_lifo_reuse);
  tcase_add_test (tc, test_invalid_release);
  tcase_add_test (tc, test_zeroed_and_used);
  tcase_add_test (tc, test_contains_addr);
  tcase_add_test (tc, test_layout_remaps);
  tcase_add_test (tc, test_large_lazy);
#ifndef NS_WITH_ASAN
  tcase_add_test (tc, test_refused_quietly);
#endif
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (arena_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
