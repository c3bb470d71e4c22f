"""The native colour engine against independent oracles: brute-force lines and grids, the
reference line solver, and the black-and-white engine on one-colour puzzles."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolve.errors import LimitReached
from gridsolve.nonogram import engine
from gridsolve.nonogram.engine import SearchLimits
from gridsolve.nonogram.engine import colour as ce
from gridsolve.nonogram.formats import iter_entries, read_entry
from gridsolve.nonogram.model import (WHITE, Colour, ColourPuzzle, Puzzle, as_colour,
                                      colour_clue_of, colour_puzzle_from_grid,
                                      is_colour_solution, is_solution, puzzle_from_grid)
from gridsolve.nonogram.reference_colour import (brute_force_colour_line, mask_of,
                                                 solve_colour_line)
from tests.nonogram.cases import CASES
from tests.nonogram.oracle import all_colour_solutions, all_solutions, colour_solutions_by_rows

SYMBOLS = "abcdefghijklmnopqrstuvwxyzABCDE"  # 31 colours besides the background '.'


def palette(colours: int) -> tuple[Colour, ...]:
    """The background and ``colours`` colours with symbols a, b, c, ..."""
    return (WHITE,) + tuple(Colour(f"colour {i}", (i, 255 - i, 7 * i % 256), SYMBOLS[i - 1])
                            for i in range(1, colours + 1))


def random_grid(rng: random.Random, w: int, h: int, colours: int,
                background: float = 0.4) -> tuple[str, ...]:
    """A random picture: background with the given probability, else a uniform colour."""
    return tuple("".join("." if rng.random() < background else rng.choice(SYMBOLS[:colours])
                         for _ in range(w)) for _ in range(h))


# --- the line solver ------------------------------------------------------------------------

LINE_SOLVERS = [ce.solve_line, solve_colour_line]


@st.composite
def clue_and_masks(draw: st.DrawFn) -> tuple[tuple[tuple[int, int], ...], list[int]]:
    """A clue from a random full line of 1-4 colours, and masks that usually allow the truth
    (some cells narrowed to it, others to random sets), sometimes not (contradictions)."""
    n = draw(st.integers(1, 14))
    colours = draw(st.integers(1, 4))
    pal = palette(colours)
    truth = [draw(st.integers(0, colours)) for _ in range(n)]
    clue = colour_clue_of("".join(pal[c].symbol for c in truth), pal)
    full = (1 << (colours + 1)) - 1
    masks = []
    for c in truth:
        kind = draw(st.integers(0, 5))
        if kind == 0:
            masks.append(1 << c)
        elif kind == 1:
            masks.append(draw(st.integers(1, full)))  # may exclude the truth
        elif kind == 2:
            masks.append((1 << c) | draw(st.integers(0, full)))
        else:
            masks.append(full)
    return clue, masks


@pytest.mark.heavy
@pytest.mark.parametrize("solve_line", LINE_SOLVERS, ids=["compiled", "reference"])
@settings(max_examples=300, deadline=None)
@given(clue_and_masks())
def test_line_solver_matches_brute_force(solve_line, case) -> None:  # type: ignore[no-untyped-def]
    clue, masks = case
    assert solve_line(clue, masks) == brute_force_colour_line(clue, masks)


A, B, BG = mask_of(1), mask_of(2), mask_of(0)
ANY = mask_of(0, 1, 2)


@pytest.mark.parametrize("clue,masks,expected", [
    (((2, 1), (2, 2)), [ANY] * 4, [A, A, B, B]),               # different colours touch
    (((1, 1), (1, 1)), [ANY] * 3, [A, BG, A]),                 # same colour needs a gap
    (((2, 1), (1, 2)), [ANY] * 4, [A | BG, A, A | B | BG, B | BG]),
    ((), [ANY] * 3, [BG] * 3),
    (((1, 2),), [A | BG, ANY, A | BG], [BG, B, BG]),
    (((1, 1), (1, 1)), [ANY, A, ANY], None),
    (((2, 1),), [ANY, B, ANY], None),
    (((3, 1),), [ANY] * 5, [A | BG, A | BG, A, A | BG, A | BG]),
])
@pytest.mark.parametrize("solve_line", LINE_SOLVERS, ids=["compiled", "reference"])
def test_line_solver_table(solve_line, clue, masks, expected) -> None:  # type: ignore[no-untyped-def]
    assert solve_line(clue, masks) == expected


def test_line_solver_takes_all_32_colours() -> None:
    clue = tuple((1, c) for c in range(1, 32))
    out = ce.solve_line(clue, [0xFFFFFFFF] * 31)
    assert out == [1 << c for c in range(1, 32)]
    assert ce.solve_line(clue, [0xFFFFFFFF] * 30 + [mask_of(0, 5)]) is None


def test_line_solver_refuses_bad_clues() -> None:
    with pytest.raises(ValueError):
        ce.solve_line(((1, 0),), [ANY])  # colour 0 is the background, not a block
    with pytest.raises(ValueError):
        ce.solve_line(((2, 1), (1, 1)), [ANY] * 3)  # needs 4 cells


# --- whole puzzles against brute force ------------------------------------------------------

@st.composite
def tiny_grids(draw: st.DrawFn) -> tuple[tuple[str, ...], int]:
    """Grids up to 4x4 with 1-3 colours, or 5x3 / 3x5 with 1-2 colours."""
    colours = draw(st.integers(1, 3))
    if colours <= 2 and draw(st.booleans()):
        w, h = draw(st.sampled_from([(5, 3), (3, 5), (5, 2)]))
    else:
        w, h = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    cells = "." + SYMBOLS[:colours]
    return tuple("".join(draw(st.sampled_from(cells)) for _ in range(w))
                 for _ in range(h)), colours


@settings(max_examples=200, deadline=None)
@given(tiny_grids(), st.booleans())
def test_counts_equal_brute_force(case, probing) -> None:  # type: ignore[no-untyped-def]
    """Random colour grid -> clues -> every solution found exactly once, none invented."""
    grid, colours = case
    puzzle = colour_puzzle_from_grid(grid, palette(colours))
    expected = all_colour_solutions(puzzle)
    result = ce.analyse(puzzle, max_solutions=100_000, probing=probing)
    assert len(result.solutions) == len(set(result.solutions)) == len(expected)
    assert set(result.solutions) == expected
    assert grid in expected
    assert result.status == ("unique" if len(expected) == 1 else "multiple")
    # the root's proven cells hold in every solution
    for r, row in enumerate(result.partial):
        for c, ch in enumerate(row):
            assert ch == "?" or all(s[r][c] == ch for s in expected)


@settings(max_examples=40, deadline=None)
@given(st.integers(5, 20), st.integers(5, 20), st.integers(1, 5), st.integers(0, 2**32))
def test_random_grid_is_solved(w, h, colours, seed) -> None:  # type: ignore[no-untyped-def]
    """Random colour grid -> clues -> solve -> every solution satisfies the clues."""
    grid = random_grid(random.Random(seed), w, h, colours)
    puzzle = colour_puzzle_from_grid(grid, palette(colours))
    result = ce.analyse(puzzle, max_solutions=2)
    assert result.status in ("unique", "multiple")
    assert all(is_colour_solution(puzzle, s) for s in result.solutions)
    if result.status == "unique":
        assert result.solutions == (grid,)
    else:
        assert len(set(result.solutions)) == 2


@pytest.mark.heavy
@settings(max_examples=25, deadline=None)
@given(st.integers(4, 7), st.integers(4, 7), st.integers(2, 3), st.integers(0, 2**32))
def test_counts_equal_row_by_row_search(w, h, colours, seed) -> None:  # type: ignore[no-untyped-def]
    """Grids too big for brute force (up to 7x7, 2-3 colours, often many solutions): every
    solution of a row-by-row search over the reference line solver, and no other."""
    grid = random_grid(random.Random(seed), w, h, colours, background=0.5)
    puzzle = colour_puzzle_from_grid(grid, palette(colours))
    expected = colour_solutions_by_rows(puzzle)
    found = list(ce.solve(puzzle))
    assert len(found) == len(set(found)) == len(expected)
    assert set(found) == expected


def test_the_picture_is_among_all_solutions() -> None:
    rng = random.Random(11)
    for _ in range(20):
        grid = random_grid(rng, rng.randint(4, 9), rng.randint(4, 9), rng.randint(1, 3), 0.6)
        puzzle = colour_puzzle_from_grid(grid, palette(3))
        found = list(ce.solve(puzzle))
        assert grid in found
        assert len(found) == len(set(found))
        assert all(is_colour_solution(puzzle, s) for s in found)


# --- one-colour puzzles: the black-and-white engine as a second method ------------------------

@pytest.mark.parametrize("probing", [True, False])
@pytest.mark.parametrize("name,puzzle,n,solution", CASES, ids=[c[0] for c in CASES])
def test_case_table_as_colour(name, puzzle, n, solution, probing) -> None:  # type: ignore[no-untyped-def]
    result = ce.analyse(as_colour(puzzle), max_solutions=100, probing=probing)
    assert set(result.solutions) == all_solutions(puzzle)
    assert len(result.solutions) == n
    assert result.status == {0: "none", 1: "unique"}.get(n, "multiple")
    assert result.status == engine.analyse(puzzle, max_solutions=100).status


def test_random_bw_puzzles_agree_with_the_bw_engine() -> None:
    rng = random.Random(5)
    for _ in range(40):
        w, h = rng.randint(5, 16), rng.randint(5, 16)
        grid = tuple("".join("#" if rng.random() < 0.5 else "." for _ in range(w))
                     for _ in range(h))
        puzzle = puzzle_from_grid(grid)
        bw = engine.analyse(puzzle, max_solutions=30)
        colour = ce.analyse(as_colour(puzzle), max_solutions=30)
        assert colour.status == bw.status
        assert set(colour.solutions) == set(bw.solutions) or len(bw.solutions) == 30
        assert colour.partial == bw.partial  # same deductions at the root


# --- limits ---------------------------------------------------------------------------------

def permutations(n: int, colours: int = 1) -> ColourPuzzle:
    """n x n, line i holding one cell of colour i % colours + 1: the cells of each colour form
    a permutation matrix between its rows and its columns, so ((n / colours)!)^colours
    solutions (n a multiple of colours)."""
    clues = [[(1, i % colours + 1)] for i in range(n)]
    return ColourPuzzle(clues, clues, palette(colours))


def test_node_limit_gives_unknown_with_partial() -> None:
    result = ce.analyse(permutations(8), max_solutions=100_000,
                        limits=SearchLimits(max_nodes=5))
    assert result.status == "unknown"
    assert result.nodes <= 6
    assert result.partial == ("?" * 8,) * 8
    with pytest.raises(LimitReached) as info:
        for _ in ce.solve(permutations(8), SearchLimits(max_nodes=3)):
            pass
    assert info.value.partial == ("?" * 8,) * 8


def test_limit_before_any_solution_is_unknown() -> None:
    result = ce.analyse(permutations(10, 2), limits=SearchLimits(max_nodes=1))
    assert result.status == "unknown"
    assert result.solutions == ()


def test_timeout_stops_a_long_count() -> None:
    start = time.perf_counter()
    result = ce.analyse(permutations(12, 2), max_solutions=10**9,
                        limits=SearchLimits(timeout=0.1))
    assert time.perf_counter() - start < 1.0
    assert result.status == "multiple"
    assert all(is_colour_solution(permutations(12, 2), s) for s in result.solutions)


def test_timeout_is_honoured_on_a_big_random_puzzle() -> None:
    """60x60 with 3 colours: stopped within a second of a 0.2 s limit; what it proved holds."""
    grid = random_grid(random.Random(4), 60, 60, 3, background=0.5)
    start = time.perf_counter()
    result = ce.analyse(colour_puzzle_from_grid(grid, palette(3)),
                        limits=SearchLimits(timeout=0.2))
    assert time.perf_counter() - start < 1.0
    assert result.status in ("unknown", "unique", "multiple")
    for r, row in enumerate(result.partial):
        for c, ch in enumerate(row):
            assert ch == "?" or grid[r][c] == ch


# --- edges ----------------------------------------------------------------------------------

@pytest.mark.parametrize("grid", [(".",), ("a",), ("...", "..."), ("aab",), ("a", "b", "b")])
def test_edge_grids(grid: tuple[str, ...]) -> None:
    puzzle = colour_puzzle_from_grid(grid, palette(2))
    result = ce.analyse(puzzle)
    assert result.status == "unique"
    assert result.solutions == (grid,)
    assert result.partial == grid
    assert ce.first(puzzle) == grid
    assert ce.unique(puzzle)
    assert ce.count(puzzle) == 1


def test_no_solution() -> None:
    # row 1 must read "ab", so column 1 starts with a, but its clue says b
    puzzle = ColourPuzzle([[(1, 1), (1, 2)], []], [[(1, 2)], [(1, 1)]], palette(2))
    assert all_colour_solutions(puzzle) == set()
    for probing in (True, False):
        result = ce.analyse(puzzle, probing=probing)
        assert result.status == "none"
        assert result.solutions == ()
    assert ce.first(puzzle) is None
    assert ce.count(puzzle) == 0


def test_thirty_one_colours() -> None:
    rng = random.Random(31)
    grid = random_grid(rng, 12, 10, 31, background=0.3)
    puzzle = colour_puzzle_from_grid(grid, palette(31))
    assert len(puzzle.palette) == 32
    result = ce.analyse(puzzle)
    assert result.status == "unique"
    assert result.solutions == (grid,)
    diagonal = tuple("." * i + SYMBOLS[i] + "." * (30 - i) for i in range(31))
    assert ce.first(colour_puzzle_from_grid(diagonal, palette(31))) == diagonal


def test_count_and_laziness() -> None:
    assert ce.count(permutations(6)) == 720
    assert ce.count(permutations(6, 2)) == 36
    puzzle = permutations(4, 2)
    assert ce.count(puzzle) == len(all_colour_solutions(puzzle)) == 4
    assert ce.count(permutations(6, 2), limit=7) == 7
    assert not ce.unique(puzzle)
    assert is_colour_solution(puzzle, next(ce.solve(puzzle)))


def test_one_colour_of_a_bw_puzzle_keeps_its_symbols() -> None:
    puzzle = Puzzle([[1, 1], [3]], [[2], [1], [2]])
    assert ce.first(as_colour(puzzle)) == ("#.#", "###")


OLSAK = "olsak-examples-via-pbnsolve"
#: The colour puzzles of the shared corpora and how many solutions each has (viceres.g says 4).
COLOUR_CORPUS = {
    **{f"{OLSAK}/{name}.g": 1 for name in
       ("acorn", "alladin", "bird2", "dvekocky", "oko", "raketa", "rose", "ruze")},
    f"{OLSAK}/viceres.g": 4,
    "pynogram-examples/uk.txt": 1,
    "pynogram-examples/apples.txt": 1,
    "nonogrid-examples/UK.toml": 1,
}


@pytest.mark.parametrize("name", COLOUR_CORPUS)
def test_colour_corpus(puzzles_dir: Path, name: str) -> None:
    """Real colour puzzles (up to 71x35, 7 colours) solve at the root, exactly."""
    entry = read_entry(str(puzzles_dir / name))
    assert isinstance(entry.puzzle, ColourPuzzle)
    result = ce.analyse(entry.puzzle, 10, SearchLimits(timeout=10))
    assert len(set(result.solutions)) == COLOUR_CORPUS[name]
    assert result.status == ("unique" if COLOUR_CORPUS[name] == 1 else "multiple")
    if entry.goal is not None:
        assert entry.goal in result.solutions


@pytest.mark.slow
def test_tournament_puzzles_as_colour_agree_with_the_bw_engine(puzzles_dir: Path) -> None:
    """Real puzzles: one-colour copies of ten taai2011 puzzles (#4, #104, ... #904; 3-300
    nodes each) give the B&W engine's statuses and root deductions, and its solution when
    unique (with several, the two engines may well find two different pairs)."""
    path = puzzles_dir / "nonogramrecord-tournaments/question/taai2011.txt"
    for e in list(iter_entries(str(path)))[3::100]:
        assert isinstance(e.puzzle, Puzzle)
        limits = SearchLimits(timeout=60)
        # the colour engine's probing; one search, since the team's restarts add the nogoods
        # of their runs to its root (facts too, but not what probing alone gives)
        bw = engine.analyse(e.puzzle, 2, limits, implications=False, team=False)
        colour = ce.analyse(as_colour(e.puzzle), 2, limits, team=False)
        assert colour.status == bw.status, e.label
        assert len(set(colour.solutions)) == len(bw.solutions), e.label
        assert all(is_solution(e.puzzle, g) for g in colour.solutions), e.label
        if bw.status == "unique":
            assert colour.solutions == bw.solutions, e.label
        assert colour.partial == bw.partial, e.label
