"""New nonograms whose unique solution is proven by the engine: a random grid, then repair.

As in Simon Tatham's pattern.c, the generator uses the solver as its fairness oracle.

1. Draw a grid: each cell filled with probability ``density`` (``random.Random(seed)`` only,
   and node budgets instead of clocks inside the loop, so a seed always gives the same puzzle).
2. Judge it against the level asked for (the same tests ``rate`` uses):
   ``line``: line logic alone completes the grid (then the solution is unique);
   ``probe``: line logic plus probing at the root completes it;
   ``search``: a search within a node budget (see ``NODE_WORK``) proves it unique.
   Line logic is tried first because it is cheap; the probing/search judge runs only once
   line logic leaves at most ``STRONG_AT`` unknown cells (always for puzzles up to 2000 cells),
   and after it ran out of nodes, only once line logic has made progress (``BACKOFF_PERCENT``).
3. If it fails, the judge names suspects: the cells where two solutions differ, else the cells
   left unknown at the root. Up to ``CANDIDATES`` suspects are drawn; each is flipped on trial
   and the flip that leaves the fewest cells unknown to line logic is kept (ties: the cheapest
   by ``cost``, e.g. the pixel nearest the image threshold, then the first drawn). Cells
   flipped in the last ``TABU`` steps are passed over while other suspects remain. Repeat.
4. ``make_unique`` (pictures) then prunes: each changed cell is set back on trial, the most
   visible first, and left so if the puzzle stays unique at the level; so no single change
   can be undone afterwards.

The loop is bounded by ``max_attempts`` judgements (default ``50 + cells // 4``) and an
optional timeout; when the bound is hit it raises LimitReached. Each attempt changes one cell,
so the number of cells changed is at most the number of attempts.

5. ``generate`` at a level (``line``, ``probe``, ``search``) keeps its promise: the repair above
   makes a puzzle no harder than the level, ``rate`` then says which level it needs, and only a
   puzzle that needs exactly that level is given; otherwise a fresh grid is drawn (up to
   ``ROUNDS`` grids, or the timeout), then LimitReached says none was found. Level ``any``
   takes the first unique puzzle. Unique puzzles that need search are rare on small or dense
   grids, so each level has its own default density (``LEVEL_DENSITY``; docs/decisions/0006).
6. ``picture=True`` draws smooth shapes instead of noise: value noise on a coarse lattice,
   interpolated and thresholded at the density's quantile; the repair changes the cells nearest
   the threshold first, as for an image (``cost``), and prunes its changes afterwards.
"""

from __future__ import annotations

import dataclasses
import random
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, TypeVar, cast

from gridsolve.errors import GridsolveError, LimitReached
from gridsolve.nonogram.engine import (Result, SearchLimits, analyse, deadline_of, passed,
                                       seconds_left)
from gridsolve.nonogram.model import (EMPTY, FILLED, UNKNOWN, AnyPuzzle, Grid, Puzzle, clue_of,
                                      is_solution, puzzle_from_grid)
from gridsolve.nonogram.rate import LEVELS, Level, Rating, rate

__all__ = ["Generated", "generate", "rounds_of", "make_unique", "random_grid", "smooth_grid", "noise_values",
           "Grids", "BLACK_AND_WHITE", "MAX_SIDE", "ROUNDS", "LEVEL_DENSITY"]

Cell = tuple[int, int]  # (row, column), from 0

#: Refuse grids wider or taller than this.
MAX_SIDE = 1000
#: Fresh grids ``generate`` tries at most for a puzzle that needs exactly the level asked for.
ROUNDS = 100
#: The density of the random grid when none is given, per level asked for: where unique
#: puzzles of that level were most common in our draws (docs/decisions/0006).
LEVEL_DENSITY: dict[str, float] = {"any": 0.5, "line": 0.5, "probe": 0.4, "search": 0.35}
#: Picture-like grids: one lattice point of the value noise per this many cells.
SMOOTH_CELLS = 4
#: Search nodes the "search" judge may spend on one candidate grid: ``NODE_WORK // cells``,
#: kept within ``NODE_RANGE``. A node probes every unknown cell, so its cost grows with the
#: grid; with a fixed 500 a 40x40 judgement that ran out took 50 s, with this about 6 s.
NODE_WORK = 100_000
NODE_RANGE = (10, 500)
#: Suspect cells tried per repair step.
CANDIDATES = 8
#: Cells flipped in the last this many steps are not flipped again while other suspects
#: remain, so the repair cannot cycle between two ambiguous grids.
TABU = 8
#: The probing/search judge runs once line logic leaves at most this many unknown cells: its
#: cost grows with them. On random 50x50 grids, 2000 needed a third fewer changed cells than
#: 1000 in the same time; 2400 (almost every cell) made single judgements take seconds.
STRONG_AT = 2000
#: When that judge runs out of nodes without an answer, it waits until line logic leaves at
#: most this share (in percent) of the cells it left then: on random 50x50 grids, such
#: judgements took 5-10 s each and told no more than line logic.
BACKOFF_PERCENT = 90


