/* test-tc_wrapper.c — the retpoline wrappers (models/net/sched/tc_wrapper.c): which build
 * has them, the order of their compare chains and the compares a call costs to reach each
 * classifier and action, modules never in a chain, the static key tc_skip_wrapper per
 * spectre_v2 mode (and the RFC, which has no key), the what-if chain positions, and what a
 * call costs the machine: an indirect call (retpoline) before, a direct call after. */
#include "config.h"
#include "sched-rig.h"
#include "../build-note.h"

static const char *const merged[] = { "tc-retpoline-wrappers", NULL };
static const char *const rfc[] = { "tc-retpoline-wrappers-rfc", NULL };

/* ---- chains ---- */

/* ---- slab layout ---- */

/* Whether 32 kzalloc(256)s fill distinct slots within 32 KiB at a constant stride (TRUE:
 * in order) or not; fails on duplicates or objects further apart. */
static gboolean
kzalloc_in_order (const char *random)
{
  const char *const config[] = { "CONFIG_SLAB_FREELIST_RANDOM", random, NULL };
  GHashTable *seen = g_hash_table_new (NULL, NULL);
  gboolean in_order = TRUE;
  guint8 *lo = NULL, *hi = NULL, *prev = NULL;
  SchedRig rig;

  rig_init (&rig, "6.1.0", NULL, config, NS_SPECTRE_V2_RETPOLINE);
  for (guint i = 0; i < 32; i++) {
    guint8 *obj = tc_kzalloc (rig.tc, 200);
    ck_assert (g_hash_table_add (seen, obj));
    lo = lo == NULL || obj < lo ? obj : lo;
    hi = hi == NULL || obj > hi ? obj : hi;
    if (prev != NULL && obj - prev != 256)
      in_order = FALSE;
    prev = obj;
  }
  ck_assert_int_le (hi + 256 - lo, 32 * 1024);
  g_hash_table_destroy (seen);
  rig_clear (&rig);
  return in_order;
}

/* SLUB hands a new slab's objects out in order; CONFIG_SLAB_FREELIST_RANDOM shuffles
 * the freelist, so consecutive objects sit at no constant stride. */
START_TEST (test_slab_freelist_random)
{
  ck_assert (kzalloc_in_order ("n"));
  ck_assert (!kzalloc_in_order ("y"));
}
END_TEST

/* tc's kmalloc caches are SLUB's (models/net/slab.c): without the shuffle a kmalloc-256
 * slab holds calculate_order's objects for the machine's CPUs, in order, and the next
 * one opens a new slab, here after a kmalloc-96 slab the alternating kzalloc(90)s took
 * (a 32 KiB region per class, as before, would have kept them consecutive). */
START_TEST (test_kmalloc_slabs_of_calculate_order)
{
  const char *const config[] = { "CONFIG_SLAB_FREELIST_RANDOM", "n", NULL };
  guint8 *first, *obj = NULL;
  guint n_slots;
  SchedRig rig;

  rig_init (&rig, "6.1.0", NULL, config, NS_SPECTRE_V2_RETPOLINE);
  n_slots = (4096u << ns_slub_calculate_order (256, ns_machine_n_cpus (rig.machine))) / 256;
  first = tc_kzalloc (rig.tc, 200);
  for (guint i = 1; i <= n_slots; i++) {
    ck_assert_ptr_nonnull (tc_kzalloc (rig.tc, 90));
    obj = tc_kzalloc (rig.tc, 200);
    if (i < n_slots)
      ck_assert_ptr_eq (obj, first + (gsize) i * 256);
  }
  ck_assert_ptr_ne (obj, first + (gsize) n_slots * 256);
  ck_assert_uint_eq (GPOINTER_TO_SIZE (obj) % 4096, 0);
  rig_clear (&rig);
}
END_TEST

/* kmalloc caches are not cache-line aligned (create_kmalloc_caches passes no
 * SLAB_HWCACHE_ALIGN): kmalloc-96 and kmalloc-192 hand out objects 96 and 192 apart. */
START_TEST (test_kmalloc_96_and_192_keep_their_size)
{
  const char *const config[] = { "CONFIG_SLAB_FREELIST_RANDOM", "n", NULL };
  guint8 *a96, *a192;
  SchedRig rig;

  rig_init (&rig, "6.1.0", NULL, config, NS_SPECTRE_V2_RETPOLINE);
  a96 = tc_kzalloc (rig.tc, 90);
  a192 = tc_kzalloc (rig.tc, 150);
  ck_assert_ptr_eq (tc_kzalloc (rig.tc, 90), a96 + 96);
  ck_assert_ptr_eq (tc_kzalloc (rig.tc, 150), a192 + 192);
  rig_clear (&rig);
}
END_TEST

