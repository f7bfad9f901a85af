/* build-note.h — the model tests' check of the note a model leaves on a build whose
 * release differs from the one its code is (ns_build_notes). */
#pragma once
#include <check.h>
#include <string.h>
#include "build.h"

/* Asserts build has no note containing marker if want is NULL, else one that begins with
 * want (the first note containing marker counts). */
static G_GNUC_UNUSED void
assert_build_note (NsBuild *build, const char *marker, const char *want)
{
  g_auto (GStrv) notes = ns_build_notes (build);
  const char *found = NULL;

  for (guint i = 0; notes && notes[i] && found == NULL; i++)
    if (strstr (notes[i], marker) != NULL)
      found = notes[i];
  if (want == NULL)
    ck_assert_msg (found == NULL, "%s: %s", ns_build_version (build), found);
  else
    ck_assert_msg (found != NULL && g_str_has_prefix (found, want), "%s: %s",
                   ns_build_version (build), found ? found : "no note");
}
