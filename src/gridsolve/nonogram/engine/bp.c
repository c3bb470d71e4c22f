/* Belief propagation over the lines (NG_ORDER_BP): for every unknown cell an estimate of the
 * probability that it is filled, from messages passed between its row and its column, and
 * the branching rule that follows it, decimation (Mezard, Parisi & Zecchina, Science 2002;
 * Montanari, Ricci-Tersenghi & Semerjian, 2007).
 *
 * Each line is one factor over its cells. Given a probability for each of its cells (the
 * crossing line's message; known cells are 0 or 1), the line's marginals are computed
 * exactly by forward and backward passes over the automaton of its clue (a state per symbol
 * of the pattern 1^c1 0 1^c2 0 ... 1^ck, zeros looping where a gap may grow; the passes are
 * normalised at every cell, so long lines do not underflow). What the line says to a cell is
 * its marginal with the cell's own incoming message divided out. Rows and columns take turns
 * (damped), from where the last call left them, until no message moves by NG_BP_TOL or
 * NG_BP_ITERS rounds. A cell's belief joins its row's and its column's messages.
 *
 * BP proves nothing: it only orders the search (the cell whose belief is surest, its likelier
 * value first). Every value is still set and propagated by the exact line solver, so the
 * search stays complete and exact. Beliefs are reused for the next NG_BP_SHARE of the cells
 * that were open when they were computed, and computed again when the search backtracks to
 * or above the node where they were.
 * Part of the engine's one compilation unit (_core.c includes the parts in core.h's order). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

/* Beliefs are computed again after this share of the then open cells, and at least
 * NG_BP_MIN_LEFT cells, have been decided: on random 50x50 to 100x100 puzzles recomputing them
 * after every choice found the same first solutions 1.4-2x slower (docs/decisions/0028). */
#define NG_BP_SHARE 0.02
#define NG_BP_MIN_LEFT 20
/* At most this many rounds (rows then columns) a computation, and fewer when no message
 * moves by more than NG_BP_TOL. */
#define NG_BP_ITERS 10
#define NG_BP_TOL 1e-3
/* Messages stay within [NG_BP_EPS, 1 - NG_BP_EPS], so no unknown cell is ever certain. */
#define NG_BP_EPS 1e-4
#define NG_BP_DAMP 0.5

/* The scratch and messages of BP, allocated on first use; 0 when they cannot be (out of
 * memory, or a line's table over NG_COUNT_MAX_CELLS). */
static int ng_bp_scratch(ng_solver *s)
{
    if (s->bp.fw) return 1;
    const size_t n1 = (size_t)s->pz.max_len + 1;
    if (n1 * n1 > NG_COUNT_MAX_CELLS) return 0;
    const size_t C = (size_t)s->pz.ncells;
    /* the table: a row of n1 + 2 per cell and one more; bp_line: ng_bp_line's four vectors
     * of n1 + 2, then the pass's p and m */
    s->bp.fw = eng_malloc(n1 * (n1 + 2), sizeof(double));
    s->bp.line = eng_malloc(6 * n1 + 8, sizeof(double));
    s->bp.band = eng_malloc(2 * n1, sizeof(int));
    s->bp.msg = eng_malloc(2 * C, sizeof(double));
    if (!s->bp.fw || !s->bp.line || !s->bp.band || !s->bp.msg) {
        free(s->bp.fw); free(s->bp.line); free(s->bp.band); free(s->bp.msg);
        s->bp.fw = s->bp.line = s->bp.msg = NULL; s->bp.band = NULL;
        return 0;
    }
    for (size_t i = 0; i < 2 * C; i++) s->bp.msg[i] = 0.5;
    s->bp.depth = -1;
    return 1;
}

/* Line l's marginals: p[i] the probability that its cell i is filled (exactly 0 or 1 for
 * known cells), m[i] (out) the share of the weighted arrangements in which it is. 0 when no
 * arrangement has weight.
 *
 * Only the states that carry weight are visited: at cell i, state t needs t <= i (each
 * symbol takes a cell) and T - t <= n - i (so does each symbol left), and of those the pass
 * keeps the band [lo_i, hi_i] of states the forward pass reached (known cells narrow it).
 * A state outside the band has no forward or no backward weight, so every term it would add
 * is zero: the marginals are those of the whole table, in 1/3 of its work on a random
 * 100-cell line and less as its cells become known. The loops have no branches: the
 * pattern is two 0/1 vectors (is symbol t filled; may state t stay on an empty cell), and
 * each row of the table and the backward vectors keep a zero on either side of the band. */
