/* cmd-sweep.c — netsim sweep (not built yet: see the open issues). */
#include "config.h"
#include "cmd.h"

/* Placeholder until the sweep command lands. */
int
ns_cmd_sweep (int argc, char **argv)
{
  g_printerr ("netsim sweep: not implemented yet\n");
  return NS_EXIT_USAGE;
}
