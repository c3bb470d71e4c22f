/* Propagation: solve queued lines until nothing changes (the AC-3 style fixpoint of
 * Wu et al. 2013 and Batenburg & Kosters 2009), with the nogoods' units in between.
 * Part of the engine's one compilation unit (_core.c includes the parts in core.h's order). */

#include "core.h"

#ifndef NG_PREFETCH_AHEAD
#define NG_PREFETCH_AHEAD 2
#endif

/* Solve line l and set the cells it fixes (bitboard mode); 0 on contradiction (nothing set). */
static inline int ng_line_bits(ng_solver *s, int l)
{
    const int off = s->pz.line_off[l], step = s->pz.line_step[l];
    const uint64_t kf = s->lf[l], ke = s->le[l];
    uint64_t nf, ne;
    if (!ng_solve_bits_cached(s, l, s->pz.line_len[l], kf, ke, &nf, &ne)) return 0;
    uint64_t add = (nf & ~kf) | (ne & ~ke);
    while (add) {
        const int i = __builtin_ctzll(add);
        add &= add - 1;
        ng_set(s, off + i * step, (nf >> i) & 1 ? CELL_FILLED : CELL_EMPTY);
    }
    return 1;
}

#if NG_BITS2_MAX
/* The same on two-word bitboards (lines of up to NG_BITS2_MAX cells). */
static inline int ng_line_bits2(ng_solver *s, int l)
{
    const int off = s->pz.line_off[l], step = s->pz.line_step[l];
    const ng_u128 kf = s->lf2[l], ke = s->le2[l];
    ng_u128 nf, ne;
    if (!ng_solve_bits2_cached(s, l, s->pz.line_len[l], kf, ke, &nf, &ne)) return 0;
    const ng_u128 add = (nf & ~kf) | (ne & ~ke);
    for (int half = 0; half < 2; half++) {
        uint64_t w = (uint64_t)(add >> (64 * half));
        const uint64_t f = (uint64_t)(nf >> (64 * half));
        while (w) {
            const int i = __builtin_ctzll(w);
            w &= w - 1;
            ng_set(s, off + (64 * half + i) * step, (f >> i) & 1 ? CELL_FILLED : CELL_EMPTY);
        }
    }
    return 1;
}
#endif

/* The same for lines too long for bitboards: through s->tmp.lin and s->tmp.lout (2 when the
 * solve was stopped, nothing set). */
static inline int ng_line_cells(ng_solver *s, int l)
{
    const int off = s->pz.line_off[l], step = s->pz.line_step[l], n = s->pz.line_len[l];
    uint8_t *lin = s->tmp.lin, *lout = s->tmp.lout;
    for (int i = 0; i < n; i++) lin[i] = s->cells[off + i * step];
    const int r = ng_solve_cached(s, l, n);
    if (r != 1) return r;
    for (int i = 0; i < n; i++)
        if (lout[i] != lin[i]) ng_set(s, off + i * step, lout[i]);
    return 1;
}

/* Solve queued lines until nothing changes. Returns 0 on contradiction (queue cleared).
 * A time limit stops it early (queue cleared, s->lim.aborted set): what it fixed is still sound. */
static int ng_propagate(ng_solver *s)
{
    for (;;) {
        if (s->ngd.count && s->ngd.head < s->trail_len && !ng_nogood_prop(s)) {
            s->wt.fail_line = -1;
            eng_clear_queue(&s->q);
            return 0;
        }
        if (!s->q.count) break;
        if ((s->lim.line_solves & s->lim.check_mask) == 0 && eng_out_of_time(&s->lim)) {
            eng_clear_queue(&s->q);
            return 1;
        }
        const int l = eng_dequeue(&s->q);
        if (s->q.count) {  /* each line's cache slot is asked for a few solves ahead */
            int at = s->q.head + (s->q.count > NG_PREFETCH_AHEAD ? NG_PREFETCH_AHEAD : s->q.count - 1);
            if (at >= s->q.size) at -= s->q.size;
            const void *slot = ng_line_slot(s, s->q.line[at]);
            if (slot) __builtin_prefetch(slot);
        }
        s->lim.line_solves++;
        if (s->rec.in_probe) eng_probe_solves(&s->rec, l);
        const int before = s->trail_len;
        /* l stays marked as queued while it is solved: the line solver is complete, so what it
         * gives l is a fixpoint of l, and its sets queue only the crossing lines */
#if NG_BITS2_MAX
        const int ok = s->bits ? ng_line_bits(s, l) : s->lf2 ? ng_line_bits2(s, l) : ng_line_cells(s, l);
#else
        const int ok = s->bits ? ng_line_bits(s, l) : ng_line_cells(s, l);
#endif
        s->q.queued[l] = 0;
        if (ok == 2) {  /* a long line's solve was stopped (ng_solve_bytes) */
            eng_clear_queue(&s->q);
            return 1;
        }
        if (!ok) {
            s->wt.fail_line = l;
            eng_clear_queue(&s->q);
            return 0;
        }
        if (s->obs.fn && s->trail_len > before)
            s->obs.fn(s->obs.ctx, EV_LINE, l, s->trail_len - before, 0,
                        s->trail + before, s->trail_len - before);
    }
    return 1;
}
