/* sched-rig.h — a simulated machine with a tc environment for the tc model's tests: a
 * kernel build (version, patches, .config facts), a spectre_v2 mode, and a way to run a
 * function inside a simulated thread. */
#pragma once
#include <check.h>
#include <string.h>
#include "machine.h"
#include "workload.h"
#include "sched-priv.h"
#include "netdev.h"
#include "../run-to-end.h"

typedef struct {
  NsParams  *params;
  NsBuild   *build;
  NsMachine *machine;
  NsEngine  *engine;
  TcEnv     *tc;
} SchedRig;

/* Every classifier and action of the v6.1/v6.2 wrapper chains, built in (=y). */
static const char *const rig_builtin[] = {
  "CONFIG_NET_CLS_BASIC", "CONFIG_NET_CLS_BPF", "CONFIG_NET_CLS_CGROUP", "CONFIG_NET_CLS_FLOW",
  "CONFIG_NET_CLS_FLOWER", "CONFIG_NET_CLS_FW", "CONFIG_NET_CLS_MATCHALL",
  "CONFIG_NET_CLS_ROUTE4", "CONFIG_NET_CLS_RSVP", "CONFIG_NET_CLS_RSVP6",
  "CONFIG_NET_CLS_TCINDEX", "CONFIG_NET_CLS_U32",
  "CONFIG_NET_ACT_BPF", "CONFIG_NET_ACT_CONNMARK", "CONFIG_NET_ACT_CSUM", "CONFIG_NET_ACT_CT",
  "CONFIG_NET_ACT_CTINFO", "CONFIG_NET_ACT_GACT", "CONFIG_NET_ACT_GATE", "CONFIG_NET_ACT_IFE",
  "CONFIG_NET_ACT_IPT", "CONFIG_NET_ACT_MIRRED", "CONFIG_NET_ACT_MPLS", "CONFIG_NET_ACT_NAT",
  "CONFIG_NET_ACT_PEDIT", "CONFIG_NET_ACT_POLICE", "CONFIG_NET_ACT_SAMPLE",
  "CONFIG_NET_ACT_SIMP", "CONFIG_NET_ACT_SKBEDIT", "CONFIG_NET_ACT_SKBMOD",
  "CONFIG_NET_ACT_TUNNEL_KEY", "CONFIG_NET_ACT_VLAN", NULL
};

/* Builds the rig: kernel `version`, patches (NULL-terminated, may be NULL), config
 * overrides as key/value pairs after every module built in (NULL-terminated, may be NULL),
 * spectre_v2 `mode`, parameter values as name/value pairs (NULL-terminated, may be NULL)
 * over the registry's defaults. */
static void
rig_init_with (SchedRig *rig, const char *version, const char *const *patches,
               const char *const *config, NsSpectreV2 mode, const char *const *params)
{
  NsMitigations mit = { 0 };
  GError *error = NULL;

  memset (rig, 0, sizeof *rig);
  ns_param_registry_init ();
  rig->params = ns_params_new ();
  for (guint i = 0; params && params[i]; i += 2)
    ck_assert_msg (ns_params_set (rig->params, params[i], params[i + 1], "test", &error),
                   "%s", error ? error->message : "?");
  rig->build = ns_build_new (version, 60);
  ns_build_set_config (rig->build, "CONFIG_NET_TC_INDIRECT_WRAPPER", "y");
  for (guint i = 0; rig_builtin[i]; i++)
    ns_build_set_config (rig->build, rig_builtin[i], "y");
  for (guint i = 0; config && config[i]; i += 2)
    ns_build_set_config (rig->build, config[i], config[i + 1]);
  for (guint i = 0; patches && patches[i]; i++) {
    const NsPatch *p = ns_patch_find (patches[i]);
    ck_assert_msg (p != NULL, "unknown patch %s", patches[i]);
    p->apply (rig->build);
    ns_build_apply_patch (rig->build, p->name);
  }
  mit.spectre_v2 = mode;
  rig->machine = ns_machine_new (rig->params, &mit, rig->build, &error);
  ck_assert_msg (rig->machine != NULL, "%s", error ? error->message : "?");
  rig->engine = ns_machine_create_engine (rig->machine);
  rig->tc = tc_env_new (rig->machine);
}

