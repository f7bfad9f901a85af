#!/bin/sh
# test-gen-fit.sh — seed 002's generator and fit tool (models/net/sched/seed002/):
#  1. every shipped tc-pktgen scenario is what gen.py writes (the replays with their
#     cpu.ipc and its source, the two what-if files), so no one has edited a generated file;
#  2. fit.py, run on a copy of the tree against a stand-in for netsim whose cycles a packet
#     are a/ipc + b plus a small curvature and count whole packets (as a run does), writes
#     for each CPU the cpu.ipc that misses the recorded rate least at the third digit (its
#     polish; the closed form alone is off by several thousandths here), into the replay
#     scenario and into validation/calibration.xml with that residual;
#  3. each cpu.ipc source, shipped and as fit.py writes it, names by its id the row that
#     validation/calibration.xml records the fit on ("fit on ROW (…), residual R", R as
#     recorded there), as netsim validate requires of a fit's source.
# Needs python3; skipped without it.
set -u
DATA=${NETSIM_DATADIR:-.}

# shellcheck source=tests/lib.sh
. "$DATA/tests/lib.sh"
require_python3

make_tmp
mkdir -p "$tmp/models/net/sched/seed002" "$tmp/scenarios/cpus" "$tmp/validation"
cp "$DATA"/models/net/sched/seed002/gen.py "$DATA"/models/net/sched/seed002/fit.py \
  "$tmp/models/net/sched/seed002/"
