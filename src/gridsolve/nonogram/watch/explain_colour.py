"""``explain`` for a colour puzzle: the same rounds of line logic, then what probing learned.

A cell is a mask of the colours it may still be (bit 0 the background). A line step settles
cells (one colour left; the reasons of ``colour_reasons``) and may take colours away from
cells it does not settle (``Deduction.ruled_out``). When line logic stalls, the cells the
colour engine settled at its root by probing (``analyse_colour``'s root masks) are applied one
at a time, each followed by line logic again, as black-and-white probes are.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable

from gridsolve.nonogram.engine import SearchLimits, analyse_colour, passed
from gridsolve.nonogram.engine.colour import solve_line
from gridsolve.nonogram.model import UNKNOWN, ColourPuzzle, Grid, is_colour_solution
from gridsolve.nonogram.watch.colour_reasons import (colour_line_reasons, colour_names,
                                                     colour_ruled_out)
from gridsolve.nonogram.watch.deductions import (AGREE, Deduction, Explanation, Forced,
                                                 Replay, explainable)

__all__ = ["explain_colour"]


def _settled(mask: int) -> bool:
    return mask & (mask - 1) == 0


class _ColourSolver(Replay[int]):
    """The replayed masks and the rounds of line logic over them."""

    puzzle: ColourPuzzle

    def __init__(self, puzzle: ColourPuzzle, account: Explanation, until: float | None,
                 on_step: Callable[[Deduction], object] | None) -> None:
        super().__init__(puzzle, account, until, on_step, (1 << len(puzzle.palette)) - 1)
        self.names = colour_names(puzzle)
        self.symbols = [c.symbol for c in puzzle.palette]
        self.clues = list(puzzle.rows) + list(puzzle.cols)

    def symbol(self, mask: int) -> str:
        return self.symbols[mask.bit_length() - 1] if _settled(mask) else UNKNOWN

    def shown(self, masks: list[int]) -> str:
        return "".join(self.symbol(m) for m in masks)

    def line_logic(self) -> bool:
        """Rounds of line solving until nothing changes; False on a contradiction; the
        account is marked ``stopped`` when the clock passes ``until`` between two lines."""
        while self.dirty:
            number = self.round + 1
            todo, self.dirty = sorted(self.dirty), set()
            for line in todo:
                if passed(self.until):
                    self.account.stopped = True
                    return True
                where, clue = self.lines[line], self.clues[line]
                before = [self.cells[i] for i in where]
                after = solve_line(clue, before)
                if after is None:
                    self.round = number
                    self.add(Deduction("contradiction", number, line, self.shown(before)))
                    return False
                if after != before:
                    self.round = number
                    self.add(self._step(number, line, before, after))
                    for pos, (a, b) in enumerate(zip(before, after)):
                        if a != b:
                            self.set(where[pos], b)
        return True

    def _step(self, number: int, line: int, before: list[int], after: list[int]) -> Deduction:
        """A line deduction: the cells settled (with reasons), the colours taken away."""
        clue = self.clues[line]
        named = (colour_line_reasons(clue, before, after, self.names)
                 if explainable(clue, before) else {})
        forced = tuple(Forced(i, self.symbol(b), named.get(i, AGREE))
                       for i, (a, b) in enumerate(zip(before, after))
                       if a != b and _settled(b))
        ruled = (colour_ruled_out(clue, before, after, self.names)
                 if explainable(clue, before) else [])
        return Deduction("line", number, line, self.shown(before), self.shown(after), forced,
                         ruled_out=tuple(Forced(i, self.symbols[c], why or AGREE)
                                         for i, c, why in ruled))

    def grid(self) -> Grid:
        w = self.puzzle.width
        cells = self.shown(self.cells)
        return tuple(cells[i:i + w] for i in range(0, len(cells), w))


def explain_colour(puzzle: ColourPuzzle, limits: SearchLimits = SearchLimits(),
                   on_step: Callable[[Deduction], object] | None = None) -> Explanation:
    """The account of a colour solve (see ``explain``, whose arguments these are)."""
    until = limits.deadline()
    account = Explanation(puzzle)
    solver = _ColourSolver(puzzle, account, until, on_step)
    ok = solver.line_logic()
    if not account.stopped:
        open_cells = not all(_settled(m) for m in solver.cells)
        account.line_solvable = ok and not open_cells
        if ok and open_cells:
            ok = _probed(puzzle, solver, account, limits.until(until))
    account.grid = solver.grid()
    if account.stopped:
        account.status, account.solutions = "unknown", ()
    elif not account.status:
        account.status = "unique" if ok and is_colour_solution(puzzle, account.grid) else "none"
        account.solutions = (account.grid,) if account.status == "unique" else ()
    return account


def _probed(puzzle: ColourPuzzle, solver: _ColourSolver, account: Explanation,
            limits: SearchLimits) -> bool:
    """Apply the cells the engine's root probing settled, one at a time, each followed by
    line logic; the engine's verdict on the puzzle. False on a contradiction."""
    result, root = analyse_colour(puzzle, 2, limits)
    account.status, account.solutions = result.status, result.solutions
    account.guesses = max(0, result.stats.get("nodes", 1) - 1)
    masks = array("I", root.masks) if len(root.masks) == 4 * len(solver.cells) else array("I")
    # (a search a limit stopped before its root ended keeps no masks: nothing is applied)
    ok = True
    for cell, mask in enumerate(masks):
        now = solver.cells[cell]
        if mask and _settled(mask) and not _settled(now) and now & mask:
            solver.add(Deduction("probe", solver.round, cell=cell, value=solver.symbol(mask),
                                 contradiction=True, probed=cell))
            solver.set(cell, mask)
            ok = solver.line_logic()
            if not ok or account.stopped:
                break
    return ok
