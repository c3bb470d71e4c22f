/* The SAT models' compiled parts (cnf.py): the black-and-white order model's clauses of one
 * line, as lists or straight as DIMACS text (25-50x faster than formatting them in Python),
 * and the root's probe implications as binary clauses. Pure functions of their arguments:
 * no engine state, so they live apart from the engine's binding (_core.c).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <limits.h>

#include "../engine/alloc.h"

/* implication_pairs(records, open): the binary clauses of the root's implications
 * (Search.root_implications: native-int records of literal, count, literals; a literal is
 * 2 * cell + 1 for filled, 2 * cell for empty) as DIMACS pairs [not lit, implied] over the
 * cell variables (cell + 1), each once, in the order found, leaving out those on a cell whose
 * byte in open is 0 (open: one byte per cell, or None for every cell open). */
static PyObject *py_implication_pairs(PyObject *mod, PyObject *args)
{
    Py_buffer rec, open = {0};
    PyObject *open_obj;
    if (!PyArg_ParseTuple(args, "y*O", &rec, &open_obj)) return NULL;
    if (open_obj != Py_None && PyObject_GetBuffer(open_obj, &open, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&rec);
        return NULL;
    }
    const int *r = rec.buf;
    const size_t len = (size_t)rec.len / sizeof(int);
    const uint8_t *is_open = open_obj != Py_None ? open.buf : NULL;
    const long long ncells = open_obj != Py_None ? (long long)open.len : LLONG_MAX;
    PyObject *out = NULL;
    uint64_t *table = NULL;
    /* a set of the pairs so far, open addressing: at least twice the literals' count */
    size_t cap = 16;
    while (cap < 2 * len + 2) cap *= 2;
    table = calloc(cap, sizeof(uint64_t));
    if (!table) { PyErr_NoMemory(); goto done; }
    if (!(out = PyList_New(0))) goto done;
    for (size_t at = 0; at + 1 < len;) {
        const int lit = r[at], n = r[at + 1];
        if (lit < 0 || (lit >> 1) >= ncells || n < 0 || (size_t)n > len - at - 2) {
            PyErr_SetString(PyExc_ValueError, "malformed implication records");
            Py_CLEAR(out);
            goto done;
        }
        const int *implied = r + at + 2;
        at += 2 + (size_t)n;
        const int closed = is_open && !is_open[lit >> 1];  /* its records are still checked */
        for (int t = 0; t < n; t++) {
            const int m = implied[t];
            if (m < 0 || (m >> 1) >= ncells) {
                PyErr_SetString(PyExc_ValueError, "malformed implication records");
                Py_CLEAR(out);
                goto done;
            }
            if (closed || (is_open && !is_open[m >> 1])) continue;
            const uint64_t key = ((uint64_t)(uint32_t)lit + 1) << 32 | (uint32_t)m;  /* never 0 */
            size_t h = (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 20) & (cap - 1);
            while (table[h] && table[h] != key) h = (h + 1) & (cap - 1);
            if (table[h]) continue;
            table[h] = key;
            const long a = lit & 1 ? -(long)((lit >> 1) + 1) : (long)((lit >> 1) + 1);  /* not lit */
            const long b = m & 1 ? (long)((m >> 1) + 1) : -(long)((m >> 1) + 1);
            PyObject *pair = Py_BuildValue("[ll]", a, b);
            if (pair) PyObject_GC_UnTrack(pair);  /* two ints: no cycle (as order_line's) */
            if (!pair || PyList_Append(out, pair) < 0) {
                Py_XDECREF(pair);
                Py_CLEAR(out);
                goto done;
            }
            Py_DECREF(pair);
        }
    }
done:
    free(table);
    PyBuffer_Release(&rec);
    if (open_obj != Py_None) PyBuffer_Release(&open);
    return out;
}

/* The order model's clauses of one black-and-white line (cnf._order_line_clauses: the same
 * clauses in the same order), as DIMACS literals each clause ended by 0. Cell i's variable is
 * cell0 + i * step (filled; its negation is empty); block k's "starts at or before its
 * earliest start + j" is top + k * slack + j + 1, j < slack. */
