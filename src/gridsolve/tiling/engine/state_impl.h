/* Search states of NW words (part of exact_impl.h): the first empty cell, overlaps, the
 * child state after one placement. A state is the covered cells plus the copies used. */

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

static inline void FN(child)(const tl_problem *p, const word *key, size_t k, int bit, word *out)
{
    const word *m = p->pl_mask + (size_t)k * NW;
    for (int i = 0; i < NW; i++) out[i] = key[i] | m[i];
    out[bit >> 6] |= (word)1 << (bit & 63);
}
