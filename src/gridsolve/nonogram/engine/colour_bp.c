/* Belief propagation over the colour lines (CG_ORDER_BP, the colour dive): for every open
 * cell an estimate of the probability of each colour it may take, from messages passed
 * between its row and its column, and the branching rule that follows it (decimation), as
 * bp.c does for black and white (docs/decisions/0028 and 0036).
 *
 * Each line is one factor over its cells. Given each cell's prior over the colours (the
 * crossing line's message, restricted to the colours its mask allows; known cells are
 * certain), the line's marginals come exactly from forward and backward passes over the
 * automaton of its clue: a state per symbol of the pattern (each block's cells in its
 * colour; a background symbol between two blocks of one colour), background looping at the
 * start, the end and wherever a gap may grow (between blocks of different colours it may be
 * empty). Each step of the passes is normalised, so long lines do not underflow. What a line
 * says to a cell is its marginal with the cell's own prior divided out. Rows and columns take
 * turns (damped) from where the last call left them, until no message moves by CG_BP_TOL or
 * CG_BP_ITERS rounds.
 *
 * BP proves nothing: it only orders the search (the cell whose likeliest colour is likeliest,
 * that colour first). Every value is still set and propagated by the exact line solver, so
 * the search stays complete and exact. Each line's pass counts CG_BP_LINE_WORK line solves of
 * work (lim.line_solves), so a work budget bounds the dive as it does the search.
 * Part of the colour engine's one compilation unit (_colour.c includes the parts in order). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "colour.h"

/* Beliefs are computed again after this share of the then open cells, and at least
 * CG_BP_MIN_LEFT cells, have been decided (bp.c's numbers, decision 0028). */
#define CG_BP_SHARE 0.02
#define CG_BP_MIN_LEFT 20
/* At most this many rounds (rows then columns) a computation, fewer when no message moves by
 * more than CG_BP_TOL. */
#define CG_BP_ITERS 10
#define CG_BP_TOL 1e-3
/* A message gives each colour a cell may take at least this much, so none is ever certain. */
#define CG_BP_EPS 1e-4
#define CG_BP_DAMP 0.5
/* A line's pass in line solves of work: what it costs against the plain search's line solves
 * (on random 40x40 puzzles of 2 and 4 colours about 8 us against 2.2-3.7 us; decision 0036). */
#define CG_BP_LINE_WORK 4

/* The scratch and messages of BP, allocated on first use; 0 when they cannot be (out of
 * memory, or a line's table over CG_BP_MAX_TABLE). */
static int cg_bp_scratch(cg_solver *s)
{
    if (s->bp.msg) return 1;
    const size_t n1 = (size_t)s->pz.max_len + 1, K = (size_t)s->pz.ncolours;
    if (n1 * n1 > CG_BP_MAX_TABLE) return 0;
    const size_t C = (size_t)s->pz.ncells;
    s->bp.fw = eng_malloc(n1 * n1, sizeof(double));
    /* per line: the priors and the marginals (n x K each), two backward vectors */
    s->bp.line = eng_malloc(2 * n1 * K + 2 * n1 + 2, sizeof(double));
    s->bp.pattern = eng_malloc(2 * n1 + 2, sizeof(int));
    s->bp.msg = eng_malloc(2 * C * K, sizeof(double));
    if (!s->bp.fw || !s->bp.line || !s->bp.pattern || !s->bp.msg) {
        free(s->bp.fw); free(s->bp.line); free(s->bp.pattern); free(s->bp.msg);
        s->bp.fw = s->bp.line = s->bp.msg = NULL; s->bp.pattern = NULL;
        return 0;
    }
    for (size_t i = 0; i < 2 * C * K; i++) s->bp.msg[i] = 0.0;  /* (reset by cg_bp_run) */
    s->bp.depth = -1;
    return 1;
}

/* Line l's marginals: p[i * K + c] the prior of colour c at its cell i (0 where the mask
 * forbids it; rows sum to 1), m (out) the share of the weighted arrangements in which cell i
 * takes colour c. 0 when no arrangement has weight. */
