/* The line solver for long lines with many blocks, in bounded memory: the same exact result
 * as line.c (the left/right dynamic programming of Wu et al., IEEE TCIAIG 2013, and
 * Batenburg & Kosters, Pattern Recognition 2009), for lines whose (blocks + 1) x (cells + 1)
 * tables would pass NG_DENSE_MAX_CELLS bytes (a 100,000-cell line of 50,000 blocks: 5 GB).
 *
 * Two ideas keep its memory near linear in the line:
 * - Bands. Block j starts between es[j] (the clue packed left) and ls[j] (packed right), so
 *   row j of each table is kept only for positions i in [A_j, B_j] = [end of block j-1 packed
 *   left, ls[j]]: slack + 2 bytes, where slack = ls[j] - es[j] is the same for every block.
 *   Prefixes here place each block at or before its latest start and suffixes at or after its
 *   earliest one, which every whole arrangement does, so the result is exact.
 * - Checkpoints. The forward rows are kept only every c ~ sqrt(k + 1) blocks; the backward
 *   pass, going down from block k, recomputes the c rows of a segment from its checkpoint as
 *   it reaches them (one forward pass more in time, 2 sqrt(k) rows in memory instead of k).
 * Memory: (2 sqrt(k + 1) + 4) (slack + 2) bytes and three arrays of n + 1 ints; at 100,000
 * cells at most about 50 MB. Time: O(k (slack + 2)), so the clock is read as it goes
 * (every ~2^16 cells of table) and a passed deadline stops it.
 * Part of the engine's one compilation unit (_core.c includes the parts in core.h's order). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

/* Where the bands of a line lie, and the working space of one solve. */
typedef struct {
    const int *clue;
    int k, n;
    int *es, *ls;          /* k: earliest and latest start of each block */
    int *pe, *pf;          /* n + 1: cells in [0, i) that cannot be empty / filled */
    int *diff;             /* n + 1: placements covering a cell, as differences */
    uint8_t *can_empty;    /* n: some arrangement leaves the cell empty */
    size_t stride;         /* bytes of one row: slack + 2 */
    int seg;               /* rows per checkpoint segment */
    uint8_t *ckpt, *rows, *g0, *g1;  /* checkpoints, a segment's rows, two backward rows */
    eng_limits *lim;
    size_t work;           /* table cells since the clock was last read */
} ng_long;

/* A_j: the first position of row j (the end of block j-1 packed left; 0 for row 0). */
static inline int ng_long_lo(const ng_long *w, int j)
{
    return j == 0 ? 0 : w->es[j - 1] + w->clue[j - 1];
}

/* B_j: the last position of row j (block j's latest start; n for row k). */
static inline int ng_long_hi(const ng_long *w, int j)
{
    return j == w->k ? w->n : w->ls[j];
}

/* Count a row's work; 1 when the deadline has passed. */
static int ng_long_late(ng_long *w)
{
    w->work += w->stride;
    if (!w->lim || w->work < ((size_t)1 << 16)) return 0;
    w->work = 0;
    return eng_out_of_time(w->lim);
}

/* Forward row j into f from row j-1 in fp (NULL for j = 0): f[i - A_j] = blocks 0..j-1 fit
 * in [0, i), each at or before its latest start, every other cell there empty. */
static void ng_long_forward(const ng_long *w, const uint8_t *in, int j, uint8_t *f,
                            const uint8_t *fp)
{
    const int lo = ng_long_lo(w, j), hi = ng_long_hi(w, j);
    if (j == 0) {
        for (int i = lo; i <= hi; i++) f[i - lo] = w->pe[i] == 0;
        return;
    }
    const int L = w->clue[j - 1], plo = ng_long_lo(w, j - 1), last_end = w->ls[j - 1] + L;
    for (int i = lo; i <= hi; i++) {
        uint8_t v = i > lo && f[i - 1 - lo] && (in[i - 1] & CELL_EMPTY);
        const int s = i - L;  /* block j-1 at [s, i): s >= es[j-1] since i >= lo */
        if (!v && i <= last_end && w->pf[i] == w->pf[s]) {
            if (j == 1) v = fp[s - plo];
            else v = (in[s - 1] & CELL_EMPTY) && fp[s - 1 - plo];
        }
        f[i - lo] = v;
    }
}

/* Backward row j into g from row j+1 in gn (unused for j = k): g[i - A_j] = blocks j..k-1
 * fit in [i, n), each at or after its earliest start, every other cell there empty. */
