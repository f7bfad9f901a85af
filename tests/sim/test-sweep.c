/* test-sweep.c — sweeps: value lists and ranges, the grid and its seeds, CSV fields, points
 * run in process and in worker processes, durable output, resume and its refusals. */
#include "config.h"
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "param.h"
#include "sweep.h"

/* A short call-chain measurement keeps every point to a few milliseconds. */
static const char *const quick_sets[] = { "measure.warmup=2us", "measure.duration=20us", NULL };

static char *
micro_path (const char *name)
{
  const char *data = g_getenv ("NETSIM_DATADIR");

  return g_build_filename (data ? data : NS_SRCDIR, "scenarios", "micro", name, NULL);
}

/* Path of tests/data/good/name (in NETSIM_DATADIR, else the source tree). */
static char *
good_path (const char *name)
{
  const char *data = g_getenv ("NETSIM_DATADIR");

  return g_build_filename (data ? data : NS_SRCDIR, "tests", "data", "good", name, NULL);
}

/* Expands text; must succeed; returns the values joined by spaces. */
static char *
expand (const char *text)
{
  GError *error = NULL;
  GPtrArray *values = ns_sweep_expand (text, &error);
  char *joined;

  ck_assert_msg (values != NULL, "%s: %s", text, error ? error->message : "?");
  g_ptr_array_add (values, NULL);
  joined = g_strjoinv (" ", (char **) values->pdata);
  g_ptr_array_unref (values);
  return joined;
}

static void
expect_expand (const char *text, const char *want)
{
  g_autofree char *got = expand (text);
  ck_assert_msg (!strcmp (got, want), "%s: got '%s', want '%s'", text, got, want);
}

/* Expanding text must fail with an input error whose message holds reason. */
static void
expect_expand_fails (const char *text, const char *reason)
{
  GError *error = NULL;
  GPtrArray *values = ns_sweep_expand (text, &error);

  ck_assert_msg (values == NULL, "%s expanded", text);
  ck_assert (error != NULL && error->code == NS_ERROR_INPUT);
  ck_assert_msg (strstr (error->message, reason) != NULL, "%s: '%s' does not say '%s'", text,
                 error->message, reason);
  g_error_free (error);
}

START_TEST (test_expand_lists_and_ranges)
{
  expect_expand ("1,2,5", "1 2 5");
  /* integers print exactly as far as a double holds them (seed ranges reach 1e15 and up) */
  expect_expand ("1000000000000000:1000000000000002:1",
                 "1000000000000000 1000000000000001 1000000000000002");
  expect_expand ("mitigations=off,spectre_v2=retpoline", "mitigations=off spectre_v2=retpoline");
  /* "\\," keeps a comma inside a value (the kernel's retpoline,lfence), "\\\\" a backslash */
  expect_expand ("spectre_v2=retpoline\\,lfence,spectre_v2=off",
                 "spectre_v2=retpoline,lfence spectre_v2=off");
  expect_expand ("a\\\\,b", "a\\ b");
  expect_expand ("1:5:1", "1 2 3 4 5");
  expect_expand ("1:10:4", "1 5 9");
  expect_expand ("10:1:-3", "10 7 4 1");
  expect_expand ("0.1:0.5:0.1", "0.1 0.2 0.3 0.4 0.5");
  expect_expand ("1:512:x2", "1 2 4 8 16 32 64 128 256 512");
  expect_expand ("1:100:×10", "1 10 100");
  expect_expand ("1:20:*3", "1 3 9");
  expect_expand ("4KiB:1MiB:x2", "4KiB 8KiB 16KiB 32KiB 64KiB 128KiB 256KiB 512KiB 1024KiB");
  expect_expand ("1MiB:4MiB:x2", "1MiB 2MiB 4MiB");
  expect_expand ("0:192KiB:64KiB", "0KiB 64KiB 128KiB 192KiB");
  expect_expand ("10us:50us:20us", "10us 30us 50us");
  expect_expand ("500ns:2us:500ns", "500ns 1000ns 1500ns 2000ns");
  /* the largest unit in which all are whole, written in the range or not */
  expect_expand ("0.1us:0.3us:0.1us", "100ns 200ns 300ns");
  expect_expand ("1000ns:3000ns:1000ns", "1us 2us 3us");
  expect_expand ("4096B:16384B:x2", "4KiB 8KiB 16KiB");
  expect_expand ("1000B:3000B:1000B", "1KB 2KB 3KB");
  expect_expand ("1K:3000B:1000B", "1K 2K 3K");
  expect_expand ("1ps:2000000000001ps:1000000000000ps",
                 "1ps 1000000000001ps 2000000000001ps");
  expect_expand ("0:0:1us", "0us");
  expect_expand ("1,4:16:x2,100", "1 4 8 16 100");
  expect_expand ("7", "7");
}
END_TEST

START_TEST (test_expand_errors)
{
  const char *bad_factor = "expected START:STOP:\xc3\x97" "FACTOR";

  expect_expand_fails ("1:10:0", "STEP must not be 0");
  /* a value twice, as written or from overlapping ranges, is refused (--repeat repeats) */
  expect_expand_fails ("9007199254740993:9007199254740997:2", "past 2^53");   /* inexact */
  expect_expand_fails ("1,1", "'1' comes twice");
  expect_expand_fails ("1:3:1,2", "'2' comes twice");
  expect_expand_fails ("a\\,b,a\\,b", "'a,b' comes twice");
  expect_expand_fails ("10:1:1", "is empty");
  expect_expand_fails ("1:10", "bad range '1:10'");               /* no step */
  expect_expand_fails ("1:10:x1", bad_factor);                    /* factor 1 */
  expect_expand_fails ("1:10:x0", bad_factor);
  expect_expand_fails ("1:10:x-2", bad_factor);
  expect_expand_fails ("0:10:x2", bad_factor);                    /* geometric from 0 */
  expect_expand_fails ("1:0:x0.5", bad_factor);                   /* ...or to 0 */
  expect_expand_fails ("-1:8:x2", bad_factor);                    /* across 0 */
  expect_expand_fails ("1:-8:x2", bad_factor);
  expect_expand_fails ("4KiB:1ms:x2", "mixes sizes and times");
  expect_expand_fails ("1,,2", "empty value in the list");
  expect_expand_fails ("1:10:abc", "bad range");
  expect_expand_fails ("1:8:x2abc", "bad range");                 /* a factor, then text */
  expect_expand_fails ("1:3q:1", "bad range");                    /* not a unit */
  expect_expand_fails ("1:1000000000:1", "more than 1000000 values");
  expect_expand_fails ("1:1000001:1", "more than 1000000 values");
  expect_expand_fails ("1B:3B:0.5B", "not whole bytes");
  expect_expand_fails ("1ps:2ps:0.5ps", "not whole picoseconds");
}
END_TEST

