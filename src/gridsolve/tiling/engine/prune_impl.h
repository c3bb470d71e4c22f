/* Pruning for keys of NW words (part of exact_impl.h): a state is cut when a hole has no
 * free cell left or a closed pocket of empty cells cannot be filled by the pieces left (its
 * size is no sum of their sizes plus holes, or it is one piece's size and no unused piece
 * has that shape). Sound: only states without completions are cut. */

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

/* Can one unused piece cover exactly this region (its placements starting at the region's
 * first cell are compared whole)? */
static int FN(one_piece_fits)(const tl_problem *p, const int *used, const word *region)
{
    int y = FN(first_set)(region);
    for (size_t k = p->cell_start[y]; k < p->cell_start[y + 1]; k++) {
        int t = p->pl_type[k];
        if (p->hole[t] >= 0 || used[t] == p->copies[t]) continue;
        if (FN(same)(p->pl_mask + (size_t)k * NW, region)) return 1;
    }
    return 0;
}

#ifndef TL_POPCOUNT_DEFINED
#define TL_POPCOUNT_DEFINED
/* Bits set in x, without the library call that __builtin_popcountll is on baseline x86-64. */
static inline int tl_popcount(word x)
{
    x = x - (x >> 1 & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + (x >> 2 & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
#endif

/* dead_pocket's pocket test on the bitboard (p->grid: all cells in the key's first word): a
 * flood adds every free neighbour of its last layer at once, by shifts; the same pockets,
 * sizes and tests as the cell-by-cell flood. */
static int FN(dead_pocket_grid)(const tl_problem *p, const word *key, size_t k, int R, int cap,
                                uint64_t reach, const int *used)
{
    word cells = key[0] & p->cellbits[0], covered = 0;
    for (int b = 0; cells; b++, cells >>= 8) covered |= p->g_conv[b * 256 + (cells & 0xFF)];
    word free_cells = p->g_open & ~covered, todo = p->g_border[k] & free_cells, big = 0;
    int gw = p->gw;
    while (todo) {
        word region = todo & -todo, front = region;
        int s = 1;
        for (;;) {
            word grow = ((front << 1) & ~p->g_left) | ((front >> 1) & ~p->g_right)
                        | (front << gw) | (front >> gw);
            grow &= free_cells & ~region;
            if (!grow) break;
            region |= grow;
            if (grow & big) { s = cap + 1; break; }  /* it reaches a pocket too large to test */
            s = tl_popcount(region);
            if (s > cap) break;
            front = grow;
        }
        todo &= ~region;
        if (s > cap) {
            big |= region;
            continue;
        }
        int j = 0, holes = 0;
        for (int h = 0; h < p->nholes; h++)
            if (R >> h & 1 && region & p->g_hole[h]) { j++; holes = 1; }
        int lo = s > j ? s - j : 0;
        if (!((reach >> lo) & (((uint64_t)2 << (s - lo)) - 1))) return 1;
        if (s <= p->one_piece_max && !holes) {
            word m[NW] = {0};
            for (word w = region; w; w &= w - 1) m[0] |= (word)1 << p->g_cell[__builtin_ctzll(w)];
            if (!FN(one_piece_fits)(p, used, m)) return 1;
        }
    }
    return 0;
}

/* Is the state after placement k hopeless? Each hole left needs a free cell of its own; and
 * every closed pocket of s empty cells next to the placement must be fillable: s - j is a sum
 * of piece sizes left, for some j up to the holes that may sit in it. Pockets larger than
 * ``cap`` pass untested (sound and cheap). Pockets are grown as bit masks. */
static int FN(dead_pocket)(const tl_problem *p, const word *key, size_t k, int R, int cap,
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
    if (p->grid) return FN(dead_pocket_grid)(p, key, k, R, cap, reach, used);
    word todo[NW], big[NW];  /* big: cells of pockets already known to be larger than cap */
    const word *border = p->pl_border + k * NW;
    for (int i = 0; i < NW; i++) {
        todo[i] = border[i] & ~key[i];
        big[i] = 0;
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
                word joins = 0;
                for (int j = 0; j < NW; j++) {
                    word add = nm[j] & ~key[j] & ~region[j];
                    joins |= add & big[j];
                    region[j] |= add;
                    front[j] |= add;
                    for (; add; add &= add - 1) s++;
                }
                if (joins) s = cap + 1;  /* it reaches a pocket too large to test */
            }
            for (int i = 0; i < NW; i++) {
                todo[i] &= ~region[i];
            }
            if (s > cap) {
                for (int i = 0; i < NW; i++) big[i] |= region[i];
                continue;
            }
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
