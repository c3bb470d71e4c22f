/* CPython binding of the colour nonogram engine (colour.h): a resumable Search and the line
 * solver. The whole search loop runs in C with the GIL released; Python only asks for the next
 * solution. The engine's parts are included here as one compilation unit, in this order. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "colour_line.c"
#include "colour_setup.c"
#include "colour_propagate.c"
#include "colour_nogood.c"
#include "colour_probe.c"
#include "colour_bp.c"
#include "colour_search.c"

/* Append one clue, a sequence of (length, colour) pairs, to flat as [count, len, col, ...].
 * Checks lengths, colours (1..ncolours-1) and that the clue fits a line of line_len cells. */
static int flatten_clue(PyObject *obj, int ncolours, int line_len, int **flat, int *len, int *cap)
{
    PyObject *clue = PySequence_Fast(obj, "each clue must be a sequence of (length, colour)");
    if (!clue) return -1;
    const Py_ssize_t k = PySequence_Fast_GET_SIZE(clue);
    if (*len + 2 * k + 1 > *cap) {
        const int newcap = (*cap + 2 * (int)k + 1) * 2;
        int *bigger = eng_realloc(*flat, (size_t)newcap, sizeof(int));
        if (!bigger) { Py_DECREF(clue); PyErr_NoMemory(); return -1; }
        *flat = bigger; *cap = newcap;
    }
    (*flat)[(*len)++] = (int)k;
    long need = 0, prev = -1;
    for (Py_ssize_t t = 0; t < k; t++) {
        long v[2];
        PyObject *pair = PySequence_Fast(PySequence_Fast_GET_ITEM(clue, t),
                                         "a block is a (length, colour) pair");
        if (!pair) { Py_DECREF(clue); return -1; }
        if (PySequence_Fast_GET_SIZE(pair) != 2) {
            PyErr_SetString(PyExc_ValueError, "a block is a (length, colour) pair");
            Py_DECREF(pair); Py_DECREF(clue); return -1;
        }
        for (int u = 0; u < 2; u++) {
            v[u] = PyLong_AsLong(PySequence_Fast_GET_ITEM(pair, u));
            if (v[u] == -1 && PyErr_Occurred()) { Py_DECREF(pair); Py_DECREF(clue); return -1; }
        }
        Py_DECREF(pair);
        if (v[0] <= 0 || v[0] > line_len || v[1] < 1 || v[1] >= ncolours) {
            PyErr_SetString(PyExc_ValueError, "block lengths must be 1..line length and colours "
                                              "1..ncolours-1");
            Py_DECREF(clue); return -1;
        }
        need += v[0] + (v[1] == prev);
        prev = v[1];
        (*flat)[(*len)++] = (int)v[0];
        (*flat)[(*len)++] = (int)v[1];
    }
    Py_DECREF(clue);
    if (need > line_len) {
        PyErr_SetString(PyExc_ValueError, "a clue does not fit its line");
        return -1;
    }
    return 0;
}

static int flatten_clues(PyObject *seq, int expected, int ncolours, int line_len, int **flat,
                         int *len, int *cap)
{
    PyObject *fast = PySequence_Fast(seq, "clues must be a sequence of clues");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != expected) {
        PyErr_SetString(PyExc_ValueError, "number of clues does not match the grid size");
        Py_DECREF(fast);
        return -1;
    }
    for (int i = 0; i < expected; i++)
        if (flatten_clue(PySequence_Fast_GET_ITEM(fast, i), ncolours, line_len, flat, len, cap) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    Py_DECREF(fast);
    return 0;
}

/* The class of a refusal: gridsolve.errors.GridsolveError (the library's one exception tree),
 * or MemoryError if it cannot be imported. A new reference. */
static PyObject *refusal_class(void)
{
    PyObject *errors = PyImport_ImportModule("gridsolve.errors");
    PyObject *cls = errors ? PyObject_GetAttrString(errors, "GridsolveError") : NULL;
    Py_XDECREF(errors);
    if (!cls) {
        PyErr_Clear();
        Py_INCREF(PyExc_MemoryError);
        cls = PyExc_MemoryError;
    }
    return cls;
}

