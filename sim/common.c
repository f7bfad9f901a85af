/* common.c — helpers every netsim module may use. */
#include "config.h"
#include "common.h"

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
