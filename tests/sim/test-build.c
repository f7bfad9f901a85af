/* test-build.c — the function registry and the inlining rules of a kernel build. */
#include "config.h"
#include <check.h>
#include <string.h>
#include "build.h"
#include "mitigation.h"

#define LIMIT 60
#define TEXT_BASE G_GUINT64_CONSTANT (0xffffffff81000000)

/* Asserts the decision for func in build and its reason text. */
static void
assert_decision (NsBuild *build, NsFunc *func, gboolean inlined, const char *reason)
{
  const char *got = NULL;

  ck_assert_int_eq (ns_build_inlines (build, func, &got), inlined);
  ck_assert_ptr_nonnull (got);
  ck_assert_str_eq (got, reason);
}

START_TEST (test_rule_noinline)
{
  static NS_FUNC (fn, "rule_noinline", 20, NS_FRAME_UNKNOWN, NS_FN_STATIC | NS_FN_NOINLINE, 1);
  static NS_FUNC (both, "rule_noinline_always", 20, NS_FRAME_UNKNOWN, NS_FN_NOINLINE | NS_FN_ALWAYS_INLINE, 1);
  NsBuild *build = ns_build_new ("6.9.0", LIMIT);

  /* noinline beats the single call site and the small size. */
  assert_decision (build, &fn, FALSE, "noinline attribute");
  /* first match wins: noinline is checked before __always_inline */
  assert_decision (build, &both, FALSE, "noinline attribute");
  ns_build_free (build);
}
END_TEST

START_TEST (test_rule_always_inline)
{
  static NS_FUNC (fn, "rule_always", 4000, NS_FRAME_UNKNOWN, NS_FN_ALWAYS_INLINE, 7);
  static NS_FUNC (indirect, "rule_always_indirect", 4000, NS_FRAME_UNKNOWN, NS_FN_ALWAYS_INLINE | NS_FN_INDIRECT, 7);
  NsBuild *build = ns_build_new ("6.9.0", LIMIT);

  assert_decision (build, &fn, TRUE, "__always_inline");
  assert_decision (build, &indirect, TRUE, "__always_inline");
  ns_build_free (build);
}
END_TEST

START_TEST (test_rule_indirect)
{
  static NS_FUNC (fn, "rule_indirect", 16, NS_FRAME_UNKNOWN, NS_FN_STATIC | NS_FN_INLINE | NS_FN_INDIRECT, 1);
  NsBuild *build = ns_build_new ("6.9.0", LIMIT);

  assert_decision (build, &fn, FALSE, "reached indirectly");
  ns_build_free (build);
}
END_TEST

START_TEST (test_rule_extern)
{
  static NS_FUNC (plain, "rule_extern", 8, NS_FRAME_UNKNOWN, NS_FN_EXTERN, 1);
  static NS_FUNC (header_small, "rule_header_small", 48, NS_FRAME_UNKNOWN, NS_FN_INLINE, 5);
  static NS_FUNC (header_big, "rule_header_big", 100, NS_FRAME_UNKNOWN, NS_FN_INLINE, 1);
  NsBuild *build = ns_build_new ("6.9.0", LIMIT);

  /* even tiny, even one call site: no LTO, so no inlining across units */
  assert_decision (build, &plain, FALSE, "extern: called across translation units (no LTO)");
  assert_decision (build, &header_small, TRUE, "header inline, 48 B ≤ 60 B limit");
  /* a header inline function is not "static with one call site" */
  assert_decision (build, &header_big, FALSE, "header inline, 100 B > 60 B inline limit");
  ns_build_free (build);
}
END_TEST

START_TEST (test_rule_static_one_site)
{
  static NS_FUNC (fn, "rule_static_one", 5000, NS_FRAME_UNKNOWN, NS_FN_STATIC, 1);
  NsBuild *build = ns_build_new ("6.9.0", LIMIT);

  assert_decision (build, &fn, TRUE, "static, 1 call site: folded into its caller");
  ns_build_free (build);
}
END_TEST

