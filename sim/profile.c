/* profile.c — CPU profiles: scenarios/cpus/NAME.xml holds a CPU's parameter values, each
 * with its source, and the mitigations Linux selects on it by default per kernel version.
 * Adding a CPU is adding a data file; nothing here names a CPU. */
#include "config.h"
#include <string.h>
#include <libxml/tree.h>
#include "profile.h"
#include "xml.h"

#ifndef NS_DATADIR
#define NS_DATADIR "/usr/local/share/netsim"
#endif
#ifndef NS_SRCDIR
#define NS_SRCDIR "."
#endif

#define PROFILE_SUBDIR  "scenarios/cpus"
#define PROFILE_SCHEMA  "cpu.rng"
/* How the source of a fitted value begins (calibrate.c writes "fit on ROWS, residual R"). */
#define PROFILE_FIT_PREFIX "fit on "

/* What the loader keeps while it reads one file. */
typedef struct {
  const char   *path;
  NsCpuProfile *profile;
} NsProfileReader;

/* ---- data directory and listing ---- */

/* $NETSIM_DATADIR, else the installed pkgdatadir if it holds profiles, else the source
 * tree. The string is interned, so it stays valid when the environment changes. */
const char *
ns_data_dir (void)
{
  const char *env = g_getenv ("NETSIM_DATADIR");
  char *installed;
  gboolean found;

  if (env != NULL && env[0] != '\0')
    return g_intern_string (env);
  installed = g_build_filename (NS_DATADIR, PROFILE_SUBDIR, NULL);
  found = g_file_test (installed, G_FILE_TEST_IS_DIR);
  g_free (installed);
  return g_intern_static_string (found ? NS_DATADIR : NS_SRCDIR);
}

/* Sorts an array of char* by strcmp. */
static gint
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* TRUE if name is among the parameters the profile's file set. */
gboolean
ns_cpu_profile_sets (const NsCpuProfile *profile, const char *name)
{
  return ns_cpu_profile_param_line (profile, name) > 0;
}

/* The line of the profile's <param> for name, or 0 if it sets none. */
int
ns_cpu_profile_param_line (const NsCpuProfile *profile, const char *name)
{
  g_return_val_if_fail (profile != NULL && name != NULL, 0);
  for (guint i = 0; i < profile->set_names->len; i++)
    if (!strcmp (profile->set_names->pdata[i], name))
      return g_array_index (profile->set_lines, int, i);
  return 0;
}

/* The path of data file name in <datadir>/subdir; see profile.h. */
char *
ns_data_file_path (const char *subdir, const char *name)
{
  g_autofree char *file = g_strconcat (name, NS_DATA_SUFFIX, NULL);

  return g_build_filename (ns_data_dir (), subdir, file, NULL);
}

/* Sorted stems of the regular *.xml files in <datadir>/subdir (empty if none): a folder
 * or other non-file so named is no data file. */
GPtrArray *
ns_data_file_list (const char *subdir)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  char *dir_path = g_build_filename (ns_data_dir (), subdir, NULL);
  GDir *dir = g_dir_open (dir_path, 0, NULL);
  const char *entry;

  while (dir != NULL && (entry = g_dir_read_name (dir)) != NULL) {
    g_autofree char *path = g_build_filename (dir_path, entry, NULL);
    if (g_str_has_suffix (entry, NS_DATA_SUFFIX) && entry[0] != '.' &&
        strlen (entry) > strlen (NS_DATA_SUFFIX) &&
        g_file_test (path, G_FILE_TEST_IS_REGULAR))
      g_ptr_array_add (names, g_strndup (entry, strlen (entry) - strlen (NS_DATA_SUFFIX)));
  }
  if (dir != NULL)
    g_dir_close (dir);
  g_free (dir_path);
  g_ptr_array_sort (names, compare_strings);
  return names;
}

/* TRUE if the argument names a file rather than a shipped data file; see profile.h. */
gboolean
ns_data_file_is_path (const char *name_or_path)
{
  return strchr (name_or_path, '/') != NULL || g_str_has_suffix (name_or_path, NS_DATA_SUFFIX);
}

