/* test-profile.c — CPU profiles: every shipped profile is complete and sourced; bad
 * profiles fail with file:line; names resolve through the data directory. */
#include "config.h"
#include <check.h>
#include <string.h>
#include <glib/gstdio.h>
#include "profile.h"
#include "kchange.h"

/* Parameters every shipped profile must set (cpu.ipc must not be: it is fitted). */
static const char *const required_params[] = {
  "cpu.freq_ghz", "cpu.sockets", "cpu.ccx_per_socket", "cpu.cores_per_ccx", "cpu.smt",
  "cache.l1d.size_kib", "cache.l1d.assoc", "cache.l1d.latency_cycles",
  "cache.l1i.size_kib", "cache.l1i.assoc",
  "cache.l2.size_kib", "cache.l2.assoc", "cache.l2.latency_cycles",
  "cache.l3.size_kib", "cache.l3.assoc", "cache.l3.latency_cycles", "cache.l3.inclusive",
  "mem.dram_latency_ns",
  "c2c.smt_ns", "c2c.ccx_ns", "c2c.socket_ns", "c2c.remote_ns",
  "branch.mispredict_cycles", "lock.atomic_cycles",
};

static const char *const shipped[] = {
  "generic", "i5-10210u", "i5-3337u", "ryzen9-5950x", "ryzen9-7950x", "xeon-6985p-c",
  "xeon-gold-6230r", "zen3-epyc-7713",
};

/* ---- helpers ---- */

/* TRUE if text is NULL or only whitespace. */
static gboolean
is_blank (const char *text)
{
  if (text == NULL)
    return TRUE;
  for (; *text; text++)
    if (!g_ascii_isspace (*text))
      return FALSE;
  return TRUE;
}

/* Checks that every parameter profile sets carries its own, non-empty source. */
static void
check_param_sources (const NsCpuProfile *profile)
{
  ck_assert_msg (profile->set_names->len > 0, "%s sets no parameters", profile->path);
  for (guint i = 0; i < profile->set_names->len; i++) {
    const char *name = profile->set_names->pdata[i];
    const NsParamDef *def = ns_param_lookup (name);
    const char *source = ns_params_get_source (profile->params, name);

    ck_assert_msg (def != NULL, "%s: %s is not a registered parameter", profile->path, name);
    ck_assert_msg (!is_blank (source), "%s: parameter %s lacks a source", profile->path, name);
    ck_assert_msg (strcmp (source, def->default_source) != 0,
                   "%s: parameter %s has the registry default text as its source",
                   profile->path, name);
  }
}

/* Checks the required parameters are set (a free one set by hand does not load: see
 * test_free_param_set_by_hand). */
static void
check_required_params (const NsCpuProfile *profile)
{
  for (guint i = 0; i < G_N_ELEMENTS (required_params); i++)
    ck_assert_msg (ns_cpu_profile_sets (profile, required_params[i]), "%s does not set %s",
                   profile->path, required_params[i]);
}

/* TRUE if version lies in def's range. */
static gboolean
range_contains (const NsMitigationDefault *def, const char *version)
{
  return ns_kernel_version_in_range (version, def->kernel_from, def->kernel_to);
}

/* Checks mitigation ranges: each sourced, none overlapping, exactly one for each of 6.1 …
 * 6.9 and the 6.9 release candidates seed 000 ran (rc1) and the BHI default arrived in
 * (rc4). */
static void
check_mitigation_ranges (const NsCpuProfile *profile)
{
  static const char *const versions[] = { "6.1", "6.2", "6.3", "6.4", "6.5", "6.6", "6.7",
                                          "6.8", "6.9", "6.9.0-rc1", "6.9.0-rc4" };
  GArray *defs = profile->mitigation_defaults;

  ck_assert_msg (defs->len > 0, "%s has no <mitigations>", profile->path);
  for (guint i = 0; i < defs->len; i++) {
    const NsMitigationDefault *a = &g_array_index (defs, NsMitigationDefault, i);
    ck_assert_msg (!is_blank (a->source),
                   "%s:%d: <mitigations> lacks a source", profile->path, a->line);
    ck_assert_msg (ns_kernel_ranges_overlap (a->kernel_from, a->kernel_to, a->kernel_from,
                                             a->kernel_to),
                   "%s:%d: reversed kernel range", profile->path, a->line);
    for (guint j = i + 1; j < defs->len; j++) {
      const NsMitigationDefault *b = &g_array_index (defs, NsMitigationDefault, j);
      ck_assert_msg (!ns_kernel_ranges_overlap (a->kernel_from, a->kernel_to, b->kernel_from,
                                                b->kernel_to),
                     "%s: ranges at lines %d and %d overlap", profile->path, a->line, b->line);
    }
  }
  for (guint v = 0; v < G_N_ELEMENTS (versions); v++) {
    guint hits = 0;

    for (guint i = 0; i < defs->len; i++)
      hits += range_contains (&g_array_index (defs, NsMitigationDefault, i), versions[v]);
    ck_assert_msg (hits == 1, "%s: kernel %s matched by %u <mitigations> ranges",
                   profile->path, versions[v], hits);
  }
}

/* Writes contents to dir/file; returns the path (newly allocated). */
static char *
write_file (const char *dir, const char *file, const char *contents)
{
  char *path = g_build_filename (dir, file, NULL);
  GError *error = NULL;

  ck_assert_msg (g_file_set_contents (path, contents, -1, &error), "cannot write %s", path);
  return path;
}

/* Removes dir and the files (and one level of folders) in it. */
static void
remove_tree (const char *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *entry;

  while (d != NULL && (entry = g_dir_read_name (d)) != NULL) {
    char *path = g_build_filename (dir, entry, NULL);
    if (g_file_test (path, G_FILE_TEST_IS_DIR))
      remove_tree (path);
    else
      g_unlink (path);
    g_free (path);
  }
  if (d != NULL)
    g_dir_close (d);
  g_rmdir (dir);
}

