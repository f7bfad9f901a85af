/* param.c — the parameter registry and parameter sets. */
#include "config.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "param.h"

static GHashTable *registry;      /* name → const NsParamDef* */
static GPtrArray  *registry_sorted;

typedef struct {
  char     *value;
  char     *source;
  gboolean  read;                 /* a typed getter returned it while tracking */
} NsParamValue;

struct _NsParams {
  GHashTable *values;             /* name → NsParamValue* */
  gboolean    track_reads;        /* ns_params_track_reads was called */
};

/* Orders NsParamDef pointers (GPtrArray elements) by name. */
static gint
compare_defs (gconstpointer a, gconstpointer b)
{
  const NsParamDef *da = *(const NsParamDef *const *) a;
  const NsParamDef *db = *(const NsParamDef *const *) b;
  return strcmp (da->name, db->name);
}

/* Adds defs to the registry; a name declared twice is a programming error. */
void
ns_param_register (const NsParamDef *defs, gsize n_defs)
{
  if (registry == NULL) {
    registry = g_hash_table_new (g_str_hash, g_str_equal);
    registry_sorted = g_ptr_array_new ();
  }
  for (gsize i = 0; i < n_defs; i++) {
    if (g_hash_table_contains (registry, defs[i].name))
      g_error ("parameter %s declared twice", defs[i].name);
    g_hash_table_insert (registry, (gpointer) defs[i].name, (gpointer) &defs[i]);
    g_ptr_array_add (registry_sorted, (gpointer) &defs[i]);
  }
  g_ptr_array_sort (registry_sorted, compare_defs);
}

/* Registers every module's parameter table once. */
void
ns_param_registry_init (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    ns_machine_register_params ();
    g_once_init_leave (&done, 1);
  }
}

/* The definition of name, or NULL. */
const NsParamDef *
ns_param_lookup (const char *name)
{
  g_return_val_if_fail (name != NULL, NULL);
  ns_param_registry_init ();
  return g_hash_table_lookup (registry, name);
}

/* See param.h. */
const char *
ns_param_nearest (const char *name)
{
  guint limit = MAX (2u, (guint) strlen (name) / 5), best = G_MAXUINT;
  const char *nearest = NULL;

  g_return_val_if_fail (name != NULL, NULL);
  ns_param_registry_init ();
  for (guint i = 0; i < registry_sorted->len; i++) {
    const NsParamDef *def = registry_sorted->pdata[i];
    guint d = ns_str_distance (name, def->name);
    if (d < best) {
      best = d;
      nearest = def->name;
    }
  }
  return best <= limit ? nearest : NULL;
}

/* See param.h. */
char *
ns_param_unknown_hint (const char *name, const char *prefix)
{
  const char *nearest = ns_param_nearest (name);

  if (nearest == NULL)
    return g_strdup ("(netsim list params shows them all)");
  return g_strdup_printf ("(did you mean '%s%s'? netsim list params shows them all)",
                          prefix, nearest);
}

/* Every definition, sorted by name. */
GPtrArray *
ns_param_all (void)
{
  ns_param_registry_init ();
  return registry_sorted;
}

/* Frees an NsParamValue and its strings (the free func of a set's values table). */
static void
param_value_free (gpointer p)
{
  NsParamValue *v = p;
  g_free (v->value);
  g_free (v->source);
  g_free (v);
}

/* A newly allocated NsParamValue holding copies of value and source. */
static NsParamValue *
param_value_new (const char *value, const char *source)
{
  NsParamValue *v = g_new0 (NsParamValue, 1);
  v->value = g_strdup (value);
  v->source = g_strdup (source);
  return v;
}

/* A parameter set holding every registered parameter at its default. */
NsParams *
ns_params_new (void)
{
  NsParams *params = g_new0 (NsParams, 1);
  GPtrArray *all = ns_param_all ();

  params->values = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, param_value_free);
  for (guint i = 0; i < all->len; i++) {
    const NsParamDef *def = all->pdata[i];
    g_hash_table_insert (params->values, (gpointer) def->name,
                         param_value_new (def->default_value, def->default_source));
  }
  return params;
}

/* A deep copy of params. */
NsParams *
ns_params_copy (const NsParams *params)
{
  NsParams *copy;
  GHashTableIter iter;
  gpointer key, val;

  g_return_val_if_fail (params != NULL, NULL);
  copy = g_new0 (NsParams, 1);
  copy->values = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, param_value_free);
  g_hash_table_iter_init (&iter, params->values);
  while (g_hash_table_iter_next (&iter, &key, &val)) {
    NsParamValue *v = val;
    g_hash_table_insert (copy->values, key, param_value_new (v->value, v->source));
  }
  return copy;
}

/* Frees params (NULL is fine). */
void
ns_params_free (NsParams *params)
{
  if (params == NULL)
    return;
  g_hash_table_unref (params->values);
  g_free (params);
}

