# Fuzz targets for the input loaders (tests/fuzz): scenarios, CPU profiles, kernel config
# packages, sweep resume, recorded results. make check builds each with a replay driver and runs them over the
# tree's inputs; tools/fuzz builds them with libFuzzer.
FUZZ_DRIVER = tests/fuzz/replay.c tests/fuzz/fuzz-common.c tests/fuzz/fuzz.h
check_PROGRAMS += tests/fuzz/replay-scenario tests/fuzz/replay-profile tests/fuzz/replay-kconfig \
	tests/fuzz/replay-resume tests/fuzz/replay-recorded
tests_fuzz_replay_scenario_SOURCES = $(FUZZ_DRIVER) tests/fuzz/fuzz-scenario.c
tests_fuzz_replay_scenario_LDADD = $(NS_LIBS)
tests_fuzz_replay_profile_SOURCES = $(FUZZ_DRIVER) tests/fuzz/fuzz-profile.c
tests_fuzz_replay_profile_LDADD = $(NS_LIBS)
tests_fuzz_replay_kconfig_SOURCES = $(FUZZ_DRIVER) tests/fuzz/fuzz-kconfig.c
tests_fuzz_replay_kconfig_LDADD = $(NS_LIBS)
tests_fuzz_replay_resume_SOURCES = $(FUZZ_DRIVER) tests/fuzz/fuzz-resume.c
tests_fuzz_replay_resume_LDADD = $(NS_LIBS)
tests_fuzz_replay_recorded_SOURCES = $(FUZZ_DRIVER) tests/fuzz/fuzz-recorded.c
tests_fuzz_replay_recorded_LDADD = $(NS_LIBS)
TESTS += tests/fuzz/test-replay.sh
EXTRA_DIST += tests/fuzz/test-replay.sh tools/fuzz
