/* sweep.c — what-if sweeps: grid expansion, point seeds, durable CSV append, resume check
 * and parallel execution in forked worker processes.
 *
 * The grid: the dimensions in the order given (the first is outermost), then the variant
 * dimension if the scenario has variants and --param variant was not given, then the
 * repetition (--repeat) innermost. A point's index in that order is its identity: its
 * values, its seed and its line in the output follow from the index alone, never from
 * scheduling. Every point runs in a worker process forked for it, so a point that crashes
 * or aborts is recorded as failed and nothing a point does can reach another. */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "sweep.h"
#include "child.h"
#include "csv.h"
#include "json.h"
#include "param.h"
#include "profile.h"
#include "report.h"
#include "run.h"
#include "scenario.h"

#define MAX_VALUES   1000000u     /* per dimension */
#define MAX_POINTS   10000000u    /* per sweep */
#define POLL_MS      250

typedef struct {
  char      *path;     /* "workload.working-set", "param.x", "seed" or "variant" */
  char      *spec;     /* the values as given */
  GPtrArray *values;   /* char* */
} NsSweepDim;

struct _NsSweep {
  char        *path;          /* scenario, absolute */
  char       **sets;          /* fixed --set strings */
  NsScenario  *base;          /* the scenario with the fixed sets */
  char        *sha256;
  GHashTable  *inputs;        /* path → sha256 of the files every point reads anew: the
                                 scenario, its profile, a swept profile (once prepared) */
  GPtrArray   *variant_names; /* of the scenario, file order */
  GPtrArray   *dims;          /* NsSweepDim* */
  gint         seed_dim;      /* index in dims, or -1 */
  gint         variant_dim;
  gboolean     seed_given;
  guint64      seed;
  guint        repeat;
  char        *variant;       /* --variant */
  gboolean     timing;        /* a wall_s column (host time: differs between runs) */
  gboolean     prepared;
  guint        n_points;
  GPtrArray   *columns;       /* char*, NULL-terminated */
  guint        n_key;         /* leading columns that identify a point */
  GString     *header;
  /* output */
  char        *output;
  int          fd;
  char       **lines;         /* per point: its line without '\n', or NULL */
  guint        n_done;
  guint        n_failed;
  gboolean     in_order;      /* the file holds each point once, in index order */
  gint64       last_written;  /* index of the last line in the file, -1 if none */
  gboolean     torn;
  gboolean     header_cut;    /* opening found only the start of the header */
  /* while reading an output back */
  guint       *read_at;       /* per point: the line it was read from, 0 if none yet */
  GHashTable  *measures;      /* point_measure's cache */
};

typedef struct {
  char        *metric;        /* what the point's scenario reports */
  guint        reps;          /* its measure repetitions */
  NsAggregate  how;           /* how it aggregates them */
} NsPointMeasure;

/* The result columns, after the n_key columns that identify a point (prepare_columns). */
enum { COL_STATUS, COL_METRIC, COL_VALUE, COL_CV, COL_REPS, COL_OPS, COL_VALUES, COL_ERROR,
       COL_NOTES, COL_WALL };

/* ------------------------------------------------------------------------------------- */
/* Numbers and CSV */

/* Shortest decimal text that reads back as value (locale-independent). */
char *
ns_sweep_format_double (double value)
{
  /* no exponent between 1e-4 and 1e15: 40 is "40", not "4e+01" */
  gboolean plain = fabs (value) >= 1e-4 && fabs (value) < 1e15;
  char buf[G_ASCII_DTOSTR_BUF_SIZE], format[8];

  if (isnan (value))
    return g_strdup ("nan");
  if (isinf (value))
    return g_strdup (value > 0 ? "inf" : "-inf");
  for (int digits = 1; digits <= 17; digits++) {
    g_snprintf (format, sizeof format, "%%.%dg", digits);
    g_ascii_formatd (buf, sizeof buf, format, value);
    if (g_ascii_strtod (buf, NULL) == value && (!plain || strchr (buf, 'e') == NULL))
      break;
  }
  return g_strdup (buf);
}

/* Splits one CSV line (RFC 4180 quoting) into fields; kept for the sweep API. */
char **
ns_sweep_csv_split (const char *line)
{
  return ns_csv_split (line);
}

/* ------------------------------------------------------------------------------------- */
/* Value lists and ranges */

typedef enum { FAMILY_NONE, FAMILY_SIZE, FAMILY_TIME } NsFamily;

typedef struct {
  const char *unit;
  NsFamily    family;
  double      factor;    /* bytes or picoseconds */
} NsUnit;

/* The units ns_parse_size and ns_parse_time accept. */
static const NsUnit units[] = {
  { "B", FAMILY_SIZE, 1 }, { "K", FAMILY_SIZE, 1e3 }, { "KB", FAMILY_SIZE, 1e3 },
  { "M", FAMILY_SIZE, 1e6 }, { "MB", FAMILY_SIZE, 1e6 }, { "G", FAMILY_SIZE, 1e9 },
  { "GB", FAMILY_SIZE, 1e9 }, { "T", FAMILY_SIZE, 1e12 }, { "TB", FAMILY_SIZE, 1e12 },
  { "KiB", FAMILY_SIZE, 1024.0 }, { "MiB", FAMILY_SIZE, 1048576.0 },
  { "GiB", FAMILY_SIZE, 1073741824.0 }, { "TiB", FAMILY_SIZE, 1099511627776.0 },
  { "ps", FAMILY_TIME, 1 }, { "ns", FAMILY_TIME, 1e3 }, { "us", FAMILY_TIME, 1e6 },
  { "ms", FAMILY_TIME, 1e9 }, { "s", FAMILY_TIME, 1e12 },
};

typedef struct {
  double        number;   /* as written */
  const NsUnit *unit;     /* NULL: a bare number */
} NsQuantity;

/* Parses "[+-]digits[.digits][e[+-]digits][unit]". */
static gboolean
parse_quantity (const char *text, NsQuantity *q)
{
  const char *p = text;
  g_autofree char *number = NULL;

  if (*p == '+' || *p == '-')
    p++;
  if (!g_ascii_isdigit (*p))
    return FALSE;
  while (g_ascii_isdigit (*p))
    p++;
  if (*p == '.' && g_ascii_isdigit (p[1]))
    for (p++; g_ascii_isdigit (*p); p++);
  if ((*p == 'e' || *p == 'E') && (g_ascii_isdigit (p[1]) ||
      ((p[1] == '+' || p[1] == '-') && g_ascii_isdigit (p[2]))))
    for (p += 2; g_ascii_isdigit (*p); p++);
  number = g_strndup (text, p - text);
  q->number = g_ascii_strtod (number, NULL);
  q->unit = NULL;
  if (*p == '\0')
    return isfinite (q->number);
  for (gsize i = 0; i < G_N_ELEMENTS (units); i++)
    if (!strcmp (p, units[i].unit)) {
      q->unit = &units[i];
      return isfinite (q->number);
    }
  return FALSE;
}

/* Parses "×F", "xF" or "*F" into factor; FALSE if step is not a factor. */
static gboolean
parse_factor (const char *step, double *factor)
{
  char *end;

  if (g_str_has_prefix (step, "\xc3\x97"))     /* × */
    step += 2;
  else if (*step == 'x' || *step == '*')
    step++;
  else
    return FALSE;
  *factor = g_ascii_strtod (step, &end);
  return *step != '\0' && *end == '\0';
}

/* The unit a range's bare numbers and results are read in: the first one written. */
static const NsUnit *
range_unit (const NsQuantity *q, guint n)
{
  for (guint i = 0; i < n; i++)
    if (q[i].unit)
      return q[i].unit;
  return NULL;
}

/* Numbers of a range in base units (bytes, ps, or as written). */
static gboolean
range_numbers (const char *item, NsQuantity *q, guint n, const char *step, GArray *out,
               GError **error)
{
  const NsUnit *unit = range_unit (q, n);
  double base[3] = { 0 }, factor, v;

  for (guint i = 0; i < n; i++) {
    if (q[i].unit && unit && q[i].unit->family != unit->family)
      goto mixed_units;
    base[i] = q[i].number * (q[i].unit ? q[i].unit->factor : unit ? unit->factor : 1);
  }
  if (n == 2) {                         /* geometric: step is a factor */
    if (!parse_factor (step, &factor) || !(factor > 0) || factor == 1 || base[0] == 0 ||
        base[1] == 0 || (base[0] < 0) != (base[1] < 0))
      goto bad_factor;
    for (v = base[0]; factor > 1 ? fabs (v) <= fabs (base[1]) * (1 + 1e-9)
                                 : fabs (v) >= fabs (base[1]) * (1 - 1e-9); v *= factor) {
      if (out->len >= MAX_VALUES)
        goto too_many;
      g_array_append_val (out, v);
    }
  } else {
    double count;
    if (base[2] == 0)
      goto zero_step;
    count = floor ((base[1] - base[0]) / base[2] + 1e-9) + 1;
    if (count > MAX_VALUES)
      goto too_many;
    for (guint k = 0; k < (guint) MAX (count, 0); k++) {
      v = base[0] + k * base[2];
      g_array_append_val (out, v);
    }
  }
  if (out->len == 0)
    goto empty;
  for (guint i = 0; i < n; i++)
    if (fabs (base[i]) > 9007199254740992.0)   /* 2^53: past it a double skips integers */
      goto inexact;
  return TRUE;

/* ERRORS */
inexact:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "range '%s' reaches past 2^53, where its "
               "values are not exact; list them instead", item);
  return FALSE;
mixed_units:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "range '%s' mixes sizes and times", item);
  return FALSE;
bad_factor:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "range '%s': expected START:STOP:×FACTOR "
               "with START and STOP of the same sign, not 0, and FACTOR > 0, not 1 (or a "
               "STEP number)", item);
  return FALSE;
zero_step:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "range '%s': STEP must not be 0", item);
  return FALSE;
too_many:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "range '%s' has more than %u values", item,
               MAX_VALUES);
  return FALSE;
empty:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "range '%s' is empty (STOP lies before "
               "START in the direction of STEP)", item);
  return FALSE;
}

/* Every number is whole (to rounding) and, so rounded, an exact multiple of factor (an
 * integer: a unit's bytes or picoseconds); exact, so that 1 s + 1 ps is not whole in s. */
static gboolean
whole_in (const GArray *numbers, double factor)
{
  for (guint i = 0; i < numbers->len; i++) {
    double v = g_array_index (numbers, double, i), r = nearbyint (v);
    if (fabs (v - r) > 1e-9 * MAX (1.0, fabs (v)) || fmod (r, factor) != 0)
      return FALSE;
  }
  return TRUE;
}

/* Text of a bare number: integers exactly (up to 2^53, as far as a double holds them
 * all), others to 12 significant digits. */
static char *
format_plain (double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (v == 0)
    return g_strdup ("0");
  if (fabs (v) <= 9007199254740992.0 && v == nearbyint (v))
    return g_strdup_printf ("%.0f", v);
  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.12g", v));
}

/* TRUE if the range's item wrote unit (spelt so). */
static gboolean
unit_written (const NsQuantity *q, guint n, const NsUnit *unit)
{
  for (guint i = 0; i < n; i++)
    if (q[i].unit == unit)
      return TRUE;
  return FALSE;
}

/* TRUE if every number is 0. */
static gboolean
all_zero (const GArray *numbers)
{
  for (guint i = 0; i < numbers->len; i++)
    if (g_array_index (numbers, double, i) != 0)
      return FALSE;
  return TRUE;
}

/* The largest unit of family in which every number is whole (of two of one size, K and
 * KB, the one written, else the longer name), NULL if none is; numbers that are all 0
 * keep the unit written first. */
static const NsUnit *
whole_unit (const GArray *numbers, NsFamily family, const NsQuantity *q, guint n)
{
  const NsUnit *best = NULL;

  if (all_zero (numbers))
    return range_unit (q, n);
  for (gsize i = 0; i < G_N_ELEMENTS (units); i++) {
    const NsUnit *u = &units[i];
    if (u->family != family || !whole_in (numbers, u->factor))
      continue;
    if (best == NULL || u->factor > best->factor ||
        (u->factor == best->factor && !unit_written (q, n, best) &&
         (unit_written (q, n, u) || strlen (u->unit) > strlen (best->unit))))
      best = u;
  }
  return best;
}

/* Appends the numbers as text in the largest unit of their kind in which all are whole
 * (sizes and times must be whole numbers of bytes and picoseconds); bare numbers as they
 * are. */
