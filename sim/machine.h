/* machine.h — the cycle-approximate CPU model and the cost calls model code makes.
 *
 * A machine is built from a parameter set (a CPU profile plus overrides), the mitigations
 * in force and a kernel build. It owns the topology, the cache hierarchy with per-line
 * coherence, the simulated address space, and the account of where every cycle went:
 * per (simulated function, cause).
 *
 * Model code (models/) is straight C that mirrors a kernel function and calls the cost
 * functions below where the kernel does the work; each call charges cycles to the running
 * thread (advancing its clock) and to the current function in the account. */
#pragma once
#include "common.h"
#include "engine.h"
#include "build.h"
#include "param.h"
#include "mitigation.h"
#include "arena.h"

G_BEGIN_DECLS

typedef struct _NsMachine NsMachine;

/* Why cycles were spent. */
typedef enum {
  NS_CAUSE_INSN,        /* instructions at the base IPC, and the fixed costs of RDTSC,
                         * PAUSE, a locked RMW's ordering, a wake-up and an RSB fill */
  NS_CAUSE_L1,          /* load stall: L1 hit latency (dependent loads only) */
  NS_CAUSE_L2,          /* load stall: served by L2 */
  NS_CAUSE_L3,          /* load stall: served by L3 */
  NS_CAUSE_DRAM,        /* load stall: served by DRAM */
  NS_CAUSE_COHERENCE,   /* line transferred from / invalidated in another core */
  NS_CAUSE_COPY,        /* bulk copy by bandwidth */
  NS_CAUSE_IFETCH,      /* instruction-cache misses on function text */
  NS_CAUSE_CALL,        /* call + prologue/epilogue + predicted return */
  NS_CAUSE_RETTHUNK,    /* return thunk: retbleed unret, SRSO Safe RET, call depth stuffing */
  NS_CAUSE_INDIRECT,    /* indirect call: predicted, retpoline, lfence */
  NS_CAUSE_MISPREDICT,  /* conditional branch mispredictions */
  NS_CAUSE_SYSCALL,     /* entry/exit: base, PTI, IBRS, IBPB, VERW, BHI loop */
  NS_CAUSE_LOCK_WAIT,   /* spinning for a lock held by another CPU */
  NS_CAUSE_N
} NsCause;

const char *ns_cause_name (NsCause cause);   /* "insn", "l2", "retthunk", ... */
/* Label of the cause's event count, NULL if uncounted: insns = instructions the models
 * executed (ns_insns, ns_insns_wide, ns_insns_beside, ns_insns_fused as 2n, RDTSC, PAUSE,
 * UNTRAIN_RET's; not the call sequences' own), L1D…DRAM = data lines loaded from that
 * level (loads; not bulk copies, nor the store and atomic misses whose cycles the same
 * causes carry), c2c = coherence transfers, I-miss = text lines fetched past the
 * L1I, calls = out-of-line calls, ret-thunk = returns through a return mitigation,
 * icalls = indirect calls, mispred = mispredicted branches, syscalls = entries. */
const char *ns_event_name (NsCause cause);

/* How far apart two logical CPUs are. */
typedef enum {
  NS_DIST_SAME,         /* the same logical CPU */
  NS_DIST_SMT,          /* SMT siblings of one core */
  NS_DIST_CCX,          /* same L3 domain (CCX / socket ring) */
  NS_DIST_SOCKET,       /* same socket, other L3 domain (cross-CCX / cross-CCD) */
  NS_DIST_REMOTE        /* other socket */
} NsDistance;

/* Builds the machine. Reads the cpu.*, cache.*, mem.*, c2c.*, call.*, ret.*, icall.*,
 * syscall.*, lock.*, sched.* parameters. The machine keeps its own copies. */
NsMachine  *ns_machine_new          (const NsParams *params, const NsMitigations *mit,
                                     NsBuild *build, GError **error);
