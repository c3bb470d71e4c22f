"""The two compiled engines behind one small protocol, and the one place that picks one.

``_core`` searches black-and-white puzzles (its grids are bytes of '#', '.' and '?');
``_colour`` searches colour puzzles of up to 32 colours (a cell is its palette index, 255
while more than one colour is possible). Both make a ``Search`` that satisfies ``CoreSearch``,
so the face (``gridsolve.nonogram.engine``) drives either the same way; an ``Engine`` says
how to make one for a puzzle and how to read its grids. ``engine_for`` chooses.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar, cast

import gridsolve.nonogram.engine._colour as _colour
import gridsolve.nonogram.engine._core as _core
from gridsolve.errors import GridsolveError
from gridsolve.nonogram.engine.results import Event
from gridsolve.nonogram.model import (UNKNOWN, AnyPuzzle, Colour, ColourPuzzle, Grid, Puzzle,
                                      is_colour_solution, is_solution)

__all__ = ["CoreSearch", "Engine", "Options", "Outcome", "Abilities", "BLACK_AND_WHITE",
           "COLOUR", "engine_for", "abilities", "checked_grid"]

#: Where a call of ``CoreSearch.next`` stopped.
Outcome = Literal["solution", "exhausted", "limit"]


class CoreSearch(Protocol):
    """A resumable compiled search of one puzzle (both ``_core.Search`` and ``_colour.Search``).

    ``next`` runs to the next solution, the end of the tree or a limit (a negative
    ``max_nodes`` or ``timeout`` is none) and returns a code the engine's ``outcomes`` name;
    ``grid`` is the solution it stands on, ``root`` the cells proven at its root, ``stats``
    its counters (``nodes``, ``timed_out``, ...)."""

    def next(self, max_nodes: int = ..., timeout: float = ..., max_work: int = ...) -> int: ...
    def grid(self) -> bytes: ...
    def root(self) -> bytes: ...
    def stats(self) -> dict[str, int]: ...


@dataclass(frozen=True)
class Options:
    """How to search: probe every unknown cell at every node; implication probing on top
    (black and white only; the colour engine has none); an observer of every event; restarts
    on a Luby schedule for the first solution (black and white only)."""

    probing: bool = True
    implications: bool = True
    on_event: Event | None = None
    restarts: bool = False
    #: cells set before the search starts (black and white: '#', '.'; colour: a palette
    #: symbol; anything else open): only the solutions that agree are found (without an
    #: observer)
    known: Grid | None = None
    #: keep what the probes at the root narrowed, for a SAT hand-over (colour only:
    #: ``engine.analyse_colour``; black and white has ``Team.root_implications``)
    root_implications: bool = False


@dataclass(frozen=True)
class Abilities:
    """What an engine can do: callers ask this, never the puzzle's type (issue 52)."""

    #: a team of searches with different branching rules, restarts with nogoods, and the
    #: root's probe implications for a SAT hand-over (``team.Team``)
    team: bool = False
    #: the dive by belief propagation (``Team.dive``)
    dive: bool = False
    #: restarts of a single search (``solve(..., restarts=True)``)
    restart: bool = False
    #: known cells set before the search (``Options.known``: a partial grid)
    known: bool = False
    #: an observer of every step (``Options.on_event``: ``--steps``, ``--animate``)
    watch: bool = False
    #: local moves next to a solution (``engine.nearby``) and a search guided by one
    #: (``engine.guided``): what lets a SAT program, which starts anew for each solution,
    #: find the next cheaply
    moves: bool = False
    #: what the root's probes narrowed, kept for a SAT hand-over (``Options.root_implications``)
    root_clauses: bool = False


P_contra = TypeVar("P_contra", bound=AnyPuzzle, contravariant=True)


class Engine(Protocol[P_contra]):
    """One compiled engine as the face sees it."""

    @property
    def name(self) -> str: ...
    @property
    def outcomes(self) -> dict[int, Outcome]: ...
    @property
    def abilities(self) -> Abilities:
        """What it can do (``Abilities``)."""
    def search(self, puzzle: P_contra, options: Options) -> CoreSearch: ...
    def read(self, puzzle: P_contra, data: bytes) -> Grid: ...
    def is_solution(self, puzzle: P_contra, grid: Grid) -> bool: ...


def known_bytes(puzzle: Puzzle, known: Grid) -> bytes:
    """A grid of known cells as the core takes it (a byte per cell: '#', '.', '?'), checked
    against the puzzle's size; any other character is an open cell."""
    if len(known) != puzzle.height or any(len(row) != puzzle.width for row in known):
        raise GridsolveError(f"the known cells are not a {puzzle.width}x{puzzle.height} grid")
    return "".join(known).translate(_OPEN).encode("ascii")


class _Open(dict[int, str]):
    """What known_bytes keeps: '#' and '.'; every other character becomes '?' (looked up,
    not stored: a hostile grid's many characters leave nothing behind)."""

    def __missing__(self, key: int) -> str:
        return "?"


_OPEN = _Open({ord("#"): "#", ord("."): "."})