static gboolean
format_numbers (const char *item, const NsQuantity *q, guint n, const GArray *numbers,
                GPtrArray *values, GError **error)
{
  const NsUnit *unit = range_unit (q, n), *best;

  if (unit == NULL) {
    for (guint i = 0; i < numbers->len; i++)
      g_ptr_array_add (values, format_plain (g_array_index (numbers, double, i)));
    return TRUE;
  }
  best = whole_unit (numbers, unit->family, q, n);
  if (best == NULL)
    goto not_whole;
  for (guint i = 0; i < numbers->len; i++)
    g_ptr_array_add (values, g_strdup_printf ("%.0f%s", nearbyint (g_array_index (numbers,
                     double, i)) / best->factor, best->unit));
  return TRUE;

/* ERRORS */
not_whole:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "range '%s' has values that are not whole "
               "%s", item, unit->family == FAMILY_SIZE ? "bytes" : "picoseconds");
  return FALSE;
}

/* Expands one item: a range START:STOP:STEP / START:STOP:×F, or a literal value. */
static gboolean
expand_item (const char *item, GPtrArray *values, GError **error)
{
  g_auto (GStrv) parts = g_strsplit (item, ":", -1);
  guint n = g_strv_length (parts);
  NsQuantity q[3];
  double factor;
  g_autoptr (GArray) numbers = g_array_new (FALSE, FALSE, sizeof (double));

  if (item[0] == '\0')
    goto empty;
  if (n < 2 || !parse_quantity (parts[0], &q[0])) {
    g_ptr_array_add (values, g_strdup (item));
    return TRUE;
  }
  if (n != 3 || !parse_quantity (parts[1], &q[1]))
    goto bad_range;
  if (parse_factor (parts[2], &factor)) {
    if (!range_numbers (item, q, 2, parts[2], numbers, error))
      return FALSE;
    return format_numbers (item, q, 2, numbers, values, error);
  }
  if (!parse_quantity (parts[2], &q[2]))
    goto bad_range;
  if (!range_numbers (item, q, 3, parts[2], numbers, error))
    return FALSE;
  return format_numbers (item, q, 3, numbers, values, error);

/* ERRORS */
empty:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "empty value in the list");
  return FALSE;
bad_range:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "bad range '%s': expected START:STOP:STEP or "
               "START:STOP:×FACTOR (numbers, with the same kind of unit: 4KiB:1MiB:×2, "
               "10us:100us:10us)", item);
  return FALSE;
}

/* Splits text at the commas not written "\,"; in the items "\," is a comma and "\\" a
 * backslash. Newly allocated. */
static char **
split_items (const char *text)
{
  GPtrArray *items = g_ptr_array_new ();
  GString *item = g_string_new (NULL);

  for (const char *c = text; *c; c++) {
    if (*c == '\\' && (c[1] == ',' || c[1] == '\\'))
      g_string_append_c (item, *++c);
    else if (*c == ',') {
      g_ptr_array_add (items, g_string_free (item, FALSE));
      item = g_string_new (NULL);
    } else
      g_string_append_c (item, *c);
  }
  g_ptr_array_add (items, g_string_free (item, FALSE));
  g_ptr_array_add (items, NULL);
  return (char **) g_ptr_array_free (items, FALSE);
}

/* TRUE if no value comes twice (as written); else says which (repetitions are --repeat's:
 * a point given twice would count as two samples of one configuration). */
static gboolean
all_distinct (const GPtrArray *values, GError **error)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < values->len; i++)
    if (!g_hash_table_add (seen, values->pdata[i])) {
      g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "'%s' comes twice (to repeat points, "
                   "use --repeat)", (const char *) values->pdata[i]);
      return FALSE;
    }
  return TRUE;
}

/* Expands "V1,V2,…" (items may be ranges; "\," a comma inside a value) into values. */
GPtrArray *
ns_sweep_expand (const char *text, GError **error)
{
  g_auto (GStrv) items = NULL;
  GPtrArray *values;

  g_return_val_if_fail (text != NULL, NULL);
  items = split_items (text);
  values = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; items[i]; i++) {
    if (!expand_item (items[i], values, error))
      goto fail;
    if (values->len > MAX_VALUES)
      goto too_many;
  }
  if (values->len == 0)
    goto fail_empty;
  if (!all_distinct (values, error))
    goto fail;
  return values;

/* ERRORS */
too_many:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "more than %u values", MAX_VALUES);
  goto fail;
fail_empty:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "no values");
fail:
  g_ptr_array_unref (values);
  return NULL;
}

/* ------------------------------------------------------------------------------------- */
/* The sweep and its grid */

/* Frees a dimension. */
static void
dim_free (gpointer p)
{
  NsSweepDim *dim = p;
  g_free (dim->path);
  g_free (dim->spec);
  g_ptr_array_unref (dim->values);
  g_free (dim);
}

/* SHA-256 of the file at path, in hex. */
static char *
file_sha256 (const char *path, GError **error)
{
  g_autofree char *data = NULL;
  gsize len;

  if (!g_file_get_contents (path, &data, &len, error))
    return NULL;
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) data, len);
}

/* SHA-256 of the running executable, in hex, read once (/proc/self/exe: the file this
 * process runs, wherever it was started from); NULL if it cannot be read. */
static const char *
build_sha256 (void)
{
  static gsize once = 0;
  static char *sha;

  if (g_once_init_enter (&once)) {
    sha = file_sha256 ("/proc/self/exe", NULL);
    g_once_init_leave (&once, 1);
  }
  return sha;
}

/* A sweep of the scenario at path (its variant named variant, or all) with fixed
 * overrides sets. */
NsSweep *
ns_sweep_new (const char *path, const char *variant, const char *const *sets,
              GError **error)
{
  NsSweep *sweep;
  NsScenario *base;
  char *sha;

  g_return_val_if_fail (path != NULL, NULL);
  if (!ns_run_check_file (path, error))      /* valid as written, whatever the sets */
    return NULL;
  base = ns_scenario_load_variant (path, variant, sets, NULL, NULL, error);
  if (base == NULL)
    return NULL;
  sha = file_sha256 (path, error);
  if (sha == NULL) {
    ns_scenario_free (base);
    return NULL;
  }
  sweep = g_new0 (NsSweep, 1);
  sweep->path = g_canonicalize_filename (path, NULL);
  sweep->sets = g_strdupv ((char **) sets);
  if (sweep->sets == NULL)
    sweep->sets = g_new0 (char *, 1);
  sweep->base = base;
  sweep->sha256 = sha;
  sweep->inputs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  sweep->variant_names = ns_run_variant_names (base);
  sweep->dims = g_ptr_array_new_with_free_func (dim_free);
  sweep->seed_dim = sweep->variant_dim = -1;
  sweep->seed = base->seed;
  sweep->repeat = 1;
  sweep->variant = g_strdup (variant);
  sweep->fd = -1;
  sweep->last_written = -1;
  return sweep;
}

/* Frees the sweep (closing its output). */
void
ns_sweep_free (NsSweep *sweep)
{
  if (sweep == NULL)
    return;
  if (sweep->fd >= 0)
    close (sweep->fd);
  if (sweep->lines)
    for (guint i = 0; i < sweep->n_points; i++)
      g_free (sweep->lines[i]);
  g_free (sweep->lines);
  g_free (sweep->output);
  if (sweep->header)
    g_string_free (sweep->header, TRUE);
  g_clear_pointer (&sweep->columns, g_ptr_array_unref);
  g_free (sweep->variant);
  g_ptr_array_unref (sweep->dims);
  g_ptr_array_unref (sweep->variant_names);
  g_free (sweep->sha256);
  g_hash_table_unref (sweep->inputs);
  ns_scenario_free (sweep->base);
  g_strfreev (sweep->sets);
  g_free (sweep->path);
  g_free (sweep);
}

/* Every value is a seed (an unsigned 64-bit integer). */
static gboolean
all_seeds (const GPtrArray *values, GError **error)
{
  for (guint i = 0; i < values->len; i++)
    if (!g_ascii_string_to_unsigned (values->pdata[i], 10, 0, G_MAXUINT64, NULL, NULL)) {
      g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "--param seed: '%s' is not a seed "
                   "(an integer ≥ 0)", (const char *) values->pdata[i]);
      return FALSE;
    }
  return TRUE;
}

/* The dimension that sweeps the attribute path (however spelt), or NULL. */
static const NsSweepDim *
dim_of_path (const NsSweep *sweep, const char *path)
{
  g_autofree char *key = ns_scenario_set_key (path);

  for (guint d = 0; d < sweep->dims->len; d++) {
    const NsSweepDim *dim = sweep->dims->pdata[d];
    g_autofree char *dim_key = ns_scenario_set_key (dim->path);
    if (g_str_equal (dim_key, key))
      return dim;
  }
  return NULL;
}

/* The --set of sweep that sets the attribute path names, or NULL. */
static const char *
set_of_path (const NsSweep *sweep, const char *path)
{
  g_autofree char *key = ns_scenario_set_key (path);

  for (guint i = 0; sweep->sets[i] != NULL; i++) {
    g_autofree char *set_key = ns_scenario_set_key (sweep->sets[i]);
    if (g_str_equal (set_key, key))
      return sweep->sets[i];
  }
  return NULL;
}

/* Adds a dimension "PATH=VALUES". */
gboolean
ns_sweep_add_param (NsSweep *sweep, const char *spec, GError **error)
{
  const char *eq, *set;
  g_autofree char *path = NULL;
  GPtrArray *values;
  NsSweepDim *dim;
  GError *local = NULL;

  g_return_val_if_fail (sweep != NULL && !sweep->prepared && spec != NULL, FALSE);
  eq = strchr (spec, '=');
  if (eq == NULL || eq == spec || eq[1] == '\0')
    goto bad_spec;
  path = g_strndup (spec, eq - spec);
  if (dim_of_path (sweep, path) != NULL)
    goto twice;
  if ((set = set_of_path (sweep, path)) != NULL)
    goto also_set;
  values = ns_sweep_expand (eq + 1, &local);
  if (values == NULL)
    goto bad_values;
  if (!strcmp (path, "seed") && !all_seeds (values, error)) {
    g_ptr_array_unref (values);
    return FALSE;
  }
  dim = g_new0 (NsSweepDim, 1);
  dim->path = g_steal_pointer (&path);
  dim->spec = g_strdup (eq + 1);
  dim->values = values;
  if (!strcmp (dim->path, "seed"))
    sweep->seed_dim = sweep->dims->len;
  else if (!strcmp (dim->path, "variant"))
    sweep->variant_dim = sweep->dims->len;
  g_ptr_array_add (sweep->dims, dim);
  return TRUE;

/* ERRORS */
bad_spec:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "--param %s: expected PATH=V1,V2,… or "
               "PATH=START:STOP:STEP or PATH=START:STOP:×FACTOR", spec);
  return FALSE;
twice:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "--param %s: %s is swept twice (one "
               "attribute, however spelt)", spec, path);
  return FALSE;
also_set:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "--param %s: --set %s sets the same "
               "attribute, and every point would override it: drop one", spec, set);
  return FALSE;
bad_values:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "--param %s: %s", spec, local->message);
  g_error_free (local);
  return FALSE;
}

/* Sets the sweep seed the points' seeds derive from. */
void
ns_sweep_set_seed (NsSweep *sweep, guint64 seed)
{
  g_return_if_fail (sweep != NULL && !sweep->prepared);
  sweep->seed = seed;
  sweep->seed_given = TRUE;
}

/* Runs every point repeat times, each with its own seed. */
void
ns_sweep_set_repeat (NsSweep *sweep, guint repeat)
{
  g_return_if_fail (sweep != NULL && !sweep->prepared && repeat >= 1);
  sweep->repeat = repeat;
}

/* With timing, each line ends with the host seconds its point took (a wall_s column). */
void
ns_sweep_set_timing (NsSweep *sweep, gboolean timing)
{
  g_return_if_fail (sweep != NULL && !sweep->prepared);
  sweep->timing = timing;
}

/* Restricts the variants to name. */
void
ns_sweep_set_variant (NsSweep *sweep, const char *name)
{
  g_return_if_fail (sweep != NULL && !sweep->prepared && name != NULL);
  g_free (sweep->variant);
  sweep->variant = g_strdup (name);
}

