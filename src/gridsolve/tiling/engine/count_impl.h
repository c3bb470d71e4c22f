/* Memoised counting for keys of NW words (part of exact_impl.h): the completions of a state,
 * split by where the remaining holes go, stored under the exact state (Knuth's Algorithm X
 * with cell-ordered branching, arXiv cs/0011047, plus memoisation on the search state). */

/* Add to out[0..len) the completions of a state already in the memo, whose stored value is
 * v; returns whether it added anything, span widened as in count_rec. */
static inline int FN(add_known)(tl_counter *c, uint64_t v, size_t L, uint64_t *out, size_t *span)
{
    if (L == 1) {
        add_one(c, out, v);
        if (v) widen(span, 0, 1);
        return v != 0;
    }
    if (v == TL_ZERO) return 0;
    add_stored(c, out, c->blocks[v / TL_BLOCK] + v % TL_BLOCK, L, span);
    return 1;
}

/* Add to out[0..len[R]) the completions of the state key, split by the remaining holes;
 * returns whether it added anything (most states are dead ends: their zeros are not scanned).
 * span[0..1] is widened to cover every index it added to. With lookup 0 the caller has
 * already found the state absent from the memo. */
static int FN(count_rec)(tl_counter *c, const word *key, int R, int depth, uint64_t *out,
                         size_t *span, int lookup)
{
    const tl_problem *p = c->p;
    int e = FN(first_empty)(p, key);
    if (e < 0) {
        add_one(c, out, 1);
        widen(span, 0, 1);
        return 1;
    }
    size_t L = p->len[R];
    size_t slot;
    if (lookup && FN(find)(&c->memo, key, &slot))
        return FN(add_known)(c, c->memo.slots[slot * (NW + 1) + NW], L, out, span);
    if ((++c->nodes & 0xFFFF) == 0 && tl_stop(c->sigints, c->deadline)) {
        c->status = TL_LIMIT;
        return 0;
    }
    /* tmp is all zeros between uses (most states add nothing); ts: where it is not. */
    uint64_t *tmp = c->scratch[depth];
    size_t ts[2] = {L, 0};
    int any = 0;
    /* First every child that fits, its memo slot prefetched; then the pocket tests, while
     * those slots arrive; then the recursion, by which time they are in cache (a memo
     * lookup is a cache miss: issued together, the misses overlap each other and the tests). */
    word *kids = c->kid_keys + (size_t)depth * c->max_fan * NW;
    size_t *kid = c->kid_pl + (size_t)depth * c->max_fan, nk = 0;
    for (size_t k = p->cell_start[e]; k < p->cell_start[e + 1]; k++) {
        int t = p->pl_type[k];
        if (c->used[t] == p->copies[t]) continue;
        if (FN(overlaps)(key, p->pl_mask + (size_t)k * NW)) continue;
        word *ch = kids + (size_t)nk * NW;
        FN(child)(p, key, k, p->offset[t] + c->used[t], ch);
        const word *at = c->memo.slots + FN(home)(&c->memo, ch) * (NW + 1);
        __builtin_prefetch(at);
        __builtin_prefetch(at + 8);
        kid[nk++] = k;
    }
    /* Then each child's memo entry: one found needs no pocket test (its count is known, and
     * a dead end stays out of the list); a new one is tested. A child's subtree never holds
     * a sibling (every state below it has more pieces placed), so a child absent now is still
     * absent when it is counted. A cell's placements come grouped by type: the sizes the
     * pieces left can fill are worked out once per type, not once per placement. */
    uint64_t *kval = c->kid_val + (size_t)depth * c->max_fan;
    int last_t = -1, R2 = R, cap = 0;
    uint64_t reach = 0;
    size_t live = 0;
    for (size_t i = 0; i < nk; i++) {
        size_t k = kid[i];
        int t = p->pl_type[k], h = p->hole[t];
        const word *ch = kids + (size_t)i * NW;
        uint64_t v = TL_EMPTY;
        if (FN(find)(&c->memo, ch, &slot)) {
            v = c->memo.slots[slot * (NW + 1) + NW];
            if ((h < 0 ? L : p->len[R & ~(1 << h)]) == 1) {  /* v is the count */
                if (!v) continue;
            } else {                                          /* v is where the vector is */
                if (v == TL_ZERO) continue;
                __builtin_prefetch(c->blocks[v / TL_BLOCK] + v % TL_BLOCK);
            }
        } else {
            c->used[t]++;
            if (t != last_t) {
                R2 = h < 0 ? R : R & ~(1 << h);
                cap = FN(reach_left)(p, c->used, tl_popcount((word)R2), &reach);
                last_t = t;
            }
            int dead = FN(dead_pocket)(p, ch, k, R2, cap, reach, c->used);
            c->used[t]--;
            if (dead) continue;
        }
        if (live != i) memcpy(kids + live * NW, ch, NW * sizeof(word));
        kval[live] = v;
        kid[live++] = k;
    }
    nk = live;
    for (size_t i = 0; i < nk; i++) {
        size_t k = kid[i];
        int t = p->pl_type[k], h = p->hole[t];
        const word *ch = kids + (size_t)i * NW;
        uint64_t kv = kval[i];
        c->used[t]++;
        if (h < 0) {
            any |= kv != TL_EMPTY ? FN(add_known)(c, kv, L, tmp, ts)
                                  : FN(count_rec)(c, ch, R, depth + 1, tmp, ts, 0);
        } else {
            int R2 = R & ~(1 << h);
            size_t low = p->stride[R * TL_MAX_HOLES + h];
            size_t size = p->hole_size[h], j = (size_t)p->pl_hpos[k];
            uint64_t *sc = c->scatter[depth];  /* all zeros between uses, like tmp */
            size_t ss[2] = {p->len[R2], 0};
            if (kv != TL_EMPTY ? FN(add_known)(c, kv, p->len[R2], sc, ss)
                               : FN(count_rec)(c, ch, R2, depth + 1, sc, ss, 0)) {
                any = 1;
                size_t first = ss[0] / low, last = (ss[1] - 1) / low;
                for (size_t hi = first; hi <= last; hi++)
                    move_into(c, tmp + (hi * size + j) * low, sc + hi * low, low);
                widen(ts, (first * size + j) * low, (last * size + j) * low + low);
            }
        }
        c->used[t]--;
        if (c->status) return 0;
    }
    uint64_t v;
    if (L == 1) {
        v = tmp[0];
        tmp[0] = 0;
        if (v >= TL_EMPTY) { c->status = TL_OVERFLOW; return 0; }
    } else if (!any) {
        v = TL_ZERO;
    } else {
        size_t nz = 0;
        int big = 0;
        for (size_t i = ts[0]; i < ts[1]; i++) {
            nz += tmp[i] != 0;
            big |= tmp[i] > UINT32_MAX;
        }
        if (!nz) {
            v = TL_ZERO;
        } else {
            size_t need = 1 + (big ? L : nz);
            if (!c->nblocks || c->fill + need > TL_BLOCK) {
                uint64_t **b = realloc(c->blocks, (c->nblocks + 1) * sizeof(uint64_t *));  /* small */
                if (!b) { c->status = TL_NOMEM; return 0; }
                c->blocks = b;
                if (!(b[c->nblocks] = tl_array(TL_BLOCK, sizeof(uint64_t)))) { c->status = TL_NOMEM; return 0; }
                c->nblocks++;
                c->fill = 0;
            }
            store_vector(c->blocks[c->nblocks - 1] + c->fill, tmp, L, ts, nz, (int)big);
            v = (c->nblocks - 1) * TL_BLOCK + c->fill;
            c->fill += need;
        }
    }
    size_t bytes = c->memo.cap * (NW + 1) * sizeof(word) + c->nblocks * TL_BLOCK * sizeof(uint64_t);
    if ((c->max_states >= 0 && (long long)c->memo.count >= c->max_states)
        || bytes + ((c->memo.count + 2) * 4 > c->memo.cap * 3 ? c->memo.cap * 2 * (NW + 1) * sizeof(word) : 0)
               > c->mem_limit) {
        c->status = TL_BUDGET;
        return 0;
    }
    if (FN(put)(&c->memo, key, v) < 0) { c->status = TL_NOMEM; return 0; }
    if (!any) return 0;
    if (L == 1) {
        add_into(c, out, &v, 1);
        widen(span, 0, 1);
    } else {
        move_into(c, out + ts[0], tmp + ts[0], ts[1] - ts[0]);
        widen(span, ts[0], ts[1]);
    }
    return 1;
}

static int FN(count_run)(tl_counter *c, const word *root, uint64_t *out)
{
    int R = (1 << c->p->nholes) - 1;
    size_t span[2] = {c->p->len[R], 0};
    FN(count_rec)(c, root, R, 0, out, span, 1);
    return c->status;
}
