/* fuzz-profile.c — fuzz target for the CPU profile loader (sim/profile.c): an input is a
 * profile's XML, written to a file named after its <cpu name="…"> (the loader requires
 * that) when it has one. The contract: a profile or an error with a message, never both
 * or neither. Sanitizers catch the rest. */
#include "config.h"
#include <string.h>
#include <glib.h>
#include "sim/profile.h"
#include "fuzz.h"

/* The value of the first name="…" in data, or NULL. */
static char *
first_name (const uint8_t *data, size_t size)
{
  static const char key[] = "name=\"";
  const char *text = (const char *) data, *end = text + size;

  for (const char *p = text; p + sizeof key - 1 < end; p++)
    if (memcmp (p, key, sizeof key - 1) == 0) {
      const char *v = p + sizeof key - 1, *q = memchr (v, '"', (size_t) (end - v));
      return q ? g_strndup (v, (gsize) (q - v)) : NULL;
    }
  return NULL;
}

/* Loads one input; aborts when the loader breaks its contract. */
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autofree char *name = first_name (data, size);
  GError *error = NULL;
  NsCpuProfile *cpu = ns_cpu_profile_load (ns_fuzz_write_scratch (data, size, name), &error);

  if (!ns_fuzz_check_load (cpu, error))
    return 0;
  ns_cpu_profile_free (cpu);
  return 0;
}
