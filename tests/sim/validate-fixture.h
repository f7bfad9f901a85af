/* validate-fixture.h — the set-up test-validate.c and test-calibrate.c share: the fixture
 * (tests/data/validation) in a scratch data directory, its rows loaded and run, its files
 * edited. Every helper fails the running test on an error. */
#pragma once

#include <glib.h>
#include "validate.h"

/* The recorded results in dir; the test fails unless they load. */
NsValidation       *load_ok          (const char *dir);

/* Runs the rows matching patterns (NULL-terminated, NULL for all) with n_jobs. */
NsValReport        *run_rows         (const NsValidation *v, const char *const *patterns,
                                      guint n_jobs);

/* The outcome of row id in r; the test fails if r has none. */
const NsValOutcome *outcome          (const NsValReport *r, const char *id);

/* Removes dir and everything under it. */
void                remove_tree      (const char *dir);

/* Unchecked fixture of every TCase using scratch_datadir: a folder (made in Check's
 * parent process) that the scratch directories go in, removed with what failed tests left. */
void                scratch_base_setup    (void);
void                scratch_base_teardown (void);

/* A scratch data directory (the schemas, the generic profile, the call-chain scenario and
 * the fixture as <tmp>/fx); sets NETSIM_DATADIR to it. */
char               *scratch_datadir  (void);

/* The value the call-chain scenario gives for variant with extra sets (child process). */
double              call_chain_value (const char *variant, const char *const *sets);

/* scratch_datadir with live figures in the fixture (900-calib at cpu.ipc = 2.0); *fx is
 * the fixture folder. */
char               *fixture_datadir  (char **fx);

/* Rewrites the baseline and patched figures of row id in the recorded file at path. */
void                set_figures      (const char *path, const char *id, double baseline,
                                      double patched);

/* Replaces from by to (once) in the file at path. */
void                edit_file        (const char *path, const char *from, const char *to);

/* The call-chain scenario under tmp with lines (XML) inserted before its <workload>; its
 * path. */
char               *scenario_with    (const char *tmp, const char *lines);
