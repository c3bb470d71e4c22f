/* The tiling search for keys of exactly NW words; included once per width by exact.c
 * (a C stand-in for a template, so the inner loops have constant trip counts). */

#define FN2(name, n) name##_##n
#define FN1(name, n) FN2(name, n)
#define FN(name) FN1(name, NW)

static inline uint64_t FN(hash)(const word *k)
{
    uint64_t h = 0x243F6A8885A308D3ULL;
    for (int i = 0; i < NW; i++) {
        h = (h ^ k[i]) * 0x9E3779B97F4A7C15ULL;
        h ^= h >> 31;
    }
    return h;
}

static inline int FN(same)(const word *a, const word *b)
{
    for (int i = 0; i < NW; i++)
        if (a[i] != b[i]) return 0;
    return 1;
}

/* Slot of key in t: found (1) or the empty slot where it would go (0). */
static inline int FN(find)(const tl_table *t, const word *key, size_t *slot)
{
    size_t m = t->cap - 1, i = FN(hash)(key) & m;
    for (;;) {
        const word *e = t->slots + i * (NW + 1);
        if (e[NW] == TL_EMPTY) { *slot = i; return 0; }
        if (FN(same)(e, key)) { *slot = i; return 1; }
        i = (i + 1) & m;
    }
}

static int FN(grow)(tl_table *t)
{
    size_t ncap = t->cap * 2;
    word *slots = tl_alloc_big(ncap * (NW + 1) * sizeof(word));
    if (!slots) return -1;
    for (size_t i = 0; i < ncap; i++) slots[i * (NW + 1) + NW] = TL_EMPTY;
    tl_table n = {NW, ncap, t->count, slots};
    for (size_t i = 0; i < t->cap; i++) {
        const word *e = t->slots + i * (NW + 1);
        if (e[NW] == TL_EMPTY) continue;
        size_t s;
        FN(find)(&n, e, &s);
        memcpy(n.slots + s * (NW + 1), e, (NW + 1) * sizeof(word));
    }
    free(t->slots);
    *t = n;
    return 0;
}

/* Insert (or overwrite) key -> val (val below TL_EMPTY); 0 ok, -1 out of memory. */
static int FN(put)(tl_table *t, const word *key, uint64_t val)
{
    if ((t->count + 1) * 4 > t->cap * 3 && FN(grow)(t) < 0) return -1;
    size_t s;
    word *e;
    if (!FN(find)(t, key, &s)) {
        e = t->slots + s * (NW + 1);
        memcpy(e, key, NW * sizeof(word));
        t->count++;
    }
    t->slots[s * (NW + 1) + NW] = val;
    return 0;
}

/* The first open cell not yet covered, or -1 when every cell is covered. */
static inline int FN(first_empty)(const tl_problem *p, const word *key)
{
    for (int i = 0; i < NW; i++) {
        word w = ~key[i] & p->cellbits[i];
        if (w) return i * 64 + __builtin_ctzll(w);
    }
    return -1;
}

static inline int FN(first_set)(const word *m)
{
    for (int i = 0; i < NW; i++)
        if (m[i]) return i * 64 + __builtin_ctzll(m[i]);
    return -1;
}

static inline int FN(overlaps)(const word *a, const word *b)
{
    word o = 0;
    for (int i = 0; i < NW; i++) o |= a[i] & b[i];
    return o != 0;
}

static inline int FN(covered)(const word *key, int x)
{
    return (int)(key[x >> 6] >> (x & 63) & 1);
}

/* The pocket sizes the pieces left can fill exactly (bit s: some subset covers s cells,
 * s < 64), and the largest pocket worth examining: the largest size up to TL_POCKET that
 * those pieces plus up to J holes cannot fill (0 if none). */
