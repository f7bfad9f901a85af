#!/bin/sh
# test-text-sizes.sh — every declared text size and frame has its source: each kernel
# function the models declare (NS_FUNC under models/, .c and .h, less models/micro's
# synthetic functions, the user-space "iperf3:" ones and tc_wrapper.c's TC_FN_STUB
# compare-chain stubs, 0 bytes by design and never run) carries the Debian 6.1.176
# binary's size as tools/prologue-census --sizes lists it
# (doc/census/text-sizes-6.1.176.txt), or is named once in doc/census/text-sizes-kept.txt
# with its declared bytes and their source; and likewise the binary's frame (prologue +
# epilogue instructions) as tools/prologue-census --prologues lists it
# (doc/census/prologues-6.1.176.txt), or doc/census/prologues-kept.txt's count or
# "unknown" (NS_FRAME_UNKNOWN); and each ns_call_shrink_wrapped site to
# doc/census/frameless-6.1.176.txt (its function has a path that runs none of its frame,
# and the site's count is that path's). A kept line must match its declaration and must
# not repeat the binary's figure (a stale exception); the user-space iperf3: functions
# must be NS_FRAME_UNKNOWN (models/micro's synthetic functions state their own, with the
# source). Every NS_FUNC must be written in the one form the tools parse (a string
# literal name, a decimal size), and every function of the listing must be declared, so a
# declaration the parse misses fails instead of dropping out.
# The binary itself is not needed. Needs python3; skipped without it.
set -u
DATA=${NETSIM_DATADIR:-.}

# shellcheck source=tests/lib.sh
. "$DATA/tests/lib.sh"
require_python3

python3 - "$DATA" <<'PY'
import os, re, sys

data = sys.argv[1]
token_re = re.compile(r'\bNS_FUNC\s*\(')
func_re = re.compile(r'\bNS_FUNC \(\s*([A-Za-z0-9_#]+),\s*"([^"]+)",\s*([0-9]+),\s*'
                     r'([0-9]+|NS_FRAME_UNKNOWN),\s*[A-Z_| ]+,\s*[0-9]+\)')
stub_re = re.compile(r'^TC_FN_STUB \(', re.M)
stub_macro = "static NS_FUNC (fn_##var, sym, 0, NS_FRAME_UNKNOWN, NS_FN_STATIC | NS_FN_INDIRECT, 0);"
site_re = re.compile(r'\bns_call_shrink_wrapped \(\s*\w+,\s*&(\w+),\s*(\d+)\)')
declared, frames, micro, failures = {}, {}, set(), []
symbol_of, sites = {}, []          # NS_FUNC variable → symbol; ns_call_shrink_wrapped sites
for base, _, files in os.walk(os.path.join(data, "models")):
    in_micro = os.path.relpath(base, data).startswith(os.path.join("models", "micro"))
    for name in sorted(files):
        if not name.endswith((".c", ".h")):
            continue
        path = os.path.relpath(os.path.join(base, name), data)
        with open(os.path.join(base, name), encoding="utf-8") as src:
            text = src.read()
        found = func_re.findall(text)
        tokens = len(token_re.findall(text))
        if stub_macro in text:
            tokens -= 1                      # the TC_FN_STUB macro's own body
            if not stub_re.search(text):
                failures.append(f"{path}: TC_FN_STUB defined but never used")
        if tokens != len(found):
            failures.append(f"{path}: {tokens} NS_FUNC declarations, {len(found)} in the form "
                            '\'NS_FUNC (var, "name", BYTES, FRAME, attrs, sites)\' the '
                            'tools read')
        sites += [(path, var, int(n)) for var, n in site_re.findall(text)]
        for var, sym, size, frame in found:
            symbol_of[var] = sym
            if sym.startswith("iperf3:") and frame != "NS_FRAME_UNKNOWN":
                failures.append(f"{path}: {sym} is no kernel binary's, but declares "
                                f"frame {frame}, not NS_FRAME_UNKNOWN")
            if in_micro or sym.startswith("iperf3:"):
                if in_micro:
                    micro.add(sym)     # synthetic: its own source gives its frame
                continue
            frames[sym] = frame
            if sym in declared:
                failures.append(f"{sym} declared twice ({declared[sym][1]}, {path})")
            declared[sym] = (int(size), path)
for sym in sorted(micro & set(declared)):
    failures.append(f"{sym}: declared in models/micro and as a kernel function")


def read_listing(name, pattern):
    """Symbol → value (text) of each line of doc/census/name that pattern matches (its
    groups: the value, the symbol)."""
    listed = {}
    with open(os.path.join(data, "doc/census", name), encoding="utf-8") as f:
        for line in f:
            m = re.match(pattern, line)
            if m:
                listed[m.group(2)] = m.group(1)
    return listed