START_TEST (test_rule_static_size)
{
  static NS_FUNC (small_inline, "rule_static_inline_small", 48, NS_FRAME_UNKNOWN, NS_FN_STATIC | NS_FN_INLINE, 3);
  static NS_FUNC (small, "rule_static_small", 60, NS_FRAME_UNKNOWN, NS_FN_STATIC, 2);
  static NS_FUNC (just_over, "rule_static_61", 61, NS_FRAME_UNKNOWN, NS_FN_STATIC, 2);
  static NS_FUNC (big, "rule_static_big", 304, NS_FRAME_UNKNOWN, NS_FN_STATIC, 2);
  static NS_FUNC (big_inline, "rule_static_inline_big", 200, NS_FRAME_UNKNOWN, NS_FN_STATIC | NS_FN_INLINE, 4);
  static NS_FUNC (unused, "rule_static_unused", 304, NS_FRAME_UNKNOWN, NS_FN_STATIC, 0);
  NsBuild *build = ns_build_new ("6.9.0", LIMIT);

  assert_decision (build, &small_inline, TRUE, "static inline, 48 B ≤ 60 B limit");
  assert_decision (build, &small, TRUE, "static, 60 B ≤ 60 B limit");
  assert_decision (build, &just_over, FALSE, "static, 2 call sites, 61 B > 60 B inline limit");
  assert_decision (build, &big, FALSE, "static, 2 call sites, 304 B > 60 B inline limit");
  assert_decision (build, &big_inline, FALSE,
                   "static inline, 4 call sites, 200 B > 60 B inline limit");
  assert_decision (build, &unused, FALSE, "static, 0 call sites, 304 B > 60 B inline limit");
  ns_build_free (build);
}
END_TEST

START_TEST (test_inline_limit_per_build)
{
  static NS_FUNC (fn, "limit_fn", 100, NS_FRAME_UNKNOWN, NS_FN_STATIC, 3);
  NsBuild *tight = ns_build_new ("6.9.0", LIMIT);
  NsBuild *loose = ns_build_new ("6.9.0", 128);

  ck_assert_uint_eq (ns_build_inline_limit (tight), LIMIT);
  ck_assert_uint_eq (ns_build_inline_limit (loose), 128);
  assert_decision (tight, &fn, FALSE, "static, 3 call sites, 100 B > 60 B inline limit");
  assert_decision (loose, &fn, TRUE, "static, 100 B ≤ 128 B limit");
  ns_build_free (tight);
  ns_build_free (loose);
}
END_TEST

START_TEST (test_call_site_override_flips)
{
  static NS_FUNC (score, "compute_score", 304, NS_FRAME_UNKNOWN, NS_FN_STATIC, 1);
  NsBuild *build = ns_build_new ("6.9.0", LIMIT);
  NsBuild *other = ns_build_new ("6.9.0", LIMIT);

  ck_assert_uint_eq (ns_build_call_sites (build, &score), 1);
  assert_decision (build, &score, TRUE, "static, 1 call site: folded into its caller");

  /* a patch adds a second call site: too big to inline twice */
  ns_build_set_call_sites (build, "compute_score", 2);
  ck_assert_uint_eq (ns_build_call_sites (build, &score), 2);
  assert_decision (build, &score, FALSE, "static, 2 call sites, 304 B > 60 B inline limit");

  /* and back to one */
  ns_build_set_call_sites (build, "compute_score", 1);
  assert_decision (build, &score, TRUE, "static, 1 call site: folded into its caller");

  /* overrides are per build; the descriptor itself is untouched */
  ns_build_set_call_sites (build, "compute_score", 2);
  assert_decision (other, &score, TRUE, "static, 1 call site: folded into its caller");
  ck_assert_uint_eq (score.call_sites, 1);

  /* an override to 0 is an override, not "unset" */
  ns_build_set_call_sites (other, "compute_score", 0);
  ck_assert_uint_eq (ns_build_call_sites (other, &score), 0);
  assert_decision (other, &score, FALSE, "static, 0 call sites, 304 B > 60 B inline limit");
  ns_build_free (build);
  ns_build_free (other);
}
END_TEST