/* Adds the variant dimension (--variant, or every variant) when the scenario has some. */
static gboolean
prepare_variants (NsSweep *sweep, GError **error)
{
  g_autofree char *list = NULL;
  NsSweepDim *dim;
  guint i;

  if (sweep->variant && sweep->variant_dim >= 0)
    goto both;
  if (sweep->variant_names->len == 0 && (sweep->variant || sweep->variant_dim >= 0))
    goto no_variants;
  if (sweep->variant_names->len == 0)
    return TRUE;
  if (sweep->variant_dim < 0) {
    dim = g_new0 (NsSweepDim, 1);
    dim->path = g_strdup ("variant");
    dim->values = g_ptr_array_new_with_free_func (g_free);
    if (sweep->variant)
      g_ptr_array_add (dim->values, g_strdup (sweep->variant));
    else
      for (i = 0; i < sweep->variant_names->len; i++)
        g_ptr_array_add (dim->values, g_strdup (sweep->variant_names->pdata[i]));
    dim->spec = sweep->variant ? g_strdup (sweep->variant) : g_strdup ("(all)");
    sweep->variant_dim = sweep->dims->len;
    g_ptr_array_add (sweep->dims, dim);
  }
  dim = sweep->dims->pdata[sweep->variant_dim];
  for (i = 0; i < dim->values->len; i++)
    if (!g_ptr_array_find_with_equal_func (sweep->variant_names, dim->values->pdata[i],
                                           g_str_equal, NULL))
      goto unknown;
  return TRUE;

/* ERRORS */
both:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "give --variant or --param variant=…, not both");
  return FALSE;
no_variants:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s has no variants", sweep->path);
  return FALSE;
unknown:
  list = ns_run_variant_list (sweep->variant_names);
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s: no variant named '%s' (variants: %s)",
               sweep->path, (const char *) dim->values->pdata[i], list);
  return FALSE;
}

/* Tries one value of a dimension on its own on variant (NULL: the scenario has none): is it
 * set up as a point would be, with the run's own checks (scenario, CPU profile, parameter
 * ranges, kernel version, command line, .config and patches, then the workload's
 * attributes on a fresh machine)? */
static gboolean
try_value_on (const NsSweep *sweep, const NsSweepDim *dim, const char *value,
              const char *variant, GError **error)
{
  g_autofree char *param = g_strdup_printf ("%s=%s", dim->path, value);
  const char *const params[] = { param, NULL };
  NsRunOptions opt = { .sets = (const char *const *) sweep->sets, .params = params,
                       .params_by = "--param" };

  return ns_run_check_workload (sweep->path, variant, &opt, error);
}

/* Tries one value on each variant the sweep runs until one takes it (a value may be meant
 * for what only some variants have); FALSE with the first variant's error if none does. */
static gboolean
try_value (const NsSweep *sweep, const NsSweepDim *dim, const char *value, GError **error)
{
  const NsSweepDim *variants;
  GError *first = NULL;

  if (sweep->variant_dim < 0)
    return try_value_on (sweep, dim, value, NULL, error);
  variants = sweep->dims->pdata[sweep->variant_dim];
  for (guint i = 0; i < variants->values->len; i++) {
    GError *local = NULL;
    if (try_value_on (sweep, dim, value, variants->values->pdata[i], &local)) {
      g_clear_error (&first);
      return TRUE;
    }
    if (first == NULL)
      first = local;
    else
      g_error_free (local);
  }
  g_propagate_error (error, first);
  return FALSE;
}

/* The reason in a value's error without the "--param PATH=VALUE: " it may start with
 * (check_dim's message names the dimension and value already). */
static const char *
value_reason (const GError *error, const char *path)
{
  g_autofree char *prefix = g_strdup_printf ("--param %s=", path);
  const char *colon;

  if (!g_str_has_prefix (error->message, prefix))
    return error->message;
  colon = strstr (error->message + strlen (prefix), ": ");
  return colon != NULL ? colon + 2 : error->message;
}

/* Every value of a dimension must give a scenario that loads (and a workload that sets up,
 * a parameter value in range): a typo is refused before any point runs. A dimension none
 * of whose values works is a mistake in PATH and is said so. */
static gboolean
check_dim (const NsSweep *sweep, const NsSweepDim *dim, GError **error)
{
  GError *first = NULL;
  const char *first_value = NULL;
  guint n_bad = 0;

  if (g_str_has_prefix (dim->path, "param.") && ns_param_lookup (dim->path + 6) == NULL)
    goto unknown_param;
  for (guint i = 0; i < dim->values->len; i++) {
    GError *local = NULL;
    if (try_value (sweep, dim, dim->values->pdata[i], &local))
      continue;
    n_bad++;
    if (first == NULL) {
      first = local;
      first_value = dim->values->pdata[i];
    } else {
      g_error_free (local);
    }
  }
  if (first == NULL)
    return TRUE;
  if (n_bad == dim->values->len)
    g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "--param %s=%s: no value works: %s",
                 dim->path, dim->spec, value_reason (first, dim->path));
  else
    g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "--param %s=%s: the value '%s' does not "
                 "work (%u of %u values do not): %s", dim->path, dim->spec, first_value,
                 n_bad, dim->values->len, value_reason (first, dim->path));
  g_error_free (first);
  return FALSE;

/* ERRORS */
unknown_param:
  {
    g_autofree char *hint = ns_param_unknown_hint (dim->path + 6, "param.");
    g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "--param %s: no parameter named '%s' %s",
                 dim->path, dim->path + 6, hint);
  }
  return FALSE;
}

/* The fixed --sets alone, on the scenario's own values, must set up on each variant the
 * sweep runs (every point of it applies them): a bad --set is refused before any point
 * runs, as netsim run refuses it, and not blamed on a dimension. */
static gboolean
check_sets (const NsSweep *sweep, GError **error)
{
  const NsSweepDim *variants;
  NsRunOptions opt = { .sets = (const char *const *) sweep->sets };
  GError *local = NULL;
  guint i;

  if (sweep->sets[0] == NULL)
    return TRUE;
  if (sweep->variant_dim < 0)
    return ns_run_check_workload (sweep->path, NULL, &opt, error);
  variants = sweep->dims->pdata[sweep->variant_dim];
  for (i = 0; i < variants->values->len; i++)
    if (!ns_run_check_workload (sweep->path, variants->values->pdata[i], &opt, &local))
      goto refused;
  return TRUE;

/* ERRORS */
refused:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "--set on variant '%s': %s",
               (const char *) variants->values->pdata[i], local->message);
  g_error_free (local);
  return FALSE;
}

/* Columns: point, the dimensions (the seed has its own column), then the results. */
static void
prepare_columns (NsSweep *sweep)
{
  static const char *const tail[] = { "status", "metric", "value", "cv", "reps", "ops",
                                      "values", "error", "notes" };

  sweep->columns = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (sweep->columns, g_strdup ("point"));
  for (guint i = 0; i < sweep->dims->len; i++)
    if ((gint) i != sweep->seed_dim)
      g_ptr_array_add (sweep->columns, g_strdup (((NsSweepDim *) sweep->dims->pdata[i])->path));
  g_ptr_array_add (sweep->columns, g_strdup ("repetition"));
  g_ptr_array_add (sweep->columns, g_strdup ("seed"));
  sweep->n_key = sweep->columns->len;
  for (guint i = 0; i < G_N_ELEMENTS (tail); i++)
    g_ptr_array_add (sweep->columns, g_strdup (tail[i]));
  if (sweep->timing)
    g_ptr_array_add (sweep->columns, g_strdup ("wall_s"));
  g_ptr_array_add (sweep->columns, NULL);
}

/* One "# swept cpu-profile" line per value of a cpu.profile dimension: the file and its
 * hash, so that --resume notices a profile edited in between; a profile that does not
 * load is said so (its points fail and say why). */
static void
header_swept_profiles (const NsSweep *sweep, GString *out)
{
  for (guint d = 0; d < sweep->dims->len; d++) {
    const NsSweepDim *dim = sweep->dims->pdata[d];
    if (strcmp (dim->path, "cpu.profile"))
      continue;
    for (guint v = 0; v < dim->values->len; v++) {
      const char *value = dim->values->pdata[v];
      g_autoptr (GError) err = NULL;
      NsCpuProfile *profile = ns_cpu_profile_load (value, &err);
      g_autofree char *sha = profile ? file_sha256 (profile->path, &err) : NULL;
      if (sha != NULL)
        ns_csv_comment (out, "swept cpu-profile %s: %s sha256 %s", value, profile->path, sha);
      else
        ns_csv_comment (out, "swept cpu-profile %s: does not load", value);
      if (profile)
        ns_cpu_profile_free (profile);
    }
  }
}

/* The machine parameter set the scenario runs with before any sweep value. */
static gboolean
header_params (NsSweep *sweep, GString *out, GError **error)
{
  NsCpuProfile *profile = ns_cpu_profile_load (sweep->base->cpu, error);
  g_autofree char *sha = NULL;
  NsParams *params;
  gboolean ok = TRUE;

  if (profile == NULL)
    return FALSE;
  sha = file_sha256 (profile->path, error);
  if (sha == NULL) {
    ns_cpu_profile_free (profile);
    return FALSE;
  }
  ns_csv_comment (out, "cpu-profile %s (%s) sha256 %s", profile->name, profile->path, sha);
  header_swept_profiles (sweep, out);
  ns_csv_comment (out, "the params below are the scenario's, before the swept values");
  params = ns_params_copy (profile->params);
  for (guint i = 0; ok && i < sweep->base->param_names->len; i++)
    ok = ns_params_set (params, sweep->base->param_names->pdata[i],
                        sweep->base->param_values->pdata[i],
                        sweep->base->param_sources->pdata[i], error);
  if (ok)
    ns_report_params_comment (out, params);
  ns_params_free (params);
  ns_cpu_profile_free (profile);
  return ok;
}

/* Adds each of files (NULL-terminated) to sweep->inputs with its sha256; FALSE with an
 * error if one cannot be read. */
static gboolean
watch_files (NsSweep *sweep, char **files, GError **error)
{
  for (guint i = 0; files[i]; i++) {
    char *sha = file_sha256 (files[i], error);
    if (sha == NULL)
      return FALSE;
    g_hash_table_insert (sweep->inputs, g_strdup (files[i]), sha);
  }
  return TRUE;
}

/* Fills sweep->inputs with the files every point reads anew and their sha256: the
 * scenario (the hash of its header line), the CPU profiles (ns_sweep_profile_files) and
 * the files of its <param from=…> (ns_sweep_param_files);
 * FALSE with an error if one cannot be read. */
static gboolean
watch_inputs (NsSweep *sweep, GError **error)
{
  g_auto (GStrv) profiles = ns_sweep_profile_files (sweep);
  g_auto (GStrv) froms = ns_sweep_param_files (sweep);

  g_hash_table_insert (sweep->inputs, g_strdup (sweep->path), g_strdup (sweep->sha256));
  return watch_files (sweep, profiles, error) && watch_files (sweep, froms, error);
}

/* The header: everything that decides the points' results, and the column line. */
static gboolean
prepare_header (NsSweep *sweep, GError **error)
{
  GString *h = g_string_new (NULL);

  ns_csv_comment (h, "netsim sweep");
  ns_csv_comment (h, "netsim-version %s", PACKAGE_VERSION);
  if (build_sha256 ())
    ns_csv_comment (h, "netsim-build sha256 %s", build_sha256 ());
  else
    ns_csv_comment (h, "netsim-build unknown (/proc/self/exe cannot be read)");
  ns_csv_comment (h, "scenario %s (%s)", sweep->base->name, sweep->path);
  ns_csv_comment (h, "scenario-sha256 %s", sweep->sha256);
  for (guint i = 0; sweep->sets[i]; i++)
    ns_csv_comment (h, "set %s", sweep->sets[i]);
  ns_csv_comment (h, "sweep-seed %" G_GUINT64_FORMAT "%s", sweep->seed,
                  sweep->seed_dim >= 0 ? " (unused: seed is swept)" : "");
  ns_csv_comment (h, "repeat %u", sweep->repeat);
  for (guint i = 0; i < sweep->dims->len; i++) {
    NsSweepDim *dim = sweep->dims->pdata[i];
    g_autoptr (GString) line = g_string_new (NULL);
    g_string_append_printf (line, "sweep %s = %s → %u value%s:", dim->path, dim->spec,
                            dim->values->len, dim->values->len == 1 ? "" : "s");
    for (guint v = 0; v < dim->values->len; v++)
      g_string_append_printf (line, " %s", (const char *) dim->values->pdata[v]);
    ns_csv_comment (h, "%s", line->str);
  }
  ns_csv_comment (h, "points %u", sweep->n_points);
  if (!header_params (sweep, h, error)) {
    g_string_free (h, TRUE);
    return FALSE;
  }
  for (guint i = 0; i + 1 < sweep->columns->len; i++)
    g_string_append_printf (h, "%s%s", i ? "," : "", (const char *) sweep->columns->pdata[i]);
  g_string_append_c (h, '\n');
  sweep->header = h;
  return TRUE;
}

