/* The nonogram engine: see core.h for the vocabulary and the algorithms' sources.
 * Pure C, no Python: _core.c wraps it. Included by _core.c as one compilation unit. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core.h"

enum { ST_START = 0, ST_EXPAND = 1, ST_BACKTRACK = 2, ST_DONE = 3, ST_LIMIT = 4 };

static double ng_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---------------------------------------------------------------- line solver */

/* Narrow the cells of one line to what every arrangement of its clue allows.
 * in[n]: current masks; out[n]: narrowed masks. Returns 0 on contradiction.
 * fwd[j*(n+1)+i]: blocks 0..j-1 fit in cells [0,i) with nothing else filled there.
 * bwd[j*(n+1)+i]: blocks j..k-1 fit in cells [i,n) with nothing else filled there. */
static int ng_solve_line(const int *clue, int k, const uint8_t *in, uint8_t *out, int n,
                         uint8_t *fwd, uint8_t *bwd, int *pe, int *pf, int *diff)
{
    const int W = n + 1;
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

/* ---------------------------------------------------------------- bit-parallel line solver */

/* The same left/right computation on machine words, for lines of at most NG_BITS_MAX cells:
 * bit i of a cell mask is cell i; bit i of a position mask is the prefix [0, i) (i = 0..n).
 * Each block costs a few dozen word operations instead of a pass over the line. */

/* Bit s set when cells s .. s+L-1 are all set in m (L >= 1). */
static inline uint64_t ng_runs(uint64_t m, int L)
{
    int len = 1;
    while (2 * len <= L) { m &= m >> len; len *= 2; }
    if (L > len) m &= m >> (L - len);
    return m;
}

/* Bits s .. s+L-1 set for every bit s of v (L >= 1). */
static inline uint64_t ng_smear(uint64_t v, int L)
{
    int len = 1;
    while (2 * len <= L) { v |= v << len; len *= 2; }
    if (L > len) v |= v << (L - len);
    return v;
}

/* The least superset of f with bit i set whenever bit i-1 is and bit i of m is (a parallel
 * prefix over 64 bits: after the step by 2^t, every run of up to 2^(t+1)-1 steps is done). */
static inline uint64_t ng_flood_up(uint64_t f, uint64_t m)
{
    f |= (f << 1) & m;  m &= m << 1;
    f |= (f << 2) & m;  m &= m << 2;
    f |= (f << 4) & m;  m &= m << 4;
    f |= (f << 8) & m;  m &= m << 8;
    f |= (f << 16) & m; m &= m << 16;
    f |= (f << 32) & m;
    return f;
}

/* The same downwards: bit i set whenever bit i+1 is and bit i of m is. */
static inline uint64_t ng_flood_down(uint64_t f, uint64_t m)
{
    f |= (f >> 1) & m;  m &= m >> 1;
    f |= (f >> 2) & m;  m &= m >> 2;
    f |= (f >> 4) & m;  m &= m >> 4;
    f |= (f >> 8) & m;  m &= m >> 8;
    f |= (f >> 16) & m; m &= m >> 16;
    f |= (f >> 32) & m;
    return f;
}

/* canF / canE: cells that may be filled / empty (n <= NG_BITS_MAX). On success, *outF and
 * *outE are the cells that are filled / empty in some arrangement; returns 0 when none fits.
 * fw, bw: k + 1 words; run: k words. fw[j] bit i: blocks 0..j-1 fit in [0, i) with every
 * other cell there empty; bw[j] bit i: blocks j..k-1 fit in [i, n) likewise. */
static int ng_solve_bits(const int *clue, int k, int n, uint64_t canF, uint64_t canE,
                         uint64_t *outF, uint64_t *outE, uint64_t *fw, uint64_t *bw,
                         uint64_t *run)
{
    const uint64_t cells = (1ULL << n) - 1;
    const uint64_t pos = n == 63 ? ~0ULL : (2ULL << n) - 1;
    const uint64_t forced = cells & ~canE;       /* cells that cannot be empty */
    int j;
    fw[0] = forced ? (2ULL << __builtin_ctzll(forced)) - 1 : pos;
    for (j = 1; j <= k; j++) {
        const int L = clue[j - 1];
        run[j - 1] = ng_runs(canF, L);
        const uint64_t start = j == 1 ? fw[0] : (fw[j - 1] & canE) << 1;
        fw[j] = ng_flood_up((start & run[j - 1]) << L, canE << 1) & pos;
    }
    if (!((fw[k] >> n) & 1)) return 0;
    bw[k] = forced ? pos & ~((2ULL << (63 - __builtin_clzll(forced))) - 1) : pos;
    for (j = k - 1; j >= 0; j--) {
        const int L = clue[j];
        const uint64_t end = j == k - 1 ? bw[k] : (bw[j + 1] >> 1) & canE;
        bw[j] = ng_flood_down(run[j] & (end >> L), canE) & pos;
    }
    uint64_t e = 0, f = 0;
    for (j = 0; j <= k; j++) e |= fw[j] & (bw[j] >> 1);
    e &= canE;
    for (j = 0; j < k; j++) {
        const int L = clue[j];
        const uint64_t start = j == 0 ? fw[0] : (fw[j] & canE) << 1;
        const uint64_t end = j == k - 1 ? bw[k] : (bw[j + 1] >> 1) & canE;
        f |= ng_smear(run[j] & start & (end >> L), L);
    }
    f &= cells;
    if ((e | f) != cells) return 0;
    *outF = f;
    *outE = e;
    return 1;
}

/* ---------------------------------------------------------------- setup */

void ng_free(ng_solver *s)
{
    if (!s) return;
    free(s->line_off); free(s->line_step); free(s->line_len);
    free(s->clue_off); free(s->clue_cnt); free(s->clues);
    free(s->cells); free(s->cell_row); free(s->cell_col); free(s->trail); free(s->queue); free(s->inq);
    free(s->lin); free(s->lout); free(s->fwd); free(s->bwd);
    free(s->pe); free(s->pf); free(s->diff);
    free(s->pval); free(s->pstamp); free(s->common);
    free(s->score_a); free(s->score_b); free(s->weight);
    free(s->stack); free(s->root);
    free(s->cache); free(s->small); free(s->fp_cur); free(s->fp); free(s->line_time); free(s->probe_time);
    free(s->recorded); free(s->guide);
    free(s->impl); free(s->impl_len); free(s->rev); free(s->rev_off); free(s->impl_kept);
    free(s->lf); free(s->le); free(s->bfw); free(s->bbw); free(s->brun);
    free(s->cnt_fw); free(s->cnt_bw); free(s->cnt_acc); free(s->cnt_line); free(s->likely); free(s->likely_key); free(s->count_memo);
    if (s->watch) for (int x = 0; x < 2 * s->ncells; x++) free(s->watch[x]);
    free(s->watch); free(s->wlen); free(s->wcap);
    free(s->ngd_lits); free(s->ngd_off); free(s->ngd_n);
    free(s);
}

/* clues: for each line (rows then columns) its count followed by its numbers. */
ng_solver *ng_new(int width, int height, const int *flat, int flat_len)
{
    ng_solver *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->width = width; s->height = height;
    s->nlines = width + height; s->ncells = width * height;
    const int L = s->nlines, C = s->ncells;
    s->line_off = malloc(sizeof(int) * L); s->line_step = malloc(sizeof(int) * L);
    s->line_len = malloc(sizeof(int) * L); s->clue_off = malloc(sizeof(int) * L);
    s->clue_cnt = malloc(sizeof(int) * L); s->clues = malloc(sizeof(int) * (flat_len + 1));
    if (!s->line_off || !s->line_step || !s->line_len || !s->clue_off || !s->clue_cnt || !s->clues)
        goto fail;
    int pos = 0, nclue = 0;
    for (int l = 0; l < L; l++) {
        if (pos >= flat_len) goto fail;
        int cnt = flat[pos++];
        if (cnt < 0 || pos + cnt > flat_len) goto fail;
        s->clue_off[l] = nclue; s->clue_cnt[l] = cnt;
        for (int t = 0; t < cnt; t++) s->clues[nclue++] = flat[pos++];
        if (cnt > s->max_k) s->max_k = cnt;
        if (l < height) { s->line_off[l] = l * width; s->line_step[l] = 1; s->line_len[l] = width; }
        else { s->line_off[l] = l - height; s->line_step[l] = width; s->line_len[l] = height; }
    }
    s->max_len = width > height ? width : height;
    const int N = s->max_len, K = s->max_k;
    s->cell_row = malloc(sizeof(int) * C); s->cell_col = malloc(sizeof(int) * C);
    if (!s->cell_row || !s->cell_col) goto fail;
    for (int c = 0; c < C; c++) { s->cell_row[c] = c / width; s->cell_col[c] = c % width; }
    s->cells = malloc(C); s->root = malloc(C); s->trail = malloc(sizeof(int) * C);
    s->queue = malloc(sizeof(int) * L); s->inq = calloc(L, 1);
    s->lin = malloc(N); s->lout = malloc(N);
    s->fwd = malloc((size_t)(K + 1) * (N + 1)); s->bwd = malloc((size_t)(K + 1) * (N + 1));
    s->pe = malloc(sizeof(int) * (N + 1)); s->pf = malloc(sizeof(int) * (N + 1));
    s->diff = malloc(sizeof(int) * (N + 1));
    s->pval = malloc(C); s->pstamp = calloc(C, sizeof(uint32_t)); s->common = malloc(sizeof(int) * C);
    s->score_a = calloc(C, sizeof(int)); s->score_b = calloc(C, sizeof(int));
    s->weight = calloc(L, sizeof(long long)); s->fail_line = s->fail_cell = -1; s->weighted = 1;
    s->stack_cap = 64; s->stack = malloc(sizeof(ng_frame) * s->stack_cap);
    if (!s->cells || !s->root || !s->trail || !s->queue || !s->inq || !s->lin || !s->lout
        || !s->fwd || !s->bwd || !s->pe || !s->pf || !s->diff || !s->pval || !s->pstamp
        || !s->common || !s->score_a || !s->score_b || !s->weight || !s->stack)
        goto fail;
    s->bits = N <= NG_BITS_MAX;
    if (s->bits) {
        s->lf = calloc(L, sizeof(uint64_t)); s->le = calloc(L, sizeof(uint64_t));
        s->bfw = malloc(sizeof(uint64_t) * (K + 1)); s->bbw = malloc(sizeof(uint64_t) * (K + 1));
        s->brun = malloc(sizeof(uint64_t) * (K + 1));
        if (!s->lf || !s->le || !s->bfw || !s->bbw || !s->brun) goto fail;
    }
    int line_bits = 0;
    while ((1LL << line_bits) <= L) line_bits++;
    if (s->bits && N <= 31 && 2 * N + line_bits <= 64) {
        s->small_shift = 2 * N;
        s->small = calloc((size_t)2 << NG_SMALL_BITS, sizeof(uint64_t));
        if (!s->small) goto fail;
    } else if (N <= 64) {
        s->cache = calloc((size_t)1 << NG_CACHE_BITS, sizeof(ng_cache_entry));
        if (!s->cache) goto fail;
    }
    s->fp_words = (L + 63) / 64;
    s->use_records = (long long)C * s->fp_words <= (1LL << 22);
    s->fp_cur = calloc(s->fp_words, sizeof(uint64_t));
    s->line_time = calloc(L, sizeof(uint64_t));
    if (!s->fp_cur || !s->line_time) goto fail;
    if (s->use_records) {
        s->fp = calloc((size_t)C * s->fp_words, sizeof(uint64_t));
        s->probe_time = calloc(C, sizeof(uint64_t));
        s->recorded = calloc(C, 1);
        if (!s->fp || !s->probe_time || !s->recorded) goto fail;
    }
    if (C <= NG_IMPL_MAX_CELLS) {
        s->impl = malloc(sizeof(int) * 2 * (size_t)C * C);
        s->rev = malloc(sizeof(int) * 2 * (size_t)C * C);
        s->impl_len = calloc(2 * (size_t)C, sizeof(int));
        s->rev_off = malloc(sizeof(int) * (2 * (size_t)C + 1));
        s->impl_kept = calloc(C, 1);
        if (!s->impl || !s->rev || !s->impl_len || !s->rev_off || !s->impl_kept) goto fail;
        s->use_impl = 1;
    }
    /* how often to read the clock: every 256 steps on short lines (a step is ~1 us), every
     * step on long ones (a step can take a millisecond) */
    s->check_mask = N <= 64 ? 255 : 0;
    memset(s->cells, CELL_UNKNOWN, C);
    s->unknown = C;
    s->probing = 1;
    s->max_nodes = -1;
    return s;
fail:
    ng_free(s);
    return NULL;
}

/* ---------------------------------------------------------------- propagation */

static inline void ng_enqueue(ng_solver *s, int l)
{
    if (s->inq[l]) return;
    s->inq[l] = 1;
    int at = s->qhead + s->qcount;
    if (at >= s->nlines) at -= s->nlines;
    s->queue[at] = l;
    s->qcount++;
}

static void ng_clear_queue(ng_solver *s)
{
    while (s->qcount) {
        s->inq[s->queue[s->qhead]] = 0;
        if (++s->qhead == s->nlines) s->qhead = 0;
        s->qcount--;
    }
}

static inline void ng_set(ng_solver *s, int cell, uint8_t v)
{
    const int row = s->cell_row[cell], col = s->height + s->cell_col[cell];
    s->cells[cell] = v;
    s->trail[s->trail_len++] = cell;
    if (s->bits) {
        uint64_t *m = v == CELL_FILLED ? s->lf : s->le;
        m[row] |= 1ULL << (col - s->height);
        m[col] |= 1ULL << row;
    }
    s->unknown--;
    ng_enqueue(s, row);
    ng_enqueue(s, col);
    if (!s->in_probe) {
        s->clock++;
        s->line_time[row] = s->line_time[col] = s->clock;
    }
}

/* Reset the cells set since mark. A probe's undo restores the state its probe started from;
 * any other undo (backtracking) is a change of the lines it touches, as a set is. */
static void ng_undo(ng_solver *s, int mark)
{
    const int stamp = !s->in_probe;
    if (stamp) s->clock++;
    while (s->trail_len > mark) {
        const int cell = s->trail[--s->trail_len];
        s->cells[cell] = CELL_UNKNOWN;
        s->unknown++;
        if (s->bits) {
            const int row = s->cell_row[cell], col = s->cell_col[cell], cl = s->height + col;
            s->lf[row] &= ~(1ULL << col); s->le[row] &= ~(1ULL << col);
            s->lf[cl] &= ~(1ULL << row); s->le[cl] &= ~(1ULL << row);
        }
        if (stamp) s->line_time[s->cell_row[cell]] = s->line_time[s->height + s->cell_col[cell]] = s->clock;
    }
    if (s->ngd_head > s->trail_len) s->ngd_head = s->trail_len;
}

/* A table index of `bits` bits from a multiplied key: fold, multiply, take the top bits. */
static inline uint64_t ng_slot_index(uint64_t h, int bits)
{
    h ^= h >> 29;
    return (h * 0xBF58476D1CE4E5B9ULL) >> (64 - bits);
}

/* The cache slot of line l with key (k0, k1). */
static inline ng_cache_entry *ng_cache_slot(ng_solver *s, int l, uint64_t k0, uint64_t k1)
{
    return &s->cache[ng_slot_index((k0 * 0x9E3779B97F4A7C15ULL) ^ (k1 * 0xC2B2AE3D27D4EB4FULL)
                                   ^ ((uint64_t)l * 0x165667B19E3779F9ULL), NG_CACHE_BITS)];
}

/* Solve line l from s->lin into s->lout, through the cache when the line is short. */
static int ng_solve_cached(ng_solver *s, int l, int n)
{
    const int *clue = s->clues + s->clue_off[l];
    const int k = s->clue_cnt[l];
    if (!s->cache)
        return ng_solve_line(clue, k, s->lin, s->lout, n, s->fwd, s->bwd, s->pe, s->pf, s->diff);
    uint64_t k0 = 0, k1 = 0;
    for (int i = 0; i < n && i < 32; i++) k0 |= (uint64_t)s->lin[i] << (2 * i);
    for (int i = 32; i < n; i++) k1 |= (uint64_t)s->lin[i] << (2 * (i - 32));
    ng_cache_entry *e = ng_cache_slot(s, l, k0, k1);
    if (e->line1 == l + 1 && e->k0 == k0 && e->k1 == k1) {
        s->cache_hits++;
        if (!e->ok) return 0;
        for (int i = 0; i < n && i < 32; i++) s->lout[i] = (uint8_t)((e->o0 >> (2 * i)) & 3);
        for (int i = 32; i < n; i++) s->lout[i] = (uint8_t)((e->o1 >> (2 * (i - 32))) & 3);
        return 1;
    }
    const int ok = ng_solve_line(clue, k, s->lin, s->lout, n, s->fwd, s->bwd, s->pe, s->pf, s->diff);
    uint64_t o0 = 0, o1 = 0;
    if (ok) {
        for (int i = 0; i < n && i < 32; i++) o0 |= (uint64_t)s->lout[i] << (2 * i);
        for (int i = 32; i < n; i++) o1 |= (uint64_t)s->lout[i] << (2 * (i - 32));
    }
    e->k0 = k0; e->k1 = k1; e->o0 = o0; e->o1 = o1; e->line1 = l + 1; e->ok = ok;
    return ok;
}

/* Bitboard mode: solve line l from its known masks (kf filled, ke empty) to the cells known
 * after it (*nf, *ne), through the cache (keys are the masks themselves). 0: contradiction. */
static int ng_solve_bits_cached(ng_solver *s, int l, int n, uint64_t kf, uint64_t ke,
                                uint64_t *nf, uint64_t *ne)
{
    uint64_t *small = NULL, key = 0;
    ng_cache_entry *e = NULL;
    if (s->small) {
        /* key: the masks and the line number; answer: the known masks and ok in bit 63 */
        key = kf | (ke << (s->small_shift >> 1)) | ((uint64_t)(l + 1) << s->small_shift);
        small = s->small + 2 * ng_slot_index(key * 0x9E3779B97F4A7C15ULL, NG_SMALL_BITS);
        if (small[0] == key) {
            s->cache_hits++;
            *nf = small[1] & 0x7FFFFFFFULL;
            *ne = (small[1] >> 32) & 0x7FFFFFFFULL;
            return (int)(small[1] >> 63);
        }
    } else if (s->cache) {
        e = ng_cache_slot(s, l, kf, ke);
        if (e->line1 == l + 1 && e->k0 == kf && e->k1 == ke) {
            s->cache_hits++;
            *nf = e->o0; *ne = e->o1;
            return e->ok;
        }
    }
    const uint64_t cells = (1ULL << n) - 1;
    uint64_t canF, canE;
    const int ok = ng_solve_bits(s->clues + s->clue_off[l], s->clue_cnt[l], n, cells & ~ke,
                                 cells & ~kf, &canF, &canE, s->bfw, s->bbw, s->brun);
    *nf = ok ? canF & ~canE : 0;
    *ne = ok ? canE & ~canF : 0;
    if (small) {
        small[0] = key;
        small[1] = *nf | (*ne << 32) | ((uint64_t)ok << 63);
    } else if (e) {
        e->k0 = kf; e->k1 = ke; e->o0 = *nf; e->o1 = *ne; e->line1 = l + 1; e->ok = ok;
    }
    return ok;
}

static int ng_out_of_time(ng_solver *s);

#define LIT_VAL(lit) ((lit) & 1 ? CELL_FILLED : CELL_EMPTY)

static int ng_watch(ng_solver *s, int lit, int g)
{
    if (s->wlen[lit] == s->wcap[lit]) {
        const int cap = s->wcap[lit] ? 2 * s->wcap[lit] : 4;
        int *w = realloc(s->watch[lit], sizeof(int) * cap);
        if (!w) return 0;
        s->watch[lit] = w; s->wcap[lit] = cap;
    }
    s->watch[lit][s->wlen[lit]++] = g;
    return 1;
}

/* Visit the nogoods watching the literals the trail made true since s->ngd_head: move each
 * watch to a literal not true, or set the last literal's opposite (unit), or fail. */
static int ng_nogood_prop(ng_solver *s)
{
    while (s->ngd_head < s->trail_len) {
        const int x = s->trail[s->ngd_head++];
        const int lit = 2 * x + (s->cells[x] == CELL_FILLED);
        int *wl = s->watch[lit];
        const int n = s->wlen[lit];
        int j = 0;
        for (int i = 0; i < n; i++) {
            const int g = wl[i];
            int *L = s->ngd_lits + s->ngd_off[g];
            const int m = s->ngd_n[g];
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
                        s->aborted = 1;
                        for (; i < n; i++) wl[j++] = wl[i];
                        s->wlen[lit] = j;
                        return 1;
                    }
                    L[1] = q; L[t] = lit;
                    wl = s->watch[lit];
                    moved = 1;
                    break;
                }
            }
            if (moved) continue;
            wl[j++] = g;
            if (oc == CELL_UNKNOWN) {
                s->ngd_units++;
                ng_set(s, o >> 1, (uint8_t)(CELL_UNKNOWN ^ ov));
            } else {  /* every literal holds */
                for (i++; i < n; i++) wl[j++] = wl[i];
                s->wlen[lit] = j;
                s->ngd_conflicts++;
                return 0;
            }
        }
        s->wlen[lit] = j;
    }
    return 1;
}

