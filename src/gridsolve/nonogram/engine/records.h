/* Probe records, shared by the black-and-white and colour engines.
 *
 * Would probing cell c again give what its last probe gave? Yes when no line that probe
 * solved has changed since: those lines then see the same cells, so propagation repeats
 * itself exactly, and the lines it never reached hold none of its consequences. Every set
 * outside a probe, and every undo outside a probe (backtracking), stamps the lines it
 * touches with a new clock tick; a probe remembers the lines it solved and the tick it ran
 * at, and its record holds while none of those lines has a later stamp. This holds across
 * backtracking too, since an undo stamps its lines. (A probe's own undo returns to the state
 * the probe started from, so it stamps nothing.)
 */
#ifndef GRIDSOLVE_NONOGRAM_RECORDS_H
#define GRIDSOLVE_NONOGRAM_RECORDS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Records are kept for puzzles whose cells x line-words fit this many words (32 MiB). */
#define ENG_RECORDS_MAX_WORDS (1LL << 22)

typedef struct {
    int use;                /* records are kept (the puzzle is small enough) */
    int words;              /* words of a line set: (nlines + 63) / 64 */
    int in_probe;           /* a probe is under way: sets and undos stamp nothing */
    uint64_t *cur;          /* lines solved by the probe under way */
    uint64_t *solved;       /* per cell: the lines its last probe solved */
    uint64_t clock, *line_time, *probe_time;
    uint8_t *recorded;      /* per cell: it has a record */
} eng_records;

/* Records for nlines lines and ncells cells; 0 if out of memory (eng_records_free applies). */
static int eng_records_init(eng_records *r, int nlines, int ncells)
{
    r->words = (nlines + 63) / 64;
    r->use = (long long)ncells * r->words <= ENG_RECORDS_MAX_WORDS;
    r->cur = calloc((size_t)r->words, sizeof(uint64_t));
    r->line_time = calloc((size_t)nlines, sizeof(uint64_t));
    if (!r->cur || !r->line_time) return 0;
    if (r->use) {
        r->solved = calloc((size_t)ncells * r->words, sizeof(uint64_t));
        r->probe_time = calloc((size_t)ncells, sizeof(uint64_t));
        r->recorded = calloc((size_t)ncells, 1);
        if (!r->solved || !r->probe_time || !r->recorded) return 0;
    }
    return 1;
}

static void eng_records_free(eng_records *r)
{
    free(r->cur); free(r->solved); free(r->line_time); free(r->probe_time); free(r->recorded);
}

/* A cell of lines row and col was set: outside a probe, that changes both lines. */
static inline void eng_touch(eng_records *r, int row, int col)
{
    if (!r->in_probe) {
        r->clock++;
        r->line_time[row] = r->line_time[col] = r->clock;
    }
}

/* An undo begins: 1 when it changes the lines it touches (it is not a probe's own undo);
 * then each touched line is stamped with eng_undo_stamp. */
static inline int eng_undo_begin(eng_records *r)
{
    if (r->in_probe) return 0;
    r->clock++;
    return 1;
}

static inline void eng_undo_stamp(eng_records *r, int row, int col)
{
    r->line_time[row] = r->line_time[col] = r->clock;
}

/* A probe begins: it has solved no line yet. */
static inline void eng_probe_begin(eng_records *r)
{
    memset(r->cur, 0, sizeof(uint64_t) * (size_t)r->words);
}

/* The probe under way solves line l. */
static inline void eng_probe_solves(eng_records *r, int l)
{
    r->cur[l >> 6] |= 1ULL << (l & 63);
}

/* Does cell c's record still hold (see above)? */
static int eng_record_valid(const eng_records *r, int c)
{
    if (!r->use || !r->recorded[c]) return 0;
    const uint64_t t = r->probe_time[c];
    const uint64_t *lines = r->solved + (size_t)c * r->words;
    for (int w = 0; w < r->words; w++) {
        uint64_t bits = lines[w];
        while (bits) {
            const int l = w * 64 + __builtin_ctzll(bits);
            if (r->line_time[l] > t) return 0;
            bits &= bits - 1;
        }
    }
    return 1;
}

/* Cell c's probe is done: record the lines it solved and when. */
static void eng_record(eng_records *r, int c)
{
    if (!r->use) return;
    memcpy(r->solved + (size_t)c * r->words, r->cur, sizeof(uint64_t) * (size_t)r->words);
    r->probe_time[c] = r->clock;
    r->recorded[c] = 1;
}

#endif
