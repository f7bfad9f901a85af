/* udp-pair-rig.h — a simulated machine with the loopback stack and one connected UDP
 * pair, for the tests of the UDP path's model files (test-udp_rx.c, test-ip.c): the client
 * on SENDER_CPU writes datagrams to the server bound at PORT, which reads them on
 * READER_CPU; each step runs the engine until every thread is done or asleep. */
#pragma once
#include <arpa/inet.h>
#include "stack-rig.h"
#include "udp_rx.h"
#include "udp_tx.h"

#define PORT          5301
#define SENDER_CPU    0
#define READER_CPU    1
#define RIG_BUF       65536      /* each user buffer: the largest datagram fits */

typedef struct {
  StackRig     s;                /* machine, engine, loopback stack */
  gint         family;
  struct file *client;
  struct file *server;
  guchar      *txbuf;            /* user buffers, simulated memory */
  guchar      *rxbuf;
} Rig;

typedef void (*Body) (NsThread *t, Rig *rig, gpointer arg);

typedef struct {
  Rig      *rig;
  Body      body;
  gpointer  arg;
} Job;

typedef struct {
  gsize   len;                   /* the read's buffer length */
  gssize  ret;
  NsTime  returned;              /* when read(2) returned */
} ReadCall;

/* sockaddr of the loopback address of family, port; returns its length. */
gint    loopback_addr   (struct sockaddr_storage *ss, gint family, guint16 port);
/* Builds the rig: kernel version, family, net.core.rmem_default = rcvbuf (0: default). */
void    rig_init        (Rig *rig, const char *version, gint family, guint rcvbuf);
/* The same with .config key/value pairs (a NULL-terminated list, or NULL). */
void    rig_init_config (Rig *rig, const char *version, gint family, guint rcvbuf,
                         const char *const *config);
void    rig_clear       (Rig *rig);
/* A simulated thread body running a Job. */
void    job_thread      (NsThread *t, gpointer data);
/* Runs body(arg) in a user thread on cpu until every thread is done or asleep; asserts
 * the body returned. */
void    run_on          (Rig *rig, guint cpu, Body body, gpointer arg);
/* write(2) of len bytes from txbuf on file from SENDER_CPU, softirq included; its
 * result. */
gssize  write_on        (Rig *rig, struct file *file, gsize len);
/* write(2) of one len-byte datagram from txbuf (must return len), softirq included. */
void    send_datagram   (Rig *rig, guint len);
/* Body: one read(2) of call->len bytes (arg: a ReadCall) into rxbuf, noting when. */
void    read_one        (NsThread *t, Rig *rig, gpointer arg);
/* One read(2) of len bytes into rxbuf on the reader's CPU; its result. */
gssize  read_datagram   (Rig *rig, gsize len);
/* The skb last queued on the server socket (nobody reading it). */
struct sk_buff *last_queued (Rig *rig);
/* Indirect calls one 1000-byte write and its receive softirq make on kernel version with
 * .config config (NULL: none), a first datagram sent before, so the counted one meets
 * warm sockets. */
guint64 rig_icalls_per_datagram (const char *version, gint family,
                                 const char *const *config);
