"""ILP backend: the classic integer program of a nonogram, solved by PuLP's bundled CBC.

The model of R. A. Bosch, "Painting by numbers", Optima 65 (2001), with binary variables

    x[r, c]           cell (r, c) is filled
    y[line, k, s]     block k of the line starts at cell s (s among its feasible starts)

and, for every line:

    sum_s y[line, k, s] = 1                              each block starts exactly once
    y[line, k, s] <= sum_{t >= s + size_k + 1} y[line, k + 1, t]
                                                         block order, with a gap of one
    x[cell] = sum of the line's starts covering the cell
                                                         a filled cell lies in some block,
                                                         and a block covers its cells

with a zero objective (any feasible point is a solution). The last family merges the classic
pair "a filled cell lies in some block" (x <= sum of covering starts) and "a block covers its
cells" (y <= x for each covered cell) into one equality, exact because the order constraints
keep a line's blocks apart, so at most one start covers a cell. It is smaller and faster for
CBC (measured: Cat 2.8 s -> 0.8 s, Knot over 30 s -> 27 s; the LP relaxation of the pair
alone took 50 s on Petro). Counting re-solves after a no-good cut on the cells,
sum over filled (1 - x) + sum over empty x >= 1, which removes exactly the
solution found. Each solve is one run of PuLP's bundled CBC on the MPS file PuLP writes,
killed if it outlives what is left of the timeout; ``nodes`` counts CBC runs.

Limits: the model's terms are counted from the clues first (``model_terms``; the order
constraints grow with the square of a line's slack). A model over the memory limit is refused
(LimitReached); one that PuLP could not build and write within the time left (at
BUILD_TERMS_PER_SECOND) ends at once with status unknown, as the time limit would; the build
checks the clock as it goes, and CBC runs with its address space capped at the memory limit.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
import warnings
from typing import Any

from gridsolve.errors import GridsolveError, LimitReached, SolverUnavailable
from gridsolve.nonogram.backends._common import (checked, feasible_starts, grid_from_cells,
                                                 lines, unknown_grid)
from gridsolve.nonogram.engine import Result, SearchLimits, passed, seconds_left
from gridsolve.nonogram.model import Grid, Puzzle
from gridsolve.workers import program_setup

__all__ = ["require", "build", "model_terms", "analyse"]

#: Seconds CBC may run past the deadline (to stop on its own) before it is killed.
KILL_GRACE = 0.2
#: CBC options of the runs after the first (each after a no-good cut: looking for another
#: solution, which on a unique puzzle is a proof that there is none). Without its
#: feasibility pump: on light.dat (50x45, unique) the pump took 32 s of the second run and
#: CBC then stopped with "Not Solved" long before its time limit (unknown at 104 s of 120);
#: without it the run proves there is no second solution in 44 s (unique in 60 s). The
#: price is on puzzles with several solutions, where the pump helps find the second:
#: taai2011's first 20 at 30 s each took 224.1 s against 213.6 s, with 4 unknown against 3
#: (same run, one core each). Proving a puzzle unique is what ILP is here for, so it is
#: off. The first run keeps the pump, which finds its solution.
LATER_RUN_OPTIONS: tuple[str, ...] = ("-feas", "off")
#: Memory per term (a variable in a constraint) of the model: PuLP's objects took 105-160
#: bytes a term on random 50x50 and 100x100 puzzles, CBC's copy comes on top.
BYTES_PER_TERM = 300
#: Terms a second PuLP builds a model and writes its MPS file at, well under what was
#: measured (2026-11-26: light.dat, random 50x50 and 100x100 340,000-385,000 a second; the
#: build checks the clock as it goes, so this only keeps a hopeless build from starting).
#: It was 50,000, which refused in 0.1 s a light.dat that builds in 0.27 s under --timeout 2.
BUILD_TERMS_PER_SECOND = 200_000


def _pulp() -> Any:
    """Import PuLP lazily; a missing package names the extra to install."""
    try:
        import pulp  # type: ignore[import-untyped]
    except ImportError:
        raise SolverUnavailable("PuLP", "ilp") from None
    return pulp


def require() -> None:
    """Raise SolverUnavailable (naming the extra) unless PuLP and its CBC are usable."""
    pulp = _pulp()
    if not _cbc(pulp).available():
        raise SolverUnavailable("PuLP's bundled CBC solver", "ilp")


def _binary(pulp: Any, prob: Any, name: str) -> Any:
    """A binary variable of the problem (PuLP 3.3+ attaches it at creation)."""
    add = getattr(prob, "add_variable", None)
    if add is not None:
        return add(name, cat=pulp.LpBinary)
    return pulp.LpVariable(name, cat=pulp.LpBinary)


def _cbc(pulp: Any) -> Any:
    """PuLP's bundled CBC (deprecated for PuLP 4, hence the ``pulp<4`` pin of the extra)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return pulp.PULP_CBC_CMD(msg=False)


