#!/bin/sh
# test-cli.sh — the netsim command line end to end: exit statuses, formats, determinism,
# --set, --output, list. Uses $NETSIM and $NETSIM_DATADIR from the test environment.
set -u
NETSIM=${NETSIM:-./netsim}
DATA=${NETSIM_DATADIR:-.}
MICRO="$DATA/scenarios/micro"
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

expect 0 "--version" -- "$NETSIM" --version
grep -q '^netsim [0-9]' "$TMP/out" || bad "--version prints the version"
# one attribute set twice, however spelt, is refused (the last would win unseen)
expect 2 "--set twice" -- "$NETSIM" run -q --set measure.duration=50us \
  --set 'measure[1].duration=200us' "$DATA/scenarios/micro/call-chain.xml"
grep -q "set the same attribute" "$TMP/err" && ok || bad "--set twice: $(cat "$TMP/err")"
expect 2 "no command" -- "$NETSIM"
expect 2 "unknown command" -- "$NETSIM" frobnicate
expect 0 "--help" -- "$NETSIM" --help
# the command list names calibrate's two jobs: fitting rows, and --host (manual, "netsim calibrate")
grep -q "^  calibrate .*--host" "$TMP/out" && ok || bad "netsim --help: calibrate without --host: $(cat "$TMP/out")"
# netsim help COMMAND prints COMMAND's help, as COMMAND --help does (it printed the
# command list); a command it does not know, or two, are usage errors
for cmd in run validate calibrate sweep list; do
  "$NETSIM" "$cmd" --help >"$TMP/help-opt" 2>&1
  expect 0 "help $cmd" -- "$NETSIM" help "$cmd"
  cmp -s "$TMP/out" "$TMP/help-opt" && grep -q "^  $cmd \[OPTION" "$TMP/out" && ok ||
    bad "netsim help $cmd is not $cmd --help: $(head -3 "$TMP/out")"
done
expect 0 "help alone" -- "$NETSIM" help
grep -q "^netsim help COMMAND (or netsim COMMAND --help) explains each" "$TMP/out" && ok ||
  bad "netsim help: $(cat "$TMP/out")"
expect 2 "help an unknown command" -- "$NETSIM" help frob
grep -q "^netsim help: unknown command 'frob'" "$TMP/err" && ok || bad "help frob: $(cat "$TMP/err")"
expect 2 "help two commands" -- "$NETSIM" help run sweep
# help explains itself with the usage (it said "unknown command 'help'"); --help and
# --version take no argument (a stray one was ignored, exit 0)
"$NETSIM" help >"$TMP/usage"
for arg in help --help -h; do
  expect 0 "help $arg" -- "$NETSIM" help "$arg"
  cmp -s "$TMP/out" "$TMP/usage" && ok || bad "netsim help $arg is not the usage: $(cat "$TMP/err")"
done
for opt in --help -h --version -V; do
  expect 2 "$opt with an argument" -- "$NETSIM" "$opt" extra
  grep -q "^netsim: $opt takes no argument, got 'extra'" "$TMP/err" && [ ! -s "$TMP/out" ] &&
    ok || bad "netsim $opt extra: $(cat "$TMP/err")"
done
expect 0 "run --help" -- "$NETSIM" run --help
grep -q -- '--set' "$TMP/out" || bad "run --help explains --set"
expect 2 "run without a scenario" -- "$NETSIM" run
expect 2 "run a missing file" -- "$NETSIM" run "$TMP/nope.xml"
# an empty scenario name is refused (it named the data folder: "…: cannot read: Is a
# directory"); a scenario or CPU profile that is not a regular file too, up front: netsim
# reads it several times (a pipe gave "file is empty", a FIFO hung; timeout: status 124)
expect 2 "run an empty name" -- "$NETSIM" run -q ""
grep -q "^netsim run: the scenario name is empty" "$TMP/err" && ok ||
  bad "run \"\": $(cat "$TMP/err")"
cat "$MICRO/call-chain.xml" | "$NETSIM" run -q /dev/stdin >"$TMP/out" 2>"$TMP/err"
[ $? -eq 2 ] && [ ! -s "$TMP/out" ] &&
  grep -q "^netsim run: /dev/stdin: not a regular file (a pipe or device): netsim reads it several times; save it to a file$" "$TMP/err" &&
  ok || bad "run a pipe: $(cat "$TMP/err")"
mkfifo "$TMP/scenario-fifo.xml"
expect 2 "run a FIFO" -- timeout 20 "$NETSIM" run -q "$TMP/scenario-fifo.xml"
grep -q "scenario-fifo.xml: not a regular file" "$TMP/err" && ok || bad "run a FIFO: $(cat "$TMP/err")"
expect 2 "sweep a FIFO" -- timeout 20 "$NETSIM" sweep -q -o "$TMP/fifo-sweep.csv" \
  --param measure.duration=1ms,2ms "$TMP/scenario-fifo.xml"
grep -q "scenario-fifo.xml: not a regular file" "$TMP/err" && ok || bad "sweep a FIFO: $(cat "$TMP/err")"
expect 2 "a FIFO as CPU profile" -- timeout 20 "$NETSIM" run -q --variant plain-ret \
  --set "cpu.profile=$TMP/scenario-fifo.xml" "$MICRO/call-chain.xml"
grep -q "attribute 'profile': $TMP/scenario-fifo.xml: not a regular file" "$TMP/err" && ok ||
  bad "a FIFO as CPU profile: $(cat "$TMP/err")"
rm -f "$TMP/scenario-fifo.xml"
expect 2 "bad --format" -- "$NETSIM" run -q --format yaml "$MICRO/call-chain.xml"
expect 2 "unknown option" -- "$NETSIM" run --frob "$MICRO/call-chain.xml"
grep -q "^netsim run: .*--frob" "$TMP/err" || bad "a usage error names the subcommand"
expect 2 "list: unknown option" -- "$NETSIM" list --frob
grep -q "^(see netsim list --help)" "$TMP/err" || bad "a usage error points to the subcommand's --help"

# an option that takes one value is refused a second time (GLib would keep the last),
# by either of its names; repeatable ones (--set) are not
expect 2 "run --variant twice" -- "$NETSIM" run -q --variant nope --variant plain-ret \
  "$MICRO/call-chain.xml"
grep -q "^netsim run: --variant given twice: it takes one value" "$TMP/err" && [ ! -s "$TMP/out" ] &&
  ok || bad "--variant twice: $(cat "$TMP/err")"
expect 2 "run -f and --format" -- "$NETSIM" run -q -f csv --format json "$MICRO/call-chain.xml"
grep -q "^netsim run: --format given twice" "$TMP/err" && ok || bad "-f, --format: $(cat "$TMP/err")"
expect 2 "run -f twice" -- "$NETSIM" run -q -f csv -f csv "$MICRO/call-chain.xml"
grep -q "^netsim run: -f given twice" "$TMP/err" && ok || bad "-f twice: $(cat "$TMP/err")"
expect 2 "run --top twice" -- "$NETSIM" run -q --top 3 --top=4 "$MICRO/call-chain.xml"
grep -q "^netsim run: --top given twice" "$TMP/err" && ok || bad "--top twice: $(cat "$TMP/err")"
expect 2 "run --top not a number" -- "$NETSIM" run -q --top 3x "$MICRO/call-chain.xml"
grep -q "^netsim run: --top: expected an integer, got '3x'" "$TMP/err" && ok ||
  bad "--top 3x: $(cat "$TMP/err")"
expect 2 "run --top without a section it limits" -- "$NETSIM" run -q --top 5 "$MICRO/call-chain.xml"
grep -q "^netsim run: --top: it limits the table's --breakdown and --explain, and neither is asked for" \
  "$TMP/err" && ok || bad "--top without -b/-e: $(cat "$TMP/err")"
expect 2 "run --top with csv" -- "$NETSIM" run -q --top 5 -f csv "$MICRO/call-chain.xml"
grep -q "^netsim run: --top: .*this output is not the table" "$TMP/err" && ok ||
  bad "--top with csv: $(cat "$TMP/err")"
expect 2 "run --top negative" -- "$NETSIM" run -q --top -1 -b "$MICRO/call-chain.xml"
grep -q "^netsim run: --top: expected 0 to 2147483647" "$TMP/err" && ok || bad "--top -1: $(cat "$TMP/err")"
expect 2 "run --top past gint" -- "$NETSIM" run -q --top 99999999999 "$MICRO/call-chain.xml"
grep -q "^netsim run: --top: expected 0 to 2147483647, got '99999999999'" \
  "$TMP/err" && ok || bad "--top 99999999999: $(cat "$TMP/err")"
# a value past gint is refused naming the option's own range, not gint's
expect 2 "sweep --repeat past gint" -- "$NETSIM" sweep --repeat 99999999999 --param seed=1,2 \
  -o "$TMP/never.csv" "$MICRO/call-chain.xml"
grep -q "^netsim sweep: --repeat: expected 1 to 2147483647, got '99999999999'" "$TMP/err" &&
  [ ! -e "$TMP/never.csv" ] && ok || bad "sweep --repeat 99999999999: $(cat "$TMP/err")"
expect 2 "validate --run-seeds past its range" -- "$NETSIM" validate --run-seeds 101
grep -q "^netsim validate: --run-seeds: expected 2 to 100 seeds (or 0, none), got '101'" \
  "$TMP/err" && ok || bad "validate --run-seeds 101: $(cat "$TMP/err")"
expect 2 "validate --run-seeds 1" -- "$NETSIM" validate --run-seeds 1
grep -q "^netsim validate: --run-seeds: expected 2 to 100 seeds (or 0, none), got '1'" \
  "$TMP/err" && ok || bad "validate --run-seeds 1: $(cat "$TMP/err")"
# no value stands for "not given" (the options layer records it): gint's least value is
# refused as any other negative one, not taken as the default
expect 2 "run --top at G_MININT" -- "$NETSIM" run -q --top -2147483648 -b "$MICRO/call-chain.xml"
grep -q "^netsim run: --top: expected 0 to 2147483647" "$TMP/err" && ok ||
  bad "--top -2147483648: $(cat "$TMP/err")"
expect 2 "calibrate --runs at G_MININT" -- "$NETSIM" calibrate --host --runs -2147483648 -o "$TMP/h.xml"
grep -q "^netsim calibrate: --runs: expected 1 to 100, got '-2147483648'" "$TMP/err" && [ ! -e "$TMP/h.xml" ] && ok ||
  bad "calibrate --runs -2147483648: $(cat "$TMP/err")"
expect 2 "calibrate --jobs at G_MININT" -- "$NETSIM" calibrate --fit 000-ipv4-mitoff-1G --jobs -2147483648
grep -q "^netsim calibrate: --jobs" "$TMP/err" && ok || bad "calibrate --jobs -2147483648: $(cat "$TMP/err")"
# --jobs takes 1 to 4 × the processors (more only share them thinner, each worker a whole
# simulated machine): a value past that, or past gint, is refused naming that range
expect 2 "sweep --jobs a million" -- "$NETSIM" sweep -q --jobs=1000000 -o "$TMP/jm.csv" \
  --param workload.depth=2 "$MICRO/call-chain.xml"
cpus=$(sed -n "s/^netsim sweep: --jobs: expected 1 to [0-9]* (4 × the \([0-9]*\) processors here.*, got '1000000'$/\1/p" \
  "$TMP/err")
max=$((4 * ${cpus:-0}))
range="expected 1 to $max (4 × the $cpus processors here"
[ "${cpus:-0}" -ge 1 ] && grep -q "^netsim sweep: --jobs: $range" "$TMP/err" &&
  [ ! -e "$TMP/jm.csv" ] && ok || bad "sweep --jobs=1000000: $(cat "$TMP/err")"
expect 2 "validate --jobs past gint" -- "$NETSIM" validate -q --jobs 99999999999 002-r9-7950x-f1
grep -q "^netsim validate: --jobs: $range.*, got '99999999999'" "$TMP/err" && [ ! -s "$TMP/out" ] &&
  ok || bad "validate --jobs 99999999999: $(cat "$TMP/err")"
expect 2 "calibrate --jobs one past the most" -- "$NETSIM" calibrate --fit 000-ipv4-mitoff-1G \
  --dry-run --jobs $((max + 1))
grep -q "^netsim calibrate: --jobs: $range" "$TMP/err" && ok ||
  bad "calibrate --jobs $((max + 1)): $(cat "$TMP/err")"
expect 0 "validate --jobs at the most" -- "$NETSIM" validate -q --jobs "$max" 002-r9-7950x-f1
expect 0 "sweep --help" -- "$NETSIM" sweep --help
grep -q -- "--jobs=N .*at most 4 times that" "$TMP/out" && ok || bad "sweep --help: no --jobs bound"
expect 2 "run --jobs one past the most" -- "$NETSIM" run -q --jobs $((max + 1)) \
  "$MICRO/call-chain.xml"
grep -q "^netsim run: --jobs: $range" "$TMP/err" && [ ! -s "$TMP/out" ] && ok ||
  bad "run --jobs $((max + 1)): $(cat "$TMP/err")"
# run --jobs: the variants run on threads at once, and everything the run writes is the
# same byte for byte as one after another (the table's sections, JSON, the folded stacks,
# the notes); three jobs over the what-if scenario's twenty variants, and over a what-if
for j in 1 3; do
  expect 0 "run --jobs $j, every section" -- "$NETSIM" run -q -j $j --breakdown --explain \
    --stat --inlining --set measure.duration=200us --folded "$TMP/fold-j$j" \
    "$DATA/scenarios/tc-pktgen-whatif-7950x.xml"
  mv "$TMP/out" "$TMP/table-j$j"; mv "$TMP/err" "$TMP/err-j$j"
  expect 0 "run --jobs $j, JSON with a what-if" -- "$NETSIM" run -q -j $j -f json \
    --set measure.duration=200us --what-if kernel.config.CONFIG_PREEMPT_VOLUNTARY=y \
    "$DATA/scenarios/tc-pktgen-whatif-7950x.xml"
  mv "$TMP/out" "$TMP/json-j$j"
  # one variant and its what-if twin: the two run together
  expect 0 "run --jobs $j, one variant's what-if" -- "$NETSIM" run -q -j $j --explain \
    --variant 7950x-f100-before --set measure.duration=200us \
    --what-if kernel.cmdline=spectre_v2=off "$DATA/scenarios/tc-pktgen-whatif-7950x.xml"
  mv "$TMP/out" "$TMP/pair-j$j"
done
cmp -s "$TMP/table-j1" "$TMP/table-j3" && cmp -s "$TMP/fold-j1" "$TMP/fold-j3" &&
  cmp -s "$TMP/err-j1" "$TMP/err-j3" && cmp -s "$TMP/json-j1" "$TMP/json-j3" &&
  cmp -s "$TMP/pair-j1" "$TMP/pair-j3" && grep -q '^why 7950x-f100-before' "$TMP/pair-j3" &&
  [ "$(grep -c '^  7950x-' "$TMP/table-j3")" -ge 20 ] && ok ||
  bad "run --jobs 3 differs from --jobs 1: $(diff "$TMP/table-j1" "$TMP/table-j3" | head -5)"
# a variant that fails stops the run with its own error whatever --jobs, as in turn: the
# first one in the scenario's order (the 100-filter "before" variant refuses 8 set-up
# CPUs on a 4-CPU machine; the variants after it are not waited for)
sed 's|<variant name="3337u-f100-before">|&<set path="workload.setup-cpus" value="8"/>|' \
  "$DATA/scenarios/tc-pktgen-matchall-3337u.xml" >"$TMP/bad-setup.xml"
for j in 1 3; do
  expect 2 "run --jobs $j, a failing variant" -- "$NETSIM" run -q -j $j \
    --set measure.duration=200us "$TMP/bad-setup.xml"
  mv "$TMP/err" "$TMP/fail-j$j"
done
grep -q "attribute 'setup-cpus': expected 1 to the machine's 4 CPUs, got 8 (after variant '3337u-f100-before'" \
  "$TMP/fail-j3" && cmp -s "$TMP/fail-j1" "$TMP/fail-j3" && [ ! -s "$TMP/out" ] && ok ||
  bad "run --jobs 3, a failing variant: $(cat "$TMP/fail-j3")"
expect 2 "sweep --seed twice" -- "$NETSIM" sweep -q -o "$TMP/sw2.csv" --seed 1 --seed 2 \
  --param workload.working-set=1KiB "$MICRO/pointer-chase.xml"
grep -q "^netsim sweep: --seed given twice" "$TMP/err" && [ ! -e "$TMP/sw2.csv" ] && ok ||
  bad "sweep --seed twice: $(cat "$TMP/err")"
expect 0 "run --set twice" -- "$NETSIM" run -q --variant plain-ret --set workload.depth=4 \
  --set workload.body-insns=20 --top 1 -b "$MICRO/call-chain.xml"
grep -q '^set       workload.depth=4, workload.body-insns=20 ' "$TMP/out" && ok ||
  bad "--set twice: $(grep '^set' "$TMP/out")"
# a short option's value may be attached, as getopt takes it ("-j2", "-swhat=4"; GOption
# alone read "-j2" as "-j" with the next argument for its value); a value that looks like
# an option stays a value, and nothing after "--" is split
expect 0 "run -s and -f attached" -- "$NETSIM" run -q --variant plain-ret -sworkload.depth=4 \
  -fcsv "$MICRO/call-chain.xml"
grep -q '^# set workload.depth=4$' "$TMP/out" && ok || bad "-sPATH=V: $(head -5 "$TMP/out")"
expect 0 "validate -j2" -- "$NETSIM" validate -q -j2 002-r9-7950x-f1
grep -q '^002-r9-7950x-f1 ' "$TMP/out" && ok || bad "validate -j2: $(cat "$TMP/err")"
expect 2 "validate -j0" -- "$NETSIM" validate -q -j0 002-r9-7950x-f1
grep -q "^netsim validate: -j: expected 1 to " "$TMP/err" && ok || bad "-j0: $(cat "$TMP/err")"
mkdir "$TMP/dash"
netsim=$(cd "$(dirname "$NETSIM")" && pwd)/$(basename "$NETSIM")
micro=$(cd "$MICRO" && pwd)
(cd "$TMP/dash" && "$netsim" run -q --variant plain-ret -o -fjson -- "$micro/call-chain.xml") \
  >"$TMP/out" 2>"$TMP/err" && [ -s "$TMP/dash/-fjson" ] && [ ! -s "$TMP/out" ] &&
  head -1 "$TMP/dash/-fjson" | grep -q '^scenario ' &&
  ok || bad "-o -fjson: not a table in the file -fjson: $(ls "$TMP/dash") $(cat "$TMP/err")"

# every micro scenario runs and prints a table with its variants
for sc in pointer-chase call-chain call-tree indirect-call filter-walk bpf-tailcall pingpong \
  udp-lookup; do
  expect 0 "run $sc" -- "$NETSIM" run -q "$MICRO/$sc.xml"
  grep -q "^scenario  $sc" "$TMP/out" || bad "$sc: table header"
  grep -q "mitigations in force" "$TMP/out" || bad "$sc: mitigations block"
done

# a bug's command-line key on a CPU without the bug changes nothing, as in the kernel
# (retbleed_select_mitigation() returns early without X86_BUG_RETBLEED; Zen 3 has SRSO only)
expect 0 "run retbleed=unret on Zen 3" -- "$NETSIM" run -q --variant plain-ret \
  --set cpu.profile=zen3-epyc-7713 --set "kernel.cmdline=retbleed=unret spec_rstack_overflow=ibpb" \
  "$MICRO/call-chain.xml"
grep -q "^plain-ret  *retpoline  *off!  *ibpb\* " "$TMP/out" ||
  bad "an ignored key is marked '!', an applied one '*'"
grep -q "^(\* = set on the kernel command line; ! = its kernel command-line key ignored" \
  "$TMP/out" || bad "the mitigation table explains '!'"

# a value the CPU cannot run becomes the kernel's own choice, marked '~': eIBRS on Ivy
# Bridge falls back to the retpoline (spectre_v2_parse_cmdline() switches to auto)
expect 0 "run spectre_v2=eibrs on Ivy Bridge" -- "$NETSIM" run -q --variant plain-ret \
  --set cpu.profile=i5-3337u --set kernel.cmdline=spectre_v2=eibrs "$MICRO/call-chain.xml"
grep -q "^plain-ret  *retpoline~ " "$TMP/out" || bad "a fallen-back value is marked '~'"
grep -q "~ = changed by the kernel's own selection" "$TMP/out" || bad "the mitigation table explains '~'"

# parse_args() stops at a bare "--": the words after it go to init, which a note says
# (no "a typo?" note for them), and mitigations=off after it is not applied
expect 0 "run quiet -- mitigations=off" -- "$NETSIM" run -q --variant plain-ret \
  --set cpu.profile=zen3-epyc-7713 --set "kernel.cmdline=quiet -- mitigations=off" \
  "$MICRO/call-chain.xml"
grep -q "^plain-ret  *retpoline  *off  *safe-ret " "$TMP/out" ||
  bad "mitigations=off after '--' applied: $(cat "$TMP/out")"
grep -q "note: kernel command line: parse_args() stops at '--' .*('mitigations=off')" \
  "$TMP/err" || bad "no note that the words after '--' go to init: $(cat "$TMP/err")"
grep -q "no model reads '--'\|no model reads 'mitigations" "$TMP/err" &&
  bad "'--' or what follows it taken for a typo: $(cat "$TMP/err")"
grep -q "no model reads 'quiet'" "$TMP/err" || bad "'quiet' before '--' not noted"
# next_arg() keeps the spaces between double quotes in one argument: a "--" inside them
# ends nothing, and mitigations=off after the closing quote is applied
expect 0 "run with a quoted argument holding '--'" -- "$NETSIM" run -q --variant plain-ret \
  --set cpu.profile=zen3-epyc-7713 \
  --set 'kernel.cmdline=dyndbg="file x.c -- y" mitigations=off' "$MICRO/call-chain.xml"
grep -q "^plain-ret  *off\*  *off  *off\* " "$TMP/out" ||
  bad "mitigations=off after a quoted '--' not applied: $(cat "$TMP/out")"
grep -q "stops at '--'\|no model reads 'x.c'" "$TMP/err" &&
  bad "a quoted argument split at its spaces: $(cat "$TMP/err")"
grep -q "no model reads 'dyndbg=\"file x.c -- y\"'" "$TMP/err" ||
  bad "the quoted argument not noted whole: $(cat "$TMP/err")"
