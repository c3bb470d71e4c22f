/* The colour nonogram engine in plain C: exact line solver, propagation, probing, resumable
 * depth-first search. _colour.c wraps it for Python and includes its parts as one
 * compilation unit:
 *
 *   colour_line.c       the line solver with the colour rule
 *   colour_setup.c      a solver for one puzzle: cg_new, cg_free
 *   colour_propagate.c  narrowing cells and undoing it (the trail), the line cache, propagation
 *   colour_probe.c      probing every colour of every unknown cell, settling a node
 *   colour_bp.c         belief propagation over the lines, for the dive's branching rule
 *   colour_nogood.c     nogoods recorded at restarts, watched "cell = colour" literals
 *   colour_search.c     choosing a branch, conflict weights, the resumable search (cg_next)
 *                       and restarts
 *   (alloc.h, limits.h, queue.h and records.h are shared with the black-and-white engine.)
 *
 * Vocabulary. Cells are bit masks of the palette indices still possible (bit 0 =
 * background), so a palette has at most 32 colours; 0 never stays in the grid (it is a
 * contradiction). A cell is known when one bit is left. Lines 0..H-1 are rows, H..H+W-1 are
 * columns, as in core.h. Changes are recorded on a trail of (cell, old mask), so probes and
 * search branches are undone by restoring the masks saved since a mark (masks only narrow).
 *
 * Data. cg_puzzle is the fixed puzzle, cg_scratch working space that holds nothing between
 * calls, and the rest of cg_solver the search state.
 *
 * Line solver: left/right dynamic programming over (blocks placed, prefix length), O(n*k), the
 * settling of the black-and-white core (line.c cites its sources) with the colour rule: two
 * consecutive blocks need a background cell between them only when they share a colour, and a
 * cell's result is the set of colours it takes over all arrangements. Lines of up to 64 cells
 * go through an exact-key cache of results (docs/decisions/colour-line-cache.md).
 * Probing: every colour still possible in every unknown cell is assumed in turn; a contradiction
 * removes that colour, and each cell keeps only the union of what the surviving assumptions left
 * it (the many-valued form of "both assumptions agree", Wu et al., IEEE TCIAIG 2013). A cell
 * is not probed again while the lines its last probe solved are unchanged (records.h).
 * Search: binary branching, "cell = colour" then "cell != colour", on the cell the probes rank
 * first (CG_ORDER_PROBES), or by the probes times its lines' conflict weights over its colours
 * left (CG_ORDER_WDEG, dom/wdeg), or, in the dive, the cell whose likeliest colour by belief
 * propagation is likeliest (CG_ORDER_BP, colour_bp.c), probing only near the bottom
 * (probe_open) and restarting from the root (cg_restart, randomised) when its caller says.
 * Restarts may keep nogoods (ngd.on): at a restart, for each branch whose "cell = colour" was
 * refuted, the "cell = colour" decisions above it and its own cannot all hold (reduced
 * nld-nogoods, Lecoutre et al., JSAT 2007); they are watched as in a SAT solver and remove a
 * colour from a cell when all their other literals hold. Only refutations become nogoods (a
 * branch whose first half held a solution, and every branch below it, do not): every
 * solution satisfies every nogood, so a run from the root still finds each solution, the
 * root's masks stay proven, and a restarted search stays one complete search
 * (docs/decisions/0038).
 * Known cells (cg_fix): before the search starts, each cell's mask is intersected with the
 * colours given for it; the root then settles from there, and only solutions that agree are
 * found (a cell left no colour: none is).
 */
#ifndef GRIDSOLVE_NONOGRAM_COLOUR_H
#define GRIDSOLVE_NONOGRAM_COLOUR_H

#include <stdint.h>

#include "alloc.h"
#include "pool.h"
#include "limits.h"
#include "queue.h"
#include "records.h"

#define CG_MAX_COLOURS 32
#define CG_BACKGROUND 1u
/* A cell not known yet, in the grids given to Python (one byte per cell: palette index). */
#define CG_NOT_KNOWN 255

