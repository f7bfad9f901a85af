/* machine-params.c — declaration of every machine cost parameter (name, type, unit,
 * default, meaning, provenance). CPU profiles override the defaults with sourced values.
 *
 * Default sources: "ref:" points into ../shared/reference/cpu-params.md (the project's
 * compiled reference; its tags name the primary sources). Defaults marked "unsourced" are
 * physically reasoned placeholders (cpu-params.md §5). A profile replaces one with a
 * sourced value, a host measurement or a named fit where the profile's paths are
 * sensitive to it; one it keeps stays marked "unsourced" in every output, and netsim
 * validate lists those in force (doc/cpu-profiles.md, doc/validation.md). */
#include "config.h"
#include "param.h"

#define UNB 1.0, 0.0   /* unbounded range */

/* The values of cache.policy, in NsCachePolicy order (machine.c's read_caches maps by index). */
static const char *const cache_policies[] = { "lru", "plru", NULL };
/* The values of mem.page_frames (machine.c's read_caches maps by index: random first). */
static const char *const page_frames[] = { "random", "contiguous", NULL };

static const NsParamDef machine_params[] = {
  /* ---- core and topology ---- */
  { "cpu.freq_ghz", NS_PARAM_DOUBLE, "GHz", "3.0",
    "core clock while running the measured kernel code (sustained all-core boost)",
    "unsourced generic default", FALSE, 0.1, 10.0, NULL },
  { "cpu.sockets", NS_PARAM_INT, "", "1", "number of CPU sockets (NUMA packages)",
    "generic default", FALSE, 1, 8, NULL },
  { "cpu.ccx_per_socket", NS_PARAM_INT, "", "1",
    "L3 domains per socket (AMD CCX/CCD; 1 for a monolithic Intel ring or mesh)",
    "generic default", FALSE, 1, 64, NULL },
  { "cpu.cores_per_ccx", NS_PARAM_INT, "", "4", "physical cores per L3 domain",
    "generic default", FALSE, 1, 256, NULL },
  { "cpu.smt", NS_PARAM_INT, "threads/core", "2", "hardware threads per core (1 or 2)",
    "generic default", FALSE, 1, 2, NULL },
  { "cpu.ipc", NS_PARAM_DOUBLE, "instructions/cycle", "1.5",
    "sustained IPC of kernel networking code, excluding the stalls and control-flow "
    "penalties the model charges separately",
    "unsourced: typical kernel IPC 1-2 (cpu-params.md §5); fit per profile on a named "
    "calibration row", TRUE, 0.1, 8.0, NULL },
  { "cpu.mlp", NS_PARAM_DOUBLE, "misses", "2.0",
    "store misses (read-for-ownership and transfers of lines another core holds) in "
    "flight at once: a store's miss served by a cache level costs its latency beyond L1 "
    "over this, a transfer from another core its transfer beyond an L1 hit (the c2c "
    "value less lock.atomic_cycles) over this. Loads "
    "overlap by cpu.rob_entries instead",
    "unsourced reasoned default (out-of-order cores overlap 2+ independent misses); the "
    "range's top is a store buffer's size (48-114 entries on current cores): netsim "
    "calibrate --host measures it (stores into lines another core holds)",
    FALSE, 1.0, 128.0, NULL },
  { "prefetch.l1_stride", NS_PARAM_BOOL, "", "true",
    "L1D IP-based stride prefetcher: a load site (ns_load_site) that saw the same non-zero "
    "stride twice in a row has the line one stride ahead brought in without a stall",
    "Intel Optimization Reference Manual, 'Data Prefetch to the L1 Data Cache': IP-based "
    "stride prefetcher (every Intel core since Core 2); AMD SOG 17h/19h, 'L1 stride "
    "prefetcher: uses memory access history of individual instructions'", FALSE, 0, 1, NULL },
  { "prefetch.l1_stride_in_page", NS_PARAM_BOOL, "", "true",
    "the L1D stride prefetcher fetches only a line in the same 4 KiB page as the load "
    "that triggered it (a stride across a page boundary is still learned and kept: the "
    "next load in the new page prefetches); false lets it cross, to the next page's "
    "simulated address (a what-if: a prefetcher working on physical addresses cannot know "
    "the next page's frame)",
    "Intel Optimization Reference Manual, 'Data Prefetch to the L1 Data Cache' (read in "
    "public copies): 'the prefetched data is within the same 4K byte page as the load "
    "instruction that triggered it'. AMD states no rule; AMD's patent US 10671535 B2 "
    "(Kalamatianos et al., 'Stride prefetching across memory pages'), abstract and first "
    "claim: the prefetch confidence is kept when a prefetch would cross the page boundary "
    "and the stride matched again in the next page, which implies the crossing prefetch "
    "is not issued (full description not read); modelled so on AMD cores too, "
    "unconfirmed for any shipping Zen", FALSE, 0, 1, NULL },
  { "cpu.rob_entries", NS_PARAM_INT, "instructions", "224",
    "reorder-buffer entries: an independent load miss issued within this many "
    "instructions of the first miss of an overlap window overlaps it (costs only what it "
    "lasts longer); any other load miss waits its latency beyond L1 and opens a window. A "
    "generic retpoline, whose ret waits for the loads that produce its target, an lfence "
    "retpoline's LFENCE, an SRSO Safe RET return, a mispredict, a system call's entry and "
    "exit, a locked instruction and a wait close the window. Also the front end's lead: "
    "on a predicted "
    "path it fetches ahead by the back-end work done since the last redirect, at most "
    "this many instructions at cpu.ipc, and that lead hides text-line misses; a "
    "mispredict, a forced one (generic retpoline, SRSO Safe RET), a system call or a wait "
    "empties it",
    "generic default: Skylake's 224 ([M6] LLVM X86SchedSkylakeClient.td "
    "MicroOpBufferSize); profiles cite their core", FALSE, 16, 4096, NULL },
  { "cpu.issue_width", NS_PARAM_DOUBLE, "instructions/cycle", "4",
    "instructions per cycle the core sustains on independent, well-predicted work (its "
    "dispatch width): the rate of call/return/prologue overhead and of compare chains "
    "that sit off the critical path",
    "generic default: 4-wide dispatch (Intel Sandy Bridge to Skylake); profiles cite the "
    "vendor guide of their core", FALSE, 1, 16, NULL },
  { "branch.resolve_cycles", NS_PARAM_DOUBLE, "cycles", "22.0",
    "cycles a forced mispredict waits for its target to come from memory before the "
    "refill can start (the ret of a retpoline thunk or of SRSO Safe RET reads its target "
    "from the stack behind the in-flight work); added to branch.mispredict_cycles",
    "D from [M22] (cpu-params.md §4): a loop calling an empty function through the "
    "retpoline thunk took 40 cycles an iteration on Skylake, through a plain indirect jump "
    "2 (the call, return and loop the model charges as a call); the retpoline's 38 more = "
    "14 mispredict + 3 thunk instructions / ~1.5 IPC + ~22.0 waiting for the target (20.7 "
    "while icall.retpoline_insns counted 5, until 2026-12-03; 23 until 2026-12-02, which "
    "read the 40 as the retpoline's extra alone)",
    FALSE, 0, 200, NULL },
  { "branch.mispredict_cycles", NS_PARAM_DOUBLE, "cycles", "15",
    "conditional/indirect branch mispredict penalty",
    "unsourced generic default; profiles cite LLVM scheduling models (ref: [M6])",
    FALSE, 1, 100, NULL },

  /* ---- caches ---- */
  { "cache.line_bytes", NS_PARAM_INT, "bytes", "64", "cache line size",
    "ref: cpu-params.md §2 (x86-64, [K2])", FALSE, 64, 64, NULL },
  { "cache.policy", NS_PARAM_STRING, "", "lru",
    "replacement policy of every cache level: lru or plru (tree pseudo-LRU)",
    "unsourced stated choice: true LRU; no profile's replacement policy is sourced (the "
    "cores' L1/L2 use pseudo-LRU variants that vendors do not document)", FALSE, UNB,
    cache_policies },
  { "cache.l1d.size_kib", NS_PARAM_INT, "KiB", "32", "L1 data cache size per core",
    "generic default", FALSE, 1, 4096, NULL },
  { "cache.l1d.assoc", NS_PARAM_INT, "ways", "8", "L1 data cache associativity",
    "generic default", FALSE, 1, 64, NULL },
  { "cache.l1d.latency_cycles", NS_PARAM_DOUBLE, "cycles", "4", "L1D load-to-use latency",
    "generic default (4-5 on all listed cores, ref: cpu-params.md §3)", FALSE, 1, 50, NULL },
  { "cache.l1i.size_kib", NS_PARAM_INT, "KiB", "32", "L1 instruction cache size per core",
    "generic default", FALSE, 1, 4096, NULL },
  { "cache.l1i.assoc", NS_PARAM_INT, "ways", "8", "L1 instruction cache associativity",
    "generic default", FALSE, 1, 64, NULL },
  { "cache.l2.size_kib", NS_PARAM_INT, "KiB", "512", "private L2 size per core",
    "generic default", FALSE, 16, 65536, NULL },
  { "cache.l2.assoc", NS_PARAM_INT, "ways", "8", "L2 associativity",
    "generic default", FALSE, 1, 64, NULL },
  { "cache.l2.sees_l1_hits", NS_PARAM_BOOL, "", "false",
    "an L1 hit also makes the line most recently used in the core's L2 (true); false: the "
    "L2 sees only the L1s' misses, so a line hot in an L1 ages in the L2, and the L2's "
    "eviction of it takes it out of the L1 too, the L2 being inclusive (an inclusion victim)",
    "unsourced stated choice: an L1 hit is served by the L1 alone, and no profile's vendor "
    "documents a recency hint from the L1s to the L2. The inclusion is CPUID's: "
    "Fn8000_001D subleaf 2 (L2) EDX bit 1 (CacheInclusive) = 1 on an EPYC 7713 (InstLatx64 "
    "AuthenticAMD0A00F11_K19_Milan_CPUID1.txt) and on the Zen 4 host (2026-12-06)",
    FALSE, UNB, NULL },
  { "cache.l2.latency_cycles", NS_PARAM_DOUBLE, "cycles", "12", "L2 load-to-use latency",
    "unsourced generic default (cpu-params.md §5)", FALSE, 2, 100, NULL },
  { "cache.l3.size_kib", NS_PARAM_INT, "KiB", "8192", "L3 size per L3 domain (CCX or socket)",
    "generic default", FALSE, 0, 1048576, NULL },
  { "cache.l3.assoc", NS_PARAM_INT, "ways", "16", "L3 associativity",
    "generic default", FALSE, 1, 64, NULL },
  { "cache.l3.latency_cycles", NS_PARAM_DOUBLE, "cycles", "40", "L3 load-to-use latency",
    "unsourced generic default (cpu-params.md §5)", FALSE, 5, 400, NULL },
  { "cache.l3.inclusive", NS_PARAM_BOOL, "", "false",
    "L3 inclusive of the private caches (true) or a non-inclusive victim cache (false)",
    "generic default", FALSE, UNB, NULL },
  { "mem.page_frames", NS_PARAM_STRING, "", "random",
    "where the pages of simulated memory sit in physical memory, which sets the L2 and L3 "
    "sets their lines map to: random (each 4 KiB page at a frame drawn from the run's seed, "
    "a new draw each repetition) or contiguous (simulated addresses taken as physical)",
    "K: Linux does not colour pages: the page allocator hands out a page from a per-CPU "
    "list or a buddy free list whatever virtual address it will have (mm/page_alloc.c), so "
    "the slabs, skb heads and user buffers of a run sit on colours unrelated to their "
    "neighbours'; the kernel image, whose text the model places apart from this memory, is "
    "loaded in one piece and keeps its layout. Stated simplification: every page is drawn "
    "alone, where an order-n block's 2^n pages are contiguous", FALSE, UNB, page_frames },
  { "mem.dram_latency_ns", NS_PARAM_DOUBLE, "ns", "80", "load-to-use latency from DRAM",
    "unsourced generic default (cpu-params.md §5)", FALSE, 10, 1000, NULL },
  { "mem.bw_l1_bytes_per_cycle", NS_PARAM_DOUBLE, "bytes/cycle", "32",
    "copy bandwidth when source and destination are in L1 (one core)",
    "unsourced: one 32-byte load + store per cycle on AVX2 cores", FALSE, 1, 256, NULL },
  { "mem.bw_l2_bytes_per_cycle", NS_PARAM_DOUBLE, "bytes/cycle", "16",
    "copy bandwidth from L2 (one core)", "unsourced generic default", FALSE, 0.5, 256, NULL },
  { "mem.bw_l3_bytes_per_cycle", NS_PARAM_DOUBLE, "bytes/cycle", "8",
    "copy bandwidth from L3 (one core)", "unsourced generic default", FALSE, 0.25, 256, NULL },
  { "ifetch.seq_mlp", NS_PARAM_DOUBLE, "lines", "30",
    "text lines the front end keeps in flight while it runs through a function: a call's "
    "first line that misses L1I waits (latency - L1D latency) in full (the call target is "
    "known only when the call is predicted), each following missed line of the function "
    "(latency - L1D latency) / this; the front end's lead (cpu.rob_entries) covers what "
    "it can of each wait",
    "host measurement (netsim calibrate --host on a Zen 3 Milan EPYC KVM guest, "
    "2026-11-30, four runs): straight-line code (4-byte NOPs) over a 2 MiB L3 working set "
    "ran 1.30, 1.47, 1.57 and (a disturbed run) 7.25 cycles per 64-byte line more than "
    "from L1I, the L3 latency 46 cycles beyond L1D: 36, 31, 29, 6 lines; the median 30. "
    "From L2 a following line costs 0.1 cycles more, a call to a one-line function in "
    "random order 11.2-11.9 (the first line, in full). Other cores: not measured",
    FALSE, 1, 128, NULL },
  { "ifetch.text_bytes_per_insn", NS_PARAM_DOUBLE, "bytes/instruction", "6.06",
    "bytes of a kernel function's text the front end runs through per instruction the "
    "function executes: a call fetches its entry line and as far as its own prologue, "
    "epilogue and ret run (its frame + 1 instructions), and n instructions of its "
    "body then fetch the lines up to n times this further, up to the function's end, in "
    "which the call sites and return sites lie (cold blocks the branches "
    "skip are not fetched unless the run reaches past them); 0 fetches a called function's "
    "whole text at entry (the rule before 2026-12-05). Functions marked straight-line "
    "(micro-benchmarks) are always fetched whole",
    "B: fit on the instruction census's executed ranges (tools/text-census; its run: "
    "doc/census/text-census.txt) on "
    "Debian 12's 6.1.0-50-cloud-amd64 vmlinux (GCC 12, 2026-12-05): 137 listed calls of "
    "the modelled functions run 9126 instructions (3.98 bytes each) over 910 of their "
    "1789 64-byte lines; 1 + floor(n * b / 64) lines a call, capped at the function's, "
    "totals 909 at b = 6.06 (6.06-6.08 tie; per document 4.75-6.45; the lines touched "
    "per instruction, 64 * 910 / 9126, are 6.38 bytes). n counts a listed function's own "
    "instructions, its prologue and epilogue included, a loop's body once; the machine "
    "counted call.prologue_insns + ret in place of the real prologue and epilogue (about 5 "
    "fewer a call on seed 000's once-a-datagram functions) until each function's frame "
    "became the binary's (2026-12-05, night), and counts a loop's body on every pass; "
    "before the frames it fetched ~6 % fewer lines there than the binary touches (a "
    "review, 2026-12-05: b fitted on the machine's own counts would then have been about "
    "6.5, +0.09 % on seed 000's ipv4 1G baseline)", FALSE, 0, 64, NULL },
  { "mem.copy_mlp", NS_PARAM_DOUBLE, "lines", "39",
    "cache lines a streaming copy (REP MOVSB: copy_to_user, copy_from_user) keeps in flight "
    "while another core holds them: a copied line served by another core costs "
    "max(64 B / mem.bw_l3_bytes_per_cycle, (transfer - L1D latency) / this), a "
    "destination line taken from another core (transfer - L1D latency) / this, the "
    "transfer being load-to-use: the c2c value less lock.atomic_cycles, plus the L1D "
    "latency",
    "host measurement (netsim calibrate --host on a Zen 3 Milan EPYC KVM guest, "
    "2026-11-30, four runs): REP MOVSB on CPU 0 of 16 KiB that CPU 1 has just written, "
    "6.3-8.7 cycles per line (median of each run) against a 70-92 ns ping-pong transfer "
    "at 3.2 GHz: (transfer - L1D latency) / cycles per line = 25, 38, 39, 44 lines; the "
    "median 39. The copy streams at about the host's L3 copy bandwidth (7.3 cycles a "
    "line). The ping-pong was the mean of all rounds, which a descheduled vCPU inflates "
    "(a median of batches since 2026-12-02: on a Zen 4 guest the mean gave 34.7 lines in "
    "one run, the median 19.4 over eight); not measured again on Zen 3: at 22, seed 000's deltas move by 0.1 pp "
    "at most (doc/validation.md). Other cores: not measured (none of the seeds copies "
    "across Intel cores)",
    FALSE, 1, 64, NULL },
  { "mem.bw_dram_gbps", NS_PARAM_DOUBLE, "GB/s", "12",
    "single-core streaming copy bandwidth from DRAM", "unsourced generic default",
    FALSE, 0.5, 1000, NULL },

  /* ---- core-to-core: half a round trip of a CAS ping-pong (both sides LOCK CMPXCHG,
   * nviennot/core-to-core-latency's default benchmark), i.e. one line transfer plus the
   * locked RMW that takes the line, less the RMW's own L1 read; the model's load-to-use
   * transfer is the value less lock.atomic_cycles plus the L1D latency (machine.c).
   * ref: [M1][M2][M25] ---- */
  { "c2c.smt_ns", NS_PARAM_DOUBLE, "ns", "8",
    "CAS ping-pong half round trip between SMT siblings (a locked hand-off)",
    "generic default (5.0-10.2 ns on the listed parts: 7950X 5.0-5.3, Zen 2/3 EPYC 9.0-10.2, "
    "Intel 7.3-8.0; ref: cpu-params.md §3)", FALSE, 0, 1000, NULL },
  { "c2c.ccx_ns", NS_PARAM_DOUBLE, "ns", "20",
    "CAS ping-pong half round trip within one L3 domain (a locked hand-off)",
    "generic default", FALSE, 0, 1000, NULL },
  { "c2c.socket_ns", NS_PARAM_DOUBLE, "ns", "80",
    "CAS ping-pong half round trip between L3 domains of one socket (cross-CCX/CCD)",
    "generic default", FALSE, 0, 2000, NULL },
  { "c2c.remote_ns", NS_PARAM_DOUBLE, "ns", "150",
    "CAS ping-pong half round trip across sockets (a locked hand-off)",
    "generic default", FALSE, 0, 5000, NULL },

  /* ---- calls, returns, indirect calls ---- */
  { "call.cycles", NS_PARAM_DOUBLE, "cycles", "0",
    "latency a direct call plus predicted return adds beyond issuing their two "
    "instructions and the prologue/epilogue at cpu.issue_width",
    "unsourced reasoned default 0: a predicted call/ret pair is throughput-bound inside a "
    "body of work (the 2-4 cycles per pair of cpu-params.md §5 [M21] are a tight call/ret "
    "loop's loop-carried cost). Not chosen from any recorded row (seed 000's "
    "mitigations=off rows, +0.3 to +0.4 % for 64 calls a datagram, are judged with it, "
    "not evidence for it). The Zen 3 and Zen 4 profiles set host fits instead (0.5 and 0: "
    "tools/bench-saferet's plain saving a call over an L1D chain read through the model's "
    "twin, tests/tools/test-host-fits.sh)", FALSE, 0, 50, NULL },
  { "call.prologue_insns", NS_PARAM_INT, "instructions", "6",
    "prologue + epilogue instructions (the ftrace NOP, push/pop of callee-saved registers, "
    "stack frame set-up and release) of a non-inlined function whose declaration gives no "
    "frame from a binary (NS_FRAME_UNKNOWN: 6.9's out-of-line compute_score, functions of "
    "versions neither Debian binary has, user-space and synthetic functions); every other "
    "kernel function carries its binary's count (doc/census/prologues-6.1.176.txt)",
    "B: tools/prologue-census on Debian 12's 6.1.0-50-cloud-amd64 vmlinux and modules "
    "(GCC 12): the call-weighted mean of the modelled functions' frames, 6.41 per call on "
    "seed 000's ipv4 1G path and 6.13 on seed 002's 5950X 1-filter path when set "
    "(2026-11-30, each frame read up to its first branch); read over the whole body, as "
    "the declarations now carry them (2026-12-05), 5.63 and 6.41 (ipv6 1G 5.53, the 7950X "
    "100-filter walk 8.87; unweighted over 314 functions 7.50). Kept at 6: it prices only "
    "the calls no binary has, 64 of seed 000's 487 a datagram (compute_score)",
    FALSE, 0, 64, NULL },
  { "ret.unret_insns", NS_PARAM_INT, "instructions", "1",
    "instructions retbleed=unret adds to a return: the jmp to the untrained return thunk "
    "that stands in for the ret (the thunk's own ret is the return the machine charges "
    "with every out-of-line call, and the return stack predicts it); the same jmp ends a "
    "generic retpoline's thunk",
    "K: arch/x86/lib/retpoline.S 6.9 (retbleed_return_thunk: ret; int3; the RET macro "
    "and every compiled return site's jmp __x86_return_thunk are pointed at it, "
    "apply_returns()); until 2026-12-03 ret.unret_cycles = 4 cycles, a reasoned "
    "'jmp + predicted ret' without a source, which counted the ret twice", FALSE, 0, 32, NULL },
  { "ret.safe_ret_insns", NS_PARAM_INT, "instructions", "3",
    "instructions the SRSO Safe RET sequence adds to a return (the thunk's call, add and "
    "ret; the jmp into the thunk stands in for the plain ret, which the machine charges "
    "with every out-of-line call); each such return also pays branch.mispredict_cycles "
    "and branch.resolve_cycles",
    "ref: cpu-params.md §4 ([K6] thunk shape: jmp __x86_return_thunk; call "
    "srso_alias_safe_ret; add $8,%rsp (lea 8(%rsp),%rsp in the kernel's source); ret; "
    "[K3] 'forces the CPU to mispredict every function return'); 4 until 2026-12-03, "
    "which counted the jmp as well", FALSE, 0, 32,
    NULL },
  { "ret.stuff_cycles", NS_PARAM_DOUBLE, "cycles", "6",
    "call depth tracking: a flat amortised cost per return (the per-call accounting and "
    "the RSB stuffing; a function left by a tail jump pays none)",
    "unsourced reasoned default", FALSE, 0, 100, NULL },
  { "icall.predicted_cycles", NS_PARAM_DOUBLE, "cycles", "1",
    "extra cost of a predicted indirect call over a direct call",
    "unsourced reasoned default: cpu-params.md §5 (proposed defaults, not found) 'direct + "
    "0-1 cycle'; the §4 [M22] figure 'indirect jump, 2 cycles' is a code comment's total "
    "for a predicted jmp on Cascade Lake, not the extra over a direct call. Zen 3 and Zen 4 "
    "hosts measured 0 (their profiles); no Intel core measured. LLVM's scheduling models "
    "give call *%reg and call rel32 the same class on Sandy Bridge (X86SchedSandyBridge.td: "
    "3 uops, latency 5) and the same uop count and latency on Skylake "
    "(X86SchedSkylakeClient.td: 4 uops, latency 3), a compiler's cost model rather than a "
    "measurement, which puts the extra nearer 0", FALSE, 0, 50, NULL },
  { "icall.retpoline_insns", NS_PARAM_INT, "instructions", "3",
    "instructions a generic retpoline adds to an indirect call (the thunk's call, the mov "
    "of the target onto the stack and the ret; the call into the thunk stands in for the "
    "plain indirect call, which the machine charges with every out-of-line call, and the "
    "capture loop runs only speculatively); each retpoline also pays "
    "branch.mispredict_cycles and branch.resolve_cycles, and under SRSO Safe RET "
    "ret.safe_ret_insns more, under retbleed=unret ret.unret_insns (the thunk's own RET "
    "goes through the return thunk; under call depth tracking its ret is a plain one, "
    "and its call accounting is the call's, in ret.stuff_cycles)",
    "ref: cpu-params.md §4 ([K5] mechanism, [M22] thunk shape: call thunk; call "
    "set_up_target; mov %reg,(%rsp); ret; pause; lfence; jmp capture loop); 5 until "
    "2026-12-03, which counted the call into the thunk and the capture loop", FALSE, 0, 32,
    NULL },
  { "icall.lfence_cycles", NS_PARAM_DOUBLE, "cycles", "12",
    "cycles an LFENCE adds where the kernel runs one on a hot path: the extra cost of an "
    "LFENCE-retpoline indirect call (lfence; jmp *%reg, the jump then predicted) and the "
    "LFENCE of UNTRAIN_RET at kernel entry (see syscall.untrain_insns)",
    "unsourced reasoned default (lfence drains the dispatch)", FALSE, 0, 200, NULL },
  { "icall.ibrs_cycles", NS_PARAM_DOUBLE, "cycles", "2",
    "extra cost of a kernel indirect call under legacy IBRS (restricted prediction) on a "
    "CPU without eIBRS (with it, IBRS=1 in the kernel behaves as eIBRS: no extra)",
    "unsourced reasoned default (cpu-params.md §5: ~10-20 % slower kernel branches)",
    FALSE, 0, 200, NULL },

  /* ---- system call entry/exit ---- */
  { "syscall.base_cycles", NS_PARAM_DOUBLE, "cycles", "100",
    "SYSCALL + SYSRET with no mitigations: the two instructions and the pipeline drain "
    "around them; the kernel's entry and exit code is charged as instructions by the models",
    "unsourced: lmbench null syscall 34 ns on a 2017 desktop under Linux 4.10 ([M16]), "
    "≈ 100 cycles for the whole call: the two instructions, 4.10's SYSCALL64 fast path "
    "(a few dozen instructions, removed in 4.16), getppid and lmbench's loop; the models "
    "charge the entry and exit code again as instructions (about 80), so as a price of "
    "the two instructions alone it is high (tools/sensitivity varies it 50-200); a "
    "cross-check on a newer core: a null system call (sys_ni_syscall) took 159 core "
    "cycles (median, probe overhead removed) on a Zen 2 Ryzen 7 3700X under Linux 5.11 "
    "with mitigations=off (tmiemietz/fastcall-spma, cycle_stats.csv), the two "
    "instructions and the entry and exit code together, where this value plus about 80 "
    "instructions of that code at seed 000's fitted IPC gives about 170; no Zen 3 "
    "measurement found, and none can be taken on the guests the host measurements come "
    "from: on the Zen 5 one (2026-12-06) a bare SYSCALL with an invalid number took "
    "3041 cycles and getppid 3006 (its kernel runs PTI, and a pvm_ option on its "
    "command line suggests a paravirtualized guest whose system calls pass through the "
    "hypervisor)",
    FALSE, 0, 10000, NULL },
  { "syscall.pti_cycles", NS_PARAM_DOUBLE, "cycles", "200",
    "page-table isolation: two CR3 writes + trampoline per syscall (with PCID)",
    "unsourced reasoned default: cpu-params.md §5 (proposed defaults, not found) "
    "'+150-250 cycles', from [K4] 'order of a hundred cycles' per CR3 write and [M16] "
    "'< 300 cycles'; no per-core measurement. The one measured PCID figure found is "
    "higher: getppid 478 ns with PTI against 339 ns without on a Haswell with INVPCID "
    "(FreeBSD review D13985, kib, Jan 2018: +139 ns, the trampoline included, clock not "
    "stated)", FALSE, 0, 10000, NULL },
  { "syscall.ibrs_cycles", NS_PARAM_DOUBLE, "cycles", "300",
    "legacy IBRS: SPEC_CTRL WRMSR at entry and at exit",
    "unsourced: 2 x WRMSR of 100-200 cycles (cpu-params.md §5)", FALSE, 0, 10000, NULL },
  { "syscall.ibpb_cycles", NS_PARAM_DOUBLE, "cycles", "3000",
    "IBPB on kernel entry (spec_rstack_overflow=ibpb)",
    "unsourced reasoned default (predictor flush, thousands of cycles); the one measured "
    "figure found is 'a 2uS (2000nS) latency' with Intel's January 2018 microcode on a "
    "3.2-3.4 GHz Haswell or Skylake (M. Dillon, DragonFly users list, 10 Jan 2018: "
    "6400-6800 cycles); none for AMD or later microcode", FALSE, 0, 100000, NULL },
  { "syscall.verw_cycles", NS_PARAM_DOUBLE, "cycles", "200",
    "MDS VERW buffer clear on return to user",
    "unsourced: 100-300 cycles (cpu-params.md §5)", FALSE, 0, 10000, NULL },
  { "syscall.untrain_insns", NS_PARAM_INT, "instructions", "4",
    "instructions UNTRAIN_RET runs at syscall entry when the return mitigation needs it "
    "(retbleed=unret, SRSO Safe RET), besides its LFENCE (icall.lfence_cycles) and its "
    "return through the return thunk (charged as one mitigated return): call "
    "entry_untrain_ret; jmp to the vendor's sequence; its first instruction (nop or "
    "test); jmp to the return thunk",
    "K: arch/x86/entry/entry_64.S (entry_SYSCALL_64: IBRS_ENTER, UNTRAIN_RET); "
    "arch/x86/lib/retpoline.S 6.5+ (srso_alias_untrain_ret: ASM_NOP2, lfence, jmp "
    "srso_alias_return_thunk; retbleed_untrain_ret: test, lfence, jmp "
    "retbleed_return_thunk); bugs.c forces X86_FEATURE_UNRET for SRSO Safe RET [K1]",
    FALSE, 0, 64, NULL },
  { "syscall.bhi_loop_cycles", NS_PARAM_DOUBLE, "cycles", "75",
    "BHI clear_bhb_loop at syscall entry", "unsourced: 50-100 cycles (cpu-params.md §5)",
    FALSE, 0, 10000, NULL },
  { "ctxsw.rsb_fill_cycles", NS_PARAM_DOUBLE, "cycles", "60",
    "RSB fill (32 entries) on context switch when spectre_v2 is mitigated (charged in the "
    "switch, booked as cause insn although it retires no counted instruction)",
    "unsourced: 40-80 cycles (cpu-params.md §5)", FALSE, 0, 10000, NULL },

  /* ---- locks and scheduling ---- */
  { "lock.atomic_cycles", NS_PARAM_DOUBLE, "cycles", "20",
    "locked read-modify-write (LOCK CMPXCHG) on a line already owned in L1 (its L1 read "
    "included); also taken off each c2c.* value (a CAS ping-pong's half round trip) to "
    "give a line transfer's wait beyond an L1 hit",
    "generic default: cpu-params.md §5's proposed Intel 20 (UNVERIFIED for AMD), next to "
    "§3.7's measured LOCK CMPXCHG, 19 cycles on Golden Cove [M20]", FALSE, 1, 500, NULL },
  { "sched.quantum_ns", NS_PARAM_DOUBLE, "ns", "1000",
    "longest a simulated thread runs before it yields to the engine (bounds the clock skew "
    "between CPUs; a simulation setting, not a hardware cost)",
    "engine setting (doc/architecture.md, the execution model)", FALSE, 1, 1000000, NULL },
  { "sched.wakeup_cycles", NS_PARAM_DOUBLE, "cycles", "400",
    "cost to the waker of try_to_wake_up on another CPU (enqueue + IPI send)",
    "unsourced reasoned default; bounded above by the waker's whole FUTEX_WAKE call, "
    "540-757 ns (2160-3030 cycles) on a Zen 2 Threadripper at a fixed 4.0 GHz (LKML, "
    "\"Performance regression: thread wakeup time (latency) increased up to 3x\", "
    "24 Oct 2021, <70998f86-74d7-7ced-867e-f17695bc88e7@gmail.com>), which includes the "
    "system call", FALSE, 0, 100000, NULL },
  { "sched.wakeup_latency_ns", NS_PARAM_DOUBLE, "ns", "1500",
    "delay until a woken task runs on an idle CPU (IPI delivery + idle exit)",
    "unsourced reasoned default, between the measured ends: futex wake to the wakee's "
    "return, 1071 ns into POLL, 1155 ns into C1 (MWAIT), 3541 ns into ACPI C2, on a Zen 2 "
    "Threadripper at a fixed 4.0 GHz (LKML, 24 Oct 2021, "
    "<70998f86-74d7-7ced-867e-f17695bc88e7@gmail.com>; both system calls included); "
    "Milan has the same two ACPI idle states", FALSE, 0, 1000000, NULL },

  { "x86.rdtsc_cycles", NS_PARAM_DOUBLE, "cycles", "36",
    "cost of one RDTSC (sched_clock_cpu for IRQ-time accounting, the vDSO clock_gettime); "
    "microcoded, so it does not scale with cpu.ipc",
    "host measurement on a Zen 3 Milan EPYC (family 25 model 1, 2-vCPU KVM guest, netsim "
    "calibrate --host, 2026-11-30): back-to-back RDTSCs, 36.2 cycles (median of three "
    "runs, 35.6-36.5, at 3.14-3.22 GHz; 11.4 ns); a Zen 3 figure, which profiles of other "
    "cores replace when their paths read the clock",
    FALSE, 0, 1000, NULL },
  { "x86.rep_short_cycles", NS_PARAM_DOUBLE, "cycles", "5.5",
    "cost of one REP STOS or REP MOVS of fewer than x86.rep_long_bytes bytes beyond the "
    "loads and stores it makes (its microcode; memset_erms, the user copies' rep movsb, "
    "the compiler's rep stosq that zeroes a struct); does not scale with cpu.ipc",
    "host measurement on a Zen 5 Turin EPYC (family 26 model 2, 2-vCPU KVM guest, netsim "
    "calibrate --host --runs 5, 2026-12-05): REP STOSB, STOSQ and MOVSB of 16 to 120 "
    "bytes, each in a loop with 16 independent ADDs less the loop without it, the 15 "
    "figures' median; 5.5 the median of the runs' 5.23-5.89 (stosb about 5-8, movsb 9-15, "
    "stosq 10-24 alone); a Zen 5 figure, which profiles of other cores replace or borrow "
    "(saying so)",
    FALSE, 0, 1000, NULL },
  { "x86.rep_long_cycles", NS_PARAM_DOUBLE, "cycles", "36",
    "cost of one REP STOS or REP MOVS of x86.rep_long_bytes bytes or more beyond the "
    "loads and stores it makes: the fast-string set-up (the bytes a copy moves cost "
    "by the mem.bw_* bandwidths, measured as REP MOVSB copies of half a level's "
    "working set, 8 KiB from a 32 KiB L1D, each with one set-up in it; on a Zen 5 host "
    "the two give a datagram's 8920-byte copy what it costs there: doc/model.md)",
    "host measurement on a Zen 5 Turin EPYC (family 26 model 2, 2-vCPU KVM guest, netsim "
    "calibrate --host --runs 5, 2026-12-05): the same loops over 128 to 624 bytes, the 12 "
    "figures' median; 36 the median of the runs' 34.1-38.1 (Intel's Nehalem figure, "
    "about 40 cycles to start a fast string, Optimization Reference Manual §2.4.6 as "
    "quoted on Stack Overflow, is the same size); a Zen 5 figure, which profiles of other "
    "cores replace or borrow (saying so)",
    FALSE, 0, 1000, NULL },
  { "x86.rep_long_bytes", NS_PARAM_INT, "bytes", "128",
    "the length from which a REP STOS or REP MOVS costs x86.rep_long_cycles instead of "
    "x86.rep_short_cycles",
    "host measurement on a Zen 5 Turin EPYC (netsim calibrate --host --runs 5, 2026-12-05): "
    "REP STOSB, STOSQ and MOVSB step from the short to the long cost between 120 and 128 "
    "bytes, 128 in all five runs (a hand-run loop at 120 and 124 bytes: still short); "
    "Intel's definition of Fast Short REP MOVSB, 'string lengths between 1 and 128 bytes "
    "long' (Optimization Reference Manual §3.7.6.1, quoted in Tony Luck's FSRM patch, "
    "<20191216214254.26492-1-tony.luck@intel.com>), puts its boundary one byte later",
    FALSE, 1, 65536, NULL },
  { "x86.fsrm", NS_PARAM_BOOL, "", "false",
    "the CPU enumerates X86_FEATURE_FSRM (fast short REP MOVSB): from v5.17 "
    "copy_user_enhanced_fast_string skips its short-copy loops, and from v6.4 the user "
    "copies run an inline rep movsb instead of calling rep_movs_alternative",
    "CPUID.(EAX=7,ECX=0):EDX[4], from Ice Lake on Intel (Optimization Reference Manual "
    "§3.7.6.1, quoted in f444a5ff95dc) and from Zen 3 on AMD; none of Ivy Bridge, Skylake "
    "or Cascade Lake enumerates it (their raw CPUID dumps in libvirt's tests), nor does "
    "Comet Lake (lscpu of an i5-10400F lists erms, no fsrm); the FSRM profiles state it; "
    "default: not enumerated", FALSE, 0, 1, NULL },
  { "x86.fsrs", NS_PARAM_BOOL, "", "false",
    "the CPU enumerates X86_FEATURE_FSRS (fast short REP STOS): from v6.4 the kernel's "
    "memset then runs an inline rep stosb instead of memset_orig's loops; the kernel also "
    "marks an AMD CPU FSRS whenever it has FSRM (e046fe5a36a9, init_amd), which the model "
    "derives from x86.fsrm and the profile's vendor",
    "Intel's CPUID.(EAX=7,ECX=1):EAX[11], which none of Ivy Bridge, Skylake, Cascade Lake "
    "or Ice Lake enumerates (their raw CPUID dumps in libvirt's tests); AMD's parts rely on "
    "init_amd's mark (the AMD profiles say so); default: not enumerated", FALSE, 0, 1,
    NULL },
  { "x86.pause_cycles", NS_PARAM_DOUBLE, "cycles", "10",
    "latency of one PAUSE instruction (cpu_relax; pktgen runs one after every packet)",
    "Intel Optimization Reference Manual §2.5.4 'Pause Latency in Skylake Client "
    "Microarchitecture' (quoted in dotnet/coreclr#13388 and MicrosoftDocs PR 1100): "
    "about 10 cycles before Skylake, up to 140 cycles from Skylake on; default = the "
    "pre-Skylake value", FALSE, 0, 1000, NULL },

  /* ---- compiler ---- */
  { "build.inline_limit_bytes", NS_PARAM_INT, "bytes", "60",
    "largest static function GCC inlines at a call site when it has more than one caller",
    "GCC -O2 --param max-inline-insns-auto=15 (GCC 10+), at ~4 bytes per x86-64 "
    "instruction", FALSE, 0, 100000, NULL },
};

/* Registers the machine's parameter table with the registry. */
void
ns_machine_register_params (void)
{
  ns_param_register (machine_params, G_N_ELEMENTS (machine_params));
}
