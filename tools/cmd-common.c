/* cmd-common.c — helpers shared by the netsim subcommands. */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <glib/gstdio.h>
#include "common.h"
#include "cmd.h"
#include "scenario.h"
#include "mitigation.h"
#include "profile.h"
#include "xml.h"

/* Prints err as "netsim COMMAND: …" (the command main() named with g_set_prgname, as
 * option errors name it) and returns the exit status its code calls for. */
int
ns_cmd_fail (GError *err)
{
  int status = err->domain == NS_ERROR && err->code == NS_ERROR_CHECK ? NS_EXIT_CHECK : NS_EXIT_USAGE;
  const char *command = g_get_prgname ();

  if (command != NULL && strcmp (command, "netsim"))
    g_printerr ("netsim %s: %s\n", command, err->message);
  else
    g_printerr ("netsim: %s\n", err->message);
  g_error_free (err);
  return status;
}

/* TRUE if path exists and is neither a regular file nor a folder (a device, a FIFO,
 * /dev/stdout): such an output is written in place, never replaced. */
static gboolean
is_special (const char *path)
{
  return g_file_test (path, G_FILE_TEST_EXISTS) &&
         !g_file_test (path, G_FILE_TEST_IS_REGULAR | G_FILE_TEST_IS_DIR);
}

/* Writes data into the special file at path (fopen "w"); FALSE with an error if not. */
static gboolean
write_in_place (const char *path, const GString *data, GError **error)
{
  FILE *f = fopen (path, "w");

  if (f == NULL || fwrite (data->str, 1, data->len, f) != data->len || fclose (f) != 0) {
    int saved = errno;
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "cannot write %s: %s",
                 path, g_strerror (saved));
    return FALSE;
  }
  return TRUE;
}

/* The path path names once its symbolic links are followed (a link's target, that
 * target's if it is a link too, …, even if the last does not exist), path itself if it is
 * no link; newly allocated. Gives up after 40 links, as the kernel does (ELOOP), and then
 * returns the path reached, which is still a link: a caller tells a loop by that. */
static char *
follow_links (const char *path)
{
  char *current = g_strdup (path);

  for (guint hops = 0; hops < 40 && g_file_test (current, G_FILE_TEST_IS_SYMLINK); hops++) {
    g_autofree char *target = g_file_read_link (current, NULL);
    g_autofree char *folder = NULL;

    if (target == NULL)
      break;
    folder = g_path_get_dirname (current);
    g_free (current);
    current = g_path_is_absolute (target) ? g_steal_pointer (&target)
                                          : g_build_filename (folder, target, NULL);
  }
  return current;
}

/* TRUE if folder, its symbolic links resolved, is this process's descriptor folder
 * (/proc/self/fd, which /dev/fd names too). */
static gboolean
is_descriptor_folder (const char *folder)
{
  g_autofree char *real = realpath (folder, NULL);
  g_autofree char *own = realpath ("/proc/self/fd", NULL);

  return real != NULL && own != NULL && strcmp (real, own) == 0;
}

/* The descriptor of this process path names (/dev/stdout, /dev/fd/N, /proc/self/fd/N,
 * or a symbolic link to one), open or not; see cmd.h. */
int
ns_cmd_named_descriptor (const char *path)
{
  g_autofree char *current = NULL;
  guint64 fd;

  g_return_val_if_fail (path != NULL, -1);
  current = g_strdup (path);
  for (guint hops = 0; hops < 40; hops++) {
    g_autofree char *folder = g_path_get_dirname (current);
    g_autofree char *base = g_path_get_basename (current);
    g_autofree char *target = NULL;

    if (g_ascii_string_to_unsigned (base, 10, 0, G_MAXINT, &fd, NULL) &&
        is_descriptor_folder (folder))
      return (int) fd;
    if (!g_file_test (current, G_FILE_TEST_IS_SYMLINK) ||
        (target = g_file_read_link (current, NULL)) == NULL)
      break;
    g_free (current);
    current = g_path_is_absolute (target) ? g_steal_pointer (&target)
                                          : g_build_filename (folder, target, NULL);
  }
  return -1;
}

/* Writes data to descriptor fd where it stands (stdout through its stream, which is
 * flushed); FALSE with an error naming path if not. */
