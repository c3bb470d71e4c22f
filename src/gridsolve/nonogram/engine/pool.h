/* A small pool of large scratch blocks, handed from one solver to the next.
 *
 * A solver's line cache and implication tables are megabytes that a tournament puzzle uses
 * for a few milliseconds. Freed, glibc returns them to the system (they are mmap'd or at
 * the top of the heap), and the next puzzle's solver faults every page back in, zeroed by
 * the kernel: on 25x25 puzzles that was ~1.4 ms a puzzle, a fifth of the median solve.
 * Blocks of at least ENG_POOL_MIN bytes are kept here instead (ENG_POOL_SLOTS of them,
 * ENG_POOL_MAX_BYTES in all) and given to the next request of their size; a zeroed
 * request is cleared with memset, which costs far less than the page faults.
 *
 * The pool is shared by every thread of the process; a flag guards it, and a thread that
 * finds it busy simply allocates or frees as usual. Blocks kept at exit stay reachable
 * (not leaks for LeakSanitizer). */
#ifndef GRIDSOLVE_NONOGRAM_POOL_H
#define GRIDSOLVE_NONOGRAM_POOL_H

#include <stdlib.h>
#include <string.h>

#define ENG_POOL_SLOTS 8
#define ENG_POOL_MIN ((size_t)64 << 10)
#define ENG_POOL_MAX_BYTES ((size_t)32 << 20)

typedef struct {
    void *p;
    size_t bytes;
} eng_pool_slot;

static eng_pool_slot eng_pool[ENG_POOL_SLOTS];
static size_t eng_pool_bytes;
static char eng_pool_busy;

static inline int eng_pool_lock(void) { return !__atomic_test_and_set(&eng_pool_busy, __ATOMIC_ACQUIRE); }
static inline void eng_pool_unlock(void) { __atomic_clear(&eng_pool_busy, __ATOMIC_RELEASE); }

/* count x size bytes (NULL on overflow or no memory), zeroed when zero is set: a kept block
 * of exactly that size if there is one (so the pool's byte count stays exact), else a new one. */
static void *eng_pool_take(size_t count, size_t size, int zero)
{
    size_t bytes;
    if (__builtin_mul_overflow(count, size, &bytes)) return NULL;
    if (!bytes) bytes = 1;
    void *p = NULL;
    if (bytes >= ENG_POOL_MIN && eng_pool_lock()) {
        int best = -1;
        for (int i = 0; i < ENG_POOL_SLOTS && best < 0; i++)
            if (eng_pool[i].p && eng_pool[i].bytes == bytes) best = i;
        if (best >= 0) {
            p = eng_pool[best].p;
            eng_pool_bytes -= eng_pool[best].bytes;
            eng_pool[best].p = NULL;
            eng_pool[best].bytes = 0;
        }
        eng_pool_unlock();
        if (p) {
            if (zero) memset(p, 0, bytes);
            return p;
        }
    }
    return zero ? calloc(1, bytes) : malloc(bytes);
}

/* Give back p, taken with the same count x size: kept if it is large and there is room,
 * else freed. NULL is ignored. */
static void eng_pool_give(void *p, size_t count, size_t size)
{
    if (!p) return;
    size_t bytes;
    if (__builtin_mul_overflow(count, size, &bytes) || bytes < ENG_POOL_MIN
        || bytes > ENG_POOL_MAX_BYTES || !eng_pool_lock()) {
        free(p);
        return;
    }
    int slot = -1;
    if (eng_pool_bytes + bytes <= ENG_POOL_MAX_BYTES)
        for (int i = 0; i < ENG_POOL_SLOTS && slot < 0; i++)
            if (!eng_pool[i].p) slot = i;
    if (slot >= 0) {
        eng_pool[slot].p = p;
        eng_pool[slot].bytes = bytes;
        eng_pool_bytes += bytes;
    }
    eng_pool_unlock();
    if (slot < 0) free(p);
}

#endif