#ifndef TL_POCKET
#define TL_POCKET 20
#endif
static inline int FN(reach_left)(const tl_problem *p, const int *used, int J, uint64_t *reach)
{
    uint64_t r = 1;
    for (int t = 0; t < p->ntypes; t++) {
        if (p->hole[t] >= 0 || p->size[t] >= 64) continue;
        for (int k = used[t]; k < p->copies[t]; k++) {
            uint64_t next = r | r << p->size[t];
            if (next == r) break;
            r = next;
        }
    }
    *reach = r;
    for (int s = TL_POCKET; s > 0; s--) {
        int lo = s > J ? s - J : 0;
        uint64_t window = (r >> lo) & (((uint64_t)2 << (s - lo)) - 1);
        if (!window) return s;
    }
    return 0;
}

/* Is the state after placement k hopeless? Each hole left needs a free cell of its own; and
 * every closed pocket of s empty cells next to the placement must be fillable: s - j is a sum
 * of piece sizes left, for some j up to the holes that may sit in it. Pockets larger than
 * ``cap`` pass untested (sound and cheap). Pockets are grown as bit masks. */
/* Can one unused piece cover exactly this region (its placements starting at the region's
 * first cell are compared whole)? */
static int FN(one_piece_fits)(const tl_problem *p, const int *used, const word *region)
{
    int y = FN(first_set)(region);
    for (int k = p->cell_start[y]; k < p->cell_start[y + 1]; k++) {
        int t = p->pl_type[k];
        if (p->hole[t] >= 0 || used[t] == p->copies[t]) continue;
        if (FN(same)(p->pl_mask + (size_t)k * NW, region)) return 1;
    }
    return 0;
}

static int FN(dead_pocket)(const tl_problem *p, const word *key, int k, int R, int cap,
                           uint64_t reach, const int *used)
{
    for (int h = 0; h < p->nholes; h++) {
        if (!(R >> h & 1)) continue;
        word free_cells = 0;
        for (int i = 0; i < NW; i++) free_cells |= p->hole_mask[h][i] & ~key[i];
        if (!free_cells) return 1;
    }
    if (cap < p->one_piece_max) cap = p->one_piece_max;
    if (cap <= 0) return 0;
    word todo[NW];
    const word *border = p->pl_border + (size_t)k * NW;
    for (int i = 0; i < NW; i++) {
        todo[i] = border[i] & ~key[i];
    }
    for (int i0 = 0; i0 < NW; i0++) {
        while (todo[i0]) {
            int y = i0 * 64 + __builtin_ctzll(todo[i0]);
            word region[NW], front[NW];
            for (int i = 0; i < NW; i++) region[i] = front[i] = 0;
            region[y >> 6] = front[y >> 6] = (word)1 << (y & 63);
            int s = 1, holes = 0;
            while (s <= cap) {
                int z = -1;
                for (int i = 0; i < NW && z < 0; i++)
                    if (front[i]) {
                        z = i * 64 + __builtin_ctzll(front[i]);
                        front[i] &= front[i] - 1;
                    }
                if (z < 0) break;
                holes |= p->holebits[z];
                const word *nm = p->nbr_mask + (size_t)z * NW;
                for (int j = 0; j < NW; j++) {
                    word add = nm[j] & ~key[j] & ~region[j];
                    region[j] |= add;
                    front[j] |= add;
                    for (; add; add &= add - 1) s++;
                }
            }
            for (int i = 0; i < NW; i++) {
                todo[i] &= ~region[i];
            }
            if (s > cap) continue;
            int j = 0;
            for (int hr = holes & R; hr; hr &= hr - 1) j++;
            int lo = s > j ? s - j : 0;
            if (!((reach >> lo) & (((uint64_t)2 << (s - lo)) - 1))) return 1;
            if (s <= p->one_piece_max && !(holes & R) && !FN(one_piece_fits)(p, used, region))
                return 1;
        }
    }
    return 0;
}

static inline void FN(child)(const tl_problem *p, const word *key, int k, int bit, word *out)
{
    const word *m = p->pl_mask + (size_t)k * NW;
    for (int i = 0; i < NW; i++) out[i] = key[i] | m[i];
    out[bit >> 6] |= (word)1 << (bit & 63);
}

/* Add to out[0..len[R]) the completions of the state key, split by the remaining holes;
 * returns whether it added anything (most states are dead ends: their zeros are not scanned). */