/* A range's numbers in exponent form, and the texts that are not a number and so leave the
 * item a literal value; the bounds on a range's size. */
START_TEST (test_expand_number_forms)
{
  GError *error = NULL;
  GPtrArray *values;

  expect_expand ("1e1:3e1:1e1", "10 20 30");
  expect_expand ("1E1:2E1:1E1", "10 20");
  expect_expand ("1e+1:2e+1:1e+1", "10 20");
  expect_expand ("5e-1:1.5:5e-1", "0.5 1 1.5");
  expect_expand ("-2:2:2", "-2 0 2");
  expect_expand ("+1:3:1", "1 2 3");
  expect_expand ("1.:3:1", "1.:3:1");       /* no digit after the point */
  expect_expand ("1e:3:1", "1e:3:1");       /* no digit in the exponent */
  expect_expand ("1e+:3:1", "1e+:3:1");
  expect_expand ("1q:3:1", "1q:3:1");       /* not a unit */
  /* 2^53 itself is exact, and prints as an integer */
  expect_expand ("9007199254740990:9007199254740992:1",
                 "9007199254740990 9007199254740991 9007199254740992");
  /* a million values is the most a dimension takes */
  values = ns_sweep_expand ("1:1000000:1", &error);
  ck_assert_msg (values != NULL, "%s", error ? error->message : "?");
  ck_assert_uint_eq (values->len, 1000000);
  g_ptr_array_unref (values);
}
END_TEST

START_TEST (test_csv_and_numbers)
{
  g_auto (GStrv) f = ns_sweep_csv_split ("1,\"a,b\",\"say \"\"hi\"\"\",,x");
  double samples[] = { 4, 0.1, 1.0 / 3, 12.658227848101266, 1e-300, -2.5e17 };

  ck_assert_uint_eq (g_strv_length (f), 5);
  ck_assert_str_eq (f[1], "a,b");
  ck_assert_str_eq (f[2], "say \"hi\"");
  ck_assert_str_eq (f[3], "");
  ck_assert_str_eq (f[4], "x");
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++) {
    g_autofree char *text = ns_sweep_format_double (samples[i]);
    ck_assert_msg (g_ascii_strtod (text, NULL) == samples[i], "%s", text);
  }
  {
    g_autofree char *four = ns_sweep_format_double (4);
    g_autofree char *tenth = ns_sweep_format_double (0.1);
    g_autofree char *forty = ns_sweep_format_double (40);
    g_autofree char *big = ns_sweep_format_double (123456789012.0);
    ck_assert_str_eq (four, "4");
    ck_assert_str_eq (forty, "40");
    ck_assert_str_eq (big, "123456789012");
    ck_assert_str_eq (tenth, "0.1");
  }
  {
    /* an exponent outside [1e-4, 1e15), never inside */
    const double values[] = { 1e20, 1e15, 999999999999999.0, 1e-5, 1e-4, -1e15, INFINITY,
                              -INFINITY };
    const char *const texts[] = { "1e+20", "1e+15", "999999999999999", "1e-05", "0.0001",
                                  "-1e+15", "inf", "-inf" };
    for (guint i = 0; i < G_N_ELEMENTS (values); i++) {
      g_autofree char *text = ns_sweep_format_double (values[i]);
      ck_assert_str_eq (text, texts[i]);
    }
  }
}
END_TEST

/* A prepared sweep of call-chain.xml with params (NULL-terminated); must succeed. */
static NsSweep *
make_sweep (const char *const *params, const char *variant, guint repeat)
{
  g_autofree char *path = micro_path ("call-chain.xml");
  GError *error = NULL;
  NsSweep *sweep = ns_sweep_new (path, NULL, quick_sets, &error);

  ck_assert_msg (sweep != NULL, "%s", error ? error->message : "?");
  for (guint i = 0; params && params[i]; i++)
    ck_assert_msg (ns_sweep_add_param (sweep, params[i], &error), "%s", error ? error->message : "?");
  if (variant)
    ns_sweep_set_variant (sweep, variant);
  ns_sweep_set_repeat (sweep, repeat);
  ck_assert_msg (ns_sweep_prepare (sweep, &error), "%s", error ? error->message : "?");
  return sweep;
}

START_TEST (test_grid_and_seeds)
{
  const char *const params[] = { "workload.depth=1,2,3", NULL };
  NsSweep *sweep = make_sweep (params, NULL, 2);
  const char *const *columns = ns_sweep_columns (sweep);
  g_auto (GStrv) point_params = NULL;

  /* 3 depths × 5 variants × 2 repetitions, the repetition innermost */
  ck_assert_uint_eq (ns_sweep_n_points (sweep), 30);
  ck_assert_str_eq (columns[0], "point");
  ck_assert_str_eq (columns[1], "workload.depth");
  ck_assert_str_eq (columns[2], "variant");
  ck_assert_str_eq (columns[3], "repetition");
  ck_assert_str_eq (columns[4], "seed");
  point_params = ns_sweep_point_params (sweep, 29);
  ck_assert_str_eq (point_params[0], "workload.depth=3");
  ck_assert_ptr_null (point_params[1]);
  /* the variants of one point share its seed (common random numbers); points differ */
  ck_assert_uint_eq (ns_sweep_point_seed (sweep, 0), ns_sweep_point_seed (sweep, 2));
  ck_assert_uint_ne (ns_sweep_point_seed (sweep, 0), ns_sweep_point_seed (sweep, 1));
  ck_assert_uint_ne (ns_sweep_point_seed (sweep, 0), ns_sweep_point_seed (sweep, 10));
  ns_sweep_free (sweep);
}
END_TEST

/* Points that differ only in the metric read the same random streams: a ratio of two
 * metrics comes from one run's streams, as the variants of a point do. */
START_TEST (test_metric_keeps_the_seed)
{
  const char *const params[] = { "workload.depth=1,2", "measure.metric=cycles_per_call,"
                                 "ns_per_call", NULL };
  NsSweep *sweep = make_sweep (params, "plain-ret", 1);

  ck_assert_uint_eq (ns_sweep_n_points (sweep), 4);
  ck_assert_uint_eq (ns_sweep_point_seed (sweep, 0), ns_sweep_point_seed (sweep, 1));
  ck_assert_uint_ne (ns_sweep_point_seed (sweep, 0), ns_sweep_point_seed (sweep, 2));
  ns_sweep_free (sweep);
}
END_TEST

