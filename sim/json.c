/* json.c — a small streaming JSON writer with two-space indentation. */
#include "config.h"
#include <math.h>
#include <string.h>
#include "json.h"

struct _NsJson {
  GString *out;
  guint    depth;
  gboolean first;        /* no member written yet at this depth */
  gboolean after_key;    /* a key was just written: the value follows inline */
};

/* A writer appending to out. */
NsJson *
ns_json_new (GString *out)
{
  NsJson *json = g_new0 (NsJson, 1);
  json->out = out;
  json->first = TRUE;
  return json;
}

/* Frees the writer (not the string). */
void
ns_json_free (NsJson *json)
{
  g_free (json);
}

/* Starts a new line indented two spaces per open container. */
static void
newline (NsJson *json)
{
  g_string_append_c (json->out, '\n');
  for (guint i = 0; i < json->depth; i++)
    g_string_append (json->out, "  ");
}

/* Writes the separator and indentation a new value needs. */
static void
before_value (NsJson *json)
{
  if (json->after_key) {
    json->after_key = FALSE;
    return;
  }
  if (json->depth > 0) {
    if (!json->first)
      g_string_append_c (json->out, ',');
    newline (json);
  }
  json->first = FALSE;
}

/* Appends the ASCII character c escaped as a JSON string needs it. */
static void
append_escaped_ascii (GString *out, char c)
{
  switch (c) {
  case '"':  g_string_append (out, "\\\""); break;
  case '\\': g_string_append (out, "\\\\"); break;
  case '\n': g_string_append (out, "\\n"); break;
  case '\r': g_string_append (out, "\\r"); break;
  case '\t': g_string_append (out, "\\t"); break;
  default:
    if ((guchar) c < 0x20)
      g_string_append_printf (out, "\\u%04x", (guchar) c);
    else
      g_string_append_c (out, c);
  }
}

/* Appends s (not NULL) as a quoted JSON string: quotes, backslashes and control characters
 * escaped, valid UTF-8 copied as is, each byte of an invalid sequence (a file name in
 * another encoding) as U+FFFD, so the document stays UTF-8 as JSON requires. */
static void
append_escaped (GString *out, const char *s)
{
  const char *p = s, *end = s + strlen (s);

  g_string_append_c (out, '"');
  while (p < end) {
    if ((guchar) *p < 0x80) {
      append_escaped_ascii (out, *p++);
    } else if (g_utf8_get_char_validated (p, end - p) >= (gunichar) -2) {
      g_string_append (out, "\\ufffd");   /* -1 invalid, -2 cut short */
      p++;
    } else {
      const char *next = g_utf8_next_char (p);
      g_string_append_len (out, p, next - p);
      p = next;
    }
  }
  g_string_append_c (out, '"');
}

/* Writes c ('{' or '[') as the next value and enters it: depth up, no member yet. */
static void
open_container (NsJson *json, char c)
{
  before_value (json);
  g_string_append_c (json->out, c);
  json->depth++;
  json->first = TRUE;
}

/* Leaves the innermost container writing c ('}' or ']'), on its own line unless empty, and
 * a newline after it at depth 0. Must match an open container (depth is not checked). */
static void
close_container (NsJson *json, char c)
{
  gboolean empty = json->first;
  g_return_if_fail (json->depth > 0);
  json->depth--;
  if (!empty)
    newline (json);
  g_string_append_c (json->out, c);
  json->first = FALSE;
  if (json->depth == 0)
    g_string_append_c (json->out, '\n');
}

/* Opens an object. */
void
ns_json_begin_object (NsJson *json)
{
  open_container (json, '{');
}

/* Closes the current object. */
void
ns_json_end_object (NsJson *json)
{
  close_container (json, '}');
}

/* Opens an array. */
void
ns_json_begin_array (NsJson *json)
{
  open_container (json, '[');
}

/* Closes the current array. */
void
ns_json_end_array (NsJson *json)
{
  close_container (json, ']');
}

/* Writes a member key; the next value call writes its value. */
void
ns_json_key (NsJson *json, const char *key)
{
  before_value (json);
  append_escaped (json->out, key);
  g_string_append (json->out, ": ");
  json->after_key = TRUE;
}

/* Writes a string value (NULL as null). */
void
ns_json_string (NsJson *json, const char *value)
{
  before_value (json);
  if (value)
    append_escaped (json->out, value);
  else
    g_string_append (json->out, "null");
}

/* Writes a number with the fewest significant digits (15 to 17) that read back as the
 * same double (0.005, not 0.0050000000000000001), non-finite as null. */
void
ns_json_double (NsJson *json, double value)
{
  static const char *const formats[] = { "%.15g", "%.16g", "%.17g" };
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  before_value (json);
  if (!isfinite (value)) {
    g_string_append (json->out, "null");
    return;
  }
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++) {
    g_ascii_formatd (buf, sizeof buf, formats[i], value);
    if (g_ascii_strtod (buf, NULL) == value)
      break;
  }
  g_string_append (json->out, buf);
}

/* Writes an integer. */
void
ns_json_int (NsJson *json, gint64 value)
{
  before_value (json);
  g_string_append_printf (json->out, "%" G_GINT64_FORMAT, value);
}

/* Writes true or false. */
void
ns_json_bool (NsJson *json, gboolean value)
{
  before_value (json);
  g_string_append (json->out, value ? "true" : "false");
}

/* Writes an array of strings (NULL-terminated; NULL itself → empty array). */
void
ns_json_strv (NsJson *json, char **values)
{
  ns_json_begin_array (json);
  for (guint i = 0; values && values[i]; i++)
    ns_json_string (json, values[i]);
  ns_json_end_array (json);
}

/* Writes a member "key": string (NULL as null). */
void
ns_json_member_string (NsJson *json, const char *key, const char *value)
{
  ns_json_key (json, key);
  ns_json_string (json, value);
}

/* Writes a member "key": number (as ns_json_double). */
void
ns_json_member_double (NsJson *json, const char *key, double value)
{
  ns_json_key (json, key);
  ns_json_double (json, value);
}

/* Writes a member "key": integer. */
void
ns_json_member_int (NsJson *json, const char *key, gint64 value)
{
  ns_json_key (json, key);
  ns_json_int (json, value);
}

/* Writes a member "key": true or false. */
void
ns_json_member_bool (NsJson *json, const char *key, gboolean value)
{
  ns_json_key (json, key);
  ns_json_bool (json, value);
}

/* Writes a member "key": array of strings (as ns_json_strv). */
void
ns_json_member_strv (NsJson *json, const char *key, char **values)
{
  ns_json_key (json, key);
  ns_json_strv (json, values);
}
