/* mitigation.c — choosing the mitigations in force: the CPU profile's default for the
 * kernel version, then the kernel command line, parsed the way the kernel parses it
 * (arch/x86/kernel/cpu/bugs.c semantics: mitigations=off turns every selection off;
 * per-mitigation keys override; unknown keys are ignored; kernel/params.c's parse_args()
 * stops at a bare "--"). */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "mitigation.h"
#include "kchange.h"

typedef struct {
  const char *name;
  int         value;
} NsName;

static const NsName spectre_v2_names[] = {
  { "off", NS_SPECTRE_V2_OFF }, { "retpoline", NS_SPECTRE_V2_RETPOLINE },
  { "retpoline,generic", NS_SPECTRE_V2_RETPOLINE }, { "lfence", NS_SPECTRE_V2_LFENCE },
  { "retpoline,lfence", NS_SPECTRE_V2_LFENCE }, { "retpoline,amd", NS_SPECTRE_V2_LFENCE },
  { "eibrs", NS_SPECTRE_V2_EIBRS }, { "ibrs", NS_SPECTRE_V2_IBRS },
  { "eibrs,retpoline", NS_SPECTRE_V2_EIBRS_RETPOLINE },
  { "eibrs,lfence", NS_SPECTRE_V2_EIBRS_LFENCE }, { NULL, 0 }
};
static const NsName retbleed_names[] = {
  { "off", NS_RETBLEED_OFF }, { "unret", NS_RETBLEED_UNRET }, { "ibrs", NS_RETBLEED_IBRS },
  { "stuff", NS_RETBLEED_STUFF }, { "eibrs", NS_RETBLEED_EIBRS }, { "ibpb", NS_RETBLEED_IBPB },
  { NULL, 0 }
};
/* The values the kernel's parsers take (bugs.c spectre_v2_parse_cmdline()'s
 * mitigation_options[], retbleed_parse_cmdline(), srso_parse_cmdline()), where they differ
 * from the names profiles use; "auto" (and spectre_v2's "on") are handled apart. */
static const NsName spectre_v2_cmdline_names[] = {
  { "off", NS_SPECTRE_V2_OFF }, { "retpoline", NS_SPECTRE_V2_RETPOLINE },
  { "retpoline,generic", NS_SPECTRE_V2_RETPOLINE }, { "retpoline,amd", NS_SPECTRE_V2_LFENCE },
  { "retpoline,lfence", NS_SPECTRE_V2_LFENCE }, { "eibrs", NS_SPECTRE_V2_EIBRS },
  { "eibrs,retpoline", NS_SPECTRE_V2_EIBRS_RETPOLINE },
  { "eibrs,lfence", NS_SPECTRE_V2_EIBRS_LFENCE }, { "ibrs", NS_SPECTRE_V2_IBRS }, { NULL, 0 }
};
static const NsName retbleed_cmdline_names[] = {
  { "off", NS_RETBLEED_OFF }, { "unret", NS_RETBLEED_UNRET }, { "ibpb", NS_RETBLEED_IBPB },
  { "stuff", NS_RETBLEED_STUFF }, { NULL, 0 }
};
/* microcode and ibpb-vmexit do nothing on the paths modelled (no entry or return work) */
static const NsName srso_cmdline_names[] = {
  { "off", NS_SRSO_OFF }, { "microcode", NS_SRSO_OFF }, { "safe-ret", NS_SRSO_SAFE_RET },
  { "ibpb", NS_SRSO_IBPB }, { "ibpb-vmexit", NS_SRSO_OFF }, { NULL, 0 }
};
static const NsName srso_names[] = {
  { "off", NS_SRSO_OFF }, { "safe-ret", NS_SRSO_SAFE_RET }, { "ibpb", NS_SRSO_IBPB },
  { NULL, 0 }
};
static const NsName bug_names[] = {
  { "retbleed", NS_BUG_RETBLEED }, { "srso", NS_BUG_SRSO }, { "mds", NS_BUG_MDS },
  { "bhi", NS_BUG_BHI }, { NULL, 0 }
};
static const NsName bhi_names[] = {
  { "off", NS_BHI_OFF }, { "loop", NS_BHI_LOOP }, { "hw", NS_BHI_HW }, { NULL, 0 }
};

/* The Kconfig bools behind NsBuilt (arch/x86/Kconfig, each "default y"), in dependency
 * order: the name from v6.9 and the one before (Breno Leitao's "x86/bugs: Rename
 * CONFIG_... => CONFIG_MITIGATION_..." commits, merged with the x86/core pull for
 * v6.9-rc1), the change that brought the option (ALWAYS: retpolines and page-table
 * isolation, from 4.15, before any modelled kernel; the menu and the return-thunk,
 * UNRET, IBPB and IBRS entry options came with f43b9876e857, "x86/retbleed: Add fine
 * grained Kconfig knobs", in the Retbleed series, and its 5.18.14, 5.15.57 and 5.10.133
 * backports; SRSO's with fb3bd914b3ec; call depth tracking with retbleed=stuff in 6.2;
 * SPECTRE_BHI with the native BHI series) and the options its "depends on" needs (6.9 text:
 * MITIGATION_RETHUNK on MITIGATION_RETPOLINE; UNRET_ENTRY, SRSO and CALL_DEPTH_TRACKING
 * on MITIGATION_RETHUNK; the CPU_SUP_AMD/INTEL and X86_64 terms are taken as met).
 * Every option lies inside the mitigations menu ("if SPECULATION_MITIGATIONS", added with
 * the Retbleed series for v5.19), which =n takes away whole; fe42754b94a4 (v6.9-rc6, and
 * 6.8.9, 6.6.30, 6.1.90: NS_KCHANGE_CPU_MITIGATIONS_RENAME) renamed that menu
 * CONFIG_CPU_MITIGATIONS; the others took their CONFIG_MITIGATION_ names in v6.9-rc1
 * (NS_KCHANGE_MITIGATION_CONFIG_RENAMES). PAGE_TABLE_ISOLATION sits in it from 5.19
 * (security/Kconfig before, which the model does not tell apart). MITIGATION_SPECTRE_BHI
 * (4f511739c54b, v6.9-rc4, which replaced the SPECTRE_BHI_ON/OFF choice of v6.9-rc3) has
 * that name in mainline and in the 6.1.y/6.6.y/6.8.y backports of the BHI series alike. */
#define RENAMED_69 "the mitigation options took the CONFIG_MITIGATION_ names in 6.9-rc1"
#define RENAMES NS_KCHANGE_MITIGATION_CONFIG_RENAMES
#define ALWAYS  (-1)                   /* an option of every modelled kernel */
static const struct {
  NsBuilt           bit;
  const char       *name, *before;
  NsKernelChangeId  renamed;       /* the change that gave it name */
  const char       *why_renamed;
  gint              since;         /* the change that brought it, or ALWAYS */
  guint             depends;
} built_options[] = {
  { NS_BUILT_CPU_MITIGATIONS, "CONFIG_CPU_MITIGATIONS", "CONFIG_SPECULATION_MITIGATIONS",
    NS_KCHANGE_CPU_MITIGATIONS_RENAME, "x86's CONFIG_SPECULATION_MITIGATIONS became "
    "CONFIG_CPU_MITIGATIONS in 6.9-rc6 (fe42754b94a4; and in 6.8.9, 6.6.30, 6.1.90, "
    "5.15.158 and 5.10.216)", NS_KCHANGE_MITIGATIONS_MENU, 0 },
  { NS_BUILT_RETPOLINE, "CONFIG_MITIGATION_RETPOLINE", "CONFIG_RETPOLINE", RENAMES, RENAMED_69,
    ALWAYS, NS_BUILT_CPU_MITIGATIONS },
  { NS_BUILT_RETHUNK, "CONFIG_MITIGATION_RETHUNK", "CONFIG_RETHUNK", RENAMES, RENAMED_69,
    NS_KCHANGE_MITIGATIONS_MENU, NS_BUILT_RETPOLINE },
  { NS_BUILT_UNRET_ENTRY, "CONFIG_MITIGATION_UNRET_ENTRY", "CONFIG_CPU_UNRET_ENTRY", RENAMES,
    RENAMED_69, NS_KCHANGE_MITIGATIONS_MENU, NS_BUILT_RETHUNK },
  { NS_BUILT_IBPB_ENTRY, "CONFIG_MITIGATION_IBPB_ENTRY", "CONFIG_CPU_IBPB_ENTRY", RENAMES,
    RENAMED_69, NS_KCHANGE_MITIGATIONS_MENU, NS_BUILT_CPU_MITIGATIONS },
  { NS_BUILT_IBRS_ENTRY, "CONFIG_MITIGATION_IBRS_ENTRY", "CONFIG_CPU_IBRS_ENTRY", RENAMES,
    RENAMED_69, NS_KCHANGE_MITIGATIONS_MENU, NS_BUILT_CPU_MITIGATIONS },
  { NS_BUILT_SRSO, "CONFIG_MITIGATION_SRSO", "CONFIG_CPU_SRSO", RENAMES, RENAMED_69,
    NS_KCHANGE_SRSO, NS_BUILT_RETHUNK },
  { NS_BUILT_CALL_DEPTH_TRACKING, "CONFIG_MITIGATION_CALL_DEPTH_TRACKING",
    "CONFIG_CALL_DEPTH_TRACKING", RENAMES, RENAMED_69, NS_KCHANGE_RETBLEED_STUFF,
    NS_BUILT_RETHUNK },
  { NS_BUILT_PAGE_TABLE_ISOLATION, "CONFIG_MITIGATION_PAGE_TABLE_ISOLATION",
    "CONFIG_PAGE_TABLE_ISOLATION", RENAMES, RENAMED_69, ALWAYS, NS_BUILT_CPU_MITIGATIONS },
  { NS_BUILT_SPECTRE_BHI, "CONFIG_MITIGATION_SPECTRE_BHI", "CONFIG_MITIGATION_SPECTRE_BHI",
    RENAMES, NULL, NS_KCHANGE_BHI_KNOB, NS_BUILT_CPU_MITIGATIONS },
};

static int version_cmp_from (const char *version, const char *from);

/* The index in built_options of option, or -1. */
static gint
built_option_index (NsBuilt option)
{
  for (guint i = 0; i < G_N_ELEMENTS (built_options); i++)
    if (built_options[i].bit == option)
      return (gint) i;
  return -1;
}

/* The option's Kconfig name in version; see mitigation.h. */
const char *
ns_mitigation_option (NsBuilt option, const char *version)
{
  gint i = built_option_index (option);

  g_return_val_if_fail (i >= 0 && version != NULL, NULL);
  if (built_options[i].since != ALWAYS &&
      !ns_kernel_release_has (version, (NsKernelChangeId) built_options[i].since))
    return NULL;
  return ns_kernel_release_has (version, built_options[i].renamed) ? built_options[i].name
                                                                    : built_options[i].before;
}

/* Why option's name differs between kernel versions; see mitigation.h. */
const char *
ns_mitigation_option_renamed (NsBuilt option)
{
  gint i = built_option_index (option);

  g_return_val_if_fail (i >= 0, NULL);
  return built_options[i].why_renamed;
}

/* The option named key in some kernel version; see mitigation.h. */
NsBuilt
ns_mitigation_option_lookup (const char *key)
{
  g_return_val_if_fail (key != NULL, 0);

  for (guint i = 0; i < G_N_ELEMENTS (built_options); i++)
    if (!strcmp (key, built_options[i].name) || !strcmp (key, built_options[i].before))
      return built_options[i].bit;
  return 0;
}

/* stated closed under the options' dependencies; see mitigation.h. */
guint
ns_mitigation_built_closure (guint stated)
{
  guint built = 0;

  for (guint i = 0; i < G_N_ELEMENTS (built_options); i++)
    if ((stated & built_options[i].bit) &&
        (built & built_options[i].depends) == built_options[i].depends)
      built |= built_options[i].bit;
  return built;
}

/* Sets *out to the value table gives the name text; FALSE (*out untouched) if text is NULL
 * or not in table. */
static gboolean
name_parse (const NsName *table, const char *text, int *out)
{
  for (; table->name; table++)
    if (text && !strcmp (table->name, text)) {
      *out = table->value;
      return TRUE;
    }
  return FALSE;
}

