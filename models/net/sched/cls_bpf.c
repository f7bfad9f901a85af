/* cls_bpf.c — net/sched/cls_bpf.c: the BPF classifier, with the classic programs `tc
 * filter add … bpf bytecode` loads (the model's side of tools/bench-tc-walk, doc/model.md
 * "The kernel's own tc walk").
 * cls_bpf_classify loads tp->root (the head) and walks its list of programs (plist, newest
 * first: cls_bpf_change adds with list_add_rcu). For each: the program's classid goes to
 * the qdisc cb's tc_classid; a skip_sw program does not run; else (egress)
 * bpf_compute_data_pointers fills the cb's data_meta and data_end and bpf_prog_run calls
 * the program's JIT image through prog->bpf_func, an indirect call that no tc wrapper
 * covers; then the tstamp test. A direct-action program's return is the verdict
 * (cls_bpf_exec_opcode; UNSPEC goes on to the next program); otherwise 0 is no match (the
 * next program), -1 the program's own tcf_result, any other value a classid, and the
 * program's actions give the verdict (tcf_exts_exec; none: TC_ACT_OK); a negative verdict
 * goes on. Falling off the list returns -1.
 *
 * struct cls_bpf_head (v6.1, from the field order with natural alignment): plist 0,
 * handle_idr 16 (struct idr, 24 bytes), rcu 40: 56 bytes, kmalloc-64. struct cls_bpf_prog:
 * filter 0, link 8, res 24, exts_integrated 40, gen_flags 44, in_hw_count 48, exts 56,
 * handle 88, bpf_num_ops 92, bpf_ops 96, bpf_name 104, tp 112, rwork 120: 176 bytes,
 * kmalloc-192. struct bpf_prog (include/linux/filter.h, v6.1): pages 0, the flag bits 2,
 * type 4, expected_attach_type 8, len 12, jited_len 16, tag 20, stats 32, active 40,
 * bpf_func 48, aux 56, orig_prog 64, insnsi 72; bpf_prog_alloc takes it from vmalloc,
 * rounded up to whole pages, so each program starts a page of its own. Not checked
 * against DWARF (the layouts of pkt_cls.h were); every offset the path uses agrees with
 * the census binary's accesses below (filter 0, link 8, res 24 and its classid 32,
 * exts_integrated 40, gen_flags 44, exts' nr_actions 60 and actions 64; bpf_func 48,
 * insnsi 72; the skb's tstamp 32, cb 40, len 112, data_len 116, end 192, head 200,
 * data 208).
 *
 * Census: the Debian 6.1.176 build's cls_bpf.ko (linux-image-6.1.0-50-cloud-amd64-unsigned
 * 6.1.176-1, the build of the census in doc/census/; objdump -d, 2026-12-06), the egress
 * path of a program that is not skip_sw nor direct-action and returns 0, with skb->tstamp
 * 0 and its delivery-time bit clear: on entry +0x16..+0x40, 10 instructions; a program
 * +0x44..+0x51, +0x90..+0xbf, +0x1a6..+0x1d2, +0x1d7..+0x1ed, +0x141..+0x146,
 * +0x333..+0x33d, +0x14c..+0x151, +0x212..+0x214, +0x1fb..+0x206: 48, the indirect call's
 * `call __x86_indirect_thunk_rax` included; leaving the list +0x20c..+0x210, 2. In that
 * build the cb's data_meta and data_end words are saved on the stack before the run and
 * put back after it. The frame (16: the ftrace site, %rbp and five more registers, the
 * stack frame) and the size (945 bytes) are tools/prologue-census's on that module. */
#include "config.h"
#include "sched-priv.h"
#include "net/netdevice.h"             /* struct list_head_ns */

#define PAGE_BYTES 4096
/* The sk_buff's flag byte that holds tc_at_ingress and mono_delivery_time in v6.1 (the
 * census binary's 0x82(%rdi); the model's struct names that byte csum_valid) */
