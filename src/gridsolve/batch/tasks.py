"""A task (some puzzles of one file) and the pure function a worker runs to solve it into rows."""

from __future__ import annotations

import functools
import os
import time
from dataclasses import dataclass

from gridsolve.batch.rows import Row, solution_hash
from gridsolve.errors import GridsolveError, ParseError
from gridsolve.nonogram.backends import analyse
from gridsolve.nonogram.engine import DEFAULT_MAX_MEMORY, Result, SearchLimits
from gridsolve.nonogram.formats import Entry, default_label, iter_entries
from gridsolve.nonogram.policy import DEFAULT_POLICY


@dataclass(frozen=True)
class Options:
    """How each puzzle is solved."""

    max_solutions: int = 2
    timeout: float | None = 60.0
    max_nodes: int | None = None
    method: str = "auto"
    solver: str | None = None
    format: str = "auto"
    limits: bool = True
    max_memory: int | None = DEFAULT_MAX_MEMORY  # per puzzle, in each worker


@dataclass(frozen=True)
class Task:
    """Some puzzles of one file: read at ``path`` by the worker, reported under ``source``."""

    path: str
    source: str
    indexes: tuple[int, ...]
    options: Options
    #: Puzzles a dead worker failed before: failing again, their rows are not retried.
    again: bool = False


def one_line(exc: BaseException) -> str:
    """An exception as one line: our errors as they are, others prefixed by their type."""
    text = str(exc) if isinstance(exc, GridsolveError) else f"{type(exc).__name__}: {exc}"
    return " ".join(text.split()).removesuffix(":") or type(exc).__name__


def error_row(source: str, index: int, why: str, label: str = "") -> Row:
    """A row saying the puzzle (or file) could not be solved at all."""
    return Row(source, index, label or default_label(source), 0, 0, "error", 0.0, 0, "", why)


def engine_work(result: Result, cells: int) -> int:
    """The work a solve did as the engines count it (``policy``): the native searches' line
    solves and belief-propagation passes, and SAT's conflicts at ``conflict_work`` each."""
    stats, policy = result.stats, DEFAULT_POLICY
    conflicts = stats.get("sat_conflicts", 0) + stats.get("glucose_conflicts", 0)
    return (stats.get("line_solves", 0)
            + stats.get("bp_rounds", 0) * cells // max(1, policy.dive_bp_cells)
            + conflicts * policy.conflict_work)


def solve_entry(entry: Entry, source: str, options: Options,
                work: list[int] | None = None) -> Row:
    """Solve one puzzle, black-and-white or colour, into a row (an exception becomes an error
    row), appending its ``engine_work`` to ``work`` if given. A colour solution is hashed as
    its rows of palette symbols."""
    puzzle, label = entry.puzzle, " ".join(entry.label.split())
    started = time.perf_counter()
    try:
        result = analyse(puzzle, options.max_solutions,
                         SearchLimits(options.max_nodes, options.timeout, options.max_memory),
                         options.method, solver=options.solver)
    except Exception as exc:  # one bad puzzle must not end a batch of a million
        if work is not None:
            work.append(0)
        return Row(source, entry.index, label, puzzle.width, puzzle.height, "error",
                   round(time.perf_counter() - started, 6), 0, "", one_line(exc))
    if work is not None:
        work.append(engine_work(result, puzzle.width * puzzle.height))
    digest = solution_hash(result.solutions[0]) if result.solutions else ""
    return Row(source, entry.index, label, puzzle.width, puzzle.height, result.status,
               round(result.seconds, 6), result.nodes, digest, "")


@functools.lru_cache(maxsize=4)
def _read(path: str, format: str, limits: bool,
          stamp: tuple[int, int]) -> tuple[tuple[Entry, ...], str]:
    """The puzzles of a file up to the first unreadable one, and why reading stopped ('' if it
    did not); kept while the file's mtime and size stay the same (one parse per worker)."""
    entries: list[Entry] = []
    try:
        for entry in iter_entries(path, format, limits):
            entries.append(entry)
    except Exception as exc:  # any reader failure is a row: one file must not end the batch
        return tuple(entries), _why(exc, path)
    return tuple(entries), ""


def _why(exc: Exception, path: str) -> str:
    """Why a file could not be read, as one line (naming the file)."""
    if isinstance(exc, OSError):
        return one_line(ParseError(exc.strerror or str(exc), path))
    if isinstance(exc, GridsolveError):
        return one_line(exc)
    return one_line(ParseError(f"cannot read the file ({one_line(exc)})", path))


def load(path: str, source: str, options: Options) -> tuple[tuple[Entry, ...], str]:
    """The readable puzzles of a file and why the rest could not be read, naming the file as
    the user did (workers see absolute paths)."""
    try:
        st = os.stat(path)
        entries, why = _read(path, options.format, options.limits, (st.st_mtime_ns, st.st_size))
    except OSError as exc:
        entries, why = (), _why(exc, path)
    return entries, why.replace(path, source)


def solve_task(task: Task, work: list[int] | None = None) -> list[Row]:
    """Read the task's file and solve its puzzles: the pure function run by every worker
    (``work``: see ``solve_entry``; a puzzle that is gone did none)."""
    entries, why = load(task.path, task.source, task.options)
    rows = []
    for i in task.indexes:
        if i < len(entries):
            rows.append(solve_entry(entries[i], task.source, task.options, work))
        else:
            if work is not None:
                work.append(0)
            rows.append(error_row(task.source, i, why or f"{task.source}: puzzle {i} is gone "
                                  "(the file changed during the batch)"))
    return rows