/* The first name table gives value (its canonical spelling), or "?" if none. */
static const char *
name_of (const NsName *table, int value)
{
  for (; table->name; table++)
    if (table->value == value)
      return table->name;
  return "?";
}

/* The kernel's lower-case name of one bug. */
const char *
ns_bug_name (NsBug bug)
{
  return name_of (bug_names, bug);
}

/* Parses space-separated bug names into *mask; FALSE with *bad the first unknown name. */
gboolean
ns_bugs_parse (const char *text, guint *mask, char **bad)
{
  g_auto (GStrv) names = g_strsplit_set (text, " \t\n", -1);
  int bug;

  g_return_val_if_fail (text != NULL && mask != NULL && bad != NULL, FALSE);
  *mask = 0;
  for (guint i = 0; names[i]; i++) {
    if (*names[i] == '\0')
      continue;
    if (!name_parse (bug_names, names[i], &bug)) {
      *bad = g_strdup (names[i]);
      return FALSE;
    }
    *mask |= (guint) bug;
  }
  return TRUE;
}

/* Canonical name of a spectre_v2 mode. */
const char *
ns_spectre_v2_name (NsSpectreV2 mode)
{
  return name_of (spectre_v2_names, mode);
}

/* TRUE for the modes whose indirect calls go through __x86_indirect_thunk_*: those for
 * which spectre_v2_select_mitigation() sets X86_FEATURE_RETPOLINE (v5.17 to v6.9: the
 * retpoline and LFENCE modes, with eIBRS or without). */
gboolean
ns_spectre_v2_thunked (NsSpectreV2 mode)
{
  return mode == NS_SPECTRE_V2_RETPOLINE || mode == NS_SPECTRE_V2_LFENCE ||
         mode == NS_SPECTRE_V2_EIBRS_RETPOLINE || mode == NS_SPECTRE_V2_EIBRS_LFENCE;
}

/* TRUE for the modes bugs.c's spectre_v2_in_eibrs_mode() names (1e19da8522c8, v5.17). */
gboolean
ns_spectre_v2_in_eibrs_mode (NsSpectreV2 mode)
{
  return mode == NS_SPECTRE_V2_EIBRS || mode == NS_SPECTRE_V2_EIBRS_RETPOLINE ||
         mode == NS_SPECTRE_V2_EIBRS_LFENCE;
}

/* Canonical name of a retbleed mode. */
const char *
ns_retbleed_name (NsRetbleed mode)
{
  return name_of (retbleed_names, mode);
}

/* Canonical name of an SRSO mode. */
const char *
ns_srso_name (NsSrso mode)
{
  return name_of (srso_names, mode);
}

/* Canonical name of a BHI mode. */
const char *
ns_bhi_name (NsBhi mode)
{
  return name_of (bhi_names, mode);
}

/* Parses a spectre_v2 name (also the kernel's "retpoline,generic" spellings). */
gboolean
ns_spectre_v2_parse (const char *text, NsSpectreV2 *out)
{
  int v;
  if (!name_parse (spectre_v2_names, text, &v))
    return FALSE;
  *out = v;
  return TRUE;
}

/* Parses a retbleed name. */
gboolean
ns_retbleed_parse (const char *text, NsRetbleed *out)
{
  int v;
  if (!name_parse (retbleed_names, text, &v))
    return FALSE;
  *out = v;
  return TRUE;
}

/* Parses an spec_rstack_overflow (SRSO) name. */
gboolean
ns_srso_parse (const char *text, NsSrso *out)
{
  int v;
  if (!name_parse (srso_names, text, &v))
    return FALSE;
  *out = v;
  return TRUE;
}

/* Parses a BHI mode name. */
gboolean
ns_bhi_parse (const char *text, NsBhi *out)
{
  int v;
  if (!name_parse (bhi_names, text, &v))
    return FALSE;
  *out = v;
  return TRUE;
}

/* Reads "major.minor" from a version string; FALSE if it does not start that way or a
 * part is past G_MAXUINT64 (which strtoull would saturate to). */
static gboolean
version_parts (const char *v, guint64 *major, guint64 *minor)
{
  char *end;

  errno = 0;
  *major = g_ascii_strtoull (v, &end, 10);
  if (end == v || *end != '.' || errno == ERANGE)
    return FALSE;
  v = end + 1;
  *minor = g_ascii_strtoull (v, &end, 10);
  return end != v && errno != ERANGE;
}

/* TRUE if version starts with MAJOR.MINOR, each part within 64 bits; else FALSE with an
 * NS_ERROR_INPUT error. */
gboolean
ns_kernel_version_check (const char *version, GError **error)
{
  guint64 major, minor;

  g_return_val_if_fail (version != NULL, FALSE);

  if (version_parts (version, &major, &minor))
    return TRUE;
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "kernel version '%s': expected MAJOR.MINOR, "
               "each at most %" G_GUINT64_FORMAT, version, G_MAXUINT64);
  return FALSE;
}

/* Compares two kernel versions on major.minor. */
int
ns_kernel_version_cmp (const char *a, const char *b)
{
  guint64 amaj = 0, amin = 0, bmaj = 0, bmin = 0;

  version_parts (a, &amaj, &amin);
  version_parts (b, &bmaj, &bmin);
  if (amaj != bmaj)
    return amaj < bmaj ? -1 : 1;
  if (amin != bmin)
    return amin < bmin ? -1 : 1;
  return 0;
}

/* The release candidate of version, "6.9.0-rc4" or "6.9-rc4" → 4; none (a release, a bound
 * that names no candidate, or a stable candidate such as 6.9.1-rc1, which comes after the
 * 6.9 release) → none_value. */
static guint64
version_rc (const char *version, guint64 none_value)
{
  const char *rc = strstr (version, "-rc"), *p = version;
  char *end;
  guint64 n;

  if (rc == NULL || !g_ascii_isdigit (rc[3]))
    return none_value;
  while (g_ascii_isdigit (*p))                   /* MAJOR */
    p++;
  for (p += *p == '.'; g_ascii_isdigit (*p); p++) /* .MINOR */
    ;
  if (p != rc && strncmp (p, ".0-rc", 5) != 0)   /* a stable candidate: .N-rcM, N > 0 */
    return none_value;
  errno = 0;
  n = g_ascii_strtoull (rc + 3, &end, 10);
  return errno == ERANGE ? none_value : n;
}

/* Compares a and b on major.minor, then on their release candidates, a's read as rc_a
 * when it names none and b's as rc_b. */
static int
version_cmp_rc (const char *a, guint64 rc_a, const char *b, guint64 rc_b)
{
  int c = ns_kernel_version_cmp (a, b);
  guint64 ra = version_rc (a, rc_a), rb = version_rc (b, rc_b);

  if (c != 0 || ra == rb)
    return c;
  return ra < rb ? -1 : 1;
}

/* The stable sublevel of version ("5.4.55-rc1" → 55; none, "5.4", "6.2-rc1" or
 * "6.9.0-rc1" → 0), and (named may be NULL) whether it names one; past 64 bits it reads as
 * G_MAXUINT64. */
static guint64
version_sublevel (const char *version, gboolean *named)
{
  const char *p = version;
  char *end;
  guint64 n;

  while (g_ascii_isdigit (*p))                   /* MAJOR */
    p++;
  for (p += *p == '.'; g_ascii_isdigit (*p); p++) /* .MINOR */
    ;
  if (named != NULL)
    *named = p[0] == '.' && g_ascii_isdigit (p[1]);
  if (*p != '.' || !g_ascii_isdigit (p[1]))
    return 0;
  errno = 0;
  n = g_ascii_strtoull (p + 1, &end, 10);
  return errno == ERANGE ? G_MAXUINT64 : n;
}

/* Orders two kernel releases on major.minor, the stable sublevel, then the mainline
 * release candidate (see ns_kernel_release_cmp in mitigation.h). */
int
ns_kernel_release_cmp (const char *a, const char *b)
{
  int c = ns_kernel_version_cmp (a, b);
  guint64 sa, sb;

  if (c != 0)
    return c;
  sa = version_sublevel (a, NULL);
  sb = version_sublevel (b, NULL);
  if (sa != sb)
    return sa < sb ? -1 : 1;
  return version_cmp_rc (a, G_MAXUINT64, b, G_MAXUINT64);
}

/* Where version lies against a range's lower bound from: <0 before it, ≥0 in or after. A
 * version that names no candidate is the release, after every -rcN; a bound that names
 * none starts before -rc1, so "6.9" holds 6.9.0-rc1. */
static int
version_cmp_from (const char *version, const char *from)
{
  return version_cmp_rc (version, G_MAXUINT64, from, 0);
}

/* Where version lies against a range's upper bound to: >0 after it. A bound that names no
 * candidate ends after the release, so "6.8" holds 6.8.0-rc2 and 6.8. */
static int
version_cmp_to (const char *version, const char *to)
{
  return version_cmp_rc (version, G_MAXUINT64, to, G_MAXUINT64);
}

/* TRUE if version lies in from..to (inclusive); see mitigation.h. */
gboolean
ns_kernel_version_in_range (const char *version, const char *from, const char *to)
{
  g_return_val_if_fail (version != NULL && from != NULL && to != NULL, FALSE);

  return version_cmp_from (version, from) >= 0 && version_cmp_to (version, to) <= 0;
}

/* TRUE if the ranges a_from..a_to and b_from..b_to share a version; see mitigation.h. */
gboolean
ns_kernel_ranges_overlap (const char *a_from, const char *a_to, const char *b_from,
                          const char *b_to)
{
  g_return_val_if_fail (a_from && a_to && b_from && b_to, FALSE);

  return version_cmp_rc (a_from, 0, b_to, G_MAXUINT64) <= 0 &&
         version_cmp_rc (b_from, 0, a_to, G_MAXUINT64) <= 0;
}

/* Frees the strings of a profile default. */
void
ns_mitigation_default_clear (NsMitigationDefault *def)
{
  g_clear_pointer (&def->kernel_from, g_free);
  g_clear_pointer (&def->kernel_to, g_free);
  g_clear_pointer (&def->source, g_free);
}

/* Frees the explanation of mit. */
void
ns_mitigations_clear (NsMitigations *mit)
{
  g_clear_pointer (&mit->explain, g_strfreev);
  g_clear_pointer (&mit->notes, g_strfreev);
}

typedef struct {
  char *spectre_v2, *retbleed, *srso, *pti, *mds, *bhi;   /* why, per mitigation */
} NsWhy;

/* Sets the reason of every mitigation to a copy of text (NULL frees them all). */
static void
why_set_all (NsWhy *why, const char *text)
{
  char **slots[] = { &why->spectre_v2, &why->retbleed, &why->srso, &why->pti, &why->mds,
                     &why->bhi };
  for (guint i = 0; i < G_N_ELEMENTS (slots); i++) {
    g_free (*slots[i]);
    *slots[i] = g_strdup (text);
  }
}

/* Replaces the reason in *slot with a copy of text. */
static void
why_set (char **slot, const char *text)
{
  g_free (*slot);
  *slot = g_strdup (text);
}

/* The first of the n defaults whose kernel_from..kernel_to range (inclusive; see
 * ns_kernel_version_in_range) holds version, or NULL. */
const NsMitigationDefault *
ns_mitigation_default_find (const NsMitigationDefault *defaults, guint n, const char *version)
{
  for (guint i = 0; i < n; i++)
    if (ns_kernel_version_in_range (version, defaults[i].kernel_from, defaults[i].kernel_to))
      return &defaults[i];
  return NULL;
}

/* Parses "on" (TRUE) and "off" (FALSE) into *out; FALSE for anything else. */
static gboolean
parse_onoff (const char *value, gboolean *out)
{
  if (!strcmp (value, "on")) {
    *out = TRUE;
    return TRUE;
  }
  if (!strcmp (value, "off")) {
    *out = FALSE;
    return TRUE;
  }
  return FALSE;
}

/* What the command line asks for beyond per-key values: the kernel tests these in each
 * mitigation's select function, so they win whatever their place on the line. */
