/* bench-saferet-tree-walk.c — 256 distinct out-of-line functions calling one another as
 * a kernel path does, for tools/bench-saferet-tree. Each does ~25 instructions of ALU
 * work on a small state, calls its children (tree: fan-out 4, depth 5) or its one callee
 * (deep shape: chains of 64), then counts its return, so its calls are not tail calls and
 * every function returns through __x86_return_thunk (-mfunction-return=thunk-extern, as
 * a CONFIG_RETHUNK kernel). The call graph is tools/bench-saferet-tree.def.
 *
 * Built three times: with BENCH_TREE_PADDED each function starts on a cache line and is
 * followed by 6–13 lines of padding (a pseudo-random count, so that the functions do not
 * all fall into the same cache sets), ~200 KiB in all, far beyond the 32 KiB L1i (needs
 * -fno-toplevel-reorder: the padding is top-level asm between the functions); without it
 * the functions are packed as the compiler lays them out. With BENCH_TREE_SLED as well
 * (the wide build) each function first runs 256 bytes of NOPs, which the front end must
 * fetch and decode but which cost the back end almost nothing: what a function executes
 * grows from ~150 bytes (~48 KiB of lines touched a traversal) to ~410 (~112 KiB). */
#include "config.h"
#include "bench-saferet-tree.h"

#if defined(BENCH_TREE_PADDED) && defined(BENCH_TREE_SLED)
#define WALK         bench_tree_walk_wide
#define TEXT         bench_tree_text_wide
#elif defined(BENCH_TREE_PADDED)
#define WALK         bench_tree_walk_big
#define TEXT         bench_tree_text_big
#else
#define WALK         bench_tree_walk_packed
#define TEXT         bench_tree_text_packed
#endif
#ifdef BENCH_TREE_PADDED
#define NODE_ATTR    __attribute__ ((noinline, aligned (64)))
#define NODE_PAD(i)  __asm__ ("  .text\n  .skip ((" #i " * 37) % 8 + 6) * 64\n");
#else
#define NODE_ATTR    __attribute__ ((noinline))
#define NODE_PAD(i)
#endif
#ifdef BENCH_TREE_SLED                  /* 32 eight-byte NOPs: 4 more lines executed */
#define NODE_SLED()                                                           \
  __asm__ volatile (".rept 32\n  .byte 0x0f,0x1f,0x84,0,0,0,0,0\n  .endr")
#else
#define NODE_SLED()
#endif

/* ~25 instructions: four loads, shifts, adds, xors, a multiply, four stores; k makes
 * each function's constants its own. */
#define WORK(s, k)                                                            \
  do {                                                                        \
    guint64 a_ = (s)->a, b_ = (s)->b, c_ = (s)->c, d_ = (s)->d;               \
    a_ += b_ ^ ((guint64) (k) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15));     \
    b_ = (b_ << 13 | b_ >> 51) + c_;                                          \
    c_ ^= a_ >> 7;                                                            \
    d_ += a_ * 3 + (c_ & 0xff);                                               \
    a_ ^= d_ << 5;                                                            \
    c_ += b_ ^ a_;                                                            \
    (s)->a = a_;                                                              \
    (s)->b = b_;                                                              \
    (s)->c = c_;                                                              \
    (s)->d = d_ ^ (c_ >> 11);                                                 \
  } while (0)

#define KID(c)   node_##c (s);
#define NEXT(c)  node_##c (s);

#define NODE(i, kids, next) static NODE_ATTR void node_##i (struct bench_tree_state *s);
#include "bench-saferet-tree.def"
#undef NODE

#define NODE(i, kids, next)                                                   \
  static NODE_ATTR void                                                       \
  node_##i (struct bench_tree_state *s)                                       \
  {                                                                           \
    NODE_SLED ();                                                             \
    WORK (s, i);                                                              \
    if (s->shape == BENCH_TREE_DEEP) {                                        \
      next                                                                    \
    } else {                                                                  \
      kids                                                                    \
    }                                                                         \
    s->returns++;                                                             \
  }                                                                           \
  NODE_PAD (i)
#include "bench-saferet-tree.def"
#undef NODE

void
WALK (struct bench_tree_state *s, guint64 n)
{
  for (guint64 k = 0; k < n; k++) {
    switch (s->shape) {
    case BENCH_TREE_FULL:
      node_0 (s);
      break;
    case BENCH_TREE_DEEP:
      node_0 (s);
      node_64 (s);
      node_128 (s);
      node_192 (s);
      break;
    case BENCH_TREE_SMALL:              /* node 5, its children 21–24, theirs 85–100 */
      for (int j = 0; j < 12; j++)
        node_5 (s);
      break;
    }
  }
}

gsize
TEXT (void)
{
#define NODE(i, kids, next) node_##i,
  static void (*const fn[]) (struct bench_tree_state *) = {
#include "bench-saferet-tree.def"
  };
#undef NODE
  guintptr lo = (guintptr) fn[0], hi = lo;

  for (gsize i = 1; i < G_N_ELEMENTS (fn); i++) {
    lo = MIN (lo, (guintptr) fn[i]);
    hi = MAX (hi, (guintptr) fn[i]);
  }
  return hi - lo;
}
