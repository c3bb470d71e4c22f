"""The line step: the one line whose named rules (or whole-line view) settle the most cells."""

from __future__ import annotations

from gridsolve.errors import LimitReached
from gridsolve.nonogram.engine import passed
from gridsolve.nonogram.hints.kinds import AnyClue, CellKind, Line
from gridsolve.nonogram.hints.kinds import count_fits as count_fits
from gridsolve.nonogram.hints.position import Hint, HintKind, _Position
from gridsolve.nonogram.lines import spans
from gridsolve.nonogram.model import FILLED
from gridsolve.nonogram.watch.explain import AGREE, Forced, explainable


def _line_step(pos: _Position, until: float | None = None) -> tuple[Hint | None, str]:
    """The line whose named rules settle the most cells; else the one the whole-line view
    settles most in; None when line logic is stuck. And "lines" when the clock (``until``)
    stopped the look at the lines before any moved (else "").

    The compiled solver finds the lines that move, the cheapest lines first (on a board of
    1000x1000 this takes seconds, so the clock is watched, in each solve too); their
    reasons (plain Python) are worked out for the lines that change the most cells first,
    until no line left could settle more cells by a named rule, or the clock runs out: then
    the best line seen is the step (the first line's reasons are always worked out)."""
    kind = pos.kind
    moves: list[tuple[int, int, Line, Line]] = []
    try:
        for i, before, after in pos.moved(until):
            settled = sum(kind.settles(a, b) for a, b in zip(before, after))
            if settled:  # (a colour line may only take colours away: no step for a person)
                moves.append((-settled, i, before, after))
    except LimitReached:
        if not moves:
            return None, "lines"
    moves.sort(key=lambda m: m[:2])
    named: tuple[int, int, tuple[Forced, ...]] | None = None
    whole: tuple[int, int, tuple[Forced, ...]] | None = None
    for n, (most, i, before, after) in enumerate(moves):
        if named is not None and named[:2] < (most, i):
            break  # no line left can settle more cells by a named rule
        if n and passed(until):
            break
        forced = kind.reasons(pos.clues[i], before, after)
        simple = tuple(f for f in forced if f.reason != AGREE)
        if simple:
            named = min(named or (0, i, simple), (-len(simple), i, simple))
        elif named is None:
            whole = min(whole or (0, i, forced), (-len(forced), i, forced))
    if named is not None:
        return _line_hint(pos, "line", named[1], named[2]), ""
    if whole is not None:
        return _line_hint(pos, "whole-line", whole[1], whole[2]), ""
    return None, ""


def _line_hint(pos: _Position, kind: HintKind, i: int, forced: tuple[Forced, ...],
               line: Line | None = None) -> Hint:
    """A line step: which cells, and why (grouped by value and reason); ``line``: the line's
    cells it starts from, when not the position's (colours taken away by crossing lines)."""
    where = pos.lines[i]
    line = pos.line(i) if line is None else line
    unit = "columns" if i < pos.puzzle.height else "rows"
    groups: dict[tuple[str, str], list[int]] = {}
    for f in forced:
        groups.setdefault((f.value, f.reason), []).append(f.pos)
    said = []
    for (value, reason), positions in groups.items():
        if reason == AGREE:
            reason = _whole_line_reason(pos.kind, pos.clues[i], line, value, positions)
        many = len(positions) > 1
        reason = reason.replace("covers it", "covers them").replace("reach it", "reach them") \
            if many else reason
        label = f"{unit if many else unit[:-1]} {spans(positions)}"
        said.append(f"{label} {'are' if many else 'is'} {pos.kind.word(value)}: {reason}")
    return Hint(kind, f"{pos.name(i)}: " + "; ".join(said),
                tuple((where[f.pos], f.value) for f in forced), i, pos.clues[i], forced=forced)


def _whole_line_reason(kind: CellKind, clue: AnyClue, line: Line, value: str,
                       positions: list[int]) -> str:
    """'of the 3 ways to place the clue that fit the known cells, every one leaves them empty'
    (on a line too long to explain, the ways are not counted: 'every way'); in colour a
    block's colour 'paints them red'."""
    n = kind.count_fits(clue, line) if explainable(clue, line) else None
    them = "them" if len(positions) > 1 else "it"
    word = kind.word(value)
    does = "fills" if value == FILLED and word == "filled" else \
        "leaves" if word == "empty" else "paints"
    tail = "" if does == "fills" else " empty" if does == "leaves" else f" {word}"
    if n is None:
        return (f"working through the whole line from both ends, every way to place the clue "
                f"that fits the cells already known {does} {them}{tail}")
    ways = "the only way" if n == 1 else f"all {n} ways"
    return (f"working through the whole line from both ends, {ways} to place the clue that "
            f"fit the cells already known {does if n == 1 else does[:-1]} {them}{tail}")
