/* Indexing a problem's placements (exact.h), once, before any search: placements bucketed
 * by their first cell (a stable counting sort, so each cell's placements keep the order they
 * were given in), each cell's open neighbours as a mask, each placement's border (the cells
 * next to it, outside it), and the largest pocket only one piece can fill. */

/* Fill p's placement tables from placements given in any order; 0 ok, -1 out of memory. */
static int tl_problem_index(tl_problem *p, const int *first, const int *types_in,
                            const int *hpos_in, const word *masks)
{
    size_t n = p->nplace, nw = (size_t)p->nw, ncells = (size_t)p->ncells;
    size_t *fill = tl_zeros(ncells + 1, sizeof(size_t));
    p->cell_start = tl_zeros(ncells + 1, sizeof(size_t));
    p->pl_type = tl_array(n, sizeof(int));
    p->pl_id = tl_array(n, sizeof(size_t));
    p->pl_hpos = tl_array(n, sizeof(int));
    p->pl_mask = tl_array(n, nw * sizeof(word));
    p->nbr_mask = tl_zeros(ncells * nw, sizeof(word));
    p->pl_border = tl_zeros(n * nw, sizeof(word));
    if (!fill || !p->cell_start || !p->pl_type || !p->pl_id || !p->pl_hpos || !p->pl_mask
        || !p->nbr_mask || !p->pl_border) {
        free(fill);
        return -1;
    }
    for (size_t k = 0; k < n; k++) p->cell_start[first[k] + 1]++;
    for (size_t e = 0; e < ncells; e++) p->cell_start[e + 1] += p->cell_start[e];
    for (size_t k = 0; k < n; k++) {
        size_t at = p->cell_start[first[k]] + fill[first[k]]++;
        p->pl_type[at] = types_in[k];
        p->pl_id[at] = k;
        p->pl_hpos[at] = hpos_in[k];
        memcpy(p->pl_mask + at * nw, masks + k * nw, nw * sizeof(word));
    }
    free(fill);
    for (size_t x = 0; x < ncells; x++)
        for (int a = 0; a < 4; a++) {
            int y = p->nbr[x * 4 + (size_t)a];
            if (y >= 0) p->nbr_mask[x * nw + (size_t)(y >> 6)] |= (word)1 << (y & 63);
        }
    for (size_t k = 0; k < n; k++) {
        word *m = p->pl_mask + k * nw, *b = p->pl_border + k * nw;
        for (size_t i = 0; i < nw; i++)
            for (word w = m[i]; w; w &= w - 1) {
                const word *nm = p->nbr_mask + (i * 64 + (size_t)__builtin_ctzll(w)) * nw;
                for (size_t j = 0; j < nw; j++) b[j] |= nm[j];
            }
        for (size_t i = 0; i < nw; i++) b[i] &= ~m[i];
    }
    int smallest = 0;
    for (int t = 0; t < p->ntypes; t++)
        if (p->hole[t] < 0 && p->size[t] && (!smallest || p->size[t] < smallest)) smallest = p->size[t];
    p->one_piece_max = smallest ? 2 * smallest - 1 : 0;
    if (p->one_piece_max > TL_POCKET) p->one_piece_max = TL_POCKET;
    return 0;
}

/* Lay the cells out on a row-major bitboard for the pocket test, when the board is connected
 * with a bounding box of at most 64 cells (coordinates follow from the neighbour lists; the
 * cells are then the key's first word); otherwise p->grid stays 0 and the test floods cell by
 * cell. 0 ok, -1 out of memory. */
static int tl_problem_grid(tl_problem *p)
{
    int n = p->ncells;
    p->grid = 0;
    if (n > 64) return 0;
    int row[64], col[64], queue[64], seen[64] = {0}, head = 0, tail = 0;
    static const int dr[4] = {-1, 0, 0, 1}, dc[4] = {0, -1, 1, 0};
    row[0] = col[0] = 0;
    seen[0] = 1;
    queue[tail++] = 0;
    while (head < tail) {
        int x = queue[head++];
        for (int a = 0; a < 4; a++) {
            int y = p->nbr[x * 4 + a];
            if (y < 0) continue;
            if (!seen[y]) {
                seen[y] = 1;
                row[y] = row[x] + dr[a];
                col[y] = col[x] + dc[a];
                queue[tail++] = y;
            } else if (row[y] != row[x] + dr[a] || col[y] != col[x] + dc[a]) {
                return 0;  /* not a grid */
            }
        }
    }
    if (tail != n) return 0;  /* not connected */
    int r0 = row[0], r1 = row[0], c0 = col[0], c1 = col[0];
    for (int x = 0; x < n; x++) {
        if (row[x] < r0) r0 = row[x];
        if (row[x] > r1) r1 = row[x];
        if (col[x] < c0) c0 = col[x];
        if (col[x] > c1) c1 = col[x];
    }
    int gw = c1 - c0 + 1, gh = r1 - r0 + 1;
    /* (a row of 64: the flood's shifts by gw would be by the word's width, undefined) */
    if (gw * gh > 64 || gw >= 64) return 0;
    int8_t at[64];
    memset(at, -1, sizeof at);
    int g[64];
    for (int x = 0; x < n; x++) {
        g[x] = (row[x] - r0) * gw + (col[x] - c0);
        if (at[g[x]] >= 0) return 0;
        at[g[x]] = (int8_t)x;
    }
    /* every pair of cells side by side on the grid must be neighbours in the lists */
    for (int x = 0; x < n; x++) {
        int right = (col[x] - c0) + 1 < gw ? at[g[x] + 1] : -1;
        int down = (row[x] - r0) + 1 < gh ? at[g[x] + gw] : -1;
        if ((right >= 0 && p->nbr[x * 4 + 2] != right) || (down >= 0 && p->nbr[x * 4 + 3] != down))
            return 0;
    }
    p->g_conv = tl_zeros(8 * 256, sizeof(word));
    p->g_border = tl_zeros(p->nplace, sizeof(word));
    if (!p->g_conv || !p->g_border) return -1;
    for (int b = 0; b < 8; b++)
        for (int v = 0; v < 256; v++) {
            word m = 0;
            for (int i = 0; i < 8; i++)
                if (v >> i & 1 && b * 8 + i < n) m |= (word)1 << g[b * 8 + i];
            p->g_conv[b * 256 + v] = m;
        }
    p->g_open = p->g_left = p->g_right = 0;
    for (int x = 0; x < n; x++) p->g_open |= (word)1 << g[x];
    for (int r = 0; r < gh; r++) {
        p->g_left |= (word)1 << (r * gw);
        p->g_right |= (word)1 << (r * gw + gw - 1);
    }
    for (int h = 0; h < p->nholes; h++) {
        p->g_hole[h] = 0;
        for (int x = 0; x < n; x++)
            if (p->holebits[x] >> h & 1) p->g_hole[h] |= (word)1 << g[x];
    }
    for (size_t k = 0; k < p->nplace; k++)
        for (word w = p->pl_border[k * (size_t)p->nw]; w; w &= w - 1)
            p->g_border[k] |= (word)1 << g[__builtin_ctzll(w)];
    memcpy(p->g_cell, at, sizeof at);
    p->gw = gw;
    p->grid = 1;
    return 0;
}
