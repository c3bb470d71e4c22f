/* CPython binding of the nonogram engine (core.h): a resumable Search and the line solver.
 * The whole search loop runs in C with the GIL released; Python only asks for the next
 * solution. The engine's parts are included here as one compilation unit, in this order,
 * so that the hot calls between them inline (core.h says what each part does). Over 500
 * lines for a stated reason: it is only the binding (the Search type's methods, the line
 * functions tests and the dive read, the module's constants), each function a thin wrapper;
 * splitting it would split one Python type across files. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "line.c"
#include "line_long.c"
#include "line_bits.c"
#include "setup.c"
#include "trail.c"
#include "line_cache.c"
#include "nogood.c"
#include "propagate.c"
#include "probe.c"
#include "count.c"
#include "bp.c"
#include "branch.c"
#include "search.c"

/* A call into the engine begins: Ctrl-C stops it from here on (interrupt.h). 0, or -1 with
 * the exception a signal that came just before raised (the call is then not made). */
static int engine_begin(eng_limits *lim)
{
    lim->sigints = eng_interrupt_enter();
    lim->interrupted = 0;
    return PyErr_CheckSignals();
}

/* The call is over: after a Ctrl-C, -1 with what Python's handler raised (KeyboardInterrupt);
 * 0 when it raised nothing (or this is not the main thread): the call stopped as at a limit. */
static int engine_end(const eng_limits *lim)
{
    return lim->interrupted ? PyErr_CheckSignals() : 0;
}

/* Flatten a sequence of clues into [count, numbers...] per line. */
static int flatten_clues(PyObject *seq, int expected_lines, int line_len, int **flat, int *len, int *cap)
{
    PyObject *fast = PySequence_Fast(seq, "clues must be a sequence of sequences of ints");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n != expected_lines) {
        PyErr_SetString(PyExc_ValueError, "number of clues does not match the grid size");
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *clue = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, i), "each clue must be a sequence of ints");
        if (!clue) { Py_DECREF(fast); return -1; }
        Py_ssize_t k = PySequence_Fast_GET_SIZE(clue);
        if (*len + k + 1 > *cap) {
            int newcap = (*cap + (int)k + 1) * 2;
            int *bigger = eng_realloc(*flat, (size_t)newcap, sizeof(int));
            if (!bigger) { Py_DECREF(clue); Py_DECREF(fast); PyErr_NoMemory(); return -1; }
            *flat = bigger; *cap = newcap;
        }
        (*flat)[(*len)++] = (int)k;
        long total = 0;
        for (Py_ssize_t t = 0; t < k; t++) {
            long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(clue, t));
            if (v == -1 && PyErr_Occurred()) { Py_DECREF(clue); Py_DECREF(fast); return -1; }
            if (v <= 0 || v > line_len) {
                PyErr_SetString(PyExc_ValueError, "clue numbers must be between 1 and the line length");
                Py_DECREF(clue); Py_DECREF(fast); return -1;
            }
            total += v + (t > 0);
            (*flat)[(*len)++] = (int)v;
        }
        Py_DECREF(clue);
        if (total > line_len) {
            PyErr_SetString(PyExc_ValueError, "a clue does not fit its line");
            Py_DECREF(fast); return -1;
        }
    }
    Py_DECREF(fast);
    return 0;
}

/* One line's clue (a sequence of ints) for a line of n cells, checked as flatten_clues
 * checks it, into a fresh *flat (its count, then its numbers): 0, or -1 with an exception. */
static int flatten_line_clue(PyObject *clue_obj, Py_ssize_t n, int **flat, int *len)
{
    int cap = 0;
    *flat = NULL;
    *len = 0;
    PyObject *wrapped = PyTuple_Pack(1, clue_obj);
    if (!wrapped) return -1;
    int rc = flatten_clues(wrapped, 1, (int)n, flat, len, &cap);
    Py_DECREF(wrapped);
    if (rc < 0) { free(*flat); *flat = NULL; }
    return rc;
}

