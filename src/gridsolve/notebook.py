"""Pictures where Python users look: Jupyter shows puzzles and results as pictures.

The model and the engine know nothing of pictures (docs/ARCHITECTURE.md), so this module,
above them and the renderers, gives their classes Jupyter's display hooks: a ``Puzzle`` or
``ColourPuzzle`` shows its blank grid with the clues (``_repr_svg_``), a ``Result`` its status
and solutions, or the cells proven so far (``_repr_html_``). ``import gridsolve`` installs
them when IPython is loaded (Jupyter; elsewhere call ``install()``), so the command line never
imports this; the renderer is imported only when a notebook asks for a picture. Tilings and
calendar solutions draw themselves (``gridsolve.tiling.render.DrawnTiling``).
"""

from __future__ import annotations

from gridsolve.nonogram.engine.results import Result
from gridsolve.nonogram.model import AnyPuzzle, ColourPuzzle, Puzzle

__all__ = ["install", "puzzle_picture", "result_html"]

#: At most this many solutions are drawn side by side.
SHOWN = 2


def puzzle_picture(puzzle: AnyPuzzle) -> str:
    """The blank puzzle with its clues, as SVG."""
    from gridsolve.nonogram.render.svg import puzzle_svg
    return puzzle_svg(puzzle)


def _words(result: Result) -> str:
    found = {"unique": "unique solution", "multiple": "several solutions",
             "none": "no solution", "unknown": "not decided (a limit stopped the search)"}
    nodes = f"{result.nodes:,} node{'' if result.nodes == 1 else 's'}"
    return f"{found[result.status]} · {nodes} · {result.seconds:.3f} s"


def result_html(result: Result) -> str | None:
    """The result's status and its solutions (or the cells proven at the root when it has
    none) as HTML with SVG pictures; None when it does not know its puzzle."""
    from html import escape

    from gridsolve.nonogram.render.svg import puzzle_svg
    if result.puzzle is None:
        return None
    grids = result.solutions[:SHOWN] or (result.partial,)
    pictures = "".join(f"<div>{puzzle_svg(result.puzzle, grid)}</div>" for grid in grids)
    return (f'<div><p style="font-family: sans-serif">{escape(_words(result))}</p>'
            f'<div style="display: flex; gap: 16px; align-items: flex-start">{pictures}</div>'
            "</div>")


def install() -> None:
    """Give the model's puzzles and the engine's results their Jupyter display hooks."""
    for cls in (Puzzle, ColourPuzzle):
        setattr(cls, "_repr_svg_", puzzle_picture)
    setattr(Result, "_repr_html_", result_html)
