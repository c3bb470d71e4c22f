"""glucose-syrup, Glucose 4.2.1's parallel solver, run as a program (``_program``): several
solver threads on one model that share the clauses they learn (Audemard and Simon, "Lazy
clause exchange policy for parallel SAT solvers", SAT 2014). It is what ``--jobs`` gives the
SAT side of a large puzzle: learned clauses cross between the cores, where separate
processes (the team, Kissat with other seeds) each start from nothing.

The ``syrup`` extra installs it as the program that the ``passagemath-glucose`` wheel ships
(``glucose-syrup``, a 2 MB binary, no other dependency). Measured on 2 cores from the same
seeded model (docs/decisions/0024): random 70x70 first solutions in 12-14 s where Kissat took
21-27 s, random 50x50 1.5-4x sooner than Glucose 4.2.1 on one core, Gettys 1.3x; on the
small tournament puzzles no better than the team and Kissat side by side.

As with Kissat, a run cannot be resumed (``_program.solutions``: local moves after each
solution and the native search guided by it, then a new run with the solutions so far
blocked). Limits: at the deadline the process is sent SIGINT and prints its statistics (the
conflicts so far: the run's nodes) within STATS_GRACE seconds, then it is killed; its output
is line-buffered through coreutils' ``stdbuf`` where there is one (without, what it printed
before SIGINT stays in its buffer and a stopped run counts 0). It has no conflict limit, so
a node limit is refused (``--jobs`` runs everything in one process under one); the memory
limit caps its address space, and its threads share it (each holds a copy of the model:
``--jobs`` starts as many as fit, ``auto.models_that_fit``).
"""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator, Sequence

from gridsolve.errors import GridsolveError, SolverUnavailable
from gridsolve.nonogram.backends import _program
from gridsolve.nonogram.backends._program import OutOfMemory
from gridsolve.nonogram.engine import Result, SearchLimits
from gridsolve.nonogram.model import AnyPuzzle, Grid

__all__ = ["NAME", "ENV", "STATS_GRACE", "STALL_SECONDS", "STALL_RUNS", "THREAD_BYTES", "program",
           "installed", "require", "usable", "solutions", "analyse"]

#: The program's name (as the passagemath-glucose wheel ships it).
NAME = "glucose-syrup"
#: An environment variable that names the glucose-syrup program to run instead of the extra's.
ENV = "GRIDSOLVE_SYRUP"

_PROGRAM: list[str | None] = []  # found once: [path or None]


def program() -> str | None:
    """The glucose-syrup program: $GRIDSOLVE_SYRUP, else the one the passagemath-glucose
    wheel ships, else one on the PATH; None if there is none."""
    return _program.find(NAME, ENV, _PROGRAM)


def installed() -> bool:
    return program() is not None


def usable() -> bool:
    """Installed, and on a system where a hung run can be told (``_program.watchable``):
    elsewhere a hang would last to the deadline, or for ever."""
    return installed() and _program.watchable()


def require() -> str:
    """The program's path; SolverUnavailable (naming the extra) if there is none."""
    path = program()
    if path is None:
        raise SolverUnavailable(NAME, "syrup")
    return path


def _run(path: str, threads: int, header: str, text: _program.Text,
         deadline: float | None, max_memory: int | None, quiet: list[bool]) -> _program.Answer:
    """One run on the model with ``threads`` solver threads: (the model's literals, or False
    if unsatisfiable, or None at the deadline; the conflicts of all threads, from its
    statistics). Its faults (glucose-syrup 4.2.1), on models it settles without search:
    printing its statistics it divides by zero and dies of SIGFPE with its answer unprinted,
    so the run is made again without statistics (and so are the search's later runs:
    ``quiet``); now and then it hangs, so a run that has used no CPU time for STALL_SECONDS
    is killed and made again with one thread, STALL_RUNS runs at most."""
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
                                     "-verb=0" if quiet[0] else "-verb=1"],
                             NAME, header, text(), deadline, max_memory,
                             stop=_interrupted, stall=STALL_SECONDS)
        if ended.code in SIGFPE and not quiet[0]:
            quiet[0] = True
        elif not ended.stalled:
            break
        else:
            hung += 1
            if hung >= STALL_RUNS:
                raise GridsolveError(f"{NAME} hung {hung} times on this model (it does now "
                                     "and then on one it settles without search)")
    used = _conflicts(ended.out)
    if ended.code is None:
        return None, used
    if ended.code == 20:
        return False, used
    if ended.code != 10:
        raise _failed(ended, max_memory)
    return _program.model(ended.out), used


def _line_buffered() -> list[str]:
    """coreutils' ``stdbuf -oL`` (the program's output line by line, not in 4 KB blocks), or
    nothing where there is no ``stdbuf``."""
    if not _STDBUF:
        _STDBUF.append(shutil.which("stdbuf"))
    return [] if _STDBUF[0] is None else [_STDBUF[0], "-oL"]


_STDBUF: list[str | None] = []  # looked up once: [path or None]


def _interrupted(proc: subprocess.Popen[str]) -> str:
    """At the deadline: glucose-syrup, sent SIGINT, prints its statistics and exits (in 2-9
    ms with 1-2 threads on random 50x50 to 70x70 and Gettys); what it printed, or nothing
    after STATS_GRACE seconds."""
    return _program.interrupted(proc, STATS_GRACE)


def _failed(ended: _program.Ended, max_memory: int | None) -> GridsolveError:
    """As ``_program.failed``; and out of memory where glucose-syrup, under the memory
    limit, catches its own failed allocation (exit 0, "INDETERMINATE") or dies of SIGSEGV."""
    if max_memory is not None and (ended.code in SIGSEGV or (
            ended.code == 0 and "INDETERMINATE" in ended.out)):
        return OutOfMemory(f"{NAME} stopped at the memory limit of "
                           f"{max_memory / 2**20:,.0f} MB (exit code {ended.code})"
                           ).with_remedy("max_memory")
    return _program.failed(NAME, ended, max_memory)


#: Seconds a run stopped at the deadline may take to print its statistics (its conflicts:
#: the search's ``nodes``) before it is killed.
STATS_GRACE = 0.05
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
    """Yield the puzzle's solutions other than ``found`` (black and white only), each checked,
    with ``threads`` solver threads; LimitReached at the deadline. ``known``, ``extra`` and
    ``found`` as for ``kissat.solutions``; ``stats`` (if given) gets conflicts, syrup_runs,
    nearby and guided as they grow. A missing program (SolverUnavailable), a node limit (it
    has none) and a model over the memory limit (LimitReached) are raised at the call."""
    if not 1 <= threads <= 1024:
        raise ValueError(f"glucose-syrup's threads must be in 1..1024, not {threads}")
    started = time.perf_counter()
    path = require()
    if limits.max_nodes is not None:
        raise GridsolveError(f"{NAME} cannot stop at a node limit; without one it can")
    quiet = [False]

    def once(header: str, text: _program.Text, deadline: float | None,
             _conflicts: int | None) -> _program.Answer:
        return _run(path, threads, header, text, deadline, limits.max_memory, quiet)
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