/* A cell of a line given as text: '#' filled, '.' empty, anything else unknown. */
static uint8_t cell_of_char(char ch)
{
    return ch == '#' ? CELL_FILLED : ch == '.' ? CELL_EMPTY : CELL_UNKNOWN;
}

/* ---------------------------------------------------------------- Search type */

typedef struct {
    PyObject_HEAD
    ng_solver *s;
    PyObject *callback;   /* called as callback(kind, a, b, c, cells) while searching */
    int callback_failed;
} SearchObject;

static void event_trampoline(void *ctx, int kind, int a, int b, int c, const int *cells, int ncells)
{
    SearchObject *self = ctx;
    if (self->callback_failed) return;
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *lst = PyTuple_New(ncells);
    if (lst) {
        /* a line's cells go with the values it gave them (2 * cell + filled), so an observer
         * need not solve the line again to learn them */
        const uint8_t *grid = self->s->cells;
        int made = 1;
        for (int i = 0; made && i < ncells; i++) {
            PyObject *item = PyLong_FromLongLong(kind == EV_LINE
                ? 2 * (long long)cells[i] + (grid[cells[i]] == CELL_FILLED) : cells[i]);
            if (!item) made = 0;
            else PyTuple_SET_ITEM(lst, i, item);
        }
        PyObject *r = made ? PyObject_CallFunction(self->callback, "iiiiO", kind, a, b, c, lst)
                           : NULL;
        Py_DECREF(lst);
        if (!r) { self->callback_failed = 1; self->s->lim.aborted = 1; }
        Py_XDECREF(r);
    } else {
        self->callback_failed = 1; self->s->lim.aborted = 1;
    }
    PyGILState_Release(g);
}

static int Search_init(SearchObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"rows", "cols", "probing", "callback", "implications", "order", "weights", "nogoods",
                             "root_implications", "probe_share", NULL};
    PyObject *rows, *cols, *callback = Py_None;
    int probing = 1, implications = 1, order = 0, weights = 1, nogoods = 0, root_implications = 0;
    double probe_share = 0.0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|pOpipppd", kwlist, &rows, &cols, &probing, &callback,
                                     &implications, &order, &weights, &nogoods, &root_implications,
                                     &probe_share))
        return -1;
    if (!(probe_share >= 0.0 && probe_share <= 1.0)) {
        PyErr_SetString(PyExc_ValueError, "probe_share must be between 0 and 1");
        return -1;
    }
    Py_ssize_t h = PySequence_Size(rows), w = PySequence_Size(cols);
    if (h < 0 || w < 0) return -1;
    if (h < 1 || w < 1 || h > NG_MAX_SIDE || w > NG_MAX_SIDE || (long long)h * w > NG_MAX_CELLS) {
        PyErr_SetString(PyExc_ValueError, "grid size out of range");
        return -1;
    }
    int *flat = NULL, len = 0, cap = 0;
    if (flatten_clues(rows, (int)h, (int)w, &flat, &len, &cap) < 0
        || flatten_clues(cols, (int)w, (int)h, &flat, &len, &cap) < 0) {
        free(flat);
        return -1;
    }
    if (self->s) ng_free(self->s);
    self->s = ng_new((int)w, (int)h, flat, len);
    free(flat);
    if (!self->s) { PyErr_NoMemory(); return -1; }
    self->s->probing = probing;
    self->s->probe_open = (int)(probe_share * self->s->pz.ncells);
    self->s->im.on = self->s->im.on && implications;
    if (order < NG_ORDER_LOOSE || order > NG_ORDER_BP) {
        ng_free(self->s);
        self->s = NULL;
        PyErr_SetString(PyExc_ValueError, "order must be 0 (loose), 1 (tight), 2 (likely), 3 (sure), 4 (promise) or 5 (bp)");
        return -1;
    }
    self->s->order = order;
    self->s->wt.on = weights;
    self->s->ngd.on = nogoods;
    self->s->im.keep_root = root_implications;
    Py_XDECREF(self->callback);
    self->callback = NULL;
    if (callback != Py_None) {
        if (!PyCallable_Check(callback)) { PyErr_SetString(PyExc_TypeError, "callback must be callable"); return -1; }
        Py_INCREF(callback);
        self->callback = callback;
        self->s->obs.fn = event_trampoline;
        self->s->im.on = 0;  /* watched solves show plain probing: every fix has a line reason */
        self->s->obs.ctx = self;
    }
    return 0;
}

