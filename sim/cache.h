/* cache.h — one set-associative cache level holding line numbers (address / line size).
 *
 * The cache only knows which lines it holds and in what recency order; coherence state is
 * kept by the machine's directory. Sets are chosen by line number modulo the number of
 * sets, or, for lines in coloured pages (ns_cache_colour_pages), by the line's place in
 * its page's frame. Replacement is true LRU or tree pseudo-LRU; an invalid way is always
 * filled first. */
#pragma once
#include <glib.h>

G_BEGIN_DECLS

typedef struct _NsCache NsCache;

typedef enum {
  NS_CACHE_LRU,      /* evict the least recently used way */
  NS_CACHE_PLRU      /* tree pseudo-LRU (associativity must be a power of two) */
} NsCachePolicy;

/* Creates an empty cache of size_bytes with assoc ways of line_bytes lines. size_bytes must
 * hold at least one set; a remainder that does not fill a whole set is dropped. PLRU with an
 * associativity that is not a power of two falls back to LRU (see ns_cache_policy). */
NsCache       *ns_cache_new        (const char *name, gsize size_bytes, guint assoc,
                                    guint line_bytes, NsCachePolicy policy);
void           ns_cache_free       (NsCache *cache);
const char    *ns_cache_name       (const NsCache *cache);
guint          ns_cache_n_sets     (const NsCache *cache);
guint          ns_cache_assoc      (const NsCache *cache);
NsCachePolicy  ns_cache_policy     (const NsCache *cache);
/* From now on lines in [first_line, first_line + n_lines) sit in pages of page_lines lines
 * (a power of two) each at a frame drawn from key, a different one for every page: a
 * line's set is that of the same offset in its page's frame. A cache no larger than
 * page_lines sets (indexed within the page, as a VIPT L1 is) is left as it is. Call before
 * the cache's first access. */
void           ns_cache_colour_pages (NsCache *cache, guint64 first_line, guint64 n_lines,
                                      guint page_lines, guint64 key);
/* The set a line maps to. */
guint          ns_cache_set_of     (const NsCache *cache, guint64 line);
/* Looks line up as an access: on a hit it becomes most recently used. Counts hit or miss. */
gboolean       ns_cache_lookup     (NsCache *cache, guint64 line);
/* If line is present, makes it most recently used; no counters. Returns whether it was. */
gboolean       ns_cache_touch      (NsCache *cache, guint64 line);
/* TRUE if line is present; no side effect on recency or counters. */
gboolean       ns_cache_contains   (const NsCache *cache, guint64 line);
/* Brings line in as most recently used. If that evicts a valid line, stores it in *evicted
 * and returns TRUE. A line already present is only touched (returns FALSE). */
gboolean       ns_cache_insert     (NsCache *cache, guint64 line, guint64 *evicted);
/* Drops line if present; returns whether it was. */
gboolean       ns_cache_invalidate (NsCache *cache, guint64 line);
/* Drops every line (counters are kept). */
void           ns_cache_clear      (NsCache *cache);
guint64        ns_cache_hits       (const NsCache *cache);
guint64        ns_cache_misses     (const NsCache *cache);
void           ns_cache_reset_stats (NsCache *cache);

G_END_DECLS
