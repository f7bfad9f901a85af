/* build.c — the registry of simulated kernel functions and the inlining model of a build.
 *
 * Registry: every NsFunc gets, at its first registration, a dense id (1, 2, … in
 * registration order) and the simulated address of its out-of-line text: a 64-byte slot
 * above NS_TEXT_BASE (the x86-64 kernel's _text) chosen by a hash of its name
 * (text_addr_of), -falign-functions=64 style, so a function's address depends neither on
 * the order in which model code first uses functions nor on the other functions' sizes
 * (a declared size moves only its own function's extent). The registry is process-wide
 * (model functions are file-scope statics) and guarded by a mutex; ids are published last
 * so a registered function can be tested without the lock.
 *
 * Inlining (ns_build_inlines): a GCC-like rule list, first match wins —
 *   1. noinline                      → out of line
 *   2. __always_inline               → inlined
 *   3. reached through a pointer     → out of line (an indirect call site cannot inline)
 *   4. extern (not static)           → out of line, unless declared inline in a header
 *                                      and no larger than the limit
 *   5. static with exactly 1 call site in this build → folded into its caller
 *   6. static (or inline) and size ≤ limit           → inlined
 *   7. otherwise                                     → out of line
 * The call-site count is the build's override (a patch's effect) or the function's own.
 * Decisions are cached per build, indexed by function id; changing a call-site count
 * drops the cache. Reasons are short strings owned by the build. */
#include "config.h"
#include <stdarg.h>
#include <string.h>
#include "build.h"
#include "common.h"
#include "mitigation.h"

#define NS_TEXT_BASE   G_GUINT64_CONSTANT (0xffffffff81000000)
#define NS_TEXT_ALIGN  64
#define NS_TEXT_SLOTS  (1u << 18)   /* 16 MiB of kernel text in 64-byte slots */

/* ---- the function registry ---- */

static GMutex      registry_lock;
static GPtrArray  *registry_funcs;    /* id - 1 → NsFunc* */
static GHashTable *registry_names;   /* name → NsFunc* (the first registered) */

/* Text address of a function: a pure function of its symbol name (FNV-1a over the name,
 * one of NS_TEXT_SLOTS 64-byte slots), so the I-cache mapping of a function never depends
 * on which other functions a process happened to register first (runs, variants and
 * parallel sweeps stay independent). Rarely two functions overlap; that is deterministic. */
static guint64
text_addr_of (const char *name)
{
  guint32 h = 2166136261u;

  for (const unsigned char *p = (const unsigned char *) name; *p; p++)
    h = (h ^ *p) * 16777619u;
  return NS_TEXT_BASE + (guint64) (h % NS_TEXT_SLOTS) * NS_TEXT_ALIGN;
}

/* Registers func: gives it the next id and text address; a no-op once registered. */
void
ns_func_register (NsFunc *func)
{
  g_return_if_fail (func != NULL);
  g_return_if_fail (func->name != NULL);

  if (g_atomic_int_get (&func->id) != 0)
    return;

  g_mutex_lock (&registry_lock);
  if (func->id != 0)
    goto out;
  if (registry_funcs == NULL) {
    registry_funcs = g_ptr_array_new ();
    registry_names = g_hash_table_new (g_str_hash, g_str_equal);
  }
  if (g_hash_table_contains (registry_names, func->name))
    g_warning ("simulated function %s declared twice; lookups find the first", func->name);
  else
    g_hash_table_insert (registry_names, (gpointer) func->name, func);

  g_ptr_array_add (registry_funcs, func);
  func->text_addr = text_addr_of (func->name);
  g_atomic_int_set (&func->id, registry_funcs->len);
out:
  g_mutex_unlock (&registry_lock);
}

/* The registered function named name, or NULL. */
NsFunc *
ns_func_lookup (const char *name)
{
  NsFunc *func = NULL;

  g_return_val_if_fail (name != NULL, NULL);

  g_mutex_lock (&registry_lock);
  if (registry_names != NULL)
    func = g_hash_table_lookup (registry_names, name);
  g_mutex_unlock (&registry_lock);
  return func;
}

