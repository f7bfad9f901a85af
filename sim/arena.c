/* arena.c — the simulated address space: one lazily committed host mapping per arena.
 *
 * Allocation bumps an offset through a MAP_NORESERVE mapping (pages are committed by the
 * host kernel only when touched, and start zeroed). Sizes are rounded up to a multiple of
 * 8 bytes; that rounded size is the object's size class. A released object goes on its
 * class's LIFO stack and the next allocation of that class takes it back (if its alignment
 * fits), the way a slab cache hands out the most recently freed object first. Addresses
 * therefore depend only on the sequence of calls. Alignment is applied to offsets, so with
 * a page-aligned base it holds for simulated and host addresses alike (up to the host
 * page size for the host side). Under AddressSanitizer released objects are poisoned. */
#include "config.h"
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include "arena.h"

#ifdef NS_WITH_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n)   ASAN_POISON_MEMORY_REGION ((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION ((p), (n))
#else
#define POISON(p, n)   ((void) (p), (void) (n))
#define UNPOISON(p, n) ((void) (p), (void) (n))
#endif

#define CLASS_GRAIN   8
#define SMALL_CLASSES 1024      /* classes up to 8 KiB indexed directly */

struct _NsArena {
  guint64     base;             /* simulated address of host[0] */
  guint8     *host;
  gsize       capacity;
  gsize       top;              /* bump offset */
  gsize       used;             /* bytes in live objects (class sizes) */
  GPtrArray  *small[SMALL_CLASSES];   /* class / 8 → stack of free objects */
  GHashTable *large;            /* class size → GPtrArray stack */
  GHashTable *live;             /* live object → its class size: a release must give back
                                   an object as it was allocated, once */
  GHashTable *layouts;          /* page index → GArray of the Layout objects on it */
  guint8     *layout_pages;     /* a bit per page: set while it has a list in layouts */
  guint       n_layouts;        /* objects with a layout (0: every address as it lies) */
};

/* An object charged at another layout (ns_arena_set_layout). */
typedef struct {
  gsize          start, size;   /* offsets into host */
  const guint16 *map;
} Layout;

#define LAYOUT_PAGE_SHIFT 12

/* Rounds size up to its class size. */
static gsize
class_size (gsize size)
{
  if (size == 0)
    size = 1;
  return (size + CLASS_GRAIN - 1) & ~(gsize) (CLASS_GRAIN - 1);
}

/* The free stack of a class, created on demand when create is TRUE. */
static GPtrArray *
free_stack (NsArena *arena, gsize cls, gboolean create)
{
  GPtrArray *stack;

  if (cls / CLASS_GRAIN < SMALL_CLASSES) {
    stack = arena->small[cls / CLASS_GRAIN];
    if (stack == NULL && create)
      stack = arena->small[cls / CLASS_GRAIN] = g_ptr_array_new ();
    return stack;
  }
  stack = g_hash_table_lookup (arena->large, GSIZE_TO_POINTER (cls));
  if (stack == NULL && create) {
    stack = g_ptr_array_new ();
    g_hash_table_insert (arena->large, GSIZE_TO_POINTER (cls), stack);
  }
  return stack;
}

/* Reserves capacity bytes mapped at simulated base (page aligned). Returns NULL with errno
 * set (and a debug message only: a caller may try a smaller capacity) if the host refuses
 * the reservation. */
NsArena *
ns_arena_new (guint64 base, gsize capacity)
{
  NsArena *arena;
  void *host;

  g_return_val_if_fail ((base & 4095) == 0, NULL);
  g_return_val_if_fail (capacity > 0, NULL);
  host = mmap (NULL, capacity, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (host == MAP_FAILED)
    goto no_memory;
  arena = g_new0 (NsArena, 1);
  arena->base = base;
  arena->host = host;
  arena->capacity = capacity;
  arena->large = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL,
                                        (GDestroyNotify) g_ptr_array_unref);
  arena->live = g_hash_table_new (g_direct_hash, g_direct_equal);
  return arena;

/* ERRORS */
no_memory:
  {
    int saved = errno;
    g_debug ("arena: cannot reserve %" G_GSIZE_FORMAT " bytes of address space: %s",
             capacity, g_strerror (saved));
    errno = saved;
  }
  return NULL;
}

