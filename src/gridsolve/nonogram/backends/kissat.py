"""Kissat, a SAT solver run as a program: the puzzle's CNF (``cnf``) written in DIMACS to its
standard input as it is made (the text is never held whole: a model of 10^8 literals would
take gigabytes as text), the model read back from its "v" lines.

Kissat (Biere et al.) is not in python-sat; the ``kissat`` extra installs it as the program
that the ``passagemath-kissat`` wheel ships (a 0.3 MB binary, no other dependency). On random
70x70 puzzles it found a first solution 2-10x sooner than Glucose 4.2.1 and solved some
Glucose did not in 60 s; on the survey's 36x42 to 99x59 puzzles it was slower
(docs/decisions/0016). So ``auto`` hands over to it only on puzzles whose every line is longer
than the native engine's one-word bit-parallel solver takes (``KISSAT_MIN_LINE`` cells),
where the native search was measured weak.

A run cannot be resumed: after each solution, a neighbour by local moves (``engine.nearby``)
comes first, then Kissat runs again with the solutions so far blocked (a clause on the cell
variables each). Limits: at the deadline the process is sent SIGINT, prints its statistics
(so its conflicts still count as nodes) and is killed after STATS_GRACE at most; a node
limit is Kissat's conflict limit (``--conflicts``, for all its runs together); the memory
limit caps its address space (``RLIMIT_AS``), and a run that hits it is a LimitReached.
"""

from __future__ import annotations

import itertools
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import IO, Literal, cast

from gridsolve.errors import GridsolveError, LimitReached, SolverUnavailable
from gridsolve.nonogram.backends import cnf
from gridsolve.nonogram.backends._common import (KISSAT, KISSAT_MIN_LINE, checked, status_of,
                                                 unknown_grid)
from gridsolve.nonogram.engine import Result, SearchLimits
from gridsolve.nonogram.engine.nearby import nearby
from gridsolve.nonogram.model import AnyPuzzle, ColourPuzzle, Grid, Puzzle
from gridsolve.nonogram.reference import fits
from gridsolve.workers import program_setup

__all__ = ["NAME", "KISSAT_MIN_LINE", "ENV", "program", "installed", "require", "prefer",
           "FEED_CLAUSES", "OutOfMemory", "solutions",
           "analyse"]

#: The solver's name where SAT solvers are named (``--sat-solver kissat``).
NAME = KISSAT
#: Clauses written to Kissat's input at a time (the clock is checked between).
FEED_CLAUSES = 4096
#: An environment variable that names the kissat program to run instead of the extra's.
ENV = "GRIDSOLVE_KISSAT"

_PROGRAM: list[str | None] = []  # found once: [path or None]


def program() -> str | None:
    """The kissat program: $GRIDSOLVE_KISSAT, else the one the passagemath-kissat wheel ships,
    else one on the PATH; None if there is none."""
    env = os.environ.get(ENV)
    if env:
        return env
    if not _PROGRAM:
        _PROGRAM.append(_shipped() or shutil.which("kissat"))
    return _PROGRAM[0]


def _shipped() -> str | None:
    """The wheel's binary: sage_wheels/bin/kissat in a directory of the import path."""
    from importlib.util import find_spec
    try:
        spec = find_spec("sage_wheels")
    except (ImportError, ValueError):
        return None
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = os.path.join(folder, "bin", "kissat")
        if os.access(path, os.X_OK):
            return path
    return None


def installed() -> bool:
    return program() is not None


def require() -> str:
    """The program's path; SolverUnavailable (naming the extra) if there is none."""
    path = program()
    if path is None:
        raise SolverUnavailable("kissat", "kissat")
    return path


def prefer(puzzle: AnyPuzzle) -> bool:
    """Does auto hand this puzzle over to Kissat (rather than to Glucose)? When it is black
    and white, every line has KISSAT_MIN_LINE cells or more, and Kissat is installed."""
    return (isinstance(puzzle, Puzzle) and min(puzzle.width, puzzle.height) >= KISSAT_MIN_LINE
            and installed())


#: Seconds a run stopped at the deadline may take to print its statistics (its conflicts:
#: the search's ``nodes``) before it is killed.
STATS_GRACE = 0.05

#: Exit codes of a process killed by SIGABRT or SIGKILL (an allocation that failed under
#: the address-space cap can end either way), as subprocess and a shell report them.
KILLED = (-6, -9, 134, 137)


