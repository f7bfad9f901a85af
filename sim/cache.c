/* cache.c — a set-associative cache of line numbers with LRU or tree-PLRU replacement.
 *
 * Layout: one flat array of tags (line + 1, 0 = invalid), assoc entries per set. LRU keeps
 * each set's tags in recency order, most recent first, invalid entries at the tail: a hit
 * moves its tag to the front, a fill evicts the last entry, an invalidation closes the gap.
 * (No per-way stamps: a set's state is its tags alone, one or two host cache lines.) Tree
 * PLRU keeps tags in fixed ways plus assoc − 1 direction bits per set in one 64-bit word,
 * heap-ordered (node 1 is the root, node n has children 2n and 2n+1); a bit points towards
 * the half to evict next. */
#include "config.h"
#include <string.h>
#include "cache.h"

struct _NsCache {
  char          *name;
  guint          n_sets;
  guint          assoc;
  guint          plru_levels;  /* log2 (assoc) for PLRU */
  gboolean       sets_pow2;
  guint64        set_mask;
  NsCachePolicy  policy;
  guint64       *tags;         /* n_sets × assoc; line + 1, 0 = invalid */
  guint64       *plru;         /* PLRU: one bit tree per set */
  guint64        hits;
  guint64        misses;
  /* ns_cache_colour_pages: lines in [colour_first, colour_first + colour_lines) take the
   * set bits above the page offset from their page's frame, drawn from colour_key */
  guint64        colour_first;
  guint64        colour_lines;  /* 0: no colouring */
  guint          page_shift;    /* log2 (lines per page) */
  guint64        colour_key;
};

/* TRUE if v is a non-zero power of two. */
static gboolean
is_pow2 (guint64 v)
{
  return v != 0 && (v & (v - 1)) == 0;
}

/* Creates an empty cache; see cache.h. */
NsCache *
ns_cache_new (const char *name, gsize size_bytes, guint assoc, guint line_bytes,
              NsCachePolicy policy)
{
  NsCache *cache;
  guint64 n_sets;

  g_return_val_if_fail (assoc >= 1 && assoc <= 64, NULL);
  g_return_val_if_fail (line_bytes >= 1, NULL);
  n_sets = size_bytes / ((guint64) assoc * line_bytes);
  g_return_val_if_fail (n_sets >= 1 && n_sets <= G_MAXUINT32, NULL);

  cache = g_new0 (NsCache, 1);
  cache->name = g_strdup (name ? name : "cache");
  cache->n_sets = (guint) n_sets;
  cache->assoc = assoc;
  cache->sets_pow2 = is_pow2 (n_sets);
  cache->set_mask = n_sets - 1;
  cache->policy = (policy == NS_CACHE_PLRU && is_pow2 (assoc)) ? NS_CACHE_PLRU : NS_CACHE_LRU;
  cache->tags = g_new0 (guint64, n_sets * assoc);
  if (cache->policy == NS_CACHE_PLRU) {
    cache->plru = g_new0 (guint64, n_sets);
    while ((1u << cache->plru_levels) < assoc)
      cache->plru_levels++;
  }
  return cache;
}

/* Frees a cache (NULL is fine). */
void
ns_cache_free (NsCache *cache)
{
  if (cache == NULL)
    return;
  g_free (cache->name);
  g_free (cache->tags);
  g_free (cache->plru);
  g_free (cache);
}

/* The name given at creation. */
const char *
ns_cache_name (const NsCache *cache)
{
  g_return_val_if_fail (cache != NULL, NULL);
  return cache->name;
}

/* Number of sets. */
guint
ns_cache_n_sets (const NsCache *cache)
{
  g_return_val_if_fail (cache != NULL, 0);
  return cache->n_sets;
}

/* Ways per set. */
guint
ns_cache_assoc (const NsCache *cache)
{
  g_return_val_if_fail (cache != NULL, 0);
  return cache->assoc;
}

/* The policy in use (PLRU requested on a non-power-of-two associativity reads LRU). */
NsCachePolicy
ns_cache_policy (const NsCache *cache)
{
  g_return_val_if_fail (cache != NULL, NS_CACHE_LRU);
  return cache->policy;
}

/* Lines in a range sit in pages whose frames are drawn at random; see cache.h. */
void
ns_cache_colour_pages (NsCache *cache, guint64 first_line, guint64 n_lines, guint page_lines,
                       guint64 key)
{
  g_return_if_fail (cache != NULL);
  g_return_if_fail (is_pow2 (page_lines));
  g_return_if_fail (cache->hits == 0 && cache->misses == 0);
  cache->page_shift = (guint) g_bit_nth_lsf (page_lines, -1);
  cache->colour_first = first_line;
  cache->colour_key = key;
  /* a cache whose sets a page spans (the L1s: VIPT) keeps the virtual index */
  cache->colour_lines = cache->n_sets > page_lines ? n_lines : 0;
}

/* The frame of page under key: splitmix64's finaliser, a bijection, so distinct pages get
 * distinct frames. */