/* Completes the grid and builds the header. */
gboolean
ns_sweep_prepare (NsSweep *sweep, GError **error)
{
  guint64 n;

  g_return_val_if_fail (sweep != NULL && !sweep->prepared, FALSE);
  if (sweep->seed_dim >= 0 && sweep->repeat > 1)
    goto seed_and_repeat;
  if (sweep->seed_dim >= 0 && sweep->seed_given)
    goto seed_given_and_swept;
  if (!prepare_variants (sweep, error) || !check_sets (sweep, error))
    return FALSE;
  n = sweep->repeat;
  for (guint i = 0; i < sweep->dims->len; i++) {
    NsSweepDim *dim = sweep->dims->pdata[i];
    n *= dim->values->len;
    if (n > MAX_POINTS)
      goto too_many;
    if ((gint) i != sweep->seed_dim && (gint) i != sweep->variant_dim &&
        !check_dim (sweep, dim, error))
      return FALSE;
  }
  sweep->n_points = (guint) n;
  prepare_columns (sweep);
  if (!prepare_header (sweep, error) || !watch_inputs (sweep, error))
    return FALSE;
  sweep->lines = g_new0 (char *, sweep->n_points);
  sweep->prepared = TRUE;
  return TRUE;

/* ERRORS */
seed_and_repeat:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "--repeat with a swept seed: sweep more "
               "seeds instead (the seed decides a repetition)");
  return FALSE;
seed_given_and_swept:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "--seed %" G_GUINT64_FORMAT " with a swept "
               "seed (--param seed=%s): each point runs its swept seed, so --seed would change "
               "nothing: give one", sweep->seed,
               ((NsSweepDim *) sweep->dims->pdata[sweep->seed_dim])->spec);
  return FALSE;
too_many:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "the grid has more than %u points",
               MAX_POINTS);
  return FALSE;
}

/* Points in the grid. */
guint
ns_sweep_n_points (const NsSweep *sweep)
{
  g_return_val_if_fail (sweep != NULL && sweep->prepared, 0);
  return sweep->n_points;
}

/* The scenario's name attribute. */
const char *
ns_sweep_scenario_name (const NsSweep *sweep)
{
  g_return_val_if_fail (sweep != NULL, NULL);
  return sweep->base->name;
}

/* Adds to files the file of the CPU profile name_or_path, unless it is there already;
 * nothing if it does not load. */
static void
add_profile_file (GPtrArray *files, const char *name_or_path)
{
  NsCpuProfile *profile = ns_cpu_profile_load (name_or_path, NULL);

  if (profile && !g_ptr_array_find_with_equal_func (files, profile->path, g_str_equal, NULL))
    g_ptr_array_add (files, g_strdup (profile->path));
  if (profile)
    ns_cpu_profile_free (profile);
}

/* The CPU profile files the sweep reads; see sweep.h. */
char **
ns_sweep_profile_files (const NsSweep *sweep)
{
  GPtrArray *files = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (sweep != NULL, NULL);
  add_profile_file (files, sweep->base->cpu);
  for (guint d = 0; d < sweep->dims->len; d++) {
    const NsSweepDim *dim = sweep->dims->pdata[d];
    for (guint v = 0; !strcmp (dim->path, "cpu.profile") && v < dim->values->len; v++)
      add_profile_file (files, dim->values->pdata[v]);
  }
  g_ptr_array_add (files, NULL);
  return (char **) g_ptr_array_free (files, FALSE);
}

/* Adds to files each file a <param from=FILE> reads when the sweep's scenario loads on
 * variant (NULL: none) with the fixed sets and param (NULL: none) — the scenario itself
 * left out — unless it is there already; nothing if it does not load. */
static void
add_param_files (GPtrArray *files, const NsSweep *sweep, const char *variant,
                 const char *param)
{
  const char *const params[] = { param, NULL };
  NsScenario *sc = ns_scenario_load_variant (sweep->path, variant,
                                             (const char *const *) sweep->sets,
                                             param ? params : NULL, NULL, NULL);

  if (sc) {
    ns_scenario_add_param_files (sc, files);
    ns_scenario_free (sc);
  }
}

/* TRUE if dim sweeps where a <param> takes its value from (param[N].from). */
static gboolean
dim_is_param_from (const NsSweepDim *dim)
{
  return g_str_has_prefix (dim->path, "param[") && g_str_has_suffix (dim->path, "].from");
}

/* The files the sweep's <param from=…> read; see sweep.h. */
char **
ns_sweep_param_files (const NsSweep *sweep)
{
  GPtrArray *files = g_ptr_array_new_with_free_func (g_free);
  const NsSweepDim *variants;
  guint n;

  g_return_val_if_fail (sweep != NULL, NULL);
  variants = sweep->variant_dim >= 0 ? sweep->dims->pdata[sweep->variant_dim] : NULL;
  n = variants ? variants->values->len : 1;
  for (guint v = 0; v < n; v++) {
    const char *variant = variants ? variants->values->pdata[v] : sweep->variant;
    add_param_files (files, sweep, variant, NULL);
    for (guint d = 0; d < sweep->dims->len; d++) {
      const NsSweepDim *dim = sweep->dims->pdata[d];
      for (guint i = 0; dim_is_param_from (dim) && i < dim->values->len; i++) {
        g_autofree char *param = g_strdup_printf ("%s=%s", dim->path,
                                                  (const char *) dim->values->pdata[i]);
        add_param_files (files, sweep, variant, param);
      }
    }
  }
  g_ptr_array_add (files, NULL);
  return (char **) g_ptr_array_free (files, FALSE);
}

/* TRUE if a point reports metric: a swept measure.metric's value, else the scenario's. */
gboolean
ns_sweep_has_metric (const NsSweep *sweep, const char *metric)
{
  const NsSweepDim *dim;

  g_return_val_if_fail (sweep != NULL && metric != NULL, FALSE);
  dim = dim_of_path (sweep, "measure.metric");
  if (dim != NULL)
    return g_ptr_array_find_with_equal_func (dim->values, metric, g_str_equal, NULL);
  return g_strcmp0 (sweep->base->measure.metric, metric) == 0;
}

/* The column of the dimension that sweeps path; see sweep.h. */
const char *
ns_sweep_swept (const NsSweep *sweep, const char *path, guint *n_values)
{
  const NsSweepDim *dim;

  g_return_val_if_fail (sweep != NULL && path != NULL, NULL);
  dim = dim_of_path (sweep, path);
  if (n_values)
    *n_values = dim ? dim->values->len : 0;
  return dim ? dim->path : NULL;
}

/* The most repetitions a point measures; see sweep.h. */
guint
ns_sweep_max_repetitions (const NsSweep *sweep)
{
  const NsSweepDim *dim, *variants;
  guint most = 0, n;

  g_return_val_if_fail (sweep != NULL && sweep->prepared, 0);
  if ((dim = dim_of_path (sweep, "measure.repetitions")) != NULL) {
    for (guint v = 0; v < dim->values->len; v++) {
      guint64 reps = 0;
      if (g_ascii_string_to_unsigned (dim->values->pdata[v], 10, 0, G_MAXUINT, &reps, NULL))
        most = MAX (most, (guint) reps);
    }
    return most;
  }
  variants = sweep->variant_dim >= 0 ? sweep->dims->pdata[sweep->variant_dim] : NULL;
  n = variants ? variants->values->len : 1;
  for (guint v = 0; v < n; v++) {
    NsScenario *sc = ns_scenario_load_variant (sweep->path,
                                               variants ? variants->values->pdata[v] : NULL,
                                               (const char *const *) sweep->sets, NULL,
                                               NULL, NULL);
    if (sc) {
      most = MAX (most, sc->measure.repetitions);
      ns_scenario_free (sc);
    }
  }
  return most;
}

/* The header that identifies this sweep. */
const char *
ns_sweep_header (const NsSweep *sweep)
{
  g_return_val_if_fail (sweep != NULL && sweep->prepared, NULL);
  return sweep->header->str;
}

/* Column names of the CSV, NULL-terminated. */
const char *const *
ns_sweep_columns (const NsSweep *sweep)
{
  g_return_val_if_fail (sweep != NULL && sweep->prepared, NULL);
  return (const char *const *) sweep->columns->pdata;
}

/* Index of point's value in each dimension (idx[d]); returns the repetition. */
static guint
point_coords (const NsSweep *sweep, guint point, guint *idx)
{
  guint rep = point % sweep->repeat;
  guint q = point / sweep->repeat;

  for (guint d = sweep->dims->len; d-- > 0;) {
    guint n = ((NsSweepDim *) sweep->dims->pdata[d])->values->len;
    idx[d] = q % n;
    q /= n;
  }
  return rep;
}

/* The value of dimension d at coordinates idx. */
static const char *
dim_value (const NsSweep *sweep, guint d, const guint *idx)
{
  return ((NsSweepDim *) sweep->dims->pdata[d])->values->pdata[idx[d]];
}

/* The run seed of point: the swept seed, or splitmix64 of the sweep seed and the index of
 * the point with the variant and the metric left out, so every variant of a point runs
 * the same random streams (as netsim run's variants do) and every metric is read off the
 * same run's streams. */
guint64
ns_sweep_point_seed (const NsSweep *sweep, guint point)
{
  guint *idx;
  guint rep;
  guint64 combo = 0;

  g_return_val_if_fail (sweep != NULL && sweep->prepared && point < sweep->n_points, 0);
  idx = g_newa (guint, sweep->dims->len + 1);
  rep = point_coords (sweep, point, idx);
  if (sweep->seed_dim >= 0)
    return g_ascii_strtoull (dim_value (sweep, sweep->seed_dim, idx), NULL, 10);
  for (guint d = 0; d < sweep->dims->len; d++) {
    const NsSweepDim *dim = sweep->dims->pdata[d];
    if ((gint) d != sweep->variant_dim && strcmp (dim->path, "measure.metric"))
      combo = combo * dim->values->len + idx[d];
  }
  return ns_derive_seed (sweep->seed, combo * sweep->repeat + rep);
}

/* The --param PATH=VALUE strings point runs with (after the fixed --set strings). */
char **
ns_sweep_point_params (const NsSweep *sweep, guint point)
{
  guint *idx;
  GPtrArray *sets;

  g_return_val_if_fail (sweep != NULL && sweep->prepared && point < sweep->n_points, NULL);
  idx = g_newa (guint, sweep->dims->len + 1);
  sets = g_ptr_array_new ();
  point_coords (sweep, point, idx);
  for (guint d = 0; d < sweep->dims->len; d++)
    if ((gint) d != sweep->seed_dim && (gint) d != sweep->variant_dim)
      g_ptr_array_add (sets, g_strdup_printf ("%s=%s", ((NsSweepDim *)
                       sweep->dims->pdata[d])->path, dim_value (sweep, d, idx)));
  g_ptr_array_add (sets, NULL);
  return (char **) g_ptr_array_free (sets, FALSE);
}

/* Appends the fields that identify point: index, values, repetition, seed. */
static void
line_key (const NsSweep *sweep, guint point, GString *out)
{
  guint idx[sweep->dims->len + 1];
  guint rep = point_coords (sweep, point, idx);

  g_string_append_printf (out, "%u", point);
  for (guint d = 0; d < sweep->dims->len; d++)
    if ((gint) d != sweep->seed_dim) {
      g_string_append_c (out, ',');
      ns_csv_field_one_line (out, dim_value (sweep, d, idx));
    }
  g_string_append_printf (out, ",%u,%" G_GUINT64_FORMAT, rep,
                          ns_sweep_point_seed (sweep, point));
}

/* Appends value in its shortest exact form. */
static void
append_double (GString *out, double value)
{
  g_autofree char *text = ns_sweep_format_double (value);
  g_string_append (out, text);
}

/* Appends the models' notes on a point's build as one field, NS_SWEEP_NOTES_SEP between
 * them (none: empty). */
static void
append_notes (GString *out, char **notes)
{
  g_autofree char *joined = notes ? g_strjoinv (NS_SWEEP_NOTES_SEP, notes) : NULL;

  ns_csv_field_one_line (out, joined ? joined : "");
}

