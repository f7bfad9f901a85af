#!/bin/sh
# test-doc-figures.sh — the figures the docs quote in prose, each followed by a marker
# naming where it comes from (<!--=000-ipv4-1G:sim-->, tools/doc-figures), agree with
# validation/expected.csv and validation/calibration.xml; and the tool finds a stale
# figure, rewrites it in the figure's own style, and refuses a bad marker. Needs python3;
# skipped without it.
set -u
DATA=${NETSIM_DATADIR:-.}
TOOL="$DATA/tools/doc-figures"
# The held figures the docs had when this test was written: a lost marker fails.
MIN_HELD=103

if ! command -v python3 >/dev/null 2>&1; then
  echo "SKIP: python3 not installed (tools/debian-packages installs it)"
  exit 77
fi

fail=0
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

# expect STATUS TEXT -- ARGS: the tool exits STATUS and prints TEXT (stdout or stderr;
# an empty TEXT: anything).
expect () {
  want=$1 text=$2
  shift 3
  python3 "$TOOL" --data "$DATA" "$@" >"$tmp/out" 2>&1
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
printf 'ok +11.92 %%<!--=000-ipv4-1G:sim--> here\nstale **+12.00 %%**<!--=000-ipv4-1G:sim-->, ratio 1.800<!--=ratio:000-ipv4-mitoff-1G/000-ipv4-1G-->\nmargin 3 pp<!--=000-ipv4-1G:margin--> end\n' >"$tmp/doc.md"
expect 1 "doc.md:2: +12.00 is +11.92 now (000-ipv4-1G:sim)" -- --check "$tmp/doc.md"
expect 1 "doc.md:2: 1.800 is 1.713 now" -- --check "$tmp/doc.md"
expect 1 "doc.md:3: 3 is 0 now (000-ipv4-1G:margin)" -- --check "$tmp/doc.md"
expect 0 "3 of 4 held figures rewritten" -- --update "$tmp/doc.md"
printf 'ok +11.92 %%<!--=000-ipv4-1G:sim--> here\nstale **+11.92 %%**<!--=000-ipv4-1G:sim-->, ratio 1.713<!--=ratio:000-ipv4-mitoff-1G/000-ipv4-1G-->\nmargin 0 pp<!--=000-ipv4-1G:margin--> end\n' >"$tmp/want.md"
if ! cmp -s "$tmp/doc.md" "$tmp/want.md"; then
  echo "FAIL: --update wrote:"; sed 's/^/  /' "$tmp/doc.md"; fail=1
fi
expect 0 "" -- --check "$tmp/doc.md"

# A minus is written as the docs write it (U+2212), a magnitude without a sign.
printf 'err −11.73<!--=000-ipv4-MAX:err-->, by 11.73 pp<!--=000-ipv4-MAX:err-->, −1.25 %%<!--=002-i5-10210u-f100:sim-->\n' >"$tmp/sign.md"
expect 0 "" -- --check "$tmp/sign.md"
printf 'err +11.73<!--=000-ipv4-MAX:err-->\n' >"$tmp/sign.md"
expect 1 "+11.73 is −11.73 now" -- --check "$tmp/sign.md"

# Too few held figures fail (a marker was lost).
expect 1 "fewer than --min 5" -- --check --min 5 "$tmp/want.md"

# Bad markers are input errors, named by file and line.
printf 'a\nx 3<!--=no-such-row:sim-->\n' >"$tmp/bad.md"
expect 2 "bad.md:2: no row 'no-such-row'" -- "$tmp/bad.md"
printf 'x 3<!--=000-ipv4-1G:speed-->\n' >"$tmp/bad.md"
expect 2 "unknown field 'speed'" -- "$tmp/bad.md"
printf 'x <!--=000-ipv4-1G:sim-->\n' >"$tmp/bad.md"
expect 2 "has no figure just before it" -- "$tmp/bad.md"
printf 'x 3<!--=fit:no-such-cpu-->\n' >"$tmp/bad.md"
expect 2 "no fit for profile 'no-such-cpu'" -- "$tmp/bad.md"
mkdir "$tmp/doc" && printf 'was +11.93<!--=000-ipv4-1G:sim-->\n' >"$tmp/doc/history.md"
expect 2 "history.md:1: a figure marker in the history" -- "$tmp/doc/history.md"
expect 2 "cannot read" -- "$tmp/missing.md"

exit $fail
