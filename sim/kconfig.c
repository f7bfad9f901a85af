/* kconfig.c — kernel config packages: the loader of scenarios/configs/NAME.xml and of a
 * .config file as make writes it (/boot/config-*). A package only holds values; the
 * build (build.c) reads them as it reads a scenario's <config>. */
#include "config.h"
#include <string.h>
#include <libxml/tree.h>
#include "build.h"
#include "common.h"
#include "kconfig.h"
#include "mitigation.h"
#include "profile.h"
#include "xml.h"

#define KCONFIG_SUBDIR "scenarios/configs"
#define KCONFIG_SCHEMA "kconfig.rng"

struct _NsKconfigPackage {
  char       *name;
  char       *kernel;
  char       *path;
  GPtrArray  *names;    /* char*, NULL-terminated */
  GPtrArray  *values;   /* char*, NULL-terminated */
  GHashTable *by_name;  /* name → value (borrowed from the arrays) */
  GHashTable *lines;    /* a .config's: name → its line (GUINT_TO_POINTER), else NULL */
};

/* Sorted names of the shipped packages; see kconfig.h. */
GPtrArray *
ns_kconfig_package_list (void)
{
  return ns_data_file_list (KCONFIG_SUBDIR);
}

/* "a, b" for the shipped packages, or "none"; newly allocated. */
static char *
available_names (void)
{
  g_autoptr (GPtrArray) names = ns_kconfig_package_list ();

  if (names->len == 0)
    return g_strdup ("none");
  g_ptr_array_add (names, NULL);
  return g_strjoinv (", ", (char **) names->pdata);
}

/* The file a package name or path refers to; newly allocated, NULL with an error. */
static char *
resolve_path (const char *name_or_path, GError **error)
{
  return ns_data_file_resolve (KCONFIG_SUBDIR, name_or_path, "kernel config package",
                               "package or .config", available_names, error);
}

/* Creates an empty package loaded from path. */
static NsKconfigPackage *
package_new (const char *path)
{
  NsKconfigPackage *package = g_new0 (NsKconfigPackage, 1);

  package->path = g_strdup (path);
  package->names = g_ptr_array_new_with_free_func (g_free);
  package->values = g_ptr_array_new_with_free_func (g_free);
  package->by_name = g_hash_table_new (g_str_hash, g_str_equal);
  return package;
}

/* Appends option name = value (not yet in package). */
static void
add_option (NsKconfigPackage *package, const char *name, const char *value)
{
  g_ptr_array_add (package->names, g_strdup (name));
  g_ptr_array_add (package->values, g_strdup (value));
  g_hash_table_insert (package->by_name, package->names->pdata[package->names->len - 1],
                       package->values->pdata[package->values->len - 1]);
}

/* Ends the option arrays (NULL-terminated). */
static void
end_options (NsKconfigPackage *package)
{
  g_ptr_array_add (package->names, NULL);
  g_ptr_array_add (package->values, NULL);
}

/* Reads <kconfig name kernel>; checks that name equals the file stem. */
static gboolean
read_header (NsKconfigPackage *package, xmlNodePtr root, GError **error)
{
  g_autofree char *stem = ns_data_file_stem (package->path);

  package->name = ns_xml_prop (root, "name");
  package->kernel = ns_xml_prop (root, "kernel");
  if (strcmp (package->name, stem) != 0)
    goto name_mismatch;
  return TRUE;

/* ERRORS */
name_mismatch:
  ns_xml_set_error_attr (error, package->path, root, "name",
                         "<kconfig name=\"%s\"> must equal the file name without .xml ('%s')",
                         package->name, stem);
  return FALSE;
}

/* The first <option> before node that names name (there is one: node repeats it). */
static xmlNodePtr
first_option (xmlNodePtr node, const char *name)
{
  for (xmlNodePtr n = node->parent->children; n != node; n = n->next) {
    g_autofree char *other = n->type == XML_ELEMENT_NODE ? ns_xml_prop (n, "name") : NULL;
    if (other != NULL && !strcmp (other, name))
      return n;
  }
  return node;
}

