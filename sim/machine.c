/* machine.c — the cycle-approximate CPU model: topology, caches, coherence, cost calls.
 *
 * Semantics
 * ---------
 * Topology. cpu.sockets × cpu.ccx_per_socket × cpu.cores_per_ccx physical cores with
 * cpu.smt hardware threads each. Core k sits in L3 domain (CCX) k / cores_per_ccx and
 * socket k / (cores_per_ccx × ccx_per_socket). Logical CPU c < n_cores is thread 0 of core
 * c, CPU c + n_cores its SMT sibling (Linux numbering on these parts).
 *
 * Units. Every cost is in core cycles of cpu.freq_ghz; parameters given in ns (DRAM and
 * core-to-core latencies) are multiplied by the clock. Instructions cost 1 / cpu.ipc.
 *
 * Caches. Per physical core (shared by its SMT threads): L1D, L1I and L2; per CCX: L3. All
 * use cache.policy (lru, or plru = tree pseudo-LRU; plru on an associativity that is not a
 * power of two falls back to LRU with a message). L2 is inclusive of the core's L1s: an
 * L2 eviction drops the line from L1D and L1I. The L2 sees only the L1s' misses unless
 * cache.l2.sees_l1_hits, so a line hot in an L1 ages in the L2 and may be evicted from both
 * (an inclusion victim). cache.l3.inclusive = true: lines are filled
 * into the CCX's L3 on every miss that goes past it, and an L3 eviction back-invalidates
 * the line in the private caches of that CCX's cores. false: L3 is a victim cache filled
 * with the lines the CCX's L2s evict (an L3 hit leaves the line there). L3 size 0 = none.
 * Caches are created when a core or CCX is first used, so big parts cost nothing unused.
 *
 * Coherence. A directory (open addressing on the line number) keeps, per line ever
 * touched: the logical CPU that last wrote it if it is Modified (the owner), the set of
 * physical cores that may hold it in their L2 (and possibly L1), and the set of CCXs whose
 * L3 may hold it. Evictions do not update the directory (that would cost a host cache miss
 * per evicted line); instead every use of a bit is checked against the cache it names, and
 * a stale one is dropped: an owner whose L2 no longer holds the line has written it back.
 * Inclusive L3s keep their bits exact (their evictions must back-invalidate anyway). A line
 * in some core's L1 is never Modified by another core (taking ownership invalidates every
 * other copy), so an L1 hit needs no directory look-up.
 *
 * Line transfers. The c2c.* parameters are half round trips of CAS ping-pongs (both sides
 * spin on LOCK CMPXCHG, nviennot/core-to-core-latency's default benchmark, which the
 * profiles cite, and calibrate --host's): one transfer plus the locked RMW that takes the
 * line, less that RMW's own L1 read (lock.atomic_cycles is measured on an L1 line; in the
 * ping-pong the read is the transfer). "Transfer" below is load-to-use, as the cache
 * latencies: the value less lock.atomic_cycles (never below zero) plus the L1D latency;
 * a load pays it, a store or locked RMW what it takes beyond an L1 hit, so a locked
 * hand-off costs exactly the ping-pong figure.
 *
 * Loads (per line touched), in this order:
 *   L1 hit → level L1.
 *   Modified by another physical core → COHERENCE, the transfer of the distance (SMT
 *     siblings share the caches, so a sibling's line is an ordinary hit); the owner keeps
 *     a shared copy, the line is filled here.
 *   L2 hit → L2. Own CCX's L3 hit → L3.
 *   A clean copy in another core's L2 or another CCX's L3 → COHERENCE, the transfer from
 *     the nearest holder.
 *   Else DRAM (mem.dram_latency_ns).
 * ns_load_dep charges the full latency of the serving level (an L1 hit costs
 * cache.l1d.latency_cycles, cause L1), so a pointer chase over a working set that fits a
 * level costs exactly that level's latency per load. ns_load charges nothing for an L1
 * hit. Misses overlap in windows (load_cycles): a miss opens a window and waits (ns_load:
 * its latency beyond L1; ns_load_dep: in full); an ns_load miss issued within
 * cpu.rob_entries instructions of the window's first costs only what it lasts beyond the
 * window's longest. A generic retpoline closes the window (its ret waits for the loads
 * that produce the target, so nothing after it issues early), and so do an SRSO Safe RET
 * return (a forced mispredict: nothing after it issues before it resolves), the LFENCE
 * of an lfence retpoline (nothing younger executes before everything older completes;
 * fetch goes on, so the front end keeps its lead), a mispredict, system call entry and
 * exit, a locked instruction (it orders every memory access around it) and a wait.
 * ns_prefetch does the same look-up, fill and coherence transition without any charge.
 *
 * Stores (per line): if this CPU owns the line Modified and it is in L1D: free (store
 * buffer); owned but only in its L2: (L2 − L1) / cpu.mlp, cause L2. If its SMT sibling
 * owns it: COHERENCE, the SMT transfer / mlp (the sibling pair's line hand-off). Else
 * read-for-ownership: every other core's copy (L1/L2) and every other CCX's L3 copy is
 * invalidated; if there was any, COHERENCE, the transfer from the farthest holder / mlp; if there was
 * none and the line was not in L1, (latency of the level that had it − L1) / cpu.mlp
 * (stores do not use the loads' overlap window). The line ends Modified in this core's
 * L1, owned by this CPU.
 *
 * Atomics (ns_atomic): lock.atomic_cycles as INSN (measured on a line in L1), plus the
 * full (not mlp-divided) transfer (COHERENCE; the SMT one for a line last written by the
 * SMT sibling) or the miss latency beyond L1 (L2/L3/DRAM) of the line; ownership as a
 * store; the overlap window of loads closes.
 *
 * Copies (ns_copy): per source line, the bytes read cost bytes / mem.bw_<level> cycles
 * (DRAM: mem.bw_dram_gbps / GHz bytes per cycle), cause COPY. A line another core holds
 * streams at L3 bandwidth (COPY), and its transfer adds what it takes beyond that with
 * mem.copy_mlp lines in flight: max(0, (transfer − L1) / mem.copy_mlp − bytes / mem.bw_l3),
 * COHERENCE. Destination lines take ownership like stores, but a transfer costs
 * (transfer − L1) / mem.copy_mlp (the copy streams them too); plain misses are covered by the
 * bandwidth.
 *
 * Control flow. ns_insns(n): n / ipc, INSN. ns_mispredict(n): n × branch.mispredict_cycles,
 * MISPREDICT. ns_call: registers the function if needed; if the build inlines it the call
 * is free, the body stays attributed to the caller and an inlined invocation is counted.
 * Else a call is counted, the function is pushed on the thread's attribution stack, CALL
 * = call.cycles + (2 + F) / cpu.issue_width is charged to it, F its frame instructions
 * from the binary (NsFunc frame_insns) or, unknown, call.prologue_insns (the call, the
 * ret and the prologue/epilogue issue beside the body; less a miss's shadow),
 * and its entry line is fetched through L1I; the instructions it then runs (its own
 * prologue, epilogue and ret at the call, the body's as they are charged, before they are)
 * fetch the lines up to ifetch.text_bytes_per_insn bytes each further, up to its end (a
 * straight-line function, or that parameter at 0: its whole text at the call). A miss
 * waits the entry line's latency beyond L1, each following line's over ifetch.seq_mlp,
 * less the front end's lead. ns_icall is never inlined: INDIRECT by spectre_v2 mode
 * (charged to the caller, where the indirect call sits), then as an out-of-line call.
 * ns_ret: an inlined invocation only pops its frame; else RETTHUNK (see
 * ns_machine_ret_penalty_cycles) is charged to the returning function, which is then
 * popped, and the return site's line in the caller is fetched: where the caller's
 * instructions had run to, in the innermost out-of-line caller not left by a tail jump (a
 * straight-line caller, or the parameter at 0: a fixed line per caller–callee pair);
 * nothing on a return to the thread's own (user) code.
 * ns_syscall_enter/exit: SYSCALL pieces as listed at syscall_costs().
 *
 * The front end's lead. Back-end work (INSN, loads, COHERENCE, COPY, CALL) lets a front end
 * on a predicted path fetch ahead: each such charge adds to the thread's lead, up to
 * cpu.rob_entries / cpu.ipc cycles. A text-line wait is paid from the lead first and only
 * the rest is charged (IFETCH). A mispredict, a forced one (generic retpoline, SRSO Safe
 * RET), a system call and a wait empty the lead: the next misses, the return site's
 * first, wait in full (host-measured: tools/bench-saferet-tree, doc/model.md).
 *
 * The shadow of a data miss. A load that stalls past an L1 hit leaves the core that many
 * cycles in which work not waiting for it can run: a call's own CALL cycles and
 * ns_insns_beside instructions issued within cpu.rob_entries instructions of the miss
 * are paid from that shadow first (up to cpu.rob_entries / cpu.ipc cycles of it), and so
 * is the refill of an SRSO Safe RET return's forced mispredict (the return address is on
 * the stack: the ret resolves while the miss is outstanding). A mispredict, a forced one,
 * a locked instruction, a system call and a wait drain it (host-measured:
 * tools/bench-saferet, a call's overhead and a Safe RET return's over a socket chain in
 * L1D and in L2, doc/model.md).
 *
 * The account. Every charge advances the thread (ns_thread_advance) and adds to the cell
 * (current function, cause); top level (no function) is row 0. A charge made while an
 * inlined invocation is the innermost frame also adds to that inlined function's body
 * cell (cycles in inlined code stay with the out-of-line caller, as perf shows them; the
 * body cell tells how much of them the inlined function accounts for). Event counts: loads served
 * per level (L1..DRAM, by ns_load/ns_load_dep; a load served by another core counts as a
 * transfer instead), COHERENCE transfers charged, IFETCH
 * misses, CALL out-of-line calls, INDIRECT indirect calls, RETTHUNK thunked returns,
 * MISPREDICT mispredictions, SYSCALL system calls.
 *
 * Simulated memory: the machine's arena maps at 0xffff888100000000 (the x86-64 direct map);
 * function text addresses come from the build registry (0xffffffff81000000 upwards). */
#include "config.h"
#include <errno.h>
#include <math.h>
#include <string.h>
#include "machine.h"
#include "cache.h"

#define ARENA_BASE      G_GUINT64_CONSTANT (0xffff888100000000)
#define ARENA_CAPACITY  (G_GUINT64_CONSTANT (16) << 30)
#define ARENA_MIN       (G_GUINT64_CONSTANT (256) << 20)
#define MAX_CORES       4096
#define PAGE_BYTES      4096u
#define DIR_INITIAL     (1u << 14)

/* ---- data structures ---- */

typedef struct {
  double  cycles[NS_CAUSE_N];   /* while the innermost out-of-line frame (self) */
  double  body[NS_CAUSE_N];     /* while the innermost inlined frame: also in cycles[] of
                                   the out-of-line function it was inlined into */
  guint64 calls;
  guint64 inlined;
} AcctRow;

/* Cycles by cause charged while a thread was in one calling context. */
typedef struct {
  double  cycles[NS_CAUSE_N];
} CtxRow;

/* One entry of a core's stride table: the last address a load site read, the stride
 * from the one before, and how many times in a row that stride repeated. */
typedef struct {
  guint64 last;
  gint64  stride;
  guint   confirmed;
} StrideEntry;

typedef struct {
  NsCache     *l1d, *l1i, *l2;
  StrideEntry *strides;  /* by NsLoadSite id, grown on demand */
  guint        n_strides;
} CoreCaches;

/* Directory: slots of `stride` 64-bit words: [0] line + 1 (0 = empty slot), [1] owner
 * logical CPU + 1 (0 = not Modified), then the core mask, then the CCX (L3) mask. */
typedef struct {
  guint64 *slots;
  gsize    capacity;     /* power of two */
  gsize    count;
  guint    shift;        /* 64 − log2 (capacity) */
  guint    core_words;
  guint    ccx_words;
  guint    stride;
} Directory;

typedef struct {
  NsMachine  *machine;
  guint       cpu, core, ccx;
  CoreCaches *caches;
  NsCache    *l3;        /* own CCX's L3, NULL if none */
  NsFunc    **frames;    /* per active ns_call/ns_icall: the callee if inlined, else NULL */
  NsFunc    **callees;   /* per active ns_call/ns_icall: the callee */
  gboolean   *tailed;    /* per frame: the function left by a tail jump (no return of its own) */
  double     *ran;       /* per out-of-line frame: text bytes its instructions have run through */
  gboolean    tail_next; /* the next call is a tail jump (ns_tail_next) */
  guint       depth;
  guint       frames_alloc;
  guint64     insns;       /* instructions this thread has run */
  guint64     win_insns;   /* insns when the open overlap window's first miss issued */
  double      win_extra;   /* the window's longest miss: cycles beyond an L1 hit */
  gboolean    win_open;
  double      lead;        /* cycles of back-end work the front end has fetched ahead */
  double      shadow;      /* cycles of data misses beside-work can still hide under */
  guint64     shadow_insns;  /* insns when the last miss added to the shadow */
  guint64     breaks;        /* ns_thread_breaks when the thread last charged here */
} NsExec;

