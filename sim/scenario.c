/* scenario.c — XML scenarios: loading, --set overrides, defaults, typed attribute access. */
#include "config.h"
#include "scenario.h"
#include "xml.h"
#include "param.h"
#include "profile.h"

#include <math.h>
#include <string.h>
#include <libxml/xmlsave.h>

/* Order of the children of <scenario> and <kernel>, for inserting created elements. */
static const char *const scenario_order[] = {
  "description", "cpu", "kernel", "param", "workload", "measure", "variants", "comparisons",
  NULL
};
static const char *const kernel_order[] = { "config", "patch", NULL };

/* ------------------------------------------------------------------------------------ */
/* Value parsers */

/* Parses a run of decimal digits at *p into *value; FALSE if none or on overflow. */
static gboolean
parse_digits (const char **p, guint64 *value, int *n_digits)
{
  guint64 v = 0;
  int n = 0;

  for (; g_ascii_isdigit (**p); (*p)++, n++) {
    guint d = (guint) (**p - '0');

    if (v > (G_MAXUINT64 - d) / 10)
      return FALSE;
    v = v * 10 + d;
  }
  *value = v;
  if (n_digits != NULL)
    *n_digits = n;
  return n > 0;
}

/* Multiplies a by b into *out; FALSE on overflow of guint64. */
static gboolean
mul_u64 (guint64 a, guint64 b, guint64 *out)
{
  if (b != 0 && a > G_MAXUINT64 / b)
    return FALSE;
  *out = a * b;
  return TRUE;
}

/* Sizes: an unsigned integer with an optional unit: B; K, KB, M, MB, G, GB, T, TB
 * (powers of 1000); KiB, MiB, GiB, TiB (powers of 1024). */
gboolean
ns_parse_size (const char *text, guint64 *out)
{
  static const struct { const char *unit; guint64 factor; } units[] = {
    { "", 1 }, { "B", 1 },
    { "K", 1000 }, { "KB", 1000 }, { "M", 1000000 }, { "MB", 1000000 },
    { "G", 1000000000 }, { "GB", 1000000000 },
    { "T", G_GUINT64_CONSTANT (1000000000000) }, { "TB", G_GUINT64_CONSTANT (1000000000000) },
    { "KiB", 1024 }, { "MiB", 1024 * 1024 }, { "GiB", 1024 * 1024 * 1024 },
    { "TiB", G_GUINT64_CONSTANT (1) << 40 },
  };
  const char *p = text;
  guint64 value;

  g_return_val_if_fail (out != NULL, FALSE);

  if (text == NULL || !parse_digits (&p, &value, NULL))
    return FALSE;
  for (gsize i = 0; i < G_N_ELEMENTS (units); i++)
    if (g_str_equal (p, units[i].unit))
      return mul_u64 (value, units[i].factor, out);
  return FALSE;
}

/* Times: "0", or a decimal number with a unit ps, ns, us, ms or s that is a whole number
 * of picoseconds and fits in NsTime. */
gboolean
ns_parse_time (const char *text, NsTime *out)
{
  static const struct { const char *unit; guint64 ps; } units[] = {
    { "ps", 1 }, { "ns", 1000 }, { "us", 1000000 }, { "ms", 1000000000 },
    { "s", G_GUINT64_CONSTANT (1000000000000) },
  };
  const char *p = text;
  guint64 whole, frac = 0, scale = 1, ps = 0, part;
  int n_frac = 0;

  g_return_val_if_fail (out != NULL, FALSE);

  if (text == NULL || !parse_digits (&p, &whole, NULL))
    return FALSE;
  if (*p == '\0' && whole == 0) {
    *out = 0;
    return TRUE;
  }
  if (*p == '.') {
    p++;
    if (!parse_digits (&p, &frac, &n_frac) || n_frac > 18)
      return FALSE;
    for (int i = 0; i < n_frac; i++)
      scale *= 10;
  }
  for (gsize i = 0; i < G_N_ELEMENTS (units); i++) {
    if (!g_str_equal (p, units[i].unit))
      continue;
    if (!mul_u64 (whole, units[i].ps, &ps))
      return FALSE;
    /* frac/scale units must be a whole number of ps; both are powers of ten, so one
     * divides the other. */
    if (units[i].ps % scale == 0)
      part = frac * (units[i].ps / scale);
    else if (frac % (scale / units[i].ps) == 0)
      part = frac / (scale / units[i].ps);
    else
      return FALSE;
    if (ps > (guint64) G_MAXINT64 - part)
      return FALSE;
    *out = (NsTime) (ps + part);
    return TRUE;
  }
  return FALSE;
}

/* Rates in bits per second: a non-negative decimal number with an optional K, M, G or T
 * (powers of 1000) and optional "bit/s" or "bps"; "0" means unlimited. */
gboolean
ns_parse_rate (const char *text, double *bits_per_sec)
{
  static const struct { char prefix; double factor; } prefixes[] = {
    { 'K', 1e3 }, { 'k', 1e3 }, { 'M', 1e6 }, { 'G', 1e9 }, { 'T', 1e12 },
  };
  const char *p = text;
  char *end = NULL;
  double value, factor = 1.0;

  g_return_val_if_fail (bits_per_sec != NULL, FALSE);

  if (text == NULL || !(g_ascii_isdigit (*p) || (*p == '.' && g_ascii_isdigit (p[1]))))
    return FALSE;
  value = g_ascii_strtod (text, &end);
  for (p = text; p < end; p++)
    if (!g_ascii_isdigit (*p) && *p != '.')
      return FALSE;      /* no exponents, signs or hex */
  for (gsize i = 0; i < G_N_ELEMENTS (prefixes); i++)
    if (*end == prefixes[i].prefix) {
      factor = prefixes[i].factor;
      end++;
      break;
    }
  if (*end != '\0' && !g_str_equal (end, "bps") && !g_str_equal (end, "bit/s"))
    return FALSE;
  value *= factor;
  if (!isfinite (value) || value < 0)
    return FALSE;
  *bits_per_sec = value;
  return TRUE;
}

/* ------------------------------------------------------------------------------------ */
/* Errors and typed attribute access */

/* File name for messages about node. */
static const char *
file_of (const NsScenario *sc, xmlNodePtr node)
{
  if (sc != NULL && sc->path != NULL)
    return sc->path;
  if (node != NULL && node->doc != NULL && node->doc->URL != NULL)
    return (const char *) node->doc->URL;
  return "(scenario)";
}

/* Who set node or an element holding it ("--set PATH=VALUE", …), or NULL. */
static const char *
touched_by (GHashTable *touched, xmlNodePtr node)
{
  for (; node != NULL && node->type != XML_DOCUMENT_NODE; node = node->parent) {
    const char *text = g_hash_table_lookup (touched, node);

    if (text != NULL)
      return text;
  }
  return NULL;
}

/* An NsXmlBlame listing nothing. */
static const NsXmlBlame no_blame = { .attrs = { NULL } };

/* Appends set (a string set_by owns) to sets unless it is NULL or there already. */
static void
add_set (GPtrArray *sets, const char *set)
{
  if (set != NULL && !g_ptr_array_find_with_equal_func (sets, set, g_str_equal, NULL))
    g_ptr_array_add (sets, (gpointer) set);
}

/* Appends to sets those behind element as a whole: the set that made it or an element
 * holding it, then those that changed its attributes, in its order. */
static void
add_sets_of_element (GHashTable *set_by, xmlNodePtr element, GPtrArray *sets)
{
  add_set (sets, touched_by (set_by, element));
  for (xmlAttrPtr a = element->properties; a != NULL; a = a->next)
    add_set (sets, g_hash_table_lookup (set_by, a));
}

/* Appends to sets those behind node: an element's (add_sets_of_element), or an
 * attribute's: the set that gave its value, else the one that made an element holding
 * it. */
static void
add_sets_of_node (GHashTable *set_by, xmlNodePtr node, GPtrArray *sets)
{
  if (node->type == XML_ELEMENT_NODE)
    add_sets_of_element (set_by, node, sets);
  else
    add_set (sets, touched_by (set_by, node));
}

/* TRUE if node (not NULL) is one of blame's other nodes. */
static gboolean
blames_node (const NsXmlBlame *blame, xmlNodePtr node)
{
  for (gsize i = 0; i < G_N_ELEMENTS (blame->also); i++)
    if (blame->also[i] == node)
      return TRUE;
  return FALSE;
}

/* TRUE if name is one of blame's attributes. */
static gboolean
blames_attr (const NsXmlBlame *blame, const xmlChar *name)
{
  for (gsize i = 0; i < G_N_ELEMENTS (blame->attrs); i++)
    if (blame->attrs[i] != NULL && xmlStrEqual (BAD_CAST blame->attrs[i], name))
      return TRUE;
  return FALSE;
}

/* Appends to sets those behind each of blame's other nodes, walking the elements from node
 * on (and their attributes) in document order. */
static void
add_sets_in_order (GHashTable *set_by, xmlNodePtr node, const NsXmlBlame *blame,
                   GPtrArray *sets)
{
  for (; node != NULL; node = node->next) {
    if (node->type != XML_ELEMENT_NODE)
      continue;
    if (blames_node (blame, node))
      add_sets_of_element (set_by, node, sets);
    for (xmlAttrPtr a = node->properties; a != NULL; a = a->next)
      if (blames_node (blame, (xmlNodePtr) a))
        add_sets_of_node (set_by, (xmlNodePtr) a, sets);
    add_sets_in_order (set_by, node->children, blame, sets);
  }
}

/* TRUE if entry (mark_touched's "BY PATH=VALUE, as SETS edited it") names set among the
 * SETS that edited it. */
static gboolean
names_editor (const char *entry, const char *set)
{
  const char *as = strstr (entry, ", as ");
  gsize len = strlen (set);

  for (const char *at = as ? strstr (as, set) : NULL; at != NULL; at = strstr (at + 1, set))
    if ((at == as + strlen (", as ") || g_str_has_prefix (at - 2, ", ")) &&
        (g_str_has_prefix (at + len, ", ") || g_str_equal (at + len, " edited it")))
      return TRUE;
  return FALSE;
}

/* Drops from sets each one another already names as having edited it (names_editor). */
static void
drop_contained (GPtrArray *sets)
{
  for (guint i = sets->len; i-- > 0;)
    for (guint j = 0; j < sets->len; j++)
      if (j != i && names_editor (sets->pdata[j], sets->pdata[i])) {
        g_ptr_array_remove_index (sets, i);
        break;
      }
}

/* The sets behind node (add_sets_of_node) joined by ", ", newly allocated, or NULL. */
static char *
sets_behind (GHashTable *set_by, xmlNodePtr node)
{
  g_autoptr (GPtrArray) sets = g_ptr_array_new ();

  if (set_by == NULL || node == NULL)
    return NULL;
  add_sets_of_node (set_by, node, sets);
  drop_contained (sets);
  if (sets->len == 0)
    return NULL;
  g_ptr_array_add (sets, NULL);
  return g_strjoinv (", ", (char **) sets->pdata);
}

