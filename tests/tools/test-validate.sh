#!/bin/sh
# test-validate.sh — netsim validate and netsim calibrate end to end: every recorded row is
# listed, exit statuses, the numbers equal netsim run's, --jobs changes nothing, --plot
# renders a PNG, calibrate writes provenance and a fitted-but-validation row fails; and the
# regression check against validation/expected.csv (the real validation, with the same
# numbers as netsim run) — skipped in the sanitizer build only, since make distcheck runs
# this suite again in a plain build where it must run.
set -u
NETSIM=${NETSIM:-./netsim}
DATA=${NETSIM_DATADIR:-.}
TESTS=${TESTS_SRCDIR:-$DATA/tests}
FIXTURE="$TESTS/data/validation"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# shellcheck source=tests/lib.sh
. "$DATA/tests/lib.sh"
# expect STATUS DESCRIPTION -- COMMAND...
expect () {
  want=$1; what=$2; shift 3
  "$@" >"$TMP/out" 2>"$TMP/err"; got=$?
  if [ "$got" -eq "$want" ]; then ok; else bad "$what: exit $got, wanted $want"; cat "$TMP/err"; fi
}
# field N of the CSV line of row ID in FILE (no quoted commas before field N)
field () { grep "^$2," "$1" | cut -d, -f"$3"; }

# ---- tools/sensitivity refuses usage and input errors (exit 2, said on standard error)
# before it runs anything: a SET without '=' was found only after the whole "as shipped"
# validate (minutes; timeout turns that into a failure, status 124)
if command -v python3 >/dev/null 2>&1; then
  SENS="$DATA/tools/sensitivity"
  expect 2 "sensitivity: a SET that is not PATH=VALUE" -- timeout 20 python3 "$SENS" \
    --netsim "$NETSIM" 002 foo
  grep -q "^sensitivity: 'foo': expected PATH=VALUE" "$TMP/err" && [ ! -s "$TMP/out" ] && ok ||
    bad "sensitivity 002 foo: $(cat "$TMP/err")"
  expect 2 "sensitivity: --jobs not an integer" -- timeout 20 python3 "$SENS" \
    --netsim "$NETSIM" --jobs two 002 param.cpu.freq_ghz=3
  grep -q "^sensitivity: --jobs: expected a positive integer, got 'two'" "$TMP/err" && ok ||
    bad "sensitivity --jobs two: $(cat "$TMP/err")"
  expect 2 "sensitivity: no SET" -- timeout 20 python3 "$SENS" --netsim "$NETSIM" 002
  expect 2 "sensitivity: unknown option" -- timeout 20 python3 "$SENS" --frob 002 a=1
  expect 2 "sensitivity: no netsim at --netsim" -- timeout 20 python3 "$SENS" \
    --netsim "$TMP/no-netsim" 002 a=1
  grep -q "^sensitivity: no netsim to run at $TMP/no-netsim" "$TMP/err" && ok ||
    bad "sensitivity --netsim missing: $(cat "$TMP/err")"
fi

# ---- the shipped recorded results: every row listed, none dropped
expect 0 "validate --help" -- "$NETSIM" validate --help
expect 0 "calibrate --help" -- "$NETSIM" calibrate --help
# --quick takes some seconds (10 to 14 on a 2-vCPU VM), not "about a second"
grep -q -- "--quick .*a few seconds" "$TMP/out" && ! grep -q "about a second" "$TMP/out" && ok ||
  bad "calibrate --help: --quick's duration: $(grep -- --quick "$TMP/out")"
"$NETSIM" validate -q --format csv 001 003 004 >"$TMP/some.csv" 2>"$TMP/err"
[ $? -eq 0 ] && ok || bad "validate of unmodelled seeds exits 0"
n=$(grep -v '^#' "$TMP/some.csv" | grep -c 'not-modelled')
[ "$n" -eq 8 ] && ok || bad "seeds 001/003/004: $n not-modelled rows, wanted 8"
ids=$(grep -h -o 'row id="[^"]*"' "$DATA"/validation/seed-*.xml | wc -l)
[ "$ids" -ge 33 ] && ok || bad "only $ids recorded rows"
# --expected and -o on one file (also through a link) are refused before anything runs
cp "$TMP/some.csv" "$TMP/e.csv"
ln -s "$TMP/e.csv" "$TMP/elink.csv"
expect 2 "--expected and -o one file through a link" -- "$NETSIM" validate -q --format csv \
  --expected "$TMP/elink.csv" -o "$TMP/e.csv" 001
grep -q "is also the output" "$TMP/err" && cmp -s "$TMP/e.csv" "$TMP/some.csv" && ok ||
  bad "--expected through a link to -o: $(cat "$TMP/err")"

# ---- a worker dies with its parent: validate --jobs 2 sent SIGTERM alone (not its process
# group, as a supervisor's kill does) leaves no variant run going; a survivor is killed
alive () { [ -n "$(ps -o stat= -p "$1" 2>/dev/null | grep -v '^Z')" ]; }
if command -v pgrep >/dev/null 2>&1 && command -v ps >/dev/null 2>&1; then
  "$NETSIM" validate -q --jobs 2 --set measure.duration=40ms 000-ipv4-1G >/dev/null 2>&1 &
  parent=$!
  kids=
  for _ in $(seq 100); do
    kids=$(pgrep -P "$parent") && [ "$(echo "$kids" | wc -l)" -eq 2 ] && break
    sleep 0.1
  done
  kill -TERM "$parent"
  wait "$parent" 2>/dev/null
  sleep 1
  survivors=
  for k in $kids; do
    alive "$k" && survivors="$survivors $k" && kill -KILL "$k"
  done
  [ -n "$kids" ] && [ -z "$survivors" ] && ok ||
    bad "validate --jobs 2 killed alone: workers '$(echo "$kids" | tr '\n' ' ')' left running:$survivors"
