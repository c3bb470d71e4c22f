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
from bisect import bisect_left
from collections.abc import Iterator
from typing import Any, Literal

from gridsolve.errors import GridsolveError, LimitReached, SolverUnavailable
from gridsolve.nonogram import engine
from gridsolve.nonogram.backends._common import (Line, checked, feasible_starts,
                                                 grid_from_cells, lines, unknown_grid)
from gridsolve.nonogram.engine import Result, SearchLimits, passed, seconds_left
from gridsolve.nonogram.model import EMPTY, FILLED, UNKNOWN, Clue, Grid, Puzzle
from gridsolve.workers import program_setup

__all__ = ["require", "build", "model_terms", "prepared", "Runs", "analyse", "unbuilt_text"]

#: Seconds before the deadline CBC is told to stop on its own (``-sec``); it is killed at
#: the deadline itself, counted when the wait starts (it was killed this long after a
#: deadline counted before its process was started: --timeout 5 took 5.5 s under load).
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
#: Seconds writing the MPS file takes for each second building the model took (measured
#: 2026-12-07 under load ~10 on two cores: random 60x60 build 3.39 s, write 3.00 s; a
#: 20000x1 line 3.58 s and 3.11 s). The write cannot look at the clock, so the build stops
#: while there is still this much time left for it, and a write starts only with the time
#: the last one took (or this estimate) left: under load both slow down alike. (A model
#: built up to the deadline and then written overran --timeout 20 by 63%.)
WRITE_PER_BUILD = 1.0


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
             max_memory: int | None, options: tuple[str, ...] = (),
             write: list[float] | None = None) -> tuple[int, dict[str, float]] | None:
    """One CBC run on the problem: (PuLP status, values by variable name), None at the deadline.

    ``write`` holds the seconds the model's MPS file is expected to take to write: with less
    than that left the run does not start (None); it is updated with the time this write took.

    PuLP's own call waits for CBC with no timeout, and CBC ignores ``-sec`` inside its root
    LP (measured: Petro, 40x35, ran 76 s under ``-sec 2``), so the bundled binary is run here
    and killed at the deadline, its address space capped at ``max_memory``; the files live in
    a temporary folder removed afterwards."""
    cbc = _cbc(pulp)
    with tempfile.TemporaryDirectory(prefix="gridsolve-cbc-") as tmp:
        mps, sol = os.path.join(tmp, "model.mps"), os.path.join(tmp, "model.sol")
        left = seconds_left(deadline)
        if write and left is not None and left < write[0]:
            return None
        writing = time.perf_counter()
        vs, var_names, con_names, _ = prob.writeMPS(mps, rename=1)
        if write:
            write[0] = time.perf_counter() - writing
        seconds = seconds_left(deadline)
        if seconds == 0:
            return None
        args = [cbc.path, mps, "-timeMode", "elapsed"]
        if seconds is not None:
            args += ["-sec", f"{max(seconds - KILL_GRACE, 0.01):.3f}"]
        if max_nodes is not None:
            args += ["-maxNodes", str(max_nodes)]
        args += [*options, "-solve", "-printingOptions", "all", "-solution", sol]
        parent = os.getpid()
        with subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL,
                              preexec_fn=lambda: program_setup(max_memory, parent)) as proc:
            try:
                code = proc.wait(timeout=seconds_left(deadline))
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


def _open_lines(puzzle: Puzzle, known: Grid | None) -> Iterator[tuple[Line, str]]:
    """Every line with a cell still open in ``known`` (all of them without it), with its
    cells as known there ('#', '.', '?')."""
    for line in lines(puzzle):
        if known is None:
            yield line, UNKNOWN * len(line[2])
            continue
        text = "".join(known[r][c] for r, c in line[2])
        if UNKNOWN in text:
            yield line, text


def _starts(clue: Clue, text: str) -> list[list[int]]:
    """Each block's starts that agree with the line's known cells: none of its cells empty,
    and no filled cell just before or just after it."""
    n = len(text)
    empty_before = [0]
    for ch in text:
        empty_before.append(empty_before[-1] + (ch == EMPTY))
    out = []
    for size, rng in zip(clue, feasible_starts(clue, n)):
        out.append([s for s in rng if empty_before[s + size] == empty_before[s]
                    and (s == 0 or text[s - 1] != FILLED)
                    and (s + size == n or text[s + size] != FILLED)])
    return out