/* Reads one <option name value>: given once, and no m for a bool. */
static gboolean
read_option (NsKconfigPackage *package, xmlNodePtr node, GError **error)
{
  g_autofree char *name = ns_xml_prop (node, "name");
  g_autofree char *value = ns_xml_prop (node, "value");

  if (g_hash_table_contains (package->by_name, name))
    goto twice;
  if (ns_build_config_is_bool (name) && !strcmp (value, "m"))
    goto bool_module;
  add_option (package, name, value);
  return TRUE;

/* ERRORS */
twice:
  ns_xml_set_error_attr (error, package->path, node, "name",
                         "<option>: %s is given twice (first on line %d)", name,
                         ns_xml_line (first_option (node, name)));
  return FALSE;
bool_module:
  ns_xml_set_error_attr (error, package->path, node, "value",
                         "<option>: %s='m': a bool option (Kconfig), which cannot be a "
                         "module: use y or n", name);
  return FALSE;
}

/* Reads every <option> of root, in file order. */
static gboolean
read_options (NsKconfigPackage *package, xmlNodePtr root, GError **error)
{
  for (xmlNodePtr n = root->children; n != NULL; n = n->next)
    if (n->type == XML_ELEMENT_NODE && xmlStrEqual (n->name, BAD_CAST "option") &&
        !read_option (package, n, error))
      return FALSE;
  end_options (package);
  return TRUE;
}

/* Loads the XML package at path (kconfig.rng). */
static NsKconfigPackage *
load_xml (const char *path, GError **error)
{
  g_autofree char *schema = ns_xml_schema_path (KCONFIG_SCHEMA);
  g_autoptr (NsKconfigPackage) package = NULL;
  xmlDocPtr doc = ns_xml_load (path, schema, error);
  gboolean ok;

  if (doc == NULL)
    return NULL;
  package = package_new (path);
  ok = read_header (package, xmlDocGetRootElement (doc), error) &&
       read_options (package, xmlDocGetRootElement (doc), error);
  xmlFreeDoc (doc);
  return ok ? g_steal_pointer (&package) : NULL;
}

/* ---- a .config as make writes it ---- */

/* Line number of option name's earlier line in package (a .config package records it). */
static guint
dotconfig_first_line (const NsKconfigPackage *package, const char *name)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (package->lines, name));
}

/* The version of a "# Linux/ARCH VERSION Kernel Configuration" header line, or NULL;
 * newly allocated. */
static char *
dotconfig_header_version (const char *line)
{
  g_auto (GStrv) words = NULL;
  char *version = NULL;

  if (!g_str_has_prefix (line, "# Linux/") || !g_str_has_suffix (line, " Kernel Configuration"))
    return NULL;
  words = g_strsplit (line, " ", -1);
  if (g_strv_length (words) == 5)
    version = g_strdup (words[2]);
  return version;
}

/* The name of a "# CONFIG_X is not set" line, or NULL; newly allocated. */
static char *
dotconfig_unset_name (const char *line)
{
  const char *end;

  if (!g_str_has_prefix (line, "# CONFIG_") || !g_str_has_suffix (line, " is not set"))
    return NULL;
  end = line + strlen (line) - strlen (" is not set");
  return g_strndup (line + 2, (gsize) (end - line - 2));
}

/* TRUE if name is CONFIG_ followed by one or more of [A-Za-z0-9_] (Kconfig's symbols). */
static gboolean
dotconfig_name_ok (const char *name)
{
  if (!g_str_has_prefix (name, "CONFIG_") || name[strlen ("CONFIG_")] == '\0')
    return FALSE;
  for (const char *c = name; *c != '\0'; c++)
    if (!g_ascii_isalnum (*c) && *c != '_')
      return FALSE;
  return TRUE;
}

