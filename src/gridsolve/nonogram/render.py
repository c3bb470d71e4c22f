"""Showing grids to people: text now; pictures live beside it. Knows the model, nothing else."""

from __future__ import annotations

from collections.abc import Sequence

from gridsolve.nonogram.model import EMPTY, FILLED

__all__ = ["grid_text", "UNICODE", "ASCII"]

#: glyphs for (filled, empty, unknown)
UNICODE = ("■", "□", "?")
ASCII = ("#", ".", "?")


def grid_text(grid: Sequence[str], glyphs: tuple[str, str, str] = UNICODE) -> str:
    """The grid as lines of glyphs, one character per cell."""
    table = {FILLED: glyphs[0], EMPTY: glyphs[1]}
    return "\n".join("".join(table.get(ch, glyphs[2]) for ch in row) for row in grid)
