/* pktgen.c — net/core/pktgen.c driving a dummy device with a clsact qdisc whose egress
 * block holds N matchall filters, each with one gact action (seed 002's set-up).
 *
 * Which hook the seed's pktgen reaches: pktgen's default xmit_mode start_xmit calls the
 * driver's ndo_start_xmit directly (netdev_start_xmit), bypassing __dev_queue_xmit and so
 * every tc hook; netif_receive injects into __netif_receive_skb (the ingress hook) but
 * pktgen refuses clone_skb > 0 in that mode ("clone_skb set earlier, not supported in this
 * mode"), and the seed has clone_skb 1000 rows; queue_xmit calls dev_queue_xmit, whose
 * __dev_queue_xmit runs sch_handle_egress when a clsact qdisc exists. The kernel's
 * samples/pktgen/pktgen_bench_xmit_mode_queue_xmit.sh ("benchmarking egress qdisc path")
 * is that mode, and a later netdev review reproduces this exact set-up with it ("ip link
 * add dummy0 up type dummy; tc qdisc add dev dummy0 clsact; tc filter add dev dummy0
 * egress matchall action drop ... pktgen on dummy0 with xmit_mode queue_xmit"). So:
 * queue_xmit, egress clsact.
 *
 * One pktgen kthread on one CPU, delay 0 (as fast as possible), flags NO_TIMESTAMP and
 * QUEUE_MAP_CPU (the sample script), one destination. Per packet (pktgen_thread_worker):
 * kthread_should_stop, next_to_run, pktgen_xmit, need_resched, cpu_relax (one PAUSE),
 * the control-flag tests, try_to_freeze. pktgen_xmit: with clone_skb = 0 every packet is
 * new — kfree_skb of the previous one (its last reference: pktgen keeps one) and
 * fill_packet_ipv4 (mod_cur_headers, __netdev_alloc_skb, headers, ip_send_check,
 * pktgen_finalize_skb); with clone_skb = N the same skb is sent N times. Then
 * local_bh_disable, refcount_inc(&skb->users), dev_queue_xmit, counters, local_bh_enable.
 *
 * Filters: `tc filter add dev dummy0 egress matchall action gact <verdict>` N times
 * (automatic priorities: each new filter runs first). With verdict "continue" gact returns
 * TC_ACT_UNSPEC, tcf_classify goes on to the next filter, and every packet traverses all
 * N filters, falls off the end with TC_ACT_UNSPEC and is transmitted — the seed's "going
 * through 100 filters". ("pipe" would not do: a trailing PIPE returns 3, which ends the
 * walk at the first filter; "pass" ends it too.) */
#include "config.h"
#include <string.h>
#include "kchange.h"
#include "workload.h"
#include "xml.h"
#include "net/sched/netdev.h"
#include "net/netstack.h"
#include "net/ip.h"
#include "net/memset.h"

/* ---- kernel objects ---- */

#define M_START_XMIT   0
#define M_NETIF_RECEIVE 1
#define M_QUEUE_XMIT   2
/* pkt_dev->flags bits: v6.1 numbers them by an enum (NO_TIMESTAMP 7, QUEUE_MAP_CPU 10;
 * Debian 6.1.176's pktgen.ko tests them as testb $0x80,0x34(%r13) in
 * pktgen_finalize_skb and test $0x4,%dh in mod_cur_headers) */
#define F_NO_TIMESTAMP  (1u << 7)
#define F_QUEUE_MAP_CPU (1u << 10)

/* struct pktgen_dev at v6.1's offsets (Debian 6.1.176's pktgen.ko DWARF, gdb `ptype /o`,
 * 2026-12-04; until then hand-placed, with the per-packet fields in 7 lines where the
 * kernel has them in 9: 0-2, 6, 7, 16-19): 2304 bytes. Fields the model never touches are
 * padding of their size; the G_STATIC_ASSERTs below pin the offsets. */
