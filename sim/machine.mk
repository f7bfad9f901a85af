# sim/machine.mk — the machine model: topology, caches, coherence, cost calls, the account,
# the simulated address space; plus (appended below) the build/inlining model and sync.
noinst_LIBRARIES += libns_machine.a
libns_machine_a_SOURCES = sim/machine.h sim/machine.c sim/cache.h sim/cache.c \
	sim/arena.h sim/arena.c

check_PROGRAMS += tests/sim/test-cache tests/sim/test-arena tests/sim/test-machine
TESTS += tests/sim/test-cache tests/sim/test-arena tests/sim/test-machine

tests_sim_test_cache_SOURCES = tests/sim/test-cache.c
tests_sim_test_cache_CFLAGS = $(TEST_CFLAGS)
tests_sim_test_cache_LDADD = libns_machine.a libns_engine.a libns_base.a $(TEST_LIBS)

tests_sim_test_arena_SOURCES = tests/sim/test-arena.c
tests_sim_test_arena_CFLAGS = $(TEST_CFLAGS)
tests_sim_test_arena_LDADD = libns_machine.a libns_engine.a libns_base.a $(TEST_LIBS)

tests_sim_test_machine_SOURCES = tests/sim/test-machine.c
tests_sim_test_machine_CFLAGS = $(TEST_CFLAGS)
tests_sim_test_machine_LDADD = libns_machine.a libns_engine.a libns_base.a $(TEST_LIBS)

# build/inlining model and sync primitives (sim/build.c, sim/sync.c)
libns_machine_a_SOURCES += sim/build.h sim/build.c sim/sync.h sim/sync.c

check_PROGRAMS += tests/sim/test-build tests/sim/test-sync
TESTS += tests/sim/test-build tests/sim/test-sync

tests_sim_test_build_SOURCES = tests/sim/test-build.c
tests_sim_test_build_CFLAGS = $(TEST_CFLAGS)
tests_sim_test_build_LDADD = libns_machine.a libns_engine.a libns_base.a $(TEST_LIBS)

tests_sim_test_sync_SOURCES = tests/sim/test-sync.c
tests_sim_test_sync_CFLAGS = $(TEST_CFLAGS)
tests_sim_test_sync_LDADD = libns_machine.a libns_engine.a libns_base.a $(TEST_LIBS)
