/* stack-rig.h — a simulated machine of the registry defaults with its loopback network
 * stack, for the tests of models/net/: the kernel build (version, a patch, .config
 * overrides, mitigations), the machine, its engine and stack, and a way to run a body in
 * a simulated user thread on a CPU until every thread is done or asleep. */
#pragma once
#include <check.h>
#include <string.h>
#include "machine.h"
#include "workload.h"
#include "netstack.h"

typedef struct {
  NsParams   *params;
  NsBuild    *build;
  NsMachine  *machine;
  NsEngine   *engine;
  NsNetStack *stack;
} StackRig;

/* Builds kernel version (+ patch unless NULL, + .config key/value pairs, a NULL-terminated
 * list or NULL) under mit (NULL: every mitigation off), the machine, engine and stack. */
void  stack_rig_init  (StackRig *s, const char *version, const char *patch,
                       const char *const *config, const NsMitigations *mit);
/* The same without the stack (s->stack NULL): a bare machine for the tests of code below
 * the stack (skbuff.c, softirq.c). */
void  stack_rig_init_machine (StackRig *s, const char *version, const char *patch,
                              const char *const *config, const NsMitigations *mit);
/* Registry defaults with each NAME, VALUE pair of sets (a NULL-terminated list, or NULL)
 * set, asserting each takes. */
NsParams *stack_rig_params (const char *const *sets);
/* stack_rig_init_machine on params (taken; NULL: the registry defaults), every mitigation
 * off. */
void  stack_rig_init_machine_with (StackRig *s, const char *version, NsParams *params);
/* stack_rig_init on params (taken; NULL: the registry defaults) under mit (NULL: every
 * mitigation off, no CPU features). */
void  stack_rig_init_with (StackRig *s, const char *version, NsParams *params,
                           const NsMitigations *mit);
/* Frees what stack_rig_init or stack_rig_init_machine made. */
void  stack_rig_clear (StackRig *s);
/* Runs fn(t, data) in a user thread on cpu from now until every thread is done or
 * asleep; fn may be left asleep (a blocking call the test wakes later). */
void  stack_rig_start (StackRig *s, guint cpu, void (*fn) (NsThread *t, gpointer data),
                       gpointer data);
/* stack_rig_start, then asserts fn returned. */
void  stack_rig_run   (StackRig *s, guint cpu, void (*fn) (NsThread *t, gpointer data),
                       gpointer data);
/* Calls of the kernel function named name on s's machine so far (0 if the model never
 * entered it). */
guint64 stack_rig_calls (StackRig *s, const char *name);