START_TEST (test_decisions_cached)
{
  static NS_FUNC (fn, "cached_fn", 304, NS_FRAME_UNKNOWN, NS_FN_STATIC, 2);
  NsBuild *build = ns_build_new ("6.9.0", LIMIT);
  const char *first = NULL, *second = NULL;

  ns_build_inlines (build, &fn, &first);
  /* the descriptor changing after the decision does not change the cached answer */
  fn.call_sites = 1;
  ck_assert (!ns_build_inlines (build, &fn, &second));
  ck_assert_ptr_eq (first, second);
  ck_assert (ns_build_inlines (build, &fn, NULL) == FALSE);
  ns_build_free (build);
}
END_TEST

START_TEST (test_patches)
{
  NsBuild *build = ns_build_new ("6.9.0-rc1", LIMIT);
  char **patches;

  ck_assert_str_eq (ns_build_version (build), "6.9.0-rc1");
  ck_assert (!ns_build_has_patch (build, "udp-rescore-once"));
  ns_build_apply_patch (build, "udp-rescore-once");
  ns_build_apply_patch (build, "tc-wrapper");
  ns_build_apply_patch (build, "udp-rescore-once");
  ck_assert (ns_build_has_patch (build, "udp-rescore-once"));
  ck_assert (ns_build_has_patch (build, "tc-wrapper"));
  ck_assert (!ns_build_has_patch (build, "tc"));

  patches = ns_build_dup_patches (build);
  ck_assert_uint_eq (g_strv_length (patches), 2);
  ck_assert_str_eq (patches[0], "tc-wrapper");
  ck_assert_str_eq (patches[1], "udp-rescore-once");
  g_strfreev (patches);
  ns_build_free (build);
}
END_TEST

/* Appends "key=value;" to a GString. */
static void
append_config (const char *key, const char *value, gpointer data)
{
  g_string_append_printf (data, "%s=%s;", key, value);
}

START_TEST (test_config)
{
  NsBuild *build = ns_build_new ("6.9.0", LIMIT);
  GString *all = g_string_new (NULL);

  ck_assert_ptr_null (ns_build_get_config (build, "CONFIG_RETPOLINE"));
  ns_build_set_config (build, "CONFIG_RETPOLINE", "y");
  ns_build_set_config (build, "CONFIG_NET_CLS_ACT", "m");
  ck_assert_str_eq (ns_build_get_config (build, "CONFIG_RETPOLINE"), "y");
  ns_build_set_config (build, "CONFIG_RETPOLINE", "n");
  ck_assert_str_eq (ns_build_get_config (build, "CONFIG_RETPOLINE"), "n");

  ns_build_foreach_config (build, append_config, all);
  ck_assert_str_eq (all->str, "CONFIG_NET_CLS_ACT=m;CONFIG_RETPOLINE=n;");
  g_string_free (all, TRUE);
  ns_build_free (build);
}
END_TEST

/* The options asked for are recorded, stated or not, each once and sorted, and an option
 * set but never asked for is not among them (netsim run's "changed nothing" note). */
START_TEST (test_config_read)
{
  NsBuild *build = ns_build_new ("6.9.0", LIMIT);
  g_auto (GStrv) none = NULL, some = NULL;

  ns_build_set_config (build, "CONFIG_RETPOLNE", "n");
  ns_build_set_config (build, "CONFIG_NET_CLS_ACT", "y");
  none = ns_build_config_read (build);
  ck_assert_uint_eq (g_strv_length (none), 0);
  ns_build_get_config (build, "CONFIG_RETPOLINE");      /* asked for, not stated */
  ns_build_get_config (build, "CONFIG_NET_CLS_ACT");
  ns_build_get_config (build, "CONFIG_RETPOLINE");
  some = ns_build_config_read (build);
  ck_assert_uint_eq (g_strv_length (some), 2);
  ck_assert_str_eq (some[0], "CONFIG_NET_CLS_ACT");
  ck_assert_str_eq (some[1], "CONFIG_RETPOLINE");
  ns_build_free (build);
}
END_TEST

