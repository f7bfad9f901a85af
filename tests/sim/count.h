/* count.h — helpers the sim tests share: how often a string occurs in a text, and on
 * which line. */
#pragma once
#include <glib.h>
#include <string.h>

/* The number of times needle occurs in hay (overlapping occurrences counted). */
static inline guint
count_occurrences (const char *hay, const char *needle)
{
  guint n = 0;

  for (const char *p = strstr (hay, needle); p; p = strstr (p + 1, needle))
    n++;
  return n;
}

/* The 1-based line of text on which needle first occurs; 0 if it does not. */
static inline guint
line_of_text (const char *text, const char *needle)
{
  const char *at = strstr (text, needle);
  guint line = 1;

  if (at == NULL)
    return 0;
  for (const char *c = text; c < at; c++)
    line += *c == '\n';
  return line;
}
