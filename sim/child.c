/* child.c — running work in a forked child process that sends back text on a pipe. The
 * fork-run-collect pattern netsim validate, calibrate and sweep share. */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <glib-unix.h>
#include "child.h"

/* Writes all of data to fd; see child.h. */
gboolean
ns_write_all (int fd, const char *data, gsize len)
{
  while (len > 0) {
    ssize_t n = write (fd, data, len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return FALSE;
    data += n;
    len -= (gsize) n;
  }
  return TRUE;
}

/* In the child: dies with its parent (parent, the pid that forked it), even one killed
 * by a signal only it was sent, rather than run on unwatched; exits at once if the
 * parent is gone already (it died between the fork and the prctl). */
static void
die_with_parent (pid_t parent)
{
#ifdef __linux__
  prctl (PR_SET_PDEATHSIG, SIGKILL);
#endif
  if (getppid () != parent)
    _exit (1);
}

/* In the child: runs func, writes its text to fd and exits. */
static void G_GNUC_NORETURN
child_main (NsChildFunc func, gpointer data, int fd, pid_t parent)
{
  char *text;
  gboolean ok;

  die_with_parent (parent);
  text = func (data);
  ok = ns_write_all (fd, text, strlen (text));

  close (fd);
  _exit (ok ? 0 : 1);
}

/* Forks a child running func (data); see child.h. */
gboolean
ns_child_start (NsChild *child, NsChildFunc func, gpointer data)
{
  int fds[2];
  pid_t pid, parent = getpid ();

  g_return_val_if_fail (child != NULL && func != NULL, FALSE);
  if (!g_unix_open_pipe (fds, FD_CLOEXEC, NULL))   /* keeps errno */
    return FALSE;
  fflush (NULL);
  pid = fork ();
  if (pid < 0) {
    int e = errno;
    close (fds[0]);
    close (fds[1]);
    errno = e;
    return FALSE;
  }
  if (pid == 0) {
    close (fds[0]);
    child_main (func, data, fds[1], parent);
  }
  close (fds[1]);
  child->pid = pid;
  child->fd = fds[0];
  child->out = g_string_new (NULL);
  return TRUE;
}

/* Reads what the child wrote; see child.h. */
gint
ns_child_read (NsChild *child)
{
  char buf[4096];
  ssize_t n = read (child->fd, buf, sizeof buf);

  if (n < 0)
    return errno == EINTR || errno == EAGAIN ? 1 : -1;
  if (n > 0)
    g_string_append_len (child->out, buf, n);
  return n > 0 ? 1 : 0;
}

/* Closes the pipe and reaps the child; see child.h. */
char *
ns_child_reap (NsChild *child, int *status)
{
  *status = 0;
  close (child->fd);
  while (waitpid (child->pid, status, 0) < 0 && errno == EINTR)
    ;
  return g_string_free (g_steal_pointer (&child->out), FALSE);
}
