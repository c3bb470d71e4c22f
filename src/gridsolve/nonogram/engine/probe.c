/* Probing ("fully probing", Wu et al., IEEE TCIAIG 2013): every unknown cell is assumed
 * filled and empty in turn and propagated; a contradiction fixes the other value, and cells
 * both assumptions fix alike are learned. On top, implication probing uses the probes'
 * results as 2-SAT clauses (ng_probe_implied). ng_settle brings a node to a fixpoint.
 * Part of the engine's one compilation unit (_core.c includes the parts in core.h's order). */
#include <string.h>

#include "core.h"

/* Assume v at cell, propagate. Returns 1 if consistent; the trail holds its consequences. */
static int ng_try(ng_solver *s, int cell, uint8_t v)
{
    s->lim.probes++;
    if (s->obs.fn) s->obs.fn(s->obs.ctx, EV_TRY, cell, v, 0, NULL, 0);
    ng_set(s, cell, v);
    return ng_propagate(s);
}

/* Fix a cell learned by probing and propagate; 0 on contradiction. */
static int ng_learn(ng_solver *s, int cell, uint8_t v)
{
    if (s->cells[cell] == v) return 1;
    if (!(s->cells[cell] & v)) return 0;
    if (s->obs.fn) s->obs.fn(s->obs.ctx, EV_PROBE_FIX, cell, v, 0, NULL, 0);
    ng_set(s, cell, v);
    return ng_propagate(s);
}

/* Would probing cell c again give what its last probe gave? True when no line that probe
 * solved has changed since (by a set or an undo): those lines then see the same cells, so
 * propagation repeats itself exactly, and the lines it never reached hold none of its
 * consequences. This holds across backtracking too, since an undo stamps its lines. */
static int ng_record_valid(const ng_solver *s, int c)
{
    /* where implication probing runs, it needs the implications the record lacks */
    if (s->im.on && s->depth <= NG_IMPL_MAX_DEPTH && !s->im.kept[c]) return 0;
    return eng_record_valid(&s->rec, c);
}

/* Remember what assuming literal lit (2 * cell + 1 for filled, 2 * cell for empty) fixed: the
 * trail after mark, minus the assumption itself. These implications stay true in every state
 * that knows more than this one (propagation is monotone), as long as the probe's record is
 * valid they are exactly what probing again would give. */
static void ng_keep_implied(ng_solver *s, int lit, int mark)
{
    int *dst = s->im.lits + (size_t)lit * s->pz.ncells, n = 0;
    for (int t = mark + 1; t < s->trail_len; t++) {
        const int x = s->trail[t];
        dst[n++] = 2 * x + (s->cells[x] == CELL_FILLED);
    }
    s->im.len[lit] = n;
}

/* At depth 0, append what assuming literal lit fixed (the trail after mark, minus the
 * assumption) to the root's implications: (lit, count, literals...). Each is a binary clause
 * the clues imply. They are optional: past NG_ROOT_IMPL_MAX ints in all, or when memory runs
 * out, recording stops and what was kept stays valid. */
static void ng_keep_root_implied(ng_solver *s, int lit, int mark)
{
    const int n = s->trail_len - mark - 1;
    if (!s->im.keep_root || s->depth != 0 || n <= 0) return;
    const size_t need = s->im.root_used + (size_t)n + 2;
    if (need > NG_ROOT_IMPL_MAX) { s->im.keep_root = 0; return; }
    int *grown = eng_reserve(s->im.root, &s->im.root_cap, need, sizeof(int), 4096);
    if (!grown) { s->im.keep_root = 0; return; }
    s->im.root = grown;
    int *dst = s->im.root + s->im.root_used;
    *dst++ = lit;
    *dst++ = n;
    for (int t = mark + 1; t < s->trail_len; t++) {
        const int x = s->trail[t];
        *dst++ = 2 * x + (s->cells[x] == CELL_FILLED);
    }
    s->im.root_used = need;
}

/* Remember the values the trail holds after mark (a probe's consequences). */
static void ng_remember(ng_solver *s, int mark)
{
    if (++s->tmp.stamp == 0) { memset(s->tmp.pstamp, 0, sizeof(uint32_t) * s->pz.ncells); s->tmp.stamp = 1; }
    for (int t = mark + 1; t < s->trail_len; t++) {
        const int x = s->trail[t];
        s->tmp.pstamp[x] = s->tmp.stamp;
        s->tmp.pval[x] = s->cells[x];
    }
}