/* A test profile. Line 3 holds the description and `bugs3` (a <bugs> element or empty),
 * line 4 cpu.freq_ghz, line 5 `param5` (a whole element or empty), line 6 the first
 * <mitigations>, line 7 `extra` (a second element or empty). */
typedef struct {
  const char *name;
  const char *bugs3;
  const char *param5;
  const char *spectre_v2;
  const char *from;
  const char *to;
  const char *extra;
} TestProfile;

static char *
test_profile_text (const TestProfile *t)
{
  return g_strdup_printf (
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<cpu name=\"%s\" model=\"Test CPU\">\n"
    "  <description>test profile</description>%s\n"
    "  <param name=\"cpu.freq_ghz\" value=\"2.5\" source=\"test: line four\"/>\n"
    "  %s\n"
    "  <mitigations kernel-from=\"%s\" kernel-to=\"%s\" spectre_v2=\"%s\" retbleed=\"off\" "
    "srso=\"off\" bhi=\"off\" pti=\"false\" mds=\"false\" source=\"test: line six\"/>\n"
    "  %s\n"
    "</cpu>\n",
    t->name, t->bugs3 ? t->bugs3 : "", t->param5 ? t->param5 : "", t->from ? t->from : "6.1", t->to ? t->to : "6.99",
    t->spectre_v2 ? t->spectre_v2 : "retpoline", t->extra ? t->extra : "");
}

/* Writes t as <tmp>/<stem>.xml and loads it; returns the error (profile must fail). */
static GError *
load_bad (const char *stem, const TestProfile *t, char **path_out)
{
  char *dir = g_dir_make_tmp ("netsim-profile-XXXXXX", NULL);
  char *file = g_strconcat (stem, ".xml", NULL);
  char *text = test_profile_text (t);
  char *path = write_file (dir, file, text);
  GError *error = NULL;
  NsCpuProfile *profile = ns_cpu_profile_load (path, &error);

  ck_assert_msg (profile == NULL, "bad profile %s loaded", path);
  ck_assert (error != NULL);
  ck_assert_int_eq (error->domain, NS_ERROR);
  ck_assert_int_eq (error->code, NS_ERROR_INPUT);
  *path_out = path;
  remove_tree (dir);
  g_free (dir);
  g_free (file);
  g_free (text);
  return error;
}

/* Asserts message starts with "path:line:" and contains needle. */
static void
assert_line_error (const GError *error, const char *path, int line, const char *needle)
{
  char *prefix = g_strdup_printf ("%s:%d:", path, line);

  ck_assert_msg (g_str_has_prefix (error->message, prefix), "expected '%s...', got '%s'",
                 prefix, error->message);
  if (needle != NULL)
    ck_assert_msg (strstr (error->message, needle) != NULL, "expected '%s' in '%s'", needle,
                   error->message);
  g_free (prefix);
}

/* Asserts that t, written as <stem>.xml, is refused at line with needle in the message. */
static void
assert_refused (const char *stem, const TestProfile *t, int line, const char *needle)
{
  char *path;
  GError *error = load_bad (stem, t, &path);

  assert_line_error (error, path, line, needle);
  g_error_free (error);
  g_free (path);
}

/* ---- shipped profiles ---- */

/* Every *.xml in the profile folder loads and is complete: a new file is covered too. */
/* A registered change whose series switches a profile default between two adjacent
 * ranges: the generic retpoline replacing the LFENCE one on AMD (244d00b5dd47), retbleed,
 * SRSO and BHI turning on with their series. */
typedef struct {
  NsKernelChangeId change;
  const char      *what;
} SeriesCut;

/* Which registered change the switch between a and b (adjacent ranges) is, or NULL. */
static const SeriesCut *
series_cut (const NsMitigationDefault *a, const NsMitigationDefault *b)
{
  static const SeriesCut cuts[] = {
    { NS_KCHANGE_AMD_GENERIC_RETPOLINE, "spectre_v2 lfence -> retpoline" },
    { NS_KCHANGE_RETBLEED_PARAM, "retbleed on" },
    { NS_KCHANGE_SRSO, "srso on" },
    { NS_KCHANGE_BHI_KNOB, "bhi on" },
  };

  if (a->spectre_v2 == NS_SPECTRE_V2_LFENCE && b->spectre_v2 == NS_SPECTRE_V2_RETPOLINE)
    return &cuts[0];
  if (a->retbleed == NS_RETBLEED_OFF && b->retbleed != NS_RETBLEED_OFF)
    return &cuts[1];
  if (a->srso == NS_SRSO_OFF && b->srso != NS_SRSO_OFF)
    return &cuts[2];
  if (a->bhi == NS_BHI_OFF && b->bhi != NS_BHI_OFF)
    return &cuts[3];
  return NULL;
}

/* Orders two ranges (pointers) by their first kernel. */
static gint
cmp_from (gconstpointer a, gconstpointer b)
{
  const NsMitigationDefault *const *x = a, *const *y = b;

  return ns_kernel_release_cmp ((*x)->kernel_from, (*y)->kernel_from);
}

/* Checks that a profile cuts its ranges where the registry says each mitigation series
 * merged (the release candidate, "5.17.0-rc8"), so that the default and the command-line
 * keys, which the registry decides, agree on every release; the backported defaults of
 * the stables come from the range holding that release. */
