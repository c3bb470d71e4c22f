/* The process's SIGINT handler for the compiled engines (nonogram/engine/interrupt.h says
 * why and how they use it): it counts each signal and hands it on to the handler it took over
 * (Python's, which makes the KeyboardInterrupt). One module, so one handler: each engine
 * having its own, two could take each other over and hand a signal round in a circle.
 *
 * enter() (GIL held, as a call into an engine begins) takes SIGINT over when a handler
 * function has it and it is not ours: at the first call, and again after Python's
 * signal.signal replaced it. A process that ignores SIGINT or leaves it to the default (death)
 * is left so. One sigaction call to look, a second only to take over. Not on Windows (no
 * sigaction): there the count never moves and the engines stop at their limits only.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <signal.h>
#include <string.h>

#include "nonogram/engine/interrupt.h"

static volatile sig_atomic_t sigints;

#ifndef _WIN32
static struct sigaction saved;  /* the handler taken over: each signal goes on to it */

static void on_sigint(int sig, siginfo_t *info, void *ctx)
{
    sigints = sigints + 1;
    if (saved.sa_flags & SA_SIGINFO)
        saved.sa_sigaction(sig, info, ctx);
    else if (saved.sa_handler != SIG_DFL && saved.sa_handler != SIG_IGN)
        saved.sa_handler(sig);
}

/* Is this handler ours? By its address, whatever its flags: a library that saves the
 * handler and puts it back with signal() (python-sat around a solve) drops SA_SIGINFO, and
 * taking that over as "another" handler made ours hand each signal on to itself, for ever. */
static int is_ours(const struct sigaction *a)
{
    return (a->sa_flags & SA_SIGINFO) ? a->sa_sigaction == on_sigint
                                       : a->sa_handler == (void (*)(int))(void (*)(void))on_sigint;
}

static int enter(void)
{
    struct sigaction now;
    if (sigaction(SIGINT, NULL, &now) == 0
        && !(is_ours(&now) && (now.sa_flags & SA_SIGINFO))
        && (is_ours(&now) || (now.sa_flags & SA_SIGINFO)
            || (now.sa_handler != SIG_DFL && now.sa_handler != SIG_IGN))) {
        struct sigaction ours;
        memset(&ours, 0, sizeof ours);
        ours.sa_sigaction = on_sigint;
        ours.sa_flags = SA_SIGINFO | (now.sa_flags & SA_RESTART);
        sigemptyset(&ours.sa_mask);
        if (!is_ours(&now))  /* (ours with its flags lost: the handler handed on stays) */
            saved = now;
        sigaction(SIGINT, &ours, NULL);
    }
    return (int)sigints;
}
#else
static int enter(void) { return (int)sigints; }
#endif

static eng_interrupt_api api = {enter, &sigints};

static PyObject *py_count(PyObject *mod, PyObject *unused)
{
    return PyLong_FromLong((long)sigints);
}

static PyObject *py_enter(PyObject *mod, PyObject *unused)
{
    return PyLong_FromLong((long)enter());
}

static PyMethodDef methods[] = {
    {"count", py_count, METH_NOARGS, "count() -> the SIGINTs the engines' handler has seen"},
    {"enter", py_enter, METH_NOARGS,
     "enter() -> int: take SIGINT over (if a handler function has it) and return count()"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "gridsolve._interrupt",
    "The compiled engines' SIGINT handler: counts Ctrl-C, then hands it on to Python's.",
    -1, methods,
};

PyMODINIT_FUNC PyInit__interrupt(void)
{
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    PyObject *capsule = PyCapsule_New(&api, "gridsolve._interrupt.api", NULL);
    if (!capsule || PyModule_AddObject(m, "api", capsule) < 0) {
        Py_XDECREF(capsule);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
