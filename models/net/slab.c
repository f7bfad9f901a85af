/* slab.c — a SLUB kmem_cache's object placement (see slab.h). */
#include "slab.h"
#include <string.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

/* One slab (struct slab): its memory, how far it has been carved, and the objects freed
 * to it while it was not the freeing CPU's active slab (slab->freelist, LIFO). */
typedef struct {
  guint8    *base;
  guint      next;          /* objects carved out of it */
  guint      start;         /* its place in random_seq */
  gint       active_cpu;    /* the CPU it is the active slab of, or -1 */
  gboolean   partial;       /* on the node's partial list */
  GPtrArray *freelist;
} Slab;

/* One CPU's kmem_cache_cpu: its active slab and the per-CPU freelist (objects freed on
 * this CPU into that slab, and those taken back from it), LIFO. */
typedef struct {
  Slab      *slab;
  GPtrArray *freelist;
} CacheCpu;

struct _NsKmemCache {
  NsArena  *arena;
  gsize     size;
  gsize     slab_bytes;
  guint     n_slots;        /* objects a slab */
  guint     n_cpus;
  guint    *random_seq;     /* CONFIG_SLAB_FREELIST_RANDOM: the cache's permutation */
  gsl_rng  *rng;            /* and the draws of each new slab's start */
  CacheCpu *cpu;            /* per CPU */
  GPtrArray *slabs;         /* every slab (owns them) */
  GQueue    partial;        /* slabs with free objects and no CPU (oldest first) */
  GHashTable *live;         /* objects handed out and not freed → their Slab */
};

/* calc_slab_order (v6.1 mm/slub.c): the lowest order from that of min_objects objects up
 * to max_order whose leftover is at most 1/fract_leftover of the slab. */
static guint
calc_slab_order (gsize size, guint min_objects, guint max_order, guint fract_leftover)
{
  guint order = 0;

  while (((gsize) 4096 << order) < min_objects * size)     /* get_order (min_objects * size) */
    order++;
  for (; order <= max_order; order++) {
    gsize slab = (gsize) 4096 << order;
    if (slab % size <= slab / fract_leftover)
      break;
  }
  return order;
}

/* calculate_order: at least 4 * (fls(nr_cpus) + 1) objects a slab where the largest order
 * holds them, the leftover at most 1/16, 1/8, then 1/4 of the slab, else fewer objects. */
guint
ns_slub_calculate_order (gsize size, guint n_cpus)
{
  const guint max_order = 3;                /* PAGE_ALLOC_COSTLY_ORDER */
  guint min_objects = 4 * (g_bit_nth_msf (MAX (n_cpus, 1), -1) + 2);
  guint max_objects;

  g_return_val_if_fail (size > 0, 0);
  max_objects = (guint) (((gsize) 4096 << max_order) / size);
  for (min_objects = MIN (min_objects, max_objects); min_objects > 1; min_objects--)
    for (guint fraction = 16; fraction >= 4; fraction /= 2) {
      guint order = calc_slab_order (size, min_objects, max_order, fraction);
      if (order <= max_order)
        return order;
    }
  return calc_slab_order (size, 1, max_order, 1);
}

/* calculate_alignment (v6.1 mm/slab_common.c): SLAB_HWCACHE_ALIGN aligns to the cache
 * line, halved while the object fits in half of it; at least ARCH_SLAB_MINALIGN (8). */
static gsize
calculate_alignment (NsSlabFlags flags, gsize size)
{
  gsize align = 8;

  if (flags & NS_SLAB_HWCACHE_ALIGN) {
    gsize ralign = 64;
    while (size <= ralign / 2)
      ralign /= 2;
    align = MAX (align, ralign);
  }
  return align;
}

/* See slab.h. */
gboolean
ns_slab_freelist_random (NsBuild *build)
{
  return build != NULL
         && ns_build_config_tristate (build, "CONFIG_SLAB_FREELIST_RANDOM", NS_KCONFIG_N)
            == NS_KCONFIG_Y;
}

/* Frees a slab's bookkeeping (its memory goes with the arena). */
static void
slab_free_bookkeeping (gpointer p)
{
  Slab *slab = p;

  g_ptr_array_unref (slab->freelist);
  g_free (slab);
}