def _run_cbc(pulp: Any, prob: Any, deadline: float | None, max_nodes: int | None,
             max_memory: int | None,
             options: tuple[str, ...] = ()) -> tuple[int, dict[str, float]] | None:
    """One CBC run on the problem: (PuLP status, values by variable name), None at the deadline.

    PuLP's own call waits for CBC with no timeout, and CBC ignores ``-sec`` inside its root
    LP (measured: Petro, 40x35, ran 76 s under ``-sec 2``), so the bundled binary is run here
    and killed at the deadline, its address space capped at ``max_memory``; the files live in
    a temporary folder removed afterwards."""
    cbc = _cbc(pulp)
    with tempfile.TemporaryDirectory(prefix="gridsolve-cbc-") as tmp:
        mps, sol = os.path.join(tmp, "model.mps"), os.path.join(tmp, "model.sol")
        vs, var_names, con_names, _ = prob.writeMPS(mps, rename=1)
        seconds = seconds_left(deadline)
        if seconds == 0:
            return None
        args = [cbc.path, mps, "-timeMode", "elapsed"]
        if seconds is not None:
            args += ["-sec", f"{max(seconds, 0.01):.3f}"]
        if max_nodes is not None:
            args += ["-maxNodes", str(max_nodes)]
        args += [*options, "-solve", "-printingOptions", "all", "-solution", sol]
        parent = os.getpid()
        with subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL,
                              preexec_fn=lambda: program_setup(max_memory, parent)) as proc:
            try:
                code = proc.wait(timeout=None if seconds is None else seconds + KILL_GRACE)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
                return None
        if code != 0 or not os.path.exists(sol):
            if max_memory is not None:
                raise LimitReached(f"CBC failed (exit code {code}) on this puzzle, perhaps for "
                                   f"want of memory under the limit of {max_memory >> 20} MB")
            raise GridsolveError(f"CBC failed (exit code {code}) on this puzzle")
        status, values, *_ = cbc.readsol_MPS(sol, prob, vs, var_names, con_names)
        return int(status), values


