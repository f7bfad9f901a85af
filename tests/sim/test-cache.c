/* test-cache.c — set mapping (plain and over coloured pages), LRU and tree-PLRU eviction
 * order, touches, counters, invalidation, re-insertion. */
#include "config.h"

#include <check.h>

#include "cache.h"

/* A one-set cache of `ways` 64-byte lines. */
static NsCache *
one_set (guint ways, NsCachePolicy policy)
{
  return ns_cache_new ("tiny", (gsize) ways * 64, ways, 64, policy);
}

/* Inserting LINE into C evicts nothing (a macro: a failure names the caller's line). */
#define assert_evicts_nothing(c, line)                                                   \
  G_STMT_START {                                                                         \
    guint64 victim_ = 0, line_ = (line);                                                 \
    ck_assert_msg (!ns_cache_insert ((c), line_, &victim_),                              \
                   "insert %" G_GUINT64_FORMAT " evicted %" G_GUINT64_FORMAT, line_, victim_); \
  } G_STMT_END

/* Inserting LINE into C evicts EXPECTED. */
#define assert_evicts(c, line, expected)                                                 \
  G_STMT_START {                                                                         \
    guint64 victim_ = 0, line_ = (line), expected_ = (expected);                         \
    ck_assert_msg (ns_cache_insert ((c), line_, &victim_),                               \
                   "insert %" G_GUINT64_FORMAT " evicted nothing", line_);               \
    ck_assert_msg (victim_ == expected_, "insert %" G_GUINT64_FORMAT " evicted %"         \
                   G_GUINT64_FORMAT ", not %" G_GUINT64_FORMAT, line_, victim_, expected_); \
  } G_STMT_END

/* Inserts lines, failing if any of them evicts something. */
static void
fill (NsCache *c, const guint64 *lines, guint n)
{
  for (guint i = 0; i < n; i++)
    assert_evicts_nothing (c, lines[i]);
}

START_TEST (test_geometry_and_set_mapping)
{
  NsCache *c = ns_cache_new ("l1", 32 * 1024, 8, 64, NS_CACHE_LRU);
  NsCache *odd = ns_cache_new ("l3", 3 * 1024 * 1024, 16, 64, NS_CACHE_LRU);

  ck_assert_uint_eq (ns_cache_n_sets (c), 64);
  ck_assert_uint_eq (ns_cache_assoc (c), 8);
  ck_assert_uint_eq (ns_cache_set_of (c, 0), 0);
  ck_assert_uint_eq (ns_cache_set_of (c, 63), 63);
  ck_assert_uint_eq (ns_cache_set_of (c, 64), 0);
  ck_assert_uint_eq (ns_cache_set_of (c, 130), 2);
  /* 3 MiB / (16 × 64) = 3072 sets: not a power of two, mapping is modulo */
  ck_assert_uint_eq (ns_cache_n_sets (odd), 3072);
  ck_assert_uint_eq (ns_cache_set_of (odd, 3072), 0);
  ck_assert_uint_eq (ns_cache_set_of (odd, 3072 * 5 + 17), 17);

  /* 9 lines of one set overflow 8 ways; 8 lines of 8 different sets do not */
  for (guint64 i = 0; i < 8; i++)
    ck_assert (!ns_cache_insert (c, i * 64, NULL));
  for (guint64 i = 0; i < 8; i++)
    ck_assert (!ns_cache_insert (c, 1 + i, NULL));
  ck_assert (ns_cache_insert (c, 8 * 64, NULL));
  ns_cache_free (c);
  ns_cache_free (odd);
}
END_TEST

/* Coloured pages: a line keeps its offset in the page, the page's frame picks the set bits
 * above it (distinct pages spread over the colours, differently for another key); lines
 * outside the range and a cache that a page spans (a VIPT L1) keep the plain mapping. */
