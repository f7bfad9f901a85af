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

/* Error domain for everything netsim reports to the user. */
#define NS_ERROR (ns_error_quark ())
GQuark ns_error_quark (void);

typedef enum {
  NS_ERROR_INPUT,     /* bad scenario, profile, option or value: exit status 2 */
  NS_ERROR_IO,        /* could not read or write a file: exit status 2 */
  NS_ERROR_CHECK,     /* a run finished but a check failed: exit status 1 */
  NS_ERROR_INTERNAL   /* a netsim bug */
} NsErrorCode;

/* Appends text with each control character written as a C escape (\n, \r, \t, \xNN)
 * and a backslash as \\, the rest (UTF-8 included) as it is: a value shown on one line
 * stays one line, and two texts give the same line only if they are the same (a typed
 * backslash-n is \\n, a line break \n). */
void ns_escape_controls (GString *out, const char *text);

G_END_DECLS