typedef struct {
  const NsMitigations *defaults;   /* the profile's, which "auto" restores */
  char                *off;        /* the mitigations=off argument in force, or NULL */
  char                *nospectre_v2;  /* the nospectre_v2 argument, or NULL */
  guint                unaffected;  /* the NsBug bits the CPU lacks */
  guint                features;    /* its NsCpuFeature bits */
  const char          *kernel;      /* the kernel version */
  const char          *from_profile;  /* why a default is in force */
  gboolean             retbleed_asked;  /* a retbleed= mode (not auto) is in force */
  gboolean             spectre_v2_asked;  /* a spectre_v2= mode the CPU runs (not auto) */
  char                *auto_nosmt;  /* the mitigations=auto,nosmt argument in force, or NULL */
  char                *mds_nosmt;   /* the mds=full,nosmt argument in force, or NULL */
  guint                built;       /* the NsBuilt bits the kernel build compiles in */
  gboolean             mitigations_given;  /* the line has a mitigations= the kernel takes */
} NsCmdline;

/* TRUE if the build compiles in option's code. */
static gboolean
built (const NsCmdline *cmd, NsBuilt option)
{
  return (cmd->built & option) != 0;
}

/* Why the build lacks option (newly allocated): "CONFIG_X=n", or, where Kconfig dropped it
 * for an option it depends on, "CONFIG_X is not built: it depends on CONFIG_Y, =n"; the
 * names are those of the kernel's version. */
static char *
not_built (const NsCmdline *cmd, NsBuilt option)
{
  const char *name = ns_mitigation_option (option, cmd->kernel);
  NsBuilt root = option;
  guint missing;

  while ((missing = built_options[built_option_index (root)].depends & ~cmd->built) != 0)
    root = (NsBuilt) (missing & -missing);      /* the first missing dependency */
  if (root == option)
    return g_strdup_printf ("%s=n", name ? name : "?");
  return g_strdup_printf ("%s is not built: it depends on %s, =n", name ? name : "?",
                          ns_mitigation_option (root, cmd->kernel));
}

/* The reason a mode is dropped for the build's lack of option (newly allocated):
 * not_built()'s words, a colon, then the kernel's consequence given by format. */
static char * G_GNUC_PRINTF (3, 4)
why_not_built (const NsCmdline *cmd, NsBuilt option, const char *format, ...)
{
  g_autofree char *lack = not_built (cmd, option), *consequence = NULL;
  va_list args;

  va_start (args, format);
  consequence = g_strdup_vprintf (format, args);
  va_end (args);
  return g_strdup_printf ("%s: %s", lack, consequence);
}

/* TRUE if the profile names the CPU's vendor (the generic profile does not). */
static gboolean
cpu_named (const NsCmdline *cmd)
{
  return (cmd->features & (NS_CPU_INTEL | NS_CPU_AMD)) != 0;
}

/* What one retbleed= value asks for, its words walked as retbleed_parse_cmdline() walks
 * them: the last mode word wins ("auto" the profile's default), "nosmt" changes nothing
 * modelled. */
typedef struct {
  gboolean   moded;   /* a mode word came (else the value changes nothing) */
  NsRetbleed mode;    /* the last one's mode */
  gboolean   asked;   /* it was not "auto" */
  gboolean   skipped; /* a "stuff" the kernel does not know yet was skipped */
} NsRetbleedArg;

/* Adds to *slot that the mitigation in force became mode_name, and why. */
static void
why_changed (char **slot, const char *mode_name, const char *because)
{
  g_autofree char *text = g_strdup_printf ("%s; " NS_MITIGATION_KERNEL_CHOSE "%s, as %s",
                                           *slot, mode_name, because);

  why_set (slot, text);
}

/* Parses value into *arg (auto_mode for "auto"); FALSE if a word is no mode nor nosmt.
 * Before 6.2 retbleed_parse_cmdline() does not know "stuff" and skips it ("Ignoring
 * unknown retbleed option"), so an earlier mode word stands: without knows_stuff it is
 * skipped too (a word of later kernels, not a typo). */
static gboolean
parse_retbleed (const char *value, NsRetbleed auto_mode, gboolean knows_stuff,
                NsRetbleedArg *arg)
{
  g_auto (GStrv) words = g_strsplit (value, ",", -1);
  int mode;

  for (guint i = 0; words[i]; i++) {
    if (!knows_stuff && !strcmp (words[i], "stuff"))
      arg->skipped = TRUE;
    if (!strcmp (words[i], "nosmt") || (!knows_stuff && !strcmp (words[i], "stuff")))
      continue;
    if (!strcmp (words[i], "auto"))
      mode = auto_mode;
    else if (!name_parse (retbleed_cmdline_names, words[i], &mode))
      return FALSE;
    arg->moded = TRUE;
    arg->mode = (NsRetbleed) mode;
    arg->asked = strcmp (words[i], "auto") != 0;
  }
  return words[0] != NULL;
}

/* Parses a spectre_bhi= value into *mode: "on" the loop (bhi_select() then picks), "off"
 * off, and from 6.11 (42c141fbb651) "vmexit": BHI_DIS_S where the CPU has it (bhi_ctrl;
 * bhi_select_mitigation() tries spec_ctrl_bhi_dis() first), else the BHB clearing loop on
 * VM exit only, none on the syscall paths modelled (off). Before 6.11 (without
 * knows_vmexit) spectre_bhi_parse_cmdline() logs "Ignoring unknown spectre_bhi option" for
 * "vmexit" and keeps what it had: *skipped becomes TRUE, *mode stays. FALSE for any other
 * value. */
static gboolean
parse_spectre_bhi (const char *value, gboolean knows_vmexit, gboolean bhi_ctrl, NsBhi *mode,
                   gboolean *skipped)
{
  *skipped = FALSE;
  if (!strcmp (value, "on"))
    *mode = NS_BHI_LOOP;
  else if (!strcmp (value, "off"))
    *mode = NS_BHI_OFF;
  else if (knows_vmexit && !strcmp (value, "vmexit"))
    *mode = bhi_ctrl ? NS_BHI_HW : NS_BHI_OFF;
  else if (!strcmp (value, "vmexit"))
    *skipped = TRUE;
  else
    return FALSE;
  return TRUE;
}

/* TRUE if the CPU has bug; if not, adds to *slot that the argument (reason) is ignored, as
 * the bug's select function returns early on a CPU without it. */
static gboolean
cpu_has_bug (const NsCmdline *cmd, NsBug bug, const char *reason, char **slot)
{
  g_autofree char *upper = NULL, *text = NULL;

  if (!(cmd->unaffected & bug))
    return TRUE;
  upper = g_ascii_strup (ns_bug_name (bug), -1);
  text = g_strdup_printf ("%s; %s " NS_MITIGATION_IGNORED "%s", *slot, reason, upper);
  why_set (slot, text);
  return FALSE;
}

/* TRUE for the command-line keys of one bug each (see NsBug). */
static gboolean
bug_key (const char *key)
{
  return !strcmp (key, "retbleed") || !strcmp (key, "spec_rstack_overflow") ||
         !strcmp (key, "mds") || !strcmp (key, "spectre_bhi");
}

/* Adds to *slot that a retbleed= value's "stuff" was skipped by a kernel before 6.2
 * (rb: the value as parse_retbleed() read it; mode_name: the mode in force after it):
 * what stays is an earlier mode word of the value or an earlier retbleed= mode, else
 * retbleed_cmd stays AUTO, which retbleed_select() then resolves. */
static void
note_stuff_skipped (char **slot, const NsRetbleedArg *rb, const NsCmdline *cmd,
                    const char *mode_name)
{
  const char *because = "this kernel's retbleed_parse_cmdline() does not know 'stuff' (6.2+) "
                        "and ignores it";
  g_autofree char *text = NULL;

  if (rb->moded || cmd->retbleed_asked) {
    why_changed (slot, mode_name, because);
    return;
  }
  text = g_strdup_printf ("%s; " NS_MITIGATION_KERNEL_CHOSE "its auto choice, as %s, so "
                          "retbleed_cmd stays AUTO", *slot, because);
  why_set (slot, text);
}

/* Applies retbleed=, spec_rstack_overflow=, mds= or spectre_bhi= to out when the CPU has
 * the bug (else notes it ignored); FALSE on a bad value, checked either way. */
static gboolean
apply_bug_arg (const char *key, const char *value, const char *reason, NsCmdline *cmd,
               NsMitigations *out, NsWhy *why)
{
  NsMitigations next = *out;
  NsRetbleedArg rb = { FALSE, out->retbleed, cmd->retbleed_asked, FALSE };
  gboolean ok, changes = TRUE, bhi_skipped = FALSE;
  char **slot;
  NsBug bug;
  int v;

  if (!strcmp (key, "retbleed")) {
    ok = value && parse_retbleed (value, cmd->defaults->retbleed,
                                  ns_kernel_release_has (cmd->kernel, NS_KCHANGE_RETBLEED_STUFF),
                                  &rb);
    next.retbleed = rb.mode;
    changes = rb.moded;
    bug = NS_BUG_RETBLEED, slot = &why->retbleed;
  } else if (!strcmp (key, "spec_rstack_overflow")) {
    v = out->srso;
    ok = value && name_parse (srso_cmdline_names, value, &v);
    next.srso = (NsSrso) v;
    bug = NS_BUG_SRSO, slot = &why->srso;
  } else if (!strcmp (key, "mds")) {
    ok = value && (!strcmp (value, "off") || !strcmp (value, "full") ||
                   !strcmp (value, "full,nosmt"));
    next.mds_verw = ok && strcmp (value, "off");
    bug = NS_BUG_MDS, slot = &why->mds;
    g_clear_pointer (&cmd->mds_nosmt, g_free);
    if (ok && !strcmp (value, "full,nosmt"))
      cmd->mds_nosmt = g_strdup (reason);
  } else {
    ok = value && parse_spectre_bhi (value, ns_kernel_release_has (cmd->kernel,
                                                                   NS_KCHANGE_SPECTRE_BHI_VMEXIT),
                                     (cmd->features & NS_CPU_BHI_CTRL) != 0, &next.bhi,
                                     &bhi_skipped);
    changes = !bhi_skipped;
    bug = NS_BUG_BHI, slot = &why->bhi;
  }
  if (ok && changes && cpu_has_bug (cmd, bug, reason, slot)) {
    *out = next;
    why_set (slot, reason);
    cmd->retbleed_asked = rb.asked;
  }
  if (ok && rb.skipped)
    note_stuff_skipped (slot, &rb, cmd, ns_retbleed_name (out->retbleed));
  if (ok && bhi_skipped)
    why_changed (slot, ns_bhi_name (out->bhi), "this kernel's spectre_bhi_parse_cmdline() "
                 "does not know 'vmexit' (6.11+) and ignores it");
  return ok;
}

/* Command-line keys (value NULL) and values the model reads that mainline gained after
 * some of the kernels it runs, each the change of the registry (sim/kchange.c) that brought
 * it: its first mainline release and the stable series that took it as a backport
 * ("5.15.57" names the 5.15.y series and its first release with the backport). A kernel
 * before the mainline release that is a listed release or a later one of its series runs
 * the backport (a version without a sublevel, "5.15", is 5.15.0, and a release candidate
 * of it comes before that); any other (a series that ended before the backport, a release
 * before it, or a mainline release candidate before the one that merged it) lacks the key
 * or value and reads it as that kernel does. non_amd: only on a CPU not AMD's (the value
 * was the kernel's before, but there its parser switched to auto). Values no stable series
 * took are read as the older kernel reads them elsewhere: retbleed=stuff before 6.2,
 * spectre_bhi=vmexit before 6.11. */
typedef struct {
  const char       *key, *value;
  NsKernelChangeId  change;
  gboolean          non_amd;
} NsBackport;

