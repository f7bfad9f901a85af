#!/bin/sh
# test-sweep.sh — netsim sweep end to end: --jobs 1 and --jobs 2 give the same CSV byte for
# byte (host time only with --timing); a sweep killed with SIGKILL half-way and resumed ends with every point exactly once
# and the results of an uninterrupted run; SIGINT stops cleanly and says how to resume;
# --resume refuses another sweep's file; failed points are recorded, a killed worker's
# too; --plot and --json.
set -u
NETSIM=${NETSIM:-./netsim}
DATA=${NETSIM_DATADIR:-.}
SC="$DATA/scenarios/micro/call-chain.xml"
TMP=$(mktemp -d)
BG=
trap '[ -n "$BG" ] && kill -9 "$BG" 2>/dev/null; rm -rf "$TMP"' EXIT
# shellcheck source=tests/lib.sh
. "$DATA/tests/lib.sh"
# expect STATUS DESCRIPTION -- COMMAND...
expect () {
  want=$1; what=$2; shift 3
  "$@" >"$TMP/out" 2>"$TMP/err"; got=$?
  if [ "$got" -eq "$want" ]; then ok; else bad "$what: exit $got, wanted $want"; cat "$TMP/err"; fi
}
# The data lines of a --timing sweep output without their last field (wall time), header kept.
strip () { sed '/^[0-9]/s/,[^,]*$//' "$1"; }
# Data lines in a sweep output.
points () { grep -c '^[0-9]' "$1"; }

# edit_during_sweep CSV FILE ORIGINAL SWEEP-ARGS…: runs netsim sweep SWEEP-ARGS (which
# write CSV) in the background, its stderr to CSV.err; once CSV holds a point, rewrites
# FILE as ORIGINAL plus a comment; sets got to the sweep's exit status
edit_during_sweep () {
  eds_csv=$1 eds_file=$2 eds_orig=$3
  shift 3
  "$NETSIM" sweep "$@" 2>"$eds_csv.err" &
  BG=$!
  i=0
  while [ "$i" -lt 600 ]; do
    [ -f "$eds_csv" ] && [ "$(points "$eds_csv")" -ge 1 ] && break
    sleep 0.05; i=$((i + 1))
  done
  # replaced in one step: written in place, the file would hold the original's bytes again
  # between cat and echo, and a point that read it truncated would pass the check
  { cat "$eds_orig"; echo '<!-- edited -->'; } >"$eds_file.new" && mv "$eds_file.new" "$eds_file"
  wait "$BG"; got=$?
  BG=
}

# 40 points of a few milliseconds each (longer under the sanitizers).
GRID="--variant plain-ret --param workload.depth=1:20:1 --param workload.body-insns=4,12 --set measure.warmup=10us --set measure.duration=2ms"
N=40

# a command-line word no model reads, given by a --param point or a --set, is noted once
# (as netsim run notes it); a word that is read is not
expect 0 "sweep with an unread command-line word" -- "$NETSIM" sweep -q --variant plain-ret \
  --set measure.duration=20us --param 'kernel.cmdline=mitigation=off,mitigations=off' \
  -o "$TMP/cmd.csv" "$SC"
[ "$(grep -c "note: kernel command line: no model reads 'mitigation=off', so it changed nothing" \
  "$TMP/err")" -eq 1 ] && ok || bad "sweep: unread command-line word not noted once: $(cat "$TMP/err")"
grep -q "reads 'mitigations=off'" "$TMP/err" && bad "sweep: a read word is called unread" || ok

# a --set that overrides a variant's own set is said before the points run, once a variant
IC="$DATA/scenarios/micro/indirect-call.xml"
expect 0 "sweep with a --set over the variants' own" -- "$NETSIM" sweep -q --variant retpoline \
  --param measure.duration=20us,30us --set kernel.cmdline=mitigations=off -o "$TMP/ic.csv" "$IC"
[ "$(grep -c "note: --set kernel.cmdline=mitigations=off replaces variant 'retpoline' set kernel.cmdline=spectre_v2=retpoline" \
  "$TMP/err")" -eq 1 ] && ok || bad "sweep: a --set over a variant's set not noted once: $(cat "$TMP/err")"
grep -q "variant 'lfence'" "$TMP/err" && bad "sweep: a variant --variant left out is noted" || ok

# --jobs 1 and --jobs 2: byte-identical, CSV and JSON (no host time unless --timing)
expect 0 "sweep --jobs 1" -- "$NETSIM" sweep -q $GRID --jobs 1 -o "$TMP/j1.csv" --json "$TMP/j1.json" "$SC"
expect 0 "sweep --jobs 2" -- "$NETSIM" sweep -q $GRID --jobs 2 -o "$TMP/j2.csv" --json "$TMP/j2.json" "$SC"
[ "$(points "$TMP/j1.csv")" -eq $N ] && ok || bad "--jobs 1: $(points "$TMP/j1.csv") points, wanted $N"
cmp -s "$TMP/j1.csv" "$TMP/j2.csv" && ok || bad "--jobs 1 and --jobs 2 CSV differ"
cmp -s "$TMP/j1.json" "$TMP/j2.json" && ok || bad "--jobs 1 and --jobs 2 JSON differ"
grep -q '^# netsim-version ' "$TMP/j1.csv" && grep -q '^# scenario-sha256 ' "$TMP/j1.csv" &&
  grep -q '^# sweep workload.depth = 1:20:1 ' "$TMP/j1.csv" && grep -q '^# param ' "$TMP/j1.csv" &&
  ok || bad "header: version, scenario hash, swept parameters, parameter set"
grep -q '^point,workload.depth,workload.body-insns,variant,repetition,seed,status,metric,value,cv,reps,ops,values,error,notes$' \
  "$TMP/j1.csv" && ok || bad "column line"
grep -q 'wall_s' "$TMP/j1.json" && bad "JSON without --timing has wall_s" || ok
# --timing adds the host time as a last column (and JSON field); otherwise the same lines
TG="--variant plain-ret --param workload.depth=1:4:1 --set measure.warmup=10us --set measure.duration=2ms"
# shellcheck disable=SC2086
# the CSV must be a regular file: '-' made a file named '-', a device failed on truncate
mkdir "$TMP/dash"
netsim=$(cd "$(dirname "$NETSIM")" && pwd)/$(basename "$NETSIM")
sc=$(cd "$(dirname "$SC")" && pwd)/$(basename "$SC")
(cd "$TMP/dash" && "$netsim" sweep -q $TG -o - "$sc") >"$TMP/out" 2>"$TMP/err"
[ $? -eq 2 ] && [ ! -e "$TMP/dash/-" ] && grep -q "^netsim sweep: -o -: the sweep's CSV must be a regular file" "$TMP/err" &&
  ok || bad "sweep -o -: $(cat "$TMP/err")"
expect 2 "sweep -o /dev/null" -- "$NETSIM" sweep -q $TG --force -o /dev/null "$SC"
grep -q "^netsim sweep: -o /dev/null: the sweep's CSV must be a regular file" "$TMP/err" && ok ||
  bad "sweep -o /dev/null: $(cat "$TMP/err")"
expect 0 "sweep" -- "$NETSIM" sweep -q $TG -o "$TMP/nt.csv" "$SC"
# shellcheck disable=SC2086
expect 0 "sweep --timing" -- "$NETSIM" sweep -q $TG --timing -o "$TMP/tm.csv" --json "$TMP/tm.json" "$SC"
grep -q '^point,.*,error,notes,wall_s$' "$TMP/tm.csv" && [ "$(grep -c '^[0-9].*,[0-9]*\.[0-9][0-9][0-9]$' \
  "$TMP/tm.csv")" -eq 4 ] && grep -q '"wall_s": [0-9]' "$TMP/tm.json" && ok ||
  bad "--timing: no wall_s column: $(cat "$TMP/tm.csv")"