# before 6.7 the kernel read pti= with cmdline_find_option, quotes and all: refused as
# spectre_v2="off" is
expect 2 "run with pti=\"off\" before 6.7" -- "$NETSIM" run -q --variant 3337u-f1-before \
  --set 'kernel.cmdline=pti="off"' "$DATA/scenarios/tc-pktgen-matchall-3337u.xml"
grep -q "'pti=\"off\"': kernel 6.1.0-rc7 reads pti by its exact spelling" "$TMP/err" ||
  bad "pti=\"off\" before 6.7 not refused: $(cat "$TMP/err")"
# a value newer than the kernel whose stable series never took its backport is read as
# that kernel reads it: 5.16.y ended before Retbleed, so spectre_v2=ibrs is unknown there
# and spectre_v2_parse_cmdline() switches to auto
expect 0 "run spectre_v2=ibrs on 5.16" -- "$NETSIM" run -q --variant 3337u-f1-before \
  --set measure.duration=100us --set kernel.version=5.16 --set kernel.cmdline=spectre_v2=ibrs \
  "$DATA/scenarios/tc-pktgen-matchall-3337u.xml"
grep -q "^3337u-f1-before  *retpoline~ " "$TMP/out" ||
  bad "spectre_v2=ibrs applied on 5.16: $(cat "$TMP/out")"
grep -q "kernel 5.16 is of no stable series that took it as a backport" "$TMP/err" &&
  ! grep -q "only through a backport" "$TMP/err" ||
  bad "spectre_v2=ibrs on 5.16 noted as a backport: $(cat "$TMP/err")"

# netsim list prints scenarios as scenarios/…, names run and sweep take from any folder
ABS_NETSIM="$(cd "$(dirname "$NETSIM")" && pwd)/$(basename "$NETSIM")"
ABS_DATA="$(cd "$DATA" && pwd)"
NETSIM_DATADIR="$ABS_DATA/" "$ABS_NETSIM" list >"$TMP/list" 2>&1
grep -q "^scenarios/micro/call-chain.xml " "$TMP/list" && ok ||
  bad "list: scenario names with a trailing / in NETSIM_DATADIR: $(head -2 "$TMP/list")"
(cd "$TMP" && NETSIM_DATADIR="$ABS_DATA" "$ABS_NETSIM" run -q --variant plain-ret \
  scenarios/micro/call-chain.xml >/dev/null 2>&1) && ok || bad "run does not take a listed name"
NETSIM_DATADIR="$TMP/nowhere" "$ABS_NETSIM" list >"$TMP/list" 2>&1
[ $? -eq 2 ] && grep -q "no scenarios in" "$TMP/list" && ok || bad "list without scenarios"
# a folder link back up (a loop) is not followed again: each scenario is listed once (it
# printed scenarios/sub/loop/sub/loop/… until "Too many levels of symbolic links", exit 0);
# a link to a folder outside the data folder is listed
mkdir -p "$TMP/loopdata/scenarios/sub" "$TMP/outside"
cp "$MICRO/pointer-chase.xml" "$TMP/loopdata/scenarios/sub/"
cp "$MICRO/call-chain.xml" "$TMP/outside/"
ln -s .. "$TMP/loopdata/scenarios/sub/loop"
ln -s "$TMP/outside" "$TMP/loopdata/scenarios/ext"
NETSIM_DATADIR="$TMP/loopdata" "$ABS_NETSIM" list >"$TMP/list" 2>"$TMP/err"
[ $? -eq 0 ] && [ ! -s "$TMP/err" ] && [ "$(wc -l <"$TMP/list")" -eq 2 ] &&
  grep -q "^scenarios/ext/call-chain.xml " "$TMP/list" &&
  grep -q "^scenarios/sub/pointer-chase.xml " "$TMP/list" && ok ||
  bad "list through a folder loop: $(head -3 "$TMP/list") $(cat "$TMP/err")"
# and so for CPU profiles (it printed nothing and exited 0)
NETSIM_DATADIR="$TMP/nowhere" "$ABS_NETSIM" list cpus >"$TMP/list" 2>"$TMP/err"
[ $? -eq 2 ] && [ ! -s "$TMP/list" ] &&
  grep -q "^netsim list: no CPU profiles in $TMP/nowhere/scenarios/cpus$" "$TMP/err" && ok ||
  bad "list cpus without profiles: $(cat "$TMP/err")"
# a profile that does not load is listed as such and the others still are, as list does for
# scenarios (it printed some, then the error, exit 2); a folder named *.xml is no profile
mkdir -p "$TMP/junkdata/scenarios/cpus/sub.xml"
cp "$DATA/scenarios/cpu.rng" "$TMP/junkdata/scenarios/"
cp "$DATA/scenarios/cpus/generic.xml" "$DATA/scenarios/cpus/ryzen9-5950x.xml" \
  "$TMP/junkdata/scenarios/cpus/"
echo junk >"$TMP/junkdata/scenarios/cpus/junk.xml"
NETSIM_DATADIR="$TMP/junkdata" "$ABS_NETSIM" list cpus >"$TMP/list" 2>"$TMP/err"
[ $? -eq 0 ] && [ ! -s "$TMP/err" ] && [ "$(wc -l <"$TMP/list")" -eq 3 ] &&
  grep -q "^junk  *(does not load: $TMP/junkdata/scenarios/cpus/junk.xml:1: " "$TMP/list" &&
  grep -q "^ryzen9-5950x  *AMD" "$TMP/list" && ok ||
  bad "list cpus with a broken profile: $(cat "$TMP/list" "$TMP/err")"

# --explain: per comparison, which functions and causes changed (here: the retpoline)
expect 0 "run --explain" -- "$NETSIM" run -q --explain "$MICRO/indirect-call.xml"
grep -q "^why retpoline vs eIBRS: eibrs → retpoline" "$TMP/out" || bad "--explain heading"
grep -A3 "^why retpoline vs eIBRS" "$TMP/out" | grep -q "indirect=+[1-9]" ||
  bad "--explain shows the retpoline's indirect-call cycles"
grep -q "^why" "$TMP/err" && bad "--explain writes to standard output only"
"$NETSIM" run -q --format json "$MICRO/indirect-call.xml" | grep -q '"explain": \[' && ok ||
  bad "json comparisons carry the explanation"

# --top N shows N functions and says how many more; the breakdown ends in its total, the
# sum of every function's cycles
expect 0 "run --breakdown --top 3" -- "$NETSIM" run -q --variant plain-ret --breakdown --top 3 \
  "$MICRO/call-chain.xml"
grep -q '^  (5 more functions: --top 0 shows all)$' "$TMP/out" && ok ||
  bad "--top 3 does not say what it left out: $(tail -3 "$TMP/out")"
expect 0 "run --breakdown --top 0" -- "$NETSIM" run -q --variant plain-ret --breakdown --top 0 \
  "$MICRO/call-chain.xml"
grep -q 'more function' "$TMP/out" && bad "--top 0 says it left rows out"
awk '/^  function/ { on = 1; next }
     on && $1 == "total" { t = $2; exit }
     on && $4 ~ /^[0-9.]+$/ { sum += $4; n++ }
     END { exit !(n == 8 && t > 0 && (sum - t) * (sum - t) < 0.0025) }' "$TMP/out" && ok ||
  bad "--breakdown: no total, or not the sum of its rows: $(tail -2 "$TMP/out")"
expect 0 "run --explain --top 1" -- "$NETSIM" run -q --explain --top 1 "$MICRO/call-chain.xml"
grep -A3 "^why unret vs plain" "$TMP/out" | grep -q '^  (7 more functions: --top 0 shows all)$' &&
  ok || bad "--explain --top 1 does not say what it left out"

# the variant column widens to the longest name (a 29-character twin pushed its row's
# columns one to the right), and a comparison's figures carry the variant table's digits
# (8.66 → 9.32 printed +7.68 %, which they give as +7.62 %)
expect 0 "run --what-if, long twin names" -- "$NETSIM" run -q --stat --what-if param.cpu.ipc=1 \
  "$MICRO/call-chain.xml"
col=$(awk '/^variant  / { print index($0, " metric") }' "$TMP/out")
awk -v c="$col" '/^[a-z-]+( \(what-if\))? +cycles_per_call/ { n++; if (index($0, " cycles_per_call") != c) bad = 1 }
  /^  call-depth-stuffing/ { e = match($0, /[0-9]+\.[0-9]+/) + RLENGTH; if (last && e != last) bad = 1; last = e }
  END { exit bad || n != 10 || !last }' "$TMP/out" && [ -n "$col" ] && ok ||
  bad "variant column: $(grep -E '^(variant|call-depth)|^  call-depth' "$TMP/out")"
expect 0 "run call-chain" -- "$NETSIM" run -q "$MICRO/call-chain.xml"
grep -q '^unret vs plain  *8\.6580  *9\.3231  *+7\.68%$' "$TMP/out" && ok ||
  bad "comparison digits: $(grep '^unret vs plain' "$TMP/out")"

# --what-if: each variant against itself with the extra set, and why (the retpoline gone)
expect 0 "run --what-if" -- "$NETSIM" run -q --explain \
  --what-if kernel.cmdline=spectre_v2=eibrs "$MICRO/indirect-call.xml"
grep -q "^retpoline (what-if) " "$TMP/out" || bad "--what-if: no twin row"
grep -q "^retpoline: kernel.cmdline=spectre_v2=eibrs .* -[0-9.]*%$" "$TMP/out" ||
  bad "--what-if: no comparison with a negative delta"
grep -A3 "^why retpoline: kernel.cmdline=spectre_v2=eibrs" "$TMP/out" |
  grep -q "indirect=-[1-9]" || bad "--what-if --explain shows the retpoline's cycles gone"
grep -q "^retpoline vs eIBRS" "$TMP/out" && bad "--what-if keeps the scenario's comparisons"
grep -A2 "^why retpoline: kernel.cmdline=spectre_v2=eibrs" "$TMP/out" |
  grep -q "ran on:\|parameters that differ" && bad "--what-if --explain: a setup line though only the cmdline differs"
# a what-if of another CPU says what the twin ran with: the profile, and the clock first of
# the parameters that differ (the cycles are clock-free, so the clock moves only the metric)
expect 0 "run --what-if cpu.profile --explain" -- "$NETSIM" run -q --explain --variant plain-ret \
  --set measure.duration=20us --what-if cpu.profile=ryzen9-7950x "$MICRO/call-chain.xml"
grep -A1 "^why plain-ret: cpu.profile=ryzen9-7950x" "$TMP/out" |
  grep -q "^  ran on: cpu generic → ryzen9-7950x$" && ok ||
  bad "--what-if cpu.profile --explain: no 'ran on' line: $(grep -A2 '^why' "$TMP/out")"
grep -A2 "^why plain-ret: cpu.profile=ryzen9-7950x" "$TMP/out" |
  grep -q "^  parameters that differ ([0-9]*): cpu.freq_ghz 3.0 → 5.7 GHz, .*, … (--format json gives each variant's full parameter set)$" &&
  ok || bad "--what-if cpu.profile --explain: the clock not first: $(grep -A2 '^why' "$TMP/out")"
# the twin is the run --set would make, and the variant the run without it
"$NETSIM" run -q --format csv --variant lfence --what-if kernel.cmdline=spectre_v2=eibrs \
  "$MICRO/indirect-call.xml" | grep '^variant,' | cut -d, -f3,4 >"$TMP/wi.csv"
{ "$NETSIM" run -q --format csv --variant lfence "$MICRO/indirect-call.xml"
  "$NETSIM" run -q --format csv --variant lfence --set kernel.cmdline=spectre_v2=eibrs \
    "$MICRO/indirect-call.xml"; } | grep '^variant,' | cut -d, -f3,4 >"$TMP/sep.csv"
[ "$(wc -l <"$TMP/wi.csv")" -eq 2 ] && cmp -s "$TMP/wi.csv" "$TMP/sep.csv" && ok ||
  bad "--what-if figures differ from two runs"
# a twin's name that a variant of the scenario has already is refused, not output twice,
# and before anything runs: a measured time of 1 ps would be refused too (exit 2, shorter
# than ten quanta) with another message, so only the twin-name refusal gives this message
sed 's/"inlined"/"plain-ret (what-if)"/g' "$MICRO/call-chain.xml" >"$TMP/twin-name.xml"
expect 2 "run --what-if: a twin's name taken" -- "$NETSIM" run -q --set measure.duration=1ps \
  -o "$TMP/twin-name.csv" --what-if kernel.cmdline=mitigations=off "$TMP/twin-name.xml"
taken="--what-if names each variant's twin 'NAME (what-if)', and a variant of the scenario is"
taken="$taken called 'plain-ret (what-if)' already (rename it, or run another with --variant)"
grep -qxF -e "netsim run: $TMP/twin-name.xml: $taken" "$TMP/err" &&
  [ "$(wc -l <"$TMP/err")" -eq 1 ] && [ ! -s "$TMP/out" ] && [ ! -e "$TMP/twin-name.csv" ] &&
  ok || bad "a twin's name taken: not refused before the runs: $(cat "$TMP/err")"
# only the variants that run get twins: with --variant the name is free, and used once
expect 0 "run --what-if --variant: the twin's name free" -- "$NETSIM" run -q --format csv \
  --set measure.duration=20us --variant plain-ret --what-if kernel.cmdline=mitigations=off \
  "$TMP/twin-name.xml"
[ "$(grep -c '^variant,plain-ret' "$TMP/out")" -eq 2 ] &&
  grep -q '^variant,plain-ret (what-if),' "$TMP/out" && ok ||
  bad "--variant with a twin's name taken by a variant not run: $(grep '^variant,' "$TMP/out")"
expect 2 "run --what-if bad path" -- "$NETSIM" run -q --what-if workload.nope=1 \
  "$MICRO/indirect-call.xml"
grep -q "nope" "$TMP/err" || bad "--what-if bad path: $(cat "$TMP/err")"
# a what-if that changes the metric is refused before anything runs: the twin's ns a call
# against the variant's cycles printed "-66.67%", exit 0; so is a <compare> of two metrics
expect 2 "run --what-if of the metric" -- "$NETSIM" run -q --variant off \
  --what-if measure.metric=ns_per_call "$MICRO/indirect-call.xml"
grep -qx "netsim run: $MICRO/indirect-call.xml:7: element measure: attribute 'metric': the what-if twin of 'off' would measure ns_per_call, and 'off' cycles_per_call: a comparison needs the same metric on both sides (a delta between two metrics means nothing) (after --what-if measure.metric=ns_per_call)" \
  "$TMP/err" && [ ! -s "$TMP/out" ] && ok || bad "--what-if of the metric: $(cat "$TMP/err")"
expect 2 "run a <compare> of two metrics" -- "$NETSIM" run -q --set measure.duration=1ms \
  --set 'variants.variant[2].set.path=measure.metric' \
  --set 'variants.variant[2].set.value=ns_per_call' "$MICRO/indirect-call.xml"
grep -q "^netsim run: $MICRO/indirect-call.xml:24: element compare: baseline 'eibrs' measures cycles_per_call, patched 'retpoline' measures ns_per_call (variant 'retpoline' set measure.metric=ns_per_call, .*): a comparison needs the same metric on both sides" \
  "$TMP/err" && [ ! -s "$TMP/out" ] && ok || bad "<compare> of two metrics: $(cat "$TMP/err")"
# a what-if renaming the variant that runs is refused naming it (it said "no variant named
# 'off'", naming no what-if)
expect 2 "run --what-if renaming the variant" -- "$NETSIM" run -q --variant off \
  --what-if 'variants.variant[1].name=zz' "$MICRO/indirect-call.xml"
grep -q "^netsim run: $MICRO/indirect-call.xml:9: element variant: attribute 'name': a what-if may not rename or add a variant (here 'zz', which the scenario calls 'off'): .*(after --what-if variants.variant\[1\].name=zz)$" \
  "$TMP/err" && ok || bad "--what-if renaming the variant: $(cat "$TMP/err")"
# a twin that fails at run time is named, with its what-if (the error blamed 'off')
expect 1 "run --what-if: the twin fails" -- "$NETSIM" run -q --variant off \
  --what-if workload.body-insns=1000000 --set measure.duration=20us "$MICRO/indirect-call.xml"
grep -q "^netsim run: $MICRO/indirect-call.xml:9: variant 'off (what-if)': the workload completed no call in the measured time (20 us): .* (after --what-if workload.body-insns=1000000)$" \
  "$TMP/err" && ok || bad "--what-if: the twin fails: $(cat "$TMP/err")"
# a scenario without variants: one name for its variant in every format, the twin named
# after it (the table said "(default)", CSV and JSON "")
sed '/<variants>/,/<\/comparisons>/d' "$MICRO/indirect-call.xml" >"$TMP/plain.xml"
expect 0 "run --what-if without variants" -- "$NETSIM" run -q --set measure.duration=20us \
  --what-if kernel.cmdline=spectre_v2=retpoline "$TMP/plain.xml"
grep -q '^indirect-call  *cycles_per_call ' "$TMP/out" &&
  grep -q '^indirect-call (what-if)  *cycles_per_call ' "$TMP/out" &&
  grep -q '^indirect-call: kernel.cmdline=spectre_v2=retpoline ' "$TMP/out" &&
  ! grep -q '(default)' "$TMP/out" && ok || bad "without variants, table: $(cat "$TMP/out")"
"$NETSIM" run -q --format csv --set measure.duration=20us \
  --what-if kernel.cmdline=spectre_v2=retpoline "$TMP/plain.xml" >"$TMP/plain.csv"
grep -q '^variant,indirect-call,' "$TMP/plain.csv" &&
  grep -q '^comparison,indirect-call: kernel.cmdline=spectre_v2=retpoline,cycles_per_call,,,,,indirect-call,indirect-call (what-if),' "$TMP/plain.csv" &&
  ok || bad "without variants, CSV: $(grep -v '^#' "$TMP/plain.csv")"
"$NETSIM" run -q --format json --set measure.duration=20us \
  --what-if kernel.cmdline=spectre_v2=retpoline "$TMP/plain.xml" >"$TMP/plain.json"
grep -q '"name": ""' "$TMP/plain.json" && bad "without variants, JSON: an empty name" || ok
# a control character of a what-if's value stays in its comparison's row (it split the row)
expect 0 "run --what-if with a newline" -- "$NETSIM" run -q --variant off \
  --set measure.duration=20us --what-if "$(printf 'kernel.cmdline=spectre_v2=retpoline\nnosmt')" \
  "$MICRO/indirect-call.xml"
grep -q '^off: kernel.cmdline=spectre_v2=retpoline\\nnosmt  *[0-9.]*  *[0-9.]*  *+[0-9.]*%$' \
  "$TMP/out" && ! grep -q '^nosmt' "$TMP/out" && ok ||
  bad "--what-if with a newline: $(grep -A1 '^off:' "$TMP/out")"
# --folded names a twin as the table does, so that grep '^VARIANT;' finds it
expect 0 "run --what-if --folded" -- "$NETSIM" run -q --variant retpoline \
  --set measure.duration=20us --what-if kernel.cmdline=spectre_v2=off \
  --folded "$TMP/twin.folded" "$MICRO/indirect-call.xml"
grep -q '^retpoline (what-if);[^ ]*;\[insn\] [1-9]' "$TMP/twin.folded" && ok ||
  bad "--folded twin: $(cut -d';' -f1 "$TMP/twin.folded" | sort -u)"

# the table's sections are not in the CSV output: asking for one there is refused, by name
for opt in --breakdown --explain --stat --inlining; do
  expect 2 "run --format csv $opt" -- "$NETSIM" run -q --format csv $opt --variant plain-ret \
    "$MICRO/call-chain.xml"
  grep -q "^netsim run: $opt: the CSV output has no such section .*--format json" "$TMP/err" &&
    [ ! -s "$TMP/out" ] && ok || bad "csv with $opt: $(cat "$TMP/err")"
done

# --stat also shows what overlaps hid: past the L1I the tree's text misses hide behind
# the front end's lead on the plain path, less of them after Safe RET's restarts
expect 0 "run --stat call-tree" -- "$NETSIM" run -q --stat "$MICRO/call-tree.xml"
awk '/^cycles hidden by overlaps/ { on = 1; next }
     on && $1 == "variant" { for (i = 1; i <= NF; i++) col[$i] = i; next }
     on && $1 ~ /^big-/ { h[$1] = $col["ifetch"] }
     END { exit !(h["big-plain"] > h["big-saferet"] && h["big-saferet"] > 0) }' \
  "$TMP/out" || bad "--stat: I-fetch hidden by the lead, less after forced returns"

# --stat: event counts per operation; the retpoline variant makes one indirect call per
# call of the loop, as the unmitigated one does
expect 0 "run --stat" -- "$NETSIM" run -q --stat "$MICRO/indirect-call.xml"
grep -q "^events per " "$TMP/out" || bad "--stat heading"
awk '$1 == "variant" { for (i = 1; i <= NF; i++) col[$i] = i }
     $1 == "off" || $1 == "retpoline" { n[$1] = $col["icalls"]; calls[$1] = $col["calls"] }
     END { exit !(n["off"] > 0 && n["off"] == calls["off"] && n["retpoline"] == calls["retpoline"]) }' \
  "$TMP/out" || bad "--stat: one indirect call per call"
"$NETSIM" run -q --format json "$MICRO/indirect-call.xml" | grep -A1 '"events_per_op": {' |
  grep -q '"insns": 10,$' && ok || bad "json variants carry the event counts"

# --folded: flame-graph input, one line per calling context and cause; the results are
# the same with it as without
expect 0 "run --folded" -- "$NETSIM" run -q --folded "$TMP/f.folded" "$MICRO/indirect-call.xml"
cp "$TMP/out" "$TMP/with-folded"
grep -qvE '^[^ ;]+(;[^ ;]+)+;\[[a-z_0-9]+\] [0-9]+$' "$TMP/f.folded" &&
  bad "--folded: a line that is not 'variant;thread;…;[cause] cycles'"
grep -q '^retpoline;[^ ]*;\[indirect\] [1-9]' "$TMP/f.folded" ||
  bad "--folded shows the retpoline variant's indirect-call cycles"
awk '$1 ~ /^(off|retpoline);.*;\[indirect\]$/ { split ($1, f, ";"); c[f[1]] += $2 }
     END { exit !(c["retpoline"] > 4 * c["off"] && c["off"] > 0) }' FS=' ' "$TMP/f.folded" ||
  bad "--folded: the retpoline's indirect calls cost several times the unmitigated ones"