struct pktgen_dev {
  gpointer  entry;                              /*    0 CL0: proc_dir_entry */
  gpointer  pg_thread;                          /*    8 */
  struct list_head_ns list;                     /*   16 */
  guint8    rcu[16];                            /*   32: struct rcu_head */
  gint32    running;                            /*   48 */
  guint32   flags;                              /*   52 */
  gint32    xmit_mode;                          /*   56 */
  gint32    min_pkt_size;                       /*   60 */
  gint32    max_pkt_size;                       /*   64 CL1 */
  gint32    pkt_overhead;                       /*   68 */
  gint32    nfrags;                             /*   72 */
  gint32    removal_mark;                       /*   76 */
  gpointer  page;                               /*   80 */
  guint64   delay;                              /*   88 */
  guint64   count, sofar, tx_bytes, errors;     /*   96 */
  guint32   clone_count;                        /*  128 CL2 */
  gint32    last_ok;                            /*  132 */
  guint64   next_tx;                            /*  136: ktime_t */
  guint64   started_at, stopped_at, idle_acc;   /*  144 */
  guint32   seq_num;                            /*  168 */
  gint32    clone_skb;                          /*  172 */
  guint8    _pad176[256];                       /*  176: address strings, IPv6 addresses */
  guint32   saddr_min, saddr_max, daddr_min, daddr_max;          /*  432 CL6 */
  guint16   udp_src_min, udp_src_max, udp_dst_min, udp_dst_max;  /*  448 CL7 */
  guint8    tos, traffic_class;                 /*  456 */
  guint8    _pad458[586];                       /*  458: the imix entries and distribution */
  guint32   nr_labels;                          /* 1044 CL16 */
  guint8    labels[64];                         /* 1048: MPLS labels */
  guint8    vlan_p, vlan_cfi;                   /* 1112 CL17 */
  guint16   vlan_id;                            /* 1114 */
  guint8    svlan_p, svlan_cfi;                 /* 1116 */
  guint16   svlan_id;                           /* 1118 */
  guint32   src_mac_count, dst_mac_count;       /* 1120 */
  guint8    dst_mac[6], src_mac[6];             /* 1128 */
  guint32   cur_dst_mac_offset, cur_src_mac_offset;  /* 1140 */
  guint32   cur_saddr;                          /* 1148 */
  guint32   cur_daddr;                          /* 1152 CL18 */
  guint16   ip_id, cur_udp_dst, cur_udp_src;    /* 1156 */
  guint16   cur_queue_map;                      /* 1162 */
  guint32   cur_pkt_size, last_pkt_size;        /* 1164 */
  guint8    hh[14];                             /* 1172 */
  guint16   pad;                                /* 1186 */
  struct sk_buff    *skb;                       /* 1192 */
  struct net_device *odev;                      /* 1200 */
  guint8    odevname[32];                       /* 1208 */
  gpointer  flows;                              /* 1240 */
  guint32   cflows, lflow, nflows, curfl;       /* 1248 CL19 */
  guint16   queue_map_min, queue_map_max;       /* 1264 */
  guint32   skb_priority;                       /* 1268 */
  guint32   burst;                              /* 1272 */
  gint32    node;                               /* 1276 */
  guint8    _pad1280[1024];                     /* 1280: IPsec state, dst_ops, result */
};
#if GLIB_SIZEOF_VOID_P == 8
G_STATIC_ASSERT (offsetof (struct pktgen_dev, running) == 48);
G_STATIC_ASSERT (offsetof (struct pktgen_dev, count) == 96);
G_STATIC_ASSERT (offsetof (struct pktgen_dev, clone_count) == 128);
G_STATIC_ASSERT (offsetof (struct pktgen_dev, seq_num) == 168);
G_STATIC_ASSERT (offsetof (struct pktgen_dev, saddr_min) == 432);
G_STATIC_ASSERT (offsetof (struct pktgen_dev, nr_labels) == 1044);
G_STATIC_ASSERT (offsetof (struct pktgen_dev, cur_saddr) == 1148);
G_STATIC_ASSERT (offsetof (struct pktgen_dev, hh) == 1172);
G_STATIC_ASSERT (offsetof (struct pktgen_dev, skb) == 1192);
G_STATIC_ASSERT (offsetof (struct pktgen_dev, cflows) == 1248);
G_STATIC_ASSERT (offsetof (struct pktgen_dev, node) == 1276);
G_STATIC_ASSERT (sizeof (struct pktgen_dev) == 2304);
#endif

/* struct pktgen_thread: if_list and control in its first line. */
struct pktgen_thread {
  guint32   if_lock;
  guint32   control;
  struct list_head_ns if_list;
  guint8    _pad24[40];
};

typedef struct {
  NsMachine          *machine;
  TcEnv              *tc;
  NetTx              *tx;
  struct net_device  *dev;
  struct pktgen_dev  *pkt_dev;
  struct pktgen_thread *thread;
  struct task_ns     *task;
  gboolean            preempt_rcu;        /* CONFIG_PREEMPT_RCU: rcu_read_lock calls */
  gboolean            voluntary_preempt;  /* CONFIG_PREEMPT_VOLUNTARY: might_resched */
  NsMemsetPath        memset_path;        /* the body __memset runs on this build and CPU */
  guint64             packets;            /* worker turns: packets handed to the device */
  guint64             packets_mark;
  guint64             sent, sent_mark;     /* NET_XMIT_SUCCESS: what pktgen's pps counts */
  guint64             errors, errors_mark; /* any other verdict: pktgen's errors */
  guint32            *ratelimit;          /* net_ratelimit_state's lock and counters:
                                           * allocated at the first error */
  guint64             mark_direct, mark_indirect, mark_compares;   /* tc wrapper counters */
} Pktgen;

static const char *const metrics[] = { "pps", "errors_pps", "ns_per_packet",
                                       "cycles_per_packet",
                                       "wrapper_compares_per_packet",
                                       "indirect_calls_per_packet",
                                       "direct_calls_per_packet", NULL };
/* gact's verdicts by iproute2's names, and the TC_ACT_ value of each. */
static const char *const verdict_names[] = {
  "continue", "pass", "ok", "drop", "shot", "pipe", "reclassify", "stolen", NULL
};
static const gint32 verdict_values[] = {
  TC_ACT_UNSPEC, TC_ACT_OK, TC_ACT_OK, TC_ACT_SHOT, TC_ACT_SHOT, TC_ACT_PIPE,
  TC_ACT_RECLASSIFY, TC_ACT_STOLEN,
};
/* A filter's protocol by iproute2's name (pktgen's IPv4 packets are not ipv6: tcf_classify
 * skips such a filter without running it), and its be16 value. */
static const char *const protocol_names[] = { "all", "ip", "ipv6", NULL };
static const guint16 protocol_values[] = { TC_ETH_P_ALL, TC_ETH_P_IP, TC_ETH_P_IPV6 };
static const char *const classifiers[] = { "matchall", "bpf", NULL };
static const char *const xmit_modes[] = { "queue_xmit", NULL };
/* The <workload> attributes it takes. */
static const NsWorkloadAttr pktgen_attributes[] = {
  { "cpu", NS_WORKLOAD_ATTR_CPU, "0", .meaning = "the CPU kpktgend_0 runs on" },
  { "xmit-mode", NS_WORKLOAD_ATTR_CHOICE, "queue_xmit", .choices = xmit_modes,
    .why = "the mode that reaches the egress clsact hook; start_xmit bypasses tc and "
           "netif_receive needs the receive path",
    .meaning = "pktgen's transmit mode" },
  { "clone-skb", NS_WORKLOAD_ATTR_UINT, "0", "0", "100000000",
    .meaning = "packets sent from one skb before a new one" },
  { "pkt-size", NS_WORKLOAD_ATTR_UINT, "60", "42", "1500",
    .why = "a frame without FCS: pktgen raises a smaller size to 42, its Ethernet, IPv4 and "
           "UDP headers; sizes past dummy0's MTU are not modelled",
    .meaning = "bytes of each frame" },
  { "filters", NS_WORKLOAD_ATTR_UINT, "1", "0", "4096",
    .meaning = "filters on dummy0's egress clsact hook" },
  { "action", NS_WORKLOAD_ATTR_CHOICE, "continue", .choices = verdict_names,
    .meaning = "the gact verdict of each matchall filter but the last" },
  { "last-action", NS_WORKLOAD_ATTR_CHOICE, "@action", .choices = verdict_names,
    .meaning = "the last matchall filter's gact verdict" },
  { "protocol", NS_WORKLOAD_ATTR_CHOICE, "all", .choices = protocol_names,
    .meaning = "the filters' protocol" },
  { "setup-cpus", NS_WORKLOAD_ATTR_CPUS, "1",
    .meaning = "CPUs the tc processes that add the filters run on, in turn" },
  { "classifier", NS_WORKLOAD_ATTR_CHOICE, "matchall", .choices = classifiers,
    .meaning = "matchall with gact (seed 002) or cls_bpf with ret #0 programs" },
  { "programs", NS_WORKLOAD_ATTR_UINT, "1", "1", "4096",
    .meaning = "cls_bpf programs a filter (1 unless classifier is bpf)" },
  { NULL }
};
static const char *const per_time_metrics[] = { "pps", "errors_pps", NULL };