strip "$TMP/tm.csv" | sed 's/,notes,wall_s$/,notes/' | cmp -s "$TMP/nt.csv" - && ok ||
  bad "--timing changed more than the wall_s column"
# a point's model notes (what netsim run prints) are its notes field, a JSON array, and a
# line on stderr each with the points that carry it (a sweep past iperf3's 128 streams said
# nothing of it)
ip="$DATA/scenarios/udp-lookup-iperf3.xml"
expect 0 "sweep with notes" -- "$NETSIM" sweep -q -o "$TMP/notes.csv" --json "$TMP/notes.json" \
  --param workload.streams=64,200 --set measure.duration=200us --set measure.warmup=50us \
  --variant ipv4-1G-baseline "$ip"
# (every point also carries the note that seed 000's kernel builds on a 6.12 .config)
grep -q '^0,64,.*,ok,.*,,"kernel config package debian-6.12.95-amd64 is a 6.12.95 .config, [^"]*"$' "$TMP/notes.csv" &&
  grep -q '^1,200,.*,ok,.*,,"iperf3: 200 streams in one client .*MAX_STREAMS.* | kernel config package debian-6.12.95-amd64 ' "$TMP/notes.csv" &&
  grep -q '^netsim sweep: note (1 of 2 points): iperf3: 200 streams' "$TMP/err" &&
  grep -q '^netsim sweep: note (2 of 2 points): kernel config package debian-6.12.95-amd64' "$TMP/err" &&
  python3 -c 'import json, sys; p = json.load(open(sys.argv[1]))["points"]; sys.exit(not (len(p[0]["notes"]) == 1 and "MAX_STREAMS" in p[1]["notes"][0]))' "$TMP/notes.json" &&
  ok || bad "sweep notes: $(cat "$TMP/err"; grep -v '^#' "$TMP/notes.csv")"
# a file keeps the layout it was started with: --resume with the other one is refused, saying so
# shellcheck disable=SC2086
expect 2 "--resume of a --timing sweep without --timing" -- "$NETSIM" sweep -q $TG --resume \
  -o "$TMP/tm.csv" "$SC"
grep -q "tm.csv:[0-9]*: --resume: the file was written with --timing (a wall_s column); resume it with --timing" \
  "$TMP/err" && ok || bad "--resume without --timing of a --timing file: $(cat "$TMP/err")"
# shellcheck disable=SC2086
expect 2 "--resume of a sweep with --timing" -- "$NETSIM" sweep -q $TG --timing --resume \
  -o "$TMP/nt.csv" "$SC"
grep -q "nt.csv:[0-9]*: --resume: the file was written without --timing (no wall_s column); resume it without --timing" \
  "$TMP/err" && ok || bad "--resume with --timing of a file without: $(cat "$TMP/err")"
sed -i '/^3,/d' "$TMP/tm.csv"
# shellcheck disable=SC2086
expect 0 "--resume --timing of a --timing sweep" -- "$NETSIM" sweep -q $TG --timing --resume \
  -o "$TMP/tm.csv" "$SC"
[ "$(grep -c '^[0-9].*,[0-9]*\.[0-9][0-9][0-9]$' "$TMP/tm.csv")" -eq 4 ] && ok ||
  bad "--resume --timing: $(cat "$TMP/tm.csv")"
expect 2 "--plot y=wall_s without --timing" -- "$NETSIM" sweep -q $TG -o "$TMP/pw.csv" \
  --plot x=workload.depth,y=wall_s "$TMP/pw.png" "$SC"
grep -q "y=wall_s is a column only --timing writes" "$TMP/err" && [ ! -e "$TMP/pw.csv" ] && ok ||
  bad "--plot y=wall_s without --timing: $(cat "$TMP/err")"

# a worker does not keep the output open: the file's flock is the parent's, and a worker
# still finishing its point after the parent was killed must not make the --resume that
# follows find the file locked
# find_worker PID: sets kid to a child process of PID (a sweep's worker), waiting up to
# 20 s for one; empty if none came
find_worker () {
  fw_i=0
  kid=
  while [ "$fw_i" -lt 400 ] && [ -z "$kid" ]; do
    for p in /proc/[0-9]*; do
      [ "$(cut -d' ' -f4 "$p/stat" 2>/dev/null)" = "$1" ] && kid=${p#/proc/}
    done
    [ -n "$kid" ] || sleep 0.05
    fw_i=$((fw_i + 1))
  done
}
"$NETSIM" sweep -q --variant plain-ret --param workload.depth=1,2 --set measure.duration=1s \
  -o "$TMP/w.csv" "$SC" 2>/dev/null &
BG=$!
find_worker "$BG"
held=
for fd in "/proc/$kid/fd/"*; do
  case "$(readlink "$fd" 2>/dev/null)" in */w.csv) held=1 ;; esac
done
if [ -z "$kid" ]; then
  bad "no sweep worker seen"
elif [ -n "$held" ]; then
  bad "a sweep worker holds the output open (and its lock)"
else
  ok
fi
kill -9 "$BG" 2>/dev/null
wait "$BG" 2>/dev/null
BG=

# a worker that dies (SIGKILL here, as the OOM killer sends it) fails its point, saying
# how; the sweep goes on with the next point and exits 1 (a point failed)
"$NETSIM" sweep -q --jobs 1 --variant plain-ret --param measure.duration=1s,1ms \
  -o "$TMP/wk.csv" "$SC" 2>"$TMP/wk.err" &
BG=$!
find_worker "$BG"
[ -n "$kid" ] && kill -9 "$kid"
wait "$BG"; got=$?
BG=
[ "$got" -eq 1 ] &&
  grep -q '^0,1s,.*,failed,cycles_per_call,,,,,,worker process killed by signal 9 (Killed),$' "$TMP/wk.csv" &&
  grep -q '^1,1ms,.*,ok,' "$TMP/wk.csv" && ok ||
  bad "a killed worker's point (exit $got): $(cat "$TMP/wk.err"; grep -v '^#' "$TMP/wk.csv")"

# SIGKILL half-way, then --resume: every point exactly once, results as uninterrupted
"$NETSIM" sweep -q $GRID --jobs 2 -o "$TMP/k.csv" "$SC" 2>"$TMP/k.err" &
BG=$!
i=0
while [ "$i" -lt 600 ]; do
  [ -f "$TMP/k.csv" ] && [ "$(points "$TMP/k.csv")" -ge 8 ] && break
  sleep 0.05; i=$((i + 1))
done
kill -9 "$BG" 2>/dev/null
wait "$BG" 2>/dev/null
BG=
got=$(points "$TMP/k.csv")
[ "$got" -ge 1 ] && [ "$got" -lt $N ] && ok || bad "SIGKILL did not land half-way ($got of $N points)"
# a crash in the middle of a write leaves a torn line: --resume drops it
printf '39,20,12,plain-ret,0,123' >>"$TMP/k.csv"
expect 0 "--resume after SIGKILL" -- "$NETSIM" sweep $GRID --jobs 2 -o "$TMP/k.csv" --resume "$SC"
grep -q 'torn' "$TMP/err" && ok || bad "--resume reports the torn line"
grep -q 'resuming' "$TMP/err" && ok || bad "--resume says it resumes"
[ "$(points "$TMP/k.csv")" -eq $N ] && ok || bad "resumed: $(points "$TMP/k.csv") points, wanted $N"
[ -z "$(grep '^[0-9]' "$TMP/k.csv" | cut -d, -f1 | sort | uniq -d)" ] && ok || bad "a point appears twice"
cmp -s "$TMP/j1.csv" "$TMP/k.csv" && ok || bad "resumed output differs from the uninterrupted one"
# resuming a complete sweep runs nothing and changes nothing
expect 0 "--resume of a complete sweep" -- "$NETSIM" sweep -q $GRID -o "$TMP/k.csv" --resume "$SC"
cmp -s "$TMP/j1.csv" "$TMP/k.csv" && ok || bad "--resume of a complete sweep changed it"

