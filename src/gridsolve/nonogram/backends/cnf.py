"""Two models of a nonogram as CNF (block starts, or their order), clause by clause, and
their size before they are built.

Variables: the cells first, row-major (black and white: cell (r, c) is ``r * width + c + 1``;
colour: one per (cell, palette index), cell-major), then per line one per feasible block start
(block by block), then that line's at-most-one helpers. Clauses, per line
(Bosch, "Painting by numbers", Optima 65, 2001, written as clauses as in the usual SAT
translations of that model):

* each block starts exactly once: one at-least-one clause, and at-most-one pairwise for few
  starts or by Sinz's sequential counter (CP 2005) for more;
* a start fills the block's cells and empties the cell just before and just after it;
* consecutive blocks keep their order with a gap: a start of block k implies a start of
  block k+1 at least ``size_k + 1`` later, and a start of block k+1 implies one of block k
  early enough;
* a filled cell is covered by some start of some block of the line (an empty clue empties it).

Colour puzzles: exactly one colour per cell, and the same model per line, where a cell of
colour c is covered by a block of colour c and only blocks of the same colour need a gap.

The order model (``encoding="order"``; the order encoding of integer variables, Tamura et al.,
"Compiling finite linear CSP into SAT", Constraints 14, 2009, as the nonogram peer nonosolve
uses it): the same cell variables, then per line and block one variable per feasible start
but the last, "block k starts at or before p", and no helpers. Clauses, per line:

* "at or before p" implies "at or before p + 1";
* block k+1 at or before p implies block k at or before ``p - size_k - gap_k``;
* a block covers cell i when it starts at or before i and not at or before ``i - size``:
  then the cell is filled (with the block's colour);
* a cell before the first block, after the last, or between block k's end and block k+1's
  start is empty (the background colour).

Every cell lies in exactly one of those stretches once the starts are set, so the models are
the solutions, once each. The model is linear in a line's slack (the block-start one grows
with its square), and a start's bounds reach the cells in binary and ternary clauses.

The black-and-white order model is made in C (``_cnf.order_line``: the same clauses in the
same order as ``_order_line_clauses``, which colour puzzles use), as lists or, for the
programs, straight as DIMACS text (``dimacs``). ``clauses`` yields the clauses one at a
time, so a caller can load them into a solver as they come and stop at a deadline; ``size``
counts them without building them (the block-start model's order clauses grow with the
square of a line's slack, so a big puzzle's model can need gigabytes, and the order model's
hundreds of megabytes: callers decide from the count whether it fits before building it).
"""

from __future__ import annotations

import itertools
import time
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal, cast, overload

from gridsolve.nonogram.backends._common import feasible_starts, lines
from gridsolve.nonogram.model import (EMPTY, FILLED, UNKNOWN, AnyPuzzle, ColourPuzzle, Grid,
                                      colour_puzzle_of,
                                      Puzzle)

__all__ = ["PAIRWISE_MAX", "ENCODINGS", "DEFAULT_ENCODING", "COLOUR_ENCODING", "ORDER_MAX_COLOURS",
           "encoding_for", "TEXT_CLAUSES", "ModelSize", "size", "clauses", "dimacs", "dimacs_text",
           "cell_variables", "implication_clauses", "colour_root_clauses", "blocking_clause"]

#: Above this many literals, at-most-one uses the sequential counter instead of pairwise clauses.
PAIRWISE_MAX = 6

#: Clauses per chunk of DIMACS text (``dimacs_text``): the programs' input is written as it
#: is made, a chunk at a time, so the text is never held whole.
TEXT_CLAUSES = 4096

