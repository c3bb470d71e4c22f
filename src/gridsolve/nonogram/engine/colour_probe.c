/* Probing every colour of every unknown cell (the many-valued form of Wu et al.'s "fully
 * probing", IEEE TCIAIG 2013): a contradiction removes the colour, and each cell keeps the
 * union of what the surviving assumptions left it. cg_settle brings a node to a fixpoint.
 * Part of the colour engine's one compilation unit (_colour.c includes the parts in order). */
#include <string.h>

#include "colour.h"

/* Count, for each cell the probe under way changed, its mask after the probe into acc/hits:
 * acc is the union over the surviving probes of one cell, hits how many of them touched it. */
static int cg_gather(cg_solver *s, int mark, int ntouched)
{
    if (++s->tmp.probe_stamp == 0) {
        memset(s->tmp.seen, 0, sizeof(uint32_t) * s->pz.ncells);
        s->tmp.probe_stamp = 1;
    }
    for (int t = mark; t < s->trail_len; t++) {
        const int x = s->trail[t].cell;
        if (s->tmp.seen[x] == s->tmp.probe_stamp) continue;
        s->tmp.seen[x] = s->tmp.probe_stamp;
        if (s->tmp.cseen[x] != s->tmp.cell_stamp) {
            s->tmp.cseen[x] = s->tmp.cell_stamp;
            s->tmp.acc[x] = s->cells[x];
            s->tmp.hits[x] = 1;
            s->tmp.touched[ntouched++] = x;
        } else {
            s->tmp.acc[x] |= s->cells[x];
            s->tmp.hits[x]++;
        }
    }
    return ntouched;
}

/* Append what assuming colour bit of cell c narrowed (the trail after mark, each cell once,
 * with its mask now; c itself left out) to *buf as (c * ncolours + colour, n, n pairs (cell,
 * mask)): "c = colour implies cell in mask". 0 when that would pass most uint32 in all or
 * memory runs out: the caller records no more, and what was kept stays true. */
static int cg_append_implied(cg_solver *s, uint32_t **buf, size_t *used, size_t *cap,
                             size_t most, int c, cg_mask bit, int mark)
{
    cg_implied *im = &s->im;
    const size_t need = *used + 2 * (size_t)(s->trail_len - mark) + 2;  /* every trail cell */
    uint32_t *grown = need > most ? NULL : eng_reserve(*buf, cap, need, sizeof(uint32_t), 4096);
    if (!grown) return 0;
    *buf = grown;
    if (!im->seen && !(im->seen = calloc((size_t)s->pz.ncells, sizeof(uint32_t)))) return 0;
    if (++im->stamp == 0) { memset(im->seen, 0, sizeof(uint32_t) * s->pz.ncells); im->stamp = 1; }
    uint32_t *head = *buf + *used, *dst = head + 2;
    for (int t = mark; t < s->trail_len; t++) {
        const int x = s->trail[t].cell;
        if (x == c || im->seen[x] == im->stamp) continue;
        im->seen[x] = im->stamp;
        *dst++ = (uint32_t)x;
        *dst++ = s->cells[x];
    }
    const size_t n = (size_t)(dst - head - 2) / 2;
    if (!n) return 1;
    head[0] = (uint32_t)c * (uint32_t)s->pz.ncolours + (uint32_t)__builtin_ctz(bit);
    head[1] = (uint32_t)n;
    *used += 2 * n + 2;
    return 1;
}

/* At the root (before the search starts), keep what a probe narrowed for a SAT hand-over
 * (Search.root_implications), up to CG_ROOT_IMPL_MAX. */
static void cg_keep_root_implied(cg_solver *s, int c, cg_mask bit, int mark)
{
    if (!s->keep_root_impl || s->state != CS_START || s->trail_len - mark < 2) return;
    if (!cg_append_implied(s, &s->root_impl, &s->root_impl_used, &s->root_impl_cap,
                           CG_ROOT_IMPL_MAX, c, bit, mark))
        s->keep_root_impl = 0;
}

/* Does implication probing run at this node (cg_implied)? */
static int cg_implied_here(const cg_solver *s)
{
    return s->im.on && s->probing && s->depth <= CG_IMPL_MAX_DEPTH;
}

/* At a node where implication probing runs, keep what a probe narrowed for it (cg_implied),
 * up to CG_IMPL_MAX. */
static void cg_keep_implied(cg_solver *s, int c, cg_mask bit, int mark)
{
    cg_implied *im = &s->im;
    if (im->full || s->trail_len - mark < 2) return;
    if (!cg_append_implied(s, &im->rec, &im->used, &im->cap, CG_IMPL_MAX, c, bit, mark))
        im->full = 1;
}

