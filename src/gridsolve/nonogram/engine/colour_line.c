/* The colour line solver: narrow each cell of a line to the colours it takes over every
 * arrangement of its clue, by left/right dynamic programming as in line.c (Wu et al., IEEE
 * TCIAIG 2013; Batenburg & Kosters, Pattern Recognition 2009), with the colour rule: blocks
 * of one colour need a background cell between them, blocks of different colours may touch.
 * Part of the colour engine's one compilation unit (_colour.c includes the parts in order). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "colour.h"

/* Narrow the cells of one line to the union, over every arrangement of its clue that the
 * input allows, of the colour each cell takes. Returns 0 on contradiction.
 * len[j], col[j]: block j's length and palette index (>= 1).
 * fwd[j][i]: blocks 0..j-1 fill cells [0,i) exactly, cell i-1 ending a block or background.
 * bwd[j][i]: blocks j..k-1 fill cells [i,n) exactly, cell i starting a block or background.
 * A block of the same colour as its neighbour needs one background cell between them.
 * Block j starts no earlier than es[j] and no later than ls[j] (the clue packed to the left
 * or right), so each loop runs over those ranges only. Prefix counts ("cells in [0,i) that
 * cannot take colour c") and the difference arrays that paint feasible placements are kept
 * per colour of the clue, not per block. */