#: The models by name: block starts, or the order of block starts.
ENCODINGS = ("start", "order")
#: The model of black-and-white puzzles unless one is named: the order model (about 3-6x
#: faster with Glucose on the hardest survey puzzles and random 50x50; docs/decisions/0013).
DEFAULT_ENCODING = "order"
#: The model of colour puzzles of more than ``ORDER_MAX_COLOURS`` colours besides the
#: background unless one is named: block starts (the order model is 2-8x slower on random
#: 40x40 of 3 and 4 colours), where one or two colours take the order model (Glucose 1.3-3.6x
#: sooner on random 2-colour 40x40 to 60x60; docs/decisions/0013, 0039).
COLOUR_ENCODING = "start"
ORDER_MAX_COLOURS = 2

#: One line as the model sees it: (length, colour) blocks, the colours of the puzzle, the
#: line's cells as ``{colour: variable}`` dicts (black and white: colour 1, "filled").
Block = tuple[int, int]


@dataclass(frozen=True)
class ModelSize:
    """How big the CNF of a puzzle is: variables, clauses and literals (all clauses' lengths)."""

    variables: int
    clauses: int
    literals: int


class _Ids:
    """Fresh variable ids after the ones already taken."""

    def __init__(self, top: int) -> None:
        self.top = top

    def take(self, n: int) -> list[int]:
        first = self.top + 1
        self.top += n
        return list(range(first, first + n))


def colour_of(puzzle: AnyPuzzle) -> ColourPuzzle | None:
    """The puzzle as a colour puzzle, or None for a black-and-white one: the one place the
    CNF models split by kind (a colour cell takes a variable per palette colour and exactly
    one of them; a black-and-white cell one variable, filled or not)."""
    return colour_puzzle_of(puzzle)


def cell_variables(puzzle: AnyPuzzle) -> int:
    """How many variables the cells take (they come first): cells, or cells x palette."""
    colour = colour_of(puzzle)
    return puzzle.width * puzzle.height * (1 if colour is None else len(colour.palette))


def encoding_for(puzzle: AnyPuzzle, encoding: str | None = None) -> str:
    """The model named (checked), or the default for the puzzle's kind and colours."""
    if encoding is None:
        few = (colour := colour_of(puzzle)) is None or len(colour.palette) <= ORDER_MAX_COLOURS + 1
        return DEFAULT_ENCODING if few else COLOUR_ENCODING
    if encoding not in ENCODINGS:
        raise ValueError(f"unknown CNF encoding {encoding!r}; choose one of "
                         + ", ".join(ENCODINGS))
    return encoding


def clauses(puzzle: AnyPuzzle, known: Grid | None = None,
            encoding: str | None = None) -> Iterator[list[int]]:
    """Every clause of the puzzle's CNF in the named model (``ENCODINGS``; None: the default
    for its kind), plus unit clauses for the known cells of ``known``."""
    encoding = encoding_for(puzzle, encoding)
    ids = _Ids(cell_variables(puzzle))
    colour = colour_of(puzzle)
    if colour is not None:
        yield from _colour_clauses(colour, ids, known, encoding)
        return
    puzzle = cast(Puzzle, puzzle)
    if encoding == "order":
        for line in _order_lines(puzzle, False):
            yield from line
    else:
        w = puzzle.width
        for _, clue, cells in lines(puzzle):
            yield from _line_clauses(ids, [(length, 1) for length in clue], [1],
                                     [{1: r * w + c + 1} for r, c in cells])
    yield from _units(puzzle, known)


def dimacs(puzzle: AnyPuzzle, known: Grid | None = None,
           encoding: str | None = None) -> Iterator[str]:
    """``clauses(puzzle, known, encoding)`` as DIMACS text ("1 -2 0" a line), in chunks of a
    line or TEXT_CLAUSES clauses (the black-and-white order model is written by the compiled
    engine: Gettys 0.006 s, random 100x100 0.011 s, 25-50x faster than formatting its
    clauses here)."""
    if colour_of(puzzle) is None and encoding_for(puzzle, encoding) == "order":
        yield from _order_lines(cast(Puzzle, puzzle), True)
        yield from dimacs_text(_units(cast(Puzzle, puzzle), known))
    else:
        yield from dimacs_text(clauses(puzzle, known, encoding))


