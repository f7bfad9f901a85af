/* bench-saferet.h — the socket fields bench-saferet's lookup reads. */
#pragma once
#include <glib.h>

struct bench_sock {
  guint64                  _pad0[2];
  guint32                  rcv_saddr, daddr;
  guint16                  dport, port_hash;
  int                      family;
  const void              *net;
  int                      bound_dev_if, incoming_cpu;
  gboolean                 v6only, reuseport_connected;
  const struct bench_sock *next;
  guint64                  _pad1[3];
};

const struct bench_sock *bench_lookup_out_of_line (const struct bench_sock *head,
                                                   const void *net, guint32 saddr,
                                                   guint16 sport, guint32 daddr,
                                                   guint16 hnum, int dif, int sdif);
const struct bench_sock *bench_lookup_inlined (const struct bench_sock *head,
                                               const void *net, guint32 saddr,
                                               guint16 sport, guint32 daddr, guint16 hnum,
                                               int dif, int sdif);
