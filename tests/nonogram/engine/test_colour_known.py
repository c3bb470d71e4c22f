"""Known cells in the colour engine (``Options.known``, ``_colour.Search.fix``) against an
independent oracle: every solution of a small colour puzzle, row by row over the plain-Python
reference's arrangements (``colour_solutions_by_rows``), kept when it agrees with the cells
given. A cell no solution agrees with gives "none"; the same input gives the same counters."""

from __future__ import annotations

import random
import struct
from collections.abc import Sequence

import pytest

import gridsolve.nonogram.engine._colour as _colour
from gridsolve.errors import GridsolveError
from gridsolve.nonogram.engine import abilities, analyse
from gridsolve.nonogram.model import (WHITE, Colour, ColourPuzzle, Grid,
                                      colour_puzzle_from_grid)
from tests.nonogram.oracle import colour_solutions_by_rows

PALETTE = (WHITE, Colour("red", (255, 0, 0), "r"), Colour("green", (0, 160, 0), "g"),
           Colour("blue", (0, 0, 255), "b"))
#: Counted to at most this many solutions (more than any puzzle drawn here has).
MANY = 100_000


def random_puzzle(rng: random.Random, w: int, h: int, colours: int) -> ColourPuzzle:
    """The puzzle of a random picture, sparse enough that it often has several solutions."""
    grid = tuple("".join(rng.choice("rgb"[:colours]) if rng.random() < 0.45 else "."
                         for _ in range(w)) for _ in range(h))
    return colour_puzzle_from_grid(grid, PALETTE[:colours + 1])


def agreeing(solutions: set[Grid], known: Grid) -> set[Grid]:
    """The solutions whose cells are those given (a '?' allows any)."""
    return {s for s in solutions
            if all(k in ("?", x) for k, x in zip("".join(known), "".join(s)))}


