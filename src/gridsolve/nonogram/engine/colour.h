/* The colour nonogram engine in plain C: exact line solver, propagation, probing, resumable DFS.
 *
 * Cells are bit masks of the palette indices still possible (bit 0 = background), so a palette
 * has at most 32 colours; 0 never stays in the grid (it is a contradiction). A cell is known
 * when one bit is left. Lines 0..H-1 are rows, H..H+W-1 are columns, as in core.h.
 *
 * Changes are recorded on a trail of (cell, old mask), so probes and search branches are undone
 * by restoring the masks saved since a mark (masks only ever narrow).
 *
 * Line solver: left/right dynamic programming over (blocks placed, prefix length), O(n*k), the
 * settling of the black-and-white core (core.h cites its sources) with the colour rule: two
 * consecutive blocks need a background cell between them only when they share a colour, and a
 * cell's result is the set of colours it takes over all arrangements. Lines of up to 64 cells
 * go through an exact-key cache of results (77% hits on random 30x30 3-colour puzzles, ~3x
 * faster there).
 * Probing: every colour still possible in every unknown cell is assumed in turn; a contradiction
 * removes that colour, and each cell keeps only the union of what the surviving assumptions left
 * it (the many-valued form of "both assumptions agree", Wu et al., IEEE TCIAIG 2013). A cell
 * is not probed again while the lines its last probe solved are unchanged.
 * Search: binary branching, "cell = colour" then "cell != colour".
 */
#ifndef GRIDSOLVE_NONOGRAM_COLOUR_H
#define GRIDSOLVE_NONOGRAM_COLOUR_H

#include <stdint.h>

#define CG_MAX_COLOURS 32
#define CG_BACKGROUND 1u

typedef uint32_t cg_mask;

enum { CG_EXHAUSTED = 0, CG_SOLUTION = 1, CG_LIMIT = 2, CG_NOMEM = -1 };

typedef struct {
    int cell;
    cg_mask old;   /* the mask before this change */
} cg_change;

typedef struct {
    int mark;      /* trail length before the guess */
    int cell;      /* the cell guessed */
    cg_mask value; /* the colour bit guessed: "cell = value" first, then "cell != value" */
    int stage;     /* 0: the first branch is under way, 1: the second */
} cg_frame;

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

typedef struct cg_solver {
    int width, height, nlines, ncells, ncolours;
    int *line_off, *line_step, *line_len;  /* cell of line l, position i: off + i*step */
    int *clue_off, *clue_cnt;              /* blocks of line l: clue_len/col[off .. off+cnt) */
    int *clue_len, *clue_col;
    int max_len, max_k;

    cg_mask *cells;
    cg_change *trail; int trail_len, trail_cap;
    int *queue, qhead, qcount; uint8_t *inq;
    cg_work work; cg_mask *lin, *lout;

    /* probing scratch: per-probe and per-cell stamps, the union over surviving probes */
    uint32_t *seen, probe_stamp;
    uint32_t *cseen, cell_stamp;
    cg_mask *acc; int *hits; int *touched;
    long long *score;       /* branching score of a cell from its last probe (cg_choose) */
    cg_mask *first;         /* the colour whose probe fixed fewest cells */

    /* line cache (exact keys, direct mapped) */
    cg_cache_entry *cache; cg_mask *cache_in, *cache_out;
    long long cache_hits;

    /* probe records, as in core.h: a probe of cell c still holds while no line it solved has
     * changed (a set or an undo outside probing stamps its lines); then it is not repeated */
    int use_records, fp_words, in_probe;
    uint64_t *fp_cur, *fp;          /* lines solved by the probe under way / per cell */
    uint64_t clock, *line_time, *probe_time;
    uint8_t *recorded;

    /* search */
    cg_frame *stack; int depth, stack_cap;
    int state;
    int unknown;            /* cells with more than one colour possible */
    cg_mask *root;          /* grid after propagation and probing at the root */
    int root_done;
    int probing;

    /* limits and counters */
    long long nodes, max_nodes, line_solves, probes, max_depth;
    double deadline;        /* absolute monotonic seconds, 0 = none */
    long long check_mask;   /* read the clock when (steps & check_mask) == 0 */
    int aborted, nomem;
} cg_solver;

#endif
