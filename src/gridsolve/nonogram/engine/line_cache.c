/* An exact-key, direct-mapped cache of line results (a line's number and input cells
 * are the key; a hit returns the very output the solver gave), in two layouts: ng_cache_entry
 * for lines of up to 64 cells, and a compact (key, answer) word pair in bitboard mode when a
 * line's masks and number fit one word. Keys are checked whole, so a collision is a miss.
 * Part of the engine's one compilation unit (_core.c includes the parts in core.h's order). */

#include "core.h"

/* A table index of `bits` bits from a multiplied key: fold, multiply, take the top bits. */
static inline uint64_t ng_slot_index(uint64_t h, int bits)
{
    h ^= h >> 29;
    return (h * 0xBF58476D1CE4E5B9ULL) >> (64 - bits);
}

/* The cache slot of line l with key (k0, k1). */
static inline ng_cache_entry *ng_cache_slot(const ng_solver *s, int l, uint64_t k0, uint64_t k1)
{
    return &s->lc.cache[ng_slot_index((k0 * 0x9E3779B97F4A7C15ULL) ^ (k1 * 0xC2B2AE3D27D4EB4FULL)
                                   ^ ((uint64_t)l * 0x165667B19E3779F9ULL), NG_CACHE_BITS)];
}

/* Solve a line of n cells from s->tmp.lin into s->tmp.lout: bit-parallel on two words up to
 * NG_BITS2_MAX cells (line_bits.c), else by line.c's tables when they fit
 * NG_DENSE_MAX_CELLS, else by line_long.c in bounded memory. Returns 1, 0 on contradiction, or
 * 2 when stopped (the deadline passed, or out of memory: s->nomem), s->lim.aborted set. */
static int ng_solve_bytes(ng_solver *s, const int *clue, int k, int n)
{
#if NG_BITS2_MAX
    if (n <= NG_BITS2_MAX && s->tmp.b2)
        return ng_solve_bytes2(clue, k, s->tmp.lin, s->tmp.lout, n, (ng_u128 *)s->tmp.b2);
#endif
    if (((size_t)k + 1) * ((size_t)n + 1) <= NG_DENSE_MAX_CELLS)
        return ng_solve_line(clue, k, s->tmp.lin, s->tmp.lout, n, s->tmp.fwd, s->tmp.bwd,
                             s->tmp.pe, s->tmp.pf, s->tmp.diff);
    const int r = ng_solve_line_long(clue, k, s->tmp.lin, s->tmp.lout, n, &s->lim);
    if (r >= 0 && r <= 1) return r;
    if (r < 0) s->nomem = 1;
    s->lim.aborted = 1;
    return 2;
}

#if NG_BITS2_MAX
/* The two-word cache's slot of line l with known masks (kf, ke). */
static inline ng_cache2_entry *ng_cache2_slot(const ng_solver *s, int l, ng_u128 kf, ng_u128 ke)
{
    const uint64_t h = ((uint64_t)kf * 0x9E3779B97F4A7C15ULL) ^ ((uint64_t)(kf >> 64) * 0xC2B2AE3D27D4EB4FULL)
                       ^ ((uint64_t)ke * 0x165667B19E3779F9ULL) ^ ((uint64_t)(ke >> 64) * 0xD6E8FEB86659FD93ULL)
                       ^ ((uint64_t)l * 0xFF51AFD7ED558CCDULL);
    return s->lc.cache2 + ng_slot_index(h, NG_CACHE2_BITS);
}

/* Two-word bitboards: solve line l from its known masks (kf filled, ke empty) to the cells
 * known after it (*nf, *ne), through the two-word cache. 0: contradiction. */
static int ng_solve_bits2_cached(ng_solver *s, int l, int n, ng_u128 kf, ng_u128 ke,
                                 ng_u128 *nf, ng_u128 *ne)
{
    ng_cache2_entry *c = ng_cache2_slot(s, l, kf, ke);
    if (c->line1 == l + 1 && c->kf == kf && c->ke == ke) {
        s->lc.hits++;
        *nf = c->of;
        *ne = c->oe;
        return c->ok;
    }
    const ng_u128 cells = ((ng_u128)1 << n) - 1;
    ng_u128 canF, canE, *b2 = (ng_u128 *)s->tmp.b2;
    const int k = s->pz.clue_cnt[l];
    const int ok = ng_solve_bits2(s->pz.clues + s->pz.clue_off[l], k, n, cells & ~ke, cells & ~kf,
                                  &canF, &canE, b2, b2 + k + 1, b2 + 2 * (k + 1));
    *nf = ok ? canF & ~canE : 0;
    *ne = ok ? canE & ~canF : 0;
    c->kf = kf; c->ke = ke; c->of = *nf; c->oe = *ne; c->line1 = l + 1; c->ok = ok;
    return ok;
}
#endif