class OutOfMemory(LimitReached):
    """A run stopped at the memory limit: an error of the whole search (``analyse`` raises
    it), where the time and conflict limits only end it ("unknown"). Under ``--jobs`` it ends
    the Kissat side only; the other searches go on."""


def _feed(stdin: IO[str], header: str, clauses: Iterable[Sequence[int]],
          deadline: float | None) -> bool:
    """Write the model to the program's input as it is made, FEED_CLAUSES clauses at a time
    (so the DIMACS text is never held whole); False if the deadline came first."""
    stdin.write(header)
    chunk: list[str] = []
    for clause in clauses:
        chunk.append(" ".join(map(str, clause)) + " 0\n")
        if len(chunk) >= FEED_CLAUSES:
            stdin.write("".join(chunk))
            chunk.clear()
            if deadline is not None and time.perf_counter() >= deadline:
                return False
    stdin.write("".join(chunk))
    return True


def _run(path: str, header: str, clauses: Iterable[Sequence[int]], deadline: float | None,
         conflicts: int | None, max_memory: int | None,
         seed: int = 0) -> tuple[list[int] | Literal[False] | None, int]:
    """One run on the model (``header`` and its ``clauses``): (the model's literals, or False
    if unsatisfiable, or None at a limit; the conflicts it took, from its statistics).
    ``seed``: Kissat's random seed (0, its default, adds no option)."""
    if deadline is not None and time.perf_counter() >= deadline:
        return None, 0
    # its default output: the result, the model, and statistics with the conflicts
    args = [path] if conflicts is None else [path, f"--conflicts={max(conflicts, 0)}"]
    if seed:
        args.append(f"--seed={seed}")
    try:
        proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True,
                                preexec_fn=lambda: program_setup(max_memory))
    except OSError as exc:  # e.g. a wrong $GRIDSOLVE_KISSAT
        raise GridsolveError(f"the kissat program {path} cannot be run: "
                             f"{exc.strerror or exc}") from None
    try:
        assert proc.stdin is not None
        try:
            if not _feed(proc.stdin, header, clauses, deadline):
                return None, 0
        except BrokenPipeError:  # it stopped reading: its exit code says why
            pass
        left = None if deadline is None else deadline - time.perf_counter()
        try:
            out, err = proc.communicate(timeout=left)
        except subprocess.TimeoutExpired:
            return None, _interrupted(proc)
        except BrokenPipeError:
            return None, 0
    finally:  # at the deadline, and on Ctrl-C: nothing waits for it
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    used = _conflicts(out)
    if proc.returncode == 20:
        return False, used
    if proc.returncode == 0 and conflicts is not None:  # its conflict limit
        return None, used
    if proc.returncode != 10:
        said = (err.strip().splitlines() or ["no message"])[-1]
        if max_memory is not None and ("memory" in err.lower() or proc.returncode in KILLED):
            raise OutOfMemory(f"kissat stopped at the memory limit of "
                              f"{max_memory / 2**20:,.0f} MB (exit code {proc.returncode}: "
                              f"{said})").with_remedy("max_memory")
        raise GridsolveError(f"kissat ended without an answer (exit code {proc.returncode}): "
                             + said)
    model = [int(v) for line in out.splitlines() if line.startswith("v ")
             for v in line[2:].split()]
    return model, used


def _interrupted(proc: subprocess.Popen[str]) -> int:
    """At the deadline: Kissat, sent SIGINT, prints its statistics and exits (in about 4 ms
    on random 70x70); the conflicts it took, or 0 if it has not ended within STATS_GRACE
    seconds (the caller then kills it)."""
    try:
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=STATS_GRACE)
    except (subprocess.TimeoutExpired, OSError, ValueError):
        return 0
    return _conflicts(out)


def _conflicts(out: str) -> int:
    """The conflicts of a run from Kissat's statistics ("c conflicts: N ..."), or 0."""
    for line in out.splitlines():
        if line.startswith("c conflicts:"):
            try:
                return int(line.split()[2])
            except (IndexError, ValueError):
                return 0
    return 0