/* The egress filters the set-up adds: matchall + gact (seed 002's) or cls_bpf with
 * classic `ret #0` programs (tools/bench-tc-walk's). */
typedef struct {
  guint64  n;                       /* filters */
  gboolean bpf;                     /* cls_bpf, else matchall */
  guint64  programs;                /* cls_bpf: programs a filter */
  gint32   verdict, last;           /* matchall: the gact verdicts, the last filter's */
  guint16  protocol;                /* be16 */
  guint64  setup_cpus;              /* tc processes' CPUs: i mod setup_cpus */
} PktgenFilters;

/* Sizes: the Debian 6.1.176 binary's (nm -S; doc/census/text-sizes-6.1.176.txt), except
 * the two the binary inlines (estimates, unused). Instruction counts: the census of that
 * binary
 * (doc/census/pktgen.md), body instructions (each function's total less its prologue,
 * epilogue and return, which the machine charges per call); a caller's count includes its
 * call instructions. */
/* pktgen_thread_worker: the kthread's threadfn, which kthread() calls through its pointer
 * (kthread_create_on_node in pktgen_create_thread), so never inlined */
static NS_FUNC (fn_pktgen_thread_worker, "pktgen_thread_worker", 6593, 16,
                NS_FN_STATIC | NS_FN_INDIRECT, 1);
static NS_FUNC (fn_pktgen_alloc_skb, "pktgen_alloc_skb", 197, 5, NS_FN_STATIC | NS_FN_NOINLINE, 1);
static NS_FUNC (fn_kthread_should_stop, "kthread_should_stop", 45, 1, NS_FN_EXTERN, 200);
static NS_FUNC (fn_pktgen_xmit, "pktgen_xmit", 1100, NS_FRAME_UNKNOWN, NS_FN_STATIC, 1);
static NS_FUNC (fn_fill_packet_ipv4, "fill_packet_ipv4", 1000, NS_FRAME_UNKNOWN, NS_FN_STATIC, 1);
static NS_FUNC (fn_mod_cur_headers, "mod_cur_headers", 1931, 11, NS_FN_STATIC, 2);
static NS_FUNC (fn_pktgen_finalize_skb, "pktgen_finalize_skb", 731, 15, NS_FN_STATIC, 2);
static NS_FUNC (fn_net_ratelimit, "net_ratelimit", 24, 1, NS_FN_EXTERN, 20);
static NS_FUNC (fn____ratelimit, "___ratelimit", 246, 14, NS_FN_EXTERN, 20);

/* ---- the packet path ---- */

/* mod_cur_headers with no ranges, flows, MPLS or VLANs: the tests, then
 * set_cur_queue_map (QUEUE_MAP_CPU: smp_processor_id() % real_num_tx_queues). */
static void
mod_cur_headers (NsThread *t, struct pktgen_dev *pkt_dev)
{
  ns_call (t, &fn_mod_cur_headers);
  NS_LOAD_FIELD (t, pkt_dev, cflows);
  NS_LOAD_FIELD (t, pkt_dev, src_mac_count);
  NS_LOAD_FIELD (t, pkt_dev, flags);
  NS_LOAD_FIELD (t, pkt_dev, udp_src_min);
  NS_LOAD_FIELD (t, pkt_dev, saddr_min);
  NS_LOAD_FIELD (t, pkt_dev, min_pkt_size);
  NS_LOAD_FIELD (t, pkt_dev, queue_map_min);
  NS_LOAD_FIELD (t, pkt_dev->odev, real_num_tx_queues);
  pkt_dev->cur_queue_map = 0;
  NS_STORE_FIELD (t, pkt_dev, cur_queue_map);
  /* census: 63 instructions — about twenty flag and range tests with their branches,
   * the byte swaps of the address bounds, and set_cur_queue_map with QUEUE_MAP_CPU
   * (smp_processor_id() read, then the modulo: one 32-bit div whose latency overlaps the
   * allocation that follows; doc/census/pktgen.md) */
  ns_insns (t, 63);
  ns_ret (t);
}


/* pktgen_finalize_skb without frags or timestamp: the pktgen header and zero padding
 * (memset's body as memset_path says). */
static void
pktgen_finalize_skb (NsThread *t, struct pktgen_dev *pkt_dev, struct sk_buff *skb,
                     gint datalen, NsMemsetPath memset_path)
{
  guchar *pgh;

  ns_call (t, &fn_pktgen_finalize_skb);
  pgh = skb_put (t, skb, 16);
  datalen -= 16;
  NS_LOAD_FIELD (t, pkt_dev, nfrags);
  /* skb_put_zero whatever the pad (0 bytes from pkt-size 42 to 58: the data is at least
   * the 16-byte header) */
  ns_memset (t, &ns_fn___memset, memset_path, skb_put (t, skb, (guint) datalen),
             (gsize) datalen);
  NS_LOAD_FIELD (t, pkt_dev, seq_num);
  ns_store (t, pgh, 16);
  /* census: 38 instructions (stack protector, nfrags test, the pad's length, magic,
   * sequence number, the NO_TIMESTAMP test, zero time) */
  ns_insns (t, 38);
  ns_ret (t);
}

