/* profile.h — CPU profiles: scenarios/cpus/NAME.xml, parameter values each with a source,
 * plus the mitigations Linux selects by default on that CPU per kernel version. */
#pragma once
#include "common.h"
#include "param.h"
#include "mitigation.h"

G_BEGIN_DECLS

typedef struct {
  char       *name;          /* file stem, e.g. "zen3-epyc-7713" */
  char       *model;         /* marketing name, e.g. "AMD EPYC 7713 (Zen 3, Milan)" */
  char       *description;
  char       *path;          /* file it was loaded from */
  NsParams   *params;        /* registry defaults overlaid with the profile's values */
  GPtrArray  *set_names;     /* names the profile itself set (char*) */
  GArray     *set_lines;     /* the line of each one's <param> (int), as set_names */
  GArray     *mitigation_defaults;  /* NsMitigationDefault */
  guint       unaffected;    /* NsBug bits its <bugs> leaves out (0 without <bugs>) */
  guint       features;      /* NsCpuFeature bits: vendor, BHI_DIS_S */
} NsCpuProfile;

/* Directory holding data files: $NETSIM_DATADIR, else the installed pkgdatadir, else the
 * source tree. Returns e.g. "/usr/share/netsim". */
const char   *ns_data_dir          (void);
/* Data files are <datadir>/SUBDIR/NAME.xml. */
#define NS_DATA_SUFFIX ".xml"
/* The path of data file name in <datadir>/subdir (the file need not exist); newly
 * allocated. */
char         *ns_data_file_path    (const char *subdir, const char *name);
/* Names (stems) of the regular *.xml files in <datadir>/subdir, sorted (char*, free with
 * g_ptr_array_unref; empty if none). */
GPtrArray    *ns_data_file_list    (const char *subdir);
/* TRUE if name_or_path names a file (contains '/' or ends in .xml), not a shipped name. */
gboolean      ns_data_file_is_path (const char *name_or_path);
/* The file name_or_path refers to among <datadir>/subdir's data files: a path as given, a
 * name as its file there if that exists; else NULL with an NS_ERROR_INPUT error "unknown
 * WHAT 'NAME' (available: AVAILABLE(); or give the path of a FILE_WORD file)". Newly
 * allocated. */
char         *ns_data_file_resolve (const char *subdir, const char *name_or_path,
                                    const char *what, const char *file_word,
                                    char *(*available) (void), GError **error);
/* The file name of path without folder and .xml suffix; newly allocated. */
char         *ns_data_file_stem    (const char *path);
/* Loads a profile by name (looked up in <datadir>/scenarios/cpus/) or by path (contains '/'
 * or ends in .xml). Validates against scenarios/cpu.rng; every <param> needs a source.
 * Errors name file:line. */
NsCpuProfile *ns_cpu_profile_load  (const char *name_or_path, GError **error);
void          ns_cpu_profile_free  (NsCpuProfile *profile);
/* Names of all shipped profiles, sorted (char*, free with g_ptr_array_unref). */
GPtrArray    *ns_cpu_profile_list  (void);
/* TRUE if the profile's file set parameter `name` itself (not a registry default). */
gboolean      ns_cpu_profile_sets  (const NsCpuProfile *profile, const char *name);
/* The line of the profile's <param> that set parameter `name`, or 0 if it sets none. */
int           ns_cpu_profile_param_line (const NsCpuProfile *profile, const char *name);

G_END_DECLS
