/* kernel-sizes.h — the kernel's size rules the skb and UDP tests compute their expected
 * values from, independently of the model (x86-64, 4 KiB pages, SLUB): mm/slab_common.c
 * (kmalloc_info, kmalloc_size_roundup), net/core/skbuff.c (__alloc_skb, kmalloc_reserve,
 * __build_skb_around, SKB_TRUESIZE, SKB_MAX_ALLOC), net/ipv4/ip_output.c and
 * net/ipv6/ip6_output.c (__ip_append_data / __ip6_append_data on lo, v6.9). */
#pragma once
#include <glib.h>
#include <sys/socket.h>

#define KERNEL_SKB_STRUCT     256u  /* SKB_DATA_ALIGN(sizeof(struct sk_buff)) */
#define KERNEL_SKB_SHINFO     320u  /* SKB_DATA_ALIGN(sizeof(struct skb_shared_info)) */
#define KERNEL_SMALL_HEAD     640u  /* skb_small_head_cache's objects (v6.3+) */
#define KERNEL_SKB_MAX_ALLOC  (16384u - KERNEL_SKB_SHINFO)  /* SKB_MAX_ORDER(0, 2) */

/* kmalloc_size_roundup(size): the smallest kmalloc class holding size up to
 * KMALLOC_MAX_CACHE_SIZE (8 KiB), else PAGE_SIZE << get_order(size). */
static inline guint
kernel_kmalloc_roundup (guint size)
{
  static const guint classes[] = { 8, 16, 32, 64, 96, 128, 192, 256 };
  guint bytes = 512;

  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    if (size <= classes[i])
      return classes[i];
  while (bytes < size)
    bytes <<= 1;
  return bytes;
}

/* The head __alloc_skb(size) takes: SKB_HEAD_ALIGN(size) from skb_small_head_cache when
 * that fits and the kernel has the cache (small_head_cache: v6.3+), else kmalloc's
 * round-up. */
static inline guint
kernel_skb_head_bytes (guint size, gboolean small_head_cache)
{
  guint obj = ((size + 63u) & ~63u) + KERNEL_SKB_SHINFO;

  if (small_head_cache && obj <= KERNEL_SMALL_HEAD)
    return KERNEL_SMALL_HEAD;
  return kernel_kmalloc_roundup (obj);
}

/* skb->truesize after __alloc_skb(size): SKB_TRUESIZE(head - shinfo) = head + sk_buff. */
static inline guint
kernel_skb_truesize (guint size, gboolean small_head_cache)
{
  return kernel_skb_head_bytes (size, small_head_cache) + KERNEL_SKB_STRUCT;
}

/* IP and UDP header bytes of a datagram of family. */
static inline guint
kernel_udp_headers (gint family)
{
  return (family == AF_INET ? 20u : 40u) + 8u;
}

/* alloc_extra on lo: __ip_append_data's hh_len 16 + 15, __ip6_append_data's hh_len +
 * sizeof(struct frag_hdr). */
static inline guint
kernel_udp_alloc_extra (gint family)
{
  return 16u + (family == AF_INET ? 15u : 8u);
}

/* TRUE if a len-byte UDP payload goes into page fragments on lo (NETIF_F_SG): fraglen +
 * alloc_extra ≥ SKB_MAX_ALLOC. */
static inline gboolean
kernel_udp_paged (gint family, guint len)
{
  return kernel_udp_headers (family) + len + kernel_udp_alloc_extra (family) >=
         KERNEL_SKB_MAX_ALLOC;
}

/* truesize of a len-byte UDP datagram's skb sent over lo: one linear skb's, or a head for
 * the headers plus every payload byte put in a fragment (skb_len_add). */
static inline guint
kernel_udp_truesize (gint family, guint len, gboolean small_head_cache)
{
  guint head = kernel_udp_headers (family) + kernel_udp_alloc_extra (family);

  if (!kernel_udp_paged (family, len))
    return kernel_skb_truesize (head + len, small_head_cache);
  return kernel_skb_truesize (head, small_head_cache) + len;
}
