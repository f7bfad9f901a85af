/* json.h — a small streaming JSON writer on a GString (correct escaping, stable order). */
#pragma once
#include <glib.h>

G_BEGIN_DECLS

typedef struct _NsJson NsJson;

NsJson  *ns_json_new          (GString *out);
void     ns_json_free         (NsJson *json);
void     ns_json_begin_object (NsJson *json);
void     ns_json_end_object   (NsJson *json);
void     ns_json_begin_array  (NsJson *json);
void     ns_json_end_array    (NsJson *json);
/* Key of the next member (inside an object). */
void     ns_json_key          (NsJson *json, const char *key);
void     ns_json_string       (NsJson *json, const char *value);   /* NULL → null */
void     ns_json_double       (NsJson *json, double value);        /* non-finite → null */
void     ns_json_int          (NsJson *json, gint64 value);
void     ns_json_bool         (NsJson *json, gboolean value);
void     ns_json_strv         (NsJson *json, char **values);        /* array of strings */
/* A member: its key, then its value as the call of the same type writes it. */
void     ns_json_member_string (NsJson *json, const char *key, const char *value);
void     ns_json_member_double (NsJson *json, const char *key, double value);
void     ns_json_member_int    (NsJson *json, const char *key, gint64 value);
void     ns_json_member_bool   (NsJson *json, const char *key, gboolean value);
void     ns_json_member_strv   (NsJson *json, const char *key, char **values);

G_END_DECLS
