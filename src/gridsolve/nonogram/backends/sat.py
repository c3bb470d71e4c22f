"""SAT backend: the block-start model of a nonogram as CNF, solved with python-sat.

Variables (an ``IDPool`` maps our objects to ids): one per cell, ``("cell", r, c)`` — numbered
first, row-major, so cell (r, c) is ``r * width + c + 1`` — and one per feasible block start,
``("start", line key, block, start)``. Clauses, per line (Bosch, "Painting by numbers",
Optima 65, 2001, written as clauses as in the usual SAT translations of that model):

* each block starts exactly once: one at-least-one clause, and at-most-one pairwise for few
  starts or by Sinz's sequential counter (CP 2005, ``pysat.card``) for more;
* a start fills the block's cells and empties the cell just before and just after it;
* consecutive blocks keep their order with a gap: a start of block k implies a start of
  block k+1 at least ``size_k + 1`` later, and a start of block k+1 implies one of block k
  early enough;
* a filled cell is covered by some start of some block of the line (an empty clue empties it).

Colour puzzles: one variable per (cell, palette index), exactly one true per cell; the same
model per line, where a cell of colour c is covered by a block of colour c and only blocks of
the same colour need a gap between them.

Counting adds a blocking clause on the cell variables after each model: cells determine every
start, so each solution is found once. A node limit is a budget of conflicts; a timeout is a
timer calling ``interrupt()``, except for CaDiCaL, which refuses it (PERF-NOTES.md) and
slows down badly when cut into ``solve_limited`` slices (measured: 9-Dom 0.14 s -> 0.78 s):
it runs in a child process that is killed at the deadline, sending solutions as it finds them.
"""

from __future__ import annotations

import multiprocessing
import threading
import time
from collections.abc import Iterator, Sequence
from multiprocessing.connection import Connection
from typing import Any, Literal

from gridsolve.errors import GridsolveError, LimitReached, SolverUnavailable
from gridsolve.nonogram.backends._common import (checked, feasible_starts, grid_from_cells,
                                                 lines, status_of, unknown_grid)
from gridsolve.nonogram.engine import Result, SearchLimits
from gridsolve.nonogram.model import EMPTY, FILLED, UNKNOWN, AnyPuzzle, ColourPuzzle, Grid

__all__ = ["DEFAULT_SOLVER", "NOT_INTERRUPTIBLE", "Search", "require", "encode", "analyse"]

#: The solver used unless one is named (measured fastest here; see benchmarks/backends.py).
DEFAULT_SOLVER = "glucose4"
#: Solvers whose ``interrupt()`` python-sat refuses (a timeout runs them in a child process).
NOT_INTERRUPTIBLE = ("cadical",)
#: Above this many starts, at-most-one uses the sequential counter instead of pairwise clauses.
PAIRWISE_MAX = 6


def _pysat() -> Any:
    """Import python-sat lazily; a missing package names the extra to install."""
    try:
        import pysat.card  # type: ignore[import-untyped]
        import pysat.formula  # type: ignore[import-untyped]
        import pysat.solvers  # type: ignore[import-untyped]
    except ImportError:
        raise SolverUnavailable("python-sat", "sat") from None
    return pysat


def require() -> None:
    """Raise SolverUnavailable (naming the extra) unless python-sat can be imported."""
    _pysat()


def encode(puzzle: AnyPuzzle, known: Grid | None = None) -> tuple[Any, list[list[int]]]:
    """The CNF of the puzzle (plus unit clauses for the known cells of ``known``)."""
    pysat = _pysat()
    pool = pysat.formula.IDPool()
    if isinstance(puzzle, ColourPuzzle):
        return pool, _colour_clauses(pysat, pool, puzzle, known)
    for r in range(puzzle.height):
        for c in range(puzzle.width):
            pool.id(("cell", r, c))
    clauses: list[list[int]] = []
    for key, clue, cells in lines(puzzle):
        xs = [pool.id(("cell", *rc)) for rc in cells]
        clauses += _line_clauses(pysat, pool, key, [(size, 1) for size in clue], [1],
                                 [{1: x} for x in xs])
    if known is not None:
        for r, row in enumerate(known):
            for c, ch in enumerate(row):
                if ch in (FILLED, EMPTY):
                    var = pool.id(("cell", r, c))
                    clauses.append([var if ch == FILLED else -var])
    return pool, clauses