/* The options in force as the run took them, sorted: a stated option with its state, an
 * unstated one with the state its read took and " (unstated)", the states of reads that
 * disagree on an unstated option's default each once in n, m, y order, a stated
 * string as written, an unstated option read as a string without "=", and nothing for
 * an option stated but never read. */
START_TEST (test_config_in_force)
{
  NsBuild *build = ns_build_new ("6.9.0", LIMIT);
  g_auto (GStrv) none = NULL, lines = NULL;

  ns_build_set_config (build, "CONFIG_NET_CLS_ACT", "y");
  ns_build_set_config (build, "CONFIG_LSM", "apparmor");
  ns_build_set_config (build, "CONFIG_NET_CLS_U32", "m");
  none = ns_build_config_in_force (build);
  ck_assert_uint_eq (g_strv_length (none), 0);
  ck_assert_int_eq (ns_build_config_tristate (build, "CONFIG_NET_CLS_ACT", NS_KCONFIG_N),
                    NS_KCONFIG_Y);
  ns_build_config_tristate (build, "CONFIG_PREEMPT_RCU", NS_KCONFIG_Y);
  ns_build_config_tristate (build, "CONFIG_SLAB_FREELIST_RANDOM", NS_KCONFIG_N);
  ns_build_config_tristate (build, "CONFIG_SLAB_FREELIST_RANDOM", NS_KCONFIG_Y);
  ns_build_config_tristate (build, "CONFIG_SLAB_FREELIST_RANDOM", NS_KCONFIG_N);
  ns_build_get_config (build, "CONFIG_LSM");
  ns_build_get_config (build, "CONFIG_X86_KERNEL_IBT");
  lines = ns_build_config_in_force (build);
  ck_assert_uint_eq (g_strv_length (lines), 5);
  ck_assert_str_eq (lines[0], "CONFIG_LSM=apparmor");
  ck_assert_str_eq (lines[1], "CONFIG_NET_CLS_ACT=y");
  ck_assert_str_eq (lines[2], "CONFIG_PREEMPT_RCU=y (unstated)");
  ck_assert_str_eq (lines[3], "CONFIG_SLAB_FREELIST_RANDOM=n|y (unstated)");
  ck_assert_str_eq (lines[4], "CONFIG_X86_KERNEL_IBT (unstated)");
  /* and each line splits back into key, value and whether it is stated */
  {
    static const struct { const char *key, *value; gboolean stated; } want[] = {
      { "CONFIG_LSM", "apparmor", TRUE }, { "CONFIG_NET_CLS_ACT", "y", TRUE },
      { "CONFIG_PREEMPT_RCU", "y", FALSE }, { "CONFIG_SLAB_FREELIST_RANDOM", "n|y", FALSE },
      { "CONFIG_X86_KERNEL_IBT", NULL, FALSE },
    };

    for (guint i = 0; i < G_N_ELEMENTS (want); i++) {
      g_autofree char *value = NULL;
      gboolean stated;
      g_autofree char *key = ns_build_config_line_split (lines[i], &value, &stated);

      ck_assert_str_eq (key, want[i].key);
      ck_assert_pstr_eq (value, want[i].value);
      ck_assert_int_eq (stated, want[i].stated);
    }
  }
  ns_build_free (build);
}
END_TEST

/* The mitigation code a build compiles in: its arch/x86/Kconfig options under the names
 * of its version (CONFIG_CPU_SRSO before 6.9, CONFIG_MITIGATION_SRSO from it; the other
 * era's name is no option of the version and is not read), each on unless n, closed
 * under "depends on" (RETPOLINE=n takes RETHUNK and all that needs it, the mitigations
 * menu =n takes everything); all are bools. */