/* The file name without folder and .xml suffix; see profile.h. */
char *
ns_data_file_stem (const char *path)
{
  char *base = g_path_get_basename (path);

  if (g_str_has_suffix (base, NS_DATA_SUFFIX))
    base[strlen (base) - strlen (NS_DATA_SUFFIX)] = '\0';
  return base;
}

/* The path of the shipped profile name (its file need not exist); newly allocated. */
static char *
shipped_path (const char *name)
{
  return ns_data_file_path (PROFILE_SUBDIR, name);
}

/* Sorted names of the shipped profiles; see profile.h. */
GPtrArray *
ns_cpu_profile_list (void)
{
  return ns_data_file_list (PROFILE_SUBDIR);
}

/* ---- resolving a name to a file ---- */

/* "a, b (does not load), c" for the shipped profiles, as netsim list cpus lists them, or
 * "none". Newly allocated. */
static char *
available_names (void)
{
  g_autoptr (GPtrArray) names = ns_cpu_profile_list ();
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < names->len; i++) {
    g_autofree char *path = shipped_path (names->pdata[i]);
    NsCpuProfile *profile = ns_cpu_profile_load (path, NULL);
    g_string_append_printf (text, "%s%s%s", i ? ", " : "", (char *) names->pdata[i],
                            profile ? "" : " (does not load)");
    ns_cpu_profile_free (profile);
  }
  if (names->len == 0)
    g_string_append (text, "none");
  return g_string_free (text, FALSE);
}

/* The data file a name or path refers to; see profile.h. */
char *
ns_data_file_resolve (const char *subdir, const char *name_or_path, const char *what,
                      const char *file_word, char *(*available) (void), GError **error)
{
  g_autofree char *path = NULL;
  g_autofree char *names = NULL;

  if (ns_data_file_is_path (name_or_path))
    return g_strdup (name_or_path);
  path = ns_data_file_path (subdir, name_or_path);
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    goto unknown_name;
  return g_steal_pointer (&path);

/* ERRORS */
unknown_name:
  names = available ();
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "unknown %s '%s' (available: %s; or give "
               "the path of a %s file)", what, name_or_path, names, file_word);
  return NULL;
}

/* The file a profile name or path refers to; newly allocated, NULL with an error. */
static char *
resolve_profile_path (const char *name_or_path, GError **error)
{
  return ns_data_file_resolve (PROFILE_SUBDIR, name_or_path, "CPU profile", "profile",
                               available_names, error);
}

/* ---- reading elements ---- */

/* Reads a required attribute that must hold more than whitespace; newly allocated. */
static char *
required_text_attr (const NsProfileReader *reader, xmlNodePtr node, const char *attr,
                    GError **error)
{
  char *value = ns_xml_prop (node, attr);

  if (value != NULL && g_strstrip (value)[0] != '\0')
    return value;
  g_free (value);
  ns_xml_set_error_attr (error, reader->path, node, attr, "<%s>: attribute '%s' must not be "
                         "empty%s", (const char *) node->name, attr,
                  !strcmp (attr, "source") ? " (every value needs its source)" : "");
  return NULL;
}

/* Sets the vendor bit of profile->features from <cpu vendor="intel|amd"> (the schema
 * allows only those; absent: an unnamed CPU). */
static void
read_vendor (NsCpuProfile *profile, xmlNodePtr root)
{
  g_autofree char *vendor = ns_xml_prop (root, "vendor");

  if (vendor != NULL)
    profile->features |= !strcmp (vendor, "intel") ? NS_CPU_INTEL : NS_CPU_AMD;
}

/* Reads <cpu name model> and <description>; checks that name equals the file stem. */
static gboolean
read_header (NsProfileReader *reader, xmlNodePtr root, GError **error)
{
  NsCpuProfile *profile = reader->profile;
  char *stem = ns_data_file_stem (reader->path);

  profile->name = required_text_attr (reader, root, "name", error);
  if (profile->name == NULL)
    goto fail;
  if (strcmp (profile->name, stem) != 0)
    goto name_mismatch;
  profile->model = required_text_attr (reader, root, "model", error);
  if (profile->model == NULL)
    goto fail;
  read_vendor (profile, root);
  for (xmlNodePtr child = root->children; child != NULL; child = child->next)
    if (child->type == XML_ELEMENT_NODE && xmlStrEqual (child->name, BAD_CAST "description"))
      profile->description = ns_xml_text (child);
  if (profile->description == NULL)
    profile->description = g_strdup ("");
  g_free (stem);
  return TRUE;

/* ERRORS */
name_mismatch:
  ns_xml_set_error_attr (error, reader->path, root, "name",
                         "<cpu name=\"%s\"> must equal the file name without .xml ('%s')",
                  profile->name, stem);
fail:
  g_free (stem);
  return FALSE;
}

