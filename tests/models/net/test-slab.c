/* test-slab.c — a SLUB cache's placement (models/net/slab.c): calculate_order against the
 * host kernel's /proc/slabinfo; objects in order within a slab and a new slab when it is
 * full; a shuffled freelist hands out each slab's objects once, every slab the cache's one
 * sequence from a random start; a freed object comes back first (last freed first),
 * zeroed, and an invalid free is refused; the UDP table's two socket caches, a closed
 * socket going back to its family's; each CPU carves its own slab. */
#include "config.h"
#include <check.h>
#include <string.h>
#include "arena.h"
#include "build.h"
#include "slab.h"
#include "udp.h"

#define BASE G_GUINT64_CONSTANT (0xffff888100000000)

/* /proc/slabinfo of this project's 2-CPU test host (Linux 6.18.44, measured 2026-12-03):
 * object size, objects a slab, pages a slab, for UDP, UDPv6, RAW, TCP and TCPv6. */
START_TEST (test_order_matches_host_slabinfo)
{
  static const struct { gsize size; guint objs, pages; } host[] = {
    { 1344, 12, 4 }, { 1472, 22, 8 }, { 1152, 14, 4 }, { 2368, 13, 8 }, { 2496, 13, 8 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (host); i++) {
    guint order = ns_slub_calculate_order (host[i].size, 2);
    gsize slab = (gsize) 4096 << order;

    ck_assert_uint_eq (slab / 4096, host[i].pages);
    ck_assert_uint_eq (slab / host[i].size, host[i].objs);
  }
}
END_TEST

/* The 128-thread EPYC of seed 000: min_objects 4 * (fls(128) + 1) = 36 does not fit in an
 * order-3 slab of either socket size, so both take order 3 with what fits. */
START_TEST (test_order_on_128_cpus)
{
  ck_assert_uint_eq (ns_slub_calculate_order (1152, 128), 3);
  ck_assert_uint_eq (ns_slub_calculate_order (1344, 128), 3);
  ck_assert_uint_eq (ns_slub_calculate_order (256, 128), 2);     /* 36 × 256 > 8 KiB */
  ck_assert_uint_eq (ns_slub_calculate_order (64, 2), 0);
  /* 2192 B on 2 CPUs: 12 objects want order 3, whose leftover 32768 − 14 × 2192 = 2080
   * bytes is over 1/16 of the slab (2048) but within 1/8: order 3, 14 objects */
  ck_assert_uint_eq (ns_slub_calculate_order (2192, 2), 3);
  /* the rule's edges on one CPU (8 objects): 8 × 512 is exactly a page, order 0 (get_order
   * rounds up only past it); 1280 B at order 2 leaves 1024, exactly 1/16 of the slab,
   * which is taken; 7000 B leaves more than 1/8 at every order up to 3 but within 1/4 at
   * order 3, taken before fewer objects are tried (which would give order 1); 10928 B,
   * larger than any kmalloc class, leaves more than 1/4 of an order-3 slab, so every try
   * of 2 objects fails (order 4, past the limit, is tried and refused) and the last
   * resort, one object with any leftover, gives order 2 */
  ck_assert_uint_eq (ns_slub_calculate_order (512, 1), 0);
  ck_assert_uint_eq (ns_slub_calculate_order (1280, 1), 2);
  ck_assert_uint_eq (ns_slub_calculate_order (7000, 1), 3);
  ck_assert_uint_eq (ns_slub_calculate_order (10928, 1), 2);
}
END_TEST

/* calculate_alignment: a kmalloc cache (no SLAB_HWCACHE_ALIGN) keeps its size, so
 * kmalloc-96's objects straddle lines; with SLAB_HWCACHE_ALIGN a 96-byte object takes a
 * line and a half-line object is aligned to 32 (it fits in half of 64, not of 32). */
START_TEST (test_alignment)
{
  NsArena *arena = ns_arena_new (BASE, (gsize) 1 << 20);
  NsKmemCache *kmalloc96 = ns_kmem_cache_new (arena, 96, 0, 2, FALSE, 0);
  NsKmemCache *hw96 = ns_kmem_cache_new (arena, 96, NS_SLAB_HWCACHE_ALIGN, 2, FALSE, 0);
  NsKmemCache *hw24 = ns_kmem_cache_new (arena, 24, NS_SLAB_HWCACHE_ALIGN, 2, FALSE, 0);
  NsKmemCache *odd = ns_kmem_cache_new (arena, 20, 0, 2, FALSE, 0);
  NsKmemCache *hw32 = ns_kmem_cache_new (arena, 32, NS_SLAB_HWCACHE_ALIGN, 2, FALSE, 0);
  NsKmemCache *hw16 = ns_kmem_cache_new (arena, 16, NS_SLAB_HWCACHE_ALIGN, 2, FALSE, 0);
  guint8 *a = ns_kmem_cache_alloc (kmalloc96, 0);

  ck_assert_uint_eq (ns_kmem_cache_size (kmalloc96), 96);
  ck_assert_ptr_eq (ns_kmem_cache_alloc (kmalloc96, 0), a + 96);
  ck_assert_uint_eq (ns_kmem_cache_size (hw96), 128);
  ck_assert_uint_eq (ns_kmem_cache_size (hw24), 32);
  ck_assert_uint_eq (ns_kmem_cache_size (odd), 24);        /* ARCH_SLAB_MINALIGN, 8 */
  ck_assert_uint_eq (ns_kmem_cache_size (hw32), 32);       /* fits half a line: 32 */
  ck_assert_uint_eq (ns_kmem_cache_size (hw16), 16);
  ns_kmem_cache_destroy (hw32);
  ns_kmem_cache_destroy (hw16);
  ns_kmem_cache_destroy (kmalloc96);
  ns_kmem_cache_destroy (hw96);
  ns_kmem_cache_destroy (hw24);
  ns_kmem_cache_destroy (odd);
  ns_arena_free (arena);
}
END_TEST

/* One rule for every cache: the freelists are shuffled only where the build says y (the
 * Kconfig default is n), whatever model asks. */
START_TEST (test_freelist_random_rule)
{
  NsBuild *b = ns_build_new ("6.9.0", 60);

  ck_assert (!ns_slab_freelist_random (NULL));
  ck_assert (!ns_slab_freelist_random (b));
  ns_build_set_config (b, "CONFIG_SLAB_FREELIST_RANDOM", "y");
  ck_assert (ns_slab_freelist_random (b));
  ns_build_set_config (b, "CONFIG_SLAB_FREELIST_RANDOM", "n");
  ck_assert (!ns_slab_freelist_random (b));
  ns_build_free (b);
}
END_TEST

/* SLUB's remote free: an object freed on a CPU whose active slab does not hold it goes on
 * its slab's freelist; the allocating CPU carves the rest of its slab first, then takes
 * that freelist back (get_freelist), most recently freed first, before a new slab. */
START_TEST (test_remote_free_waits_for_the_slab)
{
  NsArena *arena = ns_arena_new (BASE, (gsize) 1 << 20);
  NsKmemCache *c = ns_kmem_cache_new (arena, 256, 0, 2, FALSE, 0);
  guint n = (guint) (ns_kmem_cache_slab_bytes (c) / 256);
  guint8 *a = ns_kmem_cache_alloc (c, 0), *b = ns_kmem_cache_alloc (c, 0);

  ns_kmem_cache_free_on (c, a, 1);
  ns_kmem_cache_free_on (c, b, 1);
  for (guint i = 2; i < n; i++)
    ck_assert_ptr_eq (ns_kmem_cache_alloc (c, 0), a + (gsize) i * 256);
  ck_assert_ptr_eq (ns_kmem_cache_alloc (c, 0), b);
  ck_assert_ptr_eq (ns_kmem_cache_alloc (c, 0), a);
  /* the slab is full now: a free on CPU 0 is local, its next object */
  ns_kmem_cache_free_on (c, b, 0);
  ck_assert_ptr_eq (ns_kmem_cache_alloc (c, 0), b);
  ns_kmem_cache_destroy (c);
  ns_arena_free (arena);
}
END_TEST

/* A remote free into a slab another CPU holds leaves it that CPU's (in SLUB a slab with a
 * CPU is never on the node's partial list): CPU 1, out of objects, takes a new slab, not
 * CPU 0's with the object CPU 1 freed into it (CPU 0 being CPU number 0 changes nothing). */
START_TEST (test_remote_free_keeps_the_slab_its_cpus)
{
  NsArena *arena = ns_arena_new (BASE, (gsize) 1 << 20);
  NsKmemCache *c = ns_kmem_cache_new (arena, 256, 0, 2, FALSE, 0);
  guint n = (guint) (ns_kmem_cache_slab_bytes (c) / 256);
  guint8 *a = ns_kmem_cache_alloc (c, 0), *first1 = ns_kmem_cache_alloc (c, 1), *next;

  for (guint i = 1; i < n; i++)
    ns_kmem_cache_alloc (c, 1);
  ns_kmem_cache_free_on (c, a, 1);
  next = ns_kmem_cache_alloc (c, 1);
  ck_assert_ptr_ne (next, a);
  ck_assert (next < a || next >= a + n * 256);
  ck_assert (next < first1 || next >= first1 + n * 256);
  ck_assert_ptr_eq (ns_kmem_cache_alloc (c, 0), a + 256);     /* CPU 0 carves on */
  ns_kmem_cache_destroy (c);
  ns_arena_free (arena);
}
END_TEST

/* ns_kmem_cache_cpu_empty: a CPU without a slab has nothing; one that carved an object
 * has the rest of its slab, until it carved all, and again after a free on it. */
START_TEST (test_cpu_empty)
{
  NsArena *arena = ns_arena_new (BASE, (gsize) 1 << 20);
  NsKmemCache *c = ns_kmem_cache_new (arena, 512, 0, 2, FALSE, 0);
  guint n = (guint) (ns_kmem_cache_slab_bytes (c) / 512);
  gpointer last = NULL;

  ck_assert (ns_kmem_cache_cpu_empty (c, 0));
  ns_kmem_cache_alloc (c, 0);
  ck_assert (!ns_kmem_cache_cpu_empty (c, 0));
  ck_assert (ns_kmem_cache_cpu_empty (c, 1));
  for (guint i = 1; i < n; i++)
    last = ns_kmem_cache_alloc (c, 0);
  ck_assert (ns_kmem_cache_cpu_empty (c, 0));
  ns_kmem_cache_free_on (c, last, 0);
  ck_assert (!ns_kmem_cache_cpu_empty (c, 0));
  ns_kmem_cache_destroy (c);
  ns_kmem_cache_destroy (NULL);                 /* NULL is fine */
  ns_arena_free (arena);
}
END_TEST

START_TEST (test_in_order_then_new_slab)
{
  NsArena *arena = ns_arena_new (BASE, (gsize) 16 << 20);
  NsKmemCache *c = ns_kmem_cache_new (arena, 1300, NS_SLAB_HWCACHE_ALIGN, 128, FALSE, 0);
  guint8 *first = ns_kmem_cache_alloc (c, 0);

  ck_assert_uint_eq (ns_kmem_cache_size (c), 1344);
  ck_assert_uint_eq (ns_kmem_cache_slab_bytes (c), 32768);
  for (guint i = 1; i < 32768 / 1344; i++)
    ck_assert_ptr_eq (ns_kmem_cache_alloc (c, 0), first + (gsize) i * 1344);
  /* the 25th object opens a slab: page aligned, past the first */
  {
    guint8 *obj = ns_kmem_cache_alloc (c, 0);

    ck_assert_uint_eq (ns_arena_addr (arena, obj) % 4096, 0);
    ck_assert (obj >= first + 32768);
  }
  ns_kmem_cache_destroy (c);
  ns_arena_free (arena);
}
END_TEST

START_TEST (test_shuffled_slab_is_a_permutation)
{
  NsArena *arena = ns_arena_new (BASE, (gsize) 16 << 20);
  NsKmemCache *c;
  guint8 *base = NULL;
  gboolean seen[24] = { FALSE };
  guint in_place = 0;

  c = ns_kmem_cache_new (arena, 1344, NS_SLAB_HWCACHE_ALIGN, 128, TRUE, 7);
  for (guint i = 0; i < 24; i++) {
    guint8 *obj = ns_kmem_cache_alloc (c, 0);
    gsize slot;

    if (base == NULL)
      base = obj - (ns_arena_addr (arena, obj) % 32768);  /* the slab is 32 KiB aligned here */
    slot = (gsize) (obj - base) / 1344;
    ck_assert_uint_eq ((gsize) (obj - base) % 1344, 0);
    ck_assert_uint_lt (slot, 24);
    ck_assert_msg (!seen[slot], "slot %zu handed out twice", slot);
    seen[slot] = TRUE;
    in_place += slot == i;
  }
  ck_assert_uint_lt (in_place, 24);     /* not the in-order layout */
  ns_kmem_cache_destroy (c);
  ns_arena_free (arena);
}
END_TEST

/* Three slabs under CONFIG_SLAB_FREELIST_RANDOM: each hands out the cache's one sequence
 * (the first slab's order, rotated), each from its own random start (shuffle_freelist). */
START_TEST (test_shuffled_slabs_share_one_sequence)
{
  NsArena *arena = ns_arena_new (BASE, (gsize) 16 << 20);
  NsKmemCache *c;
  guint seq[3][24], starts_moved = 0;

  c = ns_kmem_cache_new (arena, 1344, NS_SLAB_HWCACHE_ALIGN, 128, TRUE, 7);
  for (guint k = 0; k < 3; k++)
    for (guint i = 0; i < 24; i++) {
      guint64 off = ns_arena_addr (arena, ns_kmem_cache_alloc (c, 0)) - BASE;

      ck_assert_uint_eq (off / 32768, k);               /* the cache's only slabs */
      seq[k][i] = (guint) (off % 32768 / 1344);
    }
  for (guint k = 1; k < 3; k++) {
    guint j = 0;

    while (seq[0][j] != seq[k][0])
      j++;
    for (guint i = 0; i < 24; i++)
      ck_assert_uint_eq (seq[k][i], seq[0][(j + i) % 24]);
    starts_moved += j != 0;
  }
  ck_assert_uint_gt (starts_moved, 0);
  ns_kmem_cache_destroy (c);
  ns_arena_free (arena);
}
END_TEST

/* Counts the criticals logged while it is installed. */
static void
on_critical (const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data)
{
  (*(guint *) data)++;
}

/* A free that is not of a live object of the cache (twice, another cache's object) is
 * refused with a critical and does not put the object on the freelist; freed objects come
 * back last freed first. */
START_TEST (test_frees_checked_and_lifo)
{
  NsArena *arena = ns_arena_new (BASE, (gsize) 16 << 20);
  NsKmemCache *c = ns_kmem_cache_new (arena, 256, NS_SLAB_HWCACHE_ALIGN, 2, FALSE, 0);
  NsKmemCache *other = ns_kmem_cache_new (arena, 256, NS_SLAB_HWCACHE_ALIGN, 2, FALSE, 0);
  guint8 *a = ns_kmem_cache_alloc (c, 0), *b = ns_kmem_cache_alloc (c, 0);
  guint8 *x = ns_kmem_cache_alloc (other, 0);
  guint criticals = 0, handler;
  GLogLevelFlags fatal = g_log_set_always_fatal (G_LOG_FATAL_MASK);

  handler = g_log_set_handler (G_LOG_DOMAIN, G_LOG_LEVEL_CRITICAL, on_critical, &criticals);
  ns_kmem_cache_free (c, a);
  ns_kmem_cache_free (c, a);                    /* twice */
  ck_assert_uint_eq (criticals, 1);
  ns_kmem_cache_free (c, x);                    /* another cache's */
  ck_assert_uint_eq (criticals, 2);
  ns_kmem_cache_free (c, b);
  ck_assert_uint_eq (criticals, 2);
  ck_assert_ptr_eq (ns_kmem_cache_alloc (c, 0), b);
  ck_assert_ptr_eq (ns_kmem_cache_alloc (c, 0), a);
  ck_assert_ptr_ne (ns_kmem_cache_alloc (c, 0), a);
  g_log_remove_handler (G_LOG_DOMAIN, handler);
  g_log_set_always_fatal (fatal);
  ns_kmem_cache_destroy (other);
  ns_kmem_cache_destroy (c);
  ns_arena_free (arena);
}
END_TEST

/* Each CPU carves a slab of its own (kmem_cache_cpu): two CPUs allocating in turn get
 * consecutive objects of two slabs, not alternate ones of one; a freed object goes back
 * to the CPU that allocated it. */
START_TEST (test_each_cpu_its_own_slab)
{
  NsArena *arena = ns_arena_new (BASE, (gsize) 16 << 20);
  NsKmemCache *c = ns_kmem_cache_new (arena, 1344, NS_SLAB_HWCACHE_ALIGN, 128, FALSE, 0);
  guint8 *first[2] = { NULL, NULL }, *last1 = NULL;

  for (guint i = 0; i < 6; i++)
    for (guint cpu = 0; cpu < 2; cpu++) {
      guint8 *obj = ns_kmem_cache_alloc (c, cpu);

      if (i == 0)
        first[cpu] = obj;
      else
        ck_assert_ptr_eq (obj, first[cpu] + (gsize) i * 1344);
      if (cpu == 1)
        last1 = obj;
    }
  ck_assert_uint_ge ((gsize) (first[1] > first[0] ? first[1] - first[0] : first[0] - first[1]),
                     32768);
  ns_kmem_cache_free (c, last1);
  ck_assert_ptr_ne (ns_kmem_cache_alloc (c, 0), last1);
  ck_assert_ptr_eq (ns_kmem_cache_alloc (c, 1), last1);
  ns_kmem_cache_destroy (c);
  ns_arena_free (arena);
}
END_TEST

START_TEST (test_freed_object_comes_back_zeroed)
{
  NsArena *arena = ns_arena_new (BASE, (gsize) 16 << 20);
  NsKmemCache *c = ns_kmem_cache_new (arena, 256, NS_SLAB_HWCACHE_ALIGN, 2, FALSE, 0);
  guint8 *a = ns_kmem_cache_alloc (c, 0), *b = ns_kmem_cache_alloc (c, 0);

  memset (a, 0xa5, 256);
  ns_kmem_cache_free (c, a);
  ck_assert_ptr_eq (ns_kmem_cache_alloc (c, 0), a);
  ck_assert_uint_eq (a[0], 0);
  ck_assert_uint_eq (a[255], 0);
  ck_assert_ptr_eq (ns_kmem_cache_alloc (c, 0), b + 256);
  ns_kmem_cache_destroy (c);
  ns_arena_free (arena);
}
END_TEST

/* Sockets of the two families created alternately: each family's sockets sit one object
 * of its own size apart (struct udp_sock 1152 bytes, udp6_sock 1344), as the kernel's
 * UDP and UDPv6 caches place them, not interleaved. */
START_TEST (test_udp_table_socket_caches)
{
  NsArena *arena = ns_arena_new (BASE, (gsize) 64 << 20);
  NsBuild *build = ns_build_new ("6.9.0", 60);
  struct net *net = ns_net_new (arena, 0x12345678u, 1);
  GError *error = NULL;
  struct udp_table *tbl = udp_table_new (arena, build, 256, &error);
  guint64 v4[3], v6[3];

  ck_assert_msg (tbl != NULL, "%s", error ? error->message : "?");
  udp_table_use_slab_caches (tbl, 128, FALSE, 0);
  for (guint i = 0; i < 3; i++) {
    v4[i] = ns_arena_addr (arena, udp_sock_create (tbl, net, AF_INET));
    v6[i] = ns_arena_addr (arena, udp_sock_create (tbl, net, AF_INET6));
  }
  for (guint i = 1; i < 3; i++) {
    ck_assert_uint_eq (v4[i] - v4[i - 1], 1152);
    ck_assert_uint_eq (v6[i] - v6[i - 1], 1344);
  }
  /* a closed socket goes back to its own family's cache */
  {
    struct sock *sk6 = udp_sock_create (tbl, net, AF_INET6);
    guint64 addr6 = ns_arena_addr (arena, sk6);

    udp_sock_close (sk6);
    ck_assert_uint_ne (ns_arena_addr (arena, udp_sock_create (tbl, net, AF_INET)), addr6);
    ck_assert_uint_eq (ns_arena_addr (arena, udp_sock_create (tbl, net, AF_INET6)), addr6);
  }
  udp_table_free (tbl);
  ns_build_free (build);
  ns_arena_free (arena);
}
END_TEST

/* kmalloc_index on x86-64 (KMALLOC_MIN_SIZE 8, the 96- and 192-byte caches between the
 * powers of two, kmalloc-8k the last; larger is kmalloc_large). */
START_TEST (test_kmalloc_classes)
{
  static const struct { gsize request, cache; } cases[] = {
    { 1, 8 }, { 8, 8 }, { 9, 16 }, { 33, 64 }, { 65, 96 }, { 96, 96 }, { 97, 128 },
    { 129, 192 }, { 192, 192 }, { 193, 256 }, { 257, 512 }, { 1025, 2048 },
    { 8192, 8192 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    ck_assert_uint_eq (ns_kmalloc_size (ns_kmalloc_index (cases[i].request)),
                       cases[i].cache);
  ck_assert_uint_eq (ns_kmalloc_index (8193), NS_KMALLOC_CLASSES);
}
END_TEST

static Suite *
slab_suite (void)
{
  Suite *s = suite_create ("slab");
  TCase *tc = tcase_create ("placement");

  tcase_add_test (tc, test_order_matches_host_slabinfo);
  tcase_add_test (tc, test_order_on_128_cpus);
  tcase_add_test (tc, test_alignment);
  tcase_add_test (tc, test_freelist_random_rule);
  tcase_add_test (tc, test_remote_free_waits_for_the_slab);
  tcase_add_test (tc, test_remote_free_keeps_the_slab_its_cpus);
  tcase_add_test (tc, test_cpu_empty);
  tcase_add_test (tc, test_in_order_then_new_slab);
  tcase_add_test (tc, test_shuffled_slab_is_a_permutation);
  tcase_add_test (tc, test_shuffled_slabs_share_one_sequence);
  tcase_add_test (tc, test_frees_checked_and_lifo);
  tcase_add_test (tc, test_each_cpu_its_own_slab);
  tcase_add_test (tc, test_freed_object_comes_back_zeroed);
  tcase_add_test (tc, test_udp_table_socket_caches);
  tcase_add_test (tc, test_kmalloc_classes);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (slab_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