def model_terms(puzzle: Puzzle, stop_at: int | None = None, known: Grid | None = None) -> int:
    """How many terms ``build`` writes (each variable in each constraint), from the clues;
    once past ``stop_at`` the count stops there. With ``known`` (see ``build``), the lines
    it settles count nothing, and the others exactly when that costs less than what is
    left below ``stop_at``, else as if every cell were open (an upper bound)."""
    terms = 0
    for (_, clue, cells), text in _open_lines(puzzle, known):
        n = len(cells)
        m = n - sum(clue) - len(clue) + 2  # the feasible starts of each block
        if known is not None and (stop_at is None or terms + len(clue) * m <= stop_at):
            terms += _line_terms(clue, text)
        else:
            terms += _open_terms(clue, n)
        if stop_at is not None and terms > stop_at:
            break
    return terms


def _open_terms(clue: Clue, n: int) -> int:
    """The terms ``build`` writes for a line of ``n`` open cells, from its clue alone."""
    m = n - sum(clue) - len(clue) + 2  # the feasible starts of each block
    return (n + sum(clue) * m  # x = covering starts
            + len(clue) * m  # each block starts once
            + max(len(clue) - 1, 0) * (m + m * (m + 1) // 2))  # block order


def _line_terms(clue: Clue, text: str) -> int:
    """The terms ``build`` writes for one line with these known cells, counted exactly."""
    open_cells = text.count(UNKNOWN)
    if not clue:
        return open_cells
    starts = _starts(clue, text)
    covering = [0] * len(text)
    for size, feasible in zip(clue, starts):
        for s in feasible:
            for i in range(s, s + size):
                covering[i] += 1
    terms = sum(map(len, starts))  # each block starts once
    for k in range(len(clue) - 1):  # block order: y <= the next block's starts after it
        later = starts[k + 1]
        terms += sum(1 + len(later) - bisect_left(later, s + clue[k] + 1) for s in starts[k])
    # x = covering starts for an open cell; covering starts = 1 for a known filled one
    return terms + sum(c + (ch == UNKNOWN) for c, ch in zip(covering, text) if ch != EMPTY)


#: Terms of the model made between two looks at the clock in ``build``.
BUILD_CLOCK_EVERY = 4096


class _NoSolution(Exception):
    """The known cells leave a block no start: the puzzle has no solution."""


def build(puzzle: Puzzle, deadline: float | None = None,
          known: Grid | None = None) -> tuple[Any, list[Any]] | None:
    """The integer program and its cell variables in row-major order (None if the deadline
    came first, or too late to write the model after, at WRITE_PER_BUILD: the clock is
    checked every BUILD_CLOCK_EVERY terms, so a line of 100,000 cells is not one step).
    ``known`` cells ('#', '.'; '?' open) must be proven facts (the native engine's root):
    only open cells get a variable (None in the list for the others), a line with none
    open gets no constraint, and a start that disagrees with them none."""
    try:
        return _build(puzzle, deadline, known)
    except _NoSolution:
        pulp = _pulp()  # the smallest model without a solution: x = 0 and x = 1
        prob = pulp.LpProblem("nonogram", pulp.LpMinimize)
        x = _binary(pulp, prob, "x_none")
        prob += pulp.lpSum([])
        prob += x == 0
        prob += x == 1
        return prob, [None] * (puzzle.width * puzzle.height)


def _build(puzzle: Puzzle, deadline: float | None,
           known: Grid | None) -> tuple[Any, list[Any]] | None:
    """``build``, raising _NoSolution when the known cells leave a block no start."""
    pulp = _pulp()
    prob = pulp.LpProblem("nonogram", pulp.LpMinimize)
    made = 0
    begun = time.perf_counter()

    def late(terms: int = 1) -> bool:
        nonlocal made
        before, made = made, made + terms
        if deadline is None or made // BUILD_CLOCK_EVERY == before // BUILD_CLOCK_EVERY:
            return False
        now = time.perf_counter()
        return now + (now - begun) * WRITE_PER_BUILD >= deadline
    cells: dict[tuple[int, int], Any] = {}
    for r in range(puzzle.height):
        for c in range(puzzle.width):
            if known is None or known[r][c] == UNKNOWN:
                cells[r, c] = _binary(pulp, prob, f"x_{r}_{c}")
                if late():
                    return None
    prob += pulp.lpSum([])
    for ((kind, index), clue, line_cells), text in _open_lines(puzzle, known):
        xs = [cells.get(rc) for rc in line_cells]
        if not clue:
            for x in xs:
                if x is not None:
                    prob += x == 0
                    if late():
                        return None
            continue
        starts = _starts(clue, text)
        if not all(starts):
            raise _NoSolution
        ys: list[dict[int, Any]] = []
        for k, feasible in enumerate(starts):
            ys.append({})
            for s in feasible:
                ys[k][s] = _binary(pulp, prob, f"y_{kind}{index}_{k}_{s}")
                if late():
                    return None
        covering: list[list[Any]] = [[] for _ in xs]
        for k, size in enumerate(clue):
            prob += pulp.lpSum(ys[k].values()) == 1
            if late(len(ys[k])):
                return None
            for s, y in ys[k].items():
                for i in range(s, s + size):
                    covering[i].append(y)
                if k + 1 < len(clue):
                    after = [z for t, z in ys[k + 1].items() if t >= s + size + 1]
                    prob += y <= pulp.lpSum(after)
                    if late(1 + len(after)):
                        return None
        for x, cover, ch in zip(xs, covering, text):
            if x is not None:
                prob += x == pulp.lpSum(cover)
            elif ch == FILLED:  # a known filled cell lies in exactly one block
                if not cover:
                    raise _NoSolution
                prob += pulp.lpSum(cover) == 1
            else:  # a known empty cell: no start left covers it
                continue
            if late(1 + len(cover)):
                return None
    return prob, [cells.get((r, c)) for r in range(puzzle.height) for c in range(puzzle.width)]


def _build_within(puzzle: Puzzle, limits: SearchLimits, deadline: float | None,
                  known: Grid | None) -> tuple[tuple[Any, list[Any]] | None, dict[str, int]]:
    """The model (None if it cannot be built and written before the deadline) and stats:
    ``built``, and with ``model_terms`` the estimate that refused it before it was started
    (``unbuilt_text`` words them). Over the memory limit, LimitReached."""
    memory = limits.max_memory
    by_memory = None if memory is None else memory // BYTES_PER_TERM
    left = seconds_left(deadline)
    by_time = None if left is None else int(left * BUILD_TERMS_PER_SECOND)
    bounds = [b for b in (by_memory, by_time) if b is not None]
    terms = model_terms(puzzle, min(bounds) if bounds else None, known)
    if memory is not None and by_memory is not None and terms > by_memory:
        raise LimitReached(
            f"the ILP model of this {puzzle.width}x{puzzle.height} puzzle needs about "
            f"{terms * BYTES_PER_TERM >> 20} MB or more ({terms:,} terms), over the memory "
            f"limit of {memory >> 20} MB").with_remedy("max_memory")
    if by_time is not None and left is not None and terms > by_time:
        most = sum(_open_terms(clue, len(cells)) for (_, clue, cells), _ in
                   _open_lines(puzzle, known))  # the whole estimate, for the message
        return None, {"built": 0, "model_terms": most, "ms_left": int(left * 1000)}
    begun = time.perf_counter()
    built = build(puzzle, deadline, known)
    size = {"built": int(built is not None),
            "build_ms": int((time.perf_counter() - begun) * 1000)}
    return built, size


def unbuilt_text(stats: dict[str, int]) -> str:
    """The status of a search whose model was not built (``built`` 0): why, in words."""
    terms = stats.get("model_terms")
    if terms is None:
        return "unknown (the time limit ran out before the model was built)"
    left = stats.get("ms_left", 0) / 1000
    return (f"unknown (the model would be too large to build in the time given: up to "
            f"{terms:,} terms, about {terms / BUILD_TERMS_PER_SECOND:,.1f} s to build and "
            f"write at {BUILD_TERMS_PER_SECOND:,} terms a second, with {left:.1f} s left)")


def _root(puzzle: Puzzle, max_solutions: int, deadline: float | None,
          started: float) -> Result | Grid:
    """What line logic settles at the root (the native engine, no probing, no search): the
    answer when it settles every cell or finds none can be, else the cells it proved."""
    root = engine.analyse(puzzle, max_solutions, SearchLimits(
        max_nodes=0, timeout=seconds_left(deadline)), probing=False, team=False)
    if root.status == "none" and root.exhausted:
        return Result.of_count((), max_solutions, True, 0, time.perf_counter() - started,
                               root.partial, {"cbc_runs": 0, "root": 1})
    if not any(UNKNOWN in row for row in root.partial):
        grid = checked(puzzle, root.partial, "ILP")
        return Result.of_count((grid,), max_solutions, True, 0, time.perf_counter() - started,
                               grid, {"cbc_runs": 0, "root": 1})
    return root.partial


def prepared(puzzle: Puzzle, max_solutions: int, limits: SearchLimits, deadline: float | None,
             started: float, root: bool = True) -> Runs | Result:
    """The model's CBC runs, after line logic at the root (with ``root``: only the cells it
    leaves open get variables); or the answer, when the root settles the puzzle or the
    model cannot be built and written before the deadline."""
    _pulp()  # (a missing PuLP names its extra before any work)
    known: Grid | None = None
    if root:
        settled = _root(puzzle, max_solutions, deadline, started)
        if isinstance(settled, Result):
            return settled
        known = settled
    partial = known if known is not None else unknown_grid(puzzle)
    built, size = _build_within(puzzle, limits, deadline, known)
    if built is None:  # it could not be built and written in time: the time limit's answer
        return Result("unknown", (), 0, time.perf_counter() - started, partial,
                      {"cbc_runs": 0, **size})
    return Runs(puzzle, built, partial, size)


class Runs:
    """CBC runs on one built model (``built``: the problem and its cell variables), each
    solution cut off for the runs after it (``analyse``; ``workers.IlpWorker``)."""

    def __init__(self, puzzle: Puzzle, built: tuple[Any, list[Any]], partial: Grid,
                 size: dict[str, int]) -> None:
        self.pulp = _pulp()
        self.puzzle, (self.prob, self.xs), self.partial = puzzle, built, partial
        self.size = size
        self.write = [size.get("build_ms", 0) / 1000 * WRITE_PER_BUILD]
        self.runs = 0
        self.cut_off: set[Grid] = set()

    def cut(self, grid: Grid) -> None:
        """Cut ``grid`` off the model: sum over filled (1 - x) + sum over empty x >= 1."""
        if grid not in self.cut_off:
            self.cut_off.add(grid)
            filled = [grid[i // self.puzzle.width][i % self.puzzle.width] == FILLED
                      for i in range(len(self.xs))]
            self.prob += (
                self.pulp.lpSum(1 - x for x, f in zip(self.xs, filled) if f and x is not None)
                + self.pulp.lpSum(x for x, f in zip(self.xs, filled) if not f and x is not None)
            ) >= 1

    def next(self, deadline: float | None, max_nodes: int | None,
             max_memory: int | None) -> Grid | Literal[False] | None:
        """One run: a new solution (cut off), False if there is none left, None at a limit."""
        if passed(deadline):
            return None
        pulp = self.pulp
        outcome = _run_cbc(pulp, self.prob, deadline, max_nodes, max_memory,
                           LATER_RUN_OPTIONS if self.cut_off else (), self.write)
        self.runs += 1
        if outcome is None or outcome[0] in (pulp.LpStatusNotSolved, pulp.LpStatusUndefined):
            return None
        status, values = outcome
        if status == pulp.LpStatusInfeasible:
            return False
        if status != pulp.LpStatusOptimal:
            raise GridsolveError(f"CBC ended with status {pulp.LpStatus[status]!r}")
        width = self.puzzle.width
        filled = [self.partial[i // width][i % width] == FILLED if x is None
                  else round(values.get(x.name, 0) or 0) == 1 for i, x in enumerate(self.xs)]
        grid = checked(self.puzzle, grid_from_cells(self.puzzle, filled), "ILP")
        self.cut(grid)
        return grid


def analyse(puzzle: Puzzle, max_solutions: int = 2,
            limits: SearchLimits = SearchLimits(), *, root: bool = True) -> Result:
    """Search up to ``max_solutions`` solutions with CBC; same Result as the native engine.

    With ``root``, line logic first settles what it can (``_root``): a puzzle it solves
    needs no model, and only the cells it leaves open get variables. ``limits.timeout``
    bounds the root, the build and the CBC runs together; ``limits.max_nodes`` caps the
    branch-and-bound nodes of each run; ``limits.max_memory`` the model (see above)."""
    started = time.perf_counter()
    deadline = limits.deadline()
    runs = prepared(puzzle, max_solutions, limits, deadline, started, root)
    if isinstance(runs, Result):
        return runs
    found: list[Grid] = []
    complete = True
    while len(found) < max_solutions:
        grid = runs.next(deadline, limits.max_nodes, limits.max_memory)
        if grid is None or grid is False:
            complete = grid is False
            break
        found.append(grid)
    stats = {"cbc_runs": runs.runs, "variables": runs.prob.numVariables(),  # (not sorted)
             "constraints": runs.prob.numConstraints(), **runs.size}
    return Result.of_count(tuple(found), max_solutions, complete, runs.runs,
                           time.perf_counter() - started, runs.partial, stats)
