/* The nonogram engine in plain C: exact line solver, propagation, probing, resumable DFS.
 *
 * Cells are bit masks of what is still possible: CELL_EMPTY (1), CELL_FILLED (2),
 * CELL_UNKNOWN (3); 0 never stays in the grid (it is a contradiction).
 * Lines 0..H-1 are rows (left to right), H..H+W-1 are columns (top to bottom).
 *
 * Changes are recorded on a trail so that probes and search branches are undone by
 * resetting the cells set since a mark (cells only ever go from unknown to known).
 *
 * Line solver: left/right dynamic programming over (blocks placed, prefix length), O(n*k),
 * after the "settle" formulation in Wu, Sun et al., "An efficient approach to solving
 * nonograms", IEEE TCIAIG 2013, and Batenburg & Kosters, "Solving nonograms by combining
 * relaxations", Pattern Recognition 2009.
 * Probing: "fully probing" of every unknown cell both ways (Wu et al.), learning from
 * contradictions and from cells fixed the same way by both assumptions.
 */
#ifndef GRIDSOLVE_NONOGRAM_CORE_H
#define GRIDSOLVE_NONOGRAM_CORE_H

#include <stdint.h>

#define CELL_EMPTY 1
#define CELL_FILLED 2
#define CELL_UNKNOWN 3

enum { NG_EXHAUSTED = 0, NG_SOLUTION = 1, NG_LIMIT = 2, NG_NOMEM = -1 };

/* Optional observer of the solve, for "watch it work" (events never change the result). */
enum {
    EV_LINE = 1,      /* a = line, b = number of cells it fixed (cells in the trail)   */
    EV_PROBE = 2,     /* a = cell, b = value assumed, c = 1 if it led to a contradiction */
    EV_PROBE_FIX = 3, /* a = cell, b = value learned from probing                     */
    EV_GUESS = 4,     /* a = cell, b = value guessed, c = depth                         */
    EV_BACKTRACK = 5, /* a = depth                                                      */
    EV_SOLUTION = 6,
    EV_TRY = 7,       /* a = cell, b = value a probe assumes; its EV_LINEs follow, then
                         EV_PROBE, after which they are undone                          */
};
typedef void (*ng_event_fn)(void *ctx, int kind, int a, int b, int c,
                            const int *cells, int ncells);

typedef struct {
    int mark;     /* trail length before the guess */
    int cell;     /* the cell guessed */
    uint8_t other;/* the value to try second */
    uint8_t stage;/* 0: first value under way, 1: second value under way */
} ng_frame;

/* One remembered line solve, keyed exactly by (line, packed input); lines of <= 64 cells. */
typedef struct {
    uint64_t k0, k1;  /* input cells, 2 bits each */
    uint64_t o0, o1;  /* output cells, 2 bits each */
    int32_t line1;    /* line + 1; 0 = empty slot */
    int32_t ok;       /* 0 = the input is a contradiction */
} ng_cache_entry;

/* A line's log arrangement count for its known masks (NG_ORDER_PROMISE's estimates count every
 * line twice a node, most of them as they were: a line keeps its last NG_MEMO_WAYS counts). */
#define NG_MEMO_WAYS 4
typedef struct {
    uint64_t kf[NG_MEMO_WAYS], ke[NG_MEMO_WAYS];
    double log_count[NG_MEMO_WAYS];
    int next;                   /* the way to overwrite next */
} ng_count_memo;

#define NG_CACHE_BITS 16

/* The compact line cache of bitboard mode, when a line's two masks and its number fit one
 * word (lines of up to 31 cells): a key word and an answer word per entry, 16 bytes instead
 * of 48, so more of it stays in the processor's caches (table of 2^NG_SMALL_BITS entries:
 * 1 MiB; 2^15 and 2^17 measured slower). */
#define NG_SMALL_BITS 16

/* Lines of at most this many cells are solved bit-parallel (positions 0..n fit a word). */
#define NG_BITS_MAX 63

/* Implication probing keeps 2 * ncells^2 ints: only for puzzles up to this many cells. */
#define NG_IMPL_MAX_CELLS 1024

