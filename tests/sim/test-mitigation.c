/* test-mitigation.c — default selection per kernel version and command-line overrides. */
#include "config.h"
#include <string.h>
#include <check.h>
#include "mitigation.h"
#include "kchange.h"

/* A Zen 3-like CPU: retpoline always, Safe RET from 6.5. */
static NsMitigationDefault zen3[] = {
  { "6.1", "6.4", NS_SPECTRE_V2_RETPOLINE, NS_RETBLEED_OFF, NS_SRSO_OFF, FALSE, FALSE,
    NS_BHI_OFF, "test: before SRSO", 1, 0, 0 },
  { "6.5", "6.99", NS_SPECTRE_V2_RETPOLINE, NS_RETBLEED_OFF, NS_SRSO_SAFE_RET, FALSE, FALSE,
    NS_BHI_OFF, "test: SRSO era", 2, 0, 0 },
};

/* The same CPU as its profile would state it: <bugs affected="srso"> (family 19h: in the
 * SRSO blacklist, not the RETBLEED one, whitelisted NO_MDS, no eIBRS for X86_BUG_BHI). */
static NsMitigationDefault zen3_listed[] = {
  { "6.1", "6.4", NS_SPECTRE_V2_RETPOLINE, NS_RETBLEED_OFF, NS_SRSO_OFF, FALSE, FALSE,
    NS_BHI_OFF, "test: before SRSO", 1, NS_BUG_RETBLEED | NS_BUG_MDS | NS_BUG_BHI, 0 },
  { "6.5", "6.99", NS_SPECTRE_V2_RETPOLINE, NS_RETBLEED_OFF, NS_SRSO_SAFE_RET, FALSE, FALSE,
    NS_BHI_OFF, "test: SRSO era", 2, NS_BUG_RETBLEED | NS_BUG_MDS | NS_BUG_BHI, 0 },
};

/* An eIBRS Intel part without BHI_DIS_S on 6.9 (Cascade Lake-like: in the RETBLEED list,
 * X86_BUG_BHI, no SRSO or MDS), the same with BHI_DIS_S, and an AMD part with a retpoline
 * and every bug, its defaults unmitigated (so that only the command line and the CPU's
 * features decide). */
static NsMitigationDefault intel_eibrs[] = {
  { "6.1", "6.99", NS_SPECTRE_V2_EIBRS, NS_RETBLEED_EIBRS, NS_SRSO_OFF, FALSE, FALSE,
    NS_BHI_LOOP, "test: eIBRS era", 1, NS_BUG_SRSO | NS_BUG_MDS, NS_CPU_INTEL },
};
static NsMitigationDefault intel_bhi_ctrl[] = {
  { "6.1", "6.99", NS_SPECTRE_V2_EIBRS, NS_RETBLEED_OFF, NS_SRSO_OFF, FALSE, FALSE,
    NS_BHI_HW, "test: BHI_DIS_S", 1, NS_BUG_SRSO | NS_BUG_MDS | NS_BUG_RETBLEED,
    NS_CPU_INTEL | NS_CPU_BHI_CTRL },
};
/* A Skylake-SP-like part: the retbleed bug, no eIBRS, so legacy IBRS is the auto choice. */
static NsMitigationDefault intel_ibrs[] = {
  { "6.1", "6.99", NS_SPECTRE_V2_IBRS, NS_RETBLEED_IBRS, NS_SRSO_OFF, FALSE, FALSE,
    NS_BHI_OFF, "test: legacy IBRS", 1, NS_BUG_SRSO | NS_BUG_BHI, NS_CPU_INTEL },
};
/* The same AMD part on every kernel from 4.4 (for the keys older kernels lack). */
static NsMitigationDefault amd_every_bug_since_44[] = {
  { "4.4", "6.99", NS_SPECTRE_V2_RETPOLINE, NS_RETBLEED_OFF, NS_SRSO_OFF, FALSE, FALSE,
    NS_BHI_OFF, "test: AMD since 4.4", 1, 0, NS_CPU_AMD },
};
/* An Intel part of the Meltdown era from 4.15 (PTI and VERW by default), for the keys and
 * values older kernels lack. */
static NsMitigationDefault intel_meltdown_since_415[] = {
  { "4.15", "6.99", NS_SPECTRE_V2_RETPOLINE, NS_RETBLEED_OFF, NS_SRSO_OFF, TRUE, TRUE,
    NS_BHI_OFF, "test: Meltdown era", 1, NS_BUG_SRSO | NS_BUG_BHI | NS_BUG_RETBLEED,
    NS_CPU_INTEL },
};
/* An eIBRS Intel part on every kernel from 5.4 (for eIBRS values older kernels lack). */
static NsMitigationDefault intel_eibrs_since_54[] = {
  { "5.4", "6.99", NS_SPECTRE_V2_EIBRS, NS_RETBLEED_EIBRS, NS_SRSO_OFF, FALSE, FALSE,
    NS_BHI_OFF, "test: eIBRS since 5.4", 1, NS_BUG_SRSO | NS_BUG_MDS | NS_BUG_BHI,
    NS_CPU_INTEL },
};
/* An eIBRS Intel part whose BHI loop default starts with the BHI series (v6.9-rc4). */
static NsMitigationDefault intel_bhi_from_rc4[] = {
  { "6.1", "6.9.0-rc3", NS_SPECTRE_V2_EIBRS, NS_RETBLEED_EIBRS, NS_SRSO_OFF, FALSE, FALSE,
    NS_BHI_OFF, "test: before the BHI series", 1, NS_BUG_SRSO | NS_BUG_MDS, NS_CPU_INTEL },
  { "6.9.0-rc4", "6.99", NS_SPECTRE_V2_EIBRS, NS_RETBLEED_EIBRS, NS_SRSO_OFF, FALSE, FALSE,
    NS_BHI_LOOP, "test: the BHI series", 2, NS_BUG_SRSO | NS_BUG_MDS, NS_CPU_INTEL },
};
/* An AMD part whose default turns from the LFENCE retpoline to the generic one at
 * 244d00b5dd47 (v5.17-rc8), and an Intel part whose ranges cut there too (same default). */
static NsMitigationDefault amd_lfence_until_517[] = {
  { "4.12", "5.17.0-rc7", NS_SPECTRE_V2_LFENCE, NS_RETBLEED_OFF, NS_SRSO_OFF, FALSE, FALSE,
    NS_BHI_OFF, "test: AMD LFENCE era", 1, 0, NS_CPU_AMD },
  { "5.17.0-rc8", "6.99", NS_SPECTRE_V2_RETPOLINE, NS_RETBLEED_OFF, NS_SRSO_OFF, FALSE, FALSE,
    NS_BHI_OFF, "test: AMD generic retpoline", 2, 0, NS_CPU_AMD },
};
static NsMitigationDefault intel_eibrs_cut_at_517[] = {
  { "4.19", "5.17.0-rc7", NS_SPECTRE_V2_EIBRS, NS_RETBLEED_OFF, NS_SRSO_OFF, FALSE, FALSE,
    NS_BHI_OFF, "test: eIBRS before", 1, NS_BUG_SRSO | NS_BUG_BHI, NS_CPU_INTEL },
  { "5.17.0-rc8", "6.99", NS_SPECTRE_V2_EIBRS, NS_RETBLEED_OFF, NS_SRSO_OFF, FALSE, FALSE,
    NS_BHI_OFF, "test: eIBRS after", 2, NS_BUG_SRSO | NS_BUG_BHI, NS_CPU_INTEL },
};
static NsMitigationDefault amd_generic_cut_at_517[] = {
  { "4.12", "5.17.0-rc7", NS_SPECTRE_V2_RETPOLINE, NS_RETBLEED_OFF, NS_SRSO_OFF, FALSE, FALSE,
    NS_BHI_OFF, "test: AMD generic before", 1, 0, NS_CPU_AMD },
  { "5.17.0-rc8", "6.99", NS_SPECTRE_V2_RETPOLINE, NS_RETBLEED_OFF, NS_SRSO_OFF, FALSE, FALSE,
    NS_BHI_OFF, "test: AMD generic after", 2, 0, NS_CPU_AMD },
};
static NsMitigationDefault amd_retpoline[] = {
  { "6.1", "6.99", NS_SPECTRE_V2_RETPOLINE, NS_RETBLEED_OFF, NS_SRSO_OFF, FALSE, FALSE,
    NS_BHI_OFF, "test: AMD", 1, 0, NS_CPU_AMD },
};

/* Selects cmdline on kernel 6.9 of defaults[0] into *m (asserting it is accepted). */
static void
select_69 (NsMitigationDefault *defaults, const char *cmdline, NsMitigations *m)
{
  GError *error = NULL;

  ck_assert_msg (ns_mitigations_select (defaults, 1, "6.9", cmdline, m, &error), "%s: %s",
                 cmdline, error ? error->message : "?");
}

/* What cmdline puts in force on kernel 6.9 with defaults[0], its explanation dropped (for
 * checks of the modes alone). */
static NsMitigations
chosen_69 (NsMitigationDefault *defaults, const char *cmdline)
{
  NsMitigations m;

  select_69 (defaults, cmdline, &m);
  ns_mitigations_clear (&m);
  return m;
}

/* What cmdline puts in force on kernel with defaults[0], its explanation and notes
 * dropped. */
static NsMitigations
chosen_on (NsMitigationDefault *defaults, const char *kernel, const char *cmdline)
{
  NsMitigations m;
  GError *error = NULL;

  ck_assert_msg (ns_mitigations_select (defaults, 1, kernel, cmdline, &m, &error), "%s: %s",
                 cmdline, error ? error->message : "?");
  ns_mitigations_clear (&m);
  return m;
}

/* TRUE if one of notes (may be NULL) holds each of the two needles. */
static gboolean
has_note (char **notes, const char *needle, const char *also)
{
  for (guint i = 0; notes && notes[i]; i++)
    if (strstr (notes[i], needle) && strstr (notes[i], also))
      return TRUE;
  return FALSE;
}

static gboolean
has_line (char **explain, const char *prefix, const char *needle)
{
  for (guint i = 0; explain[i]; i++)
    if (g_str_has_prefix (explain[i], prefix) && strstr (explain[i], needle))
      return TRUE;
  return FALSE;
}

/* The default a kernel runs when its stable release took a mitigation series from a later
 * mainline: that mitigation's default from the profile range holding the mainline release
 * (SRSO: 6.1.44, 6.4.9, …; BHI: 6.1.85, 6.6.26, 6.8.5), with the reason; a release before
 * the backport, or of a series that never took it, keeps its own range's. */
START_TEST (test_backported_defaults)
{
  static const struct { const char *kernel; NsSrso srso; } zen3_cases[] = {
    { "6.1.43", NS_SRSO_OFF }, { "6.1.44", NS_SRSO_SAFE_RET }, { "6.1.176", NS_SRSO_SAFE_RET },
    { "6.3", NS_SRSO_OFF }, { "6.4.8", NS_SRSO_OFF }, { "6.4.9", NS_SRSO_SAFE_RET },
    { "6.5", NS_SRSO_SAFE_RET },
  };
  static const struct { const char *kernel; NsBhi bhi; } intel_cases[] = {
    { "6.1.84", NS_BHI_OFF }, { "6.1.85", NS_BHI_LOOP }, { "6.6.26", NS_BHI_LOOP },
    { "6.7.12", NS_BHI_OFF }, { "6.8.4", NS_BHI_OFF }, { "6.8.5", NS_BHI_LOOP },
    { "6.9.0-rc3", NS_BHI_OFF }, { "6.9", NS_BHI_LOOP },
  };
  NsMitigations m;

  for (guint i = 0; i < G_N_ELEMENTS (zen3_cases); i++) {
    ck_assert (ns_mitigations_select (zen3, 2, zen3_cases[i].kernel, "", &m, NULL));
    ck_assert_msg (m.srso == zen3_cases[i].srso, "%s", zen3_cases[i].kernel);
    ns_mitigations_clear (&m);
  }
  for (guint i = 0; i < G_N_ELEMENTS (intel_cases); i++) {
    ck_assert (ns_mitigations_select (intel_bhi_from_rc4, 2, intel_cases[i].kernel, "", &m,
                                      NULL));
    ck_assert_msg (m.bhi == intel_cases[i].bhi, "%s", intel_cases[i].kernel);
    ns_mitigations_clear (&m);
  }
  ck_assert (ns_mitigations_select (zen3, 2, "6.1.44", "", &m, NULL));
  ck_assert (has_line (m.explain, "spec_rstack_overflow=safe-ret", "SRSO era"));
  ck_assert (has_line (m.explain, "spec_rstack_overflow=safe-ret", "(from 6.1.44)"));
  ck_assert (has_line (m.explain, "spectre_v2=retpoline", "before SRSO"));
  ns_mitigations_clear (&m);
}
END_TEST

/* 244d00b5dd47 (generic retpoline by default on AMD, v5.17-rc8) reached the stables of
 * 11 March 2022: an AMD 5.15.28 runs the generic retpoline with that reason, 5.15.27 and
 * 5.17-rc7 the LFENCE one; on Intel nothing changes. */
START_TEST (test_backported_amd_generic_retpoline)
{
  static const struct { const char *kernel; NsSpectreV2 mode; } cases[] = {
    { "5.15.27", NS_SPECTRE_V2_LFENCE }, { "5.15.28", NS_SPECTRE_V2_RETPOLINE },
    { "5.10.105", NS_SPECTRE_V2_RETPOLINE }, { "5.4.183", NS_SPECTRE_V2_LFENCE },
    { "4.14.271", NS_SPECTRE_V2_RETPOLINE }, { "5.14.21", NS_SPECTRE_V2_LFENCE },
    { "5.17.0-rc7", NS_SPECTRE_V2_LFENCE }, { "5.17.0-rc8", NS_SPECTRE_V2_RETPOLINE },
  };
  NsMitigations m;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    ck_assert_msg (ns_mitigations_select (amd_lfence_until_517, 2, cases[i].kernel, "", &m,
                                          NULL) && m.spectre_v2 == cases[i].mode &&
                   (ns_mitigations_clear (&m), TRUE), "%s", cases[i].kernel);
  ck_assert (ns_mitigations_select (amd_lfence_until_517, 2, "5.15.28", "", &m, NULL));
  ck_assert (has_line (m.explain, "spectre_v2=retpoline", "test: AMD generic retpoline"));
  ck_assert (has_line (m.explain, "spectre_v2=retpoline", "took 244d00b5dd47, x86/speculation: "
                       "Use generic retpoline by default on AMD (from 5.15.28)"));
  ns_mitigations_clear (&m);
  ck_assert (ns_mitigations_select (intel_eibrs_cut_at_517, 2, "5.15.28", "", &m, NULL));
  ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_EIBRS);
  ck_assert (has_line (m.explain, "spectre_v2=eibrs", "test: eIBRS before"));
  ns_mitigations_clear (&m);
  /* a part already on the generic retpoline keeps its own range's reason */
  ck_assert (ns_mitigations_select (amd_generic_cut_at_517, 2, "5.15.28", "", &m, NULL));
  ck_assert (has_line (m.explain, "spectre_v2=retpoline", "test: AMD generic before"));
  ck_assert (!has_line (m.explain, "spectre_v2=retpoline", "244d00b5dd47"));
  ns_mitigations_clear (&m);
}
END_TEST

/* The series' keys at their mainline release candidate: retbleed= and spectre_v2=ibrs came
 * with v5.19-rc7, spec_rstack_overflow= with v6.5-rc6; an rc before lacks them. The IBRS
 * part alone reached 5.4.217 (and 4.19.266, 4.14.297), retbleed= there only in part, so
 * not assumed. */
