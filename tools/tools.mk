# tools/tools.mk — the run layer (results, output) and the netsim command line.
noinst_LIBRARIES += libns_run.a
libns_run_a_SOURCES = sim/run.h sim/run.c sim/report.h sim/report.c sim/json.h sim/json.c

bin_PROGRAMS += netsim
netsim_SOURCES = tools/netsim.c tools/cmd.h tools/cmd-common.c tools/cmd-run.c tools/cmd-list.c \
	tools/cmd-validate.c tools/cmd-calibrate.c tools/cmd-sweep.c
netsim_LDADD = $(NS_LIBS)

EXTRA_DIST += tools/debian-packages tools/install-deps tools/test-all tools/prologue-census \
	tools/text-census tools/sensitivity tools/replay-bench-retpoline tools/fuzz-whatif \
	tools/doc-figures tools/kconfig-package tools/mutate

check_PROGRAMS += tests/sim/test-run
TESTS += tests/sim/test-run
tests_sim_test_run_SOURCES = tests/sim/test-run.c tests/sim/count.h
tests_sim_test_run_CFLAGS = $(TEST_CFLAGS)
tests_sim_test_run_LDADD = $(NS_LIBS) $(TEST_LIBS)
check_PROGRAMS += tests/sim/test-run-measure
TESTS += tests/sim/test-run-measure
tests_sim_test_run_measure_SOURCES = tests/sim/test-run-measure.c $(MICRO_RUN)
tests_sim_test_run_measure_CFLAGS = $(TEST_CFLAGS)
tests_sim_test_run_measure_LDADD = $(NS_LIBS) $(TEST_LIBS)
check_PROGRAMS += tests/sim/test-json
TESTS += tests/sim/test-json
tests_sim_test_json_SOURCES = tests/sim/test-json.c
tests_sim_test_json_CFLAGS = $(TEST_CFLAGS)
tests_sim_test_json_LDADD = libns_run.a $(TEST_LIBS)
check_PROGRAMS += tests/sim/test-report
TESTS += tests/sim/test-report
tests_sim_test_report_SOURCES = tests/sim/test-report.c tests/sim/count.h
tests_sim_test_report_CFLAGS = $(TEST_CFLAGS)
tests_sim_test_report_LDADD = $(NS_LIBS) $(TEST_LIBS)

# The machine check: every micro scenario's table.
MICRO_SCENARIOS = pointer-chase call-chain call-tree indirect-call filter-walk bpf-tailcall \
	pingpong udp-lookup udp-flood tc-walk
micro: netsim
	@for s in $(MICRO_SCENARIOS); do \
	  NETSIM_DATADIR='$(abs_top_srcdir)' ./netsim run -q $(top_srcdir)/scenarios/micro/$$s.xml || exit 1; \
	  echo; \
	done
.PHONY: micro

# Benchmarks: host speed of the engine (ratios and rates measured in one run).
bench: tools/bench-engine
	./tools/bench-engine
.PHONY: bench

# Seed 000's mechanism on this host: what inlining compute_score saves per call with
# the SRSO Safe RET return thunk and with a plain return (part of make bench on x86-64).
EXTRA_DIST += tools/bench-saferet.h tools/bench-rethunk.h
BENCH_SAFERET =
if NS_HAVE_RETHUNK
BENCH_SAFERET += bench-saferet
noinst_LIBRARIES += libns_bench_ool.a libns_bench_inl.a
libns_bench_ool_a_SOURCES = tools/bench-saferet-lookup.c
libns_bench_ool_a_CFLAGS = $(AM_CFLAGS) $(RETHUNK_CFLAGS)
libns_bench_inl_a_SOURCES = tools/bench-saferet-lookup.c
libns_bench_inl_a_CFLAGS = $(AM_CFLAGS) $(RETHUNK_CFLAGS) -DBENCH_INLINE
noinst_PROGRAMS += tools/bench-saferet
tools_bench_saferet_SOURCES = tools/bench-saferet.c tools/bench-rethunk.c
tools_bench_saferet_LDADD = libns_bench_ool.a libns_bench_inl.a libns_run.a libns_base.a \
	$(NS_EXT_LIBS)
bench-saferet: tools/bench-saferet
	./tools/bench-saferet
endif
bench: $(BENCH_SAFERET)

# The Safe RET return's price in a kernel-sized footprint: 256 generated functions
# called as a tree, their text spread over ~200 KiB (big), packed, or running more of it
# (wide), plain against Safe RET (part of make bench on x86-64). The call graph is
# generated (tools/gen-bench-saferet-tree) and committed.
EXTRA_DIST += tools/bench-saferet-tree.h tools/bench-saferet-tree.def \
	tools/gen-bench-saferet-tree
if NS_HAVE_RETHUNK
BENCH_SAFERET += bench-saferet-tree
noinst_LIBRARIES += libns_bench_tree_big.a libns_bench_tree_packed.a libns_bench_tree_wide.a
libns_bench_tree_big_a_SOURCES = tools/bench-saferet-tree-walk.c
libns_bench_tree_big_a_CFLAGS = $(AM_CFLAGS) $(RETHUNK_CFLAGS) -fno-toplevel-reorder \
	-DBENCH_TREE_PADDED
libns_bench_tree_packed_a_SOURCES = tools/bench-saferet-tree-walk.c
libns_bench_tree_packed_a_CFLAGS = $(AM_CFLAGS) $(RETHUNK_CFLAGS)
libns_bench_tree_wide_a_SOURCES = tools/bench-saferet-tree-walk.c
libns_bench_tree_wide_a_CFLAGS = $(AM_CFLAGS) $(RETHUNK_CFLAGS) -fno-toplevel-reorder \
	-DBENCH_TREE_PADDED -DBENCH_TREE_SLED
