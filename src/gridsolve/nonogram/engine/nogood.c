/* Nogoods recorded at restarts: reduced nld-nogoods (Lecoutre, Sais, Tabary and Vidal,
 * "Recording and minimizing nogoods from restarts", JSAT 2007), each a set of literals that
 * cannot all hold, propagated by two watched literals as in a SAT solver (Moskewicz et al.,
 * "Chaff", DAC 2001).
 * Part of the engine's one compilation unit (_core.c includes the parts in core.h's order). */
#include <stdlib.h>

#include "core.h"

#define LIT_VAL(lit) ((lit) & 1 ? CELL_FILLED : CELL_EMPTY)

static int ng_watch(ng_solver *s, int lit, int g)
{
    if (s->ngd.wlen[lit] == s->ngd.wcap[lit]) {
        const int cap = eng_grow(s->ngd.wcap[lit], (long long)s->ngd.wlen[lit] + 1, 4);
        int *w = cap ? eng_realloc(s->ngd.watch[lit], (size_t)cap, sizeof(int)) : NULL;
        if (!w) return 0;
        s->ngd.watch[lit] = w; s->ngd.wcap[lit] = cap;
    }
    s->ngd.watch[lit][s->ngd.wlen[lit]++] = g;
    return 1;
}

/* Visit the nogoods watching the literals the trail made true since s->ngd.head: move each
 * watch to a literal not true, or set the last literal's opposite (unit), or fail. */
static int ng_nogood_prop(ng_solver *s)
{
    while (s->ngd.head < s->trail_len) {
        const int x = s->trail[s->ngd.head++];
        const int lit = 2 * x + (s->cells[x] == CELL_FILLED);
        int *wl = s->ngd.watch[lit];
        const int n = s->ngd.wlen[lit];
        int j = 0;
        for (int i = 0; i < n; i++) {
            const int g = wl[i];
            int *L = s->ngd.lits + s->ngd.off[g];
            const int m = s->ngd.n[g];
            if (L[0] == lit) { L[0] = L[1]; L[1] = lit; }
            const int o = L[0];
            const uint8_t oc = s->cells[o >> 1], ov = LIT_VAL(o);
            if (oc != CELL_UNKNOWN && oc != ov) { wl[j++] = g; continue; }  /* satisfied */
            int moved = 0;
            for (int t = 2; t < m; t++) {
                const int q = L[t];
                if (s->cells[q >> 1] != LIT_VAL(q)) {
                    if (!ng_watch(s, q, g)) {
                        /* out of memory: stop as at a time limit, since a nogood left
                         * unwatched could let the search find a solution again */
                        s->lim.aborted = 1;
                        for (; i < n; i++) wl[j++] = wl[i];
                        s->ngd.wlen[lit] = j;
                        return 1;
                    }
                    L[1] = q; L[t] = lit;
                    wl = s->ngd.watch[lit];
                    moved = 1;
                    break;
                }
            }
            if (moved) continue;
            wl[j++] = g;
            if (oc == CELL_UNKNOWN) {
                s->ngd.units++;
                ng_set(s, o >> 1, (uint8_t)(CELL_UNKNOWN ^ ov));
            } else {  /* every literal holds */
                for (i++; i < n; i++) wl[j++] = wl[i];
                s->ngd.wlen[lit] = j;
                s->ngd.conflicts++;
                return 0;
            }
        }
        s->ngd.wlen[lit] = j;
    }
    return 1;
}

/* Add a nogood at the root (the search undone to it). Returns 0 when every literal holds
 * there (the root is a dead end), -1 out of memory, 1 otherwise. A nogood that some root cell
 * already breaks is dropped; one with a single unknown literal sets its opposite at once. */