START_TEST (test_series_keys_at_their_rc)
{
  /* each a key or value on a kernel, and what the run then has in force */
  static const struct {
    NsMitigationDefault *defaults;
    const char          *kernel, *cmdline;
    int                  spectre_v2, retbleed, srso;   /* -1: not checked */
  } cases[] = {
    { amd_every_bug_since_44, "5.19.0-rc6", "retbleed=ibpb", -1, NS_RETBLEED_OFF, -1 },
    { amd_every_bug_since_44, "5.19.0-rc7", "retbleed=ibpb", -1, NS_RETBLEED_IBPB, -1 },
    { amd_every_bug_since_44, "6.5.0-rc5", "spec_rstack_overflow=safe-ret", -1, -1,
      NS_SRSO_OFF },
    { amd_every_bug_since_44, "6.5.0-rc6", "spec_rstack_overflow=safe-ret", -1, -1,
      NS_SRSO_SAFE_RET },
    { intel_meltdown_since_415, "5.19.0-rc6", "spectre_v2=ibrs", NS_SPECTRE_V2_RETPOLINE, -1,
      -1 },
    { intel_meltdown_since_415, "5.4.217", "spectre_v2=ibrs", NS_SPECTRE_V2_IBRS, -1, -1 },
    { intel_meltdown_since_415, "5.4.216", "spectre_v2=ibrs", NS_SPECTRE_V2_RETPOLINE, -1, -1 },
    { intel_meltdown_since_415, "4.19.266", "spectre_v2=ibrs", NS_SPECTRE_V2_IBRS, -1, -1 },
    { amd_every_bug_since_44, "5.4.217", "retbleed=ibpb", -1, NS_RETBLEED_OFF, -1 },
  };
  NsMitigations m;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    NsMitigations got = chosen_on (cases[i].defaults, cases[i].kernel, cases[i].cmdline);

    ck_assert_msg (cases[i].spectre_v2 < 0 || (int) got.spectre_v2 == cases[i].spectre_v2,
                   "%s %s: spectre_v2 %d", cases[i].kernel, cases[i].cmdline, got.spectre_v2);
    ck_assert_msg (cases[i].retbleed < 0 || (int) got.retbleed == cases[i].retbleed,
                   "%s %s: retbleed %d", cases[i].kernel, cases[i].cmdline, got.retbleed);
    ck_assert_msg (cases[i].srso < 0 || (int) got.srso == cases[i].srso, "%s %s: srso %d",
                   cases[i].kernel, cases[i].cmdline, got.srso);
  }
  /* the kernel's own retbleed selection starts with the series' rc as well: an eIBRS
   * part with the bug gets eIBRS on 5.19.0-rc7, nothing on rc6 */
  ck_assert (ns_mitigations_select (intel_eibrs_cut_at_517, 2, "5.19.0-rc7", "", &m, NULL));
  ck_assert_int_eq (m.retbleed, NS_RETBLEED_EIBRS);
  ns_mitigations_clear (&m);
  ck_assert (ns_mitigations_select (intel_eibrs_cut_at_517, 2, "5.19.0-rc6", "", &m, NULL));
  ck_assert_int_eq (m.retbleed, NS_RETBLEED_OFF);
  ns_mitigations_clear (&m);
}
END_TEST

START_TEST (test_default_by_kernel_version)
{
  NsMitigations m;

  ck_assert (ns_mitigations_select (zen3, 2, "6.9.0-rc1", "", &m, NULL));
  ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_RETPOLINE);
  ck_assert_int_eq (m.srso, NS_SRSO_SAFE_RET);
  ck_assert (has_line (m.explain, "spec_rstack_overflow=safe-ret", "SRSO era"));
  ns_mitigations_clear (&m);
  ck_assert (ns_mitigations_select (zen3, 2, "6.2", NULL, &m, NULL));
  ck_assert_int_eq (m.srso, NS_SRSO_OFF);
  ns_mitigations_clear (&m);
}
END_TEST

START_TEST (test_mitigations_off)
{
  NsMitigations m;

  ck_assert (ns_mitigations_select (zen3, 2, "6.9", "quiet mitigations=off", &m, NULL));
  ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_OFF);
  ck_assert_int_eq (m.srso, NS_SRSO_OFF);
  ck_assert (!m.pti);
  ck_assert (has_line (m.explain, "spectre_v2=off", "kernel command line: mitigations=off"));
  ck_assert (has_line (m.explain, "spec_rstack_overflow=off", "kernel command line: "
                       "mitigations=off"));
  /* what Zen 3 never needed keeps the profile's reason (sysfs: "Not affected") */
  ck_assert (has_line (m.explain, "retbleed=off", "SRSO era"));
  ck_assert (!has_line (m.explain, "retbleed=off", "mitigations=off"));
  ck_assert (!has_line (m.explain, "pti=off", "mitigations=off"));
  ck_assert (!has_line (m.explain, "mds=off", "mitigations=off"));
  ck_assert (!has_line (m.explain, "bhi=off", "mitigations=off"));
  ns_mitigations_clear (&m);
  /* an eIBRS part's retbleed and BHI loop were on: mitigations=off is their reason */
  select_69 (intel_eibrs, "mitigations=off", &m);
  ck_assert_int_eq (m.bhi, NS_BHI_OFF);
  ck_assert (has_line (m.explain, "bhi=off", "kernel command line: mitigations=off"));
  ck_assert (has_line (m.explain, "retbleed=off", "kernel command line: mitigations=off"));
  ns_mitigations_clear (&m);
}
END_TEST

START_TEST (test_per_key_overrides_left_to_right)
{
  NsMitigations m;

  ck_assert (ns_mitigations_select (zen3, 2, "6.9", "spectre_v2=off spectre_v2=eibrs "
                                    "spec_rstack_overflow=ibpb pti=on retbleed=unret "
                                    "spectre_bhi=on mds=full", &m, NULL));
  ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_EIBRS);
  ck_assert_int_eq (m.srso, NS_SRSO_IBPB);
  ck_assert_int_eq (m.retbleed, NS_RETBLEED_UNRET);
  ck_assert_int_eq (m.bhi, NS_BHI_LOOP);
  ck_assert (m.pti && m.mds_verw);
  ns_mitigations_clear (&m);
  ck_assert (ns_mitigations_select (zen3, 2, "6.9", "spectre_v2=retpoline,lfence nopti",
                                    &m, NULL));
  ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_LFENCE);
  ck_assert (!m.pti);
  ns_mitigations_clear (&m);
  /* auto restores the profile default, whatever came before */
  ck_assert (ns_mitigations_select (zen3, 2, "6.9", "spectre_v2=off spectre_v2=auto "
                                    "retbleed=unret retbleed=auto", &m, NULL));
  ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_RETPOLINE);
  ck_assert_int_eq (m.retbleed, NS_RETBLEED_OFF);
  ck_assert (has_line (m.explain, "spectre_v2=retpoline", "spectre_v2=auto"));
  ns_mitigations_clear (&m);
}
END_TEST

/* As in the kernel, where every select function tests cpu_mitigations_off() and
 * spectre_v2_parse_cmdline() tests nospectre_v2 first: those win wherever they stand,
 * and the last mitigations= counts. */
START_TEST (test_off_switches_win)
{
  NsMitigations m;
  GError *err = NULL;

  ck_assert (ns_mitigations_select (zen3, 2, "6.9", "mitigations=off spectre_v2=eibrs "
                                    "spec_rstack_overflow=ibpb pti=on retbleed=stuff "
                                    "spectre_bhi=on mds=full", &m, NULL));
  ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_OFF);
  ck_assert_int_eq (m.srso, NS_SRSO_OFF);
  ck_assert_int_eq (m.retbleed, NS_RETBLEED_OFF);
  ck_assert_int_eq (m.bhi, NS_BHI_OFF);
  ck_assert (!m.pti && !m.mds_verw);
  ck_assert (has_line (m.explain, "spec_rstack_overflow=off", "mitigations=off"));
  ns_mitigations_clear (&m);
  ck_assert (ns_mitigations_select (zen3, 2, "6.9", "nospectre_v2 spectre_v2=retpoline,lfence",
                                    &m, NULL));
  ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_OFF);
  ck_assert_int_eq (m.srso, NS_SRSO_SAFE_RET);
  ck_assert (has_line (m.explain, "spectre_v2=off", "nospectre_v2"));
  ns_mitigations_clear (&m);
  ck_assert (ns_mitigations_select (zen3, 2, "6.9", "mitigations=off mitigations=auto,nosmt",
                                    &m, NULL));
  ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_RETPOLINE);
  ck_assert_int_eq (m.srso, NS_SRSO_SAFE_RET);
  ns_mitigations_clear (&m);
  ck_assert (!ns_mitigations_select (zen3, 2, "6.9", "mitigations=most", &m, &err));
  ck_assert (strstr (err->message, "mitigations=most"));
  g_clear_error (&err);
}
END_TEST

/* retbleed_select_mitigation(), srso_select_mitigation() and mds_select_mitigation() return
 * early on a CPU without the bug, and bhi_select_mitigation() runs only with X86_BUG_BHI
 * (arch/x86/kernel/cpu/bugs.c, 6.1.y-6.9): their keys change nothing there, while the keys
 * of a bug the CPU has, pti= (forced whatever the bugs) and spectre_v2= (zen3_listed names
 * no vendor, so every mode runs) still apply. */
START_TEST (test_unaffected_bugs_ignore_their_keys)
{
  NsMitigations m;
  GError *err = NULL;

  ck_assert (ns_mitigations_select (zen3_listed, 2, "6.9", "retbleed=unret mds=full "
                                    "spectre_bhi=on spectre_v2=eibrs pti=on", &m, NULL));
  ck_assert_int_eq (m.retbleed, NS_RETBLEED_OFF);
  ck_assert (!m.mds_verw);
  ck_assert_int_eq (m.bhi, NS_BHI_OFF);
  ck_assert_int_eq (m.srso, NS_SRSO_SAFE_RET);
  ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_EIBRS);
  ck_assert (m.pti);
  ck_assert (has_line (m.explain, "retbleed=off", "retbleed=unret " NS_MITIGATION_IGNORED
                       "RETBLEED"));
  ck_assert (has_line (m.explain, "mds=off", "mds=full " NS_MITIGATION_IGNORED "MDS"));
  ck_assert (has_line (m.explain, "bhi=off", "spectre_bhi=on " NS_MITIGATION_IGNORED "BHI"));
  ns_mitigations_clear (&m);
  ck_assert (ns_mitigations_select (zen3_listed, 2, "6.9", "spec_rstack_overflow=ibpb", &m,
                                    NULL));
  ck_assert_int_eq (m.srso, NS_SRSO_IBPB);
  ns_mitigations_clear (&m);
  /* a bad value is still an error, bug or not */
  ck_assert (!ns_mitigations_select (zen3_listed, 2, "6.9", "retbleed=bogus", &m, &err));
  ck_assert (strstr (err->message, "retbleed=bogus"));
  g_clear_error (&err);
}
END_TEST

/* The words no netsim model reads: any key but the ones this file's other tests drive
 * (bugs.c's early_params and cmdline_find_option keys), after parse_args()' rules ('-' is
 * '_' in a key, quotes dropped), so "spec-rstack-overflow=off" and "\"pti=on\"" are read
 * and "mitigation=off" (a typo) or "nosmt" (cpu/smt.c, not modelled) are not; both are
 * ignored by the selection, as the kernel passes an unknown parameter on to init. */
START_TEST (test_unread_words)
{
  g_auto (GStrv) unread = ns_mitigation_cmdline_unread (
    "mitigation=off  spectre_v2=off nosmt spec-rstack-overflow=off \"pti=on\" nopti "
    "mitigations=auto retbleed=off mds=off spectre_bhi=off nospectre_v2 quiet");
  g_auto (GStrv) none = ns_mitigation_cmdline_unread ("");
  NsMitigations m;

  ck_assert_uint_eq (g_strv_length (unread), 3);
  ck_assert_str_eq (unread[0], "mitigation=off");
  ck_assert_str_eq (unread[1], "nosmt");
  ck_assert_str_eq (unread[2], "quiet");
  ck_assert_uint_eq (g_strv_length (none), 0);
  select_69 (amd_retpoline, "mitigation=off nosmt", &m);
  ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_RETPOLINE);
  ns_mitigations_clear (&m);
}
END_TEST

/* A bad value's error lists the values the key takes (doc/manual.md, "Mitigations"). */
/* Every value the message of a bad key=value lists ("(KEY= takes 'a', 'b', …)") is one the
 * parser takes, so the list cannot promise a value the kernel model refuses; a listed
 * suffix (",nosmt") is tried after the value before it. */
static void
accepts_listed_values (const char *bad, const char *listed)
{
  g_autofree char *key = g_strndup (bad, strcspn (bad, "="));
  g_auto (GStrv) parts = g_strsplit (listed, "'", -1);
  const char *prev = "";
  NsMitigations m;
  GError *error = NULL;

  for (guint k = 1; parts[k] != NULL && parts[k + 1] != NULL; k += 2) {
    gboolean suffix = parts[k][0] == ',';
    g_autofree char *line = g_strdup_printf ("%s=%s%s", key, suffix ? prev : "", parts[k]);
    if (!suffix)
      prev = parts[k];
    ck_assert_msg (ns_mitigations_select (amd_retpoline, 1, "6.9", line, &m, &error),
                   "%s listed but refused: %s", line, error ? error->message : "?");
    ns_mitigations_clear (&m);
  }
}

START_TEST (test_bad_value_lists_values)
{
  static const char *const cases[][2] = {
    { "spectre_v2=retpolin", "(spectre_v2= takes 'off', 'on', 'auto', 'retpoline', "
      "'retpoline,generic', 'retpoline,lfence', 'retpoline,amd', 'eibrs', 'eibrs,retpoline', "
      "'eibrs,lfence', 'ibrs')" },
    { "mitigations=of", "(mitigations= takes 'off', 'auto', 'auto,nosmt')" },
    { "spec_rstack_overflow=safe_ret", "(spec_rstack_overflow= takes 'off', 'microcode', "
      "'safe-ret', 'ibpb', 'ibpb-vmexit')" },
    { "pti=1", "(pti= takes 'on', 'off', 'auto')" },
    { "mds=on", "(mds= takes 'off', 'full', 'full,nosmt')" },
    { "spectre_bhi=auto", "(spectre_bhi= takes 'on', 'off', 'vmexit')" },
    { "retbleed=bogus", "(retbleed= takes 'off', 'auto', 'unret', 'ibpb', 'stuff', each may "
      "carry ',nosmt')" },
  };
  NsMitigations m;
  GError *error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    ck_assert (!ns_mitigations_select (amd_retpoline, 1, "6.9", cases[i][0], &m, &error));
    ck_assert_msg (strstr (error->message, cases[i][1]) != NULL, "%s", error->message);
    g_clear_error (&error);
    accepts_listed_values (cases[i][0], cases[i][1]);
  }
}
END_TEST

/* Bug names parse as the kernel spells them (X86_BUG_RETBLEED is "retbleed", ...), in any
 * order and spacing; anything else is named as the culprit. */
START_TEST (test_bug_names)
{
  guint mask = 0;
  char *bad = NULL;

  ck_assert (ns_bugs_parse ("srso  mds\tbhi retbleed", &mask, &bad));
  ck_assert_uint_eq (mask, NS_BUGS_ALL);
  ck_assert (ns_bugs_parse ("", &mask, &bad));
  ck_assert_uint_eq (mask, 0);
  ck_assert (!ns_bugs_parse ("srso meltdown", &mask, &bad));
  ck_assert_str_eq (bad, "meltdown");
  g_free (bad);
  ck_assert_str_eq (ns_bug_name (NS_BUG_SRSO), "srso");
}
END_TEST

/* spectre_v2_parse_cmdline() switches to auto (the profile's default) when the CPU lacks
 * what the mode needs: eIBRS (X86_FEATURE_IBRS_ENHANCED, which auto would have picked
 * first), legacy IBRS (Intel with IBRS). */
START_TEST (test_spectre_v2_falls_back)
{
  NsMitigations m;

  select_69 (amd_retpoline, "spectre_v2=eibrs", &m);
  ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_RETPOLINE);
  ck_assert (has_line (m.explain, "spectre_v2=retpoline", "spectre_v2=eibrs: "
                       NS_MITIGATION_KERNEL_CHOSE));
  ns_mitigations_clear (&m);
  ck_assert_int_eq (chosen_69 (amd_retpoline, "spectre_v2=ibrs").spectre_v2,
                    NS_SPECTRE_V2_RETPOLINE);
  ck_assert_int_eq (chosen_69 (amd_retpoline, "spectre_v2=retpoline,amd").spectre_v2,
                    NS_SPECTRE_V2_LFENCE);
  ck_assert_int_eq (chosen_69 (intel_eibrs, "spectre_v2=ibrs").spectre_v2, NS_SPECTRE_V2_IBRS);
  /* ... on eIBRS hardware, which the machine prices as eIBRS in the kernel; a CPU whose
   * default is not eIBRS has none */
  ck_assert (chosen_69 (intel_eibrs, "spectre_v2=ibrs").ibrs_enhanced);
  ck_assert (!chosen_69 (intel_ibrs, "").ibrs_enhanced);
  ck_assert (!chosen_69 (amd_retpoline, "spectre_v2=ibrs").ibrs_enhanced);
  ck_assert_int_eq (chosen_69 (intel_eibrs, "spectre_v2=off spectre_v2=on").spectre_v2,
                    NS_SPECTRE_V2_EIBRS);
  /* an unnamed CPU (the generic profile's) runs every mode */
  ck_assert (ns_mitigations_select (zen3, 2, "6.9", "spectre_v2=eibrs", &m, NULL));
  ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_EIBRS);
  ns_mitigations_clear (&m);
}
END_TEST