START_TEST (test_coloured_pages)
{
  /* 1024 sets of 64-byte lines: 16 colours of 64 lines (4 KiB pages) */
  NsCache *l2 = ns_cache_new ("L2", 512 * 1024, 8, 64, NS_CACHE_LRU);
  NsCache *other = ns_cache_new ("L2", 512 * 1024, 8, 64, NS_CACHE_LRU);
  NsCache *l1 = ns_cache_new ("L1D", 32 * 1024, 8, 64, NS_CACHE_LRU);
  const guint64 first = 1u << 20, n = 1u << 20;
  guint colours[16] = { 0 }, used = 0, moved = 0, not_linear = 0;

  ns_cache_colour_pages (l2, first, n, 64, 1);
  ns_cache_colour_pages (other, first, n, 64, 2);
  ns_cache_colour_pages (l1, first, n, 64, 1);
  for (guint64 page = 0; page < 256; page++) {
    guint64 line = first + page * 64;
    guint set = ns_cache_set_of (l2, line);

    ck_assert_uint_eq (set % 64, 0);                       /* the offset is kept */
    ck_assert_uint_eq (ns_cache_set_of (l2, line + 37), set + 37);
    ck_assert_uint_eq (ns_cache_set_of (l1, line + 37), 37);
    colours[set / 64]++;
    not_linear += set / 64 != page % 16;
    moved += ns_cache_set_of (other, line) != set;
  }
  for (guint c = 0; c < 16; c++)
    used += colours[c] > 0;
  ck_assert_uint_eq (used, 16);            /* 256 pages over all 16 colours, */
  ck_assert_uint_gt (not_linear, 200);     /* not in turn */
  ck_assert_uint_gt (moved, 200);          /* another key draws other frames */
  ck_assert_uint_eq (ns_cache_set_of (l2, first - 1), (first - 1) % 1024);
  ck_assert_uint_eq (ns_cache_set_of (l2, first + n), (first + n) % 1024);
  ns_cache_free (l2);
  ns_cache_free (other);
  ns_cache_free (l1);
}
END_TEST

START_TEST (test_lru_order)
{
  NsCache *c = one_set (4, NS_CACHE_LRU);
  const guint64 abcd[] = { 10, 11, 12, 13 };

  ck_assert_int_eq (ns_cache_policy (c), NS_CACHE_LRU);
  fill (c, abcd, 4);
  ck_assert (ns_cache_lookup (c, 10));            /* A becomes most recent */
  assert_evicts (c, 14, 11);                      /* evicts B, the least recent */
  ck_assert (ns_cache_lookup (c, 12));            /* order now D A E C */
  assert_evicts (c, 15, 13);
  assert_evicts (c, 16, 10);
  assert_evicts (c, 17, 14);
  ck_assert (ns_cache_contains (c, 12));
  ck_assert (!ns_cache_contains (c, 11));
  ns_cache_free (c);
}
END_TEST

/* A touch makes a present line most recent as a hit does, but counts nothing; an absent
 * line is left absent. */
START_TEST (test_touch)
{
  NsCache *c = one_set (2, NS_CACHE_LRU);
  const guint64 ab[] = { 10, 11 };

  fill (c, ab, 2);
  ck_assert (ns_cache_touch (c, 10));
  ck_assert (!ns_cache_touch (c, 12));
  ck_assert (!ns_cache_contains (c, 12));
  assert_evicts (c, 13, 11);  /* B is the least recent now */
  ck_assert_uint_eq (ns_cache_hits (c) + ns_cache_misses (c), 0);
  ns_cache_free (c);
}
END_TEST

START_TEST (test_plru_order)
{
  NsCache *c = one_set (4, NS_CACHE_PLRU);
  const guint64 abcd[] = { 10, 11, 12, 13 };   /* ways 0..3 */

  ck_assert_int_eq (ns_cache_policy (c), NS_CACHE_PLRU);
  fill (c, abcd, 4);
  /* after filling ways 0..3 in order the tree points at way 0 */
  ck_assert (ns_cache_lookup (c, 10));
  /* touching way 0 points the root at the right half and its right child is still at
   * way 2: tree PLRU evicts C where true LRU would evict B */
  assert_evicts (c, 14, 12);
  /* E in way 2 → root left, left node (last set by A) points at way 1 */
  assert_evicts (c, 15, 11);
  /* F in way 1 → root right, right node points at way 3 */
  assert_evicts (c, 16, 13);
  ns_cache_free (c);
}
END_TEST

START_TEST (test_plru_needs_power_of_two)
{
  NsCache *c = one_set (3, NS_CACHE_PLRU);
  const guint64 abc[] = { 1, 2, 3 };

  ck_assert_int_eq (ns_cache_policy (c), NS_CACHE_LRU);
  fill (c, abc, 3);
  ck_assert (ns_cache_lookup (c, 1));
  assert_evicts (c, 4, 2);
  ns_cache_free (c);
}
END_TEST

