"""Tasks to rows on a local pool (or any executor), a bounded window at a time."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, Executor, Future, wait
from contextlib import contextmanager
from typing import Any

from gridsolve.batch.rows import Row
from gridsolve.batch.tasks import Task, error_row, one_line, solve_task
from gridsolve.errors import GridsolveError


class InlineExecutor(Executor):
    """Runs each task at submission, in this process (``--jobs 1``: no pool, plain tracebacks)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        """Run now; the future is already done."""
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as exc:
            future.set_exception(exc)
        return future


@contextmanager
def local_executor(jobs: int) -> Iterator[Executor]:
    """A process pool of ``jobs`` workers (in-process for 1), torn down promptly on exit; the
    workers end with this process even when it is killed (``gridsolve.workers``)."""
    if jobs <= 1:
        yield InlineExecutor()
        return
    # here, not at the top: multiprocessing and ctypes cost --jobs 1 about 15 ms of start-up
    from concurrent.futures.process import ProcessPoolExecutor

    from gridsolve.workers import pool_context, stop_workers, worker_init
    pool = ProcessPoolExecutor(jobs, pool_context(), initializer=worker_init,
                               initargs=(os.getpid(),))
    try:
        yield pool
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        stop_workers()  # our own workers, possibly deep in a long search
        raise
    pool.shutdown(wait=True)


#: Seconds a local pool costs before its first row (workers spawned, each importing
#: gridsolve: 0.3-0.35 s on a 2-core machine, issue 56).
POOL_START = 0.35


#: A batch starts in this process only with at least this many puzzles a job: with fewer,
#: each puzzle's share of the pool's start is small against what one hard puzzle solved
#: here, not beside the others, would cost (two hard puzzles would take twice as long).
HERE_FIRST_PER_JOB = 32


def here_first(puzzles: int, jobs: int) -> bool:
    """Does a batch of ``puzzles`` on ``jobs`` local workers start in this process?"""
    return jobs > 1 and puzzles >= HERE_FIRST_PER_JOB * jobs


def run_here_first(tasks: Iterable[Task], puzzles: int, jobs: int,
                   emit: Callable[[list[Row]], None]) -> Iterator[Task] | None:
    """Solve tasks in this process while what is left of the ``puzzles`` looks too little to
    pay for a pool of ``jobs`` workers (at the rate so far, it would take less than the pool
    saves: ``POOL_START * jobs / (jobs - 1)``); the tasks left for a pool, or None when all
    were solved here. A batch of 200 tournament puzzles started a pool that doubled its time
    (0.73 s against 0.39 s with ``--jobs 1``); now it starts none. Only where a puzzle is
    solved depends on the clock, never its row."""
    todo = iter(tasks)
    here = InlineExecutor()
    pays = POOL_START * jobs / max(1, jobs - 1)
    first = next(todo, None)
    if first is None:
        return None
    # the rate leaves out the first task: it pays the process's warm-up (a first task of 2
    # puzzles took 9 ms, the next ones 0.2-0.3 ms)
    run_tasks(here, [first], 1, emit)
    done, left, started = 0, puzzles - len(first.indexes), time.perf_counter()
    for task in todo:
        run_tasks(here, [task], 1, emit)
        done += len(task.indexes)
        left -= len(task.indexes)
        if (time.perf_counter() - started) / done * left > pays:
            return todo
    return None


#: Seconds between looks at the stop event while waiting for tasks.
STOP_POLL = 0.2


#: How the error of a row whose worker died begins: ``--resume`` solves such rows again (a
#: dead pool fails every task in flight, most of them through no fault of their own), once:
#: failing again they say WORKER_FAILED_AGAIN and stay, so a puzzle that kills its worker
#: every time cannot stop every resume.
WORKER_FAILED = "worker failed: "
WORKER_FAILED_AGAIN = "worker failed again: "


def retried(row: Row) -> bool:
    """Does ``--resume`` solve this row again: did a worker's death fail it?"""
    return row.status == "error" and row.error.startswith(WORKER_FAILED)


def run_tasks(executor: Executor, tasks: Iterable[Task], window: int,
              emit: Callable[[list[Row]], None], stop: threading.Event | None = None) -> None:
    """Feed tasks to the executor, at most ``window`` in flight, emitting rows as tasks finish.

    A task that raises (a worker died) becomes error rows. On KeyboardInterrupt the interrupt
    goes on to the caller; rows already emitted stay. With ``stop`` (``deferred_sigint``), the
    interrupt is raised here, between waits, once the event is set. The tasks left are
    cancelled by the executor's owner (``local_executor``): cancelling them here too raced
    the pool's own teardown, which then failed with InvalidStateError tracebacks."""
    pending: dict[Future[list[Row]], Task] = {}
    todo = iter(tasks)
    broken: BaseException | None = None

    def settle(future: Future[list[Row]]) -> None:
        task = pending.pop(future)
        try:
            emit(future.result())
        except Exception as exc:
            why = f"{WORKER_FAILED_AGAIN if task.again else WORKER_FAILED}{one_line(exc)}"
            emit([error_row(task.source, i, why) for i in task.indexes])

    poll = None if stop is None else STOP_POLL
    while True:
        if stop is not None and stop.is_set():
            raise KeyboardInterrupt
        while broken is None and len(pending) < window:
            task = next(todo, None)
            if task is None:
                break
            try:
                pending[executor.submit(solve_task, task)] = task
            except BrokenExecutor as exc:  # a process pool's BrokenProcessPool
                broken = exc
        if not pending:
            break
        finished, _ = wait(list(pending), timeout=poll, return_when=FIRST_COMPLETED)
        for future in [f for f in pending if f in finished]:  # in submission order
            settle(future)
    if broken is not None:
        raise GridsolveError("a worker process died; the batch stopped").with_remedy(
            "resume") from broken
