"""Classic polyomino tilings as the engine's credentials: the published pentomino counts.

Pentomino rectangles (Haselgrove and Haselgrove 1960; Knuth, "Dancing Links", 2000): 6x10
has 2,339 tilings up to symmetry (9,356 in all), 5x12 1,010, 4x15 368, 3x20 2; the 8x8 board
with a 2x2 centre hole 65 (Scott 1958). Counts up to symmetry come from listing every tiling
and keeping one per orbit, independently of the memoised count of all of them.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Sequence

import pytest

from gridsolve.tiling import engine, presets
from gridsolve.tiling.formats import parse_board
from gridsolve.tiling.model import Board, Piece, is_tiling
from gridsolve.tiling.symmetry import board_symmetries, canonical, count_up_to_symmetry

PENTOMINOES = presets.named_pieces("pentominoes")


def test_the_twelve_pentominoes() -> None:
    assert len(PENTOMINOES) == 12 and all(p.size == 5 for p in PENTOMINOES)
    assert len({p.orientations()[0] for p in PENTOMINOES}) == 12
    assert sorted(len(p.orientations()) for p in PENTOMINOES) == [1, 2, 4, 4, 4, 4, 4, 8, 8, 8, 8, 8]


@pytest.mark.parametrize("board, total, classes, symmetries", [
    ("3x20", 8, 2, 4), ("4x15", 1472, 368, 4)])
def test_small_rectangles_up_to_symmetry(board: str, total: int, classes: int,
                                         symmetries: int) -> None:
    assert count_up_to_symmetry(presets.named_board(board), PENTOMINOES) == (total, classes,
                                                                            symmetries)


@pytest.mark.parametrize("board, total", [("5x12", 4040), ("8x8-centre", 520)])
def test_counts(board: str, total: int) -> None:
    assert engine.count(presets.named_board(board), PENTOMINOES) == total


@pytest.mark.slow
@pytest.mark.parametrize("board, total, classes, symmetries", [
    ("5x12", 4040, 1010, 4), ("8x8-centre", 520, 65, 8), ("6x10", 9356, 2339, 4)])
def test_large_boards_up_to_symmetry(board: str, total: int, classes: int,
                                     symmetries: int) -> None:
    assert count_up_to_symmetry(presets.named_board(board), PENTOMINOES) == (total, classes,
                                                                            symmetries)


def test_symmetries_of_boards() -> None:
    assert len(board_symmetries(parse_board("...\n...\n...\n"))) == 8
    assert len(board_symmetries(parse_board("....\n....\n"))) == 4
    assert len(board_symmetries(parse_board("#.#\n...\n"))) == 2       # one mirror line
    assert len(board_symmetries(presets.named_board("original"))) == 1  # labels pin it down


def test_a_symmetric_tiling_is_one_class() -> None:
    """Burnside would need the fixed tilings; listing orbits counts symmetric ones right."""
    board = parse_board("..\n..\n")
    pieces = presets.named_pieces("tetrominoes")[2:3]   # the O fills the 2x2 square one way
    assert count_up_to_symmetry(board, pieces) == (1, 1, 8)
    domino = parse_board("....\n")
    from gridsolve.tiling.model import Piece
    two = (Piece("D", ((0, 0), (0, 1)), copies=2),)
    tilings = list(engine.tilings(domino, two))
    assert len(tilings) == 1
    syms = board_symmetries(domino)
    assert len({canonical(t, syms) for t in tilings}) == 1


def test_symmetries_keep_what_the_pieces_may_do() -> None:
    """A reflection is a symmetry of the puzzle only if every piece may be turned over (or is
    its own mirror image up to a turn), a quarter turn only if every piece may be turned."""
    from gridsolve.tiling.model import Piece
    board = parse_board("....\n....\n")
    one_sided = Piece.from_rows("L", "10/10/11", copies=2, flip=False)  # not its own mirror
    assert len(board_symmetries(board)) == 4
    assert len(board_symmetries(board, [one_sided])) == 2  # the identity and the half turn
    assert count_up_to_symmetry(board, [one_sided]) == (1, 1, 2)
    t = Piece.from_rows("T", "111/010", flip=False)  # its mirror image is a turn of it
    assert len(board_symmetries(board, [t])) == 4
    fixed = Piece.from_rows("V", "10/11", rotate=False, flip=False)
    assert len(board_symmetries(board, [fixed])) == 1
    square = parse_board("...\n...\n...\n")
    assert len(board_symmetries(square, [Piece.from_rows("O", "11/11", rotate=False,
                                                          flip=False)])) == 8
    # every kept symmetry maps each tiling onto a tiling
    for sym in board_symmetries(board, [one_sided]):
        for tiling in engine.tilings(board, [one_sided]):
            moved = [dataclasses.replace(pl, cells=tuple(sorted(sym(c) for c in pl.cells)))
                     for pl in tiling]
            assert is_tiling(board, [one_sided], moved)


def _orbits_by_name(board: Board, pieces: Sequence[Piece]) -> int:
    """Classes of tilings under the rectangle's four symmetries, found by moving each tiling's
    cells and naming each moved placement by the one piece that has its shape (independent of
    ``board_symmetries``' relabelling)."""
    from gridsolve.tiling.model import normalise
    rows = 1 + max(r for r, _ in board.open)
    cols = 1 + max(c for _, c in board.open)
    moves: list[Callable[[int, int], tuple[int, int]]] = [
        lambda r, c: (r, c), lambda r, c: (r, cols - 1 - c),
        lambda r, c: (rows - 1 - r, c), lambda r, c: (rows - 1 - r, cols - 1 - c)]
    owner = {shape: p.name for p in pieces for shape in p.orientations()}
    tilings = {frozenset((pieces[pl.piece].name, frozenset(pl.cells)) for pl in t)
               for t in engine.tilings(board, pieces)}
    seen: set[frozenset[tuple[str | None, frozenset[tuple[int, int]]]]] = set()
    classes = 0
    for t in tilings:
        if t in seen:
            continue
        classes += 1
        for move in moves:
            image = []
            for _, cells in t:
                moved = frozenset(move(*cell) for cell in cells)
                image.append((owner.get(normalise(moved)), moved))
            if frozenset(image) in tilings:
                seen.add(frozenset(image))
    return classes


def test_a_reflection_swaps_one_sided_mirror_pieces() -> None:
    """A one-sided set holding an L and a J (their mirror images) keeps the reflections that
    swap them: the mirror image of a tiling is a tiling once its Ls and Js are swapped."""
    from gridsolve.tiling.model import Piece
    board = parse_board("......\n......\n......\n......\n")
    shapes = {"L": ("10/10/11", 2), "J": ("01/01/11", 2), "S": ("011/110", 1), "I": ("1111", 1)}
    pieces = [Piece.from_rows(name, rows, copies=n, flip=False) for name, (rows, n) in shapes.items()]
    assert len(board_symmetries(board, pieces)) == 2        # S has no Z to swap with
    assert count_up_to_symmetry(board, pieces)[1] == _orbits_by_name(board, pieces)
    pieces += [Piece.from_rows("Z", "110/011", flip=False), Piece.from_rows("O", "11/11")]
    board = parse_board("........\n........\n........\n........\n")
    syms = board_symmetries(board, pieces)
    assert len(syms) == 4 and sum(bool(s.pieces) for s in syms) == 2
    total, classes, _ = count_up_to_symmetry(board, pieces)
    assert total > 0 and classes == _orbits_by_name(board, pieces)
    for sym in syms:                                         # each image is a tiling
        for tiling in itertools.islice(engine.tilings(board, pieces), 20):
            moved = [dataclasses.replace(pl, piece=sym.piece(pl.piece),
                                         cells=tuple(sorted(sym(c) for c in pl.cells)))
                     for pl in tiling]
            assert is_tiling(board, pieces, moved)


@pytest.mark.parametrize("rows, pieces", [
    ("###\n...\n...\n", "I x2:\n###\n"),
    ("#..#\n", "A x2:\n#\n"),
    ("####\n#...\n#...\n#...\n", "L:\n#.\n##\n\nM:\n###\n##.\n\nN:\n#\n"),
    ("#####\n#....\n#....\n", "P:\n##\n#.\n\nQ:\n#\n#\n\nR:\n###\n"),
])
def test_a_blocked_first_row_or_column_keeps_the_symmetries(rows: str, pieces: str) -> None:
    """Up to symmetry, a board whose first row or column is all blocked counts as the same
    board without them (found by a fuzz audit: no symmetry matched, not even the identity,
    and the count failed with a traceback)."""
    from gridsolve.tiling.formats import parse_pieces
    board = parse_board(rows)
    lines = rows.splitlines()
    while all(ch == "#" for ch in lines[0]):
        lines = lines[1:]
    while all(line[0] == "#" for line in lines):
        lines = [line[1:] for line in lines]
    while all(line[-1] == "#" for line in lines):
        lines = [line[:-1] for line in lines]
    moved = parse_board("\n".join(lines) + "\n")
    assert len(moved.open) == len(board.open)
    got = count_up_to_symmetry(board, parse_pieces(pieces))
    assert got == count_up_to_symmetry(moved, parse_pieces(pieces)) and got[0] > 0
