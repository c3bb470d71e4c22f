"""The next step a person could take from a partly filled grid, with its reason in words.

Glossary
    position  a partial grid: '#' filled, '.' empty, '?' not yet decided
    step      cells one piece of reasoning sets, with the line (and clue) that forces them
    probe     assume one cell, follow line logic; if some line then cannot fit its clue,
              the cell is the other value (a contradiction)

Steps are tried simplest first, and the first kind that settles a cell is the hint:

    line           one line's named rule (overlap, reach, a complete block, a short gap), in
                   the words of ``explain``
    whole-line     one line, but only the whole-line view settles it: every arrangement of the
                   clue that fits the known cells, worked from both ends, agrees
    contradiction  a probe: the fewest line solves that end in a line that cannot fit
    guess          nothing smaller settles a cell; for a unique puzzle, one cell of the
                   solution is shown so play can go on

Before any of them the position is checked: a line that cannot fit its clue, or (for a puzzle
with a unique solution, proven by the engine) set cells that differ from the solution, give a
``mistake`` with the wrong cells; with several solutions, set cells that no solution agrees
with (line logic from them reaching a dead end, or a search with them fixed finding no
solution: SAT when python-sat is installed, else the native engine) give a ``mistake`` that
cannot name them. ``solved``
and ``no-solution`` end the list of kinds.
The compiled line solver finds the lines that can move and the cells they settle (it is fast,
and gives the same lines as the plain-Python reference: tests check both against brute force);
the reasons for a line's cells are ``explain``'s words. Probes follow line logic with the
compiled solver. Every part of a hint after its solve watches the clock: the timeout holds
on any board.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict, deque
from collections.abc import Sequence
from dataclasses import dataclass, replace
from operator import itemgetter
from typing import Any, Literal

from gridsolve.errors import LimitReached
from gridsolve.nonogram.engine import Result, SearchLimits, analyse, passed
from gridsolve.nonogram.engine import solve_line as fast_line
from gridsolve.nonogram.watch.explain import (AGREE, Forced, explainable, line_reasons,
                                             line_work)
from gridsolve.nonogram.lines import (VALUE_WORD, cell_label, clue_text, line_cells, line_clue,
                                      line_label, spans)
from gridsolve.nonogram.model import EMPTY, FILLED, UNKNOWN, Clue, Grid, Puzzle, is_solution

__all__ = ["Hint", "HintKind", "hint", "check_position", "wrong_cells", "count_fits", "apply_hint",
           "MAX_PROBE_SOLVES", "KINDS"]

HintKind = Literal["line", "whole-line", "contradiction", "guess", "solved", "mistake",
                   "no-solution"]
#: The kinds of step, simplest first (the ends follow).
KINDS: tuple[HintKind, ...] = ("line", "whole-line", "contradiction", "guess", "solved",
                               "mistake", "no-solution")

#: Line solves (compiled) all probes of one hint may spend together before the hint says
#: the position needs a guess; the guess's words then say no *short* contradiction was found.
MAX_PROBE_SOLVES = 200_000
#: Line logic from a position of a puzzle without a unique solution, looking for a dead end,
#: solves each line at most this many times over (on average).
DEAD_END_SWEEPS = 20
#: Puzzles whose solve is kept between hints.
SOLVES_KEPT = 32
#: The share of a hint's timeout its solve may take (the check for mistakes). With several
#: solutions, a SAT search with the set cells fixed may take half of what is left (all of it
#: in ``check_position``); the probes that look for a contradiction have the rest.
SOLVE_SHARE = 0.5
#: The share of the time left after the solve that a hint's SAT check of the set cells takes.
SAT_CHECK_SHARE = 0.5
#: A contradiction's chain names at most this many lines, then "and N more".
CHAIN_SHOWN = 4

Cell = tuple[int, str]  # (cell index r*W + c, value)


#: Said after a step when the solve that would name wrong cells, or the look for a line the
#: cells set break, stopped at a limit.
UNCHECKED = "the cells set so far could not be checked for mistakes: a limit came first"


@dataclass(frozen=True)
class Hint:
    """One step: its kind, the reason in words, and what it sets.

    ``cells`` are (index r*W + c, value) pairs the step sets; ``line`` is the line that forces
    them (for a contradiction or a mistake, the line that cannot fit); ``probe`` the assumed
    (cell, value) of a contradiction; ``forced`` the per-cell reasons of a line step (positions
    along the line); ``wrong`` the set cells that differ from the unique solution."""

    kind: HintKind
    reason: str
    cells: tuple[Cell, ...] = ()
    line: int = -1
    clue: Clue = ()
    probe: Cell | None = None
    forced: tuple[Forced, ...] = ()
    wrong: tuple[int, ...] = ()

    def as_json(self, width: int) -> dict[str, Any]:
        """The step as JSON: cells as {row, col, value} (from 0), the wrong cells as {row, col}."""
        def where(c: int) -> dict[str, int]:
            return {"row": c // width, "col": c % width}
        return {"kind": self.kind, "reason": self.reason,
                "cells": [dict(where(c), value=v) for c, v in self.cells],
                "line": self.line, "clue": list(self.clue),
                "probe": dict(where(self.probe[0]), value=self.probe[1]) if self.probe else None,
                "wrong": [where(c) for c in self.wrong]}


def _other(value: str) -> str:
    return EMPTY if value == FILLED else FILLED


class _Position:
    """The puzzle's lines over a mutable copy of the position's cells."""

    def __init__(self, puzzle: Puzzle, grid: Grid) -> None:
        self.puzzle = puzzle
        self.cells = list("".join(grid))
        self.lines = [line_cells(puzzle, i) for i in range(puzzle.height + puzzle.width)]
        self.clues = [line_clue(puzzle, i) for i in range(len(self.lines))]
        self._take = [itemgetter(*cells) for cells in self.lines]

    def cheap_first(self) -> list[int]:
        """The lines, those with the smallest solver tables (cells times blocks) first: a
        look over every line that the clock stops has then looked at the most lines (one
        row of 100,000 cells, half of them set, takes seconds to solve)."""
        return sorted(range(len(self.lines)), key=lambda i: line_work(self.clues[i], self.lines[i]))

    def line(self, i: int, cells: Sequence[str] | None = None) -> str:
        return "".join(self._take[i](self.cells if cells is None else cells))

    def crossing(self, cell: int) -> tuple[int, int]:
        """The row and the column through a cell."""
        w = self.puzzle.width
        return cell // w, self.puzzle.height + cell % w

    def name(self, i: int) -> str:
        """'row 3 (clue 3 1)'."""
        return f"{line_label(self.puzzle, i)} (clue {clue_text(self.clues[i])})"


def hint(puzzle: Puzzle, grid: Sequence[str] | None = None, *,
         limits: SearchLimits = SearchLimits(timeout=10.0),
         max_probe_solves: int = MAX_PROBE_SOLVES) -> Hint:
    """The next step from this position (None: the empty board), simplest kind first.

    ``limits`` bound the engine's solve that proves the solution unique (so mistakes can be
    named; it may take ``SOLVE_SHARE`` of the timeout) and the SAT check of the set cells,
    and their timeout the whole hint; ``max_probe_solves`` bounds the search for a
    contradiction."""
    until = limits.deadline()
    pos = _Position(puzzle, _clean(puzzle, grid))
    result = _solve(puzzle, _solve_limits(limits))
    end, checked = _verdict(pos, result, limits, until, SAT_CHECK_SHARE)
    if end is not None:
        return end
    solution = result.solutions[0] if result.status == "unique" else None
    step, late = _line_step(pos, until)
    if step is None and not late:
        step, probes_late = _contradiction(pos, solution, max_probe_solves, until)
        late = "probes" if probes_late else ""
    step = step or _guess(pos, result.solutions, result.status, late)
    if ((result.status == "unknown" or not checked)
            and step.kind in ("line", "whole-line", "contradiction")):
        # sound from the cells set, but those were not (all) checked
        step = replace(step, reason=f"{step.reason} ({UNCHECKED})")
    return step


def check_position(puzzle: Puzzle, grid: Sequence[str] | None, *,
                   limits: SearchLimits = SearchLimits(timeout=10.0)) -> Hint | None:
    """Only the check of ``hint``: a ``mistake`` (with the wrong cells), ``solved`` or
    ``no-solution``; None when the position is right so far. LimitReached when the solve
    that would name wrong cells stopped at a limit and line logic found no mistake either:
    "right so far" would then be a guess. The timeout covers the solve (``SOLVE_SHARE`` of
    it) and the SAT check of the set cells together."""
    until = limits.deadline()
    result = _solve(puzzle, _solve_limits(limits))
    verdict, checked = _verdict(_Position(puzzle, _clean(puzzle, grid)), result, limits, until,
                                1.0)
    if verdict is None and result.status == "unknown":
        raise LimitReached("the solve that checks the position stopped at its limit before "
                           "it knew the solution", partial=result.partial, nodes=result.nodes)
    if verdict is None and not checked:
        raise LimitReached("the time limit came before every line of the position was "
                           "checked", partial=result.partial, nodes=result.nodes)
    return verdict


def _solve_limits(limits: SearchLimits) -> SearchLimits:
    """The limits of the solve that checks for mistakes: ``SOLVE_SHARE`` of the timeout."""
    return limits if limits.timeout is None else replace(limits,
                                                         timeout=limits.timeout * SOLVE_SHARE)


def _verdict(pos: _Position, result: Result, limits: SearchLimits = SearchLimits(),
             until: float | None = None, share: float = 1.0) -> tuple[Hint | None, bool]:
    """The end of the list of kinds, if the position is at one; and False when the clock
    (``until``) stopped the look for a line the set cells break before it was done.

    With a unique solution, set cells that differ from it are the mistake (the lines they
    break are named if the clock allows); cells that agree with it break no line. Without
    one, each line with set cells is solved to find one that cannot fit; with several
    solutions the set cells are also a mistake when line logic from them reaches a dead end
    (looked for in ``share`` of the time left before ``until``), or when a SAT search with
    them fixed finds no solution (SAT, or the native engine without python-sat; within
    ``limits``' nodes and memory and ``share`` of the time left then)."""
    if result.status == "none":
        return Hint("no-solution", "the clues contradict each other: this puzzle has no "
                                   "solution"), True
    solution = result.solutions[0] if result.status == "unique" else None
    wrong = wrong_cells(solution, pos.cells) if solution else ()
    broken, checked = None, True
    if solution is None or wrong:
        broken, checked = _broken_line(pos, until)
    if broken is not None or wrong:
        return _mistake(pos, broken, wrong, solution is not None), True
    if not checked:
        return None, False
    return _verdict_past_lines(pos, result, solution, limits, until, share), True


def _verdict_past_lines(pos: _Position, result: Result, solution: Grid | None,
                        limits: SearchLimits, until: float | None, share: float) -> Hint | None:
    """``_verdict`` past the line check (``solution``: the unique one, if it is): a dead end
    or no fitting solution (several solutions), ``solved``, a full grid that breaks a line,
    or None."""
    if solution is None and any(v != UNKNOWN for v in pos.cells):
        # (on the empty board this would repeat the line logic the solve starts with)
        end = _follow(pos, list(pos.cells), range(len(pos.lines)),
                      DEAD_END_SWEEPS * len(pos.lines), _share_of(until, share))
        if isinstance(end, tuple):
            return Hint("mistake", f"the cells set cannot all be right: line logic from them "
                                   f"reaches {pos.name(end[0])}, which cannot fit its clue "
                                   "(the puzzle has more than one solution, so the cells are "
                                   "not compared with one)", line=end[0], clue=pos.clues[end[0]])
        if (result.status == "multiple"
                and _fits_no_solution(pos, result.solutions, limits, until, share)):
            return Hint("mistake", "the cells set fit none of the puzzle's solutions (a search "
                                   "with them fixed finds none; the puzzle has more than one "
                                   "solution, so the wrong cells are not named)")
    if UNKNOWN not in pos.cells:
        if is_solution(pos.puzzle, _rows(pos)):
            return Hint("solved", "every row and column matches its clue")
        return Hint("mistake", "every cell is set but some line does not match its clue")
    return None


def _fits_no_solution(pos: _Position, solutions: Sequence[Grid], limits: SearchLimits,
                      until: float | None, share: float) -> bool:
    """Is it proven that no solution agrees with the set cells? Only when none of the known
    ``solutions`` does, and a search with the set cells fixed ends without a solution within
    ``limits``' nodes and memory and ``share`` of the time left before ``until``: SAT when
    python-sat is installed (the ``sat`` extra; its conflicts are the nodes), else the native
    engine (one search from the set cells)."""
    if (all(v == UNKNOWN for v in pos.cells)
            or any(not wrong_cells(s, pos.cells) for s in solutions)):
        return False
    from gridsolve.errors import SolverUnavailable
    from gridsolve.nonogram.backends import sat

    by = _share_of(until, share)
    if passed(by):
        return False
    try:
        sat.require()
    except SolverUnavailable:
        found = analyse(pos.puzzle, 1, limits.until(by), team=False, known=_rows(pos))
        return found.status == "none"
    try:
        found = sat.analyse(pos.puzzle, 1, limits.until(by), known=_rows(pos))
    except LimitReached:  # the model is over the memory limit
        return False
    return found.status == "none"


def _share_of(until: float | None, share: float) -> float | None:
    """The clock time by which ``share`` of what is left before ``until`` has passed."""
    if until is None:
        return None
    now = time.perf_counter()
    return now + max(0.0, until - now) * share


_kept: OrderedDict[tuple[Puzzle, SearchLimits], Result] = OrderedDict()
_kept_lock = threading.Lock()


def _solve(puzzle: Puzzle, limits: SearchLimits) -> Result:
    """The engine's verdict on a puzzle (up to two solutions), the last SOLVES_KEPT kept: a
    player asks for many hints on one puzzle. A verdict a limit stopped ("unknown") is not
    kept: the next ask, on a less busy server, solves again."""
    key = (puzzle, limits)
    with _kept_lock:
        if key in _kept:
            _kept.move_to_end(key)
            return _kept[key]
    result = analyse(puzzle, 2, limits)
    if result.status != "unknown":
        with _kept_lock:
            _kept[key] = result
            while len(_kept) > SOLVES_KEPT:
                _kept.popitem(last=False)
    return result


def _clean(puzzle: Puzzle, grid: Sequence[str] | None) -> Grid:
    """The position as rows of '#', '.', '?' ('x' and 'X' read as empty)."""
    if grid is None:
        return tuple(UNKNOWN * puzzle.width for _ in range(puzzle.height))
    rows = tuple(row.replace("x", EMPTY).replace("X", EMPTY) for row in grid)
    if len(rows) != puzzle.height or any(len(r) != puzzle.width for r in rows):
        raise ValueError(f"the grid must be {puzzle.height} rows of {puzzle.width} cells")
    if set("".join(rows)) - {FILLED, EMPTY, UNKNOWN}:
        raise ValueError("grid cells must be '#', '.', 'x' or '?'")
    return rows


def _rows(pos: _Position) -> Grid:
    w = pos.puzzle.width
    return tuple("".join(pos.cells[i:i + w]) for i in range(0, len(pos.cells), w))


def wrong_cells(solution: Sequence[str], cells: Sequence[str]) -> tuple[int, ...]:
    """The set cells (index r*W + c) that differ from the solution."""
    flat = "".join(solution)
    return tuple(i for i, (v, s) in enumerate(zip(cells, flat)) if v != UNKNOWN and v != s)


def _broken_line(pos: _Position, until: float | None = None) -> tuple[int | None, bool]:
    """A line whose set cells leave no room for its clue, the cheapest to solve first (a
    line with none set fits: the model refuses a clue longer than its line); and False if
    the clock (``until``) stopped the look first (each solve reads it, and a long one stops
    when it passes)."""
    for i in pos.cheap_first():
        line = pos.line(i)
        if line.count(UNKNOWN) == len(line):
            continue
        try:
            if fast_line(pos.clues[i], line, until=until) is None:
                return i, True
        except LimitReached:
            return None, False
    return None, True


def _mistake(pos: _Position, broken: int | None, wrong: tuple[int, ...], unique: bool) -> Hint:
    """The position contradicts the clues (a line cannot fit) or the unique solution."""
    parts = []
    if broken is not None:
        parts.append(f"{pos.name(broken)} cannot fit its clue with the cells set in it")
    if wrong:
        n = len(wrong)
        parts.append(f"{n} of the cells set {'do' if n > 1 else 'does'} not match the solution")
    elif not unique:
        parts.append("(the puzzle has more than one solution, so only the lines are checked)")
    return Hint("mistake", "; ".join(parts), line=-1 if broken is None else broken,
                clue=() if broken is None else pos.clues[broken], wrong=wrong)


# --- one line ---------------------------------------------------------------------------------


def _line_step(pos: _Position, until: float | None = None) -> tuple[Hint | None, str]:
    """The line whose named rules settle the most cells; else the one the whole-line view
    settles most in; None when line logic is stuck. And "lines" when the clock (``until``)
    stopped the look at the lines before any moved (else "").

    The compiled solver finds the lines that move, the cheapest lines first (on a board of
    1000x1000 this takes seconds, so the clock is watched, in each solve too); their
    reasons (plain Python) are worked out for the lines that change the most cells first,
    until no line left could settle more cells by a named rule, or the clock runs out: then
    the best line seen is the step (the first line's reasons are always worked out)."""
    moves: list[tuple[int, int, str, str]] = []
    for i in pos.cheap_first():
        before = pos.line(i)
        if UNKNOWN not in before:
            continue
        try:
            after = fast_line(pos.clues[i], before, until=until)
        except LimitReached:
            if not moves:
                return None, "lines"
            break
        if after is None or after == before:
            continue
        moves.append((-sum(a != b for a, b in zip(before, after)), i, before, after))
    moves.sort(key=lambda m: m[:2])
    named: tuple[int, int, tuple[Forced, ...]] | None = None
    whole: tuple[int, int, tuple[Forced, ...]] | None = None
    for n, (most, i, before, after) in enumerate(moves):
        if named is not None and named[:2] < (most, i):
            break  # no line left can settle more cells by a named rule
        if n and passed(until):
            break
        forced = line_reasons(pos.clues[i], before, after)
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


def _line_hint(pos: _Position, kind: HintKind, i: int, forced: tuple[Forced, ...]) -> Hint:
    """A line step: which cells, and why (grouped by value and reason)."""
    where = pos.lines[i]
    unit = "columns" if i < pos.puzzle.height else "rows"
    groups: dict[tuple[str, str], list[int]] = {}
    for f in forced:
        groups.setdefault((f.value, f.reason), []).append(f.pos)
    said = []
    for (value, reason), positions in groups.items():
        if reason == AGREE:
            reason = _whole_line_reason(pos.clues[i], pos.line(i), value, positions)
        many = len(positions) > 1
        reason = reason.replace("covers it", "covers them").replace("reach it", "reach them") \
            if many else reason
        label = f"{unit if many else unit[:-1]} {spans(positions)}"
        said.append(f"{label} {'are' if many else 'is'} {VALUE_WORD[value]}: {reason}")
    return Hint(kind, f"{pos.name(i)}: " + "; ".join(said),
                tuple((where[f.pos], f.value) for f in forced), i, pos.clues[i], forced=forced)


def _whole_line_reason(clue: Clue, line: str, value: str, positions: list[int]) -> str:
    """'of the 3 ways to place the clue that fit the known cells, every one leaves them empty'
    (on a line too long to explain, the ways are not counted: 'every way')."""
    n = count_fits(clue, line) if explainable(clue, line) else None
    them = "them" if len(positions) > 1 else "it"
    does = "fills" if value == FILLED else "leaves"
    tail = "" if value == FILLED else " empty"
    if n is None:
        return (f"working through the whole line from both ends, every way to place the clue "
                f"that fits the cells already known {does} {them}{tail}")
    ways = "the only way" if n == 1 else f"all {n} ways"
    return (f"working through the whole line from both ends, {ways} to place the clue that "
            f"fit the cells already known {does if n == 1 else does[:-1]} {them}{tail}")


def count_fits(clue: Clue, line: str) -> int:
    """How many arrangements of the clue agree with the known cells of a line (by DP).

    ways[j][i]: arrangements of blocks j.. in cells [i, n) that agree with the line."""
    n, k = len(line), len(clue)
    ways = [[0] * (n + 1) for _ in range(k + 1)]
    for i in range(n, -1, -1):
        ways[k][i] = int(FILLED not in line[i:])
    for j in range(k - 1, -1, -1):
        size = clue[j]
        for i in range(n - 1, -1, -1):
            total = ways[j][i + 1] if line[i] != FILLED else 0
            end = i + size
            if end <= n and EMPTY not in line[i:end]:
                if end == n:
                    total += ways[j + 1][n]
                elif line[end] != FILLED:
                    total += ways[j + 1][end + 1]
            ways[j][i] = total
    return ways[0][0]


# --- contradictions ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Refuted:
    """A probe that ended in a line that cannot fit: the lines it changed on the way."""

    cell: int
    value: str
    line: int
    chain: tuple[int, ...]
    solves: int


def _probe(pos: _Position, cell: int, value: str, budget: int,
           until: float | None = None) -> _Refuted | bool:
    """Assume ``cell`` is ``value`` and follow line logic (first in, first out) for at most
    ``budget`` line solves (and until ``until``): the refutation, True at a fixpoint, False
    out of budget or time."""
    cells = list(pos.cells)
    cells[cell] = value
    out = _follow(pos, cells, pos.crossing(cell), budget, until)
    if isinstance(out, tuple):
        line, chain, solves = out
        return _Refuted(cell, value, line, chain, solves)
    return out


def _follow(pos: _Position, cells: list[str], start: Sequence[int], budget: int,
            until: float | None = None) -> tuple[int, tuple[int, ...], int] | bool:
    """Line logic on ``cells`` from the lines ``start``, first in, first out, for at most
    ``budget`` line solves and until the clock passes ``until`` (each solve reads it):
    (the line that cannot fit, the lines changed on the way, the solves), True at a
    fixpoint, False out of budget or time."""
    queue = deque(start)
    queued = set(queue)
    chain: list[int] = []
    solves = 0
    while queue:
        if solves >= budget:
            return False
        i = queue.popleft()
        queued.discard(i)
        solves += 1
        before = pos.line(i, cells)
        try:
            after = fast_line(pos.clues[i], before, until=until)
        except LimitReached:
            return False
        if after is None:
            return i, tuple(chain), solves
        if after == before:
            continue
        chain.append(i)
        for c, a, b in zip(pos.lines[i], before, after):
            if a != b:
                cells[c] = b
                for j in pos.crossing(c):
                    if j != i and j not in queued:
                        queue.append(j)
                        queued.add(j)
    return True


def _contradiction(pos: _Position, solution: Grid | None, max_solves: int,
                   until: float | None = None) -> tuple[Hint | None, bool]:
    """The probe refuted in the fewest line solves (budgets doubling: 2, 4, 8, ...), unless
    ``max_solves`` or the clock (``until``) runs out first; and whether the clock did.

    With a unique solution only the wrong value of each cell can be refuted, so only it is
    tried; otherwise both are."""
    if passed(until):
        return None, True
    unknown = [c for c, x in enumerate(pos.cells) if x == UNKNOWN]
    if solution:
        flat = "".join(solution)
        todo = [(c, EMPTY if flat[c] == FILLED else FILLED) for c in unknown]
    else:
        todo = [(c, v) for c in unknown for v in (FILLED, EMPTY)]
    budget, spent = 2, 0
    while todo and spent < max_solves:
        found: list[_Refuted] = []
        waiting = []
        for cell, value in todo:
            if passed(until):
                return None, True
            out = _probe(pos, cell, value, budget, until)
            spent += out.solves if isinstance(out, _Refuted) else budget
            if isinstance(out, _Refuted):
                found.append(out)
            elif out is False:
                waiting.append((cell, value))
        if found:
            best = min(found, key=lambda r: (r.solves, r.cell))
            return _contradiction_hint(pos, best), False
        todo, budget = waiting, budget * 2
    return None, passed(until)


def _contradiction_hint(pos: _Position, r: _Refuted) -> Hint:
    """'if r7c3 were filled, column 3 (clue 2 1) could not fit, so r7c3 is empty'."""
    where = cell_label(pos.puzzle, r.cell)
    then = ""
    if r.chain:
        names = [line_label(pos.puzzle, i) for i in r.chain[:CHAIN_SHOWN]]
        more = len(r.chain) - CHAIN_SHOWN
        listed = ", ".join(names) + (f" and {more} more" if more > 0 else "")
        then = f", line logic on {listed} would follow, and"
    actual = _other(r.value)
    reason = (f"if {where} were {VALUE_WORD[r.value]}{then} {pos.name(r.line)} could not fit "
              f"its clue; so {where} is {VALUE_WORD[actual]}")
    return Hint("contradiction", reason, ((r.cell, actual),), r.line, pos.clues[r.line],
                probe=(r.cell, r.value))


# --- a guess ----------------------------------------------------------------------------------


#: What a guess says when the clock stopped the look at the lines, or at the probes (then a
#: step may exist); and when neither was stopped.
LATE = {"lines": "the time limit came before every line was tried for a step",
        "probes": "no single line settles a cell here, and the time limit came before a "
                  "contradiction was found",
        "": "no single line and no short contradiction settles a cell here: this position "
            "needs a guess"}


def _guess(pos: _Position, solutions: tuple[Grid, ...], status: str, late: str = "") -> Hint:
    """No line and no short contradiction settles a cell: say so (or that the time limit came
    first, ``late`` being "lines" or "probes": then a step may exist), and show one cell of a
    solution that agrees with the position (in the most constrained line) so play goes on."""
    base = LATE[late]
    fitting = [s for s in solutions if not wrong_cells(s, pos.cells)]
    if not fitting:
        why = "the search stopped first" if status == "unknown" else "no solution found agrees"
        return Hint("guess", f"{base} ({why})")
    flat = "".join(fitting[0])
    known = [pos.line(i).count(UNKNOWN) for i in range(len(pos.lines))]
    cell = min((c for c, x in enumerate(pos.cells) if x == UNKNOWN),
               key=lambda c: (min(known[i] for i in pos.crossing(c)), c))
    one = "the solution" if status == "unique" else "one of the solutions"
    return Hint("guess", f"{base}; {one} has {cell_label(pos.puzzle, cell)} "
                         f"{VALUE_WORD[flat[cell]]}", ((cell, flat[cell]),))


def apply_hint(grid: Sequence[str], step: Hint) -> Grid:
    """The position after the step's cells are set."""
    width = len(grid[0]) if grid else 0
    cells = list("".join(grid))
    for c, v in step.cells:
        cells[c] = v
    return tuple("".join(cells[i:i + width]) for i in range(0, len(cells), width))