struct _NsMachine {
  NsParams      *params;
  NsMitigations  mit;
  NsBuild       *build;
  NsArena       *arena;
  GData         *data;          /* ns_machine_set_data */

  guint          ccx_per_socket, cores_per_ccx, smt;
  guint          n_cores, n_ccx, n_cpus;
  double         ghz;
  NsTime         quantum;

  /* costs, cycles */
  double         ipc, mlp, copy_mlp, ifetch_seq_mlp, issue_width, resolve, rdtsc, pause;
  double         rep_short, rep_long;  /* a REP string's microcode below / from rep_bytes */
  guint64        rep_bytes;
  double         text_per_insn;                 /* ifetch.text_bytes_per_insn (0: whole text) */
  double         lead_max;                      /* cpu.rob_entries / cpu.ipc */
  gboolean       stride_prefetch, stride_in_page, icall_forced, icall_fenced, ret_forced;
  guint64        rob;
  double         lat[NS_CAUSE_DRAM + 1];        /* L1..DRAM load-to-use */
  double         bw[NS_CAUSE_DRAM + 1];         /* L1..DRAM bytes per cycle */
  double         c2c[NS_DIST_REMOTE + 1];          /* line transfer by distance, cycles */
  double         mispredict, call_cycles, atomic_cycles;
  double         ret_penalty, icall_penalty;
  guint          frame_insns;     /* call.prologue_insns: a frame no binary gives */
  gint           ibt;             /* CONFIG_X86_KERNEL_IBT stated: 1 y, 0 n; -1 not stated */
  double         sys_enter, sys_exit;
  guint          untrain_insns;   /* UNTRAIN_RET's instructions at entry (0: not run) */

  /* caches */
  guint          line_shift;
  NsCachePolicy  policy;
  gboolean       inclusive;
  gboolean       l2_sees_l1_hits;  /* cache.l2.sees_l1_hits */
  gboolean       pages_random;   /* mem.page_frames = random: L2/L3 sets by drawn frames */
  guint64        page_key;       /* ns_machine_set_page_key */
  gboolean       caches_made;    /* a cache exists: the page key is fixed */
  gsize          l1d_bytes, l1i_bytes, l2_bytes, l3_bytes;
  guint          l1d_assoc, l1i_assoc, l2_assoc, l3_assoc;
  CoreCaches    *cores;          /* n_cores, created on first use */
  NsCache      **l3;             /* n_ccx, created on first use */
  Directory      dir;

  /* account */
  GArray        *acct;           /* AcctRow by function id (0 = top level) */
  GArray        *ctx_acct;       /* CtxRow by calling-context id (the engine's tree) */
  guint64        events[NS_CAUSE_N];
  double         overlapped[NS_CAUSE_N];   /* cycles a cause would have cost, hidden */
  GPtrArray     *execs;          /* NsExec* handed to threads */
};

static const char *const cause_names[NS_CAUSE_N] = {
  "insn", "l1", "l2", "l3", "dram", "coherence", "copy", "ifetch", "call", "retthunk",
  "indirect", "mispredict", "syscall", "lock_wait"
};

/* What the event count of each cause counts; NULL: the cause has no count. */
static const char *const event_names[NS_CAUSE_N] = {
  "insns", "L1D", "L2", "L3", "DRAM", "c2c", NULL, "I-miss", "calls", "ret-thunk",
  "icalls", "mispred", "syscalls", NULL
};

/* The label of a cause's event count ("insns", "L2", "ret-thunk", ...), NULL if the
 * machine does not count events of that cause. */
const char *
ns_event_name (NsCause cause)
{
  g_return_val_if_fail ((guint) cause < NS_CAUSE_N, NULL);
  return event_names[cause];
}

/* The short name of a cause ("insn", "l2", "retthunk", ...). */
const char *
ns_cause_name (NsCause cause)
{
  g_return_val_if_fail ((guint) cause < NS_CAUSE_N, NULL);
  return cause_names[cause];
}

/* ---- bit masks ---- */

/* TRUE if bit i of the bit array mask is set. */
static inline gboolean
mask_test (const guint64 *mask, guint i)
{
  return (mask[i >> 6] >> (i & 63)) & 1;
}

/* Sets bit i of the bit array mask. */
static inline void
mask_set (guint64 *mask, guint i)
{
  mask[i >> 6] |= G_GUINT64_CONSTANT (1) << (i & 63);
}

/* Clears bit i of the bit array mask. */
static inline void
mask_clear (guint64 *mask, guint i)
{
  mask[i >> 6] &= ~(G_GUINT64_CONSTANT (1) << (i & 63));
}

/* ---- the directory ---- */

#define E_OWNER(e)      ((e)[1])
#define E_CORES(e)      ((e) + 2)
#define E_CCXS(d, e)    ((e) + 2 + (d)->core_words)

