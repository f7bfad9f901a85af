/* workload.h — workload models: what a scenario's <workload type="..."> runs.
 *
 * A workload class sets up kernel-shaped state and simulated threads on a machine, counts
 * the work it completes, and turns counts over a span of simulated time into metrics. The
 * run layer (sim/run.c) drives warm-up, measurement windows and repetitions. */
#pragma once
#include <gsl/gsl_rng.h>
#include "machine.h"
#include "scenario.h"

G_BEGIN_DECLS

typedef struct _NsWorkload NsWorkload;

/* What a workload attribute's value is; each kind reads with the syntax of its
 * ns_xml_get_* reader (sim/scenario.h). */
typedef enum {
  NS_WORKLOAD_ATTR_UINT,    /* a decimal integer (ns_xml_get_uint) */
  NS_WORKLOAD_ATTR_SIZE,    /* bytes, with the size suffixes (ns_xml_get_size) */
  NS_WORKLOAD_ATTR_TIME,    /* a time with a unit (ns_xml_get_time) */
  NS_WORKLOAD_ATTR_BOOL,    /* true or false (ns_xml_get_bool) */
  NS_WORKLOAD_ATTR_CHOICE,  /* one of .choices */
  NS_WORKLOAD_ATTR_CPU,     /* a logical CPU of the machine: 0 to its last */
  NS_WORKLOAD_ATTR_CPUS,    /* a count of CPUs: 1 to the machine's */
  NS_WORKLOAD_ATTR_TEXT,    /* text the model reads itself (a rate, a list) */
} NsWorkloadAttrKind;

/* One attribute a workload's <workload> element takes: declared once, read and checked
 * by the ns_workload_attr_* readers below, listed by netsim list workloads. A table of
 * them ends with an entry whose name is NULL. */
typedef struct {
  const char         *name;
  NsWorkloadAttrKind  kind;
  /* the value when absent, as a scenario writes it; NULL: required; "@NAME": the value
   * of attribute NAME (CHOICE and TEXT) */
  const char         *def;
  /* UINT, SIZE, TIME: the values accepted, as a scenario writes them (NULL: no bound) */
  const char         *min, *max;
  const char *const  *choices;   /* CHOICE: NULL-terminated */
  const char         *why;       /* why those bounds (NULL: none): quoted in a refusal */
  const char         *meaning;   /* one line for netsim list workloads */
} NsWorkloadAttr;

typedef struct {
  const char  *name;          /* value of <workload type="..."> */
  const char  *description;   /* one line for `netsim list` */
  const char  *op_name;       /* unit of work for per-op breakdowns ("load", "call", "packet") */
  const char *const *metrics; /* NULL-terminated metric names it can report */
  /* The attributes its <workload> element takes besides type (its setup reads them with
   * the ns_workload_attr_* readers; netsim list workloads prints them) */
  const NsWorkloadAttr *attributes;
  /* NULL-terminated (NULL: none): those of metrics that divide by the span (per second,
   * fractions of time); the others divide by ops(). The convergence rule weighs each
   * batch's value by that denominator, so that its value is total over total. */
  const char *const *per_time_metrics;
  /* Reads the <workload> element, allocates state in the machine's arena and spawns
   * threads on engine. rng is the workload's own stream. Returns private state or NULL
   * with a file:line error. */
  gpointer (*setup)   (const NsScenario *sc, NsMachine *machine, NsEngine *engine,
                       gsl_rng *rng, GError **error);
  /* Snapshots the counters: the next metric() call measures from here. */
  void     (*mark)    (gpointer state);
  /* Work units completed since mark(). */
  guint64  (*ops)     (gpointer state);
  /* Value of metric over the span since mark() (span in simulated ps). */
  gboolean (*metric)  (gpointer state, NsMachine *machine, const char *metric, NsTime span,
                       double *value);
  void     (*free)    (gpointer state);  /* NULL is fine */
} NsWorkloadClass;

/* All workload classes, NULL-terminated (models/registry.c). */
const NsWorkloadClass *const *ns_workload_classes (void);
const NsWorkloadClass        *ns_workload_class_find (const char *name);