/* Implication probing runs at the root and at search depths up to this; deeper nodes only
 * probe. It costs about as much as probing itself, and what it learns at a deep node serves
 * a small subtree. Measured on 234 taai2011 puzzles (#301-#997, every 3rd; count to 2,
 * 20,000-node cap, the pair of searches): at every depth 87,809 nodes and 55-60 s; up to
 * depth 2 92,835 nodes and 32-39 s; depth 4 104,102 and 39.7 s; root only 127,960 and 49.8 s.
 * On 46 slow ones (30 s cap): 83.3 s at every depth, 67.4 s up to depth 2. */
#define NG_IMPL_MAX_DEPTH 2

/* Branching rules. All pick a cell by its probes: the one whose weaker probe fixed the most
 * cells. They differ in the value tried first and in how ties are broken:
 * LOOSE: the value whose probe fixed fewer cells (the less constrained branch); ties: the
 *        cell whose two probes fixed the most in all.
 * TIGHT: the value whose probe fixed more cells; ties as LOOSE.
 * LIKELY: the value more of the line arrangements hold (row and column counted apart, their
 *        shares multiplied); ties as LOOSE.
 * SURE:  the value as LIKELY; ties: the cell whose likelier value is surest.
 * PROMISE: the value whose probe leaves more solutions by an estimate over the whole grid:
 *        the sum of every line's log arrangement count, less log 2 per unknown cell (the
 *        lines as independent constraints on the cells; Geelen's "promise", ECAI 1992);
 *        ties as LOOSE. Two more probes and a count of every line per node. Measured on all
 *        1000 taai2011 puzzles (count to 2, 30,000-node cap, with the conflict weights): alone
 *        176,617 nodes and 78 s, where LIKELY's team of four took 241,346 and 107 s; on the
 *        70 slowest 105,875 nodes against LIKELY's 159,496 and SURE's 150,967.
 * Each is a complete search; they meet the heavy tail of depth-first search on different
 * puzzles, which is why the engine's Team runs them side by side. */
enum { NG_ORDER_LOOSE = 0, NG_ORDER_TIGHT = 1, NG_ORDER_LIKELY = 2, NG_ORDER_SURE = 3, NG_ORDER_PROMISE = 4 };

/* Conflict weights (after dom/wdeg: Boussemart, Hemery, Lecoutre and Sais, "Boosting
 * systematic search by weighting constraints", ECAI 2004). Whenever a search node fails, the
 * line whose solve found the contradiction gains 1, and so do the row and the column of the
 * cell whose probes both failed (when probing found it). Every rule then picks the cell with
 * the highest (weaker probe's count + 1) * (NG_WEIGHT_BASE + its row's and column's weights),
 * so the search turns to where it keeps failing and refutes a wrong guess with a smaller tree.
 * The weights live as long as the search (restarts keep them). Measured on 234 taai2011
 * puzzles (#301-#997, every 3rd; count to 2, 20,000-node cap), nodes without -> with:
 * LOOSE 238,166 -> 125,898, LIKELY 182,094 -> 72,550, SURE 155,408 -> 83,739; the team of four
 * 65,992 -> 55,466; on the 70 slowest taai2011 puzzles (30,000-node cap) the team 310,446 ->
 * 155,536, none capped against 5. Base 3 and 10 measured like 5 (LIKELY 73,513, 73,428), 30
 * worse (88,511); only the failing line (no cell) 78,797; ageing the weights (each bump
 * 1/0.95 of the last) 194,024. */
#define NG_WEIGHT_BASE 5

/* NG_ORDER_SURE keeps two floats per cell: only up to this many cells (else it acts as LIKELY) */
#define NG_SURE_MAX_CELLS (1 << 22)

