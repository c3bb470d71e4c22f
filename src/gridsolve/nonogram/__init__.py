"""Nonograms: model, formats, the compiled engine and its alternatives."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gridsolve.nonogram.hints import Hint
    from gridsolve.nonogram.model import Puzzle

__all__ = ["hint"]


def hint(puzzle: Puzzle, grid: Sequence[str] | None = None) -> Hint:
    """The next step a person could take from a partly filled grid ('#', '.' or 'x', '?';
    None for the empty board), with its reason: see ``gridsolve.nonogram.hints``."""
    from gridsolve.nonogram.hints import hint as next_step  # imported when asked: a fast CLI

    return next_step(puzzle, grid)