/* Solve line l and set the cells it fixes (bitboard mode); 0 on contradiction (nothing set). */
static inline int ng_line_bits(ng_solver *s, int l)
{
    const int off = s->line_off[l], step = s->line_step[l];
    const uint64_t kf = s->lf[l], ke = s->le[l];
    uint64_t nf, ne;
    if (!ng_solve_bits_cached(s, l, s->line_len[l], kf, ke, &nf, &ne)) return 0;
    uint64_t add = (nf & ~kf) | (ne & ~ke);
    while (add) {
        const int i = __builtin_ctzll(add);
        add &= add - 1;
        ng_set(s, off + i * step, (nf >> i) & 1 ? CELL_FILLED : CELL_EMPTY);
    }
    return 1;
}

/* The same for lines too long for bitboards: through s->lin and s->lout. */
static inline int ng_line_cells(ng_solver *s, int l)
{
    const int off = s->line_off[l], step = s->line_step[l], n = s->line_len[l];
    uint8_t *lin = s->lin, *lout = s->lout;
    for (int i = 0; i < n; i++) lin[i] = s->cells[off + i * step];
    if (!ng_solve_cached(s, l, n)) return 0;
    for (int i = 0; i < n; i++)
        if (lout[i] != lin[i]) ng_set(s, off + i * step, lout[i]);
    return 1;
}

