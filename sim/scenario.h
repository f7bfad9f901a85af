/* scenario.h — XML scenarios: loading (libxml2, no network, no DTD, no entities), RelaxNG
 * validation, --set overrides, and typed attribute access with file:line errors. */
#pragma once
#include <libxml/tree.h>
#include "common.h"

G_BEGIN_DECLS

typedef enum {
  NS_AGG_MEAN,
  NS_AGG_HARMONIC
} NsAggregate;

/* The most repetitions a <measure> may ask for (scenario.rng says so too): each builds and
 * runs a fresh machine, and the run keeps every repetition's value. */
#define NS_MAX_REPETITIONS 10000

typedef struct {
  char        *metric;        /* name of the workload metric to report */
  NsTime       warmup;        /* simulated warm-up per repetition */
  NsTime       duration;      /* simulated measured time per repetition (fixed rule) */
  guint        repetitions;   /* 1 to NS_MAX_REPETITIONS */
  NsAggregate  aggregate;
  double       converge;      /* 0 = off; else stop when the CI half-width / mean ≤ this */
  double       confidence;    /* confidence level for the CI, default 0.95 */
  NsTime       batch;         /* batch length for the convergence rule */
  NsTime       max_duration;  /* cap for the convergence rule */
  guint        min_batches;   /* batches before convergence may stop a run (default 5) */
} NsMeasure;

typedef struct {
  char       *name;
  char       *description;
  char       *path;           /* file */
  xmlDocPtr   doc;            /* kept for line numbers and workload elements */
  char       *cpu;            /* profile name or path, as written (relative paths resolved
                                 against the scenario's folder) */
  char       *kernel_version;
  char       *cmdline;        /* kernel command line ("" if none) */
  char       *base_config;    /* <kernel base-config>: a kernel config package's name or
                                 path (relative paths resolved against the scenario's
                                 folder), or NULL: the models' defaults under <config> */
  GPtrArray  *patches;        /* char*: patch names applied */
  GHashTable *config;         /* CONFIG_* → value */
  GPtrArray  *param_names;    /* <param name=... value=... source=...> overrides */
  GPtrArray  *param_values;
  GPtrArray  *param_sources;
  GPtrArray  *param_homes;    /* the file declaring each value: the scenario, or the file a
                                 <param from=...> names (its value and source copied here) */
  xmlNodePtr  workload;       /* the <workload> element; its type attribute names the model */
  char       *workload_type;
  NsMeasure   measure;
  guint64     seed;           /* scenario default seed (CLI --seed overrides) */
  GHashTable *set_by;         /* xmlNodePtr → who made or changed it: "--set PATH=VALUE",
                                 "--param PATH=VALUE" or "variant 'NAME' set PATH=VALUE" */
  GHashTable *set_was;        /* xmlAttrPtr → the value a set replaced (the file's, or an
                                 earlier set's), so that an error about that value (a
                                 <compare> naming a variant a set renamed) names the set
                                 (may be NULL) */
  char      **replaced;       /* each of the loaded variant's own <set>s a --set overrode
                                 (a --param or --what-if does so by design): "--set
                                 PATH=VALUE replaces variant 'NAME' set PATH=VALUE"
                                 (NULL-terminated; may be NULL) */
} NsScenario;

/* Loads and validates path; applies sets ("PATH=VALUE" strings, see doc/scenario-format.md)
 * to the document before validation. Errors are "file:line: message" (NS_ERROR_INPUT). */
NsScenario *ns_scenario_load   (const char *path, const char *const *sets, GError **error);
/* The <variant> element named variant in doc's <variants>, or NULL if there is none. */
xmlNodePtr  ns_scenario_variant_node (xmlDocPtr doc, const char *variant);
/* The attribute a --set/--param PATH (or PATH=VALUE) names, as a key two spellings of it
 * share (newly allocated): an index's leading zeros go, and "[1]" after an element is the
 * first child, which the name alone picks too (measure[01].duration is measure.duration);
 * param.NAME and kernel.config.NAME are keyed by NAME as written. Spellings only the
 * document tells apart (param[1].value and param.NAME) are caught as the sets apply. */
char       *ns_scenario_set_key (const char *path);
/* Like ns_scenario_load, with the <set>s of the variant named variant (NULL or "": none)
 * applied before sets, and params (PATH=VALUE strings given by the option params_by,
 * NULL meaning "--param": a sweep point's, or netsim run's --what-if; may be NULL) after
 * them. Errors a set caused end "(after --set PATH=VALUE)", "(after --param PATH=VALUE)"
 * (or params_by's option) or "(after variant 'NAME' set PATH=VALUE)". */
NsScenario *ns_scenario_load_variant (const char *path, const char *variant,
                                      const char *const *sets, const char *const *params,
                                      const char *params_by, GError **error);
void        ns_scenario_free   (NsScenario *scenario);
/* Adds to files (a GPtrArray of owned strings) each file a <param from=FILE> of scenario
 * reads, the scenario's own file left out, unless it is there already. */
void        ns_scenario_add_param_files (const NsScenario *scenario, GPtrArray *files);
/* The value text of the <param> named name the scenario sets itself, or NULL. */
const char *ns_scenario_param_value (const NsScenario *scenario, const char *name);
/* The file that declares the value of the <param> named name (the scenario's own path, or
 * the file its from= names), or NULL if the scenario sets no such param. */
const char *ns_scenario_param_home (const NsScenario *scenario, const char *name);
/* The <element> child (patch, config) of the scenario's <kernel> whose name attribute is
 * name, for an error about it; the <kernel> itself when none is (NULL without one). */
