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

/* Address space for a table that grows in place: `bytes` from a 2 MB boundary, pages given
 * only when touched (MAP_NORESERVE) and marked for huge pages. NULL where the system refuses
 * (tables are then allocated one size at a time); *base and *len are what to unmap. */
static void *tl_reserve(size_t bytes, void **base, size_t *len)
{
#if defined(MAP_NORESERVE) && defined(MAP_ANONYMOUS)
    const size_t huge = (size_t)1 << 21;
    size_t total;
    if (__builtin_add_overflow(bytes, huge, &total)) return NULL;
    void *m = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (m == MAP_FAILED) return NULL;
    uintptr_t at = ((uintptr_t)m + huge - 1) & ~(uintptr_t)(huge - 1);
#ifdef MADV_HUGEPAGE
    madvise((void *)at, bytes, MADV_HUGEPAGE);
#endif
    *base = m;
    *len = total;
    return (void *)at;
#else
    (void)bytes; (void)base; (void)len;
    return NULL;
#endif
}

/* Give back a table's slots: its reservation, or the block tl_array_big gave. */
static void tl_slots_free(void *slots, void *map, size_t map_bytes)
{
    if (map)
        munmap(map, map_bytes);
    else
        free(slots);
}

#endif
