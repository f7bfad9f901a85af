# sim/validate.mk — validation against the recorded hardware results (netsim validate) and
# calibration of free parameters on named rows (netsim calibrate). See doc/validation.md.
libns_run_a_SOURCES += sim/validate.h sim/validate.c sim/calibrate.h sim/calibrate.c
libns_run_a_SOURCES += sim/csv.h sim/csv.c sim/child.h sim/child.c
libns_run_a_SOURCES += sim/hostbench.h sim/hostbench.c

# The recorded results, the cases, the calibration record, their schemas and the expected
# results that make check holds the model to.
nobase_dist_pkgdata_DATA += \
	validation/recorded.rng validation/cases.rng validation/calibration.rng \
	validation/seed-000.xml validation/seed-001.xml validation/seed-002.xml \
	validation/seed-003.xml validation/seed-004.xml \
	validation/cases.xml validation/calibration.xml validation/expected.csv
EXTRA_DIST += validation/README.md

check_PROGRAMS += tests/sim/test-validate tests/sim/test-calibrate tests/sim/test-hostbench
TESTS += tests/sim/test-validate tests/sim/test-calibrate tests/tools/test-validate.sh \
	tests/sim/test-hostbench tests/tools/test-host-fits.sh tests/tools/test-twin-figures.sh
tests_sim_test_hostbench_CFLAGS = $(TEST_CFLAGS)
tests_sim_test_hostbench_LDADD = $(NS_LIBS) $(CHECK_LIBS)
# test-validate and test-calibrate share the validation fixture's set-up.
tests_sim_test_validate_SOURCES = tests/sim/test-validate.c tests/sim/validate-fixture.c \
	tests/sim/validate-fixture.h tests/sim/count.h
tests_sim_test_validate_CFLAGS = $(TEST_CFLAGS)
tests_sim_test_validate_LDADD = $(NS_LIBS) $(CHECK_LIBS)
tests_sim_test_calibrate_SOURCES = tests/sim/test-calibrate.c tests/sim/validate-fixture.c \
	tests/sim/validate-fixture.h tests/sim/count.h
tests_sim_test_calibrate_CFLAGS = $(TEST_CFLAGS)
tests_sim_test_calibrate_LDADD = $(NS_LIBS) $(CHECK_LIBS)
EXTRA_DIST += tests/tools/test-validate.sh tests/tools/test-host-fits.sh \
	tests/tools/test-twin-figures.sh
check_PROGRAMS += tests/sim/test-csv
TESTS += tests/sim/test-csv
tests_sim_test_csv_SOURCES = tests/sim/test-csv.c
tests_sim_test_csv_CFLAGS = $(TEST_CFLAGS)
tests_sim_test_csv_LDADD = libns_run.a libns_base.a $(TEST_LIBS)
check_PROGRAMS += tests/sim/test-child
TESTS += tests/sim/test-child
tests_sim_test_child_SOURCES = tests/sim/test-child.c
tests_sim_test_child_CFLAGS = $(TEST_CFLAGS)
tests_sim_test_child_LDADD = libns_run.a $(TEST_LIBS)

# `make validate`: the validation table (every recorded row).
VALIDATE_JOBS = 2
# The main job: the validation table. Rows that miss their tolerance are reported in the
# table and summary (netsim validate exits 1); only a run that could not validate at all
# (exit 2: bad input, a crash) fails the target.
validate: netsim
	@NETSIM_DATADIR='$(abs_top_srcdir)' ./netsim validate --jobs $(VALIDATE_JOBS); \
	status=$$?; \
	if [ $$status -eq 1 ]; then echo "(exit 1: validation rows miss their tolerance or sign, or a run errored (see run errors), or a fit no longer holds, a fitted row is counted as validation or a variant sets a parameter: see the table, its notes and doc/models/)"; \
	elif [ $$status -ne 0 ]; then exit $$status; fi
.PHONY: validate
