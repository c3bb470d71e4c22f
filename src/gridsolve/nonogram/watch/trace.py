"""Replaying the engine's search as steps a person can watch (for --steps and animations).

The compiled search reports events (see ``engine/core.h``); a ``Recorder`` turns them into
``Step``s, each saying what changed and why, by keeping its own copy of the grid and a trail
of the cells set since each probe or guess, exactly as the engine undoes them:

    line       a line solve fixed some cells (the engine reports them with their values; a
               cell off the line or already set in the replayed grid is an error)
    try        a probe assumes a value for a cell; its line steps are marked ``probing``
    retract    the probe is undone (``contradiction`` if the assumption failed)
    learn      a cell fixed by probing (the other value failed, or both values agreed)
    guess      the search branches on a cell (``depth`` = guesses in force; a colour search's
               second branch takes a colour away: ``excluded``, and ``value`` '?' when more
               than one is left)
    backtrack  the cells set since the guess at ``depth`` are undone
    solution   the grid is complete and satisfies every clue

A colour puzzle's steps hold palette symbols; a change that leaves a cell more than one colour
(a line or probe narrowed it) shows nothing, so it is not a change of the steps.

Rounds: the engine solves queued lines first in, first out; round 1 is the lines queued
when a propagation starts, round k+1 the lines queued by round k's changes.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Literal

from gridsolve.errors import GridsolveError
from gridsolve.nonogram.engine import Result, SearchLimits, analyse
from gridsolve.nonogram.engine.constants import (CELL_EMPTY, CELL_FILLED, COLOUR_NOT_KNOWN,
                                                 EV_BACKTRACK, EV_GUESS, EV_LINE, EV_PROBE,
                                                 EV_PROBE_FIX, EV_SOLUTION, EV_TRY)
from gridsolve.nonogram.model import EMPTY, FILLED, UNKNOWN, AnyPuzzle, Grid, palette_of

__all__ = ["Step", "StepKind", "Trace", "Recorder", "trace_solve", "replay", "step_bytes"]

StepKind = Literal["line", "try", "retract", "learn", "guess", "backtrack", "solution"]

VALUE = {CELL_EMPTY: EMPTY, CELL_FILLED: FILLED}


@dataclass(frozen=True)
class Step:
    """One thing the solver did, and the cells it changed as (cell, new value; '?' = undone)."""

    kind: StepKind
    changes: tuple[tuple[int, str], ...] = ()
    line: int = -1
    cell: int = -1
    value: str = ""
    depth: int = 0
    round: int = 0
    probing: bool = False
    contradiction: bool = False
    excluded: str = ""


#: What one recorded step holds in memory, in bytes: the step, and each changed cell (measured
#: with tracemalloc on CPython 3.11: 162 bytes for a step without changes, 93 per change).
STEP_BYTES = 200
CHANGE_BYTES = 96


def step_bytes(step: Step) -> int:
    """About how many bytes a recorded step holds (for ``max_bytes``)."""
    return STEP_BYTES + CHANGE_BYTES * len(step.changes)


@dataclass
class Trace:
    """The steps of one solve; ``complete`` is False when recording stopped at ``max_steps``
    or ``max_bytes``."""

    puzzle: AnyPuzzle
    steps: list[Step] = field(default_factory=list)
    complete: bool = True

    def grids(self) -> Iterator[tuple[Step, Grid]]:
        """Each step with the grid just after it."""
        yield from replay(self.puzzle, self.steps)

    def final(self) -> Grid:
        """The grid after the last recorded step."""
        last = deque(self.grids(), maxlen=1)
        return last[0][1] if last else ("?" * self.puzzle.width,) * self.puzzle.height


def replay(puzzle: AnyPuzzle, steps: list[Step]) -> Iterator[tuple[Step, Grid]]:
    """Apply steps in order from the blank grid, yielding each with the grid after it."""
    cells = [UNKNOWN] * (puzzle.width * puzzle.height)
    w = puzzle.width
    for step in steps:
        for cell, value in step.changes:
            cells[cell] = value
        yield step, tuple("".join(cells[i:i + w]) for i in range(0, len(cells), w))


class Recorder:
    """An ``on_event`` callback for the engine that rebuilds the solve as steps.

    ``listener`` (if given) is called with each step as it happens; steps are kept in
    ``trace`` up to ``max_steps`` (None: all; 0: none) and while they hold at most
    ``max_bytes`` (None: no bound; see ``step_bytes``): one step of a 200x200 grid can hold
    40,000 changed cells, so a count alone does not bound the memory."""

    def __init__(self, puzzle: AnyPuzzle, listener: Callable[[Step], None] | None = None,
                 max_steps: int | None = None, max_bytes: int | None = None) -> None:
        self.puzzle = puzzle
        self.listener = listener
        self.max_steps = max_steps
        self.max_bytes = max_bytes
        self.bytes = 0
        self.trace = Trace(puzzle)
        self.cells = [UNKNOWN] * (puzzle.width * puzzle.height)
        self.trail: list[int] = []
        self.marks: dict[int, int] = {}
        self.probe_mark: int | None = None
        self.depth = 0
        self.queue: deque[tuple[int, int]] = deque((line, 1) for line in range(self._nlines))
        self.queued = set(range(self._nlines))
        self.round = 1
        palette = palette_of(puzzle)
        #: a value of the engine's events as a symbol (colour: a palette index, NOT_KNOWN '?')
        self.values: dict[int, str] = (dict(VALUE) if palette is None else
                                       {i: c.symbol for i, c in enumerate(palette)}
                                       | {COLOUR_NOT_KNOWN: UNKNOWN})
        #: a line's cells as (cell, value code): 2 * cell + filled, or cell * 256 + index
        self.shift = 1 if palette is None else 8
        self.line_values = {0: EMPTY, 1: FILLED} if palette is None else self.values
        #: the colour of the first branch at each depth (a colour search's second excludes it)
        self.first: dict[int, str] = {}
        self.backtracked: int | None = None  # the depth of the event before, a backtrack

    @property
    def _nlines(self) -> int:
        return self.puzzle.width + self.puzzle.height

    def grid(self) -> Grid:
        """The replayed grid now."""
        w = self.puzzle.width
        return tuple("".join(self.cells[i:i + w]) for i in range(0, len(self.cells), w))

    def __call__(self, kind: int, a: int, b: int, c: int, cells: tuple[int, ...]) -> None:
        if kind == EV_LINE:
            self._line(a, cells)
            return
        self.queue.clear()
        self.queued.clear()
        value = self.values.get(b, UNKNOWN)
        backtracked, self.backtracked = self.backtracked, None
        if kind == EV_TRY:
            self.probe_mark = len(self.trail)
            self._emit(Step("try", self._set(a, value), cell=a, value=value,
                            depth=self.depth, probing=True))
        elif kind == EV_PROBE:
            undone = self._undo(self.probe_mark if self.probe_mark is not None else len(self.trail))
            self.probe_mark = None
            self._emit(Step("retract", undone, cell=a, value=value, depth=self.depth,
                            contradiction=bool(c)))
        elif kind == EV_PROBE_FIX:
            if value == UNKNOWN:  # (colour: narrowed, not settled)
                self._queue_only(a)
                return
            self._emit(Step("learn", self._set(a, value), cell=a, value=value, depth=self.depth))
        elif kind == EV_GUESS:
            # a search's second branch comes right after the backtrack to its depth
            second = backtracked == c
            excluded = self.first.get(c, "") if second and self.shift == 8 else ""
            if not second:
                self.first[c] = value
            self.marks[c] = len(self.trail)
            self.depth = c
            changes = self._set(a, value) if value != UNKNOWN else self._queue_only(a)
            self._emit(Step("guess", changes, cell=a, value=value, depth=c, excluded=excluded))
        elif kind == EV_BACKTRACK:
            self.backtracked = a
            undone = self._undo(self.marks[a])
            self.depth = a - 1
            self._emit(Step("backtrack", undone, depth=a - 1))
        elif kind == EV_SOLUTION:
            self._emit(Step("solution", depth=self.depth))

    def _set(self, cell: int, value: str) -> tuple[tuple[int, str], ...]:
        """Set a cell (as the engine's ng_set does) and queue its row and column for round 1."""
        self.cells[cell] = value
        self.trail.append(cell)
        self.round = 0
        self._enqueue(cell, 1)
        return ((cell, value),)

    def _queue_only(self, cell: int) -> tuple[tuple[int, str], ...]:
        """A cell narrowed but not settled (a colour branch): its lines are queued, as a set
        queues them; no change shows."""
        self.round = 0
        self._enqueue(cell, 1)
        return ()

    def _lines_of(self, cell: int) -> tuple[int, int]:
        """The cell's row and column, as lines (rows first, then columns)."""
        return cell // self.puzzle.width, self.puzzle.height + cell % self.puzzle.width

    def _enqueue(self, cell: int, round_: int) -> None:
        for line in self._lines_of(cell):
            if line not in self.queued:
                self.queued.add(line)
                self.queue.append((line, round_))

    def _undo(self, mark: int) -> tuple[tuple[int, str], ...]:
        undone = tuple((cell, UNKNOWN) for cell in reversed(self.trail[mark:]))
        for cell, _ in undone:
            self.cells[cell] = UNKNOWN
        del self.trail[mark:]
        return undone

    def _line(self, line: int, fixed: tuple[int, ...]) -> None:
        """A line solve fixed these cells (each 2 * cell + filled): set them, checking that each
        lies on the line and was open in the replayed grid."""
        while self.queue and self.queue[0][0] != line and line in self.queued:
            self.queued.discard(self.queue.popleft()[0])
        if self.queue and self.queue[0][0] == line:
            self.round = self.queue.popleft()[1]
            self.queued.discard(line)
        low = (1 << self.shift) - 1
        changes = tuple((cell, value) for cell, value in
                        ((code >> self.shift, self.line_values.get(code & low, UNKNOWN))
                         for code in fixed) if value != UNKNOWN)
        if not all(0 <= cell < len(self.cells) and line in self._lines_of(cell)
                   and self.cells[cell] == UNKNOWN for cell, _ in changes):
            raise GridsolveError("internal error: the trace lost step with the engine")
        for cell, value in changes:
            self.cells[cell] = value
            self.trail.append(cell)
            self._enqueue(cell, self.round + 1)
        self._emit(Step("line", changes, line=line, depth=self.depth, round=self.round,
                        probing=self.probe_mark is not None))

    def _emit(self, step: Step) -> None:
        size = step_bytes(step)
        if (self.trace.complete
                and (self.max_steps is None or len(self.trace.steps) < self.max_steps)
                and (self.max_bytes is None or self.bytes + size <= self.max_bytes)):
            self.trace.steps.append(step)
            self.bytes += size
        else:  # the first step left out ends the recording: no gaps in what is kept
            self.trace.complete = False
        if self.listener is not None:
            self.listener(step)


def trace_solve(puzzle: AnyPuzzle, max_solutions: int = 2, limits: SearchLimits = SearchLimits(),
                *, probing: bool = True, max_steps: int | None = None,
                max_bytes: int | None = None,
                listener: Callable[[Step], None] | None = None) -> tuple[Result, Trace]:
    """Solve as ``analyse`` does, recording every step (up to ``max_steps`` and
    ``max_bytes``)."""
    recorder = Recorder(puzzle, listener, max_steps, max_bytes)
    result = analyse(puzzle, max_solutions, limits, probing=probing, on_event=recorder)
    return result, recorder.trace
