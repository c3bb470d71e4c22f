/* The colour nonogram engine: see colour.h for the vocabulary and the algorithms' sources.
 * Pure C, no Python: _colour.c wraps it. Included by _colour.c as one compilation unit. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "colour.h"

enum { CS_START = 0, CS_EXPAND = 1, CS_BACKTRACK = 2, CS_DONE = 3, CS_LIMIT = 4 };

static double cg_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int cg_single(cg_mask m) { return (m & (m - 1)) == 0; }

/* ---------------------------------------------------------------- line solver */

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
    const int W = n + 1;
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

/* ---------------------------------------------------------------- setup */

void cg_work_free(cg_work *w)
{
    free(w->fwd); free(w->bwd); free(w->bad); free(w->nbg); free(w->diff);
    free(w->es); free(w->ls); free(w->slot);
}

/* Scratch for lines of up to n cells and clues of up to k blocks; 0 if out of memory. */
int cg_work_init(cg_work *w, int n, int k)
{
    const size_t W = (size_t)n + 1;
    w->fwd = malloc((size_t)(k + 1) * W);
    w->bwd = malloc((size_t)(k + 1) * W);
    const size_t colours = (size_t)(k < CG_MAX_COLOURS ? (k > 0 ? k : 1) : CG_MAX_COLOURS);
    w->bad = malloc(sizeof(int) * colours * W);
    w->diff = malloc(sizeof(int) * colours * W);
    w->nbg = malloc(sizeof(int) * W);
    w->es = malloc(sizeof(int) * (k + 1));
    w->ls = malloc(sizeof(int) * (k + 1));
    w->slot = malloc(sizeof(int) * (k + 1));
    return w->fwd && w->bwd && w->bad && w->nbg && w->diff && w->es && w->ls && w->slot;
}

void cg_free(cg_solver *s)
{
    if (!s) return;
    free(s->line_off); free(s->line_step); free(s->line_len);
    free(s->clue_off); free(s->clue_cnt); free(s->clue_len); free(s->clue_col);
    free(s->cells); free(s->trail); free(s->queue); free(s->inq);
    cg_work_free(&s->work);
    free(s->lin); free(s->lout);
    free(s->seen); free(s->cseen); free(s->acc); free(s->hits); free(s->touched);
    free(s->score); free(s->first);
    free(s->cache); free(s->cache_in); free(s->cache_out);
    free(s->fp_cur); free(s->fp); free(s->line_time); free(s->probe_time); free(s->recorded);
    free(s->stack); free(s->root);
    free(s);
}