void        ns_machine_free         (NsMachine *machine);
/* Under mem.page_frames = random, the pages of simulated memory sit at frames drawn from
 * key (run.c gives each repetition its own); call before anything runs. */
void        ns_machine_set_page_key (NsMachine *machine, guint64 key);
/* A key for the run's other layout draws (a slab cache's shuffled freelists), derived from
 * the page key: its own stream, so neither the workload's draws nor the frames move. */
guint64     ns_machine_layout_key   (const NsMachine *machine, guint64 stream);
/* Creates the engine for this machine (one simulated CPU per logical CPU, quantum from
 * sched.quantum_ns) and attaches the machine to it. The caller frees the engine. */
NsEngine   *ns_machine_create_engine (NsMachine *machine);
NsArena    *ns_machine_arena        (NsMachine *machine);
/* Model state that lives as long as the machine, by key (one boot's kmalloc caches):
 * g_datalist's contract (setting a key replaces, and destroys, its old value); destroyed
 * first when the machine is freed, while its arena is still there. */
void        ns_machine_set_data     (NsMachine *machine, const char *key, gpointer data,
                                     GDestroyNotify destroy);
gpointer    ns_machine_get_data     (NsMachine *machine, const char *key);
NsBuild    *ns_machine_build        (NsMachine *machine);
const NsMitigations *ns_machine_mitigations (NsMachine *machine);
const NsParams *ns_machine_params   (NsMachine *machine);

/* Topology. Logical CPUs are numbered like Linux on these parts: cpu c < n_cores is SMT
 * thread 0 of core c; cpu c + n_cores is its sibling. Cores fill CCX 0 first. */
guint       ns_machine_n_cpus       (NsMachine *machine);
/* "" or, when the kernel took the SMT siblings offline, a clause saying so ("; the kernel
 * command line's nosmt …"), for messages about CPUs the machine lacks. Static. */
const char *ns_machine_cpus_note    (NsMachine *machine);
guint       ns_machine_n_cores      (NsMachine *machine);
double      ns_machine_ghz          (NsMachine *machine);
guint       ns_machine_core_of      (NsMachine *machine, guint cpu);
guint       ns_machine_ccx_of       (NsMachine *machine, guint cpu);
guint       ns_machine_socket_of    (NsMachine *machine, guint cpu);
NsDistance  ns_machine_distance     (NsMachine *machine, guint cpu_a, guint cpu_b);
/* One line's transfer between two CPUs, load-to-use cycles as the cache latencies: their
 * distance's c2c.* value (a CAS ping-pong's half round trip) less lock.atomic_cycles
 * (never below 0), plus the L1D hit the locked RMW's own figure contains; 0 for a CPU
 * and itself. A load from another physical core pays it as an L2 or L3 latency; a store
 * or locked RMW the part beyond an L1 hit (SMT siblings share the L1D: their loads hit). */
double      ns_machine_transfer_cycles (NsMachine *machine, guint cpu_a, guint cpu_b);
/* The logical CPU at a given distance from cpu (for placing threads); FALSE if none. */
gboolean    ns_machine_cpu_at       (NsMachine *machine, guint cpu, NsDistance dist, guint *out);
/* Cycles a load served by each level costs (profile latencies, converted to cycles). */
double      ns_machine_level_cycles (NsMachine *machine, NsCause level);
/* Extra cycles per out-of-line return under the return mitigation in force (SRSO Safe RET,
 * retbleed unret or call-depth stuffing; 0 for a plain predicted ret). */
double      ns_machine_ret_penalty_cycles   (NsMachine *machine);
/* Cycles an indirect call costs over a direct one under the spectre_v2 mode in force. */
double      ns_machine_icall_penalty_cycles (NsMachine *machine);

/* ---- Cost calls (from inside a simulated thread) ---- */