/* spectre_v2=eibrs,retpoline and eibrs,lfence (1e19da8522c8, v5.17): eIBRS modes
 * (spectre_v2_in_eibrs_mode(): retbleed on Intel is eIBRS's, the CPU must have eIBRS, else
 * auto) whose indirect calls go through the thunks (X86_FEATURE_RETPOLINE, so the tc
 * wrappers' chains stay on); the generic one mitigates BHI as a retpoline does, the LFENCE
 * one not (69129794d94c). */
START_TEST (test_eibrs_with_thunks)
{
  NsMitigations m;

  select_69 (intel_eibrs, "spectre_v2=eibrs,retpoline", &m);
  ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_EIBRS_RETPOLINE);
  ck_assert_int_eq (m.retbleed, NS_RETBLEED_EIBRS);
  ck_assert_int_eq (m.bhi, NS_BHI_OFF);
  ck_assert (m.ibrs_enhanced);
  ck_assert (has_line (m.explain, "spectre_v2=eibrs,retpoline: kernel command line: "
                       "spectre_v2=eibrs,retpoline", ""));
  ck_assert (has_line (m.explain, "bhi=off", "the generic retpoline mitigates BHI"));
  ck_assert (!has_line (m.explain, "retbleed=", NS_MITIGATION_KERNEL_CHOSE));
  ns_mitigations_clear (&m);
  select_69 (intel_eibrs, "spectre_v2=eibrs,lfence", &m);
  ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_EIBRS_LFENCE);
  ck_assert_int_eq (m.retbleed, NS_RETBLEED_EIBRS);
  ck_assert_int_eq (m.bhi, NS_BHI_LOOP);
  ns_mitigations_clear (&m);
  ck_assert_int_eq (chosen_69 (intel_bhi_ctrl, "spectre_v2=eibrs,lfence").bhi, NS_BHI_HW);
  ck_assert (ns_spectre_v2_thunked (NS_SPECTRE_V2_EIBRS_RETPOLINE));
  ck_assert (ns_spectre_v2_thunked (NS_SPECTRE_V2_EIBRS_LFENCE));
  ck_assert (!ns_spectre_v2_thunked (NS_SPECTRE_V2_EIBRS));
  ck_assert (ns_spectre_v2_in_eibrs_mode (NS_SPECTRE_V2_EIBRS_RETPOLINE));
  ck_assert (ns_spectre_v2_in_eibrs_mode (NS_SPECTRE_V2_EIBRS_LFENCE));
  ck_assert (!ns_spectre_v2_in_eibrs_mode (NS_SPECTRE_V2_RETPOLINE));
  ck_assert_str_eq (ns_spectre_v2_name (NS_SPECTRE_V2_EIBRS_RETPOLINE), "eibrs,retpoline");
  ck_assert_str_eq (ns_spectre_v2_name (NS_SPECTRE_V2_EIBRS_LFENCE), "eibrs,lfence");
  /* without eIBRS spectre_v2_parse_cmdline() switches to auto */
  select_69 (amd_retpoline, "spectre_v2=eibrs,retpoline", &m);
  ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_RETPOLINE);
  ck_assert (has_line (m.explain, "spectre_v2=retpoline", NS_MITIGATION_KERNEL_CHOSE
                       "its auto choice, as the CPU has no eIBRS"));
  ns_mitigations_clear (&m);
  ck_assert_int_eq (chosen_69 (intel_ibrs, "spectre_v2=eibrs,lfence").spectre_v2,
                    NS_SPECTRE_V2_IBRS);
  ck_assert_int_eq (chosen_69 (intel_ibrs, "spectre_v2=eibrs,lfence").retbleed,
                    NS_RETBLEED_IBRS);
  /* an unnamed CPU runs every mode */
  ck_assert (ns_mitigations_select (zen3, 2, "6.9", "spectre_v2=eibrs,lfence", &m, NULL));
  ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_EIBRS_LFENCE);
  ns_mitigations_clear (&m);
  /* spectre_v2=auto is the kernel's auto choice, plain eIBRS, never a thunk mode */
  ck_assert_int_eq (chosen_69 (intel_eibrs, "spectre_v2=eibrs,retpoline spectre_v2=auto")
                    .spectre_v2, NS_SPECTRE_V2_EIBRS);
  /* retbleed=stuff wants spectre_v2=retpoline itself (6.2-6.9) */
  ck_assert_int_eq (chosen_69 (intel_eibrs, "spectre_v2=eibrs,retpoline retbleed=stuff")
                    .retbleed, NS_RETBLEED_EIBRS);
}
END_TEST

/* The eIBRS modes with thunks came with plain eibrs in 5.17 and went to the same stable
 * series: 5.16 has them through the backport (noted), 5.14 does not know them and
 * switches to auto, 5.17 has them (no note). */
START_TEST (test_eibrs_with_thunks_before_517)
{
  NsMitigations m;

  ck_assert (ns_mitigations_select (intel_eibrs_since_54, 1, "5.16.14", "spectre_v2=eibrs,lfence",
                                    &m, NULL));
  ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_EIBRS_LFENCE);
  ck_assert (has_note (m.notes, "spectre_v2=eibrs,lfence is mainline from 5.17-rc8",
                       "kernel 5.16.14 has it only through a backport"));
  ns_mitigations_clear (&m);
  ck_assert (ns_mitigations_select (intel_eibrs_since_54, 1, "5.14", "spectre_v2=eibrs,retpoline",
                                    &m, NULL));
  ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_EIBRS);
  ck_assert (has_line (m.explain, "spectre_v2=eibrs", "does not know the value and switches "
                       "to AUTO select"));
  ck_assert (has_note (m.notes, "spectre_v2=eibrs,retpoline is mainline from 5.17-rc8",
                       "kernel 5.14 is of no stable series"));
  ns_mitigations_clear (&m);
  ck_assert_int_eq (chosen_on (intel_eibrs_since_54, "5.10.105", "spectre_v2=eibrs,retpoline")
                    .spectre_v2, NS_SPECTRE_V2_EIBRS_RETPOLINE);
  /* a release of a listed series before the one that took the backport reads it as 5.14
   * does, and so do that series' .0 and its release candidates */
  ck_assert (ns_mitigations_select (intel_eibrs_since_54, 1, "5.10.50", "spectre_v2=eibrs,lfence",
                                    &m, NULL));
  ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_EIBRS);
  ck_assert (has_line (m.explain, "spectre_v2=eibrs", "kernel 5.10.50's "
                       "spectre_v2_parse_cmdline() does not know the value and switches to AUTO"));
  ck_assert (has_note (m.notes, "spectre_v2=eibrs,lfence is mainline from 5.17-rc8",
                       "kernel 5.10.50 comes before 5.10.105, the first release of its series"));
  ns_mitigations_clear (&m);
  ck_assert_int_eq (chosen_on (intel_eibrs_since_54, "5.10.104", "spectre_v2=eibrs,lfence")
                    .spectre_v2, NS_SPECTRE_V2_EIBRS);
  ck_assert_int_eq (chosen_on (intel_eibrs_since_54, "5.10.106", "spectre_v2=eibrs,lfence")
                    .spectre_v2, NS_SPECTRE_V2_EIBRS_LFENCE);
  ck_assert_int_eq (chosen_on (intel_eibrs_since_54, "5.10", "spectre_v2=eibrs,lfence")
                    .spectre_v2, NS_SPECTRE_V2_EIBRS);
  ck_assert_int_eq (chosen_on (intel_eibrs_since_54, "5.15.0-rc3", "spectre_v2=eibrs,lfence")
                    .spectre_v2, NS_SPECTRE_V2_EIBRS);
  ck_assert_int_eq (chosen_on (intel_eibrs_since_54, "5.16.14", "spectre_v2=eibrs,lfence")
                    .spectre_v2, NS_SPECTRE_V2_EIBRS_LFENCE);
  ck_assert_int_eq (chosen_on (intel_eibrs_since_54, "5.16.13", "spectre_v2=eibrs,lfence")
                    .spectre_v2, NS_SPECTRE_V2_EIBRS);
  ck_assert_ptr_null (chosen_on (intel_eibrs_since_54, "5.17", "spectre_v2=eibrs,retpoline")
                      .notes);
}
END_TEST

/* bhi_select_mitigation() (6.9) runs inside spectre_v2's selection after its early return
 * for spectre_v2=off; a generic retpoline mitigates BHI; BHI_DIS_S comes before the loop. */
START_TEST (test_bhi_follows_spectre_v2)
{
  NsMitigations m;

  ck_assert_int_eq (chosen_69 (intel_eibrs, "").bhi, NS_BHI_LOOP);
  ck_assert_int_eq (chosen_69 (intel_eibrs, "spectre_v2=off").bhi, NS_BHI_OFF);
  select_69 (intel_eibrs, "spectre_v2=retpoline spectre_bhi=on", &m);
  ck_assert_int_eq (m.bhi, NS_BHI_OFF);
  ck_assert (has_line (m.explain, "bhi=off", "the generic retpoline mitigates BHI"));
  ns_mitigations_clear (&m);
  ck_assert_int_eq (chosen_69 (intel_eibrs, "spectre_v2=retpoline,lfence").bhi, NS_BHI_LOOP);
  ck_assert_int_eq (chosen_69 (intel_bhi_ctrl, "spectre_bhi=off spectre_bhi=on").bhi, NS_BHI_HW);
  /* before 69129794d94c (6.9-rc5; 6.8.8, 6.6.29, 6.1.88) the LFENCE modes set
   * X86_FEATURE_RETPOLINE too, which then counted as mitigating BHI */
  static const struct { const char *kernel, *cmdline; NsBhi bhi; } lfence[] = {
    { "6.9.0-rc4", "spectre_v2=retpoline,lfence", NS_BHI_OFF },
    { "6.9.0-rc5", "spectre_v2=retpoline,lfence", NS_BHI_LOOP },
    { "6.1.87", "spectre_v2=eibrs,lfence", NS_BHI_OFF },
    { "6.1.88", "spectre_v2=eibrs,lfence", NS_BHI_LOOP },
    { "6.6.28", "spectre_v2=eibrs,lfence", NS_BHI_OFF },
    { "6.6.29", "spectre_v2=eibrs,lfence", NS_BHI_LOOP },
  };
  for (guint i = 0; i < G_N_ELEMENTS (lfence); i++)
    ck_assert_msg (chosen_on (intel_eibrs, lfence[i].kernel, lfence[i].cmdline).bhi ==
                   lfence[i].bhi, "%s", lfence[i].kernel);
  /* and say so, for either LFENCE mode */
  for (guint i = 0; i < G_N_ELEMENTS (lfence); i += 2) {
    ck_assert (ns_mitigations_select (intel_eibrs, 1, lfence[i].kernel, lfence[i].cmdline, &m,
                                      NULL));
    ck_assert_msg (has_line (m.explain, "bhi=off", "the LFENCE retpoline sets "
                             "X86_FEATURE_RETPOLINE"), "%s %s", lfence[i].kernel,
                   lfence[i].cmdline);
    ns_mitigations_clear (&m);
  }
}
END_TEST

/* retbleed_select_mitigation() (5.19-6.9): retbleed=stuff needs 6.2 and spectre_v2=retpoline
 * (no vendor test before 2025), else the auto choice; on Intel the auto choice is the
 * spectre_v2 mode's (IBRS and eIBRS cover it, anything else leaves it unmitigated), while
 * an explicit retbleed= mode stays; retbleed=ibpb is IBPB on entry, the last mode word
 * wins, nosmt words change nothing modelled; srso_select_mitigation() then uses that IBPB
 * for SRSO too. */
/* mds_select_mitigation(): with VERW in force, mds=full,nosmt or mitigations=auto,nosmt
 * takes the SMT siblings offline; not on a CPU without MDS, nor with mitigations=off after. */
START_TEST (test_nosmt)
{
  NsMitigationDefault mds_cpu[] = { intel_ibrs[0] };
  NsMitigations m;

  mds_cpu[0].unaffected = NS_BUG_SRSO | NS_BUG_BHI;    /* MDS and retbleed */
  mds_cpu[0].mds_verw = TRUE;
  ck_assert (!chosen_69 (mds_cpu, "").smt_off);
  ck_assert (!chosen_69 (mds_cpu, "mds=full").smt_off);
  ck_assert (chosen_69 (mds_cpu, "mitigations=auto,nosmt").smt_off);
  select_69 (mds_cpu, "mds=full,nosmt", &m);
  ck_assert (m.smt_off);
  ck_assert (has_line (m.explain, "mds=verw", "SMT siblings offline, as mds=full,nosmt asked"));
  {
    /* asked on the command line, so marked '*' (set), not '~' (the kernel's own choice) */
    const char *mark = NULL;
    g_autofree char *value = NULL;
    for (guint i = 0; m.explain[i] && value == NULL; i++)
      value = ns_mitigation_explain_value (m.explain[i], "mds", &mark);
    ck_assert_str_eq (value, "verw");
    ck_assert_str_eq (mark, "*");
  }
  ns_mitigations_clear (&m);
  ck_assert (!chosen_69 (mds_cpu, "mds=full,nosmt mds=full").smt_off);
  ck_assert (!chosen_69 (mds_cpu, "mitigations=auto,nosmt mitigations=off").smt_off);
  ck_assert (!chosen_69 (mds_cpu, "mds=off mitigations=auto,nosmt").smt_off);
  ck_assert (!chosen_69 (intel_eibrs, "mitigations=auto,nosmt mds=full,nosmt").smt_off);
}
END_TEST

/* spectre_bhi= came in v6.9-rc4 and went back to 6.8.y, 6.6.y and 6.1.y: on 6.6.26 it is
 * applied as a backport with a note (once, however often given); on 6.9 and for keys
 * older than the kernel, no note. The same for retbleed= (5.19, back to 5.18.y, 5.15.y,
 * 5.10.y) and spec_rstack_overflow= (6.5, back to 6.4.y and the long-term series). */
START_TEST (test_key_newer_than_kernel_noted)
{
  NsMitigations m;

  ck_assert (ns_mitigations_select (intel_eibrs, 1, "6.6.26", "spectre_bhi=on spectre_bhi=off",
                                    &m, NULL));
  ck_assert_ptr_nonnull (m.notes);
  ck_assert_uint_eq (g_strv_length (m.notes), 1);
  ck_assert_msg (strstr (m.notes[0], "spectre_bhi= is mainline from 6.9-rc4") != NULL &&
                 strstr (m.notes[0], "kernel 6.6.26 has it only through a backport") != NULL,
                 "%s", m.notes[0]);
  ck_assert_int_eq (m.bhi, NS_BHI_OFF);         /* applied: the last value wins */
  ns_mitigations_clear (&m);
  ck_assert_ptr_null (m.notes);
  ck_assert (ns_mitigations_select (intel_eibrs, 1, "6.9.0-rc4", "spectre_bhi=on", &m, NULL));
  ck_assert_ptr_null (m.notes);
  ns_mitigations_clear (&m);
  select_69 (intel_eibrs, "spectre_bhi=on retbleed=off", &m);
  ck_assert_ptr_null (m.notes);
  ns_mitigations_clear (&m);
  /* retbleed= is v5.19's, spec_rstack_overflow= v6.5's: one note each before them, none
   * from them on */
  ck_assert (ns_mitigations_select (amd_every_bug_since_44, 1, "5.10",
                                    "retbleed=off spec_rstack_overflow=off", &m, NULL));
  ck_assert_ptr_nonnull (m.notes);
  ck_assert_uint_eq (g_strv_length (m.notes), 2);
  ck_assert (strstr (m.notes[0], "retbleed= is mainline from 5.19-rc7") != NULL);
  ck_assert_msg (strstr (m.notes[0], "5.18.y (from 5.18.14), 5.15.y (from 5.15.57) and "
                         "5.10.y (from 5.10.133)") != NULL, "%s", m.notes[0]);
  ck_assert (strstr (m.notes[1], "spec_rstack_overflow= is mainline from 6.5-rc6") != NULL);
  ns_mitigations_clear (&m);
  ck_assert (ns_mitigations_select (amd_every_bug_since_44, 1, "6.5",
                                    "retbleed=off spec_rstack_overflow=off", &m, NULL));
  ck_assert_ptr_null (m.notes);
  ns_mitigations_clear (&m);
}
END_TEST

