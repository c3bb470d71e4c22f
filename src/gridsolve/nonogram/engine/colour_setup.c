/* Making and freeing a colour solver for one puzzle: the fixed puzzle (cg_puzzle), its
 * scratch (cg_scratch) and the search state, every allocation checked (cg_new returns NULL).
 * Part of the colour engine's one compilation unit (_colour.c includes the parts in order). */
#include <stdlib.h>
#include <string.h>

#include "colour.h"

void cg_free(cg_solver *s)
{
    if (!s) return;
    free(s->pz.line_off); free(s->pz.line_step); free(s->pz.line_len);
    free(s->pz.clue_off); free(s->pz.clue_cnt); free(s->pz.clue_len); free(s->pz.clue_col);
    free(s->cells); free(s->trail);
    eng_queue_free(&s->q);
    eng_records_free(&s->rec);
    cg_work_free(&s->tmp.work);
    free(s->tmp.lin); free(s->tmp.lout);
    free(s->tmp.seen); free(s->tmp.cseen); free(s->tmp.acc); free(s->tmp.hits); free(s->tmp.touched);
    free(s->score); free(s->first); free(s->least); free(s->wt_line);
    if (s->ngd.watch) for (int x = 0; x < s->pz.ncells; x++) free(s->ngd.watch[x]);
    free(s->ngd.watch); free(s->ngd.wlen); free(s->ngd.wcap);
    free(s->ngd.lits); free(s->ngd.off); free(s->ngd.n);
    free(s->im.rec); free(s->im.off); free(s->im.rev); free(s->im.seen);
    const size_t slots = (size_t)1 << CG_CACHE_BITS;
    eng_pool_give(s->cache, slots, sizeof(cg_cache_entry));
    eng_pool_give(s->cache_in, slots * s->pz.max_len, sizeof(cg_mask));
    eng_pool_give(s->cache_out, slots * s->pz.max_len, sizeof(cg_mask));
    free(s->stack); free(s->root); free(s->root_impl);
    free(s->bp.msg); free(s->bp.fw); free(s->bp.line); free(s->bp.pattern);
    free(s);
}

/* clues: for each line (rows then columns) its block count, then (length, colour) pairs. */
cg_solver *cg_new(int width, int height, int ncolours, const int *flat, int flat_len)
{
    cg_solver *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->pz.width = width; s->pz.height = height; s->pz.ncolours = ncolours;
    s->pz.nlines = width + height; s->pz.ncells = width * height;
    const int L = s->pz.nlines, C = s->pz.ncells;
    s->pz.line_off = eng_malloc(L, sizeof(int)); s->pz.line_step = eng_malloc(L, sizeof(int));
    s->pz.line_len = eng_malloc(L, sizeof(int)); s->pz.clue_off = eng_malloc(L, sizeof(int));
    s->pz.clue_cnt = eng_malloc(L, sizeof(int));
    s->pz.clue_len = eng_malloc((flat_len / 2 + 1), sizeof(int));
    s->pz.clue_col = eng_malloc((flat_len / 2 + 1), sizeof(int));
    if (!s->pz.line_off || !s->pz.line_step || !s->pz.line_len || !s->pz.clue_off || !s->pz.clue_cnt
        || !s->pz.clue_len || !s->pz.clue_col)
        goto fail;
    int pos = 0, nclue = 0;
    for (int l = 0; l < L; l++) {
        if (pos >= flat_len) goto fail;
        const int cnt = flat[pos++];
        if (cnt < 0 || pos + 2 * cnt > flat_len) goto fail;
        s->pz.clue_off[l] = nclue; s->pz.clue_cnt[l] = cnt;
        for (int t = 0; t < cnt; t++) {
            s->pz.clue_len[nclue] = flat[pos++];
            s->pz.clue_col[nclue++] = flat[pos++];
        }
        if (cnt > s->pz.max_k) s->pz.max_k = cnt;
        if (l < height) { s->pz.line_off[l] = l * width; s->pz.line_step[l] = 1; s->pz.line_len[l] = width; }
        else { s->pz.line_off[l] = l - height; s->pz.line_step[l] = width; s->pz.line_len[l] = height; }
    }
    s->pz.max_len = width > height ? width : height;
    const int N = s->pz.max_len;
    s->cells = eng_malloc(C, sizeof(cg_mask)); s->root = eng_malloc(C, sizeof(cg_mask));
    s->trail_cap = 4 * C + 64; s->trail = eng_malloc(s->trail_cap, sizeof(cg_change));
    s->tmp.lin = eng_malloc(N, sizeof(cg_mask)); s->tmp.lout = eng_malloc(N, sizeof(cg_mask));
    s->tmp.seen = calloc(C, sizeof(uint32_t)); s->tmp.cseen = calloc(C, sizeof(uint32_t));
    s->tmp.acc = eng_malloc(C, sizeof(cg_mask)); s->tmp.hits = eng_malloc(C, sizeof(int));
    s->tmp.touched = eng_malloc(C, sizeof(int));
    s->score = calloc(C, sizeof(long long)); s->first = calloc(C, sizeof(cg_mask));
    s->least = calloc(C, sizeof(int)); s->wt_line = calloc(L, sizeof(long long));
    s->fail_line = s->fail_cell = -1;
    s->stack_cap = 64; s->stack = eng_malloc(s->stack_cap, sizeof(cg_frame));
    if (!cg_work_init(&s->tmp.work, N, s->pz.max_k) || !s->cells || !s->root || !s->trail || !eng_queue_init(&s->q, L)
        || !s->tmp.lin || !s->tmp.lout || !s->tmp.seen || !s->tmp.cseen || !s->tmp.acc || !s->tmp.hits
        || !s->tmp.touched || !s->score || !s->first || !s->least || !s->wt_line || !s->stack)
        goto fail;
    if (N <= 64) {
        const size_t slots = (size_t)1 << CG_CACHE_BITS;
        s->cache = eng_pool_take(slots, sizeof(cg_cache_entry), 1);
        s->cache_in = eng_pool_take(slots * N, sizeof(cg_mask), 0);
        s->cache_out = eng_pool_take(slots * N, sizeof(cg_mask), 0);
        if (!s->cache || !s->cache_in || !s->cache_out) goto fail;
    }
    if (!eng_records_init(&s->rec, L, C)) goto fail;
    /* a colour line solve costs about k times a black-and-white one: read the clock every 64
     * steps on short lines, every step on long ones */
    s->lim.check_mask = N <= 64 ? 63 : 0;
    const cg_mask all = ncolours >= 32 ? 0xFFFFFFFFu : (1u << ncolours) - 1;
    for (int c = 0; c < C; c++) s->cells[c] = all;
    s->unknown = C;
    s->probing = 1;
    s->bp.depth = -1;
    s->lim.max_nodes = -1;
    s->lim.max_work = -1;
    return s;
fail:
    cg_free(s);
    return NULL;
}