def solutions(puzzle: AnyPuzzle, limits: SearchLimits = SearchLimits(), *,
              known: Grid | None = None, encoding: str | None = None,
              extra: Sequence[list[int]] = (), found: Sequence[Grid] = (),
              stats: dict[str, int] | None = None, seed: int = 0) -> Iterator[Grid]:
    """Yield the puzzle's solutions other than ``found`` (black and white only), each checked;
    LimitReached at a limit. ``known`` cells are facts (unit clauses); ``extra`` clauses hold
    in every solution (e.g. the root's implications). After each of Kissat's solutions of a
    black-and-white puzzle, a neighbour by local moves (``engine.nearby``) if there is one;
    then Kissat runs again with every solution so far blocked. ``stats`` (if given) gets
    conflicts, kissat_runs and nearby as they grow. ``seed`` is Kissat's random seed (its
    ``--seed``; runs of the same model with other seeds take other paths: ``--jobs`` runs
    several). A missing program (SolverUnavailable) and a model over the memory limit
    (LimitReached) are raised at the call."""
    if not 0 <= seed < 2**31:
        raise ValueError(f"kissat's seed must be in 0..2^31-1, not {seed}")
    started = time.perf_counter()
    path = require()
    from gridsolve.nonogram.backends.sat import check_memory
    size = check_memory(puzzle, known, limits.max_memory, encoding)
    if found and isinstance(puzzle, ColourPuzzle):
        raise ValueError("found solutions are for black-and-white puzzles")
    return _solutions(puzzle, path, limits, started, size, known, encoding, extra, found,
                      {} if stats is None else stats, seed)


def _solutions(puzzle: AnyPuzzle, path: str, limits: SearchLimits, started: float,
               size: cnf.ModelSize, known: Grid | None, encoding: str | None,
               extra: Sequence[list[int]], found: Sequence[Grid],
               out: dict[str, int], seed: int) -> Iterator[Grid]:
    """The generator of ``solutions``: each run is fed the model anew (``cnf.clauses``, the
    extra clauses, one blocking clause per solution so far)."""
    deadline = None if limits.timeout is None else started + limits.timeout
    ncells = cnf.cell_variables(puzzle)
    top = max([size.variables, ncells] + [abs(lit) for clause in extra for lit in clause])
    blocked = [cnf.blocking_clause(cast(Puzzle, puzzle), grid) for grid in found]
    out.update(conflicts=0, kissat_runs=0, nearby=0)
    seen: dict[Grid, None] = dict.fromkeys(found)
    while True:
        left = None if limits.max_nodes is None else limits.max_nodes - out["conflicts"]
        answer = None
        if left is None or left > 0:
            header = f"p cnf {top} {size.clauses + len(extra) + len(blocked)}\n"
            model = itertools.chain(cnf.clauses(puzzle, known, encoding), extra, blocked)
            answer, used = _run(path, header, model, deadline, left, limits.max_memory, seed)
            out["kissat_runs"] += 1
            out["conflicts"] += used
        if answer is None:
            raise LimitReached("kissat search limit reached", partial=known,
                               nodes=out["conflicts"])
        if answer is False:
            return
        cells = answer[:ncells]
        grid = checked(puzzle, _grid(puzzle, cells), "kissat")
        blocked.append([-v for v in cells])
        seen[grid] = None
        yield grid
        if isinstance(puzzle, Puzzle):
            for other in nearby(puzzle, grid, seen=seen):
                if known is not None and not all(map(fits, other, known)):
                    continue  # (known cells are facts of every solution, or a restriction)
                blocked.append(cnf.blocking_clause(puzzle, other))
                seen[other] = None
                out["nearby"] += 1
                yield other


def analyse(puzzle: AnyPuzzle, max_solutions: int = 2, limits: SearchLimits = SearchLimits(),
            *, known: Grid | None = None, encoding: str | None = None,
            extra: Sequence[list[int]] = (), found: Sequence[Grid] = ()) -> Result:
    """Up to ``max_solutions`` solutions (``found`` counting among them) by ``solutions``;
    the same Result as ``sat.analyse`` (``nodes``: Kissat's conflicts)."""
    started = time.perf_counter()
    stats: dict[str, int] = {}
    pool = list(dict.fromkeys(found))
    complete = True
    grids = solutions(puzzle, limits, known=known, encoding=encoding, extra=extra,
                      found=tuple(pool), stats=stats)
    try:
        for grid in grids:
            pool.append(grid)
            if len(pool) >= max_solutions:
                break
    except OutOfMemory:
        raise
    except LimitReached:
        complete = False
    pool = pool[:max_solutions]
    return Result(status_of(len(pool), max_solutions, complete), tuple(pool),
                  stats.get("conflicts", 0), time.perf_counter() - started,
                  known if known is not None else unknown_grid(puzzle), stats)


def _grid(puzzle: AnyPuzzle, cells: list[int]) -> Grid:
    """The grid of a model's cell literals (the cell variables come first)."""
    from gridsolve.nonogram.backends.sat import _grid as decode
    return decode(puzzle, cells)