def random_known(rng: random.Random, puzzle: ColourPuzzle, solutions: set[Grid]) -> Grid:
    """A partial grid: some cells of a solution (consistent), or some random symbols (often
    not), or a solution's cells with one changed (never consistent with that solution)."""
    symbols = [c.symbol for c in puzzle.palette]
    n = puzzle.width * puzzle.height
    cells = ["?"] * n
    kind = rng.randrange(3)
    source = "".join(rng.choice(sorted(solutions)))
    for c in rng.sample(range(n), rng.randint(1, max(1, n // 2))):
        cells[c] = source[c] if kind != 1 else rng.choice(symbols)
    if kind == 2:
        c = rng.randrange(n)
        cells[c] = rng.choice([s for s in symbols if s != source[c]])
    return tuple("".join(cells[i:i + puzzle.width]) for i in range(0, n, puzzle.width))


def masks_bytes(masks: Sequence[int]) -> bytes:
    return struct.pack(f"={len(masks)}I", *masks)


def core_solutions(puzzle: ColourPuzzle, masks: Sequence[int] | None,
                   probing: bool = True) -> tuple[list[bytes], dict[str, int]]:
    """Every solution of the compiled search (its grid bytes), from the masks if given."""
    core = _colour.Search(puzzle.rows, puzzle.cols, len(puzzle.palette), probing)
    if masks is not None:
        core.fix(masks_bytes(masks))
    found = []
    while (outcome := core.next()) == _colour.SOLUTION:
        found.append(core.grid())
    assert outcome == _colour.EXHAUSTED
    return found, core.stats()


def test_the_colour_engine_takes_known_cells() -> None:
    puzzle = colour_puzzle_from_grid(("r.", ".r"), PALETTE[:2])
    assert abilities(puzzle).known


@pytest.mark.parametrize("seed", range(8))
def test_counts_with_known_cells_equal_the_reference(seed: int) -> None:
    """Random small colour puzzles and partial grids: the engine finds exactly the solutions
    that agree with the cells given, and says "none" when none does."""
    rng = random.Random(seed)
    statuses = set()
    for _ in range(12):
        w, h = rng.randint(2, 4), rng.randint(2, 4)
        puzzle = random_puzzle(rng, w, h, rng.randint(1, 3))
        solutions = colour_solutions_by_rows(puzzle)
        known = random_known(rng, puzzle, solutions)
        expected = agreeing(solutions, known)
        result = analyse(puzzle, MANY, known=known)
        assert result.exhausted
        assert len(result.solutions) == len(set(result.solutions))
        assert set(result.solutions) == expected
        assert result.status == {0: "none", 1: "unique"}.get(len(expected), "multiple")
        statuses.add(result.status)
        if expected:  # the root's cells hold in every agreeing solution, the given ones too
            for r, row in enumerate(result.partial):
                for c, ch in enumerate(row):
                    assert ch == "?" or all(s[r][c] == ch for s in expected)
                    assert known[r][c] == "?" or ch == known[r][c]
    assert "none" in statuses  # (the draws reach both ends)
    assert statuses & {"unique", "multiple"}


@pytest.mark.parametrize("probing", [True, False])
def test_masks_allow_exactly_their_colours(probing: bool) -> None:
    """``fix`` with masks of several colours (not only one): the solutions found are those
    whose every cell's colour the mask allows."""
    rng = random.Random(5)
    for _ in range(40):
        colours = rng.randint(2, 3)
        puzzle = random_puzzle(rng, rng.randint(2, 4), rng.randint(2, 4), colours)
        full = (1 << (colours + 1)) - 1
        masks = [full if rng.random() < 0.5 else rng.randint(1, full)
                 for _ in range(puzzle.width * puzzle.height)]
        index = {c.symbol: i for i, c in enumerate(puzzle.palette)}
        expected = {s for s in colour_solutions_by_rows(puzzle)
                    if all(m >> index[x] & 1 for m, x in zip(masks, "".join(s)))}
        found, _ = core_solutions(puzzle, masks, probing)
        symbols = [puzzle.palette[b].symbol for b in range(colours + 1)]
        grids = {tuple("".join(symbols[b] for b in g[i:i + puzzle.width])
                       for i in range(0, len(g), puzzle.width)) for g in found}
        assert len(found) == len(grids) and grids == expected


def test_a_cell_against_every_solution_gives_none() -> None:
    """A given colour no solution has in that cell: no solution, and nothing proven (each
    cell of a small puzzle given each colour none of its solutions has there)."""
    puzzle = colour_puzzle_from_grid(("rr.", ".gg", "r.b"), PALETTE)
    solutions = colour_solutions_by_rows(puzzle)
    for cell in range(9):
        for colour in ".rgb":
            if any("".join(s)[cell] == colour for s in solutions):
                continue
            known = ["?"] * 9
            known[cell] = colour
            grid = ("".join(known[0:3]), "".join(known[3:6]), "".join(known[6:9]))
            result = analyse(puzzle, 2, known=grid)
            assert result.status == "none" and result.exhausted and not result.solutions
            assert result.partial == ("???",) * 3
    empty, _ = core_solutions(puzzle, [15] * 8 + [0])  # a mask of no colour at all
    assert empty == []


def test_known_cells_of_the_solution_settle_at_the_root() -> None:
    """Every cell given as the solution: that one solution, found without a branch."""
    puzzle = colour_puzzle_from_grid(("r.r.", ".r.r", "r.r.", ".r.r"), PALETTE[:2])
    assert len(colour_solutions_by_rows(puzzle)) > 1
    solution = ("r.r.", ".r.r", "r.r.", ".r.r")
    result = analyse(puzzle, MANY, known=solution)
    assert result.solutions == (solution,) and result.status == "unique"
    assert result.stats["max_depth"] == 0


def test_stats_repeat_exactly() -> None:
    """The same puzzle and cells give the same counters every time."""
    rng = random.Random(2)
    grid = tuple("".join(rng.choice("rgb") if rng.random() < 0.5 else "." for _ in range(12))
                 for _ in range(12))
    puzzle = colour_puzzle_from_grid(grid, PALETTE)
    known = tuple(row[:3] + "?" * 9 for row in grid)
    runs = [analyse(puzzle, 3, known=known) for _ in range(3)]
    assert all(r.solutions == runs[0].solutions for r in runs)
    assert runs[0].solutions and all(agreeing({s}, known) for s in runs[0].solutions)
    assert all(r.stats == runs[0].stats for r in runs)
    masks = [1 << ".rgb".index(ch) if i % 3 == 0 else 15
             for i, ch in enumerate("".join(grid))]
    assert core_solutions(puzzle, masks)[1] == core_solutions(puzzle, masks)[1]


def test_fix_refuses_what_it_cannot_take() -> None:
    puzzle = colour_puzzle_from_grid(("r.", ".g"), PALETTE[:3])
    core = _colour.Search(puzzle.rows, puzzle.cols, 3)
    with pytest.raises(ValueError, match="one native uint32 mask per cell"):
        core.fix(masks_bytes([7] * 3))
    with pytest.raises(TypeError):
        core.fix([7] * 4)  # type: ignore[arg-type]
    core.fix(masks_bytes([7] * 4))  # before the start: taken (twice: each narrows)
    assert core.next() == _colour.SOLUTION
    with pytest.raises(ValueError, match="before the search starts"):
        core.fix(masks_bytes([7] * 4))
    keeping = _colour.Search(puzzle.rows, puzzle.cols, 3, root_implications=True)
    with pytest.raises(ValueError, match="root_implications only when implied"):
        keeping.fix(masks_bytes([7] * 4))
    keeping.fix(masks_bytes([7] * 4), implied=True)  # what the clues imply: taken
    assert keeping.next() == _colour.SOLUTION
    with pytest.raises(GridsolveError, match="not a 2x2 grid"):
        analyse(puzzle, 2, known=("r.",))


def test_other_characters_are_open_cells() -> None:
    """As for black and white, a character that is no palette symbol leaves its cell open."""
    puzzle = colour_puzzle_from_grid(("r.", ".r"), PALETTE[:2])
    both = analyse(puzzle, MANY, known=("x?", "  "))
    assert set(both.solutions) == {("r.", ".r"), (".r", "r.")}
    one = analyse(puzzle, MANY, known=("r#", "??"))
    assert one.solutions == (("r.", ".r"),)


def test_a_settled_root_is_not_propagated_again() -> None:
    """fix(settled=True) with another search's propagated root: the same root, nodes and
    solutions, without solving every line again; with masks the cells do not equal (a
    known cell narrowed them first) every line is solved as before."""
    from tests.nonogram.engine.test_colour_dive import every_solution, random_puzzle
    for seed in range(20):
        puzzle = random_puzzle(900 + seed, 9, 1 + seed % 3, 0.4 + 0.05 * (seed % 4))
        k = len(puzzle.palette)
        propagated = _colour.Search(puzzle.rows, puzzle.cols, k, False)
        propagated.next(0)
        masks = propagated.root_masks()
        runs = []
        for settled in (False, True):
            core = _colour.Search(puzzle.rows, puzzle.cols, k)
            core.fix(masks, implied=True, settled=settled)
            runs.append((every_solution(core, puzzle), core.stats()))
        (plain, again), (settled_found, settled_stats) = runs
        assert settled_found == plain, seed
        assert settled_stats["nodes"] == again["nodes"], seed
        assert settled_stats["line_solves"] + puzzle.width + puzzle.height <= (
            again["line_solves"]) or again["line_solves"] == 0, seed
    # narrowed first by a known cell: the cells differ from the masks, the flag is not taken
    for seed in range(900, 1000):  # (the first whose propagated root leaves a cell open)
        puzzle = random_puzzle(seed, 9, 2, 0.6)
        k = len(puzzle.palette)
        propagated = _colour.Search(puzzle.rows, puzzle.cols, k, False)
        propagated.next(0)
        wide = list(struct.unpack("81I", propagated.root_masks()))
        if any(m & (m - 1) for m in wide):
            break
    open_cell = next(i for i, m in enumerate(wide) if m & (m - 1))
    narrowed = [m if i != open_cell else m & -m for i, m in enumerate(wide)]
    core = _colour.Search(puzzle.rows, puzzle.cols, k)
    core.fix(masks_bytes(narrowed))
    core.fix(masks_bytes(wide), settled=True)
    other = _colour.Search(puzzle.rows, puzzle.cols, k)
    other.fix(masks_bytes(narrowed))
    assert every_solution(core, puzzle) == every_solution(other, puzzle)
    assert core.stats()["line_solves"] == other.stats()["line_solves"]
