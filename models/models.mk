# models/models.mk — kernel-equivalent models and workload models.
noinst_LIBRARIES += libns_models.a
libns_models_a_SOURCES = models/workload.h models/registry.c \
	models/patches.c models/micro/pointer-chase.c models/micro/calls.c models/micro/pingpong.c \
	models/micro/lookup.c models/micro/filter-walk.c models/micro/bpf-tailcall.c
libns_models_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/models

nobase_dist_pkgdata_DATA += scenarios/micro/pointer-chase.xml scenarios/micro/call-chain.xml \
	scenarios/micro/call-tree.xml scenarios/micro/indirect-call.xml scenarios/micro/pingpong.xml \
	scenarios/micro/udp-lookup.xml scenarios/micro/filter-walk.xml \
	scenarios/micro/bpf-tailcall.xml scenarios/micro/tc-walk.xml

# Tests of the micro workloads (models/micro/) and of the workload and patch tables, run
# through the run layer on scenarios/micro/*.xml (tests/models/micro/micro-run.h).
MICRO_RUN = tests/models/micro/micro-run.h
check_PROGRAMS += tests/models/micro/test-pointer-chase
TESTS += tests/models/micro/test-pointer-chase
tests_models_micro_test_pointer_chase_SOURCES = tests/models/micro/test-pointer-chase.c \
	$(MICRO_RUN)
tests_models_micro_test_pointer_chase_CFLAGS = $(TEST_CFLAGS)
tests_models_micro_test_pointer_chase_LDADD = $(NS_LIBS) $(TEST_LIBS)
check_PROGRAMS += tests/models/micro/test-calls
TESTS += tests/models/micro/test-calls
tests_models_micro_test_calls_SOURCES = tests/models/micro/test-calls.c $(MICRO_RUN)
tests_models_micro_test_calls_CFLAGS = $(TEST_CFLAGS)
tests_models_micro_test_calls_LDADD = $(NS_LIBS) $(TEST_LIBS)
check_PROGRAMS += tests/models/micro/test-pingpong
TESTS += tests/models/micro/test-pingpong
tests_models_micro_test_pingpong_SOURCES = tests/models/micro/test-pingpong.c $(MICRO_RUN)
tests_models_micro_test_pingpong_CFLAGS = $(TEST_CFLAGS)
tests_models_micro_test_pingpong_LDADD = $(NS_LIBS) $(TEST_LIBS)
check_PROGRAMS += tests/models/micro/test-lookup
TESTS += tests/models/micro/test-lookup
tests_models_micro_test_lookup_SOURCES = tests/models/micro/test-lookup.c $(MICRO_RUN)
tests_models_micro_test_lookup_CFLAGS = $(TEST_CFLAGS)
tests_models_micro_test_lookup_LDADD = $(NS_LIBS) $(TEST_LIBS)
check_PROGRAMS += tests/models/micro/test-filter-walk
TESTS += tests/models/micro/test-filter-walk
tests_models_micro_test_filter_walk_SOURCES = tests/models/micro/test-filter-walk.c $(MICRO_RUN)
tests_models_micro_test_filter_walk_CFLAGS = $(TEST_CFLAGS)
tests_models_micro_test_filter_walk_LDADD = $(NS_LIBS) $(TEST_LIBS)
check_PROGRAMS += tests/models/micro/test-bpf-tailcall
TESTS += tests/models/micro/test-bpf-tailcall
tests_models_micro_test_bpf_tailcall_SOURCES = tests/models/micro/test-bpf-tailcall.c $(MICRO_RUN)
tests_models_micro_test_bpf_tailcall_CFLAGS = $(TEST_CFLAGS)
tests_models_micro_test_bpf_tailcall_LDADD = $(NS_LIBS) $(TEST_LIBS)
check_PROGRAMS += tests/models/test-registry
TESTS += tests/models/test-registry
tests_models_test_registry_SOURCES = tests/models/test-registry.c $(MICRO_RUN)
tests_models_test_registry_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/models \
	-I$(top_srcdir)/tests/models/micro
tests_models_test_registry_CFLAGS = $(TEST_CFLAGS)
tests_models_test_registry_LDADD = $(NS_LIBS) $(TEST_LIBS)
check_PROGRAMS += tests/models/test-patches
TESTS += tests/models/test-patches
tests_models_test_patches_SOURCES = tests/models/test-patches.c $(MICRO_RUN)
tests_models_test_patches_CPPFLAGS = $(tests_models_test_registry_CPPFLAGS)
tests_models_test_patches_CFLAGS = $(TEST_CFLAGS)
tests_models_test_patches_LDADD = $(NS_LIBS) $(TEST_LIBS)
