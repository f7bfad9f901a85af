/* test-ip.c — the UDP datagram's skb as __ip_append_data / __ip6_append_data build it
 * (models/net/ip.c, with skbuff.c's page fragments and udp_rx.c's copy out), against the
 * rules of Linux v6.9's net/ipv4/ip_output.c, net/ipv6/ip6_output.c and net/core/sock.c:
 *  - one linear skb while fraglen + alloc_extra < SKB_MAX_ALLOC (16064 = 16 KiB less the
 *    aligned skb_shared_info), with alloc_extra = hh_len 16 + 15 on IPv4 and hh_len +
 *    sizeof(struct frag_hdr) 8 on IPv6; from there on — lo has NETIF_F_SG — a head for
 *    the headers alone and the payload in page fragments: data_len = the payload, truesize
 *    = SKB_TRUESIZE of the head plus every byte put in a fragment;
 *  - the fragments come from the task's page_frag (sk_page_frag with sk_use_task_frag):
 *    skb_page_frag_refill reuses the page from offset 0 once nobody else holds it, keeps
 *    it while 32 bytes remain, else puts it and takes a new 32 KiB page; a fragment grows
 *    the last one when skb_can_coalesce (same page, contiguous), else a new one takes a
 *    page reference;
 *  - the fragment bytes reach sk_wmem_alloc (wmem_alloc_delta), so the loopback orphan
 *    leaves it where it was; a read copies the whole datagram out and its consume puts the
 *    pages: only the task's page is left;
 *  - the headroom reserved in front of the headers: hh_len, plus sizeof(struct frag_hdr)
 *    on IPv6;
 *  - write(2) refuses a payload above 65507 bytes on IPv4 and 65527 on IPv6 (EMSGSIZE).
 * The expected values come from those rules, computed here (frag_oracle replays
 * skb_page_frag_refill and skb_can_coalesce), never read from the model. */
#include "config.h"
#include <errno.h>
#include "udp-pair-rig.h"
#include "kernel-sizes.h"

#define FRAG_PAGE      32768           /* PAGE_SIZE << SKB_FRAG_PAGE_ORDER */
#define MAX_PAGES      64
#define MAX_FRAGS      17

/* The datagram's expected truesize on a v6.3+ kernel (skb_small_head_cache). */
static guint
kernel_truesize (gint family, guint len)
{
  return kernel_udp_truesize (family, len, TRUE);
}

/* ---- linear or paged ---- */

typedef struct {
  gint  family;
  guint len;
} ShapeCase;

static const ShapeCase shape_cases[] = {
  { AF_INET, 8920 }, { AF_INET, 16004 }, { AF_INET, 16005 }, { AF_INET, 32000 },
  { AF_INET, 65507 },
  { AF_INET6, 8920 }, { AF_INET6, 15991 }, { AF_INET6, 15992 }, { AF_INET6, 65527 },
};

/* A datagram is linear or paged where the kernel's test puts it, with the kernel's
 * data_len and truesize, and the whole of it is read back. */
START_TEST (test_linear_or_paged)
{
  const ShapeCase *c = &shape_cases[_i];
  gboolean paged = kernel_udp_paged (c->family, c->len);
  struct sk_buff *skb;
  Rig rig;

  rig_init (&rig, "6.9.0", c->family, 0);
  send_datagram (&rig, c->len);
  skb = last_queued (&rig);
  ck_assert_msg (skb->len == c->len, "%u bytes: skb->len %u past the UDP header", c->len,
                 skb->len);
  ck_assert_uint_eq (skb->data_len, paged ? c->len : 0);
  ck_assert_uint_eq (skb_shinfo (skb)->nr_frags > 0, paged);
  ck_assert_msg (skb->truesize == kernel_truesize (c->family, c->len),
                 "%u bytes: truesize %u, the kernel's %u", c->len, skb->truesize,
                 kernel_truesize (c->family, c->len));
  ck_assert_int_eq (read_datagram (&rig, RIG_BUF), (gssize) c->len);
  rig_clear (&rig);
}
END_TEST