#define SKB_TC_FLAGS_OFFSET 130

/* Load sites of the walk that see one object per program (ns_load_site). */
static NS_LOAD_SITE (site_link_next, "cls_bpf_classify: prog->link.next (cls_bpf_prog CL0)");
static NS_LOAD_SITE (site_filter, "cls_bpf_classify: prog->filter (cls_bpf_prog CL0)");
static NS_LOAD_SITE (site_bpf_func, "bpf_prog_run: prog->bpf_func (bpf_prog CL0)");

struct cls_bpf_head {
  struct list_head_ns plist;               /*  0 */
  guint8              handle_idr[24];      /* 16: struct idr */
  guint8              rcu[16];             /* 40 */
};
G_STATIC_ASSERT (sizeof (struct cls_bpf_head) == 56);

/* struct bpf_prog as far as the run needs it, then what the model keeps of the program. */
struct bpf_prog_ns {
  guint16             pages;               /*  0 */
  guint16             flag_bits;           /*  2: jited, jit_requested, … */
  guint32             type;                /*  4 */
  guint32             expected_attach_type;/*  8 */
  guint32             len;                 /* 12 */
  guint32             jited_len;           /* 16 */
  guint8              tag[8];              /* 20 */
  gpointer            stats;               /* 32: __percpu */
  gpointer            active;              /* 40: __percpu */
  NsFunc             *bpf_func;            /* 48: the JIT's image */
  gpointer            aux;                 /* 56 */
  gpointer            orig_prog;           /* 64 */
  guint64             insnsi[1];           /* 72: the converted program (model: unused) */
  /* model only: the classic program's one instruction, `ret #k` */
  guint32             ret_k;
};
G_STATIC_ASSERT (offsetof (struct bpf_prog_ns, bpf_func) == 48);
G_STATIC_ASSERT (offsetof (struct bpf_prog_ns, insnsi) == 72);

struct cls_bpf_prog {
  struct bpf_prog_ns *filter;              /*   0 CL0 */
  struct list_head_ns link;                /*   8 */
  struct tcf_result   res;                 /*  24 */
  gboolean            exts_integrated;     /*  40 (bool + pad) */
  guint32             gen_flags;           /*  44 */
  guint32             in_hw_count;         /*  48 */
  guint32             _pad52;
  struct tcf_exts     exts;                /*  56 */
  guint32             handle;              /*  88 */
  guint16             bpf_num_ops;         /*  92 */
  guint16             _pad94;
  gpointer            bpf_ops;             /*  96 */
  const char         *bpf_name;            /* 104 */
  struct tcf_proto   *tp;                  /* 112 */
  guint8              rwork[56];           /* 120: struct rcu_work */
};
G_STATIC_ASSERT (offsetof (struct cls_bpf_prog, link) == 8);
G_STATIC_ASSERT (offsetof (struct cls_bpf_prog, exts) == 56);
G_STATIC_ASSERT (offsetof (struct cls_bpf_prog, tp) == 112);
G_STATIC_ASSERT (sizeof (struct cls_bpf_prog) == 176);

/* The qdisc cb as bpf_compute_data_pointers sees it (struct bpf_skb_data_end): pkt_len,
 * slave_dev_queue_mapping, tc_classid, data[20], then data_meta and data_end. */
struct bpf_skb_data_end_ns {
  guint32             pkt_len;             /*  0 */
  guint16             slave_dev_queue_mapping;
  guint16             tc_classid;          /*  6 */
  guint8              data[20];            /*  8 */
  guint32             _pad28;
  guchar             *data_meta;           /* 32 */
  guchar             *data_end;            /* 40 */
};
G_STATIC_ASSERT (sizeof (struct bpf_skb_data_end_ns) == 48);

/* cls_bpf_classify: global from v6.2 on a build with the tc wrapper (TC_INDIRECT_SCOPE),
 * reached through tp->classify. Size and frame: the census's (above; the 6.18.44 guest's
 * /proc/kallsyms gives it 0x420 bytes). */
