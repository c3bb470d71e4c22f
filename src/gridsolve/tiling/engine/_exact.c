/* CPython binding of the tiling engine (exact.c): a Problem (cells, piece types, placements),
 * memoised counting on it, and a resumable enumeration of tilings. Searches run in C with
 * the GIL released. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "exact.c"
#include "problem.c"

typedef struct {
    PyObject_HEAD
    tl_problem p;
    int ready;
} ProblemObject;

/* A call into the engine begins: Ctrl-C stops it from here on (interrupt.h). The count to
 * pass it, or -1 with the exception a signal that came just before raised. */
static int engine_begin(void)
{
    int sigints = eng_interrupt_enter();
    return PyErr_CheckSignals() < 0 ? -1 : sigints;
}

/* The call is over: after a Ctrl-C, -1 with what Python's handler raised (KeyboardInterrupt);
 * 0 when it raised nothing (or this is not the main thread): the call stopped as at a limit. */
static int engine_end(int sigints)
{
    return eng_interrupted(sigints) ? PyErr_CheckSignals() : 0;
}

static int read_mask(PyObject *obj, int nw, word *out)
{
    char *buf;
    Py_ssize_t n;
    if (PyBytes_AsStringAndSize(obj, &buf, &n) < 0) return -1;
    if (n != (Py_ssize_t)(nw * sizeof(word))) {
        PyErr_Format(PyExc_ValueError, "a mask must be %d bytes", (int)(nw * sizeof(word)));
        return -1;
    }
    for (int i = 0; i < nw; i++) {
        word w = 0;
        for (int b = 7; b >= 0; b--) w = (w << 8) | (unsigned char)buf[i * 8 + b];
        out[i] = w;
    }
    return 0;
}

/* Read placement k (type, first cell, mask, hole position) and check it against p. */
static int read_placement(tl_problem *p, PyObject *places, size_t k, word *m, int *first,
                          int *type, int *hpos)
{
    PyObject *item = PySequence_GetItem(places, (Py_ssize_t)k), *mask;
    if (!item) return -1;
    int t, f, hp;
    int ok = PyArg_ParseTuple(item, "iiOi", &t, &f, &mask, &hp);
    if (ok) ok = read_mask(mask, p->nw, m) == 0;
    Py_DECREF(item);
    if (!ok) return -1;
    if (t < 0 || t >= p->ntypes || f < 0 || f >= p->ncells
        || (p->hole[t] >= 0 && (hp < 0 || (size_t)hp >= p->hole_size[p->hole[t]]))) {
        PyErr_SetString(PyExc_ValueError, "bad placement");
        return -1;
    }
    int lowest = -1, outside = 0, cells = 0;
    for (int i = 0; i < p->nw && lowest < 0; i++)
        if (m[i]) lowest = i * 64 + __builtin_ctzll(m[i]);
    for (int i = 0; i < p->nw; i++) {
        outside |= (m[i] & ~p->cellbits[i]) != 0;
        cells += __builtin_popcountll(m[i]);
    }
    if (lowest != f || outside) {
        PyErr_SetString(PyExc_ValueError, "placement mask does not match its first cell");
        return -1;
    }
    if (p->size[t] && p->size[t] != cells) {
        PyErr_SetString(PyExc_ValueError, "placements of one type differ in size");
        return -1;
    }
    p->size[t] = cells;
    if (p->hole[t] >= 0) {
        p->holebits[f] |= (uint8_t)(1 << p->hole[t]);
        p->hole_mask[p->hole[t]][f >> 6] |= (word)1 << (f & 63);
    }
    *first = f;
    *type = t;
    *hpos = hp;
    return 0;
}

/* Problem(ncells, types=[(copies, hole)], placements=[(type, first_cell, mask, hole_pos)],
 *         hole_sizes=[n], neighbours=[(up, left, right, down)] with -1 for none, grid=True);
 * grid=False keeps the pocket test off the bitboard (to compare the two floods in tests) */