@dataclass(frozen=True)
class Generated:
    """A new puzzle, its solution, the grid it started from, and what it took to make it."""

    puzzle: Puzzle
    solution: Grid
    start: Grid
    seed: int
    attempts: int
    changed: int
    rating: Rating


@dataclass(frozen=True)
class _Verdict:
    """The judge's answer: good enough, or the cells worth flipping.

    ``unsettled`` says the probing/search judge ran out of budget without an answer, when
    line logic left ``line_unknown`` cells."""

    ok: bool
    suspects: tuple[Cell, ...] = ()
    unsettled: bool = False
    line_unknown: int = 0


class Grids(Protocol):
    """One kind of grid as the repair sees it: the puzzle it makes, and the change of a cell
    to try (black and white: ``BLACK_AND_WHITE``; colour: ``generate_colour``)."""

    def puzzle(self, grid: Grid) -> AnyPuzzle:
        """The puzzle whose solution is this grid."""

    def after_change(self, puzzle: AnyPuzzle, grid: Grid, cell: Cell) -> AnyPuzzle:
        """The puzzle of ``grid`` (already changed at ``cell``), re-reading only its row and
        column."""

    def change(self, grid: Grid, cell: Cell, rng: random.Random) -> Grid:
        """The grid with this cell changed to the value worth trying next."""


class _BlackAndWhite:
    """Black-and-white grids: a change flips a cell (no draw from ``rng``)."""

    def puzzle(self, grid: Grid) -> AnyPuzzle:
        return puzzle_from_grid(grid)

    def after_change(self, puzzle: AnyPuzzle, grid: Grid, cell: Cell) -> AnyPuzzle:
        # (this kind makes black-and-white puzzles only)
        return _puzzle_after_flip(cast(Puzzle, puzzle), grid, cell)

    def change(self, grid: Grid, cell: Cell, rng: random.Random) -> Grid:
        return _flip(grid, cell)


#: The repair of black-and-white grids.
BLACK_AND_WHITE: Grids = _BlackAndWhite()


def random_grid(width: int, height: int, density: float, rng: random.Random) -> Grid:
    """A grid whose cells are filled independently with probability ``density``."""
    return tuple("".join(FILLED if rng.random() < density else EMPTY for _ in range(width))
                 for _ in range(height))


def smooth_grid(width: int, height: int, density: float, rng: random.Random,
                until: float | None = None) -> tuple[Grid, list[list[float]]]:
    """Smooth random shapes: value noise (random values on a lattice one point per
    ``SMOOTH_CELLS`` cells, smoothly interpolated) filled where it is highest, ``density`` of
    the cells; with each cell's distance from the threshold as its flipping cost.
    LimitReached when the clock passes ``until`` (a 1000x1000 grid takes about a second)."""
    values = noise_values(width, height, rng, until)
    ranked = sorted(v for row in values for v in row)
    if passed(until):
        raise LimitReached("the time ran out while drawing the picture's shapes")
    filled = round(density * width * height)
    cut = ranked[-filled] if filled else float("inf")
    grid = tuple("".join(FILLED if v >= cut else EMPTY for v in row) for row in values)
    cost = [[abs(v - cut) for v in row] for row in values]
    return grid, cost


def noise_values(width: int, height: int, rng: random.Random,
                 until: float | None = None) -> list[list[float]]:
    """Value noise, one value (0..1) a cell: random values on a lattice one point per
    ``SMOOTH_CELLS`` cells, smoothly interpolated (``smooth_grid``'s shapes); LimitReached
    when the clock passes ``until``."""
    lw, lh = width // SMOOTH_CELLS + 2, height // SMOOTH_CELLS + 2
    lattice = [[rng.random() for _ in range(lw)] for _ in range(lh)]

    def ease(t: float) -> float:
        return t * t * (3 - 2 * t)

    # a cell's value interpolates along its lattice row first (the same for every cell row
    # between two lattice rows: made once a lattice row), then between the two rows
    cols = []
    for c in range(width):
        x = (c + 0.5) / SMOOTH_CELLS
        cols.append((int(x), ease(x - int(x))))
    along: dict[int, list[float]] = {}

    def lattice_row(i: int) -> list[float]:
        if i not in along:
            row = lattice[i]
            along[i] = [row[j] * (1 - fx) + row[j + 1] * fx for j, fx in cols]
        return along[i]

    values = []
    for r in range(height):
        if r % 16 == 0 and passed(until):
            raise LimitReached("the time ran out while drawing the picture's shapes")
        y = (r + 0.5) / SMOOTH_CELLS
        i = int(y)
        fy = ease(y - i)
        top, bottom = lattice_row(i), lattice_row(i + 1)
        values.append([t * (1 - fy) + b * fy for t, b in zip(top, bottom)])
    return values


