/* The black-and-white nonogram engine in plain C: exact line solver, propagation, probing,
 * resumable depth-first search. _core.c wraps it for Python and includes its parts as one
 * compilation unit (so the hot calls between them inline):
 *
 *   line.c       the line solver: left/right dynamic programming over a line of cell masks
 *   line_long.c  the same in bounded memory, for long lines with many blocks
 *   line_bits.c  the same on machine words, for lines of up to NG_BITS_MAX cells
 *   setup.c      a solver for one puzzle: ng_new, ng_free
 *   trail.c      setting cells and undoing them (the trail), and the queue of lines to solve
 *   line_cache.c an exact-key cache of line results
 *   nogood.c     nogoods recorded at restarts, watched literals
 *   propagate.c  solving queued lines to a fixpoint
 *   probe.c      probing and implication probing, settling a node
 *   count.c      counting a line's arrangements (for the branching rules)
 *   bp.c         belief propagation over the lines, for the bp branching rule
 *   branch.c     choosing the cell and the value to branch on, conflict weights
 *   search.c     the resumable search: ng_next, ng_restart
 *   (alloc.h, limits.h, queue.h and records.h are shared with the colour engine.)
 *
 * Vocabulary. Cells are bit masks of what is still possible: CELL_EMPTY (1), CELL_FILLED (2),
 * CELL_UNKNOWN (3); 0 never stays in the grid (it is a contradiction). Lines 0..H-1 are rows
 * (left to right), H..H+W-1 are columns (top to bottom). A literal is 2 * cell + 1 for
 * "filled", 2 * cell for "empty". Changes are recorded on a trail, so probes and search
 * branches are undone by resetting the cells set since a mark (cells only ever go from
 * unknown to known).
 *
 * Data. ng_puzzle is the fixed puzzle (geometry and clues), made once; ng_scratch is working
 * space of the line solvers and the probes, meaningless between calls; everything else in
 * ng_solver is the search state, changed in place by sets and undone through the trail.
 *
 * Choices of constants are recorded with their measurements in docs/decisions/.
 */
#ifndef GRIDSOLVE_NONOGRAM_CORE_H
#define GRIDSOLVE_NONOGRAM_CORE_H

#include <stdint.h>

#include "alloc.h"
#include "pool.h"
#include "limits.h"
#include "queue.h"
#include "records.h"

#define CELL_EMPTY 1
#define CELL_FILLED 2
#define CELL_UNKNOWN 3

enum { NG_EXHAUSTED = 0, NG_SOLUTION = 1, NG_LIMIT = 2, NG_NOMEM = -1 };