static NS_FUNC (fn_cls_bpf_classify, "cls_bpf_classify", 945, 16,
                NS_FN_STATIC | NS_FN_INDIRECT, 1);

/* The JIT's image of the converted classic program `ret #0`, derived from the x86-64
 * JIT's emit rules (arch/x86/net/bpf_jit_comp.c; not read back: a classic program has no
 * id for bpftool): a 5-byte NOP (the poke site), push %rbp, mov %rsp,%rbp, push %rbx and
 * %r13 (the converter's context and X registers), the converter's prologue (xor %eax,%eax;
 * xor %r13d,%r13d; mov %rdi,%rbx), `ret #0` (xor %eax,%eax), pop %r13 and %rbx, leave,
 * ret: 31 bytes; frame 8 instructions, body 4. Every program's image is charged at this
 * one text address (the model has one NsFunc per function, not per JIT image). */
static NS_FUNC (fn_bpf_prog_image, "bpf_prog_jit_image", 31, 8,
                NS_FN_STATIC | NS_FN_INDIRECT, 0);

static int cls_bpf_classify (NsThread *t, TcEnv *env, struct sk_buff *skb,
                             const struct tcf_proto *tp, struct tcf_result *res);

const TcFn tc_fn_cls_bpf_classify = {
  &fn_cls_bpf_classify, "CONFIG_NET_CLS_BPF", (gpointer) cls_bpf_classify
};

const struct tcf_proto_ops cls_bpf_ops = { "bpf", &tc_fn_cls_bpf_classify };

/* bpf_compute_data_pointers(skb): cb->data_meta = skb->data less the metadata's length
 * (skb_shinfo(skb)->meta_len), cb->data_end = skb->data + skb_headlen(skb), the two words'
 * old values saved first. Census: 19 instructions (+0x90..+0xbf, +0x1a6..+0x1c2 less the
 * static key's NOP). */
static void
bpf_compute_data_pointers (NsThread *t, struct sk_buff *skb)
{
  struct bpf_skb_data_end_ns *cb = (struct bpf_skb_data_end_ns *) skb->cb;
  struct skb_shared_info *shinfo = skb_shinfo (skb);

  ns_load (t, &cb->data_meta, sizeof cb->data_meta + sizeof cb->data_end);   /* saved */
  NS_LOAD_FIELD (t, skb, data);
  NS_LOAD_FIELD (t, skb, head);
  NS_LOAD_FIELD (t, skb, end);
  NS_LOAD_FIELD (t, shinfo, meta_len);
  NS_LOAD_FIELD (t, skb, len);
  NS_LOAD_FIELD (t, skb, data_len);
  cb->data_meta = skb->data - shinfo->meta_len;
  cb->data_end = skb->data + (skb->len - skb->data_len);
  ns_store (t, &cb->data_meta, sizeof cb->data_meta + sizeof cb->data_end);
  ns_insns (t, 19);
}

/* bpf_prog_run(prog, skb) (__always_inline): __bpf_prog_run with the NOP dispatcher — the
 * stats key's NOP, then prog->bpf_func(skb, prog->insnsi), an indirect call (through the
 * retpoline thunk under spectre_v2=retpoline) into the JIT's image. The classic program
 * returns its k. */
static guint32
bpf_prog_run (NsThread *t, TcEnv *env, const struct bpf_prog_ns *prog)
{
  ns_insns_wide (t, 1);                  /* static_branch_unlikely(&bpf_stats_enabled_key) */
  ns_load_site (t, &site_bpf_func, env->thunked, &prog->bpf_func, sizeof prog->bpf_func);
  ns_insns (t, 4);                       /* census: bpf_func's load, lea insnsi, the
                                            context, the call (+0x1c7..+0x1d2) */
  ns_icall (t, prog->bpf_func);
  ns_insns (t, 4);                       /* the image's body (above) */
  ns_ret (t);
  return prog->ret_k;
}