static gboolean
write_descriptor (int fd, const char *path, const GString *data, GError **error)
{
  gsize done = 0;

  if (fd == STDOUT_FILENO) {
    fwrite (data->str, 1, data->len, stdout);
    if (fflush (stdout) == 0 && !ferror (stdout))
      return TRUE;
    goto failed;
  }
  fflush (stdout);
  while (done < data->len) {
    gssize n = write (fd, data->str + done, data->len - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      goto failed;
    done += (gsize) n;
  }
  return TRUE;

/* ERRORS */
failed:
  {
    int saved = errno;
    if (fd == STDOUT_FILENO && !strcmp (path, "-"))
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   "writing standard output: %s", g_strerror (saved));
    else
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "cannot write %s: %s",
                   path, g_strerror (saved));
  }
  return FALSE;
}

/* Writes data to path atomically (temporary file + rename in the folder of the file a
 * symbolic link names, so the link stays and its target is replaced), a device or FIFO in
 * place, to stdout for NULL or "-", and to a descriptor a name such as /dev/stdout gives
 * where it stands (never reopened: a file the shell appends to stays appended to). */
gboolean
ns_cmd_write_output (const char *path, const GString *data, GError **error)
{
  g_autofree char *target = NULL;
  int fd;

  if (path == NULL || !strcmp (path, "-"))
    return write_descriptor (STDOUT_FILENO, "-", data, error);
  fd = ns_cmd_named_descriptor (path);
  if (fd >= 0)
    return write_descriptor (fd, path, data, error);
  if (is_special (path))
    return write_in_place (path, data, error);
  target = follow_links (path);
  if (g_file_set_contents (target, data->str, data->len, error))
    return TRUE;
  g_prefix_error (error, "cannot write %s: ", path);
  return FALSE;
}

/* Writes the bytes of the file from to path as ns_cmd_write_output does (a regular file
 * whole or not at all, a device or FIFO in place). */
gboolean
ns_cmd_copy_output (const char *from, const char *path, GError **error)
{
  g_autofree char *bytes = NULL;
  gsize len;
  GString *data;
  gboolean ok;

  if (!g_file_get_contents (from, &bytes, &len, error))
    return FALSE;
  data = g_string_new_len (bytes, (gssize) len);
  ok = ns_cmd_write_output (path, data, error);
  g_string_free (data, TRUE);
  return ok;
}

/* TRUE if path names no file yet, not even through a dangling symbolic link: a file
 * written there is this run's own, and may be removed again. */
static gboolean
is_new_file (const char *path)
{
  return path != NULL && strcmp (path, "-") != 0 && !g_file_test (path, G_FILE_TEST_EXISTS) &&
         !g_file_test (path, G_FILE_TEST_IS_SYMLINK);
}

/* Writes every output, the new files first, removing the new files written if one
 * fails; see cmd.h. */
gboolean
ns_cmd_write_outputs (const char *const *paths, const GString *const *data, guint n,
                      GError **error)
{
  g_autoptr (GPtrArray) created = g_ptr_array_new ();
  g_autofree gboolean *fresh = g_new0 (gboolean, n + 1);
  gboolean ok = TRUE;

  for (guint i = 0; i < n; i++)                      /* judged once, before any write */
    fresh[i] = is_new_file (paths[i]);
  for (guint pass = 0; pass < 2 && ok; pass++)       /* 0: new files, 1: the others */
    for (guint i = 0; i < n && ok; i++) {
      if (data[i] == NULL || fresh[i] != (pass == 0))
        continue;
      ok = ns_cmd_write_output (paths[i], data[i], error);
      if (ok && fresh[i])
        g_ptr_array_add (created, (gpointer) paths[i]);
    }
  for (guint i = 0; !ok && i < created->len; i++)
    g_unlink (created->pdata[i]);
  return ok;
}

/* TRUE if the rename of a new file over the existing file at path (in folder) is
 * refused by the folder's sticky bit: neither the file nor the folder is ours. */
static gboolean
sticky_refuses (const char *path, const char *folder)
{
  GStatBuf file_st, folder_st;

  if (geteuid () == 0 || g_stat (path, &file_st) != 0 || g_stat (folder, &folder_st) != 0)
    return FALSE;
  return (folder_st.st_mode & S_ISVTX) && file_st.st_uid != geteuid () &&
         folder_st.st_uid != geteuid ();
}

/* TRUE if a file can be created in folder, as the write will (a temporary beside the
 * output, renamed over it): tried, since the permission bits do not tell for root in a
 * pseudo file system such as /proc or /sys; FALSE with errno set otherwise. */
static gboolean
folder_takes_files (const char *folder)
{
  g_autofree char *probe = g_build_filename (folder, ".netsim-probe-XXXXXX", NULL);
  int fd = g_mkstemp_full (probe, O_WRONLY | O_CLOEXEC, 0600);

  if (fd < 0)
    return FALSE;
  close (fd);
  g_unlink (probe);
  return TRUE;
}