/* Number of registered functions (ids run from 1 to this). */
guint
ns_func_count (void)
{
  guint n;

  g_mutex_lock (&registry_lock);
  n = registry_funcs != NULL ? registry_funcs->len : 0;
  g_mutex_unlock (&registry_lock);
  return n;
}

/* The function with id `id`, or NULL if none. */
NsFunc *
ns_func_by_id (guint id)
{
  NsFunc *func = NULL;

  g_mutex_lock (&registry_lock);
  if (registry_funcs != NULL && id >= 1 && id <= registry_funcs->len)
    func = g_ptr_array_index (registry_funcs, id - 1);
  g_mutex_unlock (&registry_lock);
  return func;
}

/* ---- kernel builds ---- */

typedef struct {
  gboolean    known;
  gboolean    inlined;
  const char *reason;
} NsDecision;

struct _NsBuild {
  char         *version;
  guint         inline_limit;
  GHashTable   *call_sites;    /* func name → GUINT_TO_POINTER (sites + 1) */
  GHashTable   *patches;       /* set of patch names */
  GHashTable   *config;        /* key → value */
  GHashTable   *config_read;   /* set of keys ns_build_get_config was asked for */
  GHashTable   *config_bad;    /* set of keys read as bool/tristate with another value */
  GHashTable   *config_taken;  /* key → GUINT_TO_POINTER (1 << state) of each state
                                  bool/tristate reads took */
  GHashTable   *notes;         /* set of model notes (ns_build_note) */
  gboolean      version_refused;  /* a model does not cover the version */
  GArray       *decisions;     /* func id → NsDecision (index 0 unused) */
  GStringChunk *reasons;       /* interned reason strings */
};

/* What ns_build_config_in_force writes after an option the build does not state. */
#define CONFIG_UNSTATED " (unstated)"

/* Creates a build of kernel `version` inlining static functions up to inline_limit_bytes. */
NsBuild *
ns_build_new (const char *version, guint inline_limit_bytes)
{
  NsBuild *build;

  g_return_val_if_fail (version != NULL, NULL);

  build = g_new0 (NsBuild, 1);
  build->version = g_strdup (version);
  build->inline_limit = inline_limit_bytes;
  build->call_sites = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  build->patches = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  build->config = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  build->config_read = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  build->config_bad = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  build->config_taken = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  build->notes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  build->decisions = g_array_new (FALSE, TRUE, sizeof (NsDecision));
  build->reasons = g_string_chunk_new (256);
  return build;
}

/* Frees build and every string it owns (reasons included). */
void
ns_build_free (NsBuild *build)
{
  if (build == NULL)
    return;
  g_free (build->version);
  g_hash_table_destroy (build->call_sites);
  g_hash_table_destroy (build->patches);
  g_hash_table_destroy (build->config);
  g_hash_table_destroy (build->config_read);
  g_hash_table_destroy (build->config_bad);
  g_hash_table_destroy (build->config_taken);
  g_hash_table_destroy (build->notes);
  g_array_free (build->decisions, TRUE);
  g_string_chunk_free (build->reasons);
  g_free (build);
}

/* The kernel version string the build was created with. */
const char *
ns_build_version (const NsBuild *build)
{
  g_return_val_if_fail (build != NULL, NULL);
  return build->version;
}

/* TRUE if build's release has change id; see build.h. */
gboolean
ns_build_has_change (const NsBuild *build, NsKernelChangeId id)
{
  return build != NULL && ns_kernel_release_has (build->version, id);
}

/* The inline size limit in bytes. */
guint
ns_build_inline_limit (const NsBuild *build)
{
  g_return_val_if_fail (build != NULL, 0);
  return build->inline_limit;
}

/* Forgets every cached decision (a call-site count changed). */
static void
build_drop_decisions (NsBuild *build)
{
  g_array_set_size (build->decisions, 0);
}

/* Sets the number of call sites func_name has in this build (overrides the function's). */
void
ns_build_set_call_sites (NsBuild *build, const char *func_name, guint sites)
{
  g_return_if_fail (build != NULL);
  g_return_if_fail (func_name != NULL);

  g_hash_table_replace (build->call_sites, g_strdup (func_name), GUINT_TO_POINTER (sites + 1));
  build_drop_decisions (build);
}

