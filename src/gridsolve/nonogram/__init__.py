"""Nonograms: model, formats, the compiled engine and its alternatives."""

from __future__ import annotations

import typing as _typing

if _typing.TYPE_CHECKING:
    from collections.abc import Sequence

    from gridsolve.nonogram.hints import Hint
    from gridsolve.nonogram.model import Puzzle

__all__ = ["hint"]


def hint(puzzle: Puzzle, grid: Sequence[str] | None = None) -> Hint:
    """The next step a person could take from a partly filled grid ('#', '.' or 'x', '?';
    None for the empty board), with its reason: see ``gridsolve.nonogram.hints``."""
    from gridsolve.nonogram.hints import hint as next_step  # imported when asked: a fast CLI

    return next_step(puzzle, grid)


def __dir__() -> list[str]:
    """The public names and the subpackages loaded so far: what ``dir()`` shows."""
    from types import ModuleType
    return sorted({n for n, v in globals().items()
                   if n.startswith("__") or n in __all__ or isinstance(v, ModuleType)
                   and not n.startswith("_")})


del annotations  # the __future__ import's name: not part of the API