# SIGINT: finish the points in flight, exit 130, print how to resume
"$NETSIM" sweep $GRID --jobs 2 -o "$TMP/i.csv" "$SC" 2>"$TMP/i.err" &
BG=$!
i=0
while [ "$i" -lt 600 ]; do
  [ -f "$TMP/i.csv" ] && [ "$(points "$TMP/i.csv")" -ge 4 ] && break
  sleep 0.05; i=$((i + 1))
done
kill -INT "$BG"
wait "$BG"; got=$?
BG=
[ "$got" -eq 130 ] && ok || bad "SIGINT: exit $got, wanted 130"
grep -q -- '--resume' "$TMP/i.err" && ok || bad "SIGINT: no resume command: $(cat "$TMP/i.err")"
[ -z "$(tail -c 1 "$TMP/i.csv" | tr -d '\n')" ] && ok || bad "SIGINT left a torn line"
expect 0 "--resume after SIGINT" -- "$NETSIM" sweep -q $GRID -o "$TMP/i.csv" --resume "$SC"
cmp -s "$TMP/j1.csv" "$TMP/i.csv" && ok || bad "resumed after SIGINT differs"

# SIGTERM: abandon the points in flight at once, exit 143, nothing torn
"$NETSIM" sweep -q $GRID --jobs 2 -o "$TMP/t.csv" "$SC" 2>"$TMP/t.err" &
BG=$!
i=0
while [ "$i" -lt 600 ]; do
  [ -f "$TMP/t.csv" ] && [ "$(points "$TMP/t.csv")" -ge 4 ] && break
  sleep 0.05; i=$((i + 1))
done
kill -TERM "$BG"
wait "$BG"; got=$?
BG=
[ "$got" -eq 143 ] && ok || bad "SIGTERM: exit $got, wanted 143"
grep -q -- '--resume' "$TMP/t.err" && ok || bad "SIGTERM: no resume command"
[ -z "$(tail -c 1 "$TMP/t.csv" | tr -d '\n')" ] && ok || bad "SIGTERM left a torn line"
# the resume command pastes back into a POSIX shell as the same arguments: a --set value
# holding a line break or a carriage return is quoted (printed bare, it ran "netsim sweep …
# --set kernel.cmdline=mitigations=off", a usage error, then a command "quiet …")
CR=$(printf '\r')
LB="kernel.cmdline=mitigations=off
quiet${CR}nosmt"
# shellcheck disable=SC2086
"$NETSIM" sweep -q $GRID --set "$LB" --jobs 2 -o "$TMP/lb.csv" "$SC" 2>"$TMP/lb.err" &
BG=$!
i=0
while [ "$i" -lt 600 ]; do
  [ -f "$TMP/lb.csv" ] && [ "$(points "$TMP/lb.csv")" -ge 4 ] && break
  sleep 0.05; i=$((i + 1))
done
kill -TERM "$BG"
wait "$BG"; got=$?
BG=
sed -n '/to resume:$/,$p' "$TMP/lb.err" | sed '1d;2s/^  //' >"$TMP/lb.cmd"
[ "$got" -eq 143 ] && [ "$(points "$TMP/lb.csv")" -lt "$N" ] && [ -s "$TMP/lb.cmd" ] && ok ||
  bad "SIGTERM with a line break in a --set: exit $got, $(cat "$TMP/lb.err")"
# shellcheck disable=SC2317
netsim () { "$NETSIM" "$@"; }
(eval "$(cat "$TMP/lb.cmd")") >"$TMP/out" 2>"$TMP/err"; got=$?
[ "$got" -eq 0 ] && [ "$(points "$TMP/lb.csv")" -eq "$N" ] && ok ||
  bad "the resume command pasted back: exit $got, $(points "$TMP/lb.csv") points: $(cat "$TMP/lb.cmd") $(cat "$TMP/err")"

# refusals: exit 2 with a clear message
expect 2 "existing output without --resume" -- "$NETSIM" sweep -q $GRID -o "$TMP/j1.csv" "$SC"
grep -q -- '--resume' "$TMP/err" && ok || bad "existing output: message names --resume"
expect 2 "--resume of another sweep" -- "$NETSIM" sweep -q --variant plain-ret \
  --param workload.depth=1:21:1 -o "$TMP/j1.csv" --resume "$SC"
grep -q "$TMP/j1.csv:[0-9][0-9]*: --resume: .*different sweep" "$TMP/err" && ok ||
  bad "--resume of another sweep: message with file:line: $(cat "$TMP/err")"
# a set typed with a backslash-n is another sweep than one whose value holds a line break:
# the header escapes the backslash too (\\n against \n), so --resume refuses the other's file
NL='kernel.cmdline=x
y'
expect 0 "sweep with a line break in a set" -- "$NETSIM" sweep -q --variant plain-ret \
  --param workload.depth=1,2 --set measure.duration=2ms --set "$NL" -o "$TMP/esc.csv" "$SC"
grep -qx '# set kernel.cmdline=x\\ny' "$TMP/esc.csv" && ok ||
  bad "a line break in a set is not \\n in the header: $(grep '^# set' "$TMP/esc.csv")"
expect 2 "--resume with a typed backslash-n of a line break's sweep" -- "$NETSIM" sweep -q \
  --variant plain-ret --param workload.depth=1,2 --set measure.duration=2ms \
  --set 'kernel.cmdline=x\ny' -o "$TMP/esc.csv" --resume "$SC"
grep -q "esc.csv:[0-9][0-9]*: --resume: .*different sweep" "$TMP/err" && ok ||
  bad "--resume of a line break's sweep with a backslash-n: $(cat "$TMP/err")"
printf '# netsim sweep\n# netsim-version 0.0.0-other\n' >"$TMP/v.csv"
expect 2 "--resume of another version's file" -- "$NETSIM" sweep -q $GRID -o "$TMP/v.csv" --resume "$SC"

# --resume reads each line's fields as netsim writes them (file:line, exit 2, naming the
# column); a second copy of a point is refused when its result differs, dropped when not
RG="--variant plain-ret --param workload.depth=1:4:1 --set measure.duration=50us"
expect 0 "sweep for the resume field checks" -- "$NETSIM" sweep -q $RG -o "$TMP/rf.csv" "$SC"
H=$(grep -c -v '^[0-9]' "$TMP/rf.csv")     # the header's lines, the column line included
L=$((H + 2))                               # the second point's line
# corrupt NAME SED-EXPR COLUMN: the second point's line edited by SED-EXPR is refused as
# its COLUMN (and the file left as it was)
corrupt () {
  sed "${L}$2" "$TMP/rf.csv" >"$TMP/rc.csv"
  cp "$TMP/rc.csv" "$TMP/rc.orig"
  expect 2 "--resume of a file with $1" -- "$NETSIM" sweep -q $RG -o "$TMP/rc.csv" --resume "$SC"
  grep -q "rc.csv:$L: --resume: point 1's $3 is " "$TMP/err" && ok ||
    bad "--resume of a file with $1: not refused at rc.csv:$L naming $3: $(cat "$TMP/err")"
  cmp -s "$TMP/rc.csv" "$TMP/rc.orig" && ok || bad "--resume of a file with $1 changed it"
}
corrupt "a value that is no number" 's/,ok,\([a-z_]*\),[^,]*,/,ok,\1,abc,/' value
corrupt "a status neither ok nor failed" 's/,ok,/,okk,/' status
corrupt "an ops count out of range" 's/^\(\([^,]*,\)\{10\}\)[0-9]*,/\11e999,/' ops
corrupt "another metric" 's/,ok,[a-z_]*,/,ok,cycles_per_load,/' metric
corrupt "repetitions the scenario does not run" 's/^\(\([^,]*,\)\{9\}\)1,/\12,/' reps
corrupt "a failed point with a value" 's/,ok,\([a-z_]*\),/,failed,\1,/' value
corrupt "a value its values do not give" 's/,ok,\([a-z_]*\),[^,]*,/,ok,\1,1.5,/' value
corrupt "a cv its values do not give" 's/^\(\([^,]*,\)\{8\}\)[^,]*,/\10.25,/' cv
grep -q "rc.csv:$L: --resume: point 1's cv is '0.25', where netsim writes nan (the coefficient of variation of its values)" \
  "$TMP/err" && ok || bad "--resume of a cv its values do not give: $(cat "$TMP/err")"
{ cat "$TMP/rf.csv"; sed -n "${L}s/^\(\([^,]*,\)\{10\}\)[0-9]*,/\112345,/p" "$TMP/rf.csv"; } >"$TMP/rd.csv"
expect 2 "--resume of a point present twice with two results" -- "$NETSIM" sweep -q $RG \
  -o "$TMP/rd.csv" --resume "$SC"
