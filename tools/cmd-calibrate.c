/* cmd-calibrate.c — netsim calibrate (not built yet: see the open issues). */
#include "config.h"
#include "cmd.h"

/* Placeholder until the calibrate command lands. */
int
ns_cmd_calibrate (int argc, char **argv)
{
  g_printerr ("netsim calibrate: not implemented yet\n");
  return NS_EXIT_USAGE;
}