/* fill_packet_ipv4: a new 60-byte UDP/IPv4 frame in a new skb. */
static struct sk_buff *
fill_packet_ipv4 (NsThread *t, Pktgen *pg)
{
  struct pktgen_dev *pkt_dev = pg->pkt_dev;
  struct sk_buff *skb;
  guchar *eth, *iph, *udph;
  gint datalen;
  guint size;

  ns_call (t, &fn_fill_packet_ipv4);
  NS_LOAD_FIELD (t, pkt_dev, nr_labels);
  NS_LOAD_FIELD (t, pkt_dev, vlan_id);
  /* census: 37 instructions up to the VLAN test — the datalen and header sizes, the
   * calls to mod_cur_headers, pktgen_alloc_skb, skb_push and skb_put, prefetchw,
   * skb_reserve, the network header */
  ns_insns (t, 37);
  mod_cur_headers (t, pkt_dev);
  NS_LOAD_FIELD (t, pkt_dev, cur_queue_map);
  /* pktgen_alloc_skb: cur_pkt_size + 64 + LL_RESERVED_SPACE + pkt_overhead */
  ns_call (t, &fn_pktgen_alloc_skb);
  NS_LOAD_FIELD (t, pkt_dev, cur_pkt_size);
  ns_insns (t, 18);                 /* census: the size, the F_NODE test, the call */
  size = pkt_dev->cur_pkt_size + 64 + 16 + (guint) pkt_dev->pkt_overhead;
  skb = __netdev_alloc_skb (t, pg->tx, pkt_dev->odev, size);
  /* skb_reserve(extralen - 16) is 0 for Ethernet */
  ns_insns (t, 6);                  /* census: the NULL test, skb_reserve */
  ns_ret (t);
  /* prefetchw(skb->data); skb_reserve(skb, 16) */
  skb_reserve (skb, 16);
  ns_prefetch (t, skb->data);
  eth = skb_push (t, skb, 14);
  skb_put (t, skb, pkt_dev->nr_labels * 4);   /* mpls: 0 bytes */
  skb_reset_mac_header (skb);
  skb->network_header = (guint16) (skb->data - skb->head + skb->len);
  iph = skb_put (t, skb, 20);
  skb->transport_header = (guint16) (skb->data - skb->head + skb->len);
  udph = skb_put (t, skb, 8);
  skb->queue_mapping = pkt_dev->cur_queue_map;
  skb->priority = pkt_dev->skb_priority;
  NS_LOAD_FIELD (t, pkt_dev, hh);
  memcpy (eth, pkt_dev->hh, 12);
  eth[12] = 0x08;
  eth[13] = 0x00;
  NS_LOAD_FIELD (t, pkt_dev, cur_udp_src);
  NS_LOAD_FIELD (t, pkt_dev, cur_saddr);
  NS_LOAD_FIELD (t, pkt_dev, tos);
  NS_LOAD_FIELD (t, pkt_dev, ip_id);
  pkt_dev->ip_id++;
  NS_STORE_FIELD (t, pkt_dev, ip_id);
  ns_store (t, eth, 42);
  datalen = (gint) pkt_dev->cur_pkt_size - 14 - 20 - 8 - pkt_dev->pkt_overhead;
  if (datalen < 16)
    datalen = 16;
  /* census: 82 instructions — header offsets, queue mapping, priority, the 12-byte MAC
   * copy, eight UDP/IP header fields with byte swaps, ip_id, tot_len, protocol, dev,
   * pkt_type, the calls to skb_put, ip_send_check and pktgen_finalize_skb, the UDPCSUM
   * test (CHECKSUM_NONE) */
  ns_insns (t, 82);
  ip_send_check (t, iph);
  skb->protocol = TC_ETH_P_IP;
  skb->dev = pkt_dev->odev;
  skb->ip_summed = CHECKSUM_NONE;
  ns_store (t, &skb->protocol, sizeof skb->protocol);
  ns_store (t, &skb->ip_summed, 1);
  pktgen_finalize_skb (t, pkt_dev, skb, datalen, pg->memset_path);
  (void) udph;
  ns_ret (t);
  return skb;
}

/* net_ratelimit → ___ratelimit(&net_ratelimit_state) of a suppressed message (at
 * millions of errors a second all but 10 in 5 s are): raw_spin_trylock_irqsave of the
 * state's lock, the interval and burst tests, missed++, the unlock. The state is one line
 * of arena memory allocated at the first error, so runs without errors keep their layout.
 * The 10 printed messages a 5-second interval allows are not charged. */
static void
net_ratelimit (NsThread *t, Pktgen *pg)
{
  if (pg->ratelimit == NULL)
    pg->ratelimit = ns_arena_alloc (ns_machine_arena (pg->machine), 64, 64);
  ns_call (t, &fn_net_ratelimit);
  ns_insns (t, 2);                  /* estimate: the argument, the tail jmp */
  ns_tail_next (t);
  ns_call (t, &fn____ratelimit);
  /* estimate: 30 instructions (interval test, pushf/cli, the trylock's cmpxchg, the
   * jiffies tests, missed++, the unlock and popf) */
  ns_insns (t, 30);
  ns_atomic (t, &pg->ratelimit[0]);
  pg->ratelimit[2]++;
  ns_store (t, &pg->ratelimit[2], sizeof pg->ratelimit[2]);
  ns_ret (t);
  ns_ret (t);
}

/* pktgen_xmit in queue_xmit mode: TRUE when dev_queue_xmit returned NET_XMIT_SUCCESS
 * (sofar, seq_num and tx_bytes counted: what pktgen's pps reports), FALSE for any other
 * verdict (errors++ and a ratelimited "xmit error" message), as v6.1's switch on ret. */
