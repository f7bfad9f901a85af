/* cmd-common.c — helpers shared by the netsim subcommands. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "common.h"
#include "cmd.h"

/* Prints err and returns the exit status its code calls for. */
int
ns_cmd_fail (GError *err)
{
  int status = err->domain == NS_ERROR && err->code == NS_ERROR_CHECK ? NS_EXIT_CHECK : NS_EXIT_USAGE;

  g_printerr ("netsim: %s\n", err->message);
  g_error_free (err);
  return status;
}

/* Writes data to path atomically (temporary file + rename), or to stdout for NULL or "-". */
gboolean
ns_cmd_write_output (const char *path, const GString *data, GError **error)
{
  if (path == NULL || !strcmp (path, "-")) {
    fwrite (data->str, 1, data->len, stdout);
    return fflush (stdout) == 0;
  }
  return g_file_set_contents (path, data->str, data->len, error);
}


/* Parses a subcommand's options; prints usage errors; returns FALSE to exit with 2. */
gboolean
ns_cmd_parse_options (GOptionContext *ctx, int *argc, char ***argv)
{
  GError *err = NULL;

  if (g_option_context_parse (ctx, argc, argv, &err))
    return TRUE;
  g_printerr ("netsim: %s\n(see --help)\n", err->message);
  g_error_free (err);
  return FALSE;
}
