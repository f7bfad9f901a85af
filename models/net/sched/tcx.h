/* tcx.h — the objects v6.6's tcx rework (e420bed02507, "bpf: Add fd-based tcx multi-prog
 * infra with link support") hangs off a device: dev->tcx_egress / tcx_ingress point at the
 * active bpf_mprog_entry of a tcx_entry, which also holds the mini_Qdisc pointer clsact
 * publishes (include/net/tcx.h, include/linux/bpf_mprog.h). The offsets are Debian
 * 6.12.118's DWARF (`ptype /o struct tcx_entry`): 1608 bytes, so kmalloc-2k. */
#pragma once
#include "pkt_cls.h"

G_BEGIN_DECLS

#define BPF_MPROG_MAX 64

struct bpf_mprog_bundle;

/* struct bpf_mprog_entry: the programs' slots (struct bpf_mprog_fp, one pointer each) and
 * the bundle it belongs to, which tcx_entry() follows back to the tcx_entry. */
struct bpf_mprog_entry {
  gpointer                 fp_items[BPF_MPROG_MAX];   /*   0 */
  struct bpf_mprog_bundle *parent;                    /* 512 */
};

/* struct bpf_mprog_bundle: two entries (one active, one being built) and their links. */
struct bpf_mprog_bundle {
  struct bpf_mprog_entry   a;                         /*    0 */
  struct bpf_mprog_entry   b;                         /*  520 */
  gpointer                 cp_items[BPF_MPROG_MAX];   /* 1040: struct bpf_mprog_cp */
  gpointer                 ref;                       /* 1552 */
  gint64                   revision;                  /* 1560 */
  guint32                  count;                     /* 1568 */
};

/* struct tcx_entry: the mini_Qdisc clsact publishes, the bundle, how many qdiscs use it. */
struct tcx_entry {
  struct mini_Qdisc       *miniq;                     /*    0 */
  struct bpf_mprog_bundle  bundle;                    /*    8 */
  guint32                  miniq_active;              /* 1584 */
  gpointer                 rcu[2];                    /* 1592: struct rcu_head */
};

G_STATIC_ASSERT (sizeof (struct bpf_mprog_entry) == 520);
G_STATIC_ASSERT (G_STRUCT_OFFSET (struct tcx_entry, bundle) == 8);
G_STATIC_ASSERT (G_STRUCT_OFFSET (struct tcx_entry, bundle.a.parent) == 520);
G_STATIC_ASSERT (G_STRUCT_OFFSET (struct tcx_entry, miniq_active) == 1584);
G_STATIC_ASSERT (sizeof (struct tcx_entry) == 1608);

/* tcx_entry(entry): the tcx_entry whose bundle holds entry (container_of of its parent). */
static inline struct tcx_entry *
tcx_entry (struct bpf_mprog_entry *entry)
{
  return (struct tcx_entry *) ((guint8 *) entry->parent -
                               G_STRUCT_OFFSET (struct tcx_entry, bundle));
}

G_END_DECLS