/* ---------------------------------------------------------------- Search type */

typedef struct {
    PyObject_HEAD
    cg_solver *s;
    PyObject *callback;   /* called as callback(kind, a, b, c, cells) while searching */
    int callback_failed;
} SearchObject;

/* The observer's events as calls of the Python callback; a line's cells go with the index
 * each has now (cell * 256 + index, NOT_KNOWN while several colours are left). A callback
 * that raises stops the search (as a limit), and next() raises its exception. */
static void event_trampoline(void *ctx, int kind, int a, int b, int c, const cg_change *changes,
                             int nchanges)
{
    SearchObject *self = ctx;
    if (self->callback_failed) return;
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *cells = PyTuple_New(nchanges);
    PyObject *r = NULL;
    if (cells) {
        int made = 1;
        for (int i = 0; made && i < nchanges; i++) {
            const long long code = (long long)changes[i].cell * 256
                                   + cg_index(self->s->cells[changes[i].cell]);
            PyObject *item = PyLong_FromLongLong(code);
            if (!item) made = 0;
            else PyTuple_SET_ITEM(cells, i, item);
        }
        if (made) r = PyObject_CallFunction(self->callback, "iiiiO", kind, a, b, c, cells);
        Py_DECREF(cells);
    }
    if (!r) { self->callback_failed = 1; self->s->lim.aborted = 1; }
    Py_XDECREF(r);
    PyGILState_Release(g);
}

static int Search_init(SearchObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"rows", "cols", "ncolours", "probing", "root_implications",
                             "callback", "order", "probe_share", "nogoods", "implications",
                             NULL};
    PyObject *rows, *cols, *callback = Py_None;
    int ncolours, probing = 1, root_implications = 0, order = CG_ORDER_PROBES, nogoods = 0;
    int implications = 0;
    double probe_share = 0.0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOi|ppO$idpp", kwlist, &rows, &cols, &ncolours,
                                     &probing, &root_implications, &callback, &order,
                                     &probe_share, &nogoods, &implications))
        return -1;
    if (order != CG_ORDER_PROBES && order != CG_ORDER_BP && order != CG_ORDER_WDEG) {
        PyErr_SetString(PyExc_ValueError, "order must be ORDER_PROBES, ORDER_BP or ORDER_WDEG");
        return -1;
    }
    if (!(probe_share >= 0.0 && probe_share <= 1.0)) {
        PyErr_SetString(PyExc_ValueError, "probe_share must be between 0 and 1");
        return -1;
    }
    if (callback != Py_None && !PyCallable_Check(callback)) {
        PyErr_SetString(PyExc_TypeError, "callback must be callable");
        return -1;
    }
    if (ncolours < 2 || ncolours > CG_MAX_COLOURS) {
        PyErr_SetString(PyExc_ValueError, "ncolours must be 2..32 (background included)");
        return -1;
    }
    const Py_ssize_t h = PySequence_Size(rows), w = PySequence_Size(cols);
    if (h < 0 || w < 0) return -1;
    if (h < 1 || w < 1 || h > 100000 || w > 100000 || (long long)h * w > 100000000LL) {
        PyErr_SetString(PyExc_ValueError, "grid size out of range");
        return -1;
    }
    int *flat = NULL, len = 0, cap = 0;
    if (flatten_clues(rows, (int)h, ncolours, (int)w, &flat, &len, &cap) < 0
        || flatten_clues(cols, (int)w, ncolours, (int)h, &flat, &len, &cap) < 0) {
        free(flat);
        return -1;
    }
    int max_k = 0;  /* the line solver's tables: refused clearly when they would be too big */
    for (int at = 0; at < len; at += 2 * flat[at] + 1)
        if (flat[at] > max_k) max_k = flat[at];
    const size_t longest = (size_t)(w > h ? w : h);
    const size_t table = ((size_t)max_k + 1) * (longest + 1);
    if (table > CG_TABLE_MAX_BYTES) {
        free(flat);
        PyObject *cls = refusal_class();
        PyErr_Format(cls, "the colour line solver would need %zu MB for lines of %zu cells "
                     "and clues of %d blocks (limit %zu MB)", 2 * table >> 20, longest, max_k,
                     2 * CG_TABLE_MAX_BYTES >> 20);
        Py_DECREF(cls);
        return -1;
    }
    if (self->s) cg_free(self->s);
    self->s = cg_new((int)w, (int)h, ncolours, flat, len);
    free(flat);
    if (!self->s) { PyErr_NoMemory(); return -1; }
    self->s->probing = probing;
    self->s->keep_root_impl = root_implications;
    self->s->order = order;
    self->s->ngd.on = nogoods;
    if (implications) {  /* implication probing (cg_implied): its per-cell index */
        self->s->im.off = calloc((size_t)self->s->pz.ncells + 1, sizeof(int));
        if (!self->s->im.off) {
            cg_free(self->s);
            self->s = NULL;
            PyErr_NoMemory();
            return -1;
        }
        self->s->im.on = 1;
    }
    self->s->probe_open = (int)(probe_share * (double)self->s->pz.ncells);
    Py_CLEAR(self->callback);
    self->callback_failed = 0;
    if (callback != Py_None) {
        Py_INCREF(callback);
        self->callback = callback;
        self->s->obs.fn = event_trampoline;
        self->s->obs.ctx = self;
    }
    return 0;
}

