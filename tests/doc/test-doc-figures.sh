#!/bin/sh
# test-doc-figures.sh — the figures the docs quote in prose, each followed by a marker
# naming where it comes from (<!--=a-1G:sim-->, tools/doc-figures), agree with
# validation/expected.csv and validation/calibration.xml; and the tool finds a stale
# figure, rewrites it in the figure's own style, and refuses a bad marker. Needs python3;
# skipped without it.
set -u
DATA=${NETSIM_DATADIR:-.}
TOOL="$DATA/tools/doc-figures"
# The held figures the docs had when this test was written: a lost marker fails.
MIN_HELD=154

# shellcheck source=tests/lib.sh
. "$DATA/tests/lib.sh"
require_python3

fail=0
make_tmp

# The synthetic cases read results of their own, so no model change touches them.
mkdir -p "$tmp/data/validation"
cat >"$tmp/data/validation/expected.csv" <<'CSV'
# a comment line, as netsim validate writes them
row,set,status,sign_agrees,recorded_baseline,recorded_patched,recorded_delta_pct,simulated_baseline,simulated_patched,simulated_delta_pct,error_pp,tolerance_pp,profile
a-1G,validation,pass,yes,100,114,14.0,200,223.84,11.92,-2.08,3.0,cpu-a
a-MAX,validation,fail,yes,90,112,24.4,210,236.2,12.49,-11.73,3.0,cpu-a
a-off-1G,calibration,pass,yes,190,191,0.5,350,351.4,0.39,-0.11,3.0,cpu-a
a-off-MAX,validation,fail,no,180,173,-3.9,360,361.1,0.31,4.21,3.0,cpu-a
b-f1,calibration,pass,yes,10000,10200,2.0,9900,10000,1.01,-0.99,3.0,cpu-b
b-f100,validation,pass,yes,1000,980,-1.9,1020,1007.25,-1.25,0.65,3.0,cpu-b
c-none,validation,not-modelled,,1,2,100.0,,,,,3.0,cpu-c
d-f1,calibration,pass,yes,10,10,0.0,10,10,0.0,0.0,3.0,cpu-d
d-f100,calibration,pass,yes,1,1,0.0,1,1,0.0,0.0,3.0,cpu-d
CSV
cat >"$tmp/data/validation/calibration.xml" <<'XML'
<calibration>
  <fit profile="cpu-a" param="cpu.ipc" value="1.113" rows="a-off-1G"/>
  <fit profile="cpu-b" param="cpu.ipc" value="2.122" rows="b-f1"/>
</calibration>
XML
# cpu-b's clock, for seed 002's cost of a filter (walk:); cpu-d has no profile file.
mkdir -p "$tmp/data/scenarios/cpus"
cat >"$tmp/data/scenarios/cpus/cpu-b.xml" <<'XML'
<cpu name="cpu-b"><param name="cpu.freq_ghz" value="2.0" source="test"/></cpu>
XML

# expect STATUS TEXT -- ARGS: the tool exits STATUS and prints TEXT (stdout or stderr;
# an empty TEXT: anything).
expect () {
  want=$1 text=$2
  shift 3
  python3 "$TOOL" --data "$tmp/data" "$@" >"$tmp/out" 2>&1
  got=$?
  if [ "$got" -ne "$want" ] || { [ -n "$text" ] && ! grep -qF -- "$text" "$tmp/out"; }; then
    echo "FAIL: doc-figures $*: exit $got (want $want), output:"
    sed 's/^/  /' "$tmp/out"
    fail=1
  fi
}

# The docs as shipped agree, and hold at least MIN_HELD figures.
if ! python3 "$TOOL" --data "$DATA" --check --min "$MIN_HELD" >"$tmp/out" 2>&1; then
  echo "FAIL: the docs' held figures (tools/doc-figures --update rewrites stale ones):"
  sed 's/^/  /' "$tmp/out"
  fail=1
fi

# A stale figure fails --check, naming the line, the figure and the value now; --update
# rewrites it with the figure's decimals and sign style and leaves the rest as it was.
printf 'ok +11.92 %%<!--=a-1G:sim--> here\nstale **+12.00 %%**<!--=a-1G:sim-->, ratio 1.800<!--=ratio:a-off-1G/a-1G-->\nmargin 3 pp<!--=a-1G:margin--> end\n' >"$tmp/doc.md"
expect 1 "doc.md:2: +12.00 is +11.92 now (a-1G:sim)" -- --check "$tmp/doc.md"
expect 1 "doc.md:2: 1.800 is 1.750 now" -- --check "$tmp/doc.md"
expect 1 "doc.md:3: 3 is 1 now (a-1G:margin)" -- --check "$tmp/doc.md"
expect 0 "3 of 4 held figures rewritten" -- --update "$tmp/doc.md"
printf 'ok +11.92 %%<!--=a-1G:sim--> here\nstale **+11.92 %%**<!--=a-1G:sim-->, ratio 1.750<!--=ratio:a-off-1G/a-1G-->\nmargin 1 pp<!--=a-1G:margin--> end\n' >"$tmp/want.md"
if ! cmp -s "$tmp/doc.md" "$tmp/want.md"; then
  echo "FAIL: --update wrote:"; sed 's/^/  /' "$tmp/doc.md"; fail=1
