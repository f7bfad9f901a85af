/* cmd-validate.c — netsim validate (not built yet: see the open issues). */
#include "config.h"
#include "cmd.h"

/* Placeholder until the validate command lands. */
int
ns_cmd_validate (int argc, char **argv)
{
  g_printerr ("netsim validate: not implemented yet\n");
  return NS_EXIT_USAGE;
}
