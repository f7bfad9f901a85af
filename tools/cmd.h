/* cmd.h — the netsim subcommands (one file each) and helpers they share. */
#pragma once
#include <glib.h>

G_BEGIN_DECLS

#define NS_EXIT_OK    0
#define NS_EXIT_CHECK 1   /* ran, but a check failed */
#define NS_EXIT_USAGE 2   /* bad input or usage */

int      ns_cmd_run       (int argc, char **argv);   /* cmd-run.c */
int      ns_cmd_list      (int argc, char **argv);   /* cmd-list.c */
int      ns_cmd_validate  (int argc, char **argv);   /* cmd-validate.c */
int      ns_cmd_calibrate (int argc, char **argv);   /* cmd-calibrate.c */
int      ns_cmd_sweep     (int argc, char **argv);   /* cmd-sweep.c */

/* Prints err ("netsim COMMAND: message") and returns the exit status its code calls for;
 * frees it. */
int      ns_cmd_fail      (GError *err);
/* TRUE if a and b (either may be NULL: FALSE) name one file: the same device and inode
 * when both exist, else the same canonical path (symbolic links followed either way). */
gboolean ns_cmd_same_file (const char *a, const char *b);
/* TRUE if outputs a and b (either may be NULL: FALSE) would overwrite or mix with each
 * other: one descriptor named by both (ns_cmd_named_descriptor), or one file
 * (ns_cmd_same_file, a descriptor standing for the file it is open on) that is not a
 * device or FIFO, which are written in place, in order. */
gboolean ns_cmd_outputs_clash (const char *a, const char *b);
/* TRUE if path (NULL: FALSE) is "-" or names the file, pipe or terminal standard output
 * writes to (two outputs there would mix; /dev/null and other devices that keep nothing do
 * not count). */
gboolean ns_cmd_names_stdout (const char *path);
/* TRUE unless output (the value of option, e.g. "-o"; NULL, "-", a device or FIFO, a
 * descriptor's name such as /dev/stdout: never)
 * is the file input names (NULL: none; ns_cmd_same_file), which is what (e.g. "the
 * scenario") to the command; else FALSE with an input error naming both: writing the
 * output would destroy the input. Checked before the work, as ns_cmd_check_output. */
gboolean ns_cmd_check_not_input (const char *option, const char *output, const char *what,
                                 const char *input, GError **error);
/* ns_cmd_check_not_input for each of inputs (NULL-terminated; NULL: none). */
gboolean ns_cmd_check_not_inputs (const char *option, const char *output, const char *what,
                                  const char *const *inputs, GError **error);
/* The descriptor N of this process path names as /proc/self/fd/N (/dev/fd/N, /dev/stdout
 * for 1, /dev/stderr for 2, or a symbolic link to one of these), open or not; else -1.
 * Such a name is written through the descriptor where it stands, as "-" is stdout, never
 * reopened or replaced (which would truncate or replace the file a shell redirects to). */
int      ns_cmd_named_descriptor (const char *path);
/* Writes data to path atomically (temporary file + rename; through a symbolic link, in its
 * target's folder), a device or FIFO in place, or to stdout for NULL or "-"; a descriptor's
 * name (ns_cmd_named_descriptor) is written through that descriptor. */
gboolean ns_cmd_write_output (const char *path, const GString *data, GError **error);
/* Writes the bytes of the file from to path as ns_cmd_write_output (an image a tool
 * rendered into a temporary folder: path gets it whole or not at all). */
gboolean ns_cmd_copy_output (const char *from, const char *path, GError **error);
/* Writes data[i] to paths[i] (i < n; a NULL data skipped; a NULL or "-" path: standard
 * output) all or, as far as can be, none: the files that do not exist yet
 * are written first, and if a write fails, those this call created are removed again. A
 * file that existed and was replaced before a later write failed stays replaced (only when
 * two or more outputs existed before). */
gboolean ns_cmd_write_outputs (const char *const *paths, const GString *const *data, guint n,
                               GError **error);
/* TRUE if path (NULL or "-": stdout) can be written later (a descriptor's name: that
 * descriptor is open for writing; else not a folder, not a loop of
 * symbolic links, its folder exists and is writable), else FALSE with an input error naming it: checked before the
 * work whose results it takes. */
gboolean ns_cmd_check_output (const char *path, GError **error);
/* TRUE unless seed (--seed's text, or NULL) and a "seed=…" among sets (given by the option
 * by, "--set", "--what-if" or sweep's "--param") both give the seed; then prints why for
 * COMMAND and returns FALSE (exit 2): one would silently override the other. */
gboolean ns_cmd_check_one_seed (const char *command, const char *seed, char **sets,
                                const char *by);
