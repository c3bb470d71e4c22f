"""The crossing step (colour): no line settles a cell alone, but colours that crossing lines
take away let one line settle cells.

In black and white every change a line makes settles a cell, so a line step always exists
when line logic can move. In colour a line may only take colours away from cells (a cell
left red or green); a person who notes those sees the next line settle. The step names the
crossing lines and what they leave each cell ('column 4 (clue 2 red 1 green) leaves r3c4
red or green'), then the line's own step in the words of a line step. Only the colours
taken away that the step needs are named (each dropped in turn while the line still settles
the same cells).
"""

from __future__ import annotations

from dataclasses import replace

from gridsolve.errors import LimitReached
from gridsolve.nonogram.engine import passed
from gridsolve.nonogram.hints.kinds import Line, State
from gridsolve.nonogram.hints.line_step import _line_hint
from gridsolve.nonogram.hints.position import Hint, _Position
from gridsolve.nonogram.lines import cell_label
from gridsolve.nonogram.watch.explain import AGREE

#: Cell -> the lines that take colours away from it, each with the state it leaves.
Narrowed = dict[int, list[tuple[int, State]]]


def _narrowed(pos: _Position, until: float | None) -> Narrowed | None:
    """What each line alone leaves the cells it changes (None if the clock came first)."""
    out: Narrowed = {}
    try:
        for i, before, after in pos.moved(until):
            for c, a, b in zip(pos.lines[i], before, after):
                if a != b:
                    out.setdefault(c, []).append((i, b))
    except LimitReached:
        return None
    return out


def _with(pos: _Position, j: int, narrowed: Narrowed, used: set[int]) -> list[State]:
    """Line j's cells, with what the crossing lines leave the cells at positions ``used``."""
    line = list(pos.line(j))
    for p in used:
        for k, state in narrowed.get(pos.lines[j][p], ()):
            if k != j:
                line[p] = pos.kind.meet(line[p], state)
    return line


def _settled(pos: _Position, j: int, before: Line, after: Line | None) -> dict[int, State]:
    """The positions of line j that ``after`` settles and the position has not."""
    if after is None:
        return {}
    return {p: b for p, (a, b) in enumerate(zip(before, after))
            if not pos.kind.known(a) and pos.kind.known(b)}


def _crossing_step(pos: _Position, until: float | None = None) -> Hint | None:
    """The line that settles the most cells once crossing lines have taken colours away
    (None when none does, or when the clock came first)."""
    kind = pos.kind
    if not kind.narrows:  # (every change settles a cell: the line step saw them all)
        return None
    narrowed = _narrowed(pos, until)
    if not narrowed:
        return None
    best: tuple[int, int, set[int], dict[int, State]] | None = None
    for j in sorted({line for c in narrowed for line in pos.crossing(c)}):
        if passed(until):  # (the best so far would depend on the clock: none, as _narrowed)
            return None
        here = {p for p, c in enumerate(pos.lines[j]) if any(k != j for k, _ in narrowed.get(c, ()))}
        if not here:
            continue
        settled = _settled(pos, j, pos.line(j),
                           kind.solve(pos.clues[j], kind.join(tuple(_with(pos, j, narrowed, here))),
                                      until))
        if settled and (best is None or len(settled) > best[0]):
            best = (len(settled), j, here, settled)
    if best is None:
        return None
    _, j, used, settled = best
    for p in sorted(used):  # drop what the step does not need (one line: no clock, so the
        fewer = used - {p}  # hint does not depend on it)
        after = kind.solve(pos.clues[j], kind.join(tuple(_with(pos, j, narrowed, fewer))), None)
        if _settled(pos, j, pos.line(j), after) == settled:
            used = fewer
    return _crossing_hint(pos, j, narrowed, used)


def _crossing_hint(pos: _Position, j: int, narrowed: Narrowed, used: set[int]) -> Hint:
    """'column 4 (clue ...) leaves r3c4 red or green; so row 3 (clue ...): column 4 is ...'."""
    kind = pos.kind
    before = kind.join(tuple(_with(pos, j, narrowed, used)))
    after = kind.solve(pos.clues[j], before, None)
    forced = tuple(f for f in kind.reasons(pos.clues[j], before, after)
                   if not kind.known(pos.line(j)[f.pos]))
    said = []
    for p in sorted(used):
        cell = pos.lines[j][p]
        for k, state in narrowed[cell]:
            if k != j:
                said.append(f"{pos.name(k)} leaves {cell_label(pos.puzzle, cell)} "
                            f"{kind.options_word(state)}")
    named = any(f.reason != AGREE for f in forced)
    step = _line_hint(pos, "line" if named else "whole-line", j, forced, before)
    return replace(step, reason=f"{'; '.join(said)}; so {step.reason}")