def _colour_clauses(pysat: Any, pool: Any, puzzle: ColourPuzzle,
                    known: Grid | None) -> list[list[int]]:
    """A colour puzzle: one variable per (cell, palette index), numbered first (cell-major),
    exactly one true per cell, and the block-start model per line with colour gaps."""
    k = len(puzzle.palette)
    cell = [[[pool.id(("cell", r, c, v)) for v in range(k)] for c in range(puzzle.width)]
            for r in range(puzzle.height)]
    clauses: list[list[int]] = []
    for row in cell:
        for lits in row:
            clauses.append(lits)
            clauses += pysat.card.CardEnc.atmost(lits, 1, vpool=pool, encoding=_amo(pysat, lits)
                                                 ).clauses
    colours = list(range(1, k))
    for r, clue in enumerate(puzzle.rows):
        clauses += _line_clauses(pysat, pool, ("row", r), clue, colours,
                                 [dict(enumerate(cell[r][c])) for c in range(puzzle.width)])
    for c, clue in enumerate(puzzle.cols):
        clauses += _line_clauses(pysat, pool, ("col", c), clue, colours,
                                 [dict(enumerate(cell[r][c])) for r in range(puzzle.height)])
    if known is not None:
        for r, line in enumerate(known):
            for c, ch in enumerate(line):
                if ch != UNKNOWN:
                    clauses.append([cell[r][c][puzzle.colour_index(ch)]])
    return clauses


def _amo(pysat: Any, lits: list[int]) -> Any:
    """The at-most-one encoding for these literals: pairwise when few, else sequential."""
    return (pysat.card.EncType.pairwise if len(lits) <= PAIRWISE_MAX
            else pysat.card.EncType.seqcounter)


def _line_clauses(pysat: Any, pool: Any, key: tuple[str, int],
                  clue: Sequence[tuple[int, int]], colours: list[int],
                  cells: list[dict[int, int]]) -> list[list[int]]:
    """The clauses tying one line's cells to its block starts.

    ``clue`` is (length, colour) pairs; ``cells[i][c]`` the variable "cell i has colour c"
    (black-and-white: colour 1 only, its variable "filled"). A block of the same colour as the
    next needs a gap after it, of a different colour none."""
    n = len(cells)
    out: list[list[int]] = []
    gaps = [int(a[1] == b[1]) for a, b in zip(clue, clue[1:])]
    starts = feasible_starts([size for size, _ in clue], n, gaps)
    # var[k][i] is block k starting at starts[k][i]; the ranges are contiguous.
    var = [[pool.id(("start", key, k, s)) for s in rng] for k, rng in enumerate(starts)]
    covering: dict[int, list[list[int]]] = {c: [[] for _ in range(n)] for c in colours}
    for k, (size, colour) in enumerate(clue):
        lits, first = var[k], starts[k].start
        out.append(lits)
        out += pysat.card.CardEnc.atmost(lits, 1, vpool=pool, encoding=_amo(pysat, lits)).clauses
        for i, y in enumerate(lits):
            s = first + i
            out += [[-y, x[colour]] for x in cells[s:s + size]]
            if s > 0:
                out.append([-y, -cells[s - 1][colour]])
            if s + size < n:
                out.append([-y, -cells[s + size][colour]])
            for c in range(s, s + size):
                covering[colour][c].append(y)
        if k + 1 < len(clue):
            # Both ranges have the same length and block k+1 starts size+gap later at the
            # earliest: so block k at index i needs block k+1 at an index >= i, and back.
            nxt = var[k + 1]
            for i, y in enumerate(lits):
                out.append([-y] + nxt[i:])
            for j, z in enumerate(nxt):
                out.append([-z] + lits[:j + 1])
    for colour in colours:
        for c, x in enumerate(cells):
            out.append([-x[colour]] + covering[colour][c])
    return out