static const NsBackport backports[] = {
  { "spectre_bhi", NULL, NS_KCHANGE_BHI_KNOB, FALSE },
  { "retbleed", NULL, NS_KCHANGE_RETBLEED_PARAM, FALSE },
  { "spectre_v2", "ibrs", NS_KCHANGE_SPECTRE_V2_IBRS, FALSE },
  { "spec_rstack_overflow", NULL, NS_KCHANGE_SRSO, FALSE },
  { "spectre_v2", "retpoline,amd", NS_KCHANGE_SPECTRE_V2_RETPOLINE_AMD_ANY_CPU, TRUE },
  { "spectre_v2", "retpoline,lfence", NS_KCHANGE_SPECTRE_BHB_OPTIONS, FALSE },
  { "spectre_v2", "eibrs", NS_KCHANGE_SPECTRE_BHB_OPTIONS, FALSE },
  { "spectre_v2", "eibrs,retpoline", NS_KCHANGE_SPECTRE_BHB_OPTIONS, FALSE },
  { "spectre_v2", "eibrs,lfence", NS_KCHANGE_SPECTRE_BHB_OPTIONS, FALSE },
};

/* The releases of change id (its first mainline release, the stables that took it). */
static const NsKernelChange *
change_releases (NsKernelChangeId id)
{
  return &ns_kernel_change_info (id)->releases;
}

/* TRUE if kernel is change id's first mainline release or later (whatever the stables). */
static gboolean
mainline_has (const char *kernel, NsKernelChangeId id)
{
  return ns_kernel_release_cmp (kernel, change_releases (id)->mainline) >= 0;
}

/* The entry of backports for key (value NULL) or key=value that cmd's kernel predates
 * (and, for a non_amd value, on a CPU not AMD's), or NULL if the kernel has it. */
static const NsBackport *
backport_find (const char *key, const char *value, const NsCmdline *cmd)
{
  for (guint i = 0; i < G_N_ELEMENTS (backports); i++) {
    const NsBackport *b = &backports[i];
    if (strcmp (key, b->key) || g_strcmp0 (value, b->value) != 0 ||
        mainline_has (cmd->kernel, b->change) ||
        (b->non_amd && (cmd->features & NS_CPU_AMD)))
      continue;
    return b;
  }
  return NULL;
}

/* TRUE if kernel is entry's stable release or a later one of its series: entry "5.10.105"
 * holds 5.10.105 and 5.10.106, not 5.10.50, nor 5.10 (5.10.0) and its release candidates,
 * which come before 5.10.0; entry "6.4" (first release not verified) holds all of 6.4. */
static gboolean
series_release_has (const char *entry, const char *kernel)
{
  gboolean entry_named;

  if (ns_kernel_version_cmp (kernel, entry) != 0)
    return FALSE;
  version_sublevel (entry, &entry_named);
  return !entry_named || ns_kernel_release_cmp (kernel, entry) >= 0;
}

/* The entry of series whose stable releases hold kernel; see mitigation.h. */
const char *
ns_kernel_stable_series_find (const char *const *series, guint n, const char *kernel)
{
  g_return_val_if_fail (series != NULL && kernel != NULL, NULL);

  for (guint i = 0; i < n && series[i] != NULL; i++)
    if (series_release_has (series[i], kernel))
      return series[i];
  return NULL;
}

/* The entry of the stables of change whose releases hold kernel, or NULL if kernel runs
 * none that took the backport. */
static const char *
backport_series (NsKernelChangeId change, const char *kernel)
{
  const NsKernelChange *r = change_releases (change);

  return ns_kernel_stable_series_find (r->stables, G_N_ELEMENTS (r->stables), kernel);
}

/* The entry of the stables of change of kernel's series (major.minor), whether or not
 * kernel is as late as the release it names, or NULL. */
static const char *
backport_series_of (NsKernelChangeId change, const char *kernel)
{
  const NsKernelChange *r = change_releases (change);

  for (guint i = 0; i < G_N_ELEMENTS (r->stables) && r->stables[i] != NULL; i++)
    if (ns_kernel_version_cmp (kernel, r->stables[i]) == 0)
      return r->stables[i];
  return NULL;
}

/* A default that a stable release took with a change from a later mainline: the change,
 * and which mitigation it sets. */
typedef enum { BACKPORTED_BHI, BACKPORTED_SRSO, BACKPORTED_AMD_RETPOLINE } NsBackportedSlot;
static const struct {
  NsKernelChangeId change;
  NsBackportedSlot slot;
} backported_defaults[] = {
  { NS_KCHANGE_BHI_KNOB, BACKPORTED_BHI },
  { NS_KCHANGE_SRSO, BACKPORTED_SRSO },
  { NS_KCHANGE_AMD_GENERIC_RETPOLINE, BACKPORTED_AMD_RETPOLINE },
};

/* Takes into out slot's default of later, with why; for the AMD retpoline change only
 * where it turns the LFENCE retpoline into the generic one. */
static void
take_default (NsBackportedSlot slot, const NsMitigationDefault *later, NsMitigations *out,
              NsWhy *why, const char *reason)
{
  switch (slot) {
  case BACKPORTED_BHI:
    out->bhi = later->bhi;
    why_set (&why->bhi, reason);
    break;
  case BACKPORTED_SRSO:
    out->srso = later->srso;
    why_set (&why->srso, reason);
    break;
  case BACKPORTED_AMD_RETPOLINE:
    if (out->spectre_v2 == NS_SPECTRE_V2_LFENCE &&
        later->spectre_v2 == NS_SPECTRE_V2_RETPOLINE) {
      out->spectre_v2 = later->spectre_v2;
      why_set (&why->spectre_v2, reason);
    }
    break;
  }
}

/* Change id as a note names it: "7c693f54c873, x86/speculation: Add ...", or its title
 * alone where it has no single commit; newly allocated. */
static char *
change_text (NsKernelChangeId id)
{
  const NsKernelChangeInfo *c = ns_kernel_change_info (id);

  return c->commit != NULL ? g_strdup_printf ("%s, %s", c->commit, c->title)
                           : g_strdup (c->title);
}

/* The defaults a stable release took from a later mainline (backported_defaults): a kernel
 * before the change's mainline release whose stable release took it runs that
 * mitigation's default from the profile's range holding the mainline release, with why.
 * (Retbleed's series is left: retbleed_select runs from its mainline rc only.) */
static void
take_backported_defaults (const NsMitigationDefault *defaults, guint n, const char *kernel,
                          NsMitigations *out, NsWhy *why)
{
  for (guint i = 0; i < G_N_ELEMENTS (backported_defaults); i++) {
    NsKernelChangeId id = backported_defaults[i].change;
    const NsMitigationDefault *later;
    const char *series;
    g_autofree char *reason = NULL, *what = NULL;

    if (mainline_has (kernel, id) ||
        (series = backport_series (id, kernel)) == NULL ||
        (later = ns_mitigation_default_find (defaults, n, change_releases (id)->mainline)) ==
        NULL)
      continue;
    what = change_text (id);
    reason = g_strdup_printf ("CPU profile default for kernels %s to %s (%s), which kernel %s "
                              "runs: its stable series took %s (from %s)", later->kernel_from,
                              later->kernel_to, later->source, kernel, what, series);
    take_default (backported_defaults[i].slot, later, out, why, reason);
  }
}

/* TRUE if cmd's kernel lacks key (value NULL) or key=value: mainline came later and its
 * stable series never took the backport. */
static gboolean
kernel_lacks (const char *key, const char *value, const NsCmdline *cmd)
{
  const NsBackport *b = backport_find (key, value, cmd);

  return b != NULL && backport_series (b->change, cmd->kernel) == NULL;
}

/* TRUE if the CPU can run spectre_v2 mode as spectre_v2_parse_cmdline() requires: an
 * eIBRS mode (eibrs, eibrs,retpoline, eibrs,lfence: X86_FEATURE_IBRS_ENHANCED) where the
 * kernel's own choice (auto picks eIBRS first) is eIBRS, legacy IBRS on Intel; an unnamed
 * CPU runs every mode. The LFENCE modes' test for a serializing LFENCE
 * (X86_FEATURE_LFENCE_RDTSC) always passes: every profiled CPU is x86-64, whose LFENCE
 * Intel's init code and AMD's (family 10h on) make serializing. */
static gboolean
cpu_runs_spectre_v2 (const NsCmdline *cmd, NsSpectreV2 mode)
{
  if (ns_spectre_v2_in_eibrs_mode (mode))
    return !cpu_named (cmd) || ns_spectre_v2_in_eibrs_mode (cmd->defaults->spectre_v2);
  if (mode == NS_SPECTRE_V2_IBRS)
    return !cpu_named (cmd) || (cmd->features & NS_CPU_INTEL);
  return TRUE;
}

/* The build option spectre_v2 mode needs (RETPOLINE for a thunked mode, the eIBRS ones
 * with the thunks too; IBRS_ENTRY for legacy IBRS), or 0 for none. */
static NsBuilt
spectre_v2_build_need (NsSpectreV2 mode)
{
  return ns_spectre_v2_thunked (mode) ? NS_BUILT_RETPOLINE :
         mode == NS_SPECTRE_V2_IBRS ? NS_BUILT_IBRS_ENTRY : 0;
}

/* TRUE if cmd's build has what spectre_v2 mode needs. */
static gboolean
spectre_v2_mode_built (const NsCmdline *cmd, NsSpectreV2 mode)
{
  NsBuilt need = spectre_v2_build_need (mode);

  return need == 0 || built (cmd, need);
}

/* spectre_v2=VALUE: a mode of the kernel's mitigation_options[], "on"/"auto" the profile's
 * default; a mode the CPU cannot run, or one newer than the kernel (kernel_lacks: before
 * 5.17 eibrs, eibrs,retpoline and eibrs,lfence outside the stable series that took them),
 * falls back to that default, as the parser switches to auto. A mode the build lacks is
 * kept for spectre_v2_build_select(), whatever the CPU: spectre_v2_parse_cmdline()
 * (5.17-6.9) tests the build ("selected but not compiled in") before the CPU's eIBRS and
 * vendor. FALSE on a value the kernel does not take. */
static gboolean
apply_spectre_v2 (const char *value, const char *reason, NsCmdline *cmd,
                  NsMitigations *out, NsWhy *why)
{
  g_autofree char *text = NULL;
  int mode;

  cmd->spectre_v2_asked = FALSE;
  if (kernel_lacks ("spectre_v2", value, cmd)) {
    text = g_strdup_printf ("%s; %s: " NS_MITIGATION_KERNEL_CHOSE "its auto choice, as "
                            "kernel %s's spectre_v2_parse_cmdline() %s and switches to AUTO "
                            "select (the value is newer than this kernel release)",
                            cmd->from_profile, reason, cmd->kernel,
                            !strcmp (value, "retpoline,amd") ? "takes it on AMD only" :
                            "does not know the value");
    out->spectre_v2 = cmd->defaults->spectre_v2;
    why_set (&why->spectre_v2, text);
    return TRUE;
  }
  if (!strcmp (value, "on") || !strcmp (value, "auto"))
    mode = cmd->defaults->spectre_v2;
  else if (!name_parse (spectre_v2_cmdline_names, value, &mode))
    return FALSE;
  if (spectre_v2_mode_built (cmd, (NsSpectreV2) mode) &&
      !cpu_runs_spectre_v2 (cmd, (NsSpectreV2) mode)) {
    text = g_strdup_printf ("%s; %s: " NS_MITIGATION_KERNEL_CHOSE "its auto choice, as the "
                            "CPU has no %s", cmd->from_profile, reason,
                            ns_spectre_v2_in_eibrs_mode ((NsSpectreV2) mode) ?
                            "eIBRS with this kernel" : "legacy IBRS (Intel only)");
    out->spectre_v2 = cmd->defaults->spectre_v2;
    why_set (&why->spectre_v2, text);
    return TRUE;
  }
  out->spectre_v2 = (NsSpectreV2) mode;
  cmd->spectre_v2_asked = strcmp (value, "on") && strcmp (value, "auto");
  why_set (&why->spectre_v2, reason);
  return TRUE;
}

/* The command-line keys netsim reads (after '-' became '_'), each with the values it takes
 * (doc/manual.md, "Mitigations"; NULL for a bare word); any other key changes nothing. */