/* TRUE if text holds a control character (a newline, a carriage return, …, DEL). */
static gboolean
has_control_char (const char *text)
{
  for (const char *p = text; *p; p++)
    if (g_ascii_iscntrl (*p))
      return TRUE;
  return FALSE;
}

/* TRUE if descriptor fd (which path names) is open for writing; else FALSE with an
 * input error naming path. */
static gboolean
descriptor_writable (int fd, const char *path, GError **error)
{
  int flags = fcntl (fd, F_GETFL);

  if (flags < 0)
    goto closed;
  if ((flags & O_ACCMODE) == O_RDONLY)
    goto read_only;
  return TRUE;

/* ERRORS */
closed:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "cannot write %s: descriptor %d is not "
               "open", path, fd);
  return FALSE;
read_only:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "cannot write %s: descriptor %d is open "
               "for reading only", path, fd);
  return FALSE;
}

/* TRUE if path (NULL or "-": standard output) can be written later: a device or FIFO we
 * may write; else not a folder, an existing file we may write and replace, in a folder
 * that exists and is writable (for a symbolic link: its target's folder; a loop of links
 * is refused); FALSE with an error naming path otherwise. An empty name, and a name with
 * a control character (which would break the lines that quote it, such as a gnuplot
 * script's), are refused. */
gboolean
ns_cmd_check_output (const char *path, GError **error)
{
  g_autofree char *folder = NULL, *target = NULL, *shown = NULL;
  int fd;

  if (path == NULL || !strcmp (path, "-"))
    return TRUE;
  if (path[0] == '\0')
    goto empty_name;
  if (has_control_char (path))
    goto control_char;
  fd = ns_cmd_named_descriptor (path);
  if (fd >= 0)
    return descriptor_writable (fd, path, error);
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    goto is_folder;
  if (is_special (path)) {
    if (access (path, W_OK) != 0)
      goto special_refused;
    return TRUE;
  }
  target = follow_links (path);
  if (g_file_test (target, G_FILE_TEST_IS_SYMLINK))
    goto link_loop;
  folder = g_path_get_dirname (target);
  if (!g_file_test (folder, G_FILE_TEST_IS_DIR))
    goto no_folder;
  if (access (folder, W_OK) != 0)
    goto read_only;
  if (!folder_takes_files (folder))
    goto no_new_file;
  if (g_file_test (target, G_FILE_TEST_EXISTS) &&
      (access (target, W_OK) != 0 || sticky_refuses (target, folder)))
    goto not_replaceable;
  return TRUE;

/* ERRORS */
empty_name:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "cannot write '': empty file name");
  return FALSE;
control_char:
  shown = g_strescape (path, NULL);
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "cannot write '%s': the file name holds a "
               "control character (newline, carriage return, …); give another name", shown);
  return FALSE;
is_folder:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "cannot write %s: it is a folder", path);
  return FALSE;
link_loop:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "cannot write %s: too many levels of "
               "symbolic links", path);
  return FALSE;
no_folder:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "cannot write %s: no folder %s", path,
               folder);
  return FALSE;
read_only:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "cannot write %s: folder %s: %s", path,
               folder, g_strerror (errno));
  return FALSE;
no_new_file:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "cannot write %s: folder %s takes no new "
               "file (%s)", path, folder, g_strerror (errno));
  return FALSE;
special_refused:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "cannot write %s: %s", path,
               g_strerror (errno));
  return FALSE;
not_replaceable:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "cannot write %s: it exists and this user "
               "may not write or replace it", path);
  return FALSE;
}

/* TRUE with *seed set if text is a seed (decimal, 0 to 2^64 - 1); else prints
 * "netsim COMMAND: --seed: expected …" and returns FALSE. */
gboolean
ns_cmd_parse_seed (const char *command, const char *text, guint64 *seed)
{
  if (g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT64, seed, NULL))
    return TRUE;
  g_printerr ("netsim %s: --seed: expected 0 to %" G_GUINT64_FORMAT ", got '%s'\n", command,
              G_MAXUINT64, text);
  return FALSE;
}


/* TRUE unless seed (the --seed text, or NULL) and one of sets (PATH=VALUE strings of the
 * option by, may be NULL; sweep's --param seed=VALUES too) both give the seed; then prints
 * "netsim COMMAND: --seed S and BY seed=N both give the seed …" and returns FALSE. */