/* A kernel whose stable series ended before a key's backport (or a mainline release
 * candidate before the key) does not know it: the kernel passes it on to init, so the
 * default stands, its value unchecked, and a note says so; an unknown spectre_v2= value
 * switches to auto (spectre_v2_parse_cmdline()), marked as the kernel's choice. */
START_TEST (test_key_of_no_backport_ignored)
{
  NsMitigations m;

  /* spectre_bhi=: 6.7.y ended on 3 April 2024, before the BHI series of 9 April */
  ck_assert (ns_mitigations_select (intel_eibrs, 1, "6.7", "spectre_bhi=off", &m, NULL));
  ck_assert_int_eq (m.bhi, NS_BHI_LOOP);
  ck_assert_msg (has_note (m.notes, "spectre_bhi= is mainline from 6.9-rc4",
                           "kernel 6.7 is of no stable series that took it"), "%s",
                 m.notes ? m.notes[0] : "no note");
  ck_assert (has_note (m.notes, "passes it on to init", "default stands"));
  ck_assert (!has_note (m.notes, "only through a backport", ""));
  ns_mitigations_clear (&m);
  ck_assert_int_eq (chosen_on (intel_eibrs, "6.9.0-rc1", "spectre_bhi=off").bhi, NS_BHI_LOOP);
  /* 6.8.5, 6.6.26 and 6.1.85 took it (10 April 2024), the releases before them did not */
  ck_assert_int_eq (chosen_on (intel_eibrs, "6.8.5", "spectre_bhi=off").bhi, NS_BHI_OFF);
  ck_assert_int_eq (chosen_on (intel_eibrs, "6.8.4", "spectre_bhi=off").bhi, NS_BHI_LOOP);
  ck_assert_int_eq (chosen_on (intel_eibrs, "6.6.26", "spectre_bhi=off").bhi, NS_BHI_OFF);
  ck_assert_int_eq (chosen_on (intel_eibrs, "6.6.25", "spectre_bhi=off").bhi, NS_BHI_LOOP);
  /* its value is not checked either, as the kernel never reads it */
  ck_assert_int_eq (chosen_on (intel_eibrs, "6.7", "spectre_bhi=bogus").bhi, NS_BHI_LOOP);
  /* spec_rstack_overflow=: 6.2.y and 6.3.y ended before SRSO (8 August 2023) */
  ck_assert (ns_mitigations_select (amd_every_bug_since_44, 1, "6.3",
                                    "spec_rstack_overflow=safe-ret", &m, NULL));
  ck_assert_int_eq (m.srso, NS_SRSO_OFF);
  ck_assert (has_note (m.notes, "spec_rstack_overflow= is mainline from 6.5-rc6", "kernel 6.3 is "
                       "of no stable series"));
  ns_mitigations_clear (&m);
  ck_assert_int_eq (chosen_on (amd_every_bug_since_44, "6.2", "spec_rstack_overflow=safe-ret")
                    .srso, NS_SRSO_OFF);
  /* ... and 6.4.y took it from 6.4.9 (8 August 2023), 6.1.y from 6.1.44 */
  ck_assert_int_eq (chosen_on (amd_every_bug_since_44, "6.4.9", "spec_rstack_overflow=safe-ret")
                    .srso, NS_SRSO_SAFE_RET);
  ck_assert_int_eq (chosen_on (amd_every_bug_since_44, "6.4.8", "spec_rstack_overflow=safe-ret")
                    .srso, NS_SRSO_OFF);
  ck_assert_int_eq (chosen_on (amd_every_bug_since_44, "6.1.43", "spec_rstack_overflow=safe-ret")
                    .srso, NS_SRSO_OFF);
  /* retbleed=: 5.16.y and 5.17.y ended before Retbleed (July 2022) */
  ck_assert_int_eq (chosen_on (amd_every_bug_since_44, "5.16", "retbleed=ibpb").retbleed,
                    NS_RETBLEED_OFF);
  ck_assert_int_eq (chosen_on (amd_every_bug_since_44, "5.18.14", "retbleed=ibpb").retbleed,
                    NS_RETBLEED_IBPB);
  /* ... from the release that took it (5.18.14), not before */
  ck_assert_int_eq (chosen_on (amd_every_bug_since_44, "5.18.13", "retbleed=ibpb").retbleed,
                    NS_RETBLEED_OFF);
  /* spectre_v2=ibrs on 5.16: an unknown value, auto select (the profile's retpoline) */
  ck_assert (ns_mitigations_select (intel_meltdown_since_415, 1, "5.16", "spectre_v2=ibrs",
                                    &m, NULL));
  ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_RETPOLINE);
  ck_assert (has_line (m.explain, "spectre_v2=retpoline", NS_MITIGATION_KERNEL_CHOSE));
  ck_assert (has_line (m.explain, "spectre_v2=retpoline", "AUTO select"));
  ck_assert (has_note (m.notes, "spectre_v2=ibrs is mainline from 5.19-rc7", "kernel 5.16 is of "
                       "no stable series"));
  ns_mitigations_clear (&m);
  /* eibrs before 5.17 on 5.14 (ended December 2021, before the Spectre-BHB stables) */
  ck_assert_int_eq (chosen_on (intel_meltdown_since_415, "5.14", "spectre_v2=retpoline,lfence")
                    .spectre_v2, NS_SPECTRE_V2_RETPOLINE);
  ck_assert_int_eq (chosen_on (intel_meltdown_since_415, "5.15.28", "spectre_v2=retpoline,lfence")
                    .spectre_v2, NS_SPECTRE_V2_LFENCE);
  ck_assert_int_eq (chosen_on (intel_meltdown_since_415, "5.14", "spectre_v2=retpoline,amd")
                    .spectre_v2, NS_SPECTRE_V2_RETPOLINE);
  ck_assert_int_eq (chosen_on (amd_every_bug_since_44, "5.14", "spectre_v2=retpoline,amd")
                    .spectre_v2, NS_SPECTRE_V2_LFENCE);
}
END_TEST

/* Values newer than the kernel that the stable branches took are applied as the
 * backport has them, with a note, as the keys are: spectre_v2=ibrs (5.19), eibrs and
 * retpoline,lfence (5.17), retpoline,amd on a CPU not AMD's (5.16: before, auto). */
START_TEST (test_value_newer_than_kernel_noted)
{
  NsMitigations m;

  ck_assert (ns_mitigations_select (intel_meltdown_since_415, 1, "5.10.133", "spectre_v2=ibrs",
                                    &m, NULL));
  ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_IBRS);
  ck_assert_ptr_nonnull (m.notes);
  ck_assert_uint_eq (g_strv_length (m.notes), 1);
  ck_assert_msg (has_note (m.notes, "spectre_v2=ibrs is mainline from 5.19-rc7",
                           "kernel 5.10.133 has it only through a backport"), "%s", m.notes[0]);
  ns_mitigations_clear (&m);
  ck_assert (ns_mitigations_select (intel_meltdown_since_415, 1, "5.16.14", "spectre_v2=eibrs "
                                    "spectre_v2=retpoline,lfence", &m, NULL));
  ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_LFENCE);
  ck_assert_ptr_nonnull (m.notes);
  ck_assert_uint_eq (g_strv_length (m.notes), 2);
  ck_assert (has_note (m.notes, "spectre_v2=eibrs is mainline from 5.17-rc8", "kernel 5.16"));
  ck_assert (has_note (m.notes, "spectre_v2=retpoline,lfence is mainline from 5.17-rc8", "5.16"));
  ns_mitigations_clear (&m);
  ck_assert (ns_mitigations_select (intel_meltdown_since_415, 1, "5.15.28",
                                    "spectre_v2=retpoline,amd", &m, NULL));
  ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_LFENCE);
  ck_assert (has_note (m.notes, "spectre_v2=retpoline,amd on a CPU not AMD's is mainline "
                       "from 5.16-rc1", "Unconditionally allow"));
  ns_mitigations_clear (&m);
  /* none where the kernel has the value, nor for retpoline,amd on AMD, nor for older
   * values */
  ck_assert_ptr_null (chosen_on (intel_meltdown_since_415, "5.19", "spectre_v2=ibrs").notes);
  ck_assert (ns_mitigations_select (intel_meltdown_since_415, 1, "5.17", "spectre_v2=eibrs "
                                    "spectre_v2=retpoline,lfence spectre_v2=retpoline,amd",
                                    &m, NULL));
  ck_assert_ptr_null (m.notes);
  ns_mitigations_clear (&m);
  ck_assert (ns_mitigations_select (amd_every_bug_since_44, 1, "5.15",
                                    "spectre_v2=retpoline,amd", &m, NULL));
  ck_assert_ptr_null (m.notes);
  ns_mitigations_clear (&m);
  ck_assert (ns_mitigations_select (intel_meltdown_since_415, 1, "4.15",
                                    "spectre_v2=retpoline,generic spectre_v2=off", &m, NULL));
  ck_assert_ptr_null (m.notes);
  ns_mitigations_clear (&m);
}
END_TEST

/* spectre_bhi=vmexit (6.11, 42c141fbb651): BHI_DIS_S where the CPU has it, else the loop
 * on VM exit only, none at syscall entry; before 6.11 spectre_bhi_parse_cmdline() ignores
 * the word ("Ignoring unknown spectre_bhi option"), so what stood stays. */
START_TEST (test_spectre_bhi_vmexit)
{
  g_autofree char *off_611 = NULL, *hw_612 = NULL;
  NsMitigations m;

  ck_assert_int_eq (chosen_on (intel_eibrs, "6.11", "spectre_bhi=vmexit").bhi, NS_BHI_OFF);
  ck_assert_int_eq (chosen_on (intel_eibrs, "6.12.0", "spectre_bhi=on spectre_bhi=vmexit").bhi,
                    NS_BHI_OFF);
  ck_assert_int_eq (chosen_on (intel_bhi_ctrl, "6.12.0", "spectre_bhi=vmexit").bhi, NS_BHI_HW);
  ck_assert (ns_mitigations_select (intel_eibrs, 1, "6.11", "spectre_bhi=vmexit", &m, NULL));
  ck_assert (has_line (m.explain, "bhi=off", ": kernel command line: spectre_bhi=vmexit"));
  ns_mitigations_clear (&m);
  /* before 6.11: ignored, marked as the kernel's own choice */
  ck_assert (ns_mitigations_select (intel_eibrs, 1, "6.10", "spectre_bhi=vmexit", &m, NULL));
  ck_assert_int_eq (m.bhi, NS_BHI_LOOP);
  ck_assert (has_line (m.explain, "bhi=loop", NS_MITIGATION_KERNEL_CHOSE "loop, as this "
                       "kernel's spectre_bhi_parse_cmdline() does not know 'vmexit'"));
  ns_mitigations_clear (&m);
  ck_assert_int_eq (chosen_on (intel_eibrs, "6.10", "spectre_bhi=off spectre_bhi=vmexit").bhi,
                    NS_BHI_OFF);
  ck_assert_int_eq (chosen_on (intel_eibrs, "6.10", "spectre_bhi=vmexit spectre_bhi=off").bhi,
                    NS_BHI_OFF);
  /* a CPU without the bug ignores it whatever the kernel */
  ck_assert_int_eq (chosen_on (zen3_listed, "6.1", "spectre_bhi=vmexit").bhi, NS_BHI_OFF);
}
END_TEST

/* next_arg() (lib/cmdline.c) keeps the spaces between double quotes in one argument, so a
 * "--" inside them ends nothing and the words after the closing quote are the kernel's;
 * cmdline_find_option(_bool), which reads the spectre_v2 keys (and pti= and nopti before
 * 6.7), splits at every space, quotes or not, and finds such a key inside another
 * argument's quotes where a word starts with it. */
START_TEST (test_quotes_group_words)
{
  g_auto (GStrv) unread = ns_mitigation_cmdline_unread ("dyndbg=\"file x.c -- y\" quiet");
  GError *err = NULL;
  NsMitigations m;

  ck_assert (ns_mitigations_select (intel_eibrs, 1, "6.9",
                                    "dyndbg=\"file x.c -- y\" mitigations=off", &m, NULL));
  ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_OFF);
  ck_assert_int_eq (m.bhi, NS_BHI_OFF);
  ck_assert_ptr_null (m.notes);                 /* no "stops at '--'" note */
  ns_mitigations_clear (&m);
  ck_assert_uint_eq (g_strv_length (unread), 2);
  ck_assert_str_eq (unread[0], "dyndbg=\"file x.c -- y\"");
  ck_assert_str_eq (unread[1], "quiet");
  /* a quoted argument with spaces: its value's quotes dropped, its key read */
  ck_assert_int_eq (chosen_69 (intel_eibrs, "\"mitigations=off\" x").bhi, NS_BHI_OFF);
  /* next_arg() ends an argument at any byte the kernel's isspace() takes: '\t' to '\r',
   * ' ' and Latin-1's no-break space (lib/ctype.c) */
  {
    static const char spaces[] = "\t\n\v\f\r \xa0";
    for (guint i = 0; spaces[i] != '\0'; i++) {
      g_autofree char *line = g_strdup_printf ("quiet%cmitigations=off%cx", spaces[i],
                                               spaces[i]);
      ck_assert_msg (chosen_69 (intel_eibrs, line).bhi == NS_BHI_OFF, "byte %#x",
                     (guchar) spaces[i]);
    }
  }
  ck_assert_int_eq (chosen_69 (intel_eibrs, "mds=\"off\"  \"retbleed=off\"").retbleed,
                    NS_RETBLEED_OFF);
  /* an unclosed quote runs to the end of the line */
  ck_assert_int_eq (chosen_69 (intel_eibrs, "x=\"a mitigations=off").bhi, NS_BHI_LOOP);
  /* the find-option keys: found inside another argument's quotes at a word's start */
  ck_assert_int_eq (chosen_69 (intel_eibrs, "dyndbg=\"a spectre_v2=retpoline b\"").spectre_v2,
                    NS_SPECTRE_V2_RETPOLINE);
  {
    g_auto (GStrv) read = ns_mitigation_cmdline_unread ("dyndbg=\"a spectre_v2=retpoline b\"");
    ck_assert_uint_eq (g_strv_length (read), 0);  /* it changed something: no typo note */
  }
  ck_assert_int_eq (chosen_69 (intel_eibrs, "dyndbg=\"spectre_v2=off b\"").spectre_v2,
                    NS_SPECTRE_V2_EIBRS);
  ck_assert (!chosen_on (intel_meltdown_since_415, "6.6", "dyndbg=\"a nopti b\"").pti);
  ck_assert (chosen_on (intel_meltdown_since_415, "6.7", "dyndbg=\"a nopti b\"").pti);
  /* ... where the closing quote ends the word, the value is read with it: refused */
  ck_assert (!ns_mitigations_select (intel_eibrs, 1, "6.9", "dyndbg=\"a spectre_v2=off\"", &m,
                                     &err));
  ck_assert_msg (strstr (err->message, "spectre_v2=off\"") != NULL, "%s", err->message);
  g_clear_error (&err);
}
END_TEST

/* Before 6.7 pti_check_boottime_disable() read pti= and nopti with
 * cmdline_find_option(_bool) (pti.c before 9fa4dc9797f2): no quotes dropped, so pti="off"
 * was read as '"off"', which matched nothing (auto). As for spectre_v2=, such spellings
 * are refused; from 6.7 they are early parameters and parse_args() drops the quotes. */
START_TEST (test_pti_exact_spelling_before_67)
{
  static const char *const inexact[] = { "pti=\"off\"", "\"pti=off\"", "\"nopti\"",
                                         "nopti=1", "-- pti=\"off\"" };
  GError *err = NULL;
  NsMitigations m;

  for (guint i = 0; i < G_N_ELEMENTS (inexact); i++) {
    ck_assert_msg (!ns_mitigations_select (intel_meltdown_since_415, 1, "6.6", inexact[i], &m,
                                           &err), "%s taken", inexact[i]);
    ck_assert_msg (strstr (err->message, "exact spelling") != NULL ||
                   strstr (err->message, "takes no value") != NULL, "%s", err->message);
    ck_assert_msg (strstr (err->message, "pti_check_boottime_disable") != NULL, "%s",
                   err->message);
    g_clear_error (&err);
  }
  ck_assert (!chosen_on (intel_meltdown_since_415, "6.6", "pti=off").pti);
  ck_assert (!chosen_on (intel_meltdown_since_415, "6.6", "nopti").pti);
  /* 6.7+: early parameters, read as parse_args() hands them out */
  ck_assert (!chosen_on (intel_meltdown_since_415, "6.7", "pti=\"off\"").pti);
  ck_assert (!chosen_on (intel_meltdown_since_415, "6.7", "\"nopti\"").pti);
}
END_TEST