static int ng_bp_line(ng_solver *s, int l, const double *p, double *m)
{
    const int n = s->pz.line_len[l], k = s->pz.clue_cnt[l];
    const int *c = s->pz.clues + s->pz.clue_off[l];
    const size_t W = (size_t)s->pz.max_len + 3;  /* a vector: states -1 .. T + 1 */
    double *b = s->bp.line + 1, *nb = b + W, *fp = nb + W, *lp = fp + W;
    long long need_cells = k > 0 ? k - 1 : 0;
    for (int j = 0; j < k; j++) need_cells += c[j];
    if (need_cells > n) return 0;  /* (refused before: the vectors hold max_len + 3) */
    int T = 0;
    for (int j = 0; j < k; j++) {
        if (j) { fp[T] = 0.0; lp[T + 1] = 1.0; T++; }  /* a gap: may grow after its first */
        for (int x = 0; x < c[j]; x++) { fp[T] = 1.0; lp[T + 1] = 0.0; T++; }
    }
    lp[0] = 1.0; lp[T] = 1.0;  /* before the first block and after the last */
    fp[-1] = fp[T] = 0.0;  /* (read beside zeros: they must not be NaN) */
    const size_t S = (size_t)T + 3;  /* a row of the table: states -1 .. T + 1 */
    double *fw = s->bp.fw + 1;
    int *lo = s->bp.band, *hi = lo + n + 1;
    fw[-1] = 0.0; fw[0] = 1.0; fw[1] = 0.0;
    lo[0] = hi[0] = 0;
    for (int i = 0; i < n; i++) {
        const double p1 = p[i], p0 = 1.0 - p[i];
        const double *a = fw + (size_t)i * S;
        double *x = fw + (size_t)(i + 1) * S, sum = 0.0;
        /* the states cell i + 1 may be in: reached from the band, and able to finish */
        const int need = T - (n - i - 1);
        int from = lo[i] > need ? lo[i] : need, to = hi[i] + 1 < T ? hi[i] + 1 : T;
        if (from < 0) from = 0;
        for (int t = from; t <= to; t++) {  /* (a is 0 just outside its band) */
            /* (p1 and p0 each times a 0/1 mask: exact however small either is) */
            const double v = a[t] * lp[t] * p0
                             + a[t - 1] * (fp[t - 1] * p1 + (1.0 - fp[t - 1]) * p0);
            x[t] = v;
            sum += v;
        }
        if (!(sum > 0.0)) return 0;
        int nlo = from, nhi = to;
        while (!(x[nlo] > 0.0)) nlo++;
        while (!(x[nhi] > 0.0)) nhi--;
        for (int t = nlo; t <= nhi; t++) x[t] /= sum;
        x[nlo - 1] = 0.0; x[nhi + 1] = 0.0;
        lo[i + 1] = nlo; hi[i + 1] = nhi;
    }
    /* (the last cell's band is {T}: the only state that can finish) */
    for (int t = -1; t <= T + 1; t++) b[t] = t == T;
    for (int i = n - 1; i >= 0; i--) {
        const double p1 = p[i], p0 = 1.0 - p[i];
        const double *a = fw + (size_t)i * S;
        double f = 0.0, e = 0.0, sum = 0.0;
        for (int t = lo[i]; t <= hi[i]; t++) {  /* (b is 0 past T and outside its band) */
            const double stay = lp[t] * p0 * b[t], on = fp[t] * p1 * b[t + 1];
            const double off = (1.0 - fp[t]) * p0 * b[t + 1];
            f += a[t] * on;
            e += a[t] * (stay + off);
            const double v = stay + on + off;
            nb[t] = v;
            sum += v;
        }
        if (!(f + e > 0.0) || !(sum > 0.0)) return 0;
        m[i] = f / (f + e);
        /* b stays zero outside cell i's band: the bands' lower ends never go down from one
         * cell to the next, and their upper ends go up by one at most */
        for (int t = lo[i]; t <= hi[i]; t++) b[t] = nb[t] / sum;
        for (int t = hi[i] + 1; t <= hi[i + 1]; t++) b[t] = 0.0;
    }
    return 1;
}

/* One pass over the rows (which = 0) or the columns (1): each line's messages to its unknown
 * cells, from the crossing lines' messages; returns the largest change, or -1 when a line has
 * no weighted arrangement. */
