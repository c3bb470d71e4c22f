"""Is the position at an end (no solution, solved, a mistake)? The engine's verdict, kept."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import replace

from gridsolve.errors import LimitReached
from gridsolve.nonogram.engine import Result, SearchLimits, abilities, analyse, passed
from gridsolve.nonogram.hints.position import Hint, _Position, _rows, wrong_cells
from gridsolve.nonogram.hints.probes import _follow
from gridsolve.nonogram.model import UNKNOWN, AnyPuzzle, Grid, is_any_solution

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
    wrong = wrong_cells(solution, pos.symbols()) if solution else ()
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
    unknowns = pos.kind.unknowns(pos.cells)
    if solution is None and unknowns < len(pos.cells):
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
    if not unknowns:
        if is_any_solution(pos.puzzle, _rows(pos)):
            return Hint("solved", "every row and column matches its clue")
        return Hint("mistake", "every cell is set but some line does not match its clue")
    return None


def _fits_no_solution(pos: _Position, solutions: Sequence[Grid], limits: SearchLimits,
                      until: float | None, share: float) -> bool:
    """Is it proven that no solution agrees with the set cells? Only when none of the known
    ``solutions`` does, and a search with the set cells fixed ends without a solution within
    ``limits``' nodes and memory and ``share`` of the time left before ``until``: SAT when
    python-sat is installed (the ``sat`` extra; its conflicts are the nodes), else the native
    engine (one search from the set cells). Never for an engine that takes no known cells
    (``Abilities.known``; both engines take them now)."""
    symbols = pos.symbols()
    if (not abilities(pos.puzzle).known or all(v == UNKNOWN for v in symbols)
            or any(not wrong_cells(s, symbols) for s in solutions)):
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


_kept: OrderedDict[tuple[AnyPuzzle, SearchLimits], Result] = OrderedDict()
_kept_lock = threading.Lock()


def _solve(puzzle: AnyPuzzle, limits: SearchLimits) -> Result:
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


def _broken_line(pos: _Position, until: float | None = None) -> tuple[int | None, bool]:
    """A line whose set cells leave no room for its clue, the cheapest to solve first (a
    line with none set fits: the model refuses a clue longer than its line); and False if
    the clock (``until``) stopped the look first (each solve reads it, and a long one stops
    when it passes)."""
    unknowns = pos.kind.unknowns
    for i in pos.cheap_first():
        line = pos.line(i)
        if unknowns(line) == len(line):
            continue
        try:
            if pos.kind.solve(pos.clues[i], line, until) is None:
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

