/* fuzz-common.c — set-up shared by the fuzz targets: the data directory, a scratch folder
 * for the file the loaders read (they take paths, as the command line does), and the
 * loaders' contract. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>
#include "fuzz.h"

static char *scratch_dir;
static char *scratch;
int  ns_fuzz_last_loaded;
char ns_fuzz_last_error[256];
const char *ns_fuzz_input_path;

/* Removes path: a file, or a folder with everything in it. */
static void
remove_tree (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir && (name = g_dir_read_name (dir)) != NULL) {
    g_autofree char *child = g_build_filename (path, name, NULL);
    remove_tree (child);
  }
  if (dir)
    g_dir_close (dir);
  g_remove (path);
}

static void
remove_scratch (void)
{
  if (scratch_dir)
    remove_tree (scratch_dir);
}

/* Points NETSIM_DATADIR at the source tree unless set, and makes the scratch folder. */
int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  (void) argc;
  (void) argv;
  g_setenv ("NETSIM_DATADIR", NS_SRCDIR, FALSE);
  scratch_dir = g_dir_make_tmp ("netsim-fuzz-XXXXXX", NULL);
  if (scratch_dir == NULL)
    abort ();
  atexit (remove_scratch);
  return 0;
}

/* The scratch folder (made by LLVMFuzzerInitialize). */
const char *
ns_fuzz_scratch_dir (void)
{
  return scratch_dir;
}

/* Writes data to the scratch folder as NAME.xml (name: letters, digits, '.', '_', '-',
 * else "input") and returns the path; aborts on I/O errors. */
const char *
ns_fuzz_write_scratch (const uint8_t *data, size_t size, const char *name)
{
  g_autofree char *file = NULL;

  if (name == NULL || name[0] == '\0' || name[0] == '.' || strlen (name) > 64 ||
      strspn (name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        != strlen (name))
    name = "input";
  file = g_strconcat (name, ".xml", NULL);
  return ns_fuzz_write_scratch_file (data, size, file);
}

/* Writes data to the scratch folder as file (a plain file name) and returns the path;
 * aborts on I/O errors. */
const char *
ns_fuzz_write_scratch_file (const uint8_t *data, size_t size, const char *file)
{
  FILE *f;

  if (scratch)
    g_unlink (scratch);
  g_free (scratch);
  scratch = g_build_filename (scratch_dir, file, NULL);
  f = fopen (scratch, "wb");
  if (f == NULL || fwrite (data, 1, size, f) != size || fclose (f) != 0)
    abort ();
  return scratch;
}

/* Aborts unless exactly one of result and error is set and an error has a message; frees
 * the error. Returns whether there is a result. */
int
ns_fuzz_check_load (const void *result, GError *error)
{
  if ((result == NULL) == (error == NULL))
    abort ();
  ns_fuzz_last_loaded = error == NULL;
  if (error == NULL)
    return 1;
  if (error->message == NULL || error->message[0] == '\0')
    abort ();
  g_strlcpy (ns_fuzz_last_error, error->message, sizeof ns_fuzz_last_error);
  g_error_free (error);
  return 0;
}

/* The first name="…" value in data; see fuzz.h. */
char *
ns_fuzz_first_name (const uint8_t *data, size_t size)
{
  static const char key[] = "name=\"";
  const char *text = (const char *) data, *end = text + size;

  for (const char *p = text; p + sizeof key - 1 < end; p++)
    if (memcmp (p, key, sizeof key - 1) == 0) {
      const char *v = p + sizeof key - 1, *q = memchr (v, '"', (size_t) (end - v));
      return q ? g_strndup (v, (gsize) (q - v)) : NULL;
    }
  return NULL;
}