/* Parses a decimal seed, 0 to 2^64 - 1; else prints "netsim COMMAND: --seed: …" and
 * returns FALSE (exit with 2). */
gboolean ns_cmd_parse_seed   (const char *command, const char *text, guint64 *seed);
/* FALSE, after saying so, if two of sets (given by option by) set one attribute. */
gboolean ns_cmd_check_sets_once (const char *command, char **sets, const char *by);
/* The single-valued options of a context (ns_cmd_add_entries); owned by the context. */
typedef struct _NsCmdOptions NsCmdOptions;

/* Adds entries (ended by a NULL long name) as ctx's main options, as
 * g_option_context_add_main_entries, except that an option taking one value (STRING,
 * FILENAME, INT) given a second time is a parse error ("--seed given twice: it takes one
 * value"), where GLib keeps the last. Returns those options, for ns_cmd_given. */
NsCmdOptions *ns_cmd_add_entries (GOptionContext *ctx, const GOptionEntry *entries);
/* The most --jobs takes: 4 × the processors this process may run on (more workers only
 * share them thinner, and each holds a whole simulated machine in memory). */
gint     ns_cmd_max_jobs       (void);
/* Makes the INT option of options whose value goes to jobs (--jobs) take 1 to
 * ns_cmd_max_jobs () only: any other value, one past gint's range too, is a parse error
 * naming that range and why. */
void     ns_cmd_limit_jobs     (NsCmdOptions *options, gint *jobs);
/* Makes the INT option of options whose value goes to arg_data take min to max only: any
 * other value, one past gint's range too, is a parse error "expected RANGE, got 'V'" (range
 * words the values, as "a number ≥ 0"). */
void     ns_cmd_limit_int      (NsCmdOptions *options, gint *arg_data, gint min, gint max,
                                const char *range);
/* Whether the single-valued option whose value goes to arg_data was given. */
gboolean ns_cmd_given          (const NsCmdOptions *options, gconstpointer arg_data);
/* Parses a subcommand's options (with options from ns_cmd_add_entries, or NULL), reading
 * "-jN" as "-j N" as getopt does (GOption reads a short option's value only from the next
 * argument); prints usage errors; FALSE means exit with 2. */
gboolean ns_cmd_parse_options (GOptionContext *ctx, NsCmdOptions *options, int *argc,
                               char ***argv);
/* The gnuplot to use: $NETSIM_GNUPLOT if set (empty: none), else configure's. */
const char *ns_cmd_gnuplot_path (void);
/* TRUE if that gnuplot is an executable. */
gboolean ns_cmd_have_gnuplot  (void);
/* Why there is no gnuplot and what to do, for a message; newly allocated. */
char    *ns_cmd_gnuplot_hint  (void);
/* text as a single-quoted gnuplot literal (quotes doubled, newlines spaces); newly allocated. */
char    *ns_cmd_gnuplot_quote (const char *text);
/* The recorded-results folder: recorded if set, else <datadir>/validation; newly allocated. */
char    *ns_cmd_validation_dir (const char *recorded);
/* The scenario file arg names: arg itself if it exists (or is absolute), else the data
 * folder's file of that relative name if that exists (the names netsim list prints), else
 * arg; newly allocated. NULL with an NS_ERROR_INPUT error if arg is empty, or NS_ERROR_IO
 * if the file is not a regular file (a pipe or device: ns_xml_check_regular). */
char    *ns_cmd_scenario_path (const char *arg, GError **error);
/* TRUE if 1 ≤ jobs ≤ ns_cmd_max_jobs (); else prints "netsim COMMAND: --jobs: expected
 * 1 to MAX (why), got JOBS" and returns FALSE (exit with 2). */
gboolean ns_cmd_check_jobs    (const char *command, gint jobs);
/* Host seconds as m:ss or h:mm:ss for a progress line; "?" if s < 0 (unknown). */
char    *ns_cmd_format_duration (double s);
/* Prints notes (NULL: error says why there are none) as "netsim COMMAND: note: …" lines
 * on stderr; frees notes and error. */
void     ns_cmd_print_notes   (const char *command, char **notes, GError *error);
/* Prints "netsim COMMAND: note: kernel command line: no model reads 'WORD' …" on stderr
 * for each word of cmdline (may be NULL) no model reads, once per word over the calls
 * sharing seen (a set of g_strdup'ed words, g_free keys). */
void     ns_cmd_note_unread_cmdline (const char *command, GHashTable *seen,
                                     const char *cmdline);
/* Prints "netsim COMMAND: note: --set … replaces variant 'NAME' set …: …" on stderr for
 * each of replaced (NULL-terminated, may be NULL), once over the calls sharing seen (a
 * set of those strings, not owned: they must outlive it). */
void     ns_cmd_note_replaced (const char *command, GHashTable *seen, char **replaced);

G_END_DECLS