/* A .config value as Kconfig writes it: a string's quotes and backslash escapes undone,
 * another value as is; newly allocated, NULL if a quoted string does not end in its
 * closing quote. */
static char *
dotconfig_value (const char *text)
{
  GString *value;
  const char *c;

  if (text[0] != '"')
    return g_strdup (text);
  value = g_string_new (NULL);
  for (c = text + 1; *c != '\0' && *c != '"'; c++) {
    if (*c == '\\' && c[1] != '\0')
      c++;
    g_string_append_c (value, *c);
  }
  if (*c != '"' || c[1] != '\0') {
    g_string_free (value, TRUE);
    return NULL;
  }
  return g_string_free (value, FALSE);
}

/* Reads one line (number lineno) of a .config: the header's version, an option
 * ("CONFIG_X=VALUE" or "# CONFIG_X is not set", given once, no m for a bool), a comment or
 * a blank line. */
static gboolean
dotconfig_line (NsKconfigPackage *package, const char *line, guint lineno, GError **error)
{
  g_autofree char *name = NULL;
  g_autofree char *value = NULL;
  const char *eq;

  if (line[0] == '\0')
    return TRUE;
  if (line[0] == '#') {
    name = dotconfig_unset_name (line);
    if (name == NULL) {
      if (package->kernel == NULL)
        package->kernel = dotconfig_header_version (line);
      return TRUE;
    }
    value = g_strdup ("n");
  } else {
    eq = strchr (line, '=');
    if (eq == NULL)
      goto not_an_option;
    name = g_strndup (line, (gsize) (eq - line));
    value = dotconfig_value (eq + 1);
    if (value == NULL)
      goto bad_string;
  }
  if (!dotconfig_name_ok (name))
    goto not_an_option;
  if (g_hash_table_contains (package->by_name, name))
    goto twice;
  if (ns_build_config_is_bool (name) && !strcmp (value, "m"))
    goto bool_module;
  add_option (package, name, value);
  g_hash_table_insert (package->lines, package->names->pdata[package->names->len - 1],
                       GUINT_TO_POINTER (lineno));
  return TRUE;

/* ERRORS */
not_an_option:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s:%u: not a .config line: want "
               "CONFIG_NAME=VALUE, '# CONFIG_NAME is not set', a comment or a blank line",
               package->path, lineno);
  return FALSE;
bad_string:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s:%u: %s: a quoted value must end in its "
               "closing quote, and nothing may follow it", package->path, lineno, name);
  return FALSE;
twice:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s:%u: %s is given twice (first on line %u)",
               package->path, lineno, name, dotconfig_first_line (package, name));
  return FALSE;
bool_module:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s:%u: %s=m: a bool option (Kconfig), which "
               "cannot be a module: use y or n", package->path, lineno, name);
  return FALSE;
}

/* Reads text, a .config's contents, line by line; it must have the header make writes
 * ("# Linux/x86 6.12.95 Kernel Configuration"), whose version is the package's kernel. */
static gboolean
dotconfig_read (NsKconfigPackage *package, char *text, GError **error)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  GError *cause = NULL;

  for (guint i = 0; lines[i] != NULL; i++)
    if (!dotconfig_line (package, g_strchomp (lines[i]), i + 1, error))
      return FALSE;
  end_options (package);
  if (package->kernel == NULL)
    goto no_header;
  if (!ns_kernel_version_check (package->kernel, &cause))
    goto bad_version;
  return TRUE;

/* ERRORS */
no_header:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s:1: no '# Linux/ARCH VERSION Kernel "
               "Configuration' line, as make writes atop a .config: its kernel version is "
               "needed (or write a kernel config package, doc/scenario-format.md)",
               package->path);
  return FALSE;
bad_version:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s: the header's kernel version: %s",
               package->path, cause->message);
  g_error_free (cause);
  return FALSE;
}

/* Loads the .config at path, whose contents are text (length bytes): named by its file
 * name. */