START_TEST (test_swept_seed)
{
  const char *const params[] = { "seed=5:7:1", NULL };
  NsSweep *sweep = make_sweep (params, "plain-ret", 1);
  g_autofree char *line = NULL;

  ck_assert_uint_eq (ns_sweep_n_points (sweep), 3);
  ck_assert_uint_eq (ns_sweep_point_seed (sweep, 0), 5);
  ck_assert_uint_eq (ns_sweep_point_seed (sweep, 2), 7);
  /* the seed has its own column, not a parameter column */
  ck_assert_str_eq (ns_sweep_columns (sweep)[1], "variant");
  line = ns_sweep_run_point (sweep, 1);
  ck_assert_msg (g_str_has_prefix (line, "1,plain-ret,0,6,ok,cycles_per_call,"), "%s", line);
  ns_sweep_free (sweep);
}
END_TEST

/* A sweep prepared on path with sets (NULL: none), the param (NULL: none) and the variant
 * (NULL: all): NULL and the error's message in *message if it is refused. */
static NsSweep *
try_prepare (const char *path, const char *const *sets, const char *param, const char *variant,
             char **message)
{
  GError *error = NULL;
  NsSweep *sweep = ns_sweep_new (path, NULL, sets, &error);

  ck_assert_msg (sweep != NULL, "%s", error ? error->message : "?");
  if (param != NULL && !ns_sweep_add_param (sweep, param, &error))
    goto refused;
  if (variant != NULL)
    ns_sweep_set_variant (sweep, variant);
  if (!ns_sweep_prepare (sweep, &error))
    goto refused;
  *message = NULL;
  return sweep;

refused:
  ck_assert (error != NULL && error->code == NS_ERROR_INPUT);
  *message = g_strdup (error->message);
  g_error_free (error);
  ns_sweep_free (sweep);
  return NULL;
}

START_TEST (test_prepare_refusals)
{
  g_autofree char *path = micro_path ("call-chain.xml");
  /* a dimension with one bad value is refused too, before any point runs; the reason
   * of a value's error follows its count, without the "--param PATH=VALUE: " it had */
  const char *bad[][2] = {
    { "measure.repetitions=zero,none", "--param measure.repetitions=zero,none: no value "
      "works: " },
    { "measure.nosuch=1", "no value works: " },
    { "workload.1x=3", "--param workload.1x=3: no value works: '1x' is not a valid "
      "attribute name" },
    { "param.no.such=1", "no parameter named 'no.such'" },
    { "nopath", "expected PATH=V1,V2" }, { "=1", "expected PATH=V1,V2" },
    { "workload.depth=", "expected PATH=V1,V2" },
    { "variant=nope", "no variant named 'nope'" },
    { "measure.repetitions=2,zero", "the value 'zero' does not work (1 of 2 values do not)" },
    { "workload.depth=2,0", "--param workload.depth=2,0: the value '0' does not work (1 of 2 "
      "values do not): " },
    { "param.cache.l2.latency_cycles=5,500", "the value '500' does not work" },
    { "cpu.profile=generic,nosuch", "the value 'nosuch' does not work" },
    { "seed=1,x", "'x' is not a seed" },
    { "workload.depth=1,1", "--param workload.depth=1,1: '1' comes twice" } };
  GError *error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
    g_autofree char *message = NULL;
    ck_assert_msg (try_prepare (path, quick_sets, bad[i][0], NULL, &message) == NULL,
                   "%s accepted", bad[i][0]);
    ck_assert_msg (strstr (message, bad[i][1]) != NULL, "%s: '%s' does not say '%s'",
                   bad[i][0], message, bad[i][1]);
  }
  {
    /* one attribute under two spellings is one dimension; a --set of a swept attribute
     * would be overridden at every point (quick_sets sets measure.duration) */
    const char *twice[][2] = { { "workload.depth=1,2", "workload[1].depth=3,4" },
                               { "measure.repetitions=1,2", "measure[1].repetitions=3" },
                               { "workload.depth=1,2", "measure[1].duration=10us,30us" },
                               { "workload.depth=1,2", "measure.duration=10us,30us" } };
    for (guint i = 0; i < G_N_ELEMENTS (twice); i++) {
      NsSweep *sweep = ns_sweep_new (path, NULL, quick_sets, &error);
      ck_assert_msg (ns_sweep_add_param (sweep, twice[i][0], &error), "%s", error->message);
      ck_assert_msg (!ns_sweep_add_param (sweep, twice[i][1], &error), "%s accepted after %s",
                     twice[i][1], twice[i][0]);
      ck_assert (error->code == NS_ERROR_INPUT);
      ck_assert (strstr (error->message, "swept twice") != NULL ||
                 strstr (error->message, "--set measure.duration=20us") != NULL);
      g_clear_error (&error);
      ns_sweep_free (sweep);
    }
  }
  {
    /* spellings only the document tells apart (param[1] is the <param> the --set made)
     * are caught as the values are tried */
    const char *const sets[] = { "measure.duration=20us", "param.cpu.ipc=2", NULL };
    NsSweep *sweep = ns_sweep_new (path, NULL, sets, &error);
    ck_assert (ns_sweep_add_param (sweep, "param[1].value=1,3", &error));
    ck_assert (!ns_sweep_prepare (sweep, &error));
    ck_assert_msg (strstr (error->message, "sets the same attribute as --set param.cpu.ipc=2, "
                           "and every point would override it") != NULL, "%s", error->message);
    g_clear_error (&error);
    ns_sweep_free (sweep);
  }
  {
    /* a repeated swept seed is meaningless */
    NsSweep *sweep = ns_sweep_new (path, NULL, quick_sets, &error);
    ck_assert (ns_sweep_add_param (sweep, "seed=1,2", &error));
    ns_sweep_set_repeat (sweep, 2);
    ck_assert (!ns_sweep_prepare (sweep, &error));
    g_clear_error (&error);
    ns_sweep_free (sweep);
  }
  {
    /* nor can a swept seed take a sweep seed (--seed) or a --set seed: each point runs
     * its swept value, and they changed nothing (the header only called them unused) */
    const char *const seed_set[] = { "measure.duration=20us", "seed=9", NULL };
    NsSweep *sweep = ns_sweep_new (path, NULL, quick_sets, &error);
    ck_assert (ns_sweep_add_param (sweep, "seed=1:4:1", &error));
    ns_sweep_set_seed (sweep, 3);
    ck_assert (!ns_sweep_prepare (sweep, &error));
    ck_assert_msg (error->code == NS_ERROR_INPUT &&
                   strstr (error->message, "--seed 3 with a swept seed (--param seed=1:4:1)"),
                   "%s", error->message);
    g_clear_error (&error);
    ns_sweep_free (sweep);
    sweep = ns_sweep_new (path, NULL, seed_set, &error);
    ck_assert (!ns_sweep_add_param (sweep, "seed=1,2", &error));
    ck_assert_msg (error->code == NS_ERROR_INPUT &&
                   strstr (error->message, "--set seed=9 sets the same attribute"),
                   "%s", error->message);
    g_clear_error (&error);
    ns_sweep_free (sweep);
  }
}
END_TEST