static int cg_solve_line(const int *len, const int *col, int k, const cg_mask *in, cg_mask *out,
                         int n, const cg_work *w)
{
    const size_t W = (size_t)n + 1;  /* table offsets j * W pass 2^31 on long lines */
    uint8_t *fwd = w->fwd, *bwd = w->bwd;
    int *nbg = w->nbg, *bad = w->bad, *diff = w->diff, *es = w->es, *ls = w->ls, *slot = w->slot;
    int i, j, ncol = 0;
    int8_t local[CG_MAX_COLOURS];
    memset(local, -1, sizeof local);
    nbg[0] = 0;
    for (i = 0; i < n; i++) nbg[i + 1] = nbg[i] + !(in[i] & CG_BACKGROUND);
    for (j = 0; j < k; j++) {
        if (local[col[j]] < 0) {
            local[col[j]] = (int8_t)ncol;
            int *b = bad + ncol * W, *d = diff + ncol * W;
            const cg_mask bit = 1u << col[j];
            b[0] = 0;
            for (i = 0; i < n; i++) b[i + 1] = b[i] + !(in[i] & bit);
            for (i = 0; i <= n; i++) d[i] = 0;
            ncol++;
        }
        slot[j] = local[col[j]];
    }
    if (k) {
        es[0] = 0;
        for (j = 1; j < k; j++) es[j] = es[j - 1] + len[j - 1] + (col[j - 1] == col[j]);
        ls[k - 1] = n - len[k - 1];
        for (j = k - 2; j >= 0; j--) ls[j] = ls[j + 1] - len[j] - (col[j] == col[j + 1]);
    }
    /* fwd: blocks 0..j-1 need at least es[j-1] + len[j-1] cells */
    for (i = 0; i <= n; i++) fwd[i] = nbg[i] == 0;
    for (j = 1; j <= k; j++) {
        uint8_t *f = fwd + j * W;
        const uint8_t *fp = fwd + (j - 1) * W;
        const int L = len[j - 1], *b = bad + slot[j - 1] * W, lo = es[j - 1] + L;
        const int same = j >= 2 && col[j - 2] == col[j - 1];
        for (i = 0; i < lo; i++) f[i] = 0;
        for (i = lo; i <= n; i++) {
            uint8_t v = f[i - 1] && (in[i - 1] & CG_BACKGROUND);
            const int s = i - L;
            if (!v && b[i] == b[s])
                v = same ? (s >= 1 && (in[s - 1] & CG_BACKGROUND) && fp[s - 1]) : fp[s];
            f[i] = v;
        }
    }
    if (!fwd[k * W + n]) return 0;
    /* bwd: blocks j..k-1 start at ls[j] at the latest */
    for (i = 0; i <= n; i++) bwd[k * W + i] = nbg[n] == nbg[i];
    for (j = k - 1; j >= 0; j--) {
        uint8_t *b = bwd + j * W;
        const uint8_t *bn = bwd + (j + 1) * W;
        const int L = len[j], *bb = bad + slot[j] * W, hi = ls[j];
        const int same = j + 1 < k && col[j + 1] == col[j];
        for (i = hi + 1; i <= n; i++) b[i] = 0;
        for (i = hi; i >= 0; i--) {
            uint8_t v = b[i + 1] && (in[i] & CG_BACKGROUND);
            const int e = i + L;
            if (!v && bb[e] == bb[i])
                v = same ? (e < n && (in[e] & CG_BACKGROUND) && bn[e + 1]) : bn[e];
            b[i] = v;
        }
    }
    /* background where a cell can lie between blocks j-1 and j: j blocks fit before cell i
     * (j <= jh) and the rest after it (j >= jl) */
    int jl = 0, jh = 0;
    for (i = 0; i < n; i++) {
        while (jl < k && ls[jl] < i + 1) jl++;
        while (jh < k && es[jh] + len[jh] <= i) jh++;
        cg_mask m = 0;
        if (in[i] & CG_BACKGROUND)
            for (j = jl; j <= jh; j++)
                if (fwd[j * W + i] && bwd[j * W + i + 1]) { m = CG_BACKGROUND; break; }
        out[i] = m;
    }
    /* each block's colour over its feasible placements, painted per colour */
    for (j = 0; j < k; j++) {
        const int L = len[j], *bb = bad + slot[j] * W;
        int *d = diff + slot[j] * W;
        const int samep = j > 0 && col[j - 1] == col[j];
        const int samen = j + 1 < k && col[j + 1] == col[j];
        const uint8_t *fl = fwd + j * W, *br = bwd + (j + 1) * W;
        for (int s = es[j]; s <= ls[j]; s++) {
            const int e = s + L;
            if (bb[e] != bb[s]) continue;
            if (samep ? !(s >= 1 && (in[s - 1] & CG_BACKGROUND) && fl[s - 1]) : !fl[s]) continue;
            if (samen ? !(e < n && (in[e] & CG_BACKGROUND) && br[e + 1]) : !br[e]) continue;
            d[s]++;
            d[e]--;
        }
    }
    for (int c = 0; c < CG_MAX_COLOURS; c++) {
        if (local[c] < 0) continue;
        const int *d = diff + local[c] * W;
        const cg_mask bit = 1u << c;
        int run = 0;
        for (i = 0; i < n; i++) {
            run += d[i];
            if (run > 0) out[i] |= bit;
        }
    }
    for (i = 0; i < n; i++)
        if (!out[i]) return 0;
    return 1;
}

void cg_work_free(cg_work *w)
{
    free(w->fwd); free(w->bwd); free(w->bad); free(w->nbg); free(w->diff);
    free(w->es); free(w->ls); free(w->slot);
}

/* Scratch for lines of up to n cells and clues of up to k blocks; 0 if out of memory. */
int cg_work_init(cg_work *w, int n, int k)
{
    const size_t W = (size_t)n + 1;
    w->fwd = eng_malloc((size_t)k + 1, W);
    w->bwd = eng_malloc((size_t)k + 1, W);
    const size_t colours = (size_t)(k < CG_MAX_COLOURS ? (k > 0 ? k : 1) : CG_MAX_COLOURS);
    w->bad = eng_malloc(colours * W, sizeof(int));
    w->diff = eng_malloc(colours * W, sizeof(int));
    w->nbg = eng_malloc(W, sizeof(int));
    w->es = eng_malloc((k + 1), sizeof(int));
    w->ls = eng_malloc((k + 1), sizeof(int));
    w->slot = eng_malloc((k + 1), sizeof(int));
    return w->fwd && w->bwd && w->bad && w->nbg && w->diff && w->es && w->ls && w->slot;
}
