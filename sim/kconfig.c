/* kconfig.c — kernel config packages: the loader of scenarios/configs/NAME.xml. A package
 * only holds values; the build (build.c) reads them as it reads a scenario's <config>. */
#include "config.h"
#include <string.h>
#include <libxml/tree.h>
#include "build.h"
#include "common.h"
#include "kconfig.h"
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
                               "package", available_names, error);
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
  g_ptr_array_add (package->names, g_strdup (name));
  g_ptr_array_add (package->values, g_strdup (value));
  g_hash_table_insert (package->by_name, package->names->pdata[package->names->len - 1],
                       package->values->pdata[package->values->len - 1]);
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
  g_ptr_array_add (package->names, NULL);
  g_ptr_array_add (package->values, NULL);
  return TRUE;
}

/* Loads a package by name or path; see kconfig.h. */
NsKconfigPackage *
ns_kconfig_package_load (const char *name_or_path, GError **error)
{
  g_autofree char *path = NULL;
  g_autofree char *schema = NULL;
  g_autoptr (NsKconfigPackage) package = NULL;
  xmlDocPtr doc;
  gboolean ok;

  g_return_val_if_fail (name_or_path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  path = resolve_path (name_or_path, error);
  if (path == NULL)
    return NULL;
  schema = ns_xml_schema_path (KCONFIG_SCHEMA);
  doc = ns_xml_load (path, schema, error);
  if (doc == NULL)
    return NULL;
  package = package_new (path);
  ok = read_header (package, xmlDocGetRootElement (doc), error) &&
       read_options (package, xmlDocGetRootElement (doc), error);
  xmlFreeDoc (doc);
  return ok ? g_steal_pointer (&package) : NULL;
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