/* cls_bpf_exec_opcode: the verdicts a direct-action program may return; anything else is
 * TC_ACT_UNSPEC. */
static int
cls_bpf_exec_opcode (int code)
{
  switch (code) {
  case TC_ACT_OK: case TC_ACT_SHOT: case TC_ACT_STOLEN: case TC_ACT_TRAP:
  case TC_ACT_REDIRECT: case TC_ACT_UNSPEC:
    return code;
  default:
    return TC_ACT_UNSPEC;
  }
}

/* One program's verdict for the walk: TRUE to go on to the next program, else *ret is
 * the classify result. Census: 4 instructions to a return of 0 (the direct-action test,
 * the zero test: +0x14c..+0x151, +0x212..+0x214); a match's result, estimate: 5 more. */
static gboolean
cls_bpf_verdict (NsThread *t, TcEnv *env, struct sk_buff *skb, struct cls_bpf_prog *prog,
                 int filter_res, struct tcf_result *res, int *ret)
{
  struct bpf_skb_data_end_ns *cb = (struct bpf_skb_data_end_ns *) skb->cb;

  NS_LOAD_FIELD (t, prog, exts_integrated);
  ns_insns (t, 4);
  if (prog->exts_integrated) {
    res->klass = 0;
    res->classid = (prog->res.classid & 0xFFFF0000u) | cb->tc_classid;
    *ret = cls_bpf_exec_opcode (filter_res);
    return *ret == TC_ACT_UNSPEC;
  }
  if (filter_res == 0)
    return TRUE;
  ns_insns (t, 5);
  if (filter_res != -1) {
    res->klass = 0;
    res->classid = (guint32) filter_res;
  } else {
    *res = prog->res;
  }
  *ret = tcf_exts_exec (t, env, skb, &prog->exts, res);
  return *ret < 0;
}

/* cls_bpf_classify: the body (the caller charged the call: tc_classify). */
static int
cls_bpf_classify (NsThread *t, TcEnv *env, struct sk_buff *skb, const struct tcf_proto *tp,
                  struct tcf_result *res)
{
  struct bpf_skb_data_end_ns *cb = (struct bpf_skb_data_end_ns *) skb->cb;
  const struct cls_bpf_head *head;
  const struct list_head_ns *pos;
  int ret = TC_ACT_UNSPEC;

  NS_LOAD_FIELD (t, tp, root);
  head = tp->root;
  /* skb_at_tc_ingress (bit 7 of the skb's flag byte at 130), the list's first entry, the
   * result -1 kept on the stack; census: 10 */
  ns_load (t, (const guint8 *) skb + SKB_TC_FLAGS_OFFSET, 1);
  ns_load_site (t, &site_link_next, env->thunked, &head->plist.next, sizeof head->plist.next);
  ns_insns (t, 10);
  for (pos = head->plist.next; pos != &head->plist; pos = pos->next) {
    struct cls_bpf_prog *prog = (struct cls_bpf_prog *) ((guint8 *) pos -
                                                         offsetof (struct cls_bpf_prog, link));
    int filter_res = 0;

    /* qdisc_skb_cb(skb)->tc_classid = prog->res.classid; tc_skip_sw(prog->gen_flags);
     * census: 4 */
    NS_LOAD_FIELD (t, prog, res.classid);
    cb->tc_classid = (guint16) prog->res.classid;
    ns_store (t, &cb->tc_classid, sizeof cb->tc_classid);
    NS_LOAD_FIELD (t, prog, gen_flags);
    ns_insns (t, 4);
    if (!(prog->gen_flags & TCA_CLS_FLAGS_SKIP_SW)) {
      bpf_compute_data_pointers (t, skb);
      ns_load_site (t, &site_filter, env->thunked, &prog->filter, sizeof prog->filter);
      filter_res = (int) bpf_prog_run (t, env, prog->filter);
      /* the cb's two words put back, the result kept; census: 7 (+0x1d7..+0x1ed) */
      ns_store (t, &cb->data_meta, sizeof cb->data_meta + sizeof cb->data_end);
      ns_insns (t, 7);
    } else if (prog->exts_integrated) {
      filter_res = TC_ACT_UNSPEC;
    }
    /* the delivery-time test: skb->tstamp, and with it 0 the mono bit of the flag byte;
     * census: 5 (+0x141..+0x146, +0x333..+0x33d) */
    NS_LOAD_FIELD (t, skb, tstamp);
    ns_load (t, (const guint8 *) skb + SKB_TC_FLAGS_OFFSET, 1);
    ns_insns (t, 5);
    if (!cls_bpf_verdict (t, env, skb, prog, filter_res, res, &ret))
      return ret;
    /* the list step: prog->link.next, container_of, the compare with the head; census: 4 */
    ns_load_site (t, &site_link_next, env->thunked, &pos->next, sizeof pos->next);
    ns_insns (t, 4);
  }
  ns_insns (t, 2);                  /* census: the result -1 from the stack (+0x20c..+0x210) */
  return TC_ACT_UNSPEC;
}