/* Solve queued lines until nothing changes. Returns 0 on contradiction (queue cleared).
 * A time limit stops it early (queue cleared, s->aborted set): what it fixed is still sound. */
static int ng_propagate(ng_solver *s)
{
    for (;;) {
        if (s->n_ngd && s->ngd_head < s->trail_len && !ng_nogood_prop(s)) {
            s->fail_line = -1;
            ng_clear_queue(s);
            return 0;
        }
        if (!s->qcount) break;
        if ((s->line_solves & s->check_mask) == 0 && ng_out_of_time(s)) {
            ng_clear_queue(s);
            return 1;
        }
        const int l = s->queue[s->qhead];
        if (++s->qhead == s->nlines) s->qhead = 0;
        s->qcount--;
        s->line_solves++;
        if (s->in_probe) s->fp_cur[l >> 6] |= 1ULL << (l & 63);
        const int before = s->trail_len;
        /* l stays marked as queued while it is solved: the line solver is complete, so what it
         * gives l is a fixpoint of l, and its sets queue only the crossing lines */
        const int ok = s->bits ? ng_line_bits(s, l) : ng_line_cells(s, l);
        s->inq[l] = 0;
        if (!ok) {
            s->fail_line = l;
            ng_clear_queue(s);
            return 0;
        }
        if (s->on_event && s->trail_len > before)
            s->on_event(s->event_ctx, EV_LINE, l, s->trail_len - before, 0,
                        s->trail + before, s->trail_len - before);
    }
    return 1;
}

