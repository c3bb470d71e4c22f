/* The resumable colour search: binary branching "cell = colour" / "cell != colour" on the
 * cell the probes rank first (times its conflict weights with CG_ORDER_WDEG; or, in the dive,
 * by belief propagation), run to the next solution, the end of the tree or a limit; restarts
 * from the root (cg_restart), keeping the path's nogoods when asked (colour_nogood.c).
 * Part of the colour engine's one compilation unit (_colour.c includes the parts in order). */
#include <stdlib.h>
#include <string.h>

#include "colour.h"

/* CG_ORDER_WDEG: the open cell with the highest (least fruitful probe's count + 1) *
 * (CG_WEIGHT_BASE + its row's and column's weights) / its colours left; ties: the first. */
static int cg_wdeg_choose(cg_solver *s)
{
    int best = -1;
    double best_score = -1.0;
    for (int c = 0; c < s->pz.ncells; c++) {
        const cg_mask m = s->cells[c];
        if (cg_single(m)) continue;
        const long long w = CG_WEIGHT_BASE + s->wt_line[c / s->pz.width]
                            + s->wt_line[s->pz.height + c % s->pz.width];
        const double sc = (double)(s->least[c] + 1) * (double)w / (double)__builtin_popcount(m);
        if (sc > best_score) { best_score = sc; best = c; }
    }
    return best;
}

/* A search node failed: weigh the lines its contradiction blames (CG_WEIGHT_BASE). */
static void cg_blame(cg_solver *s)
{
    if (s->lim.aborted) return;
    s->fails++;
    if (s->fail_line >= 0) s->wt_line[s->fail_line]++;
    if (s->fail_cell >= 0) {
        s->wt_line[s->fail_cell / s->pz.width]++;
        s->wt_line[s->pz.height + s->fail_cell % s->pz.width]++;
    }
}

/* Branch on an unknown cell with fewest colours left, among those the one whose least fruitful
 * probe fixed the most (ties: all its probes together), on the colour that fixed fewest: the
 * less constrained branch first, as in the black-and-white core
 * (docs/decisions/colour-branching.md). Without probing scores: the first cell with fewest
 * colours. */
static int cg_choose(cg_solver *s, cg_mask *value)
{
    if (s->order == CG_ORDER_BP) {
        const int c = cg_bp_choose(s, value);
        if (c >= 0) return c;
    }
    if (s->order == CG_ORDER_WDEG && s->probing) {
        const int c = cg_wdeg_choose(s);
        if (c >= 0) {
            const cg_mask m = s->cells[c];
            *value = (s->first[c] & m) ? s->first[c] : (m & (~m + 1));
            return c;
        }
    }
    int best = -1;
    long long best_score = -1;
    int best_count = 33;
    for (int c = 0; c < s->pz.ncells; c++) {
        const cg_mask m = s->cells[c];
        if (cg_single(m)) continue;
        if (s->probing) {
            if (s->score[c] > best_score) { best_score = s->score[c]; best = c; }
        } else {
            const int cnt = __builtin_popcount(m);
            if (cnt < best_count) { best_count = cnt; best = c; }
        }
    }
    if (best < 0) return -1;
    const cg_mask m = s->cells[best];
    *value = (s->probing && (s->first[best] & m)) ? s->first[best] : (m & (~m + 1));
    return best;
}

static int cg_push(cg_solver *s, int mark, int cell, cg_mask value)
{
    if (s->depth == s->stack_cap) {
        cg_frame *bigger = eng_realloc(s->stack, (size_t)s->stack_cap * 2, sizeof(cg_frame));
        if (!bigger) return 0;
        s->stack = bigger;
        s->stack_cap *= 2;
    }
    cg_frame *f = &s->stack[s->depth++];
    f->mark = mark; f->cell = cell; f->value = value; f->stage = 0;
    f->held = 0; f->solutions = s->solutions;
    if (s->depth > s->lim.max_depth) s->lim.max_depth = s->depth;
    return 1;
}

/* Undo to the next untried branch and settle it; 1 if a consistent node was reached (or a
 * limit stopped it), 0 if the tree is exhausted. */
