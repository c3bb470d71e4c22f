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
    word *slots = tl_array_big(ncap, (NW + 1) * sizeof(word));
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
