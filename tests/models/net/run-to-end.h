/* run-to-end.h — the test rigs' way to run a body in a simulated thread: spawn it, run the
 * engine until every thread is done or asleep, and assert the body returned (a body left
 * blocked part-way would otherwise skip the asserts after the blocking call). */
#pragma once
#include <check.h>
#include "engine.h"

typedef struct {
  void     (*fn) (NsThread *t, gpointer data);
  gpointer   data;
  gboolean   done;                 /* fn returned */
} RunToEnd;

/* The thread body: fn(data), then notes that it returned. */
static void
run_to_end_thread (NsThread *t, gpointer data)
{
  RunToEnd *job = data;

  job->fn (t, job->data);
  job->done = TRUE;
}

/* Runs fn(t, data) in a user thread named "test" on cpu, from now until the engine is idle;
 * asserts fn returned. */
static G_GNUC_UNUSED void
run_to_end (NsEngine *engine, guint cpu, void (*fn) (NsThread *t, gpointer data),
            gpointer data)
{
  RunToEnd job = { fn, data, FALSE };

  ns_engine_spawn (engine, "test", cpu, NS_THREAD_USER, ns_engine_now (engine),
                   run_to_end_thread, &job);
  ns_engine_run (engine, NS_TIME_FOREVER);
  ck_assert_msg (job.done, "the thread body did not run to its end");
}
