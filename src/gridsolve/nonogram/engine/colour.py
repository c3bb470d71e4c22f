"""The colour engine's own piece: its compiled line solver.

Colour puzzles are searched through the engine's one face (``gridsolve.nonogram.engine``:
``solve``, ``analyse``, ``first``, ``count``, ``unique`` take either kind of puzzle); those
names are re-exported here for callers that import them from this module.
"""

from __future__ import annotations

from collections.abc import Sequence

import gridsolve.nonogram.engine._colour as _colour
from gridsolve.nonogram.engine import analyse, count, first, solve, unique
from gridsolve.nonogram.model import ColourClue

__all__ = ["solve", "analyse", "first", "count", "unique", "solve_line"]


def solve_line(clue: ColourClue, masks: Sequence[int]) -> list[int] | None:
    """The compiled colour line solver: narrow a line of colour masks (bit c = colour c still
    possible, bit 0 the background) to what the clue allows; None if nothing fits."""
    return _colour.solve_line(clue, masks)
