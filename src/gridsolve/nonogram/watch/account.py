"""The text of ``gridsolve nonogram explain``: an explanation's deductions, round by round."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from gridsolve.nonogram.lines import VALUE_WORD, cell_label, clue_text, line_clue, line_label, spans
from gridsolve.nonogram.model import UNKNOWN, AnyPuzzle, ColourPuzzle, Grid
from gridsolve.nonogram.watch.colour_reasons import colour_clue_text, colour_names
from gridsolve.nonogram.watch.steps import plural

if TYPE_CHECKING:
    from gridsolve.nonogram.watch.explain import Deduction, Explanation

__all__ = ["Narration", "explanation_lines"]

PLURAL_REASON = (("covers it", "covers them"), ("reach it", "reach them"))


def _forced_lines(puzzle: AnyPuzzle, d: Deduction, word: Callable[[str], str]) -> list[str]:
    """'cols 2-4 filled: <reason>' for each group of cells forced for the same reason; in
    colour also 'cols 5-6 not red: <reason>' for the colours taken away."""
    unit = "col" if d.line < puzzle.height else "row"
    out = []
    for forced, prefix in ((d.forced, ""), (d.ruled_out, "not ")):
        groups: dict[tuple[str, str], list[int]] = {}
        for f in forced:
            groups.setdefault((f.value, f.reason), []).append(f.pos)
        for (value, reason), positions in groups.items():
            if len(positions) > 1:
                for one, many in PLURAL_REASON:
                    reason = reason.replace(one, many)
            out.append(f"{unit}{'s' if len(positions) > 1 else ''} {spans(positions)} "
                       f"{prefix}{word(value)}: {reason}")
    return out


class Narration:
    """The account's text as it is made: ``lines`` for each deduction in turn (it keeps the
    grid they reach, the round and whether probing has begun), then ``ending``. ``explain``
    can hand each deduction over as it finds it, so its text is written as it goes."""

    def __init__(self, puzzle: AnyPuzzle) -> None:
        self.puzzle = puzzle
        self.colour = isinstance(puzzle, ColourPuzzle)
        if isinstance(puzzle, ColourPuzzle):
            names = colour_names(puzzle)
            index = {c.symbol: i for i, c in enumerate(puzzle.palette)}
            self.word: Callable[[str], str] = lambda v: names[index[v]]
            self.clue: Callable[[int], str] = lambda i: colour_clue_text(
                names, puzzle.rows[i] if i < puzzle.height else puzzle.cols[i - puzzle.height])
        else:
            bw = puzzle
            self.word = VALUE_WORD.__getitem__
            self.clue = lambda i: clue_text(line_clue(bw, i))
        self.cells = [UNKNOWN] * (puzzle.width * puzzle.height)
        self.round = 0
        self.probing = False

    def lines(self, d: Deduction) -> list[str]:
        """The lines of one deduction (with a heading when a round or the probing begins)."""
        puzzle, cells, out = self.puzzle, self.cells, []
        if d.kind == "probe":
            if not self.probing:
                out.append(f"Line logic stalls with {cells.count(UNKNOWN)} of {len(cells)} "
                           "cells unknown; the engine probes cells (tries each value and "
                           "follows the lines):")
                self.probing = True
            where, value = cell_label(puzzle, d.cell), self.word(d.value)
            if self.colour:
                out.append(f"probe {where}: with any other colour some line could not be "
                           f"satisfied, so it is {value}")
            elif d.contradiction:
                other = VALUE_WORD["." if d.value == "#" else "#"]
                out.append(f"probe {where}: if it were {other}, some line could not be satisfied, "
                           f"so it is {value}")
            else:
                out.append(f"probe {cell_label(puzzle, d.probed)}: both of its values make {where} "
                           f"{value}, so it is {value}")
            cells[d.cell] = d.value
            self.round = 0
            return out
        if d.round != self.round:
            self.round = d.round
            out.append(f"Round {d.round}")
        label = f"{line_label(puzzle, d.line)}, clue {self.clue(d.line)}"
        if d.kind == "contradiction":
            out.append(f"  {label}: the clue cannot fit the line as it stands ('{d.before}'), "
                       "so the puzzle has no solution")
            return out
        out.append(f"  {label}")
        out += [f"    {text}" for text in _forced_lines(puzzle, d, self.word)]
        _apply(cells, puzzle.width, puzzle.height, d)
        return out

    def ending(self, account: Explanation) -> list[str]:
        """The closing sentence of the finished account, after a blank line."""
        return ["", _ending(account, self.cells.count(UNKNOWN))]


def explanation_lines(account: Explanation, show_grid: Callable[[Grid], str]) -> list[str]:
    """The account as lines of text; ``show_grid`` draws a grid (for the grid it ends on)."""
    narration = Narration(account.puzzle)
    out = [line for d in account.deductions for line in narration.lines(d)]
    return out + narration.ending(account) + ["", show_grid(account.grid)]


def _apply(cells: list[str], width: int, height: int, d: Deduction) -> None:
    for pos, value in enumerate(d.after):
        cell = d.line * width + pos if d.line < height else pos * width + (d.line - height)
        cells[cell] = value


def _ending(account: Explanation, unknown: int) -> str:
    """How the account ends, in one sentence."""
    lines = sum(d.kind == "line" for d in account.deductions)
    rounds = max((d.round for d in account.deductions), default=0)
    probes = sum(d.kind == "probe" for d in account.deductions)
    if account.stopped:
        return (f"The time limit came first: the account stops here, with {unknown} of "
                f"{account.puzzle.width * account.puzzle.height} cells unknown.")
    if account.line_solvable:
        return (f"Solved by line logic alone: {plural(rounds, 'round')}, "
                f"{plural(lines, 'line step')}.")
    if any(d.kind == "contradiction" for d in account.deductions):
        return "No solution: line logic reaches a contradiction."
    if unknown == 0 and account.status == "unique":
        return (f"Solved by line logic with {plural(probes, 'cell')} learned by probing "
                f"({plural(lines, 'line step')}).")
    if account.status == "unknown":
        return (f"Line logic and probing stall with {unknown} cells unknown; the engine's search "
                f"reached its limit ({plural(account.guesses, 'guess', 'guesses')}) before it finished.")
    found = {"unique": "exactly one solution", "multiple": "more than one solution",
             "none": "no solution"}[account.status]
    return (f"Line logic and probing stall with {unknown} cells unknown; the engine had to "
            f"guess ({plural(account.guesses, 'guess', 'guesses')}) and found {found}.")
