"""Pictures of tilings with identical pieces: each placement is seen on its own (issue 54.9)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gridsolve.tiling import engine
from gridsolve.tiling.formats import parse_board
from gridsolve.tiling.model import Cell, Piece, Placement
from gridsolve.tiling.render import tiling_png, tiling_svg, tiling_text

BOARD = parse_board("....\n....\n....\n....\n")
DOMINOES = (Piece.from_rows("D", ["##"], copies=8),)


def _tiling() -> tuple[Placement, ...]:
    found = engine.first(BOARD, DOMINOES)
    assert found is not None and len(found) == 8
    return tuple(found)


def _owner(tiling: tuple[Placement, ...]) -> dict[Cell, int]:
    return {cell: n for n, pl in enumerate(tiling) for cell in pl.cells}


def _neighbours(owner: dict[Cell, int]) -> list[tuple[Cell, Cell]]:
    return [((r, c), (r + dr, c + dc)) for (r, c) in owner for dr, dc in ((0, 1), (1, 0))
            if (r + dr, c + dc) in owner]


def test_text_never_shows_two_adjacent_copies_with_one_symbol() -> None:
    tiling = _tiling()
    words = [line.split() for line in tiling_text(BOARD, DOMINOES, tiling).splitlines()]
    owner = _owner(tiling)
    for a, b in _neighbours(owner):
        same = owner[a] == owner[b]
        assert (words[a[0]][a[1]] == words[b[0]][b[1]]) == same, (a, b)
    from gridsolve.tiling.render import placement_symbols
    assert sorted(placement_symbols(DOMINOES, tiling)) == [f"D{k}" for k in range(1, 9)]


def test_each_copy_has_its_own_colour() -> None:
    from gridsolve.tiling.render import placement_colours
    assert len(set(placement_colours(DOMINOES, _tiling()))) == 8


def test_png_outlines_each_copy(tmp_path: Path) -> None:
    """On the edge between two dominoes the PNG has a dark border line; inside a domino the
    cells' line is the thin grey one."""
    pil = pytest.importorskip("PIL.Image")
    tiling = _tiling()
    path = tmp_path / "dominoes.png"
    tiling_png(BOARD, DOMINOES, tiling, path, size=48)
    img = pil.open(path).convert("RGB")
    owner = _owner(tiling)
    pad, size = 24, 48
    checked = {True: 0, False: 0}
    for (r, c), (r2, c2) in _neighbours(owner):
        if r2 == r:  # a vertical edge between (r, c) and (r, c + 1)
            x, y = pad + (c + 1) * size, pad + r * size + size // 2
        else:
            x, y = pad + c * size + size // 2, pad + (r + 1) * size
        between = owner[(r, c)] != owner[(r2, c2)]
        assert (max(img.getpixel((x, y))) < 60) == between, ((r, c), (r2, c2))
        checked[between] += 1
    assert checked[True] and checked[False]


def test_svg_outlines_each_copy() -> None:
    tiling = _tiling()
    svg = tiling_svg(BOARD, DOMINOES, tiling)
    lines = svg.count('stroke="black"')
    edges = sum(1 for a, b in _neighbours(_owner(tiling)) if _owner(tiling)[a] != _owner(tiling)[b])
    outside = 4 * 4 * 4 - 2 * len(_neighbours(_owner(tiling)))  # the board's outline, per cell
    assert lines == outside + 2 * edges