/* TRUE unless name is a free parameter (NsParamDef.free: fitted, not stated) whose source
 * is not a fit's: a profile holds one only as `netsim calibrate --fit` writes it. */
static gboolean
check_not_hand_set (const NsProfileReader *reader, xmlNodePtr node, const char *name,
                    const char *source, GError **error)
{
  const NsParamDef *def = ns_param_lookup (name);

  if (def == NULL || !def->free || g_str_has_prefix (source, PROFILE_FIT_PREFIX))
    return TRUE;
  ns_xml_set_error_attr (error, reader->path, node, "name",
                         "parameter %s is fitted, not stated: a profile holds it only as "
                         "`netsim calibrate --fit ROW…` writes it, with the source \""
                         PROFILE_FIT_PREFIX "ROWS, residual R\" (a fit on named calibration "
                         "rows, recorded in validation/calibration.xml); the shipped "
                         "scenarios carry their workload's fit in their own <param>, and "
                         "without a fit the registry default applies (netsim list params)",
                         name);
  return FALSE;
}

/* Reads one <param name value source> into the profile's parameter set. */
static gboolean
read_param (NsProfileReader *reader, xmlNodePtr node, GError **error)
{
  NsCpuProfile *profile = reader->profile;
  char *name = NULL, *value = NULL, *source = NULL;
  GError *local = NULL;
  int first_line, line;

  if (!(name = required_text_attr (reader, node, "name", error)) ||
      !(value = required_text_attr (reader, node, "value", error)) ||
      !(source = required_text_attr (reader, node, "source", error)))
    goto fail;
  first_line = ns_cpu_profile_param_line (profile, name);
  if (first_line > 0)
    goto duplicate;
  if (!check_not_hand_set (reader, node, name, source, error))
    goto fail;
  if (!ns_params_set (profile->params, name, value, source, &local))
    goto bad_value;
  g_ptr_array_add (profile->set_names, name);
  line = ns_xml_line (node);
  g_array_append_val (profile->set_lines, line);
  g_free (value);
  g_free (source);
  return TRUE;

/* ERRORS */
duplicate:
  ns_xml_set_error_attr (error, reader->path, node, "name", "parameter %s is already set at "
                         "line %d", name, first_line);
  goto fail;
bad_value:
  ns_xml_set_error_attr (error, reader->path, node,
                         ns_param_lookup (name) == NULL ? "name" : "value", "%s",
                         local->message);
  g_error_free (local);
fail:
  g_free (name);
  g_free (value);
  g_free (source);
  return FALSE;
}

/* TRUE if text is "MAJOR.MINOR" or "MAJOR.MINOR.0-rcN" (digits only), the forms version
 * ranges are written in. */
static gboolean
is_kernel_version (const char *text)
{
  const char *p = text;

  if (!g_ascii_isdigit (*p))
    return FALSE;
  while (g_ascii_isdigit (*p))
    p++;
  if (*p++ != '.' || !g_ascii_isdigit (*p))
    return FALSE;
  while (g_ascii_isdigit (*p))
    p++;
  if (g_str_has_prefix (p, ".0-rc") && g_ascii_isdigit (p[5])) {
    for (p += 5; g_ascii_isdigit (*p); p++)
      ;
  }
  return *p == '\0';
}