START_TEST (test_mitigations_built)
{
  NsBuild *b69 = ns_build_new ("6.9.0", LIMIT), *b68 = ns_build_new ("6.8.0", LIMIT);
  g_auto (GStrv) read = NULL;

  ck_assert_uint_eq (ns_build_mitigations_built (b69), NS_BUILT_ALL);
  ns_build_set_config (b69, "CONFIG_CPU_SRSO", "n");
  ns_build_set_config (b69, "CONFIG_MITIGATION_IBRS_ENTRY", "n");
  ck_assert_uint_eq (ns_build_mitigations_built (b69), NS_BUILT_ALL & ~NS_BUILT_IBRS_ENTRY);
  read = ns_build_config_read (b69);
  ck_assert (!g_strv_contains ((const char *const *) read, "CONFIG_CPU_SRSO"));
  ck_assert (g_strv_contains ((const char *const *) read, "CONFIG_MITIGATION_SRSO"));
  ns_build_set_config (b68, "CONFIG_CPU_SRSO", "n");
  ck_assert_uint_eq (ns_build_mitigations_built (b68), NS_BUILT_ALL & ~NS_BUILT_SRSO);
  ns_build_set_config (b68, "CONFIG_RETPOLINE", "n");
  ck_assert_uint_eq (ns_build_mitigations_built (b68),
                     NS_BUILT_IBPB_ENTRY | NS_BUILT_IBRS_ENTRY | NS_BUILT_CPU_MITIGATIONS |
                     NS_BUILT_PAGE_TABLE_ISOLATION | NS_BUILT_SPECTRE_BHI);
  /* the menu holding them all, under 6.8's name, and the BHI default */
  ns_build_set_config (b68, "CONFIG_SPECULATION_MITIGATIONS", "n");
  ck_assert_uint_eq (ns_build_mitigations_built (b68), 0);
  ns_build_set_config (b69, "CONFIG_MITIGATION_SPECTRE_BHI", "n");
  ck_assert_uint_eq (ns_build_mitigations_built (b69),
                     NS_BUILT_ALL & ~NS_BUILT_IBRS_ENTRY & ~NS_BUILT_SPECTRE_BHI);
  ck_assert (ns_build_config_is_bool ("CONFIG_CPU_MITIGATIONS"));
  ck_assert (ns_build_config_is_bool ("CONFIG_PAGE_TABLE_ISOLATION"));
  ck_assert_str_eq (ns_build_retpoline_option (b68), "CONFIG_RETPOLINE");
  ck_assert_str_eq (ns_build_retpoline_option (b69), "CONFIG_MITIGATION_RETPOLINE");
  ck_assert (ns_build_config_is_bool ("CONFIG_CPU_UNRET_ENTRY"));
  ck_assert (ns_build_config_is_bool ("CONFIG_MITIGATION_CALL_DEPTH_TRACKING"));
  ck_assert (ns_build_config_is_bool ("CONFIG_RETPOLINE"));
  ck_assert (!ns_build_config_is_bool ("CONFIG_NET_CLS_MATCHALL"));
  ns_build_free (b69);
  ns_build_free (b68);
}
END_TEST

/* Kconfig (Documentation/kbuild/kconfig-language.rst): a bool option takes y or n, a
 * tristate y, m or n, nothing else; an unstated option reads as the caller's default. A
 * value spelled otherwise (N, " n", no, 0) is not n: it reads as the default and is kept,
 * sorted, for the run to refuse; a good value is never kept. */
START_TEST (test_config_tristate)
{
  static const char *const bad[] = { "N", " n", "no", "0", "Y", "yes", "" };
  NsBuild *build = ns_build_new ("6.9.0", LIMIT);
  g_auto (GStrv) none = NULL, kept = NULL;

  ck_assert_int_eq (ns_build_config_tristate (build, "CONFIG_A", NS_KCONFIG_Y), NS_KCONFIG_Y);
  ck_assert_int_eq (ns_build_config_tristate (build, "CONFIG_A", NS_KCONFIG_N), NS_KCONFIG_N);
  ns_build_set_config (build, "CONFIG_A", "y");
  ns_build_set_config (build, "CONFIG_B", "m");
  ns_build_set_config (build, "CONFIG_C", "n");
  ck_assert_int_eq (ns_build_config_tristate (build, "CONFIG_A", NS_KCONFIG_N), NS_KCONFIG_Y);
  ck_assert_int_eq (ns_build_config_tristate (build, "CONFIG_B", NS_KCONFIG_N), NS_KCONFIG_M);
  ck_assert_int_eq (ns_build_config_tristate (build, "CONFIG_C", NS_KCONFIG_Y), NS_KCONFIG_N);
  none = ns_build_config_bad (build);
  ck_assert_uint_eq (g_strv_length (none), 0);
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
    ns_build_set_config (build, "CONFIG_Z", bad[i]);
    ck_assert_msg (ns_build_config_tristate (build, "CONFIG_Z", NS_KCONFIG_Y) == NS_KCONFIG_Y,
                   "'%s'", bad[i]);
    ck_assert_msg (ns_build_config_tristate (build, "CONFIG_Z", NS_KCONFIG_N) == NS_KCONFIG_N,
                   "'%s'", bad[i]);
  }
  ns_build_set_config (build, "CONFIG_D", "N");
  ns_build_config_tristate (build, "CONFIG_D", NS_KCONFIG_Y);
  kept = ns_build_config_bad (build);
  ck_assert_uint_eq (g_strv_length (kept), 2);
  ck_assert_str_eq (kept[0], "CONFIG_D");
  ck_assert_str_eq (kept[1], "CONFIG_Z");
  ns_build_free (build);
}
END_TEST