/* Call sites of func in this build: the override if any, else func->call_sites. */
guint
ns_build_call_sites (const NsBuild *build, const NsFunc *func)
{
  gpointer value;

  g_return_val_if_fail (build != NULL, 0);
  g_return_val_if_fail (func != NULL, 0);

  value = g_hash_table_lookup (build->call_sites, func->name);
  return value != NULL ? GPOINTER_TO_UINT (value) - 1 : func->call_sites;
}

/* Marks patch as applied to this build. */
void
ns_build_apply_patch (NsBuild *build, const char *patch)
{
  g_return_if_fail (build != NULL);
  g_return_if_fail (patch != NULL);

  g_hash_table_add (build->patches, g_strdup (patch));
}

/* TRUE if patch was applied. */
gboolean
ns_build_has_patch (const NsBuild *build, const char *patch)
{
  g_return_val_if_fail (build != NULL, FALSE);
  g_return_val_if_fail (patch != NULL, FALSE);

  return g_hash_table_contains (build->patches, patch);
}

/* Orders a GPtrArray of strings by strcmp. */
static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* The applied patches, sorted by name (free with g_strfreev). */
char **
ns_build_dup_patches (const NsBuild *build)
{
  GPtrArray *names;
  GHashTableIter iter;
  gpointer key;

  g_return_val_if_fail (build != NULL, NULL);

  names = g_ptr_array_new ();
  g_hash_table_iter_init (&iter, build->patches);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (names, g_strdup (key));
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (names, FALSE);
}

/* Records a .config fact (key → value), replacing an earlier value. */
void
ns_build_set_config (NsBuild *build, const char *key, const char *value)
{
  g_return_if_fail (build != NULL);
  g_return_if_fail (key != NULL);
  g_return_if_fail (value != NULL);

  g_hash_table_replace (build->config, g_strdup (key), g_strdup (value));
}

/* The value of a .config fact, or NULL if the build does not state it; notes that a
 * model asked for key. */
const char *
ns_build_get_config (const NsBuild *build, const char *key)
{
  g_return_val_if_fail (build != NULL, NULL);
  g_return_val_if_fail (key != NULL, NULL);

  if (!g_hash_table_contains (build->config_read, key))
    g_hash_table_add (build->config_read, g_strdup (key));
  return g_hash_table_lookup (build->config, key);
}

/* The options models read that Kconfig declares bool, not tristate: none can be built as
 * a module, so their m is refused as any other value they do not take (Kconfig itself
 * would not write it). An option read but not listed here, nor one of the mitigation
 * bools of arch/x86/Kconfig (ns_mitigation_option_lookup), is taken as a tristate. */
static const char *const kconfig_bools[] = {
  "CONFIG_SLAB_FREELIST_RANDOM", "CONFIG_MEMCG",          /* mm/Kconfig, init/Kconfig */
  "CONFIG_PREEMPTION", "CONFIG_PREEMPT_VOLUNTARY",        /* kernel/Kconfig.preempt */
  "CONFIG_PREEMPT_RCU",                                   /* kernel/rcu/Kconfig */
  "CONFIG_IRQ_TIME_ACCOUNTING", "CONFIG_DEBUG_LIST",      /* init/, lib/Kconfig.debug */
  "CONFIG_SECURITY", "CONFIG_HARDENED_USERCOPY",          /* security/Kconfig */
  "CONFIG_SECURITY_APPARMOR", "CONFIG_SECURITY_TOMOYO", "CONFIG_BPF_LSM",
  "CONFIG_INIT_ON_ALLOC_DEFAULT_ON",                      /* security/Kconfig.hardening */
  "CONFIG_NET_CLS_ACT", "CONFIG_NET_TC_INDIRECT_WRAPPER", /* net/sched/Kconfig */
  "CONFIG_X86_KERNEL_IBT",                                /* arch/x86/Kconfig */
  NULL
};

/* TRUE if key is a Kconfig bool a model reads (kconfig_bools, or a mitigation option of
 * arch/x86/Kconfig): it takes y or n only. */