static int cg_bp_line(cg_solver *s, int l, const double *p, double *m)
{
    const int n = s->pz.line_len[l], k = s->pz.clue_cnt[l], K = s->pz.ncolours;
    const int *len = s->pz.clue_len + s->pz.clue_off[l], *col = s->pz.clue_col + s->pz.clue_off[l];
    int *sym = s->bp.pattern, *loop = sym + n + 1;  /* symbol t's colour; may state t loop */
    long long need = 0;
    for (int j = 0; j < k; j++) need += len[j] + (j && col[j] == col[j - 1]);
    if (need > n) return 0;  /* (cannot happen: the binding checks that clues fit) */
    int T = 0;
    loop[0] = 1;
    for (int j = 0; j < k; j++) {
        if (j && col[j] == col[j - 1]) { sym[T] = 0; loop[++T] = 1; }  /* a gap of one or more */
        else if (j) loop[T] = 1;  /* blocks of different colours: a gap of none or more */
        for (int x = 0; x < len[j]; x++) { sym[T] = col[j]; loop[++T] = 0; }
    }
    loop[T] = 1;
    const size_t S = (size_t)T + 1;
    double *fw = s->bp.fw, *b = s->bp.line + 2 * ((size_t)s->pz.max_len + 1) * K, *nb = b + n + 2;
    /* state t before cell i needs t <= i (each symbol takes a cell) and T - t <= n - i (so
     * does each symbol left): the band [lo(i), hi(i)]; a row of the table is kept zero just
     * outside its band, so the loops read no state outside it */
#define CG_BP_LO(i) (T - (n - (i)) > 0 ? T - (n - (i)) : 0)
#define CG_BP_HI(i) ((i) < T ? (i) : T)
    fw[0] = 1.0;
    if (T) fw[1] = 0.0;
    for (int i = 0; i < n; i++) {
        const double *pi = p + (size_t)i * K, *a = fw + (size_t)i * S;
        double *x = fw + (size_t)(i + 1) * S, sum = 0.0;
        const int lo = CG_BP_LO(i + 1), hi = CG_BP_HI(i + 1);
        for (int t = lo; t <= hi; t++) {
            double v = a[t] * loop[t] * pi[0];
            if (t) v += a[t - 1] * pi[sym[t - 1]];
            x[t] = v;
            sum += v;
        }
        if (!(sum > 0.0)) return 0;
        for (int t = lo; t <= hi; t++) x[t] /= sum;
        if (lo > 0) x[lo - 1] = 0.0;
        if (hi < T) x[hi + 1] = 0.0;
    }
    if (!(fw[(size_t)n * S + T] > 0.0)) return 0;
    for (int t = 0; t <= T + 1; t++) b[t] = t == T;
    for (int i = n - 1; i >= 0; i--) {
        const double *pi = p + (size_t)i * K, *a = fw + (size_t)i * S;
        double *mi = m + (size_t)i * K, sum = 0.0, total = 0.0;
        const int lo = CG_BP_LO(i), hi = CG_BP_HI(i);
        for (int c = 0; c < K; c++) mi[c] = 0.0;
        for (int t = lo; t <= hi; t++) {  /* (b is zero outside cell i + 1's band, and at T + 1) */
            const double stay = loop[t] * pi[0] * b[t];
            const double on = t < T ? pi[sym[t]] * b[t + 1] : 0.0;
            mi[0] += a[t] * stay;
            if (t < T) mi[sym[t]] += a[t] * on;
            nb[t] = stay + on;
            sum += stay + on;
        }
        for (int c = 0; c < K; c++) total += mi[c];
        if (!(total > 0.0) || !(sum > 0.0)) return 0;
        for (int c = 0; c < K; c++) mi[c] /= total;
        /* b becomes cell i's: its band, zero above it up to where cell i + 1's ended (the
         * lower ends never go down from one cell to the next) */
        for (int t = lo; t <= hi; t++) b[t] = nb[t] / sum;
        for (int t = hi + 1; t <= CG_BP_HI(i + 1); t++) b[t] = 0.0;
    }
#undef CG_BP_LO
#undef CG_BP_HI
    return 1;
}

/* One pass over the rows (which = 0) or the columns (1): each line's messages to its open
 * cells, from the crossing lines' messages; the largest change, -1 when a line has no
 * weighted arrangement, -2 at a limit. */
static double cg_bp_pass(cg_solver *s, int which)
{
    const int W = s->pz.width, H = s->pz.height, C = s->pz.ncells, K = s->pz.ncolours;
    double *mine = s->bp.msg + (size_t)which * C * K, *other = s->bp.msg + (size_t)(1 - which) * C * K;
    double *p = s->bp.line, *m = p + ((size_t)s->pz.max_len + 1) * K;
    double moved = 0.0;
    const int first = which ? H : 0, last = which ? H + W : H;
    for (int l = first; l < last; l++) {
        const int n = s->pz.line_len[l], off = s->pz.line_off[l], step = s->pz.line_step[l];
        int open = 0;
        for (int i = 0; i < n; i++) {
            const int cell = off + i * step;
            const cg_mask mask = s->cells[cell];
            double *pi = p + (size_t)i * K, sum = 0.0;
            const double *o = other + (size_t)cell * K;
            const int single = cg_single(mask);
            for (int c = 0; c < K; c++) {
                pi[c] = (mask >> c & 1u) ? (single ? 1.0 : o[c]) : 0.0;
                sum += pi[c];
            }
            for (int c = 0; c < K; c++) pi[c] /= sum;  /* (sum > 0: cg_bp_run's reset) */
            open += !single;
        }
        if (!open) continue;
        /* (every pass looks: one costs a few line solves, and counts CG_BP_LINE_WORK of them,
         * which would step over the multiples of check_mask + 1 the line solves look at) */
        if (eng_out_of_time(&s->lim)) return -2.0;
        s->lim.line_solves += CG_BP_LINE_WORK;
        s->bp.lines++;
        if (!cg_bp_line(s, l, p, m)) return -1.0;
        for (int i = 0; i < n; i++) {
            const int cell = off + i * step;
            const cg_mask mask = s->cells[cell];
            if (cg_single(mask)) continue;
            /* the marginal with the cell's own prior divided out, clamped, damped */
            const double *pi = p + (size_t)i * K, *mi = m + (size_t)i * K;
            double x[CG_MAX_COLOURS], sum = 0.0;
            for (int c = 0; c < K; c++) {
                x[c] = (mask >> c & 1u) && pi[c] > 0.0 ? mi[c] / pi[c] : 0.0;
                sum += x[c];
            }
            double *to = mine + (size_t)cell * K, norm = 0.0;
            for (int c = 0; c < K; c++) {
                if (!(mask >> c & 1u)) { x[c] = 0.0; continue; }
                x[c] = sum > 0.0 ? x[c] / sum : 1.0;
                if (x[c] < CG_BP_EPS) x[c] = CG_BP_EPS;
                norm += x[c];
            }
            for (int c = 0; c < K; c++) {
                const double nx = CG_BP_DAMP * to[c] + (1.0 - CG_BP_DAMP) * x[c] / norm;
                const double d = fabs(nx - to[c]);
                if (d > moved) moved = d;
                to[c] = nx;
            }
        }
    }
    return moved;
}

