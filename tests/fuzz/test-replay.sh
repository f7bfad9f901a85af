#!/bin/sh
# test-replay.sh — runs the fuzz targets' contract over every scenario, CPU profile, kernel
# config package and test input of the tree (and a few --set strings), over sweep outputs whole, torn and
# broken, and over the recorded results with one file replaced: each load must give a
# result or an error with a message; what the tree ships must load. Under the sanitizer build (tools/test-all) this also checks every
# input for memory errors. Crash files from tools/fuzz belong in tests/data/bad.
set -u
BUILD=$(dirname "${NETSIM:-./netsim}")
DATA=${NETSIM_DATADIR:-.}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0

# replay TARGET FILE... : one run over all files; a non-zero exit fails the test.
replay () {
  target=$1; shift
  if ! "$BUILD/tests/fuzz/replay-$target" "$@" >"$TMP/out" 2>&1; then
    fail=1; echo "FAIL: replay-$target broke its contract on the last file it names:"
    tail -5 "$TMP/out"
  fi
}

# Scenarios followed by NUL-separated --set strings, good and bad.
sets=0
for s in 'param.cpu.ipc=1' 'param.cpu.ipc=-1' 'workload.streams=0' 'no.such=1' '=' \
         'measure.metric=nope' 'kernel.patch[9].name=x' 'variants.variant[0].set=1'; do
  sets=$((sets + 1))
  { cat "$DATA/scenarios/udp-lookup-iperf3.xml"; printf '\000%s' "$s"; } >"$TMP/sets-$sets.in"
done

{ cat "$DATA/scenarios/udp-lookup-iperf3.xml"; printf '\000param.cpu.ipc=1\000workload.streams=3'; } \
  >"$TMP/good-sets.in"
replay scenario --must-load "$DATA"/scenarios/*.xml "$DATA"/scenarios/micro/*.xml \
  "$DATA"/tests/data/good/*.xml "$TMP/good-sets.in"
replay scenario "$DATA"/tests/data/bad/*.xml "$TMP"/sets-*.in
replay profile --must-load "$DATA"/scenarios/cpus/*.xml
replay profile "$DATA"/tests/data/bad/*.xml
replay kconfig --must-load "$DATA"/scenarios/configs/*.xml "$DATA"/tests/data/kconfig/config-good
replay kconfig "$DATA"/tests/data/bad/*.xml "$DATA"/scenarios/cpus/*.xml \
  "$DATA"/tests/data/kconfig/config-[!g]*

# Sweep outputs for fuzz-resume's grid: a real one (whole, half, torn) must resume; broken
# ones must resume or be refused with a message.
SWEEP="--set measure.warmup=2us --set measure.duration=20us --param workload.depth=1,2,3 --param seed=1,2"
# shellcheck disable=SC2086
"${NETSIM:-./netsim}" sweep -q $SWEEP -o "$TMP/sweep.csv" "$DATA/scenarios/micro/call-chain.xml" \
  || { echo "FAIL: netsim sweep for fuzz-resume's grid"; fail=1; }
# the header names the build that wrote it, and --resume takes only that build's files:
# the file is replay-resume's as far as the build goes (the same sources, linked otherwise)
build=$(sha256sum "$BUILD/tests/fuzz/replay-resume" | cut -d' ' -f1)
sed -i "s/^# netsim-build .*/# netsim-build sha256 $build/" "$TMP/sweep.csv"
head -n -3 "$TMP/sweep.csv" >"$TMP/half.csv"
{ cat "$TMP/half.csv"; tail -n 3 "$TMP/sweep.csv" | head -n 1 | cut -c1-20 | tr -d '\n'; } >"$TMP/torn.csv"
replay resume --must-load "$TMP/sweep.csv" "$TMP/half.csv" "$TMP/torn.csv"
grep -v '^#' "$TMP/sweep.csv" >"$TMP/no-header.csv"
sed 's/,/;/' "$TMP/sweep.csv" >"$TMP/semicolons.csv"
{ cat "$TMP/sweep.csv"; tail -n 1 "$TMP/sweep.csv"; } >"$TMP/duplicate.csv"
{ cat "$TMP/half.csv"; printf '99,"unterminated\n'; } >"$TMP/quote.csv"
printf '' >"$TMP/empty.csv"
replay resume "$TMP/no-header.csv" "$TMP/semicolons.csv" "$TMP/duplicate.csv" \
  "$TMP/quote.csv" "$TMP/empty.csv" "$DATA"/tests/data/bad/binary-junk.xml
# Recorded results: byte N picks the file fuzz-recorded replaces. The shipped files must
# load; cut short, emptied or swapped for another kind, they must load or be refused.
i=0
for f in seed-000 seed-001 seed-002 seed-003 seed-004 cases calibration; do
  pick="\\0$(printf %o "$i")"   # printf %b turns \0N into byte N
  { printf '%b' "$pick"; cat "$DATA/validation/$f.xml"; } >"$TMP/rec-$f.in"
  { printf '%b' "$pick"; head -c 700 "$DATA/validation/$f.xml"; } >"$TMP/cut-$f.in"
  printf '%b' "$pick" >"$TMP/empty-$f.in"
  { printf '%b' "$pick"; cat "$DATA/validation/seed-002.xml"; } >"$TMP/swap-$f.in"
  i=$((i + 1))
done
replay recorded --must-load "$TMP"/rec-*.in
replay recorded "$TMP"/cut-*.in "$TMP"/empty-*.in "$TMP"/swap-*.in

[ "$fail" -eq 0 ] && echo "replayed every input through the four fuzz targets"
exit "$fail"