typedef uint32_t cg_mask;

/* Is one colour (or none) left in m? */
static inline int cg_single(cg_mask m) { return (m & (m - 1)) == 0; }

enum { CG_EXHAUSTED = 0, CG_SOLUTION = 1, CG_LIMIT = 2, CG_NOMEM = -1 };

/* Optional observer of the search, for "watch it work" (events never change the result).
 * The same kinds and numbers as core.h's EV_*; a value is a palette index, or CG_NOT_KNOWN
 * when a cell is left more than one colour (a probe or a branch narrowed it). */
enum {
    CG_EV_LINE = 1,      /* a = line, b = number of cells it narrowed (those trail entries;
                            Python's callback gets each as cell * 256 + its index now) */
    CG_EV_PROBE = 2,     /* a = cell, b = colour assumed, c = 1 if it led to a contradiction;
                            the probe's changes are undone after it */
    CG_EV_PROBE_FIX = 3, /* a = cell, b = its index after what the probes of a cell
                            learned (set right after the event) */
    CG_EV_GUESS = 4,     /* a = cell, b = its index under the branch (NOT_KNOWN for "cell !=
                            colour" that leaves several), c = depth */
    CG_EV_BACKTRACK = 5, /* a = depth: the changes since the guess at that depth are undone */
    CG_EV_SOLUTION = 6,
    CG_EV_TRY = 7,       /* a = cell, b = colour a probe assumes; its CG_EV_LINEs follow,
                            then CG_EV_PROBE */
};

/* States of the resumable search. */
enum { CS_START = 0, CS_EXPAND = 1, CS_BACKTRACK = 2, CS_DONE = 3, CS_LIMIT = 4,
       CS_ROOT = 5 /* restarted with nogoods: the root is settled again at the next call */ };

typedef struct {
    int cell;
    cg_mask old;   /* the mask before this change */
} cg_change;

typedef struct {
    int mark;      /* trail length before the guess */
    int cell;      /* the cell guessed */
    cg_mask value; /* the colour bit guessed: "cell = value" first, then "cell != value" */
    int stage;     /* 0: the first branch is under way, 1: the second */
    int held;      /* stage 1: the first branch held a solution (no nogood from it or below) */
    long long solutions;  /* the search's solutions when the guess was made */
} cg_frame;

typedef void (*cg_event_fn)(void *ctx, int kind, int a, int b, int c, const cg_change *changes,
                            int nchanges);

/* an observer of every event (--steps, --animate); fn NULL: none */
typedef struct {
    cg_event_fn fn; void *ctx;
} cg_observer;

/* The palette index of a mask of one colour; CG_NOT_KNOWN for several (or none). */
static inline int cg_index(cg_mask m) { return m && cg_single(m) ? __builtin_ctz(m) : CG_NOT_KNOWN; }

/* Scratch of one line solve, sized for the longest line and the longest clue. */
typedef struct {
    uint8_t *fwd, *bwd; /* (k+1) x (n+1) */
    int *bad;           /* per colour of the clue x (n+1): cells in [0,i) that cannot take it */
    int *diff;          /* per colour of the clue x (n+1): feasible placements to paint */
    int *nbg;           /* n+1: cells in [0,i) that cannot be background */
    int *es, *ls;       /* k: earliest and latest start of each block */
    int *slot;          /* k: the index of each block's colour among the clue's colours */
} cg_work;

/* One remembered line solve, keyed exactly by (line, input masks); lines of <= 64 cells.
 * The masks live in the solver's cache_in / cache_out pools, max_len per entry. */
typedef struct {
    uint64_t hash;
    int32_t line1;    /* line + 1; 0 = empty slot */
    int32_t ok;       /* 0 = the input is a contradiction */
} cg_cache_entry;

#define CG_CACHE_BITS 15

/* The colour line solver keeps two (blocks + 1) x (cells + 1) byte tables, sized for the
 * longest line and the longest clue: a puzzle that needs more than this many bytes a table is
 * refused (GridsolveError, saying so) rather than allowed to take gigabytes. */
