#!/bin/sh
# test-host-fits.sh — the values fitted on host measurements are still the fits: the Zen 3
# and Zen 4 profiles' branch.resolve_cycles is tools/replay-bench-retpoline's fit on the
# host medians their source cites, and their call.cycles is the host's plain saving a call
# (tools/bench-saferet, cited) read through the model's twin, scenarios/micro/udp-lookup.xml
# (a model change that moves the replay or the twin must come with the refit, as
# netsim validate requires of calibration.xml's fits). Needs python3; skipped without it.
set -u
NETSIM=${NETSIM:-./netsim}
DATA=${NETSIM_DATADIR:-.}

# shellcheck source=tests/lib.sh
. "$DATA/tests/lib.sh"
require_python3

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

# check_fit PROFILE SCENARIO: PROFILE's wait is the replay's fit on its cited medians for
# SCENARIO's CPU, and a value a cycle off is refused
check_fit () {
  v=$(wait_value "$1")
  m=$(wait_medians "$1")
  if [ -z "$v" ] || [ -z "$m" ]; then
    bad "$1: no branch.resolve_cycles value or cited medians"
    return
  fi
  python3 "$DATA/tools/replay-bench-retpoline" --netsim "$NETSIM" --host "$m" \
    --scenario "$DATA/scenarios/$2" --check "$v" >/dev/null
  [ $? -eq 0 ] && ok || bad "$1: branch.resolve_cycles $v is not the replay's fit on $m (see above)"
  err=$(python3 "$DATA/tools/replay-bench-retpoline" --netsim "$NETSIM" --host "$m" \
    --scenario "$DATA/scenarios/$2" \
    --check "$(awk -v v="$v" 'BEGIN { print v + 1 }')" 2>&1 >/dev/null)
  rc=$?
  # exit 1 with the refit message (a traceback exits 1 too)
  [ $rc -eq 1 ] && printf '%s\n' "$err" | grep -q "is not the fit" && ok ||
    bad "$1: --check accepted a value a cycle off the fit (exit $rc: $err)"
}

# Zen 3 (Milan host): the 5950X's fit, shared by the EPYC 7713 above
check_fit ryzen9-5950x tc-pktgen-matchall-5950x.xml
# Zen 4 (Genoa host): the 7950X's own
check_fit ryzen9-7950x tc-pktgen-matchall-7950x.xml
[ "$(wait_medians ryzen9-7950x)" != "$medians" ] && ok ||
  bad "ryzen9-7950x cites the Zen 3 medians"

# the model side runs on --scenario's CPU: its profile and fitted cpu.ipc are named; a
# relative name not found from the working directory is found in the data folder, as
# netsim finds it
data_abs=$(cd "$DATA" && pwd)
netsim_abs=$(cd "$(dirname "$NETSIM")" && pwd)/$(basename "$NETSIM")
(cd / && NETSIM_DATADIR="$data_abs" python3 "$data_abs/tools/replay-bench-retpoline" \
  --netsim "$netsim_abs" --host "$medians" \
  --scenario scenarios/tc-pktgen-matchall-5950x.xml 2>/dev/null) |
  grep -q "^model side: scenarios/micro/filter-walk.xml on ryzen9-5950x, cpu.ipc [0-9.]* (from " &&
  ok || bad "replay-bench-retpoline did not name the model side's profile and cpu.ipc"
# six --host figures carry the host's plain walk, printed beside the model's; five are refused
python3 "$DATA/tools/replay-bench-retpoline" --netsim "$NETSIM" --host "$medians,3.9,40,35" \
  --scenario "$DATA/scenarios/tc-pktgen-matchall-5950x.xml" 2>/dev/null |
  grep -q "^plain walk, cycles a filter at 1 and 100 packed filters: model [0-9.]* and [0-9.]* (cpu.ipc [0-9.]*), host 40.0 and 35.0$" &&
  ok || bad "replay-bench-retpoline did not print the host's plain walk beside the model's"
python3 "$DATA/tools/replay-bench-retpoline" --netsim "$NETSIM" --host "$medians,3.9,40" \
  --scenario "$DATA/scenarios/tc-pktgen-matchall-5950x.xml" >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "replay-bench-retpoline accepted five --host figures"
# a scenario without a <cpu profile> is refused (exit 2)
python3 "$DATA/tools/replay-bench-retpoline" --netsim "$NETSIM" --host "$medians" \
  --scenario /dev/null >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "replay-bench-retpoline accepted a --scenario that names no CPU"

# call.cycles: the model twin's saving a call (l1-plain-baseline less l1-plain-patched, in
# cycles a socket) moves one for one with the value, so the fit is the value plus what the
# host's cited saving exceeds the twin's by, at least 0; to one decimal it must be the value.
call_param () { grep '<param name="call.cycles"' "$DATA/scenarios/cpus/$1.xml"; }
# twin_saving PROFILE [SET]: the twin's saving on PROFILE (with --set SET)
twin_saving () {
  "$NETSIM" run -q "$DATA/scenarios/micro/udp-lookup.xml" --set cpu.profile="$1" ${2:+--set "$2"} \
    --format csv 2>/dev/null |
    awk -F, '$1 == "variant" && $2 == "l1-plain-baseline" { b = $4 }
             $1 == "variant" && $2 == "l1-plain-patched" { p = $4 }
             END { if (b == "" || p == "") exit 1; printf "%.4f\n", b - p }'
}
# call_fit VALUE HOST SAVING: the fit to one decimal
call_fit () { awk -v v="$1" -v h="$2" -v s="$3" 'BEGIN { f = v + h - s; if (f < 0) f = 0; printf "%.1f\n", f }'; }
check_call () {
  v=$(call_param "$1" | sed -n 's/.* value="\([0-9.]*\)".*/\1/p')
  h=$(call_param "$1" | sed -n 's/.*saves \([0-9.]*\) cycles a call over sockets in L1D.*/\1/p')
  if [ -z "$v" ] || [ -z "$h" ]; then
    bad "$1: no call.cycles value or cited host saving"
    return
  fi
  s=$(twin_saving "$1") || { bad "$1: the twin did not run"; return; }
  [ "$(call_fit "$v" "$h" "$s")" = "$(awk -v v="$v" 'BEGIN { printf "%.1f\n", v }')" ] && ok ||
    bad "$1: call.cycles $v is not the fit on the host's $h (the twin saves $s a call at $v)"
  # the twin does move with the value (else the check above could not fail)
  s1=$(twin_saving "$1" param.call.cycles="$(awk -v v="$v" 'BEGIN { print v + 1 }')") &&
    awk -v a="$s" -v b="$s1" 'BEGIN { exit !(b - a > 0.9 && b - a < 1.1) }' && ok ||
    bad "$1: the twin's saving does not move one for one with call.cycles ($s, then $s1)"
}
check_call ryzen9-5950x
check_call zen3-epyc-7713
check_call ryzen9-7950x

echo "test-host-fits: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