def dimacs_text(clauses: Iterable[Sequence[int]]) -> Iterator[str]:
    """The clauses as DIMACS text, TEXT_CLAUSES clauses a chunk."""
    chunk: list[str] = []
    for clause in clauses:
        chunk.append(" ".join(map(str, clause)) + " 0\n")
        if len(chunk) >= TEXT_CLAUSES:
            yield "".join(chunk)
            chunk.clear()
    if chunk:
        yield "".join(chunk)


@overload
def _order_lines(puzzle: Puzzle, text: Literal[False]) -> Iterator[list[list[int]]]: ...
@overload
def _order_lines(puzzle: Puzzle, text: Literal[True]) -> Iterator[str]: ...
def _order_lines(puzzle: Puzzle, text: bool) -> Iterator[list[list[int]] | str]:
    """The order model of a black-and-white puzzle, line by line (rows, then columns), from
    compiled code (``_order_line_clauses``'s clauses in its order, as lists or text: cell i
    is variable ``cell0 + i * step`` and block k's "starts at or before its earliest start +
    j" is ``top + k * slack + j + 1``)."""
    from gridsolve.nonogram.backends import _cnf
    w, h = puzzle.width, puzzle.height
    top = w * h
    specs = [(clue, r * w + 1, 1, w) for r, clue in enumerate(puzzle.rows)]
    specs += [(clue, c + 1, w, h) for c, clue in enumerate(puzzle.cols)]
    for clue, cell0, step, n in specs:
        yield _cnf.order_line(clue, n, cell0, step, top, text)  # type: ignore[call-overload]
        top += _order_line_size([(length, 1) for length in clue], n)[0]  # its variables


def _units(puzzle: Puzzle, known: Grid | None) -> Iterator[list[int]]:
    """A unit clause per cell ``known`` fixes."""
    if known is None:
        return
    w = puzzle.width
    for r, row in enumerate(known):
        for c, ch in enumerate(row):
            if ch in (FILLED, EMPTY):
                var = r * w + c + 1
                yield [var if ch == FILLED else -var]


def implication_clauses(records: Sequence[int], known: Grid | None = None) -> list[list[int]]:
    """Binary clauses over the cell variables from the native engine's root implications
    (``Team.root_implications``: records of literal, count, literals; a literal is
    2 * cell + 1 for filled, 2 * cell for empty), once each in the order found, leaving out
    those on a cell ``known`` already fixes (a unit clause says it). Compiled: Gettys' 388,766
    record entries give 96,560 clauses in 0.04 s (0.1 s in Python)."""
    from gridsolve.nonogram.backends._cnf import implication_pairs
    data = (records if isinstance(records, array) and records.typecode == "i"
            else array("i", records)).tobytes()
    open_cells = None if known is None else bytes(ch == UNKNOWN for row in known for ch in row)
    return implication_pairs(data, open_cells)


def colour_root_clauses(puzzle: ColourPuzzle, masks: bytes,
                        records: bytes) -> list[list[int]]:
    """Clauses over a colour puzzle's cell variables from what its engine proved at the root
    (``engine.ColourRoot``): a unit "not colour d" for each colour an open cell (more than
    one colour left) has lost, and from each probe "cell c is colour v" that narrowed an
    open cell x, a binary clause "not (c, v) or not (x, d)" for each colour d of x it ruled
    out, once each in the order found. Cells with one colour left take no clauses here (the
    known cells' units say them). Empty ``masks`` (nothing kept): no clauses."""
    if not masks:
        return []
    k, cells = len(puzzle.palette), puzzle.width * puzzle.height
    mask = array("I", masks)
    rec = array("I", records)
    if len(mask) != cells:
        raise ValueError("colour root masks do not fit the puzzle")
    is_open = [m & (m - 1) != 0 for m in mask]
    out = [[-(i * k + d + 1)] for i, m in enumerate(mask) if is_open[i]
           for d in range(k) if not m >> d & 1]
    said: dict[int, int] = {}  # (literal, cell) -> the colours of the cell said already
    at, n_rec = 0, len(rec)
    while at < n_rec:
        end = at + 2 + 2 * rec[at + 1] if at + 1 < n_rec else n_rec + 1
        if end > n_rec or rec[at] >= cells * k or max(rec[at + 2:end:2], default=0) >= cells:
            raise ValueError("malformed colour implication records")
        lit = rec[at]
        cell, colour = divmod(lit, k)
        if is_open[cell] and mask[cell] >> colour & 1:
            for x, narrowed in zip(rec[at + 2:end:2], rec[at + 3:end:2]):
                if not is_open[x]:
                    continue
                key = lit * cells + x
                before = said.get(key, 0)
                gone = mask[x] & ~narrowed & ~before
                if gone:
                    said[key] = before | gone
                    base = x * k + 1
                    while gone:
                        low = gone & -gone
                        out.append([-(lit + 1), -(base + low.bit_length() - 1)])
                        gone ^= low
        at = end
    return out


