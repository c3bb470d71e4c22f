/* Ctrl-C inside the compiled loops, which run with the GIL released (Python's own handler
 * cannot run until they return).
 *
 * One SIGINT handler for the whole process, in gridsolve._interrupt (one, so that the three
 * extensions never hand a signal round in a circle), counts each signal and hands it on to
 * the handler it took over (Python's, whose flag makes the binding raise KeyboardInterrupt
 * once it is back: PyErr_CheckSignals). A binding calls eng_interrupt_enter as a call begins
 * (GIL held: it takes SIGINT over again if Python's signal.signal has replaced it) and passes
 * the count it returns to the loops, which compare it with the current count where they read
 * the clock: one load of a volatile int, no system call. The bindings import the handler's
 * module when they load (eng_interrupt_api); without it (this header alone, no Python) the
 * count never moves.
 */
#ifndef GRIDSOLVE_INTERRUPT_H
#define GRIDSOLVE_INTERRUPT_H

#include <signal.h>

/* What gridsolve._interrupt hands out (its capsule "gridsolve._interrupt.api"). */
typedef struct {
    int (*enter)(void);                 /* take SIGINT if Python has it; the count now */
    volatile sig_atomic_t *count;       /* SIGINTs the handler has seen */
} eng_interrupt_api;

static volatile sig_atomic_t eng_sig_none;  /* the count before (or without) the module */
static volatile sig_atomic_t *eng_sig_count = &eng_sig_none;
static int (*eng_sig_enter)(void);

/* Use the process's handler (once, when the binding loads). */
static void eng_interrupt_use(const eng_interrupt_api *api)
{
    eng_sig_count = api->count;
    eng_sig_enter = api->enter;
}

#ifdef Py_PYTHON_H
/* A binding loads (GIL held): import the process's handler, gridsolve._interrupt, and use it;
 * 0, or -1 with the exception set. */
static int eng_interrupt_import(void)
{
    PyObject *module = PyImport_ImportModule("gridsolve._interrupt");
    if (!module) return -1;
    Py_DECREF(module);  /* (PyCapsule_Import imports only the package, then looks) */
    const eng_interrupt_api *api = PyCapsule_Import("gridsolve._interrupt.api", 0);
    if (!api) return -1;
    eng_interrupt_use(api);
    return 0;
}
#endif

/* A call begins (GIL held): SIGINT is taken; the count to compare with (eng_interrupted). */
static int eng_interrupt_enter(void)
{
    return eng_sig_enter ? eng_sig_enter() : (int)*eng_sig_count;
}

/* Has a SIGINT come since eng_interrupt_enter returned ``since``? */
static inline int eng_interrupted(int since)
{
    return (int)*eng_sig_count != since;
}

#endif