/* n instructions of straight-line work at the base IPC. */
void ns_insns       (NsThread *t, guint n);
/* One RDTSC: x86.rdtsc_cycles (cause insn, counted as one instruction). */
void ns_rdtsc       (NsThread *t);
/* One ordered TSC read (rdtsc_ordered: RDTSCP where the CPU has it, else LFENCE; RDTSC):
 * an RDTSC's x86.rdtsc_cycles (RDTSCP's own cost is taken as RDTSC's: no source here
 * measures the difference), and it waits for all older work, so a later miss does not
 * overlap an earlier one. */
void ns_rdtsc_ordered (NsThread *t);
/* One PAUSE (cpu_relax): an instruction of x86.pause_cycles, whatever the base IPC. */
void ns_pause       (NsThread *t);
/* One REP STOS or REP MOVS of n bytes: an instruction costing x86.rep_short_cycles below
 * x86.rep_long_bytes, x86.rep_long_cycles from there, whatever the base IPC (cause insn);
 * the caller charges the bytes' stores (ns_store) or copy (ns_copy). */
void ns_rep_string  (NsThread *t, gsize n);
/* n independent, well-predicted instructions off the critical path (e.g. a compare chain
 * beside a latency-bound walk): charged at cpu.issue_width instead of cpu.ipc. */
void ns_insns_wide  (NsThread *t, guint n);
/* n compare-and-branch pairs (CMP/TEST reg,imm or reg,reg + Jcc) as ns_insns_wide's
 * work, each fused into one macro-op (Intel since Core 2 and Sandy Bridge, AMD since
 * Bulldozer and Zen): 2n instructions counted, n macro-ops at cpu.issue_width. */
void ns_insns_fused (NsThread *t, guint n);
/* n instructions of a compare sequence beside a chase, `pairs` of them CMP/TEST + Jcc pairs
 * that fuse (register-register, -immediate and register-memory forms on every modelled
 * core; memory-immediate compares and OR + Jcc are counted unfused): ns_insns_fused for
 * the pairs, ns_insns_wide for the rest. 2 * pairs <= n. */
void ns_insns_compares (NsThread *t, guint n, guint pairs);
/* n instructions that need nothing an outstanding load brings (argument moves from
 * registers): at cpu.issue_width, free within a data miss's shadow. */
void ns_insns_beside (NsThread *t, guint n);
/* Loads of [p, p+size): independent of each other (a miss overlaps the open window's
 * within cpu.rob_entries instructions; L1 hits are hidden in the IPC). */
void ns_load        (NsThread *t, gconstpointer p, gsize size);
/* A load whose address depends on the previous load (pointer chase): full latency. */
void ns_load_dep    (NsThread *t, gconstpointer p, gsize size);
/* A load instruction of a model, named once per source site: the L1 IP-based stride
 * prefetcher keys on it as the hardware keys on the load's instruction pointer.
 *   static NS_LOAD_SITE (site_tp, "__tcf_classify: tp->protocol");   */
typedef struct {
  const char *name;
  gint        id;      /* assigned on first use; 0 = not yet */
} NsLoadSite;
#define NS_LOAD_SITE(var, site_name) NsLoadSite var = { site_name, 0 }
/* A load (dep: ns_load_dep, else ns_load) made by the instruction at site: with
 * prefetch.l1_stride, once site has seen the same non-zero stride twice in a row on this
 * core, the line one stride ahead is prefetched (as ns_prefetch) after the load. */
void ns_load_site   (NsThread *t, NsLoadSite *site, gboolean dep, gconstpointer p,
                     gsize size);
/* Stores to [p, p+size): read-for-ownership, other copies invalidated. */
void ns_store       (NsThread *t, gconstpointer p, gsize size);
/* A locked read-modify-write of the line holding p (atomic op, lock acquire). */
void ns_atomic      (NsThread *t, gconstpointer p);
/* Software prefetch of the line holding p: no stall now, line brought to L1. */
void ns_prefetch    (NsThread *t, gconstpointer p);
/* Bulk copy (memcpy, copy_to_user): reads src, writes dst, charged by bandwidth per level;
 * lines another core holds stream with mem.copy_mlp transfers in flight. */