static gboolean
pktgen_xmit (NsThread *t, Pktgen *pg)
{
  struct pktgen_dev *pkt_dev = pg->pkt_dev;
  int ret;

  ns_call (t, &fn_pktgen_xmit);
  NS_LOAD_FIELD (t, pkt_dev, burst);
  NS_LOAD_FIELD (t, pkt_dev, odev);
  NS_LOAD_FIELD (t, pkt_dev->odev, state);    /* netif_running, netif_carrier_ok */
  NS_LOAD_FIELD (t, pkt_dev, delay);
  NS_LOAD_FIELD (t, pkt_dev, skb);
  NS_LOAD_FIELD (t, pkt_dev, last_ok);
  NS_LOAD_FIELD (t, pkt_dev, clone_count);
  /* census: 23 instructions — burst and odev, running/carrier bits, the delay ==
   * ULLONG_MAX test, the new-skb test (clone_count increment and compare) */
  ns_insns (t, 23);
  if (pkt_dev->skb == NULL ||
      (pkt_dev->last_ok && ++pkt_dev->clone_count >= (guint32) pkt_dev->clone_skb)) {
    ns_insns (t, 4);                /* census: the kfree_skb call, fill_packet's F_IPV6 test */
    kfree_skb (t, pg->tx->alloc, pkt_dev->skb);
    pkt_dev->skb = fill_packet_ipv4 (t, pg);
    pkt_dev->last_pkt_size = pkt_dev->skb->len;
    pkt_dev->clone_count = 0;
    NS_STORE_FIELD (t, pkt_dev, skb);
    NS_STORE_FIELD (t, pkt_dev, last_pkt_size);
    /* census: 10 instructions (ip_summed, process_ipsec's F_IPSEC test, the stores,
     * the delay test) */
    ns_insns (t, 10);
  }
  NS_STORE_FIELD (t, pkt_dev, clone_count);
  NS_LOAD_FIELD (t, pkt_dev, xmit_mode);
  /* census: 5 instructions (the xmit_mode tests) */
  ns_insns (t, 5);
  local_bh_disable (t, &pg->tx->softirq);
  tx_skb_get (t, pkt_dev->skb);
  ret = dev_queue_xmit (t, &pg->tx->core, pkt_dev->skb);
  if (ret == NET_XMIT_SUCCESS) {
    NS_LOAD_FIELD (t, pkt_dev, sofar);
    pkt_dev->sofar++;
    pkt_dev->seq_num++;
    pkt_dev->tx_bytes += pkt_dev->last_pkt_size;
    NS_STORE_FIELD (t, pkt_dev, sofar);
    NS_STORE_FIELD (t, pkt_dev, tx_bytes);
    NS_STORE_FIELD (t, pkt_dev, seq_num);
  } else {
    /* NET_XMIT_DROP, NET_XMIT_CN, NETDEV_TX_BUSY, an errno: errors++ and
     * net_info_ratelimited ("xmit error") */
    NS_LOAD_FIELD (t, pkt_dev, errors);
    pkt_dev->errors++;
    NS_STORE_FIELD (t, pkt_dev, errors);
    net_ratelimit (t, pg);
  }
  /* census: 17 instructions (the refcount's saturation tests, the call's arguments, the
   * switch on ret, three counter updates) */
  ns_insns (t, 17);
  __local_bh_enable_ip (t, &pg->tx->softirq);
  NS_LOAD_FIELD (t, pkt_dev, count);
  /* census: 6 instructions (the call, count != 0 && sofar >= count) */
  ns_insns (t, 6);
  ns_ret (t);
  return ret == NET_XMIT_SUCCESS;
}

/* One turn of pktgen_thread_worker's loop with one running device. */
static void
pktgen_worker_turn (NsThread *t, Pktgen *pg)
{
  struct pktgen_thread *th = pg->thread;
  gboolean sent;

  ns_call (t, &fn_kthread_should_stop);
  ns_load (t, &net_tx_pcpu (pg->tx, t)->current_task, sizeof (gpointer));
  NS_LOAD_FIELD (t, pg->task, kthread_flags);
  ns_insns (t, 7);                  /* census: PF_KTHREAD, the KTHREAD_SHOULD_STOP bit */
  ns_ret (t);
  /* next_to_run: rcu_read_lock, walk if_list (one device), skip non-running ones */
  if (pg->preempt_rcu)
    ns___rcu_read_lock (t);
  NS_LOAD_FIELD (t, th, if_list);
  NS_LOAD_FIELD (t, pg->pkt_dev, list);
  NS_LOAD_FIELD (t, pg->pkt_dev, running);
  /* census: 21 instructions (the two RCU calls, list walk of one entry, running test,
   * best selection) */
  ns_insns (t, 21);
  if (pg->preempt_rcu)
    ns___rcu_read_unlock (t);
  sent = pktgen_xmit (t, pg);
  /* need_resched(): TIF_NEED_RESCHED clear, so cpu_relax() */
  NS_LOAD_FIELD (t, pg->task, ti_flags);
  ns_insns (t, 2);
  ns_pause (t);
  /* t->control's four tests, might_resched (a call to __cond_resched under voluntary
   * preemption), try_to_freeze (a static branch), kthread_should_stop's call and test,
   * the loop test */
  NS_LOAD_FIELD (t, th, control);
  /* census: 17 instructions */
  ns_insns (t, 17);
  if (pg->voluntary_preempt)
    ns___cond_resched (t);
  pg->packets++;                    /* a packet counts when its turn ends */
  if (sent)
    pg->sent++;
  else
    pg->errors++;
}

/* pktgen_thread_worker: the kthread's endless loop, one worker turn per packet; kthread()
 * enters it by an indirect call (threadfn(data)). */
static void
pktgen_thread_worker (NsThread *t, gpointer data)
{
  Pktgen *pg = data;

  ns_icall (t, &fn_pktgen_thread_worker);
  for (;;)
    pktgen_worker_turn (t, pg);
}

/* ---- set-up ---- */

