#!/bin/sh
# test-host-fits.sh — the values fitted on host measurements are still the fits: the Zen 3
# profiles' branch.resolve_cycles is tools/replay-bench-retpoline's fit on the host medians
# their source cites (a model change that moves the replay must come with the refit, as
# netsim validate requires of calibration.xml's fits). Needs python3; skipped without it.
set -u
NETSIM=${NETSIM:-./netsim}
DATA=${NETSIM_DATADIR:-.}
pass=0
fail=0

ok () { pass=$((pass + 1)); }
bad () { fail=$((fail + 1)); echo "FAIL: $*"; }

if ! command -v python3 >/dev/null 2>&1; then
  echo "SKIP: python3 not installed (tools/debian-packages installs it)"
  exit 77
fi

# the <param name="branch.resolve_cycles" …/> line of profile $1
wait_param () { grep '<param name="branch.resolve_cycles"' "$DATA/scenarios/cpus/$1.xml"; }
# its value, and the three medians its source cites as F1,P100,S100
wait_value () { wait_param "$1" | sed -n 's/.* value="\([0-9.]*\)".*/\1/p'; }
wait_medians () {
  wait_param "$1" | sed -n 's/.*medians of [0-9]* runs: \([0-9.]*\) cycles walking 1 filter, \([0-9.]*\) walking 100 filters packed in L1, \([0-9.]*\) walking 100 filters scattered.*/\1,\2,\3/p'
}

value=$(wait_value ryzen9-5950x)
medians=$(wait_medians ryzen9-5950x)
[ -n "$value" ] && [ -n "$medians" ] && ok || bad "ryzen9-5950x: no branch.resolve_cycles value or cited medians"
[ "$(wait_value zen3-epyc-7713)" = "$value" ] && [ "$(wait_medians zen3-epyc-7713)" = "$medians" ] &&
  ok || bad "zen3-epyc-7713: branch.resolve_cycles or its medians differ from ryzen9-5950x's (the same core)"

python3 "$DATA/tools/replay-bench-retpoline" --netsim "$NETSIM" --host "$medians" \
  --scenario "$DATA/scenarios/tc-pktgen-matchall-5950x.xml" --check "$value" >/dev/null
[ $? -eq 0 ] && ok || bad "branch.resolve_cycles $value is not the replay's fit on $medians (see above)"
# and the check can fail: a value a cycle off is refused
python3 "$DATA/tools/replay-bench-retpoline" --netsim "$NETSIM" --host "$medians" \
  --scenario "$DATA/scenarios/tc-pktgen-matchall-5950x.xml" --check "$(awk -v v="$value" 'BEGIN { print v + 1 }')" \
  >/dev/null 2>&1
[ $? -eq 1 ] && ok || bad "--check accepted a value a cycle off the fit"

echo "test-host-fits: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
