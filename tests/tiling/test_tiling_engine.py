"""The compiled engine against independent oracles: a piece-ordered brute force, known
tiling counts (dominoes, 3xn straight trominoes), every key width, limits and refusals."""

from __future__ import annotations

import itertools
import random

import pytest

from gridsolve.errors import GridsolveError, InvalidPuzzle, LimitReached
from gridsolve.tiling.engine import (SearchLimits, compile_problem, count, count_split, first,
                                     tilings)
from gridsolve.tiling.model import Board, Cell, Piece, Shape, is_tiling


def rect(h: int, w: int, blocked: tuple[Cell, ...] = ()) -> Board:
    return Board(h, w, tuple((r, c) for r in range(h) for c in range(w) if (r, c) not in blocked))


def brute_force(board: Board, pieces: list[Piece], leave: tuple[Cell, ...] = ()) -> int:
    """Tilings by trying every position of each piece copy in turn (no cell ordering, no memo);
    shapes come from plain rotate/flip of the rows, not from the model."""
    def variants(shape: Shape) -> set[frozenset[Cell]]:
        out = set()
        cur = list(shape)
        for _ in range(2):
            for _ in range(4):
                cur = [(c, -r) for r, c in cur]
                r0, c0 = min(r for r, _ in cur), min(c for _, c in cur)
                out.add(frozenset((r - r0, c - c0) for r, c in cur))
            cur = [(r, -c) for r, c in cur]
        return out

    cells = set(board.open) - set(leave)
    copies = [(i, v) for i, p in enumerate(pieces) for v in [variants(p.cells)] * p.copies]
    found: set[frozenset[tuple[int, frozenset[Cell]]]] = set()

    def go(k: int, free: set[Cell], chosen: list[tuple[int, frozenset[Cell]]]) -> None:
        if k == len(copies):
            if not free:
                found.add(frozenset(chosen))
            return
        i, shapes = copies[k]
        for s in shapes:
            for dr in range(board.height):
                for dc in range(board.width):
                    placed = frozenset((r + dr, c + dc) for r, c in s)
                    if placed <= free:
                        go(k + 1, free - placed, chosen + [(i, placed)])

    go(0, cells, [])
    return len(found)  # identical copies are interchangeable: count sets, not sequences


SMALL = [Piece.from_rows("D", "11", copies=2), Piece.from_rows("L", "10/11"),
         Piece.from_rows("I", "111"), Piece.from_rows("T", "111/010")]


@pytest.mark.parametrize("seed", range(12))
def test_random_small_boards_against_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    h, w = rng.choice([(3, 4), (4, 4), (3, 5), (4, 5)])
    cells = [(r, c) for r in range(h) for c in range(w)]
    ps = rng.sample(SMALL, rng.randint(2, 4))
    area = sum(p.size * p.copies for p in ps)
    if area > len(cells):
        ps = ps[:2]
        area = sum(p.size * p.copies for p in ps)
    board = Board(h, w, tuple(sorted(rng.sample(cells, area + 1))))
    leave = (board.open[rng.randrange(board.size)],)
    expected = brute_force(board, ps, leave)
    listed = list(tilings(board, ps, leave))
    plain = list(tilings(board, ps, leave, guided=False))
    assert count(board, ps, leave) == expected == len(listed) == len(plain)
    assert set(listed) == set(plain)
    assert len({frozenset((pl.piece, pl.cells) for pl in t) for t in listed}) == len(listed)
    for t in listed:
        assert is_tiling(board, ps, t, leave)


def test_count_split_matches_counts_one_by_one() -> None:
    board = rect(3, 5)
    ps = [Piece.from_rows("L", "10/11"), Piece.from_rows("I", "111"),
          Piece.from_rows("T", "111/010"), Piece.from_rows("D", "11"),
          Piece.from_rows("M", "1")]
    holes = [board.open[:5], board.open[10:]]
    split = count_split(board, ps, holes)
    assert len(split) == 25
    for cells, n in split.items():
        if cells[0] != cells[1]:
            assert n == brute_force(board, ps, cells), cells
    assert sum(split.values()) > 0