typedef struct { long long *v; size_t n, cap; } lit_buf;

static int lit_push(lit_buf *b, long long x)
{
    if (b->n == b->cap) {
        const size_t cap = b->cap ? 2 * b->cap : 4096;
        long long *bigger = cap > b->cap ? eng_realloc(b->v, cap, sizeof *bigger) : NULL;
        if (!bigger) return 0;
        b->v = bigger;
        b->cap = cap;
    }
    b->v[b->n++] = x;
    return 1;
}

static int order_line(lit_buf *b, const long long *clue, long long nb, long long n,
                      long long cell0, long long step, long long top, long long slack)
{
#define CELL(i) (cell0 + (long long)(i) * step)
#define O(k, j) (top + (long long)(k) * slack + (long long)(j) + 1)
#define PUT(x) do { if (!lit_push(b, (x))) return 0; } while (0)
    if (nb == 0) {
        for (long long i = 0; i < n; i++) { PUT(-CELL(i)); PUT(0); }
        return 1;
    }
    long long first = 0;
    for (long long k = 0; k < nb; k++) {
        const long long len = clue[k];
        for (long long j = 0; j + 1 < slack; j++) { PUT(-O(k, j)); PUT(O(k, j + 1)); PUT(0); }
        for (long long j = 0; j < slack + len; j++) {  /* cell first + j is covered when ... */
            PUT(CELL(first + j));
            if (j < slack) PUT(-O(k, j));        /* ... block k starts at or before it ... */
            if (j >= len) PUT(O(k, j - len));    /* ... and not at or before j - len */
            PUT(0);
        }
        if (k + 1 < nb) {
            for (long long j = 0; j < slack; j++) { PUT(-O(k + 1, j)); PUT(O(k, j)); PUT(0); }
            const long long gap = first + len;   /* the gap of one cell, then block k+1 */
            for (long long j = 0; j < 1 + slack; j++) {
                PUT(-CELL(gap + j));
                if (j < slack) PUT(-O(k, j));
                if (j >= 1) PUT(O(k + 1, j - 1));
                PUT(0);
            }
        }
        first += len + 1;
    }
    for (long long j = 0; j < slack; j++) { PUT(O(0, j)); PUT(-CELL(j)); PUT(0); }
    for (long long j = 0; j < slack; j++) { PUT(-O(nb - 1, j)); PUT(-CELL(n - slack + j)); PUT(0); }
    return 1;
#undef CELL
#undef O
#undef PUT
}

/* The literals as DIMACS text ("1 -2 0\n" per clause), or NULL with an exception set. */
static PyObject *lits_text(const lit_buf *b)
{
    size_t bytes;
    if (__builtin_mul_overflow(b->n, (size_t)22, &bytes)) return PyErr_NoMemory();
    char *text = eng_malloc(bytes + 1, 1);
    if (!text) return PyErr_NoMemory();
    char *at = text;
    for (size_t i = 0; i < b->n; i++) {
        long long x = b->v[i];
        unsigned long long u = x < 0 ? 0ULL - (unsigned long long)x : (unsigned long long)x;
        if (x < 0) *at++ = '-';
        char digits[20];
        int d = 0;
        do { digits[d++] = (char)('0' + u % 10); u /= 10; } while (u);
        while (d) *at++ = digits[--d];
        *at++ = x == 0 ? '\n' : ' ';
    }
    PyObject *out = PyUnicode_DecodeASCII(text, (Py_ssize_t)(at - text), NULL);
    free(text);
    return out;
}

