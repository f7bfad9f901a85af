# models/net/sched/sched.mk — seed 002: tc classifier/action dispatch (clsact, tcf_classify,
# matchall, gact, the retpoline wrappers), the transmit path of a dummy device, and the
# pktgen workload; their tests and scenarios.
libns_models_a_SOURCES += models/net/sched/pkt_cls.h models/net/sched/sched-priv.h \
	models/net/sched/netdev.h models/net/sched/tcx.h models/net/sched/tc_wrapper.c models/net/sched/cls_api.c \
	models/net/sched/act_api.c models/net/sched/cls_matchall.c models/net/sched/cls_bpf.c \
	models/net/sched/act_gact.c \
	models/net/sched/sch_ingress.c models/net/sched/dev_xmit.c models/net/sched/skb_xmit.c \
	models/net/dummy.c models/apps/pktgen.c

SCHED_TEST_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/models -I$(top_srcdir)/models/net/sched
check_PROGRAMS += tests/models/net/sched/test-cls_api tests/models/net/sched/test-tc_wrapper \
	tests/models/apps/test-pktgen tests/models/net/sched/test-act_gact \
	tests/models/net/sched/test-act_api tests/models/net/sched/test-cls_matchall \
	tests/models/net/sched/test-sch_ingress tests/models/net/sched/test-dev_xmit \
	tests/models/net/sched/test-skb_xmit tests/models/net/test-dev tests/models/net/test-dummy \
	tests/models/net/test-netdevice tests/models/net/sched/test-cls_bpf
TESTS += tests/models/net/sched/test-cls_api tests/models/net/sched/test-tc_wrapper \
	tests/models/apps/test-pktgen tests/models/net/sched/test-act_gact \
	tests/models/net/sched/test-act_api tests/models/net/sched/test-cls_matchall \
	tests/models/net/sched/test-sch_ingress tests/models/net/sched/test-dev_xmit \
	tests/models/net/sched/test-skb_xmit tests/models/net/test-dev tests/models/net/test-dummy \
	tests/models/net/test-netdevice tests/models/net/sched/test-cls_bpf
EXTRA_DIST += tests/models/net/sched/sched-rig.h tests/models/net/run-to-end.h \
	tests/models/net/build-note.h
tests_models_net_sched_test_cls_api_SOURCES = tests/models/net/sched/test-cls_api.c \
	tests/models/net/sched/sched-rig.h
tests_models_net_sched_test_cls_api_CPPFLAGS = $(SCHED_TEST_CPPFLAGS)
tests_models_net_sched_test_cls_api_CFLAGS = $(TEST_CFLAGS)
tests_models_net_sched_test_cls_api_LDADD = $(NS_LIBS) $(TEST_LIBS)
tests_models_net_sched_test_cls_bpf_SOURCES = tests/models/net/sched/test-cls_bpf.c \
	tests/models/net/sched/sched-rig.h
tests_models_net_sched_test_cls_bpf_CPPFLAGS = $(SCHED_TEST_CPPFLAGS)
tests_models_net_sched_test_cls_bpf_CFLAGS = $(TEST_CFLAGS)
tests_models_net_sched_test_cls_bpf_LDADD = $(NS_LIBS) $(TEST_LIBS)
tests_models_net_sched_test_tc_wrapper_SOURCES = tests/models/net/sched/test-tc_wrapper.c \
	tests/models/net/sched/sched-rig.h
tests_models_net_sched_test_tc_wrapper_CPPFLAGS = $(SCHED_TEST_CPPFLAGS)
tests_models_net_sched_test_tc_wrapper_CFLAGS = $(TEST_CFLAGS)
tests_models_net_sched_test_tc_wrapper_LDADD = $(NS_LIBS) $(TEST_LIBS)
tests_models_apps_test_pktgen_SOURCES = tests/models/apps/test-pktgen.c
tests_models_apps_test_pktgen_CPPFLAGS = $(SCHED_TEST_CPPFLAGS)
tests_models_apps_test_pktgen_CFLAGS = $(TEST_CFLAGS)
tests_models_apps_test_pktgen_LDADD = $(NS_LIBS) $(TEST_LIBS)
tests_models_net_sched_test_act_gact_SOURCES = tests/models/net/sched/test-act_gact.c \
	tests/models/net/sched/sched-rig.h
tests_models_net_sched_test_act_gact_CPPFLAGS = $(SCHED_TEST_CPPFLAGS)
tests_models_net_sched_test_act_gact_CFLAGS = $(TEST_CFLAGS)
tests_models_net_sched_test_act_gact_LDADD = $(NS_LIBS) $(TEST_LIBS)
tests_models_net_sched_test_act_api_SOURCES = tests/models/net/sched/test-act_api.c \
	tests/models/net/sched/sched-rig.h