def _grid(puzzle: AnyPuzzle, cells: list[int]) -> Grid:
    """The grid of a model's cell literals (numbered first by ``encode``)."""
    if not isinstance(puzzle, ColourPuzzle):
        return grid_from_cells(puzzle, [v > 0 for v in cells])
    k, w = len(puzzle.palette), puzzle.width
    symbols = [next((puzzle.palette[v].symbol for v in range(k) if cells[i * k + v] > 0),
                    UNKNOWN) for i in range(w * puzzle.height)]
    return tuple("".join(symbols[i:i + w]) for i in range(0, len(symbols), w))


def _solver(name: str, clauses: list[list[int]]) -> Any:
    """A python-sat solver loaded with the clauses (an unknown name is a clear error)."""
    pysat = _pysat()
    if name not in vars(pysat.solvers.SolverNames):
        raise GridsolveError(f"unknown SAT solver {name!r}; python-sat has: "
                             + ", ".join(sorted(k for k in vars(pysat.solvers.SolverNames)
                                                if not k.startswith("_"))))
    return pysat.solvers.Solver(name=name, bootstrap_with=clauses)


class Search:
    """One in-process SAT search over one puzzle, resumable solution by solution.

    ``step()`` returns the next solution; at a limit it returns None, and after the limits
    are raised (``deadline``, ``max_conflicts``) a later ``step()`` goes on, keeping what the
    solver learned. Only for solvers python-sat can interrupt (not CaDiCaL)."""

    def __init__(self, puzzle: AnyPuzzle, limits: SearchLimits, solver: str,
                 known: Grid | None, started: float) -> None:
        self.puzzle = puzzle
        self.max_conflicts = limits.max_nodes
        self.deadline = None if limits.timeout is None else started + limits.timeout
        self.partial = known if known is not None else unknown_grid(puzzle)
        _, clauses = encode(puzzle, known)
        self.size = {"variables": max((abs(v) for cl in clauses for v in cl), default=0),
                     "clauses": len(clauses)}
        self.sat = _solver(solver, clauses)
        self.seconds = 0.0  # time spent in the solver

    def close(self) -> None:
        self.sat.delete()

    def stats(self) -> dict[str, int]:
        out = {k: int(v) for k, v in self.sat.accum_stats().items()}
        out.update(self.size)
        return out

    def conflicts(self) -> int:
        return int(self.sat.accum_stats().get("conflicts", 0))

    def run(self) -> Iterator[Grid]:
        """Yield solutions, each blocked before the next call (LimitReached at a limit)."""
        while True:
            answer = self.step()
            if answer is None:
                raise LimitReached("SAT search limit reached", partial=self.partial,
                                   nodes=self.conflicts())
            if answer is False:
                return
            yield answer

    def step(self) -> Grid | Literal[False] | None:
        """The next solution (blocked for the calls after), False when there are no more, or
        None when a limit came first."""
        answer = self._solve()
        if answer is None:
            return None
        if not answer:
            return False
        p = self.puzzle
        per_cell = len(p.palette) if isinstance(p, ColourPuzzle) else 1
        cells = self.sat.get_model()[:p.width * p.height * per_cell]
        self.sat.add_clause([-v for v in cells])
        return checked(p, _grid(p, cells), "SAT")

    def _solve(self) -> bool | None:
        """True (a model), False (no more models) or None (a limit came first)."""
        entered = time.perf_counter()
        try:
            return self._solve_limited()
        finally:
            self.seconds += time.perf_counter() - entered

    def _solve_limited(self) -> bool | None:
        if self.deadline is None and self.max_conflicts is None:
            return bool(self.sat.solve())
        budget = -1
        if self.max_conflicts is not None:
            budget = self.max_conflicts - self.conflicts()
            if budget <= 0:
                return None
        timer = None
        if self.deadline is not None:
            left = self.deadline - time.perf_counter()
            if left <= 0:
                return None
            timer = threading.Timer(left, self.sat.interrupt)
            timer.daemon = True
            timer.start()
        try:
            self.sat.clear_interrupt()  # an earlier call's timer may have fired late
            self.sat.conf_budget(budget)
            answer = self.sat.solve_limited(expect_interrupt=timer is not None)
        finally:
            if timer is not None:
                timer.cancel()
                timer.join()
        return None if answer is None else bool(answer)


