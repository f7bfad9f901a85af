#!/usr/bin/env python3
"""Usage: NETSIM=path/to/netsim table.py. The seed-002 16-row table: recorded vs simulated deltas and absolute pps."""
import json, subprocess, sys, os, time
sys.path.insert(0, os.path.dirname(__file__))
import gen
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
NETSIM = os.environ.get("NETSIM", os.path.join(ROOT, "netsim"))
env = dict(os.environ, NETSIM_DATADIR=ROOT)
t0 = time.time()
rows = []
for short, c in gen.CPUS.items():
    path = f"{ROOT}/scenarios/tc-pktgen-matchall-{short}.xml"
    out = json.loads(subprocess.run([NETSIM, "run", path, "-q", "--format", "json"], env=env,
                                    capture_output=True, text=True, check=True).stdout)
    val = {v["name"]: v["value"] for v in out["variants"]}
    for (tag, nf, clone, before, after) in c["rows"]:
        sb, sa = val[f"{short}-{tag}-before"], val[f"{short}-{tag}-after"]
        rd, sd = 100*(after-before)/before, 100*(sa-sb)/sb
        tol = max(3.0, 0.1*abs(rd))
        # netsim validate's sign rule: the same sign, or both under 1 pp (no change)
        sign = lambda d: (d > 0) - (d < 0)
        sign_ok = abs(sd) < 1.0 if abs(rd) < 1.0 else sign(rd) == sign(sd)
        ok = abs(sd-rd) <= tol and sign_ok
        rows.append((c["label"].split(" (")[0], nf, clone, before, sb, 100*(sb-before)/before,
                     after, sa, 100*(sa-after)/after, rd, sd, ok))
print("%-18s %4s %5s %10s %10s %7s %10s %10s %7s %8s %8s %s" % ("cpu","filt","clone","rec.bef","sim.bef","err%","rec.aft","sim.aft","err%","rec.d%","sim.d%","delta ok"))
for r in rows:
    print("%-18s %4d %5d %10d %10.0f %+6.1f%% %10d %10.0f %+6.1f%% %+7.2f%% %+7.2f%% %s" % r)
print("host time %.1f s" % (time.time()-t0))
