/* csv.h — CSV fields as netsim writes and reads them (RFC 4180 quoting). */
#pragma once
#include <glib.h>

G_BEGIN_DECLS

/* Appends text (NULL: empty) as one field, quoted when it holds a comma, quote, carriage
 * return or newline. */
void    ns_csv_field          (GString *out, const char *text);
/* Appends n fields as ns_csv_field does, separated by commas (no trailing comma). */
void    ns_csv_fields         (GString *out, const char *const *fields, guint n);
/* Like ns_csv_field for line-per-record files: line breaks become spaces, and a field
 * with a leading or trailing space is quoted too. */
void    ns_csv_field_one_line (GString *out, const char *text);
/* Appends "# " and the printf-formatted text as one comment line (ending in a newline),
 * each control character in it written as a C escape (\n, \r, \t, \xNN) so that the
 * line stays one line. */
void    ns_csv_comment        (GString *out, const char *format, ...) G_GNUC_PRINTF (2, 3);
/* Splits one CSV line into fields (NULL-terminated, newly allocated). */
char  **ns_csv_split          (const char *line);

G_END_DECLS