xmlNodePtr  ns_scenario_kernel_child (const NsScenario *scenario, const char *element,
                                      const char *name);
/* Like ns_scenario_kernel_child, but NULL when no such child is (for NsXmlBlame.also). */
xmlNodePtr  ns_scenario_kernel_option (const NsScenario *scenario, const char *element,
                                       const char *name);
/* The <param> element of the scenario named name (after every set), or NULL. */
xmlNodePtr  ns_scenario_param_node (const NsScenario *scenario, const char *name);
/* Serialises the document as run (after --set), for recording in outputs. */
char       *ns_scenario_dump   (const NsScenario *scenario);

/* Typed attribute access on scenario elements; on a bad value sets a file:line error.
 * Missing attribute → default (if has_default) or error. Sizes accept B, KiB, MiB, GiB, K,
 * M, G suffixes; times accept ps, ns, us, ms, s; rates accept K/M/G (bits per second). */
gboolean ns_xml_get_string (const NsScenario *sc, xmlNodePtr node, const char *attr,
                            const char *def, char **out, GError **error);
gboolean ns_xml_get_uint   (const NsScenario *sc, xmlNodePtr node, const char *attr,
                            gboolean has_default, guint64 def, guint64 *out, GError **error);
gboolean ns_xml_get_double (const NsScenario *sc, xmlNodePtr node, const char *attr,
                            gboolean has_default, double def, double *out, GError **error);
gboolean ns_xml_get_bool   (const NsScenario *sc, xmlNodePtr node, const char *attr,
                            gboolean def, gboolean *out, GError **error);
gboolean ns_xml_get_size   (const NsScenario *sc, xmlNodePtr node, const char *attr,
                            gboolean has_default, guint64 def, guint64 *out, GError **error);
gboolean ns_xml_get_time   (const NsScenario *sc, xmlNodePtr node, const char *attr,
                            gboolean has_default, NsTime def, NsTime *out, GError **error);
/* Fails with a file:line error naming the first attribute of node not in allowed
 * (NULL-terminated), and listing the allowed ones. */
gboolean ns_xml_check_attrs (const NsScenario *sc, xmlNodePtr node, const char *const *allowed,
                             GError **error);
/* Errors about a scenario's elements: "file:line: message", ending "(after --set
 * PATH=VALUE)", "(after --param …)" or "(after variant 'NAME' set …)" with the sets behind
 * what the caller says the error is about (never guessed from the message).
 *
 * ns_xml_error: about element node as a whole (a socket that failed, a <set> whose path
 * and value go together): node's line; the set that made node or an element holding it,
 * and those that changed any of its attributes. */
void     ns_xml_error      (const NsScenario *sc, xmlNodePtr node, GError **error,
                            const char *format, ...) G_GNUC_PRINTF (4, 5);
/* About the value of attribute attr of element node: the attribute's line; the set that
 * gave the value, or made an element holding it. Where node lacks attr (a missing or
 * defaulted value): node's line, and the set that made node or an element holding it. */
void     ns_xml_error_attr (const NsScenario *sc, xmlNodePtr node, const char *attr,
                            GError **error, const char *format, ...) G_GNUC_PRINTF (5, 6);

/* What an error about several values is about: attributes of its element (NULL entries
 * unused; the first the element has gives the line, else the element's), and other nodes
 * whose values it is about too (NULL entries unused): an element (as ns_xml_error names
 * its sets) or an attribute (an xmlAttrPtr cast to xmlNodePtr; as ns_xml_error_attr) — a
 * duplicate's first occurrence, a variant a set renamed, the <config> or <patch> a message
 * about the build names. E.g. (NsXmlBlame) { .attrs = { "warmup", "duration" } } or
 * (NsXmlBlame) { .attrs = { "version" }, .also = { patch } }. */
typedef struct {
  const char *attrs[4];
  xmlNodePtr  also[8];
} NsXmlBlame;

/* Adds node (when not NULL) to blame's other nodes, in the first free place. */
void     ns_xml_blame_add   (NsXmlBlame *blame, xmlNodePtr node);
/* Adds to blame what decides the machine's CPUs: <cpu>'s profile attribute, the
 * scenario's <param>s of the topology (cpu.sockets, cpu.ccx_per_socket,
 * cpu.cores_per_ccx, cpu.smt) and a kernel command line that says nosmt, for an error
 * about a CPU the machine lacks. */
void     ns_xml_blame_machine (const NsScenario *sc, NsXmlBlame *blame);
/* Adds to blame what decides which kernel is built: <kernel>'s version attribute, and the
 * name of each <patch> or <config> a set renamed from one of names (NULL-terminated). */
void     ns_xml_blame_kernel (const NsScenario *sc, NsXmlBlame *blame,
                              const char *const *names);

/* Like ns_xml_error_attr, about everything blame lists: its attributes' line; the sets
 * behind them (in the element's order of attributes), then those behind blame.also (in
 * document order), each named once. */
void     ns_xml_error_blame (const NsScenario *sc, xmlNodePtr node, NsXmlBlame blame,
                             GError **error, const char *format, ...) G_GNUC_PRINTF (5, 6);

/* Parsers shared with the CLI (--set values, sweep ranges) and the workload models'
 * attribute tables (models/workload.h): the syntax of the ns_xml_get_* readers. */
gboolean ns_parse_uint     (const char *text, guint64 *out);
gboolean ns_parse_size     (const char *text, guint64 *out);
gboolean ns_parse_time     (const char *text, NsTime *out);
gboolean ns_parse_rate     (const char *text, double *bits_per_sec);

G_END_DECLS
