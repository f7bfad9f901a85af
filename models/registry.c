/* registry.c — the table of workload models and helpers shared by them. */
#include "config.h"
#include <math.h>
#include <string.h>
#include "workload.h"
#include "xml.h"
#include "net/udp_tx.h"

extern const NsWorkloadClass ns_pointer_chase_class;
extern const NsWorkloadClass ns_call_chain_class;
extern const NsWorkloadClass ns_call_tree_class;
extern const NsWorkloadClass ns_indirect_call_class;
extern const NsWorkloadClass ns_filter_walk_class;
extern const NsWorkloadClass ns_bpf_tailcall_class;
extern const NsWorkloadClass ns_pingpong_class;
extern const NsWorkloadClass ns_udp_lookup_class;
extern const NsWorkloadClass ns_iperf3_class;
extern const NsWorkloadClass ns_udp_flood_class;
extern const NsWorkloadClass ns_pktgen_class;

static const NsWorkloadClass *const classes[] = {
  &ns_pointer_chase_class,
  &ns_call_chain_class,
  &ns_call_tree_class,
  &ns_indirect_call_class,
  &ns_filter_walk_class,
  &ns_bpf_tailcall_class,
  &ns_pingpong_class,
  &ns_udp_lookup_class,
  &ns_iperf3_class,
  &ns_udp_flood_class,
  &ns_pktgen_class,
  NULL
};

/* Every workload class, NULL-terminated. */
const NsWorkloadClass *const *
ns_workload_classes (void)
{
  return classes;
}

/* The class named name, or NULL. */
const NsWorkloadClass *
ns_workload_class_find (const char *name)
{
  g_return_val_if_fail (name != NULL, NULL);
  for (guint i = 0; classes[i]; i++)
    if (!strcmp (classes[i]->name, name))
      return classes[i];
  return NULL;
}

/* ---- attribute tables ---- */

/* The declared attribute name of attrs; see workload.h. */
const NsWorkloadAttr *
ns_workload_attr_find (const NsWorkloadAttr *attrs, const char *name)
{
  g_return_val_if_fail (attrs != NULL && name != NULL, NULL);

  for (; attrs->name != NULL; attrs++)
    if (g_str_equal (attrs->name, name))
      return attrs;
  g_return_val_if_reached (NULL);
}

/* The attribute name of attrs, which must be of kind (or kind2). */
static const NsWorkloadAttr *
attr_of_kind (const NsWorkloadAttr *attrs, const char *name, NsWorkloadAttrKind kind,
              NsWorkloadAttrKind kind2)
{
  const NsWorkloadAttr *a = ns_workload_attr_find (attrs, name);

  g_return_val_if_fail (a == NULL || a->kind == kind || a->kind == kind2, NULL);
  return a;
}

/* TRUE if every attribute of the workload is type or declared in attrs; see workload.h. */
gboolean
ns_workload_attr_check (const NsScenario *sc, const NsWorkloadAttr *attrs, GError **error)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();

  g_return_val_if_fail (sc != NULL && attrs != NULL, FALSE);

  g_ptr_array_add (names, (gpointer) "type");
  for (const NsWorkloadAttr *a = attrs; a->name != NULL; a++)
    g_ptr_array_add (names, (gpointer) a->name);
  g_ptr_array_add (names, NULL);
  return ns_xml_check_attrs (sc, sc->workload, (const char *const *) names->pdata, error);
}

/* Parses text as a value of a's kind (UINT, SIZE, TIME, CPU, CPUS); see workload.h. */
gboolean
ns_workload_attr_parse (const NsWorkloadAttr *a, const char *text, guint64 *out)
{
  NsTime t;

  g_return_val_if_fail (a != NULL && text != NULL && out != NULL, FALSE);

  switch (a->kind) {
  case NS_WORKLOAD_ATTR_UINT: case NS_WORKLOAD_ATTR_CPU: case NS_WORKLOAD_ATTR_CPUS:
    return ns_parse_uint (text, out);
  case NS_WORKLOAD_ATTR_SIZE:
    return ns_parse_size (text, out);
  case NS_WORKLOAD_ATTR_TIME:
    if (!ns_parse_time (text, &t))
      return FALSE;
    *out = (guint64) t;
    return TRUE;
  default:
    g_return_val_if_reached (FALSE);
  }
}

