/* bench-saferet-tree.h — the state bench-saferet-tree's generated functions work on, and
 * the three builds of its walk (big: each function on lines of its own, spread over
 * ~200 KiB of text; packed: the same functions back to back; wide: big with 256 bytes
 * of NOPs run at each function's start). */
#pragma once
#include <glib.h>

#define BENCH_TREE_NODES 256          /* functions */

typedef enum {
  BENCH_TREE_FULL,                    /* all functions as one tree (fan-out 4, depth 5) */
  BENCH_TREE_DEEP,                    /* all functions as four chains of 64 nested calls */
  BENCH_TREE_SMALL,                   /* one 21-function subtree (depth 3), 12 times */
} BenchTreeShape;

struct bench_tree_state {
  guint64        a, b, c, d;          /* what the functions' ALU work mixes */
  guint64        returns;             /* functions completed (returns made) */
  BenchTreeShape shape;
};

/* n traversals in s->shape, each returning from 256 functions (252 in the small shape),
 * counted in s->returns. */
void  bench_tree_walk_big (struct bench_tree_state *s, guint64 n);
void  bench_tree_walk_packed (struct bench_tree_state *s, guint64 n);
void  bench_tree_walk_wide (struct bench_tree_state *s, guint64 n);
/* Bytes of text from the lowest function's start to the highest one's. */
gsize bench_tree_text_big (void);
gsize bench_tree_text_packed (void);
gsize bench_tree_text_wide (void);
