/* fuzz-kconfig.c — fuzz target for the kernel config package loader (sim/kconfig.c): an
 * input is a package's XML, written to a file named after its <kconfig name="…"> (the
 * loader requires that) when it has one, or, when its first byte other than white space
 * is not '<', a .config, written to a file named config (no .xml: the loader reads such a
 * file as a .config). The contract: a package or an error with a message, never both or
 * neither. Sanitizers catch the rest. */
#include "config.h"
#include <glib.h>
#include "sim/kconfig.h"
#include "fuzz.h"

/* TRUE if data, past leading white space, starts with '<'. */
static gboolean
looks_like_xml (const uint8_t *data, size_t size)
{
  size_t i = 0;

  while (i < size && g_ascii_isspace (data[i]))
    i++;
  return i < size && data[i] == '<';
}

/* Writes the input where the loader reads it as what it looks like; the path. */
static const char *
write_input (const uint8_t *data, size_t size)
{
  g_autofree char *name = NULL;

  if (!looks_like_xml (data, size))
    return ns_fuzz_write_scratch_file (data, size, "config");
  name = ns_fuzz_first_name (data, size);
  return ns_fuzz_write_scratch (data, size, name);
}

/* Loads one input; aborts when the loader breaks its contract. */
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  GError *error = NULL;
  NsKconfigPackage *package = ns_kconfig_package_load (write_input (data, size), &error);

  if (!ns_fuzz_check_load (package, error))
    return 0;
  ns_kconfig_package_free (package);
  return 0;
}