static void
check_series_cuts (const NsCpuProfile *profile)
{
  GArray *defs = profile->mitigation_defaults;
  g_autoptr (GPtrArray) by_from = g_ptr_array_new ();

  for (guint i = 0; i < defs->len; i++)
    g_ptr_array_add (by_from, &g_array_index (defs, NsMitigationDefault, i));
  g_ptr_array_sort (by_from, cmp_from);
  for (guint i = 1; i < by_from->len; i++) {
    const NsMitigationDefault *a = by_from->pdata[i - 1], *b = by_from->pdata[i];
    const SeriesCut *cut = series_cut (a, b);
    const char *mainline;

    if (cut == NULL)
      continue;
    mainline = ns_kernel_change_info (cut->change)->releases.mainline;
    ck_assert_msg (ns_kernel_release_cmp (b->kernel_from, mainline) == 0,
                   "%s:%d: %s from %s, but the registry's %s is mainline from %s",
                   profile->path, b->line, cut->what, b->kernel_from,
                   ns_kernel_change_info (cut->change)->commit, mainline);
  }
}

START_TEST (test_shipped_profiles_complete)
{
  char *dir_path = g_build_filename (ns_data_dir (), "scenarios", "cpus", NULL);
  GDir *dir = g_dir_open (dir_path, 0, NULL);
  const char *entry;
  guint n = 0;

  ck_assert_msg (dir != NULL, "no profile folder %s", dir_path);
  while ((entry = g_dir_read_name (dir)) != NULL) {
    char *path, *stem;
    GError *error = NULL;
    NsCpuProfile *profile;

    if (!g_str_has_suffix (entry, ".xml"))
      continue;
    path = g_build_filename (dir_path, entry, NULL);
    stem = g_strndup (entry, strlen (entry) - 4);
    profile = ns_cpu_profile_load (path, &error);
    ck_assert_msg (profile != NULL, "%s: %s", path, error ? error->message : "?");
    ck_assert_str_eq (profile->name, stem);
    ck_assert_msg (profile->model[0] != '\0' && profile->description[0] != '\0',
                   "%s: model and description must say something", path);
    check_param_sources (profile);
    check_required_params (profile);
    check_mitigation_ranges (profile);
    check_series_cuts (profile);
    ns_cpu_profile_free (profile);
    g_free (stem);
    g_free (path);
    n++;
  }
  g_dir_close (dir);
  g_free (dir_path);
  ck_assert_uint_ge (n, G_N_ELEMENTS (shipped));
}
END_TEST

START_TEST (test_list_sorted)
{
  GPtrArray *names = ns_cpu_profile_list ();

  ck_assert_uint_eq (names->len, G_N_ELEMENTS (shipped));
  for (guint i = 0; i < names->len; i++)
    ck_assert_str_eq (names->pdata[i], shipped[i]);
  g_ptr_array_unref (names);
}
END_TEST

/* Loading by name works for every listed profile and names the file it read. */
START_TEST (test_load_by_name)
{
  for (guint i = 0; i < G_N_ELEMENTS (shipped); i++) {
    GError *error = NULL;
    NsCpuProfile *profile = ns_cpu_profile_load (shipped[i], &error);
    char *file = g_strconcat (shipped[i], ".xml", NULL);

    ck_assert_msg (profile != NULL, "%s: %s", shipped[i], error ? error->message : "?");
    ck_assert_str_eq (profile->name, shipped[i]);
    ck_assert (g_str_has_suffix (profile->path, file));
    ns_cpu_profile_free (profile);
    g_free (file);
  }
}
END_TEST

/* Values the profile sets carry its sources; the rest keep the registry's. */
START_TEST (test_overlay_keeps_registry_defaults)
{
  GError *error = NULL;
  NsCpuProfile *profile = ns_cpu_profile_load ("ryzen9-5950x", &error);
  const NsParamDef *ipc = ns_param_lookup ("cpu.ipc");

  ck_assert_msg (profile != NULL, "%s", error ? error->message : "?");
  ck_assert_double_eq_tol (ns_params_get_double (profile->params, "cpu.freq_ghz"), 4.9, 1e-9);
  ck_assert_int_eq (ns_params_get_int (profile->params, "cpu.ccx_per_socket"), 2);
  ck_assert (!ns_params_get_bool (profile->params, "cache.l3.inclusive"));
  ck_assert (strstr (ns_params_get_source (profile->params, "c2c.ccx_ns"), "[M1]") != NULL);
  ck_assert_str_eq (ns_params_get_text (profile->params, "cpu.ipc"), ipc->default_value);
  ck_assert_str_eq (ns_params_get_source (profile->params, "cpu.ipc"), ipc->default_source);
  ns_cpu_profile_free (profile);
}
END_TEST

/* The Zen 3 stand-in of seed 000 runs Safe RET on 6.9 but not on 6.1; the Zen 4 part
 * switches from retpoline to AutoIBRS at 6.3. */
