# sim/sweep.mk — what-if sweeps (sim/sweep.c; the command is tools/cmd-sweep.c), their tests
# and their benchmark.
libns_run_a_SOURCES += sim/sweep.h sim/sweep.c

check_PROGRAMS += tests/sim/test-sweep
TESTS += tests/sim/test-sweep tests/tools/test-sweep.sh
EXTRA_DIST += tests/tools/test-sweep.sh tools/bench-sweep
tests_sim_test_sweep_SOURCES = tests/sim/test-sweep.c
tests_sim_test_sweep_CFLAGS = $(TEST_CFLAGS)
tests_sim_test_sweep_LDADD = $(NS_LIBS) $(TEST_LIBS)

# Sweep points per second with 1 and 2 jobs (part of make bench).
bench-sweep: netsim
	NETSIM='$(abs_top_builddir)/netsim' NETSIM_DATADIR='$(abs_top_srcdir)' \
	  sh $(top_srcdir)/tools/bench-sweep
bench: bench-sweep
.PHONY: bench-sweep
