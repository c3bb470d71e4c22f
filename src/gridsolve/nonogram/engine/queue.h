/* The queue of lines to solve, shared by the black-and-white and colour engines.
 *
 * A ring of line numbers with a "queued" mark per line, so a line is in it at most once.
 * eng_dequeue leaves the line marked: propagation keeps a line marked while it is solved
 * (the line solvers are complete, so a line's own result is a fixpoint of it and must not
 * queue it again) and clears the mark itself.
 */
#ifndef GRIDSOLVE_NONOGRAM_QUEUE_H
#define GRIDSOLVE_NONOGRAM_QUEUE_H

#include <stdint.h>
#include <stdlib.h>

#include "alloc.h"

typedef struct {
    int *line;          /* ring of size lines */
    int head, count, size;
    uint8_t *queued;    /* per line: in the ring, or being solved */
} eng_queue;

/* A queue for lines 0..size-1; 0 if out of memory (eng_queue_free still applies). */
static int eng_queue_init(eng_queue *q, int size)
{
    q->size = size;
    q->line = eng_malloc((size_t)size, sizeof(int));
    q->queued = calloc((size_t)size, 1);
    return q->line && q->queued;
}

static void eng_queue_free(eng_queue *q)
{
    free(q->line);
    free(q->queued);
}

static inline void eng_enqueue(eng_queue *q, int l)
{
    if (q->queued[l]) return;
    q->queued[l] = 1;
    int at = q->head + q->count;
    if (at >= q->size) at -= q->size;
    q->line[at] = l;
    q->count++;
}

/* The next line (q->count > 0); it stays marked queued until the caller clears the mark. */
static inline int eng_dequeue(eng_queue *q)
{
    const int l = q->line[q->head];
    if (++q->head == q->size) q->head = 0;
    q->count--;
    return l;
}

static void eng_clear_queue(eng_queue *q)
{
    while (q->count) q->queued[eng_dequeue(q)] = 0;
}

#endif
