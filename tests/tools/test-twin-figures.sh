#!/bin/sh
# test-twin-figures.sh — the model's figures doc/model.md gives beside tools/bench-tc-walk's
# ("The kernel's own tc walk": the model column of its table, and the spectre_v2=off and
# Safe RET off columns) are what scenarios/micro/tc-walk.xml gives now: the least-squares
# slopes over N = 1, 25, 50, 100, 200 of cycles a packet a filter (prios-N), a program
# (progs-N, with prios-1 as N = 1), their difference, and a skipped filter (skips-N), and
# a skipped filter's slope over N = 1 to 100 (the walk in the L1D), to the table's one
# decimal. A
# model change that moves the twin must update the table (and say whether it still agrees
# with the host). Needs python3; skipped without it.
set -u
NETSIM=${NETSIM:-./netsim}
DATA=${NETSIM_DATADIR:-.}

# shellcheck source=tests/lib.sh
. "$DATA/tests/lib.sh"
require_python3
make_tmp

run () {
  NETSIM_DATADIR="$DATA" "$NETSIM" run -q "$DATA/scenarios/micro/tc-walk.xml" -f csv \
    --set "kernel.cmdline=$1" -o "$tmp/$2.csv" 2>"$tmp/$2.err" ||
    { echo "FAIL: netsim run ($1)"; cat "$tmp/$2.err"; exit 1; }
}
run "spectre_v2=retpoline" on
run "spectre_v2=off" off
run "spectre_v2=retpoline spec_rstack_overflow=off" nosrso

python3 - "$tmp" "$DATA/doc/model.md" <<'PY'
import csv, os, re, sys

tmp, doc = sys.argv[1], sys.argv[2]
N = [1, 25, 50, 100, 200]

def slope(xs, ys):
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)

def figures(name):
    with open(os.path.join(tmp, name + ".csv")) as f:
        v = {r["name"]: float(r["value"])
             for r in csv.DictReader(l for l in f if not l.startswith("#"))
             if r["kind"] == "variant"}
    prios = slope(N, [v["prios-%d" % n] for n in N])
    progs = slope(N, [v["prios-1"]] + [v["progs-%d" % n] for n in N[1:]])
    skips = slope(N, [v["skips-%d" % n] for n in N])
    skips_l1 = slope(N[:-1], [v["skips-%d" % n] for n in N[:-1]])
    return [prios, progs, prios - progs, skips, skips_l1]

model = [figures(c) for c in ("on", "off", "nosrso")]
text = open(doc, encoding="utf-8").read()
start = text.index("**The kernel's own tc walk")
rows = re.findall(r"^\| (a filter \(prios\)|a program \(progs\)|the tcf_proto step|"
                  r"a skipped filter \(skips\)|a skipped filter up to 100 \(skips\)) \|"
                  r"[^|]*\| ([0-9.]+) \| ([0-9.]+) \| ([0-9.]+) \|$",
                  text[start:start + 8000], re.M)
fail = 0
if len(rows) != 5:
    print("FAIL: doc/model.md: the twin's table has %d of its 5 rows" % len(rows))
    sys.exit(1)
for i, row in enumerate(rows):
    for col, written in enumerate(row[1:]):
        now = "%.1f" % model[col][i]
        if now != written:
            print("FAIL: doc/model.md, %s, column %d: %s, the model now %s"
                  % (row[0], col + 2, written, now))
            fail = 1
print("test-twin-figures: %d figures checked" % (3 * len(rows)))
sys.exit(fail)
PY