/* ---------------------------------------------------------------- probing */

static int ng_out_of_time(ng_solver *s)
{
    if (s->deadline > 0 && ng_now() > s->deadline) s->aborted = 1;
    return s->aborted;
}

/* Assume v at cell, propagate. Returns 1 if consistent; the trail holds its consequences. */
static int ng_try(ng_solver *s, int cell, uint8_t v)
{
    s->probes++;
    if (s->on_event) s->on_event(s->event_ctx, EV_TRY, cell, v, 0, NULL, 0);
    ng_set(s, cell, v);
    return ng_propagate(s);
}

/* Fix a cell learned by probing and propagate; 0 on contradiction. */
static int ng_learn(ng_solver *s, int cell, uint8_t v)
{
    if (s->cells[cell] == v) return 1;
    if (!(s->cells[cell] & v)) return 0;
    if (s->on_event) s->on_event(s->event_ctx, EV_PROBE_FIX, cell, v, 0, NULL, 0);
    ng_set(s, cell, v);
    return ng_propagate(s);
}

/* Would probing cell c again give what its last probe gave? True when no line that probe
 * solved has changed since (by a set or an undo): those lines then see the same cells, so
 * propagation repeats itself exactly, and the lines it never reached hold none of its
 * consequences. This holds across backtracking too, since an undo stamps its lines. */
static int ng_record_valid(const ng_solver *s, int c)
{
    if (!s->use_records || !s->recorded[c]) return 0;
    /* where implication probing runs, it needs the implications the record lacks */
    if (s->use_impl && s->depth <= NG_IMPL_MAX_DEPTH && !s->impl_kept[c]) return 0;
    const uint64_t t = s->probe_time[c];
    const uint64_t *fp = s->fp + (size_t)c * s->fp_words;
    for (int w = 0; w < s->fp_words; w++) {
        uint64_t bits = fp[w];
        while (bits) {
            const int l = w * 64 + __builtin_ctzll(bits);
            if (s->line_time[l] > t) return 0;
            bits &= bits - 1;
        }
    }
    return 1;
}

static void ng_record(ng_solver *s, int c)
{
    if (!s->use_records) return;
    memcpy(s->fp + (size_t)c * s->fp_words, s->fp_cur, sizeof(uint64_t) * s->fp_words);
    s->probe_time[c] = s->clock;
    s->recorded[c] = 1;
}

/* Remember what assuming literal lit (2 * cell + 1 for filled, 2 * cell for empty) fixed: the
 * trail after mark, minus the assumption itself. These implications stay true in every state
 * that knows more than this one (propagation is monotone), as long as the probe's record is
 * valid they are exactly what probing again would give. */
static void ng_keep_implied(ng_solver *s, int lit, int mark)
{
    int *dst = s->impl + (size_t)lit * s->ncells, n = 0;
    for (int t = mark + 1; t < s->trail_len; t++) {
        const int x = s->trail[t];
        dst[n++] = 2 * x + (s->cells[x] == CELL_FILLED);
    }
    s->impl_len[lit] = n;
}