/* parse_args() stops at a bare "--" and passes the words after it to init: the early
 * parameters among them are not applied (nor their values checked); spectre_v2= and
 * nospectre_v2, which the kernel looks up in the whole line, are, and so are pti= and
 * nopti before 6.7 (early parameters since); a note names the words. */
START_TEST (test_dashes_end_kernel_args)
{
  g_auto (GStrv) unread = ns_mitigation_cmdline_unread ("quiet -- mitigations=off single");
  NsMitigations m;

  ck_assert (ns_mitigations_select (intel_eibrs, 1, "6.9", "quiet -- mitigations=off", &m,
                                    NULL));
  ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_EIBRS);
  ck_assert_int_eq (m.bhi, NS_BHI_LOOP);
  ck_assert_ptr_nonnull (m.notes);
  ck_assert_uint_eq (g_strv_length (m.notes), 1);
  ck_assert_msg (has_note (m.notes, "stops at '--'", "to init ('mitigations=off')"), "%s",
                 m.notes[0]);
  ns_mitigations_clear (&m);
  ck_assert_int_eq (chosen_69 (intel_eibrs, "mitigations=off").bhi, NS_BHI_OFF);
  /* quoted it ends them too; "--=x" has a value and ends nothing */
  ck_assert_int_eq (chosen_69 (intel_eibrs, "\"--\" mitigations=off").bhi, NS_BHI_LOOP);
  ck_assert_int_eq (chosen_69 (intel_eibrs, "--=x mitigations=off").bhi, NS_BHI_OFF);
  /* what came before stands */
  ck_assert_int_eq (chosen_69 (intel_eibrs, "spectre_bhi=off -- spectre_bhi=on").bhi,
                    NS_BHI_OFF);
  ck_assert_int_eq (chosen_69 (intel_eibrs, "-- mitigations=bogus retbleed=x").bhi,
                    NS_BHI_LOOP);
  /* the spectre_v2 keys are read past it, the last value winning as before */
  ck_assert_int_eq (chosen_69 (intel_eibrs, "-- spectre_v2=retpoline,lfence").spectre_v2,
                    NS_SPECTRE_V2_LFENCE);
  ck_assert_int_eq (chosen_69 (intel_eibrs, "-- nospectre_v2").spectre_v2, NS_SPECTRE_V2_OFF);
  ck_assert_int_eq (chosen_69 (intel_eibrs, "spectre_v2=off -- spectre_v2=eibrs").spectre_v2,
                    NS_SPECTRE_V2_EIBRS);
  /* pti= and nopti: read past it before 6.7, early parameters from then on */
  ck_assert (!chosen_on (intel_meltdown_since_415, "6.6", "-- nopti").pti);
  ck_assert (chosen_on (intel_meltdown_since_415, "6.7", "-- nopti").pti);
  ck_assert (!chosen_on (intel_meltdown_since_415, "6.7", "nopti --").pti);
  /* the words after it go to init: none is named as a typo */
  ck_assert_uint_eq (g_strv_length (unread), 1);
  ck_assert_str_eq (unread[0], "quiet");
}
END_TEST

START_TEST (test_retbleed_values)
{
  NsMitigations m;

  /* spectre_v2's auto choice is legacy IBRS only while retbleed= is not off (nor stuff,
   * 6.2+): else a generic retpoline, and retbleed stays as asked */
  ck_assert_int_eq (chosen_69 (intel_ibrs, "").spectre_v2, NS_SPECTRE_V2_IBRS);
  ck_assert_int_eq (chosen_69 (intel_ibrs, "retbleed=unret").spectre_v2, NS_SPECTRE_V2_IBRS);
  select_69 (intel_ibrs, "retbleed=off", &m);
  ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_RETPOLINE);
  ck_assert_int_eq (m.retbleed, NS_RETBLEED_OFF);
  ck_assert (has_line (m.explain, "spectre_v2=retpoline", "not off"));
  ns_mitigations_clear (&m);
  select_69 (intel_ibrs, "retbleed=stuff", &m);
  ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_RETPOLINE);
  ck_assert_int_eq (m.retbleed, NS_RETBLEED_STUFF);
  ns_mitigations_clear (&m);
  ck_assert_int_eq (chosen_69 (intel_ibrs, "retbleed=off spectre_v2=ibrs").spectre_v2,
                    NS_SPECTRE_V2_IBRS);
  ck_assert_int_eq (chosen_69 (intel_ibrs, "retbleed=off spectre_v2=auto").spectre_v2,
                    NS_SPECTRE_V2_RETPOLINE);
  ck_assert (ns_mitigations_select (intel_ibrs, 1, "6.1", "retbleed=stuff", &m, NULL));
  ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_IBRS);   /* 6.1: no stuff, IBRS stays */
  ns_mitigations_clear (&m);

  select_69 (intel_eibrs, "retbleed=stuff", &m);
  ck_assert_int_eq (m.retbleed, NS_RETBLEED_EIBRS);
  ck_assert (has_line (m.explain, "retbleed=eibrs", NS_MITIGATION_KERNEL_CHOSE "eibrs"));
  ns_mitigations_clear (&m);
  ck_assert_int_eq (chosen_69 (intel_eibrs, "retbleed=stuff spectre_v2=retpoline").retbleed,
                    NS_RETBLEED_STUFF);
  ck_assert (ns_mitigations_select (intel_eibrs, 1, "6.1", "retbleed=stuff spectre_v2=retpoline",
                                    &m, NULL));
  ck_assert_int_eq (m.retbleed, NS_RETBLEED_OFF);
  /* the skipped word leaves retbleed_cmd at AUTO: no mode in between is named (the
   * profile's eibrs never is in force with spectre_v2=retpoline) */
  ck_assert (has_line (m.explain, "retbleed=off", "retbleed_cmd stays AUTO"));
  ck_assert (!has_line (m.explain, "retbleed=off", NS_MITIGATION_KERNEL_CHOSE "eibrs"));
  ns_mitigations_clear (&m);
  /* an earlier retbleed= mode stands, and is named */
  ck_assert (ns_mitigations_select (amd_retpoline, 1, "6.1", "retbleed=unret retbleed=stuff",
                                    &m, NULL));
  ck_assert_int_eq (m.retbleed, NS_RETBLEED_UNRET);
  ck_assert (has_line (m.explain, "retbleed=unret", NS_MITIGATION_KERNEL_CHOSE "unret"));
  ns_mitigations_clear (&m);
  ck_assert_int_eq (chosen_69 (intel_eibrs, "spectre_v2=retpoline").retbleed, NS_RETBLEED_OFF);
  /* 6.1's parser skips "stuff" (unknown to it): an earlier mode word stands */
  ck_assert (ns_mitigations_select (amd_retpoline, 1, "6.1", "retbleed=unret,stuff", &m, NULL));
  ck_assert_int_eq (m.retbleed, NS_RETBLEED_UNRET);
  ck_assert (has_line (m.explain, "retbleed=unret", "does not know 'stuff'"));
  ns_mitigations_clear (&m);
  ck_assert_int_eq (chosen_69 (amd_retpoline, "retbleed=unret,stuff").retbleed,
                    NS_RETBLEED_STUFF);
  ck_assert_int_eq (chosen_69 (intel_eibrs, "spectre_v2=ibrs").retbleed, NS_RETBLEED_IBRS);
  ck_assert_int_eq (chosen_69 (intel_eibrs, "spectre_v2=retpoline retbleed=unret").retbleed,
                    NS_RETBLEED_UNRET);
  ck_assert_int_eq (chosen_69 (amd_retpoline, "retbleed=stuff").retbleed, NS_RETBLEED_STUFF);
  ck_assert_int_eq (chosen_69 (amd_retpoline, "spectre_v2=retpoline,amd retbleed=stuff").retbleed,
                    NS_RETBLEED_OFF);
  ck_assert_int_eq (chosen_69 (amd_retpoline, "retbleed=unret,nosmt").retbleed, NS_RETBLEED_UNRET);
  select_69 (amd_retpoline, "retbleed=ibpb retbleed=nosmt spec_rstack_overflow=safe-ret", &m);
  ck_assert_int_eq (m.retbleed, NS_RETBLEED_IBPB);
  ck_assert_int_eq (m.srso, NS_SRSO_IBPB);
  ns_mitigations_clear (&m);
  ck_assert_int_eq (chosen_69 (amd_retpoline, "retbleed=ibpb,unret").retbleed, NS_RETBLEED_UNRET);
  /* from v6.12-rc4 SRSO's IBPB on entry clears the untrained return (c62fa117c32b); not on
   * 6.9, and not with Safe RET */
  ck_assert_int_eq (chosen_69 (amd_retpoline, "retbleed=unret spec_rstack_overflow=ibpb").retbleed,
                    NS_RETBLEED_UNRET);
  ck_assert (ns_mitigations_select (amd_retpoline, 1, "6.12",
                                    "retbleed=unret spec_rstack_overflow=ibpb", &m, NULL));
  ck_assert_int_eq (m.retbleed, NS_RETBLEED_OFF);
  ck_assert_int_eq (m.srso, NS_SRSO_IBPB);
  ck_assert (has_line (m.explain, "retbleed=off", "c62fa117c32b"));
  ns_mitigations_clear (&m);
  ck_assert (ns_mitigations_select (amd_retpoline, 1, "6.12",
                                    "retbleed=unret spec_rstack_overflow=safe-ret", &m, NULL));
  ck_assert_int_eq (m.retbleed, NS_RETBLEED_UNRET);
  ns_mitigations_clear (&m);
  /* "auto" is a word like the others, and a value of nosmt words alone changes nothing:
   * the mode asked before stays asked */
  ck_assert_int_eq (chosen_69 (intel_eibrs, "retbleed=ibpb retbleed=nosmt").retbleed,
                    NS_RETBLEED_IBPB);
  ck_assert_int_eq (chosen_69 (intel_eibrs,
                               "spectre_v2=retpoline retbleed=stuff retbleed=nosmt").retbleed,
                    NS_RETBLEED_STUFF);
  select_69 (intel_eibrs, "spectre_v2=retpoline retbleed=nosmt,nosmt", &m);
  ck_assert_int_eq (m.retbleed, NS_RETBLEED_OFF);
  ck_assert (has_line (m.explain, "retbleed=off", "CPU profile default"));
  ns_mitigations_clear (&m);
  ck_assert_int_eq (chosen_69 (intel_eibrs, "spectre_v2=retpoline retbleed=ibpb,auto").retbleed,
                    NS_RETBLEED_OFF);
  ck_assert_int_eq (chosen_69 (intel_eibrs, "retbleed=auto,nosmt").retbleed, NS_RETBLEED_EIBRS);
}
END_TEST

/* Values the kernel's parsers do not take are errors (the kernel would log them and keep
 * auto); its own spellings are taken. */
START_TEST (test_kernel_spellings)
{
  static const char *const refused[] = {
    "spectre_v2=lfence", "retbleed=ibrs", "retbleed=eibrs", "pti=force", "mds=on",
    "spec_rstack_overflow=retpoline"
  };
  NsMitigations m;
  GError *error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++) {
    ck_assert_msg (!ns_mitigations_select (amd_retpoline, 1, "6.9", refused[i], &m, &error),
                   "%s taken", refused[i]);
    ck_assert_msg (strstr (error->message, refused[i]) != NULL, "%s", error->message);
    g_clear_error (&error);
  }
  select_69 (amd_retpoline, "mds=full,nosmt spec_rstack_overflow=microcode", &m);
  ck_assert (m.mds_verw);
  ck_assert_int_eq (m.srso, NS_SRSO_OFF);
  ns_mitigations_clear (&m);
  /* parameq() takes '-' for '_'; next_arg() strips quotes around an argument or a value */
  select_69 (amd_retpoline, "spec-rstack-overflow=ibpb \"retbleed=unret\" pti=\"on\"", &m);
  ck_assert_int_eq (m.srso, NS_SRSO_IBPB);
  ck_assert_int_eq (m.retbleed, NS_RETBLEED_UNRET);
  ck_assert (m.pti);
  ns_mitigations_clear (&m);
}
END_TEST

/* The BHI series (and with it x64_sys_call, sim/kchange.c) is mainline from 6.9-rc4 and in
 * 6.8.5, 6.6.26, 6.1.85 and 5.15.154 on; 6.7.y and 5.10.y never took it. The command
 * line's spectre_bhi= (the registry's ec9404e40e8f) and its x64_sys_call entry hold the
 * same releases. */
START_TEST (test_bhi_series_releases)
{
  const char *has[] = { "6.9.0-rc4", "6.9", "6.18.44-fc-v1252", "6.8.5", "6.8.12", "6.6.26",
                        "6.1.85", "6.1.176" };
  const char *lacks[] = { "6.9.0-rc3", "6.9.0-rc1", "6.8.4", "6.8", "6.7.12", "6.6.25",
                          "6.1.84", "6.2" };

  for (guint i = 0; i < G_N_ELEMENTS (has); i++) {
    ck_assert_msg (ns_kernel_release_has (has[i], NS_KCHANGE_X64_SYS_CALL), "%s", has[i]);
    ck_assert_msg (ns_kernel_release_has (has[i], NS_KCHANGE_BHI_KNOB), "%s", has[i]);
    ck_assert_msg (chosen_on (intel_eibrs, has[i], "spectre_bhi=off").bhi == NS_BHI_OFF, "%s",
                   has[i]);
  }
  for (guint i = 0; i < G_N_ELEMENTS (lacks); i++) {
    ck_assert_msg (!ns_kernel_release_has (lacks[i], NS_KCHANGE_X64_SYS_CALL), "%s", lacks[i]);
    ck_assert_msg (!ns_kernel_release_has (lacks[i], NS_KCHANGE_BHI_KNOB), "%s", lacks[i]);
    ck_assert_msg (chosen_on (intel_eibrs, lacks[i], "spectre_bhi=off").bhi == NS_BHI_LOOP,
                   "%s", lacks[i]);
  }
  /* past the test profile's kernels (6.1 to 6.99): the registry alone; 5.15.y took the
   * series and x64_sys_call in 5.15.154, 5.10.y never */
  ck_assert (ns_kernel_release_has ("7.0", NS_KCHANGE_X64_SYS_CALL));
  ck_assert (ns_kernel_release_has ("5.15.154", NS_KCHANGE_X64_SYS_CALL));
  ck_assert (ns_kernel_release_has ("5.15.200", NS_KCHANGE_BHI_KNOB));
  ck_assert (!ns_kernel_release_has ("5.15.153", NS_KCHANGE_X64_SYS_CALL));
  ck_assert (!ns_kernel_release_has ("5.15.153", NS_KCHANGE_BHI_KNOB));
  ck_assert (!ns_kernel_release_has ("5.10.230", NS_KCHANGE_X64_SYS_CALL));
  ck_assert (!ns_kernel_release_has ("5.10.230", NS_KCHANGE_BHI_KNOB));
}
END_TEST

/* Profile ranges: a bound without -rcN covers its whole series, one with it is exact (the
 * BHI loop arrived in 6.9-rc4), and a version without -rcN is the release. */
START_TEST (test_kernel_ranges_with_release_candidates)
{
  ck_assert (ns_kernel_version_in_range ("6.9.0-rc1", "6.9", "6.99"));
  ck_assert (ns_kernel_version_in_range ("6.8.0-rc2", "5.19", "6.8"));
  ck_assert (ns_kernel_version_in_range ("6.8", "5.19", "6.8"));
  ck_assert (ns_kernel_version_in_range ("6.9.0-rc1", "5.19", "6.9.0-rc3"));
  ck_assert (ns_kernel_version_in_range ("6.9.0-rc3", "5.19", "6.9.0-rc3"));
  ck_assert (!ns_kernel_version_in_range ("6.9.0-rc4", "5.19", "6.9.0-rc3"));
  ck_assert (!ns_kernel_version_in_range ("6.9", "5.19", "6.9.0-rc3"));
  ck_assert (ns_kernel_version_in_range ("6.9", "6.9.0-rc4", "6.99"));
  ck_assert (ns_kernel_version_in_range ("6.9.0-rc4", "6.9.0-rc4", "6.99"));
  ck_assert (ns_kernel_version_in_range ("6.9.0-rc12", "6.9.0-rc4", "6.99"));
  ck_assert (!ns_kernel_version_in_range ("6.9.0-rc1", "6.9.0-rc4", "6.99"));
  ck_assert (!ns_kernel_version_in_range ("6.10", "5.19", "6.9"));
  /* a stable release candidate comes after its series' release, not among its -rcN */
  ck_assert (ns_kernel_version_in_range ("6.9.1-rc1", "6.9.0-rc4", "6.99"));
  ck_assert (!ns_kernel_version_in_range ("6.9.1-rc1", "5.19", "6.9.0-rc3"));
  ck_assert (!ns_kernel_version_in_range ("6.9-rc1", "6.9.0-rc4", "6.99"));
  /* the split at rc3/rc4 leaves no version out and none in both */
  ck_assert (!ns_kernel_ranges_overlap ("5.19", "6.9.0-rc3", "6.9.0-rc4", "6.99"));
  ck_assert (ns_kernel_ranges_overlap ("5.19", "6.9.0-rc4", "6.9.0-rc4", "6.99"));
  ck_assert (ns_kernel_ranges_overlap ("6.9.0-rc4", "6.99", "5.19", "6.9.0-rc4"));
  ck_assert (ns_kernel_ranges_overlap ("5.19", "6.9", "6.9.0-rc4", "6.99"));
  ck_assert (ns_kernel_ranges_overlap ("6.9", "6.9", "6.9", "6.9"));
  ck_assert (!ns_kernel_ranges_overlap ("6.9.0-rc4", "6.9.0-rc3", "6.9.0-rc4", "6.9.0-rc3"));
}
END_TEST