gboolean
ns_cmd_check_one_seed (const char *command, const char *seed, char **sets, const char *by)
{
  for (guint i = 0; seed != NULL && sets != NULL && sets[i] != NULL; i++)
    if (g_str_has_prefix (sets[i], "seed=")) {
      g_printerr ("netsim %s: --seed %s and %s %s both give the seed (%s): give one\n",
                  command, seed, by, sets[i], strcmp (by, "--param") ? "--seed would win "
                  "over it" : "each point runs its swept seed, so --seed would change nothing");
      return FALSE;
    }
  return TRUE;
}

/* FALSE, after saying so, if two of sets (PATH=VALUE, by the option by) set the same
 * attribute, however spelt: the last would win silently while both were reported. */
gboolean
ns_cmd_check_sets_once (const char *command, char **sets, const char *by)
{
  for (guint i = 0; sets != NULL && sets[i] != NULL; i++) {
    g_autofree char *key = ns_scenario_set_key (sets[i]);
    for (guint j = 0; j < i; j++) {
      g_autofree char *key2 = ns_scenario_set_key (sets[j]);
      if (g_str_equal (key, key2)) {
        g_printerr ("netsim %s: %s %s and %s %s set the same attribute (the last would "
                    "win): give one\n", command, by, sets[j], by, sets[i]);
        return FALSE;
      }
    }
  }
  return TRUE;
}

/* A single-valued option of ns_cmd_add_entries: where its value goes, and whether it was
 * given already. */
typedef struct {
  char          *long_name;     /* "--name" */
  char          *short_name;    /* "-c", or NULL */
  GOptionArg     arg;           /* G_OPTION_ARG_STRING, _FILENAME or _INT */
  gpointer       arg_data;      /* char ** or gint * */
  gboolean       given;
  char          *range;         /* an INT's range as a message gives it, else NULL */
  gint           min, max;      /* with range: the values it takes */
} OnceOption;

/* Frees a OnceOption. */
static void
once_option_free (gpointer p)
{
  OnceOption *once = p;

  g_free (once->long_name);
  g_free (once->short_name);
  g_free (once->range);
  g_free (once);
}

/* TRUE if arg is a kind of option that takes one value (kept by take_once). */
static gboolean
is_single_valued (GOptionArg arg)
{
  return arg == G_OPTION_ARG_STRING || arg == G_OPTION_ARG_FILENAME || arg == G_OPTION_ARG_INT;
}

/* TRUE if entry's option always takes a value (an optional one does not count). */
static gboolean
takes_value (const GOptionEntry *entry)
{
  if (entry->arg == G_OPTION_ARG_NONE || entry->long_name[0] == '\0')  /* G_OPTION_REMAINING */
    return FALSE;
  return !(entry->flags & (G_OPTION_FLAG_NO_ARG | G_OPTION_FLAG_OPTIONAL_ARG));
}

/* The OnceOption array of a context's main group, and what ns_cmd_parse_options needs to
 * read "-jN" as "-j N". */
struct _NsCmdOptions {
  GPtrArray *once;
  GString   *valued_shorts;     /* the short names of the options taking a value */
  GPtrArray *valued_longs;      /* "--NAME" of those options */
  GPtrArray *split_argv;        /* the strings of the argv ns_cmd_parse_options made, then
                                   that argv */
};

/* Frees an NsCmdOptions (the main group's user data). */
static void
cmd_options_free (gpointer p)
{
  NsCmdOptions *options = p;

  g_ptr_array_unref (options->once);
  g_string_free (options->valued_shorts, TRUE);
  g_ptr_array_unref (options->valued_longs);
  if (options->split_argv)
    g_ptr_array_unref (options->split_argv);
  g_free (options);
}

/* Stores text in once's variable as its option's type says; FALSE with
 * G_OPTION_ERROR_BAD_VALUE for an INT that is not a number (strtol's bases, as GLib parses
 * one) or is out of its range (once->range's if it has one, else gint's; saying which). */
static gboolean
store_value (const OnceOption *once, const char *option_name, const char *text,
             GError **error)
{
  gint64 number;
  char *end;

  if (once->arg != G_OPTION_ARG_INT) {
    *(char **) once->arg_data = g_strdup (text);  /* the caller's default is its own */
    return TRUE;
  }
  errno = 0;
  number = g_ascii_strtoll (text, &end, 0);
  if (end == text || *end != '\0')
    goto not_a_number;
  if (once->range && (errno == ERANGE || number < once->min || number > once->max))
    goto out_of_its_range;
  if (errno == ERANGE || number < G_MININT || number > G_MAXINT)
    goto out_of_range;
  *(gint *) once->arg_data = (gint) number;
  return TRUE;

/* ERRORS */
not_a_number:
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s: expected an integer, "
               "got '%s'", option_name, text);
  return FALSE;
