/* Exact cover of board cells by polyomino placements: shared types of the tiling engine.
 *
 * Every open cell must be covered exactly once and every piece copy used once (Knuth's
 * Algorithm X, "Dancing Links", arXiv cs/0011047, with the cell-ordered branching of his
 * polyomino programs: always fill the first empty cell in reading order). A search state is
 * one bit string, the "key": bits 0..ncells-1 are covered cells, the following bits mark piece
 * copies used (copy k of type t sets bit offset[t]+k). The key determines everything that is
 * left to do, so counting memoises on it; the full key is stored and compared (never a hash
 * alone). "Hole" types are monominoes confined to chosen cells: the count from a state is a
 * vector split by where the remaining holes go (mixed radix, hole 0 most significant).
 */
#ifndef GRIDSOLVE_TILING_EXACT_H
#define GRIDSOLVE_TILING_EXACT_H

#include <stddef.h>
#include <stdint.h>

typedef uint64_t word;

#define TL_MAX_WORDS 8     /* keys of up to 512 bits: cells + copies */
#define TL_MAX_TYPES 64
#define TL_MAX_HOLES 6

enum { TL_OK = 0, TL_SOLUTION = 1, TL_EXHAUSTED = 0, TL_LIMIT = 2, TL_NOMEM = 3,
       TL_OVERFLOW = 4, TL_BUDGET = 5 };

typedef struct {
    int nw, ncells, nbits, ntypes, nholes;
    size_t nplace;
    int copies[TL_MAX_TYPES], offset[TL_MAX_TYPES], hole[TL_MAX_TYPES];
    size_t hole_size[TL_MAX_HOLES];
    size_t len[1 << TL_MAX_HOLES];                    /* vector length for remaining holes R */
    size_t stride[(1 << TL_MAX_HOLES) * TL_MAX_HOLES]; /* [R * TL_MAX_HOLES + h] */
    size_t *cell_start; /* ncells + 1: placements whose first cell is e are [start[e], start[e+1]) */
    size_t *pl_id;     /* nplace: each placement's index as given */
    int *pl_type, *pl_hpos;
    word *pl_mask;     /* nplace * nw words */
    word cellbits[TL_MAX_WORDS];
    size_t max_len;    /* the longest vector, below TL_BLOCK */
    int size[TL_MAX_TYPES];  /* cells per piece of each type */
    int one_piece_max; /* pockets up to this size can only be filled by one piece (or holes) */
    int *nbr;          /* ncells * 4: open neighbours (up, left, right, down) or -1 */
    uint8_t *holebits; /* ncells: which holes may sit on each cell */
    word hole_mask[TL_MAX_HOLES][TL_MAX_WORDS];  /* the cells each hole may sit on */
    word *nbr_mask;    /* ncells * nw: the open neighbours of each cell */
    word *pl_border;   /* nplace * nw: cells next to a placement, outside it */
    /* The pocket test's bitboard (a connected board whose bounding box has at most 64 cells):
     * row-major, gw wide; a flood grows by whole layers of bits at a time. */
    int grid, gw;
    word g_open, g_left, g_right;    /* open cells; cells in the first and the last column */
    word g_hole[TL_MAX_HOLES];       /* the cells each hole may sit on */
    word *g_conv;      /* 8 * 256: the grid bits of each byte of a key's cell bits */
    word *g_border;    /* nplace: each placement's border on the grid */
    int8_t g_cell[64]; /* grid bit -> cell (-1: not a cell) */
} tl_problem;

/* An exact open-addressing table: each slot holds the full key then its value, side by side
 * (one cache line); a slot is empty when its value is TL_EMPTY. */
typedef struct {
    int nw;
    size_t cap, count;
    word *slots;       /* cap * (nw + 1) words */
    void *map;         /* the reservation slots sits at the start of, to grow in place (or NULL) */
    size_t map_bytes, map_slots;  /* its length (to unmap); the slots it has room for */
} tl_table;

#define TL_EMPTY (UINT64_MAX - 1)   /* marks an empty slot; counts stop below it */
#define TL_ZERO UINT64_MAX          /* a vector of zeros (no arena space) */
#define TL_BLOCK ((size_t)1 << 20)  /* arena block, in counts: holds any one vector */

typedef struct {
    const tl_problem *p;
    tl_table memo;
    uint64_t **blocks;  /* the arena: vector v lives at blocks[v / TL_BLOCK] + v % TL_BLOCK */
    size_t nblocks, fill;
    uint64_t **scratch, **scatter;
    word *kid_keys;     /* per depth, max_fan child keys waiting to be counted */
    size_t *kid_pl, max_fan;
    uint64_t *kid_val;  /* per depth: each waiting child's memo value, or TL_EMPTY if new */
    int used[TL_MAX_TYPES];
    long long nodes, max_states;
    double deadline;
    int sigints;        /* eng_interrupt_enter's count when the call began (Ctrl-C stops it) */
    size_t mem_limit;
    uint64_t mod;       /* 0, or count modulo this prime (below 2**62): no overflow */
    int status;
} tl_counter;

typedef struct {
    const tl_problem *p;
    tl_table dead;     /* states proven to have no completion (mode 1) */
    tl_counter guide;  /* a finished count: states with completions (mode 2) */
    int guided;
    int count_limit;   /* mode 2's count ran out of time: the next call reports TL_LIMIT */
    int depth, state, maxdepth;
    int *cell, *found;
    size_t *next, *chosen;  /* per depth: the next placement to try, the one chosen */
    word *keys;        /* (maxdepth + 1) * nw */
    int used[TL_MAX_TYPES];
    long long nodes, max_nodes;
    double deadline;
    int sigints;       /* eng_interrupt_enter's count when the call began (Ctrl-C stops it) */
    size_t mem_limit;
} tl_enum;

#endif
