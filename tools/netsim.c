/* netsim.c — the command line: dispatches to one file per subcommand (tools/cmd-*.c).
 * Exit status: 0 ran fine, 1 a check failed, 2 bad input or usage. */
#include "config.h"
#include <errno.h>
#include <locale.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cmd.h"
#include "param.h"

typedef struct {
  const char *name;
  const char *summary;
  int       (*main) (int argc, char **argv);
} NsCommand;

static const NsCommand commands[] = {
  { "run", "run a scenario and print its results", ns_cmd_run },
  { "validate", "compare predictions with the recorded hardware results", ns_cmd_validate },
  { "calibrate", "fit parameters on calibration rows; --host: profile this machine",
    ns_cmd_calibrate },
  { "sweep", "run a scenario over a grid of parameter values", ns_cmd_sweep },
  { "list", "list scenarios, CPU profiles, patches, parameters or workloads", ns_cmd_list },
};

/* Prints the usage text with the list of commands to `to`. */
static void
print_usage (FILE *to)
{
  fprintf (to, "Usage: netsim COMMAND [OPTIONS…]\n\n"
           "netsim replays Linux network-stack benchmarks on a cycle-approximate CPU model.\n\n"
           "Commands:\n");
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (to, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fprintf (to, "\nnetsim help COMMAND (or netsim COMMAND --help) explains each. netsim --version\n"
           "prints the version.\n"
           "Exit status: 0 ok, 1 a check failed, 2 bad input or usage; an internal error\n"
           "(a GLib critical) stops netsim with SIGABRT rather than print wrong results.\n");
}

/* A GLib critical in netsim is a broken invariant (a model touching host memory, a failed
 * precondition): the load or the step it refused is missing from the numbers, so the run
 * stops instead of printing them. Runs in child processes (--jobs) die the same way and
 * their parent reports the variant. */
static void
stop_on_critical (const gchar *domain, GLogLevelFlags level, const gchar *message,
                  gpointer data)
{
  g_log_default_handler (domain, level, message, data);
  g_printerr ("netsim: internal error (the critical above): stopping rather than print "
              "results it made wrong; please report it with the command line\n");
  abort ();
}

/* The errno of the first failed write to standard output, 0 if none failed. */
static int stdout_errno;
/* TRUE once finish_stdout has judged standard output. */
static gboolean stdout_judged;

/* GPrintFunc: writes and flushes g_print's text as GLib's own handler does, but notes the
 * first failure's errno (GLib's drops it). */
static void
print_to_stdout (const gchar *text)
{
  if ((fputs (text, stdout) == EOF || fflush (stdout) != 0) && stdout_errno == 0)
    stdout_errno = errno;
}

/* status, unless what was printed to standard output did not all get there (a full disk,
 * /dev/full, a closed pipe): then says so, as "netsim COMMAND: writing standard output: …",
 * and returns 2 for a status of 0 or 1 (the output is lost). A status of 2 or more is
 * kept as it is: the command said what went wrong (a failed -o - among it). */
static int
finish_stdout (const char *command, int status)
{
  stdout_judged = TRUE;
  if (fflush (stdout) != 0 && stdout_errno == 0)
    stdout_errno = errno;
  if ((stdout_errno == 0 && !ferror (stdout)) || status > NS_EXIT_CHECK)
    return status;
  g_printerr ("netsim%s%s: writing standard output: %s\n", command ? " " : "",
              command ? command : "", g_strerror (stdout_errno ? stdout_errno : EIO));
  return NS_EXIT_USAGE;
}

/* atexit: a subcommand's --help, which GLib's option parser prints and then exits on
 * without returning, is judged too (exit status 2 if it did not get there). */
static void
judge_stdout_at_exit (void)
{
  if (!stdout_judged && finish_stdout (g_get_prgname (), 0) != 0)
    _exit (NS_EXIT_USAGE);
}

/* The subcommand called name, or NULL. */
static const NsCommand *
find_command (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (!strcmp (name, commands[i].name))
      return &commands[i];
  return NULL;
}

/* Runs command with argv (argv[0] its name) under its name; returns its exit status. */
static int
run_command (const NsCommand *command, int argc, char **argv)
{
  g_set_prgname (command->name);
  return finish_stdout (command->name, command->main (argc, argv));
}

/* TRUE if arg is the option asking for the usage: "--help" or "-h". */
static gboolean
is_help (const char *arg)
{
  return !strcmp (arg, "--help") || !strcmp (arg, "-h");
}

/* TRUE if arg asks for the version: "--version" or "-V". */
static gboolean
is_version (const char *arg)
{
  return !strcmp (arg, "--version") || !strcmp (arg, "-V");
}

/* netsim help [COMMAND]: the usage (for no COMMAND, or help itself), or COMMAND's --help
 * (as netsim COMMAND --help); argv[0] is "help". An unknown or second COMMAND is a usage
 * error (2). */
static int
help (int argc, char **argv)
{
  const NsCommand *command = argc == 2 ? find_command (argv[1]) : NULL;
  char *args[] = { NULL, (char *) "--help", NULL };

  if (argc == 1 || (argc == 2 && (is_help (argv[1]) || !strcmp (argv[1], "help")))) {
    print_usage (stdout);
    return finish_stdout (NULL, 0);
  }
  if (command == NULL)
    goto not_one_command;
  args[0] = (char *) command->name;
  return run_command (command, 2, args);

/* ERRORS */
not_one_command:
  if (argc > 2)
    g_printerr ("netsim help: explains one command at a time, got %d\n\n", argc - 1);
  else
    g_printerr ("netsim help: unknown command '%s'\n\n", argv[1]);
  print_usage (stderr);
  return 2;
}

/* netsim COMMAND [OPTIONS…]: runs the named subcommand, or prints the version or usage;
 * exit status 0 ok, 1 a check failed, 2 bad input or usage. */
int
main (int argc, char **argv)
{
  const NsCommand *command;

  setlocale (LC_ALL, "");
  g_log_set_handler (G_LOG_DOMAIN, G_LOG_LEVEL_CRITICAL | G_LOG_FLAG_FATAL, stop_on_critical,
                     NULL);
  g_log_set_handler ("GLib", G_LOG_LEVEL_CRITICAL | G_LOG_FLAG_FATAL, stop_on_critical, NULL);
  g_set_print_handler (print_to_stdout);
  atexit (judge_stdout_at_exit);
  ns_param_registry_init ();
  if (argc < 2) {
    print_usage (stderr);
    return 2;
  }
  if (argc > 2 && (is_version (argv[1]) || is_help (argv[1])))
    goto stray_argument;
  if (is_version (argv[1])) {
#ifdef NS_WITH_ASAN
    g_print ("netsim %s (sanitizers)\n", PACKAGE_VERSION);
#else
    g_print ("netsim %s\n", PACKAGE_VERSION);
#endif
    return finish_stdout (NULL, 0);
  }
  if (is_help (argv[1])) {
    print_usage (stdout);
    return finish_stdout (NULL, 0);
  }
  if (!strcmp (argv[1], "help"))
    return help (argc - 1, argv + 1);
  command = find_command (argv[1]);
  if (command != NULL)
    return run_command (command, argc - 1, argv + 1);
  g_printerr ("netsim: unknown command '%s'\n\n", argv[1]);
  print_usage (stderr);
  return 2;

/* ERRORS */
stray_argument:
  g_printerr ("netsim: %s takes no argument, got '%s' (see netsim --help)\n", argv[1],
              argv[2]);
  return 2;
}