gboolean
ns_build_config_is_bool (const char *key)
{
  g_return_val_if_fail (key != NULL, FALSE);
  return g_strv_contains (kconfig_bools, key) || ns_mitigation_option_lookup (key) != 0;
}

/* The state key's value reads as (def when the build does not state it); a value other
 * than exactly y, m or n, or m for a bool, reads as def and is kept for
 * ns_build_config_bad. */
static NsKconfig
config_state (const NsBuild *build, const char *key, NsKconfig def)
{
  const char *value = ns_build_get_config (build, key);

  if (value == NULL)
    return def;
  if (!strcmp (value, "y"))
    return NS_KCONFIG_Y;
  if (!strcmp (value, "m") && !ns_build_config_is_bool (key))
    return NS_KCONFIG_M;
  if (!strcmp (value, "n"))
    return NS_KCONFIG_N;
  if (!g_hash_table_contains (build->config_bad, key))
    g_hash_table_add (build->config_bad, g_strdup (key));
  return def;
}

/* Notes that a read of key took state (config_taken). */
static void
note_taken (const NsBuild *build, const char *key, NsKconfig state)
{
  guint taken = GPOINTER_TO_UINT (g_hash_table_lookup (build->config_taken, key));

  g_hash_table_insert (build->config_taken, g_strdup (key),
                       GUINT_TO_POINTER (taken | 1u << state));
}

/* The states of taken (config_taken's bits) as "n", "m", "y" joined by "|" in that order,
 * or NULL for none (a new string). */
static char *
taken_states (guint taken)
{
  static const char *const names[] = { "n", "m", "y" };
  GString *states;

  if (taken == 0)
    return NULL;
  states = g_string_new (NULL);
  for (guint s = 0; s < G_N_ELEMENTS (names); s++)
    if (taken & 1u << s)
      g_string_append_printf (states, "%s%s", states->len ? "|" : "", names[s]);
  return g_string_free (states, FALSE);
}

/* The state of key read as a Kconfig bool/tristate (def when the build does not state
 * it); a value other than exactly y, m or n, or m for a bool (ns_build_config_is_bool),
 * reads as def and is kept for ns_build_config_bad. The state taken is kept for
 * ns_build_config_in_force. */
NsKconfig
ns_build_config_tristate (const NsBuild *build, const char *key, NsKconfig def)
{
  NsKconfig state;

  g_return_val_if_fail (build != NULL, def);
  g_return_val_if_fail (key != NULL, def);

  state = config_state (build, key, def);
  note_taken (build, key, state);
  return state;
}

/* The retpoline option's name in the build's version ("x86/bugs: Rename CONFIG_RETPOLINE
 * => CONFIG_MITIGATION_RETPOLINE", merged for v6.9-rc1); see build.h. */
const char *
ns_build_retpoline_option (const NsBuild *build)
{
  g_return_val_if_fail (build != NULL, "CONFIG_RETPOLINE");

  return ns_mitigation_option (NS_BUILT_RETPOLINE, build->version);
}

/* The mitigation code the build compiles in: each option under its name in the build's
 * version, read as a bool (on unless n: "default y" in arch/x86/Kconfig), then closed
 * under the options' dependencies; an option the version does not have counts as on
 * (nothing the version runs needs it). */
guint
ns_build_mitigations_built (const NsBuild *build)
{
  guint stated = 0;

  g_return_val_if_fail (build != NULL, NS_BUILT_ALL);

  for (guint bit = 1; bit <= NS_BUILT_ALL; bit <<= 1) {
    const char *key = ns_mitigation_option ((NsBuilt) bit, build->version);
    if (key == NULL || ns_build_config_tristate (build, key, NS_KCONFIG_Y) != NS_KCONFIG_N)
      stated |= bit;
  }
  return ns_mitigation_built_closure (stated);
}

/* Orders an array of char* by strcmp. */
static gint
compare_keys (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* Keys of set, sorted (a new NULL-terminated array). */
static char **
sorted_keys (GHashTable *set)
{
  GPtrArray *keys = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, set);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, g_strdup (key));
  g_ptr_array_sort (keys, compare_keys);
  g_ptr_array_add (keys, NULL);
  return (char **) g_ptr_array_free (keys, FALSE);
}

