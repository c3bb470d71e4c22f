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