/* Reads a MAJOR.MINOR[.0-rcN] version attribute; newly allocated. */
static char *
read_version (const NsProfileReader *reader, xmlNodePtr node, const char *attr,
              GError **error)
{
  char *value = required_text_attr (reader, node, attr, error);

  if (value == NULL || (is_kernel_version (value) && ns_kernel_version_check (value, NULL)))
    return value;
  ns_xml_set_error_attr (error, reader->path, node, attr,
                         "<mitigations>: %s=\"%s\" is not a kernel version MAJOR.MINOR or "
                         "MAJOR.MINOR.0-rcN (e.g. 6.9, 6.9.0-rc4; "
                         "each part at most %" G_GUINT64_FORMAT ")",
                         attr, value, G_MAXUINT64);
  g_free (value);
  return NULL;
}

/* The four named choices of a <mitigations> element. */
typedef enum {
  CHOICE_SPECTRE_V2,
  CHOICE_RETBLEED,
  CHOICE_SRSO,
  CHOICE_BHI,
  CHOICE_N
} NsChoice;

static const struct {
  const char *attr;
  int         last;      /* highest enum value */
} choices[CHOICE_N] = {
  [CHOICE_SPECTRE_V2] = { "spectre_v2", NS_SPECTRE_V2_LAST },
  [CHOICE_RETBLEED]   = { "retbleed", NS_RETBLEED_IBPB },
  [CHOICE_SRSO]       = { "srso", NS_SRSO_IBPB },
  [CHOICE_BHI]        = { "bhi", NS_BHI_HW },
};

/* The canonical name of value v of choice c (names come from mitigation.c). */
static const char *
choice_name (NsChoice c, int v)
{
  switch (c) {
  case CHOICE_SPECTRE_V2: return ns_spectre_v2_name ((NsSpectreV2) v);
  case CHOICE_RETBLEED:   return ns_retbleed_name ((NsRetbleed) v);
  case CHOICE_SRSO:       return ns_srso_name ((NsSrso) v);
  case CHOICE_BHI:        return ns_bhi_name ((NsBhi) v);
  case CHOICE_N:          break;
  }
  g_assert_not_reached ();
}

/* Parses text as choice c into def; FALSE if it names no mode. */
static gboolean
choice_parse (NsChoice c, const char *text, NsMitigationDefault *def)
{
  switch (c) {
  case CHOICE_SPECTRE_V2: return ns_spectre_v2_parse (text, &def->spectre_v2);
  case CHOICE_RETBLEED:   return ns_retbleed_parse (text, &def->retbleed);
  case CHOICE_SRSO:       return ns_srso_parse (text, &def->srso);
  case CHOICE_BHI:        return ns_bhi_parse (text, &def->bhi);
  case CHOICE_N:          break;
  }
  g_assert_not_reached ();
}

/* "a, b, c": the valid names of choice c; newly allocated. */
static char *
choice_list (NsChoice c)
{
  GString *text = g_string_new (NULL);

  for (int v = 0; v <= choices[c].last; v++)
    g_string_append_printf (text, "%s%s", v ? ", " : "", choice_name (c, v));
  return g_string_free (text, FALSE);
}

/* Reads the attribute of choice c into def; on a bad name lists the valid ones. */
static gboolean
read_choice (const NsProfileReader *reader, xmlNodePtr node, NsChoice c,
             NsMitigationDefault *def, GError **error)
{
  char *value = required_text_attr (reader, node, choices[c].attr, error);
  char *valid;

  if (value == NULL)
    return FALSE;
  if (choice_parse (c, value, def)) {
    g_free (value);
    return TRUE;
  }
  valid = choice_list (c);
  ns_xml_set_error_attr (error, reader->path, node, choices[c].attr,
                         "<mitigations>: %s=\"%s\" is not one of %s", choices[c].attr, value,
                         valid);
  g_free (valid);
  g_free (value);
  return FALSE;
}

/* Reads a true/false attribute. */
static gboolean
read_bool (const NsProfileReader *reader, xmlNodePtr node, const char *attr,
           gboolean *out, GError **error)
{
  char *value = required_text_attr (reader, node, attr, error);
  gboolean ok = TRUE;

  if (value == NULL)
    return FALSE;
  if (!strcmp (value, "true") || !strcmp (value, "1"))
    *out = TRUE;
  else if (!strcmp (value, "false") || !strcmp (value, "0"))
    *out = FALSE;
  else
    ok = FALSE;
  if (!ok)
    ns_xml_set_error_attr (error, reader->path, node, attr,
                           "<mitigations>: %s=\"%s\" must be true or false", attr, value);
  g_free (value);
  return ok;
}

