#!/usr/bin/env python3
"""Usage: NETSIM=path/to/netsim fit.py (run from anywhere).
Fits cpu.ipc of each seed-002 scenario on its 1-filter 'before' row.
Every simulated cost is either constant or proportional to 1/ipc (the run is deterministic
and single-threaded, so cache contents do not depend on timing): cycles/packet = a/ipc + b.
Two runs give a and b; ipc* = a / (recorded cycles - b), rounded to 3 digits; then, as
netsim calibrate polishes its fits, the neighbours 0.001 apart are tried while one misses
the recorded rate by less (the runs count whole packets, so the rounded ipc* need not be
the best value at the last digit), so that `netsim validate --refit` gives the same value.
Then validation/calibration.xml's entries for these profiles are updated (the what-if
scenarios take cpu.ipc from the replay scenarios with <param from=...>). Each source names
the row fitted on by its id, as calibration.xml records it (FIT_ROW): "fit on ROW (how),
residual R", R as calibration.xml has it; netsim validate requires every row a fit's
source names to be among its recorded rows."""
import json, os, re, subprocess, sys
sys.path.insert(0, os.path.dirname(__file__))
import gen
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
NETSIM = os.environ.get("NETSIM", os.path.join(ROOT, "netsim"))
env = dict(os.environ, NETSIM_DATADIR=ROOT)
# The recorded row (validation/seed-002.xml) each CPU's cpu.ipc is fitted on: its 1-filter
# 'before' row, gen.CPUS[short]["rows"][0].
FIT_ROW = {"7950x": "002-r9-7950x-f1", "5950x": "002-r9-5950x-f1", "3337u": "002-i5-3337u-f1",
           "10210u": "002-i5-10210u-f1", "6230r": "002-xeon-6230r-f1"}
def residual(resid):
    """The residual as calibration.xml records it: |miss| as a fraction, 3 digits."""
    return f"{abs(resid) / 100:.3g}"
def source(short, a, b, pps, resid):
    """The cpu.ipc source of CPU short: the row's id, how the value was fitted, the residual."""
    c = gen.CPUS[short]
    tag, nf, clone, before, after = c["rows"][0]
    return (f"fit on {FIT_ROW[short]} (seed002 row '{c['label']}, {nf} filter, before': "
            f"{before} pps recorded, variant {short}-{tag}-before; cycles/packet = a/ipc + b "
            f"with a = {a:.1f}, b = {b:.1f}; simulated {pps:.0f} pps at this value, "
            f"{resid:+.2f}%), residual {residual(resid)}")
def run(path, variant, ipc):
    out = subprocess.run([NETSIM, "run", path, "-q", "--variant", variant, "--format", "json",
                          "--set", f"param.cpu.ipc={ipc}", "--set", "measure.metric=cycles_per_packet"],
                         env=env, capture_output=True, text=True, check=True).stdout
    return json.loads(out)["variants"][0]["value"]
def main():
    """Fits each CPU's cpu.ipc; writes its scenario and calibration.xml's entry."""
    res = {}
    for short, c in gen.CPUS.items():
        path = f"{ROOT}/scenarios/tc-pktgen-matchall-{short}.xml"
        tag, nf, clone, before, after = c["rows"][0]
        variant = f"{short}-{tag}-before"
        ghz = gen.profile_clock(c["profile"])
        target = ghz * 1e9 / before
        y1, y2 = run(path, variant, 1.0), run(path, variant, 2.0)
        a = (y1 - y2) / (1.0 - 0.5); b = y1 - a
        def miss(ipc):
            pps = ghz * 1e9 / run(path, variant, ipc)
            return pps, 100.0 * (pps - before) / before
        ipc = round(a / (target - b), 3)
        pps, resid = miss(ipc)
        for step in (-0.001, 0.001):
            while True:
                p2, r2 = miss(round(ipc + step, 3))
                if abs(r2) >= abs(resid):
                    break
                ipc, pps, resid = round(ipc + step, 3), p2, r2
        gen.write(short, f"{ipc}", source(short, a, b, pps, resid), path)
        res[short] = (ipc, a, b, target, pps, resid)
        print(short, res[short])
    # validation/calibration.xml records every fit (netsim validate marks those rows as
    # calibration rows): update each seed-002 profile's cpu.ipc entry in place.
    CAL = os.path.join(ROOT, "validation", "calibration.xml")
    cal = open(CAL).read()
    for short, (ipc, a, b, target, pps, resid) in res.items():
        profile = gen.CPUS[short]["profile"]
        pat = re.compile(r'(<fit profile="%s" param="cpu\.ipc" value=")[^"]*(" residual=")[^"]*("[^>]* rows="%s")'
                         % (re.escape(profile), re.escape(FIT_ROW[short])))
        cal, n = pat.subn(lambda m: f'{m.group(1)}{ipc}{m.group(2)}{residual(resid)}{m.group(3)}',
                          cal)
        if n != 1:
            sys.exit(f"fit.py: {CAL} has {n} cpu.ipc entries for {profile} on "
                     f"{FIT_ROW[short]}, expected 1")
    open(CAL, "w").write(cal)
if __name__ == "__main__":
    main()