"$NETSIM" run -q "$MICRO/indirect-call.xml" | cmp -s - "$TMP/with-folded" && ok ||
  bad "--folded changes the results"
"$NETSIM" run -q --folded "$TMP/g.folded" "$MICRO/indirect-call.xml" >/dev/null
cmp -s "$TMP/f.folded" "$TMP/g.folded" && ok || bad "--folded differs between two runs"
# standard output takes one of the two: --folded - (or /dev/stdout) with the results there
# mixed them (or, into a file, replaced them), exit 0
expect 2 "--folded - with the results on stdout" -- "$NETSIM" run -q --folded - "$MICRO/indirect-call.xml"
grep -q "^netsim run: --folded - is standard output, where the results go" "$TMP/err" &&
  [ ! -s "$TMP/out" ] && ok || bad "--folded -: $(cat "$TMP/err")"
expect 2 "--folded /dev/stdout into a file" -- "$NETSIM" run -q -f json --folded /dev/stdout \
  "$MICRO/indirect-call.xml"
grep -q "^netsim run: --folded /dev/stdout is standard output" "$TMP/err" && ok ||
  bad "--folded /dev/stdout: $(cat "$TMP/err")"
expect 0 "--folded - with -o FILE" -- "$NETSIM" run -q -o "$TMP/o.txt" --folded - "$MICRO/indirect-call.xml"
cmp -s "$TMP/out" "$TMP/f.folded" && cmp -s "$TMP/o.txt" "$TMP/with-folded" && ok ||
  bad "--folded - with -o FILE: not the stacks on stdout and the table in FILE"
# a figure the metric cannot give (no errors: a delta of 0 / 0) is an empty CSV field, as
# JSON's null and the table's n/a, and the explanation says n/a (both printed nan); the
# last field, the one-operation step, is 0 without a baseline to scale by, as JSON's
pk="$DATA/scenarios/tc-pktgen-matchall-5950x.xml"
expect 0 "csv without a delta" -- "$NETSIM" run -q -f csv --set measure.metric=errors_pps \
  --set measure.duration=100us --variant 5950x-f1-before --what-if param.cpu.ipc=2 "$pk"
grep -q '^comparison,.*,5950x-f1-before,5950x-f1-before (what-if),,,,,,0$' "$TMP/out" &&
  ! grep -qi 'nan' "$TMP/out" && ok || bad "csv nan: $(grep '^comparison' "$TMP/out")"
expect 0 "explain without a delta" -- "$NETSIM" run -q --explain --set measure.metric=errors_pps \
  --set measure.duration=100us --variant 5950x-f1-before --what-if param.cpu.ipc=2 "$pk"
grep -q '^  total .*; metric n/a)$' "$TMP/out" && ok || bad "explain nan: $(grep '^  total' "$TMP/out")"
expect 2 "--folded into a missing directory" -- \
  "$NETSIM" run -q --folded "$TMP/no/such/dir/f" "$MICRO/indirect-call.xml"
[ -s "$TMP/out" ] && bad "--folded failing still printed results"

# seeds: 0 to 2^64 - 1; anything else is refused, not taken for "no seed"
expect 2 "run --seed -5" -- "$NETSIM" run -q --seed -5 "$MICRO/call-chain.xml"
grep -q -- "--seed: expected 0 to 18446744073709551615, got '-5'" "$TMP/err" && ok ||
  bad "a negative --seed is not explained: $(cat "$TMP/err")"
expect 0 "run --seed 2^64-1" -- "$NETSIM" run -q --variant plain-ret \
  --seed 18446744073709551615 "$MICRO/call-chain.xml"
grep -q "^seed      18446744073709551615" "$TMP/out" && ok || bad "--seed 2^64-1 not in force"
# --seed and a seed= set are two seeds for one run: refused, not one of them printed
expect 2 "run --seed with --set seed=" -- "$NETSIM" run -q --variant plain-ret --seed 1 \
  --set seed=2 "$MICRO/call-chain.xml"
grep -q "^netsim run: --seed 1 and --set seed=2 both give the seed" "$TMP/err" &&
  [ ! -s "$TMP/out" ] && ok || bad "--seed with --set seed=: $(cat "$TMP/err")"
expect 2 "run --seed with --what-if seed=" -- "$NETSIM" run -q --variant plain-ret --seed 1 \
  --what-if seed=2 "$MICRO/call-chain.xml"
grep -q "^netsim run: --seed 1 and --what-if seed=2 both give the seed" "$TMP/err" && ok ||
  bad "--seed with --what-if seed=: $(cat "$TMP/err")"
expect 2 "sweep --seed with --set seed=" -- "$NETSIM" sweep -q -o "$TMP/sws.csv" --seed 5 \
  --set seed=9 --param workload.working-set=1KiB "$MICRO/pointer-chase.xml"
grep -q "^netsim sweep: --seed 5 and --set seed=9 both give the seed" "$TMP/err" &&
  [ ! -e "$TMP/sws.csv" ] && ok || bad "sweep --seed with --set seed=: $(cat "$TMP/err")"
# a swept seed is each point's seed: --seed or --set seed=… with it changed nothing (only the
# header said "unused", exit 0); refused as two seeds, nothing written
expect 2 "sweep --seed with --param seed=" -- "$NETSIM" sweep -q -o "$TMP/sws.csv" \
  --param seed=1:4:1 --seed 3 --variant L1-16KiB "$MICRO/pointer-chase.xml"
grep -q "^netsim sweep: --seed 3 and --param seed=1:4:1 both give the seed (each point runs its swept seed" \
  "$TMP/err" && [ ! -e "$TMP/sws.csv" ] && ok ||
  bad "sweep --seed with --param seed=: $(cat "$TMP/err")"
expect 2 "sweep --set seed= with --param seed=" -- "$NETSIM" sweep -q -o "$TMP/sws.csv" \
  --set seed=9 --param seed=1:4:1 --variant L1-16KiB "$MICRO/pointer-chase.xml"
grep -q "^netsim sweep: --param seed=1:4:1: --set seed=9 sets the same attribute" "$TMP/err" &&
  [ ! -e "$TMP/sws.csv" ] && ok || bad "sweep --set seed= with --param seed=: $(cat "$TMP/err")"
expect 2 "sweep --seed -1" -- "$NETSIM" sweep -q -o "$TMP/sw.csv" \
  --param workload.working-set=1KiB "$MICRO/pointer-chase.xml" --seed -1
[ -e "$TMP/sw.csv" ] && bad "a refused sweep wrote its output" || ok

# outputs are checked before the work: nothing runs, nothing is written
expect 2 "run -o into a missing folder" -- "$NETSIM" run -q --folded "$TMP/f1.folded" \
  -o "$TMP/nowhere/x.txt" "$MICRO/call-chain.xml"
grep -q "cannot write $TMP/nowhere/x.txt: no folder" "$TMP/err" && ok ||
  bad "-o into a missing folder is not explained: $(cat "$TMP/err")"
[ -e "$TMP/f1.folded" ] && bad "--folded was written before -o was refused" || ok
expect 2 "run -o a folder" -- "$NETSIM" run -q -o "$TMP" "$MICRO/call-chain.xml"
# a folder that takes no new file, whatever its permission bits say to root (/proc)
if [ -d /proc/self ]; then
  expect 2 "run -o into /proc" -- "$NETSIM" run -q --folded "$TMP/f2.folded" \
    -o /proc/netsim-test.txt "$MICRO/call-chain.xml"
  grep -q "cannot write /proc/netsim-test.txt: folder /proc" "$TMP/err" && ok ||
    bad "-o into /proc is not refused up front: $(cat "$TMP/err")"
  [ -e "$TMP/f2.folded" ] && bad "--folded was written before -o /proc was refused" || ok
fi
: >"$TMP/empty.csv"
expect 2 "validate --expected an empty file" -- "$NETSIM" validate -q 002-r9-7950x-f1 \
  --expected "$TMP/empty.csv"
[ -s "$TMP/out" ] && bad "validate ran before refusing --expected" || ok
expect 2 "sweep --json into a missing folder" -- "$NETSIM" sweep -q -o "$TMP/sw.csv" \
  --param workload.working-set=1KiB --json "$TMP/nowhere/j.json" "$MICRO/pointer-chase.xml"
[ -e "$TMP/sw.csv" ] && bad "sweep ran before refusing --json" || ok

# one file for two outputs is refused before the run, by any name (a link to the other);
# an output that is a symbolic link is written through it: the link stays, its target
# (even one that does not exist yet) gets the results
expect 2 "run -o and --folded one file" -- "$NETSIM" run -q --variant plain-ret \
  -o "$TMP/same.txt" --folded "$TMP/same.txt" "$MICRO/call-chain.xml"
grep -q "^netsim run: -o and --folded are one file, $TMP/same.txt" "$TMP/err" &&
  [ ! -e "$TMP/same.txt" ] && ok || bad "-o and --folded one file: $(cat "$TMP/err")"
mkdir "$TMP/targets" && ln -s targets/later.txt "$TMP/link.txt"
expect 2 "run -o a link to --folded" -- "$NETSIM" run -q --variant plain-ret \
  -o "$TMP/link.txt" --folded "$TMP/targets/later.txt" "$MICRO/call-chain.xml"
grep -q "are one file" "$TMP/err" && ok || bad "-o a link to --folded: $(cat "$TMP/err")"
expect 0 "run -o a symbolic link" -- "$NETSIM" run -q --variant plain-ret -o "$TMP/link.txt" \
  "$MICRO/call-chain.xml"
[ -L "$TMP/link.txt" ] && grep -q "^scenario  call-chain" "$TMP/targets/later.txt" && ok ||
  bad "-o a symbolic link: the link replaced, or its target not written"
ln -s nowhere/x.txt "$TMP/badlink.txt"
expect 2 "run -o a link into a missing folder" -- "$NETSIM" run -q --variant plain-ret \
  -o "$TMP/badlink.txt" "$MICRO/call-chain.xml"
grep -q "cannot write $TMP/badlink.txt: no folder $TMP/nowhere" "$TMP/err" && ok ||
  bad "a link into a missing folder is not refused up front: $(cat "$TMP/err")"
# a loop of symbolic links as an output is refused before the run (ELOOP), the links kept
ln -s loop-b "$TMP/loop-a" && ln -s loop-a "$TMP/loop-b"
expect 2 "run -o a loop of links" -- "$NETSIM" run -q --variant plain-ret -o "$TMP/loop-a" \
  "$MICRO/call-chain.xml"
grep -q "^netsim run: cannot write $TMP/loop-a: too many levels of symbolic links" "$TMP/err" &&
  [ -L "$TMP/loop-a" ] && ok || bad "-o a loop of links: $(cat "$TMP/err")"
expect 2 "sweep -o a loop of links" -- "$NETSIM" sweep -q --variant plain-ret \
  --param workload.depth=2,3 -o "$TMP/loop-a" "$MICRO/call-chain.xml"
grep -q "^netsim sweep: cannot write $TMP/loop-a: too many levels of symbolic links" \
  "$TMP/err" && [ -L "$TMP/loop-a" ] && ok || bad "sweep -o a loop of links: $(cat "$TMP/err")"
# two outputs on one device that keeps nothing are written there in turn, not refused as
# one file; standard output takes one of them, however named (mixed, neither is usable)
expect 0 "run -o and --folded /dev/null" -- "$NETSIM" run -q --variant plain-ret \
  -o /dev/null --folded /dev/null "$MICRO/call-chain.xml"
sh -c '"$1" run -q --variant plain-ret -o /dev/stdout --folded /dev/stdout "$2"; echo "$?" >&2' \
  sh "$NETSIM" "$MICRO/call-chain.xml" 2>"$TMP/err" | cat >"$TMP/both.txt"
[ ! -s "$TMP/both.txt" ] && grep -q '^netsim run: --folded /dev/stdout is standard output' "$TMP/err" &&
  [ "$(tail -1 "$TMP/err")" = 2 ] && ok ||
  bad "-o and --folded /dev/stdout through a pipe: $(cat "$TMP/err")"
# a name of standard output (/dev/stdout, /dev/fd/1) is written through it where it stands,
# as "-" is: it replaced the file the shell redirects to (a >> file lost what it held, a
# { …; } > file group its other lines), exit 0
"$NETSIM" run -q --variant plain-ret -f csv -o - "$MICRO/call-chain.xml" >"$TMP/dash.csv"
echo PREV >"$TMP/append.txt"
"$NETSIM" run -q --variant plain-ret -f csv -o /dev/stdout "$MICRO/call-chain.xml" \
  >>"$TMP/append.txt" 2>"$TMP/err"
{ echo PREV; cat "$TMP/dash.csv"; } | cmp -s - "$TMP/append.txt" && [ ! -s "$TMP/err" ] && ok ||
  bad "run -o /dev/stdout >> FILE: not FILE's line then the results: $(head -2 "$TMP/append.txt")"
{ echo HEADER; "$NETSIM" run -q --variant plain-ret -f csv -o /dev/fd/1 "$MICRO/call-chain.xml";
  echo FOOTER; } >"$TMP/group.txt"
{ echo HEADER; cat "$TMP/dash.csv"; echo FOOTER; } | cmp -s - "$TMP/group.txt" && ok ||
  bad "run -o /dev/fd/1 in a { …; } > FILE group: $(head -2 "$TMP/group.txt")"
"$NETSIM" run -q --variant plain-ret -o "$TMP/table.txt" --folded - "$MICRO/call-chain.xml" \
  >"$TMP/stacks.txt"
echo PREV >"$TMP/append.txt"
"$NETSIM" run -q --variant plain-ret -o "$TMP/table.txt" --folded /dev/stdout \
  "$MICRO/call-chain.xml" >>"$TMP/append.txt"
{ echo PREV; cat "$TMP/stacks.txt"; } | cmp -s - "$TMP/append.txt" && ok ||
  bad "run --folded /dev/stdout >> FILE: $(head -2 "$TMP/append.txt")"
"$NETSIM" run -q --variant plain-ret -f csv -o /dev/fd/5 "$MICRO/call-chain.xml" \
  5>"$TMP/fd5.csv" >"$TMP/out"
cmp -s "$TMP/fd5.csv" "$TMP/dash.csv" && [ ! -s "$TMP/out" ] && ok ||
  bad "run -o /dev/fd/5 5>FILE: not the results in FILE"
expect 2 "run -o a descriptor not open" -- "$NETSIM" run -q --variant plain-ret \
  -o /dev/fd/7 "$MICRO/call-chain.xml"
grep -q "^netsim run: cannot write /dev/fd/7: descriptor 7 is not open" "$TMP/err" && ok ||
  bad "run -o /dev/fd/7 (closed): $(cat "$TMP/err")"
# a CPU that nosmt took offline names the --set that gave the command line, among the
# sets behind the machine (it named the profile only)
expect 2 "pingpong smt under nosmt" -- "$NETSIM" run -q --variant smt \
  --set cpu.profile=i5-3337u --set 'kernel.cmdline=mds=full,nosmt' "$MICRO/pingpong.xml"
grep -q "nosmt took the SMT siblings offline (after --set cpu.profile=i5-3337u, --set kernel.cmdline=mds=full,nosmt)" \
  "$TMP/err" && ok || bad "nosmt's CPU error: $(cat "$TMP/err")"
# a descriptor open on a file is that file: an input, or the other output, is refused as by
# its name (they were overwritten or appended to, exit 0); one descriptor for two outputs
# would mix them
cp "$MICRO/call-chain.xml" "$TMP/in.xml"
"$NETSIM" run -q --variant plain-ret -o /dev/fd/3 "$TMP/in.xml" 3>>"$TMP/in.xml" \
  >"$TMP/out" 2>"$TMP/err"
[ $? -eq 2 ] && cmp -s "$TMP/in.xml" "$MICRO/call-chain.xml" &&
  grep -q "^netsim run: -o /dev/fd/3 would overwrite the scenario" "$TMP/err" && ok ||
  bad "run -o /dev/fd/3 3>>SCENARIO: $(cat "$TMP/err")"
"$NETSIM" run -q --variant plain-ret -o "$TMP/f.txt" --folded /dev/fd/3 \
  "$MICRO/call-chain.xml" 3>"$TMP/f.txt" >"$TMP/out" 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "^netsim run: -o and --folded are one file" "$TMP/err" && ok ||
  bad "run -o FILE --folded /dev/fd/3 3>FILE: $(cat "$TMP/err")"
"$NETSIM" run -q --variant plain-ret -o /dev/fd/3 --folded /dev/fd/3 \
  "$MICRO/call-chain.xml" 3>"$TMP/fd3both.txt" >"$TMP/out" 2>"$TMP/err"
[ $? -eq 2 ] && [ ! -s "$TMP/fd3both.txt" ] && ok ||
  bad "run -o /dev/fd/3 --folded /dev/fd/3: $(cat "$TMP/err")"
"$NETSIM" sweep -q --variant plain-ret --param workload.depth=2,3 -o "$TMP/sw.csv" \
  --json "$TMP/sw.json" "$MICRO/call-chain.xml" >/dev/null
echo PREV >"$TMP/append.txt"
"$NETSIM" sweep -q --force --variant plain-ret --param workload.depth=2,3 -o "$TMP/sw.csv" \
  --json /dev/stdout "$MICRO/call-chain.xml" >>"$TMP/append.txt"
{ echo PREV; cat "$TMP/sw.json"; } | cmp -s - "$TMP/append.txt" && ok ||
  bad "sweep --json /dev/stdout >> FILE: $(head -2 "$TMP/append.txt")"
# under a ulimit -v the machine reserves a smaller arena, silently and with the same
# results (each refused try warned: 72 warnings in a sweep, and G_DEBUG=fatal-warnings
# killed the run, exit 133); skipped where netsim cannot start so limited (AddressSanitizer)
# or the shell has no ulimit -v (not POSIX: the probe fails there)
# shellcheck disable=SC3045
if (ulimit -v 4000000 && "$NETSIM" --version) >/dev/null 2>&1; then
  # shellcheck disable=SC3045
  (ulimit -v 4000000 && G_DEBUG=fatal-warnings "$NETSIM" run -q --variant plain-ret -f csv \
    "$MICRO/call-chain.xml") >"$TMP/out" 2>"$TMP/err"
  [ $? -eq 0 ] && [ ! -s "$TMP/err" ] && cmp -s "$TMP/out" "$TMP/dash.csv" && ok ||
    bad "run under ulimit -v: not silent or not the same results: $(head -3 "$TMP/err")"
fi
# the sweep's CSV is appended to and read back: standard output by any name is refused
expect 2 "sweep -o /dev/stdout" -- "$NETSIM" sweep -q --variant plain-ret \
  --param workload.depth=2,3 -o /dev/stdout "$MICRO/call-chain.xml"
grep -q "^netsim sweep: -o /dev/stdout: the sweep's CSV must be a regular file" "$TMP/err" &&
  [ ! -s "$TMP/out" ] && ok || bad "sweep -o /dev/stdout: $(cat "$TMP/err")"
"$NETSIM" validate -q -f csv -o - 002-r9-7950x-f1 >"$TMP/v-dash.csv"
echo PREV >"$TMP/append.txt"
"$NETSIM" validate -q -f csv -o /dev/stdout 002-r9-7950x-f1 >>"$TMP/append.txt"
{ echo PREV; cat "$TMP/v-dash.csv"; } | cmp -s - "$TMP/append.txt" && [ -s "$TMP/v-dash.csv" ] &&
  ok || bad "validate -o /dev/stdout >> FILE: $(head -2 "$TMP/append.txt")"
if command -v gnuplot >/dev/null 2>&1; then
  expect 0 "validate -o and --plot /dev/null" -- "$NETSIM" validate -q -o /dev/null \
    --plot /dev/null 002-r9-7950x-f1
fi
expect 2 "validate -o and --plot one file" -- "$NETSIM" validate -q -o "$TMP/v.png" \
  --plot "$TMP/v.png" 002-r9-7950x-f1
grep -q "^netsim validate: -o and --plot are one file" "$TMP/err" && [ ! -s "$TMP/out" ] &&
  ok || bad "validate -o and --plot one file: $(cat "$TMP/err")"

# an output that is a file the command reads (by any name: a link to it) is refused before
# the run, naming both, and the input is left as it was: run's scenario and CPU profile,
# sweep's scenario (also with --force), validate's recorded files
mkdir "$TMP/in" && cp "$MICRO/call-chain.xml" "$TMP/in/s.xml" &&
  cp "$TMP/in/s.xml" "$TMP/in/s.orig"
mkdir "$TMP/in/cpu" && cp "$DATA/scenarios/cpus/generic.xml" "$TMP/in/cpu/generic.xml" &&
  cp "$TMP/in/cpu/generic.xml" "$TMP/in/p.orig"
ln -s s.xml "$TMP/in/s-link.xml"
expect 2 "run -o its scenario" -- "$NETSIM" run -q --variant plain-ret -o "$TMP/in/s.xml" \
  "$TMP/in/s.xml"
grep -q "^netsim run: -o $TMP/in/s.xml would overwrite the scenario $TMP/in/s.xml" "$TMP/err" &&
  cmp -s "$TMP/in/s.xml" "$TMP/in/s.orig" && ok || bad "run -o its scenario: $(cat "$TMP/err")"
expect 2 "run --folded a link to its scenario" -- "$NETSIM" run -q --variant plain-ret \
  --folded "$TMP/in/s-link.xml" "$TMP/in/s.xml"
grep -q "^netsim run: --folded $TMP/in/s-link.xml would overwrite the scenario $TMP/in/s.xml" \
  "$TMP/err" && [ -L "$TMP/in/s-link.xml" ] && cmp -s "$TMP/in/s.xml" "$TMP/in/s.orig" && ok ||
  bad "run --folded a link to its scenario: $(cat "$TMP/err")"
expect 2 "run -o its CPU profile" -- "$NETSIM" run -q --variant plain-ret \
  --set "cpu.profile=$TMP/in/cpu/generic.xml" -o "$TMP/in/cpu/generic.xml" "$TMP/in/s.xml"
grep -q "^netsim run: -o $TMP/in/cpu/generic.xml would overwrite the CPU profile" "$TMP/err" &&
  cmp -s "$TMP/in/cpu/generic.xml" "$TMP/in/p.orig" && ok ||
  bad "run -o its CPU profile: $(cat "$TMP/err")"