/* Parses true/yes/on/1 or false/no/off/0 (case-insensitive) into *out; FALSE otherwise. */
static gboolean
parse_bool (const char *text, gboolean *out)
{
  if (!g_ascii_strcasecmp (text, "true") || !strcmp (text, "1") ||
      !g_ascii_strcasecmp (text, "yes") || !g_ascii_strcasecmp (text, "on"))
    *out = TRUE;
  else if (!g_ascii_strcasecmp (text, "false") || !strcmp (text, "0") ||
           !g_ascii_strcasecmp (text, "no") || !g_ascii_strcasecmp (text, "off"))
    *out = FALSE;
  else
    return FALSE;
  return TRUE;
}

/* Parses a finite decimal number; see param.h. */
gboolean
ns_parse_decimal (const char *text, double *out)
{
  char *end = NULL;
  const char *p = text;

  g_return_val_if_fail (text != NULL && out != NULL, FALSE);
  if (*p == '-' || *p == '+')
    p++;
  if (!g_ascii_isdigit (*p) && !(*p == '.' && g_ascii_isdigit (p[1])))
    return FALSE;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
    return FALSE;
  *out = g_ascii_strtod (text, &end);
  return end != text && *end == '\0' && isfinite (*out);
}

/* TRUE if all of text is an optional sign and decimal digits, as ns_parse_decimal's
 * syntax has integers. */
static gboolean
is_decimal_integer (const char *text)
{
  const char *p = text + (*text == '-' || *text == '+');

  if (!g_ascii_isdigit (*p))
    return FALSE;
  for (; g_ascii_isdigit (*p); p++)
    ;
  return *p == '\0';
}

/* Parses all of text as an integer (NS_PARAM_INT) or a finite double into *out, in the
 * strict syntax of scenario attributes (ns_parse_decimal); FALSE on junk (spaces, hex,
 * inf, nan) or overflow. */
static gboolean
parse_number (const NsParamDef *def, const char *text, double *out)
{
  gint64 v;

  if (def->type != NS_PARAM_INT)
    return ns_parse_decimal (text, out);
  if (!is_decimal_integer (text))
    return FALSE;
  errno = 0;
  v = g_ascii_strtoll (text, NULL, 10);
  *out = (double) v;
  return errno == 0;
}

/* TRUE if text is one of choices (NULL: any text is). */
static gboolean
is_choice (const char *const *choices, const char *text)
{
  if (choices == NULL)
    return TRUE;
  for (guint i = 0; choices[i] != NULL; i++)
    if (!strcmp (choices[i], text))
      return TRUE;
  return FALSE;
}

/* "a, b or c" of choices (at least one), newly allocated. */
static char *
choices_text (const char *const *choices)
{
  GString *text = g_string_new (choices[0]);

  for (guint i = 1; choices[i] != NULL; i++)
    g_string_append_printf (text, "%s%s", choices[i + 1] != NULL ? ", " : " or ", choices[i]);
  return g_string_free (text, FALSE);
}

/* A bound of a parameter's range as text that reads back as the same double: an integer
 * as one ("1048576", where %g gave "1.04858e+06"), else in the fewest significant digits
 * that do ("0.1"); newly allocated. */
static char *
bound_text (double bound)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  if (bound == floor (bound) && fabs (bound) < 9007199254740992.0)     /* 2^53 */
    return g_strdup_printf ("%.0f", bound);
  for (int digits = 1; digits <= 17; digits++) {
    g_autofree char *format = g_strdup_printf ("%%.%dg", digits);

    g_ascii_formatd (text, sizeof text, format, bound);
    if (g_ascii_strtod (text, NULL) == bound)
      return g_strdup (text);
  }
  return g_strdup (g_ascii_dtostr (text, sizeof text, bound));
}

/* Checks text against def's type, range and choices. */
static gboolean
check_value (const NsParamDef *def, const char *text, GError **error)
{
  g_autoptr (GString) shown = g_string_new (NULL);
  g_autofree char *expected = NULL;
  double num;
  gboolean b;

  ns_escape_controls (shown, text);                 /* the error stays one line */

  switch (def->type) {
  case NS_PARAM_STRING:
    if (!is_choice (def->choices, text))
      goto not_a_choice;
    return TRUE;
  case NS_PARAM_BOOL:
    if (!parse_bool (text, &b))
      goto bad_bool;
    return TRUE;
  case NS_PARAM_INT:
  case NS_PARAM_DOUBLE:
    if (!parse_number (def, text, &num))
      goto bad_number;
    if (def->min <= def->max && (num < def->min || num > def->max))
      goto out_of_range;
    return TRUE;
  }
  return TRUE;

/* ERRORS */
not_a_choice:
  expected = choices_text (def->choices);
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "parameter %s: expected %s, got '%s'",
               def->name, expected, shown->str);
  return FALSE;
