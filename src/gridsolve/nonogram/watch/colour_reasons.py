"""Why a colour line forces its cells, in the words black-and-white lines use (overlap, reach).

A colour line is a list of masks over the palette (bit c: colour c still possible; bit 0 the
background). The extreme placements of the clue's blocks are found by dynamic programming
over the masks (each block as far left, then as far right, as a completion allows; blocks of
the same colour need a background cell between them), as ``explain.extremes`` does for black
and white. The named rules:

    overlap   a block covers the cell in both its leftmost and rightmost placements: the
              cell is that block's colour
    reach     no block (of a colour) can reach the cell: it is not that colour (no block at
              all: it is empty)
    agree     (fallback) every arrangement of the clue that fits the known cells agrees

Plain Python in time of the line's cells times its blocks (``explain.REASONS_MAX_WORK``).
"""

from __future__ import annotations

from collections.abc import Sequence

from gridsolve.nonogram.model import ColourClue, ColourPuzzle
from gridsolve.nonogram.watch.deductions import block_name, span

__all__ = ["colour_extremes", "colour_line_reasons", "count_colour_fits", "bits_of",
           "BACKGROUND", "colour_names", "colour_clue_text", "colour_ruled_out"]

BACKGROUND = 0


def bits_of(mask: int) -> list[int]:
    """The palette indexes a mask allows, lowest first."""
    return [c for c in range(mask.bit_length()) if mask >> c & 1]


def colour_names(puzzle: ColourPuzzle) -> tuple[str, ...]:
    """How each palette index is said: 'empty' for the background, else the colour's name."""
    return ("empty", *(c.name for c in puzzle.palette[1:]))


def colour_clue_text(names: Sequence[str], clue: ColourClue) -> str:
    """'3 red 1 cream', or '0' for an empty line."""
    return " ".join(f"{n} {names[c]}" for n, c in clue) or "0"


def _gap(clue: ColourClue, j: int) -> int:
    """Background cells block j needs after it: 1 before a block of its own colour."""
    return 1 if j + 1 < len(clue) and clue[j + 1][1] == clue[j][1] else 0


def _fits(clue: ColourClue, masks: Sequence[int]) -> list[list[bool]]:
    """fit[j][i]: blocks j.. fit in cells [i, n), the cells they leave being background."""
    n, k = len(masks), len(clue)
    bg = [m & 1 for m in masks]
    fit = [[False] * (n + 2) for _ in range(k + 1)]
    fit[k][n] = fit[k][n + 1] = True
    for i in range(n - 1, -1, -1):
        fit[k][i] = bool(bg[i]) and fit[k][i + 1]
    for j in range(k - 1, -1, -1):
        for i in range(n - 1, -1, -1):
            fit[j][i] = (bool(bg[i]) and fit[j][i + 1]) or _block_fits(clue, masks, fit, j, i)
    return fit


def _block_fits(clue: ColourClue, masks: Sequence[int], fit: list[list[bool]], j: int,
                s: int) -> bool:
    """May block j start at cell s, the rest fitting after it?"""
    size, colour = clue[j]
    end = s + size
    if end > len(masks) or any(not masks[i] >> colour & 1 for i in range(s, end)):
        return False
    if _gap(clue, j):
        return end < len(masks) and bool(masks[end] & 1) and fit[j + 1][end + 1]
    return fit[j + 1][end]


def _leftmost(clue: ColourClue, masks: Sequence[int]) -> list[int] | None:
    """Each block's start in the leftmost arrangement that fits the masks; None if none."""
    fit = _fits(clue, masks)
    if not fit[0][0]:
        return None
    starts, pos = [], 0
    for j, (size, _) in enumerate(clue):
        s = pos
        while not _block_fits(clue, masks, fit, j, s):
            s += 1  # cell s may be background (fit[j][s] says a start exists further on)
        starts.append(s)
        pos = s + size + _gap(clue, j)
    return starts


