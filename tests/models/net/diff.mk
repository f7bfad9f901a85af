# tests/models/net/diff.mk — differential test of the UDP lookup model against the host's
# kernel (real sockets on loopback; tests/models/net/udp-kernel.c is the real-socket half).
check_PROGRAMS += tests/models/net/test-udp-diff
TESTS += tests/models/net/test-udp-diff

tests_models_net_test_udp_diff_SOURCES = tests/models/net/test-udp-diff.c \
	tests/models/net/udp-kernel.c tests/models/net/udp-kernel.h
tests_models_net_test_udp_diff_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/models
tests_models_net_test_udp_diff_CFLAGS = $(TEST_CFLAGS)
tests_models_net_test_udp_diff_LDADD = libns_models.a libns_machine.a libns_scenario.a \
	libns_engine.a libns_base.a $(TEST_LIBS)
