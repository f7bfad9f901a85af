#!/usr/bin/env python3
"""Usage: NETSIM=path/to/netsim walks.py [--set PATH=VALUE]... [--clock CPU=GHZ]...

Seed 002's cost of a filter, recorded and simulated, in cycles at each CPU's clock:
(1 / pps(100 filters) - 1 / pps(1 filter)) x clock / 99, before the series and after
it, from `netsim validate`'s clone-0 rows of each CPU (doc/models/tc-pktgen.md,
"Why rows miss").

--set PATH=VALUE   a what-if for every CPU, as netsim validate --set (then --refit: each
                   CPU's cpu.ipc is fitted again on its 1-filter row)
--clock CPU=GHZ    run CPU (7950x, 5950x, 3337u, 10210u, 6230r) at GHZ, the recorded
                   figures read at that clock too (then --refit)

Without options the figures are those of validation/expected.csv, which
tools/doc-figures holds where the docs quote them (walk:PREFIX:SIDE). Prints one line a
CPU: its clock, the 1-filter "before" path's recorded cycles, the cost of a filter
recorded and simulated in each build with the simulated one's error, and then the same
costs as shares of the 1-filter "before" packet, which need no clock (recorded,
simulated, and recorded in the CPU's clone-1000 runs where the seed has them):
(pps(1 filter, before) / pps(100 filters) - pps(1 filter, before) / pps(1 filter)) / 99."""
import csv
import io
import os
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import gen  # noqa: E402  (the CPUs and their recorded rows)

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
NETSIM = os.environ.get("NETSIM", os.path.join(ROOT, "netsim"))


def die(message):
    """Prints message and exits with status 2 (usage or input)."""
    sys.stderr.write("walks.py: %s\n" % message)
    sys.exit(2)


def parse_args(argv):
    """(sets, clocks): the --set values in order, the --clock values by CPU."""
    sets, clocks = [], {}
    it = iter(argv)
    for a in it:
        if a in ("-h", "--help"):
            print(__doc__)
            sys.exit(0)
        if a not in ("--set", "--clock"):
            die("unknown argument '%s' (see --help)" % a)
        v = next(it, None)
        if v is None or "=" not in v:
            die("%s needs NAME=VALUE (see --help)" % a)
        if a == "--set":
            sets.append(v)
            continue
        cpu, _, ghz = v.partition("=")
        if cpu not in gen.CPUS:
            die("--clock: unknown CPU '%s' (%s)" % (cpu, ", ".join(gen.CPUS)))
        try:
            clocks[cpu] = float(ghz)
        except ValueError:
            die("--clock %s: expected a clock in GHz, got '%s'" % (cpu, ghz))
    return sets, clocks


def validate_rows(cpu, profile, sets):
    """netsim validate's seed-002 rows of one CPU (ids 002-*-CPU-*), by row id."""
    cmd = [NETSIM, "validate", "-q", "--jobs", "2", "--format", "csv", "002-*-%s-*" % cpu]
    for s in sets:
        cmd += ["--set", s]
    if sets:
        cmd.append("--refit")
    try:
        res = subprocess.run(cmd, env=dict(os.environ, NETSIM_DATADIR=ROOT),
                             capture_output=True, text=True)
    except OSError as e:
        die("cannot run %s: %s (set NETSIM to a built netsim)" % (NETSIM, e.strerror))
    if res.returncode not in (0, 1):        # 1: some row fails, which is expected
        die("%s failed:\n%s" % (" ".join(cmd), res.stderr))
    lines = [l for l in res.stdout.splitlines(True) if not l.startswith("#")]
    return {r["row"]: r for r in csv.DictReader(io.StringIO("".join(lines)))
            if r["profile"] == profile}


def walk(rows, prefix, column, hz):
    """Cycles a filter at hz from the rows prefix-f1 and prefix-f100."""
    return (hz / float(rows[prefix + "-f100"][column])
            - hz / float(rows[prefix + "-f1"][column])) / 99.0


def share(rows, prefix, column, before_column):
    """The cost of a filter as a share of the 1-filter "before" packet, in %."""
    one = float(rows[prefix + "-f1"][before_column])
    return 100.0 * (one / float(rows[prefix + "-f100"][column])
                    - one / float(rows[prefix + "-f1"][column])) / 99.0


def shares(rows, prefix):
    """'rec B / A %, sim B / A %' and, with clone rows, '; clone rec B / A %'."""
    def pair(p, base):
        return "%.2f / %.2f %%" % (share(rows, p, base + "baseline", base + "baseline"),
                                   share(rows, p, base + "patched", base + "baseline"))
    text = "rec %s, sim %s" % (pair(prefix, "recorded_"), pair(prefix, "simulated_"))
    clone = prefix + "-clone"
    if clone + "-f1" in rows and clone + "-f100" in rows:
        text += "; clone rec %s" % pair(clone, "recorded_")
    return text


def main(argv):
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)   # quiet when piped into head
    sets, clocks = parse_args(argv)
    print("%-8s %5s %6s | %-22s | %-22s | %s" % ("cpu", "GHz", "path", "before rec  sim  err",
                                                  "after rec  sim  err",
                                                  "share of the 1-filter packet, before / after"))
    for cpu, c in gen.CPUS.items():
        ghz = clocks[cpu] if cpu in clocks else gen.profile_clock(c["profile"])
        extra = sets + (["param.cpu.freq_ghz=%g" % ghz] if cpu in clocks else [])
        rows = validate_rows(cpu, c["profile"], extra)
        prefix = next((r[:-len("-f100")] for r in rows if r.endswith("-f100")
                       and "-clone-" not in r), None)
        if prefix is None or prefix + "-f1" not in rows:
            die("no 1- and 100-filter rows of profile %s" % c["profile"])
        hz = ghz * 1e9
        cells = []
        for rec, sim in (("recorded_baseline", "simulated_baseline"),
                         ("recorded_patched", "simulated_patched")):
            r, s = walk(rows, prefix, rec, hz), walk(rows, prefix, sim, hz)
            cells.append("%6.1f %6.1f %+5.1f%%" % (r, s, 100.0 * (s / r - 1.0)))
        path = hz / float(rows[prefix + "-f1"]["recorded_baseline"])
        print("%-8s %5.2f %6.0f | %s | %s | share %s" % (cpu, ghz, path, cells[0], cells[1],
                                                       shares(rows, prefix)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