static const struct {
  const char *key;
  const char *values;
} cmdline_keys[] = {
  { "mitigations", "'off', 'auto', 'auto,nosmt'" },
  { "spectre_v2", "'off', 'on', 'auto', 'retpoline', 'retpoline,generic', "
                  "'retpoline,lfence', 'retpoline,amd', 'eibrs', 'eibrs,retpoline', "
                  "'eibrs,lfence', 'ibrs'" },
  { "nospectre_v2", NULL },
  { "retbleed", "'off', 'auto', 'unret', 'ibpb', 'stuff', each may carry ',nosmt'" },
  { "spec_rstack_overflow", "'off', 'microcode', 'safe-ret', 'ibpb', 'ibpb-vmexit'" },
  { "pti", "'on', 'off', 'auto'" },
  { "nopti", NULL },
  { "mds", "'off', 'full', 'full,nosmt'" },
  { "spectre_bhi", "'on', 'off', 'vmexit'" },
};

/* The index in cmdline_keys of key, or -1 if netsim reads no such key. */
static gint
cmdline_key_index (const char *key)
{
  for (guint i = 0; i < G_N_ELEMENTS (cmdline_keys); i++)
    if (!strcmp (cmdline_keys[i].key, key))
      return (gint) i;
  return -1;
}

/* Applies one key[=value] of the command line to out; FALSE on a bad value of a known key
 * (the error lists the values the key takes); a key netsim does not read changes nothing.
 * Later values of a key replace earlier ones; "auto" restores the profile default. */
static gboolean
apply_arg (const char *key, const char *value, NsCmdline *cmd, NsMitigations *out, NsWhy *why,
           GError **error)
{
  g_autofree char *reason = g_strdup_printf ("kernel command line: %s%s%s", key,
                                             value ? "=" : "", value ? value : "");
  gboolean ok = TRUE, is_auto = value && !strcmp (value, "auto");
  gint known = cmdline_key_index (key);

  if (known < 0)
    return TRUE;
  if (bug_key (key)) {
    ok = apply_bug_arg (key, value, reason, cmd, out, why);
  } else if (!strcmp (key, "mitigations")) {
    ok = value && (!strcmp (value, "off") || is_auto || !strcmp (value, "auto,nosmt"));
    g_clear_pointer (&cmd->off, g_free);
    g_clear_pointer (&cmd->auto_nosmt, g_free);
    if (ok && !strcmp (value, "off"))
      cmd->off = g_strdup (reason);
    if (ok && !strcmp (value, "auto,nosmt"))
      cmd->auto_nosmt = g_strdup (reason);
    cmd->mitigations_given = cmd->mitigations_given || ok;
  } else if (!strcmp (key, "spectre_v2")) {
    ok = value && apply_spectre_v2 (value, reason, cmd, out, why);
  } else if (!strcmp (key, "nospectre_v2")) {
    g_free (cmd->nospectre_v2);
    cmd->nospectre_v2 = g_strdup (reason);
  } else if (!strcmp (key, "pti")) {
    ok = value && (is_auto || parse_onoff (value, &out->pti));
    if (is_auto)
      out->pti = cmd->defaults->pti;
    why_set (&why->pti, reason);
  } else if (!strcmp (key, "nopti")) {
    out->pti = FALSE;
    why_set (&why->pti, reason);
  }
  if (!ok && (error == NULL || *error == NULL))
    g_set_error (error, NS_ERROR, NS_ERROR_INPUT,
                 "kernel command line: bad value in '%s%s%s' (%s= takes %s)", key,
                 value ? "=" : "", value ? value : "", key, cmdline_keys[known].values);
  return ok;
}

/* Turns every mitigation out selects off (the reasons are the caller's). */
static void
mitigations_all_off (NsMitigations *out)
{
  out->spectre_v2 = NS_SPECTRE_V2_OFF;
  out->retbleed = NS_RETBLEED_OFF;
  out->srso = NS_SRSO_OFF;
  out->pti = FALSE;
  out->mds_verw = FALSE;
  out->bhi = NS_BHI_OFF;
}

/* Applies what wins over per-key values: nospectre_v2 turns spectre_v2 off, and
 * mitigations=off every mitigation modelled (each select function tests
 * cpu_mitigations_off() first [K1, K8]); the reason changes only where a mitigation was
 * on, so one the CPU does not need keeps the profile's (sysfs: "Not affected"). */
static void
apply_overrides (const NsCmdline *cmd, NsMitigations *out, NsWhy *why)
{
  if (cmd->nospectre_v2) {
    out->spectre_v2 = NS_SPECTRE_V2_OFF;
    why_set (&why->spectre_v2, cmd->nospectre_v2);
  }
  if (cmd->off == NULL)
    return;
  if (out->spectre_v2 != NS_SPECTRE_V2_OFF)
    why_set (&why->spectre_v2, cmd->off);
  if (out->retbleed != NS_RETBLEED_OFF)
    why_set (&why->retbleed, cmd->off);
  if (out->srso != NS_SRSO_OFF)
    why_set (&why->srso, cmd->off);
  if (out->pti)
    why_set (&why->pti, cmd->off);
  if (out->mds_verw)
    why_set (&why->mds, cmd->off);
  if (out->bhi != NS_BHI_OFF)
    why_set (&why->bhi, cmd->off);
  mitigations_all_off (out);
}

/* spectre_v2's auto choice where the profile's is legacy IBRS (an Intel CPU with the
 * retbleed bug and no eIBRS): spectre_v2_select_mitigation() takes IBRS only while the
 * retbleed= command is not off, nor (6.2+) stuff, and else a generic retpoline
 * (spectre_v2_select_retpoline() on Intel). */
static void
spectre_v2_auto_select (const NsCmdline *cmd, NsMitigations *out, NsWhy *why)
{
  gboolean stuff = out->retbleed == NS_RETBLEED_STUFF &&
                   ns_kernel_release_has (cmd->kernel, NS_KCHANGE_RETBLEED_STUFF);

  if (cmd->spectre_v2_asked || !cmd->retbleed_asked || out->spectre_v2 != NS_SPECTRE_V2_IBRS)
    return;
  if (out->retbleed != NS_RETBLEED_OFF && !stuff)
    return;
  out->spectre_v2 = built (cmd, NS_BUILT_RETPOLINE) ? NS_SPECTRE_V2_RETPOLINE
                                                    : NS_SPECTRE_V2_OFF;
  why_changed (&why->spectre_v2, ns_spectre_v2_name (out->spectre_v2), stuff ?
               "its auto choice takes legacy IBRS only when retbleed= is not off or stuff "
               "(spectre_v2_select_mitigation(), 6.2+), else spectre_v2_select_retpoline()'s" :
               "its auto choice takes legacy IBRS only when retbleed= is not off "
               "(spectre_v2_select_mitigation()), else spectre_v2_select_retpoline()'s");
}

/* spectre_v2's auto choice on this build: the profile's default, except that legacy IBRS
 * needs IBRS_ENTRY (spectre_v2_select_mitigation() then goes on to
 * spectre_v2_select_retpoline(): a generic retpoline on Intel) and a retpoline needs
 * RETPOLINE (spectre_v2_select_retpoline() then has none to give: off). */
static NsSpectreV2
spectre_v2_auto_choice (const NsCmdline *cmd)
{
  NsSpectreV2 mode = cmd->defaults->spectre_v2;

  if (mode == NS_SPECTRE_V2_IBRS && !built (cmd, NS_BUILT_IBRS_ENTRY))
    mode = NS_SPECTRE_V2_RETPOLINE;
  if (ns_spectre_v2_thunked (mode) && !built (cmd, NS_BUILT_RETPOLINE))
    mode = NS_SPECTRE_V2_OFF;
  return mode;
}

/* spectre_v2 on a build without the mode's code (6.1-6.9 bugs.c): a mode asked for on the
 * command line is switched to auto by spectre_v2_parse_cmdline() (a thunked mode, the
 * eIBRS ones with the thunks too, without RETPOLINE, ibrs without IBRS_ENTRY: "selected
 * but not compiled in"); the
 * default's own path skips kernel IBRS without IBRS_ENTRY, and spectre_v2_select_retpoline()
 * gives none without RETPOLINE ("no mitigation available"). */
static void
spectre_v2_build_select (NsCmdline *cmd, NsMitigations *out, NsWhy *why)
{
  NsBuilt need = spectre_v2_build_need (out->spectre_v2);
  g_autofree char *because = NULL;
  NsSpectreV2 choice;

  if (spectre_v2_mode_built (cmd, out->spectre_v2))
    return;
  choice = spectre_v2_auto_choice (cmd);
  if (cmd->spectre_v2_asked)
    because = why_not_built (cmd, need, "spectre_v2_parse_cmdline() switches a mode the "
                             "build lacks to auto (\"selected but not compiled in\"), "
                             "whose choice on this build is %s", ns_spectre_v2_name (choice));
  else if (need == NS_BUILT_RETPOLINE)
    because = why_not_built (cmd, need, "spectre_v2_select_retpoline() finds no retpoline "
                             "compiled in, no mitigation available");
  else
    because = why_not_built (cmd, need, "the auto choice takes kernel IBRS only when "
                             "compiled in, else spectre_v2_select_retpoline()'s");
  cmd->spectre_v2_asked = FALSE;
  out->spectre_v2 = choice;
  why_changed (&why->spectre_v2, ns_spectre_v2_name (choice), because);
}

/* TRUE if spectre_v2's command is SPECTRE_V2_CMD_NONE (spectre_v2_parse_cmdline():
 * nospectre_v2, spectre_v2=off, or mitigations off, by the command line or the build),
 * the one case in which spectre_v2_select_mitigation() returns before it selects BHI
 * (6.9-6.14; 6.15's bhi_update_mitigation() likewise turns BHI off only for it). A mode
 * the build or the CPU lacks is switched to auto, not none. */
static gboolean
spectre_v2_cmd_none (const NsCmdline *cmd, const NsMitigations *out)
{
  return cmd->off != NULL || cmd->nospectre_v2 != NULL ||
         (cmd->spectre_v2_asked && out->spectre_v2 == NS_SPECTRE_V2_OFF);
}

/* TRUE if spectre_v2 mode's thunks count as mitigating BHI on cmd's kernel: a generic
 * retpoline, with eIBRS or without; the LFENCE ones too (they set X86_FEATURE_RETPOLINE as
 * well) until 69129794d94c (NS_KCHANGE_BHI_RETPOLINE_CHECK: v6.9-rc5, 6.8.8, 6.6.29, 6.1.88,
 * 5.15.157). */
static gboolean
bhi_retpoline_mitigates (const NsCmdline *cmd, NsSpectreV2 mode)
{
  if (mode == NS_SPECTRE_V2_RETPOLINE || mode == NS_SPECTRE_V2_EIBRS_RETPOLINE)
    return TRUE;
  return (mode == NS_SPECTRE_V2_LFENCE || mode == NS_SPECTRE_V2_EIBRS_LFENCE) &&
         !ns_kernel_release_has (cmd->kernel, NS_KCHANGE_BHI_RETPOLINE_CHECK);
}

/* The BHI selection once spectre_v2's is made, as spectre_v2_select_mitigation() calls
 * bhi_select_mitigation() (6.9): not at all with spectre_v2's command none, but also when
 * its auto choice is none (no retpoline built, or a CPU nothing is chosen for); a
 * retpoline mitigates BHI (RRSBA absent, or disabled with RRSBA_DIS_S:
 * bhi_retpoline_mitigates, so after 69129794d94c the LFENCE modes keep the loop);
 * BHI_DIS_S before the loop. */
static void
bhi_select (const NsCmdline *cmd, NsMitigations *out, NsWhy *why)
{
  if (out->bhi == NS_BHI_OFF)
    return;
  if (spectre_v2_cmd_none (cmd, out)) {
    out->bhi = NS_BHI_OFF;
    why_changed (&why->bhi, "off", "with spectre_v2 turned off (spectre_v2=off, nospectre_v2) "
                 "spectre_v2_select_mitigation() returns before bhi_select_mitigation()");
  } else if (bhi_retpoline_mitigates (cmd, out->spectre_v2)) {
    out->bhi = NS_BHI_OFF;
    why_changed (&why->bhi, "off", out->spectre_v2 == NS_SPECTRE_V2_LFENCE ||
                 out->spectre_v2 == NS_SPECTRE_V2_EIBRS_LFENCE ?
                 "the LFENCE retpoline sets X86_FEATURE_RETPOLINE, which counts as "
                 "mitigating BHI before 69129794d94c (bhi_select_mitigation())" :
                 "the generic retpoline mitigates BHI "
                 "(bhi_select_mitigation(), RRSBA absent or disabled)");
  } else if (out->bhi == NS_BHI_LOOP && (cmd->features & NS_CPU_BHI_CTRL)) {
    out->bhi = NS_BHI_HW;
    why_changed (&why->bhi, "hw", "the CPU has BHI_DIS_S, which spec_ctrl_bhi_dis() sets "
                 "instead of running the loop");
  }
}

