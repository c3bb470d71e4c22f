"""What a hint needs of a kind of cell: its line solver, its cell states and their words.

The steps (``line_step``, ``probes``, ``verdict``, ``guess``) see a position as states in lines
and ask its ``CellKind`` everything that depends on the kind of puzzle:

    black and white  a state is a cell's character ('#', '.', '?'); a line is a string, solved
                     by the compiled black-and-white line solver; reasons from ``explain``
    colour           a state is a mask of palette indexes (bit c: colour c still possible, bit
                     0 the background); a line is a tuple of masks, solved by the compiled
                     colour line solver; reasons from ``colour_reasons``

A person's grid holds symbols (a palette symbol, '?' unknown); ``state`` and ``symbol`` turn
one into the other (a colour cell still open between several colours shows as '?').
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from gridsolve.nonogram.engine import solve_line as fast_line
from gridsolve.nonogram.engine.colour import solve_line as colour_line
from gridsolve.nonogram.lines import VALUE_WORD, clue_text
from gridsolve.nonogram.model import (EMPTY, FILLED, UNKNOWN, AnyPuzzle, Clue, ColourClue,
                                      ColourPuzzle)
from gridsolve.nonogram.watch.colour_reasons import (bits_of, colour_line_reasons,
                                                     count_colour_fits)
from gridsolve.nonogram.watch.explain import AGREE, Forced, explainable, line_reasons

__all__ = ["CellKind", "BlackAndWhite", "Colour", "kind_for", "AnyClue", "count_fits"]

#: A line's clue, of either kind of puzzle.
AnyClue = Clue | ColourClue
#: A cell's state: a character (black and white) or a mask (colour); a line: a string or a
#: tuple of masks.
State = Any
Line = Any


class CellKind(Protocol):
    """The line solver and the words of one kind of cell (see the module's docstring)."""

    unknown: State
    #: Can a line take values away from a cell without settling it (colour)?
    narrows: bool

    def state(self, symbol: str) -> State: ...
    def states(self, symbols: str) -> list[State]: ...
    def symbol(self, state: State) -> str: ...
    def join(self, states: Sequence[State]) -> Line: ...
    def solve(self, clue: AnyClue, line: Line, until: float | None) -> Line | None: ...
    def known(self, state: State) -> bool: ...
    def unknowns(self, line: Sequence[State]) -> int: ...
    def settles(self, before: State, after: State) -> bool: ...
    def reasons(self, clue: AnyClue, before: Line, after: Line) -> tuple[Forced, ...]: ...
    def count_fits(self, clue: AnyClue, line: Line) -> int: ...
    def word(self, symbol: str) -> str: ...
    def assumed_word(self, before: State, assumed: State) -> str: ...
    def assumptions(self, state: State, solution: str | None) -> list[tuple[State, str]]: ...
    def symbols(self, state: State) -> str: ...
    def clue_text(self, clue: AnyClue) -> str: ...
    def meet(self, a: State, b: State) -> State: ...
    def options_word(self, state: State) -> str: ...


class BlackAndWhite:
    """Cells '#', '.', '?' in lines of text."""

    unknown = UNKNOWN
    narrows = False

    def state(self, symbol: str) -> State:
        return symbol

    def states(self, symbols: str) -> list[State]:
        return list(symbols)

    def symbol(self, state: State) -> str:
        return str(state)

    def join(self, states: Sequence[State]) -> Line:
        return "".join(states)

    def solve(self, clue: AnyClue, line: Line, until: float | None) -> Line | None:
        return fast_line(clue, line, until=until)  # type: ignore[arg-type]

    def known(self, state: State) -> bool:
        return bool(state != UNKNOWN)

    def unknowns(self, line: Sequence[State]) -> int:
        """How many cells of a line (or of the grid) are not known (counted in C)."""
        return line.count(UNKNOWN)

    def settles(self, before: State, after: State) -> bool:
        return bool(before != after)

    def reasons(self, clue: AnyClue, before: Line, after: Line) -> tuple[Forced, ...]:
        return line_reasons(clue, before, after)  # type: ignore[arg-type]

    def count_fits(self, clue: AnyClue, line: Line) -> int:
        return count_fits(clue, line)  # type: ignore[arg-type]

    def word(self, symbol: str) -> str:
        return VALUE_WORD[symbol]

    def assumed_word(self, before: State, assumed: State) -> str:
        return VALUE_WORD[assumed]

    def assumptions(self, state: State, solution: str | None) -> list[tuple[State, str]]:
        """The values to assume of an unknown cell, each with what a contradiction proves."""
        if solution is not None:
            return [(_other(solution), solution)]
        return [(FILLED, EMPTY), (EMPTY, FILLED)]

    def symbols(self, state: State) -> str:
        return str(state)

    def clue_text(self, clue: AnyClue) -> str:
        return clue_text(clue)  # type: ignore[arg-type]

    def meet(self, a: State, b: State) -> State:
        """What both states allow (two lines' views of one cell)."""
        return b if a == UNKNOWN else a

    def options_word(self, state: State) -> str:
        return VALUE_WORD[state]


def _other(value: str) -> str:
    return EMPTY if value == FILLED else FILLED


class Colour:
    """Cells as masks of palette indexes, lines as tuples of masks."""

    def __init__(self, puzzle: ColourPuzzle) -> None:
        self.palette = puzzle.palette
        self.unknown = (1 << len(puzzle.palette)) - 1
        self.narrows = len(puzzle.palette) > 2
        self._index = {c.symbol: i for i, c in enumerate(puzzle.palette)}
        #: how each palette index is said: 'empty' for the background, else its name
        self.names = ("empty", *(c.name for c in puzzle.palette[1:]))

    def state(self, symbol: str) -> State:
        return self.unknown if symbol == UNKNOWN else 1 << self._index[symbol]

    def states(self, symbols: str) -> list[State]:
        return [self.state(s) for s in symbols]

    def symbol(self, state: State) -> str:
        return self.palette[state.bit_length() - 1].symbol if self.known(state) else UNKNOWN

    def join(self, states: Sequence[State]) -> Line:
        return states if isinstance(states, tuple) else (states,)  # (one cell: itemgetter's)

    def solve(self, clue: AnyClue, line: Line, until: float | None) -> Line | None:
        out = colour_line(clue, line)  # type: ignore[arg-type]
        return None if out is None else tuple(out)

    def known(self, state: State) -> bool:
        return bool(state & (state - 1) == 0)

    def unknowns(self, line: Sequence[State]) -> int:
        return sum(state & (state - 1) != 0 for state in line)

    def settles(self, before: State, after: State) -> bool:
        return bool(before != after and self.known(after))

    def reasons(self, clue: AnyClue, before: Line, after: Line) -> tuple[Forced, ...]:
        """Why each cell ``after`` settles is that colour (``AGREE`` where no rule names it)."""
        named = (colour_line_reasons(clue, before, after, self.names)  # type: ignore[arg-type]
                 if explainable(clue, before) else {})
        return tuple(Forced(i, self.symbol(b), named.get(i, AGREE))
                     for i, (a, b) in enumerate(zip(before, after)) if self.settles(a, b))

    def count_fits(self, clue: AnyClue, line: Line) -> int:
        return count_colour_fits(clue, line)  # type: ignore[arg-type]

    def word(self, symbol: str) -> str:
        return self.names[self._index[symbol]] if symbol in self._index else VALUE_WORD[symbol]

    def assumed_word(self, before: State, assumed: State) -> str:
        """'red' for one colour; 'not red' when only red was taken away."""
        if self.known(assumed):
            return self.word(self.symbol(assumed))
        gone = before & ~assumed
        if gone and self.known(gone):
            return f"not {self.names[gone.bit_length() - 1]}"
        return " or ".join(self.names[c] for c in bits_of(assumed))

    def assumptions(self, state: State, solution: str | None) -> list[tuple[State, str]]:
        """Each colour the cell may be, taken away: a contradiction proves the cell is it
        (with a unique solution only the solution's colour is worth taking away)."""
        if self.known(state):
            return []
        colours = bits_of(state) if solution is None else [self._index[solution]]
        return [(state & ~(1 << c), self.palette[c].symbol) for c in colours if state >> c & 1]

    def symbols(self, state: State) -> str:
        """The symbols of the colours a state allows ('r.': red or empty)."""
        return "".join(self.palette[c].symbol for c in bits_of(state))

    def meet(self, a: State, b: State) -> State:
        """What both states allow (two lines' views of one cell)."""
        return a & b

    def options_word(self, state: State) -> str:
        """'empty or red', 'empty, red or blue'."""
        words = [self.names[c] for c in bits_of(state)]
        return " or ".join(words) if len(words) < 3 else f"{', '.join(words[:-1])} or {words[-1]}"

    def clue_text(self, clue: AnyClue) -> str:
        """'3 red 1 cream', or '0' for an empty line."""
        return " ".join(f"{n} {self.names[c]}" for n, c in clue) or "0"  # type: ignore[misc]


def kind_for(puzzle: AnyPuzzle) -> CellKind:
    """The cell kind of a puzzle."""
    return Colour(puzzle) if isinstance(puzzle, ColourPuzzle) else BlackAndWhite()


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
