/* test-hostbench.c — netsim calibrate --host's profile (sim/hostbench.c): it loads as a
 * CPU profile, every value it sets names a host measurement as its source, its name is
 * the file stem; bad names and unwritable paths are refused and write nothing; the
 * core-to-core statistic (half the median batch round trip) sheds a descheduled batch. The
 * measured values are not asserted: they are the host's (timing claims belong in
 * benchmarks), beyond lying inside the registry's ranges, which loading checks. */
#include "config.h"
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <gsl/gsl_sort.h>
#include "hostbench.h"
#include "machine.h"
#include "profile.h"

static const NsHostbenchOptions quick = { TRUE, FALSE, 1 };

/* Every parameter --host measures is in the profile text: set, or in a comment that it
 * was measured out of range or not measured (and why); of the core-to-core ones, exactly
 * one (the one CPUs 0 and 1 stand for). Also every cache size, set or said not read. */
static void
assert_each_measured_accounted (const char *text)
{
  GPtrArray *all = ns_param_all ();            /* the registry's */
  const char *const levels[] = { "l1d", "l1i", "l2", "l3", NULL };
  guint c2c = 0;

  for (guint i = 0; i < all->len; i++) {
    const NsParamDef *def = all->pdata[i];
    g_autofree char *set = g_strdup_printf ("name=\"%s\"", def->name);
    g_autofree char *out = g_strdup_printf ("<!-- %s: measured ", def->name);
    g_autofree char *none = g_strdup_printf ("<!-- %s: not measured: ", def->name);
    gboolean found = strstr (text, set) || strstr (text, out) || strstr (text, none);

    if (!ns_hostbench_measures (def->name))
      continue;
    if (g_str_has_prefix (def->name, "c2c."))
      c2c += found;
    else
      ck_assert_msg (found, "%s: neither written nor said why not", def->name);
  }
  ck_assert_msg (c2c == 1, "%u core-to-core parameters accounted for", c2c);
  for (guint l = 0; levels[l]; l++) {
    g_autofree char *set = g_strdup_printf ("name=\"cache.%s.size_kib\"", levels[l]);
    g_autofree char *none = g_strdup_printf ("<!-- cache.%s.size_kib: not read: ",
                                             levels[l]);

    ck_assert_msg (strstr (text, set) || strstr (text, none), "cache.%s.size_kib: neither "
                   "written nor said why not", levels[l]);
  }
}