/* tc qdisc add dev dummy0 clsact; N × tc filter add dev dummy0 egress [protocol P]
 * matchall action gact VERDICT (the last one LAST), or N × P × tc filter add dev dummy0
 * egress prio I handle H [protocol P] bpf bytecode "1,6 0 0 0," (I = 1..N, H = 1..P), each
 * tc process on CPU i mod setup_cpus (the CPU whose slabs its objects come from; the
 * set-up before on CPU 0). */
static void
pktgen_add_filters (Pktgen *pg, const PktgenFilters *f)
{
  clsact_attach (pg->tx, pg->dev);
  for (guint i = 0; i < f->n; i++) {
    tc_env_set_alloc_cpu (pg->tc, i % f->setup_cpus);
    if (f->bpf) {
      for (guint h = 1; h <= f->programs; h++)
        tc_new_tfilter_bpf (pg->tx, pg->dev, TRUE, f->protocol, i + 1, h, 0);
    } else {
      tc_new_tfilter_matchall (pg->tx, pg->dev, TRUE, f->protocol,
                               i + 1 == f->n ? f->last : f->verdict);
    }
  }
  tc_env_set_alloc_cpu (pg->tc, 0);
}

/* The pktgen device: queue_xmit, one destination, NO_TIMESTAMP | QUEUE_MAP_CPU. */
static struct pktgen_dev *
pktgen_dev_create (Pktgen *pg, guint64 clone_skb, guint64 pkt_size)
{
  static const guint8 hh[14] = { 0x90, 0xe2, 0xba, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0,
                                 0x08, 0x00 };
  struct pktgen_dev *d = ns_arena_alloc (ns_machine_arena (pg->machine), sizeof *d, 64);

  d->running = 1;
  d->flags = F_QUEUE_MAP_CPU | F_NO_TIMESTAMP;
  d->xmit_mode = M_QUEUE_XMIT;
  d->last_ok = 1;                    /* set by "xmit_mode queue_xmit" */
  d->clone_skb = (gint32) clone_skb;
  d->min_pkt_size = d->max_pkt_size = (gint32) pkt_size;
  d->cur_pkt_size = (guint32) pkt_size;
  d->burst = 1;
  d->vlan_id = d->svlan_id = 0xffff;
  d->src_mac_count = d->dst_mac_count = 0;
  d->saddr_min = d->saddr_max = GUINT32_TO_BE (0xc6120001);
  d->daddr_min = d->daddr_max = d->cur_daddr = GUINT32_TO_BE (0xc612002a);  /* 198.18.0.42 */
  d->udp_src_min = d->udp_src_max = d->cur_udp_src = 9;
  d->udp_dst_min = d->udp_dst_max = d->cur_udp_dst = 9;
  d->node = -1;
  memcpy (d->hh, hh, sizeof hh);
  d->odev = pg->dev;
  return d;
}

/* The options the set-up needs: clsact (sch_ingress.c), tc actions, matchall and gact
 * (cls_bpf with bpf); FALSE with a file:line error naming one set to n, where `tc qdisc
 * add … clsact` or `tc filter add … matchall action gact` (`… bpf`) would fail
 * (CONFIG_NET_CLS_ACT set to m, a bool in net/sched/Kconfig, the run refuses as any
 * bool's m: ns_build_config_is_bool). An option the scenario does not list is taken as
 * distribution kernels build it: the tristates as modules, CONFIG_NET_CLS_ACT built in. */
static gboolean
pktgen_check_config (const NsScenario *sc, const NsBuild *build, gboolean bpf, GError **error)
{
  static const char *const for_matchall[] = { "CONFIG_NET_SCH_INGRESS", "CONFIG_NET_CLS_ACT",
                                              "CONFIG_NET_CLS_MATCHALL", "CONFIG_NET_ACT_GACT",
                                              NULL };
  static const char *const for_bpf[] = { "CONFIG_NET_SCH_INGRESS", "CONFIG_NET_CLS_ACT",
                                         "CONFIG_NET_CLS_BPF", NULL };
  const char *const *needed = bpf ? for_bpf : for_matchall;
  const char *off = NULL;

  for (guint i = 0; needed[i] && off == NULL; i++)
    if (ns_build_config_tristate (build, needed[i], ns_build_config_is_bool (needed[i]) ?
                                  NS_KCONFIG_Y : NS_KCONFIG_M) == NS_KCONFIG_N)
      off = needed[i];
  if (off != NULL)
    goto option_off;
  return TRUE;          /* CONFIG_NET_CLS_ACT=m: a bool's m, which the run refuses */

/* ERRORS */
option_off:
  ns_xml_error_blame (sc, sc->workload, (NsXmlBlame) {
                        .also = { ns_scenario_kernel_option (sc, "config", off) } },
                      error, "kernel config %s=n: the set-up needs it (tc qdisc add dev dummy0 "
                      "clsact; tc filter add … egress %s); use y, or m (a module) where it "
                      "is a tristate", off, bpf ? "bpf bytecode …" : "matchall action gact");
  return FALSE;
}

/* The RFC of the tc wrapper series (tc-retpoline-wrappers-rfc) and the merged v6 both
 * create include/net/tc_wrapper.h, which every kernel from v6.2 has: the RFC goes on a
 * v6.1 kernel without the merged patch only. FALSE with a file:line error at the
 * kernel's version or the RFC's <patch> otherwise, where the model would have run the
 * RFC in place of the merged wrapper. */