/* The .config options models have asked for (ns_build_get_config), whether the build
 * states them or not, sorted (a new NULL-terminated array). */
char **
ns_build_config_read (const NsBuild *build)
{
  g_return_val_if_fail (build != NULL, NULL);

  return sorted_keys (build->config_read);
}

/* Each option models have asked for, as the run took it, sorted: "KEY=STATE" for a
 * bool/tristate read (STATE y, m or n; "n|y" where reads took different states),
 * "KEY=VALUE" for another read of a stated option, and " (unstated)" after an option the
 * build does not state (a new NULL-terminated array). */
char **
ns_build_config_in_force (const NsBuild *build)
{
  char **keys;
  GPtrArray *lines;

  g_return_val_if_fail (build != NULL, NULL);

  keys = sorted_keys (build->config_read);
  lines = g_ptr_array_new ();
  for (char **k = keys; *k != NULL; k++) {
    const char *stated = g_hash_table_lookup (build->config, *k);
    g_autofree char *taken =
      taken_states (GPOINTER_TO_UINT (g_hash_table_lookup (build->config_taken, *k)));
    const char *value = taken ? taken : stated;

    g_ptr_array_add (lines, g_strdup_printf ("%s%s%s%s", *k, value ? "=" : "", value ? value : "",
                                             stated ? "" : CONFIG_UNSTATED));
  }
  g_strfreev (keys);
  g_ptr_array_add (lines, NULL);
  return (char **) g_ptr_array_free (lines, FALSE);
}

/* A line of ns_build_config_in_force split: its key (a new string), *value the value
 * the run took (a new string, NULL for an unstated option read as a string) and
 * *stated whether the build states the option. */
char *
ns_build_config_line_split (const char *line, char **value, gboolean *stated)
{
  const char *stop, *eq;

  g_return_val_if_fail (line != NULL && value != NULL && stated != NULL, NULL);

  *stated = !g_str_has_suffix (line, CONFIG_UNSTATED);
  stop = line + strlen (line) - (*stated ? 0 : strlen (CONFIG_UNSTATED));
  eq = memchr (line, '=', (size_t) (stop - line));
  *value = eq ? g_strndup (eq + 1, (gsize) (stop - eq - 1)) : NULL;
  return g_strndup (line, (gsize) ((eq ? eq : stop) - line));
}

/* The options read as bool/tristate (ns_build_config_tristate) whose value is not y, m
 * or n, sorted (a new NULL-terminated array, empty when none). */
char **
ns_build_config_bad (const NsBuild *build)
{
  g_return_val_if_fail (build != NULL, NULL);

  return sorted_keys (build->config_bad);
}

/* Adds note (a model's remark on what this build runs) once. */
void
ns_build_note (NsBuild *build, const char *note)
{
  g_return_if_fail (build != NULL && note != NULL);

  if (!g_hash_table_contains (build->notes, note))
    g_hash_table_add (build->notes, g_strdup (note));
}

/* Sets the error that a model does not cover the build's version, and marks the build. */
void
ns_build_refuse_version (NsBuild *build, GError **error, const char *format, ...)
{
  va_list args;

  g_return_if_fail (build != NULL && format != NULL);
  g_return_if_fail (error == NULL || *error == NULL);

  build->version_refused = TRUE;
  if (error == NULL)
    return;
  va_start (args, format);
  *error = g_error_new_valist (NS_ERROR, NS_ERROR_INPUT, format, args);
  va_end (args);
}

/* TRUE once a model has refused the build's version. */
gboolean
ns_build_version_refused (const NsBuild *build)
{
  g_return_val_if_fail (build != NULL, FALSE);

  return build->version_refused;
}

/* The notes models made (ns_build_note), sorted (a new NULL-terminated array). */
char **
ns_build_notes (const NsBuild *build)
{
  g_return_val_if_fail (build != NULL, NULL);

  return sorted_keys (build->notes);
}

