/* The bit-parallel line solver: line.c's left/right computation on machine words, for
 * lines of at most NG_BITS_MAX cells (the prefix sets of a block are shifted, masked and
 * flooded a word at a time, in the manner of bit-parallel string matching: Baeza-Yates &
 * Gonnet, "A new approach to text searching", CACM 1992).
 * Part of the engine's one compilation unit (_core.c includes the parts in core.h's order). */
#include <stdint.h>

#include "core.h"

/* The same left/right computation on machine words: bit i of a cell mask is cell i; bit i of
 * a position mask is the prefix [0, i) (i = 0..n). Each block costs a few dozen word
 * operations instead of a pass over the line. One body (line_bits_impl.h) for both widths:
 * one word (ng_solve_bits, lines of at most NG_BITS_MAX cells) and, where the compiler has
 * 128-bit integers, two (ng_solve_bits2, at most NG_BITS2_MAX). */
#define NG_W uint64_t
#define NG_WBITS 64
#define NG_SFX
#define NG_CTZ(x) __builtin_ctzll(x)
#define NG_MSB(x) (63 - __builtin_clzll(x))
#include "line_bits_impl.h"
#undef NG_W
#undef NG_WBITS
#undef NG_SFX
#undef NG_CTZ
#undef NG_MSB

#if NG_BITS2_MAX
static inline int ng_ctz2(ng_u128 x)  /* x != 0 */
{
    const uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

static inline int ng_msb2(ng_u128 x)  /* x != 0: the highest bit set */
{
    const uint64_t hi = (uint64_t)(x >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)x);
}

#define NG_W ng_u128
#define NG_WBITS 128
#define NG_SFX 2
#define NG_CTZ(x) ng_ctz2(x)
#define NG_MSB(x) ng_msb2(x)
#include "line_bits_impl.h"
#undef NG_W
#undef NG_WBITS
#undef NG_SFX
#undef NG_CTZ
#undef NG_MSB

/* Byte cells (n <= NG_BITS2_MAX) as the masks of the cells that may be filled / empty. */
static inline void ng_bytes_to_masks2(const uint8_t *in, int n, ng_u128 *canF, ng_u128 *canE)
{
    uint64_t w[4] = {0, 0, 0, 0};  /* canF low, high; canE low, high */
    for (int i = 0; i < n; i++) {
        w[i >> 6] |= (uint64_t)(in[i] >> 1 & 1) << (i & 63);
        w[2 + (i >> 6)] |= (uint64_t)(in[i] & 1) << (i & 63);
    }
    *canF = (ng_u128)w[1] << 64 | w[0];
    *canE = (ng_u128)w[3] << 64 | w[2];
}

/* And back: out[i] = (filled possible) << 1 | (empty possible). */
static inline void ng_masks_to_bytes2(ng_u128 f, ng_u128 e, uint8_t *out, int n)
{
    const uint64_t fw[2] = {(uint64_t)f, (uint64_t)(f >> 64)}, ew[2] = {(uint64_t)e, (uint64_t)(e >> 64)};
    for (int i = 0; i < n; i++)
        out[i] = (uint8_t)((fw[i >> 6] >> (i & 63) & 1) << 1 | (ew[i >> 6] >> (i & 63) & 1));
}

/* A line of byte cells (in[n], n <= NG_BITS2_MAX) through ng_solve_bits2 into out[n];
 * b2: 3 * (k + 1) words of scratch. Returns 0 on contradiction. */
static int ng_solve_bytes2(const int *clue, int k, const uint8_t *in, uint8_t *out, int n,
                           ng_u128 *b2)
{
    ng_u128 canF, canE, f, e;
    ng_bytes_to_masks2(in, n, &canF, &canE);
    if (!ng_solve_bits2(clue, k, n, canF, canE, &f, &e, b2, b2 + k + 1, b2 + 2 * (k + 1)))
        return 0;
    ng_masks_to_bytes2(f, e, out, n);
    return 1;
}
#endif