/* point's line: the key, then the variant result, or "failed" and message; with timing,
 * the wall time last. */
static char *
point_line (const NsSweep *sweep, guint point, const NsVariantResult *vr,
            const char *message, double wall_s)
{
  GString *out = g_string_new (NULL);

  line_key (sweep, point, out);
  if (vr != NULL) {
    g_string_append_printf (out, ",ok,%s,", vr->metric);
    append_double (out, vr->value);
    g_string_append_c (out, ',');
    append_double (out, vr->cv);
    g_string_append_printf (out, ",%u,%" G_GUINT64_FORMAT ",", vr->n_reps, vr->ops);
    for (guint r = 0; r < vr->n_reps; r++) {
      if (r)
        g_string_append_c (out, ';');
      append_double (out, vr->values[r]);
    }
    g_string_append (out, ",,");
    append_notes (out, vr->notes);
  } else {
    g_string_append_printf (out, ",failed,%s,,,,,,", sweep->base->measure.metric);
    ns_csv_field_one_line (out, message);
    g_string_append_c (out, ',');
  }
  if (sweep->timing)
    g_string_append_printf (out, ",%.3f", wall_s);
  g_string_append_c (out, '\n');
  return g_string_free (out, FALSE);
}

/* Runs point in this process and returns its line. */
char *
ns_sweep_run_point (const NsSweep *sweep, guint point)
{
  g_auto (GStrv) params = NULL;
  guint idx[sweep->dims->len + 1];
  NsRunOptions opt = { 0 };
  NsRunResult *result;
  GError *err = NULL;
  gint64 start = g_get_monotonic_time ();
  char *line;

  g_return_val_if_fail (sweep->prepared && point < sweep->n_points, NULL);
  point_coords (sweep, point, idx);
  params = ns_sweep_point_params (sweep, point);
  opt.sets = (const char *const *) sweep->sets;
  opt.params = (const char *const *) params;
  opt.seed_given = TRUE;
  opt.seed = ns_sweep_point_seed (sweep, point);
  opt.only_variant = sweep->variant_dim >= 0 ? dim_value (sweep, sweep->variant_dim, idx) : NULL;
  result = ns_run_scenario (sweep->path, &opt, &err);
  if (result == NULL) {
    line = point_line (sweep, point, NULL, err->message,
                       (g_get_monotonic_time () - start) / 1e6);
    g_error_free (err);
    return line;
  }
  line = point_line (sweep, point, result->variants->pdata[0], NULL,
                     (g_get_monotonic_time () - start) / 1e6);
  ns_run_result_free (result);
  return line;
}

/* ------------------------------------------------------------------------------------- */
/* The output: durable appends, resume */

/* Sets an NS_ERROR_IO error from errno; returns FALSE. */
static gboolean
io_error (GError **error, const char *path, const char *what)
{
  int e = errno;
  g_set_error (error, NS_ERROR, NS_ERROR_IO, "%s: cannot %s: %s", path, what, g_strerror (e));
  return FALSE;
}

/* Makes a new file's directory entry durable. */
static void
sync_dir (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  int fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

  if (fd >= 0) {
    fsync (fd);
    close (fd);
  }
}

/* Appends one line with one write() and makes it durable before returning. */
static gboolean
append_durably (NsSweep *sweep, const char *data, GError **error)
{
  if (!ns_write_all (sweep->fd, data, strlen (data)))
    return io_error (error, sweep->output, "append");
  if (fdatasync (sweep->fd) != 0)
    return io_error (error, sweep->output, "sync");
  return TRUE;
}

/* The whole content of fd, from its start. */
static char *
read_fd (int fd, GError **error, const char *path)
{
  GString *data = g_string_new (NULL);
  char buf[65536];
  ssize_t n;

  if (lseek (fd, 0, SEEK_SET) < 0)
    goto fail;
  while ((n = read (fd, buf, sizeof buf)) != 0) {
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      goto fail;
    g_string_append_len (data, buf, n);
  }
  return g_string_free (data, FALSE);

fail:
  io_error (error, path, "read");
  g_string_free (data, TRUE);
  return NULL;
}

/* TRUE if column lines a and b differ only in b's trailing wall_s column. */
static gboolean
only_timing_added (const char *a, const char *b)
{
  gsize n = strlen (a);

  return !strncmp (a, b, n) && !strcmp (b + n, ",wall_s");
}

/* line for a message: its control characters as C escapes (a carriage return shows as
 * \r), at most 200 bytes of it, newly allocated. */
static char *
shown_line (const char *line)
{
  g_autoptr (GString) out = g_string_new (NULL);

  ns_escape_controls (out, line);
  if (out->len > 200) {
    const char *end = g_utf8_find_prev_char (out->str, out->str + 201);
    g_string_truncate (out, end ? (gsize) (end - out->str) : 200);
    g_string_append (out, "…");
  }
  return g_strdup (out->str);
}

/* TRUE if line is want with a carriage return after it (a file converted to CR LF). */
static gboolean
only_cr_added (const char *line, const char *want)
{
  gsize n = strlen (want);

  return !strncmp (line, want, n) && !strcmp (line + n, "\r");
}

/* Names the first line where the file's header and this sweep's differ; a file written
 * with --timing and resumed without it (or the reverse), by another build of netsim or
 * with CR LF line ends is told so. */
static void
header_mismatch (const NsSweep *sweep, const char *content, GError **error)
{
  g_auto (GStrv) have = g_strsplit (content, "\n", -1);
  g_auto (GStrv) want = g_strsplit (sweep->header->str, "\n", -1);
  g_autofree char *have_shown = NULL, *want_shown = NULL;
  guint i = 0;

  while (have[i] && want[i] && !strcmp (have[i], want[i]))
    i++;
  have_shown = shown_line (have[i] ? have[i] : "(end of file)");
  want_shown = shown_line (want[i] ? want[i] : "(end of header)");
  if (have[i] && want[i] && (only_timing_added (want[i], have[i]) ||
                             only_timing_added (have[i], want[i])))
    goto timing;
  if (have[i] && want[i] && only_cr_added (have[i], want[i]))
    goto crlf;
  if (have[i] && want[i] && g_str_has_prefix (have[i], "# netsim-build ") &&
      g_str_has_prefix (want[i], "# netsim-build "))
    goto other_build;
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s:%u: --resume: the file was written by a "
               "different sweep (scenario, netsim version, profiles, parameters or values "
               "differ): the line is '%s', this sweep's is '%s'. Use another --output, "
               "or --force to start over", sweep->output, i + 1, have_shown, want_shown);
  return;

/* ERRORS */
timing:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s:%u: --resume: the file was written %s "
               "--timing (%s wall_s column); resume it %s --timing, so that its lines keep "
               "one layout", sweep->output, i + 1, sweep->timing ? "without" : "with",
               sweep->timing ? "no" : "a", sweep->timing ? "without" : "with");
  return;
crlf:
  {
    g_autofree char *quoted = g_shell_quote (sweep->output);
    g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s:%u: --resume: the file's lines end in "
                 "\\r\\n (CR LF), netsim writes \\n: the line is '%s', this sweep's is "
                 "'%s'. Convert the file back (sed -i 's/\\r$//' %s) and resume, or use "
                 "--force to start over", sweep->output, i + 1, have_shown, want_shown, quoted);
  }
  return;
other_build:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s:%u: --resume: the file was written by "
               "another build of netsim %s (the line is '%s', this netsim's is '%s'): its "
               "points and this build's may differ, and one file must not mix them. Resume "
               "it with the netsim that began it, or use another --output, or --force to "
               "start over", sweep->output, i + 1, PACKAGE_VERSION, have_shown, want_shown);
}

/* TRUE if text is a number as ns_sweep_format_double writes it (nan and ±inf included). */
static gboolean
is_double_text (const char *text)
{
  g_autofree char *again = NULL;
  char *end;
  double v = g_ascii_strtod (text, &end);

  if (text[0] == '\0' || *end != '\0')
    return FALSE;
  again = ns_sweep_format_double (v);
  return !strcmp (again, text);
}

/* TRUE if text is a count as netsim writes it (decimal digits, no leading zero, no sign),
 * stored in *count (may be NULL). */
static gboolean
is_count_text (const char *text, guint64 *count)
{
  guint64 v;
  g_autofree char *again = NULL;

  if (!g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT64, &v, NULL))
    return FALSE;
  again = g_strdup_printf ("%" G_GUINT64_FORMAT, v);
  if (count)
    *count = v;
  return !strcmp (again, text);
}

/* TRUE if text is a wall time as point_line writes it ("%.3f" seconds, ≥ 0). */
static gboolean
is_wall_text (const char *text)
{
  g_autofree char *again = NULL;
  char *end;
  double v = g_ascii_strtod (text, &end);

  if (text[0] == '\0' || *end != '\0' || !(v >= 0) || !isfinite (v))
    return FALSE;
  again = g_strdup_printf ("%.3f", v);
  return !strcmp (again, text);
}

/* TRUE if text is n numbers as is_double_text reads them, separated by ';'. */
static gboolean
is_values_text (const char *text, guint64 n)
{
  g_auto (GStrv) parts = g_strsplit (text, ";", -1);
  guint64 have = text[0] ? g_strv_length (parts) : 0;

  for (guint i = 0; text[0] && parts[i]; i++)
    if (!is_double_text (parts[i]))
      return FALSE;
  return have == n;
}

/* TRUE if dim sweeps an attribute of <measure>, which decides what a point reports and
 * how many repetitions it runs. */
static gboolean
dim_is_measure (const NsSweepDim *dim)
{
  g_autofree char *key = ns_scenario_set_key (dim->path);

  return g_str_has_prefix (key, "measure.") || g_str_has_prefix (key, "measure[");
}

/* Frees an NsPointMeasure (NULL: a point whose scenario does not load). */
static void
point_measure_free (gpointer p)
{
  NsPointMeasure *pm = p;

  if (pm)
    g_free (pm->metric);
  g_free (pm);
}

/* The metric and repetitions point's scenario measures with, as its run loads it (its
 * variant, the fixed sets, its values of swept <measure> attributes), cached in
 * sweep->measures by those; NULL if that does not load (the point cannot have run). */
static const NsPointMeasure *
point_measure (NsSweep *sweep, guint point)
{
  guint idx[sweep->dims->len + 1];
  g_autoptr (GPtrArray) params = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GString) key = g_string_new (NULL);
  const char *variant = NULL;
  NsPointMeasure *pm = NULL;
  NsScenario *sc;
  gpointer found;

  point_coords (sweep, point, idx);
  if (sweep->variant_dim >= 0)
    variant = dim_value (sweep, sweep->variant_dim, idx);
  g_string_append (key, variant ? variant : "");
  for (guint d = 0; d < sweep->dims->len; d++)
    if ((gint) d != sweep->seed_dim && (gint) d != sweep->variant_dim &&
        dim_is_measure (sweep->dims->pdata[d])) {
      char *param = g_strdup_printf ("%s=%s", ((NsSweepDim *) sweep->dims->pdata[d])->path,
                                     dim_value (sweep, d, idx));
      g_string_append_printf (key, "\n%s", param);
      g_ptr_array_add (params, param);
    }
  g_ptr_array_add (params, NULL);
  if (g_hash_table_lookup_extended (sweep->measures, key->str, NULL, &found))
    return found;
  sc = ns_scenario_load_variant (sweep->path, variant, (const char *const *) sweep->sets,
                                 (const char *const *) params->pdata, "--param", NULL);
  if (sc != NULL) {
    pm = g_new (NsPointMeasure, 1);
    pm->metric = g_strdup (sc->measure.metric);
    pm->reps = sc->measure.repetitions;
    pm->how = sc->measure.aggregate;
    ns_scenario_free (sc);
  }
  g_hash_table_insert (sweep->measures, g_strdup (key->str), pm);
  return pm;
}

/* TRUE if the value and cv fields of f are what netsim writes for its n values (checked:
 * numbers as netsim writes them) aggregated how; else FALSE with the column at fault and
 * what netsim would write there (newly allocated). */
