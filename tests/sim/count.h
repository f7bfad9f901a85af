/* count.h — a helper the sim tests share: how often a string occurs in a text. */
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
