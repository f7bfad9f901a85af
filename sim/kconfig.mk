# sim/kconfig.mk — kernel config packages (scenarios/configs/*.xml) and their loader.
# (with the run: the loader checks bools against the build's list, sim/build.c)
libns_run_a_SOURCES += sim/kconfig.h sim/kconfig.c

nobase_dist_pkgdata_DATA += scenarios/kconfig.rng \
	scenarios/configs/debian-6.1.0-50-cloud-amd64.xml \
	scenarios/configs/debian-6.12.95-amd64.xml \
	scenarios/configs/kconfig-defaults-6.1.xml

check_PROGRAMS += tests/sim/test-kconfig
TESTS += tests/sim/test-kconfig
tests_sim_test_kconfig_CFLAGS = $(TEST_CFLAGS)
tests_sim_test_kconfig_LDADD = $(NS_LIBS) $(TEST_LIBS)