/* clues: for each line (rows then columns) its block count, then (length, colour) pairs. */
cg_solver *cg_new(int width, int height, int ncolours, const int *flat, int flat_len)
{
    cg_solver *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->width = width; s->height = height; s->ncolours = ncolours;
    s->nlines = width + height; s->ncells = width * height;
    const int L = s->nlines, C = s->ncells;
    s->line_off = malloc(sizeof(int) * L); s->line_step = malloc(sizeof(int) * L);
    s->line_len = malloc(sizeof(int) * L); s->clue_off = malloc(sizeof(int) * L);
    s->clue_cnt = malloc(sizeof(int) * L);
    s->clue_len = malloc(sizeof(int) * (flat_len / 2 + 1));
    s->clue_col = malloc(sizeof(int) * (flat_len / 2 + 1));
    if (!s->line_off || !s->line_step || !s->line_len || !s->clue_off || !s->clue_cnt
        || !s->clue_len || !s->clue_col)
        goto fail;
    int pos = 0, nclue = 0;
    for (int l = 0; l < L; l++) {
        if (pos >= flat_len) goto fail;
        const int cnt = flat[pos++];
        if (cnt < 0 || pos + 2 * cnt > flat_len) goto fail;
        s->clue_off[l] = nclue; s->clue_cnt[l] = cnt;
        for (int t = 0; t < cnt; t++) {
            s->clue_len[nclue] = flat[pos++];
            s->clue_col[nclue++] = flat[pos++];
        }
        if (cnt > s->max_k) s->max_k = cnt;
        if (l < height) { s->line_off[l] = l * width; s->line_step[l] = 1; s->line_len[l] = width; }
        else { s->line_off[l] = l - height; s->line_step[l] = width; s->line_len[l] = height; }
    }
    s->max_len = width > height ? width : height;
    const int N = s->max_len;
    s->cells = malloc(sizeof(cg_mask) * C); s->root = malloc(sizeof(cg_mask) * C);
    s->trail_cap = 4 * C + 64; s->trail = malloc(sizeof(cg_change) * s->trail_cap);
    s->queue = malloc(sizeof(int) * L); s->inq = calloc(L, 1);
    s->lin = malloc(sizeof(cg_mask) * N); s->lout = malloc(sizeof(cg_mask) * N);
    s->seen = calloc(C, sizeof(uint32_t)); s->cseen = calloc(C, sizeof(uint32_t));
    s->acc = malloc(sizeof(cg_mask) * C); s->hits = malloc(sizeof(int) * C);
    s->touched = malloc(sizeof(int) * C);
    s->score = calloc(C, sizeof(long long)); s->first = calloc(C, sizeof(cg_mask));
    s->stack_cap = 64; s->stack = malloc(sizeof(cg_frame) * s->stack_cap);
    if (!cg_work_init(&s->work, N, s->max_k) || !s->cells || !s->root || !s->trail || !s->queue
        || !s->inq || !s->lin || !s->lout || !s->seen || !s->cseen || !s->acc || !s->hits
        || !s->touched || !s->score || !s->first || !s->stack)
        goto fail;
    if (N <= 64) {
        const size_t slots = (size_t)1 << CG_CACHE_BITS;
        s->cache = calloc(slots, sizeof(cg_cache_entry));
        s->cache_in = malloc(slots * N * sizeof(cg_mask));
        s->cache_out = malloc(slots * N * sizeof(cg_mask));
        if (!s->cache || !s->cache_in || !s->cache_out) goto fail;
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
    /* a colour line solve costs about k times a black-and-white one: read the clock every 64
     * steps on short lines, every step on long ones */
    s->check_mask = N <= 64 ? 63 : 0;
    const cg_mask all = ncolours >= 32 ? 0xFFFFFFFFu : (1u << ncolours) - 1;
    for (int c = 0; c < C; c++) s->cells[c] = all;
    s->unknown = C;
    s->probing = 1;
    s->max_nodes = -1;
    return s;
fail:
    cg_free(s);
    return NULL;
}

/* ---------------------------------------------------------------- propagation */

static inline void cg_enqueue(cg_solver *s, int l)
{
    if (s->inq[l]) return;
    s->inq[l] = 1;
    s->queue[(s->qhead + s->qcount) % s->nlines] = l;
    s->qcount++;
}

static void cg_clear_queue(cg_solver *s)
{
    while (s->qcount) {
        s->inq[s->queue[s->qhead]] = 0;
        s->qhead = (s->qhead + 1) % s->nlines;
        s->qcount--;
    }
}

/* Narrow a cell to m (a non-empty subset of its mask), on the trail. 0 if out of memory. */
static int cg_set(cg_solver *s, int cell, cg_mask m)
{
    if (s->trail_len == s->trail_cap) {
        cg_change *bigger = realloc(s->trail, sizeof(cg_change) * (size_t)s->trail_cap * 2);
        if (!bigger) { s->nomem = s->aborted = 1; return 0; }
        s->trail = bigger;
        s->trail_cap *= 2;
    }
    const cg_mask old = s->cells[cell];
    s->trail[s->trail_len].cell = cell;
    s->trail[s->trail_len++].old = old;
    s->cells[cell] = m;
    if (!cg_single(old) && cg_single(m)) s->unknown--;
    const int row = cell / s->width, col = s->height + cell % s->width;
    cg_enqueue(s, row);
    cg_enqueue(s, col);
    if (!s->in_probe) {
        s->clock++;
        s->line_time[row] = s->line_time[col] = s->clock;
    }
    return 1;
}

/* Restore the masks changed since mark. A probe's undo returns to the state the probe started
 * from; any other undo (backtracking) changes the lines it touches, as a set does. */
static void cg_undo(cg_solver *s, int mark)
{
    const int stamp = !s->in_probe;
    if (stamp) s->clock++;
    while (s->trail_len > mark) {
        const cg_change *ch = &s->trail[--s->trail_len];
        if (cg_single(s->cells[ch->cell]) && !cg_single(ch->old)) s->unknown++;
        s->cells[ch->cell] = ch->old;
        if (stamp)
            s->line_time[ch->cell / s->width] = s->line_time[s->height + ch->cell % s->width]
                = s->clock;
    }
}

static int cg_out_of_time(cg_solver *s)
{
    if (s->deadline > 0 && cg_now() > s->deadline) s->aborted = 1;
    return s->aborted;
}

/* Solve line l from s->lin into s->lout, through the cache when the line is short. */
static int cg_solve_cached(cg_solver *s, int l, int n)
{
    const int co = s->clue_off[l], k = s->clue_cnt[l];
    if (!s->cache)
        return cg_solve_line(s->clue_len + co, s->clue_col + co, k, s->lin, s->lout, n, &s->work);
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ ((uint64_t)l * 0x165667B19E3779F9ULL);
    for (int i = 0; i < n; i++) h = (h ^ s->lin[i]) * 0x100000001B3ULL;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    const size_t slot = (size_t)(h >> (64 - CG_CACHE_BITS));
    cg_cache_entry *e = &s->cache[slot];
    cg_mask *in = s->cache_in + slot * s->max_len, *out = s->cache_out + slot * s->max_len;
    if (e->line1 == l + 1 && e->hash == h && memcmp(in, s->lin, sizeof(cg_mask) * n) == 0) {
        s->cache_hits++;
        if (e->ok) memcpy(s->lout, out, sizeof(cg_mask) * n);
        return e->ok;
    }
    const int ok = cg_solve_line(s->clue_len + co, s->clue_col + co, k, s->lin, s->lout, n,
                                 &s->work);
    e->hash = h; e->line1 = l + 1; e->ok = ok;
    memcpy(in, s->lin, sizeof(cg_mask) * n);
    if (ok) memcpy(out, s->lout, sizeof(cg_mask) * n);
    return ok;
}

/* Solve queued lines until nothing changes. Returns 0 on contradiction (queue cleared).
 * A limit stops it early (queue cleared, s->aborted set): what it narrowed is still sound. */
static int cg_propagate(cg_solver *s)
{
    while (s->qcount) {
        if ((s->line_solves & s->check_mask) == 0 && cg_out_of_time(s)) {
            cg_clear_queue(s);
            return 1;
        }
        const int l = s->queue[s->qhead];
        s->qhead = (s->qhead + 1) % s->nlines;
        s->qcount--;
        const int off = s->line_off[l], step = s->line_step[l], n = s->line_len[l];
        cg_mask *lin = s->lin, *lout = s->lout;
        for (int i = 0; i < n; i++) lin[i] = s->cells[off + i * step];
        s->line_solves++;
        if (s->in_probe) s->fp_cur[l >> 6] |= 1ULL << (l & 63);
        /* l stays marked as queued while it is solved: the line solver is exact, so l's
         * result is a fixpoint of l, and its sets queue only the crossing lines (as in
         * ng_propagate) */
        const int ok = cg_solve_cached(s, l, n);
        int stopped = 0;  /* a set ran out of memory (s->aborted): stop as at a limit */
        for (int i = 0; ok && !stopped && i < n; i++)
            if (lout[i] != lin[i] && !cg_set(s, off + i * step, lout[i])) stopped = 1;
        s->inq[l] = 0;
        if (!ok || stopped) {
            cg_clear_queue(s);
            return ok;
        }
    }
    return 1;
}

/* ---------------------------------------------------------------- probing */

/* Would probing cell c again give what its last probe gave? True when no line that probe
 * solved has changed since: those lines see the same cells, so each assumption propagates
 * exactly as before (see ng_record_valid in solver.c for the argument). */
static int cg_record_valid(const cg_solver *s, int c)
{
    if (!s->use_records || !s->recorded[c]) return 0;
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

static void cg_record(cg_solver *s, int c)
{
    if (!s->use_records) return;
    memcpy(s->fp + (size_t)c * s->fp_words, s->fp_cur, sizeof(uint64_t) * s->fp_words);
    s->probe_time[c] = s->clock;
    s->recorded[c] = 1;
}

/* Count, for each cell the probe under way changed, its mask after the probe into acc/hits:
 * acc is the union over the surviving probes of one cell, hits how many of them touched it. */
static int cg_gather(cg_solver *s, int mark, int ntouched)
{
    if (++s->probe_stamp == 0) {
        memset(s->seen, 0, sizeof(uint32_t) * s->ncells);
        s->probe_stamp = 1;
    }
    for (int t = mark; t < s->trail_len; t++) {
        const int x = s->trail[t].cell;
        if (s->seen[x] == s->probe_stamp) continue;
        s->seen[x] = s->probe_stamp;
        if (s->cseen[x] != s->cell_stamp) {
            s->cseen[x] = s->cell_stamp;
            s->acc[x] = s->cells[x];
            s->hits[x] = 1;
            s->touched[ntouched++] = x;
        } else {
            s->acc[x] |= s->cells[x];
            s->hits[x]++;
        }
    }
    return ntouched;
}

/* Probe cell c: assume each colour it may take, propagate, undo. Narrow every cell that all
 * surviving assumptions narrowed to the union of what they left it (c itself to the colours
 * that survived). Returns 0 on contradiction, 1 if nothing was learned, 2 if something was
 * (and propagated). On a limit returns 1 with s->aborted set. */
static int cg_probe_cell(cg_solver *s, int c)
{
    const cg_mask m = s->cells[c];
    const int mark = s->trail_len;
    if (++s->cell_stamp == 0) {
        memset(s->cseen, 0, sizeof(uint32_t) * s->ncells);
        s->cell_stamp = 1;
    }
    int ntouched = 0, alive = 0;
    long long least = -1, total = 0;
    memset(s->fp_cur, 0, sizeof(uint64_t) * s->fp_words);
    s->in_probe = 1;
    for (cg_mask rest = m; rest; rest &= rest - 1) {
        const cg_mask bit = rest & (~rest + 1);
        s->probes++;
        int ok = cg_set(s, c, bit) && cg_propagate(s);
        if (s->aborted) { cg_undo(s, mark); s->in_probe = 0; return 1; }
        if (ok) {
            const long long size = s->trail_len - mark;
            alive++;
            total += size;
            if (least < 0 || size < least) { least = size; s->first[c] = bit; }
            ntouched = cg_gather(s, mark, ntouched);
        }
        cg_undo(s, mark);
    }
    s->in_probe = 0;
    if (!alive) return 0;
    s->score[c] = (long long)(CG_MAX_COLOURS - alive) * 1000000000000LL + least * 1000000 + total;
    int learned = 0;
    for (int t = 0; t < ntouched; t++) {
        const int x = s->touched[t];
        if (s->hits[x] != alive) continue;
        const cg_mask nm = s->cells[x] & s->acc[x];
        if (nm == s->cells[x]) continue;
        if (!nm) return 0;
        if (!cg_set(s, x, nm)) return 1;
        learned = 1;
    }
    if (learned && !cg_propagate(s)) return 0;
    if (s->aborted) return 1;
    /* what was learned lies inside every surviving assumption's result: they stay as they were */
    cg_record(s, c);
    return learned ? 2 : 1;
}

/* Probe every unknown cell until a whole pass learns nothing.
 * Returns 0 on contradiction, 1 otherwise (also when stopped by a limit). */
static int cg_probe(cg_solver *s)
{
    int changed = 1;
    while (changed && s->unknown) {
        changed = 0;
        for (int c = 0; c < s->ncells && s->unknown; c++) {
            if (cg_single(s->cells[c]) || cg_record_valid(s, c)) continue;
            if ((s->probes & s->check_mask) == 0 && cg_out_of_time(s)) return 1;
            const int r = cg_probe_cell(s, c);
            if (r == 0) return 0;
            if (s->aborted) return 1;
            if (r == 2) changed = 1;
        }
    }
    return 1;
}

/* Propagate the queue, then probe if enabled. 0 on contradiction. */
static int cg_settle(cg_solver *s)
{
    if (!cg_propagate(s)) return 0;
    if (s->aborted) return 1;
    if (s->probing && s->unknown) return cg_probe(s);
    return 1;
}

/* ---------------------------------------------------------------- search */

/* Branch on an unknown cell with fewest colours left, among those the one whose least fruitful
 * probe fixed the most (ties: all its probes together), on the colour that fixed fewest: the
 * less constrained branch first, as in the black-and-white core. (On 28 random 30x30 puzzles
 * of 2-3 colours, preferring fewest colours solved 6 within 3 s against 4 without; the value
 * whose probe fixed most first, or the mean probe as the score, did no better.)
 * Without probing scores: the first cell with fewest colours. */
static int cg_choose(cg_solver *s, cg_mask *value)
{
    int best = -1;
    long long best_score = -1;
    int best_count = 33;
    for (int c = 0; c < s->ncells; c++) {
        const cg_mask m = s->cells[c];
        if (cg_single(m)) continue;
        if (s->probing) {
            if (s->score[c] > best_score) { best_score = s->score[c]; best = c; }
        } else {
            const int cnt = __builtin_popcount(m);
            if (cnt < best_count) { best_count = cnt; best = c; }
        }
    }
    if (best < 0) return -1;
    const cg_mask m = s->cells[best];
    *value = (s->probing && (s->first[best] & m)) ? s->first[best] : (m & (~m + 1));
    return best;
}

static int cg_push(cg_solver *s, int mark, int cell, cg_mask value)
{
    if (s->depth == s->stack_cap) {
        cg_frame *bigger = realloc(s->stack, sizeof(cg_frame) * (size_t)s->stack_cap * 2);
        if (!bigger) return 0;
        s->stack = bigger;
        s->stack_cap *= 2;
    }
    cg_frame *f = &s->stack[s->depth++];
    f->mark = mark; f->cell = cell; f->value = value; f->stage = 0;
    if (s->depth > s->max_depth) s->max_depth = s->depth;
    return 1;
}

/* Undo to the next untried branch and settle it; 1 if a consistent node was reached (or a
 * limit stopped it), 0 if the tree is exhausted. */
static int cg_backtrack(cg_solver *s)
{
    while (s->depth > 0) {
        cg_frame *f = &s->stack[s->depth - 1];
        cg_undo(s, f->mark);
        if (f->stage == 0) {
            f->stage = 1;
            s->nodes++;
            const cg_mask rest = s->cells[f->cell] & ~f->value;
            if (cg_set(s, f->cell, rest) && cg_settle(s)) return 1;
            if (s->aborted) return 1;
        } else {
            s->depth--;
        }
    }
    return 0;
}

/* Run until the next solution (CG_SOLUTION, grid in s->cells), the end of the tree
 * (CG_EXHAUSTED) or a limit (CG_LIMIT: the search cannot be resumed). */
int cg_next(cg_solver *s)
{
    switch (s->state) {
    case CS_DONE: return CG_EXHAUSTED;
    case CS_LIMIT: return s->nomem ? CG_NOMEM : CG_LIMIT;
    case CS_START:
        for (int l = 0; l < s->nlines; l++) cg_enqueue(s, l);
        s->nodes = 1;
        if (!cg_settle(s)) {
            memset(s->root, 0, sizeof(cg_mask) * s->ncells); /* no solution: nothing to report */
            s->root_done = 1;
            s->state = CS_DONE;
            return CG_EXHAUSTED;
        }
        memcpy(s->root, s->cells, sizeof(cg_mask) * s->ncells);
        s->root_done = !s->aborted;
        if (s->aborted) { s->state = CS_LIMIT; return s->nomem ? CG_NOMEM : CG_LIMIT; }
        s->state = CS_EXPAND;
        break;
    case CS_BACKTRACK:
        if (!cg_backtrack(s)) { s->state = CS_DONE; return CG_EXHAUSTED; }
        if (s->aborted) { s->state = CS_LIMIT; return s->nomem ? CG_NOMEM : CG_LIMIT; }
        s->state = CS_EXPAND;
        break;
    default:
        break;
    }
    for (;;) {
        /* at a consistent node, settled */
        if (s->unknown == 0) {
            s->state = CS_BACKTRACK;
            return CG_SOLUTION;
        }
        if ((s->max_nodes >= 0 && s->nodes >= s->max_nodes) || cg_out_of_time(s)) {
            s->state = CS_LIMIT;
            return s->nomem ? CG_NOMEM : CG_LIMIT;
        }
        cg_mask value = 0;
        const int c = cg_choose(s, &value);
        if (!cg_push(s, s->trail_len, c, value)) return CG_NOMEM;
        s->nodes++;
        if (cg_set(s, c, value) && cg_settle(s)) {
            if (s->aborted) { s->state = CS_LIMIT; return s->nomem ? CG_NOMEM : CG_LIMIT; }
            continue;
        }
        if (!s->aborted && !cg_backtrack(s)) { s->state = CS_DONE; return CG_EXHAUSTED; }
        if (s->aborted) { s->state = CS_LIMIT; return s->nomem ? CG_NOMEM : CG_LIMIT; }
    }
}