static int FN(count_rec)(tl_counter *c, const word *key, int R, int depth, uint64_t *out)
{
    const tl_problem *p = c->p;
    int e = FN(first_empty)(p, key);
    if (e < 0) {
        if (__builtin_add_overflow(out[0], 1, &out[0])) c->status = TL_OVERFLOW;
        return 1;
    }
    long long L = p->len[R];
    size_t slot;
    if (FN(find)(&c->memo, key, &slot)) {
        uint64_t v = c->memo.slots[slot * (NW + 1) + NW];
        if (L == 1) {
            if (__builtin_add_overflow(out[0], v, &out[0])) c->status = TL_OVERFLOW;
            return v != 0;
        }
        if (v == TL_ZERO) return 0;
        add_stored(c, out, c->blocks[v / TL_BLOCK] + v % TL_BLOCK, L);
        return 1;
    }
    if ((++c->nodes & 0xFFFF) == 0 && c->deadline > 0 && tl_now() > c->deadline) {
        c->status = TL_LIMIT;
        return 0;
    }
    uint64_t *tmp = c->scratch[depth];
    int any = 0;
    memset(tmp, 0, (size_t)L * sizeof(uint64_t));
    /* First every child that survives the cheap tests, each one's memo slot prefetched; then
     * the recursion, by which time those slots are in cache. */
    word *kids = c->kid_keys + (size_t)depth * c->max_fan * NW;
    int *kid = c->kid_pl + (size_t)depth * c->max_fan, nk = 0;
    for (int k = p->cell_start[e]; k < p->cell_start[e + 1]; k++) {
        int t = p->pl_type[k];
        if (c->used[t] == p->copies[t]) continue;
        if (FN(overlaps)(key, p->pl_mask + (size_t)k * NW)) continue;
        word *ch = kids + (size_t)nk * NW;
        FN(child)(p, key, k, p->offset[t] + c->used[t], ch);
        c->used[t]++;
        int h = p->hole[t], R2 = h < 0 ? R : R & ~(1 << h);
        uint64_t reach;
        int cap = FN(reach_left)(p, c->used, __builtin_popcount(R2), &reach);
        int dead = FN(dead_pocket)(p, ch, k, R2, cap, reach, c->used);
        c->used[t]--;
        if (dead) continue;
        __builtin_prefetch(c->memo.slots + (FN(hash)(ch) & (c->memo.cap - 1)) * (NW + 1));
        kid[nk++] = k;
    }
    for (int i = 0; i < nk; i++) {
        int k = kid[i], t = p->pl_type[k], h = p->hole[t];
        const word *ch = kids + (size_t)i * NW;
        c->used[t]++;
        if (h < 0) {
            any |= FN(count_rec)(c, ch, R, depth + 1, tmp);
        } else {
            int R2 = R & ~(1 << h);
            long long L2 = p->len[R2], low = p->stride[R * TL_MAX_HOLES + h];
            long long size = p->hole_size[h], high = L / (size * low), j = p->pl_hpos[k];
            uint64_t *sc = c->scatter[depth];
            memset(sc, 0, (size_t)L2 * sizeof(uint64_t));
            if (FN(count_rec)(c, ch, R2, depth + 1, sc)) {
                any = 1;
                for (long long hi = 0; hi < high; hi++)
                    add_into(c, tmp + (hi * size + j) * low, sc + hi * low, low);
            }
        }
        c->used[t]--;
        if (c->status) return 0;
    }
    uint64_t v;
    if (L == 1) {
        v = tmp[0];
        if (v >= TL_EMPTY) { c->status = TL_OVERFLOW; return 0; }
    } else if (!any) {
        v = TL_ZERO;
    } else {
        long long nz = 0, big = 0;
        for (long long i = 0; i < L; i++) {
            nz += tmp[i] != 0;
            big |= tmp[i] > UINT32_MAX;
        }
        if (!nz) {
            v = TL_ZERO;
        } else {
            long long need = 1 + (big ? L : nz);
            if (!c->nblocks || c->fill + need > TL_BLOCK) {
                uint64_t **b = realloc(c->blocks, (c->nblocks + 1) * sizeof(uint64_t *));
                if (!b) { c->status = TL_NOMEM; return 0; }
                c->blocks = b;
                if (!(b[c->nblocks] = malloc(TL_BLOCK * sizeof(uint64_t)))) { c->status = TL_NOMEM; return 0; }
                c->nblocks++;
                c->fill = 0;
            }
            store_vector(c->blocks[c->nblocks - 1] + c->fill, tmp, L, nz, (int)big);
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
    add_into(c, out, tmp, L);
    return 1;
}

static int FN(count_run)(tl_counter *c, const word *root, uint64_t *out)
{
    int R = (1 << c->p->nholes) - 1;
    FN(count_rec)(c, root, R, 0, out);
    return c->status;
}

/* Advance the resumable depth-first search to the next tiling (TL_SOLUTION), the end
 * (TL_EXHAUSTED) or a limit (TL_LIMIT). States proven empty are remembered exactly. */
static int FN(enum_next)(tl_enum *s)
{
    const tl_problem *p = s->p;
    int d = s->depth;
    if (s->state == 2) return TL_EXHAUSTED;
    if (s->state == 3) {           /* resume after a limit */
        s->state = 1;
    } else if (s->state == 1) {    /* resume after a solution at depth d */
        d--;
        s->used[p->pl_type[s->chosen[d]]]--;
        s->found[d] = 1;
    } else {
        s->state = 1;
        d = 0;
        int e = FN(first_empty)(p, s->keys);
        if (e < 0) { s->state = 2; s->depth = 0; return TL_SOLUTION; }
        s->cell[0] = e;
        s->next[0] = p->cell_start[e];
        s->found[0] = 0;
    }
    for (;;) {
        const word *key = s->keys + (size_t)d * NW;
        int e = s->cell[d], k = s->next[d], end = p->cell_start[e + 1];
        for (; k < end; k++) {
            int t = p->pl_type[k];
            if (s->used[t] < p->copies[t] && !FN(overlaps)(key, p->pl_mask + (size_t)k * NW)) break;
        }
        if (k < end) {
            int t = p->pl_type[k];
            s->next[d] = k + 1;
            s->chosen[d] = k;
            word *ch = s->keys + (size_t)(d + 1) * NW;
            FN(child)(p, key, k, p->offset[t] + s->used[t], ch);
            s->used[t]++;
            s->nodes++;
            int R = 0;
            for (int u = 0; u < p->ntypes; u++)
                if (p->hole[u] >= 0 && s->used[u] == 0) R |= 1 << p->hole[u];
            uint64_t reach;
            int cap = FN(reach_left)(p, s->used, __builtin_popcount(R), &reach);
            if (FN(dead_pocket)(p, ch, k, R, cap, reach, s->used)) {
                s->used[t]--;
                continue;
            }
            int e2 = FN(first_empty)(p, ch);
            if (e2 < 0) { s->depth = d + 1; return TL_SOLUTION; }
            size_t slot;
            if ((s->dead.cap && FN(find)(&s->dead, ch, &slot))
                || (s->guided && FN(find)(&s->guide.memo, ch, &slot)
                    && s->guide.memo.slots[slot * (NW + 1) + NW] == (p->len[R] == 1 ? 0 : TL_ZERO))) {
                s->used[t]--;
            } else {
                d++;
                s->cell[d] = e2;
                s->next[d] = p->cell_start[e2];
                s->found[d] = 0;
            }
            if ((s->max_nodes >= 0 && s->nodes >= s->max_nodes)
                || ((s->nodes & 0xFFF) == 0 && s->deadline > 0 && tl_now() > s->deadline)) {
                s->state = 3;
                s->depth = d;
                return TL_LIMIT;
            }
            continue;
        }
        if (!s->found[d]) {
            if (s->dead.cap && s->dead.cap * 2 * (NW + 1) * sizeof(word) < s->mem_limit)
                FN(put)(&s->dead, key, 0);
        }
        if (d == 0) { s->state = 2; s->depth = 0; return TL_EXHAUSTED; }
        if (s->found[d]) s->found[d - 1] = 1;
        d--;
        s->used[p->pl_type[s->chosen[d]]]--;
    }
}

#undef FN
#undef FN1
#undef FN2