/* Counts the messages logged while it is installed. */
static void
count_log (const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data)
{
  (*(guint *) data)++;
}

START_TEST (test_registry_layout)
{
  static NS_FUNC (a, "layout_a", 304, NS_FRAME_UNKNOWN, NS_FN_STATIC, 1);
  static NS_FUNC (b, "layout_b", 64, NS_FRAME_UNKNOWN, NS_FN_STATIC, 1);
  static NS_FUNC (c, "layout_c", 1, NS_FRAME_UNKNOWN, NS_FN_STATIC, 1);
  static NS_FUNC (d, "layout_d", 0, NS_FRAME_UNKNOWN, NS_FN_STATIC, 1);
  static NS_FUNC (e, "layout_e", 65, NS_FRAME_UNKNOWN, NS_FN_STATIC, 1);
  guint before = ns_func_count ();

  ck_assert_uint_eq (a.id, 0);
  ns_func_register (&a);
  ns_func_register (&b);
  ns_func_register (&c);
  ns_func_register (&d);
  ns_func_register (&e);
  ns_func_register (&a);   /* idempotent: no new id, no new text */

  ck_assert_uint_eq (ns_func_count (), before + 5);
  ck_assert_uint_eq (a.id, before + 1);
  ck_assert_uint_eq (b.id, before + 2);
  ck_assert_uint_eq (e.id, before + 5);
  /* text addresses: 64-aligned, inside the text region, a function of the name only */
  ck_assert_uint_eq (a.text_addr % 64, 0);
  ck_assert_uint_eq (e.text_addr % 64, 0);
  ck_assert_uint_ge (a.text_addr, TEXT_BASE);
  ck_assert_uint_lt (a.text_addr, TEXT_BASE + (16u << 20));
  ck_assert_uint_ne (a.text_addr, b.text_addr);
  {
    /* a second function of the same name, registered later, gets the same address, and a
     * warning (two models declaring one kernel function is a mistake) */
    static NS_FUNC (a2, "layout_a", 304, NS_FRAME_UNKNOWN, NS_FN_STATIC, 1);
    GLogLevelFlags fatal = g_log_set_always_fatal (G_LOG_FATAL_MASK);
    guint warnings = 0;
    guint handler = g_log_set_handler (G_LOG_DOMAIN, G_LOG_LEVEL_WARNING, count_log,
                                       &warnings);

    ns_func_register (&a2);
    g_log_remove_handler (G_LOG_DOMAIN, handler);
    g_log_set_always_fatal (fatal);
    ck_assert_uint_eq (warnings, 1);
    ck_assert_uint_eq (a2.text_addr, a.text_addr);
  }

  ck_assert_ptr_eq (ns_func_lookup ("layout_c"), &c);
  ck_assert_ptr_null (ns_func_lookup ("layout_missing"));
  ck_assert_ptr_eq (ns_func_by_id (b.id), &b);
  ck_assert_ptr_null (ns_func_by_id (0));
  ck_assert_ptr_null (ns_func_by_id (ns_func_count () + 1));

  /* ns_build_inlines registers a function it has not seen */
  {
    static NS_FUNC (late, "layout_late", 32, NS_FRAME_UNKNOWN, NS_FN_STATIC, 2);
    NsBuild *build = ns_build_new ("6.9.0", LIMIT);

    ns_build_inlines (build, &late, NULL);
    ck_assert_uint_eq (late.id, before + 7);
    ck_assert_uint_ne (late.text_addr, 0);
    ns_build_free (build);
  }
}
END_TEST