/* The retbleed mode in force on an Intel CPU with the bug once spectre_v2's is chosen:
 * retbleed_select_mitigation() lets IBRS "trump all" (6.1-6.9): kernel IBRS or an eIBRS
 * mode (eibrs, eibrs,retpoline, eibrs,lfence) cover it, anything else leaves it
 * unmitigated, unless a retbleed= mode was asked for. */
static NsRetbleed
retbleed_of_spectre_v2 (NsSpectreV2 mode)
{
  return mode == NS_SPECTRE_V2_IBRS ? NS_RETBLEED_IBRS :
         ns_spectre_v2_in_eibrs_mode (mode) ? NS_RETBLEED_EIBRS : NS_RETBLEED_OFF;
}

/* retbleed's auto choice once spectre_v2 is chosen: on Intel spectre_v2's
 * (retbleed_of_spectre_v2); elsewhere the profile's default, where the AMD order of
 * retbleed_select_mitigation() applies on this build: the untrained return thunk if
 * UNRET_ENTRY is built, else IBPB on entry if IBPB_ENTRY is, else none. */
static NsRetbleed
retbleed_auto_choice (const NsCmdline *cmd, NsSpectreV2 spectre_v2)
{
  NsRetbleed mode = cmd->defaults->retbleed;

  if (cmd->features & NS_CPU_INTEL)
    return retbleed_of_spectre_v2 (spectre_v2);
  if (mode == NS_RETBLEED_UNRET && !built (cmd, NS_BUILT_UNRET_ENTRY))
    mode = NS_RETBLEED_IBPB;
  if (mode == NS_RETBLEED_IBPB && !built (cmd, NS_BUILT_IBPB_ENTRY))
    mode = NS_RETBLEED_OFF;
  return mode;
}

/* The NsBuilt option whose code retbleed mode runs (0: none of them). */
static NsBuilt
retbleed_needs (NsRetbleed mode)
{
  return mode == NS_RETBLEED_UNRET ? NS_BUILT_UNRET_ENTRY :
         mode == NS_RETBLEED_IBPB ? NS_BUILT_IBPB_ENTRY :
         mode == NS_RETBLEED_STUFF ? NS_BUILT_CALL_DEPTH_TRACKING : 0;
}

/* retbleed once spectre_v2 is chosen, as retbleed_select_mitigation() (5.19-6.9) does:
 * a mode whose code the build lacks (unret, ibpb, stuff) warns "kernel not compiled
 * with" it and takes the auto choice; retbleed=stuff needs kernel 6.2+ and
 * spectre_v2=retpoline too; the auto choice is retbleed_auto_choice's. Mainline from the
 * Retbleed series' rc (the registry's 7fbf47c7ce50, v5.19-rc7); the stable series that
 * took it (5.15.57, ...) keep their profile range's retbleed default (not modelled). */
static void
retbleed_select (const NsCmdline *cmd, NsMitigations *out, NsWhy *why)
{
  gboolean intel = (cmd->features & NS_CPU_INTEL) != 0;
  NsBuilt need = retbleed_needs (out->retbleed);
  g_autofree char *because = NULL;
  NsRetbleed choice;

  if ((cmd->unaffected & NS_BUG_RETBLEED) || cmd->off != NULL ||
      !mainline_has (cmd->kernel, NS_KCHANGE_RETBLEED_PARAM))
    return;
  if (need != 0 && !built (cmd, need)) {
    out->retbleed = retbleed_auto_choice (cmd, out->spectre_v2);
    because = why_not_built (cmd, need, "retbleed_select_mitigation() warns that the kernel "
                             "is not compiled with it and takes its auto choice%s",
                             intel ? " (on Intel, the spectre_v2 mode's)" :
                             " (the untrained return, else IBPB on entry, each if built)");
    why_changed (&why->retbleed, ns_retbleed_name (out->retbleed), because);
    return;
  }
  if (out->retbleed == NS_RETBLEED_STUFF && cmd->retbleed_asked &&
      (!ns_kernel_release_has (cmd->kernel, NS_KCHANGE_RETBLEED_STUFF) ||
       out->spectre_v2 != NS_SPECTRE_V2_RETPOLINE)) {
    out->retbleed = retbleed_auto_choice (cmd, out->spectre_v2);
    why_changed (&why->retbleed, ns_retbleed_name (out->retbleed),
                 !ns_kernel_release_has (cmd->kernel, NS_KCHANGE_RETBLEED_STUFF) ?
                 "retbleed=stuff came in 6.2-rc1 (d82a0345cf21)" :
                 "retbleed=stuff needs spectre_v2=retpoline");
    return;
  }
  if (!intel || cmd->retbleed_asked)
    return;
  choice = retbleed_of_spectre_v2 (out->spectre_v2);
  if (choice == out->retbleed)
    return;
  out->retbleed = choice;
  why_changed (&why->retbleed, ns_retbleed_name (choice), "on Intel the retbleed mitigation "
               "is the spectre_v2 mode's (IBRS or eIBRS cover it; anything else leaves it "
               "unmitigated)");
}

/* SRSO once retbleed is chosen: with retbleed=ibpb, srso_select_mitigation() (6.5-6.9)
 * uses the same IBPB on entry for SRSO whatever spec_rstack_overflow= asked; a mode whose
 * code the build lacks (Safe RET without SRSO, ibpb without IBPB_ENTRY) leaves SRSO
 * unmitigated, with a "kernel not compiled with" warning; and from 6.12 SRSO's IBPB on
 * entry drops retbleed's untrained return. */
static void
srso_select (const NsCmdline *cmd, NsMitigations *out, NsWhy *why)
{
  g_autofree char *because = NULL;
  NsBuilt need;

  if (!(cmd->unaffected & NS_BUG_SRSO) && out->retbleed == NS_RETBLEED_IBPB &&
      out->srso != NS_SRSO_OFF && out->srso != NS_SRSO_IBPB) {
    out->srso = NS_SRSO_IBPB;
    why_changed (&why->srso, "ibpb", "retbleed=ibpb's IBPB on entry serves SRSO too");
  }
  need = out->srso == NS_SRSO_SAFE_RET ? NS_BUILT_SRSO :
         out->srso == NS_SRSO_IBPB ? NS_BUILT_IBPB_ENTRY : 0;
  if (!(cmd->unaffected & NS_BUG_SRSO) && need != 0 && !built (cmd, need)) {
    because = why_not_built (cmd, need, "srso_select_mitigation() warns that the kernel "
                             "is not compiled with it and leaves SRSO unmitigated");
    out->srso = NS_SRSO_OFF;
    why_changed (&why->srso, "off", because);
  }
  /* from c62fa117c32b ("x86/bugs: Do not use UNTRAIN_RET with IBPB on entry", v6.12-rc4,
   * 6.11.5, 6.6.58, 6.1.114, ...), SRSO's IBPB on entry clears X86_FEATURE_UNRET and
   * X86_FEATURE_RETHUNK: no untrained return thunk, no UNTRAIN_RET at entry */
  if (out->srso == NS_SRSO_IBPB && out->retbleed == NS_RETBLEED_UNRET &&
      ns_kernel_release_has (cmd->kernel, NS_KCHANGE_SRSO_IBPB_DROPS_UNTRAIN_RET)) {
    out->retbleed = NS_RETBLEED_OFF;
    why_changed (&why->retbleed, "off", "SRSO's IBPB on entry drops the untrained return "
                 "(c62fa117c32b: v6.12-rc4, 6.11.5, 6.6.58, 6.1.114, 5.15.169, 5.10.228)");
  }
}

/* SMT once MDS is chosen: mds_select_mitigation() takes the SMT siblings offline
 * (cpu_smt_disable()) when the VERW mitigation is in force and mds=full,nosmt or
 * mitigations=auto,nosmt asked for it (6.1-6.9; an MSBDS-only part excepted, none
 * profiled). The other nosmt paths (L1TF, MMIO stale data, TAA; retbleed on a part
 * without STIBP) need bugs the profiles do not list: not modelled. */
static void
smt_select (const NsCmdline *cmd, NsMitigations *out, NsWhy *why)
{
  const char *asked = cmd->mds_nosmt ? cmd->mds_nosmt : cmd->auto_nosmt;
  g_autofree char *text = NULL;

  if (asked == NULL || !out->mds_verw || (cmd->unaffected & NS_BUG_MDS))
    return;
  out->smt_off = TRUE;
  /* what was asked, not the kernel's own choice: no "chose otherwise" mark */
  text = g_strdup_printf ("%s; with it mds_select_mitigation() takes the SMT siblings "
                          "offline, as %s asked (cpu_smt_disable(); the machine keeps one "
                          "CPU a core)", why->mds, cmd->mds_nosmt ? "mds=full,nosmt" :
                          "mitigations=auto,nosmt");
  why_set (&why->mds, text);
}

/* The BHI mitigation's default on this build: with MITIGATION_SPECTRE_BHI=n (4f511739c54b,
 * v6.9-rc4) bugs.c starts bhi_mitigation off instead of on, so the profile's loop or
 * BHI_DIS_S is not selected, while spectre_bhi=on on the command line still asks for it. */
static void
bhi_build_default (const NsCmdline *cmd, NsMitigations *out, NsWhy *why)
{
  g_autofree char *because = NULL;

  if (out->bhi == NS_BHI_OFF || built (cmd, NS_BUILT_SPECTRE_BHI))
    return;
  because = why_not_built (cmd, NS_BUILT_SPECTRE_BHI, "the BHI mitigation then defaults to "
                           "off (bugs.c, 4f511739c54b), which spectre_bhi=on would turn on");
  out->bhi = NS_BHI_OFF;
  why_changed (&why->bhi, "off", because);
}

/* Why the build turns every mitigation off (newly allocated), or NULL if it does not:
 * CPU_MITIGATIONS=n (SPECULATION_MITIGATIONS before fe42754b94a4) makes kernel/cpu.c's
 * cpu_mitigations default off from f337a6a21e2f (6.9-rc4, 6.8.7, 6.6.28, 6.1.87; before,
 * the option only took away the options of its menu), where a mitigations=auto on the
 * command line turns it on again, until ce0abef6a1d5 (6.9-rc6, 6.8.12, 6.6.33) has the
 * kernel ignore mitigations= on such a build:
 * from then on the command line's mitigations= is dropped from cmd. The per-key values
 * cannot turn on what cpu_mitigations_off() turns off (each select function tests it). */
static char *
cpu_mitigations_build_off (NsCmdline *cmd)
{
  const char *name = ns_mitigation_option (NS_BUILT_CPU_MITIGATIONS, cmd->kernel);

  if (name == NULL || built (cmd, NS_BUILT_CPU_MITIGATIONS) ||
      !ns_kernel_release_has (cmd->kernel, NS_KCHANGE_MITIGATIONS_BUILD_DEFAULT_OFF))
    return NULL;
  if (!ns_kernel_release_has (cmd->kernel, NS_KCHANGE_MITIGATIONS_PARAM_IGNORED))
    return cmd->mitigations_given ? NULL :
           g_strdup_printf ("%s=n: cpu_mitigations then defaults to off (kernel/cpu.c, "
                            "f337a6a21e2f), as with mitigations=off; mitigations=auto "
                            "would turn it on", name);
  g_clear_pointer (&cmd->off, g_free);
  g_clear_pointer (&cmd->auto_nosmt, g_free);
  return g_strdup_printf ("%s=n: cpu_mitigations then defaults to off (kernel/cpu.c, "
                          "f337a6a21e2f), as with mitigations=off, and the kernel ignores "
                          "mitigations= on such a build (ce0abef6a1d5)", name);
}

/* Turns every mitigation in force off, as the build's cpu_mitigations default does
 * (because, from cpu_mitigations_build_off; NULL: nothing to do), each marked as the
 * kernel's choice; cmd then holds because as its mitigations=off, which the selections
 * after it test. Takes because. */
