# sim/scenario.mk — XML reading (safe libxml2 use, RelaxNG) and scenario loading.
noinst_LIBRARIES += libns_scenario.a
libns_scenario_a_SOURCES = sim/xml.h sim/xml.c sim/scenario.h sim/scenario.c

nobase_dist_pkgdata_DATA += scenarios/scenario.rng
EXTRA_DIST += tests/data

check_PROGRAMS += tests/sim/test-xml tests/sim/test-scenario
TESTS += tests/sim/test-xml tests/sim/test-scenario
tests_sim_test_xml_CFLAGS = $(TEST_CFLAGS)
tests_sim_test_xml_LDADD = libns_scenario.a libns_base.a $(TEST_LIBS)
tests_sim_test_scenario_CFLAGS = $(TEST_CFLAGS)
tests_sim_test_scenario_LDADD = libns_scenario.a libns_base.a $(TEST_LIBS)

# Loading and running a scenario of 50 and 200 variants: per-variant time and its growth
# (part of make bench).
EXTRA_DIST += tools/bench-variants
bench-variants: netsim
	NETSIM='$(abs_top_builddir)/netsim' NETSIM_DATADIR='$(abs_top_srcdir)' \
	  sh $(top_srcdir)/tools/bench-variants
bench: bench-variants
.PHONY: bench-variants
