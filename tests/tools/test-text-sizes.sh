#!/bin/sh
# test-text-sizes.sh — every declared text size has its source: each kernel function the
# models declare (NS_FUNC under models/, less models/micro's synthetic functions and the
# user-space "iperf3:" ones) carries the Debian 6.1.176 binary's size as
# tools/prologue-census --sizes lists it (doc/census/text-sizes-6.1.176.txt), or is named in
# doc/census/text-sizes-kept.txt with its declared bytes and their source. A kept line must
# match its declaration and must not repeat the binary's size (a stale exception).
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
func_re = re.compile(r'NS_FUNC \(\s*[A-Za-z0-9_]+,\s*"([^"]+)",\s*([0-9]+)')
declared, failures = {}, []
for base, _, files in os.walk(os.path.join(data, "models")):
    if os.path.relpath(base, data).startswith(os.path.join("models", "micro")):
        continue
    for name in sorted(files):
        if not name.endswith(".c"):
            continue
        path = os.path.relpath(os.path.join(base, name), data)
        with open(os.path.join(base, name), encoding="utf-8") as src:
            for sym, size in func_re.findall(src.read()):
                if sym.startswith("iperf3:"):
                    continue
                if sym in declared:
                    failures.append(f"{sym} declared twice ({declared[sym][1]}, {path})")
                declared[sym] = (int(size), path)

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
            continue
        kept[m.group(1)] = (int(m.group(2)), n)

if len(binary) < 300 or len(declared) < 300:
    failures.append(f"only {len(binary)} listed sizes and {len(declared)} declarations read")
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
