/* slab.h — a SLUB kmem_cache's object placement: which addresses a cache hands out.
 *
 * A cache carves its objects out of slabs of PAGE_SIZE << order bytes (calculate_order of
 * v6.1 mm/slub.c), each CPU out of a slab of its own (kmem_cache_cpu), in order, or with
 * CONFIG_SLAB_FREELIST_RANDOM in the order of the cache's one random permutation from a
 * random place per slab (shuffle_freelist). An object freed on the CPU whose active slab
 * holds it is that CPU's next (the per-CPU freelist, LIFO: do_slab_free's fast path); one
 * freed elsewhere goes on its slab's own freelist (__slab_free), which the active CPU
 * takes back once its per-CPU freelist and the slab's uncarved objects are used up
 * (get_freelist), and a slab no CPU holds goes on the partial list, taken (oldest first)
 * before a new slab is made. Not modelled: the per-CPU partial lists (put_cpu_partial) and
 * a slab's return to the page allocator. A UDP socket, SOCK_RCU_FREE, would go back after
 * a grace period. Nothing here is charged: the callers charge kmem_cache_alloc /
 * kmem_cache_free where the kernel does. */
#pragma once
#include <glib.h>
#include "arena.h"
#include "build.h"
#include "machine.h"

G_BEGIN_DECLS

typedef struct _NsKmemCache NsKmemCache;

/* calculate_order (v6.1 mm/slub.c, slub_min_objects 0, slub_max_order 3) of a cache of
 * size-byte objects on a machine of n_cpus CPUs. */
guint         ns_slub_calculate_order  (gsize size, guint n_cpus);

/* kmem_cache_create's flags that decide placement. */
typedef enum {
  NS_SLAB_HWCACHE_ALIGN = 1 << 0,   /* objects aligned to the cache line (calculate_alignment) */
} NsSlabFlags;

/* The machine's layout streams (ns_machine_layout_key) of the caches' shuffles. */
enum {
  NS_LAYOUT_UDP_SOCK_CACHES = 1,    /* "UDP" and "UDPv6" (models/net/udp.c) */
  NS_LAYOUT_KMALLOC_CACHES  = 2,    /* kmalloc-8 … kmalloc-8k (ns_kmalloc_cache) */
  NS_LAYOUT_SKB_CACHES      = 3,    /* skbuff_cache, skbuff_small_head (models/net/skbuff.c) */
};

/* CONFIG_SLAB_FREELIST_RANDOM of build: on only where the build says y (the Kconfig
 * default is n; a scenario states a distribution's y in its kernel block). One rule for
 * every cache of every model. */
gboolean      ns_slab_freelist_random  (NsBuild *build);

/* A cache of size-byte objects (up to 8 KiB; with NS_SLAB_HWCACHE_ALIGN rounded up to the
 * 64-byte line, or to 32/16/8 for objects that fit half a line or less, else to 8:
 * ARCH_SLAB_MINALIGN) for n_cpus CPUs whose slabs come from arena; shuffle:
 * CONFIG_SLAB_FREELIST_RANDOM, its sequence and slab starts drawn from seed. */
NsKmemCache  *ns_kmem_cache_new        (NsArena *arena, gsize size, NsSlabFlags flags,
                                        guint n_cpus, gboolean shuffle, guint64 seed);
void          ns_kmem_cache_destroy    (NsKmemCache *cache);
/* A zeroed object, allocated on cpu. */
gpointer      ns_kmem_cache_alloc      (NsKmemCache *cache, guint cpu);
/* TRUE if cpu's next allocation finds its per-CPU freelist empty (nothing freed to it on
 * cpu, its active slab carved out, or none yet): SLUB's slow path, ___slab_alloc, which
 * takes back the slab's freelist or moves to a partial or a new slab. */
gboolean      ns_kmem_cache_cpu_empty  (const NsKmemCache *cache, guint cpu);
/* Frees obj on cpu (a critical if it is not an object of cache's still handed out). */
void          ns_kmem_cache_free_on    (NsKmemCache *cache, gpointer obj, guint cpu);
/* Frees obj on the CPU whose active slab holds it (else CPU 0). */
void          ns_kmem_cache_free       (NsKmemCache *cache, gpointer obj);
/* TRUE if obj is an object of cache's handed out and not freed (what ksize and
 * kmem_dump_obj find a slab object by). */
gboolean      ns_kmem_cache_holds      (const NsKmemCache *cache, gconstpointer obj);
/* The object size (after alignment) and the bytes of one slab. */
gsize         ns_kmem_cache_size       (const NsKmemCache *cache);
gsize         ns_kmem_cache_slab_bytes (const NsKmemCache *cache);

/* ---- kmalloc (create_kmalloc_caches, v6.1 x86-64) ----
 * One set of kmalloc caches per machine, as per boot: tc's objects and the skb heads
 * share them. KMALLOC_MIN_SIZE 8, the 96- and 192-byte caches, up to KMALLOC_SHIFT_HIGH =
 * PAGE_SHIFT + 1; no cache-line alignment (ARCH_KMALLOC_MINALIGN); shuffled per
 * ns_slab_freelist_random from the machine's NS_LAYOUT_KMALLOC_CACHES stream. */
#define NS_KMALLOC_CLASSES 13

/* kmalloc_index: the class of a size-byte request, NS_KMALLOC_CLASSES beyond 8 KiB (a
 * kmalloc_large page allocation). */
guint         ns_kmalloc_index         (gsize size);
/* The object size of class index. */
gsize         ns_kmalloc_size          (guint index);
/* The machine's cache of class index (< NS_KMALLOC_CLASSES), its set made at the first
 * call and freed with the machine. */
NsKmemCache  *ns_kmalloc_cache         (NsMachine *machine, guint index);
/* ksize(obj): the class size of a live object of the machine's kmalloc caches, 0 for
 * memory that is not one (static data, another cache's object, a freed object). */
gsize         ns_ksize                 (NsMachine *machine, gconstpointer obj);

G_END_DECLS
