/* The resumable depth-first search: ng_next runs to the next solution, the end of the tree
 * or a limit, and goes on from there at the next call; ng_restart goes back to the root
 * (restarts: Gomes, Selman & Kautz, AAAI 1998), keeping the path's nogoods when asked.
 * Part of the engine's one compilation unit (_core.c includes the parts in core.h's order). */
#include <stdlib.h>
#include <string.h>

#include "core.h"

/* Go back to the settled root and search again: randomised when seed != 0 (restarts,
 * Gomes, Selman & Kautz, "Boosting combinatorial search through randomization", AAAI 1998),
 * trying the guide's values first when guide != NULL (ncells of CELL_FILLED / CELL_EMPTY).
 * With s->ngd.on, the path's nogoods (ng_path_nogoods) are kept first, so that the new run
 * does not search again what the old ones did: the runs together stay one complete search.
 * Returns 0 when there is nothing to restart (no root yet, or a time limit stopped it). */
int ng_restart(ng_solver *s, uint64_t seed, const uint8_t *guide)
{
    if (s->state == ST_START || !s->root_done || s->lim.aborted) return 0;
    if (s->root_none) { s->state = ST_DONE; return 1; }
    if (s->ngd.on && s->state == ST_DONE) return 1;
    int *goods = NULL, glen = 0;
    if (s->ngd.on && !(goods = ng_path_nogoods(s, &glen))) return -1;
    eng_clear_queue(&s->q);
    s->rec.in_probe = 0;
    ng_undo(s, s->root_trail);
    s->depth = 0;
    s->rng = seed ? (seed * 0x9E3779B97F4A7C15ULL) | 1 : 0;
    if (guide) {
        if (!s->guide && !(s->guide = malloc(s->pz.ncells))) { free(goods); return -1; }
        memcpy(s->guide, guide, s->pz.ncells);
    } else {
        free(s->guide);
        s->guide = NULL;
    }
    if (glen) {
        s->ngd.head = s->trail_len;
        for (int at = 0; at < glen; at += goods[at] + 1) {
            const int r = ng_add_nogood(s, goods + at + 1, goods[at]);
            if (r < 0) { free(goods); return -1; }
            if (r == 0) { free(goods); s->root_none = 1; s->state = ST_DONE; return 1; }
        }
        free(goods);
        /* the root now knows more: probe everything again */
        if (s->rec.recorded) memset(s->rec.recorded, 0, s->pz.ncells);
        if (!ng_settle(s)) { s->root_none = 1; s->state = ST_DONE; return 1; }
        if (s->lim.aborted) { s->state = ST_LIMIT; return 1; }
        s->root_trail = s->trail_len;
        memcpy(s->root, s->cells, s->pz.ncells);
        s->state = ST_EXPAND;
        return 1;
    }
    free(goods);
    /* refresh the probe scores at the root: records make this cheap, and it cannot fail */
    if (s->probing && s->unknown && !ng_probe(s)) { s->state = ST_DONE; return 1; }
    s->state = ST_EXPAND;
    return 1;
}

static int ng_push(ng_solver *s, int mark, int cell, uint8_t other)
{
    if (s->depth == s->stack_cap) {
        ng_frame *bigger = eng_realloc(s->stack, (size_t)s->stack_cap * 2, sizeof(ng_frame));
        if (!bigger) return 0;
        s->stack = bigger;
        s->stack_cap *= 2;
    }
    ng_frame *f = &s->stack[s->depth++];
    f->mark = mark; f->cell = cell; f->other = other; f->stage = 0;
    if (s->depth > s->lim.max_depth) s->lim.max_depth = s->depth;
    return 1;
}

/* Undo to the next untried branch and settle it; 1 if a consistent node was reached,
 * 0 if the tree is exhausted. */
static int ng_backtrack(ng_solver *s)
{
    while (s->depth > 0) {
        ng_frame *f = &s->stack[s->depth - 1];
        ng_undo(s, f->mark);
        if (s->obs.fn) s->obs.fn(s->obs.ctx, EV_BACKTRACK, s->depth, 0, 0, NULL, 0);
        if (f->stage == 0) {
            f->stage = 1;
            s->lim.nodes++;
            if (s->obs.fn) s->obs.fn(s->obs.ctx, EV_GUESS, f->cell, f->other, s->depth, NULL, 0);
            ng_set(s, f->cell, f->other);
            if (ng_settle(s)) return 1;
            if (s->lim.aborted) return 1;
            ng_blame(s);
            s->fails++;
        } else {
            s->depth--;
        }
    }
    return 0;
}

/* Run until the next solution (NG_SOLUTION, grid in s->cells), the end of the tree
 * (NG_EXHAUSTED) or a limit (NG_LIMIT). A node limit pauses at a settled node, and the next
 * call (with a higher limit) goes on from there; after a time limit (s->lim.aborted) the search
 * cannot be resumed. */
int ng_next(ng_solver *s)
{
    switch (s->state) {
    case ST_DONE: return NG_EXHAUSTED;
    case ST_LIMIT: return NG_LIMIT;
    case ST_START:
        for (int l = 0; l < s->pz.nlines; l++) eng_enqueue(&s->q, l);
        s->lim.nodes = 1;
        if (!ng_settle(s)) {
            memset(s->root, CELL_UNKNOWN, s->pz.ncells); /* no solution: nothing to report */
            s->root_done = 1;
            s->root_none = 1;
            s->state = ST_DONE;
            return NG_EXHAUSTED;
        }
        s->root_trail = s->trail_len;
        memcpy(s->root, s->cells, s->pz.ncells);
        s->root_done = !s->lim.aborted;
        if (s->lim.aborted) { s->state = ST_LIMIT; return NG_LIMIT; }
        s->state = ST_EXPAND;
        break;
    case ST_BACKTRACK:
        if (!ng_backtrack(s)) { s->state = ST_DONE; return NG_EXHAUSTED; }
        if (s->lim.aborted) { s->state = ST_LIMIT; return NG_LIMIT; }
        s->state = ST_EXPAND;
        break;
    default:
        break;
    }
    for (;;) {
        /* at a consistent node, settled */
        if (s->unknown == 0) {
            s->state = ST_BACKTRACK;
            if (s->obs.fn) s->obs.fn(s->obs.ctx, EV_SOLUTION, 0, 0, 0, NULL, 0);
            return NG_SOLUTION;
        }
        if (s->lim.max_nodes >= 0 && s->lim.nodes >= s->lim.max_nodes) {
            s->state = ST_EXPAND;  /* a settled node: the next call goes on from here */
            return NG_LIMIT;
        }
        if (eng_out_of_time(&s->lim)) {
            s->state = ST_LIMIT;
            return NG_LIMIT;
        }
        uint8_t first = CELL_FILLED;  /* ng_choose sets it: an unknown cell is left */
        const int c = ng_choose(s, &first);
        if (!ng_push(s, s->trail_len, c, (uint8_t)(CELL_UNKNOWN ^ first))) return NG_NOMEM;
        s->lim.nodes++;
        if (s->obs.fn) s->obs.fn(s->obs.ctx, EV_GUESS, c, first, s->depth, NULL, 0);
        ng_set(s, c, first);
        if (ng_settle(s)) {
            if (s->lim.aborted) { s->state = ST_LIMIT; return NG_LIMIT; }
            continue;
        }
        ng_blame(s);
        s->fails++;
        if (!ng_backtrack(s)) { s->state = ST_DONE; return NG_EXHAUSTED; }
        if (s->lim.aborted) { s->state = ST_LIMIT; return NG_LIMIT; }
    }
}
