#!/bin/sh
# test-text-census.sh — ifetch.text_bytes_per_insn is still what its source says: the b
# that tools/text-census fits to its committed run on the Debian 6.1 binary
# (doc/census/text-census.txt), and every listing of that run is still read from the census
# documents (an edit that breaks a range listing, or adds one, must come with a new run;
# select.md's listings the run left out on their stated counts may stay).
# The binary itself is not needed: the committed per-listing rows are refitted with the
# tool's own fit. Needs python3; skipped without it.
set -u
NETSIM=${NETSIM:-./netsim}
DATA=${NETSIM_DATADIR:-.}

# shellcheck source=tests/lib.sh
. "$DATA/tests/lib.sh"
require_python3

default=$("$NETSIM" list params | sed -n 's/^ifetch\.text_bytes_per_insn  *number  *[^ ]*  *default \([0-9.]*\).*/\1/p')
if [ -z "$default" ]; then
  echo "FAIL: netsim list params gives no default for ifetch.text_bytes_per_insn"
  exit 1
fi

python3 - "$DATA" "$default" <<'PY'
import collections, importlib.machinery, importlib.util, os, re, sys

data, default = sys.argv[1], float(sys.argv[2])
loader = importlib.machinery.SourceFileLoader("text_census", os.path.join(data, "tools/text-census"))
spec = importlib.util.spec_from_loader("text_census", loader)
tc = importlib.util.module_from_spec(spec)
loader.exec_module(tc)

rows, listed, fitline = [], collections.Counter(), None
with open(os.path.join(data, "doc/census/text-census.txt"), encoding="utf-8") as f:
    for line in f:
        m = re.match(r"\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\S+) (\S+)", line)
        if m:
            rows.append(tuple(int(m.group(i)) for i in range(1, 6)))
            listed[(m.group(6), m.group(7))] += 1
        elif line.startswith("fit: b "):
            fitline = line
failures = []
if not rows or fitline is None:
    failures.append("doc/census/text-census.txt has no listing rows or no fit line")
else:
    target = sum(r[2] for r in rows)
    b, resid, lo, hi = tc.fit([(r[0], r[4]) for r in rows], target)
    want = re.match(r"fit: b ([0-9.]+) \(ties ([0-9.]+)–([0-9.]+)\).*residual ([+-]\d+)", fitline)
    if not want or (b, lo, hi, resid) != (float(want.group(1)), float(want.group(2)),
                                          float(want.group(3)), int(want.group(4))):
        failures.append(f"the committed rows refit to b {b} (ties {lo}-{hi}, residual {resid}), "
                        f"not the committed line: {fitline.strip()}")
    if not lo <= default <= hi:
        failures.append(f"ifetch.text_bytes_per_insn defaults to {default}, outside the fit's "
                        f"{lo}-{hi} (b {b})")
    # every committed listing is still read; any other must be one the run left out
    # because its ranges did not account for its stated count (a check on the binary)
    syms = {name: [] for _, name in listed}
    parsed = tc.listings(syms, {})
    found = collections.Counter((x[0], x[1]) for x in parsed)
    counted = collections.Counter((x[0], x[1]) for x in parsed if len(x) > 5)
    lost, extra = listed - found, (found - listed) - counted
    if lost or extra:
        failures.append("the census documents no longer give the committed run's listings: "
                        f"not read {sorted(lost.elements())[:5]}, new "
                        f"{sorted(extra.elements())[:5]}")
for f in failures:
    print("FAIL:", f)
print(f"test-text-census: {len(rows)} listings, b {default}: "
      f"{'ok' if not failures else str(len(failures)) + ' failed'}")
sys.exit(1 if failures else 0)
PY