/* ---- configuration (control path: no simulated cost) ---- */

/* cls_bpf_init: the filter's head, an empty program list. */
static struct cls_bpf_head *
cls_bpf_init (TcEnv *env, struct tcf_proto *tp)
{
  struct cls_bpf_head *head = tc_kzalloc (env, sizeof *head);

  head->plist.next = head->plist.prev = &head->plist;
  tp->root = head;
  return head;
}

/* bpf_prog_create_from_user for the one-instruction classic program `ret #k`: the
 * program from vmalloc (whole pages: a page of its own), its image the JIT's. */
static struct bpf_prog_ns *
bpf_prog_create_ret (TcEnv *env, guint32 k)
{
  struct bpf_prog_ns *fp = ns_arena_alloc (env->arena, PAGE_BYTES, PAGE_BYTES);

  fp->pages = 1;
  fp->len = 5;                      /* the converter's three-instruction prologue, mov, exit */
  fp->bpf_func = &fn_bpf_prog_image;
  fp->ret_k = k;
  return fp;
}

/* See pkt_cls.h: cls_bpf_change of a new program (cls_bpf_init on the filter's first). */
void
cls_bpf_change (TcEnv *env, struct tcf_proto *tp, guint32 handle, guint32 ret_k)
{
  struct cls_bpf_head *head;
  struct cls_bpf_prog *prog;

  g_return_if_fail (env != NULL && tp != NULL);
  head = tp->root != NULL ? tp->root : cls_bpf_init (env, tp);
  prog = tc_kzalloc (env, sizeof *prog);
  prog->exts.actions = tc_kzalloc (env, TCA_ACT_MAX_PRIO * sizeof (struct tc_action *));
  prog->handle = handle;
  prog->tp = tp;
  prog->bpf_num_ops = 1;
  prog->bpf_ops = tc_kzalloc (env, 8);   /* kmemdup of the one sock_filter */
  prog->filter = bpf_prog_create_ret (env, ret_k);
  /* list_add_rcu(&prog->link, &head->plist): the new program runs first */
  prog->link.next = head->plist.next;
  prog->link.prev = &head->plist;
  ((struct list_head_ns *) head->plist.next)->prev = &prog->link;
  head->plist.next = &prog->link;
}

/* See pkt_cls.h: the filter's programs. */
guint
cls_bpf_count (const struct tcf_proto *tp)
{
  const struct cls_bpf_head *head;
  guint n = 0;

  g_return_val_if_fail (tp != NULL, 0);
  head = tp->root;
  if (head == NULL)
    return 0;
  for (const struct list_head_ns *pos = head->plist.next; pos != &head->plist; pos = pos->next)
    n++;
  return n;
}
