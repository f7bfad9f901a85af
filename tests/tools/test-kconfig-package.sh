#!/bin/sh
# test-kconfig-package.sh — tools/kconfig-package writes a package netsim loads: the values
# a .config gives the options the models read, '# … is not set' as n, the rest left out;
# the shipped Debian packages are what it writes from their files (their options); bad
# input exits 2 with the file and line. Needs python3; skipped without it.
set -u
NETSIM=${NETSIM:-./netsim}
DATA=${NETSIM_DATADIR:-.}
BUILD=$(dirname "$NETSIM")

# shellcheck source=tests/lib.sh
. "$DATA/tests/lib.sh"
require_python3
make_tmp

TOOL="python3 $DATA/tools/kconfig-package --tree $DATA --netsim $NETSIM"

# a .config's values for the options the models read, in name order
$TOOL "$DATA/tests/data/kconfig/config-good" mine "a test" "tests/data/kconfig/config-good" \
  >"$tmp/mine.xml" 2>"$tmp/err" && ok || bad "the tool refused config-good: $(cat "$tmp/err")"
grep '<option' "$tmp/mine.xml" >"$tmp/options"
printf '%s\n' '  <option name="CONFIG_NET_CLS_MATCHALL" value="m"/>' \
  '  <option name="CONFIG_PREEMPT_VOLUNTARY" value="y"/>' \
  '  <option name="CONFIG_SLAB_FREELIST_RANDOM" value="n"/>' >"$tmp/want"
cmp -s "$tmp/options" "$tmp/want" && ok ||
  bad "options written: $(cat "$tmp/options") (want CC_VERSION_TEXT and NR_CPUS left out)"
grep -q '<kconfig name="mine" kernel="6.12.95">' "$tmp/mine.xml" && ok ||
  bad "header: $(grep '<kconfig' "$tmp/mine.xml")"
# netsim loads it (the fuzz replay's --must-load: a package or an error, and it must load)
"$BUILD/tests/fuzz/replay-kconfig" --must-load "$tmp/mine.xml" >"$tmp/out" 2>&1 && ok ||
  bad "netsim does not load the written package: $(cat "$tmp/out")"
# the shipped Debian packages name every model option their files have: the tool's option
# list (sim/ and models/) covers each shipped option
for pkg in "$DATA"/scenarios/configs/debian-*.xml; do
  sed -n 's/.*<option name="\([A-Z0-9_]*\)".*/\1/p' "$pkg" | while read -r name; do
    grep -rqs "\"$name\"" "$DATA/sim" "$DATA/models" || echo "$name"
  done >"$tmp/unread"
  [ ! -s "$tmp/unread" ] && ok || bad "$pkg has options no model reads: $(cat "$tmp/unread")"
done

# bad input: exit 2, the file and line
# (the file is read by netsim's own reader, `netsim list configs`, so its refusals are a
# run's: m for a bool too, which a reader of its own would have let through)
for f in config-no-header:1 config-twice:3 config-open-quote:2 config-not-a-line:2 \
         config-bool-module:2; do
  name=${f%%:*}
  line=${f##*:}
  $TOOL "$DATA/tests/data/kconfig/$name" x d s >/dev/null 2>"$tmp/err"
  rc=$?
  [ $rc -eq 2 ] && grep -q "$name:$line:" "$tmp/err" && ok ||
    bad "$name: exit $rc, want 2 at line $line: $(cat "$tmp/err")"
done
$TOOL "$DATA/tests/data/kconfig/config-good" 'a b' d s >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "a name with a space was taken"

echo "kconfig-package: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