/* The headers start where the append reserved room for them: hh_len (16) on IPv4
 * (__ip_append_data's skb_reserve), hh_len + sizeof(struct frag_hdr) (8) +
 * dst_exthdrlen (0) on IPv6 (__ip6_append_data's), so an IPv6 UDP header starts a cache
 * line of a 64-byte aligned head, as in the kernel. */
START_TEST (test_headroom)
{
  const ShapeCase *c = &shape_cases[_i];
  struct sk_buff *skb;
  Rig rig;

  rig_init (&rig, "6.9.0", c->family, 0);
  send_datagram (&rig, c->len);
  skb = last_queued (&rig);
  ck_assert_uint_eq (skb->network_header, c->family == AF_INET6 ? 16 + 8 : 16);
  rig_clear (&rig);
}
END_TEST

/* ---- the task's page fragment ---- */

typedef struct {
  gint   refs[MAX_PAGES];         /* page id → references */
  guint  n_pages;
  gint   page;                    /* the page_frag's page (-1: none) */
  guint  offset;
} FragOracle;

typedef struct {
  gint  page;
  guint offset, len;
} OracleFrag;

/* skb_page_frag_refill(32, pfrag) as v6.9 does it. */
static void
oracle_refill (FragOracle *o)
{
  if (o->page >= 0) {
    if (o->refs[o->page] == 1) {
      o->offset = 0;
      return;
    }
    if (o->offset + 32 <= FRAG_PAGE)
      return;
    o->refs[o->page]--;
  }
  g_assert (o->n_pages < MAX_PAGES);
  o->page = (gint) o->n_pages++;
  o->refs[o->page] = 1;
  o->offset = 0;
}

/* __ip_append_data's SG loop for a len-byte payload: the frags it makes, their count. */
static guint
oracle_append (FragOracle *o, guint len, OracleFrag *frags)
{
  guint n = 0;

  while (len > 0) {
    guint copy;
    oracle_refill (o);
    if (n == 0 || frags[n - 1].page != o->page ||
        frags[n - 1].offset + frags[n - 1].len != o->offset) {
      g_assert (n < MAX_FRAGS);
      frags[n++] = (OracleFrag) { o->page, o->offset, 0 };
      o->refs[o->page]++;
    }
    copy = MIN (len, FRAG_PAGE - o->offset);
    o->offset += copy;
    frags[n - 1].len += copy;
    len -= copy;
  }
  return n;
}

/* The model's frags of skb equal the oracle's, pages matched by first appearance. */
static void
expect_frags (struct sk_buff *skb, const OracleFrag *frags, guint n, struct page_ns **ids,
              guint *n_ids, guint k)
{
  struct skb_shared_info *shinfo = skb_shinfo (skb);

  ck_assert_msg (shinfo->nr_frags == n, "datagram %u: %u frags, the kernel's %u", k,
                 shinfo->nr_frags, n);
  for (guint i = 0; i < n; i++) {
    const skb_frag_t *f = &shinfo->frags[i];
    if ((guint) frags[i].page == *n_ids)
      ids[(*n_ids)++] = f->bv_page;
    ck_assert_msg (f->bv_page == ids[frags[i].page], "datagram %u frag %u: another page", k,
                   i);
    ck_assert_msg (f->bv_offset == frags[i].offset && f->bv_len == frags[i].len,
                   "datagram %u frag %u: %u+%u, the kernel's %u+%u", k, i, f->bv_offset,
                   f->bv_len, frags[i].offset, frags[i].len);
  }
}

static const guint frag_lens[] = { 20000, 20000, 20000, 17000, 30000, 16500 };

/* Datagrams sent unread share, continue and replace the task's page as the kernel's
 * refill and coalescing rules say; once all are read, the page is reused from offset 0
 * and only the task's page is left live. */
