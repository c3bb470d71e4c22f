"""Generation: every puzzle is re-solved and proven unique, seeds reproduce, levels hold."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolve.errors import LimitReached
from gridsolve.nonogram.engine import analyse
from gridsolve.nonogram.generate import (LEVEL_DENSITY, generate, make_unique, random_grid,
                                         smooth_grid)
from gridsolve.nonogram.model import is_solution, puzzle_from_grid
from gridsolve.nonogram.rate import LEVELS, rate



@pytest.mark.parametrize("width, height, density, seed", [
    (10, 10, 0.5, 1), (15, 8, 0.4, 2), (8, 15, 0.6, 3), (20, 20, 0.5, 4), (25, 25, 0.5, 5),
    (1, 1, 0.5, 6), (7, 1, 0.5, 7), (5, 5, 0.0, 8), (5, 5, 1.0, 9),
])
def test_generated_puzzles_are_proven_unique(width: int, height: int, density: float,
                                             seed: int) -> None:
    made = generate(width, height, density=density, seed=seed)
    puzzle = made.puzzle
    assert (puzzle.width, puzzle.height) == (width, height)
    result = analyse(puzzle, max_solutions=5)
    assert result.status == "unique"
    assert result.solutions == (made.solution,)
    assert is_solution(puzzle, made.solution)
    assert made.rating.unique
    assert 0 <= made.changed <= made.attempts
    assert made.changed == sum(a != b for ra, rb in zip(made.start, made.solution)
                               for a, b in zip(ra, rb))


def test_same_seed_same_puzzle() -> None:
    a = generate(20, 15, seed=42)
    b = generate(20, 15, seed=42)
    assert a.puzzle == b.puzzle and a.solution == b.solution and a.attempts == b.attempts
    assert generate(20, 15, seed=43).puzzle != a.puzzle


def test_seed_is_chosen_and_reported_when_not_given() -> None:
    made = generate(6, 6)
    again = generate(6, 6, seed=made.seed)
    assert again.puzzle == made.puzzle


@pytest.mark.parametrize("level, size, seeds", [("line", 15, range(4)), ("probe", 15, range(4)),
                                                ("search", 15, [1])])
def test_level_is_the_one_asked_for(level: str, size: int, seeds: range) -> None:
    for seed in seeds:
        made = generate(size, size, seed=seed, level=level)  # type: ignore[arg-type]
        again = rate(made.puzzle)
        assert again.unique and again.level == made.rating.level == level


def test_any_level_is_the_first_unique_puzzle() -> None:
    made = generate(15, 15, seed=0, level="any")
    assert made.rating.unique and made.rating.level == rate(made.puzzle).level


def test_no_puzzle_of_the_level_says_so_plainly() -> None:
    with pytest.raises(LimitReached, match="^no 8x8 puzzle that needs search found within 5 "
                                           "grids .unique puzzles this small rarely need search"):
        generate(8, 8, seed=0, level="search", rounds=5)


def test_default_density_depends_on_the_level() -> None:
    a = generate(12, 12, seed=4, level="probe")
    b = generate(12, 12, seed=4, level="probe", density=LEVEL_DENSITY["probe"])
    assert a.puzzle == b.puzzle and a.start == b.start


@pytest.mark.parametrize("seed", range(3))
def test_pictures_are_smooth_shapes(seed: int) -> None:
    import random
    grid, cost = smooth_grid(20, 16, 0.4, random.Random(seed))
    assert sum(row.count("#") for row in grid) == round(0.4 * 20 * 16)
    noise = random_grid(20, 16, 0.4, random.Random(seed))

    def edges(g: tuple[str, ...]) -> int:
        return sum(a != b for row in g for a, b in zip(row, row[1:])) + \
            sum(a != b for r1, r2 in zip(g, g[1:]) for a, b in zip(r1, r2))
    assert edges(grid) * 2 < edges(noise)
    assert len(cost) == 16 and min(min(r) for r in cost) >= 0
    made = generate(20, 16, seed=seed, picture=True, level="line")
    result = analyse(made.puzzle, max_solutions=3)
    assert result.status == "unique" and result.solutions == (made.solution,)
    assert rate(made.puzzle).level == "line"
    assert edges(made.solution) * 2 < edges(noise)


def test_random_grid_density() -> None:
    import random
    grid = random_grid(40, 40, 0.3, random.Random(0))
    filled = sum(row.count("#") for row in grid) / 1600
    assert 0.25 < filled < 0.35


def test_make_unique_keeps_a_unique_grid_as_it_is() -> None:
    grid = ("#.#", "###")
    made = make_unique(grid)
    assert made.solution == grid and made.changed == 0 and made.attempts == 1


def test_make_unique_repairs_an_ambiguous_grid() -> None:
    grid = ("#.#.", ".#.#", "#.#.", ".#.#")  # a checkerboard: many solutions
    assert analyse(puzzle_from_grid(grid)).status == "multiple"
    made = make_unique(grid, seed=1)
    assert analyse(made.puzzle).status == "unique"
    assert made.changed >= 1


def test_cost_prefers_cheap_cells() -> None:
    grid = ("#.", ".#")
    cheap_corner = [[0.0, 1.0], [1.0, 1.0]]
    made = make_unique(grid, cost=cheap_corner, seed=0)
    assert made.changed == 1 and made.solution[0][0] != grid[0][0]


def test_bound_raises_limit_reached() -> None:
    with pytest.raises(LimitReached):
        make_unique(("#.#.", ".#.#", "#.#.", ".#.#"), max_attempts=1)


@pytest.mark.parametrize("kwargs", [
    {"width": 0, "height": 5}, {"width": 5, "height": 1001}, {"width": 5, "height": 5,
                                                             "density": 1.5},
    {"width": 5, "height": 5, "level": "magic"},
])
def test_bad_arguments(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        generate(**kwargs)  # type: ignore[arg-type]


def test_timeout_is_honoured() -> None:
    import time
    start = time.perf_counter()
    with pytest.raises(LimitReached, match="no unique puzzle within 0.2 s"):
        generate(60, 60, seed=0, timeout=0.2)
    assert time.perf_counter() - start < 2.0


@settings(max_examples=25, deadline=None)
@given(width=st.integers(1, 12), height=st.integers(1, 12), density=st.floats(0.0, 1.0),
       seed=st.integers(0, 2**32), level=st.sampled_from(["any", *LEVELS]))
def test_property_every_puzzle_is_proven_unique(width: int, height: int, density: float,
                                                seed: int, level: str) -> None:
    try:
        made = generate(width, height, density=density, seed=seed, level=level,  # type: ignore[arg-type]
                        rounds=3)
    except LimitReached as exc:  # small grids rarely need probing or search
        assert level in ("probe", "search") and "that needs" in str(exc)
        return
    result = analyse(made.puzzle, max_solutions=3)
    assert result.status == "unique" and result.solutions == (made.solution,)
    assert level == "any" or rate(made.puzzle).level == level


@pytest.mark.parametrize("seed", range(6))
def test_picture_repair_is_locally_minimal(seed: int) -> None:
    import random
    rng = random.Random(seed)
    grid = random_grid(16, 16, 0.5, rng)
    cost = [[rng.random() for _ in range(16)] for _ in range(16)]
    made = make_unique(grid, seed=seed, cost=cost)
    assert analyse(made.puzzle).status == "unique"
    changed = [(r, c) for r in range(16) for c in range(16) if grid[r][c] != made.solution[r][c]]
    assert len(changed) == made.changed >= 1
    if len(changed) > 1:
        for r, c in changed:
            back = list(made.solution)
            back[r] = back[r][:c] + grid[r][c] + back[r][c + 1:]
            assert analyse(puzzle_from_grid(back)).status != "unique"


def test_every_step_of_generation_keeps_to_the_deadline() -> None:
    """The timeout covers every step, not only the judge's search (a 1000x1000 took 28.9 s
    under --timeout 3: the candidate flips' line logic, the pruning and the final proof had
    no clock): past the deadline a flip takes the first candidate untried, pruning stops and
    the final proof raises LimitReached rather than claim a unique puzzle unproven."""
    import random
    import time
    from collections import deque

    from gridsolve.nonogram import generate as gen

    grid = ("#.#", ".#.", "#.#")
    past = time.perf_counter() - 1
    rng = random.Random(1)
    flipped = gen._best_flip(grid, ((0, 0), (1, 1)), rng, None, deque(maxlen=4), past)
    assert sum(a != b for ra, rb in zip(grid, flipped) for a, b in zip(ra, rb)) == 1
    solution = ("##.", "#..", "...")
    assert gen._prune(("...", "...", "..."), solution, "search", None, past) == (solution, 0)
    with pytest.raises(LimitReached, match="did not end within the time limit"):
        gen._finish(grid, solution, 0, 1, past)
    assert gen._finish(solution, solution, 0, 1).rating.unique


def test_picture_shapes_are_the_value_noise_they_were() -> None:
    """The shapes, computed lattice row by lattice row, are the plain formula's to the bit
    (so a seed gives the puzzle it gave), and the clock is read while they are drawn."""
    import random
    import time

    from gridsolve.nonogram.generate import SMOOTH_CELLS
    for w, h, density, seed in [(30, 20, 0.5, 1), (7, 9, 0.3, 2), (41, 23, 0.6, 3)]:
        rng = random.Random(seed)
        lattice = [[rng.random() for _ in range(w // SMOOTH_CELLS + 2)]
                   for _ in range(h // SMOOTH_CELLS + 2)]

        def ease(t: float) -> float:
            return t * t * (3 - 2 * t)

        def value(r: int, c: int, lattice: list[list[float]] = lattice) -> float:
            y, x = (r + 0.5) / SMOOTH_CELLS, (c + 0.5) / SMOOTH_CELLS
            i, j = int(y), int(x)
            fy, fx = ease(y - i), ease(x - j)
            top = lattice[i][j] * (1 - fx) + lattice[i][j + 1] * fx
            bottom = lattice[i + 1][j] * (1 - fx) + lattice[i + 1][j + 1] * fx
            return top * (1 - fy) + bottom * fy

        values = sorted(value(r, c) for r in range(h) for c in range(w))
        cut = values[-round(density * w * h)]
        grid, cost = smooth_grid(w, h, density, random.Random(seed))
        assert grid == tuple("".join("#" if value(r, c) >= cut else "." for c in range(w))
                             for r in range(h))
        assert cost == [[abs(value(r, c) - cut) for c in range(w)] for r in range(h)]
    with pytest.raises(LimitReached):
        smooth_grid(300, 300, 0.5, random.Random(0), until=time.perf_counter())


def test_a_picture_of_a_large_size_keeps_the_timeout() -> None:
    """generate(..., picture=True) on 600x600: its shapes take about half a second; the
    search after them gets only what is left of the timeout (it got the whole of it)."""
    import time

    started = time.perf_counter()
    with pytest.raises(LimitReached):
        generate(600, 600, seed=1, picture=True, timeout=0.3)
    assert time.perf_counter() - started < 0.3 + 0.5