def domino_count(h: int, w: int) -> int:
    """Kasteleyn's product formula for domino tilings of an h x w rectangle."""
    import math
    prod = 1.0
    for j in range(1, (h + 1) // 2 + 1):
        for k in range(1, (w + 1) // 2 + 1):
            prod *= 4 * math.cos(math.pi * j / (h + 1)) ** 2 + 4 * math.cos(math.pi * k / (w + 1)) ** 2
    return round(prod)


@pytest.mark.parametrize("h, w", [(2, 10), (4, 4), (6, 6), (8, 8), (10, 10)])
def test_domino_counts(h: int, w: int) -> None:
    """1, 2 and 4-word keys: 20+10, 16+8, 36+18, 64+32 and 100+50 bits."""
    ps = [Piece.from_rows("D", "11", copies=h * w // 2)]
    assert count(rect(h, w), ps) == domino_count(h, w)


def test_eight_word_keys_straight_trominoes() -> None:
    """3 x 96 by 1x3 bars: 288 cells + 96 copies = 384 bits; a(n) = a(n-1) + a(n-3)."""
    a = [1, 1, 1]
    for n in range(3, 97):
        a.append(a[n - 1] + a[n - 3])
    ps = [Piece.from_rows("I", "111", copies=96)]
    assert count(rect(3, 96), ps) == a[96]
    assert count(rect(3, 12), [Piece.from_rows("I", "111", copies=12)]) == a[12] == len(
        list(tilings(rect(3, 12), [Piece.from_rows("I", "111", copies=12)])))


def test_first_and_no_solution() -> None:
    board = rect(2, 3)
    assert first(board, [Piece.from_rows("L", "10/11", copies=2)]) is not None
    assert first(board, [Piece.from_rows("I", "111"), Piece.from_rows("X", "111")]) is not None
    assert first(rect(3, 3, ((1, 1),)), [Piece.from_rows("I", "11", copies=4)]) is not None
    odd = rect(3, 3, ((0, 0),))
    assert list(tilings(odd, [Piece.from_rows("T", "111/010", copies=2)])) == []


def test_overflow_is_reported() -> None:
    """A 1x130 strip by 40 dominoes and 50 monominoes: C(90, 40) > 2**64 tilings."""
    import math
    ps = [Piece.from_rows("D", "11", copies=40), Piece.from_rows("M", "1", copies=50)]
    with pytest.raises(GridsolveError, match="64 bits"):
        count(rect(1, 130), ps)
    ps = [Piece.from_rows("D", "11", copies=20), Piece.from_rows("M", "1", copies=20)]
    assert count(rect(1, 60), ps) == math.comb(40, 20)


def test_limits() -> None:
    ps = [Piece.from_rows("D", "11", copies=32)]
    with pytest.raises(LimitReached):
        list(tilings(rect(8, 8), ps, limits=SearchLimits(max_nodes=1000)))
    with pytest.raises(LimitReached):
        count(rect(8, 8), ps, limits=SearchLimits(max_states=100))


def test_refusals() -> None:
    with pytest.raises(InvalidPuzzle, match="open cells but the pieces cover"):
        count(rect(2, 3), [Piece.from_rows("D", "11")])
    with pytest.raises(InvalidPuzzle, match="at most 512"):
        compile_problem(rect(21, 21), (Piece.from_rows("Q", "11/11", copies=110),))
    many = tuple(Piece(f"M{i}", ((0, 0),)) for i in range(65))
    with pytest.raises(InvalidPuzzle, match="at most 64 different pieces"):
        compile_problem(rect(5, 13), many)
    with pytest.raises(InvalidPuzzle, match="not an open cell"):
        count(rect(2, 2), [Piece.from_rows("I", "111")], [(5, 5)])


def test_every_orientation_is_used() -> None:
    """An L tromino in a 2x2 square with one corner open: 4 tilings, one per orientation."""
    board = rect(2, 2)
    ps = [Piece.from_rows("L", "10/11")]
    shapes = set()
    for corner in board.open:
        ts = list(tilings(board, ps, [corner]))
        assert len(ts) == 1
        shapes.add(ts[0][0].cells)
    assert len(shapes) == 4
    assert sum(count_split(board, ps, [board.open]).values()) == 4
    assert list(itertools.islice(tilings(board, ps, [(0, 0)]), 5))


def test_core_refuses_vectors_longer_than_an_arena_block() -> None:
    """2**20 hole combinations would store a vector one word longer than an arena block."""
    import pytest as _pytest

    from gridsolve.tiling.engine import _exact

    nbrs = [(-1, -1, -1, -1)] * 200
    types = [(1, -1), (1, 0), (1, 1), (1, 2)]
    with _pytest.raises(ValueError, match="too many hole combinations"):
        _exact.Problem(200, types, [], [128, 128, 64], nbrs)
    _exact.Problem(200, types, [], [128, 128, 63], nbrs)   # one combination fewer is taken