START_TEST (test_kernel_version_cliffs)
{
  GError *error = NULL;
  NsCpuProfile *zen3, *zen4;
  NsMitigations mit = { 0 };

  zen3 = ns_cpu_profile_load ("zen3-epyc-7713", &error);
  ck_assert_msg (zen3 != NULL, "zen3-epyc-7713: %s", error != NULL ? error->message : "?");
  zen4 = ns_cpu_profile_load ("ryzen9-7950x", &error);
  ck_assert_msg (zen4 != NULL, "ryzen9-7950x: %s", error != NULL ? error->message : "?");
  ck_assert (ns_mitigations_select ((NsMitigationDefault *) zen3->mitigation_defaults->data,
                                    zen3->mitigation_defaults->len, "6.9.0-rc1", "", &mit,
                                    &error));
  ck_assert_int_eq (mit.srso, NS_SRSO_SAFE_RET);
  ck_assert_int_eq (mit.spectre_v2, NS_SPECTRE_V2_RETPOLINE);
  ns_mitigations_clear (&mit);
  ck_assert (ns_mitigations_select ((NsMitigationDefault *) zen3->mitigation_defaults->data,
                                    zen3->mitigation_defaults->len, "6.1", "", &mit, &error));
  ck_assert_int_eq (mit.srso, NS_SRSO_OFF);
  ns_mitigations_clear (&mit);
  ck_assert (ns_mitigations_select ((NsMitigationDefault *) zen4->mitigation_defaults->data,
                                    zen4->mitigation_defaults->len, "6.2", "", &mit, &error));
  ck_assert_int_eq (mit.spectre_v2, NS_SPECTRE_V2_RETPOLINE);
  ns_mitigations_clear (&mit);
  ck_assert (ns_mitigations_select ((NsMitigationDefault *) zen4->mitigation_defaults->data,
                                    zen4->mitigation_defaults->len, "6.3", "", &mit, &error));
  ck_assert_int_eq (mit.spectre_v2, NS_SPECTRE_V2_EIBRS);
  ns_mitigations_clear (&mit);
  ns_cpu_profile_free (zen3);
  ns_cpu_profile_free (zen4);
}
END_TEST

/* Each shipped profile's <bugs> as cpu_set_bug_bits() (common.c, v6.9) sets them: family
 * 19h is in the SRSO blacklist only (NO_MDS, not in RETBLEED, no eIBRS so no X86_BUG_BHI);
 * Ivy Bridge has MDS, no RSBA/RETBLEED entry and no eIBRS; Cascade Lake is in the RETBLEED
 * list and has eIBRS without BHI_NO, with MDS_NO; Granite Rapids' default uses BHI_DIS_S;
 * the generic profile names no vendor and states no bugs. */
