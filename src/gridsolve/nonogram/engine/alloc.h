/* Checked allocation sizes, shared by the black-and-white and colour engines.
 *
 * Every allocation of count x size bytes goes through eng_malloc / eng_realloc, which fail
 * (NULL) when the product overflows a size_t, just as when the system refuses: the caller's
 * NULL check then turns both into a clean "out of memory" instead of a short buffer.
 * Growing arrays double through eng_grow, which refuses to pass INT_MAX elements (their
 * indices are ints); eng_reserve grows one in place that way.
 */
#ifndef GRIDSOLVE_NONOGRAM_ALLOC_H
#define GRIDSOLVE_NONOGRAM_ALLOC_H

#include <limits.h>
#include <stdlib.h>

static inline void *eng_malloc(size_t count, size_t size)
{
    size_t bytes;
    if (__builtin_mul_overflow(count, size, &bytes)) return NULL;
    return malloc(bytes ? bytes : 1);
}

static inline void *eng_realloc(void *p, size_t count, size_t size)
{
    size_t bytes;
    if (__builtin_mul_overflow(count, size, &bytes)) return NULL;
    return realloc(p, bytes ? bytes : 1);
}

/* The capacity after cap (0: first) that holds need elements: doubling, starting at first;
 * 0 when it would pass INT_MAX. */
static inline int eng_grow(int cap, long long need, int first)
{
    long long c = cap > 0 ? cap : first;
    while (c < need) c *= 2;
    return c > INT_MAX ? 0 : (int)c;
}

/* buf (of *cap elements of size bytes each; NULL when *cap is 0) grown, doubling from first
 * (eng_grow), to hold need > 0 elements, with *cap updated; or NULL when memory runs out or
 * it would pass INT_MAX elements, buf and *cap then as they were. */
static inline void *eng_reserve(void *buf, size_t *cap, size_t need, size_t size, int first)
{
    if (need <= *cap) return buf;
    const int grown_cap = eng_grow((int)*cap, (long long)need, first);
    void *grown = grown_cap ? eng_realloc(buf, (size_t)grown_cap, size) : NULL;
    if (grown) *cap = (size_t)grown_cap;
    return grown;
}

#endif
