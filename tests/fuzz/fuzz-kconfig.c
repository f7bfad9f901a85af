/* fuzz-kconfig.c — fuzz target for the kernel config package loader (sim/kconfig.c): an
 * input is a package's XML, written to a file named after its <kconfig name="…"> (the
 * loader requires that) when it has one. The contract: a package or an error with a
 * message, never both or neither. Sanitizers catch the rest. */
#include "config.h"
#include <glib.h>
#include "sim/kconfig.h"
#include "fuzz.h"

/* Loads one input; aborts when the loader breaks its contract. */
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autofree char *name = ns_fuzz_first_name (data, size);
  GError *error = NULL;
  NsKconfigPackage *package = ns_kconfig_package_load (ns_fuzz_write_scratch (data, size, name),
                                                       &error);

  if (!ns_fuzz_check_load (package, error))
    return 0;
  ns_kconfig_package_free (package);
  return 0;
}