/* See slab.h. */
NsKmemCache *
ns_kmem_cache_new (NsArena *arena, gsize size, NsSlabFlags flags, guint n_cpus,
                   gboolean shuffle, guint64 seed)
{
  NsKmemCache *cache;
  gsize align;

  /* up to 8 KiB v6.1's calculate_order and v6.7's rewrite give the same orders */
  g_return_val_if_fail (arena != NULL && size > 0 && size <= 8192 && n_cpus > 0, NULL);
  cache = g_new0 (NsKmemCache, 1);
  cache->arena = arena;
  align = calculate_alignment (flags, size);
  cache->size = (size + align - 1) & ~(align - 1);
  cache->slab_bytes = (gsize) 4096 << ns_slub_calculate_order (cache->size, n_cpus);
  cache->n_slots = (guint) (cache->slab_bytes / cache->size);
  cache->n_cpus = n_cpus;
  cache->cpu = g_new0 (CacheCpu, n_cpus);
  for (guint c = 0; c < n_cpus; c++)
    cache->cpu[c].freelist = g_ptr_array_new ();
  cache->live = g_hash_table_new (g_direct_hash, g_direct_equal);
  cache->slabs = g_ptr_array_new_with_free_func (slab_free_bookkeeping);
  if (shuffle) {
    /* init_cache_random_seq → freelist_randomize */
    cache->rng = gsl_rng_alloc (gsl_rng_mt19937);
    gsl_rng_set (cache->rng, (unsigned long) seed);
    cache->random_seq = g_new (guint, cache->n_slots);
    for (guint i = 0; i < cache->n_slots; i++)
      cache->random_seq[i] = i;
    gsl_ran_shuffle (cache->rng, cache->random_seq, cache->n_slots, sizeof (guint));
  }
  return cache;
}

/* Frees the cache's bookkeeping (NULL is fine); its slabs go with the arena. */
void
ns_kmem_cache_destroy (NsKmemCache *cache)
{
  if (cache == NULL)
    return;
  for (guint c = 0; c < cache->n_cpus; c++)
    g_ptr_array_unref (cache->cpu[c].freelist);
  g_free (cache->cpu);
  g_queue_clear (&cache->partial);
  g_ptr_array_unref (cache->slabs);
  g_hash_table_destroy (cache->live);
  g_free (cache->random_seq);
  if (cache->rng != NULL)
    gsl_rng_free (cache->rng);
  g_free (cache);
}

/* allocate_slab: a new slab from the page allocator, its first object at slot 0 or, with
 * a shuffled freelist, at a random place of the cache's sequence. */
static Slab *
new_slab (NsKmemCache *cache)
{
  Slab *slab = g_new0 (Slab, 1);

  slab->base = ns_arena_alloc (cache->arena, cache->slab_bytes, 4096);
  slab->start = cache->rng != NULL
                ? (guint) gsl_rng_uniform_int (cache->rng, cache->n_slots) : 0;
  slab->active_cpu = -1;
  slab->freelist = g_ptr_array_new ();
  g_ptr_array_add (cache->slabs, slab);
  return slab;
}

/* TRUE if every object of slab has been carved out of it (or there is no slab). */
static gboolean
slab_carved (const NsKmemCache *cache, const Slab *slab)
{
  return slab == NULL || slab->next == cache->n_slots;
}

/* get_freelist: the objects freed to slab become cpu's per-CPU freelist. */
static void
take_slab_freelist (CacheCpu *cc, Slab *slab)
{
  for (guint i = 0; i < slab->freelist->len; i++)
    g_ptr_array_add (cc->freelist, slab->freelist->pdata[i]);
  g_ptr_array_set_size (slab->freelist, 0);
}

/* Puts slab on the partial list if no CPU holds it and it has free objects. */
static void
add_partial (NsKmemCache *cache, Slab *slab)
{
  if (slab->active_cpu < 0 && slab->freelist->len > 0 && !slab->partial) {
    slab->partial = TRUE;
    g_queue_push_tail (&cache->partial, slab);
  }
}