typedef struct ng_solver {
    int width, height, nlines, ncells;
    int *line_off, *line_step, *line_len; /* cell index of line l, position i: off + i*step */
    int *clue_off, *clue_cnt, *clues;     /* flattened clues */
    int max_len, max_k;

    uint8_t *cells;
    int *cell_row, *cell_col;             /* row and column of each cell */
    int *trail, trail_len;
    int *queue, qhead, qcount; uint8_t *inq;

    /* line solver scratch */
    uint8_t *lin, *lout, *fwd, *bwd;
    int *pe, *pf, *diff;

    /* probing scratch */
    uint8_t *pval; uint32_t *pstamp; uint32_t stamp;
    int *common;
    int *score_a, *score_b; /* cells fixed when probing filled / empty */

    /* bitboards, when every line has at most NG_BITS_MAX cells: bit i of lf[l] / le[l] is
     * set when cell i of line l is known filled / known empty */
    int bits;
    uint64_t *lf, *le;
    uint64_t *bfw, *bbw, *brun;  /* bit line solver scratch: max_k + 1 words each */

    /* line cache (exact keys, direct mapped) */
    ng_cache_entry *cache;
    uint64_t *small;        /* or the compact cache: (key, answer) word pairs */
    int small_shift;        /* bit position of the line number in a compact key (2 * max_len) */
    long long cache_hits;

    /* probe records: a probe of cell c is still valid while no line it solved has changed
     * (a set or an undo stamps a line): then probing c again would give the same result */
    int use_records, fp_words;
    int in_probe;
    uint64_t *fp_cur, *fp;          /* lines solved by the probe under way / per cell */
    uint64_t clock, *line_time, *probe_time;
    uint8_t *recorded;              /* cell c has a record */

    /* implications kept from probing (see ng_probe_implied): impl[lit * ncells ...] lists the
     * literals (2 * cell + filled) that assuming lit fixed; rev lists them backwards */
    int use_impl;
    int *impl, *impl_len, *rev, *rev_off;
    uint8_t *impl_kept;             /* cell c's last probe kept its implications (probes
                                     * below NG_IMPL_MAX_DEPTH do not: nothing reads them) */
    long long implied_fixes;

    /* search */
    ng_frame *stack; int depth, stack_cap;
    int state;
    int unknown;            /* number of unknown cells */
    uint8_t *root;          /* grid after propagation and probing at the root */
    int root_done;
    int probing;            /* 0: propagation only, 1: probe at every node */
    int root_trail;         /* trail length at the settled root */
    int root_none;          /* the root itself is a contradiction */
    uint64_t rng;           /* 0: deterministic branching; else xorshift state */
    uint8_t *guide;         /* when set: the value to try first at each cell */
    int order;              /* the branching rule: one of NG_ORDER_* */
    double *cnt_fw, *cnt_bw, *cnt_acc, *cnt_line; /* line arrangement counting scratch */
    float *likely;          /* NG_ORDER_SURE: per cell, the filled share of its row's
                             * arrangements, then of its column's (2 * ncells) */
    uint64_t *likely_key;   /* bitboard mode: per line, the known masks its shares are of */
    ng_count_memo *count_memo; /* bitboard mode, NG_ORDER_PROMISE: per line, NG_MEMO_WAYS
                                * (known masks, log count) of lines counted lately */

    /* limits and counters */
    long long nodes, max_nodes, line_solves, probes, max_depth;
    double deadline;        /* absolute monotonic seconds, 0 = none */
    long long check_mask;   /* read the clock when (steps & check_mask) == 0 */
    int aborted;

    /* conflict weights (NG_WEIGHT_BASE): per line; what the last contradiction blamed */
    int weighted;            /* 0: the weights stay 0 (the rules as they were before them) */
    long long *weight;
    int fail_line, fail_cell;  /* -1: none */

    /* nogoods recorded at restarts (reduced nld-nogoods, Lecoutre, Sais, Tabary and Vidal,
     * "Recording and minimizing nogoods from restarts", JSAT 2007): each is a set of
     * literals (2 * cell + filled) that cannot all hold; two watched literals each */
    int learn;               /* record them at restarts */
    int *ngd_lits, ngd_used, ngd_cap;
    int *ngd_off, *ngd_n, n_ngd, ngd_max;
    int **watch, *wlen, *wcap;
    int ngd_head;            /* trail position up to which the watches were visited */
    long long ngd_units, ngd_conflicts;

    ng_event_fn on_event; void *event_ctx;
} ng_solver;

#endif
