/* stack-rig.c — the machine and loopback stack of stack-rig.h. */
#include "config.h"
#include "stack-rig.h"
#include "run-to-end.h"

/* s's machine and engine from its params and build under mit (NULL: every mitigation
 * off). */
static void
machine_of (StackRig *s, const NsMitigations *mit)
{
  NsMitigations none = { 0 };
  GError *error = NULL;

  s->machine = ns_machine_new (s->params, mit ? mit : &none, s->build, &error);
  ck_assert_msg (s->machine != NULL, "%s", error ? error->message : "?");
  s->engine = ns_machine_create_engine (s->machine);
}

/* See stack-rig.h. */
NsParams *
stack_rig_params (const char *const *sets)
{
  NsParams *p = ns_params_new ();
  GError *error = NULL;

  for (guint i = 0; sets != NULL && sets[i] != NULL; i += 2)
    ck_assert_msg (ns_params_set (p, sets[i], sets[i + 1], "test", &error), "%s",
                   error ? error->message : "?");
  return p;
}

/* s cleared, its params (taken; NULL: the registry defaults) and its build of version
 * (+ patch unless NULL, + the .config pairs of config unless NULL). */
static void
build_of (StackRig *s, NsParams *params, const char *version, const char *patch,
          const char *const *config)
{
  memset (s, 0, sizeof *s);
  s->params = params != NULL ? params : ns_params_new ();
  s->build = ns_build_new (version, ns_params_get_int (s->params, "build.inline_limit_bytes"));
  if (patch != NULL) {
    const NsPatch *p = ns_patch_find (patch);
    ck_assert_msg (p != NULL, "unknown patch %s", patch);
    p->apply (s->build);
  }
  for (guint i = 0; config != NULL && config[i] != NULL; i += 2)
    ns_build_set_config (s->build, config[i], config[i + 1]);
}

/* See stack-rig.h. */
void
stack_rig_init_machine_with (StackRig *s, const char *version, NsParams *params)
{
  build_of (s, params, version, NULL, NULL);
  machine_of (s, NULL);
}

/* s's loopback stack on its machine. */
static void
stack_of (StackRig *s)
{
  GError *error = NULL;

  s->stack = ns_netstack_new (s->machine, s->engine, &error);
  ck_assert_msg (s->stack != NULL, "%s", error ? error->message : "?");
}

/* See stack-rig.h. */
void
stack_rig_init_with (StackRig *s, const char *version, NsParams *params,
                     const NsMitigations *mit)
{
  build_of (s, params, version, NULL, NULL);
  machine_of (s, mit);
  stack_of (s);
}

/* See stack-rig.h. */
void
stack_rig_init_machine (StackRig *s, const char *version, const char *patch,
                        const char *const *config, const NsMitigations *mit)
{
  build_of (s, NULL, version, patch, config);
  machine_of (s, mit);
}

/* See stack-rig.h. */
void
stack_rig_init (StackRig *s, const char *version, const char *patch,
                const char *const *config, const NsMitigations *mit)
{
  stack_rig_init_machine (s, version, patch, config, mit);
  stack_of (s);
}

/* See stack-rig.h. */
void
stack_rig_clear (StackRig *s)
{
  if (s->stack != NULL)
    ns_netstack_free (s->stack);
  ns_engine_free (s->engine);
  ns_machine_free (s->machine);
  ns_build_free (s->build);
  ns_params_free (s->params);
}

/* See stack-rig.h. */
void
stack_rig_start (StackRig *s, guint cpu, void (*fn) (NsThread *t, gpointer data),
                 gpointer data)
{
  ns_engine_spawn (s->engine, "test", cpu, NS_THREAD_USER, ns_engine_now (s->engine), fn,
                   data);
  ns_engine_run (s->engine, NS_TIME_FOREVER);
}

/* See stack-rig.h. */
void
stack_rig_run (StackRig *s, guint cpu, void (*fn) (NsThread *t, gpointer data), gpointer data)
{
  run_to_end (s->engine, cpu, fn, data);
}

/* See stack-rig.h. */
guint64
stack_rig_calls (StackRig *s, const char *name)
{
  NsFunc *fn = ns_func_lookup (name);

  return fn == NULL ? 0 : ns_machine_account_calls (s->machine, fn, NULL);
}
