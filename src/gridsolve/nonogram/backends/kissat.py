"""Kissat, a SAT solver run as a program (``_program``), from the ``kissat`` extra (the
``passagemath-kissat`` wheel's binary). ``auto`` hands over to it where every line is long
(docs/decisions/0016) and gives the dive turns between its conflict-limited runs (0029).
At the deadline it is sent SIGINT and prints its statistics (its conflicts count as nodes);
a node limit is its ``--conflicts`` for all runs together; the memory limit caps it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence

from gridsolve.nonogram.backends import _program
from gridsolve.nonogram.backends._common import KISSAT
from gridsolve.nonogram.backends._program import KILLED, OutOfMemory
from gridsolve.nonogram.engine import Result, SearchLimits
from gridsolve.nonogram.model import AnyPuzzle, Grid
from gridsolve.nonogram.policy import DEFAULT_POLICY, Policy

__all__ = ["NAME", "ENV", "program", "installed", "require",
           "KILLED", "OutOfMemory", "solutions", "analyse"]

#: The solver's name where SAT solvers are named (``--sat-solver kissat``).
NAME = KISSAT
#: An environment variable that names the kissat program to run instead of the extra's.
ENV = "GRIDSOLVE_KISSAT"

PROGRAM = _program.Program("kissat", ENV, "kissat")
program, installed, require = PROGRAM.path, PROGRAM.installed, PROGRAM.require


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
    """Yield the puzzle's solutions other than ``found`` (black and white), each checked,
    as ``_program.solutions`` runs them (``stats``: conflicts, kissat_runs, nearby, guided);
    ``seed`` is Kissat's ``--seed``; ``guided_always`` runs the guided search under a node
    limit too (auto's turns). SolverUnavailable and LimitReached (memory) come at the call."""
    if not 0 <= seed < 2**31:
        raise ValueError(f"kissat's seed must be in 0..2^31-1, not {seed}")
    started = time.perf_counter()
    path = require()

    def once(header: str, text: _program.Text, deadline: float | None,
             conflicts: int | None) -> _program.Answer:
        """One run on the model (``header`` and its DIMACS ``text``) under ``conflicts``: (the
        model's literals, False if unsatisfiable, or None at a limit; the conflicts it took,
        from its statistics, which its default output prints)."""
        args = [path] if conflicts is None else [path, f"--conflicts={max(conflicts, 0)}"]
        if seed:  # (0, its default, adds no option)
            args.append(f"--seed={seed}")
        ended = _program.run(args, "kissat", header, text(), deadline, limits.max_memory)
        if ended.code == 0 and conflicts is not None:  # its conflict limit
            return None, _conflicts(ended.out)
        return _program.answer(ended, _conflicts(ended.out),
                               lambda ended: _program.failed("kissat", ended, limits.max_memory))
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