grep -q "rd.csv:$((H + 5)): --resume: point 1 is also on line $L, with another result" "$TMP/err" &&
  ok || bad "--resume of a point with two results: $(cat "$TMP/err")"
{ cat "$TMP/rf.csv"; sed -n "${L}p" "$TMP/rf.csv"; } >"$TMP/rd.csv"
expect 0 "--resume of a point present twice alike" -- "$NETSIM" sweep -q $RG -o "$TMP/rd.csv" \
  --resume "$SC"
cmp -s "$TMP/rf.csv" "$TMP/rd.csv" && ok || bad "--resume kept a point's second copy"
expect 0 "sweep --timing for the resume field checks" -- "$NETSIM" sweep -q $RG --timing \
  -o "$TMP/rt.csv" "$SC"
{ cat "$TMP/rt.csv"; sed -n "${L}s/,[0-9.]*$/,99.999/p" "$TMP/rt.csv"; } >"$TMP/rtd.csv"
expect 0 "--resume --timing of a point present twice, its wall time aside alike" -- "$NETSIM" \
  sweep -q $RG --timing -o "$TMP/rtd.csv" --resume "$SC"
cmp -s "$TMP/rt.csv" "$TMP/rtd.csv" && ok || bad "--resume --timing kept a point's second copy"
sed "${L}s/,[0-9.]*$/,1e3/" "$TMP/rt.csv" >"$TMP/rtd.csv"
expect 2 "--resume --timing of a wall time not as netsim writes it" -- "$NETSIM" sweep -q $RG \
  --timing -o "$TMP/rtd.csv" --resume "$SC"
grep -q "rtd.csv:$L: --resume: point 1's wall_s is '1e3'" "$TMP/err" && ok ||
  bad "--resume --timing of a bad wall time: $(cat "$TMP/err")"

# the header names the build (sha256 of the executable): another build's file is refused
grep -Eq '^# netsim-build sha256 [0-9a-f]{64}$' "$TMP/rf.csv" && ok || bad "header: no netsim-build line"
if [ -x "$NETSIM" ] && head -c 4 "$NETSIM" | grep -q ELF; then
  cp "$NETSIM" "$TMP/netsim-other" && printf '\n' >>"$TMP/netsim-other"
  sed "$((H + 3)),\$d" "$TMP/rf.csv" >"$TMP/rb.csv"
  expect 2 "--resume by another build" -- "$TMP/netsim-other" sweep -q $RG -o "$TMP/rb.csv" \
    --resume "$SC"
  grep -q "rb.csv:[0-9]*: --resume: the file was written by another build of netsim .*--force to start over" \
    "$TMP/err" && ok || bad "--resume by another build: $(cat "$TMP/err")"
fi

# the order rewrite goes through FILE.netsim-rewrite, which a crash may leave: the next
# sweep of FILE removes it (kill -9 at the rename where strace can inject it)
printf '# netsim sw' >"$TMP/rw.csv.netsim-rewrite"
expect 0 "sweep beside a stale rewrite copy" -- "$NETSIM" sweep -q $RG -o "$TMP/rw.csv" "$SC"
[ ! -e "$TMP/rw.csv.netsim-rewrite" ] && ok || bad "a stale FILE.netsim-rewrite was left"
# a file of that name that no sweep wrote is the user's: refused, kept, nothing written
rm -f "$TMP/rw.csv"
printf 'my notes\n' >"$TMP/rw.csv.netsim-rewrite"
expect 2 "sweep beside a user's FILE.netsim-rewrite" -- "$NETSIM" sweep -q $RG -o "$TMP/rw.csv" "$SC"
grep -q "rw.csv.netsim-rewrite exists and is not a sweep's copy: .*move it away" "$TMP/err" &&
  ok || bad "sweep beside a user's FILE.netsim-rewrite: $(cat "$TMP/err")"
[ "$(cat "$TMP/rw.csv.netsim-rewrite")" = "my notes" ] && [ ! -e "$TMP/rw.csv" ] && ok ||
  bad "sweep beside a user's FILE.netsim-rewrite removed it or wrote FILE"
rm -f "$TMP/rw.csv.netsim-rewrite"
if command -v strace >/dev/null 2>&1 && strace -qq -e trace=none true 2>/dev/null; then
  rm -f "$TMP/rw.csv"
  strace -f -qq -o /dev/null -e signal=none -e trace=rename -e inject=rename:signal=KILL \
    "$NETSIM" sweep -q $RG --jobs 2 -o "$TMP/rw.csv" "$SC" 2>/dev/null
  if [ -e "$TMP/rw.csv.netsim-rewrite" ]; then
    expect 0 "--resume after a kill -9 in the rewrite" -- "$NETSIM" sweep -q $RG -o "$TMP/rw.csv" \
      --resume "$SC"
    [ ! -e "$TMP/rw.csv.netsim-rewrite" ] && ok || bad "--resume left the killed rewrite's copy"
    cmp -s "$TMP/rf.csv" "$TMP/rw.csv" && ok || bad "--resume after a killed rewrite differs"
  fi
fi

# a file cut inside its header says so (not "a torn last line"); a CR LF file is named so,
# the carriage return shown as \r
head -n $((H / 2)) "$TMP/rf.csv" >"$TMP/rh.csv"
expect 0 "--resume of a file cut inside its header" -- "$NETSIM" sweep $RG -o "$TMP/rh.csv" \
  --resume "$SC"
grep -q "rh.csv: the header was incomplete" "$TMP/err" && ! grep -q torn "$TMP/err" && ok ||
  bad "--resume of a cut header: $(cat "$TMP/err")"
cmp -s "$TMP/rf.csv" "$TMP/rh.csv" && ok || bad "--resume of a cut header: not the whole sweep"
sed 's/$/\r/' "$TMP/rf.csv" >"$TMP/crlf.csv"
expect 2 "--resume of a CR LF file" -- "$NETSIM" sweep -q $RG -o "$TMP/crlf.csv" --resume "$SC"
grep -qF "crlf.csv:1: --resume: the file's lines end in \\r\\n (CR LF), netsim writes \\n: the line is '# netsim sweep\\r'" \
  "$TMP/err" && ok || bad "--resume of a CR LF file: $(cat "$TMP/err")"
expect 2 "no --output" -- "$NETSIM" sweep -q $GRID "$SC"
expect 2 "bad range" -- "$NETSIM" sweep -q --param workload.depth=1:5 -o "$TMP/x.csv" "$SC"
expect 2 "unknown parameter" -- "$NETSIM" sweep -q --param param.no.such=1,2 -o "$TMP/x.csv" "$SC"
expect 2 "a misspelt parameter" -- "$NETSIM" sweep -q --param param.cache.l2.latancy_cycles=14 \
  -o "$TMP/x.csv" "$SC"
grep -q "no parameter named 'cache.l2.latancy_cycles' (did you mean 'param.cache.l2.latency_cycles'?" \
  "$TMP/err" && ok || bad "a misspelt parameter gets no suggestion: $(cat "$TMP/err")"