static void ng_long_backward(const ng_long *w, const uint8_t *in, int j, uint8_t *g,
                             const uint8_t *gn)
{
    const int lo = ng_long_lo(w, j), hi = ng_long_hi(w, j), n = w->n, k = w->k;
    if (j == k) {
        for (int i = lo; i <= hi; i++) g[i - lo] = w->pe[n] == w->pe[i];
        return;
    }
    const int L = w->clue[j], nlo = ng_long_lo(w, j + 1);
    for (int i = hi; i >= lo; i--) {
        uint8_t v = i < hi && g[i + 1 - lo] && (in[i] & CELL_EMPTY);
        const int e = i + L;  /* block j at [i, e): e <= n since i <= ls[j] */
        if (!v && i >= w->es[j] && w->pf[e] == w->pf[i]) {
            if (j == k - 1) v = gn[e - nlo];
            else v = e < n && (in[e] & CELL_EMPTY) && gn[e + 1 - nlo];
        }
        g[i - lo] = v;
    }
}

/* What row j (forward f, backward g) and block j (forward f, backward gn of row j+1) allow:
 * cells that can be empty into can_empty, placements of block j into diff. */
static void ng_long_gather(ng_long *w, const uint8_t *in, int j, const uint8_t *f,
                           const uint8_t *g, const uint8_t *gn)
{
    const int lo = ng_long_lo(w, j), hi = ng_long_hi(w, j), n = w->n, k = w->k;
    for (int i = lo; i < hi && i < n; i++)
        if (f[i - lo] && g[i + 1 - lo] && (in[i] & CELL_EMPTY)) w->can_empty[i] = 1;
    if (j == k) return;
    const int L = w->clue[j], nlo = ng_long_lo(w, j + 1);
    for (int s = w->es[j]; s <= w->ls[j]; s++) {
        const int e = s + L;
        if (w->pf[e] != w->pf[s]) continue;
        if (j == 0) { if (!f[s - lo]) continue; }
        else if (!((in[s - 1] & CELL_EMPTY) && f[s - 1 - lo])) continue;
        if (j == k - 1) { if (!gn[e - nlo]) continue; }
        else if (!(e < n && (in[e] & CELL_EMPTY) && gn[e + 1 - nlo])) continue;
        w->diff[s]++;
        w->diff[e]--;
    }
}

/* The forward rows first..last of a segment into w->rows, from the checkpoint of row first. */
static int ng_long_segment(ng_long *w, const uint8_t *in, int first, int last)
{
    memcpy(w->rows, w->ckpt + (size_t)(first / w->seg) * w->stride, w->stride);
    for (int j = first + 1; j <= last; j++) {
        const size_t at = (size_t)(j - first) * w->stride;
        ng_long_forward(w, in, j, w->rows + at, w->rows + at - w->stride);
        if (ng_long_late(w)) return 0;
    }
    return 1;
}

static void ng_long_free(ng_long *w)
{
    free(w->es); free(w->ls); free(w->pe); free(w->pf); free(w->diff); free(w->can_empty);
    free(w->ckpt); free(w->rows); free(w->g0); free(w->g1);
}

/* The bands of the clue on n cells and the working space; 0 when the clue cannot fit, -1
 * when out of memory (w is freed by the caller either way). */
static int ng_long_init(ng_long *w, const int *clue, int k, const uint8_t *in, int n)
{
    w->clue = clue; w->k = k; w->n = n;
    w->es = eng_malloc(((size_t)k + 1), sizeof(int));
    w->ls = eng_malloc(((size_t)k + 1), sizeof(int));
    w->pe = eng_malloc(((size_t)n + 1), sizeof(int));
    w->pf = eng_malloc(((size_t)n + 1), sizeof(int));
    w->diff = calloc((size_t)n + 1, sizeof(int));
    w->can_empty = calloc((size_t)n + 1, 1);
    if (!w->es || !w->ls || !w->pe || !w->pf || !w->diff || !w->can_empty) return -1;
    w->pe[0] = w->pf[0] = 0;
    for (int i = 0; i < n; i++) {
        w->pe[i + 1] = w->pe[i] + (in[i] == CELL_FILLED);
        w->pf[i + 1] = w->pf[i] + (in[i] == CELL_EMPTY);
    }
    long long at = 0;
    for (int j = 0; j < k; j++) { w->es[j] = (int)at; at += clue[j] + 1; }
    if (k && at - 1 > n) return 0;
    at = n;
    for (int j = k - 1; j >= 0; j--) { at -= clue[j]; w->ls[j] = (int)at; at -= 1; }
    const size_t slack = k ? (size_t)(w->ls[0] - w->es[0]) : (size_t)n;
    w->stride = slack + 2;
    w->seg = (int)ceil(sqrt((double)k + 1.0));
    const size_t nckpt = (size_t)k / (size_t)w->seg + 1;
    /* sizes below are at most (sqrt(k) + 2) * (n + 2): no overflow for int k and n */
    w->ckpt = eng_malloc(nckpt, w->stride);
    w->rows = eng_malloc((size_t)w->seg, w->stride);
    w->g0 = malloc(w->stride);
    w->g1 = malloc(w->stride);
    return w->ckpt && w->rows && w->g0 && w->g1 ? 1 : -1;
}

