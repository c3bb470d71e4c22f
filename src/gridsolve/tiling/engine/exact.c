/* The tiling engine without Python: memoised counting and resumable enumeration (exact.h). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exact.h"
#include "../../nonogram/engine/interrupt.h"

static double tl_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Stop now: Ctrl-C came since the count sigints (interrupt.h), or the deadline (if any) passed. */
static int tl_stop(int sigints, double deadline)
{
    return eng_interrupted(sigints) || (deadline > 0 && tl_now() > deadline);
}

#include "alloc.h"
#include "vectors.h"

#define NW 1
#include "exact_impl.h"
#undef NW
#define NW 2
#include "exact_impl.h"
#undef NW
#define NW 4
#include "exact_impl.h"
#undef NW
#define NW 8
#include "exact_impl.h"
#undef NW

/* An empty table of cap slots (a power of two); with room for at least two doublings in
 * `reserve` bytes, it sits in a reservation of that size and grows in place. */
static int tl_table_init(tl_table *t, int nw, size_t cap, size_t reserve)
{
    size_t slot = (size_t)(nw + 1) * sizeof(word);
    t->nw = nw;
    t->cap = cap;
    t->count = 0;
    t->map = NULL;
    t->map_bytes = t->map_slots = 0;
    t->slots = NULL;
    if (reserve / slot / 4 >= cap) {
        void *base;
        size_t len;
        t->slots = tl_reserve(reserve, &base, &len);
        if (t->slots) {
            t->map = base;
            t->map_bytes = len;
            t->map_slots = reserve / slot;
        }
    }
    if (!t->slots) t->slots = tl_array_big(cap, slot);
    if (!t->slots) return -1;
    for (size_t i = 0; i < cap; i++) t->slots[i * (nw + 1) + nw] = TL_EMPTY;
    return 0;
}

static void tl_table_free(tl_table *t)
{
    tl_slots_free(t->slots, t->map, t->map_bytes);
    t->slots = NULL;
    t->map = NULL;
    t->cap = t->count = t->map_bytes = t->map_slots = 0;
}

/* Fill the derived tables of a problem: vector lengths and strides per set of holes left
 * (a length that would overflow is saturated; the caller refuses lengths of TL_BLOCK on). */
static void tl_problem_finish(tl_problem *p)
{
    int H = p->nholes;
    p->max_len = 1;
    for (int R = 0; R < (1 << H); R++) {
        size_t len = 1;
        for (int h = H - 1; h >= 0; h--) {
            p->stride[R * TL_MAX_HOLES + h] = len;
            if (R >> h & 1 && __builtin_mul_overflow(len, p->hole_size[h], &len)) len = SIZE_MAX;
        }
        p->len[R] = len;
        if (len > p->max_len) p->max_len = len;
    }
}

static void tl_problem_free(tl_problem *p)
{
    free(p->cell_start); free(p->pl_type); free(p->pl_id); free(p->pl_hpos); free(p->pl_mask);
    free(p->nbr); free(p->holebits); free(p->nbr_mask); free(p->pl_border);
    free(p->g_conv); free(p->g_border);
    p->g_conv = p->g_border = NULL;
    p->grid = 0;
    p->nbr_mask = p->pl_border = NULL;
    p->pl_type = p->pl_hpos = p->nbr = NULL;
    p->cell_start = p->pl_id = NULL;
    p->holebits = NULL;
    p->pl_mask = NULL;
}

static int depth_limit(const tl_problem *p)
{
    int n = 0;
    for (int t = 0; t < p->ntypes; t++) n += p->copies[t];
    return n + 1;
}

/* Free what a finished count kept: its memo and vector arena. */
static void tl_counter_release(tl_counter *c)
{
    for (size_t b = 0; b < c->nblocks; b++) free(c->blocks[b]);
    free(c->blocks);
    c->blocks = NULL;
    c->nblocks = 0;
    tl_table_free(&c->memo);
}

/* Count the completions of root, split by hole positions, into out[0..max_len); with keep,
 * a successful count hands over its memo (to guide an enumeration). */
