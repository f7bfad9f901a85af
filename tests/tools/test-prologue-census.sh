#!/bin/sh
# test-prologue-census.sh — tools/prologue-census counts a function's frame (prologue and
# epilogue instructions) as the binary runs it, on objdump lines written here after the
# forms GCC 12 emits in Debian's 6.1.176 kernel: a shrink-wrapped push after the first
# branch, a stack realigned through a DRAP register (udp_sendmsg) and through %rbp
# (__dev_queue_xmit), a stack adjustment written as add of a negative, a local's address
# taken with lea (not DRAP), endbr64, a module's relocated ftrace call and a GCC .part
# split; and which functions have a path that leaves before the frame (--frameless). The
# binary itself is not needed. Needs python3; skipped without it.
set -u
DATA=${NETSIM_DATADIR:-.}

# shellcheck source=tests/lib.sh
. "$DATA/tests/lib.sh"
require_python3

python3 - "$DATA/tools/prologue-census" <<'PY'
import importlib.machinery, importlib.util, sys

loader = importlib.machinery.SourceFileLoader("census", sys.argv[1])
spec = importlib.util.spec_from_loader("census", loader)
census = importlib.util.module_from_spec(spec)
loader.exec_module(census)

FENTRY = "call   ffffffff8106b640 <__fentry__>"
RET = "jmp    ffffffff81c04420 <__x86_return_thunk>"
cases = {
    # the push comes after a test: the frame is read over the whole body
    "shrink-wrapped": ([FENTRY, "test   %rdi,%rdi", "je     ffffffff81a0d900 <x+0x30>",
                        "push   %rbx", "call   ffffffff81a0a000 <y>", "pop    %rbx", RET], 3),
    # fentry, DRAP (lea, and, push mem; push/pop %r10; lea back), 6 saved, mov, sub/add
    "drap": ([FENTRY, "lea    0x8(%rsp),%r10", "and    $0xfffffffffffffff0,%rsp",
              "push   -0x8(%r10)", "push   %rbp", "mov    %rsp,%rbp", "push   %r15",
              "push   %r14", "push   %r13", "push   %r12", "push   %r10", "push   %rbx",
              "sub    $0x140,%rsp", "add    $0x140,%rsp", "pop    %rbx", "pop    %r10",
              "pop    %r12", "pop    %r13", "pop    %r14", "pop    %r15", "pop    %rbp",
              "lea    -0x8(%r10),%rsp", RET], 22),
    # realigned through %rbp: the and once, the frame pointer's lea restores %rsp
    "rbp-align": ([FENTRY, "push   %rbp", "mov    %rsp,%rbp", "push   %r15", "push   %r14",
                   "push   %r13", "push   %r12", "push   %rbx",
                   "and    $0xffffffffffffffc0,%rsp", "sub    $0x80,%rsp",
                   "lea    -0x28(%rbp),%rsp", "pop    %rbx", "pop    %r12", "pop    %r13",
                   "pop    %r14", "pop    %r15", "pop    %rbp", RET], 17),
    # sub 128 is written add $-128
    "add-negative": ([FENTRY, "push   %rbx", "add    $0xffffffffffffff80,%rsp",
                      "sub    $0xffffffffffffff80,%rsp", "pop    %rbx", RET], 5),
    # a local's address in %rdi is no DRAP; pushing an argument register saves nothing
    "lea-local": ([FENTRY, "push   %rbx", "sub    $0x20,%rsp", "lea    0x8(%rsp),%rdi",
                   "push   %rax", "add    $0x20,%rsp", "pop    %rbx", RET], 5),
    "endbr64": (["endbr64", FENTRY, "push   %rbx", "pop    %rbx", RET], 4),
    "module-fentry": (["call   5 <f+0x5> R_X86_64_PLT32 __fentry__-0x4", "ret"], 1),
    "notrace-leaf": (["mov    %rdi,%rax", "ret"], 0),
}
failures = []
for name, (insns, want) in cases.items():
    got = census.overhead(insns)
    if got != want:
        failures.append(f"{name}: {got} instructions, want {want}")
split = census.frames({"f": [FENTRY, "jmp    ffffffff8109c7b0 <f.part.0>"],
                       "f.part": [FENTRY, "push   %rbx", "pop    %rbx", RET]})
if split != {"f": 4}:
    failures.append(f".part split: {split}, want {{'f': 4}}")
# --frameless: a path from the entry to a return or a tail jump that pushes nothing
# (fput's reference that is not the last; __netif_receive_skb's tail jmp), against one
# whose every path sets up the frame first (a test that only picks which frame)
frameless = {
    "early-return": (["x", [FENTRY, "lock decq 0x38(%rdi)", "je     ffffffff81a0d911 <x+0x11>",
                            RET, "push   %rbx", "call   ffffffff81a0a000 <y>", "pop    %rbx", RET],
                      [0x0, 0x5, 0xa, 0xc, 0x11, 0x12, 0x17, 0x18]], True),
    "tail-jump": (["x", [FENTRY, "xchg   %ax,%ax", "xor    %esi,%esi",
                         "jmp    ffffffff817a9d40 <z>", "push   %rbp", "pop    %rbp", RET],
                   [0x0, 0x5, 0x7, 0x9, 0xe, 0xf, 0x10]], True),
    "branch-to-return": (["x", [FENTRY, "test   %rdi,%rdi", "je     ffffffff81a0d920 <x+0x20>",
                                "push   %rbx", "pop    %rbx", RET, "xor    %eax,%eax", RET],
                          [0x0, 0x5, 0x8, 0xa, 0xb, 0xc, 0x20, 0x22]], True),
    "framed-both-ways": (["x", [FENTRY, "test   %rdi,%rdi", "je     ffffffff81a0d920 <x+0x20>",
                                "push   %rbx", "pop    %rbx", RET, "push   %rbp",
                                "jmp    ffffffff81a0d910 <x+0x10>"],
                          [0x0, 0x5, 0x8, 0xa, 0xb, 0xc, 0x20, 0x21]], False),
    "loop-then-frame": (["x", [FENTRY, "dec    %rdi", "jne    ffffffff81a0d905 <x+0x5>",
                               "sub    $0x20,%rsp", "add    $0x20,%rsp", RET],
                         [0x0, 0x5, 0x8, 0xa, 0xe, 0x12]], False),
}
for name, ((symbol, insns, offsets), want) in frameless.items():
    got = census.frameless_exit(symbol, insns, offsets)
    if got != want:
        failures.append(f"frameless {name}: {got}, want {want}")
if census.entry_overhead(["endbr64", FENTRY, "push   %rbx"]) != 2:
    failures.append("entry_overhead: endbr64 and the ftrace site are 2")
for f in failures:
    print("FAIL:", f)
print(f"test-prologue-census: {len(cases) + len(frameless) + 2} cases: "
      f"{'ok' if not failures else str(len(failures)) + ' failed'}")
sys.exit(1 if failures else 0)
PY