static NsKconfigPackage *
load_dotconfig (const char *path, char *text, gsize length, GError **error)
{
  g_autoptr (NsKconfigPackage) package = package_new (path);

  if (length >= 2 && (guchar) text[0] == 0x1f && (guchar) text[1] == 0x8b)
    goto gzip;
  if (length >= 6 && memcmp (text, "\xfd" "7zXZ", 5) == 0 && text[5] == '\0')
    goto xz;
  if (memchr (text, '\0', length) != NULL)
    goto binary;
  package->name = g_path_get_basename (path);
  package->lines = g_hash_table_new (g_str_hash, g_str_equal);
  if (!dotconfig_read (package, text, error))
    return NULL;
  return g_steal_pointer (&package);

/* ERRORS */
gzip:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s: gzip-compressed (as /proc/config.gz "
               "is): give the path of its text, 'zcat %s > config'", path, path);
  return NULL;
xz:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s: xz-compressed (as a distribution's "
               "linux-config package ships its files): give the path of its text, "
               "'xzcat %s > config'", path, path);
  return NULL;
binary:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s: not a text file (a NUL byte): neither "
               "a kernel config package nor a .config", path);
  return NULL;
}

/* TRUE if text, past leading white space, begins with '<' (an XML package). */
static gboolean
looks_like_xml (const char *text)
{
  while (g_ascii_isspace (*text))
    text++;
  return *text == '<';
}

/* Loads a package by name or path; see kconfig.h. */
NsKconfigPackage *
ns_kconfig_package_load (const char *name_or_path, GError **error)
{
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  gsize length;

  g_return_val_if_fail (name_or_path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  path = resolve_path (name_or_path, error);
  if (path == NULL)
    return NULL;
  /* an .xml name, or a file that cannot be read: the XML loader (which says why) */
  if (g_str_has_suffix (path, NS_DATA_SUFFIX) ||
      !g_file_get_contents (path, &text, &length, NULL) || looks_like_xml (text))
    return load_xml (path, error);
  return load_dotconfig (path, text, length, error);
}

/* Frees package (NULL is fine). */
void
ns_kconfig_package_free (NsKconfigPackage *package)
{
  if (package == NULL)
    return;
  g_free (package->name);
  g_free (package->kernel);
  g_free (package->path);
  g_hash_table_unref (package->by_name);
  if (package->lines != NULL)
    g_hash_table_unref (package->lines);
  g_ptr_array_unref (package->names);
  g_ptr_array_unref (package->values);
  g_free (package);
}

/* Its name; see kconfig.h. */
const char *
ns_kconfig_package_name (const NsKconfigPackage *package)
{
  g_return_val_if_fail (package != NULL, NULL);
  return package->name;
}

/* The kernel version of its .config; see kconfig.h. */
const char *
ns_kconfig_package_kernel (const NsKconfigPackage *package)
{
  g_return_val_if_fail (package != NULL, NULL);
  return package->kernel;
}

/* The file it came from; see kconfig.h. */
const char *
ns_kconfig_package_path (const NsKconfigPackage *package)
{
  g_return_val_if_fail (package != NULL, NULL);
  return package->path;
}

/* Option names in file order; see kconfig.h. */
const char *const *
ns_kconfig_package_names (const NsKconfigPackage *package)
{
  g_return_val_if_fail (package != NULL, NULL);
  return (const char *const *) package->names->pdata;
}

/* Option values in file order; see kconfig.h. */
const char *const *
ns_kconfig_package_values (const NsKconfigPackage *package)
{
  g_return_val_if_fail (package != NULL, NULL);
  return (const char *const *) package->values->pdata;
}

/* The value of option key, or NULL; see kconfig.h. */
const char *
ns_kconfig_package_get (const NsKconfigPackage *package, const char *key)
{
  g_return_val_if_fail (package != NULL && key != NULL, NULL);
  return g_hash_table_lookup (package->by_name, key);
}