START_TEST (test_shipped_bugs)
{
  static const struct { const char *name; guint unaffected, features; } cases[] = {
    { "zen3-epyc-7713", NS_BUG_RETBLEED | NS_BUG_MDS | NS_BUG_BHI, NS_CPU_AMD },
    { "ryzen9-7950x", NS_BUG_RETBLEED | NS_BUG_MDS | NS_BUG_BHI, NS_CPU_AMD },
    { "i5-3337u", NS_BUG_RETBLEED | NS_BUG_SRSO | NS_BUG_BHI, NS_CPU_INTEL },
    { "ryzen9-5950x", NS_BUG_RETBLEED | NS_BUG_MDS | NS_BUG_BHI, NS_CPU_AMD },
    { "i5-10210u", NS_BUG_SRSO | NS_BUG_MDS, NS_CPU_INTEL },
    { "xeon-gold-6230r", NS_BUG_SRSO | NS_BUG_MDS, NS_CPU_INTEL },
    { "xeon-6985p-c", NS_BUG_RETBLEED | NS_BUG_SRSO | NS_BUG_MDS,
      NS_CPU_INTEL | NS_CPU_BHI_CTRL },
    { "generic", 0, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    GError *error = NULL;
    NsCpuProfile *p = ns_cpu_profile_load (cases[i].name, &error);
    const NsMitigationDefault *last;

    ck_assert_msg (p != NULL, "%s: %s", cases[i].name, error ? error->message : "?");
    ck_assert_uint_eq (p->unaffected, cases[i].unaffected);
    last = &g_array_index (p->mitigation_defaults, NsMitigationDefault,
                           p->mitigation_defaults->len - 1);
    ck_assert_uint_eq (last->unaffected, cases[i].unaffected);
    ck_assert_uint_eq (p->features, cases[i].features);
    ck_assert_uint_eq (last->features, cases[i].features);
    ns_cpu_profile_free (p);
  }
}
END_TEST

START_TEST (test_unknown_name_lists_available)
{
  GError *error = NULL;
  NsCpuProfile *profile = ns_cpu_profile_load ("pentium-4", &error);

  ck_assert (profile == NULL);
  ck_assert (g_error_matches (error, NS_ERROR, NS_ERROR_INPUT));
  ck_assert_msg (strstr (error->message, "pentium-4") != NULL, "%s", error->message);
  for (guint i = 0; i < G_N_ELEMENTS (shipped); i++)
    ck_assert_msg (strstr (error->message, shipped[i]) != NULL, "'%s' not listed in: %s",
                   shipped[i], error->message);
  g_error_free (error);
}
END_TEST

/* ---- bad profiles ---- */

/* The template itself is valid: the failures below come from the one change each makes. */
START_TEST (test_minimal_profile_loads)
{
  TestProfile t = { .name = "minimal" };
  char *dir = g_dir_make_tmp ("netsim-profile-XXXXXX", NULL);
  char *text = test_profile_text (&t);
  char *path = write_file (dir, "minimal.xml", text);
  GError *error = NULL;
  NsCpuProfile *profile = ns_cpu_profile_load (path, &error);
  const NsMitigationDefault *def;

  ck_assert_msg (profile != NULL, "%s", error ? error->message : "?");
  ck_assert_uint_eq (profile->set_names->len, 1);
  ck_assert_str_eq (ns_params_get_source (profile->params, "cpu.freq_ghz"), "test: line four");
  ck_assert_uint_eq (profile->mitigation_defaults->len, 1);
  def = &g_array_index (profile->mitigation_defaults, NsMitigationDefault, 0);
  ck_assert_int_eq (def->line, 6);
  ck_assert_str_eq (def->kernel_from, "6.1");
  ck_assert_str_eq (def->kernel_to, "6.99");
  ck_assert_int_eq (def->spectre_v2, NS_SPECTRE_V2_RETPOLINE);
  ck_assert (!def->pti && !def->mds_verw);
  ck_assert_str_eq (def->source, "test: line six");
  ns_cpu_profile_free (profile);
  remove_tree (dir);
  g_free (path);
  g_free (text);
  g_free (dir);
}
END_TEST

/* <bugs affected=""> is a CPU with none of the four bugs (doc/cpu-profiles.md: "empty for
 * none"; cpu_set_bug_bits() sets no X86_BUG_RETBLEED/SRSO/MDS/BHI on a part on every
 * NO_* whitelist): it loads, its defaults count every bug as absent, and so the command
 * line's retbleed=, spec_rstack_overflow= and mds= are ignored, as the kernel's
 * *_select_mitigation() return early without the bug (arch/x86/kernel/cpu/bugs.c, v6.9);
 * the same default with all four bugs takes them. */
START_TEST (test_bugs_empty_means_none)
{
  TestProfile t = { .name = "nobugs", .spectre_v2 = "off",
                    .bugs3 = "<bugs affected=\"\" source=\"x\"/>" };
  char *dir = g_dir_make_tmp ("netsim-profile-XXXXXX", NULL);
  char *text = test_profile_text (&t);
  char *path = write_file (dir, "nobugs.xml", text);
  GError *error = NULL;
  NsCpuProfile *profile = ns_cpu_profile_load (path, &error);
  static const char cmdline[] = "retbleed=unret spec_rstack_overflow=safe-ret mds=full";
  const NsMitigationDefault *def;
  NsMitigationDefault all;
  NsMitigations mit = { 0 };

  ck_assert_msg (profile != NULL, "%s", error ? error->message : "?");
  ck_assert_uint_eq (profile->unaffected, NS_BUGS_ALL);
  def = &g_array_index (profile->mitigation_defaults, NsMitigationDefault, 0);
  ck_assert_uint_eq (def->unaffected, NS_BUGS_ALL);
  ck_assert_msg (ns_mitigations_select (def, 1, "6.9", cmdline, &mit, &error), "%s",
                 error ? error->message : "?");
  ck_assert_int_eq (mit.retbleed, NS_RETBLEED_OFF);
  ck_assert_int_eq (mit.srso, NS_SRSO_OFF);
  ck_assert (!mit.mds_verw);
  ns_mitigations_clear (&mit);
  /* control: the same default on a CPU with all four bugs takes every key */
  all = *def;
  all.unaffected = 0;
  ck_assert (ns_mitigations_select (&all, 1, "6.9", cmdline, &mit, NULL));
  ck_assert_int_eq (mit.retbleed, NS_RETBLEED_UNRET);
  ck_assert_int_eq (mit.srso, NS_SRSO_SAFE_RET);
  ck_assert (mit.mds_verw);
  ns_mitigations_clear (&mit);
  ns_cpu_profile_free (profile);
  remove_tree (dir);
  g_free (path);
  g_free (text);
  g_free (dir);
}
END_TEST

START_TEST (test_param_without_source)
{
  TestProfile t = { .name = "nosource",
                    .param5 = "<param name=\"cpu.smt\" value=\"2\"/>" };
  assert_refused ("nosource", &t, 5, NULL);
}
END_TEST

START_TEST (test_param_blank_source)
{
  TestProfile t = { .name = "blank",
                    .param5 = "<param name=\"cpu.smt\" value=\"2\" source=\"   \"/>" };
  assert_refused ("blank", &t, 5, NULL);
}
END_TEST

START_TEST (test_unknown_param)
{
  TestProfile t = { .name = "unknown",
                    .param5 = "<param name=\"cpu.warp_factor\" value=\"9\" source=\"x\"/>" };
  assert_refused ("unknown", &t, 5, "cpu.warp_factor");
}
END_TEST

START_TEST (test_value_out_of_range)
{
  TestProfile t = { .name = "range",
                    .param5 = "<param name=\"cpu.smt\" value=\"3\" source=\"x\"/>" };
  assert_refused ("range", &t, 5, "outside the valid range");
}
END_TEST

/* A <param> over three or four lines (from 5): an error is at the line of the attribute
 * at fault, the value's for a value out of range, the name's for an unknown name (both
 * were at the start tag's), the source's for a blank source (libxml2 alone gives the line
 * the tag ends on). */
START_TEST (test_multiline_tag_lines)
{
  TestProfile range = { .name = "range3", .param5 = "<param name=\"cpu.smt\"\n"
                        "         value=\"3\"\n         source=\"x\"/>" };
  TestProfile unknown = { .name = "unknown4", .param5 = "<param\n         source=\"x\"\n"
                          "         name=\"cpu.warp_factor\"\n         value=\"9\"/>" };
  TestProfile blank = { .name = "blank3", .param5 = "<param name=\"cpu.smt\" value=\"2\"\n"
                        "         source=\"   \"\n         />" };

  assert_refused ("range3", &range, 6, "outside the valid range");
  assert_refused ("unknown4", &unknown, 7, "unknown parameter 'cpu.warp_factor'");
  assert_refused ("blank3", &blank, 6, "attribute 'source'");
}
END_TEST

START_TEST (test_value_wrong_type)
{
  TestProfile t = { .name = "type",
                    .param5 = "<param name=\"cpu.sockets\" value=\"two\" source=\"x\"/>" };
  assert_refused ("type", &t, 5, "integer");
}
END_TEST

START_TEST (test_param_set_twice)
{
  TestProfile t = { .name = "twice",
                    .param5 = "<param name=\"cpu.freq_ghz\" value=\"3\" source=\"x\"/>" };
  assert_refused ("twice", &t, 5, "line 4");
}
END_TEST

START_TEST (test_name_differs_from_stem)
{
  TestProfile t = { .name = "other-name" };
  char *path;
  GError *error = load_bad ("stem", &t, &path);

  assert_line_error (error, path, 2, "other-name");
  ck_assert_msg (strstr (error->message, "'stem'") != NULL, "%s", error->message);
  g_error_free (error);
  g_free (path);
}
END_TEST

START_TEST (test_bad_enum_value)
{
  TestProfile t = { .name = "enum", .spectre_v2 = "retpolin" };
  char *path;
  GError *error = load_bad ("enum", &t, &path);

  assert_line_error (error, path, 6, "retpolin");
  ck_assert_msg (strstr (error->message, "retpoline, lfence, eibrs, ibrs") != NULL, "%s",
                 error->message);
  g_error_free (error);
  g_free (path);
}
END_TEST

START_TEST (test_overlapping_ranges)
{
  TestProfile t = { .name = "overlap", .to = "6.5",
                    .extra = "<mitigations kernel-from=\"6.5\" kernel-to=\"6.99\" "
                             "spectre_v2=\"off\" retbleed=\"off\" srso=\"off\" bhi=\"off\" "
                             "pti=\"false\" mds=\"false\" source=\"x\"/>" };
  assert_refused ("overlap", &t, 7, "overlap");
}
END_TEST

START_TEST (test_reversed_range)
{
  TestProfile t = { .name = "reversed", .from = "6.9", .to = "6.1" };
  assert_refused ("reversed", &t, 6, "after");
}
END_TEST

/* A release-candidate bound is MAJOR.MINOR.0-rcN; other suffixes are refused at their line,
 * and rc bounds order within their series (rc4 .. rc3 is reversed). */
START_TEST (test_rc_range_bounds)
{
  static const char *const bad[] = { "6.9.0-rc", "6.9-rc4", "6.9.1-rc4", "6.9.0-rc4x" };
  TestProfile t = { .name = "rc", .from = "6.9.0-rc4", .to = "6.9.0-rc3" };

  assert_refused ("rc", &t, 6, "after");
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
    t.from = bad[i];
    t.to = "6.99";
    assert_refused ("rc", &t, 6, "kernel-from");
  }
}
END_TEST