/* Variants: a sweep of a scenario without them has no variant column, and takes no
 * --variant nor variant dimension; --variant and a variant dimension together are refused
 * whichever comes first; no --set at all is a sweep too. */
START_TEST (test_variants_and_sets)
{
  g_autofree char *chain = micro_path ("call-chain.xml");
  g_autofree char *plain = good_path ("minimal.xml");
  g_autofree char *message = NULL;
  NsSweep *sweep;

  ck_assert (try_prepare (chain, quick_sets, "variant=plain-ret", "inlined", &message) == NULL);
  ck_assert_msg (strstr (message, "not both") != NULL, "%s", message);
  g_clear_pointer (&message, g_free);
  sweep = try_prepare (plain, NULL, "workload.working-set=4KiB,8KiB", NULL, &message);
  ck_assert_msg (sweep != NULL, "%s", message);
  ck_assert_uint_eq (ns_sweep_n_points (sweep), 2);
  ck_assert_str_eq (ns_sweep_columns (sweep)[1], "workload.working-set");
  ns_sweep_free (sweep);
  ck_assert (try_prepare (plain, NULL, NULL, "plain-ret", &message) == NULL);
  ck_assert_msg (strstr (message, "minimal.xml has no variants") != NULL, "%s", message);
  g_clear_pointer (&message, g_free);
  ck_assert (try_prepare (plain, NULL, "variant=a,b", NULL, &message) == NULL);
  ck_assert_msg (strstr (message, "minimal.xml has no variants") != NULL, "%s", message);
  g_clear_pointer (&message, g_free);
  /* a --set is tried on its own, so a bad one is blamed on itself */
  {
    const char *const bad_set[] = { "workload.working-set=0", NULL };
    ck_assert (try_prepare (plain, bad_set, "measure.repetitions=1,2", NULL, &message) == NULL);
    ck_assert_msg (strstr (message, "(after --set workload.working-set=0)") != NULL &&
                   strstr (message, "--param") == NULL, "%s", message);
  }
}
END_TEST

/* The header names each dimension with its count of values and, when the seed is swept,
 * says the sweep seed is unused; a swept CPU profile is listed with its hash; the column
 * line ends it. The queries the command asks of a prepared sweep. */
START_TEST (test_header_and_queries)
{
  const char *const params[] = { "seed=1,2", "workload.depth=3", "cpu.profile=generic,i5-3337u",
                                 "measure.repetitions=2,5", NULL };
  NsSweep *sweep = make_sweep (params, "plain-ret", 1);
  const char *header = ns_sweep_header (sweep);
  const char *columns = "\npoint,workload.depth,cpu.profile,measure.repetitions,variant,"
                        "repetition,seed,status,metric,value,cv,reps,ops,values,error,notes\n";
  g_auto (GStrv) profiles = ns_sweep_profile_files (sweep);
  guint n = 9;

  ck_assert_uint_eq (ns_sweep_n_points (sweep), 8);
  ck_assert_msg (strstr (header, " (unused: seed is swept)\n") != NULL, "%s", header);
  ck_assert_msg (strstr (header, "# sweep seed = 1,2 \xe2\x86\x92 2 values: 1 2\n") != NULL,
                 "%s", header);
  ck_assert_msg (strstr (header, "# sweep workload.depth = 3 \xe2\x86\x92 1 value: 3\n") != NULL,
                 "%s", header);
  ck_assert_msg (strstr (header, "# swept cpu-profile i5-3337u: ") != NULL &&
                 strstr (header, "does not load") == NULL, "%s", header);
  ck_assert_msg (g_str_has_suffix (header, columns), "%s", header);
  /* the base profile (generic) and the swept ones, each file once */
  ck_assert_uint_eq (g_strv_length (profiles), 2);
  ck_assert_str_ne (profiles[0], profiles[1]);
  ck_assert (ns_sweep_has_metric (sweep, "cycles_per_call"));
  ck_assert (!ns_sweep_has_metric (sweep, "ns_per_call"));
  ck_assert_str_eq (ns_sweep_swept (sweep, "workload[1].depth", &n), "workload.depth");
  ck_assert_uint_eq (n, 1);
  ck_assert (ns_sweep_swept (sweep, "measure.duration", &n) == NULL);
  ck_assert_uint_eq (n, 0);
  ck_assert_uint_eq (ns_sweep_max_repetitions (sweep), 5);
  ns_sweep_free (sweep);
  {
    const char *const metrics[] = { "measure.metric=ns_per_call", NULL };
    sweep = make_sweep (metrics, "plain-ret", 1);
    ck_assert (ns_sweep_has_metric (sweep, "ns_per_call"));
    ck_assert (!ns_sweep_has_metric (sweep, "cycles_per_call"));
    ck_assert_uint_eq (ns_sweep_max_repetitions (sweep), 1);
    ns_sweep_free (sweep);
  }
}
END_TEST

/* A grid past ten million points is refused. */
START_TEST (test_grid_bound)
{
  g_autofree char *path = micro_path ("call-chain.xml");
  GError *error = NULL;
  NsSweep *sweep = ns_sweep_new (path, "plain-ret", quick_sets, &error);

  ck_assert (ns_sweep_add_param (sweep, "workload.depth=1:11:1", &error));
  ck_assert (ns_sweep_add_param (sweep, "seed=1:1000000:1", &error));
  ns_sweep_set_variant (sweep, "plain-ret");
  ck_assert (!ns_sweep_prepare (sweep, &error));
  ck_assert_msg (strstr (error->message, "more than 10000000 points") != NULL, "%s",
                 error->message);
  g_error_free (error);
  ns_sweep_free (sweep);
}
END_TEST

/* Prepares a call-chain sweep with the sets and params (NULL-terminated; params may be
 * empty); must be refused, the error naming want. */
static void
expect_sets_refused (const char *const *sets, const char *const *params, const char *want)
{
  g_autofree char *path = micro_path ("call-chain.xml");
  GError *error = NULL;
  NsSweep *sweep = ns_sweep_new (path, NULL, sets, &error);
  gboolean ok;

  ck_assert_msg (sweep != NULL, "%s", error ? error->message : "?");
  ok = TRUE;
  for (guint i = 0; ok && params[i]; i++)
    ok = ns_sweep_add_param (sweep, params[i], &error);
  ok = ok && ns_sweep_prepare (sweep, &error);
  ck_assert_msg (!ok, "%s accepted", sets[0]);
  ck_assert (error->code == NS_ERROR_INPUT);
  ck_assert_msg (strstr (error->message, want) != NULL && strstr (error->message, "no value "
                 "works") == NULL, "%s", error->message);
  g_error_free (error);
  ns_sweep_free (sweep);
}

