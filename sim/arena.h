/* arena.h — the simulated address space: deterministic addresses for simulated objects.
 *
 * Kernel-shaped objects live in host memory handed out by an arena; each host byte in the
 * arena has a fixed simulated address (base + offset), so cache set mapping depends only on
 * the allocation sequence, never on ASLR or the host allocator. Freed objects go to a LIFO
 * free list per size class, as a slab allocator would recycle them. */
#pragma once
#include <glib.h>

G_BEGIN_DECLS

typedef struct _NsArena NsArena;

/* Reserves capacity bytes of host memory (lazily committed) mapped at simulated `base`
 * (page aligned). Returns NULL with errno set, silently (a g_debug), if the host refuses
 * the reservation (a ulimit -v): the caller decides whether that is an error. */
NsArena  *ns_arena_new        (guint64 base, gsize capacity);
void      ns_arena_free       (NsArena *arena);
/* Zeroed memory, aligned to align (a power of two ≥ 8). Aborts when the arena is full. */
gpointer  ns_arena_alloc      (NsArena *arena, gsize size, gsize align);
void      ns_arena_release    (NsArena *arena, gpointer ptr, gsize size);
/* Simulated address of a host pointer inside the arena. */
guint64   ns_arena_addr       (const NsArena *arena, gconstpointer ptr);
gboolean  ns_arena_contains   (const NsArena *arena, gconstpointer ptr);
/* Charges the size bytes of the object at obj at another layout: byte offset o of it at
 * offset map[o] (the same fields as another kernel release orders them). map must outlive
 * the setting; setting an object again replaces its map. */
void      ns_arena_set_layout   (NsArena *arena, gconstpointer obj, gsize size,
                                 const guint16 *map);
/* Charges the object at obj as it lies again (a freed object). */
void      ns_arena_clear_layout (NsArena *arena, gconstpointer obj);
/* The simulated address charged for ptr: ns_arena_addr's, moved by the layout of an
 * object holding ptr (ns_arena_set_layout), if any. */
guint64   ns_arena_charged_addr (const NsArena *arena, gconstpointer ptr);
gsize     ns_arena_used       (const NsArena *arena);

G_END_DECLS
