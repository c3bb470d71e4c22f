/* Limits and counters of a search, shared by the black-and-white and colour engines.
 *
 * A search stops at a node budget (it can go on later with a higher one), or at a deadline
 * or a work budget (line solves: max_work) (it cannot: the node under way was left half
 * settled). The work budget is the clock's deterministic twin: it stops a node too costly to
 * finish at the same step on every run and every machine. The clock is read every
 * check_mask + 1 steps, so that reading it costs nothing next to the steps themselves; a
 * Ctrl-C (interrupt.h) is looked for at the same steps, and stops a search as a deadline does.
 */
#ifndef GRIDSOLVE_NONOGRAM_LIMITS_H
#define GRIDSOLVE_NONOGRAM_LIMITS_H

#include <time.h>

#include "interrupt.h"

typedef struct {
    long long nodes, max_nodes, line_solves, probes, max_depth;
    long long max_work;     /* line solves at which to stop for good; 0 or less: none (so
                             * a zeroed eng_limits has no work budget) */
    double deadline;        /* absolute monotonic seconds, 0 = none */
    long long check_mask;   /* read the clock when (steps & check_mask) == 0 */
    int aborted;            /* the deadline passed, Ctrl-C (or a callback failed): stop for good */
    int sigints;            /* eng_interrupt_enter's count when this call began */
    int interrupted;        /* it was Ctrl-C that stopped it */
} eng_limits;

/* Monotonic seconds. */
static double eng_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Has the deadline passed, or Ctrl-C come? Once it has, the answer stays yes. */
static int eng_out_of_time(eng_limits *lim)
{
    if (eng_interrupted(lim->sigints)) lim->aborted = lim->interrupted = 1;
    else if (lim->max_work > 0 && lim->line_solves >= lim->max_work) lim->aborted = 1;
    else if (lim->deadline > 0 && eng_now() > lim->deadline) lim->aborted = 1;
    return lim->aborted;
}

#endif