/* Slot index where a line's search starts (Fibonacci hashing). */
static inline gsize
dir_home (const Directory *dir, guint64 line)
{
  return (gsize) ((line * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> dir->shift);
}

/* Allocates an empty table of capacity slots. */
static void
dir_alloc (Directory *dir, gsize capacity)
{
  guint bits = 0;

  while ((((gsize) 1) << bits) < capacity)
    bits++;
  dir->capacity = capacity;
  dir->shift = 64 - bits;
  dir->count = 0;
  dir->slots = g_new0 (guint64, capacity * dir->stride);
}

/* The entry of line, or NULL if the line was never touched. */
static inline guint64 *
dir_find (const Directory *dir, guint64 line)
{
  gsize mask = dir->capacity - 1;

  for (gsize i = dir_home (dir, line);; i = (i + 1) & mask) {
    guint64 *e = dir->slots + i * dir->stride;
    if (e[0] == line + 1)
      return e;
    if (e[0] == 0)
      return NULL;
  }
}

/* Doubles the table, re-inserting every entry. */
static void
dir_grow (Directory *dir)
{
  guint64 *old = dir->slots;
  gsize old_capacity = dir->capacity;

  dir_alloc (dir, old_capacity * 2);
  for (gsize i = 0; i < old_capacity; i++) {
    const guint64 *src = old + i * dir->stride;
    if (src[0] == 0)
      continue;
    gsize j = dir_home (dir, src[0] - 1);
    while (dir->slots[j * dir->stride] != 0)
      j = (j + 1) & (dir->capacity - 1);
    memcpy (dir->slots + j * dir->stride, src, dir->stride * sizeof (guint64));
    dir->count++;
  }
  g_free (old);
}

/* The entry of line, created empty if needed. Pointers to entries stay valid until the
 * next call of this function (which may grow the table). */
static guint64 *
dir_get (Directory *dir, guint64 line)
{
  gsize mask;
  guint64 *e;

  if (G_UNLIKELY ((dir->count + 1) * 2 > dir->capacity))
    dir_grow (dir);
  mask = dir->capacity - 1;
  for (gsize i = dir_home (dir, line);; i = (i + 1) & mask) {
    e = dir->slots + i * dir->stride;
    if (e[0] == line + 1)
      return e;
    if (e[0] == 0)
      break;
  }
  e[0] = line + 1;
  dir->count++;
  return e;
}

/* ---- topology ---- */

/* The CCX (L3 domain) of physical core `core`. */
static inline guint
core_ccx (const NsMachine *m, guint core)
{
  return core / m->cores_per_ccx;
}

/* The socket holding CCX ccx. */
static inline guint
ccx_socket (const NsMachine *m, guint ccx)
{
  return ccx / m->ccx_per_socket;
}

/* The physical core of logical CPU cpu (CPU c + n_cores is the SMT sibling of CPU c). */
static inline guint
cpu_core (const NsMachine *m, guint cpu)
{
  return cpu % m->n_cores;
}

/* Distance between two physical cores. */
static inline NsDistance
core_distance (const NsMachine *m, guint a, guint b)
{
  guint ca = core_ccx (m, a), cb = core_ccx (m, b);

  if (a == b)
    return NS_DIST_SMT;
  if (ca == cb)
    return NS_DIST_CCX;
  return ccx_socket (m, ca) == ccx_socket (m, cb) ? NS_DIST_SOCKET : NS_DIST_REMOTE;
}

/* Distance from a core to another CCX's L3. */
static inline NsDistance
ccx_distance (const NsMachine *m, guint core, guint ccx)
{
  guint own = core_ccx (m, core);

  if (own == ccx)
    return NS_DIST_CCX;
  return ccx_socket (m, own) == ccx_socket (m, ccx) ? NS_DIST_SOCKET : NS_DIST_REMOTE;
}

/* ---- caches ---- */

/* Under mem.page_frames = random, the arena's pages at frames drawn from the page key
 * (the kernel image's text, outside the arena, stays contiguous). Marks the key used. */
static void
colour_pages (NsMachine *m, NsCache *cache)
{
  m->caches_made = TRUE;
  if (m->pages_random)
    ns_cache_colour_pages (cache, ARENA_BASE >> m->line_shift, ARENA_CAPACITY >> m->line_shift,
                           PAGE_BYTES >> m->line_shift, m->page_key);
}

/* The private caches of core, created on first use. */
static CoreCaches *
core_caches (NsMachine *m, guint core)
{
  CoreCaches *cc = &m->cores[core];

  if (G_UNLIKELY (cc->l2 == NULL)) {
    cc->l1d = ns_cache_new ("L1D", m->l1d_bytes, m->l1d_assoc, 1u << m->line_shift, m->policy);
    cc->l1i = ns_cache_new ("L1I", m->l1i_bytes, m->l1i_assoc, 1u << m->line_shift, m->policy);
    cc->l2 = ns_cache_new ("L2", m->l2_bytes, m->l2_assoc, 1u << m->line_shift, m->policy);
    colour_pages (m, cc->l1d);
    colour_pages (m, cc->l1i);
    colour_pages (m, cc->l2);
  }
  return cc;
}

/* The L3 of ccx, created on first use; NULL if the machine has no L3. */
static NsCache *
ccx_l3 (NsMachine *m, guint ccx)
{
  if (m->l3_bytes == 0)
    return NULL;
  if (G_UNLIKELY (m->l3[ccx] == NULL)) {
    m->l3[ccx] = ns_cache_new ("L3", m->l3_bytes, m->l3_assoc, 1u << m->line_shift, m->policy);
    colour_pages (m, m->l3[ccx]);
  }
  return m->l3[ccx];
}

/* TRUE if core's L2 (hence possibly its L1s) holds line. */
static inline gboolean
core_holds (const NsMachine *m, guint core, guint64 line)
{
  return m->cores[core].l2 != NULL && ns_cache_contains (m->cores[core].l2, line);
}

/* TRUE if ccx's L3 holds line. */
static inline gboolean
ccx_holds (const NsMachine *m, guint ccx, guint64 line)
{
  return m->l3_bytes != 0 && m->l3[ccx] != NULL && ns_cache_contains (m->l3[ccx], line);
}

/* The physical core of the line's Modified owner, after checking the owner still has it
 * (an owner whose L2 evicted the line has written it back: the entry is cleared). Returns
 * G_MAXUINT if the line is not Modified anywhere. */
static inline guint
verified_owner_core (NsMachine *m, guint64 *e, guint64 line)
{
  guint core;

  if (E_OWNER (e) == 0)
    return G_MAXUINT;
  core = cpu_core (m, (guint) E_OWNER (e) - 1);
  if (core_holds (m, core, line))
    return core;
  E_OWNER (e) = 0;
  return G_MAXUINT;
}

/* Removes line from core's private caches and from the directory's view of them. */
static void
core_drop (NsMachine *m, guint core, guint64 line, guint64 *e)
{
  CoreCaches *cc = &m->cores[core];

  if (cc->l2 != NULL) {
    ns_cache_invalidate (cc->l1d, line);
    ns_cache_invalidate (cc->l1i, line);
    ns_cache_invalidate (cc->l2, line);
  }
  mask_clear (E_CORES (e), core);
  if (E_OWNER (e) != 0 && cpu_core (m, (guint) E_OWNER (e) - 1) == core)
    E_OWNER (e) = 0;   /* written back */
}

/* An inclusive L3 evicted victim: take it out of the private caches of its cores. */
static void
on_l3_evict (NsMachine *m, guint ccx, guint64 victim)
{
  guint64 *e;
  guint first = ccx * m->cores_per_ccx;

  if (!m->inclusive)
    return;   /* a victim cache forgets silently; its directory bit is checked on use */
  e = dir_find (&m->dir, victim);
  g_assert (e != NULL);
  mask_clear (E_CCXS (&m->dir, e), ccx);
  for (guint core = first; core < first + m->cores_per_ccx; core++)
    if (mask_test (E_CORES (e), core))
      core_drop (m, core, victim, e);
}

/* Puts line into ccx's L3 (if there is one). */
static void
l3_insert (NsMachine *m, guint ccx, guint64 line)
{
  NsCache *l3 = ccx_l3 (m, ccx);
  guint64 victim;

  if (l3 != NULL && ns_cache_insert (l3, line, &victim))
    on_l3_evict (m, ccx, victim);
}

/* Inclusive L3: fills line (entry e) into ccx's L3 on a miss that went past it. */
static void
l3_fill (NsMachine *m, guint ccx, guint64 line, guint64 *e)
{
  if (m->l3_bytes == 0)
    return;
  l3_insert (m, ccx, line);
  mask_set (E_CCXS (&m->dir, e), ccx);
}

/* An L2 evicted victim: out of the core's L1s (L2 includes them); a victim-cache L3 gets
 * it. The directory is not touched: its core bit is checked against the L2 when used. */
static void
on_l2_evict (NsMachine *m, guint core, guint64 victim)
{
  CoreCaches *cc = &m->cores[core];

  ns_cache_invalidate (cc->l1d, victim);
  ns_cache_invalidate (cc->l1i, victim);
  if (!m->inclusive)
    l3_insert (m, core_ccx (m, core), victim);
}

/* Fills line (entry e) into x's L2 and L1 (L1I for instruction fetch). */
static void
private_fill (NsMachine *m, NsExec *x, guint64 line, guint64 *e, gboolean instr)
{
  CoreCaches *cc = x->caches;
  guint64 victim;

  if (ns_cache_insert (cc->l2, line, &victim))
    on_l2_evict (m, x->core, victim);
  ns_cache_insert (instr ? cc->l1i : cc->l1d, line, NULL);
  mask_set (E_CORES (e), x->core);
  if (!m->inclusive && m->l3_bytes != 0)
    mask_set (E_CCXS (&m->dir, e), x->ccx);   /* may reach this CCX's L3 when evicted */
}

/* The nearest other core or CCX holding a clean copy of line (NS_DIST_SAME if none).
 * Core bits found stale are cleared. */
static NsDistance
nearest_holder (NsMachine *m, NsExec *x, guint64 *e, guint64 line)
{
  NsDistance best = NS_DIST_SAME;
  guint64 *cores = E_CORES (e), *ccxs = E_CCXS (&m->dir, e);

  for (guint w = 0; w < m->dir.core_words; w++)
    for (guint64 bits = cores[w]; bits != 0; bits &= bits - 1) {
      guint core = w * 64 + (guint) __builtin_ctzll (bits);
      if (core == x->core)
        continue;
      if (!core_holds (m, core, line)) {
        mask_clear (cores, core);
        continue;
      }
      NsDistance d = core_distance (m, x->core, core);
      if (best == NS_DIST_SAME || d < best)
        best = d;
    }
  for (guint w = 0; w < m->dir.ccx_words; w++)
    for (guint64 bits = ccxs[w]; bits != 0; bits &= bits - 1) {
      guint ccx = w * 64 + (guint) __builtin_ctzll (bits);
      if (ccx == x->ccx || !ccx_holds (m, ccx, line))
        continue;
      NsDistance d = ccx_distance (m, x->core, ccx);
      if (best == NS_DIST_SAME || d < best)
        best = d;
    }
  return best;
}

/* An access that hit this core's L1: under cache.l2.sees_l1_hits the L2 copy (which
 * inclusion guarantees) becomes most recently used too. */
static inline void
l1_hit (NsMachine *m, CoreCaches *cc, guint64 line)
{
  if (m->l2_sees_l1_hits)
    ns_cache_touch (cc->l2, line);
}

/* Where a read was served from, and at what full latency. */
typedef struct {
  NsCause cause;     /* NS_CAUSE_L1..NS_CAUSE_DRAM, or NS_CAUSE_COHERENCE */
  double  cycles;
} Served;

/* Performs a read of line by x's core: look-up, coherence transition, fills. */
static Served
read_line (NsMachine *m, NsExec *x, guint64 line, gboolean instr)
{
  CoreCaches *cc = x->caches;
  guint64 *e;
  guint owner_core;
  NsDistance d;

  if (ns_cache_lookup (instr ? cc->l1i : cc->l1d, line)) {
    l1_hit (m, cc, line);
    return (Served) { NS_CAUSE_L1, m->lat[NS_CAUSE_L1] };
  }
  e = dir_get (&m->dir, line);
  owner_core = verified_owner_core (m, e, line);
  if (owner_core != G_MAXUINT && owner_core != x->core) {
    d = core_distance (m, x->core, owner_core);
    E_OWNER (e) = 0;   /* M → S: the owner keeps a shared copy */
    if (m->inclusive)
      l3_fill (m, x->ccx, line, e);
    private_fill (m, x, line, e, instr);
    return (Served) { NS_CAUSE_COHERENCE, m->c2c[d] };
  }
  if (ns_cache_lookup (cc->l2, line)) {
    ns_cache_insert (instr ? cc->l1i : cc->l1d, line, NULL);
    return (Served) { NS_CAUSE_L2, m->lat[NS_CAUSE_L2] };
  }
  if (x->l3 != NULL && ns_cache_lookup (x->l3, line)) {
    private_fill (m, x, line, e, instr);
    return (Served) { NS_CAUSE_L3, m->lat[NS_CAUSE_L3] };
  }
  d = nearest_holder (m, x, e, line);
  if (m->inclusive)
    l3_fill (m, x->ccx, line, e);
  private_fill (m, x, line, e, instr);
  if (d != NS_DIST_SAME)
    return (Served) { NS_CAUSE_COHERENCE, m->c2c[d] };
  return (Served) { NS_CAUSE_DRAM, m->lat[NS_CAUSE_DRAM] };
}

/* Outcome of taking ownership of a line. */
typedef struct {
  gboolean   owned;     /* this CPU already owned it: nothing happened */
  NsDistance far;       /* farthest other holder invalidated, NS_DIST_SAME if none */
  NsCause    level;     /* where this core's hierarchy had it: L1..DRAM */
} Rfo;

/* Brings line (entry e) into this core's L1 for writing (from L2/L3/DRAM as needed). */
static NsCause
fill_for_write (NsMachine *m, NsExec *x, guint64 line, guint64 *e)
{
  CoreCaches *cc = x->caches;

  if (ns_cache_lookup (cc->l1d, line)) {
    l1_hit (m, cc, line);
    return NS_CAUSE_L1;
  }
  if (ns_cache_lookup (cc->l2, line)) {
    ns_cache_insert (cc->l1d, line, NULL);
    return NS_CAUSE_L2;
  }
  if (x->l3 != NULL && ns_cache_lookup (x->l3, line)) {
    private_fill (m, x, line, e, FALSE);
    return NS_CAUSE_L3;
  }
  if (m->inclusive)
    l3_fill (m, x->ccx, line, e);
  private_fill (m, x, line, e, FALSE);
  return NS_CAUSE_DRAM;
}

/* Invalidates every other core's and CCX's copy of line; the farthest holder's distance. */
static NsDistance
invalidate_others (NsMachine *m, NsExec *x, guint64 line, guint64 *e)
{
  guint64 *cores = E_CORES (e), *ccxs = E_CCXS (&m->dir, e);
  NsDistance far = NS_DIST_SAME;

  for (guint w = 0; w < m->dir.core_words; w++)
    for (guint64 bits = cores[w]; bits != 0; bits &= bits - 1) {
      guint core = w * 64 + (guint) __builtin_ctzll (bits);
      if (core == x->core)
        continue;
      if (core_holds (m, core, line))
        far = MAX (far, core_distance (m, x->core, core));
      core_drop (m, core, line, e);
    }
  for (guint w = 0; w < m->dir.ccx_words; w++)
    for (guint64 bits = ccxs[w]; bits != 0; bits &= bits - 1) {
      guint ccx = w * 64 + (guint) __builtin_ctzll (bits);
      if (ccx == x->ccx)
        continue;
      if (ccx_holds (m, ccx, line)) {
        far = MAX (far, ccx_distance (m, x->core, ccx));
        ns_cache_invalidate (m->l3[ccx], line);
      }
      mask_clear (ccxs, ccx);
    }
  return far;
}

/* Invalidates every other copy of line and makes x's CPU its Modified owner. */
static Rfo
take_ownership (NsMachine *m, NsExec *x, guint64 line)
{
  guint64 *e = dir_get (&m->dir, line);
  Rfo r = { FALSE, NS_DIST_SAME, NS_CAUSE_L1 };
  guint owner_core;

  if (E_OWNER (e) == x->cpu + 1 && ns_cache_lookup (x->caches->l1d, line)) {
    l1_hit (m, x->caches, line);
    r.owned = TRUE;   /* fast path: owned and in L1 */
    return r;
  }
  owner_core = verified_owner_core (m, e, line);
  if (owner_core == x->core && E_OWNER (e) == x->cpu + 1) {
    r.owned = TRUE;
    r.level = fill_for_write (m, x, line, e);
    return r;
  }
  if (owner_core == x->core)
    r.far = NS_DIST_SMT;   /* last written by the SMT sibling */
  else
    r.far = invalidate_others (m, x, line, e);
  r.level = fill_for_write (m, x, line, e);
  E_OWNER (e) = x->cpu + 1;
  return r;
}

/* ---- per-thread execution state ---- */

/* Creates the execution state of a thread running on a machine's engine. */
static NsExec *
exec_new (NsThread *t)
{
  NsMachine *m = ns_engine_get_machine (ns_thread_engine (t));
  NsExec *x;
  guint cpu;

  if (m == NULL)
    goto no_machine;
  cpu = ns_thread_cpu (t);
  if (cpu >= m->n_cpus)
    goto bad_cpu;
  x = g_new0 (NsExec, 1);
  x->machine = m;
  x->cpu = cpu;
  x->core = cpu_core (m, cpu);
  x->ccx = core_ccx (m, x->core);
  x->caches = core_caches (m, x->core);
  x->l3 = ccx_l3 (m, x->ccx);
  g_ptr_array_add (m->execs, x);
  ns_thread_set_exec (t, x);
  return x;

/* ERRORS */
no_machine:
  g_critical ("thread %s runs on an engine without a machine "
              "(create it with ns_machine_create_engine)", ns_thread_name (t));
  return NULL;
bad_cpu:
  g_critical ("thread %s runs on CPU %u, the machine has %u", ns_thread_name (t), cpu,
              m->n_cpus);
  return NULL;
}

static inline void restart (NsExec *x);

/* The thread's execution state (created on first use); NULL if t has no machine. */
static inline NsExec *
exec_of (NsThread *t)
{
  NsExec *x = ns_thread_get_exec (t);

  if (G_UNLIKELY (x == NULL))
    x = exec_new (t);
  if (G_UNLIKELY (x->breaks != ns_thread_breaks (t))) {
    x->breaks = ns_thread_breaks (t);
    restart (x);          /* it waited, or another thread ran on its core: nothing overlaps */
  }
  return x;
}

/* Frees an NsExec and its frame stack (the free func of m->execs). */
static void
exec_free (gpointer p)
{
  NsExec *x = p;
  g_free (x->frames);
  g_free (x->callees);
  g_free (x->tailed);
  g_free (x->ran);
  g_free (x);
}

/* Pushes the frame of the call into func just made, inlined or out of line. */
static void
exec_push_frame (NsExec *x, NsFunc *func, gboolean inlined)
{
  if (G_UNLIKELY (x->depth == x->frames_alloc)) {
    x->frames_alloc = MAX (16, x->frames_alloc * 2);
    x->frames = g_renew (NsFunc *, x->frames, x->frames_alloc);
    x->callees = g_renew (NsFunc *, x->callees, x->frames_alloc);
    x->tailed = g_renew (gboolean, x->tailed, x->frames_alloc);
    x->ran = g_renew (double, x->ran, x->frames_alloc);
  }
  x->tailed[x->depth] = FALSE;
  x->ran[x->depth] = 0.0;
  x->callees[x->depth] = func;
  x->frames[x->depth++] = inlined ? func : NULL;
}

/* The depth of the innermost out-of-line frame (inlined frames run in its text), 0 if the
 * thread is in its own code. */
static inline guint
exec_outer_depth (const NsExec *x)
{
  guint d;

  for (d = x->depth; d > 0 && x->frames[d - 1] != NULL; d--)
    ;
  return d;
}

/* ---- the account ---- */

/* The account row of a function id, grown on demand. */
static inline AcctRow *
acct_row (NsMachine *m, guint id)
{
  if (G_UNLIKELY (id >= m->acct->len))
    g_array_set_size (m->acct, MAX (id + 1, m->acct->len * 2));
  return &g_array_index (m->acct, AcctRow, id);
}

/* The account row of a calling context, grown on demand. */
static inline CtxRow *
ctx_row (NsMachine *m, guint id)
{
  if (G_UNLIKELY (id >= m->ctx_acct->len))
    g_array_set_size (m->ctx_acct, MAX (id + 1, m->ctx_acct->len * 2));
  return &g_array_index (m->ctx_acct, CtxRow, id);
}

/* The account row of the function running on t. */
static inline AcctRow *
current_row (NsMachine *m, NsThread *t)
{
  NsFunc *func = ns_thread_current_func (t);

  if (func == NULL)
    return acct_row (m, 0);
  if (G_UNLIKELY (func->id == 0))
    ns_func_register (func);
  return acct_row (m, func->id);
}

/* Adds cycles of cause to the account: the row of the function t runs (self), and the
 * body of the inlined function x runs, if its innermost frame is one. */
static inline void
account (NsExec *x, NsThread *t, NsCause cause, double cycles)
{
  NsFunc *inl = x->depth > 0 ? x->frames[x->depth - 1] : NULL;

  current_row (x->machine, t)->cycles[cause] += cycles;
  if (inl != NULL)
    acct_row (x->machine, inl->id)->body[cause] += cycles;
  ctx_row (x->machine, ns_thread_context (t))->cycles[cause] += cycles;
}

/* TRUE if cycles of cause are back-end work, during which a front end on a predicted
 * path fetches ahead: instructions, data accesses, copies, predicted calls. */
static inline gboolean
is_backend_work (NsCause cause)
{
  return cause <= NS_CAUSE_COPY || cause == NS_CAUSE_CALL;
}

/* Charges cycles of cause to the account and advances the thread; back-end work adds to
 * the front end's lead, up to a full reorder buffer's worth. */
static inline void
charge (NsExec *x, NsThread *t, NsCause cause, double cycles)
{
  if (cycles <= 0.0)
    return;
  account (x, t, cause, cycles);
  ns_thread_advance (t, cycles);
  if (is_backend_work (cause))
    x->lead = MIN (x->lead + cycles, x->machine->lead_max);
}

/* A load stalled `beyond` cycles past an L1 hit: work that does not depend on it (issued
 * within cpu.rob_entries instructions) can run meanwhile, up to a full reorder buffer. An
 * older miss's shadow adds only while it is live (within cpu.rob_entries instructions of
 * that miss); one that expired unused is gone. */
static inline void
cast_shadow (NsExec *x, double beyond)
{
  if (x->insns - x->shadow_insns >= x->machine->rob)
    x->shadow = 0.0;
  x->shadow = MIN (x->shadow + beyond, x->machine->lead_max);
  x->shadow_insns = x->insns;
}

/* How much of `cycles` of work that needs nothing a data miss brings runs in the miss's
 * live shadow (taken from it, and accounted to cause as overlapped). */
static inline double
shadow_hides (NsExec *x, NsCause cause, double cycles)
{
  double hidden = 0.0;

  if (x->insns - x->shadow_insns < x->machine->rob)
    hidden = MIN (x->shadow, cycles);
  x->shadow -= hidden;
  x->machine->overlapped[cause] += hidden;
  return hidden;
}

/* Charges cycles of beside-work (issued at cpu.issue_width off the critical path: a call's
 * own instructions, ns_insns_beside) less what runs in the shadow of a data miss. */
static inline void
charge_beside (NsExec *x, NsThread *t, NsCause cause, double cycles)
{
  charge (x, t, cause, cycles - shadow_hides (x, cause, cycles));
}

/* The pipeline drains (a locked instruction, or a restart): nothing older overlaps what
 * follows. */
static inline void
drain (NsExec *x)
{
  x->win_open = FALSE;
  x->shadow = 0.0;
}

/* The front end restarts (mispredict, forced mispredict, system call, wait): the pipeline
 * drains and fetch starts with no lead. */
static inline void
restart (NsExec *x)
{
  drain (x);
  x->lead = 0.0;
}

/* ---- construction ---- */

/* Says something about the machine's parameters that a run should carry: a note of the
 * build (once per run, in its results, not on standard error each time a machine is
 * built), or a message for a machine built without one. */
static void G_GNUC_PRINTF (2, 3)
machine_note (const NsMachine *m, const char *format, ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  if (m->build != NULL)
    ns_build_note (m->build, text);
  else
    g_message ("%s", text);
}

/* Reads the cache geometry of one level; FALSE (error set) if it holds no whole set. */
static gboolean
read_level (NsMachine *m, const char *level, gsize *bytes, guint *assoc, gboolean may_be_empty,
            GError **error)
{
  char *size_name = g_strdup_printf ("cache.%s.size_kib", level);
  char *assoc_name = g_strdup_printf ("cache.%s.assoc", level);
  gboolean ok = TRUE;

  *bytes = (gsize) ns_params_get_int (m->params, size_name) * 1024;
  *assoc = (guint) ns_params_get_int (m->params, assoc_name);
  if (*bytes == 0 && may_be_empty)
    goto out;
  if (*bytes < (gsize) *assoc << m->line_shift) {
    g_set_error (error, NS_ERROR, NS_ERROR_INPUT,
                 "%s = %" G_GSIZE_FORMAT " KiB cannot hold one set of %s = %u ways of "
                 "cache.line_bytes = %u bytes", size_name, *bytes / 1024, assoc_name, *assoc, 1u << m->line_shift);
    ns_error_set_params (error, size_name, assoc_name, "cache.line_bytes", NULL);
    ok = FALSE;
  } else if (*bytes % ((gsize) *assoc << m->line_shift) != 0) {
    machine_note (m, "%s: %" G_GSIZE_FORMAT " KiB is not a whole number of %u-way sets; "
                  "the remainder is unused", level, *bytes / 1024, *assoc);
  }
out:
  g_free (size_name);
  g_free (assoc_name);
  return ok;
}

/* One line's transfer at the distance of c2c parameter param, cycles, load-to-use as the
 * cache latencies: the parameter is half a round trip of a CAS ping-pong, the transfer
 * plus the part of the locked RMW that takes the line (lock.atomic_cycles, measured on a
 * line in L1, less its own L1 read, which the transfer replaces); so the transfer is
 * what is left plus an L1 hit. A value below one locked RMW (a clock or lock cost set
 * apart from the c2c values) gives a transfer no dearer than an L1 hit, with a note of
 * the run's build (machine_note). Needs m->lat and m->atomic_cycles. */
static double
transfer_cycles (const NsMachine *m, const NsParams *p, const char *param)
{
  double pingpong = ns_params_get_double (p, param) * m->ghz;

  if (pingpong < m->atomic_cycles)
    machine_note (m, "%s: %g ns is %.1f cycles at cpu.freq_ghz %g, less than one locked "
                  "RMW (lock.atomic_cycles %g), which its ping-pong includes: the model "
                  "takes the transfer beyond an L1 hit as free", param,
                  ns_params_get_double (p, param), pingpong, m->ghz, m->atomic_cycles);
  return m->lat[NS_CAUSE_L1] + MAX (0.0, pingpong - m->atomic_cycles);
}

/* The per-return extra cycles of the return mitigation in force. */
static double
ret_penalty (const NsMachine *m, const NsParams *p)
{
  if (m->mit.srso == NS_SRSO_SAFE_RET)
    return m->mispredict + m->resolve + ns_params_get_double (p, "ret.safe_ret_insns") / m->ipc;
  if (m->mit.retbleed == NS_RETBLEED_UNRET)
    return ns_params_get_double (p, "ret.unret_insns") / m->ipc;
  if (m->mit.retbleed == NS_RETBLEED_STUFF)
    return ns_params_get_double (p, "ret.stuff_cycles");
  return 0.0;
}

/* Instructions a generic retpoline adds to an indirect call: the thunk's, and those of
 * the return thunk its own RET jumps to (arch/x86/lib/retpoline.S ends the thunk with the
 * RET macro, a return site the kernel points at the return thunk in force): SRSO Safe
 * RET's, else retbleed=unret's jmp; the forced mispredict is still one. Call depth
 * tracking's thunk (__x86_indirect_call_thunk_*) ends in a plain ret. */
static double
retpoline_insns (const NsMachine *m, const NsParams *p)
{
  double n = ns_params_get_double (p, "icall.retpoline_insns");

  if (m->mit.srso == NS_SRSO_SAFE_RET)
    n += ns_params_get_double (p, "ret.safe_ret_insns");
  else if (m->mit.retbleed == NS_RETBLEED_UNRET)
    n += ns_params_get_double (p, "ret.unret_insns");
  return n;
}

/* The INDIRECT cycles of one indirect call under the spectre_v2 mode in force. The eIBRS
 * modes with thunks (spectre_v2=eibrs,retpoline / eibrs,lfence) cost their thunk's price
 * and nothing more: eIBRS is a bit set once in SPEC_CTRL (no MSR write per call or entry),
 * and what it restricts, the indirect-branch predictor, is what the thunk does not use
 * (the generic retpoline's RET is a forced mispredict into its capture loop; the LFENCE
 * thunk's jmp *%reg, predicted or not, waits for the LFENCE first, which
 * icall.lfence_cycles holds). */
static double
icall_penalty (const NsMachine *m, const NsParams *p)
{
  double predicted = ns_params_get_double (p, "icall.predicted_cycles");

  switch (m->mit.spectre_v2) {
  case NS_SPECTRE_V2_RETPOLINE:
  case NS_SPECTRE_V2_EIBRS_RETPOLINE:
    return m->mispredict + m->resolve + retpoline_insns (m, p) / m->ipc;
  case NS_SPECTRE_V2_LFENCE:
  case NS_SPECTRE_V2_EIBRS_LFENCE:
    return ns_params_get_double (p, "icall.lfence_cycles");
  case NS_SPECTRE_V2_IBRS:           /* on eIBRS hardware, IBRS=1 is the enhanced kind */
    if (m->mit.ibrs_enhanced)
      return predicted;
    return predicted + ns_params_get_double (p, "icall.ibrs_cycles");
  case NS_SPECTRE_V2_OFF:
  case NS_SPECTRE_V2_EIBRS:
  default:
    return predicted;
  }
}

/* UNTRAIN_RET's cycles at kernel entry: its instructions, an LFENCE and one return
 * through the return thunk under retbleed=unret or SRSO Safe RET; else none. Sets
 * m->untrain_insns for the event counts. (Under unret the return's price, the jmp, stands
 * for the thunk's ret: syscall.untrain_insns counts the jmp into the thunk already.) */
static double
untrain_cycles (NsMachine *m, const NsParams *p)
{
  m->untrain_insns = 0;
  if (m->mit.srso != NS_SRSO_SAFE_RET && m->mit.retbleed != NS_RETBLEED_UNRET)
    return 0.0;
  m->untrain_insns = (guint) ns_params_get_int (p, "syscall.untrain_insns");
  return m->untrain_insns / m->ipc +
         ns_params_get_double (p, "icall.lfence_cycles") + m->ret_penalty;
}

/* SYSCALL cycles at entry and exit: the base and PTI and legacy IBRS (spectre_v2 or
 * retbleed IBRS) split half each way; UNTRAIN_RET, IBPB (srso or retbleed ibpb, one
 * barrier for both) and the BHI loop at
 * entry; VERW (MDS) at exit. Needs m->ret_penalty. */
static void
syscall_costs (NsMachine *m, const NsParams *p)
{
  double base = ns_params_get_double (p, "syscall.base_cycles");
  double pti = m->mit.pti ? ns_params_get_double (p, "syscall.pti_cycles") : 0.0;
  gboolean ibrs_on = m->mit.spectre_v2 == NS_SPECTRE_V2_IBRS ||
                     m->mit.retbleed == NS_RETBLEED_IBRS;
  double ibrs = ibrs_on ? ns_params_get_double (p, "syscall.ibrs_cycles") : 0.0;

  m->sys_enter = m->sys_exit = (base + pti + ibrs) / 2.0;
  m->sys_enter += untrain_cycles (m, p);
  if (m->mit.srso == NS_SRSO_IBPB || m->mit.retbleed == NS_RETBLEED_IBPB)
    m->sys_enter += ns_params_get_double (p, "syscall.ibpb_cycles");
  if (m->mit.bhi == NS_BHI_LOOP)
    m->sys_enter += ns_params_get_double (p, "syscall.bhi_loop_cycles");
  if (m->mit.mds_verw)
    m->sys_exit += ns_params_get_double (p, "syscall.verw_cycles");
}

/* Reads topology and clock; FALSE (error set) on a topology the model cannot hold. */
static gboolean
read_topology (NsMachine *m, const NsParams *p, GError **error)
{
  guint sockets = (guint) ns_params_get_int (p, "cpu.sockets");

  m->ccx_per_socket = (guint) ns_params_get_int (p, "cpu.ccx_per_socket");
  m->cores_per_ccx = (guint) ns_params_get_int (p, "cpu.cores_per_ccx");
  m->smt = (guint) ns_params_get_int (p, "cpu.smt");
  if (m->mit.smt_off)
    m->smt = 1;                     /* the kernel took the siblings offline */
  m->n_ccx = sockets * m->ccx_per_socket;
  m->n_cores = m->n_ccx * m->cores_per_ccx;
  m->n_cpus = m->n_cores * m->smt;
  m->ghz = ns_params_get_double (p, "cpu.freq_ghz");
  if (m->n_cores > MAX_CORES)
    goto too_big;
  return TRUE;

/* ERRORS */
too_big:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT,
               "topology of %u cores (cpu.sockets = %u x cpu.ccx_per_socket = %u x "
               "cpu.cores_per_ccx = %u) is larger than the model holds (%u)", m->n_cores,
               sockets, m->ccx_per_socket, m->cores_per_ccx, MAX_CORES);
  ns_error_set_params (error, "cpu.sockets", "cpu.ccx_per_socket", "cpu.cores_per_ccx", NULL);
  return FALSE;
}