/* Remember the values the trail holds after mark (a probe's consequences). */
static void ng_remember(ng_solver *s, int mark)
{
    if (++s->stamp == 0) { memset(s->pstamp, 0, sizeof(uint32_t) * s->ncells); s->stamp = 1; }
    for (int t = mark + 1; t < s->trail_len; t++) {
        const int x = s->trail[t];
        s->pstamp[x] = s->stamp;
        s->pval[x] = s->cells[x];
    }
}

/* Cells the trail after mark fixed as the remembered probe did: into s->common; their count. */
static int ng_agreed(ng_solver *s, int mark)
{
    int n = 0;
    for (int t = mark + 1; t < s->trail_len; t++) {
        const int x = s->trail[t];
        if (s->pstamp[x] == s->stamp && s->pval[x] == s->cells[x]) s->common[n++] = x;
    }
    return n;
}

/* Probe every unknown cell both ways until a whole pass learns nothing.
 * Returns 0 on contradiction, 1 otherwise (also when aborted by the time limit). */
static int ng_probe(ng_solver *s)
{
    const int C = s->ncells;
    int changed = 1;
    while (changed && s->unknown) {
        changed = 0;
        for (int c = 0; c < C && s->unknown; c++) {
            if (s->cells[c] != CELL_UNKNOWN) continue;
            if (ng_record_valid(s, c)) continue;
            if ((s->probes & s->check_mask) == 0 && ng_out_of_time(s)) return 1;
            const int mark = s->trail_len;
            memset(s->fp_cur, 0, sizeof(uint64_t) * s->fp_words);
            s->in_probe = 1;
            int ok = ng_try(s, c, CELL_FILLED);
            if (s->aborted) { ng_undo(s, mark); s->in_probe = 0; return 1; }
            if (s->on_event) s->on_event(s->event_ctx, EV_PROBE, c, CELL_FILLED, !ok, NULL, 0);
            if (!ok) {
                ng_undo(s, mark);
                s->in_probe = 0;
                if (!ng_learn(s, c, CELL_EMPTY)) { s->fail_cell = c; return 0; }
                changed = 1;
                continue;
            }
            s->score_a[c] = s->trail_len - mark;
            const int keep = s->use_impl && s->depth <= NG_IMPL_MAX_DEPTH;
            if (keep) ng_keep_implied(s, 2 * c + 1, mark);
            ng_remember(s, mark);
            ng_undo(s, mark);
            ok = ng_try(s, c, CELL_EMPTY);
            if (s->aborted) { ng_undo(s, mark); s->in_probe = 0; return 1; }
            if (s->on_event) s->on_event(s->event_ctx, EV_PROBE, c, CELL_EMPTY, !ok, NULL, 0);
            if (!ok) {
                ng_undo(s, mark);
                s->in_probe = 0;
                if (!ng_learn(s, c, CELL_FILLED)) { s->fail_cell = c; return 0; }
                changed = 1;
                continue;
            }
            s->score_b[c] = s->trail_len - mark;
            if (keep) ng_keep_implied(s, 2 * c, mark);
            if (s->use_impl) s->impl_kept[c] = (uint8_t)keep;
            const int ncommon = ng_agreed(s, mark);
            if (ncommon) {
                /* remember the values before undoing: pval holds them */
                ng_undo(s, mark);
                s->in_probe = 0;
                for (int t = 0; t < ncommon; t++)
                    if (!ng_learn(s, s->common[t], s->pval[s->common[t]])) {
                        s->fail_cell = c;
                        return 0;
                    }
                changed = 1;
            } else {
                ng_undo(s, mark);
                s->in_probe = 0;
            }
            /* what was learned here lies inside both probes' results: they stay as they were */
            ng_record(s, c);
        }
    }
    return 1;
}

/* Implication probing: probing, plus the contrapositives of what the last probes found.
 * If assuming a fixed b, then b's opposite forces a's opposite (a 2-SAT step that line
 * propagation cannot make). Each literal x is assumed again; whenever a literal y becomes
 * true, every a whose probe fixed the opposite of y is set to its own opposite, and lines
 * propagate. A contradiction fixes x's opposite; literals that both values of x force are
 * fixed too. This sees case splits that plain probing needs a search node for (after
 * Wu et al.'s remark that probing results form 2-SAT clauses).
 * Returns 0 on contradiction, 1 when nothing was learned, 2 when cells were fixed. */
static int ng_probe_implied(ng_solver *s)
{
    const int C = s->ncells, NL = 2 * C;
    int *off = s->rev_off;
    memset(off, 0, sizeof(int) * (NL + 1));
    for (int c = 0; c < C; c++) {
        if (s->cells[c] != CELL_UNKNOWN) continue;
        for (int v = 0; v < 2; v++) {
            const int lit = 2 * c + v, *src = s->impl + (size_t)lit * C;
            for (int t = 0; t < s->impl_len[lit]; t++)
                if (s->cells[src[t] >> 1] == CELL_UNKNOWN) off[src[t] + 1]++;
        }
    }
    for (int m = 0; m < NL; m++) off[m + 1] += off[m];
    for (int c = 0; c < C; c++) {
        if (s->cells[c] != CELL_UNKNOWN) continue;
        for (int v = 0; v < 2; v++) {
            const int lit = 2 * c + v, *src = s->impl + (size_t)lit * C;
            for (int t = 0; t < s->impl_len[lit]; t++)
                if (s->cells[src[t] >> 1] == CELL_UNKNOWN) s->rev[off[src[t]]++] = lit;
        }
    }
    for (int m = NL; m > 0; m--) off[m] = off[m - 1];  /* off[m] was moved to the end of m */
    off[0] = 0;
    int learned = 0;
    for (int x = 0; x < C && s->unknown; x++) {
        if (s->cells[x] != CELL_UNKNOWN) continue;
        if ((s->probes & s->check_mask) == 0 && ng_out_of_time(s)) return 1;
        int size[2], fixed = -1;
        for (int u = 1; u >= 0 && fixed < 0; u--) {
            const int mark = s->trail_len;
            s->in_probe = 1;
            s->probes++;
            ng_set(s, x, u ? CELL_FILLED : CELL_EMPTY);
            int ok = ng_propagate(s);
            for (int t = mark; ok && t < s->trail_len; t++) {
                const int y = s->trail[t];
                const int opp = 2 * y + (s->cells[y] != CELL_FILLED); /* y's other value */
                for (int r = off[opp]; r < off[opp + 1]; r++) {
                    const int a = s->rev[r] >> 1;
                    const uint8_t av = (s->rev[r] & 1) ? CELL_FILLED : CELL_EMPTY;
                    if (s->cells[a] == CELL_UNKNOWN) ng_set(s, a, (uint8_t)(CELL_UNKNOWN ^ av));
                    else if (s->cells[a] == av) { ok = 0; break; }
                }
                if (ok && s->qcount) ok = ng_propagate(s);
            }
            if (s->aborted) { ng_undo(s, mark); s->in_probe = 0; return 1; }
            if (!ok) {
                ng_clear_queue(s);
                ng_undo(s, mark);
                s->in_probe = 0;
                s->implied_fixes++;
                if (!ng_learn(s, x, u ? CELL_EMPTY : CELL_FILLED)) { s->fail_cell = x; return 0; }
                learned = 1;
                fixed = 1;
                break;
            }
            size[u] = s->trail_len - mark;
            if (u == 1) {
                ng_remember(s, mark);
                ng_undo(s, mark);
                s->in_probe = 0;
            } else {
                const int ncommon = ng_agreed(s, mark);
                ng_undo(s, mark);
                s->in_probe = 0;
                for (int t = 0; t < ncommon; t++) {
                    s->implied_fixes++;
                    if (!ng_learn(s, s->common[t], s->pval[s->common[t]])) {
                        s->fail_cell = x;
                        return 0;
                    }
                }
                if (ncommon) learned = 1;
            }
        }
        if (fixed < 0) { s->score_a[x] = size[1]; s->score_b[x] = size[0]; }
    }
    return learned ? 2 : 1;
}