static gboolean
aggregate_fields_valid (char **f, guint64 n, NsAggregate how, guint *col, char **expected)
{
  g_auto (GStrv) parts = g_strsplit (f[COL_VALUES], ";", -1);
  g_autofree double *values = g_new (double, n);
  g_autofree char *value_text = NULL, *cv_text = NULL;
  double cv, value;

  for (guint64 i = 0; i < n; i++)
    values[i] = g_ascii_strtod (parts[i], NULL);
  value = ns_run_aggregate (values, (guint) n, how, &cv);
  value_text = ns_sweep_format_double (value);
  cv_text = ns_sweep_format_double (cv);
  if (strcmp (f[COL_VALUE], value_text)) {
    *col = COL_VALUE;
    *expected = g_strdup_printf ("%s (the %s of its values)", value_text,
                                 how == NS_AGG_HARMONIC ? "harmonic mean" : "mean");
  } else if (strcmp (f[COL_CV], cv_text)) {
    *col = COL_CV;
    *expected = g_strdup_printf ("%s (the coefficient of variation of its values)", cv_text);
  } else
    return TRUE;
  return FALSE;
}

/* Checks the result fields (f, from the status on) of point's line that ran: the metric
 * and repetitions of its scenario, numbers as netsim writes them, the value and cv its
 * values give, no error. On a fault, FALSE with its column (COL_…) and what netsim writes
 * there (newly allocated). */
static gboolean
ran_fields_valid (NsSweep *sweep, guint point, char **f, guint *col, char **expected)
{
  const NsPointMeasure *pm = point_measure (sweep, point);
  guint64 reps;

  if (pm ? strcmp (f[COL_METRIC], pm->metric) : !ns_sweep_has_metric (sweep, f[COL_METRIC])) {
    *col = COL_METRIC;
    *expected = pm ? g_strdup_printf ("'%s' (what the point's scenario reports)", pm->metric)
                   : g_strdup ("a metric this sweep reports");
  } else if (!is_double_text (f[COL_VALUE]) || !is_double_text (f[COL_CV])) {
    *col = is_double_text (f[COL_VALUE]) ? COL_CV : COL_VALUE;
    *expected = g_strdup ("a number in its shortest exact form, nan, inf or -inf");
  } else if (!is_count_text (f[COL_REPS], &reps) || reps == 0 ||
             reps > NS_MAX_REPETITIONS || (pm && reps != pm->reps)) {
    *col = COL_REPS;
    *expected = pm ? g_strdup_printf ("%u (the point's measure repetitions)", pm->reps)
                   : g_strdup_printf ("a count from 1 to %u", NS_MAX_REPETITIONS);
  } else if (!is_count_text (f[COL_OPS], NULL)) {
    *col = COL_OPS;
    *expected = g_strdup ("a count (decimal digits, no sign, no leading zero)");
  } else if (!is_values_text (f[COL_VALUES], reps)) {
    *col = COL_VALUES;
    *expected = g_strdup_printf ("%" G_GUINT64_FORMAT " number%s (one a repetition) "
                                 "separated by ';'", reps, reps == 1 ? "" : "s");
  } else if (pm && !aggregate_fields_valid (f, reps, pm->how, col, expected)) {
    return FALSE;
  } else if (f[COL_ERROR][0]) {
    *col = COL_ERROR;
    *expected = g_strdup ("nothing (the point ran)");
  } else
    return TRUE;
  return FALSE;
}

/* Checks the result fields (f, from the status on) of a failed point's line: the
 * scenario's metric, an error and nothing else. On a fault, FALSE as ran_fields_valid. */
static gboolean
failed_fields_valid (NsSweep *sweep, char **f, guint *col, char **expected)
{
  static const guint empty[] = { COL_VALUE, COL_CV, COL_REPS, COL_OPS, COL_VALUES,
                                 COL_NOTES };

  if (strcmp (f[COL_METRIC], sweep->base->measure.metric)) {
    *col = COL_METRIC;
    *expected = g_strdup_printf ("'%s' (the scenario's)", sweep->base->measure.metric);
    return FALSE;
  }
  for (guint i = 0; i < G_N_ELEMENTS (empty); i++)
    if (f[empty[i]][0]) {
      *col = empty[i];
      *expected = g_strdup ("nothing (the point failed)");
      return FALSE;
    }
  if (!f[COL_ERROR][0]) {
    *col = COL_ERROR;
    *expected = g_strdup ("why the point failed");
    return FALSE;
  }
  return TRUE;
}

/* TRUE if line (fields, of point) holds what netsim writes for a point: its status, the
 * result fields that status has, each as netsim writes it, the wall time with --timing,
 * and the fields quoted as netsim quotes them; else FALSE with an error naming the line,
 * the column and what it would hold. */
static gboolean
line_fields_valid (NsSweep *sweep, guint point, const char *line, char **fields,
                   guint lineno, GError **error)
{
  char **f = fields + sweep->n_key;
  g_autoptr (GString) again = g_string_new (NULL);
  g_autofree char *expected = NULL, *shown = NULL;
  guint col;

  if (strcmp (f[COL_STATUS], "ok") && strcmp (f[COL_STATUS], "failed")) {
    col = COL_STATUS;
    expected = g_strdup ("ok or failed");
    goto bad_field;
  }
  if (!strcmp (f[COL_STATUS], "ok") ? !ran_fields_valid (sweep, point, f, &col, &expected)
                                    : !failed_fields_valid (sweep, f, &col, &expected))
    goto bad_field;
  if (sweep->timing && !is_wall_text (f[COL_WALL])) {
    col = COL_WALL;
    expected = g_strdup ("seconds with 3 decimals");
    goto bad_field;
  }
  for (guint c = 0; fields[c]; c++) {
    if (c)
      g_string_append_c (again, ',');
    ns_csv_field_one_line (again, fields[c]);
  }
  if (strcmp (again->str, line))
    goto bad_quoting;
  return TRUE;

/* ERRORS */
bad_field:
  shown = shown_line (f[col]);
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s:%u: --resume: point %u's %s is '%s', "
               "where netsim writes %s: the line was altered or damaged. Remove it (the point "
               "runs again), or use --force to start over", sweep->output, lineno, point,
               (const char *) sweep->columns->pdata[sweep->n_key + col], shown, expected);
  return FALSE;
bad_quoting:
  shown = shown_line (line);
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s:%u: --resume: point %u's line '%s' is "
               "not quoted or spaced as netsim writes it: the line was altered or damaged. "
               "Remove it (the point runs again), or use --force to start over",
               sweep->output, lineno, point, shown);
  return FALSE;
}

/* TRUE if lines a and b (of one point) hold the same result: the same bytes, the wall
 * time left out with --timing (the one field two runs of a point may differ in). */
static gboolean
same_result (const NsSweep *sweep, const char *a, const char *b)
{
  const char *ea = sweep->timing ? strrchr (a, ',') : NULL;
  const char *eb = sweep->timing ? strrchr (b, ',') : NULL;

  if (ea == NULL || eb == NULL)
    return !strcmp (a, b);
  return ea - a == eb - b && !strncmp (a, b, ea - a);
}

/* Records a line read back (lineno > 0: its fields are checked, a second copy of a point
 * is dropped if it holds the same result, refused if not) or just written (lineno 0);
 * checks it belongs to this sweep. */
static gboolean
take_line (NsSweep *sweep, const char *line, guint lineno, GError **error)
{
  g_auto (GStrv) fields = ns_csv_split (line);
  g_autofree char *shown = NULL;
  guint64 point;
  GString *key;
  gboolean same;

  if (g_strv_length (fields) != sweep->columns->len - 1 ||
      !g_ascii_string_to_unsigned (fields[0], 10, 0, sweep->n_points - 1, &point, NULL))
    goto foreign;
  key = g_string_new (NULL);
  line_key (sweep, (guint) point, key);
  same = g_str_has_prefix (line, key->str) && line[key->len] == ',';
  g_string_free (key, TRUE);
  if (!same)
    goto foreign;
  if (lineno > 0 && !line_fields_valid (sweep, (guint) point, line, fields, lineno, error))
    return FALSE;
  if ((gint64) point <= sweep->last_written)
    sweep->in_order = FALSE;
  sweep->last_written = (gint64) point;
  if (sweep->lines[point] != NULL && lineno > 0 && !same_result (sweep, sweep->lines[point], line))
    goto two_results;
  if (sweep->lines[point] != NULL)
    return TRUE;                     /* twice: keep the first; finish drops the other */
  sweep->lines[point] = g_strdup (line);
  if (sweep->read_at)
    sweep->read_at[point] = lineno;
  sweep->n_done++;
  if (!strcmp (fields[sweep->n_key + COL_STATUS], "failed"))
    sweep->n_failed++;
  return TRUE;

/* ERRORS */
foreign:
  shown = shown_line (line);
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s:%u: --resume: not a point of this "
               "sweep: '%s'", sweep->output, lineno, shown);
  return FALSE;
two_results:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s:%u: --resume: point %u is also on line "
               "%u, with another result: one sweep writes a point once, so the file was "
               "altered (or written by two sweeps at once, past the lock). Remove the wrong "
               "line (or both: the point runs again), or use --force to start over",
               sweep->output, lineno, (guint) point, sweep->read_at ? sweep->read_at[point] : 0);
  return FALSE;
}

/* Records each point line of text (the lines after the header, which has header_lines
 * lines), checking its fields and that a point comes once. */
static gboolean
take_lines (NsSweep *sweep, const char *text, guint header_lines, GError **error)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  gboolean ok = TRUE;

  sweep->read_at = g_new0 (guint, sweep->n_points);
  sweep->measures = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, point_measure_free);
  for (guint i = 0; ok && lines[i]; i++)
    if (lines[i][0])
      ok = take_line (sweep, lines[i], header_lines + i + 1, error);
  g_clear_pointer (&sweep->read_at, g_free);
  g_clear_pointer (&sweep->measures, g_hash_table_unref);
  return ok;
}

/* Reads back an existing output: header check, torn last line, points present. */
static gboolean
load_existing (NsSweep *sweep, GError **error)
{
  g_autofree char *content = read_fd (sweep->fd, error, sweep->output);
  gsize hlen = sweep->header->len, len, keep;
  guint header_lines = 0;

  if (content == NULL)
    return FALSE;
  len = strlen (content);
  if (len < hlen && g_str_has_prefix (sweep->header->str, content)) {
    sweep->header_cut = len > 0;  /* an empty file or a cut header: start it again */
    if (ftruncate (sweep->fd, 0) != 0)
      return io_error (error, sweep->output, "truncate");
    return append_durably (sweep, sweep->header->str, error);
  }
  if (!g_str_has_prefix (content, sweep->header->str)) {
    header_mismatch (sweep, content, error);
    return FALSE;
  }
  if (build_sha256 () == NULL && len > hlen)
    goto unknown_build;
  keep = len;
  while (keep > hlen && content[keep - 1] != '\n')
    keep--;
  if (keep != len) {
    sweep->torn = TRUE;
    if (ftruncate (sweep->fd, (off_t) keep) != 0 || fdatasync (sweep->fd) != 0)
      return io_error (error, sweep->output, "truncate a torn last line");
  }
  content[keep] = '\0';
  for (const char *p = sweep->header->str; *p; p++)
    header_lines += *p == '\n';
  return take_lines (sweep, content + hlen, header_lines, error);

/* ERRORS */
unknown_build:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s: --resume: this netsim cannot read its "
               "own executable (/proc/self/exe), so it cannot tell whether the build that "
               "wrote the file's points is this one; resume where /proc is mounted, or use "
               "--force to start over", sweep->output);
  return FALSE;
}

/* TRUE if the file open as fd is empty (or cannot be looked at). */
static gboolean
is_empty (int fd)
{
  struct stat st;

  return fstat (fd, &st) != 0 || st.st_size == 0;
}

/* Opens the output file according to mode and locks it against a second sweep; a
 * symbolic link is opened through (a dangling one creates its target, in every mode). */
static gboolean
open_output (NsSweep *sweep, NsSweepMode mode, gboolean *existed, GError **error)
{
  int flags = O_RDWR | O_APPEND | O_CLOEXEC | O_CREAT;

  *existed = g_file_test (sweep->output, G_FILE_TEST_EXISTS);
  if (*existed && mode == NS_SWEEP_NEW)
    goto exists;
  /* O_EXCL never follows a link: it would refuse a dangling link as "File exists" */
  if (mode == NS_SWEEP_NEW && !g_file_test (sweep->output, G_FILE_TEST_IS_SYMLINK))
    flags |= O_EXCL;
  sweep->fd = open (sweep->output, flags, 0644);
  if (sweep->fd < 0)
    return io_error (error, sweep->output, "open");
  if (flock (sweep->fd, LOCK_EX | LOCK_NB) != 0)
    goto locked;
  if (mode == NS_SWEEP_NEW && !is_empty (sweep->fd))
    goto exists;                /* a link's target made since the test above */
  if (mode == NS_SWEEP_OVERWRITE && ftruncate (sweep->fd, 0) != 0)
    return io_error (error, sweep->output, "truncate");
  if (mode == NS_SWEEP_OVERWRITE)
    *existed = FALSE;
  return TRUE;

/* ERRORS */
exists:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s exists: pass --resume to continue that "
               "sweep, or --force to start over", sweep->output);
  return FALSE;
