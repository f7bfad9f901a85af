/* param.h — the parameter registry: every cost parameter declared once, with its
 * provenance; and parameter sets (the values one run uses, each with its source). */
#pragma once
#include "common.h"

G_BEGIN_DECLS

typedef enum {
  NS_PARAM_DOUBLE,
  NS_PARAM_INT,
  NS_PARAM_BOOL,
  NS_PARAM_STRING
} NsParamType;

typedef struct {
  const char  *name;           /* dotted, e.g. "cache.l2.latency_cycles" */
  NsParamType  type;
  const char  *unit;           /* "cycles", "ns", "KiB", "GHz", "bytes/cycle", "" */
  const char  *default_value;  /* as text */
  const char  *meaning;        /* one sentence */
  const char  *default_source; /* provenance of the default value */
  gboolean     free;           /* may be fitted by `netsim calibrate` */
  double       min, max;       /* valid range for numbers (min > max: unbounded) */
  const char *const *choices;  /* the values a string may take, NULL-terminated (NULL:
                                  any) */
} NsParamDef;

/* Adds a table of definitions to the registry (called once per module at start-up from
 * ns_param_registry_init). A name may be declared only once: a second declaration aborts. */
void              ns_param_register      (const NsParamDef *defs, gsize n_defs);
/* Module tables (each module declares its parameters once, in its own file). */
void              ns_machine_register_params (void);   /* machine-params.c */
/* Registers every module's table; idempotent. */
void              ns_param_registry_init (void);
const NsParamDef *ns_param_lookup        (const char *name);
/* The registered name nearest name when it is near enough to be its misspelling (within a
 * fifth of its length in edits, at least 2), else NULL: for "did you mean". */
const char       *ns_param_nearest (const char *name);
/* The parenthesis an unknown parameter's error ends with: "(did you mean 'PREFIXNEAREST'?
 * netsim list params shows them all)", without the question when no name is near. */
char             *ns_param_unknown_hint (const char *name, const char *prefix);
/* All definitions, sorted by name (owned by the registry). */
GPtrArray        *ns_param_all           (void);

/* A parameter set: for every registered parameter a value and its source. */
typedef struct _NsParams NsParams;

NsParams   *ns_params_new         (void);                 /* registry defaults */
NsParams   *ns_params_copy        (const NsParams *params);
void        ns_params_free        (NsParams *params);
/* Sets a value parsed from text (checked against type and range); source is required. */
gboolean    ns_params_set         (NsParams *params, const char *name, const char *value,
                                   const char *source, GError **error);
double      ns_params_get_double  (const NsParams *params, const char *name);
gint64      ns_params_get_int     (const NsParams *params, const char *name);
gboolean    ns_params_get_bool    (const NsParams *params, const char *name);
const char *ns_params_get_string  (const NsParams *params, const char *name);
const char *ns_params_get_text    (const NsParams *params, const char *name);   /* value as text */
const char *ns_params_get_source  (const NsParams *params, const char *name);
/* From now on params notes each parameter a typed getter (ns_params_get_double, _int,
 * _bool, _string) returns, not ns_params_get_text or _source (which report values rather
 * than use them). A copy starts untracked. Not thread-safe: track a set one thread reads. */
void        ns_params_track_reads (NsParams *params);
/* The names (sorted, newly allocated) of the parameters a typed getter returned since
 * ns_params_track_reads: a parameter outside them cannot have changed what was computed. */
char      **ns_params_read        (const NsParams *params);
typedef void (*NsParamsFunc) (const NsParamDef *def, const char *value, const char *source,
                              gpointer data);
/* TRUE with *out set if all of text is a finite decimal number, as scenario attributes
 * take them: an optional sign, digits (or '.' and a digit), an optional fraction and
 * exponent ("-1.5", "2e3", ".5"); no space, hex, inf or nan. */
gboolean    ns_parse_decimal      (const char *text, double *out);
/* Calls fn for every parameter, sorted by name. */
void        ns_params_foreach     (const NsParams *params, NsParamsFunc fn, gpointer data);

G_END_DECLS
