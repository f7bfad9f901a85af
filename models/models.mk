# models/models.mk — kernel-equivalent models and workload models.
noinst_LIBRARIES += libns_models.a
libns_models_a_SOURCES = models/workload.h models/registry.c \
	models/patches.c models/micro/pointer-chase.c models/micro/calls.c models/micro/pingpong.c \
	models/micro/lookup.c
libns_models_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/models

nobase_dist_pkgdata_DATA += scenarios/micro/pointer-chase.xml scenarios/micro/call-chain.xml \
	scenarios/micro/call-tree.xml scenarios/micro/indirect-call.xml scenarios/micro/pingpong.xml \
	scenarios/micro/udp-lookup.xml