/* The bound text of a (min or max, NULL: none) as a number, or fallback when unbounded. */
static guint64
bound (const NsWorkloadAttr *a, const char *text, guint64 fallback)
{
  guint64 v;

  if (text == NULL)
    return fallback;
  if (!ns_workload_attr_parse (a, text, &v))
    g_return_val_if_reached (fallback);
  return v;
}

/* Reads a's value (UINT, SIZE, TIME, CPU, CPUS) as written or its default; FALSE with the
 * reader's error on a value of the wrong syntax, or on a missing required one. */
static gboolean
read_number (const NsScenario *sc, const NsWorkloadAttr *a, guint64 *out, GError **error)
{
  xmlNodePtr w = sc->workload;
  NsTime t;

  if (a->def != NULL && ns_xml_attr (w, a->name) == NULL) {
    if (!ns_workload_attr_parse (a, a->def, out))
      g_return_val_if_reached (FALSE);
    return TRUE;
  }
  switch (a->kind) {
  case NS_WORKLOAD_ATTR_SIZE:
    return ns_xml_get_size (sc, w, a->name, FALSE, 0, out, error);
  case NS_WORKLOAD_ATTR_TIME:
    if (!ns_xml_get_time (sc, w, a->name, FALSE, 0, &t, error))
      return FALSE;
    *out = (guint64) t;
    return TRUE;
  default:                                      /* UINT, CPU, CPUS */
    return ns_xml_get_uint (sc, w, a->name, FALSE, 0, out, error);
  }
}

/* " (WHY)" of a's why, or "" (newly allocated): a refusal's reason for a bound. */
static char *
why_note (const NsWorkloadAttr *a)
{
  return a->why != NULL ? g_strdup_printf (" (%s)", a->why) : g_strdup ("");
}

/* FALSE with a file:line error if v is outside a's bounds. */
static gboolean
check_bounds (const NsScenario *sc, const NsWorkloadAttr *a, guint64 v, GError **error)
{
  g_autofree char *range = NULL;
  g_autofree char *why = NULL;
  g_autofree char *value = NULL;

  if (v >= bound (a, a->min, 0) && v <= bound (a, a->max, G_MAXUINT64))
    return TRUE;
  range = ns_workload_attr_describe (a);
  why = why_note (a);
  value = ns_xml_prop (sc->workload, a->name);
  ns_xml_error_attr (sc, sc->workload, a->name, error, "attribute '%s': expected %s%s, got %s",
                     a->name, range, why, value != NULL ? value : "its default");
  return FALSE;
}

/* a's value (UINT, SIZE, TIME) into *out (untouched on error), within its bounds; FALSE
 * with a file:line error. */
static gboolean
read_bounded (const NsScenario *sc, const NsWorkloadAttr *a, guint64 *out, GError **error)
{
  guint64 v;

  if (!read_number (sc, a, &v, error) || !check_bounds (sc, a, v, error))
    return FALSE;
  *out = v;
  return TRUE;
}

/* A UINT or SIZE attribute's value, checked against its bounds; see workload.h. */
gboolean
ns_workload_attr_uint (const NsScenario *sc, const NsWorkloadAttr *attrs, const char *name,
                       guint64 *out, GError **error)
{
  const NsWorkloadAttr *a = attr_of_kind (attrs, name, NS_WORKLOAD_ATTR_UINT,
                                          NS_WORKLOAD_ATTR_SIZE);

  g_return_val_if_fail (sc != NULL && a != NULL && out != NULL, FALSE);

  return read_bounded (sc, a, out, error);
}

/* A TIME attribute's value, checked against its bounds; see workload.h. */
gboolean
ns_workload_attr_time (const NsScenario *sc, const NsWorkloadAttr *attrs, const char *name,
                       NsTime *out, GError **error)
{
  const NsWorkloadAttr *a = attr_of_kind (attrs, name, NS_WORKLOAD_ATTR_TIME,
                                          NS_WORKLOAD_ATTR_TIME);
  guint64 v;

  g_return_val_if_fail (sc != NULL && a != NULL && out != NULL, FALSE);

  if (!read_bounded (sc, a, &v, error))
    return FALSE;
  *out = (NsTime) v;
  return TRUE;
}