out_of_its_range:
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s: expected %s, got '%s'",
               option_name, once->range, text);
  return FALSE;
out_of_range:
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s: %s is out of range "
               "(%d to %d)", option_name, text, G_MININT, G_MAXINT);
  return FALSE;
}

/* GOptionArgFunc of the single-valued options of ns_cmd_add_entries (data: their
 * NsCmdOptions): keeps the value, or fails if the option was given before. */
static gboolean
take_once (const char *option_name, const char *value, gpointer data, GError **error)
{
  GPtrArray *options = ((NsCmdOptions *) data)->once;

  for (guint i = 0; i < options->len; i++) {
    OnceOption *once = options->pdata[i];
    if (strcmp (option_name, once->long_name) != 0 &&
        (once->short_name == NULL || strcmp (option_name, once->short_name) != 0))
      continue;
    if (once->given)
      goto given_twice;
    once->given = TRUE;
    return store_value (once, option_name, value, error);
  }
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, "%s: not an option", option_name);
  return FALSE;

/* ERRORS */
given_twice:
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, "%s given twice: it takes one "
               "value", option_name);
  return FALSE;
}

/* Adds entries (ended by a NULL long name) as ctx's main options; see cmd.h. */
NsCmdOptions *
ns_cmd_add_entries (GOptionContext *ctx, const GOptionEntry *entries)
{
  NsCmdOptions *result;
  GPtrArray *options;
  GOptionGroup *group;
  g_autoptr (GArray) copies = NULL;

  g_return_val_if_fail (ctx != NULL && entries != NULL, NULL);
  options = g_ptr_array_new_with_free_func (once_option_free);
  result = g_new0 (NsCmdOptions, 1);
  result->once = options;
  result->valued_shorts = g_string_new (NULL);
  result->valued_longs = g_ptr_array_new_with_free_func (g_free);
  group = g_option_group_new (NULL, NULL, NULL, result, cmd_options_free);
  copies = g_array_new (TRUE, TRUE, sizeof (GOptionEntry));
  for (guint i = 0; entries[i].long_name != NULL; i++) {
    GOptionEntry entry = entries[i];
    if (takes_value (&entry)) {
      if (entry.short_name)
        g_string_append_c (result->valued_shorts, entry.short_name);
      g_ptr_array_add (result->valued_longs, g_strconcat ("--", entry.long_name, NULL));
    }
    if (is_single_valued (entry.arg)) {
      OnceOption *once = g_new0 (OnceOption, 1);
      once->long_name = g_strconcat ("--", entry.long_name, NULL);
      once->short_name = entry.short_name ? g_strdup_printf ("-%c", entry.short_name) : NULL;
      once->arg = entry.arg;
      once->arg_data = entry.arg_data;
      g_ptr_array_add (options, once);
      if (entry.arg == G_OPTION_ARG_FILENAME)
        entry.flags |= G_OPTION_FLAG_FILENAME;
      entry.arg = G_OPTION_ARG_CALLBACK;
      entry.arg_data = (gpointer) take_once;
    }
    g_array_append_val (copies, entry);
  }
  g_option_group_add_entries (group, (const GOptionEntry *) copies->data);
  g_option_context_set_main_group (ctx, group);
  return result;
}

/* The OnceOption of options that stores into arg_data. */
static OnceOption *
find_once (const NsCmdOptions *options, gconstpointer arg_data)
{
  for (guint i = 0; i < options->once->len; i++) {
    OnceOption *once = options->once->pdata[i];
    if (once->arg_data == arg_data)
      return once;
  }
  g_return_val_if_reached (NULL);
}

/* The most --jobs takes: 4 × the processors this process may run on. */
gint
ns_cmd_max_jobs (void)
{
  return 4 * (gint) MIN (g_get_num_processors (), 1u << 20);
}

/* "1 to MAX (4 × the N processors here: …)", --jobs's range as its messages give it;
 * newly allocated. */
static char *
jobs_range (void)
{
  return g_strdup_printf ("1 to %d (4 × the %u processors here: more only share them "
                          "thinner)", ns_cmd_max_jobs (), g_get_num_processors ());
}

