/* Setting a cell and undoing sets: each set goes on the trail, marks the cell's row and
 * column in the bitboards, queues both lines and stamps them for the probe records
 * (records.h); an undo resets the cells set since a mark.
 * Part of the engine's one compilation unit (_core.c includes the parts in core.h's order). */

#include "core.h"

static inline void ng_set(ng_solver *s, int cell, uint8_t v)
{
    const int row = s->pz.cell_row[cell], col = s->pz.height + s->pz.cell_col[cell];
    s->cells[cell] = v;
    s->trail[s->trail_len++] = cell;
    if (s->bits) {
        uint64_t *m = v == CELL_FILLED ? s->lf : s->le;
        m[row] |= 1ULL << (col - s->pz.height);
        m[col] |= 1ULL << row;
    }
#if NG_BITS2_MAX
    else if (s->lf2) {
        ng_u128 *m = v == CELL_FILLED ? s->lf2 : s->le2;
        m[row] |= (ng_u128)1 << (col - s->pz.height);
        m[col] |= (ng_u128)1 << row;
    }
#endif
    s->unknown--;
    eng_enqueue(&s->q, row);
    eng_enqueue(&s->q, col);
    eng_touch(&s->rec, row, col);
}

/* Reset the cells set since mark. A probe's undo restores the state its probe started from;
 * any other undo (backtracking) is a change of the lines it touches, as a set is. */
static void ng_undo(ng_solver *s, int mark)
{
    const int stamp = eng_undo_begin(&s->rec);
    while (s->trail_len > mark) {
        const int cell = s->trail[--s->trail_len];
        s->cells[cell] = CELL_UNKNOWN;
        s->unknown++;
        if (s->bits) {
            const int row = s->pz.cell_row[cell], col = s->pz.cell_col[cell], cl = s->pz.height + col;
            s->lf[row] &= ~(1ULL << col); s->le[row] &= ~(1ULL << col);
            s->lf[cl] &= ~(1ULL << row); s->le[cl] &= ~(1ULL << row);
        }
#if NG_BITS2_MAX
        else if (s->lf2) {
            const int row = s->pz.cell_row[cell], col = s->pz.cell_col[cell], cl = s->pz.height + col;
            const ng_u128 rb = ~((ng_u128)1 << col), cb = ~((ng_u128)1 << row);
            s->lf2[row] &= rb; s->le2[row] &= rb;
            s->lf2[cl] &= cb; s->le2[cl] &= cb;
        }
#endif
        if (stamp) eng_undo_stamp(&s->rec, s->pz.cell_row[cell], s->pz.height + s->pz.cell_col[cell]);
    }
    if (s->ngd.head > s->trail_len) s->ngd.head = s->trail_len;
}
