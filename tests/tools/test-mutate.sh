#!/bin/sh
# test-mutate.sh — tools/mutate on a two-function C project of its own: it makes a mutant
# for each operator in code and none in comments, strings or the preprocessor; a mutant
# the test notices is killed, one it cannot notice (max's > against >=, equal when a == b)
# survives and is reported with its line; --function limits the mutants to one body;
# the project's files are as they were after the run; test commands run in order, each
# only on what the ones before let survive; bad input exits 2; a project laid
# out as netsim is gets its tests run under make check's environment. Needs python3, git,
# make and a C compiler; skipped without them.
set -u
DATA=${NETSIM_DATADIR:-.}

# shellcheck source=tests/lib.sh
. "$DATA/tests/lib.sh"
require_python3
for tool in git cc make; do
  command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: $tool not installed"; exit 77; }
done
make_tmp

MUTATE="python3 $DATA/tools/mutate"
tree="$tmp/tree"
mkdir "$tree"
cat >"$tree/pick.c" <<'EOF'
#include <stdio.h>
/* max: a > b picks a; a == b either */
int max (int a, int b)
{
  if (a > b)
    return a;
  return b;
}

int
is_zero (int a)
{
  const char *s = "a == 0 || a != 1";
  (void) s;
  return a == 0;
}
EOF
cat >"$tree/t.c" <<'EOF'
int max (int a, int b);
int is_zero (int a);
int main (void) { return !(max (2, 1) == 2 && max (1, 2) == 2 && is_zero (0) && !is_zero (3)); }
EOF
cp "$tree/pick.c" "$tmp/pick.orig"
(cd "$tree" && git init -q && git add pick.c t.c) || exit 99

# the mutants: one per operator in code, none in the comment, the string or #include
$MUTATE --tree "$tree" --list pick.c >"$tmp/list" 2>"$tmp/err" && ok || bad "--list: $(cat "$tmp/err")"
printf '%s\n' 'pick.c:5:9: > -> >=' 'pick.c:15:12: == -> !=' >"$tmp/want"
cmp -s "$tmp/list" "$tmp/want" && ok || bad "mutants listed: $(cat "$tmp/list")"
$MUTATE --tree "$tree" --list --function is_zero pick.c >"$tmp/list" 2>"$tmp/err"
[ "$(cat "$tmp/list")" = "pick.c:15:12: == -> !=" ] && ok || bad "--function is_zero: $(cat "$tmp/list")"
$MUTATE --tree "$tree" --list --lines 5-5 pick.c >"$tmp/list" 2>"$tmp/err"
[ "$(cat "$tmp/list")" = "pick.c:5:9: > -> >=" ] && ok || bad "--lines 5-5: $(cat "$tmp/list")"
$MUTATE --tree "$tree" --list --lines 1-5 --lines 15-15 pick.c >"$tmp/list" 2>"$tmp/err"
cmp -s "$tmp/list" "$tmp/want" && ok || bad "--lines twice: $(cat "$tmp/list")"

# the run: is_zero's mutant killed, max's survives (exit 1), the checkout untouched
$MUTATE --tree "$tree" --work "$tmp/work" --build 'cc -o t t.c pick.c' --test ./t pick.c \
  >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && ok || bad "exit status with a survivor (want 1): $(cat "$tmp/err")"
grep -qx 'pick.c:5:9: survived: > -> >= (if (a > b))' "$tmp/out" && ok || bad "survivor line: $(cat "$tmp/out")"
grep -qx '2 mutants: 1 killed, 1 survived, 0 did not build (not counted)' "$tmp/out" && ok ||
  bad "summary: $(cat "$tmp/out")"
