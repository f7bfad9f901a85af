/* child.h — running work in a forked child process that sends back text on a pipe. */
#pragma once
#include <sys/types.h>
#include <glib.h>

G_BEGIN_DECLS

/* A child in flight: its process, the read end of its pipe, and what it wrote so far. */
typedef struct {
  pid_t    pid;
  int      fd;
  GString *out;
} NsChild;

/* Runs in the child; returns the text to send back (newly allocated). */
typedef char *(*NsChildFunc) (gpointer data);

/* Forks a child that runs func (data) and writes its text to a pipe, then exits with 0 (1 if
 * the write failed). The child dies with this process (Linux: PR_SET_PDEATHSIG, SIGKILL),
 * however it ends, so no worker outlives a parent killed alone. FALSE (errno set): the
 * pipe or the fork failed; child is untouched. */
gboolean ns_child_start (NsChild *child, NsChildFunc func, gpointer data);
/* Reads what is available: 1 more may come, 0 end of file, -1 error (errno set). */
gint     ns_child_read  (NsChild *child);
/* Closes the pipe and reaps the child (*status: its wait status); returns all it wrote. */
char    *ns_child_reap  (NsChild *child, int *status);
/* Writes all of data to fd, retrying after signals and short writes; FALSE on error. */
gboolean ns_write_all   (int fd, const char *data, gsize len);

G_END_DECLS