def model_terms(puzzle: Puzzle, stop_at: int | None = None) -> int:
    """How many terms ``build`` writes (each variable in each constraint), from the clues;
    once past ``stop_at`` the count stops there."""
    terms = 0
    for _, clue, cells in lines(puzzle):
        n = len(cells)
        terms += n + sum(clue) * (n - sum(clue) - len(clue) + 2)  # x = covering starts
        m = n - sum(clue) - len(clue) + 2  # the feasible starts of each block
        terms += len(clue) * m  # each block starts once
        terms += max(len(clue) - 1, 0) * (m + m * (m + 1) // 2)  # block order
        if stop_at is not None and terms > stop_at:
            break
    return terms


#: Model items (variables and constraints) made between two looks at the clock in ``build``.
BUILD_CLOCK_EVERY = 4096


def build(puzzle: Puzzle, deadline: float | None = None) -> tuple[Any, list[Any]] | None:
    """The integer program and its cell variables in row-major order (None if the deadline
    came first: the clock is checked every BUILD_CLOCK_EVERY variables or constraints, so a
    line of 100,000 cells is not one step)."""
    pulp = _pulp()
    prob = pulp.LpProblem("nonogram", pulp.LpMinimize)
    made = 0

    def late() -> bool:
        nonlocal made
        made += 1
        return made % BUILD_CLOCK_EVERY == 0 and passed(deadline)
    cells: dict[tuple[int, int], Any] = {}
    for r in range(puzzle.height):
        for c in range(puzzle.width):
            cells[r, c] = _binary(pulp, prob, f"x_{r}_{c}")
            if late():
                return None
    prob += pulp.lpSum([])
    for (kind, index), clue, line_cells in lines(puzzle):
        xs = [cells[rc] for rc in line_cells]
        if not clue:
            for x in xs:
                prob += x == 0
                if late():
                    return None
            continue
        starts = feasible_starts(clue, len(xs))
        ys: list[dict[int, Any]] = []
        for k, rng in enumerate(starts):
            ys.append({})
            for s in rng:
                ys[k][s] = _binary(pulp, prob, f"y_{kind}{index}_{k}_{s}")
                if late():
                    return None
        covering: list[list[Any]] = [[] for _ in xs]
        for k, size in enumerate(clue):
            prob += pulp.lpSum(ys[k].values()) == 1
            for s, y in ys[k].items():
                for i in range(s, s + size):
                    covering[i].append(y)
                if k + 1 < len(clue):
                    prob += y <= pulp.lpSum(z for t, z in ys[k + 1].items() if t >= s + size + 1)
                if late():
                    return None
        for x, cover in zip(xs, covering):
            prob += x == pulp.lpSum(cover)
            if late():
                return None
    return prob, [cells[r, c] for r in range(puzzle.height) for c in range(puzzle.width)]


def _build_within(puzzle: Puzzle, limits: SearchLimits,
                  deadline: float | None) -> tuple[Any, list[Any]] | None:
    """The model, if it fits the memory limit (else LimitReached) and can be built and
    written before the deadline (else None)."""
    memory = limits.max_memory
    by_memory = None if memory is None else memory // BYTES_PER_TERM
    left = seconds_left(deadline)
    by_time = None if left is None else int(left * BUILD_TERMS_PER_SECOND)
    bounds = [b for b in (by_memory, by_time) if b is not None]
    terms = model_terms(puzzle, min(bounds) if bounds else None)
    if memory is not None and by_memory is not None and terms > by_memory:
        raise LimitReached(
            f"the ILP model of this {puzzle.width}x{puzzle.height} puzzle needs about "
            f"{terms * BYTES_PER_TERM >> 20} MB or more ({terms:,} terms), over the memory "
            f"limit of {memory >> 20} MB").with_remedy("max_memory")
    if by_time is not None and terms > by_time:
        return None
    return build(puzzle, deadline)


def analyse(puzzle: Puzzle, max_solutions: int = 2,
            limits: SearchLimits = SearchLimits()) -> Result:
    """Search up to ``max_solutions`` solutions with CBC; same Result as the native engine.

    ``limits.timeout`` bounds the build and the CBC runs together; ``limits.max_nodes`` caps
    the branch-and-bound nodes of each run; ``limits.max_memory`` the model (see above)."""
    started = time.perf_counter()
    deadline = limits.deadline()
    pulp = _pulp()
    found: list[Grid] = []
    built = _build_within(puzzle, limits, deadline)
    if built is None:  # it could not be built and written in time: the time limit's answer
        return Result("unknown", (), 0, time.perf_counter() - started, unknown_grid(puzzle),
                      {"cbc_runs": 0, "built": 0})
    prob, xs = built
    complete, runs = True, 0
    while len(found) < max_solutions:
        if passed(deadline):
            complete = False
            break
        outcome = _run_cbc(pulp, prob, deadline, limits.max_nodes, limits.max_memory,
                           LATER_RUN_OPTIONS if found else ())
        runs += 1
        if outcome is None or outcome[0] in (pulp.LpStatusNotSolved, pulp.LpStatusUndefined):
            complete = False
            break
        status, values = outcome
        if status == pulp.LpStatusInfeasible:
            break
        if status != pulp.LpStatusOptimal:
            raise GridsolveError(f"CBC ended with status {pulp.LpStatus[status]!r}")
        filled = [round(values.get(x.name, 0) or 0) == 1 for x in xs]
        found.append(checked(puzzle, grid_from_cells(puzzle, filled), "ILP"))
        prob += (pulp.lpSum(1 - x for x, f in zip(xs, filled) if f)
                 + pulp.lpSum(x for x, f in zip(xs, filled) if not f)) >= 1
    stats = {"cbc_runs": runs, "variables": len(prob.variables()),
             "constraints": prob.numConstraints()}
    return Result.of_count(tuple(found), max_solutions, complete, runs,
                           time.perf_counter() - started, unknown_grid(puzzle), stats)