/* Solve line l from s->tmp.lin into s->tmp.lout, through the cache when the line is short
 * (as ng_solve_bytes: 2 when stopped). */
static int ng_solve_cached(ng_solver *s, int l, int n)
{
    const int *clue = s->pz.clues + s->pz.clue_off[l];
    const int k = s->pz.clue_cnt[l];
    if (!s->lc.cache)
        return ng_solve_bytes(s, clue, k, n);
    uint64_t k0 = 0, k1 = 0;
    for (int i = 0; i < n && i < 32; i++) k0 |= (uint64_t)s->tmp.lin[i] << (2 * i);
    for (int i = 32; i < n; i++) k1 |= (uint64_t)s->tmp.lin[i] << (2 * (i - 32));
    ng_cache_entry *e = ng_cache_slot(s, l, k0, k1);
    if (e->line1 == l + 1 && e->k0 == k0 && e->k1 == k1) {
        s->lc.hits++;
        if (!e->ok) return 0;
        for (int i = 0; i < n && i < 32; i++) s->tmp.lout[i] = (uint8_t)((e->o0 >> (2 * i)) & 3);
        for (int i = 32; i < n; i++) s->tmp.lout[i] = (uint8_t)((e->o1 >> (2 * (i - 32))) & 3);
        return 1;
    }
    const int ok = ng_solve_bytes(s, clue, k, n);  /* n <= 64: never stopped */
    uint64_t o0 = 0, o1 = 0;
    if (ok) {
        for (int i = 0; i < n && i < 32; i++) o0 |= (uint64_t)s->tmp.lout[i] << (2 * i);
        for (int i = 32; i < n; i++) o1 |= (uint64_t)s->tmp.lout[i] << (2 * (i - 32));
    }
    e->k0 = k0; e->k1 = k1; e->o0 = o0; e->o1 = o1; e->line1 = l + 1; e->ok = ok;
    return ok;
}

/* The compact cache's key for line l with known masks (kf, ke), and the key's slot. */
static inline uint64_t ng_small_key(const ng_solver *s, int l, uint64_t kf, uint64_t ke)
{
    return kf | (ke << (s->lc.small_shift >> 1)) | ((uint64_t)(l + 1) << s->lc.small_shift);
}

static inline uint64_t *ng_small_slot(const ng_solver *s, uint64_t key)
{
    return s->lc.small + 2 * ng_slot_index(key * 0x9E3779B97F4A7C15ULL, NG_SMALL_BITS);
}

/* Where line l's cached result for its present cells would be, in bitboard modes (NULL in
 * the others), for propagation to prefetch ahead of the line's solve: a miss there is the
 * main stall of propagation. (The prefetch itself stays in the caller: GCC drops a call to
 * a function that only prefetches, as having no effect.) */
static inline const void *ng_line_slot(const ng_solver *s, int l)
{
    if (s->lc.small) return ng_small_slot(s, ng_small_key(s, l, s->lf[l], s->le[l]));
    if (s->bits) return s->lc.cache ? ng_cache_slot(s, l, s->lf[l], s->le[l]) : NULL;
#if NG_BITS2_MAX
    if (s->lc.cache2) return ng_cache2_slot(s, l, s->lf2[l], s->le2[l]);
#endif
    return NULL;
}

/* Bitboard mode: solve line l from its known masks (kf filled, ke empty) to the cells known
 * after it (*nf, *ne), through the cache (keys are the masks themselves). 0: contradiction. */
static int ng_solve_bits_cached(ng_solver *s, int l, int n, uint64_t kf, uint64_t ke,
                                uint64_t *nf, uint64_t *ne)
{
    uint64_t *small = NULL, key = 0;
    ng_cache_entry *e = NULL;
    if (s->lc.small) {
        /* key: the masks and the line number; answer: the known masks and ok in bit 63 */
        key = ng_small_key(s, l, kf, ke);
        small = ng_small_slot(s, key);
        if (small[0] == key) {
            s->lc.hits++;
            *nf = small[1] & 0x7FFFFFFFULL;
            *ne = (small[1] >> 32) & 0x7FFFFFFFULL;
            return (int)(small[1] >> 63);
        }
    } else if (s->lc.cache) {
        e = ng_cache_slot(s, l, kf, ke);
        if (e->line1 == l + 1 && e->k0 == kf && e->k1 == ke) {
            s->lc.hits++;
            *nf = e->o0; *ne = e->o1;
            return e->ok;
        }
    }
    const uint64_t cells = (1ULL << n) - 1;
    uint64_t canF, canE;
    const int ok = ng_solve_bits(s->pz.clues + s->pz.clue_off[l], s->pz.clue_cnt[l], n, cells & ~ke,
                                 cells & ~kf, &canF, &canE, s->tmp.bfw, s->tmp.bbw, s->tmp.brun);
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