/* rig_init_with at the registry's parameter values. */
static G_GNUC_UNUSED void
rig_init (SchedRig *rig, const char *version, const char *const *patches,
          const char *const *config, NsSpectreV2 mode)
{
  rig_init_with (rig, version, patches, config, mode, NULL);
}

static void
rig_clear (SchedRig *rig)
{
  tc_env_free (rig->tc);
  ns_engine_free (rig->engine);
  ns_machine_free (rig->machine);
  ns_build_free (rig->build);
  ns_params_free (rig->params);
}

/* Runs fn(t, data) to completion in a simulated thread on `cpu`. */
static G_GNUC_UNUSED void
rig_run_on (SchedRig *rig, guint cpu, void (*fn) (NsThread *t, gpointer data), gpointer data)
{
  ck_assert_uint_lt (cpu, ns_machine_n_cpus (rig->machine));
  run_to_end (rig->engine, cpu, fn, data);
}

/* Runs fn(t, data) to completion in a simulated thread on CPU 0. */
static G_GNUC_UNUSED void
rig_run (SchedRig *rig, void (*fn) (NsThread *t, gpointer data), gpointer data)
{
  rig_run_on (rig, 0, fn, data);
}

/* An skb in simulated memory: protocol IPv4, 60 bytes, a head with shared info. */
static G_GNUC_UNUSED struct sk_buff *
rig_skb (SchedRig *rig)
{
  NsArena *arena = ns_machine_arena (rig->machine);
  struct sk_buff *skb = ns_arena_alloc (arena, 256, 64);

  skb->head = skb->data = ns_arena_alloc (arena, 1024, 64);
  skb->end = 1024 - SKB_SHINFO_SIZE;
  skb->len = 60;
  skb->users = 1;
  skb->protocol = TC_ETH_P_IP;
  return skb;
}

/* The rig plus the tc path's transmit stack (NetTx) and dummy0. */
typedef struct {
  SchedRig           rig;
  NetTx             *tx;
  struct net_device *dev;
} DevRig;

/* A machine of kernel `version` (generic retpoline) with its transmit stack and dummy0,
 * no qdisc. */
static G_GNUC_UNUSED void
dev_rig_init_release (DevRig *d, const char *version)
{
  rig_init (&d->rig, version, NULL, NULL, NS_SPECTRE_V2_RETPOLINE);
  d->tx = net_tx_new (d->rig.machine, d->rig.tc);
  d->dev = dummy_create (d->tx, "dummy0");
}

/* A 6.1 machine (generic retpoline) with its transmit stack and dummy0, no qdisc. */
static G_GNUC_UNUSED void
dev_rig_init (DevRig *d)
{
  dev_rig_init_release (d, "6.1.0");
}

/* Frees what dev_rig_init made. */
static G_GNUC_UNUSED void
dev_rig_clear (DevRig *d)
{
  net_tx_free (d->tx);
  rig_clear (&d->rig);
}

/* tc filter add dev dummy0 egress|ingress prio PRIO matchall classid CLASSID action gact
 * VERDICT on the attached clsact; the caller publishes it with clsact_sync. */
static G_GNUC_UNUSED struct tcf_proto *
dev_rig_add_filter (DevRig *d, gboolean egress, guint32 prio, guint32 classid,
                    gint32 verdict)
{
  struct tcf_proto *tp = tcf_chain_tp_insert (d->rig.tc, clsact_chain (d->tx, d->dev, egress),
                                              &cls_mall_ops, TC_ETH_P_ALL, prio, NULL);
  struct tc_action *a = tcf_gact_create (d->rig.tc, verdict, NULL);

  mall_change (d->rig.tc, tp, classid, 0, &a, 1);
  return tp;
}