static int ng_add_nogood(ng_solver *s, const int *lits, int n)
{
    int nt[2], cnt = 0;
    for (int i = 0; i < n; i++) {
        const uint8_t c = s->cells[lits[i] >> 1];
        if (c == CELL_UNKNOWN) { if (cnt < 2) nt[cnt] = i; cnt++; }
        else if (c != LIT_VAL(lits[i])) return 1;
    }
    if (cnt == 0) return 0;
    if (cnt == 1) {
        ng_set(s, lits[nt[0]] >> 1, (uint8_t)(CELL_UNKNOWN ^ LIT_VAL(lits[nt[0]])));
        return 1;
    }
    if (!s->ngd.watch) {
        s->ngd.watch = calloc(2 * (size_t)s->pz.ncells, sizeof(int *));
        s->ngd.wlen = calloc(2 * (size_t)s->pz.ncells, sizeof(int));
        s->ngd.wcap = calloc(2 * (size_t)s->pz.ncells, sizeof(int));
        if (!s->ngd.watch || !s->ngd.wlen || !s->ngd.wcap) return -1;
    }
    if (s->ngd.used + n > s->ngd.cap) {
        const int cap = eng_grow(s->ngd.cap, (long long)s->ngd.used + n, 1024);
        int *p = cap ? eng_realloc(s->ngd.lits, (size_t)cap, sizeof(int)) : NULL;
        if (!p) return -1;
        s->ngd.lits = p; s->ngd.cap = cap;
    }
    if (s->ngd.count == s->ngd.max) {
        const int cap = eng_grow(s->ngd.max, (long long)s->ngd.count + 1, 256);
        int *o = cap ? eng_realloc(s->ngd.off, (size_t)cap, sizeof(int)) : NULL;
        if (!o) return -1;
        s->ngd.off = o;
        int *m = eng_realloc(s->ngd.n, (size_t)cap, sizeof(int));
        if (!m) return -1;
        s->ngd.n = m; s->ngd.max = cap;
    }
    const int g = s->ngd.count;
    int *L = s->ngd.lits + s->ngd.used;
    L[0] = lits[nt[0]]; L[1] = lits[nt[1]];
    for (int i = 0, t = 2; i < n; i++)
        if (i != nt[0] && i != nt[1]) L[t++] = lits[i];
    if (!ng_watch(s, L[0], g) || !ng_watch(s, L[1], g)) return -1;
    s->ngd.off[g] = s->ngd.used; s->ngd.n[g] = n;
    s->ngd.used += n; s->ngd.count++;
    return 1;
}

/* The nogoods of the path searched so far: for each guess whose first value was refuted,
 * the first values of the guesses above it that are still on their first value, and its
 * own; after a solution, the first values of the whole path (that subtree is done too).
 * Into a malloc'd buffer of (n, lits...) records; *len its length; NULL on no memory. */
static int *ng_path_nogoods(ng_solver *s, int *len)
{
    const int D = s->depth;
    size_t size = 1;  /* the records below: one per refuted guess, and one after a solution */
    for (int i = 0, np = 0; i < D; i++) {
        if (s->stack[i].stage == 1) size += (size_t)np + 2;
        else np++;
        if (i == D - 1) size += (size_t)np + 1;
    }
    int *buf = eng_malloc(size, sizeof(int)), *pos = eng_malloc((D + 1), sizeof(int));
    if (!buf || !pos) { free(buf); free(pos); return NULL; }
    int np = 0, n = 0;
    for (int i = 0; i < D; i++) {
        const ng_frame *f = &s->stack[i];
        const int lit = 2 * f->cell + ((CELL_UNKNOWN ^ f->other) == CELL_FILLED);
        if (f->stage == 1) {
            buf[n++] = np + 1;
            for (int t = 0; t < np; t++) buf[n++] = pos[t];
            buf[n++] = lit;
        } else {
            pos[np++] = lit;
        }
    }
    if (s->state == ST_BACKTRACK) {
        buf[n++] = np;
        for (int t = 0; t < np; t++) buf[n++] = pos[t];
    }
    free(pos);
    *len = n;
    return buf;
}