/* Calls fn for every .config fact, sorted by key. */
void
ns_build_foreach_config (const NsBuild *build,
                         void (*fn) (const char *key, const char *value, gpointer data),
                         gpointer data)
{
  GList *keys;

  g_return_if_fail (build != NULL);
  g_return_if_fail (fn != NULL);

  keys = g_list_sort (g_hash_table_get_keys (build->config), (GCompareFunc) strcmp);
  for (GList *l = keys; l != NULL; l = l->next)
    fn (l->data, g_hash_table_lookup (build->config, l->data), data);
  g_list_free (keys);
}

/* ---- the inlining rules ---- */

G_GNUC_PRINTF (2, 3)
/* Interns a formatted reason in the build; the string is owned by the build. */
static const char *
build_reason (NsBuild *build, const char *format, ...)
{
  va_list args;
  char *text;
  const char *interned;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  interned = g_string_chunk_insert_const (build->reasons, text);
  g_free (text);
  return interned;
}

/* "static", "static inline" or "inline": how the function is declared. */
static const char *
linkage_name (const NsFunc *func)
{
  gboolean is_static = (func->attrs & NS_FN_STATIC) != 0;
  gboolean is_inline = (func->attrs & NS_FN_INLINE) != 0;

  if (is_static && is_inline)
    return "static inline";
  return is_static ? "static" : "inline";
}

/* Applies the rules to func; returns the decision and sets *reason. */
static gboolean
build_decide (NsBuild *build, const NsFunc *func, const char **reason)
{
  guint limit = build->inline_limit;
  guint size = func->text_bytes;
  guint sites;

  if (func->attrs & NS_FN_NOINLINE) {
    *reason = "noinline attribute";
    return FALSE;
  }
  if (func->attrs & NS_FN_ALWAYS_INLINE) {
    *reason = "__always_inline";
    return TRUE;
  }
  if (func->attrs & NS_FN_INDIRECT) {
    *reason = "reached indirectly";
    return FALSE;
  }
  if (!(func->attrs & NS_FN_STATIC)) {
    if (!(func->attrs & NS_FN_INLINE)) {
      *reason = "extern: called across translation units (no LTO)";
      return FALSE;
    }
    *reason = size <= limit
        ? build_reason (build, "header inline, %u B ≤ %u B limit", size, limit)
        : build_reason (build, "header inline, %u B > %u B inline limit", size, limit);
    return size <= limit;
  }
  sites = ns_build_call_sites (build, func);
  if (sites == 1) {
    *reason = "static, 1 call site: folded into its caller";
    return TRUE;
  }
  if (size <= limit) {
    *reason = build_reason (build, "%s, %u B ≤ %u B limit", linkage_name (func), size, limit);
    return TRUE;
  }
  *reason = build_reason (build, "%s, %u call site%s, %u B > %u B inline limit",
                          linkage_name (func), sites, sites == 1 ? "" : "s", size, limit);
  return FALSE;
}

/* Whether calls to func are inlined in this build, and why (cached per build). */
gboolean
ns_build_inlines (NsBuild *build, NsFunc *func, const char **reason)
{
  NsDecision *decision;

  g_return_val_if_fail (build != NULL, FALSE);
  g_return_val_if_fail (func != NULL, FALSE);

  ns_func_register (func);
  if (func->id >= build->decisions->len)
    g_array_set_size (build->decisions, func->id + 1);
  decision = &g_array_index (build->decisions, NsDecision, func->id);
  if (!decision->known) {
    decision->inlined = build_decide (build, func, &decision->reason);
    decision->known = TRUE;
  }
  if (reason != NULL)
    *reason = decision->reason;
  return decision->inlined;
}

/* Calls fn with the decision for every registered function, in id order. */
void
ns_build_foreach_decision (NsBuild *build,
                           void (*fn) (NsFunc *func, gboolean inlined, const char *reason,
                                       gpointer data),
                           gpointer data)
{
  guint n;

  g_return_if_fail (build != NULL);
  g_return_if_fail (fn != NULL);

  n = ns_func_count ();
  for (guint id = 1; id <= n; id++) {
    NsFunc *func = ns_func_by_id (id);
    const char *reason;
    gboolean inlined = ns_build_inlines (build, func, &reason);

    fn (func, inlined, reason, data);
  }
}
