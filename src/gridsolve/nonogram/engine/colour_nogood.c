/* Nogoods recorded at restarts: reduced nld-nogoods (Lecoutre, Sais, Tabary and Vidal,
 * "Recording and minimizing nogoods from restarts", JSAT 2007) over "cell = colour" literals,
 * propagated by two watched literals (Moskewicz et al., "Chaff", DAC 2001), as nogood.c does
 * for black and white. A literal holds when its cell is left that one colour and is broken
 * when the cell has lost it; a nogood whose literals all hold but one removes that one's
 * colour from its cell. Only refutations are recorded (colour.h; docs/decisions/0038).
 * Part of the colour engine's one compilation unit (_colour.c includes the parts in order). */
#include <stdlib.h>
#include <string.h>

#include "colour.h"

static inline int lit_cell(uint32_t lit) { return (int)(lit / CG_MAX_COLOURS); }
static inline cg_mask lit_bit(uint32_t lit) { return 1u << (lit % CG_MAX_COLOURS); }
/* 1: the literal holds, 0: it is broken, -1: not known yet */
static inline int lit_state(const cg_solver *s, uint32_t lit)
{
    const cg_mask m = s->cells[lit_cell(lit)], b = lit_bit(lit);
    return !(m & b) ? 0 : m == b ? 1 : -1;
}

static int cg_watch(cg_solver *s, int cell, int g)
{
    cg_nogoods *d = &s->ngd;
    if (d->wlen[cell] == d->wcap[cell]) {
        const int cap = eng_grow(d->wcap[cell], (long long)d->wlen[cell] + 1, 4);
        int *w = cap ? eng_realloc(d->watch[cell], (size_t)cap, sizeof(int)) : NULL;
        if (!w) return 0;
        d->watch[cell] = w; d->wcap[cell] = cap;
    }
    d->watch[cell][d->wlen[cell]++] = g;
    return 1;
}

/* Visit the nogoods watching the cells the trail left one colour since ngd.head: move each
 * watch to a literal not holding, or remove the last literal's colour (unit), or fail.
 * 0 on contradiction; out of memory stops it as at a limit (s->lim.aborted, s->nomem). */
static int cg_nogood_prop(cg_solver *s)
{
    cg_nogoods *d = &s->ngd;
    while (d->head < s->trail_len) {
        const cg_change ch = s->trail[d->head++];
        const int x = ch.cell;
        if (cg_single(ch.old) || !cg_single(s->cells[x])) continue;  /* no literal of x holds anew */
        int *wl = d->watch[x];
        const int n = d->wlen[x];
        int j = 0;
        for (int i = 0; i < n; i++) {
            const int g = wl[i];
            uint32_t *L = d->lits + d->off[g];
            const int m = d->n[g];
            if (lit_cell(L[0]) == x) { const uint32_t t = L[0]; L[0] = L[1]; L[1] = t; }
            if (lit_state(s, L[1]) != 1) { wl[j++] = g; continue; }  /* broken: satisfied */
            const uint32_t o = L[0];
            const int os = lit_state(s, o);
            if (os == 0) { wl[j++] = g; continue; }  /* satisfied */
            int moved = 0;
            for (int t = 2; t < m; t++) {
                if (lit_state(s, L[t]) == 1) continue;
                const uint32_t q = L[t];
                if (!cg_watch(s, lit_cell(q), g)) {
                    /* out of memory: stop as at a limit (an unwatched nogood could let the
                     * search stand on a branch it refuted: harmless, but stop cleanly) */
                    s->nomem = s->lim.aborted = 1;
                    for (; i < n; i++) wl[j++] = wl[i];
                    d->wlen[x] = j;
                    return 1;
                }
                L[t] = L[1]; L[1] = q;
                wl = d->watch[x];  /* (another cell's list grew: x's is where it was) */
                moved = 1;
                break;
            }
            if (moved) continue;
            wl[j++] = g;
            if (os < 0) {  /* unit: the last literal's colour goes */
                d->units++;
                const int oc = lit_cell(o);
                if (!cg_set(s, oc, s->cells[oc] & ~lit_bit(o))) {
                    for (i++; i < n; i++) wl[j++] = wl[i];
                    d->wlen[x] = j;
                    return 1;
                }
            } else {  /* every literal holds */
                for (i++; i < n; i++) wl[j++] = wl[i];
                d->wlen[x] = j;
                d->conflicts++;
                return 0;
            }
        }
        d->wlen[x] = j;
    }
    return 1;
}