/* Propagate the queue, then probe if enabled (to a fixpoint of both kinds). 0 on contradiction. */
static int ng_settle(ng_solver *s)
{
    s->fail_line = s->fail_cell = -1;
    if (!ng_propagate(s)) return 0;
    while (s->probing && s->unknown) {
        if (!ng_probe(s)) return 0;
        if (!s->use_impl || s->aborted || !s->unknown || s->depth > NG_IMPL_MAX_DEPTH) return 1;
        const int r = ng_probe_implied(s);
        if (r != 2) return r;
    }
    return 1;
}

/* ---------------------------------------------------------------- search */

/* Arrangement counts around a placement of block j at [st, e) of a line v of n cells with k
 * blocks (fw and bw as in ng_line_likely, rows of W = n + 1): the placements of blocks
 * 0..j-1 before it, with the cell before it empty ... */
static inline double ng_count_before(const double *fw, int W, const uint8_t *v, int j, int st)
{
    if (st == 0) return j == 0;
    return (v[st - 1] & CELL_EMPTY) ? fw[j * W + st - 1] : 0.0;
}

/* ... and the placements of blocks j+1..k-1 after it, with the cell after it empty. */
static inline double ng_count_after(const double *bw, int W, const uint8_t *v, int n, int k,
                                    int j, int e)
{
    if (e == n) return j == k - 1;
    return (v[e] & CELL_EMPTY) ? bw[(j + 1) * W + e + 1] : 0.0;
}

/* The counting scratch (cnt_*), allocated on first use; 0 when it cannot be. */
static int ng_count_scratch(ng_solver *s)
{
    if (s->cnt_fw) return 1;
    const size_t cells = (size_t)(s->max_k + 1) * (s->max_len + 1);
    s->cnt_fw = malloc(sizeof(double) * cells);
    s->cnt_bw = malloc(sizeof(double) * cells);
    s->cnt_acc = malloc(sizeof(double) * (s->max_len + 1));
    s->cnt_line = malloc(sizeof(double) * (s->max_len + 1));
    if (!s->cnt_fw || !s->cnt_bw || !s->cnt_acc || !s->cnt_line) {
        free(s->cnt_fw); free(s->cnt_bw); free(s->cnt_acc); free(s->cnt_line);
        s->cnt_fw = s->cnt_bw = s->cnt_acc = s->cnt_line = NULL;
        return 0;
    }
    return 1;
}

/* The forward counts of line l (scratch allocated): its cells into s->lin, nf[i] (cells
 * before i that cannot be filled) into s->pe, and fw[j * (n + 1) + i], the placements of
 * blocks 0..j-1 in cells [0, i) (the rest of them empty), into s->cnt_fw. Returns the
 * number of arrangements that fit the line's known cells. */