static int cg_backtrack(cg_solver *s)
{
    while (s->depth > 0) {
        cg_frame *f = &s->stack[s->depth - 1];
        cg_undo(s, f->mark);
        if (s->obs.fn) s->obs.fn(s->obs.ctx, CG_EV_BACKTRACK, s->depth, 0, 0, NULL, 0);
        if (f->stage == 0) {
            f->stage = 1;
            f->held = s->solutions != f->solutions;
            s->lim.nodes++;
            const cg_mask rest = s->cells[f->cell] & ~f->value;
            if (s->obs.fn) s->obs.fn(s->obs.ctx, CG_EV_GUESS, f->cell, cg_index(rest), s->depth, NULL, 0);
            if (cg_set(s, f->cell, rest) && cg_settle(s)) return 1;
            if (s->lim.aborted) return 1;
            cg_blame(s);
        } else {
            s->depth--;
        }
    }
    return 0;
}

/* Known cells, before the search starts: narrow each cell to its mask & known[cell] (all
 * colours: left as it is). Not on the trail: the search never undoes the root. A cell left no
 * colour makes the start a contradiction (fixed_empty). */
static void cg_fix(cg_solver *s, const cg_mask *known)
{
    for (int c = 0; c < s->pz.ncells; c++) {
        const cg_mask old = s->cells[c], m = old & known[c];
        if (m == old) continue;
        if (!m) { s->fixed_empty = 1; continue; }
        s->cells[c] = m;
        if (!cg_single(old) && cg_single(m)) s->unknown--;
    }
}

/* Run until the next solution (CG_SOLUTION, grid in s->cells), the end of the tree
 * (CG_EXHAUSTED) or a limit (CG_LIMIT: the search cannot be resumed). */
int cg_next(cg_solver *s)
{
    switch (s->state) {
    case CS_DONE: return CG_EXHAUSTED;
    case CS_LIMIT: return s->nomem ? CG_NOMEM : CG_LIMIT;
    case CS_START:
        if (!s->root_settled)
            for (int l = 0; l < s->pz.nlines; l++) eng_enqueue(&s->q, l);
        s->lim.nodes = 1;
        if (s->fixed_empty || !cg_settle(s)) {
            memset(s->root, 0, sizeof(cg_mask) * s->pz.ncells); /* no solution: nothing to report */
            s->root_done = 1;
            s->state = CS_DONE;
            return CG_EXHAUSTED;
        }
        memcpy(s->root, s->cells, sizeof(cg_mask) * s->pz.ncells);
        s->root_trail = s->trail_len;
        s->root_done = !s->lim.aborted;
        if (s->lim.aborted) { s->state = CS_LIMIT; return s->nomem ? CG_NOMEM : CG_LIMIT; }
        s->state = CS_EXPAND;
        break;
    case CS_ROOT:  /* restarted with nogoods: the root settles again with them */
        if (!cg_settle(s)) {
            memset(s->root, 0, sizeof(cg_mask) * s->pz.ncells);
            s->state = CS_DONE;
            return CG_EXHAUSTED;
        }
        if (s->lim.aborted) { s->state = CS_LIMIT; return s->nomem ? CG_NOMEM : CG_LIMIT; }
        s->root_trail = s->trail_len;
        memcpy(s->root, s->cells, sizeof(cg_mask) * s->pz.ncells);
        s->state = CS_EXPAND;
        break;
    case CS_BACKTRACK:
        if (!cg_backtrack(s)) { s->state = CS_DONE; return CG_EXHAUSTED; }
        if (s->lim.aborted) { s->state = CS_LIMIT; return s->nomem ? CG_NOMEM : CG_LIMIT; }
        s->state = CS_EXPAND;
        break;
    default:
        break;
    }
    for (;;) {
        /* at a consistent node, settled */
        if (s->unknown == 0) {
            s->state = CS_BACKTRACK;
            s->solutions++;
            if (s->obs.fn) s->obs.fn(s->obs.ctx, CG_EV_SOLUTION, 0, 0, 0, NULL, 0);
            return CG_SOLUTION;
        }
        if ((s->lim.max_nodes >= 0 && s->lim.nodes >= s->lim.max_nodes)
            || (s->pause_work > 0 && s->lim.line_solves >= s->pause_work)
            || (s->pause_fails > 0 && s->fails >= s->pause_fails)) {
            s->state = CS_EXPAND;  /* a settled node: the next call goes on from here */
            return CG_LIMIT;
        }
        if (eng_out_of_time(&s->lim)) {
            s->state = CS_LIMIT;
            return s->nomem ? CG_NOMEM : CG_LIMIT;
        }
        cg_mask value = 0;
        const int c = cg_choose(s, &value);
        if (!cg_push(s, s->trail_len, c, value)) return CG_NOMEM;
        s->lim.nodes++;
        if (s->obs.fn) s->obs.fn(s->obs.ctx, CG_EV_GUESS, c, cg_index(value), s->depth, NULL, 0);
        if (cg_set(s, c, value) && cg_settle(s)) {
            if (s->lim.aborted) { s->state = CS_LIMIT; return s->nomem ? CG_NOMEM : CG_LIMIT; }
            continue;
        }
        cg_blame(s);
        if (!s->lim.aborted && !cg_backtrack(s)) { s->state = CS_DONE; return CG_EXHAUSTED; }
        if (s->lim.aborted) { s->state = CS_LIMIT; return s->nomem ? CG_NOMEM : CG_LIMIT; }
    }
}