START_TEST (test_bad_set_refused)
{
  /* a --set that no point can run with is refused before any point runs, naming the
   * --set, whether or not an attribute is swept (until 2026-12-04 it was checked only
   * with a swept attribute's values, and blamed on that dimension) */
  const char *const cmdline[] = { "kernel.cmdline=retbleed=bogus", NULL };
  const char *const duration[] = { "measure.duration=5us", NULL };
  const char *const insns[] = { "workload.body-insns=abc", NULL };
  const char *const seeds[] = { "seed=1:3:1", NULL };
  const char *const variants[] = { "variant=plain-ret,inlined", NULL };
  const char *const depth[] = { "workload.depth=1,2", NULL };
  const char *const none[] = { NULL };

  expect_sets_refused (cmdline, seeds, "--set kernel.cmdline=retbleed=bogus");
  expect_sets_refused (duration, variants, "--set measure.duration=5us");
  expect_sets_refused (insns, none, "--set workload.body-insns=abc");
  expect_sets_refused (cmdline, depth, "--set kernel.cmdline=retbleed=bogus");
}
END_TEST

START_TEST (test_failed_point_is_recorded)
{
  /* A second patch passes the check (the after variant takes it) but the before variant,
   * which has no first, refuses it when its point runs; one-value checks see no
   * combination. (A too-short measure.duration was the example until 2026-12-03, night:
   * values are now set up as points are, so it is refused before the sweep.) */
  const char *const params[] = { "variant=7950x-f1-before,7950x-f1-after",
                                 "kernel.patch[2].name=tc-wrapper-cls-last", NULL };
  const char *data = g_getenv ("NETSIM_DATADIR");
  g_autofree char *path = g_build_filename (data ? data : NS_SRCDIR, "scenarios",
                                            "tc-pktgen-matchall-7950x.xml", NULL);
  GError *error = NULL;
  NsSweep *sweep = ns_sweep_new (path, NULL, quick_sets, &error);
  g_autofree char *bad = NULL, *ok = NULL;
  g_auto (GStrv) f = NULL;

  ck_assert_msg (sweep != NULL, "%s", error ? error->message : "?");
  for (guint i = 0; params[i]; i++)
    ck_assert_msg (ns_sweep_add_param (sweep, params[i], &error), "%s", error->message);
  ck_assert_msg (ns_sweep_prepare (sweep, &error), "%s", error ? error->message : "?");
  bad = ns_sweep_run_point (sweep, 0);
  ok = ns_sweep_run_point (sweep, 1);
  f = ns_sweep_csv_split (bad);
  ck_assert_msg (strstr (ok, ",ok,pps,") != NULL, "%s", ok);
  ck_assert_str_eq (f[5], "failed");
  ck_assert_msg (strstr (f[12], "--param kernel.patch[2].name=tc-wrapper-cls-last: cannot "
                         "create patch[2]") != NULL, "%s", f[12]);
  ck_assert (strchr (bad, '\n') == bad + strlen (bad) - 1);
  ns_sweep_free (sweep);
}
END_TEST