/* Releases order on the stable sublevel too ("5.4" is 5.4.0), a mainline -rcN before its
 * .0, a stable candidate as its release, and a build suffix not at all. */
START_TEST (test_kernel_release_cmp)
{
  ck_assert_int_lt (ns_kernel_release_cmp ("5.4.54", "5.4.55"), 0);
  ck_assert_int_eq (ns_kernel_release_cmp ("5.4.55", "5.4.55"), 0);
  ck_assert_int_gt (ns_kernel_release_cmp ("5.4.100", "5.4.55"), 0);
  ck_assert_int_eq (ns_kernel_release_cmp ("5.4", "5.4.0"), 0);
  ck_assert_int_lt (ns_kernel_release_cmp ("5.4", "5.4.1"), 0);
  ck_assert_int_lt (ns_kernel_release_cmp ("6.2-rc1", "6.2"), 0);
  ck_assert_int_lt (ns_kernel_release_cmp ("6.2.0-rc7", "6.2.0"), 0);
  ck_assert_int_eq (ns_kernel_release_cmp ("6.2-rc1", "6.2.0-rc1"), 0);
  ck_assert_int_lt (ns_kernel_release_cmp ("5.8-rc6", "5.8-rc7"), 0);
  ck_assert_int_gt (ns_kernel_release_cmp ("6.2-rc1", "6.1.200"), 0);
  ck_assert_int_lt (ns_kernel_release_cmp ("6.9.18", "6.10-rc1"), 0);
  ck_assert_int_eq (ns_kernel_release_cmp ("5.4.55-rc1", "5.4.55"), 0);
  ck_assert_int_eq (ns_kernel_release_cmp ("6.18.44-fc-v1252", "6.18.44"), 0);
  ck_assert_int_gt (ns_kernel_release_cmp ("6.18.44-fc-v1252", "6.18.21"), 0);
  /* a build suffix right after MAJOR.MINOR names no sublevel */
  ck_assert_int_eq (ns_kernel_release_cmp ("6.9-1", "6.9.0"), 0);
}
END_TEST

/* A kernel version is MAJOR.MINOR[...]; a part past 2^64 - 1 is refused rather than read
 * as 2^64 - 1 (strtoull saturates), which would order 6.18446744073709551625 equal to
 * 6.18446744073709551615; a part just at the limit is taken and ordered. */
START_TEST (test_kernel_version_range)
{
  static const char *const refused[] = { "6.18446744073709551616", "6.18446744073709551625",
                                         "18446744073709551616.1", "6", "x.1", "6 9.1",
                                         "6-9.1" };
  GError *error = NULL;

  ck_assert (ns_kernel_version_check ("6.9.0-rc1", NULL));
  ck_assert (ns_kernel_version_check ("6.18446744073709551615", NULL));
  ck_assert_int_lt (ns_kernel_version_cmp ("6.18446744073709551614",
                                           "6.18446744073709551615"), 0);
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++) {
    ck_assert_msg (!ns_kernel_version_check (refused[i], &error), "%s taken", refused[i]);
    ck_assert (g_error_matches (error, NS_ERROR, NS_ERROR_INPUT));
    ck_assert_msg (strstr (error->message, refused[i]) != NULL, "%s", error->message);
    g_clear_error (&error);
  }
}
END_TEST

START_TEST (test_errors)
{
  NsMitigations m;
  GError *err = NULL;

  ck_assert (!ns_mitigations_select (zen3, 2, "5.10", "", &m, &err));
  ck_assert (strstr (err->message, "5.10"));
  g_clear_error (&err);
  ck_assert (!ns_mitigations_select (zen3, 2, "6.9", "spectre_v2=bogus", &m, &err));
  ck_assert (strstr (err->message, "spectre_v2=bogus"));
  g_clear_error (&err);
  /* spectre_v2_parse_cmdline reads spectre_v2= and nospectre_v2 with cmdline_find_option
   * (arch/x86/lib/cmdline.c, v6.1 and v6.9: exact bytes, no parse_args): the spellings
   * only parameq()/next_arg() would take are refused, since the kernel would ignore them */
  {
    static const struct { const char *arg, *why; } inexact[] = {
      { "spectre-v2=off", "exact spelling" }, { "\"spectre_v2=off\"", "exact spelling" },
      { "spectre_v2=\"off\"", "exact spelling" }, { "nospectre-v2", "exact spelling" },
      { "\"nospectre_v2\"", "exact spelling" }, { "nospectre_v2=1", "takes no value" },
    };
    for (guint i = 0; i < G_N_ELEMENTS (inexact); i++) {
      ck_assert_msg (!ns_mitigations_select (zen3, 2, "6.9", inexact[i].arg, &m, &err),
                     "%s taken", inexact[i].arg);
      ck_assert_msg (strstr (err->message, inexact[i].why) != NULL, "%s", err->message);
      g_clear_error (&err);
    }
    ck_assert (ns_mitigations_select (zen3, 2, "6.9", "spectre_v2=off", &m, &err));
    ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_OFF);
    ns_mitigations_clear (&m);
    /* any byte up to ' ' ends a word (myisspace): a line break too */
    ck_assert (ns_mitigations_select (zen3, 2, "6.9", "nospectre_v2\nquiet", &m, &err));
    ck_assert_int_eq (m.spectre_v2, NS_SPECTRE_V2_OFF);
    ns_mitigations_clear (&m);
  }
  /* unknown keys are ignored, as the kernel does */
  ck_assert (ns_mitigations_select (zen3, 2, "6.9", "console=ttyS0 foo", &m, &err));
  ns_mitigations_clear (&m);
  /* a '"' that opens neither the argument nor its value stays in it (next_arg()) */
  ck_assert (!ns_mitigations_select (zen3, 2, "6.9", "mitigations=off\"", &m, &err));
  ck_assert_msg (strstr (err->message, "bad value in 'mitigations=off\"'"), "%s", err->message);
  g_clear_error (&err);
  /* a key that needs a value, without one; the error may be ignored (NULL) */
  ck_assert (!ns_mitigations_select (zen3, 2, "6.9", "mitigations", &m, &err));
  ck_assert_msg (strstr (err->message, "bad value in 'mitigations'"), "%s", err->message);
  g_clear_error (&err);
  ck_assert (!ns_mitigations_select (zen3, 2, "6.9", "pti=maybe", &m, NULL));
  /* accepted values set no error */
  ck_assert (ns_mitigations_select (zen3, 2, "6.9", "mitigations=auto pti=on nopti", &m, &err));
  ck_assert_ptr_null (err);
  ns_mitigations_clear (&m);
}
END_TEST

START_TEST (test_names_round_trip)
{
  for (int i = NS_SPECTRE_V2_OFF; i <= NS_SPECTRE_V2_LAST; i++) {
    NsSpectreV2 v;
    ck_assert (ns_spectre_v2_parse (ns_spectre_v2_name (i), &v));
    ck_assert_int_eq (v, i);
  }
  for (int i = NS_SRSO_OFF; i <= NS_SRSO_IBPB; i++) {
    NsSrso v;
    ck_assert (ns_srso_parse (ns_srso_name (i), &v));
    ck_assert_int_eq (v, i);
  }
  for (int i = NS_RETBLEED_OFF; i <= NS_RETBLEED_IBPB; i++) {
    NsRetbleed v;
    ck_assert (ns_retbleed_parse (ns_retbleed_name (i), &v));
    ck_assert_int_eq (v, i);
  }
  for (int i = NS_BHI_OFF; i <= NS_BHI_HW; i++) {
    NsBhi v;
    ck_assert (ns_bhi_parse (ns_bhi_name (i), &v));
    ck_assert_int_eq (v, i);
  }
  /* an unknown name is refused and leaves the output alone */
  {
    NsSpectreV2 sv = NS_SPECTRE_V2_EIBRS;
    NsRetbleed rb = NS_RETBLEED_STUFF;
    NsSrso so = NS_SRSO_IBPB;
    NsBhi bh = NS_BHI_HW;
    ck_assert (!ns_spectre_v2_parse ("bogus", &sv) && sv == NS_SPECTRE_V2_EIBRS);
    ck_assert (!ns_retbleed_parse ("bogus", &rb) && rb == NS_RETBLEED_STUFF);
    ck_assert (!ns_srso_parse ("bogus", &so) && so == NS_SRSO_IBPB);
    ck_assert (!ns_bhi_parse ("bogus", &bh) && bh == NS_BHI_HW);
  }
  ck_assert_int_lt (ns_kernel_version_cmp ("6.9.0-rc1", "6.10"), 0);
  ck_assert_int_eq (ns_kernel_version_cmp ("6.9.0-rc1", "6.9"), 0);
  ck_assert_int_gt (ns_kernel_version_cmp ("6.13", "6.9"), 0);
}
END_TEST

/* The value and mark the explanation of cmdline (on 6.9 with defaults[0]) gives
 * key, as the run table shows them ("value" then the mark), newly allocated. */
static char *
shown (NsMitigationDefault *defaults, const char *cmdline, const char *key)
{
  NsMitigations m;
  char *cell = NULL;

  select_69 (defaults, cmdline, &m);
  for (guint i = 0; cell == NULL && m.explain[i]; i++) {
    const char *mark = "?";
    g_autofree char *value = ns_mitigation_explain_value (m.explain[i], key, &mark);
    if (value != NULL)
      cell = g_strconcat (value, mark, NULL);
  }
  ns_mitigations_clear (&m);
  return cell;
}

/* Each explanation line gives its own key's value (a key that is another's prefix is not
 * it) and how the value came about; the summary is the key=value parts in order. */
START_TEST (test_explanation_read_back)
{
  const struct { NsMitigationDefault *cpu; const char *cmdline, *key, *cell; } cases[] = {
    { &zen3_listed[1], "", "spectre_v2", "retpoline" },
    { &zen3_listed[1], "spectre_v2=off", "spectre_v2", "off*" },
    { &zen3_listed[1], "nospectre_v2", "spectre_v2", "off*" },
    { &zen3_listed[1], "retbleed=unret", "retbleed", "off!" },
    { &zen3_listed[1], "spec_rstack_overflow=off", "spec_rstack_overflow", "off*" },
    { amd_retpoline, "spectre_v2=ibrs", "spectre_v2", "retpoline~" },
    { &zen3_listed[1], "mds=full", "mds", "off!" },
  };
  NsMitigations m;
  g_autofree char *summary = NULL;
  const char *mark = "untouched";

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    g_autofree char *cell = shown (cases[i].cpu, cases[i].cmdline, cases[i].key);
    ck_assert_msg (g_strcmp0 (cell, cases[i].cell) == 0, "%s: %s is %s, not %s",
                   cases[i].cmdline, cases[i].key, cell, cases[i].cell);
  }
  ck_assert_ptr_null (ns_mitigation_explain_value ("spectre_v2=off: x", "spectre", &mark));
  ck_assert_ptr_null (ns_mitigation_explain_value ("pti=on: x", "spectre_v2", &mark));
  ck_assert_str_eq (mark, "untouched");
  select_69 (&zen3_listed[1], "", &m);
  summary = ns_mitigations_summary (m.explain);
  ck_assert_str_eq (summary, "spectre_v2=retpoline retbleed=off spec_rstack_overflow=safe-ret "
                    "pti=off mds=off bhi=off");
  ns_mitigations_clear (&m);
}
END_TEST

/* A Zen 2-like part: retbleed-affected (untrained return by default), SRSO Safe RET. */
static NsMitigationDefault zen2[] = {
  { "6.1", "6.99", NS_SPECTRE_V2_RETPOLINE, NS_RETBLEED_UNRET, NS_SRSO_SAFE_RET, FALSE, FALSE,
    NS_BHI_OFF, "test: Zen 2", 1, NS_BUG_MDS | NS_BUG_BHI, NS_CPU_AMD },
};

/* The cell ("value" then mark, as the run table shows it) and the explanation line of key
 * that cmdline gives on kernel with defaults[0] on a build compiling in the NsBuilt bits
 * stated (closed under their dependencies); both newly allocated. */
static char *
shown_built (NsMitigationDefault *defaults, const char *kernel, const char *cmdline,
             guint stated, const char *key, char **line)
{
  NsMitigations m;
  GError *error = NULL;
  char *cell = NULL;

  ck_assert_msg (ns_mitigations_select_built (defaults, 1, kernel, cmdline,
                                              ns_mitigation_built_closure (stated), &m,
                                              &error), "%s: %s", cmdline,
                 error ? error->message : "?");
  for (guint i = 0; cell == NULL && m.explain[i]; i++) {
    const char *mark = "?";
    g_autofree char *value = ns_mitigation_explain_value (m.explain[i], key, &mark);
    if (value == NULL)
      continue;
    cell = g_strconcat (value, mark, NULL);
    if (line != NULL)
      *line = g_strdup (m.explain[i]);
  }
  ns_mitigations_clear (&m);
  return cell;
}

/* Asserts that cmdline on kernel with defaults[0], on a build of the NsBuilt bits stated,
 * shows key as cell, and (unless NULL) that key's line says because. */
static void
assert_built (NsMitigationDefault *defaults, const char *kernel, const char *cmdline,
              guint stated, const char *key, const char *cell, const char *because)
{
  g_autofree char *line = NULL;
  g_autofree char *got = shown_built (defaults, kernel, cmdline, stated, key, &line);

  ck_assert_msg (g_strcmp0 (got, cell) == 0, "%s '%s' (built %#x): %s is %s, not %s", kernel,
                 cmdline, stated, key, got, cell);
  ck_assert_msg (because == NULL || strstr (line, because) != NULL, "%s '%s': %s lacks '%s'",
                 kernel, cmdline, line, because);
}

/* TRUE if the reason shown for spectre_v2 (kernel, cmdline, build stated) holds text. */
static gboolean
shown_reason_has (NsMitigationDefault *defaults, const char *kernel, const char *cmdline,
                  guint stated, const char *text)
{
  g_autofree char *line = NULL;
  g_autofree char *got = shown_built (defaults, kernel, cmdline, stated, "spectre_v2", &line);

  return strstr (line, text) != NULL;
}

/* The mitigation options of arch/x86/Kconfig under each version's names (renamed
 * CONFIG_MITIGATION_* for v6.9-rc1; call depth tracking only from 6.2), found by either
 * name, and closed under "depends on": without RETPOLINE no RETHUNK, and without RETHUNK
 * no untrained return, SRSO Safe RET or call depth tracking; IBPB and IBRS on entry stand
 * alone. */