expect 2 "run -o its what-if's CPU profile" -- "$NETSIM" run -q --variant plain-ret \
  --what-if "cpu.profile=$TMP/in/cpu/generic.xml" -o "$TMP/in/cpu/generic.xml" "$TMP/in/s.xml"
grep -q "would overwrite the CPU profile" "$TMP/err" &&
  cmp -s "$TMP/in/cpu/generic.xml" "$TMP/in/p.orig" && ok ||
  bad "run -o its what-if's CPU profile: $(cat "$TMP/err")"
expect 2 "sweep --force -o its scenario" -- "$NETSIM" sweep -q --force --variant plain-ret \
  --param workload.depth=2,3 -o "$TMP/in/s.xml" "$TMP/in/s.xml"
grep -q "^netsim sweep: -o $TMP/in/s.xml would overwrite the scenario $TMP/in/s.xml" "$TMP/err" &&
  cmp -s "$TMP/in/s.xml" "$TMP/in/s.orig" && ok || bad "sweep -o its scenario: $(cat "$TMP/err")"
expect 2 "sweep --json its swept CPU profile" -- "$NETSIM" sweep -q --variant plain-ret \
  --param "cpu.profile=i5-3337u,$TMP/in/cpu/generic.xml" -o "$TMP/in/sw.csv" \
  --json "$TMP/in/cpu/generic.xml" "$TMP/in/s.xml"
grep -q "^netsim sweep: --json $TMP/in/cpu/generic.xml would overwrite the CPU profile" \
  "$TMP/err" &&
  cmp -s "$TMP/in/cpu/generic.xml" "$TMP/in/p.orig" && [ ! -e "$TMP/in/sw.csv" ] && ok ||
  bad "sweep --json its CPU profile: $(cat "$TMP/err")"
mkdir "$TMP/rec" && cp "$DATA"/validation/*.xml "$TMP/rec/"
expect 2 "validate -o a recorded file" -- "$NETSIM" validate -q --recorded "$TMP/rec" \
  -o "$TMP/rec/seed-002.xml" 002-r9-7950x-f1
grep -q "^netsim validate: -o $TMP/rec/seed-002.xml would overwrite the recorded file" "$TMP/err" &&
  cmp -s "$TMP/rec/seed-002.xml" "$DATA/validation/seed-002.xml" && ok ||
  bad "validate -o a recorded file: $(cat "$TMP/err")"
expect 2 "validate -o cases.xml" -- "$NETSIM" validate -q --recorded "$TMP/rec" \
  --format csv -o "$TMP/rec/cases.xml" 002-r9-7950x-f1
grep -q "would overwrite the recorded file $TMP/rec/cases.xml" "$TMP/err" &&
  cmp -s "$TMP/rec/cases.xml" "$DATA/validation/cases.xml" && ok ||
  bad "validate -o cases.xml: $(cat "$TMP/err")"

# an existing output this user may not replace is refused before the run (as root, the
# case is run as nobody; elsewhere it is skipped, and says so)
if [ "$(id -u)" = 0 ] && command -v su >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
  mkdir -m 1777 "$TMP/shared" && chmod 755 "$TMP"
  : >"$TMP/shared/roots.txt"
  if su nobody -s /bin/sh -c "'$NETSIM' --version" >/dev/null 2>&1; then
    expect 2 "run -o another user's file" -- su nobody -s /bin/sh -c \
      "NETSIM_DATADIR='$DATA' '$NETSIM' run -q --variant plain-ret -o '$TMP/shared/roots.txt' '$MICRO/call-chain.xml'"
    grep -q "cannot write $TMP/shared/roots.txt: it exists and this user may not write or replace it" \
      "$TMP/err" && ok || bad "another user's output is not refused up front: $(cat "$TMP/err")"
  else
    echo "SKIP: nobody cannot run $NETSIM (its folders are not readable by others)"
  fi
  chmod 700 "$TMP"
else
  echo "SKIP: the not-replaceable output case needs root, su and the nobody user"
fi

# a device or FIFO is written in place, never replaced by a regular file (as root, a
# rename over /dev/null would replace the system's)
mkfifo "$TMP/fifo"
timeout 20 cat "$TMP/fifo" >"$TMP/fifo.out" &
expect 0 "run -o a FIFO" -- "$NETSIM" run -q --variant plain-ret -o "$TMP/fifo" \
  "$MICRO/call-chain.xml"
[ -p "$TMP/fifo" ] && ok || bad "-o replaced the FIFO"
wait
grep -q "^scenario  call-chain" "$TMP/fifo.out" && ok || bad "-o a FIFO: nothing came through"

# a bad --what-if is named as one; --explain with nothing to compare says so
expect 2 "run --what-if unknown path" -- "$NETSIM" run -q --what-if nope.x=1 \
  "$MICRO/call-chain.xml"
grep -q "(after --what-if nope.x=1)$" "$TMP/err" && ok ||
  bad "a bad --what-if is blamed on --set: $(cat "$TMP/err")"
expect 0 "run --explain --variant" -- "$NETSIM" run -q --explain --variant plain-ret \
  "$MICRO/call-chain.xml"
grep -q "note: --explain has no comparison to explain: --variant" "$TMP/err" && ok ||
  bad "--explain with one variant is silent"

# a .config option no model reads changed nothing: said, so that a typo does not pass
expect 0 "run with a mistyped CONFIG_" -- "$NETSIM" run -q --variant plain-ret \
  --set kernel.config.CONFIG_RETPOLNE=n "$MICRO/call-chain.xml"
grep -q "note: kernel.config.CONFIG_RETPOLNE=n: no model this scenario runs reads option CONFIG_RETPOLNE" \
  "$TMP/err" && ok || bad "an unread CONFIG_ option passes silently: $(cat "$TMP/err")"
# a mitigation option under another kernel era's name (CONFIG_CPU_SRSO, which 6.9 renamed
# CONFIG_MITIGATION_SRSO) is no option of the scenario's kernel: the note says what that
# kernel calls it, not "a typo?"; under the kernel's own name it is read (no note)
expect 0 "run with a pre-6.9 mitigation option on 6.9" -- "$NETSIM" run -q \
  --variant plain-ret --set kernel.config.CONFIG_CPU_SRSO=n "$MICRO/call-chain.xml"
grep -q "note: kernel.config.CONFIG_CPU_SRSO=n: no model this scenario runs reads option CONFIG_CPU_SRSO, so it changed nothing (kernel 6.9 names this option CONFIG_MITIGATION_SRSO: " \
  "$TMP/err" && ok || bad "an option of another era is called a typo: $(cat "$TMP/err")"
expect 0 "run with a mitigation option of the kernel's era" -- "$NETSIM" run -q \
  --variant plain-ret --set kernel.config.CONFIG_MITIGATION_SRSO=n "$MICRO/call-chain.xml"
grep -q "CONFIG_MITIGATION_SRSO" "$TMP/err" && bad "a read mitigation option is called unread" || ok
# an option older than the change that brought it is none of that kernel's: SRSO's came
# with fb3bd914b3ec (6.5-rc6, 6.1.44), after the 7950X scenario's 6.1-rc7
expect 0 "run with an option the kernel's release lacks" -- "$NETSIM" run -q \
  --set measure.duration=50us --set kernel.config.CONFIG_CPU_SRSO=n \
  "$DATA/scenarios/tc-pktgen-matchall-7950x.xml"
grep -q "note: kernel.config.CONFIG_CPU_SRSO=n: .*(kernel 6.1.0-rc7 has no such option)" \
  "$TMP/err" && ok || bad "an option the release lacks is not said to be missing: $(cat "$TMP/err")"
# the BHI default, PTI and the mitigations menu are read too (they were "a typo?"), and
# the menu's pre-6.9-rc6 name on 6.9 gets the note of its own rename
expect 0 "run with the BHI, PTI and menu options" -- "$NETSIM" run -q --variant plain-ret \
  --set kernel.config.CONFIG_MITIGATION_SPECTRE_BHI=n \
  --set kernel.config.CONFIG_MITIGATION_PAGE_TABLE_ISOLATION=n \
  --set kernel.config.CONFIG_CPU_MITIGATIONS=y "$MICRO/call-chain.xml"
grep -q "typo" "$TMP/err" && bad "a read mitigation option is called a typo: $(cat "$TMP/err")" || ok
expect 0 "run with the mitigations menu's old name on 6.9" -- "$NETSIM" run -q \
  --variant plain-ret --set kernel.config.CONFIG_SPECULATION_MITIGATIONS=n "$MICRO/call-chain.xml"
grep -q "(kernel 6.9 names this option CONFIG_CPU_MITIGATIONS: x86's CONFIG_SPECULATION_MITIGATIONS became CONFIG_CPU_MITIGATIONS in 6.9-rc6" \
  "$TMP/err" && ok || bad "the menu's old name is not explained: $(cat "$TMP/err")"
expect 0 "run with a CONFIG_ option the model reads" -- "$NETSIM" run -q \
  --variant 7950x-f1-before --set measure.duration=100us \
  --set kernel.config.CONFIG_NET_CLS_ACT=y "$DATA/scenarios/tc-pktgen-matchall-7950x.xml"
grep -q "CONFIG_NET_CLS_ACT" "$TMP/err" && bad "a read CONFIG_ option is called unread" || ok

# a parameter no model reads changed nothing: said; one the machine reads is not named
expect 0 "run with a parameter the call chain never reads" -- "$NETSIM" run -q \
  --variant plain-ret --set param.sched.wakeup_latency_ns=5000 \
  --set param.cache.l2.latency_cycles=14 "$MICRO/call-chain.xml"
grep -q "note: param.sched.wakeup_latency_ns=5000: no model this scenario runs reads parameter sched.wakeup_latency_ns, so it changed nothing" \
  "$TMP/err" && ok || bad "an unread parameter passes silently: $(cat "$TMP/err")"
grep -q "cache.l2.latency_cycles" "$TMP/err" && bad "a read parameter is called unread" || ok

# a --set that overrides a variant's own set is said (the variants then run alike); a
# --what-if, which does so by design, is not
expect 0 "run --set over the variants' own command lines" -- "$NETSIM" run -q \
  --set measure.duration=20us --set kernel.cmdline=mitigations=off "$MICRO/indirect-call.xml"
grep -q "note: --set kernel.cmdline=mitigations=off replaces variant 'retpoline' set kernel.cmdline=spectre_v2=retpoline: a command-line set wins" \
  "$TMP/err" && ok || bad "a --set over a variant's set passes silently: $(cat "$TMP/err")"
expect 0 "run --what-if over the variants' own command lines" -- "$NETSIM" run -q \
  --set measure.duration=20us --what-if kernel.cmdline=mitigations=off "$MICRO/indirect-call.xml"
grep -q "replaces variant" "$TMP/err" && bad "a --what-if is called a replacement: $(cat "$TMP/err")" || ok

# a kernel command-line word no model reads (a typo, a parameter not modelled) changes
# nothing, as the kernel passes it on to init: the run goes on, and says so (manual,
# "Mitigations"); the words read, in the kernel's spellings, get no note
expect 0 "run with a mistyped command-line key" -- "$NETSIM" run -q \
  --variant 7950x-f1-before --set measure.duration=100us \
  --set "kernel.cmdline=mitigation=off nosmt" "$DATA/scenarios/tc-pktgen-matchall-7950x.xml"
grep -q "note: kernel command line: no model reads 'mitigation=off', so it changed nothing" \
  "$TMP/err" && grep -q "no model reads 'nosmt'" "$TMP/err" && ok ||
  bad "an unread command-line word passes silently: $(cat "$TMP/err")"
grep -q "^7950x-f1-before  *retpoline " "$TMP/out" && ok ||
  bad "a misspelt mitigations=off turned the retpoline off: $(cat "$TMP/out")"
expect 0 "run with command-line keys netsim reads" -- "$NETSIM" run -q --variant plain-ret \
  --set 'kernel.cmdline=spectre_v2=off spec-rstack-overflow=off "retbleed=off" nopti' \
  "$MICRO/call-chain.xml"
grep -q "kernel command line" "$TMP/err" && bad "a read command-line key is noted: $(cat "$TMP/err")" || ok
# a kernel version a model does not cover is an input error like any other: file:line of
# the version, and the set behind it (manual: input errors name file:line)
for udp in micro/udp-lookup.xml udp-lookup-iperf3.xml; do
  expect 2 "run $udp on a kernel before v5.0" -- "$NETSIM" run -q --set kernel.version=4.19 \
    "$DATA/scenarios/$udp"
  grep -q "$(basename "$udp"):[0-9]*: attribute 'version': UDP lookup of kernel 4.19 is not modelled (the model covers v5.0 and later) (after --set kernel.version=4.19)" \
    "$TMP/err" && ok || bad "an unmodelled kernel version is not blamed on the version: $(cat "$TMP/err")"
done
# a bad value of a key read is refused, and the error lists the values the key takes
expect 2 "run with a bad spectre_v2= value" -- "$NETSIM" run -q --variant plain-ret \
  --set kernel.cmdline=spectre_v2=retpolin "$MICRO/call-chain.xml"
grep -q "bad value in 'spectre_v2=retpolin' (spectre_v2= takes 'off', 'on', 'auto', 'retpoline'," \
  "$TMP/err" && ok || bad "a bad spectre_v2= value's error lists no values: $(cat "$TMP/err")"

# -o and --folded new files: each written once (one rename of its temporary file)
if command -v strace >/dev/null 2>&1 && strace -o /dev/null true 2>/dev/null; then
  rm -f "$TMP/once.out" "$TMP/once.folded"
  renames=$(strace -f -e trace=rename,renameat,renameat2 "$NETSIM" run -q \
    --set measure.duration=20us -o "$TMP/once.out" --folded "$TMP/once.folded" \
    "$MICRO/call-chain.xml" 2>&1 >/dev/null | grep -c 'rename')
  [ "$renames" = 2 ] && ok || bad "two new outputs took $renames renames, not 2"
else
  echo "SKIP: strace is missing or cannot trace here: that each new output is written once is not checked"
fi

# a set whose value holds a line break is named on the error's one line (escaped)
for bad_set in 'measure.duration=5x
y' 'workload.depth=1000000
y' 'param.cpu.ipc=1.2
y'; do
  expect 2 "a set with a line break" -- "$NETSIM" run -q --set "$bad_set" "$MICRO/call-chain.xml"
  [ "$(wc -l < "$TMP/err")" = 1 ] && grep -q '(after --set .*\\ny)' "$TMP/err" && ok ||
    bad "a set with a line break breaks the error's line: $(cat "$TMP/err")"
done

# a kernel version whose rules a path does not fully have: the models say what runs
expect 0 "udp-flood on a 6.18 kernel" -- "$NETSIM" run -q --variant ipv4-64-n1 \
  --set measure.duration=50us --set kernel.version=6.18.0 "$MICRO/udp-flood.xml"
grep -q "note: kernel 6.18.0: the UDP models .* run v6.9-rc1's code but for the registered changes.*has 50aee97d1511 .*417c5643cd67" "$TMP/err" && ok ||
  bad "a 6.18 UDP run does not say it runs v6.9's path and which changes: $(cat "$TMP/err")"
expect 0 "tc on a 6.6 kernel" -- "$NETSIM" run -q --variant 7950x-f1-before \
  --set measure.duration=50us --set kernel.version=6.6.0 \
  "$DATA/scenarios/tc-pktgen-matchall-7950x.xml"
grep -q "note: kernel 6.6.0: tc and pktgen run v6.1's code but for the registered changes.*has .*7f0e810220e2" "$TMP/err" && ok ||
  bad "a 6.6 tc run does not say it runs v6.1's tc and which changes: $(cat "$TMP/err")"
expect 0 "the lookup micro on a 6.18 kernel" -- "$NETSIM" run -q --set measure.duration=20us \
  --set kernel.version=6.18.0 "$MICRO/udp-lookup.xml"
grep -q "note: kernel 6.18.0: the UDP models" "$TMP/err" && ok ||
  bad "the lookup micro at 6.18 does not say it runs v6.9's rules: $(cat "$TMP/err")"
expect 0 "tc on its own 6.1 kernel" -- "$NETSIM" run -q --variant 7950x-f1-before \
  --set measure.duration=50us "$DATA/scenarios/tc-pktgen-matchall-7950x.xml"
grep -q "note: kernel" "$TMP/err" && bad "a 6.1 tc run gets a version note" || ok
# the JSON carries the notes in each variant's model_notes (empty where there are none)
expect 0 "tc on a 6.6 kernel, JSON" -- "$NETSIM" run -q -f json --variant 7950x-f1-before \
  --set measure.duration=50us --set kernel.version=6.6.0 \
  "$DATA/scenarios/tc-pktgen-matchall-7950x.xml"
grep -A1 '"model_notes": \[$' "$TMP/out" | grep -q '"kernel 6.6.0: tc and pktgen run v6.1.s code but for' &&
  ok || bad "a 6.6 tc run's JSON has no model note: $(grep -A2 model_notes "$TMP/out")"
expect 0 "tc on its own 6.1 kernel, JSON" -- "$NETSIM" run -q -f json --variant 7950x-f1-before \
  --set measure.duration=50us "$DATA/scenarios/tc-pktgen-matchall-7950x.xml"
grep -q '"model_notes": \[\]' "$TMP/out" && ok ||
  bad "a 6.1 tc run's JSON: model_notes not empty: $(grep -A2 model_notes "$TMP/out")"
# json_config_has LINE: the last run's JSON (in $TMP/out) has LINE ('"CONFIG_X=y"') in a
# variant's "config" list, the .config options the run read as it took them
json_config_has () {
  grep -A60 '"config": \[$' "$TMP/out" | grep -q "^ *$1,\?$"
}
# and the .config options the run read, as it took them: a stated one as stated (the
# base package's Kconfig defaults too: preemptible RCU, no voluntary preemption points),
# a --set one as set; the unstated ones ("y (unstated)") below
expect 0 "tc's config in force, JSON" -- "$NETSIM" run -q -f json --variant 7950x-f1-before \
  --set measure.duration=50us --set kernel.config.CONFIG_INIT_ON_ALLOC_DEFAULT_ON=y \
  "$DATA/scenarios/tc-pktgen-matchall-7950x.xml"
for want in '"CONFIG_SLAB_FREELIST_RANDOM=n"' '"CONFIG_INIT_ON_ALLOC_DEFAULT_ON=y"' \
            '"CONFIG_PREEMPT_RCU=y"' '"CONFIG_PREEMPT_VOLUNTARY=n"' '"CONFIG_X86_KERNEL_IBT=n"'; do
  json_config_has "$want" && ok ||
    bad "a tc run's JSON config lacks $want: $(grep -A20 '"config"' "$TMP/out")"
done
# an option the scenario leaves out is taken as distribution kernels build it, by every
# model that reads it alike: matchall, gact and u32 as modules (pktgen's set-up check and
# the wrapper's chain both) and clsact's sch_ingress too, CONFIG_NET_CLS_ACT built in; no
# "y|n"
grep -v 'CONFIG_NET_CLS_MATCHALL\|CONFIG_NET_ACT_GACT\|CONFIG_NET_CLS_U32\|CONFIG_NET_CLS_ACT\|CONFIG_NET_SCH_INGRESS' \
  "$DATA/scenarios/tc-pktgen-matchall-7950x.xml" >"$TMP/tc-unstated.xml"
expect 0 "tc with its modules unstated, JSON" -- "$NETSIM" run -q -f json \
  --variant 7950x-f1-after --set measure.duration=50us "$TMP/tc-unstated.xml"
for want in '"CONFIG_NET_CLS_MATCHALL=m (unstated)"' '"CONFIG_NET_ACT_GACT=m (unstated)"' \
            '"CONFIG_NET_CLS_U32=m (unstated)"' '"CONFIG_NET_SCH_INGRESS=m (unstated)"' \
            '"CONFIG_NET_CLS_ACT=y (unstated)"'; do
  json_config_has "$want" && ok ||
    bad "unstated tc options not taken as modules alike: $want: $(grep -A60 '"config"' "$TMP/out" | grep 'NET_')"
done
# a kernel config package fills what the scenario leaves unsaid: the same tc run with
# Debian's config as its base (in place of Kconfig's defaults) takes its modules, zeroing
# and shuffle from the package (no "(unstated)"), the scenario's own lines still win
# (cls_bpf built in), JSON names the package, and a package of another series than the
# kernel's is noted
expect 0 "tc on a base config package, JSON" -- "$NETSIM" run -q -f json \
  --variant 7950x-f1-after --set measure.duration=50us \
  --set kernel.base-config=debian-6.1.0-50-cloud-amd64 "$TMP/tc-unstated.xml"
for want in '"CONFIG_NET_CLS_MATCHALL=m"' '"CONFIG_NET_SCH_INGRESS=m"' \
            '"CONFIG_INIT_ON_ALLOC_DEFAULT_ON=y"' '"CONFIG_SLAB_FREELIST_RANDOM=y"' \
            '"CONFIG_X86_KERNEL_IBT=n"' '"CONFIG_PREEMPT_VOLUNTARY=y"' '"CONFIG_NET_CLS_BPF=y"'; do
  json_config_has "$want" && ok ||
    bad "a run on Debian's package lacks $want: $(grep -A60 '"config"' "$TMP/out" | grep 'CONFIG_')"
done
grep -q '"base_config": "debian-6.1.0-50-cloud-amd64"' "$TMP/out" && ok ||
  bad "JSON does not name the base config package: $(grep base_config "$TMP/out")"
grep -q 'kernel config package' "$TMP/err" && bad "a 6.1 package on a 6.1 kernel noted: $(cat "$TMP/err")" || ok
expect 0 "a 6.1 package on a 6.9 kernel" -- "$NETSIM" run -q --variant ipv4-1G-patched \
  --set measure.duration=50us --set kernel.base-config=debian-6.1.0-50-cloud-amd64 \
  "$DATA/scenarios/udp-lookup-iperf3.xml"
grep -q 'note: kernel config package debian-6.1.0-50-cloud-amd64 is a 6.1.176 .config, the kernel 6.9.0-rc1' \
  "$TMP/err" && ok || bad "no series note for a 6.1 package on 6.9: $(cat "$TMP/err")"
grep -q '^kernel    6.9.0-rc1, .config on debian-6.1.0-50-cloud-amd64$' "$TMP/out" && ok ||
  bad "the table's heading does not name the base config: $(grep '^kernel' "$TMP/out")"
# a package of another series is noted with the options the run read that it lacks (they
# took the model's default): seed 000's 6.9.0-rc1 on Debian's 6.12 lacks only 6.9-rc1's
# name of CPU_MITIGATIONS; where it lacks none (a 6.18 kernel's run) nothing is noted
expect 0 "seed 000 on its 6.12 package" -- "$NETSIM" run -q --variant ipv4-1G-patched \
  --set measure.duration=50us "$DATA/scenarios/udp-lookup-iperf3.xml"
grep -q "note: kernel config package debian-6.12.95-amd64 is a 6.12.95 .config, the kernel 6.9.0-rc1: of the options the run read it lacks CONFIG_SPECULATION_MITIGATIONS, which took the model's default (the series between may have renamed or added it)$" \
  "$TMP/err" && ok || bad "the series note does not name the lacking option: $(cat "$TMP/err")"
expect 0 "a 6.12 package on a 6.18 kernel that lacks nothing" -- "$NETSIM" run -q \
  --set measure.duration=50us --set kernel.base-config=debian-6.12.95-amd64 "$MICRO/tc-walk.xml"
grep -q 'kernel config package' "$TMP/err" && bad "a package lacking no option read is noted: $(cat "$TMP/err")" || ok
# a package that does not exist or does not load: exit 2 at the scenario's line, naming
# the package file's own line where it is at fault; an empty value means none
expect 2 "unknown base config package" -- "$NETSIM" run -q \
  --set kernel.base-config=debian-9 "$MICRO/tc-walk.xml"
grep -q "tc-walk.xml:5: attribute 'base-config': unknown kernel config package 'debian-9' (available: debian-6.1.0-50-cloud-amd64" \
  "$TMP/err" && ok || bad "unknown package: $(cat "$TMP/err")"
printf '<?xml version="1.0"?>\n<kconfig name="odd" kernel="6.1.176">\n  <description>t</description><source>s</source>\n  <option name="CONFIG_MEMCG" value="y y"/>\n</kconfig>\n' >"$TMP/odd.xml"
expect 2 "a base config package that does not load" -- "$NETSIM" run -q \
  --set "kernel.base-config=$TMP/odd.xml" "$MICRO/tc-walk.xml"
grep -q "tc-walk.xml:5: attribute 'base-config': $TMP/odd.xml:4: element option: attribute 'value'" \
  "$TMP/err" && ok || bad "bad package file: $(cat "$TMP/err")"
# a package value no bool or tristate takes is refused once a model reads it, at the
# scenario's base-config line, naming the package
printf '<?xml version="1.0"?>\n<kconfig name="word" kernel="6.18">\n  <description>t</description><source>s</source>\n  <option name="CONFIG_MITIGATION_SRSO" value="yes"/>\n</kconfig>\n' >"$TMP/word.xml"
expect 2 "a package value that is no y, m or n" -- "$NETSIM" run -q \
  --set "kernel.base-config=$TMP/word.xml" "$MICRO/tc-walk.xml"
grep -q "tc-walk.xml:5: attribute 'base-config': CONFIG_MITIGATION_SRSO='yes' in kernel config package $TMP/word.xml: a bool/tristate option takes y, m or n" \
  "$TMP/err" && ok || bad "a package's bad value: $(cat "$TMP/err")"
# a package named by a relative path in a scenario file is found beside the file, as a
# profile path is, whatever the current folder
mkdir -p "$TMP/rel/pkg"
sed 's|<kernel version="6.9"|<kernel version="6.9" base-config="pkg/mine.xml"|' \
  "$MICRO/call-chain.xml" >"$TMP/rel/chain.xml"
printf '<?xml version="1.0"?>\n<kconfig name="mine" kernel="6.9">\n  <description>t</description><source>s</source>\n  <option name="CONFIG_MITIGATION_SRSO" value="n"/>\n</kconfig>\n' >"$TMP/rel/pkg/mine.xml"
expect 0 "a relative base-config path" -- "$NETSIM" run -q -f json --set measure.duration=50us \
  "$TMP/rel/chain.xml"
grep -q "\"base_config\": \"$TMP/rel/pkg/mine.xml\"" "$TMP/out" &&
  json_config_has '"CONFIG_MITIGATION_SRSO=n"' && ok ||
  bad "a relative base-config path: $(grep -E 'base_config|SRSO' "$TMP/out")"
# a .config as make writes it (/boot/config-*) is a base config too, by path: its values
# fill the build as a package's do (the scenario's lines still win), its header's version
# is the series it is of, and a line at fault is named at the .config's own line
printf '#\n# Linux/x86 6.12.95 Kernel Configuration\n#\nCONFIG_CC_VERSION_TEXT="gcc 12"\nCONFIG_NET_CLS_MATCHALL=m\n# CONFIG_SLAB_FREELIST_RANDOM is not set\nCONFIG_INIT_ON_ALLOC_DEFAULT_ON=y\nCONFIG_NET_SCH_INGRESS=m\n' >"$TMP/config-6.12.95"
expect 0 "tc on a .config" -- "$NETSIM" run -q -f json --variant 7950x-f1-after \
  --set measure.duration=50us --set "kernel.base-config=$TMP/config-6.12.95" "$TMP/tc-unstated.xml"
for want in '"CONFIG_NET_CLS_MATCHALL=m"' '"CONFIG_NET_SCH_INGRESS=m"' \
            '"CONFIG_INIT_ON_ALLOC_DEFAULT_ON=y"' '"CONFIG_SLAB_FREELIST_RANDOM=n"' \
            '"CONFIG_NET_CLS_BPF=y"' '"CONFIG_NET_ACT_GACT=m (unstated)"'; do
  json_config_has "$want" && ok ||
    bad "a run on a .config lacks $want: $(grep -A60 '"config"' "$TMP/out" | grep 'CONFIG_')"
done
grep -q "\"base_config\": \"$TMP/config-6.12.95\"" "$TMP/out" && ok ||
  bad "JSON does not name the .config: $(grep base_config "$TMP/out")"
grep -q "note: kernel config package config-6.12.95 is a 6.12.95 .config, the kernel 6.1.0-rc7" \
  "$TMP/err" && ok || bad "no series note for a 6.12 .config on 6.1: $(cat "$TMP/err")"
printf '# Linux/x86 6.12.95 Kernel Configuration\nCONFIG_MEMCG=y\nCONFIG_MEMCG is on\n' >"$TMP/config-bad"
expect 2 "a .config that does not load" -- "$NETSIM" run -q \
  --set "kernel.base-config=$TMP/config-bad" "$MICRO/tc-walk.xml"
grep -q "tc-walk.xml:5: attribute 'base-config': $TMP/config-bad:3: not a .config line" \
  "$TMP/err" && ok || bad "bad .config: $(cat "$TMP/err")"
expect 0 "an empty base config" -- "$NETSIM" run -q --set measure.duration=50us \
  --set kernel.base-config= "$MICRO/tc-walk.xml"
expect 0 "list configs" -- "$NETSIM" list configs
grep -q '^debian-6.1.0-50-cloud-amd64 *a 6.1.176 .config, [0-9]* options$' "$TMP/out" && ok ||
  bad "list configs: $(cat "$TMP/out")"
# list configs NAME|FILE: one package, or a .config, as a run takes it (name, kernel, file,
# then CONFIG_X=VALUE in the file's order, strings unquoted, 'is not set' as n); a file
# the reader refuses is refused at its line, exit 2
expect 0 "list configs NAME" -- "$NETSIM" list configs kconfig-defaults-6.1
sed -n '1,2p;4,5p' "$TMP/out" | tr '\n' '|' | grep -qx 'name    kconfig-defaults-6.1|kernel  6.1|CONFIG_SLAB_FREELIST_RANDOM=n|CONFIG_INIT_ON_ALLOC_DEFAULT_ON=n|' &&
  grep -q '^file    .*/scenarios/configs/kconfig-defaults-6.1.xml$' "$TMP/out" &&
  [ "$(grep -c '^CONFIG_' "$TMP/out")" -eq 20 ] && ok || bad "list configs NAME: $(cat "$TMP/out")"