noinst_PROGRAMS += tools/bench-saferet-tree
tools_bench_saferet_tree_SOURCES = tools/bench-saferet-tree.c tools/bench-rethunk.c
tools_bench_saferet_tree_LDADD = libns_bench_tree_big.a libns_bench_tree_packed.a \
	libns_bench_tree_wide.a libns_run.a libns_base.a $(NS_EXT_LIBS)
bench-saferet-tree: tools/bench-saferet-tree
	./tools/bench-saferet-tree
endif
.PHONY: $(BENCH_SAFERET)

# Seed 002's mechanism on this host: what a generic retpoline costs per indirect call in
# the tc filter walk, with the filters' data in L1 and in L2 (part of make bench on x86-64).
EXTRA_DIST += tools/bench-retpoline.h
BENCH_RETPOLINE =
if NS_HAVE_RETPOLINE
BENCH_RETPOLINE += bench-retpoline
noinst_LIBRARIES += libns_bench_walk_plain.a libns_bench_walk_retpoline.a \
	libns_bench_walk_wrapper.a libns_bench_walk_wrapper_first.a
libns_bench_walk_plain_a_SOURCES = tools/bench-retpoline-walk.c
libns_bench_walk_plain_a_CFLAGS = $(AM_CFLAGS) -DBENCH_WALK=bench_walk_plain
libns_bench_walk_retpoline_a_SOURCES = tools/bench-retpoline-walk.c
libns_bench_walk_retpoline_a_CFLAGS = $(AM_CFLAGS) $(RETPOLINE_CFLAGS) \
	-DBENCH_WALK=bench_walk_retpoline
# the wrapper build's compares take function addresses as imm32, as the kernel's do
libns_bench_walk_wrapper_a_SOURCES = tools/bench-retpoline-walk.c
libns_bench_walk_wrapper_a_CFLAGS = $(AM_CFLAGS) -fno-pie -DBENCH_WRAPPER \
	-DBENCH_WALK=bench_walk_wrapper
libns_bench_walk_wrapper_first_a_SOURCES = tools/bench-retpoline-walk.c
libns_bench_walk_wrapper_first_a_CFLAGS = $(AM_CFLAGS) -fno-pie -DBENCH_WRAPPER \
	-DBENCH_WRAPPER_FIRST -DBENCH_WALK=bench_walk_wrapper_first
noinst_PROGRAMS += tools/bench-retpoline
tools_bench_retpoline_SOURCES = tools/bench-retpoline.c
tools_bench_retpoline_LDFLAGS = -no-pie
tools_bench_retpoline_LDADD = libns_bench_walk_plain.a libns_bench_walk_retpoline.a \
	libns_bench_walk_wrapper.a libns_bench_walk_wrapper_first.a libns_run.a libns_base.a \
	$(NS_EXT_LIBS)
bench-retpoline: tools/bench-retpoline
	./tools/bench-retpoline
endif
bench: $(BENCH_RETPOLINE)
.PHONY: $(BENCH_RETPOLINE)
# A retpoline in this host's kernel and in user space: a chain of eBPF tail calls through
# a generic retpoline, timed by BPF_PROG_TEST_RUN, against a user-space replica of the
# JIT's code (part of make bench on x86-64; the kernel side needs root).
BENCH_BPF =
if NS_HAVE_RETPOLINE
BENCH_BPF += bench-bpf-tailcall
noinst_PROGRAMS += tools/bench-bpf-tailcall
tools_bench_bpf_tailcall_SOURCES = tools/bench-bpf-tailcall.c tools/bench-bpf-tailcall-chain.S
tools_bench_bpf_tailcall_LDFLAGS = -no-pie
tools_bench_bpf_tailcall_LDADD = libns_run.a libns_base.a $(NS_EXT_LIBS)
bench-bpf-tailcall: tools/bench-bpf-tailcall
	./tools/bench-bpf-tailcall
endif
bench: $(BENCH_BPF)
.PHONY: $(BENCH_BPF)

# Seed 000's walk in this host's own kernel: what one more socket on a UDP port's hslot2
# chain costs a datagram over loopback (part of make bench).
noinst_PROGRAMS += tools/bench-udp-chain
tools_bench_udp_chain_SOURCES = tools/bench-udp-chain.c
tools_bench_udp_chain_LDADD = libns_run.a libns_base.a $(NS_EXT_LIBS)
bench-udp-chain: tools/bench-udp-chain
	./tools/bench-udp-chain
bench: bench-udp-chain
.PHONY: bench-udp-chain

# Seed 002's walk in this host's own kernel: what one more cls_bpf filter on lo's clsact
# egress hook, and one more program in one filter, cost a packet (part of make bench;
# needs root, else it says so and exits 0).
noinst_PROGRAMS += tools/bench-tc-walk
tools_bench_tc_walk_SOURCES = tools/bench-tc-walk.c
tools_bench_tc_walk_LDADD = libns_run.a libns_base.a $(NS_EXT_LIBS)
bench-tc-walk: tools/bench-tc-walk
	./tools/bench-tc-walk
bench: bench-tc-walk
.PHONY: bench-tc-walk

# What a walk's compares cost beside its chase on this host (the issue-width rule of
# ns_insns_compares; part of make bench).
noinst_PROGRAMS += tools/bench-walk-compares
tools_bench_walk_compares_SOURCES = tools/bench-walk-compares.c
tools_bench_walk_compares_LDADD = libns_run.a libns_base.a $(NS_EXT_LIBS)
bench-walk-compares: tools/bench-walk-compares
	./tools/bench-walk-compares
bench: bench-walk-compares
.PHONY: bench-walk-compares