/* A range end whose minor is past 2^64 - 1 is refused at its line, not read as 2^64 - 1. */
START_TEST (test_range_end_out_of_range)
{
  TestProfile t = { .name = "huge", .to = "6.18446744073709551616" };
  assert_refused ("huge", &t, 6, "kernel-to=\"6.18446744073709551616\"");
}
END_TEST

START_TEST (test_mitigations_without_source)
{
  TestProfile t = { .name = "mitsource", .to = "6.4",
                    .extra = "<mitigations kernel-from=\"6.5\" kernel-to=\"6.99\" "
                             "spectre_v2=\"off\" retbleed=\"off\" srso=\"off\" bhi=\"off\" "
                             "pti=\"false\" mds=\"false\"/>" };
  assert_refused ("mitsource", &t, 7, NULL);
}
END_TEST

START_TEST (test_bugs_unknown_name)
{
  TestProfile t = { .name = "bugname",
                    .bugs3 = "<bugs affected=\"srso spectre\" source=\"x\"/>" };
  assert_refused ("bugname", &t, 3, "'spectre'");
}
END_TEST

START_TEST (test_bugs_without_source)
{
  TestProfile t = { .name = "bugsource", .bugs3 = "<bugs affected=\"srso\"/>" };
  assert_refused ("bugsource", &t, 3, NULL);
}
END_TEST

/* A default the kernel could not select: Safe RET on a CPU whose <bugs> has no srso. */
START_TEST (test_default_mitigates_unlisted_bug)
{
  TestProfile t = { .name = "unlisted", .to = "6.4",
                    .bugs3 = "<bugs affected=\"mds\" source=\"x\"/>",
                    .extra = "<mitigations kernel-from=\"6.5\" kernel-to=\"6.99\" "
                             "spectre_v2=\"off\" retbleed=\"off\" srso=\"safe-ret\" "
                             "bhi=\"off\" pti=\"false\" mds=\"true\" source=\"x\"/>" };
  assert_refused ("unlisted", &t, 7, "srso");
}
END_TEST

/* Schema errors of a blank text or a bad version say what is expected in words, from
 * cpu.rng's n:expect annotations (they showed the regex: "a value matching '.*\\S.*'"). */