printf '# Linux/x86 6.12.95 Kernel Configuration\nCONFIG_LOCALVERSION="-a \\"b\\""\n# CONFIG_MEMCG is not set\n' \
  >"$TMP/dotconfig"
expect 0 "list configs FILE" -- "$NETSIM" list configs "$TMP/dotconfig"
sed -n '2p;4,$p' "$TMP/out" | tr '\n' '|' | grep -qx 'kernel  6.12.95|CONFIG_LOCALVERSION=-a "b"|CONFIG_MEMCG=n|' &&
  ok || bad "list configs FILE: $(cat "$TMP/out")"
expect 2 "list configs, a bad .config" -- "$NETSIM" list configs "$DATA/tests/data/kconfig/config-twice"
grep -q "config-twice:3: CONFIG_MEMCG is given twice" "$TMP/err" && [ ! -s "$TMP/out" ] && ok ||
  bad "list configs, a bad .config: $(cat "$TMP/err")"
# --explain names the .config options the two runs took differently (both read them), and
# none where the builds differ only by a patch whose code reads more options
expect 0 "explain of a .config what-if" -- "$NETSIM" run -q --variant 7950x-f1-before \
  --set measure.duration=50us --what-if kernel.config.CONFIG_INIT_ON_ALLOC_DEFAULT_ON=y \
  --explain "$DATA/scenarios/tc-pktgen-matchall-7950x.xml"
grep -q '^  .config that differs (1): CONFIG_INIT_ON_ALLOC_DEFAULT_ON n → y$' "$TMP/out" && ok ||
  bad "a .config what-if's explain does not name the option: $(grep -A2 '^why' "$TMP/out")"
expect 0 "explain of the seed's comparisons" -- "$NETSIM" run -q --set measure.duration=50us \
  --explain "$DATA/scenarios/tc-pktgen-matchall-7950x.xml"
grep -q '.config that differs' "$TMP/out" && bad "a patch comparison's explain names .config" ||
  ok
# the RFC of the tc wrapper cannot go on a kernel that has the merged wrapper (v6.2 on):
# refused at the version's line with the set behind it, not run as the RFC (exit 0 and 13
# compares a packet until 2026-12-02)
expect 2 "the tc wrapper RFC on a 6.3 kernel" -- "$NETSIM" run -q --variant 7950x-f1-after \
  --set measure.duration=50us --set kernel.version=6.3 \
  "$DATA/scenarios/tc-pktgen-matchall-7950x.xml"
# (the variant's <set> that applies the RFC, which the message names, is named too)
grep -q "tc-pktgen-matchall-7950x.xml:[0-9]*: attribute 'version': kernel 6.3 has the merged tc retpoline wrapper .*patch tc-retpoline-wrappers-rfc.* (after --set kernel.version=6.3, variant '7950x-f1-after' set kernel.patch.name=tc-retpoline-wrappers-rfc)$" \
  "$TMP/err" && ok || bad "the RFC on 6.3 is not refused at the version: $(cat "$TMP/err")"

# calibrate --host: this machine as a CPU profile that scenarios can run on (x86-64 only)
expect 2 "calibrate --host without -o" -- "$NETSIM" calibrate --host
expect 2 "calibrate --quick without --host" -- "$NETSIM" calibrate --quick
expect 2 "calibrate --runs without --host" -- "$NETSIM" calibrate --runs 3
expect 2 "calibrate --host --runs 0" -- "$NETSIM" calibrate --host --runs 0 -o "$TMP/zero.xml"
grep -q -- "--runs: expected 1 to 100, got '0'" "$TMP/err" && ok || bad "--runs 0 is not explained: $(cat "$TMP/err")"
[ -e "$TMP/zero.xml" ] && bad "a refused --runs wrote a profile" || ok
# calibrate's options that do not apply are refused, and nothing is measured or written
expect 2 "calibrate --host --dry-run" -- "$NETSIM" calibrate --host --quick -q -n \
  -o "$TMP/dry.xml"
[ -e "$TMP/dry.xml" ] && bad "calibrate --host --dry-run wrote a profile"
expect 2 "calibrate -p without --fit" -- "$NETSIM" calibrate -p cpu.ipc
grep -q "go with --fit" "$TMP/err" || bad "calibrate -p without --fit is not explained"
# each of the option checks says which rule the command line broke
expect 2 "calibrate --fit without rows" -- "$NETSIM" calibrate --fit
grep -q "expected --fit ROW… or no arguments" "$TMP/err" && ok || bad "--fit alone: $(cat "$TMP/err")"
expect 2 "calibrate rows without --fit" -- "$NETSIM" calibrate 000-ipv4-mitoff-1G
grep -q "expected --fit ROW… or no arguments" "$TMP/err" && ok || bad "rows alone: $(cat "$TMP/err")"
expect 2 "calibrate --target of another kind" -- "$NETSIM" calibrate --fit 000-ipv4-mitoff-1G \
  --target ratio
grep -q "^netsim calibrate: --target: expected absolute, baseline or delta, got 'ratio'" "$TMP/err" &&
  ok || bad "--target ratio: $(cat "$TMP/err")"
expect 2 "calibrate --host with rows" -- "$NETSIM" calibrate --host -o "$TMP/rows.xml" \
  000-ipv4-mitoff-1G
grep -q "takes -o FILE or --into PROFILE, and no rows" "$TMP/err" && [ ! -e "$TMP/rows.xml" ] &&
  ok || bad "--host with rows: $(cat "$TMP/err")"
expect 2 "calibrate --host -p without --into" -- "$NETSIM" calibrate --host -p cpu.mlp \
  -o "$TMP/p.xml"
grep -q "goes with --into" "$TMP/err" && [ ! -e "$TMP/p.xml" ] && ok ||
  bad "--host -p -o: $(cat "$TMP/err")"
expect 2 "calibrate --host --recorded" -- "$NETSIM" calibrate --host -o "$TMP/r.xml" \
  --recorded "$TMP"
grep -q "go with --fit, not --host" "$TMP/err" && [ ! -e "$TMP/r.xml" ] && ok ||
  bad "--host --recorded: $(cat "$TMP/err")"

# a refused file name or profile is refused before the measuring, which says nothing
expect 2 "calibrate --host -o x.txt" -- "$NETSIM" calibrate --host --quick -o "$TMP/x.txt"
grep -q "x.txt: a profile file is NAME.xml" "$TMP/err" && ! grep -q "measuring" "$TMP/err" &&
  ok || bad "-o x.txt: not refused before measuring: $(cat "$TMP/err")"
[ -e "$TMP/x.txt" ] && bad "a refused -o x.txt was written" || ok
printf '<cpu/>\n' >"$TMP/broken.xml"
expect 2 "calibrate --into a profile that does not load" -- "$NETSIM" calibrate --host --quick \
  --into "$TMP/broken.xml" --param cpu.freq_ghz
! grep -q "measuring" "$TMP/err" && ok || bad "--into a bad profile: said it measures: $(cat "$TMP/err")"

if [ "$(uname -m)" = x86_64 ]; then
  expect 0 "calibrate --host" -- "$NETSIM" calibrate --host --quick -q -o "$TMP/myhost.xml"
  grep -q '<cpu name="myhost"' "$TMP/myhost.xml" || bad "host profile named after its file"
  expect 0 "run on the host profile" -- \
    "$NETSIM" run -q --set "cpu.profile=$TMP/myhost.xml" "$MICRO/call-chain.xml"
  grep -q "myhost" "$TMP/out" || bad "the run names the host profile"
  expect 2 "calibrate --host -o over an existing profile" -- "$NETSIM" calibrate --host \
    --quick -q -o "$TMP/myhost.xml"
  grep -q "exists: -o writes a new profile" "$TMP/err" || bad "-o over a profile not explained"
  # the name (the file stem) is XML-escaped, and a file that would not load is removed
  expect 0 "calibrate --host -o a&b.xml" -- "$NETSIM" calibrate --host --quick -q -o "$TMP/a&b.xml"
  grep -q '<cpu name="a&amp;b"' "$TMP/a&b.xml" && ok || bad "the profile name is not escaped"
  expect 0 "run on a&b.xml" -- "$NETSIM" run -q --set "cpu.profile=$TMP/a&b.xml" "$MICRO/call-chain.xml"
  NOTUTF8="$TMP/a$(printf '\377')b.xml"
  expect 2 "calibrate --host -o a name not UTF-8" -- "$NETSIM" calibrate --host --quick -q -o "$NOTUTF8"
  grep -q "the profile written does not load" "$TMP/err" && ok || bad "an unloadable profile is not explained: $(cat "$TMP/err")"
  [ -e "$NOTUTF8" ] && bad "an unloadable host profile was left behind" || ok
  # --into: measured values into an existing profile, the rest of it as it was (the copy
  # lacks its x86.rdtsc_cycles line, so that --into must add one and replace another)
  Z4="$TMP/into/ryzen9-7950x.xml"
  Z4BASE="$TMP/into-base.xml"
  mkdir -p "$TMP/into"
  grep -v 'name="x86.rdtsc_cycles"' "$DATA/scenarios/cpus/ryzen9-7950x.xml" >"$Z4BASE"
  cp "$Z4BASE" "$Z4"
  expect 2 "calibrate --into a value --host does not measure" -- "$NETSIM" calibrate --host \
    --quick -q --into "$Z4" --param branch.resolve_cycles
  grep -q "branch.resolve_cycles: not a value calibrate --host measures" "$TMP/err" && ok ||
    bad "--into an unmeasured value is not explained: $(cat "$TMP/err")"
  cmp -s "$Z4" "$Z4BASE" && ok || bad "a refused --into changed the profile"
  expect 2 "calibrate --into without --param" -- "$NETSIM" calibrate --host -q --into "$Z4"
  expect 2 "calibrate --into a profile name, not a file" -- "$NETSIM" calibrate --host -q \
    --into ryzen9-7950x --param cpu.freq_ghz
  grep -q "expected a profile file, NAME.xml" "$TMP/err" && ok || bad "--into NAME is not explained: $(cat "$TMP/err")"
  expect 0 "calibrate --into" -- "$NETSIM" calibrate --host --quick -q --into "$Z4" \
    --param x86.rdtsc_cycles --param cpu.freq_ghz
  grep -q '<param name="x86.rdtsc_cycles" value="[0-9.e+]*" source="host measurement (netsim calibrate --host --quick, ' "$Z4" &&
    ok || bad "--into did not add x86.rdtsc_cycles with its source"
  [ "$(diff "$Z4BASE" "$Z4" | grep -c '^[<>]')" -eq 3 ] && ok ||
    bad "--into changed more than the clock line and the added one: $(diff "$Z4BASE" "$Z4")"
  expect 0 "run on the updated profile" -- \
    "$NETSIM" run -q --set "cpu.profile=$Z4" "$MICRO/call-chain.xml"
else
  echo "SKIP: calibrate --host checks (not an x86_64 host: $(uname -m))"
fi

# determinism: the same scenario and seed give byte-identical output
"$NETSIM" run -q --format json "$MICRO/call-chain.xml" >"$TMP/a.json"
"$NETSIM" run -q --format json "$MICRO/call-chain.xml" >"$TMP/b.json"
cmp -s "$TMP/a.json" "$TMP/b.json" && ok || bad "json output differs between two runs"
"$NETSIM" run -q --format csv --seed 7 "$MICRO/pointer-chase.xml" >"$TMP/a.csv"
"$NETSIM" run -q --format csv --seed 7 "$MICRO/pointer-chase.xml" >"$TMP/b.csv"
cmp -s "$TMP/a.csv" "$TMP/b.csv" && ok || bad "csv output differs between two runs"
grep -q '^# param cache.l2.latency_cycles = ' "$TMP/a.csv" && ok || bad "csv header has the parameters"

# json: every parameter is written with its source
nparams=$("$NETSIM" list params | grep -c '^[a-z]')
nsources=$(grep -c '"source": "' "$TMP/a.json")
nvariants=$(grep -c '"stop_rule"' "$TMP/a.json")
[ "$nsources" -eq $((nparams * nvariants)) ] && ok || bad "json: $nsources sources for $nparams params x $nvariants variants"
grep -q '"srso-safe-ret"' "$TMP/a.json" && ok || bad "json lists the variants"

# --set changes the run; bad --set is a usage error naming the problem
"$NETSIM" run -q --format csv --variant plain-ret "$MICRO/call-chain.xml" >"$TMP/c1.csv"
"$NETSIM" run -q --format csv --variant plain-ret --set workload.body-insns=40 \
  "$MICRO/call-chain.xml" >"$TMP/c2.csv"
# (the figures, not the heading: the heading names the sets)
grep -q '^# set workload.body-insns=40$' "$TMP/c2.csv" && ! grep -q '^# set' "$TMP/c1.csv" &&
  ok || bad "csv heading: the --set in force"
# the csv heading has the first variant's parameters, then each other variant's that
# differ (a variant's <set path="param.…">, a what-if twin's profile), and the what-ifs
sed 's|<set path="workload.inline" value="true"/>|&<set path="param.cpu.ipc" value="3"/>|' \
  "$MICRO/call-chain.xml" >"$TMP/ipc-variant.xml"
expect 0 "csv: a variant's own parameter" -- "$NETSIM" run -q --format csv \
  --set measure.duration=20us "$TMP/ipc-variant.xml"
grep -q '^# param cpu.ipc = 1.5 ' "$TMP/out" &&
  grep -q "^# variant inlined: param cpu.ipc = 3 .* variant 'inlined' set" "$TMP/out" &&
  [ "$(grep -c '^# variant ' "$TMP/out")" -eq 1 ] && ok ||
  bad "csv heading: a variant's parameter: $(grep '^# variant\|cpu.ipc' "$TMP/out")"
expect 0 "csv: a what-if's profile" -- "$NETSIM" run -q --format csv --variant plain-ret \
  --set measure.duration=20us --what-if cpu.profile=zen3-epyc-7713 "$MICRO/call-chain.xml"
grep -q '^# what-if: cpu.profile=zen3-epyc-7713$' "$TMP/out" &&
  grep -q '^# variant plain-ret (what-if): cpu zen3-epyc-7713$' "$TMP/out" &&
  grep -q '^# variant plain-ret (what-if): param cache.l3.size_kib = 32768 KiB ' "$TMP/out" &&
  ok || bad "csv heading: the what-if and its twin's parameters: $(grep '^# [wv]' "$TMP/out" | head -3)"
"$NETSIM" run -q --format json --variant plain-ret --set measure.duration=20us \
  --what-if cpu.profile=zen3-epyc-7713 "$MICRO/call-chain.xml" | tr -d ' \n' |
  grep -q '"what_if":\["cpu.profile=zen3-epyc-7713"\]' && ok || bad "json: the what-ifs"