expect 2 "unknown variant" -- "$NETSIM" sweep -q --variant nope --param seed=1,2 -o "$TMP/x.csv" "$SC"
expect 2 "the second of two variants unknown" -- "$NETSIM" sweep -q --param variant=plain-ret,nope \
  -o "$TMP/x.csv" "$SC"
grep -q "no variant named 'nope' (variants: 'plain-ret', " "$TMP/err" && ok ||
  bad "an unknown variant is named, with the scenario's: $(cat "$TMP/err")"
expect 2 "--jobs 0" -- "$NETSIM" sweep -q --jobs 0 --param seed=1,2 -o "$TMP/x.csv" "$SC"
# a bad --set is refused before any point runs, with nothing swept but the seed, the
# variant or nothing, and named (not blamed on a swept attribute)
for args in "--set kernel.cmdline=retbleed=bogus --param seed=1:3:1" \
            "--set measure.duration=5us --param variant=plain-ret,inlined" \
            "--set workload.body-insns=abc" \
            "--set kernel.cmdline=retbleed=bogus --param workload.depth=1,2"; do
  set_word=$(echo "$args" | cut -d' ' -f2)
  rm -f "$TMP/bs.csv"
  expect 2 "a bad --set ($args)" -- "$NETSIM" sweep -q $args -o "$TMP/bs.csv" "$SC"
  [ ! -e "$TMP/bs.csv" ] && grep -q -- "(after --set $set_word)" "$TMP/err" &&
    ! grep -q "no value works" "$TMP/err" && ok ||
    bad "a bad --set ($args) is named, nothing written: $(cat "$TMP/err")"
done
expect 0 "sweep --help" -- "$NETSIM" sweep --help
grep -q -- '--plot' "$TMP/out" && ok || bad "sweep --help explains --plot"

# a workload attribute the workload does not take fails every value: refused before any
# point runs (exit 2), naming the attributes it takes as run does (doc/sweeps.md, "Failures")
rm -f "$TMP/w.csv"
expect 2 "a misspelt workload attribute" -- "$NETSIM" sweep -q --param workload.dept=1,2 \
  -o "$TMP/w.csv" "$SC"
grep -q "^netsim sweep: --param workload.dept=1,2: no value works: .*unknown attribute 'dept' (allowed: type, cpu, depth, body-insns, inline)" \
  "$TMP/err" && ok || bad "a misspelt workload attribute is not refused up front: $(cat "$TMP/err")"
[ ! -e "$TMP/w.csv" ] && ok || bad "a refused sweep wrote its output"
# a typo in one value of a dimension is refused before any point runs (exit 2), naming the
# dimension and the value: a workload attribute the model cannot read, a parameter outside
# its range (until 2026-12-03 the other points ran first and the sweep exited 1)
rm -f "$TMP/f.csv"
expect 2 "a bad value among good ones" -- "$NETSIM" sweep -q --variant plain-ret \
  --param workload.depth=2,zero,4 -o "$TMP/f.csv" "$SC"
grep -q "^netsim sweep: --param workload.depth=2,zero,4: the value 'zero' does not work (1 of 3 values do not): .*'zero' (after --param workload.depth=zero)" \
  "$TMP/err" && [ ! -e "$TMP/f.csv" ] && ok || bad "a bad value is not refused up front: $(cat "$TMP/err")"
expect 2 "a value out of the model's range" -- "$NETSIM" sweep -q --variant plain-ret \
  --param workload.depth=2,0 -o "$TMP/f.csv" "$SC"
grep -q "the value '0' does not work .*attribute 'depth'.*(after --param workload.depth=0)" "$TMP/err" &&
  [ ! -e "$TMP/f.csv" ] && ok || bad "an out-of-range value is not refused up front: $(cat "$TMP/err")"
expect 2 "a parameter value out of its range" -- "$NETSIM" sweep -q --variant plain-ret \
  --param param.cache.l2.latency_cycles=5,500 -o "$TMP/f.csv" "$SC"
grep -q "^netsim sweep: --param param.cache.l2.latency_cycles=5,500: the value '500' does not work .*outside the valid range \[2, 100\]" \
  "$TMP/err" && [ ! -e "$TMP/f.csv" ] && ok || bad "a parameter out of range is not refused up front: $(cat "$TMP/err")"
expect 2 "a CPU profile that does not exist" -- "$NETSIM" sweep -q --variant plain-ret \
  --param cpu.profile=generic,nosuch -o "$TMP/f.csv" "$SC"
grep -q "the value 'nosuch' does not work .*unknown CPU profile 'nosuch'" "$TMP/err" &&
  [ ! -e "$TMP/f.csv" ] && ok || bad "an unknown profile is not refused up front: $(cat "$TMP/err")"
# a kernel value the run would refuse is refused before any point runs too (exit 2, nothing
# written): a bad command-line value, a .config value the set-up cannot do without, a version
# the variant's patch cannot go on (until 2026-12-03, night, each failed only its points)
TC="$DATA/scenarios/tc-pktgen-matchall-7950x.xml"
expect 2 "a bad command-line value among good ones" -- "$NETSIM" sweep -q \
  --param 'kernel.cmdline=mitigations=off,spectre_v2=bogus' -o "$TMP/kv.csv" "$TC"
grep -q "^netsim sweep: --param kernel.cmdline=mitigations=off,spectre_v2=bogus: the value 'spectre_v2=bogus' does not work (1 of 2 values do not): .*tc-pktgen-matchall-7950x.xml:[0-9]*: attribute 'cmdline': .*bad value in 'spectre_v2=bogus'" \
  "$TMP/err" && [ ! -e "$TMP/kv.csv" ] && ok || bad "a bad cmdline value is not refused up front: $(cat "$TMP/err")"
expect 2 "a .config value the set-up needs" -- "$NETSIM" sweep -q \
  --param 'kernel.config.CONFIG_NET_CLS_MATCHALL=y,n,m' -o "$TMP/kv.csv" "$TC"
grep -q "the value 'n' does not work (1 of 3 values do not): .*CONFIG_NET_CLS_MATCHALL=n: the set-up needs it" \
  "$TMP/err" && [ ! -e "$TMP/kv.csv" ] && ok || bad "a needed option set to n is not refused up front: $(cat "$TMP/err")"
expect 2 "a version the variant's patch cannot go on" -- "$NETSIM" sweep -q \
  --param variant=7950x-f1-after --param 'kernel.version=6.1.0-rc7,6.3' -o "$TMP/kv.csv" "$TC"
grep -q "the value '6.3' does not work (1 of 2 values do not): .*attribute 'version': kernel 6.3 has the merged tc retpoline wrapper" \
  "$TMP/err" && [ ! -e "$TMP/kv.csv" ] && ok || bad "a version the patch refuses is not refused up front: $(cat "$TMP/err")"
# a dimension none of whose values works names itself once, then the reason
expect 2 "a second patch on a variant with none" -- "$NETSIM" sweep -q --param variant=7950x-f1-before \
  --param 'kernel.patch[2].name=tc-wrapper-cls-last' -o "$TMP/kv.csv" "$TC"
grep -q "^netsim sweep: --param kernel.patch\[2\].name=tc-wrapper-cls-last: no value works: cannot create patch\[2\]" \
  "$TMP/err" && [ ! -e "$TMP/kv.csv" ] && ok || bad "the dimension is not named once: $(cat "$TMP/err")"
# a value meant for a variant that has what it sets is not refused because the first variant
# has not: that variant's points fail (exit 1), the other's run
expect 1 "sweep a value only the second variant takes" -- "$NETSIM" sweep -q \
  --param variant=7950x-f100-before,7950x-f100-after --set measure.duration=100us \
  --param 'kernel.patch[2].name=tc-wrapper-cls-last' -o "$TMP/f2.csv" \
  "$DATA/scenarios/tc-pktgen-matchall-7950x.xml"
