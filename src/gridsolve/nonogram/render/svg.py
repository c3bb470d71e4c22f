"""Pictures as SVG, written by hand (no dependency): the puzzle as printed, with a grid filled in."""

from __future__ import annotations

from collections.abc import Sequence

from gridsolve.nonogram.model import EMPTY, FILLED, UNKNOWN, AnyPuzzle
from gridsolve.nonogram.render.layout import COLOURS, layout

__all__ = ["puzzle_svg"]


def puzzle_svg(puzzle: AnyPuzzle, grid: Sequence[str] | None = None, cell: int = 20) -> str:
    """An SVG document of the puzzle with clues in the margins and the grid's filled cells.

    Without a grid the blank puzzle is drawn. In a partial grid (with unknown cells) the cells
    known to be empty carry a small dot; in a complete grid they are left white. A colour
    puzzle's cells are filled, and its clue numbers written, in their colours."""
    from html import escape  # here: a text solve imports this module but draws nothing
    lay = layout(puzzle, cell)
    if lay.cell_fills:
        partial = grid is not None and any(ch == UNKNOWN for row in grid for ch in row)
    else:
        partial = grid is not None and any(ch not in (FILLED, EMPTY) for row in grid for ch in row)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{lay.width}" height="{lay.height}" '
           f'viewBox="0 0 {lay.width} {lay.height}" font-family="DejaVu Sans, Arial, sans-serif">',
           f'<rect class="paper" x="0" y="0" width="{lay.width}" height="{lay.height}" '
           f'fill="{COLOURS["paper"]}"/>']
    if lay.title:
        out.append(f'<text class="title" x="{lay.width // 2}" y="{cell // 2 + lay.font}" '
                   f'text-anchor="middle" font-size="{round(lay.font * 1.3)}" font-weight="bold" '
                   f'fill="{COLOURS["ink"]}">{escape(lay.title, quote=False)}</text>')
    fills = lay.fills()
    size = f'width="{cell}" height="{cell}"'
    dot = f'r="{cell / 10:g}" fill="{COLOURS["dot"]}"'
    for r, row in enumerate(grid or ()):
        y = lay.top + r * cell
        for c, ch in enumerate(row):
            if ch == EMPTY:
                if partial:
                    x = lay.left + c * cell
                    out.append(f'<circle class="empty" cx="{x + cell / 2:g}" '
                               f'cy="{y + cell / 2:g}" {dot}/>')
            elif (fill := fills.get(ch)) is not None:
                out.append(f'<rect class="filled" x="{lay.left + c * cell}" y="{y}" {size} '
                           f'fill="{fill}"/>')
    out.append(f'<g class="clues" font-size="{lay.font}" fill="{COLOURS["ink"]}">')
    for r in range(lay.rows):  # each number placed on its own, clue_gap apart (layout.py)
        y = lay.row_clue_anchor(r)[1]
        boxes = lay.row_number_boxes(r)
        paints = [f' fill="{ink}"' for ink in lay.row_inks[r]] if lay.row_inks else [""] * len(boxes)
        spans = "".join(f'<tspan x="{right}"{paint}>{n}</tspan>'
                        for (n, _, right), paint in zip(boxes, paints))
        out.append(f'<text y="{y}" text-anchor="end" dominant-baseline="central">{spans}</text>')
    size = f' font-size="{lay.column_font}"' if lay.column_font != lay.font else ""
    for c in range(lay.cols):
        inks = lay.col_inks[c] if lay.col_inks else ()
        for i, (n, x, y) in enumerate(lay.col_clue_anchors(c)):
            ink = f' fill="{inks[i]}"{size}' if inks else size
            out.append(f'<text x="{x}" y="{y}" text-anchor="middle" dominant-baseline="central"'
                       f'{ink}>{n}</text>')
    out.append("</g>")
    out.append('<g class="lines" stroke-linecap="square">')
    for thick in (False, True):
        colour, width = (COLOURS["ink"], 2) if thick else (COLOURS["thin"], 1)
        for x1, y1, x2, y2, is_thick in lay.lines():
            if is_thick == thick:
                out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" '
                           f'stroke="{escape(colour)}" stroke-width="{width}"/>')
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