grep '^variant,' "$TMP/c1.csv" >"$TMP/c1.rows"
grep '^variant,' "$TMP/c2.csv" >"$TMP/c2.rows"
cmp -s "$TMP/c1.rows" "$TMP/c2.rows" && bad "--set workload.body-insns had no effect" || ok
"$NETSIM" run -q --variant plain-ret --set workload.body-insns=40 --set workload.depth=4 \
  "$MICRO/call-chain.xml" >"$TMP/t2.txt"
grep -q '^set       workload.body-insns=40, workload.depth=4 ' "$TMP/t2.txt" && ok ||
  bad "table heading: the --sets in force"
"$NETSIM" run -q --format json --variant plain-ret --set workload.body-insns=40 \
  "$MICRO/call-chain.xml" | tr -d ' \n' | grep -q '"sets":\["workload.body-insns=40"\]' &&
  ok || bad "json: the --sets in force"
# kernel.config.NAME: the option by name, the walk's slab layout changes the 100-filter run
TC="$DATA/scenarios/tc-pktgen-matchall-7950x.xml"
expect 0 "the 100-filter run, packed slabs" -- "$NETSIM" run -q --format csv \
  --variant 7950x-f100-before "$TC"
grep '^variant,' "$TMP/out" >"$TMP/k1.rows"
expect 0 "the 100-filter run, CONFIG_SLAB_FREELIST_RANDOM=y" -- "$NETSIM" run -q \
  --format csv --variant 7950x-f100-before --set kernel.config.CONFIG_SLAB_FREELIST_RANDOM=y "$TC"
grep '^variant,' "$TMP/out" >"$TMP/k2.rows"
[ -s "$TMP/k1.rows" ] && [ -s "$TMP/k2.rows" ] && ! cmp -s "$TMP/k1.rows" "$TMP/k2.rows" &&
  ok || bad "--set kernel.config.CONFIG_SLAB_FREELIST_RANDOM=y had no effect"
expect 2 "--set kernel.config with a bad option name" -- "$NETSIM" run -q \
  --set kernel.config.SLAB=y "$TC"
grep -q "tc-pktgen-matchall-7950x.xml:[0-9]*: element config: attribute 'name'.*(after --set kernel.config.SLAB=y)" \
  "$TMP/err" && ok || bad "a bad kernel.config name is not reported at file:line: $(cat "$TMP/err")"
expect 2 "--set to an unknown parameter" -- "$NETSIM" run -q --set param.no.such=1 "$MICRO/call-chain.xml"
expect 2 "--set with a bad value" -- "$NETSIM" run -q --set measure.repetitions=zero "$MICRO/call-chain.xml"
grep -q 'call-chain.xml:[0-9]' "$TMP/err" && ok || bad "bad --set value names file:line"
# a --set changes a valid file and never mends a broken one: a file refused alone is
# refused with a set that would replace its bad value, by run (--variant, --what-if too)
# and sweep, with the file's own error (not a note that fitted values were not checked)
sed 's/repetitions="1"/repetitions="three"/' "$MICRO/call-chain.xml" >"$TMP/three.xml"
for how in "run -q" "run -q --variant plain-ret" "run -q --what-if measure.repetitions=2" \
           "sweep -q -p workload.depth=2,3 -o $TMP/three.csv"; do
  # shellcheck disable=SC2086
  expect 2 "$how a malformed file with a --set over its bad value" -- "$NETSIM" $how \
    --set measure.repetitions=1 "$TMP/three.xml"
  grep -q "^netsim [a-z]*: $TMP/three.xml:7: element measure: attribute 'repetitions': expected a positive integer (at most 10000), got 'three'$" \
    "$TMP/err" && ! grep -q "note:" "$TMP/err" && [ ! -e "$TMP/three.csv" ] && ok ||
    bad "$how --set over a malformed file: $(cat "$TMP/err")"
done
# a file with two variants of one name is refused with that error (file:line of the second,
# the first's line) also when --variant names another, not as "no variant named" with the
# list of both; the scenario's other variant-taking paths (sweep --variant, -p variant=) too
sed 's/<variant name="L1-16KiB"\/>/<variant name="L2-256KiB"\/>/' "$MICRO/pointer-chase.xml" \
  >"$TMP/dupvariant.xml"
for how in "run -q" "run -q --variant L1-16KiB" "run -q --variant L2-256KiB" \
           "sweep -q --variant L1-16KiB -p seed=1,2 -o $TMP/dupv.csv" \
           "sweep -q -p variant=L1-16KiB -o $TMP/dupv.csv"; do
  # shellcheck disable=SC2086
  expect 2 "$how with two variants of one name" -- "$NETSIM" $how "$TMP/dupvariant.xml"
  grep -q "^netsim [a-z]*: $TMP/dupvariant.xml:11: element variant: variant 'L2-256KiB' is given twice (first on line 10)$" \
    "$TMP/err" && [ ! -e "$TMP/dupv.csv" ] && ok || bad "$how, two variants of one name: $(cat "$TMP/err")"
done
# errors found after loading (parameter ranges, workload attributes) name the --set too
expect 2 "--set a parameter out of range" -- "$NETSIM" run -q --set param.cpu.mlp=0 "$MICRO/call-chain.xml"
grep -q 'outside the valid range.*(after --set param.cpu.mlp=0)' "$TMP/err" && ok ||
  bad "out-of-range --set param does not name the --set: $(cat "$TMP/err")"
expect 2 "--set an existing parameter out of range" -- "$NETSIM" run -q --variant 5950x-f1-before \
  --set param.cpu.ipc=99 "$DATA/scenarios/tc-pktgen-matchall-5950x.xml"
grep -q 'cpu.ipc: 99 is outside.*(after --set param.cpu.ipc=99)' "$TMP/err" && ok ||
  bad "a --set changing a scenario's own <param> is not named: $(cat "$TMP/err")"
expect 2 "--set a workload attribute out of range" -- "$NETSIM" run -q --set workload.depth=0 \
  "$MICRO/call-chain.xml"
grep -q "attribute 'depth'.*(after --set workload.depth=0)" "$TMP/err" && ok ||
  bad "out-of-range --set workload attribute does not name the --set: $(cat "$TMP/err")"
# an IPv6 datagram too long for lo is refused naming both values at fault: the length and
# the family (here the variant's), because the check says so (the old message matching named
# the family's set only because the value it replaced, "ipv4", is in the message's advice)
expect 2 "IPv6 length past lo's unfragmented limit" -- "$NETSIM" run -q --variant ipv6-8920-n1 \
  --set workload.length=65500 "$MICRO/udp-flood.xml"
grep -q "udp-flood.xml:24: attribute 'length': 65500 bytes is above 65488, .*(after --set workload.length=65500, variant 'ipv6-8920-n1' set workload.family=ipv6)$" \
  "$TMP/err" && ok || bad "an IPv6 length past the limit does not name the family's set: $(cat "$TMP/err")"
# a bad verdict names its attribute, the value given and the set behind it
for attr in action last-action; do
  expect 2 "--set workload.$attr=jump" -- "$NETSIM" run -q --variant 7950x-f1-before \
    --set "workload.$attr=jump" "$DATA/scenarios/tc-pktgen-matchall-7950x.xml"
  grep -q "tc-pktgen-matchall-7950x.xml:[0-9]*: attribute '$attr': expected continue, .*, got 'jump' (after --set workload.$attr=jump)" \
    "$TMP/err" && ok || bad "a bad $attr is not reported with its value and set: $(cat "$TMP/err")"
done
# an error a --set caused names it, also where the message names a value it wrote or
# replaced rather than its attribute: a duplicate name or label, a variant a compare names
# that the set renamed, a kernel option or patch the set-up refuses (doc/scenario-format.md)
for set in 'variants.variant[2].name=plain-ret' 'comparisons.compare[2].label=unret vs plain' \
    'variants.variant[2].name=unret'; do
  expect 2 "--set $set" -- "$NETSIM" run -q --set "$set" "$MICRO/call-chain.xml"
  case "$(cat "$TMP/err")" in
    "netsim run: "*"call-chain.xml:"[0-9]*": "*"(after --set $set)") ok ;;
    *) bad "--set $set is not named: $(cat "$TMP/err")" ;;
  esac
done
for set in kernel.config.CONFIG_NET_CLS_MATCHALL=n kernel.config.CONFIG_NET_CLS_ACT=m \
    kernel.patch.name=tc-wrapper-cls-first kernel.config.CONFIG_RETPOLINE=m \
    kernel.config.CONFIG_CPU_UNRET_ENTRY=m; do
  expect 2 "--set $set" -- "$NETSIM" run -q --set measure.duration=50us --set "$set" \
    "$DATA/scenarios/tc-pktgen-matchall-7950x.xml"
  grep -q "tc-pktgen-matchall-7950x.xml:[0-9]*: .*(after --set $set)$" "$TMP/err" && ok ||
    bad "--set $set is not named (alone): $(cat "$TMP/err")"
done
# a profile a set named whose caches cannot be built: at <cpu>, naming the set, and the
# profile's file at its L1D size's line
sed -e 's/<cpu name="generic"/<cpu name="tiny"/' -e '/cache.l1d.size_kib/s/value="32"/value="1"/' \
  -e '/cache.l1d.assoc/s/value="8"/value="32"/' "$DATA/scenarios/cpus/generic.xml" >"$TMP/tiny.xml"
line=$(grep -n 'cache.l1d.size_kib' "$TMP/tiny.xml" | cut -d: -f1)
expect 2 "--set cpu.profile= a profile whose L1D holds no set" -- "$NETSIM" run -q \
  --variant plain-ret --set "cpu.profile=$TMP/tiny.xml" "$MICRO/call-chain.xml"
grep -q "call-chain.xml:4: variant 'plain-ret': attribute 'profile': $TMP/tiny.xml:$line: cache.l1d.size_kib = 1 KiB cannot hold .*(after --set cpu.profile=$TMP/tiny.xml)$" \
  "$TMP/err" && ok || bad "a profile's geometry error does not name the set: $(cat "$TMP/err")"
# ... and only the sets behind it: not one that changed another attribute of the element
expect 2 "--set CONFIG_NET_CLS_MATCHALL=n with a set on <workload>" -- "$NETSIM" run -q \
  --set workload.filters=2 --set kernel.config.CONFIG_NET_CLS_MATCHALL=n \
  "$DATA/scenarios/tc-pktgen-matchall-7950x.xml"
grep -q "(after --set kernel.config.CONFIG_NET_CLS_MATCHALL=n)$" "$TMP/err" && ok ||
  bad "--set CONFIG_NET_CLS_MATCHALL=n with workload.filters: $(cat "$TMP/err")"
# ... and a variant's own <set> is named as the variant's, not as a --set
sed 's|<set path="workload.inline" value="true"/>|<set path="workload.depth" value="0"/>|' \
  "$MICRO/call-chain.xml" >"$TMP/bad-variant.xml"
expect 2 "a variant's <set> out of range" -- "$NETSIM" run -q --variant inlined "$TMP/bad-variant.xml"
grep -q "attribute 'depth'.*(after variant 'inlined' set workload.depth=0)" "$TMP/err" && ok ||
  bad "out-of-range variant <set> is not named as the variant's: $(cat "$TMP/err")"
# body-insns and nop-insns are counts of at most a million, not taken modulo 2^32
expect 2 "body-insns past 2^32" -- "$NETSIM" run -q --variant off \
  --set workload.body-insns=4294967306 "$MICRO/indirect-call.xml"
grep -q "indirect-call.xml:6: attribute 'body-insns': expected 0 to 1000000, got 4294967306 (after --set workload.body-insns=4294967306)$" \
  "$TMP/err" && ok || bad "body-insns past 2^32 is not refused: $(cat "$TMP/err")"
expect 2 "body-insns past the bound" -- "$NETSIM" run -q --variant plain-ret \
  --set workload.body-insns=1000001 "$MICRO/call-chain.xml"
grep -q "call-chain.xml:6: attribute 'body-insns': expected 0 to 1000000" "$TMP/err" && ok ||
  bad "body-insns 1000001 is not refused: $(cat "$TMP/err")"
expect 0 "body-insns at the bound" -- "$NETSIM" run -q --variant off --set workload.body-insns=1000000 \
  --set measure.duration=10ms "$MICRO/indirect-call.xml"
grep -q "^off  *cycles_per_call  *666666\.6667 " "$TMP/out" && ok ||
  bad "body-insns 1000000 does not cost a million instructions: $(grep '^off ' "$TMP/out")"
expect 2 "nop-insns past 2^32" -- "$NETSIM" run -q --set workload.nop-insns=4294967328 "$MICRO/call-tree.xml"
grep -q "call-tree.xml:6: attribute 'nop-insns': expected 0 to 1000000, got 4294967328 (after --set workload.nop-insns=4294967328)$" \
  "$TMP/err" && ok || bad "nop-insns past 2^32 is not refused: $(cat "$TMP/err")"
# an inlined chain with an empty body charges nothing a pass: refused (it hung, simulated
# time never advancing; timeout turns a hang into a failure, status 124)
expect 2 "inlined chain with body-insns=0" -- timeout 20 "$NETSIM" run -q --variant inlined \
  --set workload.body-insns=0 "$MICRO/call-chain.xml"
grep -q "call-chain.xml:6: attribute 'body-insns': expected 1 to 1000000 with inline=\"true\", got 0 .*(after --set workload.body-insns=0, variant 'inlined' set workload.inline=true)$" \
  "$TMP/err" && ok || bad "an inlined empty chain is not refused: $(cat "$TMP/err")"
# iperf3's --pacing-timer is an int of microseconds (a timer's period is whole ones)
expect 2 "pacing-timer past iperf3's int" -- "$NETSIM" run -q --variant ipv4-1G-baseline \
  --set workload.pacing-timer=2147483648us "$DATA/scenarios/udp-lookup-iperf3.xml"
grep -q "attribute 'pacing-timer': expected 1us to 2147483647us (iperf3's --pacing-timer is an int of microseconds), got 2147483648us" "$TMP/err" &&
  ok || bad "pacing-timer past iperf3's int is not refused: $(cat "$TMP/err")"
expect 0 "pacing-timer at iperf3's int" -- "$NETSIM" run -q --variant ipv4-1G-baseline \
  --set workload.pacing-timer=2147483647us --set workload.streams=1 \
  --set measure.warmup=20us --set measure.duration=200us --set measure.repetitions=1 \
  "$DATA/scenarios/udp-lookup-iperf3.xml"
grep -q '^ipv4-1G-baseline  *kbytes_per_sec  *[0-9][0-9.]*  ' "$TMP/out" && ok ||
  bad "pacing-timer at iperf3's int printed no figure: $(tail -2 "$TMP/out")"
# a what-if whose reuseport group takes every datagram (extras at the head, none
# connected: udp4_lib_lookup2 returns the group's pick) leaves the server nothing; the
# drops at the extras' full buffers are a figure all the same, not "completed no datagram"
expect 0 "iperf3 drops_per_sec with nothing received" -- "$NETSIM" run -q \
  --variant ipv4-MAX-baseline --set workload.server-family=inet --set workload.extra-sockets=10 \
  --set workload.extra-position=head --set workload.extra-reuseport=true \
  --set measure.metric=drops_per_sec --set measure.warmup=200us --set measure.duration=1ms \
  --set measure.repetitions=1 "$DATA/scenarios/udp-lookup-iperf3.xml"
awk '$1 == "ipv4-MAX-baseline" && $2 == "drops_per_sec" { found = ($3 > 0) } END { exit !found }' \
  "$TMP/out" && ok || bad "drops_per_sec with nothing received: $(grep '^ipv4' "$TMP/out")"
# ... but no figure per datagram: --stat and --breakdown say n/a and none, not 0.00
expect 0 "iperf3 --stat --breakdown with nothing received" -- "$NETSIM" run -q --stat \
  --breakdown --variant ipv4-MAX-baseline --set workload.server-family=inet \
  --set workload.extra-sockets=10 --set workload.extra-position=head \
  --set workload.extra-reuseport=true --set measure.metric=drops_per_sec \
  --set measure.warmup=200us --set measure.duration=1ms --set measure.repetitions=1 \
  "$DATA/scenarios/udp-lookup-iperf3.xml"
grep -q '^  ipv4-MAX-baseline  *n/a$' "$TMP/out" &&
  grep -q '^  none: variant ipv4-MAX-baseline had no datagram in its measured windows' "$TMP/out" &&
  ! grep -q ' 0\.00 ' "$TMP/out" && ok ||
  bad "per-datagram figures with no datagram: $(tail -6 "$TMP/out")"
# --pacing-timer paces nothing at -b 0 (iperf3 makes no pacing timers): refused at file:line
expect 2 "pacing-timer with rate 0" -- "$NETSIM" run -q --variant ipv4-MAX-baseline \
  --set workload.pacing-timer=7us "$DATA/scenarios/udp-lookup-iperf3.xml"
grep -q "udp-lookup-iperf3.xml:[0-9]*: attribute 'pacing-timer' cannot take effect with attribute 'rate' ('0'): .*(after variant 'ipv4-MAX-baseline' set workload.rate=0, --set workload.pacing-timer=7us)$" \
  "$TMP/err" && ok || bad "pacing-timer with rate 0 is not refused: $(cat "$TMP/err")"
# ... and only the sets behind those two: not an unrelated set whose value, 0, is the rate's
# (the old message matching named --set workload.extra-sockets=0 as well)
expect 2 "pacing-timer with rate 0 and extra-sockets 0" -- "$NETSIM" run -q \
  --variant ipv4-MAX-baseline --set workload.pacing-timer=7us --set workload.extra-sockets=0 \
  "$DATA/scenarios/udp-lookup-iperf3.xml"
grep -q "attribute 'pacing-timer' cannot take effect with attribute 'rate' ('0'): .*(after variant 'ipv4-MAX-baseline' set workload.rate=0, --set workload.pacing-timer=7us)$" \
  "$TMP/err" && ok || bad "an unrelated set with the rate's value is named: $(cat "$TMP/err")"
# an error about an attribute a set's element lacks names the set that made it lacking
expect 2 "a variant set left without its value" -- "$NETSIM" run -q --variant retbleed-unret \
  --set 'variants.variant[2].set[2].path=workload.depth' "$MICRO/call-chain.xml"
grep -q "call-chain.xml:[0-9]*: element set: missing required attribute 'value' (after --set variants.variant\[2\].set\[2\].path=workload.depth)$" \
  "$TMP/err" && ok || bad "the set behind a missing value is not named: $(cat "$TMP/err")"
# a from= parameter a set renamed: the set is named
expect 2 "a from= parameter renamed" -- "$NETSIM" run -q --variant ipv4-8920-n1 \
  --set 'param[1].name=cpu.freq_ghz' "$MICRO/udp-flood.xml"
grep -q "declares no parameter 'cpu.freq_ghz' .*(after --set param\[1\].name=cpu.freq_ghz)$" \
  "$TMP/err" && ok || bad "the rename behind a from= error is not named: $(cat "$TMP/err")"
# a what-if that needs the tc wrapper, after a set replaced the wrapper patch: that set too
expect 2 "cls-first without the wrapper patch" -- "$NETSIM" run -q --variant 7950x-f1-cls-first \
  --set kernel.patch.name=udp-compute-score-single-site \
  "$DATA/scenarios/tc-pktgen-whatif-7950x.xml"
grep -q "moves matchall .*(after --set kernel.patch.name=udp-compute-score-single-site, variant '7950x-f1-cls-first' set kernel.patch\[2\].name=tc-wrapper-cls-first)$" \
  "$TMP/err" && ok || bad "the set that removed the wrapper is not named: $(cat "$TMP/err")"
# a from= a set pointed at a file whose value is out of range: that set is named
sed 's/name="cpu.ipc" value="[^"]*"/name="cpu.ipc" value="99"/' \
  "$DATA/scenarios/udp-lookup-iperf3.xml" >"$TMP/ipc99.xml"
expect 2 "a from= value out of range" -- "$NETSIM" run -q --variant ipv4-8920-n1 \
  --set "param[1].from=$TMP/ipc99.xml" "$MICRO/udp-flood.xml"
grep -q "udp-flood.xml:[0-9]*: parameter cpu.ipc: 99 is outside the valid range .*(after --set param\[1\].from=$TMP/ipc99.xml)$" \
  "$TMP/err" && ok || bad "the set behind a from= value is not named: $(cat "$TMP/err")"
# a <param> refusal is at the line of the attribute at fault, in a tag over several lines:
# an unknown name at the name's (it was at the value's), a bad value at the value's, a
# value from= gave (out of range) or from= beside value at the from='s (the tag's before)
param_file () {  # param_file FILE ATTRIBUTE-LINES...: a scenario, <param on line 5
  out=$1; shift
  { printf '<?xml version="1.0" encoding="UTF-8"?>\n<scenario name="p" seed="1">\n'
    printf '  <cpu profile="generic"/>\n  <kernel version="6.9"/>\n  <param\n'
    for a in "$@"; do printf '      %s\n' "$a"; done
    printf '  <workload type="pointer-chase" cpu="0" working-set="16KiB"/>\n'
    printf '  <measure metric="cycles_per_load" duration="20us"/>\n</scenario>\n'; } >"$out"
}
param_file "$TMP/pn.xml" 'name="cpu.ipcc"' 'source="x"' 'value="2"/>'
expect 2 "an unknown parameter over several lines" -- "$NETSIM" run -q "$TMP/pn.xml"
grep -q "^netsim run: $TMP/pn.xml:6: unknown parameter 'cpu.ipcc' (did you mean 'cpu.ipc'?" \
  "$TMP/err" && ok || bad "an unknown parameter is not at its name's line: $(cat "$TMP/err")"
param_file "$TMP/pv.xml" 'name="cpu.ipc"' 'source="x"' 'value="-5"/>'
expect 2 "a bad parameter value over several lines" -- "$NETSIM" run -q "$TMP/pv.xml"
grep -q "^netsim run: $TMP/pv.xml:8: parameter cpu.ipc: -5 is outside the valid range" \
  "$TMP/err" && ok || bad "a bad parameter value is not at its line: $(cat "$TMP/err")"
param_file "$TMP/pf.xml" 'name="cpu.ipc"' 'source="x"' "from=\"$TMP/ipc99.xml\"/>"
sed -i '/source="x"/d' "$TMP/pf.xml"
expect 2 "a from= value out of range over several lines" -- "$NETSIM" run -q "$TMP/pf.xml"
grep -q "^netsim run: $TMP/pf.xml:7: parameter cpu.ipc: 99 is outside the valid range" \
  "$TMP/err" && ok || bad "a from= value out of range is not at from's line: $(cat "$TMP/err")"
