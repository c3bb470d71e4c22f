/* Resumable enumeration for keys of NW words (part of exact_impl.h): a depth-first search
 * with an explicit stack that stops at each tiling and resumes where it stopped, skipping
 * states proven empty (remembered, or known from a finished count). */

/* Advance the resumable depth-first search to the next tiling (TL_SOLUTION), the end
 * (TL_EXHAUSTED) or a limit (TL_LIMIT). States proven empty are remembered exactly. */
static int FN(enum_next)(tl_enum *s)
{
    const tl_problem *p = s->p;
    int d = s->depth;
    if (s->state == 2) return TL_EXHAUSTED;
    if (s->state == 3) {           /* resume after a limit */
        s->state = 1;
    } else if (s->state == 1) {    /* resume after a solution at depth d */
        d--;
        s->used[p->pl_type[s->chosen[d]]]--;
        s->found[d] = 1;
    } else {
        s->state = 1;
        d = 0;
        int e = FN(first_empty)(p, s->keys);
        if (e < 0) { s->state = 2; s->depth = 0; return TL_SOLUTION; }
        s->cell[0] = e;
        s->next[0] = p->cell_start[e];
        s->found[0] = 0;
    }
    for (;;) {
        const word *key = s->keys + (size_t)d * NW;
        int e = s->cell[d];
        size_t k = s->next[d], end = p->cell_start[e + 1];
        for (; k < end; k++) {
            int t = p->pl_type[k];
            if (s->used[t] < p->copies[t] && !FN(overlaps)(key, p->pl_mask + (size_t)k * NW)) break;
        }
        if (k < end) {
            int t = p->pl_type[k];
            s->next[d] = k + 1;
            s->chosen[d] = k;
            word *ch = s->keys + (size_t)(d + 1) * NW;
            FN(child)(p, key, k, p->offset[t] + s->used[t], ch);
            s->used[t]++;
            s->nodes++;
            int R = 0;
            for (int u = 0; u < p->ntypes; u++)
                if (p->hole[u] >= 0 && s->used[u] == 0) R |= 1 << p->hole[u];
            uint64_t reach;
            int cap = FN(reach_left)(p, s->used, tl_popcount((word)R), &reach);
            if (FN(dead_pocket)(p, ch, k, R, cap, reach, s->used)) {
                s->used[t]--;
                continue;
            }
            int e2 = FN(first_empty)(p, ch);
            if (e2 < 0) { s->depth = d + 1; return TL_SOLUTION; }
            size_t slot;
            if ((s->dead.cap && FN(find)(&s->dead, ch, &slot))
                || (s->guided && FN(find)(&s->guide.memo, ch, &slot)
                    && s->guide.memo.slots[slot * (NW + 1) + NW] == (p->len[R] == 1 ? 0 : TL_ZERO))) {
                s->used[t]--;
            } else {
                d++;
                s->cell[d] = e2;
                s->next[d] = p->cell_start[e2];
                s->found[d] = 0;
            }
            if ((s->max_nodes >= 0 && s->nodes >= s->max_nodes)
                || ((s->nodes & 0xFFF) == 0 && tl_stop(s->sigints, s->deadline))) {
                s->state = 3;
                s->depth = d;
                return TL_LIMIT;
            }
            continue;
        }
        if (!s->found[d]) {
            if (s->dead.cap && s->dead.cap * 2 * (NW + 1) * sizeof(word) < s->mem_limit)
                FN(put)(&s->dead, key, 0);
        }
        if (d == 0) { s->state = 2; s->depth = 0; return TL_EXHAUSTED; }
        if (s->found[d]) s->found[d - 1] = 1;
        d--;
        s->used[p->pl_type[s->chosen[d]]]--;
    }
}
