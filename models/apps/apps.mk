# models/apps/apps.mk — the loopback UDP path (skb allocation, IP in/out, loopback device and
# backlog NAPI, UDP send and receive, select) and the iperf3 workload, with their tests.
libns_models_a_SOURCES += models/net/skbuff.h models/net/skbuff.c \
	models/net/netstack.h models/net/netstack.c models/net/loopback.h models/net/loopback.c models/net/dev.c \
	models/net/softirq.h models/net/softirq.c \
	models/net/ip.h models/net/ip.c models/net/select.h models/net/select.c \
	models/net/udp_rx.h models/net/udp_rx.c models/net/udp_tx.h models/net/udp_tx.c \
	models/net/memcontrol.h models/net/memcontrol.c models/net/memset.h models/net/memset.c \
	models/net/usercopy.h models/net/usercopy.c models/net/iov_iter.h models/net/iov_iter.c \
	models/apps/iperf3-timer.h models/apps/iperf3-timer.c models/apps/iperf3.c models/apps/udp-flood.c

nobase_dist_pkgdata_DATA += scenarios/udp-lookup-iperf3.xml scenarios/micro/udp-flood.xml

check_PROGRAMS += tests/models/apps/test-iperf3 tests/models/net/test-udp-path \
	tests/models/apps/test-udp-flood
TESTS += tests/models/apps/test-iperf3 tests/models/net/test-udp-path \
	tests/models/apps/test-udp-flood
tests_models_apps_test_iperf3_SOURCES = tests/models/apps/test-iperf3.c tests/models/apps/refused.h
tests_models_apps_test_iperf3_CPPFLAGS = $(NET_TEST_CPPFLAGS)
tests_models_apps_test_iperf3_CFLAGS = $(TEST_CFLAGS)
tests_models_apps_test_iperf3_LDADD = $(NS_LIBS) $(TEST_LIBS)
tests_models_apps_test_udp_flood_SOURCES = tests/models/apps/test-udp-flood.c \
	tests/models/apps/refused.h
tests_models_apps_test_udp_flood_CFLAGS = $(TEST_CFLAGS)
tests_models_apps_test_udp_flood_LDADD = $(NS_LIBS) $(TEST_LIBS)
check_PROGRAMS += tests/models/net/test-skbuff tests/models/net/test-memset \
	tests/models/net/test-usercopy tests/models/net/test-iov_iter
TESTS += tests/models/net/test-skbuff tests/models/net/test-memset \
	tests/models/net/test-usercopy tests/models/net/test-iov_iter
tests_models_net_test_memset_SOURCES = tests/models/net/test-memset.c $(STACK_RIG)
tests_models_net_test_memset_CPPFLAGS = $(NET_TEST_CPPFLAGS)
tests_models_net_test_memset_CFLAGS = $(TEST_CFLAGS)
tests_models_net_test_memset_LDADD = $(NS_LIBS) $(TEST_LIBS)
tests_models_net_test_usercopy_SOURCES = tests/models/net/test-usercopy.c $(STACK_RIG)
tests_models_net_test_usercopy_CPPFLAGS = $(NET_TEST_CPPFLAGS)
tests_models_net_test_usercopy_CFLAGS = $(TEST_CFLAGS)
tests_models_net_test_usercopy_LDADD = $(NS_LIBS) $(TEST_LIBS)
tests_models_net_test_iov_iter_SOURCES = tests/models/net/test-iov_iter.c $(STACK_RIG)
tests_models_net_test_iov_iter_CPPFLAGS = $(NET_TEST_CPPFLAGS)
tests_models_net_test_iov_iter_CFLAGS = $(TEST_CFLAGS)
tests_models_net_test_iov_iter_LDADD = $(NS_LIBS) $(TEST_LIBS)
tests_models_net_test_skbuff_SOURCES = tests/models/net/test-skbuff.c $(STACK_RIG)
tests_models_net_test_skbuff_CPPFLAGS = $(NET_TEST_CPPFLAGS)
tests_models_net_test_skbuff_CFLAGS = $(TEST_CFLAGS)
tests_models_net_test_skbuff_LDADD = $(NS_LIBS) $(TEST_LIBS)
tests_models_net_test_udp_path_SOURCES = tests/models/net/test-udp-path.c $(STACK_RIG)
tests_models_net_test_udp_path_CPPFLAGS = $(NET_TEST_CPPFLAGS)
tests_models_net_test_udp_path_CFLAGS = $(TEST_CFLAGS)
tests_models_net_test_udp_path_LDADD = $(NS_LIBS) $(TEST_LIBS)

# The device-layer functions and struct net_device shared by the loopback and tc models.
libns_models_a_SOURCES += models/net/netdevice.h models/net/netdevice.c

# Unit tests of the loopback stack's pieces: bottom halves (softirq.c), the stack's
# primitives (netstack.c), the device layer and backlog NAPI (loopback.c).
check_PROGRAMS += tests/models/net/test-softirq
TESTS += tests/models/net/test-softirq
tests_models_net_test_softirq_SOURCES = tests/models/net/test-softirq.c $(STACK_RIG)
tests_models_net_test_softirq_CPPFLAGS = $(NET_TEST_CPPFLAGS)
tests_models_net_test_softirq_CFLAGS = $(TEST_CFLAGS)
tests_models_net_test_softirq_LDADD = $(NS_LIBS) $(TEST_LIBS)
check_PROGRAMS += tests/models/net/test-loopback
TESTS += tests/models/net/test-loopback
tests_models_net_test_loopback_SOURCES = tests/models/net/test-loopback.c $(STACK_RIG)
tests_models_net_test_loopback_CPPFLAGS = $(NET_TEST_CPPFLAGS)
tests_models_net_test_loopback_CFLAGS = $(TEST_CFLAGS)
tests_models_net_test_loopback_LDADD = $(NS_LIBS) $(TEST_LIBS)
check_PROGRAMS += tests/models/net/test-netstack
TESTS += tests/models/net/test-netstack
tests_models_net_test_netstack_SOURCES = tests/models/net/test-netstack.c $(STACK_RIG)
tests_models_net_test_netstack_CPPFLAGS = $(NET_TEST_CPPFLAGS)
tests_models_net_test_netstack_CFLAGS = $(TEST_CFLAGS)
tests_models_net_test_netstack_LDADD = $(NS_LIBS) $(TEST_LIBS)

# iperf3's timer list (models/apps/iperf3-timer.c).
check_PROGRAMS += tests/models/apps/test-iperf3-timer
TESTS += tests/models/apps/test-iperf3-timer
tests_models_apps_test_iperf3_timer_SOURCES = tests/models/apps/test-iperf3-timer.c $(STACK_RIG)
tests_models_apps_test_iperf3_timer_CPPFLAGS = $(NET_TEST_CPPFLAGS)
tests_models_apps_test_iperf3_timer_CFLAGS = $(TEST_CFLAGS)
tests_models_apps_test_iperf3_timer_LDADD = $(NS_LIBS) $(TEST_LIBS)