#define CG_TABLE_MAX_BYTES ((size_t)1 << 27)

/* Probes at the root keep what they narrowed (cg_keep_root_implied, read by a SAT hand-over
 * as binary clauses) up to this many uint32 in all (2 MiB; a random 30x30 3-colour puzzle
 * takes about 135,000). */
#define CG_ROOT_IMPL_MAX ((size_t)1 << 19)

/* Branching rules: the cell the probes rank first (the search), or by belief propagation
 * (the dive: colour_bp.c, docs/decisions/0036). */
enum { CG_ORDER_PROBES = 0, CG_ORDER_BP = 1, CG_ORDER_WDEG = 2 };

/* Conflict weights (after dom/wdeg: Boussemart, Hemery, Lecoutre and Sais, ECAI 2004), kept
 * by every search, read by CG_ORDER_WDEG: whenever a search node fails, the line whose solve
 * found the contradiction gains 1, and so do the row and the column of a cell whose probes
 * all failed; CG_ORDER_WDEG picks the open cell with the highest (its least fruitful probe's
 * count + 1) * (CG_WEIGHT_BASE + its row's and column's weights) / its colours left, the
 * colour first as CG_ORDER_PROBES does. The weights live as long as the search (restarts
 * keep them); docs/decisions/conflict-weights.md measured the base for black and white. */
#define CG_WEIGHT_BASE 5

/* Nogoods (colour_nogood.c) keep at most this many literals in all (16 MiB); past it a
 * restart records no more (dropping a nogood only prunes less). A literal is
 * cell * CG_MAX_COLOURS + colour (cells < 1e8: it fits a uint32). */
#define CG_NOGOOD_MAX_LITS ((size_t)1 << 22)

/* nogoods recorded at restarts (colour_nogood.c): each a set of "cell = colour" literals
 * that cannot all hold, watched by two literals not known true; watch lists per cell (a
 * literal becomes true only when its cell is left one colour) */
typedef struct {
    int on;                 /* record them at restarts */
    uint32_t *lits; size_t used, cap;
    size_t *off; int *n; int count, max;
    int **watch; int *wlen, *wcap;  /* per cell: the nogoods watching a literal of it */
    int head;               /* trail position up to which the watches were visited */
    int full;               /* CG_NOGOOD_MAX_LITS reached: no more are recorded */
    long long units, conflicts;
} cg_nogoods;

/* Implication probing (cg_probe_implied, colour_probe.c), the many-valued form of the black-
 * and-white engine's ng_probe_implied: at nodes up to CG_IMPL_MAX_DEPTH, each surviving probe
 * "cell x = colour a" records what it narrowed, (x * ncolours + a, n, n pairs (cell y, mask M))
 * meaning "x = a implies y in M"; then every open cell's colours are assumed again with the
 * contrapositives applied ("y outside M implies x != a"), and a contradiction removes the
 * colour. The records hold at the node that made them (and below it); at most CG_IMPL_MAX
 * uint32 of them (16 MiB), past which recording stops (fewer implications, still sound). */
#define CG_IMPL_MAX_DEPTH 2
#define CG_IMPL_MAX ((size_t)1 << 22)
typedef struct {
    int on;                     /* implication probing at nodes up to CG_IMPL_MAX_DEPTH */
    int full;                   /* CG_IMPL_MAX reached at this node: no more recorded */
    uint32_t *rec; size_t used, cap;
    int *off;                   /* per cell + 1: where its contrapositives start in rev */
    uint32_t *rev; size_t rev_cap;  /* pairs (x * ncolours + a, M) indexed by cell y */
    uint32_t *seen, stamp;      /* per cell: taken by the record being made (made when first
                                 * needed, the root's records for SAT too) */
    long long fixes;            /* colours removed by implication probing */
} cg_implied;

/* BP keeps a (cells + 1) x (states + 1) table of doubles for a line: only for puzzles whose
 * longest line keeps it within this many (else the dive branches on the fewest colours). */