static void Search_dealloc(SearchObject *self)
{
    cg_free(self->s);
    Py_XDECREF(self->callback);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Search_next(SearchObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"max_nodes", "timeout", "max_work", "pause_work", "pause_fails", NULL};
    long long max_nodes = -1, max_work = -1, pause_work = -1, pause_fails = -1;
    double timeout = -1.0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|LdLLL", kwlist, &max_nodes, &timeout, &max_work,
                                     &pause_work, &pause_fails))
        return NULL;
    cg_solver *s = self->s;
    if (!s) { PyErr_SetString(PyExc_RuntimeError, "Search not initialised"); return NULL; }
    s->lim.max_nodes = max_nodes;
    s->lim.max_work = max_work;
    s->pause_work = pause_work;
    s->pause_fails = pause_fails;
    s->lim.deadline = timeout >= 0 ? eng_now() + timeout : 0;
    /* Ctrl-C stops it from here on (interrupt.h); a signal that came just before raises now */
    s->lim.sigints = eng_interrupt_enter();
    s->lim.interrupted = 0;
    if (PyErr_CheckSignals() < 0) return NULL;
    int r;
    if (self->callback) {
        r = cg_next(s);  /* the callback needs the GIL anyway */
    } else {
        Py_BEGIN_ALLOW_THREADS
        r = cg_next(s);
        Py_END_ALLOW_THREADS
    }
    if (self->callback_failed) return NULL;  /* the callback's exception */
    if (s->lim.interrupted && PyErr_CheckSignals() < 0) return NULL;  /* KeyboardInterrupt */
    if (r == CG_NOMEM) return PyErr_NoMemory();
    return PyLong_FromLong(r);
}

/* One byte per cell: its palette index when one colour is left, CG_NOT_KNOWN otherwise. */
static PyObject *grid_bytes(const cg_mask *cells, int n)
{
    PyObject *b = PyBytes_FromStringAndSize(NULL, n);
    if (!b) return NULL;
    unsigned char *p = (unsigned char *)PyBytes_AS_STRING(b);
    for (int i = 0; i < n; i++)
        p[i] = (cells[i] && cg_single(cells[i])) ? (unsigned char)__builtin_ctz(cells[i]) : CG_NOT_KNOWN;
    return b;
}

static PyObject *Search_grid(SearchObject *self, PyObject *unused)
{
    if (!self->s) { PyErr_SetString(PyExc_RuntimeError, "Search not initialised"); return NULL; }
    return grid_bytes(self->s->cells, self->s->pz.ncells);
}

