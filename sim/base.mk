# sim/base.mk — parameter registry and mitigation selection (no dependencies).
noinst_LIBRARIES += libns_base.a
libns_base_a_SOURCES = sim/common.h sim/param.h sim/param.c sim/machine-params.c \
	sim/mitigation.h sim/mitigation.c