def analyse(puzzle: AnyPuzzle, max_solutions: int = 2, limits: SearchLimits = SearchLimits(), *,
            solver: str = DEFAULT_SOLVER, known: Grid | None = None) -> Result:
    """Search up to ``max_solutions`` solutions with a SAT solver; same Result as the engine.

    ``limits.max_nodes`` is a budget of SAT conflicts, and ``nodes`` reports conflicts.
    ``known`` cells ('#'/'.') must be proven facts (e.g. the native engine's root grid); they
    are added as unit clauses and returned as ``partial`` (SAT proves no cells by itself)."""
    started = time.perf_counter()
    _pysat()
    if limits.timeout is not None and solver.startswith(NOT_INTERRUPTIBLE):
        return _analyse_in_child(puzzle, max_solutions, limits, solver, known, started)
    found: list[Grid] = []
    search = Search(puzzle, limits, solver, known, started)
    complete = True
    try:
        for grid in search.run():
            found.append(grid)
            if len(found) >= max_solutions:
                break
    except LimitReached:
        complete = False
    finally:
        stats = search.stats()
        search.close()
    return Result(status_of(len(found), max_solutions, complete), tuple(found),
                  stats.get("conflicts", 0), time.perf_counter() - started, search.partial, stats)


def _child(conn: Connection, puzzle: AnyPuzzle, max_solutions: int, max_nodes: int | None,
           solver: str, known: Grid | None) -> None:
    """In the child process: send ("grid", grid) per solution, then ("done", complete, stats)."""
    search = Search(puzzle, SearchLimits(max_nodes=max_nodes), solver, known, time.perf_counter())
    complete, found = True, 0
    try:
        for grid in search.run():
            conn.send(("grid", grid))
            found += 1
            if found >= max_solutions:
                break
    except LimitReached:
        complete = False
    conn.send(("done", complete, search.stats()))
    conn.close()


def _analyse_in_child(puzzle: AnyPuzzle, max_solutions: int, limits: SearchLimits, solver: str,
                      known: Grid | None, started: float) -> Result:
    """Run the search in a child process, killed at the deadline; keep what it sent."""
    methods = multiprocessing.get_all_start_methods()
    ctx: Any = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    receiver, sender = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, daemon=True,
                       args=(sender, puzzle, max_solutions, limits.max_nodes, solver, known))
    proc.start()
    sender.close()
    assert limits.timeout is not None
    deadline = started + limits.timeout
    found: list[Grid] = []
    complete, stats = False, {}
    try:
        while True:
            left = deadline - time.perf_counter()
            if left <= 0 or not receiver.poll(left):
                break
            try:
                message = receiver.recv()
            except EOFError:
                raise GridsolveError(f"the {solver} SAT process ended unexpectedly "
                                     f"(exit code {proc.exitcode})") from None
            if message[0] == "grid":
                found.append(checked(puzzle, message[1], "SAT"))
            else:
                complete, stats = message[1], message[2]
                break
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
        receiver.close()
    return Result(status_of(len(found), max_solutions, complete), tuple(found),
                  stats.get("conflicts", 0), time.perf_counter() - started,
                  known if known is not None else unknown_grid(puzzle), stats)
