/* event.c — the event queue: a binary min-heap ordered by (time, sequence number).
 *
 * The heap lives in a GArray of NsEvent, followed by a sentinel that sorts last. A pop
 * sifts the hole down to a leaf first (one branch-free compare per level), then sifts the
 * displaced last element up from there.
 *
 * Cancellation is index-tracked, not lazy: every pending event occupies a slot, and the
 * slot table records where in the heap the event sits (updated on every heap move). The
 * sequence number handed out encodes the slot in its low NS_EVENT_SLOT_BITS bits under a
 * per-queue push counter in the high bits:
 *
 *     seq = counter << NS_EVENT_SLOT_BITS | slot        (counter = 1, 2, 3, ...)
 *
 * so seqs are unique and strictly increasing in push order (equal times pop in push
 * order), never 0 (callers may use 0 for "no event"), and a cancel finds its event in
 * O(1) and removes it in O(log n). A cancelled event is gone from the heap, so peek and
 * pop never see it, and length counts pending events only. */
#include "config.h"

#include "event.h"

#define NS_EVENT_SLOT_BITS  24
#define NS_EVENT_SLOT_MASK  ((G_GUINT64_CONSTANT (1) << NS_EVENT_SLOT_BITS) - 1)
#define NS_EVENT_MAX_COUNT  (G_MAXUINT64 >> NS_EVENT_SLOT_BITS)
#define NS_EVENT_SLOT_FREE  G_MAXUINT32

typedef struct {
  NsTime      when;
  guint64     seq;
  NsEventFunc fn;
  gpointer    data;
} NsEvent;

struct _NsEventQueue {
  GArray  *heap;        /* NsEvent storage: [0, n) min-heap by (when, seq), [n] sentinel */
  guint    n;           /* pending events */
  GArray  *slot_pos;    /* guint32 per slot: heap index of its event, or NS_EVENT_SLOT_FREE */
  GArray  *free_slots;  /* guint32 stack of unused slots */
  guint64  counter;     /* pushes so far */
};

/* TRUE if a must pop before b (branch-free: the heap's comparisons are unpredictable). */
static inline gboolean
event_before (const NsEvent *a, const NsEvent *b)
{
  return (a->when < b->when) | ((a->when == b->when) & (a->seq < b->seq));
}

/* Sorts after every real event; sits just past the heap so a node's right child always
 * exists when its left one does. */
static const NsEvent sentinel = { G_MAXINT64, G_MAXUINT64, NULL, NULL };

/* The slot an event's seq encodes. */
static inline guint32
event_slot (guint64 seq)
{
  return (guint32) (seq & NS_EVENT_SLOT_MASK);
}

/* Stores ev at heap index pos and records the position in its slot. */
static inline void
heap_put (NsEventQueue *queue, guint pos, const NsEvent *ev)
{
  g_array_index (queue->heap, NsEvent, pos) = *ev;
  g_array_index (queue->slot_pos, guint32, event_slot (ev->seq)) = pos;
}

/* Moves ev up from the hole at pos to its place. */
static void
heap_sift_up (NsEventQueue *queue, guint pos, const NsEvent *ev)
{
  NsEvent *items = (NsEvent *) (void *) queue->heap->data;

  while (pos > 0)
    {
      guint parent = (pos - 1) / 2;
      if (!event_before (ev, &items[parent]))
        break;
      heap_put (queue, pos, &items[parent]);
      pos = parent;
    }
  heap_put (queue, pos, ev);
}

/* Moves the hole at pos down to a leaf along smaller children, then puts ev (an element
 * from the bottom, so it usually belongs low) in place from there upwards. */
static void
heap_sift_down (NsEventQueue *queue, guint pos, const NsEvent *ev)
{
  NsEvent *items = (NsEvent *) (void *) queue->heap->data;
  guint n = queue->n;

  for (;;)
    {
      guint child = 2 * pos + 1;
      if (child >= n)
        break;
      child += event_before (&items[child + 1], &items[child]);
      heap_put (queue, pos, &items[child]);
      pos = child;
    }
  heap_sift_up (queue, pos, ev);
}

/* Takes a free slot for a new event; aborts past 2^24 pending events. */
static guint32
slot_take (NsEventQueue *queue)
{
  guint32 slot;

  if (queue->free_slots->len > 0)
    {
      slot = g_array_index (queue->free_slots, guint32, queue->free_slots->len - 1);
      g_array_set_size (queue->free_slots, queue->free_slots->len - 1);
      return slot;
    }
  slot = queue->slot_pos->len;
  if ((guint64) slot > NS_EVENT_SLOT_MASK)
    g_error ("ns_event_queue: more than %" G_GUINT64_FORMAT " pending events",
             NS_EVENT_SLOT_MASK + 1);
  g_array_set_size (queue->slot_pos, slot + 1);
  return slot;
}