cmp -s "$tree/pick.c" "$tmp/pick.orig" && ok || bad "the checkout's pick.c changed"
cmp -s "$tmp/work/src/pick.c" "$tmp/pick.orig" && ok || bad "the copy's pick.c was left mutated"
[ ! -e "$tmp/work/mutating" ] && ok || bad "a finished run left its marker"
# a run killed mid-mutant (its marker left): the next one stamps that file anew, so make
# rebuilds its object, and takes the marker away
echo pick.c >"$tmp/work/mutating"
touch -d '2001-01-01' "$tmp/work/src/pick.c"
$MUTATE --tree "$tree" --work "$tmp/work" --build true --test true --lines 1-1 pick.c \
  >"$tmp/out" 2>"$tmp/err" && ok || bad "a run after a killed one: $(cat "$tmp/err")"
[ ! -e "$tmp/work/mutating" ] && [ -n "$(find "$tmp/work/src/pick.c" -newer "$tmp/pick.orig")" ] && ok ||
  bad "the marker's file was not stamped anew, or the marker stayed"
# only is_zero: no survivor, exit 0
$MUTATE --tree "$tree" --work "$tmp/work" --build 'cc -o t t.c pick.c' --test ./t \
  --function is_zero pick.c >"$tmp/out" 2>"$tmp/err" && ok || bad "is_zero alone: exit $?"
grep -qx '1 mutants: 1 killed, 0 survived, 0 did not build (not counted)' "$tmp/out" && ok ||
  bad "is_zero alone: $(cat "$tmp/out")"

# the test commands run in order and stop at the first that kills: the second runs on the
# unmutated copy and on max's survivor, never on is_zero's mutant, which ./t kills
$MUTATE --tree "$tree" --work "$tmp/work" --build 'cc -o t t.c pick.c' --test ./t \
  --test "echo ran >>$tmp/runs" pick.c >"$tmp/out" 2>"$tmp/err"
[ "$(wc -l <"$tmp/runs" 2>/dev/null)" -eq 2 ] && ok ||
  bad "the second test command ran $(wc -l <"$tmp/runs" 2>/dev/null) times, wanted 2"

# a test that times out is killed with what it started, even in a session of its own (as
# Check forks each test into its own process group): nothing is left running
$MUTATE --tree "$tree" --work "$tmp/work" --build 'cc -o t t.c pick.c' --timeout 2 \
  --test "./t || { setsid sleep 300 & echo \$! >$tmp/child.pid; sleep 300; }" \
  --function is_zero pick.c >"$tmp/out" 2>"$tmp/err" && ok || bad "timed-out test: exit $?"
# (running: its /proc state is anything but Z, a zombie its new parent has not reaped)
child_state=$(cut -d' ' -f3 "/proc/$(cat "$tmp/child.pid" 2>/dev/null)/stat" 2>/dev/null)
[ -s "$tmp/child.pid" ] && { [ -z "$child_state" ] || [ "$child_state" = Z ]; } && ok ||
  bad "a timed-out test's own-session child was left running (state $child_state)"

# a tool stopped (SIGTERM) while a test runs takes that test along, its own-session child
# included, and leaves the copy unmutated
rm -f "$tmp/child.pid"
$MUTATE --tree "$tree" --work "$tmp/work" --build 'cc -o t t.c pick.c' --timeout 200 \
  --test "./t || { setsid sleep 300 & echo \$! >$tmp/child.pid; sleep 300; }" \
  --function is_zero pick.c >"$tmp/out" 2>"$tmp/err" &
tool=$!
for _ in $(seq 1 300); do [ -s "$tmp/child.pid" ] && break; sleep 0.1; done
kill -TERM "$tool"
wait "$tool"
child_state=$(cut -d' ' -f3 "/proc/$(cat "$tmp/child.pid" 2>/dev/null)/stat" 2>/dev/null)
[ -s "$tmp/child.pid" ] && { [ -z "$child_state" ] || [ "$child_state" = Z ]; } && ok ||
  bad "a stopped tool left its test's own-session child running (state $child_state)"
cmp -s "$tmp/work/src/pick.c" "$tmp/pick.orig" && ok || bad "a stopped tool left the copy mutated"