/* Makes slab (a partial or a new one) cpu's active slab, its free objects the CPU's; the
 * old active slab leaves the CPU (deactivate_slab), onto the partial list if it has free
 * objects. */
static void
activate_slab (NsKmemCache *cache, guint cpu, Slab *slab)
{
  CacheCpu *cc = &cache->cpu[cpu];

  if (cc->slab != NULL) {
    cc->slab->active_cpu = -1;
    add_partial (cache, cc->slab);
  }
  cc->slab = slab;
  slab->active_cpu = (gint) cpu;
  take_slab_freelist (cc, slab);
}

/* ___slab_alloc when the per-CPU freelist is empty: carve on in the active slab, else take
 * back what was freed to it (NULL: the per-CPU freelist has it now), else a partial slab,
 * else a new one. */
static gpointer
slab_refill (NsKmemCache *cache, guint cpu)
{
  CacheCpu *cc = &cache->cpu[cpu];
  Slab *slab = cc->slab;
  guint slot;

  if (slab != NULL && slab_carved (cache, slab) && slab->freelist->len > 0) {
    take_slab_freelist (cc, slab);
    return NULL;
  }
  if (slab_carved (cache, slab)) {
    Slab *partial = g_queue_pop_head (&cache->partial);

    if (partial != NULL)
      partial->partial = FALSE;
    activate_slab (cache, cpu, partial != NULL ? partial : new_slab (cache));
    slab = cc->slab;
    if (slab_carved (cache, slab))
      return NULL;                          /* a partial slab: carved, its frees taken */
  }
  slot = slab->next++;
  if (cache->random_seq != NULL)
    slot = cache->random_seq[(slab->start + slot) % cache->n_slots];
  return slab->base + (gsize) slot * cache->size;
}

/* See slab.h. */
gpointer
ns_kmem_cache_alloc (NsKmemCache *cache, guint cpu)
{
  CacheCpu *cc;
  gpointer obj = NULL;

  g_return_val_if_fail (cache != NULL && cpu < cache->n_cpus, NULL);
  cc = &cache->cpu[cpu];
  if (cc->freelist->len == 0)
    obj = slab_refill (cache, cpu);
  if (obj == NULL) {
    obj = g_ptr_array_steal_index (cc->freelist, cc->freelist->len - 1);
    memset (obj, 0, cache->size);
  }
  g_hash_table_insert (cache->live, obj, cc->slab);
  return obj;
}

/* do_slab_free of obj, taken out of the live set, on cpu: the fast path where cpu's
 * active slab holds it, else __slab_free onto its slab's freelist. */
static void
free_to_slab (NsKmemCache *cache, gpointer obj, Slab *slab, guint cpu)
{
  if (cache->cpu[cpu].slab == slab) {
    g_ptr_array_add (cache->cpu[cpu].freelist, obj);
    return;
  }
  g_ptr_array_add (slab->freelist, obj);
  add_partial (cache, slab);
}

/* See slab.h: in SLUB a slab's objects are all on the per-CPU freelist once it is the
 * CPU's (carving is the fast path too). */
gboolean
ns_kmem_cache_cpu_empty (const NsKmemCache *cache, guint cpu)
{
  const CacheCpu *cc;

  g_return_val_if_fail (cache != NULL && cpu < cache->n_cpus, FALSE);
  cc = &cache->cpu[cpu];
  return cc->freelist->len == 0 && slab_carved (cache, cc->slab);
}

/* See slab.h. */
gboolean
ns_kmem_cache_holds (const NsKmemCache *cache, gconstpointer obj)
{
  g_return_val_if_fail (cache != NULL, FALSE);
  return g_hash_table_contains (cache->live, obj);
}

/* See slab.h. An object not live in cache (freed twice, another cache's, an address
 * inside one) is refused with a critical, as KASAN reports an invalid free. */
void
ns_kmem_cache_free_on (NsKmemCache *cache, gpointer obj, guint cpu)
{
  gpointer slab;

  g_return_if_fail (cache != NULL && obj != NULL && cpu < cache->n_cpus);
  g_return_if_fail (g_hash_table_steal_extended (cache->live, obj, NULL, &slab));
  free_to_slab (cache, obj, slab, cpu);
}

