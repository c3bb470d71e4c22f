"""The tiling model: shapes, orientations, boards, placements and the independent checker."""

from __future__ import annotations

import pytest

from gridsolve.errors import InvalidPuzzle
from gridsolve.tiling.model import Board, Piece, Placement, check_area, is_tiling, placements
from gridsolve.tiling.presets import pieces

# Distinct orientations of each original piece: rectangle 2, V/Z/U 4, L/N/Y/P 8.
ORIENTATIONS = {"R": 2, "V": 4, "Z": 4, "U": 4, "L": 8, "N": 8, "Y": 8, "P": 8}


def rect(h: int, w: int) -> Board:
    return Board(h, w, tuple((r, c) for r in range(h) for c in range(w)))


@pytest.mark.parametrize("piece", pieces("original"), ids=lambda p: p.name)
def test_orientations_are_distinct_and_complete(piece: Piece) -> None:
    shapes = piece.orientations()
    assert len(shapes) == ORIENTATIONS[piece.name]
    assert len(set(shapes)) == len(shapes)
    for s in shapes:   # every orientation is a rigid motion of the piece: same size, connected
        assert len(s) == piece.size and min(r for r, _ in s) == 0 and min(c for _, c in s) == 0


def test_special_shapes() -> None:
    assert len(Piece.from_rows("X", "010/111/010").orientations()) == 1
    assert len(Piece.from_rows("I", "11111").orientations()) == 2
    assert len(Piece.from_rows("F", "011/110/010").orientations()) == 8


@pytest.mark.parametrize("rows, why", [("101", "not connected"), ("000", "no cells")])
def test_bad_piece(rows: str, why: str) -> None:
    with pytest.raises(InvalidPuzzle, match=why):
        Piece.from_rows("A", rows)


def test_board_validation() -> None:
    with pytest.raises(InvalidPuzzle, match="outside"):
        Board(2, 2, ((0, 0), (2, 0)))
    with pytest.raises(InvalidPuzzle, match="twice"):
        Board(2, 2, ((0, 0),), (((0, 0), "a"), ((0, 0), "a")))
    with pytest.raises(InvalidPuzzle, match="not open"):
        Board(2, 2, ((0, 0),), (((1, 1), "a"),))


def test_placements_count_on_a_rectangle() -> None:
    domino = Piece.from_rows("D", "11")
    # 3x4: horizontal 3*3 + vertical 2*4
    assert len(placements(rect(3, 4), 0, domino)) == 17


def test_area_check_message() -> None:
    with pytest.raises(InvalidPuzzle) as err:
        check_area(rect(2, 2), [Piece.from_rows("D", "11")], 1)
    assert str(err.value) == ("the board has 4 open cells but the pieces cover 2 plus 1 cell "
                              "left open = 3")
    with pytest.raises(InvalidPuzzle) as err:  # no "= 2" when nothing is left open
        check_area(rect(1, 1), [Piece.from_rows("D", "11")])
    assert str(err.value) == "the board has 1 open cell but the pieces cover 2 cells"
    with pytest.raises(InvalidPuzzle) as err:
        check_area(rect(2, 3), [Piece.from_rows("M", "1")])
    assert str(err.value) == "the board has 6 open cells but the pieces cover 1 cell"


def test_checker_rejects_bad_tilings() -> None:
    board = rect(2, 2)
    ps = [Piece.from_rows("D", "11", copies=2)]
    a = Placement(0, ((0, 0), (0, 1)), 0b0011)
    b = Placement(0, ((1, 0), (1, 1)), 0b1100)
    assert is_tiling(board, ps, [a, b])
    assert not is_tiling(board, ps, [a, a])                       # overlap, wrong copies
    assert not is_tiling(board, ps, [a])                          # a cell left uncovered
    assert not is_tiling(board, ps, [a, Placement(0, ((1, 0), (0, 1)), 0)])  # not the shape
    assert not is_tiling(board, ps, [a, b], leave_open=[(0, 0)])  # open cell covered
    l3 = [Piece.from_rows("L", "10/11")]
    assert is_tiling(board, l3, [Placement(0, ((0, 0), (1, 0), (1, 1)), 0)], [(0, 1)])