/* A BOOL attribute's value; see workload.h. */
gboolean
ns_workload_attr_bool (const NsScenario *sc, const NsWorkloadAttr *attrs, const char *name,
                       gboolean *out, GError **error)
{
  const NsWorkloadAttr *a = attr_of_kind (attrs, name, NS_WORKLOAD_ATTR_BOOL,
                                          NS_WORKLOAD_ATTR_BOOL);

  g_return_val_if_fail (sc != NULL && a != NULL && out != NULL, FALSE);
  g_return_val_if_fail (a->def != NULL, FALSE);

  return ns_xml_get_bool (sc, sc->workload, name, g_str_equal (a->def, "true"), out, error);
}

/* The text of a (CHOICE or TEXT) as written, or its default (another attribute's value
 * for "@NAME"), newly allocated; FALSE with an error if required and absent. */
static gboolean
read_text (const NsScenario *sc, const NsWorkloadAttr *attrs, const NsWorkloadAttr *a,
           char **out, GError **error)
{
  if (a->def != NULL && a->def[0] == '@' && ns_xml_attr (sc->workload, a->name) == NULL)
    return read_text (sc, attrs, ns_workload_attr_find (attrs, a->def + 1), out, error);
  return ns_xml_get_string (sc, sc->workload, a->name, a->def, out, error);
}

/* A CHOICE attribute's index in its choices; see workload.h. */
gboolean
ns_workload_attr_choice (const NsScenario *sc, const NsWorkloadAttr *attrs, const char *name,
                         guint *out, GError **error)
{
  const NsWorkloadAttr *a = attr_of_kind (attrs, name, NS_WORKLOAD_ATTR_CHOICE,
                                          NS_WORKLOAD_ATTR_CHOICE);
  g_autofree char *v = NULL;
  g_autofree char *list = NULL;
  g_autofree char *why = NULL;

  g_return_val_if_fail (sc != NULL && a != NULL && out != NULL, FALSE);

  if (!read_text (sc, attrs, a, &v, error))
    return FALSE;
  for (guint i = 0; a->choices[i] != NULL; i++)
    if (g_str_equal (a->choices[i], v)) {
      *out = i;
      return TRUE;
    }
  list = ns_workload_attr_describe (a);
  why = why_note (a);
  ns_xml_error_attr (sc, sc->workload, name, error, "attribute '%s': expected %s%s, got '%s'",
                     name, list, why, v);
  return FALSE;
}

/* A CPU or CPUS attribute, checked against the machine; see workload.h. */
gboolean
ns_workload_attr_cpu (const NsScenario *sc, NsMachine *machine, const NsWorkloadAttr *attrs,
                      const char *name, guint *out, GError **error)
{
  const NsWorkloadAttr *a = attr_of_kind (attrs, name, NS_WORKLOAD_ATTR_CPU,
                                          NS_WORKLOAD_ATTR_CPUS);
  guint n_cpus = ns_machine_n_cpus (machine);
  guint64 v;

  g_return_val_if_fail (sc != NULL && a != NULL && a->def != NULL && out != NULL, FALSE);

  if (!read_number (sc, a, &v, error))
    return FALSE;
  if (a->kind == NS_WORKLOAD_ATTR_CPU ? v >= n_cpus : v < 1 || v > n_cpus)
    goto no_such_cpu;
  *out = (guint) v;
  return TRUE;

/* ERRORS */
no_such_cpu:
  {
    NsXmlBlame blame = { .attrs = { name } };
    ns_xml_blame_machine (sc, &blame);          /* the topology decides the CPUs */
    if (a->kind == NS_WORKLOAD_ATTR_CPU)
      ns_xml_error_blame (sc, sc->workload, blame, error, "attribute '%s': CPU %"
                          G_GUINT64_FORMAT " does not exist (the machine has CPUs 0-%u%s)",
                          name, v, n_cpus - 1, ns_machine_cpus_note (machine));
    else
      ns_xml_error_blame (sc, sc->workload, blame, error, "attribute '%s': expected 1 to "
                          "the machine's %u CPUs, got %" G_GUINT64_FORMAT, name, n_cpus, v);
  }
  return FALSE;
}