void ns_copy        (NsThread *t, gconstpointer dst, gconstpointer src, gsize n);
/* n mispredicted conditional branches. */
void ns_mispredict  (NsThread *t, guint n);
/* Direct call into func. If the build inlines func the call is free (the body's costs go
 * to the caller, as perf would show it); else call + prologue + I-fetch of its text. */
void ns_call        (NsThread *t, NsFunc *func);
/* A direct call whose path leaves func before the frame its body sets up (GCC
 * shrink-wraps: a fast path that returns or tail-jumps before the pushes): as ns_call, but
 * the call runs path_frame of func's frame instructions (the ftrace site, say), not all. */
void ns_call_shrink_wrapped (NsThread *t, NsFunc *func, guint path_frame);
/* Tail jump into func ending the current out-of-line function (from its body or code
 * inlined into it): costs as a call, but that function's ns_ret (made after func's) then
 * charges no return: one return for both. */
void ns_tail_call   (NsThread *t, NsFunc *func);
/* The next ns_call / ns_icall of t is such a tail jump (its callee entered inside a
 * helper); an ns_ret before that call cancels it. */
void ns_tail_next   (NsThread *t);
/* Indirect call (through a function pointer) into func: the spectre_v2 mode's cost. */
void ns_icall       (NsThread *t, NsFunc *func);
/* Return from the current function: epilogue + return under the return mitigation. */
void ns_ret         (NsThread *t);
/* System call entry and exit with PTI / IBRS / IBPB / VERW / BHI costs as in force. */
void ns_syscall_enter (NsThread *t);
void ns_syscall_exit  (NsThread *t);
/* Charges raw cycles to a cause (used by sync.c for lock waiting and by models for costs
 * computed elsewhere). */
void ns_charge      (NsThread *t, NsCause cause, double cycles);
/* Records waiting time (already elapsed on the thread's clock) against a cause without
 * advancing the clock again. */
void ns_account_wait (NsThread *t, NsCause cause, NsTime span);

#define NS_LOAD_FIELD(t, obj, field)  ns_load ((t), &(obj)->field, sizeof ((obj)->field))
#define NS_LOAD_FIELD_DEP(t, obj, field) \
  ns_load_dep ((t), &(obj)->field, sizeof ((obj)->field))
#define NS_STORE_FIELD(t, obj, field) ns_store ((t), &(obj)->field, sizeof ((obj)->field))

/* ---- The account: where the cycles went ---- */

/* Clears every counter (end of warm-up). */
void     ns_machine_account_reset (NsMachine *machine);
/* Cycles charged to (func, cause); func NULL = top level (no function). */
double   ns_machine_account_cycles (NsMachine *machine, const NsFunc *func, NsCause cause);
/* Cycles func's inlined invocations spent in its own body (not in out-of-line callees),
 * by cause; they are also in the cycles of the function it was inlined into, as perf
 * shows inlined code. */
double   ns_machine_account_inline_cycles (NsMachine *machine, const NsFunc *func,
                                           NsCause cause);
/* Out-of-line calls and inlined invocations of func since the last reset. */
guint64  ns_machine_account_calls  (NsMachine *machine, const NsFunc *func, guint64 *inlined);
/* Event count of a cause since the last reset (ns_event_name says what it counts). */
guint64  ns_machine_account_events (NsMachine *machine, NsCause what);
/* Cycles of a cause hidden by an overlap since the last reset: I-fetch waits under the
 * front end's lead, call and ns_insns_beside work under a data miss's shadow. */
double   ns_machine_account_overlapped (NsMachine *machine, NsCause what);
/* Cycles charged to cause in one calling context of the machine's engine (see
 * ns_engine_context): the data of folded stacks. */
double   ns_machine_account_context_cycles (NsMachine *machine, guint ctx, NsCause cause);

G_END_DECLS