/* Returns a slot to the free stack. */
static void
slot_release (NsEventQueue *queue, guint32 slot)
{
  g_array_index (queue->slot_pos, guint32, slot) = NS_EVENT_SLOT_FREE;
  g_array_append_val (queue->free_slots, slot);
}

/* Removes the event at heap index pos and frees its slot. */
static void
heap_remove_at (NsEventQueue *queue, guint pos)
{
  NsEvent *items = (NsEvent *) (void *) queue->heap->data;
  guint32 slot = event_slot (items[pos].seq);
  guint last = --queue->n;

  if (pos != last)
    {
      NsEvent moved = items[last];
      items[last] = sentinel;
      if (pos > 0 && event_before (&moved, &items[(pos - 1) / 2]))
        heap_sift_up (queue, pos, &moved);
      else
        heap_sift_down (queue, pos, &moved);
    }
  else
    items[last] = sentinel;
  slot_release (queue, slot);
}

/* Makes room for one more event plus the sentinel after it. */
static void
heap_reserve (NsEventQueue *queue)
{
  if (queue->n + 2 > queue->heap->len)
    g_array_set_size (queue->heap, MAX (64, 2 * queue->heap->len));
}

/* Creates an empty queue. */
NsEventQueue *
ns_event_queue_new (void)
{
  NsEventQueue *queue = g_new0 (NsEventQueue, 1);

  queue->heap = g_array_sized_new (FALSE, FALSE, sizeof (NsEvent), 64);
  heap_reserve (queue);
  g_array_index (queue->heap, NsEvent, 0) = sentinel;
  queue->slot_pos = g_array_sized_new (FALSE, FALSE, sizeof (guint32), 64);
  queue->free_slots = g_array_sized_new (FALSE, FALSE, sizeof (guint32), 64);
  return queue;
}

/* Frees the queue; pending events are dropped (their data is not owned). */
void
ns_event_queue_free (NsEventQueue *queue)
{
  if (queue == NULL)
    return;
  g_array_unref (queue->heap);
  g_array_unref (queue->slot_pos);
  g_array_unref (queue->free_slots);
  g_free (queue);
}

/* Adds fn(data) at `when`; returns its unique, increasing sequence number (never 0). */
guint64
ns_event_queue_push (NsEventQueue *queue, NsTime when, NsEventFunc fn, gpointer data)
{
  NsEvent ev;
  guint32 slot;

  g_return_val_if_fail (queue != NULL, 0);
  g_return_val_if_fail (fn != NULL, 0);

  if (queue->counter >= NS_EVENT_MAX_COUNT)
    g_error ("ns_event_queue: sequence numbers exhausted");

  slot = slot_take (queue);
  ev.when = when;
  ev.seq = (++queue->counter << NS_EVENT_SLOT_BITS) | slot;
  ev.fn = fn;
  ev.data = data;

  heap_reserve (queue);
  g_array_index (queue->heap, NsEvent, queue->n + 1) = sentinel;
  heap_sift_up (queue, queue->n++, &ev);
  return ev.seq;
}

/* Removes the pending event seq; FALSE if it already fired, was cancelled or never existed. */
gboolean
ns_event_queue_cancel (NsEventQueue *queue, guint64 seq)
{
  guint32 slot, pos;

  g_return_val_if_fail (queue != NULL, FALSE);

  slot = event_slot (seq);
  if (slot >= queue->slot_pos->len)
    return FALSE;
  pos = g_array_index (queue->slot_pos, guint32, slot);
  if (pos == NS_EVENT_SLOT_FREE || pos >= queue->n
      || g_array_index (queue->heap, NsEvent, pos).seq != seq)
    return FALSE;

  heap_remove_at (queue, pos);
  return TRUE;
}

/* Time of the earliest pending event into *when (may be NULL); FALSE if none. */
gboolean
ns_event_queue_peek (NsEventQueue *queue, NsTime *when)
{
  g_return_val_if_fail (queue != NULL, FALSE);

  if (queue->n == 0)
    return FALSE;
  if (when != NULL)
    *when = g_array_index (queue->heap, NsEvent, 0).when;
  return TRUE;
}

/* Removes the earliest pending event into the out-parameters (each may be NULL). */
gboolean
ns_event_queue_pop (NsEventQueue *queue, NsTime *when, NsEventFunc *fn, gpointer *data)
{
  NsEvent top;

  g_return_val_if_fail (queue != NULL, FALSE);

  if (queue->n == 0)
    return FALSE;
  top = g_array_index (queue->heap, NsEvent, 0);
  heap_remove_at (queue, 0);

  if (when != NULL)
    *when = top.when;
  if (fn != NULL)
    *fn = top.fn;
  if (data != NULL)
    *data = top.data;
  return TRUE;
}

/* Number of pending (not fired, not cancelled) events. */
guint
ns_event_queue_length (NsEventQueue *queue)
{
  g_return_val_if_fail (queue != NULL, 0);
  return queue->n;
}