fi
expect 0 "" -- --check "$tmp/doc.md"

# on TEXT STATUS OUTPUT: a doc of TEXT (a printf format) fails or passes --check as said.
on () {
  # shellcheck disable=SC2059 # TEXT is the format, as in the calls above
  printf "$1" >"$tmp/case.md"
  expect "$2" "$3" -- --check "$tmp/case.md"
}

# A minus is written as the docs write it (U+2212), a magnitude without a sign.
on 'err −11.73<!--=a-MAX:err-->, by 11.73 pp<!--=a-MAX:err-->, −1.25 %%<!--=b-f100:sim-->\n' 0 ""
on 'err +11.73<!--=a-MAX:err-->\n' 1 "+11.73 is −11.73 now"

# A range's ends follow whichever rows are least and greatest now.
on 'from +0.31<!--=min:a-off-*:sim--> to +0.39 %%<!--=max:a-off-*:sim-->, fits 1.113<!--=min:fit:*-->–2.122<!--=max:fit:cpu-?-->\n' 0 ""
on 'up to +0.31 %%<!--=max:a-off-*:sim-->\n' 1 "+0.31 is +0.39 now (max:a-off-*:sim)"
on 'x 3<!--=min:no-such-*:sim-->\n' 2 "matches nothing"

# netsim validate's summary: the modelled validation rows only (not calibration, not
# not-modelled ones).
on '2<!--=summary:within-->/4<!--=summary:rows-->, sign 3<!--=summary:sign-->, mean 4.67 pp<!--=summary:mae-->\n' 0 ""

# A baseline ratio as a gain (350 against 200: +75 %); a baseline's error against the
# recorded one (200 against 100: +100 %).
on 'gains +75.0 %%<!--=gain:a-off-1G/a-1G-->\n' 0 ""
on 'base +100.0 %%<!--=a-1G:baseerr-->, MAX +133 %%<!--=a-MAX:baseerr-->\n' 0 ""

# Seed 002's cost of a filter, rows P-f1 and P-f100 at the profile's clock (2 GHz):
# (2e9 / 1020 - 2e9 / 9900) / 99 simulated before the series, (2e9 / 1000 - 2e9 / 10000)
# / 99 recorded; after it 18036.41 simulated, 18633.72 recorded; what the series saves a
# filter, before less after: -271.12 simulated, -451.90 recorded.
on 'walk 17765.29<!--=walk:b:base--> against 18181.82<!--=walk:b:recbase-->; after 18036.4<!--=walk:b:patch-->, 18633.7<!--=walk:b:recpatch-->; saves −271.1<!--=walk:b:retp--> against −451.9<!--=walk:b:recretp-->\n' 0 ""
on 'walk 17765.3<!--=walk:b:patch-->\n' 1 "17765.3 is 18036.4 now (walk:b:patch)"
on 'x 3<!--=walk:a:base-->\n' 2 "no rows a-f1 and a-f100"
on 'x 3<!--=walk:b:speed-->\n' 2 "expected walk:PREFIX:SIDE"
on 'x 3<!--=walk:d:base-->\n' 2 "cannot read the clock of profile 'cpu-d'"

# Too few held figures fail (a marker was lost).
expect 1 "fewer than --min 5" -- --check --min 5 "$tmp/want.md"

# Bad markers are input errors, named by file and line.
on 'a\nx 3<!--=no-such-row:sim-->\n' 2 "case.md:2: no row 'no-such-row'"
on 'x 3<!--=a-1G:speed-->\n' 2 "unknown field 'speed'"
on 'x <!--=a-1G:sim-->\n' 2 "has no figure just before it"
on 'x 3<!--=fit:no-such-cpu-->\n' 2 "no fit for profile 'no-such-cpu'"
on 'see `x = 3<!--=a-1G:sim-->`\n' 2 "inside a code span"
on '```\nx 3<!--=a-1G:sim-->\n```\n' 2 "inside a code span or block"
mkdir "$tmp/doc" && printf 'was +11.93<!--=a-1G:sim-->\n' >"$tmp/doc/history.md"
expect 2 "history.md:1: a figure marker in the history" -- "$tmp/doc/history.md"
expect 2 "cannot read" -- "$tmp/missing.md"

exit $fail