static int tl_count(const tl_problem *p, const word *root, uint64_t *out, long long max_states,
                    double timeout, int sigints, size_t mem_limit, uint64_t mod,
                    long long *states, tl_counter *keep)
{
    tl_counter c;
    memset(&c, 0, sizeof c);
    c.p = p;
    c.mod = mod;
    c.max_states = max_states;
    c.deadline = timeout >= 0 ? tl_now() + timeout : 0;
    c.sigints = sigints;
    c.mem_limit = mem_limit;
    int depth = depth_limit(p) + 1, status = TL_NOMEM;
    c.scratch = tl_zeros((size_t)depth, sizeof(uint64_t *));
    c.scatter = tl_zeros((size_t)depth, sizeof(uint64_t *));
    for (int e = 0; e < p->ncells; e++)
        if (p->cell_start[e + 1] - p->cell_start[e] > c.max_fan)
            c.max_fan = p->cell_start[e + 1] - p->cell_start[e];
    size_t kids = (size_t)depth * (c.max_fan + 1);
    c.kid_keys = tl_array(kids, (size_t)p->nw * sizeof(word));
    c.kid_pl = tl_array(kids, sizeof(size_t));
    c.kid_val = tl_array(kids, sizeof(uint64_t));
    if (!c.scratch || !c.scatter || !c.kid_keys || !c.kid_pl || !c.kid_val
        || tl_table_init(&c.memo, p->nw, 1 << 12, mem_limit) < 0) goto done;
    for (int d = 0; d < depth; d++) {
        c.scratch[d] = tl_zeros(p->max_len, sizeof(uint64_t));
        c.scatter[d] = tl_zeros(p->max_len, sizeof(uint64_t));
        if (!c.scratch[d] || !c.scatter[d]) goto done;
    }
    memset(out, 0, p->max_len * sizeof(uint64_t));
    switch (p->nw) {
    case 1: status = count_run_1(&c, root, out); break;
    case 2: status = count_run_2(&c, root, out); break;
    case 4: status = count_run_4(&c, root, out); break;
    default: status = count_run_8(&c, root, out); break;
    }
done:
    *states = (long long)c.memo.count;
    if (c.scratch)
        for (int d = 0; d < depth; d++) free(c.scratch[d]);
    if (c.scatter)
        for (int d = 0; d < depth; d++) free(c.scatter[d]);
    free(c.scratch); free(c.scatter); free(c.kid_keys); free(c.kid_pl); free(c.kid_val);
    c.kid_keys = NULL;
    c.kid_pl = NULL;
    c.kid_val = NULL;
    c.scratch = c.scatter = NULL;
    if (keep && status == TL_OK)
        *keep = c;
    else
        tl_counter_release(&c);
    return status;
}

/* mode 0: plain depth-first search; 1: also remember states proven empty; 2: count first
 * (memoised, for at most timeout seconds when timeout >= 0 and max_states states when
 * max_states >= 0) and then only enter states with completions, falling back to 1 on a
 * limit; when that limit is the time or the states, the first tl_enum_next reports TL_LIMIT
 * (a later call goes on with the search of mode 1). */
static int tl_enum_init(tl_enum *s, const tl_problem *p, const word *root, int mode, size_t mem_limit,
                        double timeout, long long max_states, int sigints)
{
    memset(s, 0, sizeof *s);
    s->p = p;
    s->maxdepth = depth_limit(p);
    s->mem_limit = mem_limit;
    s->max_nodes = -1;
    int n = s->maxdepth + 1;
    s->cell = tl_zeros((size_t)n, sizeof(int));
    s->next = tl_zeros((size_t)n, sizeof(size_t));
    s->found = tl_zeros((size_t)n, sizeof(int));
    s->chosen = tl_zeros((size_t)n, sizeof(size_t));
    s->keys = tl_zeros((size_t)(n + 1) * (size_t)p->nw, sizeof(word));
    if (!s->cell || !s->next || !s->found || !s->chosen || !s->keys) return -1;
    memcpy(s->keys, root, p->nw * sizeof(word));
    if (mode == 2) {
        uint64_t *out = tl_array(p->max_len, sizeof(uint64_t));
        long long states;
        if (!out) return -1;
        int status = tl_count(p, root, out, max_states, timeout, sigints, mem_limit, 0, &states,
                              &s->guide);
        free(out);
        s->guided = status == TL_OK;
        if (s->guided) return 0;
        s->count_limit = status == TL_LIMIT;
    }
    if (mode >= 1 && tl_table_init(&s->dead, p->nw, 1 << 10, 0) < 0) return -1;
    return 0;
}

static void tl_enum_free(tl_enum *s)
{
    free(s->cell); free(s->next); free(s->found); free(s->chosen); free(s->keys);
    s->cell = s->found = NULL;
    s->next = s->chosen = NULL;
    s->keys = NULL;
    tl_table_free(&s->dead);
    if (s->guided) tl_counter_release(&s->guide);
    s->guided = 0;
}

static int tl_enum_next(tl_enum *s)
{
    if (s->count_limit) {
        s->count_limit = 0;
        return TL_LIMIT;
    }
    switch (s->p->nw) {
    case 1: return enum_next_1(s);
    case 2: return enum_next_2(s);
    case 4: return enum_next_4(s);
    default: return enum_next_8(s);
    }
}
