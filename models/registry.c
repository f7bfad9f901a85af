/* registry.c — the table of workload models and helpers shared by them. */
#include "config.h"
#include <math.h>
#include <string.h>
#include "workload.h"
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

/* Reads a logical CPU number from attr and checks the machine has it. */
gboolean
ns_workload_get_cpu (const NsScenario *sc, xmlNodePtr node, const char *attr, guint def,
                     NsMachine *machine, guint *out, GError **error)
{
  guint64 cpu;

  if (!ns_xml_get_uint (sc, node, attr, TRUE, def, &cpu, error))
    return FALSE;
  if (cpu >= ns_machine_n_cpus (machine))
    goto no_such_cpu;
  *out = (guint) cpu;
  return TRUE;

/* ERRORS */
no_such_cpu:
  {
    NsXmlBlame blame = { .attrs = { attr } };
    ns_xml_blame_machine (sc, &blame);          /* the topology decides the CPUs */
    ns_xml_error_blame (sc, node, blame, error, "attribute '%s': CPU %" G_GUINT64_FORMAT
                        " does not exist (the machine has CPUs 0-%u%s)", attr, cpu,
                        ns_machine_n_cpus (machine) - 1, ns_machine_cpus_note (machine));
  }
  return FALSE;
}

/* Reads the workload's choice attribute attr (def when absent): the index of its value in
 * names; FALSE with a file:line error naming the choices otherwise. */
gboolean
ns_workload_get_choice (const NsScenario *sc, const char *attr, const char *def,
                        const char *const *names, guint *out, GError **error)
{
  g_autofree char *v = NULL;
  g_autofree char *list = NULL;

  if (!ns_xml_get_string (sc, sc->workload, attr, def, &v, error))
    return FALSE;
  for (guint i = 0; names[i]; i++)
    if (!strcmp (names[i], v)) {
      *out = i;
      return TRUE;
    }
  list = g_strjoinv (", ", (char **) names);
  ns_xml_error_attr (sc, sc->workload, attr, error, "attribute '%s': expected one of %s, "
                     "got '%s'", attr, list, v);
  return FALSE;
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