/* Optional observer of the solve, for "watch it work" (events never change the result). */
enum {
    EV_LINE = 1,      /* a = line, b = number of cells it fixed (cells in the trail;
                         Python's callback gets each as 2 * cell + 1 if filled, + 0 if empty) */
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

/* States of the resumable search. */
enum { ST_START = 0, ST_EXPAND = 1, ST_BACKTRACK = 2, ST_DONE = 3, ST_LIMIT = 4 };

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

/* The line cache: 2^NG_CACHE_BITS entries of ng_cache_entry. */
#define NG_CACHE_BITS 16

/* The compact line cache of bitboard mode, when a line's two masks and its number fit one
 * word (lines of up to 31 cells): a key word and an answer word per entry, 16 bytes instead
 * of 48, so more of it stays in the processor's caches; 2^NG_SMALL_BITS entries (1 MiB;
 * docs/decisions/line-cache-size.md). */
#define NG_SMALL_BITS 16

/* Lines whose (blocks + 1) x (cells + 1) tables pass this many bytes are solved by
 * line_long.c in bounded memory, the rest by line.c (whose tables are allocated once, for the
 * largest such line). */
#define NG_DENSE_MAX_CELLS ((size_t)1 << 22)

/* The arrangement counts of the likely/sure/promise rules keep (blocks + 1) x (cells + 1)
 * doubles a table: above this many cells they are not counted (the rules fall back to the
 * probes' counts). */
#define NG_COUNT_MAX_CELLS ((size_t)1 << 22)

/* Sizes the engine takes (as the Python binding checks them): cell and line indices fit an
 * int, and every product that can pass 2^31 (table offsets, allocation sizes) is a size_t. */
#define NG_MAX_SIDE 100000
#define NG_MAX_CELLS 100000000

/* Lines of at most this many cells are solved bit-parallel (positions 0..n fit a word). */
#define NG_BITS_MAX 63

/* Where the compiler has 128-bit integers, lines of up to NG_BITS2_MAX cells in a puzzle too
 * wide for bitboards are solved bit-parallel on two words as well (line_bits.c). */
#ifdef __SIZEOF_INT128__
typedef unsigned __int128 ng_u128;
#define NG_BITS2_MAX 127
/* One remembered two-word line solve, keyed exactly by (line, its known filled and known
 * empty cells); 2^NG_CACHE2_BITS entries, for puzzles whose longest line is 64..NG_BITS2_MAX
 * cells. */
typedef struct {
    ng_u128 kf, ke, of, oe;
    int32_t line1;    /* line + 1; 0 = empty slot */
    int32_t ok;       /* 0 = the input is a contradiction */
} ng_cache2_entry;
#define NG_CACHE2_BITS 15
#else
#define NG_BITS2_MAX 0
#endif

/* Implication probing keeps 2 * ncells^2 ints: only for puzzles up to this many cells. */
#define NG_IMPL_MAX_CELLS 1024

/* Probes at the root keep what they fixed (ng_keep_root_implied, read by a SAT hand-over as
 * binary clauses) up to this many ints in all (2 MiB; Gettys, 99x59, takes 388,766). */
#define NG_ROOT_IMPL_MAX ((size_t)1 << 19)

/* Implication probing runs at the root and at search depths up to this; deeper nodes only
 * probe: it costs about as much as probing itself, and what it learns at a deep node serves
 * a small subtree (docs/decisions/implication-probing-depth.md). */
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
 *        ties as LOOSE. Two more probes and a count of every line per node.
 * BP:    not by the probes: the cell whose filled probability by belief propagation over the
 *        lines (bp.c) is surest, its likelier value first (the team's dive, decision 0028).
 * Each is a complete search; they meet the heavy tail of depth-first search on different
 * puzzles, which is why the engine's Team runs them side by side
 * (docs/decisions/branching-rules.md). */
enum { NG_ORDER_LOOSE = 0, NG_ORDER_TIGHT = 1, NG_ORDER_LIKELY = 2, NG_ORDER_SURE = 3, NG_ORDER_PROMISE = 4,
       NG_ORDER_BP = 5 };

/* Conflict weights (after dom/wdeg: Boussemart, Hemery, Lecoutre and Sais, "Boosting
 * systematic search by weighting constraints", ECAI 2004). Whenever a search node fails, the
 * line whose solve found the contradiction gains 1, and so do the row and the column of the
 * cell whose probes both failed (when probing found it). Every rule then picks the cell with
 * the highest (weaker probe's count + 1) * (NG_WEIGHT_BASE + its row's and column's weights),
 * so the search turns to where it keeps failing and refutes a wrong guess with a smaller tree.
 * The weights live as long as the search (restarts keep them)
 * (docs/decisions/conflict-weights.md). */
#define NG_WEIGHT_BASE 5

/* NG_ORDER_SURE keeps two floats per cell: only up to this many cells (else it acts as LIKELY) */
#define NG_SURE_MAX_CELLS (1 << 22)

/* The fixed puzzle: made by ng_new, never changed. */
typedef struct {
    int width, height, nlines, ncells;
    int *line_off, *line_step, *line_len; /* cell index of line l, position i: off + i*step */
    int *clue_off, *clue_cnt, *clues;     /* flattened clues */
    int max_len, max_k;
    int *cell_row, *cell_col;             /* row and column of each cell */
} ng_puzzle;

/* Working space, sized for the longest line and clue; holds nothing between calls. */
typedef struct {
    uint8_t *lin, *lout, *fwd, *bwd;      /* byte line solver */
    int *pe, *pf, *diff;
    uint64_t *bfw, *bbw, *brun;           /* bit line solver: max_k + 1 words each */
    void *b2;                             /* two-word bit solver: 3 * (max_k + 1) ng_u128 */
    double *cnt_fw, *cnt_bw, *cnt_acc, *cnt_line; /* line arrangement counting */
    uint8_t *pval; uint32_t *pstamp; uint32_t stamp; /* the probe remembered (ng_remember) */
    int *common;                          /* cells both probes of a cell fixed alike */
} ng_scratch;

/* The solver's parts by job; each is owned by the file named (core.h says what each file
 * does). The search state proper stays in ng_solver itself. */

/* the line cache (line_cache.c): exact keys, direct mapped */
typedef struct {
    ng_cache_entry *cache;
#if NG_BITS2_MAX
    ng_cache2_entry *cache2;  /* two-word lines' */
#endif
    uint64_t *small;        /* or the compact cache: (key, answer) word pairs */
    int small_shift;        /* bit position of the line number in a compact key (2 * max_len) */
    long long hits;
} ng_line_cache;

/* implications kept from probing (probe.c, ng_probe_implied): lits[lit * ncells ...] lists the
 * literals that assuming lit fixed; rev lists them backwards */
typedef struct {
    int on;
    int *lits, *len, *rev, *rev_off;
    uint8_t *kept;          /* cell c's last probe kept its implications (probes below
                             * NG_IMPL_MAX_DEPTH do not: nothing reads them) */
    long long fixes;
    /* what each consistent probe at depth 0 fixed, as records (literal, count, literals...),
     * while keep_root (ng_keep_root_implied); every record is a consequence of the clues
     * (depth 0 holds no guess), read by Search.root_implications */
    int keep_root;
    int *root;
    size_t root_used, root_cap;
} ng_implications;

/* NG_ORDER_BP (bp.c): messages (rows' to each cell, then columns'), a line's forward table
 * and vectors, the pattern of its clue; the depth the beliefs were computed at and how many
 * more choices they serve */
typedef struct {
    double *msg, *fw, *line;
    int *band;  /* ng_bp_line's band of states per cell: lo, then hi */
    int depth, left;
    long long rounds;
} ng_beliefs;

/* conflict weights (branch.c, NG_WEIGHT_BASE): per line; what the last contradiction blamed */
typedef struct {
    int on;                 /* 0: the weights stay 0 (the rules as they were before them) */
    long long *line;
    int fail_line, fail_cell;  /* -1: none */
} ng_weights;

/* nogoods recorded at restarts (nogood.c; reduced nld-nogoods, Lecoutre, Sais, Tabary and
 * Vidal, "Recording and minimizing nogoods from restarts", JSAT 2007): each is a set of
 * literals that cannot all hold; two watched literals each */
typedef struct {
    int on;                 /* record them at restarts */
    int *lits, used, cap;
    int *off, *n, count, max;
    int **watch, *wlen, *wcap;
    int head;               /* trail position up to which the watches were visited */
    long long units, conflicts;
} ng_nogoods;

/* an observer of every event (--steps, --animate) */
typedef struct {
    ng_event_fn fn; void *ctx;
} ng_observer;

typedef struct ng_solver {
    ng_puzzle pz;
    ng_scratch tmp;

    uint8_t *cells;
    int *trail, trail_len;
    eng_queue q;                          /* lines to solve */

    int *score_a, *score_b; /* per cell: cells fixed when its probe assumed filled / empty */

    /* bitboards, when every line has at most NG_BITS_MAX cells: bit i of lf[l] / le[l] is
     * set when cell i of line l is known filled / known empty */
    int bits;
    uint64_t *lf, *le;
#if NG_BITS2_MAX
    /* two-word bitboards, when the longest line has 64..NG_BITS2_MAX cells: bit i of lf2[l] /
     * le2[l] is set when cell i of line l is known filled / empty */
    ng_u128 *lf2, *le2;
#endif

    ng_line_cache lc;
    eng_records rec;        /* probe records (records.h) */
    ng_implications im;

    /* search */
    ng_frame *stack; int depth, stack_cap;
    int state;
    int unknown;            /* number of unknown cells */
    uint8_t *root;          /* grid after propagation and probing at the root */
    int root_done;
    int probing;            /* 0: propagation only, 1: probe at every node */
    int probe_open;         /* without probing: probe at nodes with at most this many open
                             * cells (the dive's probe_share; 0: never) */
    int root_trail;         /* trail length at the settled root */
    int root_none;          /* the root itself is a contradiction */
    uint64_t rng;           /* 0: deterministic branching; else xorshift state */
    uint8_t *guide;         /* when set: the value to try first at each cell */
    int order;              /* the branching rule: one of NG_ORDER_* */
    float *likely;          /* NG_ORDER_SURE: per cell, the filled share of its row's
                             * arrangements, then of its column's (2 * ncells) */
    uint64_t *likely_key;   /* bitboard mode: per line, the known masks its shares are of */
    ng_count_memo *count_memo; /* bitboard mode, NG_ORDER_PROMISE: per line, NG_MEMO_WAYS
                                * (known masks, log count) of lines counted lately */
    ng_beliefs bp;
    long long fails;        /* nodes whose guess failed */

    eng_limits lim;         /* limits and counters (limits.h) */
    int nomem;              /* a long line's solve ran out of memory: stopped as at a limit */

    ng_weights wt;
    ng_nogoods ngd;
    ng_observer obs;
} ng_solver;

#endif