locked:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s is being written by another netsim "
               "sweep", sweep->output);
  return FALSE;
}

/* The file the open output fd is (its name in /proc/self/fd, so a symbolic link the user
 * named is followed to what it was when opened), newly allocated; the output's name where
 * /proc is not mounted or the file was removed meanwhile. */
static char *
output_file (const NsSweep *sweep)
{
  g_autofree char *fd_link = g_strdup_printf ("/proc/self/fd/%d", sweep->fd);
  char *target = g_file_read_link (fd_link, NULL);

  if (target != NULL && g_path_is_absolute (target) && !g_str_has_suffix (target, " (deleted)"))
    return target;
  g_free (target);
  return g_strdup (sweep->output);
}

/* The temporary copy ns_sweep_finish rewrites file through, newly allocated: one fixed
 * name beside file, so that the next sweep of file removes a copy a crash left (under
 * the file's lock, while no other sweep can be writing it). */
static char *
rewrite_temp_name (const char *file)
{
  return g_strconcat (file, ".netsim-rewrite", NULL);
}

/* TRUE if the file at temp (not followed if a link) may be a copy a rewrite left: a
 * regular file holding the start of a sweep's first line, or more after it. */
static gboolean
is_rewrite_copy (const char *temp)
{
  static const char first[] = "# netsim sweep\n";
  char head[sizeof first - 1];
  int fd = open (temp, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  ssize_t n;

  if (fd < 0)
    return FALSE;
  n = fstat (fd, &st) == 0 && S_ISREG (st.st_mode) ? read (fd, head, sizeof head) : -1;
  close (fd);
  return n >= 0 && memcmp (head, first, (size_t) n) == 0;
}

/* FALSE with an error if a file has the name of the output's temporary copy and is not
 * such a copy (a user's file: neither to be removed nor, at the rewrite, overwritten). */
static gboolean
check_rewrite_name_free (const NsSweep *sweep, GError **error)
{
  g_autofree char *file = realpath (sweep->output, NULL);    /* the file a link names */
  g_autofree char *temp = rewrite_temp_name (file ? file : sweep->output);
  struct stat st;

  if (lstat (temp, &st) != 0 || is_rewrite_copy (temp))
    return TRUE;
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s exists and is not a sweep's copy: "
               "netsim rewrites %s through that name at the end of a sweep (and removes a "
               "copy a crash left there); move it away", temp, file ? file : sweep->output);
  return FALSE;
}

/* Removes the temporary copy an interrupted rewrite of the output left, if any. */
static void
remove_stale_rewrite (const NsSweep *sweep)
{
  g_autofree char *file = output_file (sweep);
  g_autofree char *temp = rewrite_temp_name (file);

  if (is_rewrite_copy (temp))
    unlink (temp);
}

/* Opens (creates, resumes or overwrites) the output. */
gboolean
ns_sweep_open (NsSweep *sweep, const char *output, NsSweepMode mode, GError **error)
{
  gboolean existed;

  g_return_val_if_fail (sweep != NULL && sweep->prepared && sweep->fd < 0, FALSE);
  sweep->output = g_strdup (output);
  sweep->in_order = TRUE;
  if (!check_rewrite_name_free (sweep, error) || !open_output (sweep, mode, &existed, error))
    goto fail;
  remove_stale_rewrite (sweep);
  if (existed && !load_existing (sweep, error))
    goto fail;
  if (!existed && !append_durably (sweep, sweep->header->str, error))
    goto fail;
  if (!existed)
    sync_dir (output);
  return TRUE;

fail:
  if (sweep->fd >= 0)
    close (sweep->fd);
  sweep->fd = -1;
  g_clear_pointer (&sweep->output, g_free);
  for (guint i = 0; i < sweep->n_points; i++)
    g_clear_pointer (&sweep->lines[i], g_free);
  sweep->n_done = sweep->n_failed = 0;
  sweep->last_written = -1;
  sweep->torn = sweep->header_cut = FALSE;
  return FALSE;
}

/* TRUE if opening dropped a torn last line. */
gboolean
ns_sweep_was_torn (const NsSweep *sweep)
{
  return sweep->torn;
}

/* TRUE if opening found only the start of the header (and wrote it again). */
gboolean
ns_sweep_header_was_cut (const NsSweep *sweep)
{
  return sweep->header_cut;
}

/* ------------------------------------------------------------------------------------- */
/* Parallel execution: one forked worker per point */

typedef struct {
  NsChild  child;
  guint    point;
  gint64   start;
} NsWorker;

/* What a worker runs: a point of the sweep. */
typedef struct {
  const NsSweep *sweep;
  guint          point;
} NsWorkerTask;

/* In the worker: runs the point and returns its line. */
static char *
worker_main (gpointer data)
{
  const NsWorkerTask *task = data;

  signal (SIGINT, SIG_IGN);       /* the parent decides whether a point finishes */
  signal (SIGTERM, SIG_IGN);
  signal (SIGPIPE, SIG_DFL);
  /* the output's open file and its flock are the parent's: a worker still finishing its
   * point after the parent was killed must not keep the lock from the --resume that
   * follows (ns_child_start's PDEATHSIG kills it, but not before the parent's wait
   * returns) */
  if (task->sweep->fd >= 0)
    close (task->sweep->fd);
  return ns_sweep_run_point (task->sweep, task->point);
}

/* Forks a worker for point, with a pipe for its line. */
static gboolean
spawn_worker (NsSweep *sweep, guint point, NsWorker *w, GError **error)
{
  NsWorkerTask task = { sweep, point };

  if (!ns_child_start (&w->child, worker_main, &task))
    return io_error (error, "fork", "start a worker");
  w->point = point;
  w->start = g_get_monotonic_time ();
  return TRUE;
}

/* The worker's line (out, what it wrote), or a "failed" line saying how the worker died. */
static char *
worker_result (const NsSweep *sweep, NsWorker *w, char *out, int status)
{
  gsize len = strlen (out);
  const char *nl = memchr (out, '\n', len);
  g_autofree char *message = NULL;

  if (WIFEXITED (status) && WEXITSTATUS (status) == 0 && nl == out + len - 1)
    return g_strdup (out);
  if (WIFSIGNALED (status))
    message = g_strdup_printf ("worker process killed by signal %d (%s)", WTERMSIG (status),
                               g_strsignal (WTERMSIG (status)));
  else
    message = g_strdup_printf ("worker process exited with status %d without a result",
                               WIFEXITED (status) ? WEXITSTATUS (status) : -1);
  return point_line (sweep, w->point, NULL, message,
                     (g_get_monotonic_time () - w->start) / 1e6);
}

/* TRUE if path still has the content whose sha256 is recorded; else FALSE with an
 * NS_ERROR_INPUT error saying so: a point run on another version of it must not join the
 * others under the sweep's header. */
static gboolean
input_unchanged (const char *path, const char *recorded, GError **error)
{
  g_autoptr (GError) cause = NULL;
  g_autofree char *sha = file_sha256 (path, &cause);

  if (sha != NULL && !strcmp (sha, recorded))
    return TRUE;
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s changed during the sweep (%s%s, where "
               "the sweep's header has sha256 %s): its points would mix two versions of it, "
               "so the sweep stops and the points in flight are not recorded; put the file "
               "back as it was to resume, or start over with --force", path,
               sha ? "sha256 now " : "", sha ? sha : cause->message, recorded);
  return FALSE;
}

/* TRUE if every file the points read anew (sweep->inputs: the scenario, the CPU
 * profiles, the <param from=…> files) is as the sweep recorded it; else FALSE with an
 * error naming one. */
static gboolean
inputs_unchanged (const NsSweep *sweep, GError **error)
{
  GHashTableIter iter;
  gpointer path, sha;

  g_hash_table_iter_init (&iter, sweep->inputs);
  while (g_hash_table_iter_next (&iter, &path, &sha))
    if (!input_unchanged (path, sha, error))
      return FALSE;
  return TRUE;
}

/* Reads what the worker wrote; at end of file reaps it and records its line (unless a
 * file the points read changed meanwhile: then FALSE with an error). */
static gboolean
worker_read (NsSweep *sweep, const NsSweepRunOptions *opt, NsWorker *w, gboolean *finished,
             GError **error)
{
  g_autofree char *line = NULL, *out = NULL;
  gint more = ns_child_read (&w->child);
  int status;

  *finished = FALSE;
  if (more < 0)
    return io_error (error, "pipe", "read");
  if (more > 0)
    return TRUE;
  *finished = TRUE;
  out = ns_child_reap (&w->child, &status);
  if (!inputs_unchanged (sweep, error))
    return FALSE;
  line = worker_result (sweep, w, out, status);
  if (!append_durably (sweep, line, error))
    return FALSE;
  line[strlen (line) - 1] = '\0';
  if (!take_line (sweep, line, 0, error))
    return FALSE;
  if (opt->point_done) {
    g_auto (GStrv) fields = ns_csv_split (line);
    opt->point_done (w->point, (const char *const *) fields, opt->progress_data);
  }
  return TRUE;
}

/* Kills and reaps the workers in flight: their points stay undone. */
static void
abandon_workers (GArray *workers)
{
  for (guint i = 0; i < workers->len; i++)
    kill (g_array_index (workers, NsWorker, i).child.pid, SIGKILL);
  for (guint i = 0; i < workers->len; i++) {
    int status;
    g_free (ns_child_reap (&g_array_index (workers, NsWorker, i).child, &status));
  }
  g_array_set_size (workers, 0);
}

/* Calls the progress callback with the counts so far. */
static void
report_progress (const NsSweep *sweep, const NsSweepRunOptions *opt, guint done_now,
                 guint running, gint64 start)
{
  NsSweepProgress p;

  if (opt->progress == NULL)
    return;
  p.total = sweep->n_points;
  p.done = sweep->n_done;
  p.done_now = done_now;
  p.failed = sweep->n_failed;
  p.running = running;
  p.elapsed_s = (g_get_monotonic_time () - start) / 1e6;
  p.eta_s = done_now ? p.elapsed_s / done_now * (p.total - p.done) : -1;
  opt->progress (&p, opt->progress_data);
}

/* Waits for output from the workers and handles what arrived. */
static gboolean
wait_workers (NsSweep *sweep, const NsSweepRunOptions *opt, GArray *workers, guint *done_now,
              GError **error)
{
  struct pollfd fds[workers->len];
  int n;

  for (guint i = 0; i < workers->len; i++) {
    fds[i].fd = g_array_index (workers, NsWorker, i).child.fd;
    fds[i].events = POLLIN;
    fds[i].revents = 0;
  }
  n = poll (fds, workers->len, POLL_MS);
  if (n < 0 && errno != EINTR)
    return io_error (error, "poll", "wait for workers");
  for (guint i = workers->len; n > 0 && i-- > 0;) {
    gboolean finished, ok;
    if (fds[i].revents == 0)
      continue;
    ok = worker_read (sweep, opt, &g_array_index (workers, NsWorker, i), &finished, error);
    if (finished) {             /* reaped, even if its line was not recorded */
      g_array_remove_index (workers, i);
      (*done_now)++;
    }
    if (!ok)
      return FALSE;
  }
  return TRUE;
}

/* Runs the points not in the output, up to jobs at once, each between two checks that the
 * files the points read are the sweep's. */
gboolean
ns_sweep_run (NsSweep *sweep, const NsSweepRunOptions *opt, GError **error)
{
  GArray *workers = g_array_new (FALSE, FALSE, sizeof (NsWorker));
  gint64 start = g_get_monotonic_time ();
  guint next = 0, done_now = 0;
  gboolean ok = TRUE;

  g_return_val_if_fail (sweep != NULL && sweep->fd >= 0 && opt != NULL && opt->jobs >= 1,
                        FALSE);
  for (;;) {
    int stop = opt->stop ? *opt->stop : 0;
    if (stop >= 2)
      break;
    while (!stop && workers->len < opt->jobs && next < sweep->n_points) {
      NsWorker w;
      if (sweep->lines[next] != NULL) {
        next++;
        continue;
      }
      if (!(ok = inputs_unchanged (sweep, error) && spawn_worker (sweep, next++, &w, error)))
        break;
      g_array_append_val (workers, w);
    }
    if (!ok || workers->len == 0)
      break;
    ok = wait_workers (sweep, opt, workers, &done_now, error);
    report_progress (sweep, opt, done_now, workers->len, start);
    if (!ok)
      break;
  }
  abandon_workers (workers);
  g_array_unref (workers);
  return ok;
}

