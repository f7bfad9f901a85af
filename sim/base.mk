# sim/base.mk — parameter registry and mitigation selection (no dependencies).
noinst_LIBRARIES += libns_base.a
libns_base_a_SOURCES = sim/common.h sim/common.c sim/param.h sim/param.c sim/machine-params.c \
	sim/mitigation.h sim/mitigation.c sim/kchange.h sim/kchange.c

check_PROGRAMS += tests/sim/test-common
TESTS += tests/sim/test-common
tests_sim_test_common_SOURCES = tests/sim/test-common.c
tests_sim_test_common_CFLAGS = $(TEST_CFLAGS)
tests_sim_test_common_LDADD = libns_base.a $(TEST_LIBS)

check_PROGRAMS += tests/sim/test-machine-params
TESTS += tests/sim/test-machine-params
tests_sim_test_machine_params_SOURCES = tests/sim/test-machine-params.c
tests_sim_test_machine_params_CFLAGS = $(TEST_CFLAGS)
tests_sim_test_machine_params_LDADD = libns_scenario.a libns_base.a $(TEST_LIBS)
