"""Kissat, a SAT solver run as a program (``_program``: the puzzle's CNF written in DIMACS to
its standard input as it is made, the model read back from its "v" lines).

Kissat (Biere et al.) is not in python-sat; the ``kissat`` extra installs it as the program
that the ``passagemath-kissat`` wheel ships (a 0.3 MB binary, no other dependency). On random
70x70 puzzles it found a first solution 2-10x sooner than Glucose 4.2.1 and solved some
Glucose did not in 60 s; on the survey's 36x42 to 99x59 puzzles it was slower
(docs/decisions/0016). So ``auto`` hands over to it only on puzzles whose every line is longer
than the native engine's one-word bit-parallel solver takes (``KISSAT_MIN_LINE`` cells),
where the native search was measured weak.

A run cannot be resumed: after each solution, a neighbour by local moves (``engine.nearby``)
comes first, then the native search guided by it (``engine.guided``, without a node limit),
then Kissat runs again with the solutions so far blocked (a clause on the cell variables
each), unless the guided search was exhausted (``_program.solutions``). Limits: at the
deadline the process is sent SIGINT, prints its statistics (so its conflicts still count as
nodes) and is killed after STATS_GRACE at most; a node limit is Kissat's conflict limit
(``--conflicts``, for all its runs together); the memory limit caps its address space
(``RLIMIT_AS``), and a run that hits it is a LimitReached.
``auto`` gives its dive turns between Kissat's runs on one core, each run under a conflict
limit (decisions 0029, 0034).
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator, Sequence

from gridsolve.errors import SolverUnavailable
from gridsolve.nonogram.backends import _program
from gridsolve.nonogram.backends._common import KISSAT, KISSAT_MIN_LINE
from gridsolve.nonogram.backends._program import KILLED, OutOfMemory
from gridsolve.nonogram.engine import Result, SearchLimits, abilities
from gridsolve.nonogram.model import AnyPuzzle, Grid
from gridsolve.nonogram.policy import DEFAULT_POLICY, Policy

__all__ = ["NAME", "KISSAT_MIN_LINE", "ENV", "program", "installed", "require", "prefer",
           "KILLED", "OutOfMemory", "solutions", "analyse"]

#: The solver's name where SAT solvers are named (``--sat-solver kissat``).
NAME = KISSAT
#: An environment variable that names the kissat program to run instead of the extra's.
ENV = "GRIDSOLVE_KISSAT"

_PROGRAM: list[str | None] = []  # found once: [path or None]


def program() -> str | None:
    """The kissat program: $GRIDSOLVE_KISSAT, else the one the passagemath-kissat wheel ships,
    else one on the PATH; None if there is none."""
    return _program.find("kissat", ENV, _PROGRAM)


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
    return (abilities(puzzle).moves and min(puzzle.width, puzzle.height) >= KISSAT_MIN_LINE
            and installed())


#: Seconds a run stopped at the deadline may take to print its statistics (its conflicts:
#: the search's ``nodes``) before it is killed.
STATS_GRACE = 0.05


def _run(path: str, header: str, text: _program.Text, deadline: float | None,
         conflicts: int | None, max_memory: int | None,
         seed: int = 0) -> _program.Answer:
    """One run on the model (``header`` and its DIMACS ``text``): (the model's literals, or False
    if unsatisfiable, or None at a limit; the conflicts it took, from its statistics).
    ``seed``: Kissat's random seed (0, its default, adds no option)."""
    # its default output: the result, the model, and statistics with the conflicts
    args = [path] if conflicts is None else [path, f"--conflicts={max(conflicts, 0)}"]
    if seed:
        args.append(f"--seed={seed}")
    ended = _program.run(args, "kissat", header, text(), deadline, max_memory,
                         stop=_interrupted)
    used = _conflicts(ended.out)
    if ended.code is None:
        return None, used
    if ended.code == 20:
        return False, used
    if ended.code == 0 and conflicts is not None:  # its conflict limit
        return None, used
    if ended.code != 10:
        raise _program.failed("kissat", ended, max_memory)
    return _program.model(ended.out), used


def _interrupted(proc: subprocess.Popen[str]) -> str:
    """At the deadline: Kissat, sent SIGINT, prints its statistics and exits (in about 4 ms
    on random 70x70); what it printed, or nothing after STATS_GRACE seconds."""
    return _program.interrupted(proc, STATS_GRACE)


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
              stats: dict[str, int] | None = None, seed: int = 0,
              policy: Policy = DEFAULT_POLICY, guided_always: bool = False) -> Iterator[Grid]:
    """Yield the puzzle's solutions other than ``found`` (black and white only), each checked;
    LimitReached at a limit. ``known`` cells are facts (unit clauses); ``extra`` clauses hold
    in every solution (e.g. the root's implications). After each of Kissat's solutions of a
    black-and-white puzzle, its neighbours by local moves (``engine.nearby``) and by the
    native search guided by it (``engine.guided``; not under a node limit); then Kissat runs
    again with every solution so far blocked, unless that search was exhausted. ``stats``
    (if given) gets conflicts, kissat_runs, nearby and guided as they grow. ``seed`` is
    Kissat's random seed (its ``--seed``; runs of the same model with other seeds take other
    paths: ``--jobs`` runs several); ``policy`` sizes the guided search, which
    ``guided_always`` runs under a node limit too (``auto``'s turns: the limit is the turn's).
    A missing program (SolverUnavailable) and a model over the memory limit (LimitReached)
    are raised at the call."""
    if not 0 <= seed < 2**31:
        raise ValueError(f"kissat's seed must be in 0..2^31-1, not {seed}")
    started = time.perf_counter()
    path = require()

    def once(header: str, text: _program.Text, deadline: float | None,
             conflicts: int | None) -> _program.Answer:
        return _run(path, header, text, deadline, conflicts, limits.max_memory, seed)
    return _program.solutions(puzzle, once, "kissat", limits, started, known, encoding, extra,
                              found, {} if stats is None else stats, runs="kissat_runs",
                              policy=policy, guided_always=guided_always)


def analyse(puzzle: AnyPuzzle, max_solutions: int = 2, limits: SearchLimits = SearchLimits(),
            *, known: Grid | None = None, encoding: str | None = None,
            extra: Sequence[list[int]] = (), found: Sequence[Grid] = (),
            policy: Policy = DEFAULT_POLICY) -> Result:
    """Up to ``max_solutions`` solutions (``found`` counting among them) by ``solutions``;
    the same Result as ``sat.analyse`` (``nodes``: Kissat's conflicts)."""
    return _program.pooled(puzzle, max_solutions, known, found,
                  lambda stats, pool: solutions(puzzle, limits, known=known, encoding=encoding,
                                                extra=extra, found=pool, stats=stats,
                                                policy=policy))