def _unknown_cells(partial: Grid) -> tuple[Cell, ...]:
    """The cells a root partial grid leaves unknown, row by row."""
    return tuple((r, c) for r, row in enumerate(partial) for c, ch in enumerate(row)
                 if ch == UNKNOWN)


def _line_unknown_count(puzzle: AnyPuzzle, until: float | None = None) -> int | None:
    """How many cells line logic cannot fix in this puzzle (None if the clock passed
    ``until`` first)."""
    result = analyse(puzzle, 1, SearchLimits(max_nodes=1, timeout=seconds_left(until)),
                     probing=False)
    if passed(until):
        return None
    return sum(row.count(UNKNOWN) for row in result.partial)


def _puzzle_after_flip(puzzle: Puzzle, grid: Grid, cell: Cell) -> Puzzle:
    """The puzzle of ``grid`` (already flipped at ``cell``), re-reading only its row and column."""
    r, c = cell
    rows, cols = list(puzzle.rows), list(puzzle.cols)
    rows[r] = clue_of(grid[r])
    cols[c] = clue_of("".join(row[c] for row in grid))
    return Puzzle(rows, cols)


def _judge(grid: Grid, level: Level, strong_at: int = STRONG_AT,
           seconds: float | None = None, grids: Grids = BLACK_AND_WHITE) -> _Verdict:
    """Is the puzzle of this grid unique at the level asked for? If not, which cells to flip.

    The probing/search judge runs when line logic leaves at most ``strong_at`` cells unknown;
    ``seconds`` caps the whole judgement, line logic included (only when the caller set a
    timeout)."""
    until = deadline_of(seconds)
    puzzle = grids.puzzle(grid)
    line = analyse(puzzle, 2, SearchLimits(max_nodes=1, timeout=seconds), probing=False)
    if line.status == "unique":
        return _Verdict(True)
    if passed(until):  # the clock ended it, not line logic
        return _Verdict(False)
    unknown = _unknown_cells(line.partial)
    if level == "line" or len(unknown) > strong_at:
        return _Verdict(False, unknown)
    low, high = NODE_RANGE
    budget = 1 if level == "probe" else max(low, min(high, NODE_WORK // (puzzle.width *
                                                                          puzzle.height)))
    strong = analyse(puzzle, 2, SearchLimits(max_nodes=budget, timeout=seconds_left(until)), probing=True,
                     implications=False, team=False)  # the levels of rate.py
    verdict = _verdict_of(strong, unknown)
    if strong.status == "unknown":
        return dataclasses.replace(verdict, unsettled=True, line_unknown=len(unknown))
    return verdict


def _verdict_of(result: Result, unknown: tuple[Cell, ...]) -> _Verdict:
    """Unique is good; else suspect the cells two solutions differ in, or those left unknown."""
    if result.status == "unique":
        return _Verdict(True)
    if result.status == "multiple":
        a, b = result.solutions[:2]
        return _Verdict(False, tuple((r, c) for r, (ra, rb) in enumerate(zip(a, b))
                                     for c, (x, y) in enumerate(zip(ra, rb)) if x != y))
    return _Verdict(False, _unknown_cells(result.partial) or unknown)


def _flip(grid: Grid, cell: Cell) -> Grid:
    """The grid with one cell turned from filled to empty or back."""
    return _set(grid, cell, EMPTY if grid[cell[0]][cell[1]] == FILLED else FILLED)


def _set(grid: Grid, cell: Cell, value: str) -> Grid:
    """The grid with one cell set to this value."""
    r, c = cell
    row = grid[r]
    return grid[:r] + (row[:c] + value + row[c + 1:],) + grid[r + 1:]


