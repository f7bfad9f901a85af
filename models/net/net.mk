# models/net/net.mk — kernel-equivalent networking models (UDP socket lookup: sock layout,
# jhash, the UDP table and lookup for IPv4/IPv6, SO_REUSEPORT groups) and their tests.
libns_models_a_SOURCES += models/net/sock.h models/net/sock.c models/net/jhash.h models/net/udp.h \
	models/net/udp-priv.h models/net/udp.c models/net/udp6.c models/net/reuseport.c \
	models/net/slab.h models/net/slab.c

# The network models' tests see the models' headers by name.
NET_TEST_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/models -I$(top_srcdir)/models/net
check_PROGRAMS += tests/models/net/test-udp tests/models/net/test-reuseport \
	tests/models/net/test-slab
TESTS += tests/models/net/test-udp tests/models/net/test-reuseport tests/models/net/test-slab
tests_models_net_test_slab_SOURCES = tests/models/net/test-slab.c
tests_models_net_test_slab_CPPFLAGS = $(NET_TEST_CPPFLAGS)
tests_models_net_test_slab_CFLAGS = $(TEST_CFLAGS)
tests_models_net_test_slab_LDADD = $(NS_LIBS) $(TEST_LIBS)
tests_models_net_test_reuseport_SOURCES = tests/models/net/test-reuseport.c
tests_models_net_test_reuseport_CPPFLAGS = $(NET_TEST_CPPFLAGS)
tests_models_net_test_reuseport_CFLAGS = $(TEST_CFLAGS)
tests_models_net_test_reuseport_LDADD = $(NS_LIBS) $(TEST_LIBS)
tests_models_net_test_udp_SOURCES = tests/models/net/test-udp.c
tests_models_net_test_udp_CPPFLAGS = $(NET_TEST_CPPFLAGS)
tests_models_net_test_udp_CFLAGS = $(TEST_CFLAGS)
tests_models_net_test_udp_LDADD = $(NS_LIBS) $(TEST_LIBS)
check_PROGRAMS += tests/models/net/test-udp_rx tests/models/net/test-ip
TESTS += tests/models/net/test-udp_rx tests/models/net/test-ip
# Test helpers: the machine and loopback stack, and a connected UDP pair on it.
STACK_RIG = tests/models/net/stack-rig.c tests/models/net/stack-rig.h \
	tests/models/net/run-to-end.h
UDP_PAIR_RIG = tests/models/net/udp-pair-rig.c tests/models/net/udp-pair-rig.h $(STACK_RIG)
# The kernel's size rules the skb and UDP tests compute their expectations from, and a
# UDP socket's memory accounting by the kernel's rules.
EXTRA_DIST += tests/models/net/kernel-sizes.h tests/models/net/udp-acct.h
tests_models_net_test_udp_rx_SOURCES = tests/models/net/test-udp_rx.c $(UDP_PAIR_RIG)
tests_models_net_test_udp_rx_CPPFLAGS = $(NET_TEST_CPPFLAGS)
tests_models_net_test_udp_rx_CFLAGS = $(TEST_CFLAGS)
tests_models_net_test_udp_rx_LDADD = $(NS_LIBS) $(TEST_LIBS)
tests_models_net_test_ip_SOURCES = tests/models/net/test-ip.c $(UDP_PAIR_RIG)
tests_models_net_test_ip_CPPFLAGS = $(NET_TEST_CPPFLAGS)
tests_models_net_test_ip_CFLAGS = $(TEST_CFLAGS)
tests_models_net_test_ip_LDADD = $(NS_LIBS) $(TEST_LIBS)
check_PROGRAMS += tests/models/net/test-memcontrol
TESTS += tests/models/net/test-memcontrol
tests_models_net_test_memcontrol_SOURCES = tests/models/net/test-memcontrol.c $(UDP_PAIR_RIG)
tests_models_net_test_memcontrol_CPPFLAGS = $(NET_TEST_CPPFLAGS)
tests_models_net_test_memcontrol_CFLAGS = $(TEST_CFLAGS)
tests_models_net_test_memcontrol_LDADD = $(NS_LIBS) $(TEST_LIBS)
check_PROGRAMS += tests/models/net/test-udp6
TESTS += tests/models/net/test-udp6
tests_models_net_test_udp6_SOURCES = tests/models/net/test-udp6.c $(STACK_RIG)
tests_models_net_test_udp6_CPPFLAGS = $(NET_TEST_CPPFLAGS)
tests_models_net_test_udp6_CFLAGS = $(TEST_CFLAGS)
tests_models_net_test_udp6_LDADD = $(NS_LIBS) $(TEST_LIBS)
check_PROGRAMS += tests/models/net/test-udp_tx
TESTS += tests/models/net/test-udp_tx
tests_models_net_test_udp_tx_SOURCES = tests/models/net/test-udp_tx.c $(UDP_PAIR_RIG)
tests_models_net_test_udp_tx_CPPFLAGS = $(NET_TEST_CPPFLAGS)
tests_models_net_test_udp_tx_CFLAGS = $(TEST_CFLAGS)
tests_models_net_test_udp_tx_LDADD = $(NS_LIBS) $(TEST_LIBS)
check_PROGRAMS += tests/models/net/test-select
TESTS += tests/models/net/test-select
tests_models_net_test_select_SOURCES = tests/models/net/test-select.c $(STACK_RIG)
tests_models_net_test_select_CPPFLAGS = $(NET_TEST_CPPFLAGS)
tests_models_net_test_select_CFLAGS = $(TEST_CFLAGS)
tests_models_net_test_select_LDADD = $(NS_LIBS) $(TEST_LIBS)
