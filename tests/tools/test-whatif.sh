#!/bin/sh
# test-whatif.sh — the models run clean at the edges of what --set allows: each run below is
# a what-if a user can type (another CPU profile under a fitted scenario, IPv6 wildcard
# sockets, the smallest and largest datagrams, socket and filter counts, every tc verdict, the
# spectre_v2 and mitigation modes), for a millisecond of simulated time. Each must exit 0
# with its results table and log nothing on standard error: no GLib critical (make check
# sets G_DEBUG=fatal-warnings, so one aborts the run) and, in the sanitizer build CI
# uses, no AddressSanitizer or UndefinedBehaviorSanitizer report. The set grew out of a
# what-if fuzz that found a read past a string and a per-CPU area running out.
set -u
NETSIM=${NETSIM:-./netsim}
DATA=${NETSIM_DATADIR:-.}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# shellcheck source=tests/lib.sh
. "$DATA/tests/lib.sh"
SHORT="--set measure.warmup=200us --set measure.duration=1ms --set measure.repetitions=1"
# clean SCENARIO VARIANT SET... : the variant runs with the sets, exit 0, a result row,
# nothing on standard error but notes.
clean () {
  sc=$1 variant=$2; shift 2
  sets=
  for s in "$@"; do sets="$sets --set $s"; done
  # shellcheck disable=SC2086  # option lists split on purpose
  "$NETSIM" run -q "$DATA/scenarios/$sc" --variant "$variant" $SHORT $sets >"$TMP/out" 2>"$TMP/err"
  got=$?
  if [ "$got" -ne 0 ]; then
    bad "$sc $variant $*: exit $got"; head -c 2000 "$TMP/err"
  elif ! grep -q "^$variant " "$TMP/out"; then
    bad "$sc $variant $*: no result row"
  elif grep -v '^netsim run: note: ' "$TMP/err" | grep -q .; then
    bad "$sc $variant $*: standard error:"; head -c 2000 "$TMP/err"
  else
    ok
  fi
}

IPERF=udp-lookup-iperf3.xml
FLOOD=micro/udp-flood.xml
# seed 000's scenario carries a fitted cpu.ipc: another profile prints a note about it
clean $IPERF ipv4-1G-baseline cpu.profile=ryzen9-5950x
clean $IPERF ipv4-1G-patched cpu.profile=i5-3337u kernel.cmdline=spectre_v2=retpoline,lfence
clean $IPERF ipv6-1G-baseline workload.extra-sockets=16 workload.extra-bind=wildcard
clean $IPERF ipv4-1G-baseline workload.extra-sockets=16 workload.extra-bind=wildcard \
  workload.server-family=inet
clean $IPERF ipv6-1G-baseline workload.extra-sockets=300 workload.extra-reuseport=true \
  workload.extra-position=head
clean $IPERF ipv4-MAX-baseline workload.server-family=inet workload.extra-sockets=8 \
  workload.extra-reuseport=true workload.extra-position=head workload.extra-connected=2
clean $IPERF ipv6-MAX-baseline workload.extra-sockets=16 workload.extra-reuseport=true \
  workload.extra-bind=wildcard workload.extra-connected=16
clean $IPERF ipv4-MAX-baseline workload.threading=per-stream workload.streams=8 \
  workload.server-cpu=8
clean $IPERF ipv6-MAX-patched workload.length=65488 workload.streams=2
clean $IPERF ipv4-10G-baseline workload.length=16 workload.streams=1 workload.rate=1M
clean $IPERF ipv4-1G-baseline kernel.cmdline=spectre_v2=ibrs cpu.profile=xeon-gold-6230r
clean $IPERF ipv4-1G-baseline kernel.cmdline=nopti cpu.profile=i5-3337u
clean $FLOOD ipv4-8920-n1 workload.sockets=4096
clean $FLOOD ipv6-8920-n1 workload.sockets=513 cpu.profile=ryzen9-7950x
clean $FLOOD ipv4-64-n1 workload.length=65507 kernel.cmdline=mitigations=off
for cpu in 7950x 5950x 3337u 10210u 6230r; do
  clean "tc-pktgen-matchall-$cpu.xml" "$cpu-f1-before" workload.filters=0 workload.pkt-size=641
  clean "tc-pktgen-matchall-$cpu.xml" "$cpu-f100-after" workload.filters=4096 \
    workload.clone-skb=1000
done
for action in pass ok drop shot pipe reclassify stolen; do
  clean tc-pktgen-matchall-7950x.xml 7950x-f100-after workload.action=$action \
    workload.pkt-size=1500 workload.clone-skb=1
done
clean tc-pktgen-matchall-6230r.xml 6230r-f100-before kernel.cmdline=spectre_v2=off \
  cpu.profile=generic

echo "test-whatif.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
