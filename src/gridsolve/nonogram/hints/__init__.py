"""The next step a person could take from a partly filled grid, with its reason in words.

Glossary
    position  a partial grid: '#' filled, '.' empty, '?' not yet decided; in a colour puzzle
              the palette's symbols ('.' the background) and '?'
    step      cells one piece of reasoning sets, with the line (and clue) that forces them
    probe     assume one cell, follow line logic; if some line then cannot fit its clue,
              the cell is the other value (a contradiction)

Steps are tried simplest first, and the first kind that settles a cell is the hint:

    line           one line's named rule (overlap, reach, a complete block, a short gap), in
                   the words of ``explain``; in colour, when no line settles a cell alone, the
                   colours crossing lines take away first ('column 4 (clue ...) leaves r3c4
                   red or green; so row 3 ...': ``crossing``)
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

Black-and-white and colour puzzles take the same steps in the same words: what differs (the
line solver, a cell's states, how a value is said) is the puzzle's ``CellKind`` (``kinds``).
In colour a cell is settled when one colour is left; a line that only takes colours away
settles no cell and is no line step of its own (the crossing step names it).

Modules: ``kinds`` (the line solver and words of each kind of cell), ``position`` (a step,
the position), ``verdict`` (the ends: a mistake, solved, no solution), then one per kind of
step: ``line_step``, ``crossing`` (colour lines helped by crossing lines), ``probes``
(contradictions), ``guess``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from gridsolve.errors import LimitReached
from gridsolve.nonogram.engine import SearchLimits
from gridsolve.nonogram.hints.crossing import _crossing_step
from gridsolve.nonogram.hints.guess import LATE as LATE
from gridsolve.nonogram.hints.guess import _guess
from gridsolve.nonogram.hints.line_step import _line_step as _line_step
from gridsolve.nonogram.hints.line_step import count_fits
from gridsolve.nonogram.hints.position import KINDS, Hint, HintKind, apply_hint, wrong_cells
from gridsolve.nonogram.hints.position import _clean, _Position as _Position
from gridsolve.nonogram.hints.probes import MAX_PROBE_SOLVES
from gridsolve.nonogram.hints.probes import _contradiction as _contradiction
from gridsolve.nonogram.hints.verdict import SOLVE_SHARE as SOLVE_SHARE
from gridsolve.nonogram.hints.verdict import SAT_CHECK_SHARE, _solve_limits, _verdict
from gridsolve.nonogram.hints.verdict import _solve as _solve  # looked up here: tests patch it
from gridsolve.nonogram.hints.verdict import _broken_line as _broken_line
from gridsolve.nonogram.hints.verdict import _kept as _kept
from gridsolve.nonogram.model import AnyPuzzle

__all__ = ["Hint", "HintKind", "hint", "check_position", "wrong_cells", "count_fits", "apply_hint",
           "MAX_PROBE_SOLVES", "KINDS"]


#: Said after a step when the solve that would name wrong cells, or the look for a line the
#: cells set break, stopped at a limit.
UNCHECKED = "the cells set so far could not be checked for mistakes: a limit came first"


def hint(puzzle: AnyPuzzle, grid: Sequence[str] | None = None, *,
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
        step = _crossing_step(pos, until)
    if step is None and not late:
        step, probes_late = _contradiction(pos, solution, max_probe_solves, until)
        late = "probes" if probes_late else ""
    step = step or _guess(pos, result.solutions, result.status, late)
    if ((result.status == "unknown" or not checked)
            and step.kind in ("line", "whole-line", "contradiction")):
        # sound from the cells set, but those were not (all) checked
        step = replace(step, reason=f"{step.reason} ({UNCHECKED})")
    return step


def check_position(puzzle: AnyPuzzle, grid: Sequence[str] | None, *,
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

