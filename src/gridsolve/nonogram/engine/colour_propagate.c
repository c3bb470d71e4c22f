/* Narrowing cells on the trail and undoing it, the exact-key line cache, and propagation:
 * solve queued lines until nothing changes (as propagate.c does for black and white).
 * Part of the colour engine's one compilation unit (_colour.c includes the parts in order). */
#include <stdlib.h>
#include <string.h>

#include "colour.h"

static int cg_nogood_prop(cg_solver *s);  /* colour_nogood.c */

/* Narrow a cell to m (a non-empty subset of its mask), on the trail. 0 if out of memory. */
static int cg_set(cg_solver *s, int cell, cg_mask m)
{
    if (s->trail_len == s->trail_cap) {
        const int cap = eng_grow(s->trail_cap, (long long)s->trail_cap + 1, 64);
        cg_change *bigger = cap ? eng_realloc(s->trail, (size_t)cap, sizeof(cg_change)) : NULL;
        if (!bigger) { s->nomem = s->lim.aborted = 1; return 0; }
        s->trail = bigger;
        s->trail_cap = cap;
    }
    const cg_mask old = s->cells[cell];
    s->trail[s->trail_len].cell = cell;
    s->trail[s->trail_len++].old = old;
    s->cells[cell] = m;
    if (!cg_single(old) && cg_single(m)) s->unknown--;
    const int row = cell / s->pz.width, col = s->pz.height + cell % s->pz.width;
    eng_enqueue(&s->q, row);
    eng_enqueue(&s->q, col);
    eng_touch(&s->rec, row, col);
    return 1;
}

/* Restore the masks changed since mark. A probe's undo returns to the state the probe started
 * from; any other undo (backtracking) changes the lines it touches, as a set does. */
static void cg_undo(cg_solver *s, int mark)
{
    const int stamp = eng_undo_begin(&s->rec);
    while (s->trail_len > mark) {
        const cg_change *ch = &s->trail[--s->trail_len];
        if (cg_single(s->cells[ch->cell]) && !cg_single(ch->old)) s->unknown++;
        s->cells[ch->cell] = ch->old;
        if (stamp) eng_undo_stamp(&s->rec, ch->cell / s->pz.width, s->pz.height + ch->cell % s->pz.width);
    }
    if (s->ngd.head > s->trail_len) s->ngd.head = s->trail_len;
}

/* Solve line l from s->tmp.lin into s->tmp.lout, through the cache when the line is short. */
static int cg_solve_cached(cg_solver *s, int l, int n)
{
    const int co = s->pz.clue_off[l], k = s->pz.clue_cnt[l];
    if (!s->cache)
        return cg_solve_line(s->pz.clue_len + co, s->pz.clue_col + co, k, s->tmp.lin, s->tmp.lout, n, &s->tmp.work);
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ ((uint64_t)l * 0x165667B19E3779F9ULL);
    for (int i = 0; i < n; i++) h = (h ^ s->tmp.lin[i]) * 0x100000001B3ULL;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    const size_t slot = (size_t)(h >> (64 - CG_CACHE_BITS));
    cg_cache_entry *e = &s->cache[slot];
    cg_mask *in = s->cache_in + slot * s->pz.max_len, *out = s->cache_out + slot * s->pz.max_len;
    if (e->line1 == l + 1 && e->hash == h && memcmp(in, s->tmp.lin, sizeof(cg_mask) * n) == 0) {
        s->cache_hits++;
        if (e->ok) memcpy(s->tmp.lout, out, sizeof(cg_mask) * n);
        return e->ok;
    }
    const int ok = cg_solve_line(s->pz.clue_len + co, s->pz.clue_col + co, k, s->tmp.lin, s->tmp.lout, n,
                                 &s->tmp.work);
    e->hash = h; e->line1 = l + 1; e->ok = ok;
    memcpy(in, s->tmp.lin, sizeof(cg_mask) * n);
    if (ok) memcpy(out, s->tmp.lout, sizeof(cg_mask) * n);
    return ok;
}

/* Solve queued lines (and visit the nogoods watching what changed) until nothing changes.
 * Returns 0 on contradiction (queue cleared; s->fail_line the line that found it, -1 for a
 * nogood). A limit stops it early (queue cleared, s->lim.aborted set): what it narrowed is
 * still sound. */
static int cg_propagate(cg_solver *s)
{
    for (;;) {
        if (s->ngd.count && s->ngd.head < s->trail_len) {
            if (!cg_nogood_prop(s)) {
                s->fail_line = -1;
                eng_clear_queue(&s->q);
                return 0;
            }
            if (s->lim.aborted) { eng_clear_queue(&s->q); return 1; }  /* out of memory */
        }
        if (!s->q.count) break;
        if ((s->lim.line_solves & s->lim.check_mask) == 0 && eng_out_of_time(&s->lim)) {
            eng_clear_queue(&s->q);
            return 1;
        }
        const int l = eng_dequeue(&s->q);
        const int off = s->pz.line_off[l], step = s->pz.line_step[l], n = s->pz.line_len[l];
        cg_mask *lin = s->tmp.lin, *lout = s->tmp.lout;
        for (int i = 0; i < n; i++) lin[i] = s->cells[off + i * step];
        s->lim.line_solves++;
        if (s->rec.in_probe) eng_probe_solves(&s->rec, l);
        /* l stays marked as queued while it is solved: the line solver is exact, so l's
         * result is a fixpoint of l, and its sets queue only the crossing lines (as in
         * ng_propagate) */
        const int ok = cg_solve_cached(s, l, n);
        const int before = s->trail_len;
        int stopped = 0;  /* a set ran out of memory (s->lim.aborted): stop as at a limit */
        for (int i = 0; ok && !stopped && i < n; i++)
            if (lout[i] != lin[i] && !cg_set(s, off + i * step, lout[i])) stopped = 1;
        s->q.queued[l] = 0;
        if (!ok || stopped) {
            if (!ok) s->fail_line = l;
            eng_clear_queue(&s->q);
            return ok;
        }
        if (s->obs.fn && s->trail_len > before)
            s->obs.fn(s->obs.ctx, CG_EV_LINE, l, s->trail_len - before, 0, s->trail + before,
                      s->trail_len - before);
    }
    return 1;
}