/* Makes the INT option storing into arg_data take min to max only; see cmd.h. */
void
ns_cmd_limit_int (NsCmdOptions *options, gint *arg_data, gint min, gint max,
                  const char *range)
{
  OnceOption *once;

  g_return_if_fail (options != NULL && arg_data != NULL && range != NULL && min <= max);
  once = find_once (options, arg_data);
  g_return_if_fail (once != NULL && once->arg == G_OPTION_ARG_INT);
  g_free (once->range);
  once->range = g_strdup (range);
  once->min = min;
  once->max = max;
}

/* Makes the INT option storing into jobs take 1 to ns_cmd_max_jobs (); see cmd.h. */
void
ns_cmd_limit_jobs (NsCmdOptions *options, gint *jobs)
{
  g_autofree char *range = jobs_range ();

  ns_cmd_limit_int (options, jobs, 1, ns_cmd_max_jobs (), range);
}

/* Whether the single-valued option storing into arg_data was given; see cmd.h. */
gboolean
ns_cmd_given (const NsCmdOptions *options, gconstpointer arg_data)
{
  const OnceOption *once;

  g_return_val_if_fail (options != NULL, FALSE);
  once = find_once (options, arg_data);
  return once != NULL && once->given;
}

/* Parses a subcommand's options (argv[0] is its name; options, if not NULL, ctx's from
 * ns_cmd_add_entries: then "-jN" is "-j N"); prints usage errors as "netsim NAME: …";
 * returns FALSE to exit with 2. */
/* TRUE if arg is "-Xvalue" for a short option X of options that takes a value. */
static gboolean
is_attached_short (const NsCmdOptions *options, const char *arg)
{
  return arg[0] == '-' && arg[1] != '-' && arg[1] != '\0' && arg[2] != '\0' &&
         strchr (options->valued_shorts->str, arg[1]) != NULL;
}

/* TRUE if arg is an option of options whose value is the next argument. */
static gboolean
value_follows (const NsCmdOptions *options, const char *arg)
{
  if (arg[0] != '-' || arg[1] == '\0')
    return FALSE;
  if (arg[1] != '-')
    return arg[2] == '\0' && strchr (options->valued_shorts->str, arg[1]) != NULL;
  for (guint i = 0; i < options->valued_longs->len; i++)
    if (strcmp (arg, options->valued_longs->pdata[i]) == 0)
      return TRUE;
  return FALSE;
}

/* Makes *argv read "-jN" (a short option's value attached, as make and getopt take it) as
 * "-j" "N", which is all GOption reads, up to a "--"; the new argv is options'. */
static void
split_attached_values (NsCmdOptions *options, int *argc, char ***argv)
{
  g_autoptr (GPtrArray) split = g_ptr_array_new_with_free_func (g_free);
  gboolean changed = FALSE, done = FALSE;

  for (int i = 0; i < *argc; i++) {
    const char *arg = (*argv)[i];
    if (i > 0 && !done && strcmp (arg, "--") == 0)
      done = TRUE;
    if (i > 0 && !done && is_attached_short (options, arg)) {
      g_ptr_array_add (split, g_strndup (arg, 2));
      g_ptr_array_add (split, g_strdup (arg + 2));
      changed = TRUE;
      continue;
    }
    g_ptr_array_add (split, g_strdup (arg));
    if (i > 0 && !done && value_follows (options, arg) && i + 1 < *argc)
      g_ptr_array_add (split, g_strdup ((*argv)[++i]));
  }
  if (!changed)
    return;
  /* GOption drops what it parses from argv: the strings stay owned by split */
  *argc = (int) split->len;
  *argv = g_new0 (char *, split->len + 1);
  memcpy (*argv, split->pdata, split->len * sizeof (char *));
  options->split_argv = g_steal_pointer (&split);
  g_ptr_array_add (options->split_argv, *argv);
}

gboolean
ns_cmd_parse_options (GOptionContext *ctx, NsCmdOptions *options, int *argc, char ***argv)
{
  g_autofree char *name = g_strdup ((*argv)[0]);
  GError *err = NULL;

  if (options != NULL)
    split_attached_values (options, argc, argv);
  if (g_option_context_parse (ctx, argc, argv, &err))
    return TRUE;
  g_printerr ("netsim %s: %s\n(see netsim %s --help)\n", name, err->message, name);
  g_error_free (err);
  return FALSE;
}

/* The gnuplot to use: $NETSIM_GNUPLOT if set (empty: none), else the one configure found. */
const char *
ns_cmd_gnuplot_path (void)
{
  const char *env = g_getenv ("NETSIM_GNUPLOT");

  return env != NULL ? env : NS_GNUPLOT;
}