static PyObject *Search_root(SearchObject *self, PyObject *unused)
{
    cg_solver *s = self->s;
    if (!s) { PyErr_SetString(PyExc_RuntimeError, "Search not initialised"); return NULL; }
    return grid_bytes(s->state == CS_START ? s->cells : s->root, s->pz.ncells);
}

/* The root's colour masks (bit c: colour c still possible), one native uint32 per cell: all
 * colours before the root is settled, as root() reads. */
static PyObject *Search_root_masks(SearchObject *self, PyObject *unused)
{
    cg_solver *s = self->s;
    if (!s) { PyErr_SetString(PyExc_RuntimeError, "Search not initialised"); return NULL; }
    return PyBytes_FromStringAndSize((const char *)(s->state == CS_START ? s->cells : s->root),
                                     (Py_ssize_t)((size_t)s->pz.ncells * sizeof(cg_mask)));
}

static PyObject *Search_root_implications(SearchObject *self, PyObject *unused)
{
    cg_solver *s = self->s;
    if (!s) { PyErr_SetString(PyExc_RuntimeError, "Search not initialised"); return NULL; }
    return PyBytes_FromStringAndSize((const char *)s->root_impl,
                                     (Py_ssize_t)(s->root_impl_used * sizeof(uint32_t)));
}

/* Known cells: one native uint32 mask per cell (bit c: colour c allowed), intersected with
 * each cell's colours before the search starts (see cg_fix). implied: the masks follow from
 * the clues alone (another search's root_masks), so the root's implications stay sound and
 * may be kept. settled: they are also a fixpoint of line propagation (a search's settled
 * root); when the cells are then exactly those masks, the root does not solve every line
 * again before it probes. */
static PyObject *Search_fix(SearchObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"", "implied", "settled", NULL};
    Py_buffer buf;
    int implied = 0, settled = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "y*|$pp", kwlist, &buf, &implied, &settled))
        return NULL;
    cg_solver *s = self->s;
    const char *problem = NULL;
    if (!s) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_RuntimeError, "Search not initialised");
        return NULL;
    }
    const size_t n = (size_t)s->pz.ncells;
    if ((size_t)buf.len != n * sizeof(cg_mask))
        problem = "fix() takes one native uint32 mask per cell";
    else if (s->state != CS_START || (s->keep_root_impl && !implied) || self->callback)
        problem = "fix() comes before the search starts, without a callback, and with "
                  "root_implications only when implied";
    if (problem) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_ValueError, problem);
        return NULL;
    }
    cg_mask *known = eng_malloc(n ? n : 1, sizeof(cg_mask));
    if (!known) { PyBuffer_Release(&buf); return PyErr_NoMemory(); }
    memcpy(known, buf.buf, n * sizeof(cg_mask));  /* (the buffer may not be aligned) */
    PyBuffer_Release(&buf);
    cg_fix(s, known);
    s->root_settled = settled && !s->fixed_empty
        && memcmp(s->cells, known, n * sizeof(cg_mask)) == 0;
    free(known);
    Py_RETURN_NONE;
}

static PyObject *Search_stats(SearchObject *self, PyObject *unused)
{
    cg_solver *s = self->s;
    if (!s) { PyErr_SetString(PyExc_RuntimeError, "Search not initialised"); return NULL; }
    return Py_BuildValue("{s:L,s:L,s:L,s:L,s:L,s:i,s:i,s:L,s:L,s:L,s:i,s:L,s:L,s:L,s:L}", "nodes", s->lim.nodes,
                         "line_solves", s->lim.line_solves, "cache_hits", s->cache_hits,
                         "probes", s->lim.probes,
                         "max_depth", s->lim.max_depth, "root_complete", s->root_done,
                         "timed_out", s->lim.aborted, "fails", s->fails,
                         "bp_rounds", s->bp.rounds, "bp_lines", s->bp.lines,
                         "nogoods", s->ngd.count, "nogood_units", s->ngd.units,
                         "nogood_conflicts", s->ngd.conflicts, "solutions", s->solutions,
                         "implied_fixes", s->im.fixes);
}