/* The strides between 32 kzalloc(200)s of a tc state on a machine whose page key (the
 * run's, from its seed and repetition) is key, into strides[31]. */
static void
kzalloc_strides (guint64 key, gssize *strides)
{
  const char *const config[] = { "CONFIG_SLAB_FREELIST_RANDOM", "y", NULL };
  guint8 *prev = NULL;
  SchedRig rig;
  TcEnv *env;

  rig_init (&rig, "6.1.0", NULL, config, NS_SPECTRE_V2_RETPOLINE);
  ns_machine_set_page_key (rig.machine, key);
  env = tc_env_new (rig.machine);
  for (guint i = 0; i < 32; i++) {
    guint8 *obj = tc_kzalloc (env, 200);
    if (prev != NULL)
      strides[i - 1] = obj - prev;
    prev = obj;
  }
  tc_env_free (env);
  rig_clear (&rig);
}

/* A run's slab layout comes from the machine's layout key (the page key of its seed and
 * repetition): the same key lays the objects out the same way, another key another way,
 * as two boots of a CONFIG_SLAB_FREELIST_RANDOM kernel would. */
START_TEST (test_slab_layout_follows_the_seed)
{
  gssize a[31], b[31], c[31];

  kzalloc_strides (1, a);
  kzalloc_strides (1, b);
  kzalloc_strides (2, c);
  ck_assert (memcmp (a, b, sizeof a) == 0);
  ck_assert (memcmp (a, c, sizeof a) != 0);
}
END_TEST

/* The slot indices, in the order handed out, of the next slab of n_slots objects of
 * the kmalloc class klass (kzalloc(klass - 8)) of env, into idx. */
static void
next_slab_indices (TcEnv *env, gsize klass, guint n_slots, guint *idx)
{
  guint8 **obj = g_new (guint8 *, n_slots);
  guint8 *base = NULL;

  for (guint i = 0; i < n_slots; i++) {
    obj[i] = tc_kzalloc (env, klass - 8);
    base = base == NULL || obj[i] < base ? obj[i] : base;
  }
  for (guint i = 0; i < n_slots; i++)
    idx[i] = (guint) ((obj[i] - base) / klass);
  g_free (obj);
}

/* TRUE if b is a rotation of a (n entries). */
static gboolean
is_rotation (const guint *a, const guint *b, guint n)
{
  for (guint shift = 0; shift < n; shift++) {
    guint i = 0;
    while (i < n && b[i] == a[(i + shift) % n])
      i++;
    if (i == n)
      return TRUE;
  }
  return FALSE;
}

/* tc_kzalloc's classes end to end: a request of 1 or 8 bytes is a kmalloc-8 object, one
 * of 8192 a kmalloc-8k object (KMALLOC_SHIFT_HIGH = PAGE_SHIFT + 1), one byte more a
 * kmalloc_large page allocation, which is no slab object (tc_ksize 0). */
START_TEST (test_kzalloc_first_and_last_classes)
{
  SchedRig rig;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  ck_assert_uint_eq (tc_ksize (rig.tc, tc_kzalloc (rig.tc, 1)), 8);
  ck_assert_uint_eq (tc_ksize (rig.tc, tc_kzalloc (rig.tc, 8)), 8);
  ck_assert_uint_eq (tc_ksize (rig.tc, tc_kzalloc (rig.tc, 8192)), 8192);
  ck_assert_uint_eq (tc_ksize (rig.tc, tc_kzalloc (rig.tc, 8193)), 0);
  ck_assert_uint_eq (tc_kmalloc_class (8193), 16384);   /* get_order: 2 */
  ck_assert_uint_eq (tc_kmalloc_class (16384), 16384);  /* a power of two is its order */
  ck_assert_uint_eq (tc_kmalloc_class (16385), 32768);
  rig_clear (&rig);
}
END_TEST

/* Each kmalloc cache has its own random sequence and slab starts (init_cache_random_seq
 * per cache): kmalloc-128 and kmalloc-256, both 32 objects a slab on the rig's CPUs, do
 * not hand their first slabs out in the same order. */
START_TEST (test_kmalloc_caches_shuffle_apart)
{
  const char *const config[] = { "CONFIG_SLAB_FREELIST_RANDOM", "y", NULL };
  guint n = (4096u << ns_slub_calculate_order (128, 8)) / 128, a[64], b[64];
  SchedRig rig;

  rig_init (&rig, "6.1.0", NULL, config, NS_SPECTRE_V2_RETPOLINE);
  ck_assert_uint_eq (ns_machine_n_cpus (rig.machine), 8);
  ck_assert_uint_eq (n, (4096u << ns_slub_calculate_order (256, 8)) / 256);
  ck_assert_uint_le (n, 64);
  next_slab_indices (rig.tc, 128, n, a);
  next_slab_indices (rig.tc, 256, n, b);
  ck_assert (memcmp (a, b, n * sizeof *a) != 0);
  rig_clear (&rig);
}
END_TEST