bad_bool:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT,
               "parameter %s: expected true or false, got '%s'", def->name, shown->str);
  return FALSE;
bad_number:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "parameter %s: expected %s, got '%s'",
               def->name, def->type == NS_PARAM_INT ? "an integer" : "a number", shown->str);
  return FALSE;
out_of_range:
  {
    g_autofree char *min = bound_text (def->min), *max = bound_text (def->max);

    g_set_error (error, NS_ERROR, NS_ERROR_INPUT,
                 "parameter %s: %s is outside the valid range [%s, %s] %s",
                 def->name, shown->str, min, max, def->unit);
    return FALSE;
  }
}

/* Sets name to value (checked), recording source. */
gboolean
ns_params_set (NsParams *params, const char *name, const char *value, const char *source,
               GError **error)
{
  const NsParamDef *def;

  g_return_val_if_fail (params != NULL && name != NULL && value != NULL, FALSE);
  def = ns_param_lookup (name);
  if (def == NULL)
    goto unknown;
  if (source == NULL || *source == '\0')
    goto no_source;
  if (!check_value (def, value, error))
    return FALSE;
  g_hash_table_replace (params->values, (gpointer) def->name, param_value_new (value, source));
  return TRUE;

/* ERRORS */
unknown:
  {
    g_autofree char *hint = ns_param_unknown_hint (name, "");
    g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "unknown parameter '%s' %s", name, hint);
  }
  return FALSE;
no_source:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "parameter %s: a value needs a source", name);
  return FALSE;
}

/* The stored value of name; aborts (g_error) if name is undeclared or of another type (an
 * integer parameter may be read as a double). */
static const NsParamValue *
get_value (const NsParams *params, const char *name, NsParamType type)
{
  const NsParamDef *def = ns_param_lookup (name);
  NsParamValue *v;

  if (def == NULL)
    g_error ("model asked for undeclared parameter %s", name);
  if (def->type != type && !(type == NS_PARAM_DOUBLE && def->type == NS_PARAM_INT))
    g_error ("parameter %s read with the wrong type", name);
  v = g_hash_table_lookup (params->values, name);
  g_assert (v != NULL);
  if (params->track_reads)
    v->read = TRUE;
  return v;
}

/* The value of a number parameter. */
double
ns_params_get_double (const NsParams *params, const char *name)
{
  return g_ascii_strtod (get_value (params, name, NS_PARAM_DOUBLE)->value, NULL);
}

/* The value of an integer parameter. */
gint64
ns_params_get_int (const NsParams *params, const char *name)
{
  return g_ascii_strtoll (get_value (params, name, NS_PARAM_INT)->value, NULL, 10);
}

/* The value of a boolean parameter. */
gboolean
ns_params_get_bool (const NsParams *params, const char *name)
{
  gboolean b = FALSE;
  parse_bool (get_value (params, name, NS_PARAM_BOOL)->value, &b);
  return b;
}

/* The value of a string parameter (owned by params). */
const char *
ns_params_get_string (const NsParams *params, const char *name)
{
  return get_value (params, name, NS_PARAM_STRING)->value;
}

/* The value of any parameter as text (owned by params), or NULL if undeclared. */
const char *
ns_params_get_text (const NsParams *params, const char *name)
{
  NsParamValue *v = g_hash_table_lookup (params->values, name);
  return v ? v->value : NULL;
}

/* Where the value of name came from (owned by params), or NULL if undeclared. */
const char *
ns_params_get_source (const NsParams *params, const char *name)
{
  NsParamValue *v = g_hash_table_lookup (params->values, name);
  return v ? v->source : NULL;
}

/* Notes from now on which parameters a typed getter reads; see param.h. */
void
ns_params_track_reads (NsParams *params)
{
  g_return_if_fail (params != NULL);

  params->track_reads = TRUE;
}

/* The parameters read since ns_params_track_reads; see param.h. */
char **
ns_params_read (const NsParams *params)
{
  g_autoptr (GStrvBuilder) names = NULL;
  GPtrArray *all;

  g_return_val_if_fail (params != NULL, NULL);

  names = g_strv_builder_new ();
  all = ns_param_all ();
  for (guint i = 0; i < all->len; i++) {
    const NsParamDef *def = all->pdata[i];
    const NsParamValue *v = g_hash_table_lookup (params->values, def->name);
    if (v->read)
      g_strv_builder_add (names, def->name);
  }
  return g_strv_builder_end (names);
}

/* Calls fn for every parameter in name order. */
void
ns_params_foreach (const NsParams *params, NsParamsFunc fn, gpointer data)
{
  GPtrArray *all = ns_param_all ();

  for (guint i = 0; i < all->len; i++) {
    const NsParamDef *def = all->pdata[i];
    NsParamValue *v = g_hash_table_lookup (params->values, def->name);
    fn (def, v->value, v->source, data);
  }
}
