"""A live progress line on a terminal while a long solve runs (nothing on a pipe or with --json).

The search writes a ``Progress`` record as it goes (``backends.analyse(progress=...)``); a
thread here reads it a few times a second and redraws one line on standard error with rich:
nodes and SAT conflicts so far, solutions found, the time used and the limit, and which
search has the turn. The compiled search lets go of the interpreter while it runs, so the
line moves while it works. It never steers the search.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from gridsolve.nonogram.engine import Progress

__all__ = ["shown", "line", "DELAY", "EVERY"]

#: Seconds before the line first shows: a solve that ends sooner prints nothing extra.
DELAY = 0.5
#: Seconds between redraws.
EVERY = 0.25


def line(progress: Progress, elapsed: float, left: float | None) -> str:
    """The progress line: '12,345 nodes · 1 solution found · 3.2 s, 27 s left · sat'."""
    found = progress.solutions
    limit = f", {max(0.0, left):.0f} s left" if left is not None else ""
    return (f"{progress.nodes:,} nodes · {found:,} solution{'s' if found != 1 else ''} found · "
            f"{elapsed:.1f} s{limit} · {progress.phase}")


def _terminal(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty is not None and isatty())


@contextmanager
def shown(enabled: bool, timeout: float | None, stream: TextIO | None = None,
          always: bool = False) -> Iterator[Progress | None]:
    """A ``Progress`` to give the search, drawn on ``stream`` (standard error) while the
    block runs, if ``enabled`` and the stream is a terminal; else None (nothing drawn), or
    with ``always`` one that is not drawn (what the search proved, for after Ctrl-C)."""
    out = sys.stderr if stream is None else stream
    if not enabled or not _terminal(out):
        yield Progress() if always else None
        return
    import threading  # (a pipe or --json needs no thread: a solve's start-up, issue 56)

    from rich.console import Console
    from rich.live import Live

    from gridsolve.interrupt import leave_sigint_to_main
    progress = Progress()
    started = time.perf_counter()
    deadline = None if timeout is None else started + timeout
    stop = threading.Event()

    def draw() -> None:
        leave_sigint_to_main()
        if stop.wait(DELAY):
            return
        console = Console(file=out, highlight=False)
        with Live("", console=console, transient=True, auto_refresh=False) as live:
            while not stop.is_set():
                now = time.perf_counter()
                live.update(line(progress, now - started,
                                 None if deadline is None else deadline - now), refresh=True)
                stop.wait(EVERY)

    thread = threading.Thread(target=draw, name="gridsolve-progress", daemon=True)
    thread.start()
    try:
        yield progress
    finally:
        stop.set()
        thread.join(timeout=1.0)