/* Probe cell c: assume each colour it may take, propagate, undo. Narrow every cell that all
 * surviving assumptions narrowed to the union of what they left it (c itself to the colours
 * that survived). Returns 0 on contradiction, 1 if nothing was learned, 2 if something was
 * (and propagated). On a limit returns 1 with s->lim.aborted set. */
static int cg_probe_cell(cg_solver *s, int c)
{
    const cg_mask m = s->cells[c];
    const int mark = s->trail_len;
    if (++s->tmp.cell_stamp == 0) {
        memset(s->tmp.cseen, 0, sizeof(uint32_t) * s->pz.ncells);
        s->tmp.cell_stamp = 1;
    }
    int ntouched = 0, alive = 0;
    long long least = -1, total = 0;
    eng_probe_begin(&s->rec);
    s->rec.in_probe = 1;
    for (cg_mask rest = m; rest; rest &= rest - 1) {
        const cg_mask bit = rest & (~rest + 1);
        s->lim.probes++;
        const int colour = __builtin_ctz(bit);
        if (s->obs.fn) s->obs.fn(s->obs.ctx, CG_EV_TRY, c, colour, 0, NULL, 0);
        int ok = cg_set(s, c, bit) && cg_propagate(s);
        if (s->lim.aborted) { cg_undo(s, mark); s->rec.in_probe = 0; return 1; }
        if (s->obs.fn) s->obs.fn(s->obs.ctx, CG_EV_PROBE, c, colour, !ok, NULL, 0);
        if (ok) {
            const long long size = s->trail_len - mark;
            alive++;
            total += size;
            if (least < 0 || size < least) { least = size; s->first[c] = bit; }
            ntouched = cg_gather(s, mark, ntouched);
            if (cg_implied_here(s)) cg_keep_implied(s, c, bit, mark);
            cg_keep_root_implied(s, c, bit, mark);
        }
        cg_undo(s, mark);
    }
    s->rec.in_probe = 0;
    if (!alive) { s->fail_cell = c; return 0; }
    s->least[c] = (int)least;
    s->score[c] = (long long)(CG_MAX_COLOURS - alive) * 1000000000000LL + least * 1000000 + total;
    int learned = 0;
    for (int t = 0; t < ntouched; t++) {
        const int x = s->tmp.touched[t];
        if (s->tmp.hits[x] != alive) continue;
        const cg_mask nm = s->cells[x] & s->tmp.acc[x];
        if (nm == s->cells[x]) continue;
        if (!nm) { s->fail_cell = x; return 0; }
        if (s->obs.fn) s->obs.fn(s->obs.ctx, CG_EV_PROBE_FIX, x, cg_index(nm), 0, NULL, 0);
        if (!cg_set(s, x, nm)) return 1;
        learned = 1;
    }
    if (learned && !cg_propagate(s)) return 0;
    if (s->lim.aborted) return 1;
    /* what was learned lies inside every surviving assumption's result: they stay as they were */
    eng_record(&s->rec, c);
    return learned ? 2 : 1;
}

/* Probe every unknown cell until a whole pass learns nothing; with all, the first pass probes
 * every open cell, however valid its last probe's record (implication probing needs each
 * one's implications at this node). Returns 0 on contradiction, 1 otherwise (also when
 * stopped by a limit). */
static int cg_probe(cg_solver *s, int all)
{
    int changed = 1;
    while (changed && s->unknown) {
        changed = 0;
        for (int c = 0; c < s->pz.ncells && s->unknown; c++) {
            if (cg_single(s->cells[c]) || (!all && eng_record_valid(&s->rec, c))) continue;
            if ((s->lim.probes & s->lim.check_mask) == 0 && eng_out_of_time(&s->lim)) return 1;
            const int r = cg_probe_cell(s, c);
            if (r == 0) return 0;
            if (s->lim.aborted) return 1;
            if (r == 2) changed = 1;
        }
        all = 0;
    }
    return 1;
}

/* Implication probing at a settled node (cg_implied): index the node's records by the cell
 * they narrow, then assume each colour of each open cell, propagating with the
 * contrapositives applied ("x = a implies y in M": y left no colour of M removes a from x); a
 * contradiction removes the colour. This sees case splits that probing needs a search node
 * for. Returns 0 on contradiction, 1 when nothing was learned, 2 when colours were removed. */
