/* Counting a line's arrangements that fit its known cells, forward and backward over block
 * placements, O(n*k): the solution densities of counting-based search (Pesant, Quimper &
 * Zanarini, JAIR 2012) for the likely/sure rules, and the log counts of the promise rule's
 * estimate (Geelen, ECAI 1992).
 * Part of the engine's one compilation unit (_core.c includes the parts in core.h's order). */
#include <math.h>
#include <stdlib.h>

#include "core.h"

/* Arrangement counts around a placement of block j at [st, e) of a line v of n cells with k
 * blocks (fw and bw as in ng_line_likely, rows of W = n + 1): the placements of blocks
 * 0..j-1 before it, with the cell before it empty ... */
static inline double ng_count_before(const double *fw, size_t W, const uint8_t *v, int j, int st)
{
    if (st == 0) return j == 0;
    return (v[st - 1] & CELL_EMPTY) ? fw[j * W + st - 1] : 0.0;
}

/* ... and the placements of blocks j+1..k-1 after it, with the cell after it empty. */
static inline double ng_count_after(const double *bw, size_t W, const uint8_t *v, int n, int k,
                                    int j, int e)
{
    if (e == n) return j == k - 1;
    return (v[e] & CELL_EMPTY) ? bw[(j + 1) * W + e + 1] : 0.0;
}

/* The counting scratch (cnt_*), allocated on first use; 0 when it cannot be (out of memory,
 * or over NG_COUNT_MAX_CELLS). */
static int ng_count_scratch(ng_solver *s)
{
    if (s->tmp.cnt_fw) return 1;
    const size_t cells = ((size_t)s->pz.max_k + 1) * ((size_t)s->pz.max_len + 1);
    if (cells > NG_COUNT_MAX_CELLS) return 0;  /* too big to count: the rules do without */
    s->tmp.cnt_fw = eng_malloc(cells, sizeof(double));
    s->tmp.cnt_bw = eng_malloc(cells, sizeof(double));
    s->tmp.cnt_acc = eng_malloc((s->pz.max_len + 1), sizeof(double));
    s->tmp.cnt_line = eng_malloc((s->pz.max_len + 1), sizeof(double));
    if (!s->tmp.cnt_fw || !s->tmp.cnt_bw || !s->tmp.cnt_acc || !s->tmp.cnt_line) {
        free(s->tmp.cnt_fw); free(s->tmp.cnt_bw); free(s->tmp.cnt_acc); free(s->tmp.cnt_line);
        s->tmp.cnt_fw = s->tmp.cnt_bw = s->tmp.cnt_acc = s->tmp.cnt_line = NULL;
        return 0;
    }
    return 1;
}

/* The forward counts of line l (scratch allocated): its cells into s->tmp.lin, nf[i] (cells
 * before i that cannot be filled) into s->tmp.pe, and fw[j * (n + 1) + i], the placements of
 * blocks 0..j-1 in cells [0, i) (the rest of them empty), into s->tmp.cnt_fw. Returns the
 * number of arrangements that fit the line's known cells. */
static double ng_count_forward(ng_solver *s, int l)
{
    const int n = s->pz.line_len[l], k = s->pz.clue_cnt[l], off = s->pz.line_off[l], step = s->pz.line_step[l];
    const int *c = s->pz.clues + s->pz.clue_off[l];
    uint8_t *v = s->tmp.lin;
    int *nf = s->tmp.pe;
    nf[0] = 0;
    for (int i = 0; i < n; i++) {
        v[i] = s->cells[off + i * step];
        nf[i + 1] = nf[i] + !(v[i] & CELL_FILLED);
    }
    const size_t W = (size_t)n + 1;
    double *fw = s->tmp.cnt_fw;
    for (int j = 0; j <= k; j++) fw[j * W] = j == 0;
    for (int i = 1; i <= n; i++)
        for (int j = 0; j <= k; j++) {
            double x = (v[i - 1] & CELL_EMPTY) ? fw[j * W + i - 1] : 0.0;
            if (j > 0) {  /* block j-1 ends at cell i-1 */
                const int st = i - c[j - 1];
                if (st >= 0 && nf[i] == nf[st]) x += ng_count_before(fw, W, v, j - 1, st);
            }
            fw[j * W + i] = x;
        }
    return fw[k * W + n];
}