/* Cells the trail after mark fixed as the remembered probe did: into s->tmp.common; their count. */
static int ng_agreed(ng_solver *s, int mark)
{
    int n = 0;
    for (int t = mark + 1; t < s->trail_len; t++) {
        const int x = s->trail[t];
        if (s->tmp.pstamp[x] == s->tmp.stamp && s->tmp.pval[x] == s->cells[x]) s->tmp.common[n++] = x;
    }
    return n;
}

/* Probe every unknown cell both ways until a whole pass learns nothing.
 * Returns 0 on contradiction, 1 otherwise (also when aborted by the time limit). */
static int ng_probe(ng_solver *s)
{
    const int C = s->pz.ncells;
    int changed = 1;
    while (changed && s->unknown) {
        changed = 0;
        for (int c = 0; c < C && s->unknown; c++) {
            if (s->cells[c] != CELL_UNKNOWN) continue;
            if (ng_record_valid(s, c)) continue;
            if ((s->lim.probes & s->lim.check_mask) == 0 && eng_out_of_time(&s->lim)) return 1;
            const int mark = s->trail_len;
            eng_probe_begin(&s->rec);
            s->rec.in_probe = 1;
            int ok = ng_try(s, c, CELL_FILLED);
            if (s->lim.aborted) { ng_undo(s, mark); s->rec.in_probe = 0; return 1; }
            if (s->obs.fn) s->obs.fn(s->obs.ctx, EV_PROBE, c, CELL_FILLED, !ok, NULL, 0);
            if (!ok) {
                ng_undo(s, mark);
                s->rec.in_probe = 0;
                if (!ng_learn(s, c, CELL_EMPTY)) { s->wt.fail_cell = c; return 0; }
                changed = 1;
                continue;
            }
            s->score_a[c] = s->trail_len - mark;
            const int keep = s->im.on && s->depth <= NG_IMPL_MAX_DEPTH;
            if (keep) ng_keep_implied(s, 2 * c + 1, mark);
            ng_keep_root_implied(s, 2 * c + 1, mark);
            ng_remember(s, mark);
            ng_undo(s, mark);
            ok = ng_try(s, c, CELL_EMPTY);
            if (s->lim.aborted) { ng_undo(s, mark); s->rec.in_probe = 0; return 1; }
            if (s->obs.fn) s->obs.fn(s->obs.ctx, EV_PROBE, c, CELL_EMPTY, !ok, NULL, 0);
            if (!ok) {
                ng_undo(s, mark);
                s->rec.in_probe = 0;
                if (!ng_learn(s, c, CELL_FILLED)) { s->wt.fail_cell = c; return 0; }
                changed = 1;
                continue;
            }
            s->score_b[c] = s->trail_len - mark;
            if (keep) ng_keep_implied(s, 2 * c, mark);
            ng_keep_root_implied(s, 2 * c, mark);
            if (s->im.on) s->im.kept[c] = (uint8_t)keep;
            const int ncommon = ng_agreed(s, mark);
            if (ncommon) {
                /* remember the values before undoing: pval holds them */
                ng_undo(s, mark);
                s->rec.in_probe = 0;
                for (int t = 0; t < ncommon; t++)
                    if (!ng_learn(s, s->tmp.common[t], s->tmp.pval[s->tmp.common[t]])) {
                        s->wt.fail_cell = c;
                        return 0;
                    }
                changed = 1;
            } else {
                ng_undo(s, mark);
                s->rec.in_probe = 0;
            }
            /* what was learned here lies inside both probes' results: they stay as they were */
            eng_record(&s->rec, c);
        }
    }
    return 1;
}

/* Implication probing: probing, plus the contrapositives of what the last probes found.
 * If assuming a fixed b, then b's opposite forces a's opposite (a 2-SAT step that line
 * propagation cannot make). Each literal x is assumed again; whenever a literal y becomes
 * true, every a whose probe fixed the opposite of y is set to its own opposite, and lines
 * propagate. A contradiction fixes x's opposite; literals that both values of x force are
 * fixed too. This sees case splits that plain probing needs a search node for (after
 * Wu et al.'s remark that probing results form 2-SAT clauses).
 * Returns 0 on contradiction, 1 when nothing was learned, 2 when cells were fixed. */