/* Unmaps the arena; every pointer into it becomes invalid. */
void
ns_arena_free (NsArena *arena)
{
  if (arena == NULL)
    return;
  UNPOISON (arena->host, arena->top);
  munmap (arena->host, arena->capacity);
  for (guint i = 0; i < SMALL_CLASSES; i++)
    if (arena->small[i])
      g_ptr_array_unref (arena->small[i]);
  g_hash_table_unref (arena->large);
  g_hash_table_unref (arena->live);
  if (arena->layouts)
    g_hash_table_unref (arena->layouts);
  g_free (arena->layout_pages);
  g_free (arena);
}

/* Takes the most recently freed object of the class if its alignment fits. */
static gpointer
reuse (NsArena *arena, gsize cls, gsize align)
{
  GPtrArray *stack = free_stack (arena, cls, FALSE);
  guint8 *p;

  if (stack == NULL || stack->len == 0)
    return NULL;
  p = stack->pdata[stack->len - 1];
  if (((gsize) (p - arena->host) & (align - 1)) != 0)
    return NULL;
  g_ptr_array_set_size (stack, stack->len - 1);
  UNPOISON (p, cls);
  memset (p, 0, cls);
  return p;
}

/* Zeroed memory of size bytes aligned to align (power of two ≥ 8); aborts when full. */
gpointer
ns_arena_alloc (NsArena *arena, gsize size, gsize align)
{
  gsize cls, off;
  gpointer p;

  g_return_val_if_fail (arena != NULL, NULL);
  g_return_val_if_fail (align >= 8 && (align & (align - 1)) == 0, NULL);
  cls = class_size (size);
  p = reuse (arena, cls, align);
  if (p == NULL) {
    off = (arena->top + align - 1) & ~(align - 1);
    if (off > arena->capacity || cls > arena->capacity - off)
      g_error ("arena full: %" G_GSIZE_FORMAT " bytes requested, %" G_GSIZE_FORMAT
               " of %" G_GSIZE_FORMAT " used", size, arena->top, arena->capacity);
    p = arena->host + off;
    arena->top = off + cls;
  }
  arena->used += cls;
  g_hash_table_insert (arena->live, p, GSIZE_TO_POINTER (cls));
  return p;
}

/* Returns an object of size bytes to its class's free stack; it must be live and have
 * been allocated with a size of the same class (a critical otherwise, like KASAN's
 * invalid-free report: a model freeing the wrong object or size). */
void
ns_arena_release (NsArena *arena, gpointer ptr, gsize size)
{
  gsize cls;

  g_return_if_fail (arena != NULL);
  g_return_if_fail (ns_arena_contains (arena, ptr));
  cls = class_size (size);
  g_return_if_fail (GPOINTER_TO_SIZE (g_hash_table_lookup (arena->live, ptr)) == cls);
  g_hash_table_remove (arena->live, ptr);
  g_return_if_fail (arena->used >= cls);
  g_ptr_array_add (free_stack (arena, cls, TRUE), ptr);
  arena->used -= cls;
  POISON (ptr, cls);
}

/* Simulated address of a host pointer inside the arena (0 if outside). */
guint64
ns_arena_addr (const NsArena *arena, gconstpointer ptr)
{
  g_return_val_if_fail (ns_arena_contains (arena, ptr), 0);
  return arena->base + (guint64) ((const guint8 *) ptr - arena->host);
}