START_TEST (test_mitigation_options)
{
  guint all_but = NS_BUILT_ALL & ~NS_BUILT_RETPOLINE;
  guint menu_alone = NS_BUILT_CPU_MITIGATIONS | NS_BUILT_PAGE_TABLE_ISOLATION |
                     NS_BUILT_SPECTRE_BHI;   /* what depends on the menu only */

  ck_assert_str_eq (ns_mitigation_option (NS_BUILT_SRSO, "6.8"), "CONFIG_CPU_SRSO");
  ck_assert_str_eq (ns_mitigation_option (NS_BUILT_SRSO, "6.9.0-rc1"), "CONFIG_MITIGATION_SRSO");
  ck_assert_str_eq (ns_mitigation_option (NS_BUILT_RETHUNK, "6.1"), "CONFIG_RETHUNK");
  ck_assert_str_eq (ns_mitigation_option (NS_BUILT_UNRET_ENTRY, "6.6"),
                    "CONFIG_CPU_UNRET_ENTRY");
  ck_assert_str_eq (ns_mitigation_option (NS_BUILT_IBRS_ENTRY, "6.12"),
                    "CONFIG_MITIGATION_IBRS_ENTRY");
  ck_assert_str_eq (ns_mitigation_option (NS_BUILT_CALL_DEPTH_TRACKING, "6.2"),
                    "CONFIG_CALL_DEPTH_TRACKING");
  ck_assert_ptr_null (ns_mitigation_option (NS_BUILT_CALL_DEPTH_TRACKING, "6.1"));
  ck_assert_int_eq (ns_mitigation_option_lookup ("CONFIG_CPU_IBPB_ENTRY"), NS_BUILT_IBPB_ENTRY);
  ck_assert_int_eq (ns_mitigation_option_lookup ("CONFIG_MITIGATION_IBPB_ENTRY"),
                    NS_BUILT_IBPB_ENTRY);
  ck_assert_int_eq (ns_mitigation_option_lookup ("CONFIG_MITIGATION_SLS"), 0);
  ck_assert_uint_eq (ns_mitigation_built_closure (NS_BUILT_ALL), NS_BUILT_ALL);
  ck_assert_uint_eq (ns_mitigation_built_closure (all_but),
                     NS_BUILT_IBPB_ENTRY | NS_BUILT_IBRS_ENTRY | menu_alone);
  ck_assert_uint_eq (ns_mitigation_built_closure (NS_BUILT_ALL & ~NS_BUILT_RETHUNK),
                     NS_BUILT_RETPOLINE | NS_BUILT_IBPB_ENTRY | NS_BUILT_IBRS_ENTRY |
                     menu_alone);
  /* the mitigations menu holds them all */
  ck_assert_uint_eq (ns_mitigation_built_closure (NS_BUILT_ALL & ~NS_BUILT_CPU_MITIGATIONS), 0);
  ck_assert_str_eq (ns_mitigation_option (NS_BUILT_CPU_MITIGATIONS, "6.9.0-rc4"),
                    "CONFIG_SPECULATION_MITIGATIONS");
  ck_assert_str_eq (ns_mitigation_option (NS_BUILT_CPU_MITIGATIONS, "6.9"),
                    "CONFIG_CPU_MITIGATIONS");
  ck_assert_ptr_null (ns_mitigation_option (NS_BUILT_CPU_MITIGATIONS, "5.18"));
  ck_assert_str_eq (ns_mitigation_option (NS_BUILT_PAGE_TABLE_ISOLATION, "6.8"),
                    "CONFIG_PAGE_TABLE_ISOLATION");
  ck_assert_str_eq (ns_mitigation_option (NS_BUILT_PAGE_TABLE_ISOLATION, "6.9"),
                    "CONFIG_MITIGATION_PAGE_TABLE_ISOLATION");
  /* the BHI backports to 6.1.y/6.6.y/6.8.y kept mainline's name */
  ck_assert_str_eq (ns_mitigation_option (NS_BUILT_SPECTRE_BHI, "6.6.26"),
                    "CONFIG_MITIGATION_SPECTRE_BHI");
  ck_assert_ptr_null (ns_mitigation_option_renamed (NS_BUILT_SPECTRE_BHI));
  ck_assert_int_eq (ns_mitigation_option_lookup ("CONFIG_SPECULATION_MITIGATIONS"),
                    NS_BUILT_CPU_MITIGATIONS);
}
END_TEST

/* An option exists from the release that took the change bringing it (sim/kchange.c): the
 * Retbleed series' menu and entry options (f43b9876e857: 5.19-rc7, 5.18.14, 5.15.57,
 * 5.10.133), SRSO's (fb3bd914b3ec: 6.5-rc6, 6.1.44), BHI's (the native BHI series: 6.9-rc4,
 * 6.1.85); retpolines always. */
