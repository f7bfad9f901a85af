/* build.h — simulated kernel functions and the compiler inlining model of a kernel build.
 *
 * Model code declares each kernel function it mirrors once, with its text size, its frame
 * (prologue + epilogue instructions) and its attributes. A kernel build (NsBuild) knows
 * how many call sites each function has in the variant it compiles (patches change that)
 * and decides, with GCC-like rules, whether a call is inlined. A non-inlined call pays
 * call + prologue/epilogue + return. */
#pragma once
#include <glib.h>
#include "kchange.h"

G_BEGIN_DECLS

typedef enum {
  NS_FN_EXTERN        = 0,        /* global symbol, called across translation units */
  NS_FN_STATIC        = 1 << 0,   /* file-local */
  NS_FN_INLINE        = 1 << 1,   /* declared `inline` */
  NS_FN_ALWAYS_INLINE = 1 << 2,   /* __always_inline */
  NS_FN_NOINLINE      = 1 << 3,   /* noinline */
  NS_FN_INDIRECT      = 1 << 4,   /* reached through a function pointer (never inlined there) */
  NS_FN_STRAIGHT      = 1 << 5,   /* straight-line: every call runs its whole text (synthetic
                                   * micro-benchmark functions; kernel functions never are) */
  NS_FN_ENDBR         = 1 << 6    /* frame_insns counts an endbr64: the census binary was
                                   * built with IBT (6.12.111's global functions) */
} NsFuncAttr;

/* A function's frame_insns when no binary gives them: the machine charges its
 * call.prologue_insns instead. */
#define NS_FRAME_UNKNOWN (-1)

struct _NsFunc {
  const char *name;        /* kernel symbol name, e.g. "compute_score" */
  guint       text_bytes;  /* x86-64 text size when not inlined (source in the model file) */
  gint        frame_insns; /* prologue + epilogue instructions a call runs besides its body
                            * and its call/ret (the ftrace site, the saved registers' pushes
                            * and pops, the stack frame), or NS_FRAME_UNKNOWN */
  guint       attrs;       /* NsFuncAttr bits */
  guint       call_sites;  /* call sites in the unpatched build (a patch may override) */
  /* filled in by the registry: */
  guint       id;          /* dense index, 0 = unregistered */
  guint64     text_addr;   /* simulated address of its text when emitted out of line */
};
typedef struct _NsFunc NsFunc;

/* Declares a model function: its symbol, text bytes, frame instructions (both from a
 * kernel binary: doc/census/, tests/tools/test-text-sizes.sh), attributes and call sites.
 * Usage, at file scope in a model file:
 *   NS_FUNC (fn_udp_rcv, "udp_rcv", 22, 1, NS_FN_EXTERN | NS_FN_INDIRECT, 1);   */
#define NS_FUNC(var, sym, bytes, frame, attr, sites) \
  NsFunc var = { (sym), (bytes), (frame), (attr), (sites), 0, 0 }

/* Registers a function (idempotent); gives it an id and a text address. */
void          ns_func_register   (NsFunc *func);
NsFunc       *ns_func_lookup     (const char *name);
guint         ns_func_count      (void);
NsFunc       *ns_func_by_id      (guint id);

typedef struct _NsBuild NsBuild;

/* A kernel build: version string ("6.9.0-rc1"), inline size limit in bytes of text. */
NsBuild      *ns_build_new            (const char *version, guint inline_limit_bytes);
void          ns_build_free           (NsBuild *build);
const char   *ns_build_version        (const NsBuild *build);
/* TRUE if build's kernel release has change id (sim/kchange.h); FALSE without a build: a
 * model set up with none runs its own code's release. */
gboolean      ns_build_has_change     (const NsBuild *build, NsKernelChangeId id);
/* Overrides the number of call sites of a function in this build (a patch's effect). */
void          ns_build_set_call_sites (NsBuild *build, const char *func_name, guint sites);
guint         ns_build_call_sites     (const NsBuild *build, const NsFunc *func);
/* Marks a patch as applied (models query it to pick their variant). */
void          ns_build_apply_patch    (NsBuild *build, const char *patch);
gboolean      ns_build_has_patch      (const NsBuild *build, const char *patch);
/* Kernel .config facts ("CONFIG_RETPOLINE" → "y"). */
void          ns_build_set_config     (NsBuild *build, const char *key, const char *value);
const char   *ns_build_get_config     (const NsBuild *build, const char *key);
/* A Kconfig bool/tristate option's state: n (not built), m (a module), y (built in). */
typedef enum { NS_KCONFIG_N, NS_KCONFIG_M, NS_KCONFIG_Y } NsKconfig;
/* key read as a bool/tristate: its state, or def when the build does not state it; a
 * value other than exactly y, m or n, or m for a bool (ns_build_config_is_bool), reads as
 * def and is kept for ns_build_config_bad (the run refuses it). Counts as asked for
 * (ns_build_config_read). */
