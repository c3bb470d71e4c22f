"""Pictures as SVG, written by hand (no dependency): the puzzle as printed, with a grid filled in."""

from __future__ import annotations

from collections.abc import Sequence

from gridsolve.nonogram.model import EMPTY, FILLED, UNKNOWN, AnyPuzzle
from gridsolve.nonogram.render.layout import COLOURS, Layout, Swatch, layout, outline_width

__all__ = ["puzzle_svg"]


def puzzle_svg(puzzle: AnyPuzzle, grid: Sequence[str] | None = None, cell: int = 20) -> str:
    """An SVG document of the puzzle with clues in the margins and the grid's filled cells.

    Without a grid the blank puzzle is drawn. In a partial grid (with unknown cells) the cells
    known to be empty carry a small dot; in a complete grid they are left white. A colour
    puzzle's cells are filled in their colours (a light one outlined), and its clue numbers
    written on swatches of their colours (layout.py)."""
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
    lines, ring = lay.outlines(), outline_width(cell)
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
                if ring and ch in lines:  # inside the cell: the grid line covers its edge
                    out.append(f'<rect class="outline" x="{lay.left + c * cell + ring / 2:g}" '
                               f'y="{y + ring / 2:g}" width="{cell - ring}" '
                               f'height="{cell - ring}" fill="none" stroke="{lines[ch]}" '
                               f'stroke-width="{ring}"/>')
    out.append(f'<g class="clues" font-size="{lay.font}" fill="{COLOURS["ink"]}">')
    if lay.swatches:
        out += _swatches(lay)
        return _finish(out, lay)
    for r in range(lay.rows):  # each number placed on its own, clue_gap apart (layout.py)
        y = lay.row_clue_anchor(r)[1]
        spans = "".join(f'<tspan x="{right}">{n}</tspan>' for n, _, right in lay.row_number_boxes(r))
        out.append(f'<text y="{y}" text-anchor="end" dominant-baseline="central">{spans}</text>')
    size = f' font-size="{lay.column_font}"' if lay.column_font != lay.font else ""
    for c in range(lay.cols):
        for n, x, y in lay.col_clue_anchors(c):
            out.append(f'<text x="{x}" y="{y}" text-anchor="middle" dominant-baseline="central"'
                       f'{size}>{n}</text>')
    return _finish(out, lay)


def _swatches(lay: Layout) -> list[str]:
    """A colour puzzle's clues: each number on a swatch of its colour (outlined when light),
    in black or white; an empty line's "0" in ink on the paper."""
    def swatch(s: Swatch, size: str = "") -> str:
        x0, y0, x1, y1 = s.box
        line = f' stroke="{s.outline}" stroke-width="1"' if s.outline else ""
        x, y = s.centre
        return (f'<rect class="swatch" x="{x0 + 0.5 if line else x0:g}" '
                f'y="{y0 + 0.5 if line else y0:g}" width="{x1 - x0 - (1 if line else 0)}" '
                f'height="{y1 - y0 - (1 if line else 0)}" fill="{s.fill}"{line}/>'
                f'<text x="{x}" y="{y}" text-anchor="middle" dominant-baseline="central" '
                f'fill="{s.text}"{size}>{s.number}</text>')
    out = []
    for r in range(lay.rows):
        out += [swatch(s) for s in lay.row_swatches(r)]
        if lay.row_clues[r] == "0":
            x, y = lay.row_clue_anchor(r)
            out.append(f'<text x="{x}" y="{y}" text-anchor="end" '
                       'dominant-baseline="central">0</text>')
    size = f' font-size="{lay.column_font}"' if lay.column_font != lay.font else ""
    for c in range(lay.cols):
        out += [swatch(s, size) for s in lay.col_swatches(c)]
        if lay.col_clues[c] == ("0",):
            _, x, y = next(lay.col_clue_anchors(c))
            out.append(f'<text x="{x}" y="{y}" text-anchor="middle" '
                       f'dominant-baseline="central"{size}>0</text>')
    return out


def _finish(out: list[str], lay: Layout) -> str:
    """Close the clues' group, draw the grid lines over the cells, and end the document."""
    from html import escape
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