/* Reads the six mitigation settings of one <mitigations> element. */
static gboolean
read_choices (const NsProfileReader *reader, xmlNodePtr node, NsMitigationDefault *def,
              GError **error)
{
  for (NsChoice c = 0; c < CHOICE_N; c++)
    if (!read_choice (reader, node, c, def, error))
      return FALSE;
  return read_bool (reader, node, "pti", &def->pti, error) &&
         read_bool (reader, node, "mds", &def->mds_verw, error);
}

/* TRUE if the version ranges of a and b share a version. */
static gboolean
ranges_overlap (const NsMitigationDefault *a, const NsMitigationDefault *b)
{
  return ns_kernel_ranges_overlap (a->kernel_from, a->kernel_to, b->kernel_from,
                                   b->kernel_to);
}

/* Checks def's range: from ≤ to, and no overlap with ranges read before. */
static gboolean
check_range (const NsProfileReader *reader, xmlNodePtr node, const NsMitigationDefault *def,
             GError **error)
{
  GArray *defaults = reader->profile->mitigation_defaults;

  if (!ns_kernel_ranges_overlap (def->kernel_from, def->kernel_to, def->kernel_from,
                                 def->kernel_to))
    goto reversed;                      /* an empty range: from after to */
  for (guint i = 0; i < defaults->len; i++) {
    const NsMitigationDefault *other = &g_array_index (defaults, NsMitigationDefault, i);
    if (ranges_overlap (def, other)) {
      ns_xml_set_error (error, reader->path, node,
                      "<mitigations> kernels %s–%s overlap the range %s–%s at line %d",
                      def->kernel_from, def->kernel_to, other->kernel_from,
                      other->kernel_to, other->line);
      return FALSE;
    }
  }
  return TRUE;

/* ERRORS */
reversed:
  ns_xml_set_error_attr (error, reader->path, node, "kernel-from",
                         "<mitigations>: kernel-from=\"%s\" is after kernel-to=\"%s\"",
                         def->kernel_from, def->kernel_to);
  return FALSE;
}

/* Reads <bugs affected="srso ..." source>: the bugs the CPU has (see NsBug); an empty
 * (or blank) list means none. */
static gboolean
read_bugs (NsProfileReader *reader, xmlNodePtr node, GError **error)
{
  g_autofree char *affected = ns_xml_prop (node, "affected");     /* the schema requires it */
  g_autofree char *source = required_text_attr (reader, node, "source", error);
  g_autofree char *bad = NULL;
  guint mask;

  g_return_val_if_fail (affected != NULL, FALSE);
  if (source == NULL)
    return FALSE;
  if (!ns_bugs_parse (affected, &mask, &bad))
    goto unknown;
  reader->profile->unaffected = NS_BUGS_ALL & ~mask;
  return TRUE;

/* ERRORS */
unknown:
  ns_xml_set_error_attr (error, reader->path, node, "affected",
                         "<bugs>: affected=\"%s\": '%s' is not one of retbleed, srso, mds, "
                         "bhi", affected, bad);
  return FALSE;
}

/* Checks that def selects no mitigation of a bug the profile's <bugs> leaves out (the
 * kernel would not select it on such a CPU). */
static gboolean
check_affected (const NsProfileReader *reader, xmlNodePtr node, const NsMitigationDefault *def,
                GError **error)
{
  guint selected = (def->retbleed != NS_RETBLEED_OFF ? NS_BUG_RETBLEED : 0) |
                   (def->srso != NS_SRSO_OFF ? NS_BUG_SRSO : 0) |
                   (def->mds_verw ? NS_BUG_MDS : 0) | (def->bhi != NS_BHI_OFF ? NS_BUG_BHI : 0);
  guint wrong = selected & def->unaffected;

  if (wrong == 0)
    return TRUE;
  ns_xml_set_error (error, reader->path, node,
                    "<mitigations> mitigates %s, which <bugs> does not list as affected",
                    ns_bug_name ((NsBug) (wrong & -wrong)));
  return FALSE;
}