static void Search_dealloc(SearchObject *self)
{
    ng_free(self->s);
    Py_XDECREF(self->callback);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Search_next(SearchObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"max_nodes", "timeout", "max_work", NULL};
    long long max_nodes = -1, max_work = -1;
    double timeout = -1.0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|LdL", kwlist, &max_nodes, &timeout, &max_work))
        return NULL;
    ng_solver *s = self->s;
    if (!s) { PyErr_SetString(PyExc_RuntimeError, "Search not initialised"); return NULL; }
    s->lim.max_nodes = max_nodes;
    s->lim.max_work = max_work;
    s->lim.deadline = timeout >= 0 ? eng_now() + timeout : 0;
    if (engine_begin(&s->lim) < 0) return NULL;
    int r;
    if (self->callback) {
        r = ng_next(s);  /* the callback needs the GIL anyway */
    } else {
        Py_BEGIN_ALLOW_THREADS
        r = ng_next(s);
        Py_END_ALLOW_THREADS
    }
    if (engine_end(&s->lim) < 0 || self->callback_failed) return NULL;
    if (r == NG_NOMEM || s->nomem) return PyErr_NoMemory();
    return PyLong_FromLong(r);
}

static PyObject *Search_restart(SearchObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"seed", "guide", NULL};
    unsigned long long seed = 0;
    const char *guide = NULL;
    Py_ssize_t glen = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|Kz#", kwlist, &seed, &guide, &glen)) return NULL;
    ng_solver *s = self->s;
    uint8_t *g = NULL;
    if (guide) {
        if (glen != s->pz.ncells) { PyErr_SetString(PyExc_ValueError, "guide must have one byte per cell"); return NULL; }
        g = malloc(s->pz.ncells);
        if (!g) return PyErr_NoMemory();
        for (Py_ssize_t i = 0; i < glen; i++) {
            if (guide[i] != '#' && guide[i] != '.') {
                free(g);
                PyErr_SetString(PyExc_ValueError, "guide cells must be '#' or '.'");
                return NULL;
            }
            g[i] = guide[i] == '#' ? CELL_FILLED : CELL_EMPTY;
        }
    }
    if (engine_begin(&s->lim) < 0) { free(g); return NULL; }
    int r;
    Py_BEGIN_ALLOW_THREADS
    r = ng_restart(s, seed, g);
    Py_END_ALLOW_THREADS
    free(g);
    if (engine_end(&s->lim) < 0) return NULL;
    if (r < 0) return PyErr_NoMemory();
    return PyBool_FromLong(r);
}

static PyObject *grid_bytes(const uint8_t *cells, int n)
{
    PyObject *b = PyBytes_FromStringAndSize(NULL, n);
    if (!b) return NULL;
    char *p = PyBytes_AS_STRING(b);
    for (int i = 0; i < n; i++)
        p[i] = cells[i] == CELL_FILLED ? '#' : cells[i] == CELL_EMPTY ? '.' : '?';
    return b;
}

static PyObject *Search_grid(SearchObject *self, PyObject *unused)
{
    return grid_bytes(self->s->cells, self->s->pz.ncells);
}

static PyObject *Search_root(SearchObject *self, PyObject *unused)
{
    ng_solver *s = self->s;
    return grid_bytes(s->state == ST_START ? s->cells : s->root, s->pz.ncells);
}