grep -q '^1,7950x-f100-after,tc-wrapper-cls-last,0,[0-9]*,ok,' "$TMP/f2.csv" &&
  grep -q '^0,7950x-f100-before,tc-wrapper-cls-last,0,[0-9]*,failed,.*cannot create patch\[2\]' \
  "$TMP/f2.csv" && ok || bad "a value for the second variant only: $(cat "$TMP/f2.csv" "$TMP/err")"
# a measurement too short for the profile's scheduler is refused before any point runs (it
# was a failing point until 2026-12-03, night, when values came to be set up as points are)
expect 2 "a duration shorter than ten quanta" -- "$NETSIM" sweep -q --variant plain-ret \
  --param measure.duration=2ms,1us,3ms -o "$TMP/f.csv" "$SC"
grep -q "the value '1us' does not work (1 of 3 values do not): .*call-chain.xml:[0-9]*: attribute 'duration': expected at least 10 x sched.quantum_ns" \
  "$TMP/err" && [ ! -e "$TMP/f.csv" ] && ok || bad "a too-short duration is not refused up front: $(cat "$TMP/err")"
# a combination of values each of which passes alone can fail its point only: recorded with
# its error, naming the --param behind it, exit 1 (the second of two patches on the variant
# that has none: the sweep above, 7950x-f100-before)
grep -q "^0,7950x-f100-before,tc-wrapper-cls-last,.*,failed,.*--param kernel.patch\[2\].name=tc-wrapper-cls-last: cannot create" \
  "$TMP/f2.csv" && ok ||
  bad "failed point's error does not name its --param: $(grep '^0,' "$TMP/f2.csv")"

# seed is a sweepable parameter; every variant by default, with a variant column
expect 0 "sweep seeds over every variant" -- "$NETSIM" sweep -q --param seed=1:3:1 \
  --set measure.duration=20us -o "$TMP/s.csv" "$SC"
[ "$(points "$TMP/s.csv")" -eq 15 ] && ok || bad "seeds x variants: $(points "$TMP/s.csv") points"
grep -q '^14,inlined,0,3,ok,' "$TMP/s.csv" && ok || bad "last point: variant inlined, seed 3"

# --plot's y is checked before anything runs
expect 2 "--plot y= no point reports" -- "$NETSIM" sweep -q -p workload.depth=2,3 \
  -o "$TMP/py.csv" --plot x=workload.depth,y=bogus "$TMP/py.png" "$SC"
[ -e "$TMP/py.csv" ] && bad "sweep: a bad --plot y ran the sweep" || ok
# a plot of a sweep whose every point failed says so, exit 1 (a point failed), not that
# its y names nothing (each quantum passes alone; 10 us is under ten 5 us quanta)
expect 1 "--plot of failed points" -- "$NETSIM" sweep -q --variant plain-ret \
  --param param.sched.quantum_ns=5000,10000 --param measure.duration=10us,20us \
  -o "$TMP/plotfail.csv" --plot x=measure.duration,y=value "$TMP/plotfail.png" "$SC"
grep -q -- "--plot: nothing to plot, every point failed" "$TMP/err" && ok ||
  bad "--plot of failed points: $(cat "$TMP/err")"
# a failed gnuplot says how it failed
NETSIM_GNUPLOT=/bin/false "$NETSIM" sweep -q --variant plain-ret -p workload.depth=2,3 \
  -o "$TMP/plotgp.csv" --plot x=workload.depth,y=value "$TMP/plotgp.png" "$SC" 2>"$TMP/err" >/dev/null
grep -q "/bin/false .*plotgp.gp failed (.*1)" "$TMP/err" && ok ||
  bad "a failed gnuplot does not say how: $(cat "$TMP/err")"
# a gnuplot that fails half-way leaves no partial image, and an earlier one as it was
cat >"$TMP/halfgp" <<'EOF'
#!/bin/sh
out=$(sed -n "s/^set output '\(.*\)'$/\1/p" "$1")
printf partial >"$out"
echo "$1: all points y value undefined" >&2
exit 1
EOF
chmod +x "$TMP/halfgp"
NETSIM_GNUPLOT="$TMP/halfgp" "$NETSIM" sweep -q -o "$TMP/plotgp.csv" --resume --variant plain-ret \
  -p workload.depth=2,3 --plot x=workload.depth,y=value "$TMP/plothalf.png" "$SC" 2>"$TMP/err"; got=$?
[ "$got" -eq 2 ] && [ ! -e "$TMP/plothalf.png" ] && grep -q "plothalf.gp: all points" "$TMP/err" &&
  ok || bad "a gnuplot failing half-way: exit $got, $(echo "$TMP"/plothalf.*), $(cat "$TMP/err")"
echo earlier >"$TMP/plothalf.png"
NETSIM_GNUPLOT="$TMP/halfgp" "$NETSIM" sweep -q -o "$TMP/plotgp.csv" --resume --variant plain-ret \
  -p workload.depth=2,3 --plot x=workload.depth,y=value "$TMP/plothalf.png" "$SC" 2>/dev/null
[ "$(cat "$TMP/plothalf.png")" = earlier ] && ok || bad "a failing gnuplot replaced the earlier image"
# y=cv is undefined (nan) at every point of one repetition: refused before anything runs
expect 2 "--plot y=cv of one repetition" -- "$NETSIM" sweep -q --variant plain-ret \
  -p workload.depth=2,3 -o "$TMP/pcv.csv" --plot x=workload.depth,y=cv "$TMP/pcv.png" "$SC"
[ ! -e "$TMP/pcv.csv" ] && grep -q -- "--plot: y=cv is undefined (nan) at every point" "$TMP/err" &&
  ok || bad "--plot y=cv of one repetition: $(cat "$TMP/err")"
# with some points of two repetitions it plots those (the others' nan is left out)
expect 0 "--plot y=cv, repetitions 1 and 2" -- env NETSIM_GNUPLOT= "$NETSIM" sweep -q \
  --variant plain-ret -p measure.repetitions=1,2 -p workload.depth=2,3 --set measure.duration=50us \
  -o "$TMP/pcv.csv" --plot x=workload.depth,y=cv "$TMP/pcv.png" "$SC"
[ "$(grep -c '^[0-9]' "$TMP/pcv.dat")" -eq 2 ] && ! grep -q nan "$TMP/pcv.dat" && ok ||
  bad "--plot y=cv, repetitions 1 and 2: $(cat "$TMP/pcv.dat")"
# y=value over a swept measure.metric would average two metrics into one mark: refused
# unless the metric is x or series
MM="-q -p measure.metric=cycles_per_call,ns_per_call -p workload.depth=1,2 -p variant=plain-ret,inlined --set measure.duration=50us"
expect 2 "--plot y=value averaging two metrics" -- "$NETSIM" sweep $MM -o "$TMP/pm.csv" \
  --plot x=workload.depth,y=value "$TMP/pm.png" "$SC"
[ ! -e "$TMP/pm.csv" ] && grep -q -- "--plot: y=value would average the 2 metrics of the swept measure.metric" "$TMP/err" &&
  ok || bad "--plot y=value averaging two metrics: $(cat "$TMP/err")"
expect 0 "--plot y=value, series=measure.metric" -- env NETSIM_GNUPLOT= "$NETSIM" sweep $MM \
  -o "$TMP/pm.csv" --plot x=workload.depth,y=value,series=measure.metric "$TMP/pm.png" "$SC"
# --json and --plot
expect 0 "--json and --plot" -- "$NETSIM" sweep -q $GRID -o "$TMP/p.csv" --json "$TMP/p.json" \
  --plot x=workload.depth,y=cycles_per_call,series=workload.body-insns "$TMP/p.png" "$SC"
grep -q '"points_done": 40' "$TMP/p.json" && ok || bad "json: points_done"
grep -q '"workload.depth": "20"' "$TMP/p.json" && ok || bad "json: swept values"
grep -q '"cpu-profile generic (.*) sha256 [0-9a-f]*"' "$TMP/p.json" && ok ||
  bad "json: the header's profile and hash"
