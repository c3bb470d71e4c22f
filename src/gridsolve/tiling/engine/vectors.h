/* Count vectors of the tiling engine: the completions of a state split by where the holes
 * left go (mixed radix, exact.h), added with overflow checks and stored densely or sparsely. */
#ifndef GRIDSOLVE_TILING_VECTORS_H
#define GRIDSOLVE_TILING_VECTORS_H

#include <string.h>

#include "exact.h"

/* dst += src, element by element, noting any overflow. */
static inline void add_into(tl_counter *c, uint64_t *dst, const uint64_t *src, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (__builtin_add_overflow(dst[i], src[i], &dst[i])) c->status = TL_OVERFLOW;
}

/* Store a count vector: a header (nonzeros << 1 | dense), then either every count (dense,
 * when some count needs 64 bits) or one word per nonzero: index << 32 | count (vectors are
 * at most 2**20 long, so an index fits 32 bits). */
static void store_vector(uint64_t *dst, const uint64_t *src, size_t n, size_t nz, int dense)
{
    *dst++ = (uint64_t)nz << 1 | (uint64_t)dense;
    if (dense) {
        memcpy(dst, src, n * sizeof(uint64_t));
        return;
    }
    for (size_t i = 0; i < n; i++)
        if (src[i]) *dst++ = (uint64_t)i << 32 | src[i];
}

/* dst += a vector stored by store_vector. */
static inline void add_stored(tl_counter *c, uint64_t *dst, const uint64_t *v, size_t n)
{
    uint64_t head = *v++;
    if (head & 1) {
        add_into(c, dst, v, n);
        return;
    }
    for (uint64_t i = 0, nz = head >> 1; i < nz; i++) {
        uint64_t idx = v[i] >> 32;
        if (__builtin_add_overflow(dst[idx], v[i] & UINT32_MAX, &dst[idx])) c->status = TL_OVERFLOW;
    }
}

#endif
