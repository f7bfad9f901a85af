#!/bin/sh
# test-walks.sh — seed 002's cost of a filter (models/net/sched/seed002/walks.py), run
# against a stand-in for `netsim validate` whose rows have known rates:
#  1. each CPU's line gives (1 / pps(100) - 1 / pps(1)) x clock / 99, recorded and
#     simulated, before and after the series, at the profile's clock, from its clone-0
#     rows (clone rows of other rates beside them are not read for it), then the same as
#     shares of the 1-filter "before" packet, and the clone rows' recorded shares;
#  2. --clock CPU=GHZ reads that CPU at GHZ and passes param.cpu.freq_ghz and --refit to
#     its validate run only; --set passes to every run with --refit;
#  3. bad arguments, and a netsim that is not there, exit 2 with a message.
# Needs python3; skipped without it.
set -u
DATA=${NETSIM_DATADIR:-.}

# shellcheck source=tests/lib.sh
. "$DATA/tests/lib.sh"
require_python3

make_tmp
mkdir -p "$tmp/models/net/sched/seed002" "$tmp/scenarios/cpus"
cp "$DATA"/models/net/sched/seed002/gen.py "$DATA"/models/net/sched/seed002/walks.py \
  "$tmp/models/net/sched/seed002/"
cp "$DATA"/scenarios/cpus/*.xml "$tmp/scenarios/cpus/"

# The stand-in: `validate -q --jobs 2 --format csv 002-*-CPU-* [--set X]... [--refit]`
# prints CPU's rows (1 filter: 10000 pps recorded before, 10200 after, 9900 and 10000
# simulated; 100 filters: 1000 and 980 recorded, 1020 and 1000 simulated; clone rows,
# listed first, whose recorded rates only the clone share may use: 1 filter 20000 before
# and after, 100 filters 2000 and 1000) and logs its arguments.
cat > "$tmp/fake-netsim" <<'EOF'
#!/usr/bin/env python3
import sys
sys.path.insert(0, sys.argv[0].rsplit("/", 1)[0] + "/models/net/sched/seed002")
import gen
args = sys.argv[1:]
with open(sys.argv[0] + ".log", "a") as log:
    log.write(" ".join(args) + "\n")
assert args[0] == "validate" and "--format" in args, args
cpu = next(a for a in args if a.startswith("002-"))[len("002-*-"):-len("-*")]
prof = gen.CPUS[cpu]["profile"]
print("# a comment line")
print("row,profile,recorded_baseline,recorded_patched,simulated_baseline,simulated_patched")
print(f"002-x-{cpu}-clone-f100,{prof},2000,1000,1,1")
print(f"002-x-{cpu}-clone-f1,{prof},20000,20000,1,1")
print(f"002-x-{cpu}-f1,{prof},10000,10200,9900,10000")
print(f"002-x-{cpu}-f100,{prof},1000,980,1020,1000")
sys.exit(1)   # as validate does when a row fails
EOF
chmod +x "$tmp/fake-netsim"

fail=0
walks () {
  NETSIM="$tmp/fake-netsim" python3 "$tmp/models/net/sched/seed002/walks.py" "$@" \
    >"$tmp/out" 2>&1
}
has () {
  if ! grep -qF -- "$1" "$tmp/out"; then
    echo "FAIL: walks.py $2: no '$1' in:"; sed 's/^/  /' "$tmp/out"; fail=1
  fi
}

# 1. At the 7950X's 5.7 GHz: (5.7e9 / 1000 - 5.7e9 / 10000) / 99 = 51818.2 recorded
# before, (5.7e9 / 1020 - 5.7e9 / 9900) / 99 = 50631.1 simulated (-2.3 %); after 53106.1
# and 51818.2 (-2.4 %); the 1-filter path 5.7e9 / 10000 cycles. As shares of the 1-filter
# "before" packet: recorded (10000 / 1000 - 1) / 99 = 9.09 % and (10000 / 980 - 10000 /
# 10200) / 99 = 9.32 %, simulated (9900 / 1020 - 1) / 99 = 8.79 % and (9900 / 1000 - 9900
# / 10000) / 99 = 9.00 %; the clone runs (20000 / 2000 - 1) / 99 = 9.09 % and (20000 /
# 1000 - 1) / 99 = 19.19 %.
walks
st=$?
[ $st -eq 0 ] || { echo "FAIL: walks.py exited $st"; fail=1; }
has "7950x     5.70 570000 | 51818.2 50631.1  -2.3% | 53106.1 51818.2  -2.4% | share rec 9.09 / 9.32 %, sim 8.79 / 9.00 %; clone rec 9.09 / 19.19 %" ""
if [ "$(grep -c -- "--refit" "$tmp/fake-netsim.log")" -ne 0 ]; then
  echo "FAIL: walks.py refits without a what-if"; fail=1
fi

# 2. --clock: the 6230R at 3 GHz, its recorded figures read at that clock too; only its
# run refits, at that clock. --set: every run refits with it.
: >"$tmp/fake-netsim.log"
walks --clock 6230r=3
has "6230r     3.00 300000 | 27272.7 26647.9  -2.3% | 27950.6 27272.7  -2.4% | share rec 9.09" "--clock 6230r=3"
if ! grep -q -- "002-\*-6230r-\* --set param.cpu.freq_ghz=3 --refit" "$tmp/fake-netsim.log" ||
   [ "$(grep -c -- "--refit" "$tmp/fake-netsim.log")" -ne 1 ]; then
  echo "FAIL: --clock 6230r=3 ran:"; sed 's/^/  /' "$tmp/fake-netsim.log"; fail=1
fi
: >"$tmp/fake-netsim.log"
walks --set kernel.config.CONFIG_SLAB_FREELIST_RANDOM=y
if [ "$(grep -c -- "--set kernel.config.CONFIG_SLAB_FREELIST_RANDOM=y --refit" \
        "$tmp/fake-netsim.log")" -ne 5 ]; then
  echo "FAIL: --set did not reach every CPU's run:"; sed 's/^/  /' "$tmp/fake-netsim.log"
  fail=1
fi

# 3. Bad arguments.
for bad in "--clock 9999x=3" "--clock 6230r=fast" "--set" "--sets a=b" "--clock 6230r"; do
  # shellcheck disable=SC2086 # each case is its words
  walks $bad
  st=$?
  if [ $st -ne 2 ] || ! grep -q "walks.py: " "$tmp/out"; then
    echo "FAIL: walks.py $bad: exit $st (want 2 with a message):"; sed 's/^/  /' "$tmp/out"
    fail=1
  fi
done

# A netsim that is not there is named, not a traceback.
NETSIM="$tmp/no-netsim" python3 "$tmp/models/net/sched/seed002/walks.py" >"$tmp/out" 2>&1
st=$?
if [ $st -ne 2 ] || ! grep -q "walks.py: cannot run $tmp/no-netsim" "$tmp/out"; then
  echo "FAIL: walks.py without a netsim: exit $st (want 2 with a message):"
  sed 's/^/  /' "$tmp/out"; fail=1
fi

[ $fail -eq 0 ] && echo "walks.py: cost of a filter, --clock and --set as documented"
exit $fail
