/* event.h — the event queue: a binary heap ordered by (time, sequence number). */
#pragma once
#include "common.h"

G_BEGIN_DECLS

typedef struct _NsEventQueue NsEventQueue;
typedef void (*NsEventFunc) (gpointer data);

NsEventQueue *ns_event_queue_new    (void);
void          ns_event_queue_free   (NsEventQueue *queue);
/* Adds an event; returns its sequence number (unique, increasing), usable to cancel it.
 * Events with equal time pop in push order. */
guint64       ns_event_queue_push   (NsEventQueue *queue, NsTime when, NsEventFunc fn, gpointer data);
/* Cancels a pending event; returns FALSE if it already fired or was cancelled. */
gboolean      ns_event_queue_cancel (NsEventQueue *queue, guint64 seq);
/* Time of the earliest pending event; FALSE if none. */
gboolean      ns_event_queue_peek   (NsEventQueue *queue, NsTime *when);
/* Removes the earliest pending event; FALSE if none. */
gboolean      ns_event_queue_pop    (NsEventQueue *queue, NsTime *when, NsEventFunc *fn, gpointer *data);
guint         ns_event_queue_length (NsEventQueue *queue);

G_END_DECLS