static int Problem_init(ProblemObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"ncells", "types", "placements", "hole_sizes", "neighbours", "grid",
                             NULL};
    int ncells, grid = 1;
    PyObject *types, *places, *holes, *nbrs;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "iOOOO|p", kwlist, &ncells, &types, &places, &holes,
                                     &nbrs, &grid))
        return -1;
    tl_problem_free(&self->p);
    memset(&self->p, 0, sizeof self->p);
    self->ready = 0;
    tl_problem *p = &self->p;
    Py_ssize_t nt = PySequence_Size(types), np = PySequence_Size(places), nh = PySequence_Size(holes);
    if (nt < 0 || np < 0 || nh < 0) return -1;
    if (ncells < 1 || nt < 1 || nt > TL_MAX_TYPES || nh > TL_MAX_HOLES || np > 50000000) {
        PyErr_SetString(PyExc_ValueError, "problem size out of range");
        return -1;
    }
    p->ncells = ncells;
    p->ntypes = (int)nt;
    p->nholes = (int)nh;
    p->nplace = (size_t)np;
    int bits = ncells;
    for (Py_ssize_t t = 0; t < nt; t++) {
        PyObject *item = PySequence_GetItem(types, t);
        if (!item) return -1;
        int copies, hole;
        int ok = PyArg_ParseTuple(item, "ii", &copies, &hole);
        Py_DECREF(item);
        if (!ok) return -1;
        if (copies < 1 || copies > 512 || hole < -1 || hole >= nh || (hole >= 0 && copies != 1)) {
            PyErr_SetString(PyExc_ValueError, "bad piece type");
            return -1;
        }
        p->copies[t] = copies;
        p->hole[t] = hole;
        p->offset[t] = bits;
        bits += copies;
    }
    if (bits > 64 * TL_MAX_WORDS) {
        PyErr_SetString(PyExc_ValueError, "too many cells and piece copies (at most 512 together)");
        return -1;
    }
    p->nbits = bits;
    p->nw = bits <= 64 ? 1 : bits <= 128 ? 2 : bits <= 256 ? 4 : 8;
    for (int i = 0; i < p->nw; i++) {
        int lo = i * 64, hi = ncells - lo;
        p->cellbits[i] = hi >= 64 ? ~(word)0 : hi <= 0 ? 0 : (((word)1 << hi) - 1);
    }
    for (Py_ssize_t h = 0; h < nh; h++) {
        PyObject *item = PySequence_GetItem(holes, h);
        if (!item) return -1;
        long long n = PyLong_AsLongLong(item);
        Py_DECREF(item);
        if (n == -1 && PyErr_Occurred()) return -1;
        if (n < 1 || n > ncells) { PyErr_SetString(PyExc_ValueError, "bad hole size"); return -1; }
        p->hole_size[h] = (size_t)n;
    }
    tl_problem_finish(p);
    if (p->max_len >= TL_BLOCK) {   /* a stored vector must fit one arena block */
        PyErr_SetString(PyExc_ValueError, "too many hole combinations (fewer than 2**20)");
        return -1;
    }
    p->nbr = tl_array((size_t)ncells * 4, sizeof(int));
    p->holebits = tl_zeros((size_t)ncells, 1);
    if (!p->nbr || !p->holebits) { PyErr_NoMemory(); return -1; }
    if (PySequence_Size(nbrs) != ncells) {
        PyErr_SetString(PyExc_ValueError, "one neighbour tuple per cell is needed");
        return -1;
    }
    for (int x = 0; x < ncells; x++) {
        PyObject *item = PySequence_GetItem(nbrs, x);
        if (!item) return -1;
        int *q = p->nbr + (size_t)x * 4;
        int ok = PyArg_ParseTuple(item, "iiii", q, q + 1, q + 2, q + 3);
        Py_DECREF(item);
        if (!ok) return -1;
        for (int a = 0; a < 4; a++)
            if (q[a] < -1 || q[a] >= ncells) { PyErr_SetString(PyExc_ValueError, "bad neighbour"); return -1; }
    }
    size_t n = (size_t)np;
    int *first = tl_array(n, sizeof(int)), *types_in = tl_array(n, sizeof(int));
    int *hpos_in = tl_array(n, sizeof(int));
    word *masks = tl_array(n, (size_t)p->nw * sizeof(word));
    int rc = -1;
    if (!first || !masks || !types_in || !hpos_in) {
        PyErr_NoMemory();
        goto done;
    }
    for (size_t k = 0; k < n; k++) {
        if (read_placement(p, places, k, masks + k * p->nw, first + k, types_in + k, hpos_in + k) < 0)
            goto done;
    }
    if (tl_problem_index(p, first, types_in, hpos_in, masks) < 0
        || (grid && tl_problem_grid(p) < 0)) {
        PyErr_NoMemory();
        goto done;
    }
    self->ready = 1;
    rc = 0;
done:
    free(first); free(masks); free(types_in); free(hpos_in);
    return rc;
}

