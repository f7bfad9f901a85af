# Fuzz targets for the input loaders (tests/fuzz): scenarios, CPU profiles, sweep resume,
# recorded results. make check builds them with a replay
# driver and runs them over the tree's inputs; tools/fuzz builds them with libFuzzer.
check_PROGRAMS += tests/fuzz/replay-scenario tests/fuzz/replay-profile tests/fuzz/replay-resume \
	tests/fuzz/replay-recorded
tests_fuzz_replay_scenario_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz-common.c \
	tests/fuzz/fuzz-scenario.c tests/fuzz/fuzz.h
tests_fuzz_replay_scenario_LDADD = $(NS_LIBS)
tests_fuzz_replay_profile_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz-common.c \
	tests/fuzz/fuzz-profile.c tests/fuzz/fuzz.h
tests_fuzz_replay_profile_LDADD = $(NS_LIBS)
tests_fuzz_replay_resume_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz-common.c \
	tests/fuzz/fuzz-resume.c tests/fuzz/fuzz.h
tests_fuzz_replay_resume_LDADD = $(NS_LIBS)
tests_fuzz_replay_recorded_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz-common.c \
	tests/fuzz/fuzz-recorded.c tests/fuzz/fuzz.h
tests_fuzz_replay_recorded_LDADD = $(NS_LIBS)
TESTS += tests/fuzz/test-replay.sh
EXTRA_DIST += tests/fuzz/test-replay.sh tools/fuzz