/* The forward pass: checkpoints every w->seg rows; 0 when the last row says nothing fits,
 * 2 when the deadline passed. Rolls through two rows of w->rows. */
static int ng_long_forward_pass(ng_long *w, const uint8_t *in)
{
    uint8_t *cur = w->rows, *prev = w->rows + (w->seg > 1 ? w->stride : 0);
    uint8_t *spare = NULL;
    if (w->seg == 1 && !(spare = malloc(w->stride))) return -1;
    if (spare) prev = spare;
    for (int j = 0; j <= w->k; j++) {
        ng_long_forward(w, in, j, cur, j ? prev : NULL);
        if (j % w->seg == 0) memcpy(w->ckpt + (size_t)(j / w->seg) * w->stride, cur, w->stride);
        uint8_t *t = prev; prev = cur; cur = t;
        if (ng_long_late(w)) { free(spare); return 2; }
    }
    /* prev holds row k: does the whole clue fit the line? */
    const int fits = prev[w->n - ng_long_lo(w, w->k)];
    free(spare);
    return fits;
}

/* Two lines need no tables, and long lines meet them often (a line before anything is known,
 * and after everything is): with every cell known, the line holds when its runs are the
 * clue; with none known, a cell is filled in every arrangement when some block covers it both
 * packed left and packed right, and can be filled when some block can slide over it (every
 * other cell can be empty: pack the blocks before it left and the rest right). Returns 1 or 0
 * (contradiction) when the line is of either kind, else -1. */
static int ng_long_plain(const ng_long *w, const uint8_t *in, uint8_t *out)
{
    const int n = w->n, k = w->k, unknown = n - w->pe[n] - w->pf[n];
    if (unknown == 0) {
        int j = 0, run = 0;
        for (int i = 0; i <= n; i++) {
            if (i < n && in[i] == CELL_FILLED) { run++; continue; }
            if (run && (j == k || w->clue[j++] != run)) return 0;
            run = 0;
        }
        if (j != k) return 0;
        memcpy(out, in, (size_t)n);
        return 1;
    }
    if (unknown < n) return -1;
    /* the blocks' slides overlap: count them as differences (w->diff is zero here), O(n + k) */
    for (int j = 0; j < k; j++) {
        w->diff[w->es[j]]++;
        w->diff[w->ls[j] + w->clue[j]]--;
    }
    int run = 0;
    for (int i = 0; i < n; i++) {
        run += w->diff[i];
        out[i] = run > 0 ? CELL_UNKNOWN : CELL_EMPTY;
        w->diff[i] = 0;
    }
    w->diff[n] = 0;
    for (int j = 0; j < k; j++)  /* the overlaps of different blocks are apart */
        for (int i = w->ls[j]; i < w->es[j] + w->clue[j]; i++) out[i] = CELL_FILLED;
    return 1;
}

/* Narrow a line as ng_solve_line does (same arguments), in bounded memory. Returns 1, 0 on
 * contradiction, 2 when lim's deadline passed (out untouched), -1 when out of memory. */
static int ng_solve_line_long(const int *clue, int k, const uint8_t *in, uint8_t *out, int n,
                              eng_limits *lim)
{
    ng_long w = {0};
    w.lim = lim;
    int r = ng_long_init(&w, clue, k, in, n);
    if (r == 1) {
        const int plain = ng_long_plain(&w, in, out);
        if (plain >= 0) { ng_long_free(&w); return plain; }
        r = ng_long_forward_pass(&w, in);
    }
    if (r != 1) { ng_long_free(&w); return r; }
    uint8_t *g = w.g0, *gn = w.g1;
    int seg_first = -1;
    for (int j = w.k; j >= 0; j--) {
        const int first = j / w.seg * w.seg;
        if (first != seg_first) {
            const int last = first + w.seg - 1 < w.k ? first + w.seg - 1 : w.k;
            if (!ng_long_segment(&w, in, first, last)) { ng_long_free(&w); return 2; }
            seg_first = first;
        }
        ng_long_backward(&w, in, j, g, gn);
        ng_long_gather(&w, in, j, w.rows + (size_t)(j - first) * w.stride, g, gn);
        uint8_t *t = gn; gn = g; g = t;
        if (ng_long_late(&w)) { ng_long_free(&w); return 2; }
    }
    int run = 0, ok = 1;
    for (int i = 0; i < n; i++) {
        run += w.diff[i];
        out[i] = (uint8_t)((w.can_empty[i] ? CELL_EMPTY : 0) | (run > 0 ? CELL_FILLED : 0));
        if (!out[i]) { ok = 0; break; }
    }
    ng_long_free(&w);
    return ok;
}
