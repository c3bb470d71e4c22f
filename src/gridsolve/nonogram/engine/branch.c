/* Branching: the cell to guess (the one whose weaker probe fixed the most cells, times its
 * lines' conflict weights) and the value to try first (by the rule NG_ORDER_*), and the
 * conflict weights a failed node adds (dom/wdeg, Boussemart et al., ECAI 2004).
 * Part of the engine's one compilation unit (_core.c includes the parts in core.h's order). */
#include <stdlib.h>

#include "core.h"

/* NG_ORDER_PROMISE: the value whose probe keeps the larger estimate (0: equal). */
static uint8_t ng_promise_value(ng_solver *s, int c)
{
    double est[2];
    for (int u = 0; u < 2; u++) {
        const int mark = s->trail_len;
        s->rec.in_probe = 1;
        const int ok = ng_try(s, c, u ? CELL_FILLED : CELL_EMPTY);
        est[u] = ok ? ng_log_estimate(s) : -1e300;
        ng_undo(s, mark);
        s->rec.in_probe = 0;
    }
    if (est[0] == est[1]) return 0;
    return est[1] > est[0] ? CELL_FILLED : CELL_EMPTY;
}

/* The shares of the row and the column arrangements in which a cell is filled, combined as
 * independent evidence: P(filled) = pr pc / (pr pc + (1 - pr)(1 - pc)); -1 if unknown. */
static double ng_combine(double pr, double pc)
{
    const double f = pr * pc, e = (1.0 - pr) * (1.0 - pc);
    return f + e > 0.0 ? f / (f + e) : -1.0;
}

/* NG_ORDER_SURE: every line's shares into s->likely (rows, then columns). 0 if unavailable. */
static int ng_all_likely(ng_solver *s)
{
    const int W = s->pz.width, H = s->pz.height, C = s->pz.ncells;
    if (C > NG_SURE_MAX_CELLS) return 0;
    if (!s->likely && !(s->likely = eng_malloc(2 * (size_t)C, sizeof(float)))) return 0;
    if (s->bits && !s->likely_key) {
        /* no line has both masks full: this key matches nothing until a line is counted */
        if (!(s->likely_key = eng_malloc(2 * (size_t)s->pz.nlines, sizeof(uint64_t)))) return 0;
        for (int l = 0; l < 2 * s->pz.nlines; l++) s->likely_key[l] = ~0ULL;
    }
    int ok = 1;
    for (int l = 0; l < s->pz.nlines && ok; l++) {
        /* a line whose known cells are as when it was last counted keeps its shares */
        if (s->bits && s->likely_key[2 * l] == s->lf[l] && s->likely_key[2 * l + 1] == s->le[l])
            continue;
        const double *line = ng_line_likely(s, l);
        ok = line != NULL;
        if (!ok) break;
        if (l < H)
            for (int i = 0; i < W; i++) s->likely[l * W + i] = (float)line[i];
        else
            for (int i = 0; i < H; i++) s->likely[C + i * W + (l - H)] = (float)line[i];
        if (s->bits) { s->likely_key[2 * l] = s->lf[l]; s->likely_key[2 * l + 1] = s->le[l]; }
    }
    if (!ok && s->bits)  /* a line that could not be counted: count every line next time */
        for (int l = 0; l < 2 * s->pz.nlines; l++) s->likely_key[l] = ~0ULL;
    return ok;
}

/* The value to try first at cell c by the line counts (LIKELY and SURE), or 0 when they
 * cannot tell (equal, or the counts are unavailable). */
static uint8_t ng_likely_value(ng_solver *s, int c, int have_all)
{
    double pr, pc;
    if (have_all) {
        pr = s->likely[c];
        pc = s->likely[s->pz.ncells + c];
    } else {
        const int row = s->pz.cell_row[c], col = s->pz.cell_col[c];
        const double *line = ng_line_likely(s, row);
        if (!line) return 0;
        pr = line[col];
        if (!(line = ng_line_likely(s, s->pz.height + col))) return 0;
        pc = line[row];
    }
    const double p = ng_combine(pr, pc);
    if (p < 0.0 || p == 0.5) return 0;
    return p > 0.5 ? CELL_FILLED : CELL_EMPTY;
}

/* Branch on the unknown cell whose weaker probe fixed the most cells, times its lines'
 * conflict weights (NG_WEIGHT_BASE); ties and the value tried first follow s->order (see
 * NG_ORDER_* in core.h; docs/decisions/branching-rules.md has the rules' measurements). */
static int ng_choose(ng_solver *s, uint8_t *first)
{
    if (s->order == NG_ORDER_BP && !s->guide) {
        const int c = ng_bp_choose(s, first);
        if (c >= 0) return c;
    }
    const int sure = s->order == NG_ORDER_SURE && !s->rng && !s->guide && ng_all_likely(s);
    int best = -1;
    double best_score = -1.0, best_tie = -1.0;
    long long best_sum = -1;
    for (int c = 0; c < s->pz.ncells; c++) {
        if (s->cells[c] != CELL_UNKNOWN) continue;
        const long long a = s->score_a[c], b = s->score_b[c];
        const long long w = NG_WEIGHT_BASE + s->wt.line[s->pz.cell_row[c]]
                            + s->wt.line[s->pz.height + s->pz.cell_col[c]];
        double sc = (double)((a < b ? a : b) + 1) * (double)w;
        if (s->rng) { /* a restart's randomised run: scores jitter by up to 20% */
            s->rng ^= s->rng << 13; s->rng ^= s->rng >> 7; s->rng ^= s->rng << 17;
            sc *= (1024 + (double)(s->rng % 205)) / 1024.0;
        }
        if (sc < best_score) continue;
        const long long sum = sure ? 0 : a + b;
        if (sc == best_score && sum < best_sum) continue;
        double tie = 0.0;
        if (sure) {
            const double p = ng_combine(s->likely[c], s->likely[s->pz.ncells + c]);
            tie = p < 0.0 ? 0.0 : p > 0.5 ? p : 1.0 - p;
        }
        if (sc > best_score || sum > best_sum || tie > best_tie) {
            best_score = sc; best_sum = sum; best_tie = tie; best = c;
        }
    }
    if (best < 0) return best;
    if (s->guide) {
        *first = s->guide[best];
        return best;
    }
    uint8_t v = 0;
    if (s->order == NG_ORDER_LIKELY || s->order == NG_ORDER_SURE) v = ng_likely_value(s, best, sure);
    if (s->order == NG_ORDER_PROMISE) v = ng_promise_value(s, best);
    if (!v) {
        const int fewer_if_filled = s->score_a[best] < s->score_b[best];
        v = (fewer_if_filled ^ (s->order == NG_ORDER_TIGHT)) ? CELL_FILLED : CELL_EMPTY;
    }
    *first = v;
    return best;
}

/* A search node failed: weigh the lines its contradiction blames (see NG_WEIGHT_BASE). */
static void ng_blame(ng_solver *s)
{
    if (s->lim.aborted || !s->wt.on) return;
    if (s->wt.fail_line >= 0) s->wt.line[s->wt.fail_line]++;
    if (s->wt.fail_cell >= 0) {
        s->wt.line[s->pz.cell_row[s->wt.fail_cell]]++;
        s->wt.line[s->pz.height + s->pz.cell_col[s->wt.fail_cell]]++;
    }
}
