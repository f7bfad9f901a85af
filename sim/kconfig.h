/* kconfig.h — kernel config packages: scenarios/configs/NAME.xml holds the values one
 * kernel .config (a distribution's, say) gives the options the models read, with that
 * file as their source. A scenario builds on one with <kernel base-config="NAME">; its own
 * <config> lines depart from it. See doc/scenario-format.md. */
#ifndef NS_KCONFIG_H
#define NS_KCONFIG_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct _NsKconfigPackage NsKconfigPackage;

/* Loads a package by name (looked up in <datadir>/scenarios/configs/) or by path (contains
 * '/' or ends in .xml), validated against kconfig.rng: NULL with an NS_ERROR_INPUT error
 * (file:line where the file is at fault; an unknown name lists the shipped ones). */
NsKconfigPackage *ns_kconfig_package_load    (const char *name_or_path, GError **error);
void              ns_kconfig_package_free    (NsKconfigPackage *package);
/* Its name (the file's stem). */
const char       *ns_kconfig_package_name    (const NsKconfigPackage *package);
/* The kernel version its .config is of. */
const char       *ns_kconfig_package_kernel  (const NsKconfigPackage *package);
/* The file it was loaded from. */
const char       *ns_kconfig_package_path    (const NsKconfigPackage *package);
/* Its options in file order: names[i] has values[i] (NULL-terminated, owned by it). */
const char *const *ns_kconfig_package_names  (const NsKconfigPackage *package);
const char *const *ns_kconfig_package_values (const NsKconfigPackage *package);
/* The value it gives option key, or NULL if it gives none. */
const char       *ns_kconfig_package_get     (const NsKconfigPackage *package, const char *key);
/* Names of the shipped packages, sorted (char*, free with g_ptr_array_unref). */
GPtrArray        *ns_kconfig_package_list    (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NsKconfigPackage, ns_kconfig_package_free)

G_END_DECLS

#endif /* NS_KCONFIG_H */