def blocking_clause(puzzle: Puzzle, grid: Grid) -> list[int]:
    """The clause over the cell variables that rules out this black-and-white grid: some
    cell differs."""
    w = puzzle.width
    return [-(r * w + c + 1) if ch == FILLED else r * w + c + 1
            for r, row in enumerate(grid) for c, ch in enumerate(row)]


def _colour_clauses(puzzle: ColourPuzzle, ids: _Ids, known: Grid | None,
                    encoding: str) -> Iterator[list[int]]:
    """Exactly one colour per cell, then the line model per line with colour gaps."""
    k, w, h = len(puzzle.palette), puzzle.width, puzzle.height

    def cell(r: int, c: int) -> list[int]:  # (made as the clauses go: a 1000x1000 puzzle
        first = (r * w + c) * k + 1  # of 8 colours has 8 million, and a deadline)
        return list(range(first, first + k))
    for r in range(h):
        for c in range(w):
            lits = cell(r, c)
            yield lits
            yield from _at_most_one(ids, lits)
    colours = list(range(1, k))
    line_cells = itertools.chain(([cell(r, c) for c in range(w)] for r in range(h)),
                                 ([cell(r, c) for r in range(h)] for c in range(w)))
    for clue, xs in zip([*puzzle.rows, *puzzle.cols], line_cells):
        if encoding == "order":
            # a block's cells take its colour; a cell outside every block the background
            yield from _order_line_clauses(ids, clue, xs, [x[0] for x in xs])
        else:
            yield from _line_clauses(ids, clue, colours, [dict(enumerate(x)) for x in xs])
    if known is not None:
        for r, line in enumerate(known):
            for c, ch in enumerate(line):
                if ch != UNKNOWN:
                    yield [cell(r, c)[puzzle.colour_index(ch)]]


def _at_most_one(ids: _Ids, lits: list[int]) -> Iterator[list[int]]:
    """At most one of the literals: pairwise when few, else Sinz's sequential counter (its
    helper s_i says "one of the first i is true"), in pysat's ``seqcounter`` clause order."""
    n = len(lits)
    if n <= PAIRWISE_MAX:
        for i in range(n):
            for j in range(i + 1, n):
                yield [-lits[i], -lits[j]]
        return
    s = ids.take(n - 1)
    yield [-lits[0], s[0]]
    for i in range(1, n - 1):
        yield [-s[i - 1], s[i]]
        yield [-lits[i], -s[i - 1]]
        yield [-lits[i], s[i]]
    yield [-lits[n - 1], -s[n - 2]]


def _gaps(clue: Sequence[Block]) -> list[int]:
    """The least gap after each block but the last: 1 before a block of the same colour."""
    return [int(a[1] == b[1]) for a, b in zip(clue, clue[1:])]