static double ng_bp_pass(ng_solver *s, int which)
{
    const int W = s->pz.width, H = s->pz.height, C = s->pz.ncells;
    double *mine = s->bp.msg + (size_t)which * C, *other = s->bp.msg + (size_t)(1 - which) * C;
    /* bp_line: ng_bp_line's four vectors, then p and m */
    double *p = s->bp.line + 4 * ((size_t)s->pz.max_len + 3), *m = p + s->pz.max_len + 1;
    double moved = 0.0;
    const int first = which ? H : 0, last = which ? H + W : H;
    for (int l = first; l < last; l++) {
        const int n = s->pz.line_len[l], off = s->pz.line_off[l], step = s->pz.line_step[l];
        int open = 0;
        for (int i = 0; i < n; i++) {
            const uint8_t v = s->cells[off + i * step];
            p[i] = v == CELL_FILLED ? 1.0 : v == CELL_EMPTY ? 0.0 : other[off + i * step];
            open += v == CELL_UNKNOWN;
        }
        if (!open) continue;
        if (!ng_bp_line(s, l, p, m)) return -1.0;
        for (int i = 0; i < n; i++) {
            const int cell = off + i * step;
            if (s->cells[cell] != CELL_UNKNOWN) continue;
            /* the marginal with the cell's own prior divided out (odds), clamped */
            const double q = p[i], mm = m[i];
            const double num = mm * (1.0 - q), den = num + (1.0 - mm) * q;
            double x = den > 0.0 ? num / den : 0.5;
            x = x < NG_BP_EPS ? NG_BP_EPS : x > 1.0 - NG_BP_EPS ? 1.0 - NG_BP_EPS : x;
            const double nx = NG_BP_DAMP * mine[cell] + (1.0 - NG_BP_DAMP) * x;
            const double d = fabs(nx - mine[cell]);
            if (d > moved) moved = d;
            mine[cell] = nx;
        }
    }
    return moved;
}

/* Run BP from the current messages; 0 when it cannot (no scratch, or a line without a
 * weighted arrangement, which a consistent node does not have). */
static int ng_bp_run(ng_solver *s)
{
    if (!ng_bp_scratch(s)) return 0;
    const int C = s->pz.ncells;
    for (int c = 0; c < C; c++)  /* unknown cells' messages start inside the clamp */
        if (s->cells[c] == CELL_UNKNOWN)
            for (int w = 0; w < 2; w++) {
                double *x = &s->bp.msg[(size_t)w * C + c];
                if (!(*x >= NG_BP_EPS && *x <= 1.0 - NG_BP_EPS)) *x = 0.5;
            }
    for (int it = 0; it < NG_BP_ITERS; it++) {
        const double a = ng_bp_pass(s, 0);
        if (a < 0.0) return 0;
        const double b = ng_bp_pass(s, 1);
        if (b < 0.0) return 0;
        s->bp.rounds++;
        if (a < NG_BP_TOL && b < NG_BP_TOL) break;
    }
    return 1;
}

/* NG_ORDER_BP's choice: the unknown cell whose belief is furthest from 1/2, its likelier
 * value first; -1 when BP is unavailable (the caller falls back to the probes' rule). */
static int ng_bp_choose(ng_solver *s, uint8_t *first)
{
    if (s->depth <= s->bp.depth || s->bp.left <= 0) {
        if (!ng_bp_run(s)) { s->bp.depth = -1; return -1; }
        s->bp.depth = s->depth;
        s->bp.left = (int)(s->unknown * NG_BP_SHARE);
        if (s->bp.left < NG_BP_MIN_LEFT) s->bp.left = NG_BP_MIN_LEFT;
    }
    s->bp.left--;
    const int C = s->pz.ncells;
    const double *mr = s->bp.msg, *mc = s->bp.msg + C;
    int best = -1;
    double best_sure = -1.0, best_p = 0.5;
    for (int c = 0; c < C; c++) {
        if (s->cells[c] != CELL_UNKNOWN) continue;
        const double f = mr[c] * mc[c], e = (1.0 - mr[c]) * (1.0 - mc[c]);
        const double p = f / (f + e);
        double sure = fabs(p - 0.5);
        if (s->rng) { /* a restart's randomised run: sureness jitters by up to 20% */
            s->rng ^= s->rng << 13; s->rng ^= s->rng >> 7; s->rng ^= s->rng << 17;
            sure *= (1024 + (double)(s->rng % 205)) / 1024.0;
        }
        if (sure > best_sure) { best_sure = sure; best = c; best_p = p; }
    }
    if (best >= 0) *first = best_p >= 0.5 ? CELL_FILLED : CELL_EMPTY;
    return best;
}