/* SLUB under CONFIG_SLAB_FREELIST_RANDOM (v6.1 mm/slub.c): a kmalloc-256 slab holds
 * calculate_order's objects — at least 4 * (fls(nr_cpus) + 1), a power-of-two size
 * leaving no rest, so PAGE_SIZE << get_order(that × 256) bytes — and every slab of the
 * cache hands them out in the cache's one random sequence (init_cache_random_seq),
 * started at a random position and wrapping (shuffle_freelist): each slab's order is a
 * rotation of the first's, all of its slots used once. A large class's count is capped
 * at what the largest order holds (kmalloc-4096: 8 in 32 KiB). */
START_TEST (test_slab_random_sequence_per_cache)
{
  const char *const config[] = { "CONFIG_SLAB_FREELIST_RANDOM", "y", NULL };
  guint fls, min_objects, slab = 4096, n_slots, *first, *other;
  SchedRig rig;
  TcEnv *env;

  rig_init (&rig, "6.1.0", NULL, config, NS_SPECTRE_V2_RETPOLINE);
  ns_machine_set_page_key (rig.machine, 7);
  for (fls = 0; (1u << fls) <= ns_machine_n_cpus (rig.machine); fls++)
    ;
  min_objects = 4 * (fls + 1);
  while (slab < min_objects * 256)
    slab <<= 1;
  n_slots = slab / 256;
  first = g_new (guint, n_slots);
  other = g_new (guint, n_slots);
  env = tc_env_new (rig.machine);
  next_slab_indices (env, 256, n_slots, first);
  for (guint k = 0; k < 3; k++) {
    GHashTable *seen = g_hash_table_new (NULL, NULL);
    next_slab_indices (env, 256, n_slots, other);
    for (guint i = 0; i < n_slots; i++) {
      ck_assert_uint_lt (other[i], n_slots);
      ck_assert (g_hash_table_add (seen, GUINT_TO_POINTER (other[i] + 1)));
    }
    ck_assert_msg (is_rotation (first, other, n_slots), "slab %u is no rotation", k + 2);
    g_hash_table_destroy (seen);
  }
  /* kmalloc-4096: min_objects is capped at what an order-3 (PAGE_ALLOC_COSTLY_ORDER)
   * slab holds, 8, so its slabs are 32 KiB: two slabs of 8 are rotations of each other */
  next_slab_indices (env, 4096, 8, first);
  next_slab_indices (env, 4096, 8, other);
  for (guint i = 0; i < 8; i++)
    ck_assert_uint_lt (other[i], 8);
  ck_assert (is_rotation (first, other, 8));
  g_free (first);
  g_free (other);
  tc_env_free (env);
  rig_clear (&rig);
}
END_TEST

/* Per-CPU allocations past one chunk's unit go on in a new chunk (as pcpu_create_chunk
 * does): 4096 filters' statistics need several. Every allocation is simulated memory,
 * and no CPU's copy of one overlaps any copy of another. */
START_TEST (test_percpu_chunks)
{
  const guint n = 3 * TC_PERCPU_STRIDE / 64 + 7;
  GHashTable *lines = g_hash_table_new (NULL, NULL);
  NsArena *arena;
  guint cpus;
  SchedRig rig;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  arena = ns_machine_arena (rig.machine);
  cpus = ns_machine_n_cpus (rig.machine);
  for (guint i = 0; i < n; i++) {
    guint8 *p = tc_alloc_percpu (rig.tc, 40, 8);
    ck_assert_ptr_nonnull (p);
    for (guint c = 0; c < MIN (cpus, 3u); c++) {
      guint8 *copy = tc_percpu_ptr (rig.tc, p, c);
      guint64 key = ns_arena_addr (arena, copy) / 8;
      ck_assert (ns_arena_contains (arena, copy) && ns_arena_contains (arena, copy + 39));
      for (guint w = 0; w < 5; w++)    /* its 40 bytes as 8-byte words */
        ck_assert_msg (g_hash_table_add (lines, GSIZE_TO_POINTER (key + w)),
                       "allocation %u, CPU %u overlaps another", i, c);
    }
  }
  g_hash_table_destroy (lines);
  rig_clear (&rig);
}
END_TEST

/* Allocations that fill a chunk to its last byte stay in it; the next byte starts a new
 * chunk. */