/* The file's whole text: a sweep without timing is the same byte for byte every run. */
static char *
file_text (const char *path)
{
  char *text = NULL;

  ck_assert (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

/* Runs sweep into path with jobs workers; must complete. */
static void
run_to_end (NsSweep *sweep, const char *path, NsSweepMode mode, guint jobs)
{
  NsSweepRunOptions opt = { jobs, NULL, NULL, NULL, NULL };
  GError *error = NULL;

  ck_assert_msg (ns_sweep_open (sweep, path, mode, &error), "%s", error ? error->message : "?");
  ck_assert_msg (ns_sweep_run (sweep, &opt, &error), "%s", error ? error->message : "?");
  ck_assert (ns_sweep_complete (sweep));
  ck_assert_msg (ns_sweep_finish (sweep, &error), "%s", error ? error->message : "?");
}

static const char *const grid[] = { "workload.depth=1:6:1", "workload.body-insns=4,20", NULL };

START_TEST (test_jobs_do_not_change_results)
{
  g_autofree char *dir = g_dir_make_tmp ("test-sweep-XXXXXX", NULL);
  g_autofree char *one = g_build_filename (dir, "one.csv", NULL);
  g_autofree char *two = g_build_filename (dir, "two.csv", NULL);
  g_autofree char *a = NULL, *b = NULL;
  NsSweep *s1 = make_sweep (grid, "srso-safe-ret", 2);
  NsSweep *s2 = make_sweep (grid, "srso-safe-ret", 2);

  ck_assert_uint_eq (ns_sweep_n_points (s1), 24);
  run_to_end (s1, one, NS_SWEEP_NEW, 1);
  run_to_end (s2, two, NS_SWEEP_NEW, 3);
  a = file_text (one);
  b = file_text (two);
  ck_assert_msg (!strcmp (a, b), "--jobs 1 and --jobs 3 differ");
  /* a forked worker computes what the point computes in process */
  for (guint p = 0; p < 24; p += 7) {
    g_autofree char *line = ns_sweep_run_point (s1, p);
    g_auto (GStrv) want = ns_sweep_csv_split (g_strchomp (line));
    g_auto (GStrv) got = ns_sweep_row (s2, p);
    ck_assert_uint_eq (g_strv_length (got), g_strv_length (want));
    for (guint c = 0; want[c]; c++)
      ck_assert_str_eq (got[c], want[c]);
  }
  ck_assert_uint_eq (ns_sweep_n_failed (s2), 0);
  ns_sweep_free (s1);
  ns_sweep_free (s2);
  g_unlink (one);
  g_unlink (two);
  g_rmdir (dir);
}
END_TEST

START_TEST (test_resume_after_torn_line)
{
  g_autofree char *dir = g_dir_make_tmp ("test-sweep-XXXXXX", NULL);
  g_autofree char *full = g_build_filename (dir, "full.csv", NULL);
  g_autofree char *part = g_build_filename (dir, "part.csv", NULL);
  g_autofree char *a = NULL, *b = NULL, *text = NULL;
  NsSweep *s1 = make_sweep (grid, "plain-ret", 1);
  NsSweep *s2 = make_sweep (grid, "plain-ret", 1);
  NsSweep *s3 = make_sweep (grid, "plain-ret", 1);
  GString *cut = g_string_new (ns_sweep_header (s1));
  g_autofree char *l5 = ns_sweep_run_point (s1, 5);
  g_autofree char *l2 = ns_sweep_run_point (s1, 2);
  g_autofree char *l9 = ns_sweep_run_point (s1, 9);
  GError *error = NULL;

  run_to_end (s1, full, NS_SWEEP_NEW, 2);
  /* an interrupted run: points out of order, then a line cut short */
  g_string_append (cut, l5);
  g_string_append (cut, l2);
  g_string_append_len (cut, l9, strlen (l9) / 2);
  ck_assert (g_file_set_contents (part, cut->str, cut->len, NULL));
  g_string_free (cut, TRUE);
  /* without --resume an existing file is refused */
  ck_assert (!ns_sweep_open (s3, part, NS_SWEEP_NEW, &error));
  ck_assert_int_eq (error->code, NS_ERROR_INPUT);
  g_clear_error (&error);
  ck_assert (ns_sweep_open (s2, part, NS_SWEEP_RESUME, &error));
  ck_assert (ns_sweep_was_torn (s2));
  ck_assert_uint_eq (ns_sweep_n_done (s2), 2);
  ns_sweep_free (s2);
  s2 = make_sweep (grid, "plain-ret", 1);
  {
    NsSweepRunOptions opt = { 2, NULL, NULL, NULL, NULL };
    ck_assert (ns_sweep_open (s2, part, NS_SWEEP_RESUME, &error));
    ck_assert (!ns_sweep_was_torn (s2));
    ck_assert (ns_sweep_run (s2, &opt, &error) && ns_sweep_complete (s2));
    ck_assert (ns_sweep_finish (s2, &error));
  }
  a = file_text (full);
  b = file_text (part);
  ck_assert_msg (!strcmp (a, b), "resumed output differs from an uninterrupted one");
  {
    /* JSON lists every point */
    GString *json = g_string_new (NULL);
    ns_sweep_json (s2, json);
    ck_assert (strstr (json->str, "\"points_done\": 12") != NULL);
    ck_assert (strstr (json->str, "\"workload.body-insns\": \"20\"") != NULL);
    g_string_free (json, TRUE);
  }
  ns_sweep_free (s1);
  ns_sweep_free (s2);
  ns_sweep_free (s3);
  g_unlink (full);
  g_unlink (part);
  g_rmdir (dir);
}
END_TEST

/* The sweep the resume field checks read back: two points of one variant, whose swept
 * <measure> attributes decide their repetitions (1 and 2) and aggregate; with timing, a
 * wall_s column. */
static NsSweep *
fields_sweep (gboolean timing)
{
  g_autofree char *path = micro_path ("call-chain.xml");
  GError *error = NULL;
  NsSweep *sweep = ns_sweep_new (path, NULL, quick_sets, &error);

  ck_assert (ns_sweep_add_param (sweep, "measure.repetitions=1,2", &error));
  ck_assert (ns_sweep_add_param (sweep, "measure.aggregate=harmonic", &error));
  ns_sweep_set_variant (sweep, "plain-ret");
  ns_sweep_set_timing (sweep, timing);
  ck_assert_msg (ns_sweep_prepare (sweep, &error), "%s", error ? error->message : "?");
  return sweep;
}

/* One edit of a point's line: columns set to values (NULL-terminated pairs). */
typedef struct {
  guint       point;
  const char *set[20];      /* column, value, column, value, …, NULL */
  const char *want;         /* NULL: resumed; else what the refusal says */
} LineEdit;

/* text (a sweep output) with edit applied to its point's line (its fields joined as they
 * are: the values in these cases need no quoting); twice: the edited line follows the
 * original instead of replacing it. */
static char *
edited_output (NsSweep *sweep, const char *text, const LineEdit *edit, gboolean twice)
{
  const char *const *columns = ns_sweep_columns (sweep);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_autofree char *prefix = g_strdup_printf ("%u,", edit->point);

  for (guint i = 0; lines[i]; i++) {
    g_auto (GStrv) fields = NULL;
    if (!g_str_has_prefix (lines[i], prefix))
      continue;
    fields = ns_sweep_csv_split (lines[i]);
    for (guint k = 0; edit->set[k]; k += 2)
      for (guint c = 0; columns[c]; c++)
        if (!strcmp (columns[c], edit->set[k])) {
          g_free (fields[c]);
          fields[c] = g_strdup (edit->set[k + 1]);
        }
    if (twice) {
      g_autofree char *copy = g_strjoinv (",", fields);
      char *both = g_strconcat (lines[i], "\n", copy, NULL);
      g_free (lines[i]);
      lines[i] = both;
      break;
    }
    g_free (lines[i]);
    lines[i] = g_strjoinv (",", fields);
  }
  return g_strjoinv ("\n", lines);
}

/* Resumes path after writing text with edit (twice: as a second copy) to it: accepted, or
 * refused saying edit->want. */
static void
expect_resume (gboolean timing, const char *path, const char *text, const LineEdit *edit,
               gboolean twice)
{
  NsSweep *sweep = fields_sweep (timing);
  g_autofree char *edited = edited_output (sweep, text, edit, twice);
  GError *error = NULL;
  gboolean ok;

  ck_assert (g_file_set_contents (path, edited, -1, NULL));
  ok = ns_sweep_open (sweep, path, NS_SWEEP_RESUME, &error);
  if (edit->want == NULL)
    ck_assert_msg (ok && ns_sweep_n_done (sweep) == 2, "%s: %s", edit->set[0],
                   error ? error->message : "a point not taken");
  else {
    ck_assert_msg (!ok, "%s '%s' resumed", edit->set[0], edit->set[1]);
    ck_assert_msg (strstr (error->message, edit->want) != NULL, "%s: '%s' does not say '%s'",
                   edit->set[0], error->message, edit->want);
    g_error_free (error);
  }
  if (ok)
    ck_assert (ns_sweep_finish (sweep, NULL));
  if (ok && twice) {
    /* the second copy of a point is dropped: the file is rewritten without it */
    g_autofree char *after = file_text (path);
    ck_assert_msg (!strcmp (after, text), "%s: the second copy stayed", edit->set[0]);
  }
  ns_sweep_free (sweep);
}

/* Runs the fields sweep (with timing or not) into path, then resumes it after each of the
 * n edits of its lines and each of the n_twice copies of an edited line. */
static void
check_edits (gboolean timing, const char *path, const LineEdit *edits, guint n,
             const LineEdit *twice, guint n_twice)
{
  NsSweep *sweep = fields_sweep (timing);
  g_autofree char *text = NULL;

  run_to_end (sweep, path, NS_SWEEP_NEW, 1);
  text = file_text (path);
  ns_sweep_free (sweep);
  for (guint i = 0; i < n; i++)
    expect_resume (timing, path, text, &edits[i], FALSE);
  for (guint i = 0; i < n_twice; i++)
    expect_resume (timing, path, text, &twice[i], TRUE);
}

/* --resume reads each field as netsim writes it, for the point's own repetitions and
 * aggregate (swept <measure> attributes), and a failed point's line as netsim writes one. */
START_TEST (test_resume_checks_fields)
{
  g_autofree char *dir = g_dir_make_tmp ("test-sweep-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "out.csv", NULL);
  g_autofree char *timed = g_build_filename (dir, "timed.csv", NULL);
  const char *number = "where netsim writes a number in its shortest exact form";
  const char *failed_empty = "where netsim writes nothing (the point failed)";
  const LineEdit edits[] = {
    { 1, { NULL }, NULL },
    { 1, { "value", "abc", NULL }, "point 1's value is 'abc', " },
    { 1, { "value", "8.6x", NULL }, number },
    { 1, { "cv", "abc", NULL }, "point 1's cv is 'abc', " },
    { 1, { "value", "1.5", NULL }, "(the harmonic mean of its values)" },
    { 1, { "values", "1", NULL }, "where netsim writes 2 numbers (one a repetition)" },
    { 0, { "values", "1;2", NULL }, "where netsim writes 1 number (one a repetition)" },
    { 1, { "values", "abc;1", NULL }, "point 1's values is 'abc;1'" },
    { 1, { "reps", "1", NULL }, "where netsim writes 2 (the point's measure repetitions)" },
    { 1, { "ops", "abc", NULL }, "point 1's ops is 'abc', where netsim writes a count" },
    { 1, { "error", "boom", NULL }, "where netsim writes nothing (the point ran)" },
    /* a line whose key (point, swept values, repetition, seed) is not its point's */
    { 1, { "repetition", "1", NULL }, "not a point of this sweep" },
    /* a failed point: the scenario's metric, an error, nothing else */
    { 1, { "status", "failed", "value", "", "cv", "", "reps", "", "ops", "", "values", "",
           "error", "boom", NULL }, NULL },
    { 1, { "status", "failed", NULL }, failed_empty },
    { 1, { "status", "failed", "value", "", "cv", "", "reps", "", "ops", "", "values", "",
           NULL }, "point 1's error is '', where netsim writes why the point failed" },
    { 1, { "status", "failed", "value", "", "cv", "", "reps", "", "ops", "", "values", "",
           "error", "boom", "metric", "ns_per_call", NULL }, "(the scenario's)" },
    { 1, { "status", "failed", "value", "", "cv", "", "reps", "", "ops", "", "values", "",
           "error", "\"boom\"", NULL }, "is not quoted or spaced as netsim writes it" },
  };
  /* the last point twice: alike, taken once; with another count, two results */
  const LineEdit twice[] = {
    { 1, { NULL }, NULL },
    { 1, { "ops", "1", NULL }, "point 1 is also on line" },
  };
  /* with --timing, alike but for the wall time; a count of the same width apart */
  const LineEdit twice_timed[] = {
    { 1, { "wall_s", "99.999", NULL }, NULL },
    { 1, { "wall_s", "99.999", "ops", "99999", NULL }, "point 1 is also on line" },
  };
  const LineEdit walls[] = {
    { 1, { NULL }, NULL },
    { 1, { "wall_s", "0.000", NULL }, NULL },          /* a point faster than 0.5 ms */
    { 1, { "wall_s", "abc", NULL }, "point 1's wall_s is 'abc'" },
    { 1, { "wall_s", "inf", NULL }, "point 1's wall_s is 'inf'" },
    { 1, { "wall_s", "-1.000", NULL }, "point 1's wall_s is '-1.000'" },
  };

  check_edits (FALSE, out, edits, G_N_ELEMENTS (edits), twice, G_N_ELEMENTS (twice));
  check_edits (TRUE, timed, walls, G_N_ELEMENTS (walls), twice_timed,
               G_N_ELEMENTS (twice_timed));
  g_unlink (out);
  g_unlink (timed);
  g_rmdir (dir);
}
END_TEST

/* Resumes out holding text: must be accepted. */
static NsSweep *
resume_text (const char *out, const char *text)
{
  NsSweep *sweep = fields_sweep (FALSE);
  GError *error = NULL;

  ck_assert (g_file_set_contents (out, text, -1, NULL));
  ck_assert_msg (ns_sweep_open (sweep, out, NS_SWEEP_RESUME, &error), "%s", error->message);
  return sweep;
}

/* ns_sweep_notes of sweep: its n notes must be want (then finishes and frees sweep). */
static void
expect_notes (NsSweep *sweep, guint n, const char *const *want)
{
  g_autoptr (GPtrArray) notes = ns_sweep_notes (sweep);

  ck_assert_uint_eq (notes->len, n);
  for (guint i = 0; i < n; i++)
    ck_assert_str_eq (notes->pdata[i], want[i]);
  ck_assert (ns_sweep_finish (sweep, NULL));
  ns_sweep_free (sweep);
}

/* What a resumed sweep tells of its points: the notes of the points done, each with the
 * count that carry it (a point not done has none), and JSON with an error only where a
 * point failed. */
START_TEST (test_resumed_notes_and_json)
{
  g_autofree char *dir = g_dir_make_tmp ("test-sweep-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "out.csv", NULL);
  NsSweep *sweep = fields_sweep (FALSE);
  const LineEdit noted = { 0, { "notes", "one" NS_SWEEP_NOTES_SEP "two", NULL }, NULL };
  const LineEdit also = { 1, { "notes", "two", NULL }, NULL };
  const LineEdit failed = { 1, { "status", "failed", "value", "", "cv", "", "reps", "",
                                 "ops", "", "values", "", "error", "boom", NULL }, NULL };
  const char *const both_notes[] = { "(1 of 2 points): one", "(2 of 2 points): two" };
  const char *const first_notes[] = { "(1 of 1 points): one", "(1 of 1 points): two" };
  g_autofree char *text = NULL, *first = NULL, *two = NULL, *one_failed = NULL;
  GString *json = g_string_new (NULL);

  run_to_end (sweep, out, NS_SWEEP_NEW, 1);
  text = file_text (out);
  first = edited_output (sweep, text, &noted, FALSE);
  two = edited_output (sweep, first, &also, FALSE);
  one_failed = edited_output (sweep, first, &failed, FALSE);
  ns_sweep_free (sweep);
  expect_notes (resume_text (out, two), 2, both_notes);
  sweep = resume_text (out, one_failed);
  ns_sweep_json (sweep, json);
  ck_assert_msg (strstr (json->str, "\"error\": null,\n      \"notes\": [\n        \"one\",\n"
                                   "        \"two\"\n      ]") != NULL &&
                 strstr (json->str, "\"error\": \"boom\",\n      \"notes\": []") != NULL,
                 "%s", strstr (json->str, "\"points\""));
  ck_assert (ns_sweep_finish (sweep, NULL));
  ns_sweep_free (sweep);
  /* point 1 not done */
  strstr (first, "\n1,")[1] = '\0';
  sweep = resume_text (out, first);
  ck_assert_uint_eq (ns_sweep_n_done (sweep), 1);
  expect_notes (sweep, 2, first_notes);
  g_string_free (json, TRUE);
  g_unlink (out);
  g_rmdir (dir);
}
END_TEST

/* Resumes path holding the first len bytes of sweep's header: accepted; TRUE if opening
 * said the header was cut (and wrote it again). */
static gboolean
resume_header_part (const char *path, gsize len)
{
  NsSweep *sweep = fields_sweep (FALSE);
  GError *error = NULL;
  g_autofree char *after = NULL;
  gboolean cut;

  ck_assert (g_file_set_contents (path, ns_sweep_header (sweep), (gssize) len, NULL));
  ck_assert_msg (ns_sweep_open (sweep, path, NS_SWEEP_RESUME, &error), "%s",
                 error ? error->message : "?");
  ck_assert_uint_eq (ns_sweep_n_done (sweep), 0);
  ck_assert (!ns_sweep_was_torn (sweep));
  cut = ns_sweep_header_was_cut (sweep);
  after = file_text (path);
  ck_assert_str_eq (after, ns_sweep_header (sweep));
  ck_assert (ns_sweep_finish (sweep, NULL));
  ns_sweep_free (sweep);
  return cut;
}

/* A file of the whole header resumes as a sweep with no point done; an empty one too (a
 * crash before the header was written); a header cut short is said so and written again. */
START_TEST (test_resume_header_alone)
{
  g_autofree char *dir = g_dir_make_tmp ("test-sweep-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "out.csv", NULL);
  NsSweep *sweep = fields_sweep (FALSE);
  gsize len = strlen (ns_sweep_header (sweep));

  ns_sweep_free (sweep);
  ck_assert (!resume_header_part (out, len));
  ck_assert (!resume_header_part (out, 0));
  ck_assert (resume_header_part (out, len / 2));
  g_unlink (out);
  g_rmdir (dir);
}
END_TEST

START_TEST (test_resume_refuses_another_sweep)
{
  g_autofree char *dir = g_dir_make_tmp ("test-sweep-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "out.csv", NULL);
  const char *const other[] = { "workload.depth=1:6:1", "workload.body-insns=4,21", NULL };
  NsSweep *s1 = make_sweep (grid, "plain-ret", 1);
  NsSweep *s2 = make_sweep (other, "plain-ret", 1);
  NsSweep *s3 = make_sweep (grid, "retbleed-unret", 1);
  NsSweep *s4 = make_sweep (other, "plain-ret", 1);
  GError *error = NULL;

  ck_assert (ns_sweep_open (s1, out, NS_SWEEP_NEW, &error));
  ck_assert (ns_sweep_finish (s1, &error));
  ck_assert (!ns_sweep_open (s2, out, NS_SWEEP_RESUME, &error));
  ck_assert_int_eq (error->code, NS_ERROR_INPUT);
  ck_assert_msg (strstr (error->message, "different sweep") != NULL, "%s", error->message);
  g_clear_error (&error);
  ck_assert (!ns_sweep_open (s3, out, NS_SWEEP_RESUME, &error));
  g_clear_error (&error);
  /* --force starts over */
  ck_assert (ns_sweep_open (s4, out, NS_SWEEP_OVERWRITE, &error));
  ck_assert (ns_sweep_finish (s4, &error));
  ns_sweep_free (s1);
  ns_sweep_free (s2);
  ns_sweep_free (s3);
  ns_sweep_free (s4);
  g_unlink (out);
  g_rmdir (dir);
}
END_TEST

START_TEST (test_stop_starts_nothing)
{
  g_autofree char *dir = g_dir_make_tmp ("test-sweep-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "out.csv", NULL);
  static const volatile int stop = 1;
  NsSweepRunOptions opt = { 2, &stop, NULL, NULL, NULL };
  NsSweep *sweep = make_sweep (grid, "plain-ret", 1);
  GError *error = NULL;

  ck_assert (ns_sweep_open (sweep, out, NS_SWEEP_NEW, &error));
  ck_assert (ns_sweep_run (sweep, &opt, &error));
  ck_assert_uint_eq (ns_sweep_n_done (sweep), 0);
  ck_assert (!ns_sweep_complete (sweep));
  ck_assert (ns_sweep_finish (sweep, &error));
  ns_sweep_free (sweep);
  g_unlink (out);
  g_rmdir (dir);
}
END_TEST

static Suite *
sweep_suite (void)
{
  Suite *s = suite_create ("sweep");
  TCase *values = tcase_create ("values");
  TCase *grid_case = tcase_create ("grid");
  TCase *output = tcase_create ("output");

  tcase_add_test (values, test_expand_lists_and_ranges);
  tcase_add_test (values, test_expand_errors);
  tcase_add_test (values, test_expand_number_forms);
  tcase_add_test (values, test_csv_and_numbers);
  tcase_add_test (grid_case, test_grid_and_seeds);
  tcase_add_test (grid_case, test_swept_seed);
  tcase_add_test (grid_case, test_metric_keeps_the_seed);
  tcase_add_test (grid_case, test_prepare_refusals);
  tcase_add_test (grid_case, test_variants_and_sets);
  tcase_add_test (grid_case, test_header_and_queries);
  tcase_add_test (grid_case, test_grid_bound);
  tcase_add_test (grid_case, test_bad_set_refused);
  tcase_add_test (grid_case, test_failed_point_is_recorded);
  tcase_add_test (output, test_jobs_do_not_change_results);
  tcase_add_test (output, test_resume_after_torn_line);
  tcase_add_test (output, test_resume_refuses_another_sweep);
  tcase_add_test (output, test_resume_checks_fields);
  tcase_add_test (output, test_resume_header_alone);
  tcase_add_test (output, test_resumed_notes_and_json);
  tcase_add_test (output, test_stop_starts_nothing);
  suite_add_tcase (s, values);
  suite_add_tcase (s, grid_case);
  suite_add_tcase (s, output);
  return s;
}

int
main (void)
{
  SRunner *runner = srunner_create (sweep_suite ());
  int failed;

  ns_param_registry_init ();
  srunner_run_all (runner, CK_NORMAL);
  failed = srunner_ntests_failed (runner);
  srunner_free (runner);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
