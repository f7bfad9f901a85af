/* test-child.c — the fork-run-collect helper (sim/child.c) that netsim validate, calibrate
 * and sweep share, held to its contract in child.h: the child's text arrives whole however
 * large (more than a pipe buffer: 1 MiB), the wait status tells an exit code and a death
 * by signal apart (the callers' failure messages are made from it), a write that fails
 * makes the child exit 1, reaping leaves no zombie and no descriptor behind, and a start
 * that cannot make its pipe fails with errno set and the child untouched. */
#define _GNU_SOURCE 1   /* F_GETPIPE_SZ */
#include "config.h"
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "child.h"

#define BIG_LEN (1024 * 1024)   /* 1 MiB: sixteen times Linux's default pipe buffer */

/* Child body: returns a copy of the text data points to. */
static char *
say (gpointer data)
{
  return g_strdup (data);
}

/* Child body: 1 MiB of a pattern no prefix or shifted copy of itself matches. */
static char *
say_big (G_GNUC_UNUSED gpointer data)
{
  char *text = g_malloc (BIG_LEN + 1);

  for (gsize i = 0; i < BIG_LEN; i++)
    text[i] = (char) ('a' + (i * 7 + i / 26) % 26);
  text[BIG_LEN] = '\0';
  return text;
}

/* Child body: exits with the status data holds, writing nothing. */
static char *
exit_with (gpointer data)
{
  _exit (GPOINTER_TO_INT (data));
}

/* Child body: kills itself with the signal data holds (default action: a sanitizer's
 * SIGSEGV handler would otherwise turn the death into an exit). */
static char *
die_by (gpointer data)
{
  signal (GPOINTER_TO_INT (data), SIG_DFL);
  raise (GPOINTER_TO_INT (data));
  _exit (0);
}

/* Child body: waits until the parent has closed its end, then writes 1 MiB. */
static char *
say_big_late (gpointer data)
{
  g_usleep (200 * 1000);
  return say_big (data);
}

/* Starts a child running func (data), reads it to end of file and reaps it; returns its
 * text and its wait status in *status. */
static char *
run_child (NsChildFunc func, gpointer data, int *status)
{
  NsChild child;
  gint r;

  ck_assert_msg (ns_child_start (&child, func, data), "start: %s", g_strerror (errno));
  while ((r = ns_child_read (&child)) > 0)
    ;
  ck_assert_int_eq (r, 0);
  return ns_child_reap (&child, status);
}

/* The number of open descriptors of this process (entries of /proc/self/fd, less the
 * one the listing itself holds). */
static guint
open_fds (void)
{
  DIR *dir = opendir ("/proc/self/fd");
  guint n = 0;

  ck_assert_ptr_nonnull (dir);
  while (readdir (dir) != NULL)
    n++;
  closedir (dir);
  return n - 3;   /* ".", ".." and the directory's own descriptor */
}

/* The capacity of a new pipe on this host. */
static guint
pipe_size (void)
{
  int fds[2], size;

  ck_assert_int_eq (pipe (fds), 0);
  size = fcntl (fds[0], F_GETPIPE_SZ);
  close (fds[0]);
  close (fds[1]);
  ck_assert_int_gt (size, 0);
  return (guint) size;
}

/* The lowest descriptor number free now: the one the next open gets. */
static int
lowest_free_fd (void)
{
  int fd = dup (STDERR_FILENO);

  ck_assert_int_ge (fd, 0);
  close (fd);
  return fd;
}

/* TRUE if pid is gone: no zombie left to wait for. */
static gboolean
reaped (pid_t pid)
{
  return waitpid (pid, NULL, WNOHANG) < 0 && errno == ECHILD;
}

/* A short text comes back whole and the child exits 0. */
START_TEST (test_small_text)
{
  int status = -1;
  g_autofree char *text = run_child (say, (gpointer) "one line\nand another", &status);

  ck_assert_str_eq (text, "one line\nand another");
  ck_assert (WIFEXITED (status));
  ck_assert_int_eq (WEXITSTATUS (status), 0);
}
END_TEST

/* 1 MiB — more than the pipe holds, so the child blocks until the parent reads — comes
 * back byte for byte. */
START_TEST (test_text_larger_than_pipe)
{
  int status = -1;
  g_autofree char *want = say_big (NULL);
  g_autofree char *text = run_child (say_big, NULL, &status);

  ck_assert_uint_gt (BIG_LEN, pipe_size ());
  ck_assert_uint_eq (strlen (text), BIG_LEN);
  ck_assert (memcmp (text, want, BIG_LEN) == 0);
  ck_assert (WIFEXITED (status) && WEXITSTATUS (status) == 0);
}
END_TEST

/* A child that exits 3 is reported with exit status 3 and no text. */
START_TEST (test_nonzero_exit)
{
  int status = -1;
  g_autofree char *text = run_child (exit_with, GINT_TO_POINTER (3), &status);

  ck_assert_str_eq (text, "");
  ck_assert (WIFEXITED (status));
  ck_assert_int_eq (WEXITSTATUS (status), 3);
}
END_TEST

/* A child killed by SIGKILL (and one that segfaults) is reported as signalled, with the
 * signal. */
START_TEST (test_death_by_signal)
{
  static const int signals[] = { SIGKILL, SIGSEGV };

  for (guint i = 0; i < G_N_ELEMENTS (signals); i++) {
    int status = -1;
    g_autofree char *text = run_child (die_by, GINT_TO_POINTER (signals[i]), &status);

    ck_assert_str_eq (text, "");
    ck_assert_msg (WIFSIGNALED (status), "signal %d: status %#x", signals[i], status);
    ck_assert_int_eq (WTERMSIG (status), signals[i]);
  }
}
END_TEST

