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

typedef struct {
  const char  *name;          /* value of <workload type="..."> */
  const char  *description;   /* one line for `netsim list` */
  const char  *op_name;       /* unit of work for per-op breakdowns ("load", "call", "packet") */
  const char *const *metrics; /* NULL-terminated metric names it can report */
  /* NULL-terminated: the attributes its <workload> element takes, "type" first (its setup
   * checks them; netsim list workloads prints them) */
  const char *const *attributes;
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
  void     (*free)    (gpointer state);
} NsWorkloadClass;

/* All workload classes, NULL-terminated (models/registry.c). */
const NsWorkloadClass *const *ns_workload_classes (void);
const NsWorkloadClass        *ns_workload_class_find (const char *name);

/* Helpers for workload models. */
/* Logical CPU named by attribute attr of node ("0".."n-1"), checked against the machine. */
gboolean ns_workload_get_cpu (const NsScenario *sc, xmlNodePtr node, const char *attr,
                              guint def, NsMachine *machine, guint *out, GError **error);
/* The index in names (NULL-terminated) of the workload's choice attribute attr, def when
 * absent; a file:line error naming the choices otherwise. */
gboolean ns_workload_get_choice (const NsScenario *sc, const char *attr, const char *def,
                                 const char *const *names, guint *out, GError **error);
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