/* Checks that the kernel could select def's modes by default: spectre_v2's auto choice
 * (spectre_v2_select_mitigation(), 5.17-6.9) on an eIBRS CPU is plain eIBRS, never eIBRS
 * with a thunk, which only spectre_v2=eibrs,retpoline or eibrs,lfence asks for;
 * retbleed's (retbleed_select_mitigation()) is never call depth stuffing, which only
 * retbleed=stuff asks for, and takes IBRS or eIBRS only as the spectre_v2 mode in force. A
 * default is not run through the command-line rules, so one the kernel could not select
 * would be charged as written. */
static gboolean
check_selectable (const NsProfileReader *reader, xmlNodePtr node,
                  const NsMitigationDefault *def, GError **error)
{
  if (def->spectre_v2 == NS_SPECTRE_V2_EIBRS_RETPOLINE ||
      def->spectre_v2 == NS_SPECTRE_V2_EIBRS_LFENCE)
    goto eibrs_thunk;
  if (def->retbleed == NS_RETBLEED_STUFF)
    goto stuffing;
  if ((def->retbleed == NS_RETBLEED_IBRS && def->spectre_v2 != NS_SPECTRE_V2_IBRS) ||
      (def->retbleed == NS_RETBLEED_EIBRS && def->spectre_v2 != NS_SPECTRE_V2_EIBRS))
    goto not_spectre_v2s;
  return TRUE;

/* ERRORS */
eibrs_thunk:
  ns_xml_set_error_attr (error, reader->path, node, "spectre_v2",
                         "<mitigations>: spectre_v2=\"%s\" is a default the kernel's auto "
                         "selection could not make: on an eIBRS CPU it takes plain eIBRS "
                         "(spectre_v2_select_mitigation()), eIBRS with a thunk only when the "
                         "command line asks for it; write spectre_v2=\"eibrs\" and put "
                         "spectre_v2=%s on the scenario's kernel command line instead",
                         ns_spectre_v2_name (def->spectre_v2),
                         ns_spectre_v2_name (def->spectre_v2));
  return FALSE;
stuffing:
  ns_xml_set_error_attr (error, reader->path, node, "retbleed",
                         "<mitigations>: retbleed=\"stuff\" is never a default: the kernel "
                         "selects call depth stuffing only when the command line asks for "
                         "it (retbleed_select_mitigation()); put retbleed=stuff on the "
                         "scenario's kernel command line instead");
  return FALSE;
not_spectre_v2s:
  ns_xml_set_error_attr (error, reader->path, node, "retbleed",
                         "<mitigations>: retbleed=\"%s\" with spectre_v2=\"%s\" is no default "
                         "the kernel selects: its retbleed mode is %s only when spectre_v2 "
                         "is %s (retbleed_select_mitigation())",
                         ns_retbleed_name (def->retbleed), ns_spectre_v2_name (def->spectre_v2),
                         ns_retbleed_name (def->retbleed), ns_retbleed_name (def->retbleed));
  return FALSE;
}

/* Reads one <mitigations kernel-from kernel-to ... source> into the profile. */
static gboolean
read_mitigations (NsProfileReader *reader, xmlNodePtr node, GError **error)
{
  NsMitigationDefault def = { 0 };

  def.line = ns_xml_line (node);
  def.unaffected = reader->profile->unaffected;
  if (!(def.kernel_from = read_version (reader, node, "kernel-from", error)) ||
      !(def.kernel_to = read_version (reader, node, "kernel-to", error)) ||
      !(def.source = required_text_attr (reader, node, "source", error)) ||
      !read_choices (reader, node, &def, error) ||
      !check_selectable (reader, node, &def, error) ||
      !check_affected (reader, node, &def, error) ||
      !check_range (reader, node, &def, error))
    goto fail;
  g_array_append_val (reader->profile->mitigation_defaults, def);
  return TRUE;

/* ERRORS */
fail:
  ns_mitigation_default_clear (&def);
  return FALSE;
}

/* Completes profile->features (BHI_DIS_S if a default uses it: the kernel prefers it
 * whenever the CPU has it) and copies them into every default. */
