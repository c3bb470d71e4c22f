/* Making and freeing a solver for one puzzle: the fixed puzzle (ng_puzzle), its scratch
 * (ng_scratch) and the search state, every allocation checked (ng_new returns NULL).
 * Part of the engine's one compilation unit (_core.c includes the parts in core.h's order). */
#include <stdlib.h>
#include <string.h>

#include "core.h"

void ng_free(ng_solver *s)
{
    if (!s) return;
    free(s->pz.line_off); free(s->pz.line_step); free(s->pz.line_len);
    free(s->pz.clue_off); free(s->pz.clue_cnt); free(s->pz.clues);
    free(s->cells); free(s->pz.cell_row); free(s->pz.cell_col); free(s->trail);
    eng_queue_free(&s->q);
    eng_records_free(&s->rec);
    free(s->tmp.lin); free(s->tmp.lout); free(s->tmp.fwd); free(s->tmp.bwd);
    free(s->tmp.pe); free(s->tmp.pf); free(s->tmp.diff);
    free(s->tmp.pval); free(s->tmp.pstamp); free(s->tmp.common);
    free(s->score_a); free(s->score_b); free(s->wt.line);
    free(s->stack); free(s->root);
    free(s->guide);
    eng_pool_give(s->lc.cache, (size_t)1 << NG_CACHE_BITS, sizeof(ng_cache_entry));
    eng_pool_give(s->lc.small, (size_t)2 << NG_SMALL_BITS, sizeof(uint64_t));
#if NG_BITS2_MAX
    eng_pool_give(s->lc.cache2, (size_t)1 << NG_CACHE2_BITS, sizeof(ng_cache2_entry));
    free(s->lf2); free(s->le2);
#endif
    eng_pool_give(s->im.lits, 2 * (size_t)s->pz.ncells * s->pz.ncells, sizeof(int));
    eng_pool_give(s->im.rev, 2 * (size_t)s->pz.ncells * s->pz.ncells, sizeof(int));
    free(s->im.len); free(s->im.rev_off); free(s->im.kept);
    free(s->lf); free(s->le); free(s->tmp.bfw); free(s->tmp.bbw); free(s->tmp.brun); free(s->tmp.b2);
    free(s->tmp.cnt_fw); free(s->tmp.cnt_bw); free(s->tmp.cnt_acc); free(s->tmp.cnt_line); free(s->likely); free(s->likely_key); free(s->count_memo);
    if (s->ngd.watch) for (int x = 0; x < 2 * s->pz.ncells; x++) free(s->ngd.watch[x]);
    free(s->ngd.watch); free(s->ngd.wlen); free(s->ngd.wcap);
    free(s->ngd.lits); free(s->ngd.off); free(s->ngd.n);
    free(s->im.root);
    free(s->bp.msg); free(s->bp.fw); free(s->bp.line); free(s->bp.band);
    free(s);
}