param_file "$TMP/pfv.xml" 'name="cpu.ipc"' 'source="x"' 'value="2"' "from=\"$TMP/ipc99.xml\"/>"
expect 2 "from= beside value over several lines" -- "$NETSIM" run -q "$TMP/pfv.xml"
grep -q "^netsim run: $TMP/pfv.xml:9: element param: attribute 'from' cannot be given with 'value'" \
  "$TMP/err" && ok || bad "from= beside value is not at from's line: $(cat "$TMP/err")"
# and so in a CPU profile: an unknown name at its line, a bad value at the value's
mkdir -p "$TMP/profiles"
for p in pn pv; do
  awk -v p=$p '/<cpu name=/ { sub(/name="[^"]*"/, "name=\"" p "\"") }
    /<param/ && !done { done = 1; print "  <param"
      print (p == "pn" ? "      name=\"cpu.ipcc\"" : "      name=\"cache.l2.latency_cycles\"")
      print "      source=\"x\""; print "      value=\"" (p == "pn" ? 2 : 1000) "\"/>" }
    { print }' "$DATA/scenarios/cpus/generic.xml" >"$TMP/profiles/$p.xml"
done
pline=$(grep -n '^  <param$' "$TMP/profiles/pn.xml" | cut -d: -f1)
expect 2 "an unknown profile parameter over several lines" -- "$NETSIM" run -q \
  --set "cpu.profile=$TMP/profiles/pn.xml" "$TMP/pv.xml"
grep -q "profiles/pn.xml:$((pline + 1)): unknown parameter 'cpu.ipcc'" "$TMP/err" && ok ||
  bad "an unknown profile parameter is not at its name's line: $(cat "$TMP/err")"
expect 2 "a bad profile parameter value over several lines" -- "$NETSIM" run -q \
  --set "cpu.profile=$TMP/profiles/pv.xml" "$TMP/pv.xml"
grep -q "profiles/pv.xml:$((pline + 3)): parameter cache.l2.latency_cycles: 1000 is outside" \
  "$TMP/err" && ok ||
  bad "a bad profile parameter value is not at its line: $(cat "$TMP/err")"
expect 2 "--variant that does not exist" -- "$NETSIM" run -q --variant nope "$MICRO/call-chain.xml"
grep -q "no variant named 'nope' (variants: 'plain-ret', " "$TMP/err" ||
  bad "--variant nope lists the scenario's variants: $(cat "$TMP/err")"
sed '/<description>/d' "$MICRO/call-chain.xml" >"$TMP/no-description.xml"
expect 0 "a scenario without a description" -- "$NETSIM" run -q --variant plain-ret \
  --set measure.duration=20us "$TMP/no-description.xml"
grep -q "^scenario  call-chain$" "$TMP/out" && ok ||
  bad "a scenario without a description: $(head -1 "$TMP/out")"
expect 2 "--variant of a scenario without variants" -- "$NETSIM" run -q --variant nope \
  "${TESTS_SRCDIR:-$DATA/tests}/data/good/minimal.xml"
grep -q "no variant named 'nope' (variants: none)" "$TMP/err" ||
  bad "a scenario without variants says so: $(cat "$TMP/err")"

# malformed scenario: exit 2, message names file:line
printf '<?xml version="1.0"?>\n<scenario name="x">\n  <cpu profile="generic">\n</scenario>\n' >"$TMP/broken.xml"
expect 2 "malformed scenario" -- "$NETSIM" run -q "$TMP/broken.xml"
grep -q 'broken.xml:[0-9]' "$TMP/err" && ok || bad "malformed scenario error names file:line"

# every malformed or hostile scenario in tests/data/bad: exit 2, message names file:line
for f in "${TESTS_SRCDIR:-$DATA/tests}"/data/bad/*.xml; do
  name=$(basename "$f")
  "$NETSIM" run -q "$f" >"$TMP/out" 2>"$TMP/err"; got=$?
  if [ "$got" -eq 2 ] && grep -q "$name:[0-9]" "$TMP/err"; then ok; else
    bad "bad/$name: exit $got, stderr: $(head -c 200 "$TMP/err")"; fi
done

# a padded attribute value the schema passes (it compares tokens trimmed) is refused in a
# CPU profile too: vendor=" intel" was read as AMD
mkdir "$TMP/padded"
sed 's/vendor="intel"/vendor=" intel"/' "$DATA/scenarios/cpus/i5-10210u.xml" >"$TMP/padded/i5-10210u.xml"
expect 2 "padded profile attribute" -- "$NETSIM" run -q --set cpu.profile="$TMP/padded/i5-10210u.xml" \
  "$MICRO/pointer-chase.xml"
grep -q "padded/i5-10210u.xml:[0-9]*: element cpu: attribute 'vendor': value ' intel' begins or ends" \
  "$TMP/err" && ok || bad "padded profile attribute: $(cat "$TMP/err")"

# the convergence stop rule: the output says which rule stopped the run
expect 0 "converging run" -- "$NETSIM" run -q --variant srso-safe-ret --set measure.converge=0.01 \
  --set measure.batch=10us --set measure.max-duration=1ms "$MICRO/call-chain.xml"
grep -q 'converged: 95% CI' "$TMP/out" && ok || bad "converging run names its stop rule"
expect 0 "capped converging run" -- "$NETSIM" run -q --variant L3-4MiB --set measure.converge=0.000000001 \
  --set measure.batch=10us --set measure.min-batches=1000 --set measure.max-duration=100us "$MICRO/pointer-chase.xml"
grep -q 'max-duration reached' "$TMP/out" && ok || bad "capped run names its stop rule"
# stopped before min-batches, it has no interval to print (it printed "CI ±inf%")
grep -q 'max-duration reached: 10 batches of 10 us, fewer than the 1000 min-batches (no CI)' \
  "$TMP/out" && ! grep -q 'inf' "$TMP/out" && ok ||
  bad "a run capped before min-batches: $(grep reached "$TMP/out")"
expect 2 "batch shorter than 10 quanta" -- "$NETSIM" run -q --variant L3-4MiB --set measure.converge=0.01 \
  --set measure.batch=2us "$MICRO/pointer-chase.xml"
grep -q 'pointer-chase.xml:[0-9]*: .*batch' "$TMP/err" && ok || bad "short batch error names file:line"
# a quantum the command line lengthened is named with the sets behind the window
expect 2 "batch shorter than 10 set quanta" -- "$NETSIM" run -q --variant L3-4MiB \
  --set measure.converge=0.01 --set measure.batch=20us --set param.sched.quantum_ns=5000 \
  "$MICRO/pointer-chase.xml"
grep -q 'sched.quantum_ns = 50 us with .*(after --set measure.converge=0.01, --set measure.batch=20us, --set param.sched.quantum_ns=5000)$' "$TMP/err" && ok ||
  bad "a set quantum behind a short batch is not named: $(cat "$TMP/err")"

# a convergence run stops before a batch that would pass max-duration: 3 batches of 30us
# fit in 100us, a fourth would end at 120us
expect 0 "max-duration not a whole number of batches" -- "$NETSIM" run -q --variant L3-4MiB \
  --set measure.converge=0.000000001 --set measure.batch=30us --set measure.min-batches=1000 \
  --set measure.max-duration=100us "$MICRO/pointer-chase.xml"
grep -q 'max-duration reached: 3 batches of 30 us, fewer' "$TMP/out" && ok ||
  bad "a capped run passes max-duration: $(grep reached "$TMP/out")"
# a batch that completed nothing is named, with the attribute to lengthen (iperf3 at 1G
# sends a burst every 1ms pacing tick: 100us batches between bursts see no datagram)
expect 1 "empty batch" -- "$NETSIM" run -q --variant ipv4-1G-baseline --set workload.streams=1 \
  --set measure.converge=0.05 --set measure.batch=100us --set measure.repetitions=1 \
  "$DATA/scenarios/udp-lookup-iperf3.xml"
grep -q 'completed no datagram in batch 3 (100 us, from 200 us into the measured time): lengthen measure/@batch' \
  "$TMP/err" && ok || bad "an empty batch is not named: $(cat "$TMP/err")"
# cross-attribute errors name every --set behind them
expect 2 "max-duration below one batch" -- "$NETSIM" run -q --variant off --set measure.converge=0.01 \
  --set measure.batch=10us --set measure.max-duration=5us "$MICRO/indirect-call.xml"
grep -q "indirect-call.xml:7: .*'max-duration' (5us) is shorter than one batch, .*'batch' (10us) (after --set measure.batch=10us, --set measure.max-duration=5us)$" \
  "$TMP/err" && ok || bad "max-duration below a batch does not name the sets: $(cat "$TMP/err")"
expect 2 "call-tree too large" -- "$NETSIM" run -q --set workload.fanout=100 "$MICRO/call-tree.xml"
grep -q "call-tree.xml:6: attribute 'fanout' (100) and attribute 'depth' (3): .*(after --set workload.fanout=100)$" \
  "$TMP/err" && ok || bad "a call tree too large does not name the set: $(cat "$TMP/err")"
expect 2 "iperf3 CPUs overlap" -- "$NETSIM" run -q --variant ipv4-1G-baseline \
  --set workload.server-cpu=0 "$DATA/scenarios/udp-lookup-iperf3.xml"
grep -q "udp-lookup-iperf3.xml:[0-9]*: attribute 'client-cpu' and attribute 'server-cpu': .* overlap .*(after --set workload.server-cpu=0)$" \
  "$TMP/err" && ok || bad "overlapping iperf3 CPUs do not name the set: $(cat "$TMP/err")"
expect 2 "iperf3 IPv6 streams to an AF_INET server" -- "$NETSIM" run -q --variant ipv4-1G-baseline \
  --set workload.server-family=inet --set workload.family=ipv6 "$DATA/scenarios/udp-lookup-iperf3.xml"
grep -q "cannot receive the streams of attribute 'family' ('ipv6') (after --set workload.family=ipv6, --set workload.server-family=inet)$" \
  "$TMP/err" && ok || bad "family and server-family do not name both sets: $(cat "$TMP/err")"
# iperf3 makes multisend passes unpaced only: an explicit multisend with -b is refused
expect 2 "iperf3 multisend with a rate" -- "$NETSIM" run -q --variant ipv4-1G-baseline \
  --set workload.multisend=5 "$DATA/scenarios/udp-lookup-iperf3.xml"
grep -q "udp-lookup-iperf3.xml:[0-9]*: attribute 'multisend' (5) cannot take effect with attribute 'rate' ('1G'): iperf3 makes one pass over the streams a loop when paced.*(after --set workload.multisend=5)$" \
  "$TMP/err" && ok || bad "multisend with a rate is not refused with the set: $(cat "$TMP/err")"
# a run whose simulated end passes 2^63-1 ps is refused, not wrapped round
expect 2 "warmup + duration past the last time" -- "$NETSIM" run -q --variant off \
  --set measure.duration=9223372036844775808ps "$MICRO/indirect-call.xml"
grep -q "indirect-call.xml:7: element measure: attribute 'warmup' (10us) + attribute 'duration' (9223372036844775808ps) end past the longest simulated time.*(after --set measure.duration=9223372036844775808ps)$" \
  "$TMP/err" && ok || bad "an overflowing duration is not refused: $(cat "$TMP/err")"
expect 2 "warmup + max-duration past the last time" -- "$NETSIM" run -q --variant off \
  --set measure.converge=0.01 --set measure.batch=9223372036854775807ps \
  --set measure.max-duration=9223372036854775807ps "$MICRO/indirect-call.xml"
grep -q "indirect-call.xml:7: element measure: attribute 'warmup' (10us) + attribute 'max-duration' (9223372036854775807ps) end past" \
  "$TMP/err" && ok || bad "an overflowing max-duration is not refused: $(cat "$TMP/err")"

# a batch too short for the quantum names the sets behind it: the convergence rule, and the
# duration the default batch derives from
sed 's|duration="100us"|duration="50us"|' "$MICRO/call-chain.xml" >"$TMP/short.xml"
expect 2 "converge on a short default batch" -- "$NETSIM" run -q --variant plain-ret \
  --set measure.converge=0.01 "$TMP/short.xml"
grep -q "short.xml:[0-9]*: the default batch, attribute 'duration' / 10 = 5 us .*shorter than 10 x sched.quantum_ns = 10 us.* (after --set measure.converge=0.01)$" \
  "$TMP/err" && ok || bad "a short batch does not name --set measure.converge: $(cat "$TMP/err")"
expect 2 "converge with a short duration" -- "$NETSIM" run -q --variant plain-ret \
  --set measure.converge=0.01 --set measure.duration=50us "$MICRO/call-chain.xml"
grep -q "the default batch, .* (after --set measure.duration=50us, --set measure.converge=0.01)$" \
  "$TMP/err" && ok || bad "a short default batch does not name both sets: $(cat "$TMP/err")"
# a default batch too short says it is the default (duration / 10) and how to lengthen it,
# at the duration's line; it spoke of an attribute 'batch' the file does not have
sed 's|<measure .*/>|<measure metric="cycles_per_call"\
    duration="20us"\
    converge="0.01"/>|' "$MICRO/indirect-call.xml" >"$TMP/default-batch.xml"
expect 2 "a default batch too short" -- "$NETSIM" run -q --variant off "$TMP/default-batch.xml"
grep -q "^netsim run: $TMP/default-batch.xml:8: the default batch, attribute 'duration' / 10 = 2 us (no attribute 'batch' is given), is shorter than 10 x sched.quantum_ns = 10 us, the least a batch of the convergence rule ('converge' set) may be: set attribute 'batch' to at least 10 us, or a 'duration' of at least 100 us$" \
  "$TMP/err" && ok || bad "a short default batch: $(cat "$TMP/err")"
# a batch written too short is refused at its own line, as is a convergence-only
# attribute without converge, and an overflowing warmup + duration at the warmup's
sed 's|<measure .*/>|<measure metric="cycles_per_call"\
    duration="20us"\
    batch="5us"\
    converge="0.01"/>|' "$MICRO/indirect-call.xml" >"$TMP/short-batch.xml"
expect 2 "a batch too short" -- "$NETSIM" run -q --variant off "$TMP/short-batch.xml"
grep -q "^netsim run: $TMP/short-batch.xml:9: attribute 'batch': expected at least 10 x sched.quantum_ns = 10 us with attribute 'converge' set, got 5 us$" \
  "$TMP/err" && ok || bad "a short batch: $(cat "$TMP/err")"
sed '/converge=/d; s|batch="5us"|batch="5us"/>|' "$TMP/short-batch.xml" >"$TMP/batch-alone.xml"
expect 2 "batch without converge" -- "$NETSIM" run -q --variant off "$TMP/batch-alone.xml"
grep -q "^netsim run: $TMP/batch-alone.xml:9: element measure: attribute 'batch': only the convergence rule" \
  "$TMP/err" && ok || bad "batch without converge: $(cat "$TMP/err")"
sed 's|<measure .*/>|<measure metric="cycles_per_call"\
    duration="9223372036844775808ps"\
    warmup="10us"/>|' "$MICRO/indirect-call.xml" >"$TMP/overflow.xml"
expect 2 "warmup + duration past the last time, over lines" -- "$NETSIM" run -q --variant off \
  "$TMP/overflow.xml"
grep -q "^netsim run: $TMP/overflow.xml:9: element measure: attribute 'warmup' (10us) + attribute 'duration'" \
  "$TMP/err" && ok || bad "an overflowing duration over lines: $(cat "$TMP/err")"

# a parameter value takes the number syntax of scenario attributes: no hex float, no space
expect 2 "--set param.cpu.ipc=0x1p1" -- "$NETSIM" run -q --variant plain-ret \
  --set param.cpu.ipc=0x1p1 "$MICRO/call-chain.xml"
grep -q "parameter cpu.ipc: expected a number, got '0x1p1' (after --set param.cpu.ipc=0x1p1)$" \
  "$TMP/err" && ok || bad "a hex-float parameter value: $(cat "$TMP/err")"
expect 2 "--set param.cpu.sockets=' 1'" -- "$NETSIM" run -q --variant plain-ret \
  --set "param.cpu.sockets= 1" "$MICRO/call-chain.xml"
# refused by the XML layer's rule (no attribute value begins or ends with white space)
grep -q "element param: attribute 'value': value ' 1' begins or ends with white space (write it without) (after --set param.cpu.sockets= 1)" "$TMP/err" && ok ||
  bad "a parameter value with a leading space: $(cat "$TMP/err")"

# --output: written whole; a failing run or unwritable path leaves nothing behind
expect 0 "--output" -- "$NETSIM" run -q --format json -o "$TMP/r.json" "$MICRO/indirect-call.xml"
[ -s "$TMP/r.json" ] && ok || bad "--output wrote nothing"
expect 2 "--output into a missing directory" -- "$NETSIM" run -q -o "$TMP/no/dir/r.json" "$MICRO/indirect-call.xml"
expect 2 "failing run with --output" -- "$NETSIM" run -q -o "$TMP/never.json" "$TMP/broken.xml"
[ -e "$TMP/never.json" ] && bad "a failed run left an output file" || ok

# an output named by the empty string, or by a name with a control character (a newline
# would inject lines into the gnuplot script that quotes the name), is refused before
# anything runs, by every subcommand and output option
NL=$(printf '\nx'); NL=${NL%x}
expect 2 "run -o ''" -- "$NETSIM" run -q -o '' "$MICRO/indirect-call.xml"
grep -q "^netsim run: cannot write '': empty file name$" "$TMP/err" && ok || bad "run -o '': $(cat "$TMP/err")"
expect 2 "run --folded ''" -- "$NETSIM" run -q --folded '' -o "$TMP/e.txt" "$MICRO/indirect-call.xml"
grep -q "empty file name" "$TMP/err" && [ ! -e "$TMP/e.txt" ] && ok || bad "run --folded '': $(cat "$TMP/err")"
expect 2 "validate -o ''" -- "$NETSIM" validate -q -o '' no-such-row
grep -q "^netsim validate: cannot write '': empty file name$" "$TMP/err" && ok ||
  bad "validate -o '': $(cat "$TMP/err")"
expect 2 "sweep --json ''" -- "$NETSIM" sweep -q -o "$TMP/ej.csv" --json '' \
  --param workload.depth=2 "$MICRO/call-chain.xml"
grep -q "empty file name" "$TMP/err" && [ ! -e "$TMP/ej.csv" ] && ok ||
  bad "sweep --json '': $(cat "$TMP/err")"
expect 2 "calibrate --host -o ''" -- "$NETSIM" calibrate --host --quick -q -o ''
grep -q "empty file name" "$TMP/err" && ok || bad "calibrate -o '': $(cat "$TMP/err")"
expect 2 "run -o with a newline" -- "$NETSIM" run -q -o "$TMP/a${NL}b.txt" "$MICRO/indirect-call.xml"
grep -q "control character" "$TMP/err" && [ ! -e "$TMP/a${NL}b.txt" ] && ok ||
  bad "run -o with a newline: $(cat "$TMP/err")"
(cd "$TMP" && "$ABS_NETSIM" sweep -q -o "$TMP/nl.csv" --param workload.depth=2,3 \
  --plot x=workload.depth,y=cycles_per_call "nl${NL}system(\"touch PWNED\")${NL}.png" \
  "$ABS_DATA/scenarios/micro/call-chain.xml" >/dev/null 2>"$TMP/err"; echo $? >"$TMP/status")
[ "$(cat "$TMP/status")" -eq 2 ] && grep -q "control character" "$TMP/err" && [ ! -e "$TMP/PWNED" ] &&
  [ ! -e "$TMP/nl.csv" ] && ok || bad "sweep --plot with a newline: $(cat "$TMP/status") $(cat "$TMP/err")"
expect 2 "calibrate --host -o with a carriage return" -- "$NETSIM" calibrate --host --quick -q \
  -o "$TMP/cr$(printf '\r').xml"
grep -q "control character" "$TMP/err" && ok || bad "calibrate -o with CR: $(cat "$TMP/err")"
expect 2 "validate --plot with a newline" -- "$NETSIM" validate -q --plot "$TMP/v${NL}.png" no-such-row
grep -q "control character" "$TMP/err" && ok || bad "validate --plot with a newline: $(cat "$TMP/err")"

# the JSON's seed is the exact unsigned value, a decimal string (as sweep's JSON writes it)
expect 0 "run -f json with the largest seed" -- "$NETSIM" run -q -f json --variant plain-ret \
  --seed 18446744073709551615 --set measure.duration=20us "$MICRO/call-chain.xml"
grep -q '^  "seed": "18446744073709551615",$' "$TMP/out" && ok ||
  bad "json seed 2^64-1: $(grep '"seed"' "$TMP/out")"

# a newline in a value (here the kernel command line's; a name refuses control characters)
# is escaped in the CSV's # lines: every line before the column names is a comment, for
# run and sweep (validate: test-validate.sh)
expect 0 "run -f csv with a newline in a set" -- "$NETSIM" run -q -f csv --variant plain-ret \
  --set measure.duration=20us --set "kernel.cmdline=quiet${NL}y,z" \
  --what-if "kernel.cmdline=quiet${NL}i" "$MICRO/call-chain.xml"
awk '/^kind,/ { exit !ok } !/^#/ { exit 1 } { ok = 1 }' "$TMP/out" &&
  grep -q '^# set kernel.cmdline=quiet\\ny,z$' "$TMP/out" &&
  grep -q '^# what-if: kernel.cmdline=quiet\\ni$' "$TMP/out" && ok || bad "run csv # lines broken by a newline: $(head -8 "$TMP/out")"
expect 0 "sweep with a newline in a set" -- "$NETSIM" sweep -q -o "$TMP/nlset.csv" --variant plain-ret \
  --set measure.duration=20us --set "kernel.cmdline=quiet${NL}y,z" -p workload.depth=2 "$MICRO/call-chain.xml"
awk '/^point,/ { exit !ok } !/^#/ { exit 1 } { ok = 1 }' "$TMP/nlset.csv" &&
  grep -q '^# set kernel.cmdline=quiet\\ny,z$' "$TMP/nlset.csv" && ok ||
  bad "sweep csv # lines broken by a newline: $(head -8 "$TMP/nlset.csv")"