/* Run BP from the current messages; 0 when it cannot (no scratch, a limit, or a line without
 * a weighted arrangement, which a consistent node does not have). */
static int cg_bp_run(cg_solver *s)
{
    if (!cg_bp_scratch(s) || s->lim.aborted) return 0;
    const int C = s->pz.ncells, K = s->pz.ncolours;
    /* each open cell's messages: its colours' shares inside [EPS, 1], none of its lost colours,
     * summing to 1; a message that is not (new, or its cell's mask grew back) starts even */
    for (int w = 0; w < 2; w++)
        for (int c = 0; c < C; c++) {
            const cg_mask mask = s->cells[c];
            if (cg_single(mask)) continue;
            double *x = s->bp.msg + ((size_t)w * C + c) * K, sum = 0.0;
            int ok = 1;
            for (int v = 0; v < K; v++) {
                if (!(mask >> v & 1u)) { x[v] = 0.0; continue; }
                ok &= x[v] >= CG_BP_EPS * 0.5 && x[v] <= 1.0;
                sum += x[v];
            }
            if (ok && sum > 0.0) {
                for (int v = 0; v < K; v++) x[v] /= sum;
            } else {
                const double even = 1.0 / __builtin_popcount(mask);
                for (int v = 0; v < K; v++) x[v] = (mask >> v & 1u) ? even : 0.0;
            }
        }
    for (int it = 0; it < CG_BP_ITERS; it++) {
        const double a = cg_bp_pass(s, 0);
        if (a < 0.0) return 0;
        const double b = cg_bp_pass(s, 1);
        if (b < 0.0) return 0;
        s->bp.rounds++;
        if (a < CG_BP_TOL && b < CG_BP_TOL) break;
    }
    return 1;
}

/* CG_ORDER_BP's choice: the open cell whose likeliest colour (its row's and its column's
 * messages multiplied) is likeliest, and that colour; -1 when BP is unavailable (the caller
 * falls back to the fewest colours). A restart's run (s->rng) jitters the sureness by up to
 * 20%, as bp.c does. */
static int cg_bp_choose(cg_solver *s, cg_mask *value)
{
    if (s->depth <= s->bp.depth || s->bp.left <= 0) {
        if (!cg_bp_run(s)) { s->bp.depth = -1; s->bp.left = 0; return -1; }
        s->bp.depth = s->depth;
        s->bp.left = (int)(s->unknown * CG_BP_SHARE);
        if (s->bp.left < CG_BP_MIN_LEFT) s->bp.left = CG_BP_MIN_LEFT;
    }
    s->bp.left--;
    const int C = s->pz.ncells, K = s->pz.ncolours;
    const double *mr = s->bp.msg, *mc = s->bp.msg + (size_t)C * K;
    int best = -1, best_colour = 0;
    double best_sure = -1.0;
    for (int c = 0; c < C; c++) {
        const cg_mask mask = s->cells[c];
        if (cg_single(mask)) continue;
        double sum = 0.0, top = -1.0;
        int colour = __builtin_ctz(mask);
        for (int v = 0; v < K; v++) {
            if (!(mask >> v & 1u)) continue;
            const double x = mr[(size_t)c * K + v] * mc[(size_t)c * K + v];
            sum += x;
            if (x > top) { top = x; colour = v; }
        }
        double sure = sum > 0.0 ? top / sum : 0.0;
        if (s->rng) {
            s->rng ^= s->rng << 13; s->rng ^= s->rng >> 7; s->rng ^= s->rng << 17;
            sure *= (1024 + (double)(s->rng % 205)) / 1024.0;
        }
        if (sure > best_sure) { best_sure = sure; best = c; best_colour = colour; }
    }
    if (best >= 0) *value = 1u << best_colour;
    return best;
}