static void
apply_build_off (NsCmdline *cmd, char *because, NsMitigations *out, NsWhy *why)
{
  if (because == NULL)
    return;
  if (out->spectre_v2 != NS_SPECTRE_V2_OFF)
    why_changed (&why->spectre_v2, "off", because);
  if (out->retbleed != NS_RETBLEED_OFF)
    why_changed (&why->retbleed, "off", because);
  if (out->srso != NS_SRSO_OFF)
    why_changed (&why->srso, "off", because);
  if (out->pti)
    why_changed (&why->pti, "off", because);
  if (out->mds_verw)
    why_changed (&why->mds, "off", because);
  if (out->bhi != NS_BHI_OFF)
    why_changed (&why->bhi, "off", because);
  mitigations_all_off (out);
  g_free (cmd->off);
  cmd->off = because;
}

/* PTI on this build: without PAGE_TABLE_ISOLATION (MITIGATION_PAGE_TABLE_ISOLATION from
 * 6.9) pti_check_boottime_disable() is an empty stub (asm/pti.h), so neither the profile's
 * default nor pti=on turns PTI on. */
static void
pti_build_select (const NsCmdline *cmd, NsMitigations *out, NsWhy *why)
{
  g_autofree char *because = NULL;

  if (!out->pti || built (cmd, NS_BUILT_PAGE_TABLE_ISOLATION))
    return;
  because = why_not_built (cmd, NS_BUILT_PAGE_TABLE_ISOLATION, "without PTI compiled in "
                           "pti_check_boottime_disable() does nothing");
  out->pti = FALSE;
  why_changed (&why->pti, "off", because);
}

/* TRUE for the bytes the kernel's isspace() takes (lib/ctype.c: '\t' to '\r', ' ', and
 * 0xa0, Latin-1's no-break space), which end an unquoted argument for next_arg(). */
static gboolean
kernel_isspace (char c)
{
  guchar u = (guchar) c;

  return u == ' ' || (u >= '\t' && u <= '\r') || u == 0xa0;
}

/* The arguments of cmdline as parse_args() walks them with lib/cmdline.c's next_arg(),
 * each as written (quotes kept, newly allocated, NULL-terminated): a space (kernel_isspace)
 * ends one only outside double quotes, each '"' opening or closing them, so that
 * dyndbg="file x.c -- y" is one argument; the spaces between arguments are skipped. */
static char **
split_cmdline (const char *cmdline)
{
  GPtrArray *args = g_ptr_array_new ();
  const char *p = cmdline ? cmdline : "";

  for (;;) {
    const char *start;
    gboolean in_quote = FALSE;
    while (kernel_isspace (*p))
      p++;
    if (*p == '\0')
      break;
    for (start = p; *p != '\0' && (in_quote || !kernel_isspace (*p)); p++)
      if (*p == '"')
        in_quote = !in_quote;
    g_ptr_array_add (args, g_strndup (start, p - start));
  }
  g_ptr_array_add (args, NULL);
  return (char **) g_ptr_array_free (args, FALSE);
}

/* Splits arg (one of split_cmdline's, changed in place) as next_arg() does: *param is the
 * text before the first '=' that is not its first byte, *value what follows (NULL without
 * one); a '"' opening the argument or the value is dropped, with a '"' that ends the
 * argument; any other '"' stays. */
static void
next_arg_parts (char *arg, char **param, char **value)
{
  gsize len = strlen (arg);
  gboolean quoted = arg[0] == '"';
  char *text = arg + (quoted ? 1 : 0);
  char *last = len > 0 ? arg + len - 1 : arg;
  char *eq = *text != '\0' ? strchr (text + 1, '=') : NULL;

  *param = text;
  *value = NULL;
  if (eq != NULL) {
    *eq = '\0';
    *value = eq + 1;
    if (**value == '"') {
      (*value)++;
      if (*last == '"')
        *last = '\0';
    }
  }
  if (quoted && *last == '"')
    *last = '\0';
}

/* Normalises one argument of split_cmdline's in place as parse_args() reads it
 * (next_arg_parts(), then '-' read as '_' in its key, as parameq() has it): returns the
 * key, *value the value (NULL if none). */
static char *
normalise_arg (char *arg, char **value)
{
  char *key;

  next_arg_parts (arg, &key, value);
  g_strdelimit (key, "-", '_');
  return key;
}

/* TRUE if arg (as written) ends the kernel's own arguments, as parse_args() stops at a
 * "--" that next_arg() gives without a value (kernel/params.c; so a quoted "--" too, and
 * not "--=x" nor a "--" inside another argument's quotes): what follows goes to init. */
static gboolean
ends_kernel_args (const char *arg)
{
  g_autofree char *copy = g_strdup (arg);
  char *param, *value;

  next_arg_parts (copy, &param, &value);
  return value == NULL && !strcmp (param, "--");
}

/* TRUE if the kernel reads key (normalised) not through parse_args() but with
 * cmdline_find_option(_bool) on the raw boot_command_line (arch/x86/lib/cmdline.c), past
 * any "--" too: spectre_v2= and nospectre_v2 (spectre_v2_parse_cmdline(), v6.1 and v6.9),
 * and before 6.7 pti= and nopti (pti_check_boottime_disable(); 9fa4dc9797f2, v6.7, made
 * them early_params). */
static gboolean
read_by_find_option (const char *key, const char *kernel)
{
  if (!strcmp (key, "spectre_v2") || !strcmp (key, "nospectre_v2"))
    return TRUE;
  return (!strcmp (key, "pti") || !strcmp (key, "nopti")) &&
         !ns_kernel_release_has (kernel, NS_KCHANGE_PTI_EARLY_PARAM);
}

/* The keys read_by_find_option() names take their argument's exact bytes (no quotes
 * dropped, '-' not '_'): FALSE with an error for another spelling of key (raw as written,
 * key and value as parse_args() would normalise it), which the kernel would not take;
 * kernel names the version where pti= and nopti are concerned. */
static gboolean
check_exact_spelling (const char *raw, const char *key, const char *value,
                      const char *kernel, GError **error)
{
  gboolean bare = !strcmp (key, "nospectre_v2") || !strcmp (key, "nopti");
  const char *finder = !strcmp (key, "pti") || !strcmp (key, "nopti") ?
                       "before 6.7 pti_check_boottime_disable()'s " : "";
  g_autofree char *exact = NULL, *with_value = NULL;

  /* cmdline_find_option_bool matches a bare key only as a whole word */
  exact = value != NULL && !bare ? g_strconcat (key, "=", value, NULL) : g_strdup (key);
  if (!strcmp (raw, exact))
    return TRUE;
  with_value = g_strconcat (key, "=", NULL);
  if (bare && g_str_has_prefix (raw, with_value))
    goto takes_no_value;
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "kernel command line: '%s': kernel %s reads "
               "%s by its exact spelling (%scmdline_find_option: no quotes, '-' is not '_') "
               "and would not take this; write '%s'", raw, kernel, key, finder, exact);
  return FALSE;

/* ERRORS */
takes_no_value:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "kernel command line: '%s': %s takes no "
               "value (%scmdline_find_option_bool matches the bare word only), so the kernel "
               "would not take this; write '%s'", raw, key, finder, key);
  return FALSE;
}

/* Checks the spelling (check_exact_spelling) of every argument of cmdline, before or
 * after a "--", that parse_args() would read as a key read_by_find_option() names. */
static gboolean
check_find_option_spellings (const char *cmdline, const char *kernel, GError **error)
{
  g_auto (GStrv) args = split_cmdline (cmdline);

  for (guint i = 0; args[i]; i++) {
    g_autofree char *copy = g_strdup (args[i]);
    char *value, *key = normalise_arg (copy, &value);
    if (read_by_find_option (key, kernel) &&
        !check_exact_spelling (args[i], key, value, kernel, error))
      return FALSE;
  }
  return TRUE;
}

/* The words cmdline_find_option(_bool) finds for the keys read_by_find_option() names:
 * the line split at every byte up to ' ' (its myisspace; quotes group nothing, a "--"
 * ends nothing), each word whose text before its first '=' is such a key, in order, as
 * written (newly allocated, NULL-terminated). So dyndbg="a nopti" gives 'nopti"', which is
 * no such key, and dyndbg="a nopti b" gives 'nopti', which the kernel finds too. */
static char **
find_option_words (const char *cmdline, const char *kernel)
{
  g_autofree char *spaced = g_strdup (cmdline ? cmdline : "");
  g_auto (GStrv) words = NULL;
  GPtrArray *found = g_ptr_array_new ();

  for (char *p = spaced; *p; p++)
    if ((guchar) *p <= ' ')
      *p = ' ';
  words = g_strsplit (spaced, " ", -1);
  for (guint i = 0; words[i]; i++) {
    g_autofree char *key = g_strndup (words[i], strcspn (words[i], "="));
    if (read_by_find_option (key, kernel))
      g_ptr_array_add (found, g_strdup (words[i]));
  }
  g_ptr_array_add (found, NULL);
  return (char **) g_ptr_array_free (found, FALSE);
}

/* Adds note to out->notes unless it is there already. */
static void
note_add (NsMitigations *out, const char *note)
{
  char **notes;

  if (out->notes != NULL && g_strv_contains ((const char *const *) out->notes, note))
    return;
  notes = ns_strv_append ((const char *const *) out->notes, note);
  g_strfreev (out->notes);
  out->notes = notes;
}

/* Adds to out->notes that the arguments to_init (as written, quoted and space-separated),
 * those after the "--", went to init. */
static void
note_after_dashes (const GString *to_init, const char *kernel, NsMitigations *out)
{
  g_autoptr (GString) shown = g_string_new (NULL);
  g_autofree char *note = NULL;

  ns_escape_controls (shown, to_init->str);
  note = g_strdup_printf ("kernel command line: parse_args() stops at '--' and passes the "
                          "words after it to init (%s), so the early parameters among them "
                          "(mitigations=, retbleed=, ...) are not applied; spectre_v2= and "
                          "nospectre_v2 are, as the kernel looks them up in the whole line "
                          "(cmdline_find_option)%s", *shown->str ? shown->str : "none",
                          !ns_kernel_release_has (kernel, NS_KCHANGE_PTI_EARLY_PARAM) ?
                          ", and so are pti= and nopti before 6.7-rc1" : "");
  note_add (out, note);
}

/* The arguments of cmdline (split_cmdline's) that parse_args() hands the early parameters:
 * every one up to the first bare "--" but those of the keys read_by_find_option() names
 * (find_option_words() gives what the kernel reads for them); if a "--" came,
 * out->notes says that the arguments after it went to init. */
static char **
kernel_words (const char *cmdline, const char *kernel, NsMitigations *out)
{
  g_auto (GStrv) args = split_cmdline (cmdline);
  GPtrArray *read = g_ptr_array_new ();
  g_autoptr (GString) to_init = NULL;

  for (guint i = 0; args[i]; i++) {
    g_autofree char *copy = g_strdup (args[i]);
    char *value, *key;
    if (to_init == NULL && ends_kernel_args (args[i])) {
      to_init = g_string_new (NULL);
      continue;
    }
    if (to_init != NULL) {
      g_string_append_printf (to_init, "%s'%s'", to_init->len ? " " : "", args[i]);
      continue;
    }
    key = normalise_arg (copy, &value);
    if (!read_by_find_option (key, kernel))
      g_ptr_array_add (read, g_strdup (args[i]));
  }
  if (to_init != NULL)
    note_after_dashes (to_init, kernel, out);
  g_ptr_array_add (read, NULL);
  return (char **) g_ptr_array_free (read, FALSE);
}

/* TRUE if arg (one of split_cmdline's) holds a word that cmdline_find_option(_bool) may
 * find (find_option_words() on a kernel before 6.7, so pti= and nopti count), as
 * dyndbg="a spectre_v2=off b" does. */
static gboolean
holds_find_option_word (const char *arg)
{
  g_auto (GStrv) found = find_option_words (arg, "0.0");

  return found[0] != NULL;
}