NsKconfig     ns_build_config_tristate (const NsBuild *build, const char *key, NsKconfig def);
/* TRUE if key is one of the options models read that Kconfig declares bool (it cannot be
 * a module: y or n only), FALSE for a tristate or an option netsim does not know. */
gboolean      ns_build_config_is_bool  (const char *key);
/* The retpoline option's Kconfig name in the build's version: CONFIG_RETPOLINE, from v6.9
 * CONFIG_MITIGATION_RETPOLINE (renamed in 6.9-rc1). */
const char *ns_build_retpoline_option (const NsBuild *build);
/* The NsBuilt bits (mitigation.h) of the mitigation code the build compiles in: its
 * arch/x86/Kconfig options under the version's names (ns_mitigation_option), each on
 * unless n, closed under their "depends on" (ns_mitigation_built_closure). Reads them as
 * bools (ns_build_config_tristate): they count as asked for. */
guint       ns_build_mitigations_built (const NsBuild *build);
/* The options read as bool/tristate whose value is not y, m or n (or is m, for a bool),
 * sorted; a new NULL-terminated array, empty when none. */
char        **ns_build_config_bad     (const NsBuild *build);
/* The .config options models have asked for so far (ns_build_get_config), stated or
 * not, sorted; a new NULL-terminated array. After a run, an option set but not among
 * them changed nothing. */
char        **ns_build_config_read    (const NsBuild *build);
/* Each option models have asked for so far as the run took it, sorted: "KEY=y" (m, n) for
 * a bool/tristate read, "n|y" where reads took different states (models disagreeing on
 * an unstated option's default; the states in n, m, y order), "KEY=VALUE" for another read of a stated option, then
 * " (unstated)" where the build does not state it (no "=" for an unstated option read
 * as a string); a new NULL-terminated array. */
char        **ns_build_config_in_force (const NsBuild *build);
/* A line of ns_build_config_in_force split: its key (a new string), *value the value the
 * run took (a new string; NULL for an unstated option read as a string), *stated whether
 * the build states it. */
char         *ns_build_config_line_split (const char *line, char **value, gboolean *stated);
/* A model's note on what this build runs that the user should know (e.g. rules of
 * another kernel version than the scenario's), kept once; ns_build_notes gives them
 * sorted, a new NULL-terminated array. */
void          ns_build_note           (NsBuild *build, const char *note);
char        **ns_build_notes          (const NsBuild *build);
/* Sets an NS_ERROR_INPUT error (printf format) for a model that does not cover this
 * build's kernel version, and marks the build (ns_build_version_refused), so that the run
 * blames the scenario's kernel version: file:line, and the set behind it. */
void          ns_build_refuse_version (NsBuild *build, GError **error, const char *format, ...)
                                       G_GNUC_PRINTF (3, 4);
/* TRUE once a model has refused this build's kernel version (ns_build_refuse_version). */
gboolean      ns_build_version_refused (const NsBuild *build);
/* The inlining decision for calls to func in this build, and why (static string-ish,
 * owned by the build). Decisions are cached. */
gboolean      ns_build_inlines        (NsBuild *build, NsFunc *func, const char **reason);
/* Calls fn with the decision (and its reason) for every registered function, in id order. */
void          ns_build_foreach_decision (NsBuild *build,
                                         void (*fn) (NsFunc *func, gboolean inlined,
                                                     const char *reason, gpointer data),
                                         gpointer data);
/* The inline size limit the build was created with. */
guint         ns_build_inline_limit   (const NsBuild *build);
/* The applied patches, sorted by name; free with g_strfreev(). */
char        **ns_build_dup_patches    (const NsBuild *build);
/* Calls fn for every .config fact, sorted by key. */
void          ns_build_foreach_config (const NsBuild *build,
                                       void (*fn) (const char *key, const char *value,
                                                   gpointer data),
                                       gpointer data);

G_END_DECLS