/* For each cell of line l, the share of the line's arrangements (those that fit its known
 * cells, each counted once) in which it is filled: the solution densities of counting-based
 * search (Pesant, Quimper & Zanarini, JAIR 2012), by forward and backward counts of block
 * placements, O(n * k). Returns s->tmp.cnt_line[0..n), valid until the next call, or NULL when
 * nothing fits, the count overflows or the scratch cannot be allocated. */
static const double *ng_line_likely(ng_solver *s, int l)
{
    const int n = s->pz.line_len[l], k = s->pz.clue_cnt[l];
    const int *c = s->pz.clues + s->pz.clue_off[l];
    if (!ng_count_scratch(s)) return NULL;
    const double total = ng_count_forward(s, l);
    if (!(total > 0.0) || total > 1e300) return NULL;
    const uint8_t *v = s->tmp.lin;
    const int *nf = s->tmp.pe;
    const size_t W = (size_t)n + 1;
    const double *fw = s->tmp.cnt_fw;
    double *bw = s->tmp.cnt_bw, *acc = s->tmp.cnt_acc;
    /* bw[j * W + i]: placements of blocks j..k-1 in cells [i, n) */
    for (int j = 0; j <= k; j++) bw[j * W + n] = j == k;
    for (int i = n - 1; i >= 0; i--)
        for (int j = k; j >= 0; j--) {
            double x = (v[i] & CELL_EMPTY) ? bw[j * W + i + 1] : 0.0;
            if (j < k) {  /* block j starts at cell i */
                const int e = i + c[j];
                if (e <= n && nf[e] == nf[i]) x += ng_count_after(bw, W, v, n, k, j, e);
            }
            bw[j * W + i] = x;
        }
    for (int i = 0; i <= n; i++) acc[i] = 0.0;
    for (int j = 0; j < k; j++)  /* every placement of block j at [st, e), weighted */
        for (int st = 0; st + c[j] <= n; st++) {
            const int e = st + c[j];
            if (nf[e] != nf[st]) continue;
            const double left = ng_count_before(fw, W, v, j, st);
            if (left == 0.0) continue;
            const double right = ng_count_after(bw, W, v, n, k, j, e);
            acc[st] += left * right;
            acc[e] -= left * right;
        }
    double run = 0.0, *out = s->tmp.cnt_line;
    for (int i = 0; i < n; i++) {
        run += acc[i];
        const double p = run / total;
        out[i] = p < 0.0 ? 0.0 : p > 1.0 ? 1.0 : p;
    }
    return out;
}

/* The number of arrangements of line l that fit its known cells; 0 when none fits, -1 when
 * the scratch cannot be allocated. */
static double ng_line_count(ng_solver *s, int l)
{
    return ng_count_scratch(s) ? ng_count_forward(s, l) : -1.0;
}

/* log of an estimate of the number of solutions: the lines' arrangement counts as
 * independent constraints on the unknown cells, sum of log counts - unknown * log 2. */
static double ng_log_estimate(ng_solver *s)
{
    if (s->bits && !s->count_memo) {
        /* no line has both masks full: these keys match nothing until a line is counted */
        s->count_memo = eng_malloc((size_t)s->pz.nlines, sizeof(ng_count_memo));
        if (s->count_memo)
            for (int l = 0; l < s->pz.nlines; l++) {
                ng_count_memo *m = &s->count_memo[l];
                for (int w = 0; w < NG_MEMO_WAYS; w++) m->kf[w] = m->ke[w] = ~0ULL;
                m->next = 0;
            }
    }
    double sum = 0.0;
    for (int l = 0; l < s->pz.nlines; l++) {
        ng_count_memo *m = s->count_memo ? &s->count_memo[l] : NULL;
        int w = 0;
        if (m) {
            while (w < NG_MEMO_WAYS && !(m->kf[w] == s->lf[l] && m->ke[w] == s->le[l])) w++;
            if (w < NG_MEMO_WAYS) { sum += m->log_count[w]; continue; }
        }
        const double t = ng_line_count(s, l);
        if (!(t > 0.0)) return -1e300;
        const double lt = log(t);
        if (m) {
            w = m->next;
            m->next = w + 1 == NG_MEMO_WAYS ? 0 : w + 1;
            m->kf[w] = s->lf[l]; m->ke[w] = s->le[l]; m->log_count[w] = lt;
        }
        sum += lt;
    }
    return sum - s->unknown * 0.6931471805599453;
}