static int cg_probe_implied(cg_solver *s)
{
    cg_implied *im = &s->im;
    const int C = s->pz.ncells, K = s->pz.ncolours;
    size_t pairs = 0;
    memset(im->off, 0, sizeof(int) * ((size_t)C + 1));
    for (size_t at = 0; at < im->used; at += 2 + 2 * (size_t)im->rec[at + 1]) {
        const uint32_t n = im->rec[at + 1];
        if (cg_single(s->cells[im->rec[at] / (uint32_t)K])) continue;
        for (uint32_t j = 0; j < n; j++) {
            const uint32_t y = im->rec[at + 2 + 2 * j];
            if (!cg_single(s->cells[y])) { im->off[y + 1]++; pairs++; }
        }
    }
    if (!pairs) return 1;
    if (pairs > im->rev_cap) {
        uint32_t *bigger = eng_realloc(im->rev, 2 * pairs, sizeof(uint32_t));
        if (!bigger) return 1;  /* (no room: nothing learned, nothing lost) */
        im->rev = bigger;
        im->rev_cap = pairs;
    }
    for (int y = 0; y < C; y++) im->off[y + 1] += im->off[y];
    for (size_t at = 0; at < im->used; at += 2 + 2 * (size_t)im->rec[at + 1]) {
        const uint32_t lit = im->rec[at], n = im->rec[at + 1];
        if (cg_single(s->cells[lit / (uint32_t)K])) continue;
        for (uint32_t j = 0; j < n; j++) {
            const uint32_t y = im->rec[at + 2 + 2 * j];
            if (cg_single(s->cells[y])) continue;
            const size_t r = (size_t)im->off[y]++;
            im->rev[2 * r] = lit;
            im->rev[2 * r + 1] = im->rec[at + 3 + 2 * j];
        }
    }
    for (int y = C; y > 0; y--) im->off[y] = im->off[y - 1];  /* off[y] was moved to y's end */
    im->off[0] = 0;
    int learned = 0;
    for (int z = 0; z < C && s->unknown; z++) {
        for (cg_mask rest = s->cells[z]; rest && !cg_single(s->cells[z]); rest &= rest - 1) {
            const cg_mask bit = rest & (~rest + 1);
            if (!(s->cells[z] & bit)) continue;
            if ((s->lim.probes & s->lim.check_mask) == 0 && eng_out_of_time(&s->lim)) return 1;
            const int mark = s->trail_len;
            s->rec.in_probe = 1;
            s->lim.probes++;
            int ok = cg_set(s, z, bit) && cg_propagate(s);
            for (int t = mark; ok && t < s->trail_len; t++) {
                const int y = s->trail[t].cell;
                for (int r = im->off[y]; ok && r < im->off[y + 1]; r++) {
                    if (s->cells[y] & im->rev[2 * (size_t)r + 1]) continue;
                    const int x = (int)(im->rev[2 * (size_t)r] / (uint32_t)K);
                    const cg_mask a = (cg_mask)1 << (im->rev[2 * (size_t)r] % (uint32_t)K);
                    if (!(s->cells[x] & a)) continue;
                    const cg_mask left = s->cells[x] & ~a;
                    if (!left) ok = 0;
                    else if (!cg_set(s, x, left)) ok = 0;
                }
                if (ok && s->q.count) ok = cg_propagate(s);
            }
            if (s->lim.aborted) { cg_undo(s, mark); s->rec.in_probe = 0; return 1; }
            eng_clear_queue(&s->q);
            cg_undo(s, mark);
            s->rec.in_probe = 0;
            if (ok) continue;
            const cg_mask left = s->cells[z] & ~bit;
            if (!left) { s->fail_cell = z; return 0; }
            im->fixes++;
            if (s->obs.fn) s->obs.fn(s->obs.ctx, CG_EV_PROBE_FIX, z, cg_index(left), 0, NULL, 0);
            if (!cg_set(s, z, left) || !cg_propagate(s)) return s->lim.aborted ? 1 : 0;
            learned = 1;
        }
    }
    return learned ? 2 : 1;
}

/* Propagate the queue, then probe if enabled. 0 on contradiction. */
static int cg_settle(cg_solver *s)
{
    s->fail_line = s->fail_cell = -1;
    if (!cg_propagate(s)) return 0;
    if (s->lim.aborted) return 1;
    if (!s->unknown || !(s->probing || (s->probe_open > 0 && s->unknown <= s->probe_open)))
        return 1;
    const int implied = cg_implied_here(s);
    if (implied) { s->im.used = 0; s->im.full = 0; }
    if (!cg_probe(s, implied)) return 0;
    while (implied && s->unknown && !s->lim.aborted) {
        const int r = cg_probe_implied(s);
        if (r != 2) return r;
        if (!cg_probe(s, 0)) return 0;
    }
    return 1;
}
