# lib.sh — helpers the shell tests share; a test sources it from the data directory:
#   DATA=${NETSIM_DATADIR:-.}
#   # shellcheck source=tests/lib.sh
#   . "$DATA/tests/lib.sh"

# The checks' tally: ok counts one that held, bad one that did not (and says which); a
# test ends with `echo "NAME: $pass passed, $fail failed"; [ "$fail" -eq 0 ]`.
pass=0
fail=0
ok () { pass=$((pass + 1)); }
bad () { fail=$((fail + 1)); echo "FAIL: $*"; }

# require_python3: skips the test (exit 77, automake's SKIP) with a message when python3
# is not installed.
require_python3 () {
  if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP: python3 not installed (tools/debian-packages installs it)"
    exit 77
  fi
}

# make_tmp: sets tmp to a new directory, removed when the test exits or is stopped; a
# directory it cannot make is a hard error (exit 99).
make_tmp () {
  tmp=$(mktemp -d) || exit 99
  trap 'rm -rf "$tmp"' EXIT INT TERM
}