START_TEST (test_profile_loads_with_sources)
{
  g_autofree char *dir = g_dir_make_tmp ("netsim-hostbench-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "this-host.xml", NULL);
  GError *error = NULL;
  NsCpuProfile *profile;

#if !defined(__x86_64__) || !defined(__linux__)
  ck_assert (!ns_hostbench_write_profile (path, &quick, &error));
  ck_assert (g_error_matches (error, NS_ERROR, NS_ERROR_INPUT));
  g_error_free (error);
  return;
#endif
  ck_assert_msg (ns_hostbench_write_profile (path, &quick, &error), "%s",
                 error ? error->message : "?");
  profile = ns_cpu_profile_load (path, &error);
  ck_assert_msg (profile != NULL, "%s", error ? error->message : "?");
  ck_assert_str_eq (profile->name, "this-host");
  /* the clock, four topology counts, cache geometry from sysfs or CPUID, measured
   * latencies */
  ck_assert_uint_ge (profile->set_names->len, 5);
  for (guint i = 0; i < profile->set_names->len; i++) {
    const char *name = profile->set_names->pdata[i];
    const char *source = ns_params_get_source (profile->params, name);
    ck_assert_msg (g_str_has_prefix (source, "host measurement ("), "%s: %s", name, source);
  }
  /* the clock and the topology are always written (a measured value outside its
   * range, e.g. on a loaded host, is left out with a comment) */
  ck_assert (g_ptr_array_find_with_equal_func (profile->set_names, "cpu.freq_ghz",
                                               g_str_equal, NULL));
  ck_assert (g_ptr_array_find_with_equal_func (profile->set_names, "cpu.smt",
                                               g_str_equal, NULL));
  ck_assert_uint_eq (profile->mitigation_defaults->len, 1);
  /* every measured (not sysfs or CPUID) value is one --into can write */
  for (guint i = 0; i < profile->set_names->len; i++) {
    const char *name = profile->set_names->pdata[i];
    const char *source = ns_params_get_source (profile->params, name);

    if (strstr (source, "sysfs") == NULL && strstr (source, "siblings_list") == NULL &&
        strstr (source, "online CPUs") == NULL && strstr (source, "CPUID") == NULL)
      ck_assert_msg (ns_hostbench_measures (name), "%s is written but not listed as "
                     "measured (ns_hostbench_measures)", name);
  }
  ck_assert (!ns_hostbench_measures ("branch.resolve_cycles"));
  /* the kernel's context-switch RSB fill sequence is run and written as its parameter */
  ck_assert (g_ptr_array_find_with_equal_func (profile->set_names, "ctxsw.rsb_fill_cycles",
                                               g_str_equal, NULL));
  /* the composite measurements are reported in the description, I-fetch among them */
  {
    g_autofree char *text = NULL;
    ck_assert (g_file_get_contents (path, &text, NULL, NULL));
    ck_assert_ptr_nonnull (strstr (text, "Safe RET"));
    ck_assert_ptr_nonnull (strstr (text, "Instruction fetch from L2 over L1I"));
    /* the datagram's copy beside the model's price for it from the values written */
    ck_assert_ptr_nonnull (strstr (text, "A datagram's user copy (seed 000's, REP MOVSB of "
                                         "8920 bytes"));
    ck_assert (strstr (text, "where the model charges x86.rep_long_cycles + 8920 / "
                             "mem.bw_l1_bytes_per_cycle = ") != NULL ||
               strstr (text, "no L1D copy bandwidth measured") != NULL);
    /* cpu.mlp is a parameter, a comment when a quick run's figure falls outside the
     * range, or one that says why it was not measured (one CPU; on a busy host the
     * ping-pong can complete no batch in its time) */
    ck_assert_msg (strstr (text, "\"cpu.mlp\"") != NULL ||
                   strstr (text, "<!-- cpu.mlp: measured ") != NULL ||
                   strstr (text, "<!-- cpu.mlp: not measured: ") != NULL,
                   "cpu.mlp: neither written nor said why not");
    assert_each_measured_accounted (text);
    /* every x86-64 CPU gives its L1D size, in sysfs or CPUID (Intel leaf 4, AMD
     * Fn8000_0005), where a guest's kernel may list no caches at all */
    ck_assert_ptr_nonnull (strstr (text, "name=\"cache.l1d.size_kib\""));
    /* one L3 domain a package (no L3 sharing known, as on a Firecracker guest) puts CPUs
     * 0 and 1 of a package in one domain: their ping-pong is not c2c.socket_ns */
    if (strstr (text, "no L3 sharing known, so one L3 domain a package"))
      ck_assert_ptr_null (strstr (text, "c2c.socket_ns"));
  }
  ns_cpu_profile_free (profile);
  g_unlink (path);
  g_rmdir (dir);
}
END_TEST

/* The ping-pong's statistic: half the median batch round trip. Nine batches of 64 round
 * trips at 100 ns each (6400 ns) and one in which a side was descheduled for 5 ms give 50
 * ns one way; the mean over all rounds (what c2c_ns took before) would give 3951 ns. */
START_TEST (test_one_way_sheds_deschedules)
{
  double batches[10] = { 6400, 6400, 6400, 6400, 5e6, 6400, 6400, 6400, 6400, 6400 };
  double odd[3] = { 6400, 12800, 6528 };

  ck_assert_double_eq_tol (ns_hostbench_one_way_ns (batches, 10, 64), 50.0, 1e-9);
  /* an odd count takes the middle one: 6528 / 128 */
  ck_assert_double_eq_tol (ns_hostbench_one_way_ns (odd, 3, 64), 51.0, 1e-9);
}
END_TEST

/* cpu.mlp and mem.copy_mlp from the ping-pong: a 40 ns half round trip at 3 GHz is 120
 * cycles, one LOCK XADD (20) of it the locked RMW, whose L1 read the transfer replaces,
 * so a store or a copy waits 100 cycles beyond an L1 hit: stores at 10 cycles a line
 * keep 10 in flight, a copy at 8 cycles a line 12.5; a half round trip no longer than
 * the RMW leaves nothing to overlap. */
START_TEST (test_lines_in_flight)
{
  ck_assert_double_eq_tol (ns_hostbench_lines_in_flight (40, 3, 20, 10), 10.0, 1e-9);
  ck_assert_double_eq_tol (ns_hostbench_lines_in_flight (40, 3, 20, 8), 12.5, 1e-9);
  ck_assert_double_eq_tol (ns_hostbench_lines_in_flight (5, 3, 20, 10), 0.0, 1e-12);
  ck_assert_double_eq_tol (ns_hostbench_lines_in_flight (6.6, 3, 20, 10), 0.0, 1e-12);
}
END_TEST

/* Runs that disagree by more than NS_HOSTBENCH_RUNS_DISAGREE (the largest over the
 * smallest) get a note saying so, with the ratio; runs that agree, one run, and figures
 * that are not all positive get none. */
START_TEST (test_spread_note)
{
  const double bimodal[] = { 55.8, 56.1, 27.5 };       /* the Zen 4 guest's cpu.mlp runs */
  const double close[] = { 28.3, 28.5, 36.6 };
  const double with_zero[] = { 0, 40 };
  g_autofree char *note = ns_hostbench_spread_note (bimodal, 3);

  ck_assert_ptr_nonnull (note);
  ck_assert_msg (g_str_has_prefix (note, "the runs disagree (the largest is 2.0 times the "
                                   "smallest)"), "%s", note);
  ck_assert_ptr_null (ns_hostbench_spread_note (close, 3));
  ck_assert_ptr_null (ns_hostbench_spread_note (bimodal, 1));
  ck_assert_ptr_null (ns_hostbench_spread_note (with_zero, 2));
}
END_TEST

/* A benchmark's command line: a known option is taken out of argv and set; an unknown
 * one is refused with "prog: " and GOption's message on standard error. */
START_TEST (test_parse_args)
{
  const GOptionEntry entries[] = {
    { "runs", 'r', 0, G_OPTION_ARG_INT, NULL, "Runs", "N" }, { NULL }
  };
  GOptionEntry with_target[2] = { entries[0], entries[1] };
  char *good[] = { "bench-x", "--runs", "7", "left", NULL }, *bad[] = { "bench-x", "--bogus", NULL };
  char **argv = good, *err_path = NULL, *err_text = NULL;
  int argc = 4, saved, fd, runs = 0;

  g_setenv ("LC_ALL", "C", TRUE);   /* GOption's message untranslated */
  with_target[0].arg_data = &runs;
  ck_assert (ns_hostbench_parse_args ("bench-x", "— a test", with_target, &argc, &argv));
  ck_assert_int_eq (runs, 7);
  ck_assert_int_eq (argc, 2);
  ck_assert_str_eq (argv[1], "left");
  fd = g_file_open_tmp ("test-hostbench-XXXXXX", &err_path, NULL);
  ck_assert_int_ge (fd, 0);
  fflush (stderr);
  saved = dup (STDERR_FILENO);
  dup2 (fd, STDERR_FILENO);
  argc = 2, argv = bad;
  ck_assert (!ns_hostbench_parse_args ("bench-x", "— a test", with_target, &argc, &argv));
  fflush (stderr);
  dup2 (saved, STDERR_FILENO);
  close (saved);
  close (fd);
  ck_assert (g_file_get_contents (err_path, &err_text, NULL, NULL));
  ck_assert_str_eq (err_text, "bench-x: Unknown option --bogus\n");
  g_unlink (err_path);
  g_free (err_path);
  g_free (err_text);
}
END_TEST

/* With runs = 3 every measured parameter is the median of the three figures its source
 * lists (with three runs the median is one of them, so the rounding of the written
 * figures keeps it), the stamp names the runs, and one run lists none. */
START_TEST (test_runs_give_medians)
{
  g_autofree char *dir = g_dir_make_tmp ("netsim-hostbench-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "three-runs.xml", NULL);
  g_autofree char *text = NULL;
  const NsHostbenchOptions three = { TRUE, FALSE, 3 };
  g_autoptr (GRegex) re = g_regex_new ("name=\"([^\"]+)\" value=\"([^\"]+)\" source=\"[^\"]*"
                                       "median of 3 runs: ([^,\"]+), ([^,\"]+), ([^,;\"]+)"
                                       "(?:; the runs disagree [^\"]*)?\"",
                                       0, 0, NULL);
  g_autoptr (GMatchInfo) match = NULL;
  GError *error = NULL;
  guint checked = 0;

#if !defined(__x86_64__) || !defined(__linux__)
  return;
#endif
  ck_assert_msg (ns_hostbench_write_profile (path, &three, &error), "%s",
                 error ? error->message : "?");
  ck_assert (g_file_get_contents (path, &text, NULL, NULL));
  ck_assert_ptr_nonnull (strstr (text, "netsim calibrate --host --quick --runs 3, "));
  ck_assert_ptr_nonnull (strstr (text, "Each figure is the median of the runs."));
  for (g_regex_match (re, text, 0, &match); g_match_info_matches (match);
       g_match_info_next (match, NULL)) {
    g_autofree char *name = g_match_info_fetch (match, 1);
    g_autofree char *value = g_match_info_fetch (match, 2);
    double f[3], v = g_ascii_strtod (value, NULL);

    for (guint i = 0; i < 3; i++) {
      g_autofree char *figure = g_match_info_fetch (match, 3 + i);

      f[i] = g_ascii_strtod (figure, NULL);
    }
    /* the middle one of the three */
    gsl_sort (f, 1, 3);
    ck_assert_msg (v == f[1], "%s: %s is not the median of %g, %g, %g", name, value, f[0],
                   f[1], f[2]);
    checked++;
  }
  /* the clock and every measured latency and cost at least */
  ck_assert_uint_ge (checked, 8);
  ck_assert_ptr_nonnull (strstr (text, "name=\"cpu.freq_ghz\""));
  g_unlink (path);
  g_free (g_steal_pointer (&text));

  ck_assert (ns_hostbench_write_profile (path, &quick, &error));
  ck_assert (g_file_get_contents (path, &text, NULL, NULL));
  ck_assert_ptr_null (strstr (text, "median of"));
  ck_assert_ptr_null (strstr (text, "--runs"));
  g_unlink (path);
  g_rmdir (dir);
}
END_TEST

/* ns_hostbench_measure: the named values in order, each with its source (the runs'
 * figures with several); a name --host does not measure is refused before measuring. */
START_TEST (test_measure_named_values)
{
  const char *const named[] = { "lock.atomic_cycles", "cpu.freq_ghz", NULL };
  const char *const unmeasured[] = { "cpu.freq_ghz", "branch.resolve_cycles", NULL };
  const NsHostbenchOptions three = { TRUE, FALSE, 3 };
  g_autoptr (GPtrArray) values = NULL, sources = NULL;
  GError *error = NULL;

  ck_assert (!ns_hostbench_measure (&quick, unmeasured, &values, &sources, &error));
  ck_assert (g_error_matches (error, NS_ERROR, NS_ERROR_INPUT));
#if defined(__x86_64__) && defined(__linux__)
  ck_assert_msg (g_str_has_prefix (error->message, "branch.resolve_cycles: not a value"),
                 "%s", error->message);
#endif
  g_clear_error (&error);
  ck_assert_ptr_null (values);
#if !defined(__x86_64__) || !defined(__linux__)
  return;
#endif
  ck_assert_msg (ns_hostbench_measure (&three, named, &values, &sources, &error), "%s",
                 error ? error->message : "?");
  ck_assert_uint_eq (values->len, 2);
  ck_assert_uint_eq (sources->len, 2);
  for (guint i = 0; i < 2; i++) {
    ck_assert (g_ascii_strtod (values->pdata[i], NULL) > 0);
    ck_assert_msg (g_str_has_prefix (sources->pdata[i], "host measurement (netsim calibrate "
                                     "--host --quick --runs 3, "), "%s",
                   (char *) sources->pdata[i]);
    ck_assert_ptr_nonnull (strstr (sources->pdata[i], "; median of 3 runs: "));
  }
  ck_assert_ptr_nonnull (strstr (sources->pdata[0], "LOCK XADD"));
  ck_assert_ptr_nonnull (strstr (sources->pdata[1], "dependent ADDs"));
}
END_TEST

/* The deterministic cache parameters decoded from a real CPU's registers (a public
 * CPUID dump of a Ryzen 5 5600G, Zen 3, Fn8000_001D; one of a Core i7-3770, leaf 4): size
 * = ways x partitions x line x sets; the list's end is type 0. */
START_TEST (test_cpuid_cache_decode)
{
  NsCpuidCache l2 = ns_hostbench_cpuid_cache (0x00004143, 0x01c0003f, 0x000003ff);
  NsCpuidCache l3 = ns_hostbench_cpuid_cache (0x0002c163, 0x03c0003f, 0x00003fff);
  NsCpuidCache l1i = ns_hostbench_cpuid_cache (0x00004122, 0x01c0003f, 0x0000003f);
  NsCpuidCache intel_l3 = ns_hostbench_cpuid_cache (0x1c03c163, 0x03c0003f, 0x00001fff);
  NsCpuidCache end = ns_hostbench_cpuid_cache (0, 0, 0);

  ck_assert_uint_eq (l2.type, 3);                   /* unified */
  ck_assert_uint_eq (l2.level, 2);
  ck_assert_uint_eq (l2.size, 512 * 1024);          /* 8 ways x 64 B x 1024 sets */
  ck_assert_uint_eq (l2.ways, 8);
  ck_assert_uint_eq (l2.line, 64);
  ck_assert_uint_eq (l2.sharing, 2);                /* the core's two threads */
  ck_assert_uint_eq (l3.level, 3);
  ck_assert_uint_eq (l3.size, 16 << 20);            /* 16 ways x 64 B x 16384 sets */
  ck_assert_uint_eq (l3.ways, 16);
  ck_assert_uint_eq (l3.sharing, 12);               /* six cores, two threads each */
  ck_assert_uint_eq (l1i.type, 2);                  /* instruction */
  ck_assert_uint_eq (l1i.level, 1);
  ck_assert_uint_eq (l1i.size, 32 * 1024);
  ck_assert_uint_eq (intel_l3.size, 8 << 20);
  ck_assert_uint_eq (intel_l3.ways, 16);
  ck_assert_uint_eq (intel_l3.sharing, 16);
  ck_assert_uint_eq (end.type, 0);
  ck_assert_uint_eq (end.size, 0);
}
END_TEST

/* AMD's older leaves, from the registers of this project's Firecracker guest (EPYC
 * family 26, Fn8000_001D all zero): Fn8000_0005 ECX 0x300c0140 (L1D 48 KiB 12-way), EDX
 * 0x20080140 (L1I 32 KiB 8-way); Fn8000_0006 ECX 0x04006140 (L2 1 MiB, ways only a range),
 * EDX 0x0fe09140 (associativity code 9: "see Fn8000_001D", so no L3 from it). The 5600G's
 * EDX 0x00809140 (code 9 too) would read as a 1 MiB L3 against its 16 MiB. */
START_TEST (test_cpuid_amd_legacy_decode)
{
  NsCpuidCache l1d = ns_hostbench_cpuid_amd_cache (0x300c0140, 1, FALSE);
  NsCpuidCache l1i = ns_hostbench_cpuid_amd_cache (0x20080140, 1, TRUE);
  NsCpuidCache l2 = ns_hostbench_cpuid_amd_cache (0x04006140, 2, FALSE);
  NsCpuidCache l3 = ns_hostbench_cpuid_amd_cache (0x0fe09140, 3, FALSE);
  NsCpuidCache zen3_l3 = ns_hostbench_cpuid_amd_cache (0x00809140, 3, FALSE);
  NsCpuidCache no_l2 = ns_hostbench_cpuid_amd_cache (0x04000140, 2, FALSE);

  ck_assert_uint_eq (l1d.type, 1);
  ck_assert_uint_eq (l1d.size, 48 * 1024);
  ck_assert_uint_eq (l1d.ways, 12);
  ck_assert_uint_eq (l1d.line, 64);
  ck_assert_uint_eq (l1i.type, 2);
  ck_assert_uint_eq (l1i.size, 32 * 1024);
  ck_assert_uint_eq (l1i.ways, 8);
  ck_assert_uint_eq (l2.type, 3);
  ck_assert_uint_eq (l2.level, 2);
  ck_assert_uint_eq (l2.size, 1024 * 1024);
  ck_assert_uint_eq (l2.ways, 0);                   /* code 6: 8 to 15 ways */
  ck_assert_uint_eq (l3.type, 0);
  ck_assert_uint_eq (zen3_l3.type, 0);
  ck_assert_uint_eq (no_l2.type, 0);                /* code 0: no such cache */
  /* a code other than 0 or 9 gives the L3 in 512 KiB units */
  ck_assert_uint_eq (ns_hostbench_cpuid_amd_cache (0x00806140, 3, FALSE).size, 16 << 20);
}
END_TEST

/* The spectre_v2 mode a host runs, from its vulnerabilities file as bugs.c (5.17-6.9)
 * prints it: the mode is the text before the first ", " (";" from 0cd01ac5dcb1, v6.9),
 * matched whole, so "IBRS" in "PBRSB-eIBRS: ..." or "eIBRS" is no legacy IBRS, and the
 * "Vulnerable: eIBRS..." lines name the eIBRS mode in force. */
START_TEST (test_spectre_v2_sysfs_words)
{
  static const char *const cases[][2] = {
    { "Vulnerable, IBPB: disabled, STIBP: disabled, PBRSB-eIBRS: Vulnerable\n", "off" },
    { "Vulnerable; IBPB: disabled; STIBP: disabled; PBRSB-eIBRS: Vulnerable; "
      "BHI: Vulnerable\n", "off" },
    { "Vulnerable: eIBRS with unprivileged eBPF\n", "eibrs" },
    { "Vulnerable: eIBRS+LFENCE with unprivileged eBPF and SMT\n", "eibrs,lfence" },
    { "Vulnerable: LFENCE\n", "lfence" },
    { "Mitigation: Retpolines, IBPB: conditional, STIBP: disabled, RSB filling, "
      "PBRSB-eIBRS: Not affected\n", "retpoline" },
    { "Mitigation: Retpolines; IBPB: conditional; STIBP: always-on; RSB filling; "
      "PBRSB-eIBRS: Not affected; BHI: Retpoline\n", "retpoline" },
    { "Mitigation: Enhanced IBRS, IBPB: conditional, RSB filling, "
      "PBRSB-eIBRS: SW sequence\n", "eibrs" },
    { "Mitigation: Enhanced / Automatic IBRS; IBPB: conditional; RSB filling; "
      "PBRSB-eIBRS: SW sequence; BHI: SW loop, KVM: SW loop\n", "eibrs" },
    { "Mitigation: Enhanced IBRS + Retpolines, IBPB: conditional, RSB filling, "
      "PBRSB-eIBRS: SW sequence\n", "eibrs,retpoline" },
    { "Mitigation: Enhanced / Automatic IBRS + Retpolines; IBPB: conditional; "
      "RSB filling; PBRSB-eIBRS: SW sequence; BHI: Retpoline\n", "eibrs,retpoline" },
    { "Mitigation: Enhanced IBRS + LFENCE, IBPB: conditional, RSB filling, "
      "PBRSB-eIBRS: SW sequence\n", "eibrs,lfence" },
    { "Mitigation: Enhanced / Automatic IBRS + LFENCE; IBPB: conditional; RSB filling; "
      "PBRSB-eIBRS: Not affected; BHI: Not affected\n", "eibrs,lfence" },
    { "Mitigation: IBRS, IBPB: conditional, STIBP: disabled, RSB filling, "
      "PBRSB-eIBRS: Not affected\n", "ibrs" },
    { "Mitigation: IBRS; IBPB: conditional; STIBP: disabled; RSB filling; "
      "PBRSB-eIBRS: Not affected; BHI: Vulnerable\n", "ibrs" },
    { "Mitigation: something new, IBPB: conditional\n", "off" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    ck_assert_msg (!strcmp (ns_hostbench_spectre_v2_mode (cases[i][0]), cases[i][1]),
                   "'%s' read as %s, not %s", cases[i][0],
                   ns_hostbench_spectre_v2_mode (cases[i][0]), cases[i][1]);
  ck_assert_str_eq (ns_hostbench_spectre_v2_mode (NULL), "off");
}
END_TEST

/* The other vulnerabilities files, read as bugs.c prints them: the mode whole, before the
 * first separator, whatever case v6.5 gave "safe RET" (a substring match read IBPB on
 * VMEXIT only as IBPB on every entry, missed retbleed's IBPB and 6.5's "safe RET"). */
START_TEST (test_vuln_sysfs_words)
{
  static const char *const cases[][3] = {
    { "retbleed", "Mitigation: untrained return thunk; SMT vulnerable\n", "unret" },
    { "retbleed", "Mitigation: IBPB\n", "ibpb" },
    { "retbleed", "Mitigation: Enhanced IBRS\n", "eibrs" },
    { "retbleed", "Mitigation: IBRS\n", "ibrs" },
    { "retbleed", "Vulnerable\n", "off" },
    { "retbleed", "Not affected\n", "off" },
    { "retbleed", "Vulnerable: untrained return thunk / IBPB on non-AMD based uarch\n", "off" },
    { "spec_rstack_overflow", "Mitigation: safe RET, no microcode\n", "safe-ret" },
    { "spec_rstack_overflow", "Mitigation: Safe RET\n", "safe-ret" },
    { "spec_rstack_overflow", "Vulnerable: Safe RET, no microcode\n", "safe-ret" },
    { "spec_rstack_overflow", "Mitigation: IBPB\n", "ibpb" },
    { "spec_rstack_overflow", "Mitigation: IBPB on VMEXIT only\n", "off" },
    { "spec_rstack_overflow", "Vulnerable: No microcode\n", "off" },
    { "meltdown", "Mitigation: PTI\n", "true" },
    { "meltdown", "Not affected\n", "false" },
    { "mds", "Mitigation: Clear CPU buffers; SMT vulnerable\n", "true" },
    { "mds", "Vulnerable: Clear CPU buffers attempted, no microcode; SMT vulnerable\n",
      "true" },
    { "mds", "Vulnerable; SMT vulnerable\n", "false" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    const char *fallback = !strcmp (cases[i][0], "meltdown") ||
                           !strcmp (cases[i][0], "mds") ? "false" : "off";
    const char *got = ns_hostbench_vuln_mode (cases[i][0], cases[i][1], fallback);
    ck_assert_msg (!strcmp (got, cases[i][2]), "%s '%s' read as %s, not %s", cases[i][0],
                   cases[i][1], got, cases[i][2]);
  }
  ck_assert_str_eq (ns_hostbench_vuln_mode ("retbleed", NULL, "off"), "off");
}
END_TEST

/* The default calibrate --host writes for the host's spectre_v2 mode: the mode, but for
 * the eIBRS modes with a thunk, which only the command line selects (a profile refuses
 * them): eibrs, the kernel's auto choice, with the command line that gives the host's. */
START_TEST (test_spectre_v2_default_of_host)
{
  static const char *const modes[] = { "off", "retpoline", "lfence", "eibrs", "ibrs" };
  const char *cmdline = "x";

  for (guint i = 0; i < G_N_ELEMENTS (modes); i++) {
    ck_assert_str_eq (ns_hostbench_spectre_v2_default (modes[i], &cmdline), modes[i]);
    ck_assert_ptr_null (cmdline);
  }
  ck_assert_str_eq (ns_hostbench_spectre_v2_default ("eibrs,retpoline", &cmdline), "eibrs");
  ck_assert_str_eq (cmdline, "eibrs,retpoline");
  ck_assert_str_eq (ns_hostbench_spectre_v2_default ("eibrs,lfence", &cmdline), "eibrs");
  ck_assert_str_eq (cmdline, "eibrs,lfence");
}
END_TEST

/* retbleed=stuff, like the eIBRS thunk modes, only the command line selects: the default
 * written for such a host is the auto choice under its retpolines, none, and the command
 * line is named; every other mode is written as it is. */
START_TEST (test_retbleed_default_of_host)
{
  static const char *const modes[] = { "off", "unret", "ibpb", "ibrs", "eibrs" };
  const char *cmdline = "x";

  for (guint i = 0; i < G_N_ELEMENTS (modes); i++) {
    ck_assert_str_eq (ns_hostbench_retbleed_default (modes[i], &cmdline), modes[i]);
    ck_assert_ptr_null (cmdline);
  }
  ck_assert_str_eq (ns_hostbench_retbleed_default ("stuff", &cmdline), "off");
  ck_assert_str_eq (cmdline, "stuff");
}
END_TEST

/* Which CPUs share a cache, from APIC IDs and CPUID's sharing count: the 5600G's cores 0
 * and 1 (APIC IDs 0 and 2) share its L3 (12 sharing: IDs 0-15); a count of 8 puts IDs 0
 * and 8 in two caches; a count of 1 shares with itself only. */
START_TEST (test_apic_share)
{
  ck_assert (ns_hostbench_apic_share (0, 2, 12));
  ck_assert (ns_hostbench_apic_share (0, 15, 12));
  ck_assert (!ns_hostbench_apic_share (0, 16, 12));
  ck_assert (ns_hostbench_apic_share (0, 7, 8));
  ck_assert (!ns_hostbench_apic_share (0, 8, 8));
  ck_assert (ns_hostbench_apic_share (5, 5, 1));
  ck_assert (!ns_hostbench_apic_share (4, 5, 1));
}
END_TEST

/* TRUE if line is one of lines. */
static gboolean
has_line (GPtrArray *lines, const char *line)
{
  return g_ptr_array_find_with_equal_func (lines, line, g_str_equal, NULL);
}

/* lines (ns_hostbench_unmeasured's) are exactly expected (NULL-terminated), in order. */
static void
assert_lines (GPtrArray *lines, const char *const *expected)
{
  guint n = 0;

  for (; expected[n] != NULL; n++) {
    ck_assert_msg (n < lines->len, "missing: %s", expected[n]);
    ck_assert_str_eq (lines->pdata[n], expected[n]);
  }
  ck_assert_msg (lines->len == n, "more lines than expected: %s",
                 lines->len > n ? (char *) lines->pdata[n] : "");
}

/* Why each parameter --host measures is missing, from what a run had to go on: the
 * Firecracker guest (no L3 from sysfs or CPUID) on a busy day (the ping-pong completed
 * no batch); the same guest before the CPUID fallback (no cache sizes at all); a one-CPU
 * host. A parameter that was measured gets no line, nor do the c2c distances CPUs 0 and 1
 * do not stand for. */
START_TEST (test_unmeasured_reasons)
{
  const char *const busy_measured[] = {
    "cpu.freq_ghz", "cache.l1d.latency_cycles", "cache.l2.latency_cycles",
    "mem.dram_latency_ns", "branch.mispredict_cycles", "icall.predicted_cycles",
    "icall.lfence_cycles", "lock.atomic_cycles", "x86.rdtsc_cycles",
    "x86.rep_short_cycles", "x86.rep_long_cycles",
    "ctxsw.rsb_fill_cycles", "mem.bw_l1_bytes_per_cycle", "mem.bw_l2_bytes_per_cycle",
    "mem.bw_dram_gbps", NULL };
  const char *const busy_expected[] = {
    "cache.l3.latency_cycles: not measured: neither sysfs nor CPUID gives the L3 size",
    "c2c.ccx_ns: not measured: the ping-pong between CPUs 0 and 1 completed no batch "
    "within its time (pinning refused or a busy host)",
    "ifetch.seq_mlp: not measured: it needs the L3 latency, and neither sysfs nor CPUID "
    "gives the L3 size",
    "cpu.mlp: not measured: the ping-pong between CPUs 0 and 1 completed no batch within "
    "its time (pinning refused or a busy host)",
    "mem.copy_mlp: not measured: the ping-pong between CPUs 0 and 1 completed no batch "
    "within its time (pinning refused or a busy host)",
    "x86.rep_long_bytes: not measured: REP strings of 8 to 512 bytes showed no step from "
    "the short cost to at least twice it",
    "mem.bw_l3_bytes_per_cycle: not measured: neither sysfs nor CPUID gives the L3 size",
    "cache.l3.size_kib: not read: neither sysfs nor CPUID gives the L3 size", NULL };
  const NsHostbenchRun busy = { 2, "c2c.ccx_ns", 48 << 10, 32 << 10, 1 << 20, 0,
                                FALSE, FALSE, FALSE };
  const char *const bare_measured[] = { "cpu.freq_ghz", "mem.dram_latency_ns",
    "c2c.ccx_ns", "cpu.mlp", "branch.mispredict_cycles", "icall.predicted_cycles",
    "icall.lfence_cycles", "lock.atomic_cycles", "x86.rdtsc_cycles",
    "x86.rep_short_cycles", "x86.rep_long_cycles", "x86.rep_long_bytes",
    "ctxsw.rsb_fill_cycles", "mem.bw_dram_gbps", NULL };
  const NsHostbenchRun bare = { 2, "c2c.ccx_ns", 0, 0, 0, 0, TRUE, TRUE, TRUE };
  const char *const one_measured[] = { "cpu.freq_ghz", "cache.l1d.latency_cycles",
    "cache.l2.latency_cycles", "cache.l3.latency_cycles", "mem.dram_latency_ns",
    "ifetch.seq_mlp", "branch.mispredict_cycles", "icall.predicted_cycles",
    "icall.lfence_cycles", "lock.atomic_cycles", "x86.rdtsc_cycles",
    "x86.rep_short_cycles", "x86.rep_long_cycles", "x86.rep_long_bytes",
    "ctxsw.rsb_fill_cycles", "mem.bw_l1_bytes_per_cycle", "mem.bw_l2_bytes_per_cycle",
    "mem.bw_l3_bytes_per_cycle", "mem.bw_dram_gbps", NULL };
  const char *const one_expected[] = {
    "c2c.remote_ns: not measured: one CPU online",
    "cpu.mlp: not measured: one CPU online",
    "mem.copy_mlp: not measured: one CPU online", NULL };
  const NsHostbenchRun one = { 1, "c2c.remote_ns", 32 << 10, 32 << 10, 1 << 20, 32 << 20,
                               FALSE, FALSE, FALSE };
  const NsHostbenchRun l2_small = { 2, "c2c.ccx_ns", 32 << 10, 32 << 10, 64 << 10, 0,
                                    TRUE, TRUE, FALSE };
  g_autoptr (GPtrArray) busy_lines = ns_hostbench_unmeasured (&busy, busy_measured);
  g_autoptr (GPtrArray) bare_lines = ns_hostbench_unmeasured (&bare, bare_measured);
  g_autoptr (GPtrArray) one_lines = ns_hostbench_unmeasured (&one, one_measured);
  g_autoptr (GPtrArray) small_lines = ns_hostbench_unmeasured (&l2_small, busy_measured);

  assert_lines (busy_lines, busy_expected);
  ck_assert_uint_eq (bare_lines->len, 12);    /* 3 latencies, ifetch.seq_mlp,
                                                 mem.copy_mlp, 3 bandwidths, 4 sizes */
  ck_assert_str_eq (bare_lines->pdata[0], "cache.l1d.latency_cycles: not measured: "
                    "neither sysfs nor CPUID gives the L1D size");
  ck_assert (has_line (bare_lines,
    "mem.copy_mlp: not measured: it needs the L1D latency, and neither sysfs nor CPUID "
    "gives the L1D size"));
  ck_assert (has_line (bare_lines,
    "ifetch.seq_mlp: not measured: neither sysfs nor CPUID gives the L2 size (fetch from "
    "L2 and L3 needs it)"));
  assert_lines (one_lines, one_expected);
  /* an L2 of 2 x L1D and 2 x L1I: measured, but too small to fetch from; the stores
   * completed no round though the ping-pong did */
  ck_assert (has_line (small_lines,
    "ifetch.seq_mlp: not measured: the L2 (64 KiB) is not above 4 x the L1I (32 KiB), too "
    "little to fetch code from beyond L1I"));
  ck_assert (has_line (small_lines,
    "cpu.mlp: not measured: the stores into 16 KiB CPU 1 had just written completed no "
    "round within its time (pinning refused or a busy host)"));
  ck_assert (has_line (small_lines,
    "c2c.ccx_ns: not measured: the measurement gave no figure above 0"));
  /* no line may end an XML comment early */
  for (guint i = 0; i < busy_lines->len; i++)
    ck_assert_ptr_null (strstr (busy_lines->pdata[i], "--"));
}
END_TEST

START_TEST (test_refusals_write_nothing)
{
  g_autofree char *dir = g_dir_make_tmp ("netsim-hostbench-XXXXXX", NULL);
  g_autofree char *txt = g_build_filename (dir, "host.txt", NULL);
  g_autofree char *bare = g_build_filename (dir, ".xml", NULL);
  g_autofree char *missing = g_build_filename (dir, "no", "such", "host.xml", NULL);
  GError *error = NULL;

  ck_assert (!ns_hostbench_write_profile (txt, &quick, &error));
  ck_assert (g_error_matches (error, NS_ERROR, NS_ERROR_INPUT));
  ck_assert_ptr_nonnull (strstr (error->message, "NAME.xml"));
  g_clear_error (&error);
  ck_assert (!ns_hostbench_write_profile (bare, &quick, &error));
  g_clear_error (&error);
  ck_assert (!g_file_test (txt, G_FILE_TEST_EXISTS));
#if defined(__x86_64__) && defined(__linux__)
  ck_assert (!ns_hostbench_write_profile (missing, &quick, &error));
  ck_assert (g_error_matches (error, NS_ERROR, NS_ERROR_INPUT));
  ck_assert_ptr_nonnull (strstr (error->message, "no such directory"));
  g_clear_error (&error);
#endif
  ck_assert (!g_file_test (missing, G_FILE_TEST_EXISTS));
  g_rmdir (dir);
}
END_TEST

/* The c2c parameter CPUs 0 and 1 stand for follows the L3 domains the profile's topology
 * writes: the Firecracker guest (no L3 size from sysfs or CPUID, CPUs 0 and 1 in one
 * package of 2) gets one domain a package, so its ping-pong is c2c.ccx_ns, assumed, not
 * c2c.socket_ns (which the model never charges two CPUs of one domain). Where the L3's
 * sharing is known, it decides; SMT siblings and other packages are what they are. */
START_TEST (test_c2c_param_follows_topology)
{
  const NsHostPair guest = { 2, 0, 0, FALSE, FALSE, TRUE };
  const NsHostPair amd_legacy = { 16, 32 << 20, 0, FALSE, FALSE, TRUE }; /* no count */
  const NsHostPair zen = { 32, 32 << 20, 16, FALSE, FALSE, TRUE };       /* 2 CCDs */
  const NsHostPair zen_shared = { 32, 32 << 20, 16, FALSE, TRUE, TRUE };
  const NsHostPair smt = { 2, 0, 0, TRUE, FALSE, TRUE };
  const NsHostPair two_sockets = { 1, 0, 0, FALSE, FALSE, FALSE };
  gboolean assumed = FALSE;

  ck_assert_uint_eq (ns_hostbench_l3_domain (&guest, &assumed), 2);
  ck_assert (assumed);
  ck_assert_str_eq (ns_hostbench_c2c_param (&guest, &assumed), "c2c.ccx_ns");
  ck_assert (assumed);
  ck_assert_str_eq (ns_hostbench_c2c_param (&amd_legacy, &assumed), "c2c.ccx_ns");
  ck_assert (assumed);
  ck_assert_uint_eq (ns_hostbench_l3_domain (&zen, &assumed), 16);
  ck_assert (!assumed);
  ck_assert_str_eq (ns_hostbench_c2c_param (&zen, &assumed), "c2c.socket_ns");
  ck_assert (!assumed);
  ck_assert_str_eq (ns_hostbench_c2c_param (&zen_shared, &assumed), "c2c.ccx_ns");
  ck_assert (!assumed);
  ck_assert_str_eq (ns_hostbench_c2c_param (&smt, &assumed), "c2c.smt_ns");
  ck_assert (!assumed);
  ck_assert_str_eq (ns_hostbench_c2c_param (&two_sockets, &assumed), "c2c.remote_ns");
  ck_assert (!assumed);
}
END_TEST

static Suite *
hostbench_suite (void)
{
  Suite *s = suite_create ("hostbench");
  TCase *tc = tcase_create ("hostbench");

  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_profile_loads_with_sources);
  tcase_add_test (tc, test_runs_give_medians);
  tcase_add_test (tc, test_measure_named_values);
  tcase_add_test (tc, test_refusals_write_nothing);
  tcase_add_test (tc, test_one_way_sheds_deschedules);
  tcase_add_test (tc, test_lines_in_flight);
  tcase_add_test (tc, test_spread_note);
  tcase_add_test (tc, test_parse_args);
  tcase_add_test (tc, test_cpuid_cache_decode);
  tcase_add_test (tc, test_cpuid_amd_legacy_decode);
  tcase_add_test (tc, test_apic_share);
  tcase_add_test (tc, test_spectre_v2_sysfs_words);
  tcase_add_test (tc, test_vuln_sysfs_words);
  tcase_add_test (tc, test_spectre_v2_default_of_host);
  tcase_add_test (tc, test_retbleed_default_of_host);
  tcase_add_test (tc, test_unmeasured_reasons);
  tcase_add_test (tc, test_c2c_param_follows_topology);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *runner = srunner_create (hostbench_suite ());
  int failed;

  srunner_run_all (runner, CK_NORMAL);
  failed = srunner_ntests_failed (runner);
  srunner_free (runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
