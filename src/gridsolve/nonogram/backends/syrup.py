"""glucose-syrup, Glucose 4.2.1's parallel solver (threads that share learned clauses; Audemard
and Simon, SAT 2014), run as a program (``_program``) from the ``syrup`` extra: ``--jobs``
gives it the SAT side of a large puzzle (docs/decisions/0024, 0030). At the deadline it is
sent SIGINT and prints its statistics through ``stdbuf -oL``; it has no conflict limit, so a
node limit is refused; its threads share the memory limit (each holds a model).
"""

from __future__ import annotations

import functools
import shutil
import time
from collections.abc import Iterator, Sequence

from gridsolve.errors import GridsolveError
from gridsolve.nonogram.backends import _program
from gridsolve.nonogram.backends._program import OutOfMemory
from gridsolve.nonogram.engine import Result, SearchLimits
from gridsolve.nonogram.model import AnyPuzzle, Grid

__all__ = ["NAME", "ENV", "STALL_SECONDS", "STALL_RUNS", "THREAD_BYTES", "program",
           "installed", "require", "usable", "solutions", "analyse"]

#: The program's name (as the passagemath-glucose wheel ships it).
NAME = "glucose-syrup"
#: An environment variable that names the glucose-syrup program to run instead of the extra's.
ENV = "GRIDSOLVE_SYRUP"

PROGRAM = _program.Program(NAME, ENV, "syrup")
program, installed, require = PROGRAM.path, PROGRAM.installed, PROGRAM.require


def usable() -> bool:
    """Installed, and on a system where a hung run can be told (``_program.watchable``):
    elsewhere a hang would last to the deadline, or for ever."""
    return installed() and _program.watchable()


@functools.cache
def _line_buffered() -> list[str]:
    """coreutils' ``stdbuf -oL`` (the program's output line by line, not in 4 KB blocks), or
    nothing where there is no ``stdbuf`` (looked up once)."""
    stdbuf = shutil.which("stdbuf")
    return [] if stdbuf is None else [stdbuf, "-oL"]


def _failed(ended: _program.Ended, max_memory: int | None) -> GridsolveError:
    """As ``_program.failed``; and out of memory where glucose-syrup, under the memory
    limit, catches its own failed allocation (exit 0, "INDETERMINATE") or dies of SIGSEGV."""
    if max_memory is not None and (ended.code in SIGSEGV or (
            ended.code == 0 and "INDETERMINATE" in ended.out)):
        return OutOfMemory(f"{NAME} stopped at the memory limit of "
                           f"{max_memory / 2**20:,.0f} MB (exit code {ended.code})"
                           ).with_remedy("max_memory")
    return _program.failed(NAME, ended, max_memory)


#: Exit codes of a process killed by SIGFPE or SIGSEGV, as subprocess and a shell report them.
SIGFPE = (-8, 136)
SIGSEGV = (-11, 139)
#: glucose-syrup 4.2.1 hangs (its threads gone, the main one waiting for them) on models it
#: settles without search (tiny puzzles: those whose clues fix each cell), from 1% to 40% of
#: runs with 2 threads by the machine's load: a run that has used no CPU time for
#: STALL_SECONDS is killed and made again (with one thread), up to STALL_RUNS runs in all.
STALL_SECONDS = 0.5
STALL_RUNS = 8
#: Bytes each thread takes past its copy of the model, under the address-space cap (its
#: allocator's arena and stack, the clauses it shares): a 40x40 puzzle's 3 threads did not
#: fit 128 MB.
THREAD_BYTES = 96 * 2**20


def _conflicts(out: str) -> int:
    """The conflicts of all threads, from the final statistics' table ("c | Conflicts |
    TOTAL | per thread ..."), or 0."""
    for line in out.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) > 2 and cells[0] == "c" and cells[1] == "Conflicts":
            try:
                return int(cells[2])
            except ValueError:
                return 0
    return 0


def solutions(puzzle: AnyPuzzle, limits: SearchLimits = SearchLimits(), *, threads: int = 2,
              known: Grid | None = None, encoding: str | None = None,
              extra: Sequence[list[int]] = (), found: Sequence[Grid] = (),
              stats: dict[str, int] | None = None) -> Iterator[Grid]:
    """Yield the puzzle's solutions other than ``found`` with ``threads`` threads, as
    ``kissat.solutions`` does (``stats``: conflicts, syrup_runs, nearby, guided)."""
    if not 1 <= threads <= 1024:
        raise ValueError(f"glucose-syrup's threads must be in 1..1024, not {threads}")
    started = time.perf_counter()
    path = require()
    if limits.max_nodes is not None:
        raise GridsolveError(f"{NAME} cannot stop at a node limit; without one it can")
    max_memory, quiet = limits.max_memory, False

    def once(header: str, text: _program.Text, deadline: float | None,
             _cap: int | None) -> _program.Answer:
        """One run: (the model, False, or None at the deadline; the threads' conflicts).
        glucose-syrup 4.2.1 dies of SIGFPE printing its statistics on a model it settles
        without search (run again ``quiet``), and now and then hangs (a run with no CPU time
        for STALL_SECONDS is killed and made again with one thread, STALL_RUNS at most)."""
        nonlocal quiet
        # line-buffered, so that what it prints when interrupted is not lost with its buffer
        # (stdbuf runs it: one that cannot be run would be stdbuf's exit code 127, so asked here)
        args = [*_line_buffered(), path, "-model"]
        if len(args) > 2 and shutil.which(path) is None:
            raise GridsolveError(f"the {NAME} program {path} cannot be run: not found, or not "
                                 "executable")
        if max_memory is not None:  # its own bound, below the address-space cap
            args.append(f"-maxmemory={max(1, max_memory // 2**21)}")
        hung = 0
        while True:
            n = threads if not hung else 1  # one thread hangs less often
            ended = _program.run(args + [f"-nthreads={n}", f"-maxnbthreads={n}",
                                         "-verb=0" if quiet else "-verb=1"],
                                 NAME, header, text(), deadline, max_memory, STALL_SECONDS)
            if ended.code in SIGFPE and not quiet:
                quiet = True
            elif not ended.stalled:
                break
            else:
                hung += 1
                if hung >= STALL_RUNS:
                    raise GridsolveError(f"{NAME} hung {hung} times on this model (it does "
                                         "now and then on one it settles without search)")
        return _program.answer(ended, _conflicts(ended.out),
                               lambda ended: _failed(ended, max_memory))
    return _program.solutions(puzzle, once, NAME, limits, started, known, encoding, extra,
                              found, {} if stats is None else stats, runs="syrup_runs")


def analyse(puzzle: AnyPuzzle, max_solutions: int = 2, limits: SearchLimits = SearchLimits(),
            *, threads: int = 2, known: Grid | None = None, encoding: str | None = None,
            extra: Sequence[list[int]] = (), found: Sequence[Grid] = ()) -> Result:
    """Up to ``max_solutions`` solutions (``found`` counting among them) by ``solutions``;
    the same Result as ``kissat.analyse`` (``nodes``: the threads' conflicts)."""
    return _program.pooled(puzzle, max_solutions, known, found,
                           lambda stats, pool: solutions(puzzle, limits, threads=threads,
                                                         known=known, encoding=encoding,
                                                         extra=extra, found=pool, stats=stats))