static void Problem_dealloc(ProblemObject *self)
{
    tl_problem_free(&self->p);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Problem_count(ProblemObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"root", "max_states", "timeout", "mem_limit", "modulus", NULL};
    PyObject *root_obj;
    long long max_states = -1, mem_limit = 1LL << 30;
    long long modulus = 0;
    double timeout = -1.0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|LdLL", kwlist, &root_obj, &max_states, &timeout,
                                     &mem_limit, &modulus))
        return NULL;
    if (modulus < 0 || modulus == 1 || modulus >= 1LL << 62) {
        PyErr_SetString(PyExc_ValueError, "modulus must be 0 or from 2 to 2**62 - 1");
        return NULL;
    }
    if (!self->ready) { PyErr_SetString(PyExc_RuntimeError, "Problem not initialised"); return NULL; }
    word root[TL_MAX_WORDS];
    if (read_mask(root_obj, self->p.nw, root) < 0) return NULL;
    uint64_t *out = tl_array(self->p.max_len, sizeof(uint64_t));
    if (!out) return PyErr_NoMemory();
    long long states = 0;
    int status, sigints = engine_begin();
    if (sigints < 0) { free(out); return NULL; }
    Py_BEGIN_ALLOW_THREADS
    status = tl_count(&self->p, root, out, max_states, timeout, sigints, (size_t)mem_limit,
                      (uint64_t)modulus, &states, NULL);
    Py_END_ALLOW_THREADS
    if (engine_end(sigints) < 0) { free(out); return NULL; }
    PyObject *lst = NULL;
    if (status == TL_OK) {
        lst = PyList_New((Py_ssize_t)self->p.max_len);
        for (size_t i = 0; lst && i < self->p.max_len; i++) {
            PyObject *v = PyLong_FromUnsignedLongLong(out[i]);
            if (!v) { Py_CLEAR(lst); break; }
            PyList_SET_ITEM(lst, i, v);
        }
        if (!lst) { free(out); return NULL; }
    } else {
        Py_INCREF(Py_None);
        lst = Py_None;
    }
    free(out);
    return Py_BuildValue("iNL", status, lst, states);
}

static PyMethodDef Problem_methods[] = {
    {"count", (PyCFunction)(void (*)(void))Problem_count, METH_VARARGS | METH_KEYWORDS,
     "count(root, max_states=-1, timeout=-1.0, mem_limit=2**30, modulus=0) -> (status, counts | "
     "None, states); with a modulus, the counts modulo it (they cannot overflow)"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject ProblemType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "gridsolve.tiling.engine._exact.Problem",
    .tp_basicsize = sizeof(ProblemObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Problem(ncells, types, placements, hole_sizes): an exact cover of cells by pieces",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Problem_init,
    .tp_dealloc = (destructor)Problem_dealloc,
    .tp_methods = Problem_methods,
};

/* ---------------------------------------------------------------- enumeration */

typedef struct {
    PyObject_HEAD
    ProblemObject *problem;
    tl_enum s;
    int ready;
} EnumObject;

static int Enum_init(EnumObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"problem", "root", "mode", "mem_limit", "timeout", "max_states", NULL};
    PyObject *prob, *root_obj;
    int mode = 2;
    long long mem_limit = 1LL << 28;
    double timeout = -1.0;
    long long max_states = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!O|iLdL", kwlist, &ProblemType, &prob, &root_obj,
                                     &mode, &mem_limit, &timeout, &max_states))
        return -1;
    ProblemObject *po = (ProblemObject *)prob;
    if (!po->ready) { PyErr_SetString(PyExc_RuntimeError, "Problem not initialised"); return -1; }
    word root[TL_MAX_WORDS];
    if (read_mask(root_obj, po->p.nw, root) < 0) return -1;
    if (self->ready) tl_enum_free(&self->s);
    Py_XDECREF(self->problem);
    Py_INCREF(po);
    self->problem = po;
    self->ready = 0;
    if (mode < 0 || mode > 2) {
        PyErr_SetString(PyExc_ValueError, "mode must be 0, 1 or 2");
        return -1;
    }
    int rc, sigints = engine_begin();
    if (sigints < 0) return -1;
    Py_BEGIN_ALLOW_THREADS
    rc = tl_enum_init(&self->s, &po->p, root, mode, (size_t)mem_limit, timeout, max_states,
                      sigints);
    Py_END_ALLOW_THREADS
    if (engine_end(sigints) < 0) {
        tl_enum_free(&self->s);
        return -1;
    }
    if (rc < 0) {
        tl_enum_free(&self->s);
        PyErr_NoMemory();
        return -1;
    }
    self->ready = 1;
    return 0;
}

