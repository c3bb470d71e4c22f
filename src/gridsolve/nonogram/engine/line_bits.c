/* The bit-parallel line solver: line.c's left/right computation on machine words, for
 * lines of at most NG_BITS_MAX cells (the prefix sets of a block are shifted, masked and
 * flooded a word at a time, in the manner of bit-parallel string matching: Baeza-Yates &
 * Gonnet, "A new approach to text searching", CACM 1992).
 * Part of the engine's one compilation unit (_core.c includes the parts in core.h's order). */
#include <stdint.h>

#include "core.h"

/* The same left/right computation on machine words, for lines of at most NG_BITS_MAX cells:
 * bit i of a cell mask is cell i; bit i of a position mask is the prefix [0, i) (i = 0..n).
 * Each block costs a few dozen word operations instead of a pass over the line. */

/* Bit s set when cells s .. s+L-1 are all set in m (L >= 1). */
static inline uint64_t ng_runs(uint64_t m, int L)
{
    int len = 1;
    while (2 * len <= L) { m &= m >> len; len *= 2; }
    if (L > len) m &= m >> (L - len);
    return m;
}

/* Bits s .. s+L-1 set for every bit s of v (L >= 1). */
static inline uint64_t ng_smear(uint64_t v, int L)
{
    int len = 1;
    while (2 * len <= L) { v |= v << len; len *= 2; }
    if (L > len) v |= v << (L - len);
    return v;
}

/* The least superset of f with bit i set whenever bit i-1 is and bit i of m is, by one
 * addition: t = the bits of m just above f; adding t to m carries from the lowest t bit of
 * each run of m to the run's end, so (m + t) ^ m holds that bit and, above it, the run's bits
 * not in t; with t that is the run from its lowest seed up. */
static inline uint64_t ng_flood_up(uint64_t f, uint64_t m)
{
    const uint64_t t = (f << 1) & m;
    return f | t | (((m + t) ^ m) & m);
}

/* The same downwards: bit i set whenever bit i+1 is and bit i of m is. */
static inline uint64_t ng_flood_down(uint64_t f, uint64_t m)
{
    f |= (f >> 1) & m;  m &= m >> 1;
    f |= (f >> 2) & m;  m &= m >> 2;
    f |= (f >> 4) & m;  m &= m >> 4;
    f |= (f >> 8) & m;  m &= m >> 8;
    f |= (f >> 16) & m; m &= m >> 16;
    f |= (f >> 32) & m;
    return f;
}

/* canF / canE: cells that may be filled / empty (n <= NG_BITS_MAX). On success, *outF and
 * *outE are the cells that are filled / empty in some arrangement; returns 0 when none fits.
 * fw, bw: k + 1 words; run: k words. fw[j] bit i: blocks 0..j-1 fit in [0, i) with every
 * other cell there empty; bw[j] bit i: blocks j..k-1 fit in [i, n) likewise. */
static int ng_solve_bits(const int *clue, int k, int n, uint64_t canF, uint64_t canE,
                         uint64_t *outF, uint64_t *outE, uint64_t *fw, uint64_t *bw,
                         uint64_t *run)
{
    const uint64_t cells = (1ULL << n) - 1;
    const uint64_t pos = n == 63 ? ~0ULL : (2ULL << n) - 1;
    const uint64_t forced = cells & ~canE;       /* cells that cannot be empty */
    int j;
    fw[0] = forced ? (2ULL << __builtin_ctzll(forced)) - 1 : pos;
    for (j = 1; j <= k; j++) {
        const int L = clue[j - 1];
        run[j - 1] = ng_runs(canF, L);
        const uint64_t start = j == 1 ? fw[0] : (fw[j - 1] & canE) << 1;
        fw[j] = ng_flood_up((start & run[j - 1]) << L, canE << 1) & pos;
    }
    if (!((fw[k] >> n) & 1)) return 0;
    bw[k] = forced ? pos & ~((2ULL << (63 - __builtin_clzll(forced))) - 1) : pos;
    for (j = k - 1; j >= 0; j--) {
        const int L = clue[j];
        const uint64_t end = j == k - 1 ? bw[k] : (bw[j + 1] >> 1) & canE;
        bw[j] = ng_flood_down(run[j] & (end >> L), canE) & pos;
    }
    uint64_t e = 0, f = 0;
    for (j = 0; j <= k; j++) e |= fw[j] & (bw[j] >> 1);
    e &= canE;
    for (j = 0; j < k; j++) {
        const int L = clue[j];
        const uint64_t start = j == 0 ? fw[0] : (fw[j] & canE) << 1;
        const uint64_t end = j == k - 1 ? bw[k] : (bw[j + 1] >> 1) & canE;
        f |= ng_smear(run[j] & start & (end >> L), L);
    }
    f &= cells;
    if ((e | f) != cells) return 0;
    *outF = f;
    *outE = e;
    return 1;
}