START_TEST (test_percpu_chunk_fills_exactly)
{
  guint8 *a, *b, *c;
  SchedRig rig;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  a = tc_alloc_percpu (rig.tc, TC_PERCPU_STRIDE, 8);          /* a chunk of its own */
  b = tc_alloc_percpu (rig.tc, TC_PERCPU_STRIDE / 2, 8);
  c = tc_alloc_percpu (rig.tc, TC_PERCPU_STRIDE / 2, 8);
  ck_assert_ptr_ne (b, a);
  ck_assert_ptr_eq (c, b + TC_PERCPU_STRIDE / 2);
  ck_assert_ptr_ne (tc_alloc_percpu (rig.tc, 8, 8), c + TC_PERCPU_STRIDE / 2);
  rig_clear (&rig);
}
END_TEST

START_TEST (test_merged_chain_order)
{
  static const char *const cls[] = { "cls_bpf_classify", "u32_classify", "fl_classify",
                                     "fw_classify", "mall_classify", "basic_classify",
                                     "cls_cgroup_classify", "flow_classify",
                                     "route4_classify", "rsvp_classify", "rsvp6_classify",
                                     "tcindex_classify" };
  static const char *const act[] = { "tcf_gact_act", "tcf_mirred_act", "tcf_pedit_act",
                                     "tcf_skbedit_act", "tcf_skbmod_act", "tcf_police_act",
                                     "tcf_bpf_act", "tcf_connmark_act", "tcf_csum_act",
                                     "tcf_ct_act", "tcf_ctinfo_act", "tcf_gate_act",
                                     "tcf_mpls_act", "tcf_nat_act", "tunnel_key_act",
                                     "tcf_vlan_act", "tcf_ife_act", "tcf_ipt_act",
                                     "tcf_simp_act", "tcf_sample_act" };
  SchedRig rig;

  rig_init (&rig, "6.1.0", merged, NULL, NS_SPECTRE_V2_RETPOLINE);
  ck_assert_uint_eq (tc_wrapper_cls_len (rig.tc), G_N_ELEMENTS (cls));
  ck_assert_uint_eq (tc_wrapper_act_len (rig.tc), G_N_ELEMENTS (act));
  for (guint i = 0; i < G_N_ELEMENTS (cls); i++)
    ck_assert_uint_eq (tc_wrapper_cls_position (rig.tc, tc_classifier_fn (cls[i])), i + 1);
  for (guint i = 0; i < G_N_ELEMENTS (act); i++)
    ck_assert_uint_eq (tc_wrapper_act_position (rig.tc, tc_action_fn (act[i])), i + 1);
  rig_clear (&rig);
}
END_TEST

/* The classifiers v6.3 retired left the stable series from the releases that took the
 * removals: tcindex from 6.1.18 (and 6.2.5), rsvp and rsvp6 from 6.1.55; on 6.1 the
 * wrapper is the seed's patch. */
START_TEST (test_chain_members_by_stable_release)
{
  static const char *const patch[] = { "tc-retpoline-wrappers", NULL };
  static const struct { const char *version; gboolean patched, rsvp, tcindex; } cases[] = {
    { "6.1.17", TRUE, TRUE, TRUE }, { "6.1.18", TRUE, TRUE, FALSE },
    { "6.1.54", TRUE, TRUE, FALSE }, { "6.1.55", TRUE, FALSE, FALSE },
    { "6.2.4", FALSE, TRUE, TRUE }, { "6.2.5", FALSE, TRUE, FALSE },
  };

  for (guint k = 0; k < G_N_ELEMENTS (cases); k++) {
    SchedRig rig;

    rig_init (&rig, cases[k].version, cases[k].patched ? patch : NULL, NULL,
              NS_SPECTRE_V2_RETPOLINE);
    ck_assert (tc_wrapper_compiled (rig.tc));
#define CLS_IN(name) (tc_wrapper_cls_position (rig.tc, tc_classifier_fn (name)) > 0)
    ck_assert_msg (CLS_IN ("rsvp_classify") == cases[k].rsvp &&
                   CLS_IN ("rsvp6_classify") == cases[k].rsvp &&
                   CLS_IN ("tcindex_classify") == cases[k].tcindex, "%s", cases[k].version);
#undef CLS_IN
    rig_clear (&rig);
  }
}
END_TEST