static void Enum_dealloc(EnumObject *self)
{
    if (self->ready) tl_enum_free(&self->s);
    Py_XDECREF(self->problem);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Enum_next(EnumObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"max_nodes", "timeout", NULL};
    long long max_nodes = -1;
    double timeout = -1.0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|Ld", kwlist, &max_nodes, &timeout)) return NULL;
    if (!self->ready) { PyErr_SetString(PyExc_RuntimeError, "Enum not initialised"); return NULL; }
    self->s.max_nodes = max_nodes;
    self->s.deadline = timeout >= 0 ? tl_now() + timeout : 0;
    int r, sigints = engine_begin();
    if (sigints < 0) return NULL;
    self->s.sigints = sigints;
    Py_BEGIN_ALLOW_THREADS
    r = tl_enum_next(&self->s);
    Py_END_ALLOW_THREADS
    if (engine_end(sigints) < 0) return NULL;
    return PyLong_FromLong(r);
}

static PyObject *Enum_solution(EnumObject *self, PyObject *unused)
{
    if (!self->ready) { PyErr_SetString(PyExc_RuntimeError, "Enum not initialised"); return NULL; }
    PyObject *t = PyTuple_New(self->s.depth);
    for (int d = 0; t && d < self->s.depth; d++) {
        PyObject *v = PyLong_FromSize_t(self->problem->p.pl_id[self->s.chosen[d]]);
        if (!v) { Py_CLEAR(t); break; }
        PyTuple_SET_ITEM(t, d, v);
    }
    return t;
}

static PyObject *Enum_nodes(EnumObject *self, PyObject *unused)
{
    return PyLong_FromLongLong(self->ready ? self->s.nodes : 0);
}

static PyMethodDef Enum_methods[] = {
    {"next", (PyCFunction)(void (*)(void))Enum_next, METH_VARARGS | METH_KEYWORDS,
     "next(max_nodes=-1, timeout=-1.0) -> 1 tiling found, 0 exhausted, 2 limit reached"},
    {"solution", (PyCFunction)Enum_solution, METH_NOARGS,
     "the placements (indices as given to Problem) of the tiling just found"},
    {"nodes", (PyCFunction)Enum_nodes, METH_NOARGS, "placements tried so far"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject EnumType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "gridsolve.tiling.engine._exact.Enum",
    .tp_basicsize = sizeof(EnumObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Enum(problem, root, mode=2, mem_limit=2**28, timeout=-1.0, max_states=-1): a "
              "resumable search for tilings (mode 0 plain, 1 remembers dead states, 2 guided by a "
              "memoised count, which stops after timeout seconds if timeout >= 0 or max_states "
              "states if max_states >= 0: then the first next() returns LIMIT and later calls "
              "search as in mode 1)",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Enum_init,
    .tp_dealloc = (destructor)Enum_dealloc,
    .tp_methods = Enum_methods,
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "_exact", "Compiled polyomino tiling engine.", -1, NULL,
};

PyMODINIT_FUNC PyInit__exact(void)
{
    if (PyType_Ready(&ProblemType) < 0 || PyType_Ready(&EnumType) < 0) return NULL;
    if (eng_interrupt_import() < 0) return NULL;  /* Ctrl-C stops the loops (interrupt.h) */
    PyObject *m = PyModule_Create(&moduledef);
    if (!m) return NULL;
    Py_INCREF(&ProblemType);
    Py_INCREF(&EnumType);
    if (PyModule_AddObject(m, "Problem", (PyObject *)&ProblemType) < 0
        || PyModule_AddObject(m, "Enum", (PyObject *)&EnumType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "SOLUTION", TL_SOLUTION);
    PyModule_AddIntConstant(m, "EXHAUSTED", TL_EXHAUSTED);
    PyModule_AddIntConstant(m, "LIMIT", TL_LIMIT);
    PyModule_AddIntConstant(m, "NOMEM", TL_NOMEM);
    PyModule_AddIntConstant(m, "OVERFLOW", TL_OVERFLOW);
    PyModule_AddIntConstant(m, "BUDGET", TL_BUDGET);
    PyModule_AddIntConstant(m, "MAX_HOLES", TL_MAX_HOLES);
    return m;
}