/* The literals as a list of clauses (lists of ints), or NULL with an exception set. */
static PyObject *lits_lists(const lit_buf *b)
{
    Py_ssize_t count = 0;
    for (size_t i = 0; i < b->n; i++) count += b->v[i] == 0;
    PyObject *out = PyList_New(count);
    if (!out) return NULL;
    size_t at = 0;
    for (Py_ssize_t c = 0; c < count; c++) {
        size_t end = at;
        while (b->v[end] != 0) end++;
        PyObject *clause = PyList_New((Py_ssize_t)(end - at));
        if (!clause) { Py_DECREF(out); return NULL; }
        /* a list of ints holds no cycle: out of the collector's sight, a model's hundreds of
         * thousands of clauses cost its collections nothing (Gettys: 0.065 s to 0.04 s) */
        PyObject_GC_UnTrack(clause);
        PyList_SET_ITEM(out, c, clause);
        for (size_t i = at; i < end; i++) {
            PyObject *lit = PyLong_FromLongLong(b->v[i]);
            if (!lit) { Py_DECREF(out); return NULL; }
            PyList_SET_ITEM(clause, (Py_ssize_t)(i - at), lit);
        }
        at = end + 1;
    }
    return out;
}

/* order_line(clue, n, cell0, step, top, text): see order_line above; a list of clauses,
 * or with text true their DIMACS text. */
static PyObject *py_order_line(PyObject *mod, PyObject *args)
{
    PyObject *clue_obj;
    long long n, cell0, step, top;
    int text;
    if (!PyArg_ParseTuple(args, "OLLLLp", &clue_obj, &n, &cell0, &step, &top, &text)) return NULL;
    const long long big = 1LL << 40;  /* variables stay far from overflowing */
    if (n < 0 || n >= big || cell0 < 1 || cell0 >= big || step < 1 || step >= big
            || top < 0 || top >= big) {
        PyErr_SetString(PyExc_ValueError, "order_line: line or variables out of range");
        return NULL;
    }
    PyObject *fast = PySequence_Fast(clue_obj, "the clue must be a sequence of ints");
    if (!fast) return NULL;
    const Py_ssize_t nb = PySequence_Fast_GET_SIZE(fast);
    long long *clue = eng_malloc((size_t)nb + 1, sizeof *clue);
    PyObject *out = NULL;
    lit_buf b = {0};
    if (!clue) { PyErr_NoMemory(); goto done; }
    long long need = nb > 0 ? nb - 1 : 0;
    for (Py_ssize_t k = 0; k < nb; k++) {
        clue[k] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, k));
        if (clue[k] == -1 && PyErr_Occurred()) goto done;
        if (clue[k] < 1 || clue[k] > n || (need += clue[k]) > n) {
            PyErr_SetString(PyExc_ValueError, "order_line: the clue does not fit the line");
            goto done;
        }
    }
    const long long slack = n - need;
    long long last_cell, last_order;  /* past the largest variables */
    if (__builtin_mul_overflow(n, step, &last_cell)
            || __builtin_add_overflow(last_cell, cell0, &last_cell) || last_cell >= big
            || __builtin_mul_overflow((long long)nb, slack, &last_order)
            || __builtin_add_overflow(last_order, top, &last_order) || last_order >= big) {
        PyErr_SetString(PyExc_ValueError, "order_line: line or variables out of range");
        goto done;
    }
    if (!order_line(&b, clue, nb, n, cell0, step, top, slack)) { PyErr_NoMemory(); goto done; }
    out = text ? lits_text(&b) : lits_lists(&b);
done:
    free(b.v);
    free(clue);
    Py_DECREF(fast);
    return out;
}

static PyMethodDef module_methods[] = {
    {"implication_pairs", py_implication_pairs, METH_VARARGS,
     "implication_pairs(records: native ints, open: one byte per cell or None) -> the root's "
     "implications as DIMACS binary clauses [not lit, implied], once each, in the order found, "
     "without those on closed cells (cnf.implication_clauses)"},
    {"order_line", py_order_line, METH_VARARGS,
     "order_line(clue, n, cell0, step, top, text) -> the order model's clauses of one "
     "black-and-white line whose cell i is variable cell0 + i * step and whose order variables "
     "follow top (cnf._order_line_clauses), as lists of ints or, with text, DIMACS text"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "_cnf", "Compiled parts of the SAT models.", -1, module_methods,
};

PyMODINIT_FUNC PyInit__cnf(void)
{
    return PyModule_Create(&moduledef);
}