static double ng_count_forward(ng_solver *s, int l)
{
    const int n = s->line_len[l], k = s->clue_cnt[l], off = s->line_off[l], step = s->line_step[l];
    const int *c = s->clues + s->clue_off[l];
    uint8_t *v = s->lin;
    int *nf = s->pe;
    nf[0] = 0;
    for (int i = 0; i < n; i++) {
        v[i] = s->cells[off + i * step];
        nf[i + 1] = nf[i] + !(v[i] & CELL_FILLED);
    }
    const int W = n + 1;
    double *fw = s->cnt_fw;
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
 * placements, O(n * k). Returns s->cnt_line[0..n), valid until the next call, or NULL when
 * nothing fits, the count overflows or the scratch cannot be allocated. */
static const double *ng_line_likely(ng_solver *s, int l)
{
    const int n = s->line_len[l], k = s->clue_cnt[l];
    const int *c = s->clues + s->clue_off[l];
    if (!ng_count_scratch(s)) return NULL;
    const double total = ng_count_forward(s, l);
    if (!(total > 0.0) || total > 1e300) return NULL;
    const uint8_t *v = s->lin;
    const int *nf = s->pe;
    const int W = n + 1;
    const double *fw = s->cnt_fw;
    double *bw = s->cnt_bw, *acc = s->cnt_acc;
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
    double run = 0.0, *out = s->cnt_line;
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
        s->count_memo = malloc(sizeof(ng_count_memo) * (size_t)s->nlines);
        if (s->count_memo)
            for (int l = 0; l < s->nlines; l++) {
                ng_count_memo *m = &s->count_memo[l];
                for (int w = 0; w < NG_MEMO_WAYS; w++) m->kf[w] = m->ke[w] = ~0ULL;
                m->next = 0;
            }
    }
    double sum = 0.0;
    for (int l = 0; l < s->nlines; l++) {
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

/* NG_ORDER_PROMISE: the value whose probe keeps the larger estimate (0: equal). */
static uint8_t ng_promise_value(ng_solver *s, int c)
{
    double est[2];
    for (int u = 0; u < 2; u++) {
        const int mark = s->trail_len;
        s->in_probe = 1;
        const int ok = ng_try(s, c, u ? CELL_FILLED : CELL_EMPTY);
        est[u] = ok ? ng_log_estimate(s) : -1e300;
        ng_undo(s, mark);
        s->in_probe = 0;
    }
    if (est[0] == est[1]) return 0;
    return est[1] > est[0] ? CELL_FILLED : CELL_EMPTY;
}

/* The shares of the row and the column arrangements in which a cell is filled, combined as
 * independent evidence: P(filled) = pr pc / (pr pc + (1 - pr)(1 - pc)); -1 if unknown. */
static double ng_combine(double pr, double pc)
{
    const double f = pr * pc, e = (1.0 - pr) * (1.0 - pc);
    return f + e > 0.0 ? f / (f + e) : -1.0;
}

/* NG_ORDER_SURE: every line's shares into s->likely (rows, then columns). 0 if unavailable. */
static int ng_all_likely(ng_solver *s)
{
    const int W = s->width, H = s->height, C = s->ncells;
    if (C > NG_SURE_MAX_CELLS) return 0;
    if (!s->likely && !(s->likely = malloc(sizeof(float) * 2 * (size_t)C))) return 0;
    if (s->bits && !s->likely_key) {
        /* no line has both masks full: this key matches nothing until a line is counted */
        if (!(s->likely_key = malloc(sizeof(uint64_t) * 2 * (size_t)s->nlines))) return 0;
        for (int l = 0; l < 2 * s->nlines; l++) s->likely_key[l] = ~0ULL;
    }
    int ok = 1;
    for (int l = 0; l < s->nlines && ok; l++) {
        /* a line whose known cells are as when it was last counted keeps its shares */
        if (s->bits && s->likely_key[2 * l] == s->lf[l] && s->likely_key[2 * l + 1] == s->le[l])
            continue;
        const double *line = ng_line_likely(s, l);
        ok = line != NULL;
        if (!ok) break;
        if (l < H)
            for (int i = 0; i < W; i++) s->likely[l * W + i] = (float)line[i];
        else
            for (int i = 0; i < H; i++) s->likely[C + i * W + (l - H)] = (float)line[i];
        if (s->bits) { s->likely_key[2 * l] = s->lf[l]; s->likely_key[2 * l + 1] = s->le[l]; }
    }
    if (!ok && s->bits)  /* a line that could not be counted: count every line next time */
        for (int l = 0; l < 2 * s->nlines; l++) s->likely_key[l] = ~0ULL;
    return ok;
}

/* The value to try first at cell c by the line counts (LIKELY and SURE), or 0 when they
 * cannot tell (equal, or the counts are unavailable). */
static uint8_t ng_likely_value(ng_solver *s, int c, int have_all)
{
    double pr, pc;
    if (have_all) {
        pr = s->likely[c];
        pc = s->likely[s->ncells + c];
    } else {
        const int row = s->cell_row[c], col = s->cell_col[c];
        const double *line = ng_line_likely(s, row);
        if (!line) return 0;
        pr = line[col];
        if (!(line = ng_line_likely(s, s->height + col))) return 0;
        pc = line[row];
    }
    const double p = ng_combine(pr, pc);
    if (p < 0.0 || p == 0.5) return 0;
    return p > 0.5 ? CELL_FILLED : CELL_EMPTY;
}

/* Branch on the unknown cell whose weaker probe fixed the most cells, times its lines'
 * conflict weights (NG_WEIGHT_BASE); ties and the value tried first follow s->order (see
 * NG_ORDER_* in core.h). Measured with implication probing on 234 taai2011 puzzles (#301-#997,
 * every 3rd; count to 2, 20,000-node cap), nodes with each rule alone before the weights:
 * LOOSE 238,166 (5 capped), TIGHT 269,373 (8), LIKELY 182,094 (6), SURE 155,408 (3).
 * Picking the cell by the line counts instead (maxSD: the surest cell) took 268,082; the
 * product (a+1)(b+1) and the sum a+b of the probes did worse on the hardest. */
static int ng_choose(ng_solver *s, uint8_t *first)
{
    const int sure = s->order == NG_ORDER_SURE && !s->rng && !s->guide && ng_all_likely(s);
    int best = -1;
    double best_score = -1.0, best_tie = -1.0;
    long long best_sum = -1;
    for (int c = 0; c < s->ncells; c++) {
        if (s->cells[c] != CELL_UNKNOWN) continue;
        const long long a = s->score_a[c], b = s->score_b[c];
        const long long w = NG_WEIGHT_BASE + s->weight[s->cell_row[c]]
                            + s->weight[s->height + s->cell_col[c]];
        double sc = (double)((a < b ? a : b) + 1) * (double)w;
        if (s->rng) { /* a restart's randomised run: scores jitter by up to 20% */
            s->rng ^= s->rng << 13; s->rng ^= s->rng >> 7; s->rng ^= s->rng << 17;
            sc *= (1024 + (double)(s->rng % 205)) / 1024.0;
        }
        if (sc < best_score) continue;
        const long long sum = sure ? 0 : a + b;
        if (sc == best_score && sum < best_sum) continue;
        double tie = 0.0;
        if (sure) {
            const double p = ng_combine(s->likely[c], s->likely[s->ncells + c]);
            tie = p < 0.0 ? 0.0 : p > 0.5 ? p : 1.0 - p;
        }
        if (sc > best_score || sum > best_sum || tie > best_tie) {
            best_score = sc; best_sum = sum; best_tie = tie; best = c;
        }
    }
    if (best < 0) return best;
    if (s->guide) {
        *first = s->guide[best];
        return best;
    }
    uint8_t v = 0;
    if (s->order == NG_ORDER_LIKELY || s->order == NG_ORDER_SURE) v = ng_likely_value(s, best, sure);
    if (s->order == NG_ORDER_PROMISE) v = ng_promise_value(s, best);
    if (!v) {
        const int fewer_if_filled = s->score_a[best] < s->score_b[best];
        v = (fewer_if_filled ^ (s->order == NG_ORDER_TIGHT)) ? CELL_FILLED : CELL_EMPTY;
    }
    *first = v;
    return best;
}

/* A search node failed: weigh the lines its contradiction blames (see NG_WEIGHT_BASE). */
static void ng_blame(ng_solver *s)
{
    if (s->aborted || !s->weighted) return;
    if (s->fail_line >= 0) s->weight[s->fail_line]++;
    if (s->fail_cell >= 0) {
        s->weight[s->cell_row[s->fail_cell]]++;
        s->weight[s->height + s->cell_col[s->fail_cell]]++;
    }
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
    if (!s->watch) {
        s->watch = calloc(2 * (size_t)s->ncells, sizeof(int *));
        s->wlen = calloc(2 * (size_t)s->ncells, sizeof(int));
        s->wcap = calloc(2 * (size_t)s->ncells, sizeof(int));
        if (!s->watch || !s->wlen || !s->wcap) return -1;
    }
    if (s->ngd_used + n > s->ngd_cap) {
        int cap = s->ngd_cap ? 2 * s->ngd_cap : 1024;
        while (cap < s->ngd_used + n) cap *= 2;
        int *p = realloc(s->ngd_lits, sizeof(int) * cap);
        if (!p) return -1;
        s->ngd_lits = p; s->ngd_cap = cap;
    }
    if (s->n_ngd == s->ngd_max) {
        const int cap = s->ngd_max ? 2 * s->ngd_max : 256;
        int *o = realloc(s->ngd_off, sizeof(int) * cap);
        if (!o) return -1;
        s->ngd_off = o;
        int *m = realloc(s->ngd_n, sizeof(int) * cap);
        if (!m) return -1;
        s->ngd_n = m; s->ngd_max = cap;
    }
    const int g = s->n_ngd;
    int *L = s->ngd_lits + s->ngd_used;
    L[0] = lits[nt[0]]; L[1] = lits[nt[1]];
    for (int i = 0, t = 2; i < n; i++)
        if (i != nt[0] && i != nt[1]) L[t++] = lits[i];
    if (!ng_watch(s, L[0], g) || !ng_watch(s, L[1], g)) return -1;
    s->ngd_off[g] = s->ngd_used; s->ngd_n[g] = n;
    s->ngd_used += n; s->n_ngd++;
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
    int *buf = malloc(sizeof(int) * size), *pos = malloc(sizeof(int) * (D + 1));
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

/* Go back to the settled root and search again: randomised when seed != 0 (restarts,
 * Gomes, Selman & Kautz, "Boosting combinatorial search through randomization", AAAI 1998),
 * trying the guide's values first when guide != NULL (ncells of CELL_FILLED / CELL_EMPTY).
 * With s->learn, the path's nogoods (ng_path_nogoods) are kept first, so that the new run
 * does not search again what the old ones did: the runs together stay one complete search.
 * Returns 0 when there is nothing to restart (no root yet, or a time limit stopped it). */
int ng_restart(ng_solver *s, uint64_t seed, const uint8_t *guide)
{
    if (s->state == ST_START || !s->root_done || s->aborted) return 0;
    if (s->root_none) { s->state = ST_DONE; return 1; }
    if (s->learn && s->state == ST_DONE) return 1;
    int *goods = NULL, glen = 0;
    if (s->learn && !(goods = ng_path_nogoods(s, &glen))) return -1;
    ng_clear_queue(s);
    s->in_probe = 0;
    ng_undo(s, s->root_trail);
    s->depth = 0;
    s->rng = seed ? (seed * 0x9E3779B97F4A7C15ULL) | 1 : 0;
    if (guide) {
        if (!s->guide && !(s->guide = malloc(s->ncells))) { free(goods); return -1; }
        memcpy(s->guide, guide, s->ncells);
    } else {
        free(s->guide);
        s->guide = NULL;
    }
    if (glen) {
        s->ngd_head = s->trail_len;
        for (int at = 0; at < glen; at += goods[at] + 1) {
            const int r = ng_add_nogood(s, goods + at + 1, goods[at]);
            if (r < 0) { free(goods); return -1; }
            if (r == 0) { free(goods); s->root_none = 1; s->state = ST_DONE; return 1; }
        }
        free(goods);
        /* the root now knows more: probe everything again */
        if (s->recorded) memset(s->recorded, 0, s->ncells);
        if (!ng_settle(s)) { s->root_none = 1; s->state = ST_DONE; return 1; }
        if (s->aborted) { s->state = ST_LIMIT; return 1; }
        s->root_trail = s->trail_len;
        memcpy(s->root, s->cells, s->ncells);
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
        ng_frame *bigger = realloc(s->stack, sizeof(ng_frame) * s->stack_cap * 2);
        if (!bigger) return 0;
        s->stack = bigger;
        s->stack_cap *= 2;
    }
    ng_frame *f = &s->stack[s->depth++];
    f->mark = mark; f->cell = cell; f->other = other; f->stage = 0;
    if (s->depth > s->max_depth) s->max_depth = s->depth;
    return 1;
}

/* Undo to the next untried branch and settle it; 1 if a consistent node was reached,
 * 0 if the tree is exhausted. */
static int ng_backtrack(ng_solver *s)
{
    while (s->depth > 0) {
        ng_frame *f = &s->stack[s->depth - 1];
        ng_undo(s, f->mark);
        if (s->on_event) s->on_event(s->event_ctx, EV_BACKTRACK, s->depth, 0, 0, NULL, 0);
        if (f->stage == 0) {
            f->stage = 1;
            s->nodes++;
            if (s->on_event) s->on_event(s->event_ctx, EV_GUESS, f->cell, f->other, s->depth, NULL, 0);
            ng_set(s, f->cell, f->other);
            if (ng_settle(s)) return 1;
            if (s->aborted) return 1;
            ng_blame(s);
        } else {
            s->depth--;
        }
    }
    return 0;
}

/* Run until the next solution (NG_SOLUTION, grid in s->cells), the end of the tree
 * (NG_EXHAUSTED) or a limit (NG_LIMIT). A node limit pauses at a settled node, and the next
 * call (with a higher limit) goes on from there; after a time limit (s->aborted) the search
 * cannot be resumed. */
int ng_next(ng_solver *s)
{
    switch (s->state) {
    case ST_DONE: return NG_EXHAUSTED;
    case ST_LIMIT: return NG_LIMIT;
    case ST_START:
        for (int l = 0; l < s->nlines; l++) ng_enqueue(s, l);
        s->nodes = 1;
        if (!ng_settle(s)) {
            memset(s->root, CELL_UNKNOWN, s->ncells); /* no solution: nothing to report */
            s->root_done = 1;
            s->root_none = 1;
            s->state = ST_DONE;
            return NG_EXHAUSTED;
        }
        s->root_trail = s->trail_len;
        memcpy(s->root, s->cells, s->ncells);
        s->root_done = !s->aborted;
        if (s->aborted) { s->state = ST_LIMIT; return NG_LIMIT; }
        s->state = ST_EXPAND;
        break;
    case ST_BACKTRACK:
        if (!ng_backtrack(s)) { s->state = ST_DONE; return NG_EXHAUSTED; }
        if (s->aborted) { s->state = ST_LIMIT; return NG_LIMIT; }
        s->state = ST_EXPAND;
        break;
    default:
        break;
    }
    for (;;) {
        /* at a consistent node, settled */
        if (s->unknown == 0) {
            s->state = ST_BACKTRACK;
            if (s->on_event) s->on_event(s->event_ctx, EV_SOLUTION, 0, 0, 0, NULL, 0);
            return NG_SOLUTION;
        }
        if (s->max_nodes >= 0 && s->nodes >= s->max_nodes) {
            s->state = ST_EXPAND;  /* a settled node: the next call goes on from here */
            return NG_LIMIT;
        }
        if (ng_out_of_time(s)) {
            s->state = ST_LIMIT;
            return NG_LIMIT;
        }
        uint8_t first = CELL_FILLED;  /* ng_choose sets it: an unknown cell is left */
        const int c = ng_choose(s, &first);
        if (!ng_push(s, s->trail_len, c, (uint8_t)(CELL_UNKNOWN ^ first))) return NG_NOMEM;
        s->nodes++;
        if (s->on_event) s->on_event(s->event_ctx, EV_GUESS, c, first, s->depth, NULL, 0);
        ng_set(s, c, first);
        if (ng_settle(s)) {
            if (s->aborted) { s->state = ST_LIMIT; return NG_LIMIT; }
            continue;
        }
        ng_blame(s);
        if (!ng_backtrack(s)) { s->state = ST_DONE; return NG_EXHAUSTED; }
        if (s->aborted) { s->state = ST_LIMIT; return NG_LIMIT; }
    }
}
