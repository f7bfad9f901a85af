/* pingpong.c — two CPUs take turns writing one cache line with plain loads and stores:
 * each hand-off moves the line from the writer's core to the reader's (the load-to-use
 * transfer of their distance: its c2c value less lock.atomic_cycles, plus the L1D
 * latency, sim/machine.c), and the reader's store then invalidates the writer's shared
 * copy (the wait beyond an L1 hit over cpu.mlp, the machine's store rule), so a hand-off
 * costs L1D + wait × (1 + 1 / cpu.mlp), wait = c2c × GHz − lock.atomic_cycles; SMT
 * siblings share the L1D: an L1 hit and the SMT wait over cpu.mlp. */
#include "config.h"
#include <string.h>
#include "workload.h"

typedef struct {
  guint32 turn;                 /* whose turn: 0 or 1; lives alone on its line */
  char    pad[60];
} PingLine;

typedef struct _PingPong PingPong;

typedef struct {
  PingPong *pp;
  guint32   me;
} PingPlayer;

struct _PingPong {
  PingLine   *line;
  NsTime      written_at;       /* simulated time of the last store to turn */
  guint64     handoffs;
  guint64     handoffs_mark;
  PingPlayer  players[2];
};

static const char *const metrics[] = { "ns_per_handoff", "cycles_per_handoff", NULL };
/* The distances a peer can be at, NsDistance's order past NS_DIST_SAME. */
static const char *const distance_names[] = { "smt", "ccx", "socket", "remote", NULL };
/* The <workload> attributes it takes. */
static const NsWorkloadAttr pingpong_attributes[] = {
  { "cpu", NS_WORKLOAD_ATTR_CPU, "0", .meaning = "the CPU of the first player" },
  { "distance", NS_WORKLOAD_ATTR_CHOICE, "ccx", .choices = distance_names,
    .meaning = "how far from it the second player's CPU is" },
  { NULL }
};

/* Waits for our turn: poll the line; a value written later in simulated time than our clock
 * is not visible yet, so we wait (spin) until then before we see it. */
static void
wait_turn (NsThread *t, PingPlayer *pl)
{
  PingPong *pp = pl->pp;

  for (;;) {
    if (pp->line->turn == pl->me && pp->written_at > ns_thread_now (t))
      ns_thread_advance_time (t, pp->written_at - ns_thread_now (t));
    ns_load_dep (t, &pp->line->turn, sizeof pp->line->turn);
    if (pp->line->turn == pl->me)
      return;
    ns_thread_yield (t);
  }
}

/* One player: waits for its turn, writes the line to hand the turn over, counts it. */
static void
player_thread (NsThread *t, gpointer data)
{
  PingPlayer *pl = data;
  PingPong *pp = pl->pp;

  for (;;) {
    wait_turn (t, pl);
    ns_store (t, &pp->line->turn, sizeof pp->line->turn);
    pp->line->turn = 1 - pl->me;
    pp->written_at = ns_thread_now (t);
    pp->handoffs++;
    ns_thread_yield (t);
  }
}

/* Spawns the two players on cpu and its peer at distance; NULL with a file:line error
 * (also when the machine has no CPU at that distance). */
static gpointer
pingpong_setup (const NsScenario *sc, NsMachine *machine, NsEngine *engine, gsl_rng *rng,
                GError **error)
{
  PingPong *pp;
  guint cpu, peer, dist;

  if (!ns_workload_attr_check (sc, pingpong_attributes, error) ||
      !ns_workload_attr_cpu (sc, machine, pingpong_attributes, "cpu", &cpu, error) ||
      !ns_workload_attr_choice (sc, pingpong_attributes, "distance", &dist, error))
    return NULL;
  if (!ns_machine_cpu_at (machine, cpu, (NsDistance) (NS_DIST_SAME + 1 + dist), &peer))
    goto no_peer;
  pp = g_new0 (PingPong, 1);
  pp->line = ns_arena_alloc (ns_machine_arena (machine), sizeof (PingLine), 64);
  pp->players[0] = (PingPlayer) { pp, 0 };
  pp->players[1] = (PingPlayer) { pp, 1 };
  ns_engine_spawn (engine, "ping", cpu, NS_THREAD_USER, 0, player_thread, &pp->players[0]);
  ns_engine_spawn (engine, "pong", peer, NS_THREAD_USER, 0, player_thread, &pp->players[1]);
  return pp;

/* ERRORS */
no_peer:
  {
    NsXmlBlame blame = { .attrs = { "distance", "cpu" } };
    ns_xml_blame_machine (sc, &blame);          /* the topology decides the distances */
    ns_xml_error_blame (sc, sc->workload, blame, error, "attribute 'distance': this machine "
                        "has no CPU at distance '%s' from CPU %u (attribute 'cpu')%s",
                        distance_names[dist], cpu, ns_machine_cpus_note (machine));
  }
  return NULL;
}

/* Snapshots the hand-off count for the next metric. */
static void
pingpong_mark (gpointer state)
{
  PingPong *pp = state;
  pp->handoffs_mark = pp->handoffs;
}

/* Hand-offs since the mark. */
static guint64
pingpong_ops (gpointer state)
{
  PingPong *pp = state;
  return pp->handoffs - pp->handoffs_mark;
}

/* ns or cycles per hand-off since the mark; FALSE for an unknown metric or no hand-off. */
static gboolean
pingpong_metric (gpointer state, NsMachine *machine, const char *metric, NsTime span,
                 double *value)
{
  double handoffs = (double) pingpong_ops (state);

  if (handoffs == 0)
    return FALSE;
  if (g_str_equal (metric, "ns_per_handoff"))
    *value = (double) span / 1000.0 / handoffs;
  else if (g_str_equal (metric, "cycles_per_handoff"))
    *value = ns_workload_span_cycles (machine, span) / handoffs;
  else
    return FALSE;
  return TRUE;
}

const NsWorkloadClass ns_pingpong_class = {
  .name = "pingpong",
  .description = "two CPUs take turns writing one line (core-to-core transfer by distance)",
  .op_name = "handoff",
  .metrics = metrics,
  .attributes = pingpong_attributes,
  .setup = pingpong_setup,
  .mark = pingpong_mark,
  .ops = pingpong_ops,
  .metric = pingpong_metric,
  .free = g_free,
};