/* TRUE if ptr points into the arena's reservation. */
gboolean
ns_arena_contains (const NsArena *arena, gconstpointer ptr)
{
  const guint8 *p = ptr;

  g_return_val_if_fail (arena != NULL, FALSE);
  return p >= arena->host && p < arena->host + arena->capacity;
}

/* Removes the object starting at start from the page's list; TRUE if it was there. */
static gboolean
page_drop_layout (GArray *page, gsize start)
{
  for (guint i = 0; i < page->len; i++)
    if (g_array_index (page, Layout, i).start == start) {
      g_array_remove_index_fast (page, i);
      return TRUE;
    }
  return FALSE;
}

/* Charges the object at obj at map; see arena.h. */
void
ns_arena_set_layout (NsArena *arena, gconstpointer obj, gsize size, const guint16 *map)
{
  Layout l;

  g_return_if_fail (arena != NULL && map != NULL && size > 0);
  g_return_if_fail (ns_arena_contains (arena, obj) &&
                    ns_arena_contains (arena, (const guint8 *) obj + size - 1));
  l = (Layout) { (gsize) ((const guint8 *) obj - arena->host), size, map };
  if (arena->layouts == NULL) {
    arena->layouts = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
    arena->layout_pages = g_malloc0 (((arena->capacity >> LAYOUT_PAGE_SHIFT) + 7) / 8);
  }
  ns_arena_clear_layout (arena, obj);
  for (gsize pg = l.start >> LAYOUT_PAGE_SHIFT; pg <= (l.start + size - 1) >> LAYOUT_PAGE_SHIFT;
       pg++) {
    GArray *page = g_hash_table_lookup (arena->layouts, GSIZE_TO_POINTER (pg));

    if (page == NULL) {
      page = g_array_new (FALSE, FALSE, sizeof (Layout));
      g_hash_table_insert (arena->layouts, GSIZE_TO_POINTER (pg), page);
      arena->layout_pages[pg / 8] |= (guint8) (1u << (pg % 8));
    }
    g_array_append_val (page, l);
  }
  arena->n_layouts++;
}

/* Forgets the layout of the object at obj, if it has one. */
void
ns_arena_clear_layout (NsArena *arena, gconstpointer obj)
{
  gsize start, pg;
  GArray *page;
  gboolean had = FALSE;

  g_return_if_fail (arena != NULL && ns_arena_contains (arena, obj));
  if (arena->n_layouts == 0)
    return;
  start = (gsize) ((const guint8 *) obj - arena->host);
  for (pg = start >> LAYOUT_PAGE_SHIFT;
       (page = g_hash_table_lookup (arena->layouts, GSIZE_TO_POINTER (pg))) != NULL &&
       page_drop_layout (page, start); pg++)
    had = TRUE;
  if (had)
    arena->n_layouts--;
}

/* The charged simulated address of ptr; see arena.h. */
guint64
ns_arena_charged_addr (const NsArena *arena, gconstpointer ptr)
{
  gsize off;
  GArray *page;

  g_return_val_if_fail (ns_arena_contains (arena, ptr), 0);
  off = (gsize) ((const guint8 *) ptr - arena->host);
  if (G_LIKELY (arena->n_layouts == 0) ||
      !(arena->layout_pages[(off >> LAYOUT_PAGE_SHIFT) / 8] &
        (1u << ((off >> LAYOUT_PAGE_SHIFT) % 8))))
    return arena->base + off;
  page = g_hash_table_lookup (arena->layouts, GSIZE_TO_POINTER (off >> LAYOUT_PAGE_SHIFT));
  for (guint i = 0; page != NULL && i < page->len; i++) {
    const Layout *l = &g_array_index (page, Layout, i);

    if (off >= l->start && off < l->start + l->size)
      return arena->base + l->start + l->map[off - l->start];
  }
  return arena->base + off;
}

/* Bytes held by live objects (sizes rounded up to their class). */
gsize
ns_arena_used (const NsArena *arena)
{
  g_return_val_if_fail (arena != NULL, 0);
  return arena->used;
}