static PyObject *Search_fix(SearchObject *self, PyObject *args)
{
    Py_buffer buf;
    if (!PyArg_ParseTuple(args, "y*", &buf)) return NULL;
    ng_solver *s = self->s;
    const char *cells = buf.buf;
    const char *problem = NULL;
    if (!s) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_RuntimeError, "Search not initialised");
        return NULL;
    }
    if (buf.len != (Py_ssize_t)s->pz.ncells)
        problem = "fix() takes one byte per cell";
    else if (s->state != ST_START || s->trail_len || s->im.keep_root || s->obs.fn)
        problem = "fix() comes once, before the search starts, without root_implications or "
                  "a callback";
    for (Py_ssize_t i = 0; !problem && i < buf.len; i++)
        if (cells[i] != '#' && cells[i] != '.' && cells[i] != '?')
            problem = "fix() takes '#', '.' or '?' per cell";
    if (problem) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_ValueError, problem);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < buf.len; i++)
        if (cells[i] != '?') ng_set(s, (int)i, cells[i] == '#' ? CELL_FILLED : CELL_EMPTY);
    PyBuffer_Release(&buf);
    Py_RETURN_NONE;
}

static PyObject *Search_root_implications(SearchObject *self, PyObject *unused)
{
    ng_solver *s = self->s;
    return PyBytes_FromStringAndSize((const char *)s->im.root,
                                     (Py_ssize_t)(s->im.root_used * sizeof(int)));
}

static PyObject *Search_stats(SearchObject *self, PyObject *unused)
{
    ng_solver *s = self->s;
    return Py_BuildValue("{s:L,s:L,s:L,s:L,s:L,s:L,s:i,s:L,s:L,s:i,s:i,s:L,s:L}", "nodes", s->lim.nodes, "line_solves", s->lim.line_solves,
                         "cache_hits", s->lc.hits, "probes", s->lim.probes, "implied_fixes",
                         s->im.fixes, "max_depth", s->lim.max_depth, "nogoods", s->ngd.count,
                         "nogood_units", s->ngd.units, "nogood_conflicts", s->ngd.conflicts,
                         "root_complete", s->root_done, "timed_out", s->lim.aborted,
                         "bp_rounds", s->bp.rounds, "fails", s->fails);
}

