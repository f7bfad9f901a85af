#!/bin/sh
# test-replay.sh — runs the fuzz targets' contract over every scenario, CPU profile and
# test input of the tree (and a few --set strings): each load must give a result or an
# error with a message, and the shipped scenarios, profiles and good inputs must load. Under the sanitizer build (tools/test-all) this also checks every
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
[ "$fail" -eq 0 ] && echo "replayed every input through both fuzz targets"
exit "$fail"