/* Every point is in the output. */
gboolean
ns_sweep_complete (const NsSweep *sweep)
{
  return sweep->prepared && sweep->n_done == sweep->n_points;
}

/* Points in the output. */
guint
ns_sweep_n_done (const NsSweep *sweep)
{
  return sweep->n_done;
}

/* Points recorded as failed. */
guint
ns_sweep_n_failed (const NsSweep *sweep)
{
  return sweep->n_failed;
}

/* Writes data to file through its temporary copy (rewrite_temp_name): written, synced,
 * then renamed over file and the directory synced, so file is whole, old or new, at any
 * crash. */
static gboolean
replace_durably (const char *file, const GString *data, GError **error)
{
  g_autofree char *temp = rewrite_temp_name (file);
  const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
  int fd = open (temp, flags, 0644);

  if (fd < 0 && errno == EEXIST && is_rewrite_copy (temp) && unlink (temp) == 0)
    fd = open (temp, flags, 0644);      /* another's file there is not overwritten */
  if (fd < 0)
    return io_error (error, temp, "create");
  if (!ns_write_all (fd, data->str, data->len) || fsync (fd) != 0)
    goto write_failed;
  if (close (fd) != 0) {
    fd = -1;
    goto write_failed;
  }
  if (rename (temp, file) != 0)
    goto rename_failed;
  sync_dir (file);
  return TRUE;

/* ERRORS */
write_failed:
  io_error (error, temp, "write");
  if (fd >= 0)
    close (fd);
  unlink (temp);
  return FALSE;
rename_failed:
  io_error (error, file, "replace");
  unlink (temp);
  return FALSE;
}

/* Rewrites a complete output in canonical point order (atomically, in place of the file a
 * symbolic link names) and closes it. */
gboolean
ns_sweep_finish (NsSweep *sweep, GError **error)
{
  gboolean ok = TRUE;

  g_return_val_if_fail (sweep != NULL && sweep->fd >= 0, FALSE);
  if (ns_sweep_complete (sweep) && !sweep->in_order) {
    g_autofree char *file = output_file (sweep);
    g_autoptr (GString) all = g_string_new (sweep->header->str);
    for (guint i = 0; i < sweep->n_points; i++)
      g_string_append_printf (all, "%s\n", sweep->lines[i]);
    ok = replace_durably (file, all, error);
    sweep->in_order = ok;
  }
  close (sweep->fd);
  sweep->fd = -1;
  return ok;
}

/* Fields of point's line, or NULL if the point is not done. */
char **
ns_sweep_row (const NsSweep *sweep, guint point)
{
  g_return_val_if_fail (sweep != NULL && sweep->prepared && point < sweep->n_points, NULL);
  return sweep->lines[point] ? ns_csv_split (sweep->lines[point]) : NULL;
}

/* ------------------------------------------------------------------------------------- */
/* JSON */

/* "header": the CSV header's comment lines (without "# "), which name the CPU profiles
 * with their hashes and the parameter set, so the JSON carries what the CSV does. */
static void
json_header_lines (const NsSweep *sweep, NsJson *json)
{
  g_auto (GStrv) lines = g_strsplit (sweep->header->str, "\n", -1);

  ns_json_key (json, "header");
  ns_json_begin_array (json);
  for (guint i = 0; lines[i]; i++)
    if (g_str_has_prefix (lines[i], "# "))
      ns_json_string (json, lines[i] + 2);
  ns_json_end_array (json);
}

/* The sweep's identity and dimensions as JSON members. */
static void
json_header (const NsSweep *sweep, NsJson *json)
{
  g_autofree char *seed = g_strdup_printf ("%" G_GUINT64_FORMAT, sweep->seed);

  ns_json_member_string (json, "netsim_version", PACKAGE_VERSION);
  ns_json_key (json, "scenario");
  ns_json_begin_object (json);
  ns_json_member_string (json, "name", sweep->base->name);
  ns_json_member_string (json, "path", sweep->path);
  ns_json_member_string (json, "sha256", sweep->sha256);
  ns_json_end_object (json);
  ns_json_member_strv (json, "sets", sweep->sets);
  ns_json_member_string (json, "sweep_seed", seed);
  ns_json_member_int (json, "repeat", sweep->repeat);
  ns_json_key (json, "dimensions");
  ns_json_begin_array (json);
  for (guint i = 0; i < sweep->dims->len; i++) {
    NsSweepDim *dim = sweep->dims->pdata[i];
    ns_json_begin_object (json);
    ns_json_member_string (json, "path", dim->path);
    ns_json_member_string (json, "spec", dim->spec);
    ns_json_key (json, "values");
    ns_json_begin_array (json);
    for (guint v = 0; v < dim->values->len; v++)
      ns_json_string (json, dim->values->pdata[v]);
    ns_json_end_array (json);
    ns_json_end_object (json);
  }
  ns_json_end_array (json);
  ns_json_member_int (json, "points_total", sweep->n_points);
  ns_json_member_int (json, "points_done", sweep->n_done);
  ns_json_member_int (json, "points_failed", sweep->n_failed);
  json_header_lines (sweep, json);
}

/* One field as JSON: numbers for the numeric columns, strings otherwise. */
static void
json_field (NsJson *json, const char *column, const char *text)
{
  static const char *const ints[] = { "point", "repetition", "reps", "ops" };
  static const char *const doubles[] = { "value", "cv", "wall_s" };

  for (guint i = 0; i < G_N_ELEMENTS (ints); i++)
    if (!strcmp (column, ints[i])) {
      if (text[0])
        ns_json_int (json, g_ascii_strtoll (text, NULL, 10));
      else
        ns_json_string (json, NULL);
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (doubles); i++)
    if (!strcmp (column, doubles[i])) {
      if (text[0])
        ns_json_double (json, g_ascii_strtod (text, NULL));
      else
        ns_json_string (json, NULL);
      return;
    }
  if (!strcmp (column, "notes")) {
    g_auto (GStrv) notes = g_strsplit (text, NS_SWEEP_NOTES_SEP, -1);
    ns_json_begin_array (json);
    for (guint i = 0; text[0] && notes[i]; i++)
      ns_json_string (json, notes[i]);
    ns_json_end_array (json);
    return;
  }
  if (!strcmp (column, "values")) {
    g_auto (GStrv) parts = g_strsplit (text, ";", -1);
    ns_json_begin_array (json);
    for (guint i = 0; text[0] && parts[i]; i++)
      ns_json_double (json, g_ascii_strtod (parts[i], NULL));
    ns_json_end_array (json);
    return;
  }
  ns_json_string (json, !strcmp (column, "error") && !text[0] ? NULL : text);
}

/* Each distinct note of the points done (the notes column), with the number of points
 * that carry it, in first-seen order; see sweep.h. */
GPtrArray *
ns_sweep_notes (const NsSweep *sweep)
{
  g_autoptr (GHashTable) counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GPtrArray *order = g_ptr_array_new_with_free_func (g_free), *result;
  gint col = -1;

  g_return_val_if_fail (sweep != NULL && sweep->prepared, NULL);
  for (guint c = 0; c + 1 < sweep->columns->len; c++)
    if (!strcmp (sweep->columns->pdata[c], "notes"))
      col = (gint) c;
  for (guint p = 0; col >= 0 && p < sweep->n_points; p++) {
    g_auto (GStrv) fields = ns_sweep_row (sweep, p);
    g_auto (GStrv) notes = NULL;
    if (fields == NULL || g_strv_length (fields) <= (guint) col || !fields[col][0])
      continue;
    notes = g_strsplit (fields[col], NS_SWEEP_NOTES_SEP, -1);
    for (guint k = 0; notes[k]; k++) {
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, notes[k]));
      if (n == 0)
        g_ptr_array_add (order, g_strdup (notes[k]));
      g_hash_table_replace (counts, g_strdup (notes[k]), GUINT_TO_POINTER (n + 1));
    }
  }
  result = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < order->len; i++)
    g_ptr_array_add (result, g_strdup_printf ("(%u of %u points): %s",
                     GPOINTER_TO_UINT (g_hash_table_lookup (counts, order->pdata[i])),
                     sweep->n_done, (const char *) order->pdata[i]));
  g_ptr_array_unref (order);
  return result;
}

/* The points done as JSON. */
void
ns_sweep_json (const NsSweep *sweep, GString *out)
{
  NsJson *json = ns_json_new (out);

  g_return_if_fail (sweep != NULL && sweep->prepared);
  ns_json_begin_object (json);
  json_header (sweep, json);
  ns_json_key (json, "points");
  ns_json_begin_array (json);
  for (guint p = 0; p < sweep->n_points; p++) {
    g_auto (GStrv) fields = ns_sweep_row (sweep, p);
    if (fields == NULL)
      continue;
    ns_json_begin_object (json);
    for (guint c = 0; fields[c] && c + 1 < sweep->columns->len; c++) {
      ns_json_key (json, sweep->columns->pdata[c]);
      json_field (json, sweep->columns->pdata[c], fields[c]);
    }
    ns_json_end_object (json);
  }
  ns_json_end_array (json);
  ns_json_end_object (json);
  g_string_append_c (out, '\n');
  ns_json_free (json);
}

/* TRUE if the sweep gives f's parameter a value of its own: a --set changed the base
 * scenario's, or a dimension sweeps it. */
static gboolean
sweep_sets_param (const NsSweep *sweep, const NsFittedParam *f)
{
  g_autofree char *path = g_strdup_printf ("param.%s", f->name);

  for (guint i = 0; i < sweep->dims->len; i++)
    if (!strcmp (((NsSweepDim *) sweep->dims->pdata[i])->path, path))
      return TRUE;
  for (guint i = 0; i < sweep->base->param_names->len; i++)
    if (!strcmp (sweep->base->param_names->pdata[i], f->name))
      return strcmp (sweep->base->param_values->pdata[i], f->value) != 0 ||
             strcmp (sweep->base->param_sources->pdata[i], f->source) != 0;
  return TRUE;
}

/* The names of the CPU profiles the sweep's points run on: the base scenario's and each
 * value of a cpu.profile dimension. NULL with an error if one cannot be read. */
static GPtrArray *
sweep_profiles (const NsSweep *sweep, GError **error)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *given = g_ptr_array_new ();

  g_ptr_array_add (given, sweep->base->cpu);
  for (guint i = 0; i < sweep->dims->len; i++) {
    const NsSweepDim *d = sweep->dims->pdata[i];
    if (!strcmp (d->path, "cpu.profile"))
      g_ptr_array_extend (given, d->values, NULL, NULL);
  }
  for (guint i = 0; i < given->len; i++) {
    NsCpuProfile *p = ns_cpu_profile_load (given->pdata[i], error);
    if (p == NULL) {
      g_ptr_array_unref (names);
      names = NULL;
      break;
    }
    if (!g_ptr_array_find_with_equal_func (names, p->name, g_str_equal, NULL))
      g_ptr_array_add (names, g_strdup (p->name));
    ns_cpu_profile_free (p);
  }
  g_ptr_array_unref (given);
  return names;
}

/* Notes on fitted values carried to other CPUs; see sweep.h. */
char **
ns_sweep_fit_notes (const NsSweep *sweep, GError **error)
{
  g_autofree char *own = NULL;
  g_autoptr (GPtrArray) fits = NULL;
  g_autoptr (GPtrArray) profiles = NULL;
  GPtrArray *notes;

  g_return_val_if_fail (sweep != NULL, NULL);
  fits = ns_run_scenario_fits (sweep->path, &own, error);
  if (fits == NULL)
    return NULL;
  profiles = sweep_profiles (sweep, error);
  if (profiles == NULL)
    return NULL;
  notes = g_ptr_array_new ();
  for (guint i = 0; i < fits->len; i++) {
    const NsFittedParam *f = fits->pdata[i];
    if (sweep_sets_param (sweep, f))
      continue;
    for (guint k = 0; k < profiles->len; k++)
      if (strcmp (profiles->pdata[k], own))
        g_ptr_array_add (notes, ns_run_fit_note (f, own, profiles->pdata[k]));
  }
  g_ptr_array_add (notes, NULL);
  return (char **) g_ptr_array_free (notes, FALSE);
}