/* Back to the settled root, randomised by seed (0: not), branching by order from then on
 * (-1: as before), keeping the path's nogoods when the search was made with nogoods=True;
 * False when there is nothing to restart (before the root, or after a time limit or a work
 * budget stopped it for good). */
static PyObject *Search_restart(SearchObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"seed", "order", NULL};
    unsigned long long seed = 0;
    int order = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|K$i", kwlist, &seed, &order)) return NULL;
    if (!self->s) { PyErr_SetString(PyExc_RuntimeError, "Search not initialised"); return NULL; }
    if (self->callback) {
        PyErr_SetString(PyExc_ValueError, "a watched search does not restart");
        return NULL;
    }
    if (order != -1 && order != CG_ORDER_PROBES && order != CG_ORDER_BP && order != CG_ORDER_WDEG) {
        PyErr_SetString(PyExc_ValueError, "order must be ORDER_PROBES, ORDER_BP or ORDER_WDEG");
        return NULL;
    }
    const int r = cg_restart(self->s, seed, order);
    if (r < 0) return PyErr_NoMemory();
    return PyBool_FromLong(r);
}

static PyMethodDef Search_methods[] = {
    {"next", (PyCFunction)(void (*)(void))Search_next, METH_VARARGS | METH_KEYWORDS,
     "next(max_nodes=-1, timeout=-1.0, max_work=-1, pause_work=-1, pause_fails=-1) -> 1 "
     "solution found, 0 search exhausted, 2 limit reached (a node limit, pause_work or "
     "pause_fails (failed nodes) pauses it at a node: the "
     "next call goes on from there; a timeout or max_work stops it for good)"},
    {"restart", (PyCFunction)(void (*)(void))Search_restart, METH_VARARGS | METH_KEYWORDS,
     "restart(seed=0, *, order=-1) -> bool: back to the settled root, the order randomised "
     "when seed != 0, branching by order from then on (-1: as before); with nogoods=True the "
     "refutations of the run are kept as nogoods and the root settles again with them"},
    {"grid", (PyCFunction)Search_grid, METH_NOARGS,
     "the current grid: one byte per cell, its palette index or NOT_KNOWN (255)"},
    {"root", (PyCFunction)Search_root, METH_NOARGS,
     "the cells known at the root (sound deductions), as grid()"},
    {"root_masks", (PyCFunction)Search_root_masks, METH_NOARGS,
     "the root's colour masks, one native uint32 per cell (bit c: colour c still possible)"},
    {"root_implications", (PyCFunction)Search_root_implications, METH_NOARGS,
     "what the probes at the root narrowed (with root_implications=True), as native uint32: "
     "records of cell * ncolours + colour, count, then count pairs (cell, mask under it)"},
    {"fix", (PyCFunction)(void (*)(void))Search_fix, METH_VARARGS | METH_KEYWORDS,
     "fix(masks: bytes, *, implied=False, settled=False) -> None: before the search starts, "
     "narrow each cell to the colours its native uint32 mask allows (bit c: colour c); only "
     "solutions that agree are found. implied: the masks follow from the clues alone "
     "(another search's root_masks), so root_implications may be kept; settled: they are a "
     "fixpoint of line propagation too, which the root then does not repeat"},
    {"stats", (PyCFunction)Search_stats, METH_NOARGS,
     "counters: nodes, line_solves (belief propagation's line passes included), cache_hits, "
     "probes, max_depth, root_complete, timed_out, fails, bp_rounds, bp_lines, nogoods, "
     "nogood_units, nogood_conflicts, solutions (stood on, again after a restart too), "
     "implied_fixes (colours implication probing removed)"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "gridsolve.nonogram.engine._colour.Search",
    .tp_basicsize = sizeof(SearchObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Search(rows, cols, ncolours, probing=True, root_implications=False, callback=None, "
              "*, order=ORDER_PROBES, probe_share=0.0, nogoods=False, implications=False): a "
              "resumable colour nonogram search; order=ORDER_BP branches by belief propagation "
              "(the dive), probing (when probing is off) at nodes with at most probe_share of "
              "the cells open; ORDER_WDEG by the probes and conflict weights; nogoods: restarts "
              "keep the run's refutations as nogoods; implications: implication probing at the "
              "root and the first two levels of guesses",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
};

/* ---------------------------------------------------------------- line solver */

static PyObject *py_solve_line(PyObject *mod, PyObject *args)
{
    PyObject *clue_obj, *masks_obj;
    if (!PyArg_ParseTuple(args, "OO", &clue_obj, &masks_obj)) return NULL;
    PyObject *masks = PySequence_Fast(masks_obj, "masks must be a sequence of ints");
    if (!masks) return NULL;
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(masks);
    int *flat = NULL, len = 0, cap = 0;
    cg_work w = {0};
    cg_mask *in = NULL, *out = NULL;
    PyObject *result = NULL;
    if (n < 1 || n > 100000) { PyErr_SetString(PyExc_ValueError, "line length out of range"); goto done; }
    if (flatten_clue(clue_obj, CG_MAX_COLOURS, (int)n, &flat, &len, &cap) < 0) goto done;
    if (((size_t)flat[0] + 1) * ((size_t)n + 1) > CG_TABLE_MAX_BYTES) {
        PyObject *cls = refusal_class();
        PyErr_Format(cls, "the colour line solver would need over %zu MB for a line of %zd "
                     "cells and %d blocks", 2 * CG_TABLE_MAX_BYTES >> 20, n, flat[0]);
        Py_DECREF(cls);
        goto done;
    }
    in = malloc(sizeof(cg_mask) * n);
    out = malloc(sizeof(cg_mask) * n);
    if (!in || !out || !cg_work_init(&w, (int)n, flat[0])) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t i = 0; i < n; i++) {
        const unsigned long v = PyLong_AsUnsignedLong(PySequence_Fast_GET_ITEM(masks, i));
        if (PyErr_Occurred()) goto done;
        if (v > 0xFFFFFFFFul) { PyErr_SetString(PyExc_ValueError, "masks are 32-bit"); goto done; }
        in[i] = (cg_mask)v;
    }
    const int k = flat[0];
    int *lens = malloc(sizeof(int) * (k + 1)), *cols = malloc(sizeof(int) * (k + 1));
    if (!lens || !cols) { free(lens); free(cols); PyErr_NoMemory(); goto done; }
    for (int j = 0; j < k; j++) { lens[j] = flat[1 + 2 * j]; cols[j] = flat[2 + 2 * j]; }
    const int ok = cg_solve_line(lens, cols, k, in, out, (int)n, &w);
    free(lens); free(cols);
    if (!ok) { Py_INCREF(Py_None); result = Py_None; goto done; }
    result = PyList_New(n);
    if (!result) goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = PyLong_FromUnsignedLong(out[i]);
        if (!v) { Py_CLEAR(result); goto done; }
        PyList_SET_ITEM(result, i, v);
    }
done:
    Py_DECREF(masks);
    free(flat); free(in); free(out);
    cg_work_free(&w);
    return result;
}

/* The dive's line factor (colour_bp.c's cg_bp_line) on one line, for tests: a one-row
 * solver whose columns have empty clues (never solved), so that line 0 is the line. */
static PyObject *py_line_marginals(PyObject *mod, PyObject *args)
{
    PyObject *clue_obj, *priors_obj;
    int ncolours;
    if (!PyArg_ParseTuple(args, "OiO", &clue_obj, &ncolours, &priors_obj)) return NULL;
    if (ncolours < 2 || ncolours > CG_MAX_COLOURS) {
        PyErr_SetString(PyExc_ValueError, "ncolours must be 2..32 (background included)");
        return NULL;
    }
    PyObject *priors = PySequence_Fast(priors_obj, "priors must be a sequence of rows");
    if (!priors) return NULL;
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(priors);
    int *flat = NULL, len = 0, cap = 0;
    cg_solver *s = NULL;
    double *p = NULL, *m = NULL;
    PyObject *result = NULL;
    if (n < 1 || n > 2000) { PyErr_SetString(PyExc_ValueError, "line length out of range"); goto done; }
    if (flatten_clue(clue_obj, ncolours, (int)n, &flat, &len, &cap) < 0) goto done;
    int *bigger = eng_realloc(flat, (size_t)len + (size_t)n, sizeof(int));
    if (!bigger) { PyErr_NoMemory(); goto done; }
    flat = bigger;
    for (Py_ssize_t i = 0; i < n; i++) flat[len++] = 0;  /* the columns: empty clues */
    s = cg_new((int)n, 1, ncolours, flat, len);
    p = eng_malloc((size_t)n * ncolours, sizeof(double));
    m = eng_malloc((size_t)n * ncolours, sizeof(double));
    if (!s || !p || !m || !cg_bp_scratch(s)) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(priors, i),
                                        "each prior is a sequence of ncolours floats");
        if (!row) goto done;
        if (PySequence_Fast_GET_SIZE(row) != ncolours) {
            Py_DECREF(row);
            PyErr_SetString(PyExc_ValueError, "each prior is a sequence of ncolours floats");
            goto done;
        }
        for (int c = 0; c < ncolours; c++) {
            const double v = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(row, c));
            if (v == -1.0 && PyErr_Occurred()) { Py_DECREF(row); goto done; }
            if (!(v >= 0.0 && v <= 1.0)) {
                Py_DECREF(row);
                PyErr_SetString(PyExc_ValueError, "priors are probabilities");
                goto done;
            }
            p[i * ncolours + c] = v;
        }
        Py_DECREF(row);
    }
    if (!cg_bp_line(s, 0, p, m)) { Py_INCREF(Py_None); result = Py_None; goto done; }
    result = PyList_New(n);
    for (Py_ssize_t i = 0; result && i < n; i++) {
        PyObject *row = PyList_New(ncolours);
        if (!row) { Py_CLEAR(result); break; }
        PyList_SET_ITEM(result, i, row);
        for (int c = 0; c < ncolours; c++) {
            PyObject *v = PyFloat_FromDouble(m[i * ncolours + c]);
            if (!v) { Py_CLEAR(result); break; }
            PyList_SET_ITEM(row, c, v);
        }
    }
