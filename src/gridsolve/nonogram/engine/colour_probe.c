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

/* At the root (before the search starts), append what assuming colour bit of cell c narrowed
 * (the trail after mark, each cell once, with its mask now; c itself left out) to the root's
 * implications: (c * ncolours + colour, n, n pairs (cell, mask)). They are optional: past
 * CG_ROOT_IMPL_MAX in all, or when memory runs out, recording stops and what was kept stays
 * valid. Call after cg_gather, which stamped each cell of the trail with probe_stamp. */
static void cg_keep_root_implied(cg_solver *s, int c, cg_mask bit, int mark)
{
    if (!s->keep_root_impl || s->state != CS_START || s->trail_len - mark < 2) return;
    /* room for every cell of the trail; the record takes those it holds once */
    const size_t most = s->root_impl_used + 2 * (size_t)(s->trail_len - mark) + 2;
    if (most > CG_ROOT_IMPL_MAX) { s->keep_root_impl = 0; return; }
    uint32_t *grown = eng_reserve(s->root_impl, &s->root_impl_cap, most, sizeof(uint32_t), 4096);
    if (!grown) { s->keep_root_impl = 0; return; }
    s->root_impl = grown;
    uint32_t *head = s->root_impl + s->root_impl_used, *dst = head + 2;
    const uint32_t stamp = s->tmp.probe_stamp;
    for (int t = mark; t < s->trail_len; t++) {
        const int x = s->trail[t].cell;
        if (x == c || s->tmp.seen[x] != stamp) continue;
        s->tmp.seen[x] = stamp - 1;  /* taken (gather's next probe stamps anew) */
        *dst++ = (uint32_t)x;
        *dst++ = s->cells[x];
    }
    const size_t n = (size_t)(dst - head - 2) / 2;
    if (!n) return;
    head[0] = (uint32_t)c * (uint32_t)s->pz.ncolours + (uint32_t)__builtin_ctz(bit);
    head[1] = (uint32_t)n;
    s->root_impl_used += 2 * n + 2;
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

/* Probe every unknown cell until a whole pass learns nothing.
 * Returns 0 on contradiction, 1 otherwise (also when stopped by a limit). */
static int cg_probe(cg_solver *s)
{
    int changed = 1;
    while (changed && s->unknown) {
        changed = 0;
        for (int c = 0; c < s->pz.ncells && s->unknown; c++) {
            if (cg_single(s->cells[c]) || eng_record_valid(&s->rec, c)) continue;
            if ((s->lim.probes & s->lim.check_mask) == 0 && eng_out_of_time(&s->lim)) return 1;
            const int r = cg_probe_cell(s, c);
            if (r == 0) return 0;
            if (s->lim.aborted) return 1;
            if (r == 2) changed = 1;
        }
    }
    return 1;
}

/* Propagate the queue, then probe if enabled. 0 on contradiction. */
static int cg_settle(cg_solver *s)
{
    s->fail_line = s->fail_cell = -1;
    if (!cg_propagate(s)) return 0;
    if (s->lim.aborted) return 1;
    if (s->unknown && (s->probing || (s->probe_open > 0 && s->unknown <= s->probe_open)))
        return cg_probe(s);
    return 1;
}
