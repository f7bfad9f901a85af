#!/bin/sh
# test-text-sizes.sh — every declared text size has its source: each kernel function the
# models declare (NS_FUNC under models/, .c and .h, less models/micro's synthetic functions,
# the user-space "iperf3:" ones and tc_wrapper.c's TC_FN_STUB compare-chain stubs, 0 bytes
# by design and never run) carries the Debian 6.1.176 binary's size as
# tools/prologue-census --sizes lists it (doc/census/text-sizes-6.1.176.txt), or is named
# once in doc/census/text-sizes-kept.txt with its declared bytes and their source. A kept
# line must match its declaration and must not repeat the binary's size (a stale
# exception). Every NS_FUNC must be written in the one form the tools parse (a string
# literal name, a decimal size), and every function of the listing must be declared, so a
# declaration the parse misses fails instead of dropping out.
# The binary itself is not needed. Needs python3; skipped without it.
set -u
DATA=${NETSIM_DATADIR:-.}

if ! command -v python3 >/dev/null 2>&1; then
  echo "SKIP: python3 not installed (tools/debian-packages installs it)"
  exit 77
fi

python3 - "$DATA" <<'PY'
import os, re, sys

data = sys.argv[1]
token_re = re.compile(r'\bNS_FUNC\s*\(')
func_re = re.compile(r'\bNS_FUNC \(\s*[A-Za-z0-9_#]+,\s*"([^"]+)",\s*([0-9]+),\s*[A-Z_| ]+,\s*[0-9]+\)')
stub_re = re.compile(r'^TC_FN_STUB \(', re.M)
stub_macro = "static NS_FUNC (fn_##var, sym, 0, NS_FN_STATIC | NS_FN_INDIRECT, 0);"
declared, micro, failures = {}, set(), []
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
                            '\'NS_FUNC (var, "name", BYTES, attrs, sites)\' the tools read')
        for sym, size in found:
            if in_micro:
                micro.add(sym)
                continue
            if sym.startswith("iperf3:"):
                continue
            if sym in declared:
                failures.append(f"{sym} declared twice ({declared[sym][1]}, {path})")
            declared[sym] = (int(size), path)
for sym in sorted(micro & set(declared)):
    failures.append(f"{sym}: declared in models/micro and as a kernel function")

binary = {}
with open(os.path.join(data, "doc/census/text-sizes-6.1.176.txt"), encoding="utf-8") as f:
    for line in f:
        m = re.match(r"\s*(\d+)\s+(\d+)\s+(\S+)$", line)
        if m:
            binary[m.group(3)] = int(m.group(1))

kept = {}
with open(os.path.join(data, "doc/census/text-sizes-kept.txt"), encoding="utf-8") as f:
    for n, line in enumerate(f, 1):
        if not line.strip() or line.startswith("#"):
            continue
        m = re.match(r"(\S+) (\d+) (\S.*)$", line)
        if not m:
            failures.append(f"text-sizes-kept.txt:{n}: not 'symbol bytes source'")
        elif m.group(1) in kept:
            failures.append(f"text-sizes-kept.txt:{n}: {m.group(1)} again (line "
                            f"{kept[m.group(1)][1]})")
        else:
            kept[m.group(1)] = (int(m.group(2)), n)

if len(binary) < 300 or len(declared) < 300:
    failures.append(f"only {len(binary)} listed sizes and {len(declared)} declarations read")
for sym in sorted(set(binary) - set(declared)):
    failures.append(f"{sym} is in the binary's listing but declared nowhere in models/ "
                    "(renamed, removed, or written in a form the tools do not read)")
for sym, (size, path) in sorted(declared.items()):
    if sym in kept:
        want, n = kept[sym]
        if size != want:
            failures.append(f"{path}: {sym} declares {size} B, text-sizes-kept.txt:{n} {want} B")
        elif binary.get(sym) == size:
            failures.append(f"text-sizes-kept.txt:{n}: {sym} is the binary's {size} B: "
                            "take the line out")
    elif sym not in binary:
        failures.append(f"{path}: {sym} ({size} B) is not in the binary's listing and has "
                        "no line in text-sizes-kept.txt")
    elif size != binary[sym]:
        failures.append(f"{path}: {sym} declares {size} B, the 6.1.176 binary {binary[sym]} B")
for sym, (_, n) in sorted(kept.items()):
    if sym not in declared:
        failures.append(f"text-sizes-kept.txt:{n}: {sym} is not declared in models/")
for f in failures:
    print("FAIL:", f)
print(f"test-text-sizes: {len(declared)} declarations, {len(kept)} kept: "
      f"{'ok' if not failures else str(len(failures)) + ' failed'}")
sys.exit(1 if failures else 0)
PY