static PyMethodDef Search_methods[] = {
    {"next", (PyCFunction)(void (*)(void))Search_next, METH_VARARGS | METH_KEYWORDS,
     "next(max_nodes=-1, timeout=-1.0, max_work=-1) -> 1 solution found, 0 search exhausted, 2 limit reached "
     "(after a node limit, next() with a higher one goes on)"},
    {"restart", (PyCFunction)(void (*)(void))Search_restart, METH_VARARGS | METH_KEYWORDS,
     "restart(seed=0, guide=None) -> bool: search again from the root, randomised by seed, "
     "trying guide's values ('#'/'.' per cell) first"},
    {"grid", (PyCFunction)Search_grid, METH_NOARGS, "the current grid as bytes of '#', '.', '?'"},
    {"root", (PyCFunction)Search_root, METH_NOARGS, "the cells known at the root (sound deductions)"},
    {"fix", (PyCFunction)Search_fix, METH_VARARGS,
     "fix(cells: bytes) -> None: before the search starts, set the cells given ('#' filled, '.' "
     "empty, '?' open; one byte per cell): the search then looks only for solutions that agree"},
    {"root_implications", (PyCFunction)Search_root_implications, METH_NOARGS,
     "what the probes at the root fixed (with root_implications=True), as native ints: records "
     "of (literal, count, literals...); a literal is 2 * cell + 1 for filled, 2 * cell for empty"},
    {"stats", (PyCFunction)Search_stats, METH_NOARGS, "counters: nodes, line_solves, cache_hits, probes, max_depth, root_complete, timed_out"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "gridsolve.nonogram.engine._core.Search",
    .tp_basicsize = sizeof(SearchObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Search(rows, cols, probing=True, callback=None, implications=True, order=0, weights=True, nogoods=False, root_implications=False, probe_share=0.0): a resumable "
               "nonogram search (implication probing is off with a callback, and above 1024 cells; "
               "order is the branching rule: 0 loose, 1 tight, 2 likely, 3 sure, 4 promise; weights: weigh lines by "
               "the contradictions they find and branch where they are heavy; nogoods: restart() keeps the nogoods of "
               "the path searched, so that restarted runs never search a refuted part again; probe_share: without "
               "probing, probe at the nodes where at most this share of the cells is open; see core.h)",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
};

/* ---------------------------------------------------------------- line solver */

static PyObject *py_solve_line(PyObject *mod, PyObject *args)
{
    PyObject *clue_obj;
    const char *line;
    Py_ssize_t n;
    int bits = 1, banded = 0;
    double timeout = -1.0;
    if (!PyArg_ParseTuple(args, "Os#|ppd", &clue_obj, &line, &n, &bits, &banded, &timeout)) return NULL;
    if (n > NG_MAX_SIDE) { PyErr_SetString(PyExc_ValueError, "line length out of range"); return NULL; }
    int *flat, len;
    if (flatten_line_clue(clue_obj, n, &flat, &len) < 0) return NULL;
    int k = flat[0];
    const size_t cells = ((size_t)k + 1) * ((size_t)n + 1);
    banded = banded || cells > NG_DENSE_MAX_CELLS;  /* line.c's tables only when they are small */
    uint8_t *in = malloc(n + 1), *out = malloc(n + 1), *fwd = banded ? NULL : malloc(cells),
            *bwd = banded ? NULL : malloc(cells);
    int *pe = malloc(sizeof(int) * (n + 1)), *pf = malloc(sizeof(int) * (n + 1)),
        *diff = malloc(sizeof(int) * (n + 1));
    PyObject *result = NULL;
    if (!in || !out || (!banded && (!fwd || !bwd)) || !pe || !pf || !diff) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) in[i] = cell_of_char(line[i]);
    int ok;
    if (banded) {
        /* Only this solver's time can pass a second (O(blocks x slack): a row of 100,000
         * cells, half of them known, takes 8-12 s); the others' tables stay under
         * NG_DENSE_MAX_CELLS, a few milliseconds. */
        eng_limits lim = {0};
        lim.deadline = timeout >= 0 ? eng_now() + timeout : 0;
        if (engine_begin(&lim) < 0) goto done;
        Py_BEGIN_ALLOW_THREADS
        ok = ng_solve_line_long(flat + 1, k, in, out, (int)n, &lim);
        Py_END_ALLOW_THREADS
        if (engine_end(&lim) < 0) goto done;
        if (ok < 0) { PyErr_NoMemory(); goto done; }
        if (ok == 2) { PyErr_SetString(PyExc_TimeoutError, "the line solve passed its timeout"); goto done; }
    } else if (bits && n <= NG_BITS_MAX) {
        uint64_t canF = 0, canE = 0, outF, outE, *fw = malloc(sizeof(uint64_t) * (k + 1)),
                 *bw = malloc(sizeof(uint64_t) * (k + 1)), *run = malloc(sizeof(uint64_t) * (k + 1));
        if (!fw || !bw || !run) { free(fw); free(bw); free(run); PyErr_NoMemory(); goto done; }
        for (Py_ssize_t i = 0; i < n; i++) {
            if (in[i] & CELL_FILLED) canF |= 1ULL << i;
            if (in[i] & CELL_EMPTY) canE |= 1ULL << i;
        }
        ok = ng_solve_bits(flat + 1, k, (int)n, canF, canE, &outF, &outE, fw, bw, run);
        free(fw); free(bw); free(run);
        for (Py_ssize_t i = 0; ok && i < n; i++)
            out[i] = (uint8_t)(((outF >> i) & 1 ? CELL_FILLED : 0) | ((outE >> i) & 1 ? CELL_EMPTY : 0));
#if NG_BITS2_MAX
    } else if (bits && n <= NG_BITS2_MAX) {
        ng_u128 *b2 = eng_malloc(3 * ((size_t)k + 1), sizeof(ng_u128));
        if (!b2) { PyErr_NoMemory(); goto done; }
        ok = ng_solve_bytes2(flat + 1, k, in, out, (int)n, b2);
        free(b2);
#endif
    } else {
        ok = ng_solve_line(flat + 1, k, in, out, (int)n, fwd, bwd, pe, pf, diff);
    }
    if (ok)
        result = grid_bytes(out, (int)n);
    else { Py_INCREF(Py_None); result = Py_None; }
done:
    free(flat); free(in); free(out); free(fwd); free(bwd); free(pe); free(pf); free(diff);
    return result;
}

/* A solver of one line: a one-row grid of the line's clue, then n empty column clues (never
 * solved here). NULL with a Python error set when the clue is bad or memory runs out. */
static ng_solver *one_line_solver(PyObject *clue_obj, Py_ssize_t n)
{
    int *flat, len;
    if (flatten_line_clue(clue_obj, n, &flat, &len) < 0) return NULL;
    int *grid = eng_malloc((size_t)len + (size_t)n, sizeof(int));
    ng_solver *s = NULL;
    if (grid) {
        memcpy(grid, flat, sizeof(int) * len);
        for (Py_ssize_t i = 0; i < n; i++) grid[len + i] = 0;
        s = ng_new((int)n, 1, grid, len + (int)n);
    }
    free(flat); free(grid);
    if (!s) PyErr_NoMemory();
    return s;
}

/* A tuple of the n doubles at x, or None when x is NULL; NULL on a Python error. */
static PyObject *doubles_or_none(const double *x, Py_ssize_t n)
{
    if (!x) Py_RETURN_NONE;
    PyObject *result = PyTuple_New(n);
    for (Py_ssize_t i = 0; result && i < n; i++) {
        PyObject *item = PyFloat_FromDouble(x[i]);
        if (!item) { Py_CLEAR(result); break; }  /* no tuple with a missing item */
        PyTuple_SET_ITEM(result, i, item);
    }
    return result;
}

/* The shares the likely and sure branching rules use: for each cell of a line, the share of
 * the clue's arrangements fitting the line in which it is filled (None if none fits or there
 * are more than 10^300). */
static PyObject *py_line_shares(PyObject *mod, PyObject *args)
{
    PyObject *clue_obj;
    const char *line;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "Os#", &clue_obj, &line, &n)) return NULL;
    if (n < 1 || n > NG_MAX_SIDE) { PyErr_SetString(PyExc_ValueError, "line length out of range"); return NULL; }
    ng_solver *s = one_line_solver(clue_obj, n);
    if (!s) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) s->cells[i] = cell_of_char(line[i]);
    PyObject *result = doubles_or_none(ng_line_likely(s, 0), n);
    ng_free(s);
    return result;
}