/* TRUE if ns_cmd_gnuplot_path() names an executable. */
gboolean
ns_cmd_have_gnuplot (void)
{
  const char *path = ns_cmd_gnuplot_path ();

  return path[0] != '\0' && g_file_test (path, G_FILE_TEST_IS_EXECUTABLE);
}

/* What to do about a gnuplot ns_cmd_have_gnuplot() did not find, for a message. */
char *
ns_cmd_gnuplot_hint (void)
{
  const char *env = g_getenv ("NETSIM_GNUPLOT");

  if (env == NULL)
    return g_strdup_printf ("configure found none; install gnuplot and re-run configure");
  if (env[0] == '\0')
    return g_strdup ("NETSIM_GNUPLOT is set and empty, which means none; unset it to use "
                     "configure's");
  return g_strdup_printf ("NETSIM_GNUPLOT names '%s', which is not an executable; unset it "
                          "or name a gnuplot", env);
}

/* text as a single-quoted gnuplot literal (a quote doubled, a newline a space). */
char *
ns_cmd_gnuplot_quote (const char *text)
{
  GString *out = g_string_new ("'");

  for (const char *p = text; *p; p++) {
    if (*p == '\'')
      g_string_append_c (out, '\'');
    g_string_append_c (out, *p == '\n' ? ' ' : *p);
  }
  g_string_append_c (out, '\'');
  return g_string_free (out, FALSE);
}

/* The folder of the recorded results: recorded, else <datadir>/validation; newly allocated. */
char *
ns_cmd_validation_dir (const char *recorded)
{
  return recorded ? g_strdup (recorded) : g_build_filename (ns_data_dir (), "validation", NULL);
}

/* TRUE if a and b name one file; see cmd.h. */
gboolean
ns_cmd_same_file (const char *a, const char *b)
{
  g_autofree char *fa = NULL, *fb = NULL, *ca = NULL, *cb = NULL;
  GStatBuf sa, sb;

  if (a == NULL || b == NULL)
    return FALSE;
  if (g_stat (a, &sa) == 0 && g_stat (b, &sb) == 0)
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  fa = follow_links (a);
  fb = follow_links (b);
  ca = g_canonicalize_filename (fa, NULL);
  cb = g_canonicalize_filename (fb, NULL);
  return !strcmp (ca, cb);
}

/* TRUE if path is "-" or the file standard output writes to (not a device that keeps
 * nothing, such as /dev/null); see cmd.h. */
gboolean
ns_cmd_names_stdout (const char *path)
{
  GStatBuf sp;
  struct stat so;

  if (path == NULL)
    return FALSE;
  if (strcmp (path, "-") == 0)
    return TRUE;
  if (fstat (STDOUT_FILENO, &so) != 0 || g_stat (path, &sp) != 0)
    return FALSE;
  if (S_ISCHR (so.st_mode) && !isatty (STDOUT_FILENO))
    return FALSE;
  return so.st_dev == sp.st_dev && so.st_ino == sp.st_ino;
}

/* TRUE if outputs a and b would overwrite each other; see cmd.h. */
gboolean
ns_cmd_outputs_clash (const char *a, const char *b)
{
  int fd;

  if (a == NULL || b == NULL)
    return FALSE;
  /* one descriptor named twice mixes two outputs, whatever it is open on; a descriptor
   * open on a regular file is that file (written in place, it still overwrites) */
  fd = ns_cmd_named_descriptor (a);
  if (fd >= 0 && fd == ns_cmd_named_descriptor (b))
    return TRUE;
  if (is_special (a) || is_special (b))
    return FALSE;
  return ns_cmd_same_file (a, b);
}

/* TRUE unless output (given by option) is the file input (what it is to the command)
 * names; see cmd.h. */
gboolean
ns_cmd_check_not_input (const char *option, const char *output, const char *what,
                        const char *input, GError **error)
{
  g_return_val_if_fail (option != NULL && what != NULL, FALSE);
  if (output == NULL || !strcmp (output, "-") || !ns_cmd_outputs_clash (output, input))
    return TRUE;
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s %s would overwrite %s %s (one file), "
               "which this command reads: name another output", option, output, what, input);
  return FALSE;
}

/* TRUE unless output is one of inputs; see cmd.h. */
gboolean
ns_cmd_check_not_inputs (const char *option, const char *output, const char *what,
                         const char *const *inputs, GError **error)
{
  for (guint i = 0; inputs && inputs[i]; i++)
    if (!ns_cmd_check_not_input (option, output, what, inputs[i], error))
      return FALSE;
  return TRUE;
}