/* Reads the string parameter name: its index in *index among the registry's choices for
 * it. (Those choices keep other values out of a set; this guards the rest.) */
static gboolean
read_choice (const NsParams *p, const char *name, guint *index, GError **error)
{
  const char *const *choices = ns_param_lookup (name)->choices;
  const char *value = ns_params_get_string (p, name);
  g_autofree char *list = NULL;

  for (guint i = 0; choices[i] != NULL; i++)
    if (!strcmp (value, choices[i])) {
      *index = i;
      return TRUE;
    }
  list = g_strjoinv (" or ", (char **) choices);
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s = '%s': expected %s", name, value, list);
  ns_error_set_params (error, name, NULL);
  return FALSE;
}

/* Reads cache geometry and policy. */
static gboolean
read_caches (NsMachine *m, const NsParams *p, GError **error)
{
  gint64 line_bytes = ns_params_get_int (p, "cache.line_bytes");
  guint policy, frame;

  m->line_shift = 0;
  while ((G_GINT64_CONSTANT (1) << m->line_shift) < line_bytes)
    m->line_shift++;
  if (!read_choice (p, "cache.policy", &policy, error) ||
      !read_choice (p, "mem.page_frames", &frame, error))
    return FALSE;
  m->policy = (NsCachePolicy) policy;          /* the registry lists them in that order */
  m->pages_random = frame == 0;                 /* "random", then "contiguous" */
  m->inclusive = ns_params_get_bool (p, "cache.l3.inclusive");
  m->l2_sees_l1_hits = ns_params_get_bool (p, "cache.l2.sees_l1_hits");
  if (!read_level (m, "l1d", &m->l1d_bytes, &m->l1d_assoc, FALSE, error) ||
      !read_level (m, "l1i", &m->l1i_bytes, &m->l1i_assoc, FALSE, error) ||
      !read_level (m, "l2", &m->l2_bytes, &m->l2_assoc, FALSE, error) ||
      !read_level (m, "l3", &m->l3_bytes, &m->l3_assoc, TRUE, error))
    return FALSE;
  if (m->policy == NS_CACHE_PLRU) {
    guint assocs[] = { m->l1d_assoc, m->l1i_assoc, m->l2_assoc, m->l3_assoc };
    const char *names[] = { "l1d", "l1i", "l2", "l3" };
    for (guint i = 0; i < G_N_ELEMENTS (assocs); i++)
      if ((assocs[i] & (assocs[i] - 1)) != 0)
        machine_note (m, "cache.%s: %u ways is not a power of two; tree PLRU needs one, "
                      "using LRU for that level", names[i], assocs[i]);
  }
  return TRUE;
}

