"""Showing nonograms to people: text (with clue margins), SVG and PNG pictures of one grid.

Knows the model only, nothing of files, engines or the search (animations of a solve live in
``nonogram/watch/``). Pillow is imported only by the PNG writer (extra ``image``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from gridsolve.nonogram.model import AnyPuzzle
from gridsolve.nonogram.render.text import ASCII, UNICODE, clued_text, grid_rich, grid_text

if TYPE_CHECKING:
    from gridsolve.nonogram.render.svg import puzzle_svg

__all__ = ["grid_text", "clued_text", "grid_rich", "UNICODE", "ASCII", "puzzle_svg", "write_png"]


def __getattr__(name: str) -> Any:
    """``puzzle_svg``, imported on first use (a text solve draws no picture)."""
    if name == "puzzle_svg":
        from gridsolve.nonogram.render.svg import puzzle_svg
        return puzzle_svg
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def write_png(path: str, puzzle: AnyPuzzle, grid: Sequence[str] | None = None, cell: int = 20) -> None:
    """Write a PNG picture of the puzzle (Pillow, extra ``image``, imported only now)."""
    from gridsolve.nonogram.render.png import write_png as _write_png
    _write_png(path, puzzle, grid, cell)
