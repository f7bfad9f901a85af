/* common.c — helpers every netsim module may use. */
#include "config.h"
#include <stdarg.h>
#include <string.h>
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
