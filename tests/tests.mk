# tests/tests.mk — tests of the base library, the run layer and the command line.
check_PROGRAMS += tests/sim/test-param tests/sim/test-mitigation tests/sim/test-kchange
TESTS += tests/sim/test-param tests/sim/test-mitigation tests/sim/test-kchange
tests_sim_test_param_CFLAGS = $(TEST_CFLAGS)
tests_sim_test_param_LDADD = libns_base.a $(TEST_LIBS)
tests_sim_test_mitigation_CFLAGS = $(TEST_CFLAGS)
tests_sim_test_mitigation_LDADD = libns_base.a $(TEST_LIBS)
tests_sim_test_kchange_CFLAGS = $(TEST_CFLAGS)
tests_sim_test_kchange_LDADD = libns_base.a $(TEST_LIBS)

TESTS += tests/tools/test-cli.sh tests/tools/test-whatif.sh
EXTRA_DIST += tests/tools/test-cli.sh tests/tools/test-whatif.sh

# tools/kconfig-package writes a package netsim loads from a .config.
TESTS += tests/tools/test-kconfig-package.sh
EXTRA_DIST += tests/tools/test-kconfig-package.sh

# tools/mutate makes, builds and judges mutants on a project of the test's own.
TESTS += tests/tools/test-mutate.sh
EXTRA_DIST += tests/tools/test-mutate.sh

# ifetch.text_bytes_per_insn is the fit of tools/text-census's committed run.
TESTS += tests/tools/test-text-census.sh
EXTRA_DIST += tests/tools/test-text-census.sh

# Every declared text size and frame is the Debian 6.1.176 binary's or has a stated source.
TESTS += tests/tools/test-text-sizes.sh
EXTRA_DIST += tests/tools/test-text-sizes.sh

# tools/prologue-census counts a frame as the binary runs it (objdump forms, no binary).
TESTS += tests/tools/test-prologue-census.sh
EXTRA_DIST += tests/tools/test-prologue-census.sh

# The docs' marked tables of current results agree with validation/expected.csv.
check_PROGRAMS += tests/doc/test-figures
TESTS += tests/doc/test-figures
tests_doc_test_figures_SOURCES = tests/doc/test-figures.c
tests_doc_test_figures_CFLAGS = $(TEST_CFLAGS)
tests_doc_test_figures_LDADD = libns_run.a libns_base.a $(TEST_LIBS)

# Helpers the shell tests source (require_python3, make_tmp).
EXTRA_DIST += tests/lib.sh

# The figures the docs quote in prose, each marked with its source, agree with the results.
TESTS += tests/doc/test-doc-figures.sh
EXTRA_DIST += tests/doc/test-doc-figures.sh