def read_kept(name, value):
    """Symbol → (declared value, line) of doc/census/name's 'symbol VALUE source' lines
    (value: the VALUE pattern; "unknown" reads as NS_FRAME_UNKNOWN)."""
    lines = {}
    with open(os.path.join(data, "doc/census", name), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            m = re.match(r"(\S+) (" + value + r") (\S.*)$", line)
            if not m:
                failures.append(f"{name}:{n}: not 'symbol {value} source'")
            elif m.group(1) in lines:
                failures.append(f"{name}:{n}: {m.group(1)} again (line {lines[m.group(1)][1]})")
            else:
                got = "NS_FRAME_UNKNOWN" if m.group(2) == "unknown" else m.group(2)
                lines[m.group(1)] = (got, n)
    return lines


def check(what, values, listing, kept, kept_value):
    """Holds each declared value (symbol → value text) to the listing, or to its kept
    line; what names the figure ("size"), listing and kept the files' names, kept_value
    the pattern of a kept line's value."""
    binary = read_listing(listing, r"\s*(\d+)\s+(?:\d+\s+)?(\S+)$")
    exceptions = read_kept(kept, kept_value)
    if len(binary) < 300 or len(values) < 300:
        failures.append(f"only {len(binary)} listed {what}s and {len(values)} declarations read")
    for sym in sorted(set(binary) - set(values)):
        failures.append(f"{sym} is in {listing} but declared nowhere in models/ "
                        "(renamed, removed, or written in a form the tools do not read)")
    for sym, value in sorted(values.items()):
        path = declared[sym][1]
        if sym in exceptions:
            want, n = exceptions[sym]
            if value != want:
                failures.append(f"{path}: {sym} declares {what} {value}, {kept}:{n} {want}")
            elif binary.get(sym) == value:
                failures.append(f"{kept}:{n}: {sym} is the binary's {what} {value}: "
                                "take the line out")
            elif value == "NS_FRAME_UNKNOWN" and sym in binary:
                failures.append(f"{kept}:{n}: {sym} is unknown, but the binary's {what} is "
                                f"{binary[sym]}")
        elif sym not in binary:
            failures.append(f"{path}: {sym} ({what} {value}) is not in {listing} and has "
                            f"no line in {kept}")
        elif value != binary[sym]:
            failures.append(f"{path}: {sym} declares {what} {value}, the 6.1.176 binary "
                            f"{binary[sym]}")
    for sym, (_, n) in sorted(exceptions.items()):
        if sym not in values:
            failures.append(f"{kept}:{n}: {sym} is not declared in models/")
    return len(exceptions)


kept_sizes = check("size", {sym: str(size) for sym, (size, _) in declared.items()},
                   "text-sizes-6.1.176.txt", "text-sizes-kept.txt", r"\d+")
kept_frames = check("frame", frames, "prologues-6.1.176.txt", "prologues-kept.txt",
                    r"\d+|unknown")


def check_shrink_wrapped():
    """Holds each ns_call_shrink_wrapped (t, &VAR, N) in models/ to
    doc/census/frameless-6.1.176.txt: VAR's function must have a path that runs none of
    its frame, and N must be what that path runs (the entry's count); returns the sites."""
    listed = {sym: (int(entry), frame) for sym, (entry, frame) in
              ((sym, value.split()) for sym, value in
               read_listing("frameless-6.1.176.txt", r"\s*(\d+\s+\d+)\s+(\S+)$").items())}
    for path, var, n in sites:
        sym = symbol_of.get(var)
        if sym is None:
            failures.append(f"{path}: ns_call_shrink_wrapped of {var}, declared nowhere")
        elif sym not in listed:
            failures.append(f"{path}: {sym} has no path that leaves before its frame "
                            "(frameless-6.1.176.txt): call it with ns_call")
        elif n != listed[sym][0]:
            failures.append(f"{path}: {sym}'s early path runs {listed[sym][0]} frame "
                            f"instructions, the call site says {n}")
        elif frames.get(sym) != listed[sym][1]:
            failures.append(f"{path}: {sym} declares frame {frames.get(sym)}, "
                            f"frameless-6.1.176.txt {listed[sym][1]}")
    return len(sites)


shrink_wrapped = check_shrink_wrapped()
for f in failures:
    print("FAIL:", f)
print(f"test-text-sizes: {len(declared)} declarations, {kept_sizes} sizes and "
      f"{kept_frames} frames kept, {shrink_wrapped} shrink-wrapped call sites: "
      f"{'ok' if not failures else str(len(failures)) + ' failed'}")
sys.exit(1 if failures else 0)
PY