/* Appends " (after SETS)" to message for the sets behind what blame says an error about
 * node is about (all of node, for ns_xml_error, if whole), the sets' line breaks and other
 * control characters escaped (the message stays one line); nothing if none. */
static void
append_sets (GString *message, const NsScenario *sc, xmlNodePtr node, gboolean whole,
             const NsXmlBlame *blame)
{
  g_autoptr (GPtrArray) sets = g_ptr_array_new ();

  if (sc == NULL || sc->set_by == NULL || node == NULL)
    return;
  if (whole)
    add_sets_of_node (sc->set_by, node, sets);
  else if (node->type == XML_ELEMENT_NODE) {
    gboolean found = FALSE;
    for (xmlAttrPtr a = node->properties; a != NULL; a = a->next)
      if (blames_attr (blame, a->name)) {
        add_sets_of_node (sc->set_by, (xmlNodePtr) a, sets);
        found = TRUE;
      }
    if (!found)          /* a missing value: the set that made the element lacks it */
      add_set (sets, touched_by (sc->set_by, node));
  }
  if (node->doc != NULL)
    add_sets_in_order (sc->set_by, xmlDocGetRootElement (node->doc), blame, sets);
  drop_contained (sets);
  for (guint i = 0; i < sets->len; i++) {
    g_string_append (message, i == 0 ? " (after " : ", ");
    ns_escape_controls (message, sets->pdata[i]);
  }
  if (sets->len > 0)
    g_string_append_c (message, ')');
}

/* The line of an error about node that blame describes: that of the first of its
 * attributes node has, else node's. */
static int
blame_line (xmlNodePtr node, const NsXmlBlame *blame)
{
  for (gsize i = 0; i < G_N_ELEMENTS (blame->attrs); i++) {
    xmlAttrPtr a = blame->attrs[i] != NULL ? ns_xml_attr (node, blame->attrs[i]) : NULL;

    if (a != NULL)
      return ns_xml_line ((xmlNodePtr) a);
  }
  return ns_xml_line (node);
}

/* Sets the NS_ERROR_INPUT error "file:line: message (after SETS)" about node and what
 * blame lists (all of node if whole). */
static void
set_error (const NsScenario *sc, xmlNodePtr node, gboolean whole, const NsXmlBlame *blame,
           GError **error, const char *format, va_list args) G_GNUC_PRINTF (6, 0);

static void
set_error (const NsScenario *sc, xmlNodePtr node, gboolean whole, const NsXmlBlame *blame,
           GError **error, const char *format, va_list args)
{
  g_autoptr (GString) message = g_string_new (NULL);

  g_string_vprintf (message, format, args);
  append_sets (message, sc, node, whole, blame);
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s:%d: %s", file_of (sc, node),
               whole ? ns_xml_line (node) : blame_line (node, blame), message->str);
}

/* Sets an error about node as a whole; see scenario.h. */
void
ns_xml_error (const NsScenario *sc, xmlNodePtr node, GError **error, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  set_error (sc, node, TRUE, &no_blame, error, format, args);
  va_end (args);
}

/* Sets an error about attribute attr of node; see scenario.h. */
void
ns_xml_error_attr (const NsScenario *sc, xmlNodePtr node, const char *attr, GError **error,
                   const char *format, ...)
{
  NsXmlBlame blame = { .attrs = { attr } };
  va_list args;

  va_start (args, format);
  set_error (sc, node, FALSE, &blame, error, format, args);
  va_end (args);
}

/* Sets an error about what blame lists; see scenario.h. */
void
ns_xml_error_blame (const NsScenario *sc, xmlNodePtr node, NsXmlBlame blame, GError **error,
                    const char *format, ...)
{
  va_list args;

  va_start (args, format);
  set_error (sc, node, FALSE, &blame, error, format, args);
  va_end (args);
}

/* Sets "element E: attribute 'a': expected WHAT, got 'value'". */
static void
error_expected (const NsScenario *sc, xmlNodePtr node, const char *attr, const char *value,
                const char *what, GError **error)
{
  g_autofree char *shown = g_strescape (value, NULL);

  ns_xml_error_attr (sc, node, attr, error, "element %s: attribute '%s': expected %s, got "
                     "'%s'", node->name, attr, what, shown);
}

/* Looks up attr on node: TRUE with *text set if present; if absent, TRUE with *text NULL
 * when has_default, else FALSE with a "missing required attribute" error. */
static gboolean
get_text (const NsScenario *sc, xmlNodePtr node, const char *attr, gboolean has_default,
          char **text, GError **error)
{
  *text = ns_xml_prop (node, attr);
  if (*text != NULL || has_default)
    return TRUE;
  ns_xml_error_attr (sc, node, attr, error, "element %s: missing required attribute '%s'",
                     node->name, attr);
  return FALSE;
}

typedef gboolean (*NsParseFunc) (const char *text, gpointer out);

/* Reads attr through parse into out; an absent attribute with has_default leaves *out (the
 * caller stored the default there); a bad value is a file:line error saying what was
 * expected. */
static gboolean
get_parsed (const NsScenario *sc, xmlNodePtr node, const char *attr, gboolean has_default,
            NsParseFunc parse, gpointer out, const char *expected, GError **error)
{
  char *text;
  gboolean ok;

  if (!get_text (sc, node, attr, has_default, &text, error))
    return FALSE;
  if (text == NULL)
    return TRUE;
  ok = parse (text, out);
  if (!ok)
    error_expected (sc, node, attr, text, expected, error);
  g_free (text);
  return ok;
}

/* Sets *out to a newly allocated copy of attr, or of def if absent; FALSE with a file:line
 * error if absent and def is NULL. */
gboolean
ns_xml_get_string (const NsScenario *sc, xmlNodePtr node, const char *attr, const char *def,
                   char **out, GError **error)
{
  char *text;

  g_return_val_if_fail (node != NULL && attr != NULL && out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!get_text (sc, node, attr, def != NULL, &text, error))
    return FALSE;
  *out = g_strdup (text != NULL ? text : def);
  g_free (text);
  return TRUE;
}

/* Parses a plain unsigned decimal integer (digits only, at most 2^64 - 1). */
gboolean
ns_parse_uint (const char *text, guint64 *out)
{
  const char *p = text;

  g_return_val_if_fail (out != NULL, FALSE);

  return text != NULL && parse_digits (&p, out, NULL) && *p == '\0';
}

/* NsParseFunc adapter of ns_parse_uint (out is a guint64 *). */
static gboolean
parse_uint_cb (const char *text, gpointer out)
{
  return ns_parse_uint (text, out);
}

