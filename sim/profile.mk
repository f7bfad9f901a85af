# sim/profile.mk — CPU profiles (scenarios/cpus/*.xml) and their loader.
libns_scenario_a_SOURCES += sim/profile.h sim/profile.c

nobase_dist_pkgdata_DATA += scenarios/cpu.rng \
	scenarios/cpus/generic.xml \
	scenarios/cpus/i5-10210u.xml \
	scenarios/cpus/i5-3337u.xml \
	scenarios/cpus/ryzen9-5950x.xml \
	scenarios/cpus/ryzen9-7950x.xml \
	scenarios/cpus/xeon-6985p-c.xml \
	scenarios/cpus/xeon-gold-6230r.xml \
	scenarios/cpus/zen3-epyc-7713.xml

check_PROGRAMS += tests/sim/test-profile
TESTS += tests/sim/test-profile
tests_sim_test_profile_CFLAGS = $(TEST_CFLAGS)
tests_sim_test_profile_LDADD = libns_scenario.a libns_base.a $(TEST_LIBS)