/* line_marginals(clue, probs): belief propagation's line factor (bp.c's ng_bp_line) on one
 * line whose cell i is filled with probability probs[i] independently: per cell, the
 * probability that it is filled given that the line fits its clue; None if nothing fits. */
static PyObject *py_line_marginals(PyObject *mod, PyObject *args)
{
    PyObject *clue_obj, *probs_obj;
    if (!PyArg_ParseTuple(args, "OO", &clue_obj, &probs_obj)) return NULL;
    PyObject *fast = PySequence_Fast(probs_obj, "probs must be a sequence of floats");
    if (!fast) return NULL;
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n < 1 || n > NG_MAX_SIDE) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "line length out of range");
        return NULL;
    }
    double *p = eng_malloc((size_t)n, sizeof(double)), *m = eng_malloc((size_t)n, sizeof(double));
    if (!p || !m) { free(p); free(m); Py_DECREF(fast); return PyErr_NoMemory(); }
    for (Py_ssize_t i = 0; i < n; i++) {
        p[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
        if (p[i] == -1.0 && PyErr_Occurred()) { free(p); free(m); Py_DECREF(fast); return NULL; }
        if (!(p[i] >= 0.0 && p[i] <= 1.0)) {
            free(p); free(m); Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "probabilities must be between 0 and 1");
            return NULL;
        }
    }
    Py_DECREF(fast);
    if (((size_t)n + 1) * ((size_t)n + 1) > NG_COUNT_MAX_CELLS) {
        free(p); free(m);
        PyErr_SetString(PyExc_ValueError, "line too long for belief propagation");
        return NULL;
    }
    ng_solver *s = one_line_solver(clue_obj, n);
    PyObject *result = NULL;
    if (s && !ng_bp_scratch(s)) PyErr_NoMemory();
    else if (s) result = doubles_or_none(ng_bp_line(s, 0, p, m) ? m : NULL, n);
    ng_free(s); free(p); free(m);
    return result;
}