static void
set_features (NsCpuProfile *profile)
{
  GArray *defaults = profile->mitigation_defaults;

  for (guint i = 0; i < defaults->len; i++)
    if (g_array_index (defaults, NsMitigationDefault, i).bhi == NS_BHI_HW)
      profile->features |= NS_CPU_BHI_CTRL;
  for (guint i = 0; i < defaults->len; i++)
    g_array_index (defaults, NsMitigationDefault, i).features = profile->features;
}

/* Reads the <bugs>, every <param> and <mitigations> child of root, in document order (the
 * schema puts <bugs> first). */
static gboolean
read_body (NsProfileReader *reader, xmlNodePtr root, GError **error)
{
  for (xmlNodePtr child = root->children; child != NULL; child = child->next) {
    if (child->type != XML_ELEMENT_NODE)
      continue;
    if (xmlStrEqual (child->name, BAD_CAST "bugs") && !read_bugs (reader, child, error))
      return FALSE;
    if (xmlStrEqual (child->name, BAD_CAST "param") && !read_param (reader, child, error))
      return FALSE;
    if (xmlStrEqual (child->name, BAD_CAST "mitigations") &&
        !read_mitigations (reader, child, error))
      return FALSE;
  }
  if (reader->profile->mitigation_defaults->len == 0)
    goto no_mitigations;
  set_features (reader->profile);
  return TRUE;

/* ERRORS */
no_mitigations:
  ns_xml_set_error (error, reader->path, root,
                  "<cpu> needs at least one <mitigations> element");
  return FALSE;
}

/* ---- loading ---- */

/* An empty profile for path: registry defaults, nothing set yet. */
static NsCpuProfile *
profile_new (const char *path)
{
  NsCpuProfile *profile = g_new0 (NsCpuProfile, 1);

  profile->path = g_strdup (path);
  profile->params = ns_params_new ();
  profile->set_names = g_ptr_array_new_with_free_func (g_free);
  profile->set_lines = g_array_new (FALSE, FALSE, sizeof (int));
  profile->mitigation_defaults = g_array_new (FALSE, TRUE, sizeof (NsMitigationDefault));
  g_array_set_clear_func (profile->mitigation_defaults,
                          (GDestroyNotify) ns_mitigation_default_clear);
  return profile;
}

/* Parses and validates path against cpu.rng; the document, or NULL with an error. */
static xmlDocPtr
parse_and_validate (const char *path, GError **error)
{
  g_autofree char *schema = ns_xml_schema_path (PROFILE_SCHEMA);

  return ns_xml_load (path, schema, error);
}

/* Loads a profile by shipped name or by file path; see profile.h. */
NsCpuProfile *
ns_cpu_profile_load (const char *name_or_path, GError **error)
{
  NsProfileReader reader = { 0 };
  NsCpuProfile *profile = NULL;
  xmlDocPtr doc = NULL;
  char *path;

  g_return_val_if_fail (name_or_path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  path = resolve_profile_path (name_or_path, error);
  if (path == NULL)
    return NULL;
  doc = parse_and_validate (path, error);
  if (doc == NULL)
    goto fail;
  profile = profile_new (path);
  reader.path = profile->path;
  reader.profile = profile;
  if (!read_header (&reader, xmlDocGetRootElement (doc), error) ||
      !read_body (&reader, xmlDocGetRootElement (doc), error))
    goto fail;
  xmlFreeDoc (doc);
  g_free (path);
  return profile;

/* ERRORS */
fail:
  g_clear_pointer (&profile, ns_cpu_profile_free);
  g_clear_pointer (&doc, xmlFreeDoc);
  g_free (path);
  return NULL;
}

/* Frees profile (NULL is fine). */
void
ns_cpu_profile_free (NsCpuProfile *profile)
{
  if (profile == NULL)
    return;
  g_free (profile->name);
  g_free (profile->model);
  g_free (profile->description);
  g_free (profile->path);
  ns_params_free (profile->params);
  g_ptr_array_unref (profile->set_names);
  g_array_unref (profile->set_lines);
  g_array_unref (profile->mitigation_defaults);
  g_free (profile);
}
