/* patches.c — the kernel patches scenarios can apply (seed issues add theirs here). */
#include "config.h"
#include <string.h>
#include "workload.h"

static const NsPatch *const patches[] = {
  NULL
};

/* Every known patch, NULL-terminated. */
const NsPatch *const *
ns_patches (void)
{
  return patches;
}

/* The patch named name, or NULL. */
const NsPatch *
ns_patch_find (const char *name)
{
  g_return_val_if_fail (name != NULL, NULL);
  for (guint i = 0; patches[i]; i++)
    if (!strcmp (patches[i]->name, name))
      return patches[i];
  return NULL;
}
