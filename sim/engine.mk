# sim/engine.mk — the engine: coroutines, the event queue, simulated CPUs and threads.
# libns_engine.a depends on no other netsim library (GLib and libm only).

noinst_LIBRARIES += libns_engine.a
libns_engine_a_SOURCES = \
	sim/coro.c sim/coro.h \
	sim/event.c sim/event.h \
	sim/engine.c sim/engine.h

check_PROGRAMS += tests/sim/test-coro tests/sim/test-event tests/sim/test-engine
TESTS += tests/sim/test-coro tests/sim/test-event tests/sim/test-engine

tests_sim_test_coro_SOURCES = tests/sim/test-coro.c
tests_sim_test_coro_CFLAGS = $(TEST_CFLAGS)
tests_sim_test_coro_LDADD = libns_engine.a $(TEST_LIBS)

tests_sim_test_event_SOURCES = tests/sim/test-event.c
tests_sim_test_event_CFLAGS = $(TEST_CFLAGS)
tests_sim_test_event_LDADD = libns_engine.a $(TEST_LIBS)

tests_sim_test_engine_SOURCES = tests/sim/test-engine.c
tests_sim_test_engine_CFLAGS = $(TEST_CFLAGS)
tests_sim_test_engine_LDADD = libns_engine.a $(TEST_LIBS)

noinst_PROGRAMS += tools/bench-engine
tools_bench_engine_SOURCES = tools/bench-engine.c
tools_bench_engine_LDADD = libns_engine.a $(GLIB_LIBS) -lm