/* Converts every cost parameter to cycles. */
static void
read_costs (NsMachine *m, const NsParams *p)
{
  m->ipc = ns_params_get_double (p, "cpu.ipc");
  m->mlp = ns_params_get_double (p, "cpu.mlp");
  m->copy_mlp = ns_params_get_double (p, "mem.copy_mlp");
  m->ifetch_seq_mlp = ns_params_get_double (p, "ifetch.seq_mlp");
  m->text_per_insn = ns_params_get_double (p, "ifetch.text_bytes_per_insn");
  m->lat[NS_CAUSE_L1] = ns_params_get_double (p, "cache.l1d.latency_cycles");
  m->lat[NS_CAUSE_L2] = ns_params_get_double (p, "cache.l2.latency_cycles");
  m->lat[NS_CAUSE_L3] = ns_params_get_double (p, "cache.l3.latency_cycles");
  m->lat[NS_CAUSE_DRAM] = ns_params_get_double (p, "mem.dram_latency_ns") * m->ghz;
  m->bw[NS_CAUSE_L1] = ns_params_get_double (p, "mem.bw_l1_bytes_per_cycle");
  m->bw[NS_CAUSE_L2] = ns_params_get_double (p, "mem.bw_l2_bytes_per_cycle");
  m->bw[NS_CAUSE_L3] = ns_params_get_double (p, "mem.bw_l3_bytes_per_cycle");
  m->bw[NS_CAUSE_DRAM] = ns_params_get_double (p, "mem.bw_dram_gbps") / m->ghz;
  m->atomic_cycles = ns_params_get_double (p, "lock.atomic_cycles");
  m->c2c[NS_DIST_SAME] = 0.0;
  m->c2c[NS_DIST_SMT] = transfer_cycles (m, p, "c2c.smt_ns");
  m->c2c[NS_DIST_CCX] = transfer_cycles (m, p, "c2c.ccx_ns");
  m->c2c[NS_DIST_SOCKET] = transfer_cycles (m, p, "c2c.socket_ns");
  m->c2c[NS_DIST_REMOTE] = transfer_cycles (m, p, "c2c.remote_ns");
  m->mispredict = ns_params_get_double (p, "branch.mispredict_cycles");
  m->resolve = ns_params_get_double (p, "branch.resolve_cycles");
  m->rdtsc = ns_params_get_double (p, "x86.rdtsc_cycles");
  m->pause = ns_params_get_double (p, "x86.pause_cycles");
  m->rep_short = ns_params_get_double (p, "x86.rep_short_cycles");
  m->rep_long = ns_params_get_double (p, "x86.rep_long_cycles");
  m->rep_bytes = (guint64) ns_params_get_int (p, "x86.rep_long_bytes");
  m->issue_width = ns_params_get_double (p, "cpu.issue_width");
  m->stride_prefetch = ns_params_get_bool (p, "prefetch.l1_stride");
  m->stride_in_page = ns_params_get_bool (p, "prefetch.l1_stride_in_page");
  m->frame_insns = (guint) ns_params_get_int (p, "call.prologue_insns");
  m->call_cycles = ns_params_get_double (p, "call.cycles");
  m->quantum = (NsTime) llround (ns_params_get_double (p, "sched.quantum_ns") * 1000.0);
  m->ret_penalty = ret_penalty (m, p);
  m->icall_penalty = icall_penalty (m, p);
  m->icall_forced = m->mit.spectre_v2 == NS_SPECTRE_V2_RETPOLINE ||
                    m->mit.spectre_v2 == NS_SPECTRE_V2_EIBRS_RETPOLINE;
  m->icall_fenced = m->mit.spectre_v2 == NS_SPECTRE_V2_LFENCE ||
                    m->mit.spectre_v2 == NS_SPECTRE_V2_EIBRS_LFENCE;
  m->ret_forced = m->mit.srso == NS_SRSO_SAFE_RET;
  m->rob = (guint64) ns_params_get_int (p, "cpu.rob_entries");
  m->lead_max = (double) m->rob / m->ipc;
  syscall_costs (m, p);
}

/* Copies the mitigations in force (NULL = all off). */
static void
copy_mitigations (NsMitigations *dst, const NsMitigations *src)
{
  if (src == NULL) {
    static const char *const none[] = { "mitigations: none given to the machine", NULL };
    memset (dst, 0, sizeof *dst);
    dst->explain = g_strdupv ((char **) none);
    return;
  }
  *dst = *src;
  dst->explain = g_strdupv (src->explain);
  dst->notes = g_strdupv (src->notes);
}

/* Reserves the simulated address space, halving the request silently while the host
 * refuses it (a ulimit -v: an expected fallback); an error only if even ARENA_MIN fails. */
static gboolean
create_arena (NsMachine *m, GError **error)
{
  int reason = 0;

  for (guint64 cap = ARENA_CAPACITY; cap >= ARENA_MIN; cap /= 2) {
    m->arena = ns_arena_new (ARENA_BASE, cap);
    if (m->arena != NULL)
      return TRUE;
    reason = errno;
  }
  g_set_error (error, NS_ERROR, NS_ERROR_INTERNAL,
               "cannot reserve address space for the simulated memory (%" G_GUINT64_FORMAT
               " MiB at least): %s", ARENA_MIN >> 20, g_strerror (reason));
  return FALSE;
}

/* CONFIG_X86_KERNEL_IBT as build states it, on a release with the option (156ff4a544ae,
 * v5.18-rc1): 1 y, 0 n; -1 not stated, no build or an older release (each frame then as
 * its census binary ran it). A value other than y or n is refused by the run. */
static gint
build_ibt (NsBuild *build)
{
  const char *key = "CONFIG_X86_KERNEL_IBT";

  if (build == NULL || !ns_build_has_change (build, NS_KCHANGE_X86_KERNEL_IBT) ||
      ns_build_get_config (build, key) == NULL)
    return -1;
  return ns_build_config_tristate (build, key, NS_KCONFIG_N) == NS_KCONFIG_Y ? 1 : 0;
}