static gboolean
pktgen_check_wrapper_series (const NsScenario *sc, const NsBuild *build, GError **error)
{
  static const char rfc[] = "tc-retpoline-wrappers-rfc", merged[] = "tc-retpoline-wrappers";

  if (!ns_build_has_patch (build, rfc))
    return TRUE;
  if (ns_build_has_change (build, NS_KCHANGE_TC_RETPOLINE_WRAPPER))
    goto merged_in_version;
  if (ns_build_has_patch (build, merged))
    goto merged_patch;
  return TRUE;

/* ERRORS */
merged_in_version:
  ns_xml_error_blame (sc, ns_xml_child (xmlDocGetRootElement (sc->doc), "kernel"),
                      (NsXmlBlame) { .attrs = { "version" },
                                     .also = { ns_scenario_kernel_option (sc, "patch", rfc) } },
                      error, "attribute 'version': kernel %s has the merged tc retpoline "
                      "wrapper (include/net/tc_wrapper.h, v6.2), which patch %s, its RFC, "
                      "cannot go on; drop the patch or use 6.1", ns_build_version (build), rfc);
  return FALSE;
merged_patch:
  ns_xml_error_blame (sc, ns_scenario_kernel_child (sc, "patch", rfc), (NsXmlBlame) {
                        .attrs = { "name" },
                        .also = { ns_scenario_kernel_option (sc, "patch", merged) } },
                      error, "attribute 'name': patches %s and %s are two versions of one "
                      "series (the RFC and the merged v6), both creating "
                      "include/net/tc_wrapper.h; apply one", rfc, merged);
  return FALSE;
}

/* What an error about patch having no chain to act on is about: the patch and the options
 * that decide whether the build has a wrapper with matchall in it. */
static NsXmlBlame
chain_blame (const NsScenario *sc, const NsBuild *build, const char *patch)
{
  static const char *const wrappers[] = {
    "tc-retpoline-wrappers", "tc-retpoline-wrappers-rfc", NULL
  };
  NsXmlBlame blame = {
    .also = { ns_scenario_kernel_option (sc, "patch", patch),
              ns_scenario_kernel_option (sc, "config", ns_build_retpoline_option (build)),
              ns_scenario_kernel_option (sc, "config", "CONFIG_NET_CLS_MATCHALL") } };

  ns_xml_blame_kernel (sc, &blame, wrappers);   /* the version, a wrapper patch renamed */
  return blame;
}

/* The what-if patches that move matchall in the wrapper's classifier chain need it in
 * one: FALSE with a file:line error where the build has no wrapper or matchall is a module,
 * which would leave the patch without effect. */
static gboolean
pktgen_check_chain_whatif (const NsScenario *sc, const NsBuild *build, const TcEnv *tc,
                           GError **error)
{
  static const char *const moves[] = { "tc-wrapper-cls-first", "tc-wrapper-cls-last", NULL };

  if (ns_build_has_patch (build, moves[0]) && ns_build_has_patch (build, moves[1])) {
    ns_xml_error_blame (sc, sc->workload, (NsXmlBlame) {
                          .also = { ns_scenario_kernel_option (sc, "patch", moves[0]),
                                    ns_scenario_kernel_option (sc, "patch", moves[1]) } },
                        error, "patches %s and %s: matchall cannot be both first and last in "
                        "the classifier chain; apply one", moves[0], moves[1]);
    return FALSE;
  }
  for (guint i = 0; moves[i]; i++)
    if (ns_build_has_patch (build, moves[i]) &&
        tc_wrapper_cls_position (tc, tc_classifier_fn ("mall_classify")) == 0) {
      ns_xml_error_blame (sc, sc->workload, chain_blame (sc, build, moves[i]), error,
                          "patch %s moves matchall in the tc wrapper's compare chain, but "
                          "this build has none for it: no wrapper (before v6.2 without "
                          "tc-retpoline-wrappers, or %s=n) or matchall a module "
                          "(CONFIG_NET_CLS_MATCHALL not y)", moves[i],
                          ns_build_retpoline_option (build));
      return FALSE;
    }
  return TRUE;
}

/* Reads the filter attributes into *f; FALSE with a file:line error. */
static gboolean
pktgen_read_filters (const NsScenario *sc, NsMachine *machine, PktgenFilters *f,
                     GError **error)
{
  const NsWorkloadAttr *attrs = pktgen_attributes;
  xmlNodePtr w = sc->workload;
  guint classifier, action, last, proto, setup_cpus;

  if (!ns_workload_attr_uint (sc, attrs, "filters", &f->n, error) ||
      !ns_workload_attr_choice (sc, attrs, "classifier", &classifier, error) ||
      !ns_workload_attr_uint (sc, attrs, "programs", &f->programs, error) ||
      !ns_workload_attr_choice (sc, attrs, "action", &action, error) ||
      !ns_workload_attr_choice (sc, attrs, "last-action", &last, error) ||
      !ns_workload_attr_choice (sc, attrs, "protocol", &proto, error) ||
      !ns_workload_attr_cpu (sc, machine, attrs, "setup-cpus", &setup_cpus, error))
    return FALSE;
  f->bpf = classifier == 1;
  if (!f->bpf && f->programs != 1)
    goto matchall_programs;
  if (f->n * f->programs > 4096)
    goto too_many_programs;
  if (f->bpf && (xmlHasProp (w, BAD_CAST "action") || xmlHasProp (w, BAD_CAST "last-action")))
    goto bpf_action;
  f->verdict = verdict_values[action];
  f->last = verdict_values[last];
  f->protocol = protocol_values[proto];
  f->setup_cpus = setup_cpus;
  return TRUE;

/* ERRORS */
matchall_programs:
  ns_xml_error_blame (sc, w, (NsXmlBlame) { .attrs = { "programs", "classifier" } }, error,
                      "attribute 'programs': a matchall filter has one program (classifier "
                      "bpf takes more), got %" G_GUINT64_FORMAT, f->programs);
  return FALSE;
too_many_programs:
  ns_xml_error_attr (sc, w, "programs", error, "attribute 'programs': at most 4096 programs "
                     "in all (each takes a page of simulated memory), got %" G_GUINT64_FORMAT
                     " filters of %" G_GUINT64_FORMAT, f->n, f->programs);
  return FALSE;
bpf_action:
  ns_xml_error_attr (sc, w, xmlHasProp (w, BAD_CAST "action") ? "action" : "last-action",
                     error, "attribute '%s': the bpf classifier's programs (ret #0) take no "
                     "action; leave it out", xmlHasProp (w, BAD_CAST "action") ? "action"
                                                                             : "last-action");
  return FALSE;
}