#if NG_BITS2_MAX
/* ng_solve_bits on two words (unsigned __int128), for lines of up to NG_BITS2_MAX cells: the
 * same steps, with one more doubling in the floods. */
static inline ng_u128 ng_runs2(ng_u128 m, int L)
{
    int len = 1;
    while (2 * len <= L) { m &= m >> len; len *= 2; }
    if (L > len) m &= m >> (L - len);
    return m;
}

static inline ng_u128 ng_smear2(ng_u128 v, int L)
{
    int len = 1;
    while (2 * len <= L) { v |= v << len; len *= 2; }
    if (L > len) v |= v << (L - len);
    return v;
}

static inline ng_u128 ng_flood_up2(ng_u128 f, ng_u128 m)
{
    const ng_u128 t = (f << 1) & m;
    return f | t | (((m + t) ^ m) & m);
}

static inline ng_u128 ng_flood_down2(ng_u128 f, ng_u128 m)
{
    for (int d = 1; d < 128; d *= 2) {
        f |= (f >> d) & m;
        m &= m >> d;
    }
    return f;
}

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

/* As ng_solve_bits, n <= NG_BITS2_MAX; fw, bw, run: k + 1 words each. */
static int ng_solve_bits2(const int *clue, int k, int n, ng_u128 canF, ng_u128 canE,
                          ng_u128 *outF, ng_u128 *outE, ng_u128 *fw, ng_u128 *bw, ng_u128 *run)
{
    const ng_u128 one = 1, cells = n == 128 ? ~(ng_u128)0 : (one << n) - 1;
    const ng_u128 pos = n == 127 ? ~(ng_u128)0 : (one << (n + 1)) - 1;
    const ng_u128 forced = cells & ~canE;
    int j;
    fw[0] = forced ? (one << (ng_ctz2(forced) + 1)) - 1 : pos;
    for (j = 1; j <= k; j++) {
        const int L = clue[j - 1];
        run[j - 1] = ng_runs2(canF, L);
        const ng_u128 start = j == 1 ? fw[0] : (fw[j - 1] & canE) << 1;
        fw[j] = ng_flood_up2((start & run[j - 1]) << L, canE << 1) & pos;
    }
    if (!((fw[k] >> n) & 1)) return 0;
    bw[k] = forced ? pos & ~((one << (ng_msb2(forced) + 1)) - 1) : pos;
    for (j = k - 1; j >= 0; j--) {
        const int L = clue[j];
        const ng_u128 end = j == k - 1 ? bw[k] : (bw[j + 1] >> 1) & canE;
        bw[j] = ng_flood_down2(run[j] & (end >> L), canE) & pos;
    }
    ng_u128 e = 0, f = 0;
    for (j = 0; j <= k; j++) e |= fw[j] & (bw[j] >> 1);
    e &= canE;
    for (j = 0; j < k; j++) {
        const int L = clue[j];
        const ng_u128 start = j == 0 ? fw[0] : (fw[j] & canE) << 1;
        const ng_u128 end = j == k - 1 ? bw[k] : (bw[j + 1] >> 1) & canE;
        f |= ng_smear2(run[j] & start & (end >> L), L);
    }
    f &= cells;
    if ((e | f) != cells) return 0;
    *outF = f;
    *outE = e;
    return 1;
}

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