def _line_clauses(ids: _Ids, clue: Sequence[Block], colours: list[int],
                  cells: list[dict[int, int]]) -> Iterator[list[int]]:
    """The clauses tying one line's cells to its block starts (see the module docstring)."""
    n = len(cells)
    starts = feasible_starts([length for length, _ in clue], n, _gaps(clue))
    # var[k][i] is block k starting at starts[k][i]; the ranges are contiguous.
    var = [ids.take(len(rng)) for rng in starts]
    covering: dict[int, list[list[int]]] = {c: [[] for _ in range(n)] for c in colours}
    for k, (length, colour) in enumerate(clue):
        lits, first = var[k], starts[k].start
        yield lits
        yield from _at_most_one(ids, lits)
        for i, y in enumerate(lits):
            s = first + i
            for x in cells[s:s + length]:
                yield [-y, x[colour]]
            if s > 0:
                yield [-y, -cells[s - 1][colour]]
            if s + length < n:
                yield [-y, -cells[s + length][colour]]
            for c in range(s, s + length):
                covering[colour][c].append(y)
        if k + 1 < len(clue):
            # Both ranges have the same length and block k+1 starts length+gap later at the
            # earliest: so block k at index i needs block k+1 at an index >= i, and back.
            nxt = var[k + 1]
            for i, y in enumerate(lits):
                yield [-y] + nxt[i:]
            for j, z in enumerate(nxt):
                yield [-z] + lits[:j + 1]
    for colour in colours:
        for c, x in enumerate(cells):
            yield [-x[colour]] + covering[colour][c]


def _order_line_clauses(ids: _Ids, clue: Sequence[Block], fill: Sequence[int] | Sequence[list[int]],
                        empty: list[int]) -> Iterator[list[int]]:
    """The order model of one line (see the module docstring). ``fill[i]`` is cell i's
    variable (black and white) or its per-colour variables (colour); ``empty[i]`` the literal
    "cell i is empty" (not filled; the background colour)."""
    n, nblocks = len(empty), len(clue)
    if nblocks == 0:
        for lit in empty:
            yield [lit]
        return
    starts = feasible_starts([length for length, _ in clue], n, _gaps(clue))
    slack = len(starts[0]) - 1
    # at[k][j]: block k starts at or before starts[k].start + j (j < slack; at slack: always)
    at = [ids.take(slack) for _ in clue]

    def filled(i: int, colour: int) -> int:
        x = fill[i]
        return x if isinstance(x, int) else x[colour]

    for k, (length, colour) in enumerate(clue):
        o, first = at[k], starts[k].start
        for j in range(slack - 1):
            yield [-o[j], o[j + 1]]
        for j in range(slack + length):  # cell first + j is covered when ...
            clause = [filled(first + j, colour)]
            if j < slack:  # ... block k starts at or before it ...
                clause.append(-o[j])
            if j >= length:  # ... and not at or before j - length
                clause.append(o[j - length])
            yield clause
        if k + 1 < nblocks:
            # block k+1 at or before starts[k+1].start + j: block k at or before its own + j
            nxt = at[k + 1]
            for j in range(slack):
                yield [-nxt[j], o[j]]
            # the cells between block k's end and block k+1's start are empty
            gap_first = first + length
            for j in range(starts[k + 1].start - gap_first + slack):
                clause = [empty[gap_first + j]]
                if j < slack:  # block k ends at or before the cell (else never: dropped)
                    clause.append(-o[j])
                if j >= starts[k + 1].start - gap_first:  # block k+1 starts after it
                    clause.append(nxt[j - (starts[k + 1].start - gap_first)])
                yield clause
    for j in range(slack):  # before the first block, after the last
        yield [at[0][j], empty[j]]
    last = starts[-1].start + clue[-1][0]
    for j in range(slack):
        yield [-at[-1][j], empty[last + j]]


def _order_line_size(clue: Sequence[Block], n: int) -> tuple[int, int, int]:
    """(variables, clauses, literals) of ``_order_line_clauses`` for one line of n cells."""
    if not clue:
        return 0, n, n
    gaps = _gaps(clue)
    slack = n - sum(length for length, _ in clue) - sum(gaps)
    k = len(clue)
    count = k * max(slack - 1, 0) + (k - 1) * slack + 2 * slack
    literals = 2 * count
    for length, _ in clue:  # covering
        count += slack + length
        literals += length + 3 * slack
    for gap in gaps:  # between blocks
        count += gap + slack
        literals += gap + 3 * slack
    return k * slack, count, literals