#define CG_BP_MAX_TABLE ((size_t)1 << 22)

/* CG_ORDER_BP (colour_bp.c): messages (rows' to each cell, a double per colour, then
 * columns'), a line's forward table, priors, marginals and backward vectors, the pattern of
 * its clue; the depth the beliefs were computed at and how many more choices they serve */
typedef struct {
    double *msg, *fw, *line;
    int *pattern;
    int depth, left;
    long long rounds, lines;
} cg_beliefs;

/* The fixed puzzle: made by cg_new, never changed. */
typedef struct {
    int width, height, nlines, ncells, ncolours;
    int *line_off, *line_step, *line_len;  /* cell of line l, position i: off + i*step */
    int *clue_off, *clue_cnt;              /* blocks of line l: clue_len/col[off .. off+cnt) */
    int *clue_len, *clue_col;
    int max_len, max_k;
} cg_puzzle;

/* Working space of the line solver and the probes; holds nothing between calls. */
typedef struct {
    cg_work work; cg_mask *lin, *lout;
    /* probing: per-probe and per-cell stamps, the union over surviving probes */
    uint32_t *seen, probe_stamp;
    uint32_t *cseen, cell_stamp;
    cg_mask *acc; int *hits; int *touched;
} cg_scratch;

typedef struct cg_solver {
    cg_puzzle pz;
    cg_scratch tmp;

    cg_mask *cells;
    cg_change *trail; int trail_len, trail_cap;
    eng_queue q;            /* lines to solve */

    long long *score;       /* branching score of a cell from its last probe (cg_choose) */
    cg_mask *first;         /* the colour whose probe fixed fewest cells */

    /* line cache (exact keys, direct mapped) */
    cg_cache_entry *cache; cg_mask *cache_in, *cache_out;
    long long cache_hits;

    eng_records rec;        /* probe records (records.h) */

    /* search */
    cg_frame *stack; int depth, stack_cap;
    int state;
    int unknown;            /* cells with more than one colour possible */
    cg_mask *root;          /* grid after propagation and probing at the root */
    int root_done;
    int root_trail;         /* trail length at the settled root (cg_restart undoes to it) */
    int probing;
    int probe_open;         /* without probing: probe at nodes with at most this many open
                             * cells (the dive's probe_share; 0: never) */
    int order;              /* CG_ORDER_PROBES or CG_ORDER_BP */
    uint64_t rng;           /* 0: deterministic branching; else xorshift state (restarts) */
    cg_beliefs bp;
    long long fails;        /* nodes whose branch failed */
    long long solutions;    /* solutions this search stood on */
    long long pause_fails;  /* > 0: pause (resumably) at the first node with this many fails */
    /* conflict weights (CG_WEIGHT_BASE): per line; what the last contradiction blamed */
    long long *wt_line; int fail_line, fail_cell;
    int *least;             /* per cell: cells its least fruitful probe narrowed (WDEG) */
    cg_nogoods ngd;
    cg_implied im;          /* implication probing (off unless asked) */
    long long pause_work;   /* > 0: pause (resumably) at the first node past this much work */
    /* with keep_root_impl, each surviving probe at the root appends (cell * ncolours + colour,
     * n, then n pairs (cell, its mask under the probe)) for the cells it narrowed
     * (cg_keep_root_implied); every record is a consequence of the clues, read by
     * Search.root_implications */
    int keep_root_impl;
    uint32_t *root_impl; size_t root_impl_used, root_impl_cap;

    eng_limits lim;         /* limits and counters (limits.h) */
    int nomem;              /* a set ran out of memory: stopped as at a limit */
    /* known cells (cg_fix, before the search): a cell they left no colour marks the root a
     * contradiction, found when the search starts (no solution agrees with them) */
    int fixed_empty;
    /* fix(settled=True) left the cells a fixpoint of line propagation: the root does not
     * queue every line again (cg_next) */
    int root_settled;
    cg_observer obs;
} cg_solver;

#endif
