/* The bit-parallel line solver's body, for one word width: line_bits.c includes it once per
 * width, after defining
 *   NG_W       the word type (uint64_t, ng_u128)
 *   NG_WBITS   its number of bits
 *   NG_SFX     the suffix of this width's function names (empty, 2)
 *   NG_CTZ(x), NG_MSB(x)   the lowest and the highest bit set of a nonzero word
 * Lines have at most NG_WBITS - 1 cells: position masks have n + 1 bits. */

#define NG_CAT_(a, b) a##b
#define NG_CAT(a, b) NG_CAT_(a, b)
#define NG_FN(name) NG_CAT(name, NG_SFX)

/* Bit s set when cells s .. s+L-1 are all set in m (L >= 1). */
static inline NG_W NG_FN(ng_runs)(NG_W m, int L)
{
    int len = 1;
    while (2 * len <= L) { m &= m >> len; len *= 2; }
    if (L > len) m &= m >> (L - len);
    return m;
}

/* Bits s .. s+L-1 set for every bit s of v (L >= 1). */
static inline NG_W NG_FN(ng_smear)(NG_W v, int L)
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
static inline NG_W NG_FN(ng_flood_up)(NG_W f, NG_W m)
{
    const NG_W t = (f << 1) & m;
    return f | t | (((m + t) ^ m) & m);
}

/* The same downwards: bit i set whenever bit i+1 is and bit i of m is (log2(NG_WBITS)
 * doublings; the loop is unrolled by the compiler). */
static inline NG_W NG_FN(ng_flood_down)(NG_W f, NG_W m)
{
    for (int d = 1; d < NG_WBITS / 2; d *= 2) {
        f |= (f >> d) & m;
        m &= m >> d;
    }
    return f | ((f >> (NG_WBITS / 2)) & m);
}

/* canF / canE: cells that may be filled / empty (n < NG_WBITS). On success, *outF and *outE
 * are the cells that are filled / empty in some arrangement; returns 0 when none fits.
 * fw, bw: k + 1 words; run: k words. fw[j] bit i: blocks 0..j-1 fit in [0, i) with every
 * other cell there empty; bw[j] bit i: blocks j..k-1 fit in [i, n) likewise. */
static int NG_FN(ng_solve_bits)(const int *clue, int k, int n, NG_W canF, NG_W canE,
                                NG_W *outF, NG_W *outE, NG_W *fw, NG_W *bw, NG_W *run)
{
    const NG_W one = 1;
    const NG_W cells = (one << n) - 1;
    const NG_W pos = n == NG_WBITS - 1 ? ~(NG_W)0 : (one << (n + 1)) - 1;
    const NG_W forced = cells & ~canE;       /* cells that cannot be empty */
    int j;
    fw[0] = forced ? (one << (NG_CTZ(forced) + 1)) - 1 : pos;
    for (j = 1; j <= k; j++) {
        const int L = clue[j - 1];
        run[j - 1] = NG_FN(ng_runs)(canF, L);
        const NG_W start = j == 1 ? fw[0] : (fw[j - 1] & canE) << 1;
        fw[j] = NG_FN(ng_flood_up)((start & run[j - 1]) << L, canE << 1) & pos;
    }
    if (!((fw[k] >> n) & 1)) return 0;
    bw[k] = forced ? pos & ~((one << (NG_MSB(forced) + 1)) - 1) : pos;
    for (j = k - 1; j >= 0; j--) {
        const int L = clue[j];
        const NG_W end = j == k - 1 ? bw[k] : (bw[j + 1] >> 1) & canE;
        bw[j] = NG_FN(ng_flood_down)(run[j] & (end >> L), canE) & pos;
    }
    NG_W e = 0, f = 0;
    for (j = 0; j <= k; j++) e |= fw[j] & (bw[j] >> 1);
    e &= canE;
    for (j = 0; j < k; j++) {
        const int L = clue[j];
        const NG_W start = j == 0 ? fw[0] : (fw[j] & canE) << 1;
        const NG_W end = j == k - 1 ? bw[k] : (bw[j + 1] >> 1) & canE;
        f |= NG_FN(ng_smear)(run[j] & start & (end >> L), L);
    }
    f &= cells;
    if ((e | f) != cells) return 0;
    *outF = f;
    *outE = e;
    return 1;
}

#undef NG_FN
#undef NG_CAT
#undef NG_CAT_