/* A TEXT attribute's value; see workload.h. */
gboolean
ns_workload_attr_text (const NsScenario *sc, const NsWorkloadAttr *attrs, const char *name,
                       char **out, GError **error)
{
  const NsWorkloadAttr *a = attr_of_kind (attrs, name, NS_WORKLOAD_ATTR_TEXT,
                                          NS_WORKLOAD_ATTR_TEXT);

  g_return_val_if_fail (sc != NULL && a != NULL && out != NULL, FALSE);

  return read_text (sc, attrs, a, out, error);
}

/* "a, b or c" of a NULL-terminated list, appended to s. */
static void
append_choices (GString *s, const char *const *choices)
{
  for (guint i = 0; choices[i] != NULL; i++)
    g_string_append_printf (s, "%s%s", i == 0 ? "" : choices[i + 1] == NULL ? " or " : ", ",
                            choices[i]);
}

/* How a is written: its range, choices or kind; see workload.h. */
char *
ns_workload_attr_describe (const NsWorkloadAttr *a)
{
  GString *s = g_string_new (NULL);

  g_return_val_if_fail (a != NULL, NULL);

  switch (a->kind) {
  case NS_WORKLOAD_ATTR_UINT: case NS_WORKLOAD_ATTR_SIZE: case NS_WORKLOAD_ATTR_TIME:
    if (a->min != NULL && a->max != NULL)
      g_string_append_printf (s, "%s to %s", a->min, a->max);
    else if (a->max != NULL)
      g_string_append_printf (s, "at most %s", a->max);
    else
      g_string_append_printf (s, "at least %s", a->min != NULL ? a->min : "0");
    if (a->kind == NS_WORKLOAD_ATTR_SIZE && g_ascii_isdigit (s->str[s->len - 1]))
      g_string_append (s, " bytes");              /* a bound without a unit */
    break;
  case NS_WORKLOAD_ATTR_BOOL:
    g_string_append (s, "true or false");
    break;
  case NS_WORKLOAD_ATTR_CHOICE:
    append_choices (s, a->choices);
    break;
  case NS_WORKLOAD_ATTR_CPU:
    g_string_append (s, "a CPU of the machine");
    break;
  case NS_WORKLOAD_ATTR_CPUS:
    g_string_append (s, "1 to the machine's CPUs");
    break;
  case NS_WORKLOAD_ATTR_TEXT:
    g_string_append (s, "text");
    break;
  }
  return g_string_free (s, FALSE);
}

/* An IPv6 length above lo's unfragmented limit is refused, naming the limit. */
gboolean
ns_workload_check_udp_unfragmented (const NsScenario *sc, guint64 length, gboolean ipv6,
                                    GError **error)
{
  if (!ipv6 || length <= NS_UDPV6_LO_MAX_UNFRAGMENTED)
    return TRUE;
  ns_xml_error_blame (sc, sc->workload, (NsXmlBlame) { .attrs = { "length", "family" } },
                      error, "attribute 'length': %" G_GUINT64_FORMAT " bytes is above %u, "
                      "where IPv6 on lo fragments the datagram (ip6_fragment and reassembly "
                      "are not modelled); use family=\"ipv4\" or a length up to %u", length,
                      NS_UDPV6_LO_MAX_UNFRAGMENTED, NS_UDPV6_LO_MAX_UNFRAGMENTED);
  return FALSE;
}

/* count per second over span; see workload.h. */
double
ns_workload_rate (double count, NsTime span)
{
  g_return_val_if_fail (span > 0, NAN);
  return count * 1e12 / (double) span;
}

/* n synthetic model functions named prefix_i; see workload.h. */
NsFunc *
ns_workload_new_functions (const char *prefix, guint n, guint text_bytes, gint frame_insns,
                           guint attrs)
{
  NsFunc *fns;

  g_return_val_if_fail (prefix != NULL && n > 0, NULL);
  fns = g_new0 (NsFunc, n);
  for (guint i = 0; i < n; i++) {
    fns[i].name = g_strdup_printf ("%s_%u", prefix, i);
    fns[i].text_bytes = text_bytes;
    fns[i].frame_insns = frame_insns;
    fns[i].attrs = attrs;
    fns[i].call_sites = 1;
  }
  return fns;
}

/* Cycles of the machine's clock in span. */
double
ns_workload_span_cycles (NsMachine *machine, NsTime span)
{
  return (double) span * ns_machine_ghz (machine) / 1000.0;
}
