/* Count vectors of the tiling engine: the completions of a state split by where the holes
 * left go (mixed radix, exact.h), added with overflow checks (or modulo c->mod, a prime
 * below 2**62, when counting modulo it) and stored densely or sparsely. */
#ifndef GRIDSOLVE_TILING_VECTORS_H
#define GRIDSOLVE_TILING_VECTORS_H

#include <string.h>

#include "exact.h"

/* *dst += v, noting an overflow; or modulo c->mod (both are below it, and it is below
 * 2**62, so the sum cannot wrap). */
static inline void add_one(tl_counter *c, uint64_t *dst, uint64_t v)
{
    if (c->mod) {
        uint64_t s = *dst + v;
        *dst = s >= c->mod ? s - c->mod : s;
    } else if (__builtin_add_overflow(*dst, v, dst)) {
        c->status = TL_OVERFLOW;
    }
}

/* dst += src, element by element, noting any overflow (or modulo c->mod). */
static inline void add_into(tl_counter *c, uint64_t *dst, const uint64_t *src, size_t n)
{
    if (c->mod) {
        for (size_t i = 0; i < n; i++)
            add_one(c, dst + i, src[i]);
        return;
    }
    for (size_t i = 0; i < n; i++)
        if (__builtin_add_overflow(dst[i], src[i], &dst[i])) c->status = TL_OVERFLOW;
}

/* Widen the index range span[0]..span[1] (end excluded) to cover lo..hi. */
static inline void widen(size_t *span, size_t lo, size_t hi)
{
    if (lo < span[0]) span[0] = lo;
    if (hi > span[1]) span[1] = hi;
}

/* dst += src, then src = 0 (scratch vectors are kept zero between uses). */
static inline void move_into(tl_counter *c, uint64_t *dst, uint64_t *src, size_t n)
{
    if (c->mod) {
        for (size_t i = 0; i < n; i++) {
            add_one(c, dst + i, src[i]);
            src[i] = 0;
        }
        return;
    }
    for (size_t i = 0; i < n; i++) {
        if (__builtin_add_overflow(dst[i], src[i], &dst[i])) c->status = TL_OVERFLOW;
        src[i] = 0;
    }
}

/* Store a count vector: a header (nonzeros << 1 | dense), then either every count (dense,
 * when some count needs 64 bits) or one word per nonzero: index << 32 | count (vectors are
 * at most 2**20 long, so an index fits 32 bits). */
static void store_vector(uint64_t *dst, const uint64_t *src, size_t n, const size_t *span,
                         size_t nz, int dense)
{
    *dst++ = (uint64_t)nz << 1 | (uint64_t)dense;
    if (dense) {
        memcpy(dst, src, n * sizeof(uint64_t));
        return;
    }
    for (size_t i = span[0]; i < span[1]; i++)
        if (src[i]) *dst++ = (uint64_t)i << 32 | src[i];
}

/* dst += a vector stored by store_vector. */
static inline void add_stored(tl_counter *c, uint64_t *dst, const uint64_t *v, size_t n,
                              size_t *span)
{
    uint64_t head = *v++;
    if (head & 1) {
        add_into(c, dst, v, n);
        widen(span, 0, n);
        return;
    }
    uint64_t nz = head >> 1;
    if (nz) widen(span, (size_t)(v[0] >> 32), (size_t)(v[nz - 1] >> 32) + 1);
    for (uint64_t i = 0; i < nz; i++) {
        add_one(c, dst + (v[i] >> 32), v[i] & UINT32_MAX);
    }
}

#endif