done:
    Py_DECREF(priors);
    free(flat); free(p); free(m);
    cg_free(s);
    return result;
}

static PyMethodDef module_methods[] = {
    {"solve_line", py_solve_line, METH_VARARGS,
     "solve_line(clue: [(length, colour)], masks: [int]) -> narrowed masks, or None if impossible"},
    {"line_marginals", py_line_marginals, METH_VARARGS,
     "line_marginals(clue: [(length, colour)], ncolours, priors: [[float] * ncolours]) -> "
     "each cell's share of colour c over the line's arrangements weighted by the priors "
     "(the dive's line factor), or None when none has weight"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "_colour", "Compiled colour nonogram engine.", -1, module_methods,
};

PyMODINIT_FUNC PyInit__colour(void)
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
    /* the constants Python needs, from their one definition in colour.h */
    static const struct { const char *name; int value; } constants[] = {
        {"SOLUTION", CG_SOLUTION}, {"EXHAUSTED", CG_EXHAUSTED}, {"LIMIT", CG_LIMIT},
        {"MAX_COLOURS", CG_MAX_COLOURS}, {"NOT_KNOWN", CG_NOT_KNOWN},
        {"ORDER_PROBES", CG_ORDER_PROBES}, {"ORDER_BP", CG_ORDER_BP},
        {"ORDER_WDEG", CG_ORDER_WDEG},
        {"EV_LINE", CG_EV_LINE}, {"EV_PROBE", CG_EV_PROBE}, {"EV_PROBE_FIX", CG_EV_PROBE_FIX},
        {"EV_GUESS", CG_EV_GUESS}, {"EV_BACKTRACK", CG_EV_BACKTRACK},
        {"EV_SOLUTION", CG_EV_SOLUTION}, {"EV_TRY", CG_EV_TRY},
    };
    for (size_t i = 0; i < sizeof constants / sizeof constants[0]; i++)
        if (PyModule_AddIntConstant(m, constants[i].name, constants[i].value) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    return m;
}