def _best_flip(grid: Grid, suspects: Sequence[Cell], rng: random.Random,
               cost: Sequence[Sequence[float]] | None, recent: deque[Cell],
               until: float | None = None, grids: Grids = BLACK_AND_WHITE) -> Grid:
    """Try a few suspects and keep the flip that leaves line logic the fewest unknown cells
    (the ones tried before the clock passes ``until``; the first if none was)."""
    fresh = [cell for cell in suspects if cell not in recent] or list(suspects)
    drawn = rng.sample(fresh, min(CANDIDATES, len(fresh)))
    best: tuple[int, float, int] | None = None
    best_grid, best_cell = grid, drawn[0]
    puzzle = grids.puzzle(grid)
    for i, cell in enumerate(drawn):
        trial = grids.change(grid, cell, rng)
        unknown = _line_unknown_count(grids.after_change(puzzle, trial, cell), until)
        if unknown is None:  # the clock came first
            if best is None:
                best_grid = trial
            break
        key = (unknown, cost[cell[0]][cell[1]] if cost else 0.0, i)
        if best is None or key < best:
            best, best_grid, best_cell = key, trial, cell
    recent.append(best_cell)
    return best_grid


def _check_size(width: int, height: int) -> None:
    """Refuse sizes the generator cannot sensibly make."""
    for name, n in (("width", width), ("height", height)):
        if not 1 <= n <= MAX_SIDE:
            raise ValueError(f"{name} must be between 1 and {MAX_SIDE}, got {n}")