[ -f "$TMP/p.gp" ] && [ -f "$TMP/p.dat" ] && ok || bad "--plot wrote no script or data"
[ "$(grep -c '^[0-9]' "$TMP/p.dat")" -eq 40 ] && ok || bad "--plot data: $(grep -c '^[0-9]' "$TMP/p.dat") rows"
if [ -n "${NETSIM_HAVE_GNUPLOT:-$(command -v gnuplot)}" ]; then
  [ "$(head -c 4 "$TMP/p.png" | tail -c 3)" = "PNG" ] && ok || bad "--plot: no PNG"
fi
grep -q 'with linespoints' "$TMP/p.gp" && ok || bad "--plot: one point a mark needs no error bars"
# a mark averaging several points (here over body-insns) gets the 95 % interval of its mean:
# t(0.975, 1) = 12.7062 for two points, times their sd over sqrt(2)
NETSIM_GNUPLOT='' "$NETSIM" sweep -q $GRID -o "$TMP/p.csv" --resume \
  --plot x=workload.depth,y=value "$TMP/m.png" "$SC" 2>"$TMP/err"
grep -q 'yerrorlines' "$TMP/m.gp" && ok || bad "--plot: no error bars for marks of two points"
want=$(awk -F, '/^point,/ { for (i = 1; i <= NF; i++) c[$i] = i }
  /^[0-9]/ && $c["workload.depth"] == 7 { v[n++] = $c["value"] } END {
  m = (v[0] + v[1]) / 2; sd = sqrt(((v[0] - m)^2 + (v[1] - m)^2) / 1)
  printf "%.6g %.6g", m, 12.7062047 * sd / sqrt(2) }' "$TMP/p.csv")
got=$(awk '$1 == 7 && $3 == 2 { printf "%.6g %.6g", $2, $5 }' "$TMP/m.dat")
[ -n "$got" ] && [ "$got" = "$want" ] && ok || bad "--plot mark at depth 7: got '$got', wanted '$want'"
NETSIM_GNUPLOT='' "$NETSIM" sweep -q $GRID -o "$TMP/p.csv" --resume \
  --plot x=workload.depth,y=value "$TMP/q.svg" "$SC" 2>"$TMP/err"; got=$?
[ "$got" -eq 0 ] && grep -q 'no gnuplot (NETSIM_GNUPLOT is set and empty' "$TMP/err" &&
  [ -f "$TMP/q.gp" ] &&
  ok || bad "--plot without gnuplot: exit $got, $(cat "$TMP/err")"
expect 2 "--plot with a bad x" -- "$NETSIM" sweep -q $GRID -o "$TMP/p.csv" --resume \
  --plot x=nope,y=value "$TMP/r.png" "$SC"
expect 2 "--plot to a .jpg" -- "$NETSIM" sweep -q $GRID -o "$TMP/p.csv" --resume \
  --plot x=workload.depth,y=value "$TMP/r.jpg" "$SC"

# the plot's .dat and .gp are checked before anything runs, like -o and --json
mkdir -p "$TMP/dir.gp"
expect 2 "--plot whose .gp is a folder" -- "$NETSIM" sweep -q -p workload.depth=2,3 \
  -o "$TMP/dir.csv" --plot x=workload.depth,y=value "$TMP/dir.png" "$SC"
[ -e "$TMP/dir.csv" ] && bad "sweep: a --plot .gp that is a folder ran the sweep" || ok
# the JSON, .dat and .gp are written all or nothing: a .gp that cannot take its text (a
# link to /dev/full) leaves no new JSON or .dat behind, and the exit status says so
ln -s /dev/full "$TMP/full.gp"
NETSIM_GNUPLOT='' "$NETSIM" sweep -q --variant plain-ret -p workload.depth=2,3 -o "$TMP/full.csv" \
  --json "$TMP/full.json" --plot x=workload.depth,y=value "$TMP/full.png" "$SC" 2>"$TMP/err"
got=$?
[ "$got" -eq 2 ] && [ ! -e "$TMP/full.json" ] && [ ! -e "$TMP/full.dat" ] &&
  [ "$(points "$TMP/full.csv")" -eq 2 ] && ok ||
  bad "sweep: --plot .gp to /dev/full: exit $got, files: $(echo "$TMP"/full*)"

# a scenario's fitted cpu.ipc carried to another CPU by a cpu.profile dimension is noted
TC="$DATA/scenarios/tc-pktgen-matchall-5950x.xml"
TCS="--variant 5950x-f1-before --set measure.warmup=20us --set measure.duration=100us"
# shellcheck disable=SC2086 # $TCS is a list of options
expect 0 "sweep cpu.profile" -- "$NETSIM" sweep -q $TCS --param cpu.profile=ryzen9-5950x,i5-3337u \
  -o "$TMP/cpu.csv" "$TC"
grep -q "note: the scenario's cpu.ipc = [0-9.]* was fitted for profile ryzen9-5950x .*runs on i5-3337u" \
  "$TMP/err" && ok || bad "sweep: no note for a fit on another CPU: $(cat "$TMP/err")"
[ "$(grep -c 'note:' "$TMP/err")" -eq 1 ] && ok || bad "sweep: notes: $(cat "$TMP/err")"
# shellcheck disable=SC2086
expect 0 "sweep cpu.profile and ipc" -- "$NETSIM" sweep -q $TCS --param cpu.profile=ryzen9-5950x,i5-3337u \
  --param param.cpu.ipc=0.55 -o "$TMP/cpu2.csv" "$TC"
grep -q "note:" "$TMP/err" && bad "sweep: a note though cpu.ipc is swept: $(cat "$TMP/err")" || ok

# "\\," keeps a comma inside a value (spectre_v2=retpoline,lfence is one value, not two)
expect 0 "sweep a value with a comma" -- "$NETSIM" sweep -q --variant off \
  -p 'kernel.cmdline=spectre_v2=retpoline\,lfence,spectre_v2=off' -o "$TMP/comma.csv" \
  "$DATA/scenarios/micro/indirect-call.xml"
[ "$(grep -c ',ok,' "$TMP/comma.csv")" -eq 2 ] && grep -q '^0,"spectre_v2=retpoline,lfence",' \
  "$TMP/comma.csv" && ok || bad "sweep: \\, did not keep the comma: $(cat "$TMP/comma.csv")"
# two outputs on one file are refused before anything runs
expect 2 "sweep -o and --json one file" -- "$NETSIM" sweep -q -p workload.depth=2,3 \
  -o "$TMP/one.csv" --json "$TMP/./one.csv" "$DATA/scenarios/micro/call-chain.xml"
[ -e "$TMP/one.csv" ] && bad "sweep: -o and --json on one file wrote it" || ok

# a scenario edited while its sweep runs (each point reads it anew) stops the sweep: the
# point in flight is not recorded, the error names the file and says how to resume, and
# --resume runs once the file is as it was (the points ran on two versions of it, under the
# first one's sha256, until 2026-12-03)
cp "$SC" "$TMP/ed.xml" && cp "$SC" "$TMP/ed.orig"
ED="-q --jobs 1 --variant plain-ret --set measure.duration=40ms --param workload.depth=2:9:1"
# shellcheck disable=SC2086
edit_during_sweep "$TMP/ed.csv" "$TMP/ed.xml" "$TMP/ed.orig" $ED -o "$TMP/ed.csv" "$TMP/ed.xml"
[ "$got" -eq 2 ] &&
  grep -q "^netsim sweep: .*ed.xml changed during the sweep (sha256 now [0-9a-f]*, where the sweep's header has sha256 [0-9a-f]*)" \
    "$TMP/ed.csv.err" && grep -q "^netsim sweep: stopped after [1-7] of 8 points" "$TMP/ed.csv.err" &&
  grep -q "^  netsim sweep .* --resume$" "$TMP/ed.csv.err" && [ "$(points "$TMP/ed.csv")" -lt 8 ] &&
  ok || bad "sweep over a scenario edited meanwhile: exit $got, $(cat "$TMP/ed.csv.err")"
cp "$TMP/ed.orig" "$TMP/ed.xml"
# shellcheck disable=SC2086
expect 0 "sweep --resume once the scenario is back" -- "$NETSIM" sweep $ED --resume \
  -o "$TMP/ed.csv" "$TMP/ed.xml"
[ "$(points "$TMP/ed.csv")" -eq 8 ] && ok || bad "the resumed sweep has $(points "$TMP/ed.csv") points"
# ... and so does the CPU profile the points run on, which they read anew too
mkdir "$TMP/pe" && cp "$DATA/scenarios/cpus/generic.xml" "$TMP/pe/generic.xml"
# shellcheck disable=SC2086
edit_during_sweep "$TMP/pe.csv" "$TMP/pe/generic.xml" "$DATA/scenarios/cpus/generic.xml" \
  $ED --set "cpu.profile=$TMP/pe/generic.xml" -o "$TMP/pe.csv" "$TMP/ed.xml"
[ "$got" -eq 2 ] && grep -q "^netsim sweep: .*pe/generic.xml changed during the sweep" "$TMP/pe.csv.err" &&
  [ "$(points "$TMP/pe.csv")" -lt 8 ] && ok ||
  bad "sweep over a profile edited meanwhile: exit $got, $(cat "$TMP/pe.csv.err")"

# ... and so does a file a <param from=…> takes its value from; an output over it is refused
mkdir "$TMP/pf" && cp "$DATA/scenarios/udp-lookup-iperf3.xml" "$TMP/pf/iperf.xml" &&
  sed 's|from="../udp-lookup-iperf3.xml"|from="iperf.xml"|' "$DATA/scenarios/micro/udp-flood.xml" \
    >"$TMP/pf/flood.xml" && cp "$TMP/pf/iperf.xml" "$TMP/pf/iperf.orig"
PF="-q --jobs 1 --variant ipv4-8920-n1 --set measure.warmup=100us --set measure.duration=10ms --param seed=1:8:1"
# shellcheck disable=SC2086
expect 2 "sweep -o the file a <param from> reads" -- "$NETSIM" sweep $PF --force \
  -o "$TMP/pf/iperf.xml" "$TMP/pf/flood.xml"
grep -q "^netsim sweep: -o .*iperf.xml would overwrite the file a <param from=…> reads .*pf/iperf.xml" \
  "$TMP/err" && cmp -s "$TMP/pf/iperf.xml" "$TMP/pf/iperf.orig" && ok ||
  bad "sweep -o over a <param from> file: $(cat "$TMP/err")"
# shellcheck disable=SC2086
edit_during_sweep "$TMP/pf.csv" "$TMP/pf/iperf.xml" "$TMP/pf/iperf.orig" \
  $PF -o "$TMP/pf.csv" "$TMP/pf/flood.xml"
[ "$got" -eq 2 ] && grep -q "^netsim sweep: .*pf/iperf.xml changed during the sweep" "$TMP/pf.csv.err" &&
  [ "$(points "$TMP/pf.csv")" -lt 8 ] && ok ||
  bad "sweep over a <param from> file edited meanwhile: exit $got, $(cat "$TMP/pf.csv.err")"

# a swept CPU profile edited between a run and its --resume is noticed (its hash is in the
# header), so points run on two versions of it are never mixed in one file
mkdir -p "$TMP/pp"
cp "$DATA/scenarios/cpus/generic.xml" "$TMP/pp/generic.xml"
expect 0 "sweep over a profile file" -- "$NETSIM" sweep -q --variant plain-ret \
  -p "cpu.profile=$TMP/pp/generic.xml,ryzen9-7950x" -o "$TMP/prof.csv" "$SC"
sed 's/name="branch.mispredict_cycles" value="[0-9.]*"/name="branch.mispredict_cycles" value="100"/' \
  "$TMP/pp/generic.xml" >"$TMP/pp/g2" && mv "$TMP/pp/g2" "$TMP/pp/generic.xml"
expect 2 "sweep --resume after the swept profile changed" -- "$NETSIM" sweep -q --resume \
  --variant plain-ret -p "cpu.profile=$TMP/pp/generic.xml,ryzen9-7950x" -o "$TMP/prof.csv" "$SC"
grep -q "prof.csv:[0-9][0-9]*: --resume: .*different sweep.*the line is '# swept cpu-profile $TMP/pp/generic.xml: $TMP/pp/generic.xml sha256 [0-9a-f]*', this sweep's is '# swept cpu-profile $TMP/pp/generic.xml: .* sha256 [0-9a-f]*'" \
  "$TMP/err" && ok || bad "--resume after the swept profile changed: not refused as another sweep's file, naming the profile's line: $(cat "$TMP/err")"

# -o through a symbolic link: a --resume whose missing point ends the file out of order
# rewrites it in point order, in place of the file the link names (the link stays)
L3="--variant plain-ret --param workload.depth=2,3,4 --set measure.duration=100us"
expect 0 "sweep of three points" -- "$NETSIM" sweep -q $L3 -o "$TMP/real.csv" "$SC"
sed '/^1,/d' "$TMP/real.csv" >"$TMP/cut.csv" && mv "$TMP/cut.csv" "$TMP/real.csv"
ln -s real.csv "$TMP/link.csv"
expect 0 "sweep --resume through a link" -- "$NETSIM" sweep -q $L3 --resume -o "$TMP/link.csv" "$SC"
[ -L "$TMP/link.csv" ] && ok || bad "sweep -o LINK replaced the link with a file"
[ "$(grep '^[0-9]' "$TMP/real.csv" | cut -d, -f1 | tr '\n' ' ')" = "0 1 2 " ] && ok ||
  bad "the link's file is not in point order: $(grep '^[0-9]' "$TMP/real.csv" | cut -d, -f1 | tr '\n' ' ')"

# a new sweep through a dangling link creates the link's target (as --force and --resume do),
# where O_EXCL refused it as "File exists"
ln -s made.csv "$TMP/dangling.csv"
expect 0 "sweep -o a dangling link" -- "$NETSIM" sweep -q $L3 -o "$TMP/dangling.csv" "$SC"
[ -L "$TMP/dangling.csv" ] && [ "$(points "$TMP/made.csv")" -eq 3 ] && ok ||
  bad "sweep -o a dangling link: $(cat "$TMP/err")"
expect 2 "a second new sweep through the link" -- "$NETSIM" sweep -q $L3 \
  -o "$TMP/dangling.csv" "$SC"
grep -q "dangling.csv exists: pass --resume" "$TMP/err" && ok ||
  bad "a new sweep over the link's existing target: $(cat "$TMP/err")"

# with --variant, --set and --param apply on top of the variant's sets: both may edit
# what only the variant has (its second <patch>, the classifier's place in the chain)
TC="$DATA/scenarios/tc-pktgen-matchall-7950x.xml"
expect 0 "sweep --param on a variant's own element" -- "$NETSIM" sweep -q \
  --variant 7950x-f100-after --set measure.duration=200us \
  --param 'kernel.patch[2].name=tc-wrapper-cls-first,tc-wrapper-cls-last' -o "$TMP/v1.csv" "$TC"
[ "$(grep -c ',7950x-f100-after,0,[0-9]*,ok,' "$TMP/v1.csv")" -eq 2 ] && ok ||
  bad "sweep over a variant's patch: $(cat "$TMP/v1.csv")"
expect 0 "sweep --set on a variant's own element" -- "$NETSIM" sweep -q \
  --variant 7950x-f100-after --set 'kernel.patch[2].name=tc-wrapper-cls-last' \
  --set measure.duration=200us --param workload.filters=50,100 -o "$TMP/v2.csv" "$TC"
[ "$(grep -c ',ok,' "$TMP/v2.csv")" -eq 2 ] && ok || bad "sweep --set on a variant's patch"

echo "test-sweep.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
