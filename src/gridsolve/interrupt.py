"""Ctrl-C for a compiled call of another library that neither sees it nor reads our flag (a
python-sat solve that a timer interrupts: python-sat leaves SIGINT alone then).

The engines' SIGINT handler (``gridsolve._interrupt``, compiled) counts each signal before
Python's handler sees it; ``watch`` runs a thread that calls the call's ``stop`` when that
count moves or the deadline passes, so one thread serves as the timer and as the Ctrl-C
watcher. Python's KeyboardInterrupt follows once the call has returned.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from gridsolve import _interrupt

__all__ = ["POLL_SECONDS", "Watch", "watch", "leave_sigint_to_main"]

#: How often the watching thread looks at the count of SIGINTs: well under the half second a
#: command has to stop in after Ctrl-C.
POLL_SECONDS = 0.05


def leave_sigint_to_main() -> None:
    """Block SIGINT in the calling thread (one of ours that is not the main one), so that the
    kernel always gives Ctrl-C to the thread that runs the search: a compiled handler that
    jumps back into a solve (python-sat's) must run there, and Python's own runs there only."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})


class Watch:
    """What stopped the call, if anything: Ctrl-C, or the deadline."""

    def __init__(self) -> None:
        self.interrupted = False
        self.late = False


@contextmanager
def watch(stop: Callable[[], object], deadline: float | None = None) -> Iterator[Watch]:
    """Call ``stop`` (once, from another thread) when Ctrl-C comes or at ``deadline`` (a
    ``time.perf_counter()`` time; None: none), while the block runs."""
    since = _interrupt.enter()
    seen = Watch()
    done = threading.Event()

    def run() -> None:
        leave_sigint_to_main()  # Ctrl-C goes to the thread of the call
        while True:
            wait = POLL_SECONDS
            if deadline is not None:
                wait = min(wait, max(0.0, deadline - time.perf_counter()))
            if done.wait(wait):
                return
            if _interrupt.count() != since:
                seen.interrupted = True
            elif deadline is not None and time.perf_counter() >= deadline:
                seen.late = True
            else:
                continue
            stop()
            return

    thread = threading.Thread(target=run, name="gridsolve-watch", daemon=True)
    thread.start()
    try:
        yield seen
    finally:
        done.set()
        thread.join()
