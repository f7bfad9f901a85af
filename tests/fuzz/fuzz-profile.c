/* fuzz-profile.c — fuzz target for the CPU profile loader (sim/profile.c): an input is a
 * profile's XML, written to a file named after its <cpu name="…"> (the loader requires
 * that) when it has one. The contract: a profile or an error with a message, never both
 * or neither. Sanitizers catch the rest. */
#include "config.h"
#include <glib.h>
#include "sim/profile.h"
#include "fuzz.h"

/* Loads one input; aborts when the loader breaks its contract. */
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autofree char *name = ns_fuzz_first_name (data, size);
  GError *error = NULL;
  NsCpuProfile *cpu = ns_cpu_profile_load (ns_fuzz_write_scratch (data, size, name), &error);

  if (!ns_fuzz_check_load (cpu, error))
    return 0;
  ns_cpu_profile_free (cpu);
  return 0;
}
