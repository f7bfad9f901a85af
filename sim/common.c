/* common.c — helpers every netsim module may use. */
#include "config.h"
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <glib/gstdio.h>
#include "common.h"

/* What an NS_ERROR carries beside its message: the parameters it is about, if its raiser
 * named them (NULL-terminated, or NULL). */
typedef struct {
  char **params;
} NsErrorPrivate;

static void
ns_error_private_init (NsErrorPrivate *priv)
{
  priv->params = NULL;
}

static void
ns_error_private_copy (const NsErrorPrivate *src, NsErrorPrivate *dest)
{
  dest->params = g_strdupv (src->params);
}

static void
ns_error_private_clear (NsErrorPrivate *priv)
{
  g_clear_pointer (&priv->params, g_strfreev);
}

G_DEFINE_EXTENDED_ERROR (NsError, ns_error)

/* Records the parameters error is about; see common.h. */
void
ns_error_set_params (GError **error, const char *first, ...)
{
  NsErrorPrivate *priv;
  g_autoptr (GStrvBuilder) names = NULL;
  va_list ap;

  if (error == NULL)
    return;
  g_return_if_fail (*error != NULL && (*error)->domain == NS_ERROR && first != NULL);

  names = g_strv_builder_new ();
  priv = ns_error_get_private (*error);
  va_start (ap, first);
  for (const char *name = first; name != NULL; name = va_arg (ap, const char *))
    g_strv_builder_add (names, name);
  va_end (ap);
  g_clear_pointer (&priv->params, g_strfreev);
  priv->params = g_strv_builder_end (names);
}

/* The parameters error is about, or NULL; see common.h. */
const char *const *
ns_error_get_params (const GError *error)
{
  g_return_val_if_fail (error != NULL, NULL);

  if (error->domain != NS_ERROR)
    return NULL;
  return (const char *const *) ns_error_get_private (error)->params;
}

/* Appends text with its control characters escaped; see common.h. */
void
ns_escape_controls (GString *out, const char *text)
{
  g_return_if_fail (out != NULL && text != NULL);

  for (const char *p = text; *p; p++) {
    if (*p == '\\')                 /* a typed backslash-n is \\n, a line break \n */
      g_string_append (out, "\\\\");
    else if (!g_ascii_iscntrl (*p))
      g_string_append_c (out, *p);
    else if (*p == '\n')
      g_string_append (out, "\\n");
    else if (*p == '\r')
      g_string_append (out, "\\r");
    else if (*p == '\t')
      g_string_append (out, "\\t");
    else
      g_string_append_printf (out, "\\x%02x", (guint) (guchar) *p);
  }
}

/* See common.h. */
guint64
ns_derive_seed (guint64 seed, guint64 stream)
{
  guint64 z = seed + (stream + 1) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

/* See common.h. */
char **
ns_strv_append (const char *const *list, const char *item)
{
  g_autoptr (GStrvBuilder) b = g_strv_builder_new ();

  if (list)
    g_strv_builder_addv (b, (const char **) list);
  g_strv_builder_add (b, item);
  return g_strv_builder_end (b);
}

/* See common.h: one row of the dynamic-programming table at a time. */
guint
ns_str_distance (const char *a, const char *b)
{
  gsize la, lb;
  g_autofree guint *row = NULL;

  g_return_val_if_fail (a != NULL && b != NULL, 0);
  la = strlen (a);
  lb = strlen (b);
  row = g_new (guint, lb + 1);
  for (gsize j = 0; j <= lb; j++)
    row[j] = (guint) j;
  for (gsize i = 1; i <= la; i++) {
    guint diag = row[0];
    row[0] = (guint) i;
    for (gsize j = 1; j <= lb; j++) {
      guint up = row[j];
      guint best = MIN (up, row[j - 1]) + 1;
      row[j] = MIN (best, diag + (a[i - 1] == b[j - 1] ? 0u : 1u));
      diag = up;
    }
  }
  return row[lb];
}

/* A walk of ns_find_files: the folders seen ("DEV:INO"), the linked folders met but not
 * yet walked, what was found, and what to find. */
typedef struct {
  GHashTable *seen;
  GPtrArray  *linked;
  GPtrArray  *found;
  const char *suffix;
  const char *const *skip;
} NsFileWalk;

/* TRUE if folder path was not seen before in walk (and marks it seen); FALSE if it was,
 * or cannot be stat'ed. */
static gboolean
walk_first_visit (NsFileWalk *walk, const char *path)
{
  GStatBuf st;

  if (g_stat (path, &st) != 0)
    return FALSE;
  return g_hash_table_add (walk->seen, g_strdup_printf ("%ju:%ju", (uintmax_t) st.st_dev,
                                                        (uintmax_t) st.st_ino));
}

/* Walks folder dir unless seen: its files that end in the suffix are found, its real
 * folders walked, its linked folders kept for later. */
static void
walk_folder (NsFileWalk *walk, const char *dir)
{
  g_autoptr (GDir) d = NULL;
  const char *name;

  if (!walk_first_visit (walk, dir) || (d = g_dir_open (dir, 0, NULL)) == NULL)
    return;
  while ((name = g_dir_read_name (d)) != NULL) {
    g_autofree char *path = g_build_filename (dir, name, NULL);

    if (!g_file_test (path, G_FILE_TEST_IS_DIR)) {
      if (g_str_has_suffix (name, walk->suffix))
        g_ptr_array_add (walk->found, g_steal_pointer (&path));
    } else if (walk->skip == NULL || !g_strv_contains (walk->skip, name)) {
      if (g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        g_ptr_array_add (walk->linked, g_steal_pointer (&path));
      else
        walk_folder (walk, path);
    }
  }
}

/* strcmp order of two char * array elements (for g_ptr_array_sort). */
static gint
compare_paths (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* See common.h: the real folders first, then the linked ones met, round by round, each
 * round in name order so the result does not depend on the order readdir gives. */
GPtrArray *
ns_find_files (const char *dir, const char *suffix, const char *const *skip)
{
  NsFileWalk walk = { NULL, NULL, NULL, suffix, skip };

  g_return_val_if_fail (dir != NULL && suffix != NULL, NULL);
  walk.seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  walk.linked = g_ptr_array_new_with_free_func (g_free);
  walk.found = g_ptr_array_new_with_free_func (g_free);
  walk_folder (&walk, dir);
  while (walk.linked->len > 0) {
    g_autoptr (GPtrArray) round = walk.linked;

    walk.linked = g_ptr_array_new_with_free_func (g_free);
    g_ptr_array_sort (round, compare_paths);
    for (guint i = 0; i < round->len; i++)
      walk_folder (&walk, round->pdata[i]);
  }
  g_ptr_array_unref (walk.linked);
  g_hash_table_unref (walk.seen);
  g_ptr_array_sort (walk.found, compare_paths);
  return walk.found;
}