/* Reaped before it wrote (the parent closed its end first), the child's write fails
 * (EPIPE: SIGPIPE is ignored, as the child inherits) and it exits 1. */
START_TEST (test_failed_write_exits_1)
{
  NsChild child;
  int status = -1;
  g_autofree char *text = NULL;

  signal (SIGPIPE, SIG_IGN);
  ck_assert (ns_child_start (&child, say_big_late, NULL));
  text = ns_child_reap (&child, &status);
  ck_assert_str_eq (text, "");
  ck_assert_msg (WIFEXITED (status), "status %#x", status);
  ck_assert_int_eq (WEXITSTATUS (status), 1);
}
END_TEST

/* After reaping: no zombie, and as many descriptors open as before the start — for a
 * child that succeeded, one that failed and one reaped before its end of file. */
START_TEST (test_no_zombie_no_fd_leak)
{
  guint before = open_fds ();
  NsChild child;
  int status;

  for (int kind = 0; kind < 3; kind++) {
    pid_t pid;
    g_autofree char *text = NULL;

    if (kind < 2) {
      ck_assert (ns_child_start (&child, kind ? exit_with : say, kind ? GINT_TO_POINTER (2)
                                                                     : (gpointer) "x"));
      while (ns_child_read (&child) > 0)
        ;
    } else {
      ck_assert (ns_child_start (&child, die_by, GINT_TO_POINTER (SIGKILL)));
    }
    pid = child.pid;
    ck_assert_uint_eq (open_fds (), before + 1);   /* the read end of the pipe */
    text = ns_child_reap (&child, &status);
    ck_assert_msg (reaped (pid), "child %d left unreaped (kind %d)", (int) pid, kind);
    ck_assert_uint_eq (open_fds (), before);
  }
}
END_TEST

/* The parent's end of the pipe is close-on-exec, so no program a caller later spawns
 * holds it open. */
START_TEST (test_pipe_is_cloexec)
{
  NsChild child;
  int status;
  g_autofree char *text = NULL;

  ck_assert (ns_child_start (&child, say, (gpointer) "x"));
  ck_assert (fcntl (child.fd, F_GETFD) & FD_CLOEXEC);
  text = ns_child_reap (&child, &status);
}
END_TEST

/* With no descriptor left for the pipe, the start fails with errno EMFILE, forks nothing
 * and leaves the child as it was. */
START_TEST (test_start_fails_without_fds)
{
  NsChild child = { .pid = 4242, .fd = 4343, .out = NULL };
  struct rlimit lim, old;
  gboolean ok;
  int err;

  ck_assert_int_eq (getrlimit (RLIMIT_NOFILE, &old), 0);
  lim.rlim_cur = (rlim_t) lowest_free_fd ();
  lim.rlim_max = old.rlim_max;
  ck_assert_int_eq (setrlimit (RLIMIT_NOFILE, &lim), 0);
  ok = ns_child_start (&child, say, (gpointer) "x");
  err = errno;
  /* the limit back at once: LeakSanitizer needs descriptors at exit */
  ck_assert_int_eq (setrlimit (RLIMIT_NOFILE, &old), 0);
  ck_assert (!ok);
  ck_assert_int_eq (err, EMFILE);
  ck_assert_int_eq (child.pid, 4242);
  ck_assert_int_eq (child.fd, 4343);
  ck_assert_ptr_null (child.out);
  ck_assert (waitpid (-1, NULL, WNOHANG) < 0 && errno == ECHILD);
}
END_TEST

/* ns_write_all writes everything (1 MiB through a pipe a child drains) and is FALSE on a
 * descriptor it cannot write: a closed one, or a pipe whose reader has gone. */
START_TEST (test_write_all)
{
  g_autofree char *big = say_big (NULL);
  int fds[2];
  pid_t pid;
  int status;

  ck_assert_int_eq (pipe (fds), 0);
  pid = fork ();
  if (pid == 0) {   /* the reader: exits 0 only if it read exactly BIG_LEN bytes */
    char buf[65536];
    gsize total = 0;
    ssize_t n;
    close (fds[1]);
    while ((n = read (fds[0], buf, sizeof buf)) > 0)
      total += (gsize) n;
    _exit (total == BIG_LEN ? 0 : 1);
  }
  close (fds[0]);
  ck_assert (ns_write_all (fds[1], big, BIG_LEN));
  close (fds[1]);
  ck_assert_int_eq (waitpid (pid, &status, 0), pid);
  ck_assert (WIFEXITED (status) && WEXITSTATUS (status) == 0);

  signal (SIGPIPE, SIG_IGN);
  ck_assert_int_eq (pipe (fds), 0);
  close (fds[0]);
  ck_assert (!ns_write_all (fds[1], "x", 1));
  close (fds[1]);
  ck_assert (!ns_write_all (fds[1], "x", 1));
}
END_TEST

static Suite *
child_suite (void)
{
  Suite *s = suite_create ("child");
  TCase *tc = tcase_create ("core");

  tcase_add_test (tc, test_small_text);
  tcase_add_test (tc, test_text_larger_than_pipe);
  tcase_add_test (tc, test_nonzero_exit);
  tcase_add_test (tc, test_death_by_signal);
  tcase_add_test (tc, test_failed_write_exits_1);
  tcase_add_test (tc, test_no_zombie_no_fd_leak);
  tcase_add_test (tc, test_pipe_is_cloexec);
  tcase_add_test (tc, test_start_fails_without_fds);
  tcase_add_test (tc, test_write_all);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (child_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