# a test that runs away with memory is killed at --memory (it and its children's resident
# memory together), long before its timeout: the mutant that only allocates 1 GiB in a
# child, which would pass unchecked, is killed at 256 MiB
$MUTATE --tree "$tree" --work "$tmp/work" --build 'cc -o t t.c pick.c' --memory 256 \
  --test "./t || sh -c 'python3 -c \"b = bytearray(1 << 30); import time; time.sleep(5)\"'" \
  --function is_zero pick.c >"$tmp/out" 2>"$tmp/err" && ok || bad "memory cap: exit $?"
grep -qx '1 mutants: 1 killed, 0 survived, 0 did not build (not counted)' "$tmp/out" && ok ||
  bad "memory cap: $(cat "$tmp/out")"
# ...and without the cap, it passes: the test above is the cap's doing
$MUTATE --tree "$tree" --work "$tmp/work" --build 'cc -o t t.c pick.c' --memory 4096 \
  --test "./t || python3 -c 'b = bytearray(1 << 30)'" \
  --function is_zero pick.c >"$tmp/out" 2>"$tmp/err"
grep -qx '1 mutants: 0 killed, 1 survived, 0 did not build (not counted)' "$tmp/out" && ok ||
  bad "no cap: $(cat "$tmp/out")"

# bad input: exit 2 with a message, nothing run
for args in "--bogus pick.c" "--list t.h" "--list nothere.c" "--lines 5-2 --list pick.c" \
    "--timeout 0 --list pick.c" "--list --function nothere pick.c" "--list" \
    "--memory 0 --list pick.c" "--memory 1.5 --list pick.c"; do
  # shellcheck disable=SC2086
  $MUTATE --tree "$tree" $args >"$tmp/out" 2>"$tmp/err"
  [ $? -eq 2 ] && grep -q '^mutate: ' "$tmp/err" && ok || bad "$args: want exit 2 and a message"
done
# a test that fails before any mutant is a setup error
$MUTATE --tree "$tree" --work "$tmp/work" --build 'cc -o t t.c pick.c' --test false pick.c \
  >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q 'a test fails without any mutant' "$tmp/err" && ok ||
  bad "failing unmutated test: $(cat "$tmp/err")"

# the default tests run under make check's environment: a project laid out as netsim is
# (configure, sim/, tests/sim/) whose Makefile's AM_TESTS_ENVIRONMENT makes a warning
# fatal, as netsim's G_DEBUG=fatal-warnings does; clamp's mutant only warns, so only that
# environment kills it
ntree="$tmp/ntree"
mkdir -p "$ntree/sim" "$ntree/tests/sim"
cat >"$ntree/sim/clamp.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>

/* clamp: a negative a warns (fatal under STRICT_WARNINGS) and reads 0 */
int
clamp (int a)
{
  if (a < 0) {
    fputs ("warning: negative\n", stderr);
    if (getenv ("STRICT_WARNINGS"))
      abort ();
    return 0;
  }
  return a;
}
EOF
cat >"$ntree/tests/sim/test-clamp.c" <<'EOF'
int clamp (int a);
int main (void) { return !(clamp (0) == 0 && clamp (3) == 3); }
EOF
cat >"$ntree/configure" <<'EOF'
#!/bin/sh
printf '%s\n' 'check_PROGRAMS = tests/sim/test-clamp' \
  'AM_TESTS_ENVIRONMENT = STRICT_WARNINGS=1; export STRICT_WARNINGS;' \
  'tests/sim/test-clamp: ../sim/clamp.c ../tests/sim/test-clamp.c' \
  '	mkdir -p tests/sim && cc -o $@ ../sim/clamp.c ../tests/sim/test-clamp.c' >Makefile
EOF
chmod +x "$ntree/configure"
(cd "$ntree" && git init -q && git add -f configure sim tests) || exit 99
(unset STRICT_WARNINGS; $MUTATE --tree "$ntree" --work "$tmp/nwork" sim/clamp.c) \
  >"$tmp/out" 2>"$tmp/err" && ok || bad "default tests under make check's environment: $(cat "$tmp/out" "$tmp/err")"
grep -qx '1 mutants: 1 killed, 0 survived, 0 did not build (not counted)' "$tmp/out" && ok ||
  bad "default tests' summary: $(cat "$tmp/out")"

echo "test-mutate: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