tests_models_net_sched_test_act_api_CPPFLAGS = $(SCHED_TEST_CPPFLAGS)
tests_models_net_sched_test_act_api_CFLAGS = $(TEST_CFLAGS)
tests_models_net_sched_test_act_api_LDADD = $(NS_LIBS) $(TEST_LIBS)
tests_models_net_sched_test_cls_matchall_SOURCES = tests/models/net/sched/test-cls_matchall.c \
	tests/models/net/sched/sched-rig.h
tests_models_net_sched_test_cls_matchall_CPPFLAGS = $(SCHED_TEST_CPPFLAGS)
tests_models_net_sched_test_cls_matchall_CFLAGS = $(TEST_CFLAGS)
tests_models_net_sched_test_cls_matchall_LDADD = $(NS_LIBS) $(TEST_LIBS)
tests_models_net_sched_test_sch_ingress_SOURCES = tests/models/net/sched/test-sch_ingress.c \
	tests/models/net/sched/sched-rig.h
tests_models_net_sched_test_sch_ingress_CPPFLAGS = $(SCHED_TEST_CPPFLAGS)
tests_models_net_sched_test_sch_ingress_CFLAGS = $(TEST_CFLAGS)
tests_models_net_sched_test_sch_ingress_LDADD = $(NS_LIBS) $(TEST_LIBS)
tests_models_net_sched_test_dev_xmit_SOURCES = tests/models/net/sched/test-dev_xmit.c \
	tests/models/net/sched/sched-rig.h
tests_models_net_sched_test_dev_xmit_CPPFLAGS = $(SCHED_TEST_CPPFLAGS)
tests_models_net_sched_test_dev_xmit_CFLAGS = $(TEST_CFLAGS)
tests_models_net_sched_test_dev_xmit_LDADD = $(NS_LIBS) $(TEST_LIBS)
tests_models_net_sched_test_skb_xmit_SOURCES = tests/models/net/sched/test-skb_xmit.c \
	tests/models/net/sched/sched-rig.h tests/models/net/kernel-sizes.h
tests_models_net_sched_test_skb_xmit_CPPFLAGS = $(SCHED_TEST_CPPFLAGS)
tests_models_net_sched_test_skb_xmit_CFLAGS = $(TEST_CFLAGS)
tests_models_net_sched_test_skb_xmit_LDADD = $(NS_LIBS) $(TEST_LIBS)
tests_models_net_test_dev_SOURCES = tests/models/net/test-dev.c \
	tests/models/net/sched/sched-rig.h
tests_models_net_test_dev_CPPFLAGS = $(SCHED_TEST_CPPFLAGS)
tests_models_net_test_dev_CFLAGS = $(TEST_CFLAGS)
tests_models_net_test_dev_LDADD = $(NS_LIBS) $(TEST_LIBS)
tests_models_net_test_dummy_SOURCES = tests/models/net/test-dummy.c \
	tests/models/net/sched/sched-rig.h
tests_models_net_test_dummy_CPPFLAGS = $(SCHED_TEST_CPPFLAGS)
tests_models_net_test_dummy_CFLAGS = $(TEST_CFLAGS)
tests_models_net_test_dummy_LDADD = $(NS_LIBS) $(TEST_LIBS)
tests_models_net_test_netdevice_SOURCES = tests/models/net/test-netdevice.c \
	tests/models/net/sched/sched-rig.h
tests_models_net_test_netdevice_CPPFLAGS = $(SCHED_TEST_CPPFLAGS)
tests_models_net_test_netdevice_CFLAGS = $(TEST_CFLAGS)
tests_models_net_test_netdevice_LDADD = $(NS_LIBS) $(TEST_LIBS)

EXTRA_DIST += models/net/sched/seed002/gen.py models/net/sched/seed002/fit.py \
	models/net/sched/seed002/table.py models/net/sched/seed002/walks.py

# The shipped scenarios are the generator's; fit.py's fits are the best at the last digit.
TESTS += tests/models/net/sched/seed002/test-gen-fit.sh
EXTRA_DIST += tests/models/net/sched/seed002/test-gen-fit.sh

# walks.py's cost of a filter, against a stand-in for netsim validate.
TESTS += tests/models/net/sched/seed002/test-walks.sh
EXTRA_DIST += tests/models/net/sched/seed002/test-walks.sh

nobase_dist_pkgdata_DATA += scenarios/tc-pktgen-matchall-7950x.xml \
	scenarios/tc-pktgen-matchall-5950x.xml scenarios/tc-pktgen-matchall-3337u.xml \
	scenarios/tc-pktgen-matchall-10210u.xml scenarios/tc-pktgen-matchall-6230r.xml \
	scenarios/tc-pktgen-whatif-7950x.xml scenarios/tc-pktgen-whatif-6230r.xml