/* See slab.h (refused as ns_kmem_cache_free_on refuses). */
void
ns_kmem_cache_free (NsKmemCache *cache, gpointer obj)
{
  gpointer p;
  Slab *slab;

  g_return_if_fail (cache != NULL && obj != NULL);
  g_return_if_fail (g_hash_table_steal_extended (cache->live, obj, NULL, &p));
  slab = p;
  free_to_slab (cache, obj, slab, slab->active_cpu >= 0 ? (guint) slab->active_cpu : 0);
}

/* The cache's object size, aligned as its flags ask (calculate_alignment). */
gsize
ns_kmem_cache_size (const NsKmemCache *cache)
{
  g_return_val_if_fail (cache != NULL, 0);
  return cache->size;
}

/* The bytes of one of the cache's slabs (PAGE_SIZE << its order). */
gsize
ns_kmem_cache_slab_bytes (const NsKmemCache *cache)
{
  g_return_val_if_fail (cache != NULL, 0);
  return cache->slab_bytes;
}

/* ---- kmalloc ---- */

static const gsize kmalloc_sizes[NS_KMALLOC_CLASSES] = {
  8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192
};

#define KMALLOC_DATA_KEY "ns-kmalloc-caches"

/* See slab.h. */
guint
ns_kmalloc_index (gsize size)
{
  guint i = 0;

  while (i < NS_KMALLOC_CLASSES && size > kmalloc_sizes[i])
    i++;
  return i;
}

/* See slab.h. */
gsize
ns_kmalloc_size (guint index)
{
  g_return_val_if_fail (index < NS_KMALLOC_CLASSES, 0);
  return kmalloc_sizes[index];
}

/* Frees a machine's kmalloc caches (their memory goes with its arena). */
static void
kmalloc_caches_free (gpointer p)
{
  NsKmemCache **caches = p;

  for (guint i = 0; i < NS_KMALLOC_CLASSES; i++)
    ns_kmem_cache_destroy (caches[i]);
  g_free (caches);
}

/* create_kmalloc_caches: kmalloc-8 … kmalloc-8k of machine, each a cache of its own, the
 * shuffle seeds from the machine's layout stream (one boot's layout per seed and
 * repetition; the workload's draws are not touched). */
static NsKmemCache **
create_kmalloc_caches (NsMachine *machine)
{
  guint64 key = ns_machine_layout_key (machine, NS_LAYOUT_KMALLOC_CACHES);
  gboolean shuffle = ns_slab_freelist_random (ns_machine_build (machine));
  NsKmemCache **caches = g_new (NsKmemCache *, NS_KMALLOC_CLASSES);

  for (guint i = 0; i < NS_KMALLOC_CLASSES; i++)
    caches[i] = ns_kmem_cache_new (ns_machine_arena (machine), kmalloc_sizes[i], 0,
                                   ns_machine_n_cpus (machine), shuffle,
                                   ns_derive_seed (key, i));
  ns_machine_set_data (machine, KMALLOC_DATA_KEY, caches, kmalloc_caches_free);
  return caches;
}

/* See slab.h. */
NsKmemCache *
ns_kmalloc_cache (NsMachine *machine, guint index)
{
  NsKmemCache **caches;

  g_return_val_if_fail (machine != NULL && index < NS_KMALLOC_CLASSES, NULL);
  caches = ns_machine_get_data (machine, KMALLOC_DATA_KEY);
  if (caches == NULL)
    caches = create_kmalloc_caches (machine);
  return caches[index];
}

/* See slab.h. */
gsize
ns_ksize (NsMachine *machine, gconstpointer obj)
{
  NsKmemCache **caches;

  g_return_val_if_fail (machine != NULL, 0);
  caches = ns_machine_get_data (machine, KMALLOC_DATA_KEY);
  for (guint i = 0; caches != NULL && i < NS_KMALLOC_CLASSES; i++)
    if (ns_kmem_cache_holds (caches[i], obj))
      return kmalloc_sizes[i];
  return 0;
}
