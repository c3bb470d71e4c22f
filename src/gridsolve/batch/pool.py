"""Tasks to rows on a local process pool (or any executor), a bounded window at a time.

Kept apart from ``run`` (tasks solved in this process): ``concurrent.futures`` and the
logging, threading and traceback modules behind it cost a batch that starts no pool about
5 ms of start-up (issue 56)."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, Executor, Future, wait
from contextlib import contextmanager
from typing import Any

from gridsolve.batch.rows import Row
from gridsolve.batch.run import failed_rows
from gridsolve.batch.tasks import Task, solve_task
from gridsolve.errors import GridsolveError


class InlineExecutor(Executor):
    """Runs each task at submission, in this process (no pool, plain tracebacks)."""

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


#: Seconds between looks at the stop event while waiting for tasks.
STOP_POLL = 0.2


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
            emit(failed_rows(task, exc))

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
