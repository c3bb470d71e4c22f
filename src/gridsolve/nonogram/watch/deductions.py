"""The account ``explain`` gives, as data: forced cells, deductions, the whole explanation.

Kept apart from the black-and-white and colour accounts that make them
(``explain``, ``explain_colour``) so that both can, without importing each other.
"""

from __future__ import annotations

from collections.abc import Callable, Sized
from dataclasses import dataclass, field
from typing import Generic, Literal, TypeVar

from gridsolve.nonogram.lines import line_cells
from gridsolve.nonogram.model import AnyPuzzle, Grid

__all__ = ["Forced", "Deduction", "Explanation", "line_work", "explainable", "block_name", "span",
           "REASONS_MAX_WORK", "AGREE", "Kind", "Replay"]

#: The fallback reason of a forced cell.
AGREE = "every arrangement of the clue that fits the known cells agrees"

Kind = Literal["line", "probe", "contradiction"]

#: Cells times blocks of one line past which its cells get the ``agree`` reason, without the
#: named rules (their tables take time and memory of that product in plain Python: about 1 s
#: at 300,000; a row of 30,000 cells half known ran for minutes to 1.7 GB).
REASONS_MAX_WORK = 200_000


def line_work(clue: Sized, line: Sized) -> int:
    """The cells times the blocks (plus one) of a line (its cells, or their indexes): the
    size of its solvers' tables."""
    return len(line) * (len(clue) + 1)


def explainable(clue: Sized, line: Sized) -> bool:
    """Is the line within REASONS_MAX_WORK (its rules, or a count of its arrangements, can
    be worked out in plain Python)?"""
    return line_work(clue, line) <= REASONS_MAX_WORK


@dataclass(frozen=True)
class Forced:
    """A cell a line step fixed: its position along the line (from 0), value and reason."""

    pos: int
    value: str
    reason: str


@dataclass(frozen=True)
class Deduction:
    """One step of the account: a line solved (with what it forced), a probe, or a dead end."""

    kind: Kind
    round: int = 0
    line: int = -1
    before: str = ""
    after: str = ""
    forced: tuple[Forced, ...] = ()
    cell: int = -1
    value: str = ""
    contradiction: bool = False
    probed: int = -1
    #: colours a colour line took away from cells it did not settle (``Forced.value`` is the
    #: symbol of the colour taken away)
    ruled_out: tuple[Forced, ...] = ()


@dataclass
class Explanation:
    """The account: deductions in order, the grid they reach, and how the solve ended."""

    puzzle: AnyPuzzle
    deductions: list[Deduction] = field(default_factory=list)
    grid: Grid = ()
    line_solvable: bool = False
    status: str = ""
    guesses: int = 0
    solutions: tuple[Grid, ...] = ()
    #: The timeout stopped the account before it was finished (status "unknown").
    stopped: bool = False


def block_name(j: int, k: int) -> str:
    """How a reason names block ``j`` (from 0) of ``k``: "the block", "the second block"."""
    if k == 1:
        return "the block"
    names = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
    return f"the {names[j] if j < len(names) else f'{j + 1}th'} block"


def span(start: int, size: int) -> str:
    """Cells ``start`` (from 0) onwards, ``size`` of them, as a reason names them: "3-5"."""
    return f"{start + 1}" if size == 1 else f"{start + 1}-{start + size}"


#: A replayed cell: a symbol (black and white) or a mask of the colours left (colour).
Value = TypeVar("Value")


class Replay(Generic[Value]):
    """The grid a line-logic explanation replays, of either kind: its cells (all ``unknown``
    at first), its lines, the lines to look at again, and the account its deductions go to
    (and to ``on_step`` as they come); the clock ``until`` stops it between two lines."""

    def __init__(self, puzzle: AnyPuzzle, account: Explanation, until: float | None,
                 on_step: Callable[[Deduction], object] | None, unknown: Value) -> None:
        self.puzzle = puzzle
        self.account = account
        self.until = until
        self.on_step = on_step
        self.cells = [unknown] * (puzzle.width * puzzle.height)
        self.lines = [line_cells(puzzle, i) for i in range(puzzle.width + puzzle.height)]
        self.dirty = set(range(len(self.lines)))
        self.round = 0

    def add(self, d: Deduction) -> None:
        """A deduction made: into the account, and to ``on_step`` as it comes."""
        self.account.deductions.append(d)
        if self.on_step is not None:
            self.on_step(d)

    def set(self, cell: int, value: Value) -> None:
        """A cell's new value; its row and column are looked at again."""
        self.cells[cell] = value
        self.dirty.add(cell // self.puzzle.width)
        self.dirty.add(self.puzzle.height + cell % self.puzzle.width)