/* Reads the workload's attributes; FALSE with a file:line error. */
static gboolean
pktgen_read (const NsScenario *sc, NsMachine *machine, guint *cpu, guint64 *clone_skb,
             guint64 *pkt_size, PktgenFilters *f, GError **error)
{
  const NsWorkloadAttr *attrs = pktgen_attributes;
  guint mode;

  return ns_workload_attr_check (sc, attrs, error) &&
         ns_workload_attr_cpu (sc, machine, attrs, "cpu", cpu, error) &&
         ns_workload_attr_choice (sc, attrs, "xmit-mode", &mode, error) &&
         ns_workload_attr_uint (sc, attrs, "clone-skb", clone_skb, error) &&
         ns_workload_attr_uint (sc, attrs, "pkt-size", pkt_size, error) &&
         pktgen_read_filters (sc, machine, f, error) &&
         pktgen_check_config (sc, ns_machine_build (machine), f->bpf, error) &&
         pktgen_check_wrapper_series (sc, ns_machine_build (machine), error);
}

static void pktgen_free (gpointer state);

/* Reads the attributes, builds the dummy device, its filters and the pktgen device and
 * spawns kpktgend_0; NULL with a file:line error. */
static gpointer
pktgen_setup (const NsScenario *sc, NsMachine *machine, NsEngine *engine, gsl_rng *rng,
              GError **error)
{
  guint64 clone_skb, pkt_size;
  PktgenFilters filters;
  guint cpu;
  Pktgen *pg;

  if (!pktgen_read (sc, machine, &cpu, &clone_skb, &pkt_size, &filters, error))
    return NULL;
  pg = g_new0 (Pktgen, 1);
  pg->machine = machine;
  pg->tc = tc_env_new (machine);
  if (!pktgen_check_chain_whatif (sc, ns_machine_build (machine), pg->tc, error)) {
    pktgen_free (pg);
    return NULL;
  }
  pg->tx = net_tx_new (machine, pg->tc);
  pg->dev = dummy_create (pg->tx, "dummy0");
  pktgen_add_filters (pg, &filters);
  pg->pkt_dev = pktgen_dev_create (pg, clone_skb, pkt_size);
  pg->thread = ns_arena_alloc (ns_machine_arena (machine), sizeof *pg->thread, 64);
  pg->thread->if_list.next = &pg->pkt_dev->list;
  pg->task = ns_arena_alloc (ns_machine_arena (machine), sizeof *pg->task, 64);
  pg->preempt_rcu = ns_build_config_on (ns_machine_build (machine), "CONFIG_PREEMPT_RCU");
  pg->memset_path = ns_memset_path (ns_machine_build (machine), ns_machine_params (machine),
                                    ns_machine_mitigations (machine)->cpu_features);
  pg->voluntary_preempt = ns_build_config_on (ns_machine_build (machine),
                                              "CONFIG_PREEMPT_VOLUNTARY");
  ns_engine_spawn (engine, "kpktgend_0", cpu, NS_THREAD_USER, 0, pktgen_thread_worker, pg);
  return pg;
}

/* Snapshots the packet count and the tc wrapper's call counters. */
static void
pktgen_mark (gpointer state)
{
  Pktgen *pg = state;
  pg->packets_mark = pg->packets;
  pg->sent_mark = pg->sent;
  pg->errors_mark = pg->errors;
  tc_wrapper_counts (pg->tc, &pg->mark_direct, &pg->mark_indirect, &pg->mark_compares);
}

/* Packets sent since the mark. */
static guint64
pktgen_ops (gpointer state)
{
  Pktgen *pg = state;
  return pg->packets - pg->packets_mark;
}

/* Value of metric since the mark over span; FALSE for an unknown metric or no packets. */
static gboolean
pktgen_metric (gpointer state, NsMachine *machine, const char *metric, NsTime span,
               double *value)
{
  Pktgen *pg = state;
  double packets = (double) pktgen_ops (state);
  guint64 direct, indirect, compares;

  if (packets == 0 || span == 0)
    return FALSE;
  tc_wrapper_counts (pg->tc, &direct, &indirect, &compares);
  if (g_str_equal (metric, "pps"))          /* pktgen's: sofar, the successes */
    *value = ns_workload_rate ((double) (pg->sent - pg->sent_mark), span);
  else if (g_str_equal (metric, "errors_pps"))
    *value = ns_workload_rate ((double) (pg->errors - pg->errors_mark), span);
  else if (g_str_equal (metric, "ns_per_packet"))
    *value = (double) span / 1000.0 / packets;
  else if (g_str_equal (metric, "cycles_per_packet"))
    *value = ns_workload_span_cycles (machine, span) / packets;
  else if (g_str_equal (metric, "wrapper_compares_per_packet"))
    *value = (double) (compares - pg->mark_compares) / packets;
  else if (g_str_equal (metric, "indirect_calls_per_packet"))   /* tc calls only */
    *value = (double) (indirect - pg->mark_indirect) / packets;
  else if (g_str_equal (metric, "direct_calls_per_packet"))
    *value = (double) (direct - pg->mark_direct) / packets;
  else
    return FALSE;
  return TRUE;
}

/* Frees the transmit path, the tc environment and the state (NULL is fine, as for every
 * workload class). */
static void
pktgen_free (gpointer state)
{
  Pktgen *pg = state;

  if (pg == NULL)
    return;
  net_tx_free (pg->tx);
  tc_env_free (pg->tc);
  g_free (pg);
}

const NsWorkloadClass ns_pktgen_class = {
  .name = "pktgen",
  .description = "pktgen queue_xmit on a dummy device with clsact egress matchall (or cls_bpf) "
                 "filters",
  .op_name = "packet",
  .metrics = metrics,
  .attributes = pktgen_attributes,
  .per_time_metrics = per_time_metrics,
  .setup = pktgen_setup,
  .mark = pktgen_mark,
  .ops = pktgen_ops,
  .metric = pktgen_metric,
  .free = pktgen_free,
};