/* Records, in a GString, "id:name:0/1;" for each decision. */
static void
append_decision (NsFunc *func, gboolean inlined, const char *reason, gpointer data)
{
  g_string_append_printf (data, "%u:%s:%d:%s;", func->id, func->name, inlined, reason);
}

START_TEST (test_foreach_decision)
{
  static NS_FUNC (x, "each_x", 304, NS_FRAME_UNKNOWN, NS_FN_STATIC, 2);
  static NS_FUNC (y, "each_y", 16, NS_FRAME_UNKNOWN, NS_FN_EXTERN, 1);
  NsBuild *build = ns_build_new ("6.9.0", LIMIT);
  GString *all = g_string_new (NULL);
  char *tail;
  guint before = ns_func_count ();

  ns_func_register (&y);
  ns_func_register (&x);
  ns_build_foreach_decision (build, append_decision, all);
  tail = g_strdup_printf ("%u:each_y:0:extern: called across translation units (no LTO);"
                          "%u:each_x:0:static, 2 call sites, 304 B > 60 B inline limit;",
                          before + 1, before + 2);
  ck_assert (g_str_has_suffix (all->str, tail));
  g_free (tail);
  g_string_free (all, TRUE);
  ns_build_free (build);
}
END_TEST

/* A build answers for its release; no build has none of the changes. */
START_TEST (test_build_has_change)
{
  NsBuild *b92 = ns_build_new ("6.1.92", 60), *b93 = ns_build_new ("6.1.93", 60);

  ck_assert (!ns_build_has_change (b92, NS_KCHANGE_UDP_SINGLE_SCORE_SITE));
  ck_assert (ns_build_has_change (b93, NS_KCHANGE_UDP_SINGLE_SCORE_SITE));
  ck_assert (!ns_build_has_change (NULL, NS_KCHANGE_UDP_SINGLE_SCORE_SITE));
  ns_build_free (b92);
  ns_build_free (b93);
}
END_TEST

static Suite *
build_suite (void)
{
  Suite *s = suite_create ("build");
  TCase *rules = tcase_create ("rules");
  TCase *build = tcase_create ("build");
  TCase *registry = tcase_create ("registry");

  tcase_add_test (rules, test_rule_noinline);
  tcase_add_test (rules, test_rule_always_inline);
  tcase_add_test (rules, test_rule_indirect);
  tcase_add_test (rules, test_rule_extern);
  tcase_add_test (rules, test_rule_static_one_site);
  tcase_add_test (rules, test_rule_static_size);
  tcase_add_test (rules, test_inline_limit_per_build);
  tcase_add_test (rules, test_call_site_override_flips);
  tcase_add_test (rules, test_decisions_cached);
  suite_add_tcase (s, rules);

  tcase_add_test (build, test_build_has_change);
  tcase_add_test (build, test_patches);
  tcase_add_test (build, test_config);
  tcase_add_test (build, test_config_read);
  tcase_add_test (build, test_config_in_force);
  tcase_add_test (build, test_config_tristate);
  tcase_add_test (build, test_mitigations_built);
  suite_add_tcase (s, build);

  tcase_add_test (registry, test_registry_layout);
  tcase_add_test (registry, test_foreach_decision);
  suite_add_tcase (s, registry);
  return s;
}

int
main (void)
{
  SRunner *runner = srunner_create (build_suite ());
  int failed;

  srunner_run_all (runner, CK_NORMAL);
  failed = srunner_ntests_failed (runner);
  srunner_free (runner);
  return failed == 0 ? 0 : 1;
}