/* The words of cmdline whose key netsim reads not; see mitigation.h. */
char **
ns_mitigation_cmdline_unread (const char *cmdline)
{
  g_auto (GStrv) args = split_cmdline (cmdline);
  GPtrArray *unread = g_ptr_array_new ();

  for (guint i = 0; args[i] && !ends_kernel_args (args[i]); i++) {
    g_autofree char *copy = g_strdup (args[i]);
    char *value, *key = normalise_arg (copy, &value);
    if (cmdline_key_index (key) < 0 && !holds_find_option_word (args[i]))
      g_ptr_array_add (unread, g_strdup (args[i]));
  }
  g_ptr_array_add (unread, NULL);
  return (char **) g_ptr_array_free (unread, FALSE);
}

/* The keys netsim reads; see mitigation.h. */
char *
ns_mitigation_cmdline_keys (void)
{
  GString *keys = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cmdline_keys); i++)
    g_string_append_printf (keys, "%s%s%s", i ? ", " : "", cmdline_keys[i].key,
                            cmdline_keys[i].values ? "=" : "");
  return g_string_free (keys, FALSE);
}

/* The stable series of change as text: "5.18.y (from 5.18.14), 5.15.y (...) and 6.1.y";
 * newly allocated. */
static char *
backport_series_text (NsKernelChangeId change)
{
  const NsKernelChange *r = change_releases (change);
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (r->stables) && r->stables[i] != NULL; i++) {
    gboolean last = i + 1 == G_N_ELEMENTS (r->stables) || r->stables[i + 1] == NULL;
    guint64 major = 0, minor = 0;
    const char *dot;
    version_parts (r->stables[i], &major, &minor);
    dot = strchr (strchr (r->stables[i], '.') + 1, '.');
    g_string_append_printf (text, "%s%" G_GUINT64_FORMAT ".%" G_GUINT64_FORMAT ".y",
                            i == 0 ? "" : last ? " and " : ", ", major, minor);
    if (dot != NULL)
      g_string_append_printf (text, " (from %s)", r->stables[i]);
  }
  return g_string_free (text, FALSE);
}

/* Adds to out->notes what key (value NULL) or key=value, read on cmd's kernel, is to it
 * when the kernel predates it (backport_find): a backport its stable series took, which
 * the model assumes, or (kernel_lacks) a word that kernel does not know, read as it reads
 * it: an unknown parameter is passed on to init, an unknown spectre_v2= value switches to
 * auto. */
static void
note_backport (const char *key, const char *value, const NsCmdline *cmd, NsMitigations *out)
{
  const NsBackport *b = backport_find (key, value, cmd);
  g_autofree char *word = NULL, *series = NULL, *what = NULL, *note = NULL;
  const char *took, *own, *lacked, *since;

  if (b == NULL)
    return;
  word = g_strdup_printf ("%s=%s%s", key, value ? value : "",
                          b->non_amd ? " on a CPU not AMD's" : "");
  series = backport_series_text (b->change);
  what = change_text (b->change);
  since = change_releases (b->change)->mainline;
  took = backport_series (b->change, cmd->kernel);
  own = backport_series_of (b->change, cmd->kernel);
  lacked = value == NULL ? "the kernel does not know the parameter and passes it on to init, "
                           "so the default stands" :
           b->non_amd ? "spectre_v2_parse_cmdline() switches such a CPU to AUTO select" :
                        "spectre_v2_parse_cmdline() does not know the value and switches to "
                        "AUTO select";
  if (took != NULL)
    note = g_strdup_printf ("kernel command line: %s is mainline from %s (%s); kernel %s has "
                            "it only through a backport (taken by %s), which the model "
                            "assumes", word, since, what, cmd->kernel, series);
  else if (own != NULL)
    note = g_strdup_printf ("kernel command line: %s is mainline from %s (%s), and kernel %s "
                            "comes before %s, the first release of its series with the "
                            "backport (taken by %s): %s", word, since, what, cmd->kernel,
                            own, series, lacked);
  else
    note = g_strdup_printf ("kernel command line: %s is mainline from %s (%s), and kernel %s "
                            "is of no stable series that took it as a backport (%s did): %s",
                            word, since, what, cmd->kernel, series, lacked);
  note_add (out, note);
}

/* Applies one key[=value] the kernel reads (apply_arg), with the notes on keys and values
 * newer than the kernel (note_backport); a key the kernel lacks (kernel_lacks) changes
 * nothing, its value unchecked, as the kernel passes an unknown parameter on to init. */
static gboolean
apply_word (const char *key, const char *value, NsCmdline *cmd, NsMitigations *out,
            NsWhy *why, GError **error)
{
  if (kernel_lacks (key, NULL, cmd)) {
    note_backport (key, NULL, cmd, out);
    return TRUE;
  }
  if (!apply_arg (key, value, cmd, out, why, error))
    return FALSE;
  note_backport (key, NULL, cmd, out);
  if (value != NULL)
    note_backport (key, value, cmd, out);
  return TRUE;
}

/* Applies a whole command line to out (which holds the profile default, less the BHI
 * default a build without MITIGATION_SPECTRE_BHI does not have): each key's last value
 * among what the kernel reads: the early parameters as parse_args() hands them out
 * (kernel_words: next_arg()'s arguments, none after a bare "--"; '-' in a key is '_', as
 * parameq() has it, and quotes dropped as next_arg() drops them), then what
 * cmdline_find_option(_bool) finds in the whole line for the spectre_v2 keys (and before
 * 6.7 pti= and nopti; find_option_words(), spelled exactly: check_find_option_spellings());
 * the keys of the unaffected bugs ignored; then nospectre_v2 and mitigations=off wherever
 * they stand, and the build's CPU_MITIGATIONS=n as the kernel of the run reads it, then
 * the fallbacks of a build without a mode's code (built: NsBuilt bits), then what the
 * kernel selects after spectre_v2 (BHI, retbleed, SRSO). */
static gboolean
apply_cmdline (const char *cmdline, const NsMitigationDefault *def, const char *kernel,
               const char *from_profile, guint built, NsMitigations *out, NsWhy *why,
               GError **error)
{
  g_auto (GStrv) early = kernel_words (cmdline, kernel, out);
  g_auto (GStrv) found = find_option_words (cmdline, kernel);
  NsMitigations defaults = *out;
  NsCmdline cmd = { &defaults, NULL, NULL, def->unaffected, def->features, kernel,
                    from_profile, FALSE, FALSE, NULL, NULL, built, FALSE };
  gboolean ok = check_find_option_spellings (cmdline, kernel, error);
  char *build_off;

  bhi_build_default (&cmd, out, why);

  for (guint i = 0; early[i] && ok; i++) {
    char *value, *key = normalise_arg (early[i], &value);
    ok = apply_word (key, value, &cmd, out, why, error);
  }
  for (guint i = 0; found[i] && ok; i++) {
    char *eq = strchr (found[i], '=');
    if (eq != NULL)
      *eq = '\0';
    ok = apply_word (found[i], eq ? eq + 1 : NULL, &cmd, out, why, error);
  }
  if (ok) {
    build_off = cpu_mitigations_build_off (&cmd);
    apply_overrides (&cmd, out, why);
    apply_build_off (&cmd, build_off, out, why);
    pti_build_select (&cmd, out, why);
    spectre_v2_build_select (&cmd, out, why);
    spectre_v2_auto_select (&cmd, out, why);
    bhi_select (&cmd, out, why);
    retbleed_select (&cmd, out, why);
    srso_select (&cmd, out, why);
    smt_select (&cmd, out, why);
  }
  g_free (cmd.off);
  g_free (cmd.nospectre_v2);
  g_free (cmd.auto_nosmt);
  g_free (cmd.mds_nosmt);
  return ok;
}

/* The "NAME=MODE: why" line of each mitigation, as a newly allocated NULL-terminated array. */
static char **
explain_build (const NsMitigations *m, const NsWhy *why)
{
  GPtrArray *lines = g_ptr_array_new ();

  g_ptr_array_add (lines, g_strdup_printf ("spectre_v2=%s: %s",
                                           ns_spectre_v2_name (m->spectre_v2), why->spectre_v2));
  g_ptr_array_add (lines, g_strdup_printf ("retbleed=%s: %s",
                                           ns_retbleed_name (m->retbleed), why->retbleed));
  g_ptr_array_add (lines, g_strdup_printf ("spec_rstack_overflow=%s: %s",
                                           ns_srso_name (m->srso), why->srso));
  g_ptr_array_add (lines, g_strdup_printf ("pti=%s: %s", m->pti ? "on" : "off", why->pti));
  g_ptr_array_add (lines, g_strdup_printf ("mds=%s: %s", m->mds_verw ? "verw" : "off",
                                           why->mds));
  g_ptr_array_add (lines, g_strdup_printf ("bhi=%s: %s", ns_bhi_name (m->bhi), why->bhi));
  g_ptr_array_add (lines, NULL);
  return (char **) g_ptr_array_free (lines, FALSE);
}

/* The key=value parts of explain; see mitigation.h. */
char *
ns_mitigations_summary (char *const *explain)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; explain && explain[i]; i++) {
    const char *colon = strchr (explain[i], ':');
    if (s->len)
      g_string_append_c (s, ' ');
    g_string_append_len (s, explain[i], colon ? colon - explain[i] : (gssize) strlen (explain[i]));
  }
  return g_string_free (s, FALSE);
}

/* The value line gives key, and its mark; see mitigation.h. */
char *
ns_mitigation_explain_value (const char *line, const char *key, const char **mark)
{
  gsize klen;
  const char *value, *colon;

  g_return_val_if_fail (line != NULL && key != NULL && mark != NULL, NULL);
  klen = strlen (key);
  if (strncmp (line, key, klen) || line[klen] != '=')
    return NULL;
  value = line + klen + 1;
  colon = strchr (value, ':');
  *mark = strstr (colon ? colon : value, NS_MITIGATION_KERNEL_CHOSE) ? "~" :
          colon && g_str_has_prefix (colon, ": kernel command line") ? "*" :
          strstr (colon ? colon : value, NS_MITIGATION_IGNORED) ? "!" : "";
  return colon ? g_strndup (value, colon - value) : g_strdup (value);
}

/* Picks the profile default for kernel_version, then applies cmdline, on a build with
 * every mitigation compiled in. */
gboolean
ns_mitigations_select (const NsMitigationDefault *defaults, guint n_defaults,
                       const char *kernel_version, const char *cmdline,
                       NsMitigations *out, GError **error)
{
  return ns_mitigations_select_built (defaults, n_defaults, kernel_version, cmdline,
                                      NS_BUILT_ALL, out, error);
}

/* Picks the profile default for kernel_version, then applies cmdline on a build that
 * compiles in the NsBuilt bits built. */
gboolean
ns_mitigations_select_built (const NsMitigationDefault *defaults, guint n_defaults,
                             const char *kernel_version, const char *cmdline, guint built,
                             NsMitigations *out, GError **error)
{
  const NsMitigationDefault *def;
  NsWhy why = { 0 };
  g_autofree char *from_profile = NULL;
  gboolean ok;

  g_return_val_if_fail (kernel_version != NULL && out != NULL, FALSE);
  memset (out, 0, sizeof *out);
  def = ns_mitigation_default_find (defaults, n_defaults, kernel_version);
  if (def == NULL)
    goto no_default;
  out->spectre_v2 = def->spectre_v2;
  out->retbleed = def->retbleed;
  out->srso = def->srso;
  out->pti = def->pti;
  out->mds_verw = def->mds_verw;
  out->bhi = def->bhi;
  out->ibrs_enhanced = ns_spectre_v2_in_eibrs_mode (def->spectre_v2);
  out->cpu_features = def->features;
  from_profile = g_strdup_printf ("CPU profile default for kernels %s to %s (%s)",
                                  def->kernel_from, def->kernel_to, def->source);
  why_set_all (&why, from_profile);
  take_backported_defaults (defaults, n_defaults, kernel_version, out, &why);
  ok = apply_cmdline (cmdline, def, kernel_version, from_profile, built, out, &why, error);
  if (ok)
    out->explain = explain_build (out, &why);
  else
    ns_mitigations_clear (out);       /* the notes made before the refusal */
  why_set_all (&why, NULL);
  return ok;

/* ERRORS */
no_default:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT,
               "the CPU profile states no default mitigations for kernel %s", kernel_version);
  return FALSE;
}
