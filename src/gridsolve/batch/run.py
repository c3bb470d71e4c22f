"""Tasks to rows in this process: the whole batch (``--jobs 1``), or its start while a pool
would not pay (``run_here_first``); ``pool`` runs them on an executor."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from gridsolve.batch.rows import Row
from gridsolve.batch.tasks import Task, error_row, one_line, solve_task

#: Seconds a local pool costs before its first row (workers spawned, each importing
#: gridsolve: 0.3-0.35 s on a 2-core machine, issue 56).
POOL_START = 0.35

#: What a puzzle solved here costs, counted in work, never seconds (the decision repeats on
#: any machine, however busy; docs/decisions/0037): a base a puzzle and a cell (reading,
#: the engine's tables, checking the solution), and the engines' work (``engine_work``)
#: weighed by its lines' length (a line solve on 25 cells is the unit). Calibrated on this
#: machine: tournament 25x25 puzzles do about WORK_PER_SECOND of such work a second, janko's
#: small ones and random 40x40 to 100x100 alike or slower (then a pool starts later).
PUZZLE_WORK = 1_500
CELL_WORK = 9
LINE_UNIT = 25
WORK_PER_SECOND = 15_000_000


#: A batch starts in this process only with at least this many puzzles a job: with fewer,
#: each puzzle's share of the pool's start is small against what one hard puzzle solved
#: here, not beside the others, would cost (two hard puzzles would take twice as long).
HERE_FIRST_PER_JOB = 32

#: How the error of a row whose worker died begins: ``--resume`` solves such rows again (a
#: dead pool fails every task in flight, most of them through no fault of their own), once:
#: failing again they say WORKER_FAILED_AGAIN and stay, so a puzzle that kills its worker
#: every time cannot stop every resume.
WORKER_FAILED = "worker failed: "
WORKER_FAILED_AGAIN = "worker failed again: "


def retried(row: Row) -> bool:
    """Does ``--resume`` solve this row again: did a worker's death fail it?"""
    return row.status == "error" and row.error.startswith(WORKER_FAILED)


def failed_rows(task: Task, exc: Exception) -> list[Row]:
    """The rows of a task whose run raised (its worker died): one error row a puzzle."""
    why = f"{WORKER_FAILED_AGAIN if task.again else WORKER_FAILED}{one_line(exc)}"
    return [error_row(task.source, i, why) for i in task.indexes]


def cost(row: Row, work: int) -> int:
    """What solving the row's puzzle here cost, in work (see ``PUZZLE_WORK``)."""
    side = max(row.width, row.height, LINE_UNIT)
    return PUZZLE_WORK + CELL_WORK * row.width * row.height + work * side // LINE_UNIT


def run_here(tasks: Iterable[Task], emit: Callable[[list[Row]], None]) -> int:
    """Solve tasks one after another in this process, emitting each one's rows (as
    ``pool.run_tasks`` on an ``InlineExecutor`` does, without importing an executor); their
    ``cost``. A KeyboardInterrupt goes on to the caller; rows already emitted stay."""
    total = 0
    for task in tasks:
        work: list[int] = []
        try:
            rows = solve_task(task, work)
        except Exception as exc:
            rows = failed_rows(task, exc)
        emit(rows)
        total += sum(cost(row, w) for row, w in zip(rows, work + [0] * len(rows)))
    return total


def here_first(puzzles: int, jobs: int) -> bool:
    """Does a batch of ``puzzles`` on ``jobs`` local workers start in this process?"""
    return jobs > 1 and puzzles >= HERE_FIRST_PER_JOB * jobs


def run_here_first(tasks: Iterable[Task], puzzles: int, jobs: int,
                   emit: Callable[[list[Row]], None]) -> Iterator[Task] | None:
    """Solve tasks in this process while what is left of the ``puzzles`` looks too little to
    pay for a pool of ``jobs`` workers (at the work a puzzle so far, it would take less than
    the pool saves: ``POOL_START * jobs / (jobs - 1)`` seconds of ``WORK_PER_SECOND``); the
    tasks left for a pool, or None when all were solved here. A batch of 200 tournament
    puzzles started a pool that doubled its time (0.73 s against 0.39 s with ``--jobs 1``);
    now it starts none. Where a puzzle is solved depends on the work counted, never on the
    clock (nor on how busy the machine is), and never its row."""
    pays = POOL_START * WORK_PER_SECOND * jobs / max(1, jobs - 1)
    done = spent = 0
    left = puzzles
    todo = iter(tasks)
    for task in todo:
        spent += run_here([task], emit)
        done += len(task.indexes)
        left -= len(task.indexes)
        if left > 0 and spent / done * left > pays:
            return todo
    return None
