"""Worker processes that never outlive their parent, and Ctrl-C handled at safe points.

A process pool's workers block on their task queue; when the parent is SIGKILLed nobody closes
that queue, so they (and, with the forkserver start method, the server holding them) lived on
for minutes. Here every worker is a direct child (spawn) that asks the kernel to SIGKILL it when
its parent dies (Linux ``prctl(PR_SET_PDEATHSIG)``; elsewhere a thread watches the parent pid,
which works whenever the worker runs Python code). Workers start with SIGINT blocked and then
ignore it, so a Ctrl-C at the terminal, which reaches the whole process group, interrupts only
the parent, even while a worker is still starting up.

In the parent, a KeyboardInterrupt raised at any bytecode could land inside the pool's own
bookkeeping (a worker started but not yet registered, then waited for at exit). So while a
pool runs, ``deferred_sigint`` turns Ctrl-C into a flag that the task loop checks between
waits, and raises KeyboardInterrupt there.

    pool_context()          the multiprocessing context to give ProcessPoolExecutor
    worker_init(parent)     its initializer (``initargs=(os.getpid(),)``)
    die_with_parent()       the kernel's part of it, for any child process of a solver
    program_setup(bytes)    that and an address-space cap, for a solver's program
    stop_workers()          terminate every worker this process started (on an interrupt)
    deferred_sigint()       a context whose Event is set by Ctrl-C instead of raising
"""

from __future__ import annotations

import ctypes
import multiprocessing.context
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["pool_context", "worker_init", "die_with_parent", "program_setup", "stop_workers",
           "deferred_sigint"]

#: prctl option: the signal a process gets when its parent dies (linux/prctl.h).
PR_SET_PDEATHSIG = 1
#: Seconds between looks at the parent where the kernel cannot watch it for us.
WATCH_EVERY = 0.5


_SIGINT = {signal.SIGINT}


@contextmanager
def _sigint_blocked() -> Iterator[None]:
    """SIGINT blocked in this thread while a child is started: the child inherits the mask
    across exec, so Python there never turns a Ctrl-C into a KeyboardInterrupt traceback;
    here a Ctrl-C meanwhile waits, pending, instead of being lost."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGINT)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


class _WorkerProcess(multiprocessing.context.SpawnProcess):
    """A spawned process started with SIGINT blocked."""

    def start(self) -> None:
        with _sigint_blocked():
            super().start()


class _WorkerContext(multiprocessing.context.SpawnContext):
    """The spawn context, making ``_WorkerProcess`` processes."""

    Process = _WorkerProcess


def pool_context() -> multiprocessing.context.BaseContext:
    """The context for a worker pool: spawned direct children, started deaf to Ctrl-C."""
    return _WorkerContext()


def die_with_parent(parent: int | None = None) -> bool:
    """Ask the kernel to SIGKILL this process when its parent dies (Linux); False where it
    cannot. Also for a solver's own child process (a SAT search, CBC: in ``preexec_fn``),
    so that it goes with a worker killed this way. With ``parent`` (the pid that started this
    process), a process whose parent died before the kernel was told ends at once (the kernel
    only watches a parent still alive: a worker killed between its fork and this call left
    its CaDiCaL search running)."""
    watched = (_PRCTL is not None
               and int(_PRCTL(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)) == 0)
    if parent is not None and os.getppid() != parent:
        os._exit(1)
    return watched


def program_setup(max_memory: int | None, parent: int | None = None) -> None:
    """For a solver's program (CBC, Kissat), as its ``preexec_fn``: end with this process (a
    worker killed takes the program along; ``parent``: this process's pid, taken before the
    fork, see ``die_with_parent``), and at most ``max_memory`` bytes of address space, or the
    lower hard limit the process already has (raising it would fail before the program runs).
    Loads nothing: ``resource`` is imported with this module."""
    die_with_parent(parent)
    if max_memory is not None and _resource is not None:
        try:
            _soft, hard = _resource.getrlimit(_resource.RLIMIT_AS)
            cap = max_memory if hard == _resource.RLIM_INFINITY else min(max_memory, hard)
            _resource.setrlimit(_resource.RLIMIT_AS, (cap, hard))
        except (OSError, ValueError):  # the existing limit holds
            pass


def _find_prctl() -> Any:
    """libc's prctl on Linux, else None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


#: Looked up at import, before any fork that calls it (a ``preexec_fn`` must load nothing).
_PRCTL = _find_prctl()
try:
    import resource as _resource
except ImportError:  # not POSIX: no address-space cap
    _resource = None  # type: ignore[assignment]


def _watch(parent: int) -> None:
    """Exit as soon as the parent is gone (this process is then re-parented)."""
    while os.getppid() == parent:
        time.sleep(WATCH_EVERY)
    os._exit(1)


def worker_init(parent: int) -> None:
    """Pool initializer: ignore Ctrl-C, and end when ``parent`` (the pool's owner) ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _SIGINT)
    if not die_with_parent(parent):
        threading.Thread(target=_watch, args=(parent,), daemon=True).start()


def stop_workers() -> None:
    """Terminate every pool worker this process started, registered by its pool or not (an
    interrupt can come between the two), so that nothing waits for them at exit."""
    for proc in multiprocessing.active_children():
        if isinstance(proc, _WorkerProcess):
            proc.terminate()


@contextmanager
def deferred_sigint() -> Iterator[threading.Event]:
    """While inside, Ctrl-C sets the Event (for a loop to check) instead of raising
    KeyboardInterrupt wherever the main thread happens to be. Elsewhere than in the main
    thread, Ctrl-C is left as it is and the Event is never set."""
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return
    old = signal.signal(signal.SIGINT, lambda signum, frame: stop.set())
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, old)