/* Builds a machine; see machine.h. */
NsMachine *
ns_machine_new (const NsParams *params, const NsMitigations *mit, NsBuild *build,
                GError **error)
{
  NsMachine *m;

  g_return_val_if_fail (params != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  m = g_new0 (NsMachine, 1);
  m->params = ns_params_copy (params);
  ns_params_track_reads (m->params);   /* the run reports a --set nothing read */
  copy_mitigations (&m->mit, mit);
  m->build = build;
  m->ibt = build_ibt (build);
  m->acct = g_array_sized_new (FALSE, TRUE, sizeof (AcctRow), 64);
  g_array_set_size (m->acct, 64);
  m->ctx_acct = g_array_sized_new (FALSE, TRUE, sizeof (CtxRow), 256);
  m->execs = g_ptr_array_new_with_free_func (exec_free);
  if (!read_topology (m, m->params, error) || !read_caches (m, m->params, error))
    goto failed;
  read_costs (m, m->params);
  if (!create_arena (m, error))
    goto failed;
  m->cores = g_new0 (CoreCaches, m->n_cores);
  m->l3 = g_new0 (NsCache *, m->n_ccx);
  m->dir.core_words = (m->n_cores + 63) / 64;
  m->dir.ccx_words = (m->n_ccx + 63) / 64;
  m->dir.stride = 2 + m->dir.core_words + m->dir.ccx_words;
  dir_alloc (&m->dir, DIR_INITIAL);
  return m;

/* ERRORS */
failed:
  ns_machine_free (m);
  return NULL;
}

/* Draws the frames of simulated memory's pages from key; see machine.h. */
void
ns_machine_set_page_key (NsMachine *machine, guint64 key)
{
  g_return_if_fail (machine != NULL);
  g_return_if_fail (!machine->caches_made);
  machine->page_key = key;
}

/* See machine.h: the stream's seed derived from the page key. */
guint64
ns_machine_layout_key (const NsMachine *machine, guint64 stream)
{
  g_return_val_if_fail (machine != NULL, 0);
  return ns_derive_seed (machine->page_key, stream);
}

/* Frees the machine, its caches, arena and the threads' execution states (the engine is
 * the caller's). */
void
ns_machine_free (NsMachine *machine)
{
  if (machine == NULL)
    return;
  g_datalist_clear (&machine->data);
  for (guint i = 0; machine->cores && i < machine->n_cores; i++) {
    ns_cache_free (machine->cores[i].l1d);
    ns_cache_free (machine->cores[i].l1i);
    ns_cache_free (machine->cores[i].l2);
    g_free (machine->cores[i].strides);
  }
  for (guint i = 0; machine->l3 && i < machine->n_ccx; i++)
    ns_cache_free (machine->l3[i]);
  g_free (machine->cores);
  g_free (machine->l3);
  g_free (machine->dir.slots);
  ns_arena_free (machine->arena);
  g_ptr_array_unref (machine->execs);
  g_array_unref (machine->acct);
  g_array_unref (machine->ctx_acct);
  ns_mitigations_clear (&machine->mit);
  ns_params_free (machine->params);
  g_free (machine);
}

/* See machine.h. */
void
ns_machine_set_data (NsMachine *machine, const char *key, gpointer data,
                     GDestroyNotify destroy)
{
  g_return_if_fail (machine != NULL && key != NULL);
  g_datalist_set_data_full (&machine->data, key, data, destroy);
}

/* See machine.h. */
gpointer
ns_machine_get_data (NsMachine *machine, const char *key)
{
  g_return_val_if_fail (machine != NULL && key != NULL, NULL);
  return g_datalist_get_data (&machine->data, key);
}

/* An engine with one CPU per logical CPU at the machine's clock, the machine attached. */
NsEngine *
ns_machine_create_engine (NsMachine *machine)
{
  NsEngine *engine;
  double *ghz;

  g_return_val_if_fail (machine != NULL, NULL);
  ghz = g_new (double, machine->n_cpus);
  for (guint i = 0; i < machine->n_cpus; i++)
    ghz[i] = machine->ghz;
  engine = ns_engine_new (machine->n_cpus, ghz, machine->quantum);
  ns_engine_set_machine (engine, machine);
  g_free (ghz);
  return engine;
}

/* The simulated address space. */
NsArena *
ns_machine_arena (NsMachine *machine)
{
  g_return_val_if_fail (machine != NULL, NULL);
  return machine->arena;
}

/* The kernel build (may be NULL). */
NsBuild *
ns_machine_build (NsMachine *machine)
{
  g_return_val_if_fail (machine != NULL, NULL);
  return machine->build;
}

/* The mitigations in force. */
const NsMitigations *
ns_machine_mitigations (NsMachine *machine)
{
  g_return_val_if_fail (machine != NULL, NULL);
  return &machine->mit;
}

/* The machine's own copy of its parameters. */
const NsParams *
ns_machine_params (NsMachine *machine)
{
  g_return_val_if_fail (machine != NULL, NULL);
  return machine->params;
}

/* ---- topology queries ---- */

/* Number of logical CPUs: physical cores × cpu.smt (× 1 with SMT off, NsMitigations). */
guint
ns_machine_n_cpus (NsMachine *machine)
{
  g_return_val_if_fail (machine != NULL, 0);
  return machine->n_cpus;
}

/* See machine.h. */
const char *
ns_machine_cpus_note (NsMachine *machine)
{
  g_return_val_if_fail (machine != NULL, "");
  return machine->mit.smt_off ?
         "; the kernel command line's nosmt took the SMT siblings offline" : "";
}

/* Number of physical cores over all sockets. */
guint
ns_machine_n_cores (NsMachine *machine)
{
  g_return_val_if_fail (machine != NULL, 0);
  return machine->n_cores;
}

/* The clock of every CPU in GHz (cpu.freq_ghz). */
double
ns_machine_ghz (NsMachine *machine)
{
  g_return_val_if_fail (machine != NULL, 0.0);
  return machine->ghz;
}

/* The physical core of a logical CPU. */
guint
ns_machine_core_of (NsMachine *machine, guint cpu)
{
  g_return_val_if_fail (machine != NULL && cpu < machine->n_cpus, 0);
  return cpu_core (machine, cpu);
}

/* The L3 domain of a logical CPU. */
guint
ns_machine_ccx_of (NsMachine *machine, guint cpu)
{
  g_return_val_if_fail (machine != NULL && cpu < machine->n_cpus, 0);
  return core_ccx (machine, cpu_core (machine, cpu));
}

/* The socket of a logical CPU. */
guint
ns_machine_socket_of (NsMachine *machine, guint cpu)
{
  g_return_val_if_fail (machine != NULL && cpu < machine->n_cpus, 0);
  return ccx_socket (machine, core_ccx (machine, cpu_core (machine, cpu)));
}

/* How far apart two logical CPUs are. */
NsDistance
ns_machine_distance (NsMachine *machine, guint cpu_a, guint cpu_b)
{
  g_return_val_if_fail (machine != NULL, NS_DIST_SAME);
  g_return_val_if_fail (cpu_a < machine->n_cpus && cpu_b < machine->n_cpus, NS_DIST_SAME);
  if (cpu_a == cpu_b)
    return NS_DIST_SAME;
  return core_distance (machine, cpu_core (machine, cpu_a), cpu_core (machine, cpu_b));
}

/* One line's transfer between two logical CPUs, load-to-use cycles; see machine.h. */
double
ns_machine_transfer_cycles (NsMachine *machine, guint cpu_a, guint cpu_b)
{
  g_return_val_if_fail (machine != NULL, 0.0);
  return machine->c2c[ns_machine_distance (machine, cpu_a, cpu_b)];
}

/* The lowest-numbered logical CPU at distance dist from cpu. */
gboolean
ns_machine_cpu_at (NsMachine *machine, guint cpu, NsDistance dist, guint *out)
{
  g_return_val_if_fail (machine != NULL && cpu < machine->n_cpus, FALSE);
  for (guint other = 0; other < machine->n_cpus; other++)
    if (ns_machine_distance (machine, cpu, other) == dist) {
      if (out)
        *out = other;
      return TRUE;
    }
  return FALSE;
}

/* Full latency of a load served by level (NS_CAUSE_L1..NS_CAUSE_DRAM), in cycles. */
double
ns_machine_level_cycles (NsMachine *machine, NsCause level)
{
  g_return_val_if_fail (machine != NULL, 0.0);
  g_return_val_if_fail (level >= NS_CAUSE_L1 && level <= NS_CAUSE_DRAM, 0.0);
  return machine->lat[level];
}

/* Extra cycles per out-of-line return under the return mitigation in force. */
double
ns_machine_ret_penalty_cycles (NsMachine *machine)
{
  g_return_val_if_fail (machine != NULL, 0.0);
  return machine->ret_penalty;
}

/* Extra cycles per indirect call over a direct one under the spectre_v2 mode in force. */
double
ns_machine_icall_penalty_cycles (NsMachine *machine)
{
  g_return_val_if_fail (machine != NULL, 0.0);
  return machine->icall_penalty;
}

/* ---- cost calls ---- */

/* Simulated line range [*first, *last] of [p, p + size); FALSE if empty or not simulated. */
static inline gboolean
line_range (NsMachine *m, gconstpointer p, gsize size, guint64 *first, guint64 *last)
{
  guint64 addr;

  if (size == 0)
    return FALSE;
  if (G_UNLIKELY (!ns_arena_contains (m->arena, p)))
    goto not_simulated;
  addr = ns_arena_charged_addr (m->arena, p);  /* a field where its release keeps it */
  *first = addr >> m->line_shift;
  *last = (addr + size - 1) >> m->line_shift;
  return TRUE;

/* ERRORS */
not_simulated:
  g_critical ("%p is not simulated memory: allocate model objects from ns_machine_arena()", p);
  return FALSE;
}

static void run_text (NsMachine *m, NsExec *x, NsThread *t, guint n);

/* Counts n instructions run on t, their text fetched first; its execution state, NULL if
 * it has none. */
static NsExec *
count_insns (NsThread *t, guint n)
{
  NsExec *x;

  g_return_val_if_fail (t != NULL, NULL);
  if (G_UNLIKELY ((x = exec_of (t)) == NULL))
    return NULL;
  run_text (x->machine, x, t, n);
  x->machine->events[NS_CAUSE_INSN] += n;
  x->insns += n;
  return x;
}

/* n instructions at the base IPC. */
void
ns_insns (NsThread *t, guint n)
{
  NsExec *x = count_insns (t, n);

  if (x != NULL)
    charge (x, t, NS_CAUSE_INSN, n / x->machine->ipc);
}

/* One instruction of x's thread t of a fixed cost (microcoded, or a delay) that does not
 * scale with the base IPC: counted, charged as cause insn. */
static void
fixed_cost_insn (NsExec *x, NsThread *t, double cycles)
{
  run_text (x->machine, x, t, 1);
  x->machine->events[NS_CAUSE_INSN] += 1;
  x->insns += 1;
  charge (x, t, NS_CAUSE_INSN, cycles);
}

/* One RDTSC (sched_clock): x86.rdtsc_cycles, a microcoded read whose cost does not scale
 * with the base IPC. */
void
ns_rdtsc (NsThread *t)
{
  NsExec *x;

  g_return_if_fail (t != NULL);
  if (G_LIKELY ((x = exec_of (t)) != NULL))
    fixed_cost_insn (x, t, x->machine->rdtsc);
}

/* An ordered TSC read (the kernel's rdtsc_ordered: RDTSCP, or LFENCE; RDTSC): as
 * ns_rdtsc, and it waits for every older instruction and load, so no later miss overlaps
 * an earlier one (the window closes). */
void
ns_rdtsc_ordered (NsThread *t)
{
  NsExec *x;

  g_return_if_fail (t != NULL);
  if (G_UNLIKELY ((x = exec_of (t)) == NULL))
    return;
  fixed_cost_insn (x, t, x->machine->rdtsc);
  drain (x);
}

/* One PAUSE (cpu_relax): x86.pause_cycles, a delay that does not scale with the base IPC;
 * counted as one instruction. */
void
ns_pause (NsThread *t)
{
  NsExec *x;

  g_return_if_fail (t != NULL);
  if (G_LIKELY ((x = exec_of (t)) != NULL))
    fixed_cost_insn (x, t, x->machine->pause);
}

/* One REP STOS or REP MOVS of n bytes: an instruction of x86.rep_short_cycles below
 * x86.rep_long_bytes, of x86.rep_long_cycles from there (its microcode, whatever the base
 * IPC); the loads and stores of its bytes are the caller's (ns_store, ns_copy). */
void
ns_rep_string (NsThread *t, gsize n)
{
  NsExec *x;
  NsMachine *m;

  g_return_if_fail (t != NULL);
  if (G_UNLIKELY ((x = exec_of (t)) == NULL))
    return;
  m = x->machine;
  fixed_cost_insn (x, t, n < m->rep_bytes ? m->rep_short : m->rep_long);
}

/* n independent, well-predicted instructions off the critical path (compare chains,
 * bookkeeping beside a latency-bound walk) at cpu.issue_width. */
void
ns_insns_wide (NsThread *t, guint n)
{
  NsExec *x = count_insns (t, n);

  if (x != NULL)
    charge (x, t, NS_CAUSE_INSN, n / x->machine->issue_width);
}

/* n compare-and-branch pairs (CMP/TEST of a register with an immediate or a register,
 * then a Jcc), independent and well predicted, off the critical path: the decoders fuse
 * each pair into one macro-op, so 2n instructions are counted and n issue at
 * cpu.issue_width. */
void
ns_insns_fused (NsThread *t, guint n)
{
  NsExec *x = count_insns (t, 2 * n);

  if (x != NULL)
    charge (x, t, NS_CAUSE_INSN, n / x->machine->issue_width);
}

/* A compare sequence beside a chase: its fused pairs, then the rest, at the issue width. */
void
ns_insns_compares (NsThread *t, guint n, guint pairs)
{
  g_return_if_fail (2 * pairs <= n);
  if (pairs > 0)
    ns_insns_fused (t, pairs);
  ns_insns_wide (t, n - 2 * pairs);
}

/* n instructions that need nothing an outstanding load brings (argument moves from
 * registers held across a loop): at cpu.issue_width, and free while a data miss they do
 * not wait for is still in flight (its shadow, like a call's own instructions). */
void
ns_insns_beside (NsThread *t, guint n)
{
  NsExec *x = count_insns (t, n);

  if (x != NULL)
    charge_beside (x, t, NS_CAUSE_INSN, n / x->machine->issue_width);
}

/* A load's cycles: an L1 hit is hidden unless dependent. An independent miss issued
 * within cpu.rob_entries instructions of the open window's first miss overlaps it and
 * costs only what it lasts beyond the window's longest; any other miss waits (dependent:
 * its full latency; independent: beyond an L1 hit) and opens a window. */
static double
load_cycles (const NsMachine *m, NsExec *x, Served s, gboolean dep)
{
  double extra;

  if (s.cause == NS_CAUSE_L1)
    return dep ? s.cycles : 0.0;
  extra = MAX (0.0, s.cycles - m->lat[NS_CAUSE_L1]);
  if (!dep && x->win_open && x->insns - x->win_insns < m->rob) {
    double over = MAX (0.0, extra - x->win_extra);
    x->win_extra = MAX (x->win_extra, extra);
    return over;
  }
  x->win_open = TRUE;
  x->win_insns = x->insns;
  x->win_extra = extra;
  return dep ? s.cycles : extra;
}

/* Loads of [p, p + size): dep = each depends on the previous (full latency). */
static void
load_lines (NsThread *t, gconstpointer p, gsize size, gboolean dep)
{
  NsExec *x;
  NsMachine *m;
  guint64 first, last;

  g_return_if_fail (t != NULL);
  if (G_UNLIKELY ((x = exec_of (t)) == NULL))
    return;
  m = x->machine;
  if (!line_range (m, p, size, &first, &last))
    return;
  for (guint64 line = first; line <= last; line++) {
    Served s = read_line (m, x, line, FALSE);
    double cycles = load_cycles (m, x, s, dep);
    m->events[s.cause]++;
    charge (x, t, s.cause, cycles);
    if (s.cause != NS_CAUSE_L1 && cycles > 0.0)
      cast_shadow (x, dep ? cycles - m->lat[NS_CAUSE_L1] : cycles);
  }
}

/* Independent loads: misses overlap within the cpu.rob_entries window, L1 hits are
 * hidden. */
void
ns_load (NsThread *t, gconstpointer p, gsize size)
{
  load_lines (t, p, size, FALSE);
}

/* Dependent loads (pointer chase): the full latency of the serving level. */
void
ns_load_dep (NsThread *t, gconstpointer p, gsize size)
{
  load_lines (t, p, size, TRUE);
}

/* ---- the L1 IP-based stride prefetcher ---- */

G_LOCK_DEFINE_STATIC (load_sites);
static gint n_load_sites;

/* site's id, assigned on first use (process-wide, like NsFunc ids). */
static guint
load_site_id (NsLoadSite *site)
{
  gint id = g_atomic_int_get (&site->id);

  if (G_LIKELY (id != 0))
    return (guint) id;
  G_LOCK (load_sites);
  if (site->id == 0)
    g_atomic_int_set (&site->id, ++n_load_sites);
  id = site->id;
  G_UNLOCK (load_sites);
  return (guint) id;
}

/* The core's stride-table entry of site, grown on demand. */
static StrideEntry *
stride_entry (CoreCaches *cc, guint id)
{
  if (G_UNLIKELY (id >= cc->n_strides)) {
    guint n = MAX (id + 1, cc->n_strides * 2);
    cc->strides = g_renew (StrideEntry, cc->strides, n);
    memset (cc->strides + cc->n_strides, 0, (n - cc->n_strides) * sizeof (StrideEntry));
    cc->n_strides = n;
  }
  return &cc->strides[id];
}

/* Whether the stride prefetcher may fetch target for a load at addr: with
 * prefetch.l1_stride_in_page, only within the load's own 4 KiB page. */
static gboolean
stride_target_allowed (const NsMachine *m, guint64 addr, guint64 target)
{
  return !m->stride_in_page || addr / PAGE_BYTES == target / PAGE_BYTES;
}

/* A load by the instruction at site; then, on a stride seen twice in a row, the line one
 * stride ahead is prefetched (if it lies where the prefetcher may fetch). */
void
ns_load_site (NsThread *t, NsLoadSite *site, gboolean dep, gconstpointer p, gsize size)
{
  NsExec *x;
  NsMachine *m;
  StrideEntry *e;
  guint64 addr;
  gint64 stride;

  g_return_if_fail (t != NULL && site != NULL);
  if (G_UNLIKELY ((x = exec_of (t)) == NULL))
    return;
  m = x->machine;
  load_lines (t, p, size, dep);
  if (!m->stride_prefetch || !ns_arena_contains (m->arena, p))
    return;
  e = stride_entry (x->caches, load_site_id (site));
  addr = ns_arena_charged_addr (m->arena, p);
  stride = (gint64) (addr - e->last);
  e->confirmed = stride != 0 && stride == e->stride ? e->confirmed + 1 : 0;
  e->stride = stride;
  e->last = addr;
  if (e->confirmed >= 1 && ns_arena_contains (m->arena, (const guint8 *) p + stride)
      && stride_target_allowed (m, addr, addr + (guint64) stride))
    ns_prefetch (t, (const guint8 *) p + stride);
}

/* Stores: read-for-ownership, exposed like independent misses; a line this CPU owns but
 * that left its L1 still pays the refill from where it sits. */
void
ns_store (NsThread *t, gconstpointer p, gsize size)
{
  NsExec *x;
  NsMachine *m;
  guint64 first, last;

  g_return_if_fail (t != NULL);
  if (G_UNLIKELY ((x = exec_of (t)) == NULL))
    return;
  m = x->machine;
  if (!line_range (m, p, size, &first, &last))
    return;
  for (guint64 line = first; line <= last; line++) {
    Rfo r = take_ownership (m, x, line);
    if (r.far != NS_DIST_SAME) {
      m->events[NS_CAUSE_COHERENCE]++;
      charge (x, t, NS_CAUSE_COHERENCE, (m->c2c[r.far] - m->lat[NS_CAUSE_L1]) / m->mlp);
    } else if (r.level != NS_CAUSE_L1) {
      charge (x, t, r.level, (m->lat[r.level] - m->lat[NS_CAUSE_L1]) / m->mlp);
    }
  }
}

/* A locked read-modify-write of p's line: the transfer or the miss beyond the L1 hit that
 * lock.atomic_cycles includes (a hand-off then costs the ping-pong's half round trip),
 * then owned. */
void
ns_atomic (NsThread *t, gconstpointer p)
{
  NsExec *x;
  NsMachine *m;
  guint64 line, last;
  Rfo r;

  g_return_if_fail (t != NULL);
  if (G_UNLIKELY ((x = exec_of (t)) == NULL))
    return;
  m = x->machine;
  if (!line_range (m, p, 1, &line, &last))
    return;
  r = take_ownership (m, x, line);
  if (r.far != NS_DIST_SAME) {
    m->events[NS_CAUSE_COHERENCE]++;
    charge (x, t, NS_CAUSE_COHERENCE, m->c2c[r.far] - m->lat[NS_CAUSE_L1]);
  } else if (r.level != NS_CAUSE_L1) {
    charge (x, t, r.level, m->lat[r.level] - m->lat[NS_CAUSE_L1]);
  }
  charge (x, t, NS_CAUSE_INSN, m->atomic_cycles);   /* measured on a line in L1 */
  drain (x);             /* a locked instruction orders every memory access around it */
}

/* Software prefetch: the line is brought in (and shared) without any stall. */
void
ns_prefetch (NsThread *t, gconstpointer p)
{
  NsExec *x;
  guint64 line, last;

  g_return_if_fail (t != NULL);
  if (G_UNLIKELY ((x = exec_of (t)) == NULL))
    return;
  if (line_range (x->machine, p, 1, &line, &last))
    read_line (x->machine, x, line, FALSE);
}

/* Bytes of [addr, addr + n) that fall into line. */
static inline gsize
bytes_in_line (guint shift, guint64 addr, gsize n, guint64 line)
{
  guint64 lo = MAX (addr, line << shift);
  guint64 hi = MIN (addr + n, (line + 1) << shift);
  return (gsize) (hi - lo);
}

/* Cycles one line of a streaming copy waits for a transfer of latency cycles from another
 * core: the copy keeps mem.copy_mlp such lines in flight. */
static inline double
transfer_in_copy (const NsMachine *m, double latency)
{
  return MAX (0.0, latency - m->lat[NS_CAUSE_L1]) / m->copy_mlp;
}

/* Bulk copy: source lines by bandwidth of the level serving them (another core's at L3
 * bandwidth plus any transfer time beyond it), destination owned. */
void
ns_copy (NsThread *t, gconstpointer dst, gconstpointer src, gsize n)
{
  NsExec *x;
  NsMachine *m;
  guint64 first, last, src_addr;

  g_return_if_fail (t != NULL);
  if (G_UNLIKELY ((x = exec_of (t)) == NULL))
    return;
  m = x->machine;
  if (!line_range (m, src, n, &first, &last))
    return;
  src_addr = ns_arena_addr (m->arena, src);
  for (guint64 line = first; line <= last; line++) {
    Served s = read_line (m, x, line, FALSE);
    double bytes = (double) bytes_in_line (m->line_shift, src_addr, n, line);
    if (s.cause == NS_CAUSE_COHERENCE) {
      double stream = bytes / m->bw[NS_CAUSE_L3];
      m->events[NS_CAUSE_COHERENCE]++;
      charge (x, t, NS_CAUSE_COHERENCE, MAX (0.0, transfer_in_copy (m, s.cycles) - stream));
      charge (x, t, NS_CAUSE_COPY, stream);
    } else {
      charge (x, t, NS_CAUSE_COPY, bytes / m->bw[s.cause]);
    }
  }
  if (!line_range (m, dst, n, &first, &last))
    return;
  for (guint64 line = first; line <= last; line++) {
    Rfo r = take_ownership (m, x, line);
    if (!r.owned && r.far != NS_DIST_SAME) {
      m->events[NS_CAUSE_COHERENCE]++;
      charge (x, t, NS_CAUSE_COHERENCE, transfer_in_copy (m, m->c2c[r.far]));
    }
  }
}

/* n mispredicted conditional branches; the front end restarts at the last. */
void
ns_mispredict (NsThread *t, guint n)
{
  NsExec *x;

  g_return_if_fail (t != NULL);
  if (G_UNLIKELY ((x = exec_of (t)) == NULL))
    return;
  x->machine->events[NS_CAUSE_MISPREDICT] += n;
  charge (x, t, NS_CAUSE_MISPREDICT, n * x->machine->mispredict);
  if (n > 0)
    restart (x);
}

/* Fetches one text line through L1I; a miss waits `wait` (over ifetch.seq_mlp unless
 * first) of the serving level's latency beyond L1, less the front end's lead: the lead
 * pays first, and what it does not cover stalls the thread. */
static void
fetch_line (NsMachine *m, NsExec *x, NsThread *t, guint64 line, gboolean first)
{
  Served s = read_line (m, x, line, TRUE);
  double wait;

  if (s.cause == NS_CAUSE_L1)
    return;
  m->events[NS_CAUSE_IFETCH]++;
  wait = MAX (0.0, s.cycles - m->lat[NS_CAUSE_L1]);
  if (!first)
    wait /= m->ifetch_seq_mlp;
  m->overlapped[NS_CAUSE_IFETCH] += MIN (wait, x->lead);
  charge (x, t, NS_CAUSE_IFETCH, wait - MIN (wait, x->lead));
  x->lead = MAX (0.0, x->lead - wait);
}

/* TRUE if a call into func fetches its whole text at entry: a straight-line function, or
 * ifetch.text_bytes_per_insn 0 (the whole-text rule). */
static inline gboolean
fetches_whole (const NsMachine *m, const NsFunc *func)
{
  return m->text_per_insn <= 0.0 || (func->attrs & NS_FN_STRAIGHT) != 0;
}

/* The line of func's text *ran bytes from its start (its last line past the end). */
static inline guint64
text_line_at (const NsMachine *m, const NsFunc *func, double ran)
{
  double last = (double) (func->text_bytes - 1);

  return (func->text_addr + (guint64) MIN (ran, last)) >> m->line_shift;
}

/* func's instructions run `bytes` further through its text from *ran: the lines newly
 * reached are fetched, each as a following line of the stream. */
static void
advance_text (NsMachine *m, NsExec *x, NsThread *t, const NsFunc *func, double *ran,
              double bytes)
{
  guint64 from = text_line_at (m, func, *ran);
  guint64 to;

  *ran += bytes;
  to = text_line_at (m, func, *ran);
  for (guint64 line = from + 1; line <= to; line++)
    fetch_line (m, x, t, line, FALSE);
}

/* The n instructions about to run in the innermost out-of-line function (inlined code
 * sits in its text) fetch the text they run through: n × ifetch.text_bytes_per_insn. */
static void
run_text (NsMachine *m, NsExec *x, NsThread *t, guint n)
{
  const NsFunc *func;
  guint d;

  if (m->text_per_insn <= 0.0)
    return;                         /* the whole-text rule: fetched at the call */
  d = exec_outer_depth (x);
  if (d == 0 || (func = x->callees[d - 1])->text_bytes == 0 || fetches_whole (m, func))
    return;
  advance_text (m, x, t, func, &x->ran[d - 1], n * m->text_per_insn);
}

/* The endbr64 a call into func runs beyond its counted frame: one more where the build
 * states IBT and func may be an indirect call's target (global or address-taken) whose
 * census binary had none, one less where the build states no IBT and the census counted
 * one (NS_FN_ENDBR); none where the build does not say. */
static gint
endbr_delta (const NsMachine *m, const NsFunc *func)
{
  gboolean counted = (func->attrs & NS_FN_ENDBR) != 0;
  gboolean target = (func->attrs & NS_FN_INDIRECT) ||
                    !(func->attrs & (NS_FN_STATIC | NS_FN_STRAIGHT));

  if (m->ibt < 0)
    return 0;                       /* the usual case: every frame as counted */
  if (m->ibt == 1 && target && !counted)
    return 1;
  if (m->ibt == 0 && counted)
    return -1;
  return 0;
}

/* The instructions a call into func runs besides its body: the call, the ret and func's
 * frame (path_frame of it on a shrink-wrapped path, or -1: the binary's count, or
 * call.prologue_insns where no binary gives it), with the build's endbr64. */
static guint
call_seq_insns (const NsMachine *m, const NsFunc *func, gint path_frame)
{
  gint frame = path_frame >= 0 ? path_frame :
               func->frame_insns >= 0 ? func->frame_insns : (gint) m->frame_insns;

  return 2 + (guint) MAX (0, frame + endbr_delta (m, func));
}

/* Fetches func's text through L1I at a call: its entry line, then as far as the call's
 * own instructions in func (seq less the call: prologue, epilogue, ret) run; the rest
 * follows the body's instructions (run_text). A straight-line function's whole text is fetched here. A miss
 * of the entry line waits the serving level's latency beyond L1 in full: the call target
 * is known only once the call is predicted, and nothing of the function is in flight yet;
 * a following line waits that over ifetch.seq_mlp: sequential fetch runs ahead of decode
 * (both host-measured, doc/model.md). On a predicted path the front end's lead hides the
 * wait. */
static void
fetch_text (NsMachine *m, NsExec *x, NsThread *t, const NsFunc *func, guint seq)
{
  if (func->text_bytes == 0)
    return;
  fetch_line (m, x, t, func->text_addr >> m->line_shift, TRUE);
  advance_text (m, x, t, func, &x->ran[x->depth - 1],
                fetches_whole (m, func) ? (double) func->text_bytes
                                        : (seq - 1) * m->text_per_insn);
}

/* Fetches the line of the return site a return from callee lands on, in the innermost
 * out-of-line function not left by a tail jump: where that function's instructions had
 * run to at the call; in a function fetched whole, at an offset fixed by the pair (a call
 * site stays where it is). */
static void
fetch_return_site (NsMachine *m, NsExec *x, NsThread *t, const NsFunc *callee)
{
  const NsFunc *caller;
  guint64 offset;
  guint d;

  for (d = x->depth; d > 0 && (x->frames[d - 1] != NULL || x->tailed[d - 1]); d--)
    ;                               /* past inlined frames and frames left by a jump */
  if (d == 0 || (caller = x->callees[d - 1])->text_bytes == 0)
    return;                         /* back in the thread's own (user) code */
  if (!fetches_whole (m, caller)) {
    fetch_line (m, x, t, text_line_at (m, caller, x->ran[d - 1]), TRUE);
    return;
  }
  offset = ((caller->text_addr ^ (callee->text_addr << 7)) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) >> 32;
  fetch_line (m, x, t, (caller->text_addr + offset % caller->text_bytes) >> m->line_shift,
              TRUE);
}

/* An out-of-line call into func running seq instructions besides its body (call,
 * ret, the frame its path runs): counted, pushed, CALL charged, text fetched. */
static void
call_out_of_line (NsMachine *m, NsExec *x, NsThread *t, NsFunc *func, guint seq)
{
  acct_row (m, func->id)->calls++;
  m->events[NS_CAUSE_CALL]++;
  exec_push_frame (x, func, FALSE);
  ns_thread_push_func (t, func);
  /* call + ret + prologue/epilogue issue at full width: they are off the critical path */
  charge_beside (x, t, NS_CAUSE_CALL, m->call_cycles + seq / m->issue_width);
  x->insns += seq;                  /* the reorder buffer holds them too */
  fetch_text (m, x, t, func, seq);
}

/* TRUE if the machine's build inlines calls to func. */
static gboolean
inlines (NsMachine *m, NsFunc *func)
{
  const char *why = NULL;

  if (m->build == NULL)
    return (func->attrs & NS_FN_ALWAYS_INLINE) != 0;
  return ns_build_inlines (m->build, func, &why);
}

/* At a call into func: if it is the tail jump ns_tail_next announced and it stays a jump
 * (func out of line), the innermost out-of-line frame will return through func. */
static void
take_tail_jump (NsMachine *m, NsExec *x, NsFunc *func, gboolean indirect)
{
  guint d;

  if (G_LIKELY (!x->tail_next))
    return;
  x->tail_next = FALSE;
  if (!indirect && inlines (m, func))
    return;
  d = exec_outer_depth (x);
  if (d > 0)
    x->tailed[d - 1] = TRUE;
}

/* Direct call into func: free when inlined, else call + the frame (path_frame of its
 * instructions, or all of them if negative) + I-fetch. */
static void
call_direct (NsThread *t, NsFunc *func, gint path_frame)
{
  NsExec *x;
  NsMachine *m;

  if (G_UNLIKELY ((x = exec_of (t)) == NULL))
    return;
  m = x->machine;
  if (G_UNLIKELY (func->id == 0))
    ns_func_register (func);
  take_tail_jump (m, x, func, FALSE);
  if (inlines (m, func)) {
    acct_row (m, func->id)->inlined++;
    exec_push_frame (x, func, TRUE);
    ns_thread_enter_inline (t, func);
    return;
  }
  call_out_of_line (m, x, t, func, call_seq_insns (m, func, path_frame));
}

/* Direct call into func: free when inlined, else call + prologue + I-fetch. */
void
ns_call (NsThread *t, NsFunc *func)
{
  g_return_if_fail (t != NULL && func != NULL);
  call_direct (t, func, -1);
}

/* Direct call into func whose path runs path_frame of func's frame instructions (a
 * shrink-wrapped fast path): as ns_call otherwise. */
void
ns_call_shrink_wrapped (NsThread *t, NsFunc *func, guint path_frame)
{
  g_return_if_fail (t != NULL && func != NULL);
  g_return_if_fail (func->frame_insns >= 0 && path_frame <= (guint) func->frame_insns);
  call_direct (t, func, (gint) path_frame);
}

/* Tail jump into func (`jmp func` ending the current out-of-line function, from its own
 * body or from code inlined into it): the jump and func's body cost what a call does, but
 * func's return goes straight to the caller's caller, so that function's own ns_ret
 * charges no return. A plain ns_call if func is inlined (no jump is left to make). */
void
ns_tail_call (NsThread *t, NsFunc *func)
{
  ns_tail_next (t);
  ns_call (t, func);
}

/* The next ns_call / ns_icall of t is a tail jump (for a callee entered inside a helper);
 * an ns_ret before it cancels this. */
void
ns_tail_next (NsThread *t)
{
  NsExec *x;

  g_return_if_fail (t != NULL);
  if (G_UNLIKELY ((x = exec_of (t)) == NULL))
    return;
  x->tail_next = TRUE;
}

/* Indirect call into func: the spectre_v2 cost at the call site, then an out-of-line call. */
void
ns_icall (NsThread *t, NsFunc *func)
{
  NsExec *x;
  NsMachine *m;

  g_return_if_fail (t != NULL && func != NULL);
  if (G_UNLIKELY ((x = exec_of (t)) == NULL))
    return;
  m = x->machine;
  if (G_UNLIKELY (func->id == 0))
    ns_func_register (func);
  take_tail_jump (m, x, func, TRUE);
  m->events[NS_CAUSE_INDIRECT]++;
  charge (x, t, NS_CAUSE_INDIRECT, m->icall_penalty);
  if (m->icall_forced)
    restart (x);
  else if (m->icall_fenced)
    drain (x);                           /* the thunk's LFENCE: older work completes first */
  call_out_of_line (m, x, t, func, call_seq_insns (m, func, -1));
}

/* A return through SRSO Safe RET: its instructions, and a forced mispredict whose refill
 * runs under an older data miss still outstanding (the return address is on the stack, in
 * L1: the ret resolves without waiting for the miss), then the front end restarts. */
static void
forced_return (NsExec *x, NsThread *t)
{
  NsMachine *m = x->machine;
  double hidden = shadow_hides (x, NS_CAUSE_RETTHUNK, m->mispredict + m->resolve);

  charge (x, t, NS_CAUSE_RETTHUNK, m->ret_penalty - hidden);
  restart (x);
}

/* Return from the innermost ns_call/ns_icall. */
void
ns_ret (NsThread *t)
{
  NsExec *x;
  NsMachine *m;
  guint d;

  g_return_if_fail (t != NULL);
  if (G_UNLIKELY ((x = exec_of (t)) == NULL))
    return;
  if (G_UNLIKELY (x->depth == 0))
    goto unbalanced;
  x->tail_next = FALSE;
  m = x->machine;
  d = x->depth - 1;
  if (x->frames[d] != NULL) {
    x->depth = d;
    ns_thread_leave_inline (t);
    return;
  }
  if (x->tailed[d]) {
    x->tailed[d] = FALSE;           /* left by a tail jump: its callee's return was its own */
    x->depth = d;
    ns_thread_pop_func (t);
    return;
  }
  if (m->ret_penalty > 0.0) {       /* the returning function's own, in its frame: not in */
    m->events[NS_CAUSE_RETTHUNK]++; /* the body of a function inlined into its caller */
    if (m->ret_forced)
      forced_return (x, t);
    else
      charge (x, t, NS_CAUSE_RETTHUNK, m->ret_penalty);
  }
  x->depth = d;
  ns_thread_pop_func (t);
  fetch_return_site (m, x, t, x->callees[d]);
  return;

/* ERRORS */
unbalanced:
  g_critical ("ns_ret in thread %s without a matching ns_call", ns_thread_name (t));
}

/* Counts what UNTRAIN_RET runs at entry, whose cycles sys_enter holds: its instructions,
 * the call to it and the return through the return thunk. */
static void
count_untrain (NsMachine *m)
{
  m->events[NS_CAUSE_INSN] += m->untrain_insns;
  m->events[NS_CAUSE_CALL]++;
  m->events[NS_CAUSE_RETTHUNK]++;
}

/* System call entry: half the base, PTI and IBRS costs, plus UNTRAIN_RET, IBPB and the
 * BHI loop. */
void
ns_syscall_enter (NsThread *t)
{
  NsExec *x;

  g_return_if_fail (t != NULL);
  if (G_UNLIKELY ((x = exec_of (t)) == NULL))
    return;
  x->machine->events[NS_CAUSE_SYSCALL]++;
  if (x->machine->untrain_insns > 0)
    count_untrain (x->machine);
  charge (x, t, NS_CAUSE_SYSCALL, x->machine->sys_enter);
  restart (x);                      /* fetch starts over at the entry point */
}

/* System call exit: half the base, PTI and IBRS costs, plus VERW. */
void
ns_syscall_exit (NsThread *t)
{
  NsExec *x;

  g_return_if_fail (t != NULL);
  if (G_UNLIKELY ((x = exec_of (t)) == NULL))
    return;
  charge (x, t, NS_CAUSE_SYSCALL, x->machine->sys_exit);
  restart (x);                      /* and at the user return address */
}

/* Charges raw cycles to a cause. */
void
ns_charge (NsThread *t, NsCause cause, double cycles)
{
  NsExec *x;

  g_return_if_fail (t != NULL);
  g_return_if_fail ((guint) cause < NS_CAUSE_N);
  g_return_if_fail (cycles >= 0.0);
  if (G_UNLIKELY ((x = exec_of (t)) == NULL))
    return;
  charge (x, t, cause, cycles);
}

/* Records a span already spent on the thread's clock against a cause. */
void
ns_account_wait (NsThread *t, NsCause cause, NsTime span)
{
  NsExec *x;

  g_return_if_fail (t != NULL);
  g_return_if_fail ((guint) cause < NS_CAUSE_N);
  g_return_if_fail (span >= 0);
  if (G_UNLIKELY ((x = exec_of (t)) == NULL))
    return;
  restart (x);           /* the wait drains whatever was in flight */
  account (x, t, cause, (double) span * x->machine->ghz / 1000.0);
}

/* ---- the account ---- */

/* Clears every counter of the account (cache contents stay warm). */
void
ns_machine_account_reset (NsMachine *machine)
{
  g_return_if_fail (machine != NULL);
  memset (machine->acct->data, 0, (gsize) machine->acct->len * sizeof (AcctRow));
  memset (machine->ctx_acct->data, 0, (gsize) machine->ctx_acct->len * sizeof (CtxRow));
  memset (machine->events, 0, sizeof machine->events);
  memset (machine->overlapped, 0, sizeof machine->overlapped);
}

/* Cycles charged to cause while a thread was in calling context ctx (an id of the
 * machine's engine: ns_engine_context). */
double
ns_machine_account_context_cycles (NsMachine *machine, guint ctx, NsCause cause)
{
  g_return_val_if_fail (machine != NULL, 0.0);
  g_return_val_if_fail ((guint) cause < NS_CAUSE_N, 0.0);
  if (ctx >= machine->ctx_acct->len)
    return 0.0;
  return g_array_index (machine->ctx_acct, CtxRow, ctx).cycles[cause];
}

/* Cycles charged to (func, cause); func NULL = top level. */
double
ns_machine_account_cycles (NsMachine *machine, const NsFunc *func, NsCause cause)
{
  guint id = func ? func->id : 0;

  g_return_val_if_fail (machine != NULL, 0.0);
  g_return_val_if_fail ((guint) cause < NS_CAUSE_N, 0.0);
  if ((func != NULL && id == 0) || id >= machine->acct->len)
    return 0.0;
  return g_array_index (machine->acct, AcctRow, id).cycles[cause];
}

/* Cycles spent in func's inlined body by cause (already in its callers' cycles). */
double
ns_machine_account_inline_cycles (NsMachine *machine, const NsFunc *func, NsCause cause)
{
  g_return_val_if_fail (machine != NULL && func != NULL, 0.0);
  g_return_val_if_fail ((guint) cause < NS_CAUSE_N, 0.0);
  if (func->id == 0 || func->id >= machine->acct->len)
    return 0.0;
  return g_array_index (machine->acct, AcctRow, func->id).body[cause];
}

/* Out-of-line calls of func since the last reset; *inlined gets the inlined ones. */
guint64
ns_machine_account_calls (NsMachine *machine, const NsFunc *func, guint64 *inlined)
{
  const AcctRow *row;

  g_return_val_if_fail (machine != NULL && func != NULL, 0);
  if (inlined)
    *inlined = 0;
  if (func->id == 0 || func->id >= machine->acct->len)
    return 0;
  row = &g_array_index (machine->acct, AcctRow, func->id);
  if (inlined)
    *inlined = row->inlined;
  return row->calls;
}

/* Event count of a cause since the last reset (see the comment at the top). */
guint64
ns_machine_account_events (NsMachine *machine, NsCause what)
{
  g_return_val_if_fail (machine != NULL, 0);
  g_return_val_if_fail ((guint) what < NS_CAUSE_N, 0);
  return machine->events[what];
}

/* Cycles of cause hidden since the last reset: text-line waits the front end's lead
 * covered (IFETCH), call and beside-work a data miss's shadow covered (CALL, INSN). */
double
ns_machine_account_overlapped (NsMachine *machine, NsCause what)
{
  g_return_val_if_fail (machine != NULL, 0.0);
  g_return_val_if_fail ((guint) what < NS_CAUSE_N, 0.0);
  return machine->overlapped[what];
}