/* Reads attr as uint (see scenario.h). */
gboolean
ns_xml_get_uint (const NsScenario *sc, xmlNodePtr node, const char *attr,
                 gboolean has_default, guint64 def, guint64 *out, GError **error)
{
  g_return_val_if_fail (node != NULL && attr != NULL && out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  *out = def;
  return get_parsed (sc, node, attr, has_default, parse_uint_cb, out,
                     "a non-negative integer (at most 18446744073709551615)", error);
}

/* NsParseFunc adapter of ns_parse_decimal (out is a double *): a finite decimal number,
 * the syntax parameter values take too. */
static gboolean
parse_double_cb (const char *text, gpointer out)
{
  return ns_parse_decimal (text, out);
}

/* Reads attr as double (see scenario.h). */
gboolean
ns_xml_get_double (const NsScenario *sc, xmlNodePtr node, const char *attr,
                   gboolean has_default, double def, double *out, GError **error)
{
  g_return_val_if_fail (node != NULL && attr != NULL && out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  *out = def;
  return get_parsed (sc, node, attr, has_default, parse_double_cb, out,
                     "a number", error);
}

/* Reads attr as true/yes/on/1 or false/no/off/0 (case-sensitive) into *out, def if absent;
 * FALSE with a file:line error on any other value. */
gboolean
ns_xml_get_bool (const NsScenario *sc, xmlNodePtr node, const char *attr, gboolean def,
                 gboolean *out, GError **error)
{
  static const char *const yes[] = { "true", "yes", "on", "1" };
  static const char *const no[] = { "false", "no", "off", "0" };
  char *text;

  g_return_val_if_fail (node != NULL && attr != NULL && out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  text = ns_xml_prop (node, attr);
  if (text == NULL) {
    *out = def;
    return TRUE;
  }
  for (gsize i = 0; i < G_N_ELEMENTS (yes); i++) {
    if (g_str_equal (text, yes[i]) || g_str_equal (text, no[i])) {
      *out = g_str_equal (text, yes[i]);
      g_free (text);
      return TRUE;
    }
  }
  error_expected (sc, node, attr, text,
                  "true or false (or yes/no, on/off, 1/0)", error);
  g_free (text);
  return FALSE;
}

/* NsParseFunc adapter of ns_parse_size (out is a guint64 *). */
static gboolean
parse_size_cb (const char *text, gpointer out)
{
  return ns_parse_size (text, out);
}

/* Reads attr as size (see scenario.h). */
gboolean
ns_xml_get_size (const NsScenario *sc, xmlNodePtr node, const char *attr,
                 gboolean has_default, guint64 def, guint64 *out, GError **error)
{
  g_return_val_if_fail (node != NULL && attr != NULL && out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  *out = def;
  return get_parsed (sc, node, attr, has_default, parse_size_cb, out,
                     "a size such as 4096, 64KiB, 1MiB or 8K (units B; K/KB, M/MB, G/GB, "
                     "T/TB: powers of 1000; KiB, MiB, GiB, TiB: powers of 1024)", error);
}

/* NsParseFunc adapter of ns_parse_time (out is an NsTime *). */
static gboolean
parse_time_cb (const char *text, gpointer out)
{
  return ns_parse_time (text, out);
}

/* Reads attr as time (see scenario.h). */
gboolean
ns_xml_get_time (const NsScenario *sc, xmlNodePtr node, const char *attr,
                 gboolean has_default, NsTime def, NsTime *out, GError **error)
{
  g_return_val_if_fail (node != NULL && attr != NULL && out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  *out = def;
  return get_parsed (sc, node, attr, has_default, parse_time_cb, out,
                     "a time such as 10us (units ps, ns, us, ms, s; a whole number of ps, "
                     "at most 106 days)", error);
}

/* TRUE if name is in the NULL-terminated list. */
static gboolean
name_in (const char *name, const char *const *list)
{
  for (; list != NULL && *list != NULL; list++)
    if (g_str_equal (name, *list))
      return TRUE;
  return FALSE;
}

/* TRUE if every attribute of node is in allowed (NULL-terminated; NULL: none); else FALSE
 * with a file:line error naming the first other one and listing the allowed ones. */
gboolean
ns_xml_check_attrs (const NsScenario *sc, xmlNodePtr node, const char *const *allowed,
                    GError **error)
{
  g_return_val_if_fail (node != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  for (xmlAttrPtr attr = node->properties; attr != NULL; attr = attr->next) {
    g_autofree char *list = NULL;

    if (name_in ((const char *) attr->name, allowed))
      continue;
    list = allowed != NULL && allowed[0] != NULL ? g_strjoinv (", ", (char **) allowed)
                                                 : NULL;
    ns_xml_error_attr (sc, node, (const char *) attr->name, error, "element %s: unknown "
                       "attribute '%s' (%s%s)", node->name, attr->name,
                       list != NULL ? "allowed: " : "it takes none", list != NULL ? list : "");
    return FALSE;
  }
  return TRUE;
}

/* ------------------------------------------------------------------------------------ */
/* --set PATH=VALUE */

/* One --set being applied, and the nodes it touched (node → who set it). */
typedef struct {
  const char *text;     /* "PATH=VALUE" as given */
  GHashTable *touched;  /* xmlNodePtr (element or attribute) → "--set PATH=VALUE" or
                           "variant 'NAME' set PATH=VALUE" (owned by the table) */
  xmlNodePtr  origin;   /* the <set> element it comes from, or NULL for the command line */
  const char *by;       /* "--set", "--param" or "variant 'NAME' set" */
  GHashTable *was;      /* xmlAttrPtr → the value the first set to change it replaced
                           (owned; NULL: not recorded) */
  GPtrArray  *replaced; /* "--set … replaces variant 'NAME' set …" for each variant's own
                           set a command-line set overrode (NULL: not kept) */
} SetContext;

/* Records that set made or changed node (an element or attribute): "BY PATH=VALUE", and
 * for a variant's <set> that command-line sets edited ", as --set … edited it". */
static void
mark_touched (const SetContext *set, gconstpointer node)
{
  g_autofree char *edited = set->origin ? sets_behind (set->touched, set->origin) : NULL;
  const char *before = g_hash_table_lookup (set->touched, node);
  g_autofree char *same = set->replaced ? g_strconcat (" ", set->text, NULL) : NULL;

  /* a variant's own set overridden, unless with its own PATH=VALUE (that changes nothing) */
  if (set->replaced != NULL && before != NULL && g_str_has_prefix (before, "variant '") &&
      !g_str_has_suffix (before, same)) {
    char *note = g_strdup_printf ("%s %s replaces %s", set->by, set->text, before);
    if (g_ptr_array_find_with_equal_func (set->replaced, note, g_str_equal, NULL))
      g_free (note);                        /* the element and its attribute: one note */
    else
      g_ptr_array_add (set->replaced, note);
  }

  g_hash_table_insert (set->touched, (gpointer) node,
                       edited ? g_strdup_printf ("%s %s, as %s edited it", set->by, set->text,
                                                 edited)
                              : g_strdup_printf ("%s %s", set->by, set->text));
}

/* Sets "--set TEXT: message" (or "--param …"), or "file:line: element set: TEXT: message"
 * for a <set> of a variant (NS_ERROR_INPUT). */
static gboolean
set_fail (const SetContext *set, GError **error, const char *format, ...) G_GNUC_PRINTF (3, 4);

/* Sets the error for set, worded as its origin (command line or <set>) needs; FALSE. */
static gboolean
set_fail (const SetContext *set, GError **error, const char *format, ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  if (set->origin != NULL) {                     /* names a --set that edited the <set> */
    NsScenario view = { .set_by = set->touched };

    ns_xml_error (&view, set->origin, error, "element set: %s: %s", set->text, message);
  }
  else
    g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s %s: %s", set->by, set->text, message);
  return FALSE;
}

/* TRUE if name is a plain XML name without dots or colons: [A-Za-z_][A-Za-z0-9_-]*. */
static gboolean
is_simple_name (const char *name)
{
  if (!g_ascii_isalpha (*name) && *name != '_')
    return FALSE;
  for (; *name; name++)
    if (!g_ascii_isalnum (*name) && *name != '_' && *name != '-')
      return FALSE;
  return TRUE;
}

/* The largest N of a path's name[N]: more elements than any scenario has, small enough
 * that creating the missing ones is refused rather than attempted. */
#define MAX_PATH_INDEX 100000

/* Splits "name[N]" into name and N (1 if no index); FALSE with an error if malformed. */
static gboolean
parse_component (const SetContext *set, const char *component, char **name, guint *index,
                 GError **error)
{
  const char *bracket = strchr (component, '[');
  guint64 n = 1;

  *name = g_strndup (component, bracket != NULL ? (gsize) (bracket - component)
                                                : strlen (component));
  if ((*name)[0] == '\0')
    goto error_empty;
  if (!is_simple_name (*name))
    goto error_name;
  if (bracket != NULL) {
    const char *p = bracket + 1;
    const char *close = strchr (p, ']');

    if (close == NULL || close[1] != '\0' || close == p)
      goto error_index;
    {
      g_autofree char *digits = g_strndup (p, close - p);

      if (!ns_parse_uint (digits, &n) || n == 0 || n > MAX_PATH_INDEX)
        goto error_index;
    }
  }
  *index = (guint) n;
  return TRUE;

/* ERRORS */
error_empty:
  set_fail (set, error, "empty element name in the path (expected names separated "
            "by single dots, e.g. measure.duration)");
  goto error_free;
error_name:
  set_fail (set, error, "'%s' is not a valid element or attribute name", *name);
  goto error_free;
error_index:
  set_fail (set, error, "bad index in '%s' (expected name[N] with N from 1 to %d)",
            component, MAX_PATH_INDEX);
error_free:
  g_clear_pointer (name, g_free);
  return FALSE;
}

/* Index of name in order (or the length of order if absent). */
static guint
order_of (const char *const *order, const xmlChar *name)
{
  guint i;

  for (i = 0; order[i] != NULL; i++)
    if (xmlStrEqual (BAD_CAST order[i], name))
      break;
  return i;
}

/* The indentation of node: what follows the last newline of the blank text before it. */
static const char *
indent_of (xmlNodePtr node)
{
  xmlNodePtr prev = node->prev;
  const char *newline;

  if (prev == NULL || prev->type != XML_TEXT_NODE || prev->content == NULL)
    return NULL;
  newline = strrchr ((const char *) prev->content, '\n');
  return newline != NULL ? newline + 1 : NULL;
}

/* Adds a "\n" + indent text node before (or after) node, to keep dumps readable. */
static void
add_indent (xmlNodePtr node, const char *indent, gboolean before)
{
  g_autofree char *text = g_strconcat ("\n", indent, NULL);
  xmlNodePtr blank = xmlNewDocText (node->doc, BAD_CAST text);

  if (before)
    xmlAddPrevSibling (node, blank);
  else
    xmlAddNextSibling (node, blank);
}

/* The last element child of parent that comes no later than child in the schema order of
 * parent's children (any element, if parent has no known order), or NULL. */
static xmlNodePtr
insertion_point (xmlNodePtr parent, xmlNodePtr child)
{
  const char *const *order = NULL;
  xmlNodePtr after = NULL;

  if (parent->parent != NULL && parent->parent->type == XML_DOCUMENT_NODE &&
      xmlStrEqual (parent->name, BAD_CAST "scenario"))
    order = scenario_order;
  else if (xmlStrEqual (parent->name, BAD_CAST "kernel"))
    order = kernel_order;
  for (xmlNodePtr n = parent->children; n != NULL; n = n->next)
    if (n->type == XML_ELEMENT_NODE &&
        (order == NULL || order_of (order, n->name) <= order_of (order, child->name)))
      after = n;
  return after;
}

/* Inserts child into parent at its schema place, indented like its siblings. */
static void
insert_in_order (xmlNodePtr parent, xmlNodePtr child)
{
  xmlNodePtr after = insertion_point (parent, child);
  xmlNodePtr first = parent->children;
  const char *indent;

  if (after != NULL) {
    xmlAddNextSibling (after, child);
    if ((indent = indent_of (after)) != NULL)
      add_indent (child, indent, TRUE);
  } else if (first != NULL && first->type == XML_TEXT_NODE && first->next != NULL) {
    xmlAddNextSibling (first, child);
    if ((indent = indent_of (child)) != NULL)
      add_indent (child, indent, FALSE);
  } else if (first == NULL) {
    g_autofree char *inner = g_strconcat (indent_of (parent) ? indent_of (parent) : "",
                                          "  ", NULL);

    xmlAddChild (parent, child);
    if (indent_of (parent) != NULL) {
      add_indent (child, inner, TRUE);
      add_indent (child, indent_of (parent), FALSE);
    }
  } else {
    xmlAddPrevSibling (first, child);
  }
}

/* Creates an element name under parent at its schema place, with the parent's line. */
static xmlNodePtr
create_element (SetContext *set, xmlNodePtr parent, const char *name)
{
  xmlNodePtr child = xmlNewDocNode (parent->doc, NULL, BAD_CAST name, NULL);

  child->line = parent->line;
  insert_in_order (parent, child);
  mark_touched (set, child);
  return child;
}

/* The index-th (1-based) child element of parent named name, created if it is the next
 * one; FALSE with an error if more than one would be missing. */
static gboolean
find_or_create (SetContext *set, xmlNodePtr parent, const char *name, guint index,
                xmlNodePtr *out, GError **error)
{
  guint seen = 0;

  for (xmlNodePtr n = parent->children; n != NULL; n = n->next) {
    if (n->type == XML_ELEMENT_NODE && xmlStrEqual (n->name, BAD_CAST name) &&
        ++seen == index) {
      *out = n;
      return TRUE;
    }
  }
  if (index > seen + 1)
    return set_fail (set, error, "cannot create %s[%u]: element %s has only %u "
                     "<%s> element%s", name, index, parent->name, seen, name,
                     seen == 1 ? "" : "s");
  *out = create_element (set, parent, name);
  return TRUE;
}

/* TRUE if the set recorded as before (its option, a blank, its text) was given by option by. */
static gboolean
set_given_by (const char *before, const char *by)
{
  gsize by_len = strlen (by);

  return strncmp (before, by, by_len) == 0 && before[by_len] == ' ';
}

/* FALSE with an error if another set of the same option (set->by) set attribute attr of
 * element already, however spelt (param[1].value and param.NAME, measure[01] and measure):
 * the last would win unseen while both were reported. A sweep's --param meets a --set as
 * the same option: every point would override the --set, which the output still names. */
static gboolean
check_set_once_per_option (const SetContext *set, xmlNodePtr element, const char *attr,
                           GError **error)
{
  xmlAttrPtr prop = ns_xml_attr (element, attr);
  const char *before = prop != NULL ? g_hash_table_lookup (set->touched, prop) : NULL;
  g_autofree char *mine = g_strdup_printf ("%s %s", set->by, set->text);
  gsize mine_len = strlen (mine);

  if (before == NULL)
    return TRUE;                        /* untouched */
  if (!strcmp (set->by, "--param") && set_given_by (before, "--set"))
    return set_fail (set, error, "sets the same attribute as %s, and every point would "
                     "override it: drop one", before);
  if (!set_given_by (before, set->by))
    return TRUE;                        /* by another option */
  if (!strncmp (before, mine, mine_len) && (before[mine_len] == '\0' || before[mine_len] == ','))
    return TRUE;                        /* this very set (its element and attribute) */
  return set_fail (set, error, "sets the same attribute as %s (the last would win): give "
                   "one", before);
}

/* Sets attribute attr of element to value and records it as touched, and the value it
 * replaced (the first set's to change it), so that an error about that value (a <compare>
 * naming a variant a set renamed) names the set too; FALSE with an error if a set of the
 * same option set it already. */
static gboolean
set_attribute (SetContext *set, xmlNodePtr element, const char *attr, const char *value,
               GError **error)
{
  char *old;
  xmlAttrPtr prop;

  if (!check_set_once_per_option (set, element, attr, error))
    return FALSE;
  old = ns_xml_prop (element, attr);
  prop = xmlSetProp (element, BAD_CAST attr, BAD_CAST value);
  if (prop != NULL)
    mark_touched (set, prop);
  if (prop != NULL && old != NULL && set->was != NULL &&
      !g_hash_table_contains (set->was, prop))
    g_hash_table_insert (set->was, prop, g_steal_pointer (&old));
  g_free (old);
  return TRUE;
}

/* The first <element> child of parent whose name attribute is name, or NULL. */
static xmlNodePtr
find_named (xmlNodePtr parent, const char *element, const char *name)
{
  for (xmlNodePtr n = parent->children; n != NULL; n = n->next) {
    g_autofree char *existing = NULL;

    if (n->type != XML_ELEMENT_NODE || !xmlStrEqual (n->name, BAD_CAST element))
      continue;
    existing = ns_xml_prop (n, "name");
    if (existing != NULL && g_str_equal (existing, name))
      return n;
  }
  return NULL;
}

/* The first <param> child of root named name, or NULL. */
static xmlNodePtr
find_param (xmlNodePtr root, const char *name)
{
  return find_named (root, "param", name);
}

/* param.NAME=VALUE: adds or replaces <param name=NAME value=VALUE source=...> (a value
 * taken from another file with from= is replaced too). */
static gboolean
apply_param (SetContext *set, xmlNodePtr root, const char *name, const char *value,
             GError **error)
{
  xmlNodePtr param;
  g_autofree char *source = NULL;

  if (name[0] == '\0' || name[strlen (name) - 1] == '.' || strstr (name, "..") != NULL ||
      strpbrk (name, " \t\r\n") != NULL)
    return set_fail (set, error, "expected param.NAME=VALUE with NAME a parameter name "
                     "such as cache.l2.latency_cycles");
  param = find_param (root, name);
  if (param == NULL) {
    param = create_element (set, root, "param");
    if (!set_attribute (set, param, "name", name, error))
      return FALSE;
  }
  if (!check_set_once_per_option (set, param, "value", error))
    return FALSE;
  xmlUnsetProp (param, BAD_CAST "from");
  /* "command line: --set", "command line: --param" (or --what-if) or "variant 'NAME' set" */
  source = set->origin ? g_strdup (set->by) : g_strdup_printf ("command line: %s", set->by);
  return set_attribute (set, param, "value", value, error) &&
         set_attribute (set, param, "source", source, error);
}

/* kernel.config.NAME=VALUE: sets the value of <kernel>'s <config name=NAME>, adding the
 * option (and <kernel>) if the scenario does not list it; the schema judges NAME and
 * VALUE. */
static gboolean
apply_config (SetContext *set, xmlNodePtr root, const char *name, const char *value,
              GError **error)
{
  xmlNodePtr kernel, config;

  if (name[0] == '\0' || strpbrk (name, ".[] \t\r\n") != NULL)
    return set_fail (set, error, "expected kernel.config.NAME=VALUE with NAME a kernel "
                     "option such as CONFIG_SLAB_FREELIST_RANDOM");
  if (!find_or_create (set, root, "kernel", 1, &kernel, error))
    return FALSE;
  config = find_named (kernel, "config", name);
  if (config == NULL) {
    config = create_element (set, kernel, "config");
    if (!set_attribute (set, config, "name", name, error))
      return FALSE;
  }
  return set_attribute (set, config, "value", value, error);
}

/* TRUE if an empty value of the attribute at path is a value, not a slip: the kernel
 * command line or base config (none, as a file without the attribute has: clears a
 * variant's). */
static gboolean
empty_value_means_something (const char *path)
{
  g_autofree char *key = ns_scenario_set_key (path);

  return !strcmp (key, "kernel.cmdline") || !strcmp (key, "kernel.base-config");
}

/* Applies one "PATH=VALUE" to doc. */
static gboolean
apply_set (SetContext *set, xmlDocPtr doc, GError **error)
{
  const char *eq = strchr (set->text, '=');
  xmlNodePtr element = xmlDocGetRootElement (doc);
  g_autofree char *path = NULL;
  g_auto (GStrv) parts = NULL;
  guint n_parts;

  if (eq == NULL)
    return set_fail (set, error, "expected PATH=VALUE (e.g. measure.duration=2ms)");
  if (eq == set->text)
    return set_fail (set, error, "empty PATH before '='");
  path = g_strndup (set->text, eq - set->text);
  if (eq[1] == '\0' && !empty_value_means_something (path))
    return set_fail (set, error, "empty value after '='");
  if (g_str_has_prefix (path, "param."))
    return apply_param (set, element, path + strlen ("param."), eq + 1, error);
  if (g_str_has_prefix (path, "kernel.config."))
    return apply_config (set, element, path + strlen ("kernel.config."), eq + 1, error);
  parts = g_strsplit (path, ".", -1);
  n_parts = g_strv_length (parts);
  for (guint i = 0; i + 1 < n_parts; i++) {
    g_autofree char *name = NULL;
    guint index;

    if (!parse_component (set, parts[i], &name, &index, error) ||
        !find_or_create (set, element, name, index, &element, error))
      return FALSE;
  }
  if (parts[n_parts - 1][0] == '\0')
    return set_fail (set, error, "empty attribute name at the end of the path");
  if (!is_simple_name (parts[n_parts - 1]))
    return set_fail (set, error, "'%s' is not a valid attribute name (the last part of "
                     "PATH names an attribute; no index allowed)", parts[n_parts - 1]);
  return set_attribute (set, element, parts[n_parts - 1], eq + 1, error);
}

/* ------------------------------------------------------------------------------------ */
/* Reading the validated document */

/* The first child element of parent named name, or NULL. */
static xmlNodePtr
child_element (xmlNodePtr parent, const char *name)
{
  for (xmlNodePtr n = parent->children; n != NULL; n = n->next)
    if (n->type == XML_ELEMENT_NODE && xmlStrEqual (n->name, BAD_CAST name))
      return n;
  return NULL;
}

/* TRUE if attribute attr of node was last set on the command line (--set, --param,
 * --what-if), not written in the scenario file or a variant's <set>. */
static gboolean
set_on_command_line (const NsScenario *sc, xmlNodePtr node, const char *attr)
{
  xmlAttrPtr prop = ns_xml_attr (node, attr);
  const char *by = prop != NULL ? g_hash_table_lookup (sc->set_by, prop) : NULL;

  return by != NULL && g_str_has_prefix (by, "--");
}

/* The file attribute attr of node names, file, unless absolute: resolved against the
 * current folder if a command-line option set it (as a shell user means it), else against
 * the scenario's folder. Newly allocated. */
static char *
resolve_relative (const NsScenario *sc, xmlNodePtr node, const char *attr, const char *file)
{
  g_autofree char *folder = NULL;

  if (g_path_is_absolute (file) || set_on_command_line (sc, node, attr))
    return g_strdup (file);
  folder = g_path_get_dirname (sc->path);
  return g_build_filename (folder, file, NULL);
}

/* Resolves the data file (a CPU profile, a kernel config package) node's attribute attr
 * names, value: a path as resolve_relative does; a shipped name stays a name. */
static char *
resolve_data_file (const NsScenario *sc, xmlNodePtr node, const char *attr, const char *value)
{
  if (!ns_data_file_is_path (value))
    return g_strdup (value);
  return resolve_relative (sc, node, attr, value);
}

/* Reads <description>, <cpu> and the root's attributes. */
static gboolean
read_header (NsScenario *sc, xmlNodePtr root, GError **error)
{
  xmlNodePtr description = child_element (root, "description");
  xmlNodePtr cpu = child_element (root, "cpu");
  g_autofree char *profile = NULL;

  if (!ns_xml_get_string (sc, root, "name", NULL, &sc->name, error) ||
      !ns_xml_get_uint (sc, root, "seed", TRUE, 1, &sc->seed, error) ||
      !ns_xml_get_string (sc, cpu, "profile", NULL, &profile, error))
    return FALSE;
  if (description != NULL) {
    xmlChar *text = xmlNodeGetContent (description);

    sc->description = g_strstrip (g_strdup ((const char *) text));
    xmlFree (text);
  } else {
    sc->description = g_strdup ("");
  }
  sc->cpu = resolve_data_file (sc, cpu, "profile", profile);
  return TRUE;
}

/* Fails if name, node's attribute attr, was already seen among the children read so far
 * (seen: name → node): at node's line (a second element), naming the sets behind both
 * attributes. */
static gboolean
check_unique (NsScenario *sc, GHashTable *seen, xmlNodePtr node, const char *attr,
              const char *what, const char *name, GError **error)
{
  xmlNodePtr first = g_hash_table_lookup (seen, name);

  if (first == NULL) {
    g_hash_table_insert (seen, (gpointer) name, node);
    return TRUE;
  }
  ns_xml_error_blame (sc, node, (NsXmlBlame) {
                        .also = { (xmlNodePtr) ns_xml_attr (first, attr),
                                  (xmlNodePtr) ns_xml_attr (node, attr) } },
                      error, "element %s: %s '%s' is given twice (first on line %d)",
                      node->name, what, name, ns_xml_line (first));
  return FALSE;
}

/* Reads <kernel>: version, cmdline, base config, config options and patches. */
static gboolean
read_kernel (NsScenario *sc, xmlNodePtr kernel, GError **error)
{
  g_autoptr (GHashTable) patches = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) configs = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *base = NULL;

  if (!ns_xml_get_string (sc, kernel, "version", NULL, &sc->kernel_version, error) ||
      !ns_xml_get_string (sc, kernel, "cmdline", "", &sc->cmdline, error) ||
      !ns_xml_get_string (sc, kernel, "base-config", "", &base, error))
    return FALSE;
  if (base[0] != '\0')
    sc->base_config = resolve_data_file (sc, kernel, "base-config", base);
  for (xmlNodePtr n = kernel->children; n != NULL; n = n->next) {
    char *name = NULL, *value = NULL;

    if (n->type != XML_ELEMENT_NODE)
      continue;
    if (!ns_xml_get_string (sc, n, "name", NULL, &name, error))
      return FALSE;
    if (xmlStrEqual (n->name, BAD_CAST "patch")) {
      g_ptr_array_add (sc->patches, name);
      if (!check_unique (sc, patches, n, "name", "patch", name, error))
        return FALSE;
      continue;
    }
    if (!check_unique (sc, configs, n, "name", "option", name, error) ||
        !ns_xml_get_string (sc, n, "value", NULL, &value, error)) {
      g_free (name);
      return FALSE;
    }
    g_hash_table_insert (sc->config, name, value);
  }
  return TRUE;
}

/* The set (if any) that gave attribute from gives to now, which takes from's value (a
 * <param from=>'s value read from the file): an error about the value names that set;
 * from, about to be removed, is forgotten (its pointer may be reused). */
static void
pass_set_on (NsScenario *sc, xmlAttrPtr from, xmlAttrPtr to)
{
  const char *by;

  if (sc->set_by == NULL || from == NULL)
    return;
  by = g_hash_table_lookup (sc->set_by, from);
  if (by != NULL && to != NULL)
    g_hash_table_replace (sc->set_by, to, g_strdup (by));
  g_hash_table_remove (sc->set_by, from);
  if (sc->set_was != NULL)
    g_hash_table_remove (sc->set_was, from);
}

/* Gives attribute to, which from's value made, from's line (none if a set wrote from):
 * an error about the value is then at the from= that gave it. */
static void
take_line (xmlAttrPtr to, xmlAttrPtr from)
{
  if (to != NULL && from != NULL && to->children != NULL && from->children != NULL)
    to->children->line = from->children->line;
}

/* Gives <param name=NAME from=FILE> the value and source of FILE's own <param> NAME
 * (FILE: a valid scenario, relative to this one; its param must carry the value, not
 * another from=), noting FILE in the source; *home: FILE's path. No from=: *home is the
 * scenario's own path. */
static gboolean
resolve_param_from (NsScenario *sc, xmlNodePtr param, const char *name, char **home,
                    GError **error)
{
  g_autofree char *from = ns_xml_prop (param, "from"), *schema = NULL, *value = NULL;
  g_autofree char *source = NULL, *noted = NULL, *resolved = NULL;
  g_autoptr (GError) inner = NULL;
  xmlNodePtr declared;
  xmlDocPtr doc;

  if (from == NULL) {
    *home = g_strdup (sc->path);
    return TRUE;
  }
  resolved = resolve_relative (sc, param, "from", from);
  *home = g_canonicalize_filename (resolved, NULL);
  if (g_file_test (*home, G_FILE_TEST_EXISTS) && !g_file_test (*home, G_FILE_TEST_IS_REGULAR))
    goto not_regular;
  schema = ns_xml_schema_path ("scenario.rng");
  doc = ns_xml_load (*home, schema, &inner);
  if (doc == NULL)
    goto bad_file;
  declared = find_param (xmlDocGetRootElement (doc), name);
  value = ns_xml_prop (declared, "value");
  if (value == NULL)
    goto no_value;
  source = ns_xml_prop (declared, "source");
  noted = g_strdup_printf ("%s (declared in %s)", source, from);
  take_line (xmlSetProp (param, BAD_CAST "value", BAD_CAST value), ns_xml_attr (param, "from"));
  take_line (xmlSetProp (param, BAD_CAST "source", BAD_CAST noted), ns_xml_attr (param, "from"));
  pass_set_on (sc, ns_xml_attr (param, "from"), ns_xml_attr (param, "value"));
  xmlUnsetProp (param, BAD_CAST "from");
  xmlFreeDoc (doc);
  return TRUE;

/* ERRORS */
not_regular:
  ns_xml_error_attr (sc, param, "from", error, "element param: attribute 'from': %s is not a "
                     "regular file", from);
  return FALSE;
bad_file:
  ns_xml_error_attr (sc, param, "from", error, "element param: attribute 'from': %s",
                     inner->message);
  return FALSE;
no_value:
  ns_xml_error_blame (sc, param, (NsXmlBlame) { .attrs = { "from", "name" } }, error,
                      "element param: attribute 'from': %s %s "
                     "parameter '%s' (from= must name the scenario that declares the value "
                     "itself)", from, declared == NULL ? "declares no"
                                                       : "takes from another file its", name);
  xmlFreeDoc (doc);
  return FALSE;
}

/* Reads every <param name value source> (or <param name from>) of the root. */
static gboolean
read_params (NsScenario *sc, xmlNodePtr root, GError **error)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (xmlNodePtr n = root->children; n != NULL; n = n->next) {
    char *name = NULL, *value = NULL, *source = NULL, *home = NULL;

    if (n->type != XML_ELEMENT_NODE || !xmlStrEqual (n->name, BAD_CAST "param"))
      continue;
    if (!ns_xml_get_string (sc, n, "name", NULL, &name, error))
      return FALSE;
    g_ptr_array_add (sc->param_names, name);
    if (!check_unique (sc, seen, n, "name", "parameter", name, error))
      return FALSE;
    if (!resolve_param_from (sc, n, name, &home, error)) {
      g_free (home);
      return FALSE;
    }
    g_ptr_array_add (sc->param_homes, home);
    if (!ns_xml_get_string (sc, n, "value", NULL, &value, error))
      return FALSE;
    g_ptr_array_add (sc->param_values, value);
    if (!ns_xml_get_string (sc, n, "source", NULL, &source, error))
      return FALSE;
    g_ptr_array_add (sc->param_sources, source);
  }
  return TRUE;
}

/* Reads a time attribute of measure that must be positive. */
static gboolean
get_positive_time (NsScenario *sc, xmlNodePtr measure, const char *attr, NsTime def,
                   NsTime *out, GError **error)
{
  g_autofree char *text = NULL, *shown = NULL;

  if (!ns_xml_get_time (sc, measure, attr, TRUE, def, out, error))
    return FALSE;
  if (*out > 0)
    return TRUE;
  text = ns_xml_prop (measure, attr);
  shown = g_strescape (text != NULL ? text : "0", NULL);
  ns_xml_error_attr (sc, measure, attr, error, "element measure: attribute '%s': expected a "
                     "time > 0, got '%s'", attr, shown);
  return FALSE;
}

/* FALSE with a file:line error if measure/@confidence, parsed, is not strictly between 0
 * and 1: the schema judges the decimal text, and one such as 0.99999999999999999 rounds
 * to 1.0 (an infinite t quantile). */
static gboolean
check_confidence (NsScenario *sc, xmlNodePtr measure, GError **error)
{
  g_autofree char *text = NULL, *shown = NULL;

  if (sc->measure.confidence > 0 && sc->measure.confidence < 1)
    return TRUE;
  text = ns_xml_prop (measure, "confidence");
  shown = g_strescape (text != NULL ? text : "", NULL);
  ns_xml_error_attr (sc, measure, "confidence", error, "element measure: attribute "
                     "'confidence': expected a decimal number between 0 and 1 (exclusive), got "
                     "'%s', which is %g as a double", shown, sc->measure.confidence);
  return FALSE;
}

/* A time in the largest unit that shows it exactly ("100us"); newly allocated. */
static char *
format_time (NsTime t)
{
  static const struct { const char *unit; NsTime ps; } units[] = {
    { "s", NS_SEC (1) }, { "ms", NS_MS (1) }, { "us", NS_US (1) }, { "ns", NS_NS (1) },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (units); i++)
    if (t != 0 && t % units[i].ps == 0)
      return g_strdup_printf ("%" G_GINT64_FORMAT "%s", t / units[i].ps, units[i].unit);
  return g_strdup_printf ("%" G_GINT64_FORMAT "ps", t);
}

/* FALSE with a file:line error naming the attributes if the run measure describes would
 * end past NS_TIME_FOREVER: warmup + duration, or warmup + max-duration under the
 * convergence rule (which stops before a batch that would pass max-duration). */
static gboolean
check_measure_end (NsScenario *sc, xmlNodePtr measure, GError **error)
{
  const NsMeasure *m = &sc->measure;
  const char *attr = m->converge > 0 ? "max-duration" : "duration";
  NsTime length = m->converge > 0 ? m->max_duration : m->duration;

  if (length <= NS_TIME_FOREVER - m->warmup)
    return TRUE;
  {
    g_autofree char *warmup = format_time (m->warmup);
    g_autofree char *shown = format_time (length);

    ns_xml_error_blame (sc, measure, (NsXmlBlame) { .attrs = { "warmup", attr } }, error,
                        "element measure: attribute 'warmup' (%s) + attribute '%s' (%s) end "
                        "past the longest simulated time, 2^63-1 ps (about 106 days)", warmup,
                        attr, shown);
    return FALSE;
  }
}

/* FALSE with a file:line error if the convergence rule is on and max-duration holds not
 * even one batch. */
static gboolean
check_measure_cap (NsScenario *sc, xmlNodePtr measure, GError **error)
{
  const NsMeasure *m = &sc->measure;

  if (m->converge <= 0 || m->max_duration >= m->batch)
    return TRUE;
  {
    g_autofree char *cap = format_time (m->max_duration);
    g_autofree char *batch = format_time (m->batch);

    ns_xml_error_blame (sc, measure, (NsXmlBlame) { .attrs = { "max-duration", "batch" } },
                        error, "element measure: attribute 'max-duration' (%s) is shorter than "
                        "one batch, attribute 'batch' (%s)", cap, batch);
    return FALSE;
  }
}

/* FALSE with a file:line error if the element gives an attribute only the convergence
 * rule reads (batch, confidence, max-duration, min-batches) while that rule is off: the
 * run would ignore it (the fixed rule measures one duration). When a set turned the rule
 * off (converge 0 by a set, over the file's), the file's own such attributes are its
 * convergence settings, left unused, and only those a set gave are refused (a set cannot
 * remove an attribute). */
static gboolean
check_measure_rule_attrs (NsScenario *sc, xmlNodePtr measure, GError **error)
{
  static const char *const convergence_only[] = { "batch", "confidence", "max-duration",
                                                  "min-batches" };
  xmlAttrPtr converge = xmlHasProp (measure, BAD_CAST "converge");
  gboolean switched_off = converge != NULL && sc->set_by != NULL &&
                          g_hash_table_contains (sc->set_by, converge);
  NsXmlBlame blame = { { NULL }, { NULL } };
  g_autoptr (GString) given = g_string_new (NULL);
  guint n = 0;

  if (sc->measure.converge > 0)
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (convergence_only); i++) {
    xmlAttrPtr attr = xmlHasProp (measure, BAD_CAST convergence_only[i]);
    if (attr == NULL || (switched_off && !g_hash_table_contains (sc->set_by, attr)))
      continue;
    blame.attrs[n++] = convergence_only[i];
    g_string_append_printf (given, "%s'%s'", given->len > 0 ? ", " : "", convergence_only[i]);
  }
  if (n == 0)
    return TRUE;
  if (switched_off)
    blame.also[0] = (xmlNodePtr) converge;
  ns_xml_error_blame (sc, measure, blame, error, "element measure: %s %s: only the "
                      "convergence rule reads %s, and 'converge' is 0 (the fixed rule "
                      "measures one 'duration'): set converge > 0, or remove %s",
                      n > 1 ? "attributes" : "attribute", given->str, n > 1 ? "them" : "it",
                      n > 1 ? "them" : "it");
  return FALSE;
}

/* The default max-duration: 100 x duration, at most what ends the run by NS_TIME_FOREVER
 * (at least 1 ps: check_measure_end refuses that if it does not fit either). */
static NsTime
default_max_duration (const NsMeasure *m)
{
  NsTime room = NS_TIME_FOREVER - m->warmup;
  NsTime hundred = m->duration > NS_TIME_FOREVER / 100 ? NS_TIME_FOREVER : m->duration * 100;

  return MAX (MIN (hundred, room), 1);
}

/* Reads <measure>, filling in defaults. */
static gboolean
read_measure (NsScenario *sc, xmlNodePtr measure, GError **error)
{
  NsMeasure *m = &sc->measure;
  g_autofree char *aggregate = NULL;
  guint64 repetitions, min_batches;

  if (!ns_xml_get_string (sc, measure, "metric", NULL, &m->metric, error) ||
      !ns_xml_get_time (sc, measure, "warmup", TRUE, 0, &m->warmup, error) ||
      !get_positive_time (sc, measure, "duration", NS_MS (1), &m->duration, error) ||
      !ns_xml_get_uint (sc, measure, "repetitions", TRUE, 1, &repetitions, error) ||
      !ns_xml_get_string (sc, measure, "aggregate", "mean", &aggregate, error) ||
      !ns_xml_get_double (sc, measure, "converge", TRUE, 0.0, &m->converge, error) ||
      !ns_xml_get_double (sc, measure, "confidence", TRUE, 0.95, &m->confidence, error) ||
      !get_positive_time (sc, measure, "batch", MAX (m->duration / 10, 1), &m->batch, error) ||
      !get_positive_time (sc, measure, "max-duration", default_max_duration (m),
                          &m->max_duration, error) ||
      !ns_xml_get_uint (sc, measure, "min-batches", TRUE, 5, &min_batches, error))
    return FALSE;
  if (repetitions == 0 || repetitions > NS_MAX_REPETITIONS)
    goto error_repetitions;
  if (min_batches > G_MAXUINT)
    goto error_min_batches;
  if (!check_confidence (sc, measure, error) || !check_measure_rule_attrs (sc, measure, error) ||
      !check_measure_end (sc, measure, error) || !check_measure_cap (sc, measure, error))
    return FALSE;
  m->repetitions = (guint) repetitions;
  m->min_batches = (guint) min_batches;
  m->aggregate = g_str_equal (aggregate, "harmonic") ? NS_AGG_HARMONIC : NS_AGG_MEAN;
  return TRUE;

/* ERRORS */
error_repetitions:
  ns_xml_error_attr (sc, measure, "repetitions", error, "element measure: attribute "
                     "'repetitions': expected 1 to %d, got %" G_GUINT64_FORMAT,
                     NS_MAX_REPETITIONS, repetitions);
  return FALSE;
error_min_batches:
  ns_xml_error_attr (sc, measure, "min-batches", error, "element measure: attribute "
                     "'min-batches': expected at most %u, got %" G_GUINT64_FORMAT, G_MAXUINT,
                     min_batches);
  return FALSE;
}

/* Fails if the path of <set> n names an attribute an earlier <set> of its variant names
 * (seen: set key → that <set>; see ns_scenario_set_key): at n's line, naming the first's,
 * as the command line refuses two --set of one attribute. */
static gboolean
check_set_once (const NsScenario *sc, GHashTable *seen, xmlNodePtr n, const char *path,
                GError **error)
{
  char *key = ns_scenario_set_key (path);
  xmlNodePtr first = g_hash_table_lookup (seen, key);

  if (first == NULL) {
    g_hash_table_insert (seen, key, n);
    return TRUE;
  }
  g_free (key);
  ns_xml_error_blame (sc, n, (NsXmlBlame) {
                        .attrs = { "path" }, .also = { (xmlNodePtr) ns_xml_attr (first, "path") } },
                      error, "element set: attribute 'path': '%s' sets the same attribute as "
                      "the set on line %d (the last would win): give one", path,
                      ns_xml_attr_line (first, "path"));
  return FALSE;
}

/* Applies the <set> children of variant to doc, recording touched nodes as set by by (and
 * naming in errors the command-line sets touched records for the <set>s); a variant's
 * seed is refused (its runs would still use the run's), and so are two <set>s of one
 * attribute (the last would win). */
static gboolean
apply_set_elements (xmlNodePtr variant, xmlDocPtr doc, GHashTable *touched, GHashTable *was,
                    const char *by, GError **error)
{
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  NsScenario view = { .set_by = touched };
  const NsScenario *sc = &view;

  for (xmlNodePtr n = variant->children; n != NULL; n = n->next) {
    g_autofree char *path = NULL, *value = NULL, *text = NULL;
    SetContext set = { NULL, touched, n, by, was, NULL };

    if (n->type != XML_ELEMENT_NODE)
      continue;
    if (!ns_xml_get_string (sc, n, "path", NULL, &path, error) ||
        !ns_xml_get_string (sc, n, "value", NULL, &value, error))
      return FALSE;
    if (strcmp (path, "seed") == 0) {
      ns_xml_error_attr (sc, n, "path", error, "element set: a variant cannot set the seed: "
                         "every variant of a run uses the run's (common random numbers "
                         "between the variants it compares); set it for all with the root's "
                         "seed, --seed or --set seed=N");
      return FALSE;
    }
    if (!check_set_once (sc, seen, n, path, error))
      return FALSE;
    text = g_strdup_printf ("%s=%s", path, value);
    set.text = text;
    if (!apply_set (&set, doc, error))
      return FALSE;
  }
  return TRUE;
}

/* Records in into, for each element and attribute below orig that set_by names, the same
 * entry for its counterpart below copy (a copy of orig's tree); *found: copy's counterpart
 * of wanted, if met. */
static void
copy_touched (xmlNodePtr orig, xmlNodePtr copy, GHashTable *set_by, GHashTable *into,
              xmlNodePtr wanted, xmlNodePtr *found)
{
  for (; orig != NULL && copy != NULL; orig = orig->next, copy = copy->next) {
    const char *set = g_hash_table_lookup (set_by, orig);
    xmlAttrPtr a = orig->type == XML_ELEMENT_NODE ? orig->properties : NULL;
    xmlAttrPtr b = copy->type == XML_ELEMENT_NODE ? copy->properties : NULL;

    if (orig == wanted)
      *found = copy;
    if (set != NULL)
      g_hash_table_insert (into, copy, g_strdup (set));
    for (; a != NULL && b != NULL; a = a->next, b = b->next)
      if ((set = g_hash_table_lookup (set_by, a)) != NULL)
        g_hash_table_insert (into, b, g_strdup (set));
    if (orig->type == XML_ELEMENT_NODE)
      copy_touched (orig->children, copy->children, set_by, into, wanted, found);
  }
}

/* The counterpart in copy (a copy of variant's document) of variant, with the sets set_by
 * records for variant's document recorded for copy's nodes in into. */
static xmlNodePtr
variant_copy (xmlNodePtr variant, xmlDocPtr copy, GHashTable *set_by, GHashTable *into)
{
  xmlNodePtr found = NULL;

  copy_touched (xmlDocGetRootElement (variant->doc), xmlDocGetRootElement (copy), set_by,
                into, variant, &found);
  return found;
}

/* A scenario's document without its <variants> and <comparisons>, which a variant's
 * <set>s are checked on (a copy of it each), with the sets that made its nodes. */
typedef struct {
  xmlDocPtr   doc;
  GHashTable *set_by;   /* xmlNodePtr of doc → who set it (as NsScenario's set_by) */
} Skeleton;

/* Calls fn (node, data) for node and each element and attribute below it. */
static void
foreach_in_subtree (xmlNodePtr node, void (*fn) (gpointer node, gpointer data), gpointer data)
{
  fn (node, data);
  if (node->type != XML_ELEMENT_NODE)
    return;
  for (xmlAttrPtr a = node->properties; a != NULL; a = a->next)
    fn (a, data);
  for (xmlNodePtr c = node->children; c != NULL; c = c->next)
    foreach_in_subtree (c, fn, data);
}

/* foreach_in_subtree's fn: removes node's entry from the set_by table data. */
static void
forget_touched (gpointer node, gpointer set_by)
{
  g_hash_table_remove (set_by, node);
}

/* TRUE if n is one of the root's elements a variant's <set>s do not edit in a skeleton. */
static gboolean
is_variant_part (xmlNodePtr n)
{
  return n->type == XML_ELEMENT_NODE && (xmlStrEqual (n->name, BAD_CAST "variants") ||
                                         xmlStrEqual (n->name, BAD_CAST "comparisons"));
}

/* Fills skel from sc's document: one copy per load, so that checking each variant copies
 * the rest of the document only, not every other variant too (quadratic in variants). */
static void
skeleton_init (Skeleton *skel, const NsScenario *sc)
{
  xmlNodePtr root, next, unused = NULL;

  skel->doc = ns_xml_copy_doc (sc->doc);
  skel->set_by = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  root = xmlDocGetRootElement (skel->doc);
  copy_touched (xmlDocGetRootElement (sc->doc), root, sc->set_by, skel->set_by, NULL,
                &unused);
  for (xmlNodePtr n = root->children; n != NULL; n = next) {
    next = n->next;
    if (!is_variant_part (n))
      continue;
    foreach_in_subtree (n, forget_touched, skel->set_by);
    xmlUnlinkNode (n);
    xmlFreeNode (n);
  }
}

/* Frees what skeleton_init made. */
static void
skeleton_clear (Skeleton *skel)
{
  xmlFreeDoc (skel->doc);
  g_hash_table_unref (skel->set_by);
}

/* TRUE if a <set> of variant edits <variants> or <comparisons>: checked on a whole copy. */
static gboolean
sets_edit_variant_parts (xmlNodePtr variant)
{
  static const char *const parts[] = { "variants", "comparisons" };

  for (xmlNodePtr n = variant->children; n != NULL; n = n->next) {
    g_autofree char *path = n->type == XML_ELEMENT_NODE ? ns_xml_prop (n, "path") : NULL;
    for (gsize i = 0; path != NULL && i < G_N_ELEMENTS (parts); i++) {
      gsize len = strlen (parts[i]);
      if (!strncmp (path, parts[i], len) && (path[len] == '.' || path[len] == '['))
        return TRUE;
    }
  }
  return FALSE;
}

/* Where keep_touched copies entries from and to. */
typedef struct {
  GHashTable *from, *into;
} TouchedCopy;

/* foreach_in_subtree's fn: copies node's entry (if any) of the TouchedCopy data. */
static void
keep_touched (gpointer node, gpointer data)
{
  const TouchedCopy *copy = data;
  const char *set = g_hash_table_lookup (copy->from, node);

  if (set != NULL)
    g_hash_table_insert (copy->into, node, g_strdup (set));
}

/* Applies the <set>s of variant to a copy of sc's document (of skel's, unless they edit
 * the variants): catches bad paths early, with the line of the <set> (and the
 * command-line sets that edited it). The result is validated when the variant is loaded
 * to run. */
static gboolean
check_variant_sets (NsScenario *sc, const Skeleton *skel, xmlNodePtr variant, GError **error)
{
  g_autoptr (GHashTable) touched = g_hash_table_new_full (g_direct_hash, g_direct_equal,
                                                          NULL, g_free);
  xmlDocPtr copy;
  xmlNodePtr unused = NULL;
  gboolean ok;

  if (sets_edit_variant_parts (variant)) {
    copy = ns_xml_copy_doc (sc->doc);
    variant = variant_copy (variant, copy, sc->set_by, touched);
  }
  else {
    copy = ns_xml_copy_doc (skel->doc);
    copy_touched (xmlDocGetRootElement (skel->doc), xmlDocGetRootElement (copy),
                  skel->set_by, touched, NULL, &unused);
    foreach_in_subtree (variant, keep_touched, &(TouchedCopy) { sc->set_by, touched });
  }
  ok = apply_set_elements (variant, copy, touched, NULL, "variant set", error);
  xmlFreeDoc (copy);
  return ok;
}

/* The name attribute of element n if a set replaced its value, which *was then holds;
 * else NULL. */
static xmlAttrPtr
renamed (const NsScenario *sc, xmlNodePtr n, const char **was)
{
  xmlAttrPtr a = ns_xml_attr (n, "name");

  *was = a != NULL && sc->set_was != NULL ? g_hash_table_lookup (sc->set_was, a) : NULL;
  return *was != NULL ? a : NULL;
}

/* The name attribute of the <variant> of sc whose name a set replaced, name being the
 * value replaced, or NULL: why a <compare> naming name names no variant. */
static xmlNodePtr
renamed_variant (const NsScenario *sc, const char *name)
{
  xmlNodePtr variants = child_element (xmlDocGetRootElement (sc->doc), "variants");
  const char *was;

  for (xmlNodePtr v = variants ? variants->children : NULL; v != NULL; v = v->next) {
    xmlAttrPtr a = renamed (sc, v, &was);
    if (a != NULL && g_str_equal (was, name))
      return (xmlNodePtr) a;
  }
  return NULL;
}

/* Checks one <compare>: a label no earlier compare has (labels: label → node), and two
 * different variants of names as its baseline and patched. */
static gboolean
check_compare (NsScenario *sc, xmlNodePtr c, GHashTable *names, GHashTable *labels,
               GError **error)
{
  static const char *const ends[] = { "baseline", "patched" };
  char *ends_named[2] = { NULL, NULL };
  char *label = NULL;

  if (!ns_xml_get_string (sc, c, "label", NULL, &label, error))
    return FALSE;
  if (!check_unique (sc, labels, c, "label", "label", label, error)) {
    g_free (label);
    return FALSE;
  }
  for (gsize i = 0; i < G_N_ELEMENTS (ends); i++) {
    if (!ns_xml_get_string (sc, c, ends[i], NULL, &ends_named[i], error))
      goto fail;
    if (!g_hash_table_contains (names, ends_named[i]))
      goto no_variant;
  }
  if (!strcmp (ends_named[0], ends_named[1]))
    goto same_variant;
  g_free (ends_named[0]);
  g_free (ends_named[1]);
  return TRUE;

/* ERRORS */
no_variant:
  for (gsize i = 0; i < G_N_ELEMENTS (ends); i++)
    if (ends_named[i] != NULL && !g_hash_table_contains (names, ends_named[i])) {
      ns_xml_error_blame (sc, c, (NsXmlBlame) {
                            .attrs = { ends[i] }, .also = { renamed_variant (sc, ends_named[i]) } },
                          error, "element compare: attribute '%s': no variant named '%s'",
                          ends[i], ends_named[i]);
      break;
    }
  goto fail;
same_variant:
  ns_xml_error_blame (sc, c, (NsXmlBlame) { .attrs = { "patched", "baseline" } }, error,
                      "element compare: attribute 'patched': the same variant as 'baseline' "
                      "('%s'); a comparison needs two", ends_named[1]);
fail:
  g_free (ends_named[0]);
  g_free (ends_named[1]);
  return FALSE;
}

/* Checks <variants> (unique names, applicable sets) and that every <compare> has its own
 * label and names two of them. */
static gboolean
check_variants (NsScenario *sc, xmlNodePtr root, GError **error)
{
  g_autoptr (GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) labels = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  xmlNodePtr variants = child_element (root, "variants");
  xmlNodePtr comparisons = child_element (root, "comparisons");
  Skeleton skel;
  gboolean ok = TRUE;

  skeleton_init (&skel, sc);
  for (xmlNodePtr v = variants ? variants->children : NULL; ok && v != NULL; v = v->next) {
    char *name = NULL;

    if (v->type != XML_ELEMENT_NODE)
      continue;
    ok = ns_xml_get_string (sc, v, "name", NULL, &name, error);
    if (ok && !(ok = check_unique (sc, names, v, "name", "variant", name, error)))
      g_free (name);
    ok = ok && check_variant_sets (sc, &skel, v, error);
  }
  skeleton_clear (&skel);
  if (!ok)
    return FALSE;
  for (xmlNodePtr c = comparisons ? comparisons->children : NULL; c != NULL; c = c->next)
    if (c->type == XML_ELEMENT_NODE && !check_compare (sc, c, names, labels, error))
      return FALSE;
  return TRUE;
}

/* Fills sc from its validated document. */
static gboolean
read_scenario (NsScenario *sc, GError **error)
{
  xmlNodePtr root = xmlDocGetRootElement (sc->doc);

  sc->workload = child_element (root, "workload");
  return read_header (sc, root, error) &&
         read_kernel (sc, child_element (root, "kernel"), error) &&
         read_params (sc, root, error) &&
         ns_xml_get_string (sc, sc->workload, "type", NULL, &sc->workload_type, error) &&
         read_measure (sc, child_element (root, "measure"), error) &&
         check_variants (sc, root, error);
}

/* An empty scenario for path owning doc. */
static NsScenario *
scenario_new (const char *path, xmlDocPtr doc, GHashTable *touched, GHashTable *was)
{
  NsScenario *sc = g_new0 (NsScenario, 1);

  sc->set_by = g_hash_table_ref (touched);
  sc->set_was = g_hash_table_ref (was);

  sc->path = g_strdup (path);
  sc->doc = doc;
  sc->patches = g_ptr_array_new_with_free_func (g_free);
  sc->config = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  sc->param_names = g_ptr_array_new_with_free_func (g_free);
  sc->param_values = g_ptr_array_new_with_free_func (g_free);
  sc->param_sources = g_ptr_array_new_with_free_func (g_free);
  sc->param_homes = g_ptr_array_new_with_free_func (g_free);
  return sc;
}

/* TRUE if the PATH of "PATH=VALUE" names something inside <variants>. */
static gboolean
edits_variants (const char *text)
{
  return g_str_has_prefix (text, "variants.") || g_str_has_prefix (text, "variants[");
}

/* Drops the leading zeros of each index "[0…N]" of key (as parse_component reads it). */
static void
strip_index_zeros (GString *key)
{
  for (char *p = key->str; (p = strchr (p, '[')) != NULL; p++)
    while (p[1] == '0' && g_ascii_isdigit (p[2]))
      g_string_erase (key, p + 1 - key->str, 1);
}

/* The attribute a set path names, as a key two spellings share; see scenario.h. */
char *
ns_scenario_set_key (const char *path)
{
  const char *end = strchr (path, '=');
  GString *key = g_string_new_len (path, end ? end - path : (gssize) strlen (path));

  if (g_str_has_prefix (key->str, "param.") || g_str_has_prefix (key->str, "kernel.config."))
    return g_string_free (key, FALSE);
  strip_index_zeros (key);
  for (char *p; (p = strstr (key->str, "[1]")) != NULL && (p[3] == '.' || p[3] == '\0');)
    g_string_erase (key, p - key->str, 3);
  return g_string_free (key, FALSE);
}

/* Applies the PATH=VALUE of sets (given by the option by: "--set" or "--param") that edit
 * <variants> (variants TRUE) or those that do not (FALSE) to doc, recording touched
 * nodes, and in replaced (may be NULL) each variant's own set one of them overrode. */
static gboolean
apply_sets (xmlDocPtr doc, const char *const *sets, gboolean variants, const char *by,
            GHashTable *touched, GHashTable *was, GPtrArray *replaced, GError **error)
{
  for (gsize i = 0; sets != NULL && sets[i] != NULL; i++) {
    SetContext set = { sets[i], touched, NULL, by, was, replaced };

    if (edits_variants (sets[i]) == variants && !apply_set (&set, doc, error))
      return FALSE;
  }
  return TRUE;
}

/* The <variant> element named variant in doc's <variants>, or NULL; see scenario.h. */
xmlNodePtr
ns_scenario_variant_node (xmlDocPtr doc, const char *variant)
{
  xmlNodePtr variants;

  g_return_val_if_fail (doc != NULL && variant != NULL, NULL);

  variants = child_element (xmlDocGetRootElement (doc), "variants");
  for (xmlNodePtr v = variants ? variants->children : NULL; v != NULL; v = v->next) {
    g_autofree char *name = ns_xml_prop (v, "name");
    if (v->type == XML_ELEMENT_NODE && g_strcmp0 (name, variant) == 0)
      return v;
  }
  return NULL;
}

/* The names of doc's variants, quoted and comma-separated, in file order ("" if none). */
static char *
variant_list (xmlDocPtr doc)
{
  xmlNodePtr variants = child_element (xmlDocGetRootElement (doc), "variants");
  GString *list = g_string_new (NULL);

  for (xmlNodePtr v = variants ? variants->children : NULL; v != NULL; v = v->next) {
    g_autofree char *name = v->type == XML_ELEMENT_NODE ? ns_xml_prop (v, "name") : NULL;
    if (name != NULL)
      g_string_append_printf (list, "%s'%s'", list->len ? ", " : "", name);
  }
  return g_string_free (list, FALSE);
}

/* Applies the <set>s of the variant named variant (NULL or "": none) to doc, recording
 * touched nodes. */
static gboolean
apply_variant_sets (xmlDocPtr doc, const char *variant, GHashTable *touched, GHashTable *was,
                    GError **error)
{
  g_autofree char *by = g_strdup_printf ("variant '%s' set", variant ? variant : "");
  g_autofree char *list = NULL;
  xmlNodePtr v;

  if (variant == NULL || variant[0] == '\0')
    return TRUE;
  if ((v = ns_scenario_variant_node (doc, variant)) != NULL)
    return apply_set_elements (v, doc, touched, was, by, error);
  list = variant_list (doc);
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s: no variant named '%s' (variants: %s)",
               (const char *) doc->URL, variant, list[0] ? list : "none");
  return FALSE;
}

/* Validates doc against scenario.rng, naming the sets behind the node at fault (an
 * element as a whole, or an attribute). */
static gboolean
validate (xmlDocPtr doc, const char *path, GHashTable *touched, GError **error)
{
  g_autofree char *schema = ns_xml_schema_path ("scenario.rng");
  NsScenario view = { .set_by = touched };
  xmlNodePtr bad = NULL;
  GString *message;

  if (ns_xml_validate_full (doc, schema, path, &bad, error))
    return TRUE;
  if (error == NULL || *error == NULL)
    return FALSE;
  message = g_string_new ((*error)->message);
  append_sets (message, &view, bad, TRUE, &no_blame);
  g_free ((*error)->message);
  (*error)->message = g_string_free (message, FALSE);
  return FALSE;
}

/* Loads and validates path with sets applied (no variant); NULL with a file:line error. */
NsScenario *
ns_scenario_load (const char *path, const char *const *sets, GError **error)
{
  return ns_scenario_load_variant (path, NULL, sets, NULL, NULL, error);
}

/* Loads path, applies the sets and params that edit <variants>, then the variant's <set>s,
 * then the other sets, then the other params, validates and reads it; a newly allocated
 * scenario, or NULL with a file:line error. */
NsScenario *
ns_scenario_load_variant (const char *path, const char *variant, const char *const *sets,
                          const char *const *params, const char *params_by, GError **error)
{
  g_autoptr (GHashTable) touched = g_hash_table_new_full (g_direct_hash, g_direct_equal,
                                                          NULL, g_free);
  g_autoptr (GHashTable) was = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL,
                                                      g_free);
  g_autoptr (GPtrArray) replaced = g_ptr_array_new_with_free_func (g_free);
  NsScenario *sc = NULL;
  xmlDocPtr doc;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  doc = ns_xml_parse_file (path, error);
  if (doc == NULL)
    return NULL;
  if (params_by == NULL)
    params_by = "--param";
  if (!apply_sets (doc, sets, TRUE, "--set", touched, was, NULL, error) ||
      !apply_sets (doc, params, TRUE, params_by, touched, was, NULL, error) ||
      !apply_variant_sets (doc, variant, touched, was, error) ||
      !apply_sets (doc, sets, FALSE, "--set", touched, was, replaced, error) ||
      !apply_sets (doc, params, FALSE, params_by, touched, was, NULL, error) ||
      !validate (doc, path, touched, error))
    goto error_doc;
  sc = scenario_new (path, doc, touched, was);
  g_ptr_array_add (replaced, NULL);
  sc->replaced = (char **) g_ptr_array_free (g_steal_pointer (&replaced), FALSE);
  if (!read_scenario (sc, error))
    goto error_scenario;
  return sc;

/* ERRORS */
error_doc:
  xmlFreeDoc (doc);
  return NULL;
error_scenario:
  ns_scenario_free (sc);
  return NULL;
}

/* Adds the files scenario's <param from=…> read; see scenario.h. */
void
ns_scenario_add_param_files (const NsScenario *scenario, GPtrArray *files)
{
  g_return_if_fail (scenario != NULL && files != NULL);
  for (guint i = 0; i < scenario->param_homes->len; i++) {
    const char *home = scenario->param_homes->pdata[i];
    if (strcmp (home, scenario->path) != 0 &&
        !g_ptr_array_find_with_equal_func (files, home, g_str_equal, NULL))
      g_ptr_array_add (files, g_strdup (home));
  }
}

/* Frees scenario with its document and everything it owns (NULL is fine). */
void
ns_scenario_free (NsScenario *scenario)
{
  if (scenario == NULL)
    return;
  g_free (scenario->name);
  g_free (scenario->description);
  g_free (scenario->path);
  if (scenario->doc != NULL)
    xmlFreeDoc (scenario->doc);
  g_free (scenario->cpu);
  g_free (scenario->kernel_version);
  g_free (scenario->cmdline);
  g_free (scenario->base_config);
  g_ptr_array_unref (scenario->patches);
  g_hash_table_unref (scenario->config);
  g_ptr_array_unref (scenario->param_names);
  g_ptr_array_unref (scenario->param_values);
  g_ptr_array_unref (scenario->param_sources);
  g_ptr_array_unref (scenario->param_homes);
  g_free (scenario->workload_type);
  g_free (scenario->measure.metric);
  g_clear_pointer (&scenario->set_by, g_hash_table_unref);
  g_clear_pointer (&scenario->set_was, g_hash_table_unref);
  g_strfreev (scenario->replaced);
  g_free (scenario);
}

/* The entry of column (param_values, param_homes, …) for the <param> named name, or NULL. */
static const char *
param_entry (const NsScenario *scenario, const GPtrArray *column, const char *name)
{
  for (guint i = 0; i < scenario->param_names->len; i++)
    if (!strcmp (scenario->param_names->pdata[i], name))
      return column->pdata[i];
  return NULL;
}

/* The value of a <param> the scenario sets; see scenario.h. */
const char *
ns_scenario_param_value (const NsScenario *scenario, const char *name)
{
  g_return_val_if_fail (scenario != NULL && name != NULL, NULL);
  return param_entry (scenario, scenario->param_values, name);
}

/* The file that declares the value of a <param> the scenario sets; see scenario.h. */
const char *
ns_scenario_param_home (const NsScenario *scenario, const char *name)
{
  g_return_val_if_fail (scenario != NULL && name != NULL, NULL);
  return param_entry (scenario, scenario->param_homes, name);
}

/* The <element> child of the scenario's <kernel> named name, or NULL; see scenario.h. */
xmlNodePtr
ns_scenario_kernel_option (const NsScenario *scenario, const char *element, const char *name)
{
  xmlNodePtr kernel;

  g_return_val_if_fail (scenario != NULL && element != NULL && name != NULL, NULL);
  kernel = ns_xml_child (xmlDocGetRootElement (scenario->doc), "kernel");
  return kernel != NULL ? find_named (kernel, element, name) : NULL;
}

/* Adds node to blame's other nodes; see scenario.h. */
void
ns_xml_blame_add (NsXmlBlame *blame, xmlNodePtr node)
{
  g_return_if_fail (blame != NULL);
  if (node == NULL)
    return;
  for (gsize i = 0; i < G_N_ELEMENTS (blame->also); i++)
    if (blame->also[i] == NULL || blame->also[i] == node) {
      blame->also[i] = node;
      return;
    }
  g_warn_if_reached ();
}

/* Adds what decides the machine's CPUs to blame; see scenario.h. */
void
ns_xml_blame_machine (const NsScenario *sc, NsXmlBlame *blame)
{
  static const char *const topology[] = {
    "cpu.sockets", "cpu.ccx_per_socket", "cpu.cores_per_ccx", "cpu.smt"
  };
  xmlNodePtr cpu, kernel;
  g_autofree char *cmdline = NULL;

  g_return_if_fail (sc != NULL && blame != NULL);
  cpu = ns_xml_child (xmlDocGetRootElement (sc->doc), "cpu");
  if (cpu != NULL)
    ns_xml_blame_add (blame, (xmlNodePtr) ns_xml_attr (cpu, "profile"));
  for (gsize i = 0; i < G_N_ELEMENTS (topology); i++)
    ns_xml_blame_add (blame, ns_scenario_param_node (sc, topology[i]));
  kernel = ns_xml_child (xmlDocGetRootElement (sc->doc), "kernel");
  cmdline = kernel != NULL ? ns_xml_prop (kernel, "cmdline") : NULL;
  if (cmdline != NULL && strstr (cmdline, "nosmt") != NULL)   /* takes SMT siblings away */
    ns_xml_blame_add (blame, (xmlNodePtr) ns_xml_attr (kernel, "cmdline"));
}

/* Adds what decides the kernel built to blame; see scenario.h. */
void
ns_xml_blame_kernel (const NsScenario *sc, NsXmlBlame *blame, const char *const *names)
{
  xmlNodePtr kernel;
  const char *was;

  g_return_if_fail (sc != NULL && blame != NULL);
  kernel = ns_xml_child (xmlDocGetRootElement (sc->doc), "kernel");
  if (kernel == NULL)
    return;
  ns_xml_blame_add (blame, (xmlNodePtr) ns_xml_attr (kernel, "version"));
  for (xmlNodePtr n = names != NULL ? kernel->children : NULL; n != NULL; n = n->next) {
    xmlAttrPtr a = renamed (sc, n, &was);
    if (a != NULL && g_strv_contains (names, was))
      ns_xml_blame_add (blame, (xmlNodePtr) a);
  }
}

/* The <element> child of the scenario's <kernel> named name, else <kernel>; see
 * scenario.h. */
xmlNodePtr
ns_scenario_kernel_child (const NsScenario *scenario, const char *element, const char *name)
{
  xmlNodePtr child = ns_scenario_kernel_option (scenario, element, name);

  g_return_val_if_fail (scenario != NULL, NULL);
  return child != NULL ? child
                       : ns_xml_child (xmlDocGetRootElement (scenario->doc), "kernel");
}

/* The <param> element named name; see scenario.h. */
xmlNodePtr
ns_scenario_param_node (const NsScenario *scenario, const char *name)
{
  g_return_val_if_fail (scenario != NULL && name != NULL, NULL);
  return find_param (xmlDocGetRootElement (scenario->doc), name);
}

/* The document as run (after every set), as newly allocated UTF-8 XML text. */
char *
ns_scenario_dump (const NsScenario *scenario)
{
  xmlChar *text = NULL;
  int length = 0;
  char *copy;

  g_return_val_if_fail (scenario != NULL && scenario->doc != NULL, NULL);

  xmlDocDumpFormatMemoryEnc (scenario->doc, &text, &length, "UTF-8", 0);
  copy = g_strndup ((const char *) text, length);
  xmlFree (text);
  return copy;
}