def colour_extremes(clue: ColourClue,
                    masks: Sequence[int]) -> tuple[list[int], list[int]] | None:
    """Block starts of the leftmost and rightmost arrangements that fit the masks."""
    left = _leftmost(clue, masks)
    rev = _leftmost(tuple(reversed(clue)), list(reversed(masks)))
    if left is None or rev is None:
        return None
    n = len(masks)
    right = [n - s - size for s, (size, _) in zip(reversed(rev), clue)]
    return left, right


def count_colour_fits(clue: ColourClue, masks: Sequence[int]) -> int:
    """How many arrangements of the clue agree with the masks of a line (by DP)."""
    n, k = len(masks), len(clue)
    ways = [[0] * (n + 2) for _ in range(k + 1)]
    ways[k][n] = ways[k][n + 1] = 1
    for i in range(n - 1, -1, -1):
        ways[k][i] = ways[k][i + 1] if masks[i] & 1 else 0
    for j in range(k - 1, -1, -1):
        size, colour = clue[j]
        gap = _gap(clue, j)
        for i in range(n - 1, -1, -1):
            total = ways[j][i + 1] if masks[i] & 1 else 0
            end = i + size
            if end <= n and all(masks[c] >> colour & 1 for c in range(i, end)):
                if not gap:
                    total += ways[j + 1][end]
                elif end < n and masks[end] & 1:
                    total += ways[j + 1][end + 1]
            ways[j][i] = total
    return ways[0][0]


def colour_line_reasons(clue: ColourClue, before: Sequence[int], after: Sequence[int],
                        names: Sequence[str]) -> dict[int, str]:
    """For each cell ``after`` fixes to one colour (``before`` allowed more), the named
    rule that forces it, if one does (``names``: the palette's words, 'empty' first); the
    cells left out get the fallback reason."""
    ext = colour_extremes(clue, before)
    if ext is None:
        return {}
    left, right = ext
    out: dict[int, str] = {}
    for i, (a, b) in enumerate(zip(before, after)):
        if a == b or b & (b - 1):
            continue
        colour = b.bit_length() - 1
        if colour != BACKGROUND:
            for j, (size, c) in enumerate(clue):
                if c == colour and right[j] <= i < left[j] + size:
                    out[i] = (f"{block_name(j, len(clue))} ({size} {names[c]}) covers it in both "
                              f"its leftmost ({span(left[j], size)}) and rightmost "
                              f"({span(right[j], size)}) placements")
                    break
            continue
        reaching = [j for j, (size, _) in enumerate(clue) if left[j] <= i < right[j] + size]
        if not reaching:
            reach = ", ".join(span(left[j], right[j] + size - left[j])
                              for j, (size, _) in enumerate(clue))
            out[i] = "no block can reach it" + (f" (the blocks can only cover {reach})"
                                                if clue else " (the clue is 0)")
        elif all(not a >> clue[j][1] & 1 for j in reaching):
            colours = sorted({names[clue[j][1]] for j in reaching})
            out[i] = (f"only {' or '.join(colours)} blocks can reach it, and it cannot be "
                      f"{' or '.join(colours)}")
    return out


def colour_ruled_out(clue: ColourClue, before: Sequence[int], after: Sequence[int],
                     names: Sequence[str]) -> list[tuple[int, int, str]]:
    """The colours a line takes away from cells it does not settle: (position, colour,
    reason), the reason 'no red block can reach it' when that rule says it, else ''."""
    ext = colour_extremes(clue, before)
    in_clue = {k for _, k in clue}
    out = []
    for i, (a, b) in enumerate(zip(before, after)):
        if a == b or not b & (b - 1):
            continue
        for c in bits_of(a & ~b):
            reason = ""
            if c != BACKGROUND and c not in in_clue:
                reason = f"the clue has no {names[c]} block"
            elif c != BACKGROUND and ext is not None:
                left, right = ext
                if not any(k == c and left[j] <= i < right[j] + size
                           for j, (size, k) in enumerate(clue)):
                    reason = f"no {names[c]} block can reach it"
            out.append((i, c, reason))
    return out