# -o and --folded are written all or nothing: a failing -o (or standard output) removes a
# --folded file this run created, and leaves one that existed before untouched
expect 2 "--folded with a failing -o" -- "$NETSIM" run -q --variant plain-ret --set measure.duration=20us \
  --folded "$TMP/ok.folded" -o /dev/full "$MICRO/call-chain.xml"
[ ! -e "$TMP/ok.folded" ] && ok || bad "a failing -o left --folded's file behind"
"$NETSIM" run -q --variant plain-ret --set measure.duration=20us --folded "$TMP/so.folded" \
  "$MICRO/call-chain.xml" >/dev/full 2>"$TMP/err"
[ $? -eq 2 ] && [ ! -e "$TMP/so.folded" ] && ok || bad "a failing standard output left --folded's file behind"
echo before >"$TMP/old.folded"
expect 2 "an existing --folded with a failing -o" -- "$NETSIM" run -q --variant plain-ret \
  --set measure.duration=20us --folded "$TMP/old.folded" -o /dev/full "$MICRO/call-chain.xml"
[ "$(cat "$TMP/old.folded")" = before ] && ok || bad "a failing -o removed or replaced an existing --folded file"
expect 0 "-o and --folded" -- "$NETSIM" run -q --variant plain-ret --set measure.duration=20us \
  --folded "$TMP/both.folded" -o "$TMP/both.txt" "$MICRO/call-chain.xml"
grep -q '^plain-ret;' "$TMP/both.folded" && grep -q '^scenario  call-chain' "$TMP/both.txt" && ok ||
  bad "-o and --folded: not both written"

# CSV fields are quoted as RFC 4180 says: a variant name may hold a comma or a quote
sed 's/"plain-ret"/"plain,\&quot;ret"/g' "$MICRO/call-chain.xml" >"$TMP/comma.xml"
expect 0 "a variant named with a comma and a quote" -- "$NETSIM" run -q --format csv \
  --set measure.duration=20us "$TMP/comma.xml"
grep -q '^variant,"plain,""ret",' "$TMP/out" && grep -q '^comparison,unret vs plain,.*,"plain,""ret",' \
  "$TMP/out" && ok || bad "csv does not quote a variant name: $(grep plain "$TMP/out")"
# an unknown patch is named, not the first patch of the kernel
sed 's|<kernel version="6.9"|<kernel version="6.9"><patch name="revert-udp-rescore"/><patch name="no-such-patch"/></kernel><!--|; s|spec_rstack_overflow=off"/>|-->|' \
  "$MICRO/call-chain.xml" >"$TMP/patch.xml"
expect 2 "an unknown second patch" -- "$NETSIM" run -q --variant plain-ret "$TMP/patch.xml"
grep -q "unknown patch 'no-such-patch'" "$TMP/err" && ok || bad "unknown patch misnamed: $(cat "$TMP/err")"

# a comparison against a zero baseline has no delta: n/a, not inf or nan
expect 0 "a metric that is 0" -- "$NETSIM" run -q --set workload.streams=2 --set measure.warmup=100us \
  --set measure.duration=1ms --set measure.repetitions=1 --set measure.metric=drops_per_sec \
  "$DATA/scenarios/udp-lookup-iperf3.xml"
grep -q '^ipv4 1G: patch.* 0\.00 *0\.00 *n/a$' "$TMP/out" && ! grep -qi '\(nan\|inf\)%' "$TMP/out" && ok ||
  bad "zero-baseline comparison: $(grep '^ipv4 1G: patch' "$TMP/out")"

# a ping-pong needs two CPUs: distance 'same' is refused as a bad value, not as a missing CPU
expect 2 "ping-pong with no CPU at the distance" -- "$NETSIM" run -q --variant smt --set param.cpu.sockets=1 \
  --set workload.distance=remote --set workload.cpu=1 "$MICRO/pingpong.xml"
# (and the topology's set: until 2026-12-02, late, that one was not named)
grep -q "pingpong.xml:[0-9]*: attribute 'distance': .* from CPU 1 (attribute 'cpu') (after --set workload.cpu=1, --set workload.distance=remote, --set param.cpu.sockets=1)$" \
  "$TMP/err" && ok || bad "no CPU at a distance does not name the three sets: $(cat "$TMP/err")"
expect 2 "ping-pong at distance same" -- "$NETSIM" run -q --set workload.distance=same "$MICRO/pingpong.xml"
grep -q "expected smt, ccx, socket or remote, got 'same'" "$TMP/err" && ok ||
  bad "distance same: $(cat "$TMP/err")"

# a scenario's fitted cpu.ipc carried to another CPU is noted on stderr, and only then
TC="$DATA/scenarios/tc-pktgen-matchall-5950x.xml"
short="--set measure.warmup=20us --set measure.duration=100us --variant 5950x-f1-before"
# shellcheck disable=SC2086 # $short is a list of options
expect 0 "fitted ipc on another cpu" -- "$NETSIM" run -q $short --set cpu.profile=ryzen9-7950x "$TC"
grep -q "note: the scenario's cpu.ipc = [0-9.]* was fitted for profile ryzen9-5950x .*runs on ryzen9-7950x" \
  "$TMP/err" && ok || bad "no note for a fit on another CPU: $(cat "$TMP/err")"
# shellcheck disable=SC2086
expect 0 "fitted ipc on its cpu" -- "$NETSIM" run -q $short "$TC"
grep -q "note:" "$TMP/err" && bad "a note without a CPU change: $(cat "$TMP/err")" || ok
# shellcheck disable=SC2086
expect 0 "ipc set for the other cpu" -- "$NETSIM" run -q $short --set cpu.profile=ryzen9-7950x \
  --set param.cpu.ipc=1.114 "$TC"
grep -q "note:" "$TMP/err" && bad "a note though cpu.ipc was set: $(cat "$TMP/err")" || ok

# a relative profile path given on the command line is taken from the current folder (as
# calibrate --host -o myhost.xml wrote it there); one written in the scenario file from the
# file's folder
mkdir -p "$TMP/cwd" "$TMP/scfolder"
sed 's|<cpu name="generic"|<cpu name="myhost"|' "$DATA/scenarios/cpus/generic.xml" >"$TMP/cwd/myhost.xml"
sed 's|<cpu name="generic"|<cpu name="beside"|' "$DATA/scenarios/cpus/generic.xml" \
  >"$TMP/scfolder/beside.xml"
sed 's|<cpu profile="generic"/>|<cpu profile="beside.xml"/>|' "$MICRO/call-chain.xml" \
  >"$TMP/scfolder/beside-profile.xml"
(cd "$TMP/cwd" && NETSIM_DATADIR="$ABS_DATA" "$ABS_NETSIM" run -q --variant plain-ret \
  --set cpu.profile=myhost.xml "$ABS_DATA/scenarios/micro/call-chain.xml" >/dev/null 2>"$TMP/err") &&
  ok || bad "--set cpu.profile=myhost.xml not found in the current folder: $(cat "$TMP/err")"
(cd "$TMP/cwd" && NETSIM_DATADIR="$ABS_DATA" "$ABS_NETSIM" run -q --variant plain-ret \
  --what-if cpu.profile=myhost.xml "$ABS_DATA/scenarios/micro/call-chain.xml" >/dev/null 2>"$TMP/err") &&
  ok || bad "--what-if cpu.profile=myhost.xml not found in the current folder: $(cat "$TMP/err")"
(cd "$TMP/cwd" && NETSIM_DATADIR="$ABS_DATA" "$ABS_NETSIM" sweep -q -j 1 -o "$TMP/cwd/p.csv" \
  --variant plain-ret --param cpu.profile=myhost.xml,generic \
  "$ABS_DATA/scenarios/micro/call-chain.xml" >/dev/null 2>"$TMP/err") && grep -q '^0,myhost.xml,plain-ret,0,[0-9]*,ok,' "$TMP/cwd/p.csv" &&
  ok || bad "sweep --param cpu.profile=myhost.xml not found in the current folder: $(cat "$TMP/err")"
(cd "$TMP/cwd" && NETSIM_DATADIR="$ABS_DATA" "$ABS_NETSIM" run -q --variant plain-ret \
  "$TMP/scfolder/beside-profile.xml" >/dev/null 2>"$TMP/err") &&
  ok || bad "a relative profile in the scenario file not found beside it: $(cat "$TMP/err")"
expect 0 "--set cpu.profile=ABSOLUTE" -- "$NETSIM" run -q --variant plain-ret \
  --set "cpu.profile=$TMP/cwd/myhost.xml" "$MICRO/call-chain.xml"

# list
expect 0 "list cpus" -- "$NETSIM" list cpus
grep -q '^generic ' "$TMP/out" && ok || bad "list cpus shows generic"
expect 0 "list scenarios" -- "$NETSIM" list
grep -q 'micro/pointer-chase.xml' "$TMP/out" && ok || bad "list shows micro scenarios"
expect 0 "list workloads" -- "$NETSIM" list workloads
# each model's attributes from its table, those its setup checks: values, default, meaning
sed -n '/^pktgen /,/^[^ ]/p' "$TMP/out" | grep -A1 '^      filters  *0 to 4096; default 1$' |
  grep -q '^        filters on dummy0' && ok ||
  bad "list workloads: pktgen's filters: $(sed -n '/^pktgen /,$p' "$TMP/out")"
sed -n '/^iperf3 /,/^[^ ]/p' "$TMP/out" | grep -q '^      length  *16 to 65507 bytes; default 32768$' &&
  ok || bad "list workloads: iperf3's length: $(sed -n '/^iperf3 /,/^[^ ]/p' "$TMP/out")"
sed -n '/^pktgen /,/^[^ ]/p' "$TMP/out" | grep -q '^      last-action .*; default that of action$' &&
  ok || bad "list workloads: pktgen's last-action default"
sed -n '/^pointer-chase /,/^[^ ]/p' "$TMP/out" | grep -q '^      working-set  *128B to 4GiB; required$' &&
  ok || bad "list workloads: pointer-chase's working-set is required"
expect 0 "list patches" -- "$NETSIM" list patches
# the kernel changes read from the release: seed 000's fix with its mainline and stables
expect 0 "list changes" -- "$NETSIM" list changes
grep -A2 '^50aee97d1511 udp: Avoid call to compute_score on multiple sites$' "$TMP/out" |
  grep -q '^    mainline 6.10-rc1; stable 6.9.3, 6.8.12, 6.6.33, 6.1.93, 5.15.161, 5.10.219$' &&
  ok || bad "list changes: seed 000's fix: $(grep -A3 '^50aee97d1511' "$TMP/out")"
grep -A2 '^417c5643cd67 ' "$TMP/out" | grep -q '^    mainline 6.12-rc1; stable none$' && ok ||
  bad "list changes: a change no stable took: $(grep -A3 '^417c5643cd67' "$TMP/out")"
# a reverted change: its revert under it
grep -A3 '^612b1c0dec5b ' "$TMP/out" |
  grep -q '^    reverted by 3d501f562f63: mainline 6.13-rc2; stable 6.12.5$' && ok ||
  bad "list changes: 612b1c0dec5b's revert: $(grep -A4 '^612b1c0dec5b' "$TMP/out")"
# --release marks what a release has: 6.1.92 lacks seed 000's fix, 6.1.93 has it
expect 0 "list changes for 6.1.92" -- "$NETSIM" list changes --release 6.1.92
grep -q '^lacks  50aee97d1511 ' "$TMP/out" && grep -q '^has    f0ea27e7bfe1 ' "$TMP/out" &&
  ok || bad "list changes --release 6.1.92: $(grep '50aee97d1511\|f0ea27e7bfe1' "$TMP/out")"
expect 0 "list changes for 6.1.93" -- "$NETSIM" list changes --release 6.1.93
grep -q '^has    50aee97d1511 ' "$TMP/out" && ok ||
  bad "list changes --release 6.1.93: $(grep 50aee97d1511 "$TMP/out")"
# 6.12.4 runs the reverted change, 6.12.5 has its revert (undone)
expect 0 "list changes for 6.12.4" -- "$NETSIM" list changes --release 6.12.4
grep -q '^has    612b1c0dec5b ' "$TMP/out" && ok ||
  bad "list changes --release 6.12.4: $(grep 612b1c0dec5b "$TMP/out")"
expect 0 "list changes for 6.12.5" -- "$NETSIM" list changes --release 6.12.5
grep -q '^undone 612b1c0dec5b ' "$TMP/out" && ok ||
  bad "list changes --release 6.12.5: $(grep 612b1c0dec5b "$TMP/out")"
# --since R0 lists only what R0 and R differ in: 6.5 to 6.6.0 gains the tcx hook and the
# re-score, not the 6.2 wrapper both have; 6.12.4 to 6.12.5 only the revert
expect 0 "list changes from 6.5 to 6.6.0" -- "$NETSIM" list changes --since 6.5 --release 6.6.0
grep -q '^has    e420bed02507 ' "$TMP/out" && grep -q '^    6.5 lacks it$' "$TMP/out" &&
  ! grep -q '7f0e810220e2' "$TMP/out" && ok ||
  bad "list changes --since 6.5 --release 6.6.0: $(grep -c '^[a-z]' "$TMP/out") listed"
expect 0 "list changes from 6.12.4 to 6.12.5" -- "$NETSIM" list changes --since 6.12.4 \
  --release 6.12.5
[ "$(grep -c '^[a-z]' "$TMP/out")" = 1 ] && grep -q '^undone 612b1c0dec5b ' "$TMP/out" &&
  grep -q '^    6.12.4 has it$' "$TMP/out" && ok ||
  bad "list changes --since 6.12.4 --release 6.12.5: $(grep '^[a-z]' "$TMP/out")"
expect 2 "list changes since without a release" -- "$NETSIM" list changes --since 6.1
grep -q "^netsim list: --since R0 compares R0 with the release --release R names" \
  "$TMP/err" && ok || bad "list changes --since alone: $(cat "$TMP/err")"
expect 2 "list changes since a bad release" -- "$NETSIM" list changes --since six --release 6.1
grep -q "^netsim list: --since six: " "$TMP/err" && ok ||
  bad "list changes --since six: $(cat "$TMP/err")"
expect 2 "list changes for a bad release" -- "$NETSIM" list changes --release six
grep -q "^netsim list: --release six: " "$TMP/err" && ok ||
  bad "list changes --release six: $(cat "$TMP/err")"
expect 2 "list cpus with a release" -- "$NETSIM" list cpus --release 6.1
grep -q "goes with 'changes', not 'cpus'" "$TMP/err" && ok ||
  bad "list cpus --release: $(cat "$TMP/err")"
expect 2 "list nonsense" -- "$NETSIM" list nonsense
grep -q "^netsim list: unknown 'nonsense': expected one of " "$TMP/err" && ok ||
  bad "list nonsense does not name the word: $(cat "$TMP/err")"
expect 2 "list two things" -- "$NETSIM" list cpus scenarios
grep -q "^netsim list: lists one thing at a time, got 2" "$TMP/err" && ok ||
  bad "list of two things: $(cat "$TMP/err")"
# output that does not get there (a full disk) is an error, as for run: exit 2, said so
for what in params cpus scenarios patches workloads changes; do
  "$NETSIM" list "$what" >/dev/full 2>"$TMP/err"
  [ $? -eq 2 ] && grep -q "^netsim list: writing standard output: No space left on device$" "$TMP/err" &&
    ok || bad "list $what > /dev/full: $(cat "$TMP/err")"
done
"$NETSIM" --version >/dev/full 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "^netsim: writing standard output: " "$TMP/err" && ok ||
  bad "--version > /dev/full: $(cat "$TMP/err")"
# a subcommand's --help, which GLib's option parser prints and exits on, too
for what in run sweep validate calibrate list; do
  "$NETSIM" "$what" --help >/dev/full 2>"$TMP/err"
  [ $? -eq 2 ] && grep -q "^netsim $what: writing standard output: " "$TMP/err" && ok ||
    bad "$what --help > /dev/full: $(cat "$TMP/err")"
done
"$NETSIM" run -q --variant plain-ret --set measure.duration=20us "$MICRO/call-chain.xml" >/dev/full 2>"$TMP/err"
[ $? -eq 2 ] && [ "$(grep -c 'writing standard output' "$TMP/err")" -eq 1 ] && ok ||
  bad "run > /dev/full: not one message: $(cat "$TMP/err")"

# with --variant, --set applies on top of the variant's sets (doc/scenario-format.md): a
# set may edit what only the variant has, here the second <patch> of 7950x-f100-after
# (the classifier first in the wrapper's chain); an unknown variant is named with the list
expect 0 "--set on a variant's own element" -- "$NETSIM" run -q --format csv \
  --variant 7950x-f100-after --set 'kernel.patch[2].name=tc-wrapper-cls-first' \
  --set measure.duration=200us "$DATA/scenarios/tc-pktgen-matchall-7950x.xml"
grep -q '^variant,7950x-f100-after,pps,' "$TMP/out" && ok || bad "--set on a variant's patch: $(cat "$TMP/out")"
expect 2 "--variant unknown" -- "$NETSIM" run -q --variant nosuch \
  "$DATA/scenarios/tc-pktgen-matchall-7950x.xml"
grep -q "no variant named 'nosuch' (variants: '7950x-f1-before', " "$TMP/err" && ok ||
  bad "--variant unknown does not list the variants: $(cat "$TMP/err")"

# doc/scenario-format.md's example scenario runs and gives what the text says: 4.00
# cycles a load in l1 (the L1D), 14.00 in l2 (its <param>'s L2 latency)
sed -n '/^```xml$/,/^```$/p' "$DATA/doc/scenario-format.md" | sed '1d;$d' |
  awk '/^<\/scenario>$/ { print; exit } { print }' >"$TMP/docex.xml"
expect 0 "doc/scenario-format.md's example" -- "$NETSIM" run -q --format csv "$TMP/docex.xml"
l1=$(awk -F, '$1 == "variant" && $2 == "l1" { printf "%.2f", $4 }' "$TMP/out")
l2=$(awk -F, '$1 == "variant" && $2 == "l2" { printf "%.2f", $4 }' "$TMP/out")
[ "$l1" = 4.00 ] && [ "$l2" = 14.00 ] && ok ||
  bad "the scenario-format example: l1 '$l1', l2 '$l2' cycles a load (want 4.00, 14.00)"

# an output over a file a <param from=…> takes its value from is refused, naming it, with
# nothing run or written (as over the scenario or its CPU profile); -o and --folded, and
# the what-if twin's from= too
mkdir "$TMP/pf" && cp "$DATA/scenarios/udp-lookup-iperf3.xml" "$TMP/pf/iperf.xml" &&
  cp "$TMP/pf/iperf.xml" "$TMP/pf/other.xml" && cp "$TMP/pf/iperf.xml" "$TMP/pf/iperf.orig" &&
  sed 's|from="../udp-lookup-iperf3.xml"|from="iperf.xml"|' "$MICRO/udp-flood.xml" >"$TMP/pf/flood.xml"
for how in "-o $TMP/pf/iperf.xml" "--folded $TMP/pf/iperf.xml" \
           "--what-if param[1].from=$TMP/pf/other.xml -o $TMP/pf/other.xml"; do
  # shellcheck disable=SC2086
  expect 2 "run $how, a <param from> file" -- "$NETSIM" run -q --variant ipv4-8920-n1 $how \
    "$TMP/pf/flood.xml"
  grep -q "would overwrite the file a <param from=…> reads .*pf/[a-z]*.xml" "$TMP/err" &&
    cmp -s "$TMP/pf/iperf.xml" "$TMP/pf/iperf.orig" && cmp -s "$TMP/pf/other.xml" "$TMP/pf/iperf.orig" &&
    ok || bad "run $how over a <param from> file: $(cat "$TMP/err")"
done

# on a terminal, run's progress line follows a long repetition in simulated time (done of
# to do, an ETA), a few times a second, and changes nothing in the results: the same run's
# CSV with and without a terminal is the same byte for byte (the progress reads the clock
# from an engine observer, which may not schedule anything). Needs util-linux's script.
if command -v script >/dev/null 2>&1; then
  FLOOD="$MICRO/udp-flood.xml --variant ipv4-8920-n1 --set measure.duration=100ms -f csv"
  # shellcheck disable=SC2086
  expect 0 "run without a terminal" -- "$NETSIM" run $FLOOD -o "$TMP/flood-plain.csv"
  # (only the model's notes: seed 000's kernel builds on a 6.12 .config package)
  ! grep -v '^netsim run: note: ' "$TMP/err" | grep -q . && ok ||
    bad "run without a terminal shows progress: $(cat "$TMP/err")"
  script -qec "$NETSIM run $FLOOD -o $TMP/flood-tty.csv" "$TMP/typescript" >/dev/null 2>&1; got=$?
  [ "$got" -eq 0 ] && ok || bad "run on a terminal: exit $got: $(cat "$TMP/typescript")"
  [ "$(tr '\r' '\n' <"$TMP/typescript" | grep -c '^\[1/1\] ipv4-8920-n1, repetition 1/1: [0-9.]* ms of 102 ms simulated ([0-9]* %), ETA [0-9]*:[0-9][0-9]')" -ge 1 ] &&
    ok || bad "no progress within the repetition: $(tr '\r' '\n' <"$TMP/typescript")"
  cmp -s "$TMP/flood-plain.csv" "$TMP/flood-tty.csv" && ok ||
    bad "the progress line changed the results: $(diff "$TMP/flood-plain.csv" "$TMP/flood-tty.csv")"
  # with --jobs, the line counts the variants done of all (a what-if's twins with them),
  # never backwards, and names each repetition as it starts
  script -qec "$NETSIM run $DATA/scenarios/tc-pktgen-whatif-6230r.xml -j 2 \
    --set measure.duration=200us --what-if param.cpu.mlp=3 -o $TMP/j2-tty.txt" \
    "$TMP/typescript" >/dev/null 2>&1; got=$?
  tr '\r' '\n' <"$TMP/typescript" | sed -n 's/^\[\([0-9]*\)\/12\] 6230r-f1*0*-[a-z-]*\( (what-if)\)\{0,1\}, repetition 1\/1.*/\1/p' \
    >"$TMP/counts"
  [ "$got" -eq 0 ] && [ "$(wc -l <"$TMP/counts")" -eq 12 ] && sort -n -c "$TMP/counts" &&
    [ "$(tail -n 1 "$TMP/counts")" -le 12 ] && ok ||
    bad "run -j 2's progress: $(tr '\r' '\n' <"$TMP/typescript")"
fi

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
