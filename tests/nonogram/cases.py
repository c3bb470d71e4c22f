"""One table of puzzles with known solution sets, run against every solver path: the native
engine's (tests/nonogram/test_engine.py), the colour engine (test_colour_engine.py), and SAT,
ILP and auto (test_backends.py). Each count is checked against brute force there."""

from __future__ import annotations

from typing import cast

from gridsolve.nonogram.model import Puzzle, puzzle_from_grid

# (name, puzzle, expected number of solutions, one solution or None)
CASES: list[tuple[str, Puzzle, int, tuple[str, ...] | None]] = [
    ("1x1 filled", Puzzle([[1]], [[1]]), 1, ("#",)),
    ("1x1 empty", Puzzle([[]], [[]]), 1, (".",)),
    ("all empty 3x2", Puzzle([[], []], [[], [], []]), 1, ("...", "...")),
    ("all full 3x3", Puzzle([[3]] * 3, [[3]] * 3), 1, ("###",) * 3),
    ("1xN", Puzzle([[2, 1]], [[1], [1], [], [1]]), 1, ("##.#",)),
    ("Nx1", Puzzle([[1], [], [1], [1]], [[1, 2]]), 1, ("#", ".", "#", "#")),
    ("diagonal pair", Puzzle([[1], [1]], [[1], [1]]), 2, None),
    ("no solution, totals agree", Puzzle([[2], [0]], [[1], [0], [1]]), 0, None),
    ("no solution 2", Puzzle([[1, 1], [1, 1], [1]], [[1, 1], [1], [1, 1]]), 0, None),
    ("unique heart", puzzle_from_grid([".##.##.", "#######", "#######", ".#####.", "..###..",
                                "...#..."]), 1,
     (".##.##.", "#######", "#######", ".#####.", "..###..", "...#...")),
    ("empty middle row", Puzzle([[3], [], [3]], [[1, 1]] * 3), 1, ("###", "...", "###")),
    ("no solution, one full line", Puzzle([[], [], [2]], [[], [], [2]]), 0, None),
    ("no solution, no empty line", Puzzle([[1], [1], [1, 1]], [[1], [1, 1], [1]]), 0, None),
    ("three rooks 3x3", Puzzle([[1]] * 3, [[1]] * 3), 6, None),
    ("needs search 4x4", Puzzle([[1, 1]] * 4, [[1, 1]] * 4), 2, None),
]


def slow_long_row(n: int = 100_000) -> tuple[tuple[int, ...], str, str]:
    """A row whose compiled line solve takes seconds (at 100,000 cells 8-12 s here): the
    clue of a random full row of n cells (about n/4 blocks), the row with its first half
    known, and the full row."""
    import random

    rng = random.Random(1)
    full = "".join(rng.choice("#.") for _ in range(n))
    clue = tuple(len(block) for block in full.split(".") if block)
    return clue, full[:n // 2] + "?" * (n - n // 2), full


def bw_clue(clue: tuple[int, ...] | tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """A black-and-white hint's clue (a hint's clue type holds colour clues too)."""
    assert all(isinstance(n, int) for n in clue), clue
    return cast(tuple[int, ...], clue)