START_TEST (test_chain_length_by_version)
{
  static const struct { const char *version; guint cls, act, mall; } cases[] = {
    { "6.2.0", 12, 20, 5 },   /* rsvp, rsvp6, tcindex still there */
    { "6.3.0", 9, 20, 5 },    /* … removed in v6.3 */
    { "6.7.12", 9, 20, 5 },   /* ipt still there */
    { "6.8.0-rc1", 9, 19, 5 }, /* ipt retired (ba24ea129126) */
    { "6.9.0", 9, 19, 5 },
  };

  for (guint k = 0; k < G_N_ELEMENTS (cases); k++) {
    SchedRig rig;

    /* v6.2+ has the merged wrapper without any patch */
    rig_init (&rig, cases[k].version, NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
    ck_assert (tc_wrapper_compiled (rig.tc));
    ck_assert_uint_eq (tc_wrapper_cls_len (rig.tc), cases[k].cls);
    ck_assert_uint_eq (tc_wrapper_act_len (rig.tc), cases[k].act);
    ck_assert_uint_eq (tc_wrapper_cls_position (rig.tc, tc_classifier_fn ("mall_classify")),
                       cases[k].mall);
    /* which members go, not only how many: rsvp, rsvp6 and tcindex from v6.3, ipt from
     * v6.8-rc1; route4 and simp stay (position 0: not in the chain) */
#define CLS_IN(name) (tc_wrapper_cls_position (rig.tc, tc_classifier_fn (name)) > 0)
#define ACT_IN(name) (tc_wrapper_act_position (rig.tc, tc_action_fn (name)) > 0)
    ck_assert_int_eq (CLS_IN ("rsvp_classify"), k < 1);
    ck_assert_int_eq (CLS_IN ("rsvp6_classify"), k < 1);
    ck_assert_int_eq (CLS_IN ("tcindex_classify"), k < 1);
    ck_assert (CLS_IN ("route4_classify"));
    ck_assert_int_eq (ACT_IN ("tcf_ipt_act"), k < 3);
    ck_assert (ACT_IN ("tcf_simp_act"));
#undef CLS_IN
#undef ACT_IN
    rig_clear (&rig);
  }
}
END_TEST

START_TEST (test_rfc_chain_is_alphabetical)
{
  SchedRig rig;

  rig_init (&rig, "6.1.0", rfc, NULL, NS_SPECTRE_V2_RETPOLINE);
  ck_assert_uint_eq (tc_wrapper_cls_len (rig.tc), 12);
  ck_assert_uint_eq (tc_wrapper_act_len (rig.tc), 20);
  ck_assert_uint_eq (tc_wrapper_cls_position (rig.tc, tc_classifier_fn ("basic_classify")), 1);
  ck_assert_uint_eq (tc_wrapper_cls_position (rig.tc, tc_classifier_fn ("mall_classify")), 7);
  ck_assert_uint_eq (tc_wrapper_cls_position (rig.tc, tc_classifier_fn ("u32_classify")), 12);
  ck_assert_uint_eq (tc_wrapper_act_position (rig.tc, tc_action_fn ("tcf_bpf_act")), 1);
  ck_assert_uint_eq (tc_wrapper_act_position (rig.tc, tc_action_fn ("tcf_gact_act")), 6);
  ck_assert_uint_eq (tc_wrapper_act_position (rig.tc, tc_action_fn ("tcf_vlan_act")), 20);
  rig_clear (&rig);
}
END_TEST

START_TEST (test_modules_are_not_in_the_chain)
{
  static const char *const config[] = { "CONFIG_NET_CLS_BPF", "m", "CONFIG_NET_CLS_U32", "n",
                                        "CONFIG_NET_CLS_MATCHALL", "m", NULL };
  SchedRig rig;

  rig_init (&rig, "6.1.0", merged, config, NS_SPECTRE_V2_RETPOLINE);
  ck_assert_uint_eq (tc_wrapper_cls_len (rig.tc), 9);
  ck_assert_uint_eq (tc_wrapper_cls_position (rig.tc, tc_classifier_fn ("mall_classify")), 0);
  ck_assert_uint_eq (tc_wrapper_cls_position (rig.tc, tc_classifier_fn ("fl_classify")), 1);
  ck_assert (tc_classify_thunked (rig.tc, tc_classifier_fn ("mall_classify")));
  ck_assert (!tc_act_thunked (rig.tc, tc_action_fn ("tcf_gact_act")));
  rig_clear (&rig);
}
END_TEST

START_TEST (test_what_if_positions)
{
  static const char *const first[] = { "tc-retpoline-wrappers", "tc-wrapper-cls-first", NULL };
  static const char *const last[] = { "tc-retpoline-wrappers", "tc-wrapper-cls-last", NULL };
  SchedRig rig;

  rig_init (&rig, "6.1.0", first, NULL, NS_SPECTRE_V2_RETPOLINE);
  ck_assert_uint_eq (tc_wrapper_cls_position (rig.tc, tc_classifier_fn ("mall_classify")), 1);
  ck_assert_uint_eq (tc_wrapper_cls_position (rig.tc, tc_classifier_fn ("cls_bpf_classify")), 2);
  rig_clear (&rig);
  rig_init (&rig, "6.1.0", last, NULL, NS_SPECTRE_V2_RETPOLINE);
  ck_assert_uint_eq (tc_wrapper_cls_position (rig.tc, tc_classifier_fn ("mall_classify")), 12);
  ck_assert_uint_eq (tc_wrapper_cls_position (rig.tc, tc_classifier_fn ("basic_classify")), 5);
  rig_clear (&rig);
}
END_TEST

/* ---- the static key ---- */

START_TEST (test_static_key_per_mitigation)
{
  static const struct { NsSpectreV2 mode; gboolean skipped; } cases[] = {
    { NS_SPECTRE_V2_RETPOLINE, FALSE }, { NS_SPECTRE_V2_LFENCE, FALSE },
    { NS_SPECTRE_V2_EIBRS, TRUE }, { NS_SPECTRE_V2_IBRS, TRUE }, { NS_SPECTRE_V2_OFF, TRUE },
    /* tc_wrapper_init() tests X86_FEATURE_RETPOLINE alone, which the eIBRS modes with
     * thunks set too */
    { NS_SPECTRE_V2_EIBRS_RETPOLINE, FALSE }, { NS_SPECTRE_V2_EIBRS_LFENCE, FALSE },
  };

  for (guint k = 0; k < G_N_ELEMENTS (cases); k++) {
    SchedRig rig;

    rig_init (&rig, "6.1.0", merged, NULL, cases[k].mode);
    ck_assert (tc_wrapper_compiled (rig.tc));
    ck_assert_int_eq (tc_wrapper_skipped (rig.tc), cases[k].skipped);
    /* the key on, every call is a plain indirect one, and no thunk prices it */
    if (cases[k].skipped) {
      ck_assert (!tc_classify_thunked (rig.tc, tc_classifier_fn ("mall_classify")));
      ck_assert (!tc_act_thunked (rig.tc, tc_action_fn ("tcf_gact_act")));
    }
    rig_clear (&rig);
    /* the RFC has no key: its wrapper runs whatever the CPU does ("forced on") */
    rig_init (&rig, "6.1.0", rfc, NULL, cases[k].mode);
    ck_assert (tc_wrapper_compiled (rig.tc));
    ck_assert (!tc_wrapper_skipped (rig.tc));
    rig_clear (&rig);
  }
}
END_TEST

START_TEST (test_wrapper_needs_retpoline_build_and_opt_in)
{
  static const char *const no_retpoline[] = { "CONFIG_RETPOLINE", "n", NULL };
  static const char *const no_opt_in[] = { "CONFIG_NET_TC_INDIRECT_WRAPPER", "n", NULL };
  static const char *const no_mitigation_retpoline[] = { "CONFIG_MITIGATION_RETPOLINE", "n",
                                                         NULL };
  SchedRig rig;

  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  ck_assert (!tc_wrapper_compiled (rig.tc));         /* v6.1 without the series */
  rig_clear (&rig);
  rig_init (&rig, "6.1.176", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  ck_assert (!tc_wrapper_compiled (rig.tc));         /* no stable took the series */
  rig_clear (&rig);
  rig_init (&rig, "6.2.0-rc1", NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  ck_assert (tc_wrapper_compiled (rig.tc));          /* 7f0e810220e2, the merge window */
  rig_clear (&rig);
  rig_init (&rig, "6.1.0", merged, no_retpoline, NS_SPECTRE_V2_RETPOLINE);
  ck_assert (!tc_wrapper_compiled (rig.tc));
  rig_clear (&rig);
  rig_init (&rig, "6.1.0", rfc, no_opt_in, NS_SPECTRE_V2_RETPOLINE);
  ck_assert (!tc_wrapper_compiled (rig.tc));
  rig_clear (&rig);
  /* the option's name is the version's: CONFIG_MITIGATION_RETPOLINE from v6.9 only */
  rig_init (&rig, "6.1.0", merged, no_mitigation_retpoline, NS_SPECTRE_V2_RETPOLINE);
  ck_assert (tc_wrapper_compiled (rig.tc));
  rig_clear (&rig);
  rig_init (&rig, "6.9.0", NULL, no_mitigation_retpoline, NS_SPECTRE_V2_RETPOLINE);
  ck_assert (!tc_wrapper_compiled (rig.tc));
  rig_clear (&rig);
  rig_init (&rig, "6.9.0", NULL, no_retpoline, NS_SPECTRE_V2_RETPOLINE);
  ck_assert (tc_wrapper_compiled (rig.tc));
  rig_clear (&rig);
}
END_TEST

/* ---- calls through the wrapper ---- */

typedef struct {
  SchedRig          *rig;
  struct tcf_proto  *tp;
  struct sk_buff    *skb;
  struct tcf_result *res;
} OneFilter;

static void
classify_once (NsThread *t, gpointer data)
{
  OneFilter *f = data;

  tcf_classify (t, f->rig->tc, f->skb, NULL, f->tp, f->res, FALSE);
}

/* One matchall + gact pass, classified once; returns compares, direct and indirect calls
 * and the INDIRECT cycles charged to tcf_classify and tcf_action_exec. */
static void
one_classify (SchedRig *rig, guint64 *compares, guint64 *direct, guint64 *indirect,
              double *indirect_cycles)
{
  struct tcf_chain *chain = tcf_chain_create (rig->tc, 0);
  struct tc_action *a = tcf_gact_create (rig->tc, TC_ACT_OK, NULL);
  OneFilter f = { rig, NULL, rig_skb (rig), NULL };

  f.tp = tcf_chain_tp_insert (rig->tc, chain, &cls_mall_ops, TC_ETH_P_ALL, 1, NULL);
  mall_change (rig->tc, f.tp, 1, 0, &a, 1);
  f.res = ns_arena_alloc (ns_machine_arena (rig->machine), 64, 64);
  rig_run (rig, classify_once, &f);
  tc_wrapper_counts (rig->tc, direct, indirect, compares);
  *indirect_cycles = ns_machine_account_cycles (rig->machine, ns_func_lookup ("__tcf_classify"),
                                                NS_CAUSE_INDIRECT)
                   + ns_machine_account_cycles (rig->machine,
                                                ns_func_lookup ("tcf_action_exec"),
                                                NS_CAUSE_INDIRECT);
}

START_TEST (test_compares_to_reach_matchall_and_gact)
{
  static const char *const bpf_module[] = { "CONFIG_NET_CLS_BPF", "m", NULL };
  static const char *const both_modules[] = { "CONFIG_NET_CLS_MATCHALL", "m",
                                              "CONFIG_NET_ACT_GACT", "m", NULL };
  static const struct {
    const char *const *patches, *const *config;
    guint64 compares, direct, indirect;
  } cases[] = {
    { merged, NULL, 5 + 1, 2, 0 },        /* 4 failed compares for matchall, 0 for gact */
    { merged, bpf_module, 4 + 1, 2, 0 },  /* each module removes one compare (T3.5) */
    { rfc, NULL, 7 + 6, 2, 0 },           /* alphabetical: 6 + 5 failed */
    { merged, both_modules, 11 + 19, 0, 2 },   /* every compare fails, then indirect */
    { NULL, NULL, 0, 0, 2 },              /* no wrapper */
  };

  for (guint k = 0; k < G_N_ELEMENTS (cases); k++) {
    SchedRig rig;
    guint64 compares, direct, indirect;
    double icycles;

    rig_init (&rig, "6.1.0", cases[k].patches, cases[k].config, NS_SPECTRE_V2_RETPOLINE);
    one_classify (&rig, &compares, &direct, &indirect, &icycles);
    ck_assert_uint_eq (compares, cases[k].compares);
    ck_assert_uint_eq (direct, cases[k].direct);
    ck_assert_uint_eq (indirect, cases[k].indirect);
    /* each indirect call pays the retpoline; a direct call pays none */
    ck_assert_double_eq_tol (icycles,
                             cases[k].indirect * ns_machine_icall_penalty_cycles (rig.machine),
                             1e-9);
    rig_clear (&rig);
  }
}
END_TEST

START_TEST (test_key_on_means_indirect_without_compares)
{
  SchedRig rig;
  guint64 compares, direct, indirect;
  double icycles;

  rig_init (&rig, "6.1.0", merged, NULL, NS_SPECTRE_V2_EIBRS);
  one_classify (&rig, &compares, &direct, &indirect, &icycles);
  ck_assert_uint_eq (compares, 0);
  ck_assert_uint_eq (direct, 0);
  ck_assert_uint_eq (indirect, 2);
  ck_assert_double_eq_tol (icycles, 2 * ns_machine_icall_penalty_cycles (rig.machine), 1e-9);
  rig_clear (&rig);
  /* the RFC on the same CPU: the chain runs and the calls are direct */
  rig_init (&rig, "6.1.0", rfc, NULL, NS_SPECTRE_V2_EIBRS);
  one_classify (&rig, &compares, &direct, &indirect, &icycles);
  ck_assert_uint_eq (compares, 13);
  ck_assert_uint_eq (direct, 2);
  ck_assert_double_eq_tol (icycles, 0.0, 1e-9);
  rig_clear (&rig);
}
END_TEST

/* Instruction cycles in the inlined body of a wrapper function ("tc_classify", "tc_act"). */
static double
wrapper_body_insn (SchedRig *rig, const char *name)
{
  NsFunc *f = ns_func_lookup (name);

  return f ? ns_machine_account_inline_cycles (rig->machine, f, NS_CAUSE_INSN) : 0.0;
}

START_TEST (test_compare_chain_cost_is_the_wrappers_body)
{
  SchedRig rig;
  guint64 compares, direct, indirect;
  double icycles, width;

  /* the RFC on an eIBRS CPU: 7 + 6 compare-and-branch pairs, each one fused macro-op at
   * the issue width, and nothing else of the wrapper's code costs instructions */
  rig_init (&rig, "6.1.0", rfc, NULL, NS_SPECTRE_V2_EIBRS);
  width = ns_params_get_double (ns_machine_params (rig.machine), "cpu.issue_width");
  one_classify (&rig, &compares, &direct, &indirect, &icycles);
  ck_assert_uint_eq (compares, 13);
  ck_assert_double_eq_tol (wrapper_body_insn (&rig, "tc_classify"), 7 / width, 1e-9);
  ck_assert_double_eq_tol (wrapper_body_insn (&rig, "tc_act"), 6 / width, 1e-9);
  rig_clear (&rig);
  /* without the series there is no wrapper function and so no body */
  rig_init (&rig, "6.1.0", NULL, NULL, NS_SPECTRE_V2_EIBRS);
  one_classify (&rig, &compares, &direct, &indirect, &icycles);
  ck_assert_double_eq_tol (wrapper_body_insn (&rig, "tc_classify"), 0.0, 1e-12);
  ck_assert_double_eq_tol (wrapper_body_insn (&rig, "tc_act"), 0.0, 1e-12);
  rig_clear (&rig);
}
END_TEST

/* A build of another release than the v6.1 the tc code is says so in a note (which
 * registered changes it differs in, or none); a v6.1.0 build has no such note. */
START_TEST (test_release_note)
{
  static const struct { const char *version, *note; } cases[] = {
    { "6.1.0", NULL },
    { "6.0.0", "kernel 6.0.0: tc and pktgen run v6.1's code but for the registered changes "
               "(netsim list changes); against it this release differs in none of them; "
               "unregistered changes are not modelled" },
    { "6.6.0", "kernel 6.6.0: tc and pktgen run v6.1's code" },
  };

  for (guint k = 0; k < G_N_ELEMENTS (cases); k++) {
    SchedRig rig;

    rig_init (&rig, cases[k].version, NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
    assert_build_note (rig.build, "tc and pktgen run", cases[k].note);
    rig_clear (&rig);
  }
}
END_TEST

static Suite *
tc_wrapper_suite (void)
{
  Suite *s = suite_create ("tc_wrapper");
  TCase *tc = tcase_create ("wrapper");

  tcase_add_test (tc, test_slab_freelist_random);
  tcase_add_test (tc, test_slab_layout_follows_the_seed);
  tcase_add_test (tc, test_kmalloc_slabs_of_calculate_order);
  tcase_add_test (tc, test_kmalloc_96_and_192_keep_their_size);
  tcase_add_test (tc, test_kmalloc_caches_shuffle_apart);
  tcase_add_test (tc, test_kzalloc_first_and_last_classes);
  tcase_add_test (tc, test_slab_random_sequence_per_cache);
  tcase_add_test (tc, test_percpu_chunks);
  tcase_add_test (tc, test_percpu_chunk_fills_exactly);
  tcase_add_test (tc, test_release_note);
  tcase_add_test (tc, test_merged_chain_order);
  tcase_add_test (tc, test_chain_length_by_version);
  tcase_add_test (tc, test_chain_members_by_stable_release);
  tcase_add_test (tc, test_rfc_chain_is_alphabetical);
  tcase_add_test (tc, test_modules_are_not_in_the_chain);
  tcase_add_test (tc, test_what_if_positions);
  tcase_add_test (tc, test_static_key_per_mitigation);
  tcase_add_test (tc, test_wrapper_needs_retpoline_build_and_opt_in);
  tcase_add_test (tc, test_compares_to_reach_matchall_and_gact);
  tcase_add_test (tc, test_key_on_means_indirect_without_compares);
  tcase_add_test (tc, test_compare_chain_cost_is_the_wrappers_body);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (tc_wrapper_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
