/* csv.c — CSV fields as netsim writes and reads them (RFC 4180 quoting). */
#include "config.h"
#include <stdarg.h>
#include <string.h>
#include "csv.h"
#include "common.h"

/* Whether text must be quoted (a comma, quote or line break, RFC 4180); one_line: also for
 * edge spaces. */
static gboolean
needs_quotes (const char *text, gboolean one_line)
{
  gsize len = strlen (text);

  if (!one_line)
    return strpbrk (text, ",\"\r\n") != NULL;
  return (len > 0 && (text[0] == ' ' || text[len - 1] == ' ')) ||
         strpbrk (text, ",\"\r\n") != NULL;
}

/* Appends text as one field, doubling quotes; one_line: line breaks become spaces. */
static void
append_field (GString *out, const char *text, gboolean one_line)
{
  gboolean quote;

  if (text == NULL)
    text = "";
  quote = needs_quotes (text, one_line);
  if (quote)
    g_string_append_c (out, '"');
  for (const char *p = text; *p; p++) {
    if (*p == '"')
      g_string_append_c (out, '"');
    g_string_append_c (out, one_line && (*p == '\n' || *p == '\r') ? ' ' : *p);
  }
  if (quote)
    g_string_append_c (out, '"');
}

/* Appends text as one field; see csv.h. */
void
ns_csv_field (GString *out, const char *text)
{
  g_return_if_fail (out != NULL);
  append_field (out, text, FALSE);
}

/* Appends n fields separated by commas; see csv.h. */
void
ns_csv_fields (GString *out, const char *const *fields, guint n)
{
  g_return_if_fail (out != NULL && (fields != NULL || n == 0));
  for (guint i = 0; i < n; i++) {
    if (i)
      g_string_append_c (out, ',');
    append_field (out, fields[i], FALSE);
  }
}

/* Appends text as one field of a line-per-record file; see csv.h. */
void
ns_csv_field_one_line (GString *out, const char *text)
{
  g_return_if_fail (out != NULL);
  append_field (out, text, TRUE);
}

/* Appends "# TEXT\n" with TEXT's control characters escaped; see csv.h. */
void
ns_csv_comment (GString *out, const char *format, ...)
{
  g_autofree char *text = NULL;
  va_list args;

  g_return_if_fail (out != NULL && format != NULL);
  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  g_string_append (out, "# ");
  ns_escape_controls (out, text);
  g_string_append_c (out, '\n');
}

/* Reads one field starting at *p (quoted or not) and leaves *p at its end. */
static char *
read_field (const char **p)
{
  GString *field = g_string_new (NULL);
  const char *s = *p;

  if (*s == '"') {
    for (s++; *s; s++) {
      if (*s == '"' && s[1] == '"')
        s++;
      else if (*s == '"')
        break;
      g_string_append_c (field, *s);
    }
    if (*s == '"')
      s++;
  }
  while (*s && *s != ',')
    g_string_append_c (field, *s++);
  *p = s;
  return g_string_free (field, FALSE);
}

/* Splits one CSV line into fields; see csv.h. */
char **
ns_csv_split (const char *line)
{
  GPtrArray *fields = g_ptr_array_new ();
  const char *p = line;

  g_return_val_if_fail (line != NULL, NULL);
  for (;;) {
    g_ptr_array_add (fields, read_field (&p));
    if (*p != ',')
      break;
    p++;
  }
  g_ptr_array_add (fields, NULL);
  return (char **) g_ptr_array_free (fields, FALSE);
}
