"""The processes of ``--jobs``: workers forked with the parent's state, their reports
pooled, every process killed at the answer or the deadline, none outliving its parent. A
process reports ("nodes", n), ("grid", g), ("failed", 1) and ("done", exhausted).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from gridsolve.errors import GridsolveError, LimitReached
from gridsolve.nonogram.backends._common import checked, unknown_grid
from gridsolve.nonogram.engine import Progress, Result, Team, schedule
from gridsolve.nonogram.model import AnyPuzzle, Grid

if TYPE_CHECKING:  # multiprocessing is imported when processes start (a small solve needs none)
    from multiprocessing.connection import Connection

__all__ = ["Worker", "DEADLINE_GRACE", "REPORT_SECONDS", "PARENT_CHECK", "can_fork", "reporter",
           "guarded", "side", "grids_worker", "pool"]

#: Seconds the pool waits past the deadline for the SAT processes, which end themselves
#: there, to send their counts (Kissat and glucose-syrup take up to ``_program.STATS_GRACE``
#: to print their statistics; a python-sat solver stops at its interrupt).
DEADLINE_GRACE = 0.1
#: Seconds between a python-sat process's reports of its conflicts (an interrupt each).
REPORT_SECONDS = 1.0
#: How often (seconds) a search process looks whether its parent is still there.
PARENT_CHECK = 0.2
Worker = Callable[["Connection"], None]


def _watch_parent(parent: int) -> None:
    """End this process when its parent is gone (a killed parent cleans nothing up): on
    Linux the kernel kills it (``workers.die_with_parent``; a thread cannot run while a SAT
    solver holds the interpreter), elsewhere a thread looks every PARENT_CHECK seconds."""
    from gridsolve.workers import die_with_parent  # (this process has multiprocessing)
    if die_with_parent(parent):
        return

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK)
        os._exit(1)

    import threading  # here, in the child: a parent that ends in its first turn needs none
    threading.Thread(target=watch, daemon=True).start()


def reporter(conn: Connection) -> Callable[[int, Iterable[Grid]], None]:
    """What a search process sends as it goes: its node count, then the solutions among
    those given that it has not sent before (the count first: the answer may come with a
    solution, and the process is then killed)."""
    sent: set[Grid] = set()

    def report(nodes: int, found: Iterable[Grid]) -> None:
        conn.send(("nodes", nodes))
        for grid in found:
            if grid not in sent:
                conn.send(("grid", grid))
                sent.add(grid)
    return report


def guarded(conn: Connection, search: Callable[[], bool], last: Callable[[], None] = lambda: None,
            errors: tuple[type[BaseException], ...] = (GridsolveError,)) -> None:
    """Run a process's ``search`` (True: it was exhausted) and send how it ended; at a limit
    or one of ``errors`` (a program's error; it says "failed") it is not exhausted, and
    ``last()`` sends its count first."""
    exhausted = False
    try:
        exhausted = search()
    except LimitReached:
        last()
    except errors:
        last()
        conn.send(("failed", 1))
    conn.send(("done", exhausted))


def side(worker: schedule.Worker, pool: schedule.Pool, work: int | None,
         nodes: Callable[[], int], since_fork: bool = False) -> Worker:
    """A schedule's worker in a process: turns of ``work`` (None: one to its end), reporting
    ``nodes()`` (since the fork if ``since_fork``) and new solutions as the pool grows and
    after each turn; a failed search (a program's error) says so, not exhausted."""
    def run(conn: Connection) -> None:
        report = reporter(conn)
        before = nodes() if since_fork else 0
        pool.tell = lambda: report(nodes() - before, pool.found)

        def turns() -> bool:
            while True:
                worker.turn(pool, work, None)
                pool.tell()
                if pool.done() or worker.exhausted or worker.stopped:
                    return worker.exhausted
        guarded(conn, turns, pool.tell)
    return run


def grids_worker(grids: Callable[[], Iterator[Grid | None]],
                 nodes: Callable[[], int]) -> Worker:
    """A search given as a generator of solutions in a process (None: a count alone); a
    failed search (a program's error) says so, not exhausted."""
    def run(conn: Connection) -> None:
        def search() -> bool:
            for grid in grids():
                conn.send(("nodes", nodes()))
                if grid is not None:
                    conn.send(("grid", grid))
            conn.send(("nodes", nodes()))
            return True
        guarded(conn, search, lambda: conn.send(("nodes", nodes())))
    return run


def _start(worker: Worker) -> Callable[[Connection], None]:
    parent = os.getpid()

    def main(conn: Connection) -> None:
        _watch_parent(parent)
        worker(conn)
        conn.close()
    return main


def can_fork() -> bool:
    """Can this platform fork() (every POSIX system; not Windows)? The search processes are
    forked: they start from the parent's state (the team's search so far). (os, not
    multiprocessing: a small solve must not import multiprocessing, see test_startup.)"""
    return hasattr(os, "fork")


def pool(puzzle: AnyPuzzle, max_solutions: int, workers: list[Worker], deadline: float | None,
          started: float, known: Grid | None, team: Team | None, grace: float = 0.0,
          before: tuple[Grid, ...] = (), progress: Progress | None = None) -> Result:
    """Run the workers in forked processes, pool their solutions (with ``before``, found
    here first, and the team's), kill them at the answer; at the deadline, after ``grace``
    seconds more for what they send as they end. The nodes and solutions so far go to
    ``progress``."""
    import multiprocessing
    from multiprocessing.connection import wait
    ctx: Any = multiprocessing.get_context("fork")  # analyse checked can_fork()
    conns: dict[Connection, int] = {}
    procs = []
    for i, worker in enumerate(workers):
        receiver, sender = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_start(worker), args=(sender,), daemon=True)
        proc.start()
        sender.close()
        conns[receiver] = i
        procs.append(proc)
    found: dict[Grid, None] = dict.fromkeys(before)
    found.update({} if team is None else team.found)
    nodes = [0] * len(workers)
    complete, answered_by, failed = False, -1, 0
    try:
        while conns and not complete and len(found) < max_solutions:
            left = None if deadline is None else deadline + grace - time.perf_counter()
            if left is not None and left <= 0:
                break
            for ready in wait(list(conns), left):
                conn: Connection = ready  # type: ignore[assignment]
                i = conns[conn]
                try:
                    kind, value = conn.recv()
                except EOFError:  # the process ended (or died): its search says no more
                    del conns[conn]
                    continue
                if kind == "grid":
                    found.setdefault(checked(puzzle, value, "parallel"), None)
                elif kind == "nodes":
                    nodes[i] = value
                elif kind == "done" and value:
                    complete, answered_by = True, i
                elif kind == "failed":
                    failed += 1
                if progress is not None:
                    progress.update(sum(nodes), len(found), f"{len(workers)} processes")
    finally:
        for proc in procs:
            if proc.is_alive():
                proc.kill()
        for proc in procs:
            proc.join()
        for conn in conns:
            conn.close()
    solutions = tuple(found)[:max_solutions]
    partial = known if known is not None else unknown_grid(puzzle)
    return Result.of_count(solutions, max_solutions, complete, sum(nodes),
                           time.perf_counter() - started, partial,
                           {"jobs": len(workers), "answered_by": answered_by,
                            # each process's last count (nodes or conflicts), by its place
                            **{f"nodes_{i + 1}": n for i, n in enumerate(nodes)},
                            **({"failed": failed} if failed else {})})