/* Add a nogood at the root (the search undone to it). Returns 0 when every literal holds
 * there (the root is a dead end), -1 out of memory, 1 otherwise (also when the cap leaves it
 * out). A nogood that the root already breaks is dropped; one with a single literal not
 * holding removes that literal's colour at once. */
static int cg_add_nogood(cg_solver *s, const uint32_t *lits, int n)
{
    cg_nogoods *d = &s->ngd;
    int nt[2], cnt = 0;
    for (int i = 0; i < n; i++) {
        const int st = lit_state(s, lits[i]);
        if (st == 0) return 1;
        if (st < 0) { if (cnt < 2) nt[cnt] = i; cnt++; }
    }
    if (cnt == 0) return 0;
    if (cnt == 1) {
        const int c = lit_cell(lits[nt[0]]);
        d->units++;
        return cg_set(s, c, s->cells[c] & ~lit_bit(lits[nt[0]])) ? 1 : -1;
    }
    if (d->full || d->used + (size_t)n > CG_NOGOOD_MAX_LITS) { d->full = 1; return 1; }
    if (!d->watch) {
        d->watch = calloc((size_t)s->pz.ncells, sizeof(int *));
        d->wlen = calloc((size_t)s->pz.ncells, sizeof(int));
        d->wcap = calloc((size_t)s->pz.ncells, sizeof(int));
        if (!d->watch || !d->wlen || !d->wcap) return -1;
    }
    uint32_t *grown = eng_reserve(d->lits, &d->cap, d->used + (size_t)n, sizeof(uint32_t), 1024);
    if (!grown) return -1;
    d->lits = grown;
    if (d->count == d->max) {
        const int cap = eng_grow(d->max, (long long)d->count + 1, 256);
        size_t *o = cap ? eng_realloc(d->off, (size_t)cap, sizeof(size_t)) : NULL;
        if (!o) return -1;
        d->off = o;
        int *m = eng_realloc(d->n, (size_t)cap, sizeof(int));
        if (!m) return -1;
        d->n = m; d->max = cap;
    }
    const int g = d->count;
    uint32_t *L = d->lits + d->used;
    L[0] = lits[nt[0]]; L[1] = lits[nt[1]];
    for (int i = 0, t = 2; i < n; i++)
        if (i != nt[0] && i != nt[1]) L[t++] = lits[i];
    if (!cg_watch(s, lit_cell(L[0]), g) || !cg_watch(s, lit_cell(L[1]), g)) return -1;
    d->off[g] = d->used; d->n[g] = n;
    d->used += (size_t)n; d->count++;
    return 1;
}

/* The nogoods of the path searched so far: for each guess whose "cell = colour" was refuted,
 * the "cell = colour" of the guesses above it still on their first branch, and its own. A
 * guess whose first branch held a solution ends them (its nogood would forbid that solution,
 * and the nogoods below it leave out its "cell != colour"). Into a malloc'd buffer of
 * (n, lits...) records; *len its length; NULL on no memory. */
static uint32_t *cg_path_nogoods(cg_solver *s, size_t *len)
{
    const int D = s->depth;
    size_t size = 1;
    for (int i = 0, np = 0; i < D; i++) {
        if (s->stack[i].stage == 1) size += (size_t)np + 2;
        else np++;
    }
    uint32_t *buf = eng_malloc(size, sizeof(uint32_t)), *pos = eng_malloc((size_t)D + 1, sizeof(uint32_t));
    if (!buf || !pos) { free(buf); free(pos); return NULL; }
    size_t n = 0;
    uint32_t np = 0;
    for (int i = 0; i < D; i++) {
        const cg_frame *f = &s->stack[i];
        const uint32_t lit = (uint32_t)f->cell * CG_MAX_COLOURS + (uint32_t)__builtin_ctz(f->value);
        if (f->stage == 1) {
            if (f->held) break;
            buf[n++] = np + 1;
            for (uint32_t t = 0; t < np; t++) buf[n++] = pos[t];
            buf[n++] = lit;
        } else {
            pos[np++] = lit;
        }
    }
    free(pos);
    *len = n;
    return buf;
}
