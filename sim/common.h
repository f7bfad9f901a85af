/* common.h — types shared by every netsim module: simulated time, the error domain. */
#pragma once
#include <glib.h>

G_BEGIN_DECLS

/* Simulated time: an integer count of picoseconds since the start of a run. */
typedef gint64 NsTime;

#define NS_PS(x)  ((NsTime) (x))
#define NS_NS(x)  ((NsTime) (x) * 1000)
#define NS_US(x)  ((NsTime) (x) * 1000000)
#define NS_MS(x)  ((NsTime) (x) * 1000000000)
#define NS_SEC(x) ((NsTime) (x) * G_GINT64_CONSTANT (1000000000000))
#define NS_TIME_FOREVER G_MAXINT64

/* The seed of stream `stream` derived from seed (splitmix64 of seed + stream): well mixed
 * and independent of the order streams are asked for (a run's repetitions, a sweep's
 * points, a machine's page frames and layout draws). */
guint64 ns_derive_seed (guint64 seed, guint64 stream);

/* A new NULL-terminated list: the strings of list (NULL is fine), then item (g_strfreev). */
char  **ns_strv_append (const char *const *list, const char *item);

/* The Levenshtein distance between a and b (single-byte insertions, deletions and
 * substitutions), for "did you mean" suggestions. */
guint   ns_str_distance (const char *a, const char *b);

/* Sorted paths of the files below dir whose names end in suffix, walking its folders
 * (none named in skip, a NULL-terminated list, if skip is not NULL) each once, known by device and inode: a folder a
 * symbolic link reaches again (a loop, or a second name) is not walked again, and real
 * folders are walked before linked ones, so a file is found under its own path. A folder
 * that cannot be read adds nothing. Free with g_ptr_array_unref. */
GPtrArray *ns_find_files (const char *dir, const char *suffix, const char *const *skip);

/* Error domain for everything netsim reports to the user. */
#define NS_ERROR (ns_error_quark ())
GQuark ns_error_quark (void);

typedef enum {
  NS_ERROR_INPUT,     /* bad scenario, profile, option or value: exit status 2 */
  NS_ERROR_IO,        /* could not read or write a file: exit status 2 */
  NS_ERROR_CHECK,     /* a run finished but a check failed: exit status 1 */
  NS_ERROR_INTERNAL   /* a netsim bug */
} NsErrorCode;

/* Records on *error (an NS_ERROR) the parameters it is about, a NULL-terminated list of
 * registry names, replacing any recorded before (nothing if error is NULL, as
 * g_prefix_error): the caller can then blame whatever gave those parameters their values
 * without reading the message. */
void ns_error_set_params (GError **error, const char *first, ...) G_GNUC_NULL_TERMINATED;

/* The parameters an error was raised about (NULL-terminated), or NULL if its raiser named
 * none or it is not an NS_ERROR. */
const char *const *ns_error_get_params (const GError *error);

/* Appends text with each control character written as a C escape (\n, \r, \t, \xNN)
 * and a backslash as \\, the rest (UTF-8 included) as it is: a value shown on one line
 * stays one line, and two texts give the same line only if they are the same (a typed
 * backslash-n is \\n, a line break \n). */
void ns_escape_controls (GString *out, const char *text);

G_END_DECLS