/* Go back to the settled root and search again, randomised when seed != 0 (restarts: Gomes,
 * Selman & Kautz, AAAI 1998), branching by order from here on (-1: as before). Without
 * nogoods each run is a whole search from the root, so a run that is exhausted has seen every
 * solution. With s->ngd.on the path's nogoods (cg_path_nogoods: refutations only) are kept
 * first, and the next cg_next settles the root again with them (CS_ROOT, under that call's
 * limits): a run that is exhausted has then seen every solution too, since no solution breaks
 * a nogood. (Nothing below a branch whose first half held a solution is recorded: restarts
 * after the search found a solution may repeat a run, and a caller should let them grow, or
 * stop them then, as ColourTurns does.) Returns 0 when there is nothing to restart (no root yet, or a time limit or a
 * work budget stopped it for good), -1 out of memory (the search then stops as at a limit). */
static int cg_restart(cg_solver *s, uint64_t seed, int order)
{
    if (s->state == CS_START || !s->root_done || s->lim.aborted) return 0;
    if (order >= 0) s->order = order;
    if (s->state == CS_DONE || s->state == CS_ROOT) return 1;  /* (exhausted; or just restarted) */
    uint32_t *goods = NULL;
    size_t glen = 0;
    if (s->ngd.on && !s->ngd.full && !(goods = cg_path_nogoods(s, &glen))) {
        s->nomem = s->lim.aborted = 1; s->state = CS_LIMIT;
        return -1;
    }
    eng_clear_queue(&s->q);
    s->rec.in_probe = 0;
    cg_undo(s, s->root_trail);
    s->depth = 0;
    s->rng = seed ? (seed * 0x9E3779B97F4A7C15ULL) | 1 : 0;
    s->bp.left = 0;  /* beliefs of the root again */
    s->state = CS_EXPAND;
    if (!s->ngd.on) return 1;
    s->ngd.head = s->trail_len;
    for (size_t at = 0; at < glen; at += goods[at] + 1) {
        const int r = cg_add_nogood(s, goods + at + 1, (int)goods[at]);
        if (r < 0) { free(goods); s->nomem = s->lim.aborted = 1; s->state = CS_LIMIT; return -1; }
        if (r == 0) break;  /* (cannot be: the root breaks it; cg_next's settle finds it) */
    }
    free(goods);
    /* the root now knows more: cg_next probes everything again (fresh scores to branch on) */
    if (s->rec.recorded) memset(s->rec.recorded, 0, (size_t)s->pz.ncells);
    s->state = CS_ROOT;
    return 1;
}