START_TEST (test_schema_errors_in_words)
{
  static const struct {
    TestProfile t;
    int line;
    const char *says;
  } cases[] = {
    { { .name = "blank", .param5 = "<param name=\"cpu.smt\" value=\"2\" source=\" \"/>" }, 5,
      "element param: attribute 'source': expected a non-blank text, got ' '" },
    { { .name = "badver", .from = "six" }, 6,
      "attribute 'kernel-from': expected a kernel version MAJOR.MINOR or MAJOR.MINOR.0-rcN" },
    { { .name = "badmode", .spectre_v2 = "" }, 6,
      "attribute 'spectre_v2': expected a spectre_v2 mode such as off, retpoline or eibrs" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    char *path;
    GError *error = load_bad (cases[i].t.name, &cases[i].t, &path);

    assert_line_error (error, path, cases[i].line, cases[i].says);
    ck_assert_msg (strstr (error->message, "matching") == NULL, "%s", error->message);
    g_error_free (error);
    g_free (path);
  }
}
END_TEST

/* A free parameter (cpu.ipc) is fitted, not stated: a profile that sets it by hand is
 * refused at its <param> (it was run on, 5.33 cycles/call in place of 8.66 on the
 * call-chain micro scenario); the value `netsim calibrate --fit` writes, with its "fit on"
 * source, loads. */
START_TEST (test_free_param_set_by_hand)
{
  TestProfile t = { .name = "handipc",
                    .param5 = "<param name=\"cpu.ipc\" value=\"3\" source=\"my guess\"/>" };
  TestProfile fit = { .name = "fitipc",
                      .param5 = "<param name=\"cpu.ipc\" value=\"3\" "
                                "source=\"fit on row-1, residual 0.0001\"/>" };
  char *dir = g_dir_make_tmp ("netsim-profile-XXXXXX", NULL);
  char *text = test_profile_text (&fit);
  char *fit_path = write_file (dir, "fitipc.xml", text);
  NsCpuProfile *profile;
  char *path;
  GError *error = load_bad ("handipc", &t, &path);

  assert_line_error (error, path, 5, "cpu.ipc is fitted, not stated");
  ck_assert_msg (strstr (error->message, "calibrate --fit") != NULL &&
                 strstr (error->message, "calibration.xml") != NULL, "%s", error->message);
  g_clear_error (&error);
  profile = ns_cpu_profile_load (fit_path, &error);
  ck_assert_msg (profile != NULL, "%s", error ? error->message : "?");
  ck_assert_double_eq_tol (ns_params_get_double (profile->params, "cpu.ipc"), 3.0, 1e-9);
  ns_cpu_profile_free (profile);
  remove_tree (dir);
  g_free (fit_path);
  g_free (text);
  g_free (dir);
  g_free (path);
}
END_TEST

/* Defaults the kernel never selects: call depth stuffing (only retbleed=stuff asks for
 * it; as a default it was charged even with spectre_v2=off on the command line, which the
 * kernel's selection turns back to off), and retbleed's eIBRS without spectre_v2's. */
START_TEST (test_default_kernel_never_selects)
{
  static const char *const defaults[][2] = {
    { "spectre_v2=\"off\" retbleed=\"stuff\"", "call depth stuffing only when the command line" },
    { "spectre_v2=\"retpoline\" retbleed=\"stuff\"", "retbleed=stuff on the scenario's" },
    { "spectre_v2=\"retpoline\" retbleed=\"eibrs\"", "only when spectre_v2 is eibrs" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (defaults); i++) {
    g_autofree char *extra = g_strdup_printf ("<mitigations kernel-from=\"6.5\" "
                                              "kernel-to=\"6.99\" %s srso=\"off\" bhi=\"off\" "
                                              "pti=\"false\" mds=\"false\" source=\"x\"/>",
                                              defaults[i][0]);
    TestProfile t = { .name = "stuffy", .to = "6.4", .extra = extra };
    char *path;
    GError *error = load_bad ("stuffy", &t, &path);

    assert_line_error (error, path, 7, defaults[i][1]);
    ck_assert_msg (strstr (error->message, "<mitigations>: retbleed=") != NULL, "%s",
                   error->message);
    g_error_free (error);
    g_free (path);
  }
}
END_TEST

/* An eIBRS mode with thunks is no default: the kernel's auto selection on an eIBRS CPU
 * takes plain eIBRS (spectre_v2_select_mitigation(), 5.17-6.9), the thunks only from the
 * command line, so such a default would run as asked under spectre_v2=auto and on a build
 * without the thunks, where the kernel runs eIBRS. Refused on the spectre_v2 attribute's
 * line, naming the command line that selects it. */
START_TEST (test_default_eibrs_with_thunks)
{
  static const char *const modes[] = { "eibrs,retpoline", "eibrs,lfence" };

  for (guint i = 0; i < G_N_ELEMENTS (modes); i++) {
    g_autofree char *extra = g_strdup_printf ("<mitigations kernel-from=\"6.5\" "
                                              "kernel-to=\"6.99\" spectre_v2=\"%s\" "
                                              "retbleed=\"eibrs\" srso=\"off\" bhi=\"off\" "
                                              "pti=\"false\" mds=\"false\" source=\"x\"/>",
                                              modes[i]);
    g_autofree char *cmdline = g_strdup_printf ("put spectre_v2=%s on the scenario's kernel "
                                                "command line", modes[i]);
    TestProfile t = { .name = "thunky", .to = "6.4", .extra = extra };
    char *path;
    GError *error = load_bad ("thunky", &t, &path);

    assert_line_error (error, path, 7, "could not make: on an eIBRS CPU it takes plain eIBRS");
    ck_assert_msg (strstr (error->message, cmdline) != NULL, "%s", error->message);
    g_error_free (error);
    g_free (path);
  }
}
END_TEST

/* $NETSIM_DATADIR decides where names are looked up and listed. */
START_TEST (test_datadir_from_environment)
{
  char *src_schema = g_build_filename (ns_data_dir (), "scenarios", "cpu.rng", NULL);
  char *dir = g_dir_make_tmp ("netsim-datadir-XXXXXX", NULL);
  char *scen = g_build_filename (dir, "scenarios", NULL);
  char *cpus = g_build_filename (scen, "cpus", NULL);
  char *old = g_strdup (g_getenv ("NETSIM_DATADIR"));
  TestProfile t = { .name = "only-one" };
  char *schema_text, *text, *schema_path, *path;
  GPtrArray *names;
  NsCpuProfile *profile;
  GError *error = NULL;

  ck_assert (g_file_get_contents (src_schema, &schema_text, NULL, NULL));
  ck_assert_int_eq (g_mkdir_with_parents (cpus, 0700), 0);
  schema_path = write_file (scen, "cpu.rng", schema_text);
  text = test_profile_text (&t);
  path = write_file (cpus, "only-one.xml", text);
  g_setenv ("NETSIM_DATADIR", dir, TRUE);

  ck_assert_str_eq (ns_data_dir (), dir);
  names = ns_cpu_profile_list ();
  ck_assert_uint_eq (names->len, 1);
  ck_assert_str_eq (names->pdata[0], "only-one");
  g_ptr_array_unref (names);
  profile = ns_cpu_profile_load ("only-one", &error);
  ck_assert_msg (profile != NULL, "%s", error ? error->message : "?");
  ck_assert_str_eq (profile->path, path);
  ns_cpu_profile_free (profile);
  profile = ns_cpu_profile_load ("generic", &error);
  ck_assert (profile == NULL);
  ck_assert_msg (strstr (error->message, "available: only-one") != NULL, "%s", error->message);
  g_clear_error (&error);

  if (old != NULL)
    g_setenv ("NETSIM_DATADIR", old, TRUE);
  else
    g_unsetenv ("NETSIM_DATADIR");
  remove_tree (dir);
  g_free (old);
  g_free (path);
  g_free (text);
  g_free (schema_path);
  g_free (schema_text);
  g_free (cpus);
  g_free (scen);
  g_free (dir);
  g_free (src_schema);
}
END_TEST

/* In a data folder whose cpus/ holds a malformed junk.xml and a folder sub.xml, the list
 * has the regular files only, and the unknown-name error names them as netsim list cpus
 * does: junk marked "(does not load)", no sub (it named both, unmarked). */
START_TEST (test_list_regular_files_marks_broken)
{
  char *src_schema = g_build_filename (ns_data_dir (), "scenarios", "cpu.rng", NULL);
  char *dir = g_dir_make_tmp ("netsim-datadir-XXXXXX", NULL);
  char *scen = g_build_filename (dir, "scenarios", NULL);
  char *cpus = g_build_filename (scen, "cpus", NULL);
  char *sub = g_build_filename (cpus, "sub.xml", NULL);
  char *old = g_strdup (g_getenv ("NETSIM_DATADIR"));
  TestProfile t = { .name = "only-one" };
  char *schema_text, *text;
  GPtrArray *names;
  GError *error = NULL;

  ck_assert (g_file_get_contents (src_schema, &schema_text, NULL, NULL));
  ck_assert_int_eq (g_mkdir_with_parents (sub, 0700), 0);
  g_free (write_file (scen, "cpu.rng", schema_text));
  text = test_profile_text (&t);
  g_free (write_file (cpus, "only-one.xml", text));
  g_free (write_file (cpus, "junk.xml", "junk\n"));
  g_setenv ("NETSIM_DATADIR", dir, TRUE);

  names = ns_cpu_profile_list ();
  ck_assert_uint_eq (names->len, 2);
  ck_assert_str_eq (names->pdata[0], "junk");
  ck_assert_str_eq (names->pdata[1], "only-one");
  g_ptr_array_unref (names);
  ck_assert (ns_cpu_profile_load ("generic", &error) == NULL);
  ck_assert_msg (strstr (error->message, "available: junk (does not load), only-one;") != NULL,
                 "%s", error->message);
  g_clear_error (&error);

  if (old != NULL)
    g_setenv ("NETSIM_DATADIR", old, TRUE);
  else
    g_unsetenv ("NETSIM_DATADIR");
  remove_tree (dir);
  g_free (old);
  g_free (text);
  g_free (schema_text);
  g_free (sub);
  g_free (cpus);
  g_free (scen);
  g_free (dir);
  g_free (src_schema);
}
END_TEST

static Suite *
profile_suite (void)
{
  Suite *s = suite_create ("profile");
  TCase *shipped_case = tcase_create ("shipped");
  TCase *bad = tcase_create ("bad");

  tcase_add_test (shipped_case, test_shipped_profiles_complete);
  tcase_add_test (shipped_case, test_list_sorted);
  tcase_add_test (shipped_case, test_load_by_name);
  tcase_add_test (shipped_case, test_overlay_keeps_registry_defaults);
  tcase_add_test (shipped_case, test_kernel_version_cliffs);
  tcase_add_test (shipped_case, test_shipped_bugs);
  tcase_add_test (shipped_case, test_unknown_name_lists_available);
  tcase_add_test (shipped_case, test_datadir_from_environment);
  tcase_add_test (shipped_case, test_list_regular_files_marks_broken);
  suite_add_tcase (s, shipped_case);

  tcase_add_test (bad, test_minimal_profile_loads);
  tcase_add_test (bad, test_param_without_source);
  tcase_add_test (bad, test_param_blank_source);
  tcase_add_test (bad, test_unknown_param);
  tcase_add_test (bad, test_value_out_of_range);
  tcase_add_test (bad, test_value_wrong_type);
  tcase_add_test (bad, test_multiline_tag_lines);
  tcase_add_test (bad, test_param_set_twice);
  tcase_add_test (bad, test_name_differs_from_stem);
  tcase_add_test (bad, test_bad_enum_value);
  tcase_add_test (bad, test_overlapping_ranges);
  tcase_add_test (bad, test_reversed_range);
  tcase_add_test (bad, test_rc_range_bounds);
  tcase_add_test (bad, test_range_end_out_of_range);
  tcase_add_test (bad, test_mitigations_without_source);
  tcase_add_test (bad, test_bugs_empty_means_none);
  tcase_add_test (bad, test_bugs_unknown_name);
  tcase_add_test (bad, test_bugs_without_source);
  tcase_add_test (bad, test_default_mitigates_unlisted_bug);
  tcase_add_test (bad, test_default_kernel_never_selects);
  tcase_add_test (bad, test_default_eibrs_with_thunks);
  tcase_add_test (bad, test_free_param_set_by_hand);
  tcase_add_test (bad, test_schema_errors_in_words);
  suite_add_tcase (s, bad);
  return s;
}

int
main (void)
{
  SRunner *runner = srunner_create (profile_suite ());
  int failed;

  srunner_run_all (runner, CK_NORMAL);
  failed = srunner_ntests_failed (runner);
  srunner_free (runner);
  return failed == 0 ? 0 : 1;
}