START_TEST (test_options_by_release)
{
  static const struct {
    NsBuilt     option;
    const char *without, *with, *name;
  } cases[] = {
    { NS_BUILT_RETHUNK, "5.19.0-rc6", "5.19.0-rc7", "CONFIG_RETHUNK" },
    { NS_BUILT_RETHUNK, "5.15.56", "5.15.57", "CONFIG_RETHUNK" },
    { NS_BUILT_UNRET_ENTRY, "5.10.132", "5.10.133", "CONFIG_CPU_UNRET_ENTRY" },
    { NS_BUILT_IBPB_ENTRY, "5.18.13", "5.18.14", "CONFIG_CPU_IBPB_ENTRY" },
    { NS_BUILT_IBRS_ENTRY, "5.19.0-rc6", "5.19.0-rc7", "CONFIG_CPU_IBRS_ENTRY" },
    { NS_BUILT_SRSO, "6.5.0-rc5", "6.5.0-rc6", "CONFIG_CPU_SRSO" },
    { NS_BUILT_SRSO, "6.1.43", "6.1.44", "CONFIG_CPU_SRSO" },
    { NS_BUILT_SPECTRE_BHI, "6.9.0-rc3", "6.9.0-rc4", "CONFIG_MITIGATION_SPECTRE_BHI" },
    { NS_BUILT_SPECTRE_BHI, "6.1.84", "6.1.85", "CONFIG_MITIGATION_SPECTRE_BHI" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    const char *with = ns_mitigation_option (cases[i].option, cases[i].with);

    ck_assert_msg (ns_mitigation_option (cases[i].option, cases[i].without) == NULL,
                   "%s: %s has it", cases[i].name, cases[i].without);
    ck_assert_msg (with != NULL && !strcmp (with, cases[i].name), "%s: %s names it %s",
                   cases[i].name, cases[i].with, with ? with : "(none)");
  }
  ck_assert_str_eq (ns_mitigation_option (NS_BUILT_RETPOLINE, "5.4"), "CONFIG_RETPOLINE");
  ck_assert_str_eq (ns_mitigation_option (NS_BUILT_PAGE_TABLE_ISOLATION, "4.19"),
                    "CONFIG_PAGE_TABLE_ISOLATION");
}
END_TEST

/* SRSO compiled out (or RETHUNK, which it depends on): srso_select_mitigation() warns and
 * leaves SRSO unmitigated, so Safe RET is off, marked as the kernel's choice with the
 * option named as that kernel names it; likewise spec_rstack_overflow=ibpb without IBPB
 * on entry. With mitigations=off nothing was selected: no mark. */
START_TEST (test_srso_not_built)
{
  assert_built (&zen3[1], "6.9", "", NS_BUILT_ALL & ~NS_BUILT_SRSO, "spec_rstack_overflow",
                "off~", NS_MITIGATION_KERNEL_CHOSE "off, as CONFIG_MITIGATION_SRSO=n");
  assert_built (&zen3[1], "6.8", "", NS_BUILT_ALL & ~NS_BUILT_RETHUNK, "spec_rstack_overflow",
                "off~", "CONFIG_CPU_SRSO is not built: it depends on CONFIG_RETHUNK, =n");
  assert_built (&zen3[1], "6.9", "spec_rstack_overflow=ibpb", NS_BUILT_ALL & ~NS_BUILT_IBPB_ENTRY,
                "spec_rstack_overflow", "off~", "CONFIG_MITIGATION_IBPB_ENTRY=n");
  assert_built (&zen3[1], "6.9", "spec_rstack_overflow=ibpb", NS_BUILT_ALL & ~NS_BUILT_SRSO,
                "spec_rstack_overflow", "ibpb*", NULL);
  assert_built (&zen3[1], "6.9", "mitigations=off", NS_BUILT_ALL & ~NS_BUILT_SRSO,
                "spec_rstack_overflow", "off*", NULL);
  assert_built (&zen3[1], "6.9", "", NS_BUILT_ALL, "spec_rstack_overflow", "safe-ret", NULL);
}
END_TEST

/* RETPOLINE compiled out: the default's spectre_v2_select_retpoline() gives none; an asked
 * retpoline mode is switched to auto, which is eIBRS on an eIBRS part, kernel IBRS on a
 * retbleed-affected Intel part without it (unless retbleed=off, then the retpoline that
 * is not there: none), none on AMD. SRSO goes with it (RETHUNK depends on RETPOLINE). */
START_TEST (test_retpoline_not_built)
{
  guint no_rp = NS_BUILT_ALL & ~NS_BUILT_RETPOLINE;

  assert_built (&zen3[1], "6.9", "", no_rp, "spectre_v2", "off~",
                "CONFIG_MITIGATION_RETPOLINE=n: spectre_v2_select_retpoline() finds no "
                "retpoline");
  assert_built (&zen3[1], "6.9", "", no_rp, "spec_rstack_overflow", "off~",
                "it depends on CONFIG_MITIGATION_RETPOLINE, =n");
  assert_built (amd_retpoline, "6.8", "spectre_v2=retpoline", no_rp, "spectre_v2", "off~",
                "kernel command line: spectre_v2=retpoline; " NS_MITIGATION_KERNEL_CHOSE
                "off, as CONFIG_RETPOLINE=n: spectre_v2_parse_cmdline() switches a mode");
  assert_built (amd_retpoline, "6.9", "spectre_v2=retpoline,lfence", no_rp, "spectre_v2",
                "off~", NULL);
  assert_built (intel_eibrs, "6.9", "spectre_v2=retpoline", no_rp, "spectre_v2", "eibrs~",
                "whose choice on this build is eibrs");
  assert_built (intel_ibrs, "6.9", "spectre_v2=retpoline", no_rp, "spectre_v2", "ibrs~", NULL);
  /* the eIBRS modes with thunks need the thunks too: auto, eIBRS on an eIBRS part */
  assert_built (intel_eibrs, "6.9", "spectre_v2=eibrs,retpoline", no_rp, "spectre_v2", "eibrs~",
                "CONFIG_MITIGATION_RETPOLINE=n: spectre_v2_parse_cmdline() switches a mode");
  assert_built (intel_eibrs, "6.1", "spectre_v2=eibrs,lfence", no_rp, "spectre_v2", "eibrs~",
                "CONFIG_RETPOLINE=n");
  assert_built (intel_eibrs, "6.9", "spectre_v2=eibrs,lfence", NS_BUILT_ALL, "spectre_v2",
                "eibrs,lfence*", NULL);
  /* ... tested before the CPU's eIBRS: on a CPU without it the reason is the build's */
  assert_built (intel_meltdown_since_415, "6.1", "spectre_v2=eibrs,retpoline", no_rp, "spectre_v2",
                "off~", "kernel command line: spectre_v2=eibrs,retpoline; "
                NS_MITIGATION_KERNEL_CHOSE "off, as CONFIG_RETPOLINE=n: "
                "spectre_v2_parse_cmdline() switches a mode the build lacks to auto");
  ck_assert (!shown_reason_has (intel_meltdown_since_415, "6.1", "spectre_v2=eibrs,retpoline", no_rp,
                                "the CPU has no eIBRS"));
  assert_built (intel_ibrs, "6.9", "spectre_v2=retpoline retbleed=off", no_rp, "spectre_v2",
                "off~", NULL);
  assert_built (intel_ibrs, "6.9", "", no_rp, "spectre_v2", "ibrs", NULL);
  assert_built (&zen3[1], "6.9", "spectre_v2=off", no_rp, "spectre_v2", "off*", NULL);
}
END_TEST

/* IBRS_ENTRY compiled out: spectre_v2=ibrs is switched to auto (eIBRS on an eIBRS part),
 * and the auto choice of a part without eIBRS skips kernel IBRS for a generic retpoline
 * (none without RETPOLINE either), which on Intel leaves retbleed unmitigated. */
START_TEST (test_ibrs_entry_not_built)
{
  guint no_ibrs = NS_BUILT_ALL & ~NS_BUILT_IBRS_ENTRY;

  assert_built (intel_eibrs, "6.9", "spectre_v2=ibrs", no_ibrs, "spectre_v2", "eibrs~",
                "CONFIG_MITIGATION_IBRS_ENTRY=n");
  /* the build is tested before the vendor: on AMD the reason is the build's */
  assert_built (amd_retpoline, "6.9", "spectre_v2=ibrs", no_ibrs, "spectre_v2", "retpoline~",
                "kernel command line: spectre_v2=ibrs; " NS_MITIGATION_KERNEL_CHOSE
                "retpoline, as CONFIG_MITIGATION_IBRS_ENTRY=n: spectre_v2_parse_cmdline()");
  ck_assert (!shown_reason_has (amd_retpoline, "6.9", "spectre_v2=ibrs", no_ibrs,
                                "legacy IBRS (Intel only)"));
  assert_built (intel_ibrs, "6.1", "", no_ibrs, "spectre_v2", "retpoline~",
                "CONFIG_CPU_IBRS_ENTRY=n: the auto choice takes kernel IBRS only when");
  assert_built (intel_ibrs, "6.1", "", no_ibrs, "retbleed", "off~", NULL);
  assert_built (intel_ibrs, "6.9", "", no_ibrs & ~NS_BUILT_RETPOLINE, "spectre_v2", "off~",
                NULL);
  assert_built (intel_ibrs, "6.9", "", NS_BUILT_ALL, "spectre_v2", "ibrs", NULL);
}
END_TEST

/* retbleed modes compiled out: retbleed_select_mitigation() warns and takes its auto
 * choice — on AMD the untrained return if UNRET_ENTRY is built, else IBPB on entry if
 * IBPB_ENTRY is, else none; on Intel the spectre_v2 mode's; retbleed=stuff without call
 * depth tracking likewise. */
START_TEST (test_retbleed_entry_not_built)
{
  assert_built (zen2, "6.9", "", NS_BUILT_ALL & ~NS_BUILT_UNRET_ENTRY, "retbleed", "ibpb~",
                "CONFIG_MITIGATION_UNRET_ENTRY=n");
  assert_built (zen2, "6.9", "", NS_BUILT_ALL & ~NS_BUILT_UNRET_ENTRY & ~NS_BUILT_IBPB_ENTRY,
                "retbleed", "off~", NULL);
  assert_built (zen2, "6.9", "retbleed=ibpb", NS_BUILT_ALL & ~NS_BUILT_IBPB_ENTRY, "retbleed",
                "unret~", "kernel command line: retbleed=ibpb; " NS_MITIGATION_KERNEL_CHOSE
                "unret, as CONFIG_MITIGATION_IBPB_ENTRY=n");
  assert_built (zen2, "6.9", "retbleed=unret", NS_BUILT_ALL & ~NS_BUILT_RETHUNK, "retbleed",
                "ibpb~", "CONFIG_MITIGATION_UNRET_ENTRY is not built: it depends on "
                "CONFIG_MITIGATION_RETHUNK, =n");
  assert_built (intel_eibrs, "6.1", "retbleed=unret", NS_BUILT_ALL & ~NS_BUILT_UNRET_ENTRY,
                "retbleed", "eibrs~", "CONFIG_CPU_UNRET_ENTRY=n");
  assert_built (intel_eibrs, "6.9", "retbleed=ibpb", NS_BUILT_ALL & ~NS_BUILT_IBPB_ENTRY,
                "retbleed", "eibrs~", NULL);
  assert_built (intel_eibrs, "6.6", "spectre_v2=retpoline retbleed=stuff",
                NS_BUILT_ALL & ~NS_BUILT_CALL_DEPTH_TRACKING, "retbleed", "off~",
                "CONFIG_CALL_DEPTH_TRACKING=n");
  assert_built (intel_eibrs, "6.6", "spectre_v2=retpoline retbleed=stuff", NS_BUILT_ALL,
                "retbleed", "stuff*", NULL);
  assert_built (zen2, "6.9", "", NS_BUILT_ALL, "retbleed", "unret", NULL);
}
END_TEST

/* MITIGATION_SPECTRE_BHI=n (4f511739c54b, v6.9-rc4) makes the BHI mitigation's default
 * off: neither the loop nor BHI_DIS_S is selected (the kernel's choice, the option named),
 * while spectre_bhi=on still turns it on. */
START_TEST (test_spectre_bhi_not_built)
{
  guint no_bhi = NS_BUILT_ALL & ~NS_BUILT_SPECTRE_BHI;

  assert_built (intel_eibrs, "6.9", "", no_bhi, "bhi", "off~",
                NS_MITIGATION_KERNEL_CHOSE "off, as CONFIG_MITIGATION_SPECTRE_BHI=n: the BHI "
                "mitigation then defaults to off");
  assert_built (intel_bhi_ctrl, "6.9", "", no_bhi, "bhi", "off~", NULL);
  assert_built (intel_eibrs, "6.9", "spectre_bhi=on", no_bhi, "bhi", "loop*", NULL);
  assert_built (intel_bhi_ctrl, "6.9", "spectre_bhi=on", no_bhi, "bhi", "hw~", NULL);
  assert_built (intel_eibrs, "6.9", "", NS_BUILT_ALL, "bhi", "loop", NULL);
}
END_TEST

/* PAGE_TABLE_ISOLATION=n (MITIGATION_PAGE_TABLE_ISOLATION from 6.9): no PTI, whether the
 * profile's default or pti=on asks for it. */
START_TEST (test_pti_not_built)
{
  guint no_pti = NS_BUILT_ALL & ~NS_BUILT_PAGE_TABLE_ISOLATION;

  assert_built (intel_meltdown_since_415, "6.1", "", no_pti, "pti", "off~",
                NS_MITIGATION_KERNEL_CHOSE "off, as CONFIG_PAGE_TABLE_ISOLATION=n");
  assert_built (intel_meltdown_since_415, "6.9", "pti=on", no_pti, "pti", "off~",
                "kernel command line: pti=on; " NS_MITIGATION_KERNEL_CHOSE "off, as "
                "CONFIG_MITIGATION_PAGE_TABLE_ISOLATION=n");
  assert_built (intel_meltdown_since_415, "6.9", "nopti", no_pti, "pti", "off*", NULL);
  assert_built (intel_meltdown_since_415, "6.9", "", NS_BUILT_ALL, "pti", "on", NULL);
}
END_TEST

/* The mitigations menu =n: before 6.9-rc4 it takes its options away and nothing else
 * (eIBRS and VERW need none; PTI and the retpoline go); from 6.9-rc4 (f337a6a21e2f)
 * cpu_mitigations defaults to off, which mitigations=auto turns on again in 6.9-rc4 only:
 * from 6.9-rc6 (ce0abef6a1d5, CONFIG_CPU_MITIGATIONS) the kernel ignores mitigations=, and
 * no per-key value turns on what cpu_mitigations_off() turns off. */
START_TEST (test_cpu_mitigations_not_built)
{
  guint no_menu = NS_BUILT_ALL & ~NS_BUILT_CPU_MITIGATIONS;

  assert_built (intel_eibrs, "6.8", "", no_menu, "spectre_v2", "eibrs", NULL);
  assert_built (intel_meltdown_since_415, "6.8", "", no_menu, "mds", "verw", NULL);
  assert_built (intel_meltdown_since_415, "6.8", "", no_menu, "spectre_v2", "off~", NULL);
  assert_built (intel_meltdown_since_415, "6.8", "", no_menu, "pti", "off~",
                "CONFIG_PAGE_TABLE_ISOLATION is not built: it depends on "
                "CONFIG_SPECULATION_MITIGATIONS, =n");
  assert_built (intel_meltdown_since_415, "6.9.0-rc4", "", no_menu, "mds", "off~",
                NS_MITIGATION_KERNEL_CHOSE "off, as CONFIG_SPECULATION_MITIGATIONS=n: "
                "cpu_mitigations then defaults to off");
  assert_built (intel_meltdown_since_415, "6.9.0-rc4", "mitigations=auto", no_menu, "mds",
                "verw", NULL);
  assert_built (intel_eibrs, "6.9.0-rc4", "mitigations=auto", no_menu, "spectre_v2", "eibrs",
                NULL);
  assert_built (intel_eibrs, "6.9", "mitigations=auto", no_menu, "spectre_v2", "off~",
                "CONFIG_CPU_MITIGATIONS=n: cpu_mitigations then defaults to off");
  assert_built (intel_eibrs, "6.9", "mitigations=auto", no_menu, "spectre_v2", "off~",
                "the kernel ignores mitigations= on such a build");
  assert_built (intel_eibrs, "6.9", "spectre_v2=eibrs", no_menu, "spectre_v2", "off~", NULL);
  assert_built (intel_eibrs, "6.9", "spectre_bhi=on", no_menu, "bhi", "off~", NULL);
  assert_built (intel_meltdown_since_415, "6.12", "mitigations=auto,nosmt mds=full,nosmt",
                no_menu, "mds", "off~", NULL);
  assert_built (intel_eibrs, "6.9", "", NS_BUILT_ALL, "spectre_v2", "eibrs", NULL);
  /* each mode that was on gives the build as its reason */
  assert_built (zen2, "6.9", "", no_menu, "retbleed", "off~",
                "CONFIG_CPU_MITIGATIONS=n: cpu_mitigations then defaults to off");
  assert_built (zen2, "6.9", "", no_menu, "spec_rstack_overflow", "off~",
                "CONFIG_CPU_MITIGATIONS=n: cpu_mitigations then defaults to off");
}
END_TEST

/* The menu's switches at their releases (the registry): f337a6a21e2f's default off from
 * 6.9-rc4 and 6.1.87, 6.6.28, 6.8.7; ce0abef6a1d5 ignoring mitigations= from 6.9-rc6 (not
 * rc5) and 6.8.12, 6.6.33, never 6.1.y; fe42754b94a4's CONFIG_CPU_MITIGATIONS name from
 * 6.9-rc6 and 6.8.9, 6.6.30, 6.1.90. */
START_TEST (test_cpu_mitigations_switches_by_release)
{
  guint no_menu = NS_BUILT_ALL & ~NS_BUILT_CPU_MITIGATIONS;

  assert_built (intel_meltdown_since_415, "6.1.86", "", no_menu, "mds", "verw", NULL);
  assert_built (intel_meltdown_since_415, "6.1.87", "", no_menu, "mds", "off~",
                "CONFIG_SPECULATION_MITIGATIONS=n: cpu_mitigations then defaults to off");
  assert_built (intel_meltdown_since_415, "6.1.90", "", no_menu, "mds", "off~",
                "CONFIG_CPU_MITIGATIONS=n: cpu_mitigations then defaults to off");
  assert_built (intel_meltdown_since_415, "6.1.176", "mitigations=auto", no_menu, "mds",
                "verw", NULL);
  assert_built (intel_meltdown_since_415, "6.9.0-rc5", "mitigations=auto", no_menu, "mds",
                "verw", NULL);
  assert_built (intel_meltdown_since_415, "6.9.0-rc6", "mitigations=auto", no_menu, "mds",
                "off~", "the kernel ignores mitigations= on such a build");
  assert_built (intel_meltdown_since_415, "6.6.32", "mitigations=auto", no_menu, "mds",
                "verw", NULL);
  assert_built (intel_meltdown_since_415, "6.6.33", "mitigations=auto", no_menu, "mds",
                "off~", "the kernel ignores mitigations= on such a build");
  ck_assert_str_eq (ns_mitigation_option (NS_BUILT_CPU_MITIGATIONS, "6.1.89"),
                    "CONFIG_SPECULATION_MITIGATIONS");
  ck_assert_str_eq (ns_mitigation_option (NS_BUILT_CPU_MITIGATIONS, "6.1.90"),
                    "CONFIG_CPU_MITIGATIONS");
  ck_assert_str_eq (ns_mitigation_option (NS_BUILT_CPU_MITIGATIONS, "6.9.0-rc5"),
                    "CONFIG_SPECULATION_MITIGATIONS");
  /* the menu itself came with the Retbleed series (f43b9876e857): 5.15.57 and 5.10.133
   * have it, so their f337a6a21e2f (5.15.156, 5.10.216) turns everything off; 5.15.56
   * has no menu to set */
  ck_assert_ptr_null (ns_mitigation_option (NS_BUILT_CPU_MITIGATIONS, "5.15.56"));
  ck_assert_ptr_null (ns_mitigation_option (NS_BUILT_CPU_MITIGATIONS, "5.19.0-rc6"));
  ck_assert_str_eq (ns_mitigation_option (NS_BUILT_CPU_MITIGATIONS, "5.15.57"),
                    "CONFIG_SPECULATION_MITIGATIONS");
  ck_assert_str_eq (ns_mitigation_option (NS_BUILT_CPU_MITIGATIONS, "5.15.158"),
                    "CONFIG_CPU_MITIGATIONS");
  assert_built (intel_meltdown_since_415, "5.15.155", "", no_menu, "mds", "verw", NULL);
  assert_built (intel_meltdown_since_415, "5.15.156", "", no_menu, "mds", "off~",
                "CONFIG_SPECULATION_MITIGATIONS=n: cpu_mitigations then defaults to off");
  assert_built (intel_meltdown_since_415, "5.10.216", "", no_menu, "mds", "off~",
                "CONFIG_CPU_MITIGATIONS=n: cpu_mitigations then defaults to off");
  /* the other options' renames are v6.9-rc1's and no stable's */
  ck_assert_str_eq (ns_mitigation_option (NS_BUILT_RETPOLINE, "6.9.0-rc1"),
                    "CONFIG_MITIGATION_RETPOLINE");
  ck_assert_str_eq (ns_mitigation_option (NS_BUILT_RETPOLINE, "6.8.12"), "CONFIG_RETPOLINE");
}
END_TEST

/* c62fa117c32b (SRSO's IBPB on entry drops the untrained return) at its releases:
 * v6.12-rc4, and 6.11.5, 6.6.58, 6.1.114; no 6.10.y took it. retbleed=stuff is
 * v6.2-rc1's, spectre_bhi=vmexit v6.11-rc1's. */
START_TEST (test_switches_at_their_releases)
{
  static const struct { const char *kernel; NsRetbleed retbleed; } unret[] = {
    { "6.12.0-rc3", NS_RETBLEED_UNRET }, { "6.12.0-rc4", NS_RETBLEED_OFF },
    { "6.11.4", NS_RETBLEED_UNRET }, { "6.11.5", NS_RETBLEED_OFF },
    { "6.6.58", NS_RETBLEED_OFF }, { "6.1.113", NS_RETBLEED_UNRET },
    { "6.1.114", NS_RETBLEED_OFF }, { "6.10.14", NS_RETBLEED_UNRET },
  };

  for (guint i = 0; i < G_N_ELEMENTS (unret); i++)
    ck_assert_msg (chosen_on (amd_retpoline, unret[i].kernel,
                              "retbleed=unret spec_rstack_overflow=ibpb").retbleed ==
                   unret[i].retbleed, "%s", unret[i].kernel);
  ck_assert_int_eq (chosen_on (intel_eibrs, "6.2.0-rc1",
                               "spectre_v2=retpoline retbleed=stuff").retbleed,
                    NS_RETBLEED_STUFF);
  ck_assert_int_ne (chosen_on (intel_eibrs, "6.1.176",
                               "spectre_v2=retpoline retbleed=stuff").retbleed,
                    NS_RETBLEED_STUFF);
  ck_assert_int_eq (chosen_on (intel_eibrs, "6.11.0-rc1", "spectre_bhi=vmexit").bhi,
                    NS_BHI_OFF);
  ck_assert_int_eq (chosen_on (intel_eibrs, "6.10.14", "spectre_bhi=vmexit").bhi,
                    NS_BHI_LOOP);
}
END_TEST

/* A CPU no kernel mitigates by default and that names no vendor (the generic profile's). */
static NsMitigationDefault unnamed_unmitigated[] = {
  { "6.1", "6.99", NS_SPECTRE_V2_OFF, NS_RETBLEED_OFF, NS_SRSO_OFF, FALSE, FALSE,
    NS_BHI_OFF, "test: unnamed, unmitigated", 1, 0, 0 },
};

/* spectre_v2_select_mitigation() (6.9-6.14) returns before bhi_select_mitigation() only for
 * the command none (spectre_v2=off, nospectre_v2, mitigations=off): a retpoline asked on a
 * build without it is switched to auto, whose choice none still selects BHI, and so does
 * an auto choice of none. */
START_TEST (test_bhi_selected_when_auto_chooses_none)
{
  guint no_rp = NS_BUILT_ALL & ~NS_BUILT_RETPOLINE;

  assert_built (&zen3[1], "6.9", "spectre_v2=retpoline spectre_bhi=on", no_rp, "spectre_v2",
                "off~", NULL);
  assert_built (&zen3[1], "6.9", "spectre_v2=retpoline spectre_bhi=on", no_rp, "bhi",
                "loop*", NULL);
  assert_built (unnamed_unmitigated, "6.9", "spectre_bhi=on", NS_BUILT_ALL, "bhi", "loop*",
                NULL);
  assert_built (unnamed_unmitigated, "6.9", "spectre_v2=off spectre_bhi=on", NS_BUILT_ALL,
                "bhi", "off~", "spectre_v2_select_mitigation() returns before "
                "bhi_select_mitigation()");
  assert_built (unnamed_unmitigated, "6.9", "spectre_bhi=on nospectre_v2", NS_BUILT_ALL,
                "bhi", "off~", NULL);
  assert_built (unnamed_unmitigated, "6.9", "spectre_bhi=on mitigations=off", NS_BUILT_ALL,
                "bhi", "off*", NULL);
}
END_TEST

/* The mitigations in force carry the CPU's features (its vendor, BHI_DIS_S) as the
 * kernel saw them, whatever the command line turns off: the models' own vendor rules
 * (memset's FSRS on AMD) read them there. */
START_TEST (test_cpu_features_carried)
{
  ck_assert_uint_eq (chosen_69 (amd_every_bug_since_44, "").cpu_features, NS_CPU_AMD);
  ck_assert_uint_eq (chosen_69 (amd_every_bug_since_44, "mitigations=off").cpu_features,
                     NS_CPU_AMD);
  ck_assert_uint_eq (chosen_69 (intel_bhi_ctrl, "").cpu_features,
                     NS_CPU_INTEL | NS_CPU_BHI_CTRL);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("mitigation");
  TCase *tc = tcase_create ("select");
  SRunner *sr;
  int failed;

  tcase_add_test (tc, test_default_by_kernel_version);
  tcase_add_test (tc, test_kernel_version_range);
  tcase_add_test (tc, test_kernel_release_cmp);
  tcase_add_test (tc, test_key_newer_than_kernel_noted);
  tcase_add_test (tc, test_key_of_no_backport_ignored);
  tcase_add_test (tc, test_backported_defaults);
  tcase_add_test (tc, test_value_newer_than_kernel_noted);
  tcase_add_test (tc, test_spectre_bhi_vmexit);
  tcase_add_test (tc, test_dashes_end_kernel_args);
  tcase_add_test (tc, test_quotes_group_words);
  tcase_add_test (tc, test_pti_exact_spelling_before_67);
  tcase_add_test (tc, test_bhi_series_releases);
  tcase_add_test (tc, test_backported_amd_generic_retpoline);
  tcase_add_test (tc, test_series_keys_at_their_rc);
  tcase_add_test (tc, test_switches_at_their_releases);
  tcase_add_test (tc, test_kernel_ranges_with_release_candidates);
  tcase_add_test (tc, test_mitigations_off);
  tcase_add_test (tc, test_per_key_overrides_left_to_right);
  tcase_add_test (tc, test_off_switches_win);
  tcase_add_test (tc, test_unaffected_bugs_ignore_their_keys);
  tcase_add_test (tc, test_bug_names);
  tcase_add_test (tc, test_spectre_v2_falls_back);
  tcase_add_test (tc, test_bhi_follows_spectre_v2);
  tcase_add_test (tc, test_eibrs_with_thunks);
  tcase_add_test (tc, test_eibrs_with_thunks_before_517);
  tcase_add_test (tc, test_retbleed_values);
  tcase_add_test (tc, test_nosmt);
  tcase_add_test (tc, test_kernel_spellings);
  tcase_add_test (tc, test_unread_words);
  tcase_add_test (tc, test_bad_value_lists_values);
  tcase_add_test (tc, test_errors);
  tcase_add_test (tc, test_names_round_trip);
  tcase_add_test (tc, test_explanation_read_back);
  tcase_add_test (tc, test_mitigation_options);
  tcase_add_test (tc, test_options_by_release);
  tcase_add_test (tc, test_srso_not_built);
  tcase_add_test (tc, test_retpoline_not_built);
  tcase_add_test (tc, test_ibrs_entry_not_built);
  tcase_add_test (tc, test_retbleed_entry_not_built);
  tcase_add_test (tc, test_spectre_bhi_not_built);
  tcase_add_test (tc, test_pti_not_built);
  tcase_add_test (tc, test_cpu_mitigations_not_built);
  tcase_add_test (tc, test_cpu_mitigations_switches_by_release);
  tcase_add_test (tc, test_bhi_selected_when_auto_chooses_none);
  tcase_add_test (tc, test_cpu_features_carried);
  suite_add_tcase (s, tc);
  sr = srunner_create (s);
  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed ? 1 : 0;
}
