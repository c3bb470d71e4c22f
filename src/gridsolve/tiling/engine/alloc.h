/* Checked allocations of the tiling engine: every size is a size_t product tested for
 * overflow before it is asked for, and large tables sit on transparent huge pages. */
#ifndef GRIDSOLVE_TILING_ALLOC_H
#define GRIDSOLVE_TILING_ALLOC_H

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

/* n items of size bytes, uninitialised; NULL when n * size overflows or memory is short. */
static void *tl_array(size_t n, size_t size)
{
    size_t bytes;
    if (__builtin_mul_overflow(n, size, &bytes)) return NULL;
    return malloc(bytes ? bytes : 1);
}

/* n zeroed items of size bytes (calloc checks the product itself). */
static void *tl_zeros(size_t n, size_t size)
{
    return calloc(n ? n : 1, size);
}

/* n items of size bytes for a large table: aligned to 2 MB and marked for transparent huge
 * pages, since the memo is probed at random and TLB misses otherwise dominate; free()
 * releases it. NULL when n * size overflows or memory is short. */
static void *tl_array_big(size_t n, size_t size)
{
    const size_t huge = (size_t)1 << 21;
    size_t bytes;
    if (__builtin_mul_overflow(n, size, &bytes)) return NULL;
    if (bytes < 2 * huge) return malloc(bytes ? bytes : 1);
    void *p = NULL;
    if (posix_memalign(&p, huge, bytes) != 0) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return p;
}

#endif