START_TEST (test_counts_and_invalidate)
{
  NsCache *c = one_set (2, NS_CACHE_LRU);

  ck_assert (!ns_cache_lookup (c, 5));
  ns_cache_insert (c, 5, NULL);
  ck_assert (ns_cache_lookup (c, 5));
  ck_assert (ns_cache_lookup (c, 5));
  ck_assert (!ns_cache_lookup (c, 6));
  ck_assert_uint_eq (ns_cache_hits (c), 2);
  ck_assert_uint_eq (ns_cache_misses (c), 2);
  /* contains and insert do not count */
  ck_assert (ns_cache_contains (c, 5));
  ns_cache_insert (c, 6, NULL);
  ck_assert_uint_eq (ns_cache_hits (c) + ns_cache_misses (c), 4);

  /* invalidation frees the way: the next insert evicts nothing */
  ck_assert (ns_cache_invalidate (c, 5));
  ck_assert (!ns_cache_invalidate (c, 5));
  ck_assert (!ns_cache_contains (c, 5));
  assert_evicts_nothing (c, 7);
  assert_evicts (c, 8, 6);

  ns_cache_reset_stats (c);
  ck_assert_uint_eq (ns_cache_hits (c), 0);
  ck_assert_uint_eq (ns_cache_misses (c), 0);
  ns_cache_clear (c);
  ck_assert (!ns_cache_contains (c, 7));
  ck_assert (!ns_cache_contains (c, 8));
  /* line 0 is a valid line (tags are stored offset by one) */
  ck_assert (!ns_cache_lookup (c, 0));
  ns_cache_insert (c, 0, NULL);
  ck_assert (ns_cache_lookup (c, 0));
  ns_cache_free (c);
}
END_TEST

/* Inserting a line already present evicts nothing and moves it to the front, wherever it
 * sat (the front way included); touching the front line finds it. */
START_TEST (test_insert_present)
{
  NsCache *c = one_set (4, NS_CACHE_LRU);
  const guint64 abcd[] = { 10, 11, 12, 13 };   /* order now D C B A */

  fill (c, abcd, 4);
  assert_evicts_nothing (c, 13);  /* D, the front way */
  assert_evicts_nothing (c, 10);  /* A, the back way: order A D C B */
  ck_assert (ns_cache_touch (c, 10));
  for (guint i = 0; i < 4; i++)
    ck_assert (ns_cache_contains (c, abcd[i]));
  assert_evicts (c, 14, 11);
  ck_assert_uint_eq (ns_cache_hits (c) + ns_cache_misses (c), 0);
  ns_cache_free (c);
}
END_TEST

/* Invalidating a line in the middle of an LRU set keeps the lines behind it findable and
 * in order; under PLRU the freed way is the next fill, and lines past it stay findable. */
START_TEST (test_invalidate_middle)
{
  NsCache *lru = one_set (4, NS_CACHE_LRU);
  NsCache *plru = one_set (4, NS_CACHE_PLRU);
  const guint64 abcd[] = { 10, 11, 12, 13 };

  fill (lru, abcd, 4);                               /* D C B A */
  ck_assert (ns_cache_invalidate (lru, 12));
  ck_assert (ns_cache_lookup (lru, 11));             /* B A behind the hole */
  ck_assert (ns_cache_lookup (lru, 10));
  assert_evicts_nothing (lru, 14);                   /* the freed way: nothing evicted */
  assert_evicts (lru, 15, 13);                       /* order E A B D: D the least recent */

  fill (plru, abcd, 4);                              /* ways 0..3 */
  ck_assert (ns_cache_invalidate (plru, 10));        /* way 0 */
  ck_assert (ns_cache_lookup (plru, 13));            /* way 3, past the invalid way */
  assert_evicts_nothing (plru, 14);                  /* into way 0 */
  ck_assert (ns_cache_contains (plru, 14));
  ns_cache_free (lru);
  ns_cache_free (plru);
}
END_TEST

/* A tree-PLRU set filled in way order points at way 0, as the first fill of any
 * power-of-two associativity does (the tree's leftmost leaf). */
START_TEST (test_plru_victim_after_fill)
{
  for (guint ways = 2; ways <= 16; ways *= 2) {
    NsCache *c = one_set (ways, NS_CACHE_PLRU);
    guint64 victim = 0;

    for (guint w = 0; w < ways; w++)
      assert_evicts_nothing (c, 100 + w);
    ck_assert_msg (ns_cache_insert (c, 200, &victim), "%u ways: nothing evicted", ways);
    ck_assert_msg (victim == 100, "%u ways: evicted %" G_GUINT64_FORMAT, ways, victim);
    ns_cache_free (c);
  }
}
END_TEST

static Suite *
cache_suite (void)
{
  Suite *s = suite_create ("cache");
  TCase *tc = tcase_create ("core");

  tcase_add_test (tc, test_geometry_and_set_mapping);
  tcase_add_test (tc, test_lru_order);
  tcase_add_test (tc, test_touch);
  tcase_add_test (tc, test_plru_order);
  tcase_add_test (tc, test_plru_needs_power_of_two);
  tcase_add_test (tc, test_counts_and_invalidate);
  tcase_add_test (tc, test_coloured_pages);
  tcase_add_test (tc, test_insert_present);
  tcase_add_test (tc, test_invalidate_middle);
  tcase_add_test (tc, test_plru_victim_after_fill);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (cache_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