START_TEST (test_task_frag_pages)
{
  struct page_ns *ids[MAX_PAGES];
  OracleFrag frags[MAX_FRAGS];
  FragOracle o = { .page = -1 };
  guint n_ids = 0, n;
  Rig rig;

  rig_init (&rig, "6.9.0", AF_INET, 1 << 20);
  for (guint k = 0; k < G_N_ELEMENTS (frag_lens); k++) {
    send_datagram (&rig, frag_lens[k]);
    n = oracle_append (&o, frag_lens[k], frags);
    expect_frags (last_queued (&rig), frags, n, ids, &n_ids, k);
  }
  for (guint k = 0; k < G_N_ELEMENTS (frag_lens); k++)
    ck_assert_int_eq (read_datagram (&rig, RIG_BUF), (gssize) frag_lens[k]);
  ck_assert_uint_eq (ns_skb_alloc_live_frag_pages (rig.s.stack->alloc), 1);
  send_datagram (&rig, 20000);
  ck_assert_uint_eq (skb_shinfo (last_queued (&rig))->frags[0].bv_offset, 0);
  ck_assert_int_ge (o.page, 0);         /* the task's page: the last one the oracle took */
  ck_assert_ptr_eq (skb_shinfo (last_queued (&rig))->frags[0].bv_page, ids[o.page]);
  ck_assert_uint_eq (ns_skb_alloc_live_frag_pages (rig.s.stack->alloc), 1);
  rig_clear (&rig);
}
END_TEST

/* The fragment bytes are charged to sk_wmem_alloc with the head's truesize, so the
 * loopback orphan (sock_wfree of the whole truesize) leaves the sender's count at its
 * initial 1. */
START_TEST (test_paged_wmem_returns)
{
  Rig rig;

  rig_init (&rig, "6.9.0", AF_INET, 0);
  send_datagram (&rig, 40000);
  ck_assert_int_eq (ns_file_sock (rig.client)->sk_wmem_alloc, 1);
  rig_clear (&rig);
}
END_TEST

/* The receive buffer admits paged datagrams by their truesize (head + payload): with the
 * default 212992 bytes, 32000-byte datagrams of truesize 32896 fill it after 7. */
START_TEST (test_paged_rcvbuf_admission)
{
  guint truesize = kernel_truesize (AF_INET, 32000);
  struct sock *sk;
  guint admitted = 0, rmem = 0;
  Rig rig;

  rig_init (&rig, "6.9.0", AF_INET, 0);
  sk = ns_file_sock (rig.server);
  for (guint k = 0; k < 10; k++) {
    send_datagram (&rig, 32000);
    if (rmem <= (guint) sk->sk_rcvbuf) {
      rmem += truesize;
      admitted++;
    }
  }
  ck_assert_uint_eq (sk->sk_receive_queue.qlen, admitted);
  ck_assert_uint_eq (admitted, 7);
  ck_assert_int_eq (sk->sk_rmem_alloc, (gint) rmem);
  rig_clear (&rig);
}
END_TEST

/* ---- the largest datagram ---- */

/* 65507 bytes is IPv4's largest payload and 65527 IPv6's; a byte more is EMSGSIZE. */
START_TEST (test_emsgsize)
{
  const gint family = _i == 0 ? AF_INET : AF_INET6;
  const gsize max = family == AF_INET ? 65507 : 65527;
  Rig rig;

  rig_init (&rig, "6.9.0", family, 0);
  ck_assert_int_eq (write_on (&rig, rig.client, max), (gssize) max);
  ck_assert_int_eq (write_on (&rig, rig.client, max + 1), -EMSGSIZE);
  ck_assert_uint_eq (ns_file_sock (rig.server)->sk_receive_queue.qlen, 1);
  rig_clear (&rig);
}
END_TEST

static Suite *
ip_suite (void)
{
  Suite *s = suite_create ("ip");
  TCase *tc = tcase_create ("append_data");

  tcase_add_loop_test (tc, test_linear_or_paged, 0, G_N_ELEMENTS (shape_cases));
  tcase_add_loop_test (tc, test_headroom, 0, G_N_ELEMENTS (shape_cases));
  tcase_add_test (tc, test_task_frag_pages);
  tcase_add_test (tc, test_paged_wmem_returns);
  tcase_add_test (tc, test_paged_rcvbuf_admission);
  tcase_add_loop_test (tc, test_emsgsize, 0, 2);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (ip_suite ());
  gint failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