static PyMethodDef module_methods[] = {
    {"line_marginals", py_line_marginals, METH_VARARGS,
     "line_marginals(clue, probs) -> per cell, the probability that it is filled given that the "
     "line fits its clue, when cell i is filled with probability probs[i] independently "
     "(the bp branching rule's line factor), or None if nothing fits"},
    {"line_shares", py_line_shares, METH_VARARGS,
     "line_shares(clue, line: bytes of '#', '.', '?') -> per cell, the share of the fitting "
     "arrangements in which it is filled (the likely/sure branching rules' counts), or None"},
    {"solve_line", py_solve_line, METH_VARARGS,
     "solve_line(clue, line: bytes of '#', '.', '?', bits=True, banded=False, timeout=-1.0) -> narrowed line as "
     "bytes, or None if impossible; bits=False forces the byte DP (lines over 63 cells always use "
     "it), banded=True the bounded-memory one of long lines (line_long.c); TimeoutError once timeout "
     "seconds (if >= 0) have passed"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "_core", "Compiled nonogram engine.", -1, module_methods,
};

PyMODINIT_FUNC PyInit__core(void)
{
    if (PyType_Ready(&SearchType) < 0) return NULL;
    if (eng_interrupt_import() < 0) return NULL;  /* Ctrl-C stops the loops (interrupt.h) */
    PyObject *m = PyModule_Create(&moduledef);
    if (!m) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    /* the constants Python needs, from their one definition in core.h */
    static const struct { const char *name; int value; } constants[] = {
        {"SOLUTION", NG_SOLUTION}, {"EXHAUSTED", NG_EXHAUSTED}, {"LIMIT", NG_LIMIT},
        {"IMPL_MAX_CELLS", NG_IMPL_MAX_CELLS}, {"BITS_MAX", NG_BITS_MAX},
        {"CELL_EMPTY", CELL_EMPTY}, {"CELL_FILLED", CELL_FILLED}, {"CELL_UNKNOWN", CELL_UNKNOWN},
        {"ORDER_LOOSE", NG_ORDER_LOOSE}, {"ORDER_TIGHT", NG_ORDER_TIGHT},
        {"ORDER_LIKELY", NG_ORDER_LIKELY}, {"ORDER_SURE", NG_ORDER_SURE},
        {"ORDER_PROMISE", NG_ORDER_PROMISE}, {"ORDER_BP", NG_ORDER_BP},
        {"EV_LINE", EV_LINE}, {"EV_PROBE", EV_PROBE}, {"EV_PROBE_FIX", EV_PROBE_FIX},
        {"EV_GUESS", EV_GUESS}, {"EV_BACKTRACK", EV_BACKTRACK}, {"EV_SOLUTION", EV_SOLUTION},
        {"EV_TRY", EV_TRY},
    };
    for (size_t i = 0; i < sizeof constants / sizeof constants[0]; i++)
        if (PyModule_AddIntConstant(m, constants[i].name, constants[i].value) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    return m;
}