/* Helpers for workload models. */
/* The declared attribute name of attrs (a programming error if none). */
const NsWorkloadAttr *ns_workload_attr_find (const NsWorkloadAttr *attrs, const char *name);
/* FALSE with a file:line error naming the first attribute of the scenario's <workload>
 * that is neither type nor one of attrs, and listing those. */
gboolean ns_workload_attr_check  (const NsScenario *sc, const NsWorkloadAttr *attrs,
                                  GError **error);
/* The value of the workload's UINT or SIZE attribute name (its default if absent),
 * checked against its bounds; FALSE with a file:line error otherwise. */
gboolean ns_workload_attr_uint   (const NsScenario *sc, const NsWorkloadAttr *attrs,
                                  const char *name, guint64 *out, GError **error);
/* Likewise for a TIME attribute (ps). */
gboolean ns_workload_attr_time   (const NsScenario *sc, const NsWorkloadAttr *attrs,
                                  const char *name, NsTime *out, GError **error);
/* Likewise for a BOOL attribute. */
gboolean ns_workload_attr_bool   (const NsScenario *sc, const NsWorkloadAttr *attrs,
                                  const char *name, gboolean *out, GError **error);
/* The index in its choices of a CHOICE attribute's value; FALSE with a file:line error
 * naming the choices otherwise. */
gboolean ns_workload_attr_choice (const NsScenario *sc, const NsWorkloadAttr *attrs,
                                  const char *name, guint *out, GError **error);
/* A CPU attribute (a CPU the machine has) or a CPUS one (1 to its CPUs). */
gboolean ns_workload_attr_cpu    (const NsScenario *sc, NsMachine *machine,
                                  const NsWorkloadAttr *attrs, const char *name, guint *out,
                                  GError **error);
/* A TEXT attribute's value (or its default), newly allocated. */
gboolean ns_workload_attr_text   (const NsScenario *sc, const NsWorkloadAttr *attrs,
                                  const char *name, char **out, GError **error);
/* Parses text as a value of numeric attribute a's kind (UINT, SIZE, TIME: ps; CPU and
 * CPUS as UINT) into *out, with the syntax of the kind's ns_xml_get_* reader; FALSE if it
 * is not one. */
gboolean ns_workload_attr_parse  (const NsWorkloadAttr *a, const char *text, guint64 *out);
/* What attribute a takes (newly allocated): "0 to 4096", "16 to 65507 bytes", "ipv4 or
 * ipv6", "a CPU of the machine", "text": for refusals and netsim list workloads. */
char    *ns_workload_attr_describe (const NsWorkloadAttr *a);
/* TRUE unless an IPv6 (ipv6) UDP datagram of length bytes is one the kernel fragments on
 * lo (above NS_UDPV6_LO_MAX_UNFRAGMENTED), which the model does not do; FALSE with a
 * file:line error on the workload's 'length' then. */
gboolean ns_workload_check_udp_unfragmented (const NsScenario *sc, guint64 length,
                                             gboolean ipv6, GError **error);
/* n synthetic model functions for a micro workload, never freed: "<prefix>_<i>" for i
 * in 0..n-1, each text_bytes of text with frame_insns and attrs, one call site. */
NsFunc  *ns_workload_new_functions (const char *prefix, guint n, guint text_bytes,
                                    gint frame_insns, guint attrs);
/* Simulated cycles of the CPU clock in span. */
double   ns_workload_span_cycles (NsMachine *machine, NsTime span);
/* count per second over span (ps > 0): count × 10^12 / span, each step exact or rounded
 * once (count / (span × 10^-12) rounds twice: 4 in 20 us gave 200000.00000000003). */
double   ns_workload_rate        (double count, NsTime span);

G_END_DECLS

G_BEGIN_DECLS

/* A named kernel patch a scenario can apply: a documented switch between two faithful
 * variants of the affected code. apply() records its effect on the build (call sites of
 * functions, the patch name models test with ns_build_has_patch). */
typedef struct {
  const char *name;
  const char *commit;           /* upstream commit or patch id */
  const char *description;
  void      (*apply) (NsBuild *build);
} NsPatch;

/* All patches, NULL-terminated; and lookup by name. */
const NsPatch *const *ns_patches     (void);
const NsPatch        *ns_patch_find  (const char *name);

G_END_DECLS