fi

# ---- a scratch data directory: the micro call-chain scenario on the generic profile, and
# the fixture with figures derived from the current model (as tests/sim/test-validate.c):
# 900-safe-ret = the simulated figures (passes), 900-unret = a delta 50 pp above the
# simulated one (fails), 900-calib = the figures at cpu.ipc = 2.0 (for calibrate)
D="$TMP/data"
mkdir -p "$D/scenarios/cpus" "$D/scenarios/micro" "$D/validation" "$D/fx"
cp "$DATA"/scenarios/*.rng "$D/scenarios/"
cp "$DATA/scenarios/cpus/generic.xml" "$D/scenarios/cpus/"
# ... the profile borrowing one value the call chain never charges, and stating another as
# a reasoned default, for the unsourced list's marks
sed -i 's|^\(  <param name="cpu.sockets".*\)$|\1\n  <param name="x86.pause_cycles" value="140" source="UNSOURCED, borrowed: a test'"'"'s"/>\n  <param name="x86.rdtsc_cycles" value="30" source="UNSOURCED reasoned default: a test'"'"'s"/>|' \
  "$D/scenarios/cpus/generic.xml"
cp "$DATA/scenarios/micro/call-chain.xml" "$D/scenarios/micro/"
cp "$DATA"/validation/*.rng "$D/validation/"
cp "$FIXTURE"/* "$D/fx/"
C="env NETSIM_DATADIR=$D $NETSIM"
$C run -q --format csv "$D/scenarios/micro/call-chain.xml" >"$TMP/run.csv"
$C run -q --format csv --set param.cpu.ipc=2.0 "$D/scenarios/micro/call-chain.xml" >"$TMP/run2.csv"
value () { grep "^variant,$2," "$1" | cut -d, -f4; }
rb=$(value "$TMP/run.csv" plain-ret)
rp=$(value "$TMP/run.csv" srso-safe-ret)
ru=$(value "$TMP/run.csv" retbleed-unret)
rd=$(grep '^comparison,Safe RET vs plain,' "$TMP/run.csv" | cut -d, -f10)
set_figures () {
  sed -i "/<row id=\"$1\"/,/<\/row>/{s/<baseline value=\"[^\"]*\"/<baseline value=\"$2\"/;s/<patched value=\"[^\"]*\"/<patched value=\"$3\"/}" \
    "$D/fx/seed-900.xml"
}
set_figures 900-safe-ret "$(printf '%.6f' "$rb")" "$(printf '%.6f' "$rp")"
set_figures 900-unret "$(printf '%.6f' "$rb")" "$(awk -v b="$rb" -v u="$ru" 'BEGIN { printf "%.6f", b * (u / b + 0.5) }')"
set_figures 900-calib "$(printf '%.6f' "$(value "$TMP/run2.csv" plain-ret)")" \
  "$(printf '%.6f' "$(value "$TMP/run2.csv" srso-safe-ret)")"

# ---- tools/sensitivity on the fixture: the count of rows inside their recorded interval
# (900-unret's CVs give one, 900-safe-ret's single CV none) and a column for the recorded
# pair, headed by its two figures, the second over the first
if command -v python3 >/dev/null 2>&1; then
  NETSIM_DATADIR=$D python3 "$DATA/tools/sensitivity" --netsim "$NETSIM" --recorded "$D/fx" \
    --no-refit '900-*' param.call.cycles=2 >"$TMP/sens.md" 2>"$TMP/err"
  [ $? -eq 0 ] && ok || bad "sensitivity on the fixture: $(cat "$TMP/err")"
  head -1 "$TMP/sens.md" | grep -q '^| what-if | refit | within | mean abs err (pp) | inside rec. 95 % | 900-safe-ret (+[0-9.]*) | .* | 900-safe-ret:patched/900-unret:patched (+[0-9.]*) |$' &&
    grep -q '^| as shipped | - | 1/3 | [0-9.]* | 1/1 | +[0-9.]* | +[0-9.]*\* | .* | +[0-9.]* |$' "$TMP/sens.md" &&
    [ "$(grep -c '^| param.call.cycles=2 |' "$TMP/sens.md")" -eq 1 ] && ok ||
    bad "sensitivity's table on the fixture: $(cat "$TMP/sens.md")"
fi

# ---- exit statuses on the fixture
V="$C validate -q --recorded $D/fx"
expect 0 "a passing row" -- $V 900-safe-ret
expect 1 "a failing validation row" -- $V 900-unret
expect 1 "a row whose run fails" -- $V 900-broken
expect 0 "not-modelled rows only" -- $V 900-reason 900-no-case
# a case naming a variant or scenario that is not there is a mistake in cases.xml: an
# error at its line (exit 1), not a row "not modelled"
expect 1 "a case naming a missing variant" -- $V --format csv 900-no-variant
grep -q "^900-no-variant,.*,error,.*cases.xml:[0-9]*: scenario .* has no variant 'no-such-variant'" \
  "$TMP/out" && ok || bad "a missing variant: $(grep '^900-no-variant' "$TMP/out")"
expect 1 "a case naming a missing scenario" -- $V 900-no-scenario
# ... as the shipped cases.xml's heading says (it said "reported as not modelled")
sed -n '1,/-->/p' "$DATA/validation/cases.xml" | tr -s '\n ' '  ' |
  grep -q "a case whose scenario file does not exist or lacks a variant is an error" &&
  ok || bad "cases.xml's heading does not say a missing scenario or variant is an error"
# ... the unsourced list marks the CPU that borrows a value, not one that states a
# reasoned default, and its heading counts the marked lines
$V 900-safe-ret >"$TMP/out" 2>"$TMP/err"
grep -q "^  x86.pause_cycles = 140: generic\*$" "$TMP/out" &&
  grep -q "^  x86.rdtsc_cycles = 30: generic$" "$TMP/out" &&
  grep -q "^unsourced values .*a CPU marked \* borrows the value, measured or derived on another core, in 1 of them):$" "$TMP/out" &&
  ok || bad "unsourced list's borrowed marks: $(grep -A3 '^unsourced' "$TMP/out" | head -4; grep -E 'pause|rdtsc' "$TMP/out")"
expect 2 "a pattern matching nothing" -- $V 900-nope
# ... and the message lists the row ids the patterns choose from
grep -q "no recorded row matches '900-nope' (.*; the rows: .*900-safe-ret .*900-unret" "$TMP/err" &&
  ok || bad "a pattern matching nothing does not list the rows: $(cat "$TMP/err")"
expect 2 "bad --format" -- $V --format yaml 900-safe-ret
expect 2 "bad --jobs" -- $V --jobs 0 900-safe-ret
expect 2 "missing recorded folder" -- "$NETSIM" validate -q --recorded "$TMP/nowhere"
expect 1 "the whole fixture" -- $V --format csv
cp "$TMP/out" "$TMP/fx.csv"
grep -q '^900-no-case,.*,not-modelled,' "$TMP/fx.csv" && ok || bad "row without a case is listed"
grep -q '^900-broken,.*,error,' "$TMP/fx.csv" && ok || bad "failed run has status error"
rows=$(grep -v '^#' "$TMP/fx.csv" | tail -n +2 | wc -l)
[ "$rows" -eq 9 ] && ok || bad "fixture csv has $rows rows, wanted 9"

# ---- --expected: the same statuses and the same simulated figures
expect 0 "--expected: nothing changed" -- $V --expected "$TMP/fx.csv" 900-safe-ret
sed "/^900-safe-ret,/s/,$rb,/,1$rb,/" "$TMP/fx.csv" >"$TMP/moved.csv"
expect 1 "--expected: a row's simulated figures changed" -- $V --expected "$TMP/moved.csv" 900-safe-ret
grep -q "^changed: 900-safe-ret simulated 1$rb / " "$TMP/err" && ok ||
  bad "the changed row is named with both figures: $(cat "$TMP/err")"
# a row absent from the file that fails (or errors) now is a regression, not a note: a new
# row must not bring a miss in unseen; one that passes is a note
grep -v '^900-unret,' "$TMP/fx.csv" >"$TMP/no-unret.csv"
expect 1 "--expected: a new row that fails" -- $V --expected "$TMP/no-unret.csv" 900-unret
grep -q "^regression: 900-unret is absent in .* and fail now" "$TMP/err" && ok ||
  bad "a new failing row under --expected: $(cat "$TMP/err")"
grep -v '^900-safe-ret,' "$TMP/fx.csv" >"$TMP/no-safe.csv"
expect 0 "--expected: a new row that passes" -- $V --expected "$TMP/no-safe.csv" 900-safe-ret

# ---- the same numbers as netsim run
[ "$(field "$TMP/fx.csv" 900-safe-ret 12)" = "$rb" ] && ok || bad "baseline differs from netsim run ($rb)"
[ "$(field "$TMP/fx.csv" 900-safe-ret 13)" = "$rp" ] && ok || bad "patched differs from netsim run ($rp)"
[ "$(field "$TMP/fx.csv" 900-safe-ret 14)" = "$rd" ] && ok || bad "delta differs from netsim run ($rd)"

# ---- the recorded delta's 95 % interval: last column; 900-unret (CVs 0.5, 3 runs) has one
ci=$(grep '^900-unret,' "$TMP/fx.csv" | awk -F, '{ print $NF }')
awk -v ci="$ci" 'BEGIN { exit !(ci > 150) }' && ok || bad "900-unret interval '$ci', wanted > 150"
[ -z "$(grep '^900-safe-ret,' "$TMP/fx.csv" | awk -F, '{ print $NF }')" ] && ok \
  || bad "900-safe-ret (one CV) has an interval"
grep -q "^# validation rows.*misses inside the recorded delta's 95 % interval: 1 of the 1" \
  "$TMP/fx.csv" && ok || bad "summary counts the miss inside its interval"
grep -q "^# validation rows.*passes outside the recorded delta's 95 % interval" "$TMP/fx.csv" &&
  bad "a fixture without a passing row with an interval counts one" || ok

# ---- verdicts near their boundary: 900-safe-ret's recorded delta moved so that |error| is
# 0.1 pp inside, then 0.1 pp outside its tolerance (10 % of the recorded delta); the
# summary names it (NS_VAL_NEAR_PP, 0.2 pp), and not when the margin is wide
grep -q "^# validation rows.*verdicts within" "$TMP/fx.csv" && bad "a wide margin reported as near" || ok
for side in inside outside; do
  mkdir -p "$D/fx$side"
  cp "$D"/fx/* "$D/fx$side/"
  sign=$([ "$side" = inside ] && echo - || echo +)
  sed -i "/<row id=\"900-safe-ret\"/,/<\/row>/s/<patched value=\"[^\"]*\"/<patched value=\"$(awk -v b="$rb" -v d="$rd" -v s="${sign}0.1" 'BEGIN { printf "%.6f", b * (1 + (d + s) / 90) }')\"/" \
    "$D/fx$side/seed-900.xml"
  $C validate -q --recorded "$D/fx$side" --format csv 900-safe-ret >"$TMP/near.csv" 2>/dev/null
  grep -q "^# validation rows.*; verdicts within 0.2 pp (or a run.s one-operation step) of their boundary: 1 (nearest 900-safe-ret, $side by 0.10 pp)" \
    "$TMP/near.csv" && ok || bad "a verdict 0.1 pp $side its tolerance: $(grep '^# validation rows' "$TMP/near.csv")"
done

# ---- no parameter per validation case: a case's <set> of a parameter is refused on load
mkdir -p "$D/fxset"
cp "$D"/fx/* "$D/fxset/"
sed -i 's|<set path="measure.duration" value="0"/>|&<set path="param.call.cycles" value="3"/>|' \
  "$D/fxset/cases.xml"
expect 2 "a case that sets a parameter" -- $C validate -q --recorded "$D/fxset" 900-safe-ret
grep -q 'cases.xml:[0-9]*: .*param.call.cycles.*no parameter per validation case' "$TMP/err" \
  && ok || bad "the case's parameter set is refused with why: $(cat "$TMP/err")"

# ---- --jobs: identical output
$V --format json >"$TMP/j1.json"
$V --format json --jobs 3 >"$TMP/j3.json"
cmp -s "$TMP/j1.json" "$TMP/j3.json" && ok || bad "--jobs 3 output differs from --jobs 1"
grep -q '"fitted_on_rows"' "$TMP/j1.json" && ok || bad "json has the provenance per profile"
$V --format table -o "$TMP/t.txt" 900-safe-ret && ok || bad "--output"
grep -q 'validation rows passing (within tolerance, right sign): 1/1' "$TMP/t.txt" && ok ||
  bad "table summary line"

# ---- --plot
NETSIM_GNUPLOT='' $V --plot "$TMP/none.png" 900-safe-ret >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -q 'NETSIM_GNUPLOT is set and empty' "$TMP/err" && ok ||
  bad "--plot without gnuplot exits 2 naming NETSIM_GNUPLOT: $(cat "$TMP/err")"
NETSIM_GNUPLOT=/nonexistent/gp $V --plot "$TMP/none.png" 900-safe-ret >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "NETSIM_GNUPLOT names '/nonexistent/gp'" "$TMP/err" && ok ||
  bad "--plot with a NETSIM_GNUPLOT that is no program names it: $(cat "$TMP/err")"
# a gnuplot that fails: its exit status (or signal) and what it printed are the reason,
# exit 1 (not bad input), and neither the image nor -o is written (all or nothing); it
# said "gnuplot failed to render …: " with nothing after, exited 2 and left -o written
printf '#!/bin/sh\necho "gp: cannot draw" >&2\nexit 3\n' >"$TMP/gp-fails"
chmod +x "$TMP/gp-fails"
rm -f "$TMP/gpf.png" "$TMP/gpf.txt"
NETSIM_GNUPLOT="$TMP/gp-fails" $V --plot "$TMP/gpf.png" -o "$TMP/gpf.txt" 900-safe-ret \
  >/dev/null 2>"$TMP/err"
[ $? -eq 1 ] && grep -q "gnuplot ($TMP/gp-fails) failed to render $TMP/gpf.png (.*3): gp: cannot draw; nothing was written" \
  "$TMP/err" && [ ! -e "$TMP/gpf.txt" ] && [ ! -e "$TMP/gpf.png" ] && ok ||
  bad "--plot with a failing gnuplot: exit 1, its reason, nothing written: $(cat "$TMP/err"; ls "$TMP"/gpf.*)"
NETSIM_GNUPLOT=/bin/false $V --plot "$TMP/gpf.png" -o "$TMP/gpf.txt" 900-safe-ret \
  >/dev/null 2>"$TMP/err"
[ $? -eq 1 ] && grep -q "gnuplot (/bin/false) failed to render $TMP/gpf.png (.*1); nothing was written" \
  "$TMP/err" && [ ! -e "$TMP/gpf.txt" ] && ok || bad "--plot with /bin/false: $(cat "$TMP/err")"
# the image is a PNG: a name that does not end in .png is refused before the run, as
# sweep --plot refuses one (it wrote a PNG into out.txt with exit 0)
expect 2 "--plot out.txt" -- $V --plot "$TMP/out.txt" 900-safe-ret
grep -q "^netsim validate: --plot: the image is a PNG, so its name must end in .png .*got '$TMP/out.txt'" \
  "$TMP/err" && [ ! -e "$TMP/out.txt" ] && [ ! -s "$TMP/out" ] && ok ||
  bad "--plot out.txt: $(cat "$TMP/err")"
if command -v gnuplot >/dev/null 2>&1; then
  $V --plot "$TMP/p.png" >/dev/null 2>"$TMP/err"
  [ -s "$TMP/p.png" ] && head -c 4 "$TMP/p.png" | grep -q 'PNG' && ok || { bad "--plot renders a PNG"; cat "$TMP/err"; }
else
  echo "SKIP: gnuplot not installed, --plot rendering not tested"
fi

# ---- what-if: --set (every run), bad sets refused before anything runs
expect 2 "--set cpu.profile" -- $V --set cpu.profile=generic 900-safe-ret
expect 2 "--set an unknown parameter" -- $V --set param.no.such=1 900-safe-ret
grep -q 'no.such' "$TMP/err" && ok || bad "the unknown parameter is named"
# a value only the workload's set-up refuses is an input error too, not a row's error
expect 2 "--set a value the workload refuses" -- $V --set workload.depth=0 900-safe-ret
grep -q "depth" "$TMP/err" && ok || bad "the workload's attribute is named: $(cat "$TMP/err")"
# a --set of what the case sets itself replaces the case's value (it was refused as a
# second --set of the attribute, naming one the user never typed); the metric the recorded
# delta is in cannot be changed, refused naming the case
expect 1 "--set over a case's own set" -- $V --format csv --set measure.duration=50us 900-broken
grep -q '^900-broken,.*,validation,\(pass\|fail\),' "$TMP/out" && ! grep -q 'same attribute' "$TMP/err" && ok ||
  bad "--set over the case's own set: $(cat "$TMP/err"; grep '^900-broken' "$TMP/out")"
expect 2 "--set measure.metric" -- $V --set measure.metric=cycles_per_load 900-safe-ret
grep -q "^netsim validate: --set measure.metric=cycles_per_load: $D/fx/cases.xml:4: row 900-safe-ret is judged on metric cycles_per_call" \
  "$TMP/err" && [ ! -s "$TMP/out" ] && ok || bad "--set measure.metric: $(cat "$TMP/err")"
expect 2 "--set over not-modelled rows only" -- $V --set param.call.cycles=3 900-reason 900-no-case
grep -q -- '--set has no run to apply to' "$TMP/err" && ok || bad "a --set with no run is refused"
expect 2 "--refit over not-modelled rows only" -- $V --refit 900-reason
grep -q -- '--refit has no run to apply to' "$TMP/err" && ok || bad "a --refit with no run is refused"
expect 2 "--set with --expected" -- $V --set param.call.cycles=3 --expected "$TMP/fx.csv" 900-safe-ret
$V --format csv --set param.call.cycles=3 900-safe-ret >"$TMP/wi.csv" 2>"$TMP/err"
grep -q '^# what-if: every run with --set param.call.cycles=3$' "$TMP/wi.csv" && ok \
  || bad "csv names the what-if"
# a newline in a set is escaped in the # line: every line before the column names is a comment
NL=$(printf '\nx'); NL=${NL%x}
$V --format csv --set "kernel.cmdline=quiet${NL}y" 900-safe-ret >"$TMP/winl.csv" 2>"$TMP/err"
awk '/^row,/ { exit !ok } !/^#/ { exit 1 } { ok = 1 }' "$TMP/winl.csv" &&
  grep -q '^# what-if: every run with --set kernel.cmdline=quiet\\ny$' "$TMP/winl.csv" && ok ||
  bad "validate csv # lines broken by a newline: $(grep -v '^#   ' "$TMP/winl.csv" | head -5)"
wb=$(field "$TMP/wi.csv" 900-safe-ret 12)
$C run -q --format csv --set param.call.cycles=3 "$D/scenarios/micro/call-chain.xml" >"$TMP/run3.csv"
[ "$wb" = "$(value "$TMP/run3.csv" plain-ret)" ] && [ "$wb" != "$rb" ] && ok \
  || bad "what-if baseline $wb: not netsim run's with the set (shipped $rb)"

# ---- --run-seeds: every row again under run seeds 1..N, counted per row; the table's own
# figures unchanged; bad counts and a --set of the seed refused before anything runs
expect 2 "--run-seeds 1" -- $V --run-seeds 1 900-safe-ret
expect 2 "--run-seeds 101" -- $V --run-seeds 101 900-safe-ret
expect 2 "--run-seeds with --set seed" -- $V --run-seeds 3 --set seed=2 900-safe-ret
grep -q -- '--run-seeds sets the run seed' "$TMP/err" && ok || bad "the seed clash is said"
$V --format csv --run-seeds 3 900-safe-ret 900-unret >"$TMP/seeds.csv" 2>"$TMP/err"
grep -q ',seeds_run,seeds_passing,seeds_delta_min_pct,seeds_delta_max_pct$' "$TMP/seeds.csv" \
  && ok || bad "csv --run-seeds columns missing"
grep -q '^# seeds_run, seeds_passing: ' "$TMP/seeds.csv" && ok ||
  bad "csv --run-seeds columns not described in the header"
[ "$(field "$TMP/seeds.csv" 900-safe-ret 12)" = "$(printf '%.10g' "$rb")" ] && ok \
  || bad "--run-seeds changed the table's own baseline"
n=$(awk -F, '/^row,/ { for (i = 1; i <= NF; i++) c[$i] = i; next }
     /^900-(safe-ret|unret),/ { printf "%s:%s/%s ", $1, $c["seeds_passing"], $c["seeds_run"] }' \
     "$TMP/seeds.csv")
[ "$n" = "900-safe-ret:3/3 900-unret:0/3 " ] && ok || bad "--run-seeds counts: $n"
# the range is that of netsim run --seed K's comparison, K = 1..3
lo=; hi=
for k in 1 2 3; do
  d=$($C run -q --format csv --seed $k "$D/scenarios/micro/call-chain.xml" |
      grep '^comparison,Safe RET vs plain,' | cut -d, -f10)
  lo=$(awk -v a="$lo" -v d="$d" 'BEGIN { print (a == "" || d < a) ? d : a }')
  hi=$(awk -v a="$hi" -v d="$d" 'BEGIN { print (a == "" || d > a) ? d : a }')
done
got=$(awk -F, '/^row,/ { for (i = 1; i <= NF; i++) c[$i] = i; next }
      /^900-safe-ret,/ { print $c["seeds_delta_min_pct"], $c["seeds_delta_max_pct"] }' "$TMP/seeds.csv")
awk -v g="$got" -v lo="$lo" -v hi="$hi" 'BEGIN { split (g, x, " ");
  exit !((x[1] - lo) ^ 2 < 1e-8 && (x[2] - hi) ^ 2 < 1e-8) }' && ok \
  || bad "--run-seeds range $got, netsim run --seed 1..3 gave $lo .. $hi"
$V --run-seeds 2 900-safe-ret >"$TMP/seeds.txt" 2>"$TMP/err"
grep -q '^over run seeds 1-2 ' "$TMP/seeds.txt" && grep -q '^verdicts the run seed decides: 0$' \
  "$TMP/seeds.txt" && ok || bad "table --run-seeds section: $(grep -A3 '^over run' "$TMP/seeds.txt")"
$V --format json --run-seeds 2 900-safe-ret >"$TMP/seeds.json" 2>"$TMP/err"
grep -A4 '"run_seeds": {' "$TMP/seeds.json" | tr -d ' \n' |
  grep -q '"run_seeds":{"seeds":2,"ran":2,"passing":2,' \
  && ok || bad "json run_seeds"

# ... on a row whose delta depends on the run seed (a copy of the fixture whose 900-safe-ret
# case is the pointer chase's L2 variant against its L1 one, pages at random frames): the
# range is netsim run --seed 1..2's (seed 0 and seed 3 give one figure here, so two seeds
# tell 1..2 from 0..1), min below max, and the what-if's --set stays in force
# on every seed; a row whose runs fail counts no seed; N's bounds are 2 and 100
cp "$DATA/scenarios/micro/pointer-chase.xml" "$D/scenarios/micro/"
mkdir -p "$D/fx2" && cp "$D"/fx/* "$D/fx2/"
sed -i 's|<case row="900-safe-ret" scenario="scenarios/micro/call-chain.xml" baseline="plain-ret"|<case row="900-safe-ret" scenario="scenarios/micro/pointer-chase.xml" baseline="L1-16KiB"|
        s|patched="srso-safe-ret" metric="cycles_per_call"/>|patched="L2-256KiB" metric="cycles_per_load"/>|' \
  "$D/fx2/cases.xml"
RF="--set param.mem.page_frames=random"
$C validate -q --recorded "$D/fx2" --format csv $RF --run-seeds 2 900-safe-ret 900-broken \
  >"$TMP/seeds2.csv" 2>"$TMP/err"
lo=; hi=
for k in 1 2; do
  d=$($C run -q --format csv --seed $k $RF "$D/scenarios/micro/pointer-chase.xml" |
      awk -F, '$1 == "variant" && $2 == "L1-16KiB" { b = $4 } $1 == "variant" && $2 == "L2-256KiB" { p = $4 }
               END { printf "%.6f", 100 * (p / b - 1) }')
  lo=$(awk -v a="$lo" -v d="$d" 'BEGIN { print (a == "" || d < a) ? d : a }')
  hi=$(awk -v a="$hi" -v d="$d" 'BEGIN { print (a == "" || d > a) ? d : a }')
done
got=$(awk -F, '/^row,/ { for (i = 1; i <= NF; i++) c[$i] = i; next }
      /^900-safe-ret,/ { print $c["seeds_run"], $c["seeds_delta_min_pct"], $c["seeds_delta_max_pct"] }' \
      "$TMP/seeds2.csv")
awk -v g="$got" -v lo="$lo" -v hi="$hi" 'BEGIN { split (g, x, " ");
  exit !(x[1] == 2 && lo + 1 < hi && (x[2] - lo) ^ 2 < 1e-8 && (x[3] - hi) ^ 2 < 1e-8) }' && ok \
  || bad "--run-seeds over a seed-dependent row: $got, netsim run --seed 1..2 gave $lo .. $hi"
# (counted from the end: this row's reason is quoted and has commas)
n=$(awk -F, '/^900-broken,/ { printf "%s/%s", $(NF - 2), $(NF - 3) }' "$TMP/seeds2.csv")
[ "$n" = "0/0" ] && ok || bad "--run-seeds counted a row whose runs fail: $n"
expect 0 "--run-seeds 100 (its upper bound)" -- $V --run-seeds 100 900-reason
$V --format json --run-seeds 2 900-unret >"$TMP/seeds3.json" 2>"$TMP/err"
grep -A4 '"run_seeds": {' "$TMP/seeds3.json" | tr -d ' \n' |
  grep -q '"run_seeds":{"seeds":2,"ran":2,"passing":0,' && ok || bad "json run_seeds of a miss"

# ---- calibrate: fit, provenance, conflict
expect 2 "calibrate a not-modelled row" -- $C calibrate -q --recorded "$D/fx" --fit 900-reason
expect 2 "calibrate --fit without rows" -- $C calibrate -q --recorded "$D/fx" --fit
expect 0 "calibrate --fit 900-calib" -- $C calibrate -q --recorded "$D/fx" --fit 900-calib
grep -q '<param name="cpu.ipc" value="[0-9.]*" source="fit on 900-calib, residual [0-9.e-]*"/>' \
  "$D/scenarios/cpus/generic.xml" && ok || bad "profile has the fitted cpu.ipc with provenance"
grep -q 'rows="900-calib"' "$D/fx/calibration.xml" && ok || bad "calibration.xml records the row"
expect 0 "calibrated row validates as calibration" -- $C validate -q --recorded "$D/fx" --format csv 900-calib
grep -q '^900-calib,.*,calibration,pass,' "$TMP/out" && ok || bad "900-calib is a passing calibration row"
# figures only a cpu.ipc above the core's issue width (generic: 4) reproduces: no fit,
# exit 1, nothing written (until 2026-12-04 such a value was taken)
cp "$D/fx/calibration.xml" "$TMP/calibration.before"
cp "$D/scenarios/cpus/generic.xml" "$TMP/generic.fitted"
cp "$D/fx/seed-900.xml" "$TMP/seed-900.before"
$C run -q --format csv --set param.cpu.ipc=6 "$D/scenarios/micro/call-chain.xml" >"$TMP/run6.csv"
set_figures 900-calib "$(printf '%.6f' "$(value "$TMP/run6.csv" plain-ret)")" \
  "$(printf '%.6f' "$(value "$TMP/run6.csv" srso-safe-ret)")"
expect 1 "calibrate --fit of a cpu.ipc above cpu.issue_width" -- $C calibrate -q \
  --recorded "$D/fx" --fit 900-calib
grep -q "refused: cpu.ipc = [0-9.]* exceeds cpu.issue_width = 4 of profile generic" "$TMP/err" &&
  cmp -s "$D/fx/calibration.xml" "$TMP/calibration.before" &&
  cmp -s "$D/scenarios/cpus/generic.xml" "$TMP/generic.fitted" && ok ||
  bad "a cpu.ipc above the issue width: $(cat "$TMP/out" "$TMP/err")"
cp "$TMP/seed-900.before" "$D/fx/seed-900.xml"
# a fit on other rows of that profile would swap evidence and calibration rows: refused
# unless --replace, before anything runs; --dry-run says what it would replace
cp "$D/fx/calibration.xml" "$TMP/calibration.before"
expect 2 "calibrate --fit replacing a fit on other rows" -- $C calibrate -q --recorded "$D/fx" \
  --fit 900-unret
grep -q "calibration.xml records the fit generic cpu.ipc = [0-9.]* on 900-calib: .*give --replace" \
  "$TMP/err" && [ ! -s "$TMP/out" ] && cmp -s "$D/fx/calibration.xml" "$TMP/calibration.before" &&
  ok || bad "a fit replacing another on other rows: $(cat "$TMP/err")"
expect 1 "calibrate --fit --dry-run replacing a fit (its residual too large)" -- $C calibrate \
  -q --recorded "$D/fx" --fit 900-unret --dry-run
grep -q "^replaces the recorded fit generic cpu.ipc = [0-9.]* on 900-calib: those rows count as evidence again" \
  "$TMP/out" && ok || bad "--dry-run does not name the fit it replaces: $(cat "$TMP/out")"
# a case naming a scenario file that is not there: its free parameters cannot be listed,
# so the listing (and a fit of its row) is refused at its line of cases.xml, not left out
expect 2 "calibrate lists with a case's scenario missing" -- $C calibrate --recorded "$D/fx"
grep -q "fx/cases.xml:14: scenario scenarios/micro/no-such-scenario.xml does not exist" "$TMP/err" &&
  [ ! -s "$TMP/out" ] && ok || bad "calibrate lists with a scenario missing: $(cat "$TMP/err")"
expect 2 "calibrate --fit of a row whose scenario is missing" -- $C calibrate -q --recorded "$D/fx" \
  --fit 900-no-scenario --replace
grep -q "fx/cases.xml:14: scenario scenarios/micro/no-such-scenario.xml does not exist" "$TMP/err" &&
  ok || bad "calibrate --fit with a scenario missing: $(cat "$TMP/err")"
cp -r "$D/fx" "$D/fxl"
sed -i '/row="900-no-scenario"/{N;d}' "$D/fxl/cases.xml"
expect 0 "calibrate lists the provenance" -- $C calibrate --recorded "$D/fxl"
grep -q 'fit on 900-calib' "$TMP/out" && ok || bad "calibrate shows the fit"
# --refit: the fit again under a set, nothing written, the calibration row back on its figures
cp "$D/scenarios/cpus/generic.xml" "$TMP/generic.before"
expect 0 "validate --refit under a set" -- $C validate -q --recorded "$D/fx" --format csv \
  --set param.call.cycles=3 --refit 900-calib
grep -q '^# what-if: refit generic cpu.ipc = [0-9.]* (shipped fit [0-9.]*) on 900-calib, target absolute' \
  "$TMP/out" && ok || bad "csv names the refit"
# (quoted fields dropped first: this row's variant has a comma)
awk -F, '/^900-calib,/ { gsub(/"[^"]*"/, ""); $0 = $0; r = $8; s = $12; exit !(s / r > 0.99 && s / r < 1.01) }' "$TMP/out" && ok \
  || bad "refitted calibration row is back on its recorded baseline"
$C validate -q --recorded "$D/fx" --format csv --set param.call.cycles=3 900-calib >"$TMP/norefit.csv"
awk -F, '/^900-calib,/ { gsub(/"[^"]*"/, ""); $0 = $0; r = $8; s = $12; exit !(s / r < 0.95 || s / r > 1.05) }' "$TMP/norefit.csv" \
  && ok || bad "without --refit the set moves the calibration row off its figures"
cmp -s "$D/scenarios/cpus/generic.xml" "$TMP/generic.before" && ok || bad "--refit wrote the profile"
# a refit under a set that narrows the core below the IPC its rows need: NOT A FIT, why
expect 0 "validate --refit beyond the issue width" -- $C validate --recorded "$D/fx" \
  --set param.cpu.issue_width=1.5 --refit 900-calib
grep -q '^WHAT-IF: refit generic cpu.ipc = [0-9.]* .*; NOT A FIT: cpu.ipc = [0-9.]* exceeds cpu.issue_width = 1.5 of profile generic' \
  "$TMP/out" && ok || bad "a refit above the issue width is not marked: $(grep WHAT-IF "$TMP/out")"
# a model change after the fit (here: calls cost 3 cycles more in the profile) leaves the
# recorded fit off its row: validate says so and exits 1, with --expected too
sed -i 's|^  <mitigations |  <param name="call.cycles" value="3" source="a model change after the fit"/>\n&|' \
  "$D/scenarios/cpus/generic.xml"
expect 1 "a fit that no longer holds" -- $C validate -q --recorded "$D/fx" 900-calib
grep -q '^FIT NO LONGER HOLDS: the fit cpu.ipc = [0-9.]* for profile generic' "$TMP/out" && ok ||
  bad "validate names the fit that no longer holds"
$C validate -q --recorded "$D/fx" --format csv 900-calib >"$TMP/drift.csv"
expect 1 "a fit that no longer holds (--expected)" -- $C validate -q --recorded "$D/fx" \
  --expected "$TMP/drift.csv" 900-calib
cp "$TMP/generic.before" "$D/scenarios/cpus/generic.xml"
expect 0 "the fit holds again" -- $C validate -q --recorded "$D/fx" 900-calib
expect 2 "--refit with a set of the fitted parameter" -- $C validate -q --recorded "$D/fx" \
  --set param.cpu.ipc=1 --refit 900-calib
grep -q 'refit fits cpu.ipc' "$TMP/err" && ok || bad "the conflicting set is named"
rm "$D/fx/calibration.xml"
expect 1 "fitted row counted as validation (validate)" -- $C validate -q --recorded "$D/fx" 900-calib
grep -q 'fitted and counted as validation' "$TMP/out" && ok || bad "validate names the conflict"
rm "$D/fxl/calibration.xml"
expect 1 "fitted row counted as validation (calibrate)" -- $C calibrate --recorded "$D/fxl"

# ---- regression check against the committed expected results (the real validation)
if "$NETSIM" --version | grep -q 'sanitizers'; then
  echo "SKIP: expected-results regression check (sanitizer build; make distcheck runs it plainly)"
else
  "$NETSIM" validate -q --jobs "${NETSIM_VALIDATE_JOBS:-2}" \
    --expected "$DATA/validation/expected.csv" >"$TMP/out" 2>"$TMP/err"
  st=$?
  cat "$TMP/err"
  grep '^FIT NO LONGER HOLDS' "$TMP/out"
  [ "$st" -eq 0 ] && ok || bad "regression against validation/expected.csv (exit $st, see above)"
  # seed 002's clone rows at 100 filters run the same simulations as the plain ones
  # (clone_skb 0 either way): the table says their verdicts are one prediction
  grep -q '^  002-r9-5950x-clone-f100: the runs of 002-r9-5950x-f100$' "$TMP/out" && ok ||
    bad "the table does not name validation rows that share runs"
  grep -q "^validation rows passing (within tolerance, right sign): [0-9]*/16 (3 of them judge another row's runs: 13 distinct simulations);" "$TMP/out" && ok ||
    bad "the summary does not count the simulations behind the validation rows"
  grep -q '^002-r9-5950x-clone-f100,.*,its runs are those of 002-r9-5950x-f100: the same simulation' \
    "$DATA/validation/expected.csv" && ok || bad "expected.csv's reason does not name the shared runs"
fi

echo "test-validate: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
