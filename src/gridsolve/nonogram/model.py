"""Nonogram vocabulary: the fixed puzzle and the grids that answer it.

Glossary
    clue   the block lengths of one line, in order (``()`` for an empty line); in a colour
           puzzle, (length, colour index) pairs
    palette  the colours of a colour puzzle; index 0 is the background (unpainted cells)
    line   a row (left to right) or a column (top to bottom)
    cell   ``FILLED`` ('#'), ``EMPTY`` ('.') or, in a partial grid, ``UNKNOWN`` ('?')
    block  a maximal run of filled cells in a line
    grid   the rows of a picture as strings of cell characters, top to bottom
    raw clues  the clues as a file states them, with their lines, before any check

This module imports only ``gridsolve.errors`` (its checks raise ``InvalidPuzzle``) and knows
nothing of files or pictures.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import chain
from operator import add
from typing import ClassVar

from gridsolve.errors import InvalidPuzzle

__all__ = [
    "Clue", "Grid", "Puzzle", "FILLED", "EMPTY", "UNKNOWN",
    "clue_of", "is_solution", "puzzle_from_grid", "columns_of", "MAX_CELLS", "MAX_SIDE",
    "Colour", "ColourClue", "ColourPuzzle", "AnyPuzzle", "MAX_COLOURS", "BLACK", "WHITE",
    "colour_clue_of", "is_colour_solution", "colour_puzzle_from_grid", "as_colour",
    "is_any_solution", "palette_of", "colour_puzzle_of", "RawClues", "RawColourClues", "clue_shown",
]

Clue = tuple[int, ...]
Grid = tuple[str, ...]

FILLED = "#"
EMPTY = "."
UNKNOWN = "?"

#: Default size guard for input (1000 x 1000); formats refuse larger puzzles unless told not to.
MAX_CELLS = 1_000_000
#: The longest line a puzzle may have: the engines take lines of up to this many cells
#: (NG_MAX_SIDE in engine/core.h), and no limit lifts it.
MAX_SIDE = 100_000


def _check_sides(width: int, height: int) -> None:
    if max(width, height) > MAX_SIDE:
        raise InvalidPuzzle(f"size {width}x{height}: a side has at most {MAX_SIDE:,} cells")


@dataclass(frozen=True)
class RawClues:
    """The clues as a file states them, before the checks that make them a Puzzle.

    Kept with the line of the file each came from (``None`` when unknown), so a checker can
    report every problem at once where building a ``Puzzle`` stops at the first.
    """

    rows: tuple[tuple[int, ...], ...]
    cols: tuple[tuple[int, ...], ...]
    source: str | None = None
    row_lines: tuple[int | None, ...] = ()
    col_lines: tuple[int | None, ...] = ()
    total_line: int | None = None


#: The one type of the clue numbers ``_clean_clue`` takes as they are (no bool, no subclass).
_PLAIN_INT = frozenset({int})


def _clean_clue(clue: Iterable[int], kind: str, index: int) -> Clue:
    """Return the clue as a tuple of positive ints ((0,) means an empty line)."""
    numbers = tuple(clue)
    if _PLAIN_INT.issuperset(map(type, numbers)) and (not numbers or min(numbers) > 0):
        return numbers  # the common case at once: plain positive ints (a batch builds 10,000)
    what, where = f"{kind} {index + 1}", (kind, index)
    out = []
    for n in numbers:
        if isinstance(n, bool) or not isinstance(n, int):
            raise InvalidPuzzle(f"{what}: clue numbers must be integers, got {n!r}", where)
        if n < 0:
            raise InvalidPuzzle(f"{what}: clue numbers cannot be negative, got {n}", where)
        out.append(n)
    if out == [0]:
        return ()
    if 0 in out:
        raise InvalidPuzzle(f"{what}: 0 may only stand alone, for an empty line", where)
    return tuple(out)


def _clean_clues(clues: Iterable[Iterable[int]], kind: str) -> tuple[Clue, ...]:
    """``_clean_clue`` of each clue; when every number is a plain positive int, all at once."""
    items = tuple(clues)
    try:
        out = tuple(map(tuple, items))
    except TypeError:  # a clue that is no sequence: each in turn, the first bad one said
        return tuple(_clean_clue(c, kind, i) for i, c in enumerate(items))
    numbers = list(chain.from_iterable(out))
    if _PLAIN_INT.issuperset(map(type, numbers)) and (not numbers or min(numbers) > 0):
        return out
    return tuple(_clean_clue(c, kind, i) for i, c in enumerate(out))


def clue_min_length(clue: Clue) -> int:
    """How many cells a clue needs at least: its blocks plus one gap between each two."""
    return sum(clue) + max(len(clue) - 1, 0)


@dataclass(frozen=True)
class Puzzle:
    """A black-and-white nonogram: row clues (top to bottom) and column clues (left to right)."""

    rows: tuple[Clue, ...]
    cols: tuple[Clue, ...]
    title: str | None = field(default=None, compare=False)
    #: The kind of puzzle, by which the engine and the backends are chosen.
    kind: ClassVar[str] = "black-and-white"

    def __init__(self, rows: Iterable[Iterable[int]], cols: Iterable[Iterable[int]],
                 title: str | None = None) -> None:
        r = _clean_clues(rows, "row")
        c = _clean_clues(cols, "column")
        object.__setattr__(self, "rows", r)
        object.__setattr__(self, "cols", c)
        object.__setattr__(self, "title", title)
        self._validate()

    def _validate(self) -> None:
        """Refuse puzzles that cannot be solved for reasons a person can fix in the clues."""
        if not self.rows or not self.cols:
            raise InvalidPuzzle("a puzzle needs at least one row and one column")
        _check_sides(self.width, self.height)
        filled = []  # the cells each side's clues fill
        for kind, clues, length in (("row", self.rows, self.width), ("column", self.cols, self.height)):
            sums = list(map(sum, clues))
            filled.append(sum(sums))
            if max(map(add, sums, map(len, clues))) <= length + 1:
                continue  # every clue fits (the longest needs its sum + gaps): at C speed
            for i, clue in enumerate(clues):
                need = clue_min_length(clue)
                if need > length:
                    raise InvalidPuzzle(
                        f"{kind} {i + 1}: clue {clue_shown(map(str, clue))} needs {need} cells "
                        f"but the {kind} has {length}", (kind, i))
        rsum, csum = filled
        if rsum != csum:
            raise InvalidPuzzle(f"row clues fill {rsum} cells but column clues fill {csum}")

    @property
    def width(self) -> int:
        return len(self.cols)

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def size(self) -> str:
        return f"{self.width}x{self.height}"


def clue_of(line: str) -> Clue:
    """The clue that describes a line of cells."""
    return tuple(map(len, filter(None, line.split(EMPTY))))


def columns_of(grid: Sequence[str]) -> Grid:
    """The columns of a grid, each read top to bottom."""
    return tuple("".join(col) for col in zip(*grid)) if grid else ()


def _blocks(line: str) -> Clue:
    """The clue of a line of '#' and ' ' (``clue_of`` once each '.' is a space: str.split()
    finds the blocks in C)."""
    return tuple(map(len, line.split()))


def is_solution(puzzle: Puzzle, grid: Sequence[str]) -> bool:
    """Does this complete grid satisfy every row and column clue? (independent of any solver)"""
    width = puzzle.width
    if len(grid) != puzzle.height or any(len(r) != width for r in grid):
        return False
    cells = "".join(grid)
    if cells.strip(FILLED + EMPTY):  # a cell that is neither
        return False
    # the rows and columns as slices of one string (a batch checks hundreds of grids)
    spaced = cells.replace(EMPTY, " ")
    rows = [spaced[i:i + width] for i in range(0, len(spaced), width)]
    return (list(map(_blocks, rows)) == list(puzzle.rows)
            and list(map(_blocks, (spaced[i::width] for i in range(width)))) == list(puzzle.cols))


def puzzle_from_grid(grid: Sequence[str], title: str | None = None) -> Puzzle:
    """The puzzle whose solution is this picture."""
    return Puzzle([clue_of(r) for r in grid], [clue_of(c) for c in columns_of(grid)], title=title)


# --- Colour puzzles ------------------------------------------------------------------------
#
# A colour nonogram's clue numbers each carry a colour. Blocks of the same colour need at least
# one background cell between them; blocks of different colours may touch. Black-and-white
# puzzles keep their own type (Puzzle) and their own fast engine; ColourPuzzle is the general
# case, and ``as_colour`` turns a B&W puzzle into a one-colour one (for cross-checks).

#: Colours in a palette at most, background included (the engine keeps a cell's possible
#: colours in one 32-bit word).
MAX_COLOURS = 32

RGB = tuple[int, int, int]
ColourClue = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Colour:
    """One colour of a palette: a name, its RGB value, and the symbol that stands for it in
    grids (one printable character; the background's is always '.')."""

    name: str
    rgb: RGB
    symbol: str

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise InvalidPuzzle(f"a colour needs a name, got {self.name!r}")
        if self.name != self.name.strip() or not self.name.isprintable():
            # every format writes the name as it is: spaces at its ends or a control
            # character would not read back the same
            raise InvalidPuzzle(f"colour name {self.name!r}: printable text, no space at "
                                "either end")
        if (not isinstance(self.rgb, tuple) or len(self.rgb) != 3
                or any(isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 255
                       for v in self.rgb)):
            raise InvalidPuzzle(f"colour {self.name!r}: RGB must be three integers 0-255, "
                                f"got {self.rgb!r}")
        sym = self.symbol
        if (not isinstance(sym, str) or len(sym) != 1 or not sym.isprintable() or sym.isspace()
                or sym == UNKNOWN):
            raise InvalidPuzzle(f"colour {self.name!r}: its symbol must be one printable "
                                f"character other than space and '?', got {sym!r}")

    @property
    def hex(self) -> str:
        r, g, b = self.rgb
        return f"#{r:02x}{g:02x}{b:02x}"


WHITE = Colour("white", (255, 255, 255), EMPTY)
BLACK = Colour("black", (0, 0, 0), FILLED)


def clue_shown(blocks: Iterable[str], most: int = 12) -> str:
    """A clue as an error message quotes it: its first ``most`` blocks, then how many more
    (an error stays one short line whatever the clue's length)."""
    words = list(blocks)
    if len(words) <= most:
        return " ".join(words) or "0"
    return f"{' '.join(words[:most])} ... ({len(words)} blocks)"


def _clean_colour_clue(clue: Iterable[tuple[int, int]], ncolours: int, kind: str,
                       index: int) -> ColourClue:
    what, where = f"{kind} {index + 1}", (kind, index)
    out: list[tuple[int, int]] = []
    zero = False
    items = list(clue)
    for item in items:
        try:
            n, c = item
        except (TypeError, ValueError):
            raise InvalidPuzzle(f"{what}: a colour clue is a (length, colour) pair, got "
                                f"{item!r}", where) from None
        for v in (n, c):
            if isinstance(v, bool) or not isinstance(v, int):
                raise InvalidPuzzle(f"{what}: clue numbers must be integers, got {v!r}", where)
        if n < 0:
            raise InvalidPuzzle(f"{what}: clue numbers cannot be negative, got {n}", where)
        if n == 0:
            zero = True  # "0" alone says the line is empty
            continue
        if not 1 <= c < ncolours:
            raise InvalidPuzzle(f"{what}: colour {c} is not in the palette "
                                f"(1..{ncolours - 1}; 0 is the background)", where)
        out.append((n, c))
    if zero and len(items) > 1:
        raise InvalidPuzzle(f"{what}: 0 may only stand alone, for an empty line", where)
    return tuple(out)


def colour_clue_min_length(clue: ColourClue) -> int:
    """Cells a colour clue needs at least: its blocks plus a gap between same-coloured
    neighbours."""
    return sum(n for n, _ in clue) + sum(1 for a, b in zip(clue, clue[1:]) if a[1] == b[1])


@dataclass(frozen=True)
class ColourPuzzle:
    """A colour nonogram: a palette (index 0 = background) and (length, colour) clues.

    Grids of a colour puzzle are rows of palette symbols ('.' = background)."""

    rows: tuple[ColourClue, ...]
    cols: tuple[ColourClue, ...]
    palette: tuple[Colour, ...]
    title: str | None = field(default=None, compare=False)
    #: The kind of puzzle, by which the engine and the backends are chosen.
    kind: ClassVar[str] = "colour"

    def __init__(self, rows: Iterable[Iterable[tuple[int, int]]],
                 cols: Iterable[Iterable[tuple[int, int]]], palette: Iterable[Colour],
                 title: str | None = None) -> None:
        pal = tuple(palette)
        self._check_palette(pal)
        r = tuple(_clean_colour_clue(c, len(pal), "row", i) for i, c in enumerate(rows))
        c = tuple(_clean_colour_clue(k, len(pal), "column", i) for i, k in enumerate(cols))
        object.__setattr__(self, "rows", r)
        object.__setattr__(self, "cols", c)
        object.__setattr__(self, "palette", pal)
        object.__setattr__(self, "title", title)
        self._validate()

    @staticmethod
    def _check_palette(pal: tuple[Colour, ...]) -> None:
        if any(not isinstance(c, Colour) for c in pal):
            raise InvalidPuzzle("a palette is a sequence of Colour")
        if len(pal) < 2:
            raise InvalidPuzzle("a palette needs the background and at least one colour")
        if len(pal) > MAX_COLOURS:
            raise InvalidPuzzle(f"the palette has {len(pal) - 1} colours besides the background; "
                                f"at most {MAX_COLOURS - 1} are supported")
        if pal[0].symbol != EMPTY:
            raise InvalidPuzzle(f"the background colour's symbol must be {EMPTY!r}, "
                                f"got {pal[0].symbol!r}")
        seen_sym: dict[str, str] = {}
        seen_name: set[str] = set()
        for col in pal:
            if col.symbol in seen_sym:
                raise InvalidPuzzle(f"colours {seen_sym[col.symbol]!r} and {col.name!r} share "
                                    f"the symbol {col.symbol!r}")
            if col.name.lower() in seen_name:
                raise InvalidPuzzle(f"two colours are named {col.name!r}")
            seen_sym[col.symbol] = col.name
            seen_name.add(col.name.lower())

    def _validate(self) -> None:
        if not self.rows or not self.cols:
            raise InvalidPuzzle("a puzzle needs at least one row and one column")
        _check_sides(self.width, self.height)
        for kind, clues, length in (("row", self.rows, self.width),
                                    ("column", self.cols, self.height)):
            for i, clue in enumerate(clues):
                need = colour_clue_min_length(clue)
                if need > length:
                    raise InvalidPuzzle(f"{kind} {i + 1}: clue {clue_shown(self.clue_text(clue).split())} needs "
                                        f"{need} cells but the {kind} has {length}", (kind, i))
        for ci in range(1, len(self.palette)):
            rsum = sum(n for clue in self.rows for n, c in clue if c == ci)
            csum = sum(n for clue in self.cols for n, c in clue if c == ci)
            if rsum != csum:
                raise InvalidPuzzle(f"colour {self.palette[ci].name!r}: row clues paint {rsum} "
                                    f"cells but column clues paint {csum}")

    def clue_text(self, clue: ColourClue) -> str:
        """A clue as people write it: numbers followed by the colour's symbol ('3r 1b')."""
        return " ".join(f"{n}{self.palette[c].symbol}" for n, c in clue) or "0"

    def colour_index(self, symbol: str) -> int:
        """The palette index of a grid symbol (KeyError if it is not in the palette)."""
        for i, col in enumerate(self.palette):
            if col.symbol == symbol:
                return i
        raise KeyError(symbol)

    @property
    def width(self) -> int:
        return len(self.cols)

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def size(self) -> str:
        return f"{self.width}x{self.height}"


AnyPuzzle = Puzzle | ColourPuzzle


@dataclass(frozen=True)
class RawColourClues:
    """A colour puzzle's clues as a file states them ((length, palette index) pairs), with
    its palette and each clue's line, so a checker can report every problem at once."""

    rows: tuple[tuple[tuple[int, int], ...], ...]
    cols: tuple[tuple[tuple[int, int], ...], ...]
    palette: tuple[Colour, ...]
    source: str | None = None
    row_lines: tuple[int | None, ...] = ()
    col_lines: tuple[int | None, ...] = ()
    total_line: int | None = None


def colour_clue_of(line: str, palette: Sequence[Colour]) -> ColourClue:
    """The colour clue that describes a line of palette symbols."""
    index = {c.symbol: i for i, c in enumerate(palette)}
    out: list[tuple[int, int]] = []
    prev = 0
    for ch in line:
        ci = index[ch]
        if ci and ci == prev:
            out[-1] = (out[-1][0] + 1, ci)
        elif ci:
            out.append((1, ci))
        prev = ci
    return tuple(out)


def is_colour_solution(puzzle: ColourPuzzle, grid: Sequence[str]) -> bool:
    """Does this complete grid of palette symbols satisfy every clue? (independent of solvers)"""
    if len(grid) != puzzle.height or any(len(r) != puzzle.width for r in grid):
        return False
    symbols = {c.symbol for c in puzzle.palette}
    if any(ch not in symbols for r in grid for ch in r):
        return False
    pal = puzzle.palette
    return (all(colour_clue_of(r, pal) == c for r, c in zip(grid, puzzle.rows))
            and all(colour_clue_of(col, pal) == c
                    for col, c in zip(columns_of(grid), puzzle.cols)))


def colour_puzzle_of(puzzle: AnyPuzzle) -> ColourPuzzle | None:
    """The puzzle as a colour puzzle, or None for a black-and-white one: where code must
    split by kind (a palette, clues of (length, colour) pairs), it asks here."""
    return puzzle if isinstance(puzzle, ColourPuzzle) else None


def palette_of(puzzle: AnyPuzzle) -> tuple[Colour, ...] | None:
    """The palette of a colour puzzle; None for a black-and-white one (it has none)."""
    colour = colour_puzzle_of(puzzle)
    return None if colour is None else colour.palette


def is_any_solution(puzzle: AnyPuzzle, grid: Sequence[str]) -> bool:
    """``is_solution`` for either kind of puzzle."""
    if isinstance(puzzle, ColourPuzzle):
        return is_colour_solution(puzzle, grid)
    return is_solution(puzzle, grid)


def colour_puzzle_from_grid(grid: Sequence[str], palette: Sequence[Colour],
                            title: str | None = None) -> ColourPuzzle:
    """The colour puzzle whose solution is this picture of palette symbols."""
    pal = tuple(palette)
    return ColourPuzzle([colour_clue_of(r, pal) for r in grid],
                        [colour_clue_of(c, pal) for c in columns_of(grid)], pal, title=title)


def as_colour(puzzle: Puzzle, colour: Colour = BLACK,
              background: Colour = WHITE) -> ColourPuzzle:
    """A black-and-white puzzle as a one-colour ColourPuzzle (same grids: '#' and '.')."""
    return ColourPuzzle([[(n, 1) for n in clue] for clue in puzzle.rows],
                        [[(n, 1) for n in clue] for clue in puzzle.cols],
                        (background, colour), title=puzzle.title)