def known_masks(puzzle: ColourPuzzle, known: Grid) -> bytes:
    """A grid of known cells as the colour core takes it (``Search.fix``: a native uint32
    mask per cell, bit c for colour c), checked against the puzzle's size; a palette symbol
    allows its colour alone, any other character every colour."""
    if len(known) != puzzle.height or any(len(row) != puzzle.width for row in known):
        raise GridsolveError(f"the known cells are not a {puzzle.width}x{puzzle.height} grid")
    every = (1 << len(puzzle.palette)) - 1
    bits = {c.symbol: 1 << i for i, c in enumerate(puzzle.palette)}
    masks = [bits.get(ch, every) for row in known for ch in row]
    import struct  # here: a black-and-white solve's start-up needs none (issue 56)
    return struct.pack(f"={len(masks)}I", *masks)


def _lines(text: str, width: int) -> Grid:
    return tuple(text[i:i + width] for i in range(0, len(text), width))


class _BlackAndWhite:
    """``_core``: the black-and-white engine, with implication probing, an event observer,
    restarts and branching rules for a team."""

    name = "black-and-white"
    outcomes: dict[int, Outcome] = {_core.SOLUTION: "solution", _core.EXHAUSTED: "exhausted",
                                    _core.LIMIT: "limit"}
    abilities = Abilities(team=True, dive=True, restart=True, known=True, watch=True,
                          moves=True)

    def search(self, puzzle: Puzzle, options: Options) -> CoreSearch:
        core = _core.Search(puzzle.rows, puzzle.cols, options.probing, options.on_event,
                            options.implications)
        if options.known is not None:
            if options.on_event is not None:
                raise GridsolveError("a watched search starts from the empty grid")
            core.fix(known_bytes(puzzle, options.known))
        return core

    def read(self, puzzle: Puzzle, data: bytes) -> Grid:
        return _lines(data.decode("ascii"), puzzle.width)

    def is_solution(self, puzzle: Puzzle, grid: Grid) -> bool:
        return is_solution(puzzle, grid)


class _Colour:
    """``_colour``: the colour engine (any palette of up to 32 colours, background included),
    with known cells and an event observer (its events: colour.h)."""

    name = "colour"
    outcomes: dict[int, Outcome] = {_colour.SOLUTION: "solution",
                                    _colour.EXHAUSTED: "exhausted", _colour.LIMIT: "limit"}
    abilities = Abilities(known=True, watch=True, root_clauses=True)
    #: What the core writes for a cell that still has more than one colour.
    NOT_KNOWN = _colour.NOT_KNOWN

    def search(self, puzzle: ColourPuzzle, options: Options) -> CoreSearch:
        if options.restarts:
            raise GridsolveError("restarts are for black-and-white puzzles only")
        if options.known is not None and options.root_implications:
            raise GridsolveError("the root's implications are of the clues alone: a search "
                                 "from known cells does not keep them")
        if options.known is not None and options.on_event is not None:
            raise GridsolveError("a watched search starts from the empty grid")
        core = _colour.Search(puzzle.rows, puzzle.cols, len(puzzle.palette), options.probing,
                              options.root_implications, options.on_event)
        if options.known is not None:
            core.fix(known_masks(puzzle, options.known))
        return core

    def read(self, puzzle: ColourPuzzle, data: bytes) -> Grid:
        return _lines(data.decode("latin-1").translate(_symbols(puzzle.palette)), puzzle.width)

    def is_solution(self, puzzle: ColourPuzzle, grid: Grid) -> bool:
        return is_colour_solution(puzzle, grid)


@functools.lru_cache(maxsize=64)
def _symbols(palette: tuple[Colour, ...]) -> dict[int, str]:
    """The table that turns the colour core's cell bytes into a palette's symbols."""
    table = {i: c.symbol for i, c in enumerate(palette)}
    table[_Colour.NOT_KNOWN] = UNKNOWN
    return table


BLACK_AND_WHITE: Engine[Puzzle] = _BlackAndWhite()
COLOUR: Engine[ColourPuzzle] = _Colour()

#: The engine of each kind of puzzle (``Puzzle.kind``).
_ENGINES: dict[str, Engine[Any]] = {Puzzle.kind: BLACK_AND_WHITE, ColourPuzzle.kind: COLOUR}

P = TypeVar("P", bound=AnyPuzzle)


def engine_for(puzzle: P) -> Engine[P]:
    """The compiled engine that searches this kind of puzzle."""
    return cast("Engine[P]", _ENGINES[puzzle.kind])


def abilities(puzzle: AnyPuzzle) -> Abilities:
    """What the engine of this puzzle can do."""
    return _ENGINES[puzzle.kind].abilities


def checked_grid(engine: Engine[P], puzzle: P, data: bytes) -> Grid:
    """The solution a search stands on, checked against the clues by the model."""
    grid = engine.read(puzzle, data)
    if not engine.is_solution(puzzle, grid):  # pragma: no cover - a bug in the core
        raise GridsolveError(f"internal error: the {engine.name} engine produced a grid that "
                             "breaks the clues; please report this puzzle")
    return grid