/* clues: for each line (rows then columns) its count followed by its numbers. */
ng_solver *ng_new(int width, int height, const int *flat, int flat_len)
{
    if (width < 1 || height < 1 || width > NG_MAX_SIDE || height > NG_MAX_SIDE
        || (long long)width * height > NG_MAX_CELLS)
        return NULL;
    ng_solver *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->pz.width = width; s->pz.height = height;
    s->pz.nlines = width + height; s->pz.ncells = width * height;
    const int L = s->pz.nlines, C = s->pz.ncells;
    s->pz.line_off = eng_malloc(L, sizeof(int)); s->pz.line_step = eng_malloc(L, sizeof(int));
    s->pz.line_len = eng_malloc(L, sizeof(int)); s->pz.clue_off = eng_malloc(L, sizeof(int));
    s->pz.clue_cnt = eng_malloc(L, sizeof(int)); s->pz.clues = eng_malloc((flat_len + 1), sizeof(int));
    if (!s->pz.line_off || !s->pz.line_step || !s->pz.line_len || !s->pz.clue_off || !s->pz.clue_cnt || !s->pz.clues)
        goto fail;
    int pos = 0, nclue = 0;
    for (int l = 0; l < L; l++) {
        if (pos >= flat_len) goto fail;
        int cnt = flat[pos++];
        if (cnt < 0 || pos + cnt > flat_len) goto fail;
        s->pz.clue_off[l] = nclue; s->pz.clue_cnt[l] = cnt;
        for (int t = 0; t < cnt; t++) s->pz.clues[nclue++] = flat[pos++];
        if (cnt > s->pz.max_k) s->pz.max_k = cnt;
        if (l < height) { s->pz.line_off[l] = l * width; s->pz.line_step[l] = 1; s->pz.line_len[l] = width; }
        else { s->pz.line_off[l] = l - height; s->pz.line_step[l] = width; s->pz.line_len[l] = height; }
    }
    s->pz.max_len = width > height ? width : height;
    const int N = s->pz.max_len, K = s->pz.max_k;
    /* line.c's tables: for the largest line under NG_DENSE_MAX_CELLS (line_long.c does the rest) */
    size_t dense = 1;
    for (int l = 0; l < L; l++) {
        const size_t cells = ((size_t)s->pz.clue_cnt[l] + 1) * ((size_t)s->pz.line_len[l] + 1);
        if (cells <= NG_DENSE_MAX_CELLS && cells > dense) dense = cells;
    }
    s->pz.cell_row = eng_malloc(C, sizeof(int)); s->pz.cell_col = eng_malloc(C, sizeof(int));
    if (!s->pz.cell_row || !s->pz.cell_col) goto fail;
    for (int c = 0; c < C; c++) { s->pz.cell_row[c] = c / width; s->pz.cell_col[c] = c % width; }
    s->cells = malloc(C); s->root = malloc(C); s->trail = eng_malloc(C, sizeof(int));
    s->tmp.lin = malloc(N); s->tmp.lout = malloc(N);
    s->tmp.fwd = malloc(dense); s->tmp.bwd = malloc(dense);
    s->tmp.pe = eng_malloc((N + 1), sizeof(int)); s->tmp.pf = eng_malloc((N + 1), sizeof(int));
    s->tmp.diff = eng_malloc((N + 1), sizeof(int));
    s->tmp.pval = malloc(C); s->tmp.pstamp = calloc(C, sizeof(uint32_t)); s->tmp.common = eng_malloc(C, sizeof(int));
    s->score_a = calloc(C, sizeof(int)); s->score_b = calloc(C, sizeof(int));
    s->wt.line = calloc(L, sizeof(long long)); s->wt.fail_line = s->wt.fail_cell = -1; s->wt.on = 1;
    s->stack_cap = 64; s->stack = eng_malloc(s->stack_cap, sizeof(ng_frame));
    if (!eng_queue_init(&s->q, L) || !s->cells || !s->root || !s->trail || !s->tmp.lin || !s->tmp.lout
        || !s->tmp.fwd || !s->tmp.bwd || !s->tmp.pe || !s->tmp.pf || !s->tmp.diff || !s->tmp.pval || !s->tmp.pstamp
        || !s->tmp.common || !s->score_a || !s->score_b || !s->wt.line || !s->stack)
        goto fail;
    s->bits = N <= NG_BITS_MAX;
    if (s->bits) {
        s->lf = calloc(L, sizeof(uint64_t)); s->le = calloc(L, sizeof(uint64_t));
        s->tmp.bfw = eng_malloc((K + 1), sizeof(uint64_t)); s->tmp.bbw = eng_malloc((K + 1), sizeof(uint64_t));
        s->tmp.brun = eng_malloc((K + 1), sizeof(uint64_t));
        if (!s->lf || !s->le || !s->tmp.bfw || !s->tmp.bbw || !s->tmp.brun) goto fail;
    }
#if NG_BITS2_MAX
    if (!s->bits) {  /* lines of up to NG_BITS2_MAX cells go through the two-word bit solver */
        s->tmp.b2 = eng_malloc(3 * ((size_t)K + 1), sizeof(ng_u128));
        if (!s->tmp.b2) goto fail;
        if (N <= NG_BITS2_MAX) {
            s->lc.cache2 = eng_pool_take((size_t)1 << NG_CACHE2_BITS, sizeof(ng_cache2_entry), 1);
            s->lf2 = calloc(L, sizeof(ng_u128)); s->le2 = calloc(L, sizeof(ng_u128));
            if (!s->lc.cache2 || !s->lf2 || !s->le2) goto fail;
        }
    }
#endif
    int line_bits = 0;
    while ((1LL << line_bits) <= L) line_bits++;
    if (s->bits && N <= 31 && 2 * N + line_bits <= 64) {
        s->lc.small_shift = 2 * N;
        s->lc.small = eng_pool_take((size_t)2 << NG_SMALL_BITS, sizeof(uint64_t), 1);
        if (!s->lc.small) goto fail;
    } else if (N <= 64) {
        s->lc.cache = eng_pool_take((size_t)1 << NG_CACHE_BITS, sizeof(ng_cache_entry), 1);
        if (!s->lc.cache) goto fail;
    }
    if (!eng_records_init(&s->rec, L, C)) goto fail;
    if (C <= NG_IMPL_MAX_CELLS) {
        s->im.lits = eng_pool_take(2 * (size_t)C * C, sizeof(int), 0);
        s->im.rev = eng_pool_take(2 * (size_t)C * C, sizeof(int), 0);
        s->im.len = calloc(2 * (size_t)C, sizeof(int));
        s->im.rev_off = eng_malloc((2 * (size_t)C + 1), sizeof(int));
        s->im.kept = calloc(C, 1);
        if (!s->im.lits || !s->im.rev || !s->im.len || !s->im.rev_off || !s->im.kept) goto fail;
        s->im.on = 1;
    }
    /* how often to read the clock: every 256 steps on short lines (a step is ~1 us), every
     * step on long ones (a step can take a millisecond) */
    s->lim.check_mask = N <= 64 ? 255 : 0;
    memset(s->cells, CELL_UNKNOWN, C);
    s->unknown = C;
    s->probing = 1;
    s->lim.max_nodes = -1;
    s->lim.max_work = -1;
    return s;
fail:
    ng_free(s);
    return NULL;
}