static inline guint64
page_frame (guint64 page, guint64 key)
{
  guint64 z = page ^ key;

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

/* The set line maps to: line modulo the number of sets, the line taken at its page's frame
 * where ns_cache_colour_pages says so. */
guint
ns_cache_set_of (const NsCache *cache, guint64 line)
{
  if (line - cache->colour_first < cache->colour_lines) {
    guint64 offset = line & ((G_GUINT64_CONSTANT (1) << cache->page_shift) - 1);
    line = (page_frame (line >> cache->page_shift, cache->colour_key) << cache->page_shift)
           | offset;
  }
  if (cache->sets_pow2)
    return (guint) (line & cache->set_mask);
  return (guint) (line % cache->n_sets);
}

/* The tags of a set. */
static inline guint64 *
set_tags (const NsCache *cache, guint set)
{
  return cache->tags + (gsize) set * cache->assoc;
}

/* The way holding line in set, or -1. (LRU sets keep invalid entries at the tail.) */
static inline int
find_way (const NsCache *cache, guint set, guint64 line)
{
  const guint64 *tags = set_tags (cache, set);
  guint64 tag = line + 1;

  for (guint w = 0; w < cache->assoc; w++) {
    if (tags[w] == tag)
      return (int) w;
    if (tags[w] == 0 && cache->policy == NS_CACHE_LRU)
      break;
  }
  return -1;
}

/* LRU: moves the tag at position way to the front of its set. */
static inline void
move_to_front (guint64 *tags, guint way)
{
  guint64 tag = tags[way];

  memmove (tags + 1, tags, way * sizeof (guint64));
  tags[0] = tag;
}

/* Makes way the most recently used of its set (PLRU: on the path from the root to way,
 * point every node at the other half). */
static inline void
touch (NsCache *cache, guint set, guint way)
{
  if (cache->policy == NS_CACHE_LRU) {
    move_to_front (set_tags (cache, set), way);
    return;
  }
  guint64 bits = cache->plru[set];
  guint node = 1;
  for (guint level = 0; level < cache->plru_levels; level++) {
    guint dir = (way >> (cache->plru_levels - 1 - level)) & 1;
    if (dir)
      bits &= ~(G_GUINT64_CONSTANT (1) << node);
    else
      bits |= G_GUINT64_CONSTANT (1) << node;
    node = node * 2 + dir;
  }
  cache->plru[set] = bits;
}

/* The way to fill in set: an invalid one if any, else the policy's victim (LRU: the last
 * entry, which is invalid if any is). */
static guint
victim_way (const NsCache *cache, guint set)
{
  const guint64 *tags = set_tags (cache, set);

  if (cache->policy == NS_CACHE_LRU)
    return cache->assoc - 1;
  for (guint w = 0; w < cache->assoc; w++)
    if (tags[w] == 0)
      return w;
  guint64 bits = cache->plru[set];
  guint node = 1;
  while (node < cache->assoc)
    node = node * 2 + (guint) ((bits >> node) & 1);
  return node - cache->assoc;
}

/* Looks up line as an access (touches on a hit); counts the hit or miss. */
gboolean
ns_cache_lookup (NsCache *cache, guint64 line)
{
  guint set = ns_cache_set_of (cache, line);
  int way = find_way (cache, set, line);

  if (way < 0) {
    cache->misses++;
    return FALSE;
  }
  touch (cache, set, (guint) way);
  cache->hits++;
  return TRUE;
}

/* Refreshes line's recency if present, uncounted; see cache.h. */
gboolean
ns_cache_touch (NsCache *cache, guint64 line)
{
  guint set = ns_cache_set_of (cache, line);
  int way = find_way (cache, set, line);

  if (way < 0)
    return FALSE;
  touch (cache, set, (guint) way);
  return TRUE;
}

/* TRUE if line is present; no side effects. */
gboolean
ns_cache_contains (const NsCache *cache, guint64 line)
{
  return find_way (cache, ns_cache_set_of (cache, line), line) >= 0;
}

/* Fills line as most recently used; reports a valid line it evicted. */
gboolean
ns_cache_insert (NsCache *cache, guint64 line, guint64 *evicted)
{
  guint set = ns_cache_set_of (cache, line);
  int way = find_way (cache, set, line);
  guint64 *slot;
  gboolean had_victim;

  if (way >= 0) {
    touch (cache, set, (guint) way);
    return FALSE;
  }
  way = (int) victim_way (cache, set);
  slot = set_tags (cache, set) + way;
  had_victim = *slot != 0;
  if (had_victim && evicted != NULL)
    *evicted = *slot - 1;
  *slot = line + 1;
  touch (cache, set, (guint) way);
  return had_victim;
}

/* Drops line; TRUE if it was present. */
gboolean
ns_cache_invalidate (NsCache *cache, guint64 line)
{
  guint set = ns_cache_set_of (cache, line);
  int way = find_way (cache, set, line);
  guint64 *tags;

  if (way < 0)
    return FALSE;
  tags = set_tags (cache, set);
  if (cache->policy == NS_CACHE_LRU) {
    memmove (tags + way, tags + way + 1, (cache->assoc - 1 - way) * sizeof (guint64));
    tags[cache->assoc - 1] = 0;
  } else {
    tags[way] = 0;
  }
  return TRUE;
}

/* Empties the cache; keeps the hit/miss counters. */
void
ns_cache_clear (NsCache *cache)
{
  gsize n;

  g_return_if_fail (cache != NULL);
  n = (gsize) cache->n_sets * cache->assoc;
  memset (cache->tags, 0, n * sizeof (guint64));
  if (cache->plru)
    memset (cache->plru, 0, cache->n_sets * sizeof (guint64));
}

/* Lookups that hit since creation or the last reset. */
guint64
ns_cache_hits (const NsCache *cache)
{
  g_return_val_if_fail (cache != NULL, 0);
  return cache->hits;
}

/* Lookups that missed since creation or the last reset. */
guint64
ns_cache_misses (const NsCache *cache)
{
  g_return_val_if_fail (cache != NULL, 0);
  return cache->misses;
}

/* Zeroes the hit and miss counters. */
void
ns_cache_reset_stats (NsCache *cache)
{
  g_return_if_fail (cache != NULL);
  cache->hits = cache->misses = 0;
}
