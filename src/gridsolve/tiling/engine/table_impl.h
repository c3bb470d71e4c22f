/* The memo's exact hash table for keys of NW words (part of exact_impl.h): open addressing
 * with linear probing; each slot holds the full key then its value, and a key is found only
 * when all its words are equal (never by hash alone). */

static inline uint64_t FN(hash)(const word *k)
{
    uint64_t h = 0x243F6A8885A308D3ULL;
    for (int i = 0; i < NW; i++) h = (h ^ k[i]) * 0x9E3779B97F4A7C15ULL;
    h ^= h >> 33;  /* MurmurHash3's 64-bit finaliser: every key bit reaches the low bits */
    h *= 0xFF51AFD7ED558CCDULL;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ULL;
    h ^= h >> 33;
    return h;
}

static inline int FN(same)(const word *a, const word *b)
{
    for (int i = 0; i < NW; i++)
        if (a[i] != b[i]) return 0;
    return 1;
}

/* The home slot of a key: the hash's top bits, so that doubling the table sends the keys of
 * slot i to slots 2i and 2i + 1 (what growing in place relies on). */
static inline size_t FN(home)(const tl_table *t, const word *key)
{
    return (size_t)(FN(hash)(key) >> (64 - __builtin_ctzll(t->cap)));
}

/* Slot of key in t: found (1) or the empty slot where it would go (0). */
static inline int FN(find)(const tl_table *t, const word *key, size_t *slot)
{
    size_t m = t->cap - 1, i = FN(home)(t, key);
    for (;;) {
        const word *e = t->slots + i * (NW + 1);
        if (e[NW] == TL_EMPTY) { *slot = i; return 0; }
        if (FN(same)(e, key)) { *slot = i; return 1; }
        i = (i + 1) & m;
    }
}

/* Copy every entry of the slots `from` (n of them) and of `extra` (k entries) into the empty
 * table n of t's new size. */
static void FN(rehash_into)(tl_table *n, const word *from, size_t count, const word *extra, size_t k)
{
    for (size_t i = 0; i < count + k; i++) {
        const word *e = i < count ? from + i * (NW + 1) : extra + (i - count) * (NW + 1);
        if (e[NW] == TL_EMPTY) continue;
        size_t s;
        FN(find)(n, e, &s);
        memcpy(n->slots + s * (NW + 1), e, (NW + 1) * sizeof(word));
    }
}

/* Double t into a new block (its old slots, or reservation, given back); every entry is in
 * t's first `from` slots or in `extra` (k entries). 0 ok, -1 out of memory. */
static int FN(grow_out)(tl_table *t, size_t from, const word *extra, size_t k)
{
    size_t ncap = t->cap * 2;
    word *slots = tl_array_big(ncap, (NW + 1) * sizeof(word));
    if (!slots) return -1;
    for (size_t i = 0; i < ncap; i++) slots[i * (NW + 1) + NW] = TL_EMPTY;
    tl_table n = {NW, ncap, t->count, slots, NULL, 0, 0};
    FN(rehash_into)(&n, t->slots, from, extra, k);
    tl_slots_free(t->slots, t->map, t->map_bytes);
    *t = n;
    return 0;
}

/* Double t inside its reservation, with no new block and no copy of the table: the top half
 * is cleared and the entries move from the last slot down to their slots for the new size,
 * each found by probing up from its new home (2h or 2h + 1, at or above its old slot h). The
 * slots it probes have all been visited already, so none of them will be emptied later and
 * every entry stays reachable from its home. An entry whose new home is not above its old
 * slot (a long run at the start of the table) or whose probe would pass the end waits in a
 * small buffer and goes in last, by an ordinary insert. If that buffer fills, the table is
 * rebuilt in a new block (every entry is then in the slots or the buffer, exactly once).
 * 0 ok, -1 out of memory. */
#ifndef TL_WAIT
#define TL_WAIT 64   /* make test-sanitize builds with 2, so that both ways out are run */
#endif
static int FN(grow_in_place)(tl_table *t)
{
    word wait[(TL_WAIT > 0 ? TL_WAIT : 1) * (NW + 1)];
    size_t nwait = 0, old = t->cap, ncap = old * 2;
    word *S = t->slots;
    for (size_t i = old; i < ncap; i++) S[i * (NW + 1) + NW] = TL_EMPTY;
    t->cap = ncap;
    for (size_t p = old; p-- > 0;) {
        word *e = S + p * (NW + 1);
        if (e[NW] == TL_EMPTY) continue;
        size_t q = FN(home)(t, e), i = q;
        if (q > p) {
            while (i < ncap && S[i * (NW + 1) + NW] != TL_EMPTY) i++;
            if (i < ncap) {
                memcpy(S + i * (NW + 1), e, (NW + 1) * sizeof(word));
                e[NW] = TL_EMPTY;
                continue;
            }
        }
        if (nwait == TL_WAIT) {  /* every entry is in S[0..ncap) or in wait */
            t->cap = old;
            return FN(grow_out)(t, ncap, wait, nwait);
        }
        memcpy(wait + nwait++ * (NW + 1), e, (NW + 1) * sizeof(word));
        e[NW] = TL_EMPTY;
    }
    tl_table n = *t;
    n.slots = S;
    FN(rehash_into)(&n, S, 0, wait, nwait);
    return 0;
}

static int FN(grow)(tl_table *t)
{
    if (t->map && t->cap * 2 <= t->map_slots) return FN(grow_in_place)(t);
    return FN(grow_out)(t, t->cap, NULL, 0);
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