static int ng_probe_implied(ng_solver *s)
{
    const int C = s->pz.ncells, NL = 2 * C;
    int *off = s->im.rev_off;
    memset(off, 0, sizeof(int) * (NL + 1));
    for (int c = 0; c < C; c++) {
        if (s->cells[c] != CELL_UNKNOWN) continue;
        for (int v = 0; v < 2; v++) {
            const int lit = 2 * c + v, *src = s->im.lits + (size_t)lit * C;
            for (int t = 0; t < s->im.len[lit]; t++)
                if (s->cells[src[t] >> 1] == CELL_UNKNOWN) off[src[t] + 1]++;
        }
    }
    for (int m = 0; m < NL; m++) off[m + 1] += off[m];
    for (int c = 0; c < C; c++) {
        if (s->cells[c] != CELL_UNKNOWN) continue;
        for (int v = 0; v < 2; v++) {
            const int lit = 2 * c + v, *src = s->im.lits + (size_t)lit * C;
            for (int t = 0; t < s->im.len[lit]; t++)
                if (s->cells[src[t] >> 1] == CELL_UNKNOWN) s->im.rev[off[src[t]]++] = lit;
        }
    }
    for (int m = NL; m > 0; m--) off[m] = off[m - 1];  /* off[m] was moved to the end of m */
    off[0] = 0;
    int learned = 0;
    for (int x = 0; x < C && s->unknown; x++) {
        if (s->cells[x] != CELL_UNKNOWN) continue;
        if ((s->lim.probes & s->lim.check_mask) == 0 && eng_out_of_time(&s->lim)) return 1;
        int size[2], fixed = -1;
        for (int u = 1; u >= 0 && fixed < 0; u--) {
            const int mark = s->trail_len;
            s->rec.in_probe = 1;
            s->lim.probes++;
            ng_set(s, x, u ? CELL_FILLED : CELL_EMPTY);
            int ok = ng_propagate(s);
            for (int t = mark; ok && t < s->trail_len; t++) {
                const int y = s->trail[t];
                const int opp = 2 * y + (s->cells[y] != CELL_FILLED); /* y's other value */
                for (int r = off[opp]; r < off[opp + 1]; r++) {
                    const int a = s->im.rev[r] >> 1;
                    const uint8_t av = (s->im.rev[r] & 1) ? CELL_FILLED : CELL_EMPTY;
                    if (s->cells[a] == CELL_UNKNOWN) ng_set(s, a, (uint8_t)(CELL_UNKNOWN ^ av));
                    else if (s->cells[a] == av) { ok = 0; break; }
                }
                if (ok && s->q.count) ok = ng_propagate(s);
            }
            if (s->lim.aborted) { ng_undo(s, mark); s->rec.in_probe = 0; return 1; }
            if (!ok) {
                eng_clear_queue(&s->q);
                ng_undo(s, mark);
                s->rec.in_probe = 0;
                s->im.fixes++;
                if (!ng_learn(s, x, u ? CELL_EMPTY : CELL_FILLED)) { s->wt.fail_cell = x; return 0; }
                learned = 1;
                fixed = 1;
                break;
            }
            size[u] = s->trail_len - mark;
            if (u == 1) {
                ng_remember(s, mark);
                ng_undo(s, mark);
                s->rec.in_probe = 0;
            } else {
                const int ncommon = ng_agreed(s, mark);
                ng_undo(s, mark);
                s->rec.in_probe = 0;
                for (int t = 0; t < ncommon; t++) {
                    s->im.fixes++;
                    if (!ng_learn(s, s->tmp.common[t], s->tmp.pval[s->tmp.common[t]])) {
                        s->wt.fail_cell = x;
                        return 0;
                    }
                }
                if (ncommon) learned = 1;
            }
        }
        if (fixed < 0) { s->score_a[x] = size[1]; s->score_b[x] = size[0]; }
    }
    return learned ? 2 : 1;
}

/* Propagate the queue, then probe if enabled, or once at most probe_open cells are open (to a
 * fixpoint of both kinds). 0 on contradiction. */
static int ng_settle(ng_solver *s)
{
    s->wt.fail_line = s->wt.fail_cell = -1;
    if (!ng_propagate(s)) return 0;
    while ((s->probing || s->unknown <= s->probe_open) && s->unknown) {
        if (!ng_probe(s)) return 0;
        if (!s->im.on || s->lim.aborted || !s->unknown || s->depth > NG_IMPL_MAX_DEPTH) return 1;
        const int r = ng_probe_implied(s);
        if (r != 2) return r;
    }
    return 1;
}
