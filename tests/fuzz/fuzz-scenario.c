/* fuzz-scenario.c — fuzz target for the scenario loader (sim/scenario.c): an input is a
 * scenario's XML, optionally followed by NUL-separated --set strings. The contract: the
 * loader returns a scenario or an error with a message, never both or neither, and a loaded
 * scenario dumps. Sanitizers catch the rest. */
#include "config.h"
#include <string.h>
#include <glib.h>
#include "sim/scenario.h"
#include "fuzz.h"

/* The --set strings after the first NUL of data, NULL-terminated. */
static GPtrArray *
split_sets (const uint8_t *data, size_t size, size_t *xml_len)
{
  const uint8_t *nul = memchr (data, 0, size);
  GPtrArray *sets = g_ptr_array_new_with_free_func (g_free);

  *xml_len = nul ? (size_t) (nul - data) : size;
  for (size_t at = *xml_len + 1; nul && at <= size;) {
    const uint8_t *end = memchr (data + at, 0, size - at);
    size_t n = end ? (size_t) (end - (data + at)) : size - at;
    g_ptr_array_add (sets, g_strndup ((const char *) data + at, n));
    at += n + 1;
  }
  g_ptr_array_add (sets, NULL);
  return sets;
}

/* Loads one input; aborts when the loader breaks its contract. A replayed file without
 * --set strings loads where it is (its <param from=...> names a file beside it). */
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  size_t xml_len;
  g_autoptr (GPtrArray) sets = split_sets (data, size, &xml_len);
  const char *path = ns_fuzz_input_path != NULL && xml_len == size
                       ? ns_fuzz_input_path : ns_fuzz_write_scratch (data, xml_len, NULL);
  GError *error = NULL;
  NsScenario *sc = ns_scenario_load (path, (const char *const *) sets->pdata, &error);

  if (!ns_fuzz_check_load (sc, error))
    return 0;
  g_free (ns_scenario_dump (sc));
  ns_scenario_free (sc);
  return 0;
}
