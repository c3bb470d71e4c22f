/* The line solver: narrow the cells of one line to what every arrangement of its clue
 * allows, by left/right dynamic programming over (blocks placed, prefix length), O(n*k): a
 * forward table says which prefixes the first j blocks fit, a backward one which suffixes the
 * last k-j blocks fit, and a cell can be empty / filled when some split around it fits both.
 * After the "settle" formulation in Wu, Sun et al., "An efficient approach to solving
 * nonograms", IEEE TCIAIG 2013, and Batenburg & Kosters, "Solving nonograms by combining
 * relaxations", Pattern Recognition 2009.
 * Part of the engine's one compilation unit (_core.c includes the parts in core.h's order). */
#include <stdint.h>

#include "core.h"

/* Narrow the cells of one line to what every arrangement of its clue allows.
 * in[n]: current masks; out[n]: narrowed masks. Returns 0 on contradiction.
 * fwd[j*(n+1)+i]: blocks 0..j-1 fit in cells [0,i) with nothing else filled there.
 * bwd[j*(n+1)+i]: blocks j..k-1 fit in cells [i,n) with nothing else filled there. */
static int ng_solve_line(const int *clue, int k, const uint8_t *in, uint8_t *out, int n,
                         uint8_t *fwd, uint8_t *bwd, int *pe, int *pf, int *diff)
{
    const size_t W = (size_t)n + 1;  /* table offsets j * W pass 2^31 on long lines */
    int i, j;
    pe[0] = pf[0] = 0;
    for (i = 0; i < n; i++) {
        pe[i + 1] = pe[i] + (in[i] == CELL_FILLED); /* cells that cannot be empty */
        pf[i + 1] = pf[i] + (in[i] == CELL_EMPTY);  /* cells that cannot be filled */
    }
    /* fwd */
    for (i = 0; i <= n; i++) fwd[i] = (pe[i] == 0);
    for (j = 1; j <= k; j++) {
        uint8_t *f = fwd + j * W, *fp = fwd + (j - 1) * W;
        const int L = clue[j - 1];
        f[0] = 0;
        for (i = 1; i <= n; i++) {
            uint8_t v = f[i - 1] && (in[i - 1] & CELL_EMPTY);
            const int s = i - L;
            if (!v && s >= 0 && pf[i] == pf[s]) {
                if (j == 1) v = fp[s];
                else v = s >= 1 && (in[s - 1] & CELL_EMPTY) && fp[s - 1];
            }
            f[i] = v;
        }
    }
    if (!fwd[k * W + n]) return 0;
    /* bwd */
    for (i = 0; i <= n; i++) bwd[k * W + i] = (pe[n] == pe[i]);
    for (j = k - 1; j >= 0; j--) {
        uint8_t *b = bwd + j * W, *bn = bwd + (j + 1) * W;
        const int L = clue[j];
        b[n] = 0;
        for (i = n - 1; i >= 0; i--) {
            uint8_t v = b[i + 1] && (in[i] & CELL_EMPTY);
            const int e = i + L;
            if (!v && e <= n && pf[e] == pf[i]) {
                if (j == k - 1) v = bn[e];
                else v = e < n && (in[e] & CELL_EMPTY) && bn[e + 1];
            }
            b[i] = v;
        }
    }
    /* which cells can be empty / filled in some arrangement */
    for (i = 0; i <= n; i++) diff[i] = 0;
    for (i = 0; i < n; i++) {
        uint8_t m = 0;
        if (in[i] & CELL_EMPTY)
            for (j = 0; j <= k; j++)
                if (fwd[j * W + i] && bwd[j * W + i + 1]) { m = CELL_EMPTY; break; }
        out[i] = m;
    }
    for (j = 0; j < k; j++) {
        const int L = clue[j];
        const uint8_t *fl = fwd + j * W, *f0 = fwd;
        for (int s = 0; s + L <= n; s++) {
            const int e = s + L;
            if (pf[e] != pf[s]) continue;
            if (j == 0) { if (!f0[s]) continue; }
            else if (!(s >= 1 && (in[s - 1] & CELL_EMPTY) && fl[s - 1])) continue;
            if (j == k - 1) { if (!bwd[k * W + e]) continue; }
            else if (!(e < n && (in[e] & CELL_EMPTY) && bwd[(j + 1) * W + e + 1])) continue;
            diff[s]++;
            diff[e]--;
        }
    }
    int run = 0;
    for (i = 0; i < n; i++) {
        run += diff[i];
        if (run > 0) out[i] |= CELL_FILLED;
        if (!out[i]) return 0;
    }
    return 1;
}