def size(puzzle: AnyPuzzle, known: Grid | None = None, stop_at: int | None = None,
         encoding: str | None = None, deadline: float | None = None) -> ModelSize:
    """The size of ``clauses(puzzle, known, encoding)``, counted from the clues without
    building it; once the literals pass ``stop_at`` the count stops there (the model is too
    big anyway), and so it does at the ``deadline`` (a model that is not built in time: the
    caller looks at the clock after the count)."""
    encoding = encoding_for(puzzle, encoding)
    variables, count, literals = cell_variables(puzzle), 0, 0
    colour = colour_of(puzzle)
    if colour is not None:
        k, cells = len(colour.palette), puzzle.width * puzzle.height
        amo = 0 if k <= PAIRWISE_MAX else k - 1  # exactly one colour per cell
        pairs = k * (k - 1) // 2 if k <= PAIRWISE_MAX else 3 * k - 4
        variables += cells * amo
        count += cells * (1 + pairs)
        literals += cells * (k + 2 * pairs)
    for clue, colours, n in _line_specs(puzzle):
        v, c, lits = (_order_line_size(clue, n) if encoding == "order"
                      else _line_size(clue, colours, n))
        variables, count, literals = variables + v, count + c, literals + lits
        if ((stop_at is not None and literals > stop_at)
                or (deadline is not None and time.perf_counter() >= deadline)):
            return ModelSize(variables, count, literals)
    if known is not None:
        units = sum(len(row) - row.count(UNKNOWN) for row in known)
        count, literals = count + units, literals + units
    return ModelSize(variables, count, literals)


def _line_specs(puzzle: AnyPuzzle) -> Iterator[tuple[Sequence[Block], int, int]]:
    """Each line as (blocks, colours, length), rows first, made as the count goes (it may
    stop after the first line of a huge puzzle)."""
    colour = colour_of(puzzle)
    if colour is not None:
        colours = len(colour.palette) - 1
        yield from ((clue, colours, puzzle.width) for clue in colour.rows)
        yield from ((clue, colours, puzzle.height) for clue in colour.cols)
        return
    bw = cast(Puzzle, puzzle)
    yield from (([(n, 1) for n in clue], 1, puzzle.width) for clue in bw.rows)
    yield from (([(n, 1) for n in clue], 1, puzzle.height) for clue in bw.cols)


def _line_size(clue: Sequence[Block], colours: int, n: int) -> tuple[int, int, int]:
    """(variables, clauses, literals) of ``_line_clauses`` for one line of n cells, in plain
    sums: a 1000-cell line has hundreds of blocks, and a big puzzle thousands of lines."""
    variables, count, literals = 0, colours * n, colours * n  # the covering clauses' heads
    need = sum(length for length, _ in clue) + sum(_gaps(clue))
    before = 0  # cells the blocks before this one take, with their gaps, packed
    for k, (length, colour) in enumerate(clue):
        m = n - need + 1  # the feasible starts: the line's slack + 1
        neighbours = 2 * m - int(before == 0) - int(before + m - 1 + length == n)
        # at least one start; fill and neighbour clauses; each start in the covering
        # clauses of the cells it covers; at most one start
        variables += m
        count += 1 + m * length + neighbours
        literals += m + 3 * m * length + 2 * neighbours
        if m > PAIRWISE_MAX:
            variables += m - 1
            count += 3 * m - 4
            literals += 6 * m - 8
        else:
            count += m * (m - 1) // 2
            literals += m * (m - 1)
        if k + 1 < len(clue):  # the order clauses to the next block, both ways
            count += 2 * m
            literals += 2 * m + m * (m + 1)
            before += length + int(colour == clue[k + 1][1])
    return variables, count, literals