cp "$DATA"/scenarios/cpus/*.xml "$tmp/scenarios/cpus/"
cp "$DATA"/validation/calibration.xml "$tmp/validation/"

# The stand-in for netsim: `run SCENARIO -q --variant V --format json --set
# param.cpu.ipc=X --set measure.metric=cycles_per_packet` prints the cycles a packet of a
# window of WINDOW cycles that counts whole packets.
cat > "$tmp/fake-netsim" <<'EOF'
#!/usr/bin/env python3
import json, math, sys
sys.path.insert(0, sys.argv[0].rsplit("/", 1)[0])
import truth
args = sys.argv[1:]
variant = args[args.index("--variant") + 1]
sets = dict(a.split("=", 1) for i, a in enumerate(args) if i and args[i - 1] == "--set")
assert sets["measure.metric"] == "cycles_per_packet", sets
print(json.dumps({"variants": [{"name": variant,
                                "value": truth.measured(variant.split("-")[0],
                                                        float(sets["param.cpu.ipc"]))}]}))
EOF
chmod +x "$tmp/fake-netsim"

cat > "$tmp/truth.py" <<'EOF'
# The stand-in's cost law per CPU: a/ipc + b + CURVE * (ipc - 1)^2 cycles a packet, where
# a and b put the law's exact solution for the recorded rate at IPC_TRUE; whole packets in
# a window of WINDOW cycles.
import math, re, sys
sys.path.insert(0, __file__.rsplit("/", 1)[0] + "/models/net/sched/seed002")
import gen
WINDOW = 4.0e7
IPC_TRUE = {"7950x": 2.1137, "5950x": 1.6753, "3337u": 1.1071, "10210u": 1.4248, "6230r": 1.6462}
CURVE = 10.0
def ghz(short):
    prof = open(__file__.rsplit("/", 1)[0] + f"/scenarios/cpus/{gen.CPUS[short]['profile']}.xml").read()
    return float(re.search(r'name="cpu.freq_ghz" value="([0-9.]+)"', prof).group(1))
def target(short):
    return ghz(short) * 1e9 / gen.CPUS[short]["rows"][0][3]
def law(short, ipc):
    t, i0 = target(short), IPC_TRUE[short]
    a = 0.6 * t * i0
    b = t - a / i0 - CURVE * (i0 - 1) ** 2
    return a / ipc + b + CURVE * (ipc - 1) ** 2
def measured(short, ipc):
    return WINDOW / math.floor(WINDOW / law(short, ipc))
def miss(short, ipc):
    before = gen.CPUS[short]["rows"][0][3]
    return abs(100.0 * (ghz(short) * 1e9 / measured(short, ipc) - before) / before)
EOF

NETSIM="$tmp/fake-netsim" python3 - "$tmp" "$DATA" <<'EOF'
import re, sys
tmp, data = sys.argv[1], sys.argv[2]
sys.path.insert(0, tmp + "/models/net/sched/seed002")
sys.path.insert(0, tmp)
import gen, truth, fit
fail = 0
def bad(msg):
    global fail
    fail += 1
    print("FAIL:", msg)
def unescape(s):
    return s.replace("&quot;", '"').replace("&lt;", "<").replace("&amp;", "&")
PARAM = re.compile(r'<param name="cpu\.ipc" value="([^"]*)" source="([^"]*)"/>')
def names_recorded_row(where, short, source, cal):
    """3. source names the row calibration.xml records the fit of short's cpu.ipc on."""
    prof = gen.CPUS[short]["profile"]
    e = re.search(r'<fit profile="%s" param="cpu\.ipc" value="[^"]*" residual="([^"]*)"[^>]* '
                  r'rows="([^"]*)"' % re.escape(prof), cal)
    want = f"fit on {e.group(2)} (" if e else None
    if not e or not source.startswith(want) or not source.endswith(f"), residual {e.group(1)}"):
        bad(f"{where}: {short}'s cpu.ipc source '{source[:60]}…' does not name the row and "
            f"residual calibration.xml records ({e.group(2) if e else 'no entry'})")

# 1. the shipped scenarios are the generator's
for short in gen.CPUS:
    name = f"tc-pktgen-matchall-{short}.xml"
    shipped = open(f"{data}/scenarios/{name}").read()
    m = PARAM.search(shipped)
    if not m:
        bad(f"{name}: no cpu.ipc param with a source")
        continue
    names_recorded_row("shipped", short, unescape(m.group(2)),
                       open(f"{data}/validation/calibration.xml").read())
    gen.write(short, m.group(1), unescape(m.group(2)), f"{tmp}/scenarios/{name}")
    if open(f"{tmp}/scenarios/{name}").read() != shipped:
        bad(f"{name} differs from what gen.py writes (edit the generator, re-run fit.py)")
gen.ROOT = tmp
gen.whatifs()
for short in ("7950x", "6230r"):
    name = f"tc-pktgen-whatif-{short}.xml"
    if open(f"{tmp}/scenarios/{name}").read() != open(f"{data}/scenarios/{name}").read():
        bad(f"{name} differs from what gen.py's whatifs() writes")

# 2. fit.py's fit is the best value at the third digit, wherever its closed form lands
import subprocess, os
out = subprocess.run([sys.executable, f"{tmp}/models/net/sched/seed002/fit.py"],
                     env=dict(os.environ, NETSIM=f"{tmp}/fake-netsim"),
                     capture_output=True, text=True)
if out.returncode != 0:
    bad(f"fit.py exited {out.returncode}: {out.stderr.strip()[-300:]}")
    sys.exit(1)
cal = open(f"{tmp}/validation/calibration.xml").read()
far = 0
for short in gen.CPUS:
    m = PARAM.search(open(f"{tmp}/scenarios/tc-pktgen-matchall-{short}.xml").read())
    got = float(m.group(1))
    names_recorded_row("fit.py", short, unescape(m.group(2)), cal)
    grid = [round(truth.IPC_TRUE[short] + k / 1000.0, 3) for k in range(-30, 31)]
    best = min(grid, key=lambda x: (truth.miss(short, x), x))
    if abs(truth.miss(short, got) - truth.miss(short, best)) > 1e-12:
        bad(f"{short}: fit.py wrote cpu.ipc {got}, misses by {truth.miss(short, got):.4f} %; "
            f"{best} misses by {truth.miss(short, best):.4f} %")
    for step in (-0.001, 0.001):
        if truth.miss(short, round(got + step, 3)) < truth.miss(short, got):
            bad(f"{short}: cpu.ipc {got} is not a local best ({round(got + step, 3)} misses less)")
    # how far from the best the closed form alone lands (the polish's work)
    t = truth.target(short)
    y1, y2 = truth.measured(short, 1.0), truth.measured(short, 2.0)
    a = (y1 - y2) / 0.5
    far = max(far, abs(round(a / (t - (y1 - a)), 3) - best))
    prof = gen.CPUS[short]["profile"]
    e = re.search(r'<fit profile="%s" param="cpu\.ipc" value="([^"]*)" residual="([^"]*)"' %
                  re.escape(prof), cal)
    if not e or float(e.group(1)) != got:
        bad(f"{short}: calibration.xml's cpu.ipc for {prof} is not fit.py's {got}")
    elif abs(float(e.group(2)) - truth.miss(short, got) / 100) > 6e-3 * truth.miss(short, got) / 100:
        bad(f"{short}: calibration.xml's residual {e.group(2)} is not the fit's "
            f"{truth.miss(short, got) / 100:.3g}")
if far < 0.002:
    bad(f"the stand-in's closed form lands within {far:.3f} of every fit: the polish is untested")
if fail:
    sys.exit(1)
print(f"fit.py: {len(gen.CPUS)} fits at their best third digit (closed form off by up to {far:.3f})")
EOF