def _repair(start: Grid, level: Level, rng: random.Random,
            cost: Sequence[Sequence[float]] | None, max_attempts: int | None,
            timeout: float | None, grids: Grids = BLACK_AND_WHITE) -> tuple[Grid, int]:
    """Judge and flip until the judge is satisfied; the final grid and the attempts used."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
    bound = 50 + len(start) * len(start[0]) // 4 if max_attempts is None else max_attempts
    until = deadline_of(timeout)
    current = start
    recent: deque[Cell] = deque(maxlen=TABU)
    strong_at = STRONG_AT
    for attempt in range(1, bound + 1):
        verdict = _judge(current, level, strong_at, seconds_left(until), grids)
        if verdict.ok:
            return current, attempt
        if verdict.unsettled:
            strong_at = verdict.line_unknown * BACKOFF_PERCENT // 100
        if passed(until):
            raise LimitReached(f"no unique puzzle within {timeout:.3g} s", partial=current)
        current = _best_flip(current, verdict.suspects, rng, cost, recent, until, grids)
    attempts = "1 attempt" if bound == 1 else f"{bound} attempts"
    raise LimitReached(f"no unique puzzle within {attempts}", partial=current)


def make_unique(grid: Sequence[str], *, level: Level = "search", seed: int = 0,
                cost: Sequence[Sequence[float]] | None = None, max_attempts: int | None = None,
                timeout: float | None = None) -> Generated:
    """Change as few cells of a grid as the greedy repair can until its puzzle is unique."""
    start = tuple(grid)
    _check_size(len(start[0]) if start else 0, len(start))
    if any(len(row) != len(start[0]) or set(row) - {FILLED, EMPTY} for row in start):
        raise ValueError("a grid needs rows of equal length made of '#' and '.'")
    until = deadline_of(timeout)
    solution, attempts = _repair(start, level, random.Random(seed), cost, max_attempts, timeout)
    solution, tries = _prune(start, solution, level, cost, until)
    return _finish(start, solution, seed, attempts + tries, until)


def _prune(start: Grid, solution: Grid, level: Level,
           cost: Sequence[Sequence[float]] | None,
           until: float | None = None, grids: Grids = BLACK_AND_WHITE) -> tuple[Grid, int]:
    """Undo each change on trial (the most visible first) and keep it undone if still unique.

    Afterwards no single changed cell can go back to its starting value (unless the clock
    passed ``until`` first: then the trials stop, the grid as unique as before); the
    judgements made are returned with the grid."""
    changed = [(r, c) for r, (ra, rb) in enumerate(zip(start, solution))
               for c, (a, b) in enumerate(zip(ra, rb)) if a != b]
    changed.sort(key=lambda cell: -cost[cell[0]][cell[1]] if cost else 0.0)
    tries = 0
    for cell in changed if len(changed) > 1 else ():
        if passed(until):
            break
        trial = _set(solution, cell, start[cell[0]][cell[1]])
        tries += 1
        if _judge(trial, level, seconds=seconds_left(until), grids=grids).ok:
            solution = trial
    return solution, tries


def _finish(start: Grid, solution: Grid, seed: int, attempts: int,
            until: float | None = None) -> Generated:
    """Prove the result once more, from scratch (the rating's search, before ``until``), and
    package it."""
    puzzle = puzzle_from_grid(solution)
    rating = rate(puzzle, SearchLimits(timeout=seconds_left(until)))
    if rating.status == "unknown":
        raise LimitReached("a unique puzzle was found, but its proof from scratch did not end "
                           "within the time limit", partial=solution)
    if not rating.unique or not is_solution(puzzle, solution):  # pragma: no cover - a bug
        raise GridsolveError("internal error: the generated puzzle is not unique; please report")
    changed = sum(a != b for ra, rb in zip(start, solution) for a, b in zip(ra, rb))
    return Generated(puzzle, solution, start, seed, attempts, changed, rating)


def generate(width: int, height: int, *, density: float | None = None, seed: int | None = None,
             level: Level | Literal["any"] = "any", max_attempts: int | None = None,
             timeout: float | None = None, picture: bool = False,
             rounds: int = ROUNDS) -> Generated:
    """A puzzle of this size whose unique solution is proven and that needs exactly ``level``
    (``any``: whatever level the first unique puzzle needs).

    ``density`` defaults to ``LEVEL_DENSITY[level]``; ``picture`` draws smooth shapes instead
    of noise. ``max_attempts`` bounds the judgements of each grid's repair, ``rounds`` the
    grids tried, ``timeout`` the whole; LimitReached when they are spent."""
    def draw(fill: float, rng: random.Random,
             until: float | None) -> tuple[Grid, Sequence[Sequence[float]] | None, Grids]:
        if picture:
            start, cost = smooth_grid(width, height, fill, rng, until)
            return start, cost, BLACK_AND_WHITE
        return random_grid(width, height, fill, rng), None, BLACK_AND_WHITE

    return rounds_of(width, height, level, density, seed, max_attempts, timeout, picture,
                     rounds, draw, _finish, f"{width}x{height} puzzle",
                     _advice(level, width, height))


class _Rated(Protocol):
    """A generated puzzle of either kind: what ``rounds_of`` reads of it."""

    @property
    def rating(self) -> Rating: ...


Made = TypeVar("Made", bound=_Rated)


def rounds_of(width: int, height: int, level: Level | Literal["any"], density: float | None,
              seed: int | None, max_attempts: int | None, timeout: float | None,
              picture: bool, rounds: int,
              draw: Callable[[float, random.Random, float | None],
                             tuple[Grid, Sequence[Sequence[float]] | None, Grids]],
              finish: Callable[[Grid, Grid, int, int, float | None], Made],
              what: str, advice: str) -> Made:
    """Grids drawn (``draw``: the grid, its cells' costs for a picture, its kind), repaired
    to a unique puzzle and proven (``finish``), round after round until one needs ``level``:
    the loop of ``generate`` and ``generate_colour.generate_colour``. ``what`` and ``advice``
    word the LimitReached when none did."""
    _check_size(width, height)
    if level != "any" and level not in LEVELS:
        raise ValueError(f"level must be any or one of {', '.join(LEVELS)}, got {level!r}")
    density = LEVEL_DENSITY[level] if density is None else density
    if not 0.0 <= density <= 1.0:
        raise ValueError(f"density must be between 0 and 1, got {density}")
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    attempts = 0
    until = deadline_of(timeout)
    judge: Level = "search" if level == "any" else level
    for _ in range(rounds):
        if passed(until):
            break
        try:
            start, cost, grids = draw(density, rng, until)
        except LimitReached:  # (a picture's shapes: a 1000x1000 takes a second)
            break
        try:
            solution, used = _repair(start, judge, rng, cost, max_attempts, seconds_left(until),
                                     grids)
        except LimitReached:
            if passed(until):
                break
            if level == "any":
                raise
            continue
        if picture:
            solution, tries = _prune(start, solution, judge, cost, until, grids)
            used += tries
        attempts += used
        made = finish(start, solution, seed, attempts, until)
        if level == "any" or made.rating.level == level:
            return made
    within = f"{timeout:.3g} s" if passed(until) \
        else f"{rounds} {'grid' if rounds == 1 else 'grids'}"
    if level == "any":
        raise LimitReached(f"no unique puzzle within {within}")
    raise LimitReached(f"no {what} that needs {level} found within {within}{advice}")


def _advice(level: str, width: int, height: int) -> str:
    """What makes a level easier to find."""
    if level == "search" and width * height < 400:
        return " (unique puzzles this small rarely need search: try 20x20 or larger)"
    if level in ("probe", "search"):
        return " (try a larger size or another density)"
    return ""