/* The scenario file arg names: itself, else the data folder's file of that name; NULL
 * with an error for an empty name or a file that is not a regular one. */
char *
ns_cmd_scenario_path (const char *arg, GError **error)
{
  g_autofree char *in_data = NULL, *path = NULL;

  if (arg[0] == '\0')
    goto error_empty;
  in_data = g_build_filename (ns_data_dir (), arg, NULL);
  if (g_path_is_absolute (arg) || g_file_test (arg, G_FILE_TEST_EXISTS) ||
      !g_file_test (in_data, G_FILE_TEST_EXISTS))
    path = g_strdup (arg);
  else
    path = g_steal_pointer (&in_data);
  if (!ns_xml_check_regular (path, error))
    return NULL;
  return g_steal_pointer (&path);

/* ERRORS */
error_empty:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "the scenario name is empty: give a scenario "
               "file, or a name netsim list prints");
  return NULL;
}

/* TRUE if 1 ≤ jobs ≤ ns_cmd_max_jobs (); else prints "netsim COMMAND: --jobs: expected
 * 1 to MAX (…), got JOBS" and returns FALSE. */
gboolean
ns_cmd_check_jobs (const char *command, gint jobs)
{
  g_autofree char *range = NULL;

  if (jobs >= 1 && jobs <= ns_cmd_max_jobs ())
    return TRUE;
  range = jobs_range ();
  g_printerr ("netsim %s: --jobs: expected %s, got %d\n", command, range, jobs);
  return FALSE;
}

/* Prints notes as "netsim COMMAND: note: …" lines on stderr, or why they could not be
 * made; frees both. */
void
ns_cmd_print_notes (const char *command, char **notes, GError *error)
{
  if (notes == NULL) {
    g_printerr ("netsim %s: note: fitted values not checked: %s\n", command,
                error ? error->message : "?");
    g_clear_error (&error);
    return;
  }
  for (guint i = 0; notes[i]; i++)
    g_printerr ("netsim %s: note: %s\n", command, notes[i]);
  g_strfreev (notes);
}

/* Prints on stderr, once each (seen: the words noted so far, owned keys), a note for every
 * word of cmdline that no model reads (ns_mitigation_cmdline_unread: a typo such as
 * "mitigation=off", or a parameter such as "nosmt" netsim does not model). */
void
ns_cmd_note_unread_cmdline (const char *command, GHashTable *seen, const char *cmdline)
{
  g_auto (GStrv) unread = NULL;
  g_autofree char *keys = NULL;

  g_return_if_fail (command != NULL && seen != NULL);
  if (cmdline == NULL)
    return;
  unread = ns_mitigation_cmdline_unread (cmdline);
  for (guint k = 0; unread[k]; k++) {
    g_autoptr (GString) shown = g_string_new (NULL);
    if (!g_hash_table_add (seen, g_strdup (unread[k])))
      continue;
    if (keys == NULL)
      keys = ns_mitigation_cmdline_keys ();
    ns_escape_controls (shown, unread[k]);
    g_printerr ("netsim %s: note: kernel command line: no model reads '%s', so it changed "
                "nothing (a typo? the keys read are %s; the kernel too passes a parameter "
                "it does not know on to init)\n", command, shown->str, keys);
  }
}

/* Prints on stderr, once each (seen: the texts noted so far, not owned), a note for every
 * variant's own <set> a --set overrode (NsScenario.replaced, may be NULL). */
void
ns_cmd_note_replaced (const char *command, GHashTable *seen, char **replaced)
{
  g_return_if_fail (command != NULL && seen != NULL);

  for (guint k = 0; replaced && replaced[k]; k++)
    if (g_hash_table_add (seen, replaced[k]))
      g_printerr ("netsim %s: note: %s: a command-line set wins over a variant's own, so "
                  "that variant runs its value%s\n", command, replaced[k],
                  strcmp (command, "run") == 0
                  ? " (--what-if compares every variant with it instead)" : "");
}

/* Seconds as m:ss or h:mm:ss ("?" if unknown: s < 0); see cmd.h. */
char *
ns_cmd_format_duration (double s)
{
  guint64 t = s < 0 ? 0 : (guint64) llround (s);

  if (s < 0)
    return g_strdup ("?");
  if (t >= 3600)
    return g_strdup_printf ("%" G_GUINT64_FORMAT ":%02u:%02u", t / 3600,
                            (guint) (t / 60 % 60), (guint) (t % 60));
  return g_strdup_printf ("%u:%02u", (guint) (t / 60), (guint) (t % 60));
}
